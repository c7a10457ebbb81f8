/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers shared by the etw selftests.
 */
#ifndef ETW_SELFTESTS_H
#define ETW_SELFTESTS_H

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <linux/etw.h>

#define ETW_DEV "/dev/" ETW_DEVICE_NAME

/*
 * Open /dev/etw.  Inside the VM (ETW_MODULE set by its init) the module
 * must be loaded, so a missing device is a failure; elsewhere it is a skip.
 * Returns the fd, or -1 after having marked the test skipped.
 */
#define etw_open_or_skip(_metadata)					\
	({								\
		int __fd = open(ETW_DEV, O_RDWR | O_CLOEXEC);		\
		if (__fd < 0 && !getenv("ETW_MODULE"))			\
			SKIP(return, "%s: %s (etw.ko not loaded)",	\
			     ETW_DEV, strerror(errno));			\
		ASSERT_LE(0, __fd) TH_LOG("open %s: %s", ETW_DEV,	\
					  strerror(errno));		\
		__fd;							\
	})

/* ioctl() returning -errno, so tests can compare with one EXPECT. */
static inline int etw_ioctl_err(int fd, unsigned long cmd, void *arg)
{
	return ioctl(fd, cmd, arg) < 0 ? -errno : 0;
}

#endif /* ETW_SELFTESTS_H */
