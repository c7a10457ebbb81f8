/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Interning, the trace model's and its users': a map of (a, b) pairs to
 * ids, a string table and a tree of stacks.  The model interns its
 * samples' frames and stacks with them (model/samples.c), etw export its
 * own frames (named by function and image) and the viewers' stacks made
 * of them (export/stacks.c).
 */
#ifndef ETW_MODEL_INTERN_H
#define ETW_MODEL_INTERN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* @p of room for *@cap elements of @size grown to hold @need; exits if out of memory. */
void *intern_grow(void *p, size_t *cap, size_t need, size_t size);

/* A hash of two words, each bit of them in every bit of it. */
static inline uint64_t intern_mix(uint64_t a, uint64_t b)
{
	uint64_t h = a * 0x9e3779b97f4a7c15ull ^ (b + 0x632be59bd9b4e019ull);

	h ^= h >> 29;
	h *= 0xbf58476d1ce4e5b9ull;
	return h ^ (h >> 32);
}

/*
 * (a, b) -> a nonzero u32, open addressing: a slot's key and value
 * together in 16 bytes, so a probe is one cache line.
 */
struct intern_map_entry {
	uint64_t a;
	uint32_t b;
	uint32_t v;
};

struct intern_map {
	struct intern_map_entry *e;
	size_t cap, n;
};

/*
 * The value of (a, b), 0 if it has none yet; with @add a new pair is
 * given a slot (valid until the next call that adds), else NULL.
 */
uint32_t *intern_map_slot(struct intern_map *m, uint64_t a, uint32_t b, bool add);
void intern_map_free(struct intern_map *m);

/* Strings, each once: ids from 1 (0 is ""). */
struct intern_strs {
	char *text;
	size_t len, cap;
	uint32_t *off;			/* by id - 1 */
	size_t n, off_cap;
	struct intern_map index;	/* (hash, 0) -> first id of that hash */
	uint32_t *next;			/* by id - 1: the next id of equal hash */
	size_t next_cap;
};

uint32_t intern_str(struct intern_strs *t, const char *s);
static inline const char *intern_str_of(const struct intern_strs *t, uint32_t id)
{
	return id ? t->text + t->off[id - 1] : "";
}

void intern_strs_free(struct intern_strs *t);

/*
 * Stacks as nodes of a tree: each a frame (an id of its user's) and its
 * caller's stack, node 0 the empty stack (the root); stacks that share
 * callers share nodes, so a stack is one number.
 */
struct stack_tree {
	uint32_t *parent, *frame;	/* by node */
	size_t n, cap_parent, cap_frame;
	struct intern_map index;	/* (parent, frame) -> node */
};

void stack_tree_init(struct stack_tree *t);
void stack_tree_free(struct stack_tree *t);
/* The node of @frame called from @parent. */
uint32_t stack_tree_child(struct stack_tree *t, uint32_t parent, uint32_t frame);
/* How many frames @node has. */
size_t stack_tree_depth(const struct stack_tree *t, uint32_t node);
/* Its frames, root first, into @out (of room for its depth); how many. */
size_t stack_tree_frames(const struct stack_tree *t, uint32_t node, uint32_t *out);

#endif /* ETW_MODEL_INTERN_H */
