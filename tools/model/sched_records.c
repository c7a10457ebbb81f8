// SPDX-License-Identifier: GPL-2.0
/*
 * CSwitch, ReadyThread and DiskIo records (Documentation/stacks.rst) read
 * into plain structs; the layouts are Windows' (CSwitch_V2, ReadyThread,
 * DiskIo_TypeGroup1 and 3, version 3).  Every read is bounded by the
 * payload's size: the file is untrusted.
 */
#include <string.h>

#include "model/sched.h"

static uint64_t get(const uint8_t *p, unsigned int n)
{
	uint64_t v = 0;

	for (unsigned int i = 0; i < n; i++)
		v |= (uint64_t)p[i] << (8 * i);
	return v;
}

static bool is_hook(const struct etw_etl_event *ev, uint16_t hook)
{
	return (ev->has & ETW_ETL_HAS_HOOK) && ev->hook_id == hook;
}

bool rec_parse_cswitch(const struct etw_etl_event *ev, struct rec_cswitch *r)
{
	const uint8_t *p = ev->data;

	/* CSwitch_V2: NewThreadId .. NewThreadWaitTime, Reserved. */
	if (!is_hook(ev, HOOK_CSWITCH) || ev->data_size < 24)
		return false;
	r->new_tid = (uint32_t)get(p, 4);
	r->old_tid = (uint32_t)get(p + 4, 4);
	r->new_priority = (int8_t)p[8];
	r->old_priority = (int8_t)p[9];
	r->previous_cstate = p[10];
	r->old_wait_reason = p[12];
	r->wait_mode = p[13];
	r->old_state = p[14];
	r->wait_ideal_processor = p[15];
	r->new_wait_time = (uint32_t)get(p + 16, 4);
	return true;
}

bool rec_parse_ready_thread(const struct etw_etl_event *ev,
			    struct rec_ready_thread *r)
{
	const uint8_t *p = ev->data;

	if (!is_hook(ev, HOOK_READY_THREAD) || ev->data_size < 7)
		return false;
	r->tid = (uint32_t)get(p, 4);
	r->adjust_reason = (int8_t)p[4];
	r->adjust_increment = (int8_t)p[5];
	r->flag = p[6];
	return true;
}

bool rec_parse_disk_io(const struct etw_etl_event *ev, struct rec_disk_io *r)
{
	const uint8_t *p = ev->data;
	unsigned int ps = ev->pointer_size == 4 ? 4 : 8;

	if (!(ev->has & ETW_ETL_HAS_HOOK) || ev->version < 2)
		return false;
	memset(r, 0, sizeof(*r));
	switch (ev->hook_id) {
	case HOOK_DISK_READ:
	case HOOK_DISK_WRITE:
		/* DiskNumber, IrpFlags, TransferSize, Reserved, ByteOffset,
		 * FileObject, Irp, HighResResponseTime, IssuingThreadId. */
		if (ev->data_size < 24 + 2 * ps + 8 + 4)
			return false;
		r->disk = (uint32_t)get(p, 4);
		r->irp_flags = (uint32_t)get(p + 4, 4);
		r->size = (uint32_t)get(p + 8, 4);
		r->offset = get(p + 16, 8);
		r->file_object = get(p + 24, ps);
		r->irp = get(p + 24 + ps, ps);
		r->response_time = get(p + 24 + 2 * ps, 8);
		r->issuing_tid = (uint32_t)get(p + 32 + 2 * ps, 4);
		return true;
	case HOOK_DISK_FLUSH:
		/* DiskNumber, IrpFlags, HighResResponseTime, Irp, IssuingThreadId. */
		if (ev->data_size < 16 + ps + 4)
			return false;
		r->flush = true;
		r->disk = (uint32_t)get(p, 4);
		r->irp_flags = (uint32_t)get(p + 4, 4);
		r->response_time = get(p + 8, 8);
		r->irp = get(p + 16, ps);
		r->issuing_tid = (uint32_t)get(p + 16 + ps, 4);
		return true;
	default:
		return false;
	}
}

static const char *const wait_reasons[] = {
	"Executive", "FreePage", "PageIn", "PoolAllocation", "DelayExecution",
	"Suspended", "UserRequest", "WrExecutive", "WrFreePage", "WrPageIn",
	"WrPoolAllocation", "WrDelayExecution", "WrSuspended", "WrUserRequest",
	"WrEventPair", "WrQueue", "WrLpcReceive", "WrLpcReply",
	"WrVirtualMemory", "WrPageOut", "WrRendezvous", "WrKeyedEvent",
	"WrTerminated", "WrProcessInSwap", "WrCpuRateControl",
	"WrCalloutStack", "WrKernel", "WrResource", "WrPushLock", "WrMutex",
	"WrQuantumEnd", "WrDispatchInt", "WrPreempted", "WrYieldExecution",
	"WrFastMutex", "WrGuardedMutex", "WrRundown", "WrAlertByThreadId",
	"WrDeferredPreempt",
};

const char *wait_reason_name(unsigned int reason)
{
	if (reason < sizeof(wait_reasons) / sizeof(wait_reasons[0]))
		return wait_reasons[reason];
	return "WaitReason?";
}
