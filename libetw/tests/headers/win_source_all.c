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
/* What a WPP source's .tmh includes, after the control GUIDs. */
#define WPP_CONTROL_GUIDS						\
	WPP_DEFINE_CONTROL_GUID(All, (6f8b0d3a, 52c4, 4e1f, 9a37, 1c2d3e4f5a6b), \
		WPP_DEFINE_BIT(One) WPP_DEFINE_BIT(Two))
#include <etw_wpp.h>

int main(void)
{
	return 0;
}
