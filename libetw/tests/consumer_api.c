// SPDX-License-Identifier: GPL-2.0
/*
 * The consumer API (OpenTrace, ProcessTrace, CloseTrace) on the Windows
 * samples and on synthetic files.  Expected values come from the
 * samples' README.md, from the bytes of the files read with the layouts
 * of etl-format.md, and from the rules of etw-api.md 4: never from the
 * library's own output.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <windows.h>
#include <evntrace.h>
#include <evntcons.h>

#include "kselftest_harness.h"
#include "etl_test.h"

/* 68fdd900-4a3e-11d1-84f4-0000f80464e3 */
static const GUID event_trace_guid = { 0x68fdd900, 0x4a3e, 0x11d1,
	{ 0x84, 0xf4, 0x00, 0x00, 0xf8, 0x04, 0x64, 0xe3 } };

/* What the callbacks saw; reached through EVENT_TRACE_LOGFILE.Context. */
struct seen {
	ULONG events;
	ULONG buffers;
	ULONG header_events;		/* in buffer 0 */
	ULONG logfile_headers;		/* EventTraceGuid, opcode 0 */
	ULONG other_events;		/* the rest */
	bool late_header;		/* a logfile header after other events */
	ULONG last_buffers_read;
	uint64_t last_time;
	bool out_of_order;
	bool first_is_header;
	ULONG cancel_at;		/* BufferCallback returns FALSE here */
	ULONG close_at;			/* CloseTrace from the event callback */
	PROCESSTRACE_HANDLE handle;
	ULONG close_result;
	ULONG mismatches;		/* fields that differ from the raw bytes */
	ULONG checked;			/* records compared with their bytes */
	bool raw_checks;		/* one file: compare with its bytes */
	const uint8_t *file;		/* the mapping, found from the header */
	ULONG buffer_size;
	char log[4096];			/* "e<id> " and "b<Filled> " */
};

static struct seen *seen_of(PEVENT_RECORD r)
{
	return r->UserContext;
}

static void log_add(struct seen *s, char what, unsigned long v)
{
	size_t n = strlen(s->log);

	snprintf(s->log + n, sizeof(s->log) - n,
		 what == 'e' ? "e%lu " : "b%lx ", v);
}

static uint64_t rd(const uint8_t *p, int n)
{
	uint64_t v = 0;

	for (int i = n - 1; i >= 0; i--)
		v = v << 8 | p[i];
	return v;
}

static bool guid_is(const GUID *g, const uint8_t *raw)
{
	return g->Data1 == rd(raw, 4) && g->Data2 == rd(raw + 4, 2) &&
	       g->Data3 == rd(raw + 6, 2) && !memcmp(g->Data4, raw + 8, 8);
}

/*
 * An EVENT_HEADER record without extended items, compared with its bytes
 * (etl-format.md 3.5): the record is the 0x50 bytes before UserData.
 */
static void check_raw_event(struct seen *s, PEVENT_RECORD r)
{
	const EVENT_HEADER *h = &r->EventHeader;
	const uint8_t *rec = (const uint8_t *)r->UserData - 0x50;
	const uint8_t *buf;

	if (!s->raw_checks || !s->file || !s->buffer_size)
		return;
	s->checked++;
	buf = s->file + (rec - s->file) / s->buffer_size * s->buffer_size;
	s->mismatches += h->Size != rd(rec, 2);
	s->mismatches += h->ThreadId != rd(rec + 8, 4);
	s->mismatches += h->ProcessId != rd(rec + 12, 4);
	s->mismatches += !guid_is(&h->ProviderId, rec + 0x18);
	s->mismatches += h->EventDescriptor.Id != rd(rec + 0x28, 2);
	s->mismatches += h->EventDescriptor.Version != rec[0x2a];
	s->mismatches += h->EventDescriptor.Channel != rec[0x2b];
	s->mismatches += h->EventDescriptor.Level != rec[0x2c];
	s->mismatches += h->EventDescriptor.Opcode != rec[0x2d];
	s->mismatches += h->EventDescriptor.Task != rd(rec + 0x2e, 2);
	s->mismatches += h->EventDescriptor.Keyword != rd(rec + 0x30, 8);
	s->mismatches += h->KernelTime != rd(rec + 0x38, 4);
	s->mismatches += h->UserTime != rd(rec + 0x3c, 4);
	s->mismatches += !guid_is(&h->ActivityId, rec + 0x40);
	s->mismatches += r->UserDataLength != rd(rec, 2) - 0x50;
	s->mismatches += h->HeaderType != 0xc013;
	/* 64-bit EVENT_HEADER in a buffer with a 16-bit processor index. */
	s->mismatches += !(h->Flags & EVENT_HEADER_FLAG_64_BIT_HEADER);
	s->mismatches += !(h->Flags & EVENT_HEADER_FLAG_PROCESSOR_INDEX);
	s->mismatches += r->BufferContext.ProcessorIndex != rd(buf + 0x28, 2);
	s->mismatches += r->BufferContext.LoggerId != rd(buf + 0x2a, 2);
	s->mismatches += GetEventProcessorIndex(r) != rd(buf + 0x28, 2);
}

static VOID WINAPI on_record(PEVENT_RECORD r)
{
	struct seen *s = seen_of(r);
	uint64_t t = r->EventHeader.TimeStamp.QuadPart;

	if (IsEqualGUID(&r->EventHeader.ProviderId, &event_trace_guid) &&
	    !r->EventHeader.EventDescriptor.Opcode) {
		s->logfile_headers++;
		s->late_header |= s->other_events != 0;
	} else if (!IsEqualGUID(&r->EventHeader.ProviderId, &event_trace_guid)) {
		s->other_events++;
	}
	/* Buffer 0, the header group, is the first buffer done. */
	if (!s->buffers && IsEqualGUID(&r->EventHeader.ProviderId,
				       &event_trace_guid)) {
		/* The header event's payload starts 0x68 into the file. */
		if (!s->events && r->EventHeader.EventDescriptor.Opcode == 0)
			s->file = (const uint8_t *)r->UserData - 0x68;
		s->header_events++;
		s->first_is_header |= !s->events;
	} else {
		if (t < s->last_time)
			s->out_of_order = true;
		s->last_time = t;
		if (r->EventHeader.HeaderType == 0xc013 &&
		    !r->ExtendedDataCount)
			check_raw_event(s, r);
	}
	s->events++;
	log_add(s, 'e', r->EventHeader.EventDescriptor.Id);
	if (s->close_at && s->events == s->close_at)
		s->close_result = CloseTrace(s->handle);
}

static ULONG WINAPI on_buffer(PEVENT_TRACE_LOGFILEA lf)
{
	struct seen *s = lf->Context;

	s->buffers++;
	s->last_buffers_read = lf->BuffersRead;
	if (!s->buffer_size)
		s->buffer_size = lf->BufferSize;
	log_add(s, 'b', lf->Filled);
	return !(s->cancel_at && s->buffers == s->cancel_at);
}

static void sample_path(const char *name, char *path, size_t size)
{
	snprintf(path, size, "%s/%s", samples_dir(), name);
}

static bool have_sample(const char *name)
{
	char path[1024];

	sample_path(name, path, sizeof(path));
	return !access(path, R_OK);
}

/* The path of a sample into @path, or fail the test. */
#define NEED_SAMPLE(name, path)						\
	do {								\
		ASSERT_TRUE(have_sample(name))				\
			TH_LOG("sample %s is missing", name);		\
		sample_path(name, path, sizeof(path));			\
	} while (0)

/* A logfile for @path with EVENT_RECORD delivery to @cb. */
static EVENT_TRACE_LOGFILEA *fill_lf(const char *path, EVENT_TRACE_LOGFILEA *lf,
				     ULONG mode, PEVENT_RECORD_CALLBACK cb,
				     void *ctx)
{
	memset(lf, 0, sizeof(*lf));
	lf->LogFileName = (LPSTR)path;
	lf->ProcessTraceMode = PROCESS_TRACE_MODE_EVENT_RECORD | mode;
	lf->EventRecordCallback = cb;
	lf->Context = ctx;
	return lf;
}

static PROCESSTRACE_HANDLE open_with(const char *path, EVENT_TRACE_LOGFILEA *lf,
				     ULONG mode, PEVENT_RECORD_CALLBACK cb,
				     void *ctx)
{
	return OpenTraceA(fill_lf(path, lf, mode, cb, ctx));
}

/* To on_record and on_buffer. */
static PROCESSTRACE_HANDLE open_file(const char *path, EVENT_TRACE_LOGFILEA *lf,
				     struct seen *s, ULONG extra_mode)
{
	fill_lf(path, lf, extra_mode, on_record, s)->BufferCallback = on_buffer;
	return OpenTraceA(lf);
}

FIXTURE(sample) {
	char path[1024];
	EVENT_TRACE_LOGFILEA lf;
	PROCESSTRACE_HANDLE h;
	struct seen seen;
	off_t file_size;
};

FIXTURE_VARIANT(sample) {
	const struct sample_facts *f;
};

FIXTURE_VARIANT_ADD(sample, amsitrace) { .f = &sample_amsitrace };
FIXTURE_VARIANT_ADD(sample, lxcore) { .f = &sample_lxcore };
FIXTURE_VARIANT_ADD(sample, powershell) { .f = &sample_powershell };
FIXTURE_VARIANT_ADD(sample, perfdiag) { .f = &sample_perfdiag };

FIXTURE_SETUP(sample)
{
	struct stat st;

	memset(&self->seen, 0, sizeof(self->seen));
	self->seen.raw_checks = true;
	self->h = INVALID_PROCESSTRACE_HANDLE;
	ASSERT_TRUE(have_sample(variant->f->file))
		TH_LOG("sample %s is missing", variant->f->file);
	sample_path(variant->f->file, self->path, sizeof(self->path));
	ASSERT_EQ(0, stat(self->path, &st));
	self->file_size = st.st_size;
	self->h = open_file(self->path, &self->lf, &self->seen, 0);
	ASSERT_NE(INVALID_PROCESSTRACE_HANDLE, self->h)
		TH_LOG("OpenTraceA: %lu", (unsigned long)GetLastError());
}

FIXTURE_TEARDOWN(sample)
{
	if (self->h != INVALID_PROCESSTRACE_HANDLE)
		CloseTrace(self->h);
}

/* OpenTrace fills LogfileHeader from the file's header event. */
TEST_F(sample, logfile_header)
{
	const TRACE_LOGFILE_HEADER *lh = &self->lf.LogfileHeader;
	char name[256];
	size_t i;

	if (variant->f->buffer_size) {
		EXPECT_EQ(variant->f->buffer_size, lh->BufferSize);
		EXPECT_EQ(variant->f->buffer_size, self->lf.BufferSize);
	}
	EXPECT_EQ(variant->f->mode, lh->LogFileMode);
	if (variant->f->build)
		EXPECT_EQ(variant->f->build, lh->ProviderVersion);
	EXPECT_EQ(variant->f->events_lost, lh->EventsLost);
	EXPECT_EQ(8, lh->PointerSize);
	EXPECT_EQ(10000000, lh->PerfFreq.QuadPart);
	EXPECT_EQ(1, lh->ReservedFlags);
	EXPECT_EQ(10, lh->VersionDetail.MajorVersion);
	/* BuffersWritten: every buffer of the file (notes 1.3). */
	EXPECT_EQ(self->file_size, (off_t)lh->BuffersWritten * lh->BufferSize);
	EXPECT_LT(lh->StartTime.QuadPart, lh->EndTime.QuadPart);
	ASSERT_NE(NULL, lh->LoggerName);
	for (i = 0; i < sizeof(name) - 1 && lh->LoggerName[i]; i++)
		name[i] = (char)lh->LoggerName[i];
	name[i] = 0;
	EXPECT_STREQ(variant->f->logger, name);
	ASSERT_NE(NULL, lh->LogFileName);
	EXPECT_EQ(variant->f->kernel, self->lf.IsKernelTrace);
	EXPECT_EQ(0, self->lf.BuffersRead);
}

/* Every record once, the header event first, the rest in time order. */
TEST_F(sample, process_all)
{
	struct seen *s = &self->seen;

	ASSERT_EQ(ERROR_SUCCESS, ProcessTrace(&self->h, 1, NULL, NULL));
	EXPECT_EQ(ERROR_SUCCESS, GetLastError());
	EXPECT_EQ(variant->f->header_group + variant->f->events, s->events);
	EXPECT_EQ(variant->f->header_group, s->header_events);
	EXPECT_TRUE(s->first_is_header);
	EXPECT_FALSE(s->out_of_order);
	EXPECT_NE(NULL, s->file);
	/* One BufferCallback per buffer of the file, counted up in order. */
	EXPECT_EQ(self->file_size / self->lf.LogfileHeader.BufferSize, s->buffers);
	EXPECT_EQ(s->buffers, s->last_buffers_read);
	EXPECT_EQ(0, s->mismatches);
	EXPECT_EQ(variant->f->plain, s->checked);
}

/* The same file through OpenTraceW. */
TEST_F(sample, wide)
{
	EVENT_TRACE_LOGFILEW lfw;
	struct seen s = { 0 };
	char16_t wpath[1024];
	PROCESSTRACE_HANDLE h;
	size_t i;

	for (i = 0; self->path[i] && i < 1023; i++)
		wpath[i] = (unsigned char)self->path[i];
	wpath[i] = 0;
	memset(&lfw, 0, sizeof(lfw));
	lfw.LogFileName = wpath;
	lfw.ProcessTraceMode = PROCESS_TRACE_MODE_EVENT_RECORD;
	lfw.EventRecordCallback = on_record;
	lfw.Context = &s;
	h = OpenTraceW(&lfw);
	ASSERT_NE(INVALID_PROCESSTRACE_HANDLE, h);
	EXPECT_EQ(self->lf.LogfileHeader.StartTime.QuadPart,
		  lfw.LogfileHeader.StartTime.QuadPart);
	EXPECT_EQ(ERROR_SUCCESS, ProcessTrace(&h, 1, NULL, NULL));
	EXPECT_EQ(variant->f->header_group + variant->f->events, s.events);
	EXPECT_EQ(ERROR_SUCCESS, CloseTrace(h));
}

/* Raw timestamps, and FILETIME = StartTime + (raw - sync) * 10^7 / freq. */
static VOID WINAPI on_raw(PEVENT_RECORD r)
{
	struct seen *s = seen_of(r);
	const uint8_t *rec;

	s->events++;
	if (IsEqualGUID(&r->EventHeader.ProviderId, &event_trace_guid) ||
	    r->EventHeader.HeaderType != 0xc013 || r->ExtendedDataCount)
		return;
	rec = (const uint8_t *)r->UserData - 0x50;
	s->checked++;
	s->mismatches += (uint64_t)r->EventHeader.TimeStamp.QuadPart !=
			 rd(rec + 0x10, 8);
}

static VOID WINAPI on_converted(PEVENT_RECORD r)
{
	struct seen *s = seen_of(r);
	const uint8_t *rec;
	uint64_t raw, ft;

	if (IsEqualGUID(&r->EventHeader.ProviderId, &event_trace_guid)) {
		if (!s->events)
			s->file = (const uint8_t *)r->UserData - 0x68;
		s->events++;
		return;
	}
	s->events++;
	if (r->EventHeader.HeaderType != 0xc013 || r->ExtendedDataCount)
		return;
	rec = (const uint8_t *)r->UserData - 0x50;
	s->checked++;
	raw = rd(rec + 0x10, 8);
	/* The header event's SystemTime (0x48 + 0x10), StartTime (0x68 + 0x108). */
	ft = rd(s->file + 0x68 + 0x108, 8) +
	     (raw - rd(s->file + 0x58, 8)) * 10000000 / rd(s->file + 0x68 + 0x100, 8);
	s->mismatches += (uint64_t)r->EventHeader.TimeStamp.QuadPart != ft;
}

TEST_F(sample, timestamps)
{
	EVENT_TRACE_LOGFILEA lf;
	struct seen s = { 0 };
	PROCESSTRACE_HANDLE h;

	h = open_with(self->path, &lf, PROCESS_TRACE_MODE_RAW_TIMESTAMP, on_raw, &s);
	ASSERT_NE(INVALID_PROCESSTRACE_HANDLE, h);
	ASSERT_EQ(ERROR_SUCCESS, ProcessTrace(&h, 1, NULL, NULL));
	EXPECT_EQ(0, s.mismatches);
	EXPECT_EQ(variant->f->plain, s.checked);
	CloseTrace(h);

	memset(&s, 0, sizeof(s));
	lf.ProcessTraceMode = PROCESS_TRACE_MODE_EVENT_RECORD;
	lf.EventRecordCallback = on_converted;
	h = OpenTraceA(&lf);
	ASSERT_EQ(ERROR_SUCCESS, ProcessTrace(&h, 1, NULL, NULL));
	EXPECT_EQ(variant->f->header_group + variant->f->events, s.events);
	EXPECT_EQ(0, s.mismatches);
	EXPECT_EQ(variant->f->plain, s.checked);
	CloseTrace(h);
}

/* Times of every event, for the window test. */
struct times {
	uint64_t t[20000];
	ULONG n;
	ULONG headers;			/* before buffer 0 was done */
	ULONG buffers;
};

static VOID WINAPI on_time(PEVENT_RECORD r)
{
	struct times *x = r->UserContext;

	if (!x->buffers)
		x->headers++;
	else if (x->n < 20000)
		x->t[x->n++] = r->EventHeader.TimeStamp.QuadPart;
}

static ULONG WINAPI on_time_buffer(PEVENT_TRACE_LOGFILEA lf)
{
	((struct times *)lf->Context)->buffers++;
	return TRUE;
}

/* StartTime and EndTime are inclusive; the header events always come. */
TEST_F(sample, time_window)
{
	static struct times all, some;
	EVENT_TRACE_LOGFILEA lf;
	PROCESSTRACE_HANDLE h;
	FILETIME start, end;
	ULONG expect = 0;
	uint64_t a, b;

	memset(&all, 0, sizeof(all));
	memset(&some, 0, sizeof(some));
	fill_lf(self->path, &lf, 0, on_time, &all)->BufferCallback = on_time_buffer;
	h = OpenTraceA(&lf);
	ASSERT_EQ(ERROR_SUCCESS, ProcessTrace(&h, 1, NULL, NULL));
	CloseTrace(h);
	ASSERT_EQ(variant->f->events, all.n);
	ASSERT_EQ(variant->f->header_group, all.headers);

	a = all.t[all.n / 4];
	b = all.t[all.n - 1 - all.n / 4];
	for (ULONG i = 0; i < all.n; i++)
		expect += all.t[i] >= a && all.t[i] <= b;
	start.dwLowDateTime = (DWORD)a;
	start.dwHighDateTime = (DWORD)(a >> 32);
	end.dwLowDateTime = (DWORD)b;
	end.dwHighDateTime = (DWORD)(b >> 32);
	lf.Context = &some;
	h = OpenTraceA(&lf);
	ASSERT_EQ(ERROR_SUCCESS, ProcessTrace(&h, 1, &start, &end));
	CloseTrace(h);
	EXPECT_EQ(expect, some.n);
	EXPECT_EQ(variant->f->header_group, some.headers);
	for (ULONG i = 0; i < some.n; i++) {
		EXPECT_GE(some.t[i], a);
		EXPECT_LE(some.t[i], b);
	}
	/* EndTime before StartTime. */
	h = OpenTraceA(&lf);
	EXPECT_EQ(ERROR_INVALID_TIME, ProcessTrace(&h, 1, &end, &start));
	EXPECT_EQ(ERROR_INVALID_TIME, GetLastError());
	CloseTrace(h);
}

/* A BufferCallback that returns FALSE stops ProcessTrace. */
TEST_F(sample, buffer_callback_cancels)
{
	struct seen *s = &self->seen;

	s->cancel_at = 1;
	EXPECT_EQ(ERROR_CANCELLED, ProcessTrace(&self->h, 1, NULL, NULL));
	EXPECT_EQ(ERROR_CANCELLED, GetLastError());
	EXPECT_EQ(1, s->buffers);
	EXPECT_EQ(1, s->last_buffers_read);
	/* Buffer 0 holds only the header group. */
	EXPECT_EQ(variant->f->header_group, s->events);
}

/* CloseTrace from the event callback: pending, then nothing more. */
TEST_F(sample, close_from_callback)
{
	struct seen *s = &self->seen;

	s->close_at = variant->f->header_group + 1;
	s->handle = self->h;
	EXPECT_EQ(ERROR_SUCCESS, ProcessTrace(&self->h, 1, NULL, NULL));
	EXPECT_EQ(ERROR_CTX_CLOSE_PENDING, s->close_result);
	EXPECT_EQ(s->close_at, s->events);
	/* The handle is gone. */
	EXPECT_EQ(ERROR_INVALID_HANDLE, CloseTrace(self->h));
	EXPECT_EQ(ERROR_INVALID_HANDLE, ProcessTrace(&self->h, 1, NULL, NULL));
	self->h = INVALID_PROCESSTRACE_HANDLE;
}

/* Without PROCESS_TRACE_MODE_EVENT_RECORD: EVENT_TRACE for every record. */
struct classic_seen {
	ULONG events;
	ULONG headers;
	ULONG bad;
	ULONG header_mof;
};

static struct classic_seen classic;

static VOID WINAPI on_classic(PEVENT_TRACE e)
{
	classic.events++;
	if (IsEqualGUID(&e->Header.Guid, &event_trace_guid) &&
	    e->Header.Class.Type == EVENT_TRACE_TYPE_INFO && classic.events == 1) {
		classic.headers++;
		classic.header_mof = e->MofLength;
		/* The payload is a 64-bit TRACE_LOGFILE_HEADER and two names. */
		classic.bad += ((const uint8_t *)e->MofData)[0x2c] != 8;
		classic.bad += e->Header.Size != 0x30 + e->MofLength;
	}
	classic.bad += e->Header.MarkerFlags != 0xc0;
	classic.bad += e->MofLength && !e->MofData;
}

TEST_F(sample, classic_callback)
{
	EVENT_TRACE_LOGFILEA lf;
	PROCESSTRACE_HANDLE h;

	memset(&classic, 0, sizeof(classic));
	memset(&lf, 0, sizeof(lf));
	lf.LogFileName = self->path;
	lf.EventCallback = on_classic;
	h = OpenTraceA(&lf);
	ASSERT_NE(INVALID_PROCESSTRACE_HANDLE, h);
	ASSERT_EQ(ERROR_SUCCESS, ProcessTrace(&h, 1, NULL, NULL));
	EXPECT_EQ(variant->f->header_group + variant->f->events, classic.events);
	EXPECT_EQ(1, classic.headers);
	EXPECT_GE(classic.header_mof, 0x118);
	EXPECT_EQ(0, classic.bad);
	CloseTrace(h);
}

/* Payload offsets in delivery order, to compare two readings of a file. */
struct order {
	uint64_t off[20000];
	ULONG n;
	const uint8_t *file;
};

static VOID WINAPI on_order(PEVENT_RECORD r)
{
	struct order *o = r->UserContext;

	if (!o->file)		/* the header event's payload is at 0x68 */
		o->file = (const uint8_t *)r->UserData - 0x68;
	if (o->n < 20000)
		o->off[o->n++] = (const uint8_t *)r->UserData - o->file;
}

/* One file: the same records in the same order as the reader's time order. */
TEST_F(sample, same_order_as_reader)
{
	static struct order o;
	struct etw_etl_event ev;
	EVENT_TRACE_LOGFILEA lf;
	struct etw_etl *etl;
	PROCESSTRACE_HANDLE h;
	ULONG i = 0;

	memset(&o, 0, sizeof(o));
	h = open_with(self->path, &lf, 0, on_order, &o);
	ASSERT_NE(INVALID_PROCESSTRACE_HANDLE, h);
	ASSERT_EQ(ERROR_SUCCESS, ProcessTrace(&h, 1, NULL, NULL));
	CloseTrace(h);
	ASSERT_EQ(variant->f->header_group + variant->f->events, o.n);

	ASSERT_EQ(0, etw_etl_open(self->path, &etl, NULL));
	etw_etl_rewind(etl, ETW_ETL_ORDER_TIME);
	while (etw_etl_next(etl, &ev) > 0 && i < o.n) {
		uint64_t off = ev.offset + ((const uint8_t *)ev.data -
					    (const uint8_t *)ev.record);

		if (off != o.off[i])
			break;
		i++;
	}
	etw_etl_close(etl);
	EXPECT_EQ(o.n, i);
}

/* TraceLogging events keep their extended items (AMSITrace). */
struct ext_seen {
	ULONG with_items;
	ULONG bad;
};

static VOID WINAPI on_ext(PEVENT_RECORD r)
{
	struct ext_seen *x = r->UserContext;
	const EVENT_HEADER_EXTENDED_DATA_ITEM *it = r->ExtendedData;

	if (!r->ExtendedDataCount) {
		x->bad += r->ExtendedData != NULL;
		return;
	}
	x->with_items++;
	x->bad += !(r->EventHeader.Flags & EVENT_HEADER_FLAG_EXTENDED_INFO);
	for (USHORT i = 0; i < r->ExtendedDataCount; i++) {
		const uint8_t *data = (const uint8_t *)(uintptr_t)it[i].DataPtr;

		/* The stored item is 8 bytes before its data (notes 3.6). */
		x->bad += it[i].ExtType != rd(data - 6, 2);
		x->bad += it[i].DataSize != rd(data - 2, 2);
		x->bad += it[i].Linkage != (i + 1 < r->ExtendedDataCount);
		x->bad += it[i].Reserved1 != 0;
	}
}

TEST(tracelogging_items)
{
	struct ext_seen x = { 0 };
	EVENT_TRACE_LOGFILEA lf;
	PROCESSTRACE_HANDLE h;
	char path[1024];

	NEED_SAMPLE("etlparser-AMSITrace.etl", path);
	h = open_with(path, &lf, 0, on_ext, &x);
	ASSERT_NE(INVALID_PROCESSTRACE_HANDLE, h);
	ASSERT_EQ(ERROR_SUCCESS, ProcessTrace(&h, 1, NULL, NULL));
	/* README: 19 TraceLogging events, traits and schema items each. */
	EXPECT_EQ(19, x.with_items);
	EXPECT_EQ(0, x.bad);
	CloseTrace(h);
}

/* 64 handles at once (here the same file 64 times); 65 is too many. */
TEST(sixty_four_files)
{
	static PROCESSTRACE_HANDLE h[65];
	static EVENT_TRACE_LOGFILEA lf[65];
	struct seen s = { 0 };
	char path[1024];

	NEED_SAMPLE("etlparser-lxcore_kernel.etl", path);
	for (int i = 0; i < 65; i++) {
		h[i] = open_file(path, &lf[i], &s, 0);
		ASSERT_NE(INVALID_PROCESSTRACE_HANDLE, h[i]);
	}
	EXPECT_EQ(ERROR_BAD_LENGTH, ProcessTrace(h, 65, NULL, NULL));
	EXPECT_EQ(ERROR_BAD_LENGTH, GetLastError());
	EXPECT_EQ(0, s.events);
	EXPECT_EQ(ERROR_SUCCESS, ProcessTrace(h, 64, NULL, NULL));
	/* README: 2 events and 2 header records per copy. */
	EXPECT_EQ(64 * 4, s.events);
	EXPECT_EQ(64, s.logfile_headers);
	EXPECT_FALSE(s.late_header);
	EXPECT_FALSE(s.out_of_order);
	for (int i = 0; i < 65; i++)
		EXPECT_EQ(ERROR_SUCCESS, CloseTrace(h[i]));
}

/* Two synthetic files on one clock: merged across files by time. */
static const struct img_header hdr64 = {
	.bits = 64, .cpus = 2, .clock = 1, .perf_freq = 10000000, .mhz = 3000,
	.start = 132000000000000000ull, .sync = 1000,
};

static void write_img(struct __test_metadata *_metadata, struct img *m,
		      char *path)
{
	int fd;

	strcpy(path, "/tmp/etw-consumer-XXXXXX");
	fd = mkstemp(path);
	ASSERT_GE(fd, 0);
	ASSERT_EQ((ssize_t)m->len, write(fd, m->p, m->len));
	close(fd);
}

TEST(merge_across_files)
{
	static struct img a, b;
	char pa[64], pb[64];
	EVENT_TRACE_LOGFILEA la, lb;
	PROCESSTRACE_HANDLE h[2];
	struct seen s = { 0 };

	img_start(&a, &hdr64);
	img_buffer(&a, 0, 1, 0x20, 0);
	img_event(&a, 1100, 1, 8);
	img_event(&a, 1300, 4, 8);
	img_event(&a, 1500, 7, 8);
	img_buffer(&a, 1, 2, 0x20, 0);
	img_event(&a, 1200, 2, 8);
	img_event(&a, 1400, 6, 8);
	img_finish(&a);
	img_start(&b, &hdr64);
	img_buffer(&b, 0, 1, 0x20, 0);
	img_event(&b, 1250, 3, 8);
	img_event(&b, 1350, 5, 8);
	img_finish(&b);
	write_img(_metadata, &a, pa);
	write_img(_metadata, &b, pb);

	h[0] = open_file(pa, &la, &s, 0);
	h[1] = open_file(pb, &lb, &s, 0);
	ASSERT_NE(INVALID_PROCESSTRACE_HANDLE, h[0]);
	ASSERT_NE(INVALID_PROCESSTRACE_HANDLE, h[1]);
	EXPECT_EQ(ERROR_SUCCESS, ProcessTrace(h, 2, NULL, NULL));
	/* Both header events (id 0) first, then 1..7 by time. */
	EXPECT_STREQ("e0 b198 e0 b198 e1 e2 e3 e4 e5 bf8 e6 bf8 e7 b150 ", s.log);
	CloseTrace(h[0]);
	CloseTrace(h[1]);
	unlink(pa);
	unlink(pb);
}

/* BufferCallback right after each buffer's last event; empty ones too. */
TEST(buffer_callback_order)
{
	static struct img a;
	char path[64];
	EVENT_TRACE_LOGFILEA lf;
	PROCESSTRACE_HANDLE h;
	struct seen s = { 0 };

	img_start(&a, &hdr64);
	img_buffer(&a, 0, 1, 0x20, 0);	/* cpu 0: e1 e3 */
	img_event(&a, 1100, 1, 8);
	img_event(&a, 1300, 3, 8);
	img_buffer(&a, 1, 2, 0x20, 0);	/* cpu 1: e2 */
	img_event(&a, 1200, 2, 8);
	img_buffer(&a, 0, 3, 0x20, 0);	/* cpu 0: e4 */
	img_event(&a, 1400, 4, 0x10);
	img_buffer(&a, 1, 4, 0x20, 0);	/* cpu 1: empty */
	img_finish(&a);
	write_img(_metadata, &a, path);
	h = open_file(path, &lf, &s, 0);
	ASSERT_NE(INVALID_PROCESSTRACE_HANDLE, h);
	EXPECT_EQ(ERROR_SUCCESS, ProcessTrace(&h, 1, NULL, NULL));
	EXPECT_STREQ("e0 b198 e1 e2 ba0 b48 e3 bf8 e4 ba8 ", s.log);
	EXPECT_EQ(5, s.last_buffers_read);
	CloseTrace(h);
	unlink(path);
}

/* A corrupt buffer after good ones: what is before it, then the error. */
TEST(corrupt_file)
{
	static struct img a;
	char path[64];
	EVENT_TRACE_LOGFILEA lf;
	PROCESSTRACE_HANDLE h;
	struct seen s = { 0 };

	img_start(&a, &hdr64);
	img_buffer(&a, 0, 1, 0x20, 0);
	img_event(&a, 1100, 1, 8);
	img_buffer(&a, 0, 2, 0x20, 0);
	img_event(&a, 1200, 2, 8);
	/* Its record says it is larger than the buffer's data. */
	put_le(a.p + a.cur + 0x48, 0x400, 2);
	img_finish(&a);
	write_img(_metadata, &a, path);
	h = open_file(path, &lf, &s, 0);
	ASSERT_NE(INVALID_PROCESSTRACE_HANDLE, h);
	EXPECT_EQ(ERROR_FILE_CORRUPT, ProcessTrace(&h, 1, NULL, NULL));
	EXPECT_STREQ("e0 b198 e1 ba0 ", s.log);
	CloseTrace(h);
	unlink(path);

	/* Not an ETL file at all. */
	memset(a.p, 0x5a, 0x1000);
	a.len = 0x1000;
	write_img(_metadata, &a, path);
	h = open_file(path, &lf, &s, 0);
	EXPECT_EQ(INVALID_PROCESSTRACE_HANDLE, h);
	EXPECT_EQ(ERROR_FILE_CORRUPT, GetLastError());
	unlink(path);
}

/* Classic and instance records as EVENT_RECORD and as EVENT_TRACE. */
static EVENT_RECORD last_record;
static EVENT_TRACE last_trace;
static EVENT_HEADER_EXTENDED_DATA_ITEM last_item;
static ULONG records_seen;

static VOID WINAPI keep_record(PEVENT_RECORD r)
{
	records_seen++;
	last_record = *r;
	if (r->ExtendedDataCount)
		last_item = r->ExtendedData[0];
}

static VOID WINAPI keep_trace(PEVENT_TRACE e)
{
	records_seen++;
	last_trace = *e;
}

TEST(instance_record)
{
	static struct img a;
	char path[64];
	EVENT_TRACE_LOGFILEA lf;
	PROCESSTRACE_HANDLE h;
	uint8_t *r;

	img_start(&a, &hdr64);
	img_buffer(&a, 1, 1, 0x20, 0);
	/* EVENT_INSTANCE_GUID_HEADER (notes 3.4), 64-bit, 4 bytes of MOF data. */
	r = img_record(&a, 0x48 + 4);
	put_le(r, 0x4c, 2);
	put_le(r + 2, 0xc015, 2);
	r[4] = 0x0a;			/* Class.Type */
	r[5] = 3;			/* Class.Level */
	put_le(r + 6, 0x102, 2);	/* Class.Version */
	put_le(r + 8, 77, 4);
	put_le(r + 12, 88, 4);
	put_le(r + 0x10, 2000, 8);
	put_le(r + 0x18, 0xabcdef01, 4);
	put_le(r + 0x28, 5, 4);
	put_le(r + 0x2c, 6, 4);
	put_le(r + 0x30, 111, 4);
	put_le(r + 0x34, 222, 4);
	put_le(r + 0x38, 0x12345678, 4);
	memcpy(r + 0x48, "mof!", 4);
	img_finish(&a);
	write_img(_metadata, &a, path);

	memset(&lf, 0, sizeof(lf));
	lf.LogFileName = path;
	lf.ProcessTraceMode = PROCESS_TRACE_MODE_EVENT_RECORD;
	lf.EventRecordCallback = keep_record;
	lf.Context = &lf;
	records_seen = 0;
	h = OpenTraceA(&lf);
	ASSERT_NE(INVALID_PROCESSTRACE_HANDLE, h);
	ASSERT_EQ(ERROR_SUCCESS, ProcessTrace(&h, 1, NULL, NULL));
	CloseTrace(h);
	ASSERT_EQ(2, records_seen);
	EXPECT_EQ(0x4c, last_record.EventHeader.Size);
	EXPECT_EQ(0, last_record.EventHeader.HeaderType);
	EXPECT_EQ(EVENT_HEADER_FLAG_CLASSIC_HEADER | EVENT_HEADER_FLAG_64_BIT_HEADER |
		  EVENT_HEADER_FLAG_PROCESSOR_INDEX | EVENT_HEADER_FLAG_EXTENDED_INFO,
		  last_record.EventHeader.Flags);
	EXPECT_EQ(0x0a, last_record.EventHeader.EventDescriptor.Opcode);
	EXPECT_EQ(3, last_record.EventHeader.EventDescriptor.Level);
	EXPECT_EQ(2, last_record.EventHeader.EventDescriptor.Version);
	EXPECT_EQ(0, last_record.EventHeader.EventDescriptor.Id);
	EXPECT_EQ(77, last_record.EventHeader.ThreadId);
	EXPECT_EQ(88, last_record.EventHeader.ProcessId);
	EXPECT_EQ(0xabcdef01, last_record.EventHeader.ProviderId.Data1);
	EXPECT_EQ(5, last_record.EventHeader.KernelTime);
	EXPECT_EQ(6, last_record.EventHeader.UserTime);
	EXPECT_EQ(hdr64.start + 1000, (uint64_t)last_record.EventHeader.TimeStamp.QuadPart);
	EXPECT_EQ(1, last_record.BufferContext.ProcessorIndex);
	EXPECT_EQ(4, last_record.UserDataLength);
	EXPECT_EQ(&lf, last_record.UserContext);
	ASSERT_EQ(1, last_record.ExtendedDataCount);
	EXPECT_EQ(EVENT_HEADER_EXT_TYPE_INSTANCE_INFO, last_item.ExtType);
	EXPECT_EQ(sizeof(EVENT_EXTENDED_ITEM_INSTANCE), last_item.DataSize);
	EXPECT_EQ(0, (int)last_item.Linkage);

	lf.ProcessTraceMode = 0;
	lf.EventCallback = keep_trace;
	records_seen = 0;
	h = OpenTraceA(&lf);
	ASSERT_EQ(ERROR_SUCCESS, ProcessTrace(&h, 1, NULL, NULL));
	CloseTrace(h);
	ASSERT_EQ(2, records_seen);
	EXPECT_EQ(0x4c, last_trace.Header.Size);
	EXPECT_EQ(0x15, last_trace.Header.HeaderType);
	EXPECT_EQ(0xc0, last_trace.Header.MarkerFlags);
	EXPECT_EQ(0x0a, last_trace.Header.Class.Type);
	EXPECT_EQ(3, last_trace.Header.Class.Level);
	EXPECT_EQ(0x102, last_trace.Header.Class.Version);
	EXPECT_EQ(111, last_trace.InstanceId);
	EXPECT_EQ(222, last_trace.ParentInstanceId);
	EXPECT_EQ(0x12345678, last_trace.ParentGuid.Data1);
	EXPECT_EQ(4, last_trace.MofLength);
	EXPECT_EQ(1, last_trace.BufferContext.ProcessorIndex);
	unlink(path);
}

/*
 * A buffer without ETW_BUFFER_FLAG_PROC_INDEX (files before Windows 8):
 * ClientContext is ProcessorNumber and Alignment, handed over as stored.
 */
TEST(processor_number_and_alignment)
{
	static struct img a;
	char path[64];
	EVENT_TRACE_LOGFILEA lf;
	PROCESSTRACE_HANDLE h;

	img_start(&a, &hdr64);
	img_buffer(&a, 1, 1, 0, 0);
	a.p[a.cur + 0x29] = 8;			/* Alignment */
	put_le(a.p + a.cur + 0x2a, 0x1234, 2);	/* LoggerId */
	img_event(&a, 1100, 9, 4);
	img_finish(&a);
	write_img(_metadata, &a, path);
	records_seen = 0;
	h = open_with(path, &lf, 0, keep_record, NULL);
	ASSERT_NE(INVALID_PROCESSTRACE_HANDLE, h);
	ASSERT_EQ(ERROR_SUCCESS, ProcessTrace(&h, 1, NULL, NULL));
	CloseTrace(h);
	unlink(path);
	ASSERT_EQ(2, records_seen);
	EXPECT_EQ(9, last_record.EventHeader.EventDescriptor.Id);
	EXPECT_EQ(0, last_record.EventHeader.Flags & EVENT_HEADER_FLAG_PROCESSOR_INDEX);
	EXPECT_EQ(1, last_record.BufferContext.ProcessorNumber);
	EXPECT_EQ(8, last_record.BufferContext.Alignment);
	EXPECT_EQ(0x1234, last_record.BufferContext.LoggerId);
	EXPECT_EQ(1, GetEventProcessorIndex(&last_record));
}

/* OpenTrace's errors, through GetLastError. */
TEST(open_errors)
{
	EVENT_TRACE_LOGFILEA lf;
	EVENT_TRACE_LOGFILEW lfw;
	static const char16_t lone[] = { 0xd800, 'x', 0 };
	char dir[] = "/tmp/etw-consumer-dirXXXXXX";

	SetLastError(0);
	EXPECT_EQ(INVALID_PROCESSTRACE_HANDLE, OpenTraceA(NULL));
	EXPECT_EQ(ERROR_INVALID_PARAMETER, GetLastError());
	EXPECT_EQ(INVALID_PROCESSTRACE_HANDLE, OpenTraceW(NULL));
	EXPECT_EQ(ERROR_INVALID_PARAMETER, GetLastError());

	memset(&lf, 0, sizeof(lf));
	EXPECT_EQ(INVALID_PROCESSTRACE_HANDLE, OpenTraceA(&lf));
	EXPECT_EQ(ERROR_BAD_PATHNAME, GetLastError());
	lf.LogFileName = "";
	EXPECT_EQ(INVALID_PROCESSTRACE_HANDLE, OpenTraceA(&lf));
	EXPECT_EQ(ERROR_BAD_PATHNAME, GetLastError());
	/* A logger name without PROCESS_TRACE_MODE_REAL_TIME is not used. */
	lf.LogFileName = NULL;
	lf.LoggerName = "session";
	EXPECT_EQ(INVALID_PROCESSTRACE_HANDLE, OpenTraceA(&lf));
	EXPECT_EQ(ERROR_BAD_PATHNAME, GetLastError());
	/* Real time needs the logger name. */
	lf.LoggerName = NULL;
	lf.LogFileName = "/tmp/x.etl";
	lf.ProcessTraceMode = PROCESS_TRACE_MODE_REAL_TIME;
	EXPECT_EQ(INVALID_PROCESSTRACE_HANDLE, OpenTraceA(&lf));
	EXPECT_EQ(ERROR_BAD_PATHNAME, GetLastError());

	lf.ProcessTraceMode = 0;
	lf.LogFileName = "/nonexistent-dir/trace.etl";
	EXPECT_EQ(INVALID_PROCESSTRACE_HANDLE, OpenTraceA(&lf));
	EXPECT_EQ(ERROR_FILE_NOT_FOUND, GetLastError());
	lf.LogFileName = "/etc/hostname/trace.etl";
	EXPECT_EQ(INVALID_PROCESSTRACE_HANDLE, OpenTraceA(&lf));
	EXPECT_EQ(ERROR_PATH_NOT_FOUND, GetLastError());
	ASSERT_NE(NULL, mkdtemp(dir));
	lf.LogFileName = dir;
	EXPECT_EQ(INVALID_PROCESSTRACE_HANDLE, OpenTraceA(&lf));
	EXPECT_EQ(ERROR_ACCESS_DENIED, GetLastError());
	rmdir(dir);

	memset(&lfw, 0, sizeof(lfw));
	lfw.LogFileName = (LPWSTR)lone;
	EXPECT_EQ(INVALID_PROCESSTRACE_HANDLE, OpenTraceW(&lfw));
	EXPECT_EQ(ERROR_BAD_PATHNAME, GetLastError());
}

/* ProcessTrace's and CloseTrace's argument errors. */
TEST(process_errors)
{
	PROCESSTRACE_HANDLE bad[2] = { 0, 12345 };
	PROCESSTRACE_HANDLE h[2], rt[2];
	EVENT_TRACE_LOGFILEA lf, lr;
	struct seen s = { 0 };
	char path[1024];

	EXPECT_EQ(ERROR_INVALID_PARAMETER, ProcessTrace(NULL, 1, NULL, NULL));
	EXPECT_EQ(ERROR_INVALID_PARAMETER, GetLastError());
	EXPECT_EQ(ERROR_BAD_LENGTH, ProcessTrace(bad, 0, NULL, NULL));
	EXPECT_EQ(ERROR_INVALID_HANDLE, ProcessTrace(bad, 1, NULL, NULL));
	EXPECT_EQ(ERROR_INVALID_HANDLE, ProcessTrace(&bad[1], 1, NULL, NULL));
	bad[0] = INVALID_PROCESSTRACE_HANDLE;
	EXPECT_EQ(ERROR_INVALID_HANDLE, ProcessTrace(bad, 1, NULL, NULL));

	EXPECT_EQ(ERROR_INVALID_HANDLE, CloseTrace(0));
	EXPECT_EQ(ERROR_INVALID_HANDLE, GetLastError());
	EXPECT_EQ(ERROR_INVALID_HANDLE, CloseTrace(INVALID_PROCESSTRACE_HANDLE));
	EXPECT_EQ(ERROR_INVALID_HANDLE, CloseTrace(12345));

	/* A real-time handle: no session of that name runs. */
	memset(&lr, 0, sizeof(lr));
	lr.LoggerName = "etw-consumer-test-no-such-session";
	lr.ProcessTraceMode = PROCESS_TRACE_MODE_REAL_TIME |
			      PROCESS_TRACE_MODE_EVENT_RECORD;
	rt[0] = OpenTraceA(&lr);
	ASSERT_NE(INVALID_PROCESSTRACE_HANDLE, rt[0]);
	rt[1] = OpenTraceA(&lr);
	ASSERT_NE(INVALID_PROCESSTRACE_HANDLE, rt[1]);
	EXPECT_NE(rt[0], rt[1]);
	EXPECT_EQ(ERROR_WMI_INSTANCE_NOT_FOUND, ProcessTrace(rt, 1, NULL, NULL));
	/* More than one real-time handle. */
	EXPECT_EQ(ERROR_INVALID_PARAMETER, ProcessTrace(rt, 2, NULL, NULL));

	EXPECT_TRUE(have_sample("etlparser-lxcore_kernel.etl"));
	sample_path("etlparser-lxcore_kernel.etl", path, sizeof(path));
	h[0] = open_file(path, &lf, &s, 0);
	ASSERT_NE(INVALID_PROCESSTRACE_HANDLE, h[0]);
	/* A file and a real-time session together. */
	h[1] = rt[0];
	EXPECT_EQ(ERROR_INVALID_PARAMETER, ProcessTrace(h, 2, NULL, NULL));
	/* The same handle twice. */
	h[1] = h[0];
	EXPECT_EQ(ERROR_INVALID_PARAMETER, ProcessTrace(h, 2, NULL, NULL));
	/* A closed handle, then a handle closed twice. */
	EXPECT_EQ(0, s.events);
	EXPECT_EQ(ERROR_SUCCESS, CloseTrace(h[0]));
	EXPECT_EQ(ERROR_INVALID_HANDLE, ProcessTrace(h, 1, NULL, NULL));
	EXPECT_EQ(ERROR_INVALID_HANDLE, CloseTrace(h[0]));
	EXPECT_EQ(ERROR_SUCCESS, CloseTrace(rt[0]));
	EXPECT_EQ(ERROR_SUCCESS, CloseTrace(rt[1]));
}

/* A ProcessTrace on another thread holds the handle: ERROR_BUSY here. */
struct busy_ctx {
	PROCESSTRACE_HANDLE h;
	pthread_mutex_t lock;
	pthread_cond_t cond;
	bool in_callback;
	bool release;
	ULONG result;
};

static VOID WINAPI on_block(PEVENT_RECORD r)
{
	struct busy_ctx *b = r->UserContext;

	pthread_mutex_lock(&b->lock);
	b->in_callback = true;
	pthread_cond_broadcast(&b->cond);
	while (!b->release)
		pthread_cond_wait(&b->cond, &b->lock);
	pthread_mutex_unlock(&b->lock);
}

static void *process_thread(void *arg)
{
	struct busy_ctx *b = arg;

	b->result = ProcessTrace(&b->h, 1, NULL, NULL);
	return NULL;
}

TEST(busy_and_close_pending)
{
	struct busy_ctx b = { .lock = PTHREAD_MUTEX_INITIALIZER,
			      .cond = PTHREAD_COND_INITIALIZER };
	EVENT_TRACE_LOGFILEA lf;
	char path[1024];
	pthread_t th;

	NEED_SAMPLE("krabsetw-powershell.etl", path);
	b.h = open_with(path, &lf, 0, on_block, &b);
	ASSERT_NE(INVALID_PROCESSTRACE_HANDLE, b.h);
	ASSERT_EQ(0, pthread_create(&th, NULL, process_thread, &b));
	pthread_mutex_lock(&b.lock);
	while (!b.in_callback)
		pthread_cond_wait(&b.cond, &b.lock);
	pthread_mutex_unlock(&b.lock);

	EXPECT_EQ(ERROR_BUSY, ProcessTrace(&b.h, 1, NULL, NULL));
	EXPECT_EQ(ERROR_CTX_CLOSE_PENDING, CloseTrace(b.h));
	EXPECT_EQ(ERROR_INVALID_HANDLE, CloseTrace(b.h));

	pthread_mutex_lock(&b.lock);
	b.release = true;
	pthread_cond_broadcast(&b.cond);
	pthread_mutex_unlock(&b.lock);
	pthread_join(th, NULL);
	EXPECT_EQ(ERROR_SUCCESS, b.result);
}

TEST_HARNESS_MAIN
