// SPDX-License-Identifier: GPL-2.0
/*
 * Private loggers with the providers of their process: EnableTraceEx2 and
 * EnableTrace on a private logger's handle call EventRegister and
 * RegisterTraceGuids providers back before they return, EventWrite and
 * TraceEvent reach its buffers without a system call, a provider enabled
 * by a private logger and a module session writes to both, and stopping
 * the logger disables its providers.  The file is read back with libetw's
 * reader.  (Private loggers alone: the host unit test private_logger.)
 */
#include <stdio.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#include <windows.h>
#include <evntprov.h>
#include <evntcons.h>
#include <TraceLoggingProvider.h>

#include "kselftest_harness.h"
#include "no_syscall.h"
#include "classic_api.h"

struct cb {
	int calls;
	ULONG is_enabled;
	UCHAR level;
	ULONGLONG any, all;
	/* classic */
	ULONG code;
	TRACELOGGER_HANDLE handle;
	ULONG write_result;
};

static struct cb cb;
static GUID provider;

static void NTAPI enable_cb(LPCGUID source, ULONG is_enabled, UCHAR level,
			    ULONGLONG any, ULONGLONG all,
			    PEVENT_FILTER_DESCRIPTOR filter, PVOID ctx)
{
	cb.calls++;
	cb.is_enabled = is_enabled;
	cb.level = level;
	cb.any = any;
	cb.all = all;
}

static ULONG WINAPI control_cb(WMIDPREQUESTCODE code, PVOID ctx, ULONG *size,
			       PVOID buffer)
{
	EVENT_TRACE_HEADER e;

	cb.calls++;
	cb.code = code;
	cb.handle = GetTraceLoggerHandle(buffer);
	cb.level = GetTraceEnableLevel(cb.handle);
	cb.any = GetTraceEnableFlags(cb.handle);
	if (code == WMI_ENABLE_EVENTS) {
		memset(&e, 0, sizeof(e));
		e.Size = sizeof(e);
		e.Flags = WNODE_FLAG_TRACED_GUID;
		e.Guid = provider;
		e.Class.Type = EVENT_TRACE_TYPE_START;
		cb.write_result = TraceEvent(cb.handle, &e);
	}
	return 0;
}

/* A private logger writing @file. */
static ULONG start_private(const char *name, const char *file, CONTROLTRACE_ID *h)
{
	struct pbuf b;

	memset(&b, 0, sizeof(b));
	b.p.Wnode.BufferSize = sizeof(b);
	b.p.Wnode.Flags = WNODE_FLAG_TRACED_GUID;
	b.p.Wnode.Guid = provider;
	b.p.LogFileMode = EVENT_TRACE_PRIVATE_LOGGER_MODE | EVENT_TRACE_PRIVATE_IN_PROC;
	b.p.LoggerNameOffset = sizeof(b.p);
	b.p.LogFileNameOffset = sizeof(b.p) + 64;
	b.p.BufferSize = 8;
	strcpy((char *)&b + b.p.LogFileNameOffset, file);
	return StartTraceA(h, name, &b.p);
}

static ULONG ctl(CONTROLTRACE_ID h, const char *name, ULONG code)
{
	struct pbuf b;

	memset(&b, 0, sizeof(b));
	b.p.Wnode.BufferSize = sizeof(b);
	b.p.LoggerNameOffset = sizeof(b.p);
	return ControlTraceA(h, name, &b.p, code);
}

static const char *path = "/tmp/etwtest-private-vm.etl";

FIXTURE(pl)
{
	int fd;
	CONTROLTRACE_ID h;
	struct events e;
};

FIXTURE_SETUP(pl)
{
	etw_require_root(_metadata);
	self->fd = etw_open_or_skip(_metadata);
	etw_stop_test_sessions(self->fd);
	etw_test_guid((__u8 *)&provider, 0x90);
	memset(&cb, 0, sizeof(cb));
	self->e.etl = NULL;
	ASSERT_EQ(ERROR_SUCCESS, start_private("etwtest-private", path, &self->h));
}

FIXTURE_TEARDOWN(pl)
{
	if (self->e.etl)
		etw_etl_close(self->e.etl);
	ctl(self->h, NULL, EVENT_TRACE_CONTROL_STOP);
	unlink(path);
	if (self->fd >= 0) {
		etw_stop_test_sessions(self->fd);
		close(self->fd);
	}
}

TEST_F(pl, eventwrite_reaches_the_private_logger)
{
	EVENT_DESCRIPTOR d = { .Id = 11, .Level = 4, .Keyword = 0x1 };
	EVENT_DATA_DESCRIPTOR data;
	const struct etw_etl_event *ev;
	REGHANDLE reg;

	ASSERT_EQ(ERROR_SUCCESS, EventRegister(&provider, enable_cb, NULL, &reg));
	EXPECT_EQ(0, cb.calls);
	/* The callback runs before EnableTraceEx2 returns: same process. */
	ASSERT_EQ(ERROR_SUCCESS, EnableTraceEx2(self->h, &provider,
						EVENT_CONTROL_CODE_ENABLE_PROVIDER,
						4, 0x3, 0, 0, NULL));
	EXPECT_EQ(1, cb.calls);
	EXPECT_EQ(1, cb.is_enabled);
	EXPECT_EQ(4, cb.level);
	EXPECT_EQ(0x3, cb.any);
	EXPECT_TRUE(EventEnabled(reg, &d));
	EXPECT_TRUE(EventProviderEnabled(reg, 4, 0x2));
	EXPECT_FALSE(EventProviderEnabled(reg, 5, 0x1));
	EXPECT_FALSE(EventProviderEnabled(reg, 4, 0x4));

	EventDataDescCreate(&data, "private!", 9);
	ASSERT_EQ(ERROR_SUCCESS, EventWrite(reg, &d, 1, &data));
	d.Level = 5;		/* filtered out */
	ASSERT_EQ(ERROR_SUCCESS, EventWrite(reg, &d, 1, &data));
	ASSERT_EQ(ERROR_SUCCESS, EventWriteString(reg, 1, 0, u"str"));

	ASSERT_EQ(ERROR_SUCCESS, ctl(self->h, NULL, EVENT_TRACE_CONTROL_FLUSH));
	ASSERT_EQ(0, read_etl(path, &self->e));
	ASSERT_EQ(2, self->e.n);
	ev = &self->e.ev[0];
	EXPECT_EQ(ETW_ETL_KIND_EVENT, ev->kind);
	EXPECT_EQ(0, memcmp(&ev->provider, &provider, 16));
	EXPECT_EQ(11, ev->id);
	EXPECT_EQ(4, ev->level);
	EXPECT_TRUE(ev->flags & EVENT_HEADER_FLAG_PRIVATE_SESSION);
	EXPECT_EQ(getpid(), ev->process_id);
	EXPECT_EQ(syscall(SYS_gettid), ev->thread_id);
	ASSERT_EQ(9, ev->data_size);
	EXPECT_EQ(0, memcmp(ev->data, "private!", 9));
	EXPECT_TRUE(self->e.ev[1].flags & EVENT_HEADER_FLAG_STRING_ONLY);

	/* Disabled: called back, and nothing is written any more. */
	ASSERT_EQ(ERROR_SUCCESS, EnableTraceEx2(self->h, &provider,
						EVENT_CONTROL_CODE_DISABLE_PROVIDER,
						0, 0, 0, 0, NULL));
	EXPECT_EQ(2, cb.calls);
	EXPECT_EQ(0, cb.is_enabled);
	d.Level = 4;
	EXPECT_FALSE(EventEnabled(reg, &d));
	EXPECT_EQ(ERROR_SUCCESS, EventUnregister(reg));
}

/*
 * EventWrite into a private logger with memory it cannot read (the
 * descriptors, a payload, the activity id): ERROR_NOACCESS, as Windows'
 * exception handling gives, nothing stored, and the next event written.
 */
TEST_F(pl, eventwrite_unreadable_memory_is_error_noaccess)
{
	EVENT_DESCRIPTOR d = { .Id = 12, .Level = 4, .Keyword = 0x1 };
	EVENT_DATA_DESCRIPTOR data[2];
	char *bad = mmap(NULL, 4096, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	REGHANDLE reg;

	ASSERT_NE(MAP_FAILED, bad);
	ASSERT_EQ(ERROR_SUCCESS, EventRegister(&provider, NULL, NULL, &reg));
	ASSERT_EQ(ERROR_SUCCESS, EnableTraceEx2(self->h, &provider,
						EVENT_CONTROL_CODE_ENABLE_PROVIDER,
						4, 0x1, 0, 0, NULL));
	EventDataDescCreate(&data[0], "ok", 2);
	EventDataDescCreate(&data[1], bad, 8);
	EXPECT_EQ(ERROR_NOACCESS, EventWrite(reg, &d, 2, data));
	EXPECT_EQ(ERROR_NOACCESS, EventWrite(reg, &d, 1, (PEVENT_DATA_DESCRIPTOR)bad));
	EXPECT_EQ(ERROR_NOACCESS, EventWriteTransfer(reg, &d, (LPCGUID)bad, NULL, 1, data));
	EXPECT_EQ(ERROR_SUCCESS, EventWrite(reg, &d, 1, data));

	ASSERT_EQ(ERROR_SUCCESS, ctl(self->h, NULL, EVENT_TRACE_CONTROL_FLUSH));
	ASSERT_EQ(0, read_etl(path, &self->e));
	ASSERT_EQ(1, self->e.n);
	ASSERT_EQ(2, self->e.ev[0].data_size);
	EXPECT_EQ(0, memcmp(self->e.ev[0].data, "ok", 2));
	EXPECT_EQ(ERROR_SUCCESS, EventUnregister(reg));
	munmap(bad, 4096);
}

TEST_F(pl, private_and_module_sessions_together)
{
	EVENT_DESCRIPTOR d = { .Id = 12, .Level = 2, .Keyword = 0x10 };
	CONTROLTRACE_ID k;
	REGHANDLE reg;

	ASSERT_EQ(ERROR_SUCCESS, start("etwtest-private-k", 8, 0, &k));
	ASSERT_EQ(ERROR_SUCCESS, EventRegister(&provider, enable_cb, NULL, &reg));
	ASSERT_EQ(ERROR_SUCCESS, EnableTraceEx2(k, &provider,
						EVENT_CONTROL_CODE_ENABLE_PROVIDER,
						2, 0x10, 0, 5000, NULL));
	ASSERT_EQ(1, cb.calls);
	ASSERT_EQ(ERROR_SUCCESS, EnableTraceEx2(self->h, &provider,
						EVENT_CONTROL_CODE_ENABLE_PROVIDER,
						5, 0x30, 0, 0, NULL));
	/* The callback sees both: the higher level, the keywords ORed. */
	EXPECT_EQ(2, cb.calls);
	EXPECT_EQ(1, cb.is_enabled);
	EXPECT_EQ(5, cb.level);
	EXPECT_EQ(0x30, cb.any);
	ASSERT_EQ(ERROR_SUCCESS, EventWrite(reg, &d, 0, NULL));
	d.Keyword = 0x20;	/* the private logger's only */
	ASSERT_EQ(ERROR_SUCCESS, EventWrite(reg, &d, 0, NULL));
	EXPECT_EQ(1, ct_drain(self->fd, LOGGER_ID(k), NULL, NULL));
	ASSERT_EQ(ERROR_SUCCESS, ctl(self->h, NULL, EVENT_TRACE_CONTROL_FLUSH));
	ASSERT_EQ(0, read_etl(path, &self->e));
	EXPECT_EQ(2, self->e.n);
	/* The private logger stops: its providers are disabled there. */
	ASSERT_EQ(ERROR_SUCCESS, ctl(0, "etwtest-private", EVENT_TRACE_CONTROL_STOP));
	EXPECT_EQ(3, cb.calls);
	EXPECT_EQ(1, cb.is_enabled);		/* still by the module's session */
	EXPECT_FALSE(EventProviderEnabled(reg, 0, 0x20));
	EXPECT_TRUE(EventProviderEnabled(reg, 0, 0x10));
	EXPECT_EQ(ERROR_WMI_INSTANCE_NOT_FOUND, ctl(0, "etwtest-private",
						    EVENT_TRACE_CONTROL_QUERY));
	EXPECT_EQ(ERROR_SUCCESS, EventUnregister(reg));
}

TEST_F(pl, classic_provider_gets_the_private_handle)
{
	const struct etw_etl_event *ev;
	TRACEGUID_HANDLE reg;

	ASSERT_EQ(ERROR_SUCCESS, RegisterTraceGuidsA(control_cb, NULL, &provider, 0,
						     NULL, NULL, NULL, &reg));
	ASSERT_EQ(ERROR_SUCCESS, EnableTrace(TRUE, 0x5, 3, &provider, self->h));
	EXPECT_EQ(1, cb.calls);
	EXPECT_EQ(WMI_ENABLE_EVENTS, cb.code);
	EXPECT_EQ(0x01000000, cb.handle & 0xff000000);
	EXPECT_EQ(self->h & 0xffff, cb.handle & 0xffff);
	EXPECT_EQ(3, cb.level);
	EXPECT_EQ(5, cb.any);
	EXPECT_EQ(ERROR_SUCCESS, cb.write_result);

	ASSERT_EQ(ERROR_SUCCESS, ctl(self->h, NULL, EVENT_TRACE_CONTROL_FLUSH));
	ASSERT_EQ(0, read_etl(path, &self->e));
	ASSERT_EQ(1, self->e.n);
	ev = &self->e.ev[0];
	EXPECT_EQ(ETW_ETL_KIND_CLASSIC, ev->kind);
	EXPECT_EQ(EVENT_TRACE_TYPE_START, ev->opcode);

	/* Stopping the logger disables it, with that logger's handle. */
	ASSERT_EQ(ERROR_SUCCESS, ctl(self->h, NULL, EVENT_TRACE_CONTROL_STOP));
	EXPECT_EQ(2, cb.calls);
	EXPECT_EQ(WMI_DISABLE_EVENTS, cb.code);
	EXPECT_EQ(self->h & 0xffff, cb.handle & 0xffff);
	EXPECT_EQ(ERROR_SUCCESS, UnregisterTraceGuids(reg));
}

TEST_F(pl, enabled_before_registering)
{
	REGHANDLE reg;

	ASSERT_EQ(ERROR_SUCCESS, EnableTrace(TRUE, 0x9, 2, &provider, self->h));
	ASSERT_EQ(ERROR_SUCCESS, EventRegister(&provider, enable_cb, NULL, &reg));
	EXPECT_EQ(1, cb.calls);
	EXPECT_EQ(1, cb.is_enabled);
	EXPECT_EQ(2, cb.level);
	EXPECT_EQ(0x9, cb.any);
	EXPECT_TRUE(EventProviderEnabled(reg, 2, 0x8));
	EXPECT_EQ(ERROR_SUCCESS, EventUnregister(reg));
}

/*
 * EventWrite into a private logger only: no ioctl, no system call
 * (seccomp kills one).  In a child, which has none of its parent's
 * private loggers: it starts and enables its own.
 */
TEST_F(pl, eventwrite_makes_no_system_call)
{
	EVENT_DESCRIPTOR d = { .Id = 13, .Level = 1 };
	EVENT_DATA_DESCRIPTOR data;
	REGHANDLE reg;
	int status, i;
	pid_t child;

	ASSERT_EQ(ERROR_SUCCESS, EventRegister(&provider, NULL, NULL, &reg));
	ASSERT_EQ(ERROR_SUCCESS, EnableTrace(TRUE, 0, 0, &provider, self->h));
	EventDataDescCreate(&data, &i, sizeof(i));
	child = fork();
	ASSERT_LE(0, child);
	if (!child) {
		CONTROLTRACE_ID own;
		ULONG bad;

		/* The parent's logger is not the child's. */
		bad = EventEnabled(reg, &d);
		bad |= start_private("etwtest-private-child",
				     "/tmp/etwtest-private-child.etl", &own);
		bad |= EnableTrace(TRUE, 0, 0, &provider, own);
		/* Its ids are cached by its first event. */
		bad |= EventWrite(reg, &d, 1, &data);
		if (bad || etw_forbid_syscalls())
			_exit(3);
		for (i = 0; i < 50; i++)
			bad |= EventWrite(reg, &d, 1, &data);
		bad |= !EventEnabled(reg, &d);
		syscall(__NR_exit_group, bad ? 4 : 0);
	}
	ASSERT_EQ(child, waitpid(child, &status, 0));
	unlink("/tmp/etwtest-private-child.etl");
	EXPECT_TRUE(WIFEXITED(status)) TH_LOG("killed by signal %d", WTERMSIG(status));
	EXPECT_EQ(0, WEXITSTATUS(status));
	EXPECT_EQ(ERROR_SUCCESS, EventUnregister(reg));
}

/* What ProcessTrace presents of a private logger's file. */
struct seen {
	int classic, message, event, bad;
};

static VOID WINAPI on_record(PEVENT_RECORD r)
{
	struct seen *s = r->UserContext;
	const EVENT_HEADER *h = &r->EventHeader;

	if (!IsEqualGUID(&h->ProviderId, &provider))
		return;
	s->bad += h->ProcessId != (ULONG)getpid();
	s->bad += h->ThreadId != (ULONG)syscall(SYS_gettid);
	if (h->Flags & EVENT_HEADER_FLAG_CLASSIC_HEADER) {
		/* The MOF type is the opcode. */
		s->bad += h->EventDescriptor.Opcode != EVENT_TRACE_TYPE_DC_START;
		s->bad += r->UserDataLength != 4 || memcmp(r->UserData, "mof", 4);
		s->classic++;
	} else if (h->Flags & EVENT_HEADER_FLAG_TRACE_MESSAGE) {
		s->bad += h->EventDescriptor.Id != 77;
		s->bad += r->UserDataLength != 4 || memcmp(r->UserData, "msg", 4);
		s->message++;
	} else {
		s->bad += !(h->Flags & EVENT_HEADER_FLAG_PRIVATE_SESSION);
		s->bad += h->EventDescriptor.Id != 14;
		s->bad += r->UserDataLength != 4 || memcmp(r->UserData, "evt", 4);
		s->event++;
	}
}

/* A stopped private logger's file: ProcessTrace and `etw dump` read it. */
TEST_F(pl, file_reads_back_with_processtrace_and_etw_dump)
{
	EVENT_DESCRIPTOR d = { .Id = 14, .Level = 4 };
	EVENT_DATA_DESCRIPTOR data;
	struct {
		EVENT_TRACE_HEADER h;
		char mof[4];
	} e;
	struct seen s = { 0 };
	char text[40];
	REGHANDLE reg;

	ASSERT_EQ(ERROR_SUCCESS, EventRegister(&provider, NULL, NULL, &reg));
	ASSERT_EQ(ERROR_SUCCESS, EnableTrace(TRUE, 0, 4, &provider, self->h));
	EventDataDescCreate(&data, "evt", 4);
	ASSERT_EQ(ERROR_SUCCESS, EventWrite(reg, &d, 1, &data));
	memset(&e, 0, sizeof(e));
	e.h.Size = sizeof(e.h) + sizeof(e.mof);
	e.h.Flags = WNODE_FLAG_TRACED_GUID;
	e.h.Guid = provider;
	e.h.Class.Type = EVENT_TRACE_TYPE_DC_START;
	memcpy(e.mof, "mof", 4);
	ASSERT_EQ(ERROR_SUCCESS, TraceEvent(self->h, &e.h));
	ASSERT_EQ(ERROR_SUCCESS, TraceMessage(self->h, TRACE_MESSAGE_GUID |
					      TRACE_MESSAGE_SYSTEMINFO,
					      &provider, 77, "msg", (size_t)4,
					      NULL, (size_t)0));
	ASSERT_EQ(ERROR_SUCCESS, ctl(self->h, NULL, EVENT_TRACE_CONTROL_STOP));
	EXPECT_EQ(ERROR_SUCCESS, EventUnregister(reg));

	ASSERT_EQ(ERROR_SUCCESS, process_file(path, on_record, NULL, &s));
	EXPECT_EQ(1, s.classic);
	EXPECT_EQ(1, s.message);
	EXPECT_EQ(1, s.event);
	EXPECT_EQ(0, s.bad);

	if (access("/usr/bin/etw", X_OK))
		SKIP(return, "the etw tool is not installed");
	etw_etl_guid_to_str((const struct etw_etl_guid *)&provider, text);
	{
		const struct dump_line want[] = {
			{ "EVENT_TRACE_HEADER64", text },
			{ "MESSAGE_TRACE_HEADER", NULL },
			{ "message 77", NULL },
		};

		EXPECT_EQ(7, dump_finds(path, want, 3));
	}
}

TRACELOGGING_DEFINE_PROVIDER(g_private_tl, "EtwTest.PrivateTL",
	(0x5a3c8e11, 0x2b4d, 0x4f60, 0x91, 0x7a, 0x0c, 0x1d, 0x2e, 0x3f, 0x40, 0x51));

/*
 * TraceLogging into a private logger: the PROV_TRAITS and EVENT_SCHEMA_TL
 * items are stored as the module stores them, so etw dump decodes the
 * event's name and fields from the file.
 */
TEST_F(pl, tracelogging_events_decode_from_the_file)
{
	static const GUID tl = { 0x5a3c8e11, 0x2b4d, 0x4f60,
				 { 0x91, 0x7a, 0x0c, 0x1d, 0x2e, 0x3f, 0x40, 0x51 } };
	static char out[1 << 15];
	char cmd[128];

	ASSERT_EQ(S_OK, TraceLoggingRegister(g_private_tl));
	ASSERT_EQ(ERROR_SUCCESS, EnableTraceEx2(self->h, &tl,
						EVENT_CONTROL_CODE_ENABLE_PROVIDER,
						5, 0, 0, 0, NULL));
	EXPECT_TRUE(TraceLoggingProviderEnabled(g_private_tl, 4, 0));
	TraceLoggingWrite(g_private_tl, "PrivateEvent",
			  TraceLoggingLevel(WINEVENT_LEVEL_INFO),
			  TraceLoggingInt32(-42, "answer"),
			  TraceLoggingString("in-process", "where"));
	TraceLoggingUnregister(g_private_tl);

	/* Descriptor types as the module checks them: one of each at most. */
	{
		EVENT_DESCRIPTOR d = { .Id = 3, .Level = 4 };
		EVENT_DATA_DESCRIPTOR data[2];
		BOOLEAN on = TRUE;
		REGHANDLE reg;

		ASSERT_EQ(ERROR_SUCCESS, EventRegister(&provider, NULL, NULL, &reg));
		ASSERT_EQ(ERROR_SUCCESS, EventSetInformation(reg, EventProviderUseDescriptorType,
							     &on, sizeof(on)));
		ASSERT_EQ(ERROR_SUCCESS, EnableTrace(TRUE, 0, 4, &provider, self->h));
		EventDataDescCreate(&data[0], "\x10\x00\x00", 3);
		EventDataDescCreate(&data[1], "\x10\x00\x00", 3);
		data[0].Type = data[1].Type = EVENT_DATA_DESCRIPTOR_TYPE_EVENT_METADATA;
		EXPECT_EQ(ERROR_INVALID_PARAMETER, EventWrite(reg, &d, 2, data));
		data[1].Type = EVENT_DATA_DESCRIPTOR_TYPE_TIMESTAMP_OVERRIDE;
		EXPECT_EQ(ERROR_INVALID_PARAMETER, EventWrite(reg, &d, 2, data));
		EXPECT_EQ(ERROR_SUCCESS, EventUnregister(reg));
	}
	ASSERT_EQ(ERROR_SUCCESS, ctl(self->h, NULL, EVENT_TRACE_CONTROL_STOP));

	if (access("/usr/bin/etw", X_OK))
		SKIP(return, "the etw tool is not installed");
	snprintf(cmd, sizeof(cmd), "etw dump --format json %s", path);
	ASSERT_EQ(0, etw_sh(cmd, out, sizeof(out)));
	EXPECT_TRUE(strstr(out, "\"provider_name\": \"EtwTest.PrivateTL\"") != NULL)
		TH_LOG("%s", out);
	EXPECT_TRUE(strstr(out, "\"event_name\": \"PrivateEvent\"") != NULL);
	EXPECT_TRUE(strstr(out, "{\"name\": \"answer\", \"value\": \"-42\"}") != NULL);
	EXPECT_TRUE(strstr(out, "{\"name\": \"where\", \"value\": \"in-process\"}") != NULL);
}

/* The example the demo runs: a classic provider and its private logger. */
TEST(example_program_writes_a_readable_file)
{
	static char out[1 << 15];

	if (access("/usr/bin/etw-example-private-logger", X_OK) ||
	    access("/usr/bin/etw", X_OK))
		SKIP(return, "the example or the etw tool is not installed");
	ASSERT_EQ(0, etw_sh("etw-example-private-logger /tmp/etwtest-example-private.etl",
			    out, sizeof(out))) TH_LOG("%s", out);
	EXPECT_TRUE(strstr(out, "provider: enabled, level 4 flags 0x1") != NULL) TH_LOG("%s", out);
	EXPECT_TRUE(strstr(out, "provider: disabled") != NULL);
	ASSERT_EQ(0, etw_sh("etw dump /tmp/etwtest-example-private.etl", out, sizeof(out)));
	unlink("/tmp/etwtest-example-private.etl");
	EXPECT_TRUE(strstr(out, "EVENT_TRACE_HEADER64") != NULL) TH_LOG("%s", out);
	EXPECT_TRUE(strstr(out, "message 1 flags") != NULL);
}

TEST_HARNESS_MAIN
