// SPDX-License-Identifier: GPL-2.0
/*
 * Which clock the sessions use, decided once at load (the read-only
 * parameter "clock"):
 *
 *   auto  the TSC if it is usable as the clock of the whole machine,
 *         else CLOCK_MONOTONIC (the default)
 *   mono  CLOCK_MONOTONIC in nanoseconds, 10^9 Hz
 *   tsc   the TSC, which the administrator says is invariant (as
 *         tsc=reliable says it to the kernel, which does not tell
 *         modules): the load fails (-ENODEV) only if there is no TSC,
 *         its rate is unknown or the kernel has found it unstable
 *
 * "auto" takes the TSC when the CPU says that it runs at one rate in
 * every power state (constant and nonstop: CPUID's invariant TSC) or the
 * platform says that it is reliable, the kernel has not found it unstable,
 * and its rate is known (tsc_khz).  That is the case where Windows'
 * QueryPerformanceCounter is the TSC, and
 * reading it is one instruction where ktime_get_ns() is a call, a
 * sequence count and an indirect call of the clocksource.  The choice is
 * not revisited: a session's records must all be in one clock, and the
 * frequency is in its header.  Reading the parameter gives the clock in
 * use, "tsc" or "mono".
 */
#include <linux/irqflags.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/string.h>
#include <linux/time64.h>
#include <asm/cpufeature.h>
#include <asm/tsc.h>

#include "clock.h"

DEFINE_STATIC_KEY_FALSE(etw_clock_tsc);

enum etw_clock_mode { ETW_CLOCK_AUTO, ETW_CLOCK_MONO, ETW_CLOCK_TSC };

static const char * const etw_clock_names[] = {
	[ETW_CLOCK_AUTO] = "auto",
	[ETW_CLOCK_MONO] = "mono",
	[ETW_CLOCK_TSC] = "tsc",
};

static enum etw_clock_mode etw_clock_mode;
static u64 etw_clock_hz = NSEC_PER_SEC;

static int etw_clock_param_set(const char *val, const struct kernel_param *kp)
{
	int i = sysfs_match_string(etw_clock_names, val);

	if (i < 0)
		return -EINVAL;
	etw_clock_mode = i;
	return 0;
}

/* After the load: the clock in use, never "auto". */
static int etw_clock_param_get(char *buf, const struct kernel_param *kp)
{
	return sysfs_emit(buf, "%s\n", static_key_enabled(&etw_clock_tsc) ?
			  "tsc" : "mono");
}

static const struct kernel_param_ops etw_clock_param_ops = {
	.set = etw_clock_param_set,
	.get = etw_clock_param_get,
};

module_param_cb(clock, &etw_clock_param_ops, NULL, 0444);
MODULE_PARM_DESC(clock, "session clock: auto (TSC if invariant and stable, else CLOCK_MONOTONIC), mono, tsc (trusted invariant)");

/* The module is x86-64's (its user copies are, ucopy.h): a TSC to test. */
static bool etw_tsc_invariant(void)
{
	return boot_cpu_has(X86_FEATURE_TSC_RELIABLE) ||
	       (boot_cpu_has(X86_FEATURE_CONSTANT_TSC) &&
		boot_cpu_has(X86_FEATURE_NONSTOP_TSC));
}

static bool etw_tsc_readable(void)
{
	return boot_cpu_has(X86_FEATURE_TSC) && !check_tsc_unstable() && tsc_khz;
}

/* Choose the clock; before any session exists.  0 or -ENODEV. */
int etw_clock_init(void)
{
	bool tsc = false;

	if (etw_clock_mode == ETW_CLOCK_TSC) {
		if (!etw_tsc_readable())
			return -ENODEV;
		tsc = true;
	} else if (etw_clock_mode == ETW_CLOCK_AUTO) {
		tsc = etw_tsc_invariant() && etw_tsc_readable();
	}
	if (tsc) {
		etw_clock_hz = (u64)tsc_khz * 1000;
		static_branch_enable(&etw_clock_tsc);
	}
	return 0;
}

/* Ticks per second of etw_clock(): a session's Frequency, the file's PerfFreq. */
u64 etw_clock_frequency(void)
{
	return etw_clock_hz;
}

/*
 * A session's start: CLOCK_REALTIME and the session clock at the same
 * moment, the clock read on both sides of the real time and the middle
 * taken, with interrupts off so that nothing runs in between.  A reader
 * turns every record's time into a FILETIME from this pair.
 */
void etw_clock_start(u64 *realtime_ns, u64 *ticks)
{
	unsigned long flags;
	u64 t0, t1;

	local_irq_save(flags);
	t0 = etw_clock();
	*realtime_ns = ktime_get_real_ns();
	t1 = etw_clock();
	local_irq_restore(flags);
	*ticks = t0 + (t1 - t0) / 2;
}
