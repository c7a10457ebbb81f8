// SPDX-License-Identifier: MIT
/*
 * Growable output for the printf family and lenient UTF-8 <-> UTF-16:
 * unlike common/utf.c (strict, for names that must convert back exactly),
 * text printed by a program is never refused; what is not valid becomes
 * U+FFFD, as a terminal would show it.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "crt.h"

size_t etw_u16len(const char16_t *s)
{
	size_t n = 0;

	while (s[n])
		n++;
	return n;
}

static int obuf_reserve(struct etw_obuf *o, size_t more)
{
	size_t unit = o->wide ? 2 : 1, cap;
	void *p;

	if (o->len + more + 1 <= o->cap)
		return 0;
	cap = o->cap ? o->cap : 64;
	while (cap < o->len + more + 1) {
		if (cap > SIZE_MAX / 4 / unit) {
			errno = ENOMEM;
			return -1;
		}
		cap *= 2;
	}
	p = realloc(o->p, cap * unit);
	if (!p) {
		errno = ENOMEM;
		return -1;
	}
	o->p = p;
	o->cap = cap;
	return 0;
}

void etw_obuf_free(struct etw_obuf *o)
{
	free(o->p);
	o->p = NULL;
	o->len = o->cap = 0;
}

/* The next code point of UTF-16 @s (@n units left), @used set. */
unsigned int etw_next16(const char16_t *s, size_t n, size_t *used)
{
	unsigned int c = s[0];

	*used = 1;
	if (c >= 0xD800 && c < 0xDC00 && n > 1 && s[1] >= 0xDC00 && s[1] < 0xE000) {
		*used = 2;
		return 0x10000 + ((c - 0xD800) << 10) + (s[1] - 0xDC00);
	}
	if (c >= 0xD800 && c < 0xE000)
		return 0xFFFD;
	return c;
}

/* The next code point of UTF-8 @s (@n bytes left), @used set. */
unsigned int etw_next8(const unsigned char *s, size_t n, size_t *used)
{
	unsigned int c = s[0], min;
	size_t len, i;

	*used = 1;
	if (c < 0x80)
		return c;
	if (c >= 0xC2 && c < 0xE0) {
		len = 2; c &= 0x1F; min = 0x80;
	} else if (c >= 0xE0 && c < 0xF0) {
		len = 3; c &= 0x0F; min = 0x800;
	} else if (c >= 0xF0 && c < 0xF5) {
		len = 4; c &= 0x07; min = 0x10000;
	} else {
		return 0xFFFD;
	}
	if (n < len)
		return 0xFFFD;
	for (i = 1; i < len; i++) {
		if ((s[i] & 0xC0) != 0x80)
			return 0xFFFD;
		c = (c << 6) | (s[i] & 0x3F);
	}
	if (c < min || c > 0x10FFFF || (c >= 0xD800 && c < 0xE000))
		return 0xFFFD;
	*used = len;
	return c;
}

size_t etw_enc8(unsigned int c, char *out)
{
	if (c < 0x80) {
		out[0] = (char)c;
		return 1;
	}
	if (c < 0x800) {
		out[0] = (char)(0xC0 | (c >> 6));
		out[1] = (char)(0x80 | (c & 0x3F));
		return 2;
	}
	if (c < 0x10000) {
		out[0] = (char)(0xE0 | (c >> 12));
		out[1] = (char)(0x80 | ((c >> 6) & 0x3F));
		out[2] = (char)(0x80 | (c & 0x3F));
		return 3;
	}
	out[0] = (char)(0xF0 | (c >> 18));
	out[1] = (char)(0x80 | ((c >> 12) & 0x3F));
	out[2] = (char)(0x80 | ((c >> 6) & 0x3F));
	out[3] = (char)(0x80 | (c & 0x3F));
	return 4;
}

size_t etw_enc16(unsigned int c, char16_t *out)
{
	if (c < 0x10000) {
		out[0] = (char16_t)c;
		return 1;
	}
	c -= 0x10000;
	out[0] = (char16_t)(0xD800 + (c >> 10));
	out[1] = (char16_t)(0xDC00 + (c & 0x3FF));
	return 2;
}

int etw_obuf_put16(struct etw_obuf *o, const char16_t *s, size_t n)
{
	size_t i, used;

	if (o->wide) {
		if (obuf_reserve(o, n))
			return -1;
		memcpy((char16_t *)o->p + o->len, s, n * 2);
		o->len += n;
		return 0;
	}
	for (i = 0; i < n; i += used) {
		unsigned int c = etw_next16(s + i, n - i, &used);

		if (obuf_reserve(o, 4))
			return -1;
		o->len += etw_enc8(c, (char *)o->p + o->len);
	}
	return 0;
}

int etw_obuf_put8(struct etw_obuf *o, const char *s, size_t n)
{
	size_t i, used;

	if (!o->wide) {
		if (obuf_reserve(o, n))
			return -1;
		memcpy((char *)o->p + o->len, s, n);
		o->len += n;
		return 0;
	}
	for (i = 0; i < n; i += used) {
		unsigned int c = etw_next8((const unsigned char *)s + i, n - i, &used);

		if (obuf_reserve(o, 2))
			return -1;
		o->len += etw_enc16(c, (char16_t *)o->p + o->len);
	}
	return 0;
}

char *etw_u16_to_u8_dup(const char16_t *s, size_t n)
{
	struct etw_obuf o = { .wide = 0 };

	if (etw_obuf_put16(&o, s, n) || obuf_reserve(&o, 0)) {
		etw_obuf_free(&o);
		return NULL;
	}
	((char *)o.p)[o.len] = 0;
	return o.p;
}

char16_t *etw_u8_to_u16_dup(const char *s, size_t n, size_t *out_len)
{
	struct etw_obuf o = { .wide = 1 };

	if (etw_obuf_put8(&o, s, n) || obuf_reserve(&o, 0)) {
		etw_obuf_free(&o);
		return NULL;
	}
	((char16_t *)o.p)[o.len] = 0;
	if (out_len)
		*out_len = o.len;
	return o.p;
}
