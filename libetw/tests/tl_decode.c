// SPDX-License-Identifier: GPL-2.0
/*
 * libetw's TraceLogging decoder (etw_tl.h) on its own: names, nested
 * structs and arrays, string arrays, socket addresses, custom fields, the errors for a malformed schema, a payload that
 * does not match it, a callback that stops; and every TraceLogging event
 * of Windows' samples, read with the ETL reader, decoded in full.
 */
#include <errno.h>
#include <string.h>

#include <etw_tl.h>

#include "etl_test.h"
#include "kselftest_harness.h"

struct got {
	char text[1024];
	int fields;
	int stop_after;
};

static int collect(void *ctx, const char *name, const char *value)
{
	struct got *g = ctx;
	size_t len = strlen(g->text);

	snprintf(g->text + len, sizeof(g->text) - len, "%s=%s;", name, value);
	return ++g->fields == g->stop_after;
}

/* Event "E": n INT32; s { a UINT8 HEX, w UINT16[] as STRING }; v INT16[2] fixed. */
static const unsigned char schema[] = {
	0x1f, 0x00, 0x00, 'E', 0x00,
	'n', 0x00, 0x07,
	's', 0x00, 0x98, 0x02,
	'a', 0x00, 0x84, 0x04,
	'w', 0x00, 0xc6, 0x02,
	'v', 0x00, 0x25, 0x02, 0x00,
	'g', 0x00, 0x8f, 0x80, 0x80, 0x01,
};

static const unsigned char payload[] = {
	0xfe, 0xff, 0xff, 0xff,			/* n = -2 */
	0xab,					/* s.a */
	0x02, 0x00, 'h', 0x00, 'i', 0x00,	/* s.w = "hi" */
	0x01, 0x00, 0xff, 0xff,			/* v = [1, -1] */
	0x44, 0x33, 0x22, 0x11, 0x66, 0x55, 0x88, 0x77,
	1, 2, 3, 4, 5, 6, 7, 8,			/* g, with a 2-byte field tag */
};

TEST(fields_structs_arrays)
{
	struct got g = { .stop_after = -1 };
	char name[16];

	ASSERT_EQ(1, etw_tl_event_name(schema, sizeof(schema), name, sizeof(name)));
	EXPECT_STREQ("E", name);
	EXPECT_EQ(0, etw_tl_decode(schema, sizeof(schema), payload, sizeof(payload),
				   8, collect, &g));
	EXPECT_STREQ("n=-2;s.a=0xab;s.w=hi;v=[1, -1];"
		     "g=11223344-5566-7788-0102-030405060708;", g.text);
}

TEST(mismatch_and_stop)
{
	struct got g = { .stop_after = -1 };
	unsigned char longer[sizeof(payload) + 1];

	/* One byte left over: an error, after every field was reported. */
	memcpy(longer, payload, sizeof(payload));
	longer[sizeof(payload)] = 0;
	EXPECT_EQ(-EBADMSG, etw_tl_decode(schema, sizeof(schema), longer,
					  sizeof(longer), 8, collect, &g));
	EXPECT_EQ(5, g.fields);
	/* One short: the last field is missing. */
	memset(&g, 0, sizeof(g));
	g.stop_after = -1;
	EXPECT_EQ(-EBADMSG, etw_tl_decode(schema, sizeof(schema), payload,
					  sizeof(payload) - 1, 8, collect, &g));
	EXPECT_EQ(4, g.fields);
	/* The callback stops after two. */
	memset(&g, 0, sizeof(g));
	g.stop_after = 2;
	EXPECT_EQ(-ECANCELED, etw_tl_decode(schema, sizeof(schema), payload,
					    sizeof(payload), 8, collect, &g));
	EXPECT_EQ(2, g.fields);
}

TEST(malformed_schemas)
{
	static const unsigned char no_name[] = { 0x04, 0x00, 0x00, 'E' };
	static const unsigned char open_tag[] = { 0x03, 0x00, 0x80 };
	static const unsigned char no_type[] = { 0x07, 0x00, 0x00, 'E', 0x00, 'x', 0x00 };
	struct got g = { .stop_after = -1 };
	char name[2];

	EXPECT_EQ(-EBADMSG, etw_tl_decode(no_name, sizeof(no_name), NULL, 0, 8, collect, &g));
	EXPECT_EQ(-EBADMSG, etw_tl_decode(open_tag, sizeof(open_tag), NULL, 0, 8, collect, &g));
	EXPECT_EQ(-EBADMSG, etw_tl_decode(no_type, sizeof(no_type), NULL, 0, 8, collect, &g));
	EXPECT_EQ(-EBADMSG, etw_tl_decode(schema, 1, NULL, 0, 8, collect, &g));
	EXPECT_EQ(-EINVAL, etw_tl_decode(NULL, 0, NULL, 0, 8, collect, &g));
	EXPECT_EQ(-EBADMSG, etw_tl_event_name(no_name, sizeof(no_name), name, sizeof(name)));
	EXPECT_EQ(-ENOBUFS, etw_tl_provider_name("\x05\x00" "ab\0", 5, name, sizeof(name)));
	EXPECT_EQ(2, etw_tl_provider_name("\x05\x00" "ab\0", 5, name, 3));
	EXPECT_EQ(0, g.fields);
}

TEST(sids)
{
	static const unsigned char sid_schema[] = {
		0x0a, 0x00, 0x00, 'S', 0x00, 's', 'i', 'd', 0x00, 0x13,
	};
	/* S-1-22-1-1000: revision 1, two sub-authorities, authority 22. */
	static const unsigned char sid[] = {
		1, 2, 0, 0, 0, 0, 0, 22, 1, 0, 0, 0, 0xe8, 0x03, 0, 0,
	};
	struct got g = { .stop_after = -1 };
	char buf[16];

	EXPECT_EQ(0, etw_tl_decode(sid_schema, sizeof(sid_schema), sid, sizeof(sid),
				   8, collect, &g));
	EXPECT_STREQ("sid=S-1-22-1-1000;", g.text);
	EXPECT_EQ(16, etw_etl_sid_to_str(sid, sizeof(sid), buf, sizeof(buf)));
	EXPECT_STREQ("S-1-22-1-1000", buf);
	EXPECT_EQ(-ENOBUFS, etw_etl_sid_to_str(sid, sizeof(sid), buf, 8));
	EXPECT_EQ(-EBADMSG, etw_etl_sid_to_str(sid, 12, buf, sizeof(buf)));
	EXPECT_EQ(-EBADMSG, etw_tl_decode(sid_schema, sizeof(sid_schema), sid, 12,
					  8, collect, &g));
}

/*
 * The forms only the Packed*, Custom and SocketAddress macros write:
 * string arrays, an array of structs, socket addresses, a custom field.
 */
TEST(packed_custom_sockets)
{
	static const unsigned char sch[] = {
		0x36, 0x00, 0x80, 0x00, 'P', 0x00,
		's', 's', 0x00, 0x42,			/* ANSISTRING, variable count */
		'w', 's', 0x00, 0x21, 0x02, 0x00,	/* UNICODESTRING, fixed 2 */
		'r', 0x00, 0xd8, 0x02,			/* array of struct, 2 members */
		'x', 0x00, 0x07, 'y', 0x00, 0x87, 0x04,
		'v', '4', 0x00, 0x8e, 0x0a,		/* BINARY, SOCKETADDRESS */
		'v', '6', 0x00, 0x8e, 0x0a,
		'c', 0x00, 0x65, 0x02, 0x00, 0xaa, 0xbb, /* custom, protocol 5 */
		't', 0x00, 0xf8, 0x80, 0x80, 0x80, 0x80, 0x00, 0x00, 0x00, /* protocol 24, tagged */
	};
	static const unsigned char data[] = {
		2, 0, 'a', 'b', 0, 'c', 0,
		'x', 0, 0, 0, 'y', 0, 0, 0,
		2, 0, 1, 0, 0, 0, 0xff, 0, 0, 0, 2, 0, 0, 0, 0x10, 0, 0, 0,
		16, 0, 2, 0, 0x01, 0xbb, 192, 168, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0,
		28, 0, 23, 0, 0x00, 0x50, 0, 0, 0, 0,
		0x20, 0x01, 0x0d, 0xb8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0,
		3, 0, 1, 2, 3,
		0, 0,
	};
	struct got g = { .stop_after = -1 };

	EXPECT_EQ(0, etw_tl_decode(sch, sizeof(sch), data, sizeof(data), 8, collect, &g));
	EXPECT_STREQ("ss=[ab, c];ws=[x, y];r[0].x=1;r[0].y=0x000000ff;"
		     "r[1].x=2;r[1].y=0x00000010;v4=192.168.0.1:443;"
		     "v6=[2001:db8::1]:80;c=010203;t=;", g.text);
	/* A custom value longer than the payload is an error. */
	memset(&g, 0, sizeof(g));
	g.stop_after = -1;
	EXPECT_EQ(-EBADMSG, etw_tl_decode(sch, sizeof(sch), data, sizeof(data) - 3, 8,
					  collect, &g));
	EXPECT_EQ(8, g.fields);
}

/* Every TraceLogging event of a Windows sample decodes with no error. */
static void sample_decodes(struct __test_metadata *_metadata, const char *file,
			   int events, int fields)
{
	struct etw_etl_error err;
	struct etw_etl_event ev;
	struct etw_etl *etl;
	char path[4096];
	int n = 0, total = 0;

	SAMPLE_PATH(path, file);
	ASSERT_EQ(0, etw_etl_open(path, &etl, &err)) TH_LOG("%s", err.message);
	while (etw_etl_next(etl, &ev) == 1) {
		for (uint32_t i = 0; i < ev.ext_count; i++) {
			struct got g = { .stop_after = -1 };

			if (ev.ext[i].type != ETW_ETL_EXT_EVENT_SCHEMA_TL)
				continue;
			EXPECT_EQ(0, etw_tl_decode(ev.ext[i].data, ev.ext[i].size, ev.data,
						   ev.data_size, ev.pointer_size, collect, &g));
			n++;
			total += g.fields;
		}
	}
	etw_etl_close(etl);
	EXPECT_EQ(events, n);
	EXPECT_EQ(events * fields, total);
}

TEST(windows_samples)
{
	sample_decodes(_metadata, "etlparser-AMSITrace.etl", 19, 3);
	sample_decodes(_metadata, "etlparser-lxcore_kernel.etl", 2, 9);
}

TEST_HARNESS_MAIN
