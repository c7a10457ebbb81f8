/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Stacks of the kernel logger's records, made readable: which process and
 * image each frame's address falls in (from the Process, Thread and Image
 * events of the trace), what function it is (elfutils' libdwfl for ELF
 * files and their debug files, /proc/kallsyms for the kernel), and the
 * CPU samples (SampledProfile and their StackWalk) counted per stack, per
 * process and per module.  Used by etw report and by etw dump.
 */
#ifndef ETW_STACK_H
#define ETW_STACK_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include <etw_etl.h>

#include "dump/dump.h"
#include "model/sched.h"

/* Hook ids of the records read here (group << 8 | type). */
#define HOOK_PROCESS_START	0x0301
#define HOOK_PROCESS_END	0x0302
#define HOOK_PROCESS_DCSTART	0x0303
#define HOOK_PROCESS_DCEND	0x0304
#define HOOK_IMAGE_LOAD		0x030a	/* Image/Load, in the Process group */
#define HOOK_THREAD_START	0x0501
#define HOOK_THREAD_END		0x0502
#define HOOK_THREAD_DCSTART	0x0503
#define HOOK_THREAD_DCEND	0x0504
#define HOOK_IMAGE_UNLOAD	0x1402
#define HOOK_IMAGE_DCSTART	0x1403
#define HOOK_IMAGE_DCEND	0x1404
#define HOOK_THREAD_SET_NAME	0x0548
#define HOOK_SAMPLED_PROFILE	0x0f2e
#define HOOK_SET_INTERVAL	0x0f48
#define HOOK_COLLECTION_START	0x0f49
#define HOOK_STACK_WALK		0x1820
/* Windows 8's stack cache: a key's frames, given when it is created,
 * evicted or at the end (rundown); events name the key. */
#define HOOK_STACK_KEY_CREATE	0x1822
#define HOOK_STACK_KEY_DELETE	0x1823
#define HOOK_STACK_KEY_RUNDOWN	0x1824
#define HOOK_STACK_KEY_KERNEL	0x1825
#define HOOK_STACK_KEY_USER	0x1826

/* The lowest kernel address of x86-64; PerfView's test is the same. */
#define KERNEL_ADDRESS_MIN	0xffff800000000000ull
/* Of a 32-bit Windows kernel (traces with 4-byte pointers). */
#define KERNEL_ADDRESS_MIN32	0x80000000ull

#define BUILD_ID_MAX		20
/* Most frames of a stack (Windows documents 192 for a StackWalk). */
#define STACK_MAX_FRAMES	192

/* The payloads this file reads, as parsed by model/records.c. */
struct rec_image {
	uint64_t base;
	uint64_t size;
	uint32_t pid;
	char path[4096];		/* UTF-8 */
};

struct rec_process {
	uint32_t pid;
	uint32_t parent;
	char name[256];			/* ImageFileName, UTF-8 */
};

struct rec_thread {
	uint32_t pid;
	uint32_t tid;
};

struct rec_sample {
	uint64_t ip;
	uint32_t tid;
};

/* KernelTraceControl's DbgID_RSDS: an image's PDB identity, or ELF build-id. */
struct rec_image_id {
	uint64_t base;
	uint32_t pid;
	uint8_t id[BUILD_ID_MAX];	/* GuidSig then Age: a GNU build-id */
};

struct rec_stack {
	uint64_t timestamp;		/* of the event the stack belongs to */
	uint32_t pid;
	uint32_t tid;
	uint32_t nframes;
	const uint8_t *frames;		/* nframes pointers of pointer_size */
	uint8_t pointer_size;
};

/* StackKeyKernel, StackKeyUser: the stack of an event, by its cache key. */
struct rec_stack_ref {
	uint64_t timestamp;		/* of the event the stack belongs to */
	uint32_t pid;
	uint32_t tid;
	uint64_t key;
};

/*
 * StackCopy (etw for Linux's own class, before its StackWalk): the user
 * registers (x86-64's DWARF numbers 0-16) and the copied user stack.
 */
#define STACK_COPY_ABI_X86_64	1
#define STACK_COPY_REGS		17
#define STACK_COPY_REG_SP	7
struct rec_stack_copy {
	uint64_t timestamp;		/* of the event the stack belongs to */
	uint32_t pid;
	uint32_t tid;
	uint16_t abi;
	uint64_t regs[STACK_COPY_REGS];
	uint32_t size;
	const uint8_t *stack;		/* size bytes from regs[SP] up */
};

struct rec_thread_name {
	uint32_t pid;
	uint32_t tid;
	char name[256];			/* UTF-8 */
};

/* The .NET runtime's MethodLoadVerbose, MethodDCStart/DCEndVerbose. */
struct rec_clr_method {
	uint32_t pid;
	uint64_t module_id;
	uint64_t start;
	uint32_t size;
	char ns[512];			/* MethodNamespace: the type */
	char name[256];
	char signature[512];
};

/* Its ModuleLoad, ModuleDCStart/DCEnd: a module id's IL file. */
struct rec_clr_module {
	uint32_t pid;
	uint64_t module_id;
	char il_path[1024];
};

/* "out of memory" and exit: the model's allocations do not fail softly. */
void stack_oom(void) __attribute__((noreturn));

/* Each returns false if the payload is too short for its version. */
bool rec_parse_image(const struct etw_etl_event *ev, struct rec_image *r);
bool rec_parse_process(const struct etw_etl_event *ev, struct rec_process *r);
bool rec_parse_thread(const struct etw_etl_event *ev, struct rec_thread *r);
bool rec_parse_sample(const struct etw_etl_event *ev, struct rec_sample *r);
bool rec_parse_stack(const struct etw_etl_event *ev, struct rec_stack *r);
/* False also for any other record than ImageID/DbgID_RSDS. */
bool rec_parse_image_id(const struct etw_etl_event *ev, struct rec_image_id *r);
uint64_t rec_stack_frame(const struct rec_stack *s, uint32_t i);
/* All nframes of them into @out. */
void rec_stack_frames(const struct rec_stack *s, uint64_t *out);
/* False also for any other record than StackCopy. */
bool rec_parse_stack_copy(const struct etw_etl_event *ev,
			  struct rec_stack_copy *r);
bool rec_parse_stack_ref(const struct etw_etl_event *ev, struct rec_stack_ref *r);
/* KeyCreate, KeyDelete, KeyRundown: @r gets the frames, @key the key. */
bool rec_parse_stack_def(const struct etw_etl_event *ev, struct rec_stack *r,
			 uint64_t *key);
/* SetInterval, CollectionStart: the sampling interval (100 ns units). */
bool rec_parse_interval(const struct etw_etl_event *ev, uint32_t *interval);
/* Thread/SetName. */
bool rec_parse_thread_name(const struct etw_etl_event *ev,
			   struct rec_thread_name *r);
/* False also for any other event than the ones named above. */
bool rec_parse_clr_method(const struct etw_etl_event *ev, struct rec_clr_method *r);
bool rec_parse_clr_module(const struct etw_etl_event *ev, struct rec_clr_module *r);

/* Where symbols come from. */
struct stack_options {
	const char *debug_dir;		/* searched before /usr/lib/debug */
	const char *kallsyms;		/* NULL: /proc/kallsyms, if it fits */
	bool no_kallsyms;
};

/* An image of the trace: a file mapped into a process (or the kernel's). */
struct stack_image {
	uint64_t base;
	uint64_t size;
	char *path;
	const char *name;		/* the path's last component */
	bool has_build_id;		/* the trace's DbgID_RSDS gave one */
	uint8_t build_id[BUILD_ID_MAX];
};

/* The processes, threads and images of a trace, as far as it has been read. */
struct stack_model;

struct stack_model *stack_model_new(const struct stack_options *o);
void stack_model_free(struct stack_model *m);

/* Take what a Process, Thread or Image record says; others are ignored. */
void stack_model_event(struct stack_model *m, const struct etw_etl_event *ev);

/* The process of a thread (from Thread events and stacks), or -1. */
uint32_t stack_model_thread_pid(const struct stack_model *m, uint32_t tid);
void stack_model_set_thread(struct stack_model *m, uint32_t tid, uint32_t pid);

/* A process's name ("" if no Process event named it). */
const char *stack_model_process_name(const struct stack_model *m, uint32_t pid);

/* The image holding @addr in process @pid (kernel addresses: pid 0), or NULL. */
const struct stack_image *stack_model_image(const struct stack_model *m,
					   uint32_t pid, uint64_t addr);

/*
 * One frame as text into @sb: "function+0xoff" when symbols name it
 * (@offset false: "function"), else "module+0xoff" (the offset from the
 * image base), else "0xaddr".
 */
void stack_model_frame(struct stack_model *m, uint32_t pid, uint64_t addr,
		       bool offset, struct sbuf *sb);

/* Is @addr a kernel address (by the trace's pointer size)? */
bool stack_model_is_kernel(const struct stack_model *m, uint64_t addr);
/* Does an image or a .NET method of @pid (or the kernel) hold @addr? */
bool stack_model_knows(const struct stack_model *m, uint32_t pid, uint64_t addr);

/*
 * The module of a frame: the image's file name, a .NET method's module
 * (its IL file's name without extension), "[kernel]" or "[unknown]".
 */
const char *stack_model_module(const struct stack_model *m, uint32_t pid,
			       uint64_t addr);

/*
 * A StackWalk record's stack (rec_parse_stack()), its user frames those
 * its StackCopy unwound when the model read one for it and they are more
 * (the frames then stay valid until the next record).
 */
bool stack_model_stack(struct stack_model *m, const struct etw_etl_event *ev,
		       struct rec_stack *r);

/* User stacks from StackCopy records (model/dwarf_unwind.c). */
struct dwarf_unwind;
struct dwarf_unwind *dwarf_unwind_new(void);
void dwarf_unwind_free(struct dwarf_unwind *du);
/*
 * Unwind @copy of a thread of @pid, whose images are @images: at most @max
 * frames into @frames, innermost first; how many.
 */
unsigned int dwarf_unwind_stack(struct dwarf_unwind *du, uint32_t pid,
				const struct stack_image *images, size_t nimages,
				const struct rec_stack_copy *copy,
				uint64_t *frames, unsigned int max);

/* Symbols of one ELF file (model/symbols.c). */
struct sym_file;
struct sym_file *sym_file_open(const char *path, const char *debug_dir);
void sym_file_close(struct sym_file *f);
/*
 * The function at @rva (the offset from where the file's first byte is
 * mapped) and the offset into it; NULL if the file has no symbol there.
 */
const char *sym_file_lookup(struct sym_file *f, uint64_t rva, uint64_t *off);
/* Does the file's build-id (zero-padded to BUILD_ID_MAX) equal @id? */
bool sym_file_build_id_is(struct sym_file *f, const uint8_t *id);

/* The kernel's symbols, from a kallsyms file. */
struct sym_kallsyms;
struct sym_kallsyms *sym_kallsyms_open(const char *path);
void sym_kallsyms_close(struct sym_kallsyms *k);
/* The address of symbol @name, or 0. */
uint64_t sym_kallsyms_address(const struct sym_kallsyms *k, const char *name);
const char *sym_kallsyms_lookup(const struct sym_kallsyms *k, uint64_t addr,
				uint64_t *off);

/* CPU samples with their stacks (model/samples.c). */
struct stack_samples;

/* A sample, once stack_samples_finish() has run. */
struct stack_sample {
	uint64_t time;			/* FILETIME (UTC, 100 ns) */
	uint64_t timestamp;		/* raw, in the file's clock */
	uint32_t pid;			/* UINT32_MAX if no event tells */
	uint32_t tid;
	uint32_t stack;			/* its leaf, see stack_samples_frame() */
	uint16_t cpu;
	bool has_stack;			/* else stack is the sampled address alone */
};

struct stack_samples *stack_samples_new(struct stack_model *m);
void stack_samples_free(struct stack_samples *s);
/* Every record, in time order. */
void stack_samples_event(struct stack_samples *s, const struct etw_etl_event *ev);
/* After the last record: the samples still waiting for a stack. */
void stack_samples_finish(struct stack_samples *s);

/* Samples read so far; those with a stack; stacks of no sample. */
uint64_t stack_samples_count(const struct stack_samples *s);
uint64_t stack_samples_with_stack(const struct stack_samples *s);
uint64_t stack_samples_other_stacks(const struct stack_samples *s);
const struct stack_sample *stack_samples_get(const struct stack_samples *s, size_t i);

/*
 * Stacks are nodes of a tree, 1 to stack_samples_nstacks() - 1: each is a
 * frame and its caller's stack (0 at the root).  Strings (function and
 * module names) are ids, 1 to stack_samples_nstrings() - 1.
 */
uint32_t stack_samples_nstacks(const struct stack_samples *s);
uint32_t stack_samples_caller(const struct stack_samples *s, uint32_t stack);
/* The stack's own frame, as stack_model_frame() names it. */
const char *stack_samples_frame(const struct stack_samples *s, uint32_t stack,
				bool offset);
/* The stack's own frame's address (in process 0 if a kernel one). */
uint64_t stack_samples_address(const struct stack_samples *s, uint32_t stack);
/* The stack's own frame: one id a (process, address), kernel ones in process 0. */
uint32_t stack_samples_frame_id(const struct stack_samples *s, uint32_t stack);
uint32_t stack_samples_function(const struct stack_samples *s, uint32_t stack);
uint32_t stack_samples_module(const struct stack_samples *s, uint32_t stack);
/* The module of sample @i's sampled address. */
uint32_t stack_samples_ip_module(const struct stack_samples *s, size_t i);
uint32_t stack_samples_nstrings(const struct stack_samples *s);
const char *stack_samples_string(const struct stack_samples *s, uint32_t id);
/* The sampling interval (100 ns units, 1 ms if the trace does not say). */
uint32_t stack_samples_interval(const struct stack_samples *s);
/* The FILETIMEs of the first and last record read. */
void stack_samples_range(const struct stack_samples *s, uint64_t *first,
			 uint64_t *last);

struct stack_model *stack_samples_model(const struct stack_samples *s);
/*
 * Another event whose stack is wanted (a CSwitch's, say), stack thread
 * @tid: its stack is joined as a sample's is, cached or split; returns
 * its index.  After stack_samples_finish(): its stack, 0 if none came.
 */
size_t stack_samples_add_event(struct stack_samples *s,
			       const struct etw_etl_event *ev, uint32_t tid);
uint32_t stack_samples_event_stack(const struct stack_samples *s, size_t i);
/* Any event's StackWalk frames as a stack of the tree (0 if none). */
uint32_t stack_samples_intern(struct stack_samples *s, uint32_t pid,
			      const struct rec_stack *st);

/* Reports (model/views.c), after stack_samples_finish(). */
/* "CPU samples: N (W with a stack, ...)". */
void stack_samples_print_totals(struct stack_samples *s, FILE *out);
/* The @top hottest stacks, leaf first, with their counts and shares. */
void stack_samples_print_hot(struct stack_samples *s, FILE *out, unsigned int top);
/* "process;root;...;leaf count" lines, as flame graph tools read them. */
void stack_samples_print_folded(struct stack_samples *s, FILE *out);
/* CPU samples per process and per module. */
void stack_samples_print_summary(struct stack_samples *s, FILE *out);
/*
 * Tables with PerfView's "When" column: samples per process; per module
 * and per function, exclusive (the leaf frame's) and inclusive (anywhere
 * in the stack, once per sample), the @top rows of most exclusive ones.
 */
void stack_samples_print_processes(struct stack_samples *s, FILE *out,
				   unsigned int top);
void stack_samples_print_modules(struct stack_samples *s, FILE *out,
				 unsigned int top);
void stack_samples_print_functions(struct stack_samples *s, FILE *out,
				   unsigned int top);
/*
 * Callers and callees of the function named @name (or the one whose name
 * holds it): -1 with a message if none or more than one.
 */
int stack_samples_print_butterfly(struct stack_samples *s, FILE *out,
				  const char *name, unsigned int top);

/*
 * Context switches (model/sched.c), as WPA's CPU Usage (Precise) and perf
 * sched latency show them: per thread its time running, ready (waiting
 * for a CPU) and waiting (for an event), and the longest waits with the
 * stack that waited and the thread that readied it.  Stacks are the
 * StackWalk records of the CSwitch events, interned in @s.
 */
struct stack_sched;
/* Keeping the @waits longest waits. */
struct stack_sched *stack_sched_new(struct stack_samples *s, unsigned int waits);
void stack_sched_free(struct stack_sched *c);
/* Every record, in time order. */
void stack_sched_event(struct stack_sched *c, const struct etw_etl_event *ev);
/* After stack_samples_finish(): the @top busiest threads and longest waits. */
void stack_sched_print(struct stack_sched *c, FILE *out, unsigned int top);

/*
 * What etw dump adds (model/stack_dump.c): every record goes to
 * stack_dump_event(); a StackWalk record gets a field "Frames" with its
 * frames named ("a <- b <- c", innermost first), and --summary in text
 * ends with the CPU samples per process and per module, if there are any.
 */
struct stack_dump;
struct stack_dump *stack_dump_new(bool summary);
void stack_dump_free(struct stack_dump *sd);
void stack_dump_event(struct stack_dump *sd, const struct etw_etl_event *ev);
void stack_dump_annotate(struct stack_dump *sd, const struct etw_etl_event *ev,
			 struct kv_list *fields);
void stack_dump_summary(struct stack_dump *sd, const struct dump *d);

#endif /* ETW_STACK_H */
