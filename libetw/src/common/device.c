// SPDX-License-Identifier: MIT
/*
 * The /dev/etw descriptor: opening it, the process-wide shared one, and the
 * one ioctl helper everything else goes through.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdatomic.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "internal.h"

/* -1: not open yet.  Published once; never closed while the process runs. */
static _Atomic int shared_fd = -1;

ETW_EXPORT int etw_open(void)
{
	int fd = open("/dev/" ETW_DEVICE_NAME, O_RDWR | O_CLOEXEC);

	return fd < 0 ? -errno : fd;
}

ETW_EXPORT int etw_device_fd(void)
{
	int fd = atomic_load_explicit(&shared_fd, memory_order_acquire);
	int expected = -1;

	if (fd >= 0)
		return fd;
	fd = etw_open();
	if (fd < 0)
		return fd;
	/* Two threads may race to open: the loser closes its descriptor. */
	if (!atomic_compare_exchange_strong_explicit(&shared_fd, &expected, fd,
						     memory_order_acq_rel,
						     memory_order_acquire)) {
		close(fd);
		fd = expected;
	}
	return fd;
}

/*
 * A child of fork(): the descriptor it inherited is the parent's open file
 * (its registrations, its notifications).  Closed; the next use opens the
 * child's own.  Only the forking thread runs in the child.
 */
void etw_device_forget(void)
{
	int fd = atomic_exchange_explicit(&shared_fd, -1, memory_order_acq_rel);

	if (fd >= 0)
		close(fd);
}

int etw_ioctl(int fd, unsigned long cmd, void *arg)
{
	int ret;

	do {
		ret = ioctl(fd, cmd, arg);
	} while (ret < 0 && errno == EINTR);
	return ret < 0 ? -errno : ret;
}
