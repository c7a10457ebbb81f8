// SPDX-License-Identifier: GPL-2.0
/*
 * Counting system calls rather than assuming there are none: a thread of
 * its own installs a seccomp filter that traps every system call but the
 * two it needs to finish (rt_sigreturn after the SIGSYS handler, exit),
 * runs the function, and the handler counts the traps.  The filter lives
 * and dies with that thread.
 */
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <pthread.h>
#include <signal.h>
#include <stddef.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "bench.h"

static volatile unsigned long trapped;

static void on_sigsys(int sig, siginfo_t *si, void *ctx)
{
	(void)sig;
	(void)si;
	(void)ctx;
	trapped++;
}

struct count_job {
	void (*fn)(void *arg);
	void *arg;
	unsigned long n;
	unsigned long count;
	int failed;
};

static void *count_thread(void *p)
{
	struct count_job *job = p;
	struct sock_filter code[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, AUDIT_ARCH_X86_64, 1, 0),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_TRAP),
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_rt_sigreturn, 2, 0),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_exit, 1, 0),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_TRAP),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};
	struct sock_fprog prog = { .len = sizeof(code) / sizeof(code[0]), .filter = code };

	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) ||
	    syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, &prog)) {
		job->failed = 1;
		return NULL;
	}
	trapped = 0;
	for (unsigned long i = 0; i < job->n; i++)
		job->fn(job->arg);
	job->count = trapped;
	/* Leave without the thread-exit path's own system calls. */
	syscall(SYS_exit, 0);
	return NULL;
}

unsigned long bench_count_syscalls(void (*fn)(void *arg), void *arg,
				   unsigned long n)
{
	struct count_job job = { .fn = fn, .arg = arg, .n = n };
	struct sigaction sa, old;
	pthread_t t;

	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_sigsys;
	sa.sa_flags = SA_SIGINFO;
	sigaction(SIGSYS, &sa, &old);
	if (pthread_create(&t, NULL, count_thread, &job))
		bench_die("pthread_create");
	pthread_join(t, NULL);
	sigaction(SIGSYS, &old, NULL);
	if (job.failed)
		bench_die("seccomp: cannot install the counting filter");
	return job.count;
}
