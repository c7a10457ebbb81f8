// SPDX-License-Identifier: GPL-2.0
/*
 * The classic write API of libetw: TraceEvent with seed 002's checks,
 * results and last error, the header it leaves behind (only the logger
 * handle at offset 0x08 changed); TraceMessage and TraceMessageVa with
 * their flags; and the events they write read back from an ETL file by
 * libetw's reader and by `etw dump`.
 */
#include <stdarg.h>
#include <stdio.h>
#include <sys/mman.h>
#include <sys/syscall.h>

#include "kselftest_harness.h"
#include "classic_api.h"
#include "etw_kmod.h"

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

/*
 * WNODE_FLAG_NO_HEADER is the user-mode logger's (seed 002): a session of
 * the kernel stores the header as an ordinary one, data after it, and
 * MofData and MofLength are data like any other.
 */
TEST_F(classic, no_header_is_for_private_loggers_only)
{
	static const char *path = "/tmp/etwtest-noheader.etl";
	struct my_event e;
	EVENT_TRACE *t = (EVENT_TRACE *)&e;

	my_event_init(&e, &self->guid, sizeof(EVENT_TRACE) - sizeof(e.Header));
	e.Header.Flags |= WNODE_FLAG_NO_HEADER;
	t->MofData = (void *)16;	/* would fault if followed */
	t->MofLength = 4;
	memcpy(e.Mof, "nohdr", 6);
	ASSERT_EQ(ERROR_SUCCESS, trace(self->h, &e));
	ASSERT_EQ(0, save_etl(self->fd, LOGGER_ID(self->h), path));
	ASSERT_EQ(0, read_etl(path, &self->e));
	ASSERT_EQ(1, self->e.n);
	EXPECT_EQ(ETW_ETL_KIND_CLASSIC, self->e.ev[0].kind);
	EXPECT_EQ(0, memcmp(&self->e.ev[0].provider, &self->guid, 16));
	ASSERT_EQ(sizeof(EVENT_TRACE) - sizeof(e.Header), self->e.ev[0].data_size);
	EXPECT_EQ(0, memcmp(self->e.ev[0].data, "nohdr", 6));
	unlink(path);
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

/*
 * ERROR_OUTOFMEMORY: no free buffer while the pool is below its
 * MaximumBuffers, its growth stopped by the module's memory cap.  Each
 * drop is counted as with ERROR_NOT_ENOUGH_MEMORY.
 */
TEST_F(classic, no_buffer_below_the_maximum_is_out_of_memory)
{
	struct etw_session_info info;
	struct my_event e;
	CONTROLTRACE_ID big;
	long i, lost = 0, other = 0;
	char old[32];
	ULONG ret;

	ASSERT_EQ(0, etw_read_file(ETW_PARAM("max_buffer_memory_mb"), old, sizeof(old)));
	ASSERT_EQ(0, etw_write_file(ETW_PARAM("max_buffer_memory_mb"), "1"));
	/* 64 KB buffers, up to 64 of them: 4 MiB, over the 1 MiB cap. */
	ret = start("etwtest-classic-big", 64, 64, &big);
	my_event_init(&e, &self->guid, 8000);
	for (i = 0; !ret && i < 100000 && lost < 5; i++) {
		ULONG r = trace(big, &e);

		if (r == ERROR_OUTOFMEMORY)
			lost++;
		else if (r != ERROR_SUCCESS)
			other = r;
	}
	if (!ret)
		etw_session_ctl(self->fd, LOGGER_ID(big), ETW_CONTROL_QUERY, &info);
	etw_write_file(ETW_PARAM("max_buffer_memory_mb"), old);
	ASSERT_EQ(ERROR_SUCCESS, ret);
	EXPECT_EQ(0, other);
	EXPECT_EQ(5, lost);
	EXPECT_EQ(lost, info.events_lost);
	EXPECT_LT(info.number_of_buffers, info.max_buffers);
}

TEST_F(classic, trace_event_in_an_etl_file)
{
	static const char *path = "/tmp/etwtest-classic.etl";
	struct my_event e;
	GUID other;
	const struct etw_etl_event *ev;
	char text[ETW_ETL_GUID_STRLEN];

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
	{
		const struct dump_line want[] = {
			{ "EVENT_TRACE_HEADER64", text },
			{ "opcode 1 level 3 version 2", NULL },
			{ "opcode 2 level 3 version 2", NULL },
		};

		EXPECT_EQ(7, dump_finds(path, want, 3));
	}
	unlink(path);
}

/* TraceMessage's result is also the thread's last error. */
#define MESSAGE(...)							\
	({								\
		ULONG __r;						\
									\
		SetLastError(0x12345678);				\
		__r = TraceMessage(__VA_ARGS__);			\
		GetLastError() == __r ? __r : 0xbad;			\
	})

static ULONG message_va(TRACELOGGER_HANDLE h, ULONG flags, LPCGUID guid,
			USHORT number, ...)
{
	va_list ap;
	ULONG ret;

	va_start(ap, number);
	ret = TraceMessageVa(h, flags, guid, number, ap);
	va_end(ap);
	return ret;
}

TEST_F(classic, trace_message_checks)
{
	static char big[40000];
	char c = 'x';

	EXPECT_EQ(ERROR_INVALID_HANDLE, MESSAGE(0, 0, NULL, 1, NULL, (size_t)0));
	EXPECT_EQ(ERROR_INVALID_HANDLE, MESSAGE(0xffff, 0, NULL, 1, NULL, (size_t)0));
	EXPECT_EQ(ERROR_INVALID_HANDLE, MESSAGE(LOGGER_ID(self->h) + 1, 0, NULL, 1,
						NULL, (size_t)0));
	/* MessageGuid is one of the class GUID and the component id. */
	EXPECT_EQ(ERROR_INVALID_PARAMETER,
		  MESSAGE(self->h, TRACE_MESSAGE_GUID | TRACE_MESSAGE_COMPONENTID,
			  &self->guid, 1, NULL, (size_t)0));
	EXPECT_EQ(ERROR_INVALID_PARAMETER,
		  MESSAGE(self->h, TRACE_MESSAGE_GUID, NULL, 1, NULL, (size_t)0));
	EXPECT_EQ(ERROR_INVALID_PARAMETER,
		  MESSAGE(self->h, TRACE_MESSAGE_COMPONENTID, NULL, 1, NULL, (size_t)0));
	/* Arguments past what a record holds, or a buffer. */
	EXPECT_EQ(ERROR_MORE_DATA, MESSAGE(self->h, 0, NULL, 1, big, sizeof(big),
					   big, sizeof(big), NULL, (size_t)0));
	EXPECT_EQ(ERROR_MORE_DATA, MESSAGE(self->h, 0, NULL, 1, big, (size_t)8200,
					   NULL, (size_t)0));
	/* An argument pointing nowhere. */
	EXPECT_EQ(ERROR_NOACCESS, MESSAGE(self->h, 0, NULL, 1, (void *)16, (size_t)4,
					  NULL, (size_t)0));
	/* Bits past the low 16 are not stored, not refused. */
	EXPECT_EQ(ERROR_SUCCESS, MESSAGE(self->h, 0x10000, NULL, 1, &c, (size_t)1,
					 NULL, (size_t)0));
	EXPECT_EQ(1, ct_drain(self->fd, LOGGER_ID(self->h), NULL, NULL));
}

/* TraceMessage records as ProcessTrace presents them. */
struct msg_seen {
	GUID guid;
	int n, bad;
};

static VOID WINAPI on_message(PEVENT_RECORD r)
{
	struct msg_seen *s = r->UserContext;
	const EVENT_HEADER *h = &r->EventHeader;

	if (h->EventDescriptor.Id != 42)
		return;
	s->bad += !(h->Flags & EVENT_HEADER_FLAG_TRACE_MESSAGE);
	s->bad += !IsEqualGUID(&h->ProviderId, &s->guid);
	s->bad += h->ThreadId != (ULONG)syscall(SYS_gettid);
	s->bad += h->ProcessId != (ULONG)getpid();
	s->bad += r->UserDataLength != 8 ||
		  memcmp(r->UserData, "abc\0\xd4\xc3\xb2\xa1", 8);
	s->n++;
}

/* 130 one-byte arguments: more than the kernel takes as descriptors. */
#define ARG1	&many[__COUNTER__ % 26], (size_t)1,
#define ARG10	ARG1 ARG1 ARG1 ARG1 ARG1 ARG1 ARG1 ARG1 ARG1 ARG1
#define ARG130	ARG10 ARG10 ARG10 ARG10 ARG10 ARG10 ARG10 ARG10 ARG10 ARG10 \
		ARG10 ARG10 ARG10

TEST_F(classic, trace_message_in_an_etl_file)
{
	static const char *path = "/tmp/etwtest-message.etl";
	static const char many[] = "abcdefghijklmnopqrstuvwxyz";
	const struct etw_etl_event *ev;
	CONTROLTRACE_ID seq;
	__u32 v = 0xa1b2c3d4;

	/* One CPU's buffer: the file holds the records in the order written. */
	ASSERT_EQ(0, etw_pin_cpu(0));
	ASSERT_EQ(ERROR_SUCCESS, start_mode("etwtest-classic-seq", 8, 0,
					    EVENT_TRACE_USE_LOCAL_SEQUENCE, &seq));
	/* WPP's usual flags: sequence, GUID, time stamp, system info. */
	ASSERT_EQ(ERROR_SUCCESS,
		  MESSAGE(seq, TRACE_MESSAGE_SEQUENCE | TRACE_MESSAGE_GUID |
			  TRACE_MESSAGE_TIMESTAMP | TRACE_MESSAGE_SYSTEMINFO,
			  &self->guid, 42, "abc", (size_t)4, &v, sizeof(v),
			  NULL, (size_t)0));
	ASSERT_EQ(ERROR_SUCCESS,
		  message_va(seq, TRACE_MESSAGE_SEQUENCE | TRACE_MESSAGE_COMPONENTID,
			     &self->guid, 43, "va", (size_t)3, NULL, (size_t)0));
	ASSERT_EQ(ERROR_SUCCESS, MESSAGE(seq, 0, NULL, 44, ARG130 NULL, (size_t)0));

	ASSERT_EQ(0, save_etl(self->fd, LOGGER_ID(seq), path));
	ASSERT_EQ(0, read_etl(path, &self->e));
	ASSERT_EQ(3, self->e.n);
	ev = &self->e.ev[0];
	EXPECT_EQ(ETW_ETL_KIND_MESSAGE, ev->kind);
	EXPECT_EQ(42, ev->id);
	EXPECT_TRUE(ev->flags & ETW_ETL_FLAG_TRACE_MESSAGE);
	EXPECT_EQ(TRACE_MESSAGE_SEQUENCE | TRACE_MESSAGE_GUID | TRACE_MESSAGE_TIMESTAMP |
		  TRACE_MESSAGE_SYSTEMINFO | TRACE_MESSAGE_POINTER64, ev->header_flags);
	EXPECT_EQ(8, ev->pointer_size);
	EXPECT_EQ(1, ev->sequence);
	EXPECT_EQ(0, memcmp(&ev->provider, &self->guid, 16));
	EXPECT_TRUE(ev->has & ETW_ETL_HAS_FILETIME);
	EXPECT_EQ(getpid(), ev->process_id);
	EXPECT_EQ(syscall(SYS_gettid), ev->thread_id);
	ASSERT_EQ(8, ev->data_size);
	EXPECT_EQ(0, memcmp(ev->data, "abc\0\xd4\xc3\xb2\xa1", 8));
	ev = &self->e.ev[1];
	EXPECT_EQ(43, ev->id);
	EXPECT_EQ(2, ev->sequence);
	EXPECT_EQ(self->guid.Data1, ev->component_id);
	EXPECT_FALSE(ev->has & ETW_ETL_HAS_IDS);
	ASSERT_EQ(3, ev->data_size);
	ev = &self->e.ev[2];
	EXPECT_EQ(44, ev->id);
	ASSERT_EQ(130, ev->data_size);
	EXPECT_EQ(0, memcmp(ev->data, many, 3));
	{
		struct msg_seen s = { .guid = self->guid };

		ASSERT_EQ(ERROR_SUCCESS, process_file(path, on_message, NULL, &s));
		EXPECT_EQ(1, s.n);
		EXPECT_EQ(0, s.bad);
	}

	if (access("/usr/bin/etw", X_OK))
		SKIP(return, "the etw tool is not installed");
	{
		const struct dump_line want[] = {
			{ "MESSAGE_TRACE_HEADER", NULL },
			{ "message 42 sequence 1", NULL },
			{ "message 43 sequence 2 component", NULL },
		};

		EXPECT_EQ(7, dump_finds(path, want, 3));
	}
	unlink(path);
}

TEST_HARNESS_MAIN
