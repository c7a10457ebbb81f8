// SPDX-License-Identifier: MIT
/*
 * One value as text, following TdhFormatProperty (Microsoft Learn,
 * "TdhFormatProperty" and "EVENT_PROPERTY_INFO"'s in/out type table):
 * see format.h for the rules.  Where Windows' text depends on the
 * machine (message tables for WIN32ERROR, NTSTATUS and HRESULT, the local
 * time zone and the invisible direction marks around dates), this gives
 * the locale-free form: the code in hex, times in UTC ISO 8601.  Bit maps
 * join their names with " | " (Windows' separator is not documented).
 *
 * Written by hand for speed (etw dump formats every field of every
 * record): no printf on the integer paths, one reserve per value.
 */
#include <arpa/inet.h>
#include <endian.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "format.h"

int decode_text_reserve(struct decode_text *t, size_t n)
{
	size_t cap;
	char *p;

	if (t->len + n + 1 <= t->cap)
		return 0;
	cap = t->cap ? t->cap : 1024;
	while (cap < t->len + n + 1)
		cap *= 2;
	p = realloc(t->p, cap);
	if (!p)
		return -ENOMEM;
	t->p = p;
	t->cap = cap;
	return 0;
}

static int put(struct decode_text *t, const char *s, size_t n)
{
	if (decode_text_reserve(t, n))
		return -ENOMEM;
	memcpy(t->p + t->len, s, n);
	t->len += n;
	t->p[t->len] = '\0';
	return 0;
}

static int dec_u(struct decode_text *t, uint64_t v, bool neg)
{
	char b[24], *e = b + sizeof(b), *s = e;

	do {
		*--s = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	if (neg)
		*--s = '-';
	return put(t, s, (size_t)(e - s));
}

static int dec_i(struct decode_text *t, int64_t v)
{
	return v < 0 ? dec_u(t, 0 - (uint64_t)v, true) : dec_u(t, (uint64_t)v, false);
}

static const char HEX[] = "0123456789ABCDEF";

static int hex(struct decode_text *t, uint64_t v)
{
	char b[20], *e = b + sizeof(b), *s = e;

	do {
		*--s = HEX[v & 15];
		v >>= 4;
	} while (v);
	*--s = 'x';
	*--s = '0';
	return put(t, s, (size_t)(e - s));
}

static int hex_bytes(struct decode_text *t, const uint8_t *p, uint32_t n)
{
	char *o;

	if (!n)
		return 0;
	if (decode_text_reserve(t, 2 + 2 * (size_t)n))
		return -ENOMEM;
	o = t->p + t->len;
	*o++ = '0';
	*o++ = 'x';
	for (uint32_t i = 0; i < n; i++) {
		*o++ = HEX[p[i] >> 4];
		*o++ = HEX[p[i] & 15];
	}
	t->len = (size_t)(o - t->p);
	*o = '\0';
	return 0;
}

/* UTF-16LE code units (n bytes) up to a NUL, as UTF-8; bad pairs: U+FFFD. */
static int utf16(struct decode_text *t, const uint8_t *p, uint32_t n)
{
	uint32_t units = n / 2;
	char *o;

	/* At most 3 bytes per unit (a pair of 2 units is 4 bytes). */
	if (decode_text_reserve(t, 3 * (size_t)units))
		return -ENOMEM;
	o = t->p + t->len;
	for (uint32_t i = 0; i < units; i++) {
		uint32_t c;

		/* Four ASCII units, none of them NUL, at a time. */
		while (i + 4 <= units) {
			const uint64_t low = 0x0001000100010001ull;
			uint64_t x;

			memcpy(&x, p + 2 * i, 8);
			x = le64toh(x);
			if ((x & 0xFF80FF80FF80FF80ull) ||
			    ((x - low) & ~x & (low << 15)))
				break;
			o[0] = (char)x;
			o[1] = (char)(x >> 16);
			o[2] = (char)(x >> 32);
			o[3] = (char)(x >> 48);
			o += 4;
			i += 4;
		}
		if (i >= units)
			break;
		c = p[2 * i] | (uint32_t)p[2 * i + 1] << 8;

		if (c < 0x80) {
			if (!c)
				break;
			*o++ = (char)c;
			continue;
		}
		if (c >= 0xD800 && c <= 0xDBFF && i + 1 < units) {
			uint32_t d = p[2 * i + 2] | (uint32_t)p[2 * i + 3] << 8;

			if (d >= 0xDC00 && d <= 0xDFFF) {
				c = 0x10000 + ((c - 0xD800) << 10) + (d - 0xDC00);
				i++;
			} else {
				c = 0xFFFD;
			}
		} else if (c >= 0xD800 && c <= 0xDFFF) {
			c = 0xFFFD;
		}
		if (c < 0x800) {
			*o++ = (char)(0xC0 | c >> 6);
		} else if (c < 0x10000) {
			*o++ = (char)(0xE0 | c >> 12);
			*o++ = (char)(0x80 | ((c >> 6) & 0x3F));
		} else {
			*o++ = (char)(0xF0 | c >> 18);
			*o++ = (char)(0x80 | ((c >> 12) & 0x3F));
			*o++ = (char)(0x80 | ((c >> 6) & 0x3F));
		}
		*o++ = (char)(0x80 | (c & 0x3F));
	}
	t->len = (size_t)(o - t->p);
	*o = '\0';
	return 0;
}

/* 8-bit text up to a NUL, as stored (the formats repair invalid UTF-8). */
static int ansi(struct decode_text *t, const uint8_t *p, uint32_t n)
{
	const uint8_t *z = memchr(p, 0, n);

	return put(t, (const char *)p, z ? (size_t)(z - p) : n);
}

static int guid(struct decode_text *t, const uint8_t *p)
{
	/* Data1, Data2, Data3 little-endian, then Data4's bytes in order. */
	static const int8_t order[20] = { 3, 2, 1, 0, -1, 5, 4, -1, 7, 6, -1,
					  8, 9, -1, 10, 11, 12, 13, 14, 15 };
	char b[38], *o = b;

	*o++ = '{';
	for (int i = 0; i < 20; i++) {
		if (order[i] < 0) {
			*o++ = '-';
			continue;
		}
		*o++ = HEX[p[order[i]] >> 4];
		*o++ = HEX[p[order[i]] & 15];
	}
	*o++ = '}';
	return put(t, b, (size_t)(o - b));
}

static int sid(struct decode_text *t, const uint8_t *p, uint32_t n)
{
	char b[ETW_ETL_SID_STRLEN];
	int len = etw_etl_sid_to_str(p, n, b, sizeof(b));

	if (len < 0)
		return -EBADMSG;
	return put(t, b, strlen(b));
}

static int filetime(struct decode_text *t, uint64_t ft)
{
	char b[40];

	if (etw_etl_format_filetime(ft, b, sizeof(b)) < 0)
		return hex(t, ft);
	return put(t, b, strlen(b));
}

static int systemtime(struct decode_text *t, const uint8_t *p)
{
	char b[48];
	int n = snprintf(b, sizeof(b), "%04u-%02u-%02uT%02u:%02u:%02u.%03u",
			 (unsigned int)decode_le(p, 2), (unsigned int)decode_le(p + 2, 2),
			 (unsigned int)decode_le(p + 6, 2), (unsigned int)decode_le(p + 8, 2),
			 (unsigned int)decode_le(p + 10, 2), (unsigned int)decode_le(p + 12, 2),
			 (unsigned int)decode_le(p + 14, 2));

	return put(t, b, (size_t)n);
}

/* The shortest text that reads back as the same value. */
static int real(struct decode_text *t, double v, int max_digits)
{
	char b[40];
	int n = 0;

	for (int prec = 6; prec <= max_digits; prec++) {
		n = snprintf(b, sizeof(b), "%.*g", prec, v);
		if (max_digits == 9 ? (float)strtod(b, NULL) == (float)v :
				      strtod(b, NULL) == v)
			break;
	}
	return put(t, b, (size_t)n);
}

static int ip(struct decode_text *t, int af, const uint8_t *p)
{
	char b[INET6_ADDRSTRLEN];

	if (!inet_ntop(af, p, b, sizeof(b)))
		return -EBADMSG;
	return put(t, b, strlen(b));
}

/*
 * A SOCKADDR: family (little-endian), the port in network order, then the
 * address; "a.b.c.d:port" for AF_INET (2), "[addr]:port" for AF_INET6 (23
 * on Windows, 10 where a Linux writer filled it in), as TdhFormatProperty
 * writes them.  Any other family is hex.
 */
static int sockaddr(struct decode_text *t, const uint8_t *p, uint32_t n)
{
	unsigned int family = n >= 2 ? (unsigned int)decode_le(p, 2) : 0;
	unsigned int port = n >= 4 ? (unsigned int)(p[2] << 8 | p[3]) : 0;
	int af = family == 2 && n >= 8 ? AF_INET :
		 (family == 23 || family == 10) && n >= 24 ? AF_INET6 : 0;
	int ret;

	if (!af)
		return hex_bytes(t, p, n);
	if (af == AF_INET6 && put(t, "[", 1))
		return -ENOMEM;
	ret = ip(t, af, af == AF_INET ? p + 4 : p + 8);
	if (!ret && af == AF_INET6)
		ret = put(t, "]", 1);
	if (!ret)
		ret = put(t, ":", 1);
	return ret ? ret : dec_u(t, port, false);
}

/* Bytes by their out-type: an address, a socket address or hex. */
static int binary(struct decode_text *t, uint16_t out_type, const uint8_t *p,
		  uint32_t n)
{
	if (out_type == TDH_OUTTYPE_IPV6 && n == 16)
		return ip(t, AF_INET6, p);
	if (out_type == TDH_OUTTYPE_IPV4 && n == 4)
		return ip(t, AF_INET, p);
	if (out_type == TDH_OUTTYPE_SOCKETADDRESS)
		return sockaddr(t, p, n);
	return hex_bytes(t, p, n);
}

/* A value map's entry for v, or NULL. */
static const struct decode_map_entry *map_find(const struct decode_map *m,
					       uint32_t v)
{
	if (m->sorted) {
		uint32_t lo = 0, hi = m->count;

		while (lo < hi) {
			uint32_t mid = lo + (hi - lo) / 2;

			if (m->entries[mid].value == v)
				return &m->entries[mid];
			if (m->entries[mid].value < v)
				lo = mid + 1;
			else
				hi = mid;
		}
		return NULL;
	}
	for (uint32_t i = 0; i < m->count; i++)
		if (m->entries[i].value == v)
			return &m->entries[i];
	return NULL;
}

static bool is_bitmap(const struct decode_map *m)
{
	return m->flags & (EVENTMAP_INFO_FLAG_MANIFEST_BITMAP |
			   EVENTMAP_INFO_FLAG_WBEM_BITMAP);
}

/* v through map m: 1 if written, 0 if the caller writes the number. */
static int mapped(struct decode_text *t, const struct decode_map *m,
		  uint64_t v64)
{
	uint32_t v = (uint32_t)v64, rest = v;
	bool any = false;
	int ret;

	if (!is_bitmap(m)) {
		const struct decode_map_entry *e = map_find(m, v);

		if (!e)
			return 0;
		return put(t, e->name, e->name_len) ? -ENOMEM : 1;
	}
	for (uint32_t i = 0; i < m->count; i++) {
		const struct decode_map_entry *e = &m->entries[i];

		if (!e->value ? v != 0 : (v & e->value) != e->value)
			continue;
		if ((any && put(t, " | ", 3)) || put(t, e->name, e->name_len))
			return -ENOMEM;
		any = true;
		rest &= ~e->value;
	}
	if (any && rest) {
		ret = put(t, " | ", 3);
		if (!ret)
			ret = hex(t, rest);
		if (ret)
			return ret;
	}
	return any;
}

static bool hex_out(uint16_t out_type)
{
	switch (out_type) {
	case TDH_OUTTYPE_HEXINT8:
	case TDH_OUTTYPE_HEXINT16:
	case TDH_OUTTYPE_HEXINT32:
	case TDH_OUTTYPE_HEXINT64:
	case TDH_OUTTYPE_ERRORCODE:
	case TDH_OUTTYPE_WIN32ERROR:
	case TDH_OUTTYPE_NTSTATUS:
	case TDH_OUTTYPE_HRESULT:
	case TDH_OUTTYPE_CODE_POINTER:
		return true;
	default:
		return false;
	}
}

/* Integers of every width and their out-types. */
static int integer(struct decode_text *t, uint16_t in_type, uint16_t out_type,
		   const struct decode_map *map, const uint8_t *p, uint32_t n,
		   bool *number)
{
	uint64_t u = decode_le(p, n);
	bool is_signed = in_type == TDH_INTYPE_INT8 || in_type == TDH_INTYPE_INT16 ||
			 in_type == TDH_INTYPE_INT32 || in_type == TDH_INTYPE_INT64;
	int64_t s = 0;
	int ret;

	if (is_signed)
		s = n == 1 ? (int8_t)u : n == 2 ? (int16_t)u :
		    n == 4 ? (int32_t)u : (int64_t)u;
	if (map) {
		ret = mapped(t, map, u);
		if (ret)
			return ret < 0 ? ret : 0;
	}
	switch (out_type) {
	case TDH_OUTTYPE_BOOLEAN:
		return u ? put(t, "true", 4) : put(t, "false", 5);
	case TDH_OUTTYPE_IPV4:
		if (n == 4)
			return ip(t, AF_INET, p);
		break;
	case TDH_OUTTYPE_PORT:
		if (n == 2)
			return dec_u(t, (uint64_t)p[0] << 8 | p[1], false);
		break;
	case TDH_OUTTYPE_STRING:
		/* A character: UINT8 is ANSI, UINT16 a UTF-16 unit. */
		if (n == 1 && u)
			return put(t, (const char *)p, 1);
		if (n == 2 && u)
			return utf16(t, p, 2);
		break;
	default:
		break;
	}
	if (hex_out(out_type) || in_type == TDH_INTYPE_HEXINT32 ||
	    in_type == TDH_INTYPE_HEXINT64 || in_type == TDH_INTYPE_POINTER)
		return hex(t, u);
	if (number)
		*number = true;
	return is_signed ? dec_i(t, s) : dec_u(t, u, false);
}

int decode_format_value(struct decode_text *t, uint16_t in_type,
			uint16_t out_type, const struct decode_map *map,
			unsigned int pointer_size, const uint8_t *p,
			uint32_t n, bool *number)
{
	uint32_t tok = 2 * (pointer_size == 4 ? 4 : 8);
	float f;
	double d;

	if (number)
		*number = false;
	/* NUL-terminated even when the value is empty. */
	if (t->len + 1 > t->cap && decode_text_reserve(t, 0))
		return -ENOMEM;
	t->p[t->len] = '\0';
	/* Most fields: an unsigned number, hex or a pointer, no map. */
	if (!map && n && n <= 8) {
		switch (in_type) {
		case TDH_INTYPE_UINT8:
		case TDH_INTYPE_UINT16:
		case TDH_INTYPE_UINT32:
		case TDH_INTYPE_UINT64:
		case TDH_INTYPE_SIZET:
			if (out_type == TDH_OUTTYPE_NULL) {
				if (number)
					*number = true;
				return dec_u(t, decode_le(p, n), false);
			}
			if (out_type >= TDH_OUTTYPE_HEXINT8 &&
			    out_type <= TDH_OUTTYPE_HEXINT64)
				return hex(t, decode_le(p, n));
			break;
		case TDH_INTYPE_POINTER:
		case TDH_INTYPE_HEXINT32:
		case TDH_INTYPE_HEXINT64:
			if (out_type == TDH_OUTTYPE_NULL)
				return hex(t, decode_le(p, n));
			break;
		}
	}
	switch (in_type) {
	case TDH_INTYPE_UNICODESTRING:
	case TDH_INTYPE_NONNULLTERMINATEDSTRING:
		return utf16(t, p, n);
	case TDH_INTYPE_ANSISTRING:
	case TDH_INTYPE_NONNULLTERMINATEDANSISTRING:
		return ansi(t, p, n);
	case TDH_INTYPE_MANIFEST_COUNTEDSTRING:
	case TDH_INTYPE_COUNTEDSTRING:
	case TDH_INTYPE_REVERSEDCOUNTEDSTRING:
		return n < 2 ? -EBADMSG : utf16(t, p + 2, n - 2);
	case TDH_INTYPE_MANIFEST_COUNTEDANSISTRING:
	case TDH_INTYPE_COUNTEDANSISTRING:
	case TDH_INTYPE_REVERSEDCOUNTEDANSISTRING:
		return n < 2 ? -EBADMSG : ansi(t, p + 2, n - 2);
	case TDH_INTYPE_MANIFEST_COUNTEDBINARY:
		return n < 2 ? -EBADMSG : binary(t, out_type, p + 2, n - 2);
	case TDH_INTYPE_INT8:
	case TDH_INTYPE_UINT8:
	case TDH_INTYPE_INT16:
	case TDH_INTYPE_UINT16:
	case TDH_INTYPE_INT32:
	case TDH_INTYPE_UINT32:
	case TDH_INTYPE_INT64:
	case TDH_INTYPE_UINT64:
	case TDH_INTYPE_HEXINT32:
	case TDH_INTYPE_HEXINT64:
	case TDH_INTYPE_POINTER:
	case TDH_INTYPE_SIZET:
		if (!n || n > 8)
			return -EBADMSG;
		return integer(t, in_type, out_type, map, p, n, number);
	case TDH_INTYPE_BOOLEAN:
		if (n != 4)
			return -EBADMSG;
		return decode_le(p, 4) ? put(t, "true", 4) : put(t, "false", 5);
	case TDH_INTYPE_FLOAT:
		if (n != 4)
			return -EBADMSG;
		memcpy(&f, p, 4);
		if (number)
			*number = f == f && f - f == 0;
		return real(t, f, 9);
	case TDH_INTYPE_DOUBLE:
		if (n != 8)
			return -EBADMSG;
		memcpy(&d, p, 8);
		if (number)
			*number = d == d && d - d == 0;
		return real(t, d, 17);
	case TDH_INTYPE_GUID:
		return n != 16 ? -EBADMSG : guid(t, p);
	case TDH_INTYPE_FILETIME:
		return n != 8 ? -EBADMSG : filetime(t, decode_le(p, 8));
	case TDH_INTYPE_SYSTEMTIME:
		return n != 16 ? -EBADMSG : systemtime(t, p);
	case TDH_INTYPE_SID:
		return sid(t, p, n);
	case TDH_INTYPE_WBEMSID:
		/* TOKEN_USER, then the SID; 4 zero bytes: no SID. */
		if (n == 4)
			return 0;
		return n < tok ? -EBADMSG : sid(t, p + tok, n - tok);
	case TDH_INTYPE_BINARY:
		return binary(t, out_type, p, n);
	case TDH_INTYPE_HEXDUMP:
		return hex_bytes(t, p, n);
	case TDH_INTYPE_UNICODECHAR:
		return n != 2 ? -EBADMSG : utf16(t, p, 2);
	case TDH_INTYPE_ANSICHAR:
		return n != 1 ? -EBADMSG : ansi(t, p, 1);
	default:
		return -EBADMSG;
	}
}
