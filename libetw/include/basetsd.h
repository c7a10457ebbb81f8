/* SPDX-License-Identifier: MIT */
/*
 * <basetsd.h>: part of Windows' <windows.h>, which libetw's windows.h
 * supplies whole (the base types, and in Windows-source mode the Win32
 * subset of etw_win32.h).
 */
#ifndef LIBETW_BASETSD_H
#define LIBETW_BASETSD_H

#include "windows.h"

#endif /* LIBETW_BASETSD_H */
