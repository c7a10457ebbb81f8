// SPDX-License-Identifier: GPL-2.0
/*
 * The header `etw mc` makes of testdata/manifests/etw-test-types.man
 * (the build generates it): its symbols and descriptors, EventRegister<P>
 * handing EventRegister its GUID and McGenControlCallbackV2,
 * EventEnabled<E> following the session's level and keywords through
 * that callback, and EventWrite<E> giving EventWriteTransfer the
 * template's fields in order, in their wire form.  libetw's provider
 * calls are replaced by recorders (tl_recorder.h); the round trip
 * through a real session is mc_roundtrip.c.
 */
#define LIBETW_NO_INLINE_ENABLED
#include <string.h>

#include "kselftest_harness.h"
#include "tl_recorder.h"

#include "etw-test-types.h"

static void enable(UCHAR level, ULONGLONG any)
{
	rec.callback(NULL, EVENT_CONTROL_CODE_ENABLE_PROVIDER, level, any, 0,
		     NULL, rec.context);
}

TEST(symbols)
{
	static const GUID provider = { 0x6f1b9a52, 0x3c1d, 0x4e55,
		{ 0x9f, 0x0a, 0x2b, 0x7c, 0x8d, 0x4e, 0x5a, 0x61 } };
	static const GUID task = { 0x0a1b2c3d, 0x4e5f, 0x6071,
		{ 0x82, 0x93, 0xa4, 0xb5, 0xc6, 0xd7, 0xe8, 0xf9 } };

	EXPECT_EQ(0, memcmp(&provider, &ETW_TEST_MANIFEST, sizeof(GUID)));
	EXPECT_EQ(0, memcmp(&task, &TASK_CONNECTId, sizeof(GUID)));
	EXPECT_EQ(0x10, CHANNEL_OPERATIONAL);
	EXPECT_EQ(0x10, LEVEL_CHATTY);
	EXPECT_EQ(1, TASK_CONNECT);
	EXPECT_EQ(2, TASK_TRANSFER);
	EXPECT_EQ(10, OPCODE_HANDSHAKE);
	EXPECT_EQ(11, OPCODE_RETRY);
	EXPECT_EQ(1, KW_NETWORK);
	EXPECT_EQ(2, KW_DISK);
	EXPECT_EQ(1, IntsEvent_value);
	EXPECT_EQ(1, IntsEvent.Id);
	EXPECT_EQ(16, IntsEvent.Channel);
	EXPECT_EQ(4, IntsEvent.Level);
	EXPECT_EQ(10, IntsEvent.Opcode);
	EXPECT_EQ(1, IntsEvent.Task);
	/* With the channel keyword bits mc.exe adds (63 App, 62 C1). */
	EXPECT_EQ(0x4000000000000001ull, IntsEvent.Keyword);
	EXPECT_EQ(9, StringsEvent.Channel);
	EXPECT_EQ(0x8000000000000003ull, StringsEvent.Keyword);
	EXPECT_EQ(16, ArraysEvent.Level);
	EXPECT_EQ(3, EmptyEvent.Level);
}

TEST(register_enable_unregister)
{
	memset(&rec, 0, sizeof(rec));
	ASSERT_EQ(ERROR_SUCCESS, EventRegisterEtw_Test_Manifest());
	EXPECT_EQ(1, rec.registers);
	EXPECT_EQ(0, memcmp(&rec.id, &ETW_TEST_MANIFEST, sizeof(GUID)));
	EXPECT_EQ(REC_HANDLE, Etw_Test_ManifestHandle);
	/* Registered already: a bug, but mc's code says success. */
	EXPECT_EQ(ERROR_SUCCESS, EventRegisterEtw_Test_Manifest());
	EXPECT_EQ(1, rec.registers);

	EXPECT_FALSE(EventEnabledIntsEvent());
	EXPECT_EQ(0, EventWriteEmptyEvent());
	EXPECT_EQ(0, rec.writes);

	enable(4, KW_NETWORK);
	EXPECT_TRUE(EventEnabledIntsEvent());		/* level 4, Network */
	EXPECT_FALSE(EventEnabledStringsEvent());	/* level 5 */
	EXPECT_FALSE(EventEnabledArraysEvent());	/* level 16 */
	EXPECT_TRUE(EventEnabledEmptyEvent());		/* level 3, no keyword */
	enable(0, KW_DISK);
	EXPECT_FALSE(EventEnabledIntsEvent());		/* not Disk */
	EXPECT_TRUE(EventEnabledStringsEvent());	/* any level, Disk */
	EXPECT_TRUE(EventEnabledArraysEvent());
	rec.callback(NULL, EVENT_CONTROL_CODE_DISABLE_PROVIDER, 0, 0, 0, NULL,
		     rec.context);
	EXPECT_FALSE(EventEnabledStringsEvent());
	EXPECT_FALSE(EventEnabledEmptyEvent());

	EXPECT_EQ(ERROR_SUCCESS, EventUnregisterEtw_Test_Manifest());
	EXPECT_EQ(1, rec.unregisters);
	EXPECT_EQ(0, Etw_Test_ManifestHandle);
	EXPECT_EQ(ERROR_SUCCESS, EventUnregisterEtw_Test_Manifest());
	EXPECT_EQ(1, rec.unregisters);
}

TEST(write_scalars)
{
	memset(&rec, 0, sizeof(rec));
	ASSERT_EQ(ERROR_SUCCESS, EventRegisterEtw_Test_Manifest());
	enable(5, 0xff);
	ASSERT_EQ(ERROR_SUCCESS, EventWriteIntsEvent(-1, 2, 0xab, -3, 4, 0x5000, -6, 7, 8, 9,
						     0x0100007f, 5, 0xC0000005, (int)0x80004005,
						     -10, 11, 0x12, 0x13, (void *)0x1234, 1,
						     1.5f, 2.25));
	EXPECT_EQ(1, rec.writes);
	EXPECT_EQ(0, memcmp(&rec.desc, &IntsEvent, sizeof(IntsEvent)));
	ASSERT_EQ(23, rec.count);
	EXPECT_EQ(0, rec.data[0].Size);			/* no provider traits */
	EXPECT_BYTES(1, 0xff);
	EXPECT_BYTES(4, 0xfd, 0xff);
	EXPECT_BYTES(6, 0x00, 0x50);
	EXPECT_BYTES(14, 0x05, 0x40, 0x00, 0x80);
	EXPECT_BYTES(15, 0xf6, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff);
	EXPECT_EQ(sizeof(void *), rec.data[19].Size);
	EXPECT_BYTES(20, 1, 0, 0, 0);			/* BOOL: 4 bytes */
	EXPECT_BYTES(21, 0x00, 0x00, 0xc0, 0x3f);
	EXPECT_BYTES(22, 0, 0, 0, 0, 0, 0, 0x02, 0x40);
	EventUnregisterEtw_Test_Manifest();
}

TEST(write_strings_and_arrays)
{
	static const unsigned char sid[] = { 1, 2, 0, 0, 0, 0, 0, 5, 32, 0, 0, 0,
					     32, 2, 0, 0 };
	unsigned char blob[] = { 1, 2, 3 }, ip6[16] = { 0x20, 0x01 };
	unsigned int vals[2] = { 100, 200 };
	unsigned char f3[3] = { 7, 8, 9 };
	int pts[4] = { 1, -1, 2, -2 };
	GUID g = { 1, 2, 3, { 4, 5, 6, 7, 8, 9, 10, 11 } };
	FILETIME ft = { 0xd53e8000, 0x01d9625a };
	SYSTEMTIME st = { 2023, 3, 3, 29, 15, 12, 38, 17 };

	memset(&rec, 0, sizeof(rec));
	ASSERT_EQ(ERROR_SUCCESS, EventRegisterEtw_Test_Manifest());
	enable(0, 0xff);
	ASSERT_EQ(ERROR_SUCCESS, EventWriteStringsEvent(u"wide", NULL, "utf8", u"abcdef",
							2, u"cw", 2, "ca", 3, blob, &g,
							&ft, &st, sid, 3, blob, ip6,
							u"<x/>"));
	/* 15 fields, the 3 counted ones in two descriptors each. */
	ASSERT_EQ(1 + 15 + 3, rec.count);
	EXPECT_BYTES(1, 'w', 0, 'i', 0, 'd', 0, 'e', 0, 0, 0);
	EXPECT_BYTES(2, 'N', 'U', 'L', 'L', 0);		/* NULL as mc writes it */
	EXPECT_BYTES(4, 'a', 0, 'b', 0, 'c', 0, 'd', 0);	/* length 4, no NUL */
	EXPECT_BYTES(5, 4, 0);				/* UINT16 byte count */
	EXPECT_BYTES(6, 'c', 0, 'w', 0);
	EXPECT_BYTES(7, 2, 0);
	EXPECT_BYTES(9, 3, 0);
	EXPECT_EQ(16, rec.data[11].Size);		/* GUID */
	EXPECT_EQ(8, rec.data[12].Size);		/* FILETIME */
	EXPECT_EQ(16, rec.data[13].Size);		/* SYSTEMTIME */
	EXPECT_EQ(16, rec.data[14].Size);		/* SID, 2 sub-authorities */
	EXPECT_BYTES(16, 1, 2, 3);			/* length from Len */
	EXPECT_EQ(16, rec.data[17].Size);		/* IPv6, length 16 */

	ASSERT_EQ(ERROR_SUCCESS, EventWriteArraysEvent(2, vals, f3, sizeof(pts), pts, 1, 5));
	ASSERT_EQ(7, rec.count);
	EXPECT_BYTES(2, 100, 0, 0, 0, 200, 0, 0, 0);	/* count from Count */
	EXPECT_BYTES(3, 7, 8, 9);			/* count 3 */
	EXPECT_EQ(sizeof(pts), rec.data[4].Size);	/* struct: packed blob */
	EXPECT_EQ(ERROR_SUCCESS, EventWriteEmptyEvent());
	EXPECT_EQ(1, rec.count);
	EventUnregisterEtw_Test_Manifest();
}

TEST_HARNESS_MAIN
