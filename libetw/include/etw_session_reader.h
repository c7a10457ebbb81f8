/* SPDX-License-Identifier: MIT */
/*
 * Reading a session's buffers through the mmap consumer protocol
 * (Documentation/userspace-api/consumer.rst): attach, wait for full
 * buffers, take them one by one in SequenceNumber order, give them back.
 * Used by the logger (`etw logger`) and by real-time consumers.  A reader
 * is used by one thread at a time.  Functions return 0 or a negative errno.
 */
#ifndef ETW_SESSION_READER_H
#define ETW_SESSION_READER_H

#include <linux/etw.h>

#ifdef __cplusplus
extern "C" {
#endif

struct etw_session_reader;

/*
 * Attach to session @logger_id through the /dev/etw descriptor @dev
 * (ETW_CONSUMER_F_LOGGER in @flags: STOP waits for this reader to close).
 * -EBUSY: the session already has a consumer.
 */
int etw_session_reader_attach(struct etw_session_reader **r, int dev,
			      unsigned int logger_id, unsigned int flags);

/*
 * The same, for the session @logger_id whose GUID is @guid (16 bytes, or
 * NULL: any).  A logger (ETW_CONSUMER_F_LOGGER) also finds the stopped
 * session kept for it (ETW_CTRL_KEEP) that way, after the logger before
 * it died: -ENOENT once it is drained or discarded.
 */
int etw_session_reader_attach_guid(struct etw_session_reader **r, int dev,
				   unsigned int logger_id,
				   const unsigned char *guid, unsigned int flags);

/* The consumer fd, for poll() (POLLIN: buffers; POLLHUP: stopped, drained). */
int etw_session_reader_fd(const struct etw_session_reader *r);

/* Bytes of one buffer. */
unsigned int etw_session_reader_buffer_size(const struct etw_session_reader *r);

/*
 * Give back the buffers taken so far (a caller that waits is done with
 * them), then wait up to @timeout_ms (-1: forever) for a buffer.  1: one
 * is ready (with a watermark: that many, or fewer that a flush delivered
 * or the session needs back soon);
 * 0: timed out; -ESHUTDOWN: the session stopped and every buffer was read
 * and given back.
 */
int etw_session_reader_wait(struct etw_session_reader *r, int timeout_ms);

/*
 * Be woken for @buffers ready buffers at once rather than for each (0:
 * for each, the default); the kernel wakes the reader sooner when a flush
 * delivers buffers or the session runs low on them, so a @buffers the
 * pool cannot reach means "when low or flushed" (uapi/linux/etw.h, "The
 * wake-up watermark").
 * On a module without it, the reader is woken for each buffer.
 */
void etw_session_reader_set_watermark(struct etw_session_reader *r,
				      unsigned int buffers);

/*
 * The session's MaximumBuffers now, as the kernel shows it to the reader
 * (raised by ControlTrace UPDATE); 0 from a module that does not show it.
 * A reader whose watermark is a share of the pool re-reads it when woken.
 */
unsigned int etw_session_reader_max_buffers(const struct etw_session_reader *r);

/*
 * The next published buffer not yet taken, or NULL.  It stays valid until
 * it is given back by etw_session_reader_release().
 */
const void *etw_session_reader_next(struct etw_session_reader *r);

/* Give back every buffer taken so far. */
void etw_session_reader_release(struct etw_session_reader *r);

/* Report LogBuffersLost (buffers the reader could not write). */
void etw_session_reader_set_log_buffers_lost(struct etw_session_reader *r,
					     unsigned int n);

/*
 * A logger (ETW_CONSUMER_F_LOGGER) that another will replace if it dies:
 * @keep 1 has the kernel keep the session when it stops until a logger
 * drained it (ETW_CTRL_KEEP); 0 (the default) gives that up.
 */
void etw_session_reader_set_keep(struct etw_session_reader *r, int keep);

/* The session's settings and statistics (final once @stopped is 1). */
int etw_session_reader_query(struct etw_session_reader *r,
			     struct etw_session_info *info, int *stopped);

/* Detach; buffers taken and not given back return to the session. */
void etw_session_reader_close(struct etw_session_reader *r);

#ifdef __cplusplus
}
#endif

#endif /* ETW_SESSION_READER_H */
