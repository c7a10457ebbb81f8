// SPDX-License-Identifier: GPL-2.0
/*
 * libetw's UTF-16 <-> UTF-8 converter (libetw/src/common/utf.c): the encoding
 * boundaries, surrogate pairs, every way UTF-8 can be invalid, buffer
 * sizes, and every code point against glibc's iconv.
 */
#include <errno.h>
#include <iconv.h>
#include <stdlib.h>
#include <string.h>

#include "../src/common/utf.h"

#include "kselftest_harness.h"

/* UTF-16 of @s (units, NUL-terminated) to UTF-8; compare with @want. */
static int u16_to_u8_is(const char16_t *s, const char *want)
{
	char out[64];
	size_t len = 0;
	ssize_t n;

	while (s[len])
		len++;
	n = etw_utf16_to_utf8(s, len, out, sizeof(out));
	if (n < 0 || (size_t)n != strlen(want) || strcmp(out, want))
		return 0;
	/* The length-only form agrees. */
	return etw_utf16_to_utf8(s, len, NULL, 0) == n;
}

static int u8_to_u16_is(const char *s, const char16_t *want)
{
	char16_t out[64];
	size_t wlen = 0;
	ssize_t n;

	while (want[wlen])
		wlen++;
	n = etw_utf8_to_utf16(s, strlen(s), out, 64);
	if (n < 0 || (size_t)n != wlen || memcmp(out, want, (wlen + 1) * 2))
		return 0;
	return etw_utf8_to_utf16(s, strlen(s), NULL, 0) == n;
}

TEST(encoding_boundaries)
{
	EXPECT_TRUE(u16_to_u8_is(u"", ""));
	EXPECT_TRUE(u16_to_u8_is(u"etwtest", "etwtest"));
	EXPECT_TRUE(u16_to_u8_is(u"\x7f", "\x7f"));
	EXPECT_TRUE(u16_to_u8_is(u"\x80", "\xc2\x80"));
	EXPECT_TRUE(u16_to_u8_is(u"\u00e9", "\xc3\xa9"));
	EXPECT_TRUE(u16_to_u8_is(u"\u07ff", "\xdf\xbf"));
	EXPECT_TRUE(u16_to_u8_is(u"\u0800", "\xe0\xa0\x80"));
	EXPECT_TRUE(u16_to_u8_is(u"\u20ac", "\xe2\x82\xac"));
	EXPECT_TRUE(u16_to_u8_is(u"\ud7ff", "\xed\x9f\xbf"));
	EXPECT_TRUE(u16_to_u8_is(u"\ue000", "\xee\x80\x80"));
	EXPECT_TRUE(u16_to_u8_is(u"\uffff", "\xef\xbf\xbf"));

	EXPECT_TRUE(u8_to_u16_is("\x7f", u"\x7f"));
	EXPECT_TRUE(u8_to_u16_is("\xc2\x80", u"\x80"));
	EXPECT_TRUE(u8_to_u16_is("\xdf\xbf", u"\u07ff"));
	EXPECT_TRUE(u8_to_u16_is("\xe0\xa0\x80", u"\u0800"));
	EXPECT_TRUE(u8_to_u16_is("\xef\xbf\xbf", u"\uffff"));
}

TEST(surrogate_pairs)
{
	/* U+10000, U+1F600, U+10FFFF: the first, a common and the last. */
	EXPECT_TRUE(u16_to_u8_is(u"\xd800\xdc00", "\xf0\x90\x80\x80"));
	EXPECT_TRUE(u16_to_u8_is(u"\xd83d\xde00", "\xf0\x9f\x98\x80"));
	EXPECT_TRUE(u16_to_u8_is(u"\xdbff\xdfff", "\xf4\x8f\xbf\xbf"));
	EXPECT_TRUE(u16_to_u8_is(u"a\U0001F600b", "a\xf0\x9f\x98\x80" "b"));

	EXPECT_TRUE(u8_to_u16_is("\xf0\x90\x80\x80", u"\xd800\xdc00"));
	EXPECT_TRUE(u8_to_u16_is("\xf0\x9f\x98\x80", u"\U0001F600"));
	EXPECT_TRUE(u8_to_u16_is("\xf4\x8f\xbf\xbf", u"\U0010FFFF"));
}

TEST(unpaired_surrogates_are_refused)
{
	static const char16_t high_end[] = { 'a', 0xd800 };
	static const char16_t high_then_a[] = { 0xd83d, 'a' };
	static const char16_t low_first[] = { 0xde00, 0xd83d };
	static const char16_t two_highs[] = { 0xd800, 0xd800, 0xdc00 };
	static const char16_t lone_low[] = { 0xdfff };
	char out[16];

	EXPECT_EQ(-EILSEQ, etw_utf16_to_utf8(high_end, 2, out, sizeof(out)));
	EXPECT_EQ(-EILSEQ, etw_utf16_to_utf8(high_end, 2, NULL, 0));
	EXPECT_EQ(-EILSEQ, etw_utf16_to_utf8(high_then_a, 2, out, sizeof(out)));
	EXPECT_EQ(-EILSEQ, etw_utf16_to_utf8(low_first, 2, out, sizeof(out)));
	EXPECT_EQ(-EILSEQ, etw_utf16_to_utf8(two_highs, 3, out, sizeof(out)));
	EXPECT_EQ(-EILSEQ, etw_utf16_to_utf8(lone_low, 1, out, sizeof(out)));
	/* The length bounds the input: a pair cut in half is unpaired. */
	EXPECT_EQ(-EILSEQ, etw_utf16_to_utf8(u"\xd83d\xde00", 1, out, sizeof(out)));
}

TEST(invalid_utf8_is_refused)
{
	static const char *const bad[] = {
		"\x80",			/* a continuation byte first */
		"\xbf",
		"\xc0\x80",		/* overlong NUL */
		"\xc1\xbf",		/* overlong U+007F */
		"\xe0\x80\x80",		/* overlong, 3 bytes */
		"\xe0\x9f\xbf",		/* overlong U+07FF */
		"\xf0\x80\x80\x80",	/* overlong, 4 bytes */
		"\xf0\x8f\xbf\xbf",	/* overlong U+FFFF */
		"\xed\xa0\x80",		/* U+D800 encoded */
		"\xed\xbf\xbf",		/* U+DFFF encoded */
		"\xf4\x90\x80\x80",	/* U+110000 */
		"\xf5\x80\x80\x80",
		"\xf8\x88\x80\x80\x80",	/* 5-byte form */
		"\xfe",
		"\xff",
		"\xe2\x82",		/* truncated */
		"\xf0\x9f\x98",
		"\xc3",
		"\xe2\x28\xa1",		/* bad continuation */
		"\xc3\x28",
		"a\xc3\xa9\xe9",	/* valid, then Latin-1 */
	};
	char16_t out[16];
	size_t i;

	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		EXPECT_EQ(-EILSEQ, etw_utf8_to_utf16(bad[i], strlen(bad[i]), out, 16))
			TH_LOG("case %zu", i);
		EXPECT_EQ(-EILSEQ, etw_utf8_to_utf16(bad[i], strlen(bad[i]), NULL, 0))
			TH_LOG("case %zu", i);
	}
	/* The length bounds the input: a sequence cut short is truncated. */
	EXPECT_EQ(-EILSEQ, etw_utf8_to_utf16("\xc3\xa9", 1, out, 16));
}

TEST(buffer_sizes)
{
	char out[8];
	char16_t w[8];

	/* Room for the NUL is needed; nothing past @size is written. */
	memset(out, 'x', sizeof(out));
	EXPECT_EQ(-ENOBUFS, etw_utf16_to_utf8(u"abc", 3, out, 3));
	EXPECT_EQ('x', out[3]);
	EXPECT_EQ(3, etw_utf16_to_utf8(u"abc", 3, out, 4));
	EXPECT_STREQ("abc", out);
	/* A multi-byte character does not fit partly. */
	EXPECT_EQ(-ENOBUFS, etw_utf16_to_utf8(u"\u20ac", 1, out, 3));
	EXPECT_EQ(3, etw_utf16_to_utf8(u"\u20ac", 1, out, 4));
	EXPECT_EQ(-ENOBUFS, etw_utf16_to_utf8(u"a", 1, out, 0));

	/* A surrogate pair needs both units and the NUL. */
	EXPECT_EQ(-ENOBUFS, etw_utf8_to_utf16("\xf0\x9f\x98\x80", 4, w, 2));
	EXPECT_EQ(2, etw_utf8_to_utf16("\xf0\x9f\x98\x80", 4, w, 3));
	EXPECT_EQ(0xd83d, w[0]);
	EXPECT_EQ(0xde00, w[1]);
	EXPECT_EQ(0, w[2]);
	EXPECT_EQ(-ENOBUFS, etw_utf8_to_utf16("ab", 2, w, 2));
	EXPECT_EQ(0, etw_utf8_to_utf16("", 0, w, 1));
	EXPECT_EQ(0, w[0]);
}

/* Every scalar value, in one string, against iconv, both ways. */
TEST(all_code_points_match_iconv)
{
	size_t units = 0, cp, n8 = 0, in_left, out_left;
	char16_t *u16, *back;
	char *u8, *ref, *in, *out;
	iconv_t cd;
	ssize_t n;

	u16 = malloc(0x110000 * 2 * sizeof(*u16));
	back = malloc(0x110000 * 2 * sizeof(*back) + 2);
	u8 = malloc(0x110000 * 4 + 1);
	ref = malloc(0x110000 * 4 + 1);
	ASSERT_TRUE(u16 && back && u8 && ref);
	for (cp = 1; cp < 0x110000; cp++) {
		if (cp >= 0xd800 && cp <= 0xdfff)
			continue;
		if (cp < 0x10000) {
			u16[units++] = (char16_t)cp;
		} else {
			u16[units++] = (char16_t)(0xd800 + ((cp - 0x10000) >> 10));
			u16[units++] = (char16_t)(0xdc00 + ((cp - 0x10000) & 0x3ff));
		}
	}
	n = etw_utf16_to_utf8(u16, units, u8, 0x110000 * 4 + 1);
	ASSERT_LT(0, n);
	n8 = (size_t)n;

	cd = iconv_open("UTF-8", "UTF-16LE");
	ASSERT_NE((iconv_t)-1, cd);
	in = (char *)u16;
	in_left = units * 2;
	out = ref;
	out_left = 0x110000 * 4;
	ASSERT_NE((size_t)-1, iconv(cd, &in, &in_left, &out, &out_left));
	iconv_close(cd);
	ASSERT_EQ(n8, (size_t)(out - ref));
	EXPECT_EQ(0, memcmp(u8, ref, n8));

	n = etw_utf8_to_utf16(u8, n8, back, 0x110000 * 2 + 1);
	ASSERT_EQ((ssize_t)units, n);
	EXPECT_EQ(0, memcmp(u16, back, units * 2));
	free(u16);
	free(back);
	free(u8);
	free(ref);
}

TEST_HARNESS_MAIN
