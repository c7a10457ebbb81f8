// SPDX-License-Identifier: MIT
/*
 * ProcessTrace on a real-time session (PROCESS_TRACE_MODE_REAL_TIME).
 *
 * As on Windows, OpenTrace does not need the session to run: it fills
 * LogfileHeader from the session if it runs (zeros otherwise), and
 * ProcessTrace fails with ERROR_WMI_INSTANCE_NOT_FOUND if the session
 * does not run or is not in EVENT_TRACE_REAL_TIME_MODE.  Then buffers are
 * delivered as the session hands them over (full, flushed by FlushTimer
 * or by a FLUSH), each buffer's records in order and then its
 * BufferCallback; buffers of different processors are not merged in time
 * order, as on Windows.  No header event is delivered in real time.
 *
 * ProcessTrace returns ERROR_SUCCESS when the session stops, when
 * CloseTrace asks (after the buffer being delivered), or at the first
 * event after EndTime; ERROR_CANCELLED when the BufferCallback says so.
 * Events before StartTime are skipped.
 *
 * In the header of a real-time consumer Windows leaves EndTime,
 * BuffersWritten, EventsLost and BuffersLost 0; so does this file, and it
 * fills what the module knows about the session and its clock.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "consumer.h"
#include "../controller/controller.h"
#include "rt_buffers.h"

/* How long one wait for a buffer lasts before the stop flag is looked at. */
#define WAIT_MS		50

/* The header a real-time consumer gets, from the module's session info. */
static void session_header(const struct etw_session_info *info,
			   struct etw_etl_header *h)
{
	memset(h, 0, sizeof(*h));
	h->buffer_size = info->buffer_size_kb * 1024;
	h->version = 0x0501000a;	/* as the ETL writer: 10.0, layout 1.5 */
	h->provider_version = 19041;
	h->number_of_processors = (uint32_t)sysconf(_SC_NPROCESSORS_CONF);
	h->timer_resolution = 10000;	/* processor time is in ms */
	h->log_file_mode = info->log_file_mode;
	h->start_buffers = 1;
	h->pointer_size = 8;		/* the module's records */
	h->perf_freq = info->frequency;
	h->start_time = info->start_time;
	h->reserved_flags = info->clock_type;
	h->logger_name = info->name;
	h->log_file_name = "";
	h->sync_timestamp = info->start_ticks;
	h->header_pointer_size = 8;
}

static ULONG attach_error(int err)
{
	if (err == -ENOENT)
		return ERROR_WMI_INSTANCE_NOT_FOUND;
	if (err == -EACCES || err == -EPERM)
		return ERROR_ACCESS_DENIED;
	if (err == -EBUSY)
		return ERROR_BUSY;	/* the session has a consumer (its logger) */
	return etw_device_error(err);
}

ULONG etw_realtime_open(struct etw_trace *t)
{
	struct etw_session_info info;
	struct etw_etl_header h;
	int ret;

	ret = etw_rt_attach(t->name, &info, NULL);
	if (ret == -EACCES || ret == -EPERM)
		return ERROR_ACCESS_DENIED;
	if (!ret) {
		session_header(&info, &h);
	} else {
		memset(&h, 0, sizeof(h));
		h.logger_name = t->name;
		h.log_file_name = "";
	}
	return etw_consumer_set_header(t, &h, NULL);
}

/* Deliver one buffer's records; false once one is past EndTime. */
static bool deliver_buffer(struct etw_trace *t, const uint8_t *buf,
			   const struct etw_window *w)
{
	struct etw_etl_event ev;
	uint32_t pos = ETL_BUFFER_HEADER_SIZE, next;
	uint64_t time = t->last_time;

	while (etl_parse_record(t->etl, 0, pos, NULL, &ev, &next) > 0) {
		if (ev.has & ETW_ETL_HAS_FILETIME)
			time = ev.filetime;
		if (time > w->end)
			return false;
		if (time >= w->start)
			etw_consumer_deliver(t, &ev, buf, time);
		pos = next;
	}
	return true;
}

static ULONG consume(struct etw_trace *t, struct etw_rt_source *src,
		     uint8_t *buf, uint32_t size, struct etw_run *run)
{
	int ret;

	while (!atomic_load(&run->stop)) {
		ret = etw_rt_next(src, buf, WAIT_MS);
		if (ret == -ENOENT)
			return ERROR_SUCCESS;	/* the session stopped */
		if (ret < 0)
			return etw_win32_error(ret, ETW_ERR_CONTROL);
		if (!ret)
			continue;
		/* The module's buffers are well formed; skip one that is not. */
		if (etl_view_set(t->etl, buf, size, NULL) < 0)
			continue;
		if (!deliver_buffer(t, buf, &run->window))
			return ERROR_SUCCESS;
		if (!etw_consumer_buffer_done(t, buf))
			return ERROR_CANCELLED;
	}
	return ERROR_SUCCESS;
}

ULONG etw_realtime_process(struct etw_trace *t, struct etw_run *run)
{
	struct etw_session_info info;
	struct etw_rt_source *src;
	struct etw_etl_header h;
	uint8_t *buf;
	ULONG err;
	int ret;

	ret = etw_rt_attach(t->name, &info, &src);
	if (ret)
		return attach_error(ret);
	err = ERROR_WMI_INSTANCE_NOT_FOUND;
	if (!(info.log_file_mode & ETW_MODE_REAL_TIME))
		goto out_detach;
	/* The session's clock, in case it is not the one OpenTrace saw. */
	session_header(&info, &h);
	etw_etl_close(t->etl);
	t->etl = etl_view_new(&h);
	buf = malloc(info.buffer_size_kb * 1024);
	err = ERROR_NOT_ENOUGH_MEMORY;
	if (!t->etl || !buf)
		goto out_free;
	t->lf.BuffersRead = 0;
	t->lf.CurrentTime = 0;
	t->lf.Filled = 0;
	err = consume(t, src, buf, info.buffer_size_kb * 1024, run);
out_free:
	free(buf);
out_detach:
	etw_rt_detach(src);
	return err;
}
