/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A line of `etw dump` output built by hand.  fprintf() parses its format
 * and locks the stream at every call, thousands of instructions for each
 * record; these append to a buffer that is written once.  Anything longer
 * than the buffer is cut (the callers' lines are short and bounded).
 */
#ifndef ETW_TOOLS_DUMP_LINE_H
#define ETW_TOOLS_DUMP_LINE_H

#include <stdint.h>
#include <stdio.h>
#include <string.h>

struct dump_line {
	size_t n;
	char b[256];
};

static inline void line_mem(struct dump_line *l, const char *s, size_t len)
{
	if (len > sizeof(l->b) - l->n)
		len = sizeof(l->b) - l->n;
	memcpy(l->b + l->n, s, len);
	l->n += len;
}

static inline void line_str(struct dump_line *l, const char *s)
{
	line_mem(l, s, strlen(s));
}

/* @v in decimal, ending just before @end: returns where it starts. */
static inline char *dec_u64(char *end, uint64_t v)
{
	do {
		*--end = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	return end;
}

/* @v in decimal. */
static inline void line_u(struct dump_line *l, uint64_t v)
{
	char d[20], *p = dec_u64(d + sizeof(d), v);

	line_mem(l, p, (size_t)(d + sizeof(d) - p));
}

/*
 * @v in lowercase hex, at least @width digits (at most 16), without "0x",
 * ending just before @end: returns where it starts.
 */
static inline char *hex_u64(char *end, uint64_t v, int width)
{
	static const char hex[] = "0123456789abcdef";
	char *p = end;

	do {
		*--p = hex[v & 15];
		v >>= 4;
	} while (v || end - p < width);
	return p;
}

/* @v in lowercase hex, at least @width digits, without "0x". */
static inline void line_x(struct dump_line *l, uint64_t v, int width)
{
	char d[16], *p = hex_u64(d + sizeof(d), v, width);

	line_mem(l, p, (size_t)(d + sizeof(d) - p));
}

static inline void line_put(struct dump_line *l, FILE *out)
{
	fwrite(l->b, 1, l->n, out);
	l->n = 0;
}

#endif /* ETW_TOOLS_DUMP_LINE_H */
