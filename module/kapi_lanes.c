// SPDX-License-Identifier: GPL-2.0
/*
 * The lanes kernel providers write a session through.  A kernel module
 * writes from any context, hardirq and NMI included, and an interrupt may
 * arrive while a user-mode writer on the same CPU holds a reservation in
 * the session's buffer (the user write path only disables preemption).  So
 * kernel providers' events take a lane of their own in each session they
 * go to: the kernel logger's lanes (klog/lane.c: one buffer per CPU,
 * written with interrupts disabled, full buffers handed over from an
 * irq_work), created the first time a session is on the route of a
 * provider a module registered, and kept until the session is freed.
 *
 * An NMI that arrives while a kernel provider writes on its CPU drops its
 * event and counts it here (kapi_write.c); NMIs do not nest, so the count
 * is the NMI's alone.
 */
#include <linux/percpu.h>
#include <linux/slab.h>

#include "internal.h"
#include "kapi.h"
#include "klog/klog_internal.h"

struct etw_kp_lanes {
	struct klog_session k;		/* only its lanes are used */
	u64 __percpu *nmi_lost;
};

/* The lanes of @s, made now if it has none.  etw_lock held. */
int etw_kp_lanes_get(struct etw_session *s)
{
	struct etw_kp_lanes *kp;
	int ret;

	lockdep_assert_held(&etw_lock);
	if (s->kp)
		return 0;
	kp = kzalloc(sizeof(*kp), GFP_KERNEL);
	if (!kp)
		return -ENOMEM;
	kp->nmi_lost = alloc_percpu(u64);
	if (!kp->nmi_lost)
		goto out_free;
	kp->k.s = s;
	ret = klog_lanes_init(&kp->k);
	if (ret)
		goto out_free_lost;
	/* Complete before a writer that finds the session on a route sees it. */
	smp_store_release(&s->kp, kp);
	return 0;

out_free_lost:
	free_percpu(kp->nmi_lost);
out_free:
	kfree(kp);
	return -ENOMEM;
}

/* The lanes of @s for a writer: NULL while it has none. */
struct klog_session *etw_kp_lanes_of(struct etw_session *s)
{
	/* Pairs with etw_kp_lanes_get()'s release: the lanes are set up. */
	struct etw_kp_lanes *kp = smp_load_acquire(&s->kp);

	return kp ? &kp->k : NULL;
}

/* An NMI's event dropped: it came while this CPU wrote one. */
void etw_kp_lanes_nmi_lost(struct klog_session *k)
{
	struct etw_kp_lanes *kp = container_of(k, struct etw_kp_lanes, k);

	this_cpu_inc(*kp->nmi_lost);
}

/*
 * FLUSH, FlushTimer, stop (@final: the session's last buffer).  The
 * FlushTimer's flush holds no etw_lock: the lanes may be new.
 */
void etw_kp_lanes_flush(struct etw_session *s, bool final)
{
	struct klog_session *k = etw_kp_lanes_of(s);

	if (k)
		klog_lanes_flush(k, final);
}

/* After the last flush: the lanes' empty buffers back to the pool. */
void etw_kp_lanes_stopped(struct etw_session *s)
{
	if (s->kp)
		klog_lanes_release(&s->kp->k);
}

void etw_kp_lanes_destroy(struct etw_session *s)
{
	struct etw_kp_lanes *kp = s->kp;

	if (!kp)
		return;
	klog_lanes_release(&kp->k);
	klog_lanes_free(&kp->k);
	free_percpu(kp->nmi_lost);
	kfree(kp);
	s->kp = NULL;
}

/* Any time (QUERY): the lanes may be new, as for a flush. */
u64 etw_kp_lanes_lost(struct etw_session *s)
{
	/* Pairs with etw_kp_lanes_get()'s release. */
	struct etw_kp_lanes *kp = smp_load_acquire(&s->kp);
	unsigned int cpu;
	u64 lost;

	if (!kp)
		return 0;
	lost = klog_lanes_lost(&kp->k);
	for_each_possible_cpu(cpu)
		lost += READ_ONCE(*per_cpu_ptr(kp->nmi_lost, cpu));
	return lost;
}
