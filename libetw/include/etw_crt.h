/* SPDX-License-Identifier: MIT */
/*
 * Windows-source mode only: the wide-character part of MSVC's C runtime,
 * for 16-bit wchar_t (-fshort-wchar), which glibc's wide functions do not
 * read (theirs is 32-bit).  Each name is a macro for libetw's own
 * function (wprintf -> etw_wprintf), so glibc's symbols are never
 * replaced and code outside this translation unit is not affected.
 *
 * The printf family follows MSVC's format rules, narrow ones included:
 * in a wide format %s and %c are wide and %S and %C narrow, in a narrow
 * format the other way round; %ls, %ws, %lc and %wc are always wide and
 * %hs and %hc always narrow; l is 32-bit (LONG), I64 and ll 64-bit, I32
 * 32-bit, I, z and t pointer-sized; %p prints the pointer's hex digits,
 * zero-padded; %n is refused.  Text goes out as UTF-8.
 *
 * glibc's wide functions that are not renamed here (wcscoll, swscanf,
 * wcsftime, ...) must not be called in this mode (Documentation/porting.rst).
 */
#ifndef LIBETW_ETW_CRT_H
#define LIBETW_ETW_CRT_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifndef LIBETW_WINDOWS_SOURCE
#error "etw_crt.h is for Windows-source mode (pkg-config libetw-windows)"
#endif

#include "sal.h"

#define ETW_CRT_WCHAR	wchar_t
#include "etw_crt_decl.h"

#define _TRUNCATE	((size_t)-1)
#define STRUNCATE	80

#define wprintf		etw_wprintf
#define fwprintf	etw_fwprintf
#define vwprintf	etw_vwprintf
#define vfwprintf	etw_vfwprintf
#define swprintf	etw_swprintf
#define vswprintf	etw_vswprintf
#define _snwprintf	etw_snwprintf
#define _vsnwprintf	etw_vsnwprintf
#define swprintf_s	etw_swprintf_s
#define vswprintf_s	etw_vswprintf_s
#define _snwprintf_s	etw_snwprintf_s
#define _scwprintf	etw_scwprintf
#define _swprintf	etw_swprintf_legacy
#define fputws		etw_fputws
#define _putws		etw_putws
#define putwchar	etw_putwchar
#define fputwc		etw_fputwc
#define putwc		etw_fputwc
#define _wfopen		etw_wfopen
#define _wfopen_s	etw_wfopen_s
#define fopen_s		etw_fopen_s

#define printf		etw_printf
#define fprintf		etw_fprintf
#define vprintf		etw_vprintf
#define vfprintf	etw_vfprintf
#define sprintf		etw_sprintf
#define vsprintf	etw_vsprintf
#define snprintf	etw_snprintf
#define vsnprintf	etw_vsnprintf
#define _snprintf	etw_snprintf_ms
#define _vsnprintf	etw_vsnprintf_ms
#define sprintf_s	etw_sprintf_s
#define vsprintf_s	etw_vsprintf_s

#define memcpy_s	etw_memcpy_s
#define memmove_s	etw_memmove_s
#define wmemcpy_s	etw_wmemcpy_s
#define wmemmove_s	etw_wmemmove_s
#define strncat_s	etw_strncat_s
#define wcsncat_s	etw_wcsncat_s

#define wcslen		etw_wcslen
#define wcsnlen		etw_wcsnlen
#define wcscpy		etw_wcscpy
#define wcsncpy		etw_wcsncpy
#define wcscat		etw_wcscat
#define wcsncat		etw_wcsncat
#define wcscmp		etw_wcscmp
#define wcsncmp		etw_wcsncmp
#define _wcsicmp	etw_wcsicmp
#define _wcsnicmp	etw_wcsnicmp
#define wcsicmp		etw_wcsicmp
#define wcschr		etw_wcschr
#define wcsrchr		etw_wcsrchr
#define wcsstr		etw_wcsstr
#define wcsspn		etw_wcsspn
#define wcscspn		etw_wcscspn
#define wcspbrk		etw_wcspbrk
#define wcstok_s	etw_wcstok_s
#define _wcsdup		etw_wcsdup
#define wcsdup		etw_wcsdup
#define _wcslwr		etw_wcslwr
#define _wcsupr		etw_wcsupr
#define wcscpy_s	etw_wcscpy_s
#define wcsncpy_s	etw_wcsncpy_s
#define wcscat_s	etw_wcscat_s
#define wmemcpy		etw_wmemcpy
#define wmemmove	etw_wmemmove
#define wmemset		etw_wmemset
#define wmemcmp		etw_wmemcmp
#define wmemchr		etw_wmemchr
#define _stricmp	etw_stricmp
#define _strnicmp	etw_strnicmp
#define stricmp		etw_stricmp
#define strcpy_s	etw_strcpy_s
#define strncpy_s	etw_strncpy_s
#define strcat_s	etw_strcat_s
#define _strdup		etw_strdup

#define _wtoi		etw_wtoi
#define _wtol		etw_wtol
#define _wtoi64		etw_wtoi64
#define wcstol		etw_wcstol
#define wcstoul		etw_wcstoul
#define wcstoll		etw_wcstoll
#define wcstoull	etw_wcstoull
#define _wcstoi64	etw_wcstoll
#define _wcstoui64	etw_wcstoull
#define _wtof		etw_wtof
#define wcstod		etw_wcstod
#define mbstowcs	etw_mbstowcs
#define wcstombs	etw_wcstombs
#define _wfullpath	etw_wfullpath
#define _fullpath	etw_fullpath
#define _wgetenv	etw_wgetenv
#define _byteswap_ushort(x)	__builtin_bswap16(x)
#define _byteswap_ulong(x)	__builtin_bswap32(x)
#define _byteswap_uint64(x)	__builtin_bswap64(x)
#define _atoi64		atoll
#define _strtoi64	strtoll
#define _strtoui64	strtoull

/*
 * In C++ the standard library's std:: names of the functions renamed
 * above (std::printf, std::wcslen, ...) are libetw's, as the global ones.
 */
#ifdef __cplusplus
namespace std {
using ::etw_fprintf;
using ::etw_fputwc;
using ::etw_fputws;
using ::etw_fwprintf;
using ::etw_mbstowcs;
using ::etw_printf;
using ::etw_putwchar;
using ::etw_snprintf;
using ::etw_sprintf;
using ::etw_swprintf;
using ::etw_vfprintf;
using ::etw_vfwprintf;
using ::etw_vprintf;
using ::etw_vsnprintf;
using ::etw_vsprintf;
using ::etw_vswprintf;
using ::etw_vwprintf;
using ::etw_wcscat;
using ::etw_wcschr;
using ::etw_wcscmp;
using ::etw_wcscpy;
using ::etw_wcscspn;
using ::etw_wcslen;
using ::etw_wcsncat;
using ::etw_wcsncmp;
using ::etw_wcsncpy;
using ::etw_wcspbrk;
using ::etw_wcsrchr;
using ::etw_wcsspn;
using ::etw_wcsstr;
using ::etw_wcstod;
using ::etw_wcstol;
using ::etw_wcstoll;
using ::etw_wcstombs;
using ::etw_wcstoul;
using ::etw_wcstoull;
using ::etw_wmemchr;
using ::etw_wmemcmp;
using ::etw_wmemcpy;
using ::etw_wmemmove;
using ::etw_wmemset;
using ::etw_wprintf;
}
#endif

/*
 * wmain(): libetw_wmain.a (in pkg-config libetw-windows's libraries)
 * supplies a main() that converts the arguments to UTF-16 and calls it.
 * Before C++17 it is declared extern "C" first, so that the program's
 * definition gets C linkage (C has no need, and wmain may take an envp
 * there); from C++17 it is renamed as main is (below).
 */

/*
 * main() returning void, as MSVC takes it (g++ refuses a void ::main;
 * gcc takes it with -Wmain): main is made an int main whatever return
 * type the program writes, which goes to a declaration of its own
 * (libetw_main_ret_).  A void main then returns 0 as MSVC's does, and an
 * int main is as it was (a bare "return;" in a void main is a compile
 * error).  Define LIBETW_NO_MAIN_WRAPPER to keep main as it is.
 *
 * wmain() in C++17 and later: renamed libetw_wmain_fn_, with the return
 * type the program writes, and called by extern "C" libetw_wmain with the
 * arguments it takes ((), (argc, argv) or (argc, argv, envp)), which
 * returns 0 for a void one; libetw_wmain.a's main() calls it.  Before
 * C++17 (and in C) wmain is declared extern "C" and found by its link
 * name; a void one's exit status is then undefined.
 */
#ifndef LIBETW_NO_MAIN_WRAPPER
#define main	libetw_main_ret_(void); int main
#endif
#if defined(__cplusplus) && __cplusplus >= 201703L && !defined(LIBETW_NO_MAIN_WRAPPER)
#include <tuple>
#include <type_traits>
#define LIBETW_WMAIN_FN_(...) \
	decltype(libetw_wmain_ret_()) libetw_wmain_fn_(__VA_ARGS__); \
	template <class... A> static int libetw_wmain_run_(A... a) \
	{ \
		auto takes = [](auto... p) -> decltype(libetw_wmain_fn_(p...), void()) {}; \
		auto call = [](auto... p) { \
			if constexpr (std::is_void<decltype(libetw_wmain_fn_(p...))>::value) { \
				libetw_wmain_fn_(p...); \
				return 0; \
			} else { \
				return static_cast<int>(libetw_wmain_fn_(p...)); \
			} \
		}; \
		auto args = std::make_tuple(a...); \
		if constexpr (std::is_invocable<decltype(takes), A...>::value) \
			return call(a...); \
		else if constexpr (std::is_invocable<decltype(takes), int, wchar_t **>::value) \
			return call(std::get<0>(args), std::get<1>(args)); \
		else \
			return call(); \
	} \
	extern "C" int libetw_wmain(int argc, wchar_t **argv, wchar_t **envp) \
	{ \
		return libetw_wmain_run_(argc, argv, envp); \
	} \
	decltype(libetw_wmain_ret_()) libetw_wmain_fn_(__VA_ARGS__)
#define wmain	libetw_wmain_ret_(); LIBETW_WMAIN_FN_
#elif defined(__cplusplus)
extern "C" int wmain(int argc, wchar_t **argv);
#endif

#endif /* LIBETW_ETW_CRT_H */
