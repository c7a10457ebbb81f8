// SPDX-License-Identifier: GPL-2.0
/*
 * klog_write(): one kernel record, and its StackWalk, into the kernel lane
 * of each system-logger session that wants it (klog.h says from where).
 *
 * The route of system loggers is RCU-published; it is read with
 * interrupts disabled, which is an RCU read side (and an NMI is one too).
 * The record is built in place: header, then each payload part.
 */
#include <linux/hardirq.h>
#include <linux/irqflags.h>
#include <linux/sched.h>
#include <linux/timekeeping.h>

#include "etl.h"
#include "internal.h"
#include "klog_internal.h"
#include "klog_route.h"

/* The first 8 bytes every kernel header starts with. */
struct klog_marker {
	u16 version;
	u8 header_type;
	u8 marker_flags;	/* TRACE_HEADER_FLAG | TRACE_HEADER_EVENT_TRACE */
	u16 size;
	u8 type;
	u8 group;
};

/* SYSTEM_TRACE_HEADER (64-bit); the compact form ends before the times. */
struct klog_system_header {
	struct klog_marker m;
	u32 thread_id;
	u32 process_id;
	u64 timestamp;
	u32 kernel_time;
	u32 user_time;
};

/* PERFINFO_TRACE_HEADER (64-bit). */
struct klog_perfinfo_header {
	struct klog_marker m;
	u64 timestamp;
};

/* StackWalk/Stack's fixed part; the frames follow. */
struct klog_stackwalk {
	u64 event_timestamp;
	u32 stack_process;
	u32 stack_thread;
};

#define KLOG_COMPACT_SIZE	0x18

static_assert(sizeof(struct klog_system_header) == 0x20);
static_assert(sizeof(struct klog_perfinfo_header) == 0x10);
static_assert(offsetof(struct klog_system_header, kernel_time) == KLOG_COMPACT_SIZE);

u32 klog_flags;

u64 klog_clock(void)
{
	if (static_branch_likely(&etw_clock_tsc))
		return rdtsc_ordered();
	/* ktime_get_ns() may spin on the timekeeper's seqcount: not in NMI. */
	return in_nmi() ? ktime_get_mono_fast_ns() : ktime_get_ns();
}

static u32 klog_header_size(u8 header_type)
{
	switch (header_type) {
	case KLOG_HDR_FULL:
		return sizeof(struct etl_trace_header);
	case KLOG_HDR_SYSTEM:
		return sizeof(struct klog_system_header);
	case KLOG_HDR_COMPACT:
		return KLOG_COMPACT_SIZE;
	default:
		return sizeof(struct klog_perfinfo_header);
	}
}

/* Fill the header of a record of @size bytes at @dst. */
static void klog_header(void *dst, const struct klog_event *ev, u16 hook,
			u8 header_type, u8 version, u32 size, u64 now)
{
	struct klog_system_header *h = dst;
	struct klog_perfinfo_header *p = dst;
	struct etl_trace_header *t = dst;
	struct klog_marker *m = dst;

	if (header_type == KLOG_HDR_FULL) {
		/* A classic header: Size first, then type, level, version. */
		memset(t, 0, sizeof(*t));
		t->size = size;
		t->header_type = header_type;
		t->marker_flags = ETL_MARKER_FLAGS_TRACE;
		t->type = hook & 0xff;
		t->version = version;
		t->thread_id = ev->tid;
		t->process_id = ev->pid;
		t->timestamp = now;
		if (ev->guid)
			memcpy(t->guid, ev->guid, sizeof(t->guid));
		return;
	}
	m->version = version;
	m->header_type = header_type;
	m->marker_flags = ETL_MARKER_FLAGS_TRACE;
	m->size = size;
	m->type = hook & 0xff;
	m->group = hook >> 8;
	if (header_type == KLOG_HDR_PERFINFO) {
		p->timestamp = now;
		return;
	}
	h->thread_id = ev->tid;
	h->process_id = ev->pid;
	h->timestamp = now;
	if (header_type == KLOG_HDR_SYSTEM) {
		/* Processor times in ms, of the thread the header names. */
		if (!in_nmi() && ev->tid == task_pid_nr(current)) {
			h->kernel_time = div_u64(READ_ONCE(current->stime),
						 NSEC_PER_MSEC);
			h->user_time = div_u64(READ_ONCE(current->utime),
					       NSEC_PER_MSEC);
		} else {
			h->kernel_time = 0;
			h->user_time = 0;
		}
	}
}

/* Room for a record of @len bytes in @k's lane; NULL if it has none. */
static u8 *klog_reserve(struct klog_session *k, struct klog_lane *l, u32 len)
{
	if (ALIGN(len, 8) > k->s->buffer_size - ETW_BUFFER_HEADER_SIZE)
		return NULL;
	return klog_lane_reserve(k, l, ALIGN(len, 8));
}

/* One record into @k's lane on this CPU; false if lost. */
static bool klog_write_one(struct klog_session *k, struct klog_lane *l,
			   const struct klog_event *ev, u32 hsize, u32 len,
			   u64 now)
{
	unsigned int i;
	u8 *dst;

	dst = klog_reserve(k, l, len);
	if (!dst)
		return false;
	klog_header(dst, ev, ev->hook, ev->header_type, ev->version, len, now);
	dst += hsize;
	for (i = 0; i < ev->nr_parts; i++) {
		memcpy(dst, ev->parts[i].data, ev->parts[i].size);
		dst += ev->parts[i].size;
	}
	klog_lane_commit(l, len);
	return true;
}

/* The StackWalk of the record just written, same time, same lane. */
static bool klog_write_stack(struct klog_session *k, struct klog_lane *l,
			     const struct klog_event *ev, u64 now)
{
	const struct klog_stack *st = ev->stack;
	u32 nr = min_t(u32, st->nr, KLOG_MAX_FRAMES);
	u32 hsize = sizeof(struct klog_perfinfo_header);
	u32 len = hsize + sizeof(struct klog_stackwalk) + nr * sizeof(u64);
	struct klog_stackwalk *sw;
	u8 *dst;

	dst = klog_reserve(k, l, len);
	if (!dst)
		return false;
	klog_header(dst, ev, KLOG_HOOK_STACKWALK, KLOG_HDR_PERFINFO, 2, len,
		    now);
	sw = (struct klog_stackwalk *)(dst + hsize);
	sw->event_timestamp = now;
	sw->stack_process = st->pid;
	sw->stack_thread = st->tid;
	memcpy(sw + 1, st->frames, nr * sizeof(u64));
	klog_lane_commit(l, len);
	return true;
}

/*
 * The user stack copy of the record just written, before its StackWalk
 * (same time, same lane): reserved at its largest, committed at the
 * length the copy reached.
 */
static bool klog_write_ucopy(struct klog_session *k, struct klog_lane *l,
			     const struct klog_event *ev, u64 now)
{
	struct klog_event cev = {
		.tid = ev->stack->tid,
		.pid = ev->stack->pid,
		.guid = &klog_ucopy_guid,
	};
	u32 size = READ_ONCE(k->stack_copy);
	u32 hsize = sizeof(struct etl_trace_header);
	u32 len = hsize + KLOG_UCOPY_FIXED + size;
	u8 *dst;

	dst = klog_reserve(k, l, len);
	if (!dst)
		return false;
	len = hsize + klog_ucopy_fill(dst + hsize, ev->uregs, ev->stack, now,
				      size);
	klog_header(dst, &cev, KLOG_HOOK_STACK_COPY, KLOG_HDR_FULL, 0, len, now);
	klog_lane_commit(l, len);
	return true;
}

static bool klog_session_wants_stack(const struct klog_session *k, u16 hook)
{
	return hook < KLOG_STACK_HOOKS && test_bit(hook, k->stack_hooks);
}

unsigned int klog_write(const struct klog_event *ev)
{
	u32 hsize = klog_header_size(ev->header_type), len = hsize;
	const struct klog_route *r;
	struct klog_session *k;
	struct klog_lane *l;
	unsigned long flags;
	unsigned int i, written = 0;
	u64 now;

	for (i = 0; i < ev->nr_parts; i++)
		len += ev->parts[i].size;
	if (len > ETW_MAX_EVENT_SIZE)
		return 0;

	local_irq_save(flags);
	now = ev->timestamp ? ev->timestamp : klog_clock();
	r = rcu_dereference_sched(klog_route);
	for (i = 0; r && i < r->count; i++) {
		k = r->k[i];
		if (ev->target ? ev->target != k :
		    !(READ_ONCE(k->flags) & ev->flag))
			continue;
		l = this_cpu_ptr(k->lane);
		/* Only an NMI can find its CPU inside the lane. */
		if (l->nest++) {
			klog_lane_lost(l);
			l->nest--;
			continue;
		}
		/* An NMI on this CPU sees the lane taken before it is used. */
		barrier();
		if (!klog_write_one(k, l, ev, hsize, len, now)) {
			klog_lane_lost(l);
		} else {
			written++;
			if (ev->stack && klog_session_wants_stack(k, ev->hook)) {
				if (ev->uregs && READ_ONCE(k->stack_copy) &&
				    !klog_write_ucopy(k, l, ev, now))
					klog_lane_lost(l);
				if (!klog_write_stack(k, l, ev, now))
					klog_lane_lost(l);
			}
		}
		barrier();
		l->nest--;
	}
	local_irq_restore(flags);
	return written;
}

bool klog_stack_wanted(u16 hook)
{
	return hook < KLOG_STACK_HOOKS && test_bit(hook, klog_stack_union);
}

void klog_write_lost(u32 flag, u32 n)
{
	const struct klog_route *r;
	unsigned long flags;
	unsigned int i;

	local_irq_save(flags);
	r = rcu_dereference_sched(klog_route);
	for (i = 0; r && i < r->count; i++)
		if (READ_ONCE(r->k[i]->flags) & flag)
			klog_lanes_add_lost(r->k[i], n);
	local_irq_restore(flags);
}
