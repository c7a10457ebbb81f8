/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the provider headers need in a kernel module: the Windows types
 * user mode gets from <windows.h>, and the user-mode provider API
 * <TraceLoggingProvider.h> calls (EventRegister, EventSetInformation,
 * EventWriteTransfer, EventWriteEx, EventUnregister) over the kernel-mode
 * one, as Windows' header uses EtwRegister ... EtwWriteTransfer in a
 * driver.  Included by TraceLoggingProvider.h when __KERNEL__ is defined,
 * and by the headers of `etw mc -km`.
 */
#ifndef _ETW_PROVIDER_API_H
#define _ETW_PROVIDER_API_H

#include <linux/string.h>
#include <linux/types.h>
#include <etw/kernel.h>

typedef u8 UINT8;
typedef s8 INT8;
typedef u16 UINT16;
typedef s16 INT16;
typedef u32 UINT32;
typedef s32 INT32;
typedef u64 UINT64;
typedef s64 INT64;
typedef s32 LONG;
typedef s32 BOOL;
typedef LONG HRESULT;
typedef long intptr_t;		/* 6.12's <linux/types.h> has it, 6.1's not */
typedef PETWENABLECALLBACK PENABLECALLBACK;
typedef u64 TRACEHANDLE;
typedef ULONG *PULONG;
typedef uintptr_t UINT_PTR;
typedef uintptr_t ULONG_PTR;
typedef const char *PCSTR;
#define VOID	void
#define WINAPI

typedef struct _FILETIME {
	u32 dwLowDateTime;
	u32 dwHighDateTime;
} FILETIME;

typedef struct _SYSTEMTIME {
	u16 wYear, wMonth, wDayOfWeek, wDay, wHour, wMinute, wSecond,
	    wMilliseconds;
} SYSTEMTIME;

#define NTAPI
#define ERROR_SUCCESS			0UL
#define ERROR_INVALID_HANDLE		6UL
#define ERROR_NOT_ENOUGH_MEMORY		8UL
#define ERROR_INVALID_PARAMETER		87UL
#define ERROR_MORE_DATA			234UL
#define ERROR_ARITHMETIC_OVERFLOW	534UL
#define ERROR_NOT_SUPPORTED		50UL
#define ERROR_ALREADY_EXISTS		183UL
#define ERROR_GEN_FAILURE		31UL

/* The Win32 code of a status, as RtlNtStatusToDosError gives it. */
static inline ULONG etw_tl_win32(NTSTATUS s)
{
	switch (s) {
	case STATUS_SUCCESS:
		return ERROR_SUCCESS;
	case STATUS_INVALID_HANDLE:
		return ERROR_INVALID_HANDLE;
	case STATUS_INVALID_PARAMETER:
		return ERROR_INVALID_PARAMETER;
	case STATUS_NO_MEMORY:
		return ERROR_NOT_ENOUGH_MEMORY;
	case STATUS_BUFFER_OVERFLOW:
		return ERROR_MORE_DATA;
	case STATUS_INTEGER_OVERFLOW:
		return ERROR_ARITHMETIC_OVERFLOW;
	case STATUS_NOT_SUPPORTED:
		return ERROR_NOT_SUPPORTED;
	case STATUS_OBJECT_NAME_COLLISION:
		return ERROR_ALREADY_EXISTS;
	}
	return ERROR_GEN_FAILURE;
}

#define EventRegister(id, cb, ctx, h)	etw_tl_win32(EtwRegister(id, cb, ctx, h))
#define EventUnregister(h)		etw_tl_win32(EtwUnregister(h))
#define EventSetInformation(h, c, p, n)	etw_tl_win32(EtwSetInformation(h, c, p, n))
#define EventWriteTransfer(h, d, a, r, n, p) \
	etw_tl_win32(EtwWriteTransfer(h, d, a, r, n, p))
#define EventWriteEx(h, d, f, fl, a, r, n, p) \
	etw_tl_win32(EtwWriteEx(h, d, f, fl, a, r, n, p))

#endif /* _ETW_PROVIDER_API_H */
