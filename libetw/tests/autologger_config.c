// SPDX-License-Identifier: GPL-2.0
/*
 * etw autologger without the module: add writes the file the parser
 * reads back; every bad file is refused naming FILE:LINE (or FILE for
 * values that clash) and the value, as Windows checks the key; start
 * writes each session's Status (the Win32 code of StartTrace), a file it
 * cannot read gets ERROR_INVALID_DATA and the others still start;
 * FileMax numbers the files in turn; flush moves a file left in the run
 * folder to its (numbered) FileName, across file systems too; remove;
 * the units pass
 * systemd-analyze verify.  Runs this build's etw in a folder of its own.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "run_cmd.h"

#ifndef ETW_TOOL_PATH
#define ETW_TOOL_PATH "build/bin/etw"
#endif

static char out[1 << 16];

/* A shell command: its exit status; out, what it printed. */
#define run(...) run_into(out, sizeof(out), __VA_ARGS__)

static const char *slurp(const char *path)
{
	static char text[1 << 14];
	size_t n;
	FILE *f = fopen(path, "r");

	if (!f)
		return "";
	n = fread(text, 1, sizeof(text) - 1, f);
	text[n] = '\0';
	fclose(f);
	return text;
}

FIXTURE(al) {
	char dir[64];
	char etw[512];
};

FIXTURE_SETUP(al)
{
	strcpy(self->dir, "/tmp/etw-autologger-XXXXXX");
	ASSERT_NE(NULL, mkdtemp(self->dir));
	snprintf(self->etw, sizeof(self->etw),
		 "ETW_AUTOLOGGER_DIR=%s/conf ETW_AUTOLOGGER_RUN=%s/run ETW_AUTOLOGGER_STATE=%s/state %s",
		 self->dir, self->dir, self->dir, ETW_TOOL_PATH);
	ASSERT_EQ(0, run("mkdir -p %s/conf", self->dir));
}

FIXTURE_TEARDOWN(al)
{
	run("rm -rf %s", self->dir);
}

static void put(const char *dir, const char *name, const char *text)
{
	char path[256];
	FILE *f;

	snprintf(path, sizeof(path), "%s/conf/%s.conf", dir, name);
	f = fopen(path, "w");
	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

TEST_F(al, add_writes_the_values_show_reads_them_back)
{
	char path[128];

	ASSERT_EQ(0, run("%s autologger add Boot -g 11111111-2222-3333-4444-555555555555 "
			 "-o %s/boot.etl -b 128 -m 4 -M 40 -f 2 -c 1 -s 50 -n 3 "
			 "-p MyCompany-MyProvider:4:0x30 -K 0x10 -P sid,stack "
			 "-p {aaaaaaaa-bbbb-cccc-dddd-eeeeeeeeeeee} -F 0x5",
			 self->etw, self->dir)) {
		TH_LOG("%s", out);
	}
	snprintf(path, sizeof(path), "%s/conf/Boot.conf", self->dir);
	snprintf(out, sizeof(out),
		 "# etw AutoLogger Boot (Documentation/autologger.rst)\n"
		 "Start=1\nGuid={11111111-2222-3333-4444-555555555555}\n"
		 "BufferSize=128\nMinimumBuffers=4\nMaximumBuffers=40\nFlushTimer=2\n"
		 "ClockType=1\nFileName=%s/boot.etl\nFileMax=3\nMaxFileSize=50\n"
		 "\n[Provider MyCompany-MyProvider]\nEnableLevel=4\n"
		 "MatchAnyKeyword=0x30\nMatchAllKeyword=0x10\nEnableProperty=0x5\n"
		 "\n[Provider {aaaaaaaa-bbbb-cccc-dddd-eeeeeeeeeeee}]\nEnableLevel=0\n"
		 "EnableFlags=0x5\n", self->dir);
	EXPECT_STREQ(out, slurp(path));
	ASSERT_EQ(0, run("%s autologger show Boot", self->etw));
	EXPECT_NE(NULL, strstr(out, "MatchAllKeyword=0x10\nEnableProperty=0x5\n"));
	EXPECT_NE(NULL, strstr(out, "# Status: not started since boot\n"));
	/* A second add is refused, as logman's "already exists". */
	EXPECT_EQ(1, run("%s autologger add Boot", self->etw));
	EXPECT_NE(NULL, strstr(out, "ERROR_ALREADY_EXISTS (183)"));
	/* No Guid: a new one, kept in the file. */
	ASSERT_EQ(0, run("%s autologger add Other --no-start --real-time", self->etw));
	snprintf(path, sizeof(path), "%s/conf/Other.conf", self->dir);
	EXPECT_NE(NULL, strstr(slurp(path), "Start=0\nGuid={"));
	EXPECT_NE(NULL, strstr(slurp(path), "LogFileMode=0x100\n"));
	ASSERT_EQ(0, run("%s autologger list", self->etw));
	EXPECT_NE(NULL, strstr(out, "Boot                     1     -       no       "));
	EXPECT_NE(NULL, strstr(out, "Other                    0     -       no       (none)\n"));
	EXPECT_NE(NULL, strstr(out, "2 AutoLoggers\n"));
}

TEST_F(al, add_refuses_what_the_file_may_not_hold)
{
	EXPECT_EQ(1, run("%s autologger add A -L 0x8", self->etw));
	EXPECT_NE(NULL, strstr(out, "NEWFILE (0x8) is not allowed for an AutoLogger")) TH_LOG("%s", out);
	EXPECT_EQ(1, run("%s autologger add A --buffering -o /tmp/x.etl", self->etw));
	EXPECT_NE(NULL, strstr(out, "BUFFERING_MODE keeps no file")) TH_LOG("%s", out);
	EXPECT_EQ(1, run("%s autologger add A -p X -F 1 -p Y:1:2 -F 3", self->etw));
	EXPECT_NE(NULL, strstr(out, "EnableFlags and MatchAnyKeyword differ")) TH_LOG("%s", out);
	EXPECT_EQ(1, run("%s autologger add A -n 17", self->etw));
	EXPECT_NE(NULL, strstr(out, "FileMax: '17' is not a number from 0 to 16")) TH_LOG("%s", out);
	EXPECT_EQ(1, run("%s autologger add a/b", self->etw));
	EXPECT_NE(NULL, strstr(out, "is not a session name")) TH_LOG("%s", out);
	EXPECT_EQ(0, run("ls %s/conf | wc -l | grep -qx 0", self->dir));
}

static const struct {
	const char *text;
	const char *error;
} bad[] = {
	{ "Start=1\nGuid=x\n", "A.conf:2: Guid: 'x' is not a GUID" },
	{ "Guid={11111111-2222-3333-4444-555555555555}\n", "A.conf: no Start value" },
	{ "Start=1\n", "A.conf: no Guid value" },
	{ "Start=2\n", "A.conf:1: Start: '2' is not 0 or 1" },
	{ "Start=1\nStart=1\n", "A.conf:2: Start is given twice" },
	{ "Start=1\nFoo=1\n", "A.conf:2: 'Foo' is not an AutoLogger value" },
	{ "Start=1\n\nStatus=0\n", "A.conf:3: Status is kept by etw" },
	{ "Start=1\nFileCounter=2\n", "A.conf:2: FileCounter is kept by etw" },
	{ "Start=1\njunk\n", "A.conf:2: 'junk' is not NAME=VALUE" },
	{ "Start=1\nBufferSize=\n", "A.conf:2: BufferSize: no value" },
	{ "Start=1\nBufferSize=0\n", "A.conf:2: BufferSize: 0 KiB" },
	{ "Start=1\nBufferSize=2048\n", "A.conf:2: BufferSize: '2048' is not a number from 1 to 1024" },
	{ "Start=1\nMinimumBuffers=-1\n", "A.conf:2: MinimumBuffers: '-1' is not a number" },
	{ "Start=1\nClockType=4\n", "A.conf:2: ClockType: '4' is not 1 (QPC), 2 (system time) or 3 (CPU cycles)" },
	{ "Start=1\nClockType=0\n", "A.conf:2: ClockType: '0' is not 1 (QPC)" },
	{ "Start=1\nLogFileMode=0x9\n", "A.conf:2: LogFileMode: EVENT_TRACE_FILE_MODE_NEWFILE (0x8) is not allowed for an AutoLogger" },
	{ "Start=1\nLogFileMode=0x800\n", "A.conf:2: LogFileMode: a private logger" },
	{ "Start=1\nLogFileMode=0x20\n", "A.conf:2: LogFileMode: bits 0x20 are not allowed for an AutoLogger" },
	{ "Start=1\nFileName=rel.etl\n", "A.conf:2: FileName: 'rel.etl' is not an absolute path" },
	{ "Start=1\nFileName=/x/%d.etl\n", "A.conf:2: FileName: no % patterns" },
	{ "Start=1\nFileMax=17\n", "A.conf:2: FileMax: '17' is not a number from 0 to 16" },
	{ "Start=1\nEnableKernelFlags=bogus\n", "A.conf:2: EnableKernelFlags: 'bogus' is not a list of kernel flags" },
	{ "Start=1\nGuid={11111111-2222-3333-4444-555555555555}\nEnableKernelFlags=process\n",
	  "A.conf: EnableKernelFlags: only a system logger (LogFileMode 0x2000000" },
	{ "Start=1\nGuid={11111111-2222-3333-4444-555555555555}\nLogFileMode=0x3\n",
	  "A.conf: LogFileMode: CIRCULAR goes with neither SEQUENTIAL nor APPEND" },
	{ "Start=1\nGuid={11111111-2222-3333-4444-555555555555}\nLogFileMode=0x400\nFileName=/x.etl\n",
	  "A.conf: LogFileMode: BUFFERING_MODE keeps no file" },
	{ "Start=1\nGuid={11111111-2222-3333-4444-555555555555}\nMinimumBuffers=8\nMaximumBuffers=4\n",
	  "A.conf: MaximumBuffers (4) is below MinimumBuffers (8)" },
	{ "Start=1\nGuid={11111111-2222-3333-4444-555555555555}\nLogFileMode=0x100\nFileMax=2\n",
	  "A.conf: FileMax: the session has no file" },
	{ "Start=1\n[Session]\n", "A.conf:2: unknown section [Session]" },
	{ "Start=1\n[Provider\n", "A.conf:2: a section is [Provider GUID-or-NAME]" },
	{ "Start=1\n[Provider ]\n", "A.conf:2: [Provider]: no GUID or name" },
	{ "Start=1\n[Provider {1234567z-2222-3333-4444-555555555555}]\n",
	  "A.conf:2: [Provider {1234567z-2222-3333-4444-555555555555}]: not a GUID or a provider name" },
	{ "Start=1\n[Provider P]\n\n[Provider P]\n", "A.conf:4: [Provider P]: the provider's section is at line 2 already" },
	{ "Start=1\n[Provider P]\nBufferSize=1\n", "A.conf:3: 'BufferSize' is not a provider value" },
	{ "Start=1\n[Provider P]\nEnableLevel=256\n", "A.conf:3: EnableLevel: '256' is not a number from 0 to 255" },
	{ "Start=1\n[Provider P]\nEnabled=2\n", "A.conf:3: Enabled: '2' is not a number from 0 to 1" },
	{ "Start=1\n[Provider P]\nMatchAnyKeyword=0x1ffffffffffffffff\n", "A.conf:3: MatchAnyKeyword: '0x1ffffffffffffffff' is not a number" },
	{ "Start=1\n[Provider P]\nEnableProperty=bogus\n", "A.conf:3: EnableProperty: 'bogus' is not a number or a list" },
	{ "Start=1\n[Provider P]\nEnableLevel=1\nEnableLevel=2\n", "A.conf:4: EnableLevel is given twice" },
	{ "Start=1\nGuid={11111111-2222-3333-4444-555555555555}\n[Provider P]\nMatchAnyKeyword=1\nEnableFlags=2\n",
	  "A.conf:3: [Provider P]: EnableFlags and MatchAnyKeyword differ" },
};

TEST_F(al, every_bad_file_is_named_with_its_line)
{
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		put(self->dir, "A", bad[i].text);
		EXPECT_EQ(1, run("%s autologger show A", self->etw));
		EXPECT_NE(NULL, strstr(out, bad[i].error)) {
			TH_LOG("case %zu: want '%s', got '%s'", i, bad[i].error, out);
		}
	}
	/* The good twin of the last case: comments, spaces, names, both keywords. */
	put(self->dir, "A", "# boot session\n ; a comment\nStart = 1\n"
	    "Guid={11111111-2222-3333-4444-555555555555}\nLogFileMode=0x2000001\n"
	    "EnableKernelFlags=process,thread\n[Provider P]\nMatchAnyKeyword=2\n"
	    "EnableFlags=2\nEnableProperty=sid,ts-id\nEnabled=0\n");
	ASSERT_EQ(0, run("%s autologger show A", self->etw)) TH_LOG("%s", out);
	EXPECT_NE(NULL, strstr(out, "LogFileMode=0x2000001\nEnableKernelFlags=0x3\n"
			       "\n[Provider P]\nEnabled=0\nEnableLevel=0\nMatchAnyKeyword=0x2\n"
			       "EnableProperty=0x3\nEnableFlags=0x2\n")) TH_LOG("%s", out);
}

TEST_F(al, start_writes_each_sessions_status)
{
	char path[128];

	if (!access("/dev/etw", F_OK))
		SKIP(return, "etw.ko is loaded: selftests/etw/autologger_test.sh starts sessions");
	put(self->dir, "Bad", "Start=1\nStart=1\n");
	put(self->dir, "Good", "Start=1\nGuid={11111111-2222-3333-4444-555555555555}\n"
	    "FileName=/nonexistent-etw/good.etl\nFileMax=3\n");
	put(self->dir, "Off", "Start=0\nGuid={11111111-2222-3333-4444-555555555556}\n");
	/* Without /dev/etw StartTrace returns ERROR_NOT_SUPPORTED. */
	EXPECT_EQ(1, run("%s autologger start", self->etw));
	EXPECT_NE(NULL, strstr(out, "Bad.conf:2: Start is given twice")) TH_LOG("%s", out);
	EXPECT_NE(NULL, strstr(out, "etw: autologger: Good: ERROR_NOT_SUPPORTED (50)")) TH_LOG("%s", out);
	snprintf(path, sizeof(path), "%s/run/Bad.status", self->dir);
	EXPECT_STREQ("Status=13\n", slurp(path));
	snprintf(path, sizeof(path), "%s/run/Good.status", self->dir);
	EXPECT_STREQ("Status=50\nFileName=/nonexistent-etw/good.etl.0001\n", slurp(path));
	snprintf(path, sizeof(path), "%s/run/Off.status", self->dir);
	EXPECT_NE(0, access(path, F_OK));
	/* FileMax=3: each start takes the next number, then the first again. */
	EXPECT_EQ(1, run("(%s autologger start Good; %s autologger start Good; %s autologger start Good)",
			 self->etw, self->etw, self->etw));
	snprintf(path, sizeof(path), "%s/run/Good.status", self->dir);
	EXPECT_STREQ("Status=50\nFileName=/nonexistent-etw/good.etl.0001\n", slurp(path));
	snprintf(path, sizeof(path), "%s/state/Good.filecounter", self->dir);
	EXPECT_STREQ("FileCounter=1\n", slurp(path));
	/* --early: a file not under /run waits in the run folder. */
	EXPECT_EQ(1, run("%s autologger start --early Off", self->etw));
	snprintf(path, sizeof(path), "%s/run/Off.status", self->dir);
	snprintf(out, sizeof(out), "Status=50\nFileName=%s/run/Off.etl\n", self->dir);
	EXPECT_STREQ(out, slurp(path));
	/* It did not start: flush has nothing to move. */
	EXPECT_EQ(0, run("%s autologger flush", self->etw)) TH_LOG("%s", out);
	EXPECT_STREQ("", out);
	ASSERT_EQ(0, run("%s autologger list", self->etw));
	EXPECT_NE(NULL, strstr(out, "Good                     1     50      no       /nonexistent-etw/good.etl\n"))
		TH_LOG("%s", out);
	ASSERT_EQ(0, run("%s autologger show Off", self->etw));
	EXPECT_NE(NULL, strstr(out, "# Status=50 ERROR_NOT_SUPPORTED\n")) TH_LOG("%s", out);
	EXPECT_NE(NULL, strstr(out, "run/Off.etl\n# not running\n")) TH_LOG("%s", out);
	/* Nothing runs: stop and flush of every session have nothing to do. */
	EXPECT_EQ(0, run("%s autologger stop", self->etw)) TH_LOG("%s", out);
	/* Without the module no session exists: Windows' answer, and the module named. */
	EXPECT_EQ(1, run("%s autologger stop Good", self->etw));
	EXPECT_NE(NULL, strstr(out, "Good: ERROR_WMI_INSTANCE_NOT_FOUND (4201): no such session: "
			       "etw.ko is not loaded; load it with 'modprobe etw'"))
		TH_LOG("%s", out);
}

TEST_F(al, flush_moves_a_file_left_in_run_to_its_file_name)
{
	char path[128], text[512];
	FILE *f;

	snprintf(text, sizeof(text), "Start=1\nGuid={11111111-2222-3333-4444-555555555555}\n"
		 "FileName=%s/var/log/M.etl\nFileMax=2\n", self->dir);
	put(self->dir, "M", text);
	/* What start --early leaves when the session stopped before /var came. */
	ASSERT_EQ(0, run("mkdir -p %s/run && printf 'ETL bytes' > %s/run/M.etl",
			 self->dir, self->dir));
	snprintf(path, sizeof(path), "%s/run/M.status", self->dir);
	f = fopen(path, "w");
	ASSERT_NE(NULL, f);
	fprintf(f, "Status=0\nFileName=%s/run/M.etl\nTarget=%s/var/log/M.etl\n",
		self->dir, self->dir);
	fclose(f);
	ASSERT_EQ(0, run("%s autologger flush", self->etw)) TH_LOG("%s", out);
	snprintf(text, sizeof(text), "M: %s/var/log/M.etl.0001\n", self->dir);
	EXPECT_STREQ(text, out);
	snprintf(text, sizeof(text), "%s/var/log/M.etl.0001", self->dir);
	EXPECT_STREQ("ETL bytes", slurp(text));
	snprintf(text, sizeof(text), "%s/run/M.etl", self->dir);
	EXPECT_NE(0, access(text, F_OK));
	snprintf(text, sizeof(text), "Status=0\nFileName=%s/var/log/M.etl.0001\n", self->dir);
	EXPECT_STREQ(text, slurp(path));
	/* Moved: a second flush has nothing to do. */
	ASSERT_EQ(0, run("%s autologger flush M", self->etw));
	EXPECT_STREQ("", out);
	/* Across file systems (/dev/shm is a tmpfs): copied, then removed. */
	snprintf(text, sizeof(text), "Start=1\nGuid={11111111-2222-3333-4444-555555555555}\n"
		 "FileName=%s/var/log/S.etl\n", self->dir);
	put(self->dir, "S", text);
	ASSERT_EQ(0, run("printf 'more bytes' > /dev/shm/etw-al-S.etl"));
	snprintf(path, sizeof(path), "%s/run/S.status", self->dir);
	f = fopen(path, "w");
	ASSERT_NE(NULL, f);
	fprintf(f, "Status=0\nFileName=/dev/shm/etw-al-S.etl\nTarget=%s/var/log/S.etl\n", self->dir);
	fclose(f);
	ASSERT_EQ(0, run("%s autologger flush S", self->etw)) TH_LOG("%s", out);
	snprintf(text, sizeof(text), "%s/var/log/S.etl", self->dir);
	EXPECT_STREQ("more bytes", slurp(text));
	EXPECT_NE(0, access("/dev/shm/etw-al-S.etl", F_OK));
	unlink("/dev/shm/etw-al-S.etl");
}

TEST_F(al, remove_deletes_the_file_and_its_status)
{
	ASSERT_EQ(0, run("%s autologger add R -o /tmp/r.etl", self->etw));
	ASSERT_EQ(0, run("%s autologger remove R", self->etw));
	EXPECT_EQ(1, run("%s autologger remove R", self->etw));
	EXPECT_NE(NULL, strstr(out, "R.conf: no such AutoLogger")) TH_LOG("%s", out);
	EXPECT_EQ(1, run("%s autologger show R", self->etw));
	EXPECT_NE(NULL, strstr(out, "autologger: R: no such AutoLogger")) TH_LOG("%s", out);
	EXPECT_EQ(2, run("%s autologger frobnicate", self->etw));
	EXPECT_NE(NULL, strstr(out, "'frobnicate' is not add, remove")) TH_LOG("%s", out);
}

TEST_F(al, the_units_pass_systemd_analyze_verify)
{
	char tool[512];

	ASSERT_NE(NULL, realpath(ETW_TOOL_PATH, tool));
	*strrchr(tool, '/') = '\0';
	ASSERT_EQ(0, run("for u in etw-autologger etw-autologger-flush; do "
			 "sed 's|@BINDIR@|%s|' systemd/$u.service.in > %s/$u.service || exit 1; done && "
			 "systemd-analyze verify --man=no %s/etw-autologger.service %s/etw-autologger-flush.service",
			 tool, self->dir, self->dir, self->dir)) {
		TH_LOG("%s", out);
	}
	EXPECT_STREQ("", out);
	/* The early unit runs before sysinit.target, after the module's load. */
	EXPECT_EQ(0, run("systemd-analyze verify --man=no %s/etw-autologger.service >/dev/null && "
			 "grep -qx 'DefaultDependencies=no' %s/etw-autologger.service && "
			 "grep -qx 'After=systemd-modules-load.service' %s/etw-autologger.service && "
			 "grep -q '^Before=sysinit.target' %s/etw-autologger.service && "
			 "grep -q '^After=.*local-fs.target' %s/etw-autologger-flush.service",
			 self->dir, self->dir, self->dir, self->dir, self->dir));
	/* A unit naming no program fails: the check checks. */
	EXPECT_NE(0, run("sed 's|@BINDIR@|/nonexistent|' systemd/etw-autologger.service.in > %s/bad.service && "
			 "systemd-analyze verify --man=no %s/bad.service", self->dir, self->dir));
}

TEST_HARNESS_MAIN
