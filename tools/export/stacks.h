/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Frames and stacks, interned (export/stacks.c): a frame is a name (as
 * etw report names it) with the module it is in; a stack is a node of a
 * tree of frames from the root, so a stack is one number and stacks that
 * share callers share nodes.  Both formats write from it: speedscope's
 * shared frames and Perfetto's interned frames and callstacks.  Its size
 * is that of the code the trace ran, not of the trace.
 */
#ifndef ETW_EXPORT_STACKS_H
#define ETW_EXPORT_STACKS_H

#include <stddef.h>
#include <stdint.h>

#include "export/export.h"
#include "export/idmap.h"

/* A string table: each string once, numbered from 0. */
struct strtab {
	char **v;
	size_t n, cap;
	struct idmap64 index;		/* hash -> first entry (chained below) */
	uint32_t *next;			/* entry -> next with the same hash, or -1 */
};

uint32_t strtab_intern(struct strtab *t, const char *s);
void strtab_free(struct strtab *t);

#define STACK_ROOT	0		/* the empty stack */

struct export_frame {
	uint32_t name;			/* in names */
	uint32_t module;		/* in modules */
	uint64_t rel_pc;		/* of the first address seen */
	uint64_t module_base, module_size;
	uint32_t pid;			/* of the first address seen */
};

struct export_stacks {
	struct strtab names;
	struct strtab modules;		/* image paths, "[kernel]", "[unknown]" */
	struct export_frame *frames;
	size_t nframes, cap_frames;
	struct idmap64 frame_index;	/* (module << 32 | name) -> frame + 1 */
	uint32_t *parent, *frame;	/* of each node; node 0 is the root */
	size_t nnodes, cap_nodes;
	struct idmap64 children;	/* (parent << 32 | frame) -> node */
	/* (pid, address) -> frame: each address named once. */
	struct idmap64 addrs;		/* hash -> struct addr_entry chain */
	/* (parent, pid, frames) -> node: a stack seen before, in one lookup. */
	struct idmap64 raw;		/* hash -> struct raw_stack chain */
	struct sbuf tmp;
};

void stacks_init(struct export_stacks *st);
void stacks_free(struct export_stacks *st);

/* The frame of @addr in process @pid. */
uint32_t stacks_frame(struct export_stacks *st, struct export *x, uint32_t pid,
		      uint64_t addr);
/* A frame named @name with no address (BLOCKED_TIME, a thread...). */
uint32_t stacks_pseudo_frame(struct export_stacks *st, const char *name);
/* The node of @frame called from @parent. */
uint32_t stacks_child(struct export_stacks *st, uint32_t parent, uint32_t frame);
/* The node of @n frames (innermost first) of @pid called from @parent. */
uint32_t stacks_push(struct export_stacks *st, struct export *x, uint32_t parent,
		     uint32_t pid, const uint64_t *frames, size_t n);
/* Frames of @node, root first, into @out (of room for its depth); the count. */
size_t stacks_depth(const struct export_stacks *st, uint32_t node);
size_t stacks_frames(const struct export_stacks *st, uint32_t node, uint32_t *out);

#endif /* ETW_EXPORT_STACKS_H */
