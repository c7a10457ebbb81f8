// SPDX-License-Identifier: GPL-2.0
/*
 * Thread records: Thread_V3_TypeGroup1 (Start, End, DCStart, DCEnd; 72
 * bytes) and Thread/SetName (v2) with the Linux thread name (comm).
 * Kernel addresses (stacks) are not recorded: 0, as PerfView only shows
 * them.  Priorities are mapped onto Windows' 1..31: normal threads around
 * 8 by nice, real-time ones 16..31.
 */
#include <linux/cpumask.h>
#include <linux/sched.h>
#include <linux/sched/prio.h>
#include <linux/sched/rt.h>

#include "klog_proc.h"
#include "klog_text.h"

struct klog_thread_v3 {
	u32 process_id;
	u32 thread_id;
	u64 stack_base;
	u64 stack_limit;
	u64 user_stack_base;
	u64 user_stack_limit;
	u64 affinity;
	u64 win32_start_addr;
	u64 teb_base;
	u32 sub_process_tag;
	u8 base_priority;
	u8 page_priority;
	u8 io_priority;
	u8 thread_flags;
};

static_assert(sizeof(struct klog_thread_v3) == 72);

/* Windows' base priority of @t: 1..15 by nice, 16..31 for real time. */
static u8 klog_priority(struct task_struct *t)
{
	int prio = READ_ONCE(t->prio);

	if (rt_prio(prio))
		return 16 + (MAX_RT_PRIO - 1 - prio) * 15 / (MAX_RT_PRIO - 1);
	return clamp(8 - task_nice(t) / 3, 1, 15);
}

void klog_thread_write(u16 hook, struct task_struct *t, u32 tid,
		       struct klog_session *target, u64 ts)
{
	struct klog_thread_v3 th = {
		.process_id = klog_pid(t),
		.thread_id = tid,
		.affinity = cpumask_bits(t->cpus_ptr)[0],
		.base_priority = klog_priority(t),
		.page_priority = 5,	/* MEMORY_PRIORITY_NORMAL */
		.io_priority = 2,	/* IoPriorityNormal */
	};
	struct klog_part part = { &th, sizeof(th) };
	struct klog_event ev = {
		.hook = hook,
		.header_type = KLOG_HDR_SYSTEM,
		.version = 3,
		.flag = ETW_KFLAG_THREAD,
		.tid = klog_tid(current),
		.pid = klog_pid(current),
		.timestamp = ts,
		.parts = &part,
		.nr_parts = 1,
		.target = target,
	};

	/* Probes run with preemption disabled; the rundown wants none. */
	if (!target)
		ev.stack = klog_task_stack(hook);
	klog_write(&ev);
}

/* Thread/SetName: the name Linux gives the thread (comm). */
void klog_thread_name_write(struct task_struct *t, const char *comm,
			    struct klog_session *target, u64 ts)
{
	struct {
		u32 process_id;
		u32 thread_id;
		u8 name[2 * TASK_COMM_LEN];
	} n;
	struct klog_part part = { &n, 8 };
	struct klog_event ev = {
		.hook = KLOG_HOOK_THREAD_SET_NAME,
		.header_type = KLOG_HDR_SYSTEM,
		.version = 2,
		.flag = ETW_KFLAG_THREAD,
		.tid = klog_tid(current),
		.pid = klog_pid(current),
		.timestamp = ts,
		.parts = &part,
		.nr_parts = 1,
		.target = target,
	};

	n.process_id = klog_pid(t);
	n.thread_id = klog_tid(t);
	part.size += klog_utf16(n.name, sizeof(n.name), comm,
				strnlen(comm, TASK_COMM_LEN - 1));
	klog_write(&ev);
}
