/* SPDX-License-Identifier: MIT */
/*
 * <VersionHelpers.h>: IsWindows...OrGreater over VerifyVersionInfoW,
 * which answers for Windows 8 (6.2, build 9200): what Windows tells a
 * program without a compatibility manifest.
 */
#ifndef LIBETW_VERSIONHELPERS_H
#define LIBETW_VERSIONHELPERS_H

#include "windows.h"
#include "etw_win32.h"
#include "sdkddkver.h"

#ifdef __cplusplus
#define VERSIONHELPERAPI	inline bool
#else
#define VERSIONHELPERAPI	static inline BOOL
#endif

VERSIONHELPERAPI IsWindowsVersionOrGreater(WORD wMajorVersion, WORD wMinorVersion,
					   WORD wServicePackMajor)
{
	OSVERSIONINFOEXW osvi;
	DWORDLONG mask = VerSetConditionMask(
		VerSetConditionMask(VerSetConditionMask(0, VER_MAJORVERSION, VER_GREATER_EQUAL),
				    VER_MINORVERSION, VER_GREATER_EQUAL),
		VER_SERVICEPACKMAJOR, VER_GREATER_EQUAL);

	memset(&osvi, 0, sizeof(osvi));
	osvi.dwOSVersionInfoSize = sizeof(osvi);
	osvi.dwMajorVersion = wMajorVersion;
	osvi.dwMinorVersion = wMinorVersion;
	osvi.wServicePackMajor = wServicePackMajor;
	return VerifyVersionInfoW(&osvi, VER_MAJORVERSION | VER_MINORVERSION |
				  VER_SERVICEPACKMAJOR, mask) != FALSE;
}

#define LIBETW_VERSION_HELPER(name, ver, sp) \
	VERSIONHELPERAPI name(void) \
	{ \
		return IsWindowsVersionOrGreater(HIBYTE(ver), LOBYTE(ver), sp); \
	}
LIBETW_VERSION_HELPER(IsWindowsXPOrGreater, _WIN32_WINNT_WINXP, 0)
LIBETW_VERSION_HELPER(IsWindowsXPSP1OrGreater, _WIN32_WINNT_WINXP, 1)
LIBETW_VERSION_HELPER(IsWindowsXPSP2OrGreater, _WIN32_WINNT_WINXP, 2)
LIBETW_VERSION_HELPER(IsWindowsXPSP3OrGreater, _WIN32_WINNT_WINXP, 3)
LIBETW_VERSION_HELPER(IsWindowsVistaOrGreater, _WIN32_WINNT_VISTA, 0)
LIBETW_VERSION_HELPER(IsWindowsVistaSP1OrGreater, _WIN32_WINNT_VISTA, 1)
LIBETW_VERSION_HELPER(IsWindowsVistaSP2OrGreater, _WIN32_WINNT_VISTA, 2)
LIBETW_VERSION_HELPER(IsWindows7OrGreater, _WIN32_WINNT_WIN7, 0)
LIBETW_VERSION_HELPER(IsWindows7SP1OrGreater, _WIN32_WINNT_WIN7, 1)
LIBETW_VERSION_HELPER(IsWindows8OrGreater, _WIN32_WINNT_WIN8, 0)
LIBETW_VERSION_HELPER(IsWindows8Point1OrGreater, _WIN32_WINNT_WINBLUE, 0)
LIBETW_VERSION_HELPER(IsWindowsThresholdOrGreater, _WIN32_WINNT_WINTHRESHOLD, 0)
LIBETW_VERSION_HELPER(IsWindows10OrGreater, _WIN32_WINNT_WINTHRESHOLD, 0)
#undef LIBETW_VERSION_HELPER

/* A workstation, as GetVersionEx says (VER_NT_WORKSTATION). */
VERSIONHELPERAPI IsWindowsServer(void)
{
	OSVERSIONINFOEXW osvi;
	DWORDLONG mask = VerSetConditionMask(0, VER_PRODUCT_TYPE, VER_EQUAL);

	memset(&osvi, 0, sizeof(osvi));
	osvi.dwOSVersionInfoSize = sizeof(osvi);
	osvi.wProductType = VER_NT_WORKSTATION;
	return !VerifyVersionInfoW(&osvi, VER_PRODUCT_TYPE, mask);
}

#endif /* LIBETW_VERSIONHELPERS_H */
