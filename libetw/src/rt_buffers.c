// SPDX-License-Identifier: MIT
/*
 * Real-time buffers through ETW_IOC_BUFFER_READ: the module copies the
 * oldest full buffer out, or says EAGAIN, so waiting is polling.  The
 * module's mmap consumer protocol (issue 4) is meant to replace this
 * file.
 *
 * The session is named by its logger id, which a later session can get
 * once this one stops: while waiting, the session is queried again and a
 * different start time means this one is gone.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "controller.h"
#include "rt_buffers.h"

/* How often an idle consumer asks the module again. */
#define POLL_NS		(10 * 1000 * 1000)

struct etw_rt_source {
	int fd;
	struct etw_session_info info;
	uint32_t size;
};

int etw_rt_attach(const char *name, struct etw_session_info *info,
		  struct etw_rt_source **src)
{
	int fd = etw_device_fd(), ret;

	if (fd < 0)
		return fd;
	ret = etw_session_find(fd, name, info);
	if (ret || !src)
		return ret;
	*src = calloc(1, sizeof(**src));
	if (!*src)
		return -ENOMEM;
	(*src)->fd = fd;
	(*src)->info = *info;
	(*src)->size = info->buffer_size_kb * 1024;
	return 0;
}

/* Is the session we attached to still the one with its logger id? */
static int still_there(struct etw_rt_source *src)
{
	struct etw_session_control c;
	int ret;

	memset(&c, 0, sizeof(c));
	c.size = sizeof(c);
	c.code = ETW_CONTROL_QUERY;
	c.logger_id = src->info.logger_id;
	ret = etw_ioctl(src->fd, ETW_IOC_SESSION_CONTROL, &c);
	if (!ret && c.info.start_ticks != src->info.start_ticks)
		ret = -ENOENT;
	return ret;
}

static int64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

int etw_rt_next(struct etw_rt_source *src, void *buf, int timeout_ms)
{
	int64_t deadline = now_ns() + (int64_t)timeout_ms * 1000000;
	struct etw_buffer_read r;
	int ret;

	for (;;) {
		memset(&r, 0, sizeof(r));
		r.size = sizeof(r);
		r.logger_id = src->info.logger_id;
		r.length = src->size;
		r.buf = (uintptr_t)buf;
		ret = etw_ioctl(src->fd, ETW_IOC_BUFFER_READ, &r);
		if (ret != -EAGAIN)
			return ret < 0 ? ret : 1;
		ret = still_there(src);
		if (ret)
			return ret;
		if (now_ns() >= deadline)
			return 0;
		nanosleep(&(struct timespec){ .tv_nsec = POLL_NS }, NULL);
	}
}

void etw_rt_detach(struct etw_rt_source *src)
{
	free(src);
}
