// SPDX-License-Identifier: GPL-2.0
/*
 * etw-bench-kwrite: issue 27's item 5, a kernel module's EtwWrite against
 * a TRACE_EVENT tracepoint of the same bytes, and their disabled checks.
 * The loops run in etw_kbench.ko (bench/kmod/), KWRITE_BATCH calls per
 * ioctl on /dev/etw_kbench, timed here as every other case (so under
 * -icount a nanosecond is a guest instruction; the ioctl adds under one
 * per call).  The module's provider Etw-Kbench is enabled by a buffering
 * session of this program (a ring in memory, as ftrace's and LTTng's
 * snapshot session are).
 *
 *   etw-bench-kwrite ftrace   ftrace records the tracepoint (tracefs, the
 *                             ring scripts/vm/bench.sh set up), timed
 *                             interleaved with EtwWrite:
 *                             kwrite.ftrace.etw.<P>, kwrite.ftrace.tp.<P>;
 *                             then nothing records it: kwrite.off.*
 *   etw-bench-kwrite lttng    LTTng's kernel tracer records it (the caller
 *                             started the session and its probe module):
 *                             kwrite.lttng.etw.<P>, kwrite.lttng.tp.<P>
 *
 * kwrite.off.loop is the loop alone, kwrite.off.tp the tracepoint with
 * its static key off, kwrite.off.enabled EtwEventEnabled of a provider no
 * session enables, kwrite.off.inline etw mc -km's EventEnabled<Event>()
 * of it, kwrite.off.write EtwWrite of 64 bytes to it.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "bench.h"
#include "kmod/kbench.h"

#define KWRITE_BATCH	2048
/*
 * The session's buffers: 1 MiB, the size of LTTng's kernel sub-buffers
 * and ftrace's per-CPU ring here, so that each tracer switches buffers
 * as often.  A kernel lane's buffer switch wakes a work item for its
 * spare: with 64 KiB buffers that was 90 instructions an event at 512
 * bytes, and a loop that outran the work item lost events.
 */
#define KWRITE_BUFFER_KB	1024
#define KWRITE_BUFFERS		16
#define KWRITE_EVENT	"/sys/kernel/tracing/events/etw_kbench/etw_kbench_bytes/enable"

/* Etw-Kbench, bench/kmod/kbench_events.man's provider. */
static const GUID kbench_provider = {
	0x2c7d4e91, 0x5a3b, 0x4f60, { 0x9e, 0x12, 0x7b, 0x8c, 0x0d, 0x1e, 0x2f, 0x30 }
};

static int dev = -1;

/* @count calls of @kind with @size bytes in the module; those that took. */
static unsigned int kbench(unsigned int kind, unsigned int size, unsigned int count)
{
	struct kbench_run r = { .kind = kind, .size = size, .count = count };

	if (ioctl(dev, KBENCH_IOC_RUN, &r))
		bench_die("/dev/" KBENCH_DEVICE ": %s", strerror(errno));
	return r.done;
}

static void run_etw(unsigned int n, unsigned int size) { kbench(KBENCH_ETWWRITE, size, n); }
static void run_tp(unsigned int n, unsigned int size) { kbench(KBENCH_TRACEPOINT, size, n); }
static void run_loop(unsigned int n, unsigned int size) { kbench(KBENCH_LOOP, size, n); }
static void run_off_enabled(unsigned int n, unsigned int size) { kbench(KBENCH_OFF_ENABLED, size, n); }
static void run_off_inline(unsigned int n, unsigned int size) { kbench(KBENCH_OFF_INLINE, size, n); }
static void run_off_write(unsigned int n, unsigned int size) { kbench(KBENCH_OFF_WRITE, size, n); }

static void write_file(const char *path, const char *s)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC);

	if (fd < 0 || write(fd, s, strlen(s)) != (ssize_t)strlen(s))
		bench_die("%s: %s", path, strerror(errno));
	close(fd);
}

/* Every CPU's ftrace entries and overruns: events the ring took. */
static unsigned long ftrace_taken(void)
{
	char path[96], line[128];
	unsigned long total = 0, v;
	long cpus = sysconf(_SC_NPROCESSORS_CONF);

	for (long cpu = 0; cpu < cpus; cpu++) {
		FILE *f;

		snprintf(path, sizeof(path), "/sys/kernel/tracing/per_cpu/cpu%ld/stats", cpu);
		f = fopen(path, "re");
		if (!f)
			bench_die("%s: %s", path, strerror(errno));
		while (fgets(line, sizeof(line), f))
			if (sscanf(line, "entries: %lu", &v) == 1 ||
			    sscanf(line, "overrun: %lu", &v) == 1)
				total += v;
		fclose(f);
	}
	return total;
}

/* The events the session lost (none, or the cost is not a write's). */
static double session_lost(const struct bench_session *s)
{
	struct {
		EVENT_TRACE_PROPERTIES p;
		char name[64];
	} q;

	memset(&q, 0, sizeof(q));
	q.p.Wnode.BufferSize = sizeof(q);
	q.p.LoggerNameOffset = sizeof(q.p);
	if (ControlTraceA(s->id, NULL, &q.p, EVENT_TRACE_CONTROL_QUERY))
		bench_die("QueryTrace of %s failed", s->name);
	return q.p.EventsLost;
}

/* EtwWrite and the tracepoint, 0, 64 and 512 bytes, interleaved. */
static void run_enabled(const char *tracer)
{
	static const unsigned int payloads[] = { 0, 64, 512 };
	struct bench_cases cases = { .count = 0, .batch = KWRITE_BATCH };
	char key[32];

	for (unsigned int i = 0; i < 3; i++) {
		snprintf(key, sizeof(key), "kwrite.%s.etw.%u", tracer, payloads[i]);
		bench_case_add(&cases, key, run_etw, payloads[i]);
		snprintf(key, sizeof(key), "kwrite.%s.tp.%u", tracer, payloads[i]);
		bench_case_add(&cases, key, run_tp, payloads[i]);
	}
	bench_interleave(&cases);
}

static void run_disabled(void)
{
	struct bench_cases cases = { .count = 0, .batch = KWRITE_BATCH };

	bench_case_add(&cases, "kwrite.off.loop", run_loop, 0);
	bench_case_add(&cases, "kwrite.off.tp", run_tp, 64);
	bench_case_add(&cases, "kwrite.off.enabled", run_off_enabled, 0);
	bench_case_add(&cases, "kwrite.off.inline", run_off_inline, 0);
	bench_case_add(&cases, "kwrite.off.write", run_off_write, 64);
	bench_interleave(&cases);
}

int main(int argc, char **argv)
{
	struct bench_session s;
	unsigned long before;
	unsigned int done;
	int ftrace;

	if (argc != 2 || (strcmp(argv[1], "ftrace") && strcmp(argv[1], "lttng")))
		bench_die("usage: etw-bench-kwrite ftrace|lttng");
	ftrace = !strcmp(argv[1], "ftrace");
	dev = open("/dev/" KBENCH_DEVICE, O_RDWR | O_CLOEXEC);
	if (dev < 0)
		bench_die("/dev/" KBENCH_DEVICE ": %s (etw_kbench.ko loaded?)", strerror(errno));
	bench_pin(0);
	bench_session_start_buffers(&s, "etw-bench-kwrite", &kbench_provider, 4, 0x1,
				    EVENT_TRACE_BUFFERING_MODE, KWRITE_BUFFER_KB,
				    KWRITE_BUFFERS);
	/* What is timed must be written: the session takes every EtwWrite. */
	if ((done = kbench(KBENCH_ETWWRITE, 64, KWRITE_BATCH)) != KWRITE_BATCH)
		bench_die("EtwWrite into the session: %u of %u written", done, KWRITE_BATCH);
	if (kbench(KBENCH_OFF_ENABLED, 0, KWRITE_BATCH) ||
	    kbench(KBENCH_OFF_INLINE, 0, KWRITE_BATCH))
		bench_die("Etw-Kbench-Off is enabled: nothing should enable it");
	if (ftrace) {
		write_file(KWRITE_EVENT, "1");
		before = ftrace_taken();
		kbench(KBENCH_TRACEPOINT, 64, KWRITE_BATCH);
		if (ftrace_taken() - before < KWRITE_BATCH)
			bench_die("ftrace did not record the tracepoint");
	}
	run_enabled(argv[1]);
	bench_printf(session_lost(&s), "kwrite.%s.etw.lost", argv[1]);
	bench_session_stop(&s);
	if (ftrace) {
		write_file(KWRITE_EVENT, "0");
		run_disabled();
	}
	return 0;
}
