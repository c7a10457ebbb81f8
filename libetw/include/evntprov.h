/* SPDX-License-Identifier: MIT */
/*
 * The manifest/TraceLogging provider API of ETW, as in Windows' evntprov.h
 * (etw-api.md 1): EventRegister, EventWrite and friends, the event and
 * data descriptors, enable-filter structures and the inline descriptor
 * helpers.  Implemented by libetw.
 *
 * As on Windows, the EVENT_CONTROL_CODE_* values a PENABLECALLBACK receives
 * are defined in evntrace.h, not here.
 */
#ifndef LIBETW_EVNTPROV_H
#define LIBETW_EVNTPROV_H

#include <string.h>

#include "windows.h"

#define EVENT_MIN_LEVEL				(0)
#define EVENT_MAX_LEVEL				(0xff)

/* EventActivityIdControl() control codes. */
#define EVENT_ACTIVITY_CTRL_GET_ID		(1)
#define EVENT_ACTIVITY_CTRL_SET_ID		(2)
#define EVENT_ACTIVITY_CTRL_CREATE_ID		(3)
#define EVENT_ACTIVITY_CTRL_GET_SET_ID		(4)
#define EVENT_ACTIVITY_CTRL_CREATE_SET_ID	(5)

#define MAX_EVENT_DATA_DESCRIPTORS		(128)
#define MAX_EVENT_FILTER_DATA_SIZE		(1024)
#define MAX_EVENT_FILTER_PAYLOAD_SIZE		(4096)
#define MAX_EVENT_FILTER_EVENT_NAME_SIZE	(4096)
#define MAX_EVENT_FILTERS_COUNT			(13)
#define MAX_EVENT_FILTER_PID_COUNT		(8)
#define MAX_EVENT_FILTER_EVENT_ID_COUNT		(64)

/* EVENT_FILTER_DESCRIPTOR.Type */
#define EVENT_FILTER_TYPE_NONE			(0x00000000)
#define EVENT_FILTER_TYPE_SCHEMATIZED		(0x80000000)
#define EVENT_FILTER_TYPE_SYSTEM_FLAGS		(0x80000001)
#define EVENT_FILTER_TYPE_TRACEHANDLE		(0x80000002)
#define EVENT_FILTER_TYPE_PID			(0x80000004)
#define EVENT_FILTER_TYPE_EXECUTABLE_NAME	(0x80000008)
#define EVENT_FILTER_TYPE_PACKAGE_ID		(0x80000010)
#define EVENT_FILTER_TYPE_PACKAGE_APP_ID	(0x80000020)
#define EVENT_FILTER_TYPE_PAYLOAD		(0x80000100)
#define EVENT_FILTER_TYPE_EVENT_ID		(0x80000200)
#define EVENT_FILTER_TYPE_EVENT_NAME		(0x80000400)
#define EVENT_FILTER_TYPE_STACKWALK		(0x80001000)
#define EVENT_FILTER_TYPE_STACKWALK_NAME	(0x80002000)
#define EVENT_FILTER_TYPE_STACKWALK_LEVEL_KW	(0x80004000)
#define EVENT_FILTER_TYPE_CONTAINER		(0x80008000)

/* EVENT_DATA_DESCRIPTOR.Type */
#define EVENT_DATA_DESCRIPTOR_TYPE_NONE			(0)
#define EVENT_DATA_DESCRIPTOR_TYPE_EVENT_METADATA	(1)
#define EVENT_DATA_DESCRIPTOR_TYPE_PROVIDER_METADATA	(2)
#define EVENT_DATA_DESCRIPTOR_TYPE_TIMESTAMP_OVERRIDE	(3)

/* EventWriteEx() Flags */
#define EVENT_WRITE_FLAG_NO_FAULTING		0x00000001
#define EVENT_WRITE_FLAG_INPRIVATE		0x00000002

/* From EventRegister(); 0 is never a valid registration. */
typedef ULONGLONG REGHANDLE, *PREGHANDLE;

/*
 * One block of event payload.  Ptr is a 64-bit integer, not a pointer, so
 * the structure is 16 bytes in 32- and 64-bit processes alike.
 */
typedef struct _EVENT_DATA_DESCRIPTOR {
	ULONGLONG Ptr LIBETW_ALIGN8;
	ULONG Size;
	union {
		ULONG Reserved;
		__extension__ struct {
			UCHAR Type;	/* EVENT_DATA_DESCRIPTOR_TYPE_* */
			UCHAR Reserved1;
			USHORT Reserved2;
		} DUMMYSTRUCTNAME;
	} DUMMYUNIONNAME;
} EVENT_DATA_DESCRIPTOR, *PEVENT_DATA_DESCRIPTOR;

#ifndef EVENT_DESCRIPTOR_DEF
#define EVENT_DESCRIPTOR_DEF
/* Opcode is stored before Task; EventDescCreate() takes Task first. */
typedef struct _EVENT_DESCRIPTOR {
	USHORT Id;
	UCHAR Version;
	UCHAR Channel;
	UCHAR Level;
	UCHAR Opcode;
	USHORT Task;
	ULONGLONG Keyword LIBETW_ALIGN8;
} EVENT_DESCRIPTOR, *PEVENT_DESCRIPTOR;

typedef const EVENT_DESCRIPTOR *PCEVENT_DESCRIPTOR;
#endif

/* evntrace.h declares the same typedef; whichever comes first wins. */
#ifndef LIBETW_EVENT_FILTER_DESCRIPTOR_TYPEDEF
#define LIBETW_EVENT_FILTER_DESCRIPTOR_TYPEDEF
typedef struct _EVENT_FILTER_DESCRIPTOR
	EVENT_FILTER_DESCRIPTOR, *PEVENT_FILTER_DESCRIPTOR;
#endif

/* Ptr is a 64-bit integer here too: 16 bytes on every ABI. */
struct _EVENT_FILTER_DESCRIPTOR {
	ULONGLONG Ptr LIBETW_ALIGN8;
	ULONG Size;
	ULONG Type;			/* EVENT_FILTER_TYPE_* */
};

/* Header of an EVENT_FILTER_TYPE_SCHEMATIZED filter. */
typedef struct _EVENT_FILTER_HEADER {
	USHORT Id;
	UCHAR Version;
	UCHAR Reserved[5];
	ULONGLONG InstanceId LIBETW_ALIGN8;
	ULONG Size;
	ULONG NextOffset;
} EVENT_FILTER_HEADER, *PEVENT_FILTER_HEADER;

/* EVENT_FILTER_TYPE_EVENT_ID and _STACKWALK: Count event ids follow. */
typedef struct _EVENT_FILTER_EVENT_ID {
	BOOLEAN FilterIn;
	UCHAR Reserved;
	USHORT Count;
	USHORT Events[ANYSIZE_ARRAY];
} EVENT_FILTER_EVENT_ID, *PEVENT_FILTER_EVENT_ID;

/* EVENT_FILTER_TYPE_EVENT_NAME and _STACKWALK_NAME: NameCount UTF-8 names. */
typedef struct _EVENT_FILTER_EVENT_NAME {
	ULONGLONG MatchAnyKeyword LIBETW_ALIGN8;
	ULONGLONG MatchAllKeyword LIBETW_ALIGN8;
	UCHAR Level;
	BOOLEAN FilterIn;
	USHORT NameCount;
	UCHAR Names[ANYSIZE_ARRAY];
} EVENT_FILTER_EVENT_NAME, *PEVENT_FILTER_EVENT_NAME;

/* EVENT_FILTER_TYPE_STACKWALK_LEVEL_KW */
typedef struct _EVENT_FILTER_LEVEL_KW {
	ULONGLONG MatchAnyKeyword LIBETW_ALIGN8;
	ULONGLONG MatchAllKeyword LIBETW_ALIGN8;
	UCHAR Level;
	BOOLEAN FilterIn;
} EVENT_FILTER_LEVEL_KW, *PEVENT_FILTER_LEVEL_KW;

/* EventSetInformation() classes; 1 is reserved but numbered. */
typedef enum _EVENT_INFO_CLASS {
	EventProviderBinaryTrackInfo = 0,
	EventProviderSetReserved1 = 1,
	EventProviderSetTraits = 2,
	EventProviderUseDescriptorType = 3,
	MaxEventInfo = 4
} EVENT_INFO_CLASS;

#ifdef __cplusplus
extern "C" {
#endif

/*
 * Called when sessions enable, disable or ask a provider to capture its
 * state.  IsEnabled is the provider's resulting state (an
 * EVENT_CONTROL_CODE_* value); Level and the keywords are the aggregate
 * of all enabling sessions.
 */
typedef void (NTAPI *PENABLECALLBACK)(LPCGUID SourceId, ULONG IsEnabled,
				      UCHAR Level, ULONGLONG MatchAnyKeyword,
				      ULONGLONG MatchAllKeyword,
				      PEVENT_FILTER_DESCRIPTOR FilterData,
				      PVOID CallbackContext);

ULONG EVNTAPI EventRegister(LPCGUID ProviderId,
			    PENABLECALLBACK EnableCallback,
			    PVOID CallbackContext, PREGHANDLE RegHandle);

ULONG EVNTAPI EventUnregister(REGHANDLE RegHandle);

ULONG EVNTAPI EventSetInformation(REGHANDLE RegHandle,
				  EVENT_INFO_CLASS InformationClass,
				  PVOID EventInformation,
				  ULONG InformationLength);

BOOLEAN EVNTAPI EventEnabled(REGHANDLE RegHandle,
			     PCEVENT_DESCRIPTOR EventDescriptor);

BOOLEAN EVNTAPI EventProviderEnabled(REGHANDLE RegHandle, UCHAR Level,
				     ULONGLONG Keyword);

ULONG EVNTAPI EventWrite(REGHANDLE RegHandle,
			 PCEVENT_DESCRIPTOR EventDescriptor,
			 ULONG UserDataCount, PEVENT_DATA_DESCRIPTOR UserData);

ULONG EVNTAPI EventWriteTransfer(REGHANDLE RegHandle,
				 PCEVENT_DESCRIPTOR EventDescriptor,
				 LPCGUID ActivityId, LPCGUID RelatedActivityId,
				 ULONG UserDataCount,
				 PEVENT_DATA_DESCRIPTOR UserData);

ULONG EVNTAPI EventWriteEx(REGHANDLE RegHandle,
			   PCEVENT_DESCRIPTOR EventDescriptor,
			   ULONG64 Filter, ULONG Flags,
			   LPCGUID ActivityId, LPCGUID RelatedActivityId,
			   ULONG UserDataCount,
			   PEVENT_DATA_DESCRIPTOR UserData);

ULONG EVNTAPI EventWriteString(REGHANDLE RegHandle, UCHAR Level,
			       ULONGLONG Keyword, PCWSTR String);

ULONG EVNTAPI EventActivityIdControl(ULONG ControlCode, LPGUID ActivityId);

/*
 * Fills a data descriptor; the whole Reserved field (Type included) is
 * cleared.  Written without naming the union so that it also builds with
 * NONAMELESSUNION.
 */
static inline void EventDataDescCreate(PEVENT_DATA_DESCRIPTOR EventDataDescriptor,
				       const VOID *DataPtr, ULONG DataSize)
{
	EVENT_DATA_DESCRIPTOR desc;

	memset(&desc, 0, sizeof(desc));
	desc.Ptr = (ULONGLONG)(ULONG_PTR)DataPtr;
	desc.Size = DataSize;
	*EventDataDescriptor = desc;
}

/* Note the argument order: Task before Opcode. */
static inline void EventDescCreate(PEVENT_DESCRIPTOR EventDescriptor,
				   USHORT Id, UCHAR Version, UCHAR Channel,
				   UCHAR Level, USHORT Task, UCHAR Opcode,
				   ULONGLONG Keyword)
{
	EventDescriptor->Id = Id;
	EventDescriptor->Version = Version;
	EventDescriptor->Channel = Channel;
	EventDescriptor->Level = Level;
	EventDescriptor->Task = Task;
	EventDescriptor->Opcode = Opcode;
	EventDescriptor->Keyword = Keyword;
}

static inline void EventDescZero(PEVENT_DESCRIPTOR EventDescriptor)
{
	memset(EventDescriptor, 0, sizeof(EVENT_DESCRIPTOR));
}

static inline USHORT EventDescGetId(PCEVENT_DESCRIPTOR EventDescriptor)
{
	return EventDescriptor->Id;
}

static inline UCHAR EventDescGetVersion(PCEVENT_DESCRIPTOR EventDescriptor)
{
	return EventDescriptor->Version;
}

static inline USHORT EventDescGetTask(PCEVENT_DESCRIPTOR EventDescriptor)
{
	return EventDescriptor->Task;
}

static inline UCHAR EventDescGetOpcode(PCEVENT_DESCRIPTOR EventDescriptor)
{
	return EventDescriptor->Opcode;
}

static inline UCHAR EventDescGetChannel(PCEVENT_DESCRIPTOR EventDescriptor)
{
	return EventDescriptor->Channel;
}

static inline UCHAR EventDescGetLevel(PCEVENT_DESCRIPTOR EventDescriptor)
{
	return EventDescriptor->Level;
}

static inline ULONGLONG EventDescGetKeyword(PCEVENT_DESCRIPTOR EventDescriptor)
{
	return EventDescriptor->Keyword;
}

static inline PEVENT_DESCRIPTOR EventDescSetId(PEVENT_DESCRIPTOR EventDescriptor,
					       USHORT Id)
{
	EventDescriptor->Id = Id;
	return EventDescriptor;
}

static inline PEVENT_DESCRIPTOR
EventDescSetVersion(PEVENT_DESCRIPTOR EventDescriptor, UCHAR Version)
{
	EventDescriptor->Version = Version;
	return EventDescriptor;
}

static inline PEVENT_DESCRIPTOR
EventDescSetTask(PEVENT_DESCRIPTOR EventDescriptor, USHORT Task)
{
	EventDescriptor->Task = Task;
	return EventDescriptor;
}

static inline PEVENT_DESCRIPTOR
EventDescSetOpcode(PEVENT_DESCRIPTOR EventDescriptor, UCHAR Opcode)
{
	EventDescriptor->Opcode = Opcode;
	return EventDescriptor;
}

static inline PEVENT_DESCRIPTOR
EventDescSetLevel(PEVENT_DESCRIPTOR EventDescriptor, UCHAR Level)
{
	EventDescriptor->Level = Level;
	return EventDescriptor;
}

static inline PEVENT_DESCRIPTOR
EventDescSetChannel(PEVENT_DESCRIPTOR EventDescriptor, UCHAR Channel)
{
	EventDescriptor->Channel = Channel;
	return EventDescriptor;
}

static inline PEVENT_DESCRIPTOR
EventDescSetKeyword(PEVENT_DESCRIPTOR EventDescriptor, ULONGLONG Keyword)
{
	EventDescriptor->Keyword = Keyword;
	return EventDescriptor;
}

static inline PEVENT_DESCRIPTOR
EventDescOrKeyword(PEVENT_DESCRIPTOR EventDescriptor, ULONGLONG Keyword)
{
	EventDescriptor->Keyword |= Keyword;
	return EventDescriptor;
}

#ifdef __cplusplus
}
#endif

/* etw-api.md 1.2; none of these hold a pointer, so they hold on 32-bit too. */
LIBETW_STATIC_ASSERT(sizeof(EVENT_DESCRIPTOR) == 16, "EVENT_DESCRIPTOR size");
LIBETW_STATIC_ASSERT(sizeof(EVENT_DATA_DESCRIPTOR) == 16,
		     "EVENT_DATA_DESCRIPTOR size");
LIBETW_STATIC_ASSERT(sizeof(EVENT_FILTER_DESCRIPTOR) == 16,
		     "EVENT_FILTER_DESCRIPTOR size");
LIBETW_STATIC_ASSERT(sizeof(EVENT_FILTER_HEADER) == 24,
		     "EVENT_FILTER_HEADER size");
LIBETW_STATIC_ASSERT(offsetof(EVENT_DESCRIPTOR, Opcode) == 5 &&
		     offsetof(EVENT_DESCRIPTOR, Task) == 6,
		     "EVENT_DESCRIPTOR stores Opcode before Task");

/* The disabled case of EventEnabled and EventWrite, inline in the caller. */
#include "etw_evntprov_inline.h"

#endif /* LIBETW_EVNTPROV_H */
