// SPDX-License-Identifier: GPL-2.0
/*
 * System-logger sessions (EVENT_TRACE_SYSTEM_LOGGER_MODE, the NT Kernel
 * Logger): their EnableFlags, stack list and the profile interval
 * (TraceSetInformation), the route klog_write() follows, and the sources
 * (probes) the union of their flags needs.  All under etw_lock.
 *
 * A session's life: created with its buffers; attached at start (on the
 * route, sources started, then the DCStart rundown, so a process created
 * meanwhile is seen at least once); detached at stop (DCEnd rundown and
 * RundownComplete while still on the route, then off it and the sources
 * it alone needed stopped); flushed after the grace period; destroyed
 * with the session.
 */
#include <linux/cpumask.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/tracepoint.h>
#include <linux/uaccess.h>
#include <linux/uuid.h>

#include "internal.h"
#include "klog_internal.h"
#include "klog_proc.h"
#include "klog_route.h"

struct klog_route __rcu *klog_route;
unsigned long klog_stack_union[BITS_TO_LONGS(KLOG_STACK_HOOKS)];

/* TraceSampledProfileIntervalInfo: 100 ns units, machine-wide. */
static u32 klog_interval = 10000;

/* Which sources run (etw_lock). */
static bool klog_source_on[16];

/* SystemTraceControlGuid {9e814aad-3204-11d2-9a82-006008a86939}. */
static const guid_t klog_system_guid =
	GUID_INIT(0x9e814aad, 0x3204, 0x11d2,
		  0x9a, 0x82, 0x00, 0x60, 0x08, 0xa8, 0x69, 0x39);

#define KLOG_KERNEL_LOGGER_NAME	"NT Kernel Logger"

u32 klog_profile_interval(void)
{
	return READ_ONCE(klog_interval);
}

static struct klog_route *klog_route_get(void)
{
	return rcu_dereference_protected(klog_route, lockdep_is_held(&etw_lock));
}

/*
 * StartTrace's rules for system loggers, before the session exists: the
 * NT Kernel Logger is one by its name and has SystemTraceControlGuid; that
 * GUID with another name is an error; EnableFlags only for a system
 * logger, which needs two more buffers per CPU for its kernel lanes.
 */
int klog_session_check(struct etw_session_info *in)
{
	bool named = !strncmp(in->name, KLOG_KERNEL_LOGGER_NAME, ETW_MAX_NAME);

	if (named) {
		in->log_file_mode |= ETW_MODE_SYSTEM_LOGGER;
		export_guid(in->guid, &klog_system_guid);
	} else if (guid_equal((guid_t *)in->guid, &klog_system_guid)) {
		return -EINVAL;
	}
	if (!(in->log_file_mode & ETW_MODE_SYSTEM_LOGGER) && in->enable_flags)
		return -EINVAL;
	return 0;
}

int klog_session_create(struct etw_session *s)
{
	struct klog_session *k;
	int ret;

	if (!(s->info.log_file_mode & ETW_MODE_SYSTEM_LOGGER))
		return 0;
	k = kzalloc(sizeof(*k), GFP_KERNEL);
	if (!k)
		return -ENOMEM;
	k->s = s;
	k->flags = s->info.enable_flags;
	k->group_masks[0] = k->flags;
	ret = klog_lanes_init(k);
	if (ret) {
		kfree(k);
		return ret;
	}
	s->klog = k;
	return 0;
}

/*
 * Start and stop sources for the union of the attached sessions' flags.
 * The starts first: one that fails stops nothing, so the caller's going
 * back to the old flags only stops what started (a stop cannot fail).
 */
static int klog_sources_update(u32 want)
{
	const struct klog_source *src;
	bool stopped = false;
	unsigned int i;
	int ret = 0;

	for (i = 0; i < klog_nr_sources && !ret; i++) {
		src = klog_sources[i];
		if ((want & src->flags) && !klog_source_on[i]) {
			ret = src->start();
			if (ret)
				pr_warn("etw: kernel source %s: %d\n", src->name, ret);
			else
				klog_source_on[i] = true;
		}
	}
	for (i = 0; i < klog_nr_sources && !ret; i++) {
		src = klog_sources[i];
		if (!(want & src->flags) && klog_source_on[i]) {
			src->stop();
			klog_source_on[i] = false;
			stopped = true;
		}
	}
	/* A probe still running may use what its stop freed. */
	if (stopped)
		tracepoint_synchronize_unregister();
	return ret;
}

/* klog_flags and the stack union from the route; then the sources. */
static int klog_recompute(void)
{
	struct klog_route *r = klog_route_get();
	unsigned int i;
	u32 flags = 0;
	bool copy = false;

	bitmap_zero(klog_stack_union, KLOG_STACK_HOOKS);
	for (i = 0; r && i < r->count; i++) {
		flags |= r->k[i]->flags;
		copy |= r->k[i]->stack_copy != 0;
		bitmap_or(klog_stack_union, klog_stack_union,
			  r->k[i]->stack_hooks, KLOG_STACK_HOOKS);
	}
	WRITE_ONCE(klog_flags, flags);
	WRITE_ONCE(klog_stack_copy_wanted, copy);
	return klog_sources_update(flags);
}

/* Publish a copy of the route with @add, or without @del. */
static int klog_route_change(struct klog_session *add, struct klog_session *del)
{
	struct klog_route *old = klog_route_get(), *r;
	unsigned int i;

	/*
	 * Leaving cannot fail (stop cannot), and a route without the others
	 * would stop their records: a small allocation that waits for memory.
	 */
	r = kzalloc(sizeof(*r), add ? GFP_KERNEL : GFP_KERNEL | __GFP_NOFAIL);
	if (!r)
		return -ENOMEM;
	for (i = 0; old && i < old->count; i++)
		if (old->k[i] != del)
			r->k[r->count++] = old->k[i];
	if (add) {
		if (r->count == ETW_MAX_SYSTEM_LOGGERS) {
			kfree(r);
			return -ENOSPC;
		}
		r->k[r->count++] = add;
	}
	rcu_assign_pointer(klog_route, r);
	if (old)
		kfree_rcu(old, rcu);
	return 0;
}

/* On the route, sources started, then the DCStart rundown.  etw_lock. */
int klog_session_attach(struct etw_session *s)
{
	struct klog_session *k = s->klog;
	unsigned int i;
	int ret;

	if (!k)
		return 0;
	ret = klog_route_change(k, NULL);
	if (ret)
		return ret;
	k->attached = true;
	ret = klog_recompute();
	/* A rundown without memory: the start fails, as Windows' would. */
	ret = ret ?: klog_rundown(k, false);
	if (ret) {
		klog_session_detach(s);
		/* Writers that found it on the route are done with it. */
		synchronize_rcu();
		return ret;
	}
	for (i = 0; i < klog_nr_sources; i++)
		if (klog_sources[i]->session_start &&
		    (k->flags & klog_sources[i]->flags))
			klog_sources[i]->session_start(k);
	return 0;
}

/*
 * Stop, first half (etw_lock): the DCEnd rundown, the SystemConfig
 * records and RundownComplete,
 * then off the route.  The caller waits for a grace period before
 * klog_session_flush().
 */
void klog_session_detach(struct etw_session *s)
{
	struct klog_session *k = s->klog;
	struct klog_event ev = {
		.hook = KLOG_HOOK_RUNDOWN_COMPLETE,
		.header_type = KLOG_HDR_SYSTEM,
		.version = 2,
		.target = k,
	};
	unsigned int i;

	if (!k || !k->attached)
		return;
	for (i = 0; i < klog_nr_sources; i++)
		if (klog_sources[i]->session_stop &&
		    (k->flags & klog_sources[i]->flags))
			klog_sources[i]->session_stop(k);
	klog_rundown(k, true);
	klog_sysconfig(k);
	klog_write(&ev);
	klog_route_change(NULL, k);
	k->attached = false;
	klog_recompute();
}

/* FLUSH and the FlushTimer; at stop (after the grace period) the last. */
void klog_session_flush(struct etw_session *s, bool final)
{
	if (s->klog)
		klog_lanes_flush(s->klog, final);
}

/* After the last flush: the lanes' empty buffers back to the pool. */
void klog_session_stopped(struct etw_session *s)
{
	if (s->klog)
		klog_lanes_release(s->klog);
}

/* The session is freed (or failed to start). */
void klog_session_destroy(struct etw_session *s)
{
	struct klog_session *k = s->klog;

	if (!k)
		return;
	klog_lanes_release(k);
	klog_lanes_free(k);
	kfree(k);
	s->klog = NULL;
}

u64 klog_session_lost(struct etw_session *s)
{
	return s->klog ? klog_lanes_lost(s->klog) : 0;
}

/* ControlTrace UPDATE of a system logger: new EnableFlags (0: none). */
int klog_session_update(struct etw_session *s, u32 enable_flags)
{
	struct klog_session *k = s->klog;

	u32 old;
	int ret;

	if (!k)
		return enable_flags ? -EINVAL : 0;
	old = k->flags;
	WRITE_ONCE(k->flags, enable_flags);
	ret = klog_recompute();
	if (ret) {
		/* A source that cannot start: the flags stay as they were. */
		WRITE_ONCE(k->flags, old);
		klog_recompute();
		return ret;
	}
	k->group_masks[0] = enable_flags;
	s->info.enable_flags = enable_flags;
	return 0;
}

/* Kernel groups by class GUID, for TraceStackTracingInfo. */
static const struct {
	guid_t guid;
	u8 group;
} klog_group_guids[] = {
	{ GUID_INIT(0x68fdd900, 0x4a3e, 0x11d1, 0x84, 0xf4, 0x00, 0x00,
		    0xf8, 0x04, 0x64, 0xe3), KLOG_GROUP_HEADER },
	{ GUID_INIT(0x3d6fa8d4, 0xfe05, 0x11d0, 0x9d, 0xda, 0x00, 0xc0,
		    0x4f, 0xd7, 0xba, 0x7c), KLOG_GROUP_DISKIO },
	{ GUID_INIT(0x3d6fa8d0, 0xfe05, 0x11d0, 0x9d, 0xda, 0x00, 0xc0,
		    0x4f, 0xd7, 0xba, 0x7c), KLOG_GROUP_PROCESS },
	{ GUID_INIT(0x90cbdc39, 0x4a3e, 0x11d1, 0x84, 0xf4, 0x00, 0x00,
		    0xf8, 0x04, 0x64, 0xe3), KLOG_GROUP_FILEIO },
	{ GUID_INIT(0x3d6fa8d1, 0xfe05, 0x11d0, 0x9d, 0xda, 0x00, 0xc0,
		    0x4f, 0xd7, 0xba, 0x7c), KLOG_GROUP_THREAD },
	{ GUID_INIT(0xce1dbfb4, 0x137e, 0x4da6, 0x87, 0xb0, 0x3f, 0x59,
		    0xaa, 0x10, 0x2c, 0xbc), KLOG_GROUP_PERFINFO },
	{ GUID_INIT(0x2cb15d1d, 0x5fc1, 0x11d2, 0xab, 0xe1, 0x00, 0xa0,
		    0xc9, 0x11, 0xf5, 0x18), KLOG_GROUP_IMAGE },
};

/* The hook of a CLASSIC_EVENT_ID, or -1 for a GUID no group has. */
static int klog_hook_of(const u8 *id)
{
	unsigned int i;
	u8 type = id[16];

	for (i = 0; i < ARRAY_SIZE(klog_group_guids); i++) {
		if (memcmp(&klog_group_guids[i].guid, id, 16))
			continue;
		/* Image/Load is logged in the Process group. */
		if (klog_group_guids[i].group == KLOG_GROUP_IMAGE && type == 10)
			return KLOG_HOOK_IMAGE_LOAD;
		return KLOG_HOOK(klog_group_guids[i].group, type);
	}
	return -1;
}

static int klog_set_stacks(struct klog_session *k, const u8 *ids, u32 len)
{
	DECLARE_BITMAP(hooks, KLOG_STACK_HOOKS);
	u32 i, n = len / ETW_CLASSIC_EVENT_ID_SIZE;
	int hook;

	if (len % ETW_CLASSIC_EVENT_ID_SIZE || n > ETW_MAX_STACK_EVENT_IDS)
		return -EINVAL;
	if (n && klog_task_stacks_init())
		return -ENOMEM;
	bitmap_zero(hooks, KLOG_STACK_HOOKS);
	for (i = 0; i < n; i++) {
		hook = klog_hook_of(ids + i * ETW_CLASSIC_EVENT_ID_SIZE);
		if (hook >= 0 && hook < KLOG_STACK_HOOKS)
			__set_bit(hook, hooks);
	}
	/* Writers test single bits: a word at a time is enough. */
	for (i = 0; i < BITS_TO_LONGS(KLOG_STACK_HOOKS); i++)
		WRITE_ONCE(k->stack_hooks[i], hooks[i]);
	k->nr_stack_ids = n;
	return klog_recompute();
}

/* ETW_TRACE_STACK_COPY_INFO: u32 Size, 0 for none. */
static int klog_set_stack_copy(struct klog_session *k, const u8 *buf, u32 len)
{
	u32 size;

	if (len < sizeof(size))
		return -EMSGSIZE;
	memcpy(&size, buf, sizeof(size));
	if (size > ETW_STACK_COPY_MAX)
		return -EINVAL;
	WRITE_ONCE(k->stack_copy, ALIGN(size, 8));
	return klog_recompute();
}

static int klog_info_check(struct etw_trace_info *arg)
{
	if (arg->flags || arg->reserved0 || arg->reserved[0] || arg->reserved[1])
		return -EINVAL;
	if (arg->length > ETW_MAX_STACK_EVENT_IDS * ETW_CLASSIC_EVENT_ID_SIZE)
		return -EINVAL;
	return 0;
}

/* The system logger @logger_id; etw_lock held, a reference taken. */
static struct etw_session *klog_info_session(u32 logger_id, int *err)
{
	struct etw_session *s = etw_session_get(logger_id);

	*err = 0;
	if (!s) {
		*err = -ENOENT;
	} else if (!s->klog) {
		etw_session_put(s);
		s = NULL;
		*err = -EINVAL;
	}
	return s;
}

/* ETW_IOC_TRACE_SET_INFO: TraceSetInformation. */
int klog_trace_set_info(struct etw_trace_info *arg)
{
	u8 *buf = NULL;
	struct etw_session *s = NULL;
	u32 masks[ETW_GROUP_MASKS] = { 0 };
	u32 iv[2];
	int ret;

	ret = klog_info_check(arg);
	if (ret)
		return ret;
	if (arg->length) {
		buf = memdup_user(u64_to_user_ptr(arg->data), arg->length);
		if (IS_ERR(buf))
			return PTR_ERR(buf);
	}
	mutex_lock(&etw_lock);
	switch (arg->info_class) {
	case ETW_TRACE_PROFILE_INTERVAL_INFO:
		if (arg->length < sizeof(iv)) {
			ret = -EMSGSIZE;
			break;
		}
		memcpy(iv, buf, sizeof(iv));
		if (iv[0]) {
			ret = -EOPNOTSUPP;
			break;
		}
		WRITE_ONCE(klog_interval, clamp_t(u32, iv[1], 1221, 10000000));
		for (ret = 0; ret < klog_nr_sources; ret++)
			if (klog_source_on[ret] && klog_sources[ret]->interval_changed)
				klog_sources[ret]->interval_changed();
		ret = 0;
		break;
	case ETW_TRACE_STACK_TRACING_INFO:
		s = klog_info_session(arg->logger_id, &ret);
		if (s)
			ret = klog_set_stacks(s->klog, buf, arg->length);
		break;
	case ETW_TRACE_STACK_COPY_INFO:
		s = klog_info_session(arg->logger_id, &ret);
		if (s)
			ret = klog_set_stack_copy(s->klog, buf, arg->length);
		break;
	case ETW_TRACE_ENABLE_FLAGS_INFO:
		if (arg->length < sizeof(u32) || arg->length > sizeof(masks)) {
			ret = -EMSGSIZE;
			break;
		}
		s = klog_info_session(arg->logger_id, &ret);
		if (!s)
			break;
		memcpy(masks, buf, arg->length);
		ret = klog_session_update(s, masks[0]);
		if (!ret)
			memcpy(s->klog->group_masks, masks, sizeof(masks));
		break;
	default:
		ret = -EOPNOTSUPP;
		break;
	}
	mutex_unlock(&etw_lock);
	if (s)
		etw_session_put(s);
	kfree(buf);
	return ret;
}

/* Write @len bytes of @src to the caller's @arg->data; -EMSGSIZE if short. */
static int klog_info_out(struct etw_trace_info *arg, const void *src, u32 len)
{
	u32 room = arg->length;

	arg->length = len;
	if (room < len)
		return -EMSGSIZE;
	if (len && copy_to_user(u64_to_user_ptr(arg->data), src, len))
		return -EFAULT;
	return 0;
}

/* The stack list back as CLASSIC_EVENT_IDs, from the bitmap. */
static int klog_query_stacks(struct etw_trace_info *arg, struct klog_session *k)
{
	u8 *ids, *p;
	unsigned int hook, i;
	int ret;

	ids = kcalloc(ETW_MAX_STACK_EVENT_IDS, ETW_CLASSIC_EVENT_ID_SIZE,
		      GFP_KERNEL);
	if (!ids)
		return -ENOMEM;
	p = ids;
	for_each_set_bit(hook, k->stack_hooks, KLOG_STACK_HOOKS) {
		u8 group = hook == KLOG_HOOK_IMAGE_LOAD ? KLOG_GROUP_IMAGE : hook >> 8;

		for (i = 0; i < ARRAY_SIZE(klog_group_guids); i++)
			if (klog_group_guids[i].group == group)
				break;
		if (i == ARRAY_SIZE(klog_group_guids) ||
		    p == ids + ETW_MAX_STACK_EVENT_IDS * ETW_CLASSIC_EVENT_ID_SIZE)
			continue;
		memcpy(p, &klog_group_guids[i].guid, 16);
		p[16] = hook & 0xff;
		p += ETW_CLASSIC_EVENT_ID_SIZE;
	}
	ret = klog_info_out(arg, ids, p - ids);
	kfree(ids);
	return ret;
}

/* ETW_IOC_TRACE_QUERY_INFO: TraceQueryInformation. */
int klog_trace_query_info(struct etw_trace_info *arg)
{
	struct etw_session *s = NULL;
	u32 iv[2] = { 0, klog_profile_interval() };
	int ret;

	ret = klog_info_check(arg);
	if (ret)
		return ret;
	mutex_lock(&etw_lock);
	switch (arg->info_class) {
	case ETW_TRACE_PROFILE_INTERVAL_INFO:
		ret = klog_info_out(arg, iv, sizeof(iv));
		break;
	case ETW_TRACE_STACK_TRACING_INFO:
		s = klog_info_session(arg->logger_id, &ret);
		if (s)
			ret = klog_query_stacks(arg, s->klog);
		break;
	case ETW_TRACE_STACK_COPY_INFO:
		s = klog_info_session(arg->logger_id, &ret);
		if (s)
			ret = klog_info_out(arg, &s->klog->stack_copy,
					    sizeof(s->klog->stack_copy));
		break;
	case ETW_TRACE_ENABLE_FLAGS_INFO:
		s = klog_info_session(arg->logger_id, &ret);
		if (s)
			ret = klog_info_out(arg, s->klog->group_masks,
					    sizeof(s->klog->group_masks));
		break;
	default:
		ret = -EOPNOTSUPP;
		break;
	}
	mutex_unlock(&etw_lock);
	if (s)
		etw_session_put(s);
	return ret;
}

/* Module exit: every session stopped, so no source runs. */
void klog_exit(void)
{
	struct klog_route *r = rcu_dereference_protected(klog_route, true);

	WARN_ON(r && r->count);
	RCU_INIT_POINTER(klog_route, NULL);
	synchronize_rcu();
	kfree(r);
	klog_process_exit();
	klog_image_exit();
	klog_task_stacks_exit();
	klog_stack_exit();
}
