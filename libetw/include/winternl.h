/* SPDX-License-Identifier: MIT */
/*
 * <winternl.h>: the ntdll functions ETW libraries call to read and set a
 * system logger's group masks (krabsetw does, for Windows 7's sake):
 * NtQuerySystemInformation and NtSetSystemInformation with class
 * SystemPerformanceTraceInformation (0x1f), whose buffer starts with an
 * event-trace information class.  libetw serves the group-mask class
 * (EventTraceGroupMaskInformation, 1: the class, the session handle and
 * the eight masks) through TraceQueryInformation/TraceSetInformation;
 * every other class is STATUS_INVALID_INFO_CLASS.  As in Windows' header,
 * the system-information classes listed here are the documented ones:
 * programs name 0x1f themselves.
 */
#ifndef LIBETW_WINTERNL_H
#define LIBETW_WINTERNL_H
#define _WINTERNL_

#include "windows.h"

typedef enum _SYSTEM_INFORMATION_CLASS {
	SystemBasicInformation = 0,
	SystemPerformanceInformation = 2,
	SystemTimeOfDayInformation = 3,
	SystemProcessInformation = 5,
	SystemProcessorPerformanceInformation = 8,
	SystemInterruptInformation = 23,
	SystemExceptionInformation = 33,
	SystemRegistryQuotaInformation = 37,
	SystemLookasideInformation = 45,
} SYSTEM_INFORMATION_CLASS;

#define STATUS_SUCCESS			((NTSTATUS)0x00000000)
#define STATUS_UNSUCCESSFUL		((NTSTATUS)0xC0000001)
#define STATUS_NOT_IMPLEMENTED		((NTSTATUS)0xC0000002)
#define STATUS_INVALID_INFO_CLASS	((NTSTATUS)0xC0000003)
#define STATUS_INFO_LENGTH_MISMATCH	((NTSTATUS)0xC0000004)
#define STATUS_INVALID_PARAMETER	((NTSTATUS)0xC000000D)
#define STATUS_ACCESS_DENIED		((NTSTATUS)0xC0000022)
#define STATUS_NOT_SUPPORTED		((NTSTATUS)0xC00000BB)
#define STATUS_WMI_INSTANCE_NOT_FOUND	((NTSTATUS)0xC0000295)
#define NT_SUCCESS(status)		(((NTSTATUS)(status)) >= 0)

#ifdef __cplusplus
extern "C" {
#endif

NTSTATUS NTAPI NtQuerySystemInformation(SYSTEM_INFORMATION_CLASS SystemInformationClass,
					PVOID SystemInformation, ULONG SystemInformationLength,
					PULONG ReturnLength);
NTSTATUS NTAPI NtSetSystemInformation(SYSTEM_INFORMATION_CLASS SystemInformationClass,
				      PVOID SystemInformation, ULONG SystemInformationLength);

#ifdef __cplusplus
}
#endif

#endif /* LIBETW_WINTERNL_H */
