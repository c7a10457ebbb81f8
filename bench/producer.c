// SPDX-License-Identifier: GPL-2.0
/*
 * etw-bench-producer: a provider writing at full speed, for the consumer
 * and dump benchmarks.  Run under a logger (etw record) that enables
 * bench_provider_enabled; writes COUNT events of SIZE bytes, as fast as it
 * can, and reports what it wrote and the CPU time it used.
 *
 *   etw-bench-producer COUNT SIZE
 *
 *   producer.events      EventWrite calls that returned ERROR_SUCCESS
 *   producer.failed      calls that returned an error (the event was lost)
 *   producer.first_failed  the index of the first of them (COUNT: none)
 *   producer.failed_runs   runs of consecutive failed calls: when and how
 *                        often the session ran out of buffers
 *   producer.cpu_ns      this process's CPU time
 *   producer.wall_ns     time from the first event to the last
 *   producer.sys_ns, .minflt, .nvcsw, .nivcsw  its getrusage() (bench.h)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "bench.h"

int main(int argc, char **argv)
{
	static unsigned char payload[65000];
	EVENT_DESCRIPTOR ev = { .Id = 1, .Level = 4, .Keyword = 0x1 };
	unsigned long n, size, ok = 0, failed = 0, first, runs = 0, last;
	EVENT_DATA_DESCRIPTOR d;
	struct timespec cpu;
	struct rusage ru;
	uint64_t t0, t1;
	REGHANDLE h;

	if (argc != 3)
		bench_die("usage: etw-bench-producer COUNT SIZE");
	n = strtoul(argv[1], NULL, 0);
	size = strtoul(argv[2], NULL, 0);
	if (size > sizeof(payload))
		bench_die("SIZE at most %zu", sizeof(payload));
	memset(payload, 0x5a, size);
	if (EventRegister(&bench_provider_enabled, NULL, NULL, &h))
		bench_die("EventRegister failed");
	if (!EventEnabled(h, &ev))
		bench_die("producer: no session enables the provider");
	EventDataDescCreate(&d, payload, (ULONG)size);
	first = last = n;
	t0 = bench_now();
	for (unsigned long i = 0; i < n; i++) {
		if (EventWrite(h, &ev, size ? 1 : 0, &d) == ERROR_SUCCESS) {
			ok++;
			continue;
		}
		failed++;
		if (first == n)
			first = i;
		runs += last + 1 != i;
		last = i;
	}
	t1 = bench_now();
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &cpu);
	bench_print("producer.events", ok);
	bench_print("producer.failed", failed);
	bench_print("producer.first_failed", first);
	bench_print("producer.failed_runs", runs);
	bench_print("producer.cpu_ns", cpu.tv_sec * 1e9 + cpu.tv_nsec);
	bench_print("producer.wall_ns", t1 - t0);
	getrusage(RUSAGE_SELF, &ru);
	bench_print_rusage("producer", &ru);
	EventUnregister(h);
	return 0;
}
