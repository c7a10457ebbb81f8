// SPDX-License-Identifier: GPL-2.0
/*
 * Frames and stacks interned: names in a string table, frames by
 * (module, name), stacks as nodes of a tree keyed by (parent, frame).
 */
#include <stdlib.h>
#include <string.h>

#include "export/stacks.h"

struct addr_entry {
	uint64_t addr;
	uint32_t pid;
	uint32_t frame;
	struct addr_entry *next;
};

struct raw_stack {
	struct raw_stack *next;		/* same hash */
	uint32_t parent, pid, node;
	uint32_t n;
	uint64_t frames[];
};

static void free_raw(void *v)
{
	struct raw_stack *r = v, *next;

	for (; r; r = next) {
		next = r->next;
		free(r);
	}
}

static void free_chain(void *v)
{
	struct addr_entry *e = v, *next;

	for (; e; e = next) {
		next = e->next;
		free(e);
	}
}

static uint64_t str_hash(const char *s)
{
	uint64_t h = 1469598103934665603ull;	/* FNV-1a */

	for (; *s; s++)
		h = (h ^ (uint8_t)*s) * 1099511628211ull;
	return h;
}

uint32_t strtab_intern(struct strtab *t, const char *s)
{
	uint64_t h = str_hash(s);
	uintptr_t first = (uintptr_t)idmap64_get(&t->index, h);
	uint32_t i;

	/* Values are entry + 1, so that 0 stays "absent". */
	for (i = first ? (uint32_t)(first - 1) : UINT32_MAX; i != UINT32_MAX; i = t->next[i])
		if (!strcmp(t->v[i], s))
			return i;
	if (t->n == t->cap) {
		t->cap = t->cap ? 2 * t->cap : 256;
		t->v = export_realloc(t->v, t->cap * sizeof(*t->v));
		t->next = export_realloc(t->next, t->cap * sizeof(*t->next));
	}
	i = (uint32_t)t->n++;
	t->v[i] = export_strdup(s);
	t->next[i] = first ? (uint32_t)(first - 1) : UINT32_MAX;
	idmap64_put(&t->index, h, (void *)(uintptr_t)(i + 1));
	return i;
}

void strtab_free(struct strtab *t)
{
	for (size_t i = 0; i < t->n; i++)
		free(t->v[i]);
	free(t->v);
	free(t->next);
	idmap64_free(&t->index, NULL);
	memset(t, 0, sizeof(*t));
}

void stacks_init(struct export_stacks *st)
{
	memset(st, 0, sizeof(*st));
	st->cap_nodes = 1024;
	st->parent = export_alloc(st->cap_nodes * sizeof(*st->parent));
	st->frame = export_alloc(st->cap_nodes * sizeof(*st->frame));
	st->nnodes = 1;			/* the root */
	st->frame[0] = UINT32_MAX;
}

void stacks_free(struct export_stacks *st)
{
	strtab_free(&st->names);
	strtab_free(&st->modules);
	free(st->frames);
	idmap64_free(&st->frame_index, NULL);
	free(st->parent);
	free(st->frame);
	idmap64_free(&st->children, NULL);
	idmap64_free(&st->addrs, free_chain);
	idmap64_free(&st->raw, free_raw);
	sb_free(&st->tmp);
}

static uint32_t add_frame(struct export_stacks *st, uint32_t name, uint32_t module,
			  const struct export_frame *proto)
{
	uint64_t key = (uint64_t)module << 32 | name;
	uintptr_t v = (uintptr_t)idmap64_get(&st->frame_index, key);

	if (v)
		return (uint32_t)(v - 1);
	if (st->nframes == st->cap_frames) {
		st->cap_frames = st->cap_frames ? 2 * st->cap_frames : 256;
		st->frames = export_realloc(st->frames, st->cap_frames * sizeof(*st->frames));
	}
	st->frames[st->nframes] = *proto;
	st->frames[st->nframes].name = name;
	st->frames[st->nframes].module = module;
	idmap64_put(&st->frame_index, key, (void *)(uintptr_t)(st->nframes + 1));
	return (uint32_t)st->nframes++;
}

static uint32_t name_frame(struct export_stacks *st, struct export *x, uint32_t pid,
			   uint64_t addr)
{
	const struct stack_image *im = stack_model_image(x->model, pid, addr);
	struct export_frame proto = { .pid = pid };
	uint32_t module;

	export_frame_name(x, pid, addr, &st->tmp);
	if (im) {
		module = strtab_intern(&st->modules, im->path);
		proto.rel_pc = addr - im->base;
		proto.module_base = im->base;
		proto.module_size = im->size;
	} else {
		module = strtab_intern(&st->modules, stack_model_module(x->model, pid, addr));
		proto.rel_pc = addr;
	}
	return add_frame(st, strtab_intern(&st->names, st->tmp.p), module, &proto);
}

uint32_t stacks_frame(struct export_stacks *st, struct export *x, uint32_t pid,
		      uint64_t addr)
{
	/* Kernel addresses are the same in every process. */
	uint32_t key_pid = stack_model_is_kernel(x->model, addr) ? 0 : pid;
	uint64_t h = addr * 0x9e3779b97f4a7c15ull ^ key_pid;
	struct addr_entry *first = idmap64_get(&st->addrs, h), *e;

	for (e = first; e; e = e->next)
		if (e->addr == addr && e->pid == key_pid)
			return e->frame;
	e = export_alloc(sizeof(*e));
	e->addr = addr;
	e->pid = key_pid;
	e->frame = name_frame(st, x, pid, addr);
	e->next = first;
	idmap64_put(&st->addrs, h, e);
	return e->frame;
}

uint32_t stacks_pseudo_frame(struct export_stacks *st, const char *name)
{
	struct export_frame proto = { 0 };

	return add_frame(st, strtab_intern(&st->names, name),
			 strtab_intern(&st->modules, ""), &proto);
}

uint32_t stacks_child(struct export_stacks *st, uint32_t parent, uint32_t frame)
{
	uint64_t key = (uint64_t)parent << 32 | frame;
	uintptr_t v = (uintptr_t)idmap64_get(&st->children, key);

	if (v)
		return (uint32_t)v;
	if (st->nnodes == st->cap_nodes) {
		st->cap_nodes *= 2;
		st->parent = export_realloc(st->parent, st->cap_nodes * sizeof(*st->parent));
		st->frame = export_realloc(st->frame, st->cap_nodes * sizeof(*st->frame));
	}
	st->parent[st->nnodes] = parent;
	st->frame[st->nnodes] = frame;
	idmap64_put(&st->children, key, (void *)(uintptr_t)st->nnodes);
	return (uint32_t)st->nnodes++;
}

/*
 * The same stack comes again and again (a loop sampled): its node is
 * found by one hash of its addresses, not by naming and walking each
 * frame, which would touch three maps per frame.
 */
uint32_t stacks_push(struct export_stacks *st, struct export *x, uint32_t parent,
		     uint32_t pid, const uint64_t *frames, size_t n)
{
	uint64_t h = ((uint64_t)parent << 32 | pid) * 0x9e3779b97f4a7c15ull ^ n;
	struct raw_stack *first, *r;
	uint32_t node = parent;

	for (size_t i = 0; i < n; i++)
		h = (h ^ frames[i]) * 0x100000001b3ull;
	first = idmap64_get(&st->raw, h);
	for (r = first; r; r = r->next)
		if (r->parent == parent && r->pid == pid && r->n == n &&
		    (!n || !memcmp(r->frames, frames, n * sizeof(*frames))))
			return r->node;
	for (size_t i = n; i-- > 0;)
		node = stacks_child(st, node, stacks_frame(st, x, pid, frames[i]));
	r = export_alloc(sizeof(*r) + n * sizeof(*frames));
	r->parent = parent;
	r->pid = pid;
	r->n = (uint32_t)n;
	r->node = node;
	if (n)
		memcpy(r->frames, frames, n * sizeof(*frames));
	r->next = first;
	idmap64_put(&st->raw, h, r);
	return node;
}

size_t stacks_depth(const struct export_stacks *st, uint32_t node)
{
	size_t d = 0;

	for (; node != STACK_ROOT; node = st->parent[node])
		d++;
	return d;
}

size_t stacks_frames(const struct export_stacks *st, uint32_t node, uint32_t *out)
{
	size_t d = stacks_depth(st, node), i = d;

	for (; node != STACK_ROOT; node = st->parent[node])
		out[--i] = st->frame[node];
	return d;
}
