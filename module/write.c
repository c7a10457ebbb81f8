// SPDX-License-Identifier: GPL-2.0
/*
 * ETW_IOC_WRITE: the NtTraceEvent-style entry point for events.
 *
 * 1. Copy the data descriptors and the metadata blobs into the kernel,
 *    faults allowed (no lock held).
 * 2. Under RCU, follow the provider's route: the sessions that enabled it,
 *    each with its filters.
 * 3. With preemption disabled, reserve room in this CPU's buffer of every
 *    accepting session; if a session has none, the event goes to none of
 *    the sessions that are not independent (each counts it lost), as
 *    Windows does; an EVENT_TRACE_INDEPENDENT_SESSION_MODE session stands
 *    alone.
 * 4. Copy the payload from user memory straight into the first record,
 *    page faults disabled.  If a page is not resident nothing has been
 *    committed yet: the reservations are dropped (the next event reuses
 *    the space), the payload is copied into a bounce buffer with faults
 *    allowed and the write starts again from 2.  One copy per event, and
 *    the write path never sleeps with preemption off.
 * 5. Write the EVENT_HEADER record, its extended items and the payload
 *    (copied from the first record into the others).
 */
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/uaccess.h>

#include "etl.h"
#include "event_header.h"
#include "internal.h"

/* Payloads up to this size are copied to the stack, larger ones kmalloc'd. */
#define ETW_STACK_PAYLOAD	256
#define ETW_STACK_DESCS		8

/* A metadata blob that leaves the payload for an extended item. */
struct etw_blob {
	const u8 *data;
	u32 len;
	bool present;
};

/*
 * What one write asks for, from either request (ETW_IOC_WRITE's struct
 * etw_event_write or ETW_IOC_WRITE_SHORT's): pointers into the request,
 * so neither is converted into the other.
 */
struct etw_write_req {
	const struct etw_event_desc *desc;
	const u8 *activity_id;		/* 16 bytes */
	const u8 *related_id;		/* 16 bytes, with ETW_WRITE_F_RELATED */
	u64 filter;			/* EventWriteEx's */
	u64 data;			/* user address of @count descriptors */
	u32 reg_id;
	u32 flags;			/* ETW_WRITE_F_* */
	u32 count;
	u32 written;			/* out: sessions that stored it */
	u32 lost;			/* out: sessions that counted it lost */
};

struct etw_event {
	struct etw_write_req *arg;
	const struct etw_data_desc *descs;	/* the user's blocks */
	bool typed;		/* descriptor types honoured (metadata blobs) */
	const u8 *payload;	/* a kernel copy; NULL: copy from user directly */
	u32 payload_len;
	u32 meta_len;		/* bytes of the typed (non-payload) blocks */
	struct etw_blob traits;	/* PROV_TRAITS */
	struct etw_blob schema;	/* EVENT_SCHEMA_TL */
	u64 timestamp;		/* TIMESTAMP_OVERRIDE */
	bool has_timestamp;
	u32 tgid;
	/*
	 * Not zeroed per event (CONFIG_INIT_STACK_ALL_ZERO would clear ~380
	 * bytes): etw_write_event() sets the flags and counts above, the
	 * steps that fill the rest set what they read; etw_ext_init() and
	 * etw_props_fill() set what is read of these two.
	 */
	struct etw_ext_set ext;	/* extended items, some per session */
	struct etw_props props;	/* the EnableProperty items' data */
};

static bool etw_route_accepts(const struct etw_route_entry *e,
			      const struct etw_event *ev)
{
	return etw_route_entry_accepts(e, ev->arg->desc, ev->arg->filter,
				       ev->arg->flags, ev->tgid);
}

/*
 * The unpadded record a session with @property stores for @ev.  Most
 * sessions want no optional item: then the items' length is known without
 * a call (Debian's kernels make each call and return cost tens of
 * instructions with their mitigations).
 */
static u32 etw_record_len(const struct etw_event *ev, u32 property)
{
	u32 ext_len = property & ev->ext.properties ?
		      etw_ext_len(&ev->ext, property) : ev->ext.common_len;

	return ETW_EVENT_HEADER_SIZE + ext_len + ev->payload_len;
}

static void etw_record_fill(void *rec, u32 len, const struct etw_event *ev,
			    const u8 *payload, const struct etw_provider *p,
			    u32 property, u64 now)
{
	const struct etw_write_req *arg = ev->arg;
	struct etl_event_header *h = rec;
	u32 ext_len = len - ETW_EVENT_HEADER_SIZE - ev->payload_len;

	etw_event_header_fill(h, len,
			      (ext_len ? ETL_EVENT_FLAG_EXTENDED_INFO : 0) |
			      (arg->flags & ETW_WRITE_F_STRING ?
			       ETL_EVENT_FLAG_STRING_ONLY : 0),
			      ev->has_timestamp ? ev->timestamp : now,
			      &p->guid, arg->desc, arg->activity_id);

	if (ext_len)
		etw_ext_write(h + 1, &ev->ext, property);
	/* The first record already holds the payload copied from user memory. */
	if (ev->payload_len &&
	    payload != (u8 *)rec + ETW_EVENT_HEADER_SIZE + ext_len)
		memcpy((u8 *)rec + ETW_EVENT_HEADER_SIZE + ext_len, payload,
		       ev->payload_len);
}

/*
 * Copy @len bytes from user memory, page faults disabled by the caller:
 * the kernel's own user copy for this CPU (raw_copy_from_user(), i.e.
 * copy_user_generic(): "rep movsb" where the CPU has fast string moves,
 * else its unrolled loop), as trace_marker copies.  Not through
 * __copy_from_user_inatomic(): its hardened-usercopy check of a vmalloc'd
 * record is a call and a vmap-area lookup per event, and the record's
 * bounds are the reservation's, checked before.  The barrier is
 * user_access_begin()'s: no speculative copy from an address access_ok()
 * refused.  A fault is -EFAULT.
 */
static __always_inline int etw_copy_user_inatomic(u8 *dst, const u8 __user *src,
						  u32 len)
{
	if (!access_ok(src, len))
		return -EFAULT;
	barrier_nospec();
	return raw_copy_from_user(dst, src, len) ? -EFAULT : 0;
}

/*
 * Copy the payload blocks from user memory to @dst with page faults
 * disabled (the caller has preemption off): -EFAULT if a page is not
 * resident or the address is bad, and the caller falls back to a copy
 * with faults allowed, which tells the two apart.
 */
static int etw_copy_payload_nofault(u8 *dst, const struct etw_event *ev)
{
	const struct etw_data_desc *d = ev->descs;
	u32 i;
	int ret = 0;

	pagefault_disable();
	for (i = 0; i < ev->arg->count && !ret; i++) {
		if (ev->typed && d[i].type != ETW_DATA_DESC_NONE)
			continue;
		ret = etw_copy_user_inatomic(dst, u64_to_user_ptr(d[i].ptr),
					     d[i].size);
		dst += d[i].size;
	}
	pagefault_enable();
	return ret;
}

/*
 * Route one event to the sessions of @route that accept it (@want);
 * @props are their EnableProperty bits.  Preemption disabled (it keeps
 * @p and @route alive).
 * Returns 0, -ENOSPC if a session counted it lost, -EMSGSIZE if it cannot
 * fit a buffer of a session that wanted it, or -EOVERFLOW if the items a
 * session asked for push its record over 64 KiB (that session loses it).
 * Without a kernel copy of the payload it may also return -EAGAIN: the
 * payload could not be copied with faults disabled, or no record kept it;
 * nothing was written or counted, and the caller copies it and retries.
 */
static int etw_route_event(const struct etw_provider *p,
			   const struct etw_route *route, const bool *want,
			   u32 props, struct etw_event *ev)
{
	/* Each entry is written before it is read: no zeroing per event. */
	void *slot[ETW_MAX_SESSIONS_PER_PROVIDER] __uninitialized;
	u32 len[ETW_MAX_SESSIONS_PER_PROVIDER] __uninitialized;
	struct etw_write_req *arg = ev->arg;
	const u8 *payload = ev->payload;
	bool drop_dependent = false;
	int ret = 0;
	unsigned int i;
	u64 now;

	/* The data of the optional items etw_write_route() added. */
	if (props & ev->ext.properties)
		etw_props_fill(&ev->props, props & ev->ext.properties);
	for (i = 0; i < route->count; i++) {
		const struct etw_route_entry *e = &route->entry[i];
		struct etw_session *s = e->session;

		slot[i] = NULL;
		if (!want[i])
			continue;
		len[i] = etw_record_len(ev, e->enable_property);
		if (len[i] > ETW_MAX_EVENT_SIZE)
			ret = -EOVERFLOW;
		else if (ALIGN(len[i], 8) > s->buffer_size - ETW_BUFFER_HEADER_SIZE)
			ret = ret ? ret : -EMSGSIZE;
		else
			slot[i] = etw_buffer_reserve(s, this_cpu_ptr(s->cpu),
						     ALIGN(len[i], 8));
		if (!slot[i] && !(s->info.log_file_mode & ETW_MODE_INDEPENDENT))
			drop_dependent = true;
	}
	/* A session whose event is dropped keeps no slot. */
	for (i = 0; i < route->count && drop_dependent; i++)
		if (!(route->entry[i].session->info.log_file_mode &
		      ETW_MODE_INDEPENDENT))
			slot[i] = NULL;

	/*
	 * The payload goes from user memory into the first record that is
	 * kept, before anything is committed or counted, so a failed copy
	 * leaves the buffers as they were.  When no record keeps it (a
	 * filtered or lost event) the copy with faults allowed is made all
	 * the same, so that a bad payload is -EFAULT whatever the sessions.
	 */
	for (i = 0; !payload && i < route->count; i++) {
		u8 *dst;

		if (!want[i] || !slot[i])
			continue;
		dst = (u8 *)slot[i] + len[i] - ev->payload_len;
		if (etw_copy_payload_nofault(dst, ev))
			break;
		payload = dst;
	}
	if (!payload)
		return -EAGAIN;

	now = etw_clock();
	for (i = 0; i < route->count; i++) {
		const struct etw_route_entry *e = &route->entry[i];
		struct etw_session *s = e->session;
		struct etw_cpu *c = this_cpu_ptr(s->cpu);

		if (!want[i])
			continue;
		if (!slot[i]) {
			c->events_lost++;
			if (c->cur)
				c->cur->events_lost = true;
			arg->lost++;
			continue;
		}
		etw_record_fill(slot[i], len[i], ev, payload, p,
				e->enable_property, now);
		etw_buffer_commit(c, len[i]);
		arg->written++;
	}
	if (!ret && arg->lost)
		ret = -ENOSPC;
	return ret;
}

/*
 * Copy the user data into @buf: the typed blobs first (traits, schema,
 * timestamp), then, if @with_payload, the payload in descriptor order.
 * Without typed descriptors every descriptor is payload, whatever its type
 * byte says.
 */
static __always_inline int etw_copy_data(struct etw_event *ev, u8 *buf,
					 bool with_payload)
{
	const struct etw_data_desc *d = ev->descs;
	u32 sizes[4] = { 0 }, offs[4], i, t;

	/* No metadata blobs and no payload to copy now: nothing to do. */
	if (!ev->typed && (!with_payload || !ev->payload_len)) {
		ev->payload = with_payload ? buf : NULL;
		ev->traits.data = buf;
		ev->traits.len = 0;
		ev->schema.data = buf;
		ev->schema.len = 0;
		return 0;
	}
	for (i = 0; i < ev->arg->count; i++)
		sizes[ev->typed ? d[i].type : 0] += d[i].size;
	offs[ETW_DATA_DESC_PROVIDER_METADATA] = 0;
	offs[ETW_DATA_DESC_EVENT_METADATA] = sizes[ETW_DATA_DESC_PROVIDER_METADATA];
	offs[ETW_DATA_DESC_TIMESTAMP_OVERRIDE] =
		offs[ETW_DATA_DESC_EVENT_METADATA] + sizes[ETW_DATA_DESC_EVENT_METADATA];
	offs[ETW_DATA_DESC_NONE] = offs[ETW_DATA_DESC_TIMESTAMP_OVERRIDE] +
				   sizes[ETW_DATA_DESC_TIMESTAMP_OVERRIDE];
	ev->payload = with_payload ? buf + offs[ETW_DATA_DESC_NONE] : NULL;
	for (i = 0; i < ev->arg->count; i++) {
		t = ev->typed ? d[i].type : 0;
		if (t == ETW_DATA_DESC_NONE && !with_payload)
			continue;
		if (copy_from_user(buf + offs[t], u64_to_user_ptr(d[i].ptr), d[i].size))
			return -EFAULT;
		offs[t] += d[i].size;
	}
	ev->traits.data = buf;
	ev->traits.len = sizes[ETW_DATA_DESC_PROVIDER_METADATA];
	ev->schema.data = buf + ev->traits.len;
	ev->schema.len = sizes[ETW_DATA_DESC_EVENT_METADATA];
	if (ev->has_timestamp)
		memcpy(&ev->timestamp, ev->schema.data + ev->schema.len, 8);
	return 0;
}

/*
 * Which typed descriptors the write has: at most one of each known type,
 * an 8-byte timestamp; anything else is -EINVAL.  Their bytes leave the
 * payload.
 */
static int etw_check_types(struct etw_event *ev)
{
	const struct etw_data_desc *d = ev->descs;
	u32 seen = 0, i;

	for (i = 0; i < ev->arg->count; i++) {
		u8 t = d[i].type;

		if (t == ETW_DATA_DESC_NONE)
			continue;
		if (t > ETW_DATA_DESC_TIMESTAMP_OVERRIDE || (seen & BIT(t)))
			return -EINVAL;
		if (t == ETW_DATA_DESC_TIMESTAMP_OVERRIDE && d[i].size != 8)
			return -EINVAL;
		seen |= BIT(t);
		ev->meta_len += d[i].size;
	}
	ev->schema.present = seen & BIT(ETW_DATA_DESC_EVENT_METADATA);
	ev->traits.present = seen & BIT(ETW_DATA_DESC_PROVIDER_METADATA);
	ev->has_timestamp = seen & BIT(ETW_DATA_DESC_TIMESTAMP_OVERRIDE);
	return 0;
}

/* Does the registration honour descriptor types (EventSetInformation)? */
static bool etw_reg_typed(struct etw_file *ef, u32 reg_id)
{
	struct etw_reg *r;
	bool typed;

	rcu_read_lock();
	r = etw_reg_lookup_rcu(ef, reg_id);
	typed = r && READ_ONCE(r->use_desc_type);
	rcu_read_unlock();
	return typed;
}

/*
 * TraceLogging's items, for every session, after the related activity id
 * and in Windows' order: PROV_TRAITS (the write's own, or else the
 * registration's), then EVENT_SCHEMA_TL last.  Preemption disabled (an
 * RCU read side).
 */
static void etw_add_metadata(struct etw_event *ev, const struct etw_reg *r)
{
	const struct etw_traits *t = rcu_dereference_check(r->traits,
							  rcu_read_lock_sched_held());

	if (ev->traits.present)
		etw_ext_add(&ev->ext, ETL_EXT_PROV_TRAITS, ev->traits.data,
			    ev->traits.len, 0);
	else if (t)
		etw_ext_add(&ev->ext, ETL_EXT_PROV_TRAITS, t->data, t->len, 0);
	if (ev->schema.present)
		etw_ext_add(&ev->ext, ETL_EXT_EVENT_SCHEMA_TL, ev->schema.data,
			    ev->schema.len, 0);
}

/*
 * The items every session gets whatever its properties: the related
 * activity id.  Run again before a write starts over.
 */
static void etw_event_items_init(struct etw_event *ev)
{
	etw_ext_init(&ev->ext);
	if (ev->arg->flags & ETW_WRITE_F_RELATED)
		etw_ext_add(&ev->ext, ETL_EXT_RELATED_ACTIVITYID,
			    ev->arg->related_id, 16, 0);
}

/*
 * The sessions of @route whose payload filter drops @ev no longer want
 * it: the EnableProperty bits of those that still do.
 */
static u32 etw_write_payload_filter(const struct etw_route *route, bool *want,
				    const struct etw_event *ev)
{
	const struct etw_data_desc one = {
		.ptr = (uintptr_t)ev->payload,
		.size = ev->payload_len,
	};
	const struct etw_pf_payload p = {
		.descs = &one,
		.count = 1,
		.len = ev->payload_len,
	};

	return etw_payload_route_filter(route, want, ev->arg->desc, &p);
}

/* Find the registration, add the items its sessions want, route the event. */
static __always_inline int etw_write_route(struct etw_file *ef,
					   struct etw_event *ev)
{
	bool want[ETW_MAX_SESSIONS_PER_PROVIDER] __uninitialized;
	const struct etw_route *route;
	struct etw_reg *r;
	u32 props = 0, i;
	int ret;

	/*
	 * One section with preemption disabled, from the look-up to the
	 * commit: an RCU read side too (every RCU grace period waits for
	 * it), without rcu_read_lock()'s two calls under PREEMPT_RCU.
	 */
	preempt_disable();
	r = etw_reg_lookup_rcu(ef, ev->arg->reg_id);
	if (!r) {
		preempt_enable();
		/* A bad payload is reported first, as when it was copied first. */
		return ev->payload ? -EBADF : -EAGAIN;
	}
	route = rcu_dereference_sched(r->prov->route);
	if (!route) {
		preempt_enable();
		return ev->payload ? 0 : -EAGAIN;
	}
	/* One walk of the route: which sessions want it, and their items. */
	for (i = 0; i < route->count; i++) {
		want[i] = etw_route_accepts(&route->entry[i], ev);
		if (want[i])
			props |= route->entry[i].enable_property;
	}
	if (unlikely(route->payload)) {
		/* A payload filter reads the kernel copy: make it first. */
		if (!ev->payload) {
			preempt_enable();
			return -EAGAIN;
		}
		props = etw_write_payload_filter(route, want, ev);
	}
	/*
	 * The EnableProperty items, then TraceLogging's, then the stack.  Only
	 * the items a session that takes the event asked for are added.
	 */
	if (props)
		etw_props_add(&ev->ext, &ev->props, false, props);
	etw_add_metadata(ev, r);
	if (props)
		etw_props_add(&ev->ext, &ev->props, true, props);
	ret = etw_route_event(r->prov, route, want, props, ev);
	preempt_enable();
	return ret;
}

/*
 * The caller's data descriptors.  Up to ETW_STACK_DESCS of them at an
 * aligned address (every EVENT_DATA_DESCRIPTOR array) are read word by
 * word in one user access window: copy_from_user() would add a call, a
 * hardened-usercopy check of the stack array and a byte-counted copy.
 */
static int etw_copy_descs(struct etw_data_desc *descs, u64 uptr, u32 count)
{
	const u64 __user *src = u64_to_user_ptr(uptr);
	u64 *dst = (u64 *)descs;
	u32 i, n = count * sizeof(*descs) / 8;

	BUILD_BUG_ON(sizeof(*descs) % 8);
	if (count > ETW_STACK_DESCS || !IS_ALIGNED(uptr, 8))
		return copy_from_user(descs, src, count * sizeof(*descs)) ?
		       -EFAULT : 0;
	if (!n)
		return 0;
	if (!user_access_begin(src, n * 8))
		return -EFAULT;
	for (i = 0; i < n; i++)
		unsafe_get_user(dst[i], &src[i], fault);
	user_access_end();
	return 0;
fault:
	user_access_end();
	return -EFAULT;
}

/*
 * Room for @len bytes of user data: @stack if it is large enough, else
 * @cur if it was allocated before (and is large enough), else a new
 * allocation; @cur is freed when replaced.
 */
static inline u8 *etw_bounce(u8 *stack, u8 *cur, u32 *cur_size, u32 len)
{
	if (len <= *cur_size)
		return cur;
	if (cur != stack)
		kfree(cur);
	*cur_size = len;
	return kmalloc(len, GFP_KERNEL);
}

/*
 * The event @arg asks for; its data descriptors are @kdesc (one, already
 * in the kernel: ETW_IOC_WRITE_SHORT's inline payload) or else
 * arg->count of them at arg->data in user memory.  The request's own
 * fields are checked by the caller.
 */
static int etw_write_event(struct etw_file *ef, struct etw_write_req *arg,
			   const struct etw_data_desc *kdesc)
{
	/* Bounce buffers, filled before they are read: not zeroed per event. */
	struct etw_data_desc stack_descs[ETW_STACK_DESCS] __uninitialized;
	u8 stack_buf[ETW_STACK_PAYLOAD] __uninitialized;
	struct etw_data_desc *descs = stack_descs;
	u32 buf_size = sizeof(stack_buf);
	u8 *buf = stack_buf;
	struct etw_event ev __uninitialized;
	bool with_payload;
	u64 total = 0;
	u32 i;
	int ret;

	/* What is read before it is set (see struct etw_event): no memset. */
	ev.arg = arg;
	ev.typed = false;
	ev.meta_len = 0;
	ev.traits.present = false;
	ev.schema.present = false;
	ev.has_timestamp = false;
	arg->written = 0;
	arg->lost = 0;
	if (arg->count > ETW_MAX_DATA_DESCRIPTORS ||
	    (arg->count && !arg->data && !kdesc))
		return -EINVAL;

	if (kdesc) {
		ev.descs = kdesc;
	} else {
		if (arg->count > ETW_STACK_DESCS) {
			descs = kmalloc_array(arg->count, sizeof(*descs),
					      GFP_KERNEL);
			if (!descs)
				return -ENOMEM;
		}
		ev.descs = descs;
		ret = etw_copy_descs(descs, arg->data, arg->count);
		if (ret)
			goto out_free;
	}
	for (i = 0; i < arg->count; i++) {
		total += ev.descs[i].size;
		/* Type bytes matter only to registrations that opted in. */
		if (ev.descs[i].type && !ev.typed)
			ev.typed = etw_reg_typed(ef, arg->reg_id);
	}
	if (ev.typed) {
		ret = etw_check_types(&ev);
		if (ret)
			goto out_free;
	}

	etw_event_items_init(&ev);
	/* Too large for any session, whatever it adds: fail before copying. */
	ret = -EOVERFLOW;
	if (total + ETW_EVENT_HEADER_SIZE + ev.ext.common_len > ETW_MAX_EVENT_SIZE)
		goto out_free;
	ev.tgid = task_tgid_nr(current);
	ev.payload_len = total - ev.meta_len;

	/*
	 * The metadata now, the payload straight into the records; if a page
	 * of the payload was not resident (-EAGAIN), once more with the
	 * payload copied first, faults allowed.  One call site of each step:
	 * they are inlined.
	 */
	with_payload = !ev.payload_len;
	for (;;) {
		buf = etw_bounce(stack_buf, buf, &buf_size,
				 with_payload ? total : ev.meta_len);
		ret = -ENOMEM;
		if (!buf)
			break;
		ret = etw_copy_data(&ev, buf, with_payload);
		if (!ret)
			ret = etw_write_route(ef, &ev);
		if (ret != -EAGAIN || with_payload)
			break;
		with_payload = true;
		etw_event_items_init(&ev);
	}

out_free:
	if (buf != stack_buf)
		kfree(buf);
	if (descs != stack_descs)
		kfree(descs);
	return ret;
}

int etw_write(struct etw_file *ef, struct etw_event_write *arg)
{
	struct etw_write_req req = {
		.desc = &arg->desc,
		.activity_id = arg->activity_id,
		.related_id = arg->related_id,
		.filter = arg->filter,
		.data = arg->data,
		.reg_id = arg->reg_id,
		.flags = arg->flags,
		.count = arg->count,
	};
	int ret;

	if (arg->kind != ETW_WRITE_EVENT || (arg->flags & ~ETW_WRITE_F_MASK) ||
	    arg->reserved0 || arg->reserved[0] || arg->reserved[1] ||
	    arg->reserved[2])
		return -EINVAL;
	ret = etw_write_event(ef, &req, NULL);
	/* Out-only: a caller reusing its struct may pass back old values. */
	arg->written = req.written;
	arg->lost = req.lost;
	return ret;
}

/*
 * ETW_IOC_WRITE_SHORT: the event ETW_IOC_WRITE writes from the same fields
 * (the thread's or the caller's activity id, no related id, no filter).
 * Nothing is counted back: 0 or an error (a session that lost the event
 * is -ENOSPC, as for ETW_IOC_WRITE).
 */
int etw_write_short(struct etw_file *ef, const struct etw_event_write_short *a)
{
	struct etw_write_req req = {
		.desc = &a->desc,
		.activity_id = a->activity_id,
		.data = a->data,
		.reg_id = a->reg_id,
		.flags = (a->flags & ETW_WRITE_F_MASK) | ETW_WRITE_F_ACTIVITY,
		.count = a->count,
	};
	struct etw_data_desc one __uninitialized;
	const struct etw_data_desc *kdesc = NULL;

	if (a->flags & ~ETW_WRITE_SHORT_F_MASK)
		return -EINVAL;
	if (a->flags & ETW_WRITE_F_INLINE) {
		/* The payload is one descriptor's block: none if empty. */
		one.ptr = a->data;
		one.size = a->count;
		one.type = ETW_DATA_DESC_NONE;
		req.count = !!a->count;
		kdesc = &one;
	}
	return etw_write_event(ef, &req, kdesc);
}
