// SPDX-License-Identifier: MIT
/*
 * One WPP argument: its bytes in the payload (sizes as WPP's templates
 * log them, wpp.md §1.4) and its text, by the %N!spec! that shows it
 * (printf's and FormatMessage's conversions with MSVC's size prefixes) or
 * by what the item type means (status codes with their names, GUIDs,
 * addresses, times, lists, sets, enumerations, SIDs).  Every read is
 * bounded by the payload: short or malformed bytes give a marker in the
 * text and -EBADMSG, never a read past the end.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "../common/internal.h"
#include "wpp.h"

/*
 * printf with a format made by spec_format() from a parsed spec (flags
 * from "-+ #0", width, precision, one conversion): never a format taken
 * from the TMF as it is.
 */
static void spec_printf(struct wpp_buf *out, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	wb_vprintf(out, fmt, ap);
	va_end(ap);
}

bool wpp_spec_parse(const char *s, size_t n, struct wpp_spec *sp)
{
	size_t i = 0, f = 0;

	memset(sp, 0, sizeof(*sp));
	sp->width = -1;
	sp->precision = -1;
	while (i < n && strchr("-+ #0", s[i]) && f < sizeof(sp->flags) - 1)
		sp->flags[f++] = s[i++];
	if (i < n && s[i] >= '0' && s[i] <= '9') {
		sp->width = 0;
		while (i < n && s[i] >= '0' && s[i] <= '9' && sp->width < 1000)
			sp->width = sp->width * 10 + (s[i++] - '0');
	}
	if (i < n && s[i] == '.') {
		i++;
		sp->precision = 0;
		while (i < n && s[i] >= '0' && s[i] <= '9' && sp->precision < 1000)
			sp->precision = sp->precision * 10 + (s[i++] - '0');
	}
	/* Size prefixes: the item type fixes the size, so they are skipped. */
	for (;;) {
		if (i + 3 <= n && (!memcmp(s + i, "I64", 3) || !memcmp(s + i, "I32", 3)))
			i += 3;
		else if (i < n && strchr("hlLIwzjtq", s[i]))
			i++;
		else
			break;
	}
	if (i + 1 != n)
		return false;
	sp->conv = s[i];
	return true;
}

static uint64_t le(const uint8_t *p, unsigned int n)
{
	uint64_t v = 0;

	for (unsigned int i = n; i-- > 0; )
		v = v << 8 | p[i];
	return v;
}

static int64_t sign_extend(uint64_t v, unsigned int size)
{
	if (size < 8 && (v & (1ull << (size * 8 - 1))))
		v |= ~0ull << (size * 8);
	return (int64_t)v;
}

/* Where a NUL-terminated string of unit bytes per character ends. */
static int64_t string_size(const uint8_t *p, uint32_t left, unsigned int unit)
{
	for (uint32_t i = 0; i + unit <= left; i += unit)
		if (!p[i] && (unit == 1 || !p[i + 1]))
			return i + unit;
	return -1;
}

int wpp_value_size(const struct wpp_arg *arg, const uint8_t *data,
		   uint32_t size, uint32_t off, unsigned int pointer_size)
{
	const struct wpp_item *it = arg->item;
	const uint8_t *p = data + off;
	uint32_t left = off <= size ? size - off : 0;
	int64_t n;

	switch (it->kind) {
	case WPP_K_PTR:
		n = pointer_size;
		break;
	case WPP_K_STRING:
		n = string_size(p, left, 1);
		break;
	case WPP_K_WSTRING:
		n = string_size(p, left, 2);
		break;
	case WPP_K_PSTRING:
	case WPP_K_PWSTRING:
	case WPP_K_HEXDUMP:
		n = left < 2 ? -1 : 2 + (int64_t)le(p, 2);
		break;
	case WPP_K_SID:
		n = left < 8 ? -1 : 8 + 4 * (int64_t)p[1];
		break;
	default:
		n = it->size;
		break;
	}
	if (n < 0 || n > left)
		return -EBADMSG;
	return (int)n;
}

/* 8-bit text as stored (the formats repair what is not UTF-8). */
static void put_ansi(struct wpp_buf *out, const uint8_t *s, size_t n)
{
	wb_put(out, (const char *)s, n);
}

/* Append n bytes of UTF-16LE (unaligned) as UTF-8, bad units as U+FFFD. */
static void put_utf16(struct wpp_buf *out, const uint8_t *s, size_t n)
{
	for (size_t i = 0; i + 2 <= n; i += 2) {
		uint32_t c = (uint32_t)le(s + i, 2);
		char u[4];
		size_t k;

		if (c >= 0xD800 && c < 0xDC00 && i + 4 <= n &&
		    (le(s + i + 2, 2) & 0xFC00) == 0xDC00) {
			c = 0x10000 + ((c - 0xD800) << 10) +
			    ((uint32_t)le(s + i + 2, 2) - 0xDC00);
			i += 2;
		} else if (c >= 0xD800 && c < 0xE000) {
			c = 0xFFFD;
		}
		if (c < 0x80) {
			u[0] = (char)c;
			k = 1;
		} else if (c < 0x800) {
			u[0] = (char)(0xC0 | c >> 6);
			u[1] = (char)(0x80 | (c & 0x3F));
			k = 2;
		} else if (c < 0x10000) {
			u[0] = (char)(0xE0 | c >> 12);
			u[1] = (char)(0x80 | ((c >> 6) & 0x3F));
			u[2] = (char)(0x80 | (c & 0x3F));
			k = 3;
		} else {
			u[0] = (char)(0xF0 | c >> 18);
			u[1] = (char)(0x80 | ((c >> 12) & 0x3F));
			u[2] = (char)(0x80 | ((c >> 6) & 0x3F));
			u[3] = (char)(0x80 | (c & 0x3F));
			k = 4;
		}
		wb_put(out, u, k);
	}
}

static void put_guid(struct wpp_buf *out, const uint8_t *p)
{
	struct etw_etl_guid g;
	char s[ETW_ETL_GUID_STRLEN];

	g.data1 = (uint32_t)le(p, 4);
	g.data2 = (uint16_t)le(p + 4, 2);
	g.data3 = (uint16_t)le(p + 6, 2);
	memcpy(g.data4, p + 8, 8);
	etw_etl_guid_to_str(&g, s);
	wb_puts(out, s);
}

void wpp_time_text(uint64_t filetime, bool gmt, struct wpp_buf *out)
{
	/* 100 ns units since 1601; 11644473600 s to 1970. */
	int64_t secs = (int64_t)(filetime / 10000000u) - 11644473600ll;
	unsigned int ms = (unsigned int)(filetime / 10000u % 1000u);
	time_t t = (time_t)secs;
	struct tm tm;

	if (!(gmt ? gmtime_r(&t, &tm) : localtime_r(&t, &tm)) ||
	    tm.tm_year < -1900 || tm.tm_year > 9999 - 1900) {
		wb_num(out, filetime, false, 10, false, 0, ' ');
		return;
	}
	wb_num(out, (uint64_t)tm.tm_mon + 1, false, 10, false, 2, '0');
	wb_put(out, "/", 1);
	wb_num(out, (uint64_t)tm.tm_mday, false, 10, false, 2, '0');
	wb_put(out, "/", 1);
	wb_num(out, (uint64_t)tm.tm_year + 1900, false, 10, false, 4, '0');
	wb_put(out, "-", 1);
	wb_num(out, (uint64_t)tm.tm_hour, false, 10, false, 2, '0');
	wb_put(out, ":", 1);
	wb_num(out, (uint64_t)tm.tm_min, false, 10, false, 2, '0');
	wb_put(out, ":", 1);
	wb_num(out, (uint64_t)tm.tm_sec, false, 10, false, 2, '0');
	wb_put(out, ".", 1);
	wb_num(out, ms, false, 10, false, 3, '0');
}

ETW_EXPORT void etw_wpp_format_time(uint64_t filetime, bool gmt, char *buf,
				    size_t size)
{
	struct wpp_buf b = { 0 };

	wb_reset(&b);
	wpp_time_text(filetime, gmt, &b);
	snprintf(buf, size, "%s", b.p ? b.p : "");
	wb_free(&b);
}

/* 100 ns units as seconds to the millisecond, as times are: "-1.500s". */
static void put_delta(struct wpp_buf *out, int64_t v)
{
	uint64_t a = v < 0 ? 0 - (uint64_t)v : (uint64_t)v;

	wb_num(out, a / 10000000u, v < 0, 10, false, 0, ' ');
	wb_put(out, ".", 1);
	wb_num(out, a / 10000u % 1000u, false, 10, false, 3, '0');
	wb_put(out, "s", 1);
}

static void put_code(struct wpp_buf *out, bool hex, uint32_t v,
		     const char *name)
{
	if (hex)
		wb_put(out, "0x", 2);
	wb_num(out, v, false, hex ? 16 : 10, false, 0, ' ');
	if (name) {
		wb_put(out, "(", 1);
		wb_puts(out, name);
		wb_put(out, ")", 1);
	}
}

static void put_list(struct wpp_buf *out, const struct wpp_arg *a, uint64_t v)
{
	if (v < a->name_count)
		wb_puts(out, a->names[v]);
	else
		wb_num(out, v, false, 10, false, 0, ' ');
}

static void put_set(struct wpp_buf *out, const struct wpp_arg *a, uint64_t v)
{
	bool any = false;

	for (uint32_t i = 0; i < a->name_count && i < 64; i++) {
		if (!(v & (1ull << i)))
			continue;
		wb_printf(out, "%s%s", any ? " | " : "", a->names[i]);
		v &= ~(1ull << i);
		any = true;
	}
	if (v || !any)
		wb_printf(out, "%s0x%llx", any ? " | " : "", (unsigned long long)v);
}

static void put_enum(struct etw_tmf_store *s, struct wpp_buf *out,
		     const struct wpp_arg *a, uint64_t v)
{
	const struct wpp_enum *e = s && a->name_count ?
		wpp_store_enum(s, a->names[0]) : NULL;
	int64_t x = sign_extend(v, 4);

	for (uint32_t i = 0; e && i < e->count; i++)
		if (e->entries[i].value == x ||
		    e->entries[i].value == (int64_t)(uint32_t)v) {
			wb_puts(out, e->entries[i].name);
			return;
		}
	wb_num(out, x < 0 ? 0 - (uint64_t)x : (uint64_t)x, x < 0, 10, false, 0, ' ');
}

/* The item's own text of its bytes p (n of them, checked). */
static void item_text(struct etw_tmf_store *s, const struct wpp_arg *a,
		      const uint8_t *p, uint32_t n, unsigned int ps, bool gmt,
		      struct wpp_buf *out)
{
	const struct wpp_item *it = a->item;
	uint64_t v = n <= 8 ? le(p, n) : 0;
	char ip[INET6_ADDRSTRLEN];

	switch (it->kind) {
	case WPP_K_INT:
		if (it->flags & WPP_F_SIGNED) {
			int64_t x = sign_extend(v, n);

			wb_num(out, x < 0 ? 0 - (uint64_t)x : (uint64_t)x, x < 0,
			       10, false, 0, ' ');
		} else if (it->flags & (WPP_F_HEX | WPP_F_HEX_UP)) {
			wb_put(out, "0x", 2);
			wb_num(out, v, false, 16, it->flags & WPP_F_HEX_UP, 0, ' ');
		} else if (it->flags & WPP_F_OCTAL) {
			wb_put(out, "0", 1);
			wb_num(out, v, false, 8, false, 0, ' ');
		} else {
			wb_num(out, v, false, 10, false, 0, ' ');
		}
		break;
	case WPP_K_PTR:
		wb_put(out, "0x", 2);
		wb_num(out, v, false, 16, true, (int)ps * 2, '0');
		break;
	case WPP_K_DOUBLE: {
		double d;

		memcpy(&d, p, 8);
		wb_printf(out, "%f", d);
		break;
	}
	case WPP_K_STRING:
		put_ansi(out, p, n - 1);
		break;
	case WPP_K_WSTRING:
		put_utf16(out, p, n - 2);
		break;
	case WPP_K_PSTRING:
		put_ansi(out, p + 2, n - 2);
		break;
	case WPP_K_PWSTRING:
		put_utf16(out, p + 2, n - 2);
		break;
	case WPP_K_GUID:
		put_guid(out, p);
		break;
	case WPP_K_NTSTATUS:
		put_code(out, true, (uint32_t)v, wpp_ntstatus_name((uint32_t)v));
		break;
	case WPP_K_WINERROR:
		put_code(out, false, (uint32_t)v, wpp_win32_name((uint32_t)v));
		break;
	case WPP_K_HRESULT:
		put_code(out, true, (uint32_t)v, wpp_hresult_name((uint32_t)v));
		break;
	case WPP_K_IPADDR:
		wb_puts(out, inet_ntop(AF_INET, p, ip, sizeof(ip)));
		break;
	case WPP_K_IPV6ADDR:
		wb_puts(out, inet_ntop(AF_INET6, p, ip, sizeof(ip)));
		break;
	case WPP_K_PORT:
		wb_num(out, (uint64_t)(p[0] << 8 | p[1]), false, 10, false, 0, ' ');
		break;
	case WPP_K_MACADDR:
		wb_printf(out, "%02x-%02x-%02x-%02x-%02x-%02x", p[0], p[1],
			  p[2], p[3], p[4], p[5]);
		break;
	case WPP_K_TIMESTAMP:
		wpp_time_text(v, gmt, out);
		break;
	case WPP_K_TIMEDELTA:
		put_delta(out, (int64_t)v);
		break;
	case WPP_K_WAITTIME:
		if ((int64_t)v < 0)
			put_delta(out, -(int64_t)v);
		else
			wpp_time_text(v, gmt, out);
		break;
	case WPP_K_LIST:
		put_list(out, a, v);
		break;
	case WPP_K_SET:
		put_set(out, a, v);
		break;
	case WPP_K_ENUM:
		put_enum(s, out, a, v);
		break;
	case WPP_K_SID: {
		char sid[ETW_ETL_SID_STRLEN];

		if (etw_etl_sid_to_str(p, n, sid, sizeof(sid)) > 0)
			wb_puts(out, sid);
		break;
	}
	case WPP_K_CHAR4:
		for (int i = 0; i < 4; i++)
			wb_printf(out, "%c", p[i] >= 0x20 && p[i] < 0x7F ? p[i] : '.');
		break;
	case WPP_K_HEXDUMP:
		for (uint32_t i = 2; i < n; i++)
			wb_printf(out, "%s%02X", i > 2 ? " " : "", p[i]);
		break;
	}
}

static bool integral(const struct wpp_item *it)
{
	switch (it->kind) {
	case WPP_K_INT:
	case WPP_K_PTR:
	case WPP_K_NTSTATUS:
	case WPP_K_WINERROR:
	case WPP_K_HRESULT:
	case WPP_K_PORT:
	case WPP_K_LIST:
	case WPP_K_SET:
	case WPP_K_ENUM:
		return true;
	default:
		return false;
	}
}

/* A printf format of the spec for conversion conv and size prefix len. */
static void spec_format(const struct wpp_spec *sp, const char *len, char conv,
			char *fmt, size_t size)
{
	char w[16] = "", pr[16] = "";

	if (sp->width >= 0)
		snprintf(w, sizeof(w), "%d", sp->width);
	if (sp->precision >= 0)
		snprintf(pr, sizeof(pr), ".%d", sp->precision);
	snprintf(fmt, size, "%%%s%s%s%s%c", sp->flags, w, pr, len, conv);
}

/*
 * d i u x X o with no flag but '0' or '-' and no precision (every spec of
 * real drivers' TMFs) without printf; false for the rest.  size: the
 * value's bytes, for the sign of d and i.
 */
static bool put_int_fast(struct wpp_buf *out, const struct wpp_spec *sp,
			 uint64_t v, unsigned int size)
{
	bool zero = false, left = false, neg = false;
	unsigned int base = 10;
	int width = sp->width < 0 ? 0 : sp->width;

	for (const char *f = sp->flags; *f; f++) {
		if (*f == '0')
			zero = true;
		else if (*f == '-')
			left = true;
		else
			return false;
	}
	if (sp->precision >= 0)
		return false;
	switch (sp->conv) {
	case 'd':
	case 'i': {
		int64_t x = sign_extend(v, size);

		neg = x < 0;
		v = neg ? 0 - (uint64_t)x : (uint64_t)x;
		break;
	}
	case 'u':
		break;
	case 'x':
	case 'X':
		base = 16;
		break;
	case 'o':
		base = 8;
		break;
	default:
		return false;
	}
	wb_num(out, v, neg, base, sp->conv == 'X', left ? -width : width,
	       zero && !left ? '0' : ' ');
	return true;
}

/* The value by a numeric spec; false if the spec is not numeric. */
static bool by_spec(const struct wpp_arg *a, const struct wpp_spec *sp,
		    const uint8_t *p, uint32_t n, unsigned int ps,
		    struct wpp_buf *out)
{
	const struct wpp_item *it = a->item;
	char fmt[48];

	if (it->kind == WPP_K_DOUBLE && strchr("eEfFgGaA", sp->conv)) {
		double d;

		memcpy(&d, p, 8);
		spec_format(sp, "", sp->conv, fmt, sizeof(fmt));
		spec_printf(out, fmt, d);
		return true;
	}
	if (!integral(it) || !strchr("diuxXocCp", sp->conv))
		return false;
	{
		uint64_t v = it->kind == WPP_K_PORT ? (uint64_t)(p[0] << 8 | p[1]) :
			     le(p, n);

		if (put_int_fast(out, sp, v, n))
			return true;
		switch (sp->conv) {
		case 'd':
		case 'i':
			spec_format(sp, "ll", 'd', fmt, sizeof(fmt));
			spec_printf(out, fmt, (long long)sign_extend(v, n));
			break;
		case 'c':
		case 'C':
			spec_format(sp, "", 'c', fmt, sizeof(fmt));
			spec_printf(out, fmt, v >= 0x20 && v < 0x7F ? (int)v : '.');
			break;
		case 'p':
			/* MSVC: the pointer's width in uppercase hex, no 0x. */
			wb_num(out, v, false, 16, true, (int)ps * 2, '0');
			break;
		default:
			spec_format(sp, "ll", sp->conv, fmt, sizeof(fmt));
			spec_printf(out, fmt, (unsigned long long)v);
			break;
		}
	}
	return true;
}

void wpp_put_number(struct wpp_buf *out, const struct wpp_spec *sp,
		    uint64_t v)
{
	static const struct wpp_spec dec = { .width = -1, .precision = -1,
					     .conv = 'u' };
	char fmt[48];

	if (!sp || !strchr("diuxXo", sp->conv))
		sp = &dec;
	if (put_int_fast(out, sp, v, 8))
		return;
	spec_format(sp, "ll", sp->conv == 'i' ? 'd' : sp->conv, fmt, sizeof(fmt));
	spec_printf(out, fmt, (unsigned long long)v);
}

void wpp_put_text(struct wpp_buf *out, const struct wpp_spec *sp,
		  const char *s)
{
	char fmt[48];

	if (!sp || (sp->width < 0 && sp->precision < 0)) {
		wb_puts(out, s);
		return;
	}
	spec_format(sp, "", 's', fmt, sizeof(fmt));
	spec_printf(out, fmt, s);
}

int wpp_value(struct etw_tmf_store *s, const struct wpp_arg *arg,
	      const struct wpp_spec *spec, const uint8_t *data, uint32_t size,
	      uint32_t *off, unsigned int pointer_size, bool gmt,
	      struct wpp_buf *out)
{
	int n = wpp_value_size(arg, data, size, *off, pointer_size);
	const uint8_t *p = data + *off;
	uint32_t left = *off <= size ? size - *off : 0;

	if (n < 0) {
		if (arg->item->kind == WPP_K_STRING || arg->item->kind == WPP_K_WSTRING)
			wb_printf(out, "<bad data: %%%u %s has no NUL in the %u bytes left>",
				  arg->number, arg->item->name, left);
		else
			wb_printf(out, "<bad data: %%%u %s does not fit in the %u bytes left>",
				  arg->number, arg->item->name, left);
		*off = size;
		return -EBADMSG;
	}
	*off += (uint32_t)n;
	if (spec && by_spec(arg, spec, p, (uint32_t)n, pointer_size, out))
		return 0;
	if (spec && (spec->width >= 0 || spec->precision >= 0)) {
		struct wpp_buf tmp = { 0 };

		wb_reset(&tmp);
		item_text(s, arg, p, (uint32_t)n, pointer_size, gmt, &tmp);
		wpp_put_text(out, spec, tmp.p ? tmp.p : "");
		wb_free(&tmp);
		return 0;
	}
	item_text(s, arg, p, (uint32_t)n, pointer_size, gmt, out);
	return 0;
}
