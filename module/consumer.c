// SPDX-License-Identifier: GPL-2.0
/*
 * The mmap consumer of a session (uapi/linux/etw.h, "The mmap consumer
 * protocol"): ETW_IOC_CONSUMER_ATTACH makes a consumer fd whose mappings
 * are a control page the consumer writes, a read-only ring of published
 * buffer slots, and the read-only buffers themselves.  Buffers are
 * published under the session's pool lock when they are handed over, and
 * come back to the free list when the consumer's tail passes them (read by
 * the writer that runs out of buffers, by poll(), by detach): releasing a
 * buffer needs no system call.
 *
 * A session in real-time mode takes more consumers beside the first (up to
 * ETW_MAX_REALTIME_CONSUMERS in all), as Windows delivers a session's
 * buffers to every real-time consumer and a file session's to real-time
 * consumers too: these *copy consumers* get copies in slots of their own,
 * so that they never hold up the first (the logger); a copy that finds no
 * free slot is lost to that consumer, counted in RealTimeBuffersLost.
 *
 * A logger that may be restarted (ETW_CTRL_KEEP in its control page) has
 * the session kept when it stops, until a logger drained it (keep.c); the
 * next logger finds it by its GUID.
 */
#include <linux/fs.h>
#include <linux/log2.h>
#include <linux/mm.h>
#include <linux/poll.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uaccess.h>
#include <linux/vmalloc.h>

#include "compat.h"
#include "internal.h"

/* A copy consumer's copies: at most this many, and this many bytes. */
#define ETW_COPY_MAX_SLOTS	64
#define ETW_COPY_MAX_BYTES	(16 << 20)

void etw_consumer_publish_locked(struct etw_consumer *c, struct etw_buffer *b)
{
	c->ring->slot[c->head & c->mask] = b->slot;
	c->head++;
	/* Buffer and entry complete before the consumer sees the new head. */
	smp_store_release(&c->ring->head, c->head);
}

/*
 * A copy of @b for copy consumer @c, in the slot of its ring entry (entry
 * i, slot i mod nr_copies: free once its tail passed entry i - nr_copies).
 * pool_lock held.
 */
static void etw_consumer_copy_one(struct etw_session *s, struct etw_consumer *c,
				  struct etw_buffer *b)
{
	u32 slot;
	u64 tail;

	/* Its reads of the copies are done before we overwrite them. */
	tail = smp_load_acquire(&c->ctrl->tail);
	if (tail - c->reclaimed <= c->head - c->reclaimed)
		c->reclaimed = tail;	/* backwards or past head: ignored */
	if (c->head - c->reclaimed >= c->nr_copies) {
		s->rt_buffers_lost++;
		return;
	}
	slot = (u32)c->head & (c->nr_copies - 1);
	memcpy(c->copies + (size_t)slot * s->stride, b->data, s->buffer_size);
	c->ring->slot[c->head & c->mask] = slot;
	c->head++;
	/* The copy and the entry complete before the consumer sees the head. */
	smp_store_release(&c->ring->head, c->head);
}

/* A copy of @b for each copy consumer.  pool_lock held. */
void etw_consumer_copy_locked(struct etw_session *s, struct etw_buffer *b)
{
	struct etw_consumer *c;

	list_for_each_entry(c, &s->copiers, copier_node)
		etw_consumer_copy_one(s, c, b);
}

/* Take back what the consumer's tail has passed.  pool_lock held. */
void etw_consumer_reclaim_locked(struct etw_session *s)
{
	struct etw_consumer *c = s->consumer;
	u32 slot;
	u64 tail;

	if (!c)
		return;
	/* The consumer's reads of the buffers are done before we reuse them. */
	tail = smp_load_acquire(&c->ctrl->tail);
	if (tail - c->reclaimed > c->head - c->reclaimed)
		return;	/* backwards or past head: ignored */
	while (c->reclaimed != tail) {
		/* The ring is read-only to the consumer: its slots are ours. */
		slot = c->ring->slot[c->reclaimed & c->mask];
		etw_buffer_free_locked(s, s->slots[slot]);
		c->reclaimed++;
		s->buffers_written++;
	}
}

static void etw_ring_set_stopped(struct etw_consumer *c)
{
	/* After the last head: a consumer that sees it has seen them all. */
	smp_store_release(&c->ring->flags, ETW_RING_STOPPED);
}

/* @fn for every consumer of @s: the first, then the copiers.  pool_lock held. */
static void etw_consumers_each_locked(struct etw_session *s,
				      void (*fn)(struct etw_consumer *c))
{
	struct etw_consumer *c;

	if (s->consumer)
		fn(s->consumer);
	list_for_each_entry(c, &s->copiers, copier_node)
		fn(c);
}

void etw_consumer_stopped_locked(struct etw_session *s)
{
	etw_consumers_each_locked(s, etw_ring_set_stopped);
}

/* The session's MaximumBuffers as @c's ring shows it.  pool_lock held. */
static void etw_ring_set_max(struct etw_consumer *c)
{
	WRITE_ONCE(c->ring->max_buffers, c->s->max_buffers);
}

/*
 * UPDATE raised MaximumBuffers: every consumer's ring shows it, for a
 * watermark derived from the pool (uapi, "The wake-up watermark").
 * pool_lock held.
 */
void etw_consumers_max_raised_locked(struct etw_session *s)
{
	etw_consumers_each_locked(s, etw_ring_set_max);
}

/* Is @s's first consumer a logger?  pool_lock held. */
bool etw_logger_attached_locked(struct etw_session *s)
{
	return s->consumer && (s->consumer->flags & ETW_CONSUMER_F_LOGGER);
}

/* A logger that asks for the session to be kept (ETW_CTRL_KEEP). */
bool etw_consumer_keeps(struct etw_consumer *c)
{
	return (c->flags & ETW_CONSUMER_F_LOGGER) &&
	       (READ_ONCE(c->ctrl->flags) & ETW_CTRL_KEEP);
}

/*
 * What STOP waits for: the session no longer kept for a logger (keep.c),
 * and no logger attached.
 */
static bool etw_consumer_logger_done(struct etw_session *s)
{
	bool ret;

	if (READ_ONCE(s->kept))
		return false;
	spin_lock(&s->pool_lock);
	ret = !etw_logger_attached_locked(s);
	spin_unlock(&s->pool_lock);
	return ret;
}

void etw_consumer_wait_logger(struct etw_session *s)
{
	/* At most stop_wait_s for the logger to write the last buffers. */
	wait_event_killable_timeout(s->wait, etw_consumer_logger_done(s),
				    etw_keep_stop_wait());
}

/*
 * What is published and not given back returns to the front of the ready
 * list, oldest first, and @c is the consumer no longer.  pool_lock held.
 */
static void etw_consumer_unpublish_locked(struct etw_consumer *c)
{
	struct etw_session *s = c->s;
	struct etw_buffer *b;

	while (c->head != c->reclaimed) {
		c->head--;
		b = s->slots[c->ring->slot[c->head & c->mask]];
		list_add(&b->node, &s->ready);
	}
	s->consumer = NULL;
}

/*
 * A copy consumer leaves the copiers (if it had joined them: a failed
 * bind leaves it outside); it holds copies only.  pool_lock held.
 */
static void etw_consumer_unbind_copier_locked(struct etw_consumer *c)
{
	if (!list_empty(&c->copier_node)) {
		list_del_init(&c->copier_node);
		c->s->nr_copiers--;
	}
}

/*
 * Detach: what the consumer gave back is free, what it did not goes back
 * to the front of the ready list, oldest first, for the next consumer.
 */
static void etw_consumer_detach(struct etw_consumer *c)
{
	struct etw_session *s = c->s;
	bool drained;

	spin_lock(&s->pool_lock);
	if (c->copies) {
		etw_consumer_unbind_copier_locked(c);
		spin_unlock(&s->pool_lock);
		return;
	}
	etw_consumer_reclaim_locked(s);
	s->log_buffers_lost = READ_ONCE(c->ctrl->log_buffers_lost);
	drained = s->stopped && c->head == c->reclaimed && list_empty(&s->ready);
	/* A logger's last word on keeping the session (keep.c). */
	if (c->flags & ETW_CONSUMER_F_LOGGER)
		s->keep = etw_consumer_keeps(c);
	etw_consumer_unpublish_locked(c);
	spin_unlock(&s->pool_lock);
	wake_up_all(&s->wait);
	etw_keep_detached(s, drained);
}

/*
 * Undo etw_consumer_bind() for a consumer whose caller never got its fd:
 * what was published goes back as it was, and nothing a detach decides
 * (a logger's word on keeping the session, LogBuffersLost) changes.
 */
static void etw_consumer_unbind(struct etw_consumer *c)
{
	struct etw_session *s = c->s;

	spin_lock(&s->pool_lock);
	if (c->copies) {
		etw_consumer_unbind_copier_locked(c);
		spin_unlock(&s->pool_lock);
		return;
	}
	etw_consumer_unpublish_locked(c);
	spin_unlock(&s->pool_lock);
	wake_up_all(&s->wait);
	etw_keep_attach_undone(s);
}

/*
 * The copies of a copy consumer: a power of two, at most the session's
 * MaximumBuffers (and so the ring's entries), ETW_COPY_MAX_SLOTS and
 * ETW_COPY_MAX_BYTES.
 */
static int etw_consumer_alloc_copies(struct etw_consumer *c)
{
	struct etw_session *s = c->s;
	u32 n = rounddown_pow_of_two(max_t(u32, READ_ONCE(s->max_buffers), 2));

	n = min_t(u32, n, ETW_COPY_MAX_SLOTS);
	while (n > 2 && (u64)n * s->stride > ETW_COPY_MAX_BYTES)
		n >>= 1;
	/* Buffer memory like the session's, under the same cap. */
	if (!etw_buffer_memory_charge((u64)n * s->stride))
		return -ENOMEM;
	c->copies = vmalloc_user((size_t)n * s->stride);
	if (!c->copies) {
		etw_buffer_memory_uncharge((u64)n * s->stride);
		return -ENOMEM;
	}
	c->nr_copies = n;
	return 0;
}

static void etw_consumer_free_copies(struct etw_consumer *c)
{
	if (!c->copies)
		return;
	vfree(c->copies);
	etw_buffer_memory_uncharge((u64)c->nr_copies * c->s->stride);
	c->copies = NULL;
	c->nr_copies = 0;
}

static void etw_consumer_free(struct etw_consumer *c)
{
	etw_consumer_free_copies(c);
	etw_session_put(c->s);
	vfree(c->ring);
	vfree(c->ctrl);
	kfree(c);
}

/* The attach's struct could not be copied back: undone, file dropped. */
static void etw_consumer_abort(struct file *file)
{
	struct etw_consumer *c = file->private_data;

	etw_consumer_unbind(c);
	etw_consumer_free(c);
	/* The release finds nothing to detach. */
	file->private_data = NULL;
}

static int etw_consumer_release(struct inode *inode, struct file *filp)
{
	struct etw_consumer *c = filp->private_data;

	if (c) {
		etw_consumer_detach(c);
		etw_consumer_free(c);
	}
	return 0;
}

static __poll_t etw_consumer_poll(struct file *filp, poll_table *wait)
{
	struct etw_consumer *c = filp->private_data;
	struct etw_session *s = c->s;
	bool pending, stopped;

	poll_wait(filp, &s->wait, wait);
	spin_lock(&s->pool_lock);
	etw_consumer_reclaim_locked(s);
	pending = etw_consumer_ready_locked(s, c);
	stopped = s->stopped;
	spin_unlock(&s->pool_lock);
	if (pending)
		return EPOLLIN | EPOLLRDNORM;
	return stopped ? EPOLLHUP : 0;
}

/* A buffer page: only slots that hold a buffer can be mapped. */
static vm_fault_t etw_consumer_fault(struct vm_fault *vmf)
{
	struct etw_consumer *c = vmf->vma->vm_private_data;
	struct etw_session *s = c->s;
	u64 off = (u64)(vmf->pgoff - (ETW_CONSUMER_MMAP_BUFFERS >> PAGE_SHIFT))
		  << PAGE_SHIFT;
	struct etw_buffer *b;
	struct page *page;
	u32 slot, in;

	slot = div_u64_rem(off, s->stride, &in);
	if (c->copies) {
		if (slot >= c->nr_copies)
			return VM_FAULT_SIGBUS;
		page = vmalloc_to_page(c->copies + off);
		get_page(page);
		vmf->page = page;
		return 0;
	}
	if (slot >= s->nr_slots)
		return VM_FAULT_SIGBUS;
	/* Pairs with the release in etw_buffer_add_locked(): b is complete. */
	b = smp_load_acquire(&s->slots[slot]);
	if (!b)
		return VM_FAULT_SIGBUS;
	page = etw_buffer_mem_page(b->data + in);
	get_page(page);
	vmf->page = page;
	return 0;
}

static const struct vm_operations_struct etw_consumer_vm_ops = {
	.fault = etw_consumer_fault,
};

/* Slots of the buffer mapping: the session's, or the copies. */
static u32 etw_consumer_slots(const struct etw_consumer *c)
{
	return c->copies ? c->nr_copies : c->s->nr_slots;
}

/* Read-only mappings stay read-only: no PROT_WRITE, no mprotect to it. */
static int etw_consumer_mmap_ro(struct vm_area_struct *vma)
{
	if (vma->vm_flags & VM_WRITE)
		return -EPERM;
	etw_vm_flags_clear(vma, VM_MAYWRITE);
	return 0;
}

static int etw_consumer_mmap(struct file *filp, struct vm_area_struct *vma)
{
	struct etw_consumer *c = filp->private_data;
	struct etw_session *s = c->s;
	unsigned long size = vma->vm_end - vma->vm_start;
	int ret;

	switch ((u64)vma->vm_pgoff << PAGE_SHIFT) {
	case ETW_CONSUMER_MMAP_CTRL:
		/* A private copy would hide the tail from the kernel. */
		if (size > PAGE_SIZE || !(vma->vm_flags & VM_SHARED))
			return -EINVAL;
		return remap_vmalloc_range(vma, c->ctrl, 0);
	case ETW_CONSUMER_MMAP_RING:
		if (size > c->ring_bytes)
			return -EINVAL;
		ret = etw_consumer_mmap_ro(vma);
		return ret ? ret : remap_vmalloc_range(vma, c->ring, 0);
	case ETW_CONSUMER_MMAP_BUFFERS:
		if (size > (u64)etw_consumer_slots(c) * s->stride)
			return -EINVAL;
		ret = etw_consumer_mmap_ro(vma);
		if (ret)
			return ret;
		etw_vm_flags_set(vma, VM_DONTEXPAND | VM_DONTDUMP);
		vma->vm_ops = &etw_consumer_vm_ops;
		vma->vm_private_data = c;
		return 0;
	default:
		return -EINVAL;
	}
}

static int etw_consumer_query(struct etw_consumer *c,
			      struct etw_consumer_query *q)
{
	if (q->flags || q->reserved0 || q->reserved[0] || q->reserved[1])
		return -EINVAL;
	etw_session_stats(c->s, &q->info);
	q->stopped = READ_ONCE(c->s->stopped);
	return 0;
}

/* The consumer fd's one ioctl, with /dev/etw's size conventions. */
static long etw_consumer_ioctl(struct file *filp, unsigned int cmd,
			       unsigned long arg)
{
	struct etw_consumer_query q;
	void __user *uarg = (void __user *)arg;
	u32 usize;
	int ret;

	if (cmd != ETW_IOC_CONSUMER_QUERY)
		return -ENOTTY;
	if (get_user(usize, (u32 __user *)uarg))
		return -EFAULT;
	if (usize < ETW_CONSUMER_QUERY_SIZE_VER0)
		return -EINVAL;
	if (usize > PAGE_SIZE)
		return -E2BIG;
	ret = copy_struct_from_user(&q, sizeof(q), uarg, usize);
	if (ret)
		return ret;
	ret = etw_consumer_query(filp->private_data, &q);
	if (ret)
		return ret;
	if (copy_to_user(uarg, &q, min_t(size_t, usize, sizeof(q))))
		return -EFAULT;
	return 0;
}

static const struct file_operations etw_consumer_fops = {
	.owner = THIS_MODULE,
	.release = etw_consumer_release,
	.poll = etw_consumer_poll,
	.mmap = etw_consumer_mmap,
	.unlocked_ioctl = etw_consumer_ioctl,
	.compat_ioctl = compat_ptr_ioctl,
};

static struct etw_consumer *etw_consumer_alloc(struct etw_session *s, u32 flags)
{
	u32 entries = roundup_pow_of_two(s->nr_slots);
	struct etw_consumer *c;

	c = kzalloc(sizeof(*c), GFP_KERNEL);
	if (!c)
		return NULL;
	c->s = s;
	c->flags = flags;
	INIT_LIST_HEAD(&c->copier_node);
	c->mask = entries - 1;
	c->ring_bytes = PAGE_ALIGN(sizeof(*c->ring) + entries * sizeof(u32));
	c->ctrl = vmalloc_user(PAGE_SIZE);
	c->ring = vmalloc_user(c->ring_bytes);
	if (!c->ctrl || !c->ring) {
		vfree(c->ring);
		vfree(c->ctrl);
		kfree(c);
		return NULL;
	}
	c->ring->ring_size = entries;
	return c;
}

/* Become a copy consumer of a real-time session: copies from now on. */
static int etw_consumer_bind_copier(struct etw_consumer *c)
{
	struct etw_session *s = c->s;
	int ret;

	/* Full: refused before the copies are made (checked again below). */
	if (READ_ONCE(s->nr_copiers) >= ETW_MAX_REALTIME_CONSUMERS - 1)
		return -EBUSY;
	ret = etw_consumer_alloc_copies(c);
	if (ret)
		return ret;
	spin_lock(&s->pool_lock);
	if (!s->consumer) {
		/* The first went meanwhile: try again as the first. */
		spin_unlock(&s->pool_lock);
		return -EAGAIN;
	}
	if (s->nr_copiers >= ETW_MAX_REALTIME_CONSUMERS - 1) {
		spin_unlock(&s->pool_lock);
		return -EBUSY;
	}
	list_add_tail(&c->copier_node, &s->copiers);
	s->nr_copiers++;
	etw_ring_set_max(c);
	if (s->stopped)
		etw_ring_set_stopped(c);
	spin_unlock(&s->pool_lock);
	return 0;
}

/* Become the consumer: every ready buffer is published to it at once. */
static int etw_consumer_bind(struct etw_consumer *c)
{
	struct etw_session *s = c->s;
	struct etw_buffer *b, *n;

	spin_lock(&s->pool_lock);
	if (s->consumer) {
		spin_unlock(&s->pool_lock);
		/* A logger is never a copy consumer: it must have every buffer. */
		if ((s->info.log_file_mode & ETW_MODE_REAL_TIME) &&
		    !(c->flags & ETW_CONSUMER_F_LOGGER))
			return etw_consumer_bind_copier(c);
		return -EBUSY;
	}
	s->consumer = c;
	etw_ring_set_max(c);
	list_for_each_entry_safe(b, n, &s->ready, node) {
		list_del(&b->node);
		etw_consumer_publish_locked(c, b);
	}
	/* What was ready before it came is delivered at once. */
	c->urgent = c->head;
	etw_buffers_grow_locked(s);
	if (s->stopped)
		etw_consumer_stopped_locked(s);
	spin_unlock(&s->pool_lock);
	return 0;
}

/*
 * The session to attach to: @logger_id, with @guid if one is given; a
 * logger finds a stopped session kept for it (keep.c) first.  etw_lock
 * held.
 */
static struct etw_session *etw_consumer_session(const struct etw_consumer_attach *arg)
{
	struct etw_session *s = NULL;

	if (!memchr_inv(arg->guid, 0, sizeof(arg->guid)))
		return etw_session_get(arg->logger_id);
	if (arg->flags & ETW_CONSUMER_F_LOGGER)
		s = etw_keep_find(arg->logger_id, arg->guid);
	if (!s) {
		s = etw_session_get(arg->logger_id);
		/* Not the last reference: the table holds one. */
		if (s && memcmp(s->info.guid, arg->guid, sizeof(arg->guid))) {
			etw_session_put(s);
			s = NULL;
		}
	}
	return s;
}

/*
 * Find the session and become its consumer, in one hold of etw_lock: STOP
 * (which decides under it whether a logger keeps the session) sees the
 * consumer attached, or this attach finds the session as STOP left it
 * (kept for a logger, or gone); never a consumer that found the session
 * running and binds to it once STOP has decided without it.
 */
static int etw_consumer_find_bind(const struct etw_consumer_attach *arg,
				  struct etw_consumer **out)
{
	struct etw_consumer *c;
	struct etw_session *s;
	int ret;

	mutex_lock(&etw_lock);
	s = etw_consumer_session(arg);
	if (!s) {
		mutex_unlock(&etw_lock);
		return -ENOENT;
	}
	c = etw_consumer_alloc(s, arg->flags);
	if (!c) {
		mutex_unlock(&etw_lock);
		etw_session_put(s);
		return -ENOMEM;
	}
	ret = etw_consumer_bind(c);
	if (ret == -EAGAIN) {
		/* Once: a race with another consumer going. */
		etw_consumer_free_copies(c);
		ret = etw_consumer_bind(c);
		if (ret == -EAGAIN)
			ret = -EBUSY;
	}
	mutex_unlock(&etw_lock);
	if (ret) {
		etw_consumer_free(c);
		return ret;
	}
	*out = c;
	return 0;
}

int etw_consumer_attach(struct etw_consumer_attach *arg, struct etw_new_fd *nfd)
{
	struct etw_consumer *c;
	struct etw_session *s;
	int ret;

	if (arg->flags & ~ETW_CONSUMER_F_MASK)
		return -EINVAL;
	ret = etw_consumer_find_bind(arg, &c);
	if (ret)
		return ret;
	s = c->s;
	/* Its writers start with every buffer they may have. */
	if (arg->flags & ETW_CONSUMER_F_LOGGER)
		etw_buffers_fill(s);

	ret = etw_new_fd(nfd, "[etw-consumer]", &etw_consumer_fops, c,
			 O_RDWR | (arg->flags & ETW_CONSUMER_F_CLOEXEC ?
				   O_CLOEXEC : 0));
	if (ret) {
		etw_consumer_unbind(c);
		goto out_free;
	}
	nfd->abort = etw_consumer_abort;

	arg->fd = nfd->fd;
	arg->buffer_size = s->buffer_size;
	arg->buffer_stride = s->stride;
	arg->nr_slots = etw_consumer_slots(c);
	arg->ring_size = c->mask + 1;
	arg->ctrl_offset = ETW_CONSUMER_MMAP_CTRL;
	arg->ctrl_bytes = PAGE_SIZE;
	arg->ring_offset = ETW_CONSUMER_MMAP_RING;
	arg->ring_bytes = c->ring_bytes;
	arg->buffers_offset = ETW_CONSUMER_MMAP_BUFFERS;
	arg->buffers_bytes = (u64)etw_consumer_slots(c) * s->stride;
	return 0;

out_free:
	etw_consumer_free(c);
	return ret;
}
