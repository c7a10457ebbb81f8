// SPDX-License-Identifier: GPL-2.0
/*
 * Interning: an open-addressing map, a string table, a tree of stacks.
 * Hand-written: each is a few lines over arrays, where a general hash
 * table would cost an allocation or an indirection a probe.
 */
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "model/intern.h"
#include "model/stack.h"

/*
 * Arrays of 2 MiB and more are on transparent huge pages: the model's
 * maps and tables are read at random, and at 4 KiB a page nearly every
 * probe of a large one misses the TLB (twice the walk under a
 * hypervisor).  The system's THP setting "madvise" is Debian's default.
 */
#define HUGE_BYTES	((size_t)2 << 20)

static size_t huge_round(size_t bytes)
{
	return (bytes + HUGE_BYTES - 1) & ~(HUGE_BYTES - 1);
}

/* An array that free() takes. */
static void *huge_alloc(size_t bytes)
{
	void *p = aligned_alloc(HUGE_BYTES, huge_round(bytes));

	if (!p)
		stack_oom();
	madvise(p, huge_round(bytes), MADV_HUGEPAGE);
	return p;
}

/*
 * A map's table, zeroed: a large one is mapped (2 MiB aligned, the
 * kernel's zero pages not cleared twice), a small one from calloc().
 */
static struct intern_map_entry *map_table(size_t cap)
{
	size_t bytes = cap * sizeof(struct intern_map_entry), len, head;
	uint8_t *p;

	if (bytes < HUGE_BYTES) {
		p = calloc(cap, sizeof(struct intern_map_entry));
		if (!p)
			stack_oom();
		return (struct intern_map_entry *)p;
	}
	len = huge_round(bytes);
	p = mmap(NULL, len + HUGE_BYTES, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		stack_oom();
	head = (HUGE_BYTES - ((uintptr_t)p & (HUGE_BYTES - 1))) & (HUGE_BYTES - 1);
	if (head)
		munmap(p, head);
	munmap(p + head + len, HUGE_BYTES - head);
	madvise(p + head, len, MADV_HUGEPAGE);
	return (struct intern_map_entry *)(p + head);
}

static void map_table_free(struct intern_map_entry *e, size_t cap)
{
	size_t bytes = cap * sizeof(*e);

	if (bytes < HUGE_BYTES)
		free(e);
	else
		munmap(e, huge_round(bytes));
}

void *intern_grow(void *p, size_t *cap, size_t need, size_t size)
{
	size_t old = *cap;

	if (need <= *cap)
		return p;
	*cap = *cap ? *cap : 64;
	while (*cap < need)
		*cap *= 2;
	if (*cap * size >= HUGE_BYTES) {
		void *q = huge_alloc(*cap * size);

		if (p)
			memcpy(q, p, old * size);
		free(p);
		return q;
	}
	p = realloc(p, *cap * size);
	if (!p)
		stack_oom();
	return p;
}

uint32_t *intern_map_slot(struct intern_map *m, uint64_t a, uint32_t b, bool add)
{
	size_t i;

	if (add && 2 * (m->n + 1) > m->cap) {
		struct intern_map big = { .cap = m->cap ? 2 * m->cap : 1024 };

		big.e = map_table(big.cap);
		for (i = 0; i < m->cap; i++)
			if (m->e[i].v)
				*intern_map_slot(&big, m->e[i].a, m->e[i].b, true) = m->e[i].v;
		map_table_free(m->e, m->cap);
		*m = big;
	}
	if (!m->cap)
		return NULL;
	for (i = intern_mix(a, b) & (m->cap - 1);; i = (i + 1) & (m->cap - 1)) {
		struct intern_map_entry *e = &m->e[i];

		if (!e->v) {
			if (!add)
				return NULL;
			e->a = a;
			e->b = b;
			m->n++;
			return &e->v;
		}
		if (e->a == a && e->b == b)
			return &e->v;
	}
}

void intern_map_free(struct intern_map *m)
{
	map_table_free(m->e, m->cap);
	memset(m, 0, sizeof(*m));
}

static uint64_t str_hash(const char *s)
{
	uint64_t h = 1469598103934665603ull;	/* FNV-1a */

	for (; *s; s++)
		h = (h ^ (uint8_t)*s) * 1099511628211ull;
	return h;
}

uint32_t intern_str(struct intern_strs *t, const char *s)
{
	uint64_t h = str_hash(s);
	uint32_t *slot = intern_map_slot(&t->index, h, 0, true);
	size_t n = strlen(s) + 1;

	for (uint32_t id = *slot; id; id = t->next[id - 1])
		if (!strcmp(intern_str_of(t, id), s))
			return id;
	t->text = intern_grow(t->text, &t->cap, t->len + n, 1);
	memcpy(t->text + t->len, s, n);
	t->off = intern_grow(t->off, &t->off_cap, t->n + 1, sizeof(*t->off));
	t->next = intern_grow(t->next, &t->next_cap, t->n + 1, sizeof(*t->next));
	t->off[t->n] = (uint32_t)t->len;
	t->next[t->n] = *slot;
	t->len += n;
	t->n++;
	*slot = (uint32_t)t->n;
	return *slot;
}

void intern_strs_free(struct intern_strs *t)
{
	free(t->text);
	free(t->off);
	free(t->next);
	intern_map_free(&t->index);
	memset(t, 0, sizeof(*t));
}

void stack_tree_init(struct stack_tree *t)
{
	memset(t, 0, sizeof(*t));
	t->parent = intern_grow(NULL, &t->cap_parent, 1, sizeof(*t->parent));
	t->frame = intern_grow(NULL, &t->cap_frame, 1, sizeof(*t->frame));
	t->parent[0] = 0;
	t->frame[0] = 0;
	t->n = 1;
}

void stack_tree_free(struct stack_tree *t)
{
	free(t->parent);
	free(t->frame);
	intern_map_free(&t->index);
	memset(t, 0, sizeof(*t));
}

uint32_t stack_tree_child(struct stack_tree *t, uint32_t parent, uint32_t frame)
{
	uint32_t *slot = intern_map_slot(&t->index, parent, frame, true);

	if (*slot)
		return *slot;
	t->parent = intern_grow(t->parent, &t->cap_parent, t->n + 1, sizeof(*t->parent));
	t->frame = intern_grow(t->frame, &t->cap_frame, t->n + 1, sizeof(*t->frame));
	t->parent[t->n] = parent;
	t->frame[t->n] = frame;
	*slot = (uint32_t)t->n++;
	return *slot;
}

size_t stack_tree_depth(const struct stack_tree *t, uint32_t node)
{
	size_t d = 0;

	for (; node; node = t->parent[node])
		d++;
	return d;
}

size_t stack_tree_frames(const struct stack_tree *t, uint32_t node, uint32_t *out)
{
	size_t d = stack_tree_depth(t, node), i = d;

	for (; node; node = t->parent[node])
		out[--i] = t->frame[node];
	return d;
}
