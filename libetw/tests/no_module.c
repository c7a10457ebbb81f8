// SPDX-License-Identifier: GPL-2.0
/*
 * An instrumented program where etw.ko is not loaded (the host: no
 * /dev/etw).  EventRegister, TraceLoggingRegister and RegisterTraceGuids
 * succeed, as Windows' never fail for want of a session; events are
 * disabled for global sessions, the disabled path makes no system call,
 * EventWrite returns ERROR_SUCCESS; a private logger of the process
 * enables the providers and records their events in a file the consumer
 * API reads back; controllers get ERROR_NOT_SUPPORTED, and `etw` says in
 * one line how to load the module.
 */
#include <stdio.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <windows.h>
#include <evntprov.h>
#include <evntrace.h>
#include <evntcons.h>
#include <TraceLoggingProvider.h>

#include "kselftest_harness.h"
#include "../../selftests/etw/no_syscall.h"

#ifndef ETW_TOOL_PATH
#define ETW_TOOL_PATH "build/bin/etw"
#endif

static const GUID provider = { 0x6e0b2c41, 0x93d2, 0x4a5e,
			       { 0x8c, 0x11, 0x2f, 0x3a, 0x4b, 0x5c, 0x6d, 0x7e } };
static const GUID tl_guid = { 0x6e0b2c42, 0x93d2, 0x4a5e,
			      { 0x8c, 0x11, 0x2f, 0x3a, 0x4b, 0x5c, 0x6d, 0x7e } };

TRACELOGGING_DEFINE_PROVIDER(g_tl, "EtwTest.NoModule",
	(0x6e0b2c42, 0x93d2, 0x4a5e, 0x8c, 0x11, 0x2f, 0x3a, 0x4b, 0x5c, 0x6d, 0x7e));

struct cb {
	int calls;
	ULONG is_enabled;
	UCHAR level;
	ULONG classic_code;
};

static struct cb cb;

static void NTAPI enable_cb(LPCGUID source, ULONG is_enabled, UCHAR level,
			    ULONGLONG any, ULONGLONG all,
			    PEVENT_FILTER_DESCRIPTOR filter, PVOID ctx)
{
	cb.calls++;
	cb.is_enabled = is_enabled;
	cb.level = level;
}

static ULONG WINAPI control_cb(WMIDPREQUESTCODE code, PVOID ctx, ULONG *size,
			       PVOID buffer)
{
	cb.calls++;
	cb.classic_code = code;
	return 0;
}

struct pbuf {
	EVENT_TRACE_PROPERTIES p;
	char names[1024];
};

static EVENT_TRACE_PROPERTIES *props(struct pbuf *b, ULONG mode, const char *file)
{
	memset(b, 0, sizeof(*b));
	b->p.Wnode.BufferSize = sizeof(*b);
	b->p.Wnode.Flags = WNODE_FLAG_TRACED_GUID;
	b->p.LogFileMode = mode;
	b->p.LoggerNameOffset = sizeof(b->p);
	if (file) {
		b->p.LogFileNameOffset = sizeof(b->p) + 256;
		strcpy((char *)b + b->p.LogFileNameOffset, file);
	}
	return &b->p;
}

static ULONG stop(CONTROLTRACE_ID h)
{
	struct pbuf b;

	return ControlTraceA(h, NULL, props(&b, 0, NULL), EVENT_TRACE_CONTROL_STOP);
}

FIXTURE(nomod)
{
	char path[64];
};

FIXTURE_SETUP(nomod)
{
	/* What this file tests is a machine without the module. */
	ASSERT_NE(0, access("/dev/etw", F_OK));
	memset(&cb, 0, sizeof(cb));
	snprintf(self->path, sizeof(self->path), "/tmp/etw-nomod-%d.etl", getpid());
}

FIXTURE_TEARDOWN(nomod)
{
	unlink(self->path);
}

/*
 * EventRegister succeeds, the provider is disabled, its events are
 * accepted and go nowhere; the inline test reads an all-zero state (not
 * the library's "ask me" state): a load and a branch.
 */
TEST_F(nomod, eventregister_and_eventwrite_succeed)
{
	EVENT_DESCRIPTOR d = { .Id = 1, .Level = 4, .Keyword = 1 };
	EVENT_DATA_DESCRIPTOR data;
	REGHANDLE reg = 0;
	GUID act = { 0 };
	int v = 7;

	ASSERT_EQ(ERROR_SUCCESS, EventRegister(&provider, enable_cb, NULL, &reg));
	ASSERT_NE(0, reg);
	EXPECT_EQ(0, cb.calls);
	EXPECT_FALSE(EventEnabled(reg, &d));
	EXPECT_FALSE(EventProviderEnabled(reg, 0, 0));
	EXPECT_EQ(0, _etwRegState[reg % _ETW_SLOTS]->Enabled);
	EXPECT_EQ(0, _etwRegState[reg % _ETW_SLOTS]->Level);
	EventDataDescCreate(&data, &v, sizeof(v));
	EXPECT_EQ(ERROR_SUCCESS, EventWrite(reg, &d, 1, &data));
	EXPECT_EQ(ERROR_SUCCESS, EventWriteTransfer(reg, &d, &act, &act, 1, &data));
	EXPECT_EQ(ERROR_SUCCESS, EventWriteEx(reg, &d, 0, 0, NULL, NULL, 1, &data));
	EXPECT_EQ(ERROR_SUCCESS, EventWriteString(reg, 4, 1, u"none"));
	/* Bad arguments are still refused as on Windows. */
	EXPECT_EQ(ERROR_INVALID_PARAMETER, EventWrite(reg, NULL, 0, NULL));
	EXPECT_EQ(ERROR_INVALID_HANDLE, EventWrite(reg + 1, &d, 0, NULL));
	EXPECT_EQ(ERROR_INVALID_PARAMETER, EventRegister(NULL, NULL, NULL, &reg + 0));
	reg = 0;
	ASSERT_EQ(ERROR_SUCCESS, EventRegister(&provider, enable_cb, NULL, &reg));
	EXPECT_EQ(ERROR_SUCCESS, EventUnregister(reg));
	EXPECT_EQ(ERROR_INVALID_HANDLE, EventUnregister(reg));
	EXPECT_EQ(0, cb.calls);
}

/* The disabled path of a provider without the module: no system call. */
TEST_F(nomod, disabled_eventwrite_makes_no_system_call)
{
	EVENT_DESCRIPTOR d = { .Id = 2, .Level = 1 };
	EVENT_DATA_DESCRIPTOR data;
	REGHANDLE reg;
	int status, i = 0;
	pid_t child;

	ASSERT_EQ(ERROR_SUCCESS, EventRegister(&provider, NULL, NULL, &reg));
	EventDataDescCreate(&data, &i, sizeof(i));
	child = fork();
	ASSERT_LE(0, child);
	if (!child) {
		ULONG bad = 0;

		if (etw_forbid_syscalls())
			_exit(3);
		for (i = 0; i < 100; i++)
			bad |= EventWrite(reg, &d, 1, &data);
		bad |= EventEnabled(reg, &d);
		syscall(__NR_exit_group, bad ? 4 : 0);
	}
	ASSERT_EQ(child, waitpid(child, &status, 0));
	EXPECT_TRUE(WIFEXITED(status)) TH_LOG("killed by signal %d", WTERMSIG(status));
	EXPECT_EQ(0, WEXITSTATUS(status));
	EXPECT_EQ(ERROR_SUCCESS, EventUnregister(reg));
}

/*
 * EventSetInformation keeps the module's rules without it: traits once,
 * a well-formed blob, readable memory.
 */
TEST_F(nomod, eventsetinformation_checks_as_the_module)
{
	static const unsigned char traits[] = { 5, 0, 'a', 'b', 0 };
	static const unsigned char bad[] = { 7, 0, 'a', 'b', 'c', 'd', 'e' };
	REGHANDLE reg;
	BOOLEAN on = TRUE;

	ASSERT_EQ(ERROR_SUCCESS, EventRegister(&provider, NULL, NULL, &reg));
	EXPECT_EQ(ERROR_INVALID_PARAMETER,
		  EventSetInformation(reg, EventProviderSetTraits, (void *)bad, sizeof(bad)));
	EXPECT_EQ(ERROR_NOACCESS,
		  EventSetInformation(reg, EventProviderSetTraits, (void *)8, 16));
	EXPECT_EQ(ERROR_SUCCESS,
		  EventSetInformation(reg, EventProviderSetTraits, (void *)traits,
				      sizeof(traits)));
	EXPECT_EQ(ERROR_INVALID_PARAMETER,
		  EventSetInformation(reg, EventProviderSetTraits, (void *)traits,
				      sizeof(traits)));
	EXPECT_EQ(ERROR_INVALID_PARAMETER,
		  EventSetInformation(reg, EventProviderUseDescriptorType, &on, 2));
	EXPECT_EQ(ERROR_SUCCESS,
		  EventSetInformation(reg, EventProviderUseDescriptorType, &on, 1));
	EXPECT_EQ(ERROR_NOT_SUPPORTED,
		  EventSetInformation(reg, EventProviderBinaryTrackInfo, &on, 1));
	EXPECT_EQ(ERROR_SUCCESS, EventUnregister(reg));
}

TEST_F(nomod, tracelogging_registers_and_writes)
{
	ASSERT_EQ(S_OK, TraceLoggingRegister(g_tl));
	EXPECT_FALSE(TraceLoggingProviderEnabled(g_tl, 0, 0));
	TraceLoggingWrite(g_tl, "Nobody", TraceLoggingInt32(1, "one"));
	TraceLoggingUnregister(g_tl);
}

TEST_F(nomod, classic_provider_registers)
{
	TRACE_GUID_REGISTRATION reg = { .Guid = &provider };
	TRACEHANDLE h = 0;

	ASSERT_EQ(ERROR_SUCCESS, RegisterTraceGuidsA(control_cb, NULL, &provider,
						     1, &reg, NULL, NULL, &h));
	EXPECT_NE(0, h);
	EXPECT_EQ(0, cb.calls);
	EXPECT_EQ(ERROR_SUCCESS, UnregisterTraceGuids(h));
}

/*
 * Controllers: starting a session or enabling a provider is
 * ERROR_NOT_SUPPORTED, what libetw returns when the module is not there
 * (the code Windows returns for a request the system cannot serve;
 * programs treat it as fatal).  A session that cannot exist is unknown:
 * ControlTrace QUERY, STOP, FLUSH and UPDATE of one answer
 * ERROR_WMI_INSTANCE_NOT_FOUND, as Windows does for an unknown session,
 * so that a library stopping its session in a destructor (krabsetw) does
 * not take it for a failure.
 */
TEST_F(nomod, controllers_get_error_not_supported)
{
	static const ULONG codes[] = { EVENT_TRACE_CONTROL_QUERY, EVENT_TRACE_CONTROL_STOP,
				       EVENT_TRACE_CONTROL_FLUSH, EVENT_TRACE_CONTROL_UPDATE };
	CONTROLTRACE_ID h = 0;
	struct pbuf b;
	unsigned int i;

	EXPECT_EQ(ERROR_NOT_SUPPORTED,
		  StartTraceA(&h, "etwtest-nomod",
			      props(&b, EVENT_TRACE_REAL_TIME_MODE, NULL)));
	for (i = 0; i < sizeof(codes) / sizeof(codes[0]); i++) {
		EXPECT_EQ(ERROR_WMI_INSTANCE_NOT_FOUND,
			  ControlTraceA(0, "etwtest-nomod", props(&b, 0, NULL), codes[i]))
			TH_LOG("code %u", codes[i]);
		EXPECT_EQ(ERROR_WMI_INSTANCE_NOT_FOUND, GetLastError());
	}
	EXPECT_EQ(ERROR_WMI_INSTANCE_NOT_FOUND,
		  ControlTraceA(0, KERNEL_LOGGER_NAMEA, props(&b, 0, NULL),
				EVENT_TRACE_CONTROL_STOP));
	EXPECT_EQ(ERROR_NOT_SUPPORTED,
		  EnableTraceEx2(1, &provider, EVENT_CONTROL_CODE_ENABLE_PROVIDER,
				 4, 0, 0, 0, NULL));
}

/*
 * `etw` without the module: one line on standard error naming the module
 * and how to load it, beside the code libetw's controllers return; exit
 * status 1.
 */
TEST_F(nomod, etw_says_how_to_load_the_module)
{
	static const char *const cmds[] = { "start etwtest-nomod", "list",
					    "stop etwtest-nomod", "version" };
	char cmd[256], out[1024];
	const char *nl;
	unsigned int i;
	size_t n;
	FILE *p;

	for (i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++) {
		snprintf(cmd, sizeof(cmd), "%s %s 2>&1 >/dev/null", ETW_TOOL_PATH, cmds[i]);
		p = popen(cmd, "r");
		ASSERT_TRUE(p != NULL);
		n = fread(out, 1, sizeof(out) - 1, p);
		out[n] = 0;
		EXPECT_EQ(1, WEXITSTATUS(pclose(p))) TH_LOG("%s", cmds[i]);
		EXPECT_TRUE(strstr(out, "ERROR_NOT_SUPPORTED (50): etw.ko is not loaded; "
				   "load it with 'modprobe etw'\n") != NULL)
			TH_LOG("%s: %s", cmds[i], out);
		/* The line is all there is. */
		nl = strchr(out, '\n');
		EXPECT_TRUE(nl && (size_t)(nl - out + 1) == n) TH_LOG("%s", out);
	}
}

/* What ProcessTrace presents of the private logger's file. */
struct seen {
	int event, classic, tl, bad;
};

static VOID WINAPI on_record(PEVENT_RECORD r)
{
	struct seen *s = r->UserContext;
	const EVENT_HEADER *h = &r->EventHeader;
	int v;

	if (IsEqualGUID(&h->ProviderId, &tl_guid)) {
		bool schema = false;
		USHORT i;

		for (i = 0; i < r->ExtendedDataCount; i++)
			schema |= r->ExtendedData[i].ExtType ==
				  EVENT_HEADER_EXT_TYPE_EVENT_SCHEMA_TL;
		s->bad += !schema || r->UserDataLength != 4;
		memcpy(&v, r->UserData, sizeof(v));
		s->bad += v != -42;
		s->tl++;
		return;
	}
	if (!IsEqualGUID(&h->ProviderId, &provider))
		return;
	s->bad += h->ProcessId != (ULONG)getpid();
	if (h->Flags & EVENT_HEADER_FLAG_CLASSIC_HEADER) {
		s->bad += h->EventDescriptor.Opcode != EVENT_TRACE_TYPE_INFO;
		s->classic++;
		return;
	}
	s->bad += h->EventDescriptor.Id != 14 || r->UserDataLength != 4 ||
		  memcmp(r->UserData, "evt", 4);
	s->event++;
}

static ULONG process_file(const char *path, struct seen *s)
{
	EVENT_TRACE_LOGFILEA lf;
	PROCESSTRACE_HANDLE h;
	ULONG err;

	memset(&lf, 0, sizeof(lf));
	lf.LogFileName = (LPSTR)path;
	lf.ProcessTraceMode = PROCESS_TRACE_MODE_EVENT_RECORD;
	lf.EventRecordCallback = on_record;
	lf.Context = s;
	h = OpenTraceA(&lf);
	if (h == INVALID_PROCESSTRACE_HANDLE)
		return GetLastError();
	err = ProcessTrace(&h, 1, NULL, NULL);
	CloseTrace(h);
	return err;
}

/*
 * A private logger of the process enables providers registered without
 * the module: EventRegister's callback runs, EventWrite, TraceLogging and
 * a classic provider's TraceEvent reach the logger, and its file reads
 * back with ProcessTrace.
 */
TEST_F(nomod, private_logger_records_to_a_file)
{
	EVENT_DESCRIPTOR d = { .Id = 14, .Level = 4 };
	TRACE_GUID_REGISTRATION treg = { .Guid = &provider };
	EVENT_DATA_DESCRIPTOR data;
	EVENT_TRACE_HEADER e;
	CONTROLTRACE_ID h = 0;
	TRACEHANDLE th;
	struct seen s = { 0 };
	struct pbuf b;
	REGHANDLE reg;
	int i;

	ASSERT_EQ(ERROR_SUCCESS, EventRegister(&provider, enable_cb, NULL, &reg));
	ASSERT_EQ(ERROR_SUCCESS, TraceLoggingRegister(g_tl));
	ASSERT_EQ(ERROR_SUCCESS, RegisterTraceGuidsA(control_cb, NULL, &provider,
						     1, &treg, NULL, NULL, &th));
	props(&b, EVENT_TRACE_PRIVATE_LOGGER_MODE | EVENT_TRACE_PRIVATE_IN_PROC,
	      self->path);
	b.p.Wnode.Guid = provider;
	ASSERT_EQ(ERROR_SUCCESS, StartTraceA(&h, "etwtest-nomod-private", &b.p));

	ASSERT_EQ(ERROR_SUCCESS, EnableTraceEx2(h, &provider,
						EVENT_CONTROL_CODE_ENABLE_PROVIDER,
						5, 0, 0, 0, NULL));
	/* Both registrations of the GUID are called back, in this thread. */
	EXPECT_EQ(2, cb.calls);
	EXPECT_EQ(EVENT_CONTROL_CODE_ENABLE_PROVIDER, cb.is_enabled);
	EXPECT_EQ(WMI_ENABLE_EVENTS, cb.classic_code);
	EXPECT_TRUE(EventEnabled(reg, &d));
	ASSERT_EQ(ERROR_SUCCESS, EnableTraceEx2(h, &tl_guid,
						EVENT_CONTROL_CODE_ENABLE_PROVIDER,
						5, 0, 0, 0, NULL));
	EXPECT_TRUE(TraceLoggingProviderEnabled(g_tl, 4, 0));

	EventDataDescCreate(&data, "evt", 4);
	for (i = 0; i < 3; i++)
		EXPECT_EQ(ERROR_SUCCESS, EventWrite(reg, &d, 1, &data));
	TraceLoggingWrite(g_tl, "Private", TraceLoggingLevel(WINEVENT_LEVEL_INFO),
			  TraceLoggingInt32(-42, "answer"));
	memset(&e, 0, sizeof(e));
	e.Size = sizeof(e);
	e.Flags = WNODE_FLAG_TRACED_GUID;
	e.Guid = provider;
	e.Class.Type = EVENT_TRACE_TYPE_INFO;
	EXPECT_EQ(ERROR_SUCCESS, TraceEvent(h, &e));
	ASSERT_EQ(ERROR_SUCCESS, stop(h));

	EXPECT_EQ(ERROR_SUCCESS, EventUnregister(reg));
	TraceLoggingUnregister(g_tl);
	EXPECT_EQ(ERROR_SUCCESS, UnregisterTraceGuids(th));

	ASSERT_EQ(ERROR_SUCCESS, process_file(self->path, &s));
	EXPECT_EQ(3, s.event);
	EXPECT_EQ(1, s.tl);
	EXPECT_EQ(1, s.classic);
	EXPECT_EQ(0, s.bad);
}

/*
 * A child of fork() keeps its parent's registrations without the module
 * (no watch thread is left to wait for the device) and its own private
 * logger enables them.
 */
TEST_F(nomod, a_forked_child_registers_and_writes)
{
	EVENT_DESCRIPTOR d = { .Id = 14, .Level = 4 };
	EVENT_DATA_DESCRIPTOR data;
	REGHANDLE reg;
	int status;
	pid_t child;

	ASSERT_EQ(ERROR_SUCCESS, EventRegister(&provider, enable_cb, NULL, &reg));
	EventDataDescCreate(&data, "evt", 4);
	child = fork();
	ASSERT_LE(0, child);
	if (!child) {
		CONTROLTRACE_ID h = 0;
		struct seen s = { 0 };
		struct pbuf b;
		REGHANDLE r2;

		props(&b, EVENT_TRACE_PRIVATE_LOGGER_MODE | EVENT_TRACE_PRIVATE_IN_PROC,
		      self->path);
		if (EventEnabled(reg, &d) || EventWrite(reg, &d, 1, &data) ||
		    EventRegister(&provider, NULL, NULL, &r2) ||
		    StartTraceA(&h, "etwtest-nomod-child", &b.p) ||
		    EnableTraceEx2(h, &provider, EVENT_CONTROL_CODE_ENABLE_PROVIDER,
				   5, 0, 0, 0, NULL) || cb.calls != 1 ||
		    EventWrite(reg, &d, 1, &data) || EventWrite(r2, &d, 1, &data) ||
		    stop(h) || process_file(self->path, &s))
			_exit(3);
		_exit(s.event == 2 && !s.bad ? 0 : 4);
	}
	ASSERT_EQ(child, waitpid(child, &status, 0));
	EXPECT_TRUE(WIFEXITED(status));
	EXPECT_EQ(0, WEXITSTATUS(status));
	EXPECT_EQ(0, cb.calls);
	EXPECT_EQ(ERROR_SUCCESS, EventUnregister(reg));
}

TEST_HARNESS_MAIN
