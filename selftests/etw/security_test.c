// SPDX-License-Identifier: GPL-2.0
/*
 * What a caller without the rights to control tracing can and cannot do,
 * and what no caller can make the kernel do:
 *
 * - an unprivileged process (nobody, no capabilities) gets EACCES from
 *   every control operation: start, stop, update, flush, query, enable,
 *   disable, capture state, reading a session's buffers, attaching as its
 *   consumer (also while another consumer is attached: EACCES, not
 *   EBUSY), and /dev/etw maps no session memory at any offset; it can
 *   register and write, as on Windows; CAP_PERFMON alone, or the module's
 *   control_gid group, is enough to control and to map a session's
 *   buffers through a consumer fd;
 * - the kernel reads and writes only the caller's own, accessible memory:
 *   every pointer of every ioctl aimed at kernel, unmapped or read-only
 *   memory is EFAULT, and a failed copy-out loses nothing;
 * - a process sees only its own registrations' enable state, read-only;
 * - the PID, TID and timestamp of a record are the kernel's, also for a
 *   process in a PID namespace.
 */
#include <linux/capability.h>
#include <grp.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>

#include "kselftest_harness.h"
#include "etw_selftests.h"
#include "etw_kmod.h"
#include "etw_clock.h"

#define NOBODY	65534

/* Kernel addresses the caller must never reach through a pointer field. */
static const __u64 kernel_ptrs[] = {
	0xffff888000000000ULL,	/* direct map */
	0xffffffff81000000ULL,	/* kernel text */
	0xffffc90000000000ULL,	/* vmalloc */
	0xfffffffffffff000ULL,
};

/*
 * Become nobody, keeping only the capabilities in @caps (a bit mask of
 * CAP_* below 32) and, if @gid >= 0, that supplementary group.
 */
static int become_nobody(__u32 caps, int gid)
{
	struct __user_cap_header_struct h = { .version = _LINUX_CAPABILITY_VERSION_3 };
	struct __user_cap_data_struct d[2] = { 0 };
	gid_t groups[1] = { (gid_t)gid };

	if (setgroups(gid >= 0 ? 1 : 0, groups))
		return -1;
	if (prctl(PR_SET_KEEPCAPS, caps ? 1 : 0, 0, 0, 0))
		return -1;
	if (setgid(NOBODY) || setuid(NOBODY))
		return -1;
	d[0].effective = d[0].permitted = caps;
	if (syscall(SYS_capset, &h, d))
		return -1;
	return geteuid() == NOBODY ? 0 : -1;
}

/* ETW_IOC_CONSUMER_ATTACH to session @id: the consumer fd, or -errno. */
static int attach(int fd, __u32 id, __u32 flags)
{
	struct etw_consumer_attach a = { .size = sizeof(a), .flags = flags,
					 .logger_id = id };
	int ret = etw_ioctl_err(fd, ETW_IOC_CONSUMER_ATTACH, &a);

	return ret ? ret : a.fd;
}

/* Whether a page of @fd at @off can be mapped, shared or private. */
static bool maps(int fd, __u64 off)
{
	long page = sysconf(_SC_PAGESIZE);
	bool any = false;
	void *p;
	int i;

	for (i = 0; i < 2; i++) {
		p = mmap(NULL, page, PROT_READ, i ? MAP_PRIVATE : MAP_SHARED, fd, (off_t)off);
		if (p != MAP_FAILED) {
			munmap(p, page);
			any = true;
		}
	}
	return any;
}

/* Every control operation on session @id; returns a bit per non-EACCES. */
static int control_all(int fd, __u32 id, const __u8 guid[16])
{
	struct etw_session_control c = { .size = sizeof(c) };
	static __u8 buf[1024 * 1024];
	struct etw_buffer_read r = { .size = sizeof(r), .logger_id = id,
				     .length = sizeof(buf), .buf = (uintptr_t)buf };
	int bad = 0, code, bit = 0;

	bad |= (etw_session_start_simple(fd, "etwtest-sec-user", 0, 4, 0, NULL) != -EACCES) << bit++;
	for (code = ETW_CONTROL_QUERY; code <= ETW_CONTROL_FLUSH; code++)
		bad |= (etw_session_ctl(fd, id, code, NULL) != -EACCES) << bit++;
	/* By name, too. */
	snprintf(c.info.name, sizeof(c.info.name), "etwtest-sec");
	bad |= (etw_ioctl_err(fd, ETW_IOC_SESSION_CONTROL, &c) != -EACCES) << bit++;
	for (code = ETW_CONTROL_CODE_DISABLE; code <= ETW_CONTROL_CODE_CAPTURE_STATE; code++)
		bad |= (etw_enable_simple(fd, id, guid, code, 5, 0, 0, 0) != -EACCES) << bit++;
	bad |= (etw_ioctl_err(fd, ETW_IOC_BUFFER_READ, &r) != -EACCES) << bit++;
	bad |= (attach(fd, id, ETW_CONSUMER_F_CLOEXEC) != -EACCES) << bit++;
	bad |= (attach(fd, id, ETW_CONSUMER_F_LOGGER) != -EACCES) << bit++;
	/* /dev/etw itself maps no session memory, at any offset. */
	bad |= maps(fd, ETW_CONSUMER_MMAP_RING) << bit++;
	bad |= maps(fd, ETW_CONSUMER_MMAP_BUFFERS) << bit++;
	bad |= maps(fd, ETW_MMAP_STATE + ETW_MMAP_STATE_SIZE) << bit++;
	return bad;
}

FIXTURE(sec)
{
	int fd;
	__u8 guid[16];
	__u32 id;
	__u32 reg;
};

FIXTURE_SETUP(sec)
{
	etw_require_root(_metadata);
	self->fd = etw_open_or_skip(_metadata);
	etw_stop_test_sessions(self->fd);
	etw_test_guid(self->guid, 0x60);
	ASSERT_EQ(0, etw_session_start_simple(self->fd, "etwtest-sec", 0, 4, 0, &self->id));
	ASSERT_EQ(0, etw_register_simple(self->fd, self->guid, &self->reg));
	ASSERT_EQ(0, etw_enable_simple(self->fd, self->id, self->guid, 1, 0, 0, 0, 0));
}

FIXTURE_TEARDOWN(sec)
{
	if (self->fd >= 0) {
		etw_stop_test_sessions(self->fd);
		close(self->fd);
	}
}

static int run_as(__u32 caps, int gid, int (*fn)(void *), void *arg)
{
	int status;
	pid_t pid = fork();

	if (pid < 0)
		return -1;
	if (!pid)
		_exit(become_nobody(caps, gid) ? 255 : fn(arg));
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		return -1;
	return WEXITSTATUS(status);
}

struct ctl_arg {
	__u32 id;
	const __u8 *guid;
	bool expect_denied;
};

static int try_control(void *p)
{
	struct ctl_arg *a = p;
	int fd = open(ETW_DEV, O_RDWR), bad, cfd;
	__u32 reg = 0;

	if (fd < 0)
		return 254;
	if (a->expect_denied) {
		bad = control_all(fd, a->id, a->guid);
		/* Registering and writing need nothing. */
		if (etw_register_simple(fd, a->guid, &reg) ||
		    etw_write_simple(fd, reg, 1, 4, 0, "x", 1))
			bad |= 1 << 20;
		return bad ? 1 : 0;
	}
	/*
	 * Allowed: query works, a session can be started, read through a
	 * consumer fd, and stopped.
	 */
	bad = etw_session_ctl(fd, a->id, ETW_CONTROL_QUERY, NULL) != 0;
	bad |= etw_session_start_simple(fd, "etwtest-sec-allowed", 0, 4, 0, &reg) != 0;
	cfd = attach(fd, reg, ETW_CONSUMER_F_CLOEXEC);
	bad |= cfd < 0 || !maps(cfd, ETW_CONSUMER_MMAP_RING);
	if (cfd >= 0)
		close(cfd);
	bad |= etw_session_ctl(fd, reg, ETW_CONTROL_STOP, NULL) != 0;
	return bad;
}

TEST_F(sec, unprivileged_cannot_control)
{
	struct ctl_arg a = { self->id, self->guid, true };
	struct etw_session_info info;

	int cfd;

	EXPECT_EQ(0, run_as(0, -1, try_control, &a));
	/* Capabilities other than CAP_SYS_ADMIN and CAP_PERFMON do not help. */
	EXPECT_EQ(0, run_as(1u << CAP_NET_ADMIN | 1u << CAP_DAC_OVERRIDE, -1, try_control, &a));
	/* With a consumer attached: EACCES still, not EBUSY (nothing is told). */
	cfd = attach(self->fd, self->id, ETW_CONSUMER_F_CLOEXEC);
	ASSERT_LE(0, cfd);
	EXPECT_EQ(-EBUSY, attach(self->fd, self->id, ETW_CONSUMER_F_CLOEXEC));
	EXPECT_EQ(0, run_as(0, -1, try_control, &a));
	close(cfd);
	/* The session is untouched: still running, nothing lost. */
	ASSERT_EQ(0, etw_session_ctl(self->fd, self->id, ETW_CONTROL_QUERY, &info));
	EXPECT_EQ(0, info.events_lost);
	EXPECT_EQ(-ENOENT, etw_session_ctl(self->fd, 0xffff, ETW_CONTROL_QUERY, NULL));
}

/* Windows' Performance Log Users: CAP_PERFMON, or the control_gid group. */
TEST_F(sec, perfmon_or_control_group_may_control)
{
	struct ctl_arg a = { self->id, self->guid, false };

	/* CAP_PERFMON is 38: above the first capability word. */
	{
		int status;
		pid_t pid = fork();

		ASSERT_LE(0, pid);
		if (!pid) {
			struct __user_cap_header_struct h = { .version = _LINUX_CAPABILITY_VERSION_3 };
			struct __user_cap_data_struct d[2] = { 0 };

			if (prctl(PR_SET_KEEPCAPS, 1, 0, 0, 0) || setgroups(0, NULL) ||
			    setgid(NOBODY) || setuid(NOBODY))
				_exit(255);
			d[1].effective = d[1].permitted = 1u << (CAP_PERFMON - 32);
			if (syscall(SYS_capset, &h, d))
				_exit(255);
			_exit(try_control(&a));
		}
		ASSERT_EQ(pid, waitpid(pid, &status, 0));
		ASSERT_TRUE(WIFEXITED(status));
		EXPECT_EQ(0, WEXITSTATUS(status));
	}

	/* The group named by the module parameter. */
	ASSERT_EQ(0, etw_write_file(ETW_PARAM("control_gid"), "4242"));
	EXPECT_EQ(0, run_as(0, 4242, try_control, &a));
	a.expect_denied = true;
	EXPECT_EQ(0, run_as(0, 4243, try_control, &a));
	ASSERT_EQ(0, etw_write_file(ETW_PARAM("control_gid"), "-1"));
	EXPECT_EQ(0, run_as(0, 4242, try_control, &a));
}

/* Every pointer field aimed at the kernel is EFAULT, and nothing happens. */
TEST_F(sec, kernel_pointers_are_efault)
{
	static __u8 buf[1024 * 1024];
	struct etw_data_desc d = { .size = 8 };
	struct etw_session_info info;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(kernel_ptrs); i++) {
		__u64 k = kernel_ptrs[i];
		struct etw_event_write w = { .size = sizeof(w), .kind = ETW_WRITE_EVENT,
					     .reg_id = self->reg, .count = 1 };
		struct etw_enable e = { .size = sizeof(e), .logger_id = self->id,
					.control_code = 1, .event_id_count = 2,
					.event_ids = k, .event_ids_enable = 1 };
		struct etw_buffer_read r = { .size = sizeof(r), .logger_id = self->id,
					     .length = sizeof(buf), .buf = k };

		/* The descriptor array, then the data it points at. */
		w.data = k;
		EXPECT_EQ(-EFAULT, etw_ioctl_err(self->fd, ETW_IOC_WRITE, &w));
		d.ptr = k;
		w.data = (uintptr_t)&d;
		EXPECT_EQ(-EFAULT, etw_ioctl_err(self->fd, ETW_IOC_WRITE, &w));
		memcpy(e.guid, self->guid, 16);
		EXPECT_EQ(-EFAULT, etw_ioctl_err(self->fd, ETW_IOC_ENABLE, &e));
		EXPECT_EQ(-EAGAIN, etw_ioctl_err(self->fd, ETW_IOC_BUFFER_READ, &r));
		/* The argument struct itself. */
		if (sizeof(void *) == 8) {
			EXPECT_EQ(-EFAULT, etw_ioctl_err(self->fd, ETW_IOC_SESSION_START,
							 (void *)(uintptr_t)k));
			EXPECT_EQ(-EFAULT, etw_ioctl_err(self->fd, ETW_IOC_WRITE,
							 (void *)(uintptr_t)k));
		}
	}
	/* Nothing was written, nothing counted lost, the filter did not change. */
	EXPECT_EQ(0, etw_drain(self->fd, self->id, NULL, NULL));
	ASSERT_EQ(0, etw_session_ctl(self->fd, self->id, ETW_CONTROL_QUERY, &info));
	EXPECT_EQ(0, info.events_lost);
	EXPECT_EQ(0, etw_write_simple(self->fd, self->reg, 7, 4, 0, "abcdefgh", 8));
	EXPECT_EQ(1, etw_drain(self->fd, self->id, NULL, NULL));
}

/* A buffer that cannot be copied out stays in the session for the next read. */
TEST_F(sec, failed_buffer_read_loses_nothing)
{
	long page = sysconf(_SC_PAGESIZE);
	static __u8 buf[1024 * 1024];
	struct etw_buffer_read r = { .size = sizeof(r), .logger_id = self->id,
				     .length = sizeof(buf) };
	struct etw_counts c;
	__u8 *ro;
	int i;

	for (i = 0; i < 10; i++)
		ASSERT_EQ(0, etw_write_simple(self->fd, self->reg, i, 4, 0, "payload", 7));
	ASSERT_EQ(0, etw_session_ctl(self->fd, self->id, ETW_CONTROL_FLUSH, NULL));

	ro = mmap(NULL, sizeof(buf), PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_TRUE(ro != MAP_FAILED);
	r.buf = (uintptr_t)ro;
	EXPECT_EQ(-EFAULT, etw_ioctl_err(self->fd, ETW_IOC_BUFFER_READ, &r));
	r.buf = kernel_ptrs[0];
	EXPECT_EQ(-EFAULT, etw_ioctl_err(self->fd, ETW_IOC_BUFFER_READ, &r));
	/* A few bytes writable, then a hole. */
	munmap(ro, sizeof(buf));
	ro = mmap(NULL, 2 * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_TRUE(ro != MAP_FAILED);
	ASSERT_EQ(0, munmap(ro + page, page));
	r.buf = (uintptr_t)ro + page - 100;
	EXPECT_EQ(-EFAULT, etw_ioctl_err(self->fd, ETW_IOC_BUFFER_READ, &r));
	munmap(ro, page);

	EXPECT_EQ(10, etw_count(self->fd, self->id, self->guid, &c));
	EXPECT_EQ(10, c.total);
}

/* A notification that cannot be copied out stays queued. */
TEST_F(sec, failed_notification_read_loses_nothing)
{
	struct etw_notification n;
	int flags = fcntl(self->fd, F_GETFL);
	unsigned int i;

	ASSERT_EQ(0, fcntl(self->fd, F_SETFL, flags | O_NONBLOCK));
	/* The enable of the fixture queued one. */
	for (i = 0; i < ARRAY_SIZE(kernel_ptrs); i++) {
		EXPECT_EQ(-1, read(self->fd, (void *)(uintptr_t)kernel_ptrs[i], sizeof(n)));
		EXPECT_EQ(EFAULT, errno);
	}
	ASSERT_EQ(sizeof(n), read(self->fd, &n, sizeof(n)));
	EXPECT_EQ(self->reg, n.reg_id);
	EXPECT_EQ(ETW_CONTROL_CODE_ENABLE, n.control_code);
	EXPECT_EQ(self->id, n.logger_id);
	EXPECT_EQ(-1, read(self->fd, &n, sizeof(n)));
	EXPECT_EQ(EAGAIN, errno);
}

/* A struct the kernel cannot write back: EFAULT, and no session is left. */
TEST_F(sec, read_only_struct_has_no_effect)
{
	long page = sysconf(_SC_PAGESIZE);
	struct etw_session_start *st;
	struct etw_session_control c = { .size = sizeof(c) };

	st = mmap(NULL, page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_TRUE(st != MAP_FAILED);
	st->size = sizeof(*st);
	snprintf(st->info.name, sizeof(st->info.name), "etwtest-sec-ro");
	st->info.buffer_size_kb = 4;
	ASSERT_EQ(0, mprotect(st, page, PROT_READ));
	EXPECT_EQ(-EFAULT, etw_ioctl_err(self->fd, ETW_IOC_SESSION_START, st));
	snprintf(c.info.name, sizeof(c.info.name), "etwtest-sec-ro");
	EXPECT_EQ(-ENOENT, etw_ioctl_err(self->fd, ETW_IOC_SESSION_CONTROL, &c));
	munmap(st, page);
}

/* The state page: read-only, and only the file's own registrations. */
TEST_F(sec, state_page_is_private_and_read_only)
{
	long page = sysconf(_SC_PAGESIZE);
	int other = open(ETW_DEV, O_RDWR | O_CLOEXEC);
	struct etw_reg_state *mine, *theirs;
	__u32 slot = self->reg - 1;

	ASSERT_LE(0, other);
	mine = mmap(NULL, ETW_MMAP_STATE_SIZE, PROT_READ, MAP_SHARED, self->fd, ETW_MMAP_STATE);
	theirs = mmap(NULL, ETW_MMAP_STATE_SIZE, PROT_READ, MAP_SHARED, other, ETW_MMAP_STATE);
	ASSERT_TRUE(mine != MAP_FAILED);
	ASSERT_TRUE(theirs != MAP_FAILED);
	EXPECT_EQ(1, mine[slot].enabled);
	EXPECT_EQ(0, theirs[slot].enabled);
	EXPECT_EQ(0, theirs[slot].seq);

	EXPECT_NE(0, mprotect(mine, page, PROT_READ | PROT_WRITE));
	EXPECT_EQ(MAP_FAILED, mmap(NULL, page, PROT_READ | PROT_WRITE, MAP_SHARED,
				   self->fd, ETW_MMAP_STATE));
	EXPECT_EQ(MAP_FAILED, mmap(NULL, page, PROT_READ | PROT_WRITE, MAP_PRIVATE,
				   self->fd, ETW_MMAP_STATE));
	/* Past the state area, and at offsets the device does not have. */
	EXPECT_EQ(MAP_FAILED, mmap(NULL, ETW_MMAP_STATE_SIZE + page, PROT_READ,
				   MAP_SHARED, self->fd, ETW_MMAP_STATE));
	EXPECT_EQ(MAP_FAILED, mmap(NULL, page, PROT_READ, MAP_SHARED, self->fd,
				   ETW_MMAP_STATE + ETW_MMAP_STATE_SIZE));
	munmap(mine, ETW_MMAP_STATE_SIZE);
	munmap(theirs, ETW_MMAP_STATE_SIZE);
	close(other);
}

struct written {
	__u32 pid, tid;
	__u64 ts;
	long n;
};

static int keep(const struct etw_test_event_header *h, const __u8 *b, __u32 cpu, void *ctx)
{
	struct written *w = ctx;

	w->pid = h->process_id;
	w->tid = h->thread_id;
	w->ts = h->timestamp;
	w->n++;
	return 0;
}

struct thread_write {
	int fd;
	__u32 reg;
	pid_t tid;
};

static void *write_from_thread(void *p)
{
	struct thread_write *tw = p;

	tw->tid = syscall(SYS_gettid);
	if (etw_write_simple(tw->fd, tw->reg, 3, 4, 0, "t", 1))
		tw->tid = -1;
	return NULL;
}

/* PID, TID and time stamp come from the kernel, whatever the caller does. */
TEST_F(sec, pid_tid_and_time_are_the_kernels)
{
	struct thread_write tw = { self->fd, self->reg, 0 };
	struct written w = { 0 };
	pthread_t th;
	__u64 before, after;
	int status;
	pid_t pid;

	before = etw_clock_now();
	ASSERT_EQ(0, etw_write_simple(self->fd, self->reg, 1, 4, 0, "x", 1));
	after = etw_clock_now();
	ASSERT_EQ(1, etw_drain(self->fd, self->id, keep, &w));
	EXPECT_EQ(getpid(), w.pid);
	EXPECT_EQ(syscall(SYS_gettid), w.tid);
	EXPECT_LE(before, w.ts);
	EXPECT_GE(after, w.ts);

	/* Another thread of this process. */
	ASSERT_EQ(0, pthread_create(&th, NULL, write_from_thread, &tw));
	ASSERT_EQ(0, pthread_join(th, NULL));
	ASSERT_LT(0, tw.tid);
	ASSERT_EQ(1, etw_drain(self->fd, self->id, keep, &w));
	EXPECT_EQ(getpid(), w.pid);
	EXPECT_EQ(tw.tid, w.tid);
	EXPECT_NE(getpid(), w.tid);

	/* A process in its own PID namespace, where it is PID 1: the record
	 * holds the PID the rest of the system knows it by. */
	ASSERT_EQ(0, unshare(CLONE_NEWPID));
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid)
		_exit(getpid() == 1 && !etw_write_simple(self->fd, self->reg, 2, 4, 0, "n", 1) ?
		      0 : 1);
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_TRUE(WIFEXITED(status));
	ASSERT_EQ(0, WEXITSTATUS(status));
	ASSERT_EQ(1, etw_drain(self->fd, self->id, keep, &w));
	EXPECT_EQ(pid, w.pid);
	EXPECT_EQ(pid, w.tid);
}

TEST_HARNESS_MAIN
