// SPDX-License-Identifier: GPL-2.0
/*
 * Private loggers need no module: StartTrace with
 * EVENT_TRACE_PRIVATE_LOGGER_MODE, TraceEvent, TraceEventInstance and
 * TraceMessage into the process's own buffers, the ETL file libetw's
 * writer makes of them read back with its reader, ControlTrace QUERY,
 * FLUSH, UPDATE and STOP (with the absolute log file name they return),
 * EnableTraceEx2's refusal of GUID_NULL, the limit of 4 per process (seed 004), the
 * errors of a full pool (ERROR_NOT_ENOUGH_MEMORY) and of a buffer that
 * cannot be allocated (ERROR_OUTOFMEMORY), and a write path without
 * system calls (seccomp).
 */
#include <dirent.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <windows.h>
#include <evntrace.h>
#include <evntcons.h>
#include <etw_etl.h>

#include "../src/provider/classic.h"

#include "kselftest_harness.h"
#include "../../selftests/etw/no_syscall.h"

struct props {
	EVENT_TRACE_PROPERTIES p;
	char names[1024];
};

#define NAME_OFF	((ULONG)sizeof(EVENT_TRACE_PROPERTIES))
#define FILE_OFF	(NAME_OFF + 256)

static const GUID guid = { 0x0a0b0c0d, 0x1111, 0x2222,
			   { 3, 4, 5, 6, 7, 8, 9, 10 } };

static EVENT_TRACE_PROPERTIES *props(struct props *b, ULONG mode,
				     const char *file)
{
	memset(b, 0, sizeof(*b));
	b->p.Wnode.BufferSize = sizeof(*b);
	b->p.Wnode.Flags = WNODE_FLAG_TRACED_GUID;
	b->p.Wnode.Guid = guid;
	b->p.LogFileMode = EVENT_TRACE_PRIVATE_LOGGER_MODE | mode;
	b->p.LoggerNameOffset = NAME_OFF;
	if (file) {
		b->p.LogFileNameOffset = FILE_OFF;
		strcpy((char *)b + FILE_OFF, file);
	}
	return &b->p;
}

static ULONG start(const char *name, const char *file, ULONG mode, ULONG kb,
		   ULONG min, ULONG max, CONTROLTRACE_ID *h)
{
	struct props b;

	props(&b, mode, file);
	b.p.BufferSize = kb;
	b.p.MinimumBuffers = min;
	b.p.MaximumBuffers = max;
	return StartTraceA(h, name, &b.p);
}

static ULONG control(CONTROLTRACE_ID h, const char *name, ULONG code,
		     struct props *b)
{
	props(b, 0, NULL);
	b->p.LogFileMode = 0;
	return ControlTraceA(h, name, &b->p, code);
}

static ULONG stop(CONTROLTRACE_ID h)
{
	struct props b;

	return control(h, NULL, EVENT_TRACE_CONTROL_STOP, &b);
}

static void event_init(EVENT_TRACE_HEADER *e, USHORT data)
{
	memset(e, 0, sizeof(*e));
	e->Size = sizeof(*e) + data;
	e->Flags = WNODE_FLAG_TRACED_GUID;
	e->Guid = guid;
	e->Class.Type = EVENT_TRACE_TYPE_INFO;
	e->Class.Level = 2;
}

/* A classic event with up to 64 KiB of data. */
struct ev {
	EVENT_TRACE_HEADER h;
	char data[65536];
};

/* The records of an ETL file but its header buffer, in time order. */
static int read_file(const char *path, struct etw_etl_event *out, int max,
		     struct etw_etl **etl)
{
	struct etw_etl_event ev;
	int n = 0, ret;

	ret = etw_etl_open(path, etl, NULL);
	if (ret)
		return ret;
	etw_etl_rewind(*etl, ETW_ETL_ORDER_TIME);
	while ((ret = etw_etl_next(*etl, &ev)) == 1)
		if (ev.buffer && n < max)
			out[n++] = ev;
	return ret < 0 ? ret : n;
}

static char path[64];

FIXTURE(priv)
{
	CONTROLTRACE_ID h;
	struct etw_etl *etl;
};

FIXTURE_SETUP(priv)
{
	snprintf(path, sizeof(path), "/tmp/etw-private-%d.etl", getpid());
	self->etl = NULL;
	ASSERT_EQ(ERROR_SUCCESS, start("etwtest-private", path, 0, 4, 0, 0, &self->h));
}

FIXTURE_TEARDOWN(priv)
{
	if (self->etl)
		etw_etl_close(self->etl);
	stop(self->h);
	unlink(path);
}

TEST_F(priv, start_fills_the_properties)
{
	struct props b;

	/* The private-logger bit, an index as logger id, a start tag. */
	EXPECT_EQ(0x01000000, self->h & 0xff000000);
	EXPECT_LE(1, self->h & 0xffff);
	EXPECT_GE(4, self->h & 0xffff);
	EXPECT_NE(0, self->h >> 32);
	ASSERT_EQ(ERROR_SUCCESS, control(self->h, NULL, EVENT_TRACE_CONTROL_QUERY, &b));
	EXPECT_EQ(self->h, b.p.Wnode.HistoricalContext);
	EXPECT_EQ(0, memcmp(&b.p.Wnode.Guid, &guid, sizeof(guid)));
	EXPECT_EQ(EVENT_TRACE_PRIVATE_LOGGER_MODE, b.p.LogFileMode);
	EXPECT_EQ(4, b.p.BufferSize);
	EXPECT_LE(2, b.p.MinimumBuffers);
	EXPECT_LE(b.p.MinimumBuffers, b.p.MaximumBuffers);
	EXPECT_EQ(b.p.MinimumBuffers, b.p.NumberOfBuffers);
	EXPECT_EQ(b.p.NumberOfBuffers, b.p.FreeBuffers);
	EXPECT_EQ(0, b.p.EventsLost);
	EXPECT_STREQ("etwtest-private", (char *)&b + b.p.LoggerNameOffset);
	/* By name, as any session; ignoring case, as Windows. */
	ASSERT_EQ(ERROR_SUCCESS, control(0, "ETWTEST-private", EVENT_TRACE_CONTROL_QUERY, &b));
	EXPECT_EQ(self->h, b.p.Wnode.HistoricalContext);
	/* The file exists from the start, with its header buffer. */
	EXPECT_EQ(0, access(path, R_OK));
}

TEST_F(priv, start_errors_and_the_limit_of_four)
{
	CONTROLTRACE_ID h[4];
	struct props b;
	char name[32];
	int i, n = 1;

	EXPECT_EQ(ERROR_ALREADY_EXISTS, start("etwtest-private", NULL,
					      EVENT_TRACE_BUFFERING_MODE, 4, 0, 0, &h[0]));
	/* IN_PROC qualifies a private logger. */
	props(&b, 0, path);
	b.p.LogFileMode = EVENT_TRACE_PRIVATE_IN_PROC;
	EXPECT_EQ(ERROR_INVALID_PARAMETER, StartTraceA(&h[0], "etwtest-p2", &b.p));
	/* No real-time delivery; events must go somewhere. */
	EXPECT_EQ(ERROR_INVALID_PARAMETER, start("etwtest-p2", NULL,
						 EVENT_TRACE_REAL_TIME_MODE, 4, 0, 0, &h[0]));
	EXPECT_EQ(ERROR_BAD_PATHNAME, start("etwtest-p2", NULL, 0, 4, 0, 0, &h[0]));
	EXPECT_EQ(ERROR_PATH_NOT_FOUND, start("etwtest-p2", "/nonexistent/dir/x.etl",
					      0, 4, 0, 0, &h[0]));
	EXPECT_EQ(ERROR_INVALID_PARAMETER, start(KERNEL_LOGGER_NAMEA, NULL,
						 EVENT_TRACE_BUFFERING_MODE, 4, 0, 0, &h[0]));
	/* Seed 004: four per process. */
	for (i = 0; i < 3; i++) {
		snprintf(name, sizeof(name), "etwtest-p%d", i + 2);
		ASSERT_EQ(ERROR_SUCCESS, start(name, NULL, EVENT_TRACE_BUFFERING_MODE,
					       4, 0, 0, &h[i]));
		n++;
	}
	EXPECT_EQ(ERROR_NO_SYSTEM_RESOURCES, start("etwtest-p5", NULL,
						   EVENT_TRACE_BUFFERING_MODE, 4, 0, 0, &h[3]));
	EXPECT_EQ(ERROR_NO_SYSTEM_RESOURCES, GetLastError());
	EXPECT_EQ(ERROR_SUCCESS, stop(h[0]));
	EXPECT_EQ(ERROR_SUCCESS, start("etwtest-p5", NULL, EVENT_TRACE_BUFFERING_MODE,
				       4, 0, 0, &h[3]));
	/* The old handle names nothing, though its slot is in use again. */
	EXPECT_EQ(ERROR_WMI_INSTANCE_NOT_FOUND, stop(h[0]));
	EXPECT_EQ(ERROR_SUCCESS, stop(h[1]));
	EXPECT_EQ(ERROR_SUCCESS, stop(h[2]));
	EXPECT_EQ(ERROR_SUCCESS, stop(h[3]));
	/* Handles that cannot be a private logger's. */
	EXPECT_EQ(ERROR_INVALID_PARAMETER, stop(0x01000005));
	EXPECT_EQ(ERROR_INVALID_PARAMETER, stop(0x01000000));
}

TEST_F(priv, classic_writes_in_the_file)
{
	struct etw_etl_event rec[8];
	EVENT_INSTANCE_INFO inst = { etw_class_new(&guid), 9 };
	struct {
		EVENT_INSTANCE_HEADER h;
		char data[4];
	} ie;
	struct timespec ts;
	__u64 before;
	struct props b;
	struct ev e;
	__u32 v = 0x55667788;
	const __u8 *r;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	before = (__u64)ts.tv_sec * 1000000000ull + ts.tv_nsec;
	event_init(&e.h, 5);
	memcpy(e.data, "priv", 5);
	EXPECT_EQ(ERROR_SUCCESS, TraceEvent(self->h, &e.h));
	EXPECT_EQ(self->h, ((WNODE_HEADER *)&e.h)->HistoricalContext);
	memset(&ie, 0, sizeof(ie));
	ie.h.Size = sizeof(ie);
	ie.h.Flags = WNODE_FLAG_TRACED_GUID;
	ie.h.Class.Type = EVENT_TRACE_TYPE_END;
	memcpy(ie.data, "inst", 4);
	EXPECT_EQ(ERROR_SUCCESS, TraceEventInstance(self->h, &ie.h, &inst, NULL));
	EXPECT_EQ(ERROR_SUCCESS, TraceMessage(self->h, TRACE_MESSAGE_GUID |
					      TRACE_MESSAGE_SYSTEMINFO, &guid, 7,
					      &v, sizeof(v), NULL, (size_t)0));
	ASSERT_EQ(ERROR_SUCCESS, control(self->h, NULL, EVENT_TRACE_CONTROL_FLUSH, &b));
	EXPECT_EQ(0, b.p.EventsLost);
	EXPECT_LE(1, b.p.BuffersWritten);

	/* FLUSH wrote them: the file has them now. */
	ASSERT_EQ(3, read_file(path, rec, 8, &self->etl));
	EXPECT_EQ(ETW_ETL_KIND_CLASSIC, rec[0].kind);
	EXPECT_EQ(0x14, rec[0].header_type);
	EXPECT_EQ(0, memcmp(&rec[0].provider, &guid, 16));
	EXPECT_EQ(2, rec[0].level);
	EXPECT_EQ(getpid(), rec[0].process_id);
	EXPECT_EQ(syscall(SYS_gettid), rec[0].thread_id);
	EXPECT_LE(before, rec[0].timestamp);
	EXPECT_TRUE(rec[0].has & ETW_ETL_HAS_FILETIME);
	ASSERT_EQ(5, rec[0].data_size);
	EXPECT_EQ(0, memcmp(rec[0].data, "priv", 5));
	/* ProcessorTime: 0, reading it would take a system call. */
	r = rec[0].record;
	EXPECT_EQ(0, memcmp(r + 0x28, (char[8]){ 0 }, 8));
	EXPECT_EQ(ETW_ETL_KIND_INSTANCE, rec[1].kind);
	EXPECT_EQ(EVENT_TRACE_TYPE_END, rec[1].opcode);
	EXPECT_EQ(0, memcmp((const char *)rec[1].record + 0x30, &inst.InstanceId, 4));
	EXPECT_EQ(ETW_ETL_KIND_MESSAGE, rec[2].kind);
	EXPECT_EQ(7, rec[2].id);
	EXPECT_EQ(TRACE_MESSAGE_GUID | TRACE_MESSAGE_SYSTEMINFO | TRACE_MESSAGE_POINTER64,
		  rec[2].header_flags);
	EXPECT_EQ(getpid(), rec[2].process_id);
	ASSERT_EQ(4, rec[2].data_size);
	etw_class_free(inst.RegHandle);
}

TEST_F(priv, stop_closes_a_complete_file)
{
	const struct etw_etl_header *hdr;
	struct etw_etl_event rec[4];
	struct props b;
	struct ev e;

	event_init(&e.h, 0);
	ASSERT_EQ(ERROR_SUCCESS, TraceEvent(self->h, &e.h));
	ASSERT_EQ(ERROR_SUCCESS, control(self->h, NULL, EVENT_TRACE_CONTROL_STOP, &b));
	EXPECT_EQ(self->h, b.p.Wnode.HistoricalContext);
	EXPECT_EQ(1, b.p.BuffersWritten);
	/* Stopped: its handle names nothing (its name: the VM tests). */
	EXPECT_EQ(ERROR_INVALID_HANDLE, TraceEvent(self->h, &e.h));
	EXPECT_EQ(ERROR_WMI_INSTANCE_NOT_FOUND,
		  control(self->h, NULL, EVENT_TRACE_CONTROL_QUERY, &b));
	ASSERT_EQ(1, read_file(path, rec, 4, &self->etl));
	hdr = etw_etl_get_header(self->etl);
	EXPECT_STREQ("etwtest-private", hdr->logger_name);
	EXPECT_TRUE(hdr->log_file_mode & EVENT_TRACE_PRIVATE_LOGGER_MODE);
	EXPECT_EQ(2, hdr->buffer_count);
	EXPECT_NE(0, hdr->end_time);
}

/* A writer that goes on until the logger is gone. */
struct stop_writer {
	CONTROLTRACE_ID h;
	long ok, lost, bad;
};

static void *stop_writer_fn(void *arg)
{
	struct stop_writer *w = arg;
	struct ev e;
	ULONG ret;

	event_init(&e.h, 40);
	for (;;) {
		ret = TraceEvent(w->h, &e.h);
		if (ret == ERROR_SUCCESS)
			w->ok++;
		else if (ret == ERROR_NOT_ENOUGH_MEMORY)
			w->lost++;
		else if (ret == ERROR_INVALID_HANDLE)
			return NULL;
		else if (++w->bad > 100)
			return NULL;
	}
}

/*
 * STOP under writers on every processor: each write that succeeded is in
 * the file, each refused one is counted lost, none is both, and no write
 * lands after the stop.
 */
TEST_F(priv, stop_under_writers_keeps_every_accepted_event)
{
	struct stop_writer w[4];
	pthread_t t[4];
	struct etw_etl_event ev;
	struct timespec nap = { 0, 50 * 1000 * 1000 };
	struct props b;
	long ok = 0, lost = 0, in_file = 0;
	int i;

	for (i = 0; i < 4; i++) {
		w[i] = (struct stop_writer){ .h = self->h };
		ASSERT_EQ(0, pthread_create(&t[i], NULL, stop_writer_fn, &w[i]));
	}
	nanosleep(&nap, NULL);
	ASSERT_EQ(ERROR_SUCCESS, control(self->h, NULL, EVENT_TRACE_CONTROL_STOP, &b));
	for (i = 0; i < 4; i++) {
		pthread_join(t[i], NULL);
		EXPECT_EQ(0, w[i].bad);
		ok += w[i].ok;
		lost += w[i].lost;
	}
	EXPECT_LT(0, ok);
	EXPECT_EQ(lost, b.p.EventsLost);
	ASSERT_EQ(0, etw_etl_open(path, &self->etl, NULL));
	while (etw_etl_next(self->etl, &ev) == 1)
		in_file += ev.buffer && !memcmp(&ev.provider, &guid, sizeof(guid));
	EXPECT_EQ(ok, in_file);
}

/* UPDATE with a log file: events so far in the old file, later ones in the new. */
TEST_F(priv, update_switches_the_log_file)
{
	struct etw_etl_event rec[4];
	struct etw_etl *old_etl;
	char second[80];
	struct props b;
	struct ev e;

	snprintf(second, sizeof(second), "%s.2", path);
	event_init(&e.h, 4);
	memcpy(e.data, "one", 4);
	ASSERT_EQ(ERROR_SUCCESS, TraceEvent(self->h, &e.h));
	props(&b, 0, second);
	b.p.LogFileMode = 0;
	ASSERT_EQ(ERROR_SUCCESS, ControlTraceA(self->h, NULL, &b.p,
					       EVENT_TRACE_CONTROL_UPDATE));
	memcpy(e.data, "two", 4);
	ASSERT_EQ(ERROR_SUCCESS, TraceEvent(self->h, &e.h));
	/* A directory that is not there: the logger keeps its file. */
	props(&b, 0, "/nonexistent/dir/x.etl");
	b.p.LogFileMode = 0;
	EXPECT_EQ(ERROR_PATH_NOT_FOUND, ControlTraceA(self->h, NULL, &b.p,
						      EVENT_TRACE_CONTROL_UPDATE));
	ASSERT_EQ(ERROR_SUCCESS, stop(self->h));

	ASSERT_EQ(1, read_file(path, rec, 4, &old_etl));
	EXPECT_EQ(0, memcmp(rec[0].data, "one", 4));
	etw_etl_close(old_etl);
	ASSERT_EQ(1, read_file(second, rec, 4, &self->etl));
	EXPECT_EQ(0, memcmp(rec[0].data, "two", 4));
	unlink(second);
}

enum cs { A, W };

/* QUERY, UPDATE and STOP with room for the log file name, A or W. */
static ULONG control_file(CONTROLTRACE_ID h, ULONG code, struct props *b,
			  enum cs cs, const char *new_file)
{
	props(b, 0, NULL);
	b->p.LogFileMode = 0;
	b->p.LogFileNameOffset = FILE_OFF;
	if (new_file && cs == A)
		strcpy((char *)b + FILE_OFF, new_file);
	else if (new_file)
		for (size_t i = 0; i <= strlen(new_file); i++)
			memcpy((char *)b + FILE_OFF + 2 * i, &(WCHAR){ (WCHAR)new_file[i] }, 2);
	return cs == A ? ControlTraceA(h, NULL, &b->p, code) :
			 ControlTraceW(h, NULL, &b->p, code);
}

/* The W name at FILE_OFF as ASCII, for comparing. */
static const char *file_w(struct props *b)
{
	static char out[256];
	WCHAR c;
	size_t i;

	for (i = 0; i < sizeof(out) - 1; i++) {
		memcpy(&c, (char *)b + FILE_OFF + 2 * i, 2);
		out[i] = c < 0x80 ? (char)c : '?';
		if (!c)
			break;
	}
	out[sizeof(out) - 1] = 0;
	return out;
}

/*
 * Every control code returns the log file name at LogFileNameOffset, made
 * absolute as Windows keeps it; UPDATE's new file from then on.
 */
TEST_F(priv, control_returns_the_log_file_name)
{
	char dir[] = "/tmp/etwtest-privXXXXXX", sub[64], full[96], cwd[256];
	char second[96];
	CONTROLTRACE_ID h;
	struct props b;

	ASSERT_EQ(ERROR_SUCCESS, control_file(self->h, EVENT_TRACE_CONTROL_QUERY, &b, A, NULL));
	EXPECT_STREQ(path, (char *)&b + FILE_OFF);
	EXPECT_EQ(FILE_OFF, b.p.LogFileNameOffset);
	ASSERT_EQ(ERROR_SUCCESS, control_file(self->h, EVENT_TRACE_CONTROL_QUERY, &b, W, NULL));
	EXPECT_STREQ(path, file_w(&b));
	ASSERT_EQ(ERROR_SUCCESS, control_file(self->h, EVENT_TRACE_CONTROL_FLUSH, &b, A, NULL));
	EXPECT_STREQ(path, (char *)&b + FILE_OFF);
	/* QueryTrace is ControlTrace QUERY. */
	props(&b, 0, "x");
	b.p.LogFileMode = 0;
	ASSERT_EQ(ERROR_SUCCESS, QueryTraceA(self->h, NULL, &b.p));
	EXPECT_STREQ(path, (char *)&b + FILE_OFF);
	/* No room: ERROR_MORE_DATA, the rest filled. */
	props(&b, 0, NULL);
	b.p.LogFileMode = 0;
	b.p.LogFileNameOffset = FILE_OFF;
	b.p.Wnode.BufferSize = FILE_OFF + 4;
	EXPECT_EQ(ERROR_MORE_DATA, QueryTraceA(self->h, NULL, &b.p));
	EXPECT_EQ(ERROR_MORE_DATA, GetLastError());
	EXPECT_EQ(4, b.p.BufferSize);
	EXPECT_STREQ("etwtest-private", (char *)&b + NAME_OFF);
	EXPECT_EQ(0, ((char *)&b)[FILE_OFF]);

	/* A relative name, with "." and "..": absolute, resolved by name. */
	ASSERT_NE(NULL, mkdtemp(dir));
	snprintf(sub, sizeof(sub), "%s/sub", dir);
	ASSERT_EQ(0, mkdir(sub, 0700));
	ASSERT_NE(NULL, getcwd(cwd, sizeof(cwd)));
	ASSERT_EQ(0, chdir(dir));
	EXPECT_EQ(ERROR_SUCCESS, start("etwtest-rel", "./sub/../rel.etl", 0, 4, 0, 0, &h));
	snprintf(full, sizeof(full), "%s/rel.etl", dir);
	snprintf(second, sizeof(second), "%s/sub/two.etl", dir);
	ASSERT_EQ(ERROR_SUCCESS, control_file(h, EVENT_TRACE_CONTROL_QUERY, &b, A, NULL));
	EXPECT_STREQ(full, (char *)&b + FILE_OFF);
	/* UPDATE switches files: the new one's name from then on. */
	EXPECT_EQ(ERROR_SUCCESS, control_file(h, EVENT_TRACE_CONTROL_UPDATE, &b, W,
					      "sub//two.etl"));
	EXPECT_STREQ(second, file_w(&b));
	EXPECT_EQ(0, chdir(cwd));
	ASSERT_EQ(ERROR_SUCCESS, control_file(h, EVENT_TRACE_CONTROL_QUERY, &b, A, NULL));
	EXPECT_STREQ(second, (char *)&b + FILE_OFF);
	/* StopTrace too, W. */
	ASSERT_EQ(ERROR_SUCCESS, control_file(h, EVENT_TRACE_CONTROL_STOP, &b, W, NULL));
	EXPECT_STREQ(second, file_w(&b));
	unlink(full);
	unlink(second);
	rmdir(sub);
	rmdir(dir);
}

/* GUID_NULL names no provider, for a private logger as for any session. */
TEST_F(priv, enable_refuses_guid_null)
{
	static const GUID null_guid;

	EXPECT_EQ(ERROR_INVALID_PARAMETER,
		  EnableTraceEx2(self->h, &null_guid, EVENT_CONTROL_CODE_ENABLE_PROVIDER,
				 5, 0, 0, 0, NULL));
	EXPECT_EQ(ERROR_INVALID_PARAMETER,
		  EnableTraceEx2(self->h, NULL, EVENT_CONTROL_CODE_ENABLE_PROVIDER,
				 5, 0, 0, 0, NULL));
	EXPECT_EQ(ERROR_INVALID_PARAMETER, EnableTrace(1, 0, 5, &null_guid, self->h));
	EXPECT_EQ(ERROR_INVALID_PARAMETER,
		  EnableTraceEx(&null_guid, NULL, self->h, 1, 5, 0, 0, 0, NULL));
	/* A real provider is enabled as before. */
	EXPECT_EQ(ERROR_SUCCESS,
		  EnableTraceEx2(self->h, &guid, EVENT_CONTROL_CODE_ENABLE_PROVIDER,
				 5, 0, 0, 0, NULL));
}

/* A logger without a file has none to switch. */
TEST(update_of_a_buffering_logger_has_no_file_to_switch)
{
	CONTROLTRACE_ID h;
	struct props b;

	ASSERT_EQ(ERROR_SUCCESS, start("etwtest-ring", NULL, EVENT_TRACE_BUFFERING_MODE,
				       4, 0, 0, &h));
	props(&b, 0, "/tmp/etwtest-ring.etl");
	b.p.LogFileMode = 0;
	EXPECT_EQ(ERROR_INVALID_PARAMETER, ControlTraceA(h, NULL, &b.p,
							 EVENT_TRACE_CONTROL_UPDATE));
	/* Its file name is empty. */
	props(&b, 0, "caller's");
	b.p.LogFileMode = 0;
	EXPECT_EQ(ERROR_SUCCESS, QueryTraceA(h, NULL, &b.p));
	EXPECT_STREQ("", (char *)&b + FILE_OFF);
	EXPECT_EQ(ERROR_SUCCESS, stop(h));
	EXPECT_NE(0, access("/tmp/etwtest-ring.etl", F_OK));
}

/*
 * A child of fork() has none of its parent's private loggers (their
 * thread and file are the parent's) and may start its own; the parent's
 * logger goes on, its file without the child's events.
 */
TEST_F(priv, a_child_of_fork_has_none_of_the_loggers)
{
	struct etw_etl_event rec[4];
	struct props b;
	struct ev e;
	int status;
	pid_t child;

	event_init(&e.h, 7);
	memcpy(e.data, "parent", 7);
	ASSERT_EQ(ERROR_SUCCESS, TraceEvent(self->h, &e.h));
	child = fork();
	ASSERT_LE(0, child);
	if (!child) {
		CONTROLTRACE_ID own;
		int bad = 0;

		memcpy(e.data, "child!", 7);
		bad |= TraceEvent(self->h, &e.h) != ERROR_INVALID_HANDLE;
		bad |= control(self->h, NULL, EVENT_TRACE_CONTROL_QUERY, &b) !=
		       ERROR_WMI_INSTANCE_NOT_FOUND;
		/* All four slots are the child's. */
		bad |= start("etwtest-private", NULL, EVENT_TRACE_BUFFERING_MODE,
			     4, 0, 0, &own) != ERROR_SUCCESS;
		bad |= TraceEvent(own, &e.h) != ERROR_SUCCESS;
		bad |= stop(own) != ERROR_SUCCESS;
		_exit(bad ? 1 : 0);
	}
	ASSERT_EQ(child, waitpid(child, &status, 0));
	EXPECT_TRUE(WIFEXITED(status));
	EXPECT_EQ(0, WEXITSTATUS(status));
	memcpy(e.data, "after", 6);
	ASSERT_EQ(ERROR_SUCCESS, TraceEvent(self->h, &e.h));
	ASSERT_EQ(ERROR_SUCCESS, stop(self->h));
	ASSERT_EQ(2, read_file(path, rec, 4, &self->etl));
	EXPECT_EQ(0, memcmp(rec[0].data, "parent", 7));
	EXPECT_EQ(0, memcmp(rec[1].data, "after", 6));
}

/* Argument @i of the list below: the byte bytes[i]. */
static const __u8 bytes[160] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17,
				 [128] = 129, [129] = 130 };
#define ARG(i)		&bytes[i], (size_t)1
#define ARGS8(i)	ARG(i), ARG(i + 1), ARG(i + 2), ARG(i + 3), ARG(i + 4), \
			ARG(i + 5), ARG(i + 6), ARG(i + 7)
#define ARGS64(i)	ARGS8(i), ARGS8(i + 8), ARGS8(i + 16), ARGS8(i + 24), \
			ARGS8(i + 32), ARGS8(i + 40), ARGS8(i + 48), ARGS8(i + 56)

/*
 * Up to 16 arguments are read in one walk of the list; 17 up to 128 are
 * descriptors on the heap; more are one gathered block: the same data.
 */
TEST_F(priv, message_arguments_of_every_count)
{
	struct etw_etl_event rec[4];
	struct props b;

	EXPECT_EQ(ERROR_SUCCESS, TraceMessage(self->h, 0, NULL, 1, ARGS8(0), ARGS8(8),
					      NULL, (size_t)0));
	EXPECT_EQ(ERROR_SUCCESS, TraceMessage(self->h, 0, NULL, 2, ARGS8(0), ARGS8(8),
					      ARG(16), NULL, (size_t)0));
	EXPECT_EQ(ERROR_SUCCESS, TraceMessage(self->h, 0, NULL, 3, ARGS64(0), ARGS64(64),
					      ARG(128), ARG(129), NULL, (size_t)0));
	/* Past 16, each failure as before: too much, unreadable. */
	EXPECT_EQ(ERROR_MORE_DATA, TraceMessage(self->h, 0, NULL, 4, ARGS8(0), ARGS8(8),
						bytes, (size_t)65536, NULL, (size_t)0));
	EXPECT_EQ(ERROR_NOACCESS, TraceMessage(self->h, 0, NULL, 5, ARGS64(0), ARGS64(64),
					       (void *)16, (size_t)4, NULL, (size_t)0));
	ASSERT_EQ(ERROR_SUCCESS, control(self->h, NULL, EVENT_TRACE_CONTROL_FLUSH, &b));
	ASSERT_EQ(3, read_file(path, rec, 4, &self->etl));
	ASSERT_EQ(16, rec[0].data_size);
	EXPECT_EQ(0, memcmp(rec[0].data, bytes, 16));
	ASSERT_EQ(17, rec[1].data_size);
	EXPECT_EQ(0, memcmp(rec[1].data, bytes, 17));
	EXPECT_EQ(3, rec[2].id);
	ASSERT_EQ(130, rec[2].data_size);
	EXPECT_EQ(0, memcmp(rec[2].data, bytes, 130));
}

TEST_F(priv, write_errors)
{
	struct {
		EVENT_TRACE_HEADER h;
		MOF_FIELD f[17];
	} m;
	EVENT_TRACE t;
	struct etw_etl_event rec[4];
	struct props b;
	struct ev e;
	int i;

	/* 4 KB buffers: 0x48 of header leaves 4024 bytes. */
	event_init(&e.h, 4024 - sizeof(e.h) + 1);
	EXPECT_EQ(ERROR_MORE_DATA, TraceEvent(self->h, &e.h));
	EXPECT_EQ(ERROR_MORE_DATA, TraceMessage(self->h, 0, NULL, 1, e.data,
						(size_t)4020, NULL, (size_t)0));
	/* MOF_FIELDs: 16 at most. */
	event_init(&m.h, 17 * sizeof(MOF_FIELD));
	m.h.Flags |= WNODE_FLAG_USE_MOF_PTR;
	for (i = 0; i < 17; i++)
		m.f[i] = (MOF_FIELD){ (uintptr_t)"ab", 2, 0 };
	EXPECT_EQ(ERROR_INVALID_DATA, TraceEvent(self->h, &m.h));
	m.h.Size = sizeof(m.h) + 16 * sizeof(MOF_FIELD);
	EXPECT_EQ(ERROR_SUCCESS, TraceEvent(self->h, &m.h));
	/* A logger id no private logger has. */
	EXPECT_EQ(ERROR_INVALID_HANDLE, TraceEvent(0x01000004 ^ (self->h & 0xffff), &e.h));
	EXPECT_EQ(ERROR_INVALID_HANDLE, TraceEvent(0x01000005, &e.h));

	/* WNODE_FLAG_NO_HEADER: the whole record from MofData, as is. */
	memset(&t, 0, sizeof(t));
	t.Header.Size = sizeof(t) - 1;
	t.Header.Flags = WNODE_FLAG_TRACED_GUID | WNODE_FLAG_NO_HEADER;
	EXPECT_EQ(ERROR_INVALID_PARAMETER, TraceEvent(self->h, &t.Header));
	t.Header.Size = sizeof(t);
	event_init(&e.h, 3);
	e.h.HeaderType = 0x14;
	e.h.MarkerFlags = 0xc0;
	e.h.ThreadId = 4242;
	e.h.TimeStamp.QuadPart = 1;
	memcpy(e.data, "raw", 3);
	t.MofData = &e;
	t.MofLength = sizeof(e.h) + 3;
	EXPECT_EQ(ERROR_SUCCESS, TraceEvent(self->h, &t.Header));
	ASSERT_EQ(ERROR_SUCCESS, control(self->h, NULL, EVENT_TRACE_CONTROL_FLUSH, &b));
	ASSERT_EQ(2, read_file(path, rec, 4, &self->etl));
	/* In either order: the raw one went to processor 0's buffer. */
	i = rec[0].thread_id == 4242 ? 0 : 1;
	EXPECT_EQ(4242, rec[i].thread_id);
	EXPECT_EQ(1, rec[i].timestamp);
	ASSERT_EQ(3, rec[i].data_size);
	EXPECT_EQ(0, memcmp(rec[i].data, "raw", 3));
	EXPECT_EQ(32, rec[1 - i].data_size);		/* 16 x "ab" */
}

/* A page the process may not touch, for the pointers Windows answers with ERROR_NOACCESS. */
static void *no_access_page(void)
{
	void *p = mmap(NULL, 4096, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	return p == MAP_FAILED ? NULL : p;
}

/*
 * A header, MOF_FIELD data or a message argument that cannot be read:
 * ERROR_NOACCESS, also as the last error, as Windows' exception handling
 * gives; nothing of the event is stored and the logger goes on.
 */
TEST_F(priv, unreadable_memory_is_error_noaccess)
{
	struct {
		EVENT_TRACE_HEADER h;
		MOF_FIELD f[2];
	} m;
	struct etw_etl_event rec[4];
	char *bad = no_access_page();
	struct props b;
	struct ev e;

	ASSERT_NE(NULL, bad);
	/* The header itself: private logger, and a module session's id. */
	EXPECT_EQ(ERROR_NOACCESS, TraceEvent(self->h, (PEVENT_TRACE_HEADER)bad));
	EXPECT_EQ(ERROR_NOACCESS, GetLastError());
	EXPECT_EQ(ERROR_NOACCESS, TraceEvent(5, (PEVENT_TRACE_HEADER)bad));
	EXPECT_EQ(ERROR_NOACCESS, TraceEventInstance(self->h, (PEVENT_INSTANCE_HEADER)bad,
						     (PEVENT_INSTANCE_INFO)bad, NULL));
	/* MOF_FIELD data: the second field unreadable, under the CPU's lock. */
	event_init(&m.h, 2 * sizeof(MOF_FIELD));
	m.h.Flags |= WNODE_FLAG_USE_MOF_PTR;
	m.f[0] = (MOF_FIELD){ (uintptr_t)"ok", 2, 0 };
	m.f[1] = (MOF_FIELD){ (uintptr_t)bad, 8, 0 };
	EXPECT_EQ(ERROR_NOACCESS, TraceEvent(self->h, &m.h));
	EXPECT_EQ(ERROR_NOACCESS, TraceMessage(self->h, 0, NULL, 1, "ok", (size_t)2,
					       bad, (size_t)4, NULL, (size_t)0));
	/* The logger goes on: its lock was given back, nothing partial kept. */
	event_init(&e.h, 4);
	memcpy(e.data, "good", 4);
	EXPECT_EQ(ERROR_SUCCESS, TraceEvent(self->h, &e.h));
	ASSERT_EQ(ERROR_SUCCESS, control(self->h, NULL, EVENT_TRACE_CONTROL_FLUSH, &b));
	ASSERT_EQ(1, read_file(path, rec, 4, &self->etl));
	ASSERT_EQ(4, rec[0].data_size);
	EXPECT_EQ(0, memcmp(rec[0].data, "good", 4));
	munmap(bad, 4096);
}

/*
 * Data that runs into an unreadable page is ERROR_NOACCESS wherever the
 * copy meets it (a 64-byte block, an 8-byte word or a single byte), and
 * data that ends right before the page is stored whole.
 */
TEST_F(priv, copies_stop_at_the_first_unreadable_byte)
{
	static const unsigned int before[] = { 0, 1, 7, 8, 9, 63, 64, 65, 200 };
	struct {
		EVENT_TRACE_HEADER h;
		MOF_FIELD f;
	} m;
	struct etw_etl_event rec[16];
	unsigned char *two, *edge;
	struct props b;
	unsigned int i;
	int n;

	two = mmap(NULL, 8192, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, two);
	for (i = 0; i < 4096; i++)
		two[i] = (unsigned char)(i * 7 + 1);
	ASSERT_EQ(0, mprotect(two + 4096, 4096, PROT_NONE));
	edge = two + 4096;
	for (i = 0; i < sizeof(before) / sizeof(before[0]); i++) {
		event_init(&m.h, sizeof(MOF_FIELD));
		m.h.Flags |= WNODE_FLAG_USE_MOF_PTR;
		m.f = (MOF_FIELD){ (uintptr_t)(edge - before[i]), before[i] + 1, 0 };
		EXPECT_EQ(ERROR_NOACCESS, TraceEvent(self->h, &m.h));
		m.f.Length = before[i] + 64;
		EXPECT_EQ(ERROR_NOACCESS, TraceEvent(self->h, &m.h));
		m.f.Length = before[i];
		EXPECT_EQ(ERROR_SUCCESS, TraceEvent(self->h, &m.h));
	}
	ASSERT_EQ(ERROR_SUCCESS, control(self->h, NULL, EVENT_TRACE_CONTROL_FLUSH, &b));
	n = read_file(path, rec, 16, &self->etl);
	ASSERT_EQ(sizeof(before) / sizeof(before[0]), n);
	for (i = 0; i < (unsigned int)n; i++) {
		ASSERT_EQ(before[i], rec[i].data_size);
		EXPECT_EQ(0, memcmp(rec[i].data, edge - before[i], before[i]));
	}
	munmap(two, 8192);
}

static volatile sig_atomic_t own_handler_ran;

static void own_segv(int sig)
{
	own_handler_ran = sig;
	_exit(42);
}

/*
 * A fault outside libetw's guard is the program's: the handler it had
 * before StartTrace runs, and without one the process dies of SIGSEGV.
 */
TEST(faults_outside_libetw_stay_the_programs)
{
	CONTROLTRACE_ID h;
	int status, own;
	pid_t pid;

	for (own = 0; own < 2; own++) {
		pid = fork();
		ASSERT_LE(0, pid);
		if (!pid) {
			if (own)
				signal(SIGSEGV, own_segv);
			if (start("etwtest-priv-segv", NULL, EVENT_TRACE_BUFFERING_MODE, 4, 0, 0, &h))
				_exit(3);
			*(volatile int *)no_access_page() = 1;
			_exit(4);
		}
		ASSERT_EQ(pid, waitpid(pid, &status, 0));
		if (own) {
			EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 42);
		} else {
			EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGSEGV);
		}
	}
}

/* The logger thread's id, by the name it gives itself. */
static pid_t logger_thread(CONTROLTRACE_ID h)
{
	char want[32], dir[300], name[32];
	struct dirent *d;
	pid_t tid = 0;
	DIR *dp;
	FILE *f;

	snprintf(want, sizeof(want), "etw-private-%u", (unsigned int)(h & 0xffff));
	dp = opendir("/proc/self/task");
	while (dp && !tid && (d = readdir(dp))) {
		snprintf(dir, sizeof(dir), "/proc/self/task/%s/comm", d->d_name);
		f = fopen(dir, "r");
		if (!f)
			continue;
		if (fgets(name, sizeof(name), f) && !strncmp(name, want, strlen(want)))
			tid = atoi(d->d_name);
		fclose(f);
	}
	if (dp)
		closedir(dp);
	return tid;
}

/* Hold the logger thread in a signal handler until the pipe has a byte. */
static int hold[2];
static volatile sig_atomic_t held;

static void on_hold(int sig)
{
	char c;

	held = 1;
	while (read(hold[0], &c, 1) < 0)
		;
	held = 0;
}

struct query {
	CONTROLTRACE_ID h;
	ULONG r;
};

/* A QUERY, which takes the logger's pool lock, in a thread of its own. */
static void *query_thread(void *arg)
{
	struct query *q = arg;
	struct props b;

	q->r = control(q->h, NULL, EVENT_TRACE_CONTROL_QUERY, &b);
	return NULL;
}

/*
 * Hold logger @h's thread @tid in on_hold() with the pool lock free.  A
 * signal that lands between the thread taking the lock and its condition
 * wait releasing it would hold every writer too: a QUERY that does not
 * return in 2 s says so, and the thread is let go and caught again.
 * Returns 0, or -1 if it never was.
 */
static int hold_logger(CONTROLTRACE_ID h, pid_t tid)
{
	struct timespec due;
	struct query q = { .h = h };
	pthread_t t;
	int tries;

	for (tries = 0; tries < 10; tries++) {
		if (syscall(SYS_tgkill, getpid(), tid, SIGUSR1))
			return -1;
		while (!held)
			usleep(1000);
		if (pthread_create(&t, NULL, query_thread, &q))
			return -1;
		clock_gettime(CLOCK_REALTIME, &due);
		due.tv_sec += 2;
		if (!pthread_timedjoin_np(t, NULL, &due))
			return q.r == ERROR_SUCCESS ? 0 : -1;
		if (write(hold[1], "g", 1) != 1)
			return -1;
		pthread_join(t, NULL);
		while (held)
			usleep(1000);
	}
	return -1;
}

/*
 * WNODE_FLAG_USE_GUID_PTR and WNODE_FLAG_USE_TIMESTAMP, as in the kernel;
 * the caller's header comes back as it was but for the handle at 0x08,
 * and the result is the thread's last error.
 */
TEST_F(priv, guid_pointer_time_stamp_and_the_header_restored)
{
	static const GUID other = { 0x99, 0x8, 0x7, { 6, 5, 4, 3, 2, 1, 0, 9 } };
	struct etw_etl_event rec[4];
	struct ev e, before;
	struct props b;
	unsigned int i;

	event_init(&e.h, 3);
	memcpy(e.data, "gp", 3);
	e.h.Flags |= WNODE_FLAG_USE_GUID_PTR | WNODE_FLAG_USE_TIMESTAMP;
	e.h.GuidPtr = (uintptr_t)&other;
	e.h.ThreadId = 0x11111111;
	e.h.TimeStamp.QuadPart = 12345;
	e.h.ClientContext = 0x4444;
	memcpy(&before, &e, sizeof(e.h) + 3);
	SetLastError(ERROR_INVALID_DATA);
	EXPECT_EQ(ERROR_SUCCESS, TraceEvent(self->h, &e.h));
	EXPECT_EQ(ERROR_SUCCESS, GetLastError());
	for (i = 0; i < sizeof(e.h) + 3; i++)
		if ((i < 8 || i >= 16) &&
		    ((const char *)&e)[i] != ((const char *)&before)[i])
			break;
	EXPECT_EQ(sizeof(e.h) + 3, i);
	EXPECT_EQ(self->h, ((WNODE_HEADER *)&e.h)->HistoricalContext);
	/* An error is the last error too. */
	e.h.Flags &= ~WNODE_FLAG_TRACED_GUID;
	EXPECT_EQ(ERROR_INVALID_FLAG_NUMBER, TraceEvent(self->h, &e.h));
	EXPECT_EQ(ERROR_INVALID_FLAG_NUMBER, GetLastError());

	ASSERT_EQ(ERROR_SUCCESS, control(self->h, NULL, EVENT_TRACE_CONTROL_FLUSH, &b));
	ASSERT_EQ(1, read_file(path, rec, 4, &self->etl));
	EXPECT_EQ(0, memcmp(&rec[0].provider, &other, 16));
	EXPECT_EQ(12345, rec[0].timestamp);
	ASSERT_EQ(3, rec[0].data_size);
	EXPECT_EQ(0, memcmp(rec[0].data, "gp", 3));
}

/* The pool's two ways to run out, each event counted lost. */
TEST(full_pool_and_failed_allocation)
{
	char file[64];
	CONTROLTRACE_ID h;
	struct rlimit old, lim;
	struct props b;
	struct ev e;
	int i, nem = 0, oom = 0, ok = 0;
	ULONG r;
	pid_t tid;

	snprintf(file, sizeof(file), "/tmp/etw-private-full-%d.etl", getpid());
	/* 1 MB buffers: each is an mmap that RLIMIT_AS can refuse. */
	ASSERT_EQ(ERROR_SUCCESS, start("etwtest-full", file, 0, 1024, 0, 0, &h));
	ASSERT_EQ(ERROR_SUCCESS, control(h, NULL, EVENT_TRACE_CONTROL_QUERY, &b));
	/* It names itself once it runs. */
	for (i = 0; i < 1000 && !(tid = logger_thread(h)); i++)
		usleep(1000);
	ASSERT_NE(0, tid);
	ASSERT_EQ(0, pipe(hold));
	signal(SIGUSR1, on_hold);
	ASSERT_EQ(0, hold_logger(h, tid));

	/* The logger thread writes nothing now: the buffers fill up. */
	event_init(&e.h, 60000);
	ASSERT_EQ(0, getrlimit(RLIMIT_AS, &old));
	lim = old;
	lim.rlim_cur = 0;	/* no new mapping */
	ASSERT_EQ(0, setrlimit(RLIMIT_AS, &lim));
	for (i = 0; i < 1000 && !oom; i++) {
		r = TraceEvent(h, &e.h);
		if (r == ERROR_OUTOFMEMORY)
			oom++;
		else if (r == ERROR_SUCCESS)
			ok++;
		else
			break;
	}
	ASSERT_EQ(0, setrlimit(RLIMIT_AS, &old));
	EXPECT_EQ(1, oom);
	/* With memory: new buffers up to MaximumBuffers, then none. */
	for (i = 0; i < 100000 && nem < 3; i++) {
		r = TraceEvent(h, &e.h);
		if (r == ERROR_NOT_ENOUGH_MEMORY)
			nem++;
		else if (r == ERROR_SUCCESS)
			ok++;
		else
			break;
	}
	EXPECT_EQ(3, nem);
	ASSERT_EQ(ERROR_SUCCESS, control(h, NULL, EVENT_TRACE_CONTROL_QUERY, &b));
	EXPECT_EQ(4, b.p.EventsLost);
	EXPECT_EQ(b.p.MaximumBuffers, b.p.NumberOfBuffers);
	EXPECT_EQ(0, b.p.FreeBuffers);

	/* Let the logger thread go: everything stored reaches the file. */
	ASSERT_EQ(1, write(hold[1], "g", 1));
	ASSERT_EQ(ERROR_SUCCESS, stop(h));
	{
		struct etw_etl_event rec[1];
		struct etw_etl *etl;
		int n = read_file(file, rec, 0, &etl);
		const struct etw_etl_header *hdr = etw_etl_get_header(etl);

		EXPECT_EQ(0, n);
		EXPECT_EQ(4, hdr->events_lost);
		etw_etl_close(etl);
	}
	unlink(file);
	close(hold[0]);
	close(hold[1]);
	signal(SIGUSR1, SIG_DFL);
	EXPECT_LT(0, ok);
}

TEST(buffering_mode_is_a_ring)
{
	CONTROLTRACE_ID h;
	struct props b;
	struct ev e;
	int i;

	ASSERT_EQ(ERROR_SUCCESS, start("etwtest-ring", NULL, EVENT_TRACE_BUFFERING_MODE,
				       4, 0, 0, &h));
	event_init(&e.h, 1000);
	for (i = 0; i < 5000; i++)
		ASSERT_EQ(ERROR_SUCCESS, TraceEvent(h, &e.h));
	ASSERT_EQ(ERROR_SUCCESS, control(h, NULL, EVENT_TRACE_CONTROL_FLUSH, &b));
	EXPECT_EQ(0, b.p.EventsLost);
	EXPECT_EQ(b.p.MaximumBuffers, b.p.NumberOfBuffers);
	EXPECT_EQ(ERROR_SUCCESS, stop(h));
}

TEST(flush_timer_writes_partial_buffers)
{
	char file[64];
	CONTROLTRACE_ID h;
	struct props b;
	struct ev e;
	struct stat st;
	int i;

	snprintf(file, sizeof(file), "/tmp/etw-private-timer-%d.etl", getpid());
	props(&b, 0, file);
	b.p.BufferSize = 4;
	b.p.FlushTimer = 1;
	ASSERT_EQ(ERROR_SUCCESS, StartTraceA(&h, "etwtest-timer", &b.p));
	EXPECT_EQ(1, b.p.FlushTimer);
	event_init(&e.h, 10);
	ASSERT_EQ(ERROR_SUCCESS, TraceEvent(h, &e.h));
	/* The header buffer, then within a few seconds the partial one. */
	for (i = 0; i < 50; i++) {
		ASSERT_EQ(0, stat(file, &st));
		if (st.st_size == 2 * 4096)
			break;
		usleep(100000);
	}
	EXPECT_EQ(2 * 4096, st.st_size);
	/* UPDATE changes the FlushTimer (a new file: its own test). */
	props(&b, 0, NULL);
	b.p.FlushTimer = 7;
	ASSERT_EQ(ERROR_SUCCESS, ControlTraceA(h, NULL, &b.p, EVENT_TRACE_CONTROL_UPDATE));
	EXPECT_EQ(7, b.p.FlushTimer);
	EXPECT_EQ(ERROR_SUCCESS, stop(h));
	unlink(file);
}

/*
 * After one event of each kind (the thread and process ids are cached
 * then), writing makes no system call but a clock_gettime a vDSO cannot
 * serve: seccomp kills on any other.
 */
TEST(no_system_call_on_the_write_path)
{
	char file[64];
	CONTROLTRACE_ID h;
	int status, i;
	pid_t child;

	snprintf(file, sizeof(file), "/tmp/etw-private-nosys-%d.etl", getpid());
	child = fork();
	ASSERT_LE(0, child);
	if (!child) {
		EVENT_INSTANCE_INFO inst = { etw_class_new(&guid), 1 };
		EVENT_INSTANCE_HEADER ih;
		struct ev e;
		ULONG bad = 0;

		if (start("etwtest-nosys", file, 0, 64, 0, 0, &h))
			_exit(2);
		event_init(&e.h, 16);
		memset(&ih, 0, sizeof(ih));
		ih.Size = sizeof(ih);
		ih.Flags = WNODE_FLAG_TRACED_GUID;
		bad |= TraceEvent(h, &e.h);
		bad |= TraceEventInstance(h, &ih, &inst, NULL);
		bad |= TraceMessage(h, TRACE_MESSAGE_SYSTEMINFO, NULL, 1, &h, sizeof(h),
				    NULL, (size_t)0);
		if (bad || etw_forbid_syscalls())
			_exit(3);
		for (i = 0; i < 20; i++) {
			bad |= TraceEvent(h, &e.h);
			bad |= TraceEventInstance(h, &ih, &inst, NULL);
			bad |= TraceMessage(h, TRACE_MESSAGE_SYSTEMINFO |
					    TRACE_MESSAGE_TIMESTAMP, NULL, 1,
					    &h, sizeof(h), NULL, (size_t)0);
		}
		syscall(__NR_exit_group, bad ? 4 : 0);
	}
	ASSERT_EQ(child, waitpid(child, &status, 0));
	EXPECT_TRUE(WIFEXITED(status)) TH_LOG("killed by signal %d", WTERMSIG(status));
	EXPECT_EQ(0, WEXITSTATUS(status));
	unlink(file);
}

TEST_HARNESS_MAIN
