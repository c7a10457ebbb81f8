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
/* A WCHAR string literal, as <windows.h> spells it for generated headers. */
#ifndef LIBETW_WIDE
#define LIBETW_WIDE(quote)	u##quote
#endif

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

/* The layouts etw.ko reads them with (its uapi's etw_data_desc, etw_event_desc). */
static_assert(sizeof(EVENT_DESCRIPTOR) == 16 &&
	      __builtin_offsetof(EVENT_DESCRIPTOR, Level) == 4 &&
	      __builtin_offsetof(EVENT_DESCRIPTOR, Keyword) == 8);
static_assert(sizeof(EVENT_DATA_DESCRIPTOR) == 16 &&
	      __builtin_offsetof(EVENT_DATA_DESCRIPTOR, Size) == 8 &&
	      __builtin_offsetof(EVENT_DATA_DESCRIPTOR, Type) == 12);

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

static_assert(sizeof(EVENT_FILTER_DESCRIPTOR) == 16);

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

/*
 * The functions, under Windows' names (macros over etw.ko's exported
 * symbols, which follow the kernel's naming).
 */
#define EtwRegister		etw_kp_register
#define EtwUnregister		etw_kp_unregister
#define EtwSetInformation	etw_kp_set_information
#define EtwEventEnabled		etw_kp_event_enabled
#define EtwProviderEnabled	etw_kp_provider_enabled
#define EtwWrite		etw_kp_write
#define EtwWriteTransfer	etw_kp_write_transfer
#define EtwWriteEx		etw_kp_write_ex
#define EtwWriteString		etw_kp_write_string
#define EtwActivityIdControl	etw_kp_activity_id_control

/* Process context, may sleep. */
NTSTATUS etw_kp_register(LPCGUID provider_id, PETWENABLECALLBACK enable_callback,
			 PVOID callback_context, PREGHANDLE reg_handle);
NTSTATUS etw_kp_unregister(REGHANDLE reg_handle);
NTSTATUS etw_kp_set_information(REGHANDLE reg_handle, EVENT_INFO_CLASS info_class,
				PVOID info, ULONG info_length);

/* Any context, NMI included; lock-free. */
BOOLEAN etw_kp_event_enabled(REGHANDLE reg_handle, PCEVENT_DESCRIPTOR desc);
BOOLEAN etw_kp_provider_enabled(REGHANDLE reg_handle, UCHAR level,
				ULONGLONG keyword);

/* Any context: task, softirq, hardirq, interrupts off, NMI. */
NTSTATUS etw_kp_write(REGHANDLE reg_handle, PCEVENT_DESCRIPTOR desc,
		      LPCGUID activity_id, ULONG count,
		      PEVENT_DATA_DESCRIPTOR data);
NTSTATUS etw_kp_write_transfer(REGHANDLE reg_handle, PCEVENT_DESCRIPTOR desc,
			       LPCGUID activity_id, LPCGUID related_id,
			       ULONG count, PEVENT_DATA_DESCRIPTOR data);
NTSTATUS etw_kp_write_ex(REGHANDLE reg_handle, PCEVENT_DESCRIPTOR desc,
			 ULONG64 filter, ULONG flags, LPCGUID activity_id,
			 LPCGUID related_id, ULONG count,
			 PEVENT_DATA_DESCRIPTOR data);
NTSTATUS etw_kp_write_string(REGHANDLE reg_handle, UCHAR level,
			     ULONGLONG keyword, LPCGUID activity_id,
			     PCWSTR string);

/* Process context; EVENT_ACTIVITY_CTRL_CREATE_ID in any context. */
NTSTATUS etw_kp_activity_id_control(ULONG control_code, LPGUID activity_id);

#endif /* _ETW_KERNEL_H */
