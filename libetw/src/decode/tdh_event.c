// SPDX-License-Identifier: MIT
/*
 * The TDH functions over an event (tdh.h): TdhGetEventInformation and
 * TdhGetEventMapInformation hand out the description and its maps in
 * Windows' layout; TdhGetPropertySize and TdhGetProperty find a property
 * (a struct member through a path of PROPERTY_DATA_DESCRIPTORs, an array
 * element by ArrayIndex, a whole array with ULONG_MAX) with the one walk
 * of the formatter (format.h).  Every source behind decode_lookup()
 * answers: manifests, TraceLogging, the kernel's MOF classes.
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "../common/internal.h"
#include "../common/utf.h"
#include "format.h"
#include "tdh_internal.h"

ULONG tdh_error(int err)
{
	switch (err) {
	case 0:
		return ERROR_SUCCESS;
	case -ENOENT:
		return ERROR_NOT_FOUND;
	case -ENOMEM:
		return ERROR_NOT_ENOUGH_MEMORY;
	case -EBADMSG:
		return ERROR_EVT_INVALID_EVENT_DATA;
	default:
		return ERROR_INVALID_PARAMETER;
	}
}

char *tdh_utf8(const WCHAR *s, ULONG *err)
{
	size_t len = 0;
	ssize_t n;
	char *out;

	while (s[len])
		len++;
	n = etw_utf16_to_utf8(s, len, NULL, 0);
	if (n < 0) {
		*err = ERROR_INVALID_PARAMETER;
		return NULL;
	}
	out = malloc((size_t)n + 1);
	if (!out) {
		*err = ERROR_NOT_ENOUGH_MEMORY;
		return NULL;
	}
	etw_utf16_to_utf8(s, len, out, (size_t)n + 1);
	return out;
}

size_t tdh_wsize(const char *s)
{
	ssize_t n = etw_utf8_to_utf16(s, strlen(s), NULL, 0);

	return n < 0 ? 0 : ((size_t)n + 1) * sizeof(WCHAR);
}

ULONG tdh_wput(void *base, size_t *off, const char *s)
{
	size_t at = *off, units = tdh_wsize(s) / sizeof(WCHAR);

	etw_utf8_to_utf16(s, strlen(s), (char16_t *)(void *)((char *)base + at),
			  units);
	*off = at + units * sizeof(WCHAR);
	return (ULONG)at;
}

ULONG tdh_copy_out(void *buf, ULONG *buf_size, const void *src, size_t size)
{
	ULONG have = *buf_size;

	if (size > 0xFFFFFFFFu)
		return ERROR_NOT_ENOUGH_MEMORY;
	*buf_size = (ULONG)size;
	if (!buf || have < size)
		return ERROR_INSUFFICIENT_BUFFER;
	memcpy(buf, src, size);
	return ERROR_SUCCESS;
}

ULONG tdh_describe(const EVENT_RECORD *ev, ULONG nctx, const TDH_CONTEXT *ctx,
		   const struct decode_desc **d, unsigned int *pointer_size)
{
	struct decode_record r;
	int ret;

	if (!ev || (nctx && !ctx))
		return ERROR_INVALID_PARAMETER;
	decode_record_from_event(ev, &r);
	for (ULONG i = 0; i < nctx; i++) {
		/* Windows takes no context twice. */
		for (ULONG j = 0; j < i; j++)
			if (ctx[j].ParameterType == ctx[i].ParameterType)
				return ERROR_INVALID_PARAMETER;
		if (ctx[i].ParameterType >= TDH_CONTEXT_MAXIMUM)
			return ERROR_INVALID_PARAMETER;
		if (ctx[i].ParameterType == TDH_CONTEXT_POINTERSIZE) {
			if (ctx[i].ParameterValue != 4 && ctx[i].ParameterValue != 8)
				return ERROR_INVALID_PARAMETER;
			r.pointer_size = (uint8_t)ctx[i].ParameterValue;
		}
	}
	ret = decode_lookup(&r, d);
	*pointer_size = r.pointer_size;
	return tdh_error(ret);
}

ETW_EXPORT TDHSTATUS WINAPI TdhGetEventInformation(PEVENT_RECORD Event,
						   ULONG TdhContextCount,
						   PTDH_CONTEXT TdhContext,
						   PTRACE_EVENT_INFO Buffer,
						   PULONG BufferSize)
{
	const struct decode_desc *d;
	unsigned int ps;
	ULONG err;

	if (!Event || !BufferSize)
		return ERROR_INVALID_PARAMETER;
	err = tdh_describe(Event, TdhContextCount, TdhContext, &d, &ps);
	/* WPP: no other source knows it; its TMF does, if one is named. */
	if (err == ERROR_NOT_FOUND && tdh_is_wpp(Event))
		return tdh_wpp_event_info(Event, TdhContextCount, TdhContext,
					  Buffer, BufferSize);
	if (err)
		return err;
	return tdh_copy_out(Buffer, BufferSize, d->tei, d->tei_size);
}

ETW_EXPORT TDHSTATUS WINAPI TdhGetEventMapInformation(PEVENT_RECORD pEvent,
						      PWSTR pMapName,
						      PEVENT_MAP_INFO pBuffer,
						      ULONG *pBufferSize)
{
	const struct decode_desc *d;
	const struct decode_map *m;
	unsigned int ps;
	ULONG err = 0;
	char *name;

	if (!pEvent || !pMapName || !pBufferSize)
		return ERROR_INVALID_PARAMETER;
	err = tdh_describe(pEvent, 0, NULL, &d, &ps);
	if (err)
		return err;
	name = tdh_utf8(pMapName, &err);
	if (!name)
		return err;
	m = decode_desc_map(d, name);
	free(name);
	if (!m)
		return ERROR_NOT_FOUND;
	return tdh_copy_out(pBuffer, pBufferSize, m->info, m->info_size);
}

/* ArrayIndex for a whole array (Windows: ULONG_MAX, 32 bits there). */
#define TDH_ALL_ELEMENTS	0xFFFFFFFFu

/* Where a path of PROPERTY_DATA_DESCRIPTORs leads in the data. */
struct locate {
	const uint32_t *idx;		/* property of each level */
	const ULONG *elem;		/* its ArrayIndex */
	uint32_t n;
	uint32_t level;			/* levels entered so far */
	bool found;
	uint32_t start, end;
};

static bool elem_ok(const struct locate *l, uint32_t k,
		    const struct decode_item *it)
{
	return l->elem[k] == TDH_ALL_ELEMENTS || !it->array || it->elem == l->elem[k];
}

static int visit(void *ctx, const struct decode_item *it)
{
	struct locate *l = ctx;
	uint32_t k = l->level;

	/* The end of the struct element a member was looked for in. */
	if (k && it->kind == DECODE_ITEM_STRUCT_END && it->depth == k - 1 &&
	    it->index == l->idx[k - 1]) {
		l->level--;
		return l->found;
	}
	if (it->depth != k || it->index != l->idx[k] || !elem_ok(l, k, it))
		return l->found && it->depth <= k;
	if (k + 1 < l->n) {
		if (it->kind == DECODE_ITEM_STRUCT_BEGIN)
			l->level++;
		return 0;
	}
	if (it->kind == DECODE_ITEM_STRUCT_END) {
		l->end = it->offset;
		return 0;
	}
	if (!l->found)
		l->start = it->offset;
	l->found = true;
	l->end = it->offset + it->n;
	return 0;
}

/* The property named @name among @n from @first; -1 if none. */
static int64_t find_prop(const struct decode_desc *d, uint32_t first,
			 uint32_t n, const char *name)
{
	for (uint32_t i = first; i < first + n && i < d->prop_count; i++)
		if (!strcmp(d->props[i].name, name))
			return i;
	return -1;
}

static ULONG locate(PEVENT_RECORD ev, ULONG nctx, PTDH_CONTEXT ctx,
		    ULONG count, PPROPERTY_DATA_DESCRIPTOR pd,
		    const uint8_t **p, ULONG *size)
{
	const struct decode_desc *d;
	struct locate l = { 0 };
	uint32_t *idx = NULL;
	ULONG *elem = NULL;
	uint64_t *vals = NULL;
	uint32_t first, n;
	unsigned int ps;
	ULONG err;
	int ret;

	if (!ev || !pd || !count || !size)
		return ERROR_INVALID_PARAMETER;
	err = tdh_describe(ev, nctx, ctx, &d, &ps);
	if (err)
		return err;
	idx = calloc(count, sizeof(*idx));
	elem = calloc(count, sizeof(*elem));
	vals = calloc(d->prop_count + 1, sizeof(*vals));
	if (!idx || !elem || !vals) {
		err = ERROR_NOT_ENOUGH_MEMORY;
		goto out;
	}
	first = 0;
	n = d->top_count;
	for (ULONG k = 0; k < count; k++) {
		const WCHAR *w = (const WCHAR *)(uintptr_t)pd[k].PropertyName;
		char *name;
		int64_t i;

		if (!w) {
			err = ERROR_INVALID_PARAMETER;
			goto out;
		}
		name = tdh_utf8(w, &err);
		if (!name)
			goto out;
		i = find_prop(d, first, n, name);
		free(name);
		if (i < 0) {
			err = ERROR_NOT_FOUND;
			goto out;
		}
		idx[k] = (uint32_t)i;
		elem[k] = pd[k].ArrayIndex;
		/* Only a struct has members to name next. */
		if (k + 1 < count) {
			if (!(d->props[i].flags & PropertyStruct)) {
				err = ERROR_INVALID_PARAMETER;
				goto out;
			}
			first = d->props[i].struct_start;
			n = d->props[i].struct_members;
		}
	}
	l.idx = idx;
	l.elem = elem;
	l.n = count;
	ret = decode_walk(d, ev->UserData, ev->UserDataLength, ps, vals, visit,
			  &l, NULL);
	if (ret < 0) {
		err = tdh_error(ret);
		goto out;
	}
	if (!l.found) {
		/* A whole array of no element is empty; an element past it is not there. */
		if (elem[count - 1] != TDH_ALL_ELEMENTS) {
			err = ERROR_INVALID_PARAMETER;
			goto out;
		}
		l.start = l.end = 0;
	}
	*p = (const uint8_t *)ev->UserData + l.start;
	*size = l.end - l.start;
	err = ERROR_SUCCESS;
out:
	free(idx);
	free(elem);
	free(vals);
	return err;
}

ETW_EXPORT TDHSTATUS WINAPI TdhGetPropertySize(PEVENT_RECORD pEvent,
					       ULONG TdhContextCount,
					       PTDH_CONTEXT pTdhContext,
					       ULONG PropertyDataCount,
					       PPROPERTY_DATA_DESCRIPTOR pPropertyData,
					       ULONG *pPropertySize)
{
	const uint8_t *p;

	return locate(pEvent, TdhContextCount, pTdhContext, PropertyDataCount,
		      pPropertyData, &p, pPropertySize);
}

ETW_EXPORT TDHSTATUS WINAPI TdhGetProperty(PEVENT_RECORD pEvent,
					   ULONG TdhContextCount,
					   PTDH_CONTEXT pTdhContext,
					   ULONG PropertyDataCount,
					   PPROPERTY_DATA_DESCRIPTOR pPropertyData,
					   ULONG BufferSize, PBYTE pBuffer)
{
	const uint8_t *p;
	ULONG size, err;

	if (!pBuffer)
		return ERROR_INVALID_PARAMETER;
	err = locate(pEvent, TdhContextCount, pTdhContext, PropertyDataCount,
		     pPropertyData, &p, &size);
	if (err)
		return err;
	if (BufferSize < size)
		return ERROR_INSUFFICIENT_BUFFER;
	memcpy(pBuffer, p, size);
	return ERROR_SUCCESS;
}
