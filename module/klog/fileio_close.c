// SPDX-License-Identifier: GPL-2.0
/*
 * FileIo Cleanup and Close for the descriptors no close(2) closes: those
 * still open when a process exits, those exec closes (O_CLOEXEC), and
 * those close_range(), dup2() and dup3() close.  Without them a reader
 * sees files never closed, and a FileObject reused while "open".
 *
 * Why a kprobe on filp_close(file, owner): every one of these paths ends
 * there on 6.1 and 6.12 (close_files() at exit, do_close_on_exec(),
 * __range_close(), do_dup2()), with the descriptor table as the owner;
 * the kernel's own closes pass no owner and are not followed.  No
 * tracepoint is on these paths.  6.1's close(2) reaches filp_close() too:
 * that one the system call tracepoints already wrote (klog/fileio.c), so
 * a close(2) of a live task is skipped here.
 *
 * Each close of a followed file writes Cleanup, Close too when the
 * table's reference was the file's last (as close(2) does), and an
 * OperationEnd with STATUS_SUCCESS, all with the thread's IrpPtr, as
 * Windows writes the Cleanup and Close of the handles a process leaves.
 *
 * Context: the pre-handler runs in the closing task with preemption
 * disabled (filp_close() is ftrace-able: no int3 on 6.1 or 6.12 x86-64);
 * it only hashes pointers and writes records.  Cost: nothing on the
 * system call path; one handler call per close of any descriptor while
 * the source runs.
 */
#include <linux/fs.h>
#include <linux/kprobes.h>
#include <linux/sched.h>

#include "klog_fileio.h"
#include "klog_proc.h"

static int klog_fileio_filp_close_pre(struct kprobe *kp, struct pt_regs *regs)
{
	struct file *file = (struct file *)regs_get_kernel_argument(regs, 0);
	struct klog_fileio_simple rec;

	/* The second argument, the owner: a descriptor table, or none. */
	if (!regs_get_kernel_argument(regs, 1) ||
	    !klog_enabled(ETW_KFLAG_FILE_IO | ETW_KFLAG_FILE_IO_INIT) ||
	    (current->flags & PF_KTHREAD) || klog_fileio_in_close() || !klog_fileio_followed(file))
		return 0;
	rec.irp = klog_fileio_irp();
	rec.file_object = klog_fileio_object(file);
	rec.file_key = klog_fileio_key(file);
	rec.ttid = klog_tid(current);
	if (klog_enabled(ETW_KFLAG_FILE_IO_INIT)) {
		klog_fileio_write(KLOG_HOOK_FILE_CLEANUP, ETW_KFLAG_FILE_IO_INIT,
				  &rec, sizeof(rec), NULL, 0);
		/* The table's reference, still counted: the last one. */
		if (file_count(file) == 1)
			klog_fileio_write(KLOG_HOOK_FILE_CLOSE,
					  ETW_KFLAG_FILE_IO_INIT, &rec,
					  sizeof(rec), NULL, 0);
	}
	if (klog_enabled(ETW_KFLAG_FILE_IO))
		klog_fileio_op_end(rec.irp, 0, 0);
	return 0;
}

static struct kprobe klog_fileio_close_kp = {
	.symbol_name = "filp_close",
	.pre_handler = klog_fileio_filp_close_pre,
};

int klog_fileio_closes_start(void)
{
	int ret;

	/* A kprobe is one-shot: a fresh one each time the source starts. */
	klog_fileio_close_kp.addr = NULL;
	klog_fileio_close_kp.flags = 0;
	ret = register_kprobe(&klog_fileio_close_kp);
	if (ret)
		pr_warn("etw: kprobe %s: %d\n",
			klog_fileio_close_kp.symbol_name, ret);
	return ret;
}

/* After it returns no handler runs (unregister_kprobe() waits). */
void klog_fileio_closes_stop(void)
{
	unregister_kprobe(&klog_fileio_close_kp);
}
