// SPDX-License-Identifier: GPL-2.0
/*
 * The user stack of the writing thread, for EVENT_ENABLE_PROPERTY_STACK_TRACE.
 *
 * The kernel's own user-stack walker (stack_trace_save_user) is not
 * exported to modules, so this is the same frame-pointer walk: the
 * instruction pointer of the system call, then the return address of each
 * frame record {saved frame pointer, return address} from the user frame
 * pointer upwards.  Code built without frame pointers yields a shorter
 * stack, as with perf's default user stacks.  It runs with preemption
 * disabled: reads are copy_from_user_nofault(), so an unmapped or paged-out
 * frame ends the walk instead of faulting.
 */
#include <linux/compat.h>
#include <linux/ptrace.h>
#include <linux/sched.h>
#include <linux/sched/task_stack.h>
#include <linux/uaccess.h>

#include "internal.h"

/* Read one frame record; false at the end of the chain. */
static bool etw_ustack_frame(unsigned long fp, bool compat,
			     unsigned long *next, unsigned long *ret)
{
	if (compat) {
		u32 f[2];

		if (!IS_ALIGNED(fp, sizeof(u32)) ||
		    copy_from_user_nofault(f, (const void __user *)fp, sizeof(f)))
			return false;
		*next = f[0];
		*ret = f[1];
	} else {
		u64 f[2];

		if (!IS_ALIGNED(fp, sizeof(u64)) ||
		    copy_from_user_nofault(f, (const void __user *)fp, sizeof(f)))
			return false;
		*next = f[0];
		*ret = f[1];
	}
	return *ret != 0;
}

/**
 * etw_ustack_walk_regs() - a user stack from user-mode registers
 * @regs: the registers of the thread's user mode (the current thread's:
 *	the walk reads the current mm)
 * @addr: where the instruction pointer and return addresses go
 * @max: room in @addr, at least 1
 *
 * Any context but NMI (the mm may be half switched there).
 *
 * Return: the number of addresses stored.
 */
unsigned int etw_ustack_walk_regs(struct pt_regs *regs, u64 *addr,
				  unsigned int max)
{
	unsigned long fp, next, ret;
	bool compat = !user_64bit_mode(regs);
	unsigned int n = 0;

	addr[n++] = instruction_pointer(regs);
	fp = frame_pointer(regs);
	/* Each caller's frame is above its callee's: stop on anything else. */
	while (n < max && fp && etw_ustack_frame(fp, compat, &next, &ret)) {
		addr[n++] = ret;
		if (next <= fp)
			break;
		fp = next;
	}
	return n;
}

/**
 * etw_ustack_walk() - the current thread's user stack, innermost first
 * @addr: where the return addresses go
 * @max: room in @addr
 *
 * Return: the number of addresses stored (0 for a kernel thread).
 */
unsigned int etw_ustack_walk(u64 *addr, unsigned int max)
{
	struct pt_regs *regs;

	if ((current->flags & PF_KTHREAD) || !max)
		return 0;
	regs = task_pt_regs(current);
	if (!user_mode(regs))
		return 0;
	return etw_ustack_walk_regs(regs, addr, max);
}
