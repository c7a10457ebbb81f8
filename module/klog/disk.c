// SPDX-License-Identifier: GPL-2.0
/*
 * DISK_IO and DISK_IO_INIT: block requests as DiskIo events, from the
 * block_rq_issue and block_rq_complete tracepoints.  A read, write or
 * flush request gives ReadInit, WriteInit or FlushInit when it is issued
 * to the driver (DISK_IO_INIT) and Read, Write or FlushBuffers when it
 * completes (DISK_IO), with the time between the two as
 * HighResResponseTime (session clock ticks) and the issuing thread.
 * Other operations (discard, write-zeroes, ...) have no Windows event and
 * give none.
 *
 * Windows' values: DiskNumber is the disk's device number as stat()
 * gives it (new_encode_dev()), Irp a keyed hash of the request
 * (the same for its Init and completion events, no kernel address
 * leaked), FileObject and IrpFlags 0.  The issuing thread and time of a
 * request in flight are kept in a table of KLOG_DISK_SLOTS slots by the
 * request's hash; a request that finds its slot taken completes with
 * IssuingThreadId and HighResResponseTime 0.
 */
#include <linux/blk-mq.h>
#include <linux/blkdev.h>
#include <linux/kdev_t.h>
#include <linux/random.h>
#include <linux/siphash.h>
#include <linux/tracepoint.h>
#include <linux/etw.h>

#include "klog.h"
#include "klog_internal.h"

#define KLOG_HOOK_DISK_READ		KLOG_HOOK(KLOG_GROUP_DISKIO, 10)
#define KLOG_HOOK_DISK_WRITE		KLOG_HOOK(KLOG_GROUP_DISKIO, 11)
#define KLOG_HOOK_DISK_READ_INIT	KLOG_HOOK(KLOG_GROUP_DISKIO, 12)
#define KLOG_HOOK_DISK_WRITE_INIT	KLOG_HOOK(KLOG_GROUP_DISKIO, 13)
#define KLOG_HOOK_DISK_FLUSH		KLOG_HOOK(KLOG_GROUP_DISKIO, 14)
#define KLOG_HOOK_DISK_FLUSH_INIT	KLOG_HOOK(KLOG_GROUP_DISKIO, 15)

/* DiskIo_TypeGroup1 (Read, Write), version 3. */
struct klog_disk_io {
	u32 disk_number;
	u32 irp_flags;
	u32 transfer_size;
	u32 reserved;
	u64 byte_offset;
	u64 file_object;
	u64 irp;
	u64 high_res_response_time;
	u32 issuing_thread_id;
} __packed;

/* DiskIo_TypeGroup3 (FlushBuffers), version 3. */
struct klog_disk_flush {
	u32 disk_number;
	u32 irp_flags;
	u64 high_res_response_time;
	u64 irp;
	u32 issuing_thread_id;
} __packed;

/* DiskIo_TypeGroup2 (ReadInit, WriteInit, FlushInit), version 3. */
struct klog_disk_init {
	u64 irp;
	u32 issuing_thread_id;
} __packed;

#define KLOG_DISK_SLOTS		1024
/* A slot being filled: not 0 (free) and no request's hash. */
#define KLOG_DISK_BUSY		1

struct klog_disk_slot {
	u64 irp;			/* 0: free */
	u64 issued;
	u32 tid;
};

static struct klog_disk_slot klog_disk_slots[KLOG_DISK_SLOTS];
static siphash_key_t klog_disk_key;

static u64 klog_disk_irp(struct request *rq)
{
	/* Never 0 or KLOG_DISK_BUSY. */
	return siphash_1u64((u64)(unsigned long)rq, &klog_disk_key) | 2;
}

static u32 klog_disk_number(struct request *rq)
{
	struct gendisk *disk = rq->q->disk;

	return disk ? new_encode_dev(disk_devt(disk)) : 0;
}

/* Hooks of a request's Init and completion events; false: no event. */
static bool klog_disk_hooks(struct request *rq, u16 *init, u16 *done)
{
	switch (req_op(rq)) {
	case REQ_OP_READ:
		*init = KLOG_HOOK_DISK_READ_INIT;
		*done = KLOG_HOOK_DISK_READ;
		return true;
	case REQ_OP_WRITE:
		*init = KLOG_HOOK_DISK_WRITE_INIT;
		*done = KLOG_HOOK_DISK_WRITE;
		return true;
	case REQ_OP_FLUSH:
		*init = KLOG_HOOK_DISK_FLUSH_INIT;
		*done = KLOG_HOOK_DISK_FLUSH;
		return true;
	default:
		return false;
	}
}

static void klog_disk_write(u16 hook, u32 flag, const void *rec, u32 size)
{
	struct klog_part part = { rec, size };
	struct klog_event ev = {
		.hook = hook,
		.header_type = KLOG_HDR_PERFINFO,
		.version = 3,
		.flag = flag,
		.parts = &part,
		.nr_parts = 1,
	};
	struct klog_stack stack;

	if (klog_stack_wanted(hook)) {
		klog_stack_capture(&stack, klog_stack_frames(), NULL);
		ev.stack = &stack;
	}
	klog_write(&ev);
}

static void klog_probe_rq_issue(void *data, struct request *rq)
{
	struct klog_disk_init rec;
	struct klog_disk_slot *slot;
	u16 init, done;

	if (!klog_enabled(ETW_KFLAG_DISK_IO | ETW_KFLAG_DISK_IO_INIT) ||
	    !klog_disk_hooks(rq, &init, &done))
		return;
	rec.irp = klog_disk_irp(rq);
	rec.issuing_thread_id = klog_tid(current);
	if (klog_enabled(ETW_KFLAG_DISK_IO)) {
		slot = &klog_disk_slots[rec.irp % KLOG_DISK_SLOTS];
		/* Claim, fill, publish: the completion reads after the irp. */
		if (!cmpxchg(&slot->irp, 0, KLOG_DISK_BUSY)) {
			slot->tid = rec.issuing_thread_id;
			slot->issued = klog_clock();
			/* Pairs with the completion's acquire: tid, time first. */
			smp_store_release(&slot->irp, rec.irp);
		}
	}
	if (klog_enabled(ETW_KFLAG_DISK_IO_INIT))
		klog_disk_write(init, ETW_KFLAG_DISK_IO_INIT, &rec, sizeof(rec));
}

static void klog_probe_rq_complete(void *data, struct request *rq,
				   blk_status_t error, unsigned int nr_bytes)
{
	u64 irp, response = 0;
	struct klog_disk_slot *slot;
	u16 init, done;
	u32 tid = 0;

	if (!klog_enabled(ETW_KFLAG_DISK_IO) || !klog_disk_hooks(rq, &init, &done))
		return;
	irp = klog_disk_irp(rq);
	slot = &klog_disk_slots[irp % KLOG_DISK_SLOTS];
	/* Pairs with the issue's release: its tid and time are seen. */
	if (smp_load_acquire(&slot->irp) == irp) {
		tid = slot->tid;
		response = klog_clock() - slot->issued;
		/* Free only if still ours. */
		cmpxchg(&slot->irp, irp, 0);
	}
	if (done == KLOG_HOOK_DISK_FLUSH) {
		struct klog_disk_flush rec = {
			.disk_number = klog_disk_number(rq),
			.high_res_response_time = response,
			.irp = irp,
			.issuing_thread_id = tid,
		};

		klog_disk_write(done, ETW_KFLAG_DISK_IO, &rec, sizeof(rec));
	} else {
		struct klog_disk_io rec = {
			.disk_number = klog_disk_number(rq),
			.transfer_size = nr_bytes,
			.byte_offset = (u64)blk_rq_pos(rq) << SECTOR_SHIFT,
			.irp = irp,
			.high_res_response_time = response,
			.issuing_thread_id = tid,
		};

		klog_disk_write(done, ETW_KFLAG_DISK_IO, &rec, sizeof(rec));
	}
}

static struct klog_tp klog_disk_tps[] = {
	{ .name = "block_rq_issue", .probe = klog_probe_rq_issue },
	{ .name = "block_rq_complete", .probe = klog_probe_rq_complete },
};

static int klog_disk_start(void)
{
	int ret = klog_stack_init();

	if (ret)
		return ret;
	get_random_bytes(&klog_disk_key, sizeof(klog_disk_key));
	memset(klog_disk_slots, 0, sizeof(klog_disk_slots));
	return klog_tp_register(klog_disk_tps, ARRAY_SIZE(klog_disk_tps));
}

static void klog_disk_stop(void)
{
	klog_tp_unregister(klog_disk_tps, ARRAY_SIZE(klog_disk_tps));
}

const struct klog_source klog_source_disk = {
	.name = "disk",
	.flags = ETW_KFLAG_DISK_IO | ETW_KFLAG_DISK_IO_INIT,
	.start = klog_disk_start,
	.stop = klog_disk_stop,
};
