// SPDX-License-Identifier: GPL-2.0
/*
 * The Windows controller API of libetw over the module: StartTrace,
 * ControlTrace and its Stop/Query/Update/Flush forms, QueryAllTraces,
 * EnableTrace, EnableTraceEx and EnableTraceEx2, in their A and W forms,
 * with the properties they fill (the log file name the module keeps, ABI
 * 1.4, included) and the Win32 errors they return.  Events
 * come from the libetw provider API and are read back with the raw
 * buffer ioctl (etw_count), so every count is exact.
 */
#include <pthread.h>
#include <stdio.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include <windows.h>
#include <evntprov.h>
#include <evntrace.h>
#include <evntcons.h>

#include "kselftest_harness.h"
#include "etw_selftests.h"

/* A properties allocation with room for the names. */
struct pbuf {
	EVENT_TRACE_PROPERTIES p;
	char names[1024];
};

static EVENT_TRACE_PROPERTIES *pinit(struct pbuf *b, ULONG mode)
{
	memset(b, 0, sizeof(*b));
	b->p.Wnode.BufferSize = sizeof(*b);
	b->p.Wnode.Flags = WNODE_FLAG_TRACED_GUID;
	b->p.Wnode.ClientContext = 1;
	b->p.LogFileMode = mode;
	b->p.LoggerNameOffset = sizeof(b->p);
	return &b->p;
}

static const char *name_a(const struct pbuf *b)
{
	return (const char *)b + b->p.LoggerNameOffset;
}

static const char16_t *name_w(const struct pbuf *b)
{
	return (const char16_t *)((const char *)b + b->p.LoggerNameOffset);
}

/* A real-time session with @kb KB buffers. */
static ULONG start_a(const char *name, ULONG kb, ULONG max_buffers,
		     CONTROLTRACE_ID *h)
{
	struct pbuf b;

	pinit(&b, EVENT_TRACE_REAL_TIME_MODE)->BufferSize = kb;
	b.p.MaximumBuffers = max_buffers;
	return StartTraceA(h, name, &b.p);
}

#define LOGGER_ID(h)	((__u32)((h) & 0xffff))

/* The same logger id with another (non-zero) start tag. */
static CONTROLTRACE_ID other_tag(CONTROLTRACE_ID h)
{
	ULONG64 tag = ((h >> 16) & 0xffffffff) ^ 1;

	return (h & 0xffff) | ((tag ? tag : 2) << 16);
}

static int write_n(REGHANDLE reg, USHORT id, UCHAR level, ULONGLONG kw, int n)
{
	EVENT_DESCRIPTOR d = { .Id = id, .Level = level, .Keyword = kw };
	int i, bad = 0;

	for (i = 0; i < n; i++)
		bad |= EventWrite(reg, &d, 0, NULL) != ERROR_SUCCESS;
	return bad;
}

/* Records of provider @guid in the ready buffers, without flushing. */
static long read_ready(int fd, __u32 logger_id, const __u8 guid[16])
{
	static __u8 buf[1024 * 1024];
	struct etw_buffer_read r;
	long n = 0;
	__u32 off, saved;

	for (;;) {
		memset(&r, 0, sizeof(r));
		r.size = sizeof(r);
		r.logger_id = logger_id;
		r.length = sizeof(buf);
		r.buf = (uintptr_t)buf;
		if (etw_ioctl_err(fd, ETW_IOC_BUFFER_READ, &r))
			return n;
		memcpy(&saved, buf + 4, 4);
		for (off = ETW_BUFFER_HEADER_SIZE; off + ETW_EVENT_HEADER_SIZE <= saved;) {
			const struct etw_test_event_header *h = (const void *)(buf + off);

			if (h->size < ETW_EVENT_HEADER_SIZE)
				return -EPROTO;
			if (!memcmp(h->provider_id, guid, 16))
				n++;
			off += (h->size + 7) & ~7u;
		}
	}
}

struct cb_log {
	pthread_mutex_t lock;
	int calls;
	GUID source;
	ULONG is_enabled;
	UCHAR level;
	ULONGLONG any;
};

static struct cb_log cblog = { .lock = PTHREAD_MUTEX_INITIALIZER };

static void NTAPI callback(LPCGUID source, ULONG is_enabled, UCHAR level,
			   ULONGLONG any, ULONGLONG all,
			   PEVENT_FILTER_DESCRIPTOR filter, PVOID ctx)
{
	pthread_mutex_lock(&cblog.lock);
	cblog.calls++;
	cblog.source = *source;
	cblog.is_enabled = is_enabled;
	cblog.level = level;
	cblog.any = any;
	pthread_mutex_unlock(&cblog.lock);
}

/* Wait up to 5 s for the callback count to reach @n. */
static int wait_calls(int n)
{
	int i, calls = 0;

	for (i = 0; i < 500; i++) {
		pthread_mutex_lock(&cblog.lock);
		calls = cblog.calls;
		pthread_mutex_unlock(&cblog.lock);
		if (calls >= n)
			break;
		usleep(10000);
	}
	return calls;
}

FIXTURE(ctl)
{
	int fd;		/* raw descriptor: reading buffers, cleaning up */
	GUID guid;	/* the test provider */
};

FIXTURE_SETUP(ctl)
{
	etw_require_root(_metadata);
	self->fd = etw_open_or_skip(_metadata);
	etw_stop_test_sessions(self->fd);
	etw_test_guid((__u8 *)&self->guid, 0x40);
}

FIXTURE_TEARDOWN(ctl)
{
	if (self->fd >= 0) {
		etw_stop_test_sessions(self->fd);
		close(self->fd);
	}
}

TEST_F(ctl, start_query_stop_a)
{
	struct etw_session_info info;
	static const GUID zero;
	struct pbuf b, q;
	CONTROLTRACE_ID h = 0;
	__u32 id;

	pinit(&b, EVENT_TRACE_REAL_TIME_MODE)->BufferSize = 8;
	b.p.EnableFlags = EVENT_TRACE_FLAG_PROCESS;	/* not a system logger */
	SetLastError(1234);
	ASSERT_EQ(ERROR_SUCCESS, StartTraceA(&h, "etwtest-ctl-a", &b.p));
	EXPECT_EQ(ERROR_SUCCESS, GetLastError());
	id = LOGGER_ID(h);
	ASSERT_LE(1, id);
	ASSERT_GE(ETW_MAX_SESSIONS, id);

	/* What StartTrace fills in, against the module's view. */
	ASSERT_EQ(0, etw_session_ctl(self->fd, id, ETW_CONTROL_QUERY, &info));
	EXPECT_STREQ("etwtest-ctl-a", info.name);
	EXPECT_EQ(h, b.p.Wnode.HistoricalContext);
	EXPECT_NE(0, memcmp(&zero, &b.p.Wnode.Guid, sizeof(GUID)));
	EXPECT_EQ(0, memcmp(info.guid, &b.p.Wnode.Guid, sizeof(GUID)));
	EXPECT_EQ(1, b.p.Wnode.ClientContext);
	EXPECT_EQ(8, b.p.BufferSize);
	EXPECT_LE(2, b.p.MinimumBuffers);
	EXPECT_EQ(info.min_buffers, b.p.MinimumBuffers);
	EXPECT_EQ(info.max_buffers, b.p.MaximumBuffers);
	EXPECT_LE(b.p.MinimumBuffers, b.p.MaximumBuffers);
	EXPECT_EQ(info.number_of_buffers, b.p.NumberOfBuffers);
	EXPECT_EQ(info.free_buffers, b.p.FreeBuffers);
	EXPECT_EQ(EVENT_TRACE_REAL_TIME_MODE, b.p.LogFileMode);
	EXPECT_EQ(0, b.p.FlushTimer);
	EXPECT_EQ(0, b.p.EnableFlags);
	EXPECT_EQ(0, b.p.EventsLost);
	EXPECT_EQ(0, b.p.BuffersWritten);
	EXPECT_TRUE(!b.p.LoggerThreadId);
	EXPECT_STREQ("etwtest-ctl-a", name_a(&b));

	/* QUERY by handle, by name, ignoring ASCII case, by bare id. */
	pinit(&q, 0);
	ASSERT_EQ(ERROR_SUCCESS, QueryTraceA(h, NULL, &q.p));
	EXPECT_EQ(h, q.p.Wnode.HistoricalContext);
	EXPECT_EQ(0, memcmp(&b.p.Wnode.Guid, &q.p.Wnode.Guid, sizeof(GUID)));
	EXPECT_EQ(8, q.p.BufferSize);
	EXPECT_EQ(b.p.MinimumBuffers, q.p.MinimumBuffers);
	EXPECT_EQ(b.p.MaximumBuffers, q.p.MaximumBuffers);
	EXPECT_EQ(b.p.NumberOfBuffers, q.p.NumberOfBuffers);
	EXPECT_EQ(EVENT_TRACE_REAL_TIME_MODE, q.p.LogFileMode);
	EXPECT_STREQ("etwtest-ctl-a", name_a(&q));
	pinit(&q, 0);
	ASSERT_EQ(ERROR_SUCCESS, QueryTraceA(0, "etwtest-ctl-a", &q.p));
	EXPECT_EQ(h, q.p.Wnode.HistoricalContext);
	pinit(&q, 0);
	ASSERT_EQ(ERROR_SUCCESS, ControlTraceA(0, "ETWTEST-Ctl-A", &q.p,
					       EVENT_TRACE_CONTROL_QUERY));
	EXPECT_EQ(h, q.p.Wnode.HistoricalContext);
	EXPECT_STREQ("etwtest-ctl-a", name_a(&q));
	/* With a name the handle is ignored. */
	EXPECT_EQ(ERROR_SUCCESS, QueryTraceA(other_tag(h), "etwtest-ctl-a", &q.p));
	EXPECT_EQ(ERROR_SUCCESS, QueryTraceA(id, NULL, &q.p));
	EXPECT_EQ(h, q.p.Wnode.HistoricalContext);
	/* The same id with another session's tag is not this session. */
	EXPECT_EQ(ERROR_WMI_INSTANCE_NOT_FOUND, QueryTraceA(other_tag(h), NULL, &q.p));
	EXPECT_EQ(ERROR_WMI_INSTANCE_NOT_FOUND, GetLastError());
	EXPECT_EQ(ERROR_WMI_INSTANCE_NOT_FOUND,
		  QueryTraceA(0, "etwtest-ctl-nosuch", &q.p));

	/* FLUSH, then STOP: the final statistics and the name. */
	pinit(&q, 0);
	EXPECT_EQ(ERROR_SUCCESS, FlushTraceA(h, NULL, &q.p));
	EXPECT_EQ(h, q.p.Wnode.HistoricalContext);
	pinit(&q, 0);
	ASSERT_EQ(ERROR_SUCCESS, StopTraceA(h, NULL, &q.p));
	EXPECT_EQ(h, q.p.Wnode.HistoricalContext);
	EXPECT_STREQ("etwtest-ctl-a", name_a(&q));
	EXPECT_EQ(0, q.p.EventsLost);
	EXPECT_EQ(-ENOENT, etw_session_ctl(self->fd, id, ETW_CONTROL_QUERY, NULL));
	EXPECT_EQ(ERROR_WMI_INSTANCE_NOT_FOUND, QueryTraceA(h, NULL, &q.p));
	EXPECT_EQ(ERROR_WMI_INSTANCE_NOT_FOUND, GetLastError());
	EXPECT_EQ(ERROR_WMI_INSTANCE_NOT_FOUND, StopTraceA(0, "etwtest-ctl-a", &q.p));
	EXPECT_EQ(ERROR_WMI_INSTANCE_NOT_FOUND, FlushTraceA(h, NULL, &q.p));
	EXPECT_EQ(ERROR_WMI_INSTANCE_NOT_FOUND, UpdateTraceA(h, NULL, &q.p));
}

TEST_F(ctl, start_query_stop_w)
{
	static const char16_t name[] = u"etwtest-ctl-w\u00e9\u20ac\U0001F600";
	static const char utf8[] = "etwtest-ctl-w\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80";
	static const char16_t lone[] = { 'e', 0xdc00, 0 };
	struct etw_session_info info;
	struct pbuf b, q;
	CONTROLTRACE_ID h = 0;

	pinit(&b, EVENT_TRACE_REAL_TIME_MODE);
	ASSERT_EQ(ERROR_SUCCESS, StartTraceW(&h, name, &b.p));
	EXPECT_EQ(0, memcmp(name_w(&b), name, sizeof(name)));
	EXPECT_EQ(64, b.p.BufferSize);	/* the module's default */
	/* The module has the name in UTF-8, the A form gives it so. */
	ASSERT_EQ(0, etw_session_ctl(self->fd, LOGGER_ID(h), ETW_CONTROL_QUERY, &info));
	EXPECT_STREQ(utf8, info.name);
	pinit(&q, 0);
	ASSERT_EQ(ERROR_SUCCESS, QueryTraceA(h, NULL, &q.p));
	EXPECT_STREQ(utf8, name_a(&q));
	pinit(&q, 0);
	ASSERT_EQ(ERROR_SUCCESS, QueryTraceW(0, name, &q.p));
	EXPECT_EQ(h, q.p.Wnode.HistoricalContext);
	EXPECT_EQ(0, memcmp(name_w(&q), name, sizeof(name)));
	pinit(&q, 0);
	ASSERT_EQ(ERROR_SUCCESS, ControlTraceW(h, NULL, &q.p, EVENT_TRACE_CONTROL_QUERY));
	EXPECT_EQ(0, memcmp(name_w(&q), name, sizeof(name)));
	EXPECT_EQ(ERROR_SUCCESS, FlushTraceW(h, NULL, &q.p));
	pinit(&q, 0)->FlushTimer = 2;
	EXPECT_EQ(ERROR_SUCCESS, UpdateTraceW(0, name, &q.p));
	EXPECT_EQ(2, q.p.FlushTimer);
	EXPECT_EQ(ERROR_INVALID_PARAMETER, StopTraceW(0, lone, &q.p));
	pinit(&b, EVENT_TRACE_REAL_TIME_MODE);
	EXPECT_EQ(ERROR_ALREADY_EXISTS, StartTraceW(&h, name, &b.p));
	pinit(&q, 0);
	ASSERT_EQ(ERROR_SUCCESS, StopTraceW(0, name, &q.p));
	EXPECT_EQ(0, memcmp(name_w(&q), name, sizeof(name)));
	EXPECT_EQ(ERROR_WMI_INSTANCE_NOT_FOUND, QueryTraceW(0, name, &q.p));
	EXPECT_EQ(ERROR_WMI_INSTANCE_NOT_FOUND, GetLastError());
}

TEST_F(ctl, start_errors)
{
	struct pbuf b;
	CONTROLTRACE_ID h, h2;
	GUID guid;

	ASSERT_EQ(ERROR_SUCCESS, StartTraceA(&h, "etwtest-ctl-dup",
					     pinit(&b, EVENT_TRACE_REAL_TIME_MODE)));
	guid = b.p.Wnode.Guid;
	/* Names are unique, ignoring case; GUIDs are unique. */
	EXPECT_EQ(ERROR_ALREADY_EXISTS, StartTraceA(&h2, "etwtest-ctl-dup",
						    pinit(&b, EVENT_TRACE_REAL_TIME_MODE)));
	EXPECT_EQ(ERROR_ALREADY_EXISTS, GetLastError());
	EXPECT_EQ(0, h2);
	EXPECT_EQ(ERROR_ALREADY_EXISTS, StartTraceA(&h2, "ETWTEST-CTL-DUP",
						    pinit(&b, EVENT_TRACE_REAL_TIME_MODE)));
	EXPECT_EQ(ERROR_ALREADY_EXISTS, StartTraceW(&h2, u"etwtest-ctl-DUP",
						    pinit(&b, EVENT_TRACE_REAL_TIME_MODE)));
	pinit(&b, EVENT_TRACE_REAL_TIME_MODE)->Wnode.Guid = guid;
	EXPECT_EQ(ERROR_ALREADY_EXISTS, StartTraceA(&h2, "etwtest-ctl-dup2", &b.p));

	/* The checks Windows makes, before any session is made. */
	EXPECT_EQ(ERROR_INVALID_PARAMETER, StartTraceA(&h2, "etwtest-ctl-x", NULL));
	EXPECT_EQ(ERROR_INVALID_PARAMETER, StartTraceA(NULL, "etwtest-ctl-x", &b.p));
	pinit(&b, EVENT_TRACE_REAL_TIME_MODE)->Wnode.BufferSize = 0;
	EXPECT_EQ(ERROR_BAD_LENGTH, StartTraceA(&h2, "etwtest-ctl-x", &b.p));
	pinit(&b, EVENT_TRACE_REAL_TIME_MODE)->LoggerNameOffset = 1;
	EXPECT_EQ(ERROR_INVALID_PARAMETER, StartTraceA(&h2, "etwtest-ctl-x", &b.p));
	pinit(&b, EVENT_TRACE_REAL_TIME_MODE | EVENT_TRACE_BUFFERING_MODE);
	EXPECT_EQ(ERROR_INVALID_PARAMETER, StartTraceA(&h2, "etwtest-ctl-x", &b.p));
	pinit(&b, EVENT_TRACE_REAL_TIME_MODE)->Wnode.Guid = SystemTraceControlGuid;
	EXPECT_EQ(ERROR_INVALID_PARAMETER, StartTraceA(&h2, "etwtest-ctl-x", &b.p));
	pinit(&b, 0);
	EXPECT_EQ(ERROR_BAD_PATHNAME, StartTraceA(&h2, "etwtest-ctl-x", &b.p));
	EXPECT_EQ(ERROR_BAD_PATHNAME, GetLastError());
	/* A log file the logger cannot create (logger_test has the rest). */
	pinit(&b, EVENT_TRACE_FILE_MODE_SEQUENTIAL)->LogFileNameOffset = sizeof(b.p) + 512;
	strcpy(b.names + 512, "/tmp/etwtest-no-such-dir/x.etl");
	EXPECT_EQ(ERROR_PATH_NOT_FOUND, StartTraceA(&h2, "etwtest-ctl-x", &b.p));
	/* None of them made a session. */
	EXPECT_EQ(ERROR_WMI_INSTANCE_NOT_FOUND,
		  QueryTraceA(0, "etwtest-ctl-x", pinit(&b, 0)));
	EXPECT_EQ(ERROR_WMI_INSTANCE_NOT_FOUND,
		  QueryTraceA(0, "etwtest-ctl-dup2", pinit(&b, 0)));

	/* A memory-only session needs no file. */
	EXPECT_EQ(ERROR_SUCCESS, StartTraceA(&h2, "etwtest-ctl-ring",
					     pinit(&b, EVENT_TRACE_BUFFERING_MODE)));
	EXPECT_EQ(EVENT_TRACE_BUFFERING_MODE, b.p.LogFileMode);
	/* BufferSize above the module's 1024 KB is capped, as reported. */
	pinit(&b, EVENT_TRACE_REAL_TIME_MODE)->BufferSize = 4096;
	b.p.MaximumBuffers = 1;	/* below MinimumBuffers: raised */
	ASSERT_EQ(ERROR_SUCCESS, StartTraceA(&h2, "etwtest-ctl-big", &b.p));
	EXPECT_EQ(1024, b.p.BufferSize);
	EXPECT_EQ(b.p.MinimumBuffers, b.p.MaximumBuffers);
}

TEST_F(ctl, sixty_four_sessions)
{
	static struct pbuf all[ETW_MAX_SESSIONS];
	PEVENT_TRACE_PROPERTIES arr[ETW_MAX_SESSIONS];
	CONTROLTRACE_ID h;
	char name[32];
	ULONG err = ERROR_SUCCESS, n = 0;
	int i, started = 0;

	for (i = 0; i < ETW_MAX_SESSIONS + 1 && !err; i++) {
		snprintf(name, sizeof(name), "etwtest-ctl-max-%02d", i);
		err = start_a(name, 4, 4, &h);
		if (!err)
			started++;
	}
	EXPECT_EQ(ERROR_NO_SYSTEM_RESOURCES, err);
	EXPECT_EQ(ERROR_NO_SYSTEM_RESOURCES, GetLastError());
	EXPECT_LE(1, started);

	for (i = 0; i < ETW_MAX_SESSIONS; i++)
		arr[i] = pinit(&all[i], 0);
	ASSERT_EQ(ERROR_SUCCESS, QueryAllTracesA(arr, ETW_MAX_SESSIONS, &n));
	EXPECT_EQ(ETW_MAX_SESSIONS, n);
	/* One slot short: every slot filled, the real count, MORE_DATA. */
	n = 0;
	EXPECT_EQ(ERROR_MORE_DATA, QueryAllTracesA(arr, ETW_MAX_SESSIONS - 1, &n));
	EXPECT_EQ(ERROR_MORE_DATA, GetLastError());
	EXPECT_EQ(ETW_MAX_SESSIONS, n);
	for (i = 0; i < ETW_MAX_SESSIONS - 1; i++)
		EXPECT_NE(0, all[i].p.Wnode.HistoricalContext);
}

TEST_F(ctl, query_all_traces)
{
	static struct pbuf all[ETW_MAX_SESSIONS];
	PEVENT_TRACE_PROPERTIES arr[ETW_MAX_SESSIONS];
	static const char *const names[] = {
		"etwtest-ctl-qa0", "etwtest-ctl-qa1", "etwtest-ctl-qa2",
	};
	CONTROLTRACE_ID h[3];
	int i, j, found;
	ULONG n = 0, total;

	for (i = 0; i < 3; i++)
		ASSERT_EQ(ERROR_SUCCESS, start_a(names[i], 8, 0, &h[i]));
	for (i = 0; i < ETW_MAX_SESSIONS; i++)
		arr[i] = pinit(&all[i], 0);
	ASSERT_EQ(ERROR_SUCCESS, QueryAllTracesA(arr, ETW_MAX_SESSIONS, &n));
	ASSERT_LE(3, n);
	total = n;
	for (i = 0; i < 3; i++) {
		found = 0;
		for (j = 0; j < (int)n; j++)
			if (!strcmp(name_a(&all[j]), names[i])) {
				found++;
				EXPECT_EQ(h[i], all[j].p.Wnode.HistoricalContext);
				EXPECT_EQ(8, all[j].p.BufferSize);
			}
		EXPECT_EQ(1, found) TH_LOG("%s", names[i]);
	}

	for (i = 0; i < ETW_MAX_SESSIONS; i++)
		arr[i] = pinit(&all[i], 0);
	ASSERT_EQ(ERROR_SUCCESS, QueryAllTracesW(arr, ETW_MAX_SESSIONS, &n));
	EXPECT_EQ(total, n);
	for (found = 0, j = 0; j < (int)n; j++)
		found += !memcmp(name_w(&all[j]), u"etwtest-ctl-qa1", sizeof(u"etwtest-ctl-qa1"));
	EXPECT_EQ(1, found);

	/* Too few slots: all filled, the real count, ERROR_MORE_DATA. */
	pinit(&all[0], 0);
	EXPECT_EQ(ERROR_MORE_DATA, QueryAllTracesA(arr, 1, &n));
	EXPECT_EQ(total, n);
	EXPECT_NE(0, all[0].p.Wnode.HistoricalContext);
	/* A slot without room for a name: the rest is there, MORE_DATA. */
	pinit(&all[0], 0)->Wnode.BufferSize = sizeof(all[0].p) + 4;
	EXPECT_EQ(ERROR_MORE_DATA, QueryAllTracesA(arr, ETW_MAX_SESSIONS, &n));
	EXPECT_EQ(total, n);
	EXPECT_NE(0, all[0].p.Wnode.HistoricalContext);
	/* Arguments. */
	EXPECT_EQ(ERROR_INVALID_PARAMETER, QueryAllTracesA(NULL, 1, &n));
	EXPECT_EQ(ERROR_INVALID_PARAMETER, QueryAllTracesA(arr, 0, &n));
	EXPECT_EQ(ERROR_INVALID_PARAMETER, QueryAllTracesW(arr, ETW_MAX_SESSIONS + 1, &n));
	EXPECT_EQ(ERROR_INVALID_PARAMETER, QueryAllTracesW(arr, 1, NULL));
	all[0].p.Wnode.BufferSize = 8;
	EXPECT_EQ(ERROR_BAD_LENGTH, QueryAllTracesA(arr, 1, &n));
}

TEST_F(ctl, control_errors_and_more_data)
{
	struct {
		EVENT_TRACE_PROPERTIES p;
		char names[4];
	} small;
	struct pbuf q;
	CONTROLTRACE_ID h, h2;

	ASSERT_EQ(ERROR_SUCCESS, start_a("etwtest-ctl-md", 8, 0, &h));
	EXPECT_EQ(ERROR_INVALID_PARAMETER,
		  ControlTraceA(h, NULL, NULL, EVENT_TRACE_CONTROL_QUERY));
	EXPECT_EQ(ERROR_INVALID_PARAMETER,
		  ControlTraceA(0, NULL, pinit(&q, 0), EVENT_TRACE_CONTROL_QUERY));
	EXPECT_EQ(ERROR_INVALID_PARAMETER, ControlTraceA(h, NULL, &q.p, 7));
	EXPECT_EQ(ERROR_NOT_SUPPORTED,
		  ControlTraceA(h, NULL, &q.p, EVENT_TRACE_CONTROL_INCREMENT_FILE));
	q.p.Wnode.BufferSize = 64;
	EXPECT_EQ(ERROR_BAD_LENGTH, QueryTraceA(h, NULL, &q.p));
	EXPECT_EQ(ERROR_BAD_LENGTH, GetLastError());

	/* No room for the name: everything else is filled. */
	memset(&small, 0, sizeof(small));
	small.p.Wnode.BufferSize = sizeof(small);
	small.p.LoggerNameOffset = sizeof(small.p);
	EXPECT_EQ(ERROR_MORE_DATA, QueryTraceA(h, NULL, &small.p));
	EXPECT_EQ(ERROR_MORE_DATA, GetLastError());
	EXPECT_EQ(h, small.p.Wnode.HistoricalContext);
	EXPECT_EQ(8, small.p.BufferSize);
	/* STOP says MORE_DATA too, and has stopped the session. */
	EXPECT_EQ(ERROR_MORE_DATA, StopTraceA(h, NULL, &small.p));
	EXPECT_EQ(-ENOENT, etw_session_ctl(self->fd, LOGGER_ID(h), ETW_CONTROL_QUERY, NULL));

	/* A handle kept after its session stopped, its id given to another. */
	ASSERT_EQ(ERROR_SUCCESS, start_a("etwtest-ctl-md2", 8, 0, &h2));
	ASSERT_EQ(LOGGER_ID(h), LOGGER_ID(h2));	/* the lowest free id */
	EXPECT_NE(h, h2);
	EXPECT_EQ(ERROR_WMI_INSTANCE_NOT_FOUND, StopTraceA(h, NULL, pinit(&q, 0)));
	EXPECT_EQ(ERROR_WMI_INSTANCE_NOT_FOUND,
		  EnableTraceEx2(h, &self->guid, 1, 5, 0, 0, 0, NULL));
	EXPECT_EQ(ERROR_SUCCESS, QueryTraceA(h2, NULL, pinit(&q, 0)));
	EXPECT_STREQ("etwtest-ctl-md2", name_a(&q));
}

TEST_F(ctl, update_flush_timer)
{
	const __u8 *g = (const __u8 *)&self->guid;
	struct etw_session_info info;
	struct pbuf b, u;
	CONTROLTRACE_ID h;
	REGHANDLE reg;
	long got = 0;
	int i;

	ASSERT_EQ(ERROR_SUCCESS, start_a("etwtest-ctl-upd", 8, 0, &h));
	ASSERT_EQ(ERROR_SUCCESS, EventRegister(&self->guid, NULL, NULL, &reg));
	ASSERT_EQ(ERROR_SUCCESS, EnableTraceEx2(h, &self->guid, 1, 5, 0, 0, 0, NULL));
	ASSERT_EQ(0, write_n(reg, 1, 4, 0, 3));
	/* No FlushTimer: partial buffers stay until someone flushes. */
	usleep(1500000);
	EXPECT_EQ(0, read_ready(self->fd, LOGGER_ID(h), g));

	pinit(&u, 0)->FlushTimer = 1;
	ASSERT_EQ(ERROR_SUCCESS, UpdateTraceA(h, NULL, &u.p));
	EXPECT_EQ(1, u.p.FlushTimer);
	EXPECT_STREQ("etwtest-ctl-upd", name_a(&u));
	ASSERT_EQ(0, etw_session_ctl(self->fd, LOGGER_ID(h), ETW_CONTROL_QUERY, &info));
	EXPECT_EQ(1, info.flush_timer);
	ASSERT_EQ(ERROR_SUCCESS, QueryTraceA(h, NULL, pinit(&b, 0)));
	EXPECT_EQ(1, b.p.FlushTimer);
	/* Now the timer hands them over, with no FLUSH from us. */
	for (i = 0; i < 50 && got < 3; i++) {
		usleep(100000);
		got += read_ready(self->fd, LOGGER_ID(h), g);
	}
	EXPECT_EQ(3, got);

	/* The query result as UPDATE input changes nothing else. */
	b.p.FlushTimer = 0;	/* unchanged */
	EXPECT_EQ(ERROR_SUCCESS, UpdateTraceA(h, NULL, &b.p));
	EXPECT_EQ(1, b.p.FlushTimer);
	/* MaximumBuffers may grow, never shrink. */
	pinit(&u, 0)->MaximumBuffers = b.p.MaximumBuffers + 1;
	EXPECT_EQ(ERROR_SUCCESS, UpdateTraceA(h, NULL, &u.p));
	EXPECT_EQ(b.p.MaximumBuffers + 1, u.p.MaximumBuffers);
	pinit(&u, 0)->MaximumBuffers = b.p.MaximumBuffers;
	EXPECT_EQ(ERROR_INVALID_PARAMETER, UpdateTraceA(h, NULL, &u.p));
	/* What the module cannot change. */
	pinit(&u, 0)->LogFileMode = EVENT_TRACE_BUFFERING_MODE;
	EXPECT_EQ(ERROR_NOT_SUPPORTED, UpdateTraceA(h, NULL, &u.p));
	pinit(&u, 0)->LogFileNameOffset = sizeof(u.p) + 512;
	strcpy(u.names + 512, "/tmp/etwtest-new.etl");
	EXPECT_EQ(ERROR_NOT_SUPPORTED, UpdateTraceA(h, NULL, &u.p));
	pinit(&u, 0)->FlushTimer = 100000;
	EXPECT_EQ(ERROR_INVALID_PARAMETER, UpdateTraceA(h, NULL, &u.p));
	EXPECT_EQ(ERROR_INVALID_PARAMETER, GetLastError());
	EventUnregister(reg);
}

TEST_F(ctl, round_trip_exact_counts)
{
	const __u8 *g = (const __u8 *)&self->guid;
	ENABLE_TRACE_PARAMETERS prm = { .Version = ENABLE_TRACE_PARAMETERS_VERSION_2 };
	struct etw_counts c;
	struct pbuf q;
	CONTROLTRACE_ID h;
	REGHANDLE reg;

	ASSERT_EQ(ERROR_SUCCESS, start_a("etwtest-ctl-rt", 64, 0, &h));
	ASSERT_EQ(ERROR_SUCCESS, EventRegister(&self->guid, NULL, NULL, &reg));
	EXPECT_FALSE(EventProviderEnabled(reg, 0, 0));
	SetLastError(1234);
	ASSERT_EQ(ERROR_SUCCESS, EnableTraceEx2(h, &self->guid,
						EVENT_CONTROL_CODE_ENABLE_PROVIDER,
						TRACE_LEVEL_INFORMATION, 0x1, 0, 0, NULL));
	EXPECT_EQ(ERROR_SUCCESS, GetLastError());
	EXPECT_TRUE(EventProviderEnabled(reg, 4, 0x1));
	EXPECT_FALSE(EventProviderEnabled(reg, 5, 0x1));

	ASSERT_EQ(0, write_n(reg, 1, 4, 0x1, 10));
	ASSERT_EQ(0, write_n(reg, 2, 4, 0, 5));		/* keyword 0 passes */
	ASSERT_EQ(0, write_n(reg, 3, 5, 0x1, 4));	/* level filtered */
	ASSERT_EQ(0, write_n(reg, 4, 4, 0x2, 3));	/* keyword filtered */
	pinit(&q, 0);
	ASSERT_EQ(ERROR_SUCCESS, FlushTraceA(h, NULL, &q.p));
	EXPECT_EQ(0, q.p.EventsLost);
	ASSERT_LE(0, etw_count(self->fd, LOGGER_ID(h), g, &c));
	EXPECT_EQ(15, c.total);
	EXPECT_EQ(10, c.by_id[1]);
	EXPECT_EQ(5, c.by_id[2]);
	EXPECT_EQ(0, c.by_id[3]);
	EXPECT_EQ(0, c.by_id[4]);
	pinit(&q, 0);
	ASSERT_EQ(ERROR_SUCCESS, QueryTraceA(h, NULL, &q.p));
	EXPECT_LE(1, q.p.BuffersWritten);
	EXPECT_EQ(0, q.p.EventsLost);

	/* EnableProperty IGNORE_KEYWORD_0 through the parameters. */
	prm.EnableProperty = EVENT_ENABLE_PROPERTY_IGNORE_KEYWORD_0;
	ASSERT_EQ(ERROR_SUCCESS, EnableTraceEx2(h, &self->guid, 1, 4, 0x1, 0, 0, &prm));
	ASSERT_EQ(0, write_n(reg, 1, 4, 0x1, 2));
	ASSERT_EQ(0, write_n(reg, 2, 4, 0, 2));
	ASSERT_LE(0, etw_count(self->fd, LOGGER_ID(h), g, &c));
	EXPECT_EQ(2, c.total);
	EXPECT_EQ(2, c.by_id[1]);

	/* Disabled: nothing more. */
	ASSERT_EQ(ERROR_SUCCESS, EnableTraceEx2(h, &self->guid,
						EVENT_CONTROL_CODE_DISABLE_PROVIDER,
						0, 0, 0, 0, NULL));
	EXPECT_FALSE(EventProviderEnabled(reg, 0, 0));
	ASSERT_EQ(0, write_n(reg, 1, 4, 0x1, 2));
	ASSERT_LE(0, etw_count(self->fd, LOGGER_ID(h), g, &c));
	EXPECT_EQ(0, c.total);
	EventUnregister(reg);
}

TEST_F(ctl, event_id_filter)
{
	const __u8 *g = (const __u8 *)&self->guid;
	struct {
		EVENT_FILTER_EVENT_ID f;
		USHORT more[1];
	} ids = { .f = { .FilterIn = TRUE, .Count = 2, .Events = { 2 } },
		  .more = { 4 } };
	EVENT_FILTER_DESCRIPTOR fd = { .Ptr = (uintptr_t)&ids, .Size = sizeof(ids),
				       .Type = EVENT_FILTER_TYPE_EVENT_ID };
	ENABLE_TRACE_PARAMETERS prm = { .Version = ENABLE_TRACE_PARAMETERS_VERSION_2,
					.EnableFilterDesc = &fd,
					.FilterDescCount = 1 };
	ENABLE_TRACE_PARAMETERS_V1 v1 = { .Version = ENABLE_TRACE_PARAMETERS_VERSION,
					  .EnableFilterDesc = &fd };
	struct etw_counts c;
	CONTROLTRACE_ID h;
	REGHANDLE reg;
	USHORT id;

	ASSERT_EQ(ERROR_SUCCESS, start_a("etwtest-ctl-eid", 64, 0, &h));
	ASSERT_EQ(ERROR_SUCCESS, EventRegister(&self->guid, NULL, NULL, &reg));

	/* Only 2 and 4. */
	ASSERT_EQ(ERROR_SUCCESS, EnableTraceEx2(h, &self->guid, 1, 5, 0, 0, 0, &prm));
	for (id = 1; id <= 5; id++)
		ASSERT_EQ(0, write_n(reg, id, 4, 0, 1));
	ASSERT_LE(0, etw_count(self->fd, LOGGER_ID(h), g, &c));
	EXPECT_EQ(2, c.total);
	EXPECT_EQ(1, c.by_id[2]);
	EXPECT_EQ(1, c.by_id[4]);

	/* All but 2 and 4. */
	ids.f.FilterIn = FALSE;
	ASSERT_EQ(ERROR_SUCCESS, EnableTraceEx2(h, &self->guid, 1, 5, 0, 0, 0, &prm));
	for (id = 1; id <= 5; id++)
		ASSERT_EQ(0, write_n(reg, id, 4, 0, 1));
	ASSERT_LE(0, etw_count(self->fd, LOGGER_ID(h), g, &c));
	EXPECT_EQ(3, c.total);
	EXPECT_EQ(0, c.by_id[2]);
	EXPECT_EQ(0, c.by_id[4]);

	/* Version 1 parameters, and EnableTraceEx: one filter. */
	ids.f.FilterIn = TRUE;
	ids.f.Count = 1;
	ids.f.Events[0] = 3;
	ASSERT_EQ(ERROR_SUCCESS, EnableTraceEx2(h, &self->guid, 1, 5, 0, 0, 0,
						(PENABLE_TRACE_PARAMETERS)&v1));
	for (id = 1; id <= 5; id++)
		ASSERT_EQ(0, write_n(reg, id, 4, 0, 1));
	ASSERT_LE(0, etw_count(self->fd, LOGGER_ID(h), g, &c));
	EXPECT_EQ(1, c.total);
	EXPECT_EQ(1, c.by_id[3]);
	ids.f.Events[0] = 5;
	ASSERT_EQ(ERROR_SUCCESS, EnableTraceEx(&self->guid, NULL, h, 1, 5, 0, 0, 0, &fd));
	for (id = 1; id <= 5; id++)
		ASSERT_EQ(0, write_n(reg, id, 4, 0, 1));
	ASSERT_LE(0, etw_count(self->fd, LOGGER_ID(h), g, &c));
	EXPECT_EQ(1, c.total);
	EXPECT_EQ(1, c.by_id[5]);

	/* An enable without filters replaces the filtered one. */
	prm.FilterDescCount = 0;
	ASSERT_EQ(ERROR_SUCCESS, EnableTraceEx2(h, &self->guid, 1, 5, 0, 0, 0, &prm));
	for (id = 1; id <= 5; id++)
		ASSERT_EQ(0, write_n(reg, id, 4, 0, 1));
	ASSERT_LE(0, etw_count(self->fd, LOGGER_ID(h), g, &c));
	EXPECT_EQ(5, c.total);
	EventUnregister(reg);
}

TEST_F(ctl, pid_filter)
{
	const __u8 *g = (const __u8 *)&self->guid;
	ULONG pids[2] = { 1, (ULONG)getpid() };
	EVENT_FILTER_DESCRIPTOR fd = { .Ptr = (uintptr_t)pids, .Size = sizeof(pids),
				       .Type = EVENT_FILTER_TYPE_PID };
	ENABLE_TRACE_PARAMETERS prm = { .Version = ENABLE_TRACE_PARAMETERS_VERSION_2,
					.EnableFilterDesc = &fd,
					.FilterDescCount = 1 };
	int go[2], done[2], status;
	struct etw_counts c;
	CONTROLTRACE_ID h;
	REGHANDLE reg;
	pid_t child;
	char x;

	ASSERT_EQ(ERROR_SUCCESS, start_a("etwtest-ctl-pid", 64, 0, &h));
	ASSERT_EQ(ERROR_SUCCESS, EventRegister(&self->guid, NULL, NULL, &reg));

	/* This process is listed. */
	ASSERT_EQ(ERROR_SUCCESS, EnableTraceEx2(h, &self->guid, 1, 5, 0, 0, 0, &prm));
	ASSERT_EQ(0, write_n(reg, 1, 4, 0, 4));
	ASSERT_LE(0, etw_count(self->fd, LOGGER_ID(h), g, &c));
	EXPECT_EQ(4, c.total);

	/* Only a child is listed: its events, not ours. */
	ASSERT_EQ(0, pipe(go));
	ASSERT_EQ(0, pipe(done));
	child = fork();
	ASSERT_LE(0, child);
	if (!child) {
		__u32 reg_id;
		int fd2 = open(ETW_DEV, O_RDWR | O_CLOEXEC), i, bad = 0;

		if (fd2 < 0 || read(go[0], &x, 1) != 1 ||
		    etw_register_simple(fd2, g, &reg_id))
			_exit(100);
		for (i = 0; i < 3; i++)
			bad |= etw_write_simple(fd2, reg_id, 7, 4, 0, NULL, 0);
		bad |= write(done[1], &x, 1) != 1;
		_exit(bad ? 101 : 0);
	}
	pids[0] = (ULONG)child;
	fd.Size = sizeof(ULONG);
	ASSERT_EQ(ERROR_SUCCESS, EnableTraceEx2(h, &self->guid, 1, 5, 0, 0, 0, &prm));
	ASSERT_EQ(1, write(go[1], "g", 1));
	ASSERT_EQ(1, read(done[0], &x, 1));
	ASSERT_EQ(0, write_n(reg, 1, 4, 0, 5));
	ASSERT_EQ(child, waitpid(child, &status, 0));
	EXPECT_EQ(0, WEXITSTATUS(status));
	ASSERT_LE(0, etw_count(self->fd, LOGGER_ID(h), g, &c));
	EXPECT_EQ(3, c.total);
	EXPECT_EQ(3, c.by_id[7]);

	/* A process that writes nothing: nothing. */
	pids[0] = 1;
	ASSERT_EQ(ERROR_SUCCESS, EnableTraceEx2(h, &self->guid, 1, 5, 0, 0, 0, &prm));
	ASSERT_EQ(0, write_n(reg, 1, 4, 0, 5));
	ASSERT_LE(0, etw_count(self->fd, LOGGER_ID(h), g, &c));
	EXPECT_EQ(0, c.total);
	close(go[0]);
	close(go[1]);
	close(done[0]);
	close(done[1]);
	EventUnregister(reg);
}

TEST_F(ctl, enable_errors)
{
	static ULONG pids[9];
	EVENT_FILTER_DESCRIPTOR fd = { .Ptr = (uintptr_t)pids, .Size = sizeof(pids),
				       .Type = EVENT_FILTER_TYPE_PID };
	ENABLE_TRACE_PARAMETERS prm = { .Version = ENABLE_TRACE_PARAMETERS_VERSION_2,
					.EnableFilterDesc = &fd,
					.FilterDescCount = 1 };
	CONTROLTRACE_ID h[ETW_MAX_SESSIONS_PER_PROVIDER + 1], gone;
	char name[32];
	int i;

	for (i = 0; i <= ETW_MAX_SESSIONS_PER_PROVIDER; i++) {
		snprintf(name, sizeof(name), "etwtest-ctl-pp%d", i);
		ASSERT_EQ(ERROR_SUCCESS, start_a(name, 4, 4, &h[i]));
	}
	/* Eight sessions per provider. */
	for (i = 0; i < ETW_MAX_SESSIONS_PER_PROVIDER; i++)
		ASSERT_EQ(ERROR_SUCCESS, EnableTraceEx2(h[i], &self->guid, 1, 5, 0, 0, 0, NULL));
	EXPECT_EQ(ERROR_NO_SYSTEM_RESOURCES,
		  EnableTraceEx2(h[i], &self->guid, 1, 5, 0, 0, 0, NULL));
	EXPECT_EQ(ERROR_NO_SYSTEM_RESOURCES, GetLastError());
	EXPECT_EQ(ERROR_NO_SYSTEM_RESOURCES, EnableTrace(TRUE, 0, 5, &self->guid, h[i]));
	EXPECT_EQ(ERROR_NO_SYSTEM_RESOURCES,
		  EnableTraceEx(&self->guid, NULL, h[i], 1, 5, 0, 0, 0, NULL));
	/* Re-enabling in a session that has it is no new session. */
	EXPECT_EQ(ERROR_SUCCESS, EnableTraceEx2(h[0], &self->guid, 1, 3, 0, 0, 0, NULL));
	/* One leaves, the ninth gets in. */
	EXPECT_EQ(ERROR_SUCCESS, EnableTraceEx2(h[0], &self->guid, 0, 0, 0, 0, 0, NULL));
	EXPECT_EQ(ERROR_SUCCESS, EnableTraceEx2(h[i], &self->guid, 1, 5, 0, 0, 0, NULL));

	/* A stopped session. */
	gone = h[0];
	ASSERT_EQ(ERROR_SUCCESS, StopTraceA(gone, NULL, pinit(&(struct pbuf){ 0 }, 0)));
	EXPECT_EQ(ERROR_WMI_INSTANCE_NOT_FOUND,
		  EnableTraceEx2(gone, &self->guid, 1, 5, 0, 0, 0, NULL));
	EXPECT_EQ(ERROR_WMI_INSTANCE_NOT_FOUND, GetLastError());
	EXPECT_EQ(ERROR_WMI_INSTANCE_NOT_FOUND,
		  EnableTraceEx2(LOGGER_ID(gone), &self->guid, 1, 5, 0, 0, 0, NULL));

	/* Arguments and filters. */
	EXPECT_EQ(ERROR_INVALID_PARAMETER, EnableTraceEx2(h[1], NULL, 1, 5, 0, 0, 0, NULL));
	EXPECT_EQ(ERROR_INVALID_PARAMETER, EnableTraceEx2(0, &self->guid, 1, 5, 0, 0, 0, NULL));
	EXPECT_EQ(ERROR_INVALID_PARAMETER, EnableTraceEx2(h[1], &self->guid, 3, 5, 0, 0, 0, NULL));
	EXPECT_EQ(ERROR_INVALID_PARAMETER, EnableTraceEx2(h[1], &self->guid, 1, 5, 0, 0, 0, &prm));
	fd.Type = EVENT_FILTER_TYPE_EXECUTABLE_NAME;
	EXPECT_EQ(ERROR_NOT_SUPPORTED, EnableTraceEx2(h[1], &self->guid, 1, 5, 0, 0, 0, &prm));
	EXPECT_EQ(ERROR_NOT_SUPPORTED, GetLastError());
	prm.FilterDescCount = 0;
	prm.EnableProperty = EVENT_ENABLE_PROPERTY_PROVIDER_GROUP;
	EXPECT_EQ(ERROR_NOT_SUPPORTED, EnableTraceEx2(h[1], &self->guid, 1, 5, 0, 0, 0, &prm));
	prm.EnableProperty = 0x10000;
	EXPECT_EQ(ERROR_INVALID_PARAMETER, EnableTraceEx2(h[1], &self->guid, 1, 5, 0, 0, 0, &prm));
	EXPECT_EQ(ERROR_INVALID_PARAMETER, EnableTrace(TRUE, 0, 5, NULL, h[1]));
	EXPECT_EQ(ERROR_INVALID_PARAMETER,
		  EnableTraceEx(&self->guid, NULL, h[1], 2, 5, 0, 0, 0, NULL));
}

TEST_F(ctl, enable_trace_forms_and_callbacks)
{
	static const GUID zero;
	const GUID src = { 0x11111111, 0x2222, 0x3333,
			   { 4, 4, 5, 5, 5, 5, 5, 5 } };
	ENABLE_TRACE_PARAMETERS prm = { .Version = ENABLE_TRACE_PARAMETERS_VERSION_2 };
	CONTROLTRACE_ID h;
	REGHANDLE reg;

	memset(&cblog, 0, sizeof(cblog));
	pthread_mutex_init(&cblog.lock, NULL);
	ASSERT_EQ(ERROR_SUCCESS, start_a("etwtest-ctl-cb", 8, 0, &h));
	ASSERT_EQ(ERROR_SUCCESS, EventRegister(&self->guid, callback, NULL, &reg));

	/* EnableTrace: the flags are the keywords. */
	ASSERT_EQ(ERROR_SUCCESS, EnableTrace(TRUE, 0x5, TRACE_LEVEL_INFORMATION,
					     &self->guid, h));
	ASSERT_EQ(1, wait_calls(1));
	EXPECT_EQ(1, cblog.is_enabled);
	EXPECT_EQ(4, cblog.level);
	EXPECT_EQ(0x5, cblog.any);
	EXPECT_EQ(0, memcmp(&zero, &cblog.source, sizeof(GUID)));
	EXPECT_TRUE(EventProviderEnabled(reg, 4, 0x1));
	EXPECT_FALSE(EventProviderEnabled(reg, 5, 0x1));
	EXPECT_FALSE(EventProviderEnabled(reg, 4, 0x2));
	ASSERT_EQ(ERROR_SUCCESS, EnableTrace(FALSE, 0, 0, &self->guid, h));
	ASSERT_EQ(2, wait_calls(2));
	EXPECT_EQ(0, cblog.is_enabled);
	EXPECT_FALSE(EventProviderEnabled(reg, 0, 0));

	/* EnableTraceEx: SourceId reaches the callback. */
	ASSERT_EQ(ERROR_SUCCESS, EnableTraceEx(&self->guid, &src, h, 1, 3, 0x2, 0,
					       0, NULL));
	ASSERT_EQ(3, wait_calls(3));
	EXPECT_EQ(0, memcmp(&src, &cblog.source, sizeof(GUID)));
	EXPECT_EQ(3, cblog.level);
	EXPECT_TRUE(EventProviderEnabled(reg, 3, 0x2));

	/* EnableTraceEx2: SourceId from the parameters, capture state. */
	prm.SourceId = src;
	prm.SourceId.Data1 = 0x77;
	ASSERT_EQ(ERROR_SUCCESS, EnableTraceEx2(h, &self->guid,
						EVENT_CONTROL_CODE_CAPTURE_STATE,
						0, 0, 0, INFINITE, &prm));
	ASSERT_EQ(4, wait_calls(4));
	EXPECT_EQ(2, cblog.is_enabled);
	EXPECT_EQ(0x77, cblog.source.Data1);
	EXPECT_TRUE(EventProviderEnabled(reg, 3, 0x2));	/* unchanged */
	/* Without parameters the SourceId is GUID_NULL. */
	ASSERT_EQ(ERROR_SUCCESS, EnableTraceEx2(h, &self->guid, 0, 0, 0, 0, 0, NULL));
	ASSERT_EQ(5, wait_calls(5));
	EXPECT_EQ(0, cblog.is_enabled);
	EXPECT_EQ(0, memcmp(&zero, &cblog.source, sizeof(GUID)));
	EventUnregister(reg);
}

/* A process without the rights gets ERROR_ACCESS_DENIED from all. */
TEST_F(ctl, unprivileged_access_denied)
{
	struct pbuf b;
	CONTROLTRACE_ID h;
	int status;
	pid_t pid;

	ASSERT_EQ(ERROR_SUCCESS, start_a("etwtest-ctl-priv", 8, 0, &h));
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		PEVENT_TRACE_PROPERTIES arr[1] = { pinit(&b, 0) };
		CONTROLTRACE_ID h2;
		ULONG n, r[13];
		int i;

		if (setgid(65534) || setuid(65534) || geteuid() != 65534)
			_exit(200);
		r[0] = StartTraceA(&h2, "etwtest-ctl-nobody",
				   pinit(&b, EVENT_TRACE_REAL_TIME_MODE));
		r[1] = GetLastError();
		r[2] = StartTraceW(&h2, u"etwtest-ctl-nobody",
				   pinit(&b, EVENT_TRACE_REAL_TIME_MODE));
		r[3] = QueryTraceA(h, NULL, pinit(&b, 0));
		r[4] = QueryTraceW(0, u"etwtest-ctl-priv", pinit(&b, 0));
		r[5] = FlushTraceA(h, NULL, pinit(&b, 0));
		r[6] = UpdateTraceA(h, NULL, pinit(&b, 0));
		r[7] = StopTraceA(h, NULL, pinit(&b, 0));
		r[8] = ControlTraceW(h, NULL, pinit(&b, 0), EVENT_TRACE_CONTROL_QUERY);
		r[9] = QueryAllTracesA(arr, 1, &n);
		r[10] = EnableTraceEx2(h, &self->guid, 1, 5, 0, 0, 0, NULL);
		r[11] = EnableTraceEx(&self->guid, NULL, h, 1, 5, 0, 0, 0, NULL);
		r[12] = EnableTrace(TRUE, 0, 5, &self->guid, h);
		/* The first call that did not say ERROR_ACCESS_DENIED, + 1. */
		for (i = 0; i < 13; i++)
			if (r[i] != ERROR_ACCESS_DENIED)
				_exit(i + 1);
		_exit(0);
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_TRUE(WIFEXITED(status));
	EXPECT_EQ(0, WEXITSTATUS(status));
	/* Still running, nothing enabled by the child. */
	EXPECT_EQ(ERROR_SUCCESS, QueryTraceA(h, NULL, pinit(&b, 0)));
	EXPECT_EQ(ERROR_WMI_INSTANCE_NOT_FOUND,
		  QueryTraceA(0, "etwtest-ctl-nobody", pinit(&b, 0)));
}

/* Room for a log file name after the session name. */
#define FILE_AT		(sizeof(EVENT_TRACE_PROPERTIES) + 512)

static EVENT_TRACE_PROPERTIES *pfile(struct pbuf *b, ULONG mode, const char *file)
{
	pinit(b, mode)->LogFileNameOffset = FILE_AT;
	if (file)
		strcpy((char *)b + FILE_AT, file);
	return &b->p;
}

/* The W log file name as UTF-8 (ASCII here). */
static const char *file_w(const struct pbuf *b)
{
	static char out[512];

	etw_utf16_ascii((const char *)b + FILE_AT, sizeof(*b) - FILE_AT, out,
			sizeof(out));
	return out;
}

/*
 * A file session's log file name, absolute as Windows keeps it, comes back
 * at LogFileNameOffset from QUERY, UPDATE, FLUSH, STOP and QueryAllTraces,
 * A and W, by handle and by name; ERROR_MORE_DATA when it does not fit.
 */
TEST_F(ctl, log_file_name_returned)
{
	static struct pbuf all[ETW_MAX_SESSIONS];
	PEVENT_TRACE_PROPERTIES arr[ETW_MAX_SESSIONS];
	const char *path = "/tmp/etwtest-ctl-file.etl";
	CONTROLTRACE_ID h, hr, hrt;
	char cwd[256];
	struct pbuf q;
	ULONG n, i, seen = 0;

	ASSERT_EQ(ERROR_SUCCESS, StartTraceA(&h, "etwtest-ctl-file",
					     pfile(&q, EVENT_TRACE_FILE_MODE_SEQUENTIAL, path)));
	/* StartTrace leaves the caller's name as it was. */
	EXPECT_STREQ(path, (char *)&q + FILE_AT);
	ASSERT_EQ(ERROR_SUCCESS, QueryTraceA(h, NULL, pfile(&q, 0, NULL)));
	EXPECT_STREQ(path, (char *)&q + FILE_AT);
	EXPECT_EQ(FILE_AT, q.p.LogFileNameOffset);
	EXPECT_STREQ("etwtest-ctl-file", name_a(&q));
	ASSERT_EQ(ERROR_SUCCESS, QueryTraceW(0, u"etwtest-ctl-file", pfile(&q, 0, NULL)));
	EXPECT_STREQ(path, file_w(&q));
	EXPECT_EQ(h, q.p.Wnode.HistoricalContext);
	ASSERT_EQ(ERROR_SUCCESS, ControlTraceA(0, "ETWTEST-ctl-FILE", pfile(&q, 0, NULL),
					       EVENT_TRACE_CONTROL_QUERY));
	EXPECT_STREQ(path, (char *)&q + FILE_AT);
	ASSERT_EQ(ERROR_SUCCESS, FlushTraceW(h, NULL, pfile(&q, 0, NULL)));
	EXPECT_STREQ(path, file_w(&q));
	/* UPDATE with an empty name at the offset switches nothing. */
	pfile(&q, 0, NULL)->FlushTimer = 2;
	ASSERT_EQ(ERROR_SUCCESS, UpdateTraceA(h, NULL, &q.p));
	EXPECT_STREQ(path, (char *)&q + FILE_AT);
	EXPECT_EQ(2, q.p.FlushTimer);
	/* No offset: nowhere to put it. */
	pinit(&q, 0);
	ASSERT_EQ(ERROR_SUCCESS, QueryTraceA(h, NULL, &q.p));
	EXPECT_EQ(0, q.p.LogFileNameOffset);

	/* Too little room: ERROR_MORE_DATA, the rest filled, no part of it. */
	pfile(&q, 0, NULL)->Wnode.BufferSize = FILE_AT + strlen(path);
	memset((char *)&q + FILE_AT, 'x', 8);
	EXPECT_EQ(ERROR_MORE_DATA, QueryTraceA(h, NULL, &q.p));
	EXPECT_EQ(ERROR_MORE_DATA, GetLastError());
	EXPECT_EQ(0, memcmp((char *)&q + FILE_AT, "xxxxxxxx", 8));
	EXPECT_EQ(h, q.p.Wnode.HistoricalContext);
	EXPECT_STREQ("etwtest-ctl-file", name_a(&q));
	pfile(&q, 0, NULL)->Wnode.BufferSize = FILE_AT + 2 * strlen(path) + 1;
	EXPECT_EQ(ERROR_MORE_DATA, QueryTraceW(h, NULL, &q.p));
	q.p.Wnode.BufferSize++;
	EXPECT_EQ(ERROR_SUCCESS, QueryTraceW(h, NULL, &q.p));
	EXPECT_STREQ(path, file_w(&q));

	/* A relative name: absolute, "." and ".." resolved by name. */
	ASSERT_NE(NULL, getcwd(cwd, sizeof(cwd)));
	ASSERT_EQ(0, mkdir("/tmp/etwtest-ctl-x", 0700) && errno != EEXIST ? -1 : 0);
	ASSERT_EQ(0, chdir("/tmp"));
	pfile(&q, EVENT_TRACE_FILE_MODE_SEQUENTIAL, NULL);
	memcpy((char *)&q + FILE_AT, u"./etwtest-ctl-x/..//etwtest-ctl-rel.etl",
	       sizeof(u"./etwtest-ctl-x/..//etwtest-ctl-rel.etl"));
	EXPECT_EQ(ERROR_SUCCESS, StartTraceW(&hr, u"etwtest-ctl-rel2", &q.p));
	EXPECT_EQ(0, chdir(cwd));
	ASSERT_EQ(ERROR_SUCCESS, QueryTraceA(hr, NULL, pfile(&q, 0, NULL)));
	EXPECT_STREQ("/tmp/etwtest-ctl-rel.etl", (char *)&q + FILE_AT);

	/* A real-time session has none: an empty name. */
	ASSERT_EQ(ERROR_SUCCESS, start_a("etwtest-ctl-rtf", 4, 0, &hrt));
	ASSERT_EQ(ERROR_SUCCESS, QueryTraceA(hrt, NULL, pfile(&q, 0, "caller's")));
	EXPECT_STREQ("", (char *)&q + FILE_AT);

	/* QueryAllTraces: each session's own. */
	for (i = 0; i < ETW_MAX_SESSIONS; i++)
		arr[i] = pfile(&all[i], 0, NULL);
	ASSERT_EQ(ERROR_SUCCESS, QueryAllTracesA(arr, ETW_MAX_SESSIONS, &n));
	for (i = 0; i < n; i++) {
		if (!strcmp(name_a(&all[i]), "etwtest-ctl-file")) {
			EXPECT_STREQ(path, (char *)&all[i] + FILE_AT);
			seen |= 1;
		} else if (!strcmp(name_a(&all[i]), "etwtest-ctl-rel2")) {
			EXPECT_STREQ("/tmp/etwtest-ctl-rel.etl", (char *)&all[i] + FILE_AT);
			seen |= 2;
		} else if (!strcmp(name_a(&all[i]), "etwtest-ctl-rtf")) {
			EXPECT_STREQ("", (char *)&all[i] + FILE_AT);
			seen |= 4;
		}
	}
	EXPECT_EQ(7, seen);

	/* STOP returns it too; with no room, ERROR_MORE_DATA, yet stopped. */
	ASSERT_EQ(ERROR_SUCCESS, StopTraceW(h, NULL, pfile(&q, 0, NULL)));
	EXPECT_STREQ(path, file_w(&q));
	pfile(&q, 0, NULL)->Wnode.BufferSize = FILE_AT + 4;
	EXPECT_EQ(ERROR_MORE_DATA, StopTraceA(hr, NULL, &q.p));
	EXPECT_EQ(ERROR_WMI_INSTANCE_NOT_FOUND, QueryTraceA(hr, NULL, pinit(&q, 0)));
	EXPECT_EQ(ERROR_SUCCESS, StopTraceA(hrt, NULL, pinit(&q, 0)));
	unlink(path);
	unlink("/tmp/etwtest-ctl-rel.etl");
	rmdir("/tmp/etwtest-ctl-x");
}

/* The module's side: the name kept at start and returned, and its errors. */
TEST_F(ctl, log_file_name_ioctls)
{
	static char longname[ETW_MAX_LOG_FILE_NAME + 1];
	struct etw_session_control c;
	struct etw_session_start st;
	char out[64];

	memset(&st, 0, sizeof(st));
	st.size = sizeof(st);
	strcpy(st.info.name, "etwtest-ctl-kf");
	st.info.log_file_mode = ETW_MODE_REAL_TIME;
	st.log_file_name = (uintptr_t)"";
	EXPECT_EQ(-EINVAL, etw_ioctl_err(self->fd, ETW_IOC_SESSION_START, &st));
	memset(longname, 'a', sizeof(longname) - 1);
	st.log_file_name = (uintptr_t)longname;
	EXPECT_EQ(-EINVAL, etw_ioctl_err(self->fd, ETW_IOC_SESSION_START, &st));
	st.log_file_name = 1;
	EXPECT_EQ(-EFAULT, etw_ioctl_err(self->fd, ETW_IOC_SESSION_START, &st));
	st.log_file_name = (uintptr_t)"/tmp/kf.etl";
	st.reserved1 = 1;
	EXPECT_EQ(-EINVAL, etw_ioctl_err(self->fd, ETW_IOC_SESSION_START, &st));
	/* None of them made a session. */
	EXPECT_EQ(ERROR_WMI_INSTANCE_NOT_FOUND,
		  QueryTraceA(0, "etwtest-ctl-kf", pinit(&(struct pbuf){ 0 }, 0)));
	st.reserved1 = 0;
	/* The longest name is kept whole. */
	longname[ETW_MAX_LOG_FILE_NAME - 1] = 0;
	st.log_file_name = (uintptr_t)longname;
	ASSERT_EQ(0, etw_ioctl_err(self->fd, ETW_IOC_SESSION_START, &st));

	memset(&c, 0, sizeof(c));
	c.size = sizeof(c);
	c.logger_id = st.info.logger_id;
	c.log_file_name = (uintptr_t)out;
	c.log_file_name_size = sizeof(out);
	memset(out, 'x', sizeof(out));
	/* Too little room: its length, nothing written. */
	ASSERT_EQ(0, etw_ioctl_err(self->fd, ETW_IOC_SESSION_CONTROL, &c));
	EXPECT_EQ(ETW_MAX_LOG_FILE_NAME, c.log_file_name_len);
	EXPECT_EQ('x', out[0]);
	c.log_file_name = (uintptr_t)longname;
	c.log_file_name_size = ETW_MAX_LOG_FILE_NAME;
	memset(longname, 0, sizeof(longname));
	ASSERT_EQ(0, etw_ioctl_err(self->fd, ETW_IOC_SESSION_CONTROL, &c));
	EXPECT_EQ(ETW_MAX_LOG_FILE_NAME - 1, strlen(longname));
	/* An address it cannot write: EFAULT. */
	c.log_file_name = 1;
	EXPECT_EQ(-EFAULT, etw_ioctl_err(self->fd, ETW_IOC_SESSION_CONTROL, &c));
	/* The first published size: no name asked for, none given. */
	c.size = ETW_SESSION_CONTROL_SIZE_VER0;
	ASSERT_EQ(0, etw_ioctl_err(self->fd, ETW_IOC_SESSION_CONTROL, &c));
	c.size = sizeof(c);
	c.code = ETW_CONTROL_STOP;
	c.log_file_name = (uintptr_t)longname;
	memset(longname, 0, sizeof(longname));
	ASSERT_EQ(0, etw_ioctl_err(self->fd, ETW_IOC_SESSION_CONTROL, &c));
	EXPECT_EQ(ETW_MAX_LOG_FILE_NAME - 1, strlen(longname));

	/* A session started without one has none. */
	st.log_file_name = 0;
	memset(&st.info, 0, sizeof(st.info));
	strcpy(st.info.name, "etwtest-ctl-kf");
	st.info.log_file_mode = ETW_MODE_REAL_TIME;
	ASSERT_EQ(0, etw_ioctl_err(self->fd, ETW_IOC_SESSION_START, &st));
	c.code = ETW_CONTROL_STOP;
	c.logger_id = st.info.logger_id;
	c.log_file_name_len = 77;
	ASSERT_EQ(0, etw_ioctl_err(self->fd, ETW_IOC_SESSION_CONTROL, &c));
	EXPECT_EQ(0, c.log_file_name_len);
}

/* GUID_NULL names no provider: the library and the module refuse it. */
TEST_F(ctl, enable_refuses_guid_null)
{
	static const GUID null_guid;
	struct etw_enable e;
	CONTROLTRACE_ID h;

	ASSERT_EQ(ERROR_SUCCESS, start_a("etwtest-ctl-null", 4, 0, &h));
	EXPECT_EQ(ERROR_INVALID_PARAMETER,
		  EnableTraceEx2(h, &null_guid, EVENT_CONTROL_CODE_ENABLE_PROVIDER,
				 5, 0, 0, 0, NULL));
	EXPECT_EQ(ERROR_INVALID_PARAMETER, GetLastError());
	EXPECT_EQ(ERROR_INVALID_PARAMETER,
		  EnableTraceEx2(h, NULL, EVENT_CONTROL_CODE_ENABLE_PROVIDER,
				 5, 0, 0, 0, NULL));
	EXPECT_EQ(ERROR_INVALID_PARAMETER,
		  EnableTraceEx(&null_guid, NULL, h, 1, 5, 0, 0, 0, NULL));
	EXPECT_EQ(ERROR_INVALID_PARAMETER, EnableTrace(TRUE, 0, 5, &null_guid, h));
	EXPECT_EQ(ERROR_INVALID_PARAMETER, EnableTrace(FALSE, 0, 0, &null_guid, h));

	/* The module: EINVAL for every code, and no provider made. */
	memset(&e, 0, sizeof(e));
	e.size = sizeof(e);
	e.logger_id = LOGGER_ID(h);
	for (e.control_code = 0; e.control_code <= ETW_CONTROL_CODE_CAPTURE_STATE;
	     e.control_code++)
		EXPECT_EQ(-EINVAL, etw_ioctl_err(self->fd, ETW_IOC_ENABLE, &e));
	/* A real one is enabled as before. */
	EXPECT_EQ(ERROR_SUCCESS, EnableTraceEx2(h, &self->guid, 1, 5, 0, 0, 0, NULL));
	EXPECT_EQ(ERROR_SUCCESS, StopTraceA(h, NULL, pinit(&(struct pbuf){ 0 }, 0)));
}

TEST_HARNESS_MAIN
