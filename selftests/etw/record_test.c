// SPDX-License-Identifier: GPL-2.0
/*
 * The etw command in the VM: `etw record` around the example provider
 * writes an ETL file whose header buffer and records are checked byte by
 * byte here; session subcommands and their one-line Win32 errors.
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include "kselftest_harness.h"
#include "etw_selftests.h"
#include "etw_clock.h"

#define GUID_TEXT "b3864c38-4273-58c5-545b-8b3608343471"

static int have_tools(void)
{
	return !access("/usr/bin/etw", X_OK) && !access("/usr/bin/etw-example-provider", X_OK);
}

/* "b3864c38-4273-..." to the in-memory GUID bytes. */
static int guid_from_text(const char *s, __u8 g[16])
{
	unsigned int d1, d2, d3, b[8];

	if (sscanf(s, "%8x-%4x-%4x-%2x%2x-%2x%2x%2x%2x%2x%2x", &d1, &d2, &d3,
		   &b[0], &b[1], &b[2], &b[3], &b[4], &b[5], &b[6], &b[7]) != 11)
		return -1;
	memcpy(g, &d1, 4);
	g[4] = d2;
	g[5] = d2 >> 8;
	g[6] = d3;
	g[7] = d3 >> 8;
	for (int i = 0; i < 8; i++)
		g[8 + i] = b[i];
	return 0;
}

static unsigned int u32at(const unsigned char *p)
{
	return p[0] | p[1] << 8 | p[2] << 16 | (unsigned int)p[3] << 24;
}

TEST(record_writes_an_etl_file)
{
	static const unsigned char guid[16] = {
		0x38, 0x4c, 0x86, 0xb3, 0x73, 0x42, 0xc5, 0x58,
		0x54, 0x5b, 0x8b, 0x36, 0x08, 0x34, 0x34, 0x71,
	};
	unsigned char *f, *lf;
	unsigned int bufsize, nbuf, i, events = 0, off;
	struct stat st;
	__u64 hz;
	FILE *fp;
	int fd;

	if (!have_tools() || geteuid())
		SKIP(return, "needs root and the etw tools (the VM has them)");
	fd = etw_open_or_skip(_metadata);
	hz = etw_test_clock_frequency(fd);
	close(fd);
	ASSERT_NE(0, hz);
	ASSERT_EQ(0, etw_sh("etw record -o /tmp/rec.etl -b 8 -p " GUID_TEXT ":5 -- "
			"etw-example-provider 7 2>&1", NULL, 0));
	ASSERT_EQ(0, stat("/tmp/rec.etl", &st));
	bufsize = 8192;
	ASSERT_EQ(0, st.st_size % bufsize);
	nbuf = st.st_size / bufsize;
	ASSERT_LE(2, nbuf);
	f = malloc(st.st_size);
	ASSERT_TRUE(f != NULL);
	fp = fopen("/tmp/rec.etl", "rb");
	ASSERT_EQ(1, fread(f, st.st_size, 1, fp));
	fclose(fp);

	/* Buffer 0: the header buffer. */
	EXPECT_EQ(bufsize, u32at(f));
	EXPECT_EQ(4, f[0x36]);				/* BufferType HEADER */
	EXPECT_EQ(0xc0020002, u32at(f + 0x48));	/* SYSTEM64 header event */
	lf = f + 0x48 + 0x20;
	EXPECT_EQ(bufsize, u32at(lf + 0x00));
	EXPECT_EQ(0x0501000a, u32at(lf + 0x04));
	EXPECT_EQ(sysconf(_SC_NPROCESSORS_CONF), u32at(lf + 0x0c));
	EXPECT_EQ(nbuf, u32at(lf + 0x24));		/* BuffersWritten */
	EXPECT_EQ(8, u32at(lf + 0x2c));			/* PointerSize */
	EXPECT_EQ(0, u32at(lf + 0x30));			/* EventsLost */
	EXPECT_NE(0, u32at(lf + 0x34));			/* CpuSpeedInMHz */
	EXPECT_EQ(hz, u32at(lf + 0x100) | (__u64)u32at(lf + 0x104) << 32); /* PerfFreq */
	EXPECT_EQ(1, u32at(lf + 0x110));		/* ClockType */
	EXPECT_NE(0, u32at(lf + 0x10) | u32at(lf + 0x14));	/* EndTime */
	/* The logger name follows, in UTF-16. */
	EXPECT_EQ('e', lf[0x118]);
	EXPECT_EQ(0, lf[0x119]);

	/* The other buffers: the module's, unchanged, with our events. */
	for (i = 1; i < nbuf; i++) {
		unsigned char *b = f + (size_t)i * bufsize;
		unsigned int saved = u32at(b + 4);

		EXPECT_EQ(bufsize, u32at(b));
		EXPECT_EQ(saved, u32at(b + 0x30));	/* Offset = SavedOffset */
		EXPECT_GT(sysconf(_SC_NPROCESSORS_CONF), b[0x28]);
		EXPECT_EQ(0, saved % 8);
		for (off = 0x48; off + 0x50 <= saved; off += ((u32at(b + off) & 0xffff) + 7) & ~7u) {
			if (!memcmp(b + off + 0x18, guid, 16))
				events++;
		}
		for (off = saved; off < bufsize; off++)
			if (b[off] != 0xff)
				break;
		EXPECT_EQ(bufsize, off);
	}
	EXPECT_EQ(7, events);
	free(f);

	/* Our own decoder reads the file back: 7 events of the provider. */
	{
		char out[65536], *p = out;
		int n = 0;

		ASSERT_EQ(0, etw_sh("etw dump --format json /tmp/rec.etl", out, sizeof(out)));
		while ((p = strstr(p, GUID_TEXT)) != NULL) {
			n++;
			p++;
		}
		EXPECT_EQ(7, n) TH_LOG("%s", out);
	}
}

static int count_of(const char *text, const char *what)
{
	int n = 0;

	while ((text = strstr(text, what)) != NULL) {
		n++;
		text++;
	}
	return n;
}

/* EnableProperty items as the decoder shows them: one of each per event. */
TEST(record_with_enable_properties)
{
	static char out[1 << 20];
	char want[64];

	if (!have_tools() || geteuid())
		SKIP(return, "needs root and the etw tools (the VM has them)");
	ASSERT_EQ(0, etw_sh("etw record -o /tmp/props.etl -b 8 "
			"-P sid,ts-id,process-start-key,event-key,stack -p "
			GUID_TEXT ":5 -- etw-example-provider 7 2>&1", NULL, 0));
	ASSERT_EQ(0, etw_sh("etw dump /tmp/props.etl", out, sizeof(out)));
	snprintf(want, sizeof(want), "[SID] S-1-22-1-%u\n", geteuid());
	EXPECT_EQ(7, count_of(out, want)) TH_LOG("%s", out);
	EXPECT_EQ(7, count_of(out, "[TS_ID] ")) TH_LOG("%s", out);
	EXPECT_EQ(7, count_of(out, "[PROCESS_START_KEY] ")) TH_LOG("%s", out);
	EXPECT_EQ(7, count_of(out, "[EVENT_KEY] ")) TH_LOG("%s", out);
	EXPECT_EQ(7, count_of(out, "[STACK_TRACE64] match 0x0 0x")) TH_LOG("%s", out);
	EXPECT_EQ(1, etw_sh("etw record -P no-such-bit -p " GUID_TEXT
			" -- true 2>&1", out, sizeof(out)));
	EXPECT_TRUE(strstr(out, "bad property list") != NULL) TH_LOG("%s", out);
}

/* etw enable --timeout: ERROR_TIMEOUT, named, when a callback never runs. */
TEST(enable_timeout)
{
	char out[4096];
	__u8 g[16];
	__u32 reg;
	int fd;

	if (!have_tools() || geteuid())
		SKIP(return, "needs root and the etw tools (the VM has them)");
	ASSERT_EQ(0, etw_sh("etw start etwtest-cli-t -b 8 2>&1", NULL, 0));
	/* Nothing registered: nothing to wait for. */
	EXPECT_EQ(0, etw_sh("etw enable etwtest-cli-t " GUID_TEXT " -t 50 2>&1",
			    out, sizeof(out))) TH_LOG("%s", out);
	/* Registered here, and this process never reads its notifications. */
	fd = open(ETW_DEV, O_RDWR | O_CLOEXEC);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, guid_from_text(GUID_TEXT, g));
	ASSERT_EQ(0, etw_register_simple(fd, g, &reg));
	EXPECT_EQ(1, etw_sh("etw enable etwtest-cli-t " GUID_TEXT " -l 3 -t 50 2>&1",
			    out, sizeof(out)));
	EXPECT_TRUE(strstr(out, "ERROR_TIMEOUT (1460)") != NULL) TH_LOG("%s", out);
	EXPECT_EQ(1, etw_sh("etw enable etwtest-cli-t " GUID_TEXT " -t x 2>&1",
			    out, sizeof(out)));
	close(fd);
	EXPECT_EQ(0, etw_sh("etw stop etwtest-cli-t 2>&1", NULL, 0));
}

TEST(session_commands_and_errors)
{
	char out[4096];

	if (!have_tools() || geteuid())
		SKIP(return, "needs root and the etw tools (the VM has them)");
	ASSERT_EQ(0, etw_sh("etw start etwtest-cli -b 8 2>&1", out, sizeof(out)));
	EXPECT_TRUE(strstr(out, "etwtest-cli") != NULL);
	EXPECT_EQ(1, etw_sh("etw start etwtest-cli 2>&1", out, sizeof(out)));
	EXPECT_TRUE(strstr(out, "ERROR_ALREADY_EXISTS (183)") != NULL) TH_LOG("%s", out);
	EXPECT_EQ(0, etw_sh("etw enable etwtest-cli " GUID_TEXT " -l 4 -k 0x1 2>&1", out, sizeof(out)));
	/* Shaped like a GUID, so not taken for a provider name. */
	EXPECT_EQ(1, etw_sh("etw enable etwtest-cli b3864c38-4273-58c5-545b-8b36083434zz 2>&1",
			out, sizeof(out)));
	EXPECT_TRUE(strstr(out, "neither a GUID nor a provider name") != NULL) TH_LOG("%s", out);
	EXPECT_EQ(0, etw_sh("etw-example-provider 3", NULL, 0));
	EXPECT_EQ(0, etw_sh("etw list 2>&1", out, sizeof(out)));
	EXPECT_TRUE(strstr(out, "etwtest-cli") != NULL);
	EXPECT_EQ(0, etw_sh("etw query etwtest-cli 2>&1", out, sizeof(out)));
	EXPECT_EQ(0, etw_sh("etw flush etwtest-cli 2>&1", NULL, 0));
	EXPECT_EQ(0, etw_sh("etw stop etwtest-cli 2>&1", NULL, 0));
	EXPECT_EQ(1, etw_sh("etw stop etwtest-cli 2>&1", out, sizeof(out)));
	EXPECT_TRUE(strstr(out, "ERROR_WMI_INSTANCE_NOT_FOUND (4201)") != NULL) TH_LOG("%s", out);
	EXPECT_EQ(2, etw_sh("etw no-such-command 2>&1", NULL, 0));
	/* Every subcommand has --help. */
	EXPECT_EQ(0, etw_sh("for c in start stop query list flush enable disable record version guid; do "
			"etw $c --help | grep -q usage || exit 1; done", NULL, 0));
	/* An unprivileged user gets ERROR_ACCESS_DENIED. */
	{
		int pipefd[2], status;
		size_t len;
		ssize_t n;
		pid_t pid;

		ASSERT_EQ(0, pipe(pipefd));
		pid = fork();
		ASSERT_LE(0, pid);
		if (!pid) {
			dup2(pipefd[1], 2);
			if (setgid(65534) || setuid(65534))
				_exit(100);
			execl("/usr/bin/etw", "etw", "start", "etwtest-user", (char *)NULL);
			_exit(101);
		}
		close(pipefd[1]);
		len = 0;
		while ((n = read(pipefd[0], out + len, sizeof(out) - 1 - len)) > 0)
			len += n;
		out[len] = 0;
		close(pipefd[0]);
		ASSERT_EQ(pid, waitpid(pid, &status, 0));
		EXPECT_EQ(1, WEXITSTATUS(status));
		EXPECT_TRUE(strstr(out, "ERROR_ACCESS_DENIED (5)") != NULL) TH_LOG("%s", out);
	}
}

/* A provider name stands for the GUID Windows derives from it. */
TEST(provider_names)
{
	char out[65536], *p = out;
	int n = 0;

	if (!have_tools() || geteuid())
		SKIP(return, "needs root and the etw tools (the VM has them)");
	ASSERT_EQ(0, etw_sh("etw guid MyProvider", out, sizeof(out)));
	EXPECT_STREQ(GUID_TEXT "\n", out);
	ASSERT_EQ(0, etw_sh("etw guid --braces myprovider sample", out, sizeof(out)));
	EXPECT_STREQ("{" GUID_TEXT "}\n{73e5f193-d48c-5cd7-6eed-84fbce74000f}\n", out);
	EXPECT_EQ(1, etw_sh("etw guid ok $(printf '\\303') 2>&1", out, sizeof(out)));
	EXPECT_TRUE(strstr(out, "ERROR_INVALID_PARAMETER (87)") != NULL) TH_LOG("%s", out);
	EXPECT_TRUE(strstr(out, GUID_TEXT) == NULL);
	EXPECT_EQ(2, etw_sh("etw guid 2>/dev/null", NULL, 0));

	/* The example provider is MyProvider: record it by name. */
	ASSERT_EQ(0, etw_sh("etw record -o /tmp/names.etl -b 8 -p MYPROVIDER:5 -- "
			"etw-example-provider 3 2>&1", NULL, 0));
	ASSERT_EQ(0, etw_sh("etw dump --format json /tmp/names.etl", out, sizeof(out)));
	while ((p = strstr(p, GUID_TEXT)) != NULL) {
		n++;
		p++;
	}
	EXPECT_EQ(3, n) TH_LOG("%s", out);

	ASSERT_EQ(0, etw_sh("etw start etwtest-names -b 8 2>&1", NULL, 0));
	EXPECT_EQ(0, etw_sh("etw enable etwtest-names MyProvider -l 4 2>&1", out, sizeof(out)));
	EXPECT_EQ(0, etw_sh("etw disable etwtest-names MyProvider 2>&1", out, sizeof(out)));
	EXPECT_EQ(0, etw_sh("etw stop etwtest-names 2>&1", NULL, 0));
}

TEST_HARNESS_MAIN
