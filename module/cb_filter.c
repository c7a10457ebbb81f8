// SPDX-License-Identifier: GPL-2.0
/*
 * Filters for the providers' callbacks: the EVENT_FILTER_DESCRIPTOR of
 * EnableTraceEx2 that the kernel does not apply itself (the PID and
 * event-id filters it does apply have their own fields).  Each session
 * gives at most one per provider; it is kept with the session's enable and
 * every notification of the provider carries a FilterData built from the
 * sessions' filters, as seed 000 says: one filter from each session that
 * gave one.
 *
 * Schematized filters (EVENT_FILTER_TYPE_SCHEMATIZED) start with an
 * EVENT_FILTER_HEADER, which lets them be combined: one block per session,
 * in logger-id order, 8-byte aligned, NextOffset linking them (0 on the
 * last) and InstanceId naming the session by its EventWriteEx Filter bit
 * (ETW sets both fields; the controller leaves them 0).  A provider-defined
 * filter (Type with bit 31 clear, e.g. EventSource's key/value commands)
 * has no framing and cannot be combined: the notification of the
 * EnableTraceEx2 that gave it carries it alone, which is what such
 * providers expect; other notifications carry the schematized chain if
 * there is one, else the provider-defined filter of the lowest logger id.
 */
#include <linux/err.h>
#include <linux/overflow.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include <linux/uaccess.h>

#include "internal.h"

/* EVENT_FILTER_HEADER: InstanceId at 8, Size at 16, NextOffset at 20. */
#define ETW_FILTER_INSTANCE_ID_OFF	8
#define ETW_FILTER_NEXT_OFFSET_OFF	20

#define ETW_FILTER_TYPE_SYSTEM		0x80000000U	/* Windows' types */

static struct etw_cb_filter *etw_cb_filter_alloc(u32 type, u32 size)
{
	struct etw_cb_filter *f = kzalloc(struct_size(f, data, size), GFP_KERNEL);

	if (!f)
		return ERR_PTR(-ENOMEM);
	f->type = type;
	f->size = size;
	return f;
}

/**
 * etw_cb_filter_copy() - the callback filter of an ETW_IOC_ENABLE
 * @arg: the request (its fields were checked to be 0 without the flag)
 *
 * Return: NULL if there is none, the filter, or an ERR_PTR: -EINVAL for a
 * size above %ETW_MAX_FILTER_DATA, a schematized filter shorter than its
 * header or a Windows filter type the kernel does not pass on; -EFAULT.
 */
struct etw_cb_filter *etw_cb_filter_copy(const struct etw_enable *arg)
{
	struct etw_cb_filter *f;

	if (!(arg->flags & ETW_ENABLE_F_FILTER))
		return NULL;
	if (arg->filter_size > ETW_MAX_FILTER_DATA)
		return ERR_PTR(-EINVAL);
	if (arg->filter_type == ETW_FILTER_TYPE_SCHEMATIZED) {
		if (arg->filter_size < ETW_FILTER_HEADER_SIZE)
			return ERR_PTR(-EINVAL);
	} else if (arg->filter_type & ETW_FILTER_TYPE_SYSTEM) {
		return ERR_PTR(-EINVAL);
	}
	f = etw_cb_filter_alloc(arg->filter_type, arg->filter_size);
	if (IS_ERR(f))
		return f;
	if (copy_from_user(f->data, u64_to_user_ptr(arg->filter_data),
			   arg->filter_size)) {
		kfree(f);
		return ERR_PTR(-EFAULT);
	}
	return f;
}

static struct etw_cb_filter *etw_cb_filter_dup(const struct etw_cb_filter *f)
{
	struct etw_cb_filter *d = etw_cb_filter_alloc(f->type, f->size);

	if (!IS_ERR(d))
		memcpy(d->data, f->data, f->size);
	return d;
}

/* A session's filter as a notification sees it. */
struct etw_cb_source {
	u32 logger_id;
	const struct etw_cb_filter *f;
};

static int etw_cb_source_cmp(const void *a, const void *b)
{
	const struct etw_cb_source *x = a, *y = b;

	return x->logger_id < y->logger_id ? -1 : x->logger_id > y->logger_id;
}

/* The schematized blocks of @src[0..@n) as one EVENT_FILTER_HEADER chain. */
static struct etw_cb_filter *etw_cb_filter_chain(const struct etw_cb_source *src,
						 unsigned int n)
{
	struct etw_cb_filter *chain;
	u32 i, off, size = 0, last = 0, last_size = 0;
	u64 instance;

	for (i = 0; i < n; i++) {
		if (src[i].f->type != ETW_FILTER_TYPE_SCHEMATIZED)
			continue;
		last = size;
		last_size = src[i].f->size;
		size += ALIGN(last_size, 8);
	}
	if (!size)
		return NULL;
	chain = etw_cb_filter_alloc(ETW_FILTER_TYPE_SCHEMATIZED, size);
	if (IS_ERR(chain))
		return chain;
	for (i = 0, off = 0; i < n; i++) {
		const struct etw_cb_filter *f = src[i].f;
		u32 next;

		if (f->type != ETW_FILTER_TYPE_SCHEMATIZED)
			continue;
		memcpy(chain->data + off, f->data, f->size);
		instance = BIT_ULL(src[i].logger_id - 1);
		memcpy(chain->data + off + ETW_FILTER_INSTANCE_ID_OFF, &instance,
		       sizeof(instance));
		next = off == last ? 0 : ALIGN(f->size, 8);
		memcpy(chain->data + off + ETW_FILTER_NEXT_OFFSET_OFF, &next,
		       sizeof(next));
		off += ALIGN(f->size, 8);
	}
	/* The last block's padding is not part of the data. */
	chain->size = last + last_size;
	return chain;
}

/**
 * etw_cb_filter_combine() - the FilterData of a provider's notification
 * @p: the provider, its enables as they are after the change; etw_lock held
 * @logger_id: the session whose EnableTraceEx2 caused it, 0 if none did
 * @cause: the filter that EnableTraceEx2 gave, or NULL
 *
 * Return: the FilterData (to be freed by the caller), NULL for none, or
 * ERR_PTR(-ENOMEM).
 */
struct etw_cb_filter *etw_cb_filter_combine(const struct etw_provider *p,
					    u32 logger_id,
					    const struct etw_cb_filter *cause)
{
	struct etw_cb_source src[ETW_MAX_SESSIONS_PER_PROVIDER + 1];
	struct etw_cb_filter *chain;
	bool cause_placed = false;
	unsigned int i, n = 0;

	lockdep_assert_held(&etw_lock);
	if (cause && cause->type != ETW_FILTER_TYPE_SCHEMATIZED)
		return etw_cb_filter_dup(cause);

	for (i = 0; i < p->nr_enables; i++) {
		u32 id = p->enables[i].session->info.logger_id;
		const struct etw_cb_filter *f = p->filters[i];

		/* A capture-state request's filter stands in for the stored one. */
		if (cause && id == logger_id) {
			f = cause;
			cause_placed = true;
		}
		if (f)
			src[n++] = (struct etw_cb_source){ id, f };
	}
	if (cause && !cause_placed)
		src[n++] = (struct etw_cb_source){ logger_id, cause };
	sort(src, n, sizeof(src[0]), etw_cb_source_cmp, NULL);

	chain = etw_cb_filter_chain(src, n);
	if (chain)
		return chain;
	for (i = 0; i < n; i++)
		if (src[i].f->type != ETW_FILTER_TYPE_SCHEMATIZED)
			return etw_cb_filter_dup(src[i].f);
	return NULL;
}
