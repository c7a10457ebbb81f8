/* SPDX-License-Identifier: MIT */
/*
 * Windows-source mode only (windows.h includes it first): the C library's
 * headers and, in C++, the standard headers, included before etw_crt.h
 * renames the C runtime's names (wprintf -> etw_wprintf, ...) and before
 * sal.h defines the old SAL names (__in, __out, ...).  Their include
 * guards then keep a later #include <wchar.h> or <cwchar> from declaring
 * or #undef-ing those names again, and libstdc++, which names its own
 * parameters __in and __out, is already read.
 *
 * libstdc++'s wide strings and streams are built for a 32-bit wchar_t:
 * std::wstring and std::wcout & co. read 16-bit text as 32-bit under
 * -fshort-wchar, so they are marked unavailable here: a program that uses
 * them fails to compile instead of printing garbage.
 */
#ifndef LIBETW_ETW_CRT_PRELUDE_H
#define LIBETW_ETW_CRT_PRELUDE_H

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>
#include <wctype.h>

#ifdef __cplusplus
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cwchar>
#include <cwctype>
#include <algorithm>
#include <istream>
#include <locale>
#include <memory>
#include <ostream>
#include <string>
#include <tuple>
#include <utility>

#define LIBETW_NO_WIDE_STD(what)	__attribute__((__unavailable__(what \
	" is built for a 32-bit wchar_t; libetw-windows compiles with -fshort-wchar "\
	"(Documentation/porting.rst)")))
namespace std {
typedef basic_string<wchar_t> wstring LIBETW_NO_WIDE_STD("std::wstring");
extern wostream wcout LIBETW_NO_WIDE_STD("std::wcout");
extern wostream wcerr LIBETW_NO_WIDE_STD("std::wcerr");
extern wostream wclog LIBETW_NO_WIDE_STD("std::wclog");
extern wistream wcin LIBETW_NO_WIDE_STD("std::wcin");
}
#undef LIBETW_NO_WIDE_STD
#endif

#endif /* LIBETW_ETW_CRT_PRELUDE_H */
