// SPDX-License-Identifier: GPL-2.0
/*
 * The viewers' frames, by (image, name), and their stacks, from the
 * model's: a model frame is named once a file, a model stack made a
 * node of frames once a file and parent.
 */
#include <stdlib.h>
#include <string.h>

#include "export/stacks.h"

void stacks_init(struct export_stacks *st)
{
	memset(st, 0, sizeof(*st));
	stack_tree_init(&st->tree);
}

void stacks_free(struct export_stacks *st)
{
	intern_strs_free(&st->names);
	intern_strs_free(&st->modules);
	free(st->frames);
	intern_map_free(&st->frame_index);
	stack_tree_free(&st->tree);
	free(st->model_frames);
	intern_map_free(&st->model_stacks);
	free(st->path);
	sb_free(&st->tmp);
}

static uint32_t add_frame(struct export_stacks *st, uint32_t name, uint32_t module,
			  const struct export_frame *proto)
{
	uint32_t *slot = intern_map_slot(&st->frame_index, module, name, true);

	if (*slot)
		return *slot - 1;
	st->frames = intern_grow(st->frames, &st->cap_frames, st->nframes + 1,
				 sizeof(*st->frames));
	st->frames[st->nframes] = *proto;
	st->frames[st->nframes].name = name;
	st->frames[st->nframes].module = module;
	st->nframes++;
	*slot = (uint32_t)st->nframes;
	return *slot - 1;
}

static uint32_t name_frame(struct export_stacks *st, struct export *x, uint32_t pid,
			   uint64_t addr)
{
	const struct stack_image *im = stack_model_image(x->model, pid, addr);
	struct export_frame proto = { 0 };
	uint32_t module;

	export_frame_name(x, pid, addr, &st->tmp);
	if (im) {
		module = intern_str(&st->modules, im->path);
		proto.rel_pc = addr - im->base;
		proto.module_base = im->base;
		proto.module_size = im->size;
	} else {
		module = intern_str(&st->modules, stack_model_module(x->model, pid, addr));
		proto.rel_pc = addr;
	}
	return add_frame(st, intern_str(&st->names, st->tmp.p), module, &proto);
}

uint32_t stacks_pseudo_frame(struct export_stacks *st, const char *name)
{
	struct export_frame proto = { 0 };

	return add_frame(st, intern_str(&st->names, name),
			 intern_str(&st->modules, ""), &proto);
}

uint32_t stacks_child(struct export_stacks *st, uint32_t parent, uint32_t frame)
{
	return stack_tree_child(&st->tree, parent, frame);
}

/* The frame of model stack @stack's own frame, named for @pid. */
static uint32_t model_frame(struct export_stacks *st, struct export *x, uint32_t pid,
			    uint32_t stack)
{
	uint32_t id = stack_samples_frame_id(x->samples, stack);
	size_t had = st->cap_model_frames;

	st->model_frames = intern_grow(st->model_frames, &st->cap_model_frames,
				       (size_t)id + 1, sizeof(*st->model_frames));
	memset(st->model_frames + had, 0,
	       (st->cap_model_frames - had) * sizeof(*st->model_frames));
	if (!st->model_frames[id]) {
		uint64_t addr = stack_samples_address(x->samples, stack);

		st->model_frames[id] = name_frame(st, x, pid, addr) + 1;
	}
	return st->model_frames[id] - 1;
}

uint32_t stacks_push(struct export_stacks *st, struct export *x, uint32_t parent,
		     uint32_t pid, uint32_t stack)
{
	uint32_t *slot, node = parent;
	size_t n = 0;

	if (!stack)
		return parent;
	/* The model's ids are those of the file being read. */
	if (st->file != x->file + 1) {
		st->file = x->file + 1;
		intern_map_free(&st->model_stacks);
		if (st->model_frames)
			memset(st->model_frames, 0,
			       st->cap_model_frames * sizeof(*st->model_frames));
	}
	slot = intern_map_slot(&st->model_stacks, stack, parent, true);
	if (*slot)
		return *slot;
	for (uint32_t k = stack; k; k = stack_samples_caller(x->samples, k)) {
		st->path = intern_grow(st->path, &st->cap_path, n + 1, sizeof(*st->path));
		st->path[n++] = k;
	}
	/* Outermost first; the tree and names are not model_stacks: slot stays valid. */
	while (n-- > 0)
		node = stack_tree_child(&st->tree, node, model_frame(st, x, pid, st->path[n]));
	*slot = node;
	return node;
}

size_t stacks_depth(const struct export_stacks *st, uint32_t node)
{
	return stack_tree_depth(&st->tree, node);
}

size_t stacks_frames(const struct export_stacks *st, uint32_t node, uint32_t *out)
{
	return stack_tree_frames(&st->tree, node, out);
}
