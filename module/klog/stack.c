// SPDX-License-Identifier: GPL-2.0
/*
 * The stack a kernel record carries (klog_stack_capture()): the kernel
 * frames, walked by the kernel's own unwinder (ORC on Debian's kernels)
 * from the interrupted registers or from the caller, then the current
 * thread's user frames with the frame-pointer walk of ustack.c, which reads
 * user memory only through copy_from_user_nofault().  User code built
 * without frame pointers gives its innermost frame (the interrupted
 * instruction or the system call's return address) and no callers beyond
 * the first frame whose caller is not found; for those, a session may ask
 * for a copy of the user stack beside a sample's stack (ustack_copy.c),
 * which the tools unwind.
 */
#include <linux/hardirq.h>
#include <linux/percpu.h>
#include <linux/ptrace.h>
#include <linux/sched.h>
#include <linux/sched/task_stack.h>
#include <linux/stacktrace.h>
#include <asm/unwind.h>

#include "internal.h"
#include "klog.h"

/*
 * Frames of the stack being written, per CPU and per context (task,
 * softirq, hardirq, NMI): a context only ever interrupts a lower one, so
 * each has its buffer to itself.  1.5 KiB is too much for the stack of a
 * scheduler tracepoint or an interrupt, and 6 KiB per CPU too much for a
 * module's static per-CPU area: allocated at the first start of a source
 * that takes stacks, kept until the module goes.
 */
#define KLOG_STACK_CONTEXTS	4

struct klog_stack_buffers {
	u64 frames[KLOG_STACK_CONTEXTS][KLOG_MAX_FRAMES];
};

static struct klog_stack_buffers __percpu *klog_stack_bufs;

int klog_stack_init(void)
{
	struct klog_stack_buffers __percpu *b;

	if (READ_ONCE(klog_stack_bufs))
		return 0;
	b = alloc_percpu(struct klog_stack_buffers);
	if (!b)
		return -ENOMEM;
	/* Seen by the probes the caller registers next. */
	smp_store_release(&klog_stack_bufs, b);
	return 0;
}

void klog_stack_exit(void)
{
	free_percpu(klog_stack_bufs);
	klog_stack_bufs = NULL;
}

u64 *klog_stack_frames(void)
{
	struct klog_stack_buffers __percpu *b;
	unsigned int ctx = in_nmi() ? 3 : in_hardirq() ? 2 :
			   in_serving_softirq() ? 1 : 0;

	/* Pairs with klog_stack_init()'s release. */
	b = smp_load_acquire(&klog_stack_bufs);
	return b ? this_cpu_ptr(b)->frames[ctx] : NULL;
}

/* Kernel frames from @regs (a kernel-mode register set) upwards. */
static unsigned int klog_kernel_frames(u64 *frames, unsigned int max,
				       struct pt_regs *regs)
{
	struct unwind_state state;
	unsigned int n = 0;
	unsigned long addr;

	frames[n++] = instruction_pointer(regs);
	for (unwind_start(&state, current, regs, NULL);
	     n < max && !unwind_done(&state); unwind_next_frame(&state)) {
		addr = unwind_get_return_address(&state);
		if (!addr)
			break;
		frames[n++] = addr;
	}
	return n;
}

void klog_stack_capture(struct klog_stack *stack, u64 *frames,
			struct pt_regs *regs)
{
	struct pt_regs *uregs = NULL;
	unsigned int n = 0;

	BUILD_BUG_ON(sizeof(unsigned long) != sizeof(u64));
	stack->pid = klog_pid(current);
	stack->tid = klog_tid(current);
	stack->frames = frames;
	stack->nr = 0;
	if (!frames)
		return;
	if (regs && user_mode(regs)) {
		uregs = regs;
	} else {
		if (regs)
			n = klog_kernel_frames(frames, KLOG_MAX_FRAMES, regs);
		else
			n = stack_trace_save((unsigned long *)frames,
					     KLOG_MAX_FRAMES, 1);
		if (!(current->flags & PF_KTHREAD)) {
			uregs = task_pt_regs(current);
			if (!user_mode(uregs))
				uregs = NULL;
		}
	}
	/*
	 * In NMI the current mm may be half switched: no user frames there
	 * (the hrtimer-driven samples never run in NMI).
	 */
	if (uregs && !in_nmi() && n < KLOG_MAX_FRAMES)
		n += etw_ustack_walk_regs(uregs, frames + n, KLOG_MAX_FRAMES - n);
	stack->nr = n;
}
