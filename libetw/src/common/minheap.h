/* SPDX-License-Identifier: MIT */
/*
 * A binary min-heap of small integers (stream numbers) whose order the
 * user gives: the k-way merges of the reader (etl/merge.c) and of
 * ProcessTrace over several files (consumer/file.c).
 */
#ifndef LIBETW_MINHEAP_H
#define LIBETW_MINHEAP_H

#include <stdbool.h>
#include <stdint.h>

struct minheap {
	uint32_t *v;			/* room for every item */
	uint32_t n;
	/* Must be a strict order: equal items ordered by number. */
	bool (*before)(const void *ctx, uint32_t a, uint32_t b);
	const void *ctx;
};

static inline void minheap_swap(struct minheap *h, uint32_t i, uint32_t j)
{
	uint32_t t = h->v[i];

	h->v[i] = h->v[j];
	h->v[j] = t;
}

static inline void minheap_sift_down(struct minheap *h, uint32_t i)
{
	for (;;) {
		uint32_t l = 2 * i + 1, r = l + 1, min = i;

		if (l < h->n && h->before(h->ctx, h->v[l], h->v[min]))
			min = l;
		if (r < h->n && h->before(h->ctx, h->v[r], h->v[min]))
			min = r;
		if (min == i)
			return;
		minheap_swap(h, i, min);
		i = min;
	}
}

static inline void minheap_push(struct minheap *h, uint32_t x)
{
	uint32_t i = h->n++;

	h->v[i] = x;
	while (i && h->before(h->ctx, h->v[i], h->v[(i - 1) / 2])) {
		minheap_swap(h, i, (i - 1) / 2);
		i = (i - 1) / 2;
	}
}

/* The top item changed its key (@keep) or is gone: restore the order. */
static inline void minheap_update_top(struct minheap *h, bool keep)
{
	if (!keep)
		h->v[0] = h->v[--h->n];
	minheap_sift_down(h, 0);
}

#endif /* LIBETW_MINHEAP_H */
