// SPDX-License-Identifier: GPL-2.0
/*
 * The extended items EnableProperty asks for (EnableTraceEx2's
 * EVENT_ENABLE_PROPERTY_*), each added only to the records of the sessions
 * that set its bit:
 *
 * - SID: Linux has no SIDs.  The writer's effective uid (as the initial
 *   user namespace sees it) becomes the "Unix user" SID S-1-22-1-<uid>, the
 *   mapping Samba and Windows' NFS services use.
 * - TS_ID: Windows' terminal-services session.  Its counterpart is the
 *   audit session id of the writer (the login session, /proc/self/sessionid);
 *   a process outside any login session (a daemon) has 0, as Windows
 *   services have session 0.
 * - PROCESS_START_KEY: a number unique to a process for the whole boot:
 *   the thread group leader's start time in milliseconds since boot in the
 *   high 42 bits, its pid in the low 22 (PID_MAX_LIMIT is 2^22).  Two
 *   processes get the same key only if one pid is reused within the same
 *   millisecond, which the cyclic pid allocator rules out.
 * - EVENT_KEY: a number unique to the event for the whole boot, the same
 *   in every session that stores it: a per-CPU sequence number times the
 *   number of CPU ids, plus the CPU.
 * - STACK_TRACE: the user stack (ustack.c), MatchId 0 (the whole stack is
 *   in the event).  STACK_TRACE64 for 64-bit writers; a 32-bit writer's
 *   records are the 32-bit form (EVENT_HEADER32) and so is its stack.
 *
 * The other bits Windows defines are accepted and have no effect here
 * (Documentation/design.rst says why for each).
 */
#include <linux/audit.h>
#include <linux/compat.h>
#include <linux/cpumask.h>
#include <linux/cred.h>
#include <linux/percpu.h>
#include <linux/pid.h>
#include <linux/sched.h>
#include <linux/uidgid.h>

#include "etl.h"
#include "internal.h"

/* Stack frames in one STACK_TRACE item, as Windows records at most. */
#define ETW_MAX_STACK_FRAMES	192

/* The stack item's data: MatchId, then the addresses. */
struct etw_stack_data {
	u64 match_id;
	u64 addr[ETW_MAX_STACK_FRAMES];
};

/* Filled with preemption disabled and copied into the records at once. */
static DEFINE_PER_CPU(struct etw_stack_data, etw_stack_buf);
static DEFINE_PER_CPU(u64, etw_event_seq);

#define ETW_SID_UNIX_USER_AUTHORITY	22
#define ETW_SID_UNIX_USER		1

/**
 * etw_props_add() - reserve the EnableProperty items of an event
 * @set: the event's items
 * @pr: where their data will be
 * @stack: true for the stack item, false for the others
 * @props: the EnableProperty bits of the sessions on the provider's route;
 *	items no session asked for are not added (the usual case: none)
 *
 * The items are added empty-handed: etw_props_fill() computes their data
 * once the sessions that want the event are known.  The stack item is
 * added separately so that it comes last, after any TraceLogging items.
 */
void etw_props_add(struct etw_ext_set *set, struct etw_props *pr, bool stack,
		   u32 props)
{
	if (stack) {
		if (!(props & ETW_ENABLE_STACK_TRACE))
			return;
		pr->stack = &set->item[set->count];
		etw_ext_add(set, ETL_EXT_STACK_TRACE64, NULL, 0,
			    ETW_ENABLE_STACK_TRACE);
		return;
	}
	if (props & ETW_ENABLE_SID)
		etw_ext_add(set, ETL_EXT_SID, &pr->sid, sizeof(pr->sid),
			    ETW_ENABLE_SID);
	if (props & ETW_ENABLE_TS_ID)
		etw_ext_add(set, ETL_EXT_TS_ID, &pr->ts_id, sizeof(pr->ts_id),
			    ETW_ENABLE_TS_ID);
	if (props & ETW_ENABLE_PROCESS_START_KEY)
		etw_ext_add(set, ETL_EXT_PROCESS_START_KEY, &pr->start_key,
			    sizeof(pr->start_key), ETW_ENABLE_PROCESS_START_KEY);
	if (props & ETW_ENABLE_EVENT_KEY)
		etw_ext_add(set, ETL_EXT_EVENT_KEY, &pr->event_key,
			    sizeof(pr->event_key), ETW_ENABLE_EVENT_KEY);
}

/* S-1-22-1-<uid>: also the UserSID of the kernel logger's process events. */
void etw_sid_of_uid(struct etw_sid *sid, uid_t uid)
{
	memset(sid, 0, sizeof(*sid));
	sid->revision = 1;
	sid->sub_authority_count = ARRAY_SIZE(sid->sub_authority);
	sid->authority[5] = ETW_SID_UNIX_USER_AUTHORITY;	/* big-endian */
	sid->sub_authority[0] = cpu_to_le32(ETW_SID_UNIX_USER);
	sid->sub_authority[1] = cpu_to_le32(uid);
}

static void etw_sid_fill(struct etw_sid *sid)
{
	etw_sid_of_uid(sid, from_kuid_munged(&init_user_ns, current_euid()));
}

/* Also the UniqueProcessKey of the kernel logger's process events. */
u64 etw_start_key_of(struct task_struct *t)
{
	const struct task_struct *leader = t->group_leader;

	BUILD_BUG_ON(PID_MAX_LIMIT > (1 << 22));
	return div_u64(leader->start_boottime, NSEC_PER_MSEC) << 22 |
	       task_tgid_nr(t);
}

static u64 etw_process_start_key(void)
{
	return etw_start_key_of(current);
}

static void etw_stack_fill(struct etw_ext *x)
{
	struct etw_stack_data *st = this_cpu_ptr(&etw_stack_buf);
	unsigned int i, n;

	n = etw_ustack_walk(st->addr, ETW_MAX_STACK_FRAMES);
	st->match_id = 0;
	x->data = st;
	if (in_compat_syscall()) {
		u32 *addr32 = (u32 *)st->addr;

		/* In place: entry i moves down from offset 8i to 4i. */
		for (i = 0; i < n; i++)
			addr32[i] = st->addr[i];
		x->type = ETL_EXT_STACK_TRACE32;
		x->size = sizeof(st->match_id) + n * sizeof(u32);
	} else {
		x->type = ETL_EXT_STACK_TRACE64;
		x->size = sizeof(st->match_id) + n * sizeof(u64);
	}
}

/**
 * etw_props_fill() - compute the items the accepting sessions asked for
 * @pr: the event's EnableProperty data (see etw_props_add())
 * @props: the OR of the EnableProperty bits of those sessions
 *
 * Preemption disabled: the stack goes to this CPU's scratch buffer, which
 * stays valid until preemption is enabled again.
 */
void etw_props_fill(struct etw_props *pr, u32 props)
{
	if (props & ETW_ENABLE_SID)
		etw_sid_fill(&pr->sid);
	if (props & ETW_ENABLE_TS_ID) {
		u32 id = audit_get_sessionid(current);

		pr->ts_id = id == AUDIT_SID_UNSET ? 0 : id;
	}
	if (props & ETW_ENABLE_PROCESS_START_KEY)
		pr->start_key = etw_process_start_key();
	/* Distinct CPUs never give the same key: seq * ncpus + cpu. */
	if (props & ETW_ENABLE_EVENT_KEY)
		pr->event_key = this_cpu_inc_return(etw_event_seq) * nr_cpu_ids +
				smp_processor_id();
	if (props & ETW_ENABLE_STACK_TRACE)
		etw_stack_fill(pr->stack);
}
