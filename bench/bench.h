/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the benchmark programs share: the clock, the timed loop, a session
 * to write into, the syscall counter and the output lines that
 * scripts/bench.sh turns into the table.
 *
 * Every program prints its results as lines
 *
 *	BENCH <key> <value>
 *
 * and nothing else on standard output.  Times are nanoseconds of the
 * guest's CLOCK_MONOTONIC: under `-icount shift=0` one nanosecond is one
 * guest instruction, so the same numbers read as instructions per event.
 */
#ifndef ETW_BENCH_H
#define ETW_BENCH_H

#include <stdint.h>
#include <time.h>

#include <windows.h>
#include <evntprov.h>
#include <evntrace.h>

/* Time each case is run for, per repetition; the minimum rep counts. */
#define BENCH_REP_NS	30000000ULL
#define BENCH_REPS	5

static inline uint64_t bench_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

static inline uint64_t bench_thread_cpu(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

/*
 * Run the body (the last arguments) in batches of BATCH until
 * BENCH_REP_NS passed, BENCH_REPS times; store the smallest nanoseconds
 * per iteration in *NS.  A macro, not a callback, so the loop around the
 * body is a counter and a branch: the disabled-path cases are a few instructions each and a call through a
 * pointer would be most of what is measured.
 */
#define BENCH_LOOP(ns, batch, ...)					\
	do {								\
		double _best = 0;					\
		for (int _rep = 0; _rep < BENCH_REPS; _rep++) {		\
			uint64_t _c0 = bench_thread_cpu();		\
			uint64_t _t0 = bench_now(), _t1, _n = 0;	\
			do {						\
				for (unsigned int _i = 0; _i < (batch); _i++) { \
					__VA_ARGS__;			\
				}					\
				_n += (batch);				\
				_t1 = bench_now();			\
			} while (_t1 - _t0 < BENCH_REP_NS);		\
			double _v = (double)(_t1 - _t0) / (double)_n;	\
			if (bench_verbose)				\
				bench_rep(#__VA_ARGS__, _v, _t1 - _t0,	\
					  bench_thread_cpu() - _c0);	\
			if (!_rep || _v < _best)			\
				_best = _v;				\
		}							\
		*(ns) = _best;						\
	} while (0)

/*
 * BENCH_LOOP for the cases that stay in user space and cost a few
 * instructions: the body eight times per turn of the loop, so the
 * loop's own counter and branch add under half an instruction per call.  The compiler
 * barrier between the copies makes each one load what it reads afresh, as
 * one call in the caller's code would.
 */
#define BENCH_BARRIER()	__asm__ __volatile__("" ::: "memory")
#define BENCH_LOOP8(ns, batch, ...)					\
	do {								\
		BENCH_LOOP(ns, batch, {					\
			__VA_ARGS__; BENCH_BARRIER();			\
			__VA_ARGS__; BENCH_BARRIER();			\
			__VA_ARGS__; BENCH_BARRIER();			\
			__VA_ARGS__; BENCH_BARRIER();			\
			__VA_ARGS__; BENCH_BARRIER();			\
			__VA_ARGS__; BENCH_BARRIER();			\
			__VA_ARGS__; BENCH_BARRIER();			\
			__VA_ARGS__; BENCH_BARRIER();			\
		});							\
		*(ns) /= 8;						\
	} while (0)

/*
 * Cases timed interleaved, for those whose ratios matter in wall time: a
 * round is one batch of BENCH_IL_BATCH calls of every case, in an order
 * that turns by one case from round to round, and a case's result is the
 * median of its BENCH_IL_ROUNDS batches (ns per call).  So a ratio
 * compares batches run within milliseconds of each other, where cases
 * timed one after the other, 150 ms each, measure how much of a shared
 * host the vCPU got in each case's 150 ms as much as the case
 * (Documentation/performance.rst, "What each row measures").
 */
#define BENCH_IL_BATCH	256
#define BENCH_IL_ROUNDS	200
#define BENCH_IL_CASES	8

struct bench_case {
	char key[32];
	/* Makes @n calls of the case with @size bytes of payload. */
	void (*run)(unsigned int n, unsigned int size);
	unsigned int size;
	double ns[BENCH_IL_ROUNDS];
};

struct bench_cases {
	struct bench_case c[BENCH_IL_CASES];
	unsigned int count;
	/* Calls per batch; 0 is BENCH_IL_BATCH. */
	unsigned int batch;
};

void bench_case_add(struct bench_cases *cs, const char *key,
		    void (*run)(unsigned int n, unsigned int size),
		    unsigned int size);
/* Time the cases interleaved and print each one's median. */
void bench_interleave(struct bench_cases *cs);

/* ETW_BENCH_VERBOSE=1: every repetition's result on standard error. */
extern int bench_verbose;
void bench_rep(const char *what, double ns, uint64_t wall, uint64_t cpu);

/* BENCH <key> <value> */
void bench_print(const char *key, double value);
void bench_printf(double value, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/*
 * What getrusage() counts of @ru, as PREFIX.sys_ns (system time),
 * PREFIX.minflt (page faults), PREFIX.nvcsw (voluntary context switches:
 * sleeps, so wake-ups) and PREFIX.nivcsw (involuntary: preemptions).
 */
struct rusage;
void bench_print_rusage(const char *prefix, const struct rusage *ru);

/* Exit with a message on standard error. */
void bench_die(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));

/* Run the calling thread on @cpu only. */
void bench_pin(int cpu);

/*
 * A session in buffering mode (a memory ring, like ftrace's overwrite
 * mode: steady state without a consumer) that enables @provider at
 * @level with MatchAnyKeyword @any.
 */
struct bench_session {
	CONTROLTRACE_ID id;
	char name[64];
};

void bench_session_start(struct bench_session *s, const char *name,
			 const GUID *provider, UCHAR level, ULONGLONG any);
/* The same with another LogFileMode (a private logger: item 5). */
void bench_session_start_mode(struct bench_session *s, const char *name,
			      const GUID *provider, UCHAR level,
			      ULONGLONG any, ULONG mode);
/* The same with @buffers buffers of @kb KiB (0: the defaults). */
void bench_session_start_buffers(struct bench_session *s, const char *name,
				 const GUID *provider, UCHAR level,
				 ULONGLONG any, ULONG mode, ULONG kb,
				 ULONG buffers);
void bench_session_stop(struct bench_session *s);

/*
 * The number of system calls @fn makes in @n calls, counted by a seccomp
 * filter that traps every system call of a thread made for the count.
 * Trapped calls do not run, so only count paths that should make none
 * (and one that should make one, to show the counter works).
 */
unsigned long bench_count_syscalls(void (*fn)(void *arg), void *arg,
				   unsigned long n);

/* Fixed provider GUIDs of the benchmark programs. */
extern const GUID bench_provider_enabled;
extern const GUID bench_provider_disabled;

#endif /* ETW_BENCH_H */
