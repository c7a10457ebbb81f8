// SPDX-License-Identifier: GPL-2.0
/*
 * Stacks on klog's own events (Process, Thread, Image), for the sessions
 * whose TraceStackTracingInfo lists them: the stack of the thread the
 * probe runs in, captured once per event into a per-CPU area.  The area
 * is allocated when a stack list is first set and kept until rmmod.
 */
#include <linux/percpu.h>

#include "klog_internal.h"

struct klog_task_stack {
	struct klog_stack st;
	u64 frames[KLOG_MAX_FRAMES];
};

static struct klog_task_stack __percpu *klog_task_stacks;

/* etw_lock held (a stack list is being set). */
int klog_task_stacks_init(void)
{
	struct klog_task_stack __percpu *ts;

	if (klog_task_stacks)
		return 0;
	ts = alloc_percpu(struct klog_task_stack);
	if (!ts)
		return -ENOMEM;
	/* Published before any stack hook is: probes test the hook first. */
	smp_store_release(&klog_task_stacks, ts);
	return 0;
}

/*
 * The current thread's stack if a session wants it on @hook, else NULL.
 * Preemption disabled; valid until it is enabled again.
 */
const struct klog_stack *klog_task_stack(u16 hook)
{
	struct klog_task_stack __percpu *all;
	struct klog_task_stack *ts;

	if (!klog_stack_wanted(hook))
		return NULL;
	/* Pairs with the release in klog_task_stacks_init(). */
	all = smp_load_acquire(&klog_task_stacks);
	if (!all)
		return NULL;
	ts = this_cpu_ptr(all);
	klog_stack_capture(&ts->st, ts->frames, NULL);
	return &ts->st;
}

/* Module exit: no probe runs. */
void klog_task_stacks_exit(void)
{
	free_percpu(klog_task_stacks);
	klog_task_stacks = NULL;
}
