// SPDX-License-Identifier: GPL-2.0
/*
 * <evntprov.h>'s inline enable test against seed 000's test on the
 * aggregate of the enabling sessions, with no kernel: the slot of a
 * handle points to a state made here as the uapi defines it (struct
 * etw_reg_state, match_any_at included).  The inline EventWrite tells
 * what it decided: ERROR_SUCCESS when it found the event disabled,
 * ERROR_INVALID_HANDLE when it asked the library (which knows no
 * registration here).  The module's side of match_any_at is
 * selftests/etw/enable_test.c's.
 */
#include <string.h>

#include <windows.h>
#include <evntprov.h>
#include <linux/etw.h>

#include "kselftest_harness.h"

#define SLOT	5
#define HANDLE	((1ULL << 32) | SLOT)

/*
 * Events whose descriptors the compiler knows, as a caller's usually are:
 * for one with keywords and a level below 8 the inline test is the one
 * MatchAnyAt test.  EventWrite and EventWriteTransfer, each inlined here.
 */
#define GRID(X)								\
	X(0, 0) X(1, 0) X(4, 0) X(7, 0) X(8, 0) X(200, 0)		\
	X(0, 0x1) X(1, 0x1) X(2, 0x2) X(3, 0x3) X(4, 0x1) X(5, 0x2)	\
	X(6, 0x4) X(7, 0x6) X(8, 0x1) X(255, 0x3) X(3, 0x10) X(7, 0xf0)	\
	X(0, 0x8000000000000000) X(5, 0x8000000000000001)

#define WRITE_FNS(l, k)							\
static ULONG write_##l##_##k(REGHANDLE h, PEVENT_DATA_DESCRIPTOR data)	\
{									\
	static const EVENT_DESCRIPTOR d = { .Level = l, .Keyword = k };	\
	return EventWrite(h, &d, 1, data);				\
}									\
static ULONG transfer_##l##_##k(REGHANDLE h, PEVENT_DATA_DESCRIPTOR data) \
{									\
	static const EVENT_DESCRIPTOR d = { .Level = l, .Keyword = k };	\
	return EventWriteTransfer(h, &d, NULL, NULL, 1, data);		\
}
GRID(WRITE_FNS)

static const struct grid_event {
	UCHAR level;
	ULONGLONG keyword;
	ULONG (*write)(REGHANDLE, PEVENT_DATA_DESCRIPTOR);
	ULONG (*transfer)(REGHANDLE, PEVENT_DATA_DESCRIPTOR);
} grid[] = {
#define GRID_ENTRY(l, k) { l, k, write_##l##_##k, transfer_##l##_##k },
	GRID(GRID_ENTRY)
};

/* One session's EnableTraceEx2 arguments (level 0, MatchAny 0: all). */
struct session {
	UCHAR level;
	ULONGLONG any, all;
};

/* The enabling sessions of each round: up to three, level 0 ends. */
static const struct session rounds[][3] = {
	{ { 0 } },
	{ { 4, 0x1, 0 } },
	{ { 0, 0, 0 } },
	{ { 3, 0x3, 0x2 } },
	{ { 5, 0x1, 0 }, { 2, 0x6, 0 } },
	{ { 4, 0x3, 0x1 }, { 7, 0x4, 0x4 } },
	{ { 1, 0xf0, 0x30 }, { 6, 0x10, 0x10 } },
	{ { 255, 0x8000000000000000ULL, 0 } },
	{ { 2, 0, 0x8000000000000000ULL } },
	{ { 1, 0x2, 0 }, { 4, 0x2, 0 }, { 6, 0x1, 0 } },
};

static const unsigned int nr_sessions[] = { 0, 1, 1, 1, 2, 2, 2, 1, 1, 3 };

/*
 * The aggregate the module publishes (the highest level, 255 for a
 * session that gave 0; OR of MatchAny, all ones for 0; AND of MatchAll),
 * and match_any_at as the uapi defines it.
 */
static void make_state(struct etw_reg_state *st, const struct session *s,
		       unsigned int n)
{
	unsigned int i, l;

	memset(st, 0, sizeof(*st));
	if (!n)
		return;
	st->enabled = 1;
	st->match_all = ~0ULL;
	for (i = 0; i < n; i++) {
		UCHAR level = s[i].level ? s[i].level : 255;

		st->level = level > st->level ? level : st->level;
		st->match_any |= s[i].any ? s[i].any : ~0ULL;
		st->match_all &= s[i].all;
	}
	for (l = 0; l < ETW_REG_STATE_LEVELS; l++)
		st->match_any_at[l] = !l || l <= st->level ? st->match_any : 0;
}

/* Seed 000: EventEnabled on the aggregate. */
static int seed000(const struct etw_reg_state *st, UCHAR level, ULONGLONG kw)
{
	if (!st->enabled || (level && level > st->level))
		return 0;
	return !kw || ((kw & st->match_any) &&
		       (kw & st->match_all) == st->match_all);
}

/* What the MatchAnyAt test alone answers (the level and MatchAny). */
static int any_at_allows(const struct etw_reg_state *st, UCHAR level,
			 ULONGLONG kw)
{
	return st->enabled && (!level || level <= st->level) &&
	       (kw & st->match_any);
}

static struct etw_reg_state state;

FIXTURE(inline_test)
{
	EVENT_DATA_DESCRIPTOR data;
};

FIXTURE_SETUP(inline_test)
{
	EventDataDescCreate(&self->data, "payload", 7);
	_etwRegState[SLOT] = (const struct _etwRegState *)&state;
}

FIXTURE_TEARDOWN(inline_test)
{
}

/*
 * A constant event: "disabled" only where seed 000 says so; exactly
 * where it says so unless MatchAll is set (then the MatchAnyAt test,
 * which knows the level and MatchAny only, leaves the rest to the
 * library).  Any other event makes the whole test: exact.
 */
TEST_F(inline_test, agrees_with_seed_000)
{
	unsigned int r, i;

	for (r = 0; r < sizeof(rounds) / sizeof(rounds[0]); r++) {
		make_state(&state, rounds[r], nr_sessions[r]);
		for (i = 0; i < sizeof(grid) / sizeof(grid[0]); i++) {
			const struct grid_event *g = &grid[i];
			volatile EVENT_DESCRIPTOR runtime = {
				.Level = g->level, .Keyword = g->keyword,
			};
			EVENT_DESCRIPTOR d = runtime;
			int want = seed000(&state, g->level, (unsigned long long)g->keyword);
			int inline_no;
			ULONG got;

			if (g->keyword && g->level < ETW_REG_STATE_LEVELS)
				inline_no = !any_at_allows(&state, g->level,
							   g->keyword);
			else
				inline_no = !want;
			if (want)
				ASSERT_FALSE(inline_no);
			if (!state.match_all)
				ASSERT_EQ(!want, inline_no);
			got = g->write(HANDLE, &self->data);
			EXPECT_EQ(inline_no ? ERROR_SUCCESS : ERROR_INVALID_HANDLE,
				  got)
				TH_LOG("round %u level %u keyword %#llx", r,
				       g->level, (unsigned long long)g->keyword);
			got = g->transfer(HANDLE, &self->data);
			EXPECT_EQ(inline_no ? ERROR_SUCCESS : ERROR_INVALID_HANDLE,
				  got)
				TH_LOG("round %u level %u keyword %#llx", r,
				       g->level, (unsigned long long)g->keyword);
			got = EventWrite(HANDLE, &d, 1, &self->data);
			EXPECT_EQ(want ? ERROR_INVALID_HANDLE : ERROR_SUCCESS, got)
				TH_LOG("round %u level %u keyword %#llx (runtime)",
				       r, g->level, (unsigned long long)g->keyword);
			/* FALSE is FALSE: the library knows no such handle. */
			EXPECT_FALSE(EventEnabled(HANDLE, &d));
		}
	}
}

/* A disabled state is all zeros: every event is disabled inline. */
TEST_F(inline_test, disabled_state_is_zeros)
{
	unsigned int i;

	make_state(&state, NULL, 0);
	for (i = 0; i < sizeof(grid) / sizeof(grid[0]); i++) {
		EXPECT_EQ(ERROR_SUCCESS, grid[i].write(HANDLE, &self->data));
		EXPECT_EQ(ERROR_SUCCESS, grid[i].transfer(HANDLE, &self->data));
	}
}

/*
 * A slot no registration holds asks the library, whatever the event:
 * handle 0 (slot 0 is never a registration's) and a handle never issued
 * get ERROR_INVALID_HANDLE from the inline EventWrite.
 */
TEST_F(inline_test, free_slot_asks_the_library)
{
	static const REGHANDLE bad[] = {
		0, 77, (3ULL << 32) | 77, (9ULL << 32) | (_ETW_SLOTS - 1),
		~0ULL, (1ULL << 32) | _ETW_SLOTS,
	};
	unsigned int i, b;

	for (b = 0; b < sizeof(bad) / sizeof(bad[0]); b++) {
		ASSERT_NE(SLOT, _ETW_SLOT(bad[b]));
		for (i = 0; i < sizeof(grid) / sizeof(grid[0]); i++) {
			EXPECT_EQ(ERROR_INVALID_HANDLE,
				  grid[i].write(bad[b], &self->data));
			EXPECT_EQ(ERROR_INVALID_HANDLE,
				  grid[i].transfer(bad[b], &self->data));
		}
	}
}

TEST_HARNESS_MAIN
