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

struct etw_event {
	struct etw_event_write *arg;
	const u8 *payload;
	u32 payload_len;
	struct etw_ext_set ext;	/* extended items, some per session */
	struct etw_props props;	/* the EnableProperty items' data */
	u32 tgid;
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
	h->timestamp = now;
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

/*
 * Route one event; RCU read lock held (it keeps @r and its route alive).
 * Returns 0, -ENOSPC if a session counted it lost, -EMSGSIZE if it cannot
 * fit a buffer of a session that wanted it, or -EOVERFLOW if the items a
 * session asked for push its record over 64 KiB (that session loses it).
 */
static int etw_route_event(struct etw_reg *r, struct etw_event *ev)
{
	void *slot[ETW_MAX_SESSIONS_PER_PROVIDER];
	u32 len[ETW_MAX_SESSIONS_PER_PROVIDER];
	bool want[ETW_MAX_SESSIONS_PER_PROVIDER];
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
	etw_props_fill(&ev->props, props);
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

static int etw_copy_payload(u8 *dst, const struct etw_data_desc *d, u32 count)
{
	u32 i;

	for (i = 0; i < count; i++) {
		if (copy_from_user(dst, u64_to_user_ptr(d[i].ptr), d[i].size))
			return -EFAULT;
		dst += d[i].size;
	}
	return 0;
}

int etw_write(struct etw_file *ef, struct etw_event_write *arg)
{
	struct etw_data_desc stack_descs[ETW_STACK_DESCS], *descs = stack_descs;
	u8 stack_payload[ETW_STACK_PAYLOAD], *payload = stack_payload;
	struct etw_event ev = { .arg = arg };
	struct etw_reg *r;
	u64 total = 0;
	u32 i;
	int ret;

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
	for (i = 0; i < arg->count; i++)
		total += descs[i].size;

	if (arg->flags & ETW_WRITE_F_RELATED)
		etw_ext_add(&ev.ext, ETL_EXT_RELATED_ACTIVITYID, arg->related_id,
			    sizeof(arg->related_id), 0);
	etw_props_add(&ev.ext, &ev.props, false);
	/* TraceLogging's items go here: after the writer's, before the stack. */
	etw_props_add(&ev.ext, &ev.props, true);
	/* Too large for any session, whatever it adds: fail before copying. */
	ret = -EOVERFLOW;
	if (total + ETW_EVENT_HEADER_SIZE + etw_ext_len(&ev.ext, 0) >
	    ETW_MAX_EVENT_SIZE)
		goto out_free;
	ev.payload_len = total;
	ev.tgid = task_tgid_nr(current);

	if (total > sizeof(stack_payload)) {
		payload = kmalloc(total, GFP_KERNEL);
		ret = -ENOMEM;
		if (!payload)
			goto out_free;
	}
	ret = etw_copy_payload(payload, descs, arg->count);
	if (ret)
		goto out_free;
	ev.payload = payload;

	rcu_read_lock();
	r = xa_load(&ef->regs, arg->reg_id);
	if (!r) {
		rcu_read_unlock();
		ret = -EBADF;
		goto out_free;
	}
	ret = etw_route_event(r, &ev);
	rcu_read_unlock();

out_free:
	if (payload != stack_payload)
		kfree(payload);
	if (descs != stack_descs)
		kfree(descs);
	return ret;
}
