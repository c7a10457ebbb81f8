/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The session clock: the timestamp of every record and buffer, the "QPC"
 * of our ETL files (ClockType 1).  Chosen once, at load (clock.c): the
 * TSC where it is one clock for the whole machine (invariant and stable),
 * as Windows' QPC is on such machines, else CLOCK_MONOTONIC in ns.
 */
#ifndef _ETW_CLOCK_H
#define _ETW_CLOCK_H

#include <linux/jump_label.h>
#include <linux/ktime.h>
#include <linux/types.h>
#include <asm/msr.h>

DECLARE_STATIC_KEY_FALSE(etw_clock_tsc);

/*
 * The TSC ordered after the instructions before it (lfence or rdtscp),
 * as the kernel's own TSC clocksource reads it: an event written after
 * another event, or after a lock its writer took, never gets an earlier
 * time on any CPU.  A static branch, so the test costs nothing.
 */
static __always_inline u64 etw_clock(void)
{
	if (static_branch_likely(&etw_clock_tsc))
		return rdtsc_ordered();
	return ktime_get_ns();
}

int etw_clock_init(void);
u64 etw_clock_frequency(void);
void etw_clock_start(u64 *realtime_ns, u64 *ticks);

#endif /* _ETW_CLOCK_H */
