// SPDX-License-Identifier: GPL-2.0
/*
 * etw-bench-kstack: the kernel logger's cost on what it observes.
 *
 *   etw-bench-kstack cswitch [SUFFIX]   context switches: two threads on
 *       CPU 0 taking turns with sched_yield(), ns per switch, with no
 *       tracing (kstack.cswitch.none), with a system logger recording
 *       CSwitch (.etw) and CSwitch with its stack (.etw_stack)
 *   etw-bench-kstack profile [SUFFIX]   a busy loop's ns per block of work,
 *       with no tracing (kstack.profile.none) and with PROFILE at 1 kHz
 *       and a stack on every sample (.etw), and with an 8 KiB user stack
 *       copy beside each stack (.etw_copy, against perf's --call-graph dwarf)
 *
 * With SUFFIX only the untraced case runs and prints under that name:
 * scripts/vm/bench.sh runs it again under a peer (perf record) for the
 * ratios of one run.  Sessions hold every record (KSTACK_BUFFERS buffers,
 * no consumer): kstack.*.lost says that none was dropped, so the cost is
 * the stored record's.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <linux/etw.h>

#include "bench.h"

#define KSTACK_BUFFER_KB	64
#define KSTACK_BUFFERS		512
/* Per repetition; with stacks, the 5 repetitions' records take ~14 MiB. */
#define SWITCHES		10000
#define PROFILE_NS		1000000000ull	/* of busy loop per case */
#define PROFILE_INTERVAL	10000		/* 1 ms, 100 ns units */

/* PerfInfo {ce1dbfb4-137e-4da6-87b0-3f59aa102cbc} and Thread's GUIDs. */
static const unsigned char perfinfo_guid[16] = {
	0xb4, 0xbf, 0x1d, 0xce, 0x7e, 0x13, 0xa6, 0x4d,
	0x87, 0xb0, 0x3f, 0x59, 0xaa, 0x10, 0x2c, 0xbc,
};

static const unsigned char thread_guid[16] = {
	0xd1, 0xa8, 0x6f, 0x3d, 0x05, 0xfe, 0xd0, 0x11,
	0x9d, 0xda, 0x00, 0xc0, 0x4f, 0xd7, 0xba, 0x7c,
};

static int dev = -1;

static void ioctl_or_die(unsigned long cmd, void *arg, const char *what)
{
	if (ioctl(dev, cmd, arg))
		bench_die("%s: %s", what, strerror(errno));
}

static __u32 session_start(__u32 flags)
{
	struct etw_session_start st = { .size = sizeof(st) };

	snprintf(st.info.name, sizeof(st.info.name), "etw-bench-kstack");
	st.info.log_file_mode = ETW_MODE_SYSTEM_LOGGER;
	st.info.buffer_size_kb = KSTACK_BUFFER_KB;
	st.info.min_buffers = KSTACK_BUFFERS;
	st.info.max_buffers = KSTACK_BUFFERS;
	st.info.enable_flags = flags;
	ioctl_or_die(ETW_IOC_SESSION_START, &st, "system logger start");
	return st.info.logger_id;
}

static void trace_set_info(__u32 id, __u32 cls, const void *data, __u32 len)
{
	struct etw_trace_info ti = { .size = sizeof(ti) };

	ti.logger_id = id;
	ti.info_class = cls;
	ti.data = (uintptr_t)data;
	ti.length = len;
	ioctl_or_die(ETW_IOC_TRACE_SET_INFO, &ti, "TraceSetInformation");
}

static void stacks_on(__u32 id, const unsigned char guid[16], unsigned char type)
{
	unsigned char ids[ETW_CLASSIC_EVENT_ID_SIZE] = { 0 };

	memcpy(ids, guid, 16);
	ids[16] = type;
	trace_set_info(id, ETW_TRACE_STACK_TRACING_INFO, ids, sizeof(ids));
}

/* Stop; the records it lost. */
static double session_stop(__u32 id)
{
	struct etw_session_control c = { .size = sizeof(c) };

	c.code = ETW_CONTROL_STOP;
	c.logger_id = id;
	ioctl_or_die(ETW_IOC_SESSION_CONTROL, &c, "stop");
	return c.info.events_lost;
}

static volatile int yield_done;

static void *yielder(void *arg)
{
	bench_pin(0);
	while (!yield_done)
		sched_yield();
	return NULL;
}

/* ns per switch: this thread and another on CPU 0 take turns. */
static double cswitch_ns(void)
{
	double best = 0;
	pthread_t t;

	yield_done = 0;
	bench_pin(0);
	if (pthread_create(&t, NULL, yielder, NULL))
		bench_die("pthread_create failed");
	for (int rep = 0; rep < BENCH_REPS; rep++) {
		uint64_t t0 = bench_now();
		double v;

		/* Each yield switches to the other, which yields back. */
		for (int i = 0; i < SWITCHES / 2; i++)
			sched_yield();
		v = (double)(bench_now() - t0) / SWITCHES;
		if (!rep || v < best)
			best = v;
	}
	yield_done = 1;
	pthread_join(t, NULL);
	return best;
}

/* ns per block of the busy loop, over PROFILE_NS. */
static double busy_ns(void)
{
	volatile unsigned long sink = 0;
	uint64_t t0 = bench_now(), n = 0;

	do {
		for (unsigned long i = 0; i < 10000; i++)
			sink += i * i;
		n++;
	} while (bench_now() - t0 < PROFILE_NS);
	return (double)(bench_now() - t0) / (double)n;
}

static void run_cswitch(const char *suffix)
{
	__u32 id;

	if (suffix) {
		bench_printf(cswitch_ns(), "kstack.cswitch.%s", suffix);
		return;
	}
	bench_print("kstack.cswitch.none", cswitch_ns());
	id = session_start(ETW_KFLAG_CSWITCH);
	bench_print("kstack.cswitch.etw", cswitch_ns());
	bench_print("kstack.cswitch.etw.lost", session_stop(id));
	id = session_start(ETW_KFLAG_CSWITCH);
	stacks_on(id, thread_guid, 36);
	bench_print("kstack.cswitch.etw_stack", cswitch_ns());
	bench_print("kstack.cswitch.etw_stack.lost", session_stop(id));
}

static void run_profile(const char *suffix)
{
	__u32 iv[2] = { 0, PROFILE_INTERVAL };
	struct etw_trace_info ti = { .size = sizeof(ti) };
	__u32 id, copy = ETW_STACK_COPY_DEFAULT;

	if (suffix) {
		bench_printf(busy_ns(), "kstack.profile.%s", suffix);
		return;
	}
	bench_print("kstack.profile.none", busy_ns());
	ti.info_class = ETW_TRACE_PROFILE_INTERVAL_INFO;
	ti.data = (uintptr_t)iv;
	ti.length = sizeof(iv);
	ioctl_or_die(ETW_IOC_TRACE_SET_INFO, &ti, "profile interval");
	id = session_start(ETW_KFLAG_PROFILE);
	stacks_on(id, perfinfo_guid, 46);
	bench_print("kstack.profile.etw", busy_ns());
	bench_print("kstack.profile.etw.lost", session_stop(id));
	id = session_start(ETW_KFLAG_PROFILE);
	stacks_on(id, perfinfo_guid, 46);
	trace_set_info(id, ETW_TRACE_STACK_COPY_INFO, &copy, sizeof(copy));
	bench_print("kstack.profile.etw_copy", busy_ns());
	bench_print("kstack.profile.etw_copy.lost", session_stop(id));
}

int main(int argc, char **argv)
{
	if (argc < 2)
		bench_die("usage: etw-bench-kstack cswitch|profile [SUFFIX]");
	dev = open("/dev/etw", O_RDWR | O_CLOEXEC);
	if (dev < 0)
		bench_die("/dev/etw: %s", strerror(errno));
	if (!strcmp(argv[1], "cswitch"))
		run_cswitch(argc > 2 ? argv[2] : NULL);
	else if (!strcmp(argv[1], "profile"))
		run_profile(argc > 2 ? argv[2] : NULL);
	else
		bench_die("unknown case '%s'", argv[1]);
	close(dev);
	return 0;
}
