// SPDX-License-Identifier: GPL-2.0
/*
 * etw-bench-cpu: run a command and report the CPU time of it and of the
 * children it waited for (wait4's accounting), and its wall-clock time.
 * With a logger as the command and the producer as its child, the
 * logger's own share is the total minus what the producer reports.
 *
 *   etw-bench-cpu PREFIX COMMAND [ARGS...]
 *
 *   PREFIX.cpu_ns   user + system time of COMMAND and its children
 *   PREFIX.wall_ns  elapsed time
 *   PREFIX.status   exit status
 */
#include <stdio.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bench.h"

int main(int argc, char **argv)
{
	struct rusage ru;
	uint64_t t0, t1;
	int status;
	pid_t pid;

	if (argc < 3)
		bench_die("usage: etw-bench-cpu PREFIX COMMAND [ARGS...]");
	t0 = bench_now();
	pid = fork();
	if (pid == 0) {
		execvp(argv[2], argv + 2);
		_exit(127);
	}
	if (pid < 0 || wait4(pid, &status, 0, &ru) != pid)
		bench_die("cannot run %s", argv[2]);
	t1 = bench_now();
	bench_printf((ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1e9 +
		     (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) * 1e3,
		     "%s.cpu_ns", argv[1]);
	bench_printf(t1 - t0, "%s.wall_ns", argv[1]);
	bench_printf(WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status),
		     "%s.status", argv[1]);
	return 0;
}
