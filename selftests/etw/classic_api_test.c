// SPDX-License-Identifier: GPL-2.0
/*
 * The classic provider API of libetw: TraceEvent with seed 002's checks,
 * results and last error, the header it leaves behind (only the logger
 * handle at offset 0x08 changed), and the events it writes read back from
 * an ETL file by libetw's reader and by `etw dump`.
 */
#include <stdio.h>
#include <sys/mman.h>
#include <sys/syscall.h>

#include <windows.h>
#include <evntrace.h>
#include <etw_etl.h>
#include <etw_etl_writer.h>

#include "kselftest_harness.h"
#include "classic_selftests.h"

/* A properties allocation with room for the name. */
struct pbuf {
	EVENT_TRACE_PROPERTIES p;
	char names[256];
};

/* StartTraceA of a real-time session with @kb KB buffers. */
static ULONG start(const char *name, ULONG kb, ULONG max_buffers,
		   CONTROLTRACE_ID *h)
{
	struct pbuf b;

	memset(&b, 0, sizeof(b));
	b.p.Wnode.BufferSize = sizeof(b);
	b.p.Wnode.Flags = WNODE_FLAG_TRACED_GUID;
	b.p.LogFileMode = EVENT_TRACE_REAL_TIME_MODE;
	b.p.LoggerNameOffset = sizeof(b.p);
	b.p.BufferSize = kb;
	b.p.MaximumBuffers = max_buffers;
	return StartTraceA(h, name, &b.p);
}

#define LOGGER_ID(h)	((__u32)((h) & 0xffff))

/* Write the session's buffers so far to an ETL file at @path. */
static int save_etl(int fd, __u32 logger_id, const char *path)
{
	static __u8 buf[1024 * 1024];
	struct etw_session_info info;
	struct etw_etl_writer *w;
	int ret;

	ret = etw_session_ctl(fd, logger_id, ETW_CONTROL_FLUSH, &info);
	if (ret)
		return ret;
	ret = etw_etl_writer_open(&w, path, &info);
	if (ret)
		return ret;
	while (!(ret = etw_take_buffer(fd, logger_id, buf, sizeof(buf), NULL)))
		if ((ret = etw_etl_writer_buffer(w, buf)))
			break;
	if (ret == -EAGAIN)
		ret = 0;
	etw_etl_writer_close(w, NULL);
	return ret;
}

/* The events of an ETL file (not the header buffer's), in time order. */
struct events {
	struct etw_etl *etl;
	struct etw_etl_event ev[64];
	int n;
};

static int read_etl(const char *path, struct events *e)
{
	struct etw_etl_event ev;
	int ret;

	memset(e, 0, sizeof(*e));
	ret = etw_etl_open(path, &e->etl, NULL);
	if (ret)
		return ret;
	ret = etw_etl_rewind(e->etl, ETW_ETL_ORDER_TIME);
	while (!ret && (ret = etw_etl_next(e->etl, &ev)) == 1) {
		ret = 0;
		if (ev.buffer == 0)
			continue;
		if (e->n == 64)
			return -E2BIG;
		e->ev[e->n++] = ev;
	}
	return ret;
}

FIXTURE(classic)
{
	int fd;
	CONTROLTRACE_ID h;
	GUID guid;
	struct events e;
};

FIXTURE_SETUP(classic)
{
	etw_require_root(_metadata);
	self->fd = etw_open_or_skip(_metadata);
	etw_stop_test_sessions(self->fd);
	etw_test_guid((__u8 *)&self->guid, 0x60);
	ASSERT_EQ(ERROR_SUCCESS, start("etwtest-classic", 8, 0, &self->h));
	self->e.etl = NULL;
}

FIXTURE_TEARDOWN(classic)
{
	if (self->e.etl)
		etw_etl_close(self->e.etl);
	if (self->fd >= 0) {
		etw_stop_test_sessions(self->fd);
		close(self->fd);
	}
}

/* An EVENT_TRACE_HEADER and its data, as Windows programs declare them. */
struct my_event {
	EVENT_TRACE_HEADER Header;
	MOF_FIELD Mof[MAX_MOF_FIELDS + 1];
	char Data[9000];
};

static void my_event_init(struct my_event *e, const GUID *guid, USHORT data)
{
	memset(e, 0, sizeof(*e));
	e->Header.Size = sizeof(e->Header) + data;
	e->Header.Flags = WNODE_FLAG_TRACED_GUID;
	e->Header.Guid = *guid;
	e->Header.Class.Type = EVENT_TRACE_TYPE_INFO;
	e->Header.Class.Level = TRACE_LEVEL_WARNING;
	e->Header.Class.Version = 2;
	memcpy(e->Mof, "classic event data", 19);
}

/* TraceEvent's result is also the thread's last error. */
static ULONG trace(TRACELOGGER_HANDLE h, void *ev)
{
	ULONG ret;

	SetLastError(0x12345678);
	ret = TraceEvent(h, ev);
	return GetLastError() == ret ? ret : 0xbad;
}

TEST_F(classic, trace_event_validation_in_user_mode)
{
	struct my_event e, before;

	EXPECT_EQ(ERROR_INVALID_PARAMETER, trace(self->h, NULL));

	/* Size below the header, TRACED_GUID missing: the header is untouched. */
	my_event_init(&e, &self->guid, 0);
	e.Header.Size = sizeof(e.Header) - 1;
	before = e;
	EXPECT_EQ(ERROR_INVALID_PARAMETER, trace(self->h, &e));
	EXPECT_EQ(0, memcmp(&before, &e, sizeof(e)));
	e.Header.Size = sizeof(e.Header);
	e.Header.Flags = WNODE_FLAG_USE_MOF_PTR;
	before = e;
	EXPECT_EQ(ERROR_INVALID_FLAG_NUMBER, trace(self->h, &e));
	EXPECT_EQ(0, memcmp(&before, &e, sizeof(e)));

	/* Logger ids 0 and 0xFFFF: the handle is loaded, then refused. */
	e.Header.Flags = WNODE_FLAG_TRACED_GUID;
	EXPECT_EQ(ERROR_INVALID_HANDLE, trace(0, &e));
	EXPECT_EQ(0, ((WNODE_HEADER *)&e)->HistoricalContext);
	EXPECT_EQ(ERROR_INVALID_HANDLE, trace(0x0004000000ffffULL, &e));
	EXPECT_EQ(0x0004000000ffffULL, ((WNODE_HEADER *)&e)->HistoricalContext);
	/* A private logger handle, and no private logger runs. */
	EXPECT_EQ(ERROR_INVALID_HANDLE, trace(0x01000001, &e));
	/* A logger id no session has. */
	EXPECT_EQ(ERROR_INVALID_HANDLE, trace(LOGGER_ID(self->h) + 1, &e));
	EXPECT_EQ(0, ct_drain(self->fd, LOGGER_ID(self->h), NULL, NULL));
}

TEST_F(classic, trace_event_restores_all_but_the_handle)
{
	struct my_event e, before;
	const __u8 *a = (const __u8 *)&e, *b = (const __u8 *)&before;
	unsigned int i;

	my_event_init(&e, &self->guid, 19);
	e.Header.ThreadId = 0x11111111;
	e.Header.ProcessId = 0x22222222;
	e.Header.TimeStamp.QuadPart = 0x3333;
	e.Header.ClientContext = 0x4444;
	before = e;
	EXPECT_EQ(ERROR_SUCCESS, trace(self->h, &e));
	for (i = 0; i < sizeof(e); i++) {
		if (i >= 8 && i < 16)
			continue;
		if (a[i] != b[i])
			break;
	}
	EXPECT_EQ(sizeof(e), i);
	EXPECT_EQ(self->h, ((WNODE_HEADER *)&e)->HistoricalContext);
	EXPECT_EQ(1, ct_drain(self->fd, LOGGER_ID(self->h), NULL, NULL));
}

TEST_F(classic, trace_event_errors_from_the_kernel)
{
	struct my_event e;
	CONTROLTRACE_ID tiny;
	long i, lost = 0;
	ULONG ret;

	/* ERROR_MORE_DATA: 8 KB buffers hold 8120 bytes of records. */
	my_event_init(&e, &self->guid, 8121 - sizeof(e.Header));
	EXPECT_EQ(ERROR_MORE_DATA, trace(self->h, &e));
	e.Header.Size = 8120;
	EXPECT_EQ(ERROR_SUCCESS, trace(self->h, &e));

	/* ERROR_INVALID_DATA: more than MAX_MOF_FIELDS. */
	e.Header.Flags |= WNODE_FLAG_USE_MOF_PTR;
	e.Header.Size = sizeof(e.Header) + (MAX_MOF_FIELDS + 1) * sizeof(MOF_FIELD);
	EXPECT_EQ(ERROR_INVALID_DATA, trace(self->h, &e));

	/* ERROR_NOACCESS: a pointer the kernel follows is bad. */
	e.Header.Size = sizeof(e.Header) + sizeof(MOF_FIELD);
	e.Mof[0].DataPtr = 16;
	e.Mof[0].Length = 4;
	EXPECT_EQ(ERROR_NOACCESS, trace(self->h, &e));
	e.Header.Flags = WNODE_FLAG_TRACED_GUID | WNODE_FLAG_USE_GUID_PTR;
	e.Header.GuidPtr = 24;
	EXPECT_EQ(ERROR_NOACCESS, trace(self->h, &e));

	/* ERROR_NOT_ENOUGH_MEMORY: no free buffer; each drop is counted. */
	ASSERT_EQ(ERROR_SUCCESS, start("etwtest-classic-tiny", 1, 1, &tiny));
	my_event_init(&e, &self->guid, 300);
	for (i = 0; i < 100000 && lost < 5; i++) {
		ret = trace(tiny, &e);
		if (ret == ERROR_NOT_ENOUGH_MEMORY)
			lost++;
		else
			ASSERT_EQ(ERROR_SUCCESS, ret);
	}
	EXPECT_EQ(5, lost);
	{
		struct etw_session_info info;

		ASSERT_EQ(0, etw_session_ctl(self->fd, LOGGER_ID(tiny), ETW_CONTROL_QUERY, &info));
		EXPECT_EQ(lost, info.events_lost);
	}
	EXPECT_EQ(1, ct_drain(self->fd, LOGGER_ID(self->h), NULL, NULL));
}

TEST_F(classic, trace_event_in_an_etl_file)
{
	static const char *path = "/tmp/etwtest-classic.etl";
	struct my_event e;
	GUID other;
	const struct etw_etl_event *ev;
	char line[4096], cmd[256], text[ETW_ETL_GUID_STRLEN];
	FILE *p;
	int found = 0;

	etw_test_guid((__u8 *)&other, 0x61);
	my_event_init(&e, &self->guid, 19);
	e.Header.Class.Type = EVENT_TRACE_TYPE_START;
	ASSERT_EQ(ERROR_SUCCESS, trace(self->h, &e));
	/* A MOF_FIELD event whose GUID comes through a pointer. */
	my_event_init(&e, &self->guid, 0);
	e.Header.Flags |= WNODE_FLAG_USE_MOF_PTR | WNODE_FLAG_USE_GUID_PTR;
	e.Header.GuidPtr = (uintptr_t)&other;
	e.Header.Class.Type = EVENT_TRACE_TYPE_END;
	e.Mof[0].DataPtr = (uintptr_t)"abc";
	e.Mof[0].Length = 4;
	e.Mof[1].DataPtr = (uintptr_t)"defg";
	e.Mof[1].Length = 5;
	e.Header.Size = sizeof(e.Header) + 2 * sizeof(MOF_FIELD);
	ASSERT_EQ(ERROR_SUCCESS, trace(self->h, &e));

	ASSERT_EQ(0, save_etl(self->fd, LOGGER_ID(self->h), path));
	ASSERT_EQ(0, read_etl(path, &self->e));
	ASSERT_EQ(2, self->e.n);
	ev = &self->e.ev[0];
	EXPECT_EQ(ETW_ETL_KIND_CLASSIC, ev->kind);
	EXPECT_EQ(0x14, ev->header_type);
	EXPECT_EQ(EVENT_TRACE_TYPE_START, ev->opcode);
	EXPECT_EQ(TRACE_LEVEL_WARNING, ev->level);
	EXPECT_EQ(2, ev->version);
	EXPECT_EQ(0, memcmp(&ev->provider, &self->guid, 16));
	EXPECT_EQ(getpid(), ev->process_id);
	EXPECT_EQ(syscall(SYS_gettid), ev->thread_id);
	EXPECT_TRUE(ev->has & ETW_ETL_HAS_FILETIME);
	EXPECT_TRUE(ev->flags & ETW_ETL_FLAG_CLASSIC_HEADER);
	EXPECT_TRUE(ev->flags & ETW_ETL_FLAG_64_BIT_HEADER);
	ASSERT_EQ(19, ev->data_size);
	EXPECT_EQ(0, memcmp(ev->data, "classic event data", 19));
	ev = &self->e.ev[1];
	EXPECT_EQ(EVENT_TRACE_TYPE_END, ev->opcode);
	EXPECT_EQ(0, memcmp(&ev->provider, &other, 16));
	ASSERT_EQ(9, ev->data_size);
	EXPECT_EQ(0, memcmp(ev->data, "abc\0defg", 9));

	/* etw dump shows them as Windows' tools would. */
	if (access("/usr/bin/etw", X_OK))
		SKIP(return, "the etw tool is not installed");
	etw_etl_guid_to_str((const struct etw_etl_guid *)&self->guid, text);
	snprintf(cmd, sizeof(cmd), "etw dump %s", path);
	p = popen(cmd, "r");
	ASSERT_TRUE(p != NULL);
	while (fgets(line, sizeof(line), p)) {
		if (strstr(line, "EVENT_TRACE_HEADER64") && strstr(line, text))
			found |= 1;
		if (strstr(line, "opcode 1 level 3 version 2"))
			found |= 2;
		if (strstr(line, "opcode 2 level 3 version 2"))
			found |= 4;
	}
	EXPECT_EQ(0, pclose(p));
	EXPECT_EQ(7, found);
	unlink(path);
}

TEST_HARNESS_MAIN
