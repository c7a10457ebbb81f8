// SPDX-License-Identifier: MIT
/*
 * UTF-16 <-> UTF-8 (see utf.h).  Written for session names (at most a few
 * hundred units): one pass, no tables, no locale.
 */
#include <errno.h>
#include <stdint.h>

#include "utf.h"

/* Append code point @c (valid, not a surrogate) as UTF-8; count always. */
static size_t put_utf8(uint32_t c, char *out, size_t pos, size_t size)
{
	unsigned char b[4];
	size_t n, i;

	if (c < 0x80) {
		b[0] = (unsigned char)c;
		n = 1;
	} else if (c < 0x800) {
		b[0] = 0xc0 | (c >> 6);
		b[1] = 0x80 | (c & 0x3f);
		n = 2;
	} else if (c < 0x10000) {
		b[0] = 0xe0 | (c >> 12);
		b[1] = 0x80 | ((c >> 6) & 0x3f);
		b[2] = 0x80 | (c & 0x3f);
		n = 3;
	} else {
		b[0] = 0xf0 | (c >> 18);
		b[1] = 0x80 | ((c >> 12) & 0x3f);
		b[2] = 0x80 | ((c >> 6) & 0x3f);
		b[3] = 0x80 | (c & 0x3f);
		n = 4;
	}
	/* Keep one byte for the NUL. */
	if (out && pos + n < size)
		for (i = 0; i < n; i++)
			out[pos + i] = (char)b[i];
	return n;
}

ssize_t etw_utf16_to_utf8(const char16_t *in, size_t len, char *out,
			  size_t size)
{
	size_t i, pos = 0;
	uint32_t c;

	if (out && !size)
		return -ENOBUFS;
	for (i = 0; i < len; i++) {
		c = in[i];
		if (c >= 0xdc00 && c <= 0xdfff)
			return -EILSEQ;		/* a low surrogate first */
		if (c >= 0xd800 && c <= 0xdbff) {
			if (i + 1 == len || in[i + 1] < 0xdc00 || in[i + 1] > 0xdfff)
				return -EILSEQ;	/* a high one without its pair */
			c = 0x10000 + ((c - 0xd800) << 10) + (in[++i] - 0xdc00);
		}
		pos += put_utf8(c, out, pos, size);
		if (out && pos >= size)
			return -ENOBUFS;
	}
	if (out)
		out[pos] = 0;
	return (ssize_t)pos;
}

/* Decode one code point at @s (with @left bytes); 0 on invalid input. */
static size_t get_utf8(const unsigned char *s, size_t left, uint32_t *cp)
{
	uint32_t c = s[0], min;
	size_t n, i;

	if (c < 0x80) {
		*cp = c;
		return 1;
	}
	if (c >= 0xc2 && c <= 0xdf) {
		n = 2;
		min = 0x80;
		c &= 0x1f;
	} else if (c >= 0xe0 && c <= 0xef) {
		n = 3;
		min = 0x800;
		c &= 0x0f;
	} else if (c >= 0xf0 && c <= 0xf4) {
		n = 4;
		min = 0x10000;
		c &= 0x07;
	} else {
		return 0;	/* a continuation byte, C0, C1 or F5..FF */
	}
	if (left < n)
		return 0;
	for (i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		c = (c << 6) | (s[i] & 0x3f);
	}
	/* Overlong forms, UTF-8 encoded surrogates, beyond Unicode. */
	if (c < min || (c >= 0xd800 && c <= 0xdfff) || c > 0x10ffff)
		return 0;
	*cp = c;
	return n;
}

ssize_t etw_utf8_to_utf16(const char *in, size_t len, char16_t *out,
			  size_t size)
{
	const unsigned char *s = (const unsigned char *)in;
	size_t i = 0, pos = 0, n, units;
	uint32_t c;

	if (out && !size)
		return -ENOBUFS;
	while (i < len) {
		n = get_utf8(s + i, len - i, &c);
		if (!n)
			return -EILSEQ;
		i += n;
		units = c >= 0x10000 ? 2 : 1;
		if (out) {
			if (pos + units >= size)
				return -ENOBUFS;
			if (units == 2) {
				c -= 0x10000;
				out[pos] = (char16_t)(0xd800 + (c >> 10));
				out[pos + 1] = (char16_t)(0xdc00 + (c & 0x3ff));
			} else {
				out[pos] = (char16_t)c;
			}
		}
		pos += units;
	}
	if (out)
		out[pos] = 0;
	return (ssize_t)pos;
}
