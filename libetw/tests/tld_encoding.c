// SPDX-License-Identifier: GPL-2.0
/*
 * etw_tld (events defined at run time) on the host: the traits and the
 * metadata it builds byte for byte, tags in their shortest form, the
 * descriptors it hands to EventWriteTransfer, and its errors.  The libetw
 * provider calls it makes are replaced by recorders here.
 */
/* The recorders replace libetw's functions: no inline enable test. */
#define LIBETW_NO_INLINE_ENABLED
#include <string.h>

#include <etw_tld.h>

#include "kselftest_harness.h"
#include "tl_recorder.h"

TEST(provider_traits_and_guid)
{
	static const GUID group = { 0x4f50731a, 0x89cf, 0x4782,
				    { 0xb3, 0xe0, 0xdc, 0xe8, 0xc9, 0x04, 0x76, 0xba } };
	static const UCHAR id[16] = { 0x38, 0x4c, 0x86, 0xb3, 0x73, 0x42, 0xc5, 0x58,
				      0x54, 0x5b, 0x8b, 0x36, 0x08, 0x34, 0x34, 0x71 };
	struct etw_tld_provider *p;

	ASSERT_EQ(ERROR_SUCCESS, etw_tld_provider_open("MyProvider", &group, &p));
	EXPECT_EQ(0, memcmp(id, &rec.id, 16));
	EXPECT_EQ(32, rec.traits_len);
	EXPECT_EQ(0, memcmp(rec.traits, "\x20\x00MyProvider\x00\x13\x00\x01", 16));
	EXPECT_EQ(0, memcmp(rec.traits + 16, &group, 16));
	EXPECT_EQ(REC_HANDLE, etw_tld_provider_handle(p));
	EXPECT_TRUE(etw_tld_enabled(p, 4, 0));
	EXPECT_FALSE(etw_tld_enabled(p, 5, 0));
	etw_tld_provider_close(p);
	EXPECT_EQ(1, rec.unregisters);
	EXPECT_EQ(ERROR_INVALID_PARAMETER, etw_tld_provider_open(NULL, NULL, &p));
	EXPECT_TRUE(p == NULL);
	EXPECT_EQ(ERROR_INVALID_PARAMETER, etw_tld_provider_open("\xc3", NULL, &p));
	EXPECT_EQ(ERROR_INVALID_PARAMETER, etw_tld_provider_open("x", NULL, NULL));
}

TEST(event_metadata_and_payload)
{
	static const GUID g = { 1, 2, 3, { 4, 5, 6, 7, 8, 9, 10, 11 } };
	struct etw_tld_provider *p;
	struct etw_tld_event *ev = etw_tld_event_new();
	UINT8 counts[2] = { 3, 0 };
	int32_t vals[3] = { 1, 2, 3 };

	ASSERT_TRUE(ev != NULL);
	ASSERT_EQ(ERROR_SUCCESS, etw_tld_provider_open("P", NULL, &p));
	etw_tld_event_begin(ev, "Ev", 3, 0x40, 0);
	etw_tld_event_set(ev, 7, 11);
	etw_tld_int64(ev, "i", -1);
	etw_tld_string(ev, "s", "ab");
	etw_tld_struct(ev, "st", 2);
	etw_tld_bool(ev, "b", 5);
	etw_tld_guid(ev, "g", &g);
	etw_tld_field(ev, "va", 7 | ETW_TLD_VAR_ARRAY, 0, 0, 0);
	etw_tld_data(ev, counts, 2);
	etw_tld_data(ev, vals, sizeof(vals));
	etw_tld_field(ev, "fa", 7 | ETW_TLD_FIXED_ARRAY, 4, 0, 3);
	etw_tld_data(ev, vals, sizeof(vals));
	etw_tld_binary(ev, "bin", "\x01\x02", 2);
	ASSERT_EQ(ERROR_SUCCESS, etw_tld_event_write(p, ev, NULL, NULL));
	EXPECT_EQ(3, rec.count);
	EXPECT_EQ(2, rec.data[0].Type);
	EXPECT_BYTES(0, 0x04, 0x00, 'P', 0x00);
	EXPECT_EQ(1, rec.data[1].Type);
	EXPECT_BYTES(1, 0x28, 0x00, 0x00, 'E', 'v', 0x00,
		'i', 0x00, 0x09,
		's', 0x00, 0x82, 0x23,
		's', 't', 0x00, 0x98, 0x02,
		'b', 0x00, 0x0d,
		'g', 0x00, 0x0f,
		'v', 'a', 0x00, 0x47,
		'f', 'a', 0x00, 0xa7, 0x04, 0x03, 0x00,
		'b', 'i', 'n', 0x00, 0x0e);
	EXPECT_EQ(0, rec.data[2].Type);
	EXPECT_EQ(8 + 3 + 4 + 16 + 2 + 12 + 12 + 4, rec.data[2].Size);
	EXPECT_EQ(0, memcmp(rec.bytes[2], "\xff\xff\xff\xff\xff\xff\xff\xff" "ab\0" "\x01\0\0\0", 15));
	EXPECT_EQ(11, rec.desc.Channel);
	EXPECT_EQ(3, rec.desc.Level);
	EXPECT_EQ(7, rec.desc.Opcode);
	EXPECT_EQ(0x40, rec.desc.Keyword);
	EXPECT_EQ(0, rec.desc.Id);
	etw_tld_event_free(ev);
	etw_tld_provider_close(p);
}

TEST(tags_take_their_shortest_form)
{
	struct etw_tld_provider *p;
	struct etw_tld_event *ev = etw_tld_event_new();

	ASSERT_EQ(ERROR_SUCCESS, etw_tld_provider_open("P", NULL, &p));
	/* Event tag with bits 21..27 only: 1 byte. */
	etw_tld_event_begin(ev, "E", 5, 0, 0x0fe00000);
	/* Field tags: bits 14..20 need 2 bytes, low bits 4. */
	etw_tld_field(ev, "a", 8, 0, 0x4000, 0);
	etw_tld_field(ev, "b", 8, 4, 0x1, 0);
	ASSERT_EQ(ERROR_SUCCESS, etw_tld_event_write(p, ev, NULL, NULL));
	EXPECT_EQ(2, rec.count);		/* no payload: no descriptor */
	EXPECT_BYTES(1, 0x13, 0x00, 0x7f, 'E', 0x00,
		'a', 0x00, 0x88, 0x80, 0x80, 0x01,
		'b', 0x00, 0x88, 0x84, 0x80, 0x80, 0x80, 0x01);
	etw_tld_event_free(ev);
	etw_tld_provider_close(p);
}

TEST(errors)
{
	static char big[70000];
	struct etw_tld_provider *p;
	struct etw_tld_event *ev = etw_tld_event_new();

	ASSERT_EQ(ERROR_SUCCESS, etw_tld_provider_open("P", NULL, &p));
	/* Not begun, or no provider. */
	EXPECT_EQ(ERROR_INVALID_PARAMETER, etw_tld_event_write(p, ev, NULL, NULL));
	etw_tld_event_begin(ev, "E", 5, 0, 0);
	EXPECT_EQ(ERROR_INVALID_PARAMETER, etw_tld_event_write(NULL, ev, NULL, NULL));
	/* Payload or metadata past 64 KiB. */
	etw_tld_field(ev, "x", 14, 0, 0, 0);
	etw_tld_data(ev, big, sizeof(big));
	EXPECT_EQ(ERROR_ARITHMETIC_OVERFLOW, etw_tld_event_write(p, ev, NULL, NULL));
	memset(big, 'n', sizeof(big) - 1);
	etw_tld_event_begin(ev, big, 5, 0, 0);
	EXPECT_EQ(ERROR_ARITHMETIC_OVERFLOW, etw_tld_event_write(p, ev, NULL, NULL));
	/* begin starts afresh. */
	etw_tld_event_begin(ev, "E", 5, 0, 0);
	EXPECT_EQ(ERROR_SUCCESS, etw_tld_event_write(p, ev, NULL, NULL));
	EXPECT_EQ(5, rec.data[1].Size);
	etw_tld_event_free(ev);
	etw_tld_provider_close(p);
}

TEST_HARNESS_MAIN
