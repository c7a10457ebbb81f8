// SPDX-License-Identifier: GPL-2.0
/*
 * The rundown: at a system logger's start, DCStart of every process,
 * thread and image; at its stop, DCEnd of each, so that a circular or
 * buffering session, which keeps only its newest buffers, still names
 * everything its samples point at.  Written to that session only.
 *
 * Process 0 is Windows' Idle process: Linux's idle tasks (swapper, pid 0)
 * are its one thread, and the kernel's images are loaded in it.
 *
 * The task list is walked under RCU, taking a reference on each task, and
 * each is then described outside it: reading another process's memory
 * and its mappings may sleep (lttng-modules' statedump cannot list
 * mappings for the same reason).
 */
#include <linux/mm.h>
#include <linux/mmap_lock.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/sched/mm.h>
#include <linux/sched/signal.h>
#include <linux/sched/task.h>
#include <linux/slab.h>

#include "klog_proc.h"

struct klog_rundown_scratch {
	struct klog_proc p;
	u8 payload[KLOG_PROCESS_PAYLOAD];
	char path[KLOG_PATH_MAX];
};

/*
 * References to every task, leaders before their threads; *@n of them.
 * NULL without memory, *@n the tasks there were.
 */
static struct task_struct **klog_tasks(unsigned int *n)
{
	struct task_struct **tasks, *g, *t;
	unsigned int count = 0, cap;

	rcu_read_lock();
	for_each_process_thread(g, t)
		count++;
	rcu_read_unlock();
	*n = count;
	/* Room for the tasks created meanwhile; any later ones are live. */
	cap = count + 256;
	tasks = kvmalloc_array(cap, sizeof(*tasks), GFP_KERNEL);
	if (!tasks)
		return NULL;
	count = 0;
	rcu_read_lock();
	for_each_process_thread(g, t) {
		if (count == cap)
			break;
		get_task_struct(t);
		tasks[count++] = t;
	}
	rcu_read_unlock();
	*n = count;
	return tasks;
}

static void klog_rundown_idle(struct klog_session *k, struct klog_rundown_scratch *sc,
			      bool end)
{
	if (k->flags & ETW_KFLAG_PROCESS) {
		klog_proc_ids(&sc->p, &init_task);
		strscpy(sc->p.image, "Idle", sizeof(sc->p.image));
		klog_process_write(end ? KLOG_HOOK_PROCESS_DCEND :
				   KLOG_HOOK_PROCESS_DCSTART, &sc->p, k, 0,
				   sc->payload);
	}
	if (k->flags & ETW_KFLAG_THREAD)
		klog_thread_write(end ? KLOG_HOOK_THREAD_DCEND :
				  KLOG_HOOK_THREAD_DCSTART, &init_task, 0, k, 0);
	if (k->flags & ETW_KFLAG_IMAGE_LOAD)
		klog_image_kernel(end ? KLOG_HOOK_IMAGE_DCEND :
				  KLOG_HOOK_IMAGE_DCSTART, k);
}

/* One task: its process (if it leads one) and images, then the thread. */
static void klog_rundown_task(struct klog_session *k, struct task_struct *t,
			      struct klog_rundown_scratch *sc, bool end)
{
	u16 ph = end ? KLOG_HOOK_PROCESS_DCEND : KLOG_HOOK_PROCESS_DCSTART;
	u16 th = end ? KLOG_HOOK_THREAD_DCEND : KLOG_HOOK_THREAD_DCSTART;
	u16 ih = end ? KLOG_HOOK_IMAGE_DCEND : KLOG_HOOK_IMAGE_DCSTART;
	struct mm_struct *mm;

	if (thread_group_leader(t)) {
		if (k->flags & ETW_KFLAG_PROCESS) {
			klog_proc_ids(&sc->p, t);
			klog_proc_task(&sc->p, t);
			klog_process_write(ph, &sc->p, k, 0, sc->payload);
		}
		mm = (k->flags & ETW_KFLAG_IMAGE_LOAD) ? get_task_mm(t) : NULL;
		if (mm) {
			mmap_read_lock(mm);
			klog_image_mm(ih, klog_pid(t), mm, sc->path, k, 0);
			mmap_read_unlock(mm);
			mmput(mm);
		}
	}
	if (k->flags & ETW_KFLAG_THREAD) {
		klog_thread_write(th, t, klog_tid(t), k, 0);
		if (!end)
			klog_thread_name_write(t, t->comm, k, 0);
	}
}

/*
 * Without memory for its scratch or its list of tasks, the rundown writes
 * nothing: at start -ENOMEM, which fails the start; at stop (which cannot
 * fail) each task's DCEnd, and Idle's, counted lost instead, one a task.
 */
int klog_rundown(struct klog_session *k, bool end)
{
	struct klog_rundown_scratch *sc;
	struct task_struct **tasks;
	unsigned int i, n = 0;

	if (!(k->flags & (ETW_KFLAG_PROCESS | ETW_KFLAG_THREAD |
			  ETW_KFLAG_IMAGE_LOAD)))
		return 0;
	sc = kmalloc(sizeof(*sc), GFP_KERNEL);
	tasks = sc ? klog_tasks(&n) : NULL;
	if (!tasks) {
		kfree(sc);
		if (end)
			klog_lanes_add_lost(k, n + 1);
		return -ENOMEM;
	}
	klog_rundown_idle(k, sc, end);
	klog_lanes_keep_up(k);
	for (i = 0; i < n; i++) {
		klog_rundown_task(k, tasks[i], sc, end);
		put_task_struct(tasks[i]);
		/* Faster than the work item could give the lane a spare. */
		klog_lanes_keep_up(k);
		cond_resched();
	}
	kvfree(tasks);
	kfree(sc);
	return 0;
}
