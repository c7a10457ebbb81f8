// SPDX-License-Identifier: GPL-2.0
/*
 * etw dump: strings out in each format.  Everything a file holds ends up
 * in these strings, so nothing is trusted to be valid UTF-8: a bad
 * sequence is written as U+FFFD, which keeps JSON and XML well formed.
 */
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "dump/dump.h"

/* The code point at s (n bytes left): its length, U+FFFD if invalid. */
static size_t utf8_next(const unsigned char *s, size_t n, uint32_t *cp)
{
	uint32_t c = s[0], min;
	size_t len;

	if (c < 0x80) {
		*cp = c;
		return 1;
	}
	if (c < 0xc2 || c >= 0xf5) {
		*cp = 0xfffd;
		return 1;
	}
	len = c < 0xe0 ? 2 : c < 0xf0 ? 3 : 4;
	min = len == 2 ? 0x80 : len == 3 ? 0x800 : 0x10000;
	c &= 0x7f >> len;
	if (len > n)
		len = n + 1;
	for (size_t i = 1; i < len; i++) {
		if (i >= n || (s[i] & 0xc0) != 0x80) {
			*cp = 0xfffd;
			return i;
		}
		c = c << 6 | (s[i] & 0x3f);
	}
	if (c < min || c > 0x10ffff || (c >= 0xd800 && c < 0xe000))
		c = 0xfffd;
	*cp = c;
	return len;
}

static void put_cp(FILE *out, uint32_t c)
{
	if (c < 0x80) {
		putc_unlocked((int)c, out);
	} else if (c < 0x800) {
		putc_unlocked((int)(0xc0 | c >> 6), out);
		putc_unlocked((int)(0x80 | (c & 0x3f)), out);
	} else if (c < 0x10000) {
		putc_unlocked((int)(0xe0 | c >> 12), out);
		putc_unlocked((int)(0x80 | (c >> 6 & 0x3f)), out);
		putc_unlocked((int)(0x80 | (c & 0x3f)), out);
	} else {
		putc_unlocked((int)(0xf0 | c >> 18), out);
		putc_unlocked((int)(0x80 | (c >> 12 & 0x3f)), out);
		putc_unlocked((int)(0x80 | (c >> 6 & 0x3f)), out);
		putc_unlocked((int)(0x80 | (c & 0x3f)), out);
	}
}

/* ASCII characters a format writes as they are. */
enum { PLAIN_JSON = 1, PLAIN_XML = 2, PLAIN_TEXT = 4, PLAIN_CSV = 8 };

static bool plain(unsigned char c, unsigned int fmt)
{
	if (c < 0x20 || c >= 0x7f)
		return false;
	switch (c) {
	case '"':
		return false;
	case '\\':
		return fmt != PLAIN_JSON;
	case '&':
	case '<':
	case '>':
	case '\'':
		return fmt != PLAIN_XML;
	}
	return true;
}

/*
 * Walk s: runs of plain ASCII go out in one write, anything else one
 * code point at a time through put.  Inlined into each escaper, so that
 * plain() is tested for its one format: most bytes take this loop.
 */
static inline __attribute__((always_inline)) void each_cp(FILE *out, const char *s, unsigned int fmt,
		    void (*put)(FILE *, uint32_t))
{
	const unsigned char *p = (const unsigned char *)s, *run = p;
	size_t n = strlen(s);
	uint32_t c;

	while (n) {
		size_t len;

		if (plain(*p, fmt)) {
			p++;
			n--;
			continue;
		}
		if (p > run)
			fwrite_unlocked(run, 1, p - run, out);
		len = utf8_next(p, n, &c);
		put(out, c);
		p += len;
		n -= len;
		run = p;
	}
	if (p > run)
		fwrite_unlocked(run, 1, p - run, out);
}

/*
 * Printable ASCII (0x20-0x7e) without '"' and, for JSON, '\\': written
 * as it is in text and JSON.  Eight bytes at a time; most strings are.
 */
static bool plain_ascii(const char *s, size_t n, bool json)
{
	const uint64_t ones = 0x0101010101010101ull, high = ones << 7;
	size_t i = 0;

	for (; i + 8 <= n; i += 8) {
		uint64_t x, q, b;

		memcpy(&x, s + i, 8);
		q = x ^ (0x22 * ones);
		b = x ^ (0x5c * ones);
		if (((x - 0x20 * ones) | (x + ones) | x |
		     ((q - ones) & ~q) | (json ? (b - ones) & ~b : 0)) & high)
			return false;
	}
	for (; i < n; i++) {
		unsigned char c = (unsigned char)s[i];

		if (c - 0x20u >= 0x5fu || c == '"' || (json && c == '\\'))
			return false;
	}
	return true;
}

static void json_cp(FILE *out, uint32_t c)
{
	if (c == '"' || c == '\\')
		fprintf(out, "\\%c", (int)c);
	else if (c == '\n')
		fputs("\\n", out);
	else if (c == '\t')
		fputs("\\t", out);
	else if (c < 0x20 || c == 0x7f)
		fprintf(out, "\\u%04x", (unsigned int)c);
	else
		put_cp(out, c);
}

void put_json_string(FILE *out, const char *s)
{
	size_t n = strlen(s);

	putc_unlocked('"', out);
	if (plain_ascii(s, n, true))
		fwrite_unlocked(s, 1, n, out);
	else
		each_cp(out, s, PLAIN_JSON, json_cp);
	putc_unlocked('"', out);
}

/* XML 1.0 allows no other control character, not even as a reference. */
static void xml_cp(FILE *out, uint32_t c)
{
	switch (c) {
	case '&':
		fputs("&amp;", out);
		return;
	case '<':
		fputs("&lt;", out);
		return;
	case '>':
		fputs("&gt;", out);
		return;
	case '"':
		fputs("&quot;", out);
		return;
	case '\'':
		fputs("&apos;", out);
		return;
	case '\t':
	case '\n':
	case '\r':
		fprintf(out, "&#x%x;", (unsigned int)c);
		return;
	}
	if (c < 0x20 || c == 0xfffe || c == 0xffff)
		c = 0xfffd;
	put_cp(out, c);
}

void put_xml_text(FILE *out, const char *s)
{
	each_cp(out, s, PLAIN_XML, xml_cp);
}

/* Text and CSV keep one record per line: controls become escapes. */
static void text_cp(FILE *out, uint32_t c)
{
	if (c == '\n')
		fputs("\\n", out);
	else if (c == '\r')
		fputs("\\r", out);
	else if (c == '\t')
		fputs("\\t", out);
	else if (c < 0x20 || c == 0x7f)
		fprintf(out, "\\x%02x", (unsigned int)c);
	else
		put_cp(out, c);
}

void put_text(FILE *out, const char *s)
{
	size_t n = strlen(s);

	if (plain_ascii(s, n, false))
		fwrite_unlocked(s, 1, n, out);
	else
		each_cp(out, s, PLAIN_TEXT, text_cp);
}

static void csv_cp(FILE *out, uint32_t c)
{
	if (c == '"')
		fputs("\"\"", out);
	else
		text_cp(out, c);
}

void put_csv_field(FILE *out, const char *s)
{
	if (!strpbrk(s, ",\"\r\n") && s[0] != ' ') {
		each_cp(out, s, PLAIN_TEXT, text_cp);
		return;
	}
	putc('"', out);
	each_cp(out, s, PLAIN_CSV, csv_cp);
	putc('"', out);
}
