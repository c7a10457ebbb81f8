// SPDX-License-Identifier: MIT
/*
 * The printf family's entry points (etw_crt.h): where the formatted text
 * goes and what each function returns, as MSVC's C runtime documents it.
 * Text for a FILE is written as UTF-8; the count returned is in the
 * function's own units (UTF-16 code units for the wide functions).
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "crt.h"

static int to_file(FILE *f, struct etw_obuf *o)
{
	int n = (int)o->len;

	if (o->wide) {
		char *u8 = etw_u16_to_u8_dup(o->p, o->len);
		size_t len;

		if (!u8)
			return -1;
		len = strlen(u8);
		if (fwrite(u8, 1, len, f) != len)
			n = -1;
		free(u8);
	} else if (o->len && fwrite(o->p, 1, o->len, f) != o->len) {
		n = -1;
	}
	return n;
}

static int vfile(FILE *f, int wide, const void *fmt, va_list ap)
{
	struct etw_obuf o = { .wide = wide };
	int n;

	if (!f) {
		errno = EINVAL;
		return -1;
	}
	if (etw_format(&o, fmt, ap)) {
		etw_obuf_free(&o);
		return -1;
	}
	n = to_file(f, &o);
	etw_obuf_free(&o);
	return n;
}

enum trunc_rule {
	TRUNC_ISO,	/* swprintf: NUL at the end, -1 when cut */
	TRUNC_MS,	/* _snwprintf: no NUL when exactly full, -1 when cut */
	TRUNC_SECURE,	/* swprintf_s: buffer emptied, -1 (ERANGE) when cut */
	TRUNC_C99,	/* snprintf: NUL at the end, the full length */
	TRUNC_NONE,	/* sprintf: the caller said it fits */
};

static int vbuf(void *buf, size_t count, int wide, enum trunc_rule rule,
		const void *fmt, va_list ap)
{
	struct etw_obuf o = { .wide = wide };
	size_t unit = wide ? 2 : 1, len;
	int n;

	if ((!buf && count) || !fmt || (rule == TRUNC_SECURE && (!buf || !count)) ||
	    (rule == TRUNC_NONE && !buf)) {
		errno = EINVAL;
		return -1;
	}
	if (etw_format(&o, fmt, ap)) {
		etw_obuf_free(&o);
		if (buf && count && rule != TRUNC_C99)
			memset(buf, 0, unit);
		return -1;
	}
	len = o.len;
	if (len > INT32_MAX) {
		etw_obuf_free(&o);
		errno = EOVERFLOW;
		return -1;
	}
	n = (int)len;
	if (rule == TRUNC_NONE) {
		memcpy(buf, o.p, len * unit);
		memset((char *)buf + len * unit, 0, unit);
	} else if (len < count) {
		memcpy(buf, o.p, len * unit);
		memset((char *)buf + len * unit, 0, unit);
	} else if (rule == TRUNC_MS) {
		memcpy(buf, o.p, count * unit);
		if (len > count)
			n = -1;
	} else if (rule == TRUNC_SECURE) {
		memset(buf, 0, unit);
		errno = ERANGE;
		n = -1;
	} else if (count) {
		memcpy(buf, o.p, (count - 1) * unit);
		memset((char *)buf + (count - 1) * unit, 0, unit);
		if (rule == TRUNC_ISO)
			n = -1;
	} else if (rule == TRUNC_ISO) {
		n = -1;
	}
	etw_obuf_free(&o);
	return n;
}

#define VARARGS(call) ({ va_list ap; int r; va_start(ap, format); r = (call); va_end(ap); r; })

/* Wide. */
ETW_EXPORT int etw_vfwprintf(FILE *f, const char16_t *format, va_list ap)
{
	return vfile(f, 1, format, ap);
}

ETW_EXPORT int etw_vwprintf(const char16_t *format, va_list ap)
{
	return vfile(stdout, 1, format, ap);
}

ETW_EXPORT int etw_wprintf(const char16_t *format, ...)
{
	return VARARGS(vfile(stdout, 1, format, ap));
}

ETW_EXPORT int etw_fwprintf(FILE *f, const char16_t *format, ...)
{
	return VARARGS(vfile(f, 1, format, ap));
}

ETW_EXPORT int etw_vswprintf(char16_t *buf, size_t count, const char16_t *format, va_list ap)
{
	return vbuf(buf, count, 1, TRUNC_ISO, format, ap);
}

ETW_EXPORT int etw_swprintf(char16_t *buf, size_t count, const char16_t *format, ...)
{
	return VARARGS(vbuf(buf, count, 1, TRUNC_ISO, format, ap));
}

ETW_EXPORT int etw_swprintf_legacy(char16_t *buf, const char16_t *format, ...)
{
	return VARARGS(vbuf(buf, 0, 1, TRUNC_NONE, format, ap));
}

ETW_EXPORT int etw_vsnwprintf(char16_t *buf, size_t count, const char16_t *format, va_list ap)
{
	return vbuf(buf, count, 1, TRUNC_MS, format, ap);
}

ETW_EXPORT int etw_snwprintf(char16_t *buf, size_t count, const char16_t *format, ...)
{
	return VARARGS(vbuf(buf, count, 1, TRUNC_MS, format, ap));
}

ETW_EXPORT int etw_vswprintf_s(char16_t *buf, size_t count, const char16_t *format, va_list ap)
{
	return vbuf(buf, count, 1, TRUNC_SECURE, format, ap);
}

ETW_EXPORT int etw_swprintf_s(char16_t *buf, size_t count, const char16_t *format, ...)
{
	return VARARGS(vbuf(buf, count, 1, TRUNC_SECURE, format, ap));
}

/*
 * _snwprintf_s(buf, size, count, ...): at most @count units (_TRUNCATE:
 * as many as fit, returning -1 when cut), always NUL-terminated.
 */
ETW_EXPORT int etw_snwprintf_s(char16_t *buf, size_t size, size_t count,
			       const char16_t *format, ...)
{
	if (count == (size_t)-1)
		return VARARGS(vbuf(buf, size, 1, TRUNC_ISO, format, ap));
	if (count < size)
		size = count + 1;
	return VARARGS(vbuf(buf, size, 1, TRUNC_SECURE, format, ap));
}

ETW_EXPORT int etw_scwprintf(const char16_t *format, ...)
{
	return VARARGS(vbuf(NULL, 0, 1, TRUNC_C99, format, ap));
}

ETW_EXPORT int etw_fputws(const char16_t *s, FILE *f)
{
	char *u8;
	int rc = 0;

	if (!s || !f) {
		errno = EINVAL;
		return -1;
	}
	u8 = etw_u16_to_u8_dup(s, etw_u16len(s));
	if (!u8)
		return -1;
	if (fputs(u8, f) == EOF)
		rc = -1;
	free(u8);
	return rc;
}

/* _putws: the string and a new line; 0 or -1 (WEOF). */
ETW_EXPORT int etw_putws(const char16_t *s)
{
	if (etw_fputws(s, stdout))
		return -1;
	return putchar('\n') == EOF ? -1 : 0;
}

ETW_EXPORT unsigned int etw_fputwc(unsigned int c, FILE *f)
{
	char16_t w = (char16_t)c;
	char *u8 = etw_u16_to_u8_dup(&w, 1);
	int rc;

	if (!u8)
		return 0xFFFF;
	rc = fputs(u8, f);
	free(u8);
	return rc == EOF ? 0xFFFF : (char16_t)c;
}

ETW_EXPORT unsigned int etw_putwchar(unsigned int c)
{
	return etw_fputwc(c, stdout);
}

/* Narrow, the same rules. */
ETW_EXPORT int etw_vfprintf(FILE *f, const char *format, va_list ap)
{
	return vfile(f, 0, format, ap);
}

ETW_EXPORT int etw_vprintf(const char *format, va_list ap)
{
	return vfile(stdout, 0, format, ap);
}

ETW_EXPORT int etw_printf(const char *format, ...)
{
	return VARARGS(vfile(stdout, 0, format, ap));
}

ETW_EXPORT int etw_fprintf(FILE *f, const char *format, ...)
{
	return VARARGS(vfile(f, 0, format, ap));
}

ETW_EXPORT int etw_vsprintf(char *buf, const char *format, va_list ap)
{
	return vbuf(buf, 0, 0, TRUNC_NONE, format, ap);
}

ETW_EXPORT int etw_sprintf(char *buf, const char *format, ...)
{
	return VARARGS(vbuf(buf, 0, 0, TRUNC_NONE, format, ap));
}

ETW_EXPORT int etw_vsnprintf(char *buf, size_t count, const char *format, va_list ap)
{
	return vbuf(buf, count, 0, TRUNC_C99, format, ap);
}

ETW_EXPORT int etw_snprintf(char *buf, size_t count, const char *format, ...)
{
	return VARARGS(vbuf(buf, count, 0, TRUNC_C99, format, ap));
}

ETW_EXPORT int etw_vsnprintf_ms(char *buf, size_t count, const char *format, va_list ap)
{
	return vbuf(buf, count, 0, TRUNC_MS, format, ap);
}

ETW_EXPORT int etw_snprintf_ms(char *buf, size_t count, const char *format, ...)
{
	return VARARGS(vbuf(buf, count, 0, TRUNC_MS, format, ap));
}

ETW_EXPORT int etw_vsprintf_s(char *buf, size_t count, const char *format, va_list ap)
{
	return vbuf(buf, count, 0, TRUNC_SECURE, format, ap);
}

ETW_EXPORT int etw_sprintf_s(char *buf, size_t count, const char *format, ...)
{
	return VARARGS(vbuf(buf, count, 0, TRUNC_SECURE, format, ap));
}
