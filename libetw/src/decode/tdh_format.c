// SPDX-License-Identifier: MIT
/*
 * TdhFormatProperty: one value as text, by the one formatter's rules
 * (format.h), written as UTF-16 as Windows writes it.  The caller's
 * EVENT_MAP_INFO (Windows' form) is read into the formatter's map form
 * for the call.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "../common/internal.h"
#include "../common/utf.h"
#include "format.h"
#include "tdh_internal.h"

/* A string at @off of the map info, as UTF-8 (malloc'd), or NULL. */
static char *map_string(const EVENT_MAP_INFO *mi, ULONG off)
{
	ULONG err;

	if (!off)
		return strdup("");
	return tdh_utf8((const WCHAR *)(const void *)((const char *)mi + off), &err);
}

static void free_map(struct decode_map *m)
{
	for (uint32_t i = 0; i < m->count; i++)
		free((char *)m->entries[i].name);
	free((void *)m->entries);
}

static ULONG read_map(const EVENT_MAP_INFO *mi, struct decode_map *m)
{
	struct decode_map_entry *e;

	memset(m, 0, sizeof(*m));
	if (mi->EntryCount > 0xFFFF)
		return ERROR_INVALID_PARAMETER;
	e = calloc(mi->EntryCount + 1, sizeof(*e));
	if (!e)
		return ERROR_NOT_ENOUGH_MEMORY;
	m->entries = e;
	m->flags = mi->Flag;
	for (ULONG i = 0; i < mi->EntryCount; i++) {
		char *name = map_string(mi, mi->MapEntryArray[i].OutputOffset);

		if (!name) {
			free_map(m);
			return ERROR_INVALID_PARAMETER;
		}
		/* Windows' entry names end in a space; the shown name does not. */
		size_t len = strlen(name);

		while (len && name[len - 1] == ' ')
			name[--len] = '\0';
		e[i].value = mi->MapEntryArray[i].Value;
		e[i].name = name;
		e[i].name_len = (uint16_t)len;
		m->count++;
	}
	return ERROR_SUCCESS;
}

ETW_EXPORT TDHSTATUS WINAPI TdhFormatProperty(PTRACE_EVENT_INFO EventInfo,
					      PEVENT_MAP_INFO MapInfo,
					      ULONG PointerSize,
					      USHORT PropertyInType,
					      USHORT PropertyOutType,
					      USHORT PropertyLength,
					      USHORT UserDataLength,
					      PBYTE UserData, PULONG BufferSize,
					      PWCHAR Buffer,
					      PUSHORT UserDataConsumed)
{
	struct decode_text t = { 0 };
	struct decode_map map, *mp = NULL;
	uint32_t n;
	ssize_t units;
	ULONG err;
	int ret;

	if (!EventInfo || !BufferSize || !UserDataConsumed ||
	    (PointerSize != 4 && PointerSize != 8) ||
	    (!UserData && UserDataLength))
		return ERROR_INVALID_PARAMETER;
	ret = decode_value_size(PropertyInType, PropertyOutType, PropertyLength,
				PointerSize, UserData, UserDataLength, &n);
	if (ret)
		return ERROR_EVT_INVALID_EVENT_DATA;
	if (MapInfo) {
		err = read_map(MapInfo, &map);
		if (err)
			return err;
		mp = &map;
	}
	ret = decode_format_value(&t, PropertyInType, PropertyOutType, mp,
				  PointerSize, UserData, n, NULL);
	if (mp)
		free_map(mp);
	if (ret) {
		free(t.p);
		return tdh_error(ret);
	}
	units = etw_utf8_to_utf16(t.p ? t.p : "", t.len, NULL, 0);
	if (units < 0) {
		free(t.p);
		return ERROR_EVT_INVALID_EVENT_DATA;
	}
	if (*BufferSize < ((size_t)units + 1) * sizeof(WCHAR) || !Buffer) {
		*BufferSize = (ULONG)(((size_t)units + 1) * sizeof(WCHAR));
		free(t.p);
		return ERROR_INSUFFICIENT_BUFFER;
	}
	etw_utf8_to_utf16(t.p ? t.p : "", t.len, Buffer, (size_t)units + 1);
	*BufferSize = (ULONG)(((size_t)units + 1) * sizeof(WCHAR));
	*UserDataConsumed = (USHORT)n;
	free(t.p);
	return ERROR_SUCCESS;
}
