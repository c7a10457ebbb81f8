// SPDX-License-Identifier: GPL-2.0
/*
 * ETW_IOC_WRITE: the NtTraceEvent-style entry point for events.
 *
 * 1. Copy the data descriptors and the payload into the kernel, faults
 *    allowed (no lock held).
 * 2. Under RCU, follow the provider's route: the sessions that enabled it,
 *    each with its filters.
 * 3. With preemption disabled, reserve room in this CPU's buffer of every
 *    accepting session; if a session has none, the event goes to none of
 *    the sessions that are not independent (each counts it lost), as
 *    Windows does; an EVENT_TRACE_INDEPENDENT_SESSION_MODE session stands
 *    alone.
 * 4. Write the EVENT_HEADER record, its extended items and the payload.
 */
#include <linux/compat.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/uaccess.h>

#include "etl.h"
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

struct etw_event {
	struct etw_event_write *arg;
	const u8 *payload;
	u32 payload_len;
	struct etw_blob traits;	/* PROV_TRAITS */
	struct etw_blob schema;	/* EVENT_SCHEMA_TL */
	u64 timestamp;		/* TIMESTAMP_OVERRIDE */
	bool has_timestamp;
	u32 tgid;
	/*
	 * These two stay last: etw_write() zeroes only what comes before
	 * them (CONFIG_INIT_STACK_ALL_ZERO would otherwise clear ~300 bytes
	 * per event); etw_ext_init() and etw_props_fill() set what is read.
	 */
	struct etw_ext_set ext;	/* extended items, some per session */
	struct etw_props props;	/* the EnableProperty items' data */
};

static bool etw_route_accepts(const struct etw_route_entry *e,
			      const struct etw_event *ev)
{
	const struct etw_event_desc *d = &ev->arg->desc;
	u32 i;

	if (d->level && d->level > e->level)
		return false;
	if (!d->keyword) {
		if (e->enable_property & ETW_ENABLE_IGNORE_KEYWORD_0)
			return false;
	} else if (!(d->keyword & e->match_any) ||
		   (d->keyword & e->match_all) != e->match_all) {
		return false;
	}
	if (ev->arg->filter & BIT_ULL(e->session->info.logger_id - 1))
		return false;
	if ((ev->arg->flags & ETW_WRITE_F_INPRIVATE) &&
	    (e->enable_property & ETW_ENABLE_EXCLUDE_INPRIVATE))
		return false;
	if (e->pid_count) {
		for (i = 0; i < e->pid_count; i++)
			if (e->pids[i] == ev->tgid)
				break;
		if (i == e->pid_count)
			return false;
	}
	if (e->event_id_count) {
		bool listed = false;

		for (i = 0; i < e->event_id_count && !listed; i++)
			listed = e->event_ids[i] == d->id;
		/* Listed ids are the only ones, or the excluded ones. */
		if (listed != e->event_ids_enable)
			return false;
	}
	return true;
}

/* The unpadded record a session with @property stores for @ev. */
static u32 etw_record_len(const struct etw_event *ev, u32 property)
{
	return ETW_EVENT_HEADER_SIZE + etw_ext_len(&ev->ext, property) +
	       ev->payload_len;
}

static void etw_record_fill(void *rec, u32 len, const struct etw_event *ev,
			    const struct etw_provider *p, u32 property, u64 now)
{
	const struct etw_event_write *arg = ev->arg;
	struct etl_event_header *h = rec;
	u32 ext_len = len - ETW_EVENT_HEADER_SIZE - ev->payload_len;

	h->size = len;
	h->header_type = in_compat_syscall() ? ETL_HEADER_TYPE_EVENT32 :
					       ETL_HEADER_TYPE_EVENT64;
	h->flags = ext_len ? ETL_EVENT_FLAG_EXTENDED_INFO : 0;
	if (arg->flags & ETW_WRITE_F_STRING)
		h->flags |= ETL_EVENT_FLAG_STRING_ONLY;
	h->event_property = 0;
	h->thread_id = task_pid_nr(current);
	h->process_id = ev->tgid;
	h->timestamp = ev->has_timestamp ? ev->timestamp : now;
	export_guid(h->provider_id, &p->guid);
	h->id = arg->desc.id;
	h->version = arg->desc.version;
	h->channel = arg->desc.channel;
	h->level = arg->desc.level;
	h->opcode = arg->desc.opcode;
	h->task = arg->desc.task;
	h->keyword = arg->desc.keyword;
	/* Processor time in milliseconds (the file's TimerResolution). */
	h->kernel_time = div_u64(READ_ONCE(current->stime), NSEC_PER_MSEC);
	h->user_time = div_u64(READ_ONCE(current->utime), NSEC_PER_MSEC);
	memcpy(h->activity_id, arg->activity_id, sizeof(h->activity_id));

	etw_ext_write(h + 1, &ev->ext, property);
	memcpy((u8 *)rec + ETW_EVENT_HEADER_SIZE + ext_len, ev->payload,
	       ev->payload_len);
}

/* The EnableProperty bits of every session on @r's route; RCU read lock held. */
static u32 etw_route_properties(const struct etw_reg *r)
{
	const struct etw_route *route = rcu_dereference(r->prov->route);
	u32 i, props = 0;

	for (i = 0; route && i < route->count; i++)
		props |= route->entry[i].enable_property;
	return props;
}

/*
 * Route one event; RCU read lock held (it keeps @r and its route alive).
 * Returns 0, -ENOSPC if a session counted it lost, -EMSGSIZE if it cannot
 * fit a buffer of a session that wanted it, or -EOVERFLOW if the items a
 * session asked for push its record over 64 KiB (that session loses it).
 */
static int etw_route_event(struct etw_reg *r, struct etw_event *ev)
{
	/* Each entry is written before it is read: no zeroing per event. */
	void *slot[ETW_MAX_SESSIONS_PER_PROVIDER] __uninitialized;
	u32 len[ETW_MAX_SESSIONS_PER_PROVIDER] __uninitialized;
	bool want[ETW_MAX_SESSIONS_PER_PROVIDER] __uninitialized;
	struct etw_event_write *arg = ev->arg;
	const struct etw_route *route;
	bool drop_dependent = false;
	int ret = 0;
	unsigned int i;
	u32 props = 0;
	u64 now;

	route = rcu_dereference(r->prov->route);
	if (!route)
		return 0;
	for (i = 0; i < route->count; i++) {
		want[i] = etw_route_accepts(&route->entry[i], ev);
		if (want[i])
			props |= route->entry[i].enable_property;
	}

	preempt_disable();
	/* Only the items etw_write() added (the route may have changed since). */
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

	now = etw_clock();
	for (i = 0; i < route->count; i++) {
		const struct etw_route_entry *e = &route->entry[i];
		struct etw_session *s = e->session;
		struct etw_cpu *c = this_cpu_ptr(s->cpu);

		if (!want[i])
			continue;
		if (!slot[i] || (drop_dependent &&
				 !(s->info.log_file_mode & ETW_MODE_INDEPENDENT))) {
			c->events_lost++;
			if (c->cur)
				c->cur->events_lost = true;
			arg->lost++;
			continue;
		}
		etw_record_fill(slot[i], len[i], ev, r->prov,
				e->enable_property, now);
		etw_buffer_commit(c, len[i]);
		arg->written++;
	}
	preempt_enable();
	if (!ret && arg->lost)
		ret = -ENOSPC;
	return ret;
}

/*
 * Copy the user data into @buf: the typed blobs first (traits, schema,
 * timestamp), then the payload in descriptor order.  With @typed false
 * every descriptor is payload, whatever its type byte says.
 */
static int etw_copy_data(struct etw_event *ev, u8 *buf,
			 const struct etw_data_desc *d, u32 count, bool typed)
{
	u32 sizes[4] = { 0 }, offs[4], i, t;

	for (i = 0; i < count; i++)
		sizes[typed ? d[i].type : 0] += d[i].size;
	offs[ETW_DATA_DESC_PROVIDER_METADATA] = 0;
	offs[ETW_DATA_DESC_EVENT_METADATA] = sizes[ETW_DATA_DESC_PROVIDER_METADATA];
	offs[ETW_DATA_DESC_TIMESTAMP_OVERRIDE] =
		offs[ETW_DATA_DESC_EVENT_METADATA] + sizes[ETW_DATA_DESC_EVENT_METADATA];
	offs[ETW_DATA_DESC_NONE] = offs[ETW_DATA_DESC_TIMESTAMP_OVERRIDE] +
				   sizes[ETW_DATA_DESC_TIMESTAMP_OVERRIDE];
	for (i = 0; i < count; i++) {
		t = typed ? d[i].type : 0;
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
	ev->payload = buf + offs[ETW_DATA_DESC_TIMESTAMP_OVERRIDE];
	ev->payload_len = sizes[ETW_DATA_DESC_NONE];
	return 0;
}

/*
 * Which typed descriptors the write has: at most one of each known type,
 * an 8-byte timestamp; anything else is -EINVAL.
 */
static int etw_check_types(struct etw_event *ev, const struct etw_data_desc *d,
			   u32 count)
{
	u32 seen = 0, i;

	for (i = 0; i < count; i++) {
		u8 t = d[i].type;

		if (t == ETW_DATA_DESC_NONE)
			continue;
		if (t > ETW_DATA_DESC_TIMESTAMP_OVERRIDE || (seen & BIT(t)))
			return -EINVAL;
		if (t == ETW_DATA_DESC_TIMESTAMP_OVERRIDE && d[i].size != 8)
			return -EINVAL;
		seen |= BIT(t);
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
	r = xa_load(&ef->regs, reg_id);
	typed = r && READ_ONCE(r->use_desc_type);
	rcu_read_unlock();
	return typed;
}

/*
 * TraceLogging's items, for every session, after the related activity id
 * and in Windows' order: PROV_TRAITS (the write's own, or else the
 * registration's), then EVENT_SCHEMA_TL last.  RCU read lock held.
 */
static void etw_add_metadata(struct etw_event *ev, const struct etw_reg *r)
{
	const struct etw_traits *t = rcu_dereference(r->traits);

	if (ev->traits.present)
		etw_ext_add(&ev->ext, ETL_EXT_PROV_TRAITS, ev->traits.data,
			    ev->traits.len, 0);
	else if (t)
		etw_ext_add(&ev->ext, ETL_EXT_PROV_TRAITS, t->data, t->len, 0);
	if (ev->schema.present)
		etw_ext_add(&ev->ext, ETL_EXT_EVENT_SCHEMA_TL, ev->schema.data,
			    ev->schema.len, 0);
}

int etw_write(struct etw_file *ef, struct etw_event_write *arg)
{
	/* Bounce buffers, filled before they are read: not zeroed per event. */
	struct etw_data_desc stack_descs[ETW_STACK_DESCS] __uninitialized;
	u8 stack_payload[ETW_STACK_PAYLOAD] __uninitialized;
	struct etw_data_desc *descs = stack_descs;
	u8 *payload = stack_payload;
	struct etw_event ev __uninitialized;
	bool typed = false;
	struct etw_reg *r;
	u64 total = 0;
	u32 i, props;
	int ret;

	memset(&ev, 0, offsetof(struct etw_event, ext));
	ev.arg = arg;
	etw_ext_init(&ev.ext);
	if (arg->kind != ETW_WRITE_EVENT || (arg->flags & ~ETW_WRITE_F_MASK) ||
	    arg->reserved0 || arg->reserved[0] || arg->reserved[1] ||
	    arg->reserved[2])
		return -EINVAL;
	/* Out-only: a caller reusing its struct may pass back old values. */
	arg->written = 0;
	arg->lost = 0;
	if (arg->count > ETW_MAX_DATA_DESCRIPTORS || (arg->count && !arg->data))
		return -EINVAL;

	if (arg->count > ETW_STACK_DESCS) {
		descs = kmalloc_array(arg->count, sizeof(*descs), GFP_KERNEL);
		if (!descs)
			return -ENOMEM;
	}
	ret = -EFAULT;
	if (copy_from_user(descs, u64_to_user_ptr(arg->data),
			   arg->count * sizeof(*descs)))
		goto out_free;
	for (i = 0; i < arg->count; i++) {
		total += descs[i].size;
		/* Type bytes matter only to registrations that opted in. */
		if (descs[i].type && !typed)
			typed = etw_reg_typed(ef, arg->reg_id);
	}
	if (typed) {
		ret = etw_check_types(&ev, descs, arg->count);
		if (ret)
			goto out_free;
	}

	if (arg->flags & ETW_WRITE_F_RELATED)
		etw_ext_add(&ev.ext, ETL_EXT_RELATED_ACTIVITYID, arg->related_id,
			    sizeof(arg->related_id), 0);
	/* Too large for any session, whatever it adds: fail before copying. */
	ret = -EOVERFLOW;
	if (total + ETW_EVENT_HEADER_SIZE + etw_ext_len(&ev.ext, 0) >
	    ETW_MAX_EVENT_SIZE)
		goto out_free;
	ev.tgid = task_tgid_nr(current);

	if (total > sizeof(stack_payload)) {
		payload = kmalloc(total, GFP_KERNEL);
		ret = -ENOMEM;
		if (!payload)
			goto out_free;
	}
	ret = etw_copy_data(&ev, payload, descs, arg->count, typed);
	if (ret)
		goto out_free;

	rcu_read_lock();
	r = xa_load(&ef->regs, arg->reg_id);
	if (!r) {
		rcu_read_unlock();
		ret = -EBADF;
		goto out_free;
	}
	/*
	 * The EnableProperty items, then TraceLogging's, then the stack.  Only
	 * the items some session on the route asked for are added; a session
	 * enabled after this look sees records without its items until the
	 * next event, which is the race an enable always has with writers.
	 */
	props = etw_route_properties(r);
	etw_props_add(&ev.ext, &ev.props, false, props);
	etw_add_metadata(&ev, r);
	etw_props_add(&ev.ext, &ev.props, true, props);
	ret = etw_route_event(r, &ev);
	rcu_read_unlock();

out_free:
	if (payload != stack_payload)
		kfree(payload);
	if (descs != stack_descs)
		kfree(descs);
	return ret;
}
