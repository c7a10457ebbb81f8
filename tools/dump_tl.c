// SPDX-License-Identifier: GPL-2.0
/*
 * etw dump: TraceLogging events describe themselves.  The EVENT_SCHEMA_TL
 * item holds the event's name and the name and type of each field; the
 * PROV_TRAITS item the provider's name.  The blobs come from the file, so
 * every read is bounded, nesting is limited and the work per event has a
 * budget; a payload that does not match its schema exactly is reported
 * as not decoded and dumped raw.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "dump.h"

enum {
	IN_NULL, IN_UNICODESTRING, IN_ANSISTRING, IN_INT8, IN_UINT8,
	IN_INT16, IN_UINT16, IN_INT32, IN_UINT32, IN_INT64, IN_UINT64,
	IN_FLOAT, IN_DOUBLE, IN_BOOL32, IN_BINARY, IN_GUID, IN_POINTER,
	IN_FILETIME, IN_SYSTEMTIME, IN_SID, IN_HEXINT32, IN_HEXINT64,
	IN_COUNTEDSTRING, IN_COUNTEDANSISTRING, IN_STRUCT, IN_COUNTEDBINARY,
};

enum {
	OUT_STRING = 2, OUT_BOOLEAN = 3, OUT_HEX = 4, OUT_IPV4 = 8,
	OUT_WIN32ERROR = 13, OUT_NTSTATUS = 14, OUT_HRESULT = 15,
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
	struct kv_list *out;
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
static size_t blob_size(const struct etw_etl_ext_item *x)
{
	const uint8_t *p = x->data;
	size_t n;

	if (x->size < 2)
		return 0;
	n = p[0] | p[1] << 8;
	return n < x->size ? n : x->size;
}

const char *tl_event_name(const struct etw_etl_ext_item *x, struct sbuf *sb)
{
	size_t n = blob_size(x), pos = 2;
	const char *name;

	if (!skip_tag(x->data, n, &pos))
		return NULL;
	name = take_str(x->data, n, &pos);
	if (!name)
		return NULL;
	sb_reset(sb);
	sb_put(sb, name, strlen(name));
	return sb->p;
}

const char *tl_provider_name(const struct etw_etl_ext_item *x, struct sbuf *sb)
{
	size_t n = blob_size(x), pos = 2;
	const char *name = take_str(x->data, n, &pos);

	if (!name)
		return NULL;
	sb_reset(sb);
	sb_put(sb, name, strlen(name));
	return sb->p;
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

/* The fields of the schema; NULL if it is malformed. */
static struct tl_field *parse_schema(const struct etw_etl_ext_item *x,
				     size_t *nf)
{
	size_t n = blob_size(x), pos = 2;
	struct tl_field *f;

	if (!skip_tag(x->data, n, &pos) || !take_str(x->data, n, &pos))
		return NULL;
	f = calloc(n / 2 + 1, sizeof(*f));
	if (!f)
		return NULL;
	for (*nf = 0; pos < n; (*nf)++)
		if (!parse_field(x->data, n, &pos, &f[*nf])) {
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

static void guid_text(struct sbuf *sb, const uint8_t *p)
{
	struct etw_etl_guid g;
	char buf[ETW_ETL_GUID_STRLEN];

	g.data1 = (uint32_t)le(p, 4);
	g.data2 = (uint16_t)le(p + 4, 2);
	g.data3 = (uint16_t)le(p + 6, 2);
	memcpy(g.data4, p + 8, 8);
	etw_etl_guid_to_str(&g, buf);
	sb_printf(sb, "%s", buf);
}

static bool sid_text(struct sbuf *sb, const uint8_t *p, size_t n, size_t *len)
{
	uint64_t auth = 0;

	if (n < 8 || n < 8 + 4 * (size_t)p[1])
		return false;
	*len = 8 + 4 * (size_t)p[1];
	for (int i = 2; i < 8; i++)
		auth = auth << 8 | p[i];
	sb_printf(sb, "S-%u-%" PRIu64, p[0], auth);
	for (unsigned int i = 0; i < p[1]; i++)
		sb_printf(sb, "-%" PRIu64, le(p + 8 + 4 * i, 4));
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
		if (format_filetime(le(p, 8), buf, sizeof(buf)))
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
	return false;			/* custom: not decoded */
}

static bool simple_field(struct tl_dec *t, const struct tl_field *f,
			 const char *name, size_t count)
{
	bool chars = f->out == OUT_STRING && f->in >= IN_INT8 &&
		     f->in <= IN_UINT16;

	sb_reset(&t->val);
	if (chars) {
		if (!char_array(t, f, count))
			return false;
	} else if (f->arity != ARITY_ONE) {
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
	kv_add(t->out, name, NULL, false, "%s", t->val.p ? t->val.p : "");
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
		if (f->in == IN_STRUCT && !skip(t, i, f->out, depth + 1))
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
		if (ok && f->in == IN_STRUCT)
			ok = struct_field(t, i, f, name.p, n, depth);
		else if (ok)
			ok = simple_field(t, f, name.p, n);
	}
	sb_free(&name);
	return ok;
}

bool tl_decode(const struct etw_etl_event *ev,
	       const struct etw_etl_ext_item *schema, struct kv_list *out)
{
	struct tl_dec t = {
		.d = ev->data, .n = ev->data_size, .budget = BUDGET,
		.ptr_size = ev->pointer_size, .out = out,
	};
	size_t i = 0;
	bool ok;

	t.f = parse_schema(schema, &t.nf);
	if (!t.f)
		return false;
	ok = true;
	while (ok && i < t.nf)
		ok = fields(&t, &i, 1, NULL, 0);
	free(t.f);
	sb_free(&t.val);
	return ok && t.pos == t.n;
}
