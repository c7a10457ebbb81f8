/* SPDX-License-Identifier: MIT */
/*
 * The Windows kernel's MOF event classes as data: for each class its
 * group (or classic class) GUID, the versions and event types (opcodes)
 * it describes, and its fields with the TDH in/out types Windows gives
 * their MOF types and qualifiers:
 *   uint8..uint64, sint8..    UINT8..UINT64, INT8..INT64
 *   Format("x")               OutType HEXINT*
 *   Pointer                   TDH_INTYPE_POINTER (the file's PointerSize)
 *   Extension("SizeT")        TDH_INTYPE_SIZET
 *   Extension("Sid")          TDH_INTYPE_WBEMSID (TOKEN_USER + SID)
 *   Extension("GUID")         TDH_INTYPE_GUID
 *   Extension("WmiTime")      UINT64 (a raw session-clock time)
 *   Extension("IPAddr"/"Port") UINT32 IPV4 / UINT16 PORT
 *   string                    ANSISTRING, Format("w") UNICODESTRING
 *   char16 X[n]               UNICODESTRING of fixed length n
 *   X[n], X[] WmiSizeIs("N")  an array of n, or of field N's value
 * The reference is the WDK's wmicore.mof (km/wmicore.mof), Windows' own
 * MOF of these classes; Microsoft Learn's class pages are simplified
 * from it.  Sources per class are in each kernel_classes_<group>.c; the Wbem source
 * (wbem.c) builds a TRACE_EVENT_INFO from an entry the first time an
 * event of it is seen.  One file per group or classic provider.
 */
#ifndef LIBETW_DECODE_KERNEL_CLASSES_H
#define LIBETW_DECODE_KERNEL_CLASSES_H

#include <stdint.h>

#include "event_info.h"

struct kc_field {
	const char *name;
	uint16_t in_type;
	uint16_t out_type;
	uint16_t length;	/* fixed length (strings: characters), or 0 */
	uint16_t count;		/* fixed array count, or the count field's index */
	const char *map;	/* a map of the class, or NULL */
	uint16_t flags;		/* PropertyParamCount: count is an index */
};

struct kc_map {
	const char *name;
	MAP_FLAGS flags;
	const struct tei_map_entry *entries;
	uint32_t count;
};

struct kc_event {
	uint8_t opcode;
	const char *name;	/* EventTypeName: "Start" */
};

struct kc_class {
	const char *name;		/* the MOF class: "Process_V4_TypeGroup1" */
	const char *task;		/* its parent class: "Process" */
	const GUID *guid;
	const uint8_t *versions;	/* the EventVersion values it covers */
	uint8_t nversions;
	const struct kc_event *events;
	uint8_t nevents;
	const struct kc_field *fields;
	uint16_t nfields;
	const struct kc_map *maps;
	uint8_t nmaps;
	/* Repeat the last field as name1..nameN: StackWalk's Stack1..192. */
	uint16_t repeat_last;
};

/* Each group's classes, in kernel_classes_<group>.c. */
struct kc_table {
	const struct kc_class *classes;
	uint32_t count;
};

extern const struct kc_table kc_eventtrace, kc_process, kc_thread, kc_image,
	kc_perfinfo, kc_stackwalk, kc_diskio, kc_fileio, kc_pagefault,
	kc_sysconfig, kc_kerneltracecontrol;

/* The class of (guid, opcode, version), or NULL. */
const struct kc_class *kc_find(const GUID *guid, uint8_t opcode,
			       uint8_t version, const char **event_name);

/*
 * The MOF providers these classes make, as TdhEnumerateProviders lists
 * them: MSNT_SystemTrace (SystemTraceControlGuid, the parent of every
 * kernel class), then each class GUID once, named by its parent class's
 * DisplayName (the task name TDH gives its events).  Stops at the first
 * nonzero return of fn and returns it.
 */
int kc_providers_foreach(int (*fn)(void *ctx, const GUID *guid,
				   const char *name),
			 void *ctx);

/* Every table, for the documentation test and TdhEnumerateProviders. */
extern const struct kc_table *const kc_tables[];
extern const unsigned int kc_table_count;

/* Shorthands for the tables. */
#define KC_ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#define KC_F(n, in, out)	{ (n), TDH_INTYPE_##in, TDH_OUTTYPE_##out, 0, 0, NULL, 0 }
#define KC_U8(n)		KC_F(n, UINT8, NULL)
#define KC_S8(n)		KC_F(n, INT8, NULL)
#define KC_U16(n)		KC_F(n, UINT16, NULL)
#define KC_U32(n)		KC_F(n, UINT32, NULL)
#define KC_S32(n)		KC_F(n, INT32, NULL)
#define KC_X32(n)		KC_F(n, UINT32, HEXINT32)
#define KC_U64(n)		KC_F(n, UINT64, NULL)
#define KC_S64(n)		KC_F(n, INT64, NULL)
#define KC_X64(n)		KC_F(n, UINT64, HEXINT64)
#define KC_PTR(n)		KC_F(n, POINTER, NULL)
#define KC_SIZET(n)		KC_F(n, SIZET, NULL)
#define KC_SID(n)		KC_F(n, WBEMSID, NULL)
#define KC_GUID(n)		KC_F(n, GUID, NULL)
#define KC_WMITIME(n)		KC_F(n, UINT64, NULL)
#define KC_ASTR(n)		KC_F(n, ANSISTRING, NULL)
#define KC_WSTR(n)		KC_F(n, UNICODESTRING, NULL)
#define KC_X16(n)		KC_F(n, UINT16, HEXINT16)
#define KC_WCHARS(n, len)	{ (n), TDH_INTYPE_UNICODESTRING, TDH_OUTTYPE_NULL, (len), 0, NULL, 0 }
#define KC_BYTES(n, len, out)	{ (n), TDH_INTYPE_BINARY, TDH_OUTTYPE_##out, (len), 0, NULL, 0 }
#define KC_MAPPED(n, in, map)	{ (n), TDH_INTYPE_##in, TDH_OUTTYPE_NULL, 0, 0, (map), 0 }
/* n elements, or as many as the field at index i says. */
#define KC_ARRAY(n, in, out, cnt)	{ (n), TDH_INTYPE_##in, TDH_OUTTYPE_##out, 0, (cnt), NULL, 0 }
#define KC_COUNTED(n, in, out, i)	{ (n), TDH_INTYPE_##in, TDH_OUTTYPE_##out, 0, (i), NULL, \
					  PropertyParamCount }

#define KC_VERSIONS(...)	((const uint8_t[]){ __VA_ARGS__ }), \
				(uint8_t)sizeof((const uint8_t[]){ __VA_ARGS__ })
#define KC_EVENTS(a)		(a), (uint8_t)KC_ARRAY_SIZE(a)
#define KC_FIELDS(a)		(a), (uint16_t)KC_ARRAY_SIZE(a)
#define KC_MAPS(a)		(a), (uint8_t)KC_ARRAY_SIZE(a)
#define KC_NO_MAPS		NULL, 0

/* The group and class GUIDs (kernel_classes.c). */
extern const GUID kc_guid_eventtrace, kc_guid_diskio, kc_guid_pagefault,
	kc_guid_process, kc_guid_fileio, kc_guid_thread, kc_guid_sysconfig,
	kc_guid_perfinfo, kc_guid_image, kc_guid_stackwalk, kc_guid_imageid;

#endif /* LIBETW_DECODE_KERNEL_CLASSES_H */
