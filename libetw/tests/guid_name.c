// SPDX-License-Identifier: GPL-2.0
/*
 * The provider GUID from a provider name (etw_guid_from_name) against the
 * values Windows' tools publish, case folding beyond ASCII, and the SHA-1
 * under it against the FIPS 180 examples.
 */
#include <stdio.h>
#include <string.h>

#include <libetw.h>

#include "../src/common/sha1.h"

#include "kselftest_harness.h"

/* The GUID of @name as text, as etw_etl_guid_to_str() would write it. */
static const char *guid_of(const char *name)
{
	static char text[40];
	unsigned char g[16];

	if (etw_guid_from_name(name, strlen(name), g))
		return "error";
	snprintf(text, sizeof(text),
		 "%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x",
		 g[3], g[2], g[1], g[0], g[5], g[4], g[7], g[6], g[8], g[9],
		 g[10], g[11], g[12], g[13], g[14], g[15]);
	return text;
}

TEST(published_values)
{
	/* Asserted in Microsoft's TraceLogging tests and quick-start sample. */
	EXPECT_STREQ("b3864c38-4273-58c5-545b-8b3608343471", guid_of("MyProvider"));
	EXPECT_STREQ("b3864c38-4273-58c5-545b-8b3608343471", guid_of("MYPROVIDER"));
	EXPECT_STREQ("b3864c38-4273-58c5-545b-8b3608343471", guid_of("myprovider"));
	EXPECT_STREQ("ce5fa4ea-ab00-5402-8b76-9f76ac858fb5",
		     guid_of("MyCompany.MyComponent"));
	EXPECT_STREQ("73e5f193-d48c-5cd7-6eed-84fbce74000f", guid_of("sample"));
}

TEST(case_folding_beyond_ascii)
{
	/* Values from an independent implementation (Python hashlib). */
	EXPECT_STREQ("742568e4-ff99-5449-5ed7-803b3891e0a2", guid_of("Café.Provider"));
	EXPECT_STREQ("742568e4-ff99-5449-5ed7-803b3891e0a2", guid_of("CAFÉ.PROVIDER"));
	/* U+10428 upper-cases to U+10400: a surrogate pair both ways. */
	EXPECT_STREQ("67c1b96e-ac18-57ad-a778-7fe2b3918098", guid_of("\xf0\x90\x90\xa8x"));
	EXPECT_STREQ("67c1b96e-ac18-57ad-a778-7fe2b3918098", guid_of("\xf0\x90\x90\x80X"));
}

TEST(only_the_given_length_counts)
{
	unsigned char a[16], b[16];

	ASSERT_EQ(0, etw_guid_from_name("MyProviderXYZ", 10, a));
	ASSERT_EQ(0, etw_guid_from_name("MyProvider", 10, b));
	EXPECT_EQ(0, memcmp(a, b, 16));
}

TEST(bad_input)
{
	unsigned char g[16];

	EXPECT_EQ(-EINVAL, etw_guid_from_name(NULL, 0, g));
	EXPECT_EQ(-EINVAL, etw_guid_from_name("x", 1, NULL));
	EXPECT_EQ(-EINVAL, etw_guid_from_name("\xc3", 1, g));
	EXPECT_EQ(-EINVAL, etw_guid_from_name("\xed\xa0\x80", 3, g));
	/* The empty name is a name. */
	EXPECT_EQ(0, etw_guid_from_name("", 0, g));
}

static const char *sha1_hex(const void *data, size_t len, size_t repeat)
{
	static char hex[41];
	uint8_t d[ETW_SHA1_SIZE];
	struct etw_sha1 s;

	etw_sha1_init(&s);
	while (repeat--)
		etw_sha1_update(&s, data, len);
	etw_sha1_final(&s, d);
	for (int i = 0; i < ETW_SHA1_SIZE; i++)
		sprintf(hex + 2 * i, "%02x", d[i]);
	return hex;
}

TEST(sha1_fips_examples)
{
	static const char two_blocks[] =
		"abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";

	EXPECT_STREQ("a9993e364706816aba3e25717850c26c9cd0d89d", sha1_hex("abc", 3, 1));
	EXPECT_STREQ("da39a3ee5e6b4b0d3255bfef95601890afd80709", sha1_hex("", 0, 1));
	EXPECT_STREQ("84983e441c3bd26ebaae4aa1f95129e5e54670f1",
		     sha1_hex(two_blocks, strlen(two_blocks), 1));
	/* One million 'a', fed in pieces that straddle blocks. */
	EXPECT_STREQ("34aa973cd4c4daa4f61eeb2bdbad27316534016f",
		     sha1_hex("aaaaaaaaaaaaaaaaaaaaaaaaa", 25, 40000));
}

TEST_HARNESS_MAIN
