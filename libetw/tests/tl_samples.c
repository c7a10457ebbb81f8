// SPDX-License-Identifier: GPL-2.0
/*
 * Windows' own TraceLogging files (testdata/etl) through etw dump:
 * every TraceLogging event decodes in full, to the fields its
 * EVENT_SCHEMA_TL item names and the values an independent decoder of the
 * same bytes found (ErrorLevel 2, LxPid -1, ...).  Needs the etw tool of
 * this build.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "etl_test.h"
#include "kselftest_harness.h"

#ifndef ETW_TOOL_PATH
#define ETW_TOOL_PATH "build/bin/etw"
#endif

static char out[1 << 20];

/* etw dump --format json of a sample; 0 on success. */
static int dump_sample(const char *name)
{
	char cmd[512];
	size_t n;
	FILE *p;

	snprintf(cmd, sizeof(cmd), "%s dump --format json '%s/%s'", ETW_TOOL_PATH,
		 samples_dir(), name);
	p = popen(cmd, "r");
	if (!p)
		return -1;
	n = fread(out, 1, sizeof(out) - 1, p);
	out[n] = 0;
	return pclose(p);
}

static int count(const char *needle)
{
	int n = 0;

	for (const char *p = out; (p = strstr(p, needle)); p++)
		n++;
	return n;
}

static int has_field(const char *name, const char *value)
{
	char want[512];

	snprintf(want, sizeof(want), "{\"name\": \"%s\", \"value\": \"%s", name, value);
	return strstr(out, want) != NULL;
}

TEST(amsi_trace)
{
	char path[4096];

	SAMPLE_PATH(path, "etlparser-AMSITrace.etl");
	ASSERT_EQ(0, dump_sample("etlparser-AMSITrace.etl"));
	/* 19 TraceLogging events (the samples' README), all decoded. */
	EXPECT_EQ(19, count("\"event_name\": \"AmsiScript\""));
	EXPECT_EQ(19, count("\"provider_name\": \"AmsiTrace\""));
	EXPECT_EQ(19, count("{\"type\": \"EVENT_SCHEMA_TL\""));
	EXPECT_EQ(19, count("[{\"name\": \"Engine\", \"value\": \""));
	EXPECT_EQ(19, count("{\"name\": \"Raw Script\", \"value\": \""));
	EXPECT_EQ(19, count("\"channel\": 11,"));
	/* No raw payload: the header group's records decode too. */
	EXPECT_EQ(0, count("\"payload\": "));
	EXPECT_EQ(1, count("\"event_name\": \"Header\""));
	EXPECT_TRUE(has_field("Engine", "VBScript\""));
	/* Script (UNICODESTRING) and Raw Script (a UINT16 array shown as a string). */
	EXPECT_TRUE(has_field("Script", "IWshShell3.Run(\\\"powershell.exe -nop -w 1 -enc "));
	EXPECT_TRUE(has_field("Raw Script", "IWshShell3.Run(\\\"powershell.exe -nop -w 1 -enc "));
}

TEST(lxcore_provider_group)
{
	char path[4096];

	SAMPLE_PATH(path, "etlparser-lxcore_kernel.etl");
	ASSERT_EQ(0, dump_sample("etlparser-lxcore_kernel.etl"));
	EXPECT_EQ(2, count("\"event_name\": \"BreakPoint\""));
	EXPECT_EQ(2, count("Microsoft.Windows.Subsystem.LxCore group "
			   "4f50731a-89cf-4782-b3e0-dce8c90476ba"));
	EXPECT_EQ(2, count("{\"name\": \"ErrorLevel\", \"value\": \"2\"}"));
	/* GUIDs as TdhFormatProperty (and tracerpt) shows them: in braces. */
	EXPECT_EQ(2, count("{\"name\": \"instanceId\", \"value\": "
			   "\"{00000000-0000-0000-0000-000000000000}\"}"));
	EXPECT_EQ(2, count("{\"name\": \"LxPid\", \"value\": \"-1\"}"));
	EXPECT_EQ(2, count("{\"name\": \"LxTid\", \"value\": \"-1\"}"));
	EXPECT_EQ(2, count("{\"name\": \"LxNs\", \"value\": \"0\"}"));
	EXPECT_EQ(2, count("{\"name\": \"ExecutablePath\", \"value\": \"\"}"));
	EXPECT_TRUE(has_field("Function", "LxpDrvFsTypeMount\"}"));
	EXPECT_TRUE(has_field("Line", "10528\"}"));
	EXPECT_TRUE(has_field("Function", "LxpInstanceStart\"}"));
	EXPECT_TRUE(has_field("Line", "2659\"}"));
	EXPECT_TRUE(has_field("Message", "[0xc0000034] LxpInstanceInitialize\\n\"}"));
	EXPECT_EQ(0, count("\"payload\": "));
	EXPECT_EQ(1, count("\"event_name\": \"Header\""));
}

TEST_HARNESS_MAIN
