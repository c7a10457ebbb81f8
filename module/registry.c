// SPDX-License-Identifier: GPL-2.0
/*
 * The provider registry: provider GUIDs, the processes that registered
 * them, the sessions that enabled them, and the routes writers follow.
 *
 * All changes happen under etw_lock.  A provider's enables[] is the
 * control-plane record; after every change it is copied into a new
 * struct etw_route, published with rcu_assign_pointer() and the old one
 * freed after a grace period, so writers never take a lock.  Every change
 * also recomputes the aggregate state (seed 000: Level = max, MatchAny =
 * OR, MatchAll = AND) into each registration's state slot and queues an
 * enable notification for it.
 */
#include <linux/err.h>
#include <linux/hashtable.h>
#include <linux/jhash.h>
#include <linux/mm.h>
#include <linux/pid.h>
#include <linux/sched.h>
#include <linux/uaccess.h>
#include <linux/slab.h>

#include "internal.h"
#include "kapi.h"

static DEFINE_HASHTABLE(etw_providers, 8);

static u32 etw_guid_hash(const guid_t *g)
{
	return jhash(g, sizeof(*g), 0);
}

static struct etw_provider *etw_provider_find(const guid_t *g)
{
	struct etw_provider *p;

	lockdep_assert_held(&etw_lock);
	hash_for_each_possible(etw_providers, p, hnode, etw_guid_hash(g))
		if (guid_equal(&p->guid, g))
			return p;
	return NULL;
}

static struct etw_provider *etw_provider_get(const guid_t *g)
{
	struct etw_provider *p = etw_provider_find(g);

	if (p)
		return p;
	p = kzalloc(sizeof(*p), GFP_KERNEL);
	if (!p)
		return NULL;
	guid_copy(&p->guid, g);
	INIT_LIST_HEAD(&p->regs);
	hash_add(etw_providers, &p->hnode, etw_guid_hash(g));
	return p;
}

/* Free a provider nobody registers and no session enables. */
static void etw_provider_put(struct etw_provider *p)
{
	struct etw_route *route;

	if (!list_empty(&p->regs) || p->nr_enables)
		return;
	hash_del(&p->hnode);
	route = rcu_dereference_protected(p->route, lockdep_is_held(&etw_lock));
	RCU_INIT_POINTER(p->route, NULL);
	if (route)
		kfree_rcu(route, rcu);
	kfree_rcu(p, rcu);
}

/*
 * Can every event of @route be decided by its first entry's level and
 * MatchAnyKeyword alone (no MatchAllKeyword), and stored with nothing but
 * the header and the payload?
 */
static bool etw_route_is_fast(const struct etw_route *route)
{
	const struct etw_route_entry *e = &route->entry[0];

	return route->count == 1 && !e->match_all && !e->pid_count &&
	       !e->event_id_count && !e->pf &&
	       !(e->enable_property & ~ETW_ENABLE_NO_EFFECT);
}

/*
 * The payload filters of @old that enables[] no longer has: writers that
 * read @old may still use them, so they go after a grace period that
 * starts now that @old is unreachable.  Every change of enables[] is
 * published, so each filter leaves through here once.
 */
static void etw_route_retire_filters(const struct etw_provider *p,
				     const struct etw_route *old)
{
	unsigned int i, j;

	for (i = 0; i < old->count; i++) {
		struct etw_payload_filter *pf = old->entry[i].pf;

		if (!pf)
			continue;
		for (j = 0; j < p->nr_enables; j++)
			if (p->enables[j].pf == pf)
				break;
		if (j == p->nr_enables)
			etw_payload_filter_free(pf);
	}
}

/*
 * Copy enables[] into a new route for writers.  Removals pass __GFP_NOFAIL:
 * a stopping session must become unreachable whatever the memory pressure
 * (the route is at most a few hundred bytes).
 */
static int etw_route_publish(struct etw_provider *p, gfp_t gfp)
{
	struct etw_route *old, *new = NULL;
	unsigned int i;

	if (p->nr_enables) {
		new = kmalloc(struct_size(new, entry, p->nr_enables), gfp);
		if (!new)
			return -ENOMEM;
		new->count = p->nr_enables;
		memcpy(new->entry, p->enables,
		       p->nr_enables * sizeof(p->enables[0]));
		new->fast = etw_route_is_fast(new);
		new->payload = false;
		for (i = 0; i < new->count; i++)
			new->payload |= !!new->entry[i].pf;
	}
	old = rcu_dereference_protected(p->route, lockdep_is_held(&etw_lock));
	rcu_assign_pointer(p->route, new);
	if (old) {
		etw_route_retire_filters(p, old);
		kfree_rcu(old, rcu);
	}
	return 0;
}

struct etw_aggregate {
	bool enabled;
	u8 level;	/* effective, for the state page */
	u8 cb_level;	/* for the callback: 0 if any session gave 0 */
	u64 any;
	u64 all;
};

static void etw_provider_aggregate(const struct etw_provider *p,
				   struct etw_aggregate *a)
{
	unsigned int i;

	memset(a, 0, sizeof(*a));
	if (!p->nr_enables)
		return;
	a->enabled = true;
	a->all = ~0ULL;
	for (i = 0; i < p->nr_enables; i++) {
		const struct etw_route_entry *e = &p->enables[i];

		a->level = max(a->level, e->level);
		a->any |= e->match_any;
		a->all &= e->match_all;
	}
	a->cb_level = a->level;
	for (i = 0; i < p->nr_enables; i++)
		if (!p->enables[i].raw_level)
			a->cb_level = 0;
}

static void etw_reg_notify(struct etw_reg *r, const struct etw_aggregate *a,
			   u32 code, const u8 *source_id, u32 logger_id,
			   const struct etw_cb_filter *filter,
			   struct etw_waiter *w)
{
	struct etw_notification n = {
		.reg_id = r->id,
		.control_code = code,
		.level = a->cb_level,
		.match_any = a->any,
		.match_all = a->all,
		.logger_id = logger_id,
	};

	/*
	 * A classic provider has one session: its own EnableLevel and
	 * EnableFlags, and its id for the logger handle.
	 */
	if (r->classic && r->prov->nr_enables) {
		const struct etw_route_entry *e = &r->prov->enables[0];

		n.level = e->raw_level;
		n.match_any = e->raw_any;
		n.match_all = 0;
		n.logger_id = e->session->info.logger_id;
	}
	if (source_id)
		memcpy(n.source_id, source_id, sizeof(n.source_id));
	if (!r->file)
		etw_kreg_notify(r, &n, filter, w);
	else
		etw_notify_queue(r->file, &n, filter, w);
}

/*
 * Publish the new state to every registration and tell them.  @code is
 * what the controller did; the callback sees the resulting state instead
 * (1 if still enabled by some session), except for capture-state.  @cause
 * is the callback filter the controller gave (see cb_filter.c); @w, if the
 * controller waits for the callbacks, counts the notifications.
 */
static void etw_provider_changed(struct etw_provider *p, u32 code,
				 const u8 *source_id, u32 logger_id,
				 const struct etw_cb_filter *cause,
				 struct etw_waiter *w)
{
	struct etw_cb_filter *filter = NULL;
	struct etw_aggregate a;
	struct etw_reg *r;

	etw_provider_aggregate(p, &a);
	if (code != ETW_CONTROL_CODE_CAPTURE_STATE)
		code = a.enabled ? ETW_CONTROL_CODE_ENABLE : ETW_CONTROL_CODE_DISABLE;
	if (a.enabled && !list_empty(&p->regs))
		filter = etw_cb_filter_combine(p, logger_id, cause);
	list_for_each_entry(r, &p->regs, prov_node) {
		/* A kernel registration reads its state from the route. */
		if (code != ETW_CONTROL_CODE_CAPTURE_STATE && r->file)
			etw_state_set(r->file, r->id - 1, a.enabled, a.level,
				      a.any, a.all);
		/* No memory for the FilterData: dropped, as a full queue. */
		if (IS_ERR(filter) && !r->file)
			etw_kreg_dropped(r);
		else if (IS_ERR(filter))
			etw_notify_dropped(r->file);
		else
			etw_reg_notify(r, &a, code, source_id, logger_id,
				       filter, w);
	}
	if (!IS_ERR(filter))
		kfree(filter);
}

/*
 * A registration made after its provider's enables (@a: their aggregate)
 * starts enabled and is called back with a zero SourceId and the sessions'
 * filters (seed 000: one from each session).
 */
static void etw_reg_notify_late(struct etw_reg *r, const struct etw_aggregate *a)
{
	struct etw_cb_filter *filter;

	if (!a->enabled)
		return;
	filter = etw_cb_filter_combine(r->prov, 0, NULL);
	if (IS_ERR(filter)) {
		if (r->file)
			etw_notify_dropped(r->file);
		else
			etw_kreg_dropped(r);
		return;
	}
	etw_reg_notify(r, a, ETW_CONTROL_CODE_ENABLE, NULL, 0, filter, NULL);
	kfree(filter);
}

/* Remove enables[@idx] and its callback filter. */
static void etw_enable_remove(struct etw_provider *p, unsigned int idx)
{
	unsigned int last = --p->nr_enables;

	kfree(p->filters[idx]);
	p->enables[idx] = p->enables[last];
	p->filters[idx] = p->filters[last];
	p->filters[last] = NULL;
}

/*
 * A classic provider is enabled by one session at a time (seed 004): keep
 * enables[@keep], now at index 0, and drop the others.  Their sessions
 * stop receiving its events; nobody is called back for them, as on
 * Windows the provider just gets the new session's handle.
 */
static void etw_enable_keep_one(struct etw_provider *p, unsigned int keep)
{
	swap(p->enables[0], p->enables[keep]);
	swap(p->filters[0], p->filters[keep]);
	while (p->nr_enables > 1)
		etw_enable_remove(p, p->nr_enables - 1);
	etw_route_publish(p, GFP_KERNEL | __GFP_NOFAIL);
}

/* The index of the newest enable of @p, which has at least one. */
static unsigned int etw_enable_newest(const struct etw_provider *p)
{
	unsigned int i, newest = 0;

	for (i = 1; i < p->nr_enables; i++)
		if (p->enables[i].seq > p->enables[newest].seq)
			newest = i;
	return newest;
}

struct etw_reg __rcu *etw_no_regs[ETW_MAX_REGS_PER_FILE] __ro_after_init;

/* The write path's array of @ef's registrations, once; ef->lock held. */
int etw_reg_table_alloc(struct etw_file *ef)
{
	struct etw_reg __rcu **t;

	lockdep_assert_held(&ef->lock);
	if (ef->reg_by_id != etw_no_regs)
		return 0;
	t = kvcalloc(ETW_MAX_REGS_PER_FILE, sizeof(*t), GFP_KERNEL);
	if (!t)
		return -ENOMEM;
	/* Zeroed before a lockless reader (etw_reg_lookup_rcu()) sees it. */
	smp_store_release(&ef->reg_by_id, t);
	return 0;
}

int etw_registry_register(struct etw_file *ef, struct etw_provider_register *arg)
{
	struct etw_aggregate a;
	struct etw_reg *r;
	guid_t g;
	u32 id;
	int ret;

	if ((arg->flags & ~ETW_REGISTER_F_CLASSIC) || arg->reserved0 ||
	    arg->reserved)
		return -EINVAL;
	import_guid(&g, arg->guid);

	mutex_lock(&ef->lock);
	ret = etw_state_alloc(ef);
	if (!ret)
		ret = etw_reg_table_alloc(ef);
	mutex_unlock(&ef->lock);
	if (ret)
		return ret;

	r = kzalloc(sizeof(*r), GFP_KERNEL);
	if (!r)
		return -ENOMEM;
	r->file = ef;
	r->pid = get_task_pid(current, PIDTYPE_TGID);

	mutex_lock(&etw_lock);
	r->prov = etw_provider_get(&g);
	if (!r->prov) {
		ret = -ENOMEM;
		goto out_unlock;
	}
	ret = xa_alloc(&ef->regs, &id, r, XA_LIMIT(1, ETW_MAX_REGS_PER_FILE),
		       GFP_KERNEL);
	if (ret) {
		etw_provider_put(r->prov);
		ret = ret == -EBUSY ? -ENOSPC : ret;
		goto out_unlock;
	}
	r->id = id;
	rcu_assign_pointer(ef->reg_by_id[id - 1], r);
	list_add_tail(&r->prov_node, &r->prov->regs);
	r->classic = arg->flags & ETW_REGISTER_F_CLASSIC;
	if (r->classic && !r->prov->nr_classic++ && r->prov->nr_enables > 1) {
		/* Several sessions enabled it before: the newest wins. */
		etw_enable_keep_one(r->prov, etw_enable_newest(r->prov));
		etw_provider_changed(r->prov, ETW_CONTROL_CODE_ENABLE, NULL, 0,
				     NULL, NULL);
		goto out_registered;
	}

	/* Pre-enabled: start enabled, and be called back. */
	etw_provider_aggregate(r->prov, &a);
	etw_state_set(ef, id - 1, a.enabled, a.level, a.any, a.all);
	etw_reg_notify_late(r, &a);
out_registered:
	mutex_unlock(&etw_lock);

	arg->reg_id = id;
	arg->state_index = id - 1;
	arg->state_size = sizeof(struct etw_reg_state);
	return 0;

out_unlock:
	mutex_unlock(&etw_lock);
	put_pid(r->pid);
	kfree(r);
	return ret;
}

static void etw_reg_remove(struct etw_reg *r)
{
	struct etw_file *ef = r->file;

	lockdep_assert_held(&etw_lock);
	xa_erase(&ef->regs, r->id);
	RCU_INIT_POINTER(ef->reg_by_id[r->id - 1], NULL);
	list_del(&r->prov_node);
	if (r->classic)
		r->prov->nr_classic--;
	etw_state_set(ef, r->id - 1, false, 0, 0, 0);
	etw_notify_forget(ef, r->id);
	etw_provider_put(r->prov);
	etw_traits_release(r);
	put_pid(r->pid);
	kfree_rcu(r, rcu);
}

int etw_registry_unregister(struct etw_file *ef, u32 reg_id)
{
	struct etw_reg *r;
	int ret = -EBADF;

	mutex_lock(&etw_lock);
	r = xa_load(&ef->regs, reg_id);
	if (r) {
		etw_reg_remove(r);
		ret = 0;
	}
	mutex_unlock(&etw_lock);
	return ret;
}

void etw_registry_release_file(struct etw_file *ef)
{
	struct etw_reg *r;
	unsigned long id;

	mutex_lock(&etw_lock);
	xa_for_each(&ef->regs, id, r)
		etw_reg_remove(r);
	mutex_unlock(&etw_lock);
}

static int etw_enable_find(const struct etw_provider *p,
			   const struct etw_session *s)
{
	unsigned int i;

	for (i = 0; i < p->nr_enables; i++)
		if (p->enables[i].session == s)
			return i;
	return -1;
}

static void etw_enable_fill(struct etw_route_entry *e, struct etw_session *s,
			    const struct etw_enable *arg, const u16 *event_ids,
			    struct etw_payload_filter *pf)
{
	static u64 etw_enable_seq;	/* etw_lock */

	memset(e, 0, sizeof(*e));
	e->session = s;
	e->seq = ++etw_enable_seq;
	e->raw_level = arg->level;
	e->raw_any = arg->match_any;
	/* Level 0 and MatchAnyKeyword 0 mean "all" (see the uapi). */
	e->level = arg->level ? arg->level : 255;
	e->match_any = arg->match_any ? arg->match_any : ~0ULL;
	e->match_all = arg->match_any ? arg->match_all : 0;
	e->enable_property = arg->enable_property;
	e->pid_count = arg->pid_count;
	memcpy(e->pids, arg->pids, sizeof(e->pids));
	e->event_id_count = arg->event_id_count;
	e->event_ids_enable = arg->event_ids_enable;
	if (arg->event_id_count)
		memcpy(e->event_ids, event_ids, arg->event_id_count * sizeof(u16));
	e->pf = pf;
}

/*
 * ETW_IOC_ENABLE.  Takes @filter (the callback filter, or NULL) and @pf
 * (the payload filter, or NULL): kept with the enable, or freed.  With a
 * timeout, waits for the callbacks once the enable is in force and
 * etw_lock is released.
 */
int etw_registry_enable(struct etw_enable *arg, const u16 *event_ids,
			struct etw_cb_filter *filter,
			struct etw_payload_filter *pf)
{
	struct etw_waiter *w = NULL;
	struct etw_route_entry saved;
	struct etw_cb_filter *old;
	struct etw_provider *p;
	struct etw_session *s;
	bool added = false;
	guid_t g;
	int idx, ret = 0;

	if (arg->timeout_ms != ETW_TIMEOUT_ASYNC) {
		w = etw_waiter_new();
		if (!w) {
			kfree(filter);
			kfree(pf);
			return -ENOMEM;
		}
	}
	import_guid(&g, arg->guid);
	mutex_lock(&etw_lock);
	s = etw_session_get(arg->logger_id);
	if (!s) {
		ret = -ENOENT;
		goto out_unlock;
	}
	p = arg->control_code == ETW_CONTROL_CODE_ENABLE ?
		etw_provider_get(&g) : etw_provider_find(&g);
	if (!p)
		goto out_put;	/* nothing to disable or capture: done */
	idx = etw_enable_find(p, s);

	switch (arg->control_code) {
	case ETW_CONTROL_CODE_ENABLE:
		if (idx < 0 && p->nr_enables == ETW_MAX_SESSIONS_PER_PROVIDER) {
			ret = -ENOSPC;
			break;
		}
		/* A kernel provider's events reach the session by its lanes. */
		if (p->nr_kernel) {
			ret = etw_kp_lanes_get(s);
			if (ret)
				break;
		}
		if (idx < 0) {
			idx = p->nr_enables++;
			added = true;
		}
		saved = p->enables[idx];
		old = p->filters[idx];
		etw_enable_fill(&p->enables[idx], s, arg, event_ids, pf);
		if (p->nr_classic && p->nr_enables > 1) {
			/* A classic provider: this session takes it over. */
			etw_enable_keep_one(p, idx);
			idx = 0;
			ret = 0;
		} else {
			ret = etw_route_publish(p, GFP_KERNEL);
		}
		if (ret) {
			if (added)
				p->nr_enables--;
			else
				p->enables[idx] = saved;
			break;
		}
		/* The enable replaces the session's filters, these too. */
		pf = NULL;
		p->filters[idx] = filter;
		filter = NULL;
		kfree(old);
		etw_provider_changed(p, arg->control_code, arg->source_id,
				     arg->logger_id, p->filters[idx], w);
		break;
	case ETW_CONTROL_CODE_DISABLE:
		if (idx < 0)
			break;
		etw_enable_remove(p, idx);
		etw_route_publish(p, GFP_KERNEL | __GFP_NOFAIL);
		etw_provider_changed(p, arg->control_code, arg->source_id,
				     arg->logger_id, NULL, w);
		break;
	case ETW_CONTROL_CODE_CAPTURE_STATE:
		if (p->nr_enables)
			etw_provider_changed(p, arg->control_code,
					     arg->source_id, arg->logger_id,
					     filter, w);
		break;
	}
	etw_provider_put(p);
out_put:
	etw_session_put(s);
out_unlock:
	mutex_unlock(&etw_lock);
	kfree(filter);
	kfree(pf);	/* never published */
	if (w) {
		if (!ret)
			ret = etw_waiter_wait(w, arg->timeout_ms);
		etw_waiter_put(w);
	}
	return ret;
}

/* A session stops: it leaves every provider; writers stop seeing it. */
void etw_registry_session_stopped(struct etw_session *s)
{
	struct hlist_node *tmp;
	struct etw_provider *p;
	unsigned int bkt;
	int idx;

	lockdep_assert_held(&etw_lock);
	hash_for_each_safe(etw_providers, bkt, tmp, p, hnode) {
		idx = etw_enable_find(p, s);
		if (idx < 0)
			continue;
		etw_enable_remove(p, idx);
		etw_route_publish(p, GFP_KERNEL | __GFP_NOFAIL);
		etw_provider_changed(p, ETW_CONTROL_CODE_DISABLE, NULL,
				     s->info.logger_id, NULL, NULL);
		etw_provider_put(p);
	}
}

/*
 * ETW_IOC_PROVIDER_LIST (EnumerateTraceGuids(Ex)): a snapshot of every
 * provider, taken under etw_lock into a kernel array and copied out after
 * the lock is dropped (a fault on the user's array may sleep).
 */
int etw_registry_list(struct etw_provider_list *arg)
{
	struct etw_provider_entry *out = NULL;
	struct etw_provider *p;
	u32 max = min_t(u32, arg->max, ETW_PROVIDER_LIST_MAX);
	u32 total = 0, filled = 0;
	unsigned int bkt;
	int ret = 0;

	if (arg->flags || arg->reserved)
		return -EINVAL;
	if (max && !arg->entries)
		return -EFAULT;
	if (max) {
		out = kvcalloc(max, sizeof(*out), GFP_KERNEL);
		if (!out)
			return -ENOMEM;
	}
	mutex_lock(&etw_lock);
	hash_for_each(etw_providers, bkt, p, hnode) {
		if (filled < max) {
			struct etw_provider_entry *e = &out[filled++];

			memcpy(e->guid, &p->guid, sizeof(e->guid));
			e->nr_regs = list_count_nodes(&p->regs);
			e->nr_enables = p->nr_enables;
			e->flags = p->nr_classic ? ETW_PROVIDER_ENTRY_F_CLASSIC : 0;
		}
		total++;
	}
	mutex_unlock(&etw_lock);
	if (filled && copy_to_user(u64_to_user_ptr(arg->entries), out,
				   filled * sizeof(*out)))
		ret = -EFAULT;
	kvfree(out);
	arg->filled = filled;
	arg->total = total;
	return ret;
}

/* ETW_IOC_PROVIDER_INFO (EnumerateTraceGuidsEx's TraceGuidQueryInfo). */
int etw_registry_info(struct etw_provider_info *arg)
{
	struct etw_provider_enable en[ETW_MAX_SESSIONS_PER_PROVIDER] = {};
	u32 max_regs = min_t(u32, arg->max_regs, ETW_PROVIDER_LIST_MAX);
	struct etw_provider_reg *regs = NULL;
	u32 nr_regs = 0, nr_en = 0, i;
	struct etw_provider *p;
	struct etw_reg *r;
	guid_t g;
	int ret = 0;

	if (arg->flags)
		return -EINVAL;
	if ((max_regs && !arg->regs) || (arg->max_enables && !arg->enables))
		return -EFAULT;
	if (max_regs) {
		regs = kvcalloc(max_regs, sizeof(*regs), GFP_KERNEL);
		if (!regs)
			return -ENOMEM;
	}
	memcpy(&g, arg->guid, sizeof(g));
	mutex_lock(&etw_lock);
	p = etw_provider_find(&g);
	if (!p) {
		mutex_unlock(&etw_lock);
		kvfree(regs);
		return -ENOENT;
	}
	list_for_each_entry(r, &p->regs, prov_node) {
		if (nr_regs < max_regs) {
			regs[nr_regs].pid = pid_vnr(r->pid);
			regs[nr_regs].flags = r->classic ? ETW_PROVIDER_ENTRY_F_CLASSIC : 0;
		}
		nr_regs++;
	}
	for (i = 0; i < p->nr_enables; i++) {
		const struct etw_route_entry *e = &p->enables[i];

		en[nr_en].logger_id = e->session->info.logger_id;
		en[nr_en].level = e->raw_level;
		en[nr_en].enable_property = e->enable_property;
		en[nr_en].match_any = e->raw_any;
		en[nr_en].match_all = e->match_all;
		nr_en++;
	}
	mutex_unlock(&etw_lock);
	if (regs && copy_to_user(u64_to_user_ptr(arg->regs), regs,
				 min(nr_regs, max_regs) * sizeof(*regs)))
		ret = -EFAULT;
	if (!ret && arg->max_enables &&
	    copy_to_user(u64_to_user_ptr(arg->enables), en,
			 min(nr_en, arg->max_enables) * sizeof(en[0])))
		ret = -EFAULT;
	kvfree(regs);
	arg->nr_regs = nr_regs;
	arg->nr_enables = nr_en;
	return ret;
}

/**
 * etw_registry_kernel_add() - EtwRegister's registration of provider @g
 * @r: the kernel registration (file NULL), not yet known to anyone
 * @g: the provider's GUID
 *
 * Every session that enables the provider gets its kernel lanes first;
 * then @r joins the provider and, if it is enabled, is called back as a
 * registration made after the enables is (zero SourceId, the filters).
 *
 * Return: 0, or -ENOMEM.
 */
int etw_registry_kernel_add(struct etw_reg *r, const guid_t *g)
{
	struct etw_aggregate a;
	unsigned int i;
	int ret = 0;

	mutex_lock(&etw_lock);
	r->prov = etw_provider_get(g);
	if (!r->prov) {
		ret = -ENOMEM;
		goto out;
	}
	for (i = 0; i < r->prov->nr_enables && !ret; i++)
		ret = etw_kp_lanes_get(r->prov->enables[i].session);
	if (ret) {
		etw_provider_put(r->prov);
		goto out;
	}
	list_add_tail(&r->prov_node, &r->prov->regs);
	r->prov->nr_kernel++;
	etw_provider_aggregate(r->prov, &a);
	etw_reg_notify_late(r, &a);
out:
	mutex_unlock(&etw_lock);
	return ret;
}

/*
 * EtwUnregister: @r leaves its provider; no notification is queued for it
 * after this.  Its writers may still be inside (the caller waits for them).
 */
void etw_registry_kernel_remove(struct etw_reg *r)
{
	mutex_lock(&etw_lock);
	list_del(&r->prov_node);
	r->prov->nr_kernel--;
	etw_provider_put(r->prov);
	etw_traits_release(r);
	mutex_unlock(&etw_lock);
}

/* Module exit: no file is open and no session runs, so nothing is left. */
void etw_registry_exit(void)
{
	struct etw_provider *p;
	unsigned int bkt;

	hash_for_each(etw_providers, bkt, p, hnode)
		WARN(1, "etw: provider left at exit\n");
}
