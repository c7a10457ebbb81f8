// SPDX-License-Identifier: GPL-2.0
/*
 * The classic kinds of ETW_IOC_WRITE: TraceEvent (EVENT_TRACE_HEADER),
 * TraceEventInstance (EVENT_INSTANCE_GUID_HEADER) and TraceMessage
 * (MESSAGE_TRACE_HEADER).  Unlike EventWrite they name one session, by
 * logger id, and are stored there whatever provider enabled it.
 *
 * 1. Read the caller's header, its data (or MOF_FIELD array and the data
 *    it points to) and a GuidPtr GUID into the kernel, faults allowed.
 *    libetw has already made the checks Windows' user-mode half makes
 *    (seed 002); they are repeated here because nothing from userspace is
 *    trusted, with the same results.
 * 2. Build the stored header: the caller's class, ThreadId, ProcessId,
 *    processor times, and a time stamp unless WNODE_FLAG_USE_TIMESTAMP.
 * 3. Under RCU find the session; with preemption disabled reserve room in
 *    this CPU's buffer and copy the record, or count the event lost.
 */
#include <linux/compat.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/uaccess.h>

#include "etl.h"
#include "internal.h"
#include "message.h"

static_assert(sizeof(struct etl_trace_header) == ETW_TRACE_HEADER_SIZE);
static_assert(sizeof(struct etl_instance_header) == 0x48);
static_assert(sizeof(struct etl_message_header) == 8);
static_assert(sizeof(struct etw_trace_write) == ETW_EVENT_WRITE_SIZE_VER0);

/* Payloads up to this size are copied to the stack, larger ones kmalloc'd. */
#define ETW_CLASSIC_STACK_PAYLOAD	256

/* A message with every item: sequence, GUID, time stamp, two ids. */
#define ETW_MESSAGE_MAX_HEADER	(sizeof(struct etl_message_header) + 4 + 16 + 8 + 8)
/* The longest stored header. */
#define ETW_CLASSIC_MAX_HEADER	sizeof(struct etl_instance_header)
static_assert(ETW_MESSAGE_MAX_HEADER <= ETW_CLASSIC_MAX_HEADER);

/* The caller's EVENT_TRACE_HEADER or EVENT_INSTANCE_HEADER, as read. */
struct etw_caller_header {
	u16 size;
	u16 field_type_flags;
	u8 type;
	u8 level;
	u16 version;
	u64 history;		/* the session handle TraceEvent loaded here */
	u64 timestamp;
	u64 guid_or_ptr[2];	/* INSTANCE: RegHandle, InstanceId, ParentInstanceId */
	u32 client_context;
	u32 flags;		/* WNODE_FLAG_* */
	u64 parent_reg_handle;	/* INSTANCE only */
};

static_assert(offsetof(struct etw_caller_header, flags) == 0x2c);
static_assert(sizeof(struct etw_caller_header) == ETW_INSTANCE_HEADER_SIZE);

/* One record on its way into a buffer. */
struct etw_classic_rec {
	u8 header[ETW_CLASSIC_MAX_HEADER];
	u32 header_len;
	int timestamp_off;	/* where the time stamp goes; -1: none to take */
	int sequence_off;	/* where the message sequence goes; -1: none */
	u8 stack[ETW_CLASSIC_STACK_PAYLOAD];
	u8 *payload;		/* stack or kmalloc'd */
	u32 payload_len;
};

/* TraceMessage numbers of sessions in EVENT_TRACE_USE_GLOBAL_SEQUENCE mode. */
static atomic_t etw_global_sequence = ATOMIC_INIT(0);

/* Room for @len bytes of data; -EMSGSIZE if the record would pass 64 KiB. */
static int etw_classic_payload_alloc(struct etw_classic_rec *rec, u64 len)
{
	if (rec->header_len + len > ETW_MAX_EVENT_SIZE)
		return -EMSGSIZE;
	if (len > sizeof(rec->stack)) {
		rec->payload = kmalloc(len, GFP_KERNEL);
		if (!rec->payload)
			return -ENOMEM;
	}
	rec->payload_len = len;
	return 0;
}

static void etw_classic_payload_free(struct etw_classic_rec *rec)
{
	if (rec->payload != rec->stack)
		kfree(rec->payload);
}

/*
 * Gather @count blocks described by the {address, length} array at @descs
 * (MOF_FIELD and etw_data_desc have the same layout) into rec->payload.
 */
static int etw_classic_gather(struct etw_classic_rec *rec, u64 descs, u32 count)
{
	struct etw_data_desc stack_d[ETW_MAX_MOF_BYTES / sizeof(struct etw_data_desc)];
	struct etw_data_desc *d = stack_d;
	u64 total = 0;
	u8 *dst;
	u32 i;
	int ret = -EFAULT;

	if (count > ARRAY_SIZE(stack_d)) {
		d = kmalloc_array(count, sizeof(*d), GFP_KERNEL);
		if (!d)
			return -ENOMEM;
	}
	if (copy_from_user(d, u64_to_user_ptr(descs), count * sizeof(*d)))
		goto out;
	for (i = 0; i < count; i++)
		total += d[i].size;
	ret = etw_classic_payload_alloc(rec, total);
	dst = rec->payload;
	for (i = 0; i < count && !ret; i++) {
		if (copy_from_user(dst, u64_to_user_ptr(d[i].ptr), d[i].size))
			ret = -EFAULT;
		dst += d[i].size;
	}
out:
	if (d != stack_d)
		kfree(d);
	return ret;
}

/*
 * The event data of a TraceEvent or TraceEventInstance header of @given
 * bytes: what follows it up to Size, or with WNODE_FLAG_USE_MOF_PTR what
 * the MOF_FIELD array there describes, at most 0x100 bytes of it.
 */
static int etw_classic_data(struct etw_classic_rec *rec,
			    const struct etw_caller_header *h, u64 addr,
			    u32 given)
{
	u32 rest = h->size - given;
	int ret;

	if (h->flags & ETW_TRACE_FLAG_USE_MOF_PTR) {
		if (rest > ETW_MAX_MOF_BYTES)
			return -ERANGE;
		/* A partial MOF_FIELD at the end is not one. */
		return etw_classic_gather(rec, addr + given,
					  rest / sizeof(struct etw_data_desc));
	}
	ret = etw_classic_payload_alloc(rec, rest);
	if (ret)
		return ret;
	if (copy_from_user(rec->payload, u64_to_user_ptr(addr + given), rest))
		return -EFAULT;
	return 0;
}

/*
 * What TRACE and INSTANCE share: read the caller's header of @given bytes
 * and its data, and fill the stored EVENT_TRACE_HEADER at the start of
 * rec->header (@stored bytes of header in all) but its GUID.
 */
static int etw_classic_header_event(struct etw_trace_write *arg,
				    struct etw_classic_rec *rec,
				    struct etw_caller_header *h, u32 given,
				    u32 stored, u8 type32, u8 type64)
{
	struct etl_trace_header *t = (struct etl_trace_header *)rec->header;
	int ret;

	if (copy_from_user(h, u64_to_user_ptr(arg->header), given))
		return -EFAULT;
	if (h->size < given || !(h->flags & ETW_TRACE_FLAG_TRACED_GUID))
		return -EINVAL;
	rec->header_len = stored;
	ret = etw_classic_data(rec, h, arg->header, given);
	if (ret)
		return ret;

	t->size = rec->header_len + rec->payload_len;
	t->header_type = in_compat_syscall() ? type32 : type64;
	t->marker_flags = ETL_MARKER_FLAGS_TRACE;
	t->type = h->type;
	t->level = h->level;
	t->version = h->version;
	t->thread_id = task_pid_nr(current);
	t->process_id = task_tgid_nr(current);
	t->timestamp = h->timestamp;
	if (!(h->flags & ETW_TRACE_FLAG_USE_TIMESTAMP))
		rec->timestamp_off = offsetof(struct etl_trace_header, timestamp);
	/* Processor times in milliseconds (the file's TimerResolution). */
	t->kernel_time = div_u64(READ_ONCE(current->stime), NSEC_PER_MSEC);
	t->user_time = div_u64(READ_ONCE(current->utime), NSEC_PER_MSEC);
	return 0;
}

static int etw_classic_trace(struct etw_trace_write *arg,
			     struct etw_classic_rec *rec)
{
	struct etl_trace_header *t = (struct etl_trace_header *)rec->header;
	struct etw_caller_header h;
	int ret;

	ret = etw_classic_header_event(arg, rec, &h, ETW_TRACE_HEADER_SIZE,
				       sizeof(*t), ETL_HEADER_TYPE_FULL32,
				       ETL_HEADER_TYPE_FULL64);
	if (ret)
		return ret;
	if (!(h.flags & ETW_TRACE_FLAG_USE_GUID_PTR)) {
		memcpy(t->guid, h.guid_or_ptr, sizeof(t->guid));
		return 0;
	}
	if (copy_from_user(t->guid, u64_to_user_ptr(h.guid_or_ptr[0]),
			   sizeof(t->guid)))
		return -EFAULT;
	return 0;
}

static int etw_classic_instance(struct etw_trace_write *arg,
				struct etw_classic_rec *rec)
{
	struct etl_instance_header *i = (struct etl_instance_header *)rec->header;
	struct etw_caller_header h;
	int ret;

	ret = etw_classic_header_event(arg, rec, &h, ETW_INSTANCE_HEADER_SIZE,
				       sizeof(*i), ETL_HEADER_TYPE_INSTANCE32,
				       ETL_HEADER_TYPE_INSTANCE64);
	if (ret)
		return ret;
	/* The class GUIDs of the registration handles, which libetw knows. */
	memcpy(i->trace.guid, arg->guid, sizeof(i->trace.guid));
	i->instance_id = arg->instance_id;
	if (arg->flags & ETW_WRITE_F_PARENT) {
		i->parent_instance_id = arg->parent_instance_id;
		memcpy(i->parent_guid, arg->parent_guid, sizeof(i->parent_guid));
	}
	return 0;
}

/*
 * MESSAGE_TRACE_HEADER, then the items the flags ask for in Windows'
 * order: sequence number, component id or GUID, time stamp, thread and
 * process ids; then the arguments.
 */
static int etw_classic_message(struct etw_trace_write *arg,
			       struct etw_classic_rec *rec)
{
	struct etl_message_header *m = (struct etl_message_header *)rec->header;
	u32 f = arg->message_flags;
	u8 *p;
	int ret;

	if ((f & ~ETW_MESSAGE_FLAG_MASK) ||
	    ((f & ETW_MESSAGE_GUID) && (f & ETW_MESSAGE_COMPONENTID)) ||
	    arg->count > ETW_MAX_DATA_DESCRIPTORS)
		return -EINVAL;
	/* The pointer size of the arguments is the writer's, not the caller's say. */
	f &= ~(ETW_MESSAGE_POINTER32 | ETW_MESSAGE_POINTER64);
	f |= in_compat_syscall() ? ETW_MESSAGE_POINTER32 : ETW_MESSAGE_POINTER64;

	p = etw_message_items(rec->header, f, arg->guid, &rec->sequence_off,
			      &rec->timestamp_off);
	rec->header_len = p - rec->header;
	ret = etw_classic_gather(rec, arg->data, arg->count);
	if (ret)
		return ret;
	m->size = rec->header_len + rec->payload_len;
	m->reserved = 0;
	m->marker_flags = ETL_MARKER_FLAGS_MESSAGE;
	m->message_number = arg->message_number;
	m->option_flags = f;
	return 0;
}

/* The number of a message of @s with ETW_MESSAGE_SEQUENCE. */
u32 etw_classic_sequence(struct etw_session *s)
{
	if (s->info.log_file_mode & ETW_MODE_GLOBAL_SEQUENCE)
		return atomic_inc_return(&etw_global_sequence);
	if (s->info.log_file_mode & ETW_MODE_LOCAL_SEQUENCE)
		return atomic_inc_return(&s->message_sequence);
	return 0;	/* the session numbers nothing */
}

/* Store the record in its session, or count it lost there. */
static int etw_classic_store(struct etw_trace_write *arg,
			     struct etw_classic_rec *rec)
{
	u32 len = rec->header_len + rec->payload_len;
	struct etw_session *s;
	struct etw_cpu *c;
	u32 seq;
	u64 now;
	u8 *slot;
	int ret = 0;

	rcu_read_lock();
	s = etw_session_lookup_rcu(arg->logger_id);
	if (!s) {
		ret = -EBADF;
		goto out;
	}
	if (ALIGN(len, 8) > s->buffer_size - ETW_BUFFER_HEADER_SIZE) {
		ret = -EMSGSIZE;
		goto out;
	}
	if (rec->sequence_off >= 0) {
		seq = etw_classic_sequence(s);
		memcpy(rec->header + rec->sequence_off, &seq, sizeof(seq));
	}

	preempt_disable();
	c = this_cpu_ptr(s->cpu);
	slot = etw_buffer_reserve(s, c, ALIGN(len, 8));
	if (!slot) {
		c->events_lost++;
		if (c->cur)
			c->cur->events_lost = true;
		/*
		 * Windows: ERROR_NOT_ENOUGH_MEMORY for a pool at its maximum,
		 * ERROR_OUTOFMEMORY for one below it whose new buffer could not
		 * be had (here: its growth is pending or hit the memory cap).
		 */
		ret = READ_ONCE(s->nr_buffers) < READ_ONCE(s->max_buffers) ?
		      -ENOBUFS : -ENOSPC;
	} else {
		if (rec->timestamp_off >= 0) {
			now = etw_clock();
			memcpy(rec->header + rec->timestamp_off, &now, sizeof(now));
		}
		memcpy(slot, rec->header, rec->header_len);
		memcpy(slot + rec->header_len, rec->payload, rec->payload_len);
		etw_buffer_commit(c, len);
	}
	preempt_enable();
out:
	rcu_read_unlock();
	return ret;
}

int etw_write_classic(struct etw_trace_write *arg)
{
	struct etw_classic_rec stack_rec, *rec = &stack_rec;
	int ret;

	if ((arg->flags & ~ETW_WRITE_F_TRACE_MASK) || arg->reserved0 ||
	    memchr_inv(arg->reserved, 0, sizeof(arg->reserved)))
		return -EINVAL;
	if ((arg->flags & ETW_WRITE_F_PARENT) && arg->kind != ETW_WRITE_INSTANCE)
		return -EINVAL;
	memset(rec->header, 0, sizeof(rec->header));
	rec->timestamp_off = -1;
	rec->sequence_off = -1;
	rec->payload = rec->stack;
	rec->payload_len = 0;

	switch (arg->kind) {
	case ETW_WRITE_TRACE:
		ret = etw_classic_trace(arg, rec);
		break;
	case ETW_WRITE_INSTANCE:
		ret = etw_classic_instance(arg, rec);
		break;
	case ETW_WRITE_MESSAGE:
		ret = etw_classic_message(arg, rec);
		break;
	default:
		ret = -EINVAL;
		break;
	}
	if (!ret)
		ret = etw_classic_store(arg, rec);
	etw_classic_payload_free(rec);
	return ret;
}
