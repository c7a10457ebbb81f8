// SPDX-License-Identifier: GPL-2.0
/*
 * The stack a kernel record carries (klog_stack_capture()): kernel frames
 * with stack_trace_save(), then the current thread's user frames with the
 * frame-pointer walk of ustack.c.  A first version; kstack owns it.
 */
#include <linux/sched.h>
#include <linux/stacktrace.h>

#include "internal.h"
#include "klog.h"

void klog_stack_capture(struct klog_stack *stack, u64 *frames,
			struct pt_regs *regs)
{
	unsigned int n;

	BUILD_BUG_ON(sizeof(unsigned long) != sizeof(u64));
	/* The kernel frames of the caller; @regs is kstack's to honour. */
	n = stack_trace_save((unsigned long *)frames, KLOG_MAX_FRAMES, 1);
	if (!in_nmi())
		n += etw_ustack_walk(frames + n, KLOG_MAX_FRAMES - n);
	stack->pid = task_tgid_nr(current);
	stack->tid = task_pid_nr(current);
	stack->nr = n;
	stack->frames = frames;
}
