// SPDX-License-Identifier: GPL-2.0
/*
 * Writer fds (ETW_IOC_WRITER_OPEN): a file description per writing thread,
 * bound to the registrations of the /dev/etw file it was opened from.
 * Their events carry the writer's PID and TID; the registrations stay the
 * file's, so a writer fd outliving its file writes nothing (EBADF); only
 * ETW_IOC_WRITE answers on it; anyone may open one.
 */
#include <grp.h>
#include <linux/capability.h>
#include <pthread.h>
#include <stdio.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>

#include "kselftest_harness.h"
#include "etw_selftests.h"

#define NOBODY		65534
#define PER_THREAD	300

/* ETW_IOC_WRITER_OPEN on @fd: the writer fd, or -errno. */
static int writer_open(int fd)
{
	struct etw_writer_open o = { .size = sizeof(o) };
	int ret = etw_ioctl_err(fd, ETW_IOC_WRITER_OPEN, &o);

	return ret ? ret : o.fd;
}

FIXTURE(writer)
{
	int fd;		/* the controller's */
	__u8 guid[16];
	__u32 logger;
};

FIXTURE_SETUP(writer)
{
	etw_require_root(_metadata);
	self->fd = etw_open_or_skip(_metadata);
	etw_stop_test_sessions(self->fd);
	etw_test_guid(self->guid, 0x60);
	ASSERT_EQ(0, etw_session_start_simple(self->fd, "etwtest-writer", 0, 64,
					      64, &self->logger));
	ASSERT_EQ(0, etw_enable_simple(self->fd, self->logger, self->guid, 1,
				       5, 0, 0, 0));
}

FIXTURE_TEARDOWN(writer)
{
	if (self->fd >= 0) {
		etw_stop_test_sessions(self->fd);
		close(self->fd);
	}
}

TEST_F(writer, open_arguments_and_other_ioctls)
{
	struct etw_writer_open o = { .size = sizeof(o) };
	struct etw_version v = { .size = sizeof(v) };
	struct etw_provider_register r = { .size = sizeof(r) };
	char path[64], target[64];
	ssize_t len;
	__u32 reg;
	int w, w2;
	char c;

	o.flags = 1;
	EXPECT_EQ(-EINVAL, etw_ioctl_err(self->fd, ETW_IOC_WRITER_OPEN, &o));
	o.flags = 0;
	o.reserved = 1;
	EXPECT_EQ(-EINVAL, etw_ioctl_err(self->fd, ETW_IOC_WRITER_OPEN, &o));
	o.reserved = 0;
	o.size = 8;
	EXPECT_EQ(-EINVAL, etw_ioctl_err(self->fd, ETW_IOC_WRITER_OPEN, &o));
	EXPECT_EQ(-EFAULT, etw_ioctl_err(self->fd, ETW_IOC_WRITER_OPEN, NULL));

	w = writer_open(self->fd);
	ASSERT_LE(0, w);
	EXPECT_EQ(FD_CLOEXEC, fcntl(w, F_GETFD));
	snprintf(path, sizeof(path), "/proc/self/fd/%d", w);
	len = readlink(path, target, sizeof(target) - 1);
	ASSERT_LT(0, len);
	target[len] = 0;
	EXPECT_STREQ("anon_inode:[etw-writer]", target);
	/* Each call, a file description of its own. */
	w2 = writer_open(self->fd);
	ASSERT_LE(0, w2);
	EXPECT_NE(w, w2);

	/* Only ETW_IOC_WRITE: nothing else of /dev/etw, nor a writer of a writer. */
	EXPECT_EQ(-ENOTTY, etw_ioctl_err(w, ETW_IOC_VERSION, &v));
	EXPECT_EQ(-ENOTTY, etw_ioctl_err(w, ETW_IOC_PROVIDER_REGISTER, &r));
	EXPECT_EQ(-ENOTTY, etw_ioctl_err(w, ETW_IOC_WRITER_OPEN, &o));
	EXPECT_EQ(-1, read(w, &c, 1));
	EXPECT_TRUE(mmap(NULL, 4096, PROT_READ, MAP_SHARED, w, 0) == MAP_FAILED);

	/* The same write errors as on the file: the request is checked. */
	{
		/* No registration yet: no reg_id names one. */
		struct etw_event_write_short none = { .size = sizeof(none),
						      .reg_id = 1 };

		EXPECT_EQ(-EBADF, etw_write_simple(w, 1, 1, 4, 0, "x", 1));
		EXPECT_EQ(-EBADF, etw_ioctl_err(w, ETW_IOC_WRITE_SHORT, &none));
		none.reg_id = ETW_MAX_REGS_PER_FILE;
		EXPECT_EQ(-EBADF, etw_ioctl_err(w, ETW_IOC_WRITE_SHORT, &none));
	}
	ASSERT_EQ(0, etw_register_simple(self->fd, self->guid, &reg));
	EXPECT_EQ(-EBADF, etw_write_simple(w, reg + 1, 1, 4, 0, "x", 1));
	EXPECT_EQ(-EFAULT, etw_ioctl_err(w, ETW_IOC_WRITE, NULL));
	EXPECT_EQ(0, etw_write_simple(w, reg, 1, 4, 0, "x", 1));
	EXPECT_EQ(0, etw_write_simple(w2, reg, 1, 4, 0, "x", 1));
	/* ETW_IOC_WRITE_SHORT too, the payload inline. */
	{
		struct etw_event_write_short sw = { .size = sizeof(sw), .reg_id = reg };
		struct etw_counts counts;

		sw.desc.id = 2;
		sw.desc.level = 4;
		sw.data = (uintptr_t)"short";
		sw.count = 5;
		sw.flags = ETW_WRITE_F_INLINE;
		EXPECT_EQ(0, etw_ioctl_err(w, ETW_IOC_WRITE_SHORT, &sw));
		sw.reg_id = reg + 1;
		EXPECT_EQ(-EBADF, etw_ioctl_err(w, ETW_IOC_WRITE_SHORT, &sw));
		ASSERT_LE(0, etw_count(self->fd, self->logger, self->guid, &counts));
		EXPECT_EQ(2, counts.by_id[1]);
		EXPECT_EQ(1, counts.by_id[2]);
	}
	close(w);
	close(w2);
}

struct thread_writes {
	int fd;		/* /dev/etw: each thread opens its writer fd from it */
	__u32 reg;
	__u16 id;
	pid_t tid;
	int bad;
	long written;
};

static void *write_own_fd(void *arg)
{
	struct thread_writes *t = arg;
	int w = writer_open(t->fd), i;

	t->tid = syscall(SYS_gettid);
	if (w < 0) {
		t->bad = w;
		return NULL;
	}
	for (i = 0; i < PER_THREAD; i++) {
		long lost = 0;

		t->written += etw_write_counted(w, t->reg, t->id, &lost);
		t->bad |= lost ? 1 : 0;
	}
	close(w);
	return NULL;
}

struct owner_check {
	const __u8 *guid;
	struct thread_writes *t;
	int n;
	long seen[2];
	long wrong_owner;
};

static int check_owner(const struct etw_test_event_header *h,
		       const __u8 *buffer, __u32 cpu, void *ctx)
{
	struct owner_check *c = ctx;
	int i;

	if (memcmp(h->provider_id, c->guid, 16))
		return 0;
	for (i = 0; i < c->n; i++)
		if (h->desc.id == c->t[i].id) {
			c->seen[i]++;
			if (h->thread_id != (__u32)c->t[i].tid ||
			    h->process_id != (__u32)getpid())
				c->wrong_owner++;
		}
	return 0;
}

/* Two threads, each through its own writer fd: every event, its own TID. */
TEST_F(writer, threads_write_through_their_own_fds)
{
	struct thread_writes t[2];
	struct owner_check c = { .guid = self->guid, .t = t, .n = 2 };
	pthread_t th[2];
	int prov, i;
	__u32 reg;

	/* The provider's file is not the controller's. */
	prov = open(ETW_DEV, O_RDWR | O_CLOEXEC);
	ASSERT_LE(0, prov);
	ASSERT_EQ(0, etw_register_simple(prov, self->guid, &reg));
	for (i = 0; i < 2; i++) {
		t[i] = (struct thread_writes){ .fd = prov, .reg = reg, .id = 10 + i };
		ASSERT_EQ(0, pthread_create(&th[i], NULL, write_own_fd, &t[i]));
	}
	for (i = 0; i < 2; i++) {
		ASSERT_EQ(0, pthread_join(th[i], NULL));
		EXPECT_EQ(0, t[i].bad);
		EXPECT_EQ(PER_THREAD, t[i].written);
	}
	ASSERT_EQ(2 * PER_THREAD, etw_drain(self->fd, self->logger, check_owner, &c));
	EXPECT_EQ(PER_THREAD, c.seen[0]);
	EXPECT_EQ(PER_THREAD, c.seen[1]);
	EXPECT_EQ(0, c.wrong_owner);
	close(prov);
}

/* Records of the test's provider, and those whose header is not @want. */
struct header_check {
	const __u8 *guid;
	__u16 want;
	long seen;
	long wrong;
};

static int check_header(const struct etw_test_event_header *h,
			const __u8 *buffer, __u32 cpu, void *ctx)
{
	struct header_check *c = ctx;

	if (memcmp(h->provider_id, c->guid, 16))
		return 0;
	c->seen++;
	c->wrong += h->header_type != c->want;
	return 0;
}

/*
 * A writer fd's events have the caller's header: 64-bit from a 64-bit
 * program, EVENT_HEADER32 from a 32-bit one (the compat ioctl), through
 * the short write's fast lane (one CPU, its buffer current after the
 * first event) and through ETW_IOC_WRITE.
 */
TEST_F(writer, records_have_the_callers_header)
{
	struct header_check c = { .guid = self->guid,
				  .want = sizeof(void *) == 8 ? 0xC013 : 0xC012 };
	struct etw_event_write_short sw = { .size = sizeof(sw) };
	__u32 reg;
	int w, i;

	ASSERT_EQ(0, etw_pin_cpu(0));
	ASSERT_EQ(0, etw_register_simple(self->fd, self->guid, &reg));
	w = writer_open(self->fd);
	ASSERT_LE(0, w);
	sw.reg_id = reg;
	sw.desc.level = 4;
	sw.data = (uintptr_t)"header";
	sw.count = 6;
	sw.flags = ETW_WRITE_F_INLINE;
	for (i = 0; i < 4; i++)
		EXPECT_EQ(0, etw_ioctl_err(w, ETW_IOC_WRITE_SHORT, &sw));
	EXPECT_EQ(0, etw_write_simple(w, reg, 1, 4, 0, "x", 1));
	ASSERT_EQ(5, etw_drain(self->fd, self->logger, check_header, &c));
	EXPECT_EQ(5, c.seen);
	EXPECT_EQ(0, c.wrong);
	close(w);
}

struct racing_writer {
	int w;
	__u32 reg;
	volatile int stop;
	volatile long ok;
	long lost;		/* ENOSPC: the session's buffers were full */
	volatile long ebadf;	/* counted after the writes before it */
	long other;		/* any other result: a bug */
	int last_err;
};

static void *write_until_stopped(void *arg)
{
	struct racing_writer *r = arg;

	while (!r->stop) {
		int ret = etw_write_simple(r->w, r->reg, 20, 4, 0, "payload", 7);

		if (!ret) {
			r->ok++;
		} else if (ret == -ENOSPC) {
			r->lost++;
		} else if (ret == -EBADF) {
			r->ebadf++;
		} else {
			r->other++;
			r->last_err = ret;
		}
	}
	return NULL;
}

static void wait_for_writes(struct racing_writer *r, long n)
{
	long start = r->ok;
	int i;

	for (i = 0; i < 2000 && r->ok < start + n; i++)
		usleep(1000);
}

/*
 * A thread keeps writing through its writer fd while the provider
 * unregisters and, in a second round, while its /dev/etw file is closed
 * with the registration still in place: from then on every write is
 * EBADF, as a stale handle; the registration went with the file.
 */
TEST_F(writer, writer_outlives_unregister_and_close)
{
	struct racing_writer r = { 0 };
	struct etw_provider_unregister u = { .size = sizeof(u) };
	struct etw_counts counts;
	pthread_t th;
	int round, prov;
	long ok;

	for (round = 0; round < 2; round++) {
		prov = open(ETW_DEV, O_RDWR | O_CLOEXEC);
		ASSERT_LE(0, prov);
		ASSERT_EQ(0, etw_register_simple(prov, self->guid, &r.reg));
		r.w = writer_open(prov);
		ASSERT_LE(0, r.w);
		r.stop = 0;
		r.ok = r.ebadf = 0;
		ASSERT_EQ(0, pthread_create(&th, NULL, write_until_stopped, &r));
		wait_for_writes(&r, 50);
		if (round == 0) {
			u.reg_id = r.reg;
			ASSERT_EQ(0, etw_ioctl_err(prov, ETW_IOC_PROVIDER_UNREGISTER, &u));
		}
		close(prov);
		/*
		 * Closed: what the thread writes from now on goes nowhere.
		 * Once it has seen EBADF, every write that succeeded is in
		 * r.ok (a thread descheduled between its ioctl and its count
		 * would otherwise be counted late).
		 */
		for (int i = 0; i < 5000 && !r.ebadf; i++)
			usleep(1000);
		ok = r.ok;
		ASSERT_LE(0, etw_count(self->fd, self->logger, self->guid, &counts));
		usleep(20000);
		r.stop = 1;
		ASSERT_EQ(0, pthread_join(th, NULL));
		EXPECT_LT(0, ok);
		EXPECT_EQ(ok, r.ok);
		EXPECT_LT(0, r.ebadf);
		EXPECT_EQ(0, r.other) TH_LOG("round %d: error %d", round, r.last_err);
		EXPECT_EQ(ok, counts.by_id[20]);
		EXPECT_EQ(-EBADF, etw_write_simple(r.w, r.reg, 20, 4, 0, "x", 1));
		/* The session saw nothing since. */
		ASSERT_LE(0, etw_count(self->fd, self->logger, self->guid, &counts));
		EXPECT_EQ(0, counts.total);
		close(r.w);
	}
}

/*
 * Closing the writer fd last frees the file's state; closing the file
 * first while the writer fd is open, then writing, then closing it, in
 * a loop: nothing leaks (slub_debug) and nothing is used after it is
 * freed (KASAN, KFENCE), which the kernel log scan checks.
 */
TEST_F(writer, either_close_order)
{
	int i, prov, w;
	__u32 reg;

	for (i = 0; i < 50; i++) {
		prov = open(ETW_DEV, O_RDWR | O_CLOEXEC);
		ASSERT_LE(0, prov);
		ASSERT_EQ(0, etw_register_simple(prov, self->guid, &reg));
		w = writer_open(prov);
		ASSERT_LE(0, w);
		EXPECT_EQ(0, etw_write_simple(w, reg, 21, 4, 0, "x", 1));
		if (i % 2) {
			close(w);
			EXPECT_EQ(0, etw_write_simple(prov, reg, 21, 4, 0, "x", 1));
			close(prov);
		} else {
			close(prov);
			EXPECT_EQ(-EBADF, etw_write_simple(w, reg, 21, 4, 0, "x", 1));
			close(w);
		}
	}
}

/* Become nobody with no capabilities; 0 or -1. */
static int become_nobody(void)
{
	struct __user_cap_header_struct h = { .version = _LINUX_CAPABILITY_VERSION_3 };
	struct __user_cap_data_struct d[2] = { 0 };

	if (setgroups(0, NULL) || setgid(NOBODY) || setuid(NOBODY))
		return -1;
	if (syscall(SYS_capset, &h, d))
		return -1;
	return geteuid() == NOBODY ? 0 : -1;
}

/*
 * A struct the kernel cannot write back (read-only page): EFAULT, and no
 * writer fd is left in the table, however often; a writer opens and
 * writes afterwards.  The reference each attempt took on the file is
 * dropped too: the module's cache would report it at unload.
 */
TEST_F(writer, read_only_struct_leaves_no_fd)
{
	struct etw_writer_open o = { .size = sizeof(o) }, *ro;
	struct etw_counts counts;
	DIR *dir = opendir("/proc/self/fd");
	__u32 reg;
	int i, n, w;

	ASSERT_TRUE(dir != NULL);
	ASSERT_EQ(0, etw_register_simple(self->fd, self->guid, &reg));
	ro = etw_read_only_copy(&o, sizeof(o));
	ASSERT_TRUE(ro != NULL);
	n = etw_fd_count(dir);
	for (i = 0; i < 100; i++)
		EXPECT_EQ(-EFAULT, etw_ioctl_err(self->fd, ETW_IOC_WRITER_OPEN, ro));
	EXPECT_EQ(n, etw_fd_count(dir));
	EXPECT_EQ(0, etw_fds_to(dir, "anon_inode:[etw-writer]"));

	w = writer_open(self->fd);
	ASSERT_LE(0, w);
	EXPECT_EQ(n + 1, etw_fd_count(dir));
	EXPECT_EQ(0, etw_write_simple(w, reg, 31, 4, 0, "after", 5));
	ASSERT_LE(0, etw_count(self->fd, self->logger, self->guid, &counts));
	EXPECT_EQ(1, counts.by_id[31]);
	close(w);
	etw_read_only_free(ro);
	closedir(dir);
}

/* Writing needs no privilege: nor does a writer fd. */
TEST_F(writer, unprivileged)
{
	struct etw_counts counts;
	int status;
	pid_t pid;

	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		int fd, w;
		__u32 reg;

		if (become_nobody())
			_exit(10);
		fd = open(ETW_DEV, O_RDWR | O_CLOEXEC);
		if (fd < 0 || etw_register_simple(fd, self->guid, &reg))
			_exit(11);
		w = writer_open(fd);
		if (w < 0)
			_exit(12);
		if (etw_write_simple(w, reg, 30, 4, 0, "nobody", 6))
			_exit(13);
		_exit(0);
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_TRUE(WIFEXITED(status));
	ASSERT_EQ(0, WEXITSTATUS(status));
	ASSERT_LE(0, etw_count(self->fd, self->logger, self->guid, &counts));
	EXPECT_EQ(1, counts.by_id[30]);
}

TEST_HARNESS_MAIN
