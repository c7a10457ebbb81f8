/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Test code, not the library: a greedy [MS-XCA] 2.3 Plain LZ77
 * compressor, and what turns an ETL image into the compressed form the
 * relogger writes (buffer 0 as it was, every other buffer's data
 * compressed, BufferSize its size in the file, BufferFlag COMPRESSED).
 * No Windows-written compressed file of useful size is public under a
 * licence the tree can keep, so the tests and the benchmark make their
 * compressed files with this from the samples.
 */
#ifndef XPRESS_ENCODER_H
#define XPRESS_ENCODER_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

struct xenc {
	uint8_t *out;
	size_t cap, pos;
	size_t flag_pos;		/* where the open flag word goes */
	uint32_t flags;
	unsigned int nflags;
	size_t half;			/* byte with a free high nibble; 0: none */
	int overflow;
};

static inline void xenc_byte(struct xenc *x, uint8_t b)
{
	if (x->pos < x->cap)
		x->out[x->pos] = b;
	else
		x->overflow = 1;
	x->pos++;
}

static inline void xenc_le(struct xenc *x, uint32_t v, int n)
{
	for (int i = 0; i < n; i++)
		xenc_byte(x, (uint8_t)(v >> (8 * i)));
}

static inline void xenc_put_flags(struct xenc *x, size_t at, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		if (at + i < x->cap)
			x->out[at + i] = (uint8_t)(v >> (8 * i));
}

static inline void xenc_flag(struct xenc *x, unsigned int bit)
{
	x->flags = x->flags << 1 | bit;
	if (++x->nflags == 32) {
		xenc_put_flags(x, x->flag_pos, x->flags);
		x->nflags = 0;
		x->flags = 0;
		x->flag_pos = x->pos;
		xenc_le(x, 0, 4);
	}
}

/* A match of len bytes (>= 3) off bytes back (1..8192), every tier. */
static inline void xenc_match(struct xenc *x, size_t off, size_t len)
{
	size_t l = len - 3;

	xenc_le(x, (uint32_t)((off - 1) << 3 | (l < 7 ? l : 7)), 2);
	if (l >= 7) {
		l -= 7;
		if (!x->half) {
			x->half = x->pos;
			xenc_byte(x, (uint8_t)(l < 15 ? l : 15));
		} else {
			if (x->half < x->cap)
				x->out[x->half] |= (uint8_t)((l < 15 ? l : 15) << 4);
			x->half = 0;
		}
		if (l >= 15) {
			l -= 15;
			if (l < 255) {
				xenc_byte(x, (uint8_t)l);
			} else {
				xenc_byte(x, 255);
				if (len - 3 <= 0xffff) {
					xenc_le(x, (uint32_t)(len - 3), 2);
				} else {
					xenc_le(x, 0, 2);
					xenc_le(x, (uint32_t)(len - 3), 4);
				}
			}
		}
	}
	xenc_flag(x, 1);
}

#define XENC_HASH_BITS	15

/*
 * Compress n bytes at in into out (cap bytes); the compressed size, or
 * 0 if it does not fit.  Greedy: at each position the longest match
 * with the last position of the same 3-byte hash, else a literal.
 */
static inline size_t xpress_encode(const uint8_t *in, size_t n, uint8_t *out,
				   size_t cap)
{
	uint32_t *head = calloc(1u << XENC_HASH_BITS, sizeof(*head));
	struct xenc x = { .out = out, .cap = cap };
	size_t i = 0;

	if (!head)
		return 0;
	xenc_le(&x, 0, 4);
	while (i < n) {
		size_t best = 0, off = 0;

		if (i + 3 <= n) {
			uint32_t h = ((uint32_t)in[i] | in[i + 1] << 8 | in[i + 2] << 16) *
				     2654435761u >> (32 - XENC_HASH_BITS);
			size_t cand = head[h];

			head[h] = (uint32_t)i + 1;
			if (cand-- && i - cand <= 8192) {
				while (i + best < n && in[cand + best] == in[i + best])
					best++;
				off = i - cand;
			}
		}
		if (best >= 3) {
			xenc_match(&x, off, best);
			i += best;
		} else {
			xenc_byte(&x, in[i++]);
			xenc_flag(&x, 0);
		}
	}
	/* The rest of the last flag word is 1s: the end. */
	x.flags = x.nflags ? x.flags << (32 - x.nflags) |
			     ((1u << (32 - x.nflags)) - 1) : 0xffffffffu;
	xenc_put_flags(&x, x.flag_pos, x.flags);
	free(head);
	return x.overflow ? 0 : x.pos;
}

static inline uint32_t xenc_get32(const uint8_t *p)
{
	return (uint32_t)p[0] | p[1] << 8 | p[2] << 16 | (uint32_t)p[3] << 24;
}

/*
 * The relogger's form of the ETL image at in: a new malloc()ed image in
 * *out (its size returned; 0 on failure).  Buffer 0 stays as it is (with
 * mark, EVENT_TRACE_COMPRESSED_MODE in LogFileMode and XPRESS (3) in its
 * State, as the relogger writes; without, the header event's bytes stay
 * the original's); every other buffer with data is compressed.  The image
 * must be one the reader opens (its buffer headers are trusted here).
 */
static inline size_t etl_compress_image(const uint8_t *in, size_t n,
					uint8_t **out, int mark)
{
	uint8_t *o = malloc(n + n / 8 + 4096);
	size_t off = 0, len = 0, cap = n + n / 8 + 4096;

	*out = NULL;
	if (!o)
		return 0;
	while (off + 0x48 <= n) {
		uint32_t size = xenc_get32(in + off), saved = xenc_get32(in + off + 4);
		uint16_t flag = in[off + 0x34] | in[off + 0x35] << 8;
		size_t c;

		if (size < 0x48 || size > n - off || saved < 0x48 || saved > size)
			break;
		if (!off || saved == 0x48) {
			memcpy(o + len, in + off, size);
			if (!off && mark) {
				/* COMPRESSED_MODE; XPRESS in buffer 0's State. */
				o[0x48 + 0x20 + 0x23] |= 0x04;
				o[0x2c] = 3;
				o[0x2d] = 0;
			}
			len += size;
			off += size;
			continue;
		}
		memcpy(o + len, in + off, 0x48);
		c = xpress_encode(in + off + 0x48, saved - 0x48, o + len + 0x48,
				  cap - len - 0x48);
		if (!c) {
			free(o);
			return 0;
		}
		flag |= 0x40;
		o[len + 0x34] = (uint8_t)flag;
		o[len + 0x35] = (uint8_t)(flag >> 8);
		o[len + 0] = (uint8_t)(0x48 + c);
		o[len + 1] = (uint8_t)((0x48 + c) >> 8);
		o[len + 2] = (uint8_t)((0x48 + c) >> 16);
		o[len + 3] = (uint8_t)((0x48 + c) >> 24);
		len += 0x48 + c;
		off += size;
	}
	*out = o;
	return len;
}

#endif /* XPRESS_ENCODER_H */
