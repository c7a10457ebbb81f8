// SPDX-License-Identifier: GPL-2.0
/*
 * User stacks unwound from a sample's stack copy (the StackCopy record,
 * Documentation/stacks.rst), as perf's --call-graph dwarf does: elfutils'
 * libdwfl unwinder over each image's .eh_frame or .debug_frame, the images
 * being the process's as the trace's Image events give them (file name and
 * ImageBase), its memory the copied bytes from the stack pointer up, its
 * registers the copied ones.  Reads outside the copy fail, which ends the
 * stack there.  One Dwfl per process and image set, kept while they last:
 * reporting the images opens their files once.
 */
#include <stdlib.h>
#include <string.h>

#include <elfutils/libdwfl.h>

#include "model/stack.h"

/* Processes whose Dwfl is kept (round robin past that). */
#define UNWIND_CACHE	16

struct unwind_entry {
	Dwfl *dwfl;
	uint32_t pid;
	uint64_t images_hash;
};

struct dwarf_unwind {
	struct unwind_entry cache[UNWIND_CACHE];
	unsigned int next;
	/* The copy being unwound: what the callbacks read. */
	const struct rec_stack_copy *copy;
	uint64_t *frames;
	unsigned int n, max;
};

struct dwarf_unwind *dwarf_unwind_new(void)
{
	struct dwarf_unwind *du = calloc(1, sizeof(*du));

	if (!du)
		stack_oom();
	return du;
}

void dwarf_unwind_free(struct dwarf_unwind *du)
{
	if (!du)
		return;
	for (unsigned int i = 0; i < UNWIND_CACHE; i++)
		if (du->cache[i].dwfl)
			dwfl_end(du->cache[i].dwfl);
	free(du);
}

static pid_t next_thread(Dwfl *dwfl, void *arg, void **thread_argp)
{
	struct dwarf_unwind *du = arg;

	(void)dwfl;
	if (*thread_argp)
		return 0;
	*thread_argp = du;
	return (pid_t)du->copy->tid;
}

static bool get_thread(Dwfl *dwfl, pid_t tid, void *arg, void **thread_argp)
{
	(void)dwfl;
	(void)tid;
	*thread_argp = arg;
	return true;
}

/* The stack's memory: the copied bytes only. */
static bool memory_read(Dwfl *dwfl, Dwarf_Addr addr, Dwarf_Word *result,
			void *arg)
{
	struct dwarf_unwind *du = arg;
	const struct rec_stack_copy *c = du->copy;
	uint64_t sp = c->regs[STACK_COPY_REG_SP];

	(void)dwfl;
	if (addr < sp || addr - sp > c->size || c->size - (addr - sp) < 8)
		return false;
	memcpy(result, c->stack + (addr - sp), 8);
	return true;
}

static bool set_initial_registers(Dwfl_Thread *thread, void *arg)
{
	struct dwarf_unwind *du = arg;
	Dwarf_Word regs[STACK_COPY_REGS];

	for (unsigned int i = 0; i < STACK_COPY_REGS; i++)
		regs[i] = du->copy->regs[i];
	return dwfl_thread_state_registers(thread, 0, STACK_COPY_REGS, regs);
}

static const Dwfl_Thread_Callbacks thread_callbacks = {
	.next_thread = next_thread,
	.get_thread = get_thread,
	.memory_read = memory_read,
	.set_initial_registers = set_initial_registers,
};

static const Dwfl_Callbacks dwfl_callbacks = {
	.find_elf = dwfl_build_id_find_elf,
	.find_debuginfo = dwfl_standard_find_debuginfo,
};

static uint64_t images_hash(const struct stack_image *im, size_t n)
{
	uint64_t h = 0xcbf29ce484222325ull;

	for (size_t i = 0; i < n; i++) {
		h = (h ^ im[i].base) * 0x100000001b3ull;
		h = (h ^ im[i].size) * 0x100000001b3ull;
		for (const char *p = im[i].path; *p; p++)
			h = (h ^ (uint8_t)*p) * 0x100000001b3ull;
	}
	return h;
}

/* A Dwfl with the process's images reported and the thread attached. */
static Dwfl *dwfl_for(struct dwarf_unwind *du, uint32_t pid,
		      const struct stack_image *im, size_t n)
{
	uint64_t h = images_hash(im, n);
	struct unwind_entry *e;
	Dwfl *dwfl;
	bool any = false;

	for (unsigned int i = 0; i < UNWIND_CACHE; i++)
		if (du->cache[i].dwfl && du->cache[i].pid == pid &&
		    du->cache[i].images_hash == h)
			return du->cache[i].dwfl;
	dwfl = dwfl_begin(&dwfl_callbacks);
	if (!dwfl)
		return NULL;
	dwfl_report_begin(dwfl);
	for (size_t i = 0; i < n; i++)
		if (im[i].path[0] == '/' &&
		    dwfl_report_elf(dwfl, im[i].name, im[i].path, -1, im[i].base,
				    false))
			any = true;
	dwfl_report_end(dwfl, NULL, NULL);
	if (!any || !dwfl_attach_state(dwfl, NULL, (pid_t)pid, &thread_callbacks,
				       du)) {
		dwfl_end(dwfl);
		return NULL;
	}
	e = &du->cache[du->next];
	du->next = (du->next + 1) % UNWIND_CACHE;
	if (e->dwfl)
		dwfl_end(e->dwfl);
	e->dwfl = dwfl;
	e->pid = pid;
	e->images_hash = h;
	return dwfl;
}

static int on_frame(Dwfl_Frame *state, void *arg)
{
	struct dwarf_unwind *du = arg;
	Dwarf_Addr pc;
	bool activation;

	/*
	 * A user stack's return address is never in the kernel's half: one
	 * there comes from a damaged copy, and would make the report take
	 * the whole stack for the kernel's.  The unwind ends before it.
	 */
	if (!dwfl_frame_pc(state, &pc, &activation) || !pc ||
	    pc >= UINT64_C(0x8000000000000000))
		return DWARF_CB_ABORT;
	du->frames[du->n++] = pc;
	return du->n < du->max ? DWARF_CB_OK : DWARF_CB_ABORT;
}

unsigned int dwarf_unwind_stack(struct dwarf_unwind *du, uint32_t pid,
				const struct stack_image *images, size_t nimages,
				const struct rec_stack_copy *copy,
				uint64_t *frames, unsigned int max)
{
	Dwfl *dwfl;

	if (!max || copy->abi != STACK_COPY_ABI_X86_64)
		return 0;
	dwfl = dwfl_for(du, pid, images, nimages);
	if (!dwfl)
		return 0;
	du->copy = copy;
	du->frames = frames;
	du->n = 0;
	du->max = max;
	/* Its end (an unreadable caller) is an error: the frames so far stay. */
	dwfl_getthread_frames(dwfl, (pid_t)copy->tid, on_frame, du);
	du->copy = NULL;
	return du->n;
}
