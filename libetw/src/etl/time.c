// SPDX-License-Identifier: MIT
/*
 * Record timestamps to FILETIME.  A file has one clock (ReservedFlags);
 * the header event's timestamp was taken at StartTime, so
 *   FILETIME = StartTime + (timestamp - sync) * 10^7 / rate.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "internal.h"

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

/* @n as exactly @width decimal digits, most significant first. */
static char *put_digits(char *p, unsigned int n, int width)
{
	for (int i = width - 1; i >= 0; i--) {
		p[i] = (char)('0' + n % 10);
		n /= 10;
	}
	return p + width;
}

/*
 * Days since 1970-01-01 to a proleptic Gregorian date, by 400-year eras
 * (each exactly 146097 days) counted from 0000-03-01, so that the leap
 * day ends the year.  Called for every record `etw dump` prints:
 * gmtime_r() and snprintf() cost thousands of instructions per call.
 */
static void civil_from_days(int64_t z, int64_t *y, unsigned int *m,
			    unsigned int *d)
{
	int64_t era, yoe, doy, mp;

	z += 719468;
	era = (z >= 0 ? z : z - 146096) / 146097;
	yoe = z - era * 146097;
	yoe = (yoe - yoe / 1460 + yoe / 36524 - yoe / 146096) / 365;
	doy = z - era * 146097 - (365 * yoe + yoe / 4 - yoe / 100);
	mp = (5 * doy + 2) / 153;
	*d = (unsigned int)(doy - (153 * mp + 2) / 5 + 1);
	*m = (unsigned int)(mp < 10 ? mp + 3 : mp - 9);
	*y = yoe + era * 400 + (*m <= 2);
}

ETW_EXPORT int etw_etl_format_filetime(uint64_t ft, char *buf, size_t size)
{
	/* FILETIME counts from 1601-01-01, 134774 days before 1970. */
	int64_t secs = (int64_t)(ft / FILETIME_HZ), days, year;
	unsigned int sod, mon, mday;
	char text[32], *p = text;

	days = secs / 86400 - 134774;
	sod = (unsigned int)(secs % 86400);
	civil_from_days(days, &year, &mon, &mday);
	if (year > 9999) {
		snprintf(buf, size, "%s", "");
		return -ERANGE;
	}
	p = put_digits(p, (unsigned int)year, 4);
	*p++ = '-';
	p = put_digits(p, mon, 2);
	*p++ = '-';
	p = put_digits(p, mday, 2);
	*p++ = 'T';
	p = put_digits(p, sod / 3600, 2);
	*p++ = ':';
	p = put_digits(p, sod / 60 % 60, 2);
	*p++ = ':';
	p = put_digits(p, sod % 60, 2);
	*p++ = '.';
	p = put_digits(p, (unsigned int)(ft % FILETIME_HZ), 7);
	*p++ = 'Z';
	if (size) {
		size_t n = (size_t)(p - text) < size ? (size_t)(p - text) : size - 1;

		memcpy(buf, text, n);
		buf[n] = '\0';
	}
	return 0;
}
