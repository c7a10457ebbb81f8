// SPDX-License-Identifier: MIT
/*
 * DecodingSourceTlg: a TraceLogging event describes itself in its
 * EVENT_SCHEMA_TL item (etw-api.md 5.3): the event's name and tags, then
 * each field's name, in-type, out-type, array kind and tags, a struct's
 * members after it.  That becomes a TRACE_EVENT_INFO like any other
 * source's: top-level fields first, each struct's members together after
 * them (TDH's order), TraceLogging out-types turned into TDH's (they
 * differ below 33), the provider's name from the PROV_TRAITS item.
 *
 * Where TDH's description has no form for what TraceLogging writes, this
 * source says so in TDH's own terms (Windows' own TDH output for these
 * is not documented):
 *  - a variable-length array is preceded in the data by its UINT16
 *    element count: that count is a property of its own, "<Name>.Count",
 *    which the array names with PropertyParamCount;
 *  - binary data and custom-serialized fields are a UINT16 byte count
 *    and the bytes: TDH_INTYPE_MANIFEST_COUNTEDBINARY;
 *  - an array of Char8 or Char16 is a string of that many characters
 *    (ANSISTRING or UNICODESTRING with its length), as TDH shows char
 *    arrays.
 * The description is cached per (provider, schema): the key's extra is a
 * hash of the schema's bytes.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "event_info.h"
#include "intype_size.h"

enum {
	TLG_BINARY = 14, TLG_STRUCT = 24, TLG_COUNTEDBINARY = 25,
	ARITY_ONE = 0, ARITY_CCOUNT = 1, ARITY_VCOUNT = 2, ARITY_CUSTOM = 3,
};

/* Struct nesting and fields per event, bounded: the schema is untrusted. */
#define MAX_DEPTH	8
#define MAX_FIELDS	1024

struct tl_field {
	const char *name;
	uint8_t in, out, arity;
	uint16_t ccount;
	uint32_t tags;
	bool has_tags;
	uint16_t members;		/* a struct's */
	int32_t parent;			/* index of its struct, -1 */
	uint32_t prop;			/* its property in the description */
};

static const char *take_str(const uint8_t *p, size_t n, size_t *pos)
{
	const char *s = (const char *)p + *pos;
	const uint8_t *nul;

	if (*pos >= n)
		return NULL;
	nul = memchr(s, 0, n - *pos);
	if (!nul)
		return NULL;
	*pos = (size_t)(nul - p) + 1;
	return s;
}

/* A tag: 1, 2 or 4 bytes of 7 bits each, top first (etw-api.md 5.3). */
static bool take_tag(const uint8_t *p, size_t n, size_t *pos, uint32_t *tag)
{
	uint32_t t = 0;
	int i;

	for (i = 0; i < 4; i++) {
		if (*pos >= n)
			return false;
		t = t << 7 | (p[*pos] & 0x7f);
		if (!(p[(*pos)++] & 0x80))
			break;
	}
	if (i == 4)
		return false;
	*tag = t << (7 * (3 - i)) & 0x0FFFFFFF;
	return true;
}

static size_t blob_size(const uint8_t *p, size_t size)
{
	size_t n;

	if (!p || size < 2)
		return 0;
	n = p[0] | p[1] << 8;
	return n < size ? n : size;
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
	f->arity = (in >> 5) & 3;
	if (in & 0x80) {
		if (*pos >= n)
			return false;
		f->out = p[(*pos)++];
		if (f->out & 0x80) {
			if (!take_tag(p, n, pos, &f->tags))
				return false;
			f->has_tags = true;
		}
		f->out &= 0x7f;
	}
	if (f->arity == ARITY_CCOUNT || f->arity == ARITY_CUSTOM) {
		if (n - *pos < 2)
			return false;
		f->ccount = (uint16_t)(p[*pos] | p[*pos + 1] << 8);
		*pos += 2;
	}
	if (f->arity == ARITY_CUSTOM) {
		if (n - *pos < f->ccount)
			return false;
		*pos += f->ccount;
	}
	if (f->in == TLG_STRUCT)
		f->members = f->out;
	return true;
}

/* TraceLogging's out-type as TDH's, for a value of in-type @in. */
static uint16_t out_type(uint8_t out, uint8_t in)
{
	static const uint16_t hex[] = {
		[3] = TDH_OUTTYPE_HEXINT8, [4] = TDH_OUTTYPE_HEXINT8,
		[5] = TDH_OUTTYPE_HEXINT16, [6] = TDH_OUTTYPE_HEXINT16,
		[7] = TDH_OUTTYPE_HEXINT32, [8] = TDH_OUTTYPE_HEXINT32,
		[9] = TDH_OUTTYPE_HEXINT64, [10] = TDH_OUTTYPE_HEXINT64,
		[20] = TDH_OUTTYPE_HEXINT32, [21] = TDH_OUTTYPE_HEXINT64,
	};
	static const uint16_t sign[] = {
		[3] = TDH_OUTTYPE_BYTE, [4] = TDH_OUTTYPE_BYTE,
		[5] = TDH_OUTTYPE_SHORT, [6] = TDH_OUTTYPE_SHORT,
		[7] = TDH_OUTTYPE_INT, [8] = TDH_OUTTYPE_INT,
		[9] = TDH_OUTTYPE_LONG, [10] = TDH_OUTTYPE_LONG,
	};
	static const uint16_t unsign[] = {
		[3] = TDH_OUTTYPE_UNSIGNEDBYTE, [4] = TDH_OUTTYPE_UNSIGNEDBYTE,
		[5] = TDH_OUTTYPE_UNSIGNEDSHORT, [6] = TDH_OUTTYPE_UNSIGNEDSHORT,
		[7] = TDH_OUTTYPE_UNSIGNEDINT, [8] = TDH_OUTTYPE_UNSIGNEDINT,
		[9] = TDH_OUTTYPE_UNSIGNEDLONG, [10] = TDH_OUTTYPE_UNSIGNEDLONG,
	};

	switch (out) {
	case 0: return TDH_OUTTYPE_NULL;
	case 1: return TDH_OUTTYPE_NOPRINT;
	case 2: return TDH_OUTTYPE_STRING;
	case 3: return TDH_OUTTYPE_BOOLEAN;
	case 4:
		if (in < sizeof(hex) / sizeof(hex[0]) && hex[in])
			return hex[in];
		return TDH_OUTTYPE_HEXBINARY;
	case 5: return TDH_OUTTYPE_PID;
	case 6: return TDH_OUTTYPE_TID;
	case 7: return TDH_OUTTYPE_PORT;
	case 8: return TDH_OUTTYPE_IPV4;
	case 9: return TDH_OUTTYPE_IPV6;
	case 10: return TDH_OUTTYPE_SOCKETADDRESS;
	case 11: return TDH_OUTTYPE_XML;
	case 12: return TDH_OUTTYPE_JSON;
	case 13: return TDH_OUTTYPE_WIN32ERROR;
	case 14: return TDH_OUTTYPE_NTSTATUS;
	case 15: return TDH_OUTTYPE_HRESULT;
	case 16: return TDH_OUTTYPE_DATETIME;
	case 17:
		return in < sizeof(sign) / sizeof(sign[0]) && sign[in] ? sign[in] : 0;
	case 18:
		return in < sizeof(unsign) / sizeof(unsign[0]) && unsign[in] ?
		       unsign[in] : 0;
	default:
		/* From 33 up TraceLogging's and TDH's numbers are the same. */
		return out >= 33 ? out : TDH_OUTTYPE_NULL;
	}
}

struct schema {
	struct tl_field *f;
	uint32_t n;
	const char *event_name;
	uint32_t event_tags;
};

/*
 * Each field's struct, checked: a struct's members follow it, nested at
 * most MAX_DEPTH deep, and none runs past the schema's end.
 */
static int link(struct schema *s, uint32_t *i, uint32_t count, int32_t parent,
		uint32_t depth)
{
	if (depth > MAX_DEPTH)
		return -EBADMSG;
	for (uint32_t k = 0; k < count; k++) {
		uint32_t me = *i;

		if (me >= s->n)
			return -EBADMSG;
		s->f[me].parent = parent;
		(*i)++;
		if (s->f[me].in == TLG_STRUCT) {
			if (!s->f[me].members)
				return -EBADMSG;
			int ret = link(s, i, s->f[me].members, (int32_t)me, depth + 1);

			if (ret)
				return ret;
		}
	}
	return 0;
}

static int parse(const uint8_t *p, size_t size, struct schema *s)
{
	size_t n = blob_size(p, size), pos = 2;
	uint32_t i = 0;

	if (!take_tag(p, n, &pos, &s->event_tags))
		return -EBADMSG;
	s->event_name = take_str(p, n, &pos);
	if (!s->event_name)
		return -EBADMSG;
	s->f = calloc(n / 2 + 1, sizeof(*s->f));
	if (!s->f)
		return -ENOMEM;
	for (s->n = 0; pos < n; s->n++)
		if (s->n >= MAX_FIELDS || !parse_field(p, n, &pos, &s->f[s->n]))
			return -EBADMSG;
	while (i < s->n) {
		int ret = link(s, &i, 1, -1, 0);

		if (ret)
			return ret;
	}
	return 0;
}

/*
 * TDH's order: the top-level fields, then each struct's members
 * together, a struct's group after every group before it (breadth
 * first).  A variable array's "<Name>.Count" comes just before it, in the
 * same group.  prop[i] is field i's property, cprop[i] its count's.
 */
struct layout {
	uint32_t *prop, *cprop;
	uint32_t *start, *members;	/* a struct's member group */
	int32_t *queue;
	uint32_t nprops;
};

static int lay_out(const struct schema *s, struct layout *l)
{
	uint32_t head = 0, tail = 0, next = 0;

	l->prop = calloc(s->n + 1, sizeof(*l->prop));
	l->cprop = calloc(s->n + 1, sizeof(*l->cprop));
	l->start = calloc(s->n + 1, sizeof(*l->start));
	l->members = calloc(s->n + 1, sizeof(*l->members));
	l->queue = calloc(s->n + 2, sizeof(*l->queue));
	if (!l->prop || !l->cprop || !l->start || !l->members || !l->queue)
		return -ENOMEM;
	l->queue[tail++] = -1;
	while (head < tail) {
		int32_t parent = l->queue[head++];
		uint32_t first = next;

		for (uint32_t i = 0; i < s->n; i++) {
			if (s->f[i].parent != parent)
				continue;
			if (s->f[i].arity == ARITY_VCOUNT)
				l->cprop[i] = next++;
			l->prop[i] = next++;
			if (s->f[i].in == TLG_STRUCT)
				l->queue[tail++] = (int32_t)i;
		}
		if (parent >= 0) {
			l->start[parent] = first;
			l->members[parent] = next - first;
		}
	}
	l->nprops = next;
	return next > 0xFFFF ? -EBADMSG : 0;
}

static void free_layout(struct layout *l)
{
	free(l->prop);
	free(l->cprop);
	free(l->start);
	free(l->members);
	free(l->queue);
}

/* An array of Char8 or Char16 (TraceLogging's STRING out-type on them). */
static bool char_array(const struct tl_field *f)
{
	return (f->arity == ARITY_CCOUNT || f->arity == ARITY_VCOUNT) &&
	       f->out == 2 && f->in >= 3 && f->in <= 6;
}

static int describe(struct tei_builder *b, const struct schema *s,
		    const struct layout *l)
{
	/* Properties in number order: field i's count, then field i. */
	for (uint32_t k = 0; k < l->nprops; k++) {
		for (uint32_t i = 0; i < s->n; i++) {
			const struct tl_field *f = &s->f[i];
			struct tei_prop p = { .name = f->name, .count = 1 };
			char name[256];
			int ret;

			if (f->arity == ARITY_VCOUNT && l->cprop[i] == k) {
				snprintf(name, sizeof(name), "%s.Count", f->name);
				p.name = name;
				p.in_type = TDH_INTYPE_UINT16;
			} else if (l->prop[i] == k) {
				if (f->in == TLG_STRUCT) {
					p.flags = PropertyStruct;
					p.struct_start = (uint16_t)l->start[i];
					p.struct_members = (uint16_t)l->members[i];
				} else if (char_array(f)) {
					/* Characters: a string of that many. */
					p.in_type = f->in <= 4 ? TDH_INTYPE_ANSISTRING :
								 TDH_INTYPE_UNICODESTRING;
					if (f->arity == ARITY_CCOUNT) {
						p.flags = PropertyParamFixedLength;
						p.length = f->ccount;
					} else {
						p.flags = PropertyParamLength;
						p.length = (uint16_t)l->cprop[i];
					}
					goto add;
				} else if (f->in == TLG_BINARY || f->arity == ARITY_CUSTOM) {
					p.in_type = TDH_INTYPE_MANIFEST_COUNTEDBINARY;
					p.out_type = out_type(f->out, f->in);
				} else {
					p.in_type = f->in;
					p.out_type = out_type(f->out, f->in);
					p.length = intype_size(f->in);
				}
				if (f->arity == ARITY_CCOUNT) {
					p.flags |= PropertyParamFixedCount;
					p.count = f->ccount;
				} else if (f->arity == ARITY_VCOUNT) {
					p.flags |= PropertyParamCount;
					p.count = (uint16_t)l->cprop[i];
				}
add:
				if (f->has_tags) {
					p.flags |= PropertyHasTags;
					p.tags = f->tags;
				}
			} else {
				continue;
			}
			ret = tei_add_property(b, &p);
			if (ret < 0)
				return ret;
			break;
		}
	}
	tei_set_top_level_count(b, l->members[s->n]);
	return 0;
}

static bool tlg_key(const struct decode_record *r, struct decode_key *key)
{
	if (!r->tl_schema)
		return false;
	key->guid = r->provider;
	key->extra = decode_hash(r->tl_schema, r->tl_schema_size,
				 DECODE_HASH_INIT ^ r->tl_schema_size);
	return true;
}

/* The provider's name from the PROV_TRAITS item, or NULL. */
static char *provider_name(const struct decode_record *r)
{
	size_t n = blob_size(r->traits, r->traits_size), pos = 2;
	const char *name = r->traits ? take_str(r->traits, n, &pos) : NULL;

	return name ? strdup(name) : NULL;
}

static int tlg_build(const struct decode_record *r,
		     const struct decode_key *key, struct decode_desc **out)
{
	EVENT_DESCRIPTOR desc = {
		.Id = r->id, .Version = r->version, .Channel = r->channel,
		.Level = r->level, .Opcode = r->opcode, .Task = r->task,
		.Keyword = r->keyword,
	};
	struct schema s = { 0 };
	struct layout l = { 0 };
	struct tei_builder *b = NULL;
	char *pname = NULL;
	int ret;

	ret = parse(r->tl_schema, r->tl_schema_size, &s);
	if (!ret)
		ret = lay_out(&s, &l);
	/* A malformed schema describes nothing: the event is shown raw. */
	if (ret == -EBADMSG)
		ret = -ENOENT;
	if (ret)
		goto out;
	/* The top level's count, where the layout keeps no parent for it. */
	l.members[s.n] = 0;
	for (uint32_t i = 0; i < s.n; i++)
		if (s.f[i].parent < 0)
			l.members[s.n] += 1 + (s.f[i].arity == ARITY_VCOUNT);
	b = tei_builder_new();
	pname = provider_name(r);
	if (!b) {
		ret = -ENOMEM;
		goto out;
	}
	tei_set_event(b, &r->provider, NULL, &desc, DecodingSourceTlg, 0);
	tei_set_string(b, TEI_PROVIDER_NAME_S, pname);
	tei_set_string(b, TEI_EVENT_NAME_S, s.event_name);
	tei_set_tags(b, s.event_tags);
	ret = describe(b, &s, &l);
	if (!ret)
		ret = tei_builder_finish(b, key, 0, out);
	/* Names that are not UTF-8, members outside the event: no schema. */
	if (ret == -EINVAL)
		ret = -ENOENT;
out:
	tei_builder_free(b);
	free(pname);
	free_layout(&l);
	free(s.f);
	return ret;
}

const struct decode_source decode_source_tlg = {
	.kind = DecodingSourceTlg,
	.key = tlg_key,
	.build = tlg_build,
};
