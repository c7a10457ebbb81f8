/* SPDX-License-Identifier: MIT */
/*
 * Writing ETL files from session buffers.
 *
 * A session buffer already is an ETL buffer, so the writer adds only
 * buffer 0 (the header buffer with the "EventTrace Header" event and its
 * TRACE_LOGFILE_HEADER) and copies every buffer it is given unchanged.
 * Buffer 0 is written first as a placeholder and rewritten by close with
 * the final EndTime, BuffersWritten, EventsLost and BuffersLost.  Where
 * the file system allows it, session buffers are written with O_DIRECT
 * straight from where they are (Documentation/logger.rst, "Writing").
 * Functions return 0 or a negative errno.
 */
#ifndef ETW_ETL_WRITER_H
#define ETW_ETL_WRITER_H

#include <linux/etw.h>

#ifdef __cplusplus
extern "C" {
#endif

struct etw_etl_writer;

/* EVENT_TRACE_USE_KBYTES_FOR_SIZE: max_file_size is in KiB, not MiB. */
#define ETW_ETL_WRITER_KBYTES	0x00002000

/**
 * struct etw_etl_writer_opts - how the file is written
 * @mode: the LogFileMode file bits: EVENT_TRACE_FILE_MODE_SEQUENTIAL (or
 *	0): buffers are appended; with @max_file_size, buffers that do not
 *	fit are not written and counted in BuffersLost.  _CIRCULAR: a file
 *	of @max_file_size whose oldest buffers are overwritten, buffer 0
 *	kept.  _NEWFILE: the path holds one %d; a new file (1, 2, ...) each
 *	@max_file_size.  _APPEND: an existing file with the same buffer size
 *	is continued.  %ETW_ETL_WRITER_KBYTES: @max_file_size is in KiB.
 * @max_file_size: MaximumFileSize in MiB (KiB), 0: no bound
 * @resume: a logger that restarts: continue the file (for NEWFILE the
 *	highest-numbered one) and skip buffers whose SequenceNumber it holds
 * @buffers_lost: BuffersLost so far (a restarted logger's predecessor's)
 */
struct etw_etl_writer_opts {
	unsigned int mode;
	unsigned int max_file_size;
	int resume;
	unsigned int buffers_lost;
};

/* Create (truncate) @path for the session @info (as ETW_IOC_SESSION_START returned it). */
int etw_etl_writer_open(struct etw_etl_writer **w, const char *path,
			const struct etw_session_info *info);

/* The same, in the way @opts says. */
int etw_etl_writer_open_ex(struct etw_etl_writer **w, const char *path,
			   const struct etw_session_info *info,
			   const struct etw_etl_writer_opts *opts);

/* 0 if @path holds exactly one %d and no other %, as NEWFILE needs; -EINVAL. */
int etw_etl_writer_check_pattern(const char *path);

/*
 * Write one session buffer (info->buffer_size_kb KiB, as the module made
 * it) where the mode puts it; a buffer that does not fit a full
 * sequential file is counted in BuffersLost, its events are added to the
 * header's EventsLost (so that events written = events in the file +
 * EventsLost), and 0 is returned.
 */
int etw_etl_writer_buffer(struct etw_etl_writer *w, const void *buffer);

/*
 * Write @n buffers as etw_etl_writer_buffer() writes each, but those
 * that go to consecutive places of the file in one system call.  *@failed
 * (if not NULL): how many could not be written; returns 0 or the first
 * error.  The logger writes what one wake-up found ready this way.
 */
int etw_etl_writer_buffers(struct etw_etl_writer *w, const void *const *buffers,
			   unsigned int n, unsigned int *failed);

/* Buffers in the current file, buffer 0 included. */
unsigned int etw_etl_writer_count(const struct etw_etl_writer *w);

/*
 * 1 while session buffers go to the file with O_DIRECT (the file system
 * took it and no transfer was refused yet), 0 while they are written
 * through the page cache.
 */
int etw_etl_writer_direct(const struct etw_etl_writer *w);

/* Buffers not written (BuffersLost), the predecessor's included. */
unsigned int etw_etl_writer_lost(const struct etw_etl_writer *w);

/*
 * Mark the file's last buffer with FLUSH_MARKER, rewrite buffer 0 with the
 * final statistics in @final (the session as stopped or queried; NULL keeps
 * the ones given to open) and close.  Frees @w whatever the result.
 */
int etw_etl_writer_close(struct etw_etl_writer *w,
			 const struct etw_session_info *final);

#ifdef __cplusplus
}
#endif

#endif /* ETW_ETL_WRITER_H */
