// SPDX-License-Identifier: GPL-2.0
/*
 * Enabling providers: the per-session filters of seed 003 (level, keywords,
 * IGNORE_KEYWORD_0, event ids, pids), routing to two and three sessions,
 * the 8-session limit, enabling before registration, and what a provider
 * sees: its enable-state page and its notifications (seed 000).
 */
#include <poll.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/wait.h>

#include "kselftest_harness.h"
#include "etw_selftests.h"

FIXTURE(en)
{
	int fd;
	__u8 guid[16];
	__u32 reg;
	__u32 s[3];
};

FIXTURE_SETUP(en)
{
	char name[32];
	int i;

	etw_require_root(_metadata);
	self->fd = etw_open_or_skip(_metadata);
	etw_stop_test_sessions(self->fd);
	etw_test_guid(self->guid, 0x10);
	ASSERT_EQ(0, etw_register_simple(self->fd, self->guid, &self->reg));
	for (i = 0; i < 3; i++) {
		snprintf(name, sizeof(name), "etwtest-en%d", i);
		ASSERT_EQ(0, etw_session_start_simple(self->fd, name, 0, 64, 0,
						      &self->s[i]));
	}
}

FIXTURE_TEARDOWN(en)
{
	if (self->fd >= 0) {
		etw_stop_test_sessions(self->fd);
		close(self->fd);
	}
}

/* Events 0..N with the given level/keyword pairs; returns how many. */
struct ev { __u16 id; __u8 level; __u64 kw; };

static const struct ev events[] = {
	{ 1, 0, 0 },		/* level 0, keyword 0: passes level and keywords */
	{ 2, 1, 0 },
	{ 3, 3, 0 },
	{ 4, 4, 0 },
	{ 5, 5, 0 },
	{ 6, 2, 0x1 },
	{ 7, 2, 0x2 },
	{ 8, 2, 0x3 },
	{ 9, 2, 0x4 },
	{ 10, 6, 0x1 },
	{ 11, 0, 0x8 },
};

#define N_EVENTS (sizeof(events) / sizeof(events[0]))

static void write_all(struct __test_metadata *_metadata, int fd, __u32 reg)
{
	unsigned int i;

	for (i = 0; i < N_EVENTS; i++)
		ASSERT_EQ(0, etw_write_simple(fd, reg, events[i].id, events[i].level,
					      events[i].kw, "payload", 7));
}

/* Seed 003's rule, computed independently of the kernel. */
static int expected(const struct ev *e, __u8 level, __u64 any, __u64 all,
		    __u32 property)
{
	__u8 lv = level ? level : 255;

	if (!any) {
		any = ~0ULL;
		all = 0;
	}
	if (e->level && e->level > lv)
		return 0;
	if (!e->kw)
		return !(property & ETW_ENABLE_IGNORE_KEYWORD_0);
	return (e->kw & any) && (e->kw & all) == all;
}

struct filter { __u8 level; __u64 any, all; __u32 prop; };

static const struct filter filters[] = {
	{ 0, 0, 0, 0 },			/* everything */
	{ 3, 0, 0, 0 },			/* level <= 3 */
	{ 5, 0x1, 0, 0 },		/* any 0x1 */
	{ 5, 0x3, 0x3, 0 },		/* all of 0x3 */
	{ 5, 0x6, 0x2, 0 },		/* any 0x6, all 0x2 */
	{ 5, 0, 0x2, 0 },		/* any 0 = all, all ignored */
	{ 5, 0xff, 0, ETW_ENABLE_IGNORE_KEYWORD_0 },
	{ 1, 0x4, 0, 0 },
};

TEST_F(en, level_and_keyword_rules)
{
	unsigned int f, i;
	struct etw_counts c;

	for (f = 0; f < sizeof(filters) / sizeof(filters[0]); f++) {
		const struct filter *fl = &filters[f];
		long want = 0;

		ASSERT_EQ(0, etw_enable_simple(self->fd, self->s[0], self->guid, 1,
					       fl->level, fl->any, fl->all, fl->prop));
		write_all(_metadata, self->fd, self->reg);
		ASSERT_LE(0, etw_count(self->fd, self->s[0], self->guid, &c));
		for (i = 0; i < N_EVENTS; i++) {
			int e = expected(&events[i], fl->level, fl->any, fl->all, fl->prop);

			EXPECT_EQ(e, c.by_id[events[i].id])
				TH_LOG("filter %u event %u", f, events[i].id);
			want += e;
		}
		EXPECT_EQ(want, c.total) TH_LOG("filter %u", f);
	}
}

/* Three sessions, three filters: each gets exactly its own events. */
TEST_F(en, three_sessions)
{
	static const struct filter three[3] = {
		{ 2, 0, 0, 0 }, { 5, 0x1, 0, 0 }, { 5, 0x2, 0, ETW_ENABLE_IGNORE_KEYWORD_0 },
	};
	struct etw_counts c;
	unsigned int s, i;

	for (s = 0; s < 3; s++)
		ASSERT_EQ(0, etw_enable_simple(self->fd, self->s[s], self->guid, 1,
					       three[s].level, three[s].any,
					       three[s].all, three[s].prop));
	write_all(_metadata, self->fd, self->reg);
	for (s = 0; s < 3; s++) {
		long want = 0;

		ASSERT_LE(0, etw_count(self->fd, self->s[s], self->guid, &c));
		for (i = 0; i < N_EVENTS; i++)
			want += expected(&events[i], three[s].level, three[s].any,
					 three[s].all, three[s].prop);
		EXPECT_EQ(want, c.total) TH_LOG("session %u", s);
	}

	/* Disabling one leaves the others as they were. */
	ASSERT_EQ(0, etw_enable_simple(self->fd, self->s[1], self->guid, 0, 0, 0, 0, 0));
	write_all(_metadata, self->fd, self->reg);
	ASSERT_LE(0, etw_count(self->fd, self->s[1], self->guid, &c));
	EXPECT_EQ(0, c.total);
	ASSERT_LE(0, etw_count(self->fd, self->s[0], self->guid, &c));
	{
		long want = 0;

		for (i = 0; i < N_EVENTS; i++)
			want += expected(&events[i], three[0].level, three[0].any,
					 three[0].all, three[0].prop);
		EXPECT_EQ(want, c.total);
	}
}

TEST_F(en, event_id_and_pid_filters)
{
	struct etw_enable e = { .size = sizeof(e) };
	__u16 ids[2] = { 3, 7 };
	struct etw_counts c;

	e.logger_id = self->s[0];
	e.control_code = 1;
	memcpy(e.guid, self->guid, 16);
	e.event_id_count = 2;
	e.event_ids = (uintptr_t)ids;
	e.event_ids_enable = 1;
	ASSERT_EQ(0, etw_ioctl_err(self->fd, ETW_IOC_ENABLE, &e));
	write_all(_metadata, self->fd, self->reg);
	ASSERT_LE(0, etw_count(self->fd, self->s[0], self->guid, &c));
	EXPECT_EQ(2, c.total);
	EXPECT_EQ(1, c.by_id[3]);
	EXPECT_EQ(1, c.by_id[7]);

	/* Exclusion: everything but 3 and 7. */
	e.event_ids_enable = 0;
	ASSERT_EQ(0, etw_ioctl_err(self->fd, ETW_IOC_ENABLE, &e));
	write_all(_metadata, self->fd, self->reg);
	ASSERT_LE(0, etw_count(self->fd, self->s[0], self->guid, &c));
	EXPECT_EQ(N_EVENTS - 2, c.total);
	EXPECT_EQ(0, c.by_id[3]);

	/* PID filter: another process's pid only; ours is filtered out. */
	e.event_id_count = 0;
	e.pid_count = 1;
	e.pids[0] = getpid() + 1;
	ASSERT_EQ(0, etw_ioctl_err(self->fd, ETW_IOC_ENABLE, &e));
	write_all(_metadata, self->fd, self->reg);
	ASSERT_LE(0, etw_count(self->fd, self->s[0], self->guid, &c));
	EXPECT_EQ(0, c.total);
	e.pids[1] = getpid();
	e.pid_count = 2;
	ASSERT_EQ(0, etw_ioctl_err(self->fd, ETW_IOC_ENABLE, &e));
	write_all(_metadata, self->fd, self->reg);
	ASSERT_LE(0, etw_count(self->fd, self->s[0], self->guid, &c));
	EXPECT_EQ(N_EVENTS, c.total);

	/* Out of range. */
	e.pid_count = ETW_MAX_FILTER_PIDS + 1;
	EXPECT_EQ(-EINVAL, etw_ioctl_err(self->fd, ETW_IOC_ENABLE, &e));
	e.pid_count = 0;
	e.event_id_count = ETW_MAX_FILTER_EVENT_IDS + 1;
	EXPECT_EQ(-EINVAL, etw_ioctl_err(self->fd, ETW_IOC_ENABLE, &e));
	e.event_id_count = 1;
	e.event_ids = 1;
	EXPECT_EQ(-EFAULT, etw_ioctl_err(self->fd, ETW_IOC_ENABLE, &e));
	e.event_ids = (uintptr_t)ids;
	e.control_code = 3;
	EXPECT_EQ(-EINVAL, etw_ioctl_err(self->fd, ETW_IOC_ENABLE, &e));
	e.control_code = 1;
	e.logger_id = 0;
	EXPECT_EQ(-ENOENT, etw_ioctl_err(self->fd, ETW_IOC_ENABLE, &e));
}

TEST_F(en, at_most_8_sessions_per_provider)
{
	__u32 ids[9];
	char name[32];
	int i;

	for (i = 0; i < 9; i++) {
		snprintf(name, sizeof(name), "etwtest-p8-%d", i);
		ASSERT_EQ(0, etw_session_start_simple(self->fd, name, 0, 4, 0, &ids[i]));
	}
	for (i = 0; i < 8; i++)
		ASSERT_EQ(0, etw_enable_simple(self->fd, ids[i], self->guid, 1, 5, 0, 0, 0));
	EXPECT_EQ(-ENOSPC, etw_enable_simple(self->fd, ids[8], self->guid, 1, 5, 0, 0, 0));
	/* Re-enabling one of the 8 only updates it. */
	EXPECT_EQ(0, etw_enable_simple(self->fd, ids[3], self->guid, 1, 2, 0, 0, 0));
	/* After one disables, the 9th fits. */
	ASSERT_EQ(0, etw_enable_simple(self->fd, ids[0], self->guid, 0, 0, 0, 0, 0));
	EXPECT_EQ(0, etw_enable_simple(self->fd, ids[8], self->guid, 1, 5, 0, 0, 0));
	/* Stopping a session frees its place too. */
	ASSERT_EQ(0, etw_session_ctl(self->fd, ids[1], ETW_CONTROL_STOP, NULL));
	EXPECT_EQ(0, etw_enable_simple(self->fd, ids[0], self->guid, 1, 5, 0, 0, 0));
}

static const struct etw_reg_state *map_state(struct __test_metadata *_metadata,
					     int fd)
{
	void *p = mmap(NULL, ETW_MMAP_STATE_SIZE, PROT_READ, MAP_SHARED, fd, 0);

	ASSERT_TRUE(p != MAP_FAILED);
	return p;
}

/*
 * match_any_at against the rest of the slot (the uapi's rule, computed
 * here): for level L < 8, MatchAny where the level passes (L == 0 or L <=
 * level), else 0.  A disabled slot is all zeros.
 */
static void expect_masks(struct __test_metadata *_metadata,
			 const struct etw_reg_state *me)
{
	unsigned int l;

	if (!me->enabled) {
		EXPECT_EQ(0, me->level);
		EXPECT_EQ(0, me->match_any);
		EXPECT_EQ(0, me->match_all);
	}
	for (l = 0; l < ETW_REG_STATE_LEVELS; l++)
		EXPECT_EQ(me->enabled && (!l || l <= me->level) ?
			  me->match_any : 0, me->match_any_at[l])
			TH_LOG("level %u", l);
}

static int read_notification(int fd, struct etw_notification *n)
{
	struct pollfd pfd = { .fd = fd, .events = POLLIN };

	if (poll(&pfd, 1, 0) != 1)
		return -EAGAIN;
	return read(fd, n, sizeof(*n)) == sizeof(*n) ? 0 : -errno;
}

TEST_F(en, state_page_and_notifications)
{
	const struct etw_reg_state *st = map_state(_metadata, self->fd);
	const struct etw_reg_state *me;
	struct etw_notification n;
	struct etw_provider_register r = { .size = sizeof(r) };
	__u8 src[16];

	memcpy(r.guid, self->guid, 16);
	ASSERT_EQ(0, etw_ioctl_err(self->fd, ETW_IOC_PROVIDER_REGISTER, &r));
	/* The slots' stride, and the mapping it makes, are the header's. */
	EXPECT_EQ(ETW_REG_STATE_SIZE, r.state_size);
	EXPECT_EQ(ETW_REG_STATE_SIZE, sizeof(struct etw_reg_state));
	me = &st[r.state_index];
	EXPECT_EQ(0, me->enabled);
	expect_masks(_metadata, me);
	EXPECT_EQ(-EAGAIN, read_notification(self->fd, &n));

	/* Session 0: level 3, any 0x5, all 0x1, with a SourceId. */
	{
		struct etw_enable e = { .size = sizeof(e) };

		e.logger_id = self->s[0];
		e.control_code = 1;
		memcpy(e.guid, self->guid, 16);
		memset(src, 0xab, 16);
		memcpy(e.source_id, src, 16);
		e.level = 3;
		e.match_any = 0x5;
		e.match_all = 0x1;
		ASSERT_EQ(0, etw_ioctl_err(self->fd, ETW_IOC_ENABLE, &e));
	}
	EXPECT_EQ(1, me->enabled);
	EXPECT_EQ(3, me->level);
	EXPECT_EQ(0x5, me->match_any);
	EXPECT_EQ(0x1, me->match_all);
	EXPECT_EQ(0, me->seq % 2);
	EXPECT_EQ(0, me->match_any_at[4]);
	EXPECT_EQ(0x5, me->match_any_at[3]);
	expect_masks(_metadata, me);

	/* Both registrations of this file are told, with the SourceId. */
	ASSERT_EQ(0, read_notification(self->fd, &n));
	EXPECT_EQ(sizeof(n), n.size);
	EXPECT_EQ(self->reg, n.reg_id);
	ASSERT_EQ(0, read_notification(self->fd, &n));
	EXPECT_EQ(r.reg_id, n.reg_id);
	EXPECT_EQ(1, n.control_code);
	EXPECT_EQ(3, n.level);
	EXPECT_EQ(0x5, n.match_any);
	EXPECT_EQ(0x1, n.match_all);
	EXPECT_EQ(0, memcmp(src, n.source_id, 16));
	EXPECT_EQ(self->s[0], n.logger_id);
	EXPECT_EQ(-EAGAIN, read_notification(self->fd, &n));

	/* Session 1: level 5, any 0x2, all 0x2: max, OR, AND. */
	ASSERT_EQ(0, etw_enable_simple(self->fd, self->s[1], self->guid, 1, 5, 0x2, 0x2, 0));
	EXPECT_EQ(5, me->level);
	EXPECT_EQ(0x7, me->match_any);
	EXPECT_EQ(0x0, me->match_all);
	EXPECT_EQ(0x7, me->match_any_at[4]);
	EXPECT_EQ(0, me->match_any_at[6]);
	expect_masks(_metadata, me);
	ASSERT_EQ(0, read_notification(self->fd, &n));
	ASSERT_EQ(0, read_notification(self->fd, &n));
	EXPECT_EQ(1, n.control_code);
	EXPECT_EQ(5, n.level);

	/* Session 0 disables: still enabled by session 1, IsEnabled = 1. */
	ASSERT_EQ(0, etw_enable_simple(self->fd, self->s[0], self->guid, 0, 0, 0, 0, 0));
	ASSERT_EQ(0, read_notification(self->fd, &n));
	ASSERT_EQ(0, read_notification(self->fd, &n));
	EXPECT_EQ(1, n.control_code);
	EXPECT_EQ(5, n.level);
	EXPECT_EQ(0x2, n.match_any);
	EXPECT_EQ(0x2, n.match_all);
	EXPECT_EQ(1, me->enabled);

	/* Capture state: code 2, the state unchanged. */
	ASSERT_EQ(0, etw_enable_simple(self->fd, self->s[1], self->guid, 2, 0, 0, 0, 0));
	ASSERT_EQ(0, read_notification(self->fd, &n));
	ASSERT_EQ(0, read_notification(self->fd, &n));
	EXPECT_EQ(2, n.control_code);
	EXPECT_EQ(1, me->enabled);
	EXPECT_EQ(5, me->level);

	/* The last session stops: IsEnabled = 0, the page says disabled. */
	ASSERT_EQ(0, etw_session_ctl(self->fd, self->s[1], ETW_CONTROL_STOP, NULL));
	ASSERT_EQ(0, read_notification(self->fd, &n));
	ASSERT_EQ(0, read_notification(self->fd, &n));
	EXPECT_EQ(0, n.control_code);
	EXPECT_EQ(0, me->enabled);
	expect_masks(_metadata, me);
	EXPECT_EQ(-EAGAIN, read_notification(self->fd, &n));

	/* The page is read-only and cannot be made writable. */
	EXPECT_EQ(-1, mprotect((void *)st, ETW_MMAP_STATE_SIZE, PROT_READ | PROT_WRITE));
	EXPECT_TRUE(mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, self->fd, 0) ==
		    MAP_FAILED);
	EXPECT_TRUE(mmap(NULL, 4096, PROT_READ, MAP_SHARED, self->fd, 1 << 20) ==
		    MAP_FAILED);
	/* The 1024 slots and no more. */
	EXPECT_TRUE(mmap(NULL, ETW_MMAP_STATE_SIZE + 4096, PROT_READ, MAP_SHARED,
			 self->fd, 0) == MAP_FAILED);
	munmap((void *)st, ETW_MMAP_STATE_SIZE);
}

/* Enabled before anyone registered: the registration starts enabled. */
TEST_F(en, pre_enable)
{
	const struct etw_reg_state *st = map_state(_metadata, self->fd);
	struct etw_notification n;
	static const __u8 zero[16];
	__u8 guid[16];
	__u32 reg;
	struct etw_counts c;

	etw_test_guid(guid, 0x11);
	ASSERT_EQ(0, etw_enable_simple(self->fd, self->s[2], guid, 1, 4, 0xf0, 0, 0));
	ASSERT_EQ(0, etw_register_simple(self->fd, guid, &reg));
	EXPECT_EQ(1, st[reg - 1].enabled);
	EXPECT_EQ(4, st[reg - 1].level);
	ASSERT_EQ(0, read_notification(self->fd, &n));
	EXPECT_EQ(reg, n.reg_id);
	EXPECT_EQ(1, n.control_code);
	EXPECT_EQ(0, memcmp(zero, n.source_id, 16));
	EXPECT_EQ(4, n.level);
	EXPECT_EQ(0xf0, n.match_any);

	ASSERT_EQ(0, etw_write_simple(self->fd, reg, 1, 4, 0x10, NULL, 0));
	ASSERT_LE(0, etw_count(self->fd, self->s[2], guid, &c));
	EXPECT_EQ(1, c.total);
	munmap((void *)st, ETW_MMAP_STATE_SIZE);
}

/* Many processes, one GUID; a process that dies takes its registration. */
TEST_F(en, many_processes_and_death)
{
	struct etw_counts c;
	int i, status;
	pid_t pid;

	ASSERT_EQ(0, etw_enable_simple(self->fd, self->s[0], self->guid, 1, 5, 0, 0, 0));
	for (i = 0; i < 4; i++) {
		pid = fork();
		ASSERT_LE(0, pid);
		if (!pid) {
			int fd = open(ETW_DEV, O_RDWR);
			__u32 reg;
			int k;

			if (fd < 0 || etw_register_simple(fd, self->guid, &reg))
				_exit(1);
			for (k = 0; k < 10; k++)
				if (etw_write_simple(fd, reg, 20 + i, 4, 0, &k, sizeof(k)))
					_exit(2);
			/* Exit without unregistering or closing. */
			_exit(0);
		}
		ASSERT_EQ(pid, waitpid(pid, &status, 0));
		EXPECT_EQ(0, WEXITSTATUS(status));
	}
	ASSERT_LE(0, etw_count(self->fd, self->s[0], self->guid, &c));
	EXPECT_EQ(40, c.total);
	for (i = 0; i < 4; i++)
		EXPECT_EQ(10, c.by_id[20 + i]);
	/* Ours still works. */
	ASSERT_EQ(0, etw_write_simple(self->fd, self->reg, 30, 4, 0, NULL, 0));
	ASSERT_LE(0, etw_count(self->fd, self->s[0], self->guid, &c));
	EXPECT_EQ(1, c.total);
}

TEST_F(en, unregister)
{
	struct etw_provider_unregister u = { .size = sizeof(u) };
	struct etw_counts c;

	ASSERT_EQ(0, etw_enable_simple(self->fd, self->s[0], self->guid, 1, 5, 0, 0, 0));
	u.reg_id = self->reg;
	ASSERT_EQ(0, etw_ioctl_err(self->fd, ETW_IOC_PROVIDER_UNREGISTER, &u));
	EXPECT_EQ(-EBADF, etw_ioctl_err(self->fd, ETW_IOC_PROVIDER_UNREGISTER, &u));
	EXPECT_EQ(-EBADF, etw_write_simple(self->fd, self->reg, 1, 4, 0, NULL, 0));
	ASSERT_LE(0, etw_count(self->fd, self->s[0], self->guid, &c));
	EXPECT_EQ(0, c.total);
	u.reserved = 1;
	EXPECT_EQ(-EINVAL, etw_ioctl_err(self->fd, ETW_IOC_PROVIDER_UNREGISTER, &u));
}

/* The state slot and the one notification of an enable, checked together. */
static void expect_aggregate(struct __test_metadata *_metadata, int fd,
			     const struct etw_reg_state *me, __u32 code,
			     __u8 slot_level, __u8 note_level, __u64 any,
			     __u64 all)
{
	struct etw_notification n;

	ASSERT_EQ(0, read_notification(fd, &n));
	EXPECT_EQ(code, n.control_code);
	EXPECT_EQ(note_level, n.level);
	EXPECT_EQ(any, n.match_any);
	EXPECT_EQ(all, n.match_all);
	EXPECT_EQ(-EAGAIN, read_notification(fd, &n));
	EXPECT_EQ(!!code, me->enabled);
	expect_masks(_metadata, me);
	if (code) {
		EXPECT_EQ(slot_level, me->level);
		EXPECT_EQ(any, me->match_any);
		EXPECT_EQ(all, me->match_all);
	}
}

/*
 * Seed 000 across three sessions: Level is the maximum, MatchAnyKeyword
 * the OR, MatchAllKeyword the AND, recomputed as sessions come and go;
 * IsEnabled stays 1 while any session enables the provider.  A session's
 * level 0 is "all levels" (255 in the slot; 0 in the notification, as the
 * controller gave it) and its MatchAnyKeyword 0 is all keywords.
 */
TEST_F(en, three_sessions_aggregate)
{
	const struct etw_reg_state *st = map_state(_metadata, self->fd);
	const struct etw_reg_state *me = &st[self->reg - 1];
	struct etw_counts c;

	ASSERT_EQ(0, etw_enable_simple(self->fd, self->s[0], self->guid, 1, 2, 0x17, 0x7, 0));
	expect_aggregate(_metadata, self->fd, me, 1, 2, 2, 0x17, 0x7);
	ASSERT_EQ(0, etw_enable_simple(self->fd, self->s[1], self->guid, 1, 4, 0x26, 0x6, 0));
	expect_aggregate(_metadata, self->fd, me, 1, 4, 4, 0x37, 0x6);
	ASSERT_EQ(0, etw_enable_simple(self->fd, self->s[2], self->guid, 1, 3, 0x4e, 0xe, 0));
	expect_aggregate(_metadata, self->fd, me, 1, 4, 4, 0x7f, 0x6);

	/* Each session still stores only what its own filters accept. */
	ASSERT_EQ(0, etw_write_simple(self->fd, self->reg, 1, 4, 0x6, NULL, 0));
	ASSERT_EQ(0, etw_write_simple(self->fd, self->reg, 2, 2, 0x7, NULL, 0));
	ASSERT_EQ(0, etw_write_simple(self->fd, self->reg, 3, 3, 0xe, NULL, 0));
	ASSERT_LE(0, etw_count(self->fd, self->s[0], self->guid, &c));
	EXPECT_EQ(1, c.total);
	EXPECT_EQ(1, c.by_id[2]);
	ASSERT_LE(0, etw_count(self->fd, self->s[1], self->guid, &c));
	EXPECT_EQ(3, c.total);
	ASSERT_LE(0, etw_count(self->fd, self->s[2], self->guid, &c));
	EXPECT_EQ(1, c.total);
	EXPECT_EQ(1, c.by_id[3]);

	/* The most verbose one leaves: 3, 0x17 | 0x4e, 0x7 & 0xe. */
	ASSERT_EQ(0, etw_enable_simple(self->fd, self->s[1], self->guid, 0, 0, 0, 0, 0));
	expect_aggregate(_metadata, self->fd, me, 1, 3, 3, 0x5f, 0x6);
	/* Level 0 and MatchAnyKeyword 0: everything. */
	ASSERT_EQ(0, etw_enable_simple(self->fd, self->s[1], self->guid, 1, 0, 0, 0, 0));
	expect_aggregate(_metadata, self->fd, me, 1, 255, 0, ~0ULL, 0);
	ASSERT_EQ(0, etw_session_ctl(self->fd, self->s[1], ETW_CONTROL_STOP, NULL));
	expect_aggregate(_metadata, self->fd, me, 1, 3, 3, 0x5f, 0x6);
	ASSERT_EQ(0, etw_session_ctl(self->fd, self->s[0], ETW_CONTROL_STOP, NULL));
	expect_aggregate(_metadata, self->fd, me, 1, 3, 3, 0x4e, 0xe);
	ASSERT_EQ(0, etw_enable_simple(self->fd, self->s[2], self->guid, 0, 0, 0, 0, 0));
	expect_aggregate(_metadata, self->fd, me, 0, 0, 0, 0, 0);
	munmap((void *)st, ETW_MMAP_STATE_SIZE);
}

/*
 * A process that dies takes its registration with it: an enable with a
 * Timeout waits for the registrations it notifies, so it waits for the
 * child's while it lives and returns at once after.  The enables stay:
 * a later registration of the GUID starts enabled.
 */
TEST_F(en, death_removes_registrations)
{
	const struct etw_reg_state *st = map_state(_metadata, self->fd);
	struct etw_enable e = { .size = sizeof(e) };
	int ready[2], status;
	__u8 guid[16];
	__u32 reg;
	pid_t pid;
	char x;

	etw_test_guid(guid, 0x12);
	ASSERT_EQ(0, pipe(ready));
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		int fd = open(ETW_DEV, O_RDWR);

		if (fd < 0 || etw_register_simple(fd, guid, &reg) ||
		    write(ready[1], "r", 1) != 1)
			_exit(1);
		pause();	/* never reads its notifications */
		_exit(2);
	}
	ASSERT_EQ(1, read(ready[0], &x, 1));
	e.logger_id = self->s[0];
	e.control_code = 1;
	memcpy(e.guid, guid, 16);
	e.level = 4;
	e.timeout_ms = 200;
	EXPECT_EQ(-ETIMEDOUT, etw_ioctl_err(self->fd, ETW_IOC_ENABLE, &e));

	ASSERT_EQ(0, kill(pid, SIGKILL));
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	e.logger_id = self->s[1];
	e.level = 2;
	e.timeout_ms = ETW_TIMEOUT_INFINITE;
	EXPECT_EQ(0, etw_ioctl_err(self->fd, ETW_IOC_ENABLE, &e));

	ASSERT_EQ(0, etw_register_simple(self->fd, guid, &reg));
	EXPECT_EQ(1, st[reg - 1].enabled);
	EXPECT_EQ(4, st[reg - 1].level);	/* the maximum of 4 and 2 */
	close(ready[0]);
	close(ready[1]);
	munmap((void *)st, ETW_MMAP_STATE_SIZE);
}

/*
 * A GUID nobody registered yet: the 8-session limit holds all the same,
 * and the registration that comes later starts with the combination of
 * the eight enables (seed 000), told with a zero SourceId.
 */
TEST_F(en, pre_enable_by_eight_sessions)
{
	const struct etw_reg_state *st = map_state(_metadata, self->fd);
	static const __u8 zero[16];
	struct etw_notification n;
	__u32 ids[9], reg;
	__u8 guid[16];
	char name[32];
	int i;

	etw_test_guid(guid, 0x13);
	for (i = 0; i < 9; i++) {
		snprintf(name, sizeof(name), "etwtest-pe8-%d", i);
		ASSERT_EQ(0, etw_session_start_simple(self->fd, name, 0, 4, 0, &ids[i]));
	}
	/* Levels 1..8, MatchAny bit i and 0x100, MatchAll 0x100 | bit i. */
	for (i = 0; i < 8; i++)
		ASSERT_EQ(0, etw_enable_simple(self->fd, ids[i], guid, 1, i + 1,
					       0x100 | 1ULL << i, 0x100 | 1ULL << i, 0));
	EXPECT_EQ(-ENOSPC, etw_enable_simple(self->fd, ids[8], guid, 1, 5, 0, 0, 0));

	ASSERT_EQ(0, etw_register_simple(self->fd, guid, &reg));
	EXPECT_EQ(1, st[reg - 1].enabled);
	EXPECT_EQ(8, st[reg - 1].level);
	EXPECT_EQ(0x1ff, st[reg - 1].match_any);
	EXPECT_EQ(0x100, st[reg - 1].match_all);
	ASSERT_EQ(0, read_notification(self->fd, &n));
	EXPECT_EQ(reg, n.reg_id);
	EXPECT_EQ(1, n.control_code);
	EXPECT_EQ(8, n.level);
	EXPECT_EQ(0x1ff, n.match_any);
	EXPECT_EQ(0x100, n.match_all);
	EXPECT_EQ(0, memcmp(zero, n.source_id, 16));
	munmap((void *)st, ETW_MMAP_STATE_SIZE);
}

TEST_HARNESS_MAIN
