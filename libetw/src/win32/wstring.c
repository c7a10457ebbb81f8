// SPDX-License-Identifier: MIT
/*
 * MSVC's string functions for 16-bit wchar_t (etw_crt.h): glibc's wcs*
 * read 32-bit units.  Case-insensitive comparisons fold ASCII only, as
 * MSVC's do in the "C" locale; the _s functions return MSVC's errno_t
 * (EINVAL, ERANGE, STRUNCATE) and empty the destination on failure.
 */
#include <errno.h>
#include <stdlib.h>
#include <stdint.h>
#include <string.h>

#include "crt.h"

#define STRUNCATE	80

static inline char16_t lower16(char16_t c)
{
	return c >= 'A' && c <= 'Z' ? (char16_t)(c + 32) : c;
}

static inline char16_t upper16(char16_t c)
{
	return c >= 'a' && c <= 'z' ? (char16_t)(c - 32) : c;
}

ETW_EXPORT size_t etw_wcslen(const char16_t *s)
{
	return etw_u16len(s);
}

ETW_EXPORT size_t etw_wcsnlen(const char16_t *s, size_t max)
{
	size_t n = 0;

	while (n < max && s[n])
		n++;
	return n;
}

ETW_EXPORT char16_t *etw_wcscpy(char16_t *dst, const char16_t *src)
{
	return memmove(dst, src, (etw_u16len(src) + 1) * 2);
}

/* As strncpy: pads with NULs, and does not terminate when src is longer. */
ETW_EXPORT char16_t *etw_wcsncpy(char16_t *dst, const char16_t *src, size_t n)
{
	size_t i = 0;

	for (; i < n && src[i]; i++)
		dst[i] = src[i];
	for (; i < n; i++)
		dst[i] = 0;
	return dst;
}

ETW_EXPORT char16_t *etw_wcscat(char16_t *dst, const char16_t *src)
{
	etw_wcscpy(dst + etw_u16len(dst), src);
	return dst;
}

ETW_EXPORT char16_t *etw_wcsncat(char16_t *dst, const char16_t *src, size_t n)
{
	char16_t *d = dst + etw_u16len(dst);
	size_t i;

	for (i = 0; i < n && src[i]; i++)
		d[i] = src[i];
	d[i] = 0;
	return dst;
}

ETW_EXPORT int etw_wcsncmp(const char16_t *a, const char16_t *b, size_t n)
{
	for (; n; n--, a++, b++) {
		if (*a != *b)
			return *a < *b ? -1 : 1;
		if (!*a)
			break;
	}
	return 0;
}

ETW_EXPORT int etw_wcscmp(const char16_t *a, const char16_t *b)
{
	return etw_wcsncmp(a, b, (size_t)-1);
}

ETW_EXPORT int etw_wcsnicmp(const char16_t *a, const char16_t *b, size_t n)
{
	for (; n; n--, a++, b++) {
		char16_t x = lower16(*a), y = lower16(*b);

		if (x != y)
			return x - y;
		if (!x)
			break;
	}
	return 0;
}

ETW_EXPORT int etw_wcsicmp(const char16_t *a, const char16_t *b)
{
	return etw_wcsnicmp(a, b, (size_t)-1);
}

ETW_EXPORT char16_t *etw_wcschr(const char16_t *s, char16_t c)
{
	for (;; s++) {
		if (*s == c)
			return (char16_t *)s;
		if (!*s)
			return NULL;
	}
}

ETW_EXPORT char16_t *etw_wcsrchr(const char16_t *s, char16_t c)
{
	const char16_t *last = NULL;

	for (;; s++) {
		if (*s == c)
			last = s;
		if (!*s)
			return (char16_t *)last;
	}
}

ETW_EXPORT char16_t *etw_wcsstr(const char16_t *hay, const char16_t *needle)
{
	size_t n = etw_u16len(needle);

	for (; *hay; hay++) {
		if (!etw_wcsncmp(hay, needle, n))
			return (char16_t *)hay;
	}
	return n ? NULL : (char16_t *)hay;
}

ETW_EXPORT size_t etw_wcsspn(const char16_t *s, const char16_t *accept)
{
	size_t n = 0;

	while (s[n] && etw_wcschr(accept, s[n]))
		n++;
	return n;
}

ETW_EXPORT size_t etw_wcscspn(const char16_t *s, const char16_t *reject)
{
	size_t n = 0;

	while (s[n] && !etw_wcschr(reject, s[n]))
		n++;
	return n;
}

ETW_EXPORT char16_t *etw_wcspbrk(const char16_t *s, const char16_t *accept)
{
	s += etw_wcscspn(s, accept);
	return *s ? (char16_t *)s : NULL;
}

ETW_EXPORT char16_t *etw_wcstok_s(char16_t *s, const char16_t *delim, char16_t **ctx)
{
	char16_t *tok;

	if (!delim || !ctx || (!s && !*ctx)) {
		errno = EINVAL;
		return NULL;
	}
	if (!s)
		s = *ctx;
	s += etw_wcsspn(s, delim);
	if (!*s) {
		*ctx = s;
		return NULL;
	}
	tok = s;
	s += etw_wcscspn(s, delim);
	if (*s)
		*s++ = 0;
	*ctx = s;
	return tok;
}

ETW_EXPORT char16_t *etw_wcsdup(const char16_t *s)
{
	size_t n;
	char16_t *d;

	if (!s)
		return NULL;
	n = (etw_u16len(s) + 1) * 2;
	d = malloc(n);
	return d ? memcpy(d, s, n) : NULL;
}

ETW_EXPORT char16_t *etw_wcslwr(char16_t *s)
{
	for (char16_t *p = s; *p; p++)
		*p = lower16(*p);
	return s;
}

ETW_EXPORT char16_t *etw_wcsupr(char16_t *s)
{
	for (char16_t *p = s; *p; p++)
		*p = upper16(*p);
	return s;
}

/* The _s copies: @size units at @dst, NUL included. */
static int copy_s(void *dst, size_t size, const void *src, size_t count,
		  int append, size_t unit)
{
	size_t have = 0, len = 0;
	int truncate = count == (size_t)-1;

	if (!dst || !size)
		return EINVAL;
	if (!src) {
		memset(dst, 0, unit);
		return EINVAL;
	}
	if (append) {
		while (have < size && (unit == 2 ? ((char16_t *)dst)[have] :
					((char *)dst)[have]))
			have++;
		if (have == size) {
			memset(dst, 0, unit);
			return EINVAL;
		}
	}
	while (len < count && (unit == 2 ? ((const char16_t *)src)[len] :
			       ((const char *)src)[len]))
		len++;
	if (have + len >= size) {
		if (truncate) {
			len = size - have - 1;
			memcpy((char *)dst + have * unit, src, len * unit);
			memset((char *)dst + (have + len) * unit, 0, unit);
			return STRUNCATE;
		}
		memset(dst, 0, unit);
		return ERANGE;
	}
	memcpy((char *)dst + have * unit, src, len * unit);
	memset((char *)dst + (have + len) * unit, 0, unit);
	return 0;
}

ETW_EXPORT int etw_wcscpy_s(char16_t *dst, size_t size, const char16_t *src)
{
	return copy_s(dst, size, src, (size_t)-2, 0, 2);
}

ETW_EXPORT int etw_wcsncpy_s(char16_t *dst, size_t size, const char16_t *src, size_t count)
{
	return copy_s(dst, size, src, count, 0, 2);
}

ETW_EXPORT int etw_wcscat_s(char16_t *dst, size_t size, const char16_t *src)
{
	return copy_s(dst, size, src, (size_t)-2, 1, 2);
}

ETW_EXPORT int etw_strcpy_s(char *dst, size_t size, const char *src)
{
	return copy_s(dst, size, src, (size_t)-2, 0, 1);
}

ETW_EXPORT int etw_strncpy_s(char *dst, size_t size, const char *src, size_t count)
{
	return copy_s(dst, size, src, count, 0, 1);
}

ETW_EXPORT int etw_strcat_s(char *dst, size_t size, const char *src)
{
	return copy_s(dst, size, src, (size_t)-2, 1, 1);
}

ETW_EXPORT int etw_strncat_s(char *dst, size_t size, const char *src, size_t count)
{
	return copy_s(dst, size, src, count, 1, 1);
}

ETW_EXPORT int etw_wcsncat_s(char16_t *dst, size_t size, const char16_t *src, size_t count)
{
	return copy_s(dst, size, src, count, 1, 2);
}

/*
 * MSVC's memcpy_s and memmove_s: nothing to copy is success; no
 * destination or source is EINVAL and a destination too small ERANGE,
 * the destination then zeroed (when there is one), as MSVC's do when the
 * invalid-parameter handler returns.
 */
static int mem_s(void *dst, size_t size, const void *src, size_t count, int move)
{
	if (!count)
		return 0;
	if (!dst)
		return EINVAL;
	if (!src || size < count) {
		memset(dst, 0, size);
		return src ? ERANGE : EINVAL;
	}
	if (move)
		memmove(dst, src, count);
	else
		memcpy(dst, src, count);
	return 0;
}

ETW_EXPORT int etw_memcpy_s(void *dst, size_t size, const void *src, size_t count)
{
	return mem_s(dst, size, src, count, 0);
}

ETW_EXPORT int etw_memmove_s(void *dst, size_t size, const void *src, size_t count)
{
	return mem_s(dst, size, src, count, 1);
}

ETW_EXPORT int etw_wmemcpy_s(char16_t *dst, size_t size, const char16_t *src, size_t count)
{
	if (size > SIZE_MAX / 2 || count > SIZE_MAX / 2)
		return EINVAL;
	return mem_s(dst, size * 2, src, count * 2, 0);
}

ETW_EXPORT int etw_wmemmove_s(char16_t *dst, size_t size, const char16_t *src, size_t count)
{
	if (size > SIZE_MAX / 2 || count > SIZE_MAX / 2)
		return EINVAL;
	return mem_s(dst, size * 2, src, count * 2, 1);
}

ETW_EXPORT char *etw_strdup(const char *s)
{
	return s ? strdup(s) : NULL;
}

ETW_EXPORT char16_t *etw_wmemcpy(char16_t *dst, const char16_t *src, size_t n)
{
	return memcpy(dst, src, n * 2);
}

ETW_EXPORT char16_t *etw_wmemmove(char16_t *dst, const char16_t *src, size_t n)
{
	return memmove(dst, src, n * 2);
}

ETW_EXPORT char16_t *etw_wmemset(char16_t *dst, char16_t c, size_t n)
{
	for (size_t i = 0; i < n; i++)
		dst[i] = c;
	return dst;
}

ETW_EXPORT int etw_wmemcmp(const char16_t *a, const char16_t *b, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		if (a[i] != b[i])
			return a[i] < b[i] ? -1 : 1;
	}
	return 0;
}

ETW_EXPORT char16_t *etw_wmemchr(const char16_t *s, char16_t c, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		if (s[i] == c)
			return (char16_t *)&s[i];
	}
	return NULL;
}

ETW_EXPORT int etw_strnicmp(const char *a, const char *b, size_t n)
{
	for (; n; n--, a++, b++) {
		int x = (unsigned char)*a, y = (unsigned char)*b;

		x = x >= 'A' && x <= 'Z' ? x + 32 : x;
		y = y >= 'A' && y <= 'Z' ? y + 32 : y;
		if (x != y)
			return x - y;
		if (!x)
			break;
	}
	return 0;
}

ETW_EXPORT int etw_stricmp(const char *a, const char *b)
{
	return etw_strnicmp(a, b, (size_t)-1);
}
