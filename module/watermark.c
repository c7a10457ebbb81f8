// SPDX-License-Identifier: GPL-2.0
/*
 * The wake-up watermark of a consumer (uapi/linux/etw.h, "The wake-up
 * watermark"): a consumer that pays per request rather than per byte asks
 * to be woken for several buffers at once.  It is woken earlier when the
 * session's writers run low on buffers, so waiting never costs an event,
 * and at once for what a flush published, so FlushTimer, FlushTrace and
 * STOP deliver as before.  All of it under the session's pool_lock, where
 * buffers are published and taken.
 */
#include <linux/cpumask.h>
#include <linux/minmax.h>

#include "internal.h"

/*
 * The writers' reserve: a quarter of MaximumBuffers, at least one per
 * online CPU.  The pool grows to keep more than this free (buffer.c); a
 * consumer is woken, whatever its watermark, when it is all that is left.
 */
u32 etw_pool_reserve(struct etw_session *s)
{
	return max(s->max_buffers / 4, num_online_cpus());
}

/*
 * Is @c low on room?  The first consumer: the buffers the writers can
 * take now (free, or given back by the consumer but not yet reclaimed)
 * are the reserve or fewer.  Buffers the pool has yet to allocate do not
 * count: the work item that allocates them may lag behind the writers.
 * A copy consumer: a quarter of its copy slots or fewer are free (a copy
 * that finds none is lost).
 */
static bool etw_consumer_low_locked(struct etw_session *s,
				    struct etw_consumer *c, u64 tail)
{
	if (c->copies)
		return c->nr_copies - (c->head - tail) <= max(c->nr_copies / 4, 1U);
	return s->nr_free + (tail - c->reclaimed) <= etw_pool_reserve(s);
}

/* Would poll() report EPOLLIN to @c?  pool_lock held. */
bool etw_consumer_ready_locked(struct etw_session *s, struct etw_consumer *c)
{
	u64 tail = READ_ONCE(c->ctrl->tail);
	u32 wm = READ_ONCE(c->ctrl->watermark);

	if (tail == c->head)
		return false;
	/* No watermark, or a tail the kernel ignores: ready, as in ABI 1.0. */
	if (!wm || tail - c->reclaimed > c->head - c->reclaimed)
		return true;
	/* A flush published entries the consumer has not finished with. */
	if ((s64)(c->urgent - tail) > 0)
		return true;
	/*
	 * A watermark beyond what can be ready is in effect "when low": the
	 * consumer never waits for buffers the writers still need.
	 */
	return c->head - tail >= wm || etw_consumer_low_locked(s, c, tail);
}

/* Is any consumer of @s ready (a sleeping poll() to wake)?  pool_lock held. */
bool etw_consumers_ready_locked(struct etw_session *s)
{
	struct etw_consumer *c;

	if (s->consumer && etw_consumer_ready_locked(s, s->consumer))
		return true;
	list_for_each_entry(c, &s->copiers, copier_node)
		if (etw_consumer_ready_locked(s, c))
			return true;
	return false;
}

/*
 * A flush: every entry published so far is delivered whatever the
 * consumers' watermarks.  pool_lock held.
 */
void etw_consumers_urge_locked(struct etw_session *s)
{
	struct etw_consumer *c;

	if (s->consumer)
		s->consumer->urgent = s->consumer->head;
	list_for_each_entry(c, &s->copiers, copier_node)
		c->urgent = c->head;
}
