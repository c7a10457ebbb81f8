/* SPDX-License-Identifier: MIT */
/*
 * <objbase.h>: of COM, what ETW programs use: GUIDs and their strings
 * (CoCreateGuid, StringFromGUID2, StringFromCLSID, CLSIDFromString,
 * IIDFromString), task memory (CoTaskMemAlloc/Free), GUID_NULL
 * (etw_win32.h).  COM itself (CoInitialize, interfaces) is not part of
 * libetw.
 */
#ifndef LIBETW_OBJBASE_H
#define LIBETW_OBJBASE_H

#include "windows.h"
#include "etw_win32.h"

#endif /* LIBETW_OBJBASE_H */
