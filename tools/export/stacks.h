/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The viewers' frames and stacks (export/stacks.c): a frame is a name
 * (as etw report names it) with the image it is in; a stack is a node of
 * the model's stack tree (model/intern.h) made of these frames.  The
 * model's samples come with their stacks interned (model/samples.c):
 * each of its stacks is made one of these once a file.  Both formats
 * write from them: speedscope's shared frames and Perfetto's interned
 * frames and callstacks.  Their size is that of the code the trace ran,
 * not of the trace.
 */
#ifndef ETW_EXPORT_STACKS_H
#define ETW_EXPORT_STACKS_H

#include <stddef.h>
#include <stdint.h>

#include "export/export.h"
#include "model/intern.h"

#define STACK_ROOT	0		/* the empty stack */

struct export_frame {
	uint32_t name;			/* in names */
	uint32_t module;		/* in modules */
	uint64_t rel_pc;		/* of the first address seen */
	uint64_t module_base, module_size;
};

struct export_stacks {
	struct intern_strs names;
	struct intern_strs modules;	/* image paths, "[kernel]", "[unknown]" */
	struct export_frame *frames;
	size_t nframes, cap_frames;
	struct intern_map frame_index;	/* (module, name) -> frame + 1 */
	struct stack_tree tree;		/* of frames */
	/* The model's of one file (file + 1; 0: none yet) as these. */
	unsigned int file;
	uint32_t *model_frames;		/* model frame id -> frame + 1 */
	size_t cap_model_frames;
	struct intern_map model_stacks;	/* (model stack, parent) -> node */
	uint32_t *path;			/* a model stack's nodes, leaf first */
	size_t cap_path;
	struct sbuf tmp;
};

void stacks_init(struct export_stacks *st);
void stacks_free(struct export_stacks *st);

/* A frame named @name with no address (BLOCKED_TIME, a thread...). */
uint32_t stacks_pseudo_frame(struct export_stacks *st, const char *name);
/* The node of @frame called from @parent. */
uint32_t stacks_child(struct export_stacks *st, uint32_t parent, uint32_t frame);
/*
 * The node of the model's stack @stack (of the samples of the file being
 * read) of a thread of @pid, called from @parent.
 */
uint32_t stacks_push(struct export_stacks *st, struct export *x, uint32_t parent,
		     uint32_t pid, uint32_t stack);
/* Frames of @node, root first, into @out (of room for its depth); the count. */
size_t stacks_depth(const struct export_stacks *st, uint32_t node);
size_t stacks_frames(const struct export_stacks *st, uint32_t node, uint32_t *out);

#endif /* ETW_EXPORT_STACKS_H */
