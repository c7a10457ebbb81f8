// SPDX-License-Identifier: MIT
/*
 * One record as ProcessTrace presents it: an EVENT_RECORD for
 * PROCESS_TRACE_MODE_EVENT_RECORD consumers, an EVENT_TRACE for classic
 * ones, whatever header family the record was stored with (etw-api.md
 * 4.3).  The reader (etl/record.c) has already worked out what Windows
 * adds: the EVENT_HEADER_FLAG_* bits of the header family, pointer size
 * and processor index, the provider of a kernel hook, the MOF type as the
 * opcode, instance ids and kernel PEBS/PMC data as extended items.
 *
 * EVENT_HEADER records are given as stored, so their HeaderType word
 * (0xC012, 0xC013) stays; other families get 0 there [inferred: Windows
 * documents the field as reserved].  ETW_BUFFER_CONTEXT is the buffer
 * header's ClientContext as stored: ProcessorNumber and Alignment, or the
 * 16-bit ProcessorIndex of EVENT_HEADER_FLAG_PROCESSOR_INDEX buffers, and
 * the LoggerId.  UserData, ExtendedData and the items' DataPtr point into
 * the file's mapping (or the real-time buffer) and are valid during the
 * callback only.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "consumer.h"
#include "../common/utf.h"

static uint32_t le(const uint8_t *p, size_t n)
{
	return (uint32_t)etl_get_le(p, n);
}

static void set_guid(GUID *g, const struct etw_etl_guid *e)
{
	g->Data1 = e->data1;
	g->Data2 = e->data2;
	g->Data3 = e->data3;
	memcpy(g->Data4, e->data4, sizeof(g->Data4));
}

static bool is_event_header(const struct etw_etl_event *ev)
{
	return ev->kind == ETW_ETL_KIND_EVENT || ev->kind == ETW_ETL_KIND_ERROR;
}

static void fill_items(struct etw_trace *t, const struct etw_etl_event *ev,
		       EVENT_RECORD *r)
{
	for (uint32_t i = 0; i < ev->ext_count; i++) {
		EVENT_HEADER_EXTENDED_DATA_ITEM *x = &t->items[i];

		memset(x, 0, sizeof(*x));
		x->ExtType = ev->ext[i].type;
		x->Linkage = i + 1 < ev->ext_count;
		x->DataSize = ev->ext[i].size;
		x->DataPtr = (ULONGLONG)(uintptr_t)ev->ext[i].data;
	}
	r->ExtendedDataCount = (USHORT)ev->ext_count;
	r->ExtendedData = ev->ext_count ? t->items : NULL;
}

static void fill_record(struct etw_trace *t, const struct etw_etl_event *ev,
			const uint8_t *buf, uint64_t time, EVENT_RECORD *r)
{
	EVENT_HEADER *h = &r->EventHeader;
	EVENT_DESCRIPTOR *d = &h->EventDescriptor;

	memset(r, 0, sizeof(*r));
	h->Size = ev->size;
	if (is_event_header(ev))
		h->HeaderType = le((const uint8_t *)ev->record + 2, 2);
	h->Flags = ev->flags;
	h->EventProperty = ev->event_property;
	h->ThreadId = ev->thread_id;
	h->ProcessId = ev->process_id;
	h->TimeStamp.QuadPart = (LONGLONG)time;
	set_guid(&h->ProviderId, &ev->provider);
	d->Id = ev->id;
	d->Version = (UCHAR)ev->version;
	d->Channel = ev->channel;
	d->Level = ev->level;
	d->Opcode = ev->opcode;
	d->Task = ev->task;
	d->Keyword = ev->keyword;
	h->KernelTime = ev->kernel_time;
	h->UserTime = ev->user_time;
	set_guid(&h->ActivityId, &ev->activity_id);

	r->BufferContext.ProcessorIndex = le(buf + 0x28, 2);
	r->BufferContext.LoggerId = le(buf + 0x2a, 2);
	fill_items(t, ev, r);
	r->UserDataLength = (USHORT)ev->data_size;
	r->UserData = (PVOID)ev->data;
	r->UserContext = t->lf.Context;
}

/* The EVENT_TRACE a PEVENT_CALLBACK gets (and CurrentEvent holds). */
static void fill_trace(const EVENT_RECORD *r, const struct etw_etl_event *ev,
		       EVENT_TRACE *e)
{
	const EVENT_HEADER *h = &r->EventHeader;
	const uint8_t *rec = ev->record;
	bool classic = ev->kind == ETW_ETL_KIND_CLASSIC ||
		       ev->kind == ETW_ETL_KIND_INSTANCE;
	size_t size = sizeof(EVENT_TRACE_HEADER) + r->UserDataLength;

	memset(e, 0, sizeof(*e));
	e->Header.Size = classic ? ev->size : (USHORT)(size > 0xffff ? 0xffff : size);
	e->Header.HeaderType = rec[2];
	e->Header.MarkerFlags = rec[3];
	e->Header.Class.Type = ev->opcode;
	e->Header.Class.Level = ev->level;
	e->Header.Class.Version = ev->version;
	e->Header.ThreadId = h->ThreadId;
	e->Header.ProcessId = h->ProcessId;
	e->Header.TimeStamp = h->TimeStamp;
	e->Header.Guid = h->ProviderId;
	e->Header.KernelTime = h->KernelTime;
	e->Header.UserTime = h->UserTime;
	for (uint32_t i = 0; i < ev->ext_count; i++) {
		const uint8_t *p = ev->ext[i].data;
		struct etw_etl_guid g;

		if (ev->ext[i].type != ETW_ETL_EXT_INSTANCE_INFO ||
		    ev->ext[i].size < sizeof(EVENT_EXTENDED_ITEM_INSTANCE))
			continue;
		e->InstanceId = le(p, 4);
		e->ParentInstanceId = le(p + 4, 4);
		etl_get_guid(p + 8, &g);
		set_guid(&e->ParentGuid, &g);
	}
	e->MofData = r->UserData;
	e->MofLength = r->UserDataLength;
	e->BufferContext = r->BufferContext;
}

void etw_consumer_deliver(struct etw_trace *t, const struct etw_etl_event *ev,
			  const uint8_t *buf, uint64_t filetime)
{
	EVENT_RECORD r;
	EVENT_TRACE e;
	uint64_t time = filetime;

	if (t->mode & PROCESS_TRACE_MODE_RAW_TIMESTAMP)
		time = ev->has & ETW_ETL_HAS_TIMESTAMP ? ev->timestamp : 0;
	fill_record(t, ev, buf, time, &r);
	fill_trace(&r, ev, &t->lf.CurrentEvent);
	t->last_time = filetime;
	t->lf.CurrentTime = (LONGLONG)filetime;
	if (t->mode & PROCESS_TRACE_MODE_EVENT_RECORD) {
		if (t->lf.EventRecordCallback)
			t->lf.EventRecordCallback(&r);
	} else if (t->lf.EventCallback) {
		e = t->lf.CurrentEvent;
		t->lf.EventCallback(&e);
	}
}

bool etw_consumer_buffer_done(struct etw_trace *t, const uint8_t *buf)
{
	t->lf.BuffersRead++;
	t->lf.BufferSize = le(buf, 4);
	t->lf.Filled = le(buf + 4, 4);
	if (!t->lf.BufferCallback)
		return true;
	return t->lf.BufferCallback(&t->lf) != FALSE;
}

ETW_EXPORT unsigned int etw_etl_win32_error(int err)
{
	switch (err) {
	case -ENOENT:
		return ERROR_FILE_NOT_FOUND;
	case -ENOTDIR:
		return ERROR_PATH_NOT_FOUND;
	case -ENAMETOOLONG:
		return ERROR_BAD_PATHNAME;
	case -EACCES:
	case -EPERM:
	case -EISDIR:
		return ERROR_ACCESS_DENIED;
	case -ENOMEM:
	case -EFBIG:
		return ERROR_NOT_ENOUGH_MEMORY;
	case -EOPNOTSUPP:
		return ERROR_NOT_SUPPORTED;
	default:
		/* Corrupt or truncated (-EBADMSG), or unreadable. */
		return ERROR_FILE_CORRUPT;
	}
}

/* A UTF-8 name as a new NUL-terminated UTF-16 string. */
static char16_t *utf16_dup(const char *s)
{
	size_t len = strlen(s);
	ssize_t n = etw_utf8_to_utf16(s, len, NULL, 0);
	char16_t *w;

	if (n < 0)
		n = 0;
	w = calloc(n + 1, sizeof(*w));
	if (w && n && etw_utf8_to_utf16(s, len, w, n + 1) < 0)
		w[0] = 0;
	return w;
}

ULONG etw_consumer_set_header(struct etw_trace *t,
			      const struct etw_etl_header *h,
			      const uint8_t *time_zone)
{
	TRACE_LOGFILE_HEADER *lh = &t->lf.LogfileHeader;

	t->logger_name = utf16_dup(h->logger_name);
	t->log_file_name = utf16_dup(h->log_file_name);
	if (!t->logger_name || !t->log_file_name)
		return ERROR_NOT_ENOUGH_MEMORY;
	memset(lh, 0, sizeof(*lh));
	lh->BufferSize = h->buffer_size;
	lh->Version = h->version;
	lh->ProviderVersion = h->provider_version;
	lh->NumberOfProcessors = h->number_of_processors;
	lh->EndTime.QuadPart = (LONGLONG)h->end_time;
	lh->TimerResolution = h->timer_resolution;
	lh->MaximumFileSize = h->maximum_file_size;
	lh->LogFileMode = h->log_file_mode;
	lh->BuffersWritten = h->buffers_written;
	lh->StartBuffers = h->start_buffers;
	lh->PointerSize = h->pointer_size;
	lh->EventsLost = h->events_lost;
	lh->CpuSpeedInMHz = h->cpu_speed_mhz;
	/* In memory these are the names, not the file's timer sources. */
	lh->LoggerName = (LPWSTR)t->logger_name;
	lh->LogFileName = (LPWSTR)t->log_file_name;
	/* TIME_ZONE_INFORMATION as stored: the same little-endian layout. */
	if (time_zone)
		memcpy(&lh->TimeZone, time_zone, sizeof(lh->TimeZone));
	lh->BootTime.QuadPart = (LONGLONG)h->boot_time;
	lh->PerfFreq.QuadPart = (LONGLONG)h->perf_freq;
	lh->StartTime.QuadPart = (LONGLONG)h->start_time;
	lh->ReservedFlags = h->reserved_flags;
	lh->BuffersLost = h->buffers_lost;

	t->lf.BufferSize = h->buffer_size;
	/*
	 * The NT Kernel Logger's data, or a system logger's, which carries
	 * the same kernel events [inferred: Windows says "NT Kernel Logger"].
	 */
	t->lf.IsKernelTrace = !strcasecmp(h->logger_name, KERNEL_LOGGER_NAMEA) ||
			      (h->log_file_mode & EVENT_TRACE_SYSTEM_LOGGER_MODE);
	return ERROR_SUCCESS;
}
