// SPDX-License-Identifier: MIT
/*
 * TraceLogging decoding (etw_tl.h).  The EVENT_SCHEMA_TL item holds the
 * event's name and the name and type of each field; the PROV_TRAITS item
 * the provider's name.  Both come from a file or another process, so
 * every read is bounded, nesting is limited and the work per event has a
 * budget; a payload that does not match its schema exactly is an error.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <etw_etl.h>
#include <etw_tl.h>

#include "../common/internal.h"

/* A growable string; on allocation failure it stays empty and says so. */
struct sbuf {
	char *p;
	size_t len;
	size_t cap;
	bool oom;
};

static void sb_reset(struct sbuf *sb)
{
	sb->len = 0;
	if (sb->p)
		sb->p[0] = 0;
}

static void sb_free(struct sbuf *sb)
{
	free(sb->p);
	sb->p = NULL;
	sb->len = sb->cap = 0;
}

static bool sb_room(struct sbuf *sb, size_t n)
{
	char *p;
	size_t cap;

	if (sb->len + n + 1 <= sb->cap)
		return true;
	for (cap = sb->cap ? sb->cap : 64; cap < sb->len + n + 1; cap *= 2)
		;
	p = realloc(sb->p, cap);
	if (!p) {
		sb->oom = true;
		return false;
	}
	sb->p = p;
	sb->cap = cap;
	return true;
}

static void sb_put(struct sbuf *sb, const char *s, size_t n)
{
	if (!sb_room(sb, n))
		return;
	memcpy(sb->p + sb->len, s, n);
	sb->len += n;
	sb->p[sb->len] = 0;
}

static void sb_putc(struct sbuf *sb, char c)
{
	sb_put(sb, &c, 1);
}

static void __attribute__((format(printf, 2, 3)))
sb_printf(struct sbuf *sb, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n <= 0 || !sb_room(sb, (size_t)n))
		return;
	va_start(ap, fmt);
	vsnprintf(sb->p + sb->len, (size_t)n + 1, fmt, ap);
	va_end(ap);
	sb->len += (size_t)n;
}

static void sb_hex(struct sbuf *sb, const uint8_t *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		sb_printf(sb, "%02x", p[i]);
}

enum {
	IN_NULL, IN_UNICODESTRING, IN_ANSISTRING, IN_INT8, IN_UINT8,
	IN_INT16, IN_UINT16, IN_INT32, IN_UINT32, IN_INT64, IN_UINT64,
	IN_FLOAT, IN_DOUBLE, IN_BOOL32, IN_BINARY, IN_GUID, IN_POINTER,
	IN_FILETIME, IN_SYSTEMTIME, IN_SID, IN_HEXINT32, IN_HEXINT64,
	IN_COUNTEDSTRING, IN_COUNTEDANSISTRING, IN_STRUCT, IN_COUNTEDBINARY,
};

enum {
	OUT_STRING = 2, OUT_BOOLEAN = 3, OUT_HEX = 4, OUT_IPV4 = 8, OUT_IPV6 = 9,
	OUT_SOCKETADDRESS = 10, OUT_WIN32ERROR = 13, OUT_NTSTATUS = 14, OUT_HRESULT = 15,
};

enum { ARITY_ONE, ARITY_CCOUNT, ARITY_VCOUNT, ARITY_CUSTOM };

#define MAX_DEPTH	8
#define BUDGET		(1 << 16)

struct tl_field {
	const char *name;
	uint8_t in;
	uint8_t out;
	uint8_t arity;
	uint16_t ccount;
};

struct tl_dec {
	struct tl_field *f;
	size_t nf;
	const uint8_t *d;		/* user data */
	size_t n;
	size_t pos;
	unsigned int budget;
	unsigned int ptr_size;
	etw_tl_field_fn fn;
	void *ctx;
	bool stopped;			/* fn asked to stop */
	struct sbuf val;
};

/* A NUL-terminated string at *pos in p[0..n), or NULL. */
static const char *take_str(const uint8_t *p, size_t n, size_t *pos)
{
	const char *s = (const char *)p + *pos;
	const uint8_t *nul;

	if (*pos >= n)
		return NULL;
	nul = memchr(s, 0, n - *pos);
	if (!nul)
		return NULL;
	*pos = nul - p + 1;
	return s;
}

/* A 1- to 4-byte tag: bit 7 of each byte but the last is set. */
static bool skip_tag(const uint8_t *p, size_t n, size_t *pos)
{
	for (int i = 0; i < 4; i++) {
		if (*pos >= n)
			return false;
		if (!(p[(*pos)++] & 0x80))
			return true;
	}
	return false;
}

/* The blob's size prefix limits it further. */
static size_t blob_size(const uint8_t *p, size_t size)
{
	size_t n;

	if (size < 2)
		return 0;
	n = p[0] | p[1] << 8;
	return n < size ? n : size;
}

/* Copy @name into @buf; its length, or -ENOBUFS. */
static int copy_name(const char *name, char *buf, size_t size)
{
	size_t len = strlen(name);

	if (!buf || len >= size)
		return -ENOBUFS;
	memcpy(buf, name, len + 1);
	return (int)len;
}

ETW_EXPORT int etw_tl_event_name(const void *schema, size_t schema_size,
				 char *buf, size_t size)
{
	size_t n = blob_size(schema, schema_size), pos = 2;
	const char *name;

	if (!schema || !skip_tag(schema, n, &pos))
		return -EBADMSG;
	name = take_str(schema, n, &pos);
	return name ? copy_name(name, buf, size) : -EBADMSG;
}

ETW_EXPORT int etw_tl_provider_name(const void *traits, size_t traits_size,
				    char *buf, size_t size)
{
	size_t pos = 2;
	const char *name;

	if (!traits)
		return -EBADMSG;
	name = take_str(traits, blob_size(traits, traits_size), &pos);
	return name ? copy_name(name, buf, size) : -EBADMSG;
}

static bool parse_field(const uint8_t *p, size_t n, size_t *pos,
			struct tl_field *f)
{
	uint8_t in;

	f->name = take_str(p, n, pos);
	if (!f->name || *pos >= n)
		return false;
	in = p[(*pos)++];
	f->in = in & 0x1f;
	f->arity = (in & 0x60) >> 5;
	f->out = 0;
	if (in & 0x80) {
		if (*pos >= n)
			return false;
		f->out = p[(*pos)++];
		if ((f->out & 0x80) && !skip_tag(p, n, pos))
			return false;
		f->out &= 0x7f;
	}
	if (f->arity == ARITY_CCOUNT || f->arity == ARITY_CUSTOM) {
		if (n - *pos < 2)
			return false;
		f->ccount = p[*pos] | p[*pos + 1] << 8;
		*pos += 2;
	}
	if (f->arity == ARITY_CUSTOM) {
		if (n - *pos < f->ccount)
			return false;
		*pos += f->ccount;
	}
	return true;
}

/* The fields of the schema; NULL if it is malformed or memory ran out. */
static struct tl_field *parse_schema(const uint8_t *p, size_t size, size_t *nf)
{
	size_t n = blob_size(p, size), pos = 2;
	struct tl_field *f;

	if (!skip_tag(p, n, &pos) || !take_str(p, n, &pos))
		return NULL;
	f = calloc(n / 2 + 1, sizeof(*f));
	if (!f)
		return NULL;
	for (*nf = 0; pos < n; (*nf)++)
		if (!parse_field(p, n, &pos, &f[*nf])) {
			free(f);
			return NULL;
		}
	return f;
}

static bool need(struct tl_dec *t, size_t k)
{
	return k <= t->n - t->pos;
}

static uint64_t le(const uint8_t *p, unsigned int n)
{
	uint64_t v = 0;

	while (n--)
		v = v << 8 | p[n];
	return v;
}

static void put_utf8(struct sbuf *sb, uint32_t c)
{
	size_t n = c < 0x80 ? 1 : c < 0x800 ? 2 : c < 0x10000 ? 3 : 4;
	static const uint8_t lead[] = { 0, 0, 0xc0, 0xe0, 0xf0 };
	char b[4];

	b[0] = (char)(lead[n] | c >> (6 * (n - 1)));
	for (size_t i = 1; i < n; i++)
		b[i] = (char)(0x80 | (c >> (6 * (n - 1 - i)) & 0x3f));
	sb_put(sb, b, n);
}

/* UTF-16LE, units long (stops early at a NUL), as UTF-8. */
static void utf16(struct sbuf *sb, const uint8_t *p, size_t units)
{
	for (size_t i = 0; i < units; i++) {
		uint32_t c = p[2 * i] | p[2 * i + 1] << 8;

		if (!c)
			break;
		if (c >= 0xd800 && c < 0xdc00 && i + 1 < units) {
			uint32_t lo = p[2 * i + 2] | p[2 * i + 3] << 8;

			if (lo >= 0xdc00 && lo < 0xe000) {
				c = 0x10000 + ((c - 0xd800) << 10) + (lo - 0xdc00);
				i++;
			}
		}
		put_utf8(sb, c >= 0xd800 && c < 0xe000 ? 0xfffd : c);
	}
}

/* A NUL-terminated UTF-16 string at the cursor. */
static bool wstring(struct tl_dec *t)
{
	for (size_t i = t->pos; i + 1 < t->n; i += 2)
		if (!t->d[i] && !t->d[i + 1]) {
			utf16(&t->val, t->d + t->pos, (i - t->pos) / 2);
			t->pos = i + 2;
			return true;
		}
	return false;
}

static bool astring(struct tl_dec *t)
{
	const uint8_t *nul = memchr(t->d + t->pos, 0, t->n - t->pos);

	if (!nul)
		return false;
	sb_put(&t->val, (const char *)t->d + t->pos, nul - (t->d + t->pos));
	t->pos = nul - t->d + 1;
	return true;
}

/* u16 byte count, then that many bytes. */
static bool counted(struct tl_dec *t, const uint8_t **p, size_t *len)
{
	if (!need(t, 2))
		return false;
	*len = le(t->d + t->pos, 2);
	if (!need(t, 2 + *len))
		return false;
	*p = t->d + t->pos + 2;
	t->pos += 2 + *len;
	return true;
}

/* An IPv6 address as inet_ntop() writes it: "2001:db8::1". */
static void ipv6_text(struct sbuf *sb, const uint8_t *p)
{
	char buf[INET6_ADDRSTRLEN];

	if (inet_ntop(AF_INET6, p, buf, sizeof(buf)))
		sb_put(sb, buf, strlen(buf));
	else
		sb_hex(sb, p, 16);
}

/*
 * A SOCKADDR as the writer laid it out: family (little-endian), then the
 * port in network order; IPv4 "a.b.c.d:port", IPv6 "[addr]:port" (family
 * 23 on Windows, 10 on Linux).  Anything else is shown as hex.
 */
static void sockaddr_text(struct sbuf *sb, const uint8_t *p, size_t len)
{
	unsigned int family = len >= 2 ? (unsigned int)le(p, 2) : 0;
	unsigned int port = len >= 4 ? (unsigned int)(p[2] << 8 | p[3]) : 0;

	if (family == 2 && len >= 8) {
		sb_printf(sb, "%u.%u.%u.%u:%u", p[4], p[5], p[6], p[7], port);
	} else if ((family == 23 || family == 10) && len >= 24) {
		sb_putc(sb, '[');
		ipv6_text(sb, p + 8);
		sb_printf(sb, "]:%u", port);
	} else {
		sb_hex(sb, p, len);
	}
}

/* Data1, Data2, Data3 little-endian, then Data4's bytes as they are. */
static void guid_text(struct sbuf *sb, const uint8_t *p)
{
	sb_printf(sb, "%08" PRIx64 "-%04" PRIx64 "-%04" PRIx64 "-", le(p, 4),
		  le(p + 4, 2), le(p + 6, 2));
	sb_hex(sb, p + 8, 2);
	sb_putc(sb, '-');
	sb_hex(sb, p + 10, 6);
}

static bool sid_text(struct sbuf *sb, const uint8_t *p, size_t n, size_t *len)
{
	char buf[ETW_ETL_SID_STRLEN];
	int used = etw_etl_sid_to_str(p, n, buf, sizeof(buf));

	if (used < 0)
		return false;
	*len = (size_t)used;
	sb_put(sb, buf, strlen(buf));
	return true;
}

static void int_text(struct tl_dec *t, const struct tl_field *f, uint64_t v,
		     unsigned int size, bool is_signed)
{
	if (f->out == OUT_BOOLEAN) {
		sb_printf(&t->val, "%s", v ? "true" : "false");
	} else if (f->out == OUT_HEX || f->out == OUT_WIN32ERROR ||
		   f->out == OUT_NTSTATUS || f->out == OUT_HRESULT) {
		sb_printf(&t->val, "0x%0*" PRIx64, (int)(2 * size), v);
	} else if (f->out == OUT_IPV4 && size == 4) {
		sb_printf(&t->val, "%u.%u.%u.%u", (unsigned int)(v & 0xff),
			  (unsigned int)(v >> 8 & 0xff),
			  (unsigned int)(v >> 16 & 0xff), (unsigned int)(v >> 24));
	} else if (is_signed) {
		int shift = 64 - 8 * size;

		sb_printf(&t->val, "%" PRId64, (int64_t)(v << shift) >> shift);
	} else {
		sb_printf(&t->val, "%" PRIu64, v);
	}
}

static const uint8_t int_sizes[] = {
	[IN_INT8] = 1, [IN_UINT8] = 1, [IN_INT16] = 2, [IN_UINT16] = 2,
	[IN_INT32] = 4, [IN_UINT32] = 4, [IN_INT64] = 8, [IN_UINT64] = 8,
	[IN_BOOL32] = 4, [IN_HEXINT32] = 4, [IN_HEXINT64] = 8,
};

static bool fixed_value(struct tl_dec *t, const struct tl_field *f)
{
	unsigned int size = f->in < sizeof(int_sizes) ? int_sizes[f->in] : 0;
	const uint8_t *p = t->d + t->pos;
	char buf[40];

	switch (f->in) {
	case IN_FLOAT:
	case IN_DOUBLE:
		size = f->in == IN_FLOAT ? 4 : 8;
		break;
	case IN_GUID:
	case IN_SYSTEMTIME:
		size = 16;
		break;
	case IN_POINTER:
		size = t->ptr_size;
		break;
	case IN_FILETIME:
		size = 8;
		break;
	}
	if (!size || !need(t, size))
		return false;
	t->pos += size;
	switch (f->in) {
	case IN_FLOAT: {
		uint32_t u = (uint32_t)le(p, 4);
		float v;

		memcpy(&v, &u, 4);
		sb_printf(&t->val, "%.9g", (double)v);
		return true;
	}
	case IN_DOUBLE: {
		uint64_t u = le(p, 8);
		double v;

		memcpy(&v, &u, 8);
		sb_printf(&t->val, "%.17g", v);
		return true;
	}
	case IN_GUID:
		guid_text(&t->val, p);
		return true;
	case IN_SYSTEMTIME:
		sb_printf(&t->val, "%04u-%02u-%02uT%02u:%02u:%02u.%03u",
			  (unsigned int)le(p, 2), (unsigned int)le(p + 2, 2),
			  (unsigned int)le(p + 6, 2), (unsigned int)le(p + 8, 2),
			  (unsigned int)le(p + 10, 2), (unsigned int)le(p + 12, 2),
			  (unsigned int)le(p + 14, 2));
		return true;
	case IN_POINTER:
	case IN_HEXINT32:
	case IN_HEXINT64:
		sb_printf(&t->val, "0x%" PRIx64, le(p, size));
		return true;
	case IN_FILETIME:
		if (!etw_etl_format_filetime(le(p, 8), buf, sizeof(buf)))
			sb_printf(&t->val, "%s", buf);
		else
			sb_printf(&t->val, "0x%016" PRIx64, le(p, 8));
		return true;
	case IN_BOOL32:
		sb_printf(&t->val, "%s", le(p, 4) ? "true" : "false");
		return true;
	}
	int_text(t, f, le(p, size), size,
		 f->in == IN_INT8 || f->in == IN_INT16 || f->in == IN_INT32 ||
		 f->in == IN_INT64);
	return true;
}

/* One element of a field, appended to t->val. */
static bool value(struct tl_dec *t, const struct tl_field *f)
{
	const uint8_t *p;
	size_t len;

	if (!t->budget--)
		return false;
	if (f->arity == ARITY_CUSTOM) {
		/* A serializer's own bytes: sent as binary, shown as hex. */
		if (!counted(t, &p, &len))
			return false;
		sb_hex(&t->val, p, len);
		return true;
	}
	switch (f->in) {
	case IN_UNICODESTRING:
		return wstring(t);
	case IN_ANSISTRING:
		return astring(t);
	case IN_COUNTEDSTRING:
		if (!counted(t, &p, &len))
			return false;
		utf16(&t->val, p, len / 2);
		return true;
	case IN_COUNTEDANSISTRING:
		if (!counted(t, &p, &len))
			return false;
		sb_put(&t->val, (const char *)p, len);
		return true;
	case IN_BINARY:
	case IN_COUNTEDBINARY:
		if (!counted(t, &p, &len))
			return false;
		if (f->out == OUT_IPV6 && len == 16)
			ipv6_text(&t->val, p);
		else if (f->out == OUT_SOCKETADDRESS)
			sockaddr_text(&t->val, p, len);
		else
			sb_hex(&t->val, p, len);
		return true;
	case IN_SID:
		if (!sid_text(&t->val, t->d + t->pos, t->n - t->pos, &len))
			return false;
		t->pos += len;
		return true;
	}
	return fixed_value(t, f);
}

/* 8- or 16-bit integers shown as strings are characters (a string if an array). */
static bool char_array(struct tl_dec *t, const struct tl_field *f, size_t count)
{
	size_t unit = f->in == IN_UINT16 || f->in == IN_INT16 ? 2 : 1;

	if (!need(t, count * unit))
		return false;
	if (unit == 2)
		utf16(&t->val, t->d + t->pos, count);
	else
		sb_put(&t->val, (const char *)t->d + t->pos,
		       strnlen((const char *)t->d + t->pos, count));
	t->pos += count * unit;
	return true;
}

/* How many elements the field has here. */
static bool element_count(struct tl_dec *t, const struct tl_field *f,
			  size_t *count)
{
	switch (f->arity) {
	case ARITY_ONE:
		*count = 1;
		return true;
	case ARITY_CCOUNT:
		*count = f->ccount;
		return true;
	case ARITY_VCOUNT:
		if (!need(t, 2))
			return false;
		*count = le(t->d + t->pos, 2);
		t->pos += 2;
		return true;
	}
	*count = 1;			/* custom: one counted value */
	return true;
}

/* A struct's in-type: a custom field's low bits are its protocol instead. */
static bool is_struct(const struct tl_field *f)
{
	return f->in == IN_STRUCT && f->arity != ARITY_CUSTOM;
}

static bool simple_field(struct tl_dec *t, const struct tl_field *f,
			 const char *name, size_t count)
{
	bool chars = f->out == OUT_STRING && f->in >= IN_INT8 &&
		     f->in <= IN_UINT16 && f->arity != ARITY_CUSTOM;

	sb_reset(&t->val);
	if (chars) {
		if (!char_array(t, f, count))
			return false;
	} else if (f->arity == ARITY_CCOUNT || f->arity == ARITY_VCOUNT) {
		sb_putc(&t->val, '[');
		for (size_t i = 0; i < count; i++) {
			if (i)
				sb_put(&t->val, ", ", 2);
			if (!value(t, f))
				return false;
		}
		sb_putc(&t->val, ']');
	} else if (!value(t, f)) {
		return false;
	}
	if (t->val.oom)
		return false;
	if (t->fn(t->ctx, name, t->val.p ? t->val.p : "")) {
		t->stopped = true;
		return false;
	}
	return true;
}

static bool fields(struct tl_dec *t, size_t *i, size_t count,
		   const char *prefix, int depth);

/* Step over count logical fields of the schema from *i. */
static bool skip(struct tl_dec *t, size_t *i, size_t count, int depth)
{
	if (depth > MAX_DEPTH)
		return false;
	for (size_t k = 0; k < count; k++) {
		const struct tl_field *f;

		if (*i >= t->nf || !t->budget--)
			return false;
		f = &t->f[(*i)++];
		if (is_struct(f) && !skip(t, i, f->out, depth + 1))
			return false;
	}
	return true;
}

/* A struct's members are the next out-type logical fields. */
static bool struct_field(struct tl_dec *t, size_t *i, const struct tl_field *f,
			 const char *name, size_t count, int depth)
{
	size_t first = *i;
	struct sbuf sub = { 0 };
	bool ok = skip(t, i, f->out, depth + 1);

	for (size_t k = 0; ok && k < count; k++) {
		size_t j = first;

		sb_reset(&sub);
		if (f->arity == ARITY_ONE)
			sb_printf(&sub, "%s", name);
		else
			sb_printf(&sub, "%s[%zu]", name, k);
		ok = t->budget-- && fields(t, &j, f->out, sub.p, depth + 1);
	}
	sb_free(&sub);
	return ok;
}

/* count logical fields from *i, appended to t->out. */
static bool fields(struct tl_dec *t, size_t *i, size_t count,
		   const char *prefix, int depth)
{
	struct sbuf name = { 0 };
	bool ok = depth <= MAX_DEPTH;

	for (size_t k = 0; ok && k < count; k++) {
		const struct tl_field *f;
		size_t n = 0;

		if (*i >= t->nf) {
			ok = false;
			break;
		}
		f = &t->f[(*i)++];
		sb_reset(&name);
		if (prefix)
			sb_printf(&name, "%s.%s", prefix, f->name);
		else
			sb_printf(&name, "%s", f->name);
		ok = element_count(t, f, &n);
		if (ok && is_struct(f))
			ok = struct_field(t, i, f, name.p, n, depth);
		else if (ok)
			ok = simple_field(t, f, name.p, n);
	}
	sb_free(&name);
	return ok;
}

ETW_EXPORT int etw_tl_decode(const void *schema, size_t schema_size,
			     const void *data, size_t data_size,
			     unsigned int pointer_size, etw_tl_field_fn fn,
			     void *context)
{
	struct tl_dec t = {
		.d = data, .n = data ? data_size : 0, .budget = BUDGET,
		.ptr_size = pointer_size == 4 ? 4 : 8, .fn = fn, .ctx = context,
	};
	bool ok = true, oom;
	size_t i = 0;

	if (!schema || !fn)
		return -EINVAL;
	t.f = parse_schema(schema, schema_size, &t.nf);
	if (!t.f)
		return -EBADMSG;
	while (ok && i < t.nf)
		ok = fields(&t, &i, 1, NULL, 0);
	free(t.f);
	oom = t.val.oom;
	sb_free(&t.val);
	if (t.stopped)
		return -ECANCELED;
	if (oom)
		return -ENOMEM;
	return ok && t.pos == t.n ? 0 : -EBADMSG;
}
