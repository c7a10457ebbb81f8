// SPDX-License-Identifier: GPL-2.0
/*
 * The limits of Documentation/guarantees.rst that no other selftest
 * reaches, each with the error the caller gets:
 *
 * - registrations per file: ETW_MAX_REGS_PER_FILE, then ENOSPC; a freed
 *   one can be taken again, and another file has its own;
 * - the buffer memory cap through StartTrace: ERROR_NOT_ENOUGH_MEMORY,
 *   also as the thread's last error, and no session is left behind;
 * - 4 private loggers per process (libetw's private_logger unit test has
 *   the limit itself): each process has its own 4, and they take none of
 *   the module's 64 sessions.
 *
 * The others are tested where the feature is: 64 sessions
 * (session_test, controller_api_test), 8 sessions per provider
 * (enable_test, controller_api_test), buffer sizes (session_test,
 * controller_api_test), data descriptors (write_test), the event size
 * (write_test), the cap at the ioctl (faults_test, consumer_test).
 */
#include <stdio.h>
#include <sys/wait.h>

#include <windows.h>
#include <evntrace.h>

#include "kselftest_harness.h"
#include "etw_selftests.h"
#include "etw_kmod.h"

FIXTURE(limits)
{
	int fd;
	__u8 guid[16];
	char memcap[32];
};

FIXTURE_SETUP(limits)
{
	etw_require_root(_metadata);
	self->fd = etw_open_or_skip(_metadata);
	etw_stop_test_sessions(self->fd);
	etw_test_guid(self->guid, 0x90);
	ASSERT_EQ(0, etw_read_file(ETW_PARAM("max_buffer_memory_mb"), self->memcap,
				   sizeof(self->memcap)));
}

FIXTURE_TEARDOWN(limits)
{
	if (self->fd < 0)
		return;
	etw_write_file(ETW_PARAM("max_buffer_memory_mb"), self->memcap);
	etw_stop_test_sessions(self->fd);
	close(self->fd);
}

static int unregister(int fd, __u32 reg_id)
{
	struct etw_provider_unregister u = { .size = sizeof(u), .reg_id = reg_id };

	return etw_ioctl_err(fd, ETW_IOC_PROVIDER_UNREGISTER, &u);
}

/* QUERY of the session named @name: 0 or -errno. */
static int query_by_name(int fd, const char *name)
{
	struct etw_session_control c = { .size = sizeof(c), .code = ETW_CONTROL_QUERY };

	snprintf(c.info.name, sizeof(c.info.name), "%s", name);
	return etw_ioctl_err(fd, ETW_IOC_SESSION_CONTROL, &c);
}

TEST_F(limits, registrations_per_file)
{
	static __u32 ids[ETW_MAX_REGS_PER_FILE];
	__u32 id, last;
	int i, other;

	for (i = 0; i < ETW_MAX_REGS_PER_FILE; i++)
		ASSERT_EQ(0, etw_register_simple(self->fd, self->guid, &ids[i])) TH_LOG("%d", i);
	EXPECT_EQ(-ENOSPC, etw_register_simple(self->fd, self->guid, &id));
	/* The file's providers still work. */
	EXPECT_EQ(0, etw_write_simple(self->fd, ids[ETW_MAX_REGS_PER_FILE - 1], 1, 4, 0, "x", 1));
	/* Another file has its own. */
	other = open(ETW_DEV, O_RDWR | O_CLOEXEC);
	ASSERT_LE(0, other);
	EXPECT_EQ(0, etw_register_simple(other, self->guid, &id));
	close(other);
	/* One freed: one more fits, and only one. */
	last = ids[ETW_MAX_REGS_PER_FILE / 2];
	ASSERT_EQ(0, unregister(self->fd, last));
	EXPECT_EQ(0, etw_register_simple(self->fd, self->guid, &id));
	EXPECT_EQ(-ENOSPC, etw_register_simple(self->fd, self->guid, &id));
}

/* A session of @kb KB buffers in @mode through StartTrace. */
static ULONG start_mode(const char *name, ULONG mode, ULONG kb, CONTROLTRACE_ID *h)
{
	struct {
		EVENT_TRACE_PROPERTIES p;
		char name[64];
	} b;

	memset(&b, 0, sizeof(b));
	b.p.Wnode.BufferSize = sizeof(b);
	b.p.Wnode.Flags = WNODE_FLAG_TRACED_GUID;
	b.p.Wnode.ClientContext = 1;
	b.p.LogFileMode = mode;
	b.p.LoggerNameOffset = sizeof(b.p);
	b.p.BufferSize = kb;
	return StartTraceA(h, name, &b.p);
}

static ULONG start_trace(const char *name, ULONG kb, CONTROLTRACE_ID *h)
{
	return start_mode(name, EVENT_TRACE_REAL_TIME_MODE, kb, h);
}

TEST_F(limits, memory_cap_through_start_trace)
{
	CONTROLTRACE_ID h;
	int n;

	/* 2 MiB: even two 1 MiB buffers per CPU do not fit. */
	ASSERT_EQ(0, etw_write_file(ETW_PARAM("max_buffer_memory_mb"), "2"));
	SetLastError(ERROR_SUCCESS);
	EXPECT_EQ(ERROR_NOT_ENOUGH_MEMORY, start_trace("etwtest-lim-big", 1024, &h));
	EXPECT_EQ(ERROR_NOT_ENOUGH_MEMORY, GetLastError());
	EXPECT_EQ(-ENOENT, query_by_name(self->fd, "etwtest-lim-big"));
	/* Small sessions fit until the cap. */
	for (n = 0; n < 64; n++) {
		char name[32];
		ULONG err;

		snprintf(name, sizeof(name), "etwtest-lim-%d", n);
		err = start_trace(name, 64, &h);
		if (err) {
			EXPECT_EQ(ERROR_NOT_ENOUGH_MEMORY, err);
			break;
		}
	}
	EXPECT_LT(0, n);
	EXPECT_GT(64, n);
}

/* A private logger (in-process, a memory ring) through StartTrace. */
static ULONG start_private(const char *name, CONTROLTRACE_ID *h)
{
	return start_mode(name, EVENT_TRACE_PRIVATE_LOGGER_MODE | EVENT_TRACE_BUFFERING_MODE,
			  4, h);
}

/* In this process: 4 private loggers, the 5th ERROR_NO_SYSTEM_RESOURCES. */
static int four_private_loggers(void)
{
	CONTROLTRACE_ID h;
	char name[32];
	int i;

	for (i = 0; i < 4; i++) {
		snprintf(name, sizeof(name), "etwtest-lim-priv-%d", i);
		if (start_private(name, &h) != ERROR_SUCCESS)
			return 1 + i;
	}
	if (start_private("etwtest-lim-priv-4", &h) != ERROR_NO_SYSTEM_RESOURCES ||
	    GetLastError() != ERROR_NO_SYSTEM_RESOURCES)
		return 10;
	return 0;
}

TEST_F(limits, private_loggers_per_process)
{
	CONTROLTRACE_ID h;
	int ready[2], done[2], status;
	char child_ret = 99;
	pid_t pid;

	/* Two processes hold four each at the same time. */
	ASSERT_EQ(0, pipe(ready));
	ASSERT_EQ(0, pipe(done));
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		char r = (char)four_private_loggers();

		if (write(ready[1], &r, 1) != 1 || read(done[0], &r, 1) != 1)
			_exit(20);
		_exit(0);
	}
	ASSERT_EQ(1, read(ready[0], &child_ret, 1));
	EXPECT_EQ(0, child_ret);
	EXPECT_EQ(0, four_private_loggers());
	/* They are not module sessions: one still starts. */
	EXPECT_EQ(ERROR_SUCCESS, start_trace("etwtest-lim-module", 4, &h));
	ASSERT_EQ(1, write(done[1], "x", 1));
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
}

TEST_HARNESS_MAIN
