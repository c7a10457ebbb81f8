/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The harness's per-test timeouts, times ETW_TIMEOUT_SCALE (an integer,
 * default 1): make check-debug's kernel (KASAN, lockdep, kmemleak) runs
 * the same tests several times slower than Debian's.  Every selftest is
 * built with this header included first (selftests/build.mk), so the
 * harness arms each test's timeout through etw_scaled_alarm().
 */
#ifndef ETW_TIMEOUT_SCALE_H
#define ETW_TIMEOUT_SCALE_H

#include <stdlib.h>
#include <unistd.h>

static inline unsigned int etw_scaled_alarm(unsigned int seconds)
{
	const char *v = getenv("ETW_TIMEOUT_SCALE");
	unsigned long scale = v ? strtoul(v, NULL, 10) : 1;

	if (scale < 1 || scale > 100)
		scale = 1;
	return alarm(seconds * scale);
}

#define alarm(seconds) etw_scaled_alarm(seconds)

#endif /* ETW_TIMEOUT_SCALE_H */
