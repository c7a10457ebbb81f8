/* SPDX-License-Identifier: MIT */
/*
 * The generic-text macros of Windows' tchar.h that ETW programs use for
 * string literals: _T("x") and _TEXT("x") are u"x" when _UNICODE is
 * defined, "x" otherwise.
 *
 * In Windows-source mode (pkg-config libetw-windows) _T("x") is L"x" and
 * the generic routines are there too: _tprintf, _tcslen, _tcsicmp,
 * _ttoi, _tfullpath, _tmain, ... name the wide functions of etw_crt.h
 * with _UNICODE, the narrow C library's (with MSVC's names) without.  In
 * the default mode they are not provided: the wide ones would need
 * glibc's wchar_t to be 16-bit.
 */
#ifndef LIBETW_TCHAR_H
#define LIBETW_TCHAR_H

#include "windows.h"

#ifdef _UNICODE
typedef WCHAR _TCHAR;
#ifdef LIBETW_WINDOWS_SOURCE
#define LIBETW_T(x)	L##x
#else
#define LIBETW_T(x)	u##x
#endif
#else
typedef char _TCHAR;
#define LIBETW_T(x)	x
#endif

#define _T(x)		LIBETW_T(x)
#define _TEXT(x)	LIBETW_T(x)

#ifdef LIBETW_WINDOWS_SOURCE
#include <ctype.h>
#include <wctype.h>

#ifdef _UNICODE
typedef wchar_t _TSCHAR;
typedef wchar_t _TUCHAR;
typedef wint_t _TINT;
#define _TEOF		WEOF
#define _tmain		wmain
#define _tprintf	wprintf
#define _ftprintf	fwprintf
#define _stprintf	_swprintf
#define _stprintf_s	swprintf_s
#define _sntprintf	_snwprintf
#define _sntprintf_s	_snwprintf_s
#define _vtprintf	vwprintf
#define _vftprintf	vfwprintf
#define _vstprintf	vswprintf
#define _vsntprintf	_vsnwprintf
#define _scprintf	_scwprintf
#define _fputts		fputws
#define _putts		_putws
#define _puttchar	putwchar
#define _tfopen		_wfopen
#define _tfopen_s	_wfopen_s
#define _tcslen		wcslen
#define _tcsnlen	wcsnlen
#define _tcscpy		wcscpy
#define _tcscpy_s	wcscpy_s
#define _tcsncpy	wcsncpy
#define _tcsncpy_s	wcsncpy_s
#define _tcscat		wcscat
#define _tcscat_s	wcscat_s
#define _tcsncat	wcsncat
#define _tcscmp		wcscmp
#define _tcsncmp	wcsncmp
#define _tcsicmp	_wcsicmp
#define _tcsnicmp	_wcsnicmp
#define _tcschr		wcschr
#define _tcsrchr	wcsrchr
#define _tcsstr		wcsstr
#define _tcsspn		wcsspn
#define _tcscspn	wcscspn
#define _tcspbrk	wcspbrk
#define _tcstok_s	wcstok_s
#define _tcsdup		_wcsdup
#define _tcslwr		_wcslwr
#define _tcsupr		_wcsupr
#define _ttoi		_wtoi
#define _ttol		_wtol
#define _tstoi		_wtoi
#define _tstol		_wtol
#define _ttoi64		_wtoi64
#define _tstoi64	_wtoi64
#define _tcstol		wcstol
#define _tcstoul	wcstoul
#define _tcstoi64	_wcstoi64
#define _tcstoui64	_wcstoui64
#define _tstof		_wtof
#define _tcstod		wcstod
#define _tfullpath	_wfullpath
#define _tgetenv	_wgetenv
#define _totlower	towlower
#define _totupper	towupper
#define _istdigit	iswdigit
#define _istxdigit	iswxdigit
#define _istspace	iswspace
#define _istalpha	iswalpha
#define _istalnum	iswalnum
#define _istupper	iswupper
#define _istlower	iswlower
#else
typedef char _TSCHAR;
typedef unsigned char _TUCHAR;
typedef int _TINT;
#define _TEOF		EOF
#define _tmain		main
#define _tprintf	printf
#define _ftprintf	fprintf
#define _stprintf	sprintf
#define _stprintf_s	sprintf_s
#define _sntprintf	_snprintf
#define _vtprintf	vprintf
#define _vftprintf	vfprintf
#define _vstprintf	vsprintf
#define _vsntprintf	_vsnprintf
#define _fputts		fputs
#define _putts		puts
#define _puttchar	putchar
#define _tfopen		fopen
#define _tfopen_s	fopen_s
#define _tcslen		strlen
#define _tcsnlen	strnlen
#define _tcscpy		strcpy
#define _tcscpy_s	strcpy_s
#define _tcsncpy	strncpy
#define _tcsncpy_s	strncpy_s
#define _tcscat		strcat
#define _tcscat_s	strcat_s
#define _tcsncat	strncat
#define _tcscmp		strcmp
#define _tcsncmp	strncmp
#define _tcsicmp	_stricmp
#define _tcsnicmp	_strnicmp
#define _tcschr		strchr
#define _tcsrchr	strrchr
#define _tcsstr		strstr
#define _tcsspn		strspn
#define _tcscspn	strcspn
#define _tcspbrk	strpbrk
#define _tcstok_s	strtok_r
#define _tcsdup		_strdup
#define _ttoi		atoi
#define _ttol		atol
#define _tstoi		atoi
#define _tstol		atol
#define _ttoi64		_atoi64
#define _tstoi64	_atoi64
#define _tcstol		strtol
#define _tcstoul	strtoul
#define _tcstoi64	_strtoi64
#define _tcstoui64	_strtoui64
#define _tstof		atof
#define _tcstod		strtod
#define _tfullpath	_fullpath
#define _tgetenv	getenv
#define _totlower	tolower
#define _totupper	toupper
#define _istdigit	isdigit
#define _istxdigit	isxdigit
#define _istspace	isspace
#define _istalpha	isalpha
#define _istalnum	isalnum
#define _istupper	isupper
#define _istlower	islower
#endif
#endif /* LIBETW_WINDOWS_SOURCE */

#endif /* LIBETW_TCHAR_H */
