// SPDX-License-Identifier: GPL-2.0
/*
 * Every header at once, as C11 with -Wall -Wextra -Werror, in both modes
 * and both ABIs (libetw/build.mk compiles it with -fsyntax-only).
 */
#define UNICODE
#define _UNICODE
#include <windows.h>
/* Windows' <windows.h> brings <limits.h>; TDH samples use ULONG_MAX. */
#if defined(LIBETW_WINDOWS_SOURCE) && !defined(ULONG_MAX)
#error "<windows.h> without <limits.h> in Windows-source mode"
#endif
#include <tchar.h>
#include <strsafe.h>
#include <shellapi.h>
#include <sddl.h>
#include <conio.h>
#include <intsafe.h>
#include <in6addr.h>
#include <initguid.h>
#include <wmistr.h>
#include <evntprov.h>
#include <evntrace.h>
#include <evntcons.h>
#include <TraceLoggingProvider.h>
#include <tdh.h>
#include <wbemidl.h>
#include <comdef.h>

int main(void)
{
	return 0;
}
