// SPDX-License-Identifier: GPL-2.0
/*
 * etw eventlog run, the service, on real sessions: Debian's
 * systemd-journald started by the test, the service started with one
 * manifest installed, a provider writing to its Operational (Application
 * isolation), Admin (System isolation) and Analytic channels, a second
 * manifest installed while it runs, a channel disabled while it runs,
 * SIGTERM; then every entry read back with journalctl -o json.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <windows.h>
#include <evntprov.h>
#include <evntrace.h>

#include "kselftest_harness.h"

#define DIR		"/tmp/eventlog"
#define JOURNALD	"/lib/systemd/systemd-journald"

/* Channels in order: Operational bit 63, Admin 62, Analytic 61. */
static const char manifest1[] =
	"<?xml version=\"1.0\"?>\n"
	"<instrumentationManifest xmlns=\"http://schemas.microsoft.com/win/2004/08/events\"\n"
	" xmlns:win=\"http://manifests.microsoft.com/win/2004/08/windows/events\">\n"
	"<instrumentation><events>\n"
	"<provider name=\"Etw-Eventlog-Test\" guid=\"{5d0a3c4e-7b21-4f6a-9c3d-1e2f3a4b5c6d}\"\n"
	" symbol=\"P\" resourceFileName=\"x\" messageFileName=\"x\">\n"
	"<channels>\n"
	"<channel name=\"Etw-Eventlog-Test/Operational\" chid=\"Op\" type=\"Operational\" enabled=\"true\"/>\n"
	"<channel name=\"Etw-Eventlog-Test/Admin\" chid=\"Ad\" type=\"Admin\" isolation=\"System\" enabled=\"true\"/>\n"
	"<channel name=\"Etw-Eventlog-Test/Analytic\" chid=\"An\" type=\"Analytic\" enabled=\"true\"/>\n"
	"</channels>\n"
	"<templates><template tid=\"T\">\n"
	"<data name=\"Count\" inType=\"win:UInt32\"/>\n"
	"<data name=\"Name\" inType=\"win:AnsiString\"/>\n"
	"</template></templates>\n"
	"<events>\n"
	"<event value=\"1\" version=\"0\" level=\"win:Informational\" channel=\"Op\" template=\"T\"\n"
	" message=\"Count %1 for %2.\"/>\n"
	"<event value=\"2\" version=\"0\" level=\"win:Error\" channel=\"Ad\" message=\"Something failed.\"/>\n"
	"<event value=\"3\" version=\"0\" level=\"win:Verbose\" channel=\"An\" message=\"Chatter.\"/>\n"
	"</events>\n"
	"</provider>\n"
	"</events></instrumentation></instrumentationManifest>\n";

static const char manifest2[] =
	"<?xml version=\"1.0\"?>\n"
	"<instrumentationManifest xmlns=\"http://schemas.microsoft.com/win/2004/08/events\"\n"
	" xmlns:win=\"http://manifests.microsoft.com/win/2004/08/windows/events\">\n"
	"<instrumentation><events>\n"
	"<provider name=\"Etw-Eventlog-Late\" guid=\"{5d0a3c4e-7b21-4f6a-9c3d-1e2f3a4b5c6e}\"\n"
	" symbol=\"P2\" resourceFileName=\"x\" messageFileName=\"x\">\n"
	"<channels>\n"
	"<channel name=\"Etw-Eventlog-Late/Operational\" chid=\"Op\" type=\"Operational\" enabled=\"true\"/>\n"
	"</channels>\n"
	"<events>\n"
	"<event value=\"7\" version=\"0\" level=\"win:Warning\" channel=\"Op\" message=\"Installed late.\"/>\n"
	"</events>\n"
	"</provider>\n"
	"</events></instrumentation></instrumentationManifest>\n";

static const GUID p1 = { 0x5d0a3c4e, 0x7b21, 0x4f6a,
			 { 0x9c, 0x3d, 0x1e, 0x2f, 0x3a, 0x4b, 0x5c, 0x6d } };
static const GUID p2 = { 0x5d0a3c4e, 0x7b21, 0x4f6a,
			 { 0x9c, 0x3d, 0x1e, 0x2f, 0x3a, 0x4b, 0x5c, 0x6e } };

static char out[1 << 18];

static int run(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static int run(const char *fmt, ...)
{
	char cmd[2048];
	va_list ap;
	size_t n;
	int status;
	FILE *p;

	va_start(ap, fmt);
	vsnprintf(cmd, sizeof(cmd) - 8, fmt, ap);
	va_end(ap);
	strcat(cmd, " 2>&1");
	p = popen(cmd, "r");
	if (!p)
		return -1;
	n = fread(out, 1, sizeof(out) - 1, p);
	out[n] = '\0';
	status = pclose(p);
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

static int write_file(const char *path, const char *text)
{
	char tmp[256];
	FILE *f;

	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	f = fopen(tmp, "w");
	if (!f)
		return -1;
	fputs(text, f);
	if (fclose(f))
		return -1;
	return rename(tmp, path);
}

/* Until cond is true, 20 s at most; true if it became so. */
#define WAIT_FOR(cond) ({						\
	bool _ok = false;						\
	for (int _i = 0; _i < 400 && !(_ok = (cond)); _i++)		\
		usleep(50000);						\
	_ok;								\
})

static bool session_runs(const char *name)
{
	struct {
		EVENT_TRACE_PROPERTIES p;
		char names[1024];
	} b;

	memset(&b, 0, sizeof(b));
	b.p.Wnode.BufferSize = sizeof(b);
	b.p.LoggerNameOffset = sizeof(b.p);
	return ControlTraceA(0, name, &b.p, EVENT_TRACE_CONTROL_QUERY) == ERROR_SUCCESS;
}

/* The journalctl -o json line whose field KEY is value, or NULL. */
static const char *entry(const char *key, const char *value)
{
	char pat[160];
	const char *p;

	snprintf(pat, sizeof(pat), "\"%s\":\"%s\"", key, value);
	p = strstr(out, pat);
	if (!p)
		return NULL;
	while (p > out && p[-1] != '\n')
		p--;
	return p;
}

static bool has(const char *line, const char *key, const char *value)
{
	char pat[256];
	const char *end = strchr(line, '\n'), *p;

	snprintf(pat, sizeof(pat), "\"%s\":\"%s\"", key, value);
	p = strstr(line, pat);
	return p && (!end || p < end);
}

TEST(service_journals_its_channels)
{
	EVENT_DESCRIPTOR op = { 1, 0, 16, 4, 0, 0, 0x8000000000000000ull };
	EVENT_DESCRIPTOR ad = { 2, 0, 17, 2, 0, 0, 0x4000000000000000ull };
	EVENT_DESCRIPTOR an = { 3, 0, 18, 5, 0, 0, 0x2000000000000000ull };
	EVENT_DESCRIPTOR late = { 7, 0, 16, 3, 0, 0, 0x8000000000000000ull };
	EVENT_DATA_DESCRIPTOR d[2];
	REGHANDLE h1 = 0, h2 = 0;
	uint32_t count = 7;
	char pid[16];
	pid_t journald, service;
	int status;

	/* journald wants the cgroup tree, which the VM's init does not mount. */
	ASSERT_EQ(0, run("mkdir -p /run/systemd /run/log /sys/fs/cgroup " DIR "/man && "
			 "rm -rf /run/log/journal && "
			 "{ grep -q ' /sys/fs/cgroup ' /proc/mounts || mount -t cgroup2 none /sys/fs/cgroup; } && "
			 "{ [ -s /etc/machine-id ] || cat /proc/sys/kernel/random/uuid | tr -d - > /etc/machine-id; }"));
	journald = fork();
	if (!journald) {
		int fd = open(DIR "/journald.log", O_WRONLY | O_CREAT | O_TRUNC, 0644);

		dup2(fd, 1);
		dup2(fd, 2);
		execl(JOURNALD, JOURNALD, (char *)NULL);
		_exit(127);
	}
	ASSERT_TRUE(WAIT_FOR(!access("/run/systemd/journal/socket", W_OK)));
	sleep(1);
	ASSERT_EQ(0, kill(journald, 0)) {
		run("cat " DIR "/journald.log");
		TH_LOG("journald ended: %s", out);
	}
	ASSERT_EQ(0, write_file(DIR "/man/test.man", manifest1));
	unlink(DIR "/state");
	setenv("ETW_MANIFEST_PATH", DIR "/man", 1);
	service = fork();
	if (!service) {
		execl("/usr/bin/etw", "etw", "eventlog", "run", "--poll", "100",
		      "--state", DIR "/state", (char *)NULL);
		_exit(127);
	}
	/* One session per isolation group. */
	ASSERT_TRUE(WAIT_FOR(session_runs("EventLog-Application")));
	ASSERT_TRUE(WAIT_FOR(session_runs("EventLog-System")));

	ASSERT_EQ(ERROR_SUCCESS, EventRegister(&p1, NULL, NULL, &h1));
	ASSERT_TRUE(WAIT_FOR(EventEnabled(h1, &op)));
	EXPECT_TRUE(WAIT_FOR(EventEnabled(h1, &ad)));
	/* The Analytic channel's bit is not asked for. */
	EXPECT_FALSE(EventEnabled(h1, &an));
	EventDataDescCreate(&d[0], &count, sizeof(count));
	EventDataDescCreate(&d[1], "abc", 4);
	EXPECT_EQ(ERROR_SUCCESS, EventWrite(h1, &op, 2, d));
	EXPECT_EQ(ERROR_SUCCESS, EventWrite(h1, &ad, 0, NULL));
	EXPECT_EQ(ERROR_SUCCESS, EventWrite(h1, &an, 0, NULL));
	/* A payload that does not match the template: journaled raw. */
	EventDataDescCreate(&d[0], "zz", 2);
	op.Version = 0;
	EXPECT_EQ(ERROR_SUCCESS, EventWrite(h1, &op, 1, d));

	/* A manifest installed while the service runs. */
	ASSERT_EQ(ERROR_SUCCESS, EventRegister(&p2, NULL, NULL, &h2));
	EXPECT_FALSE(EventEnabled(h2, &late));
	ASSERT_EQ(0, write_file(DIR "/man/late.man", manifest2));
	ASSERT_TRUE(WAIT_FOR(EventEnabled(h2, &late)));
	EXPECT_EQ(ERROR_SUCCESS, EventWrite(h2, &late, 0, NULL));

	/* A channel disabled while it runs: its bit is taken back. */
	ASSERT_EQ(0, run("/usr/bin/etw eventlog disable --state " DIR "/state "
			 "Etw-Eventlog-Test/Operational"));
	EXPECT_TRUE(WAIT_FOR(!EventEnabled(h1, &op)));
	EXPECT_TRUE(EventEnabled(h1, &ad));

	/* SIGTERM: the sessions' buffers are journaled before it ends. */
	sleep(2);
	kill(service, SIGTERM);
	ASSERT_EQ(service, waitpid(service, &status, 0));
	EXPECT_TRUE(WIFEXITED(status));
	EXPECT_EQ(0, WEXITSTATUS(status));
	EXPECT_FALSE(session_runs("EventLog-Application"));
	EXPECT_FALSE(session_runs("EventLog-System"));
	EventUnregister(h1);
	EventUnregister(h2);

	run("journalctl --sync");
	ASSERT_EQ(0, run("journalctl -D /run/log/journal --no-pager -o json")) {
		TH_LOG("%s", out);
		run("cat " DIR "/journald.log; ls -la /run/log /run/systemd/journal");
		TH_LOG("%s", out);
	}
	snprintf(pid, sizeof(pid), "%d", getpid());
	ASSERT_NE(NULL, entry("MESSAGE", "Count 7 for abc.")) {
		TH_LOG("%s", out);
	}
	EXPECT_TRUE(has(entry("MESSAGE", "Count 7 for abc."), "PRIORITY", "6"));
	EXPECT_TRUE(has(entry("MESSAGE", "Count 7 for abc."), "ETW_DATA_COUNT", "7"));
	EXPECT_TRUE(has(entry("MESSAGE", "Count 7 for abc."), "ETW_DATA_NAME", "abc"));
	EXPECT_TRUE(has(entry("MESSAGE", "Count 7 for abc."), "OBJECT_PID", pid));
	EXPECT_TRUE(has(entry("MESSAGE", "Count 7 for abc."), "ETW_CHANNEL",
			"Etw-Eventlog-Test/Operational"));
	EXPECT_TRUE(has(entry("MESSAGE", "Count 7 for abc."), "ETW_KEYWORDS", "0x8000000000000000"));
	ASSERT_NE(NULL, entry("MESSAGE", "Something failed."));
	EXPECT_TRUE(has(entry("MESSAGE", "Something failed."), "PRIORITY", "3"));
	EXPECT_TRUE(has(entry("MESSAGE", "Something failed."), "ETW_CHANNEL",
			"Etw-Eventlog-Test/Admin"));
	EXPECT_EQ(NULL, entry("MESSAGE", "Chatter."));
	ASSERT_NE(NULL, entry("ETW_DATA", "7a7a"));
	EXPECT_TRUE(has(entry("ETW_DATA", "7a7a"), "MESSAGE",
			"Etw-Eventlog-Test event 1: its 2 bytes do not match the manifest"));
	ASSERT_NE(NULL, entry("MESSAGE", "Installed late."));
	EXPECT_TRUE(has(entry("MESSAGE", "Installed late."), "SYSLOG_IDENTIFIER", "Etw-Eventlog-Late"));
	EXPECT_TRUE(has(entry("MESSAGE", "Installed late."), "PRIORITY", "4"));
	EXPECT_NE(NULL, entry("MESSAGE", "etw eventlog: started: 2 sessions, 2 channels"));
	EXPECT_NE(NULL, entry("MESSAGE",
			      "etw eventlog: stopped: 4 events journaled, 0 refused by the journal, 1 shown raw"));

	kill(journald, SIGTERM);
	waitpid(journald, NULL, 0);
	run("rm -rf " DIR);
}

TEST_HARNESS_MAIN
