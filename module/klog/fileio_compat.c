// SPDX-License-Identifier: GPL-2.0
/*
 * FileIo's 32-bit system calls (ia32, on the 64-bit kernel) as their
 * 64-bit twins: the number mapped, and the arguments a 32-bit call splits
 * into two halves (offsets, lengths, fanotify's mask) joined in place, so
 * klog/fileio.c reads one layout.  Only iovec arrays stay 32-bit (struct
 * compat_iovec); the caller reads them as such.  x32 calls are not
 * followed (Debian's kernels refuse them unless booted with syscall.x32=y).
 */
#include <linux/sched.h>
#include <linux/compat.h>
#include <asm/syscall.h>
#include <asm/unistd.h>

#include "klog_fileio.h"

#ifdef CONFIG_IA32_EMULATION
/* The 64-bit value of the halves in @args[@lo] (low) and @args[@lo + 1]. */
static unsigned long klog_fileio_join(const unsigned long *args, int lo)
{
	return (u32)args[lo] | (u64)(u32)args[lo + 1] << 32;
}

/* The calls whose arguments are as their twins'. */
static const u16 klog_fileio_ia32[][2] = {
	{ __NR_ia32_open, __NR_open },
	{ __NR_ia32_creat, __NR_creat },
	{ __NR_ia32_openat, __NR_openat },
	{ __NR_ia32_openat2, __NR_openat2 },
	{ __NR_ia32_read, __NR_read },
	{ __NR_ia32_write, __NR_write },
	{ __NR_ia32_readv, __NR_readv },
	{ __NR_ia32_writev, __NR_writev },
	{ __NR_ia32_close, __NR_close },
	{ __NR_ia32_fsync, __NR_fsync },
	{ __NR_ia32_fdatasync, __NR_fdatasync },
	{ __NR_ia32_fchmod, __NR_fchmod },
	{ __NR_ia32_fchown, __NR_fchown },
	{ __NR_ia32_fchown32, __NR_fchown },
	{ __NR_ia32_fstat, __NR_fstat },
	{ __NR_ia32_fstat64, __NR_fstat },
	{ __NR_ia32_fstatat64, __NR_newfstatat },
	{ __NR_ia32_statx, __NR_statx },
	{ __NR_ia32_ioctl, __NR_ioctl },
	{ __NR_ia32_getdents, __NR_getdents },
	{ __NR_ia32_getdents64, __NR_getdents64 },
	{ __NR_ia32_inotify_add_watch, __NR_inotify_add_watch },
	{ __NR_ia32_unlink, __NR_unlink },
	{ __NR_ia32_unlinkat, __NR_unlinkat },
	{ __NR_ia32_rmdir, __NR_rmdir },
	{ __NR_ia32_rename, __NR_rename },
	{ __NR_ia32_renameat, __NR_renameat },
	{ __NR_ia32_renameat2, __NR_renameat2 },
};

long klog_fileio_compat_nr(long nr, unsigned long *args)
{
	unsigned int i;

	if (!in_ia32_syscall())
		return -1;
	for (i = 0; i < ARRAY_SIZE(klog_fileio_ia32); i++)
		if (klog_fileio_ia32[i][0] == nr)
			return klog_fileio_ia32[i][1];
	/* The calls whose 64-bit values come in halves. */
	switch (nr) {
	case __NR_ia32_pread64:
	case __NR_ia32_pwrite64:
		args[3] = klog_fileio_join(args, 3);
		return nr == __NR_ia32_pread64 ? __NR_pread64 : __NR_pwrite64;
	case __NR_ia32_preadv:
	case __NR_ia32_pwritev:
		args[3] = klog_fileio_join(args, 3);
		return nr == __NR_ia32_preadv ? __NR_preadv : __NR_pwritev;
	case __NR_ia32_preadv2:
	case __NR_ia32_pwritev2:
		args[3] = klog_fileio_join(args, 3);
		args[4] = args[5];
		return nr == __NR_ia32_preadv2 ? __NR_preadv2 : __NR_pwritev2;
	case __NR_ia32_ftruncate:
		args[1] = (u32)args[1];
		return __NR_ftruncate;
	case __NR_ia32_ftruncate64:
		args[1] = klog_fileio_join(args, 1);
		return __NR_ftruncate;
	case __NR_ia32_fallocate:
		args[2] = klog_fileio_join(args, 2);
		args[3] = klog_fileio_join(args, 4);
		return __NR_fallocate;
	case __NR_ia32_fanotify_mark:
		args[2] = klog_fileio_join(args, 2);
		args[3] = args[4];
		args[4] = args[5];
		return __NR_fanotify_mark;
	}
	return -1;
}

bool klog_fileio_in_close(void)
{
	struct task_struct *t = current;
	long nr = syscall_get_nr(t, task_pt_regs(t));

	if (t->flags & PF_EXITING)
		return false;
	return in_ia32_syscall() ? nr == __NR_ia32_close : nr == __NR_close;
}
#else
long klog_fileio_compat_nr(long nr, unsigned long *args)
{
	return -1;
}

bool klog_fileio_in_close(void)
{
	struct task_struct *t = current;

	return !(t->flags & PF_EXITING) && !in_compat_syscall() &&
	       syscall_get_nr(t, task_pt_regs(t)) == __NR_close;
}
#endif
