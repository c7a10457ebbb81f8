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
 * etw_wstring.h gives a program wide strings and streams of its own
 * (std::wstring is one), defined after the standard headers that name
 * the originals.
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
/* C++ even inside a program's extern "C" { #include <windows.h> }. */
extern "C++" {
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cwchar>
#include <cwctype>
#include <algorithm>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <istream>
#include <locale>
#include <memory>
#include <ostream>
#include <sstream>
#include <string>
#include <thread>
#include <tuple>
#include <utility>

#include "etw_wstring.h"
}
#endif

#endif /* LIBETW_ETW_CRT_PRELUDE_H */
