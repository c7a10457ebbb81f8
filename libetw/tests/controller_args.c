// SPDX-License-Identifier: GPL-2.0
/*
 * The controller API's argument checks, which fail with Windows' error
 * before any system call, so they need no module: StartTrace's
 * EVENT_TRACE_PROPERTIES and LogFileMode rules, ControlTrace and
 * QueryAllTraces arguments, EnableTraceEx2's parameters and filters (and
 * GUID_NULL), the CONTROLTRACE_ID encoding, the thread's last error, and
 * how QUERY's answer is put in the caller's properties (names, the
 * absolute log file name, ERROR_MORE_DATA).
 */
#include <unistd.h>

#include <windows.h>
#include <evntrace.h>
#include <evntprov.h>
#include <evntcons.h>
#include <winternl.h>

#include "../src/controller/controller.h"

#include "kselftest_harness.h"

struct props {
	EVENT_TRACE_PROPERTIES p;
	char names[2048];
};

#define NAME_OFF	((ULONG)sizeof(EVENT_TRACE_PROPERTIES))
#define FILE_OFF	(NAME_OFF + 1024)

static EVENT_TRACE_PROPERTIES *props(struct props *b, ULONG mode)
{
	memset(b, 0, sizeof(*b));
	b->p.Wnode.BufferSize = sizeof(*b);
	b->p.Wnode.Flags = WNODE_FLAG_TRACED_GUID;
	b->p.Wnode.ClientContext = 1;
	b->p.LogFileMode = mode;
	b->p.LoggerNameOffset = NAME_OFF;
	return &b->p;
}

/* Give @p a log file name (CHAR). */
static void file_a(EVENT_TRACE_PROPERTIES *p, const char *name)
{
	p->LogFileNameOffset = FILE_OFF;
	strcpy((char *)p + FILE_OFF, name);
}

static const GUID prov = { 0x3b864c38, 0x4273, 0x58c5,
			   { 0x54, 0x5b, 0x8b, 0x36, 0x08, 0x34, 0x34, 0x71 } };

/* A handle for a session that cannot be running on the host. */
#define SOME_ID		((CONTROLTRACE_ID)3)

TEST(start_null_arguments)
{
	struct props b;
	CONTROLTRACE_ID h = 77;

	SetLastError(0);
	EXPECT_EQ(ERROR_INVALID_PARAMETER, StartTraceA(&h, "etwtest-x", NULL));
	EXPECT_EQ(ERROR_INVALID_PARAMETER, GetLastError());
	EXPECT_EQ(ERROR_INVALID_PARAMETER,
		  StartTraceA(NULL, "etwtest-x", props(&b, EVENT_TRACE_REAL_TIME_MODE)));
	EXPECT_EQ(ERROR_INVALID_PARAMETER, StartTraceA(&h, NULL, &b.p));
	EXPECT_EQ(0, h);	/* cleared on failure */
	EXPECT_EQ(ERROR_INVALID_PARAMETER, StartTraceW(&h, NULL, &b.p));
	EXPECT_EQ(ERROR_INVALID_PARAMETER, StartTraceW(&h, u"etwtest-x", NULL));
}

TEST(start_buffer_size)
{
	struct props b;
	CONTROLTRACE_ID h;
	struct {
		EVENT_TRACE_PROPERTIES p;
		char names[5 + 9];
	} small;

	props(&b, EVENT_TRACE_REAL_TIME_MODE)->Wnode.BufferSize = 0;
	EXPECT_EQ(ERROR_BAD_LENGTH, StartTraceA(&h, "etwtest-x", &b.p));
	EXPECT_EQ(ERROR_BAD_LENGTH, GetLastError());
	b.p.Wnode.BufferSize = sizeof(b.p) - 1;
	EXPECT_EQ(ERROR_BAD_LENGTH, StartTraceW(&h, u"etwtest-x", &b.p));

	/* Room for "wine" then "wine.etl", as in Wine's test on Windows. */
	memset(&small, 0, sizeof(small));
	small.p.Wnode.BufferSize = sizeof(small.p) + 5 + 9;
	small.p.LoggerNameOffset = sizeof(small.p);
	small.p.LogFileNameOffset = sizeof(small.p) + 5;
	strcpy(small.names + 5, "wine.etl");
	EXPECT_EQ(ERROR_BAD_LENGTH,
		  StartTraceA(&h, "this name is too long", &small.p));
	/* It fits the allocation but not the room before the file name. */
	small.p.Wnode.BufferSize = sizeof(small);
	small.p.LogFileNameOffset = sizeof(small.p) + 3;
	strcpy(small.names + 3, "w.etl");
	EXPECT_EQ(ERROR_BAD_LENGTH, StartTraceA(&h, "wine", &small.p));
	/* W needs two bytes a character. */
	small.p.LogFileNameOffset = sizeof(small.p) + 6;
	small.names[6] = 'x';
	small.names[7] = 0;
	EXPECT_EQ(ERROR_BAD_LENGTH, StartTraceW(&h, u"wine", &small.p));

	/* Without LoggerNameOffset the name goes after the structure. */
	props(&b, EVENT_TRACE_REAL_TIME_MODE)->LoggerNameOffset = 0;
	b.p.Wnode.BufferSize = sizeof(b.p) + 4;
	EXPECT_EQ(ERROR_BAD_LENGTH, StartTraceA(&h, "abcd", &b.p));

	/* A log file name that does not end inside the allocation. */
	file_a(props(&b, EVENT_TRACE_REAL_TIME_MODE), "x");
	memset((char *)&b + FILE_OFF, 'a', sizeof(b) - FILE_OFF);
	EXPECT_EQ(ERROR_BAD_LENGTH, StartTraceA(&h, "etwtest-x", &b.p));
}

TEST(start_offsets)
{
	struct props b;
	CONTROLTRACE_ID h;

	file_a(props(&b, 0), "x.etl");
	b.p.LoggerNameOffset = 1;
	EXPECT_EQ(ERROR_INVALID_PARAMETER, StartTraceA(&h, "etwtest-x", &b.p));
	b.p.LoggerNameOffset = NAME_OFF - 1;
	EXPECT_EQ(ERROR_INVALID_PARAMETER, StartTraceA(&h, "etwtest-x", &b.p));
	b.p.LoggerNameOffset = sizeof(b) + 1;
	EXPECT_EQ(ERROR_INVALID_PARAMETER, StartTraceA(&h, "etwtest-x", &b.p));
	b.p.LoggerNameOffset = NAME_OFF;
	b.p.LogFileNameOffset = 1;
	EXPECT_EQ(ERROR_INVALID_PARAMETER, StartTraceA(&h, "etwtest-x", &b.p));
	b.p.LogFileNameOffset = NAME_OFF;	/* on top of the session name */
	EXPECT_EQ(ERROR_INVALID_PARAMETER, StartTraceA(&h, "etwtest-x", &b.p));
	b.p.LogFileNameOffset = sizeof(b) + 8;
	EXPECT_EQ(ERROR_INVALID_PARAMETER, StartTraceW(&h, u"etwtest-x", &b.p));
	EXPECT_EQ(ERROR_INVALID_PARAMETER, GetLastError());
}

TEST(start_log_file_mode)
{
	static const struct {
		ULONG mode;
		bool file;
		ULONG max_size;
		ULONG err;
	} cases[] = {
		/* Neither a file nor real-time nor memory: Wine's test. */
		{ 0, false, 0, ERROR_BAD_PATHNAME },
		{ EVENT_TRACE_FILE_MODE_SEQUENTIAL, false, 0, ERROR_BAD_PATHNAME },
		{ EVENT_TRACE_FILE_MODE_SEQUENTIAL | EVENT_TRACE_FILE_MODE_CIRCULAR,
		  true, 0, ERROR_INVALID_PARAMETER },
		{ EVENT_TRACE_FILE_MODE_SEQUENTIAL | EVENT_TRACE_FILE_MODE_CIRCULAR,
		  true, 10, ERROR_INVALID_PARAMETER },
		{ EVENT_TRACE_FILE_MODE_CIRCULAR, true, 0, ERROR_INVALID_PARAMETER },
		{ EVENT_TRACE_FILE_MODE_CIRCULAR | EVENT_TRACE_FILE_MODE_APPEND,
		  true, 10, ERROR_INVALID_PARAMETER },
		{ EVENT_TRACE_FILE_MODE_NEWFILE, true, 0, ERROR_INVALID_PARAMETER },
		{ EVENT_TRACE_FILE_MODE_SEQUENTIAL | EVENT_TRACE_FILE_MODE_NEWFILE,
		  true, 10, ERROR_INVALID_PARAMETER },
		{ EVENT_TRACE_FILE_MODE_APPEND | EVENT_TRACE_REAL_TIME_MODE,
		  true, 0, ERROR_INVALID_PARAMETER },
		{ EVENT_TRACE_FILE_MODE_PREALLOCATE, true, 0, ERROR_INVALID_PARAMETER },
		{ EVENT_TRACE_USE_KBYTES_FOR_SIZE | EVENT_TRACE_REAL_TIME_MODE,
		  false, 10, ERROR_INVALID_PARAMETER },
		{ EVENT_TRACE_REAL_TIME_MODE | EVENT_TRACE_PRIVATE_LOGGER_MODE,
		  false, 0, ERROR_INVALID_PARAMETER },
		{ EVENT_TRACE_BUFFERING_MODE | EVENT_TRACE_REAL_TIME_MODE,
		  false, 0, ERROR_INVALID_PARAMETER },
		{ EVENT_TRACE_BUFFERING_MODE, true, 0, ERROR_INVALID_PARAMETER },
		{ EVENT_TRACE_REAL_TIME_MODE | EVENT_TRACE_USE_GLOBAL_SEQUENCE |
		  EVENT_TRACE_USE_LOCAL_SEQUENCE, false, 0, ERROR_INVALID_PARAMETER },
		{ EVENT_TRACE_RELOG_MODE | EVENT_TRACE_REAL_TIME_MODE, false, 0,
		  ERROR_INVALID_PARAMETER },
		/*
		 * Valid: with a file or real-time, ERROR_NOT_SUPPORTED here is
		 * the missing module of the host (private loggers: their test).
		 */
		{ 0, true, 0, ERROR_NOT_SUPPORTED },
		{ EVENT_TRACE_FILE_MODE_SEQUENTIAL, true, 0, ERROR_NOT_SUPPORTED },
		{ EVENT_TRACE_FILE_MODE_CIRCULAR, true, 10, ERROR_NOT_SUPPORTED },
		{ EVENT_TRACE_REAL_TIME_MODE, true, 0, ERROR_NOT_SUPPORTED },
		{ EVENT_TRACE_REAL_TIME_MODE | EVENT_TRACE_SYSTEM_LOGGER_MODE,
		  false, 0, ERROR_NOT_SUPPORTED },
	};
	struct props b;
	CONTROLTRACE_ID h;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		props(&b, cases[i].mode);
		if (cases[i].file)
			file_a(&b.p, "x.etl");
		b.p.MaximumFileSize = cases[i].max_size;
		EXPECT_EQ(cases[i].err, StartTraceA(&h, "etwtest-x", &b.p))
			TH_LOG("case %zu, mode %#x", i, cases[i].mode);
		EXPECT_EQ(cases[i].err, GetLastError());
	}
	/* An empty file name is no file. */
	file_a(props(&b, 0), "");
	EXPECT_EQ(ERROR_BAD_PATHNAME, StartTraceA(&h, "etwtest-x", &b.p));
	/* W file names are WCHAR strings. */
	props(&b, EVENT_TRACE_REAL_TIME_MODE)->LogFileNameOffset = FILE_OFF;
	memcpy((char *)&b + FILE_OFF, u"x.etl", sizeof(u"x.etl"));
	EXPECT_EQ(ERROR_NOT_SUPPORTED, StartTraceW(&h, u"etwtest-x", &b.p));
}

TEST(start_names)
{
	char long_a[1100], ascii_128[129];
	char16_t long_w[1100];
	static const char16_t lone[] = { 'e', 0xd800, 'x', 0 };
	struct props b;
	CONTROLTRACE_ID h;

	props(&b, EVENT_TRACE_REAL_TIME_MODE);
	EXPECT_EQ(ERROR_INVALID_PARAMETER, StartTraceA(&h, "", &b.p));
	EXPECT_EQ(ERROR_INVALID_PARAMETER, StartTraceW(&h, u"", &b.p));
	/* Names are UTF-16 or UTF-8 and no longer than 1024 characters. */
	EXPECT_EQ(ERROR_INVALID_PARAMETER, StartTraceW(&h, lone, &b.p));
	EXPECT_EQ(ERROR_INVALID_PARAMETER, StartTraceA(&h, "etw\xe9test", &b.p));
	memset(long_a, 'a', 1025);
	long_a[1025] = 0;
	EXPECT_EQ(ERROR_INVALID_PARAMETER, StartTraceA(&h, long_a, &b.p));
	for (int i = 0; i < 1025; i++)
		long_w[i] = 'a';
	long_w[1025] = 0;
	EXPECT_EQ(ERROR_INVALID_PARAMETER, StartTraceW(&h, long_w, &b.p));
	/* Valid for Windows, longer than the module stores (127 bytes). */
	memset(ascii_128, 'a', 128);
	ascii_128[128] = 0;
	EXPECT_EQ(ERROR_INVALID_PARAMETER, StartTraceA(&h, ascii_128, &b.p));

	/* Only the kernel logger may use SystemTraceControlGuid ... */
	b.p.Wnode.Guid = SystemTraceControlGuid;
	EXPECT_EQ(ERROR_INVALID_PARAMETER, StartTraceA(&h, "etwtest-x", &b.p));
	EXPECT_EQ(ERROR_INVALID_PARAMETER, StartTraceW(&h, u"etwtest-x", &b.p));
	/* ... and without the module there is no kernel logger. */
	EXPECT_EQ(ERROR_NOT_SUPPORTED, StartTraceA(&h, KERNEL_LOGGER_NAMEA, &b.p));
	EXPECT_EQ(ERROR_NOT_SUPPORTED, StartTraceW(&h, KERNEL_LOGGER_NAMEW, &b.p));
}

TEST(start_versioned_and_clock)
{
	struct {
		EVENT_TRACE_PROPERTIES_V2 p;
		char names[256];
	} v2;
	EVENT_FILTER_DESCRIPTOR f = { 0 };
	struct props b;
	CONTROLTRACE_ID h;

	memset(&v2, 0, sizeof(v2));
	v2.p.Wnode.BufferSize = sizeof(EVENT_TRACE_PROPERTIES);
	v2.p.Wnode.Flags = WNODE_FLAG_TRACED_GUID | WNODE_FLAG_VERSIONED_PROPERTIES;
	v2.p.LogFileMode = EVENT_TRACE_REAL_TIME_MODE;
	v2.p.VersionNumber = 2;
	EXPECT_EQ(ERROR_BAD_LENGTH,
		  StartTraceA(&h, "etwtest-x", (PEVENT_TRACE_PROPERTIES)&v2.p));
	v2.p.Wnode.BufferSize = sizeof(v2);
	v2.p.VersionNumber = 1;
	EXPECT_EQ(ERROR_INVALID_PARAMETER,
		  StartTraceA(&h, "etwtest-x", (PEVENT_TRACE_PROPERTIES)&v2.p));
	/* The names follow the larger structure. */
	v2.p.VersionNumber = 2;
	v2.p.LoggerNameOffset = sizeof(EVENT_TRACE_PROPERTIES);
	EXPECT_EQ(ERROR_INVALID_PARAMETER,
		  StartTraceA(&h, "etwtest-x", (PEVENT_TRACE_PROPERTIES)&v2.p));
	v2.p.LoggerNameOffset = sizeof(v2.p);
	v2.p.FilterDescCount = 1;
	v2.p.FilterDesc = &f;
	EXPECT_EQ(ERROR_NOT_SUPPORTED,
		  StartTraceA(&h, "etwtest-x", (PEVENT_TRACE_PROPERTIES)&v2.p));

	props(&b, EVENT_TRACE_REAL_TIME_MODE)->Wnode.ClientContext = 2;
	EXPECT_EQ(ERROR_NOT_SUPPORTED, StartTraceA(&h, "etwtest-x", &b.p));
	b.p.Wnode.ClientContext = 3;
	EXPECT_EQ(ERROR_NOT_SUPPORTED, StartTraceA(&h, "etwtest-x", &b.p));
	b.p.Wnode.ClientContext = 4;
	EXPECT_EQ(ERROR_INVALID_PARAMETER, StartTraceA(&h, "etwtest-x", &b.p));
}

TEST(control_arguments)
{
	struct props b;

	EXPECT_EQ(ERROR_INVALID_PARAMETER,
		  ControlTraceA(SOME_ID, NULL, NULL, EVENT_TRACE_CONTROL_QUERY));
	EXPECT_EQ(ERROR_INVALID_PARAMETER, GetLastError());
	props(&b, 0);
	/* Neither a name nor a handle. */
	EXPECT_EQ(ERROR_INVALID_PARAMETER,
		  ControlTraceA(0, NULL, &b.p, EVENT_TRACE_CONTROL_QUERY));
	EXPECT_EQ(ERROR_INVALID_PARAMETER,
		  ControlTraceW(0, u"", &b.p, EVENT_TRACE_CONTROL_QUERY));
	/* Handles that cannot be ours. */
	EXPECT_EQ(ERROR_INVALID_PARAMETER,
		  ControlTraceA(65, NULL, &b.p, EVENT_TRACE_CONTROL_QUERY));
	EXPECT_EQ(ERROR_INVALID_PARAMETER,
		  ControlTraceA(0xffff, NULL, &b.p, EVENT_TRACE_CONTROL_QUERY));
	EXPECT_EQ(ERROR_INVALID_PARAMETER,
		  ControlTraceA(~0ULL, NULL, &b.p, EVENT_TRACE_CONTROL_QUERY));
	EXPECT_EQ(ERROR_INVALID_PARAMETER,
		  ControlTraceA(0x10000, NULL, &b.p, EVENT_TRACE_CONTROL_QUERY));
	/* Control codes. */
	EXPECT_EQ(ERROR_INVALID_PARAMETER, ControlTraceA(SOME_ID, NULL, &b.p, 6));
	EXPECT_EQ(ERROR_NOT_SUPPORTED,
		  ControlTraceA(SOME_ID, NULL, &b.p,
				EVENT_TRACE_CONTROL_INCREMENT_FILE));
	EXPECT_EQ(ERROR_NOT_SUPPORTED,
		  ControlTraceW(SOME_ID, NULL, &b.p,
				EVENT_TRACE_CONTROL_CONVERT_TO_REALTIME));
	/* The properties as for StartTrace. */
	b.p.Wnode.BufferSize = 16;
	EXPECT_EQ(ERROR_BAD_LENGTH, QueryTraceA(SOME_ID, NULL, &b.p));
	EXPECT_EQ(ERROR_BAD_LENGTH, GetLastError());
	props(&b, 0)->LoggerNameOffset = 8;
	EXPECT_EQ(ERROR_INVALID_PARAMETER, QueryTraceW(SOME_ID, NULL, &b.p));
	/* UPDATE to a log file: no file writer. */
	file_a(props(&b, 0), "new.etl");
	EXPECT_EQ(ERROR_NOT_SUPPORTED, UpdateTraceA(SOME_ID, NULL, &b.p));
	/* An invalid name. */
	props(&b, 0);
	EXPECT_EQ(ERROR_INVALID_PARAMETER, StopTraceA(0, "\xff", &b.p));

	/* Every form checks its properties. */
	EXPECT_EQ(ERROR_INVALID_PARAMETER, StopTraceA(SOME_ID, NULL, NULL));
	EXPECT_EQ(ERROR_INVALID_PARAMETER, StopTraceW(SOME_ID, NULL, NULL));
	EXPECT_EQ(ERROR_INVALID_PARAMETER, QueryTraceA(SOME_ID, NULL, NULL));
	EXPECT_EQ(ERROR_INVALID_PARAMETER, QueryTraceW(SOME_ID, NULL, NULL));
	EXPECT_EQ(ERROR_INVALID_PARAMETER, UpdateTraceA(SOME_ID, NULL, NULL));
	EXPECT_EQ(ERROR_INVALID_PARAMETER, UpdateTraceW(SOME_ID, NULL, NULL));
	EXPECT_EQ(ERROR_INVALID_PARAMETER, FlushTraceA(SOME_ID, NULL, NULL));
	EXPECT_EQ(ERROR_INVALID_PARAMETER, FlushTraceW(SOME_ID, NULL, NULL));
}

TEST(query_all_arguments)
{
	static struct props b[2];
	PEVENT_TRACE_PROPERTIES arr[65];
	ULONG n = 99;
	int i;

	for (i = 0; i < 65; i++)
		arr[i] = props(&b[i & 1], 0);
	EXPECT_EQ(ERROR_INVALID_PARAMETER, QueryAllTracesA(NULL, 1, &n));
	EXPECT_EQ(ERROR_INVALID_PARAMETER, GetLastError());
	EXPECT_EQ(ERROR_INVALID_PARAMETER, QueryAllTracesA(arr, 0, &n));
	EXPECT_EQ(ERROR_INVALID_PARAMETER, QueryAllTracesW(arr, 65, &n));
	EXPECT_EQ(ERROR_INVALID_PARAMETER, QueryAllTracesW(arr, 1, NULL));
	arr[1] = NULL;
	EXPECT_EQ(ERROR_INVALID_PARAMETER, QueryAllTracesA(arr, 2, &n));
	arr[1] = &b[1].p;
	b[1].p.Wnode.BufferSize = 100;
	EXPECT_EQ(ERROR_BAD_LENGTH, QueryAllTracesA(arr, 2, &n));
	EXPECT_EQ(ERROR_BAD_LENGTH, GetLastError());
}

static ULONG enable_filters(EVENT_FILTER_DESCRIPTOR *f, ULONG count)
{
	ENABLE_TRACE_PARAMETERS p = {
		.Version = ENABLE_TRACE_PARAMETERS_VERSION_2,
		.EnableFilterDesc = f,
		.FilterDescCount = count,
	};

	return EnableTraceEx2(SOME_ID, &prov, EVENT_CONTROL_CODE_ENABLE_PROVIDER,
			      5, 0, 0, 0, &p);
}

TEST(enable_arguments)
{
	ENABLE_TRACE_PARAMETERS p = { .Version = ENABLE_TRACE_PARAMETERS_VERSION_2 };
	ENABLE_TRACE_PARAMETERS_V1 v1 = { .Version = ENABLE_TRACE_PARAMETERS_VERSION };
	EVENT_FILTER_DESCRIPTOR f = { .Type = EVENT_FILTER_TYPE_EVENT_NAME,
				      .Ptr = 1, .Size = 8 };

	EXPECT_EQ(ERROR_INVALID_PARAMETER,
		  EnableTraceEx2(SOME_ID, NULL, 1, 5, 0, 0, 0, NULL));
	EXPECT_EQ(ERROR_INVALID_PARAMETER, GetLastError());
	EXPECT_EQ(ERROR_INVALID_PARAMETER,
		  EnableTraceEx2(0, &prov, 1, 5, 0, 0, 0, NULL));
	EXPECT_EQ(ERROR_INVALID_PARAMETER,
		  EnableTraceEx2(70, &prov, 1, 5, 0, 0, 0, NULL));
	EXPECT_EQ(ERROR_INVALID_PARAMETER,
		  EnableTraceEx2(SOME_ID, &prov, 3, 5, 0, 0, 0, NULL));
	p.Version = 0;
	EXPECT_EQ(ERROR_INVALID_PARAMETER,
		  EnableTraceEx2(SOME_ID, &prov, 1, 5, 0, 0, 0, &p));
	p.Version = 3;
	EXPECT_EQ(ERROR_INVALID_PARAMETER,
		  EnableTraceEx2(SOME_ID, &prov, 1, 5, 0, 0, 0, &p));
	p.Version = ENABLE_TRACE_PARAMETERS_VERSION_2;
	p.ControlFlags = 1;
	EXPECT_EQ(ERROR_INVALID_PARAMETER,
		  EnableTraceEx2(SOME_ID, &prov, 1, 5, 0, 0, 0, &p));
	p.ControlFlags = 0;
	p.EnableProperty = 0x1000;
	EXPECT_EQ(ERROR_INVALID_PARAMETER,
		  EnableTraceEx2(SOME_ID, &prov, 1, 5, 0, 0, 0, &p));
	p.EnableProperty = EVENT_ENABLE_PROPERTY_PROVIDER_GROUP;
	EXPECT_EQ(ERROR_NOT_SUPPORTED,
		  EnableTraceEx2(SOME_ID, &prov, 1, 5, 0, 0, 0, &p));
	EXPECT_EQ(ERROR_NOT_SUPPORTED, GetLastError());
	/* Version 1: one filter, checked like the others. */
	v1.EnableFilterDesc = &f;
	EXPECT_EQ(ERROR_NOT_SUPPORTED,
		  EnableTraceEx2(SOME_ID, &prov, 1, 5, 0, 0, 0,
				 (PENABLE_TRACE_PARAMETERS)&v1));

	EXPECT_EQ(ERROR_INVALID_PARAMETER,
		  EnableTraceEx(NULL, NULL, SOME_ID, 1, 5, 0, 0, 0, NULL));
	EXPECT_EQ(ERROR_INVALID_PARAMETER,
		  EnableTraceEx(&prov, NULL, SOME_ID, 2, 5, 0, 0, 0, NULL));
	EXPECT_EQ(ERROR_INVALID_PARAMETER,
		  EnableTraceEx(&prov, NULL, 0, 1, 5, 0, 0, 0, NULL));
	EXPECT_EQ(ERROR_NOT_SUPPORTED,
		  EnableTraceEx(&prov, NULL, SOME_ID, 1, 5, 0, 0, 0, &f));
	EXPECT_EQ(ERROR_INVALID_PARAMETER, EnableTrace(1, 0, 5, NULL, SOME_ID));
	EXPECT_EQ(ERROR_INVALID_PARAMETER, EnableTrace(1, 0, 256, &prov, SOME_ID));
	EXPECT_EQ(ERROR_INVALID_PARAMETER, EnableTrace(1, 0, 5, &prov, 0));
	EXPECT_EQ(ERROR_INVALID_PARAMETER, GetLastError());
}

/* GUID_NULL names no provider: refused as a NULL ProviderId, every code. */
TEST(enable_refuses_guid_null)
{
	static const GUID null_guid;
	ULONG code;

	for (code = 0; code <= EVENT_CONTROL_CODE_CAPTURE_STATE; code++) {
		SetLastError(0);
		EXPECT_EQ(ERROR_INVALID_PARAMETER,
			  EnableTraceEx2(SOME_ID, &null_guid, code, 5, 0, 0, 0, NULL));
		EXPECT_EQ(ERROR_INVALID_PARAMETER, GetLastError());
	}
	EXPECT_EQ(ERROR_INVALID_PARAMETER,
		  EnableTraceEx(&null_guid, NULL, SOME_ID, 1, 5, 0, 0, 0, NULL));
	EXPECT_EQ(ERROR_INVALID_PARAMETER,
		  EnableTraceEx(&null_guid, NULL, SOME_ID, 0, 0, 0, 0, 0, NULL));
	EXPECT_EQ(ERROR_INVALID_PARAMETER,
		  EnableTrace(1, 0, 5, &null_guid, SOME_ID));
	EXPECT_EQ(ERROR_INVALID_PARAMETER,
		  EnableTrace(0, 0, 0, &null_guid, SOME_ID));
	EXPECT_EQ(ERROR_INVALID_PARAMETER, GetLastError());
}

TEST(enable_filter_descriptors)
{
	ULONG pids[9] = { 1, 2, 3, 4, 5, 6, 7, 8, 9 };
	struct {
		EVENT_FILTER_EVENT_ID f;
		USHORT more[70];
	} ids = { .f = { .FilterIn = TRUE, .Count = 2, .Events = { 1 } } };
	EVENT_FILTER_DESCRIPTOR f[14];

	memset(f, 0, sizeof(f));
	EXPECT_EQ(ERROR_INVALID_PARAMETER, enable_filters(NULL, 1));
	EXPECT_EQ(ERROR_INVALID_PARAMETER, enable_filters(f, 14));

	/* PID: 1..8 ULONGs. */
	f[0].Type = EVENT_FILTER_TYPE_PID;
	f[0].Ptr = (uintptr_t)pids;
	f[0].Size = 0;
	EXPECT_EQ(ERROR_INVALID_PARAMETER, enable_filters(f, 1));
	f[0].Size = 9 * sizeof(ULONG);
	EXPECT_EQ(ERROR_INVALID_PARAMETER, enable_filters(f, 1));
	f[0].Size = 6;
	EXPECT_EQ(ERROR_INVALID_PARAMETER, enable_filters(f, 1));
	f[0].Size = 8;
	f[0].Ptr = 0;
	EXPECT_EQ(ERROR_INVALID_PARAMETER, enable_filters(f, 1));
	f[0].Ptr = (uintptr_t)pids;

	/* EVENT_ID: 1..64 ids, all inside Size. */
	f[1].Type = EVENT_FILTER_TYPE_EVENT_ID;
	f[1].Ptr = (uintptr_t)&ids;
	f[1].Size = offsetof(EVENT_FILTER_EVENT_ID, Events) + 2 * sizeof(USHORT) - 1;
	EXPECT_EQ(ERROR_INVALID_PARAMETER, enable_filters(f, 2));
	f[1].Size = sizeof(ids);
	ids.f.Count = 0;
	EXPECT_EQ(ERROR_INVALID_PARAMETER, enable_filters(f, 2));
	ids.f.Count = 65;
	EXPECT_EQ(ERROR_INVALID_PARAMETER, enable_filters(f, 2));
	ids.f.Count = 2;
	f[1].Ptr = 0;
	EXPECT_EQ(ERROR_INVALID_PARAMETER, enable_filters(f, 2));
	f[1].Ptr = (uintptr_t)&ids;
	f[1].Size = MAX_EVENT_FILTER_DATA_SIZE + 1;
	EXPECT_EQ(ERROR_INVALID_PARAMETER, enable_filters(f, 2));
	f[1].Size = sizeof(ids);

	/* Each type once; unknown types; types not implemented. */
	f[2] = f[0];
	EXPECT_EQ(ERROR_INVALID_PARAMETER, enable_filters(f, 3));
	f[2].Type = 0x80000003;	/* bit 31: Windows' own, and no such type */
	EXPECT_EQ(ERROR_INVALID_PARAMETER, enable_filters(f, 3));
	f[2].Type = EVENT_FILTER_TYPE_EXECUTABLE_NAME;
	EXPECT_EQ(ERROR_NOT_SUPPORTED, enable_filters(f, 3));
	f[2].Type = EVENT_FILTER_TYPE_CONTAINER;
	EXPECT_EQ(ERROR_NOT_SUPPORTED, enable_filters(f, 3));
	/* A payload filter is at least its header, at most 4096 bytes. */
	f[2].Type = EVENT_FILTER_TYPE_PAYLOAD;
	f[2].Size = 4;
	EXPECT_EQ(ERROR_INVALID_PARAMETER, enable_filters(f, 3));
	f[2].Size = MAX_EVENT_FILTER_PAYLOAD_SIZE + 1;
	EXPECT_EQ(ERROR_INVALID_PARAMETER, enable_filters(f, 3));
	f[2].Type = EVENT_FILTER_TYPE_STACKWALK;
	EXPECT_EQ(ERROR_NOT_SUPPORTED, enable_filters(f, 3));
	EXPECT_EQ(ERROR_NOT_SUPPORTED, GetLastError());
}

/*
 * Filters for the providers' callbacks: schematized or provider-defined
 * (bit 31 clear), one per call, at most MAX_EVENT_FILTER_DATA_SIZE.  With
 * no module loaded, a call that passes the checks ends in
 * ERROR_NOT_SUPPORTED.
 */
TEST(enable_callback_filters)
{
	static unsigned char data[MAX_EVENT_FILTER_DATA_SIZE + 1];
	EVENT_FILTER_DESCRIPTOR f[3] = {
		{ .Type = EVENT_FILTER_TYPE_SCHEMATIZED, .Ptr = (uintptr_t)data,
		  .Size = sizeof(EVENT_FILTER_HEADER) },
		{ .Type = 0x12345, .Ptr = (uintptr_t)data, .Size = 10 },
		{ .Type = EVENT_FILTER_TYPE_PID, .Ptr = (uintptr_t)data, .Size = 4 },
	};

	EXPECT_EQ(ERROR_NOT_SUPPORTED, enable_filters(&f[0], 1));
	EXPECT_EQ(ERROR_NOT_SUPPORTED, enable_filters(&f[1], 1));
	/* With a kernel-applied filter beside it. */
	EXPECT_EQ(ERROR_NOT_SUPPORTED, enable_filters(&f[1], 2));
	/* One callback filter per session and provider. */
	EXPECT_EQ(ERROR_INVALID_PARAMETER, enable_filters(f, 2));
	EXPECT_EQ(ERROR_INVALID_PARAMETER, GetLastError());
	/* A schematized filter holds at least its EVENT_FILTER_HEADER. */
	f[0].Size = sizeof(EVENT_FILTER_HEADER) - 1;
	EXPECT_EQ(ERROR_INVALID_PARAMETER, enable_filters(&f[0], 1));
	f[0].Size = MAX_EVENT_FILTER_DATA_SIZE;
	EXPECT_EQ(ERROR_NOT_SUPPORTED, enable_filters(&f[0], 1));
	f[0].Size = MAX_EVENT_FILTER_DATA_SIZE + 1;
	EXPECT_EQ(ERROR_INVALID_PARAMETER, enable_filters(&f[0], 1));
	f[1].Size = MAX_EVENT_FILTER_DATA_SIZE + 1;
	EXPECT_EQ(ERROR_INVALID_PARAMETER, enable_filters(&f[1], 1));
	/* EVENT_FILTER_TYPE_NONE is a provider's type too; it may be empty. */
	f[1].Type = EVENT_FILTER_TYPE_NONE;
	f[1].Size = 0;
	f[1].Ptr = 0;
	EXPECT_EQ(ERROR_NOT_SUPPORTED, enable_filters(&f[1], 1));
	f[1].Size = 4;
	EXPECT_EQ(ERROR_INVALID_PARAMETER, enable_filters(&f[1], 1));
}

TEST(trace_id_encoding)
{
	struct etw_session_info a = { .logger_id = 7, .start_ticks = 1000,
				      .start_time = 5 };
	struct etw_session_info b = a;
	__u32 id, tag;
	CONTROLTRACE_ID h;

	h = etw_trace_id(&a);
	/* The logger id in the low USHORT, as TRACE_ENABLE_CONTEXT has it. */
	EXPECT_EQ(7, h & 0xffff);
	EXPECT_EQ(0, h >> 48);
	EXPECT_EQ(ERROR_SUCCESS, etw_trace_id_decode(h, &id, &tag));
	EXPECT_EQ(7, id);
	EXPECT_NE(0, tag);
	EXPECT_TRUE(etw_trace_id_matches(&a, tag));
	/* A later session with the same id does not match the old handle. */
	b.start_ticks = 2000;
	EXPECT_FALSE(etw_trace_id_matches(&b, tag));
	EXPECT_NE(h, etw_trace_id(&b));
	/* The bare logger id matches whatever session has it. */
	EXPECT_EQ(ERROR_SUCCESS, etw_trace_id_decode(7, &id, &tag));
	EXPECT_EQ(0, tag);
	EXPECT_TRUE(etw_trace_id_matches(&b, tag));
	EXPECT_EQ(ERROR_INVALID_PARAMETER, etw_trace_id_decode(0, &id, &tag));
	EXPECT_EQ(ERROR_INVALID_PARAMETER, etw_trace_id_decode(h | (1ULL << 48), &id, &tag));
}

TEST(names_ignore_ascii_case)
{
	struct etw_name n;

	EXPECT_TRUE(etw_name_equal("EtwTest-A", "etwtest-a"));
	EXPECT_FALSE(etw_name_equal("etwtest-a", "etwtest-ab"));
	EXPECT_FALSE(etw_name_equal("\xc3\xa9", "\xc3\x89"));	/* ASCII only */
	ASSERT_EQ(ERROR_SUCCESS, etw_name_get(u"t\u00e9\U0001F600", ETW_CS_W, &n));
	EXPECT_STREQ("t\xc3\xa9\xf0\x9f\x98\x80", n.utf8);
	EXPECT_EQ(4, n.units);
	EXPECT_FALSE(n.too_long);
}

/* GetFullPathName's rules, by name: what QUERY returns as LogFileName. */
TEST(log_file_name_made_absolute)
{
	char out[ETW_MAX_LOG_FILE_NAME], cwd[ETW_MAX_LOG_FILE_NAME], want[ETW_MAX_LOG_FILE_NAME + 8];
	static char longname[ETW_MAX_LOG_FILE_NAME + 8];

	ASSERT_EQ(ERROR_SUCCESS, etw_props_full_path("/a/./b//c/../d.etl", out, sizeof(out)));
	EXPECT_STREQ("/a/b/d.etl", out);
	ASSERT_EQ(ERROR_SUCCESS, etw_props_full_path("/../../x.etl", out, sizeof(out)));
	EXPECT_STREQ("/x.etl", out);
	ASSERT_EQ(ERROR_SUCCESS, etw_props_full_path("/", out, sizeof(out)));
	EXPECT_STREQ("/", out);
	ASSERT_NE(NULL, getcwd(cwd, sizeof(cwd)));
	ASSERT_EQ(ERROR_SUCCESS, etw_props_full_path("x.etl", out, sizeof(out)));
	snprintf(want, sizeof(want), "%s/x.etl", strcmp(cwd, "/") ? cwd : "");
	EXPECT_STREQ(want, out);
	ASSERT_EQ(ERROR_SUCCESS, etw_props_full_path("./sub/../x.etl", out, sizeof(out)));
	EXPECT_STREQ(want, out);
	/* Longer than a path may be: the name cannot be kept. */
	memset(longname, 'a', sizeof(longname) - 1);
	longname[0] = '/';
	EXPECT_EQ(ERROR_BAD_PATHNAME, etw_props_full_path(longname, out, sizeof(out)));
	EXPECT_EQ(ERROR_BAD_PATHNAME, etw_props_full_path("/abc/def", out, 8));
}

/* A QUERY answer as the module gives it. */
static void session_info(struct etw_session_info *info)
{
	memset(info, 0, sizeof(*info));
	info->logger_id = 3;
	info->buffer_size_kb = 64;
	info->log_file_mode = EVENT_TRACE_FILE_MODE_SEQUENTIAL;
	strcpy(info->name, "etwtest-q");
}

/* ControlTrace's output: the session's and the log file's names, A and W. */
TEST(query_puts_both_names)
{
	struct etw_session_info info;
	struct etw_props pl;
	struct props b;
	WCHAR w[32];

	session_info(&info);
	props(&b, 0);
	b.p.LogFileNameOffset = FILE_OFF;
	ASSERT_EQ(ERROR_SUCCESS, etw_props_check(&b.p, ETW_CS_A, false, &pl));
	ASSERT_EQ(ERROR_SUCCESS, etw_props_fill(&b.p, &pl, &info, "/tmp/q.etl", ETW_CS_A));
	EXPECT_STREQ("etwtest-q", (char *)&b + NAME_OFF);
	EXPECT_STREQ("/tmp/q.etl", (char *)&b + FILE_OFF);
	EXPECT_EQ(FILE_OFF, b.p.LogFileNameOffset);
	EXPECT_EQ(64, b.p.BufferSize);

	/* W: UTF-16 at offsets that need not be aligned. */
	props(&b, 0);
	b.p.LoggerNameOffset = NAME_OFF + 1;
	b.p.LogFileNameOffset = FILE_OFF + 1;
	ASSERT_EQ(ERROR_SUCCESS, etw_props_check(&b.p, ETW_CS_W, false, &pl));
	ASSERT_EQ(ERROR_SUCCESS, etw_props_fill(&b.p, &pl, &info, "/tmp/q\xc3\xa9.etl",
						ETW_CS_W));
	memcpy(w, (char *)&b + FILE_OFF + 1, sizeof(w));
	EXPECT_EQ(0, memcmp(w, u"/tmp/q\u00e9.etl", sizeof(u"/tmp/q\u00e9.etl")));
	memcpy(w, (char *)&b + NAME_OFF + 1, sizeof(w));
	EXPECT_EQ(0, memcmp(w, u"etwtest-q", sizeof(u"etwtest-q")));

	/* A session without a file: an empty name, as its file name is. */
	props(&b, 0);
	file_a(&b.p, "caller's");
	ASSERT_EQ(ERROR_SUCCESS, etw_props_check(&b.p, ETW_CS_A, false, &pl));
	ASSERT_EQ(ERROR_SUCCESS, etw_props_fill(&b.p, &pl, &info, NULL, ETW_CS_A));
	EXPECT_STREQ("", (char *)&b + FILE_OFF);

	/* No LogFileNameOffset: nowhere to put it, and no error. */
	props(&b, 0);
	ASSERT_EQ(ERROR_SUCCESS, etw_props_check(&b.p, ETW_CS_A, false, &pl));
	ASSERT_EQ(ERROR_SUCCESS, etw_props_fill(&b.p, &pl, &info, "/tmp/q.etl", ETW_CS_A));
	EXPECT_EQ(0, b.p.LogFileNameOffset);
	EXPECT_EQ(0, ((char *)&b)[FILE_OFF]);
}

/*
 * A room too small for the file name: ERROR_MORE_DATA, nothing of the
 * name written, everything else filled.  The room ends at the end of the
 * allocation, or at the session name when that comes after it.
 */
TEST(query_file_name_room)
{
	struct etw_session_info info;
	struct etw_props pl;
	struct props b;

	session_info(&info);
	props(&b, 0);
	b.p.Wnode.BufferSize = FILE_OFF + 10;		/* "/tmp/q.etl" is 11 */
	b.p.LogFileNameOffset = FILE_OFF;
	memset((char *)&b + FILE_OFF, 'x', 10);
	ASSERT_EQ(ERROR_SUCCESS, etw_props_check(&b.p, ETW_CS_A, false, &pl));
	EXPECT_EQ(ERROR_MORE_DATA, etw_props_fill(&b.p, &pl, &info, "/tmp/q.etl", ETW_CS_A));
	EXPECT_EQ(0, memcmp((char *)&b + FILE_OFF, "xxxxxxxxxx", 10));
	EXPECT_STREQ("etwtest-q", (char *)&b + NAME_OFF);
	EXPECT_EQ(64, b.p.BufferSize);
	/* One more byte is enough. */
	b.p.Wnode.BufferSize = FILE_OFF + 11;
	ASSERT_EQ(ERROR_SUCCESS, etw_props_check(&b.p, ETW_CS_A, false, &pl));
	EXPECT_EQ(ERROR_SUCCESS, etw_props_fill(&b.p, &pl, &info, "/tmp/q.etl", ETW_CS_A));
	EXPECT_EQ(0, memcmp((char *)&b + FILE_OFF, "/tmp/q.etl", 11));
	/* W needs two bytes a unit. */
	props(&b, 0);
	b.p.Wnode.BufferSize = FILE_OFF + 21;
	b.p.LogFileNameOffset = FILE_OFF;
	ASSERT_EQ(ERROR_SUCCESS, etw_props_check(&b.p, ETW_CS_W, false, &pl));
	EXPECT_EQ(ERROR_MORE_DATA, etw_props_fill(&b.p, &pl, &info, "/tmp/q.etl", ETW_CS_W));
	b.p.Wnode.BufferSize = FILE_OFF + 22;
	ASSERT_EQ(ERROR_SUCCESS, etw_props_check(&b.p, ETW_CS_W, false, &pl));
	EXPECT_EQ(ERROR_SUCCESS, etw_props_fill(&b.p, &pl, &info, "/tmp/q.etl", ETW_CS_W));

	/* The file name first: its room ends where the session name starts. */
	props(&b, 0);
	b.p.LogFileNameOffset = NAME_OFF;
	b.p.LoggerNameOffset = NAME_OFF + 10;
	ASSERT_EQ(ERROR_SUCCESS, etw_props_check(&b.p, ETW_CS_A, false, &pl));
	EXPECT_EQ(ERROR_MORE_DATA, etw_props_fill(&b.p, &pl, &info, "/tmp/q.etl", ETW_CS_A));
	EXPECT_STREQ("etwtest-q", (char *)&b + NAME_OFF + 10);
	b.p.LoggerNameOffset = NAME_OFF + 11;
	ASSERT_EQ(ERROR_SUCCESS, etw_props_check(&b.p, ETW_CS_A, false, &pl));
	EXPECT_EQ(ERROR_SUCCESS, etw_props_fill(&b.p, &pl, &info, "/tmp/q.etl", ETW_CS_A));
	EXPECT_STREQ("/tmp/q.etl", (char *)&b + NAME_OFF);
	EXPECT_STREQ("etwtest-q", (char *)&b + NAME_OFF + 11);
}

/*
 * Without the module every call that passes its checks says so, but for
 * ControlTrace on a session, which cannot exist: an unknown session.
 */
TEST(no_module)
{
	struct props b;
	CONTROLTRACE_ID h;

	if (!access("/dev/" ETW_DEVICE_NAME, F_OK))
		SKIP(return, "/dev/etw exists here");
	EXPECT_EQ(ERROR_NOT_SUPPORTED,
		  StartTraceA(&h, "etwtest-x", props(&b, EVENT_TRACE_REAL_TIME_MODE)));
	EXPECT_EQ(ERROR_WMI_INSTANCE_NOT_FOUND, QueryTraceA(SOME_ID, NULL, &b.p));
	EXPECT_EQ(ERROR_WMI_INSTANCE_NOT_FOUND, StopTraceA(SOME_ID, NULL, &b.p));
	EXPECT_EQ(ERROR_NOT_SUPPORTED,
		  EnableTraceEx2(SOME_ID, &prov, 1, 5, 0, 0, 0, NULL));
}

/*
 * NtQuerySystemInformation/NtSetSystemInformation: only the group-mask
 * class of SystemPerformanceTraceInformation, 48 bytes; a Win32 error of
 * TraceQueryInformation/TraceSetInformation becomes its NTSTATUS.
 */
TEST(nt_system_information_arguments)
{
	struct {
		ULONG info_class;
		TRACEHANDLE handle LIBETW_ALIGN8;
		ULONG masks[8];
	} g;

	EXPECT_EQ(48u, sizeof(g));
	memset(&g, 0, sizeof(g));
	g.info_class = 1;
	g.handle = SOME_ID;
	EXPECT_EQ(STATUS_INVALID_INFO_CLASS,
		  NtQuerySystemInformation(SystemProcessInformation, &g, sizeof(g), NULL));
	EXPECT_EQ(STATUS_INFO_LENGTH_MISMATCH,
		  NtQuerySystemInformation((SYSTEM_INFORMATION_CLASS)0x1f, &g, 47, NULL));
	EXPECT_EQ(STATUS_INFO_LENGTH_MISMATCH,
		  NtSetSystemInformation((SYSTEM_INFORMATION_CLASS)0x1f, NULL, 0));
	g.info_class = 6;	/* EventTraceStackTracingInformation */
	EXPECT_EQ(STATUS_INVALID_INFO_CLASS,
		  NtSetSystemInformation((SYSTEM_INFORMATION_CLASS)0x1f, &g, sizeof(g)));
	/* A handle that is no session's: refused, as TraceQueryInformation does. */
	g.info_class = 1;
	g.handle = 0;
	EXPECT_FALSE(NT_SUCCESS(NtQuerySystemInformation((SYSTEM_INFORMATION_CLASS)0x1f,
							 &g, sizeof(g), NULL)));
	EXPECT_EQ(0u, g.masks[0]);
}

TEST_HARNESS_MAIN
