/* SPDX-License-Identifier: MIT */
/*
 * strsafe.h for libetw: the StringCch* (counts in characters) and
 * StringCb* (counts in bytes) functions of Windows' header, which always
 * NUL-terminate the destination and return an HRESULT: S_OK,
 * STRSAFE_E_INSUFFICIENT_BUFFER when the result was cut to fit, or
 * STRSAFE_E_INVALID_PARAMETER.  The printf forms follow MSVC's format
 * rules (%s is wide in a W format; etw_crt.h), in both modes.
 */
#ifndef LIBETW_STRSAFE_H
#define LIBETW_STRSAFE_H

#include <stdarg.h>

#include "windows.h"
#include "etw_win32.h"

#define STRSAFE_MAX_CCH			2147483647
#define STRSAFE_E_INSUFFICIENT_BUFFER	((HRESULT)0x8007007A)
#define STRSAFE_E_INVALID_PARAMETER	((HRESULT)0x80070057)
#define STRSAFE_E_END_OF_FILE		((HRESULT)0x80070026)

#define STRSAFE_IGNORE_NULLS		0x00000100
#define STRSAFE_FILL_BEHIND_NULL	0x00000200
#define STRSAFE_FILL_ON_FAILURE		0x00000400
#define STRSAFE_NULL_ON_FAILURE		0x00000800
#define STRSAFE_NO_TRUNCATION		0x00001000
#define STRSAFE_FILL_BYTE(x)		((DWORD)(((x) & 0xFF) | STRSAFE_FILL_BEHIND_NULL))

typedef WCHAR *STRSAFE_LPWSTR;
typedef const WCHAR *STRSAFE_LPCWSTR;
typedef char *STRSAFE_LPSTR;
typedef const char *STRSAFE_LPCSTR;

#ifdef __cplusplus
extern "C" {
#endif

HRESULT StringCchCopyW(LPWSTR pszDest, size_t cchDest, LPCWSTR pszSrc);
HRESULT StringCchCopyA(LPSTR pszDest, size_t cchDest, LPCSTR pszSrc);
HRESULT StringCchCopyNW(LPWSTR pszDest, size_t cchDest, LPCWSTR pszSrc, size_t cchToCopy);
HRESULT StringCchCopyNA(LPSTR pszDest, size_t cchDest, LPCSTR pszSrc, size_t cchToCopy);
HRESULT StringCchCatW(LPWSTR pszDest, size_t cchDest, LPCWSTR pszSrc);
HRESULT StringCchCatA(LPSTR pszDest, size_t cchDest, LPCSTR pszSrc);
HRESULT StringCchCatNW(LPWSTR pszDest, size_t cchDest, LPCWSTR pszSrc, size_t cchToAppend);
HRESULT StringCchCatNA(LPSTR pszDest, size_t cchDest, LPCSTR pszSrc, size_t cchToAppend);
HRESULT StringCchLengthW(LPCWSTR psz, size_t cchMax, size_t *pcchLength);
HRESULT StringCchLengthA(LPCSTR psz, size_t cchMax, size_t *pcchLength);
HRESULT StringCchVPrintfW(LPWSTR pszDest, size_t cchDest, LPCWSTR pszFormat, va_list argList);
HRESULT StringCchVPrintfA(LPSTR pszDest, size_t cchDest, LPCSTR pszFormat, va_list argList);
HRESULT StringCchPrintfW(LPWSTR pszDest, size_t cchDest, LPCWSTR pszFormat, ...);
HRESULT StringCchPrintfA(LPSTR pszDest, size_t cchDest, LPCSTR pszFormat, ...);
HRESULT StringCchVPrintfExW(LPWSTR pszDest, size_t cchDest, LPWSTR *ppszDestEnd,
			    size_t *pcchRemaining, DWORD dwFlags, LPCWSTR pszFormat,
			    va_list argList);
HRESULT StringCchVPrintfExA(LPSTR pszDest, size_t cchDest, LPSTR *ppszDestEnd,
			    size_t *pcchRemaining, DWORD dwFlags, LPCSTR pszFormat,
			    va_list argList);
HRESULT StringCchPrintfExW(LPWSTR pszDest, size_t cchDest, LPWSTR *ppszDestEnd,
			   size_t *pcchRemaining, DWORD dwFlags, LPCWSTR pszFormat, ...);
HRESULT StringCchPrintfExA(LPSTR pszDest, size_t cchDest, LPSTR *ppszDestEnd,
			   size_t *pcchRemaining, DWORD dwFlags, LPCSTR pszFormat, ...);
HRESULT StringCbPrintfW(LPWSTR pszDest, size_t cbDest, LPCWSTR pszFormat, ...);
HRESULT StringCbPrintfA(LPSTR pszDest, size_t cbDest, LPCSTR pszFormat, ...);
HRESULT StringCbPrintfExW(LPWSTR pszDest, size_t cbDest, LPWSTR *ppszDestEnd,
			  size_t *pcbRemaining, DWORD dwFlags, LPCWSTR pszFormat, ...);
HRESULT StringCbPrintfExA(LPSTR pszDest, size_t cbDest, LPSTR *ppszDestEnd,
			  size_t *pcbRemaining, DWORD dwFlags, LPCSTR pszFormat, ...);

#ifdef __cplusplus
}
#endif

/* The byte-count forms: a count in bytes, rounded down to whole WCHARs. */
static inline HRESULT StringCbCopyW(LPWSTR d, size_t cb, LPCWSTR s)
{
	return StringCchCopyW(d, cb / sizeof(WCHAR), s);
}

static inline HRESULT StringCbCopyA(LPSTR d, size_t cb, LPCSTR s)
{
	return StringCchCopyA(d, cb, s);
}

static inline HRESULT StringCbCopyNW(LPWSTR d, size_t cb, LPCWSTR s, size_t cbToCopy)
{
	return StringCchCopyNW(d, cb / sizeof(WCHAR), s, cbToCopy / sizeof(WCHAR));
}

static inline HRESULT StringCbCatW(LPWSTR d, size_t cb, LPCWSTR s)
{
	return StringCchCatW(d, cb / sizeof(WCHAR), s);
}

static inline HRESULT StringCbCatA(LPSTR d, size_t cb, LPCSTR s)
{
	return StringCchCatA(d, cb, s);
}

static inline HRESULT StringCbVPrintfW(LPWSTR d, size_t cb, LPCWSTR f, va_list ap)
{
	return StringCchVPrintfW(d, cb / sizeof(WCHAR), f, ap);
}

static inline HRESULT StringCbVPrintfA(LPSTR d, size_t cb, LPCSTR f, va_list ap)
{
	return StringCchVPrintfA(d, cb, f, ap);
}

static inline HRESULT StringCbLengthW(LPCWSTR s, size_t cbMax, size_t *pcb)
{
	size_t cch = 0;
	HRESULT hr = StringCchLengthW(s, cbMax / sizeof(WCHAR), &cch);

	if (pcb)
		*pcb = cch * sizeof(WCHAR);
	return hr;
}

static inline HRESULT StringCbLengthA(LPCSTR s, size_t cbMax, size_t *pcb)
{
	return StringCchLengthA(s, cbMax, pcb);
}

#ifdef UNICODE
#define StringCchCopy		StringCchCopyW
#define StringCchCopyN		StringCchCopyNW
#define StringCchCat		StringCchCatW
#define StringCchCatN		StringCchCatNW
#define StringCchLength		StringCchLengthW
#define StringCchPrintf		StringCchPrintfW
#define StringCchPrintfEx	StringCchPrintfExW
#define StringCchVPrintf	StringCchVPrintfW
#define StringCbCopy		StringCbCopyW
#define StringCbCopyN		StringCbCopyNW
#define StringCbCat		StringCbCatW
#define StringCbLength		StringCbLengthW
#define StringCbPrintf		StringCbPrintfW
#define StringCbPrintfEx	StringCbPrintfExW
#define StringCbVPrintf		StringCbVPrintfW
#else
#define StringCchCopy		StringCchCopyA
#define StringCchCopyN		StringCchCopyNA
#define StringCchCat		StringCchCatA
#define StringCchCatN		StringCchCatNA
#define StringCchLength		StringCchLengthA
#define StringCchPrintf		StringCchPrintfA
#define StringCchPrintfEx	StringCchPrintfExA
#define StringCchVPrintf	StringCchVPrintfA
#define StringCbCopy		StringCbCopyA
#define StringCbCat		StringCbCatA
#define StringCbLength		StringCbLengthA
#define StringCbPrintf		StringCbPrintfA
#define StringCbPrintfEx	StringCbPrintfExA
#define StringCbVPrintf		StringCbVPrintfA
#endif

#endif /* LIBETW_STRSAFE_H */
