/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A seccomp filter that kills the process on any system call but
 * exit_group and clock_gettime (which a vDSO without a usable clock source
 * falls back to): what "no system call on the write path" is tested with.
 * Shared by the VM selftests and the host unit tests.
 */
#ifndef ETW_NO_SYSCALL_H
#define ETW_NO_SYSCALL_H

#include <stddef.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <sys/prctl.h>
#include <sys/syscall.h>

/* 0, or -1 if the filter could not be installed. */
static inline int etw_forbid_syscalls(void)
{
	static struct sock_filter f[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_exit_group, 2, 0),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_clock_gettime, 1, 0),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};
	struct sock_fprog prog = { .len = sizeof(f) / sizeof(f[0]), .filter = f };

	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) ||
	    prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog))
		return -1;
	return 0;
}

#endif /* ETW_NO_SYSCALL_H */
