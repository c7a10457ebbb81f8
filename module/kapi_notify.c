// SPDX-License-Identifier: GPL-2.0
/*
 * The enable callbacks of kernel registrations.  The registry makes a
 * notification under etw_lock (registry.c, the same one a process gets);
 * here it is queued on its registration and a work item calls the
 * module's PETWENABLECALLBACK with Windows' arguments, in process context
 * (it may sleep), with no etw lock held, one at a time and in order.
 * A controller that waits for the callbacks (EnableTraceEx2's Timeout)
 * counts these as it counts a process's.
 */
#include <linux/slab.h>
#include <linux/string.h>

#include "kapi.h"

/* EVENT_FILTER_DESCRIPTOR, as the module fills it (kernel.h's layout). */
struct etw_kfilter_desc {
	u64 ptr;
	u32 size;
	u32 type;
};

/* One callback to make: the arguments, and FilterData's bytes. */
struct etw_kitem {
	struct list_head node;
	struct etw_waiter *waiter;
	GUID source_id;
	u32 code;
	u8 level;
	u64 match_any;
	u64 match_all;
	bool has_filter;
	u32 filter_type;
	u32 filter_size;
	u8 data[];
};

static void etw_kitem_free(struct etw_kitem *item)
{
	etw_waiter_done(item->waiter);
	kfree(item);
}

static void etw_kreg_work(struct work_struct *work)
{
	struct etw_kreg *k = container_of(work, struct etw_kreg, work);
	struct etw_kfilter_desc fd;
	struct etw_kitem *item;

	for (;;) {
		spin_lock(&k->lock);
		item = list_first_entry_or_null(&k->pending, struct etw_kitem,
						node);
		if (item)
			list_del(&item->node);
		spin_unlock(&k->lock);
		if (!item)
			return;
		fd.ptr = (uintptr_t)item->data;
		fd.size = item->filter_size;
		fd.type = item->filter_type;
		k->callback(&item->source_id, item->code, item->level,
			    item->match_any, item->match_all,
			    item->has_filter ? (void *)&fd : NULL, k->context);
		etw_kitem_free(item);
	}
}

void etw_kreg_notify_init(struct etw_kreg *k)
{
	spin_lock_init(&k->lock);
	INIT_LIST_HEAD(&k->pending);
	INIT_WORK(&k->work, etw_kreg_work);
}

/*
 * The registry's notification @n for @r, with @filter (or NULL), counted
 * by the controller's waiter @w (or NULL).  etw_lock held.
 */
void etw_kreg_notify(struct etw_reg *r, const struct etw_notification *n,
		     const struct etw_cb_filter *filter, struct etw_waiter *w)
{
	struct etw_kreg *k = etw_kreg_of(r);
	u32 size = filter ? filter->size : 0;
	struct etw_kitem *item;

	if (!k->callback)
		return;
	item = kzalloc(struct_size(item, data, size), GFP_KERNEL);
	if (!item) {
		etw_kreg_dropped(r);
		return;
	}
	memcpy(&item->source_id, n->source_id, sizeof(item->source_id));
	item->code = n->control_code;
	item->level = n->level;
	item->match_any = n->match_any;
	item->match_all = n->match_all;
	if (filter) {
		item->has_filter = true;
		item->filter_type = filter->type;
		item->filter_size = filter->size;
		memcpy(item->data, filter->data, size);
	}
	etw_waiter_hold(w);
	item->waiter = w;
	spin_lock(&k->lock);
	list_add_tail(&item->node, &k->pending);
	spin_unlock(&k->lock);
	queue_work(system_unbound_wq, &k->work);
}

/* A notification that could not be made (no memory): counted. */
void etw_kreg_dropped(struct etw_reg *r)
{
	struct etw_kreg *k = etw_kreg_of(r);

	spin_lock(&k->lock);
	k->dropped++;
	spin_unlock(&k->lock);
}

/*
 * EtwUnregister, once the registration left its provider (nothing more is
 * queued): wait for a callback that runs, drop those not made yet.
 */
void etw_kreg_notify_stop(struct etw_kreg *k)
{
	struct etw_kitem *item, *tmp;
	LIST_HEAD(gone);

	cancel_work_sync(&k->work);
	spin_lock(&k->lock);
	list_splice_init(&k->pending, &gone);
	spin_unlock(&k->lock);
	list_for_each_entry_safe(item, tmp, &gone, node)
		etw_kitem_free(item);
}
