// SPDX-License-Identifier: GPL-2.0
/*
 * The etw command in the VM: --help of every subcommand, etw update,
 * etw live (attached to a session and with a session of its own, ended by
 * SIGINT), progress on a terminal, and the one-line Win32 errors.
 */
#include <poll.h>
#include <pty.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <time.h>

#include <windows.h>
#include <evntrace.h>

#include "kselftest_harness.h"
#include "etw_selftests.h"

#define GUID_TEXT "b3864c38-4273-58c5-545b-8b3608343471"

static bool have_tools(void)
{
	return !access("/usr/bin/etw", X_OK) &&
	       !access("/usr/bin/etw-example-provider", X_OK);
}

#define NEED_TOOLS()							\
	do {								\
		if (!have_tools() || geteuid())				\
			SKIP(return, "needs root and the etw tools (the VM has them)"); \
	} while (0)

/* Run a shell command; stdout and stderr in @out, the exit status back. */
static int sh(const char *cmd, char *out, size_t len)
{
	char full[1024];

	snprintf(full, sizeof(full), "%s 2>&1", cmd);
	return etw_sh(full, out, len);
}

static int count_lines(const char *s, const char *what)
{
	int n = 0;

	for (const char *p = s; (p = strstr(p, what)); p++)
		n++;
	return n;
}

/* A command running with its output on a pipe we read. */
struct child {
	pid_t pid;
	int fd;
	char out[65536];
	size_t len;
};

static int spawn(struct child *c, const char *cmd)
{
	int p[2];

	memset(c, 0, sizeof(*c));
	if (pipe(p))
		return -1;
	c->pid = fork();
	if (c->pid < 0)
		return -1;
	if (!c->pid) {
		dup2(p[1], 1);
		dup2(p[1], 2);
		close(p[0]);
		execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
		_exit(127);
	}
	close(p[1]);
	c->fd = p[0];
	return 0;
}

/* Read what the child wrote until @what appears @n times (@ms at most). */
static int read_until_ms(struct child *c, const char *what, int n, int ms)
{
	for (int i = 0; i < ms / 100 && count_lines(c->out, what) < n; i++) {
		struct pollfd pfd = { .fd = c->fd, .events = POLLIN };
		ssize_t r;

		if (poll(&pfd, 1, 100) <= 0)
			continue;
		r = read(c->fd, c->out + c->len, sizeof(c->out) - 1 - c->len);
		if (r <= 0)
			break;
		c->len += r;
		c->out[c->len] = 0;
	}
	return count_lines(c->out, what);
}

static int read_until(struct child *c, const char *what, int n)
{
	return read_until_ms(c, what, n, 30000);
}

/* Signal the child, read the rest, and return its exit status. */
static int finish(struct child *c, int sig)
{
	int status;
	ssize_t r;

	if (sig)
		kill(c->pid, sig);
	while ((r = read(c->fd, c->out + c->len, sizeof(c->out) - 1 - c->len)) > 0)
		c->len += r;
	c->out[c->len] = 0;
	close(c->fd);
	waitpid(c->pid, &status, 0);
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

/* Every command that etw --help lists has its own --help. */
TEST(help_for_every_subcommand)
{
	char list[4096], out[4096], cmd[128], name[32];
	int n = 0;

	if (access("/usr/bin/etw", X_OK))
		SKIP(return, "needs the etw tool (the VM has it)");
	ASSERT_EQ(0, sh("etw --help", list, sizeof(list)));
	for (char *p = strstr(list, "commands:\n"); p && (p = strchr(p, '\n'));) {
		p++;
		if (sscanf(p, "  %31s", name) != 1 || *p != ' ')
			break;
		snprintf(cmd, sizeof(cmd), "etw %s --help", name);
		EXPECT_EQ(0, sh(cmd, out, sizeof(out))) TH_LOG("%s", name);
		EXPECT_TRUE(!strncmp(out, "usage: etw ", 11)) TH_LOG("%s: %s", name, out);
		snprintf(cmd, sizeof(cmd), "etw %s -h", name);
		EXPECT_EQ(0, sh(cmd, NULL, 0)) TH_LOG("%s", name);
		n++;
	}
	EXPECT_LE(13, n);
}

/*
 * etw start -o with a relative name: any controller's query returns the
 * file by its absolute name, as StartTrace's sessions do.
 */
TEST(start_keeps_the_absolute_file_name)
{
	struct {
		EVENT_TRACE_PROPERTIES p;
		char names[2][1024];
	} q;
	char out[4096];
	const char *file;

	NEED_TOOLS();
	sh("etw stop etwtest-fname", NULL, 0);
	ASSERT_EQ(0, sh("mkdir -p /tmp/etwtest-dir && cd /tmp/etwtest-dir && "
			"etw start etwtest-fname -b 8 -o ./fname.etl", out, sizeof(out)))
		TH_LOG("%s", out);
	memset(&q, 0, sizeof(q));
	q.p.Wnode.BufferSize = sizeof(q);
	q.p.LoggerNameOffset = offsetof(typeof(q), names[0]);
	q.p.LogFileNameOffset = offsetof(typeof(q), names[1]);
	EXPECT_EQ(ERROR_SUCCESS, QueryTraceA(0, "etwtest-fname", &q.p));
	file = (const char *)&q + q.p.LogFileNameOffset;
	EXPECT_STREQ("/tmp/etwtest-dir/fname.etl", file);
	EXPECT_EQ(0, sh("etw stop etwtest-fname", NULL, 0));
	EXPECT_EQ(0, access("/tmp/etwtest-dir/fname.etl", R_OK));
	/* A folder that does not exist: a clear error, no session. */
	EXPECT_EQ(1, sh("etw start etwtest-fname -o /nonexistent/x.etl 2>&1", out,
			sizeof(out)));
	EXPECT_NE(NULL, strstr(out, "/nonexistent/x.etl: No such file or directory")) TH_LOG("%s", out);
	EXPECT_NE(0, sh("etw query etwtest-fname", NULL, 0));
}

TEST(update)
{
	char out[4096];

	NEED_TOOLS();
	ASSERT_EQ(0, sh("etw start etwtest-upd -b 8 -f 1", out, sizeof(out)));
	EXPECT_TRUE(strstr(out, "flush timer    1 s") != NULL) TH_LOG("%s", out);
	EXPECT_EQ(0, sh("etw update etwtest-upd --flush-timer 3", out, sizeof(out)));
	EXPECT_TRUE(strstr(out, "flush timer    3 s") != NULL) TH_LOG("%s", out);
	EXPECT_EQ(0, sh("etw query etwtest-upd", out, sizeof(out)));
	EXPECT_TRUE(strstr(out, "flush timer    3 s") != NULL) TH_LOG("%s", out);
	/* Nothing given: nothing changes. */
	EXPECT_EQ(0, sh("etw update etwtest-upd", out, sizeof(out)));
	EXPECT_TRUE(strstr(out, "flush timer    3 s") != NULL) TH_LOG("%s", out);
	/* The buffer pool may grow, never shrink. */
	EXPECT_EQ(0, sh("etw update etwtest-upd -M 999", out, sizeof(out)));
	EXPECT_TRUE(strstr(out, "max 999,") != NULL) TH_LOG("%s", out);
	EXPECT_EQ(1, sh("etw update etwtest-upd -M 998", out, sizeof(out)));
	EXPECT_TRUE(strstr(out, "etw: update: etwtest-upd: ERROR_INVALID_PARAMETER (87)") != NULL)
		TH_LOG("%s", out);
	EXPECT_EQ(1, sh("etw update etwtest-none -f 2", out, sizeof(out)));
	EXPECT_STREQ("etw: update: etwtest-none: ERROR_WMI_INSTANCE_NOT_FOUND (4201): no such session\n",
		     out);
	EXPECT_EQ(1, sh("etw update etwtest-upd -f nine", out, sizeof(out)));
	EXPECT_STREQ("etw: update: bad number 'nine' for -f\n", out);
	EXPECT_EQ(2, sh("etw update", NULL, 0));
	EXPECT_EQ(0, sh("etw stop etwtest-upd", NULL, 0));
}

/* Attached to a real-time session; SIGINT ends it, with everything printed. */
TEST(live_attached)
{
	struct child c;
	char out[4096];

	NEED_TOOLS();
	sh("etw stop etwtest-live", NULL, 0);
	ASSERT_EQ(0, sh("etw start etwtest-live --real-time -b 8", out, sizeof(out)));
	ASSERT_EQ(0, sh("etw enable etwtest-live " GUID_TEXT " -l 5", out, sizeof(out)));
	ASSERT_EQ(0, spawn(&c, "exec etw live -f csv etwtest-live"));
	EXPECT_EQ(0, sh("etw-example-provider 7", NULL, 0));
	EXPECT_EQ(0, sh("etw flush etwtest-live", NULL, 0));
	EXPECT_EQ(7, read_until(&c, GUID_TEXT, 7)) TH_LOG("%s", c.out);
	EXPECT_EQ(0, finish(&c, SIGINT)) TH_LOG("%s", c.out);
	EXPECT_EQ(7, count_lines(c.out, GUID_TEXT));
	EXPECT_TRUE(strstr(c.out, "etw: live: 7 events\n") != NULL) TH_LOG("%s", c.out);
	/* The session is the controller's: it still runs. */
	EXPECT_EQ(0, sh("etw query etwtest-live", NULL, 0));

	/* Text output, and the session stopping ends it. */
	ASSERT_EQ(0, spawn(&c, "exec etw live etwtest-live"));
	EXPECT_EQ(0, sh("etw-example-provider 3", NULL, 0));
	EXPECT_EQ(0, sh("etw flush etwtest-live", NULL, 0));
	EXPECT_EQ(3, read_until(&c, "EVENT_HEADER64 " GUID_TEXT, 3)) TH_LOG("%s", c.out);
	EXPECT_EQ(0, sh("etw stop etwtest-live", NULL, 0));
	EXPECT_EQ(0, finish(&c, 0)) TH_LOG("%s", c.out);
	EXPECT_TRUE(strstr(c.out, "etw: live: 3 events\n") != NULL) TH_LOG("%s", c.out);
}

/*
 * A file session in real-time mode: etw live beside its logger shows the
 * events written once it is attached, and the file has them all.
 */
TEST(live_beside_logger)
{
	char out[8192], *line;
	struct child c;
	int tries, shown, in_file = 0;

	NEED_TOOLS();
	sh("etw stop etwtest-livef", NULL, 0);
	ASSERT_EQ(0, sh("etw start etwtest-livef --real-time -b 8 -o /tmp/etwtest-livef.etl",
			out, sizeof(out))) TH_LOG("%s", out);
	ASSERT_EQ(0, sh("etw enable etwtest-livef " GUID_TEXT " -l 5", out, sizeof(out)));
	ASSERT_EQ(0, spawn(&c, "exec etw live -f csv etwtest-livef"));
	/* It attaches in its own time: an event at a time until it shows one. */
	for (tries = 1; tries <= 15; tries++) {
		EXPECT_EQ(0, sh("etw-example-provider 1", NULL, 0));
		EXPECT_EQ(0, sh("etw flush etwtest-livef", NULL, 0));
		if (read_until_ms(&c, GUID_TEXT, 1, 500))
			break;
	}
	ASSERT_GE(15, tries);
	/* A flush before that one may still be on its way. */
	read_until_ms(&c, GUID_TEXT, 2, 3000);
	shown = count_lines(c.out, GUID_TEXT);
	EXPECT_EQ(0, sh("etw-example-provider 7", NULL, 0));
	EXPECT_EQ(0, sh("etw flush etwtest-livef", NULL, 0));
	EXPECT_EQ(shown + 7, read_until(&c, GUID_TEXT, shown + 7)) TH_LOG("%s", c.out);
	EXPECT_EQ(0, sh("etw stop etwtest-livef", NULL, 0));
	EXPECT_EQ(0, finish(&c, 0)) TH_LOG("%s", c.out);
	EXPECT_EQ(shown + 7, count_lines(c.out, GUID_TEXT));
	/* The file: those written before live attached too. */
	ASSERT_EQ(0, sh("etw dump -s /tmp/etwtest-livef.etl", out, sizeof(out)));
	line = strstr(out, GUID_TEXT);
	ASSERT_NE(NULL, line);
	while (line > out && line[-1] != '\n')
		line--;
	EXPECT_EQ(1, sscanf(line, "%d", &in_file)) TH_LOG("%s", out);
	EXPECT_EQ(tries + 7, in_file) TH_LOG("%s", out);
}

/* With -p: a session of its own, flushed every second, stopped at the end. */
TEST(live_own_session)
{
	char out[4096], name[64];
	struct child c;

	NEED_TOOLS();
	ASSERT_EQ(0, spawn(&c, "exec etw live -f json -p " GUID_TEXT ":5"));
	snprintf(name, sizeof(name), "etw query etw-live-%d", (int)c.pid);
	for (int i = 0; i < 300 && sh(name, NULL, 0); i++)
		usleep(100000);
	ASSERT_EQ(0, sh(name, out, sizeof(out))) TH_LOG("%s", c.out);
	EXPECT_TRUE(strstr(out, "mode           0x00000100") != NULL) TH_LOG("%s", out);
	EXPECT_EQ(0, sh("etw-example-provider 4", NULL, 0));
	EXPECT_EQ(4, read_until(&c, GUID_TEXT, 4)) TH_LOG("%s", c.out);
	EXPECT_EQ(0, finish(&c, SIGTERM)) TH_LOG("%s", c.out);
	/* The JSON document is closed. */
	EXPECT_TRUE(strstr(c.out, "]}\n") != NULL) TH_LOG("%s", c.out);
	EXPECT_EQ(1, sh(name, out, sizeof(out)));
	EXPECT_TRUE(strstr(out, "ERROR_WMI_INSTANCE_NOT_FOUND (4201)") != NULL) TH_LOG("%s", out);
}

/* The reader of its output goes away: it ends and stops its own session. */
TEST(live_pipe_closed)
{
	char out[4096] = "";
	struct child c;

	NEED_TOOLS();
	ASSERT_EQ(0, spawn(&c, "etw live -f csv -p " GUID_TEXT ":5 | head -n 3"));
	for (int i = 0; i < 300 && !strstr(out, "etw-live-"); i++) {
		usleep(100000);
		sh("etw list", out, sizeof(out));
	}
	ASSERT_TRUE(strstr(out, "etw-live-") != NULL);
	/* head takes the CSV header and two events and exits ... */
	EXPECT_EQ(0, sh("etw-example-provider 2", NULL, 0));
	EXPECT_EQ(2, read_until(&c, GUID_TEXT, 2)) TH_LOG("%s", c.out);
	/* ... so the next events find the pipe closed. */
	for (int i = 0; i < 100 && strstr(out, "etw-live-"); i++) {
		sh("etw-example-provider 1", NULL, 0);
		usleep(200000);
		sh("etw list", out, sizeof(out));
	}
	EXPECT_TRUE(strstr(out, "etw-live-") == NULL) TH_LOG("%s", out);
	EXPECT_EQ(0, finish(&c, 0)) TH_LOG("%s", c.out);
}

TEST(live_errors)
{
	char out[4096];

	NEED_TOOLS();
	EXPECT_EQ(1, sh("etw live etwtest-none", out, sizeof(out)));
	EXPECT_STREQ("etw: live: etwtest-none: ERROR_WMI_INSTANCE_NOT_FOUND (4201): "
		     "no such session in real-time mode (etw start --real-time)\n", out);
	/* A session that is not in real-time mode. */
	ASSERT_EQ(0, sh("etw start etwtest-notrt -b 8", NULL, 0));
	EXPECT_EQ(1, sh("etw live etwtest-notrt", out, sizeof(out)));
	EXPECT_TRUE(strstr(out, "ERROR_WMI_INSTANCE_NOT_FOUND (4201)") != NULL) TH_LOG("%s", out);
	EXPECT_EQ(0, sh("etw stop etwtest-notrt", NULL, 0));
	EXPECT_EQ(1, sh("etw live -p not:a:guid:", out, sizeof(out)));
	EXPECT_EQ(2, sh("etw live", NULL, 0));
	EXPECT_EQ(2, sh("etw live name -p " GUID_TEXT, NULL, 0));
	EXPECT_EQ(1, sh("etw live -f yaml name", out, sizeof(out)));
	EXPECT_STREQ("etw: live: unknown format 'yaml' (text, csv, json, xml)\n", out);
}

/* etw dump's errors: one line with the Win32 code and the offset. */
TEST(dump_errors)
{
	char out[4096];

	if (access("/usr/bin/etw", X_OK))
		SKIP(return, "needs the etw tool (the VM has it)");
	EXPECT_EQ(1, sh("etw dump /nonexistent.etl", out, sizeof(out)));
	EXPECT_STREQ("etw: dump: /nonexistent.etl: ERROR_FILE_NOT_FOUND (2): "
		     "cannot open: No such file or directory\n", out);
	EXPECT_EQ(1, sh("echo garbage > /tmp/etwtest-bad.etl && "
			"etw dump /tmp/etwtest-bad.etl", out, sizeof(out)));
	EXPECT_STREQ("etw: dump: /tmp/etwtest-bad.etl: ERROR_FILE_CORRUPT (1392): "
		     "corrupt buffer at offset 0x0: truncated: 0x8 bytes left in the "
		     "file, a buffer header takes 0x48\n", out);
	unlink("/tmp/etwtest-bad.etl");
}

/* Run @argv with its stderr on a terminal and stdout to /dev/null. */
static int on_terminal(const char *cmd, char *out, size_t len)
{
	size_t n = 0;
	int master, status;
	pid_t pid;

	pid = forkpty(&master, NULL, NULL, NULL);
	if (pid < 0)
		return -1;
	if (!pid) {
		int null = open("/dev/null", O_WRONLY);

		dup2(null, 1);
		execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
		_exit(127);
	}
	for (;;) {
		ssize_t r = read(master, out + n, len - 1 - n);

		if (r <= 0)
			break;
		n += r;
	}
	out[n] = 0;
	close(master);
	waitpid(pid, &status, 0);
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/* Progress of long work on a terminal; none on a pipe. */
TEST(progress)
{
	char out[65536];

	NEED_TOOLS();
	/*
	 * Over 1 MiB: enough for etw dump to show progress.  The command
	 * outlives its writes by a second, so that record, which shows what
	 * the logger has written while the command runs, has something to
	 * show however fast the machine is.
	 */
	EXPECT_EQ(0, on_terminal("etw record -o /tmp/etwtest-progress.etl -b 64 -p "
				 GUID_TEXT " -- sh -c 'etw-example-provider 20000 && sleep 1'",
				 out, sizeof(out)));
	EXPECT_TRUE(strstr(out, "\retw: record: ") != NULL) TH_LOG("%s", out);
	EXPECT_TRUE(strstr(out, "KiB) written to /tmp/etwtest-progress.etl") != NULL)
		TH_LOG("%s", out);
	EXPECT_EQ(0, on_terminal("etw dump -o /tmp/etwtest-progress.txt "
				 "/tmp/etwtest-progress.etl", out, sizeof(out)));
	EXPECT_TRUE(strstr(out, "\retw: dump: /tmp/etwtest-progress.etl: ") != NULL)
		TH_LOG("%s", out);
	EXPECT_TRUE(strstr(out, "% (") != NULL) TH_LOG("%s", out);
	/* Not on a pipe. */
	EXPECT_EQ(0, sh("etw dump -o /tmp/etwtest-progress.txt /tmp/etwtest-progress.etl",
			out, sizeof(out)));
	EXPECT_STREQ("", out);
	unlink("/tmp/etwtest-progress.etl");
	unlink("/tmp/etwtest-progress.txt");
}

TEST_HARNESS_MAIN
