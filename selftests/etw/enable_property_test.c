// SPDX-License-Identifier: GPL-2.0
/*
 * EnableProperty: the extended items a session asks for (SID, TS_ID,
 * PROCESS_START_KEY, EVENT_KEY, STACK_TRACE) appear in that session's
 * records only, in their on-disk form, with the values documented in
 * module/enable_prop.c; EXCLUDE_INPRIVATE drops events written with the
 * INPRIVATE flag; the bits with no Linux counterpart are accepted and
 * change nothing; unknown bits are refused.
 */
#include <sys/prctl.h>
#include <sys/wait.h>

#include "kselftest_harness.h"
#include "etw_selftests.h"

#define ALL_ITEMS	(ETW_ENABLE_SID | ETW_ENABLE_TS_ID | \
			 ETW_ENABLE_PROCESS_START_KEY | ETW_ENABLE_EVENT_KEY | \
			 ETW_ENABLE_STACK_TRACE)

#define MAX_RECS	64
#define MAX_FRAMES	200

/* One record as the test reads it back. */
struct rec {
	__u32 seq;		/* the payload's first word */
	__u32 pid;
	int n_ext;
	__u16 types[8];
	__u8 sid[16];
	int sid_size;
	__u32 ts_id;
	__u64 start_key;
	__u64 event_key;
	__u16 stack_type;
	int stack_n;		/* addresses after the MatchId */
	__u64 match_id;
	__u64 stack[MAX_FRAMES];
};

struct coll {
	__u8 guid[16];
	int n;
	int bad;		/* records whose framing is wrong */
	struct rec r[MAX_RECS];
};

static int collect(const struct etw_test_event_header *h, const __u8 *buffer,
		   __u32 cpu, void *ctx)
{
	struct coll *c = ctx;
	struct etw_test_ext x[8];
	struct rec *r;
	__u32 off;
	int n, i;

	if (memcmp(h->provider_id, c->guid, 16))
		return 0;
	n = etw_test_ext_items(h, x, 8, &off);
	if (n < 0 || n > 8 || off + 4 > h->size || c->n == MAX_RECS) {
		c->bad++;
		return 0;
	}
	r = &c->r[c->n++];
	memset(r, 0, sizeof(*r));
	memcpy(&r->seq, (const __u8 *)h + off, 4);
	r->pid = h->process_id;
	r->n_ext = n;
	for (i = 0; i < n; i++) {
		r->types[i] = x[i].type;
		switch (x[i].type) {
		case EXT_SID:
			r->sid_size = x[i].size;
			memcpy(r->sid, x[i].data, x[i].size < 16 ? x[i].size : 16);
			break;
		case EXT_TS_ID:
			if (x[i].size == 4)
				memcpy(&r->ts_id, x[i].data, 4);
			else
				c->bad++;
			break;
		case EXT_START_KEY:
		case EXT_EVENT_KEY:
			if (x[i].size != 8) {
				c->bad++;
				break;
			}
			memcpy(x[i].type == EXT_START_KEY ? &r->start_key :
			       &r->event_key, x[i].data, 8);
			break;
		case EXT_STACK32:
		case EXT_STACK64: {
			unsigned int w = x[i].type == EXT_STACK64 ? 8 : 4;
			int k;

			r->stack_type = x[i].type;
			if (x[i].size < 8 || (x[i].size - 8) % w) {
				c->bad++;
				break;
			}
			memcpy(&r->match_id, x[i].data, 8);
			r->stack_n = (x[i].size - 8) / w;
			for (k = 0; k < r->stack_n && k < MAX_FRAMES; k++) {
				r->stack[k] = 0;
				memcpy(&r->stack[k], x[i].data + 8 + k * w, w);
			}
			break;
		}
		}
	}
	return 0;
}

static long collect_session(int fd, __u32 logger, const __u8 guid[16],
			    struct coll *c)
{
	memset(c, 0, sizeof(*c));
	memcpy(c->guid, guid, 16);
	return etw_drain(fd, logger, collect, c);
}

static const struct rec *by_seq(const struct coll *c, __u32 seq)
{
	for (int i = 0; i < c->n; i++)
		if (c->r[i].seq == seq)
			return &c->r[i];
	return NULL;
}

static int write_seq(int fd, __u32 reg, __u32 seq, __u16 flags)
{
	struct etw_data_desc d = { .ptr = (uintptr_t)&seq, .size = sizeof(seq) };
	struct etw_event_write w = { .size = sizeof(w), .kind = ETW_WRITE_EVENT };

	w.flags = flags;
	w.reg_id = reg;
	w.desc.id = 7;
	w.desc.level = 4;
	w.count = 1;
	w.data = (uintptr_t)&d;
	if (flags & ETW_WRITE_F_RELATED)
		memset(w.related_id, 0x5a, 16);
	return etw_ioctl_err(fd, ETW_IOC_WRITE, &w);
}

FIXTURE(prop)
{
	int fd;
	__u8 guid[16];
	__u32 reg;
	__u32 s[3];
};

FIXTURE_SETUP(prop)
{
	etw_require_root(_metadata);
	self->fd = etw_open_or_skip(_metadata);
	etw_stop_test_sessions(self->fd);
	etw_test_guid(self->guid, 0x60);
	ASSERT_EQ(0, etw_register_simple(self->fd, self->guid, &self->reg));
	ASSERT_EQ(0, etw_session_start_simple(self->fd, "etwtest-prop-a", 0, 64,
					      0, &self->s[0]));
	ASSERT_EQ(0, etw_session_start_simple(self->fd, "etwtest-prop-b", 0, 64,
					      0, &self->s[1]));
	ASSERT_EQ(0, etw_session_start_simple(self->fd, "etwtest-prop-c", 0, 64,
					      0, &self->s[2]));
}

FIXTURE_TEARDOWN(prop)
{
	if (self->fd >= 0) {
		etw_stop_test_sessions(self->fd);
		close(self->fd);
	}
}

static void expect_sid(struct __test_metadata *_metadata, const struct rec *r,
		       __u32 uid)
{
	static const __u8 head[8] = { 1, 2, 0, 0, 0, 0, 0, 22 };
	__u32 sub[2];

	ASSERT_EQ(16, r->sid_size);
	EXPECT_EQ(0, memcmp(r->sid, head, 8));
	memcpy(sub, r->sid + 8, 8);
	EXPECT_EQ(1, sub[0]);
	EXPECT_EQ(uid, sub[1]);
}

static __u32 audit_session_of_self(void)
{
	unsigned long v = ~0UL;
	FILE *f = fopen("/proc/self/sessionid", "r");

	if (f) {
		if (fscanf(f, "%lu", &v) != 1)
			v = ~0UL;
		fclose(f);
	}
	return v == 4294967295UL ? 0 : (__u32)v;
}

/*
 * Three sessions: A asks for every item, B for none, C for EVENT_KEY only.
 * Each session's records carry exactly what it asked for, in the order of
 * module/enable_prop.c, after the related activity id every session gets.
 */
TEST_F(prop, items_only_where_asked)
{
	struct coll *a = calloc(3, sizeof(*a)), *b = a + 1, *c = a + 2;
	__u64 keys[5];
	int i, j;

	ASSERT_TRUE(a != NULL);
	ASSERT_EQ(0, etw_enable_simple(self->fd, self->s[0], self->guid, 1, 0,
				       0, 0, ALL_ITEMS));
	ASSERT_EQ(0, etw_enable_simple(self->fd, self->s[1], self->guid, 1, 0,
				       0, 0, 0));
	ASSERT_EQ(0, etw_enable_simple(self->fd, self->s[2], self->guid, 1, 0,
				       0, 0, ETW_ENABLE_EVENT_KEY));
	for (i = 0; i < 5; i++)
		ASSERT_EQ(0, write_seq(self->fd, self->reg, i,
				       i == 2 ? ETW_WRITE_F_RELATED : 0));

	ASSERT_EQ(5, collect_session(self->fd, self->s[0], self->guid, a));
	ASSERT_EQ(5, collect_session(self->fd, self->s[1], self->guid, b));
	ASSERT_EQ(5, collect_session(self->fd, self->s[2], self->guid, c));
	EXPECT_EQ(0, a->bad + b->bad + c->bad);
	for (i = 0; i < 5; i++) {
		const struct rec *ra = by_seq(a, i), *rb = by_seq(b, i),
				 *rc = by_seq(c, i);
		int rel = i == 2;

		ASSERT_TRUE(ra != NULL);
		ASSERT_TRUE(rb != NULL);
		ASSERT_TRUE(rc != NULL);
		ASSERT_EQ(5 + rel, ra->n_ext);
		if (rel)
			EXPECT_EQ(EXT_RELATED, ra->types[0]);
		EXPECT_EQ(EXT_SID, ra->types[rel + 0]);
		EXPECT_EQ(EXT_TS_ID, ra->types[rel + 1]);
		EXPECT_EQ(EXT_START_KEY, ra->types[rel + 2]);
		EXPECT_EQ(EXT_EVENT_KEY, ra->types[rel + 3]);
		EXPECT_EQ(sizeof(long) == 8 ? EXT_STACK64 : EXT_STACK32,
			  ra->types[rel + 4]);
		EXPECT_EQ(rel, rb->n_ext);
		ASSERT_EQ(1 + rel, rc->n_ext);
		EXPECT_EQ(EXT_EVENT_KEY, rc->types[rel]);

		/* One key per event, the same in every session. */
		EXPECT_EQ(ra->event_key, rc->event_key);
		keys[i] = ra->event_key;
		for (j = 0; j < i; j++)
			EXPECT_NE(keys[j], keys[i]);
		expect_sid(_metadata, ra, geteuid());
		EXPECT_EQ(audit_session_of_self(), ra->ts_id);
		EXPECT_EQ((__u32)getpid(), ra->start_key & 0x3fffff);
		EXPECT_EQ(0, ra->match_id);
		EXPECT_LE(1, ra->stack_n);
	}
	free(a);
}

/* What one child writes under its own identity; returns its pid. */
static pid_t child_writes(const __u8 guid[16], uid_t uid, bool new_login,
			  __u32 seq_base, int count)
{
	pid_t pid = fork();

	if (pid)
		return pid;
	if (new_login) {
		/* A new login session: the audit session id changes. */
		FILE *f = fopen("/proc/self/loginuid", "w");

		if (!f || fprintf(f, "%u", 1000) < 0 || fclose(f))
			_exit(2);
	}
	if (uid && setresuid(uid, uid, uid))
		_exit(3);
	{
		int fd = open(ETW_DEV, O_RDWR | O_CLOEXEC);
		__u32 reg, i;
		__u32 sid = audit_session_of_self();

		if (fd < 0 || etw_register_simple(fd, guid, &reg))
			_exit(4);
		for (i = 0; i < (__u32)count; i++)
			if (write_seq(fd, reg, seq_base + i, 0))
				_exit(5);
		/* The parent checks TS_ID against this. */
		if (new_login && write_seq(fd, reg, 0x70000000 | sid, 0))
			_exit(6);
		_exit(0);
	}
}

static int wait_ok(pid_t pid)
{
	int st;

	return waitpid(pid, &st, 0) == pid && WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* Another user: S-1-22-1-<uid>; the SID follows the effective uid. */
TEST_F(prop, sid_is_unix_user)
{
	struct coll *a = calloc(1, sizeof(*a));
	pid_t pid;

	ASSERT_TRUE(a != NULL);
	ASSERT_EQ(0, etw_enable_simple(self->fd, self->s[0], self->guid, 1, 0,
				       0, 0, ETW_ENABLE_SID));
	ASSERT_EQ(0, write_seq(self->fd, self->reg, 1, 0));
	pid = child_writes(self->guid, 1234, false, 100, 2);
	ASSERT_EQ(0, wait_ok(pid));
	ASSERT_EQ(3, collect_session(self->fd, self->s[0], self->guid, a));
	EXPECT_EQ(0, a->bad);
	expect_sid(_metadata, by_seq(a, 1), 0);
	expect_sid(_metadata, by_seq(a, 100), 1234);
	expect_sid(_metadata, by_seq(a, 101), 1234);
	free(a);
}

/* TS_ID: 0 outside a login session, the audit session id inside one. */
TEST_F(prop, ts_id_is_audit_session)
{
	struct coll *a = calloc(1, sizeof(*a));
	const struct rec *r = NULL;
	pid_t pid;
	int i;

	ASSERT_TRUE(a != NULL);
	ASSERT_EQ(0, etw_enable_simple(self->fd, self->s[0], self->guid, 1, 0,
				       0, 0, ETW_ENABLE_TS_ID));
	pid = child_writes(self->guid, 0, true, 200, 1);
	ASSERT_EQ(0, wait_ok(pid));
	ASSERT_EQ(2, collect_session(self->fd, self->s[0], self->guid, a));
	EXPECT_EQ(0, a->bad);
	for (i = 0; i < a->n; i++)
		if (a->r[i].seq & 0x70000000)
			r = &a->r[i];
	ASSERT_TRUE(r != NULL);
	/* The child's own reading of /proc/self/sessionid. */
	EXPECT_NE(0, r->seq & 0x0fffffff);
	EXPECT_EQ(r->seq & 0x0fffffff, r->ts_id);
	EXPECT_EQ(r->ts_id, by_seq(a, 200)->ts_id);
	free(a);
}

/* Start time since boot in clock ticks, field 22 of /proc/PID/stat. */
static unsigned long long start_ticks(pid_t pid)
{
	char path[64], buf[1024], *p;
	unsigned long long v = 0;
	FILE *f;
	int i;

	snprintf(path, sizeof(path), "/proc/%d/stat", pid);
	f = fopen(path, "r");
	if (!f)
		return 0;
	if (!fgets(buf, sizeof(buf), f))
		buf[0] = 0;
	fclose(f);
	p = strrchr(buf, ')');
	for (i = 2; p && i < 22; i++)
		p = strchr(p + 1, ' ');
	if (p)
		v = strtoull(p + 1, NULL, 10);
	return v;
}

/*
 * PROCESS_START_KEY: the same for every event of a process, different for
 * another process; start time in ms << 22 | pid.
 */
TEST_F(prop, process_start_key)
{
	struct coll *a = calloc(1, sizeof(*a));
	pid_t p1, p2;
	__u64 k1, k2;

	ASSERT_TRUE(a != NULL);
	ASSERT_EQ(0, etw_enable_simple(self->fd, self->s[0], self->guid, 1, 0,
				       0, 0, ETW_ENABLE_PROCESS_START_KEY));
	ASSERT_EQ(0, write_seq(self->fd, self->reg, 1, 0));
	ASSERT_EQ(0, write_seq(self->fd, self->reg, 2, 0));
	p1 = child_writes(self->guid, 0, false, 300, 2);
	ASSERT_EQ(0, wait_ok(p1));
	p2 = child_writes(self->guid, 0, false, 400, 2);
	ASSERT_EQ(0, wait_ok(p2));
	ASSERT_EQ(6, collect_session(self->fd, self->s[0], self->guid, a));
	EXPECT_EQ(0, a->bad);

	EXPECT_EQ(by_seq(a, 1)->start_key, by_seq(a, 2)->start_key);
	k1 = by_seq(a, 300)->start_key;
	k2 = by_seq(a, 400)->start_key;
	EXPECT_EQ(k1, by_seq(a, 301)->start_key);
	EXPECT_EQ(k2, by_seq(a, 401)->start_key);
	EXPECT_NE(k1, k2);
	EXPECT_NE(k1, by_seq(a, 1)->start_key);
	EXPECT_EQ((__u64)p1, k1 & 0x3fffff);
	EXPECT_EQ((__u64)p2, k2 & 0x3fffff);
	/* ms since boot; /proc's start time is in 10 ms ticks (USER_HZ 100). */
	EXPECT_EQ(start_ticks(getpid()), (by_seq(a, 1)->start_key >> 22) / 10);
	free(a);
}

/*
 * The user stack: built with frame pointers, the return addresses into
 * the two callers appear in order after the system call's own address.
 */
static void *ret_into_outer, *ret_into_test;

static __attribute__((noinline, optimize("no-omit-frame-pointer")))
int inner_write(int fd, __u32 reg)
{
	int ret;

	ret_into_outer = __builtin_return_address(0);
	ret = write_seq(fd, reg, 9, 0);
	__asm__ volatile("" ::: "memory");	/* no tail call */
	return ret;
}

static __attribute__((noinline, optimize("no-omit-frame-pointer")))
int outer_write(int fd, __u32 reg)
{
	int ret;

	ret_into_test = __builtin_return_address(0);
	ret = inner_write(fd, reg);
	__asm__ volatile("" ::: "memory");
	return ret;
}

TEST_F(prop, stack_trace)
{
	struct coll *a = calloc(2, sizeof(*a)), *b = a + 1;
	const struct rec *r;
	int i, at_outer = -1, at_test = -1;

	ASSERT_TRUE(a != NULL);
	ASSERT_EQ(0, etw_enable_simple(self->fd, self->s[0], self->guid, 1, 0,
				       0, 0, ETW_ENABLE_STACK_TRACE));
	ASSERT_EQ(0, etw_enable_simple(self->fd, self->s[1], self->guid, 1, 0,
				       0, 0, 0));
	ASSERT_EQ(0, outer_write(self->fd, self->reg));
	ASSERT_EQ(1, collect_session(self->fd, self->s[0], self->guid, a));
	ASSERT_EQ(1, collect_session(self->fd, self->s[1], self->guid, b));
	EXPECT_EQ(0, a->bad + b->bad);
	EXPECT_EQ(0, b->r[0].n_ext);
	r = &a->r[0];
	ASSERT_EQ(1, r->n_ext);
	EXPECT_EQ(sizeof(long) == 8 ? EXT_STACK64 : EXT_STACK32, r->stack_type);
	EXPECT_EQ(0, r->match_id);
	ASSERT_LE(3, r->stack_n);
	EXPECT_NE(0, r->stack[0]);
	for (i = 1; i < r->stack_n; i++) {
		if (r->stack[i] == (uintptr_t)ret_into_outer && at_outer < 0)
			at_outer = i;
		if (r->stack[i] == (uintptr_t)ret_into_test && at_test < 0)
			at_test = i;
	}
	EXPECT_LE(1, at_outer);
	EXPECT_EQ(at_outer + 1, at_test);
	free(a);
}

/*
 * The stack can push a record over 64 KiB: that session loses the event
 * (ERROR_ARITHMETIC_OVERFLOW to the writer), an independent session that
 * did not ask for a stack stores it.
 */
TEST_F(prop, stack_pushes_over_64k)
{
	static __u8 big[65535 - ETW_EVENT_HEADER_SIZE - 8];
	struct etw_data_desc d = { .ptr = (uintptr_t)big, .size = sizeof(big) };
	struct etw_event_write w = { .size = sizeof(w), .kind = ETW_WRITE_EVENT };
	struct etw_session_info info;
	struct etw_counts c;
	__u32 sa, sb;

	etw_stop_test_sessions(self->fd);
	ASSERT_EQ(0, etw_session_start_simple(self->fd, "etwtest-prop-big-a", 0,
					      128, 0, &sa));
	ASSERT_EQ(0, etw_session_start_simple(self->fd, "etwtest-prop-big-b",
					      ETW_MODE_INDEPENDENT, 128, 0, &sb));
	ASSERT_EQ(0, etw_enable_simple(self->fd, sa, self->guid, 1, 0, 0, 0,
				       ETW_ENABLE_STACK_TRACE));
	ASSERT_EQ(0, etw_enable_simple(self->fd, sb, self->guid, 1, 0, 0, 0, 0));
	w.reg_id = self->reg;
	w.count = 1;
	w.data = (uintptr_t)&d;
	EXPECT_EQ(-EOVERFLOW, etw_ioctl_err(self->fd, ETW_IOC_WRITE, &w));
	ASSERT_EQ(0, etw_count(self->fd, sa, self->guid, &c));
	EXPECT_EQ(0, c.total);
	ASSERT_LE(1, etw_count(self->fd, sb, self->guid, &c));
	EXPECT_EQ(1, c.total);
	ASSERT_EQ(0, etw_session_ctl(self->fd, sa, ETW_CONTROL_QUERY, &info));
	EXPECT_EQ(1, info.events_lost);
	ASSERT_EQ(0, etw_session_ctl(self->fd, sb, ETW_CONTROL_QUERY, &info));
	EXPECT_EQ(0, info.events_lost);
}

/* EXCLUDE_INPRIVATE: INPRIVATE events skip that session only. */
TEST_F(prop, exclude_inprivate)
{
	struct etw_counts c;

	ASSERT_EQ(0, etw_enable_simple(self->fd, self->s[0], self->guid, 1, 0,
				       0, 0, ETW_ENABLE_EXCLUDE_INPRIVATE));
	ASSERT_EQ(0, etw_enable_simple(self->fd, self->s[1], self->guid, 1, 0,
				       0, 0, 0));
	for (int i = 0; i < 5; i++)
		ASSERT_EQ(0, write_seq(self->fd, self->reg, i,
				       i < 3 ? ETW_WRITE_F_INPRIVATE : 0));
	ASSERT_LE(1, etw_count(self->fd, self->s[0], self->guid, &c));
	EXPECT_EQ(2, c.total);
	ASSERT_LE(1, etw_count(self->fd, self->s[1], self->guid, &c));
	EXPECT_EQ(5, c.total);
}

/* The bits without a Linux counterpart: accepted, nothing added. */
TEST_F(prop, no_effect_bits)
{
	struct coll *a = calloc(1, sizeof(*a));

	ASSERT_TRUE(a != NULL);
	ASSERT_EQ(0, etw_enable_simple(self->fd, self->s[0], self->guid, 1, 0,
				       0, 0, ETW_ENABLE_PSM_KEY |
				       ETW_ENABLE_ENABLE_KEYWORD_0 |
				       ETW_ENABLE_SILOS |
				       ETW_ENABLE_SOURCE_CONTAINER_TRACKING));
	for (int i = 0; i < 3; i++)
		ASSERT_EQ(0, write_seq(self->fd, self->reg, i, 0));
	ASSERT_EQ(3, collect_session(self->fd, self->s[0], self->guid, a));
	for (int i = 0; i < 3; i++)
		EXPECT_EQ(0, a->r[i].n_ext);
	free(a);
}

/* PROVIDER_GROUP and bits Windows does not define are refused. */
TEST_F(prop, unknown_bits_einval)
{
	EXPECT_EQ(-EINVAL, etw_enable_simple(self->fd, self->s[0], self->guid,
					     1, 0, 0, 0, 0x1000));
	EXPECT_EQ(-EINVAL, etw_enable_simple(self->fd, self->s[0], self->guid,
					     1, 0, 0, 0, 0x20));
	/* A write flag of the range nobody uses yet. */
	EXPECT_EQ(-EINVAL, write_seq(self->fd, self->reg, 0, 0x800));
}

TEST_HARNESS_MAIN
