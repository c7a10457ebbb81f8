// SPDX-License-Identifier: MIT
/*
 * The WPP formatter's growable strings: always NUL-terminated; a failed
 * allocation is remembered (oom) rather than reported at every append.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wpp.h"

static bool grow(struct wpp_buf *b, size_t more)
{
	size_t cap = b->cap ? b->cap : 256;
	char *p;

	if (b->oom)
		return false;
	if (b->len + more + 1 <= b->cap)
		return true;
	while (cap < b->len + more + 1)
		cap *= 2;
	p = realloc(b->p, cap);
	if (!p) {
		b->oom = true;
		return false;
	}
	b->p = p;
	b->cap = cap;
	return true;
}

void wb_reset(struct wpp_buf *b)
{
	b->len = 0;
	b->oom = false;
	if (grow(b, 0))
		b->p[0] = '\0';
}

void wb_free(struct wpp_buf *b)
{
	free(b->p);
	memset(b, 0, sizeof(*b));
}

void wb_put(struct wpp_buf *b, const char *s, size_t n)
{
	if (!grow(b, n))
		return;
	memcpy(b->p + b->len, s, n);
	b->len += n;
	b->p[b->len] = '\0';
}

void wb_puts(struct wpp_buf *b, const char *s)
{
	wb_put(b, s, strlen(s));
}

void wb_vprintf(struct wpp_buf *b, const char *fmt, va_list ap)
{
	va_list aq;
	int n;

	/* Into the room there is; again with more only if it did not fit. */
	if (!grow(b, 0))
		return;
	va_copy(aq, ap);
	n = vsnprintf(b->p + b->len, b->cap - b->len, fmt, aq);
	va_end(aq);
	if (n < 0) {
		b->p[b->len] = '\0';
		return;
	}
	if ((size_t)n >= b->cap - b->len) {
		if (!grow(b, (size_t)n)) {
			b->p[b->len] = '\0';
			return;
		}
		vsnprintf(b->p + b->len, (size_t)n + 1, fmt, ap);
	}
	b->len += (size_t)n;
}

void wb_num(struct wpp_buf *b, uint64_t v, bool neg, unsigned int base,
	    bool upper, int width, char pad)
{
	const char *digits = upper ? "0123456789ABCDEF" : "0123456789abcdef";
	char tmp[24], out[64];
	int n = 0, len = 0, w = width < 0 ? -width : width;

	do {
		tmp[n++] = digits[v % base];
		v /= base;
	} while (v);
	if (w > (int)sizeof(out) - 2)
		w = (int)sizeof(out) - 2;
	if (width > 0 && pad == ' ')
		while (w > n + neg + len)
			out[len++] = ' ';
	if (neg)
		out[len++] = '-';
	if (width > 0 && pad == '0')
		while (w > n + len)
			out[len++] = '0';
	while (n)
		out[len++] = tmp[--n];
	while (width < 0 && len < w)
		out[len++] = ' ';
	wb_put(b, out, (size_t)len);
}

void wb_printf(struct wpp_buf *b, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	wb_vprintf(b, fmt, ap);
	va_end(ap);
}
