// SPDX-License-Identifier: GPL-2.0
/*
 * ETW_IOC_WRITE_SHORT's request, and the fast lane of the common event.
 *
 * Most events are one payload (ETW_WRITE_F_INLINE) from a registration
 * with no provider traits, for a provider one session enables with no
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
#include <linux/compat.h>
#include <linux/sched.h>
#include <linux/uaccess.h>

#include "etl.h"
#include "internal.h"
#include "ucopy.h"

/*
 * Payloads up to this size are copied word by word (ucopy.h); larger ones
 * by the kernel's own copy for this CPU ("rep movsb" where strings are
 * fast), as the full path copies.
 */
#define ETW_FAST_WORD_COPY_MAX	256

/* The payload into the record, page faults disabled by the caller. */
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
 * Write @a's event through the fast lane if it qualifies: 0 when written,
 * -EAGAIN when it must take etw_write_short() (nothing written, counted or
 * changed).
 */
static __always_inline int etw_write_fast(struct etw_file *ef,
					  const struct etw_event_write_short *a)
{
	const struct etw_route_entry *e;
	const struct etw_route *route;
	struct etl_event_header *h;
	struct task_struct *t;
	struct etw_session *s;
	struct etw_buffer *b;
	struct etw_reg *r;
	u32 len = ETW_EVENT_HEADER_SIZE + a->count;
	u32 room = ALIGN(len, 8);
	u64 kw = a->desc.keyword;
	u8 level = a->desc.level;
	u32 f = a->flags & ~ETW_WRITE_F_STRING;

	/*
	 * One inline payload (@count its size) or no data descriptor at all
	 * (@count 0); EventWriteString's flag; no other flag.
	 */
	if ((f != ETW_WRITE_F_INLINE && (f || a->count)) ||
	    a->count > ETW_MAX_EVENT_SIZE - ETW_EVENT_HEADER_SIZE)
		return -EAGAIN;

	/* An RCU read side, as in etw_write_route(), up to the commit. */
	preempt_disable();
	r = etw_reg_lookup_rcu(ef, a->reg_id);
	/* Provider traits are an item of every record. */
	if (!r || rcu_access_pointer(r->traits))
		goto slow;
	route = rcu_dereference_sched(r->prov->route);
	if (!route || !route->fast)
		goto slow;
	/* etw_route_accepts() for a fast route: level, then keywords. */
	e = &route->entry[0];
	if ((level && level > e->level) ||
	    (kw && (!(kw & e->match_any) ||
		    (kw & e->match_all) != e->match_all)))
		goto slow;
	s = e->session;
	b = this_cpu_ptr(s->cpu)->cur;
	if (unlikely(!b || b->offset + room > s->buffer_size))
		goto slow;
	h = (struct etl_event_header *)(b->data + b->offset);

	pagefault_disable();
	if (unlikely(etw_fast_copy((u8 *)(h + 1), a->data, a->count))) {
		pagefault_enable();
		goto slow;
	}
	pagefault_enable();

	/* etw_record_fill() for a record without extended items. */
	t = current;
	h->size = len;
	h->header_type = in_compat_syscall() ? ETL_HEADER_TYPE_EVENT32 :
					       ETL_HEADER_TYPE_EVENT64;
	h->flags = a->flags & ETW_WRITE_F_STRING ?
		   ETL_EVENT_FLAG_STRING_ONLY : 0;
	h->event_property = 0;
	h->thread_id = task_pid_nr(t);
	h->process_id = task_tgid_nr(t);
	h->timestamp = etw_clock();
	export_guid(h->provider_id, &r->prov->guid);
	memcpy(&h->desc, &a->desc, sizeof(h->desc));
	h->kernel_time = div_u64(READ_ONCE(t->stime), NSEC_PER_MSEC);
	h->user_time = div_u64(READ_ONCE(t->utime), NSEC_PER_MSEC);
	memcpy(h->activity_id, a->activity_id, sizeof(h->activity_id));
	b->offset += room;
	preempt_enable();
	return 0;

slow:
	preempt_enable();
	return -EAGAIN;
}

/**
 * etw_write_short_user() - ETW_IOC_WRITE_SHORT, the hot path of EventWrite
 * @ef: the file written through
 * @uarg: the caller's &struct etw_event_write_short
 *
 * A request of today's size at an 8-byte aligned address is read in one
 * user access window, its 7 words by straight-line loads (ucopy.h); the
 * event takes the fast lane or etw_write_short().  Nothing is written
 * back.
 *
 * Return: 0 or the write's negative errno; -ENOIOCTLCMD for any other
 * request layout, which the generic path reads and checks the same way.
 */
long etw_write_short_user(struct etw_file *ef, const void __user *uarg)
{
	struct etw_event_write_short w __uninitialized;
	int ret;

	BUILD_BUG_ON(sizeof(w) != 56);
	if (!IS_ALIGNED((unsigned long)uarg, 8) ||
	    !user_access_begin(uarg, sizeof(w)))
		return -ENOIOCTLCMD;
	ret = etw_ucopy(&w, uarg, sizeof(w));
	user_access_end();
	if (ret || w.size != sizeof(w))
		return -ENOIOCTLCMD;
	if (!etw_write_fast(ef, &w))
		return 0;
	return etw_write_short(ef, &w);
}
