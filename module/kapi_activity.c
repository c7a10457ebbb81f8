// SPDX-License-Identifier: GPL-2.0
/*
 * EtwActivityIdControl: each thread's activity id, which EtwWrite uses
 * when it is given none.  Windows keeps it in the thread; a module cannot
 * add to a Linux task, so the ids live here, by pid, beside the task they
 * were set for (a pid reused by another task finds no id).  A thread's
 * entry goes when it sets the zero id, or at unload.  In interrupt context
 * there is no thread: the id is zero, as is a thread's that set none.
 */
#include <linux/preempt.h>
#include <linux/random.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/xarray.h>

#include "compat.h"
#include "kapi.h"

struct etw_kactivity {
	struct rcu_head rcu;
	const struct task_struct *task;	/* compared, never dereferenced */
	u64 start;			/* the task's start_time */
	u8 id[16];
};

static DEFINE_XARRAY(etw_kactivities);
static DEFINE_MUTEX(etw_kactivity_lock);	/* serialises the updates */
static atomic64_t etw_kactivity_seq = ATOMIC64_INIT(0);
static u64 etw_kactivity_prefix;

static bool etw_kactivity_mine(const struct etw_kactivity *a)
{
	return a && a->task == current && a->start == current->start_time;
}

/* The current thread's id into @id: false (and zeros) if it has none. */
bool etw_kactivity_get(u8 id[16])
{
	const struct etw_kactivity *a = NULL;

	if (in_task()) {
		rcu_read_lock();
		a = xa_load(&etw_kactivities, task_pid_nr(current));
		if (etw_kactivity_mine(a))
			memcpy(id, a->id, 16);
		else
			a = NULL;
		rcu_read_unlock();
	}
	if (!a)
		memset(id, 0, 16);
	return a;
}

static int etw_kactivity_set(const u8 id[16])
{
	static const u8 zero[16];
	struct etw_kactivity *a = NULL, *old;
	unsigned long pid = task_pid_nr(current);

	if (memcmp(id, zero, 16)) {
		a = kmalloc(sizeof(*a), GFP_KERNEL);
		if (!a)
			return -ENOMEM;
		a->task = current;
		a->start = current->start_time;
		memcpy(a->id, id, 16);
	}
	mutex_lock(&etw_kactivity_lock);
	old = a ? xa_store(&etw_kactivities, pid, a, GFP_KERNEL) :
		  xa_erase(&etw_kactivities, pid);
	mutex_unlock(&etw_kactivity_lock);
	if (xa_is_err(old)) {
		kfree(a);
		return xa_err(old);
	}
	if (old)
		kfree_rcu(old, rcu);
	return 0;
}

/* Locally unique: a prefix random per load, a counter. */
static void etw_kactivity_create(u8 id[16])
{
	u64 n = atomic64_inc_return(&etw_kactivity_seq);

	if (!READ_ONCE(etw_kactivity_prefix))
		cmpxchg(&etw_kactivity_prefix, 0, get_random_u64() | 1);
	memcpy(id, &etw_kactivity_prefix, 8);
	memcpy(id + 8, &n, 8);
}

NTSTATUS etw_kp_activity_id_control(ULONG control_code, LPGUID activity_id)
{
	u8 old[16], *id = (u8 *)activity_id;
	int ret = 0;

	if (!id)
		return STATUS_INVALID_PARAMETER;
	if (control_code == EVENT_ACTIVITY_CTRL_CREATE_ID) {
		etw_kactivity_create(id);
		return STATUS_SUCCESS;
	}
	if (control_code < EVENT_ACTIVITY_CTRL_GET_ID ||
	    control_code > EVENT_ACTIVITY_CTRL_CREATE_SET_ID)
		return STATUS_INVALID_PARAMETER;
	/*
	 * A thread's id is set below DISPATCH_LEVEL, as Windows asks: here,
	 * where the caller may sleep (the table allocates and takes a mutex),
	 * as might_sleep() judges it.
	 */
	if (preempt_count() || irqs_disabled() || rcu_preempt_depth())
		return STATUS_INVALID_DEVICE_REQUEST;
	might_sleep();
	etw_kactivity_get(old);
	switch (control_code) {
	case EVENT_ACTIVITY_CTRL_GET_ID:
		memcpy(id, old, 16);
		break;
	case EVENT_ACTIVITY_CTRL_SET_ID:
		ret = etw_kactivity_set(id);
		break;
	case EVENT_ACTIVITY_CTRL_GET_SET_ID:
		ret = etw_kactivity_set(id);
		if (!ret)
			memcpy(id, old, 16);
		break;
	case EVENT_ACTIVITY_CTRL_CREATE_SET_ID: {
		u8 fresh[16];

		etw_kactivity_create(fresh);
		ret = etw_kactivity_set(fresh);
		if (!ret)
			memcpy(id, old, 16);
		break;
	}
	}
	return etw_ntstatus(ret);
}
EXPORT_SYMBOL_NS_GPL(etw_kp_activity_id_control, ETW_NS);

/* Unload: every id left. */
void etw_kactivity_exit(void)
{
	struct etw_kactivity *a;
	unsigned long pid;

	xa_for_each(&etw_kactivities, pid, a)
		kfree(a);
	xa_destroy(&etw_kactivities);
}
