/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The 80-byte EVENT_HEADER of an EventWrite record, as both write paths
 * fill it: the full one (write.c, which adds extended items) and the fast
 * lane (write_fast.c).  Inlined into each: the lane counts its
 * instructions.
 */
#ifndef _ETW_EVENT_HEADER_H
#define _ETW_EVENT_HEADER_H

#include <linux/compat.h>
#include <linux/math64.h>
#include <linux/sched.h>
#include <linux/string.h>
#include <linux/uuid.h>
#include <linux/etw.h>

#include "etl.h"

/* The header of the system call's caller: 32-bit pointers or 64-bit. */
static __always_inline u16 etw_header_type(void)
{
	return in_compat_syscall() ? ETL_HEADER_TYPE_EVENT32 :
				     ETL_HEADER_TYPE_EVENT64;
}

/* A GUID as two words, for a copy that is never a call. */
struct etw_guid_words {
	u64 w[2];
} __packed;

/*
 * All but the event descriptor and the activity id, which the fast lane
 * copies from the request straight into @h: @h: the record; @len: its
 * size with items and payload; @type: etw_header_type(), or what the
 * caller knows it is; @flags: ETL_EVENT_FLAG_*; @now: the timestamp;
 * @provider: the provider's GUID.  The thread and process ids and the
 * processor times are the current thread's.
 */
static __always_inline void
etw_event_header_fill_task(struct etl_event_header *h, u32 len, u16 type,
			   u16 flags, u64 now, const guid_t *provider)
{
	struct task_struct *t = current;

	h->size = len;
	h->header_type = type;
	h->flags = flags;
	h->event_property = 0;
	/*
	 * The thread and process ids (task_pid_nr() and task_tgid_nr() are
	 * the task's pid and tgid): one copy where the task has them side by
	 * side, as the header does.
	 */
	BUILD_BUG_ON(offsetof(typeof(*h), process_id) !=
		     offsetof(typeof(*h), thread_id) + 4);
	if (offsetof(typeof(*t), tgid) == offsetof(typeof(*t), pid) + 4) {
		*(u64 *)&h->thread_id = *(const u64 *)&t->pid;
	} else {
		h->thread_id = task_pid_nr(t);
		h->process_id = task_tgid_nr(t);
	}
	h->timestamp = now;
	/* Processor time in milliseconds (the file's TimerResolution). */
	h->kernel_time = div_u64(READ_ONCE(t->stime), NSEC_PER_MSEC);
	h->user_time = div_u64(READ_ONCE(t->utime), NSEC_PER_MSEC);
	/*
	 * Not export_guid(), which GCC 12 leaves a call.  KASAN makes
	 * memcpy() one too, and the fast lane is in a user access window
	 * here, where no call may be made (objtool): two words there.
	 */
	BUILD_BUG_ON(sizeof(h->provider_id) != sizeof(struct etw_guid_words) ||
		     sizeof(*provider) != sizeof(struct etw_guid_words));
	if (IS_ENABLED(CONFIG_KASAN))
		*(struct etw_guid_words *)h->provider_id =
			*(const struct etw_guid_words *)provider;
	else
		memcpy(h->provider_id, provider, sizeof(h->provider_id));
}

/* The whole header: @desc and @activity_id the event's. */
static __always_inline void
etw_event_header_fill(struct etl_event_header *h, u32 len, u16 flags,
		      u64 now, const guid_t *provider,
		      const struct etw_event_desc *desc, const u8 *activity_id)
{
	etw_event_header_fill_task(h, len, etw_header_type(), flags, now,
				   provider);
	/* The header's EVENT_DESCRIPTOR has the request's layout. */
	BUILD_BUG_ON(sizeof(h->desc) != sizeof(*desc) ||
		     offsetof(struct etl_event_desc, keyword) !=
		     offsetof(struct etw_event_desc, keyword) ||
		     offsetof(struct etl_event_desc, task) !=
		     offsetof(struct etw_event_desc, task));
	memcpy(&h->desc, desc, sizeof(h->desc));
	memcpy(h->activity_id, activity_id, sizeof(h->activity_id));
}

#endif /* _ETW_EVENT_HEADER_H */
