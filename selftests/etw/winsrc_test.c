// SPDX-License-Identifier: GPL-2.0
/*
 * ETW the way Microsoft's samples write it (tracelog.c, the Learn pages'
 * controller, provider and consumer examples): UNICODE, TEXT() names,
 * EVENT_TRACE_PROPERTIES from malloc and ZeroMemory, StringCb* for the
 * file name, the W functions, wide event strings.  Built twice: in
 * Windows-source mode (winsrc_test: -fshort-wchar, L"" text) and in the
 * default mode (winsrc_test_default: u"" text), with the same results.
 *
 * A controller starts a file session, queries, updates and flushes it;
 * a provider's string and wide-field events go into it; the controller
 * stops it; a consumer reads the file back and formats each event with
 * StringCchPrintfW, as the samples print them.
 */
#include "kselftest_harness.h"

#define UNICODE
#define _UNICODE
#include <windows.h>
#include <etw_win32.h>
#include <strsafe.h>
#include <tchar.h>
#include <wmistr.h>
#include <evntprov.h>
#include <evntrace.h>
#include <evntcons.h>
#include <winternl.h>

#include "etw_selftests.h"

#define MAXSTR		1024
#define SESSION		TEXT("etwtest-winsrc")
#define LOGFILE		TEXT("/tmp/etwtest-winsrc.etl")

/* {7b1e0d2a-1c3f-4a5b-9e8d-6f7a8b9c0d1e} */
static const GUID ProviderGuid = { 0x7b1e0d2a, 0x1c3f, 0x4a5b,
				   { 0x9e, 0x8d, 0x6f, 0x7a, 0x8b, 0x9c, 0x0d, 0x1e } };

static BOOL same(LPCWSTR a, LPCWSTR b)
{
	size_t la, lb;

	return SUCCEEDED(StringCchLengthW(a, MAXSTR, &la)) &&
	       SUCCEEDED(StringCchLengthW(b, MAXSTR, &lb)) && la == lb &&
	       !memcmp(a, b, la * sizeof(WCHAR));
}

static size_t WideLen(PCWSTR s)
{
	size_t len = 0;

	StringCchLengthW(s, MAXSTR, &len);
	return len;
}

/* As tracelog.c allocates it: the structure, then the two names. */
static PEVENT_TRACE_PROPERTIES AllocProperties(void)
{
	ULONG SizeNeeded = sizeof(EVENT_TRACE_PROPERTIES) + 2 * MAXSTR * sizeof(TCHAR);
	PEVENT_TRACE_PROPERTIES p = (PEVENT_TRACE_PROPERTIES)malloc(SizeNeeded);

	if (p == NULL)
		return NULL;
	RtlZeroMemory(p, SizeNeeded);
	p->Wnode.BufferSize = SizeNeeded;
	p->Wnode.Flags = WNODE_FLAG_TRACED_GUID;
	p->Wnode.ClientContext = 1;
	p->LoggerNameOffset = sizeof(EVENT_TRACE_PROPERTIES);
	p->LogFileNameOffset = sizeof(EVENT_TRACE_PROPERTIES) + MAXSTR * sizeof(TCHAR);
	return p;
}

struct consumed {
	ULONG strings, fields, others;
	WCHAR last[MAXSTR];
};

static VOID WINAPI EventRecordCallback(PEVENT_RECORD pEvent)
{
	struct consumed *c = (struct consumed *)pEvent->UserContext;

	if (!IsEqualGUID(&pEvent->EventHeader.ProviderId, &ProviderGuid)) {
		c->others++;
		return;
	}
	if (pEvent->EventHeader.Flags & EVENT_HEADER_FLAG_STRING_ONLY) {
		c->strings++;
		StringCchPrintfW(c->last, ARRAYSIZE(c->last), TEXT("%s"), (PCWSTR)pEvent->UserData);
	} else if (pEvent->EventHeader.EventDescriptor.Id == 2) {
		PCWSTR name = (PCWSTR)pEvent->UserData;
		size_t len = 0;
		ULONG value;

		StringCchLengthW(name, pEvent->UserDataLength / sizeof(WCHAR), &len);
		memcpy(&value, (PBYTE)pEvent->UserData + (len + 1) * sizeof(WCHAR), sizeof(value));
		c->fields++;
		StringCchPrintfW(c->last, ARRAYSIZE(c->last), TEXT("%s=%lu (%#I64x)"), name, value,
				 pEvent->EventHeader.EventDescriptor.Keyword);
	}
}

TEST(controller_provider_consumer)
{
	PEVENT_TRACE_PROPERTIES LoggerInfo = AllocProperties();
	LPTSTR LogFileName, LoggerName;
	TRACEHANDLE LoggerHandle = 0;
	EVENT_DESCRIPTOR StringEvent, FieldEvent;
	EVENT_DATA_DESCRIPTOR Data[2];
	EVENT_TRACE_LOGFILE LogFile;
	TRACEHANDLE TraceHandle;
	struct consumed c;
	REGHANDLE RegHandle = 0;
	PCWSTR FieldName = TEXT("Count \x263A");
	ULONG FieldValue = 42, Status, i;
	int fd = etw_open_or_skip(_metadata);

	close(fd);
	ASSERT_NE(NULL, LoggerInfo);
	LogFileName = (LPTSTR)((PCHAR)LoggerInfo + LoggerInfo->LogFileNameOffset);
	LoggerName = (LPTSTR)((PCHAR)LoggerInfo + LoggerInfo->LoggerNameOffset);
	unlink("/tmp/etwtest-winsrc.etl");

	/* Start, as tracelog -start with -f. */
	LoggerInfo->LogFileMode = EVENT_TRACE_FILE_MODE_SEQUENTIAL;
	LoggerInfo->BufferSize = 64;
	LoggerInfo->MaximumBuffers = 8;
	ASSERT_EQ(S_OK, StringCbCopy(LogFileName, MAXSTR * sizeof(TCHAR), LOGFILE));
	Status = StartTrace(&LoggerHandle, SESSION, LoggerInfo);
	ASSERT_EQ(ERROR_SUCCESS, Status);
	ASSERT_NE(0, LoggerHandle);

	/*
	 * Query by name: the name and the settings come back (not the log
	 * file's name: the module does not keep it, the logger process has it).
	 */
	LoggerInfo = AllocProperties();
	ASSERT_NE(NULL, LoggerInfo);
	LogFileName = (LPTSTR)((PCHAR)LoggerInfo + LoggerInfo->LogFileNameOffset);
	LoggerName = (LPTSTR)((PCHAR)LoggerInfo + LoggerInfo->LoggerNameOffset);
	ASSERT_EQ(ERROR_SUCCESS, ControlTrace(0, SESSION, LoggerInfo, EVENT_TRACE_CONTROL_QUERY));
	EXPECT_TRUE(same(SESSION, LoggerName));
	EXPECT_EQ(64, LoggerInfo->BufferSize);
	EXPECT_EQ(EVENT_TRACE_FILE_MODE_SEQUENTIAL,
		  LoggerInfo->LogFileMode & EVENT_TRACE_FILE_MODE_SEQUENTIAL);
	EXPECT_EQ(LoggerHandle, LoggerInfo->Wnode.HistoricalContext);

	/* Update the flush timer, as the Learn "Updating" example does. */
	LoggerInfo = AllocProperties();
	ASSERT_NE(NULL, LoggerInfo);
	LoggerInfo->FlushTimer = 1;
	ASSERT_EQ(ERROR_SUCCESS, ControlTrace(LoggerHandle, NULL, LoggerInfo,
					      EVENT_TRACE_CONTROL_UPDATE));
	EXPECT_EQ(1, LoggerInfo->FlushTimer);

	/* The provider, enabled at level 4 with keyword 0x10. */
	ASSERT_EQ(ERROR_SUCCESS, EventRegister(&ProviderGuid, NULL, NULL, &RegHandle));
	ASSERT_EQ(ERROR_SUCCESS, EnableTraceEx2(LoggerHandle, &ProviderGuid,
						EVENT_CONTROL_CODE_ENABLE_PROVIDER,
						TRACE_LEVEL_INFORMATION, 0x10, 0, 0, NULL));
	EventDescCreate(&StringEvent, 1, 0, 0, TRACE_LEVEL_INFORMATION, 0, 0, 0x10);
	EventDescCreate(&FieldEvent, 2, 0, 0, TRACE_LEVEL_INFORMATION, 0, 0, 0x10);
	EXPECT_TRUE(EventEnabled(RegHandle, &FieldEvent));
	for (i = 0; i < 3; i++)
		EXPECT_EQ(ERROR_SUCCESS, EventWriteString(RegHandle, TRACE_LEVEL_INFORMATION,
							  0x10, TEXT("hello \x00e9\x263A")));
	EventDataDescCreate(&Data[0], FieldName,
			    (ULONG)((WideLen(FieldName) + 1) * sizeof(WCHAR)));
	EventDataDescCreate(&Data[1], &FieldValue, sizeof(FieldValue));
	EXPECT_EQ(ERROR_SUCCESS, EventWrite(RegHandle, &FieldEvent, ARRAYSIZE(Data), Data));
	/* Above the session's level: not written. */
	EXPECT_EQ(ERROR_SUCCESS, EventWriteString(RegHandle, TRACE_LEVEL_VERBOSE, 0x10,
						  TEXT("dropped")));

	LoggerInfo = AllocProperties();
	ASSERT_NE(NULL, LoggerInfo);
	EXPECT_EQ(ERROR_SUCCESS, ControlTrace(LoggerHandle, NULL, LoggerInfo,
					      EVENT_TRACE_CONTROL_FLUSH));
	EXPECT_EQ(ERROR_SUCCESS, EnableTraceEx2(LoggerHandle, &ProviderGuid,
						EVENT_CONTROL_CODE_DISABLE_PROVIDER, 0, 0, 0, 0,
						NULL));
	LoggerInfo = AllocProperties();
	ASSERT_NE(NULL, LoggerInfo);
	ASSERT_EQ(ERROR_SUCCESS, ControlTrace(LoggerHandle, NULL, LoggerInfo,
					      EVENT_TRACE_CONTROL_STOP));
	EXPECT_EQ(0, LoggerInfo->EventsLost);
	EXPECT_EQ(ERROR_SUCCESS, EventUnregister(RegHandle));

	/* The consumer: the file, each event formatted. */
	ZeroMemory(&LogFile, sizeof(LogFile));
	ZeroMemory(&c, sizeof(c));
	LogFile.LogFileName = (LPTSTR)LOGFILE;
	LogFile.ProcessTraceMode = PROCESS_TRACE_MODE_EVENT_RECORD;
	LogFile.EventRecordCallback = EventRecordCallback;
	LogFile.Context = &c;
	TraceHandle = OpenTrace(&LogFile);
	ASSERT_NE(INVALID_PROCESSTRACE_HANDLE, TraceHandle);
	EXPECT_TRUE(same(SESSION, (LPCWSTR)LogFile.LogfileHeader.LoggerName));
	ASSERT_EQ(ERROR_SUCCESS, ProcessTrace(&TraceHandle, 1, NULL, NULL));
	EXPECT_EQ(ERROR_SUCCESS, CloseTrace(TraceHandle));
	EXPECT_EQ(3, c.strings);
	EXPECT_EQ(1, c.fields);
	if (!same(TEXT("Count \x263A=42 (0x10)"), c.last)) {
		char u8[MAXSTR];

		StringCchPrintfA(u8, sizeof(u8), "%S", c.last);
		TH_LOG("last: %s", u8);
	}
	EXPECT_TRUE(same(TEXT("Count \x263A=42 (0x10)"), c.last));
	unlink("/tmp/etwtest-winsrc.etl");
}

/*
 * A system logger's group masks through ntdll, as krabsetw sets them for
 * Windows 7's sake: NtQuerySystemInformation and NtSetSystemInformation
 * with SystemPerformanceTraceInformation and the group-mask class read
 * and set what TraceQueryInformation reads.
 */
struct group_mask_info {
	ULONG info_class;
	TRACEHANDLE handle LIBETW_ALIGN8;
	ULONG masks[8];
};

TEST(nt_system_information_group_masks)
{
	PEVENT_TRACE_PROPERTIES p = AllocProperties();
	struct group_mask_info g;
	CONTROLTRACE_ID h = 0;
	ULONG masks[8], len = 0;

	ASSERT_TRUE(p != NULL);
	p->LogFileMode = EVENT_TRACE_SYSTEM_LOGGER_MODE | EVENT_TRACE_REAL_TIME_MODE;
	p->EnableFlags = EVENT_TRACE_FLAG_PROCESS;
	ASSERT_EQ(ERROR_SUCCESS, StartTrace(&h, TEXT("etwtest-winsrc-nt"), p));

	memset(&g, 0, sizeof(g));
	g.info_class = 1;	/* EventTraceGroupMaskInformation */
	g.handle = h;
	EXPECT_EQ(STATUS_SUCCESS, NtQuerySystemInformation((SYSTEM_INFORMATION_CLASS)0x1f,
							   &g, sizeof(g), &len));
	EXPECT_EQ(sizeof(g), len);
	EXPECT_EQ(EVENT_TRACE_FLAG_PROCESS, g.masks[0]);
	g.masks[0] |= EVENT_TRACE_FLAG_THREAD;
	g.masks[2] = 0x10;	/* another group's mask: kept */
	EXPECT_EQ(STATUS_SUCCESS, NtSetSystemInformation((SYSTEM_INFORMATION_CLASS)0x1f,
							 &g, sizeof(g)));
	memset(masks, 0xff, sizeof(masks));
	ASSERT_EQ(ERROR_SUCCESS, TraceQueryInformation(h, TraceSystemTraceEnableFlagsInfo,
						       masks, sizeof(masks), NULL));
	EXPECT_EQ(EVENT_TRACE_FLAG_PROCESS | EVENT_TRACE_FLAG_THREAD, masks[0]);
	EXPECT_EQ(0x10, masks[2]);
	EXPECT_EQ(0, masks[7]);

	/* Refusals: the class, the length, an unknown session. */
	EXPECT_EQ(STATUS_INVALID_INFO_CLASS,
		  NtQuerySystemInformation(SystemBasicInformation, &g, sizeof(g), NULL));
	EXPECT_EQ(STATUS_INFO_LENGTH_MISMATCH,
		  NtSetSystemInformation((SYSTEM_INFORMATION_CLASS)0x1f, &g, sizeof(g) - 4));
	g.info_class = 3;	/* EventTraceTimeProfileInformation */
	EXPECT_EQ(STATUS_INVALID_INFO_CLASS,
		  NtQuerySystemInformation((SYSTEM_INFORMATION_CLASS)0x1f, &g, sizeof(g), NULL));

	ZeroMemory(p, sizeof(*p));
	p->Wnode.BufferSize = sizeof(*p) + 2 * MAXSTR * sizeof(TCHAR);
	p->LoggerNameOffset = sizeof(*p);
	EXPECT_EQ(ERROR_SUCCESS, ControlTrace(h, NULL, p, EVENT_TRACE_CONTROL_STOP));
	g.info_class = 1;
	EXPECT_NE(STATUS_SUCCESS,
		  NtQuerySystemInformation((SYSTEM_INFORMATION_CLASS)0x1f, &g, sizeof(g), NULL));
	free(p);
}

TEST_HARNESS_MAIN
