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

#include "kselftest_harness.h"
#include "etw_selftests.h"
#include "boot_session.h"

#define NAME		"EtwBootTest"
#define RUN_FILE	"/run/etw/autologger/" NAME ".etl"
#define DISK_FILE	"/mnt/disk/etw/" NAME ".etl"
#define EVENTS		500

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
	ASSERT_EQ(0, control(NAME, &b, EVENT_TRACE_CONTROL_QUERY))
		TH_LOG("init's log: %s", slurp("/tmp/boot-autologger_test.log"));
	EXPECT_STREQ(RUN_FILE, b.file);
	EXPECT_STREQ("Status=0\nFileName=" RUN_FILE "\nTarget=" DISK_FILE "\n",
		     slurp("/run/etw/autologger/" NAME ".status"));
	EXPECT_EQ(0, stat(RUN_FILE, &st));
	/* Start=0: kept, not started. */
	EXPECT_EQ(ERROR_WMI_INSTANCE_NOT_FOUND, control("EtwBootOff", &b, EVENT_TRACE_CONTROL_QUERY));
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
	ASSERT_EQ(0, control(NAME, &b, EVENT_TRACE_CONTROL_QUERY));
	write_events(reg, EVENTS / 2, EVENTS);
	EXPECT_EQ(ERROR_SUCCESS, EventUnregister(reg));

	/* systemctl stop: the session stops, its file complete. */
	ASSERT_EQ(0, system("etw autologger stop"));
	EXPECT_EQ(ERROR_WMI_INSTANCE_NOT_FOUND, control(NAME, &b, EVENT_TRACE_CONTROL_QUERY));
	n = count_events(DISK_FILE, &guid, ids, EVENTS, &lost);
	EXPECT_EQ(EVENTS, n);
	EXPECT_EQ(0, lost);
	for (i = 0; i < EVENTS; i++)
		if (ids[i] != 1) {
			EXPECT_EQ(1, ids[i]) TH_LOG("event %u", i);
			break;
		}
}

TEST_HARNESS_MAIN
