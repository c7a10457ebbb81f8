/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers of the classic selftests (TraceEvent, TraceEventInstance,
 * TraceMessage, RegisterTraceGuids): the stored header layouts and a
 * drain that accepts every record family (etw_drain() takes only
 * EVENT_HEADER records).  No libetw, so the 32-bit builds use it too.
 */
#ifndef ETW_CLASSIC_SELFTESTS_H
#define ETW_CLASSIC_SELFTESTS_H

#include <stdint.h>
#include <string.h>
#include <time.h>

#include "etw_selftests.h"
#include "etw_clock.h"

/* EVENT_TRACE_HEADER as stored: 0x30 bytes. */
struct ct_trace_header {
	__u16 size;
	__u8 header_type;
	__u8 marker_flags;
	__u8 type;
	__u8 level;
	__u16 version;
	__u32 thread_id;
	__u32 process_id;
	__u64 timestamp;
	__u8 guid[16];
	__u32 kernel_time;
	__u32 user_time;
} __attribute__((packed));

/* EVENT_INSTANCE_GUID_HEADER: 0x48 bytes. */
struct ct_instance_header {
	struct ct_trace_header t;
	__u32 instance_id;
	__u32 parent_instance_id;
	__u8 parent_guid[16];
} __attribute__((packed));

/* MESSAGE_TRACE_HEADER: 8 bytes. */
struct ct_message_header {
	__u16 size;
	__u8 reserved;
	__u8 marker_flags;
	__u16 message_number;
	__u16 option_flags;
} __attribute__((packed));

/* The caller's headers: 0x30 and 0x38 bytes, data after them. */
struct ct_caller_header {
	__u16 size;
	__u16 field_type_flags;
	__u8 type;
	__u8 level;
	__u16 version;
	__u64 history;
	__u64 timestamp;
	__u64 guid_or_ptr[2];
	__u32 client_context;
	__u32 flags;
};

#define CT_TRACED_GUID		0x00020000
#define CT_USE_TIMESTAMP	0x00000200
#define CT_USE_GUID_PTR		0x00080000
#define CT_USE_MOF_PTR		0x00100000
#define CT_NO_HEADER		0x00200000

/* The header type a record of this process has: 32 or 64-bit. */
#define CT_FULL		(sizeof(void *) == 4 ? 0x0a : 0x14)
#define CT_INSTANCE	(sizeof(void *) == 4 ? 0x0b : 0x15)

/* Flush and read the session's buffers: records of every family. */
static inline long ct_drain(int fd, __u32 logger_id, etw_raw_record_fn fn, void *ctx)
{
	return etw_drain_raw(fd, logger_id, 8, fn, ctx);
}

/* The last record of a drain and how many there were. */
struct ct_last {
	__u8 rec[65536];
	__u16 size;
	long n;
};

static inline int ct_keep_last(const __u8 *rec, __u16 size,
			       const __u8 *buffer, __u32 cpu, void *ctx)
{
	struct ct_last *l = ctx;

	memcpy(l->rec, rec, size);
	l->size = size;
	l->n++;
	return 0;
}

/* Now in the session clock, to bracket a record's time stamp. */
static inline __u64 ct_now(void)
{
	return etw_clock_now();
}

static inline int ct_write(int fd, struct etw_trace_write *w)
{
	w->size = sizeof(*w);
	return etw_ioctl_err(fd, ETW_IOC_WRITE, w);
}

/* ETW_WRITE_TRACE of the header at @h to @logger_id. */
static inline int ct_trace(int fd, __u32 logger_id, const void *h)
{
	struct etw_trace_write w = { .kind = ETW_WRITE_TRACE };

	w.logger_id = logger_id;
	w.header = (uintptr_t)h;
	return ct_write(fd, &w);
}

#endif /* ETW_CLASSIC_SELFTESTS_H */
