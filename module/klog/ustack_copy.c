// SPDX-License-Identifier: GPL-2.0
/*
 * The user stack copy of a sample (ETW_TRACE_STACK_COPY_INFO, a class of
 * our own): what ``perf record --call-graph dwarf`` takes, so that user
 * code built without frame pointers is unwound afterwards from its
 * .eh_frame.  The registers the unwinder starts from (x86-64's 17 DWARF
 * registers) and up to the session's Size bytes of the user stack from
 * its stack pointer upwards are written straight into the session's lane,
 * with no buffer of their own, as a classic record of our own class GUID,
 * which Windows' readers skip.  It runs in the profile's hardirq handler
 * with interrupts off: copy_from_user_nofault() a page at a time, so the
 * copy ends at the first unmapped page (past the top of the stack)
 * instead of failing whole, and never sleeps.
 */
#include <linux/hardirq.h>
#include <linux/mm.h>
#include <linux/ptrace.h>
#include <linux/sched.h>
#include <linux/sched/task_stack.h>
#include <linux/uaccess.h>

#include "klog_internal.h"

/* {4119cc35-3220-4da2-9f91-a732770517c4}: StackCopy, etw for Linux's own. */
const guid_t klog_ucopy_guid = GUID_INIT(0x4119cc35, 0x3220, 0x4da2, 0x9f,
					 0x91, 0xa7, 0x32, 0x77, 0x05, 0x17,
					 0xc4);

bool klog_stack_copy_wanted;

/* The register set of the record: x86-64's DWARF numbers 0 to 16. */
#define KLOG_UCOPY_ABI_X86_64	1
#define KLOG_UCOPY_REGS		17

/* The record's fixed part; the stack's bytes follow. */
struct klog_ucopy_rec {
	u64 event_timestamp;
	u32 stack_process;
	u32 stack_thread;
	u16 abi;
	u16 nr_regs;
	u32 stack_size;
	u64 regs[KLOG_UCOPY_REGS];
} __packed;

static_assert(sizeof(struct klog_ucopy_rec) == KLOG_UCOPY_FIXED);

struct pt_regs *klog_ucopy_regs(struct pt_regs *regs)
{
	/* In NMI the current mm may be half switched; kernel threads have none. */
	if (!IS_ENABLED(CONFIG_X86_64) || in_nmi() ||
	    (current->flags & PF_KTHREAD))
		return NULL;
	/* A sample in the kernel: the user registers of the system call. */
	if (!regs || !user_mode(regs))
		regs = task_pt_regs(current);
	return user_mode(regs) && user_64bit_mode(regs) ? regs : NULL;
}

/* Up to @size bytes from user @sp; the bytes copied. */
static u32 klog_ucopy_stack(u8 *dst, unsigned long sp, u32 size)
{
	unsigned long a;
	u32 done = 0, chunk;

	while (done < size) {
		a = sp + done;
		chunk = min_t(u32, size - done, PAGE_SIZE - offset_in_page(a));
		if (copy_from_user_nofault(dst + done, (const void __user *)a,
					   chunk))
			break;
		done += chunk;
	}
	return done;
}

u32 klog_ucopy_fill(void *dst, const struct pt_regs *regs,
		    const struct klog_stack *st, u64 now, u32 size)
{
	struct klog_ucopy_rec *r = dst;

	r->event_timestamp = now;
	r->stack_process = st->pid;
	r->stack_thread = st->tid;
	r->abi = KLOG_UCOPY_ABI_X86_64;
	r->nr_regs = KLOG_UCOPY_REGS;
#ifdef CONFIG_X86_64
	r->regs[0] = regs->ax;
	r->regs[1] = regs->dx;
	r->regs[2] = regs->cx;
	r->regs[3] = regs->bx;
	r->regs[4] = regs->si;
	r->regs[5] = regs->di;
	r->regs[6] = regs->bp;
	r->regs[7] = regs->sp;
	r->regs[8] = regs->r8;
	r->regs[9] = regs->r9;
	r->regs[10] = regs->r10;
	r->regs[11] = regs->r11;
	r->regs[12] = regs->r12;
	r->regs[13] = regs->r13;
	r->regs[14] = regs->r14;
	r->regs[15] = regs->r15;
	r->regs[16] = regs->ip;
	r->stack_size = klog_ucopy_stack((u8 *)(r + 1), regs->sp, size);
#else
	memset(r->regs, 0, sizeof(r->regs));
	r->stack_size = 0;
#endif
	return sizeof(*r) + r->stack_size;
}
