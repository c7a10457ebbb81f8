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
 * preemption disabled, no call but the clock.  A TraceLogging event (its
 * provider traits and event metadata in typed descriptors) is the same
 * with the two extended items those become (etw_write_fast_meta()).
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

/*
 * Data descriptors the fast lane reads itself; more take the full path.
 * A TraceLogging event has two more than its fields.
 */
#define ETW_FAST_DESCS		16

/*
 * This CPU's copy of the request's data descriptors: read with
 * preemption disabled, it lives in no stack frame (a frame with an array
 * gets the stack protector's canary).
 */
struct etw_fast_descs {
	struct etw_data_desc d[ETW_FAST_DESCS];
};

static DEFINE_PER_CPU(struct etw_fast_descs, etw_fast_descs);

/* etw_fast_descs_read(): a typed descriptor, whose meaning is the registration's. */
#define ETW_FAST_TYPED		(-2)

/*
 * @count data descriptors at @uptr into this CPU's copy: the size of the
 * payload they make, %ETW_FAST_TYPED if one is typed, or -1 for the full
 * path (too many, or a fault).
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
			return ETW_FAST_TYPED;
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
 * This CPU's current buffer of @prov's one session, if its route is a
 * fast one and the buffer has room for a record of @len bytes (unpadded),
 * with the route's entry in @ep; NULL for the full path.  The record goes
 * at the buffer's offset.
 */
static __always_inline struct etw_buffer *
etw_fast_reserve(const struct etw_provider *prov, u32 len,
		 const struct etw_route_entry **ep)
{
	const struct etw_route *route;
	struct etw_session *s;
	struct etw_buffer *b;

	route = rcu_dereference_raw(prov->route);
	if (!route || !route->fast)
		return NULL;
	*ep = &route->entry[0];
	s = (*ep)->session;
	/* Not this_cpu_ptr(): DEBUG_PREEMPT's check of it is a call. */
	b = raw_cpu_ptr(s->cpu)->cur;
	if (unlikely(!b || b->offset + ALIGN(len, 8) > s->buffer_size))
		return NULL;
	return b;
}

/*
 * The request's descriptor and activity id into @h, in an open user
 * access window, and the route's test of them: false for the full path
 * (the window still open).
 */
static __always_inline bool etw_fast_desc_accepted(struct etl_event_header *h,
						   const struct etw_fast_req q,
						   const struct etw_route_entry *e)
{
	u64 keyword;

	BUILD_BUG_ON(sizeof(h->desc) != sizeof(q.u->desc) ||
		     sizeof(h->activity_id) != sizeof(q.u->activity_id) ||
		     offsetof(struct etl_event_desc, keyword) !=
		     offsetof(struct etw_event_desc, keyword) ||
		     offsetof(struct etl_event_desc, level) !=
		     offsetof(struct etw_event_desc, level));
	if (!etw_ucopy_16(h, offsetof(typeof(*h), desc), q.u,
			  offsetof(typeof(*q.u), desc)) ||
	    !etw_ucopy_16(h, offsetof(typeof(*h), activity_id), q.u,
			  offsetof(typeof(*q.u), activity_id)))
		return false;
	/*
	 * etw_route_accepts() for a fast route, whose MatchAll is 0: the
	 * level (0 passes any), then the keywords.
	 */
	keyword = h->desc.keyword;
	return !(h->desc.level > e->level ||
		 (unlikely(!(keyword & e->match_any)) && keyword));
}

static noinline int etw_write_fast_meta(const struct etw_reg *r,
					const struct etw_event_write_short __user *u,
					u64 head, u64 data, u64 tail, u64 now);

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
	const struct etw_provider *prov;
	const struct etw_route_entry *e;
	struct etl_event_header *h;
	struct etw_buffer *b;
	struct etw_reg *r;
	u32 size;

	/*
	 * An RCU read side (preemption disabled), as in etw_write_route(),
	 * which etw_write_short_lane() checked before the window opened: the
	 * lookups here make no lockdep call (objtool).
	 */
	r = etw_reg_lookup_raw(ef, etw_fast_reg_id(q));
	if (!r)
		goto bail;
	if (with_descs) {
		s64 total = etw_fast_descs_read(q.data, etw_fast_count(q));

		/*
		 * Typed blocks of a registration that honours their types
		 * (TraceLogging's metadata, which become items) have a lane
		 * of their own.
		 */
		if (unlikely((u64)total > ETW_MAX_EVENT_SIZE - ETW_EVENT_HEADER_SIZE)) {
			if (total == ETW_FAST_TYPED && READ_ONCE(r->use_desc_type))
				return etw_write_fast_meta(r, q.u, q.head, q.data,
							   q.tail, now);
			return -EAGAIN;
		}
		size = total;
	} else {
		size = etw_fast_count(q);
		if (size > ETW_MAX_EVENT_SIZE - ETW_EVENT_HEADER_SIZE)
			goto bail;
	}
	/* Provider traits are an item of every record. */
	if (rcu_access_pointer(r->traits))
		goto bail;
	prov = r->prov;
	b = etw_fast_reserve(prov, ETW_EVENT_HEADER_SIZE + size, &e);
	if (!b)
		goto bail;
	h = (struct etl_event_header *)(b->data + b->offset);

	/*
	 * The request's descriptor and activity id, into the header; then the
	 * header, then the payload: what the header needs is no longer kept
	 * while the payload is copied.  Until the commit, nothing here is
	 * part of the buffer.
	 */
	if (with_descs && !user_access_begin(q.u, sizeof(*q.u)))
		return -EAGAIN;
	if (!etw_fast_desc_accepted(h, q, e))
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
	b->offset += ALIGN(ETW_EVENT_HEADER_SIZE + size, 8);
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
 * A block the caller checked, in an open user access window: most of
 * TraceLogging's (metadata, numbers, short strings) are 32 bytes or less.
 */
static __always_inline int etw_fast_copy_block(u8 *dst, u64 uptr, u32 len)
{
	const u8 __user *src = u64_to_user_ptr(uptr);

	if (len <= 32)
		return etw_ucopy_upto32(dst, src, len) ? 0 : -EFAULT;
	return etw_ucopy(dst, src, len);
}

/*
 * The header of an extended item of @size bytes of data at @p, and its
 * padding: the item's last word zeroed before the data that may overlap
 * it is copied.  @more: another item follows.
 */
static __always_inline void etw_fast_item_head(u8 *p, u16 type, u32 size,
					       bool more)
{
	struct etl_ext_item *x = (struct etl_ext_item *)p;
	u32 len = ALIGN(sizeof(*x) + size, 8);

	x->item_size = len;
	x->ext_type = type;
	x->linkage = more ? ETL_EXT_LINKAGE : 0;
	x->data_size = size;
	if (size & 7)
		*(u64 *)(p + len - 8) = 0;
}

/* A block the lane copies: up to a page, at a user address. */
static __always_inline bool etw_fast_block_ok(const struct etw_data_desc *x)
{
	return x->size <= PAGE_SIZE && access_ok(u64_to_user_ptr(x->ptr), PAGE_SIZE);
}

/*
 * The lane of TraceLogging's events: data descriptors that are the
 * provider traits (PROVIDER_METADATA), the event's metadata
 * (EVENT_METADATA), then the payload's blocks, as TraceLoggingWrite and
 * etw_tld_event_write() send them, from a registration that honours
 * their types.  The record is the one the full path writes
 * (etw_add_metadata()): a PROV_TRAITS item, an EVENT_SCHEMA_TL item, the
 * payload.  Any other typed write, or a block over a page, takes the full
 * path, as does anything etw_write_fast() leaves.  @r is the request's
 * registration; this CPU's copy holds its descriptors.  Preemption and
 * page faults disabled, no user access window open.
 */
static noinline int etw_write_fast_meta(const struct etw_reg *r,
					const struct etw_event_write_short __user *u,
					u64 head, u64 data, u64 tail, u64 now)
{
	const struct etw_fast_req q = {
		.u = u, .head = head, .data = data, .tail = tail,
	};
	const struct etw_data_desc *d = this_cpu_ptr(&etw_fast_descs)->d;
	const u32 count = etw_fast_count(q);
	const struct etw_provider *prov;
	const struct etw_route_entry *e;
	struct etl_event_header *h;
	u32 tlen, slen, i;
	u64 payload = 0, len;
	struct etw_buffer *b;
	u8 *titem, *sitem, *dst;

	/*
	 * Each block's address is checked here, as etw_fast_copy_open()
	 * checks one of up to a page: the fence of the window they are
	 * copied in comes after every check.
	 */
	if (count < 2 || d[0].type != ETW_DATA_DESC_PROVIDER_METADATA ||
	    d[1].type != ETW_DATA_DESC_EVENT_METADATA ||
	    !etw_fast_block_ok(&d[0]) || !etw_fast_block_ok(&d[1]))
		return -EAGAIN;
	for (i = 2; i < count; i++) {
		if (d[i].type != ETW_DATA_DESC_NONE || !etw_fast_block_ok(&d[i]))
			return -EAGAIN;
		payload += d[i].size;
	}
	tlen = d[0].size;
	slen = d[1].size;
	len = ETW_EVENT_HEADER_SIZE + ALIGN(sizeof(struct etl_ext_item) + tlen, 8) +
	      ALIGN(sizeof(struct etl_ext_item) + slen, 8) + payload;
	if (len > ETW_MAX_EVENT_SIZE)
		return -EAGAIN;
	prov = r->prov;
	b = etw_fast_reserve(prov, len, &e);
	if (!b)
		return -EAGAIN;
	h = (struct etl_event_header *)(b->data + b->offset);

	/* The items' headers, before the window. */
	titem = (u8 *)(h + 1);
	etw_fast_item_head(titem, ETL_EXT_PROV_TRAITS, tlen, true);
	sitem = titem + ALIGN(sizeof(struct etl_ext_item) + tlen, 8);
	etw_fast_item_head(sitem, ETL_EXT_EVENT_SCHEMA_TL, slen, false);
	dst = sitem + ALIGN(sizeof(struct etl_ext_item) + slen, 8);
	if (!user_access_begin(q.u, sizeof(*q.u)))
		return -EAGAIN;
	if (!etw_fast_desc_accepted(h, q, e))
		goto bail_open;
	etw_event_header_fill_task(h, len, etw_header_type(),
				   ETL_EVENT_FLAG_EXTENDED_INFO |
				   (etw_fast_flags(q) & ETW_WRITE_F_STRING),
				   now, &prov->guid);
	if (etw_fast_copy_block(titem + sizeof(struct etl_ext_item), d[0].ptr, tlen) ||
	    etw_fast_copy_block(sitem + sizeof(struct etl_ext_item), d[1].ptr, slen))
		goto bail_open;
	for (i = 2; i < count; i++) {
		if (etw_fast_copy_block(dst, d[i].ptr, d[i].size))
			goto bail_open;
		dst += d[i].size;
	}
	user_access_end();
	b->offset += ALIGN(len, 8);
	return 0;

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

/*
 * A writer fd's other command: ETW_IOC_WRITE, as on the file (TraceMessage's
 * lane reads the request first), or none.
 */
static inline long etw_writer_other(struct file *filp, unsigned int cmd,
				    void __user *uarg)
{
	if (cmd != ETW_IOC_WRITE)
		return -ENOTTY;
	return etw_write_message_user(filp->private_data, uarg);
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
