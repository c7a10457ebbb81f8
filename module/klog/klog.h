/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kernel logger's writer interface: how a probe writes one
 * NT-Kernel-Logger record (SYSTEM_TRACE_HEADER, its compact form or
 * PERFINFO_TRACE_HEADER, a kernel group and opcode instead of a GUID) to
 * every system-logger session that enabled the record's EnableFlags bit,
 * with an optional StackWalk record carrying the same timestamp in the
 * same CPU's buffer.  Documentation/kernel-logger.rst has the layouts.
 *
 * Contexts: klog_write() may be called from any context a probe runs in:
 * process context, softirq, hardirq (hrtimer, perf's software-clock
 * overflow handler), scheduler tracepoints with the runqueue lock held,
 * and NMI (a hardware perf event's overflow).  It never sleeps, takes no
 * lock, wakes nobody directly (an irq_work defers the buffer hand-over),
 * and reads no user memory.  Kernel records go to a per-CPU lane of their
 * own in each session (klog/lane.c), written with interrupts disabled; an
 * NMI that arrives while its CPU is inside the lane drops its record and
 * counts it lost (EventsLost), it never corrupts it.  So hardware (NMI)
 * sampling is safe but may lose the samples that land inside another
 * kernel record's write; the hrtimer-driven PERF_COUNT_SW_CPU_CLOCK
 * loses none that way, since the lane runs with interrupts off.
 */
#ifndef _ETW_KLOG_H
#define _ETW_KLOG_H

#include <linux/compiler.h>
#include <linux/types.h>
#include <linux/uuid.h>

struct pt_regs;
struct task_struct;
struct tracepoint;
struct klog_session;

/* Kernel groups: the consumer turns (group, type) into (GUID, opcode). */
#define KLOG_GROUP_HEADER	0x00	/* EventTrace */
#define KLOG_GROUP_DISKIO	0x01
#define KLOG_GROUP_PROCESS	0x03
#define KLOG_GROUP_FILEIO	0x04
#define KLOG_GROUP_THREAD	0x05
#define KLOG_GROUP_PERFINFO	0x0f
#define KLOG_GROUP_IMAGE	0x14
#define KLOG_GROUP_STACKWALK	0x18

/* HookId: (group << 8) | type. */
#define KLOG_HOOK(group, type)	((u16)((group) << 8 | (type)))

#define KLOG_HOOK_RUNDOWN_COMPLETE	KLOG_HOOK(KLOG_GROUP_HEADER, 8)
#define KLOG_HOOK_PROCESS_START		KLOG_HOOK(KLOG_GROUP_PROCESS, 1)
#define KLOG_HOOK_PROCESS_END		KLOG_HOOK(KLOG_GROUP_PROCESS, 2)
#define KLOG_HOOK_PROCESS_DCSTART	KLOG_HOOK(KLOG_GROUP_PROCESS, 3)
#define KLOG_HOOK_PROCESS_DCEND		KLOG_HOOK(KLOG_GROUP_PROCESS, 4)
/* Image/Load is logged in the Process group (NTWMI PROCESS_LOAD_IMAGE). */
#define KLOG_HOOK_IMAGE_LOAD		KLOG_HOOK(KLOG_GROUP_PROCESS, 10)
#define KLOG_HOOK_THREAD_START		KLOG_HOOK(KLOG_GROUP_THREAD, 1)
#define KLOG_HOOK_THREAD_END		KLOG_HOOK(KLOG_GROUP_THREAD, 2)
#define KLOG_HOOK_THREAD_DCSTART	KLOG_HOOK(KLOG_GROUP_THREAD, 3)
#define KLOG_HOOK_THREAD_DCEND		KLOG_HOOK(KLOG_GROUP_THREAD, 4)
#define KLOG_HOOK_CSWITCH		KLOG_HOOK(KLOG_GROUP_THREAD, 36)
#define KLOG_HOOK_READY_THREAD		KLOG_HOOK(KLOG_GROUP_THREAD, 50)
#define KLOG_HOOK_THREAD_SET_NAME	KLOG_HOOK(KLOG_GROUP_THREAD, 72)
#define KLOG_HOOK_SAMPLED_PROFILE	KLOG_HOOK(KLOG_GROUP_PERFINFO, 46)
#define KLOG_HOOK_PROFILE_SET_INTERVAL	KLOG_HOOK(KLOG_GROUP_PERFINFO, 72)
#define KLOG_HOOK_PROFILE_COLLECTION_START KLOG_HOOK(KLOG_GROUP_PERFINFO, 73)
#define KLOG_HOOK_PROFILE_COLLECTION_END KLOG_HOOK(KLOG_GROUP_PERFINFO, 74)
#define KLOG_HOOK_IMAGE_UNLOAD		KLOG_HOOK(KLOG_GROUP_IMAGE, 2)
#define KLOG_HOOK_IMAGE_DCSTART		KLOG_HOOK(KLOG_GROUP_IMAGE, 3)
#define KLOG_HOOK_IMAGE_DCEND		KLOG_HOOK(KLOG_GROUP_IMAGE, 4)
#define KLOG_HOOK_STACKWALK		KLOG_HOOK(KLOG_GROUP_STACKWALK, 32)
/* The user stack copy: opcode 32 of a class of our own (klog_ucopy_guid). */
#define KLOG_HOOK_STACK_COPY		KLOG_HOOK(KLOG_GROUP_HEADER, 32)

/* The record header, as its HeaderType byte. */
#define KLOG_HDR_SYSTEM		0x02	/* SYSTEM64: ids, time, CPU times; 0x20 */
#define KLOG_HDR_COMPACT	0x04	/* SYSTEM64 without CPU times; 0x18 */
#define KLOG_HDR_PERFINFO	0x11	/* PERFINFO64: time only; 0x10 */
/* EVENT_TRACE_HEADER (64-bit) with @guid: KernelTraceControl's ImageID. */
#define KLOG_HDR_FULL		0x14	/* 0x30 */

/* Most payload parts of one record. */
#define KLOG_MAX_PARTS		8
/* Most frames of one StackWalk (Windows documents 192). */
#define KLOG_MAX_FRAMES		192

/* One block of a record's payload, copied in order. */
struct klog_part {
	const void *data;
	u32 size;
};

/*
 * struct klog_stack - the stack a record carries as a StackWalk event
 * @pid: StackProcess (initial-namespace tgid)
 * @tid: StackThread (initial-namespace pid)
 * @nr: frames at @frames, at most KLOG_MAX_FRAMES
 * @frames: innermost first; kernel frames, then user frames
 */
struct klog_stack {
	u32 pid;
	u32 tid;
	u32 nr;
	const u64 *frames;
};

/*
 * struct klog_event - one kernel record
 * @hook: KLOG_HOOK_*: group and opcode
 * @header_type: KLOG_HDR_*
 * @version: the event's version (< 0x100, as the header's flag bits need)
 * @flag: the EnableFlags bit (ETW_KFLAG_*) a session must have set
 * @tid: ThreadId of a SYSTEM or COMPACT header (ignored for PERFINFO)
 * @pid: ProcessId of a SYSTEM or COMPACT header (ignored for PERFINFO)
 * @timestamp: 0: now, on the session clock; else that time (an ImageID
 *	beside its image event, a StackWalk's event)
 * @parts: the payload, in order; @nr_parts of them
 * @nr_parts: at most KLOG_MAX_PARTS
 * @stack: NULL, or the stack to write after the record, as a StackWalk
 *	with the record's timestamp, to each session whose
 *	TraceStackTracingInfo lists @hook
 * @uregs: NULL, or the user registers (klog_ucopy_regs()) whose stack is
 *	copied before @stack's StackWalk, for the sessions that asked for a
 *	copy (ETW_TRACE_STACK_COPY_INFO); any context but NMI
 * @target: NULL: every session that enabled @flag; else that session
 *	only (rundown, CollectionStart/End), whatever its flags
 * @guid: the class GUID of a KLOG_HDR_FULL record (its opcode is @hook's
 *	low byte); NULL for the others
 */
struct klog_event {
	u16 hook;
	u8 header_type;
	u8 version;
	u32 flag;
	u32 tid;
	u32 pid;
	u64 timestamp;
	const struct klog_part *parts;
	unsigned int nr_parts;
	const struct klog_stack *stack;
	struct pt_regs *uregs;
	struct klog_session *target;
	const guid_t *guid;
};

/* The OR of every running system logger's EnableFlags. */
extern u32 klog_flags;

/* Is @flag (an ETW_KFLAG_* bit) enabled in any session?  Any context. */
static __always_inline bool klog_enabled(u32 flag)
{
	return READ_ONCE(klog_flags) & flag;
}

/* Does any session want stacks on @hook (TraceStackTracingInfo)? */
bool klog_stack_wanted(u16 hook);

/*
 * Write @ev to its sessions; the number that stored it (the others, if
 * any, counted it lost).  Any context, see above.
 */
unsigned int klog_write(const struct klog_event *ev);

/*
 * Count @n records of @flag lost on this CPU in each session that enabled
 * @flag: records a probe missed before it could build them.  Any context.
 */
void klog_write_lost(u32 flag, u32 n);

/* The session clock now, NMI-safe: what klog_write() stamps. */
u64 klog_clock(void);

/*
 * The stack of the current context, for @stack: kernel frames from @regs
 * (NULL: from the caller), then the user frames of the current thread
 * (frame-pointer walk, nofault reads).  @frames has KLOG_MAX_FRAMES
 * room (NULL: no frames).  Any context.  (kstack owns klog/stack.c.)
 */
void klog_stack_capture(struct klog_stack *stack, u64 *frames,
			struct pt_regs *regs);

/*
 * Room for KLOG_MAX_FRAMES frames, for klog_stack_capture(): this CPU's
 * buffer for the current context (task, softirq, hardirq, NMI), valid
 * until the probe returns; NULL before any klog_stack_init() (the
 * capture then gives no frames).  Call with preemption disabled, as every
 * probe runs.  klog_stack_init() allocates the buffers (process context,
 * before the probes that use them are registered; a source's start),
 * klog_stack_exit() frees them at module exit.  (kstack owns
 * klog/stack.c.)
 */
u64 *klog_stack_frames(void);
int klog_stack_init(void);
void klog_stack_exit(void);

/*
 * The user registers a sample's stack copy starts from: @regs if they are
 * a 64-bit task's user mode, else its system call's; NULL in NMI, for a
 * kernel thread or a 32-bit task.  (klog/ustack_copy.c)
 */
struct pt_regs *klog_ucopy_regs(struct pt_regs *regs);

/*
 * struct klog_source - the probes behind some EnableFlags bits
 * @name: for the log
 * @flags: the ETW_KFLAG_* bits it serves
 * @start: register its probes (process context, may sleep); the first
 *	session that enables one of @flags calls it.  0 or -errno (the
 *	StartTrace or TraceSetInformation fails with it)
 * @stop: unregister them; the last session to drop @flags calls it, and
 *	klog then waits for the probes still running
 *	(tracepoint_synchronize_unregister()) before anything is freed
 * @session_start: optional, after the session's rundown: per-session
 *	records (CollectionStart) through klog_write() with @target set
 * @session_stop: optional, before the session's DCEnd rundown
 * @interval_changed: optional, TraceSampledProfileIntervalInfo changed
 *	while the source runs (process context)
 *
 * Sources are listed in klog/sources.c, each in a file of its own.
 */
struct klog_source {
	const char *name;
	u32 flags;
	int (*start)(void);
	void (*stop)(void);
	void (*session_start)(struct klog_session *k);
	void (*session_stop)(struct klog_session *k);
	void (*interval_changed)(void);
};

/* The profile interval in 100 ns units (TraceSampledProfileIntervalInfo). */
u32 klog_profile_interval(void);

/*
 * struct klog_tp - a kernel tracepoint looked up by name (the
 * __tracepoint_* symbols are not exported) and the probe attached to it
 * @name: e.g. "sched_switch"
 * @probe: the probe function, with the tracepoint's prototype after a
 *	leading void *data
 * @tp: filled by klog_tp_register()
 */
struct klog_tp {
	const char *name;
	void *probe;
	struct tracepoint *tp;
};

/* Attach every probe of @tps, or none: 0 or -errno (-ENOENT: no such tp). */
int klog_tp_register(struct klog_tp *tps, unsigned int n);
/* Detach them; the caller then waits with tracepoint_synchronize_unregister(). */
void klog_tp_unregister(struct klog_tp *tps, unsigned int n);

/* The initial PID namespace's ids of @t (tid, tgid). */
u32 klog_tid(struct task_struct *t);
u32 klog_pid(struct task_struct *t);

#endif /* _ETW_KLOG_H */
