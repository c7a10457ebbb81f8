// SPDX-License-Identifier: GPL-2.0
/*
 * AutoLogger at boot: the VM's init starts the sessions of
 * selftests/etw/boot/autologger_test/autologger.d with
 * `etw autologger start --early` before this test, as
 * etw-autologger.service does at boot.  The session runs before the
 * test's provider registers, which finds itself enabled as the file says;
 * its events are recorded; `etw autologger flush` moves the file from
 * /run to its FileName on the disk while it runs, and every event written
 * before and after the move is in the moved file once.
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

#define NAME		"EtwBootTest"
#define RUN_FILE	"/run/etw/autologger/" NAME ".etl"
#define DISK_FILE	"/mnt/disk/etw/" NAME ".etl"
#define EVENTS		500

struct props {
	EVENT_TRACE_PROPERTIES p;
	char logger[256];
	char file[1024];
};

static ULONG query(const char *name, struct props *b)
{
	memset(b, 0, sizeof(*b));
	b->p.Wnode.BufferSize = sizeof(*b);
	b->p.LoggerNameOffset = offsetof(struct props, logger);
	b->p.LogFileNameOffset = offsetof(struct props, file);
	return ControlTraceA(0, name, &b->p, EVENT_TRACE_CONTROL_QUERY);
}

static const char *slurp(const char *path)
{
	static char text[4096];
	size_t n;
	FILE *f = fopen(path, "r");

	if (!f)
		return "(none)";
	n = fread(text, 1, sizeof(text) - 1, f);
	text[n] = '\0';
	fclose(f);
	return text;
}

/* Events of @guid in the file, each id counted in @ids. */
static long count_events(const char *path, const GUID *guid, unsigned char *ids,
			 unsigned int *lost)
{
	struct etw_etl_event ev;
	struct etw_etl *etl;
	long n = 0;

	if (etw_etl_open(path, &etl, NULL))
		return -1;
	*lost = etw_etl_get_header(etl)->events_lost;
	while (etw_etl_next(etl, &ev) == 1) {
		if (ev.kind != ETW_ETL_KIND_EVENT || memcmp(&ev.provider, guid, 16))
			continue;
		n++;
		if (ev.id < EVENTS)
			ids[ev.id]++;
	}
	etw_etl_close(etl);
	return n;
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

TEST(boot_session_runs_before_its_provider_and_its_file_moves)
{
	static unsigned char ids[EVENTS];
	GUID guid;
	REGHANDLE reg;
	struct props b;
	struct stat st;
	unsigned int lost = ~0u, i;
	long n;

	close(etw_open_or_skip(_metadata));
	etw_test_guid((__u8 *)&guid, 0xab);
	/* Started at boot, before this test: Status 0, its file in /run. */
	ASSERT_EQ(0, query(NAME, &b)) TH_LOG("init's log: %s", slurp("/tmp/boot-autologger_test.log"));
	EXPECT_STREQ(RUN_FILE, b.file);
	EXPECT_STREQ("Status=0\nFileName=" RUN_FILE "\nTarget=" DISK_FILE "\n",
		     slurp("/run/etw/autologger/" NAME ".status"));
	EXPECT_EQ(0, stat(RUN_FILE, &st));
	/* Start=0: kept, not started. */
	EXPECT_EQ(ERROR_WMI_INSTANCE_NOT_FOUND, query("EtwBootOff", &b));
	EXPECT_NE(0, access("/run/etw/autologger/EtwBootOff.status", F_OK));

	/* The provider comes later, and finds the file's enable. */
	ASSERT_EQ(ERROR_SUCCESS, EventRegister(&guid, NULL, NULL, &reg));
	EXPECT_TRUE(EventProviderEnabled(reg, 4, 0x10));
	EXPECT_FALSE(EventProviderEnabled(reg, 5, 0x10));
	EXPECT_FALSE(EventProviderEnabled(reg, 4, 0x20));
	write_events(reg, 0, EVENTS / 2);

	/* /var is there: flush moves the file while the session runs. */
	ASSERT_EQ(0, system("etw autologger flush"));
	EXPECT_NE(0, access(RUN_FILE, F_OK));
	EXPECT_EQ(0, stat(DISK_FILE, &st));
	EXPECT_STREQ("Status=0\nFileName=" DISK_FILE "\n",
		     slurp("/run/etw/autologger/" NAME ".status"));
	ASSERT_EQ(0, query(NAME, &b));
	write_events(reg, EVENTS / 2, EVENTS);
	EXPECT_EQ(ERROR_SUCCESS, EventUnregister(reg));

	/* systemctl stop: the session stops, its file complete. */
	ASSERT_EQ(0, system("etw autologger stop"));
	EXPECT_EQ(ERROR_WMI_INSTANCE_NOT_FOUND, query(NAME, &b));
	n = count_events(DISK_FILE, &guid, ids, &lost);
	EXPECT_EQ(EVENTS, n);
	EXPECT_EQ(0, lost);
	for (i = 0; i < EVENTS; i++)
		if (ids[i] != 1) {
			EXPECT_EQ(1, ids[i]) TH_LOG("event %u", i);
			break;
		}
}

TEST_HARNESS_MAIN
