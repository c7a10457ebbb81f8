// SPDX-License-Identifier: GPL-2.0
/*
 * Strings made valid UTF-8 for Perfetto's string fields (protobuf
 * rejects a packet with any other): names and values come from the
 * trace, which is untrusted.  A string that is valid is used as it is;
 * otherwise a copy with each invalid byte as U+FFFD, kept in the pool
 * until it is reset (once per packet).
 */
#include <string.h>

#include "export/utf8.h"

/* Length of the valid sequence at @s, or 0. */
static size_t valid_seq(const unsigned char *s)
{
	unsigned char c = s[0];
	size_t n;
	uint32_t cp;

	if (c < 0x80)
		return 1;
	if (c >= 0xc2 && c <= 0xdf)
		n = 2, cp = c & 0x1f;
	else if (c >= 0xe0 && c <= 0xef)
		n = 3, cp = c & 0x0f;
	else if (c >= 0xf0 && c <= 0xf4)
		n = 4, cp = c & 0x07;
	else
		return 0;
	for (size_t i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	if ((n == 3 && cp < 0x800) || (n == 4 && (cp < 0x10000 || cp > 0x10ffff)) ||
	    (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	return n;
}

static bool is_valid(const char *s)
{
	const unsigned char *p = (const unsigned char *)s;

	while (*p) {
		size_t n = valid_seq(p);

		if (!n)
			return false;
		p += n;
	}
	return true;
}

char *utf8_pool_str(struct utf8_pool *pool, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	struct sbuf *sb;

	if (!s || is_valid(s))
		return (char *)s;
	if (pool->used == pool->n) {
		pool->v = export_realloc(pool->v, (pool->n + 1) * sizeof(*pool->v));
		memset(&pool->v[pool->n++], 0, sizeof(*pool->v));
	}
	sb = &pool->v[pool->used++];
	sb_reset(sb);
	sb_put(sb, "", 0);
	while (*p) {
		size_t n = valid_seq(p);

		if (n) {
			sb_put(sb, (const char *)p, n);
			p += n;
		} else {
			sb_put(sb, "\xef\xbf\xbd", 3);
			p++;
		}
	}
	return sb->p;
}

void utf8_pool_reset(struct utf8_pool *pool)
{
	pool->used = 0;
}

void utf8_pool_free(struct utf8_pool *pool)
{
	for (size_t i = 0; i < pool->n; i++)
		sb_free(&pool->v[i]);
	free(pool->v);
	memset(pool, 0, sizeof(*pool));
}
