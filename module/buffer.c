// SPDX-License-Identifier: GPL-2.0
/*
 * Session buffers: each is an ETL buffer (0x48-byte header, 8-aligned
 * records, 0xFF fill).  A CPU writes only into its own current buffer, with
 * preemption disabled; when it is full the buffer is finished (header
 * filled, tail filled) and handed over, and a free buffer is taken.  Only
 * the hand-over touches the pool lock.
 *
 * The pool starts with MinimumBuffers and grows towards MaximumBuffers in a
 * work item, never in the write path: a writer that finds no free buffer
 * loses its event (counted) and asks for more.  A logger that attaches
 * grows it to MaximumBuffers at once (etw_buffers_fill()).  Each buffer is its own
 * vmalloc_user() allocation in a fixed slot, so a consumer can map the
 * slots (consumer.c) while the pool grows.
 */
#include <linux/cpu.h>
#include <linux/gfp.h>
#include <linux/log2.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/poll.h>
#include <linux/slab.h>
#include <linux/vmalloc.h>
#include <linux/workqueue.h>

#include "etl.h"
#include "internal.h"

/* Memory all sessions' buffers may use, in MiB. */
static unsigned int max_buffer_memory_mb = 256;
module_param(max_buffer_memory_mb, uint, 0644);
MODULE_PARM_DESC(max_buffer_memory_mb, "Total buffer memory of all sessions, MiB");

/* Bytes of buffer memory of all sessions, against max_buffer_memory_mb. */
static atomic64_t etw_buffer_bytes = ATOMIC64_INIT(0);

/* Count @bytes against max_buffer_memory_mb; false if over it. */
bool etw_buffer_memory_charge(u64 bytes)
{
	if (atomic64_add_return(bytes, &etw_buffer_bytes) <=
	    (s64)READ_ONCE(max_buffer_memory_mb) << 20)
		return true;
	atomic64_sub(bytes, &etw_buffer_bytes);
	return false;
}

void etw_buffer_memory_uncharge(u64 bytes)
{
	atomic64_sub(bytes, &etw_buffer_bytes);
}

/*
 * A buffer's memory, zeroed: one compound page when the stride is a power
 * of two and the allocator has one at hand, else vmalloc_user().  A
 * consumer maps either.  The compound page is for O_DIRECT from the
 * consumer's mapping: GUP-fast pins a page of a large folio, but falls
 * back to the slow walk (the mmap lock, a page-table walk per page) for
 * an order-0 page without a mapping, as vmalloc's are, on kernels with
 * CONFIG_SECRETMEM (6.12).
 */
static void *etw_buffer_mem_alloc(u32 stride)
{
	struct page *page = NULL;

	if (is_power_of_2(stride))
		page = alloc_pages(GFP_KERNEL | __GFP_ZERO | __GFP_COMP |
				   __GFP_NOWARN | __GFP_NORETRY,
				   get_order(stride));
	return page ? page_address(page) : vmalloc_user(stride);
}

/* The page of buffer memory at @p (for a consumer's mapping). */
struct page *etw_buffer_mem_page(void *p)
{
	return is_vmalloc_addr(p) ? vmalloc_to_page(p) : virt_to_page(p);
}

/* Mapped pages hold references of their own: they go when unmapped. */
static void etw_buffer_mem_free(void *p)
{
	if (is_vmalloc_addr(p))
		vfree(p);
	else
		put_page(virt_to_page(p));
}

static struct etw_buffer *etw_buffer_alloc(struct etw_session *s)
{
	struct etw_buffer *b;

	if (!etw_buffer_memory_charge(s->stride))
		return NULL;
	b = kzalloc(sizeof(*b), GFP_KERNEL);
	if (!b)
		goto out_unaccount;
	b->data = etw_buffer_mem_alloc(s->stride);
	if (b->data)
		return b;
	kfree(b);
out_unaccount:
	etw_buffer_memory_uncharge(s->stride);
	return NULL;
}

/* Give @b a slot and put it on the free list.  pool_lock held. */
static void etw_buffer_add_locked(struct etw_session *s, struct etw_buffer *b)
{
	b->slot = s->nr_buffers;
	/* The consumer's fault handler reads the slot without the lock. */
	smp_store_release(&s->slots[b->slot], b);
	s->nr_buffers++;
	list_add_tail(&b->node, &s->free);
	s->nr_free++;
}

/*
 * Keep more free than the writers' reserve (etw_pool_reserve()): a CPU
 * may need a buffer soon, and a consumer waiting for its watermark is
 * woken when the free buffers fall to the reserve.
 */
static bool etw_pool_wants_more(struct etw_session *s)
{
	return !s->stopped && s->nr_free <= etw_pool_reserve(s) &&
	       s->nr_buffers < s->max_buffers;
}

static void etw_wake_consumer(struct etw_session *s)
{
	if (wq_has_sleeper(&s->wait))
		wake_up_interruptible_poll(&s->wait, EPOLLIN | EPOLLRDNORM);
}

/*
 * Grow the pool in the work item if it wants more: at a writer's new
 * buffer, and when a consumer attaches (it will hold buffers: the pool
 * grows before the first events rather than behind them).  pool_lock held.
 */
void etw_buffers_grow_locked(struct etw_session *s)
{
	if (etw_pool_wants_more(s))
		queue_work(system_unbound_wq, &s->grow_work);
}

/* A buffer that never joined the pool. */
static void etw_buffer_destroy(struct etw_session *s, struct etw_buffer *b)
{
	etw_buffer_mem_free(b->data);
	kfree(b);
	etw_buffer_memory_uncharge(s->stride);
}

/* A logger's pool: everything MaximumBuffers allows, now. */
static bool etw_pool_below_maximum(struct etw_session *s)
{
	return !s->stopped && s->nr_buffers < s->max_buffers;
}

/*
 * Allocate buffers while @want says the pool needs one.  Two may grow the
 * pool at once (the work item, a logger attaching): each buffer is added
 * only if MaximumBuffers still has room for it.
 */
static void etw_buffers_grow_while(struct etw_session *s,
				   bool (*want)(struct etw_session *s))
{
	struct etw_buffer *b;
	bool more, added;

	for (;;) {
		spin_lock(&s->pool_lock);
		more = want(s);
		spin_unlock(&s->pool_lock);
		if (!more)
			return;
		b = etw_buffer_alloc(s);
		if (!b)
			return;	/* the memory cap: writers go on losing events */
		spin_lock(&s->pool_lock);
		added = s->nr_buffers < s->max_buffers;
		if (added)
			etw_buffer_add_locked(s, b);
		spin_unlock(&s->pool_lock);
		if (!added) {
			etw_buffer_destroy(s, b);
			return;
		}
	}
}

static void etw_buffer_grow_fn(struct work_struct *work)
{
	struct etw_session *s = container_of(work, struct etw_session, grow_work);

	etw_buffers_grow_while(s, etw_pool_wants_more);
}

/*
 * A logger attached: the pool grows to MaximumBuffers at once, in the
 * attaching process.  A file session's writers need the whole pool at
 * their first burst, before the logger has given a buffer back, and the
 * work item that grows the pool on demand runs behind them (it is queued
 * at a buffer switch and then scheduled); a session nobody writes to a
 * file keeps MinimumBuffers until its writers need more.
 */
void etw_buffers_fill(struct etw_session *s)
{
	etw_buffers_grow_while(s, etw_pool_below_maximum);
}

/*
 * The pool: MinimumBuffers now (MaximumBuffers for a buffering-mode ring,
 * which must not lose its oldest buffers while it grows); slots for every
 * buffer the session may ever own.
 */
int etw_buffers_init(struct etw_session *s)
{
	u64 cap = (u64)READ_ONCE(max_buffer_memory_mb) << 20;
	u32 i, n = s->info.min_buffers;
	struct etw_buffer *b;

	s->stride = PAGE_ALIGN(s->buffer_size);
	s->max_buffers = s->info.max_buffers;
	s->nr_slots = s->max_buffers;
	if (s->info.log_file_mode & ETW_MODE_BUFFERING)
		n = s->max_buffers;
	INIT_LIST_HEAD(&s->free);
	INIT_LIST_HEAD(&s->held);
	INIT_LIST_HEAD(&s->ready);
	INIT_WORK(&s->grow_work, etw_buffer_grow_fn);
	/* UPDATE may raise MaximumBuffers up to what the memory cap allows. */
	s->nr_slots = max_t(u64, s->nr_slots,
			    div_u64(cap, s->stride));
	s->nr_slots = min_t(u32, s->nr_slots, ETW_MAX_SESSION_BUFFERS);
	s->slots = kvcalloc(s->nr_slots, sizeof(*s->slots), GFP_KERNEL);
	if (!s->slots)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		b = etw_buffer_alloc(s);
		if (!b) {
			etw_buffers_free(s);
			return -ENOMEM;
		}
		etw_buffer_add_locked(s, b);
	}
	return 0;
}

/* The session is unreachable: no writer, no consumer, no work. */
void etw_buffers_free(struct etw_session *s)
{
	u32 i;

	cancel_work_sync(&s->grow_work);
	for (i = 0; i < s->nr_buffers; i++) {
		etw_buffer_mem_free(s->slots[i]->data);
		kfree(s->slots[i]);
		atomic64_sub(s->stride, &etw_buffer_bytes);
	}
	kvfree(s->slots);
}

/*
 * UPDATE: a higher MaximumBuffers, shown in the consumers' rings.  The
 * pool grows when it needs to, but a logger's grows at once, as when it
 * attached (etw_buffers_fill()): else its writers would be short of
 * buffers, and the logger woken for each, until the work item caught up.
 */
void etw_buffers_raise_max(struct etw_session *s, u32 max_buffers)
{
	bool logger;

	spin_lock(&s->pool_lock);
	s->max_buffers = max_buffers;
	s->info.max_buffers = max_buffers;
	etw_consumers_max_raised_locked(s);
	logger = etw_logger_attached_locked(s);
	spin_unlock(&s->pool_lock);
	if (logger)
		etw_buffers_fill(s);
}

void etw_buffer_free_locked(struct etw_session *s, struct etw_buffer *b)
{
	list_add_tail(&b->node, &s->free);
	s->nr_free++;
}

/*
 * A buffer to write into: a free one, one the consumer gave back, or in
 * buffering mode (a memory ring) the oldest held one.  pool_lock held.
 */
static struct etw_buffer *etw_pool_get(struct etw_session *s)
{
	struct etw_buffer *b;

	/* What the consumer gave back counts as free before the pool grows. */
	etw_consumer_reclaim_locked(s);
	b = list_first_entry_or_null(&s->free, struct etw_buffer, node);
	if (b)
		s->nr_free--;
	else if (s->info.log_file_mode & ETW_MODE_BUFFERING)
		b = list_first_entry_or_null(&s->held, struct etw_buffer, node);
	if (b)
		list_del(&b->node);
	etw_buffers_grow_locked(s);
	return b;
}

/*
 * Output: to the attached consumer, or the ready list; a copy to each
 * copy consumer.  pool_lock held.
 */
static void etw_buffer_output_locked(struct etw_session *s, struct etw_buffer *b)
{
	if (s->nr_copiers)
		etw_consumer_copy_locked(s, b);
	if (s->consumer)
		etw_consumer_publish_locked(s->consumer, b);
	else
		list_add_tail(&b->node, &s->ready);
}

/* Finish a buffer's header and tail, before it is handed over. */
static void etw_buffer_finish(struct etw_session *s, struct etw_buffer *b,
			      bool final)
{
	struct etl_buffer_header *h = (struct etl_buffer_header *)b->data;

	memset(h, 0, sizeof(*h));
	h->buffer_size = s->buffer_size;
	h->saved_offset = b->offset;
	h->current_offset = b->offset;
	h->timestamp = etw_clock();
	h->processor_index = b->cpu;
	h->logger_id = s->info.logger_id;
	h->state = ETL_BUFFER_STATE_FLUSH;
	h->offset = b->offset;
	h->buffer_flag = ETL_BUFFER_FLAG_PROC_INDEX;
	if (final)
		h->buffer_flag |= ETL_BUFFER_FLAG_FLUSH_MARKER;
	if (b->events_lost)
		h->buffer_flag |= ETL_BUFFER_FLAG_EVENTS_LOST;
	h->buffer_type = ETL_BUFFER_TYPE_GENERIC;
	memset(b->data + b->offset, 0xff, s->buffer_size - b->offset);
}

/* Hand a finished buffer over: its SequenceNumber, then out.  pool_lock held. */
static void etw_buffer_hand_over_locked(struct etw_session *s,
					struct etw_buffer *b)
{
	struct etl_buffer_header *h = (struct etl_buffer_header *)b->data;

	b->sequence = ++s->sequence;
	h->sequence_number = b->sequence;
	if (s->info.log_file_mode & ETW_MODE_BUFFERING)
		list_add_tail(&b->node, &s->held);
	else
		etw_buffer_output_locked(s, b);
}

/*
 * Buffering mode: the memory ring is written out (FLUSH, or @stop).  At
 * stop, mark the session stopped for its consumer, after the last buffer.
 */
void etw_buffers_output_held(struct etw_session *s, bool stop)
{
	struct etw_buffer *b, *n;

	spin_lock(&s->pool_lock);
	list_for_each_entry_safe(b, n, &s->held, node) {
		list_del(&b->node);
		etw_buffer_output_locked(s, b);
	}
	/* FLUSH, the FlushTimer, STOP: delivered whatever the watermarks. */
	etw_consumers_urge_locked(s);
	if (stop) {
		s->stopped = true;
		etw_consumer_stopped_locked(s);
	}
	spin_unlock(&s->pool_lock);
	if (stop)
		wake_up_interruptible_poll(&s->wait, EPOLLIN | EPOLLHUP);
	else
		etw_wake_consumer(s);
}

/*
 * etw_buffer_reserve() found no room in this CPU's buffer (or none): hand
 * it over and take a free one.  NULL: no buffer free.  Preemption disabled.
 */
void *etw_buffer_switch(struct etw_session *s, struct etw_cpu *c)
{
	struct etw_buffer *b = c->cur;
	bool wake;

	if (b) {
		c->cur = NULL;
		etw_buffer_finish(s, b, false);
	}
	/* One lock for both: the full buffer out, a free one in. */
	spin_lock(&s->pool_lock);
	if (b)
		etw_buffer_hand_over_locked(s, b);
	b = etw_pool_get(s);
	if (!b && (s->info.log_file_mode & ETW_MODE_REAL_TIME) && !c->starved)
		s->rt_buffers_lost++;
	/* The consumer's watermark, with the pool as the writers now see it. */
	wake = etw_consumers_ready_locked(s);
	spin_unlock(&s->pool_lock);
	if (wake)
		etw_wake_consumer(s);
	c->starved = !b;
	if (!b)
		return NULL;
	b->cpu = smp_processor_id();
	b->offset = ETW_BUFFER_HEADER_SIZE;
	b->events_lost = false;
	c->cur = b;
	return b->data + b->offset;
}

/*
 * A free buffer for a kernel lane (klog/lane.c), NULL if none: taken in
 * process context, installed later by the CPU that needs it.
 */
struct etw_buffer *etw_buffer_get(struct etw_session *s)
{
	struct etw_buffer *b;

	spin_lock(&s->pool_lock);
	b = etw_pool_get(s);
	spin_unlock(&s->pool_lock);
	if (b) {
		b->offset = ETW_BUFFER_HEADER_SIZE;
		b->events_lost = false;
	}
	return b;
}

/*
 * Finish and hand over a kernel lane's buffer (process context): @type
 * is its BufferType, @urgent delivers it whatever the watermarks (a
 * flush), @final marks the session's last buffer.
 */
void etw_buffer_hand_over(struct etw_session *s, struct etw_buffer *b,
			  u16 type, bool urgent, bool final)
{
	struct etl_buffer_header *h = (struct etl_buffer_header *)b->data;
	bool wake;

	etw_buffer_finish(s, b, final);
	h->buffer_type = type;
	spin_lock(&s->pool_lock);
	etw_buffer_hand_over_locked(s, b);
	if (urgent)
		etw_consumers_urge_locked(s);
	wake = urgent || etw_consumers_ready_locked(s);
	spin_unlock(&s->pool_lock);
	if (wake)
		etw_wake_consumer(s);
}

/*
 * Hand over @cpu's current buffer if it holds records (with FLUSH_MARKER
 * if @final).  The caller runs on @cpu with preemption disabled, or knows
 * no writer can touch it (the CPU is offline, or the session is
 * unreachable).
 */
void etw_buffer_flush_cpu(struct etw_session *s, unsigned int cpu, bool final)
{
	struct etw_cpu *c = per_cpu_ptr(s->cpu, cpu);
	struct etw_buffer *b = c->cur;

	if (!b || b->offset == ETW_BUFFER_HEADER_SIZE)
		return;
	c->cur = NULL;
	etw_buffer_finish(s, b, final);
	spin_lock(&s->pool_lock);
	etw_buffer_hand_over_locked(s, b);
	/* A partial buffer: everything published so far is delivered. */
	etw_consumers_urge_locked(s);
	spin_unlock(&s->pool_lock);
	etw_wake_consumer(s);
}

/* ETW_IOC_BUFFER_READ: the oldest ready buffer, or NULL. */
struct etw_buffer *etw_buffer_take(struct etw_session *s)
{
	struct etw_buffer *b;

	spin_lock(&s->pool_lock);
	b = list_first_entry_or_null(&s->ready, struct etw_buffer, node);
	if (b) {
		list_del(&b->node);
		s->buffers_written++;
	}
	spin_unlock(&s->pool_lock);
	return b;
}

/* Give back a buffer a reader could not copy out: first in line again. */
void etw_buffer_untake(struct etw_session *s, struct etw_buffer *b)
{
	spin_lock(&s->pool_lock);
	list_add(&b->node, &s->ready);
	s->buffers_written--;
	spin_unlock(&s->pool_lock);
}

void etw_buffer_release(struct etw_session *s, struct etw_buffer *b)
{
	spin_lock(&s->pool_lock);
	etw_buffer_free_locked(s, b);
	spin_unlock(&s->pool_lock);
}
