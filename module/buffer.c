// SPDX-License-Identifier: GPL-2.0
/*
 * Session buffers: each is an ETL buffer (0x48-byte header, 8-aligned
 * records, 0xFF fill).  A CPU writes only into its own current buffer, with
 * preemption disabled; when it is full the buffer is finished (header
 * filled, tail filled) and handed to the session's ready list, and a free
 * buffer is taken.  Only the hand-over touches the pool lock.
 */
#include <linux/cpu.h>
#include <linux/slab.h>
#include <linux/vmalloc.h>
#include <linux/workqueue.h>

#include "etl.h"
#include "internal.h"

int etw_buffers_init(struct etw_session *s)
{
	u32 i, n = s->info.max_buffers;

	s->area = vmalloc_user((size_t)n * s->buffer_size);
	if (!s->area)
		return -ENOMEM;
	s->buffers = kvcalloc(n, sizeof(*s->buffers), GFP_KERNEL);
	if (!s->buffers) {
		vfree(s->area);
		return -ENOMEM;
	}
	INIT_LIST_HEAD(&s->free);
	INIT_LIST_HEAD(&s->ready);
	for (i = 0; i < n; i++) {
		s->buffers[i].data = s->area + (size_t)i * s->buffer_size;
		list_add_tail(&s->buffers[i].node, &s->free);
	}
	s->nr_free = n;
	return 0;
}

void etw_buffers_free(struct etw_session *s)
{
	kvfree(s->buffers);
	vfree(s->area);
}

/*
 * A buffer to write into: a free one, or in buffering mode (a memory ring)
 * the oldest ready one.  pool_lock held.
 */
static struct etw_buffer *etw_pool_get(struct etw_session *s)
{
	struct etw_buffer *b;

	b = list_first_entry_or_null(&s->free, struct etw_buffer, node);
	if (b)
		s->nr_free--;
	else if (s->info.log_file_mode & ETW_MODE_BUFFERING)
		b = list_first_entry_or_null(&s->ready, struct etw_buffer, node);
	if (b)
		list_del(&b->node);
	return b;
}

/* Finish a buffer's header and tail and queue it for the consumer. */
void etw_buffer_hand_over(struct etw_session *s, struct etw_buffer *b,
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

	spin_lock(&s->pool_lock);
	b->sequence = ++s->sequence;
	h->sequence_number = b->sequence;
	list_add_tail(&b->node, &s->ready);
	spin_unlock(&s->pool_lock);
}

/*
 * Room for @len bytes (8-aligned, at most buffer_size - header) in this
 * CPU's buffer, switching buffers if needed.  NULL: no buffer free, the
 * caller counts the event lost.  Preemption disabled.
 */
void *etw_buffer_reserve(struct etw_session *s, struct etw_cpu *c, u32 len)
{
	struct etw_buffer *b = c->cur;

	if (b && b->offset + len <= s->buffer_size)
		return b->data + b->offset;
	if (b) {
		c->cur = NULL;
		etw_buffer_hand_over(s, b, false);
	}
	spin_lock(&s->pool_lock);
	b = etw_pool_get(s);
	spin_unlock(&s->pool_lock);
	if (!b)
		return NULL;
	b->cpu = smp_processor_id();
	b->offset = ETW_BUFFER_HEADER_SIZE;
	b->events_lost = false;
	c->cur = b;
	return b->data + b->offset;
}

void etw_buffer_commit(struct etw_cpu *c, u32 len)
{
	c->cur->offset += ALIGN(len, 8);
}

/*
 * Hand over @cpu's current buffer if it holds records.  The caller runs on
 * @cpu with preemption disabled, or knows no writer can touch it (the CPU
 * is offline, or the session is unreachable).
 */
void etw_buffer_flush_cpu(struct etw_session *s, unsigned int cpu, bool final)
{
	struct etw_cpu *c = per_cpu_ptr(s->cpu, cpu);
	struct etw_buffer *b = c->cur;

	if (!b || b->offset == ETW_BUFFER_HEADER_SIZE)
		return;
	c->cur = NULL;
	etw_buffer_hand_over(s, b, final);
}

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
	list_add_tail(&b->node, &s->free);
	s->nr_free++;
	spin_unlock(&s->pool_lock);
}
