/* SPDX-License-Identifier: MIT */
/*
 * The ETW consumer view of an event, as in Windows' evntcons.h
 * (etw-api.md 4.2, 4.3): EVENT_RECORD and EVENT_HEADER as a
 * PEVENT_RECORD_CALLBACK receives them, the extended data items, the
 * EVENT_ENABLE_PROPERTY_* values of EnableTraceEx2() and the
 * PROCESS_TRACE_MODE_* values of EVENT_TRACE_LOGFILE.ProcessTraceMode.
 * Like Windows' header it includes wmistr.h, evntrace.h and evntprov.h.
 */
#ifndef LIBETW_EVNTCONS_H
#define LIBETW_EVNTCONS_H

#include <string.h>

#include "wmistr.h"
#include "evntrace.h"
#include "evntprov.h"

/* EVENT_HEADER_EXTENDED_DATA_ITEM.ExtType and what DataPtr points to. */
#define EVENT_HEADER_EXT_TYPE_RELATED_ACTIVITYID	0x0001
#define EVENT_HEADER_EXT_TYPE_SID			0x0002
#define EVENT_HEADER_EXT_TYPE_TS_ID			0x0003
#define EVENT_HEADER_EXT_TYPE_INSTANCE_INFO		0x0004
#define EVENT_HEADER_EXT_TYPE_STACK_TRACE32		0x0005
#define EVENT_HEADER_EXT_TYPE_STACK_TRACE64		0x0006
#define EVENT_HEADER_EXT_TYPE_PEBS_INDEX		0x0007
#define EVENT_HEADER_EXT_TYPE_PMC_COUNTERS		0x0008
#define EVENT_HEADER_EXT_TYPE_PSM_KEY			0x0009
#define EVENT_HEADER_EXT_TYPE_EVENT_KEY			0x000A
#define EVENT_HEADER_EXT_TYPE_EVENT_SCHEMA_TL		0x000B
#define EVENT_HEADER_EXT_TYPE_PROV_TRAITS		0x000C
#define EVENT_HEADER_EXT_TYPE_PROCESS_START_KEY		0x000D
#define EVENT_HEADER_EXT_TYPE_CONTROL_GUID		0x000E
#define EVENT_HEADER_EXT_TYPE_QPC_DELTA			0x000F
#define EVENT_HEADER_EXT_TYPE_CONTAINER_ID		0x0010
#define EVENT_HEADER_EXT_TYPE_STACK_KEY32		0x0011
#define EVENT_HEADER_EXT_TYPE_STACK_KEY64		0x0012
#define EVENT_HEADER_EXT_TYPE_MAX			0x0013

#ifndef EVENT_HEADER_EXTENDED_DATA_ITEM_DEF
#define EVENT_HEADER_EXTENDED_DATA_ITEM_DEF
typedef struct _EVENT_HEADER_EXTENDED_DATA_ITEM {
	USHORT Reserved1;
	USHORT ExtType;			/* EVENT_HEADER_EXT_TYPE_* */
	__extension__ struct {
		USHORT Linkage : 1;	/* another item follows */
		USHORT Reserved2 : 15;
	} DUMMYSTRUCTNAME;
	USHORT DataSize;
	ULONGLONG DataPtr LIBETW_ALIGN8;
} EVENT_HEADER_EXTENDED_DATA_ITEM, *PEVENT_HEADER_EXTENDED_DATA_ITEM;
#endif

typedef struct _EVENT_EXTENDED_ITEM_INSTANCE {
	ULONG InstanceId;
	ULONG ParentInstanceId;
	GUID ParentGuid;
} EVENT_EXTENDED_ITEM_INSTANCE, *PEVENT_EXTENDED_ITEM_INSTANCE;

typedef struct _EVENT_EXTENDED_ITEM_RELATED_ACTIVITYID {
	GUID RelatedActivityId;
} EVENT_EXTENDED_ITEM_RELATED_ACTIVITYID, *PEVENT_EXTENDED_ITEM_RELATED_ACTIVITYID;

typedef struct _EVENT_EXTENDED_ITEM_TS_ID {
	ULONG SessionId;
} EVENT_EXTENDED_ITEM_TS_ID, *PEVENT_EXTENDED_ITEM_TS_ID;

typedef struct _EVENT_EXTENDED_ITEM_STACK_TRACE32 {
	ULONG64 MatchId LIBETW_ALIGN8;
	ULONG Address[ANYSIZE_ARRAY];
} EVENT_EXTENDED_ITEM_STACK_TRACE32, *PEVENT_EXTENDED_ITEM_STACK_TRACE32;

typedef struct _EVENT_EXTENDED_ITEM_STACK_TRACE64 {
	ULONG64 MatchId LIBETW_ALIGN8;
	ULONG64 Address[ANYSIZE_ARRAY] LIBETW_ALIGN8;
} EVENT_EXTENDED_ITEM_STACK_TRACE64, *PEVENT_EXTENDED_ITEM_STACK_TRACE64;

typedef struct _EVENT_EXTENDED_ITEM_STACK_KEY32 {
	ULONG64 MatchId LIBETW_ALIGN8;
	ULONG StackKey;
	ULONG Padding;
} EVENT_EXTENDED_ITEM_STACK_KEY32, *PEVENT_EXTENDED_ITEM_STACK_KEY32;

typedef struct _EVENT_EXTENDED_ITEM_STACK_KEY64 {
	ULONG64 MatchId LIBETW_ALIGN8;
	ULONG64 StackKey LIBETW_ALIGN8;
} EVENT_EXTENDED_ITEM_STACK_KEY64, *PEVENT_EXTENDED_ITEM_STACK_KEY64;

typedef struct _EVENT_EXTENDED_ITEM_PEBS_INDEX {
	ULONG64 PebsIndex LIBETW_ALIGN8;
} EVENT_EXTENDED_ITEM_PEBS_INDEX, *PEVENT_EXTENDED_ITEM_PEBS_INDEX;

typedef struct _EVENT_EXTENDED_ITEM_PMC_COUNTERS {
	ULONG64 Counter[ANYSIZE_ARRAY] LIBETW_ALIGN8;
} EVENT_EXTENDED_ITEM_PMC_COUNTERS, *PEVENT_EXTENDED_ITEM_PMC_COUNTERS;

typedef struct _EVENT_EXTENDED_ITEM_PROCESS_START_KEY {
	ULONG64 ProcessStartKey LIBETW_ALIGN8;
} EVENT_EXTENDED_ITEM_PROCESS_START_KEY, *PEVENT_EXTENDED_ITEM_PROCESS_START_KEY;

typedef struct _EVENT_EXTENDED_ITEM_EVENT_KEY {
	ULONG64 Key LIBETW_ALIGN8;
} EVENT_EXTENDED_ITEM_EVENT_KEY, *PEVENT_EXTENDED_ITEM_EVENT_KEY;

/* EVENT_HEADER.EventProperty */
#define EVENT_HEADER_PROPERTY_XML		0x0001
#define EVENT_HEADER_PROPERTY_FORWARDED_XML	0x0002
#define EVENT_HEADER_PROPERTY_LEGACY_EVENTLOG	0x0004
#define EVENT_HEADER_PROPERTY_RELOGGABLE	0x0008

/* EVENT_HEADER.Flags */
#define EVENT_HEADER_FLAG_EXTENDED_INFO		0x0001
#define EVENT_HEADER_FLAG_PRIVATE_SESSION	0x0002
#define EVENT_HEADER_FLAG_STRING_ONLY		0x0004
#define EVENT_HEADER_FLAG_TRACE_MESSAGE		0x0008
#define EVENT_HEADER_FLAG_NO_CPUTIME		0x0010
#define EVENT_HEADER_FLAG_32_BIT_HEADER		0x0020
#define EVENT_HEADER_FLAG_64_BIT_HEADER		0x0040
#define EVENT_HEADER_FLAG_DECODE_GUID		0x0080
#define EVENT_HEADER_FLAG_CLASSIC_HEADER	0x0100
#define EVENT_HEADER_FLAG_PROCESSOR_INDEX	0x0200

#ifndef EVENT_HEADER_DEF
#define EVENT_HEADER_DEF
typedef struct _EVENT_HEADER {
	USHORT Size;
	USHORT HeaderType;
	USHORT Flags;			/* EVENT_HEADER_FLAG_* */
	USHORT EventProperty;		/* EVENT_HEADER_PROPERTY_* */
	ULONG ThreadId;
	ULONG ProcessId;
	LARGE_INTEGER TimeStamp;	/* FILETIME unless RAW_TIMESTAMP */
	GUID ProviderId;
	EVENT_DESCRIPTOR EventDescriptor;
	union {
		__extension__ struct {
			ULONG KernelTime;
			ULONG UserTime;
		} DUMMYSTRUCTNAME;
		ULONG64 ProcessorTime LIBETW_ALIGN8;
	} DUMMYUNIONNAME;
	GUID ActivityId;
} EVENT_HEADER, *PEVENT_HEADER;
#endif

/* EVENT_RECORD and PEVENT_RECORD are declared by evntrace.h. */
#ifndef EVENT_RECORD_DEF
#define EVENT_RECORD_DEF
struct _EVENT_RECORD {
	EVENT_HEADER EventHeader;
	ETW_BUFFER_CONTEXT BufferContext;
	USHORT ExtendedDataCount;
	USHORT UserDataLength;
	PEVENT_HEADER_EXTENDED_DATA_ITEM ExtendedData;
	PVOID UserData;
	PVOID UserContext;		/* EVENT_TRACE_LOGFILE.Context */
};

typedef const EVENT_RECORD *PCEVENT_RECORD;
#endif

/* ENABLE_TRACE_PARAMETERS.EnableProperty, EnableTraceEx() EnableProperty */
#define EVENT_ENABLE_PROPERTY_SID			0x00000001
#define EVENT_ENABLE_PROPERTY_TS_ID			0x00000002
#define EVENT_ENABLE_PROPERTY_STACK_TRACE		0x00000004
#define EVENT_ENABLE_PROPERTY_PSM_KEY			0x00000008
#define EVENT_ENABLE_PROPERTY_IGNORE_KEYWORD_0		0x00000010
#define EVENT_ENABLE_PROPERTY_PROVIDER_GROUP		0x00000020
#define EVENT_ENABLE_PROPERTY_ENABLE_KEYWORD_0		0x00000040
#define EVENT_ENABLE_PROPERTY_PROCESS_START_KEY		0x00000080
#define EVENT_ENABLE_PROPERTY_EVENT_KEY			0x00000100
#define EVENT_ENABLE_PROPERTY_EXCLUDE_INPRIVATE		0x00000200
#define EVENT_ENABLE_PROPERTY_ENABLE_SILOS		0x00000400
#define EVENT_ENABLE_PROPERTY_SOURCE_CONTAINER_TRACKING	0x00000800

/* EVENT_TRACE_LOGFILE.ProcessTraceMode */
#define PROCESS_TRACE_MODE_REAL_TIME		0x00000100
#define PROCESS_TRACE_MODE_RAW_TIMESTAMP	0x00001000
#define PROCESS_TRACE_MODE_EVENT_RECORD		0x10000000

/* Traits in a provider-traits blob (EVENT_HEADER_EXT_TYPE_PROV_TRAITS). */
typedef enum {
	EtwProviderTraitTypeGroup = 1,
	EtwProviderTraitDecodeGuid = 2,
	EtwProviderTraitTypeMax
} ETW_PROVIDER_TRAIT_TYPE;

#ifdef __cplusplus
extern "C" {
#endif

/*
 * The processor an event was logged on: BufferContext.ProcessorIndex with
 * EVENT_HEADER_FLAG_PROCESSOR_INDEX, else BufferContext.ProcessorNumber.
 * Both start the structure; read them from there so that this also builds
 * with NONAMELESSUNION.
 */
static inline ULONG GetEventProcessorIndex(PCEVENT_RECORD EventRecord)
{
	const UCHAR *ctx = (const UCHAR *)&EventRecord->BufferContext;
	USHORT index;

	if (EventRecord->EventHeader.Flags & EVENT_HEADER_FLAG_PROCESSOR_INDEX) {
		memcpy(&index, ctx, sizeof(index));
		return index;
	}
	return ctx[0];
}

/*
 * Finds the first trait of type TraitType in a provider-traits blob:
 * a USHORT total size (counting itself), the NUL-terminated UTF-8
 * provider name, then traits of { USHORT size counting itself, UCHAR
 * type, data } (etw-api.md 5.3).  Sets *Trait to the trait's data and
 * *Size to its length, or NULL and 0 if there is none or the blob is
 * malformed.  The blob may be unaligned.
 */
static inline VOID EtwGetTraitFromProviderTraits(PVOID ProviderTraits,
						 UCHAR TraitType,
						 PVOID *Trait, PUSHORT Size)
{
	UCHAR *blob = (UCHAR *)ProviderTraits;
	UCHAR *end, *p;
	USHORT total, len;

	*Trait = NULL;
	*Size = 0;

	memcpy(&total, blob, sizeof(total));
	if (total < 3)
		return;
	end = blob + total;

	p = (UCHAR *)memchr(blob + 2, 0, total - 2);
	if (!p)
		return;

	for (p++; end - p >= 3; p += len) {
		memcpy(&len, p, sizeof(len));
		if (len < 3 || len > end - p)
			return;
		if (p[2] == TraitType) {
			*Trait = p + 3;
			*Size = (USHORT)(len - 3);
			return;
		}
	}
}

#ifdef __cplusplus
}
#endif

/* etw-api.md 4.3 */
LIBETW_STATIC_ASSERT(sizeof(EVENT_HEADER) == 80, "EVENT_HEADER size");
LIBETW_STATIC_ASSERT(sizeof(EVENT_HEADER_EXTENDED_DATA_ITEM) == 16,
		     "EVENT_HEADER_EXTENDED_DATA_ITEM size");
LIBETW_STATIC_ASSERT(sizeof(EVENT_EXTENDED_ITEM_INSTANCE) == 24,
		     "EVENT_EXTENDED_ITEM_INSTANCE size");
#if __SIZEOF_POINTER__ == 8
LIBETW_STATIC_ASSERT(sizeof(EVENT_RECORD) == 112, "EVENT_RECORD size");
LIBETW_STATIC_ASSERT(offsetof(EVENT_RECORD, UserData) == 96,
		     "EVENT_RECORD.UserData");
#endif

#endif /* LIBETW_EVNTCONS_H */
