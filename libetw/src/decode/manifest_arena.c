// SPDX-License-Identifier: MIT
/*
 * The arena a manifest's model lives in: many small allocations that are
 * freed together when the model is.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "manifest.h"

struct mf_block {
	struct mf_block *next;
	size_t used, size;
	max_align_t data[];
};

#define MF_BLOCK_MIN	(16 * 1024)

void *mf_alloc(struct mf_arena *a, size_t size)
{
	struct mf_block *b = a->head;
	size_t align = _Alignof(max_align_t);

	size = (size + align - 1) & ~(align - 1);
	if (!size)
		size = align;
	if (!b || b->size - b->used < size) {
		size_t bsize = size > MF_BLOCK_MIN ? size : MF_BLOCK_MIN;

		b = malloc(sizeof(*b) + bsize);
		if (!b)
			return NULL;
		b->used = 0;
		b->size = bsize;
		b->next = a->head;
		a->head = b;
	}
	void *p = (char *)b->data + b->used;

	b->used += size;
	memset(p, 0, size);
	return p;
}

char *mf_strndup(struct mf_arena *a, const char *s, size_t n)
{
	char *p = mf_alloc(a, n + 1);

	if (p) {
		memcpy(p, s, n);
		p[n] = '\0';
	}
	return p;
}

char *mf_strdup(struct mf_arena *a, const char *s)
{
	return s ? mf_strndup(a, s, strlen(s)) : NULL;
}

void *mf_push(struct mf_arena *a, void *vp, size_t *n, size_t *cap,
	      size_t item_size)
{
	void **v = vp;

	if (*n == *cap) {
		size_t ncap = *cap ? *cap * 2 : 8;
		void *nv;

		if (ncap > SIZE_MAX / item_size / 2)
			return NULL;
		/* The old array stays in the arena: models are small. */
		nv = mf_alloc(a, ncap * item_size);
		if (!nv)
			return NULL;
		if (*n)
			memcpy(nv, *v, *n * item_size);
		*v = nv;
		*cap = ncap;
	}
	return (char *)*v + (*n)++ * item_size;
}

void mf_arena_free(struct mf_arena *a)
{
	struct mf_block *b = a->head;

	while (b) {
		struct mf_block *next = b->next;

		free(b);
		b = next;
	}
	a->head = NULL;
}
