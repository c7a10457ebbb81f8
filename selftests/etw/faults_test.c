// SPDX-License-Identifier: GPL-2.0
/*
 * Faults, and what survives them:
 *
 * - provider processes killed in the middle of their writes: every record
 *   in the session is whole, and the session's books stay within the
 *   writes the killed processes could have had in flight;
 * - rmmod while the module is busy (a file open, a session running, a
 *   mapping left after close, writers running) is refused, and everything
 *   still works; once idle it unloads;
 * - the cap on buffer memory (what fails on Debian's kernels, which have no
 *   fault injection; fault_inject_test.c fails etw.ko's allocations
 *   themselves on make check-debug's kernel): a start beyond it is
 *   ENOMEM and changes nothing, sessions running keep their buffers, and a
 *   stop gives the memory back; a pool that cannot grow loses events, each
 *   counted, and grows again once there is memory;
 * - CPUs taken offline and back while writers run and sessions flush:
 *   nothing lost uncounted, the offline CPU's buffer is handed over.
 */
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#include "kselftest_harness.h"
#include "etw_selftests.h"
#include "etw_kmod.h"

FIXTURE(faults)
{
	int fd;
	__u8 guid[16];
	__u32 reg;
	__u32 id;
};

FIXTURE_SETUP(faults)
{
	etw_require_root(_metadata);
	self->fd = etw_open_or_skip(_metadata);
	etw_stop_test_sessions(self->fd);
	etw_test_guid(self->guid, 0x70);
	ASSERT_EQ(0, etw_register_simple(self->fd, self->guid, &self->reg));
}

FIXTURE_TEARDOWN(faults)
{
	if (self->fd >= 0) {
		etw_stop_test_sessions(self->fd);
		close(self->fd);
	}
}

/* Counts the killed writers keep: writes the kernel reported back. */
struct kill_books {
	atomic_ulong stored;		/* sessions written + lost, summed */
	atomic_ulong in_flight;		/* writers that may have died in a write */
};

static void killed_writer(const __u8 guid[16], struct kill_books *b)
{
	static __u8 payload[8000];
	struct etw_data_desc d = { .ptr = (uintptr_t)payload };
	struct etw_event_write w = { .size = sizeof(w), .kind = ETW_WRITE_EVENT };
	int fd = open(ETW_DEV, O_RDWR);
	__u32 reg;
	unsigned int i;

	if (fd < 0 || etw_register_simple(fd, guid, &reg))
		_exit(1);
	mmap(NULL, ETW_MMAP_STATE_SIZE, PROT_READ, MAP_SHARED, fd, ETW_MMAP_STATE);
	w.reg_id = reg;
	w.count = 1;
	w.data = (uintptr_t)&d;
	atomic_fetch_add(&b->in_flight, 1);
	for (i = 0;; i++) {
		int ret;

		d.size = (i * 997) % sizeof(payload);
		ret = ioctl(fd, ETW_IOC_WRITE, &w) ? -errno : 0;
		if (!ret)
			atomic_fetch_add(&b->stored, w.written + w.lost);
		else if (ret == -ENOSPC)
			atomic_fetch_add(&b->stored, 1);
		else
			_exit(2);
	}
}

/* Providers die in the middle of writes; the session is unharmed. */
TEST_F(faults, provider_killed_mid_write)
{
	struct kill_books *b;
	struct etw_session_info info;
	long records, total = 0;
	int round, i, status;
	pid_t pid[4];

	b = mmap(NULL, sizeof(*b), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	ASSERT_TRUE(b != MAP_FAILED);
	ASSERT_EQ(0, etw_session_start_simple(self->fd, "etwtest-kill", 0, 64, 40, &self->id));
	ASSERT_EQ(0, etw_enable_simple(self->fd, self->id, self->guid, 1, 0, 0, 0, 0));

	for (round = 0; round < 10; round++) {
		for (i = 0; i < 4; i++) {
			pid[i] = fork();
			ASSERT_LE(0, pid[i]);
			if (!pid[i])
				killed_writer(self->guid, b);
		}
		usleep(20000 + round * 7000);
		for (i = 0; i < 4; i++) {
			kill(pid[i], SIGKILL);
			ASSERT_EQ(pid[i], waitpid(pid[i], &status, 0));
			ASSERT_TRUE(WIFSIGNALED(status)) TH_LOG("writer exited %d", WEXITSTATUS(status));
		}
		/* Read as we go, so that most events are delivered. */
		records = etw_drain(self->fd, self->id, NULL, NULL);
		ASSERT_LE(0, records);
		total += records;
	}
	ASSERT_EQ(0, etw_session_ctl(self->fd, self->id, ETW_CONTROL_QUERY, &info));
	TH_LOG("%lu writes reported, %ld delivered, %u lost, %lu writers killed",
	       atomic_load(&b->stored), total, info.events_lost, atomic_load(&b->in_flight));
	/* Each killed writer may have had one write the kernel took but it
	 * could not count. */
	EXPECT_LE(atomic_load(&b->stored), total + info.events_lost);
	EXPECT_GE(atomic_load(&b->stored) + atomic_load(&b->in_flight),
		  total + info.events_lost);
	EXPECT_LT(0, total);
	/* The dead processes' registrations are gone with their files. */
	EXPECT_EQ(0, etw_write_simple(self->fd, self->reg, 1, 4, 0, "x", 1));
	EXPECT_EQ(1, etw_drain(self->fd, self->id, NULL, NULL));
}

struct hammer {
	int fd;
	__u32 reg;
	atomic_int stop;
	atomic_ulong writes;
};

static void *hammer_main(void *p)
{
	struct hammer *h = p;

	while (!atomic_load(&h->stop))
		if (!etw_write_simple(h->fd, h->reg, 1, 4, 0, "hammer", 6))
			atomic_fetch_add(&h->writes, 1);
	return NULL;
}

/* rmmod is refused while anything holds the module, and nothing breaks. */
TEST_F(faults, rmmod_while_busy)
{
	const char *path = getenv("ETW_MODULE");
	struct hammer h = { .fd = self->fd, .reg = self->reg };
	struct etw_version v = { .size = sizeof(v) };
	pthread_t th[2];
	void *map;
	int fd2, i;

	if (!path)
		SKIP(return, "needs ETW_MODULE=<path of etw.ko>");

	/* A file open and writers running. */
	ASSERT_EQ(0, etw_session_start_simple(self->fd, "etwtest-busy", 0, 8, 0, &self->id));
	ASSERT_EQ(0, etw_enable_simple(self->fd, self->id, self->guid, 1, 0, 0, 0, 0));
	for (i = 0; i < 2; i++)
		ASSERT_EQ(0, pthread_create(&th[i], NULL, hammer_main, &h));
	for (i = 0; i < 20; i++) {
		int ret = etw_module_unload();

		EXPECT_TRUE(ret == -EWOULDBLOCK || ret == -EBUSY) TH_LOG("unload: %d", ret);
		usleep(5000);
	}
	atomic_store(&h.stop, 1);
	for (i = 0; i < 2; i++)
		pthread_join(th[i], NULL);
	EXPECT_LT(0, atomic_load(&h.writes));
	EXPECT_TRUE(etw_module_loaded());
	EXPECT_LT(0, etw_drain(self->fd, self->id, NULL, NULL));

	/* No file open, but a session runs. */
	close(self->fd);
	self->fd = -1;
	EXPECT_EQ(-EWOULDBLOCK, etw_module_unload());
	self->fd = open(ETW_DEV, O_RDWR | O_CLOEXEC);
	ASSERT_LE(0, self->fd);
	ASSERT_EQ(0, etw_session_ctl(self->fd, self->id, ETW_CONTROL_STOP, NULL));

	/* Only a mapping left: its file lives on, so does the module. */
	fd2 = open(ETW_DEV, O_RDWR | O_CLOEXEC);
	ASSERT_LE(0, fd2);
	map = mmap(NULL, ETW_MMAP_STATE_SIZE, PROT_READ, MAP_SHARED, fd2, ETW_MMAP_STATE);
	ASSERT_TRUE(map != MAP_FAILED);
	close(fd2);
	close(self->fd);
	self->fd = -1;
	EXPECT_EQ(-EWOULDBLOCK, etw_module_unload());
	EXPECT_EQ(0, ((volatile struct etw_reg_state *)map)->enabled);
	munmap(map, ETW_MMAP_STATE_SIZE);

	/* Idle: it goes, and comes back. */
	EXPECT_EQ(0, etw_module_unload());
	EXPECT_FALSE(etw_module_loaded());
	ASSERT_EQ(0, etw_module_load(path));
	self->fd = open(ETW_DEV, O_RDWR | O_CLOEXEC);
	ASSERT_LE(0, self->fd);
	EXPECT_EQ(0, etw_ioctl_err(self->fd, ETW_IOC_VERSION, &v));
}

/* The buffer memory cap: beyond it ENOMEM, nothing changed. */
TEST_F(faults, buffer_memory_cap)
{
	struct etw_session_info info;
	char old[32];
	__u32 ids[32], id;
	int n, ret;

	ASSERT_EQ(0, etw_read_file(ETW_PARAM("max_buffer_memory_mb"), old, sizeof(old)));
	ASSERT_EQ(0, etw_write_file(ETW_PARAM("max_buffer_memory_mb"), "2"));

	/* 1 MiB buffers: even the minimum (two per CPU) is over 2 MiB. */
	EXPECT_EQ(-ENOMEM, etw_session_start_simple(self->fd, "etwtest-cap-big", 0, 1024, 0, &id));
	EXPECT_EQ(-ENOENT, etw_session_ctl(self->fd, 0, ETW_CONTROL_QUERY, NULL));
	/* Small sessions (MinimumBuffers each) until the cap is reached. */
	for (n = 0, ret = 0; n < 32; n++) {
		char name[32];

		snprintf(name, sizeof(name), "etwtest-cap-%d", n);
		ret = etw_session_start_simple(self->fd, name, 0, 64, 8, &ids[n]);
		if (ret)
			break;
	}
	EXPECT_EQ(-ENOMEM, ret);
	EXPECT_LT(0, n);
	/* The sessions that run still work. */
	ASSERT_EQ(0, etw_enable_simple(self->fd, ids[0], self->guid, 1, 0, 0, 0, 0));
	EXPECT_EQ(0, etw_write_simple(self->fd, self->reg, 1, 4, 0, "capped", 6));
	EXPECT_EQ(1, etw_drain(self->fd, ids[0], NULL, NULL));
	ASSERT_EQ(0, etw_session_ctl(self->fd, ids[0], ETW_CONTROL_QUERY, &info));
	EXPECT_EQ(0, info.events_lost);
	/* A stop gives the memory back. */
	ASSERT_EQ(0, etw_session_ctl(self->fd, ids[n - 1], ETW_CONTROL_STOP, NULL));
	EXPECT_EQ(0, etw_session_start_simple(self->fd, "etwtest-cap-again", 0, 64, 8, &id));
	EXPECT_EQ(-ENOMEM, etw_session_start_simple(self->fd, "etwtest-cap-more", 0, 64, 8, &id));

	ASSERT_EQ(0, etw_write_file(ETW_PARAM("max_buffer_memory_mb"), old));
}

/* Write @n 1 KiB events; returns how many the session accepted (stored or lost). */
static long write_kib_events(int fd, __u32 reg, int n)
{
	static char payload[1024];
	long accepted = 0;
	int i, ret;

	for (i = 0; i < n; i++) {
		ret = etw_write_simple(fd, reg, 3, 4, 0, payload, sizeof(payload));
		if (!ret || ret == -ENOSPC)
			accepted++;
	}
	return accepted;
}

/*
 * The pool cannot grow (its allocations fail at the memory cap): writers
 * lose events, each counted, and nothing else breaks; once memory is
 * there again the pool grows past where it stopped.
 */
TEST_F(faults, pool_growth_fails_at_the_cap)
{
	struct etw_session_info info;
	long accepted, delivered;
	__u32 capped;
	char old[32];

	ASSERT_EQ(0, etw_read_file(ETW_PARAM("max_buffer_memory_mb"), old, sizeof(old)));
	/* 1 MiB: 16 buffers of 64 KiB, the session may own 64. */
	ASSERT_EQ(0, etw_write_file(ETW_PARAM("max_buffer_memory_mb"), "1"));
	ASSERT_EQ(0, etw_session_start_simple(self->fd, "etwtest-grow-cap", 0, 64, 64, &self->id));
	ASSERT_EQ(0, etw_enable_simple(self->fd, self->id, self->guid, 1, 0, 0, 0, 0));

	/* No reader: about 4 MiB of events against 1 MiB of buffers. */
	accepted = write_kib_events(self->fd, self->reg, 4000);
	usleep(100000);	/* the grow work has run */
	ASSERT_EQ(0, etw_session_ctl(self->fd, self->id, ETW_CONTROL_QUERY, &info));
	capped = info.number_of_buffers;
	EXPECT_GE(16, capped);
	EXPECT_LT(0, info.events_lost);
	delivered = etw_drain(self->fd, self->id, NULL, NULL);
	ASSERT_LE(0, delivered);
	ASSERT_EQ(0, etw_session_ctl(self->fd, self->id, ETW_CONTROL_QUERY, &info));
	TH_LOG("%ld accepted, %ld delivered, %u lost, %u buffers", accepted, delivered,
	       info.events_lost, capped);
	EXPECT_EQ(accepted, delivered + info.events_lost);

	/* Memory again: the pool grows on (events are lost until it has). */
	ASSERT_EQ(0, etw_write_file(ETW_PARAM("max_buffer_memory_mb"), old));
	accepted += write_kib_events(self->fd, self->reg, 4000);
	usleep(100000);
	ASSERT_EQ(0, etw_session_ctl(self->fd, self->id, ETW_CONTROL_QUERY, &info));
	EXPECT_LT(capped, info.number_of_buffers);
	EXPECT_GE(64, info.number_of_buffers);
	delivered += etw_drain(self->fd, self->id, NULL, NULL);
	ASSERT_EQ(0, etw_session_ctl(self->fd, self->id, ETW_CONTROL_QUERY, &info));
	EXPECT_EQ(accepted, delivered + info.events_lost);
}

struct cpu_writer {
	int fd;
	__u32 reg;
	int cpu;
	atomic_int *stop;
	unsigned long accepted;
};

static void *cpu_writer_main(void *p)
{
	struct cpu_writer *w = p;
	cpu_set_t set;
	int ret;

	CPU_ZERO(&set);
	CPU_SET(w->cpu, &set);
	sched_setaffinity(0, sizeof(set), &set);
	while (!atomic_load(w->stop)) {
		ret = etw_write_simple(w->fd, w->reg, 2, 4, 0, "cpu-hotplug", 11);
		if (!ret || ret == -ENOSPC)
			w->accepted++;
	}
	return NULL;
}

static int cpu_online(int cpu, int on)
{
	char path[64];

	snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/online", cpu);
	return etw_write_file(path, on ? "1" : "0");
}

/* CPUs go offline and come back while writers run and sessions flush. */
TEST_F(faults, cpu_offline_and_back)
{
	struct cpu_writer w[2];
	pthread_t th[2];
	struct etw_session_control c = { .size = sizeof(c) };
	struct etw_session_info info;
	atomic_int stop = 0;
	unsigned long accepted;
	long delivered = 0, n;
	int i, round;

	if (sysconf(_SC_NPROCESSORS_CONF) < 2 || cpu_online(1, 1))
		SKIP(return, "no CPU 1 to take offline");
	ASSERT_EQ(0, etw_session_start_simple(self->fd, "etwtest-hotplug", 0, 16, 40, &self->id));
	ASSERT_EQ(0, etw_enable_simple(self->fd, self->id, self->guid, 1, 0, 0, 0, 0));
	/* The FlushTimer runs too, from a work item. */
	c.code = ETW_CONTROL_UPDATE;
	c.logger_id = self->id;
	c.info.flush_timer = 1;
	ASSERT_EQ(0, etw_ioctl_err(self->fd, ETW_IOC_SESSION_CONTROL, &c));

	for (i = 0; i < 2; i++) {
		w[i] = (struct cpu_writer){ self->fd, self->reg, i, &stop, 0 };
		ASSERT_EQ(0, pthread_create(&th[i], NULL, cpu_writer_main, &w[i]));
	}
	for (round = 0; round < 6; round++) {
		usleep(100000);
		ASSERT_EQ(0, cpu_online(1, 0));
		n = etw_drain(self->fd, self->id, NULL, NULL);
		ASSERT_LE(0, n);
		delivered += n;
		usleep(100000);
		ASSERT_EQ(0, cpu_online(1, 1));
	}
	atomic_store(&stop, 1);
	for (i = 0; i < 2; i++)
		pthread_join(th[i], NULL);
	n = etw_drain(self->fd, self->id, NULL, NULL);
	ASSERT_LE(0, n);
	delivered += n;
	ASSERT_EQ(0, etw_session_ctl(self->fd, self->id, ETW_CONTROL_QUERY, &info));
	accepted = w[0].accepted + w[1].accepted;
	TH_LOG("%lu accepted, %ld delivered, %u lost", accepted, delivered, info.events_lost);
	EXPECT_EQ(accepted, delivered + info.events_lost);
	EXPECT_LT(0, delivered);
}

TEST_HARNESS_MAIN
