/* SPDX-License-Identifier: MIT */
/*
 * <comdef.h>: MSVC's C++ COM support classes.  They are not part of
 * libetw; the header exists because ETW samples include it without using
 * them (Microsoft's "Retrieving Event Metadata"), and gives what it
 * brings there: <windows.h> and etw_win32.h's COM basics (HRESULT, CLSID,
 * StringFromCLSID, CoTaskMemFree).  A program that uses _com_error,
 * _bstr_t or _variant_t fails to compile, the compiler naming the class
 * and why.
 */
#ifndef LIBETW_COMDEF_H
#define LIBETW_COMDEF_H

#include "windows.h"
#include "etw_win32.h"

#ifdef __cplusplus
#define LIBETW_NO_COMDEF \
	__attribute__((__unavailable__("MSVC's COM support classes are not part of libetw: see Documentation/porting.rst")))

class LIBETW_NO_COMDEF _com_error;
class LIBETW_NO_COMDEF _bstr_t;
class LIBETW_NO_COMDEF _variant_t;
#endif

#endif /* LIBETW_COMDEF_H */
