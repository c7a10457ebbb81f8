/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kernel-mode ETW API of etw.ko, with Windows' names, types and
 * results (wdm.h's EtwRegister ... EtwSetInformation), for other kernel
 * modules.  Documentation/kernel-providers.rst is the how-to and the
 * reference: the context each function may be called in, the statuses.
 *
 * A module that includes this header imports the symbols' namespace
 * itself (ETW_MODULE_IMPORT_NS() below) and is built with etw.ko's
 * Module.symvers in KBUILD_EXTRA_SYMBOLS.
 */
#ifndef _ETW_KERNEL_H
#define _ETW_KERNEL_H

#include <linux/module.h>
#include <linux/types.h>

/* The symbols' namespace, as a string (every kernel's modpost reads it so). */
#define ETW_MODULE_IMPORT_NS()	MODULE_INFO(import_ns, "ETW")

typedef s32 NTSTATUS;
typedef u8 BOOLEAN;
typedef u8 UCHAR;
typedef u16 USHORT;
typedef u32 ULONG;
typedef u64 ULONG64;
typedef u64 ULONGLONG;
typedef void *PVOID;
typedef u16 WCHAR;			/* UTF-16: u"..." literals */
typedef const WCHAR *PCWSTR;

#ifndef TRUE
#define TRUE	1
#define FALSE	0
#endif

#define NT_SUCCESS(s)			((NTSTATUS)(s) >= 0)
#define STATUS_SUCCESS			((NTSTATUS)0x00000000)
#define STATUS_BUFFER_OVERFLOW		((NTSTATUS)0x80000005)
#define STATUS_UNSUCCESSFUL		((NTSTATUS)0xC0000001)
#define STATUS_INVALID_HANDLE		((NTSTATUS)0xC0000008)
#define STATUS_INVALID_PARAMETER	((NTSTATUS)0xC000000D)
#define STATUS_NO_MEMORY		((NTSTATUS)0xC0000017)
#define STATUS_INTEGER_OVERFLOW		((NTSTATUS)0xC0000095)
#define STATUS_INVALID_DEVICE_REQUEST	((NTSTATUS)0xC0000010)
#define STATUS_NOT_SUPPORTED		((NTSTATUS)0xC00000BB)
#define STATUS_OBJECT_NAME_COLLISION	((NTSTATUS)0xC0000035)

#ifndef GUID_DEFINED
#define GUID_DEFINED
typedef struct _GUID {
	u32 Data1;
	u16 Data2;
	u16 Data3;
	u8 Data4[8];
} GUID;
#endif
typedef GUID *LPGUID;
typedef const GUID *LPCGUID;

typedef ULONGLONG REGHANDLE, *PREGHANDLE;

typedef struct _EVENT_DESCRIPTOR {
	USHORT Id;
	UCHAR Version;
	UCHAR Channel;
	UCHAR Level;
	UCHAR Opcode;
	USHORT Task;
	ULONGLONG Keyword;
} EVENT_DESCRIPTOR, *PEVENT_DESCRIPTOR;
typedef const EVENT_DESCRIPTOR *PCEVENT_DESCRIPTOR;

typedef struct _EVENT_DATA_DESCRIPTOR {
	ULONGLONG Ptr;		/* a kernel address */
	ULONG Size;
	union {
		ULONG Reserved;
		struct {
			UCHAR Type;	/* EVENT_DATA_DESCRIPTOR_TYPE_* */
			UCHAR Reserved1;
			USHORT Reserved2;
		};
	};
} EVENT_DATA_DESCRIPTOR, *PEVENT_DATA_DESCRIPTOR;

#define EVENT_DATA_DESCRIPTOR_TYPE_NONE			0
#define EVENT_DATA_DESCRIPTOR_TYPE_EVENT_METADATA	1
#define EVENT_DATA_DESCRIPTOR_TYPE_PROVIDER_METADATA	2
#define EVENT_DATA_DESCRIPTOR_TYPE_TIMESTAMP_OVERRIDE	3

static inline void EventDataDescCreate(PEVENT_DATA_DESCRIPTOR d,
				       const void *ptr, ULONG size)
{
	d->Ptr = (ULONGLONG)(uintptr_t)ptr;
	d->Size = size;
	d->Reserved = 0;
}

static inline void EventDescCreate(PEVENT_DESCRIPTOR d, USHORT id,
				   UCHAR version, UCHAR channel, UCHAR level,
				   USHORT task, UCHAR opcode, ULONGLONG keyword)
{
	d->Id = id;
	d->Version = version;
	d->Channel = channel;
	d->Level = level;
	d->Task = task;
	d->Opcode = opcode;
	d->Keyword = keyword;
}

typedef struct _EVENT_FILTER_DESCRIPTOR {
	ULONGLONG Ptr;
	ULONG Size;
	ULONG Type;
} EVENT_FILTER_DESCRIPTOR, *PEVENT_FILTER_DESCRIPTOR;

#define EVENT_CONTROL_CODE_DISABLE_PROVIDER	0
#define EVENT_CONTROL_CODE_ENABLE_PROVIDER	1
#define EVENT_CONTROL_CODE_CAPTURE_STATE	2

/* EtwActivityIdControl's ControlCode. */
#define EVENT_ACTIVITY_CTRL_GET_ID		1
#define EVENT_ACTIVITY_CTRL_SET_ID		2
#define EVENT_ACTIVITY_CTRL_CREATE_ID		3
#define EVENT_ACTIVITY_CTRL_GET_SET_ID		4
#define EVENT_ACTIVITY_CTRL_CREATE_SET_ID	5

/* EtwWriteEx's Flags. */
#define EVENT_WRITE_FLAG_NO_FAULTING		0x00000001
#define EVENT_WRITE_FLAG_INPRIVATE		0x00000002

typedef enum _EVENT_INFO_CLASS {
	EventProviderBinaryTrackInfo,
	EventProviderSetReserved1,
	EventProviderSetTraits,
	EventProviderUseDescriptorType,
	MaxEventInfo
} EVENT_INFO_CLASS;

#define MAX_EVENT_DATA_DESCRIPTORS		128

typedef void (*PETWENABLECALLBACK)(LPCGUID SourceId, ULONG ControlCode,
				   UCHAR Level, ULONGLONG MatchAnyKeyword,
				   ULONGLONG MatchAllKeyword,
				   PEVENT_FILTER_DESCRIPTOR FilterData,
				   PVOID CallbackContext);

/* Process context, may sleep. */
NTSTATUS EtwRegister(LPCGUID ProviderId, PETWENABLECALLBACK EnableCallback,
		     PVOID CallbackContext, PREGHANDLE RegHandle);
NTSTATUS EtwUnregister(REGHANDLE RegHandle);
NTSTATUS EtwSetInformation(REGHANDLE RegHandle, EVENT_INFO_CLASS InformationClass,
			   PVOID EventInformation, ULONG InformationLength);

/* Any context, NMI included; lock-free. */
BOOLEAN EtwEventEnabled(REGHANDLE RegHandle, PCEVENT_DESCRIPTOR EventDescriptor);
BOOLEAN EtwProviderEnabled(REGHANDLE RegHandle, UCHAR Level, ULONGLONG Keyword);

/* Any context: task, softirq, hardirq, interrupts off, NMI. */
NTSTATUS EtwWrite(REGHANDLE RegHandle, PCEVENT_DESCRIPTOR EventDescriptor,
		  LPCGUID ActivityId, ULONG UserDataCount,
		  PEVENT_DATA_DESCRIPTOR UserData);
NTSTATUS EtwWriteTransfer(REGHANDLE RegHandle, PCEVENT_DESCRIPTOR EventDescriptor,
			  LPCGUID ActivityId, LPCGUID RelatedActivityId,
			  ULONG UserDataCount, PEVENT_DATA_DESCRIPTOR UserData);
NTSTATUS EtwWriteEx(REGHANDLE RegHandle, PCEVENT_DESCRIPTOR EventDescriptor,
		    ULONG64 Filter, ULONG Flags, LPCGUID ActivityId,
		    LPCGUID RelatedActivityId, ULONG UserDataCount,
		    PEVENT_DATA_DESCRIPTOR UserData);
NTSTATUS EtwWriteString(REGHANDLE RegHandle, UCHAR Level, ULONGLONG Keyword,
			LPCGUID ActivityId, PCWSTR String);

/* Process context; CREATE_ID in any context. */
NTSTATUS EtwActivityIdControl(ULONG ControlCode, LPGUID ActivityId);

#endif /* _ETW_KERNEL_H */
