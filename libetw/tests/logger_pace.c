// SPDX-License-Identifier: GPL-2.0
/*
 * The logger's pace (tools/cmd/logger_pace.c): asleep until woken; after a
 * wake-up that found buffers, a look on its own timer at the period that
 * finds three quarters of the watermark at the rate seen; asleep again
 * when a look finds nothing or the flow is too slow for the timer.
 */
#include "cmd/logger_pace.h"

#include "kselftest_harness.h"

#define MS 1000000LL
#define T0 (1000 * MS)

TEST(asleep_until_woken)
{
	struct logger_pace p;

	logger_pace_init(&p, 6);
	EXPECT_EQ(-1, logger_pace_timeout(&p, T0));
	/* A look that finds nothing (a spurious return) stays asleep. */
	logger_pace_found(&p, 0, T0);
	EXPECT_EQ(-1, logger_pace_timeout(&p, T0 + 5 * MS));
}

TEST(first_look_after_a_wake_up)
{
	struct logger_pace p;

	logger_pace_init(&p, 6);
	logger_pace_found(&p, 6, T0);
	/* The rate is not known: the next look at most 100 ms later. */
	EXPECT_EQ(100, logger_pace_timeout(&p, T0));
	EXPECT_EQ(60, logger_pace_timeout(&p, T0 + 40 * MS));
}

TEST(period_from_the_rate)
{
	struct logger_pace p;

	logger_pace_init(&p, 6);
	EXPECT_EQ(4, p.target);		/* three quarters of 6 */
	logger_pace_found(&p, 6, T0);
	/* 6 buffers in 8 ms: 4 of them take 5.33 ms. */
	logger_pace_found(&p, 6, T0 + 8 * MS);
	EXPECT_EQ(16 * MS / 3, p.period);
	EXPECT_EQ(6, logger_pace_timeout(&p, T0 + 8 * MS));	/* rounded up */
	/* The look itself, on time: 2 buffers in 5.33 ms, half the rate. */
	logger_pace_found(&p, 2, T0 + 8 * MS + 16 * MS / 3);
	EXPECT_EQ(32 * MS / 3, p.period);
}

TEST(timeout_never_early)
{
	struct logger_pace p;

	logger_pace_init(&p, 6);
	logger_pace_found(&p, 1, T0);
	EXPECT_EQ(1, logger_pace_timeout(&p, T0 + 100 * MS - 1));
	EXPECT_EQ(0, logger_pace_timeout(&p, T0 + 100 * MS));
	EXPECT_EQ(0, logger_pace_timeout(&p, T0 + 200 * MS));
}

TEST(fast_flow_bounded_by_poll_resolution)
{
	struct logger_pace p;

	logger_pace_init(&p, 6);
	logger_pace_found(&p, 6, T0);
	logger_pace_found(&p, 12, T0 + MS / 2);
	EXPECT_EQ(LOGGER_PACE_MIN_NS, p.period);
	EXPECT_EQ(1, logger_pace_timeout(&p, T0 + MS / 2));
}

TEST(nothing_found_sleeps)
{
	struct logger_pace p;

	logger_pace_init(&p, 6);
	logger_pace_found(&p, 6, T0);
	logger_pace_found(&p, 4, T0 + 5 * MS);
	EXPECT_EQ(5, logger_pace_timeout(&p, T0 + 5 * MS));
	/* The flow stopped: no timer until the kernel wakes the logger. */
	logger_pace_found(&p, 0, T0 + 10 * MS);
	EXPECT_EQ(-1, logger_pace_timeout(&p, T0 + 10 * MS));
	/* Woken again: the first look as after any wake-up. */
	logger_pace_found(&p, 6, T0 + 10000 * MS);
	EXPECT_EQ(100, logger_pace_timeout(&p, T0 + 10000 * MS));
}

TEST(slow_flow_left_to_the_watermark)
{
	struct logger_pace p;

	logger_pace_init(&p, 6);
	logger_pace_found(&p, 6, T0);
	/* One buffer in 100 ms: 4 would take 400, beyond the timer's 100. */
	logger_pace_found(&p, 1, T0 + 100 * MS);
	EXPECT_EQ(-1, logger_pace_timeout(&p, T0 + 100 * MS));
	/* Exactly 4 in 100 ms keeps the timer. */
	logger_pace_found(&p, 6, T0 + 1000 * MS);
	logger_pace_found(&p, 4, T0 + 1100 * MS);
	EXPECT_EQ(100, logger_pace_timeout(&p, T0 + 1100 * MS));
}

TEST(small_watermarks)
{
	struct logger_pace p;

	logger_pace_init(&p, 0);
	EXPECT_EQ(1, p.target);
	logger_pace_init(&p, 1);
	EXPECT_EQ(1, p.target);
	logger_pace_init(&p, 2);
	EXPECT_EQ(1, p.target);
	logger_pace_init(&p, 5);
	EXPECT_EQ(3, p.target);
}

/* ControlTrace UPDATE raised the watermark: the next period aims at it. */
TEST(watermark_follows_update)
{
	struct logger_pace p;

	logger_pace_init(&p, 4);
	logger_pace_found(&p, 4, T0);
	logger_pace_watermark(&p, 16);
	EXPECT_EQ(12, p.target);
	EXPECT_EQ(100, logger_pace_timeout(&p, T0));	/* the look planned stays */
	logger_pace_found(&p, 6, T0 + 6 * MS);
	EXPECT_EQ(12 * MS, p.period);
}

TEST_HARNESS_MAIN
