// SPDX-License-Identifier: GPL-2.0
/*
 * The Windows-compatible headers compile as C++ (-fsyntax-only, -m64 and
 * -m32, -Wall -Wextra -Werror), with UNICODE: the generic names must then
 * be the W ones, TEXT() a UTF-16 literal, and the GUID helpers take
 * references as on Windows.  Only C headers may be included here: the
 * -m32 check has no 32-bit libstdc++.
 */
#define UNICODE
#define _UNICODE

#include <initguid.h>	/* the C++ form of DEFINE_GUID's definitions */
#include <windows.h>
#include <winerror.h>
#include <guiddef.h>
#include <tchar.h>
#include <wmistr.h>
#include <evntprov.h>
#include <evntrace.h>
#include <evntcons.h>
#include <tdh.h>

#include <stddef.h>

template <typename A, typename B> struct same_type {
	static const bool value = false;
};

template <typename A> struct same_type<A, A> {
	static const bool value = true;
};

#define SAME(a, ...)	static_assert(same_type<a, __VA_ARGS__>::value, #a)

/* With UNICODE, the generic names are the W variants (etw-api.md 3.1). */
SAME(decltype(&StartTrace), decltype(&StartTraceW));
SAME(decltype(&ControlTrace), decltype(&ControlTraceW));
SAME(decltype(&StopTrace), decltype(&StopTraceW));
SAME(decltype(&QueryTrace), decltype(&QueryTraceW));
SAME(decltype(&UpdateTrace), decltype(&UpdateTraceW));
SAME(decltype(&FlushTrace), decltype(&FlushTraceW));
SAME(decltype(&QueryAllTraces), decltype(&QueryAllTracesW));
SAME(decltype(&OpenTrace), decltype(&OpenTraceW));
SAME(decltype(&RegisterTraceGuids), decltype(&RegisterTraceGuidsW));
SAME(EVENT_TRACE_LOGFILE, EVENT_TRACE_LOGFILEW);
SAME(PEVENT_TRACE_BUFFER_CALLBACK, PEVENT_TRACE_BUFFER_CALLBACKW);
SAME(decltype(&StartTraceW),
     ULONG (*)(CONTROLTRACE_ID *, const char16_t *, PEVENT_TRACE_PROPERTIES));
SAME(decltype(&OpenTraceW), ULONG64 (*)(EVENT_TRACE_LOGFILEW *));
SAME(decltype(&EventWriteString),
     ULONG (*)(REGHANDLE, UCHAR, ULONGLONG, const char16_t *));

/* UTF-16 strings: u"" literals, the size Windows' L"" ones have. */
SAME(TCHAR, char16_t);
SAME(_TCHAR, char16_t);
SAME(decltype(TEXT("x")), const char16_t (&)[2]);
SAME(decltype(_T("x")), const char16_t (&)[2]);
SAME(decltype(KERNEL_LOGGER_NAME), const char16_t (&)[17]);
SAME(decltype(KERNEL_LOGGER_NAMEA), const char (&)[17]);
static_assert(sizeof(WCHAR) == 2, "WCHAR");

/* Key layouts, as seen by a C++ compiler (etw-api.md 1.2, 2.2, 4.3). */
static_assert(sizeof(EVENT_DESCRIPTOR) == 16, "EVENT_DESCRIPTOR");
static_assert(offsetof(EVENT_DESCRIPTOR, Task) == 6, "EVENT_DESCRIPTOR.Task");
static_assert(sizeof(WNODE_HEADER) == 48, "WNODE_HEADER");
static_assert(offsetof(WNODE_HEADER, Flags) == 44, "WNODE_HEADER.Flags");
static_assert(sizeof(EVENT_HEADER) == 80, "EVENT_HEADER");
static_assert(offsetof(EVENT_HEADER, ActivityId) == 64, "EVENT_HEADER.ActivityId");
static_assert(sizeof(EVENT_TRACE_HEADER) == 48, "EVENT_TRACE_HEADER");
#if __SIZEOF_POINTER__ == 8
static_assert(sizeof(EVENT_RECORD) == 112, "EVENT_RECORD");
static_assert(offsetof(EVENT_RECORD, UserContext) == 104,
	      "EVENT_RECORD.UserContext");
static_assert(sizeof(EVENT_TRACE_PROPERTIES) == 120, "EVENT_TRACE_PROPERTIES");
static_assert(sizeof(EVENT_TRACE_LOGFILEW) == 448, "EVENT_TRACE_LOGFILEW");
static_assert(offsetof(EVENT_TRACE_LOGFILEW, Context) == 440,
	      "EVENT_TRACE_LOGFILEW.Context");
#endif

/* Constants usable in constant expressions, as switch labels are. */
static_assert(ERROR_WMI_INSTANCE_NOT_FOUND == 4201, "error code");
static_assert(EVENT_TRACE_REAL_TIME_MODE == 0x100, "LogFileMode");
static_assert(PROCESS_TRACE_MODE_EVENT_RECORD == 0x10000000, "ProcessTraceMode");
static_assert(EVENT_ENABLE_PROPERTY_STACK_TRACE == 4, "EnableProperty");

int cxx_use_headers(const GUID &a, PEVENT_RECORD rec);

/* The inline helpers and the C++ GUID comparisons compile as C++. */
int cxx_use_headers(const GUID &a, PEVENT_RECORD rec)
{
	EVENT_DESCRIPTOR desc;
	EVENT_DATA_DESCRIPTOR data;
	PVOID trait;
	USHORT size;
	int ret = 0;

	EventDescCreate(&desc, 1, 0, 11, TRACE_LEVEL_INFORMATION, 0,
			EVENT_TRACE_TYPE_INFO, 0);
	EventDescOrKeyword(EventDescSetLevel(&desc, 5), 1);
	EventDataDescCreate(&data, &desc, sizeof(desc));
	EtwGetTraitFromProviderTraits(rec->UserData, EtwProviderTraitTypeGroup,
				      &trait, &size);

	ret += a == SystemTraceControlGuid;
	ret += a != EventTraceGuid;
	ret += IsEqualGUID(a, SystemProcessProviderGuid);
	ret += InlineIsEqualGUID(a, a);
	ret += (int)GetEventProcessorIndex(rec);
	ret += EventDescGetLevel(&desc) + (int)data.Size + size;
	return ret;
}
