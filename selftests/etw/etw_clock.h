/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The module's session clock read from user space, for tests that bracket
 * a record's time stamp: the TSC when /sys/module/etw/parameters/clock
 * says "tsc" (etw.ko's clock on a machine whose TSC is invariant and
 * stable), else CLOCK_MONOTONIC in nanoseconds.
 */
#ifndef ETW_CLOCK_H
#define ETW_CLOCK_H

#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <linux/types.h>

#include "etw_selftests.h"
#include "etw_kmod.h"

enum etw_test_clock { ETW_TEST_CLOCK_MONO, ETW_TEST_CLOCK_TSC };

/* The clock the loaded module uses; CLOCK_MONOTONIC without the parameter. */
static inline enum etw_test_clock etw_test_clock(void)
{
	char buf[16];

	if (etw_read_file(ETW_PARAM("clock"), buf, sizeof(buf)))
		return ETW_TEST_CLOCK_MONO;
	return strcmp(buf, "tsc\n") ? ETW_TEST_CLOCK_MONO : ETW_TEST_CLOCK_TSC;
}

/* The TSC, fenced on both sides so that it is read between its neighbours. */
static inline __u64 etw_test_rdtsc(void)
{
	unsigned int lo, hi;

	__asm__ __volatile__("lfence\n\trdtsc\n\tlfence" : "=a"(lo), "=d"(hi) : : "memory");
	return (__u64)hi << 32 | lo;
}

static inline __u64 etw_test_clock_ns(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return (__u64)ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

static inline __u64 etw_test_clock_read(enum etw_test_clock c)
{
	return c == ETW_TEST_CLOCK_TSC ? etw_test_rdtsc() :
	       etw_test_clock_ns(CLOCK_MONOTONIC);
}

/* The frequency every session reports (a session started to ask): 0 on error. */
static inline __u64 etw_test_clock_frequency(int fd)
{
	struct etw_session_start s = { .size = sizeof(s) };
	struct etw_session_info *in = &s.info;
	__u64 hz;

	strcpy(in->name, "etwtest-frequency");
	in->buffer_size_kb = 4;
	if (ioctl(fd, ETW_IOC_SESSION_START, &s))
		return 0;
	hz = in->frequency;
	etw_session_ctl(fd, in->logger_id, ETW_CONTROL_STOP, NULL);
	return hz;
}

/* Now, in the session clock of the loaded module. */
static inline __u64 etw_clock_now(void)
{
	return etw_test_clock_read(etw_test_clock());
}

#endif /* ETW_CLOCK_H */
