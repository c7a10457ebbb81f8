// SPDX-License-Identifier: MIT
/*
 * kernel32's time functions (etw_win32.h): FILETIME is 100-ns intervals
 * since 1601-01-01 UTC, SYSTEMTIME its calendar form.  Conversions are
 * exact integer arithmetic on the proleptic Gregorian calendar, as
 * Windows' are; a FILETIME above 0x7FFFFFFFFFFFFFFF or an invalid
 * SYSTEMTIME is ERROR_INVALID_PARAMETER.
 */
#include <errno.h>
#include <stdint.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/syscall.h>

#include <windows.h>
#include <etw_win32.h>

#include "../common/internal.h"

#define TICKS_PER_SEC		10000000ULL
#define TICKS_PER_DAY		(86400ULL * TICKS_PER_SEC)
/* Days from 1601-01-01 to 1970-01-01. */
#define DAYS_1601_TO_1970	134774LL

/* Days since 1970-01-01 of a civil date (H. Hinnant's algorithm). */
static int64_t days_from_civil(int64_t y, unsigned int m, unsigned int d)
{
	int64_t era;
	unsigned int yoe, doy, doe;

	y -= m <= 2;
	era = (y >= 0 ? y : y - 399) / 400;
	yoe = (unsigned int)(y - era * 400);
	doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
	doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
	return era * 146097 + (int64_t)doe - 719468;
}

static void civil_from_days(int64_t z, int64_t *y, unsigned int *m, unsigned int *d)
{
	int64_t era;
	unsigned int doe, yoe, doy, mp;

	z += 719468;
	era = (z >= 0 ? z : z - 146096) / 146097;
	doe = (unsigned int)(z - era * 146097);
	yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
	doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
	mp = (5 * doy + 2) / 153;
	*d = doy - (153 * mp + 2) / 5 + 1;
	*m = mp < 10 ? mp + 3 : mp - 9;
	*y = (int64_t)yoe + era * 400 + (*m <= 2);
}

static unsigned int days_in_month(unsigned int y, unsigned int m)
{
	static const unsigned char dim[] = { 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31 };

	if (m == 2 && ((y % 4 == 0 && y % 100 != 0) || y % 400 == 0))
		return 29;
	return dim[m - 1];
}

static uint64_t ft_get(const FILETIME *ft)
{
	return (uint64_t)ft->dwHighDateTime << 32 | ft->dwLowDateTime;
}

static void ft_set(FILETIME *ft, uint64_t t)
{
	ft->dwLowDateTime = (DWORD)t;
	ft->dwHighDateTime = (DWORD)(t >> 32);
}

static void ticks_to_st(uint64_t t, SYSTEMTIME *st)
{
	int64_t days = (int64_t)(t / TICKS_PER_DAY) - DAYS_1601_TO_1970, y;
	uint64_t in_day = t % TICKS_PER_DAY;
	unsigned int m, d;

	civil_from_days(days, &y, &m, &d);
	st->wYear = (WORD)y;
	st->wMonth = (WORD)m;
	st->wDay = (WORD)d;
	/* 1601-01-01 was a Monday. */
	st->wDayOfWeek = (WORD)((t / TICKS_PER_DAY + 1) % 7);
	st->wHour = (WORD)(in_day / (3600 * TICKS_PER_SEC));
	st->wMinute = (WORD)(in_day / (60 * TICKS_PER_SEC) % 60);
	st->wSecond = (WORD)(in_day / TICKS_PER_SEC % 60);
	st->wMilliseconds = (WORD)(in_day / 10000 % 1000);
}

static int st_to_ticks(const SYSTEMTIME *st, uint64_t *t)
{
	int64_t days;

	if (st->wYear < 1601 || st->wYear > 30827 || st->wMonth < 1 || st->wMonth > 12 ||
	    st->wDay < 1 || st->wDay > days_in_month(st->wYear, st->wMonth) ||
	    st->wHour > 23 || st->wMinute > 59 || st->wSecond > 59 ||
	    st->wMilliseconds > 999)
		return -1;
	days = days_from_civil(st->wYear, st->wMonth, st->wDay) + DAYS_1601_TO_1970;
	*t = (uint64_t)days * TICKS_PER_DAY +
	     ((uint64_t)st->wHour * 3600 + st->wMinute * 60 + st->wSecond) * TICKS_PER_SEC +
	     (uint64_t)st->wMilliseconds * 10000;
	return 0;
}

ETW_EXPORT BOOL WINAPI FileTimeToSystemTime(const FILETIME *ft, LPSYSTEMTIME st)
{
	uint64_t t;

	if (!ft || !st || (t = ft_get(ft)) > INT64_MAX) {
		SetLastError(ERROR_INVALID_PARAMETER);
		return FALSE;
	}
	ticks_to_st(t, st);
	return TRUE;
}

ETW_EXPORT BOOL WINAPI SystemTimeToFileTime(const SYSTEMTIME *st, LPFILETIME ft)
{
	uint64_t t;

	if (!st || !ft || st_to_ticks(st, &t)) {
		SetLastError(ERROR_INVALID_PARAMETER);
		return FALSE;
	}
	ft_set(ft, t);
	return TRUE;
}

static uint64_t now_ticks(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return ((uint64_t)ts.tv_sec + DAYS_1601_TO_1970 * 86400ULL) * TICKS_PER_SEC +
	       (uint64_t)ts.tv_nsec / 100;
}

ETW_EXPORT void WINAPI GetSystemTimeAsFileTime(LPFILETIME ft)
{
	ft_set(ft, now_ticks());
}

ETW_EXPORT void WINAPI GetSystemTime(LPSYSTEMTIME st)
{
	ticks_to_st(now_ticks(), st);
}

/* The local time zone's offset from UTC (seconds east) at @unix_sec. */
static long local_offset(int64_t unix_sec)
{
	time_t t = (time_t)unix_sec;
	struct tm tm;

	if (!localtime_r(&t, &tm))
		return 0;
	return tm.tm_gmtoff;
}

ETW_EXPORT void WINAPI GetLocalTime(LPSYSTEMTIME st)
{
	uint64_t t = now_ticks();
	int64_t unix_sec = (int64_t)(t / TICKS_PER_SEC) - DAYS_1601_TO_1970 * 86400;

	ticks_to_st(t + (uint64_t)((int64_t)local_offset(unix_sec) * (int64_t)TICKS_PER_SEC), st);
}

ETW_EXPORT BOOL WINAPI FileTimeToLocalFileTime(const FILETIME *ft, LPFILETIME local)
{
	uint64_t t;

	if (!ft || !local) {
		SetLastError(ERROR_INVALID_PARAMETER);
		return FALSE;
	}
	t = ft_get(ft);
	/* As Windows: the offset in effect now, not at @ft. */
	ft_set(local, t + (uint64_t)((int64_t)local_offset(time(NULL)) * (int64_t)TICKS_PER_SEC));
	return TRUE;
}

/*
 * The instant (ticks, local clock) of a transition rule in @year: an
 * absolute date when wYear is set, else "the wDay'th wDayOfWeek of
 * wMonth" with 5 meaning the last.
 */
static int rule_ticks(const SYSTEMTIME *r, unsigned int year, uint64_t *t)
{
	SYSTEMTIME st = *r;
	unsigned int first_dow, day;
	int64_t days;

	if (r->wYear) {
		st.wYear = (WORD)year;
		return st_to_ticks(&st, t);
	}
	if (r->wMonth < 1 || r->wMonth > 12 || r->wDay < 1 || r->wDay > 5 || r->wDayOfWeek > 6)
		return -1;
	days = days_from_civil(year, r->wMonth, 1);
	first_dow = (unsigned int)((days % 7 + 7 + 4) % 7);	/* 1970-01-01: Thursday */
	day = 1 + (r->wDayOfWeek + 7 - first_dow) % 7 + 7 * (r->wDay - 1u);
	while (day > days_in_month(year, r->wMonth))
		day -= 7;
	st.wYear = (WORD)year;
	st.wDay = (WORD)day;
	st.wDayOfWeek = 0;
	return st_to_ticks(&st, t);
}

/*
 * SystemTimeToTzSpecificLocalTime: UTC to the local time of @tz (NULL:
 * this machine's zone).  Bias is minutes west, UTC = local + Bias +
 * StandardBias or DaylightBias; DaylightDate is given in standard time
 * and StandardDate in daylight time; no DaylightDate month: no DST.
 */
ETW_EXPORT BOOL WINAPI SystemTimeToTzSpecificLocalTime(const TIME_ZONE_INFORMATION *tz,
							const SYSTEMTIME *utc,
							LPSYSTEMTIME local)
{
	uint64_t t, start, end;
	int64_t bias;
	int dst = 0;

	if (!utc || !local || st_to_ticks(utc, &t)) {
		SetLastError(ERROR_INVALID_PARAMETER);
		return FALSE;
	}
	if (!tz) {
		int64_t unix_sec = (int64_t)(t / TICKS_PER_SEC) - DAYS_1601_TO_1970 * 86400;

		ticks_to_st(t + (uint64_t)((int64_t)local_offset(unix_sec) * (int64_t)TICKS_PER_SEC),
			    local);
		return TRUE;
	}
	if (tz->DaylightDate.wMonth && tz->StandardDate.wMonth) {
		if (rule_ticks(&tz->DaylightDate, utc->wYear, &start) ||
		    rule_ticks(&tz->StandardDate, utc->wYear, &end)) {
			SetLastError(ERROR_INVALID_PARAMETER);
			return FALSE;
		}
		start += (uint64_t)((int64_t)(tz->Bias + tz->StandardBias) * 60 * (int64_t)TICKS_PER_SEC);
		end += (uint64_t)((int64_t)(tz->Bias + tz->DaylightBias) * 60 * (int64_t)TICKS_PER_SEC);
		dst = start < end ? (t >= start && t < end) : (t >= start || t < end);
	}
	bias = (int64_t)tz->Bias + (dst ? tz->DaylightBias : tz->StandardBias);
	ticks_to_st(t - (uint64_t)(bias * 60 * (int64_t)TICKS_PER_SEC), local);
	return TRUE;
}

/*
 * GetTimeZoneInformation: the bias and names of this machine's zone; the
 * transition rules are not known to the C library, so the dates are zero
 * (the zone is reported without DST rules) and the return tells which of
 * the two is in effect now.
 */
ETW_EXPORT DWORD WINAPI GetTimeZoneInformation(LPTIME_ZONE_INFORMATION tz)
{
	time_t now = time(NULL);
	struct tm tm;
	unsigned int i;

	if (!tz) {
		SetLastError(ERROR_INVALID_PARAMETER);
		return TIME_ZONE_ID_INVALID;
	}
	memset(tz, 0, sizeof(*tz));
	tzset();
	localtime_r(&now, &tm);
	tz->Bias = (LONG)(-timezone / 60);
	tz->DaylightBias = daylight ? -60 : 0;
	for (i = 0; i < 31 && tzname[0][i]; i++)
		tz->StandardName[i] = (WCHAR)(unsigned char)tzname[0][i];
	for (i = 0; i < 31 && tzname[1][i]; i++)
		tz->DaylightName[i] = (WCHAR)(unsigned char)tzname[1][i];
	if (!daylight)
		return TIME_ZONE_ID_UNKNOWN;
	return tm.tm_isdst > 0 ? TIME_ZONE_ID_DAYLIGHT : TIME_ZONE_ID_STANDARD;
}

ETW_EXPORT ULONGLONG WINAPI GetTickCount64(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (ULONGLONG)ts.tv_sec * 1000 + (ULONGLONG)ts.tv_nsec / 1000000;
}

ETW_EXPORT DWORD WINAPI GetTickCount(void)
{
	return (DWORD)GetTickCount64();
}

/* Sleep(ms): the whole interval, signals notwithstanding. */
ETW_EXPORT void WINAPI Sleep(DWORD ms)
{
	struct timespec ts = { .tv_sec = ms / 1000, .tv_nsec = (long)(ms % 1000) * 1000000 };

	if (ms == INFINITE) {
		for (;;)
			pause();
	}
	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}
