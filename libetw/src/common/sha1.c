// SPDX-License-Identifier: MIT
/*
 * SHA-1 as FIPS 180-4 defines it: 64-byte blocks, 80 rounds, big-endian
 * words, the length in bits at the end of the padding.
 */
#include <string.h>

#include "sha1.h"

static uint32_t rol(uint32_t x, unsigned int n)
{
	return x << n | x >> (32 - n);
}

static void sha1_block(struct etw_sha1 *s, const uint8_t *p)
{
	uint32_t w[80], a, b, c, d, e, f, k, t;
	int i;

	for (i = 0; i < 16; i++)
		w[i] = (uint32_t)p[4 * i] << 24 | (uint32_t)p[4 * i + 1] << 16 |
		       (uint32_t)p[4 * i + 2] << 8 | p[4 * i + 3];
	for (; i < 80; i++)
		w[i] = rol(w[i - 3] ^ w[i - 8] ^ w[i - 14] ^ w[i - 16], 1);
	a = s->h[0], b = s->h[1], c = s->h[2], d = s->h[3], e = s->h[4];
	for (i = 0; i < 80; i++) {
		if (i < 20) {
			f = (b & c) | (~b & d);
			k = 0x5a827999;
		} else if (i < 40) {
			f = b ^ c ^ d;
			k = 0x6ed9eba1;
		} else if (i < 60) {
			f = (b & c) | (b & d) | (c & d);
			k = 0x8f1bbcdc;
		} else {
			f = b ^ c ^ d;
			k = 0xca62c1d6;
		}
		t = rol(a, 5) + f + e + k + w[i];
		e = d;
		d = c;
		c = rol(b, 30);
		b = a;
		a = t;
	}
	s->h[0] += a, s->h[1] += b, s->h[2] += c, s->h[3] += d, s->h[4] += e;
}

void etw_sha1_init(struct etw_sha1 *s)
{
	static const uint32_t iv[5] = {
		0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476, 0xc3d2e1f0,
	};

	memcpy(s->h, iv, sizeof(iv));
	s->length = 0;
	s->used = 0;
}

void etw_sha1_update(struct etw_sha1 *s, const void *data, size_t len)
{
	const uint8_t *p = data;

	s->length += len;
	while (len) {
		size_t n = sizeof(s->block) - s->used;

		if (n > len)
			n = len;
		memcpy(s->block + s->used, p, n);
		s->used += n;
		p += n;
		len -= n;
		if (s->used == sizeof(s->block)) {
			sha1_block(s, s->block);
			s->used = 0;
		}
	}
}

void etw_sha1_final(struct etw_sha1 *s, uint8_t digest[ETW_SHA1_SIZE])
{
	uint64_t bits = s->length * 8;
	uint8_t pad[72] = { 0x80 };
	size_t padlen = (s->used < 56 ? 56 : 120) - s->used;
	int i;

	for (i = 0; i < 8; i++)
		pad[padlen + i] = (uint8_t)(bits >> (56 - 8 * i));
	etw_sha1_update(s, pad, padlen + 8);
	for (i = 0; i < 20; i++)
		digest[i] = (uint8_t)(s->h[i / 4] >> (24 - 8 * (i % 4)));
}
