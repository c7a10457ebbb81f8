// SPDX-License-Identifier: GPL-2.0
/*
 * Stopped sessions kept for their logger.  A file session's file is
 * written by a process (`etw logger`), and a process can die.  A session
 * that stops while a logger is attached, or after the last one detached
 * with ETW_CTRL_KEEP set in its control page, is kept: off the session
 * table (its name and logger id are free at once, as after StopTrace on
 * Windows) but with its buffers and statistics, until a first consumer
 * detaches having given back everything after the stop.  The logger's
 * word counts when it detaches, not at STOP (a logger that has just
 * attached has not given it yet): one that leaves without ETW_CTRL_KEEP
 * gives up, one that dies with it leaves the session kept, and the next
 * attaches by the session's GUID and drains it.  A kept session without
 * a consumer for keep_timeout_s is discarded, and so is one discarded by
 * hand (ETW_CONTROL_DISCARD).  What a discarded session
 * held is counted lost in the statistics STOP returns (LogBuffersLost,
 * EventsLost).
 *
 * The list holds a reference to each session (the table's, handed over at
 * STOP); the timeout work holds another while it is pending.  Kept
 * sessions keep their buffer memory, charged to max_buffer_memory_mb, and
 * the module reference every session holds.
 */
#include <linux/list.h>
#include <linux/moduleparam.h>
#include <linux/string.h>
#include <linux/workqueue.h>

#include "internal.h"

/*
 * The kept-session limits, in seconds, module parameters writable from 1
 * to 3600 (a new value applies to the next wait armed): how long a kept
 * session waits for a logger to attach, and how long STOP waits for an
 * attached logger to write the last buffers and detach.
 */
#define ETW_KEEP_SECONDS_MAX	3600

static int etw_keep_seconds_set(const char *val, const struct kernel_param *kp)
{
	return param_set_uint_minmax(val, kp, 1, ETW_KEEP_SECONDS_MAX);
}

static const struct kernel_param_ops etw_keep_seconds_ops = {
	.set = etw_keep_seconds_set,
	.get = param_get_uint,
};

static unsigned int keep_timeout_s = 10;
module_param_cb(keep_timeout_s, &etw_keep_seconds_ops, &keep_timeout_s, 0644);
MODULE_PARM_DESC(keep_timeout_s, "Seconds a kept session waits for a logger (1-3600)");

static unsigned int stop_wait_s = 60;
module_param_cb(stop_wait_s, &etw_keep_seconds_ops, &stop_wait_s, 0644);
MODULE_PARM_DESC(stop_wait_s, "Seconds STOP waits for a session's logger (1-3600)");

#define ETW_KEEP_TIMEOUT	(READ_ONCE(keep_timeout_s) * HZ)

/* How long STOP waits for the logger (consumer.c). */
unsigned long etw_keep_stop_wait(void)
{
	return READ_ONCE(stop_wait_s) * HZ;
}

static LIST_HEAD(etw_kept);		/* etw_lock */
static unsigned int etw_nr_kept;	/* etw_lock, at most ETW_MAX_SESSIONS */

static void etw_keep_timeout_fn(struct work_struct *work);

void etw_keep_init(struct etw_session *s)
{
	INIT_LIST_HEAD(&s->kept_node);
	INIT_DELAYED_WORK(&s->keep_work, etw_keep_timeout_fn);
}

/*
 * The timeout of kept @s: @restart: from now, else only if it is not
 * running already.  etw_lock held.
 */
static void etw_keep_arm(struct etw_session *s, bool restart)
{
	bool pending = restart ?
		mod_delayed_work(system_wq, &s->keep_work, ETW_KEEP_TIMEOUT) :
		!queue_delayed_work(system_wq, &s->keep_work, ETW_KEEP_TIMEOUT);

	/* A pending work holds one reference, however often it is re-armed. */
	if (!pending)
		kref_get(&s->ref);
}

/* Off the list; the list's reference is the caller's to drop.  etw_lock held. */
static void etw_keep_remove(struct etw_session *s)
{
	list_del_init(&s->kept_node);
	etw_nr_kept--;
	WRITE_ONCE(s->kept, false);
	/* Not the last reference: the list's is still held. */
	if (cancel_delayed_work(&s->keep_work))
		etw_session_put(s);
	wake_up_all(&s->wait);
}

/* Records in a handed-over buffer: each starts with its 16-bit size. */
static u32 etw_buffer_records(const struct etw_buffer *b)
{
	u32 off = ETW_BUFFER_HEADER_SIZE, n = 0;
	u16 size;

	while (off + sizeof(size) <= b->offset) {
		size = *(const u16 *)(b->data + off);
		if (!size)
			break;
		off += ALIGN(size, 8);
		n++;
	}
	return n;
}

/*
 * The timeout: no consumer came, what the session holds is lost.  false
 * if a consumer is attached after all.  etw_lock held.
 */
static bool etw_keep_discard(struct etw_session *s)
{
	struct etw_buffer *b, *n;

	spin_lock(&s->pool_lock);
	if (s->consumer) {
		spin_unlock(&s->pool_lock);
		return false;
	}
	list_for_each_entry_safe(b, n, &s->ready, node) {
		list_del(&b->node);
		s->discarded_events += etw_buffer_records(b);
		s->discarded_buffers++;
		etw_buffer_free_locked(s, b);
	}
	s->keep = false;
	spin_unlock(&s->pool_lock);
	etw_keep_remove(s);
	return true;
}

static void etw_keep_timeout_fn(struct work_struct *work)
{
	struct etw_session *s = container_of(to_delayed_work(work),
					     struct etw_session, keep_work);
	bool discarded = false;

	mutex_lock(&etw_lock);
	if (s->kept)
		discarded = etw_keep_discard(s);
	mutex_unlock(&etw_lock);
	if (discarded)
		etw_session_put(s);	/* the list's */
	etw_session_put(s);		/* the work's */
}

/*
 * STOP, after the last buffers were output: keep @s if a logger asked for
 * it.  true: the list took over the table's reference.  etw_lock held.
 */
bool etw_keep_stopped(struct etw_session *s)
{
	bool keep;

	lockdep_assert_held(&etw_lock);
	spin_lock(&s->pool_lock);
	/*
	 * A logger attached: kept until it detaches, when its last word
	 * decides (etw_keep_detached()), not the word its control page holds
	 * now, which a logger that has just attached has not written yet.
	 * Else the last logger's word.  Attaches bind under etw_lock
	 * (consumer.c): none comes between this and the table's removal.
	 */
	keep = s->keep || etw_logger_attached_locked(s);
	spin_unlock(&s->pool_lock);
	if (!keep || etw_nr_kept >= ETW_MAX_SESSIONS)
		return false;
	list_add_tail(&s->kept_node, &etw_kept);
	etw_nr_kept++;
	WRITE_ONCE(s->kept, true);
	/* Does nothing while a consumer is attached: its detach re-arms it. */
	etw_keep_arm(s, true);
	return true;
}

/* The kept session @logger_id with @guid, with a reference.  etw_lock held. */
struct etw_session *etw_keep_find(u32 logger_id, const u8 *guid)
{
	struct etw_session *s;

	lockdep_assert_held(&etw_lock);
	list_for_each_entry(s, &etw_kept, kept_node) {
		if (s->info.logger_id == logger_id &&
		    !memcmp(s->info.guid, guid, sizeof(s->info.guid))) {
			kref_get(&s->ref);
			return s;
		}
	}
	return NULL;
}

/*
 * The first consumer of kept @s is gone; @drained: it gave back every
 * buffer after the stop.  The session is done then, or when the word of
 * the last logger is not ETW_CTRL_KEEP (what is left is lost, counted);
 * else it waits for the next logger: @restart: with a new timeout (a
 * detach), else the one that runs (an undone attach).
 */
static void etw_keep_consumer_gone(struct etw_session *s, bool drained,
				   bool restart)
{
	bool done = false;

	mutex_lock(&etw_lock);
	if (s->kept && drained) {
		spin_lock(&s->pool_lock);
		s->keep = false;
		spin_unlock(&s->pool_lock);
		etw_keep_remove(s);
		done = true;
	} else if (s->kept && !READ_ONCE(s->keep)) {
		done = etw_keep_discard(s);
	} else if (s->kept) {
		etw_keep_arm(s, restart);
	}
	mutex_unlock(&etw_lock);
	if (done)
		etw_session_put(s);	/* the list's */
}

/*
 * The first consumer of @s detached; @drained: the session had stopped
 * and it gave back every buffer.  A kept session is done then, or when a
 * logger left it without ETW_CTRL_KEEP; else it waits for the next logger.
 */
void etw_keep_detached(struct etw_session *s, bool drained)
{
	etw_keep_consumer_gone(s, drained, true);
}

/*
 * An attach to @s was undone (its caller never got the fd): @s is as if
 * it had never come.  Kept on the word of an earlier logger, it waits for
 * a logger as before (its timeout runs on, or starts again if it ran out
 * meanwhile: it discards nothing while a consumer is attached); kept only
 * because this logger was attached at STOP, it is discarded as a logger
 * that left without ETW_CTRL_KEEP would have it.
 */
void etw_keep_attach_undone(struct etw_session *s)
{
	etw_keep_consumer_gone(s, false, false);
}

/**
 * etw_keep_discard_request() - ETW_CONTROL_DISCARD: give up a kept session
 * @arg: the request: the kept session whose GUID is @arg->info.guid, or if
 *	that is zero, whose name is @arg->info.name; with @arg->logger_id not
 *	zero, only the one that had that logger id
 *
 * What the session holds is lost and counted, as when its timeout runs
 * out, and a STOP waiting for it returns.
 *
 * Return: 0 and the session's final statistics in @arg->info; -ENOENT if
 * no kept session matches; -EBUSY while a logger is attached to it (it may
 * be draining it: end that logger first).
 */
int etw_keep_discard_request(struct etw_session_control *arg)
{
	bool by_guid = memchr_inv(arg->info.guid, 0, sizeof(arg->info.guid));
	struct etw_session *s, *found = NULL;
	bool discarded = false;

	arg->info.name[ETW_MAX_NAME - 1] = 0;
	mutex_lock(&etw_lock);
	list_for_each_entry(s, &etw_kept, kept_node) {
		if (arg->logger_id && s->info.logger_id != arg->logger_id)
			continue;
		if (by_guid ? memcmp(s->info.guid, arg->info.guid, sizeof(s->info.guid)) :
			      strcmp(s->info.name, arg->info.name))
			continue;
		found = s;
		break;
	}
	if (found) {
		kref_get(&found->ref);
		discarded = etw_keep_discard(found);
	}
	mutex_unlock(&etw_lock);
	if (!found)
		return -ENOENT;
	if (discarded)
		etw_session_put(found);	/* the list's */
	etw_session_stats(found, &arg->info);
	etw_session_put(found);
	return discarded ? 0 : -EBUSY;
}
