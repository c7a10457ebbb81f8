/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Objects shared between the files of etw.ko.  Documentation/design.rst
 * describes how they relate, their lifetimes and the locking.
 *
 * Locking in one paragraph: every change of the control plane (sessions,
 * providers, enables, registrations) happens under etw_lock.  Writers never
 * take it: they find their provider's sessions through an RCU-published
 * route and write into their own CPU's buffer with preemption disabled.  A
 * session's buffer pool (free and ready lists) has a spinlock, taken once
 * per buffer hand-over, never per event.
 */
#ifndef _ETW_INTERNAL_H
#define _ETW_INTERNAL_H

#include <linux/fs.h>
#include <linux/kref.h>
#include <linux/list.h>
#include <linux/llist.h>
#include <linux/mutex.h>
#include <linux/nospec.h>
#include <linux/percpu.h>
#include <linux/rcupdate.h>
#include <linux/refcount.h>
#include <linux/spinlock.h>
#include <linux/ktime.h>
#include <linux/types.h>
#include <linux/uuid.h>
#include <linux/wait.h>
#include <linux/workqueue.h>
#include <linux/xarray.h>
#include <linux/etw.h>

#include "clock.h"

extern struct mutex etw_lock;

/*
 * struct etw_file - the state behind one open file description of /dev/etw.
 *
 * libetw opens one per process; the registrations it makes are owned here,
 * so closing the file (or the process dying) unregisters them.  Writer fds
 * (writer.c) write for the same registrations; each holds a reference on
 * this memory, never on the registrations.
 */
struct etw_file {
	refcount_t ref;			/* the /dev/etw file and its writer fds */
	struct mutex lock;		/* state area allocation, notification reads */
	struct xarray regs;		/* reg_id -> struct etw_reg */
	/*
	 * The same map as an array, reg_id - 1 -> struct etw_reg, for the
	 * write path: an index and a load (an xarray walk is a few calls).
	 * Allocated with the state area, published with release; entries
	 * change under etw_lock beside @regs, read under RCU.  Until then
	 * etw_no_regs, so that the write path tests no NULL.
	 */
	struct etw_reg __rcu **reg_by_id;
	struct etw_reg_state *state;	/* vmalloc_user, ETW_MMAP_STATE_SIZE */
	spinlock_t notify_lock;		/* protects the six below */
	struct list_head notify;	/* queued struct etw_notify */
	struct list_head inflight;	/* read, awaiting ETW_IOC_NOTIFY_ACK */
	unsigned int notify_count;	/* queued */
	unsigned int notify_held;	/* in flight */
	size_t notify_bytes;		/* both */
	unsigned long notify_dropped;
	wait_queue_head_t notify_wait;
};

/* A session's filter for the providers' callbacks (cb_filter.c). */
struct etw_cb_filter {
	u32 type;
	u32 size;
	u8 data[];
};

/* A session's EVENT_FILTER_TYPE_PAYLOAD filter (payload_filter.c). */
struct etw_payload_filter {
	struct rcu_head rcu;
	u32 size;
	u8 data[];		/* struct etw_pf_header, checked */
};

/* An event's payload as a payload filter reads it: kernel memory. */
struct etw_pf_payload {
	const struct etw_data_desc *descs;	/* ptr: kernel addresses */
	u32 count;
	bool typed;		/* blocks typed other than NONE are not payload */
	u32 len;		/* payload bytes */
};

/* One session's view of one provider: the filters of an EnableTraceEx2. */
struct etw_route_entry {
	struct etw_session *session;
	u64 match_any;		/* effective: ~0 when the controller gave 0 */
	u64 match_all;		/* effective: 0 when match_any was 0 */
	u8 level;		/* effective: 255 when the controller gave 0 */
	u8 raw_level;		/* as the controller gave it */
	u64 raw_any;		/* MatchAnyKeyword as given: a classic EnableFlags */
	u64 seq;		/* order of the enables: the newest wins for classic */
	u32 enable_property;
	u32 pid_count;
	u32 pids[ETW_MAX_FILTER_PIDS];
	u32 event_id_count;
	bool event_ids_enable;
	u16 event_ids[ETW_MAX_FILTER_EVENT_IDS];
	/* Owned by the provider's enables[]; routes borrow it (RCU). */
	struct etw_payload_filter *pf;
};

/*
 * EnableProperty bits that change nothing a record holds or whether it is
 * kept: a route whose one session has no other bit can take the fast lane.
 */
#define ETW_ENABLE_NO_EFFECT	(ETW_ENABLE_PSM_KEY | \
				 ETW_ENABLE_ENABLE_KEYWORD_0 | \
				 ETW_ENABLE_SILOS | \
				 ETW_ENABLE_SOURCE_CONTAINER_TRACKING)

/*
 * What writers read: the sessions a provider's events go to.  @fast, set
 * when the route is built (etw_route_publish()), says that an event is
 * decided by entry[0]'s level and MatchAnyKeyword alone: one session, no
 * MatchAllKeyword, no PID, event id or payload filter, no EnableProperty
 * that adds an item or drops events (write_fast.c).  @payload says that
 * some entry has a payload filter: the full path tests it once per event.
 */
struct etw_route {
	struct rcu_head rcu;
	unsigned int count;
	bool fast;
	bool payload;		/* an entry has a payload filter */
	struct etw_route_entry entry[];
};

/*
 * struct etw_provider - a provider GUID known to the kernel: registered by
 * at least one process, or enabled by at least one session, or both.
 */
struct etw_provider {
	struct hlist_node hnode;	/* etw_providers, etw_lock */
	guid_t guid;
	struct list_head regs;		/* struct etw_reg, etw_lock */
	unsigned int nr_enables;	/* etw_lock */
	unsigned int nr_classic;	/* classic registrations, etw_lock */
	unsigned int nr_kernel;		/* kernel modules' registrations, etw_lock */
	struct etw_route_entry enables[ETW_MAX_SESSIONS_PER_PROVIDER];
	/* The callback filter of each enable, same index as enables[]. */
	struct etw_cb_filter *filters[ETW_MAX_SESSIONS_PER_PROVIDER];
	struct etw_route __rcu *route;	/* published copy of enables */
	struct rcu_head rcu;
};

/* Provider traits of a registration (EventSetInformation), set once. */
struct etw_traits {
	struct rcu_head rcu;
	u16 len;			/* the blob's own size, <= the copy */
	u8 data[];
};

/*
 * struct etw_reg - one EventRegister, owned by an etw_file; or one
 * EtwRegister of a kernel module (@file NULL, inside a struct etw_kreg,
 * kapi.h).
 */
struct etw_reg {
	struct etw_file *file;
	struct etw_provider *prov;
	struct list_head prov_node;	/* prov->regs, etw_lock */
	u32 id;				/* index in file->regs, >= 1 */
	bool classic;			/* RegisterTraceGuids: one session */
	struct etw_traits __rcu *traits;	/* written once, etw_lock */
	bool use_desc_type;		/* honour etw_data_desc.type */
	struct pid *pid;		/* the registering process */
	struct rcu_head rcu;
};

/* One ETL buffer of a session. */
struct etw_buffer {
	struct list_head node;		/* free, held or ready list */
	struct llist_node lnode;	/* a full kernel-lane buffer (klog) */
	u8 *data;			/* buffer_size bytes, vmalloc_user */
	u32 slot;			/* index in session->slots */
	u32 offset;			/* next record, 8-aligned */
	u32 cpu;
	u64 sequence;
	bool events_lost;		/* an event was lost while current */
};

/* A session's per-CPU writer state.  Touched only with preemption off. */
struct etw_cpu {
	struct etw_buffer *cur;
	u64 events_lost;
	bool starved;			/* real-time: ran out, counted once */
};

/* The attached mmap consumer of a session (consumer.c). */
struct etw_consumer {
	struct etw_session *s;		/* holds a reference */
	struct etw_consumer_ctrl *ctrl;	/* one page, the consumer writes it */
	struct etw_consumer_ring *ring;	/* read-only to the consumer */
	size_t ring_bytes;
	u32 mask;			/* ring entries - 1 */
	u32 flags;			/* ETW_CONSUMER_F_* */
	u64 head;			/* entries published */
	u64 reclaimed;			/* entries taken back */
	u64 urgent;			/* entries a flush published (watermark.c) */
	u8 *copies;			/* a copy consumer: its own copies */
	u32 nr_copies;			/* slots in @copies, a power of two */
	struct list_head copier_node;	/* session->copiers, pool_lock */
};

/*
 * A buffer is in exactly one place: a CPU's cur, the free list, the held
 * list (buffering mode: the memory ring, not yet output), the ready list
 * (output, no consumer has it), or published to the attached consumer.
 */
struct etw_session {
	struct kref ref;
	struct etw_session_info info;	/* settings; statistics filled on query */
	u32 buffer_size;		/* bytes */
	u32 stride;			/* PAGE_ALIGN(buffer_size) */
	u32 nr_slots;			/* bound on buffers, fixed at start */
	struct etw_buffer **slots;	/* [0, nr_buffers) set, never cleared */
	struct etw_cpu __percpu *cpu;
	struct delayed_work flush_work;	/* FlushTimer */
	struct work_struct grow_work;	/* allocates buffers off the write path */
	wait_queue_head_t wait;		/* consumers' poll, STOP waiting for a logger */
	spinlock_t pool_lock;		/* protects the fields below */
	struct list_head free;
	struct list_head held;
	struct list_head ready;
	struct etw_consumer *consumer;
	struct list_head copiers;	/* real-time mode: consumers of copies */
	u32 nr_copiers;
	u32 nr_buffers;
	u32 nr_free;
	u32 max_buffers;		/* info.max_buffers, raised by UPDATE */
	bool stopped;
	u64 sequence;			/* last SequenceNumber given */
	u32 buffers_written;		/* given back by a consumer */
	u32 rt_buffers_lost;
	u32 log_buffers_lost;		/* as the last consumer reported it */
	bool keep;			/* the last logger asked for it (keep.c) */
	u32 discarded_buffers;		/* a kept session's, never drained */
	u64 discarded_events;		/* the events in them */
	atomic_t message_sequence;	/* TraceMessage, LOCAL_SEQUENCE mode */
	/* Stopped and kept for the next logger (keep.c); etw_lock. */
	bool kept;
	struct list_head kept_node;
	struct delayed_work keep_work;	/* discards it, unattached too long */
	struct klog_session *klog;	/* a system logger's kernel side */
	/* Kernel providers' lanes (kapi_lanes.c): set once, etw_lock. */
	struct etw_kp_lanes *kp;
	char *log_file_name;		/* as given at start, or NULL; fixed */
};

/*
 * Does the session of @e take an event of @d, written with EventWriteEx's
 * @filter and ETW_WRITE_F_* @flags by process @tgid?  Both write paths'
 * test (write.c, kapi_write.c).
 */
static __always_inline bool etw_route_entry_accepts(const struct etw_route_entry *e,
						    const struct etw_event_desc *d,
						    u64 filter, u32 flags,
						    u32 tgid)
{
	u32 i;

	if (d->level && d->level > e->level)
		return false;
	if (!d->keyword) {
		if (e->enable_property & ETW_ENABLE_IGNORE_KEYWORD_0)
			return false;
	} else if (!(d->keyword & e->match_any) ||
		   (d->keyword & e->match_all) != e->match_all) {
		return false;
	}
	if (filter & BIT_ULL(e->session->info.logger_id - 1))
		return false;
	if ((flags & ETW_WRITE_F_INPRIVATE) &&
	    (e->enable_property & ETW_ENABLE_EXCLUDE_INPRIVATE))
		return false;
	if (e->pid_count) {
		for (i = 0; i < e->pid_count; i++)
			if (e->pids[i] == tgid)
				break;
		if (i == e->pid_count)
			return false;
	}
	if (e->event_id_count) {
		bool listed = false;

		for (i = 0; i < e->event_id_count && !listed; i++)
			listed = e->event_ids[i] == d->id;
		/* Listed ids are the only ones, or the excluded ones. */
		if (listed != e->event_ids_enable)
			return false;
	}
	return true;
}

/* dev.c */
bool etw_capable(void);

/**
 * struct etw_new_fd - an fd an ioctl returns, not yet in the caller's table
 * @fd: reserved with get_unused_fd_flags()
 * @file: what @fd will refer to; its release undoes what the handler did
 * @abort: if not NULL, undoes it instead, before @file is dropped
 *
 * A handler that returns an fd (etw_ioctl_op.open) makes it with
 * etw_new_fd() and stores @fd in its struct.  The dispatcher installs it
 * once the struct was copied back; if that fails, @fd is put back and
 * @file dropped, so the caller never holds an fd it was not told about.
 */
struct etw_new_fd {
	int fd;
	struct file *file;
	void (*abort)(struct file *file);
};

int etw_new_fd(struct etw_new_fd *nfd, const char *name,
	       const struct file_operations *fops, void *priv, int flags);
long etw_writer_ioctl(struct file *filp, unsigned int cmd, unsigned long arg);
long etw_writer_compat_ioctl(struct file *filp, unsigned int cmd,
			     unsigned long arg);
long etw_file_ioctl_generic(struct etw_file *ef, unsigned int cmd,
			    void __user *uarg);
void etw_file_put(struct etw_file *ef);
int etw_dev_init(void);
void etw_dev_exit(void);
/* The session of the autologger parameter, if any (global_logger.c). */
int etw_global_logger_start(void);

/* state.c: per-file enable state page */
int etw_state_alloc(struct etw_file *ef);
void etw_state_set(struct etw_file *ef, u32 slot, bool enabled, u8 level,
		   u64 any, u64 all);

/* notify.c: enable notifications, their acknowledgments, waiters */
struct etw_waiter;
struct etw_waiter *etw_waiter_new(void);
void etw_waiter_put(struct etw_waiter *w);
int etw_waiter_wait(struct etw_waiter *w, u32 timeout_ms);
void etw_waiter_hold(struct etw_waiter *w);
void etw_waiter_done(struct etw_waiter *w);
void etw_notify_queue(struct etw_file *ef, const struct etw_notification *n,
		      const struct etw_cb_filter *filter, struct etw_waiter *w);
void etw_notify_dropped(struct etw_file *ef);
void etw_notify_flush(struct etw_file *ef);
void etw_notify_forget(struct etw_file *ef, u32 reg_id);
ssize_t etw_notify_read(struct etw_file *ef, char __user *buf, size_t len,
			bool nonblock);
int etw_notify_ack(struct etw_file *ef, struct etw_notify_ack *arg);

/* payload_filter.c: EVENT_FILTER_TYPE_PAYLOAD */
struct etw_payload_filter *etw_payload_filter_copy(const struct etw_enable *arg);
void etw_payload_filter_free(struct etw_payload_filter *pf);
bool etw_payload_filter_passes(const struct etw_payload_filter *pf,
			       const struct etw_event_desc *d,
			       const struct etw_pf_payload *p);
/* Drops the sessions whose filter refuses; the EnableProperty bits of the rest. */
u32 etw_payload_route_filter(const struct etw_route *route, bool *want,
			     const struct etw_event_desc *d,
			     const struct etw_pf_payload *p);

/* cb_filter.c: filters for the providers' callbacks */
struct etw_cb_filter *etw_cb_filter_copy(const struct etw_enable *arg);
struct etw_cb_filter *etw_cb_filter_combine(const struct etw_provider *p,
					    u32 logger_id,
					    const struct etw_cb_filter *cause);

/* registry.c */
int etw_reg_table_alloc(struct etw_file *ef);
/* The registration array of a file that has none: all NULL, read-only. */
extern struct etw_reg __rcu *etw_no_regs[ETW_MAX_REGS_PER_FILE];

/*
 * The registration @reg_id of @ef, or NULL, without lockdep's check of the
 * read side, which is a call: for a user access window, where no call may
 * be made (write_fast.c), whose caller checks its read side before the
 * window opens.  The same instructions as etw_reg_lookup_rcu() where
 * PROVE_RCU is off.
 */
static inline struct etw_reg *etw_reg_lookup_raw(struct etw_file *ef,
						 u32 reg_id)
{
	/* Pairs with etw_reg_table_alloc(): the array is zeroed before seen. */
	struct etw_reg __rcu **t = smp_load_acquire(&ef->reg_by_id);
	u32 i = reg_id - 1;

	if (i >= ETW_MAX_REGS_PER_FILE)
		return NULL;
	return rcu_dereference_raw(t[array_index_nospec(i, ETW_MAX_REGS_PER_FILE)]);
}

/* The registration @reg_id of @ef, or NULL; an RCU read side held. */
static inline struct etw_reg *etw_reg_lookup_rcu(struct etw_file *ef,
						 u32 reg_id)
{
	/* rcu_read_lock() or preemption disabled (the write path). */
	RCU_LOCKDEP_WARN(!rcu_read_lock_held() && !rcu_read_lock_sched_held(),
			 "etw: registration lookup outside an RCU read side");
	return etw_reg_lookup_raw(ef, reg_id);
}

int etw_registry_register(struct etw_file *ef, struct etw_provider_register *arg);
int etw_registry_list(struct etw_provider_list *arg);
int etw_registry_info(struct etw_provider_info *arg);
int etw_registry_unregister(struct etw_file *ef, u32 reg_id);
void etw_registry_release_file(struct etw_file *ef);
int etw_registry_enable(struct etw_enable *arg, const u16 *event_ids,
			struct etw_cb_filter *filter,
			struct etw_payload_filter *pf);
void etw_registry_session_stopped(struct etw_session *s);
void etw_registry_exit(void);
int etw_registry_kernel_add(struct etw_reg *r, const guid_t *g);
void etw_registry_kernel_remove(struct etw_reg *r);

/* session.c */
int etw_session_start(struct etw_session_start *arg);
int etw_session_control(struct etw_session_control *arg);
int etw_session_buffer_read(struct etw_buffer_read *arg);
struct etw_session *etw_session_get(u32 logger_id);
struct etw_session *etw_session_lookup_rcu(u32 logger_id);
struct etw_session *etw_session_find(u32 logger_id);
void etw_session_put(struct etw_session *s);
void etw_session_stats(struct etw_session *s, struct etw_session_info *out);
void etw_session_exit(void);

/* keep.c: stopped sessions kept for the logger that will drain them */
void etw_keep_init(struct etw_session *s);
bool etw_keep_stopped(struct etw_session *s);
struct etw_session *etw_keep_find(u32 logger_id, const u8 *guid);
void etw_keep_detached(struct etw_session *s, bool drained);
void etw_keep_attach_undone(struct etw_session *s);
int etw_keep_discard_request(struct etw_session_control *arg);
unsigned long etw_keep_stop_wait(void);

/* buffer.c: the buffer pool and the per-CPU write side */
void *etw_buffer_switch(struct etw_session *s, struct etw_cpu *c);
struct page;
struct page *etw_buffer_mem_page(void *p);
void etw_buffers_grow_locked(struct etw_session *s);
void etw_buffers_fill(struct etw_session *s);

/*
 * Room for @len bytes (8-aligned, at most buffer_size - header) in this
 * CPU's buffer: inline while the current buffer has room (every event but
 * about one per buffer), else etw_buffer_switch().  NULL: no buffer free,
 * the caller counts the event lost.  Preemption disabled.
 */
static inline void *etw_buffer_reserve(struct etw_session *s,
				       struct etw_cpu *c, u32 len)
{
	struct etw_buffer *b = c->cur;

	if (likely(b && b->offset + len <= s->buffer_size))
		return b->data + b->offset;
	return etw_buffer_switch(s, c);
}

/* Commit the record etw_buffer_reserve() gave room for. */
static inline void etw_buffer_commit(struct etw_cpu *c, u32 len)
{
	c->cur->offset += ALIGN(len, 8);
}

void etw_buffer_flush_cpu(struct etw_session *s, unsigned int cpu, bool final);
struct etw_buffer *etw_buffer_get(struct etw_session *s);
void etw_buffer_hand_over(struct etw_session *s, struct etw_buffer *b,
			  u16 type, bool urgent, bool final);
void etw_buffers_output_held(struct etw_session *s, bool stop);
struct etw_buffer *etw_buffer_take(struct etw_session *s);
void etw_buffer_untake(struct etw_session *s, struct etw_buffer *b);
void etw_buffer_release(struct etw_session *s, struct etw_buffer *b);
void etw_buffer_free_locked(struct etw_session *s, struct etw_buffer *b);
void etw_buffers_raise_max(struct etw_session *s, u32 max_buffers);
int etw_buffers_init(struct etw_session *s);
void etw_buffers_free(struct etw_session *s);
bool etw_buffer_memory_charge(u64 bytes);
void etw_buffer_memory_uncharge(u64 bytes);

/* ext.c: extended data items of a record */
#define ETW_EXT_MAX	12

/* One extended item an event may carry (see ext.c). */
struct etw_ext {
	u16 type;		/* ETL_EXT_* */
	u16 size;		/* bytes at @data */
	u32 property;		/* 0: every session; else the EnableProperty bit */
	const void *data;
};

/*
 * The items of one event, in the order they are stored.  @common_len and
 * @properties let a record whose session asked for none of the optional
 * items (the usual case) know its length without walking the items.
 */
struct etw_ext_set {
	unsigned int count;
	u32 common_len;		/* stored length of the items for every session */
	u32 properties;		/* OR of the optional items' EnableProperty bits */
	struct etw_ext item[ETW_EXT_MAX];
};

static inline void etw_ext_init(struct etw_ext_set *set)
{
	set->count = 0;
	set->common_len = 0;
	set->properties = 0;
}

void etw_ext_add(struct etw_ext_set *set, u16 type, const void *data,
		 u16 size, u32 property);
u32 etw_ext_len(const struct etw_ext_set *set, u32 enable_property);
void etw_ext_write(void *dst, const struct etw_ext_set *set,
		   u32 enable_property);

/* enable_prop.c: the items EnableProperty asks for */

/* A SID as stored: S-1-22-1-<uid> has two sub-authorities. */
struct etw_sid {
	u8 revision;
	u8 sub_authority_count;
	u8 authority[6];		/* big-endian */
	__le32 sub_authority[2];
};

/* An event's EnableProperty items' data, computed only when wanted. */
struct etw_props {
	struct etw_sid sid;
	u32 ts_id;
	u64 start_key;
	u64 event_key;
	struct etw_ext *stack;		/* the stack item in the event's set */
};

void etw_props_add(struct etw_ext_set *set, struct etw_props *pr, bool stack,
		   u32 props);
void etw_props_fill(struct etw_props *pr, u32 props);
void etw_sid_of_uid(struct etw_sid *sid, uid_t uid);
struct task_struct;
u64 etw_start_key_of(struct task_struct *t);

/* ustack.c */
unsigned int etw_ustack_walk(u64 *addr, unsigned int max);
unsigned int etw_ustack_walk_regs(struct pt_regs *regs, u64 *addr,
				  unsigned int max);

/* traits.c: EventSetInformation */
int etw_provider_set_info(struct etw_file *ef, struct etw_provider_set_info *arg);
int etw_reg_set_traits(struct etw_reg *r, const void *data, u32 length);
void etw_traits_release(struct etw_reg *r);

/* consumer.c: the mmap consumer of a session */
int etw_consumer_attach(struct etw_consumer_attach *arg, struct etw_new_fd *nfd);
void etw_consumer_publish_locked(struct etw_consumer *c, struct etw_buffer *b);
void etw_consumer_copy_locked(struct etw_session *s, struct etw_buffer *b);
void etw_consumer_reclaim_locked(struct etw_session *s);
void etw_consumer_stopped_locked(struct etw_session *s);
void etw_consumers_max_raised_locked(struct etw_session *s);
bool etw_logger_attached_locked(struct etw_session *s);
bool etw_consumer_keeps(struct etw_consumer *c);
void etw_consumer_wait_logger(struct etw_session *s);

/* watermark.c: when a consumer is woken */
bool etw_consumer_ready_locked(struct etw_session *s, struct etw_consumer *c);
bool etw_consumers_ready_locked(struct etw_session *s);
u32 etw_pool_reserve(struct etw_session *s);
void etw_consumers_urge_locked(struct etw_session *s);

/* writer.c: writer fds */
int etw_writer_open(struct etw_file *ef, struct etw_writer_open *arg,
		    struct etw_new_fd *nfd);

/* write.c */
int etw_write(struct etw_file *ef, struct etw_event_write *arg);
int etw_write_short(struct etw_file *ef, const struct etw_event_write_short *a);

/* write_fast.c: ETW_IOC_WRITE_SHORT's request, and its fast lane */
long etw_write_short_user(struct etw_file *ef, void __user *uarg);

/* write_classic.c: TraceEvent, TraceEventInstance, TraceMessage */
int etw_write_classic(struct etw_trace_write *arg);
u32 etw_classic_sequence(struct etw_session *s);

/* write_message_fast.c: TraceMessage's common case */
int etw_write_message_fast(const struct etw_trace_write *arg);
long etw_write_message_user(struct etw_file *ef, void __user *uarg);

#endif /* _ETW_INTERNAL_H */
