// SPDX-License-Identifier: MIT
/*
 * [MS-XCA] 2.4, the Plain LZ77 decompression algorithm, written here by
 * hand: no Debian library decodes this format (liblzma, zlib, zstd, lz4
 * and libarchive do not, and no packaged library implements [MS-XCA]).
 *
 * The stream is a 32-bit flag word (most significant bit first: 0 = a
 * literal byte, 1 = a match), then the items those bits describe, then
 * the next flag word.  A match is a u16: offset - 1 in its top 13 bits,
 * length - 3 in its low 3; a length of 7 continues in a half byte (two
 * matches share one byte, low nibble first), 15 there continues in a byte,
 * 255 there in a u16 and a zero u16 in a u32.  The stream ends at a match
 * flag with no input left (the compressor pads the last flag word with 1s).
 *
 * Speed: runs of literals are found from the flag word's leading zeros
 * and copied at once; matches copy 16 bytes at a time when they neither
 * overlap within 16 bytes nor come near the end of the output.
 */
#include <string.h>

#include "xpress.h"

static inline uint32_t get16(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8;
}

static inline uint32_t get32(const uint8_t *p)
{
	return get16(p) | get16(p + 2) << 16;
}

static ptrdiff_t fail(struct etl_xpress_error *e, const char *why,
		      const uint8_t *in, const uint8_t *ip,
		      const uint8_t *out, const uint8_t *op)
{
	e->why = why;
	e->in_pos = (size_t)(ip - in);
	e->out_pos = (size_t)(op - out);
	return -1;
}

/* The length beyond the 3 bits of the match word; 0 on a bad stream. */
static inline size_t long_length(const uint8_t **ipp, const uint8_t *iend,
				 const uint8_t **half, const char **why)
{
	const uint8_t *ip = *ipp;
	size_t len;

	if (!*half) {
		if (ip == iend)
			goto truncated;
		len = *ip & 15;
		*half = ip++;
	} else {
		len = **half >> 4;
		*half = NULL;
	}
	if (len == 15) {
		if (ip == iend)
			goto truncated;
		len = *ip++;
		if (len == 255) {
			if (iend - ip < 2)
				goto truncated;
			len = get16(ip);
			ip += 2;
			if (len == 0) {
				if (iend - ip < 4)
					goto truncated;
				len = get32(ip);
				ip += 4;
			}
			if (len < 15 + 7) {
				*ipp = ip;
				*why = "a match length below the 22 its encoding implies";
				return 0;
			}
			len -= 15 + 7;
		}
		len += 15;
	}
	*ipp = ip;
	return len + 7;
truncated:
	*ipp = ip;
	*why = "the data ends inside a match length";
	return 0;
}

static inline void copy_match(uint8_t *op, size_t off, size_t len,
			      const uint8_t *oend)
{
	const uint8_t *src = op - off;

	if (off >= 16 && (size_t)(oend - op) >= len + 16) {
		/* Whole 16-byte blocks: may write past len, never past oend. */
		for (size_t i = 0; i < len; i += 16)
			memcpy(op + i, src + i, 16);
	} else if (off == 1) {
		memset(op, *src, len);
	} else if (off >= len) {
		memcpy(op, src, len);
	} else {
		/* Overlapping: each byte may be one this match wrote. */
		for (size_t i = 0; i < len; i++)
			op[i] = src[i];
	}
}

ptrdiff_t etl_xpress_decompress(const uint8_t *in, size_t n, uint8_t *out,
				size_t cap, struct etl_xpress_error *e)
{
	const uint8_t *ip = in, *iend = in + n, *half = NULL, *item;
	uint8_t *op = out;
	const uint8_t *oend = out + cap;
	uint32_t flags = 0;		/* unread bits, most significant first */
	unsigned int nflags = 0;	/* how many */

	for (;;) {
		unsigned int run;
		size_t len, off;
		uint32_t word;

		if (!nflags) {
			if (iend - ip < 4)
				return fail(e, "the data ends inside a flag word",
					    in, ip, out, op);
			flags = get32(ip);
			ip += 4;
			nflags = 32;
		}
		/* The literals before the next match flag, all at once. */
		run = flags ? (unsigned int)__builtin_clz(flags) : 32;
		if (run > nflags)
			run = nflags;
		if (run) {
			if ((size_t)(iend - ip) < run)
				return fail(e, "the data ends inside a run of literals",
					    in, iend, out, op);
			if ((size_t)(oend - op) < run)
				return fail(e, "the data decompresses to more than the buffer holds",
					    in, ip, out, op);
			memcpy(op, ip, run);
			ip += run;
			op += run;
			flags = run < 32 ? flags << run : 0;
			nflags -= run;
			if (!nflags)
				continue;
		}
		/* A match flag. */
		flags <<= 1;
		nflags--;
		if (ip == iend)
			return op - out;		/* the end */
		item = ip;
		if (iend - ip < 2)
			return fail(e, "the data ends inside a match", in, ip, out, op);
		word = get16(ip);
		ip += 2;
		off = (word >> 3) + 1;
		len = word & 7;
		if (len == 7) {
			const char *why = NULL;

			len = long_length(&ip, iend, &half, &why);
			if (!len)
				return fail(e, why, in, item, out, op);
		}
		len += 3;
		if (off > (size_t)(op - out))
			return fail(e, "a match refers to before the start of the data",
				    in, item, out, op);
		if (len > (size_t)(oend - op))
			return fail(e, "the data decompresses to more than the buffer holds",
				    in, item, out, op);
		copy_match(op, off, len, oend);
		op += len;
	}
}
