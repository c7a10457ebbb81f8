/* SPDX-License-Identifier: MIT */
/*
 * The ETW controller, classic-provider and consumer API, as in Windows'
 * evntrace.h (etw-api.md 2, 3 and 4): sessions (StartTrace, ControlTrace,
 * EnableTraceEx2 ...), classic providers (RegisterTraceGuids, TraceEvent,
 * TraceMessage ...) and consumers (OpenTrace, ProcessTrace, CloseTrace).
 * Implemented by libetw.
 *
 * Like Windows' header it includes guiddef.h and wmistr.h but not
 * evntprov.h: EVENT_FILTER_DESCRIPTOR is only declared here, and
 * EVENT_RECORD is defined by evntcons.h.
 *
 * The generic names (StartTrace, OpenTrace, EVENT_TRACE_LOGFILE,
 * KERNEL_LOGGER_NAME ...) map to the W variants when UNICODE or _UNICODE
 * is defined and to the A variants otherwise, as on Windows.  W strings
 * are UTF-16 (u"..."), A strings are char strings.
 */
#ifndef LIBETW_EVNTRACE_H
#define LIBETW_EVNTRACE_H

#include <stdarg.h>

#include "windows.h"
#include "guiddef.h"
#include "wmistr.h"

/* Session, provider and header-event GUIDs (etw-api.md 3.6). */
/* 68fdd900-4a3e-11d1-84f4-0000f80464e3 */
DEFINE_GUID(EventTraceGuid, 0x68fdd900, 0x4a3e, 0x11d1,
	    0x84, 0xf4, 0x00, 0x00, 0xf8, 0x04, 0x64, 0xe3);
/* 9e814aad-3204-11d2-9a82-006008a86939 */
DEFINE_GUID(SystemTraceControlGuid, 0x9e814aad, 0x3204, 0x11d2,
	    0x9a, 0x82, 0x00, 0x60, 0x08, 0xa8, 0x69, 0x39);
/* 01853a65-418f-4f36-aefc-dc0f1d2fd235 */
DEFINE_GUID(EventTraceConfigGuid, 0x01853a65, 0x418f, 0x4f36,
	    0xae, 0xfc, 0xdc, 0x0f, 0x1d, 0x2f, 0xd2, 0x35);
/* 0811c1af-7a07-4a06-82ed-869455cdf713 */
DEFINE_GUID(DefaultTraceSecurityGuid, 0x0811c1af, 0x7a07, 0x4a06,
	    0x82, 0xed, 0x86, 0x94, 0x55, 0xcd, 0xf7, 0x13);
/* 3595ab5c-042a-4c8e-b942-2d059bfeb1b1 */
DEFINE_GUID(PrivateLoggerNotificationGuid, 0x3595ab5c, 0x042a, 0x4c8e,
	    0xb9, 0x42, 0x2d, 0x05, 0x9b, 0xfe, 0xb1, 0xb1);

/* SystemTraceProvider areas, enabled with EnableTraceEx2 on a system logger. */
/* fbd09363-9e22-4661-b8bf-e7a34b535b8c */
DEFINE_GUID(SystemIoFilterProviderGuid, 0xfbd09363, 0x9e22, 0x4661,
	    0xb8, 0xbf, 0xe7, 0xa3, 0x4b, 0x53, 0x5b, 0x8c);
/* febd7460-3d1d-47eb-af49-c9eeb1e146f2 */
DEFINE_GUID(SystemObjectProviderGuid, 0xfebd7460, 0x3d1d, 0x47eb,
	    0xaf, 0x49, 0xc9, 0xee, 0xb1, 0xe1, 0x46, 0xf2);
/* c134884a-32d5-4488-80e5-14ed7abb8269 */
DEFINE_GUID(SystemPowerProviderGuid, 0xc134884a, 0x32d5, 0x4488,
	    0x80, 0xe5, 0x14, 0xed, 0x7a, 0xbb, 0x82, 0x69);
/* bafa072a-918a-4bed-b622-bc152097098f */
DEFINE_GUID(SystemHypervisorProviderGuid, 0xbafa072a, 0x918a, 0x4bed,
	    0xb6, 0x22, 0xbc, 0x15, 0x20, 0x97, 0x09, 0x8f);
/* 721ddfd3-dacc-4e1e-b26a-a2cb31d4705a */
DEFINE_GUID(SystemLockProviderGuid, 0x721ddfd3, 0xdacc, 0x4e1e,
	    0xb2, 0x6a, 0xa2, 0xcb, 0x31, 0xd4, 0x70, 0x5a);
/* fef3a8b6-318d-4b67-a96a-3b0f6b8f18fe */
DEFINE_GUID(SystemConfigProviderGuid, 0xfef3a8b6, 0x318d, 0x4b67,
	    0xa9, 0x6a, 0x3b, 0x0f, 0x6b, 0x8f, 0x18, 0xfe);
/* c6c5265f-eae8-4650-aae4-9d48603d8510 */
DEFINE_GUID(SystemCpuProviderGuid, 0xc6c5265f, 0xeae8, 0x4650,
	    0xaa, 0xe4, 0x9d, 0x48, 0x60, 0x3d, 0x85, 0x10);
/* 599a2a76-4d91-4910-9ac7-7d33f2e97a6c */
DEFINE_GUID(SystemSchedulerProviderGuid, 0x599a2a76, 0x4d91, 0x4910,
	    0x9a, 0xc7, 0x7d, 0x33, 0xf2, 0xe9, 0x7a, 0x6c);
/* bfeb0324-1cee-496f-a409-2ac2b48a6322 */
DEFINE_GUID(SystemProfileProviderGuid, 0xbfeb0324, 0x1cee, 0x496f,
	    0xa4, 0x09, 0x2a, 0xc2, 0xb4, 0x8a, 0x63, 0x22);
/* 3d5c43e3-0f1c-4202-b817-174c0070dc79 */
DEFINE_GUID(SystemIoProviderGuid, 0x3d5c43e3, 0x0f1c, 0x4202,
	    0xb8, 0x17, 0x17, 0x4c, 0x00, 0x70, 0xdc, 0x79);
/* 82958ca9-b6cd-47f8-a3a8-03ae85a4bc24 */
DEFINE_GUID(SystemMemoryProviderGuid, 0x82958ca9, 0xb6cd, 0x47f8,
	    0xa3, 0xa8, 0x03, 0xae, 0x85, 0xa4, 0xbc, 0x24);
/* 16156bd9-fab4-4cfa-a232-89d1099058e3 */
DEFINE_GUID(SystemRegistryProviderGuid, 0x16156bd9, 0xfab4, 0x4cfa,
	    0xa2, 0x32, 0x89, 0xd1, 0x09, 0x90, 0x58, 0xe3);
/* 151f55dc-467d-471f-83b5-5f889d46ff66 */
DEFINE_GUID(SystemProcessProviderGuid, 0x151f55dc, 0x467d, 0x471f,
	    0x83, 0xb5, 0x5f, 0x88, 0x9d, 0x46, 0xff, 0x66);
/* fcb9baaf-e529-4980-92e9-ced1a6aadfdf */
DEFINE_GUID(SystemAlpcProviderGuid, 0xfcb9baaf, 0xe529, 0x4980,
	    0x92, 0xe9, 0xce, 0xd1, 0xa6, 0xaa, 0xdf, 0xdf);
/* 434286f7-6f1b-45bb-b37e-95f623046c7c */
DEFINE_GUID(SystemSyscallProviderGuid, 0x434286f7, 0x6f1b, 0x45bb,
	    0xb3, 0x7e, 0x95, 0xf6, 0x23, 0x04, 0x6c, 0x7c);
/* d4bbee17-b545-4888-858b-744169015b25 */
DEFINE_GUID(SystemInterruptProviderGuid, 0xd4bbee17, 0xb545, 0x4888,
	    0x85, 0x8b, 0x74, 0x41, 0x69, 0x01, 0x5b, 0x25);
/* 4f061568-e215-499f-ab2e-eda0ae890a5b */
DEFINE_GUID(SystemTimerProviderGuid, 0x4f061568, 0xe215, 0x499f,
	    0xab, 0x2e, 0xed, 0xa0, 0xae, 0x89, 0x0a, 0x5b);
/* 99134383-5248-43fc-834b-529454e75df3 */
DEFINE_GUID(LastBranchRecordProviderGuid, 0x99134383, 0x5248, 0x43fc,
	    0x83, 0x4b, 0x52, 0x94, 0x54, 0xe7, 0x5d, 0xf3);

#define KERNEL_LOGGER_NAMEW	LIBETW_WIDE("NT Kernel Logger")
#define GLOBAL_LOGGER_NAMEW	LIBETW_WIDE("GlobalLogger")
#define EVENT_LOGGER_NAMEW	LIBETW_WIDE("EventLog")
#define DIAG_LOGGER_NAMEW	LIBETW_WIDE("DiagLog")

#define KERNEL_LOGGER_NAMEA	"NT Kernel Logger"
#define GLOBAL_LOGGER_NAMEA	"GlobalLogger"
#define EVENT_LOGGER_NAMEA	"EventLog"
#define DIAG_LOGGER_NAMEA	"DiagLog"

/* Most MOF_FIELDs a WNODE_FLAG_USE_MOF_PTR event may carry. */
#define MAX_MOF_FIELDS		16

/*
 * Session and trace handles are 64-bit integers in every process.
 * TRACEHANDLE is the old name of all of them.
 */
#ifndef _TRACEHANDLE_DEFINED
#define _TRACEHANDLE_DEFINED
typedef ULONG64 TRACEHANDLE, *PTRACEHANDLE;
#endif
/* From OpenTrace; INVALID_PROCESSTRACE_HANDLE when invalid. */
typedef ULONG64 PROCESSTRACE_HANDLE;
/* From StartTrace or a QUERY's Wnode.HistoricalContext; 0 is invalid. */
typedef ULONG64 CONTROLTRACE_ID;

#define SYSTEM_EVENT_TYPE	1

/* Event types (EVENT_TRACE_HEADER.Class.Type, the opcode of MOF events). */
#define EVENT_TRACE_TYPE_INFO			0x00
#define EVENT_TRACE_TYPE_START			0x01
#define EVENT_TRACE_TYPE_END			0x02
#define EVENT_TRACE_TYPE_STOP			0x02
#define EVENT_TRACE_TYPE_DC_START		0x03
#define EVENT_TRACE_TYPE_DC_END			0x04
#define EVENT_TRACE_TYPE_EXTENSION		0x05
#define EVENT_TRACE_TYPE_REPLY			0x06
#define EVENT_TRACE_TYPE_DEQUEUE		0x07
#define EVENT_TRACE_TYPE_RESUME			0x07
#define EVENT_TRACE_TYPE_CHECKPOINT		0x08
#define EVENT_TRACE_TYPE_SUSPEND		0x08
#define EVENT_TRACE_TYPE_WINEVT_SEND		0x09
#define EVENT_TRACE_TYPE_WINEVT_RECEIVE		0xF0

#define TRACE_LEVEL_NONE		0
#define TRACE_LEVEL_CRITICAL		1
#define TRACE_LEVEL_FATAL		1
#define TRACE_LEVEL_ERROR		2
#define TRACE_LEVEL_WARNING		3
#define TRACE_LEVEL_INFORMATION		4
#define TRACE_LEVEL_VERBOSE		5
#define TRACE_LEVEL_RESERVED6		6
#define TRACE_LEVEL_RESERVED7		7
#define TRACE_LEVEL_RESERVED8		8
#define TRACE_LEVEL_RESERVED9		9

/* Subsystem event types start at 0x0A. */
#define EVENT_TRACE_TYPE_LOAD			0x0A
#define EVENT_TRACE_TYPE_TERMINATE		0x0B

#define EVENT_TRACE_TYPE_IO_READ		0x0A
#define EVENT_TRACE_TYPE_IO_WRITE		0x0B
#define EVENT_TRACE_TYPE_IO_READ_INIT		0x0C
#define EVENT_TRACE_TYPE_IO_WRITE_INIT		0x0D
#define EVENT_TRACE_TYPE_IO_FLUSH		0x0E
#define EVENT_TRACE_TYPE_IO_FLUSH_INIT		0x0F
#define EVENT_TRACE_TYPE_IO_REDIRECTED_INIT	0x10

#define EVENT_TRACE_TYPE_MM_TF			0x0A
#define EVENT_TRACE_TYPE_MM_DZF			0x0B
#define EVENT_TRACE_TYPE_MM_COW			0x0C
#define EVENT_TRACE_TYPE_MM_GPF			0x0D
#define EVENT_TRACE_TYPE_MM_HPF			0x0E
#define EVENT_TRACE_TYPE_MM_AV			0x0F

#define EVENT_TRACE_TYPE_SEND			0x0A
#define EVENT_TRACE_TYPE_RECEIVE		0x0B
#define EVENT_TRACE_TYPE_CONNECT		0x0C
#define EVENT_TRACE_TYPE_DISCONNECT		0x0D
#define EVENT_TRACE_TYPE_RETRANSMIT		0x0E
#define EVENT_TRACE_TYPE_ACCEPT			0x0F
#define EVENT_TRACE_TYPE_RECONNECT		0x10
#define EVENT_TRACE_TYPE_CONNFAIL		0x11
#define EVENT_TRACE_TYPE_COPY_TCP		0x12
#define EVENT_TRACE_TYPE_COPY_ARP		0x13
#define EVENT_TRACE_TYPE_ACKFULL		0x14
#define EVENT_TRACE_TYPE_ACKPART		0x15
#define EVENT_TRACE_TYPE_ACKDUP			0x16

#define EVENT_TRACE_TYPE_GUIDMAP		0x0A
#define EVENT_TRACE_TYPE_CONFIG			0x0B
#define EVENT_TRACE_TYPE_SIDINFO		0x0C
#define EVENT_TRACE_TYPE_SECURITY		0x0D
#define EVENT_TRACE_TYPE_DBGID_RSDS		0x40

#define EVENT_TRACE_TYPE_REGCREATE		0x0A
#define EVENT_TRACE_TYPE_REGOPEN		0x0B
#define EVENT_TRACE_TYPE_REGDELETE		0x0C
#define EVENT_TRACE_TYPE_REGQUERY		0x0D
#define EVENT_TRACE_TYPE_REGSETVALUE		0x0E
#define EVENT_TRACE_TYPE_REGDELETEVALUE		0x0F
#define EVENT_TRACE_TYPE_REGQUERYVALUE		0x10
#define EVENT_TRACE_TYPE_REGENUMERATEKEY	0x11
#define EVENT_TRACE_TYPE_REGENUMERATEVALUEKEY	0x12
#define EVENT_TRACE_TYPE_REGQUERYMULTIPLEVALUE	0x13
#define EVENT_TRACE_TYPE_REGSETINFORMATION	0x14
#define EVENT_TRACE_TYPE_REGFLUSH		0x15
#define EVENT_TRACE_TYPE_REGKCBCREATE		0x16
#define EVENT_TRACE_TYPE_REGKCBDELETE		0x17
#define EVENT_TRACE_TYPE_REGKCBRUNDOWNBEGIN	0x18
#define EVENT_TRACE_TYPE_REGKCBRUNDOWNEND	0x19
#define EVENT_TRACE_TYPE_REGVIRTUALIZE		0x1A
#define EVENT_TRACE_TYPE_REGCLOSE		0x1B
#define EVENT_TRACE_TYPE_REGSETSECURITY		0x1C
#define EVENT_TRACE_TYPE_REGQUERYSECURITY	0x1D
#define EVENT_TRACE_TYPE_REGCOMMIT		0x1E
#define EVENT_TRACE_TYPE_REGPREPARE		0x1F
#define EVENT_TRACE_TYPE_REGROLLBACK		0x20
#define EVENT_TRACE_TYPE_REGMOUNTHIVE		0x21

#define EVENT_TRACE_TYPE_CONFIG_CPU		0x0A
#define EVENT_TRACE_TYPE_CONFIG_PHYSICALDISK	0x0B
#define EVENT_TRACE_TYPE_CONFIG_LOGICALDISK	0x0C
#define EVENT_TRACE_TYPE_CONFIG_NIC		0x0D
#define EVENT_TRACE_TYPE_CONFIG_VIDEO		0x0E
#define EVENT_TRACE_TYPE_CONFIG_SERVICES	0x0F
#define EVENT_TRACE_TYPE_CONFIG_POWER		0x10
#define EVENT_TRACE_TYPE_CONFIG_NETINFO		0x11
#define EVENT_TRACE_TYPE_CONFIG_OPTICALMEDIA	0x12
#define EVENT_TRACE_TYPE_CONFIG_PHYSICALDISK_EX	0x13
#define EVENT_TRACE_TYPE_CONFIG_IRQ		0x15
#define EVENT_TRACE_TYPE_CONFIG_PNP		0x16
#define EVENT_TRACE_TYPE_CONFIG_IDECHANNEL	0x17
#define EVENT_TRACE_TYPE_CONFIG_NUMANODE	0x18
#define EVENT_TRACE_TYPE_CONFIG_PLATFORM	0x19
#define EVENT_TRACE_TYPE_CONFIG_PROCESSORGROUP	0x1A
#define EVENT_TRACE_TYPE_CONFIG_PROCESSORNUMBER	0x1B
#define EVENT_TRACE_TYPE_CONFIG_DPI		0x1C
#define EVENT_TRACE_TYPE_CONFIG_CI_INFO		0x1D
#define EVENT_TRACE_TYPE_CONFIG_MACHINEID	0x1E
#define EVENT_TRACE_TYPE_CONFIG_DEFRAG		0x1F
#define EVENT_TRACE_TYPE_CONFIG_MOBILEPLATFORM	0x20
#define EVENT_TRACE_TYPE_CONFIG_DEVICEFAMILY	0x21
#define EVENT_TRACE_TYPE_CONFIG_FLIGHTID	0x22
#define EVENT_TRACE_TYPE_CONFIG_PROCESSOR	0x23
#define EVENT_TRACE_TYPE_CONFIG_VIRTUALIZATION	0x24
#define EVENT_TRACE_TYPE_CONFIG_BOOT		0x25

#define EVENT_TRACE_TYPE_OPTICAL_IO_READ	0x37
#define EVENT_TRACE_TYPE_OPTICAL_IO_WRITE	0x38
#define EVENT_TRACE_TYPE_OPTICAL_IO_FLUSH	0x39
#define EVENT_TRACE_TYPE_OPTICAL_IO_READ_INIT	0x3a
#define EVENT_TRACE_TYPE_OPTICAL_IO_WRITE_INIT	0x3b
#define EVENT_TRACE_TYPE_OPTICAL_IO_FLUSH_INIT	0x3c

#define EVENT_TRACE_TYPE_FLT_PREOP_INIT		0x60
#define EVENT_TRACE_TYPE_FLT_POSTOP_INIT	0x61
#define EVENT_TRACE_TYPE_FLT_PREOP_COMPLETION	0x62
#define EVENT_TRACE_TYPE_FLT_POSTOP_COMPLETION	0x63
#define EVENT_TRACE_TYPE_FLT_PREOP_FAILURE	0x64
#define EVENT_TRACE_TYPE_FLT_POSTOP_FAILURE	0x65

/* EVENT_TRACE_PROPERTIES.EnableFlags of a system (kernel) logger. */
#define EVENT_TRACE_FLAG_PROCESS		0x00000001
#define EVENT_TRACE_FLAG_THREAD			0x00000002
#define EVENT_TRACE_FLAG_IMAGE_LOAD		0x00000004
#define EVENT_TRACE_FLAG_PROCESS_COUNTERS	0x00000008
#define EVENT_TRACE_FLAG_CSWITCH		0x00000010
#define EVENT_TRACE_FLAG_DPC			0x00000020
#define EVENT_TRACE_FLAG_INTERRUPT		0x00000040
#define EVENT_TRACE_FLAG_SYSTEMCALL		0x00000080
#define EVENT_TRACE_FLAG_DISK_IO		0x00000100
#define EVENT_TRACE_FLAG_DISK_FILE_IO		0x00000200
#define EVENT_TRACE_FLAG_DISK_IO_INIT		0x00000400
#define EVENT_TRACE_FLAG_DISPATCHER		0x00000800
#define EVENT_TRACE_FLAG_MEMORY_PAGE_FAULTS	0x00001000
#define EVENT_TRACE_FLAG_MEMORY_HARD_FAULTS	0x00002000
#define EVENT_TRACE_FLAG_VIRTUAL_ALLOC		0x00004000
#define EVENT_TRACE_FLAG_VAMAP			0x00008000
#define EVENT_TRACE_FLAG_NETWORK_TCPIP		0x00010000
#define EVENT_TRACE_FLAG_REGISTRY		0x00020000
#define EVENT_TRACE_FLAG_DBGPRINT		0x00040000
#define EVENT_TRACE_FLAG_JOB			0x00080000
#define EVENT_TRACE_FLAG_ALPC			0x00100000
#define EVENT_TRACE_FLAG_SPLIT_IO		0x00200000
#define EVENT_TRACE_FLAG_DEBUG_EVENTS		0x00400000
#define EVENT_TRACE_FLAG_DRIVER			0x00800000
#define EVENT_TRACE_FLAG_PROFILE		0x01000000
#define EVENT_TRACE_FLAG_FILE_IO		0x02000000
#define EVENT_TRACE_FLAG_FILE_IO_INIT		0x04000000
#define EVENT_TRACE_FLAG_NO_SYSCONFIG		0x10000000
#define EVENT_TRACE_FLAG_ENABLE_RESERVE		0x20000000
#define EVENT_TRACE_FLAG_FORWARD_WMI		0x40000000
#define EVENT_TRACE_FLAG_EXTENSION		0x80000000

/* EVENT_TRACE_PROPERTIES.LogFileMode (etw-api.md 3.3). */
#define EVENT_TRACE_FILE_MODE_NONE		0x00000000
#define EVENT_TRACE_FILE_MODE_SEQUENTIAL	0x00000001
#define EVENT_TRACE_FILE_MODE_CIRCULAR		0x00000002
#define EVENT_TRACE_FILE_MODE_APPEND		0x00000004
#define EVENT_TRACE_FILE_MODE_NEWFILE		0x00000008
#define EVENT_TRACE_FILE_MODE_PREALLOCATE	0x00000020
#define EVENT_TRACE_NONSTOPPABLE_MODE		0x00000040
#define EVENT_TRACE_SECURE_MODE			0x00000080
#define EVENT_TRACE_REAL_TIME_MODE		0x00000100
#define EVENT_TRACE_DELAY_OPEN_FILE_MODE	0x00000200
#define EVENT_TRACE_BUFFERING_MODE		0x00000400
#define EVENT_TRACE_PRIVATE_LOGGER_MODE		0x00000800
#define EVENT_TRACE_ADD_HEADER_MODE		0x00001000
#define EVENT_TRACE_USE_KBYTES_FOR_SIZE		0x00002000
#define EVENT_TRACE_USE_GLOBAL_SEQUENCE		0x00004000
#define EVENT_TRACE_USE_LOCAL_SEQUENCE		0x00008000
#define EVENT_TRACE_RELOG_MODE			0x00010000
#define EVENT_TRACE_PRIVATE_IN_PROC		0x00020000
#define EVENT_TRACE_MODE_RESERVED		0x00100000
#define EVENT_TRACE_STOP_ON_HYBRID_SHUTDOWN	0x00400000
#define EVENT_TRACE_PERSIST_ON_HYBRID_SHUTDOWN	0x00800000
#define EVENT_TRACE_USE_PAGED_MEMORY		0x01000000
#define EVENT_TRACE_SYSTEM_LOGGER_MODE		0x02000000
#define EVENT_TRACE_COMPRESSED_MODE		0x04000000
#define EVENT_TRACE_INDEPENDENT_SESSION_MODE	0x08000000
#define EVENT_TRACE_NO_PER_PROCESSOR_BUFFERING	0x10000000
#define EVENT_TRACE_ADDTO_TRIAGE_DUMP		0x80000000

/* ControlTrace() ControlCode */
#define EVENT_TRACE_CONTROL_QUERY		0
#define EVENT_TRACE_CONTROL_STOP		1
#define EVENT_TRACE_CONTROL_UPDATE		2
#define EVENT_TRACE_CONTROL_FLUSH		3
#define EVENT_TRACE_CONTROL_INCREMENT_FILE	4
#define EVENT_TRACE_CONTROL_CONVERT_TO_REALTIME	5

/*
 * TraceMessage() MessageFlags.  The optional items are put before the
 * arguments in this order; only the low 16 bits are recorded.
 */
#define TRACE_MESSAGE_SEQUENCE			1
#define TRACE_MESSAGE_GUID			2
#define TRACE_MESSAGE_COMPONENTID		4
#define TRACE_MESSAGE_TIMESTAMP			8
#define TRACE_MESSAGE_PERFORMANCE_TIMESTAMP	16
#define TRACE_MESSAGE_SYSTEMINFO		32
#define TRACE_MESSAGE_POINTER32			0x0040
#define TRACE_MESSAGE_POINTER64			0x0080
#define TRACE_MESSAGE_FLAG_MASK			0xFFFF
#define TRACE_MESSAGE_MAXIMUM_SIZE		(64 * 1024)

/* Which EVENT_TRACE_HEADER time fields a consumer may trust. */
#define EVENT_TRACE_USE_PROCTIME		0x0001
#define EVENT_TRACE_USE_NOCPUTIME		0x0002

/* EVENT_TRACE_HEADER.Flags for TraceEvent(): the WNODE_FLAG_* bits. */
#define TRACE_HEADER_FLAG_USE_TIMESTAMP		0x00000200
#define TRACE_HEADER_FLAG_TRACED_GUID		0x00020000
#define TRACE_HEADER_FLAG_LOG_WNODE		0x00040000
#define TRACE_HEADER_FLAG_USE_GUID_PTR		0x00080000
#define TRACE_HEADER_FLAG_USE_MOF_PTR		0x00100000

/* Valid while the provider's WMIDPREQUEST notification lasts. */
#ifndef _typedef_TRACELOGGER_HANDLE
#define _typedef_TRACELOGGER_HANDLE 1
typedef ULONG64 TRACELOGGER_HANDLE;
#endif

/*
 * Header of a classic (TraceEvent) event; it overlays WNODE_HEADER.
 * Version is Class.Type | Class.Level << 8 | Class.Version << 16.
 */
typedef struct _EVENT_TRACE_HEADER {
	USHORT Size;			/* header plus data, in bytes */
	union {
		USHORT FieldTypeFlags;
		__extension__ struct {
			UCHAR HeaderType;
			UCHAR MarkerFlags;
		} DUMMYSTRUCTNAME;
	} DUMMYUNIONNAME;
	union {
		ULONG Version;
		struct {
			UCHAR Type;	/* EVENT_TRACE_TYPE_* */
			UCHAR Level;	/* TRACE_LEVEL_* */
			USHORT Version;
		} Class;
	} DUMMYUNIONNAME2;
	ULONG ThreadId;
	ULONG ProcessId;
	LARGE_INTEGER TimeStamp;
	union {
		GUID Guid;
		/* with WNODE_FLAG_USE_GUID_PTR */
		ULONGLONG GuidPtr LIBETW_ALIGN8;
	} DUMMYUNIONNAME3;
	union {
		__extension__ struct {
			ULONG KernelTime;
			ULONG UserTime;
		} DUMMYSTRUCTNAME;
		ULONG64 ProcessorTime LIBETW_ALIGN8;
		__extension__ struct {
			ULONG ClientContext;
			ULONG Flags;	/* WNODE_FLAG_* */
		} DUMMYSTRUCTNAME2;
	} DUMMYUNIONNAME4;
} EVENT_TRACE_HEADER, *PEVENT_TRACE_HEADER;

/* Header of a TraceEventInstance() event. */
typedef struct _EVENT_INSTANCE_HEADER {
	USHORT Size;
	union {
		USHORT FieldTypeFlags;
		__extension__ struct {
			UCHAR HeaderType;
			UCHAR MarkerFlags;
		} DUMMYSTRUCTNAME;
	} DUMMYUNIONNAME;
	union {
		ULONG Version;
		struct {
			UCHAR Type;
			UCHAR Level;
			USHORT Version;
		} Class;
	} DUMMYUNIONNAME2;
	ULONG ThreadId;
	ULONG ProcessId;
	LARGE_INTEGER TimeStamp;
	ULONGLONG RegHandle LIBETW_ALIGN8;
	ULONG InstanceId;
	ULONG ParentInstanceId;
	union {
		__extension__ struct {
			ULONG KernelTime;
			ULONG UserTime;
		} DUMMYSTRUCTNAME;
		ULONG64 ProcessorTime LIBETW_ALIGN8;
		__extension__ struct {
			ULONG EventId;
			ULONG Flags;
		} DUMMYSTRUCTNAME2;
	} DUMMYUNIONNAME3;
	ULONGLONG ParentRegHandle LIBETW_ALIGN8;
} EVENT_INSTANCE_HEADER, *PEVENT_INSTANCE_HEADER;

/* MOF_FIELD.DataType */
#define ETW_NULL_TYPE_VALUE				0
#define ETW_OBJECT_TYPE_VALUE				1
#define ETW_STRING_TYPE_VALUE				2
#define ETW_SBYTE_TYPE_VALUE				3
#define ETW_BYTE_TYPE_VALUE				4
#define ETW_INT16_TYPE_VALUE				5
#define ETW_UINT16_TYPE_VALUE				6
#define ETW_INT32_TYPE_VALUE				7
#define ETW_UINT32_TYPE_VALUE				8
#define ETW_INT64_TYPE_VALUE				9
#define ETW_UINT64_TYPE_VALUE				10
#define ETW_CHAR_TYPE_VALUE				11
#define ETW_SINGLE_TYPE_VALUE				12
#define ETW_DOUBLE_TYPE_VALUE				13
#define ETW_BOOLEAN_TYPE_VALUE				14
#define ETW_DECIMAL_TYPE_VALUE				15
#define ETW_GUID_TYPE_VALUE				101
#define ETW_ASCIICHAR_TYPE_VALUE			102
#define ETW_ASCIISTRING_TYPE_VALUE			103
#define ETW_COUNTED_STRING_TYPE_VALUE			104
#define ETW_POINTER_TYPE_VALUE				105
#define ETW_SIZET_TYPE_VALUE				106
#define ETW_HIDDEN_TYPE_VALUE				107
#define ETW_BOOL_TYPE_VALUE				108
#define ETW_COUNTED_ANSISTRING_TYPE_VALUE		109
#define ETW_REVERSED_COUNTED_STRING_TYPE_VALUE		110
#define ETW_REVERSED_COUNTED_ANSISTRING_TYPE_VALUE	111
#define ETW_NON_NULL_TERMINATED_STRING_TYPE_VALUE	112
#define ETW_REDUCED_ANSISTRING_TYPE_VALUE		113
#define ETW_REDUCED_STRING_TYPE_VALUE			114
#define ETW_SID_TYPE_VALUE				115
#define ETW_VARIANT_TYPE_VALUE				116
#define ETW_PTVECTOR_TYPE_VALUE				117
#define ETW_WMITIME_TYPE_VALUE				118
#define ETW_DATETIME_TYPE_VALUE				119
#define ETW_REFRENCE_TYPE_VALUE				120

/* Sets up one MOF_FIELD; a statement sequence, as on Windows. */
#define DEFINE_TRACE_MOF_FIELD(MOF, ptr, length, type)	\
	(MOF)->DataPtr = (ULONG64)(ULONG_PTR)(ptr);	\
	(MOF)->Length = (ULONG)(length);		\
	(MOF)->DataType = (ULONG)(type);

/* With WNODE_FLAG_USE_MOF_PTR, the event data is an array of these. */
typedef struct _MOF_FIELD {
	ULONG64 DataPtr LIBETW_ALIGN8;
	ULONG Length;
	ULONG DataType;			/* ETW_*_TYPE_VALUE */
} MOF_FIELD, *PMOF_FIELD;

/*
 * The log file header, also the payload of the first event of an ETL file.
 * TRACE_LOGFILE_HEADER32 and TRACE_LOGFILE_HEADER64 are the same header as
 * written by a 32-bit and a 64-bit process, for decoding either.
 */
typedef struct _TRACE_LOGFILE_HEADER {
	ULONG BufferSize;
	union {
		ULONG Version;
		struct {
			UCHAR MajorVersion;
			UCHAR MinorVersion;
			UCHAR SubVersion;
			UCHAR SubMinorVersion;
		} VersionDetail;
	} DUMMYUNIONNAME;
	ULONG ProviderVersion;
	ULONG NumberOfProcessors;
	LARGE_INTEGER EndTime;
	ULONG TimerResolution;
	ULONG MaximumFileSize;
	ULONG LogFileMode;
	ULONG BuffersWritten;
	union {
		GUID LogInstanceGuid;
		__extension__ struct {
			ULONG StartBuffers;
			ULONG PointerSize;	/* in bits */
			ULONG EventsLost;
			ULONG CpuSpeedInMHz;
		} DUMMYSTRUCTNAME;
	} DUMMYUNIONNAME2;
	LPWSTR LoggerName;
	LPWSTR LogFileName;
	TIME_ZONE_INFORMATION TimeZone;
	LARGE_INTEGER BootTime;
	LARGE_INTEGER PerfFreq;
	LARGE_INTEGER StartTime;
	ULONG ReservedFlags;		/* clock type */
	ULONG BuffersLost;
} TRACE_LOGFILE_HEADER, *PTRACE_LOGFILE_HEADER;

typedef struct _TRACE_LOGFILE_HEADER32 {
	ULONG BufferSize;
	union {
		ULONG Version;
		struct {
			UCHAR MajorVersion;
			UCHAR MinorVersion;
			UCHAR SubVersion;
			UCHAR SubMinorVersion;
		} VersionDetail;
	} DUMMYUNIONNAME;
	ULONG ProviderVersion;
	ULONG NumberOfProcessors;
	LARGE_INTEGER EndTime;
	ULONG TimerResolution;
	ULONG MaximumFileSize;
	ULONG LogFileMode;
	ULONG BuffersWritten;
	union {
		GUID LogInstanceGuid;
		__extension__ struct {
			ULONG StartBuffers;
			ULONG PointerSize;
			ULONG EventsLost;
			ULONG CpuSpeedInMHz;
		} DUMMYSTRUCTNAME;
	} DUMMYUNIONNAME2;
	ULONG32 LoggerName;
	ULONG32 LogFileName;
	TIME_ZONE_INFORMATION TimeZone;
	LARGE_INTEGER BootTime;
	LARGE_INTEGER PerfFreq;
	LARGE_INTEGER StartTime;
	ULONG ReservedFlags;
	ULONG BuffersLost;
} TRACE_LOGFILE_HEADER32, *PTRACE_LOGFILE_HEADER32;

typedef struct _TRACE_LOGFILE_HEADER64 {
	ULONG BufferSize;
	union {
		ULONG Version;
		struct {
			UCHAR MajorVersion;
			UCHAR MinorVersion;
			UCHAR SubVersion;
			UCHAR SubMinorVersion;
		} VersionDetail;
	} DUMMYUNIONNAME;
	ULONG ProviderVersion;
	ULONG NumberOfProcessors;
	LARGE_INTEGER EndTime;
	ULONG TimerResolution;
	ULONG MaximumFileSize;
	ULONG LogFileMode;
	ULONG BuffersWritten;
	union {
		GUID LogInstanceGuid;
		__extension__ struct {
			ULONG StartBuffers;
			ULONG PointerSize;
			ULONG EventsLost;
			ULONG CpuSpeedInMHz;
		} DUMMYSTRUCTNAME;
	} DUMMYUNIONNAME2;
	ULONG64 LoggerName LIBETW_ALIGN8;
	ULONG64 LogFileName LIBETW_ALIGN8;
	TIME_ZONE_INFORMATION TimeZone;
	LARGE_INTEGER BootTime;
	LARGE_INTEGER PerfFreq;
	LARGE_INTEGER StartTime;
	ULONG ReservedFlags;
	ULONG BuffersLost;
} TRACE_LOGFILE_HEADER64, *PTRACE_LOGFILE_HEADER64;

/* Parent/child instance tracking for TraceEventInstance(). */
typedef struct EVENT_INSTANCE_INFO {
	HANDLE RegHandle;
	ULONG InstanceId;
} EVENT_INSTANCE_INFO, *PEVENT_INSTANCE_INFO;

/* evntprov.h declares the same typedef and defines the structure. */
#ifndef LIBETW_EVENT_FILTER_DESCRIPTOR_TYPEDEF
#define LIBETW_EVENT_FILTER_DESCRIPTOR_TYPEDEF
typedef struct _EVENT_FILTER_DESCRIPTOR
	EVENT_FILTER_DESCRIPTOR, *PEVENT_FILTER_DESCRIPTOR;
#endif

/*
 * Session configuration and statistics.  It heads one allocation that
 * also holds the session name and then the log file name, at
 * LoggerNameOffset and LogFileNameOffset from its start; Wnode.BufferSize
 * is the size of the whole allocation (etw-api.md 3.2).
 */
typedef struct _EVENT_TRACE_PROPERTIES {
	WNODE_HEADER Wnode;
	/* set by the caller */
	ULONG BufferSize;		/* KB per buffer */
	ULONG MinimumBuffers;
	ULONG MaximumBuffers;
	ULONG MaximumFileSize;		/* MB, or KB with USE_KBYTES_FOR_SIZE */
	ULONG LogFileMode;		/* EVENT_TRACE_*_MODE */
	ULONG FlushTimer;		/* seconds */
	ULONG EnableFlags;		/* EVENT_TRACE_FLAG_*, system loggers */
	union {
		LONG AgeLimit;
		LONG FlushThreshold;
	} DUMMYUNIONNAME;
	/* returned */
	ULONG NumberOfBuffers;
	ULONG FreeBuffers;
	ULONG EventsLost;
	ULONG BuffersWritten;
	ULONG LogBuffersLost;
	ULONG RealTimeBuffersLost;
	HANDLE LoggerThreadId;
	ULONG LogFileNameOffset;	/* 0: no log file */
	ULONG LoggerNameOffset;
} EVENT_TRACE_PROPERTIES, *PEVENT_TRACE_PROPERTIES;

/* Needs VersionNumber = 2 and WNODE_FLAG_VERSIONED_PROPERTIES. */
typedef struct _EVENT_TRACE_PROPERTIES_V2 {
	WNODE_HEADER Wnode;
	ULONG BufferSize;
	ULONG MinimumBuffers;
	ULONG MaximumBuffers;
	ULONG MaximumFileSize;
	ULONG LogFileMode;
	ULONG FlushTimer;
	ULONG EnableFlags;
	union {
		LONG AgeLimit;
		LONG FlushThreshold;
	} DUMMYUNIONNAME;
	ULONG NumberOfBuffers;
	ULONG FreeBuffers;
	ULONG EventsLost;
	ULONG BuffersWritten;
	ULONG LogBuffersLost;
	ULONG RealTimeBuffersLost;
	HANDLE LoggerThreadId;
	ULONG LogFileNameOffset;
	ULONG LoggerNameOffset;
	union {
		__extension__ struct {
			ULONG VersionNumber : 8;
		} DUMMYSTRUCTNAME;
		ULONG V2Control;
	} DUMMYUNIONNAME2;
	ULONG FilterDescCount;
	PEVENT_FILTER_DESCRIPTOR FilterDesc;
	union {
		__extension__ struct {
			ULONG Wow : 1;
			ULONG QpcDeltaTracking : 1;
			ULONG LargeMdlPages : 1;
			ULONG ExcludeKernelStack : 1;
		} DUMMYSTRUCTNAME;
		ULONG64 V2Options LIBETW_ALIGN8;
	} DUMMYUNIONNAME3;
} EVENT_TRACE_PROPERTIES_V2, *PEVENT_TRACE_PROPERTIES_V2;

/* RegisterTraceGuids() event classes; RegHandle is returned. */
typedef struct _TRACE_GUID_REGISTRATION {
	LPCGUID Guid;
	HANDLE RegHandle;
} TRACE_GUID_REGISTRATION, *PTRACE_GUID_REGISTRATION;

/* ProcessorIndex is valid with EVENT_HEADER_FLAG_PROCESSOR_INDEX. */
#ifndef ETW_BUFFER_CONTEXT_DEF
#define ETW_BUFFER_CONTEXT_DEF
typedef struct _ETW_BUFFER_CONTEXT {
	union {
		__extension__ struct {
			UCHAR ProcessorNumber;
			UCHAR Alignment;
		} DUMMYSTRUCTNAME;
		USHORT ProcessorIndex;
	} DUMMYUNIONNAME;
	USHORT LoggerId;
} ETW_BUFFER_CONTEXT, *PETW_BUFFER_CONTEXT;
#endif

/* A classic event as delivered to a PEVENT_CALLBACK consumer. */
typedef struct _EVENT_TRACE {
	EVENT_TRACE_HEADER Header;
	ULONG InstanceId;
	ULONG ParentInstanceId;
	GUID ParentGuid;
	PVOID MofData;
	ULONG MofLength;
	union {
		ULONG ClientContext;
		ETW_BUFFER_CONTEXT BufferContext;
	} DUMMYUNIONNAME;
} EVENT_TRACE, *PEVENT_TRACE;

/* EnableTraceEx2() ControlCode and a PENABLECALLBACK's IsEnabled. */
#define EVENT_CONTROL_CODE_DISABLE_PROVIDER	0
#define EVENT_CONTROL_CODE_ENABLE_PROVIDER	1
#define EVENT_CONTROL_CODE_CAPTURE_STATE	2

typedef struct _EVENT_RECORD EVENT_RECORD, *PEVENT_RECORD;
typedef struct _EVENT_TRACE_LOGFILEW EVENT_TRACE_LOGFILEW, *PEVENT_TRACE_LOGFILEW;
typedef struct _EVENT_TRACE_LOGFILEA EVENT_TRACE_LOGFILEA, *PEVENT_TRACE_LOGFILEA;

#ifdef __cplusplus
extern "C" {
#endif

/* Called after each buffer; returning FALSE stops ProcessTrace(). */
typedef ULONG (WINAPI *PEVENT_TRACE_BUFFER_CALLBACKW)(
	PEVENT_TRACE_LOGFILEW Logfile);
typedef ULONG (WINAPI *PEVENT_TRACE_BUFFER_CALLBACKA)(
	PEVENT_TRACE_LOGFILEA Logfile);
typedef VOID (WINAPI *PEVENT_CALLBACK)(PEVENT_TRACE pEvent);
typedef VOID (WINAPI *PEVENT_RECORD_CALLBACK)(PEVENT_RECORD EventRecord);

/* A classic provider's control callback (RegisterTraceGuids()). */
typedef ULONG (WINAPI *WMIDPREQUEST)(WMIDPREQUESTCODE RequestCode,
				     PVOID RequestContext, ULONG *BufferSize,
				     PVOID Buffer);

#ifdef __cplusplus
}
#endif

/*
 * What OpenTrace() opens (a log file or a real-time session) and how
 * ProcessTrace() delivers it.  With PROCESS_TRACE_MODE_EVENT_RECORD in
 * ProcessTraceMode the callback union is an EventRecordCallback.
 */
struct _EVENT_TRACE_LOGFILEW {
	LPWSTR LogFileName;
	LPWSTR LoggerName;
	LONGLONG CurrentTime LIBETW_ALIGN8;
	ULONG BuffersRead;
	union {
		ULONG LogFileMode;
		ULONG ProcessTraceMode;	/* PROCESS_TRACE_MODE_* */
	} DUMMYUNIONNAME;
	EVENT_TRACE CurrentEvent;
	TRACE_LOGFILE_HEADER LogfileHeader;
	PEVENT_TRACE_BUFFER_CALLBACKW BufferCallback;
	ULONG BufferSize;
	ULONG Filled;
	ULONG EventsLost;
	union {
		PEVENT_CALLBACK EventCallback;
		PEVENT_RECORD_CALLBACK EventRecordCallback;
	} DUMMYUNIONNAME2;
	ULONG IsKernelTrace;
	PVOID Context;			/* becomes EVENT_RECORD.UserContext */
};

struct _EVENT_TRACE_LOGFILEA {
	LPSTR LogFileName;
	LPSTR LoggerName;
	LONGLONG CurrentTime LIBETW_ALIGN8;
	ULONG BuffersRead;
	union {
		ULONG LogFileMode;
		ULONG ProcessTraceMode;
	} DUMMYUNIONNAME;
	EVENT_TRACE CurrentEvent;
	TRACE_LOGFILE_HEADER LogfileHeader;
	PEVENT_TRACE_BUFFER_CALLBACKA BufferCallback;
	ULONG BufferSize;
	ULONG Filled;
	ULONG EventsLost;
	union {
		PEVENT_CALLBACK EventCallback;
		PEVENT_RECORD_CALLBACK EventRecordCallback;
	} DUMMYUNIONNAME2;
	ULONG IsKernelTrace;
	PVOID Context;
};

#if defined(UNICODE) || defined(_UNICODE)
#define PEVENT_TRACE_BUFFER_CALLBACK	PEVENT_TRACE_BUFFER_CALLBACKW
#define EVENT_TRACE_LOGFILE		EVENT_TRACE_LOGFILEW
#define PEVENT_TRACE_LOGFILE		PEVENT_TRACE_LOGFILEW
#define KERNEL_LOGGER_NAME		KERNEL_LOGGER_NAMEW
#define GLOBAL_LOGGER_NAME		GLOBAL_LOGGER_NAMEW
#define EVENT_LOGGER_NAME		EVENT_LOGGER_NAMEW
#else
#define PEVENT_TRACE_BUFFER_CALLBACK	PEVENT_TRACE_BUFFER_CALLBACKA
#define EVENT_TRACE_LOGFILE		EVENT_TRACE_LOGFILEA
#define PEVENT_TRACE_LOGFILE		PEVENT_TRACE_LOGFILEA
#define KERNEL_LOGGER_NAME		KERNEL_LOGGER_NAMEA
#define GLOBAL_LOGGER_NAME		GLOBAL_LOGGER_NAMEA
#define EVENT_LOGGER_NAME		EVENT_LOGGER_NAMEA
#endif

#define ENABLE_TRACE_PARAMETERS_VERSION		1
#define ENABLE_TRACE_PARAMETERS_VERSION_2	2

/* EnableTraceEx2() parameters, version 1: a single filter. */
typedef struct _ENABLE_TRACE_PARAMETERS_V1 {
	ULONG Version;
	ULONG EnableProperty;		/* evntcons.h EVENT_ENABLE_PROPERTY_* */
	ULONG ControlFlags;
	GUID SourceId;
	PEVENT_FILTER_DESCRIPTOR EnableFilterDesc;
} ENABLE_TRACE_PARAMETERS_V1, *PENABLE_TRACE_PARAMETERS_V1;

/* Version 2: EnableFilterDesc is an array of FilterDescCount filters. */
typedef struct _ENABLE_TRACE_PARAMETERS {
	ULONG Version;
	ULONG EnableProperty;
	ULONG ControlFlags;
	GUID SourceId;
	PEVENT_FILTER_DESCRIPTOR EnableFilterDesc;
	ULONG FilterDescCount;
} ENABLE_TRACE_PARAMETERS, *PENABLE_TRACE_PARAMETERS;

/* From RegisterTraceGuids(); 0 is invalid. */
typedef ULONG64 TRACEGUID_HANDLE;

#ifdef __cplusplus
extern "C" {
#endif

/* Controller API (etw-api.md 3.1) */

ULONG WMIAPI StartTraceW(CONTROLTRACE_ID *TraceId, LPCWSTR InstanceName,
			 PEVENT_TRACE_PROPERTIES Properties);
ULONG WMIAPI StartTraceA(CONTROLTRACE_ID *TraceId, LPCSTR InstanceName,
			 PEVENT_TRACE_PROPERTIES Properties);

ULONG WMIAPI StopTraceW(CONTROLTRACE_ID TraceId, LPCWSTR InstanceName,
			PEVENT_TRACE_PROPERTIES Properties);
ULONG WMIAPI StopTraceA(CONTROLTRACE_ID TraceId, LPCSTR InstanceName,
			PEVENT_TRACE_PROPERTIES Properties);

ULONG WMIAPI QueryTraceW(CONTROLTRACE_ID TraceId, LPCWSTR InstanceName,
			 PEVENT_TRACE_PROPERTIES Properties);
ULONG WMIAPI QueryTraceA(CONTROLTRACE_ID TraceId, LPCSTR InstanceName,
			 PEVENT_TRACE_PROPERTIES Properties);

ULONG WMIAPI UpdateTraceW(CONTROLTRACE_ID TraceId, LPCWSTR InstanceName,
			  PEVENT_TRACE_PROPERTIES Properties);
ULONG WMIAPI UpdateTraceA(CONTROLTRACE_ID TraceId, LPCSTR InstanceName,
			  PEVENT_TRACE_PROPERTIES Properties);

ULONG WMIAPI FlushTraceW(CONTROLTRACE_ID TraceId, LPCWSTR InstanceName,
			 PEVENT_TRACE_PROPERTIES Properties);
ULONG WMIAPI FlushTraceA(CONTROLTRACE_ID TraceId, LPCSTR InstanceName,
			 PEVENT_TRACE_PROPERTIES Properties);

ULONG WMIAPI ControlTraceW(CONTROLTRACE_ID TraceId, LPCWSTR InstanceName,
			   PEVENT_TRACE_PROPERTIES Properties,
			   ULONG ControlCode);
ULONG WMIAPI ControlTraceA(CONTROLTRACE_ID TraceId, LPCSTR InstanceName,
			   PEVENT_TRACE_PROPERTIES Properties,
			   ULONG ControlCode);

ULONG WMIAPI QueryAllTracesW(PEVENT_TRACE_PROPERTIES *PropertyArray,
			     ULONG PropertyArrayCount, PULONG LoggerCount);
ULONG WMIAPI QueryAllTracesA(PEVENT_TRACE_PROPERTIES *PropertyArray,
			     ULONG PropertyArrayCount, PULONG LoggerCount);

ULONG WMIAPI EnableTrace(ULONG Enable, ULONG EnableFlag, ULONG EnableLevel,
			 LPCGUID ControlGuid, CONTROLTRACE_ID TraceId);

ULONG WMIAPI EnableTraceEx(LPCGUID ProviderId, LPCGUID SourceId,
			   CONTROLTRACE_ID TraceId, ULONG IsEnabled,
			   UCHAR Level, ULONGLONG MatchAnyKeyword,
			   ULONGLONG MatchAllKeyword, ULONG EnableProperty,
			   PEVENT_FILTER_DESCRIPTOR EnableFilterDesc);

ULONG WMIAPI EnableTraceEx2(CONTROLTRACE_ID TraceId, LPCGUID ProviderId,
			    ULONG ControlCode, UCHAR Level,
			    ULONGLONG MatchAnyKeyword,
			    ULONGLONG MatchAllKeyword, ULONG Timeout,
			    PENABLE_TRACE_PARAMETERS EnableParameters);

/* Classic provider API (etw-api.md 2.1) */

ULONG WMIAPI RegisterTraceGuidsW(WMIDPREQUEST RequestAddress,
				 PVOID RequestContext, LPCGUID ControlGuid,
				 ULONG GuidCount,
				 PTRACE_GUID_REGISTRATION TraceGuidReg,
				 LPCWSTR MofImagePath, LPCWSTR MofResourceName,
				 TRACEGUID_HANDLE *RegistrationHandle);
ULONG WMIAPI RegisterTraceGuidsA(WMIDPREQUEST RequestAddress,
				 PVOID RequestContext, LPCGUID ControlGuid,
				 ULONG GuidCount,
				 PTRACE_GUID_REGISTRATION TraceGuidReg,
				 LPCSTR MofImagePath, LPCSTR MofResourceName,
				 TRACEGUID_HANDLE *RegistrationHandle);

ULONG WMIAPI UnregisterTraceGuids(TRACEGUID_HANDLE RegistrationHandle);

TRACELOGGER_HANDLE WMIAPI GetTraceLoggerHandle(PVOID Buffer);
UCHAR WMIAPI GetTraceEnableLevel(TRACELOGGER_HANDLE TraceHandle);
ULONG WMIAPI GetTraceEnableFlags(TRACELOGGER_HANDLE TraceHandle);

ULONG WMIAPI TraceEvent(TRACELOGGER_HANDLE TraceHandle,
			PEVENT_TRACE_HEADER EventTrace);

ULONG WMIAPI TraceEventInstance(TRACELOGGER_HANDLE TraceHandle,
				PEVENT_INSTANCE_HEADER EventTrace,
				PEVENT_INSTANCE_INFO InstInfo,
				PEVENT_INSTANCE_INFO ParentInstInfo);

ULONG WMIAPI CreateTraceInstanceId(HANDLE RegHandle,
				   PEVENT_INSTANCE_INFO InstInfo);

/* The variable arguments are (PVOID, size_t) pairs ending with (NULL, 0). */
ULONG TraceMessage(TRACELOGGER_HANDLE LoggerHandle, ULONG MessageFlags,
		   LPCGUID MessageGuid, USHORT MessageNumber, ...);
ULONG TraceMessageVa(TRACELOGGER_HANDLE LoggerHandle, ULONG MessageFlags,
		     LPCGUID MessageGuid, USHORT MessageNumber,
		     va_list MessageArgList);

/* Consumer API (etw-api.md 4.1) */

PROCESSTRACE_HANDLE WMIAPI OpenTraceW(PEVENT_TRACE_LOGFILEW Logfile);
PROCESSTRACE_HANDLE WMIAPI OpenTraceA(PEVENT_TRACE_LOGFILEA Logfile);

ULONG WMIAPI ProcessTrace(PROCESSTRACE_HANDLE *HandleArray,
			  ULONG HandleCount, LPFILETIME StartTime,
			  LPFILETIME EndTime);

ULONG WMIAPI CloseTrace(PROCESSTRACE_HANDLE TraceHandle);

#ifdef __cplusplus
}
#endif

/*
 * The information classes of EnumerateTraceGuidsEx, TraceSetInformation
 * and TraceQueryInformation, with Windows' values.
 */
typedef enum _TRACE_QUERY_INFO_CLASS {
	TraceGuidQueryList = 0,
	TraceGuidQueryInfo = 1,
	TraceGuidQueryProcess = 2,
	TraceStackTracingInfo = 3,
	TraceSystemTraceEnableFlagsInfo = 4,
	TraceSampledProfileIntervalInfo = 5,
	TraceProfileSourceConfigInfo = 6,
	TraceProfileSourceListInfo = 7,
	TracePmcEventListInfo = 8,
	TracePmcCounterListInfo = 9,
	TraceSetDisallowList = 10,
	TraceVersionInfo = 11,
	TraceGroupQueryList = 12,
	TraceGroupQueryInfo = 13,
	TraceDisallowListQuery = 14,
	TraceInfoReserved15 = 15,
	TracePeriodicCaptureStateListInfo = 16,
	TracePeriodicCaptureStateInfo = 17,
	TraceProviderBinaryTracking = 18,
	TraceMaxLoggersQuery = 19,
	TraceLbrConfigurationInfo = 20,
	TraceLbrEventListInfo = 21,
	TraceMaxPmcCounterQuery = 22,
	TraceStreamCount = 23,
	TraceStackCachingInfo = 24,
	TracePmcCounterOwners = 25,
	TraceUnifiedStackCachingInfo = 26,
	TracePmcSessionInformation = 27,
	MaxTraceSetInfoClass = 28,
	/* etw for Linux's own, where Windows has none (below). */
	TraceStackCopyInfo = 128
} TRACE_QUERY_INFO_CLASS, TRACE_INFO_CLASS;

/* A kernel event (TraceStackTracingInfo): its class GUID and opcode. */
typedef struct _CLASSIC_EVENT_ID {
	GUID EventGuid;
	UCHAR Type;
	UCHAR Reserved[7];
} CLASSIC_EVENT_ID, *PCLASSIC_EVENT_ID;

/*
 * TraceStackCopyInfo: etw for Linux's own class, where Windows has none
 * (Windows' tools skip the records it adds): Size bytes of the user stack,
 * with the user registers, copied beside each sampled stack so that code
 * built without frame pointers is unwound from its .eh_frame afterwards,
 * as perf record --call-graph dwarf does.  0 turns it off; at most
 * TRACE_STACK_COPY_MAX (32768); Documentation/stacks.rst.
 */
#define TRACE_STACK_COPY_DEFAULT	8192
#define TRACE_STACK_COPY_MAX	32768

typedef struct _TRACE_STACK_COPY {
	ULONG Size;
} TRACE_STACK_COPY, *PTRACE_STACK_COPY;

/* TraceSampledProfileIntervalInfo: Interval in 100 ns units. */
typedef struct _TRACE_PROFILE_INTERVAL {
	ULONG Source;
	ULONG Interval;
} TRACE_PROFILE_INTERVAL, *PTRACE_PROFILE_INTERVAL;

/* TraceProfileSourceListInfo: one entry per profile source. */
typedef struct _PROFILE_SOURCE_INFO {
	ULONG NextEntryOffset;
	ULONG Source;
	ULONG MinInterval;
	ULONG MaxInterval;
	ULONG64 Reserved LIBETW_ALIGN8;
	WCHAR Description[ANYSIZE_ARRAY];
} PROFILE_SOURCE_INFO, *PPROFILE_SOURCE_INFO;

#ifdef __cplusplus
extern "C" {
#endif

ULONG WMIAPI TraceSetInformation(CONTROLTRACE_ID SessionHandle,
				 TRACE_INFO_CLASS InformationClass,
				 PVOID TraceInformation,
				 ULONG InformationLength);
ULONG WMIAPI TraceQueryInformation(CONTROLTRACE_ID SessionHandle,
				   TRACE_INFO_CLASS InformationClass,
				   PVOID TraceInformation,
				   ULONG InformationLength,
				   PULONG ReturnLength);

#ifdef __cplusplus
}
#endif

/*
 * OpenTrace()'s failure value: INVALID_HANDLE_VALUE widened to 64 bits,
 * i.e. all ones in a 64-bit process and 0x00000000FFFFFFFF in a 32-bit
 * one (etw-api.md 0.2).  Going through ULONG_PTR keeps gcc from sign
 * extending the pointer.
 */
#define INVALID_PROCESSTRACE_HANDLE \
	((PROCESSTRACE_HANDLE)(ULONG_PTR)INVALID_HANDLE_VALUE)

#if defined(UNICODE) || defined(_UNICODE)
#define RegisterTraceGuids	RegisterTraceGuidsW
#define StartTrace		StartTraceW
#define ControlTrace		ControlTraceW
#if defined(__TRACE_W2K_COMPATIBLE)
#define StopTrace(a, b, c) \
	ControlTraceW((a), (b), (c), EVENT_TRACE_CONTROL_STOP)
#define QueryTrace(a, b, c) \
	ControlTraceW((a), (b), (c), EVENT_TRACE_CONTROL_QUERY)
#define UpdateTrace(a, b, c) \
	ControlTraceW((a), (b), (c), EVENT_TRACE_CONTROL_UPDATE)
#else
#define StopTrace		StopTraceW
#define QueryTrace		QueryTraceW
#define UpdateTrace		UpdateTraceW
#endif
#define FlushTrace		FlushTraceW
#define QueryAllTraces		QueryAllTracesW
#define OpenTrace		OpenTraceW
#else
#define RegisterTraceGuids	RegisterTraceGuidsA
#define StartTrace		StartTraceA
#define ControlTrace		ControlTraceA
#if defined(__TRACE_W2K_COMPATIBLE)
#define StopTrace(a, b, c) \
	ControlTraceA((a), (b), (c), EVENT_TRACE_CONTROL_STOP)
#define QueryTrace(a, b, c) \
	ControlTraceA((a), (b), (c), EVENT_TRACE_CONTROL_QUERY)
#define UpdateTrace(a, b, c) \
	ControlTraceA((a), (b), (c), EVENT_TRACE_CONTROL_UPDATE)
#else
#define StopTrace		StopTraceA
#define QueryTrace		QueryTraceA
#define UpdateTrace		UpdateTraceA
#endif
#define FlushTrace		FlushTraceA
#define QueryAllTraces		QueryAllTracesA
#define OpenTrace		OpenTraceA
#endif

/*
 * Provider enumeration.  EnumerateTraceGuids: one provider in 36 bytes
 * (etw-api.md 2.2).
 */
typedef struct _TRACE_GUID_PROPERTIES {
	GUID Guid;
	ULONG GuidType;		/* WMI_GUIDTYPE_TRACECONTROL */
	ULONG LoggerId;
	ULONG EnableLevel;
	ULONG EnableFlags;
	BOOLEAN IsEnable;
} TRACE_GUID_PROPERTIES, *PTRACE_GUID_PROPERTIES;

/* EnumerateTraceGuidsEx(TraceGuidQueryInfo): the header of the answer. */
typedef struct _TRACE_GUID_INFO {
	ULONG InstanceCount;
	ULONG Reserved;
} TRACE_GUID_INFO, *PTRACE_GUID_INFO;

/* One registration; EnableCount TRACE_ENABLE_INFO follow it. */
typedef struct _TRACE_PROVIDER_INSTANCE_INFO {
	ULONG NextOffset;	/* to the next instance, 0 for the last */
	ULONG EnableCount;
	ULONG Pid;
	ULONG Flags;
} TRACE_PROVIDER_INSTANCE_INFO, *PTRACE_PROVIDER_INSTANCE_INFO;

#define TRACE_PROVIDER_FLAG_LEGACY	0x00000001	/* RegisterTraceGuids */
#define TRACE_PROVIDER_FLAG_PRE_ENABLE	0x00000002	/* enabled, not registered */

/* One session's enable of the provider. */
typedef struct _TRACE_ENABLE_INFO {
	ULONG IsEnabled;
	UCHAR Level;
	UCHAR Reserved1;
	USHORT LoggerId;
	ULONG EnableProperty;
	ULONG Reserved2;
	ULONGLONG MatchAnyKeyword LIBETW_ALIGN8;
	ULONGLONG MatchAllKeyword LIBETW_ALIGN8;
} TRACE_ENABLE_INFO, *PTRACE_ENABLE_INFO;

#ifdef __cplusplus
extern "C" {
#endif

ULONG WMIAPI EnumerateTraceGuids(PTRACE_GUID_PROPERTIES *GuidPropertiesArray,
				 ULONG PropertyArrayCount, PULONG GuidCount);
ULONG WMIAPI EnumerateTraceGuidsEx(TRACE_QUERY_INFO_CLASS TraceQueryInfoClass,
				   PVOID InBuffer, ULONG InBufferSize,
				   PVOID OutBuffer, ULONG OutBufferSize,
				   PULONG ReturnLength);

#ifdef __cplusplus
}
#endif

/* Layouts from etw-api.md 2.2, 3.2, 3.5, 4.2, 4.3, 4.4. */
LIBETW_STATIC_ASSERT(sizeof(EVENT_TRACE_HEADER) == 48, "EVENT_TRACE_HEADER size");
LIBETW_STATIC_ASSERT(sizeof(EVENT_INSTANCE_HEADER) == 56,
		     "EVENT_INSTANCE_HEADER size");
LIBETW_STATIC_ASSERT(sizeof(MOF_FIELD) == 16, "MOF_FIELD size");
LIBETW_STATIC_ASSERT(sizeof(TRACE_GUID_PROPERTIES) == 36, "TRACE_GUID_PROPERTIES size");
LIBETW_STATIC_ASSERT(sizeof(TRACE_GUID_INFO) == 8, "TRACE_GUID_INFO size");
LIBETW_STATIC_ASSERT(sizeof(TRACE_PROVIDER_INSTANCE_INFO) == 16,
		     "TRACE_PROVIDER_INSTANCE_INFO size");
LIBETW_STATIC_ASSERT(sizeof(TRACE_ENABLE_INFO) == 32, "TRACE_ENABLE_INFO size");
LIBETW_STATIC_ASSERT(offsetof(TRACE_ENABLE_INFO, MatchAnyKeyword) == 16,
		     "TRACE_ENABLE_INFO.MatchAnyKeyword");
LIBETW_STATIC_ASSERT(sizeof(CLASSIC_EVENT_ID) == 24, "CLASSIC_EVENT_ID size");
LIBETW_STATIC_ASSERT(sizeof(TRACE_PROFILE_INTERVAL) == 8,
		     "TRACE_PROFILE_INTERVAL size");
LIBETW_STATIC_ASSERT(offsetof(PROFILE_SOURCE_INFO, Description) == 24,
		     "PROFILE_SOURCE_INFO.Description");
LIBETW_STATIC_ASSERT(sizeof(ETW_BUFFER_CONTEXT) == 4, "ETW_BUFFER_CONTEXT size");
LIBETW_STATIC_ASSERT(sizeof(TRACE_LOGFILE_HEADER32) == 272,
		     "TRACE_LOGFILE_HEADER32 size");
LIBETW_STATIC_ASSERT(sizeof(TRACE_LOGFILE_HEADER64) == 280,
		     "TRACE_LOGFILE_HEADER64 size");
LIBETW_STATIC_ASSERT(offsetof(TRACE_LOGFILE_HEADER64, BootTime) == 248,
		     "TRACE_LOGFILE_HEADER64.BootTime");
LIBETW_STATIC_ASSERT(offsetof(TRACE_LOGFILE_HEADER32, BootTime) == 240,
		     "TRACE_LOGFILE_HEADER32.BootTime");

#if __SIZEOF_POINTER__ == 8
LIBETW_STATIC_ASSERT(sizeof(EVENT_TRACE_PROPERTIES) == 120,
		     "EVENT_TRACE_PROPERTIES size");
LIBETW_STATIC_ASSERT(offsetof(EVENT_TRACE_PROPERTIES, LoggerThreadId) == 104,
		     "EVENT_TRACE_PROPERTIES.LoggerThreadId");
LIBETW_STATIC_ASSERT(sizeof(EVENT_TRACE_PROPERTIES_V2) == 144,
		     "EVENT_TRACE_PROPERTIES_V2 size");
LIBETW_STATIC_ASSERT(sizeof(TRACE_LOGFILE_HEADER) == 280,
		     "TRACE_LOGFILE_HEADER size");
LIBETW_STATIC_ASSERT(sizeof(EVENT_TRACE) == 88, "EVENT_TRACE size");
LIBETW_STATIC_ASSERT(sizeof(EVENT_TRACE_LOGFILEW) == 448,
		     "EVENT_TRACE_LOGFILEW size");
LIBETW_STATIC_ASSERT(sizeof(EVENT_TRACE_LOGFILEA) == 448,
		     "EVENT_TRACE_LOGFILEA size");
LIBETW_STATIC_ASSERT(offsetof(EVENT_TRACE_LOGFILEW, LogfileHeader) == 120,
		     "EVENT_TRACE_LOGFILEW.LogfileHeader");
LIBETW_STATIC_ASSERT(sizeof(ENABLE_TRACE_PARAMETERS_V1) == 40,
		     "ENABLE_TRACE_PARAMETERS_V1 size");
LIBETW_STATIC_ASSERT(sizeof(ENABLE_TRACE_PARAMETERS) == 48,
		     "ENABLE_TRACE_PARAMETERS size");
LIBETW_STATIC_ASSERT(sizeof(TRACE_GUID_REGISTRATION) == 16,
		     "TRACE_GUID_REGISTRATION size");
LIBETW_STATIC_ASSERT(sizeof(EVENT_INSTANCE_INFO) == 16,
		     "EVENT_INSTANCE_INFO size");
#elif __SIZEOF_POINTER__ == 4
/* A 32-bit process writes the _32 form of the header (etw-api.md 4.4). */
LIBETW_STATIC_ASSERT(sizeof(TRACE_LOGFILE_HEADER) == 272,
		     "TRACE_LOGFILE_HEADER size, 32-bit");
LIBETW_STATIC_ASSERT(offsetof(TRACE_LOGFILE_HEADER, TimeZone) == 64,
		     "TRACE_LOGFILE_HEADER.TimeZone, 32-bit");
#endif

#endif /* LIBETW_EVNTRACE_H */
