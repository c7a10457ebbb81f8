// SPDX-License-Identifier: MIT
/*
 * Real-time buffers through the module's mmap consumer protocol
 * (etw_session_reader.h): attached to the session object itself, so a
 * later session that gets the same logger id is never read by mistake,
 * and a stopped session is drained to its last buffer.  Each buffer is
 * copied out and given back at once: the caller keeps its copy as long as
 * it likes while the module reuses the buffer.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "../controller/controller.h"
#include "etw_session_reader.h"
#include "rt_buffers.h"

struct etw_rt_source {
	struct etw_session_reader *r;
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
	ret = etw_session_reader_attach(&(*src)->r, fd, info->logger_id, 0);
	if (ret) {
		free(*src);
		*src = NULL;
		return ret;
	}
	(*src)->size = etw_session_reader_buffer_size((*src)->r);
	return 0;
}

int etw_rt_next(struct etw_rt_source *src, void *buf, int timeout_ms)
{
	const void *b = etw_session_reader_next(src->r);
	int ret;

	if (!b) {
		ret = etw_session_reader_wait(src->r, timeout_ms);
		if (ret == -ESHUTDOWN)
			return -ENOENT;	/* stopped, and every buffer was taken */
		if (ret <= 0)
			return ret;
		b = etw_session_reader_next(src->r);
		if (!b)
			return 0;
	}
	memcpy(buf, b, src->size);
	etw_session_reader_release(src->r);
	return 1;
}

void etw_rt_detach(struct etw_rt_source *src)
{
	if (!src)
		return;
	etw_session_reader_close(src->r);
	free(src);
}
