// SPDX-License-Identifier: MIT
/*
 * kernel32's VerSetConditionMask and VerifyVersionInfo: the version a
 * program is checked against is GetVersionEx's (6.2, build 9200, no
 * service pack, a workstation), what Windows tells a program without a
 * compatibility manifest; so IsWindows8OrGreater() is true and
 * IsWindows10OrGreater() false, as there.
 */
#include <windows.h>
#include <etw_win32.h>

#include "../common/internal.h"

/* Three bits of condition per type, the type's bit number the slot. */
ETW_EXPORT ULONGLONG WINAPI VerSetConditionMask(ULONGLONG ConditionMask, DWORD TypeMask,
						BYTE Condition)
{
	static const DWORD order[] = { VER_PRODUCT_TYPE, VER_SUITENAME,
				       VER_SERVICEPACKMAJOR, VER_SERVICEPACKMINOR,
				       VER_PLATFORMID, VER_BUILDNUMBER,
				       VER_MAJORVERSION, VER_MINORVERSION };
	unsigned int i, slot;

	Condition &= 7;
	if (!TypeMask || !Condition)
		return ConditionMask;
	/* One type per call: the first of Windows' order in the mask. */
	for (i = 0; i < sizeof(order) / sizeof(order[0]); i++) {
		if (!(TypeMask & order[i]))
			continue;
		slot = (unsigned int)__builtin_ctz(order[i]);
		return ConditionMask | ((ULONGLONG)Condition << (slot * 3));
	}
	return ConditionMask;
}

static BYTE cond_of(DWORDLONG mask, DWORD type)
{
	return (BYTE)((mask >> (__builtin_ctz(type) * 3)) & 7);
}

/* @cmp is <0, 0, >0 for the system's value against the asked one. */
static int holds(BYTE cond, int cmp)
{
	switch (cond) {
	case VER_EQUAL:
		return cmp == 0;
	case VER_GREATER:
		return cmp > 0;
	case VER_GREATER_EQUAL:
		return cmp >= 0;
	case VER_LESS:
		return cmp < 0;
	case VER_LESS_EQUAL:
		return cmp <= 0;
	default:
		return 0;
	}
}

static int cmp_u(DWORD sys, DWORD asked)
{
	return sys < asked ? -1 : sys > asked;
}

struct version_ask {
	DWORD major, minor, build, platform;
	WORD sp_major, sp_minor, suite;
	BYTE product;
};

static BOOL verify(const struct version_ask *a, DWORD type, DWORDLONG mask)
{
	/* The system: 6.2.9200, platform NT, no service pack, workstation. */
	static const DWORD sys[4] = { 6, 2, 0, 0 };
	const DWORD asked[4] = { a->major, a->minor, a->sp_major, a->sp_minor };
	static const DWORD types[4] = { VER_MAJORVERSION, VER_MINORVERSION,
					VER_SERVICEPACKMAJOR, VER_SERVICEPACKMINOR };
	int ok = 1, decided = 0;
	unsigned int i;

	if (!type || (type & ~0xFFu)) {
		SetLastError(ERROR_INVALID_PARAMETER);
		return FALSE;
	}
	/*
	 * Major, minor and the service pack compare as one version number,
	 * most significant first; each of the other types on its own.
	 */
	for (i = 0; i < 4 && !decided; i++) {
		int c;

		if (!(type & types[i]))
			continue;
		c = cmp_u(sys[i], asked[i]);
		if (c) {
			ok = holds(cond_of(mask, types[i]), c);
			decided = 1;
		}
	}
	if (!decided) {
		for (i = 0; i < 4; i++)
			if ((type & types[i]) && !holds(cond_of(mask, types[i]), 0))
				ok = 0;
	}
	if ((type & VER_BUILDNUMBER) &&
	    !holds(cond_of(mask, VER_BUILDNUMBER), cmp_u(9200, a->build)))
		ok = 0;
	if ((type & VER_PLATFORMID) &&
	    !holds(cond_of(mask, VER_PLATFORMID), cmp_u(VER_PLATFORM_WIN32_NT, a->platform)))
		ok = 0;
	if ((type & VER_PRODUCT_TYPE) &&
	    !holds(cond_of(mask, VER_PRODUCT_TYPE), cmp_u(VER_NT_WORKSTATION, a->product)))
		ok = 0;
	/* No suite: VER_AND of any suite fails, VER_OR of none holds. */
	if ((type & VER_SUITENAME) && a->suite &&
	    cond_of(mask, VER_SUITENAME) == VER_AND)
		ok = 0;
	if (!ok) {
		SetLastError(ERROR_OLD_WIN_VERSION);
		return FALSE;
	}
	return TRUE;
}

/* What is asked, from either structure: their fields have one name. */
#define VERSION_ASK(v) ((struct version_ask){ (v)->dwMajorVersion, (v)->dwMinorVersion, \
	(v)->dwBuildNumber, (v)->dwPlatformId, (v)->wServicePackMajor, \
	(v)->wServicePackMinor, (v)->wSuiteMask, (v)->wProductType })

static BOOL no_info(void)
{
	SetLastError(ERROR_INVALID_PARAMETER);
	return FALSE;
}

ETW_EXPORT BOOL WINAPI VerifyVersionInfoW(LPOSVERSIONINFOEXW v, DWORD dwTypeMask,
					  DWORDLONG dwlConditionMask)
{
	return v ? verify(&VERSION_ASK(v), dwTypeMask, dwlConditionMask) : no_info();
}

ETW_EXPORT BOOL WINAPI VerifyVersionInfoA(LPOSVERSIONINFOEXA v, DWORD dwTypeMask,
					  DWORDLONG dwlConditionMask)
{
	return v ? verify(&VERSION_ASK(v), dwTypeMask, dwlConditionMask) : no_info();
}
