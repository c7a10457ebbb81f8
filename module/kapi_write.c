// SPDX-License-Identifier: GPL-2.0
/*
 * EtwWrite, EtwWriteTransfer, EtwWriteEx, EtwWriteString: a kernel
 * module's events, from any context.
 *
 * A write runs with interrupts disabled from its first look at the handle
 * to its commit: it follows the provider's route (the same one user-mode
 * writers follow, the same filters: write.c's), reserves room in this
 * CPU's kernel-provider lane of every session that takes the event
 * (kapi_lanes.c), and copies the header, the extended items and the data
 * into each, before it returns.  The data is kernel memory; a descriptor
 * with a size and a NULL or user address, too many descriptors, or an
 * event over 64 KiB is refused with the status user mode gets the Win32
 * counterpart of, before anything is written.
 *
 * The event being built lives in this CPU's scratch (no large frame in an
 * interrupt).  Only an NMI can arrive while it is in use: that NMI's event
 * is dropped, and counted lost by each session that would have taken it.
 * An NMI on a CPU that is not writing writes its event as any context does.
 *
 * In interrupt context there is no process: the header's ProcessId and
 * ThreadId and its processor times are 0, EnableProperty's SID is the
 * kernel's (uid 0), its TS_ID and PROCESS_START_KEY 0.  The STACK_TRACE
 * item is the kernel stack of the write.
 */
#include <linux/irqflags.h>
#include <linux/percpu.h>
#include <linux/sched.h>
#include <linux/stacktrace.h>

#include "compat.h"
#include "etl.h"
#include "event_header.h"
#include "kapi.h"
#include "klog/klog_internal.h"

/* Stack frames in one STACK_TRACE item, as in user mode. */
#define ETW_KSTACK_FRAMES	192

struct etw_kevent {
	const struct etw_event_desc *desc;
	u64 filter;			/* EtwWriteEx's */
	u32 flags;			/* ETW_WRITE_F_* */
	u32 count;
	const struct etw_data_desc *data;	/* the caller's EVENT_DATA_DESCRIPTORs */
	bool typed;			/* descriptor types honoured */
	u32 payload_len;
	const void *traits;		/* PROVIDER_METADATA, or NULL */
	u32 traits_len;
	const void *schema;		/* EVENT_METADATA, or NULL */
	u32 schema_len;
	const u64 *timestamp;		/* TIMESTAMP_OVERRIDE, or NULL */
	u32 tgid;
	u8 activity_id[16];
	u8 related_id[16];
	struct etw_ext_set ext;
	struct etw_props props;
	bool want[ETW_MAX_SESSIONS_PER_PROVIDER];
	void *slot[ETW_MAX_SESSIONS_PER_PROVIDER];
	u32 len[ETW_MAX_SESSIONS_PER_PROVIDER];
	struct klog_session *lanes[ETW_MAX_SESSIONS_PER_PROVIDER];
	struct {
		u64 match_id;
		unsigned long addr[ETW_KSTACK_FRAMES];
	} stack;
};

/* This CPU's event; @busy while a write uses it (an NMI then drops). */
struct etw_kscratch {
	unsigned int busy;
	struct etw_kevent ev;
};

static DEFINE_PER_CPU(struct etw_kscratch, etw_kscratch);

/*
 * The descriptors: addresses, sizes, types.  Typed descriptors (after
 * EtwSetInformation) carry TraceLogging's metadata and a timestamp, at most
 * one of each, as in user mode.
 */
static int etw_kevent_check(struct etw_kevent *ev)
{
	const struct etw_data_desc *d = ev->data;
	u32 seen = 0, i;
	u64 total = 0;

	for (i = 0; i < ev->count; i++) {
		u8 t = ev->typed ? d[i].type : EVENT_DATA_DESCRIPTOR_TYPE_NONE;

		if (d[i].size && (!d[i].ptr || d[i].ptr < TASK_SIZE_MAX))
			return -EINVAL;
		total += d[i].size;
		if (t == EVENT_DATA_DESCRIPTOR_TYPE_NONE) {
			ev->payload_len += d[i].size;
			continue;
		}
		if (t > EVENT_DATA_DESCRIPTOR_TYPE_TIMESTAMP_OVERRIDE ||
		    (seen & BIT(t)))
			return -EINVAL;
		seen |= BIT(t);
		switch (t) {
		case EVENT_DATA_DESCRIPTOR_TYPE_EVENT_METADATA:
			ev->schema = (const void *)(uintptr_t)d[i].ptr;
			ev->schema_len = d[i].size;
			break;
		case EVENT_DATA_DESCRIPTOR_TYPE_PROVIDER_METADATA:
			ev->traits = (const void *)(uintptr_t)d[i].ptr;
			ev->traits_len = d[i].size;
			break;
		default:
			if (d[i].size != 8)
				return -EINVAL;
			ev->timestamp = (const u64 *)(uintptr_t)d[i].ptr;
		}
	}
	/* Too large for any session, whatever it adds. */
	if (total + ETW_EVENT_HEADER_SIZE + ev->ext.common_len > ETW_MAX_EVENT_SIZE)
		return -EOVERFLOW;
	return 0;
}

/* The items: related id, EnableProperty's, TraceLogging's, the stack. */
static void etw_kevent_items(struct etw_kevent *ev, const struct etw_reg *r,
			     u32 props)
{
	const struct etw_traits *t = rcu_dereference_sched(r->traits);
	u32 fill;

	if (props)
		etw_props_add(&ev->ext, &ev->props, false, props);
	if (ev->traits)
		etw_ext_add(&ev->ext, ETL_EXT_PROV_TRAITS, ev->traits,
			    ev->traits_len, 0);
	else if (t)
		etw_ext_add(&ev->ext, ETL_EXT_PROV_TRAITS, t->data, t->len, 0);
	if (ev->schema)
		etw_ext_add(&ev->ext, ETL_EXT_EVENT_SCHEMA_TL, ev->schema,
			    ev->schema_len, 0);
	if (props)
		etw_props_add(&ev->ext, &ev->props, true, props);
	fill = props & ev->ext.properties;
	if (!fill)
		return;
	etw_props_fill(&ev->props, fill & ~ETW_ENABLE_STACK_TRACE);
	if (!in_task()) {
		etw_sid_of_uid(&ev->props.sid, 0);
		ev->props.ts_id = 0;
		ev->props.start_key = 0;
	}
	if (fill & ETW_ENABLE_STACK_TRACE) {
		unsigned int n = stack_trace_save(ev->stack.addr,
						  ETW_KSTACK_FRAMES, 0);

		ev->stack.match_id = 0;
		ev->props.stack->type = ETL_EXT_STACK_TRACE64;
		ev->props.stack->data = &ev->stack;
		ev->props.stack->size = sizeof(u64) * (1 + n);
	}
}

static void etw_krecord_fill(void *rec, u32 len, const struct etw_kevent *ev,
			     const struct etw_provider *p, u32 property,
			     u64 now)
{
	struct etl_event_header *h = rec;
	u32 ext_len = len - ETW_EVENT_HEADER_SIZE - ev->payload_len;
	u8 *dst = (u8 *)rec + ETW_EVENT_HEADER_SIZE + ext_len;
	u32 i;

	etw_event_header_fill_task(h, len, ETL_HEADER_TYPE_EVENT64,
				   (ext_len ? ETL_EVENT_FLAG_EXTENDED_INFO : 0) |
				   (ev->flags & ETW_WRITE_F_STRING ?
				    ETL_EVENT_FLAG_STRING_ONLY : 0),
				   ev->timestamp ? *ev->timestamp : now,
				   &p->guid);
	if (!in_task()) {
		h->thread_id = 0;
		h->process_id = 0;
		h->kernel_time = 0;
		h->user_time = 0;
	}
	memcpy(&h->desc, ev->desc, sizeof(h->desc));
	memcpy(h->activity_id, ev->activity_id, sizeof(h->activity_id));
	if (ext_len)
		etw_ext_write(h + 1, &ev->ext, property);
	for (i = 0; i < ev->count; i++) {
		const struct etw_data_desc *d = &ev->data[i];

		if (ev->typed && d->type != EVENT_DATA_DESCRIPTOR_TYPE_NONE)
			continue;
		memcpy(dst, (const void *)(uintptr_t)d->ptr, d->size);
		dst += d->size;
	}
}

/*
 * Reserve in every accepting session's lane; the event goes to none of the
 * sessions that are not independent if one of them has no room, as in
 * user mode (write.c).  Then write and commit.
 */
static int etw_kevent_route(struct etw_kevent *ev, const struct etw_reg *r,
			    const struct etw_route *route)
{
	bool drop_dependent = false;
	int ret = 0, lost = 0;
	unsigned int i;
	u64 now;

	for (i = 0; i < route->count; i++) {
		struct etw_session *s = route->entry[i].session;
		struct klog_session *kl;

		ev->slot[i] = NULL;
		if (!ev->want[i])
			continue;
		kl = etw_kp_lanes_of(s);
		ev->lanes[i] = kl;
		ev->len[i] = ETW_EVENT_HEADER_SIZE + ev->payload_len +
			     etw_ext_len(&ev->ext, route->entry[i].enable_property);
		if (ev->len[i] > ETW_MAX_EVENT_SIZE)
			ret = -EOVERFLOW;
		else if (ALIGN(ev->len[i], 8) > s->buffer_size - ETW_BUFFER_HEADER_SIZE)
			ret = ret ? ret : -EMSGSIZE;
		else if (kl)
			ev->slot[i] = klog_lane_reserve(kl, this_cpu_ptr(kl->lane),
							ALIGN(ev->len[i], 8));
		if (!ev->slot[i] && !(s->info.log_file_mode & ETW_MODE_INDEPENDENT))
			drop_dependent = true;
	}
	for (i = 0; i < route->count && drop_dependent; i++)
		if (!(route->entry[i].session->info.log_file_mode &
		      ETW_MODE_INDEPENDENT))
			ev->slot[i] = NULL;

	now = etw_clock();
	for (i = 0; i < route->count; i++) {
		struct klog_session *kl = ev->lanes[i];

		if (!ev->want[i] || !kl)
			continue;
		if (!ev->slot[i]) {
			klog_lane_lost(this_cpu_ptr(kl->lane));
			lost++;
			continue;
		}
		etw_krecord_fill(ev->slot[i], ev->len[i], ev, r->prov,
				 route->entry[i].enable_property, now);
		klog_lane_commit(this_cpu_ptr(kl->lane), ev->len[i]);
	}
	if (!ret && lost)
		ret = -ENOSPC;
	return ret;
}

/* Which sessions of @route take the event: their EnableProperty bits. */
static u32 etw_kevent_want(struct etw_kevent *ev, const struct etw_route *route)
{
	u32 props = 0, i;

	for (i = 0; i < route->count; i++) {
		ev->want[i] = etw_route_entry_accepts(&route->entry[i], ev->desc,
						      ev->filter, ev->flags,
						      ev->tgid);
		if (ev->want[i])
			props |= route->entry[i].enable_property;
	}
	if (unlikely(route->payload)) {
		const struct etw_pf_payload p = {
			.descs = ev->data,
			.count = ev->count,
			.typed = ev->typed,
			.len = ev->payload_len,
		};

		props = etw_payload_route_filter(route, ev->want, ev->desc, &p);
	}
	return props;
}

/* An NMI came while this CPU wrote: its event is lost where it was wanted. */
static int etw_kevent_nmi_drop(struct etw_kreg *k, struct etw_kevent *ev)
{
	const struct etw_route *route = rcu_dereference_sched(k->reg.prov->route);
	struct klog_session *kl;
	int ret = 0;
	u32 i;

	if (!route)
		return 0;
	for (i = 0; i < route->count; i++) {
		if (!etw_route_entry_accepts(&route->entry[i], ev->desc,
					     ev->filter, ev->flags, 0))
			continue;
		kl = etw_kp_lanes_of(route->entry[i].session);
		if (kl)
			etw_kp_lanes_nmi_lost(kl);
		ret = -ENOSPC;
	}
	return ret;
}

static int etw_kwrite_scratch(struct etw_kreg *k, struct etw_kevent *ev)
{
	const struct etw_route *route;
	u32 props;
	int ret;

	ev->typed = READ_ONCE(k->reg.use_desc_type);
	etw_ext_init(&ev->ext);
	if (ev->flags & ETW_WRITE_F_RELATED)
		etw_ext_add(&ev->ext, ETL_EXT_RELATED_ACTIVITYID,
			    ev->related_id, 16, 0);
	ret = etw_kevent_check(ev);
	if (ret)
		return ret;
	route = rcu_dereference_sched(k->reg.prov->route);
	if (!route)
		return 0;
	ev->tgid = in_task() ? task_tgid_nr(current) : 0;
	props = etw_kevent_want(ev, route);
	etw_kevent_items(ev, &k->reg, props);
	return etw_kevent_route(ev, &k->reg, route);
}

/* Every write: interrupts off from the handle's first use to the commit. */
static NTSTATUS etw_kwrite(REGHANDLE h, const struct etw_event_desc *desc,
			   u64 filter, u32 flags, LPCGUID aid, LPCGUID rid,
			   u32 count, const struct etw_data_desc *data)
{
	struct etw_kreg *k = (struct etw_kreg *)(uintptr_t)h;
	struct etw_kscratch *sc;
	struct etw_kevent *ev;
	unsigned long irqf;
	int ret;

	if (!k)
		return STATUS_INVALID_HANDLE;
	if (!desc || count > MAX_EVENT_DATA_DESCRIPTORS || (count && !data))
		return STATUS_INVALID_PARAMETER;
	local_irq_save(irqf);
	sc = this_cpu_ptr(&etw_kscratch);
	ev = &sc->ev;
	if (sc->busy) {
		/* Only an NMI: it cannot use the scratch. */
		struct etw_kevent nmi = {
			.desc = desc,
			.filter = filter,
			.flags = flags,
		};

		ret = etw_kevent_nmi_drop(k, &nmi);
		local_irq_restore(irqf);
		return etw_ntstatus(ret);
	}
	sc->busy = 1;
	barrier();
	ev->desc = desc;
	ev->filter = filter;
	ev->flags = flags;
	ev->count = count;
	ev->data = data;
	ev->payload_len = 0;
	ev->traits = NULL;
	ev->schema = NULL;
	ev->timestamp = NULL;
	if (aid)
		memcpy(ev->activity_id, aid, 16);
	else
		etw_kactivity_get(ev->activity_id);
	if (rid) {
		memcpy(ev->related_id, rid, 16);
		ev->flags |= ETW_WRITE_F_RELATED;
	}
	ret = etw_kwrite_scratch(k, ev);
	barrier();
	sc->busy = 0;
	local_irq_restore(irqf);
	return etw_ntstatus(ret);
}

/*
 * Windows' descriptors have the uapi's layout (include/etw/kernel.h checks
 * it): the caller's arrays are read as the module's own structures.
 */
static const struct etw_event_desc *etw_kdesc(PCEVENT_DESCRIPTOR d)
{
	return (const struct etw_event_desc *)d;
}

static const struct etw_data_desc *etw_kdata(const PEVENT_DATA_DESCRIPTOR d)
{
	return (const struct etw_data_desc *)d;
}

NTSTATUS etw_kp_write(REGHANDLE reg_handle, PCEVENT_DESCRIPTOR desc,
		      LPCGUID activity_id, ULONG count,
		      PEVENT_DATA_DESCRIPTOR data)
{
	return etw_kwrite(reg_handle, etw_kdesc(desc), 0, 0, activity_id, NULL,
			  count, etw_kdata(data));
}
EXPORT_SYMBOL_NS_GPL(etw_kp_write, ETW_NS);

NTSTATUS etw_kp_write_transfer(REGHANDLE reg_handle, PCEVENT_DESCRIPTOR desc,
			       LPCGUID activity_id, LPCGUID related_id,
			       ULONG count, PEVENT_DATA_DESCRIPTOR data)
{
	return etw_kwrite(reg_handle, etw_kdesc(desc), 0, 0, activity_id,
			  related_id, count, etw_kdata(data));
}
EXPORT_SYMBOL_NS_GPL(etw_kp_write_transfer, ETW_NS);

NTSTATUS etw_kp_write_ex(REGHANDLE reg_handle, PCEVENT_DESCRIPTOR desc,
			 ULONG64 filter, ULONG flags, LPCGUID activity_id,
			 LPCGUID related_id, ULONG count,
			 PEVENT_DATA_DESCRIPTOR data)
{
	if (flags & ~(EVENT_WRITE_FLAG_NO_FAULTING | EVENT_WRITE_FLAG_INPRIVATE))
		return STATUS_INVALID_PARAMETER;
	return etw_kwrite(reg_handle, etw_kdesc(desc), filter,
			  flags & EVENT_WRITE_FLAG_INPRIVATE ?
			  ETW_WRITE_F_INPRIVATE : 0,
			  activity_id, related_id, count, etw_kdata(data));
}
EXPORT_SYMBOL_NS_GPL(etw_kp_write_ex, ETW_NS);

/* The string with its terminating NUL, in UTF-16 units, as user mode. */
NTSTATUS etw_kp_write_string(REGHANDLE reg_handle, UCHAR level,
			     ULONGLONG keyword, LPCGUID activity_id,
			     PCWSTR string)
{
	struct etw_event_desc desc = { .level = level, .keyword = keyword };
	struct etw_data_desc data = { .ptr = (uintptr_t)string };
	u32 len = 0;

	if (!string)
		return STATUS_INVALID_PARAMETER;
	while (string[len] && len < ETW_MAX_EVENT_SIZE / 2)
		len++;
	data.size = (len + 1) * sizeof(WCHAR);
	return etw_kwrite(reg_handle, &desc, 0, ETW_WRITE_F_STRING, activity_id,
			  NULL, 1, &data);
}
EXPORT_SYMBOL_NS_GPL(etw_kp_write_string, ETW_NS);
