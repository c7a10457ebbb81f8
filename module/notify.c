// SPDX-License-Identifier: GPL-2.0
/*
 * Enable notifications: the queue of each file that libetw read()s to run
 * its providers' callbacks, and the acknowledgments that let
 * EnableTraceEx2 wait for those callbacks (its Timeout).
 *
 * A notification is queued per registration, with the FilterData the
 * callback gets.  When a controller waits, the notification carries a
 * waiter and a cookie: read() moves it from the queue to the file's
 * in-flight list, and ETW_IOC_NOTIFY_ACK (sent by libetw once the callback
 * returned) completes it.  A notification also completes when it can no
 * longer be delivered: its registration goes, the file is released, or
 * copying it out fails.  The waiter's count of pending notifications then
 * reaches zero and the controller's wait ends.
 *
 * notify_lock (a spinlock, per file) protects the queue, the in-flight
 * list and their counts; it is never held while allocating or copying to
 * userspace.
 */
#include <linux/atomic.h>
#include <linux/jiffies.h>
#include <linux/refcount.h>
#include <linux/sched/signal.h>
#include <linux/slab.h>
#include <linux/uaccess.h>

#include "internal.h"

/*
 * A file holds at most this many notifications (queued and in flight),
 * and this many bytes of them: a process that never reads cannot make the
 * kernel hold more.  Beyond, notifications are dropped and counted; the
 * state page still holds the latest state.
 */
#define ETW_MAX_NOTIFY		1024
#define ETW_MAX_NOTIFY_BYTES	(1024 * 1024)

/* A controller waiting for the callbacks of its EnableTraceEx2. */
struct etw_waiter {
	refcount_t ref;
	atomic_t pending;	/* notifications not yet completed */
	wait_queue_head_t wq;
};

struct etw_notify {
	struct list_head node;
	struct etw_waiter *waiter;	/* NULL if nobody waits */
	size_t bytes;			/* allocated, for the file's limit */
	struct etw_notification n;	/* n.size covers the filter data */
	u8 data[];			/* FilterData, padded to 8 bytes */
};

/* read() copies the notification and its data in one go. */
static_assert(offsetof(struct etw_notify, data) ==
	      offsetof(struct etw_notify, n) + sizeof(struct etw_notification));

static atomic64_t etw_notify_cookie = ATOMIC64_INIT(0);

struct etw_waiter *etw_waiter_new(void)
{
	struct etw_waiter *w = kmalloc(sizeof(*w), GFP_KERNEL);

	if (!w)
		return NULL;
	refcount_set(&w->ref, 1);
	atomic_set(&w->pending, 0);
	init_waitqueue_head(&w->wq);
	return w;
}

void etw_waiter_put(struct etw_waiter *w)
{
	if (w && refcount_dec_and_test(&w->ref))
		kfree(w);
}

/* One more notification for the waiter to count (a kernel callback's). */
void etw_waiter_hold(struct etw_waiter *w)
{
	if (!w)
		return;
	refcount_inc(&w->ref);
	atomic_inc(&w->pending);
}

/* One notification the waiter counted is done. */
void etw_waiter_done(struct etw_waiter *w)
{
	if (!w)
		return;
	if (atomic_dec_and_test(&w->pending))
		wake_up_all(&w->wq);
	etw_waiter_put(w);
}

/**
 * etw_waiter_wait() - wait until every notification of the waiter is done
 * @w: the waiter, from etw_waiter_new()
 * @timeout_ms: at most this long; %ETW_TIMEOUT_INFINITE: no limit
 *
 * Killable only: EnableTraceEx2 is not interrupted by signals on Windows,
 * and the enable is already in force.
 *
 * Return: 0, -ETIMEDOUT, or -EINTR for a fatal signal.
 */
int etw_waiter_wait(struct etw_waiter *w, u32 timeout_ms)
{
	long left;

	if (timeout_ms == ETW_TIMEOUT_INFINITE)
		return wait_event_killable(w->wq, !atomic_read(&w->pending)) ?
		       -EINTR : 0;
	left = wait_event_killable_timeout(w->wq, !atomic_read(&w->pending),
					   msecs_to_jiffies(timeout_ms));
	if (left < 0)
		return -EINTR;
	return left ? 0 : -ETIMEDOUT;
}

static void etw_notify_free(struct etw_notify *item)
{
	etw_waiter_done(item->waiter);
	kfree(item);
}

/**
 * etw_notify_queue() - queue a notification for a registration
 * @ef: the registration's file
 * @n: the notification (size, flags and cookie are set here)
 * @filter: the FilterData, or NULL for none
 * @w: the controller's waiter, or NULL if it does not wait
 */
void etw_notify_queue(struct etw_file *ef, const struct etw_notification *n,
		      const struct etw_cb_filter *filter, struct etw_waiter *w)
{
	u32 data_len = filter ? ALIGN(filter->size, 8) : 0;
	size_t bytes = sizeof(struct etw_notify) + data_len;
	struct etw_notify *item;

	item = kmalloc(bytes, GFP_KERNEL);
	spin_lock(&ef->notify_lock);
	if (!item || ef->notify_count + ef->notify_held >= ETW_MAX_NOTIFY ||
	    ef->notify_bytes + bytes > ETW_MAX_NOTIFY_BYTES) {
		ef->notify_dropped++;
		spin_unlock(&ef->notify_lock);
		kfree(item);
		return;
	}
	item->n = *n;
	item->n.size = sizeof(item->n) + data_len;
	item->n.flags = 0;
	item->n.filter_type = 0;
	item->n.filter_size = 0;
	item->n.cookie = 0;
	item->bytes = bytes;
	item->waiter = NULL;
	if (filter) {
		item->n.flags = ETW_NOTIFY_F_FILTER;
		item->n.filter_type = filter->type;
		item->n.filter_size = filter->size;
		memcpy(item->data, filter->data, filter->size);
		memset(item->data + filter->size, 0, data_len - filter->size);
	}
	if (w) {
		etw_waiter_hold(w);
		item->waiter = w;
		item->n.cookie = atomic64_inc_return(&etw_notify_cookie);
	}
	list_add_tail(&item->node, &ef->notify);
	ef->notify_count++;
	ef->notify_bytes += bytes;
	spin_unlock(&ef->notify_lock);
	wake_up_interruptible(&ef->notify_wait);
}

/* A notification that could not be made (no memory): counted. */
void etw_notify_dropped(struct etw_file *ef)
{
	spin_lock(&ef->notify_lock);
	ef->notify_dropped++;
	spin_unlock(&ef->notify_lock);
}

/* Unlink @item from whichever list holds it; notify_lock held. */
static void etw_notify_unlink(struct etw_file *ef, struct etw_notify *item,
			      bool held)
{
	list_del(&item->node);
	if (held)
		ef->notify_held--;
	else
		ef->notify_count--;
	ef->notify_bytes -= item->bytes;
}

/* The file is being released: nothing it holds will be delivered. */
void etw_notify_flush(struct etw_file *ef)
{
	struct etw_notify *item, *tmp;

	list_for_each_entry_safe(item, tmp, &ef->notify, node) {
		etw_notify_unlink(ef, item, false);
		etw_notify_free(item);
	}
	list_for_each_entry_safe(item, tmp, &ef->inflight, node) {
		etw_notify_unlink(ef, item, true);
		etw_notify_free(item);
	}
}

/* Drop a registration's notifications, queued or in flight: it is gone. */
void etw_notify_forget(struct etw_file *ef, u32 reg_id)
{
	struct etw_notify *item, *tmp;
	LIST_HEAD(gone);

	spin_lock(&ef->notify_lock);
	list_for_each_entry_safe(item, tmp, &ef->notify, node)
		if (item->n.reg_id == reg_id) {
			etw_notify_unlink(ef, item, false);
			list_add(&item->node, &gone);
		}
	list_for_each_entry_safe(item, tmp, &ef->inflight, node)
		if (item->n.reg_id == reg_id) {
			etw_notify_unlink(ef, item, true);
			list_add(&item->node, &gone);
		}
	spin_unlock(&ef->notify_lock);
	list_for_each_entry_safe(item, tmp, &gone, node)
		etw_notify_free(item);
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
		etw_notify_unlink(ef, item, false);
	}
	spin_unlock(&ef->notify_lock);
	return item;
}

/*
 * Put a popped notification back on the queue (@held false: it could not
 * be copied out) or on the in-flight list (@held true: delivered, a
 * controller waits for its acknowledgment).  Its registration may have gone
 * meanwhile, with etw_notify_forget() finding it in neither list: it is
 * looked up under notify_lock, which etw_notify_forget() takes after
 * removing the registration, and completed if gone.
 */
static void etw_notify_relink(struct etw_file *ef, struct etw_notify *item,
			      bool held)
{
	bool gone;

	spin_lock(&ef->notify_lock);
	gone = !xa_load(&ef->regs, item->n.reg_id);
	if (!gone && held) {
		list_add_tail(&item->node, &ef->inflight);
		ef->notify_held++;
	} else if (!gone) {
		list_add(&item->node, &ef->notify);
		ef->notify_count++;
	}
	if (!gone)
		ef->notify_bytes += item->bytes;
	spin_unlock(&ef->notify_lock);
	if (gone)
		etw_notify_free(item);
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
			/* Not lost: the next read() gets it. */
			etw_notify_relink(ef, item, false);
			return done ? done : -EFAULT;
		}
		done += item->n.size;
		if (item->waiter)
			etw_notify_relink(ef, item, true);
		else
			kfree(item);
	}
	return done ? done : err;
}

/* ETW_IOC_NOTIFY_ACK: the callback of the notification @cookie returned. */
int etw_notify_ack(struct etw_file *ef, struct etw_notify_ack *arg)
{
	struct etw_notify *item, *found = NULL;

	if (arg->flags || arg->reserved[0] || arg->reserved[1] || !arg->cookie)
		return -EINVAL;
	spin_lock(&ef->notify_lock);
	list_for_each_entry(item, &ef->inflight, node)
		if (item->n.cookie == arg->cookie) {
			found = item;
			etw_notify_unlink(ef, item, true);
			break;
		}
	spin_unlock(&ef->notify_lock);
	if (!found)
		return -ENOENT;
	etw_notify_free(found);
	return 0;
}
