/* SPDX-License-Identifier: MIT */
/*
 * tdh.h for libetw: the Trace Data Helper API of Windows' tdh.h (tdh.dll),
 * with Windows' structures, layouts and values (Microsoft Learn, "tdh.h
 * header"; etw-api.md 5.1).  One description of an event serves every
 * decoding source: TRACE_EVENT_INFO, its EVENT_PROPERTY_INFO array and the
 * strings after it, addressed by byte offsets from the start of the
 * TRACE_EVENT_INFO; EVENT_MAP_INFO for value and bit maps.
 *
 * Functions return a Win32 error code (TDHSTATUS): ERROR_SUCCESS,
 * ERROR_INSUFFICIENT_BUFFER with the size needed in *BufferSize,
 * ERROR_NOT_FOUND when no decoding source knows the event,
 * ERROR_INVALID_PARAMETER, ERROR_EVT_INVALID_EVENT_DATA when the event's
 * data does not match its description.  As in Windows' header, the unions
 * are anonymous even with NONAMELESSUNION.
 */
#ifndef LIBETW_TDH_H
#define LIBETW_TDH_H

#include "windows.h"
#include "evntcons.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Windows' winerror.h has it; the TDH functions return it. */
#ifndef ERROR_EVT_INVALID_EVENT_DATA
#define ERROR_EVT_INVALID_EVENT_DATA	15005
#endif

typedef ULONG TDHSTATUS;
#define TDHAPI	TDHSTATUS WINAPI

/* EVENT_PROPERTY_INFO.nonStructType.InType */
enum _TDH_IN_TYPE {
	TDH_INTYPE_NULL = 0,
	TDH_INTYPE_UNICODESTRING = 1,
	TDH_INTYPE_ANSISTRING = 2,
	TDH_INTYPE_INT8 = 3,
	TDH_INTYPE_UINT8 = 4,
	TDH_INTYPE_INT16 = 5,
	TDH_INTYPE_UINT16 = 6,
	TDH_INTYPE_INT32 = 7,
	TDH_INTYPE_UINT32 = 8,
	TDH_INTYPE_INT64 = 9,
	TDH_INTYPE_UINT64 = 10,
	TDH_INTYPE_FLOAT = 11,
	TDH_INTYPE_DOUBLE = 12,
	TDH_INTYPE_BOOLEAN = 13,		/* 4-byte BOOL */
	TDH_INTYPE_BINARY = 14,
	TDH_INTYPE_GUID = 15,
	TDH_INTYPE_POINTER = 16,		/* PointerSize bytes */
	TDH_INTYPE_FILETIME = 17,
	TDH_INTYPE_SYSTEMTIME = 18,
	TDH_INTYPE_SID = 19,
	TDH_INTYPE_HEXINT32 = 20,
	TDH_INTYPE_HEXINT64 = 21,
	TDH_INTYPE_MANIFEST_COUNTEDSTRING = 22,
	TDH_INTYPE_MANIFEST_COUNTEDANSISTRING = 23,
	TDH_INTYPE_RESERVED24 = 24,
	TDH_INTYPE_MANIFEST_COUNTEDBINARY = 25,
	/* The MOF (WBEM) classes' own types. */
	TDH_INTYPE_COUNTEDSTRING = 300,
	TDH_INTYPE_COUNTEDANSISTRING = 301,
	TDH_INTYPE_REVERSEDCOUNTEDSTRING = 302,
	TDH_INTYPE_REVERSEDCOUNTEDANSISTRING = 303,
	TDH_INTYPE_NONNULLTERMINATEDSTRING = 304,
	TDH_INTYPE_NONNULLTERMINATEDANSISTRING = 305,
	TDH_INTYPE_UNICODECHAR = 306,
	TDH_INTYPE_ANSICHAR = 307,
	TDH_INTYPE_SIZET = 308,			/* PointerSize bytes */
	TDH_INTYPE_HEXDUMP = 309,
	TDH_INTYPE_WBEMSID = 310		/* TOKEN_USER, then the SID */
};

/* EVENT_PROPERTY_INFO.nonStructType.OutType */
enum _TDH_OUT_TYPE {
	TDH_OUTTYPE_NULL = 0,
	TDH_OUTTYPE_STRING = 1,
	TDH_OUTTYPE_DATETIME = 2,
	TDH_OUTTYPE_BYTE = 3,
	TDH_OUTTYPE_UNSIGNEDBYTE = 4,
	TDH_OUTTYPE_SHORT = 5,
	TDH_OUTTYPE_UNSIGNEDSHORT = 6,
	TDH_OUTTYPE_INT = 7,
	TDH_OUTTYPE_UNSIGNEDINT = 8,
	TDH_OUTTYPE_LONG = 9,
	TDH_OUTTYPE_UNSIGNEDLONG = 10,
	TDH_OUTTYPE_FLOAT = 11,
	TDH_OUTTYPE_DOUBLE = 12,
	TDH_OUTTYPE_BOOLEAN = 13,
	TDH_OUTTYPE_GUID = 14,
	TDH_OUTTYPE_HEXBINARY = 15,
	TDH_OUTTYPE_HEXINT8 = 16,
	TDH_OUTTYPE_HEXINT16 = 17,
	TDH_OUTTYPE_HEXINT32 = 18,
	TDH_OUTTYPE_HEXINT64 = 19,
	TDH_OUTTYPE_PID = 20,
	TDH_OUTTYPE_TID = 21,
	TDH_OUTTYPE_PORT = 22,
	TDH_OUTTYPE_IPV4 = 23,
	TDH_OUTTYPE_IPV6 = 24,
	TDH_OUTTYPE_SOCKETADDRESS = 25,
	TDH_OUTTYPE_CIMDATETIME = 26,
	TDH_OUTTYPE_ETWTIME = 27,
	TDH_OUTTYPE_XML = 28,
	TDH_OUTTYPE_ERRORCODE = 29,
	TDH_OUTTYPE_WIN32ERROR = 30,
	TDH_OUTTYPE_NTSTATUS = 31,
	TDH_OUTTYPE_HRESULT = 32,
	TDH_OUTTYPE_CULTURE_INSENSITIVE_DATETIME = 33,
	TDH_OUTTYPE_JSON = 34,
	TDH_OUTTYPE_UTF8 = 35,
	TDH_OUTTYPE_PKCS7_WITH_TYPE_INFO = 36,
	TDH_OUTTYPE_CODE_POINTER = 37,
	TDH_OUTTYPE_DATETIME_UTC = 38,
	TDH_OUTTYPE_REDUCEDSTRING = 300,
	TDH_OUTTYPE_NOPRINT = 301
};

/* EVENT_MAP_INFO.Flag */
typedef enum _MAP_FLAGS {
	EVENTMAP_INFO_FLAG_MANIFEST_VALUEMAP = 0x1,
	EVENTMAP_INFO_FLAG_MANIFEST_BITMAP = 0x2,
	EVENTMAP_INFO_FLAG_MANIFEST_PATTERNMAP = 0x4,
	EVENTMAP_INFO_FLAG_WBEM_VALUEMAP = 0x8,
	EVENTMAP_INFO_FLAG_WBEM_BITMAP = 0x10,
	EVENTMAP_INFO_FLAG_WBEM_FLAG = 0x20,
	EVENTMAP_INFO_FLAG_WBEM_NO_MAP = 0x40
} MAP_FLAGS;

typedef enum _MAP_VALUETYPE {
	EVENTMAP_ENTRY_VALUETYPE_ULONG = 0,
	EVENTMAP_ENTRY_VALUETYPE_STRING = 1
} MAP_VALUETYPE;

typedef struct _EVENT_MAP_ENTRY {
	ULONG OutputOffset;		/* the entry's name */
	union {
		ULONG Value;		/* value and bit maps */
		ULONG InputOffset;	/* pattern maps, WBEM string maps */
	};
} EVENT_MAP_ENTRY, *PEVENT_MAP_ENTRY;

/* A map: offsets are from the start of the EVENT_MAP_INFO. */
typedef struct _EVENT_MAP_INFO {
	ULONG NameOffset;
	MAP_FLAGS Flag;
	ULONG EntryCount;
	union {
		MAP_VALUETYPE MapEntryValueType;
		ULONG FormatStringOffset;
	};
	EVENT_MAP_ENTRY MapEntryArray[ANYSIZE_ARRAY];
} EVENT_MAP_INFO, *PEVENT_MAP_INFO;

/* EVENT_PROPERTY_INFO.Flags */
typedef enum _PROPERTY_FLAGS {
	PropertyStruct = 0x1,
	PropertyParamLength = 0x2,	/* length: index of the length property */
	PropertyParamCount = 0x4,	/* count: index of the count property */
	PropertyWBEMXmlFragment = 0x8,
	PropertyParamFixedLength = 0x10,
	PropertyParamFixedCount = 0x20,
	PropertyHasTags = 0x40,
	PropertyHasCustomSchema = 0x80
} PROPERTY_FLAGS;

/*
 * The three forms of a property (C++ allows no type defined inside an
 * anonymous union, so they are defined here; the layout is Windows').
 */
struct _nonStructType {
	USHORT InType;			/* TDH_INTYPE_* */
	USHORT OutType;			/* TDH_OUTTYPE_* */
	ULONG MapNameOffset;		/* 0: no map */
};

struct _structType {
	USHORT StructStartIndex;
	USHORT NumOfStructMembers;
	ULONG padding;
};

struct _customSchemaType {
	USHORT InType;
	USHORT OutType;
	ULONG CustomSchemaOffset;
};

typedef struct _EVENT_PROPERTY_INFO {
	PROPERTY_FLAGS Flags;
	ULONG NameOffset;
	union {
		struct _nonStructType nonStructType;
		struct _structType structType;
		struct _customSchemaType customSchemaType;
	};
	union {
		USHORT count;
		USHORT countPropertyIndex;
	};
	union {
		USHORT length;
		USHORT lengthPropertyIndex;
	};
	union {
		ULONG Reserved;
		__extension__ struct {
			ULONG Tags : 28;
		};
	};
} EVENT_PROPERTY_INFO, *PEVENT_PROPERTY_INFO;

typedef enum _DECODING_SOURCE {
	DecodingSourceXMLFile = 0,	/* manifests */
	DecodingSourceWbem = 1,		/* MOF classes: kernel and classic */
	DecodingSourceWPP = 2,
	DecodingSourceTlg = 3,		/* TraceLogging */
	DecodingSourceMax = 4
} DECODING_SOURCE;

typedef enum _TEMPLATE_FLAGS {
	TEMPLATE_EVENT_DATA = 1,
	TEMPLATE_USER_DATA = 2,
	TEMPLATE_CONTROL_GUID = 4
} TEMPLATE_FLAGS;

/*
 * The description of an event: 112 bytes, then PropertyCount
 * EVENT_PROPERTY_INFO of 24 bytes, then the strings (UTF-16, NUL-ended)
 * and whatever else the offsets point to.  An offset of 0 is "none".
 */
typedef struct _TRACE_EVENT_INFO {
	GUID ProviderGuid;
	GUID EventGuid;			/* the MOF class of classic events */
	EVENT_DESCRIPTOR EventDescriptor;
	DECODING_SOURCE DecodingSource;
	ULONG ProviderNameOffset;
	ULONG LevelNameOffset;
	ULONG ChannelNameOffset;
	ULONG KeywordsNameOffset;
	ULONG TaskNameOffset;
	ULONG OpcodeNameOffset;
	ULONG EventMessageOffset;
	ULONG ProviderMessageOffset;
	ULONG BinaryXMLOffset;
	ULONG BinaryXMLSize;
	union {
		ULONG EventNameOffset;
		ULONG ActivityIDNameOffset;	/* WPP */
	};
	union {
		ULONG EventAttributesOffset;
		ULONG RelatedActivityIDNameOffset;	/* WPP */
	};
	ULONG PropertyCount;
	ULONG TopLevelPropertyCount;
	union {
		TEMPLATE_FLAGS Flags;
		__extension__ struct {
			ULONG Reserved : 4;
			ULONG Tags : 28;
		};
	};
	EVENT_PROPERTY_INFO EventPropertyInfoArray[ANYSIZE_ARRAY];
} TRACE_EVENT_INFO, *PTRACE_EVENT_INFO;

typedef const TRACE_EVENT_INFO *PCTRACE_EVENT_INFO;

/* TdhGetProperty / TdhGetPropertySize: which property (and element). */
typedef struct _PROPERTY_DATA_DESCRIPTOR {
	ULONGLONG PropertyName LIBETW_ALIGN8;	/* a PCWSTR, widened */
	ULONG ArrayIndex;		/* ULONG_MAX: the whole array */
	ULONG Reserved;
} PROPERTY_DATA_DESCRIPTOR, *PPROPERTY_DATA_DESCRIPTOR;

typedef struct _TRACE_PROVIDER_INFO {
	GUID ProviderGuid;
	ULONG SchemaSource;		/* DECODING_SOURCE */
	ULONG ProviderNameOffset;	/* from the PROVIDER_ENUMERATION_INFO */
} TRACE_PROVIDER_INFO;

typedef struct _PROVIDER_ENUMERATION_INFO {
	ULONG NumberOfProviders;
	ULONG Reserved;
	TRACE_PROVIDER_INFO TraceProviderInfoArray[ANYSIZE_ARRAY];
} PROVIDER_ENUMERATION_INFO, *PPROVIDER_ENUMERATION_INFO;

typedef struct _PROVIDER_FIELD_INFO {
	ULONG NameOffset;		/* from the PROVIDER_FIELD_INFOARRAY */
	ULONG DescriptionOffset;
	ULONGLONG Value LIBETW_ALIGN8;
} PROVIDER_FIELD_INFO;

typedef enum _EVENT_FIELD_TYPE {
	EventKeywordInformation = 0,
	EventLevelInformation = 1,
	EventChannelInformation = 2,
	EventTaskInformation = 3,
	EventOpcodeInformation = 4,
	EventInformationMax = 5
} EVENT_FIELD_TYPE;

typedef struct _PROVIDER_FIELD_INFOARRAY {
	ULONG NumberOfElements;
	EVENT_FIELD_TYPE FieldType;
	PROVIDER_FIELD_INFO FieldInfoArray[ANYSIZE_ARRAY];
} PROVIDER_FIELD_INFOARRAY, *PPROVIDER_FIELD_INFOARRAY;

typedef struct _PROVIDER_EVENT_INFO {
	ULONG NumberOfEvents;
	ULONG Reserved;
	EVENT_DESCRIPTOR EventDescriptorsArray[ANYSIZE_ARRAY];
} PROVIDER_EVENT_INFO, *PPROVIDER_EVENT_INFO;

typedef enum _TDH_CONTEXT_TYPE {
	TDH_CONTEXT_WPP_TMFFILE = 0,
	TDH_CONTEXT_WPP_TMFSEARCHPATH = 1,
	TDH_CONTEXT_WPP_GMT = 2,
	TDH_CONTEXT_POINTERSIZE = 3,
	TDH_CONTEXT_PDB_PATH = 4,
	TDH_CONTEXT_MAXIMUM = 5
} TDH_CONTEXT_TYPE;

typedef struct _TDH_CONTEXT {
	ULONGLONG ParameterValue LIBETW_ALIGN8;	/* a value or a pointer */
	TDH_CONTEXT_TYPE ParameterType;
	ULONG ParameterSize;
} TDH_CONTEXT, *PTDH_CONTEXT;

typedef HANDLE TDH_HANDLE, *PTDH_HANDLE;

TDHAPI TdhGetEventInformation(PEVENT_RECORD Event, ULONG TdhContextCount,
			      PTDH_CONTEXT TdhContext,
			      PTRACE_EVENT_INFO Buffer, PULONG BufferSize);

TDHAPI TdhGetEventMapInformation(PEVENT_RECORD pEvent, PWSTR pMapName,
				 PEVENT_MAP_INFO pBuffer, ULONG *pBufferSize);

TDHAPI TdhGetPropertySize(PEVENT_RECORD pEvent, ULONG TdhContextCount,
			  PTDH_CONTEXT pTdhContext, ULONG PropertyDataCount,
			  PPROPERTY_DATA_DESCRIPTOR pPropertyData,
			  ULONG *pPropertySize);

TDHAPI TdhGetProperty(PEVENT_RECORD pEvent, ULONG TdhContextCount,
		      PTDH_CONTEXT pTdhContext, ULONG PropertyDataCount,
		      PPROPERTY_DATA_DESCRIPTOR pPropertyData,
		      ULONG BufferSize, PBYTE pBuffer);

TDHAPI TdhFormatProperty(PTRACE_EVENT_INFO EventInfo,
			 PEVENT_MAP_INFO MapInfo, ULONG PointerSize,
			 USHORT PropertyInType, USHORT PropertyOutType,
			 USHORT PropertyLength, USHORT UserDataLength,
			 PBYTE UserData, PULONG BufferSize, PWCHAR Buffer,
			 PUSHORT UserDataConsumed);

TDHAPI TdhEnumerateProviders(PPROVIDER_ENUMERATION_INFO pBuffer,
			     ULONG *pBufferSize);

TDHAPI TdhEnumerateProvidersForDecodingSource(DECODING_SOURCE filter,
					      PPROVIDER_ENUMERATION_INFO buffer,
					      ULONG bufferSize,
					      PULONG bufferRequired);

TDHAPI TdhEnumerateProviderFieldInformation(LPGUID pGuid,
					    EVENT_FIELD_TYPE EventFieldType,
					    PPROVIDER_FIELD_INFOARRAY pBuffer,
					    ULONG *pBufferSize);

TDHAPI TdhQueryProviderFieldInformation(LPGUID pGuid,
					ULONGLONG EventFieldValue,
					EVENT_FIELD_TYPE EventFieldType,
					PPROVIDER_FIELD_INFOARRAY pBuffer,
					ULONG *pBufferSize);

TDHAPI TdhEnumerateManifestProviderEvents(LPGUID ProviderGuid,
					  PPROVIDER_EVENT_INFO Buffer,
					  ULONG *BufferSize);

TDHAPI TdhGetManifestEventInformation(LPGUID ProviderGuid,
				      PEVENT_DESCRIPTOR EventDescriptor,
				      PTRACE_EVENT_INFO Buffer,
				      ULONG *BufferSize);

TDHAPI TdhLoadManifest(PWSTR Manifest);
TDHAPI TdhLoadManifestFromMemory(LPCVOID pData, ULONG cbData);
TDHAPI TdhLoadManifestFromBinary(PWSTR BinaryPath);
TDHAPI TdhUnloadManifest(PWSTR Manifest);
TDHAPI TdhUnloadManifestFromMemory(LPCVOID pData, ULONG cbData);

/*
 * Payload filters (Windows 8.1): one filter per event from the manifest's
 * field names, aggregated into an EVENT_FILTER_TYPE_PAYLOAD descriptor for
 * EnableTraceEx2.  Documentation/tdh.rst, "Payload filters".
 */
#define MAX_PAYLOAD_PREDICATES		8
#define ETW_MAX_PAYLOAD_PREDICATES	MAX_PAYLOAD_PREDICATES

typedef enum _PAYLOAD_OPERATOR {
	PAYLOADFIELD_EQ = 0,
	PAYLOADFIELD_NE = 1,
	PAYLOADFIELD_LE = 2,
	PAYLOADFIELD_GT = 3,
	PAYLOADFIELD_LT = 4,
	PAYLOADFIELD_GE = 5,
	PAYLOADFIELD_BETWEEN = 6,
	PAYLOADFIELD_NOTBETWEEN = 7,
	PAYLOADFIELD_MODULO = 8,
	PAYLOADFIELD_CONTAINS = 20,
	PAYLOADFIELD_DOESNTCONTAIN = 21,
	PAYLOADFIELD_IS = 30,
	PAYLOADFIELD_ISNOT = 31,
	PAYLOADFIELD_INVALID = 32
} PAYLOAD_OPERATOR;

typedef struct _PAYLOAD_FILTER_PREDICATE {
	LPWSTR FieldName;
	USHORT CompareOp;
	LPWSTR Value;
} PAYLOAD_FILTER_PREDICATE, *PPAYLOAD_FILTER_PREDICATE;

TDHAPI TdhCreatePayloadFilter(LPCGUID ProviderGuid,
			      PCEVENT_DESCRIPTOR EventDescriptor,
			      BOOLEAN EventMatchANY,
			      ULONG PayloadPredicateCount,
			      PPAYLOAD_FILTER_PREDICATE PayloadPredicates,
			      PVOID *PayloadFilter);
TDHAPI TdhDeletePayloadFilter(PVOID *PayloadFilter);
TDHAPI TdhAggregatePayloadFilters(ULONG PayloadFilterCount,
				  PVOID *PayloadFilterPtrs,
				  PBOOLEAN EventMatchALLFlags,
				  PEVENT_FILTER_DESCRIPTOR EventFilterDescriptor);
TDHAPI TdhCleanupPayloadEventFilterDescriptor(PEVENT_FILTER_DESCRIPTOR EventFilterDescriptor);

TDHAPI TdhOpenDecodingHandle(PTDH_HANDLE Handle);
TDHAPI TdhCloseDecodingHandle(TDH_HANDLE Handle);
TDHAPI TdhSetDecodingParameter(TDH_HANDLE Handle, PTDH_CONTEXT TdhContext);
TDHAPI TdhGetDecodingParameter(TDH_HANDLE Handle, PTDH_CONTEXT TdhContext);
TDHAPI TdhGetWppMessage(TDH_HANDLE Handle, PEVENT_RECORD EventRecord,
			PULONG BufferSize, PBYTE Buffer);
TDHAPI TdhGetWppProperty(TDH_HANDLE Handle, PEVENT_RECORD EventRecord,
			 PWSTR PropertyName, PULONG BufferSize, PBYTE Buffer);

/* The helpers of Windows' tdh.h: a string at an offset, or NULL if 0. */
#define LIBETW_TDH_AT(base, off) \
	((off) ? (PWSTR)((PBYTE)(base) + (off)) : (PWSTR)NULL)

static inline PWSTR EMI_MAP_NAME(PEVENT_MAP_INFO MapInfo)
{
	return LIBETW_TDH_AT(MapInfo, MapInfo->NameOffset);
}

static inline PWSTR EMI_MAP_FORMAT(PEVENT_MAP_INFO MapInfo)
{
	if (MapInfo->FormatStringOffset &&
	    (MapInfo->Flag & EVENTMAP_INFO_FLAG_MANIFEST_PATTERNMAP))
		return LIBETW_TDH_AT(MapInfo, MapInfo->FormatStringOffset);
	return NULL;
}

static inline PWSTR EMI_MAP_OUTPUT(PEVENT_MAP_INFO MapInfo,
				   PEVENT_MAP_ENTRY Map)
{
	return LIBETW_TDH_AT(MapInfo, Map->OutputOffset);
}

static inline PWSTR EMI_MAP_INPUT(PEVENT_MAP_INFO MapInfo,
				  PEVENT_MAP_ENTRY Map)
{
	if ((MapInfo->Flag & EVENTMAP_INFO_FLAG_MANIFEST_PATTERNMAP) &&
	    Map->InputOffset)
		return LIBETW_TDH_AT(MapInfo, Map->InputOffset);
	return NULL;
}

static inline PWSTR TEI_MAP_NAME(PTRACE_EVENT_INFO EventInfo,
				 PEVENT_PROPERTY_INFO Property)
{
	return LIBETW_TDH_AT(EventInfo, Property->nonStructType.MapNameOffset);
}

static inline PWSTR TEI_PROPERTY_NAME(PTRACE_EVENT_INFO EventInfo,
				      PEVENT_PROPERTY_INFO Property)
{
	return LIBETW_TDH_AT(EventInfo, Property->NameOffset);
}

static inline PWSTR TEI_PROVIDER_NAME(PTRACE_EVENT_INFO EventInfo)
{
	return LIBETW_TDH_AT(EventInfo, EventInfo->ProviderNameOffset);
}

static inline PWSTR TEI_LEVEL_NAME(PTRACE_EVENT_INFO EventInfo)
{
	return LIBETW_TDH_AT(EventInfo, EventInfo->LevelNameOffset);
}

static inline PWSTR TEI_CHANNEL_NAME(PTRACE_EVENT_INFO EventInfo)
{
	return LIBETW_TDH_AT(EventInfo, EventInfo->ChannelNameOffset);
}

static inline PWSTR TEI_KEYWORDS_NAME(PTRACE_EVENT_INFO EventInfo)
{
	return LIBETW_TDH_AT(EventInfo, EventInfo->KeywordsNameOffset);
}

static inline PWSTR TEI_TASK_NAME(PTRACE_EVENT_INFO EventInfo)
{
	return LIBETW_TDH_AT(EventInfo, EventInfo->TaskNameOffset);
}

static inline PWSTR TEI_OPCODE_NAME(PTRACE_EVENT_INFO EventInfo)
{
	return LIBETW_TDH_AT(EventInfo, EventInfo->OpcodeNameOffset);
}

static inline PWSTR TEI_EVENT_MESSAGE(PTRACE_EVENT_INFO EventInfo)
{
	return LIBETW_TDH_AT(EventInfo, EventInfo->EventMessageOffset);
}

static inline PWSTR TEI_PROVIDER_MESSAGE(PTRACE_EVENT_INFO EventInfo)
{
	return LIBETW_TDH_AT(EventInfo, EventInfo->ProviderMessageOffset);
}

static inline PWSTR TEI_ACTIVITYID_NAME(PTRACE_EVENT_INFO EventInfo)
{
	return LIBETW_TDH_AT(EventInfo, EventInfo->ActivityIDNameOffset);
}

static inline PWSTR TEI_RELATEDACTIVITYID_NAME(PTRACE_EVENT_INFO EventInfo)
{
	return LIBETW_TDH_AT(EventInfo,
			     EventInfo->RelatedActivityIDNameOffset);
}

static inline PWSTR PEI_PROVIDER_NAME(PPROVIDER_ENUMERATION_INFO ProviderEnum,
				      TRACE_PROVIDER_INFO *ProviderInfo)
{
	return LIBETW_TDH_AT(ProviderEnum, ProviderInfo->ProviderNameOffset);
}

static inline PWSTR PFI_FIELD_NAME(PPROVIDER_FIELD_INFOARRAY FieldInfoArray,
				   PROVIDER_FIELD_INFO *FieldInfo)
{
	return LIBETW_TDH_AT(FieldInfoArray, FieldInfo->NameOffset);
}

static inline PWSTR PFI_FIELD_MESSAGE(PPROVIDER_FIELD_INFOARRAY FieldInfoArray,
				      PROVIDER_FIELD_INFO *FieldInfo)
{
	return LIBETW_TDH_AT(FieldInfoArray, FieldInfo->DescriptionOffset);
}

#ifdef __cplusplus
}
#endif

#endif /* LIBETW_TDH_H */
