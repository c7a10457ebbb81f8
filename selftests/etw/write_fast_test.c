// SPDX-License-Identifier: GPL-2.0
/*
 * The fast lane of ETW_IOC_WRITE_SHORT (module/write_fast.c): an inline
 * payload for a provider one session enables with nothing but a level and
 * keywords.  Every event here is such a write, so a lane that ignored a
 * rule would store what it must not, or miss what it must: a second
 * session, PID and event id filters, EnableProperty items and drops,
 * provider traits, the level and keyword test, a full buffer (ENOSPC and
 * the exact EventsLost), a payload that faults or is not resident, a
 * request that is not, every payload size from 0 to 600, and enables that
 * change while a thread writes.
 *
 * The lane needs this CPU's buffer to be current (the first event of a
 * buffer takes the full path, which switches buffers): the tests run on
 * one CPU and write a warm-up event (WARM, left out of the checks) while
 * the route is a plain one, then set the rule under test.
 */
#include <pthread.h>
#include <sys/mman.h>
#include <sys/syscall.h>

#include "kselftest_harness.h"
#include "etw_selftests.h"

/* The warm-up event's id. */
#define WARM		999

FIXTURE(fw)
{
	int fd;
	__u8 guid[16];
	__u32 reg;
	__u32 s;
};

FIXTURE_SETUP(fw)
{
	etw_require_root(_metadata);
	ASSERT_EQ(0, etw_pin_cpu(0));
	self->fd = etw_open_or_skip(_metadata);
	etw_stop_test_sessions(self->fd);
	etw_test_guid(self->guid, 0x3c);
	ASSERT_EQ(0, etw_register_simple(self->fd, self->guid, &self->reg));
	ASSERT_EQ(0, etw_session_start_simple(self->fd, "etwtest-fw", 0, 64, 0, &self->s));
	ASSERT_EQ(0, etw_enable_simple(self->fd, self->s, self->guid, 1, 0, 0, 0, 0));
}

FIXTURE_TEARDOWN(fw)
{
	if (self->fd >= 0) {
		etw_stop_test_sessions(self->fd);
		close(self->fd);
	}
}

/* An event with an inline payload: what libetw sends for EventWrite. */
static int write_inline(int fd, __u32 reg, __u16 id, __u8 level, __u64 kw,
			__u32 flags, const void *data, __u32 len)
{
	struct etw_event_write_short s = { .size = sizeof(s), .reg_id = reg };

	s.desc = (struct etw_event_desc){ .id = id, .version = 1, .channel = 16,
		.level = level, .opcode = 2, .task = 7, .keyword = kw };
	memset(s.activity_id, 0xa5, sizeof(s.activity_id));
	s.activity_id[0] = (__u8)id;
	s.flags = ETW_WRITE_F_INLINE | flags;
	s.data = (uintptr_t)data;
	s.count = len;
	return etw_ioctl_err(fd, ETW_IOC_WRITE_SHORT, &s);
}

/* A provider traits blob: its size, a name, one trait. */
static const __u8 traits[] = { 14, 0, 'F', 'a', 's', 't', 'P', 'v', 0,
			       5, 0, 0x80, 0xab, 0xcd };

/* The warm-up event: this CPU's buffers of the sessions become current. */
#define warm(self) \
	ASSERT_EQ(0, write_inline((self)->fd, (self)->reg, WARM, 1, 0, 0, "w", 1))

/* The records of one drain but the warm-up's: each whole, up to 64. */
struct recs {
	__u8 rec[64][1024];
	int n;
	int warm;
};

static int keep(const struct etw_test_event_header *h, const __u8 *buffer,
		__u32 cpu, void *ctx)
{
	struct recs *r = ctx;

	if (h->desc.id == WARM) {
		r->warm++;
		return 0;
	}
	if (r->n < 64)
		memcpy(r->rec[r->n], h, h->size < 1024 ? h->size : 1024);
	r->n++;
	return 0;
}

static struct recs *drain(struct __test_metadata *_metadata, int fd, __u32 s)
{
	static struct recs r;
	long n;

	memset(&r, 0, sizeof(r));
	n = etw_drain(fd, s, keep, &r);
	EXPECT_EQ(n, r.n + r.warm);
	return &r;
}

static const struct etw_test_event_header *hdr(const struct recs *r, int i)
{
	return (const void *)r->rec[i];
}

/* The records' extended item types, in order; -1 if malformed. */
static int items(const struct etw_test_event_header *h, __u16 *types, int max)
{
	struct etw_test_ext x[8];
	int i, n = etw_test_ext_items(h, x, 8, NULL);

	for (i = 0; i < n && i < max; i++)
		types[i] = x[i].type;
	return n;
}

/*
 * Every size around the copy's edges (4/2/1-byte tails, words, 32-byte
 * blocks, "rep movsq" from 64 bytes): the exact bytes, size and header of
 * each record.
 */
TEST_F(fw, payload_sizes)
{
	static const __u32 sizes[] = {
		0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 15, 16, 17, 24, 31, 32, 33, 39,
		40, 63, 64, 65, 100, 255, 256, 257, 264, 512, 900,
	};
	const unsigned int n = sizeof(sizes) / sizeof(sizes[0]);
	static __u8 data[1024];
	struct recs *r;
	unsigned int i, j;

	warm(self);
	for (i = 0; i < n; i++) {
		for (j = 0; j < sizes[i]; j++)
			data[j] = (__u8)(i * 31 + j * 7 + 1);
		ASSERT_EQ(0, write_inline(self->fd, self->reg, i, 4, 0x10,
					  0, data, sizes[i])) TH_LOG("size %u", sizes[i]);
	}
	r = drain(_metadata, self->fd, self->s);
	ASSERT_EQ(n, r->n);
	for (i = 0; i < n; i++) {
		const struct etw_test_event_header *h = hdr(r, i);

		EXPECT_EQ(0x50 + sizes[i], h->size) TH_LOG("size %u", sizes[i]);
		EXPECT_EQ(sizeof(long) == 8 ? 0xC013 : 0xC012, h->header_type);
		EXPECT_EQ(0, h->flags);
		EXPECT_EQ(0, h->event_property);
		EXPECT_EQ(syscall(SYS_gettid), h->thread_id);
		EXPECT_EQ(getpid(), h->process_id);
		EXPECT_EQ(0, memcmp(self->guid, h->provider_id, 16));
		EXPECT_EQ(i, h->desc.id);
		EXPECT_EQ(1, h->desc.version);
		EXPECT_EQ(16, h->desc.channel);
		EXPECT_EQ(4, h->desc.level);
		EXPECT_EQ(2, h->desc.opcode);
		EXPECT_EQ(7, h->desc.task);
		EXPECT_EQ(0x10, h->desc.keyword);
		EXPECT_EQ(i, h->activity_id[0]);
		EXPECT_EQ(0xa5, h->activity_id[15]);
		if (i)
			EXPECT_LE(hdr(r, i - 1)->timestamp, h->timestamp);
		for (j = 0; j < sizes[i] && 0x50 + j < 1024; j++)
			if (r->rec[i][0x50 + j] != (__u8)(i * 31 + j * 7 + 1))
				break;
		EXPECT_EQ(j, sizes[i]) TH_LOG("size %u: byte %u differs", sizes[i], j);
	}
}

/* The checker of payload_every_size: each record its size's bytes. */
struct every {
	__u32 seen;
	__u32 bad;
	__u32 first_bad;
};

static __u8 every_byte(__u32 size, __u32 j)
{
	return (__u8)(size * 7 + j * 13 + 1);
}

static int every_check(const struct etw_test_event_header *h,
		       const __u8 *buffer, __u32 cpu, void *ctx)
{
	const __u8 *p = (const __u8 *)h + 0x50;
	struct every *e = ctx;
	__u32 size = h->desc.id, j;
	int ok;

	(void)buffer;
	(void)cpu;
	if (size == WARM)
		return 0;
	ok = h->size == 0x50 + size && h->desc.level == 4 &&
	     h->desc.keyword == 0x10 && h->activity_id[0] == (__u8)size &&
	     h->activity_id[15] == 0xa5;
	for (j = 0; ok && j < size; j++)
		ok = p[j] == every_byte(size, j);
	if (!ok && !e->bad++)
		e->first_bad = size;
	e->seen++;
	return 0;
}

/*
 * Every payload size from 0 to 600: the words, the tails, "rep movsq"
 * from 64 bytes with its last word ending at the last byte.  Drained by
 * batches, so that no buffer fills; each batch's first event of a buffer
 * takes the full path, the others the lane.
 */
TEST_F(fw, payload_every_size)
{
	static __u8 data[600];
	struct etw_session_info info;
	struct every e = { 0 };
	__u32 size, j;

	warm(self);
	for (size = 0; size <= 600; size++) {
		for (j = 0; j < size; j++)
			data[j] = every_byte(size, j);
		ASSERT_EQ(0, write_inline(self->fd, self->reg, size, 4, 0x10,
					  0, data, size)) TH_LOG("size %u", size);
		if (size % 50 == 49 || size == 600) {
			ASSERT_LE(0, etw_drain(self->fd, self->s, every_check, &e));
			warm(self);
		}
	}
	EXPECT_EQ(601, e.seen);
	EXPECT_EQ(0, e.bad) TH_LOG("first bad size %u", e.first_bad);
	ASSERT_EQ(0, etw_session_ctl(self->fd, self->s, ETW_CONTROL_QUERY, &info));
	EXPECT_EQ(0, info.events_lost);
}

/*
 * EventWriteString's flag; KernelTime and UserTime are the thread's in
 * milliseconds, as the tick accounts them, the same as the next event
 * written by ETW_IOC_WRITE says (within a few ticks: time goes on).
 */
TEST_F(fw, string_flag_and_times)
{
	static const char msg[] = "fast string";
	const struct etw_test_event_header *h, *o;
	volatile __u64 spin = 0;
	struct timespec ts;
	struct recs *r;
	__u64 cpu_ms;

	/* 100 ms of this thread's time, nearly all in user space. */
	do {
		for (int i = 0; i < 100000; i++)
			spin += i;
		clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	} while (ts.tv_sec == 0 && ts.tv_nsec < 100000000);
	warm(self);
	ASSERT_EQ(0, write_inline(self->fd, self->reg, 1, 4, 0, ETW_WRITE_F_STRING,
				  msg, sizeof(msg)));
	ASSERT_EQ(0, etw_write_simple(self->fd, self->reg, 2, 4, 0, msg, sizeof(msg)));
	r = drain(_metadata, self->fd, self->s);
	ASSERT_EQ(2, r->n);
	h = hdr(r, 0);
	o = hdr(r, 1);
	EXPECT_EQ(4, h->flags);			/* STRING_ONLY */
	EXPECT_EQ(0, o->flags);
	EXPECT_EQ(0x50 + sizeof(msg), h->size);
	EXPECT_EQ(0, memcmp(msg, r->rec[0] + 0x50, sizeof(msg)));
	cpu_ms = ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
	EXPECT_LT(0, h->user_time);
	EXPECT_LE((__u64)h->kernel_time + h->user_time, cpu_ms + 40);
	EXPECT_LE(h->kernel_time, o->kernel_time);
	EXPECT_LE(o->kernel_time, h->kernel_time + 12);
	EXPECT_LE(h->user_time, o->user_time);
	EXPECT_LE(o->user_time, h->user_time + 12);
}

/* A second session gets the event too; then only the first again. */
TEST_F(fw, two_sessions)
{
	struct recs *r;
	__u32 b;
	__u64 x = 42;

	ASSERT_EQ(0, etw_session_start_simple(self->fd, "etwtest-fw2", 0, 64, 0, &b));
	ASSERT_EQ(0, etw_enable_simple(self->fd, b, self->guid, 1, 0, 0, 0, 0));
	warm(self);
	ASSERT_EQ(0, write_inline(self->fd, self->reg, 1, 4, 0, 0, &x, 8));
	ASSERT_EQ(0, etw_enable_simple(self->fd, b, self->guid, 0, 0, 0, 0, 0));
	ASSERT_EQ(0, write_inline(self->fd, self->reg, 2, 4, 0, 0, &x, 8));
	EXPECT_EQ(2, drain(_metadata, self->fd, self->s)->n);
	r = drain(_metadata, self->fd, b);
	ASSERT_EQ(1, r->n);
	EXPECT_EQ(1, hdr(r, 0)->desc.id);
	EXPECT_EQ(0, memcmp(&x, r->rec[0] + 0x50, 8));
}

/* A PID filter: another process only, then this one too. */
TEST_F(fw, pid_filter)
{
	struct etw_enable e = { .size = sizeof(e), .control_code = 1 };
	__u64 x = 7;

	e.logger_id = self->s;
	memcpy(e.guid, self->guid, 16);
	e.pids[0] = getpid() + 1;
	e.pid_count = 1;
	warm(self);
	ASSERT_EQ(0, etw_ioctl_err(self->fd, ETW_IOC_ENABLE, &e));
	ASSERT_EQ(0, write_inline(self->fd, self->reg, 1, 4, 0, 0, &x, 8));
	EXPECT_EQ(0, drain(_metadata, self->fd, self->s)->n);
	e.pids[1] = getpid();
	e.pid_count = 2;
	ASSERT_EQ(0, etw_ioctl_err(self->fd, ETW_IOC_ENABLE, &e));
	warm(self);
	ASSERT_EQ(0, write_inline(self->fd, self->reg, 1, 4, 0, 0, &x, 8));
	EXPECT_EQ(1, drain(_metadata, self->fd, self->s)->n);
}

/* An event id filter, excluding and then enabling id 9. */
TEST_F(fw, event_id_filter)
{
	struct etw_enable e = { .size = sizeof(e), .control_code = 1 };
	static const __u16 ids[] = { 9 };
	struct recs *r;

	e.logger_id = self->s;
	memcpy(e.guid, self->guid, 16);
	e.event_ids = (uintptr_t)ids;
	e.event_id_count = 1;
	e.event_ids_enable = 0;
	warm(self);
	ASSERT_EQ(0, etw_ioctl_err(self->fd, ETW_IOC_ENABLE, &e));
	ASSERT_EQ(0, write_inline(self->fd, self->reg, 9, 4, 0, 0, NULL, 0));
	ASSERT_EQ(0, write_inline(self->fd, self->reg, 10, 4, 0, 0, NULL, 0));
	r = drain(_metadata, self->fd, self->s);
	ASSERT_EQ(1, r->n);
	EXPECT_EQ(10, hdr(r, 0)->desc.id);
	e.event_ids_enable = 1;
	ASSERT_EQ(0, etw_enable_simple(self->fd, self->s, self->guid, 1, 0, 0, 0, 0));
	warm(self);
	ASSERT_EQ(0, etw_ioctl_err(self->fd, ETW_IOC_ENABLE, &e));
	ASSERT_EQ(0, write_inline(self->fd, self->reg, 9, 4, 0, 0, NULL, 0));
	ASSERT_EQ(0, write_inline(self->fd, self->reg, 10, 4, 0, 0, NULL, 0));
	r = drain(_metadata, self->fd, self->s);
	ASSERT_EQ(1, r->n);
	EXPECT_EQ(9, hdr(r, 0)->desc.id);
}

/* An event of a level and keyword test, and whether the session keeps it. */
struct lk_event {
	__u8 level;
	__u64 kw;
	int kept;
};

/*
 * The session enabled with level 3, MatchAny 0x30 and MatchAll @all:
 * each of @n events @ev kept or not.
 */
static void level_keyword_case(struct __test_metadata *_metadata,
			       FIXTURE_DATA(fw) *self, __u64 all,
			       const struct lk_event *ev, unsigned int n)
{
	struct recs *r;
	unsigned int i, kept = 0;

	warm(self);
	ASSERT_EQ(0, etw_enable_simple(self->fd, self->s, self->guid, 1, 3,
				       0x30, all, 0));
	for (i = 0; i < n; i++) {
		ASSERT_EQ(0, write_inline(self->fd, self->reg, i, ev[i].level,
					  ev[i].kw, 0, "k", 1));
		kept += ev[i].kept;
	}
	r = drain(_metadata, self->fd, self->s);
	ASSERT_EQ(kept, r->n);
	for (i = 0, kept = 0; i < n; i++)
		if (ev[i].kept)
			EXPECT_EQ(i, hdr(r, kept++)->desc.id);
}

/* The session's level, MatchAnyKeyword and MatchAllKeyword (full path). */
TEST_F(fw, level_and_keywords)
{
	static const struct lk_event ev[] = {
		{ 4, 0x30, 0 },		/* level above the session's 3 */
		{ 3, 0x20, 0 },		/* MatchAll 0x30 not all there */
		{ 3, 0x40, 0 },		/* no MatchAny bit */
		{ 3, 0x30, 1 },
		{ 0, 0x70, 1 },		/* level 0: any level */
		{ 2, 0, 1 },		/* keyword 0: any keyword */
	};

	level_keyword_case(_metadata, self, 0x30, ev, sizeof(ev) / sizeof(ev[0]));
}

/* The lane's own test: MatchAny and no MatchAll. */
TEST_F(fw, level_and_any_keyword)
{
	static const struct lk_event ev[] = {
		{ 4, 0x10, 0 },		/* level above the session's 3 */
		{ 255, 0x10, 0 },
		{ 3, 0x40, 0 },		/* no MatchAny bit */
		{ 3, 0x30, 1 },
		{ 3, 0x20, 1 },		/* one MatchAny bit is enough */
		{ 1, ~0ULL, 1 },
		{ 0, 0x10, 1 },		/* level 0: any level */
		{ 2, 0, 1 },		/* keyword 0: any keyword */
		{ 0, 0, 1 },
	};

	level_keyword_case(_metadata, self, 0, ev, sizeof(ev) / sizeof(ev[0]));
}

/*
 * Enable the session with EnableProperty @props: warmed while the route
 * is a plain one, so that the event under test takes the lane.
 */
static void enable_props(struct __test_metadata *_metadata,
			 FIXTURE_DATA(fw) *self, __u32 props)
{
	ASSERT_EQ(0, etw_enable_simple(self->fd, self->s, self->guid, 1, 0, 0, 0, 0));
	warm(self);
	ASSERT_EQ(0, etw_enable_simple(self->fd, self->s, self->guid, 1, 0, 0, 0,
				       props));
}

/*
 * EnableProperty: IGNORE_KEYWORD_0 and EXCLUDE_INPRIVATE drop events,
 * SID and STACK_TRACE add items, PSM_KEY (no effect) changes nothing.
 */
TEST_F(fw, enable_properties)
{
	/* Event 1 is dropped, event 2 kept. */
	static const struct {
		__u32 props;
		__u64 drop_kw, keep_kw;
		__u32 drop_flags;
	} drops[] = {
		{ ETW_ENABLE_IGNORE_KEYWORD_0, 0, 1, 0 },
		{ ETW_ENABLE_EXCLUDE_INPRIVATE, 0, 0, ETW_WRITE_F_INPRIVATE },
	};
	const struct etw_test_event_header *h;
	__u64 x = 3;
	__u16 t[8];
	struct recs *r;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(drops); i++) {
		enable_props(_metadata, self, drops[i].props);
		ASSERT_EQ(0, write_inline(self->fd, self->reg, 1, 4, drops[i].drop_kw,
					  drops[i].drop_flags, &x, 8));
		ASSERT_EQ(0, write_inline(self->fd, self->reg, 2, 4, drops[i].keep_kw,
					  0, &x, 8));
		r = drain(_metadata, self->fd, self->s);
		ASSERT_EQ(1, r->n) TH_LOG("props %#x", drops[i].props);
		EXPECT_EQ(2, hdr(r, 0)->desc.id);
	}

	enable_props(_metadata, self, ETW_ENABLE_SID | ETW_ENABLE_STACK_TRACE);
	ASSERT_EQ(0, write_inline(self->fd, self->reg, 1, 4, 0, 0, &x, 8));
	r = drain(_metadata, self->fd, self->s);
	ASSERT_EQ(1, r->n);
	h = hdr(r, 0);
	EXPECT_EQ(1, h->flags & 1);		/* EXTENDED_INFO */
	ASSERT_EQ(2, items(h, t, 8));
	EXPECT_EQ(EXT_SID, t[0]);
	EXPECT_EQ(sizeof(long) == 8 ? EXT_STACK64 : EXT_STACK32, t[1]);
	EXPECT_EQ(0, memcmp(&x, (const __u8 *)h + h->size - 8, 8));

	enable_props(_metadata, self, ETW_ENABLE_PSM_KEY);
	ASSERT_EQ(0, write_inline(self->fd, self->reg, 1, 4, 0, 0, &x, 8));
	r = drain(_metadata, self->fd, self->s);
	ASSERT_EQ(1, r->n);
	EXPECT_EQ(0x58, hdr(r, 0)->size);
	EXPECT_EQ(0, hdr(r, 0)->flags);
}

/* Provider traits (EventSetInformation) are an item of every record. */
TEST_F(fw, provider_traits)
{
	const struct etw_test_event_header *h;
	__u16 t[8];
	struct recs *r;

	warm(self);
	ASSERT_EQ(0, etw_set_info(self->fd, self->reg, ETW_INFO_SET_TRAITS, traits,
			      sizeof(traits)));
	ASSERT_EQ(0, write_inline(self->fd, self->reg, 1, 4, 0, 0, "abc", 3));
	r = drain(_metadata, self->fd, self->s);
	ASSERT_EQ(1, r->n);
	h = hdr(r, 0);
	ASSERT_EQ(1, items(h, t, 8));
	EXPECT_EQ(EXT_TRAITS, t[0]);
	EXPECT_EQ(0, memcmp("abc", (const __u8 *)h + h->size - 3, 3));
}

/*
 * ETW_IOC_WRITE on the same one-session route: EventWriteEx's filter
 * bit for the session drops the event, a related activity id is an item.
 */
TEST_F(fw, write_ex_filter_and_related)
{
	struct etw_data_desc d = { .ptr = (uintptr_t)"xyz", .size = 3 };
	struct etw_event_write w = { .size = sizeof(w), .kind = ETW_WRITE_EVENT };
	const struct etw_test_event_header *h;
	__u16 t[8];
	struct recs *r;

	w.reg_id = self->reg;
	w.desc.id = 5;
	w.desc.level = 4;
	w.count = 1;
	w.data = (uintptr_t)&d;
	w.filter = 1ULL << (self->s - 1);
	ASSERT_EQ(0, etw_ioctl_err(self->fd, ETW_IOC_WRITE, &w));
	EXPECT_EQ(0, w.written);
	w.filter = 0;
	w.flags = ETW_WRITE_F_RELATED;
	memset(w.related_id, 0x77, 16);
	ASSERT_EQ(0, etw_ioctl_err(self->fd, ETW_IOC_WRITE, &w));
	EXPECT_EQ(1, w.written);
	r = drain(_metadata, self->fd, self->s);
	ASSERT_EQ(1, r->n);
	h = hdr(r, 0);
	ASSERT_EQ(1, items(h, t, 8));
	EXPECT_EQ(EXT_RELATED, t[0]);
}

/*
 * A payload that faults part-way (the next page unmapped), one that ends
 * at the page's end, and pages not yet resident, on both copies (words up
 * to 256 bytes, the kernel's copy above).
 */
TEST_F(fw, payload_faults_and_residency)
{
	long page = sysconf(_SC_PAGESIZE);
	/* Words; "rep movsq" faulting in its last word; in the tail word. */
	static const __u32 sizes[] = { 5, 13, 64, 67, 300, 600 };
	const unsigned int n = sizeof(sizes) / sizeof(sizes[0]);
	struct etw_session_info info;
	struct recs *r;
	unsigned int i;
	__u8 *map;

	map = mmap(NULL, 2 * page, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_TRUE(map != MAP_FAILED);
	ASSERT_EQ(0, munmap(map + page, page));
	memset(map, 0x3e, page);
	warm(self);
	for (i = 0; i < n; i++) {
		EXPECT_EQ(-EFAULT, write_inline(self->fd, self->reg, 1, 4, 0, 0,
						map + page - sizes[i] + 1, sizes[i]))
			TH_LOG("size %u", sizes[i]);
		EXPECT_EQ(0, write_inline(self->fd, self->reg, 2, 4, 0, 0,
					  map + page - sizes[i], sizes[i]))
			TH_LOG("size %u", sizes[i]);
	}
	/* "rep movsq" faulting half way through. */
	EXPECT_EQ(-EFAULT, write_inline(self->fd, self->reg, 1, 4, 0, 0,
					map + page - 300, 600));
	ASSERT_EQ(0, munmap(map, page));
	for (i = 0; i < n; i++) {
		map = mmap(NULL, page, PROT_READ | PROT_WRITE,
			   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		ASSERT_TRUE(map != MAP_FAILED);
		EXPECT_EQ(0, write_inline(self->fd, self->reg, 3, 4, 0, 0,
					  map + 8, sizes[i]));
		munmap(map, page);
	}
	r = drain(_metadata, self->fd, self->s);
	ASSERT_EQ(2 * n, r->n);
	for (i = 0; i < 2 * n; i++) {
		const struct etw_test_event_header *h = hdr(r, i);
		__u32 size = sizes[i % n], j;
		__u8 want = i < n ? 0x3e : 0;

		EXPECT_EQ(i < n ? 2 : 3, h->desc.id);
		EXPECT_EQ(0x50 + size, h->size);
		for (j = 0; j < size; j++)
			if (r->rec[i][0x50 + j] != want)
				break;
		EXPECT_EQ(size, j);
	}
	ASSERT_EQ(0, etw_session_ctl(self->fd, self->s, ETW_CONTROL_QUERY, &info));
	EXPECT_EQ(0, info.events_lost);
}

/*
 * A request in a page not yet mapped (a file's page, never touched): the
 * lane reads the request with page faults disabled, fails, and the
 * generic path reads it with faults allowed and writes the event.
 */
TEST_F(fw, request_not_resident)
{
	static const char msg[] = "from a file";
	struct etw_event_write_short s = { .size = sizeof(s), .reg_id = self->reg };
	struct recs *r;
	int i, mfd;
	void *map;

	s.desc.id = 4;
	s.desc.level = 4;
	s.flags = ETW_WRITE_F_INLINE;
	s.data = (uintptr_t)msg;
	s.count = sizeof(msg);
	warm(self);
	for (i = 0; i < 2; i++) {
		mfd = memfd_create("etwtest-request", 0);
		ASSERT_LE(0, mfd);
		ASSERT_EQ(sizeof(s), pwrite(mfd, &s, sizeof(s), 0));
		map = mmap(NULL, sysconf(_SC_PAGESIZE), PROT_READ, MAP_SHARED, mfd, 0);
		ASSERT_TRUE(map != MAP_FAILED);
		EXPECT_EQ(0, etw_ioctl_err(self->fd, ETW_IOC_WRITE_SHORT, map));
		munmap(map, sysconf(_SC_PAGESIZE));
		close(mfd);
	}
	r = drain(_metadata, self->fd, self->s);
	ASSERT_EQ(2, r->n);
	for (i = 0; i < 2; i++) {
		EXPECT_EQ(4, hdr(r, i)->desc.id);
		EXPECT_EQ(0x50 + sizeof(msg), hdr(r, i)->size);
		EXPECT_EQ(0, memcmp(msg, r->rec[i] + 0x50, sizeof(msg)));
	}
}

/*
 * @s across two pages, @off bytes of it in the first: each page a memfd's
 * own (two mappings, so that touching one maps nothing of the other),
 * written with pwrite(), not through the mapping: not resident until
 * touched.  @touch: the page (0 or 1) to make resident.
 */
static __u8 *map_across(struct __test_metadata *_metadata,
			const struct etw_event_write_short *s, int off,
			int touch)
{
	long page = sysconf(_SC_PAGESIZE);
	volatile __u8 t;
	__u8 *map;
	int i, mfd;

	map = mmap(NULL, 2 * page, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (map == MAP_FAILED)
		return NULL;
	for (i = 0; i < 2; i++) {
		mfd = memfd_create("etwtest-across", 0);
		EXPECT_LE(0, mfd);
		EXPECT_EQ(0, ftruncate(mfd, page));
		if (i) {
			EXPECT_EQ(sizeof(*s) - off,
				  pwrite(mfd, (const __u8 *)s + off, sizeof(*s) - off, 0));
		} else {
			EXPECT_EQ(off, pwrite(mfd, s, off, page - off));
		}
		EXPECT_TRUE(mmap(map + i * page, page, PROT_READ,
				 MAP_SHARED | MAP_FIXED, mfd, 0) != MAP_FAILED);
		close(mfd);
	}
	t = map[touch * page];
	(void)t;
	return map + page - off;
}

/*
 * A request across a page boundary, at every 8-byte offset and at two
 * odd ones, with one of its pages not resident: the lane reads a word of
 * all ones where a load faults, takes the full path, which reads the
 * request with faults allowed, and the record is the request's.  With
 * the second page not mapped, EFAULT.
 */
TEST_F(fw, request_across_pages)
{
	static const char msg[] = "across";
	static const int offs[] = { 8, 16, 24, 32, 40, 48, 3, 53 };
	const unsigned int n = sizeof(offs) / sizeof(offs[0]);
	long page = sysconf(_SC_PAGESIZE);
	struct etw_event_write_short s = { .size = sizeof(s), .reg_id = self->reg };
	unsigned int i, k;
	struct recs *r;
	__u8 *map;

	s.desc = (struct etw_event_desc){ .version = 2, .level = 4, .task = 9,
		.keyword = 0x10 };
	memset(s.activity_id, 0x77, sizeof(s.activity_id));
	s.flags = ETW_WRITE_F_INLINE;
	s.data = (uintptr_t)msg;
	s.count = sizeof(msg);
	warm(self);
	for (k = 0; k < 2; k++) {
		for (i = 0; i < n; i++) {
			s.desc.id = 10 * k + i;
			/* k 0: the first page resident; 1: the second. */
			map = map_across(_metadata, &s, offs[i], k);
			ASSERT_TRUE(map != NULL);
			EXPECT_EQ(0, etw_ioctl_err(self->fd, ETW_IOC_WRITE_SHORT, map))
				TH_LOG("offset %d, page %u", offs[i], k);
			munmap(map - page + offs[i], 2 * page);
		}
	}
	r = drain(_metadata, self->fd, self->s);
	ASSERT_EQ(2 * n, r->n);
	for (i = 0; i < 2 * n; i++) {
		const struct etw_test_event_header *h = hdr(r, i);

		EXPECT_EQ(10 * (i / n) + i % n, h->desc.id);
		EXPECT_EQ(2, h->desc.version);
		EXPECT_EQ(9, h->desc.task);
		EXPECT_EQ(0x10, h->desc.keyword);
		EXPECT_EQ(0x77, h->activity_id[0]);
		EXPECT_EQ(0x77, h->activity_id[15]);
		EXPECT_EQ(0x50 + sizeof(msg), h->size);
		EXPECT_EQ(0, memcmp(msg, r->rec[i] + 0x50, sizeof(msg)));
	}

	/* The second page not mapped: the request's end faults. */
	map = mmap(NULL, 2 * page, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_TRUE(map != MAP_FAILED);
	ASSERT_EQ(0, munmap(map + page, page));
	for (i = 0; i < n; i++) {
		memcpy(map + page - offs[i], &s, offs[i]);
		EXPECT_EQ(-EFAULT, etw_ioctl_err(self->fd, ETW_IOC_WRITE_SHORT,
						 map + page - offs[i]))
			TH_LOG("offset %d", offs[i]);
	}
	munmap(map, page);
	r = drain(_metadata, self->fd, self->s);
	EXPECT_EQ(0, r->n);
}

/* The descriptor and activity id of write_descs()'s event @id. */
static void descs_event(struct etw_event_desc *desc, __u8 activity_id[16],
			__u16 id)
{
	*desc = (struct etw_event_desc){ .id = id, .version = 3, .channel = 9,
		.level = 4, .opcode = 5, .task = 6, .keyword = 0x11 };
	memset(activity_id, 0x5c, 16);
	activity_id[15] = (__u8)id;
}

/* An event from data descriptors (the short request without INLINE). */
static int write_descs(int fd, __u32 reg, __u16 id, const struct etw_data_desc *d,
		       __u32 count)
{
	struct etw_event_write_short s = { .size = sizeof(s), .reg_id = reg };

	descs_event(&s.desc, s.activity_id, id);
	s.data = (uintptr_t)d;
	s.count = count;
	return etw_ioctl_err(fd, ETW_IOC_WRITE_SHORT, &s);
}

/*
 * Data descriptors: up to sixteen read by the lane, 17 by the full path,
 * empty blocks, a typed one the registration did not opt into (payload
 * all the same), descriptors or blocks that fault, descriptors not
 * resident; and provider traits, which take the full path.
 */
TEST_F(fw, data_descriptors)
{
	static const __u32 counts[] = { 1, 2, 3, 16, 17 };
	struct etw_data_desc d[17], *map;
	static __u8 blocks[17][40];
	__u8 want[17 * 40];
	unsigned int i, j, off;
	__u8 on = 1;
	__u16 t[8];
	struct recs *r;
	int mfd;

	for (i = 0; i < 17; i++) {
		memset(blocks[i], 0x11 * (i + 1), sizeof(blocks[i]));
		d[i] = (struct etw_data_desc){ .ptr = (uintptr_t)blocks[i],
					       .size = (i * 13) % 40 };
	}
	warm(self);
	for (i = 0; i < sizeof(counts) / sizeof(counts[0]); i++)
		ASSERT_EQ(0, write_descs(self->fd, self->reg, counts[i], d, counts[i]));
	d[1].type = 1;				/* not opted in: payload */
	ASSERT_EQ(0, write_descs(self->fd, self->reg, 20, d, 3));
	d[1].type = 0;
	EXPECT_EQ(-EFAULT, write_descs(self->fd, self->reg, 21, (void *)8, 2));
	d[2].ptr = 8;
	EXPECT_EQ(-EFAULT, write_descs(self->fd, self->reg, 22, d, 3));
	d[2].ptr = (uintptr_t)blocks[2];
	mfd = memfd_create("etwtest-descs", 0);
	ASSERT_LE(0, mfd);
	ASSERT_EQ(sizeof(d), pwrite(mfd, d, sizeof(d), 0));
	map = mmap(NULL, sysconf(_SC_PAGESIZE), PROT_READ, MAP_SHARED, mfd, 0);
	ASSERT_TRUE(map != MAP_FAILED);
	ASSERT_EQ(0, write_descs(self->fd, self->reg, 23, map, 3));
	munmap(map, sysconf(_SC_PAGESIZE));
	close(mfd);

	r = drain(_metadata, self->fd, self->s);
	ASSERT_EQ(7, r->n);
	for (i = 0; i < 7; i++) {
		const struct etw_test_event_header *h = hdr(r, i);
		__u32 count = i < 5 ? counts[i] : 3;

		for (j = 0, off = 0; j < count; j++) {
			memcpy(want + off, blocks[j], d[j].size);
			off += d[j].size;
		}
		EXPECT_EQ(i < 5 ? counts[i] : 20 + 3 * (i - 5), h->desc.id);
		EXPECT_EQ(3, h->desc.version);
		EXPECT_EQ(9, h->desc.channel);
		EXPECT_EQ(5, h->desc.opcode);
		EXPECT_EQ(6, h->desc.task);
		EXPECT_EQ(0x11, h->desc.keyword);
		EXPECT_EQ(0x5c, h->activity_id[0]);
		EXPECT_EQ(h->desc.id, h->activity_id[15]);
		EXPECT_EQ(0x50 + off, h->size) TH_LOG("record %u", i);
		EXPECT_EQ(0, h->flags);
		EXPECT_EQ(0, memcmp(want, r->rec[i] + 0x50, off)) TH_LOG("record %u", i);
	}

	/* Opted into descriptor types: the typed block is the schema item. */
	warm(self);
	ASSERT_EQ(0, etw_set_info(self->fd, self->reg, ETW_INFO_USE_DESCRIPTOR_TYPE, &on, 1));
	d[1].type = ETW_DATA_DESC_EVENT_METADATA;
	ASSERT_EQ(0, write_descs(self->fd, self->reg, 24, d, 3));
	d[1].type = 0;
	r = drain(_metadata, self->fd, self->s);
	ASSERT_EQ(1, r->n);
	ASSERT_EQ(1, items(hdr(r, 0), t, 8));
	EXPECT_EQ(0x000B, t[0]);		/* EVENT_SCHEMA_TL */
	EXPECT_EQ(0x50 + 8 + 16 + d[0].size + d[2].size, hdr(r, 0)->size);

	warm(self);
	ASSERT_EQ(0, etw_set_info(self->fd, self->reg, ETW_INFO_SET_TRAITS, traits,
			      sizeof(traits)));
	ASSERT_EQ(0, write_descs(self->fd, self->reg, 30, d, 2));
	r = drain(_metadata, self->fd, self->s);
	ASSERT_EQ(1, r->n);
	EXPECT_EQ(1, hdr(r, 0)->flags & 1);	/* the traits item */
	EXPECT_EQ(0, memcmp(blocks[1], (const __u8 *)hdr(r, 0) + hdr(r, 0)->size -
			    d[1].size, d[1].size));
}

/* write_descs()'s event through ETW_IOC_WRITE: always the full path. */
static int write_descs_full(int fd, __u32 reg, __u16 id,
			    const struct etw_data_desc *d, __u32 count)
{
	struct etw_event_write w = { .size = sizeof(w), .kind = ETW_WRITE_EVENT };

	w.reg_id = reg;
	w.flags = ETW_WRITE_F_ACTIVITY;
	descs_event(&w.desc, w.activity_id, id);
	w.data = (uintptr_t)d;
	w.count = count;
	return etw_ioctl_err(fd, ETW_IOC_WRITE, &w);
}

/* Typed blocks: P provider metadata, E event metadata, N payload, T time. */
#define TL_P	ETW_DATA_DESC_PROVIDER_METADATA
#define TL_E	ETW_DATA_DESC_EVENT_METADATA
#define TL_T	ETW_DATA_DESC_TIMESTAMP_OVERRIDE
#define TL_N	ETW_DATA_DESC_NONE

/* Two records alike but for the times, which each write reads itself. */
static void expect_same_record(struct __test_metadata *_metadata,
			       const struct etw_test_event_header *a,
			       const struct etw_test_event_header *b,
			       bool timestamp)
{
	__u32 n = a->size < 1024 ? a->size : 1024;

	ASSERT_EQ(a->size, b->size);
	EXPECT_EQ(a->header_type, b->header_type);
	EXPECT_EQ(a->flags, b->flags);
	EXPECT_EQ(a->event_property, b->event_property);
	EXPECT_EQ(a->thread_id, b->thread_id);
	EXPECT_EQ(a->process_id, b->process_id);
	if (timestamp)
		EXPECT_EQ(a->timestamp, b->timestamp);
	EXPECT_EQ(0, memcmp(a->provider_id, b->provider_id, 16));
	EXPECT_EQ(0, memcmp(&a->desc, &b->desc, sizeof(a->desc)));
	EXPECT_EQ(0, memcmp(a->activity_id, b->activity_id, 16));
	EXPECT_EQ(0, memcmp((const __u8 *)a + sizeof(*a), (const __u8 *)b + sizeof(*b),
			    n - sizeof(*a)));
}

/*
 * One shape of TraceLogging write, @types[i] the type of descriptor i
 * (its block from @blocks, @sizes[i] bytes), sent as the short request
 * (the lane, or the full path for what the lane leaves) and through
 * ETW_IOC_WRITE: the same result, and when written the same record.
 * Returns the records the two writes add (0 or 2).
 */
static int meta_pair(struct __test_metadata *_metadata, int fd, __u32 reg,
		     __u16 id, const __u8 *types, const __u32 *sizes, __u32 count)
{
	static __u8 blocks[20][4200];
	static __u64 stamp = 0x1234;
	struct etw_data_desc d[20];
	int a, b;
	__u32 i;

	for (i = 0; i < count; i++) {
		memset(blocks[i], 0x31 + i * 7 + id, sizeof(blocks[i]));
		d[i] = (struct etw_data_desc){ .ptr = (uintptr_t)blocks[i],
					       .size = sizes[i], .type = types[i] };
		if (types[i] == TL_T)
			d[i].ptr = (uintptr_t)&stamp;
		if (sizes[i] == 1 << 30)	/* an address that faults */
			d[i] = (struct etw_data_desc){ .ptr = 8, .size = 4,
						       .type = types[i] };
	}
	a = write_descs(fd, reg, id, d, count);
	b = write_descs_full(fd, reg, id, d, count);
	EXPECT_EQ(a, b) TH_LOG("event %u", id);
	return a ? 0 : 2;
}

static void meta_check(struct __test_metadata *_metadata, int fd, __u32 reg,
		       __u32 warm_reg, __u32 s)
{
	/* Each shape: its count, types and block sizes. */
	static const struct {
		__u32 count;
		__u8 types[20];
		__u32 sizes[20];
	} shapes[] = {
		/* TraceLoggingWrite's; the registration's traits; ... */
		{ 4, { TL_P, TL_E, TL_N, TL_N }, { 24, 23, 4, 17 } },
		{ 2, { TL_E, TL_N }, { 23, 4 } },
		{ 1, { TL_N }, { 9 } },
		{ 1, { TL_P }, { 5 } },
		{ 0 },
		{ 5, { TL_N, TL_P, TL_N, TL_E, TL_N }, { 3, 24, 0, 23, 8 } },
		{ 2, { TL_E, TL_P }, { 0, 0 } },
		{ 16, { TL_P, TL_E }, { 24, 23, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14 } },
		{ 17, { TL_P, TL_E }, { 24, 23, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15 } },
		{ 3, { TL_T, TL_E, TL_N }, { 8, 23, 4 } },
		{ 3, { TL_E, TL_E, TL_N }, { 23, 23, 4 } },
		{ 2, { TL_P, TL_P }, { 24, 24 } },
		{ 2, { 7, TL_N }, { 24, 4 } },
		{ 3, { TL_P, TL_E, TL_N }, { 24, 23, 4097 } },
		{ 3, { TL_P, TL_E, TL_N }, { 4096, 23, 4 } },
		{ 3, { TL_P, TL_E, TL_N }, { 1 << 30, 23, 4 } },
		{ 3, { TL_P, TL_E, TL_N }, { 24, 1 << 30, 4 } },
		{ 3, { TL_P, TL_E, TL_N }, { 24, 23, 1 << 30 } },
		{ 3, { TL_P, TL_E, TL_N }, { 65535 - 80 - 16 - 7, 0, 0 } },
		{ 3, { TL_P, TL_E, TL_N }, { 65535 - 80 - 16 - 8 - 8, 0, 1 } },
	};
	const unsigned int n = sizeof(shapes) / sizeof(shapes[0]);
	__u32 sizes[20];
	unsigned int round, base, i, k;
	__u16 t[8];
	struct recs *r;
	int want;

	/* Three rounds: the later ones write into reused buffers. */
	for (round = 0; round < 3; round++) {
		ASSERT_EQ(0, write_inline(fd, warm_reg, WARM, 1, 0, 0, "w", 1));
		want = 0;
		for (i = 0; i < n; i++)
			want += meta_pair(_metadata, fd, reg, 100 + i,
					  shapes[i].types, shapes[i].sizes,
					  shapes[i].count);
		r = drain(_metadata, fd, s);
		ASSERT_EQ(want, r->n);
		for (i = 0; i + 1 < (unsigned int)r->n && i < 64; i += 2) {
			const struct etw_test_event_header *h = hdr(r, i);
			__u16 id = h->desc.id;

			/* The override's timestamp is the record's. */
			expect_same_record(_metadata, h, hdr(r, i + 1),
					   shapes[id - 100].types[0] == TL_T);
			/* Whole records only: keep() copies 1024 bytes. */
			if (h->size <= 1024)
				EXPECT_LE(0, items(h, t, 8)) TH_LOG("event %u", id);
		}
		/*
		 * Every padding of the metadata blocks and every short copy's
		 * size (0 to 36 bytes), in two drains of 18 pairs.
		 */
		for (base = 0; base < 36; base += 18) {
			ASSERT_EQ(0, write_inline(fd, warm_reg, WARM, 1, 0, 0, "w", 1));
			want = 0;
			for (k = base; k < base + 18; k++) {
				static const __u8 types[4] = { TL_P, TL_E, TL_N, TL_N };

				sizes[0] = k;
				sizes[1] = (k * 5) % 37;
				sizes[2] = (k * 3) % 11;
				sizes[3] = k;
				want += meta_pair(_metadata, fd, reg, 200 + k, types,
						  sizes, 4);
			}
			r = drain(_metadata, fd, s);
			ASSERT_EQ(want, r->n);
			for (i = 0; i + 1 < (unsigned int)r->n; i += 2) {
				const struct etw_test_event_header *h = hdr(r, i);

				expect_same_record(_metadata, h, hdr(r, i + 1), false);
				ASSERT_EQ(2, items(h, t, 8)) TH_LOG("event %u", h->desc.id);
				EXPECT_EQ(EXT_TRAITS, t[0]);
				EXPECT_EQ(0x000B, t[1]);
			}
		}
	}
}

/*
 * TraceLogging's writes (etw_write_fast_meta()): for a registration with
 * traits, and for one that only asked for descriptor types, every shape
 * of typed blocks the lane takes or leaves gives the record and result
 * ETW_IOC_WRITE gives.  Three rounds: the later ones write into reused
 * buffers, whose bytes are not zero, so an item's padding is checked.
 */
TEST_F(fw, tracelogging_metadata)
{
	__u8 guid2[16];
	__u32 reg2;
	__u8 on = 1;

	warm(self);
	ASSERT_EQ(0, etw_set_info(self->fd, self->reg, ETW_INFO_SET_TRAITS, traits,
				  sizeof(traits)));
	meta_check(_metadata, self->fd, self->reg, self->reg, self->s);

	etw_test_guid(guid2, 0x3d);
	ASSERT_EQ(0, etw_register_simple(self->fd, guid2, &reg2));
	ASSERT_EQ(0, etw_enable_simple(self->fd, self->s, guid2, 1, 0, 0, 0, 0));
	ASSERT_EQ(0, etw_set_info(self->fd, reg2, ETW_INFO_USE_DESCRIPTOR_TYPE, &on, 1));
	meta_check(_metadata, self->fd, reg2, self->reg, self->s);
}

/*
 * A full session: each write is stored (0) or lost (ENOSPC); the records
 * are exactly the stored ones and EventsLost exactly the others.
 */
TEST_F(fw, full_buffers_lose_exactly)
{
	struct etw_session_info info;
	__u32 small, i, stored = 0, lost = 0;
	__u64 payload[25];

	/* The fixture pinned this thread: the small session's one buffer fills. */
	ASSERT_EQ(0, etw_enable_simple(self->fd, self->s, self->guid, 0, 0, 0, 0, 0));
	ASSERT_EQ(0, etw_session_start_simple(self->fd, "etwtest-fw-small", 0, 1, 1, &small));
	ASSERT_EQ(0, etw_enable_simple(self->fd, small, self->guid, 1, 0, 0, 0, 0));
	for (i = 0; i < 400; i++) {
		int ret;

		payload[0] = i;
		ret = write_inline(self->fd, self->reg, 1, 4, 0, 0, payload,
				   sizeof(payload));
		ASSERT_TRUE(ret == 0 || ret == -ENOSPC) TH_LOG("write %u: %d", i, ret);
		if (ret)
			lost++;
		else
			stored++;
	}
	ASSERT_LT(0, lost);
	ASSERT_EQ(0, etw_session_ctl(self->fd, small, ETW_CONTROL_QUERY, &info));
	EXPECT_EQ(lost, info.events_lost);
	EXPECT_EQ(stored, etw_drain(self->fd, small, NULL, NULL));
}

/* A thread writing id 1 and id 2 events until told to stop. */
struct racer {
	int fd;
	__u32 reg;
	volatile int stop;
	volatile int writes;
	int lost;	/* ENOSPC: a session lost it */
	int errors;	/* anything else */
};

static void *race_writer(void *arg)
{
	struct racer *w = arg;
	__u64 payload[4];
	int i;

	/* Beside the thread that changes the enables, if there are two CPUs. */
	etw_pin_cpu(1);
	for (i = 0; !w->stop && i < 20000; i++, w->writes = i) {
		payload[0] = i;
		payload[1] = 1 + (i & 1);
		payload[2] = ~(__u64)i;
		payload[3] = 0x1234;
		switch (write_inline(w->fd, w->reg, 1 + (i & 1), 4, 0, 0,
				     payload, sizeof(payload))) {
		case 0:
			break;
		case -ENOSPC:
			w->lost++;
			break;
		default:
			w->errors++;
		}
	}
	return NULL;
}

struct race_check {
	int bad;
	int id2;
	int n;
};

static int race_fn(const struct etw_test_event_header *h, const __u8 *buffer,
		   __u32 cpu, void *ctx)
{
	struct race_check *c = ctx;
	struct etw_test_ext x[8];
	__u32 off;
	__u64 p[4];

	c->n++;
	if (etw_test_ext_items(h, x, 8, &off) < 0 || h->size != off + 32) {
		c->bad++;
		return 0;
	}
	memcpy(p, (const __u8 *)h + off, 32);
	if (p[1] != h->desc.id || p[2] != ~p[0] || p[3] != 0x1234)
		c->bad++;
	c->id2 += h->desc.id == 2;
	return 0;
}

/*
 * While the thread writes, the route changes between one session (the
 * fast lane), two (the second excludes id 2), and one with the stack
 * item: every write is stored or counted lost (ENOSPC), every record is
 * whole, the second session never holds an id 2 event.
 */
TEST_F(fw, enables_change_during_writes)
{
	struct etw_enable e = { .size = sizeof(e), .control_code = 1 };
	static const __u16 ids[] = { 2 };
	struct racer w = { .fd = self->fd, .reg = self->reg };
	struct race_check a = { 0 }, b = { 0 };
	struct etw_session_info ia, ib;
	pthread_t t;
	__u32 second;
	int round;

	ASSERT_EQ(0, etw_session_ctl(self->fd, self->s, ETW_CONTROL_STOP, NULL));
	ASSERT_EQ(0, etw_session_start_simple(self->fd, "etwtest-fw-a", 0, 64, 200, &self->s));
	ASSERT_EQ(0, etw_enable_simple(self->fd, self->s, self->guid, 1, 0, 0, 0, 0));
	ASSERT_EQ(0, etw_session_start_simple(self->fd, "etwtest-fw-b", 0, 64, 200, &second));
	e.logger_id = second;
	memcpy(e.guid, self->guid, 16);
	e.event_ids = (uintptr_t)ids;
	e.event_id_count = 1;
	ASSERT_EQ(0, pthread_create(&t, NULL, race_writer, &w));
	/* At least 200 changes, and 2000 writes while they happen. */
	for (round = 0; round < 200 || (w.writes < 2000 && round < 1000000); round++) {
		switch (round % 4) {
		case 0:
			e.control_code = 1;
			EXPECT_EQ(0, etw_ioctl_err(self->fd, ETW_IOC_ENABLE, &e));
			break;
		case 1:
			e.control_code = 0;
			EXPECT_EQ(0, etw_ioctl_err(self->fd, ETW_IOC_ENABLE, &e));
			break;
		case 2:
			EXPECT_EQ(0, etw_enable_simple(self->fd, self->s, self->guid, 1,
						       0, 0, 0, ETW_ENABLE_STACK_TRACE));
			break;
		default:
			EXPECT_EQ(0, etw_enable_simple(self->fd, self->s, self->guid, 1,
						       0, 0, 0, 0));
			break;
		}
	}
	w.stop = 1;
	ASSERT_EQ(0, pthread_join(t, NULL));
	EXPECT_EQ(0, w.errors);
	EXPECT_LT(0, w.writes);
	EXPECT_LE(0, etw_drain(self->fd, self->s, race_fn, &a));
	EXPECT_LE(0, etw_drain(self->fd, second, race_fn, &b));
	/* The pool grows behind the writer: what it lost is counted. */
	ASSERT_EQ(0, etw_session_ctl(self->fd, self->s, ETW_CONTROL_QUERY, &ia));
	ASSERT_EQ(0, etw_session_ctl(self->fd, second, ETW_CONTROL_QUERY, &ib));
	EXPECT_EQ(w.writes, a.n + ia.events_lost);
	EXPECT_LE(ia.events_lost, w.lost);
	EXPECT_LE(w.lost, ia.events_lost + ib.events_lost);
	EXPECT_EQ(0, a.bad);
	EXPECT_EQ(0, b.bad);
	EXPECT_EQ(0, b.id2);
}

/*
 * Sessions started, enabled and stopped while the thread writes: the
 * lane finds the route and buffers of a session that is going away or
 * gone under the same RCU rules as the full path.  Every write is stored
 * or counted lost, or finds no session (0); nothing else.
 */
TEST_F(fw, sessions_stop_during_writes)
{
	struct racer w = { .fd = self->fd, .reg = self->reg };
	struct etw_session_info info;
	pthread_t t;
	__u32 id;
	int round;

	/* The session started each round is the route's only one. */
	ASSERT_EQ(0, etw_enable_simple(self->fd, self->s, self->guid, 0, 0, 0, 0, 0));
	ASSERT_EQ(0, pthread_create(&t, NULL, race_writer, &w));
	for (round = 0; round < 30 || (w.writes < 2000 && round < 100000); round++) {
		ASSERT_EQ(0, etw_session_start_simple(self->fd, "etwtest-fw-stop", 0,
						      round % 2 ? 4 : 64, 0, &id));
		ASSERT_EQ(0, etw_enable_simple(self->fd, id, self->guid, 1, 0, 0, 0, 0));
		usleep(1000);
		ASSERT_EQ(0, etw_session_ctl(self->fd, id, ETW_CONTROL_STOP, &info));
	}
	w.stop = 1;
	ASSERT_EQ(0, pthread_join(t, NULL));
	EXPECT_EQ(0, w.errors);
	EXPECT_LT(0, w.writes);
}

TEST_HARNESS_MAIN
