// SPDX-License-Identifier: GPL-2.0
/*
 * Kernel text patched under load.  Attaching the first probe to a
 * scheduler tracepoint, or detaching the last, rewrites the tracepoint's
 * site in __schedule and ttwu_do_activate with text_poke_bp() (static
 * key, static call).  Here that happens in a tight loop while two threads,
 * one on each CPU, wake each other through pipes, so both CPUs run the
 * patched code all the time; a CPU that executes a stale int3 oopses, and
 * the VM's kernel-log scan fails the run (Documentation/guarantees.rst).
 *
 * - tracefs: sched_switch and sched_wakeup enabled and disabled through
 *   tracefs: the kernel's own probes, no code of etw.ko involved;
 * - kernel_logger_update: a system logger's EnableFlags switched between
 *   every flag whose source attaches something and none (ControlTrace
 *   UPDATE: tracepoints, the mmap kprobe, the profile's perf counters);
 * - kernel_logger_start_stop: system loggers with those flags started and
 *   stopped, as the fuzzer does.
 *
 * Under QEMU's multi-threaded TCG with two vCPUs this oopses in the
 * emulator, whatever attaches the probes (text_patch.h), so there the
 * tests skip unless ETW_PATCH_ROUNDS asks for a measurement; they run in
 * a VM started with ETW_VM_ACCEL=tcg,thread=single, with one vCPU, or on
 * KVM.  ETW_PATCH_ROUNDS (default 100) sets the rounds of each test;
 * ETW_PATCH_ONLY=<test> skips the others (the measurements of
 * Documentation/guarantees.rst run one test at a time).
 */
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <sys/mount.h>

#include "kselftest_harness.h"
#include "etw_selftests.h"
#include "text_patch.h"

#define TRACEFS		"/sys/kernel/tracing/events/sched/"
#define NAME		"etwtest-text-patch"

/* Every EnableFlags bit whose source attaches a probe or a counter. */
#define ATTACHING	(ETW_KFLAG_PROCESS | ETW_KFLAG_THREAD |		\
			 ETW_KFLAG_IMAGE_LOAD | ETW_KFLAG_CSWITCH |	\
			 ETW_KFLAG_DISK_IO | ETW_KFLAG_DISK_IO_INIT |	\
			 ETW_KFLAG_DISPATCHER | ETW_KFLAG_PROFILE)

static unsigned int rounds(void)
{
	const char *v = getenv("ETW_PATCH_ROUNDS");
	unsigned long n = v ? strtoul(v, NULL, 10) : 100;

	return n ? n : 100;
}

/* Two threads, one per CPU, passing a byte back and forth. */
struct pingpong {
	int ab[2], ba[2];
	atomic_bool stop;
	atomic_ulong passes;
	pthread_t t[2];
};

static void *pingpong_a(void *arg)
{
	struct pingpong *p = arg;
	char c = 0;

	etw_pin_cpu(0);
	while (!atomic_load(&p->stop)) {
		if (write(p->ab[1], &c, 1) != 1 || read(p->ba[0], &c, 1) != 1)
			break;
		atomic_fetch_add(&p->passes, 1);
	}
	/* Let b out of its read. */
	close(p->ab[1]);
	return NULL;
}

static void *pingpong_b(void *arg)
{
	struct pingpong *p = arg;
	char c;

	etw_pin_cpu(1);
	while (read(p->ab[0], &c, 1) == 1)
		if (write(p->ba[1], &c, 1) != 1)
			break;
	close(p->ba[1]);
	return NULL;
}

static int pingpong_start(struct pingpong *p)
{
	memset(p, 0, sizeof(*p));
	if (pipe(p->ab) || pipe(p->ba))
		return -1;
	if (pthread_create(&p->t[0], NULL, pingpong_a, p))
		return -1;
	if (pthread_create(&p->t[1], NULL, pingpong_b, p))
		return -1;
	return 0;
}

static void pingpong_stop(struct pingpong *p)
{
	atomic_store(&p->stop, true);
	pthread_join(p->t[0], NULL);
	pthread_join(p->t[1], NULL);
	close(p->ab[0]);
	close(p->ba[0]);
}

static int write_str(const char *path, const char *s)
{
	int fd = open(path, O_WRONLY);
	ssize_t n;

	if (fd < 0)
		return -1;
	n = write(fd, s, strlen(s));
	close(fd);
	return n == (ssize_t)strlen(s) ? 0 : -1;
}

/*
 * Skip where patching oopses the emulator (unless measuring), or unless
 * ETW_PATCH_ONLY is unset or names @test.
 */
#define only_or_skip(test)						\
	do {								\
		const char *__only = getenv("ETW_PATCH_ONLY");		\
		if (!etw_text_patch_safe() && !getenv("ETW_PATCH_ROUNDS")) \
			SKIP(return, "multi-threaded TCG: %s",		\
			     "Documentation/guarantees.rst");		\
		if (__only && strcmp(__only, test))			\
			SKIP(return, "ETW_PATCH_ONLY=%s", __only);	\
	} while (0)

/* Where a round is when the kernel log shows an oops. */
static void progress(const char *test, unsigned int r)
{
	if (r % 100 == 0)
		ksft_print_msg("%s: round %u\n", test, r);
}

FIXTURE(patch)
{
	int fd;
	struct pingpong p;
};

FIXTURE_SETUP(patch)
{
	etw_require_root(_metadata);
	self->fd = -1;
	ASSERT_EQ(0, pingpong_start(&self->p));
}

FIXTURE_TEARDOWN(patch)
{
	/* A setup that skipped started nothing. */
	if (self->p.t[1])
		pingpong_stop(&self->p);
	if (self->fd >= 0) {
		etw_stop_test_sessions(self->fd);
		close(self->fd);
	}
}

/* The rounds at the default take seconds; the timeout is for many more. */
#define PATCH_TIMEOUT	3600

TEST_F_TIMEOUT(patch, tracefs, PATCH_TIMEOUT)
{
	static const char *const events[] = {
		TRACEFS "sched_switch/enable", TRACEFS "sched_wakeup/enable",
	};
	unsigned int i, r, n = rounds(), done = 0;

	only_or_skip("tracefs");
	/* Mounted by the VM's /init; here if it is not. */
	if (access(events[0], W_OK))
		mount("tracefs", "/sys/kernel/tracing", "tracefs", 0, NULL);
	ASSERT_EQ(0, access(events[0], W_OK))
		TH_LOG("no tracefs at /sys/kernel/tracing: %s", strerror(errno));
	for (r = 0; r < n; r++) {
		progress("tracefs", r);
		for (i = 0; i < 2; i++)
			if (write_str(events[i], "1"))
				break;
		for (i = 0; i < 2; i++)
			if (write_str(events[i], "0"))
				break;
		if (i < 2)
			break;
		done++;
	}
	for (i = 0; i < 2; i++)
		write_str(events[i], "0");
	EXPECT_EQ(n, done);
	/* Both CPUs ran the patched code meanwhile. */
	EXPECT_LT(0, atomic_load(&self->p.passes));
}

static int system_logger(int fd, __u32 flags, __u32 *id)
{
	struct etw_session_start st = { .size = sizeof(st) };

	snprintf(st.info.name, sizeof(st.info.name), NAME);
	st.info.log_file_mode = ETW_MODE_SYSTEM_LOGGER | ETW_MODE_BUFFERING;
	st.info.buffer_size_kb = 4;
	st.info.enable_flags = flags;
	if (etw_ioctl_err(fd, ETW_IOC_SESSION_START, &st))
		return -1;
	*id = st.info.logger_id;
	return 0;
}

static int update_flags(int fd, __u32 id, __u32 flags)
{
	struct etw_session_control c = { .size = sizeof(c) };

	c.code = ETW_CONTROL_UPDATE;
	c.logger_id = id;
	c.info.enable_flags = flags;
	return etw_ioctl_err(fd, ETW_IOC_SESSION_CONTROL, &c);
}

TEST_F_TIMEOUT(patch, kernel_logger_update, PATCH_TIMEOUT)
{
	unsigned int r, n = rounds(), done = 0;
	struct etw_session_info info;
	__u32 id;

	only_or_skip("kernel_logger_update");
	self->fd = etw_open_or_skip(_metadata);
	etw_stop_test_sessions(self->fd);
	ASSERT_EQ(0, system_logger(self->fd, 0, &id));
	for (r = 0; r < n; r++) {
		progress("kernel_logger_update", r);
		if (update_flags(self->fd, id, ATTACHING) ||
		    update_flags(self->fd, id, 0))
			break;
		done++;
	}
	ASSERT_EQ(0, etw_session_ctl(self->fd, id, ETW_CONTROL_QUERY, &info));
	EXPECT_EQ(0, info.enable_flags);
	EXPECT_EQ(0, etw_session_ctl(self->fd, id, ETW_CONTROL_STOP, NULL));
	EXPECT_EQ(n, done);
	EXPECT_LT(0, atomic_load(&self->p.passes));
}

TEST_F_TIMEOUT(patch, kernel_logger_start_stop, PATCH_TIMEOUT)
{
	unsigned int r, n = rounds(), done = 0;
	__u32 id;

	only_or_skip("kernel_logger_start_stop");
	self->fd = etw_open_or_skip(_metadata);
	etw_stop_test_sessions(self->fd);
	for (r = 0; r < n; r++) {
		progress("kernel_logger_start_stop", r);
		if (system_logger(self->fd, ATTACHING, &id))
			break;
		if (etw_session_ctl(self->fd, id, ETW_CONTROL_STOP, NULL))
			break;
		done++;
	}
	EXPECT_EQ(n, done);
	EXPECT_LT(0, atomic_load(&self->p.passes));
}

TEST_HARNESS_MAIN
