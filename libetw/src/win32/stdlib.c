// SPDX-License-Identifier: MIT
/*
 * MSVC's wide number parsing, path and conversion functions for 16-bit
 * wchar_t (etw_crt.h).  Numbers: the digits are ASCII, so the UTF-16
 * text is narrowed and glibc's strto* does the parsing, with its overflow
 * rules (saturation, ERANGE); _wtoi and _wtol are 32-bit as on Windows.
 * Multibyte text is UTF-8.
 */
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "crt.h"

/*
 * Copy the leading run of what can be part of a number (ASCII, at most
 * 127 units: a longer number saturates the same) to @out.
 */
static size_t narrow_prefix(const char16_t *s, char *out, size_t size)
{
	size_t i;

	for (i = 0; i + 1 < size && s[i] && s[i] < 0x80; i++)
		out[i] = (char)s[i];
	out[i] = 0;
	return i;
}

#define PARSE(type, fn, s, end, ...) ({						\
	char buf[128], *e;							\
	type v;									\
	narrow_prefix(s, buf, sizeof(buf));					\
	v = fn(buf, &e, ##__VA_ARGS__);						\
	if (end)								\
		*(end) = (char16_t *)(s) + (e - buf);				\
	v;									\
})

ETW_EXPORT long long etw_wcstoll(const char16_t *s, char16_t **end, int base)
{
	return PARSE(long long, strtoll, s, end, base);
}

ETW_EXPORT unsigned long long etw_wcstoull(const char16_t *s, char16_t **end, int base)
{
	return PARSE(unsigned long long, strtoull, s, end, base);
}

/* long is 64-bit here, so the C library's own range applies. */
ETW_EXPORT long etw_wcstol(const char16_t *s, char16_t **end, int base)
{
	return PARSE(long, strtol, s, end, base);
}

ETW_EXPORT unsigned long etw_wcstoul(const char16_t *s, char16_t **end, int base)
{
	return PARSE(unsigned long, strtoul, s, end, base);
}

ETW_EXPORT double etw_wcstod(const char16_t *s, char16_t **end)
{
	return PARSE(double, strtod, s, end);
}

ETW_EXPORT double etw_wtof(const char16_t *s)
{
	return etw_wcstod(s, NULL);
}

/* _wtoi/_wtol: a 32-bit int, INT_MAX/INT_MIN (ERANGE) out of range. */
ETW_EXPORT int etw_wtoi(const char16_t *s)
{
	long long v = etw_wcstoll(s, NULL, 10);

	if (v > INT_MAX || v < INT_MIN) {
		errno = ERANGE;
		return v > 0 ? INT_MAX : INT_MIN;
	}
	return (int)v;
}

ETW_EXPORT long etw_wtol(const char16_t *s)
{
	return etw_wtoi(s);
}

ETW_EXPORT long long etw_wtoi64(const char16_t *s)
{
	return etw_wcstoll(s, NULL, 10);
}

/*
 * mbstowcs/wcstombs over UTF-8: the count excludes the NUL, @dst NULL
 * asks for the length, (size_t)-1 for text that does not convert.
 */
ETW_EXPORT size_t etw_mbstowcs(char16_t *dst, const char *src, size_t n)
{
	size_t len;
	char16_t *w = etw_u8_to_u16_dup(src, strlen(src), &len);

	if (!w)
		return (size_t)-1;
	if (dst) {
		if (len + 1 <= n) {
			memcpy(dst, w, (len + 1) * 2);
		} else {
			memcpy(dst, w, n * 2);
			len = n;
		}
	}
	free(w);
	return len;
}

ETW_EXPORT size_t etw_wcstombs(char *dst, const char16_t *src, size_t n)
{
	char *u8 = etw_u16_to_u8_dup(src, etw_u16len(src));
	size_t len;

	if (!u8)
		return (size_t)-1;
	len = strlen(u8);
	if (dst) {
		if (len + 1 <= n) {
			memcpy(dst, u8, len + 1);
		} else {
			/* Whole characters only, as MSVC's. */
			size_t k = n;

			while (k > 0 && k < len && ((unsigned char)u8[k] & 0xC0) == 0x80)
				k--;
			memcpy(dst, u8, k);
			len = k;
		}
	}
	free(u8);
	return len;
}

/*
 * _fullpath: the absolute form of @rel, "." and ".." resolved and the
 * file not required to exist (realpath would require it).  @abs NULL:
 * allocated; too long for @max: NULL (ERANGE).
 */
ETW_EXPORT char *etw_fullpath(char *abs, const char *rel, size_t max)
{
	char *path, *out, *p, *save = NULL;
	size_t len, olen = 0;

	if (!rel || !*rel) {
		char *cwd = getcwd(NULL, 0);

		if (!cwd)
			return NULL;
		path = cwd;
	} else if (rel[0] == '/') {
		path = strdup(rel);
	} else {
		char *cwd = getcwd(NULL, 0);

		if (!cwd)
			return NULL;
		len = strlen(cwd) + strlen(rel) + 2;
		path = malloc(len);
		if (path)
			snprintf(path, len, "%s/%s", cwd, rel);
		free(cwd);
	}
	if (!path)
		return NULL;
	out = malloc(strlen(path) + 2);
	if (!out) {
		free(path);
		return NULL;
	}
	for (p = strtok_r(path, "/", &save); p; p = strtok_r(NULL, "/", &save)) {
		if (!strcmp(p, "."))
			continue;
		if (!strcmp(p, "..")) {
			while (olen > 0 && out[olen - 1] != '/')
				olen--;
			if (olen > 0)
				olen--;
			continue;
		}
		out[olen++] = '/';
		len = strlen(p);
		memcpy(out + olen, p, len);
		olen += len;
	}
	if (!olen)
		out[olen++] = '/';
	out[olen] = 0;
	free(path);
	if (!abs)
		return out;
	if (olen + 1 > max) {
		free(out);
		errno = ERANGE;
		return NULL;
	}
	memcpy(abs, out, olen + 1);
	free(out);
	return abs;
}

ETW_EXPORT char16_t *etw_wfullpath(char16_t *abs, const char16_t *rel, size_t max)
{
	char *r = NULL, *full;
	char16_t *w;
	size_t len;

	if (rel) {
		r = etw_u16_to_u8_dup(rel, etw_u16len(rel));
		if (!r)
			return NULL;
	}
	full = etw_fullpath(NULL, r, 0);
	free(r);
	if (!full)
		return NULL;
	w = etw_u8_to_u16_dup(full, strlen(full), &len);
	free(full);
	if (!w || !abs)
		return w;
	if (len + 1 > max) {
		free(w);
		errno = ERANGE;
		return NULL;
	}
	memcpy(abs, w, (len + 1) * 2);
	free(w);
	return abs;
}

/*
 * _wgetenv: a UTF-16 copy of the variable that stays valid, as MSVC's wide
 * environment does: one copy per distinct value, kept for the process.
 */
struct wenv {
	struct wenv *next;
	char *value;
	char16_t *wide;
};
static struct wenv *wenv_list;
static pthread_mutex_t wenv_lock = PTHREAD_MUTEX_INITIALIZER;

ETW_EXPORT char16_t *etw_wgetenv(const char16_t *name)
{
	struct wenv *e;
	char16_t *w = NULL;
	char *n, *v;

	if (!name)
		return NULL;
	n = etw_u16_to_u8_dup(name, etw_u16len(name));
	if (!n)
		return NULL;
	pthread_mutex_lock(&wenv_lock);
	v = getenv(n);
	free(n);
	if (!v)
		goto out;
	for (e = wenv_list; e; e = e->next) {
		if (!strcmp(e->value, v)) {
			w = e->wide;
			goto out;
		}
	}
	e = calloc(1, sizeof(*e));
	if (!e)
		goto out;
	e->value = strdup(v);
	e->wide = etw_u8_to_u16_dup(v, strlen(v), NULL);
	if (!e->value || !e->wide) {
		free(e->value);
		free(e->wide);
		free(e);
		goto out;
	}
	e->next = wenv_list;
	wenv_list = e;
	w = e->wide;
out:
	pthread_mutex_unlock(&wenv_lock);
	return w;
}
