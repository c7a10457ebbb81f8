/* SPDX-License-Identifier: MIT */
/*
 * shellapi.h for libetw: CommandLineToArgvW, which console tools such as
 * tracelog.c use with GetCommandLineW() to get their arguments as UTF-16.
 * The array it returns is freed with LocalFree (or GlobalFree).
 */
#ifndef LIBETW_SHELLAPI_H
#define LIBETW_SHELLAPI_H

#include "windows.h"
#include "etw_win32.h"

#ifdef __cplusplus
extern "C" {
#endif

LPWSTR *WINAPI CommandLineToArgvW(LPCWSTR lpCmdLine, int *pNumArgs);

#ifdef __cplusplus
}
#endif

#endif /* LIBETW_SHELLAPI_H */
