// SPDX-License-Identifier: MIT
/*
 * Where each property of a description is in an event's data (format.h):
 * properties in order, arrays element by element, structs member by
 * member, counts and lengths taken from the integer value of an earlier
 * property as TDH does (EVENT_PROPERTY_INFO's countPropertyIndex and
 * lengthPropertyIndex).  Nothing is allocated: the integers are kept in
 * the caller's vals.
 */
#include <errno.h>

#include "format.h"

/* Structs within structs: Windows allows one level; a loop is an error. */
#define MAX_DEPTH	8

struct walk {
	const struct decode_desc *d;
	const uint8_t *data;
	uint32_t size;
	uint32_t pos;
	unsigned int ptr;
	uint64_t *vals;
	decode_visit_fn fn;
	void *ctx;
};

static bool is_integer(uint16_t in_type)
{
	switch (in_type) {
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
	case TDH_INTYPE_BOOLEAN:
		return true;
	default:
		return false;
	}
}

/* A count or length: a number, or an earlier property's value. */
static int param(const struct walk *w, uint32_t i, bool ref, uint16_t v,
		 uint32_t *out)
{
	if (!ref) {
		*out = v;
		return 0;
	}
	if (v >= i || v >= w->d->prop_count || w->vals[v] > 0xFFFFFFFFu)
		return -EBADMSG;
	*out = (uint32_t)w->vals[v];
	return 0;
}

static int props(struct walk *w, uint32_t first, uint32_t n, uint32_t depth);

static int one(struct walk *w, uint32_t i, uint32_t depth)
{
	const struct decode_prop *p = &w->d->props[i];
	struct decode_item it = {
		.prop = p, .index = i, .depth = depth,
	};
	uint32_t count, length;
	int ret;

	ret = param(w, i, p->flags & PropertyParamCount, p->count, &count);
	if (!ret)
		ret = param(w, i, p->flags & PropertyParamLength, p->length,
			    &length);
	if (ret)
		return ret;
	it.array = (p->flags & (PropertyParamCount | PropertyParamFixedCount)) ||
		   count > 1;
	if (!it.array && !count)
		count = 1;
	it.count = count;
	w->vals[i] = 0;
	for (uint32_t e = 0; e < count; e++) {
		/*
		 * A fixed MOF array may stop early too (StackWalk's frames); a
		 * counted one holds what its count says.
		 */
		if (e && !depth && w->pos == w->size &&
		    (p->flags & PropertyParamFixedCount) &&
		    (w->d->flags & DECODE_DESC_LENIENT))
			break;
		it.elem = e;
		it.offset = w->pos;
		if (p->flags & PropertyStruct) {
			it.kind = DECODE_ITEM_STRUCT_BEGIN;
			it.p = w->data + w->pos;
			it.n = 0;
			if ((ret = w->fn(w->ctx, &it)))
				return ret;
			ret = props(w, p->struct_start, p->struct_members,
				    depth + 1);
			if (ret)
				return ret;
			it.kind = DECODE_ITEM_STRUCT_END;
			it.offset = w->pos;
			if ((ret = w->fn(w->ctx, &it)))
				return ret;
			continue;
		}
		it.kind = DECODE_ITEM_VALUE;
		it.p = w->data + w->pos;
		ret = decode_value_size(p->in_type, p->out_type, length, w->ptr,
					it.p, w->size - w->pos, &it.n);
		if (ret)
			return ret;
		if (e == 0 && is_integer(p->in_type))
			w->vals[i] = decode_le(it.p, it.n);
		w->pos += it.n;
		if ((ret = w->fn(w->ctx, &it)))
			return ret;
	}
	return 0;
}

/* The flags that take a property off the fast path. */
#define NOT_SIMPLE	(PropertyStruct | PropertyParamCount | \
			 PropertyParamLength | PropertyParamFixedCount)

static int props(struct walk *w, uint32_t first, uint32_t n, uint32_t depth)
{
	bool lenient = w->d->flags & DECODE_DESC_LENIENT;
	struct decode_item it = {
		.kind = DECODE_ITEM_VALUE, .count = 1, .depth = depth,
	};
	int ret;

	if (depth >= MAX_DEPTH || first + n > w->d->prop_count)
		return -EBADMSG;
	for (uint32_t i = first; i < first + n; i++) {
		const struct decode_prop *p = &w->d->props[i];

		/* MOF events may stop at any property (later versions add). */
		if (lenient && !depth && w->pos == w->size)
			return 0;
		if ((p->flags & NOT_SIMPLE) || p->count > 1) {
			ret = one(w, i, depth);
			if (ret)
				return ret;
			continue;
		}
		/* One value, its length fixed or from its type: most fields. */
		it.prop = p;
		it.index = i;
		it.offset = w->pos;
		it.p = w->data + w->pos;
		if (p->size) {
			/* Its type fixes the size: no look at the data. */
			it.n = p->size == DECODE_PTR_SIZE ? w->ptr : p->size;
			if (it.n > w->size - w->pos)
				return -EBADMSG;
		} else {
			ret = decode_value_size(p->in_type, p->out_type,
						p->length, w->ptr, it.p,
						w->size - w->pos, &it.n);
			if (ret)
				return ret;
		}
		w->vals[i] = is_integer(p->in_type) ? decode_le(it.p, it.n) : 0;
		w->pos += it.n;
		ret = w->fn(w->ctx, &it);
		if (ret)
			return ret;
	}
	return 0;
}

int decode_walk(const struct decode_desc *d, const void *data, uint32_t size,
		unsigned int pointer_size, uint64_t *vals, decode_visit_fn fn,
		void *ctx, uint32_t *end)
{
	struct walk w = {
		.d = d, .data = data, .size = data ? size : 0,
		.ptr = pointer_size == 4 ? 4 : 8, .vals = vals, .fn = fn,
		.ctx = ctx,
	};
	int ret = props(&w, 0, d->top_count, 0);

	if (end)
		*end = w.pos;
	return ret;
}
