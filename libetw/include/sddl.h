/* SPDX-License-Identifier: MIT */
/*
 * sddl.h for libetw: ConvertSidToStringSid, with which consumers print
 * the SID of an event's EVENT_HEADER_EXT_TYPE_SID item ("S-1-5-18").
 * The string is freed with LocalFree.
 */
#ifndef LIBETW_SDDL_H
#define LIBETW_SDDL_H

#include "windows.h"
#include "etw_win32.h"

#ifdef __cplusplus
extern "C" {
#endif

BOOL WINAPI ConvertSidToStringSidW(PSID Sid, LPWSTR *StringSid);
BOOL WINAPI ConvertSidToStringSidA(PSID Sid, LPSTR *StringSid);
BOOL WINAPI IsValidSid(PSID pSid);
DWORD WINAPI GetLengthSid(PSID pSid);

#ifdef __cplusplus
}
#endif

#ifdef UNICODE
#define ConvertSidToStringSid	ConvertSidToStringSidW
#else
#define ConvertSidToStringSid	ConvertSidToStringSidA
#endif

#endif /* LIBETW_SDDL_H */
