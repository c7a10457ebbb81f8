// SPDX-License-Identifier: GPL-2.0
/*
 * Sessions: start, query, flush, update, stop; names, ids, limits, the
 * statistics Windows reports, and who may control them.
 */
#include <grp.h>
#include <linux/capability.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#include "kselftest_harness.h"
#include "etw_selftests.h"
#include "etw_clock.h"

FIXTURE(session)
{
	int fd;
};

FIXTURE_SETUP(session)
{
	etw_require_root(_metadata);
	self->fd = etw_open_or_skip(_metadata);
	etw_stop_test_sessions(self->fd);
}

FIXTURE_TEARDOWN(session)
{
	if (self->fd >= 0) {
		etw_stop_test_sessions(self->fd);
		close(self->fd);
	}
}

TEST_F(session, start_query_stop)
{
	struct etw_session_info info, byname;
	struct etw_session_control c = { .size = sizeof(c) };
	__u32 id;

	ASSERT_EQ(0, etw_session_start_simple(self->fd, "etwtest-basic", 0, 0, 0, &id));
	ASSERT_LE(1, id);
	ASSERT_GE(ETW_MAX_SESSIONS, id);

	ASSERT_EQ(0, etw_session_ctl(self->fd, id, ETW_CONTROL_QUERY, &info));
	EXPECT_EQ(id, info.logger_id);
	EXPECT_STREQ("etwtest-basic", info.name);
	EXPECT_EQ(64, info.buffer_size_kb);		/* the default */
	EXPECT_LE(2 * sysconf(_SC_NPROCESSORS_CONF), info.min_buffers);
	EXPECT_EQ(info.min_buffers + 20, info.max_buffers);
	/* The pool starts at MinimumBuffers and grows when needed. */
	EXPECT_EQ(info.min_buffers, info.number_of_buffers);
	EXPECT_EQ(info.min_buffers, info.free_buffers);
	EXPECT_EQ(0, info.events_lost);
	EXPECT_EQ(0, info.buffers_written);
	EXPECT_EQ(1, info.clock_type);
	/* The clock's rate: the TSC's is measured in clock_test. */
	if (etw_test_clock() == ETW_TEST_CLOCK_MONO) {
		EXPECT_EQ(1000000000ULL, info.frequency);
	} else {
		EXPECT_LT(0, info.frequency);
	}
	/* FILETIME after 2020-01-01. */
	EXPECT_LT(132223104000000000ULL, info.start_time);
	/* A GUID was made up for the session. */
	{
		static const __u8 zero[16];

		EXPECT_NE(0, memcmp(zero, info.guid, 16));
	}

	/* By name (logger id 0). */
	snprintf(c.info.name, sizeof(c.info.name), "etwtest-basic");
	c.code = ETW_CONTROL_QUERY;
	ASSERT_EQ(0, etw_ioctl_err(self->fd, ETW_IOC_SESSION_CONTROL, &c));
	byname = c.info;
	EXPECT_EQ(id, byname.logger_id);

	ASSERT_EQ(0, etw_session_ctl(self->fd, id, ETW_CONTROL_FLUSH, NULL));
	ASSERT_EQ(0, etw_session_ctl(self->fd, id, ETW_CONTROL_STOP, &info));
	EXPECT_EQ(id, info.logger_id);
	EXPECT_EQ(-ENOENT, etw_session_ctl(self->fd, id, ETW_CONTROL_QUERY, NULL));
	EXPECT_EQ(-ENOENT, etw_session_ctl(self->fd, id, ETW_CONTROL_STOP, NULL));
}

TEST_F(session, unknown_session_is_enoent)
{
	struct etw_session_control c = { .size = sizeof(c) };

	EXPECT_EQ(-ENOENT, etw_session_ctl(self->fd, 64, ETW_CONTROL_QUERY, NULL));
	EXPECT_EQ(-ENOENT, etw_session_ctl(self->fd, 65, ETW_CONTROL_QUERY, NULL));
	EXPECT_EQ(-ENOENT, etw_session_ctl(self->fd, 0xffffffff, ETW_CONTROL_STOP, NULL));
	snprintf(c.info.name, sizeof(c.info.name), "etwtest-nobody");
	EXPECT_EQ(-ENOENT, etw_ioctl_err(self->fd, ETW_IOC_SESSION_CONTROL, &c));
	/* No kept session of that name to discard either. */
	c.code = ETW_CONTROL_DISCARD;
	EXPECT_EQ(-ENOENT, etw_ioctl_err(self->fd, ETW_IOC_SESSION_CONTROL, &c));
	c.code = ETW_CONTROL_DISCARD + 1;
	EXPECT_EQ(-EINVAL, etw_ioctl_err(self->fd, ETW_IOC_SESSION_CONTROL, &c));
}

TEST_F(session, names_and_guids_are_unique)
{
	struct etw_session_start st = { .size = sizeof(st) };
	struct etw_session_info info;
	__u32 a, b;

	ASSERT_EQ(0, etw_session_start_simple(self->fd, "etwtest-dup", 0, 4, 0, &a));
	EXPECT_EQ(-EEXIST, etw_session_start_simple(self->fd, "etwtest-dup", 0, 4, 0, &b));

	ASSERT_EQ(0, etw_session_ctl(self->fd, a, ETW_CONTROL_QUERY, &info));
	snprintf(st.info.name, sizeof(st.info.name), "etwtest-dupguid");
	memcpy(st.info.guid, info.guid, 16);
	EXPECT_EQ(-EEXIST, etw_ioctl_err(self->fd, ETW_IOC_SESSION_START, &st));
}

TEST_F(session, bad_settings_are_einval)
{
	struct etw_session_start st = { .size = sizeof(st) };

	/* No name. */
	EXPECT_EQ(-EINVAL, etw_ioctl_err(self->fd, ETW_IOC_SESSION_START, &st));
	/* SEQUENTIAL together with CIRCULAR. */
	EXPECT_EQ(-EINVAL, etw_session_start_simple(self->fd, "etwtest-bad",
						    ETW_MODE_FILE_SEQUENTIAL |
						    ETW_MODE_FILE_CIRCULAR, 0, 0, NULL));
	/* Buffers over 1 MiB. */
	EXPECT_EQ(-EINVAL, etw_session_start_simple(self->fd, "etwtest-bad", 0,
						    1025, 0, NULL));
	/* Output fields given as input, a name without NUL, flags. */
	snprintf(st.info.name, sizeof(st.info.name), "etwtest-bad");
	st.info.events_lost = 1;
	EXPECT_EQ(-EINVAL, etw_ioctl_err(self->fd, ETW_IOC_SESSION_START, &st));
	st.info.events_lost = 0;
	memset(st.info.name, 'x', sizeof(st.info.name));
	EXPECT_EQ(-EINVAL, etw_ioctl_err(self->fd, ETW_IOC_SESSION_START, &st));
	snprintf(st.info.name, sizeof(st.info.name), "etwtest-bad");
	st.flags = 1;
	EXPECT_EQ(-EINVAL, etw_ioctl_err(self->fd, ETW_IOC_SESSION_START, &st));
	st.flags = 0;
	st.reserved[1] = 1;
	EXPECT_EQ(-EINVAL, etw_ioctl_err(self->fd, ETW_IOC_SESSION_START, &st));
	st.reserved[1] = 0;
	st.info.flush_timer = 86401;
	EXPECT_EQ(-EINVAL, etw_ioctl_err(self->fd, ETW_IOC_SESSION_START, &st));
}

TEST_F(session, at_most_64)
{
	char name[32];
	__u32 id = 0, i, started = 0;
	int ret = 0;

	/* Other sessions may run; fill the table with small ones. */
	for (i = 0; i < ETW_MAX_SESSIONS + 1 && !ret; i++) {
		snprintf(name, sizeof(name), "etwtest-max-%u", i);
		ret = etw_session_start_simple(self->fd, name, 0, 1, 0, &id);
		if (!ret)
			started++;
	}
	EXPECT_EQ(-ENOSPC, ret);
	EXPECT_GE(ETW_MAX_SESSIONS, started);
	/* One stopped, one more can start. */
	ASSERT_EQ(0, etw_session_ctl(self->fd, id, ETW_CONTROL_STOP, NULL));
	EXPECT_EQ(0, etw_session_start_simple(self->fd, "etwtest-max-again", 0, 1, 0, &id));
}

TEST_F(session, update_flush_timer)
{
	struct etw_session_control c = { .size = sizeof(c) };
	__u32 id;

	ASSERT_EQ(0, etw_session_start_simple(self->fd, "etwtest-update", 0, 4, 0, &id));
	c.code = ETW_CONTROL_UPDATE;
	c.logger_id = id;
	c.info.flush_timer = 5;
	ASSERT_EQ(0, etw_ioctl_err(self->fd, ETW_IOC_SESSION_CONTROL, &c));
	EXPECT_EQ(5, c.info.flush_timer);
	c.info.flush_timer = 0;		/* 0: unchanged */
	ASSERT_EQ(0, etw_ioctl_err(self->fd, ETW_IOC_SESSION_CONTROL, &c));
	EXPECT_EQ(5, c.info.flush_timer);
}

/* A session outlives the file (and process) that started it. */
TEST_F(session, outlives_its_process)
{
	struct etw_session_info info;
	pid_t pid;
	int status;

	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		int fd = open(ETW_DEV, O_RDWR);

		_exit(etw_session_start_simple(fd, "etwtest-orphan", 0, 4, 0, NULL) ? 1 : 0);
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_EQ(0, WEXITSTATUS(status));

	{
		struct etw_session_control c = { .size = sizeof(c) };

		snprintf(c.info.name, sizeof(c.info.name), "etwtest-orphan");
		ASSERT_EQ(0, etw_ioctl_err(self->fd, ETW_IOC_SESSION_CONTROL, &c));
		info = c.info;
	}
	EXPECT_EQ(0, etw_session_ctl(self->fd, info.logger_id, ETW_CONTROL_STOP, NULL));
}

/* Controlling needs privilege; registering and writing do not. */
TEST_F(session, unprivileged)
{
	pid_t pid;
	int status;
	__u32 id;

	ASSERT_EQ(0, etw_session_start_simple(self->fd, "etwtest-priv", 0, 4, 0, &id));
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		__u8 guid[16];
		__u32 reg = 0;
		int fd, bad = 0;

		if (setgid(65534) || setuid(65534))
			_exit(100);
		fd = open(ETW_DEV, O_RDWR);
		if (fd < 0)
			_exit(101);
		etw_test_guid(guid, 1);
		bad |= etw_session_start_simple(fd, "etwtest-user", 0, 4, 0, NULL) != -EACCES;
		bad |= (etw_session_ctl(fd, id, ETW_CONTROL_QUERY, NULL) != -EACCES) << 1;
		bad |= (etw_session_ctl(fd, id, ETW_CONTROL_STOP, NULL) != -EACCES) << 2;
		bad |= (etw_session_ctl(fd, id, ETW_CONTROL_FLUSH, NULL) != -EACCES) << 3;
		bad |= (etw_enable_simple(fd, id, guid, 1, 5, 0, 0, 0) != -EACCES) << 4;
		bad |= (etw_register_simple(fd, guid, &reg) != 0) << 5;
		bad |= (etw_write_simple(fd, reg, 1, 4, 0, "x", 1) != 0) << 6;
		_exit(bad);
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_EQ(0, WEXITSTATUS(status));
	EXPECT_EQ(0, etw_session_ctl(self->fd, id, ETW_CONTROL_QUERY, NULL));
}

#define CONTROL_GID_PARAM	"/sys/module/etw/parameters/control_gid"

/* Keep only @cap (-1: none) in the effective and permitted sets. */
static int keep_only_cap(int cap)
{
	struct __user_cap_header_struct h = { .version = _LINUX_CAPABILITY_VERSION_3 };
	struct __user_cap_data_struct d[2];

	memset(d, 0, sizeof(d));
	if (cap >= 0) {
		d[cap / 32].effective = 1U << (cap % 32);
		d[cap / 32].permitted = 1U << (cap % 32);
	}
	return syscall(SYS_capset, &h, d);
}

/*
 * A non-root process with only @cap, or in group @gid: 0 if it may start,
 * query and stop a session, 1 if every one of those is EACCES, else 2.
 */
static int control_as(int cap, gid_t gid)
{
	pid_t pid = fork();
	int status;

	if (!pid) {
		gid_t groups[1] = { gid };
		int fd, a, b, c;
		__u32 id = 0;

		if (prctl(PR_SET_KEEPCAPS, 1) ||
		    setgroups(gid ? 1 : 0, groups) || setgid(65534) ||
		    setuid(65534) || keep_only_cap(cap))
			_exit(3);
		fd = open(ETW_DEV, O_RDWR);
		if (fd < 0)
			_exit(4);
		a = etw_session_start_simple(fd, "etwtest-cap", 0, 4, 0, &id);
		b = etw_session_ctl(fd, id ? id : 1, ETW_CONTROL_QUERY, NULL);
		c = etw_session_ctl(fd, id ? id : 1, ETW_CONTROL_STOP, NULL);
		if (!a && !b && !c)
			_exit(0);
		_exit(a == -EACCES && b == -EACCES && c == -EACCES ? 1 : 2);
	}
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		return -1;
	return WEXITSTATUS(status);
}

static int set_control_gid(int gid)
{
	FILE *f = fopen(CONTROL_GID_PARAM, "w");

	if (!f)
		return -1;
	fprintf(f, "%d\n", gid);
	return fclose(f);
}

/* Windows' Administrators and Performance Log Users, the Linux way. */
TEST_F(session, who_may_control)
{
	EXPECT_EQ(1, control_as(-1, 0));
	EXPECT_EQ(0, control_as(CAP_SYS_ADMIN, 0));
	EXPECT_EQ(0, control_as(CAP_PERFMON, 0));
	EXPECT_EQ(1, control_as(CAP_SYS_PTRACE, 0));
	/* The module's control group, and only that group. */
	ASSERT_EQ(0, set_control_gid(4242));
	EXPECT_EQ(0, control_as(-1, 4242));
	EXPECT_EQ(1, control_as(-1, 4243));
	ASSERT_EQ(0, set_control_gid(-1));
	EXPECT_EQ(1, control_as(-1, 4242));
}

TEST_HARNESS_MAIN
