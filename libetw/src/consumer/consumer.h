/* SPDX-License-Identifier: MIT */
/*
 * What the consumer files share (OpenTrace, ProcessTrace, CloseTrace):
 * the trace object behind a PROCESSTRACE_HANDLE, the delivery of one
 * record as Windows presents it (event.c), files merged in time
 * order (file.c) and real-time sessions (realtime.c).
 */
#ifndef LIBETW_CONSUMER_H
#define LIBETW_CONSUMER_H

#include <stdatomic.h>
#include <stdbool.h>
#include <uchar.h>

#include <windows.h>
#include <evntrace.h>
#include <evntcons.h>

#include "../etl/internal.h"

/*
 * One OpenTrace: a log file or a real-time session.  Everything but the
 * processing state belongs to whoever processes it; busy, closed and
 * stop are changed under the handle table's lock (consumer.c).
 */
struct etw_trace {
	PROCESSTRACE_HANDLE handle;
	bool realtime;
	ULONG mode;			/* PROCESS_TRACE_MODE_* */
	/*
	 * What the BufferCallback gets, as Windows gives it: a copy of the
	 * caller's EVENT_TRACE_LOGFILE as OpenTrace left it, whose
	 * CurrentTime, BuffersRead, CurrentEvent, BufferSize and Filled
	 * follow the processing.  The A and W layouts are the same.
	 */
	EVENT_TRACE_LOGFILEW lf;
	char *name;			/* the file or session, UTF-8 */
	char16_t *logger_name;		/* LogfileHeader.LoggerName */
	char16_t *log_file_name;	/* LogfileHeader.LogFileName */
	struct etw_etl *etl;		/* the file's reader; a real-time view */
	EVENT_HEADER_EXTENDED_DATA_ITEM *items;	/* ETL_MAX_EXT of them */
	uint64_t last_time;		/* FILETIME of the last record */

	bool busy;			/* a ProcessTrace runs on it */
	bool closed;			/* CloseTrace came while busy */
	atomic_bool *stop;		/* that ProcessTrace's stop flag */
};

/* ProcessTrace's StartTime and EndTime as FILETIMEs, inclusive. */
struct etw_window {
	uint64_t start;			/* 0 without a StartTime */
	uint64_t end;			/* UINT64_MAX without an EndTime */
};

/* The delivery of one ProcessTrace call. */
struct etw_run {
	struct etw_window window;
	atomic_bool stop;		/* CloseTrace: finish and return */
};

/*
 * Hand one record to the trace's callback as an EVENT_RECORD or, without
 * PROCESS_TRACE_MODE_EVENT_RECORD, as an EVENT_TRACE.  @buf is the
 * record's buffer (its 0x48-byte header gives ETW_BUFFER_CONTEXT),
 * @filetime the record's time.
 */
void etw_consumer_deliver(struct etw_trace *t, const struct etw_etl_event *ev,
			  const uint8_t *buf, uint64_t filetime);

/*
 * A buffer's records are all delivered: update the logfile's buffer
 * fields and call the BufferCallback.  False if it said stop.
 */
bool etw_consumer_buffer_done(struct etw_trace *t, const uint8_t *buf);


/* file.c */
ULONG etw_file_open(struct etw_trace *t);
ULONG etw_file_process(struct etw_trace **traces, ULONG n, struct etw_run *run);

/* realtime.c */
ULONG etw_realtime_open(struct etw_trace *t);
ULONG etw_realtime_process(struct etw_trace *t, struct etw_run *run);

/*
 * TRACE_LOGFILE_HEADER from what the reader knows; the names point to
 * the trace's UTF-16 copies (event.c).
 */
ULONG etw_consumer_set_header(struct etw_trace *t,
			      const struct etw_etl_header *h,
			      const uint8_t *time_zone);

#endif /* LIBETW_CONSUMER_H */
