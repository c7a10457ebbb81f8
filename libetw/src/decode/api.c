// SPDX-License-Identifier: MIT
/*
 * The decoder as library API (etw_decode.h): look the record's
 * description up, decode it with the one formatter (format.h), and
 * present the result as named values: struct members as "S.M" or
 * "S[i].M", arrays of simple values joined as "[a, b]".  A top-level
 * simple field (every kernel field but StackWalk's) points straight at
 * the description's name and the formatter's text: nothing is copied.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <etw_decode.h>

#include "../common/internal.h"
#include "format.h"

/* Where a name or value lives until the buffers stop moving. */
enum where { IN_DIRECT, IN_PROP, IN_TEXT, IN_NAMES, IN_JOINED };

struct slot {
	uint8_t name_in, value_in;
	uint32_t name_off;		/* IN_PROP: index of the property */
	uint32_t value_off;
};

struct etw_decoder {
	struct decode_out out;
	struct decode_text names;	/* composed names, NUL-separated */
	struct decode_text joined;	/* joined array values */
	uint32_t *path;			/* per decode field: its name in names */
	uint32_t path_cap;
	struct etw_decoded_field *fields;
	struct slot *slots;
	uint32_t cap;
	const struct decode_desc *desc;
};

ETW_EXPORT int etw_decoder_new(struct etw_decoder **decoder)
{
	*decoder = calloc(1, sizeof(**decoder));
	return *decoder ? 0 : -ENOMEM;
}

ETW_EXPORT void etw_decoder_free(struct etw_decoder *d)
{
	if (!d)
		return;
	decode_out_free(&d->out);
	free(d->names.p);
	free(d->joined.p);
	free(d->path);
	free(d->fields);
	free(d->slots);
	free(d);
}

static int append(struct decode_text *t, const char *s, size_t n)
{
	if (decode_text_reserve(t, n))
		return -ENOMEM;
	memcpy(t->p + t->len, s, n);
	t->len += n;
	t->p[t->len] = '\0';
	return 0;
}

static int append_u(struct decode_text *t, uint32_t v)
{
	char b[12], *e = b + sizeof(b), *s = e;

	do {
		*--s = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	return append(t, s, (size_t)(e - s));
}

static int grow(struct etw_decoder *d, uint32_t n)
{
	if (n > d->path_cap) {
		uint32_t *p = realloc(d->path, n * sizeof(*p));

		if (!p)
			return -ENOMEM;
		d->path = p;
		d->path_cap = n;
	}
	if (n > d->cap) {
		struct etw_decoded_field *f = realloc(d->fields, n * sizeof(*f));
		struct slot *s;

		if (!f)
			return -ENOMEM;
		d->fields = f;
		s = realloc(d->slots, n * sizeof(*s));
		if (!s)
			return -ENOMEM;
		d->slots = s;
		d->cap = n;
	}
	return 0;
}

/* "Parent.Name" or "Parent[i].Name" for a member: its offset in names. */
static int member_name(struct etw_decoder *d, uint32_t i, uint32_t *off)
{
	const struct decode_field *f = &d->out.fields[i];
	const struct decode_field *p = &d->out.fields[f->parent];
	int ret;

	size_t plen = strlen(d->names.p + d->path[f->parent]);

	*off = (uint32_t)d->names.len;
	/* The parent's name is in the same buffer: room first. */
	ret = decode_text_reserve(&d->names, plen);
	if (!ret)
		ret = append(&d->names, d->names.p + d->path[f->parent], plen);
	if (!ret && p->array) {
		ret = append(&d->names, "[", 1);
		if (!ret)
			ret = append_u(&d->names, p->elem);
		if (!ret)
			ret = append(&d->names, "]", 1);
	}
	if (!ret)
		ret = append(&d->names, ".", 1);
	if (!ret)
		ret = append(&d->names, f->prop->name, f->prop->name_len);
	if (!ret && decode_text_reserve(&d->names, 1))
		ret = -ENOMEM;
	if (!ret)
		d->names.len++;		/* keep its NUL */
	return ret;
}

/* The fields of one property's array elements i .. *next-1, joined. */
static int join(struct etw_decoder *d, uint32_t i, uint32_t *next,
		uint32_t *off, uint32_t *size)
{
	const struct decode_out *o = &d->out;
	uint32_t j = i;
	int ret;

	*off = (uint32_t)d->joined.len;
	ret = append(&d->joined, "[", 1);
	for (; !ret && j < o->count && o->fields[j].index == o->fields[i].index &&
	       o->fields[j].parent == o->fields[i].parent &&
	       (j == i || o->fields[j].elem > o->fields[j - 1].elem); j++) {
		if (j > i)
			ret = append(&d->joined, ", ", 2);
		if (!ret)
			ret = append(&d->joined, decode_field_value(o, j),
				     o->fields[j].value_len);
	}
	if (!ret)
		ret = append(&d->joined, "]", 1);
	if (!ret && decode_text_reserve(&d->joined, 1))
		ret = -ENOMEM;
	if (ret)
		return ret;
	d->joined.len++;
	*size = (uint32_t)((o->fields[j - 1].data + o->fields[j - 1].size) -
			   o->fields[i].data);
	*next = j;
	return 0;
}

/* A top-level simple field: pointers into final buffers, no copy. */
static void direct(const struct decode_out *o, const struct decode_field *f,
		   struct etw_decoded_field *x)
{
	x->name = f->prop->name;
	x->value = o->text.p + f->value_off;
	x->value_len = f->value_len;
	x->in_type = f->prop->in_type;
	x->out_type = f->prop->out_type;
	x->data = f->data;
	x->size = f->size;
	x->number = f->number;
	x->plain = f->plain;
}

static int present(struct etw_decoder *d, struct etw_decoded_event *e)
{
	const struct decode_out *o = &d->out;
	bool moved = false;
	uint32_t n = 0;
	int ret = grow(d, o->count);

	d->names.len = 0;
	d->joined.len = 0;
	for (uint32_t i = 0; !ret && i < o->count;) {
		const struct decode_field *f = &o->fields[i];
		struct etw_decoded_field *x = &d->fields[n];
		struct slot *s = &d->slots[n];
		uint32_t next = i + 1;

		if (f->parent < 0 && !f->is_struct && !f->array) {
			direct(o, f, x);
			s->name_in = IN_DIRECT;
			n++;
			i = next;
			continue;
		}
		moved = true;
		if (f->parent < 0) {
			s->name_in = IN_PROP;
			s->name_off = f->index;
			d->path[i] = UINT32_MAX;
			if (f->is_struct) {
				/* Its members' prefix. */
				d->path[i] = (uint32_t)d->names.len;
				ret = append(&d->names, f->prop->name,
					     f->prop->name_len);
				if (!ret && !decode_text_reserve(&d->names, 1))
					d->names.len++;
			}
		} else {
			s->name_in = IN_NAMES;
			ret = member_name(d, i, &s->name_off);
			d->path[i] = s->name_off;
		}
		if (ret)
			break;
		if (f->is_struct) {
			i = next;
			continue;
		}
		direct(o, f, x);
		/* A composed name is not looked at. */
		if (f->parent >= 0)
			x->plain = 0;
		if (f->array) {
			s->value_in = IN_JOINED;
			x->number = 0;
			x->plain = 0;
			ret = join(d, i, &next, &s->value_off, &x->size);
		} else {
			s->value_in = IN_TEXT;
		}
		n++;
		i = next;
	}
	if (ret)
		return ret;
	/* Composed names and joined values: pointers now they stay put. */
	for (uint32_t i = 0; moved && i < n; i++) {
		struct etw_decoded_field *x = &d->fields[i];
		const struct slot *s = &d->slots[i];

		if (s->name_in == IN_DIRECT)
			continue;
		if (s->name_in == IN_PROP)
			x->name = d->desc->props[s->name_off].name;
		else
			x->name = d->names.p + s->name_off;
		if (s->value_in == IN_JOINED) {
			x->value = d->joined.p + s->value_off;
			x->value_len = (uint32_t)strlen(x->value);
		}
	}
	e->fields = d->fields;
	e->field_count = n;
	return 0;
}

static int decode(struct etw_decoder *d, const struct decode_record *r,
		  struct etw_decoded_event *e)
{
	const struct decode_desc *desc;
	int ret, ret2;

	memset(e, 0, sizeof(*e));
	ret = decode_lookup(r, &desc);
	if (ret)
		return ret;
	d->desc = desc;
	e->decoding_source = desc->tei->DecodingSource;
	e->provider_name = desc->strings[TEI_PROVIDER_NAME_S];
	e->task_name = desc->strings[TEI_TASK_NAME_S];
	e->opcode_name = desc->strings[TEI_OPCODE_NAME_S];
	e->event_name = desc->strings[TEI_EVENT_NAME_S];
	e->level_name = desc->strings[TEI_LEVEL_NAME_S];
	e->channel_name = desc->strings[TEI_CHANNEL_NAME_S];
	e->keywords_name = desc->strings[TEI_KEYWORDS_NAME_S];
	e->message = desc->strings[TEI_EVENT_MESSAGE_S];
	e->event_info = desc->tei;
	e->event_info_size = desc->tei_size;
	ret = decode_format_event(&d->out, desc, r->data, r->size,
				  r->pointer_size);
	if (ret == -ENOMEM)
		return ret;
	e->rest = d->out.rest;
	e->rest_size = d->out.rest_size;
	ret2 = present(d, e);
	return ret2 ? ret2 : ret;
}

ETW_EXPORT int etw_decode_etl_event(struct etw_decoder *d,
				    const struct etw_etl_event *ev,
				    struct etw_decoded_event *out)
{
	struct decode_record r;

	decode_record_from_etl(ev, &r);
	return decode(d, &r, out);
}

ETW_EXPORT int etw_decode_event_record(struct etw_decoder *d,
				       const struct _EVENT_RECORD *record,
				       struct etw_decoded_event *out)
{
	struct decode_record r;

	decode_record_from_event(record, &r);
	return decode(d, &r, out);
}

ETW_EXPORT const struct etw_decoded_field *
etw_decoded_field(const struct etw_decoded_event *e, const char *name)
{
	for (uint32_t i = 0; i < e->field_count; i++)
		if (!strcmp(e->fields[i].name, name))
			return &e->fields[i];
	return NULL;
}
