/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The scheduler's and the disk's kernel records, parsed (model/sched_records.c):
 * CSwitch, ReadyThread and DiskIo in Windows' layouts (Documentation/stacks.rst),
 * for 32- and 64-bit writers, as etw report --sched (model/sched.c) and
 * etw export read them.  Every read is bounded by the payload's size.
 */
#ifndef ETW_MODEL_SCHED_H
#define ETW_MODEL_SCHED_H

#include <stdbool.h>
#include <stdint.h>

#include <etw_etl.h>

#define HOOK_CSWITCH		0x0524
#define HOOK_READY_THREAD	0x0532
#define HOOK_DISK_READ		0x010a
#define HOOK_DISK_WRITE		0x010b
#define HOOK_DISK_FLUSH		0x010e

/* KTHREAD_STATE values CSwitch carries. */
#define THREAD_STATE_READY	1
#define THREAD_STATE_TERMINATED	4
#define THREAD_STATE_WAITING	5

struct rec_cswitch {
	uint32_t new_tid;
	uint32_t old_tid;
	int8_t new_priority;
	int8_t old_priority;
	uint8_t previous_cstate;
	uint8_t old_wait_reason;	/* KWAIT_REASON */
	uint8_t wait_mode;
	uint8_t old_state;		/* THREAD_STATE_* */
	uint8_t wait_ideal_processor;
	uint32_t new_wait_time;
};

struct rec_ready_thread {
	uint32_t tid;			/* the thread made ready */
	int8_t adjust_reason;
	int8_t adjust_increment;
	uint8_t flag;
};

struct rec_disk_io {
	bool flush;			/* FlushBuffers: no size or offset */
	uint32_t disk;
	uint32_t irp_flags;
	uint32_t size;
	uint64_t offset;
	uint64_t file_object;
	uint64_t irp;
	uint64_t response_time;		/* session clock ticks */
	uint32_t issuing_tid;
};

/* Each false for another record or one too short for its version. */
bool rec_parse_cswitch(const struct etw_etl_event *ev, struct rec_cswitch *r);
bool rec_parse_ready_thread(const struct etw_etl_event *ev,
			    struct rec_ready_thread *r);
/* Read, Write and FlushBuffers (by ev->hook_id). */
bool rec_parse_disk_io(const struct etw_etl_event *ev, struct rec_disk_io *r);

/* "WrQueue", "UserRequest"...: Windows' name of a KWAIT_REASON. */
const char *wait_reason_name(unsigned int reason);

#endif /* ETW_MODEL_SCHED_H */
