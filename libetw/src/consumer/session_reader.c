// SPDX-License-Identifier: MIT
/*
 * The mmap consumer protocol from userspace: the three mappings of a
 * consumer fd, the ring read with acquire, the tail stored with release
 * (uapi/linux/etw.h, "The mmap consumer protocol").
 */
#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "etw_session_reader.h"
#include "../common/internal.h"

struct etw_session_reader {
	int fd;
	struct etw_consumer_attach a;
	struct etw_consumer_ctrl *ctrl;
	const struct etw_consumer_ring *ring;
	const unsigned char *bufs;
	unsigned long long taken;	/* entries handed out by next() */
	unsigned int watermark;		/* as stored in the control page */
};

static void unmap_all(struct etw_session_reader *r)
{
	if (r->ctrl)
		munmap(r->ctrl, r->a.ctrl_bytes);
	if (r->ring)
		munmap((void *)r->ring, r->a.ring_bytes);
	if (r->bufs)
		munmap((void *)r->bufs, r->a.buffers_bytes);
}

static void *map(int fd, unsigned long long len, int prot, int flags,
		 unsigned long long off)
{
	void *p = mmap(NULL, len, prot, MAP_SHARED | flags, fd, (off_t)off);

	return p == MAP_FAILED ? NULL : p;
}

ETW_EXPORT int etw_session_reader_attach_guid(struct etw_session_reader **out,
					      int dev, unsigned int logger_id,
					      const unsigned char *guid,
					      unsigned int flags)
{
	struct etw_session_reader *r;
	int ret;

	*out = NULL;
	r = calloc(1, sizeof(*r));
	if (!r)
		return -ENOMEM;
	r->a.size = sizeof(r->a);
	r->a.flags = flags | ETW_CONSUMER_F_CLOEXEC;
	r->a.logger_id = logger_id;
	if (guid)
		memcpy(r->a.guid, guid, sizeof(r->a.guid));
	ret = etw_ioctl(dev, ETW_IOC_CONSUMER_ATTACH, &r->a);
	if (ret < 0) {
		free(r);
		return ret;
	}
	r->fd = r->a.fd;
	r->ctrl = map(r->fd, r->a.ctrl_bytes, PROT_READ | PROT_WRITE, 0, r->a.ctrl_offset);
	r->ring = map(r->fd, r->a.ring_bytes, PROT_READ, 0, r->a.ring_offset);
	/*
	 * A logger's pool is whole when the attach returns: its pages are
	 * mapped now, not at the first write of each, while the writers
	 * wait for the buffers back (the population stops at the first
	 * slot without a buffer, which raises no signal here).
	 */
	r->bufs = map(r->fd, r->a.buffers_bytes, PROT_READ,
		      flags & ETW_CONSUMER_F_LOGGER ? MAP_POPULATE : 0,
		      r->a.buffers_offset);
	if (!r->ctrl || !r->ring || !r->bufs) {
		ret = -errno;
		unmap_all(r);
		close(r->fd);
		free(r);
		return ret;
	}
	r->taken = r->ctrl->tail;
	*out = r;
	return 0;
}

ETW_EXPORT int etw_session_reader_attach(struct etw_session_reader **out,
					 int dev, unsigned int logger_id,
					 unsigned int flags)
{
	return etw_session_reader_attach_guid(out, dev, logger_id, NULL, flags);
}

ETW_EXPORT int etw_session_reader_fd(const struct etw_session_reader *r)
{
	return r->fd;
}

ETW_EXPORT unsigned int
etw_session_reader_buffer_size(const struct etw_session_reader *r)
{
	return r->a.buffer_size;
}

static unsigned long long head(const struct etw_session_reader *r)
{
	return __atomic_load_n(&r->ring->head, __ATOMIC_ACQUIRE);
}

/*
 * Enough published and not taken to go on without asking the kernel: one,
 * or the watermark's worth.  Fewer may be ready too (a flush, a session
 * low on buffers): only poll() knows.
 */
static int enough(const struct etw_session_reader *r)
{
	unsigned long long n = head(r) - r->taken;

	return n && n >= r->watermark;
}

ETW_EXPORT int etw_session_reader_wait(struct etw_session_reader *r,
				       int timeout_ms)
{
	struct pollfd p = { .fd = r->fd, .events = POLLIN };
	int n;

	for (;;) {
		if (enough(r))
			return 1;
		/* What was taken goes back: the kernel counts from the tail. */
		etw_session_reader_release(r);
		n = poll(&p, 1, timeout_ms);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if (!n)
			return 0;
		if (head(r) != r->taken)
			return 1;
		if (p.revents & POLLHUP)
			return -ESHUTDOWN;
	}
}

ETW_EXPORT const void *etw_session_reader_next(struct etw_session_reader *r)
{
	unsigned int slot;

	if (head(r) == r->taken)
		return NULL;
	slot = r->ring->slot[r->taken & (r->ring->ring_size - 1)];
	r->taken++;
	return r->bufs + (size_t)slot * r->a.buffer_stride;
}

ETW_EXPORT void etw_session_reader_release(struct etw_session_reader *r)
{
	/* Our reads of the buffers are done before the kernel reuses them. */
	__atomic_store_n(&r->ctrl->tail, r->taken, __ATOMIC_RELEASE);
}

ETW_EXPORT void etw_session_reader_set_log_buffers_lost(struct etw_session_reader *r,
							unsigned int n)
{
	__atomic_store_n(&r->ctrl->log_buffers_lost, n, __ATOMIC_RELAXED);
}

ETW_EXPORT void etw_session_reader_set_watermark(struct etw_session_reader *r,
						 unsigned int buffers)
{
	r->watermark = buffers;
	/* Read by the kernel at its next publication or poll(). */
	__atomic_store_n(&r->ctrl->watermark, buffers, __ATOMIC_RELAXED);
}

ETW_EXPORT unsigned int
etw_session_reader_max_buffers(const struct etw_session_reader *r)
{
	/* A count on its own: nothing is read under it. */
	return __atomic_load_n(&r->ring->max_buffers, __ATOMIC_RELAXED);
}

ETW_EXPORT void etw_session_reader_set_keep(struct etw_session_reader *r, int keep)
{
	unsigned int f = __atomic_load_n(&r->ctrl->flags, __ATOMIC_RELAXED);

	f = keep ? f | ETW_CTRL_KEEP : f & ~ETW_CTRL_KEEP;
	__atomic_store_n(&r->ctrl->flags, f, __ATOMIC_RELAXED);
}

ETW_EXPORT int etw_session_reader_query(struct etw_session_reader *r,
					struct etw_session_info *info,
					int *stopped)
{
	struct etw_consumer_query q;
	int ret;

	memset(&q, 0, sizeof(q));
	q.size = sizeof(q);
	ret = etw_ioctl(r->fd, ETW_IOC_CONSUMER_QUERY, &q);
	if (ret < 0)
		return ret;
	*info = q.info;
	if (stopped)
		*stopped = q.stopped;
	return 0;
}

ETW_EXPORT void etw_session_reader_close(struct etw_session_reader *r)
{
	if (!r)
		return;
	unmap_all(r);
	close(r->fd);
	free(r);
}
