// SPDX-License-Identifier: GPL-2.0
/*
 * TraceLoggingProvider.h on the host: the metadata the compiler builds
 * (traits, event name and tags, each field's name, in-type, out-type,
 * counts) byte for byte, the payload each field macro sends, the event
 * descriptor, the enable test, and that a disabled event evaluates none of
 * its arguments.  The four libetw calls the header makes are replaced by
 * recorders here.
 */
/* The recorders replace libetw's functions: no inline enable test. */
#define LIBETW_NO_INLINE_ENABLED
#include <TraceLoggingProvider.h>

#include "kselftest_harness.h"
#include "tl_recorder.h"

TRACELOGGING_DEFINE_PROVIDER(g_prov, "MyProvider",
	(0xb3864c38, 0x4273, 0x58c5, 0x54, 0x5b, 0x8b, 0x36, 0x08, 0x34, 0x34, 0x71));
TRACELOGGING_DEFINE_PROVIDER(g_group, "Grp",
	(0x1, 0x2, 0x3, 0x4, 0x5, 0x6, 0x7, 0x8, 0x9, 0xa, 0xb),
	TraceLoggingOptionGroup(0x4f50731a, 0x89cf, 0x4782, 0xb3, 0xe0, 0xdc, 0xe8,
				0xc9, 0x04, 0x76, 0xba));

static void enable(UCHAR level, ULONGLONG any, ULONGLONG all)
{
	rec.callback(NULL, 1, level, any, all, NULL, rec.context);
}

FIXTURE(tl) { int unused; };

FIXTURE_SETUP(tl)
{
	memset(&rec, 0, sizeof(rec));
	ASSERT_EQ(S_OK, TraceLoggingRegister(g_prov));
	enable(0, ~0ULL, 0);
}

FIXTURE_TEARDOWN(tl)
{
	TraceLoggingUnregister(g_prov);
}

TEST_F(tl, register_sets_the_traits)
{
	static const GUID id = { 0xb3864c38, 0x4273, 0x58c5,
				 { 0x54, 0x5b, 0x8b, 0x36, 0x08, 0x34, 0x34, 0x71 } };
	GUID got = TraceLoggingProviderId(g_prov);

	EXPECT_EQ(1, rec.registers);
	EXPECT_EQ(0, memcmp(&id, &rec.id, sizeof(id)));
	EXPECT_EQ(0, memcmp(&id, &got, sizeof(id)));
	EXPECT_EQ(13, rec.traits_len);
	EXPECT_EQ(0, memcmp(rec.traits, "\x0d\x00MyProvider", 13));
	/* Registering twice is refused; unregistering disables. */
	EXPECT_EQ(HRESULT_FROM_WIN32(ERROR_INVALID_PARAMETER), TraceLoggingRegister(g_prov));
	EXPECT_TRUE(TraceLoggingProviderEnabled(g_prov, 5, 0));
}

TEST(group_trait)
{
	static const UCHAR want[] = {
		0x19, 0x00, 'G', 'r', 'p', 0x00, 0x13, 0x00, 0x01,
		0x1a, 0x73, 0x50, 0x4f, 0xcf, 0x89, 0x82, 0x47,
		0xb3, 0xe0, 0xdc, 0xe8, 0xc9, 0x04, 0x76, 0xba,
	};

	memset(&rec, 0, sizeof(rec));
	ASSERT_EQ(S_OK, TraceLoggingRegister(g_group));
	EXPECT_EQ(sizeof(want), rec.traits_len);
	EXPECT_EQ(0, memcmp(rec.traits, want, sizeof(want)));
	TraceLoggingUnregister(g_group);
	EXPECT_EQ(1, rec.unregisters);
}

TEST_F(tl, empty_event_and_descriptor_defaults)
{
	TraceLoggingWrite(g_prov, "E0");
	ASSERT_EQ(1, rec.writes);
	EXPECT_EQ(2, rec.count);
	EXPECT_EQ(2, rec.data[0].Type);		/* PROVIDER_METADATA */
	EXPECT_BYTES(0, 0x0d, 0x00, 'M', 'y', 'P', 'r', 'o', 'v', 'i', 'd', 'e', 'r', 0);
	EXPECT_EQ(1, rec.data[1].Type);		/* EVENT_METADATA */
	EXPECT_BYTES(1, 0x07, 0x00, 0x80, 0x00, 'E', '0', 0x00);
	EXPECT_EQ(0, rec.desc.Id);
	EXPECT_EQ(0, rec.desc.Version);
	EXPECT_EQ(11, rec.desc.Channel);
	EXPECT_EQ(5, rec.desc.Level);
	EXPECT_EQ(0, rec.desc.Opcode);
	EXPECT_EQ(0, rec.desc.Task);
	EXPECT_EQ(0, rec.desc.Keyword);
	EXPECT_TRUE(rec.activity == NULL);
	EXPECT_TRUE(rec.related == NULL);
}

TEST_F(tl, options)
{
	GUID a = { 1, 0, 0, { 0 } }, r = { 2, 0, 0, { 0 } };

	TraceLoggingWriteActivity(g_prov, "Opt", &a, &r,
		TraceLoggingLevel(WINEVENT_LEVEL_WARNING),
		TraceLoggingKeyword(0x10), TraceLoggingKeyword(0x3),
		TraceLoggingOpcode(2), TraceLoggingChannel(12),
		TraceLoggingDescription("not sent"),
		TraceLoggingEventTag(0x200000), TraceLoggingEventTag(0x4000));
	ASSERT_EQ(1, rec.writes);
	EXPECT_EQ(3, rec.desc.Level);
	EXPECT_EQ(0x13, rec.desc.Keyword);
	EXPECT_EQ(2, rec.desc.Opcode);
	EXPECT_EQ(12, rec.desc.Channel);
	EXPECT_TRUE(rec.activity == &a);
	EXPECT_TRUE(rec.related == &r);
	/* Tags OR'ed, in C in the 2-byte form: 0x204000 -> 81 01. */
	EXPECT_BYTES(1, 0x08, 0x00, 0x81, 0x01, 'O', 'p', 't', 0x00);
}

TEST_F(tl, scalar_fields)
{
	int32_t i32 = -5;
	GUID g = { 0x11223344, 0x5566, 0x7788, { 1, 2, 3, 4, 5, 6, 7, 8 } };
	FILETIME ft = { 1, 2 };

	TraceLoggingWrite(g_prov, "S",
		TraceLoggingInt32(i32),
		TraceLoggingUInt8(200, "u8"),
		TraceLoggingHexUInt8(0xab, "h8", "description", 0x1000000),
		TraceLoggingHexInt64(0x1122334455667788LL, "h64"),
		TraceLoggingFloat64(2.5, "d"),
		TraceLoggingBoolean(1, "b"),
		TraceLoggingBool(1, "B"),
		TraceLoggingGuid(g, "g"),
		TraceLoggingFileTime(ft, "ft"),
		TraceLoggingPid(77, "pid"),
		TraceLoggingPointer((void *)0x1234, "p"));
	ASSERT_EQ(1, rec.writes);
	EXPECT_EQ(2 + 11, rec.count);
	EXPECT_BYTES(1, 0x37, 0x00, 0x80, 0x00, 'S', 0x00,
		'i', '3', '2', 0x00, 0x07,
		'u', '8', 0x00, 0x04,
		'h', '8', 0x00, 0x84, 0x84, 0x88, 0x80, 0x80, 0x00,
		'h', '6', '4', 0x00, 0x15,
		'd', 0x00, 0x0c,
		'b', 0x00, 0x84, 0x03,
		'B', 0x00, 0x0d,
		'g', 0x00, 0x0f,
		'f', 't', 0x00, 0x11,
		'p', 'i', 'd', 0x00, 0x88, 0x05,
		'p', 0x00, sizeof(void *) == 8 ? 0x15 : 0x14);
	EXPECT_BYTES(2, 0xfb, 0xff, 0xff, 0xff);
	EXPECT_BYTES(3, 200);
	EXPECT_BYTES(4, 0xab);
	EXPECT_BYTES(5, 0x88, 0x77, 0x66, 0x55, 0x44, 0x33, 0x22, 0x11);
	EXPECT_BYTES(6, 0, 0, 0, 0, 0, 0, 0x04, 0x40);
	EXPECT_BYTES(7, 1);
	EXPECT_BYTES(8, 1, 0, 0, 0);
	EXPECT_BYTES(9, 0x44, 0x33, 0x22, 0x11, 0x66, 0x55, 0x88, 0x77, 1, 2, 3, 4, 5, 6, 7, 8);
	EXPECT_BYTES(10, 1, 0, 0, 0, 2, 0, 0, 0);
	EXPECT_BYTES(11, 77, 0, 0, 0);
	EXPECT_EQ(sizeof(void *), rec.data[12].Size);
}

TEST_F(tl, strings_binary_arrays_structs)
{
	static const int16_t v[3] = { 1, -1, 2 };
	const char *none = NULL;

	TraceLoggingWrite(g_prov, "T",
		TraceLoggingString("ab", "s"),
		TraceLoggingString(none, "n"),
		TraceLoggingUtf8String("\xc3\xa9", "u"),
		TraceLoggingWideString(u"hi", "w"),
		TraceLoggingCountedString("abcdef", 3, "cs"),
		TraceLoggingCountedWideString(u"xyz", 2, "cw"),
		TraceLoggingBinary("\x01\x02", 2, "bin"),
		TraceLoggingStruct(2, "st"),
			TraceLoggingInt16Array(v, 3, "va"),
			TraceLoggingInt16FixedArray(v, 2, "fa"),
		TraceLoggingCharArray("xyz", 3, "chars"));
	ASSERT_EQ(1, rec.writes);
	EXPECT_EQ(2 + 1 + 1 + 1 + 1 + 2 + 2 + 2 + 2 + 1 + 2, rec.count);
	EXPECT_BYTES(1, 0x37, 0x00, 0x80, 0x00, 'T', 0x00,
		's', 0x00, 0x02,
		'n', 0x00, 0x02,
		'u', 0x00, 0x82, 0x23,
		'w', 0x00, 0x01,
		'c', 's', 0x00, 0x17,
		'c', 'w', 0x00, 0x16,
		'b', 'i', 'n', 0x00, 0x0e,
		's', 't', 0x00, 0x98, 0x02,
		'v', 'a', 0x00, 0x45,
		'f', 'a', 0x00, 0x25, 0x02, 0x00,
		'c', 'h', 'a', 'r', 's', 0x00, 0xc4, 0x02);
	EXPECT_BYTES(2, 'a', 'b', 0);
	EXPECT_BYTES(3, 0);
	EXPECT_BYTES(4, 0xc3, 0xa9, 0);
	EXPECT_BYTES(5, 'h', 0, 'i', 0, 0, 0);
	EXPECT_BYTES(6, 3, 0);
	EXPECT_BYTES(7, 'a', 'b', 'c');
	EXPECT_BYTES(8, 4, 0);
	EXPECT_BYTES(9, 'x', 0, 'y', 0);
	EXPECT_BYTES(10, 2, 0);
	EXPECT_BYTES(11, 1, 2);
	EXPECT_BYTES(12, 3, 0);
	EXPECT_BYTES(13, 1, 0, 0xff, 0xff, 2, 0);
	EXPECT_BYTES(14, 1, 0, 0xff, 0xff);
	EXPECT_BYTES(15, 3, 0);
	EXPECT_BYTES(16, 'x', 'y', 'z');
}

TEST_F(tl, value_deduces_the_type)
{
	const char *s = "str";
	char c = 'q';
	double d = 1.5;
	_Bool yes = 1;

	TraceLoggingWrite(g_prov, "V", TraceLoggingValue(d), TraceLoggingValue(s),
			  TraceLoggingValue(7, "seven"), TraceLoggingValue(c),
			  TraceLoggingValue(yes), TraceLoggingValue(3000000000ULL, "big"));
	ASSERT_EQ(1, rec.writes);
	EXPECT_BYTES(1, 0x26, 0x00, 0x80, 0x00, 'V', 0x00,
		'd', 0x00, 0x8c, 0x00,
		's', 0x00, 0x82, 0x00,
		's', 'e', 'v', 'e', 'n', 0x00, 0x87, 0x00,
		'c', 0x00, 0x84, 0x02,
		'y', 'e', 's', 0x00, 0x84, 0x03,
		'b', 'i', 'g', 0x00, 0x8a, 0x00);
	EXPECT_BYTES(2, 0, 0, 0, 0, 0, 0, 0xf8, 0x3f);
	EXPECT_BYTES(3, 's', 't', 'r', 0);
	EXPECT_BYTES(4, 7, 0, 0, 0);
	EXPECT_BYTES(5, 'q');
	EXPECT_BYTES(6, 1);
	EXPECT_BYTES(7, 0x00, 0x5e, 0xd0, 0xb2, 0, 0, 0, 0);
}

TEST_F(tl, ipv6_and_sid)
{
	static const UCHAR addr[16] = { 0x20, 0x01, 0x0d, 0xb8, [15] = 1 };
	/* S-1-5-32-544: two sub-authorities, 16 bytes. */
	static const UCHAR sid[] = { 1, 2, 0, 0, 0, 0, 0, 5, 32, 0, 0, 0, 0x20, 2, 0, 0, 0xee };

	TraceLoggingWrite(g_prov, "N", TraceLoggingIPv6Address(addr, "a"),
			  TraceLoggingSid(sid, "s"));
	ASSERT_EQ(1, rec.writes);
	EXPECT_EQ(2 + 2 + 1, rec.count);
	EXPECT_BYTES(1, 0x0d, 0x00, 0x80, 0x00, 'N', 0x00,
		'a', 0x00, 0x8e, 0x09,
		's', 0x00, 0x13);
	EXPECT_BYTES(2, 16, 0);
	EXPECT_BYTES(3, 0x20, 0x01, 0x0d, 0xb8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1);
	EXPECT_BYTES(4, 1, 2, 0, 0, 0, 0, 0, 5, 32, 0, 0, 0, 0x20, 2, 0, 0);
}

TEST_F(tl, socket_address_and_counted_structs)
{
	/* A SOCKADDR_IN as Windows lays it out: family 2, port 80, 10.0.0.1. */
	static const UCHAR sin[16] = { 2, 0, 0, 80, 10, 0, 0, 1 };
	ANSI_STRING a = { 3, 8, (PCHAR)"abcdef" };
	UNICODE_STRING u = { 4, 8, (PWSTR)u"xyz" };

	TraceLoggingWrite(g_prov, "C", TraceLoggingSocketAddress(sin, sizeof(sin), "sa"),
			  TraceLoggingAnsiString(&a, "a"),
			  TraceLoggingUnicodeString(&u, "u", "desc", 0x4000));
	ASSERT_EQ(1, rec.writes);
	EXPECT_EQ(2 + 2 + 2 + 2, rec.count);
	EXPECT_BYTES(1, 0x16, 0x00, 0x80, 0x00, 'C', 0x00,
		's', 'a', 0x00, 0x8e, 0x0a,		/* BINARY, SOCKETADDRESS */
		'a', 0x00, 0x17,			/* COUNTEDANSISTRING */
		'u', 0x00, 0x96, 0x80, 0x80, 0x81, 0x80, 0x00); /* COUNTEDSTRING, tag */
	EXPECT_BYTES(2, 16, 0);
	EXPECT_BYTES(3, 2, 0, 0, 80, 10, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0);
	EXPECT_BYTES(4, 3, 0);
	EXPECT_BYTES(5, 'a', 'b', 'c');
	EXPECT_BYTES(6, 4, 0);
	EXPECT_BYTES(7, 'x', 0, 'y', 0);
}

TEST_F(tl, char16_and_binary_buffer)
{
	/* Any struct with Length and Buffer, as on Windows. */
	struct {
		USHORT Length;
		const void *Buffer;
	} bb = { 2, "\x0a\x0b" };
	static const char16_t c16s[2] = { u'a', u'b' };

	TraceLoggingWrite(g_prov, "H", TraceLoggingChar16(u'z', "c"),
			  TraceLoggingChar16FixedArray(c16s, 2, "f"),
			  TraceLoggingString16(u"hi", "s"),
			  TraceLoggingCountedString16(u"xyz", 2, "n"),
			  TraceLoggingBinaryBuffer(&bb, __typeof__(bb), "b"),
			  TraceLoggingBinaryBufferEx(&bb, __typeof__(bb), TlgOutIPV6, "x"));
	ASSERT_EQ(1, rec.writes);
	EXPECT_EQ(2 + 1 + 1 + 1 + 2 + 2 + 2, rec.count);
	EXPECT_BYTES(1, 0x1d, 0x00, 0x80, 0x00, 'H', 0x00,
		'c', 0x00, 0x86, 0x02,
		'f', 0x00, 0xa6, 0x02, 0x02, 0x00,
		's', 0x00, 0x01,
		'n', 0x00, 0x16,
		'b', 0x00, 0x0e,
		'x', 0x00, 0x8e, 0x09);
	EXPECT_BYTES(2, 'z', 0);
	EXPECT_BYTES(3, 'a', 0, 'b', 0);
	EXPECT_BYTES(4, 'h', 0, 'i', 0, 0, 0);
	EXPECT_BYTES(5, 4, 0);
	EXPECT_BYTES(6, 'x', 0, 'y', 0);
	EXPECT_BYTES(7, 2, 0);
	EXPECT_BYTES(8, 0x0a, 0x0b);
	EXPECT_BYTES(9, 2, 0);
}

TEST_F(tl, packed_fields)
{
	/* Two strings as one packed array: a count, then the strings. */
	static const UCHAR strs[] = { 2, 0, 'h', 'i', 0, 'y', 'o', 0 };
	static const INT32 rect[2] = { -1, 2 };
	static const UINT16 one = 1;

	TraceLoggingWrite(g_prov, "P",
		TraceLoggingPackedField(strs, sizeof(strs), TlgInANSISTRING | TlgInVcount, "ss"),
		TraceLoggingPackedFieldEx(u"{}", 6, TlgInUNICODESTRING, TlgOutJSON, "js"),
		TraceLoggingPackedData(rect, sizeof(rect)),
		TraceLoggingPackedStruct(2, "r"),
			TraceLoggingPackedMetadata(TlgInINT32, "x"),
			TraceLoggingPackedMetadataEx(TlgInINT32, TlgOutHEX, "y", "d", 0x200000),
		TraceLoggingPackedDataEx(&one, 2, EVENT_DATA_DESCRIPTOR_TYPE_TIMESTAMP_OVERRIDE),
		TraceLoggingPackedData(rect, sizeof(rect)),
		TraceLoggingPackedStructArray(1, "ra"),
			TraceLoggingPackedMetadata(TlgInINT32, "z"));
	ASSERT_EQ(1, rec.writes);
	EXPECT_EQ(2 + 5, rec.count);
	EXPECT_BYTES(1, 0x26, 0x00, 0x80, 0x00, 'P', 0x00,
		's', 's', 0x00, 0x42,
		'j', 's', 0x00, 0x81, 0x0c,
		'r', 0x00, 0x98, 0x02,
		'x', 0x00, 0x07,
		'y', 0x00, 0x87, 0x84, 0x81, 0x80, 0x80, 0x00,
		'r', 'a', 0x00, 0xd8, 0x01,
		'z', 0x00, 0x07);
	EXPECT_BYTES(2, 2, 0, 'h', 'i', 0, 'y', 'o', 0);
	EXPECT_BYTES(3, '{', 0, '}', 0, 0, 0);
	EXPECT_BYTES(4, 0xff, 0xff, 0xff, 0xff, 2, 0, 0, 0);
	EXPECT_BYTES(5, 1, 0);
	EXPECT_EQ(EVENT_DATA_DESCRIPTOR_TYPE_TIMESTAMP_OVERRIDE, rec.data[5].Type);
	EXPECT_BYTES(6, 0xff, 0xff, 0xff, 0xff, 2, 0, 0, 0);
}

TEST_F(tl, custom_field)
{
	static const UCHAR v[3] = { 7, 8, 9 };

	TraceLoggingWrite(g_prov, "U",
		TraceLoggingCustom(v, sizeof(v), 5, (0xa, 0xb), 2, "c"),
		TraceLoggingCustom(v, 1, 33, (0xc), 1, "t", "d", 0x4000));
	ASSERT_EQ(1, rec.writes);
	EXPECT_EQ(2 + 4, rec.count);
	/* Protocol in the low 5 bits, 0x60, then the schema's size and bytes. */
	EXPECT_BYTES(1, 0x18, 0x00, 0x80, 0x00, 'U', 0x00,
		'c', 0x00, 0x65, 0x02, 0x00, 0x0a, 0x0b,
		't', 0x00, 0xe1, 0x80, 0x80, 0x81, 0x80, 0x00, 0x01, 0x00, 0x0c);
	EXPECT_BYTES(2, 3, 0);
	EXPECT_BYTES(3, 7, 8, 9);
	EXPECT_BYTES(4, 1, 0);
	EXPECT_BYTES(5, 7);
}

TEST_F(tl, write_ex_passes_filter_and_flags)
{
	GUID a = { 3, 0, 0, { 0 } };

	TraceLoggingWriteEx(g_prov, "X", 0x5, EVENT_WRITE_FLAG_NO_FAULTING, &a, NULL,
			    TraceLoggingLevel(2), TraceLoggingUInt8(9, "n"));
	ASSERT_EQ(1, rec.write_exs);
	EXPECT_EQ(1, rec.writes);
	EXPECT_EQ(0x5, rec.filter);
	EXPECT_EQ(EVENT_WRITE_FLAG_NO_FAULTING, rec.flags);
	EXPECT_TRUE(rec.activity == &a);
	EXPECT_EQ(2, rec.desc.Level);
	EXPECT_EQ(11, rec.desc.Channel);
	EXPECT_BYTES(1, 0x09, 0x00, 0x80, 0x00, 'X', 0x00, 'n', 0x00, 0x04);
	EXPECT_BYTES(2, 9);
	/* Disabled: not written, as TraceLoggingWrite. */
	rec.callback(NULL, 0, 0, 0, 0, NULL, rec.context);
	TraceLoggingWriteEx(g_prov, "X", 0, 0, NULL, NULL, TraceLoggingLevel(1));
	EXPECT_EQ(1, rec.write_exs);
}

static int evaluated;

static int count_me(int v)
{
	evaluated++;
	return v;
}

TEST_F(tl, disabled_evaluates_nothing)
{
	/* Enabled at level 3 for keyword 0x1 only. */
	enable(3, 0x1, 0);
	TraceLoggingWrite(g_prov, "Loud", TraceLoggingLevel(2), TraceLoggingKeyword(1),
			  TraceLoggingInt32(count_me(1), "x"));
	EXPECT_EQ(1, rec.writes);
	EXPECT_EQ(1, evaluated);
	TraceLoggingWrite(g_prov, "Quiet", TraceLoggingLevel(4),
			  TraceLoggingInt32(count_me(2), "x"), TraceLoggingString(
				  count_me(3) ? "a" : "b", "s"));
	TraceLoggingWrite(g_prov, "OtherKeyword", TraceLoggingLevel(1),
			  TraceLoggingKeyword(0x2), TraceLoggingInt32(count_me(4), "x"));
	EXPECT_EQ(1, rec.writes);
	EXPECT_EQ(1, evaluated);
	/* Keyword 0 passes any keyword filter; level 0 passes any level. */
	TraceLoggingWrite(g_prov, "Kw0", TraceLoggingLevel(3), TraceLoggingInt32(count_me(5), "x"));
	EXPECT_EQ(2, rec.writes);
	/* Disabled: nothing at all, even at level 0. */
	rec.callback(NULL, 0, 0, 0, 0, NULL, rec.context);
	TraceLoggingWrite(g_prov, "Off", TraceLoggingLevel(0), TraceLoggingInt32(count_me(6), "x"));
	EXPECT_EQ(2, rec.writes);
	EXPECT_EQ(2, evaluated);
	EXPECT_FALSE(TraceLoggingProviderEnabled(g_prov, 0, 0));
	/* MatchAllKeyword. */
	enable(5, 0xff, 0x3);
	EXPECT_TRUE(TraceLoggingProviderEnabled(g_prov, 5, 0x7));
	EXPECT_FALSE(TraceLoggingProviderEnabled(g_prov, 5, 0x4));
	EXPECT_FALSE(TraceLoggingProviderEnabled(g_prov, 6, 0x7));
}

static int user_calls;

static void NTAPI user_callback(LPCGUID src, ULONG code, UCHAR level, ULONGLONG any,
				ULONGLONG all, PEVENT_FILTER_DESCRIPTOR f, PVOID ctx)
{
	user_calls += code == 2 && level == 4 && any == 9 && ctx == &user_calls;
}

TEST(register_ex_forwards_the_callback)
{
	memset(&rec, 0, sizeof(rec));
	ASSERT_EQ(S_OK, TraceLoggingRegisterEx(g_prov, user_callback, &user_calls));
	rec.callback(NULL, 2, 4, 9, 0, NULL, rec.context);
	EXPECT_EQ(1, user_calls);
	/* Capture state does not change the enable state. */
	EXPECT_FALSE(TraceLoggingProviderEnabled(g_prov, 1, 0));
	TraceLoggingUnregister(g_prov);
}

TEST_HARNESS_MAIN
