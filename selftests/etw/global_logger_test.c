// SPDX-License-Identifier: GPL-2.0
/*
 * The Global Logger: the VM's init loads etw.ko with
 * autologger=EtwGlobal:GUID:4:0x10 (selftests/etw/boot/global_logger_test/
 * etwko) before this test.  The session runs from the load, without a
 * logger; the provider registers later and finds itself enabled; its
 * events wait in the session's memory; `etw autologger start`, for an
 * AutoLogger file of the same name, claims the session and writes them,
 * and those that follow, to the file's FileName.  A parameter that does
 * not parse is logged and the module loads without the session.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "etw_selftests.h"
#include "etw_kmod.h"
#include "boot_session.h"

#define NAME		"EtwGlobal"
#define FILE_NAME	"/mnt/disk/etw/" NAME ".etl"
#define EVENTS		400

TEST(module_session_buffers_until_the_service_claims_it)
{
	static unsigned char ids[EVENTS];
	unsigned int i, lost = ~0u;
	struct props b;
	REGHANDLE reg;
	GUID guid;
	FILE *f;

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
	EXPECT_EQ(EVENTS, count_events(FILE_NAME, &guid, ids, EVENTS, &lost));
	EXPECT_EQ(0, lost);
	for (i = 0; i < EVENTS; i++)
		if (ids[i] != 1) {
			EXPECT_EQ(1, ids[i]) TH_LOG("event %u", i);
			break;
		}
}

/* Unload, waiting for the last logger of the first test to exit. */
static int unload(void)
{
	int i, ret = 0;

	for (i = 0; i < 100; i++) {
		ret = etw_module_unload();
		if (ret != -EAGAIN && ret != -EBUSY)
			break;
		usleep(50000);
	}
	return ret;
}

/* A parameter that does not parse is logged; the module loads without it. */
TEST(a_bad_parameter_is_logged_and_the_module_loads)
{
	const char *ko = getenv("ETW_MODULE");
	const char *args = getenv("ETW_MODULE_ARGS");
	char bad[512];

	close(etw_open_or_skip(_metadata));
	ASSERT_NE(NULL, ko);
	/* The first test stopped the module's session: nothing holds it. */
	ASSERT_EQ(0, unload());
	snprintf(bad, sizeof(bad), "%s autologger=EtwBad:not-a-guid:4", args ? args : "");
	ASSERT_EQ(0, etw_module_load_args(ko, bad));
	EXPECT_EQ(0, system("dmesg | grep -q 'etw: autologger=EtwBad:not-a-guid:4: not NAME:GUID'"));
	EXPECT_EQ(0, access(ETW_DEV, F_OK));
	/* In another process: libetw keeps /dev/etw open, which holds etw.ko. */
	EXPECT_EQ(0, system("etw list | grep -q '^0 sessions$'"));
	ASSERT_EQ(0, unload());
	ASSERT_EQ(0, etw_module_load(ko));
}

TEST_HARNESS_MAIN
