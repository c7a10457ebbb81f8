// SPDX-License-Identifier: GPL-2.0
/*
 * The classic provider API's checks that Windows makes in user mode, so
 * they need no module (seed 002): TraceEvent's header checks and the
 * logger handle it leaves at offset 0x08, TraceEventInstance's and
 * TraceMessage's own codes, RegisterTraceGuids' arguments, the logger
 * handle decoders, and the table behind the classes' RegHandles.
 */
#include <stdint.h>

#include <windows.h>
#include <evntrace.h>

#include "../src/provider/classic.h"

#include "kselftest_harness.h"

/* Each function's result is also the thread's last error. */
#define LAST(expr)							\
	({								\
		ULONG __r;						\
									\
		SetLastError(0x12345678);				\
		__r = (expr);						\
		GetLastError() == __r ? __r : 0xbad;			\
	})

static const GUID guid = { 0x12345678, 0x1234, 0x5678,
			   { 1, 2, 3, 4, 5, 6, 7, 8 } };

TEST(trace_event_checks_the_header_first)
{
	EVENT_TRACE_HEADER e, before;

	EXPECT_EQ(ERROR_INVALID_PARAMETER, LAST(TraceEvent(1, NULL)));
	memset(&e, 0, sizeof(e));
	e.Size = sizeof(e) - 1;
	e.Flags = WNODE_FLAG_TRACED_GUID;
	e.ThreadId = 0xaaaa;
	before = e;
	EXPECT_EQ(ERROR_INVALID_PARAMETER, LAST(TraceEvent(1, &e)));
	EXPECT_EQ(0, memcmp(&e, &before, sizeof(e)));
	e.Size = sizeof(e);
	e.Flags = WNODE_FLAG_USE_MOF_PTR | WNODE_FLAG_USE_TIMESTAMP;
	before = e;
	EXPECT_EQ(ERROR_INVALID_FLAG_NUMBER, LAST(TraceEvent(1, &e)));
	EXPECT_EQ(0, memcmp(&e, &before, sizeof(e)));
}

TEST(trace_event_loads_the_handle_then_checks_it)
{
	EVENT_TRACE_HEADER e;

	memset(&e, 0, sizeof(e));
	e.Size = sizeof(e);
	e.Flags = WNODE_FLAG_TRACED_GUID;
	EXPECT_EQ(ERROR_INVALID_HANDLE, LAST(TraceEvent(0x0000000700050000ULL, &e)));
	EXPECT_EQ(0x0000000700050000ULL, ((WNODE_HEADER *)&e)->HistoricalContext);
	EXPECT_EQ(ERROR_INVALID_HANDLE, LAST(TraceEvent(0xffff, &e)));
	EXPECT_EQ(0xffff, ((WNODE_HEADER *)&e)->HistoricalContext);
	EXPECT_EQ(0, e.Size - sizeof(e));
	EXPECT_EQ(WNODE_FLAG_TRACED_GUID, e.Flags);
}

TEST(trace_event_instance_codes)
{
	EVENT_INSTANCE_HEADER e;
	EVENT_INSTANCE_INFO i = { NULL, 1 };
	HANDLE cls = etw_class_new(&guid);

	ASSERT_NE(NULL, cls);
	memset(&e, 0, sizeof(e));
	e.Size = sizeof(e);
	e.Flags = WNODE_FLAG_TRACED_GUID;
	EXPECT_EQ(ERROR_INVALID_PARAMETER, LAST(TraceEventInstance(1, NULL, &i, NULL)));
	EXPECT_EQ(ERROR_INVALID_PARAMETER, LAST(TraceEventInstance(1, &e, NULL, NULL)));
	/* A RegHandle that is not a class. */
	EXPECT_EQ(ERROR_INVALID_PARAMETER, LAST(TraceEventInstance(1, &e, &i, NULL)));
	i.RegHandle = cls;
	e.Size = sizeof(e) - 1;
	EXPECT_EQ(ERROR_INVALID_PARAMETER, LAST(TraceEventInstance(1, &e, &i, NULL)));
	e.Size = sizeof(e);
	e.Flags = 0;
	/* Not TraceEvent's ERROR_INVALID_FLAG_NUMBER. */
	EXPECT_EQ(ERROR_INVALID_FLAGS, LAST(TraceEventInstance(1, &e, &i, NULL)));
	e.Flags = WNODE_FLAG_TRACED_GUID;
	EXPECT_EQ(ERROR_INVALID_HANDLE, LAST(TraceEventInstance(0, &e, &i, &i)));
	/* The outputs were written before the handle was refused. */
	EXPECT_EQ((uintptr_t)cls, e.RegHandle);
	EXPECT_EQ(1, e.InstanceId);
	EXPECT_EQ((uintptr_t)cls, e.ParentRegHandle);
	EXPECT_EQ(1, e.ParentInstanceId);
	etw_class_free(cls);
}

TEST(trace_message_codes)
{
	EXPECT_EQ(ERROR_INVALID_HANDLE, LAST(TraceMessage(0, 0, NULL, 1, NULL, (size_t)0)));
	EXPECT_EQ(ERROR_INVALID_HANDLE,
		  LAST(TraceMessage(0x00000000000affffULL, 0, NULL, 1, NULL, (size_t)0)));
	EXPECT_EQ(ERROR_INVALID_PARAMETER,
		  LAST(TraceMessage(1, TRACE_MESSAGE_GUID | TRACE_MESSAGE_COMPONENTID,
				    &guid, 1, NULL, (size_t)0)));
	EXPECT_EQ(ERROR_INVALID_PARAMETER,
		  LAST(TraceMessage(1, TRACE_MESSAGE_GUID, NULL, 1, NULL, (size_t)0)));
	EXPECT_EQ(ERROR_INVALID_PARAMETER,
		  LAST(TraceMessage(1, TRACE_MESSAGE_COMPONENTID, NULL, 1, NULL, (size_t)0)));
	/* Past TRACE_MESSAGE_MAXIMUM_SIZE, before any system call. */
	EXPECT_EQ(ERROR_MORE_DATA,
		  LAST(TraceMessage(1, 0, NULL, 1, &guid, (size_t)40000, &guid,
				    (size_t)40000, NULL, (size_t)0)));
}

static ULONG WINAPI control(WMIDPREQUESTCODE code, PVOID ctx, ULONG *size,
			    PVOID buffer)
{
	return 0;
}

TEST(register_trace_guids_arguments)
{
	TRACE_GUID_REGISTRATION reg[2] = { { &guid, NULL }, { NULL, NULL } };
	TRACEGUID_HANDLE h = 5;

	EXPECT_EQ(ERROR_INVALID_PARAMETER,
		  LAST(RegisterTraceGuidsW(control, NULL, &guid, 0, NULL, NULL, NULL, NULL)));
	EXPECT_EQ(ERROR_INVALID_PARAMETER,
		  LAST(RegisterTraceGuidsW(NULL, NULL, &guid, 0, NULL, NULL, NULL, &h)));
	EXPECT_EQ(0, h);
	EXPECT_EQ(ERROR_INVALID_PARAMETER,
		  LAST(RegisterTraceGuidsA(control, NULL, NULL, 0, NULL, NULL, NULL, &h)));
	EXPECT_EQ(ERROR_INVALID_PARAMETER,
		  LAST(RegisterTraceGuidsA(control, NULL, &guid, 2, NULL, NULL, NULL, &h)));
	EXPECT_EQ(ERROR_INVALID_PARAMETER,
		  LAST(RegisterTraceGuidsA(control, NULL, &guid, 2, reg, NULL, NULL, &h)));
	EXPECT_EQ(NULL, reg[0].RegHandle);
	EXPECT_EQ(ERROR_INVALID_PARAMETER, LAST(UnregisterTraceGuids(0)));
	EXPECT_EQ(ERROR_INVALID_HANDLE, LAST(UnregisterTraceGuids(0x100000001ULL)));
}

TEST(logger_handle_decoders)
{
	WNODE_HEADER w;

	memset(&w, 0, sizeof(w));
	SetLastError(0);
	EXPECT_EQ((TRACELOGGER_HANDLE)(ULONG_PTR)INVALID_HANDLE_VALUE,
		  GetTraceLoggerHandle(NULL));
	EXPECT_EQ(ERROR_INVALID_PARAMETER, GetLastError());
	EXPECT_EQ((TRACELOGGER_HANDLE)(ULONG_PTR)INVALID_HANDLE_VALUE,
		  GetTraceLoggerHandle(&w));
	EXPECT_EQ(ERROR_INVALID_HANDLE, GetLastError());
	/* TRACE_ENABLE_CONTEXT: id 0x21, level 5, private flag, flags 0x80000001. */
	w.HistoricalContext = 0x8000000101050021ULL;
	SetLastError(0);
	EXPECT_EQ(0x8000000101050021ULL, GetTraceLoggerHandle(&w));
	EXPECT_EQ(5, GetTraceEnableLevel(w.HistoricalContext));
	EXPECT_EQ(0x80000001u, GetTraceEnableFlags(w.HistoricalContext));
	EXPECT_EQ(0, GetLastError());	/* success leaves it alone */
	EXPECT_EQ(0, GetTraceEnableLevel(0x0000000100050000ULL));
	EXPECT_EQ(ERROR_INVALID_HANDLE, GetLastError());
	SetLastError(0);
	EXPECT_EQ(0, GetTraceEnableFlags(0x000000010005ffffULL));
	EXPECT_EQ(ERROR_INVALID_HANDLE, GetLastError());
}

TEST(class_handles)
{
	HANDLE a, b, c;
	GUID g;
	ULONG id;
	int i;

	a = etw_class_new(&guid);
	b = etw_class_new(&guid);
	ASSERT_NE(NULL, a);
	ASSERT_NE(NULL, b);
	EXPECT_NE(a, b);
	ASSERT_TRUE(etw_class_guid(a, &g));
	EXPECT_EQ(0, memcmp(&g, &guid, sizeof(g)));
	for (i = 1; i <= 3; i++) {
		ASSERT_TRUE(etw_class_next_instance(a, &id));
		EXPECT_EQ(i, id);
	}
	ASSERT_TRUE(etw_class_next_instance(b, &id));
	EXPECT_EQ(1, id);

	/* A freed class's handle stays invalid when its slot is reused. */
	etw_class_free(a);
	EXPECT_FALSE(etw_class_guid(a, &g));
	EXPECT_FALSE(etw_class_next_instance(a, &id));
	c = etw_class_new(&guid);
	ASSERT_NE(NULL, c);
	EXPECT_NE(a, c);
	EXPECT_FALSE(etw_class_guid(a, &g));
	ASSERT_TRUE(etw_class_next_instance(c, &id));
	EXPECT_EQ(1, id);			/* a new counter */
	etw_class_free(a);			/* twice: nothing */
	EXPECT_TRUE(etw_class_guid(c, &g));

	/* Made-up handles. */
	EXPECT_FALSE(etw_class_guid(NULL, &g));
	EXPECT_FALSE(etw_class_guid((HANDLE)(uintptr_t)0xffff, &g));
	EXPECT_FALSE(etw_class_guid((HANDLE)(uintptr_t)((uintptr_t)b + 0x10000), &g));
	etw_class_free(b);
	etw_class_free(c);
}

TEST_HARNESS_MAIN
