// SPDX-License-Identifier: MIT
/*
 * Record timestamps to FILETIME.  A file has one clock (ReservedFlags);
 * the header event's timestamp was taken at StartTime, so
 *   FILETIME = StartTime + (timestamp - sync) * 10^7 / rate.
 */
#include <errno.h>
#include <stdio.h>
#include <time.h>

#include "etl_internal.h"

#define FILETIME_HZ	10000000ull

/* a * mul / div without overflow in between; saturates. */
static uint64_t mul_div(uint64_t a, uint64_t mul, uint64_t div)
{
#ifdef __SIZEOF_INT128__
	unsigned __int128 r = (unsigned __int128)a * mul / div;

	return r > UINT64_MAX ? UINT64_MAX : (uint64_t)r;
#else
	long double r = (long double)a * mul / div;

	return r >= 18446744073709551615.0L ? UINT64_MAX : (uint64_t)r;
#endif
}

bool etl_to_filetime(const struct etw_etl_header *h, uint64_t ts,
		     uint64_t *ft)
{
	uint64_t mul = FILETIME_HZ, div = h->perf_freq, d;

	/* Anything but these is read as QPC, the default clock. */
	if (h->reserved_flags == ETW_ETL_CLOCK_SYSTEM_TIME) {
		mul = 1;
		div = 1;
	} else if (h->reserved_flags == ETW_ETL_CLOCK_CPU_CYCLES) {
		mul = 10;
		div = h->cpu_speed_mhz;
	}
	if (!div)
		return false;
	if (ts >= h->sync_timestamp) {
		d = mul_div(ts - h->sync_timestamp, mul, div);
		*ft = d > UINT64_MAX - h->start_time ? UINT64_MAX : h->start_time + d;
	} else {
		d = mul_div(h->sync_timestamp - ts, mul, div);
		*ft = d > h->start_time ? 0 : h->start_time - d;
	}
	return true;
}

ETW_EXPORT int etw_etl_filetime(const struct etw_etl *etl, uint64_t timestamp,
				uint64_t *filetime)
{
	return etl_to_filetime(&etl->hdr, timestamp, filetime) ? 0 : -EDOM;
}

#define FILETIME_UNIX_EPOCH	116444736000000000ull

ETW_EXPORT int etw_etl_format_filetime(uint64_t ft, char *buf, size_t size)
{
	time_t secs = (time_t)(ft / FILETIME_HZ) -
		      (time_t)(FILETIME_UNIX_EPOCH / FILETIME_HZ);
	struct tm tm;

	if (!gmtime_r(&secs, &tm) || tm.tm_year > 9999 - 1900) {
		snprintf(buf, size, "%s", "");
		return -ERANGE;
	}
	snprintf(buf, size, "%04d-%02d-%02dT%02d:%02d:%02d.%07uZ",
		 tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday, tm.tm_hour,
		 tm.tm_min, tm.tm_sec, (unsigned int)(ft % FILETIME_HZ));
	return 0;
}
