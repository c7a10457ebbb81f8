// SPDX-License-Identifier: MIT
/*
 * strsafe.h's functions: copies, concatenations, lengths and printf into
 * counted buffers, always NUL-terminated, an HRESULT saying whether the
 * text was cut (the "strsafe.h" reference on Learn).  One worker per kind,
 * for both character widths (@unit 1 or 2).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <windows.h>
#include <etw_win32.h>
#include <strsafe.h>

#include "../common/internal.h"
#include "crt.h"

static size_t ulen(const void *s, size_t unit, size_t max)
{
	size_t n = 0;

	while (n < max && (unit == 2 ? ((const char16_t *)s)[n] : ((const char *)s)[n]))
		n++;
	return n;
}

static void put_nul(void *d, size_t unit, size_t at)
{
	memset((char *)d + at * unit, 0, unit);
}

/* Copy (@at 0) or append (@at the current length) at most @n units of @src. */
static HRESULT cch_copy(void *d, size_t cch, size_t unit, const void *src, size_t n,
			int append)
{
	size_t at = 0, len;
	HRESULT hr = S_OK;

	if (!d || !cch || cch > STRSAFE_MAX_CCH)
		return STRSAFE_E_INVALID_PARAMETER;
	if (append) {
		at = ulen(d, unit, cch);
		if (at == cch)
			return STRSAFE_E_INVALID_PARAMETER;
	}
	if (!src)
		src = unit == 2 ? (const void *)u"" : "";
	len = ulen(src, unit, n);
	if (at + len >= cch) {
		len = cch - at - 1;
		hr = STRSAFE_E_INSUFFICIENT_BUFFER;
	}
	memmove((char *)d + at * unit, src, len * unit);
	put_nul(d, unit, at + len);
	return hr;
}

ETW_EXPORT HRESULT StringCchCopyW(LPWSTR d, size_t cch, LPCWSTR s)
{
	return cch_copy(d, cch, 2, s, STRSAFE_MAX_CCH, 0);
}

ETW_EXPORT HRESULT StringCchCopyA(LPSTR d, size_t cch, LPCSTR s)
{
	return cch_copy(d, cch, 1, s, STRSAFE_MAX_CCH, 0);
}

ETW_EXPORT HRESULT StringCchCopyNW(LPWSTR d, size_t cch, LPCWSTR s, size_t n)
{
	if (n > STRSAFE_MAX_CCH)
		return STRSAFE_E_INVALID_PARAMETER;
	return cch_copy(d, cch, 2, s, n, 0);
}

ETW_EXPORT HRESULT StringCchCopyNA(LPSTR d, size_t cch, LPCSTR s, size_t n)
{
	if (n > STRSAFE_MAX_CCH)
		return STRSAFE_E_INVALID_PARAMETER;
	return cch_copy(d, cch, 1, s, n, 0);
}

ETW_EXPORT HRESULT StringCchCatW(LPWSTR d, size_t cch, LPCWSTR s)
{
	return cch_copy(d, cch, 2, s, STRSAFE_MAX_CCH, 1);
}

ETW_EXPORT HRESULT StringCchCatA(LPSTR d, size_t cch, LPCSTR s)
{
	return cch_copy(d, cch, 1, s, STRSAFE_MAX_CCH, 1);
}

ETW_EXPORT HRESULT StringCchCatNW(LPWSTR d, size_t cch, LPCWSTR s, size_t n)
{
	return cch_copy(d, cch, 2, s, n, 1);
}

ETW_EXPORT HRESULT StringCchCatNA(LPSTR d, size_t cch, LPCSTR s, size_t n)
{
	return cch_copy(d, cch, 1, s, n, 1);
}

/* No NUL within @max: invalid, and the length is 0. */
static HRESULT cch_length(const void *s, size_t max, size_t unit, size_t *out)
{
	size_t n;

	if (!s || max > STRSAFE_MAX_CCH) {
		if (out)
			*out = 0;
		return STRSAFE_E_INVALID_PARAMETER;
	}
	n = ulen(s, unit, max);
	if (n == max) {
		if (out)
			*out = 0;
		return STRSAFE_E_INVALID_PARAMETER;
	}
	if (out)
		*out = n;
	return S_OK;
}

ETW_EXPORT HRESULT StringCchLengthW(LPCWSTR s, size_t max, size_t *out)
{
	return cch_length(s, max, 2, out);
}

ETW_EXPORT HRESULT StringCchLengthA(LPCSTR s, size_t max, size_t *out)
{
	return cch_length(s, max, 1, out);
}

/* The printf worker: @end and @remaining (in units) as the Ex forms return. */
static HRESULT cch_vprintf(void *d, size_t cch, size_t unit, void **end, size_t *remaining,
			   DWORD flags, const void *fmt, va_list ap)
{
	struct etw_obuf o = { .wide = unit == 2 };
	HRESULT hr = S_OK;
	size_t len;

	if (!d || !cch || cch > STRSAFE_MAX_CCH)
		return STRSAFE_E_INVALID_PARAMETER;
	if (!fmt) {
		if (!(flags & STRSAFE_IGNORE_NULLS)) {
			put_nul(d, unit, 0);
			return STRSAFE_E_INVALID_PARAMETER;
		}
		fmt = unit == 2 ? (const void *)u"" : "";
	}
	if (etw_format(&o, fmt, ap)) {
		etw_obuf_free(&o);
		put_nul(d, unit, 0);
		return STRSAFE_E_INVALID_PARAMETER;
	}
	len = o.len;
	if (len >= cch) {
		len = cch - 1;
		hr = STRSAFE_E_INSUFFICIENT_BUFFER;
	}
	if (hr != S_OK && (flags & (STRSAFE_NULL_ON_FAILURE | STRSAFE_NO_TRUNCATION)))
		len = 0;
	if (len)
		memcpy(d, o.p, len * unit);
	put_nul(d, unit, len);
	etw_obuf_free(&o);
	if (hr == S_OK && (flags & STRSAFE_FILL_BEHIND_NULL))
		memset((char *)d + (len + 1) * unit, (int)(flags & 0xFF),
		       (cch - len - 1) * unit);
	if (end)
		*end = (char *)d + len * unit;
	if (remaining)
		*remaining = cch - len;
	return hr;
}

ETW_EXPORT HRESULT StringCchVPrintfW(LPWSTR d, size_t cch, LPCWSTR f, va_list ap)
{
	return cch_vprintf(d, cch, 2, NULL, NULL, 0, f, ap);
}

ETW_EXPORT HRESULT StringCchVPrintfA(LPSTR d, size_t cch, LPCSTR f, va_list ap)
{
	return cch_vprintf(d, cch, 1, NULL, NULL, 0, f, ap);
}

ETW_EXPORT HRESULT StringCchVPrintfExW(LPWSTR d, size_t cch, LPWSTR *end, size_t *rem,
				       DWORD flags, LPCWSTR f, va_list ap)
{
	return cch_vprintf(d, cch, 2, (void **)end, rem, flags, f, ap);
}

ETW_EXPORT HRESULT StringCchVPrintfExA(LPSTR d, size_t cch, LPSTR *end, size_t *rem,
				       DWORD flags, LPCSTR f, va_list ap)
{
	return cch_vprintf(d, cch, 1, (void **)end, rem, flags, f, ap);
}

#define VA(call) ({ va_list ap; HRESULT va_hr; va_start(ap, f); va_hr = (call); va_end(ap); va_hr; })

ETW_EXPORT HRESULT StringCchPrintfW(LPWSTR d, size_t cch, LPCWSTR f, ...)
{
	return VA(cch_vprintf(d, cch, 2, NULL, NULL, 0, f, ap));
}

ETW_EXPORT HRESULT StringCchPrintfA(LPSTR d, size_t cch, LPCSTR f, ...)
{
	return VA(cch_vprintf(d, cch, 1, NULL, NULL, 0, f, ap));
}

ETW_EXPORT HRESULT StringCchPrintfExW(LPWSTR d, size_t cch, LPWSTR *end, size_t *rem,
				      DWORD flags, LPCWSTR f, ...)
{
	return VA(cch_vprintf(d, cch, 2, (void **)end, rem, flags, f, ap));
}

ETW_EXPORT HRESULT StringCchPrintfExA(LPSTR d, size_t cch, LPSTR *end, size_t *rem,
				      DWORD flags, LPCSTR f, ...)
{
	return VA(cch_vprintf(d, cch, 1, (void **)end, rem, flags, f, ap));
}

ETW_EXPORT HRESULT StringCbPrintfW(LPWSTR d, size_t cb, LPCWSTR f, ...)
{
	return VA(cch_vprintf(d, cb / 2, 2, NULL, NULL, 0, f, ap));
}

ETW_EXPORT HRESULT StringCbPrintfA(LPSTR d, size_t cb, LPCSTR f, ...)
{
	return VA(cch_vprintf(d, cb, 1, NULL, NULL, 0, f, ap));
}

/* The Cb Ex forms report what remains in bytes. */
ETW_EXPORT HRESULT StringCbPrintfExW(LPWSTR d, size_t cb, LPWSTR *end, size_t *rem,
				     DWORD flags, LPCWSTR f, ...)
{
	size_t cch_rem = 0;
	HRESULT hr = VA(cch_vprintf(d, cb / 2, 2, (void **)end, &cch_rem, flags, f, ap));

	if (rem && hr != STRSAFE_E_INVALID_PARAMETER)
		*rem = cch_rem * 2 + cb % 2;
	return hr;
}

ETW_EXPORT HRESULT StringCbPrintfExA(LPSTR d, size_t cb, LPSTR *end, size_t *rem,
				     DWORD flags, LPCSTR f, ...)
{
	return VA(cch_vprintf(d, cb, 1, (void **)end, rem, flags, f, ap));
}
