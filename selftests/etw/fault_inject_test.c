// SPDX-License-Identifier: GPL-2.0
/*
 * Allocations inside etw.ko that fail, on make check-debug's kernel, which
 * has failslab and fail_page_alloc (the kernel's
 * Documentation/fault-injection/fault-injection.rst).  Their stack filter
 * (require-start, require-end) limits them to allocations with etw.ko's
 * code on the stack, whichever task makes them (a work item growing a
 * pool too); this process locks its memory, so no page fault of its own
 * is among them.  Every path that allocates runs many times with a share
 * of its allocations failing: opening the device, registration and
 * traits, StartTrace (ioctl and Win32), enabling and the notification
 * queues, writes with payloads too large for the stack, pool growth,
 * consumer attach (logger and copy consumer), a kept session's next
 * logger, writer fds; the kernel logger: its start with each kernel
 * flag (its sources' tracepoints, kprobe and perf events, its rundown),
 * TraceSetInformation's EnableFlags, stack list and profile interval, and
 * its stop.  Each failure must be ENOMEM (through the Win32 API,
 * ERROR_NOT_ENOUGH_MEMORY) and change nothing; each success must work;
 * a stop always works; the books stay exact (accepted = delivered +
 * EventsLost); and the module unloads at the end.  Then each ioctl path
 * once more with every one of its allocations failed in turn
 * (/proc/thread-self/fail-nth).  What leaked, kmemleak finds after the
 * run (scripts/vm/init.sh).  Skips on a kernel without fault injection.
 */
#include <poll.h>
#include <pthread.h>
#include <stddef.h>
#include <stdio.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>

#include <windows.h>
#include <evntrace.h>

#include "kselftest_harness.h"
#include "etw_selftests.h"
#include "etw_kmod.h"
#include "kernel_props.h"

#define FAILSLAB	"/sys/kernel/debug/failslab/"
#define FAILPAGE	"/sys/kernel/debug/fail_page_alloc/"
#define ITERATIONS	100
/* Each path must have failed at least this often, and worked too. */
#define MIN_FAILS	10
/* Most allocations one ioctl path makes (the kernel logger's start). */
#define MAX_SITES	2000

/* Write @value to the attribute @attr of both fault types: 0 or -errno. */
static int fault_set(const char *attr, const char *value)
{
	char path[128];
	int ret;

	snprintf(path, sizeof(path), FAILSLAB "%s", attr);
	ret = etw_write_file(path, value);
	if (ret)
		return ret;
	snprintf(path, sizeof(path), FAILPAGE "%s", attr);
	return etw_write_file(path, value);
}

/* Fail @percent of etw.ko's allocations from now on (0: none). */
static int fault_arm(int percent)
{
	char v[16];

	snprintf(v, sizeof(v), "%d", percent);
	return fault_set("probability", v);
}

/* A line in the kernel log: scan.sh expects allocation warnings between. */
static void kmsg(const char *line)
{
	etw_write_file("/dev/kmsg", line);
}

/*
 * etw.ko's code: from the base of its text (/proc/modules) over the size
 * of all its memory, which holds the text; no other module is loaded in
 * the VM, so nothing else's code lies there.
 */
static int module_text(unsigned long *start, unsigned long *end)
{
	FILE *f = fopen("/proc/modules", "r");
	char line[256], sect[64];
	unsigned long size, base, text;
	int found = 0;

	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "etw %lu %*d %*s %*s %lx", &size, &base) == 2)
			found = 1;
	fclose(f);
	if (!found || !base)
		return -ENOENT;
	if (etw_read_file("/sys/module/etw/sections/.text", sect, sizeof(sect)))
		return -ENOENT;
	text = strtoul(sect, NULL, 16);
	if (text < base || text >= base + size)
		return -ERANGE;
	*start = base;
	*end = base + size;
	return 0;
}

static int fault_setup(void)
{
	static const char *const attrs[][2] = {
		{ "probability", "0" }, { "interval", "1" }, { "times", "-1" },
		{ "space", "0" }, { "verbose", "0" }, { "task-filter", "N" },
		{ "ignore-gfp-wait", "N" }, { "stacktrace-depth", "32" },
		{ "reject-start", "0" }, { "reject-end", "0" },
	};
	unsigned long start = 0, end = 0;
	char v[32];
	unsigned int i;
	int ret;

	ret = module_text(&start, &end);
	if (ret)
		return ret;
	for (i = 0; i < sizeof(attrs) / sizeof(attrs[0]); i++) {
		ret = fault_set(attrs[i][0], attrs[i][1]);
		if (ret)
			return ret;
	}
	snprintf(v, sizeof(v), "%lu", start);
	ret = fault_set("require-start", v);
	snprintf(v, sizeof(v), "%lu", end);
	ret = ret ?: fault_set("require-end", v);
	ret = ret ?: etw_write_file(FAILPAGE "min-order", "0");
	ret = ret ?: etw_write_file(FAILPAGE "ignore-gfp-highmem", "N");
	return ret ?: etw_write_file(FAILSLAB "cache-filter", "N");
}

FIXTURE(fi)
{
	int fd;
	__u8 guid[16];
	__u32 reg;
	__u32 id;
};

FIXTURE_SETUP(fi)
{
	struct stat st;

	self->fd = -1;
	etw_require_root(_metadata);
	if (stat(FAILSLAB, &st) || stat(FAILPAGE, &st))
		SKIP(return, "no failslab and fail_page_alloc (make check-debug's kernel has them)");
	/* No page fault of ours may be failed for etw.ko's sake. */
	ASSERT_EQ(0, mlockall(MCL_CURRENT | MCL_FUTURE));
	self->fd = etw_open_or_skip(_metadata);
	etw_stop_test_sessions(self->fd);
	etw_test_guid(self->guid, 0xf1);
	ASSERT_EQ(0, etw_register_simple(self->fd, self->guid, &self->reg));
	ASSERT_EQ(0, fault_setup());
	kmsg("etw-faults: begin");
}

FIXTURE_TEARDOWN(fi)
{
	struct etw_session_control c = { .size = sizeof(c), .code = ETW_CONTROL_STOP };

	if (self->fd < 0)
		return;
	fault_arm(0);
	kmsg("etw-faults: end");
	/* A kernel logger a failed test left. */
	snprintf(c.info.name, sizeof(c.info.name), "%s", KERNEL_LOGGER_NAMEA);
	ioctl(self->fd, ETW_IOC_SESSION_CONTROL, &c);
	etw_stop_test_sessions(self->fd);
	close(self->fd);
}

/* A Win32 result as the errno TALLY() expects. */
static int win32_errno(ULONG err)
{
	if (err == ERROR_SUCCESS)
		return 0;
	return err == ERROR_NOT_ENOUGH_MEMORY ? -ENOMEM : -EPROTO;
}

/* Tally of one path: outcomes other than 0 and ENOMEM fail the test. */
struct tally {
	int ok;
	int nomem;
};

#define TALLY(t, ret)							\
	do {								\
		if (!(ret))						\
			(t)->ok++;					\
		else if ((ret) == -ENOMEM)				\
			(t)->nomem++;					\
		else							\
			EXPECT_EQ(-ENOMEM, (ret));			\
	} while (0)

#define EXPECT_BOTH(t, what)						\
	do {								\
		TH_LOG("%s: %d worked, %d ENOMEM", what, (t)->ok, (t)->nomem); \
		EXPECT_LE(MIN_FAILS, (t)->nomem);			\
		EXPECT_LT(0, (t)->ok);					\
	} while (0)

/* QUERY of the session named @name: 0 or -errno; its id in @id. */
static int query_id_by_name(int fd, const char *name, __u32 *id)
{
	struct etw_session_control c = { .size = sizeof(c), .code = ETW_CONTROL_QUERY };
	int ret;

	snprintf(c.info.name, sizeof(c.info.name), "%s", name);
	ret = etw_ioctl_err(fd, ETW_IOC_SESSION_CONTROL, &c);
	if (!ret && id)
		*id = c.info.logger_id;
	return ret;
}

static int query_by_name(int fd, const char *name)
{
	return query_id_by_name(fd, name, NULL);
}

static int start_session_mode(int fd, const char *name, __u32 mode, __u32 kb,
			      __u32 min, __u32 max, __u32 *id)
{
	struct etw_session_start st = { .size = sizeof(st) };
	int ret;

	snprintf(st.info.name, sizeof(st.info.name), "%s", name);
	st.info.log_file_mode = mode;
	st.info.buffer_size_kb = kb;
	st.info.min_buffers = min;
	st.info.max_buffers = max;
	ret = etw_ioctl_err(fd, ETW_IOC_SESSION_START, &st);
	if (!ret)
		*id = st.info.logger_id;
	return ret;
}

static int start_session(int fd, const char *name, __u32 kb, __u32 min, __u32 max,
			 __u32 *id)
{
	return start_session_mode(fd, name, 0, kb, min, max, id);
}

/* Opening the device, registering, and EventSetInformation's traits. */
TEST_F(fi, open_register_traits)
{
	static const char traits[] = "\x08\x00" "etwfi";
	struct tally open_t = { 0 }, reg_t = { 0 }, traits_t = { 0 };
	__u32 reg = 0;
	int i, fd, ret;

	for (i = 0; i < ITERATIONS; i++) {
		ASSERT_EQ(0, fault_arm(25));
		fd = open(ETW_DEV, O_RDWR | O_CLOEXEC);
		ret = fd < 0 ? -errno : 0;
		ASSERT_EQ(0, fault_arm(0));
		TALLY(&open_t, ret);
		if (fd < 0)
			continue;
		ASSERT_EQ(0, fault_arm(10));
		ret = etw_register_simple(fd, self->guid, &reg);
		ASSERT_EQ(0, fault_arm(0));
		TALLY(&reg_t, ret);
		/* A failed registration took nothing: the file still registers. */
		if (ret)
			ASSERT_EQ(0, etw_register_simple(fd, self->guid, &reg));
		ASSERT_EQ(0, fault_arm(30));
		ret = etw_set_info(fd, reg, ETW_INFO_SET_TRAITS, traits, 8);
		ASSERT_EQ(0, fault_arm(0));
		TALLY(&traits_t, ret);
		EXPECT_EQ(0, etw_write_simple(fd, reg, 1, 4, 0, "x", 1));
		close(fd);
	}
	EXPECT_BOTH(&open_t, "open");
	EXPECT_BOTH(&reg_t, "register");
	EXPECT_BOTH(&traits_t, "traits");
}

/* StartTrace through the ioctl: ENOMEM leaves no session behind. */
TEST_F(fi, start_session)
{
	struct tally t = { 0 };
	char name[32];
	__u32 id;
	int i, ret;

	for (i = 0; i < ITERATIONS; i++) {
		snprintf(name, sizeof(name), "etwtest-fi-start-%d", i);
		ASSERT_EQ(0, fault_arm(10));
		ret = start_session(self->fd, name, 16, 0, 16, &id);
		ASSERT_EQ(0, fault_arm(0));
		TALLY(&t, ret);
		if (ret) {
			EXPECT_EQ(-ENOENT, query_by_name(self->fd, name));
			continue;
		}
		EXPECT_EQ(0, etw_session_ctl(self->fd, id, ETW_CONTROL_STOP, NULL));
	}
	EXPECT_BOTH(&t, "start");
}

/* StartTraceA, then EnableTraceEx2 and ControlTraceA's stop. */
static ULONG start_trace(const char *name, CONTROLTRACE_ID *h)
{
	struct {
		EVENT_TRACE_PROPERTIES p;
		char name[64];
	} b;

	memset(&b, 0, sizeof(b));
	b.p.Wnode.BufferSize = sizeof(b);
	b.p.Wnode.Flags = WNODE_FLAG_TRACED_GUID;
	b.p.Wnode.ClientContext = 1;
	b.p.LogFileMode = EVENT_TRACE_REAL_TIME_MODE;
	b.p.LoggerNameOffset = sizeof(b.p);
	b.p.BufferSize = 16;
	return StartTraceA(h, name, &b.p);
}

static ULONG stop_trace(CONTROLTRACE_ID h)
{
	struct {
		EVENT_TRACE_PROPERTIES p;
		char name[64];
	} b;

	memset(&b, 0, sizeof(b));
	b.p.Wnode.BufferSize = sizeof(b);
	b.p.LoggerNameOffset = sizeof(b.p);
	return ControlTraceA(h, NULL, &b.p, EVENT_TRACE_CONTROL_STOP);
}

/* The Win32 API: each failure is ERROR_NOT_ENOUGH_MEMORY, nothing else. */
TEST_F(fi, win32_start_and_enable)
{
	struct tally start_t = { 0 }, enable_t = { 0 };
	CONTROLTRACE_ID h;
	char name[32];
	GUID guid;
	ULONG err;
	int i;

	memcpy(&guid, self->guid, sizeof(guid));
	for (i = 0; i < ITERATIONS; i++) {
		snprintf(name, sizeof(name), "etwtest-fi-w32-%d", i);
		ASSERT_EQ(0, fault_arm(10));
		err = start_trace(name, &h);
		ASSERT_EQ(0, fault_arm(0));
		TALLY(&start_t, win32_errno(err));
		if (err) {
			EXPECT_EQ(ERROR_NOT_ENOUGH_MEMORY, err);
			EXPECT_EQ(-ENOENT, query_by_name(self->fd, name));
			continue;
		}
		ASSERT_EQ(0, fault_arm(40));
		err = EnableTraceEx2(h, &guid, EVENT_CONTROL_CODE_ENABLE_PROVIDER, 5, 0, 0, 0,
				     NULL);
		ASSERT_EQ(0, fault_arm(0));
		TALLY(&enable_t, win32_errno(err));
		EXPECT_EQ(ERROR_SUCCESS, stop_trace(h));
	}
	EXPECT_BOTH(&start_t, "StartTrace");
	EXPECT_BOTH(&enable_t, "EnableTraceEx2");
}

/*
 * Did the session @id store an event written through @wfd for @reg?  1, 0,
 * or -errno; @fd drains it.
 */
static int stores_via(int wfd, int fd, __u32 reg, __u32 id)
{
	struct etw_event_write w = { .size = sizeof(w), .kind = ETW_WRITE_EVENT };
	long n;

	w.reg_id = reg;
	w.desc.level = 4;
	if (ioctl(wfd, ETW_IOC_WRITE, &w))
		return -errno;
	n = etw_drain(fd, id, NULL, NULL);
	if (n < 0)
		return n;
	return w.written && n == 1;
}

static int stores(int fd, __u32 reg, __u32 id)
{
	return stores_via(fd, fd, reg, id);
}

/*
 * Enabling with FilterData, which the provider's file gets in a
 * notification: an enable that fails changes nothing (the provider stays
 * disabled), one that works routes events; a notification whose
 * allocation failed is dropped whole, so every one read is well formed
 * and there are no more than the enables and disables.
 */
TEST_F(fi, enable_and_notifications)
{
	static const char args[] = "Key\0Value";
	static __u8 buf[ETW_NOTIFICATION_MAX_SIZE * 2];
	struct pollfd pfd = { .events = POLLIN };
	struct tally en_t = { 0 }, dis_t = { 0 };
	int pf, i, ret, changes = 0, notes = 0;
	__u32 preg;

	ASSERT_EQ(0, start_session(self->fd, "etwtest-fi-enable", 4, 0, 8, &self->id));
	pf = open(ETW_DEV, O_RDWR | O_CLOEXEC);
	ASSERT_LE(0, pf);
	ASSERT_EQ(0, etw_register_simple(pf, self->guid, &preg));
	pfd.fd = pf;
	for (i = 0; i < ITERATIONS; i++) {
		struct etw_enable e = { .size = sizeof(e) };

		e.logger_id = self->id;
		e.control_code = ETW_CONTROL_CODE_ENABLE;
		memcpy(e.guid, self->guid, 16);
		e.level = 5;
		e.flags = ETW_ENABLE_F_FILTER;
		e.filter_type = 0x5;
		e.filter_size = sizeof(args);
		e.filter_data = (uintptr_t)args;
		ASSERT_EQ(0, fault_arm(30));
		ret = etw_ioctl_err(self->fd, ETW_IOC_ENABLE, &e);
		ASSERT_EQ(0, fault_arm(0));
		TALLY(&en_t, ret);
		EXPECT_EQ(ret ? 0 : 1, stores(pf, preg, self->id)) TH_LOG("enable %d", ret);
		changes += !ret;
		if (ret)
			continue;
		ASSERT_EQ(0, fault_arm(30));
		ret = etw_enable_simple(self->fd, self->id, self->guid,
					ETW_CONTROL_CODE_DISABLE, 0, 0, 0, 0);
		ASSERT_EQ(0, fault_arm(0));
		TALLY(&dis_t, ret);
		EXPECT_EQ(ret ? 1 : 0, stores(pf, preg, self->id)) TH_LOG("disable %d", ret);
		if (ret)
			ASSERT_EQ(0, etw_enable_simple(self->fd, self->id, self->guid,
						       ETW_CONTROL_CODE_DISABLE, 0, 0, 0, 0));
		changes += 1;
		/* Read what was queued: whole notifications only. */
		while (poll(&pfd, 1, 0) == 1) {
			ssize_t got = read(pf, buf, sizeof(buf)), off;
			struct etw_notification n;

			ASSERT_LT(0, got);
			for (off = 0; off < got; off += n.size) {
				ASSERT_LE((ssize_t)sizeof(n), got - off);
				memcpy(&n, buf + off, sizeof(n));
				ASSERT_EQ(sizeof(n) + ((n.filter_size + 7) & ~7u), n.size);
				ASSERT_GE(got - off, (ssize_t)n.size);
				notes++;
			}
		}
	}
	TH_LOG("%d notifications for %d changes", notes, changes);
	EXPECT_GE(changes, notes);
	EXPECT_LT(0, notes);
	EXPECT_BOTH(&en_t, "enable");
	/* A disable mostly frees; it may still fail whole, never half. */
	EXPECT_LT(0, dis_t.ok);
	close(pf);
}

/*
 * Writes while the pool grows in a work item and large payloads are
 * copied to the heap, both failing at times: every write the session
 * accepted (stored, or ENOSPC: counted lost) is delivered or counted in
 * EventsLost, and a write that found no memory for its payload is ENOMEM.
 */
TEST_F(fi, writes_and_pool_growth)
{
	static char payload[2048];
	struct etw_session_info info;
	long accepted = 0, delivered, nomem = 0, lost_seen = 0;
	int i, ret, round;

	ASSERT_EQ(0, start_session(self->fd, "etwtest-fi-grow", 16, 0, 64, &self->id));
	ASSERT_EQ(0, etw_enable_simple(self->fd, self->id, self->guid, 1, 0, 0, 0, 0));
	for (round = 0; round < 4; round++) {
		ASSERT_EQ(0, fault_arm(40));
		for (i = 0; i < 1000; i++) {
			ret = etw_write_simple(self->fd, self->reg, 2, 4, 0, payload,
					       i % 2 ? 64 : sizeof(payload));
			if (!ret || ret == -ENOSPC)
				accepted++;
			else if (ret == -ENOMEM)
				nomem++;
			else
				EXPECT_EQ(0, ret);
			lost_seen += ret == -ENOSPC;
		}
		usleep(100000);	/* the grow work has run, and failed at times */
		ASSERT_EQ(0, fault_arm(0));
		delivered = etw_drain(self->fd, self->id, NULL, NULL);
		ASSERT_LE(0, delivered);
		ASSERT_EQ(0, etw_session_ctl(self->fd, self->id, ETW_CONTROL_QUERY, &info));
		accepted -= delivered;
		TH_LOG("round %d: %ld delivered, %u lost in all, %u buffers, %ld ENOMEM",
		       round, delivered, info.events_lost, info.number_of_buffers, nomem);
	}
	EXPECT_EQ(accepted, (long)info.events_lost);
	EXPECT_LE(MIN_FAILS, nomem);
	EXPECT_GE(64, info.number_of_buffers);
	EXPECT_LE(lost_seen, (long)info.events_lost);
}

/* ETW_IOC_CONSUMER_ATTACH: the consumer fd, or -errno. */
static int attach(int fd, __u32 id, __u32 flags, const __u8 *guid,
		  struct etw_consumer_attach *a)
{
	int ret;

	memset(a, 0, sizeof(*a));
	a->size = sizeof(*a);
	a->flags = flags | ETW_CONSUMER_F_CLOEXEC;
	a->logger_id = id;
	if (guid)
		memcpy(a->guid, guid, sizeof(a->guid));
	ret = etw_ioctl_err(fd, ETW_IOC_CONSUMER_ATTACH, a);
	return ret ? ret : a->fd;
}

/*
 * A logger's attach (its ring and control page, the pool filled to
 * MaximumBuffers) to a file session, and a copy consumer's beside the
 * first consumer of a real-time session (its own copy slots): a failed
 * attach leaves no consumer behind, so the next one attaches.
 */
TEST_F(fi, consumer_attach)
{
	struct tally log_t = { 0 }, copy_t = { 0 };
	struct etw_consumer_attach a;
	int i, c, first;
	__u32 rt;

	ASSERT_EQ(0, start_session(self->fd, "etwtest-fi-attach", 4, 4, 8, &self->id));
	ASSERT_EQ(0, start_session_mode(self->fd, "etwtest-fi-attach-rt", ETW_MODE_REAL_TIME,
					4, 4, 8, &rt));
	first = attach(self->fd, rt, 0, NULL, &a);
	ASSERT_LE(0, first);
	for (i = 0; i < ITERATIONS; i++) {
		ASSERT_EQ(0, fault_arm(5));
		c = attach(self->fd, self->id, ETW_CONSUMER_F_LOGGER, NULL, &a);
		ASSERT_EQ(0, fault_arm(0));
		TALLY(&log_t, c < 0 ? c : 0);
		if (c < 0)
			c = attach(self->fd, self->id, ETW_CONSUMER_F_LOGGER, NULL, &a);
		ASSERT_LE(0, c);
		close(c);

		ASSERT_EQ(0, fault_arm(5));
		c = attach(self->fd, rt, 0, NULL, &a);
		ASSERT_EQ(0, fault_arm(0));
		TALLY(&copy_t, c < 0 ? c : 0);
		if (c < 0)
			c = attach(self->fd, rt, 0, NULL, &a);
		ASSERT_LE(0, c);
		close(c);
	}
	close(first);
	EXPECT_BOTH(&log_t, "logger attach");
	EXPECT_BOTH(&copy_t, "copy consumer attach");
}

struct stopper {
	int fd;
	__u32 id;
	struct etw_session_info info;
	int ret;
};

static void *stopper_fn(void *arg)
{
	struct stopper *st = arg;

	st->ret = etw_session_ctl(st->fd, st->id, ETW_CONTROL_STOP, &st->info);
	return NULL;
}

/* Records of @guid in one ETL buffer of the ring. */
static long records_of(const __u8 *buf, const __u8 guid[16])
{
	struct etw_test_event_header h;
	__u32 saved, off;
	long n = 0;

	memcpy(&saved, buf + 4, 4);
	for (off = ETW_BUFFER_HEADER_SIZE; off + sizeof(h) <= saved;) {
		memcpy(&h, buf + off, sizeof(h));
		if (h.size < 8)
			break;
		n += !memcmp(h.provider_id, guid, 16);
		off += (h.size + 7) & ~7u;
	}
	return n;
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/*
 * A kept session (its logger died with ETW_CTRL_KEEP, then STOP): the next
 * logger's attach fails again and again, the session stays kept, and
 * the logger that gets in drains every event; STOP returns the books.
 * The attempts stop after 3 seconds, well inside the 10 a kept session
 * waits for a consumer.
 */
TEST_F(fi, kept_session_next_logger)
{
	struct tally t = { 0 };
	int scenario;

	for (scenario = 0; scenario < 8; scenario++) {
		struct etw_session_start ss = { .size = sizeof(ss) };
		struct etw_session_info info;
		struct etw_consumer_ctrl *ctrl;
		const struct etw_consumer_ring *ring;
		const __u8 *bufs;
		struct etw_consumer_attach a;
		struct stopper st = { 0 };
		long written = 0, lost = 0, seen = 0;
		pthread_t th;
		double t0;
		__u64 i, head;
		int c, ret, j;

		snprintf(ss.info.name, sizeof(ss.info.name), "etwtest-fi-keep");
		ss.info.buffer_size_kb = 4;
		ss.info.min_buffers = 32;
		ss.info.max_buffers = 32;
		ASSERT_EQ(0, etw_ioctl_err(self->fd, ETW_IOC_SESSION_START, &ss));
		self->id = ss.info.logger_id;
		/* The session's GUID, which finds it once it is kept. */
		ASSERT_EQ(0, etw_session_ctl(self->fd, self->id, ETW_CONTROL_QUERY, &info));
		ASSERT_EQ(0, etw_enable_simple(self->fd, self->id, self->guid, 1, 0, 0, 0, 0));
		c = attach(self->fd, self->id, ETW_CONSUMER_F_LOGGER, NULL, &a);
		ASSERT_LE(0, c);
		ctrl = mmap(NULL, a.ctrl_bytes, PROT_READ | PROT_WRITE, MAP_SHARED, c,
			    a.ctrl_offset);
		ASSERT_NE(MAP_FAILED, ctrl);
		ctrl->flags = ETW_CTRL_KEEP;
		for (j = 0; j < 200; j++)
			written += etw_write_counted(self->fd, self->reg, j, &lost);
		munmap(ctrl, a.ctrl_bytes);
		close(c);

		st.fd = self->fd;
		st.id = self->id;
		ASSERT_EQ(0, pthread_create(&th, NULL, stopper_fn, &st));
		for (j = 0; j < 2000 && !etw_session_ctl(self->fd, self->id,
							  ETW_CONTROL_QUERY, NULL); j++)
			usleep(10000);

		t0 = now_s();
		do {
			ASSERT_EQ(0, fault_arm(20));
			c = attach(self->fd, self->id, ETW_CONSUMER_F_LOGGER, info.guid, &a);
			ASSERT_EQ(0, fault_arm(0));
			TALLY(&t, c < 0 ? c : 0);
		} while (c == -ENOMEM && now_s() - t0 < 3);
		if (c < 0)
			c = attach(self->fd, self->id, ETW_CONSUMER_F_LOGGER, info.guid, &a);
		ASSERT_LE(0, c) TH_LOG("the kept session is gone");

		ctrl = mmap(NULL, a.ctrl_bytes, PROT_READ | PROT_WRITE, MAP_SHARED, c,
			    a.ctrl_offset);
		ring = mmap(NULL, a.ring_bytes, PROT_READ, MAP_SHARED, c, a.ring_offset);
		bufs = mmap(NULL, a.buffers_bytes, PROT_READ, MAP_SHARED, c, a.buffers_offset);
		ASSERT_NE(MAP_FAILED, ctrl);
		ASSERT_NE(MAP_FAILED, ring);
		ASSERT_NE(MAP_FAILED, bufs);
		EXPECT_EQ(ETW_RING_STOPPED, ring->flags);
		head = __atomic_load_n(&ring->head, __ATOMIC_ACQUIRE);
		for (i = ctrl->tail; i < head; i++)
			seen += records_of(bufs + (size_t)ring->slot[i & (ring->ring_size - 1)] *
					   a.buffer_stride, self->guid);
		__atomic_store_n(&ctrl->tail, head, __ATOMIC_RELEASE);
		munmap(ctrl, a.ctrl_bytes);
		munmap((void *)ring, a.ring_bytes);
		munmap((void *)bufs, a.buffers_bytes);
		close(c);
		ret = pthread_join(th, NULL);
		ASSERT_EQ(0, ret);
		EXPECT_EQ(0, st.ret);
		EXPECT_EQ(written, seen);
		EXPECT_EQ(lost, st.info.events_lost);
	}
	EXPECT_BOTH(&t, "kept session's logger attach");
}

/* ETW_IOC_WRITER_OPEN: a writer fd, or ENOMEM and no fd. */
TEST_F(fi, writer_fds)
{
	struct tally t = { 0 };
	int i, w;

	ASSERT_EQ(0, start_session(self->fd, "etwtest-fi-writer", 4, 0, 8, &self->id));
	ASSERT_EQ(0, etw_enable_simple(self->fd, self->id, self->guid, 1, 0, 0, 0, 0));
	for (i = 0; i < ITERATIONS; i++) {
		struct etw_writer_open o = { .size = sizeof(o) };
		int ret;

		ASSERT_EQ(0, fault_arm(30));
		ret = etw_ioctl_err(self->fd, ETW_IOC_WRITER_OPEN, &o);
		ASSERT_EQ(0, fault_arm(0));
		TALLY(&t, ret);
		if (ret)
			continue;
		w = o.fd;
		EXPECT_EQ(1, stores_via(w, self->fd, self->reg, self->id));
		close(w);
	}
	EXPECT_BOTH(&t, "writer fd");
}

/* The NT Kernel Logger in real time, with small buffers. */
static EVENT_TRACE_PROPERTIES *kernel_rt_props(struct kprops *b, ULONG flags)
{
	kernel_props(b, flags, NULL)->BufferSize = 16;
	return &b->p;
}

/* EnableFlags of a system logger, through TraceQueryInformation. */
static ULONG kernel_flags(CONTROLTRACE_ID h)
{
	ULONG masks[8] = { 0 }, len = 0;

	if (TraceQueryInformation(h, TraceSystemTraceEnableFlagsInfo, masks,
				  sizeof(masks), &len) != ERROR_SUCCESS)
		return ~0u;
	return masks[0];
}

/*
 * Bytes of records the session @id holds, its lanes flushed and its
 * buffers taken, or -errno.  (Kernel records carry their size at offset
 * 4, so etw_drain() does not walk them.)
 */
static long session_bytes(int fd, __u32 id)
{
	static __u8 buf[1024 * 1024];
	__u32 cpu, saved;
	long bytes = 0;
	int ret;

	ret = etw_session_ctl(fd, id, ETW_CONTROL_FLUSH, NULL);
	if (ret)
		return ret;
	while (!(ret = etw_take_buffer(fd, id, buf, sizeof(buf), &cpu))) {
		memcpy(&saved, buf + 4, 4);
		bytes += saved - ETW_BUFFER_HEADER_SIZE;
	}
	return ret == -EAGAIN ? bytes : ret;
}

/* A child that starts, maps its images and ends: kernel records. */
static int run_true(void)
{
	int status;
	pid_t pid = fork();

	if (!pid) {
		execl("/bin/true", "true", (char *)NULL);
		_exit(127);
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid)
		return -1;
	return WEXITSTATUS(status);
}

static const struct {
	ULONG flag;
	const char *name;
} kernel_flag_list[] = {
	{ EVENT_TRACE_FLAG_PROCESS, "process" },
	{ EVENT_TRACE_FLAG_THREAD, "thread" },
	{ EVENT_TRACE_FLAG_IMAGE_LOAD, "image" },
	{ EVENT_TRACE_FLAG_PROFILE, "profile" },
	{ EVENT_TRACE_FLAG_CSWITCH, "cswitch" },
	{ EVENT_TRACE_FLAG_DISK_IO, "disk" },
	{ EVENT_TRACE_FLAG_FILE_IO | EVENT_TRACE_FLAG_FILE_IO_INIT, "fileio" },
};

#define KERNEL_ALL_FLAGS (EVENT_TRACE_FLAG_PROCESS | EVENT_TRACE_FLAG_THREAD | \
			  EVENT_TRACE_FLAG_IMAGE_LOAD | EVENT_TRACE_FLAG_PROFILE | \
			  EVENT_TRACE_FLAG_CSWITCH | EVENT_TRACE_FLAG_DISK_IO | \
			  EVENT_TRACE_FLAG_FILE_IO | EVENT_TRACE_FLAG_FILE_IO_INIT)
/* Starts of the kernel logger per flag: each attaches and detaches. */
#define KERNEL_ITERATIONS	20

/*
 * The NT Kernel Logger started with each kernel flag, its EnableFlags
 * raised to all of them, its stack list and the profile interval set,
 * and its stop, each with a share of etw.ko's allocations failing: a
 * start or a setting that fails is ERROR_NOT_ENOUGH_MEMORY and leaves
 * no session, or the flags as they were (every source it started
 * stopped again); a stop always works.  A second system logger runs
 * throughout: whatever failed, it still gets its records (a child's
 * process records) after each flag's round, and the kernel logger
 * starts again with every flag at the end.  120 starts and stops, each
 * with its rundowns and system configuration: more than the default 30 s.
 */
TEST_F_TIMEOUT(fi, kernel_logger, 90)
{
	struct tally start_t = { 0 }, flags_t = { 0 }, stacks_t = { 0 }, iv_t = { 0 };
	CLASSIC_EVENT_ID ids[2];
	TRACE_PROFILE_INTERVAL iv = { .Source = 0 };
	struct sprops {
		EVENT_TRACE_PROPERTIES p;
		char name[64];
	} sb;
	CONTROLTRACE_ID h, witness;
	__u32 witness_id;
	struct kprops b;
	unsigned int f;
	ULONG err, all = KERNEL_ALL_FLAGS;
	long n;
	int i;

	/* The witness: a system logger of its own, process events. */
	memset(&sb, 0, sizeof(sb));
	sb.p.Wnode.BufferSize = sizeof(sb);
	sb.p.Wnode.Flags = WNODE_FLAG_TRACED_GUID;
	sb.p.Wnode.ClientContext = 1;
	sb.p.LogFileMode = EVENT_TRACE_SYSTEM_LOGGER_MODE | EVENT_TRACE_REAL_TIME_MODE;
	sb.p.EnableFlags = EVENT_TRACE_FLAG_PROCESS;
	sb.p.BufferSize = 16;
	sb.p.LoggerNameOffset = offsetof(struct sprops, name);
	ASSERT_EQ(ERROR_SUCCESS, StartTraceA(&witness, "etwtest-fi-witness", &sb.p));
	ASSERT_EQ(0, query_id_by_name(self->fd, "etwtest-fi-witness", &witness_id));
	memset(ids, 0, sizeof(ids));
	/* Process/Start and Thread/CSwitch (Thread's class GUID). */
	memcpy(&ids[0].EventGuid, "\xd0\xa8\x6f\x3d\x05\xfe\xd0\x11\x9d\xda\x00\xc0\x4f\xd7\xba\x7c", 16);
	ids[0].Type = 1;
	memcpy(&ids[1].EventGuid, "\xd1\xa8\x6f\x3d\x05\xfe\xd0\x11\x9d\xda\x00\xc0\x4f\xd7\xba\x7c", 16);
	ids[1].Type = 36;

	for (f = 0; f < sizeof(kernel_flag_list) / sizeof(kernel_flag_list[0]); f++) {
		ULONG flag = kernel_flag_list[f].flag;

		for (i = 0; i < KERNEL_ITERATIONS; i++) {
			ASSERT_EQ(0, fault_arm(3));
			err = StartTraceA(&h, KERNEL_LOGGER_NAMEA, kernel_rt_props(&b, flag));
			ASSERT_EQ(0, fault_arm(0));
			TALLY(&start_t, win32_errno(err));
			if (err) {
				EXPECT_EQ(ERROR_NOT_ENOUGH_MEMORY, err)
					TH_LOG("%s start", kernel_flag_list[f].name);
				EXPECT_EQ(-ENOENT, query_by_name(self->fd, KERNEL_LOGGER_NAMEA));
				continue;
			}
			/* Every other source too: all of them or none. */
			ASSERT_EQ(0, fault_arm(3));
			err = TraceSetInformation(h, TraceSystemTraceEnableFlagsInfo, &all,
						  sizeof(all));
			ASSERT_EQ(0, fault_arm(0));
			TALLY(&flags_t, win32_errno(err));
			EXPECT_EQ(err ? flag : all, kernel_flags(h))
				TH_LOG("%s flags: %lu", kernel_flag_list[f].name, (unsigned long)err);
			ASSERT_EQ(0, fault_arm(30));
			err = TraceSetInformation(h, TraceStackTracingInfo, ids, sizeof(ids));
			ASSERT_EQ(0, fault_arm(0));
			TALLY(&stacks_t, win32_errno(err));
			iv.Interval = 5000 + i;
			ASSERT_EQ(0, fault_arm(30));
			err = TraceSetInformation(0, TraceSampledProfileIntervalInfo, &iv,
						  sizeof(iv));
			ASSERT_EQ(0, fault_arm(0));
			TALLY(&iv_t, win32_errno(err));
			ASSERT_EQ(0, fault_arm(10));
			err = stop_trace(h);
			ASSERT_EQ(0, fault_arm(0));
			EXPECT_EQ(ERROR_SUCCESS, err) TH_LOG("%s stop", kernel_flag_list[f].name);
			EXPECT_EQ(-ENOENT, query_by_name(self->fd, KERNEL_LOGGER_NAMEA));
		}
		/* The witness still on the kernel logger's route. */
		ASSERT_LE(0, session_bytes(self->fd, witness_id));
		ASSERT_EQ(0, run_true());
		n = session_bytes(self->fd, witness_id);
		EXPECT_LT(0, n) TH_LOG("after %s: the witness recorded nothing",
				       kernel_flag_list[f].name);
		EXPECT_EQ(EVENT_TRACE_FLAG_PROCESS, kernel_flags(witness));
	}
	/* Every source starts again, and stops. */
	ASSERT_EQ(ERROR_SUCCESS, StartTraceA(&h, KERNEL_LOGGER_NAMEA,
					     kernel_rt_props(&b, KERNEL_ALL_FLAGS)));
	EXPECT_EQ(KERNEL_ALL_FLAGS, kernel_flags(h));
	EXPECT_EQ(ERROR_SUCCESS, stop_trace(h));
	iv.Interval = 10000;
	EXPECT_EQ(ERROR_SUCCESS, TraceSetInformation(0, TraceSampledProfileIntervalInfo,
						     &iv, sizeof(iv)));
	EXPECT_EQ(ERROR_SUCCESS, stop_trace(witness));
	TH_LOG("start: %d worked, %d ENOMEM; flags: %d, %d; stacks: %d, %d; interval: %d, %d",
	       start_t.ok, start_t.nomem, flags_t.ok, flags_t.nomem, stacks_t.ok,
	       stacks_t.nomem, iv_t.ok, iv_t.nomem);
	EXPECT_LE(MIN_FAILS, start_t.nomem);
	EXPECT_LT(0, start_t.ok);
	EXPECT_LT(0, flags_t.nomem);
	EXPECT_LT(0, flags_t.ok);
	EXPECT_LT(0, stacks_t.nomem);
	EXPECT_LT(0, stacks_t.ok);
	EXPECT_LT(0, iv_t.nomem);
	EXPECT_LT(0, iv_t.ok);
}

/*
 * This thread's fail-nth (/proc/thread-self/fail-nth, kept open: opening
 * it allocates): its @n-th allocation from now on fails.
 */
static int nth_fd = -1;

static int fail_nth(int n)
{
	char v[16];
	int len = snprintf(v, sizeof(v), "%d", n);

	return pwrite(nth_fd, v, len, 0) == len ? 0 : -errno;
}

/* Allocations still to come before the failure: 0 once it happened. */
static int fail_nth_left(void)
{
	char v[16];
	ssize_t got = pread(nth_fd, v, sizeof(v) - 1, 0);

	if (got <= 0)
		return -1;
	v[got] = 0;
	return atoi(v);
}

enum {
	OP_OPEN, OP_REGISTER, OP_TRAITS, OP_START, OP_ENABLE, OP_ATTACH, OP_WRITER,
	OP_KERNEL_LOGGER, OP_COUNT
};
static const char *const op_names[OP_COUNT] = {
	"open", "register", "traits", "start", "enable", "logger attach", "writer fd",
	"kernel logger start",
};

/* The NT Kernel Logger with every kernel flag, through the ioctl. */
static int start_kernel_logger(int fd, __u32 *id)
{
	struct etw_session_start st = { .size = sizeof(st) };
	int ret;

	snprintf(st.info.name, sizeof(st.info.name), "%s", KERNEL_LOGGER_NAMEA);
	st.info.log_file_mode = ETW_MODE_REAL_TIME;
	st.info.buffer_size_kb = 16;
	st.info.enable_flags = KERNEL_ALL_FLAGS;
	ret = etw_ioctl_err(fd, ETW_IOC_SESSION_START, &st);
	if (!ret)
		*id = st.info.logger_id;
	return ret;
}

/*
 * One operation with the fail-nth set: its result, 0 or -errno, and in
 * @made the fd or session it made (-1: none), which the caller undoes.
 * OP_REGISTER registers on the fresh file the caller opened, in @made.
 */
static int run_op(int op, int fd, const __u8 guid[16], __u32 reg, __u32 id,
		  int *made)
{
	static const char args[] = "Key\0Value";
	struct etw_writer_open o = { .size = sizeof(o) };
	struct etw_enable e = { .size = sizeof(e) };
	struct etw_consumer_attach a;
	__u32 r, sid;
	int ret;

	if (op != OP_REGISTER && op != OP_TRAITS)
		*made = -1;
	switch (op) {
	case OP_OPEN:
		ret = open(ETW_DEV, O_RDWR | O_CLOEXEC);
		*made = ret;
		return ret < 0 ? -errno : 0;
	case OP_REGISTER:
		return etw_register_simple(*made, guid, &r);
	case OP_TRAITS:
		/* On a registration of its own, which the caller made. */
		return etw_set_info(fd, *made, ETW_INFO_SET_TRAITS, "\x08\x00" "etwfi", 8);
	case OP_START:
		ret = start_session(fd, "etwtest-fi-nth", 16, 0, 16, &sid);
		*made = ret ? -1 : (int)sid;
		return ret;
	case OP_ENABLE:
		e.logger_id = id;
		e.control_code = ETW_CONTROL_CODE_ENABLE;
		memcpy(e.guid, guid, 16);
		e.flags = ETW_ENABLE_F_FILTER;
		e.filter_type = 0x5;
		e.filter_size = sizeof(args);
		e.filter_data = (uintptr_t)args;
		return etw_ioctl_err(fd, ETW_IOC_ENABLE, &e);
	case OP_ATTACH:
		ret = attach(fd, id, ETW_CONSUMER_F_LOGGER, NULL, &a);
		*made = ret;
		return ret < 0 ? ret : 0;
	case OP_KERNEL_LOGGER:
		ret = start_kernel_logger(fd, &sid);
		*made = ret ? -1 : (int)sid;
		return ret;
	default:
		ret = etw_ioctl_err(fd, ETW_IOC_WRITER_OPEN, &o);
		*made = ret ? -1 : o.fd;
		return ret;
	}
}

/*
 * Every allocation site of each path, one at a time: /proc/thread-self/
 * fail-nth fails this thread's n-th allocation (any code's, etw.ko's and
 * the kernel's around it alike) for n = 1, 2, ... until the operation
 * makes fewer.  Each injected failure is ENOMEM and leaves nothing behind
 * (no session, no consumer, the provider as it was), or the operation
 * absorbed it (a notification dropped whole) and worked.  The kernel
 * logger's start alone, with every flag, its probes and rundowns, makes
 * 194 allocations (the debug kernel): more than the default 30 s.
 */
TEST_F_TIMEOUT(fi, every_allocation_site_once, 120)
{
	struct etw_consumer_attach a;
	int op, n, ret, made = -1, sites, nomem;
	__u32 reg, id, treg = 0;
	int pf;

	nth_fd = open("/proc/thread-self/fail-nth", O_RDWR | O_CLOEXEC);
	ASSERT_LE(0, nth_fd);
	ASSERT_EQ(0, start_session(self->fd, "etwtest-fi-sites", 4, 0, 8, &id));
	pf = open(ETW_DEV, O_RDWR | O_CLOEXEC);
	ASSERT_LE(0, pf);
	ASSERT_EQ(0, etw_register_simple(pf, self->guid, &reg));
	for (op = 0; op < OP_COUNT; op++) {
		sites = nomem = 0;
		for (n = 1; n < MAX_SITES; n++) {
			/* A fresh file: its first registration maps its state. */
			if (op == OP_REGISTER)
				ASSERT_LE(0, made = open(ETW_DEV, O_RDWR | O_CLOEXEC));
			if (op == OP_TRAITS) {
				ASSERT_EQ(0, etw_register_simple(self->fd, self->guid, &treg));
				made = treg;
			}
			ASSERT_EQ(0, fail_nth(n));
			ret = run_op(op, self->fd, self->guid, self->reg, id, &made);
			if (fail_nth_left() > 0) {
				ASSERT_EQ(0, fail_nth(0));
				EXPECT_EQ(0, ret) TH_LOG("%s without a failure", op_names[op]);
				n = -n;
			} else {
				sites++;
				nomem += ret == -ENOMEM;
				if (ret)
					EXPECT_EQ(-ENOMEM, ret) TH_LOG("%s, allocation %d", op_names[op], n);
			}
			/* Undo, and check a failure left nothing. */
			if (op == OP_START && ret)
				EXPECT_EQ(-ENOENT, query_by_name(self->fd, "etwtest-fi-nth"));
			if (op == OP_KERNEL_LOGGER && ret)
				EXPECT_EQ(-ENOENT, query_by_name(self->fd, KERNEL_LOGGER_NAMEA));
			if ((op == OP_START || op == OP_KERNEL_LOGGER) && !ret)
				EXPECT_EQ(0, etw_session_ctl(self->fd, made, ETW_CONTROL_STOP, NULL));
			if (op == OP_ENABLE) {
				EXPECT_EQ(ret ? 0 : 1, stores(pf, reg, id)) TH_LOG("enable %d", n);
				if (!ret)
					ASSERT_EQ(0, etw_enable_simple(self->fd, id, self->guid,
								       ETW_CONTROL_CODE_DISABLE,
								       0, 0, 0, 0));
			}
			if (op == OP_ATTACH && ret) {
				/* No consumer left attached: the next one gets in. */
				made = attach(self->fd, id, ETW_CONSUMER_F_LOGGER, NULL, &a);
				EXPECT_LE(0, made);
			}
			if (op == OP_TRAITS) {
				struct etw_provider_unregister u = { .size = sizeof(u), .reg_id = treg };

				EXPECT_EQ(0, etw_ioctl_err(self->fd, ETW_IOC_PROVIDER_UNREGISTER, &u));
			} else if (op != OP_START && op != OP_KERNEL_LOGGER && op != OP_ENABLE &&
				   made >= 0) {
				close(made);
			}
			if (n < 0)
				break;
		}
		TH_LOG("%s: %d allocations failed one at a time, %d of them ENOMEM",
		       op_names[op], sites, nomem);
		EXPECT_LT(0, nomem) TH_LOG("%s", op_names[op]);
		EXPECT_GT(0, n) TH_LOG("%s made more than %d allocations", op_names[op],
				       MAX_SITES);
	}
	close(pf);
	close(nth_fd);
}

/* After all of it: idle, the module unloads, and loads again. */
TEST_F(fi, module_unloads)
{
	const char *path = getenv("ETW_MODULE");

	if (!path)
		SKIP(return, "needs ETW_MODULE=<path of etw.ko>");
	ASSERT_EQ(0, fault_arm(0));
	etw_stop_test_sessions(self->fd);
	close(self->fd);
	self->fd = -1;
	kmsg("etw-faults: end");
	EXPECT_EQ(0, etw_module_unload());
	EXPECT_FALSE(etw_module_loaded());
	ASSERT_EQ(0, etw_module_load(path));
}

TEST_HARNESS_MAIN
