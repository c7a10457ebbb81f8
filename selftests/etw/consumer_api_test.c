// SPDX-License-Identifier: GPL-2.0
/*
 * The consumer API of libetw over the module: events written with
 * EventWrite on both processors are recorded to an ETL file and read back
 * with OpenTrace/ProcessTrace, and consumed in real time from a
 * EVENT_TRACE_REAL_TIME_MODE session; every count is exact and every
 * EVENT_RECORD field is checked against what was written.
 */
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <sys/syscall.h>
#include <time.h>

#include <windows.h>
#include <evntprov.h>
#include <evntrace.h>
#include <evntcons.h>
#include <etw_etl_writer.h>

#include "kselftest_harness.h"
#include "etw_selftests.h"
#include "etw_clock.h"

#define PER_THREAD	500
#define KEYWORD		0x30ULL
#define LEVEL		4

/* 6e1c7d54-0b0e-4c41-9a43-2f1d0c7e5a01 */
static const GUID provider = { 0x6e1c7d54, 0x0b0e, 0x4c41,
	{ 0x9a, 0x43, 0x2f, 0x1d, 0x0c, 0x7e, 0x5a, 0x01 } };
/* 68fdd900-4a3e-11d1-84f4-0000f80464e3 */
static const GUID event_trace = { 0x68fdd900, 0x4a3e, 0x11d1,
	{ 0x84, 0xf4, 0x00, 0x00, 0xf8, 0x04, 0x64, 0xe3 } };

struct pbuf {
	EVENT_TRACE_PROPERTIES p;
	char names[1024];
};

static EVENT_TRACE_PROPERTIES *props(struct pbuf *b, ULONG mode, ULONG kb)
{
	memset(b, 0, sizeof(*b));
	b->p.Wnode.BufferSize = sizeof(*b);
	b->p.Wnode.Flags = WNODE_FLAG_TRACED_GUID;
	b->p.Wnode.ClientContext = 1;
	b->p.LogFileMode = mode;
	b->p.BufferSize = kb;
	/*
	 * The pool starts at MinimumBuffers and grows off the write path:
	 * room from the start for all the events written before a consumer
	 * reads them.
	 */
	b->p.MinimumBuffers = 64;
	b->p.MaximumBuffers = 64;
	b->p.LoggerNameOffset = sizeof(b->p);
	return &b->p;
}

static uint64_t filetime_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return 116444736000000000ULL + (uint64_t)ts.tv_sec * 10000000 +
	       ts.tv_nsec / 100;
}

/* One writer thread, pinned to one processor. */
struct writer {
	REGHANDLE reg;
	int cpu;
	USHORT id;
	pid_t tid;
	int failures;
};

static void *write_events(void *arg)
{
	struct writer *w = arg;
	EVENT_DESCRIPTOR d = { .Id = w->id, .Level = LEVEL, .Keyword = KEYWORD };
	EVENT_DATA_DESCRIPTOR data;
	cpu_set_t set;
	ULONG seq;

	CPU_ZERO(&set);
	CPU_SET(w->cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set))
		w->failures++;
	w->tid = (pid_t)syscall(SYS_gettid);
	for (seq = 0; seq < PER_THREAD; seq++) {
		EventDataDescCreate(&data, &seq, sizeof(seq));
		w->failures += EventWrite(w->reg, &d, 1, &data) != ERROR_SUCCESS;
	}
	return NULL;
}

/* Write PER_THREAD events from a thread on each of the first two CPUs. */
static int write_on_two_cpus(REGHANDLE reg, struct writer w[2])
{
	pthread_t th[2];
	int failures = 0;

	for (int i = 0; i < 2; i++) {
		w[i] = (struct writer){ .reg = reg, .cpu = i, .id = (USHORT)(i + 1) };
		if (pthread_create(&th[i], NULL, write_events, &w[i]))
			return -1;
	}
	for (int i = 0; i < 2; i++) {
		pthread_join(th[i], NULL);
		failures += w[i].failures;
	}
	return failures;
}

/* What the consumer saw. */
struct seen {
	pthread_mutex_t lock;
	const struct writer *w;		/* the two writers */
	USHORT logger_id;
	uint64_t start, end;		/* FILETIMEs the events must lie in */
	ULONG events;			/* of our provider */
	ULONG by_id[3];
	ULONG next_seq[3];		/* per writer: payloads come in order */
	ULONG header_events;		/* EventTraceGuid records */
	ULONG others;
	ULONG first_header;		/* 1 if the very first record is the header event */
	ULONG records;
	ULONG bad;			/* fields not as written */
	ULONG buffers;
	ULONG last_buffers_read;
	uint64_t last_time;
	ULONG cancel_at;
	bool merged;			/* a file: all events in time order */
};

static void check_event(struct seen *s, PEVENT_RECORD r)
{
	const EVENT_HEADER *h = &r->EventHeader;
	USHORT id = h->EventDescriptor.Id;
	const struct writer *w;
	ULONG seq;

	if (id < 1 || id > 2 || r->UserDataLength != sizeof(seq)) {
		s->bad++;
		return;
	}
	w = &s->w[id - 1];
	memcpy(&seq, r->UserData, sizeof(seq));
	s->bad += seq != s->next_seq[id]++;
	s->bad += h->ProcessId != (ULONG)getpid();
	s->bad += h->ThreadId != (ULONG)w->tid;
	s->bad += h->EventDescriptor.Level != LEVEL;
	s->bad += h->EventDescriptor.Keyword != KEYWORD;
	s->bad += h->HeaderType != 0xc013;
	s->bad += (h->Flags & (EVENT_HEADER_FLAG_64_BIT_HEADER |
			       EVENT_HEADER_FLAG_PROCESSOR_INDEX)) !=
		  (EVENT_HEADER_FLAG_64_BIT_HEADER | EVENT_HEADER_FLAG_PROCESSOR_INDEX);
	s->bad += GetEventProcessorIndex(r) != (ULONG)w->cpu;
	s->bad += r->BufferContext.LoggerId != s->logger_id;
	s->bad += (uint64_t)h->TimeStamp.QuadPart < s->start ||
		  (uint64_t)h->TimeStamp.QuadPart > s->end;
	s->bad += r->ExtendedDataCount != 0;
	s->by_id[id]++;
}

static VOID WINAPI on_record(PEVENT_RECORD r)
{
	struct seen *s = r->UserContext;
	uint64_t t = r->EventHeader.TimeStamp.QuadPart;

	pthread_mutex_lock(&s->lock);
	if (!s->records)
		s->first_header = IsEqualGUID(&r->EventHeader.ProviderId, &event_trace) &&
				  !r->EventHeader.EventDescriptor.Opcode;
	s->records++;
	if (IsEqualGUID(&r->EventHeader.ProviderId, &provider)) {
		s->events++;
		check_event(s, r);
		/* Real time is buffer by buffer, as on Windows. */
		s->bad += s->merged && t < s->last_time;
		s->last_time = t;
	} else if (IsEqualGUID(&r->EventHeader.ProviderId, &event_trace)) {
		s->header_events++;
	} else {
		s->others++;
	}
	pthread_mutex_unlock(&s->lock);
}

static ULONG WINAPI on_buffer(PEVENT_TRACE_LOGFILEA lf)
{
	struct seen *s = lf->Context;
	ULONG go;

	pthread_mutex_lock(&s->lock);
	s->buffers++;
	s->last_buffers_read = lf->BuffersRead;
	go = !(s->cancel_at && s->buffers == s->cancel_at);
	pthread_mutex_unlock(&s->lock);
	return go;
}

static void seen_init(struct seen *s, const struct writer *w, USHORT logger_id,
		      uint64_t start)
{
	memset(s, 0, sizeof(*s));
	pthread_mutex_init(&s->lock, NULL);
	s->w = w;
	s->logger_id = logger_id;
	s->start = start;
	s->end = UINT64_MAX;
}

FIXTURE(consumer) {
	int fd;
	CONTROLTRACE_ID session;
	REGHANDLE reg;
	char name[64];
};

FIXTURE_SETUP(consumer)
{
	self->fd = etw_open_or_skip(_metadata);
	etw_require_root(_metadata);
	etw_stop_test_sessions(self->fd);
	self->session = 0;
	self->reg = 0;
	ASSERT_EQ(ERROR_SUCCESS, EventRegister(&provider, NULL, NULL, &self->reg));
}

FIXTURE_TEARDOWN(consumer)
{
	if (self->reg)
		EventUnregister(self->reg);
	etw_stop_test_sessions(self->fd);
	close(self->fd);
}

/* Start a session of @mode and enable the provider in it. */
static ULONG start(struct __test_metadata *_metadata, FIXTURE_DATA(consumer) *self,
		   const char *name, ULONG mode)
{
	struct pbuf b;
	ULONG err;

	snprintf(self->name, sizeof(self->name), "%s", name);
	err = StartTraceA(&self->session, name, props(&b, mode, 8));
	if (err)
		return err;
	return EnableTraceEx2(self->session, &provider,
			      EVENT_CONTROL_CODE_ENABLE_PROVIDER, LEVEL + 1,
			      0, 0, 0, NULL);
}

/* Drain the session into an ETL file with the library's writer. */
static long record_to_file(int fd, USHORT logger_id, const char *path,
			   struct etw_session_info *final)
{
	static __u8 buf[8192];
	struct etw_etl_writer *w;
	struct etw_session_info info;
	long buffers = 0;

	if (etw_session_ctl(fd, logger_id, ETW_CONTROL_FLUSH, &info) ||
	    etw_etl_writer_open(&w, path, &info))
		return -1;
	while (!etw_take_buffer(fd, logger_id, buf, sizeof(buf), NULL)) {
		if (etw_etl_writer_buffer(w, buf))
			return -1;
		buffers++;
	}
	if (etw_session_ctl(fd, logger_id, ETW_CONTROL_STOP, final))
		return -1;
	return etw_etl_writer_close(w, final) ? -1 : buffers + 1;
}

/* Written on two CPUs, recorded to a file, read back merged in time order. */
TEST_F(consumer, file_round_trip)
{
	static const char path[] = "/tmp/etwtest-consumer.etl";
	struct etw_session_info final;
	EVENT_TRACE_LOGFILEA lf;
	PROCESSTRACE_HANDLE h;
	struct writer w[2];
	struct seen s;
	uint64_t before;
	long buffers;
	char name[64];
	size_t i;

	ASSERT_EQ(ERROR_SUCCESS, start(_metadata, self, "etwtest-consumer-file",
				       EVENT_TRACE_REAL_TIME_MODE));
	before = filetime_now();
	ASSERT_EQ(0, write_on_two_cpus(self->reg, w));
	buffers = record_to_file(self->fd, (USHORT)self->session, path, &final);
	ASSERT_LT(2, buffers);
	EXPECT_EQ(0, final.events_lost);

	memset(&lf, 0, sizeof(lf));
	lf.LogFileName = (LPSTR)path;
	lf.ProcessTraceMode = PROCESS_TRACE_MODE_EVENT_RECORD;
	lf.EventRecordCallback = on_record;
	lf.BufferCallback = on_buffer;
	lf.Context = &s;
	h = OpenTraceA(&lf);
	ASSERT_NE(INVALID_PROCESSTRACE_HANDLE, h) TH_LOG("%lu", (unsigned long)GetLastError());
	EXPECT_EQ(8192, lf.LogfileHeader.BufferSize);
	EXPECT_EQ(buffers, lf.LogfileHeader.BuffersWritten);
	EXPECT_EQ(0, lf.LogfileHeader.EventsLost);
	EXPECT_EQ(etw_test_clock_frequency(self->fd), lf.LogfileHeader.PerfFreq.QuadPart);
	EXPECT_GE(before, (uint64_t)lf.LogfileHeader.StartTime.QuadPart);
	for (i = 0; i < sizeof(name) - 1 && lf.LogfileHeader.LoggerName[i]; i++)
		name[i] = (char)lf.LogfileHeader.LoggerName[i];
	name[i] = 0;
	EXPECT_STREQ("etwtest-consumer-file", name);
	EXPECT_EQ(0, lf.IsKernelTrace);

	seen_init(&s, w, (USHORT)self->session, lf.LogfileHeader.StartTime.QuadPart);
	s.end = filetime_now();
	s.merged = true;
	ASSERT_EQ(ERROR_SUCCESS, ProcessTrace(&h, 1, NULL, NULL));
	EXPECT_EQ(1, s.first_header);
	EXPECT_EQ(1, s.header_events);
	EXPECT_EQ(0, s.others);
	EXPECT_EQ(2 * PER_THREAD, s.events);
	EXPECT_EQ(PER_THREAD, s.by_id[1]);
	EXPECT_EQ(PER_THREAD, s.by_id[2]);
	EXPECT_EQ(0, s.bad);
	EXPECT_EQ(buffers, s.buffers);
	EXPECT_EQ(buffers, s.last_buffers_read);
	EXPECT_EQ(ERROR_SUCCESS, CloseTrace(h));
	unlink(path);
}

/* The extended items a session asked for, as EVENT_RECORD.ExtendedData. */
struct ext_seen {
	GUID activity, related;
	ULONG events;
	ULONG bad;
	ULONG related_ok, ts_id, start_key, event_key;
};

static VOID WINAPI on_ext(PEVENT_RECORD r)
{
	struct ext_seen *x = r->UserContext;
	const EVENT_HEADER_EXTENDED_DATA_ITEM *it = r->ExtendedData;

	if (!IsEqualGUID(&r->EventHeader.ProviderId, &provider))
		return;
	x->events++;
	x->bad += !IsEqualGUID(&r->EventHeader.ActivityId, &x->activity);
	x->bad += !(r->EventHeader.Flags & EVENT_HEADER_FLAG_EXTENDED_INFO);
	x->bad += !r->ExtendedDataCount || !it;
	for (USHORT i = 0; i < r->ExtendedDataCount; i++) {
		const void *data = (const void *)(uintptr_t)it[i].DataPtr;

		x->bad += it[i].Linkage != (i + 1 < r->ExtendedDataCount);
		switch (it[i].ExtType) {
		case EVENT_HEADER_EXT_TYPE_RELATED_ACTIVITYID:
			x->related_ok += it[i].DataSize == sizeof(GUID) &&
					 !memcmp(data, &x->related, sizeof(GUID));
			break;
		case EVENT_HEADER_EXT_TYPE_TS_ID:
			x->ts_id += it[i].DataSize == sizeof(ULONG);
			break;
		case EVENT_HEADER_EXT_TYPE_PROCESS_START_KEY:
			x->start_key += it[i].DataSize == sizeof(ULONG64);
			break;
		case EVENT_HEADER_EXT_TYPE_EVENT_KEY:
			x->event_key += it[i].DataSize == sizeof(ULONG64);
			break;
		default:
			x->bad++;
		}
	}
}

/* EnableProperty items and a related activity id, through a file. */
TEST_F(consumer, extended_data)
{
	static const char path[] = "/tmp/etwtest-consumer-ext.etl";
	ENABLE_TRACE_PARAMETERS params = { .Version = ENABLE_TRACE_PARAMETERS_VERSION_2 };
	EVENT_DESCRIPTOR d = { .Id = 7, .Level = LEVEL, .Keyword = KEYWORD };
	struct etw_session_info final;
	struct ext_seen x = { 0 };
	EVENT_TRACE_LOGFILEA lf;
	PROCESSTRACE_HANDLE h;
	struct pbuf b;

	snprintf(self->name, sizeof(self->name), "etwtest-consumer-ext");
	ASSERT_EQ(ERROR_SUCCESS, StartTraceA(&self->session, self->name,
					     props(&b, EVENT_TRACE_REAL_TIME_MODE, 8)));
	params.EnableProperty = EVENT_ENABLE_PROPERTY_TS_ID |
				EVENT_ENABLE_PROPERTY_PROCESS_START_KEY |
				EVENT_ENABLE_PROPERTY_EVENT_KEY;
	ASSERT_EQ(ERROR_SUCCESS, EnableTraceEx2(self->session, &provider,
						EVENT_CONTROL_CODE_ENABLE_PROVIDER,
						LEVEL + 1, 0, 0, 0, &params));
	x.activity.Data1 = 0xac;
	x.related.Data1 = 0x4e1a7ed;
	for (int i = 0; i < 5; i++)
		ASSERT_EQ(ERROR_SUCCESS, EventWriteTransfer(self->reg, &d, &x.activity,
							    &x.related, 0, NULL));
	ASSERT_LT(1, record_to_file(self->fd, (USHORT)self->session, path, &final));
	memset(&lf, 0, sizeof(lf));
	lf.LogFileName = (LPSTR)path;
	lf.ProcessTraceMode = PROCESS_TRACE_MODE_EVENT_RECORD;
	lf.EventRecordCallback = on_ext;
	lf.Context = &x;
	h = OpenTraceA(&lf);
	ASSERT_NE(INVALID_PROCESSTRACE_HANDLE, h);
	ASSERT_EQ(ERROR_SUCCESS, ProcessTrace(&h, 1, NULL, NULL));
	EXPECT_EQ(5, x.events);
	EXPECT_EQ(0, x.bad);
	EXPECT_EQ(5, x.related_ok);
	EXPECT_EQ(5, x.ts_id);
	EXPECT_EQ(5, x.start_key);
	EXPECT_EQ(5, x.event_key);
	EXPECT_EQ(ERROR_SUCCESS, CloseTrace(h));
	unlink(path);
}

/* Classic (TraceEvent) events as EVENT_TRACE and as EVENT_RECORD. */
#define CLASSIC_EVENTS	12

struct classic_event {
	EVENT_TRACE_HEADER Header;
	char Data[32];
};

struct classic_seen {
	GUID guid;
	USHORT logger_id;
	ULONG events;
	ULONG bad;
};

/* An EVENT_TRACE carries no context: the test's, for the callback. */
static struct classic_seen *classic_ctx;

static VOID WINAPI on_classic_trace(PEVENT_TRACE e)
{
	struct classic_seen *x = classic_ctx;
	char want[32];

	if (!IsEqualGUID(&e->Header.Guid, &x->guid))
		return;
	snprintf(want, sizeof(want), "classic %u", x->events);
	x->bad += e->Header.Class.Type != 10 + x->events % 4;
	x->bad += e->Header.Class.Level != TRACE_LEVEL_WARNING;
	x->bad += e->Header.Class.Version != 0x102;
	x->bad += e->Header.HeaderType != 0x14 || e->Header.MarkerFlags != 0xc0;
	x->bad += e->Header.Size != sizeof(EVENT_TRACE_HEADER) + strlen(want) + 1;
	x->bad += e->MofLength != strlen(want) + 1 ||
		  memcmp(e->MofData, want, e->MofLength);
	x->bad += e->Header.ProcessId != (ULONG)getpid();
	x->bad += e->Header.ThreadId != (ULONG)syscall(SYS_gettid);
	x->bad += e->BufferContext.LoggerId != x->logger_id;
	x->events++;
}

static VOID WINAPI on_classic_record(PEVENT_RECORD r)
{
	struct classic_seen *x = r->UserContext;
	const EVENT_HEADER *h = &r->EventHeader;
	char want[32];

	if (!IsEqualGUID(&h->ProviderId, &x->guid))
		return;
	snprintf(want, sizeof(want), "classic %u", x->events);
	/* The MOF type is the opcode; no id, task or keyword. */
	x->bad += h->EventDescriptor.Opcode != 10 + x->events % 4;
	x->bad += h->EventDescriptor.Level != TRACE_LEVEL_WARNING;
	x->bad += h->EventDescriptor.Version != 2;
	x->bad += h->EventDescriptor.Id || h->EventDescriptor.Task ||
		  h->EventDescriptor.Keyword;
	x->bad += (h->Flags & (EVENT_HEADER_FLAG_CLASSIC_HEADER |
			       EVENT_HEADER_FLAG_64_BIT_HEADER)) !=
		  (EVENT_HEADER_FLAG_CLASSIC_HEADER | EVENT_HEADER_FLAG_64_BIT_HEADER);
	x->bad += h->HeaderType != 0;
	x->bad += r->UserDataLength != strlen(want) + 1 ||
		  memcmp(r->UserData, want, r->UserDataLength);
	x->bad += r->ExtendedDataCount != 0;
	x->events++;
}

TEST_F(consumer, classic_events)
{
	static const char path[] = "/tmp/etwtest-consumer-classic.etl";
	struct classic_seen x = { .guid = { 0x7c1a5c1c, 0x1, 0x2 } };
	struct etw_session_info final;
	struct classic_event e;
	EVENT_TRACE_LOGFILEA lf;
	PROCESSTRACE_HANDLE h;

	ASSERT_EQ(ERROR_SUCCESS, start(_metadata, self, "etwtest-consumer-classic",
				       EVENT_TRACE_REAL_TIME_MODE));
	x.logger_id = (USHORT)self->session;
	for (ULONG i = 0; i < CLASSIC_EVENTS; i++) {
		memset(&e, 0, sizeof(e));
		snprintf(e.Data, sizeof(e.Data), "classic %u", i);
		e.Header.Size = sizeof(e.Header) + strlen(e.Data) + 1;
		e.Header.Flags = WNODE_FLAG_TRACED_GUID;
		e.Header.Guid = x.guid;
		e.Header.Class.Type = 10 + i % 4;
		e.Header.Class.Level = TRACE_LEVEL_WARNING;
		e.Header.Class.Version = 0x102;
		ASSERT_EQ(ERROR_SUCCESS, TraceEvent(self->session, &e.Header));
	}
	ASSERT_LT(1, record_to_file(self->fd, (USHORT)self->session, path, &final));

	memset(&lf, 0, sizeof(lf));
	lf.LogFileName = (LPSTR)path;
	lf.EventCallback = on_classic_trace;
	classic_ctx = &x;
	h = OpenTraceA(&lf);
	ASSERT_NE(INVALID_PROCESSTRACE_HANDLE, h);
	ASSERT_EQ(ERROR_SUCCESS, ProcessTrace(&h, 1, NULL, NULL));
	EXPECT_EQ(CLASSIC_EVENTS, x.events);
	EXPECT_EQ(0, x.bad);
	EXPECT_EQ(ERROR_SUCCESS, CloseTrace(h));

	x.events = 0;
	lf.ProcessTraceMode = PROCESS_TRACE_MODE_EVENT_RECORD;
	lf.EventRecordCallback = on_classic_record;
	lf.Context = &x;
	h = OpenTraceA(&lf);
	ASSERT_NE(INVALID_PROCESSTRACE_HANDLE, h);
	ASSERT_EQ(ERROR_SUCCESS, ProcessTrace(&h, 1, NULL, NULL));
	EXPECT_EQ(CLASSIC_EVENTS, x.events);
	EXPECT_EQ(0, x.bad);
	EXPECT_EQ(ERROR_SUCCESS, CloseTrace(h));
	unlink(path);
}

struct rt_thread {
	PROCESSTRACE_HANDLE h;
	ULONG result;
	pthread_t th;
};

static void *process(void *arg)
{
	struct rt_thread *t = arg;

	t->result = ProcessTrace(&t->h, 1, NULL, NULL);
	return NULL;
}

static PROCESSTRACE_HANDLE open_rt(const char *name, EVENT_TRACE_LOGFILEA *lf,
				   struct seen *s)
{
	memset(lf, 0, sizeof(*lf));
	lf->LoggerName = (LPSTR)name;
	lf->ProcessTraceMode = PROCESS_TRACE_MODE_REAL_TIME |
			       PROCESS_TRACE_MODE_EVENT_RECORD;
	lf->EventRecordCallback = on_record;
	lf->BufferCallback = on_buffer;
	lf->Context = s;
	return OpenTraceA(lf);
}

/* Wait up to 30 s for @n events. */
static ULONG wait_events(struct seen *s, ULONG n)
{
	ULONG got = 0;

	for (int i = 0; i < 3000; i++) {
		pthread_mutex_lock(&s->lock);
		got = s->events;
		pthread_mutex_unlock(&s->lock);
		if (got >= n)
			break;
		usleep(10000);
	}
	return got;
}

/* Real time: every event once, no header event; CloseTrace ends it. */
TEST_F(consumer, real_time_close)
{
	EVENT_TRACE_LOGFILEA lf;
	struct rt_thread t = { 0 };
	struct pbuf b;
	struct writer w[2];
	struct seen s;
	size_t i;
	char name[64];

	ASSERT_EQ(ERROR_SUCCESS, start(_metadata, self, "etwtest-consumer-rt",
				       EVENT_TRACE_REAL_TIME_MODE));
	t.h = open_rt(self->name, &lf, &s);
	ASSERT_NE(INVALID_PROCESSTRACE_HANDLE, t.h);
	EXPECT_EQ(8192, lf.LogfileHeader.BufferSize);
	EXPECT_EQ(etw_test_clock_frequency(self->fd), lf.LogfileHeader.PerfFreq.QuadPart);
	EXPECT_EQ(EVENT_TRACE_REAL_TIME_MODE,
		  lf.LogfileHeader.LogFileMode & EVENT_TRACE_REAL_TIME_MODE);
	EXPECT_EQ(0, lf.LogfileHeader.BuffersWritten);
	EXPECT_EQ(0, lf.LogfileHeader.EndTime.QuadPart);
	for (i = 0; i < sizeof(name) - 1 && lf.LogfileHeader.LoggerName[i]; i++)
		name[i] = (char)lf.LogfileHeader.LoggerName[i];
	name[i] = 0;
	EXPECT_STREQ(self->name, name);

	seen_init(&s, w, (USHORT)self->session, lf.LogfileHeader.StartTime.QuadPart);
	ASSERT_EQ(0, pthread_create(&t.th, NULL, process, &t));
	ASSERT_EQ(0, write_on_two_cpus(self->reg, w));
	pthread_mutex_lock(&s.lock);
	s.end = filetime_now();
	pthread_mutex_unlock(&s.lock);
	ASSERT_EQ(ERROR_SUCCESS, FlushTraceA(self->session, NULL,
					      props(&b, 0, 0)));
	EXPECT_EQ(2 * PER_THREAD, wait_events(&s, 2 * PER_THREAD));
	EXPECT_EQ(ERROR_CTX_CLOSE_PENDING, CloseTrace(t.h));
	pthread_join(t.th, NULL);
	EXPECT_EQ(ERROR_SUCCESS, t.result);
	EXPECT_EQ(ERROR_INVALID_HANDLE, CloseTrace(t.h));

	EXPECT_EQ(2 * PER_THREAD, s.events);
	EXPECT_EQ(PER_THREAD, s.by_id[1]);
	EXPECT_EQ(PER_THREAD, s.by_id[2]);
	EXPECT_EQ(0, s.header_events);
	EXPECT_EQ(0, s.others);
	EXPECT_EQ(0, s.bad);
	EXPECT_LE(2, s.buffers);
	EXPECT_EQ(s.buffers, s.last_buffers_read);
	EXPECT_EQ(ERROR_SUCCESS, StopTraceA(self->session, NULL, props(&b, 0, 0)));
}

/* Real time: the session stopping ends ProcessTrace with success. */
TEST_F(consumer, real_time_stop)
{
	EVENT_TRACE_LOGFILEA lf;
	struct rt_thread t = { 0 };
	struct pbuf b;
	struct writer w[2];
	struct seen s;

	ASSERT_EQ(ERROR_SUCCESS, start(_metadata, self, "etwtest-consumer-stop",
				       EVENT_TRACE_REAL_TIME_MODE));
	t.h = open_rt(self->name, &lf, &s);
	ASSERT_NE(INVALID_PROCESSTRACE_HANDLE, t.h);
	seen_init(&s, w, (USHORT)self->session, lf.LogfileHeader.StartTime.QuadPart);
	ASSERT_EQ(0, pthread_create(&t.th, NULL, process, &t));
	ASSERT_EQ(0, write_on_two_cpus(self->reg, w));
	ASSERT_EQ(ERROR_SUCCESS, FlushTraceA(self->session, NULL, props(&b, 0, 0)));
	EXPECT_EQ(2 * PER_THREAD, wait_events(&s, 2 * PER_THREAD));
	EXPECT_EQ(ERROR_SUCCESS, StopTraceA(self->session, NULL, props(&b, 0, 0)));
	pthread_join(t.th, NULL);
	EXPECT_EQ(ERROR_SUCCESS, t.result);
	EXPECT_EQ(0, s.bad);
	EXPECT_EQ(ERROR_SUCCESS, CloseTrace(t.h));
}

/* Real time: a BufferCallback that says stop; ERROR_CANCELLED. */
TEST_F(consumer, real_time_cancel)
{
	EVENT_TRACE_LOGFILEA lf;
	PROCESSTRACE_HANDLE h;
	struct pbuf b;
	struct writer w[2];
	struct seen s;

	ASSERT_EQ(ERROR_SUCCESS, start(_metadata, self, "etwtest-consumer-cancel",
				       EVENT_TRACE_REAL_TIME_MODE));
	h = open_rt(self->name, &lf, &s);
	ASSERT_NE(INVALID_PROCESSTRACE_HANDLE, h);
	seen_init(&s, w, (USHORT)self->session, lf.LogfileHeader.StartTime.QuadPart);
	s.cancel_at = 1;
	ASSERT_EQ(0, write_on_two_cpus(self->reg, w));
	ASSERT_EQ(ERROR_SUCCESS, FlushTraceA(self->session, NULL, props(&b, 0, 0)));
	EXPECT_EQ(ERROR_CANCELLED, ProcessTrace(&h, 1, NULL, NULL));
	EXPECT_EQ(1, s.buffers);
	EXPECT_EQ(1, s.last_buffers_read);
	EXPECT_LT(0, s.events);
	EXPECT_GT(2 * PER_THREAD, s.events);
	EXPECT_EQ(ERROR_SUCCESS, CloseTrace(h));
}

/* Real time: events after EndTime end ProcessTrace, undelivered. */
TEST_F(consumer, real_time_end_time)
{
	EVENT_TRACE_LOGFILEA lf;
	PROCESSTRACE_HANDLE h;
	struct pbuf b;
	struct writer w[2];
	struct seen s;
	FILETIME end;
	uint64_t now;

	ASSERT_EQ(ERROR_SUCCESS, start(_metadata, self, "etwtest-consumer-end",
				       EVENT_TRACE_REAL_TIME_MODE));
	h = open_rt(self->name, &lf, &s);
	ASSERT_NE(INVALID_PROCESSTRACE_HANDLE, h);
	seen_init(&s, w, (USHORT)self->session, lf.LogfileHeader.StartTime.QuadPart);
	now = filetime_now() - 1;
	end.dwLowDateTime = (DWORD)now;
	end.dwHighDateTime = (DWORD)(now >> 32);
	ASSERT_EQ(0, write_on_two_cpus(self->reg, w));
	ASSERT_EQ(ERROR_SUCCESS, FlushTraceA(self->session, NULL, props(&b, 0, 0)));
	EXPECT_EQ(ERROR_SUCCESS, ProcessTrace(&h, 1, NULL, &end));
	EXPECT_EQ(0, s.events);
	EXPECT_EQ(ERROR_SUCCESS, CloseTrace(h));
}

/* Not running, or not a real-time session: ERROR_WMI_INSTANCE_NOT_FOUND. */
TEST_F(consumer, real_time_not_found)
{
	EVENT_TRACE_LOGFILEA lf;
	PROCESSTRACE_HANDLE h;
	struct seen s;

	h = open_rt("etwtest-consumer-none", &lf, &s);
	ASSERT_NE(INVALID_PROCESSTRACE_HANDLE, h);
	EXPECT_EQ(0, lf.LogfileHeader.BufferSize);
	EXPECT_EQ(ERROR_WMI_INSTANCE_NOT_FOUND, ProcessTrace(&h, 1, NULL, NULL));
	EXPECT_EQ(ERROR_WMI_INSTANCE_NOT_FOUND, GetLastError());
	EXPECT_EQ(ERROR_SUCCESS, CloseTrace(h));

	ASSERT_EQ(ERROR_SUCCESS, start(_metadata, self, "etwtest-consumer-buf",
				       EVENT_TRACE_BUFFERING_MODE));
	h = open_rt(self->name, &lf, &s);
	ASSERT_NE(INVALID_PROCESSTRACE_HANDLE, h);
	EXPECT_EQ(8192, lf.LogfileHeader.BufferSize);
	EXPECT_EQ(ERROR_WMI_INSTANCE_NOT_FOUND, ProcessTrace(&h, 1, NULL, NULL));
	EXPECT_EQ(ERROR_SUCCESS, CloseTrace(h));
}

TEST_HARNESS_MAIN
