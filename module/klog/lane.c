// SPDX-License-Identifier: GPL-2.0
/*
 * Kernel lanes: each system-logger session has, on each CPU, a buffer of
 * its own for kernel records, beside the one user-mode writers share.
 * Kernel records are written from contexts the user write path cannot be
 * interrupted safely by (hardirq, scheduler tracepoints, NMI), so they
 * get a lane written only with interrupts disabled, and a nesting count
 * that makes an NMI arriving inside the lane drop its record (counted)
 * instead of corrupting it.
 *
 * A lane never takes the pool lock or wakes anyone: when its buffer is
 * full it installs the spare it was given, pushes the full one on a
 * lock-less list and raises an irq_work; that queues a work item, which
 * hands the full buffers over in order and gives each lane a new spare.
 * A lane without a spare loses its records (counted) until then.
 *
 * A lane's buffers carry BufferType ETL_BUFFER_TYPE_KERNEL: a reader
 * merges each (processor, type) stream in time, as it does the CPUs.
 */
#include <linux/cpu.h>
#include <linux/irq_work.h>
#include <linux/percpu.h>
#include <linux/slab.h>
#include <linux/smp.h>

#include "etl.h"
#include "internal.h"
#include "klog_internal.h"

/* Hand over the full buffers in the order their lanes filled them. */
static void klog_lanes_hand_over(struct klog_session *k, bool urgent,
				 bool final_last)
{
	struct llist_node *list;
	struct etw_buffer *b, *n;

	mutex_lock(&k->hand_lock);
	list = llist_reverse_order(llist_del_all(&k->done));
	llist_for_each_entry_safe(b, n, list, lnode)
		etw_buffer_hand_over(k->s, b, ETL_BUFFER_TYPE_KERNEL, urgent,
				     final_last && !n);
	mutex_unlock(&k->hand_lock);
}

/* Give every lane without a spare one, while the pool has them. */
static void klog_lanes_refill(struct klog_session *k)
{
	struct klog_lane *l;
	struct etw_buffer *b;
	unsigned int cpu;

	for_each_possible_cpu(cpu) {
		l = per_cpu_ptr(k->lane, cpu);
		if (READ_ONCE(l->spare))
			continue;
		b = etw_buffer_get(k->s);
		if (!b)
			return;
		if (cmpxchg(&l->spare, NULL, b))
			etw_buffer_release(k->s, b);
	}
}

static void klog_lanes_work(struct work_struct *work)
{
	struct klog_session *k = container_of(work, struct klog_session, work);

	klog_lanes_hand_over(k, false, false);
	klog_lanes_refill(k);
}

/* Hardirq: queue the work (not from the writer: it may hold a rq lock). */
static void klog_lanes_irq_work(struct irq_work *iw)
{
	struct klog_session *k = container_of(iw, struct klog_session, iw);

	queue_work(system_unbound_wq, &k->work);
}

/*
 * A writer in process context that writes much at once (the rundown):
 * what the work item would do, now, so that its lane always has a spare.
 */
void klog_lanes_keep_up(struct klog_session *k)
{
	if (!llist_empty(&k->done))
		klog_lanes_hand_over(k, false, false);
	klog_lanes_refill(k);
}

int klog_lanes_init(struct klog_session *k)
{
	k->lane = alloc_percpu(struct klog_lane);
	if (!k->lane)
		return -ENOMEM;
	init_llist_head(&k->done);
	init_irq_work(&k->iw, klog_lanes_irq_work);
	INIT_WORK(&k->work, klog_lanes_work);
	mutex_init(&k->hand_lock);
	klog_lanes_refill(k);
	return 0;
}

void klog_lanes_free(struct klog_session *k)
{
	free_percpu(k->lane);
}

/*
 * The lane's buffer is full (or it has none): install the spare.  NULL if
 * there is none; the caller counts the record lost.  Interrupts disabled.
 */
static void *klog_lane_switch(struct klog_session *k, struct klog_lane *l,
			      u32 len)
{
	struct etw_buffer *b = l->cur, *nb;

	nb = xchg(&l->spare, NULL);
	if (!nb) {
		irq_work_queue(&k->iw);
		return NULL;
	}
	if (b)
		llist_add(&b->lnode, &k->done);
	/* etw_buffer_get() set its offset; klog_write() checked @len. */
	nb->cpu = smp_processor_id();
	l->cur = nb;
	irq_work_queue(&k->iw);
	return nb->data + nb->offset;
}

/*
 * Room for @len bytes (8-aligned) in this CPU's lane, or NULL.  Interrupts
 * disabled, l->nest held by the caller.
 */
void *klog_lane_reserve(struct klog_session *k, struct klog_lane *l, u32 len)
{
	struct etw_buffer *b = l->cur;

	if (likely(b && b->offset + len <= k->s->buffer_size))
		return b->data + b->offset;
	return klog_lane_switch(k, l, len);
}

void klog_lane_commit(struct klog_lane *l, u32 len)
{
	l->cur->offset += ALIGN(len, 8);
}

void klog_lane_lost(struct klog_lane *l)
{
	l->events_lost++;
	if (l->cur)
		l->cur->events_lost = true;
}

/* @n records lost outside a probe (a rundown without memory). */
void klog_lanes_add_lost(struct klog_session *k, u32 n)
{
	struct klog_lane *l;
	unsigned long flags;

	local_irq_save(flags);
	l = this_cpu_ptr(k->lane);
	/* As klog_write() takes the lane: an NMI inside counts its own. */
	l->nest++;
	barrier();
	l->events_lost += n;
	if (l->cur)
		l->cur->events_lost = true;
	barrier();
	l->nest--;
	local_irq_restore(flags);
}

/* This CPU's lane: its partial buffer to the hand-over list. */
static void klog_lane_flush_ipi(void *arg)
{
	struct klog_session *k = arg;
	struct klog_lane *l = this_cpu_ptr(k->lane);

	if (l->cur && l->cur->offset > ETW_BUFFER_HEADER_SIZE) {
		llist_add(&l->cur->lnode, &k->done);
		l->cur = NULL;
	}
}

/*
 * Hand over every lane's partial buffer (FLUSH, FlushTimer, stop), each on
 * its CPU, then everything full; @final marks the last one.  Process
 * context, no writer on an offline CPU.
 */
void klog_lanes_flush(struct klog_session *k, bool final)
{
	struct klog_lane *l;
	unsigned int cpu;

	/* What the lanes pushed before goes first. */
	flush_work(&k->work);
	cpus_read_lock();
	for_each_possible_cpu(cpu) {
		if (cpu_online(cpu)) {
			smp_call_function_single(cpu, klog_lane_flush_ipi, k, 1);
			continue;
		}
		l = per_cpu_ptr(k->lane, cpu);
		if (l->cur && l->cur->offset > ETW_BUFFER_HEADER_SIZE) {
			llist_add(&l->cur->lnode, &k->done);
			l->cur = NULL;
		}
	}
	cpus_read_unlock();
	klog_lanes_hand_over(k, true, final);
}

/*
 * After the last flush, the session off the route and a grace period
 * passed: no writer; the lanes' empty buffers go back to the pool.
 */
void klog_lanes_release(struct klog_session *k)
{
	struct klog_lane *l;
	unsigned int cpu;

	irq_work_sync(&k->iw);
	cancel_work_sync(&k->work);
	for_each_possible_cpu(cpu) {
		l = per_cpu_ptr(k->lane, cpu);
		if (l->cur)
			etw_buffer_release(k->s, l->cur);
		if (l->spare)
			etw_buffer_release(k->s, l->spare);
		l->cur = NULL;
		l->spare = NULL;
	}
}

u64 klog_lanes_lost(struct klog_session *k)
{
	unsigned int cpu;
	u64 lost = 0;

	for_each_possible_cpu(cpu)
		lost += READ_ONCE(per_cpu_ptr(k->lane, cpu)->events_lost);
	return lost;
}
