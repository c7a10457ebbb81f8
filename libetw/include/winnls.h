/* SPDX-License-Identifier: MIT */
/*
 * <winnls.h>: part of Windows' <windows.h>: the code page conversions
 * (MultiByteToWideChar, WideCharToMultiByte) of etw_win32.h.
 */
#ifndef LIBETW_WINNLS_H
#define LIBETW_WINNLS_H

#include "windows.h"
#include "etw_win32.h"

#endif /* LIBETW_WINNLS_H */
