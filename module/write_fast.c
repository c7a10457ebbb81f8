// SPDX-License-Identifier: GPL-2.0
/*
 * ETW_IOC_WRITE_SHORT's request, and the fast lane of the common event.
 *
 * Most events are one payload (ETW_WRITE_F_INLINE), or a few untyped data
 * descriptors (a manifest's fields), from a registration with no provider
 * traits, for a provider one session enables with no
 * filter but its level and keywords and no EnableProperty item.  The route
 * says so when it is built (etw_route_is_fast()).  Such an event is: the
 * registration, the route, a level and keyword test, room in this CPU's
 * current buffer, the payload copied from user memory straight into the
 * record, the 80-byte header, the commit; in one small frame with
 * preemption disabled, no call but the clock.
 *
 * Anything else, and anything that goes wrong, goes to etw_write_short()
 * (write.c) with nothing written and nothing counted: an event the session
 * filters out or loses (a full buffer: the switch, the lost count and
 * ENOSPC are there), a payload that faults (the copy with faults allowed
 * and EFAULT are there), a registration that is gone, a route of several
 * sessions or with filters or items.  So the lane changes how fast an
 * event is written, never what is written or returned.
 */
#include <linux/sched.h>
#include <linux/uaccess.h>

#include "etl.h"
#include "event_header.h"
#include "internal.h"
#include "ucopy.h"

/*
 * Payloads up to this size are copied word by word (ucopy.h); larger ones
 * by the kernel's own copy for this CPU ("rep movsb" where strings are
 * fast), as the full path copies.
 */
#define ETW_FAST_WORD_COPY_MAX	256

/* The payload into the record; preemption and page faults disabled. */
static __always_inline int etw_fast_copy(u8 *dst, u64 uptr, u32 len)
{
	const u8 __user *src = u64_to_user_ptr(uptr);
	int ret;

	if (!len)
		return 0;
	if (len > ETW_FAST_WORD_COPY_MAX) {
		if (!access_ok(src, len))
			return -EFAULT;
		barrier_nospec();
		return raw_copy_from_user(dst, src, len) ? -EFAULT : 0;
	}
	if (!user_access_begin(src, len))
		return -EFAULT;
	ret = etw_ucopy(dst, src, len);
	user_access_end();
	return ret;
}

/*
 * This CPU's copy of the request being written: read with preemption
 * disabled, it lives in no stack frame (a frame with an array or an
 * address taken gets the stack protector's canary; this one has neither).
 */
static DEFINE_PER_CPU(struct etw_event_write_short, etw_fast_req);

/* Data descriptors the fast lane reads itself; more take the full path. */
#define ETW_FAST_DESCS		8

/* This CPU's copy of the request's data descriptors, as etw_fast_req. */
struct etw_fast_descs {
	struct etw_data_desc d[ETW_FAST_DESCS];
};

static DEFINE_PER_CPU(struct etw_fast_descs, etw_fast_descs);

/*
 * @count data descriptors at @uptr into this CPU's copy: the size of the
 * payload they make, or -1 for the full path (too many, a typed one,
 * whose meaning depends on the registration, or a fault).
 */
static __always_inline s64 etw_fast_descs_read(u64 uptr, u32 count)
{
	struct etw_data_desc *d = this_cpu_ptr(&etw_fast_descs)->d;
	const void __user *src = u64_to_user_ptr(uptr);
	u64 total = 0;
	u32 i;

	if (count > ETW_FAST_DESCS ||
	    !user_access_begin(src, count * sizeof(*d)))
		return -1;
	if (etw_ucopy(d, src, count * sizeof(*d))) {
		user_access_end();
		return -1;
	}
	user_access_end();
	for (i = 0; i < count; i++) {
		if (d[i].type != ETW_DATA_DESC_NONE)
			return -1;
		total += d[i].size;
	}
	return total;
}

/* The blocks of this CPU's @count descriptors, one after the other. */
static __always_inline int etw_fast_copy_descs(u8 *dst, u32 count)
{
	const struct etw_data_desc *d = this_cpu_ptr(&etw_fast_descs)->d;
	u32 i;

	for (i = 0; i < count; i++) {
		if (etw_fast_copy(dst, d[i].ptr, d[i].size))
			return -EFAULT;
		dst += d[i].size;
	}
	return 0;
}

/*
 * Write @a's event through the fast lane if it qualifies: 0 when written,
 * -EAGAIN when it must take etw_write_short() (nothing written, counted or
 * changed).  Preemption disabled by the caller, and page faults.  The
 * payload is @a's inline one (or none: @count 0), or with @with_descs
 * @count data descriptors at @data.
 */
static __always_inline int etw_write_fast(struct etw_file *ef,
					  const struct etw_event_write_short *a,
					  const bool with_descs)
{
	const struct etw_route_entry *e;
	const struct etw_route *route;
	struct etl_event_header *h;
	struct etw_session *s;
	struct etw_buffer *b;
	struct etw_reg *r = NULL;
	s64 size = a->count;
	u32 len, room;
	u64 now;

	if (with_descs) {
		/*
		 * The registration first: a provider with traits (every
		 * TraceLogging one, whose descriptors are typed) leaves
		 * before its descriptors are read.
		 */
		r = etw_reg_lookup_rcu(ef, a->reg_id);
		if (!r || rcu_access_pointer(r->traits))
			return -EAGAIN;
		size = etw_fast_descs_read(a->data, a->count);
		if (size < 0)
			return -EAGAIN;
	}
	if (size > ETW_MAX_EVENT_SIZE - ETW_EVENT_HEADER_SIZE)
		return -EAGAIN;
	len = ETW_EVENT_HEADER_SIZE + size;
	room = ALIGN(len, 8);
	/*
	 * The clock first: the one call, before anything the rest keeps in
	 * registers.  Preemption is off from before it to the commit, so the
	 * records of this CPU are still in timestamp order.
	 */
	now = etw_clock();
	a = this_cpu_ptr(&etw_fast_req);

	/* An RCU read side (preemption disabled), as in etw_write_route(). */
	if (!with_descs) {
		r = etw_reg_lookup_rcu(ef, a->reg_id);
		/* Provider traits are an item of every record. */
		if (!r || rcu_access_pointer(r->traits))
			return -EAGAIN;
	}
	route = rcu_dereference_sched(r->prov->route);
	if (!route || !route->fast)
		return -EAGAIN;
	/* etw_route_accepts() for a fast route: level, then keywords. */
	e = &route->entry[0];
	if ((a->desc.level && a->desc.level > e->level) ||
	    (a->desc.keyword && (!(a->desc.keyword & e->match_any) ||
				 (a->desc.keyword & e->match_all) != e->match_all)))
		return -EAGAIN;
	s = e->session;
	b = this_cpu_ptr(s->cpu)->cur;
	if (unlikely(!b || b->offset + room > s->buffer_size))
		return -EAGAIN;
	h = (struct etl_event_header *)(b->data + b->offset);
	if (unlikely(with_descs ?
		     etw_fast_copy_descs((u8 *)(h + 1), a->count) :
		     etw_fast_copy((u8 *)(h + 1), a->data, size)))
		return -EAGAIN;

	/* The header, for a record without extended items. */
	BUILD_BUG_ON(ETW_WRITE_F_STRING != ETL_EVENT_FLAG_STRING_ONLY);
	etw_event_header_fill(h, len, a->flags & ETW_WRITE_F_STRING, now,
			      &r->prov->guid, &a->desc, a->activity_id);
	b->offset += room;
	return 0;
}

/*
 * The lane's instance for data descriptors, a function of its own: the
 * inline payload's, in etw_write_short_user(), keeps its registers.
 */
static noinline int etw_write_fast_descs(struct etw_file *ef,
					 const struct etw_event_write_short *a)
{
	return etw_write_fast(ef, a, true);
}

/*
 * The full path for this CPU's request: a copy of it in this frame, then
 * preemption back on.  Preemption disabled on entry.
 */
static noinline int etw_write_short_slow(struct etw_file *ef)
{
	struct etw_event_write_short w = *this_cpu_ptr(&etw_fast_req);

	preempt_enable();
	return etw_write_short(ef, &w);
}

/**
 * etw_write_short_user() - ETW_IOC_WRITE_SHORT, the hot path of EventWrite
 * @ef: the file written through
 * @uarg: the caller's &struct etw_event_write_short
 *
 * A request of today's size at an 8-byte aligned address is read in one
 * user access window, its 7 words by straight-line loads (ucopy.h), into
 * this CPU's copy; the event takes the fast lane or etw_write_short().
 * Nothing is written back.  A request that cannot be read so (another
 * layout, or a page not resident: page faults are disabled) goes to the
 * generic path, which reads and checks it as for any ioctl.
 *
 * Return: 0 or the write's negative errno.
 */
long etw_write_short_user(struct etw_file *ef, void __user *uarg)
{
	struct etw_event_write_short *w;
	int ret;
	u32 f;

	BUILD_BUG_ON(sizeof(*w) != 56);
	if (!IS_ALIGNED((unsigned long)uarg, 8))
		goto generic;
	preempt_disable();
	pagefault_disable();
	w = this_cpu_ptr(&etw_fast_req);
	if (!user_access_begin(uarg, sizeof(*w)))
		goto enable;
	if (!etw_ucopy_32(w, uarg) || !etw_ucopy_8(w, uarg, 32) ||
	    !etw_ucopy_8(w, uarg, 40) || !etw_ucopy_8(w, uarg, 48))
		goto fault;
	user_access_end();
	if (w->size != sizeof(*w))
		goto enable;
	/*
	 * One inline payload (@count its size) or none (no descriptor), or
	 * up to ETW_FAST_DESCS untyped data descriptors; EventWriteString's
	 * flag; no other flag.
	 */
	f = w->flags & ~ETW_WRITE_F_STRING;
	if (f == ETW_WRITE_F_INLINE || (!f && !w->count))
		ret = etw_write_fast(ef, w, false);
	else if (!f)
		ret = etw_write_fast_descs(ef, w);
	else
		ret = -EAGAIN;
	pagefault_enable();
	if (ret)
		return etw_write_short_slow(ef);
	preempt_enable();
	return 0;

fault:
	user_access_end();
enable:
	pagefault_enable();
	preempt_enable();
generic:
	return etw_file_ioctl_generic(ef, ETW_IOC_WRITE_SHORT, uarg);
}
