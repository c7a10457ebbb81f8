// SPDX-License-Identifier: GPL-2.0
/*
 * etw-bench-threads: does the write path scale?  One writer thread on
 * CPU 0, then two, pinned to CPUs 0 and 1, each writing 64-byte events
 * into the same session as fast as it can for the same time.  The
 * aggregate rate of two over the rate of one is the scaling factor; the
 * same is measured for getpid(), which shares nothing, as the ceiling
 * this (virtual) machine allows, for getpid() with one read of the TSC,
 * the clock every event reads, as the ceiling of a system call that
 * timestamps, and for a loop of arithmetic (spin), the ceiling with no
 * kernel at all.  EventWrite writes through a writer fd per thread; the
 * same request (ETW_IOC_WRITE_SHORT) made directly, once through the
 * process's one /dev/etw fd and once through a writer fd per thread,
 * shows what the shared file's reference count costs.
 *
 * The host's other load comes and goes within a second, and two threads
 * need two host cores where one needs one.  So the run is ROUNDS rounds,
 * each measuring every case with one thread and with two back to back
 * (the order alternating from round to round), and what counts is the
 * median over the rounds of each round's ratio: a pair measured within
 * a fraction of a second of each other sees nearly the same host.  The
 * same again for the time both threads ran (scale.ran.*, running_rate()):
 *
 *   scale.<case>.1         events per second, one thread (median)
 *   scale.<case>.2         events per second, two threads together (median)
 *   scale.<case>.ratio     median of the rounds' two / one
 *   scale.<case>.vs_getpid median of the rounds' two / one over getpid's
 *   scale.<case>.vs_getpidtsc  the same over getpid and the TSC's
 *   scale.ran.<case>.added_ns  ns the second thread adds to each event
 *
 * Each round's numbers go to standard error.  "etw-bench-threads CASE"
 * runs only two threads of CASE, once, and prints nothing: what
 * scripts/vm/bench.sh traces (filerefs).
 */
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <x86intrin.h>

#include <libetw.h>

#include "bench.h"

#define RUN_NS		100000000ULL
#define ROUNDS		9

static REGHANDLE h;
static const EVENT_DESCRIPTOR ev = { .Id = 1, .Level = 4, .Keyword = 0x1 };
static unsigned char payload[64];

enum what { EVENTWRITE, GETPID, GETPID_TSC, SPIN, SHAREDFD, WRITERFD, NR_WHAT };

static const char *const names[NR_WHAT] = {
	"eventwrite", "getpid", "getpidtsc", "spin", "sharedfd", "writerfd",
};

/* The raw cases' registration, on the process's /dev/etw fd. */
static int dev_fd;
static __u32 raw_reg;

/* The raw cases' request: what libetw's EventWrite sends. */
static void raw_request(struct etw_event_write_short *w)
{
	memset(w, 0, sizeof(*w));
	w->size = sizeof(*w);
	w->reg_id = raw_reg;
	w->desc.id = ev.Id;
	w->desc.level = ev.Level;
	w->desc.keyword = ev.Keyword;
	w->data = (uintptr_t)payload;
	w->count = sizeof(payload);
	w->flags = ETW_WRITE_F_INLINE;
}

/* The fd a raw case's thread writes through. */
static int raw_fd(enum what what)
{
	struct etw_writer_open o = { .size = sizeof(o) };

	if (what == SHAREDFD)
		return dev_fd;
	if (ioctl(dev_fd, ETW_IOC_WRITER_OPEN, &o))
		bench_die("ETW_IOC_WRITER_OPEN failed");
	return o.fd;
}

/*
 * Each thread's clock after every batch of BATCH calls: the running time
 * below.  At most LOG_MAX of them: 100 ms of the fastest case (spin, about
 * 11 million calls a second) are about 69,000 batches.
 */
#define BATCH		16
#define LOG_MAX		131072

struct writer {
	pthread_t t;
	int cpu;
	enum what what;
	unsigned long count;
	unsigned long long tsc;
	uint64_t *log;		/* log[0] the start, log[i] batch i's end */
	unsigned int nlog;
};

static pthread_barrier_t start;
static atomic_int stop;

static void *writer(void *p)
{
	struct writer *w = p;
	EVENT_DATA_DESCRIPTOR d;
	struct etw_event_write_short req __attribute__((aligned(8)));
	unsigned long long tsc = 0;
	unsigned long n = 0;
	unsigned int nlog = 0;
	int fd = -1;

	bench_pin(w->cpu);
	EventDataDescCreate(&d, payload, sizeof(payload));
	if (w->what >= SHAREDFD) {
		raw_request(&req);
		fd = raw_fd(w->what);
	}
	pthread_barrier_wait(&start);
	w->log[nlog++] = bench_now();
	while (!atomic_load_explicit(&stop, memory_order_relaxed)) {
		for (int i = 0; i < BATCH; i++) {
			if (w->what == EVENTWRITE) {
				EventWrite(h, &ev, 1, &d);
			} else if (w->what == GETPID) {
				syscall(SYS_getpid);
			} else if (w->what == GETPID_TSC) {
				/* As the kernel reads it: rdtsc_ordered(). */
				syscall(SYS_getpid);
				_mm_lfence();
				tsc += __rdtsc();
			} else if (w->what == SPIN) {
				/* No system call: arithmetic in registers. */
				for (int k = 0; k < 64; k++)
					tsc = tsc * 6364136223846793005ULL + 1442695040888963407ULL;
				__asm__ volatile("" : "+r"(tsc));
			} else {
				ioctl(fd, ETW_IOC_WRITE_SHORT, &req);
			}
		}
		n += BATCH;
		if (nlog < LOG_MAX)
			w->log[nlog++] = bench_now();
	}
	w->count = n;
	w->tsc = tsc;
	w->nlog = nlog;
	if (w->what == WRITERFD)
		close(fd);
	return NULL;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* The median of the @n values at @v (left in order); 0 if none. */
static double median_n(const double *v, int n)
{
	static double s[LOG_MAX];

	if (n <= 0)
		return 0;
	memcpy(s, v, n * sizeof(*s));
	qsort(s, n, sizeof(*s), cmp_double);
	return n & 1 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
}

/*
 * A batch longer than GAP times the thread's median batch was not all
 * run: the host ran something else on the core of this vCPU's thread
 * (under TCG the guest's clock is the host's), or the guest did (an
 * interrupt, the timer).
 */
#define GAP		3

static bool batch_ran(const struct writer *w, unsigned int i, double limit)
{
	return (double)(w->log[i] - w->log[i - 1]) <= limit;
}

static double batch_limit(const struct writer *w)
{
	static double d[LOG_MAX];
	unsigned int i;

	for (i = 1; i < w->nlog; i++)
		d[i - 1] = (double)(w->log[i] - w->log[i - 1]);
	return GAP * median_n(d, (int)w->nlog - 1);
}

/*
 * Is [@t0, @t1] inside @o's log, and did @o run all of it (no batch of
 * its overlapping it longer than @limit)?  @j: the first batch of @o
 * that may overlap, advanced as the intervals asked about advance.
 */
static bool other_ran(const struct writer *o, double limit, unsigned int *j,
		      uint64_t t0, uint64_t t1)
{
	unsigned int k;

	if (o->nlog < 2 || t0 < o->log[0] || t1 > o->log[o->nlog - 1])
		return false;
	while (*j < o->nlog - 1 && o->log[*j + 1] < t0)
		(*j)++;
	for (k = *j + 1; k < o->nlog && o->log[k - 1] < t1; k++)
		if (!batch_ran(o, k, limit))
			return false;
	return true;
}

/*
 * Events per second of @w while it ran, and with @o, while both ran: its
 * batches that were run whole (and during which @o ran too), at the
 * median batch's rate.  The median, not their sum over their time: the
 * host also slows a vCPU by less than a gap (its own interrupts, a short
 * task on the same core, cold caches after one), in some batches; a cost
 * of every event moves the median.  NaN if fewer than 16 batches qualify.
 */
static double running_rate(const struct writer *w, const struct writer *o)
{
	static double d[LOG_MAX];
	double limit = batch_limit(w), olimit = o ? batch_limit(o) : 0;
	unsigned int i, j = 0;
	int n = 0;

	for (i = 1; i < w->nlog; i++) {
		if (!batch_ran(w, i, limit))
			continue;
		if (o && !other_ran(o, olimit, &j, w->log[i - 1], w->log[i]))
			continue;
		d[n++] = (double)(w->log[i] - w->log[i - 1]);
	}
	return n < 16 ? NAN : BATCH * 1e9 / median_n(d, n);
}

/*
 * Events per second of @threads writers together: *@wall over the run's
 * wall-clock time, *@ran the sum of each thread's rate while all of them
 * ran (what the VM's two vCPUs do when the host gives each a core).
 */
static void run(enum what what, int threads, double *wall, double *ran)
{
	static uint64_t logs[2][LOG_MAX];
	struct writer w[2];
	uint64_t t0, t1;
	unsigned long total = 0;

	atomic_store(&stop, 0);
	pthread_barrier_init(&start, NULL, threads + 1);
	for (int i = 0; i < threads; i++) {
		w[i] = (struct writer){ .cpu = i, .what = what, .log = logs[i] };
		if (pthread_create(&w[i].t, NULL, writer, &w[i]))
			bench_die("pthread_create");
	}
	pthread_barrier_wait(&start);
	t0 = bench_now();
	while (bench_now() - t0 < RUN_NS)
		usleep(10000);
	atomic_store(&stop, 1);
	t1 = bench_now();
	for (int i = 0; i < threads; i++) {
		pthread_join(w[i].t, NULL);
		total += w[i].count;
	}
	pthread_barrier_destroy(&start);
	*wall = (double)total * 1e9 / (double)(t1 - t0);
	if (threads == 1) {
		*ran = running_rate(&w[0], NULL);
	} else {
		*ran = running_rate(&w[0], &w[1]) + running_rate(&w[1], &w[0]);
	}
}

/* Print @key = the median of @v's rounds that measured something (not NaN). */
static void print_median(const double *v, const char *key, const char *kind,
			 const char *name)
{
	double s[ROUNDS];
	int n = 0;

	for (int r = 0; r < ROUNDS; r++)
		if (!isnan(v[r]))
			s[n++] = v[r];
	if (n)
		bench_printf(median_n(s, n), "scale%s.%s.%s", kind, name, key);
}

/*
 * One measure (wall, or ".ran": while both ran) of every case and round.
 * In the second, what two threads add to each event's time: per thread,
 * the time of an event with the other vCPU writing too, less alone.
 */
static void print_measure(const char *kind, double one[][ROUNDS],
			  double two[][ROUNDS])
{
	double ratio[NR_WHAT][ROUNDS], v[ROUNDS];
	char key[32];

	for (int what = 0; what < NR_WHAT; what++)
		for (int r = 0; r < ROUNDS; r++)
			ratio[what][r] = two[what][r] / one[what][r];
	for (int what = 0; what < NR_WHAT; what++) {
		print_median(one[what], "1", kind, names[what]);
		print_median(two[what], "2", kind, names[what]);
		print_median(ratio[what], "ratio", kind, names[what]);
		if (*kind) {
			for (int r = 0; r < ROUNDS; r++)
				v[r] = 2e9 / two[what][r] - 1e9 / one[what][r];
			print_median(v, "added_ns", kind, names[what]);
		}
		if (what == GETPID || what == GETPID_TSC)
			continue;
		for (int base = GETPID; base <= GETPID_TSC; base++) {
			for (int r = 0; r < ROUNDS; r++)
				v[r] = ratio[what][r] / ratio[base][r];
			snprintf(key, sizeof(key), "vs_%s", names[base]);
			print_median(v, key, kind, names[what]);
		}
	}
}

int main(int argc, char **argv)
{
	static double one[NR_WHAT][ROUNDS], two[NR_WHAT][ROUNDS];
	static double one_ran[NR_WHAT][ROUNDS], two_ran[NR_WHAT][ROUNDS];
	struct etw_provider_register reg = { .size = sizeof(reg) };
	struct bench_session s;
	double unused;

	if (sysconf(_SC_NPROCESSORS_ONLN) < 2) {
		fprintf(stderr, "bench: threads: needs two CPUs\n");
		return 0;
	}
	memset(payload, 0x5a, sizeof(payload));
	if (EventRegister(&bench_provider_enabled, NULL, NULL, &h))
		bench_die("EventRegister failed");
	dev_fd = etw_device_fd();
	memcpy(reg.guid, &bench_provider_enabled, sizeof(reg.guid));
	if (dev_fd < 0 || ioctl(dev_fd, ETW_IOC_PROVIDER_REGISTER, &reg))
		bench_die("ETW_IOC_PROVIDER_REGISTER failed");
	raw_reg = reg.reg_id;
	bench_session_start(&s, "etw-bench-threads", &bench_provider_enabled, 4, 0x1);
	for (int what = 0; argc > 1 && what < NR_WHAT; what++)
		if (!strcmp(argv[1], names[what])) {
			run(what, 2, &unused, &unused);
			goto out;
		}
	/* Every case in every round; one and two back to back, ABBA. */
	for (int r = 0; r < ROUNDS; r++) {
		for (int what = 0; what < NR_WHAT; what++) {
			if (r & 1) {
				run(what, 2, &two[what][r], &two_ran[what][r]);
				run(what, 1, &one[what][r], &one_ran[what][r]);
			} else {
				run(what, 1, &one[what][r], &one_ran[what][r]);
				run(what, 2, &two[what][r], &two_ran[what][r]);
			}
			fprintf(stderr, "# threads round %d %-10s wall %8.0f %8.0f %5.2fx  ran %8.0f %8.0f %5.2fx\n",
				r, names[what], one[what][r], two[what][r],
				two[what][r] / one[what][r], one_ran[what][r],
				two_ran[what][r], two_ran[what][r] / one_ran[what][r]);
		}
	}
	print_measure("", one, two);
	print_measure(".ran", one_ran, two_ran);
out:
	bench_session_stop(&s);
	EventUnregister(h);
	return 0;
}
