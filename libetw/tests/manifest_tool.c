// SPDX-License-Identifier: GPL-2.0
/*
 * The etw tool's manifest commands, run as a user runs them: etw dump
 * --manifest in every format (the manifest's names, the message with its
 * inserts, the template's fields), an event the manifest does not declare
 * shown raw with a warning, etw manifest install/list/uninstall/check
 * and the decoders finding what was installed, etw mc's refusals.
 * Needs the etw tool of this build.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "etl_test.h"
#include "kselftest_harness.h"

#ifndef ETW_TOOL_PATH
#define ETW_TOOL_PATH "build/bin/etw"
#endif

#define PS_MAN "testdata/manifests/powershell-krabsetw.man"
#define PS_ETL "krabsetw-powershell.etl"

static char out[4 << 20];

/* Run "etw ARGS" (stdout and stderr); its exit status, out its output. */
static int etw(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static int etw(const char *fmt, ...)
{
	char cmd[4096];
	size_t n;
	va_list ap;
	int len;
	FILE *p;

	len = snprintf(cmd, sizeof(cmd), "%s ", ETW_TOOL_PATH);
	va_start(ap, fmt);
	vsnprintf(cmd + len, sizeof(cmd) - len, fmt, ap);
	va_end(ap);
	strncat(cmd, " 2>&1", sizeof(cmd) - strlen(cmd) - 1);
	p = popen(cmd, "r");
	if (!p)
		return -1;
	n = fread(out, 1, sizeof(out) - 1, p);
	out[n] = 0;
	return WEXITSTATUS(pclose(p));
}

static int count(const char *needle)
{
	int n = 0;

	for (const char *p = out; (p = strstr(p, needle)); p++)
		n++;
	return n;
}

TEST(dump_every_format)
{
	char path[4096];

	SAMPLE_PATH(path, PS_ETL);
	ASSERT_EQ(0, etw("dump --manifest %s %s", PS_MAN, path));
	EXPECT_EQ(112, count("Microsoft-Windows-PowerShell / "));
	EXPECT_EQ(101, count("(Task) Command state\n"));
	EXPECT_EQ(1, count("(Message) IPC listener started in process 16040, application domain DefaultAppDomain."));
	EXPECT_EQ(1, count("(Message) The console is starting."));
	EXPECT_EQ(1, count("(Opcode) Start\n"));
	EXPECT_EQ(112 - 3, count("    ContextInfo: ") + count("    ClassName: "));
	EXPECT_EQ(1, count("    AppDomain: DefaultAppDomain\n"));
	EXPECT_EQ(0, count("payload "));

	ASSERT_EQ(0, etw("dump -f json --manifest %s %s", PS_MAN, path));
	EXPECT_EQ(1, count("{\"name\": \"Message\", \"value\": \"IPC listener started in process 16040, application domain DefaultAppDomain.\"}"));
	EXPECT_EQ(1, count("{\"name\": \"ProcessId\", \"value\": \"16040\"}"));
	EXPECT_EQ(112, count("{\"name\": \"Channel\", \"value\": \""));
	EXPECT_EQ(0, count("\"payload\": "));

	ASSERT_EQ(0, etw("dump -f xml --manifest %s %s", PS_MAN, path));
	EXPECT_EQ(112, count("<RenderingInfo Culture=\"en-US\">"));
	EXPECT_EQ(1, count("<Data Name=\"AppDomain\">DefaultAppDomain</Data>"));
	EXPECT_EQ(1, count("<Task>IPC listener</Task>"));
	EXPECT_EQ(0, count("<BinaryEventData>"));

	ASSERT_EQ(0, etw("dump -f csv --manifest %s %s", PS_MAN, path));
	EXPECT_EQ(112, count(",Microsoft-Windows-PowerShell,"));
	/* level_name,task_name,opcode_name,keyword_name,channel_name,message */
	EXPECT_EQ(1, count(",level_name,task_name,opcode_name,keyword_name,channel_name,message,warning,"));
	EXPECT_EQ(101, count(",Information,Command state,State change,,Analytic,\""));
	EXPECT_EQ(1, count(",Information,IPC listener,Open,,Operational,\"IPC listener started in process 16040, application domain DefaultAppDomain.\",,"));

	/* Without the manifest: raw, and no warning (no manifest to disagree). */
	ASSERT_EQ(0, etw("dump %s", path));
	EXPECT_EQ(110, count("    payload "));	/* 2 events have no data */
	EXPECT_EQ(0, count("warning: "));
}

TEST(version_mismatch_shown_raw)
{
	char path[4096], man[] = "/tmp/etw-man-XXXXXX", cmd[8192];
	int fd;

	SAMPLE_PATH(path, PS_ETL);
	fd = mkstemp(man);
	ASSERT_LE(0, fd);
	close(fd);
	/* The same manifest, but event 53504 declared as version 2 only. */
	snprintf(cmd, sizeof(cmd),
		 "sed 's/value=\"53504\" version=\"1\"/value=\"53504\" version=\"2\"/' %s > %s",
		 PS_MAN, man);
	ASSERT_EQ(0, system(cmd));
	ASSERT_EQ(0, etw("dump --manifest %s %s", man, path));
	EXPECT_EQ(1, count("warning: the manifest of Microsoft-Windows-PowerShell has no event 53504 version 1: shown raw"));
	EXPECT_EQ(1, count("    payload 46 bytes"));
	EXPECT_EQ(0, count("AppDomain: "));
	EXPECT_EQ(111, count("(Channel) "));
	ASSERT_EQ(0, etw("dump -f xml --manifest %s %s", man, path));
	EXPECT_EQ(1, count("<Warning>the manifest of Microsoft-Windows-PowerShell has no event 53504 version 1: shown raw</Warning>"));
	ASSERT_EQ(0, etw("dump -f csv --manifest %s %s", man, path));
	EXPECT_EQ(1, count(",,,,,,,the manifest of Microsoft-Windows-PowerShell has no event 53504 version 1: shown raw,"));
	unlink(man);
}

TEST(install_list_uninstall)
{
	char dir[64] = "/tmp/etw-mandir-XXXXXX", path[4096];

	SAMPLE_PATH(path, PS_ETL);
	ASSERT_NE(NULL, mkdtemp(dir));
	ASSERT_EQ(0, etw("manifest install --dir %s/sub %s", dir, PS_MAN));
	EXPECT_EQ(1, count("a0c1853b-5c40-4b15-8766-3cf1c58f985a  Microsoft-Windows-PowerShell (7 events)"));
	ASSERT_EQ(0, etw("manifest list --dir %s/sub", dir));
	EXPECT_EQ(1, count("a0c1853b-5c40-4b15-8766-3cf1c58f985a  Microsoft-Windows-PowerShell"));
	/* Found by every decoder through ETW_MANIFEST_PATH. */
	ASSERT_EQ(0, etw("dump -f json %s", path));
	EXPECT_EQ(112, count("\"payload\": "));
	strncat(dir, "/sub", sizeof(dir) - strlen(dir) - 1);
	setenv("ETW_MANIFEST_PATH", dir, 1);
	ASSERT_EQ(0, etw("dump -f json %s", path));
	EXPECT_EQ(0, count("\"payload\": "));
	EXPECT_EQ(1, count("{\"name\": \"AppDomain\", \"value\": \"DefaultAppDomain\"}"));
	ASSERT_EQ(0, etw("manifest list"));
	EXPECT_EQ(1, count("Microsoft-Windows-PowerShell"));
	unsetenv("ETW_MANIFEST_PATH");
	ASSERT_EQ(0, etw("manifest uninstall --dir %s Microsoft-Windows-PowerShell", dir));
	EXPECT_EQ(1, count("removed from"));
	EXPECT_EQ(1, etw("manifest uninstall --dir %s a0c1853b-5c40-4b15-8766-3cf1c58f985a", dir));
	EXPECT_EQ(1, count("no manifest of provider a0c1853b-5c40-4b15-8766-3cf1c58f985a"));
	ASSERT_EQ(0, etw("manifest list --dir %s", dir));
	EXPECT_EQ(0, count("PowerShell"));
	rmdir(dir);
	*strrchr(dir, '/') = '\0';
	rmdir(dir);
}

TEST(malformed_and_refused)
{
	char bad[] = "/tmp/etw-bad-XXXXXX";
	FILE *f;
	int fd;

	fd = mkstemp(bad);
	ASSERT_LE(0, fd);
	f = fdopen(fd, "w");
	fputs("<instrumentationManifest>\n<instrumentation><events>\n"
	      "<provider name=\"P\" guid=\"{11111111-2222-3333-4444-555555555555}\">\n"
	      "<events><event value=\"1\" template=\"none\"/></events>\n"
	      "</provider></events></instrumentation></instrumentationManifest>\n", f);
	fclose(f);
	EXPECT_EQ(1, etw("manifest check %s", bad));
	EXPECT_EQ(1, count(":4: event 1: no template with tid \"none\""));
	EXPECT_EQ(1, etw("manifest install --dir /tmp %s", bad));
	EXPECT_EQ(1, count(":4: event 1: no template with tid \"none\""));
	EXPECT_EQ(1, etw("mc -h /tmp %s", bad));
	EXPECT_EQ(1, count(":4: event 1: no template with tid \"none\""));
	EXPECT_EQ(1, etw("dump --manifest %s testdata/etl/%s", bad, PS_ETL));
	EXPECT_EQ(1, count(":4: event 1: no template with tid \"none\""));
	unlink(bad);
	/* -km: the kernel module's header, over etw.ko's API. */
	EXPECT_EQ(0, etw("mc -km -h /tmp -z etw_mc_km %s", PS_MAN));
	EXPECT_EQ(0, system("grep -q '^#include <etw/provider_api.h>' /tmp/etw_mc_km.h && "
			    "grep -q '^#define MCGEN_EVENTWRITETRANSFER EtwWriteTransfer' /tmp/etw_mc_km.h && "
			    "! grep -q 'evntprov.h' /tmp/etw_mc_km.h"));
	unlink("/tmp/etw_mc_km.h");
	EXPECT_EQ(0, etw("manifest check %s", PS_MAN));
	EXPECT_EQ(1, count("provider Microsoft-Windows-PowerShell: 7 events, 3 templates"));
	EXPECT_EQ(1, etw("manifest install --from-binary %s", ETW_TOOL_PATH));
	EXPECT_EQ(1, count("carries no manifest"));
	EXPECT_EQ(1, etw("manifest install --from-binary %s", PS_MAN));
	EXPECT_EQ(1, count("is not an ELF file"));
}

/* A program built with etw mc -b carries its manifest (tdh_manifest does). */
TEST(install_from_binary)
{
	char dir[] = "/tmp/etw-binman-XXXXXX", prog[512];

	/* BUILD/bin/etw -> BUILD/tests/tdh_manifest */
	snprintf(prog, sizeof(prog), "%s", ETW_TOOL_PATH);
	ASSERT_NE(NULL, strstr(prog, "bin/etw"));
	strcpy(strstr(prog, "bin/etw"), "tests/tdh_manifest");
	ASSERT_NE(NULL, mkdtemp(dir));
	ASSERT_EQ(0, etw("manifest install --from-binary --dir %s %s", dir, prog));
	EXPECT_EQ(1, count("6f1b9a52-3c1d-4e55-9f0a-2b7c8d4e5a61  Etw-Test-Manifest (4 events)"));
	ASSERT_EQ(0, etw("manifest uninstall --dir %s Etw-Test-Manifest", dir));
	rmdir(dir);
}

/* A field named like a C keyword: its argument is "int_"; the header compiles. */
TEST(mc_keyword_field)
{
	char dir[] = "/tmp/etw-mc-XXXXXX", file[512], cmd[2048];
	FILE *f;

	ASSERT_NE(NULL, mkdtemp(dir));
	snprintf(file, sizeof(file), "%s/kw.man", dir);
	f = fopen(file, "w");
	ASSERT_NE(NULL, f);
	fputs("<instrumentationManifest><instrumentation><events>\n"
	      "<provider name=\"K\" guid=\"{33333333-2222-3333-4444-555555555555}\">\n"
	      "<templates><template tid=\"t\"><data name=\"int\" inType=\"win:UInt32\"/>"
	      "<data name=\"default\" inType=\"win:UnicodeString\"/></template></templates>\n"
	      "<events><event value=\"1\" symbol=\"KwEvent\" template=\"t\"/></events>\n"
	      "</provider></events></instrumentation></instrumentationManifest>\n", f);
	fclose(f);
	ASSERT_EQ(0, etw("mc -um -h %s %s", dir, file));
	snprintf(file, sizeof(file), "%s/kw.h", dir);
	f = fopen(file, "r");
	ASSERT_NE(NULL, f);
	out[fread(out, 1, sizeof(out) - 1, f)] = 0;
	fclose(f);
	EXPECT_EQ(1, count("#define EventWriteKwEvent(int_, default_)"));
	snprintf(cmd, sizeof(cmd), "printf '#include \"kw.h\"\\nint f(void);\\n"
		 "int f(void) { return (int)EventWriteKwEvent(1, u\"x\"); }\\n' | "
		 "cc -std=gnu11 -Wall -Wextra -Werror -fsyntax-only -Ilibetw/include -I%s -x c -",
		 dir);
	EXPECT_EQ(0, system(cmd));
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	system(cmd);
}

TEST_HARNESS_MAIN
