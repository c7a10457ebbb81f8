// SPDX-License-Identifier: GPL-2.0
/*
 * What a process reads about its own registrations: the enable-state page
 * it maps read-only (EventEnabled without a system call) and the queue of
 * enable notifications it read()s to run its callbacks.
 */
#include <linux/slab.h>
#include <linux/uaccess.h>
#include <linux/vmalloc.h>

#include "internal.h"

/* Allocate the file's state area once; ef->lock held. */
int etw_state_alloc(struct etw_file *ef)
{
	lockdep_assert_held(&ef->lock);
	if (ef->state)
		return 0;
	ef->state = vmalloc_user(ETW_MMAP_STATE_SIZE);
	return ef->state ? 0 : -ENOMEM;
}

/*
 * Publish a registration's aggregate state.  Updates are serialised by
 * etw_lock; readers in userspace use @seq as a seqcount (see the uapi).
 */
void etw_state_set(struct etw_file *ef, u32 slot, bool enabled, u8 level,
		   u64 any, u64 all)
{
	struct etw_reg_state *st = &ef->state[slot];
	u32 seq = READ_ONCE(st->seq);

	lockdep_assert_held(&etw_lock);
	WRITE_ONCE(st->seq, seq + 1);
	smp_wmb();	/* seq odd before the fields change */
	WRITE_ONCE(st->level, level);
	WRITE_ONCE(st->match_any, any);
	WRITE_ONCE(st->match_all, all);
	WRITE_ONCE(st->enabled, enabled);
	smp_wmb();	/* fields before seq even */
	WRITE_ONCE(st->seq, seq + 2);
}

void etw_notify_queue(struct etw_file *ef, const struct etw_notification *n)
{
	struct etw_notify *item;

	item = kmalloc(sizeof(*item), GFP_KERNEL);
	spin_lock(&ef->notify_lock);
	if (!item || ef->notify_count >= ETW_MAX_PENDING_NOTIFY) {
		/* The state page still holds the latest state. */
		ef->notify_dropped++;
		spin_unlock(&ef->notify_lock);
		kfree(item);
		return;
	}
	item->n = *n;
	item->n.size = sizeof(item->n);
	list_add_tail(&item->node, &ef->notify);
	ef->notify_count++;
	spin_unlock(&ef->notify_lock);
	wake_up_interruptible(&ef->notify_wait);
}

void etw_notify_flush(struct etw_file *ef)
{
	struct etw_notify *item, *tmp;

	list_for_each_entry_safe(item, tmp, &ef->notify, node) {
		list_del(&item->node);
		kfree(item);
	}
	ef->notify_count = 0;
}

/* Drop queued notifications of a registration whose id may be reused. */
void etw_notify_forget(struct etw_file *ef, u32 reg_id)
{
	struct etw_notify *item, *tmp;

	spin_lock(&ef->notify_lock);
	list_for_each_entry_safe(item, tmp, &ef->notify, node) {
		if (item->n.reg_id != reg_id)
			continue;
		list_del(&item->node);
		ef->notify_count--;
		kfree(item);
	}
	spin_unlock(&ef->notify_lock);
}

static struct etw_notify *etw_notify_pop(struct etw_file *ef, size_t len,
					 int *err)
{
	struct etw_notify *item;

	spin_lock(&ef->notify_lock);
	item = list_first_entry_or_null(&ef->notify, struct etw_notify, node);
	if (item && len < item->n.size) {
		*err = -EINVAL;
		item = NULL;
	} else if (item) {
		list_del(&item->node);
		ef->notify_count--;
	}
	spin_unlock(&ef->notify_lock);
	return item;
}

/* Return whole notifications only; block unless @nonblock. */
ssize_t etw_notify_read(struct etw_file *ef, char __user *buf, size_t len,
			bool nonblock)
{
	struct etw_notify *item;
	ssize_t done = 0;
	int err = 0;
	int ret;

	for (;;) {
		item = etw_notify_pop(ef, len - done, &err);
		if (!item) {
			if (done || err)
				break;
			if (nonblock)
				return -EAGAIN;
			ret = wait_event_interruptible(ef->notify_wait,
						       READ_ONCE(ef->notify_count));
			if (ret)
				return ret;
			continue;
		}
		if (copy_to_user(buf + done, &item->n, item->n.size)) {
			kfree(item);
			return done ? done : -EFAULT;
		}
		done += item->n.size;
		kfree(item);
	}
	return done ? done : err;
}
