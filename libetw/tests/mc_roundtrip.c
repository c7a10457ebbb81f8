// SPDX-License-Identifier: GPL-2.0
/*
 * The whole way round, as a program instrumented through mc goes: a
 * provider built from the header `etw mc` makes of
 * testdata/manifests/etw-test-types.man registers with libetw, a file
 * session (a private logger: no module needed) enables it and records
 * every event of the manifest to an ETL file, and both etw dump and the
 * TDH functions, given the manifest, give back the values written.
 * Needs the etw tool of this build.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <windows.h>
#include <evntrace.h>
#include <etw_decode.h>
#include <etw_etl.h>
#include <tdh.h>

#include "kselftest_harness.h"
#include "tdh_consumer.h"

#include "etw-test-types.h"

#ifndef ETW_TOOL_PATH
#define ETW_TOOL_PATH "build/bin/etw"
#endif

#define TYPES_MAN "testdata/manifests/etw-test-types.man"

struct props {
	EVENT_TRACE_PROPERTIES p;
	char names[1024];
};

static void props(struct props *b, const char *file)
{
	memset(b, 0, sizeof(*b));
	b->p.Wnode.BufferSize = sizeof(*b);
	b->p.Wnode.Flags = WNODE_FLAG_TRACED_GUID;
	b->p.Wnode.Guid = ETW_TEST_MANIFEST;
	b->p.LogFileMode = EVENT_TRACE_PRIVATE_LOGGER_MODE |
			   EVENT_TRACE_FILE_MODE_SEQUENTIAL;
	b->p.LoggerNameOffset = sizeof(EVENT_TRACE_PROPERTIES);
	if (file) {
		b->p.LogFileNameOffset = sizeof(EVENT_TRACE_PROPERTIES) + 256;
		snprintf((char *)b + b->p.LogFileNameOffset, 700, "%s", file);
	}
}

static const unsigned char sid[] = { 1, 2, 0, 0, 0, 0, 0, 5, 32, 0, 0, 0, 32, 2, 0, 0 };

/* Every event of the manifest, with the values the tests expect back. */
static void write_all(void)
{
	static unsigned char blob[] = { 1, 2, 3 }, ip6[16] = { 0x20, 0x01, 0x0d, 0xb8 };
	unsigned int vals[2] = { 100, 200 };
	unsigned char f3[3] = { 7, 8, 9 };
	int pts[4] = { 1, -1, 2, -2 };
	GUID g = { 1, 2, 3, { 4, 5, 6, 7, 8, 9, 10, 11 } };
	FILETIME ft = { 0xd53e8000, 0x01d9625a };
	SYSTEMTIME st = { 2023, 3, 3, 29, 15, 12, 38, 17 };

	EventWriteIntsEvent(-1, 2, 0xab, -3, 4, 0x5000, -6, 7, 8, 9, 0x0100007f, 5,
			    0xC0000005, (int)0x80004005, -10, 11, 0x12, 0x13,
			    (void *)0x1234, 1, 1.5f, 2.25);
	EventWriteStringsEvent(u"wide", "ansi", "utf8 \xc3\xa9", u"abcd", 2, u"cw", 2,
			       "ca", 3, blob, &g, &ft, &st, sid, 3, blob, ip6,
			       u"<x/>");
	EventWriteArraysEvent(2, vals, f3, sizeof(pts), pts, 1, 5);
	EventWriteEmptyEvent();
}

static const char *const want[] = {
	"I8=-1;U8=2;U8Hex=0xAB;I16=-3;U16=4;Port=80;I32=-6;U32=7;Pid=8;Tid=9;"
	"Ip4=127.0.0.1;Err=0x5;Nt=0xC0000005;Hr=0x80004005;I64=-10;U64=11;H32=0x12;"
	"H64=0x13;Ptr=0x1234;Bool=true;F32=1.5;F64=2.25;",
	"Wide=wide;Ansi=ansi;Utf8=utf8 \xc3\xa9;Fixed=abcd;CWide=cw;CAnsi=ca;CBin=0x010203;"
	"Guid={00000001-0002-0003-0405-060708090A0B};FileTime=2023-03-29T16:23:44.8361984Z;"
	"SysTime=2023-03-29T15:12:38.017;Sid=S-1-5-32-544;Len=3;Blob=0x010203;"
	"Ip6=2001:db8::;Xml=<x/>;",
	"Count=2;Values=[100, 200];Fixed3=[7, 8, 9];Points[0].X=1;Points[0].Y=-1;"
	"Points[1].X=2;Points[1].Y=-2;State=Busy;Flags=Read | Exec;",
	"",
};

static char out[1 << 16];

TEST(file_session_dump_and_tdh)
{
	char file[] = "/tmp/etw-mc-roundtrip-XXXXXX", cmd[512];
	struct etw_decoded_event dec;
	struct consumer c = { 0 };
	struct etw_decoder *d;
	struct etw_etl_event ev;
	struct etw_etl *etl;
	CONTROLTRACE_ID h;
	struct props b;
	int fd, n = 0;
	size_t len;
	FILE *p;

	fd = mkstemp(file);
	ASSERT_LE(0, fd);
	close(fd);
	ASSERT_EQ(ERROR_SUCCESS, EventRegisterEtw_Test_Manifest());
	props(&b, file);
	ASSERT_EQ(ERROR_SUCCESS, StartTraceA(&h, "etw-mc-roundtrip", &b.p));
	ASSERT_EQ(ERROR_SUCCESS, EnableTraceEx2(h, &ETW_TEST_MANIFEST,
						EVENT_CONTROL_CODE_ENABLE_PROVIDER,
						255, 0, 0, 0, NULL));
	ASSERT_TRUE(EventEnabledArraysEvent());
	write_all();
	props(&b, NULL);
	ASSERT_EQ(ERROR_SUCCESS, ControlTraceA(h, NULL, &b.p, EVENT_TRACE_CONTROL_STOP));
	EXPECT_EQ(0, b.p.EventsLost);
	EXPECT_EQ(ERROR_SUCCESS, EventUnregisterEtw_Test_Manifest());

	/* TDH and the decoder, the manifest loaded. */
	ASSERT_EQ(ERROR_SUCCESS, TdhLoadManifest((PWSTR)u"" TYPES_MAN));
	ASSERT_EQ(0, etw_etl_open(file, &etl, NULL));
	ASSERT_EQ(0, etw_decoder_new(&d));
	etw_etl_rewind(etl, ETW_ETL_ORDER_TIME);
	while (etw_etl_next(etl, &ev) > 0) {
		EVENT_RECORD er = { 0 };

		if (memcmp(&ev.provider, &ETW_TEST_MANIFEST, sizeof(GUID)))
			continue;
		ASSERT_LT(n, 4);
		EXPECT_EQ(n + 1, ev.id);
		memcpy(&er.EventHeader.ProviderId, &ev.provider, sizeof(GUID));
		er.EventHeader.EventDescriptor.Id = ev.id;
		er.EventHeader.EventDescriptor.Version = (UCHAR)ev.version;
		er.EventHeader.Flags = ev.flags;
		er.UserData = (PVOID)ev.data;
		er.UserDataLength = (USHORT)ev.data_size;
		EXPECT_STREQ(want[n], consume(&er, &c));
		EXPECT_EQ(ERROR_SUCCESS, c.status);
		ASSERT_EQ(0, etw_decode_etl_event(d, &ev, &dec));
		EXPECT_EQ(DecodingSourceXMLFile, dec.decoding_source);
		n++;
	}
	EXPECT_EQ(4, n);
	free(c.out);
	etw_decoder_free(d);
	etw_etl_close(etl);
	EXPECT_EQ(ERROR_SUCCESS, TdhUnloadManifest((PWSTR)u"" TYPES_MAN));

	/* etw dump, given the manifest. */
	snprintf(cmd, sizeof(cmd), "%s dump -f json --manifest %s %s", ETW_TOOL_PATH,
		 TYPES_MAN, file);
	p = popen(cmd, "r");
	ASSERT_NE(NULL, p);
	len = fread(out, 1, sizeof(out) - 1, p);
	out[len] = 0;
	EXPECT_EQ(0, pclose(p));
	EXPECT_NE(NULL, strstr(out, "{\"name\": \"Hr\", \"value\": \"0x80004005\"}"));
	EXPECT_NE(NULL, strstr(out, "{\"name\": \"Sid\", \"value\": \"S-1-5-32-544\"}"));
	EXPECT_NE(NULL, strstr(out, "{\"name\": \"Points[1].Y\", \"value\": \"-2\"}"));
	EXPECT_NE(NULL, strstr(out, "{\"name\": \"Flags\", \"value\": \"Read | Exec\"}"));
	EXPECT_NE(NULL, strstr(out, "{\"name\": \"Message\", \"value\": \"Ints: -1 2 port 80 pid 8, error 0x5\\n(100% done)\"}"));
	EXPECT_NE(NULL, strstr(out, "{\"name\": \"Message\", \"value\": \"2 values, state Busy, flags Read | Exec\"}"));
	EXPECT_NE(NULL, strstr(out, "{\"name\": \"Keywords\", \"value\": \"Network, Disk\"}"));
	EXPECT_EQ(NULL, strstr(out, "\"payload\": \"")) TH_LOG("a record was not decoded");
	unlink(file);
}

TEST_HARNESS_MAIN
