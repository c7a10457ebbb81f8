// SPDX-License-Identifier: GPL-2.0
/*
 * The [MS-XCA] Plain LZ77 decoder against streams written by hand from
 * the specification (2.3, 2.4): each byte below is worked out in its
 * comment.  Flag words are little-endian u32s read from the most
 * significant bit: 0 = literal, 1 = match; a match word is
 * (offset - 1) << 3 | (length - 3), 7 in the low bits meaning "more
 * length follows" (a half byte, then a byte, then a u16, then a u32).
 * Then round trips through the test compressor (xpress_encoder.h).
 */
#include <string.h>

#include "kselftest_harness.h"
#include "../src/etl/xpress.h"
#include "xpress_encoder.h"

#define GUARD	16

/*
 * Decompress into an area of cap bytes followed by GUARD canary bytes:
 * returns the result; the canaries must be intact whatever it is.
 */
static ptrdiff_t run(struct __test_metadata *_metadata, const uint8_t *in,
		     size_t n, uint8_t *out, size_t cap,
		     struct etl_xpress_error *e)
{
	ptrdiff_t r;

	memset(out, 0xcd, cap + GUARD);
	r = etl_xpress_decompress(in, n, out, cap, e);
	for (size_t i = 0; i < GUARD; i++)
		EXPECT_EQ(0xcd, out[cap + i]);
	return r;
}

/* Expect the stream to give exactly want (len bytes). */
static void expect_out(struct __test_metadata *_metadata, const uint8_t *in,
		       size_t n, const uint8_t *want, size_t len)
{
	static uint8_t out[300000 + GUARD];
	struct etl_xpress_error e = { 0 };
	ptrdiff_t r = run(_metadata, in, n, out, sizeof(out) - GUARD, &e);

	ASSERT_EQ((ptrdiff_t)len, r) TH_LOG("%s at %zu", e.why ? e.why : "", e.in_pos);
	EXPECT_EQ(0, memcmp(out, want, len));
}

/* Expect an error whose reason contains why, found at input byte at. */
static void expect_fail(struct __test_metadata *_metadata, const uint8_t *in,
			size_t n, size_t cap, const char *why, size_t at)
{
	static uint8_t out[300000 + GUARD];
	struct etl_xpress_error e = { 0 };

	ASSERT_EQ(-1, run(_metadata, in, n, out, cap, &e));
	ASSERT_NE(NULL, e.why);
	EXPECT_NE(NULL, strstr(e.why, why)) TH_LOG("%s", e.why);
	EXPECT_EQ(at, e.in_pos);
}

/* A stream of one literal 'x' then one match of offset 1 (a run of 'x'). */
static void expect_run(struct __test_metadata *_metadata, const uint8_t *in,
		       size_t n, size_t len)
{
	static uint8_t want[300000];

	memset(want, 'x', 1 + len);
	expect_out(_metadata, in, n, want, 1 + len);
}

TEST(literals_only)
{
	/* Flags 0,0,0 then 1s: 0x1fffffff; "abc"; the end. */
	static const uint8_t in[] = { 0xff, 0xff, 0xff, 0x1f, 'a', 'b', 'c' };

	expect_out(_metadata, in, sizeof(in), (const uint8_t *)"abc", 3);
}

TEST(empty)
{
	/* A match flag first, with no input left: nothing. */
	static const uint8_t in[] = { 0xff, 0xff, 0xff, 0xff };

	expect_out(_metadata, in, sizeof(in), NULL, 0);
}

TEST(match)
{
	/*
	 * "abcdXabcd": 5 literals, then offset 5 length 4:
	 * (5 - 1) << 3 | (4 - 3) = 0x21.  Flags 00000 1 then 1s: 0x07ffffff.
	 */
	static const uint8_t in[] = { 0xff, 0xff, 0xff, 0x07, 'a', 'b', 'c', 'd',
				      'X', 0x21, 0x00 };

	expect_out(_metadata, in, sizeof(in), (const uint8_t *)"abcdXabcd", 9);
}

TEST(overlapping_matches)
{
	/*
	 * "abcabcabca": "abc", offset 3 length 7 (the match reads what it
	 * writes): 2 << 3 | 4 = 0x14.  Then "QQQQQQ" as "Q" and offset 1
	 * length 5: 0 << 3 | 2 = 0x02.
	 * Flags 000 1 0 1 then 1s: 0x17ffffff... bit 31..26 = 0,0,0,1,0,1.
	 */
	static const uint8_t in[] = { 0xff, 0xff, 0xff, 0x17, 'a', 'b', 'c', 0x14,
				      0x00, 'Q', 0x02, 0x00 };

	expect_out(_metadata, in, sizeof(in),
		   (const uint8_t *)"abcabcabcaQQQQQQ", 16);
}

TEST(far_match)
{
	/* The largest offset, 8192: (8191 << 3) | 0 = 0xfff8, length 3. */
	static uint8_t in[4 * 256 + 8192 + 4 + 2];
	static uint8_t want[8192 + 3];
	size_t n = 0;

	/* 8192 literals need 256 flag words of zeros, then one with 1s. */
	for (size_t i = 0; i < 8192; i++) {
		if (i % 32 == 0) {
			memset(in + n, 0, 4);
			n += 4;
		}
		in[n++] = want[i] = (uint8_t)(i * 7 + i / 256);
	}
	memset(in + n, 0xff, 4);
	n += 4;
	in[n++] = 0xf8;
	in[n++] = 0xff;
	memcpy(want + 8192, want, 3);
	expect_out(_metadata, in, n, want, sizeof(want));
}

/* 3 bits: lengths 3..9 (low bits 0..6). */
TEST(length_3bit)
{
	/* 'x', offset 1 length 9: 0 << 3 | 6 = 0x06.  Flags 0 1 1s: 0x7fffffff. */
	static const uint8_t in[] = { 0xff, 0xff, 0xff, 0x7f, 'x', 0x06, 0x00 };

	expect_run(_metadata, in, sizeof(in), 9);
}

/* 4 bits: lengths 10..24 (low bits 7, half byte 0..14). */
TEST(length_4bit)
{
	static const uint8_t in10[] = { 0xff, 0xff, 0xff, 0x7f, 'x', 0x07, 0x00, 0x00 };
	static const uint8_t in24[] = { 0xff, 0xff, 0xff, 0x7f, 'x', 0x07, 0x00, 0x0e };

	expect_run(_metadata, in10, sizeof(in10), 10);
	expect_run(_metadata, in24, sizeof(in24), 24);
}

TEST(length_half_bytes_shared)
{
	/*
	 * Two long matches share one byte: the first takes its low half
	 * (10 - 10 = 0), the second its high half (15 - 10 = 5): 0x50.
	 * 'x', match, match: flags 0 1 1 then 1s: 0x7fffffff.
	 */
	static const uint8_t in[] = { 0xff, 0xff, 0xff, 0x7f, 'x', 0x07, 0x00, 0x50,
				      0x07, 0x00 };

	expect_run(_metadata, in, sizeof(in), 10 + 15);
}

TEST(length_half_byte_then_byte)
{
	/*
	 * A third long match opens a new half byte after the shared one:
	 * 10 (low 0), 11 (high 1) = 0x10; then 30 = 3 + 7 + 15 + 5: low
	 * half 15 in a new byte, then the byte 5.
	 */
	static const uint8_t in[] = { 0xff, 0xff, 0xff, 0x7f, 'x', 0x07, 0x00, 0x10,
				      0x07, 0x00, 0x07, 0x00, 0x0f, 0x05 };

	expect_run(_metadata, in, sizeof(in), 10 + 11 + 30);
}

/* 8 bits: lengths 25..279 (half byte 15, byte 0..254). */
TEST(length_8bit)
{
	static const uint8_t in25[] = { 0xff, 0xff, 0xff, 0x7f, 'x', 0x07, 0x00, 0x0f, 0x00 };
	static const uint8_t in279[] = { 0xff, 0xff, 0xff, 0x7f, 'x', 0x07, 0x00, 0x0f, 0xfe };

	expect_run(_metadata, in25, sizeof(in25), 25);
	expect_run(_metadata, in279, sizeof(in279), 279);
}

/* 16 bits: lengths 280..65538 (byte 255, u16 = length - 3). */
TEST(length_16bit)
{
	/* 280 - 3 = 277 = 0x0115; 65538 - 3 = 0xffff. */
	static const uint8_t in280[] = { 0xff, 0xff, 0xff, 0x7f, 'x', 0x07, 0x00, 0x0f,
					 0xff, 0x15, 0x01 };
	static const uint8_t in65538[] = { 0xff, 0xff, 0xff, 0x7f, 'x', 0x07, 0x00, 0x0f,
					   0xff, 0xff, 0xff };

	expect_run(_metadata, in280, sizeof(in280), 280);
	expect_run(_metadata, in65538, sizeof(in65538), 65538);
}

/* 32 bits: from 65539 (u16 0, u32 = length - 3). */
TEST(length_32bit)
{
	/* 65539 - 3 = 0x00010000; 262147 - 3 = 0x00040000. */
	static const uint8_t in65539[] = { 0xff, 0xff, 0xff, 0x7f, 'x', 0x07, 0x00, 0x0f,
					   0xff, 0x00, 0x00, 0x00, 0x00, 0x01, 0x00 };
	static const uint8_t in262147[] = { 0xff, 0xff, 0xff, 0x7f, 'x', 0x07, 0x00, 0x0f,
					    0xff, 0x00, 0x00, 0x00, 0x00, 0x04, 0x00 };

	expect_run(_metadata, in65539, sizeof(in65539), 65539);
	expect_run(_metadata, in262147, sizeof(in262147), 262147);
}

TEST(length_below_its_encoding)
{
	/* u16 21: less than the 22 the half byte and byte already imply. */
	static const uint8_t in[] = { 0xff, 0xff, 0xff, 0x7f, 'x', 0x07, 0x00, 0x0f,
				      0xff, 0x15, 0x00 };
	static const uint8_t in32[] = { 0xff, 0xff, 0xff, 0x7f, 'x', 0x07, 0x00, 0x0f,
					0xff, 0x00, 0x00, 0x15, 0x00, 0x00, 0x00 };

	expect_fail(_metadata, in, sizeof(in), 1000, "below the 22", 5);
	expect_fail(_metadata, in32, sizeof(in32), 1000, "below the 22", 5);
}

TEST(flag_word_across_the_end)
{
	/*
	 * 32 literals fill the first flag word (0); the end is the first
	 * bit of the next (0xffffffff).  33 literals: the second word
	 * starts 0 then 1s (0x7fffffff).  31 literals and a match in the
	 * last bit of the first word (0x00000001): offset 31 length 3,
	 * (31 - 1) << 3 = 0xf0; then a word of 1s.
	 */
	static uint8_t in32[4 + 32 + 4], in33[4 + 32 + 4 + 1], inm[4 + 31 + 2 + 4];
	static uint8_t want[64], wantm[34];

	for (int i = 0; i < 64; i++)
		want[i] = (uint8_t)('A' + i % 26);
	memcpy(in32 + 4, want, 32);
	memset(in32 + 36, 0xff, 4);
	expect_out(_metadata, in32, sizeof(in32), want, 32);

	memcpy(in33 + 4, want, 32);
	memcpy(in33 + 36, "\xff\xff\xff\x7f", 4);
	in33[40] = want[32];
	expect_out(_metadata, in33, sizeof(in33), want, 33);

	memcpy(inm, "\x01\x00\x00\x00", 4);
	memcpy(inm + 4, want, 31);
	inm[35] = 0xf0;
	inm[36] = 0x00;
	memset(inm + 37, 0xff, 4);
	memcpy(wantm, want, 31);
	memcpy(wantm + 31, want, 3);
	expect_out(_metadata, inm, sizeof(inm), wantm, sizeof(wantm));

	/* Without the last word, or with part of it: truncated. */
	expect_fail(_metadata, in32, 36, 1000, "inside a flag word", 36);
	expect_fail(_metadata, inm, 37, 1000, "inside a flag word", 37);
	expect_fail(_metadata, inm, 39, 1000, "inside a flag word", 37);
}

TEST(truncated)
{
	static const uint8_t lit[] = { 0xff, 0xff, 0xff, 0x1f, 'a', 'b', 'c' };
	static const uint8_t m8[] = { 0xff, 0xff, 0xff, 0x7f, 'x', 0x07, 0x00, 0x0f,
				      0xff, 0x00, 0x00, 0x00, 0x00, 0x01, 0x00 };

	expect_fail(_metadata, lit, 0, 100, "inside a flag word", 0);
	expect_fail(_metadata, lit, 3, 100, "inside a flag word", 0);
	expect_fail(_metadata, lit, 6, 100, "inside a run of literals", 6);
	/* Each cut inside the match and its lengths. */
	expect_fail(_metadata, m8, 6, 100000, "inside a match", 5);
	expect_fail(_metadata, m8, 7, 100000, "inside a match length", 5);
	expect_fail(_metadata, m8, 8, 100000, "inside a match length", 5);
	expect_fail(_metadata, m8, 10, 100000, "inside a match length", 5);
	expect_fail(_metadata, m8, 14, 100000, "inside a match length", 5);
}

TEST(offset_before_start)
{
	/* A match first: nothing to refer to. */
	static const uint8_t first[] = { 0xff, 0xff, 0xff, 0xff, 0x00, 0x00 };
	/* "ab", then offset 3: one before the start. */
	static const uint8_t past[] = { 0xff, 0xff, 0xff, 0x3f, 'a', 'b', 0x10, 0x00 };
	/* offset 2 is fine: "abab" + ... */
	static const uint8_t ok[] = { 0xff, 0xff, 0xff, 0x3f, 'a', 'b', 0x08, 0x00 };

	expect_fail(_metadata, first, sizeof(first), 100, "before the start", 4);
	expect_fail(_metadata, past, sizeof(past), 100, "before the start", 6);
	expect_out(_metadata, ok, sizeof(ok), (const uint8_t *)"ababa", 5);
}

TEST(output_bounded)
{
	/* 'x' + 65539: the output area holds less; nothing is written past it. */
	static const uint8_t in[] = { 0xff, 0xff, 0xff, 0x7f, 'x', 0x07, 0x00, 0x0f,
				      0xff, 0x00, 0x00, 0x00, 0x00, 0x01, 0x00 };
	static const uint8_t lit[] = { 0xff, 0xff, 0xff, 0x1f, 'a', 'b', 'c' };

	expect_fail(_metadata, in, sizeof(in), 65539, "more than the buffer holds", 5);
	expect_fail(_metadata, in, sizeof(in), 0, "more than the buffer holds", 4);
	expect_fail(_metadata, lit, sizeof(lit), 2, "more than the buffer holds", 4);
	expect_run(_metadata, in, sizeof(in), 65539);
}

/* The test compressor and the decoder agree, on every kind of input. */
TEST(round_trip)
{
	static uint8_t src[200000], comp[240000], out[200000 + GUARD];
	struct etl_xpress_error e;
	uint32_t s = 1;

	for (int kind = 0; kind < 5; kind++) {
		size_t n = kind == 4 ? 100 : sizeof(src), c;

		for (size_t i = 0; i < n; i++) {
			s = s * 1103515245 + 12345;
			switch (kind) {
			case 0: src[i] = (uint8_t)(s >> 16); break;	/* noise */
			case 1: src[i] = 0; break;			/* one run */
			case 2: src[i] = (uint8_t)"ETW records "[i % 12]; break;
			case 3: src[i] = (s >> 16) % 16 ? src[i ? i - 1 : 0] : (uint8_t)(s >> 24); break;
			case 4: src[i] = (uint8_t)i; break;
			}
		}
		c = xpress_encode(src, n, comp, sizeof(comp));
		ASSERT_NE(0, c);
		ASSERT_EQ((ptrdiff_t)n, run(_metadata, comp, c, out, n, &e))
			TH_LOG("kind %d: %s at %zu", kind, e.why, e.in_pos);
		EXPECT_EQ(0, memcmp(src, out, n));
		/* Every truncation fails cleanly, or gives a prefix. */
		for (size_t cut = 0; cut < c; cut += 1 + c / 200) {
			ptrdiff_t r = run(_metadata, comp, cut, out, n, &e);

			EXPECT_TRUE(r < 0 || (size_t)r < n);
			if (r >= 0)
				EXPECT_EQ(0, memcmp(src, out, r));
		}
	}
}

TEST_HARNESS_MAIN
