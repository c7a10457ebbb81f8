// SPDX-License-Identifier: GPL-2.0
/*
 * The session clock (module/clock.c), with etw.ko reloaded with each value
 * of its clock parameter: auto (the TSC where /proc/cpuinfo says it is
 * invariant, else CLOCK_MONOTONIC: TCG's VMs cannot say it), mono, and
 * tsc.  In each: the parameter names the clock, every session reports it
 * (ClockType 1, its
 * frequency), the start pair and every record's TimeStamp are that clock
 * (bracketed by reading it from user space), the frequency is its rate
 * (two events 300 ms apart are 300 ms apart), the start FILETIME turns a
 * TimeStamp into the real time, and one thread's events are in time order
 * on each CPU and across CPUs; an unknown value is refused.  Needs root
 * and ETW_MODULE; leaves the module loaded as the VM's init loaded it.
 */
#include <sched.h>
#include <stdio.h>
#include <time.h>

#include "kselftest_harness.h"
#include "etw_selftests.h"
#include "etw_kmod.h"
#include "etw_clock.h"

#define GAP_MS		300
#define EVENTS		200

/* 100 ns intervals since 1601 (FILETIME) of a CLOCK_REALTIME reading. */
static __u64 filetime_of(__u64 realtime_ns)
{
	return realtime_ns / 100 + 11644473600ULL * 10000000ULL;
}

static void sleep_ms(unsigned int ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	while (nanosleep(&ts, &ts))
		;
}

/* Reload etw.ko with @args: 0 or the load's -errno (then unloaded). */
static int reload(const char *path, const char *args)
{
	int ret = etw_module_unload();

	if (ret)
		return ret;
	return etw_module_load_args(path, args);
}

FIXTURE(clk)
{
	int fd;
	__u32 reg, s;
	__u8 guid[16];
	enum etw_test_clock clock;
	struct etw_session_info info;
};

/* @args: the parameters of the reload. */
FIXTURE_VARIANT(clk)
{
	const char *args;
};

FIXTURE_VARIANT_ADD(clk, auto) { .args = "clock=auto" };
FIXTURE_VARIANT_ADD(clk, mono) { .args = "clock=mono" };
FIXTURE_VARIANT_ADD(clk, tsc) { .args = "clock=tsc" };

FIXTURE_SETUP(clk)
{
	const char *path = getenv("ETW_MODULE");

	self->fd = -1;
	etw_require_root(_metadata);
	if (!path)
		SKIP(return, "needs ETW_MODULE=<path of etw.ko>");
	ASSERT_EQ(0, reload(path, variant->args));
	self->clock = etw_test_clock();
	self->fd = etw_open_or_skip(_metadata);
	etw_stop_test_sessions(self->fd);
	etw_test_guid(self->guid, 0x71);
	ASSERT_EQ(0, etw_register_simple(self->fd, self->guid, &self->reg));
	ASSERT_EQ(0, etw_session_start_simple(self->fd, "etwtest-clock", 0, 64, 0, &self->s));
	ASSERT_EQ(0, etw_session_ctl(self->fd, self->s, ETW_CONTROL_QUERY, &self->info));
	ASSERT_EQ(0, etw_enable_simple(self->fd, self->s, self->guid, 1, 0, 0, 0, 0));
}

FIXTURE_TEARDOWN(clk)
{
	const char *path = getenv("ETW_MODULE");

	if (self->fd >= 0) {
		etw_stop_test_sessions(self->fd);
		close(self->fd);
	}
	if (path) {
		etw_module_unload();
		etw_module_load(path);
	}
}

/* Whether the line of /proc/cpuinfo's first CPU's flags has @flag. */
static bool cpu_flag(const char *flag)
{
	char line[4096], *tok, *save;
	bool found = false;
	FILE *f = fopen("/proc/cpuinfo", "r");

	if (!f)
		return false;
	while (!found && fgets(line, sizeof(line), f)) {
		if (strncmp(line, "flags", 5))
			continue;
		for (tok = strtok_r(line, " \t\n", &save); tok && !found;
		     tok = strtok_r(NULL, " \t\n", &save))
			found = !strcmp(tok, flag);
		break;
	}
	fclose(f);
	return found;
}

/*
 * What "auto" must choose: the TSC when the CPU says it is invariant (or
 * the platform reliable) and the kernel still uses it (a TSC the kernel
 * found unstable is no longer its clocksource); CLOCK_MONOTONIC when the
 * CPU does not say so.  -1: no rule (invariant, but another clocksource).
 */
static int auto_expected(void)
{
	char cs[64] = "";
	bool invariant = cpu_flag("tsc_reliable") ||
			 (cpu_flag("constant_tsc") && cpu_flag("nonstop_tsc"));

	if (!invariant)
		return ETW_TEST_CLOCK_MONO;
	etw_read_file("/sys/devices/system/clocksource/clocksource0/current_clocksource",
		      cs, sizeof(cs));
	return strcmp(cs, "tsc\n") ? -1 : ETW_TEST_CLOCK_TSC;
}

/* The parameter reads the clock in use; the session reports its rate. */
TEST_F(clk, reported)
{
	char buf[16];

	ASSERT_EQ(0, etw_read_file(ETW_PARAM("clock"), buf, sizeof(buf)));
	if (strcmp(variant->args, "clock=auto")) {
		EXPECT_STREQ(variant->args + strlen("clock="), strtok(buf, "\n"));
	} else if (auto_expected() >= 0) {
		EXPECT_EQ(auto_expected(), self->clock) TH_LOG("auto chose %s", buf);
	} else {
		EXPECT_TRUE(!strcmp(buf, "tsc\n") || !strcmp(buf, "mono\n")) TH_LOG("%s", buf);
	}
	EXPECT_EQ(1, self->info.clock_type);
	/* The TSC's rate is tsc_khz * 1000: measured below. */
	if (self->clock == ETW_TEST_CLOCK_MONO) {
		EXPECT_EQ(1000000000ULL, self->info.frequency);
	} else {
		EXPECT_EQ(0, self->info.frequency % 1000);
		EXPECT_LE(1000000ULL, self->info.frequency);
	}
}

struct stamps {
	__u64 ts[EVENTS];
	__u32 cpu[EVENTS];
	__u64 last[CPU_SETSIZE];
	long n, out_of_order;
};

static int keep_stamp(const struct etw_test_event_header *h, const __u8 *b,
		      __u32 cpu, void *ctx)
{
	struct stamps *st = ctx;

	if (h->desc.id >= EVENTS || cpu >= CPU_SETSIZE)
		return -1;
	/* Each CPU's buffer holds its records in the order written. */
	st->out_of_order += h->timestamp < st->last[cpu];
	st->last[cpu] = h->timestamp;
	st->ts[h->desc.id] = h->timestamp;
	st->cpu[h->desc.id] = cpu;
	st->n++;
	return 0;
}

/* The session's start pair and a record's time, bracketed by the clock. */
TEST_F(clk, start_and_record_in_the_clock)
{
	struct etw_session_info info;
	struct stamps st = { 0 };
	__u64 c0, c1, r0, r1;
	__u32 id;

	r0 = etw_test_clock_ns(CLOCK_REALTIME);
	c0 = etw_test_clock_read(self->clock);
	ASSERT_EQ(0, etw_session_start_simple(self->fd, "etwtest-clock2", 0, 8, 0, &id));
	c1 = etw_test_clock_read(self->clock);
	r1 = etw_test_clock_ns(CLOCK_REALTIME);
	ASSERT_EQ(0, etw_session_ctl(self->fd, id, ETW_CONTROL_QUERY, &info));
	EXPECT_EQ(self->info.frequency, info.frequency);
	EXPECT_LE(c0, info.start_ticks);
	EXPECT_GE(c1, info.start_ticks);
	EXPECT_LE(filetime_of(r0), info.start_time);
	EXPECT_GE(filetime_of(r1) + 1, info.start_time);

	c0 = etw_test_clock_read(self->clock);
	ASSERT_EQ(0, etw_write_simple(self->fd, self->reg, 1, 4, 0, NULL, 0));
	c1 = etw_test_clock_read(self->clock);
	ASSERT_EQ(1, etw_drain(self->fd, self->s, keep_stamp, &st));
	EXPECT_LE(c0, st.ts[1]);
	EXPECT_GE(c1, st.ts[1]);
}

/*
 * Two events GAP_MS apart by CLOCK_MONOTONIC are GAP_MS apart in ticks at
 * the reported frequency (10% and 20 ms of slack: the host is loaded),
 * and the second one's FILETIME, from the start pair, is the real time
 * it was written within two seconds.
 */
TEST_F(clk, frequency_and_filetime)
{
	struct stamps st = { 0 };
	__u64 a0, a1, b0, b1, r0, r1, ms, ft;
	const struct etw_session_info *in = &self->info;

	sleep_ms(GAP_MS);
	a0 = etw_test_clock_ns(CLOCK_MONOTONIC);
	ASSERT_EQ(0, etw_write_simple(self->fd, self->reg, 1, 4, 0, NULL, 0));
	a1 = etw_test_clock_ns(CLOCK_MONOTONIC);
	sleep_ms(GAP_MS);
	r0 = etw_test_clock_ns(CLOCK_REALTIME);
	b0 = etw_test_clock_ns(CLOCK_MONOTONIC);
	ASSERT_EQ(0, etw_write_simple(self->fd, self->reg, 2, 4, 0, NULL, 0));
	b1 = etw_test_clock_ns(CLOCK_MONOTONIC);
	r1 = etw_test_clock_ns(CLOCK_REALTIME);
	ASSERT_EQ(2, etw_drain(self->fd, self->s, keep_stamp, &st));
	ASSERT_LT(st.ts[1], st.ts[2]);
	ASSERT_NE(0, in->frequency);

	ms = (st.ts[2] - st.ts[1]) * 1000 / in->frequency;
	TH_LOG("%llu ms between the events at %llu Hz; %llu to %llu ms by CLOCK_MONOTONIC",
	       (unsigned long long)ms, (unsigned long long)in->frequency,
	       (unsigned long long)(b0 - a1) / 1000000, (unsigned long long)(b1 - a0) / 1000000);
	EXPECT_LE((b0 - a1) / 1000000 * 9 / 10, ms + 20);
	EXPECT_GE((b1 - a0) / 1000000 * 11 / 10 + 20, ms);

	ASSERT_LE(in->start_ticks, st.ts[2]);
	ft = in->start_time + (st.ts[2] - in->start_ticks) * 10000000 / in->frequency;
	EXPECT_LE(filetime_of(r0) - 20000000, ft);
	EXPECT_GE(filetime_of(r1) + 20000000, ft);
}

/*
 * One thread writing from each CPU in turn: on each CPU its records are
 * in time order, and, the clock being one for the whole machine, so are
 * all of them in the order written.
 */
TEST_F(clk, ordered_on_each_cpu_and_across)
{
	struct stamps st = { 0 };
	int i, backwards = 0, first = 0;

	for (i = 0; i < EVENTS; i++) {
		ASSERT_EQ(0, etw_pin_cpu(i % 2));
		ASSERT_EQ(0, etw_write_simple(self->fd, self->reg, i, 4, 0, NULL, 0));
	}
	ASSERT_EQ(EVENTS, etw_drain(self->fd, self->s, keep_stamp, &st));
	EXPECT_EQ(0, st.out_of_order);
	for (i = 1; i < EVENTS; i++) {
		if (st.ts[i - 1] > st.ts[i] && !backwards++)
			first = i;
	}
	EXPECT_EQ(0, backwards) TH_LOG("event %d (cpu %u) after %d (cpu %u) in time",
				       first - 1, st.cpu[first - 1], first, st.cpu[first]);
	if (sysconf(_SC_NPROCESSORS_ONLN) > 1)
		EXPECT_NE(st.cpu[0], st.cpu[1]);
}

/* An unknown clock is refused at load (EINVAL), and the module stays out. */
TEST(unknown_clock_refused)
{
	const char *path = getenv("ETW_MODULE");

	if (!path || geteuid())
		SKIP(return, "needs root and ETW_MODULE=<path of etw.ko>");
	EXPECT_EQ(-EINVAL, reload(path, "clock=hpet"));
	EXPECT_FALSE(etw_module_loaded());
	ASSERT_EQ(0, etw_module_load(path));
}

TEST_HARNESS_MAIN
