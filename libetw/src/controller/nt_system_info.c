// SPDX-License-Identifier: MIT
/*
 * ntdll's NtQuerySystemInformation and NtSetSystemInformation for what
 * ETW libraries use them for: a system logger's group masks, class
 * SystemPerformanceTraceInformation (0x1f) with event-trace class
 * EventTraceGroupMaskInformation (1).  The buffer is the class (a ULONG),
 * the session handle (a TRACEHANDLE, 8-aligned) and the eight masks of
 * PERFINFO_GROUPMASK, 48 bytes; the masks are what TraceQueryInformation
 * and TraceSetInformation read and set (TraceSystemTraceEnableFlagsInfo).
 * A Win32 error becomes the NTSTATUS Windows returns for it.
 */
#include <stddef.h>
#include <string.h>

#include <windows.h>
#include <winternl.h>
#include <evntrace.h>

#include "../common/internal.h"

#define SYSTEM_PERFORMANCE_TRACE_INFORMATION	0x1f
#define EVENT_TRACE_GROUP_MASK_INFORMATION	1

struct group_mask_info {
	ULONG info_class;
	TRACEHANDLE handle LIBETW_ALIGN8;
	ULONG masks[8];
};

static NTSTATUS nt_status(ULONG err)
{
	switch (err) {
	case ERROR_SUCCESS:
		return STATUS_SUCCESS;
	case ERROR_BAD_LENGTH:
		return STATUS_INFO_LENGTH_MISMATCH;
	case ERROR_INVALID_PARAMETER:
	case ERROR_INVALID_HANDLE:
		return STATUS_INVALID_PARAMETER;
	case ERROR_ACCESS_DENIED:
		return STATUS_ACCESS_DENIED;
	case ERROR_WMI_INSTANCE_NOT_FOUND:
		return STATUS_WMI_INSTANCE_NOT_FOUND;
	case ERROR_NOT_SUPPORTED:
		return STATUS_NOT_SUPPORTED;
	default:
		return STATUS_UNSUCCESSFUL;
	}
}

/* The group-mask request at @info, or the status that refuses it. */
static NTSTATUS group_mask_request(int cls, PVOID info, ULONG len)
{
	if (cls != SYSTEM_PERFORMANCE_TRACE_INFORMATION)
		return STATUS_INVALID_INFO_CLASS;
	if (!info || len < sizeof(ULONG))
		return STATUS_INFO_LENGTH_MISMATCH;
	if (((struct group_mask_info *)info)->info_class != EVENT_TRACE_GROUP_MASK_INFORMATION)
		return STATUS_INVALID_INFO_CLASS;
	if (len < sizeof(struct group_mask_info))
		return STATUS_INFO_LENGTH_MISMATCH;
	return STATUS_SUCCESS;
}

ETW_EXPORT NTSTATUS NTAPI NtQuerySystemInformation(SYSTEM_INFORMATION_CLASS SystemInformationClass,
						   PVOID SystemInformation,
						   ULONG SystemInformationLength,
						   PULONG ReturnLength)
{
	struct group_mask_info *g = SystemInformation;
	NTSTATUS st = group_mask_request((int)SystemInformationClass, SystemInformation,
					 SystemInformationLength);
	ULONG masks[8] = { 0 };

	if (st)
		return st;
	st = nt_status(TraceQueryInformation(g->handle, TraceSystemTraceEnableFlagsInfo,
					     masks, sizeof(masks), NULL));
	if (st)
		return st;
	memcpy(g->masks, masks, sizeof(masks));
	if (ReturnLength)
		*ReturnLength = sizeof(*g);
	return STATUS_SUCCESS;
}

ETW_EXPORT NTSTATUS NTAPI NtSetSystemInformation(SYSTEM_INFORMATION_CLASS SystemInformationClass,
						 PVOID SystemInformation,
						 ULONG SystemInformationLength)
{
	struct group_mask_info *g = SystemInformation;
	NTSTATUS st = group_mask_request((int)SystemInformationClass, SystemInformation,
					 SystemInformationLength);

	if (st)
		return st;
	return nt_status(TraceSetInformation(g->handle, TraceSystemTraceEnableFlagsInfo,
					     g->masks, sizeof(g->masks)));
}
