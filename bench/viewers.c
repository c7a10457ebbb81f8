// SPDX-License-Identifier: GPL-2.0
/*
 * etw-bench-viewers: a large synthetic kernel-logger trace for the cost
 * of etw report and etw export (scripts/bench-host-export.sh), written
 * with the tests' trace writer (libetw/tests/ktrace.h).
 *
 *   etw-bench-viewers FILE SAMPLES
 *
 * 4 CPUs; 16 processes of 8 threads, each process an image of its own
 * and the kernel's; SAMPLES CPU samples, each with a StackWalk of 8 to
 * 24 frames from a few hundred distinct stacks (kernel and user); a
 * CSwitch with its stack and a ReadyThread every 8 samples.  Prints
 * BENCH viewers.records, viewers.samples and viewers.file_bytes.
 */
#include <stdlib.h>
#include <sys/stat.h>

#include "bench.h"
#include "ktrace.h"

#define CPUS		4
#define PROCS		16
#define THREADS		8
#define KBASE		0xffffffff81000000ull
#define UBASE		0x555555554000ull

int main(int argc, char **argv)
{
	static struct ktrace kt;
	uint64_t records = 0, samples, frames[32];
	unsigned int seed = 1;
	struct stat st;
	char name[32];

	if (argc != 3)
		bench_die("usage: etw-bench-viewers FILE SAMPLES");
	samples = strtoull(argv[2], NULL, 10);
	if (kt_open(&kt, argv[1], CPUS))
		bench_die("cannot write %s", argv[1]);
	kt_cpu(&kt, 0);
	kt_process(&kt, 1000, 0, "Idle");
	kt_image(&kt, 1000, 0, KBASE, 0x2000000, "vmlinux");
	records += 2;
	for (uint32_t p = 1; p <= PROCS; p++) {
		snprintf(name, sizeof(name), "worker%u", p);
		kt_process(&kt, 1000, 1000 * p, name);
		kt_image(&kt, 1000, 1000 * p, UBASE, 0x100000, "/nonexistent/worker");
		records += 2;
		for (uint32_t t = 0; t < THREADS; t++) {
			kt_thread(&kt, 1000, 1000 * p, 1000 * p + t + 1, "thread");
			records += 2;
		}
	}
	/* Each CPU's samples of a block together: buffers of one CPU each. */
	for (uint64_t i = 0; i < samples; i++) {
		/* Block of 4096 samples, CPU by CPU within it. */
		uint64_t k = (i & ~4095ull) + (i & 4095) % (4096 / CPUS) * CPUS +
			     (i & 4095) / (4096 / CPUS);
		uint16_t cpu = k % CPUS;
		uint32_t pid = 1000 * (1 + rand_r(&seed) % PROCS);
		uint32_t tid = pid + 1 + rand_r(&seed) % THREADS;
		unsigned int n = 8 + rand_r(&seed) % 17, shape = rand_r(&seed) % 300;
		uint64_t ts = 2000 + k * 10 / CPUS;

		/* Stacks from a few hundred shapes: a kernel part, then user frames. */
		for (unsigned int f = 0; f < n; f++)
			frames[f] = f < 3 && shape % 3 == 0 ?
				    KBASE + 0x1000 * (shape % 50 + f) :
				    UBASE + 0x100 * ((shape * 7 + f * 13) % 4096);
		kt_cpu(&kt, cpu);
		kt_sample(&kt, ts, frames[0], tid);
		kt_stack(&kt, ts, pid, tid, frames, n);
		records += 2;
		if (k % 8 == 7) {
			kt_cswitch(&kt, ts + 1, tid, tid - 1, 5, 15);
			kt_stack(&kt, ts + 1, pid, tid - 1, frames, n);
			kt_ready(&kt, ts + 2, tid - 1);
			records += 3;
		}
	}
	if (kt_close(&kt) || stat(argv[1], &st))
		bench_die("cannot write %s", argv[1]);
	bench_printf(records, "viewers.records");
	bench_printf(samples, "viewers.samples");
	bench_printf(st.st_size, "viewers.file_bytes");
	return 0;
}
