/* SPDX-License-Identifier: MIT */
/*
 * Writing ETL files from session buffers.
 *
 * A session buffer already is an ETL buffer, so the writer adds only
 * buffer 0 (the header buffer with the "EventTrace Header" event and its
 * TRACE_LOGFILE_HEADER) and copies every buffer it is given unchanged.
 * Buffer 0 is written first as a placeholder and rewritten by close with
 * the final EndTime, BuffersWritten, EventsLost and BuffersLost.
 * Functions return 0 or a negative errno.
 */
#ifndef ETW_ETL_WRITER_H
#define ETW_ETL_WRITER_H

#include <linux/etw.h>

#ifdef __cplusplus
extern "C" {
#endif

struct etw_etl_writer;

/* Create (truncate) @path for the session @info (as ETW_IOC_SESSION_START returned it). */
int etw_etl_writer_open(struct etw_etl_writer **w, const char *path,
			const struct etw_session_info *info);

/* Append one session buffer (info->buffer_size_kb KiB, as the module made it). */
int etw_etl_writer_buffer(struct etw_etl_writer *w, const void *buffer);

/* Buffers written so far, buffer 0 included. */
unsigned int etw_etl_writer_count(const struct etw_etl_writer *w);

/*
 * Rewrite buffer 0 with the final statistics in @final (the session as
 * stopped or queried; NULL keeps the ones given to open) and close.
 * Frees @w whatever the result.
 */
int etw_etl_writer_close(struct etw_etl_writer *w,
			 const struct etw_session_info *final);

#ifdef __cplusplus
}
#endif

#endif /* ETW_ETL_WRITER_H */
