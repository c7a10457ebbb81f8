/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kernel logger's side of a session: what klog.h's writers reach
 * through the route, and what session.c calls at start, stop and flush.
 * Locking: everything but the lanes changes under etw_lock; the route is
 * RCU-published and read with interrupts disabled (an RCU read side).
 */
#ifndef _ETW_KLOG_INTERNAL_H
#define _ETW_KLOG_INTERNAL_H

#include <linux/bitmap.h>
#include <linux/irq_work.h>
#include <linux/llist.h>
#include <linux/mutex.h>
#include <linux/workqueue.h>
#include <linux/etw.h>

#include "klog.h"

struct etw_session;
struct etw_buffer;

/* Stack hooks are kept for the groups below this one. */
#define KLOG_STACK_GROUPS	0x20
#define KLOG_STACK_HOOKS	(KLOG_STACK_GROUPS << 8)

/*
 * A session's kernel lane on one CPU: the buffer kernel records go to and
 * the free one that replaces it when full.  Touched only on its CPU with
 * interrupts disabled, and by the flush IPI; @spare also by the refill
 * work, through xchg()/cmpxchg().
 */
struct klog_lane {
	struct etw_buffer *cur;
	struct etw_buffer *spare;
	u64 events_lost;
	unsigned int nest;		/* in the lane: an NMI then drops */
};

/* The kernel logger's state of one system-logger session. */
struct klog_session {
	struct etw_session *s;
	u32 flags;			/* EnableFlags, READ_ONCE by writers */
	u32 group_masks[ETW_GROUP_MASKS];	/* as set; [0] == flags */
	u32 nr_stack_ids;
	u32 stack_copy;			/* bytes of user stack per sample */
	unsigned long stack_hooks[BITS_TO_LONGS(KLOG_STACK_HOOKS)];
	struct klog_lane __percpu *lane;
	struct llist_head done;		/* full buffers, to hand over */
	struct irq_work iw;		/* queues @work from any context */
	struct work_struct work;	/* hands over, refills spares */
	struct mutex hand_lock;		/* one hand-over at a time, in order */
	bool attached;			/* on the route */
};

/* klog/lane.c */
int klog_lanes_init(struct klog_session *k);
void klog_lanes_free(struct klog_session *k);
void *klog_lane_reserve(struct klog_session *k, struct klog_lane *l, u32 len);
void klog_lane_commit(struct klog_lane *l, u32 len);
void klog_lane_lost(struct klog_lane *l);
void klog_lanes_flush(struct klog_session *k, bool final);
void klog_lanes_keep_up(struct klog_session *k);
void klog_lanes_release(struct klog_session *k);
u64 klog_lanes_lost(struct klog_session *k);
void klog_lanes_add_lost(struct klog_session *k, u32 n);

/* klog/session.c: session.c's calls */
int klog_session_check(struct etw_session_info *in);
int klog_session_create(struct etw_session *s);
int klog_session_attach(struct etw_session *s);
void klog_session_detach(struct etw_session *s);
void klog_session_flush(struct etw_session *s, bool final);
void klog_session_stopped(struct etw_session *s);
void klog_session_destroy(struct etw_session *s);
u64 klog_session_lost(struct etw_session *s);
int klog_session_update(struct etw_session *s, u32 enable_flags);
int klog_trace_set_info(struct etw_trace_info *arg);
int klog_trace_query_info(struct etw_trace_info *arg);
void klog_exit(void);

/* klog/sources.c */
extern const struct klog_source *const klog_sources[];
extern const unsigned int klog_nr_sources;

/* The sources of klog (each in its own file). */
extern const struct klog_source klog_source_process;
extern const struct klog_source klog_source_image;
extern const struct klog_source klog_source_profile;
extern const struct klog_source klog_source_cswitch;
extern const struct klog_source klog_source_dispatcher;
extern const struct klog_source klog_source_disk;
extern const struct klog_source klog_source_fileio;

/* klog/task_stack.c: stacks on klog's own events */
int klog_task_stacks_init(void);
const struct klog_stack *klog_task_stack(u16 hook);
void klog_task_stacks_exit(void);

/* klog/ustack_copy.c: the user stack copy of a sample */
#define KLOG_UCOPY_FIXED	160
extern const guid_t klog_ucopy_guid;
/* Does any session ask for copies?  Set by session.c under etw_lock. */
extern bool klog_stack_copy_wanted;
/*
 * Fill the record at @dst (KLOG_UCOPY_FIXED + @size bytes of room) from
 * @regs (klog_ucopy_regs()) for @st's thread: its payload's length.
 */
u32 klog_ucopy_fill(void *dst, const struct pt_regs *regs,
		    const struct klog_stack *st, u64 now, u32 size);

/* klog/rundown.c: DCStart/DCEnd of processes, threads and images */
int klog_rundown(struct klog_session *k, bool end);
/* klog/sysconfig.c: the SystemConfig records, at stop */
void klog_sysconfig(struct klog_session *k);

#endif /* _ETW_KLOG_INTERNAL_H */
