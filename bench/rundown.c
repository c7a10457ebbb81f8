// SPDX-License-Identifier: GPL-2.0
/*
 * etw-bench-rundown N: the kernel logger's rundown of N processes.
 *
 * N children wait in pause(); then the NT Kernel Logger starts with
 * EVENT_TRACE_FLAG_PROCESS | EVENT_TRACE_FLAG_THREAD (StartTrace returns
 * once Process/DCStart and Thread/DCStart of every process are written)
 * and stops (StopTrace returns once the DCEnd rundown is).  The same with
 * EnableFlags 0 is the fixed cost of a session, subtracted in the table.
 * A buffering-mode session large enough for the whole rundown: no event
 * lost, no file written.  Best of BENCH_REPS.
 *
 *	BENCH rundown.procs N
 *	BENCH rundown.start_ns / rundown.stop_ns      with the rundown
 *	BENCH rundown.empty_start_ns / .empty_stop_ns without
 *	BENCH rundown.events_lost                     of the last run
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bench.h"

struct kprops {
	EVENT_TRACE_PROPERTIES p;
	char name[sizeof(KERNEL_LOGGER_NAMEA)];
};

static EVENT_TRACE_PROPERTIES *props(struct kprops *b, ULONG flags)
{
	memset(b, 0, sizeof(*b));
	b->p.Wnode.BufferSize = sizeof(*b);
	b->p.Wnode.Flags = WNODE_FLAG_TRACED_GUID;
	b->p.Wnode.ClientContext = 1;
	b->p.Wnode.Guid = SystemTraceControlGuid;
	b->p.LogFileMode = EVENT_TRACE_BUFFERING_MODE;
	b->p.BufferSize = 64;
	b->p.MinimumBuffers = 256;	/* 16 MiB: the rundown twice over */
	b->p.MaximumBuffers = 256;
	b->p.EnableFlags = flags;
	b->p.LoggerNameOffset = sizeof(b->p);
	return &b->p;
}

/* One start and stop: their times in ns; the events lost. */
static ULONG run(ULONG flags, double *start, double *stop)
{
	CONTROLTRACE_ID id;
	struct kprops b;
	uint64_t t0, t1, t2;
	ULONG err;

	t0 = bench_now();
	err = StartTraceA(&id, KERNEL_LOGGER_NAMEA, props(&b, flags));
	t1 = bench_now();
	if (err)
		bench_die("StartTrace: %lu", (unsigned long)err);
	err = StopTraceA(id, NULL, props(&b, 0));
	t2 = bench_now();
	if (err)
		bench_die("StopTrace: %lu", (unsigned long)err);
	*start = (double)(t1 - t0);
	*stop = (double)(t2 - t1);
	return b.p.EventsLost;
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 1000, i;
	double s, e, best_s = 0, best_e = 0, es = 0, ee = 0;
	pid_t *kids = calloc(n > 0 ? n : 1, sizeof(*kids));
	ULONG lost = 0;

	if (!kids || n <= 0)
		bench_die("usage: etw-bench-rundown N");
	for (i = 0; i < n; i++) {
		kids[i] = fork();
		if (kids[i] < 0)
			bench_die("fork: %s", strerror(errno));
		if (!kids[i]) {
			pause();
			_exit(0);
		}
	}
	for (int rep = 0; rep < BENCH_REPS; rep++) {
		run(0, &s, &e);
		if (!rep || s < es)
			es = s;
		if (!rep || e < ee)
			ee = e;
		lost = run(EVENT_TRACE_FLAG_PROCESS | EVENT_TRACE_FLAG_THREAD, &s, &e);
		if (!rep || s < best_s)
			best_s = s;
		if (!rep || e < best_e)
			best_e = e;
	}
	for (i = 0; i < n; i++)
		kill(kids[i], SIGKILL);
	for (i = 0; i < n; i++)
		waitpid(kids[i], NULL, 0);
	bench_print("rundown.procs", n);
	bench_print("rundown.start_ns", best_s);
	bench_print("rundown.stop_ns", best_e);
	bench_print("rundown.empty_start_ns", es);
	bench_print("rundown.empty_stop_ns", ee);
	bench_print("rundown.events_lost", lost);
	free(kids);
	return 0;
}
