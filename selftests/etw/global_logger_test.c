// SPDX-License-Identifier: GPL-2.0
/*
 * The Global Logger: the VM's init loads etw.ko with
 * autologger=EtwGlobal:GUID:4:0x10 (selftests/etw/boot/global_logger_test/
 * etwko) before this test.  The session runs from the load, without a
 * logger; the provider registers later and finds itself enabled; its
 * events wait in the session's memory; `etw autologger start`, for an
 * AutoLogger file of the same name, claims the session and writes them,
 * and those that follow, to the file's FileName.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <windows.h>
#include <evntrace.h>
#include <evntprov.h>
#include <etw_etl.h>

#include "kselftest_harness.h"
#include "etw_selftests.h"

#define NAME		"EtwGlobal"
#define FILE_NAME	"/mnt/disk/etw/" NAME ".etl"
#define EVENTS		400

struct props {
	EVENT_TRACE_PROPERTIES p;
	char logger[256];
	char file[1024];
};

static ULONG control(const char *name, struct props *b, ULONG code)
{
	memset(b, 0, sizeof(*b));
	b->p.Wnode.BufferSize = sizeof(*b);
	b->p.LoggerNameOffset = offsetof(struct props, logger);
	b->p.LogFileNameOffset = offsetof(struct props, file);
	return ControlTraceA(0, name, &b->p, code);
}

static void write_events(REGHANDLE reg, int from, int to)
{
	EVENT_DESCRIPTOR d = { .Level = 4, .Keyword = 0x10 };
	EVENT_DATA_DESCRIPTOR data;
	ULONG v;
	int i;

	for (i = from; i < to; i++) {
		d.Id = i;
		v = i;
		EventDataDescCreate(&data, &v, sizeof(v));
		EventWrite(reg, &d, 1, &data);
	}
}

TEST(module_session_buffers_until_the_service_claims_it)
{
	static unsigned char ids[EVENTS];
	struct etw_etl_event ev;
	struct etw_etl *etl;
	struct props b;
	REGHANDLE reg;
	unsigned int i;
	GUID guid;
	FILE *f;
	long n = 0;

	close(etw_open_or_skip(_metadata));
	etw_test_guid((__u8 *)&guid, 0xac);
	/* Started by etw.ko's load: a sequential-file session, no file yet. */
	ASSERT_EQ(0, control(NAME, &b, EVENT_TRACE_CONTROL_QUERY));
	EXPECT_EQ(EVENT_TRACE_FILE_MODE_SEQUENTIAL, b.p.LogFileMode & 0xf);
	EXPECT_EQ(128, b.p.MaximumBuffers);
	EXPECT_STREQ("", b.file);

	ASSERT_EQ(ERROR_SUCCESS, EventRegister(&guid, NULL, NULL, &reg));
	EXPECT_TRUE(EventProviderEnabled(reg, 4, 0x10));
	EXPECT_FALSE(EventProviderEnabled(reg, 5, 0x10));
	EXPECT_FALSE(EventProviderEnabled(reg, 4, 0x20));
	write_events(reg, 0, EVENTS / 2);

	/* The service starts: the AutoLogger of that name claims it. */
	ASSERT_EQ(0, system("mkdir -p /etc/etw/autologger.d"));
	f = fopen("/etc/etw/autologger.d/" NAME ".conf", "w");
	ASSERT_NE(NULL, f);
	fputs("Start=1\nGuid={6f1b0c2a-5d3e-4a8b-9c71-2e4f5a6b7c90}\nFileName=" FILE_NAME "\n", f);
	fclose(f);
	ASSERT_EQ(0, system("etw autologger start"));
	f = fopen("/run/etw/autologger/" NAME ".status", "r");
	ASSERT_NE(NULL, f);
	{
		char line[256] = "";

		EXPECT_NE(NULL, fgets(line, sizeof(line), f));
		EXPECT_STREQ("Status=0\n", line);
		fclose(f);
	}
	write_events(reg, EVENTS / 2, EVENTS);
	EXPECT_EQ(ERROR_SUCCESS, EventUnregister(reg));
	ASSERT_EQ(0, system("etw autologger stop " NAME));
	EXPECT_EQ(ERROR_WMI_INSTANCE_NOT_FOUND, control(NAME, &b, EVENT_TRACE_CONTROL_QUERY));

	/* Every event, written before the claim and after, once. */
	ASSERT_EQ(0, etw_etl_open(FILE_NAME, &etl, NULL));
	EXPECT_EQ(0, etw_etl_get_header(etl)->events_lost);
	while (etw_etl_next(etl, &ev) == 1) {
		if (ev.kind != ETW_ETL_KIND_EVENT || memcmp(&ev.provider, &guid, 16))
			continue;
		n++;
		if (ev.id < EVENTS)
			ids[ev.id]++;
	}
	etw_etl_close(etl);
	EXPECT_EQ(EVENTS, n);
	for (i = 0; i < EVENTS; i++)
		if (ids[i] != 1) {
			EXPECT_EQ(1, ids[i]) TH_LOG("event %u", i);
			break;
		}
}

TEST_HARNESS_MAIN
