// SPDX-License-Identifier: GPL-2.0
/*
 * CSWITCH and DISPATCHER: Thread/CSwitch from the sched_switch tracepoint
 * and Thread/ReadyThread from sched_wakeup and sched_wakeup_new, written
 * on the CPU where the switch or the wake-up happened (the tracepoints run
 * there, with the runqueue lock held and interrupts off).  Linux's task
 * states and priorities are given Windows' values:
 *
 * - the switched-out task was runnable (preempted, or it yielded): state
 *   Ready, wait reason WrPreempted (WrYieldExecution for a yield);
 * - it sleeps interruptibly: Waiting, UserRequest, in user mode for a
 *   user task; uninterruptibly: Waiting, Executive, kernel mode;
 * - it is stopped or traced: Waiting, Suspended; it is dying: Terminated,
 *   WrTerminated;
 * - priority: real-time tasks 16 + rt_priority * 15 / 99 (16 to 31),
 *   normal tasks 8 - nice * 7 / 20 (1 to 15), the idle task 0.
 *
 * NewThreadWaitTime and PreviousCState are 0: the tracepoint gives neither.
 */
#include <linux/sched.h>
#include <linux/sched/prio.h>
#include <linux/sched/rt.h>
#include <linux/tracepoint.h>
#include <linux/etw.h>

#include "klog.h"
#include "klog_internal.h"

/* Thread/CSwitch, version 2. */
struct klog_cswitch {
	u32 new_thread_id;
	u32 old_thread_id;
	s8 new_thread_priority;
	s8 old_thread_priority;
	u8 previous_c_state;
	s8 spare_byte;
	s8 old_thread_wait_reason;
	s8 old_thread_wait_mode;
	s8 old_thread_state;
	s8 old_thread_wait_ideal_processor;
	u32 new_thread_wait_time;
	u32 reserved;
} __packed;

/* Thread/ReadyThread, version 2. */
struct klog_ready_thread {
	u32 thread_id;
	s8 adjust_reason;
	s8 adjust_increment;
	s8 flag;
	s8 reserved;
} __packed;

/* KTHREAD_STATE and KWAIT_REASON values used here (Windows' ntddk.h). */
enum {
	KLOG_STATE_READY = 1,
	KLOG_STATE_TERMINATED = 4,
	KLOG_STATE_WAITING = 5,
};

enum {
	KLOG_WAIT_EXECUTIVE = 0,
	KLOG_WAIT_SUSPENDED = 5,
	KLOG_WAIT_USER_REQUEST = 6,
	KLOG_WAIT_TERMINATED = 22,
	KLOG_WAIT_PREEMPTED = 32,
	KLOG_WAIT_YIELD = 33,
};

#define KLOG_MODE_KERNEL	0
#define KLOG_MODE_USER		1

static s8 klog_priority(struct task_struct *t)
{
	if (is_idle_task(t))
		return 0;
	if (rt_task(t))
		return 16 + t->rt_priority * 15 / (MAX_RT_PRIO - 1);
	return 8 - task_nice(t) * 7 / 20;
}

static void klog_old_state(struct klog_cswitch *rec, bool preempt,
			   struct task_struct *prev, unsigned int prev_state)
{
	rec->old_thread_wait_mode = KLOG_MODE_KERNEL;
	if (preempt || prev_state == TASK_RUNNING) {
		rec->old_thread_state = KLOG_STATE_READY;
		rec->old_thread_wait_reason = preempt ? KLOG_WAIT_PREEMPTED :
							KLOG_WAIT_YIELD;
	} else if (prev_state & TASK_DEAD || prev->exit_state) {
		rec->old_thread_state = KLOG_STATE_TERMINATED;
		rec->old_thread_wait_reason = KLOG_WAIT_TERMINATED;
	} else if (prev_state & (__TASK_STOPPED | __TASK_TRACED)) {
		rec->old_thread_state = KLOG_STATE_WAITING;
		rec->old_thread_wait_reason = KLOG_WAIT_SUSPENDED;
	} else if (prev_state & TASK_INTERRUPTIBLE) {
		rec->old_thread_state = KLOG_STATE_WAITING;
		rec->old_thread_wait_reason = KLOG_WAIT_USER_REQUEST;
		if (!(prev->flags & PF_KTHREAD))
			rec->old_thread_wait_mode = KLOG_MODE_USER;
	} else {
		rec->old_thread_state = KLOG_STATE_WAITING;
		rec->old_thread_wait_reason = KLOG_WAIT_EXECUTIVE;
	}
}

static void klog_probe_sched_switch(void *data, bool preempt,
				    struct task_struct *prev,
				    struct task_struct *next,
				    unsigned int prev_state)
{
	struct klog_cswitch rec = {
		.new_thread_id = klog_tid(next),
		.old_thread_id = klog_tid(prev),
		.new_thread_priority = klog_priority(next),
		.old_thread_priority = klog_priority(prev),
		.old_thread_wait_ideal_processor = (s8)task_cpu(prev),
	};
	struct klog_part part = { &rec, sizeof(rec) };
	struct klog_event ev = {
		.hook = KLOG_HOOK_CSWITCH,
		.header_type = KLOG_HDR_PERFINFO,
		.version = 2,
		.flag = ETW_KFLAG_CSWITCH,
		.parts = &part,
		.nr_parts = 1,
	};
	struct klog_stack stack;

	if (!klog_enabled(ETW_KFLAG_CSWITCH))
		return;
	klog_old_state(&rec, preempt, prev, prev_state);
	/* The stack of the thread switched out (current, until the switch). */
	if (klog_stack_wanted(KLOG_HOOK_CSWITCH)) {
		klog_stack_capture(&stack, klog_stack_frames(), NULL);
		ev.stack = &stack;
	}
	klog_write(&ev);
}

static void klog_probe_sched_wakeup(void *data, struct task_struct *p)
{
	struct klog_ready_thread rec = { .thread_id = klog_tid(p) };
	struct klog_part part = { &rec, sizeof(rec) };
	struct klog_event ev = {
		.hook = KLOG_HOOK_READY_THREAD,
		.header_type = KLOG_HDR_PERFINFO,
		.version = 2,
		.flag = ETW_KFLAG_DISPATCHER,
		.parts = &part,
		.nr_parts = 1,
	};
	struct klog_stack stack;

	if (!klog_enabled(ETW_KFLAG_DISPATCHER))
		return;
	if (klog_stack_wanted(KLOG_HOOK_READY_THREAD)) {
		klog_stack_capture(&stack, klog_stack_frames(), NULL);
		ev.stack = &stack;
	}
	klog_write(&ev);
}

static struct klog_tp klog_cswitch_tps[] = {
	{ .name = "sched_switch", .probe = klog_probe_sched_switch },
};

static struct klog_tp klog_dispatcher_tps[] = {
	{ .name = "sched_wakeup", .probe = klog_probe_sched_wakeup },
	{ .name = "sched_wakeup_new", .probe = klog_probe_sched_wakeup },
};

static int klog_cswitch_start(void)
{
	int ret = klog_stack_init();

	return ret ? ret : klog_tp_register(klog_cswitch_tps,
					    ARRAY_SIZE(klog_cswitch_tps));
}

static void klog_cswitch_stop(void)
{
	klog_tp_unregister(klog_cswitch_tps, ARRAY_SIZE(klog_cswitch_tps));
}

static int klog_dispatcher_start(void)
{
	int ret = klog_stack_init();

	return ret ? ret : klog_tp_register(klog_dispatcher_tps,
					    ARRAY_SIZE(klog_dispatcher_tps));
}

static void klog_dispatcher_stop(void)
{
	klog_tp_unregister(klog_dispatcher_tps, ARRAY_SIZE(klog_dispatcher_tps));
}

const struct klog_source klog_source_cswitch = {
	.name = "cswitch",
	.flags = ETW_KFLAG_CSWITCH,
	.start = klog_cswitch_start,
	.stop = klog_cswitch_stop,
};

const struct klog_source klog_source_dispatcher = {
	.name = "dispatcher",
	.flags = ETW_KFLAG_DISPATCHER,
	.start = klog_dispatcher_start,
	.stop = klog_dispatcher_stop,
};
