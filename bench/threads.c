// SPDX-License-Identifier: GPL-2.0
/*
 * etw-bench-threads: does the write path scale?  One writer thread on
 * CPU 0, then two, pinned to CPUs 0 and 1, each writing 64-byte events
 * into the same session as fast as it can for the same time.  The
 * aggregate rate of two over the rate of one is the scaling factor; the
 * same is measured for getpid(), which shares nothing, as the ceiling
 * this (virtual) machine allows.  EventWrite writes through a writer fd
 * per thread; the same request (ETW_IOC_WRITE_SHORT) made directly, once
 * through the process's one /dev/etw fd and once through a writer fd per
 * thread, shows what the shared file's reference count costs.
 *
 *   scale.<case>.1   events per second, one thread
 *   scale.<case>.2   events per second, two threads together
 *
 * "etw-bench-threads CASE" runs only two threads of CASE, once, and
 * prints nothing: what scripts/vm/bench.sh traces (filerefs).
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <libetw.h>

#include "bench.h"

#define RUN_NS		200000000ULL
#define ROUNDS		3

static REGHANDLE h;
static const EVENT_DESCRIPTOR ev = { .Id = 1, .Level = 4, .Keyword = 0x1 };
static unsigned char payload[64];

enum what { EVENTWRITE, GETPID, SHAREDFD, WRITERFD };

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

struct writer {
	pthread_t t;
	int cpu;
	enum what what;
	unsigned long count;
};

static pthread_barrier_t start;
static atomic_int stop;

static void *writer(void *p)
{
	struct writer *w = p;
	EVENT_DATA_DESCRIPTOR d;
	struct etw_event_write_short req __attribute__((aligned(8)));
	unsigned long n = 0;
	int fd = -1;

	bench_pin(w->cpu);
	EventDataDescCreate(&d, payload, sizeof(payload));
	if (w->what >= SHAREDFD) {
		raw_request(&req);
		fd = raw_fd(w->what);
	}
	pthread_barrier_wait(&start);
	while (!atomic_load_explicit(&stop, memory_order_relaxed)) {
		for (int i = 0; i < 16; i++) {
			if (w->what == EVENTWRITE)
				EventWrite(h, &ev, 1, &d);
			else if (w->what == GETPID)
				syscall(SYS_getpid);
			else
				ioctl(fd, ETW_IOC_WRITE_SHORT, &req);
		}
		n += 16;
	}
	w->count = n;
	if (w->what == WRITERFD)
		close(fd);
	return NULL;
}

/* Events per second of @threads writers together. */
static double run(enum what what, int threads)
{
	struct writer w[2];
	uint64_t t0, t1;
	unsigned long total = 0;

	atomic_store(&stop, 0);
	pthread_barrier_init(&start, NULL, threads + 1);
	for (int i = 0; i < threads; i++) {
		w[i] = (struct writer){ .cpu = i, .what = what };
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
	return (double)total * 1e9 / (double)(t1 - t0);
}

int main(int argc, char **argv)
{
	static const char *const names[] = { "eventwrite", "getpid", "sharedfd", "writerfd" };
	struct etw_provider_register reg = { .size = sizeof(reg) };
	struct bench_session s;

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
	for (int what = EVENTWRITE; argc > 1 && what <= WRITERFD; what++)
		if (!strcmp(argv[1], names[what])) {
			run(what, 2);
			goto out;
		}
	for (int what = EVENTWRITE; what <= WRITERFD; what++) {
		double one = 0, two = 0;

		/* Alternate, best of each: the host's other load comes and goes. */
		for (int r = 0; r < ROUNDS; r++) {
			double v = run(what, 1);

			one = v > one ? v : one;
			v = run(what, 2);
			two = v > two ? v : two;
		}
		bench_printf(one, "scale.%s.1", names[what]);
		bench_printf(two, "scale.%s.2", names[what]);
	}
out:
	bench_session_stop(&s);
	EventUnregister(h);
	return 0;
}
