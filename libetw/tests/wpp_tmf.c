// SPDX-License-Identifier: GPL-2.0
/*
 * WPP decoding (etw_tmf.h): the TMF parser over every real driver's TMF
 * of testdata/wpp and over a TMF with every item type, records of their
 * messages built here byte by byte and formatted to texts written out
 * here (tracefmt's prefix and line, each argument's text), syntax errors
 * with file:line, the store's directories, search path and ELF section,
 * and truncated or garbage payloads (a marker, never a read past the
 * end).  The fuzz cases mutate TMF texts and payloads with a fixed seed.
 */
#include <dirent.h>
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <etw_tmf.h>

#include "kselftest_harness.h"

#define NEF_DIR		"testdata/wpp/nefarius"
/*
 * The 90 files have 3,865 "#typev" lines: tracepdb writes a message once
 * per function that inlines it, so 2,610 (GUID, number) pairs.
 */
#define NEF_MESSAGES	2610

/* 01/02/2026-03:04:05.678 UTC */
#define T0		134117966456780000ull

/* Two TMF texts this program carries in its .etw.tmf section. */
__attribute__((section(ETW_WPP_TMF_SECTION), used))
static const char section_a[] =
	"// made by hand\n"
	"11111111-2222-3333-4444-555555555555 app // SRC=a.c MJ= MN=\n"
	"#typev a_c10 10 \"%0from a: %10!d!\" // LEVEL=TRACE_LEVEL_ERROR FLAGS=F FUNC=fa\n"
	"{\n"
	"x, ItemLong -- 10\n"
	"}\n";
__attribute__((section(ETW_WPP_TMF_SECTION), used))
static const char section_b[] =
	"11111111-2222-3333-4444-666666666666 app // SRC=b.c MJ= MN=\n"
	"#typev b_c20 11 \"%0from b\" // LEVEL=TRACE_LEVEL_ERROR FLAGS=F FUNC=fb\n"
	"{\n"
	"}\n";

/* Every item type of wpp.md §1.4, one message each. */
static const char all_items[] =
	"// PDB:  test.pdb\n"
	"aaaaaaaa-bbbb-3ccc-8ddd-eeeeeeeeeeee tester // SRC=items.c MJ=Comp MN=Sub\n"
	"#typev items_c1 10 \"%0i=%10!d! u=%11!u! x=%12!x! X=%13!04X! o=%14!o!\" // LEVEL=TRACE_LEVEL_INFORMATION FLAGS=FLAG_ONE FUNC=ints\n"
	"{\n"
	"a, ItemLong -- 10\n"
	"b, ItemULong -- 11\n"
	"c, ItemLong -- 12\n"
	"d, ItemShort -- 13\n"
	"e, ItemLong -- 14\n"
	"}\n"
	"#typev items_c2 11 \"%0c=%10!c! h=%11!hd! ll=%12!I64d! ull=%13!I64u! llx=%14!012I64X! p=%15!p!\" // LEVEL=L FLAGS=F FUNC=more\n"
	"{\n"
	"a, ItemChar -- 10\n"
	"b, ItemShort -- 11\n"
	"c, ItemLongLong -- 12\n"
	"d, ItemULongLong -- 13\n"
	"e, ItemLongLongXX -- 14\n"
	"f, ItemPtr -- 15\n"
	"}\n"
	"#typev items_c3 12 \"%0s=%10!s! S=%11!S! Z=%12!Z! wZ=%13!wZ!\" // LEVEL=L FLAGS=F FUNC=strings\n"
	"{\n"
	"a, ItemString -- 10\n"
	"b, ItemWString -- 11\n"
	"c, ItemPString -- 12\n"
	"d, ItemPWString -- 13\n"
	"}\n"
	"#typev items_c4 13 \"%0%10!s! %11!s! %12!s! %13!s! %14!s! %15!s!\" // LEVEL=L FLAGS=F FUNC=codes\n"
	"{\n"
	"st, ItemNTSTATUS -- 10\n"
	"st2, ItemNTSTATUS -- 11\n"
	"we, ItemWINERROR -- 12\n"
	"hr, ItemHRESULT -- 13\n"
	"g, ItemGuid -- 14\n"
	"unknown, ItemNTSTATUS -- 15\n"
	"}\n"
	"#typev items_c5 14 \"%0ip=%10!s! port=%11!s! t=%12!s! d=%13!s! b=%14!s! irql=%15!s! set=%16!s! e=%17!s! e2=%18!s!\" // LEVEL=L FLAGS=F FUNC=misc\n"
	"{\n"
	"ip, ItemIPAddr -- 10\n"
	"port, ItemPort -- 11\n"
	"t, ItemTimestamp -- 12\n"
	"d, ItemTimeDelta -- 13\n"
	"b, ItemListLong(false,true) -- 14\n"
	"KeGetCurrentIrql(), ItemListByte(Low,APC,DPC) -- 15\n"
	"s, ItemSetLong(R,W,X) -- 16\n"
	"state, ItemEnum(_MachineState) -- 17\n"
	"state2, ItemEnum(_MachineState) -- 18\n"
	"}\n"
	"#typev items_c6 15 \"%0sid=%10!s! f=%11!s! cc=%12!s! hex=%13!s! dbl=%14!s! %15!.2f!\" // LEVEL=L FLAGS=F FUNC=rest\n"
	"{\n"
	"sid, ItemSid -- 10\n"
	"f(a, b), ItemLong -- 11\n"
	"tag, ItemChar4 -- 12\n"
	"buf, ItemHEXDump -- 13\n"
	"d, ItemDouble -- 14\n"
	"d, ItemDouble -- 15\n"
	"}\n"
	"#typev items_c7 16 \"%0%!FUNC! %!LEVEL! %!FLAGS! %!FILE! %!LINE! %!COMPNAME! %!SUBCOMP! 100%% %10!d!\" // LEVEL=TRACE_LEVEL_ERROR FLAGS=FLAG_TWO FUNC=vars\n"
	"{\n"
	"n, ItemLong -- 10\n"
	"}\n"
	"#typev items_c8 17 \"%0v6=%10!s! mac=%11!s! w1=%12!s! w2=%13!s! sb=%14!s! ls=%15!s! uc=%16!u! lo=%17!s! hx=%18!x! ws=%19!s! rs=%20!s! fe=%21!s! id=%22!s! hr=%23!s! %24!08X!|%25!-6s!|%26!5.2s!|\" // LEVEL=L FLAGS=F FUNC=more2\n"
	"{\n"
	"a, ItemIPV6Addr -- 10\n"
	"b, ItemMACAddr -- 11\n"
	"c, ItemWaitTime -- 12\n"
	"d, ItemWaitTime -- 13\n"
	"e, ItemSetByte(A,B) -- 14\n"
	"f, ItemListShort(zero,one) -- 15\n"
	"g, ItemUChar -- 16\n"
	"h, ItemLongLongO -- 17\n"
	"i, ItemULongLong -- 18\n"
	"j, ItemWString -- 19\n"
	"k, ItemRString -- 20\n"
	"l, ItemFlagsEnum(_MachineState) -- 21\n"
	"m, ItemCLSID -- 22\n"
	"n, ItemHRESULT -- 23\n"
	"o, ItemULong -- 24\n"
	"p, ItemString -- 25\n"
	"q, ItemString -- 26\n"
	"}\n"
	"#enumv _MachineState 4\n"
	"{\n"
	"Offline = 0\n"
	"Online = 1\n"
	"4294967295 Failed\n"
	"0x10 Stalled\n"
	"}\n";

static const struct etw_etl_guid items_guid = {
	0xaaaaaaaa, 0xbbbb, 0x3ccc, { 0x8d, 0xdd, 0xee, 0xee, 0xee, 0xee, 0xee, 0xee }
};

/* A WPP record as the ETL reader gives it. */
static struct etw_etl_event rec(const struct etw_etl_guid *g, uint16_t no,
				const void *data, uint32_t n)
{
	struct etw_etl_event ev = {
		.kind = ETW_ETL_KIND_MESSAGE,
		.pointer_size = 8,
		.has = ETW_ETL_HAS_PROVIDER | ETW_ETL_HAS_MESSAGE | ETW_ETL_HAS_IDS |
		       ETW_ETL_HAS_FILETIME | ETW_ETL_HAS_SEQUENCE,
		.processor = 1,
		.provider = *g,
		.id = no,
		.thread_id = 0x929,
		.process_id = 0x4D2,
		.filetime = T0,
		.sequence = 7,
		.data = data,
		.data_size = n,
	};
	return ev;
}

struct bytes {
	uint8_t b[512];
	uint32_t n;
};

static void put(struct bytes *b, uint64_t v, int n)
{
	for (int i = 0; i < n; i++)
		b->b[b->n++] = (uint8_t)(v >> (8 * i));
}

static void put_raw(struct bytes *b, const void *p, uint32_t n)
{
	memcpy(b->b + b->n, p, n);
	b->n += n;
}

static void put_w(struct bytes *b, const char *s, bool nul)
{
	for (; *s; s++)
		put(b, (uint8_t)*s, 2);
	if (nul)
		put(b, 0, 2);
}

struct fx {
	struct etw_tmf_store *s;
	struct etw_wpp_formatter *f;
	struct etw_wpp_message m;
};

static void fx_open(struct __test_metadata *_metadata, struct fx *x)
{
	struct etw_wpp_options o = { .gmt = true };
	struct etw_tmf_error err;

	ASSERT_EQ(0, etw_tmf_store_new(&x->s));
	ASSERT_EQ(0, etw_wpp_formatter_new(&x->f, &o));
	ASSERT_EQ(0, etw_tmf_store_add_text(x->s, all_items, strlen(all_items),
					    "items.tmf", &err)) {
		TH_LOG("%s:%lu: %s", err.file, err.line, err.message);
	}
}

static void fx_close(struct fx *x)
{
	etw_wpp_formatter_free(x->f);
	etw_tmf_store_free(x->s);
}

#define LINE_PREFIX "[1]04D2.0929::01/02/2026-03:04:05.678 [tester]"

static int fmt(struct fx *x, uint16_t no, const struct bytes *b)
{
	struct etw_etl_event ev = rec(&items_guid, no, b->b, b->n);

	return etw_wpp_format(x->f, x->s, &ev, &x->m);
}

TEST(integers_and_prefix)
{
	struct fx x;
	struct bytes b = { 0 };

	fx_open(_metadata, &x);
	put(&b, (uint32_t)-5, 4);
	put(&b, 4000000000u, 4);
	put(&b, 0xbeef, 4);
	put(&b, 0xA, 2);
	put(&b, 8, 4);
	ASSERT_EQ(0, fmt(&x, 10, &b));
	EXPECT_STREQ(LINE_PREFIX "i=-5 u=4000000000 x=beef X=000A o=10", x.m.line);
	EXPECT_STREQ("i=-5 u=4000000000 x=beef X=000A o=10", x.m.text);
	EXPECT_STREQ("tester", x.m.guid_name);
	EXPECT_STREQ("items_c1", x.m.message_name);
	EXPECT_STREQ("ints", x.m.function);
	EXPECT_STREQ("TRACE_LEVEL_INFORMATION", x.m.level);
	EXPECT_STREQ("FLAG_ONE", x.m.flags);
	EXPECT_STREQ("items.c", x.m.file);
	ASSERT_EQ(5, x.m.arg_count);
	EXPECT_STREQ("a", x.m.args[0].name);
	EXPECT_STREQ("ItemLong", x.m.args[0].item);
	EXPECT_STREQ("-5", x.m.args[0].value);
	EXPECT_TRUE(x.m.args[0].number);
	EXPECT_STREQ("beef", x.m.args[2].value);
	EXPECT_FALSE(x.m.args[2].number);

	b.n = 0;
	put(&b, 'A', 1);
	put(&b, (uint16_t)-2, 2);
	put(&b, (uint64_t)-3, 8);
	put(&b, 18000000000000000000ull, 8);
	put(&b, 0x1122334455ull, 8);
	put(&b, 0xffffb40c12345678ull, 8);
	ASSERT_EQ(0, fmt(&x, 11, &b));
	EXPECT_STREQ("c=A h=-2 ll=-3 ull=18000000000000000000 llx=001122334455 p=FFFFB40C12345678",
		     x.m.text);
	fx_close(&x);
}

TEST(pointer_size_from_record)
{
	struct fx x;
	struct bytes b = { 0 };
	struct etw_etl_event ev;

	fx_open(_metadata, &x);
	put(&b, 'A', 1);
	put(&b, 1, 2);
	put(&b, 2, 8);
	put(&b, 3, 8);
	put(&b, 4, 8);
	put(&b, 0x12345678, 4);
	ev = rec(&items_guid, 11, b.b, b.n);
	ev.pointer_size = 4;
	ASSERT_EQ(0, etw_wpp_format(x.f, x.s, &ev, &x.m));
	EXPECT_STREQ("c=A h=1 ll=2 ull=3 llx=000000000004 p=12345678", x.m.text);
	/* Read as 8 bytes, the pointer runs past the end. */
	ev.pointer_size = 8;
	EXPECT_EQ(-EBADMSG, etw_wpp_format(x.f, x.s, &ev, &x.m));
	EXPECT_STREQ("c=A h=1 ll=2 ull=3 llx=000000000004 p=<bad data: %15 ItemPtr does not fit in the 4 bytes left>",
		     x.m.text);
	fx_close(&x);
}

TEST(strings)
{
	struct fx x;
	struct bytes b = { 0 };

	fx_open(_metadata, &x);
	put_raw(&b, "hello", 6);
	put_w(&b, "w\xe9", true);
	put(&b, 3, 2);
	put_raw(&b, "abc", 3);
	put(&b, 4, 2);
	put_w(&b, "xy", false);
	ASSERT_EQ(0, fmt(&x, 12, &b));
	EXPECT_STREQ("s=hello S=w\xc3\xa9 Z=abc wZ=xy", x.m.text);

	/* A string without its NUL: a marker, and the rest is not read. */
	b.n = 0;
	put_raw(&b, "hel", 3);
	EXPECT_EQ(-EBADMSG, fmt(&x, 12, &b));
	EXPECT_STREQ("s=<bad data: %10 ItemString has no NUL in the 3 bytes left> S= Z= wZ=",
		     x.m.text);
	fx_close(&x);
}

TEST(status_codes_and_guids)
{
	static const uint8_t g[16] = {
		0x78, 0x56, 0x34, 0x12, 0xbc, 0x9a, 0xf0, 0xde,
		0x01, 0x23, 0x45, 0x67, 0x89, 0xab, 0xcd, 0xef,
	};
	struct fx x;
	struct bytes b = { 0 };

	fx_open(_metadata, &x);
	put(&b, 0x8000000f, 4);
	put(&b, 0, 4);
	put(&b, 5, 4);
	put(&b, 0x80070057, 4);
	put_raw(&b, g, 16);
	put(&b, 0xC0ABCDEF, 4);
	ASSERT_EQ(0, fmt(&x, 13, &b));
	EXPECT_STREQ("0x8000000f(STATUS_DEVICE_POWERED_OFF) 0x0(STATUS_SUCCESS) "
		     "5(ERROR_ACCESS_DENIED) 0x80070057(E_INVALIDARG) "
		     "12345678-9abc-def0-0123-456789abcdef 0xc0abcdef", x.m.text);
	fx_close(&x);
}

TEST(addresses_times_lists_sets_enums)
{
	static const uint8_t ip[4] = { 192, 168, 1, 20 };
	static const uint8_t port[2] = { 0x01, 0xBB };
	struct fx x;
	struct bytes b = { 0 };

	fx_open(_metadata, &x);
	put_raw(&b, ip, 4);
	put_raw(&b, port, 2);
	put(&b, T0, 8);
	put(&b, 15000000, 8);
	put(&b, 1, 4);
	put(&b, 2, 1);
	put(&b, 0x5 | 0x100, 4);
	put(&b, 1, 4);
	put(&b, (uint32_t)-1, 4);
	ASSERT_EQ(0, fmt(&x, 14, &b));
	EXPECT_STREQ("ip=192.168.1.20 port=443 t=01/02/2026-03:04:05.678 d=1.500s "
		     "b=true irql=DPC set=R | X | 0x100 e=Online e2=Failed", x.m.text);
	fx_close(&x);
}

TEST(sid_char4_hexdump_double)
{
	static const uint8_t sid[12] = { 1, 1, 0, 0, 0, 0, 0, 5, 18, 0, 0, 0 };
	double d = 2.5;
	struct fx x;
	struct bytes b = { 0 };

	fx_open(_metadata, &x);
	put_raw(&b, sid, 12);
	put(&b, 42, 4);
	put_raw(&b, "ABCD", 4);
	put(&b, 3, 2);
	put_raw(&b, "\x01\xab\xff", 3);
	put_raw(&b, &d, 8);
	put_raw(&b, &d, 8);
	ASSERT_EQ(0, fmt(&x, 15, &b));
	EXPECT_STREQ("sid=S-1-5-18 f=42 cc=ABCD hex=01 AB FF dbl=2.500000 2.50", x.m.text);
	EXPECT_STREQ("f(a, b)", x.m.args[1].name);
	fx_close(&x);
}

TEST(more_item_types_and_specs)
{
	static const uint8_t v6[16] = { 0xfe, 0x80, [15] = 1 };
	static const uint8_t mac[6] = { 0x00, 0x1a, 0x2b, 0x3c, 0x4d, 0x5e };
	static const uint8_t clsid[16] = { 1, 0, 0, 0, 2, 0, 3, 0, 4, 5, 6, 7, 8, 9, 10, 11 };
	struct fx x;
	struct bytes b = { 0 };

	fx_open(_metadata, &x);
	put_raw(&b, v6, 16);
	put_raw(&b, mac, 6);
	put(&b, (uint64_t)-20000000, 8);	/* relative: 2 s */
	put(&b, T0, 8);
	put(&b, 3, 1);
	put(&b, 7, 2);
	put(&b, 200, 1);
	put(&b, 8, 8);
	put(&b, 0xabcdef, 8);
	put(&b, 0xD83D, 2);			/* U+1F600 as a surrogate pair */
	put(&b, 0xDE00, 2);
	put(&b, 0xD800, 2);			/* a lone surrogate */
	put(&b, 0, 2);
	put_raw(&b, "raw", 4);
	put(&b, 0, 4);
	put_raw(&b, clsid, 16);
	put(&b, 0x80004005, 4);
	put(&b, 0xAB, 4);
	put_raw(&b, "ab", 3);
	put_raw(&b, "xyz", 4);
	ASSERT_EQ(0, fmt(&x, 17, &b));
	EXPECT_STREQ("v6=fe80::1 mac=00-1a-2b-3c-4d-5e w1=2.000s w2=01/02/2026-03:04:05.678 "
		     "sb=A | B ls=7 uc=200 lo=010 hx=abcdef ws=\xf0\x9f\x98\x80\xef\xbf\xbd rs=raw "
		     "fe=Offline id=00000001-0002-0003-0405-060708090a0b hr=0x80004005(E_FAIL) "
		     "000000AB|ab    |   xy|", x.m.text);
	fx_close(&x);
}

TEST(tmf_variables)
{
	struct fx x;
	struct bytes b = { 0 };

	fx_open(_metadata, &x);
	put(&b, 3, 4);
	ASSERT_EQ(0, fmt(&x, 16, &b));
	EXPECT_STREQ("vars TRACE_LEVEL_ERROR FLAG_TWO items.c 7 Comp Sub 100% 3", x.m.text);
	fx_close(&x);
}

TEST(prefix_options)
{
	struct etw_wpp_options o = {
		.gmt = true,
		.prefix = "%2!s!: %!FUNC!: %8!04x!.%3!04x!: %4!s!: %7!d! %9!d!:",
	};
	struct etw_tmf_store *s;
	struct etw_wpp_formatter *f;
	struct etw_wpp_message m;
	struct etw_etl_event ev;
	uint32_t v = 3;

	ASSERT_EQ(0, etw_tmf_store_new(&s));
	ASSERT_EQ(0, etw_tmf_store_add_text(s, all_items, strlen(all_items), "x", NULL));
	ASSERT_EQ(0, etw_wpp_formatter_new(&f, &o));
	ev = rec(&items_guid, 16, &v, 4);
	ASSERT_EQ(0, etw_wpp_format(f, s, &ev, &m));
	EXPECT_STREQ("items_c7: vars: 04d2.0929: 01/02/2026-03:04:05.678: 7 1:"
		     "vars TRACE_LEVEL_ERROR FLAG_TWO items.c 7 Comp Sub 100% 3", m.line);
	etw_wpp_formatter_free(f);

	o.no_prefix = true;
	ASSERT_EQ(0, etw_wpp_formatter_new(&f, &o));
	ASSERT_EQ(0, etw_wpp_format(f, s, &ev, &m));
	EXPECT_STREQ(m.text, m.line);
	etw_wpp_formatter_free(f);

	/* Local time: the same instant in TZ's zone. */
	setenv("TZ", "UTC+2", 1);
	tzset();
	o.no_prefix = false;
	o.gmt = false;
	o.prefix = "%4!s!|";
	ASSERT_EQ(0, etw_wpp_formatter_new(&f, &o));
	ASSERT_EQ(0, etw_wpp_format(f, s, &ev, &m));
	EXPECT_STREQ("01/02/2026-01:04:05.678|vars TRACE_LEVEL_ERROR FLAG_TWO items.c 7 Comp Sub 100% 3",
		     m.line);
	etw_wpp_formatter_free(f);
	unsetenv("TZ");
	tzset();
	etw_tmf_store_free(s);
}

TEST(no_format_and_not_wpp)
{
	struct fx x;
	struct etw_etl_event ev;
	const struct etw_etl_guid other = { 1, 2, 3, { 4, 5, 6, 7, 8, 9, 10, 11 } };

	fx_open(_metadata, &x);
	ev = rec(&other, 25, NULL, 0);
	EXPECT_EQ(-ENOENT, etw_wpp_format(x.f, x.s, &ev, &x.m));
	EXPECT_STREQ("Unknown( 25): GUID=00000001-0002-0003-0405-060708090a0b (No Format Information found).",
		     x.m.line);
	/* Known GUID, unknown number. */
	ev = rec(&items_guid, 99, NULL, 0);
	EXPECT_EQ(-ENOENT, etw_wpp_format(x.f, x.s, &ev, &x.m));
	ev.kind = ETW_ETL_KIND_EVENT;
	EXPECT_EQ(-EINVAL, etw_wpp_format(x.f, x.s, &ev, &x.m));
	fx_close(&x);
}

/* Each TMF of the folder into the store; the number of files. */
static int add_all(struct __test_metadata *_metadata, struct etw_tmf_store *s)
{
	DIR *d = opendir(NEF_DIR);
	struct dirent *e;
	int files = 0;

	if (!d)
		return -1;
	while ((e = readdir(d))) {
		struct etw_tmf_error err;
		char path[512];

		if (!strstr(e->d_name, ".tmf"))
			continue;
		snprintf(path, sizeof(path), "%s/%s", NEF_DIR, e->d_name);
		EXPECT_EQ(0, etw_tmf_store_add_file(s, path, &err)) {
			TH_LOG("%s:%lu: %s", err.file, err.line, err.message);
		}
		files++;
	}
	closedir(d);
	return files;
}

TEST(real_tmfs_all_parse)
{
	struct etw_tmf_store *s;

	ASSERT_EQ(0, etw_tmf_store_new(&s));
	EXPECT_EQ(90, add_all(_metadata, s));
	EXPECT_EQ(NEF_MESSAGES, etw_tmf_store_count(s));
	etw_tmf_store_free(s);
}

static const struct etw_etl_guid dshidmini_driver = {	/* sys Driver.c */
	0xa3ec8c86, 0x3da7, 0x3295, { 0x4d, 0x7c, 0x86, 0xa1, 0x1d, 0x2f, 0x69, 0x7c }
};
static const struct etw_etl_guid bthps3_connect = {	/* L2CAP.Connect.c */
	0x028f1450, 0xe0d5, 0x3b03, { 0x31, 0xcd, 0x62, 0x26, 0xd7, 0x77, 0x78, 0xf9 }
};
static const struct etw_etl_guid bthps3psm_sideband = {	/* Sideband.c */
	0x03fb1cb4, 0x1c81, 0x30e9, { 0x50, 0xdb, 0x4e, 0xcb, 0x4f, 0x47, 0x59, 0x4e }
};

TEST(real_tmfs_format)
{
	struct etw_wpp_options o = { .gmt = true };
	struct etw_tmf_store *s;
	struct etw_wpp_formatter *f;
	struct etw_wpp_message m;
	struct etw_etl_event ev;
	struct bytes b = { 0 };

	ASSERT_EQ(0, etw_tmf_store_new(&s));
	/* Read from the folder when first asked for. */
	ASSERT_EQ(0, etw_tmf_store_add_dir(s, NEF_DIR));
	EXPECT_EQ(0, etw_tmf_store_count(s));
	ASSERT_EQ(0, etw_wpp_formatter_new(&f, &o));

	put(&b, 0xC000009A, 4);
	ev = rec(&dshidmini_driver, 13, b.b, b.n);
	ASSERT_EQ(0, etw_wpp_format(f, s, &ev, &m));
	EXPECT_STREQ("[1]04D2.0929::01/02/2026-03:04:05.678 [sys] [DriverEntry]WdfWaitLockCreate failed with status 0xc000009a(STATUS_INSUFFICIENT_RESOURCES)",
		     m.line);
	EXPECT_STREQ("status", m.args[0].name);
	EXPECT_STREQ("ItemNTSTATUS", m.args[0].item);
	EXPECT_STREQ("TRACE_LEVEL_ERROR", m.level);
	EXPECT_STREQ("TRACE_DRIVER", m.flags);
	EXPECT_STREQ("Driver.c", m.file);
	EXPECT_GT(etw_tmf_store_count(s), 0);

	ev = rec(&dshidmini_driver, 10, NULL, 0);
	ASSERT_EQ(0, etw_wpp_format(f, s, &ev, &m));
	EXPECT_STREQ(" [DriverEntry]DriverEntry Entry", m.text);

	b.n = 0;
	put(&b, 0x0019ABCDEF12ull, 8);
	ev = rec(&bthps3_connect, 17, b.b, b.n);
	ASSERT_EQ(0, etw_wpp_format(f, s, &ev, &m));
	EXPECT_STREQ(" [L2CAP_PS3_HandleRemoteConnect]Device 0019ABCDEF12 not identified or denied, dropping connection",
		     m.text);
	EXPECT_STREQ("BthPS3", m.guid_name);

	b.n = 0;
	put(&b, 2, 1);
	ev = rec(&bthps3psm_sideband, 30, b.b, b.n);
	ASSERT_EQ(0, etw_wpp_format(f, s, &ev, &m));
	EXPECT_STREQ(" [BthPS3PSM_EvtSaveConfigToRegistry] --> Entry <IRQL=DPC", m.text);

	b.n = 0;
	put(&b, 8, 2);
	put_w(&b, "\\??\\", false);
	put(&b, 8, 4);
	ev = rec(&bthps3psm_sideband, 27, b.b, b.n);
	ASSERT_EQ(0, etw_wpp_format(f, s, &ev, &m));
	EXPECT_STREQ(" [BthPS3PSM_SidebandIoDeviceControl]!! SymbolicLinkName: \\??\\ (length: 8)",
		     m.text);
	EXPECT_STREQ("&linkName", m.args[0].name);
	EXPECT_STREQ("linkName.Length", m.args[1].name);
	etw_wpp_formatter_free(f);
	etw_tmf_store_free(s);
}

TEST(search_path_and_first_definition_wins)
{
	struct etw_tmf_store *s;
	struct etw_wpp_formatter *f;
	struct etw_wpp_message m;
	struct etw_etl_event ev;
	uint32_t st = 0;
	const char *other = "a3ec8c86-3da7-3295-4d7c-86a11d2f697c mine // SRC=x.c\n"
			    "#typev x_c1 13 \"%0mine %10!s!\" // LEVEL= FLAGS= FUNC=\n{\nst, ItemNTSTATUS -- 10\n}\n";

	ASSERT_EQ(0, etw_tmf_store_new(&s));
	ASSERT_EQ(0, etw_tmf_store_add_text(s, other, strlen(other), "mine", NULL));
	ASSERT_EQ(0, etw_tmf_store_add_search_path(s, "/nonexistent;;" NEF_DIR ":/tmp"));
	ASSERT_EQ(0, etw_wpp_formatter_new(&f, NULL));
	ev = rec(&dshidmini_driver, 13, &st, 4);
	ASSERT_EQ(0, etw_wpp_format(f, s, &ev, &m));
	EXPECT_STREQ("mine 0x0(STATUS_SUCCESS)", m.text);
	/* Another number of the GUID still comes from the folder. */
	ev = rec(&dshidmini_driver, 10, NULL, 0);
	ASSERT_EQ(0, etw_wpp_format(f, s, &ev, &m));
	EXPECT_STREQ("sys", m.guid_name);
	etw_wpp_formatter_free(f);
	EXPECT_EQ(-ENOTDIR, etw_tmf_store_add_dir(s, NEF_DIR "/LICENSE"));
	EXPECT_EQ(-ENOENT, etw_tmf_store_add_dir(s, "/nonexistent"));
	etw_tmf_store_free(s);
}

struct bad_case {
	const char *text;
	unsigned long line;
	const char *message;
};

TEST(syntax_errors_name_file_and_line)
{
	static const struct bad_case cases[] = {
		{ "// c\nnot-a-guid x\n", 2, "not a TMF line" },
		{ "#typev a 1 \"x\"\n{\n}\n", 1, "#typev before the message GUID line" },
		{ "11111111-2222-3333-4444-555555555555 a\n#typev n x \"t\"\n", 2,
		  "message number 'x'" },
		{ "11111111-2222-3333-4444-555555555555 a\n#typev n 1 \"t\n", 2,
		  "without its closing quote" },
		{ "11111111-2222-3333-4444-555555555555 a\n#typev n 1 \"t\"\nx\n", 3,
		  "expected '{'" },
		{ "11111111-2222-3333-4444-555555555555 a\n#typev n 1 \"t\"\n{\nx, ItemLong -- 10\n", 4,
		  "missing '}'" },
		{ "11111111-2222-3333-4444-555555555555 a\n#typev n 1 \"t\"\n{\n// c\nx, ItemBogus -- 10\n}\n", 5,
		  "unknown item type 'ItemBogus'" },
		{ "11111111-2222-3333-4444-555555555555 a\n#typev n 1 \"t\"\n{\nx, ItemLong 10\n}\n", 4,
		  "without ' -- <number>'" },
		{ "11111111-2222-3333-4444-555555555555 a\n#typev n 1 \"t\"\n{\nx, ItemListByte -- 10\n}\n", 4,
		  "ItemListByte needs its (names)" },
		{ "11111111-2222-3333-4444-555555555555 a\n#typev n 1 \"t\"\n{\nItemLong -- 10\n}\n", 4,
		  "without '<expression>, '" },
		{ "11111111-2222-3333-4444-555555555555 a\n#enumv E 1\n{\nA = zz\n}\n", 4,
		  "enumeration value 'zz'" },
		{ "11111111-2222-3333-4444-555555555555 a\n#enumv E 1\n{\n7\n}\n", 4,
		  "without '<value> <name>'" },
		{ "11111111-2222-3333-4444-555555555555 a\n#typed x\n", 2,
		  "unknown directive '#typed'" },
		{ "// only comments\n", 0, "no message GUID line" },
	};
	struct etw_tmf_store *s;

	ASSERT_EQ(0, etw_tmf_store_new(&s));
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct etw_tmf_error err = { 0 };

		EXPECT_EQ(-EBADMSG, etw_tmf_store_add_text(s, cases[i].text,
							   strlen(cases[i].text),
							   "bad.tmf", &err));
		EXPECT_STREQ("bad.tmf", err.file);
		EXPECT_EQ(cases[i].line, err.line) {
			TH_LOG("case %zu: %s", i, err.message);
		}
		EXPECT_NE(NULL, strstr(err.message, cases[i].message)) {
			TH_LOG("case %zu: '%s'", i, err.message);
		}
	}
	/* Nothing of a bad text was kept. */
	EXPECT_EQ(0, etw_tmf_store_count(s));
	etw_tmf_store_free(s);
}

TEST(file_errors)
{
	struct etw_tmf_store *s;
	struct etw_tmf_error err;
	char path[] = "/tmp/wpp_tmf_XXXXXX";
	const char *bad = "11111111-2222-3333-4444-555555555555 a\n\n#typev n 1 \"t\"\n{\nx, Item -- 10\n}\n";
	int fd = mkstemp(path);

	ASSERT_GE(fd, 0);
	ASSERT_EQ((ssize_t)strlen(bad), write(fd, bad, strlen(bad)));
	close(fd);
	ASSERT_EQ(0, etw_tmf_store_new(&s));
	EXPECT_EQ(-EBADMSG, etw_tmf_store_add_file(s, path, &err));
	EXPECT_STREQ(path, err.file);
	EXPECT_EQ(5, err.line);
	EXPECT_EQ(-ENOENT, etw_tmf_store_add_file(s, "/nonexistent.tmf", &err));
	EXPECT_STREQ("/nonexistent.tmf", err.file);
	unlink(path);
	etw_tmf_store_free(s);
}

struct seen {
	int n;
	char names[4][ETW_ETL_GUID_STRLEN];
	size_t lens[4];
};

static int collect(void *ctx, const struct etw_etl_guid *g, const char *text,
		   size_t len)
{
	struct seen *s = ctx;

	if (s->n < 4) {
		etw_etl_guid_to_str(g, s->names[s->n]);
		s->lens[s->n] = len;
	}
	s->n++;
	return 0;
}

TEST(elf_section)
{
	struct etw_tmf_store *s;
	struct etw_tmf_error err;
	struct etw_wpp_formatter *f;
	struct etw_wpp_message m;
	struct etw_etl_event ev;
	struct seen seen = { 0 };
	const struct etw_etl_guid a = { 0x11111111, 0x2222, 0x3333,
		{ 0x44, 0x44, 0x55, 0x55, 0x55, 0x55, 0x55, 0x55 } };
	uint32_t v = 9;

	ASSERT_EQ(0, etw_tmf_binary_texts("/proc/self/exe", collect, &seen, &err));
	ASSERT_EQ(2, seen.n);
	/* In the order the linker placed them. */
	if (seen.lens[0] != strlen(section_a)) {
		char t[ETW_ETL_GUID_STRLEN];
		size_t l = seen.lens[0];

		memcpy(t, seen.names[0], sizeof(t));
		memcpy(seen.names[0], seen.names[1], sizeof(t));
		memcpy(seen.names[1], t, sizeof(t));
		seen.lens[0] = seen.lens[1];
		seen.lens[1] = l;
	}
	EXPECT_STREQ("11111111-2222-3333-4444-555555555555", seen.names[0]);
	EXPECT_STREQ("11111111-2222-3333-4444-666666666666", seen.names[1]);
	EXPECT_EQ(strlen(section_a), seen.lens[0]);
	EXPECT_EQ(strlen(section_b), seen.lens[1]);

	ASSERT_EQ(0, etw_tmf_store_new(&s));
	ASSERT_EQ(0, etw_tmf_store_add_binary(s, "/proc/self/exe", &err));
	EXPECT_EQ(2, etw_tmf_store_count(s));
	ASSERT_EQ(0, etw_wpp_formatter_new(&f, NULL));
	ev = rec(&a, 10, &v, 4);
	ASSERT_EQ(0, etw_wpp_format(f, s, &ev, &m));
	EXPECT_STREQ("from a: 9", m.text);
	etw_wpp_formatter_free(f);
	/* Not ELF; ELF without the section. */
	EXPECT_EQ(-ENOEXEC, etw_tmf_store_add_binary(s, NEF_DIR "/LICENSE", &err));
	EXPECT_EQ(-ENOENT, etw_tmf_store_add_binary(s, "/bin/sh", &err));
	EXPECT_NE(NULL, strstr(err.message, "no .etw.tmf section"));
	etw_tmf_store_free(s);
}

/* ---- threads: one store, a formatter each ---- */

struct worker {
	struct etw_tmf_store *s;
	int ok;
};

static void *work(void *arg)
{
	struct worker *w = arg;
	struct etw_wpp_options o = { .gmt = true, .no_prefix = true };
	struct etw_wpp_formatter *f;
	uint32_t st = 0xC000009A;
	uint8_t irql = 1;

	if (etw_wpp_formatter_new(&f, &o))
		return NULL;
	for (int i = 0; i < 2000; i++) {
		struct etw_etl_event ev = i % 2 ? rec(&dshidmini_driver, 13, &st, 4) :
					  rec(&bthps3psm_sideband, 30, &irql, 1);
		struct etw_wpp_message m;

		if (etw_wpp_format(f, w->s, &ev, &m))
			continue;
		w->ok += !strcmp(m.text, i % 2 ?
			" [DriverEntry]WdfWaitLockCreate failed with status 0xc000009a(STATUS_INSUFFICIENT_RESOURCES)" :
			" [BthPS3PSM_EvtSaveConfigToRegistry] --> Entry <IRQL=APC");
	}
	etw_wpp_formatter_free(f);
	return NULL;
}

TEST(threads_share_a_store)
{
	struct worker w[4] = { 0 };
	pthread_t t[4];
	struct etw_tmf_store *s;

	ASSERT_EQ(0, etw_tmf_store_new(&s));
	/* The files are read while the threads format. */
	ASSERT_EQ(0, etw_tmf_store_add_dir(s, NEF_DIR));
	for (int i = 0; i < 4; i++) {
		w[i].s = s;
		ASSERT_EQ(0, pthread_create(&t[i], NULL, work, &w[i]));
	}
	for (int i = 0; i < 4; i++) {
		pthread_join(t[i], NULL);
		EXPECT_EQ(2000, w[i].ok);
	}
	etw_tmf_store_free(s);
}

/* ---- fuzzing: bounded, deterministic ---- */

static uint64_t rnd(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

/* len bytes at the end of a page followed by an inaccessible one. */
static uint8_t *guarded(size_t len, void **base, size_t *map)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	size_t n = (len + page - 1) / page * page + page;
	uint8_t *p = mmap(NULL, n, PROT_READ | PROT_WRITE,
			  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		return NULL;
	mprotect(p + n - page, page, PROT_NONE);
	*base = p;
	*map = n;
	return p + n - page - len;
}

static char *slurp(const char *path, size_t *n)
{
	FILE *f = fopen(path, "rb");
	char *p = malloc(1 << 20);

	if (!f || !p) {
		free(p);
		if (f)
			fclose(f);
		return NULL;
	}
	*n = fread(p, 1, 1 << 20, f);
	fclose(f);
	return p;
}

TEST(fuzz_tmf_parser)
{
	static const char *files[] = {
		NEF_DIR "/a3ec8c86-3da7-3295-4d7c-86a11d2f697c.tmf",
		NEF_DIR "/03fb1cb4-1c81-30e9-50db-4ecb4f47594e.tmf",
		NEF_DIR "/028f1450-e0d5-3b03-31cd-6226d77778f9.tmf",
	};
	uint64_t seed = 0x5eed7f01u;
	int ok = 0, bad = 0;

	for (int k = 0; k < 4; k++) {
		size_t n;
		char *src = k < 3 ? slurp(files[k], &n) : strdup(all_items);

		ASSERT_NE(NULL, src);
		if (k == 3)
			n = strlen(all_items);
		for (int i = 0; i < 1500; i++) {
			size_t len = i % 5 == 0 ? rnd(&seed) % (n + 1) : n;
			void *base;
			size_t map;
			uint8_t *p = guarded(len ? len : 1, &base, &map);
			struct etw_tmf_store *s;
			struct etw_tmf_error err;
			int ret;

			ASSERT_NE(NULL, p);
			memcpy(p, src, len);
			for (int m = rnd(&seed) % 6; m > 0 && len; m--) {
				static const char chars[] = "{}(),-#\"/ \n!%0123456789ItemLong";

				p[rnd(&seed) % len] = rnd(&seed) % 3 ?
					(uint8_t)chars[rnd(&seed) % (sizeof(chars) - 1)] :
					(uint8_t)rnd(&seed);
			}
			ASSERT_EQ(0, etw_tmf_store_new(&s));
			ret = etw_tmf_store_add_text(s, (const char *)p, len, "fuzz", &err);
			ASSERT_TRUE(ret == 0 || ret == -EBADMSG);
			if (ret)
				bad++;
			else
				ok++;
			munmap(base, map);
			etw_tmf_store_free(s);
		}
		free(src);
	}
	/* Both outcomes happened: the mutations reach the parser's checks. */
	EXPECT_GT(ok, 0);
	EXPECT_GT(bad, 0);
}

TEST(fuzz_payloads)
{
	struct etw_tmf_store *s;
	struct etw_wpp_formatter *f;
	uint64_t seed = 0x5eed7f02u;
	int counts[3] = { 0 };

	ASSERT_EQ(0, etw_tmf_store_new(&s));
	ASSERT_EQ(0, etw_tmf_store_add_text(s, all_items, strlen(all_items), "x", NULL));
	ASSERT_EQ(0, etw_tmf_store_add_dir(s, NEF_DIR));
	ASSERT_EQ(0, etw_wpp_formatter_new(&f, NULL));
	for (int i = 0; i < 20000; i++) {
		const struct etw_etl_guid *gs[] = {
			&items_guid, &dshidmini_driver, &bthps3_connect, &bthps3psm_sideband,
		};
		const struct etw_etl_guid *g = gs[rnd(&seed) % 4];
		uint16_t no = g == &items_guid ? 10 + rnd(&seed) % 8 : 10 + rnd(&seed) % 40;
		size_t len = rnd(&seed) % 64;
		void *base;
		size_t map;
		uint8_t *p = guarded(len ? len : 1, &base, &map);
		struct etw_etl_event ev;
		struct etw_wpp_message m;
		int ret;

		ASSERT_NE(NULL, p);
		for (size_t k = 0; k < len; k++)
			p[k] = rnd(&seed) % 4 ? (uint8_t)rnd(&seed) : 0;
		ev = rec(g, no, len ? p : NULL, (uint32_t)len);
		ev.pointer_size = rnd(&seed) % 2 ? 4 : 8;
		ret = etw_wpp_format(f, s, &ev, &m);
		ASSERT_TRUE(ret == 0 || ret == -EBADMSG || ret == -ENOENT);
		ASSERT_NE(NULL, m.line);
		counts[ret == 0 ? 0 : ret == -EBADMSG ? 1 : 2]++;
		munmap(base, map);
	}
	EXPECT_GT(counts[0], 0);
	EXPECT_GT(counts[1], 0);
	EXPECT_GT(counts[2], 0);
	etw_wpp_formatter_free(f);
	etw_tmf_store_free(s);
}

TEST_HARNESS_MAIN
