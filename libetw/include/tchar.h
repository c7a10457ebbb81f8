/* SPDX-License-Identifier: MIT */
/*
 * The generic-text macros of Windows' tchar.h that ETW programs use for
 * string literals: _T("x") and _TEXT("x") are u"x" when _UNICODE is
 * defined, "x" otherwise.  None of the _tcs* functions are provided.
 */
#ifndef LIBETW_TCHAR_H
#define LIBETW_TCHAR_H

#include "windows.h"

#ifdef _UNICODE
typedef WCHAR _TCHAR;
#define LIBETW_T(x)	u##x
#else
typedef char _TCHAR;
#define LIBETW_T(x)	x
#endif

#define _T(x)		LIBETW_T(x)
#define _TEXT(x)	LIBETW_T(x)

#endif /* LIBETW_TCHAR_H */
