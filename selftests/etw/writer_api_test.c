// SPDX-License-Identifier: GPL-2.0
/*
 * libetw's writer fds: each thread writes through a writer fd of its own,
 * opened on its first event that reaches the kernel and closed when the
 * thread exits; without one (an older module: ENOTTY; or EMFILE) it
 * writes through the process's /dev/etw fd.  A child of fork() writes on
 * through what its thread had.
 */
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <pthread.h>
#include <semaphore.h>
#include <stddef.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#include <windows.h>
#include <evntprov.h>

#include "kselftest_harness.h"
#include "etw_selftests.h"

#define EVENTS	100

/*
 * This process's writer fds.  The directory stays open, so that it can be
 * read when no descriptor is left; one caller at a time.
 */
static int writer_fds(void)
{
	static DIR *dir;

	if (!dir)
		dir = opendir("/proc/self/fd");
	return dir ? etw_fds_to(dir, "anon_inode:[etw-writer]") : -1;
}

FIXTURE(wfd)
{
	int fd;		/* the controller's */
	GUID guid;
	__u32 logger;
	REGHANDLE reg;
};

FIXTURE_SETUP(wfd)
{
	etw_require_root(_metadata);
	self->fd = etw_open_or_skip(_metadata);
	etw_stop_test_sessions(self->fd);
	etw_test_guid((__u8 *)&self->guid, 0x61);
	ASSERT_EQ(0, etw_session_start_simple(self->fd, "etwtest-wfd", 0, 64, 32,
					      &self->logger));
	ASSERT_EQ(0, etw_enable_simple(self->fd, self->logger, (__u8 *)&self->guid,
				       1, 4, 0, 0, 0));
	ASSERT_EQ(ERROR_SUCCESS, EventRegister(&self->guid, NULL, NULL, &self->reg));
}

FIXTURE_TEARDOWN(wfd)
{
	if (self->fd >= 0) {
		EventUnregister(self->reg);
		etw_stop_test_sessions(self->fd);
		close(self->fd);
	}
}

struct writer_thread {
	REGHANDLE reg;
	USHORT id;
	pid_t tid;
	int fds_before;	/* writer fds after a filtered event, before its writes */
	ULONG err;
	sem_t wrote, go;
};

static void *write_events(void *arg)
{
	struct writer_thread *t = arg;
	EVENT_DESCRIPTOR filtered = { .Id = 99, .Level = 5 };
	EVENT_DESCRIPTOR d = { .Level = 4 };
	ULONG64 v = 7;
	EVENT_DATA_DESCRIPTOR data;
	int i;

	t->tid = syscall(SYS_gettid);
	d.Id = t->id;
	EventDataDescCreate(&data, &v, sizeof(v));
	/* An event no session wants reaches no kernel: no writer fd. */
	t->err |= EventWrite(t->reg, &filtered, 1, &data);
	t->fds_before = writer_fds();
	for (i = 0; i < EVENTS; i++)
		t->err |= EventWrite(t->reg, &d, 1, &data);
	sem_post(&t->wrote);
	sem_wait(&t->go);
	return NULL;
}

struct tid_check {
	const GUID *guid;
	USHORT id;
	pid_t pid, tid;
	long seen;
	long wrong;
};

static int check_tid(const struct etw_test_event_header *h,
		     const __u8 *buffer, __u32 cpu, void *ctx)
{
	struct tid_check *c = ctx;

	if (memcmp(h->provider_id, c->guid, 16) || h->desc.id != c->id)
		return 0;
	c->seen++;
	c->wrong += h->thread_id != (__u32)c->tid || h->process_id != (__u32)c->pid;
	return 0;
}

/*
 * Run a writer thread; while it waits after its writes, the writer fds
 * are @during; after it exits, @after.  Its events all land, with its TID.
 */
static void run_writer(struct __test_metadata *_metadata, FIXTURE_DATA(wfd) *self,
		       USHORT id, int during, int after)
{
	struct writer_thread t = { .reg = self->reg, .id = id };
	struct tid_check c = { .guid = &self->guid, .id = id, .pid = getpid() };
	pthread_t th;
	int now;

	sem_init(&t.wrote, 0, 0);
	sem_init(&t.go, 0, 0);
	ASSERT_EQ(0, pthread_create(&th, NULL, write_events, &t));
	sem_wait(&t.wrote);
	now = writer_fds();
	sem_post(&t.go);
	ASSERT_EQ(0, pthread_join(th, NULL));
	EXPECT_EQ(ERROR_SUCCESS, t.err);
	EXPECT_EQ(after, t.fds_before);
	EXPECT_EQ(during, now);
	EXPECT_EQ(after, writer_fds());
	c.tid = t.tid;
	ASSERT_LE(0, etw_drain(self->fd, self->logger, check_tid, &c));
	EXPECT_EQ(EVENTS, c.seen);
	EXPECT_EQ(0, c.wrong);
	sem_destroy(&t.wrote);
	sem_destroy(&t.go);
}

/* Opened by the first enabled write, closed when the thread exits. */
TEST_F(wfd, one_per_thread_closed_at_exit)
{
	EVENT_DESCRIPTOR d = { .Id = 1, .Level = 4 };

	EXPECT_EQ(0, writer_fds());
	run_writer(_metadata, self, 2, 1, 0);
	run_writer(_metadata, self, 3, 1, 0);
	/* The main thread's stays open. */
	EXPECT_EQ(ERROR_SUCCESS, EventWrite(self->reg, &d, 0, NULL));
	EXPECT_EQ(1, writer_fds());
	run_writer(_metadata, self, 4, 2, 1);
	EXPECT_EQ(ERROR_SUCCESS, EventWrite(self->reg, &d, 0, NULL));
	EXPECT_EQ(1, writer_fds());
	/* A stale handle is the same error through a writer fd. */
	EXPECT_EQ(ERROR_SUCCESS, EventUnregister(self->reg));
	EXPECT_EQ(ERROR_INVALID_HANDLE, EventWrite(self->reg, &d, 0, NULL));
	self->reg = 0;
}

/* An older module: ETW_IOC_WRITER_OPEN is ENOTTY.  Everything is written. */
TEST_F(wfd, fallback_without_writer_fds)
{
	struct sock_filter f[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_ioctl, 0, 3),
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, args[1])),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, ETW_IOC_WRITER_OPEN, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | ENOTTY),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};
	struct sock_fprog prog = { .len = sizeof(f) / sizeof(f[0]), .filter = f };
	EVENT_DESCRIPTOR d = { .Id = 1, .Level = 4 };

	ASSERT_EQ(0, prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0));
	ASSERT_EQ(0, prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog));
	run_writer(_metadata, self, 5, 0, 0);
	run_writer(_metadata, self, 6, 0, 0);
	EXPECT_EQ(ERROR_SUCCESS, EventWrite(self->reg, &d, 0, NULL));
	EXPECT_EQ(0, writer_fds());
}

/* No descriptor left (EMFILE): that thread writes through the shared fd. */
TEST_F(wfd, fallback_when_out_of_fds)
{
	struct rlimit old, low;
	int lowest;

	ASSERT_EQ(0, writer_fds());	/* its directory open while fds remain */
	lowest = open("/dev/null", O_RDONLY);
	ASSERT_LE(0, lowest);
	close(lowest);
	ASSERT_EQ(0, getrlimit(RLIMIT_NOFILE, &old));
	low = old;
	low.rlim_cur = lowest;		/* every number below is taken */
	ASSERT_EQ(0, setrlimit(RLIMIT_NOFILE, &low));
	run_writer(_metadata, self, 7, 0, 0);
	ASSERT_EQ(0, setrlimit(RLIMIT_NOFILE, &old));
	/* Another thread, with descriptors to spare, gets its own. */
	run_writer(_metadata, self, 8, 1, 0);
}

/* A child of fork() writes through what its thread had, as its own PID. */
TEST_F(wfd, child_of_fork_writes)
{
	EVENT_DESCRIPTOR d = { .Id = 9, .Level = 4 };
	struct tid_check c = { .guid = &self->guid, .id = 9 };
	int status, i;
	pid_t pid;

	ASSERT_EQ(ERROR_SUCCESS, EventWrite(self->reg, &d, 0, NULL));
	ASSERT_EQ(1, writer_fds());
	ASSERT_LE(0, etw_drain(self->fd, self->logger, NULL, NULL));
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		ULONG err = 0;

		for (i = 0; i < EVENTS; i++)
			err |= EventWrite(self->reg, &d, 0, NULL);
		_exit(err || writer_fds() != 1 ? 1 : 0);
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_TRUE(WIFEXITED(status));
	EXPECT_EQ(0, WEXITSTATUS(status));
	/* The child's events carry its PID, and its one thread's TID. */
	c.pid = pid;
	c.tid = pid;
	ASSERT_LE(0, etw_drain(self->fd, self->logger, check_tid, &c));
	EXPECT_EQ(EVENTS, c.seen);
	EXPECT_EQ(0, c.wrong);
}

TEST_HARNESS_MAIN
