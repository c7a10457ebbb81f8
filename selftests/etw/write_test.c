// SPDX-License-Identifier: GPL-2.0
/*
 * Writing events: the record as stored (EVENT_HEADER, extended items,
 * payload, ETL buffer framing), the size and argument errors, and what
 * happens when a session has no room: dropped for every session that is
 * not independent, and counted.
 */
#include <sched.h>
#include <stdio.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "etw_selftests.h"

FIXTURE(wr)
{
	int fd;
	__u8 guid[16];
	__u32 reg;
	__u32 s;
};

FIXTURE_SETUP(wr)
{
	etw_require_root(_metadata);
	self->fd = etw_open_or_skip(_metadata);
	etw_stop_test_sessions(self->fd);
	etw_test_guid(self->guid, 0x20);
	ASSERT_EQ(0, etw_register_simple(self->fd, self->guid, &self->reg));
	ASSERT_EQ(0, etw_session_start_simple(self->fd, "etwtest-wr", 0, 8, 0, &self->s));
	ASSERT_EQ(0, etw_enable_simple(self->fd, self->s, self->guid, 1, 0, 0, 0, 0));
}

FIXTURE_TEARDOWN(wr)
{
	if (self->fd >= 0) {
		etw_stop_test_sessions(self->fd);
		close(self->fd);
	}
}

struct seen {
	struct etw_test_event_header h;
	__u8 data[256];
	__u8 ext[64];
	__u32 cpu;
	long n;
};

static int keep_last(const struct etw_test_event_header *h, const __u8 *buffer,
		     __u32 cpu, void *ctx)
{
	struct seen *s = ctx;
	const __u8 *rec = (const __u8 *)h;
	__u32 off = sizeof(*h);

	s->h = *h;
	s->cpu = cpu;
	s->n++;
	if (h->flags & 1) {
		__u16 item;

		memcpy(&item, rec + off, 2);
		memcpy(s->ext, rec + off, item < 64 ? item : 64);
		off += item;
	}
	memcpy(s->data, rec + off, h->size - off < 256 ? h->size - off : 256);
	return 0;
}

TEST_F(wr, record_as_stored)
{
	struct etw_data_desc d[3];
	struct etw_event_write w = { .size = sizeof(w), .kind = ETW_WRITE_EVENT };
	static const char a[] = "hello", b[] = ", ", c[] = "world";
	struct seen s = { 0 };
	__u8 act[16], rel[16];
	__u16 item[4];

	memset(act, 0x11, 16);
	memset(rel, 0x22, 16);
	d[0] = (struct etw_data_desc){ .ptr = (uintptr_t)a, .size = 5 };
	d[1] = (struct etw_data_desc){ .ptr = (uintptr_t)b, .size = 2 };
	d[2] = (struct etw_data_desc){ .ptr = (uintptr_t)c, .size = 6 };
	w.reg_id = self->reg;
	w.desc = (struct etw_event_desc){ .id = 42, .version = 3, .channel = 11,
		.level = 4, .opcode = 1, .task = 7, .keyword = 0x8000000000000001ULL };
	w.flags = ETW_WRITE_F_ACTIVITY | ETW_WRITE_F_RELATED;
	memcpy(w.activity_id, act, 16);
	memcpy(w.related_id, rel, 16);
	w.count = 3;
	w.data = (uintptr_t)d;
	ASSERT_EQ(0, etw_ioctl_err(self->fd, ETW_IOC_WRITE, &w));

	ASSERT_EQ(1, etw_drain(self->fd, self->s, keep_last, &s));
	EXPECT_EQ(0x50 + 24 + 13, s.h.size);
	EXPECT_EQ(sizeof(void *) == 8 ? 0xC013 : 0xC012, s.h.header_type);
	EXPECT_EQ(1, s.h.flags);		/* EXTENDED_INFO */
	EXPECT_EQ(getpid(), s.h.process_id);
	EXPECT_EQ(syscall(SYS_gettid), s.h.thread_id);
	EXPECT_EQ(0, memcmp(self->guid, s.h.provider_id, 16));
	EXPECT_EQ(42, s.h.desc.id);
	EXPECT_EQ(3, s.h.desc.version);
	EXPECT_EQ(11, s.h.desc.channel);
	EXPECT_EQ(4, s.h.desc.level);
	EXPECT_EQ(1, s.h.desc.opcode);
	EXPECT_EQ(7, s.h.desc.task);
	EXPECT_EQ(0x8000000000000001ULL, s.h.desc.keyword);
	EXPECT_EQ(0, memcmp(act, s.h.activity_id, 16));
	EXPECT_GT(sysconf(_SC_NPROCESSORS_CONF), s.cpu);
	/* RELATED_ACTIVITYID item: size 24, type 1, last, 16 bytes. */
	memcpy(item, s.ext, 8);
	EXPECT_EQ(24, item[0]);
	EXPECT_EQ(1, item[1]);
	EXPECT_EQ(0, item[2]);
	EXPECT_EQ(16, item[3]);
	EXPECT_EQ(0, memcmp(rel, s.ext + 8, 16));
	EXPECT_EQ(0, memcmp("hello, world", s.data, 13));
}

static __u64 thread_cpu_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return ts.tv_sec * 1000ULL + ts.tv_nsec / 1000000;
}

/*
 * This thread's user time as the scheduler sampled it, in ms: ticks that
 * found it in user mode (a loaded host that did not run the emulated CPU
 * loses ticks, so the CPU clock alone says little about it).
 */
static __u64 thread_user_ms(void)
{
	unsigned long ticks = 0;
	char buf[512], *p;
	FILE *f = fopen("/proc/thread-self/stat", "r");

	if (!f)
		return 0;
	if (fgets(buf, sizeof(buf), f) && (p = strrchr(buf, ')')))
		sscanf(p + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %lu",
		       &ticks);
	fclose(f);
	return ticks * 1000ULL / sysconf(_SC_CLK_TCK);
}

/*
 * KernelTime and UserTime: the writing thread's processor time in ms (the
 * file's TimerResolution), as the scheduler accounted it by then.
 */
TEST_F(wr, processor_time)
{
	struct seen s = { 0 };
	volatile __u64 spin = 0;
	/*
	 * On make check-debug's kernel a system call costs several times
	 * more (KASAN, lockdep), so the time is read ten times less often.
	 */
	int spins = getenv("ETW_DEBUG_KERNEL") ? 10000000 : 1000000;
	__u64 used;

	/*
	 * Mostly user time: the time is read rarely (a system call), until
	 * the scheduler has sampled 400 ms of it, however many ticks a
	 * loaded host loses (at most a minute of CPU clock).
	 */
	while (thread_user_ms() < 400 && thread_cpu_ms() < 60000)
		for (int i = 0; i < spins; i++)
			spin++;
	ASSERT_EQ(0, etw_write_simple(self->fd, self->reg, 1, 4, 0, NULL, 0));
	used = thread_cpu_ms();
	ASSERT_EQ(1, etw_drain(self->fd, self->s, keep_last, &s));
	/*
	 * The scheduler samples user and system time at ticks.  The thread's
	 * CPU clock also counts the time the host did not run the emulated
	 * CPU, which on a loaded host is most of it while ticks are lost:
	 * the sum is some of that clock, never more.
	 */
	EXPECT_LT(0, s.h.kernel_time + s.h.user_time);
	EXPECT_GE(used + 50, s.h.kernel_time + s.h.user_time);
	EXPECT_LT(s.h.kernel_time, s.h.user_time);
}

TEST_F(wr, timestamps_and_sequence)
{
	struct etw_session_info info;
	struct seen s = { 0 };
	__u64 first;

	ASSERT_EQ(0, etw_session_ctl(self->fd, self->s, ETW_CONTROL_QUERY, &info));
	ASSERT_EQ(0, etw_write_simple(self->fd, self->reg, 1, 4, 0, NULL, 0));
	ASSERT_EQ(1, etw_drain(self->fd, self->s, keep_last, &s));
	EXPECT_LE(info.start_ticks, s.h.timestamp);
	first = s.h.timestamp;
	ASSERT_EQ(0, etw_write_simple(self->fd, self->reg, 2, 4, 0, NULL, 0));
	ASSERT_EQ(1, etw_drain(self->fd, self->s, keep_last, &s));
	EXPECT_LT(first, s.h.timestamp);
	EXPECT_EQ(0x50, s.h.size);
	EXPECT_EQ(0, s.h.flags);
}

/* Many events fill many buffers; every one comes back, in order per CPU. */
TEST_F(wr, many_events_exact_count)
{
	struct etw_counts c;
	struct etw_session_info info;
	char payload[100];
	int i;

	memset(payload, 'p', sizeof(payload));
	for (i = 0; i < 2000; i++) {
		ASSERT_EQ(0, etw_write_simple(self->fd, self->reg, i & 0xff, 4, 0,
					      payload, sizeof(payload)));
		/*
		 * Keep the session from running out: drain before its
		 * MinimumBuffers are full (the pool grows, but not in the
		 * write path).
		 */
		if (i % 100 == 99) {
			ASSERT_LE(0, etw_count(self->fd, self->s, self->guid, &c));
			EXPECT_EQ(100, c.total);
		}
	}
	ASSERT_EQ(0, etw_session_ctl(self->fd, self->s, ETW_CONTROL_QUERY, &info));
	EXPECT_EQ(0, info.events_lost);
	EXPECT_LT(10, info.buffers_written);
}

TEST_F(wr, size_errors)
{
	static char big[70000];
	struct etw_data_desc d[ETW_MAX_DATA_DESCRIPTORS + 1];
	struct etw_event_write w = { .size = sizeof(w), .kind = ETW_WRITE_EVENT };
	struct etw_session_info info;
	int i;

	/* Over 64 KiB with the header: ERROR_ARITHMETIC_OVERFLOW. */
	EXPECT_EQ(-EOVERFLOW, etw_write_simple(self->fd, self->reg, 1, 4, 0, big,
					       65536 - 0x50));
	/* Fits 64 KiB but not an 8 KiB buffer: ERROR_MORE_DATA. */
	EXPECT_EQ(-EMSGSIZE, etw_write_simple(self->fd, self->reg, 1, 4, 0, big,
					      8192 - 0x48 - 0x50 + 1));
	/* Exactly a buffer: fits. */
	EXPECT_EQ(0, etw_write_simple(self->fd, self->reg, 1, 4, 0, big,
				      8192 - 0x48 - 0x50));
	ASSERT_EQ(0, etw_session_ctl(self->fd, self->s, ETW_CONTROL_QUERY, &info));
	EXPECT_EQ(1, info.events_lost);	/* the ERROR_MORE_DATA one */

	/* 128 descriptors is the limit. */
	for (i = 0; i <= ETW_MAX_DATA_DESCRIPTORS; i++)
		d[i] = (struct etw_data_desc){ .ptr = (uintptr_t)big, .size = 1 };
	w.reg_id = self->reg;
	w.data = (uintptr_t)d;
	w.count = ETW_MAX_DATA_DESCRIPTORS;
	EXPECT_EQ(0, etw_ioctl_err(self->fd, ETW_IOC_WRITE, &w));
	w.count = ETW_MAX_DATA_DESCRIPTORS + 1;
	EXPECT_EQ(-EINVAL, etw_ioctl_err(self->fd, ETW_IOC_WRITE, &w));
	/* Sizes that overflow 32 bits in sum. */
	d[0].size = 0xffffffff;
	d[1].size = 0xffffffff;
	w.count = 2;
	EXPECT_EQ(-EOVERFLOW, etw_ioctl_err(self->fd, ETW_IOC_WRITE, &w));
}

/*
 * Every layout of the request gives the same result, whichever way the
 * module reads it (word by word for today's size at an aligned address,
 * copy_struct_from_user() otherwise): the event, the counts written back,
 * a larger struct with a zero or non-zero tail, descriptors at an odd
 * address, a request that cannot be read whole or whose counts cannot go
 * back.
 */
TEST_F(wr, request_layouts)
{
	static const char msg[] = "layout";
	long page = sysconf(_SC_PAGESIZE);
	struct etw_event_write w = { .size = sizeof(w), .kind = ETW_WRITE_EVENT };
	struct etw_data_desc d = { .ptr = (uintptr_t)msg, .size = sizeof(msg) };
	static const unsigned int offs[] = { 0, 4, 1 };
	unsigned char raw[sizeof(w) + 24], *dbuf;
	struct seen s = { 0 };
	unsigned int i;
	__u8 *map;
	void *at;

	w.reg_id = self->reg;
	w.desc.id = 5;
	w.count = 1;
	w.data = (uintptr_t)&d;
	/* Aligned, and 4 and 1 bytes past: written, the counts back. */
	for (i = 0; i < 3; i++) {
		struct etw_event_write back;

		at = (void *)(((uintptr_t)raw + 7) / 8 * 8 + offs[i]);
		memcpy(at, &w, sizeof(w));
		ASSERT_EQ(0, etw_ioctl_err(self->fd, ETW_IOC_WRITE, at));
		memcpy(&back, at, sizeof(back));
		EXPECT_EQ(1, back.written);
		EXPECT_EQ(0, back.lost);
	}

	/* A larger struct: a zero tail is accepted, anything else E2BIG. */
	memset(raw, 0, sizeof(raw));
	w.size = sizeof(w) + 8;
	memcpy(raw, &w, sizeof(w));
	EXPECT_EQ(0, etw_ioctl_err(self->fd, ETW_IOC_WRITE, raw));
	raw[sizeof(w) + 3] = 1;
	EXPECT_EQ(-E2BIG, etw_ioctl_err(self->fd, ETW_IOC_WRITE, raw));
	w.size = sizeof(w);

	/* Descriptors at an odd address: the same record. */
	dbuf = raw + 1;
	memcpy(dbuf, &d, sizeof(d));
	w.data = (uintptr_t)dbuf;
	ASSERT_EQ(0, etw_ioctl_err(self->fd, ETW_IOC_WRITE, &w));
	w.data = (uintptr_t)&d;

	ASSERT_EQ(5, etw_drain(self->fd, self->s, keep_last, &s));
	EXPECT_EQ(0x50 + sizeof(msg), s.h.size);
	EXPECT_EQ(0, memcmp(msg, s.data, sizeof(msg)));

	/*
	 * The last 8 bytes of a page before an unmapped one: the size is
	 * readable, the rest is not (EFAULT, nothing written).  Then the
	 * request in a read-only page: the event is written, the counts cannot
	 * go back (EFAULT).
	 */
	map = mmap(NULL, 2 * page, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_TRUE(map != MAP_FAILED);
	ASSERT_EQ(0, munmap(map + page, page));
	memcpy(map + page - 8, &w, 8);
	EXPECT_EQ(-EFAULT, etw_ioctl_err(self->fd, ETW_IOC_WRITE, map + page - 8));
	memcpy(map, &w, sizeof(w));
	ASSERT_EQ(0, mprotect(map, page, PROT_READ));
	EXPECT_EQ(-EFAULT, etw_ioctl_err(self->fd, ETW_IOC_WRITE, map));
	munmap(map, page);
	s.n = 0;
	EXPECT_EQ(1, etw_drain(self->fd, self->s, keep_last, &s));
}

TEST_F(wr, argument_errors)
{
	struct etw_data_desc d = { .ptr = 1, .size = 8 };
	struct etw_event_write w = { .size = sizeof(w), .kind = ETW_WRITE_EVENT };

	w.reg_id = self->reg;
	w.count = 1;
	w.data = 0;				/* NULL with a count */
	EXPECT_EQ(-EINVAL, etw_ioctl_err(self->fd, ETW_IOC_WRITE, &w));
	w.data = 8;				/* unreadable descriptors */
	EXPECT_EQ(-EFAULT, etw_ioctl_err(self->fd, ETW_IOC_WRITE, &w));
	w.data = (uintptr_t)&d;			/* unreadable payload */
	EXPECT_EQ(-EFAULT, etw_ioctl_err(self->fd, ETW_IOC_WRITE, &w));
	d.ptr = 0xffffffff81000000ULL;		/* kernel address */
	EXPECT_EQ(-EFAULT, etw_ioctl_err(self->fd, ETW_IOC_WRITE, &w));
	w.count = 0;
	w.reg_id = 999;
	EXPECT_EQ(-EBADF, etw_ioctl_err(self->fd, ETW_IOC_WRITE, &w));
	w.reg_id = self->reg;
	w.kind = 5;				/* no such kind */
	EXPECT_EQ(-EINVAL, etw_ioctl_err(self->fd, ETW_IOC_WRITE, &w));
	w.kind = ETW_WRITE_EVENT;
	w.flags = 0x8;
	EXPECT_EQ(-EINVAL, etw_ioctl_err(self->fd, ETW_IOC_WRITE, &w));
	w.flags = 0;
	w.reserved[2] = 1;
	EXPECT_EQ(-EINVAL, etw_ioctl_err(self->fd, ETW_IOC_WRITE, &w));
	w.reserved[2] = 0;
	/* Nothing was stored by any of these. */
	{
		struct etw_counts c;

		ASSERT_LE(0, etw_count(self->fd, self->s, self->guid, &c));
		EXPECT_EQ(0, c.total);
	}
}

/* EventWriteEx's Filter: a set bit keeps the event from that session. */
TEST_F(wr, write_ex_filter)
{
	struct etw_event_write w = { .size = sizeof(w), .kind = ETW_WRITE_EVENT };
	struct etw_counts c;

	w.reg_id = self->reg;
	w.filter = 1ULL << (self->s - 1);
	ASSERT_EQ(0, etw_ioctl_err(self->fd, ETW_IOC_WRITE, &w));
	w.filter = ~(1ULL << (self->s - 1));
	ASSERT_EQ(0, etw_ioctl_err(self->fd, ETW_IOC_WRITE, &w));
	ASSERT_LE(0, etw_count(self->fd, self->s, self->guid, &c));
	EXPECT_EQ(1, c.total);
}

/*
 * Session "small" runs out of buffers.  A second session gets the event
 * only when every non-independent session had room; an independent one
 * gets it whenever it has room itself.  Every loss is counted.
 */
static void no_room(struct __test_metadata *_metadata, int fd, __u32 reg,
		    const __u8 *guid, __u32 other_mode)
{
	struct etw_session_info si, oi;
	struct etw_counts sc, oc;
	__u32 small, other;
	char payload[200];
	int i, total = 400;

	memset(payload, 'x', sizeof(payload));
	ASSERT_EQ(0, etw_session_start_simple(fd, "etwtest-small", 0, 1, 1, &small));
	ASSERT_EQ(0, etw_session_start_simple(fd, "etwtest-other", other_mode, 64, 0, &other));
	ASSERT_EQ(0, etw_enable_simple(fd, small, guid, 1, 0, 0, 0, 0));
	ASSERT_EQ(0, etw_enable_simple(fd, other, guid, 1, 0, 0, 0, 0));
	for (i = 0; i < total; i++) {
		int ret = etw_write_simple(fd, reg, 1, 4, 0, payload, sizeof(payload));

		ASSERT_TRUE(ret == 0 || ret == -ENOSPC) TH_LOG("write: %d", ret);
	}
	ASSERT_LE(0, etw_count(fd, small, guid, &sc));
	ASSERT_LE(0, etw_count(fd, other, guid, &oc));
	ASSERT_EQ(0, etw_session_ctl(fd, small, ETW_CONTROL_QUERY, &si));
	ASSERT_EQ(0, etw_session_ctl(fd, other, ETW_CONTROL_QUERY, &oi));

	/* The small session filled up: events were lost, all counted. */
	EXPECT_LT(0, si.events_lost);
	EXPECT_EQ(total, sc.total + si.events_lost);
	EXPECT_EQ(total, oc.total + oi.events_lost);
	if (other_mode & ETW_MODE_INDEPENDENT) {
		EXPECT_EQ(total, oc.total);
		EXPECT_EQ(0, oi.events_lost);
	} else {
		EXPECT_EQ(sc.total, oc.total);
		EXPECT_EQ(si.events_lost, oi.events_lost);
	}
}

TEST_F(wr, no_room_drops_for_all)
{
	no_room(_metadata, self->fd, self->reg, self->guid, 0);
}

TEST_F(wr, no_room_independent_session)
{
	no_room(_metadata, self->fd, self->reg, self->guid, ETW_MODE_INDEPENDENT);
}

/* Event 1 with a 200-byte payload: a 280-byte record. */
static int write_200(int fd, __u32 reg, struct etw_event_write *w)
{
	static const char payload[200];
	struct etw_data_desc d = { .ptr = (uintptr_t)payload,
				   .size = sizeof(payload) };

	memset(w, 0, sizeof(*w));
	w->size = sizeof(*w);
	w->kind = ETW_WRITE_EVENT;
	w->reg_id = reg;
	w->desc.id = 1;
	w->count = 1;
	w->data = (uintptr_t)&d;
	return etw_ioctl_err(fd, ETW_IOC_WRITE, w);
}

/*
 * Four sessions, exact counts: "small" (1 KiB buffers) fills up; the two
 * other dependent ones (the fixture's and "dep") store exactly what small
 * stored, each counting the rest lost; the independent one stores all.
 * Writing from one CPU makes small's capacity exact: its MaximumBuffers
 * buffers of three 280-byte records each.  A write that every session
 * stored says so; one that some lost is ERROR_NOT_ENOUGH_MEMORY.
 */
TEST_F(wr, three_more_sessions_exact_counts)
{
	struct etw_session_info si, di, ii, fi;
	struct etw_counts sc, dc, ic, fc;
	__u32 small, dep, ind;
	int i, total = 100, stored = 0;

	ASSERT_EQ(0, etw_pin_cpu(0));
	ASSERT_EQ(0, etw_session_start_simple(self->fd, "etwtest-x-small", 0, 1, 1, &small));
	ASSERT_EQ(0, etw_session_start_simple(self->fd, "etwtest-x-dep", 0, 64, 0, &dep));
	ASSERT_EQ(0, etw_session_start_simple(self->fd, "etwtest-x-ind",
					      ETW_MODE_INDEPENDENT, 64, 0, &ind));
	ASSERT_EQ(0, etw_enable_simple(self->fd, small, self->guid, 1, 0, 0, 0, 0));
	ASSERT_EQ(0, etw_enable_simple(self->fd, dep, self->guid, 1, 0, 0, 0, 0));
	ASSERT_EQ(0, etw_enable_simple(self->fd, ind, self->guid, 1, 0, 0, 0, 0));
	ASSERT_EQ(0, etw_session_ctl(self->fd, small, ETW_CONTROL_QUERY, &si));
	/* (1024 - 72) / 280 = 3 records per buffer. */
	ASSERT_GT(total, (int)si.max_buffers * 3);

	for (i = 0; i < total; i++) {
		struct etw_event_write w;
		int ret = write_200(self->fd, self->reg, &w);

		if (i < (int)si.max_buffers * 3) {
			EXPECT_EQ(0, ret);
			EXPECT_EQ(4, w.written);
			EXPECT_EQ(0, w.lost);
			stored += !ret;
		} else {
			/* The counts below say who stored it. */
			EXPECT_EQ(-ENOSPC, ret);
		}
	}
	ASSERT_LE(0, etw_count(self->fd, small, self->guid, &sc));
	ASSERT_LE(0, etw_count(self->fd, dep, self->guid, &dc));
	ASSERT_LE(0, etw_count(self->fd, ind, self->guid, &ic));
	ASSERT_LE(0, etw_count(self->fd, self->s, self->guid, &fc));
	ASSERT_EQ(0, etw_session_ctl(self->fd, small, ETW_CONTROL_QUERY, &si));
	ASSERT_EQ(0, etw_session_ctl(self->fd, dep, ETW_CONTROL_QUERY, &di));
	ASSERT_EQ(0, etw_session_ctl(self->fd, ind, ETW_CONTROL_QUERY, &ii));
	ASSERT_EQ(0, etw_session_ctl(self->fd, self->s, ETW_CONTROL_QUERY, &fi));
	EXPECT_EQ(si.max_buffers * 3, stored);
	EXPECT_EQ(stored, sc.total);
	EXPECT_EQ(stored, dc.total);
	EXPECT_EQ(stored, fc.total);
	EXPECT_EQ(total, ic.total);
	EXPECT_EQ(total - stored, si.events_lost);
	EXPECT_EQ(total - stored, di.events_lost);
	EXPECT_EQ(total - stored, fi.events_lost);
	EXPECT_EQ(0, ii.events_lost);
}

/*
 * The session out of room is the independent one: it alone loses events,
 * the dependent sessions store every one.  Windows: "a failure in one
 * session makes the event fail for all sessions unless the failing
 * session has EVENT_TRACE_INDEPENDENT_SESSION_MODE" (Logging Mode
 * Constants, learn.microsoft.com).
 */
TEST_F(wr, no_room_in_the_independent_session)
{
	struct etw_session_info si, di, fi;
	struct etw_counts sc, dc, fc;
	__u32 small, dep;
	int i, total = 100, cap;

	ASSERT_EQ(0, etw_pin_cpu(0));
	ASSERT_EQ(0, etw_session_start_simple(self->fd, "etwtest-i-small",
					      ETW_MODE_INDEPENDENT, 1, 1, &small));
	ASSERT_EQ(0, etw_session_start_simple(self->fd, "etwtest-i-dep", 0, 64, 0, &dep));
	ASSERT_EQ(0, etw_enable_simple(self->fd, small, self->guid, 1, 0, 0, 0, 0));
	ASSERT_EQ(0, etw_enable_simple(self->fd, dep, self->guid, 1, 0, 0, 0, 0));
	ASSERT_EQ(0, etw_session_ctl(self->fd, small, ETW_CONTROL_QUERY, &si));
	/* Three 280-byte records per 1 KiB buffer, as above. */
	cap = si.max_buffers * 3;
	ASSERT_GT(total, cap);

	for (i = 0; i < total; i++) {
		struct etw_event_write w;
		int ret = write_200(self->fd, self->reg, &w);

		/*
		 * Some session lost it: ERROR_NOT_ENOUGH_MEMORY all the same
		 * (the counts below say the others stored it).
		 */
		EXPECT_EQ(i < cap ? 0 : -ENOSPC, ret) TH_LOG("event %d", i);
		if (!ret)
			EXPECT_EQ(3, w.written);
	}
	ASSERT_LE(0, etw_count(self->fd, small, self->guid, &sc));
	ASSERT_LE(0, etw_count(self->fd, dep, self->guid, &dc));
	ASSERT_LE(0, etw_count(self->fd, self->s, self->guid, &fc));
	ASSERT_EQ(0, etw_session_ctl(self->fd, small, ETW_CONTROL_QUERY, &si));
	ASSERT_EQ(0, etw_session_ctl(self->fd, dep, ETW_CONTROL_QUERY, &di));
	ASSERT_EQ(0, etw_session_ctl(self->fd, self->s, ETW_CONTROL_QUERY, &fi));
	EXPECT_EQ(cap, sc.total);
	EXPECT_EQ(total - cap, si.events_lost);
	EXPECT_EQ(total, dc.total);
	EXPECT_EQ(total, fc.total);
	EXPECT_EQ(0, di.events_lost);
	EXPECT_EQ(0, fi.events_lost);
}

/*
 * An event too large for one session's buffers (ERROR_MORE_DATA) is that
 * session's loss like any other: a dependent session with room drops it
 * too, an independent one stores it; each loss is counted.
 */
TEST_F(wr, too_big_for_one_session)
{
	static char big[9000];
	struct etw_session_info fi, di, ii;
	struct etw_counts dc, ic;
	__u32 dep, ind;

	ASSERT_EQ(0, etw_session_start_simple(self->fd, "etwtest-big-dep", 0, 64, 0, &dep));
	ASSERT_EQ(0, etw_session_start_simple(self->fd, "etwtest-big-ind",
					      ETW_MODE_INDEPENDENT, 64, 0, &ind));
	ASSERT_EQ(0, etw_enable_simple(self->fd, dep, self->guid, 1, 0, 0, 0, 0));
	ASSERT_EQ(0, etw_enable_simple(self->fd, ind, self->guid, 1, 0, 0, 0, 0));
	/* The fixture's session has 8 KiB buffers. */
	EXPECT_EQ(-EMSGSIZE, etw_write_simple(self->fd, self->reg, 5, 4, 0, big, sizeof(big)));
	EXPECT_EQ(0, etw_write_simple(self->fd, self->reg, 6, 4, 0, big, 100));
	ASSERT_LE(0, etw_count(self->fd, dep, self->guid, &dc));
	ASSERT_LE(0, etw_count(self->fd, ind, self->guid, &ic));
	ASSERT_EQ(0, etw_session_ctl(self->fd, self->s, ETW_CONTROL_QUERY, &fi));
	ASSERT_EQ(0, etw_session_ctl(self->fd, dep, ETW_CONTROL_QUERY, &di));
	ASSERT_EQ(0, etw_session_ctl(self->fd, ind, ETW_CONTROL_QUERY, &ii));
	EXPECT_EQ(1, dc.total);
	EXPECT_EQ(0, dc.by_id[5]);
	EXPECT_EQ(2, ic.total);
	EXPECT_EQ(1, ic.by_id[5]);
	EXPECT_EQ(1, fi.events_lost);
	EXPECT_EQ(1, di.events_lost);
	EXPECT_EQ(0, ii.events_lost);
}

/*
 * The payload is copied from user memory straight into the record with
 * page faults disabled; a page that is not mapped yet (here a shared
 * mapping of a memfd, never touched by this process) makes that copy fail
 * and the write start over with a copy that may fault.  Each session must
 * still hold exactly one record with the whole payload, the resident block
 * and the one that was not, and nothing left of the abandoned attempt.
 */
TEST_F(wr, payload_not_resident)
{
	static const char head[] = "resident:";
	struct etw_data_desc d[2];
	struct etw_event_write w = { .size = sizeof(w), .kind = ETW_WRITE_EVENT };
	struct seen s = { 0 }, s2 = { 0 };
	char text[64];
	__u32 other;
	char *map;
	int mfd;

	memset(text, 0, sizeof(text));
	snprintf(text, sizeof(text), "from a page that was not mapped");
	mfd = memfd_create("etwtest-payload", 0);
	ASSERT_LE(0, mfd);
	ASSERT_EQ((ssize_t)sizeof(text), write(mfd, text, sizeof(text)));
	map = mmap(NULL, 4096, PROT_READ, MAP_SHARED, mfd, 0);
	ASSERT_TRUE(map != MAP_FAILED);
	ASSERT_EQ(0, etw_session_start_simple(self->fd, "etwtest-wr-2", 0, 8, 0, &other));
	ASSERT_EQ(0, etw_enable_simple(self->fd, other, self->guid, 1, 0, 0, 0, 0));

	d[0] = (struct etw_data_desc){ .ptr = (uintptr_t)head, .size = 9 };
	d[1] = (struct etw_data_desc){ .ptr = (uintptr_t)map, .size = sizeof(text) };
	w.reg_id = self->reg;
	w.desc.id = 5;
	w.count = 2;
	w.data = (uintptr_t)d;
	EXPECT_EQ(0, etw_ioctl_err(self->fd, ETW_IOC_WRITE, &w));
	EXPECT_EQ(2, w.written);
	EXPECT_EQ(0, w.lost);
	munmap(map, 4096);
	close(mfd);

	ASSERT_EQ(1, etw_drain(self->fd, self->s, keep_last, &s));
	ASSERT_EQ(1, etw_drain(self->fd, other, keep_last, &s2));
	EXPECT_EQ(0x50 + 9 + sizeof(text), s.h.size);
	EXPECT_EQ(0, memcmp("resident:", s.data, 9));
	EXPECT_EQ(0, memcmp(text, s.data + 9, sizeof(text)));
	EXPECT_EQ(s.h.size, s2.h.size);
	EXPECT_EQ(0, memcmp(s.data, s2.data, 9 + sizeof(text)));
}

TEST_HARNESS_MAIN
