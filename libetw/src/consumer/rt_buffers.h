/* SPDX-License-Identifier: MIT */
/*
 * Where a real-time consumer gets a session's buffers: attach to the
 * session by name, take its full buffers one at a time, detach.  One
 * implementation file (rt_buffers.c) says how the module hands them over;
 * nothing else depends on it.
 */
#ifndef LIBETW_RT_BUFFERS_H
#define LIBETW_RT_BUFFERS_H

#include <linux/etw.h>

struct etw_rt_source;

/*
 * The running session @name (UTF-8, ASCII case ignored) into *info; with
 * @src also attach to its buffers.  0 or -errno: -ENOENT no such session,
 * -EACCES no right to consume, or the error of opening /dev/etw.
 */
int etw_rt_attach(const char *name, struct etw_session_info *info,
		  struct etw_rt_source **src);

/*
 * Copy the next full buffer (info->buffer_size_kb KiB) to @buf, waiting
 * up to @timeout_ms for one: 1, 0 if none came, -ENOENT once the session
 * has stopped and every buffer it handed over was taken, or -errno.
 */
int etw_rt_next(struct etw_rt_source *src, void *buf, int timeout_ms);

void etw_rt_detach(struct etw_rt_source *src);

#endif /* LIBETW_RT_BUFFERS_H */
