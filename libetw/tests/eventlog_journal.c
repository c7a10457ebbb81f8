// SPDX-License-Identifier: GPL-2.0
/*
 * etw eventlog against Debian's own systemd-journald, started by each
 * test in a mount namespace of its own (tmpfs over /run/systemd and
 * /run/log, so the machine's journal, if any, is untouched): the
 * Operational events of the Windows-written PowerShell trace journaled
 * with their fields, read back with journalctl -o json; a disabled
 * channel kept out; a payload that does not match its manifest journaled
 * raw; a journal that is down named and counted; the catalog explaining
 * entries (journalctl -x); the entries forwarded by
 * systemd-journal-upload to a systemd-journal-remote on the loopback;
 * the service's unit passing systemd-analyze verify.
 * Needs root (the namespace) and this build's etw.
 */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <libetw.h>

#include "etl_test.h"
#include "kselftest_harness.h"
#include "run_cmd.h"

#ifndef ETW_TOOL_PATH
#define ETW_TOOL_PATH "build/bin/etw"
#endif

#define JOURNALD	"/lib/systemd/systemd-journald"
#define PS_MAN		"testdata/manifests/powershell-krabsetw.man"
#define OPERATIONAL	"Microsoft-Windows-PowerShell/Operational"

static char out[1 << 18];

/* A shell command: its exit status; out, what it printed. */
#define run(...) run_into(out, sizeof(out), __VA_ARGS__)

/* The string value of "KEY" in a journalctl -o json line, or "". */
static const char *json(const char *line, const char *key, char *buf, size_t size)
{
	char pat[96];
	const char *p, *end = strchr(line, '\n');
	size_t n = 0;

	snprintf(pat, sizeof(pat), "\"%s\":\"", key);
	p = strstr(line, pat);
	buf[0] = '\0';
	if (!p || (end && p > end))
		return buf;
	for (p += strlen(pat); *p && *p != '"' && n + 1 < size; p++) {
		if (*p == '\\' && p[1])
			p++;
		buf[n++] = *p;
	}
	buf[n] = '\0';
	return buf;
}

/* The line of out whose ETW_EVENT_ID is id, or NULL. */
static const char *entry(unsigned int id)
{
	char pat[48];
	const char *p;

	snprintf(pat, sizeof(pat), "\"ETW_EVENT_ID\":\"%u\"", id);
	p = strstr(out, pat);
	if (!p)
		return NULL;
	while (p > out && p[-1] != '\n')
		p--;
	return p;
}

static int lines(void)
{
	int n = 0;

	for (const char *p = out; *p; p++)
		n += *p == '\n';
	return n;
}

FIXTURE(jd) {
	pid_t journald;
	char dir[64];
};

static pid_t start_journald(void)
{
	pid_t pid = fork();

	if (pid == 0) {
		int fd = open("/dev/null", O_RDWR);

		dup2(fd, 1);
		dup2(fd, 2);
		execl(JOURNALD, JOURNALD, (char *)NULL);
		_exit(127);
	}
	for (int i = 0; i < 100; i++) {
		struct stat st;

		if (!stat("/run/systemd/journal/socket", &st))
			return pid;
		usleep(50000);
	}
	return -1;
}

static void stop_journald(pid_t pid)
{
	if (pid > 0) {
		kill(pid, SIGTERM);
		waitpid(pid, NULL, 0);
	}
}

static int tmpfs(const char *dir)
{
	char cmd[256];

	snprintf(cmd, sizeof(cmd), "mkdir -p %s", dir);
	if (system(cmd))
		return -1;
	return mount("tmpfs", dir, "tmpfs", 0, NULL);
}

FIXTURE_SETUP(jd)
{
	ASSERT_EQ(0, unshare(CLONE_NEWNS)) {
		TH_LOG("a mount namespace needs root: %s", strerror(errno));
	}
	ASSERT_EQ(0, mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL));
	ASSERT_EQ(0, tmpfs("/run/systemd"));
	ASSERT_EQ(0, tmpfs("/run/log"));
	ASSERT_EQ(0, tmpfs("/var/lib/systemd/catalog"));
	ASSERT_EQ(0, tmpfs("/usr/local/lib/systemd/catalog"));
	snprintf(self->dir, sizeof(self->dir), "/tmp/etw-eventlog-%d", getpid());
	ASSERT_EQ(0, run("rm -rf %s && mkdir -p %s/man && cp %s %s/man/", self->dir,
			 self->dir, PS_MAN, self->dir));
	snprintf(out, sizeof(out), "%s/man", self->dir);
	setenv("ETW_MANIFEST_PATH", out, 1);
	/* Only this folder's manifests: no user or system ones. */
	setenv("HOME", self->dir, 1);
	unsetenv("XDG_DATA_HOME");
	self->journald = start_journald();
	ASSERT_LT(0, self->journald);
}

FIXTURE_TEARDOWN(jd)
{
	stop_journald(self->journald);
	run("rm -rf %s", self->dir);
}

static int eventlog(const char *dir, const char *args)
{
	return run("%s eventlog %s --state %s/state", ETW_TOOL_PATH, args, dir);
}

static int journal(const char *args)
{
	/* journald writes asynchronously: ask it to sync first. */
	run("journalctl --sync");
	return run("journalctl -D /run/log/journal --no-pager %s", args);
}

static int replay_sample(const char *dir)
{
	char path[512];

	snprintf(path, sizeof(path), "%s/krabsetw-powershell.etl", samples_dir());
	return run("%s eventlog replay --state %s/state %s", ETW_TOOL_PATH, dir, path);
}

TEST_F(jd, operational_events_reach_the_journal_with_their_fields)
{
	char v[256], id[33];
	const char *e;
	uint8_t g[16];
	static const char name[] = "a0c1853b-5c40-4b15-8766-3cf1c58f985a/53504/1";

	ASSERT_EQ(0, eventlog(self->dir, "enable " OPERATIONAL));
	ASSERT_EQ(0, replay_sample(self->dir));
	EXPECT_STREQ("3 events journaled, 0 shown raw\n", out);
	ASSERT_EQ(0, journal("-o json SYSLOG_IDENTIFIER=Microsoft-Windows-PowerShell"));
	EXPECT_EQ(3, lines());
	e = entry(53504);
	ASSERT_NE(NULL, e);
	EXPECT_STREQ("IPC listener started in process 16040, application domain DefaultAppDomain.",
		     json(e, "MESSAGE", v, sizeof(v)));
	EXPECT_STREQ("6", json(e, "PRIORITY", v, sizeof(v)));
	/* MESSAGE_ID: the name-based GUID of "provider/id/version". */
	etw_guid_from_name(name, strlen(name), g);
	for (int i = 0; i < 16; i++)
		snprintf(id + 2 * i, 3, "%02x", g[i]);
	EXPECT_STREQ(id, json(e, "MESSAGE_ID", v, sizeof(v)));
	EXPECT_STREQ("Microsoft-Windows-PowerShell", json(e, "SYSLOG_IDENTIFIER", v, sizeof(v)));
	EXPECT_STREQ("16040", json(e, "OBJECT_PID", v, sizeof(v)));
	EXPECT_STREQ("a0c1853b-5c40-4b15-8766-3cf1c58f985a",
		     json(e, "ETW_PROVIDER_GUID", v, sizeof(v)));
	EXPECT_STREQ("1", json(e, "ETW_VERSION", v, sizeof(v)));
	EXPECT_STREQ(OPERATIONAL, json(e, "ETW_CHANNEL", v, sizeof(v)));
	EXPECT_STREQ("4", json(e, "ETW_LEVEL", v, sizeof(v)));
	EXPECT_STREQ("0x0000000000000000", json(e, "ETW_KEYWORDS", v, sizeof(v)));
	EXPECT_STREQ("16040", json(e, "ETW_DATA_PROCESSID", v, sizeof(v)));
	EXPECT_STREQ("DefaultAppDomain", json(e, "ETW_DATA_APPDOMAIN", v, sizeof(v)));
	EXPECT_STREQ("", json(e, "CODE_FILE", v, sizeof(v)));
	e = entry(40961);
	ASSERT_NE(NULL, e);
	EXPECT_STREQ("The console is starting.", json(e, "MESSAGE", v, sizeof(v)));
	EXPECT_STREQ("Console startup", json(e, "ETW_TASK_NAME", v, sizeof(v)));
	EXPECT_STREQ("Start", json(e, "ETW_OPCODE_NAME", v, sizeof(v)));
	/* The Analytic channel's 109 events stay out. */
	EXPECT_EQ(NULL, entry(7937));
}

TEST_F(jd, a_disabled_channel_stays_out)
{
	ASSERT_EQ(0, eventlog(self->dir, "list"));
	EXPECT_NE(NULL, strstr(out, OPERATIONAL "         Operational disabled EventLog-Application      keyword 0x8000000000000000  Microsoft-Windows-PowerShell"));
	ASSERT_EQ(0, replay_sample(self->dir));
	EXPECT_STREQ("0 events journaled, 0 shown raw\n", out);
	ASSERT_EQ(0, eventlog(self->dir, "enable " OPERATIONAL));
	ASSERT_EQ(0, eventlog(self->dir, "disable " OPERATIONAL));
	ASSERT_EQ(0, eventlog(self->dir, "list"));
	EXPECT_NE(NULL, strstr(out, " disabled "));
	ASSERT_EQ(0, replay_sample(self->dir));
	EXPECT_STREQ("0 events journaled, 0 shown raw\n", out);
	EXPECT_EQ(1, eventlog(self->dir, "enable Nobody/Operational"));
	EXPECT_NE(NULL, strstr(out, "no installed manifest has an Admin or Operational channel named 'Nobody/Operational'"));
	EXPECT_EQ(2, eventlog(self->dir, "frobnicate"));
}

/* A PowerShell event its manifest does not have, then one it has. */
TEST_F(jd, a_bad_payload_is_journaled_raw)
{
	static struct img m;
	struct img_header h = { .bits = 64, .cpus = 1, .buffers = 2, .clock = 1,
				.perf_freq = 10000000, .mhz = 1000,
				.start = 133245763580175449ull };
	static const uint8_t ps[16] = { 0x3b, 0x85, 0xc1, 0xa0, 0x40, 0x5c, 0x15, 0x4b,
					0x87, 0x66, 0x3c, 0xf1, 0xc5, 0x8f, 0x98, 0x5a };
	char path[128], v[256];
	uint8_t *r;
	FILE *f;

	ASSERT_EQ(0, eventlog(self->dir, "enable " OPERATIONAL));
	m.buffer_size = 0x1000;
	img_start(&m, &h);
	img_buffer(&m, 0, 1, 0, 1);
	r = img_event(&m, h.start + 10, 9999, 3);
	memcpy(r + 0x18, ps, 16);
	r[0x2a] = 1;		/* version */
	r[0x2b] = 16;		/* the Operational channel */
	r[0x2c] = 4;
	r = img_event(&m, h.start + 20, 40961, 0);
	memcpy(r + 0x18, ps, 16);
	r[0x2a] = 1;
	r[0x2b] = 16;
	r[0x2c] = 4;
	img_finish(&m);
	snprintf(path, sizeof(path), "%s/bad.etl", self->dir);
	f = fopen(path, "wb");
	ASSERT_NE(NULL, f);
	ASSERT_EQ(1, fwrite(m.p, m.len, 1, f));
	fclose(f);
	ASSERT_EQ(0, run("%s eventlog replay --state %s/state %s", ETW_TOOL_PATH,
			 self->dir, path));
	EXPECT_STREQ("2 events journaled, 1 shown raw\n", out);
	ASSERT_EQ(0, journal("-o json SYSLOG_IDENTIFIER=Microsoft-Windows-PowerShell"));
	ASSERT_NE(NULL, entry(9999));
	EXPECT_STREQ("Microsoft-Windows-PowerShell event 9999 is not in its manifest (3 bytes)",
		     json(entry(9999), "MESSAGE", v, sizeof(v)));
	EXPECT_STREQ("ababab", json(entry(9999), "ETW_DATA", v, sizeof(v)));
	ASSERT_NE(NULL, entry(40961));
	EXPECT_STREQ("The console is starting.", json(entry(40961), "MESSAGE", v, sizeof(v)));
}

TEST_F(jd, a_journal_that_is_down_is_named_and_counted)
{
	ASSERT_EQ(0, eventlog(self->dir, "enable " OPERATIONAL));
	stop_journald(self->journald);
	self->journald = 0;
	unlink("/run/systemd/journal/socket");
	EXPECT_EQ(1, replay_sample(self->dir));
	EXPECT_NE(NULL, strstr(out, "eventlog replay: 3 of 3 events could not be written to the journal: ")) {
		TH_LOG("%s", out);
	}
}

TEST_F(jd, the_catalog_explains_entries)
{
	char id[33];
	uint8_t g[16];
	static const char name[] = "a0c1853b-5c40-4b15-8766-3cf1c58f985a/53504/1";

	ASSERT_EQ(0, eventlog(self->dir, "enable " OPERATIONAL));
	ASSERT_EQ(0, run("%s eventlog catalog --state %s/state", ETW_TOOL_PATH, self->dir));
	EXPECT_STREQ("1 catalog files, 3 entries in /usr/local/lib/systemd/catalog; run journalctl --update-catalog\n",
		     out);
	ASSERT_EQ(0, run("journalctl --update-catalog"));
	etw_guid_from_name(name, strlen(name), g);
	for (int i = 0; i < 16; i++)
		snprintf(id + 2 * i, 3, "%02x", g[i]);
	ASSERT_EQ(0, run("journalctl --list-catalog %s", id));
	EXPECT_NE(NULL, strstr(out, "IPC listener started in process @ETW_DATA_PROCESSID@, application domain @ETW_DATA_APPDOMAIN@.")) {
		TH_LOG("%s", out);
	}
	ASSERT_EQ(0, replay_sample(self->dir));
	run("journalctl --sync");
	ASSERT_EQ(0, run("journalctl -D /run/log/journal --no-pager -x MESSAGE_ID=%s", id));
	/* The Subject with this entry's values. */
	EXPECT_NE(NULL, strstr(out, "Subject: IPC listener started in process 16040, application domain DefaultAppDomain.")) {
		TH_LOG("%s", out);
	}
}

TEST_F(jd, entries_are_forwarded_by_journal_upload)
{
	char remote[128], v[256];

	ASSERT_EQ(0, eventlog(self->dir, "enable " OPERATIONAL));
	ASSERT_EQ(0, replay_sample(self->dir));
	journal("-o json");
	snprintf(remote, sizeof(remote), "%s/remote", self->dir);
	ASSERT_EQ(0, run("mkdir -p %s && { /lib/systemd/systemd-journal-remote "
			 "--listen-http=127.0.0.1:19532 --output=%s/ & echo $! > %s/pid; } && "
			 "for i in $(seq 50); do ss -ltn | grep -q 127.0.0.1:19532 && break; sleep 0.1; done; "
			 "timeout 60 /lib/systemd/systemd-journal-upload --follow=no "
			 "--url=http://127.0.0.1:19532 -D /run/log/journal "
			 "--save-state=%s/upload.state; rc=$?; sleep 0.5; kill $(cat %s/pid); "
			 "wait; exit $rc", remote, remote, remote, remote, remote));
	ASSERT_EQ(0, run("journalctl -D %s --no-pager -o json SYSLOG_IDENTIFIER=Microsoft-Windows-PowerShell",
			 remote));
	EXPECT_EQ(3, lines());
	ASSERT_NE(NULL, entry(53504));
	EXPECT_STREQ("DefaultAppDomain", json(entry(53504), "ETW_DATA_APPDOMAIN", v, sizeof(v)));
	EXPECT_STREQ(OPERATIONAL, json(entry(53504), "ETW_CHANNEL", v, sizeof(v)));
}

TEST_F(jd, the_unit_passes_systemd_analyze_verify)
{
	char tool[512];

	ASSERT_NE(NULL, realpath(ETW_TOOL_PATH, tool));
	*strrchr(tool, '/') = '\0';
	ASSERT_EQ(0, run("sed 's|@BINDIR@|%s|' systemd/etw-eventlog.service.in > %s/etw-eventlog.service && "
			 "systemd-analyze verify --man=no %s/etw-eventlog.service",
			 tool, self->dir, self->dir)) {
		TH_LOG("%s", out);
	}
	EXPECT_STREQ("", out);
	/* A unit naming no program fails: the check checks. */
	EXPECT_NE(0, run("sed 's|@BINDIR@|/nonexistent|' systemd/etw-eventlog.service.in > %s/bad.service && "
			 "systemd-analyze verify --man=no %s/bad.service", self->dir, self->dir));
}

TEST_HARNESS_MAIN
