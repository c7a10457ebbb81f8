// SPDX-License-Identifier: GPL-2.0
/*
 * Helpers of the benchmark programs: output, pinning, and the session the
 * events go to, started with the Windows controller API as an application
 * would.
 */
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "bench.h"

/* {6b1a9e3c-52d0-4f7e-9c41-0d2b7e5a8f10} and {...f11}: nothing else uses them. */
const GUID bench_provider_enabled = {
	0x6b1a9e3c, 0x52d0, 0x4f7e, { 0x9c, 0x41, 0x0d, 0x2b, 0x7e, 0x5a, 0x8f, 0x10 }
};
const GUID bench_provider_disabled = {
	0x6b1a9e3c, 0x52d0, 0x4f7e, { 0x9c, 0x41, 0x0d, 0x2b, 0x7e, 0x5a, 0x8f, 0x11 }
};

int bench_verbose;

__attribute__((constructor)) static void bench_init(void)
{
	const char *v = getenv("ETW_BENCH_VERBOSE");

	bench_verbose = v && *v == '1';
}

void bench_rep(const char *what, double ns, uint64_t wall, uint64_t cpu)
{
	fprintf(stderr, "rep %-40.40s %10.3f  this thread ran %.1f%% of the time\n",
		what, ns, 100.0 * (double)cpu / (double)wall);
}

void bench_print(const char *key, double value)
{
	printf("BENCH %s %.3f\n", key, value);
	fflush(stdout);
}

void bench_printf(double value, const char *fmt, ...)
{
	char key[128];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(key, sizeof(key), fmt, ap);
	va_end(ap);
	bench_print(key, value);
}

void bench_print_rusage(const char *prefix, const struct rusage *ru)
{
	bench_printf(ru->ru_stime.tv_sec * 1e9 + ru->ru_stime.tv_usec * 1e3,
		     "%s.sys_ns", prefix);
	bench_printf(ru->ru_minflt, "%s.minflt", prefix);
	bench_printf(ru->ru_nvcsw, "%s.nvcsw", prefix);
	bench_printf(ru->ru_nivcsw, "%s.nivcsw", prefix);
	bench_printf(ru->ru_maxrss, "%s.maxrss_kb", prefix);
}

void bench_die(const char *fmt, ...)
{
	va_list ap;

	fputs("bench: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(1);
}

void bench_pin(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set))
		bench_die("cannot pin to CPU %d", cpu);
}

void bench_case_add(struct bench_cases *cs, const char *key,
		    void (*run)(unsigned int n, unsigned int size),
		    unsigned int size)
{
	struct bench_case *c;

	if (cs->count == BENCH_IL_CASES)
		bench_die("more than %d interleaved cases", BENCH_IL_CASES);
	c = &cs->c[cs->count++];
	snprintf(c->key, sizeof(c->key), "%s", key);
	c->run = run;
	c->size = size;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

void bench_interleave(struct bench_cases *cs)
{
	unsigned int n = cs->count, r, i;
	unsigned int batch = cs->batch ? cs->batch : BENCH_IL_BATCH;

	for (i = 0; i < n; i++)
		cs->c[i].run(batch, cs->c[i].size);
	for (r = 0; r < BENCH_IL_ROUNDS; r++) {
		for (i = 0; i < n; i++) {
			struct bench_case *c = &cs->c[(i + r) % n];
			uint64_t t0 = bench_now();

			c->run(batch, c->size);
			c->ns[r] = (double)(bench_now() - t0) / batch;
		}
	}
	for (i = 0; i < n; i++) {
		struct bench_case *c = &cs->c[i];

		qsort(c->ns, BENCH_IL_ROUNDS, sizeof(c->ns[0]), cmp_double);
		if (bench_verbose)
			fprintf(stderr, "batches %-16s min %10.3f q1 %10.3f median %10.3f q3 %10.3f\n",
				c->key, c->ns[0], c->ns[BENCH_IL_ROUNDS / 4],
				c->ns[BENCH_IL_ROUNDS / 2], c->ns[BENCH_IL_ROUNDS * 3 / 4]);
		bench_print(c->key, c->ns[BENCH_IL_ROUNDS / 2]);
	}
}

struct props {
	EVENT_TRACE_PROPERTIES p;
	char name[64];
};

void bench_session_start(struct bench_session *s, const char *name,
			 const GUID *provider, UCHAR level, ULONGLONG any)
{
	bench_session_start_mode(s, name, provider, level, any,
				 EVENT_TRACE_BUFFERING_MODE);
}

void bench_session_start_mode(struct bench_session *s, const char *name,
			      const GUID *provider, UCHAR level,
			      ULONGLONG any, ULONG mode)
{
	bench_session_start_buffers(s, name, provider, level, any, mode, 0, 0);
}

void bench_session_start_buffers(struct bench_session *s, const char *name,
				 const GUID *provider, UCHAR level,
				 ULONGLONG any, ULONG mode, ULONG kb,
				 ULONG buffers)
{
	struct props b;
	ULONG err;

	memset(&b, 0, sizeof(b));
	b.p.Wnode.BufferSize = sizeof(b);
	b.p.Wnode.Flags = WNODE_FLAG_TRACED_GUID;
	b.p.Wnode.ClientContext = 1;
	/* A private logger is named by its provider's GUID. */
	if (mode & EVENT_TRACE_PRIVATE_LOGGER_MODE)
		b.p.Wnode.Guid = *provider;
	b.p.LogFileMode = mode;
	b.p.BufferSize = kb;
	b.p.MinimumBuffers = buffers;
	b.p.MaximumBuffers = buffers;
	b.p.LoggerNameOffset = sizeof(b.p);
	snprintf(s->name, sizeof(s->name), "%s", name);
	err = StartTraceA(&s->id, s->name, &b.p);
	if (err == ERROR_ALREADY_EXISTS) {
		/* Left over by an earlier run that died: stop it, start again. */
		ControlTraceA(0, s->name, &b.p, EVENT_TRACE_CONTROL_STOP);
		b.p.Wnode.BufferSize = sizeof(b);
		b.p.LoggerNameOffset = sizeof(b.p);
		err = StartTraceA(&s->id, s->name, &b.p);
	}
	if (err)
		bench_die("StartTrace %s: error %u", s->name, err);
	err = EnableTraceEx2(s->id, provider, EVENT_CONTROL_CODE_ENABLE_PROVIDER,
			     level, any, 0, 0, NULL);
	if (err)
		bench_die("EnableTraceEx2 %s: error %u", s->name, err);
}

void bench_session_stop(struct bench_session *s)
{
	struct props b;

	memset(&b, 0, sizeof(b));
	b.p.Wnode.BufferSize = sizeof(b);
	b.p.LoggerNameOffset = sizeof(b.p);
	ControlTraceA(s->id, NULL, &b.p, EVENT_TRACE_CONTROL_STOP);
}
