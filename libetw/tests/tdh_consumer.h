/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A TDH consumer for the tests, written in the manner of Microsoft's
 * "Using TdhFormatProperty to Consume Event Data" (our own code): every
 * property of an event as "Name=value;" in order, struct members as
 * "S[i].M", array elements as "A[i]"; integers other properties take
 * their length or count from read with TdhGetProperty, maps with
 * TdhGetEventMapInformation, the data walked with TdhFormatProperty's
 * UserDataConsumed.  Include after kselftest_harness.h and <tdh.h>.
 */
#ifndef TDH_CONSUMER_H
#define TDH_CONSUMER_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Windows code writes ULONG_MAX, 32 bits there; 64 in a Linux build. */
#ifndef ALL_ELEMENTS
#define ALL_ELEMENTS	0xFFFFFFFFu
#endif

/* UTF-16 to UTF-8, for comparing. */
static inline void narrow(const WCHAR *w, char *out, size_t size)
{
	size_t n = 0;

	for (; w && *w && n + 5 < size; w++) {
		uint32_t c = *w;

		if (c >= 0xd800 && c < 0xdc00 && w[1] >= 0xdc00 && w[1] < 0xe000) {
			c = 0x10000 + ((c - 0xd800) << 10) + (w[1] - 0xdc00);
			w++;
		}
		if (c < 0x80) {
			out[n++] = (char)c;
		} else if (c < 0x800) {
			out[n++] = (char)(0xc0 | c >> 6);
			out[n++] = (char)(0x80 | (c & 0x3f));
		} else if (c < 0x10000) {
			out[n++] = (char)(0xe0 | c >> 12);
			out[n++] = (char)(0x80 | (c >> 6 & 0x3f));
			out[n++] = (char)(0x80 | (c & 0x3f));
		} else {
			out[n++] = (char)(0xf0 | c >> 18);
			out[n++] = (char)(0x80 | (c >> 12 & 0x3f));
			out[n++] = (char)(0x80 | (c >> 6 & 0x3f));
			out[n++] = (char)(0x80 | (c & 0x3f));
		}
	}
	out[n] = '\0';
}

/*
 * The consumer: every property of the event, "Name=value;" in order.
 * Integers other properties take their length or count from are read with
 * TdhGetProperty; the data is walked with TdhFormatProperty's
 * UserDataConsumed.
 */
struct consumer {
	PEVENT_RECORD ev;
	PTRACE_EVENT_INFO info;
	PBYTE data, end;
	char *out;			/* malloc'd, NUL-terminated */
	size_t len, cap;
	ULONG status;
};

static inline void put(struct consumer *c, const char *s)
{
	size_t n = strlen(s);

	if (c->len + n + 1 > c->cap) {
		c->cap = (c->len + n + 1) * 2;
		c->out = realloc(c->out, c->cap);
	}
	memcpy(c->out + c->len, s, n + 1);
	c->len += n;
}

static inline ULONG int_property(struct consumer *c, USHORT index, ULONG *value)
{
	PROPERTY_DATA_DESCRIPTOR pd = { 0 };
	PEVENT_PROPERTY_INFO p = &c->info->EventPropertyInfoArray[index];
	ULONG size = 0, status;
	ULONGLONG v = 0;

	pd.PropertyName = (ULONGLONG)(uintptr_t)TEI_PROPERTY_NAME(c->info, p);
	pd.ArrayIndex = ALL_ELEMENTS;
	status = TdhGetPropertySize(c->ev, 0, NULL, 1, &pd, &size);
	if (status || size > sizeof(v))
		return status ? status : ERROR_EVT_INVALID_EVENT_DATA;
	status = TdhGetProperty(c->ev, 0, NULL, 1, &pd, size, (PBYTE)&v);
	*value = (ULONG)v;
	return status;
}

static inline ULONG print_properties(struct consumer *c, USHORT first, USHORT n,
				     const char *prefix);

static inline ULONG print_one(struct consumer *c, USHORT i, const char *prefix)
{
	PEVENT_PROPERTY_INFO p = &c->info->EventPropertyInfoArray[i];
	char name[128], full[256];
	ULONG count = p->count, length = p->length, status;


	narrow(TEI_PROPERTY_NAME(c->info, p), name, sizeof(name));
	snprintf(full, sizeof(full), "%s%s", prefix, name);
	if (p->Flags & PropertyParamCount) {
		status = int_property(c, p->countPropertyIndex, &count);
		if (status)
			return status;
	}
	if (p->Flags & PropertyParamLength) {
		status = int_property(c, p->lengthPropertyIndex, &length);
		if (status)
			return status;
	}
	bool array = (p->Flags & (PropertyParamCount | PropertyParamFixedCount)) != 0;

	/* An array of simple values: "Name=[a, b];", as etw dump shows it. */
	if (array && !(p->Flags & PropertyStruct)) {
		put(c, full);
		put(c, "=[");
	}
	for (ULONG e = 0; e < count; e++) {
		char elem[300];

		if (array)
			snprintf(elem, sizeof(elem), "%s[%lu]", full, (unsigned long)e);
		else
			snprintf(elem, sizeof(elem), "%s", full);
		if (p->Flags & PropertyStruct) {
			char sub[310];

			snprintf(sub, sizeof(sub), "%s.", elem);
			status = print_properties(c, p->structType.StructStartIndex,
						  p->structType.NumOfStructMembers, sub);
			if (status)
				return status;
			continue;
		}
		PEVENT_MAP_INFO map = NULL;
		ULONG map_size = 0, size = 64 * sizeof(WCHAR);
		WCHAR *value = malloc(size);
		USHORT used = 0;
		char *text;

		if (p->nonStructType.MapNameOffset) {
			status = TdhGetEventMapInformation(c->ev, TEI_MAP_NAME(c->info, p),
							   NULL, &map_size);
			if (status != ERROR_INSUFFICIENT_BUFFER) {
				free(value);
				return status;
			}
			map = malloc(map_size);
			status = TdhGetEventMapInformation(c->ev, TEI_MAP_NAME(c->info, p),
							   map, &map_size);
			if (status) {
				free(map);
				free(value);
				return status;
			}
		}
		/* The two-call rule: the size needed comes back. */
		while ((status = TdhFormatProperty(c->info, map,
						   (c->ev->EventHeader.Flags &
						    EVENT_HEADER_FLAG_32_BIT_HEADER) ? 4 : 8,
						   p->nonStructType.InType,
						   p->nonStructType.OutType, (USHORT)length,
						   (USHORT)(c->end - c->data), c->data,
						   &size, value, &used)) ==
		       ERROR_INSUFFICIENT_BUFFER)
			value = realloc(value, size);
		free(map);
		if (status) {
			free(value);
			return status;
		}
		text = malloc(size * 2 + 1);
		narrow(value, text, size * 2 + 1);
		free(value);
		c->data += used;
		if (array) {
			if (e)
				put(c, ", ");
			put(c, text);
		} else {
			put(c, elem);
			put(c, "=");
			put(c, text);
			put(c, ";");
		}
		free(text);
	}
	if (array && !(p->Flags & PropertyStruct))
		put(c, "];");
	return ERROR_SUCCESS;
}

static inline ULONG print_properties(struct consumer *c, USHORT first, USHORT n,
			      const char *prefix)
{
	for (USHORT i = first; i < first + n; i++) {
		ULONG status = print_one(c, i, prefix);

		if (status)
			return status;
	}
	return ERROR_SUCCESS;
}

static inline PTRACE_EVENT_INFO event_info(PEVENT_RECORD ev, ULONG *status)
{
	PTRACE_EVENT_INFO info;
	ULONG size = 0;

	*status = TdhGetEventInformation(ev, 0, NULL, NULL, &size);
	if (*status != ERROR_INSUFFICIENT_BUFFER)
		return NULL;
	info = malloc(size);
	*status = TdhGetEventInformation(ev, 0, NULL, info, &size);
	if (*status) {
		free(info);
		return NULL;
	}
	return info;
}

static inline const char *consume(PEVENT_RECORD ev, struct consumer *c)
{
	free(c->out);
	memset(c, 0, sizeof(*c));
	put(c, "");
	c->ev = ev;
	c->info = event_info(ev, &c->status);
	if (!c->info)
		return c->out;
	c->data = ev->UserData;
	c->end = c->data + ev->UserDataLength;
	c->status = print_properties(c, 0, (USHORT)c->info->TopLevelPropertyCount, "");
	if (!c->status && c->data != c->end)
		c->status = ERROR_EVT_INVALID_EVENT_DATA;
	free(c->info);
	return c->out;
}

#endif /* TDH_CONSUMER_H */
