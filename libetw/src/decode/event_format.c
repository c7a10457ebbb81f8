// SPDX-License-Identifier: MIT
/*
 * A whole event as named values (format.h): the walk's items, each value
 * formatted into one text buffer, fields kept in one array, both reused
 * from event to event.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "format.h"

static int add_field(struct decode_out *o, const struct decode_item *it,
		     struct decode_field **f)
{
	if (o->count == o->cap) {
		uint32_t cap = o->cap ? o->cap * 2 : 64;
		struct decode_field *p = realloc(o->fields, cap * sizeof(*p));

		if (!p)
			return -ENOMEM;
		o->fields = p;
		o->cap = cap;
	}
	*f = &o->fields[o->count++];
	(*f)->prop = it->prop;
	(*f)->index = it->index;
	(*f)->elem = it->elem;
	(*f)->array = it->array;
	(*f)->number = false;
	(*f)->plain = false;
	(*f)->is_struct = false;
	(*f)->parent = it->depth ? o->open_struct : -1;
	(*f)->data = it->p;
	(*f)->size = it->n;
	return 0;
}

static int visit(void *ctx, const struct decode_item *it)
{
	struct decode_out *o = ctx;
	struct decode_field *f;
	int ret;

	if (it->kind == DECODE_ITEM_STRUCT_END) {
		/* Back to the struct this one is a member of, if any. */
		o->open_struct = o->fields[o->open_struct].parent;
		return 0;
	}
	ret = add_field(o, it, &f);
	if (ret)
		return ret;
	f->value_off = (uint32_t)o->text.len;
	if (it->kind == DECODE_ITEM_STRUCT_BEGIN) {
		f->is_struct = true;
		f->value_len = 0;
		o->open_struct = (int32_t)(o->count - 1);
		return decode_text_reserve(&o->text, 0) ? -ENOMEM : 0;
	}
	ret = decode_format_value(&o->text, it->prop->in_type,
				  it->prop->out_type, it->prop->map,
				  o->pointer_size, it->p, it->n, &f->number);
	if (ret) {
		o->count--;
		return ret;
	}
	f->value_len = (uint32_t)(o->text.len - f->value_off);
	f->plain = it->prop->plain;
	/* Keep the value's NUL (formatting leaves one, within cap). */
	o->text.len++;
	return 0;
}

int decode_format_event(struct decode_out *o, const struct decode_desc *d,
			const void *data, uint32_t size,
			unsigned int pointer_size)
{
	uint32_t end = 0;
	int ret;

	o->count = 0;
	o->text.len = 0;
	o->rest = NULL;
	o->rest_size = 0;
	o->open_struct = -1;
	o->pointer_size = pointer_size == 4 ? 4 : 8;
	if (o->vals_cap < d->prop_count) {
		uint64_t *v = realloc(o->vals, d->prop_count * sizeof(*v));

		if (!v)
			return -ENOMEM;
		o->vals = v;
		o->vals_cap = d->prop_count;
	}
	ret = decode_walk(d, data, size, o->pointer_size, o->vals, visit, o,
			  &end);
	if (ret)
		return ret;
	if (end < size) {
		if (!(d->flags & DECODE_DESC_LENIENT))
			return -EBADMSG;
		o->rest = (const uint8_t *)data + end;
		o->rest_size = size - end;
	}
	return 0;
}

void decode_out_free(struct decode_out *o)
{
	free(o->text.p);
	free(o->fields);
	free(o->vals);
	memset(o, 0, sizeof(*o));
}
