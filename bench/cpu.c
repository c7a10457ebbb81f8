// SPDX-License-Identifier: GPL-2.0
/*
 * etw-bench-cpu: run a command and report the CPU time of it and of all
 * its descendants, and its wall-clock time.  It is their subreaper, so a
 * daemon the command starts (etw record's logger, which leaves its
 * parent's session) is reaped here and counted too.  With etw record as
 * the command, the producer as its child and the logger, the logger's
 * share is the total minus what the producer reports (etw record itself
 * only waits).
 *
 *   etw-bench-cpu PREFIX COMMAND [ARGS...]
 *
 *   PREFIX.cpu_ns   user + system time of COMMAND and its descendants
 *   PREFIX.wall_ns  elapsed time
 *   PREFIX.status   exit status
 *   PREFIX.sys_ns, .minflt, .nvcsw, .nivcsw  their getrusage() (bench.h)
 */
#include <errno.h>
#include <stdio.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bench.h"

int main(int argc, char **argv)
{
	uint64_t t0, t1, cpu_ns = 0;
	struct rusage ru, sum = { 0 };
	int status = 0, st;
	pid_t pid, w;

	if (argc < 3)
		bench_die("usage: etw-bench-cpu PREFIX COMMAND [ARGS...]");
	if (prctl(PR_SET_CHILD_SUBREAPER, 1))
		bench_die("PR_SET_CHILD_SUBREAPER failed");
	t0 = bench_now();
	pid = fork();
	if (pid == 0) {
		execvp(argv[2], argv + 2);
		_exit(127);
	}
	if (pid < 0)
		bench_die("cannot run %s", argv[2]);
	t1 = 0;
	/* The command, then whatever it left running, until none is left. */
	while ((w = wait4(-1, &st, 0, &ru)) > 0 || errno == EINTR) {
		if (w <= 0)
			continue;
		sum.ru_stime.tv_sec += ru.ru_stime.tv_sec;
		sum.ru_stime.tv_usec += ru.ru_stime.tv_usec;
		sum.ru_minflt += ru.ru_minflt;
		sum.ru_nvcsw += ru.ru_nvcsw;
		sum.ru_nivcsw += ru.ru_nivcsw;
		if (ru.ru_maxrss > sum.ru_maxrss)
			sum.ru_maxrss = ru.ru_maxrss;
		cpu_ns += (ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1000000000ULL +
			  (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) * 1000ULL;
		if (w == pid) {
			status = st;
			t1 = bench_now();
		}
	}
	if (!t1)
		bench_die("cannot run %s", argv[2]);
	bench_printf(cpu_ns, "%s.cpu_ns", argv[1]);
	bench_printf(t1 - t0, "%s.wall_ns", argv[1]);
	bench_printf(WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status),
		     "%s.status", argv[1]);
	bench_print_rusage(argv[1], &sum);
	return 0;
}
