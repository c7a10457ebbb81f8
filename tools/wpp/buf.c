// SPDX-License-Identifier: GPL-2.0
/*
 * etw wpp: growing strings, copies, and errors that name file and line.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wpp.h"

static void *must(void *p)
{
	if (!p) {
		fputs("etw wpp: out of memory\n", stderr);
		exit(1);
	}
	return p;
}

char *wpp_strndup(const char *s, size_t n)
{
	return must(strndup(s, n));
}

char *wpp_strdup(const char *s)
{
	return must(strdup(s));
}

void wpp_buf_add(struct wpp_buf *b, const char *s, size_t n)
{
	if (b->len + n + 1 > b->cap) {
		b->cap = (b->len + n + 1) * 2;
		b->s = must(realloc(b->s, b->cap));
	}
	memcpy(b->s + b->len, s, n);
	b->len += n;
	b->s[b->len] = 0;
}

void wpp_buf_puts(struct wpp_buf *b, const char *s)
{
	wpp_buf_add(b, s, strlen(s));
}

void wpp_buf_printf(struct wpp_buf *b, const char *fmt, ...)
{
	va_list ap;
	char *s;
	int n;

	va_start(ap, fmt);
	n = vasprintf(&s, fmt, ap);
	va_end(ap);
	if (n < 0)
		must(NULL);
	wpp_buf_add(b, s, (size_t)n);
	free(s);
}

void wpp_buf_free(struct wpp_buf *b)
{
	free(b->s);
	b->s = NULL;
	b->len = b->cap = 0;
}

int wpp_error(const struct wpp_pos *pos, const char *fmt, ...)
{
	va_list ap;

	if (pos && pos->file)
		fprintf(stderr, "etw: wpp: %s:%d: ", pos->file, pos->line);
	else
		fputs("etw: wpp: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return -1;
}
