// SPDX-License-Identifier: MIT
/*
 * kernel32's MultiByteToWideChar and WideCharToMultiByte.  Text is UTF-8
 * here whatever the locale (Documentation/porting.rst), so the ANSI and
 * OEM code pages (CP_ACP, CP_OEMCP, CP_THREAD_ACP) are UTF-8 as CP_UTF8
 * is; other code pages are ERROR_INVALID_PARAMETER.  What is not valid
 * becomes U+FFFD, or fails with ERROR_NO_UNICODE_TRANSLATION under
 * MB_ERR_INVALID_CHARS / WC_ERR_INVALID_CHARS, as Windows does for UTF-8.
 */
#include <string.h>

#include <windows.h>
#include <etw_win32.h>

#include "crt.h"

static int utf8_page(UINT cp)
{
	return cp == CP_UTF8 || cp == CP_ACP || cp == CP_OEMCP ||
	       cp == CP_THREAD_ACP;
}

static int fail(DWORD code)
{
	SetLastError(code);
	return 0;
}

ETW_EXPORT int WINAPI MultiByteToWideChar(UINT CodePage, DWORD dwFlags,
					  LPCCH lpMultiByteStr, int cbMultiByte,
					  LPWSTR lpWideCharStr, int cchWideChar)
{
	const unsigned char *s = (const unsigned char *)lpMultiByteStr;
	size_t n, i = 0, used, out = 0;
	char16_t u[2];

	if (dwFlags & ~(DWORD)MB_ERR_INVALID_CHARS)
		return fail(ERROR_INVALID_FLAGS);
	if (!utf8_page(CodePage) || !s || !cbMultiByte || cbMultiByte < -1 ||
	    cchWideChar < 0 || (cchWideChar && !lpWideCharStr) ||
	    (const void *)s == (const void *)lpWideCharStr)
		return fail(ERROR_INVALID_PARAMETER);
	n = cbMultiByte == -1 ? strlen((const char *)s) + 1 : (size_t)cbMultiByte;
	while (i < n) {
		unsigned int c = etw_next8(s + i, n - i, &used);
		size_t k;

		if (c == 0xFFFD && used == 1 && (dwFlags & MB_ERR_INVALID_CHARS))
			return fail(ERROR_NO_UNICODE_TRANSLATION);
		k = etw_enc16(c, u);
		if (cchWideChar) {
			if (out + k > (size_t)cchWideChar)
				return fail(ERROR_INSUFFICIENT_BUFFER);
			memcpy(lpWideCharStr + out, u, k * sizeof(WCHAR));
		}
		out += k;
		if (out > INT_MAX)
			return fail(ERROR_INVALID_PARAMETER);
		i += used;
	}
	return (int)out;
}

ETW_EXPORT int WINAPI WideCharToMultiByte(UINT CodePage, DWORD dwFlags,
					  LPCWCH lpWideCharStr, int cchWideChar,
					  LPSTR lpMultiByteStr, int cbMultiByte,
					  LPCCH lpDefaultChar, LPBOOL lpUsedDefaultChar)
{
	const char16_t *s = (const char16_t *)lpWideCharStr;
	size_t n, i = 0, used, out = 0;
	char b[4];

	/* UTF-8 has no default character (Learn: WideCharToMultiByte). */
	if (dwFlags & ~(DWORD)WC_ERR_INVALID_CHARS)
		return fail(ERROR_INVALID_FLAGS);
	if (!utf8_page(CodePage) || !s || !cchWideChar || cchWideChar < -1 ||
	    cbMultiByte < 0 || (cbMultiByte && !lpMultiByteStr) || lpDefaultChar ||
	    lpUsedDefaultChar || (const void *)s == (const void *)lpMultiByteStr)
		return fail(ERROR_INVALID_PARAMETER);
	n = cchWideChar == -1 ? etw_u16len(s) + 1 : (size_t)cchWideChar;
	while (i < n) {
		unsigned int c = etw_next16(s + i, n - i, &used);
		size_t k;

		if (c == 0xFFFD && s[i] != 0xFFFD && (dwFlags & WC_ERR_INVALID_CHARS))
			return fail(ERROR_NO_UNICODE_TRANSLATION);
		k = etw_enc8(c, b);
		if (cbMultiByte) {
			if (out + k > (size_t)cbMultiByte)
				return fail(ERROR_INSUFFICIENT_BUFFER);
			memcpy(lpMultiByteStr + out, b, k);
		}
		out += k;
		if (out > INT_MAX)
			return fail(ERROR_INVALID_PARAMETER);
		i += used;
	}
	return (int)out;
}
