// SPDX-License-Identifier: GPL-2.0
/*
 * The fast lane of TraceMessage (DoTraceMessage, WPP's write).
 *
 * Most messages are a few (PVOID, size_t) arguments of a page or less
 * into a session whose current buffer of this CPU has room.  Such a
 * message is: its argument descriptors read into this CPU's copy, the
 * session, room in the buffer, the MESSAGE_TRACE_HEADER and its items
 * written in place, the arguments copied from user memory straight into
 * the record in one user access window, the sequence number, the commit;
 * with preemption disabled and page faults disabled, no staging copy.
 * On a writer fd the lane reads the ETW_IOC_WRITE request itself
 * (etw_write_message_user()); on /dev/etw, ETW_IOC_WRITE's dispatch
 * hands it the request it read (etw_write_message_fast()).
 *
 * Anything else, and anything that goes wrong, returns -EAGAIN with
 * nothing written or counted (no sequence number taken): the caller then
 * takes etw_write_classic()'s full path, which writes the same record or
 * returns the error (a bad request, a fault, a full buffer, no session).
 * So the lane changes how fast a message is written, never what.
 */
#include <linux/compat.h>
#include <linux/sched.h>
#include <linux/uaccess.h>

#include "etl.h"
#include "internal.h"
#include "message.h"
#include "ucopy.h"

/* Arguments the lane reads itself; more take the full path. */
#define ETW_MESSAGE_FAST_ARGS	16

/*
 * This CPU's copy of the request's argument descriptors: read with
 * preemption disabled, it lives in no stack frame (no canary, no
 * hardened-usercopy check of a stack object).
 */
struct etw_message_args {
	struct etw_data_desc d[ETW_MESSAGE_FAST_ARGS];
};

static DEFINE_PER_CPU(struct etw_message_args, etw_message_args);

/*
 * The bytes of MESSAGE_TRACE_HEADER and the items option flags @f ask for,
 * without a branch: @f has GUID or COMPONENTID, not both.
 */
static __always_inline u32 etw_message_header_len(u32 f)
{
	BUILD_BUG_ON(ETW_MESSAGE_SEQUENCE != 0x01 || ETW_MESSAGE_GUID != 0x02 ||
		     ETW_MESSAGE_COMPONENTID != 0x04 ||
		     ETW_MESSAGE_TIMESTAMP != 0x08 ||
		     ETW_MESSAGE_PERFORMANCE_TIMESTAMP != 0x10 ||
		     ETW_MESSAGE_SYSTEMINFO != 0x20);
	return sizeof(struct etl_message_header) +
	       ((f & 0x01) << 2) +			/* sequence: 4 */
	       (f & 0x04) + ((f & 0x02) << 3) +		/* component id 4, GUID 16 */
	       ((((f >> 3) | (f >> 4)) & 1) << 3) +	/* time stamp: 8 */
	       ((f & 0x20) >> 2);			/* thread and process: 8 */
}

/*
 * The request's @count descriptors into this CPU's copy, and each block
 * checked as etw_fast_copy_open() checks one of up to a page (a copy that
 * starts in user space faults in the guard page above it): the size of
 * the arguments, or -1 for the full path.
 */
static __always_inline s64 etw_message_args_read(struct etw_data_desc *d,
						 u64 uptr, u32 count)
{
	const void __user *src = u64_to_user_ptr(uptr);
	u64 total = 0;
	u32 i;

	if (!count)
		return 0;
	if (etw_ucopy_window(d, src, count * sizeof(*d)))
		return -1;
	for (i = 0; i < count; i++) {
		if (d[i].size > PAGE_SIZE ||
		    !access_ok(u64_to_user_ptr(d[i].ptr), PAGE_SIZE))
			return -1;
		total += d[i].size;
	}
	return total;
}

/*
 * The blocks of @count checked descriptors at @dst, in one user access
 * window (opened on the descriptor array, which was read from there):
 * most of WPP's arguments (numbers, short strings) are 32 bytes or less.
 */
static __always_inline int etw_message_args_copy(u8 *dst,
						 const struct etw_data_desc *d,
						 u64 uptr, u32 count)
{
	const u8 __user *src;
	u32 i;

	if (!count)
		return 0;
	if (!user_access_begin(u64_to_user_ptr(uptr), count * sizeof(*d)))
		return -EFAULT;
	for (i = 0; i < count; i++) {
		src = u64_to_user_ptr(d[i].ptr);
		if (d[i].size <= 32 ?
		    !etw_ucopy_upto32(dst, src, d[i].size) :
		    etw_ucopy(dst, src, d[i].size)) {
			user_access_end();
			return -EFAULT;
		}
		dst += d[i].size;
	}
	user_access_end();
	return 0;
}

/* What the full path refuses or treats otherwise: its checks, first. */
static __always_inline bool etw_message_fast_request(const struct etw_trace_write *arg)
{
	u32 f = arg->message_flags;
	u64 r[3];

	BUILD_BUG_ON(sizeof(arg->reserved) != sizeof(r));
	memcpy(r, arg->reserved, sizeof(r));
	return !(arg->flags | arg->reserved0 | r[0] | r[1] | r[2]) &&
	       !(f & ~ETW_MESSAGE_FLAG_MASK) &&
	       !((f & ETW_MESSAGE_GUID) && (f & ETW_MESSAGE_COMPONENTID)) &&
	       arg->count <= ETW_MESSAGE_FAST_ARGS;
}

/*
 * TraceMessage's record from @arg, a request of kind %ETW_WRITE_MESSAGE in
 * kernel memory, if the lane can: 0 when written, -EAGAIN for
 * etw_write_classic() (nothing written, counted or numbered).  In an RCU
 * read side with preemption and page faults disabled.
 */
static __always_inline int etw_message_lane(const struct etw_trace_write *arg)
{
	struct etl_message_header *m;
	struct etw_data_desc *d;
	struct etw_session *s;
	struct etw_buffer *b;
	int seq_off, ts_off;
	u32 f, hlen, len, seq;
	u64 now;
	s64 payload;
	u8 *p;

	if (!etw_message_fast_request(arg))
		return -EAGAIN;
	/* The pointer size of the arguments is the writer's, as in the full path. */
	f = arg->message_flags & ~(ETW_MESSAGE_POINTER32 | ETW_MESSAGE_POINTER64);
	f |= in_compat_syscall() ? ETW_MESSAGE_POINTER32 : ETW_MESSAGE_POINTER64;
	hlen = etw_message_header_len(f);

	d = this_cpu_ptr(&etw_message_args)->d;
	payload = etw_message_args_read(d, arg->data, arg->count);
	if (payload < 0 || hlen + payload > ETW_MAX_EVENT_SIZE)
		return -EAGAIN;
	len = hlen + payload;
	s = etw_session_lookup_rcu(arg->logger_id);
	if (!s || ALIGN(len, 8) > s->buffer_size - ETW_BUFFER_HEADER_SIZE)
		return -EAGAIN;
	/* Not this_cpu_ptr(): DEBUG_PREEMPT's check of it is a call. */
	b = raw_cpu_ptr(s->cpu)->cur;
	if (!b || b->offset + ALIGN(len, 8) > s->buffer_size)
		return -EAGAIN;

	/* The header and its items in place; nothing is the buffer's until the commit. */
	m = (struct etl_message_header *)(b->data + b->offset);
	m->size = len;
	m->reserved = 0;
	m->marker_flags = ETL_MARKER_FLAGS_MESSAGE;
	m->message_number = arg->message_number;
	m->option_flags = f;
	p = etw_message_items((u8 *)m, f, arg->guid, &seq_off, &ts_off);
	if (ts_off >= 0) {
		now = etw_clock();
		memcpy((u8 *)m + ts_off, &now, sizeof(now));
	}
	if (etw_message_args_copy(p, d, arg->data, arg->count))
		return -EAGAIN;
	if (seq_off >= 0) {
		seq = etw_classic_sequence(s);
		memcpy((u8 *)m + seq_off, &seq, sizeof(seq));
	}
	b->offset += ALIGN(len, 8);
	return 0;
}

/**
 * etw_write_message_fast() - TraceMessage's record, if the lane can
 * @arg: the request, of kind %ETW_WRITE_MESSAGE, in kernel memory
 *
 * Return: 0 when written, -EAGAIN for etw_write_classic() (nothing
 * written, counted or numbered).
 */
int etw_write_message_fast(const struct etw_trace_write *arg)
{
	int ret;

	rcu_read_lock();
	preempt_disable();
	pagefault_disable();
	ret = etw_message_lane(arg);
	pagefault_enable();
	preempt_enable();
	rcu_read_unlock();
	return ret;
}

/*
 * This CPU's copy of a writer fd's ETW_IOC_WRITE request: read with
 * preemption disabled, in no stack frame.
 */
static DEFINE_PER_CPU(struct etw_trace_write, etw_message_req);

/**
 * etw_write_message_user() - ETW_IOC_WRITE on a writer fd
 * @ef: the file written through
 * @uarg: the caller's request
 *
 * The request read in one copy with page faults disabled: a TraceMessage
 * the lane takes is written here, without the generic path's request
 * buffer, table and second dispatch; anything else goes to the generic
 * path, which reads the request again.
 *
 * Return: 0 or the write's negative errno.
 */
long etw_write_message_user(struct etw_file *ef, void __user *uarg)
{
	struct etw_trace_write *w;
	int ret = -EAGAIN;

	BUILD_BUG_ON(sizeof(*w) != ETW_EVENT_WRITE_SIZE_VER0);
	rcu_read_lock();
	preempt_disable();
	pagefault_disable();
	w = this_cpu_ptr(&etw_message_req);
	if (!etw_ucopy_window(w, uarg, sizeof(*w)) && w->size == sizeof(*w) &&
	    w->kind == ETW_WRITE_MESSAGE)
		ret = etw_message_lane(w);
	pagefault_enable();
	preempt_enable();
	rcu_read_unlock();
	if (!ret)
		return 0;
	return etw_file_ioctl_generic(ef, ETW_IOC_WRITE, uarg);
}
