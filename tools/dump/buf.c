// SPDX-License-Identifier: GPL-2.0
/*
 * etw dump: growable strings and key/value lists.  Out of memory ends the
 * program: a dump tool has nothing better to do.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "dump/dump.h"
#include "line.h"
#include "etw.h"

static void *xrealloc(void *p, size_t n)
{
	p = realloc(p, n ? n : 1);
	if (!p) {
		etw_error("dump: out of memory");
		exit(1);
	}
	return p;
}

static void sb_grow(struct sbuf *sb, size_t more)
{
	size_t cap = sb->cap ? sb->cap : 256;

	if (sb->len + more + 1 <= sb->cap)
		return;
	while (cap < sb->len + more + 1)
		cap *= 2;
	sb->p = xrealloc(sb->p, cap);
	sb->cap = cap;
}

void sb_reserve(struct sbuf *sb, size_t more)
{
	sb_grow(sb, more);
}

void sb_reset(struct sbuf *sb)
{
	sb->len = 0;
	if (sb->p)
		sb->p[0] = '\0';
}

void sb_free(struct sbuf *sb)
{
	free(sb->p);
	memset(sb, 0, sizeof(*sb));
}

void sb_put(struct sbuf *sb, const char *s, size_t n)
{
	sb_grow(sb, n);
	memcpy(sb->p + sb->len, s, n);
	sb->len += n;
	sb->p[sb->len] = '\0';
}

void sb_putc(struct sbuf *sb, char c)
{
	sb_put(sb, &c, 1);
}

void sb_printf(struct sbuf *sb, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	sb_grow(sb, n);
	va_start(ap, fmt);
	vsnprintf(sb->p + sb->len, n + 1, fmt, ap);
	va_end(ap);
	sb->len += n;
}

void sb_hex(struct sbuf *sb, const void *data, size_t n)
{
	static const char digits[] = "0123456789abcdef";
	const unsigned char *p = data;
	char *q;

	sb_grow(sb, 2 * n);
	/* Through a local pointer: a store through sb->p may alias sb->len. */
	q = sb->p + sb->len;
	for (size_t i = 0; i < n; i++) {
		*q++ = digits[p[i] >> 4];
		*q++ = digits[p[i] & 15];
	}
	*q = '\0';
	sb->len += 2 * n;
}

/*
 * @prefix, @data in hex and @suffix to @out in one write, built in the
 * scratch @sb: a payload's hex digits need no escaping in any format.
 */
void sb_write_hex(struct sbuf *sb, FILE *out, const char *prefix,
		  const void *data, size_t n, const char *suffix)
{
	sb_reset(sb);
	sb_put(sb, prefix, strlen(prefix));
	sb_hex(sb, data, n);
	sb_put(sb, suffix, strlen(suffix));
	fwrite(sb->p, 1, sb->len, out);
}

void kv_reset(struct kv_list *l)
{
	l->n = 0;
	sb_reset(&l->text);
}

void kv_free(struct kv_list *l)
{
	free(l->v);
	free(l->offs);
	sb_free(&l->text);
	memset(l, 0, sizeof(*l));
}

void kv_add(struct kv_list *l, const char *key, const char *label,
	    bool number, const char *fmt, ...)
{
	size_t room;
	va_list ap;
	int n;

	if (l->n == l->cap) {
		l->cap = l->cap ? 2 * l->cap : 16;
		l->v = xrealloc(l->v, l->cap * sizeof(*l->v));
		l->offs = xrealloc(l->offs, 2 * l->cap * sizeof(*l->offs));
	}
	l->v[l->n] = (struct dump_kv){ .label = label, .number = number };
	l->offs[2 * l->n] = l->text.len;
	sb_put(&l->text, key, strlen(key) + 1);
	l->offs[2 * l->n + 1] = l->text.len;
	sb_grow(&l->text, 64);
	/*
	 * The formats of nearly every field of a record, by hand: vsnprintf()
	 * costs hundreds of instructions a field, 25 fields a record.
	 */
	if (!strcmp(fmt, "%u") || !strcmp(fmt, "%" PRIu64) ||
	    !strcmp(fmt, "%s")) {
		char d[24], *p = d + sizeof(d);
		uint64_t v;

		va_start(ap, fmt);
		if (fmt[1] == 's') {
			const char *str = va_arg(ap, const char *);

			va_end(ap);
			sb_put(&l->text, str, strlen(str) + 1);
			l->n++;
			return;
		}
		v = fmt[1] == 'u' ? va_arg(ap, unsigned int) : va_arg(ap, uint64_t);
		va_end(ap);
		*--p = '\0';
		p = dec_u64(p, v);
		sb_put(&l->text, p, (size_t)(d + sizeof(d) - p));
		l->n++;
		return;
	}
	/* Flags and keywords: "0x%04x", "0x%016" PRIx64. */
	if (!strcmp(fmt, "0x%04x") || !strcmp(fmt, "0x%016" PRIx64)) {
		char d[24], *p = d + sizeof(d);
		uint64_t v;
		int width = fmt[4] == '4' ? 4 : 16;

		va_start(ap, fmt);
		v = width == 4 ? va_arg(ap, unsigned int) : va_arg(ap, uint64_t);
		va_end(ap);
		*--p = '\0';
		p = hex_u64(p, v, width);
		*--p = 'x';
		*--p = '0';
		sb_put(&l->text, p, (size_t)(d + sizeof(d) - p));
		l->n++;
		return;
	}
	/* One formatting pass when it fits, which is nearly always. */
	room = l->text.cap - l->text.len;
	va_start(ap, fmt);
	n = vsnprintf(l->text.p + l->text.len, room, fmt, ap);
	va_end(ap);
	if (n < 0)
		n = 0;
	if ((size_t)n >= room) {
		sb_grow(&l->text, n);
		va_start(ap, fmt);
		vsnprintf(l->text.p + l->text.len, n + 1, fmt, ap);
		va_end(ap);
	}
	l->text.len += n + 1;
	l->n++;
}

void kv_finish(struct kv_list *l)
{
	for (size_t i = 0; i < l->n; i++) {
		l->v[i].key = l->text.p + l->offs[2 * i];
		l->v[i].value = l->text.p + l->offs[2 * i + 1];
	}
}
