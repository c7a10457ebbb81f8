// SPDX-License-Identifier: GPL-2.0
/*
 * The one description and the one formatter (libetw/src/decode): the
 * builder's TRACE_EVENT_INFO and EVENT_MAP_INFO in Windows' layout, each
 * in-type and out-type as TdhFormatProperty's rules give it (expected
 * texts written out here, never produced by the code under test), maps,
 * the walk (structs, counts and lengths from earlier properties, fixed
 * arrays), data that does not match (an error, never a read past the
 * end), the cache, and the API's names for struct members and arrays.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <windows.h>
#include <evntcons.h>
#include <tdh.h>
#include <etw_decode.h>

#include "../src/decode/format.h"
#include "kselftest_harness.h"

static const GUID test_guid = { 0x12345678, 0x9abc, 0xdef0,
	{ 0x01, 0x23, 0x45, 0x67, 0x89, 0xab, 0xcd, 0xef } };

/* A UTF-16 string of the blob at off, as ASCII (tests use ASCII names). */
static const char *w(const void *base, ULONG off)
{
	static char buf[8][128];
	static int k;
	const uint8_t *p = (const uint8_t *)base + off;
	char *o = buf[k++ & 7];
	size_t i;

	for (i = 0; i < 127 && (p[2 * i] | p[2 * i + 1]); i++)
		o[i] = (char)p[2 * i];
	o[i] = '\0';
	return o;
}

/* One value's text, or "ERR<n>". */
static const char *fmt(uint16_t in, uint16_t out, const struct decode_map *m,
		       unsigned int ptr, const void *p, uint32_t n)
{
	static struct decode_text t;
	static char err[32];
	int ret;

	t.len = 0;
	ret = decode_format_value(&t, in, out, m, ptr, p, n, NULL);
	if (ret) {
		snprintf(err, sizeof(err), "ERR%d", ret);
		return err;
	}
	return t.p;
}

static const char *fmt_sized(uint16_t in, uint16_t out, unsigned int ptr,
			     const void *p, uint32_t avail)
{
	uint32_t n;

	if (decode_value_size(in, out, 0, ptr, p, avail, &n))
		return "SIZE-ERR";
	return fmt(in, out, NULL, ptr, p, n);
}

TEST(integers)
{
	uint8_t b[8];

	memset(b, 0xff, 8);
	EXPECT_STREQ("-1", fmt(TDH_INTYPE_INT8, 0, NULL, 8, b, 1));
	EXPECT_STREQ("255", fmt(TDH_INTYPE_UINT8, 0, NULL, 8, b, 1));
	EXPECT_STREQ("-1", fmt(TDH_INTYPE_INT16, 0, NULL, 8, b, 2));
	EXPECT_STREQ("65535", fmt(TDH_INTYPE_UINT16, 0, NULL, 8, b, 2));
	EXPECT_STREQ("-1", fmt(TDH_INTYPE_INT32, 0, NULL, 8, b, 4));
	EXPECT_STREQ("4294967295", fmt(TDH_INTYPE_UINT32, 0, NULL, 8, b, 4));
	EXPECT_STREQ("-1", fmt(TDH_INTYPE_INT64, 0, NULL, 8, b, 8));
	EXPECT_STREQ("18446744073709551615",
		     fmt(TDH_INTYPE_UINT64, 0, NULL, 8, b, 8));
	memcpy(b, "\x00\x00\x00\x00\x00\x00\x00\x80", 8);
	EXPECT_STREQ("-9223372036854775808",
		     fmt(TDH_INTYPE_INT64, 0, NULL, 8, b, 8));
	memcpy(b, "\xbc\x0a\x00\x00", 4);
	EXPECT_STREQ("0xABC", fmt(TDH_INTYPE_HEXINT32, 0, NULL, 8, b, 4));
	EXPECT_STREQ("0xABC", fmt(TDH_INTYPE_UINT32, TDH_OUTTYPE_HEXINT32,
				  NULL, 8, b, 4));
	EXPECT_STREQ("2748", fmt(TDH_INTYPE_UINT32, TDH_OUTTYPE_PID, NULL, 8,
				 b, 4));
	EXPECT_STREQ("0xABC", fmt(TDH_INTYPE_UINT32, TDH_OUTTYPE_WIN32ERROR,
				  NULL, 8, b, 4));
	memset(b, 0, 8);
	EXPECT_STREQ("0x0", fmt(TDH_INTYPE_HEXINT64, 0, NULL, 8, b, 8));
	EXPECT_STREQ("0", fmt(TDH_INTYPE_UINT16, 0, NULL, 8, b, 2));
	/* Wrong sizes are errors, not reads past the value. */
	EXPECT_STREQ("ERR-74", fmt(TDH_INTYPE_UINT32, 0, NULL, 8, b, 0));
	EXPECT_STREQ("ERR-74", fmt(TDH_INTYPE_BOOLEAN, 0, NULL, 8, b, 2));
}

TEST(pointers_follow_pointer_size)
{
	static const uint8_t p[8] = { 0x80, 0x30, 0x58, 0x88, 0x86, 0xca,
				      0xff, 0xff };
	uint32_t n;

	EXPECT_EQ(0, decode_value_size(TDH_INTYPE_POINTER, 0, 0, 8, p, 8, &n));
	EXPECT_EQ(8, n);
	EXPECT_STREQ("0xFFFFCA8688583080",
		     fmt(TDH_INTYPE_POINTER, 0, NULL, 8, p, 8));
	EXPECT_EQ(0, decode_value_size(TDH_INTYPE_POINTER, 0, 0, 4, p, 8, &n));
	EXPECT_EQ(4, n);
	EXPECT_STREQ("0x88583080", fmt(TDH_INTYPE_POINTER, 0, NULL, 4, p, 4));
	EXPECT_EQ(0, decode_value_size(TDH_INTYPE_SIZET, 0, 0, 4, p, 8, &n));
	EXPECT_EQ(4, n);
	EXPECT_STREQ("2287480960", fmt(TDH_INTYPE_SIZET, 0, NULL, 4, p, 4));
	EXPECT_EQ(-EBADMSG,
		  decode_value_size(TDH_INTYPE_POINTER, 0, 0, 8, p, 7, &n));
}

TEST(booleans_reals_guids_times)
{
	static const uint8_t t[4] = { 1, 0, 0, 0 }, f[4] = { 0 };
	static const uint8_t guid[16] = { 0xd7, 0x75, 0xe6, 0xb3, 0x54, 0x25,
		0x18, 0x4f, 0x83, 0x0b, 0x27, 0x62, 0x73, 0x25, 0x60, 0xde };
	/* 2020-02-28T09:03:47.7445790Z */
	static const uint8_t ft[8] = { 0x9e, 0x38, 0xa1, 0xfc, 0x15, 0xee,
				       0xd5, 0x01 };
	static const uint8_t st[16] = { 0xe4, 0x07, 2, 0, 5, 0, 28, 0, 9, 0, 3,
					0, 47, 0, 0x2a, 0x01 };
	float x = 1.5f;
	double y = 0.1;

	EXPECT_STREQ("true", fmt(TDH_INTYPE_BOOLEAN, 0, NULL, 8, t, 4));
	EXPECT_STREQ("false", fmt(TDH_INTYPE_BOOLEAN, 0, NULL, 8, f, 4));
	EXPECT_STREQ("true", fmt(TDH_INTYPE_UINT8, TDH_OUTTYPE_BOOLEAN, NULL,
				 8, t, 1));
	EXPECT_STREQ("1.5", fmt(TDH_INTYPE_FLOAT, 0, NULL, 8, &x, 4));
	EXPECT_STREQ("0.1", fmt(TDH_INTYPE_DOUBLE, 0, NULL, 8, &y, 8));
	EXPECT_STREQ("{B3E675D7-2554-4F18-830B-2762732560DE}",
		     fmt(TDH_INTYPE_GUID, 0, NULL, 8, guid, 16));
	EXPECT_STREQ("2020-02-28T09:03:47.7445790Z",
		     fmt(TDH_INTYPE_FILETIME, 0, NULL, 8, ft, 8));
	EXPECT_STREQ("2020-02-28T09:03:47.298",
		     fmt(TDH_INTYPE_SYSTEMTIME, 0, NULL, 8, st, 16));
}

TEST(strings)
{
	/* "aé😀" then a lone high surrogate, NUL, then more. */
	static const uint8_t u16[] = { 'a', 0, 0xe9, 0, 0x3d, 0xd8, 0x00, 0xde,
				       0x00, 0xd8, 0, 0, 'x', 0 };
	static const uint8_t ansi[] = { 's', 'm', 's', 's', '.', 'e', 'x', 'e',
					0, 'z' };
	static const uint8_t counted[] = { 4, 0, 'h', 0, 'i', 0, 'z', 0 };
	static const uint8_t rcounted[] = { 0, 2, 'h', 'i', 'z' };
	uint32_t n;

	EXPECT_EQ(0, decode_value_size(TDH_INTYPE_UNICODESTRING, 0, 0, 8, u16,
				       sizeof(u16), &n));
	EXPECT_EQ(12, n);
	EXPECT_STREQ("a\xc3\xa9\xf0\x9f\x98\x80\xef\xbf\xbd",
		     fmt(TDH_INTYPE_UNICODESTRING, 0, NULL, 8, u16, n));
	/* A fixed length in characters; no NUL needed. */
	EXPECT_EQ(0, decode_value_size(TDH_INTYPE_UNICODESTRING, 0, 1, 8, u16,
				       sizeof(u16), &n));
	EXPECT_EQ(2, n);
	/* No NUL before the end of the data: to the end. */
	EXPECT_EQ(0, decode_value_size(TDH_INTYPE_UNICODESTRING, 0, 0, 8,
				       u16 + 12, 2, &n));
	EXPECT_EQ(2, n);
	EXPECT_STREQ("smss.exe", fmt_sized(TDH_INTYPE_ANSISTRING, 0, 8, ansi,
					   sizeof(ansi)));
	EXPECT_STREQ("hi", fmt_sized(TDH_INTYPE_MANIFEST_COUNTEDSTRING, 0, 8,
				     counted, sizeof(counted)));
	EXPECT_STREQ("hi", fmt_sized(TDH_INTYPE_COUNTEDSTRING, 0, 8, counted,
				     6));
	EXPECT_STREQ("hi", fmt_sized(TDH_INTYPE_REVERSEDCOUNTEDANSISTRING, 0, 8,
				     rcounted, sizeof(rcounted)));
	EXPECT_STREQ("SIZE-ERR", fmt_sized(TDH_INTYPE_COUNTEDSTRING, 0, 8,
					   counted, 5));
	EXPECT_STREQ("\xc3\xa9", fmt(TDH_INTYPE_UNICODECHAR, 0, NULL, 8,
				     u16 + 2, 2));
	EXPECT_STREQ("s", fmt(TDH_INTYPE_ANSICHAR, 0, NULL, 8, ansi, 1));
	/* TraceLogging's characters: integers with out-type STRING. */
	EXPECT_STREQ("\xc3\xa9", fmt(TDH_INTYPE_UINT16, TDH_OUTTYPE_STRING,
				     NULL, 8, u16 + 2, 2));
	EXPECT_STREQ("s", fmt(TDH_INTYPE_UINT8, TDH_OUTTYPE_STRING, NULL, 8,
			      ansi, 1));
}

TEST(sids)
{
	/* S-1-5-21-4151223144-1238771585-1724997581-1000 */
	static const uint8_t sid[] = {
		1, 5, 0, 0, 0, 0, 0, 5, 0x15, 0, 0, 0, 0x68, 0xa3, 0x6e, 0xf7,
		0x81, 0x27, 0xd6, 0x49, 0xcd, 0x5f, 0xd1, 0x66, 0xe8, 0x03, 0, 0,
	};
	uint8_t wbem[16 + sizeof(sid)];

	EXPECT_STREQ("S-1-5-21-4151223144-1238771585-1724997581-1000",
		     fmt_sized(TDH_INTYPE_SID, 0, 8, sid, sizeof(sid)));
	EXPECT_STREQ("SIZE-ERR", fmt_sized(TDH_INTYPE_SID, 0, 8, sid, 20));
	/* The MOF form: TOKEN_USER (2 pointers), then the SID. */
	memset(wbem, 0x11, 16);
	memcpy(wbem + 16, sid, sizeof(sid));
	EXPECT_STREQ("S-1-5-21-4151223144-1238771585-1724997581-1000",
		     fmt_sized(TDH_INTYPE_WBEMSID, 0, 8, wbem, sizeof(wbem)));
	memcpy(wbem + 8, sid, sizeof(sid));
	EXPECT_STREQ("S-1-5-21-4151223144-1238771585-1724997581-1000",
		     fmt_sized(TDH_INTYPE_WBEMSID, 0, 4, wbem,
			       8 + sizeof(sid)));
	/* No SID: a zero word. */
	memset(wbem, 0, 8);
	EXPECT_STREQ("", fmt_sized(TDH_INTYPE_WBEMSID, 0, 8, wbem, 8));
}

TEST(addresses_and_binary)
{
	static const uint8_t v4[4] = { 192, 168, 1, 20 };
	static const uint8_t v6[16] = { 0xfe, 0x80, [15] = 1 };
	static const uint8_t port[2] = { 0x01, 0xbb };	/* network order */
	/* sockaddr_in, sockaddr_in6 (Windows' AF_INET6 is 23) */
	static const uint8_t sin[16] = { 2, 0, 0, 80, 10, 0, 0, 1 };
	static const uint8_t sin6[28] = { 23, 0, 0x01, 0xbb, 0, 0, 0, 0,
					  0x20, 0x01, 0x0d, 0xb8, [23] = 1 };
	static const uint8_t counted6[18] = { 16, 0, 0xfe, 0x80, [17] = 1 };
	static const uint8_t unix_sa[4] = { 1, 0, 'a', 0 };

	EXPECT_STREQ("192.168.1.20", fmt(TDH_INTYPE_UINT32, TDH_OUTTYPE_IPV4,
					 NULL, 8, v4, 4));
	EXPECT_STREQ("fe80::1", fmt_sized(TDH_INTYPE_BINARY, TDH_OUTTYPE_IPV6,
					  8, v6, 16));
	EXPECT_STREQ("443", fmt(TDH_INTYPE_UINT16, TDH_OUTTYPE_PORT, NULL, 8,
				port, 2));
	EXPECT_STREQ("0xC0A80114", fmt(TDH_INTYPE_BINARY, 0, NULL, 8, v4, 4));
	EXPECT_STREQ("0xC0A8", fmt(TDH_INTYPE_HEXDUMP, 0, NULL, 8, v4, 2));
	EXPECT_STREQ("", fmt(TDH_INTYPE_BINARY, 0, NULL, 8, v4, 0));
	EXPECT_STREQ("10.0.0.1:80", fmt(TDH_INTYPE_BINARY,
					TDH_OUTTYPE_SOCKETADDRESS, NULL, 8,
					sin, sizeof(sin)));
	EXPECT_STREQ("[2001:db8::1]:443",
		     fmt(TDH_INTYPE_BINARY, TDH_OUTTYPE_SOCKETADDRESS, NULL, 8,
			 sin6, sizeof(sin6)));
	/* A family it does not know, or too short for its own: hex. */
	EXPECT_STREQ("0x01006100", fmt(TDH_INTYPE_BINARY,
				       TDH_OUTTYPE_SOCKETADDRESS, NULL, 8,
				       unix_sa, sizeof(unix_sa)));
	EXPECT_STREQ("0x170001BB", fmt(TDH_INTYPE_BINARY,
				       TDH_OUTTYPE_SOCKETADDRESS, NULL, 8,
				       sin6, 4));
	/* TraceLogging's counted binary: the same out-types. */
	EXPECT_STREQ("fe80::1", fmt(TDH_INTYPE_MANIFEST_COUNTEDBINARY,
				    TDH_OUTTYPE_IPV6, NULL, 8, counted6,
				    sizeof(counted6)));
	EXPECT_STREQ("10.0.0.1:80", fmt(TDH_INTYPE_MANIFEST_COUNTEDBINARY,
					TDH_OUTTYPE_SOCKETADDRESS, NULL, 8,
					(const uint8_t[]){ 16, 0, 2, 0, 0, 80,
							   10, 0, 0, 1, [17] = 0 },
					18));
}

/* A description of the test event, built as any source builds one. */
static struct decode_desc *build(struct __test_metadata *_metadata,
				 const struct tei_prop *props, int n,
				 uint32_t top, uint32_t flags)
{
	static const struct tei_map_entry colors[] = {
		{ 2, NULL, "Green" }, { 1, NULL, "Red" }, { 7, NULL, "White" },
	};
	static const struct tei_map_entry bits[] = {
		{ 0, NULL, "None" }, { 1, NULL, "Read" }, { 2, NULL, "Write" },
		{ 4, NULL, "Exec" },
	};
	struct decode_key key = { .guid = test_guid, .id = 7, .version = 1 };
	EVENT_DESCRIPTOR desc = { .Id = 7, .Version = 1, .Opcode = 9 };
	struct tei_builder *b = tei_builder_new();
	struct decode_desc *d = NULL;

	EXPECT_NE(NULL, b);
	tei_set_event(b, &test_guid, NULL, &desc, DecodingSourceXMLFile,
		      TEMPLATE_USER_DATA);
	tei_set_string(b, TEI_PROVIDER_NAME_S, "TestProvider");
	tei_set_string(b, TEI_TASK_NAME_S, "TestTask");
	tei_set_string(b, TEI_EVENT_NAME_S, "TestEvent");
	EXPECT_EQ(0, tei_add_map(b, "Colors", EVENTMAP_INFO_FLAG_MANIFEST_VALUEMAP,
				 colors, 3));
	EXPECT_EQ(0, tei_add_map(b, "Access", EVENTMAP_INFO_FLAG_MANIFEST_BITMAP,
				 bits, 4));
	for (int i = 0; i < n; i++)
		EXPECT_EQ(i, tei_add_property(b, &props[i]));
	if (top)
		tei_set_top_level_count(b, top);
	EXPECT_EQ(0, tei_builder_finish(b, &key, flags, &d));
	tei_builder_free(b);
	return d;
}

TEST(builder_layout)
{
	static const struct tei_prop props[] = {
		{ .name = "Count", .in_type = TDH_INTYPE_UINT16, .count = 1 },
		{ .name = "Color", .in_type = TDH_INTYPE_UINT32, .count = 1,
		  .map_name = "Colors" },
		{ .name = "Values", .in_type = TDH_INTYPE_UINT32,
		  .flags = PropertyParamCount, .count = 0 },
	};
	struct decode_desc *d = build(_metadata, props, 3, 0, 0);
	const TRACE_EVENT_INFO *t;
	const EVENT_PROPERTY_INFO *p;
	const EVENT_MAP_INFO *m;
	const struct decode_map *dm;

	ASSERT_NE(NULL, d);
	t = d->tei;
	EXPECT_EQ(0, memcmp(&t->ProviderGuid, &test_guid, sizeof(GUID)));
	EXPECT_EQ(DecodingSourceXMLFile, t->DecodingSource);
	EXPECT_EQ(7, t->EventDescriptor.Id);
	EXPECT_EQ(9, t->EventDescriptor.Opcode);
	EXPECT_EQ(3, t->PropertyCount);
	EXPECT_EQ(3, t->TopLevelPropertyCount);
	EXPECT_EQ(TEMPLATE_USER_DATA, t->Flags);
	/* Strings after the property array, inside the blob. */
	EXPECT_LE(112 + 3 * 24, t->ProviderNameOffset);
	EXPECT_GT(d->tei_size, t->ProviderNameOffset);
	EXPECT_STREQ("TestProvider", w(t, t->ProviderNameOffset));
	EXPECT_STREQ("TestTask", w(t, t->TaskNameOffset));
	EXPECT_STREQ("TestEvent", w(t, t->EventNameOffset));
	EXPECT_EQ(0, t->OpcodeNameOffset);
	EXPECT_EQ(0, t->LevelNameOffset);
	p = &t->EventPropertyInfoArray[1];
	EXPECT_STREQ("Color", w(t, p->NameOffset));
	EXPECT_EQ(TDH_INTYPE_UINT32, p->nonStructType.InType);
	EXPECT_STREQ("Colors", w(t, p->nonStructType.MapNameOffset));
	p = &t->EventPropertyInfoArray[2];
	EXPECT_EQ(PropertyParamCount, p->Flags);
	EXPECT_EQ(0, p->countPropertyIndex);
	/* The map in Windows' form and in the formatter's. */
	dm = decode_desc_map(d, "Colors");
	ASSERT_NE(NULL, dm);
	m = dm->info;
	EXPECT_EQ(3, m->EntryCount);
	EXPECT_EQ(EVENTMAP_INFO_FLAG_MANIFEST_VALUEMAP, m->Flag);
	EXPECT_STREQ("Colors", w(m, m->NameOffset));
	EXPECT_EQ(2, m->MapEntryArray[0].Value);
	/* A manifest map's entry names end with a space there, as Windows'. */
	EXPECT_STREQ("Green ", w(m, m->MapEntryArray[0].OutputOffset));
	for (uint32_t k = 0; k < dm->count; k++)
		if (dm->entries[k].value == 2)
			EXPECT_STREQ("Green", dm->entries[k].name);
	EXPECT_EQ(dm, d->props[1].map);
	EXPECT_STREQ("TestProvider", d->strings[TEI_PROVIDER_NAME_S]);
	EXPECT_STREQ("", d->strings[TEI_LEVEL_NAME_S]);
	decode_desc_free(d);
}

TEST(builder_rejects_bad_references)
{
	struct tei_prop later = { .name = "A", .in_type = TDH_INTYPE_UINT8,
				  .flags = PropertyParamLength, .length = 1 };
	struct tei_prop nomap = { .name = "B", .in_type = TDH_INTYPE_UINT8,
				  .count = 1, .map_name = "Nope" };
	struct decode_key key = { 0 };
	struct decode_desc *d;
	struct tei_builder *b;

	b = tei_builder_new();
	ASSERT_NE(NULL, b);
	EXPECT_EQ(0, tei_add_property(b, &later));
	EXPECT_EQ(-EINVAL, tei_builder_finish(b, &key, 0, &d));
	EXPECT_EQ(NULL, d);
	tei_builder_free(b);
	b = tei_builder_new();
	ASSERT_NE(NULL, b);
	EXPECT_EQ(0, tei_add_property(b, &nomap));
	EXPECT_EQ(-EINVAL, tei_builder_finish(b, &key, 0, &d));
	tei_builder_free(b);
}

TEST(maps)
{
	static const struct tei_prop props[] = {
		{ .name = "X", .in_type = TDH_INTYPE_UINT8, .count = 1 },
	};
	struct decode_desc *d = build(_metadata, props, 1, 0, 0);
	const struct decode_map *colors, *access;
	uint8_t v[4] = { 0 };

	ASSERT_NE(NULL, d);
	colors = decode_desc_map(d, "Colors");
	access = decode_desc_map(d, "Access");
	v[0] = 7;
	EXPECT_STREQ("White", fmt(TDH_INTYPE_UINT32, 0, colors, 8, v, 4));
	v[0] = 1;
	EXPECT_STREQ("Red", fmt(TDH_INTYPE_UINT8, 0, colors, 8, v, 1));
	v[0] = 3;	/* no entry: the number */
	EXPECT_STREQ("3", fmt(TDH_INTYPE_UINT32, 0, colors, 8, v, 4));
	v[0] = 5;
	EXPECT_STREQ("Read | Exec", fmt(TDH_INTYPE_UINT32, 0, access, 8, v, 4));
	v[0] = 0;
	EXPECT_STREQ("None", fmt(TDH_INTYPE_UINT32, 0, access, 8, v, 4));
	v[0] = 0x13;	/* an unnamed bit stays visible */
	EXPECT_STREQ("Read | Write | 0x10",
		     fmt(TDH_INTYPE_UINT32, 0, access, 8, v, 4));
	decode_desc_free(d);
}

/* Count, Name (length from Len), Len first, an array, a struct array. */
static const struct tei_prop walk_props[] = {
	/* 0 */ { .name = "Len", .in_type = TDH_INTYPE_UINT16, .count = 1 },
	/* 1 */ { .name = "Name", .in_type = TDH_INTYPE_UNICODESTRING,
		  .flags = PropertyParamLength, .length = 0, .count = 1 },
	/* 2 */ { .name = "N", .in_type = TDH_INTYPE_UINT8, .count = 1 },
	/* 3 */ { .name = "Values", .in_type = TDH_INTYPE_UINT16,
		  .flags = PropertyParamCount, .count = 2 },
	/* 4 */ { .name = "Pairs", .flags = PropertyStruct |
		  PropertyParamFixedCount, .count = 2, .struct_start = 6,
		  .struct_members = 2 },
	/* 5 */ { .name = "Color", .in_type = TDH_INTYPE_UINT8, .count = 1,
		  .map_name = "Colors" },
	/* members of Pairs */
	/* 6 */ { .name = "A", .in_type = TDH_INTYPE_UINT8, .count = 1 },
	/* 7 */ { .name = "B", .in_type = TDH_INTYPE_ANSISTRING, .count = 1 },
};

static const uint8_t walk_data[] = {
	2, 0,			/* Len = 2 characters */
	'h', 0, 'i', 0,		/* Name, no NUL */
	3,			/* N */
	1, 0, 2, 0, 3, 0,	/* Values[3] */
	10, 'x', 0,		/* Pairs[0] */
	20, 'y', 'z', 0,	/* Pairs[1] */
	2,			/* Color = Green */
};

static int count_items(void *ctx, const struct decode_item *it)
{
	(*(int *)ctx)++;
	return 0;
}

TEST(walk_and_format_event)
{
	struct decode_desc *d = build(_metadata, walk_props, 8, 6, 0);
	struct decode_out o = { 0 };
	uint64_t vals[8];
	uint32_t end;
	int items = 0;

	ASSERT_NE(NULL, d);
	EXPECT_EQ(0, decode_walk(d, walk_data, sizeof(walk_data), 8, vals,
				 count_items, &items, &end));
	EXPECT_EQ(sizeof(walk_data), end);
	/* Len, Name, N, 3 values, 2 x (begin, A, B, end), Color */
	EXPECT_EQ(15, items);
	ASSERT_EQ(0, decode_format_event(&o, d, walk_data, sizeof(walk_data), 8));
	ASSERT_EQ(13, o.count);
	EXPECT_STREQ("Len", o.fields[0].prop->name);
	EXPECT_STREQ("2", decode_field_value(&o, 0));
	EXPECT_TRUE(o.fields[0].number);
	EXPECT_STREQ("hi", decode_field_value(&o, 1));
	EXPECT_STREQ("1", decode_field_value(&o, 3));
	EXPECT_TRUE(o.fields[3].array);
	EXPECT_EQ(2, o.fields[5].elem);
	EXPECT_TRUE(o.fields[6].is_struct);
	EXPECT_EQ(6, o.fields[7].parent);
	EXPECT_STREQ("10", decode_field_value(&o, 7));
	EXPECT_STREQ("x", decode_field_value(&o, 8));
	EXPECT_EQ(9, o.fields[10].parent);
	EXPECT_STREQ("yz", decode_field_value(&o, 11));
	EXPECT_EQ(-1, o.fields[12].parent);
	EXPECT_STREQ("Green", decode_field_value(&o, 12));
	decode_out_free(&o);
	decode_desc_free(d);
}

TEST(mismatched_data_is_an_error)
{
	struct decode_desc *d = build(_metadata, walk_props, 8, 6, 0);
	struct decode_desc *lenient = build(_metadata, walk_props, 8, 6,
					    DECODE_DESC_LENIENT);
	struct decode_out o = { 0 };
	uint8_t buf[sizeof(walk_data) + 3];

	ASSERT_NE(NULL, d);
	ASSERT_NE(NULL, lenient);
	/* Every truncation: an error (or, lenient, a stop at a boundary). */
	for (uint32_t n = 0; n < sizeof(walk_data); n++) {
		uint8_t *copy = malloc(n ? n : 1);

		memcpy(copy, walk_data, n);
		EXPECT_EQ(-EBADMSG, decode_format_event(&o, d, copy, n, 8));
		free(copy);
	}
	/* More data than the description: strict error, lenient rest. */
	memcpy(buf, walk_data, sizeof(walk_data));
	memset(buf + sizeof(walk_data), 0xee, 3);
	EXPECT_EQ(-EBADMSG, decode_format_event(&o, d, buf, sizeof(buf), 8));
	EXPECT_EQ(0, decode_format_event(&o, lenient, buf, sizeof(buf), 8));
	EXPECT_EQ(3, o.rest_size);
	EXPECT_EQ(0xee, o.rest[0]);
	/* Lenient data that stops between properties. */
	EXPECT_EQ(0, decode_format_event(&o, lenient, walk_data, 7, 8));
	EXPECT_EQ(3, o.count);
	/* A count larger than the data: an error, not a read past it. */
	memcpy(buf, walk_data, sizeof(walk_data));
	buf[6] = 200;
	EXPECT_EQ(-EBADMSG, decode_format_event(&o, d, buf, sizeof(walk_data), 8));
	decode_out_free(&o);
	decode_desc_free(d);
	decode_desc_free(lenient);
}

TEST(cache)
{
	static const struct tei_prop props[] = {
		{ .name = "X", .in_type = TDH_INTYPE_UINT8, .count = 1 },
	};
	struct decode_key k = { .guid = test_guid, .id = 99, .version = 3,
				.source = DecodingSourceXMLFile };
	struct decode_key k2 = k;
	struct decode_desc *a = build(_metadata, props, 1, 0, 0);
	struct decode_desc *b = build(_metadata, props, 1, 0, 0);

	EXPECT_EQ(NULL, decode_cache_get(&k));
	EXPECT_EQ(a, decode_cache_put(&k, a));
	EXPECT_EQ(a, decode_cache_get(&k));
	/* A second description for the same key: the first stays. */
	EXPECT_EQ(a, decode_cache_put(&k, b));
	k2.version = 4;
	EXPECT_EQ(NULL, decode_cache_get(&k2));
	EXPECT_EQ(DECODE_NONE, decode_cache_put(&k2, NULL));
	EXPECT_EQ(DECODE_NONE, decode_cache_get(&k2));
	decode_cache_forget(&test_guid);
	EXPECT_EQ(NULL, decode_cache_get(&k));
	EXPECT_EQ(NULL, decode_cache_get(&k2));
	/* Retired, not freed: a held pointer still reads. */
	EXPECT_STREQ("X", a->props[0].name);
}

/* The API's names: S[i].M for struct arrays, "[a, b]" for arrays. */
TEST(api_names)
{
	struct decode_desc *d = build(_metadata, walk_props, 8, 6, 0);
	static const GUID klass = { 0x0badf00d, 1, 2, { 3, 4, 5, 6, 7, 8, 9, 10 } };
	struct decode_key key = { .guid = klass, .id = 5, .version = 1,
				  .source = DecodingSourceWbem };
	struct etw_decoded_event e;
	struct etw_decoder *dec;
	EVENT_RECORD r;

	ASSERT_NE(NULL, d);
	d->key = key;
	ASSERT_EQ(d, decode_cache_put(&key, d));
	memset(&r, 0, sizeof(r));
	r.EventHeader.ProviderId = klass;
	r.EventHeader.EventDescriptor.Opcode = 5;
	r.EventHeader.EventDescriptor.Version = 1;
	r.EventHeader.Flags = EVENT_HEADER_FLAG_CLASSIC_HEADER |
			      EVENT_HEADER_FLAG_64_BIT_HEADER;
	r.UserData = (void *)walk_data;
	r.UserDataLength = sizeof(walk_data);
	ASSERT_EQ(0, etw_decoder_new(&dec));
	ASSERT_EQ(0, etw_decode_event_record(dec, &r, &e));
	EXPECT_STREQ("TestProvider", e.provider_name);
	EXPECT_STREQ("TestEvent", e.event_name);
	ASSERT_EQ(9, e.field_count);
	EXPECT_STREQ("Name", e.fields[1].name);
	EXPECT_STREQ("hi", e.fields[1].value);
	/* Numbers need no escaping; strings and composed names may. */
	EXPECT_TRUE(e.fields[0].plain);
	EXPECT_TRUE(e.fields[0].number);
	EXPECT_FALSE(e.fields[1].plain);
	EXPECT_FALSE(e.fields[4].plain);
	EXPECT_STREQ("Values", e.fields[3].name);
	EXPECT_STREQ("[1, 2, 3]", e.fields[3].value);
	EXPECT_EQ(6, e.fields[3].size);
	EXPECT_STREQ("Pairs[0].A", e.fields[4].name);
	EXPECT_STREQ("Pairs[0].B", e.fields[5].name);
	EXPECT_STREQ("x", e.fields[5].value);
	EXPECT_STREQ("Pairs[1].A", e.fields[6].name);
	EXPECT_STREQ("20", e.fields[6].value);
	EXPECT_STREQ("Pairs[1].B", e.fields[7].name);
	EXPECT_STREQ("Color", e.fields[8].name);
	EXPECT_STREQ("Green", e.fields[8].value);
	EXPECT_EQ(&e.fields[8], etw_decoded_field(&e, "Color"));
	EXPECT_EQ(NULL, etw_decoded_field(&e, "Nope"));
	/* Truncated: -EBADMSG, the fields before it kept. */
	r.UserDataLength = 8;
	EXPECT_EQ(-EBADMSG, etw_decode_event_record(dec, &r, &e));
	EXPECT_EQ(3, e.field_count);
	/* WPP and unknown events: not found. */
	r.EventHeader.Flags = EVENT_HEADER_FLAG_TRACE_MESSAGE;
	EXPECT_EQ(-ENOENT, etw_decode_event_record(dec, &r, &e));
	r.EventHeader.Flags = EVENT_HEADER_FLAG_CLASSIC_HEADER;
	r.EventHeader.EventDescriptor.Opcode = 6;
	EXPECT_EQ(-ENOENT, etw_decode_event_record(dec, &r, &e));
	etw_decoder_free(dec);
}

TEST_HARNESS_MAIN
