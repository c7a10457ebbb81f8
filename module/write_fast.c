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
#include <linux/compat.h>
#include <linux/sched.h>
#include <linux/uaccess.h>

#include "etl.h"
#include "event_header.h"
#include "internal.h"
#include "ucopy.h"

/*
 * The payload into the record, in an open user access window with page
 * faults disabled: from 64 bytes one "rep movsq", below straight-line
 * words (ucopy.h).
 */
static __always_inline int etw_fast_copy_open(u8 *dst, u64 uptr, u32 len)
{
	const u8 __user *src = u64_to_user_ptr(uptr);

	if (!len)
		return 0;
	/*
	 * Up to a page, the address alone, as access_ok() checks a size it
	 * knows to be that small: a copy that starts in user space faults in
	 * the guard page above it.  (Where access_ok() checks the whole page,
	 * an address in the last one takes the full path.)
	 */
	if (len <= PAGE_SIZE ? !access_ok(src, PAGE_SIZE) : !access_ok(src, len))
		return -EFAULT;
	barrier_nospec();
	return etw_ucopy(dst, src, len);
}

/* The same, in a user access window of its own. */
static __always_inline int etw_fast_copy(u8 *dst, u64 uptr, u32 len)
{
	const u8 __user *src = u64_to_user_ptr(uptr);
	int ret;

	if (!len)
		return 0;
	if (!user_access_begin(src, len))
		return -EFAULT;
	ret = etw_ucopy(dst, src, len);
	user_access_end();
	return ret;
}

/* Data descriptors the fast lane reads itself; more take the full path. */
#define ETW_FAST_DESCS		8

/*
 * This CPU's copy of the request's data descriptors: read with
 * preemption disabled, it lives in no stack frame (a frame with an array
 * gets the stack protector's canary).
 */
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
 * The words of the request the lane decides with, read by
 * etw_write_short_user(): @head its size and registration, @data and
 * @tail (its count and flags) as in struct etw_event_write_short.  The
 * event descriptor and the activity id are not read into the kernel: the
 * lane copies them from @u straight into the record's header.
 */
struct etw_fast_req {
	const struct etw_event_write_short __user *u;
	u64 head;
	u64 data;
	u64 tail;
};

static __always_inline u32 etw_fast_reg_id(const struct etw_fast_req q)
{
	return q.head >> 32;
}

static __always_inline u32 etw_fast_count(const struct etw_fast_req q)
{
	return q.tail;
}

static __always_inline u32 etw_fast_flags(const struct etw_fast_req q)
{
	return q.tail >> 32;
}

/*
 * Write @q's event through the fast lane if it qualifies: 0 when written,
 * -EAGAIN when it must take etw_write_short() (nothing written, counted or
 * changed).  Preemption and page faults disabled by the caller, @now read
 * after that.  The payload is @q's inline one (or none: count 0), or with
 * @with_descs its count data descriptors at its data.
 *
 * Inline, the caller's user access window, in which it read @q, is still
 * open, and stays open to the end of the payload's copy, which is one
 * "stac", one "clac" and one fence fewer; nothing in it calls a function
 * (objtool checks it).  With @with_descs, the window is closed and each
 * read opens its own.
 */
static __always_inline int etw_write_fast(struct etw_file *ef,
					  const struct etw_fast_req q,
					  u64 now, u16 header_type,
					  const bool with_descs)
{
	const struct etw_route_entry *e;
	const struct etw_provider *prov;
	const struct etw_route *route;
	struct etl_event_header *h;
	struct etw_session *s;
	struct etw_buffer *b;
	struct etw_reg *r;
	u32 size, room;
	u64 keyword;

	/*
	 * An RCU read side (preemption disabled), as in etw_write_route(),
	 * which etw_write_short_lane() checked before the window opened: the
	 * lookups here make no lockdep call (objtool).
	 */
	r = etw_reg_lookup_raw(ef, etw_fast_reg_id(q));
	/*
	 * Provider traits are an item of every record; a provider with them
	 * (every TraceLogging one, whose descriptors are typed) leaves
	 * before its descriptors are read.
	 */
	if (!r || rcu_access_pointer(r->traits))
		goto bail;
	if (with_descs) {
		s64 total = etw_fast_descs_read(q.data, etw_fast_count(q));

		if (total < 0 || total > ETW_MAX_EVENT_SIZE - ETW_EVENT_HEADER_SIZE)
			return -EAGAIN;
		size = total;
	} else {
		size = etw_fast_count(q);
		if (size > ETW_MAX_EVENT_SIZE - ETW_EVENT_HEADER_SIZE)
			goto bail;
	}
	room = ALIGN(ETW_EVENT_HEADER_SIZE + size, 8);
	prov = r->prov;
	route = rcu_dereference_raw(prov->route);
	if (!route || !route->fast)
		goto bail;
	e = &route->entry[0];
	s = e->session;
	/* Not this_cpu_ptr(): DEBUG_PREEMPT's check of it is a call. */
	b = raw_cpu_ptr(s->cpu)->cur;
	if (unlikely(!b || b->offset + room > s->buffer_size))
		goto bail;
	h = (struct etl_event_header *)(b->data + b->offset);

	/*
	 * The request's descriptor and activity id, into the header; then the
	 * header, then the payload: what the header needs is no longer kept
	 * while the payload is copied.  Until the commit, nothing here is
	 * part of the buffer.
	 */
	BUILD_BUG_ON(sizeof(h->desc) != sizeof(q.u->desc) ||
		     sizeof(h->activity_id) != sizeof(q.u->activity_id) ||
		     offsetof(struct etl_event_desc, keyword) !=
		     offsetof(struct etw_event_desc, keyword) ||
		     offsetof(struct etl_event_desc, level) !=
		     offsetof(struct etw_event_desc, level));
	if (with_descs && !user_access_begin(q.u, sizeof(*q.u)))
		return -EAGAIN;
	if (!etw_ucopy_16(h, offsetof(typeof(*h), desc), q.u,
			  offsetof(typeof(*q.u), desc)) ||
	    !etw_ucopy_16(h, offsetof(typeof(*h), activity_id), q.u,
			  offsetof(typeof(*q.u), activity_id)))
		goto bail_open;
	/*
	 * etw_route_accepts() for a fast route, whose MatchAll is 0: the
	 * level (0 passes any), then the keywords.
	 */
	keyword = h->desc.keyword;
	if (h->desc.level > e->level ||
	    (unlikely(!(keyword & e->match_any)) && keyword))
		goto bail_open;
	if (with_descs)
		user_access_end();
	BUILD_BUG_ON(ETW_WRITE_F_STRING != ETL_EVENT_FLAG_STRING_ONLY);
	etw_event_header_fill_task(h, ETW_EVENT_HEADER_SIZE + size, header_type,
				   etw_fast_flags(q) & ETW_WRITE_F_STRING,
				   now, &prov->guid);
	if (with_descs) {
		if (etw_fast_copy_descs((u8 *)(h + 1), etw_fast_count(q)))
			return -EAGAIN;
	} else {
		if (etw_fast_copy_open((u8 *)(h + 1), q.data, size))
			goto bail_open;
		user_access_end();
	}
	b->offset += room;
	return 0;

bail:
	/* Inline, the caller's window is open. */
	if (!with_descs)
		user_access_end();
	return -EAGAIN;
bail_open:
	user_access_end();
	return -EAGAIN;
}

/*
 * The lane's instance for data descriptors, a function of its own: the
 * inline payload's, in etw_write_short_user(), keeps its registers.
 */
static noinline int etw_write_fast_descs(struct etw_file *ef,
					 const struct etw_event_write_short __user *u,
					 u64 head, u64 data, u64 tail, u64 now)
{
	const struct etw_fast_req q = {
		.u = u, .head = head, .data = data, .tail = tail,
	};

	return etw_write_fast(ef, q, now, etw_header_type(), true);
}

/*
 * The full path, preemption back on: the request read again, with page
 * faults allowed, into this frame.  Preemption disabled on entry.
 */
static noinline long etw_write_short_slow(struct etw_file *ef,
					  void __user *uarg)
{
	struct etw_event_write_short w;

	preempt_enable();
	if (copy_from_user(&w, uarg, sizeof(w)))
		return -EFAULT;
	/* Another thread changed it since the lane read it. */
	if (w.size != sizeof(w))
		return etw_file_ioctl_generic(ef, ETW_IOC_WRITE_SHORT, uarg);
	return etw_write_short(ef, &w);
}

/*
 * ETW_IOC_WRITE_SHORT, the hot path of EventWrite, on @ef from @uarg.
 * Inlined into a writer fd's ioctl: no call, no second entry.
 *
 * A request of today's size is decided by 3 of its words, each one load
 * (etw_uload_8(), ucopy.h) in one user access window that, for an inline
 * payload, stays open until the payload is in the record.  (A word that
 * straddles a page boundary is one load too: a request that is not
 * wholly resident faults in its first word or its last.)  The event
 * takes the fast lane or etw_write_short(), which reads the request
 * again.  Nothing is written back.  A request that
 * cannot be read so (another layout, or a page not resident: page faults
 * are disabled) goes to the generic path, which reads and checks it as for
 * any ioctl.
 *
 * Return: 0 or the write's negative errno.
 */
static __always_inline long etw_write_short_lane(struct etw_file *ef,
						 void __user *uarg,
						 u16 header_type)
{
	const struct etw_event_write_short __user *u = uarg;
	struct etw_fast_req q = { .u = u };
	u64 now;
	int ret;
	u32 f;

	BUILD_BUG_ON(sizeof(*u) != 56 ||
		     offsetof(typeof(*u), size) != 0 ||
		     offsetof(typeof(*u), reg_id) != 4 ||
		     offsetof(typeof(*u), data) != 40 ||
		     offsetof(typeof(*u), count) != 48 ||
		     offsetof(typeof(*u), flags) != 52);
	preempt_disable();
	/* etw_write_fast()'s read side, checked outside the window. */
	RCU_LOCKDEP_WARN(!rcu_read_lock_sched_held(),
			 "etw: the fast write outside an RCU read side");
	pagefault_disable();
	/*
	 * The clock first: before anything the rest keeps in registers.
	 * Preemption is off from before it to the commit, so the records of
	 * this CPU are still in timestamp order.
	 */
	now = etw_clock();
	if (!user_access_begin(u, sizeof(*u)))
		goto enable;
	/* A word that faulted is all ones: a size and flags refused here. */
	q.head = etw_uload_8(u, 0);
	q.data = etw_uload_8(u, 40);
	q.tail = etw_uload_8(u, 48);
	if ((u32)q.head != sizeof(*u))
		goto fault;
	/*
	 * One inline payload (count its size) or none (no descriptor), or
	 * up to ETW_FAST_DESCS untyped data descriptors; EventWriteString's
	 * flag; no other flag.
	 */
	f = etw_fast_flags(q) & ~ETW_WRITE_F_STRING;
	if (f == ETW_WRITE_F_INLINE || (!f && !etw_fast_count(q))) {
		ret = etw_write_fast(ef, q, now, header_type, false);
	} else {
		user_access_end();
		ret = f ? -EAGAIN :
			etw_write_fast_descs(ef, u, q.head, q.data, q.tail, now);
	}
	pagefault_enable();
	if (ret)
		return etw_write_short_slow(ef, uarg);
	preempt_enable();
	return 0;

fault:
	user_access_end();
enable:
	pagefault_enable();
	preempt_enable();
	return etw_file_ioctl_generic(ef, ETW_IOC_WRITE_SHORT, uarg);
}

/**
 * etw_write_short_user() - ETW_IOC_WRITE_SHORT on the /dev/etw file itself
 * @ef: the file written through
 * @uarg: the caller's &struct etw_event_write_short
 *
 * Return: 0 or the write's negative errno.
 */
long etw_write_short_user(struct etw_file *ef, void __user *uarg)
{
	return etw_write_short_lane(ef, uarg, etw_header_type());
}

/* A writer fd's other command: ETW_IOC_WRITE, as on the file, or none. */
static inline long etw_writer_other(struct file *filp, unsigned int cmd,
				    void __user *uarg)
{
	if (cmd != ETW_IOC_WRITE)
		return -ENOTTY;
	return etw_file_ioctl_generic(filp->private_data, cmd, uarg);
}

/*
 * A writer fd's ioctl (writer.c): the writes only, exactly as on the file.
 * EventWrite's is the lane itself, in a function without another frame
 * (GCC sets up the generic path's frame on entry, whatever the command):
 * the other write pays the call to the generic path instead.  A native
 * system call's record has the 64-bit header.
 */
long etw_writer_ioctl(struct file *filp, unsigned int cmd, unsigned long arg)
{
	if (cmd == ETW_IOC_WRITE_SHORT)
		return etw_write_short_lane(filp->private_data,
					    (void __user *)arg,
					    ETL_HEADER_TYPE_EVENT64);
	return etw_writer_other(filp, cmd, (void __user *)arg);
}

#ifdef CONFIG_COMPAT
/*
 * The same for a 32-bit caller (ia32 and x32 ioctls both enter through
 * compat_sys_ioctl()), through the /dev/etw file's instance of the lane.
 */
long etw_writer_compat_ioctl(struct file *filp, unsigned int cmd,
			     unsigned long arg)
{
	if (cmd == ETW_IOC_WRITE_SHORT)
		return etw_write_short_user(filp->private_data, compat_ptr(arg));
	return etw_writer_other(filp, cmd, compat_ptr(arg));
}
#endif
