// SPDX-License-Identifier: GPL-2.0
/*
 * The headers as Windows programs spell them (Windows' file systems
 * ignore case), the small headers around <windows.h>, standard headers
 * after <windows.h>, and SAL annotations of every kind, as C11 and C++
 * with -Wall -Wextra -Werror, in both modes (libetw/build.mk compiles it
 * with -fsyntax-only against libetw/include and the build's
 * include-case directory, as installed).
 */
#define UNICODE
#define _UNICODE
#include <Windows.h>
#include <WinDef.h>
#include <MinWinDef.h>
#include <BaseTsd.h>
#include <WinNT.h>
#include <WinBase.h>
#include <WinError.h>
#include <ObjBase.h>
#include <winapifamily.h>
#include <VersionHelpers.h>
#include <SDKDDKVer.h>
#include <WinSock2.h>
#include <WS2tcpip.h>
#include <SpecStrings.h>
#include <Sal.h>
#include <StrSafe.h>
#include <Evntrace.h>
#include <Evntprov.h>
#include <Evntcons.h>
#include <Tdh.h>
#include <In6addr.h>
#include <WMISTR.H>
#include <TCHAR.H>
/* Standard headers after <windows.h> (libstdc++ names parameters __in). */
#ifdef __cplusplus
#include <thread>
#include <regex>
#include <filesystem>
#include <charconv>
#include <complex>
#include <future>
#include <string>
#include <string_view>
#else
#include <link.h>
#include <envz.h>
#include <signal.h>
#endif
#include <stdio.h>
#include <wchar.h>

#if !WINAPI_FAMILY_PARTITION(WINAPI_PARTITION_DESKTOP)
#error "a desktop program"
#endif

/* SAL 2, 1.5 and 1 as Windows headers and samples write them. */
_Success_(return == 0) _Check_return_
static ULONG annotated(_In_reads_bytes_(n) const void *in, _In_ ULONG n,
		       _Out_writes_bytes_to_(cap, *got) PBYTE out, _In_ ULONG cap,
		       _Out_ _Deref_out_range_(0, cap) ULONG *got,
		       _In_count_x_(n) const BYTE *x, _Inout_updates_opt_(1) ULONG *count,
		       _Outptr_result_maybenull_ PVOID *ptr, _In_z_ LPCWSTR name,
		       _Printf_format_string_ LPCSTR fmt, _Reserved_ PVOID reserved,
		       _When_(n > 0, _Out_) LPLONG lp, _COM_Outptr_opt_ PVOID *com,
		       _Field_range_(0, 1) int flag)
{
	UNREFERENCED_PARAMETER(x);
	UNREFERENCED_PARAMETER(name);
	UNREFERENCED_PARAMETER(fmt);
	UNREFERENCED_PARAMETER(reserved);
	UNREFERENCED_PARAMETER(lp);
	UNREFERENCED_PARAMETER(com);
	_Analysis_assume_(n <= cap);
	__analysis_assume(got != NULL);
	memcpy(out, in, n < cap ? n : cap);
	*got = n < cap ? n : cap;
	if (count)
		(*count)++;
	*ptr = NULL;
	return (ULONG)flag;
}

static ULONG __cdecl sal1(__in_bcount(n) const void *in, __in ULONG n,
			  __out_ecount_part(cap, *got) PWSTR out, __in ULONG cap,
			  __out_opt ULONG *got, __inout_opt PULONG count,
			  __deref_out_opt PVOID *ptr, __in_z_opt LPCWSTR opt,
			  __reserved PVOID reserved)
{
	UNREFERENCED_PARAMETER(in);
	UNREFERENCED_PARAMETER(opt);
	UNREFERENCED_PARAMETER(reserved);
	switch (n) {
	case 0:
		if (count)
			(*count)++;
		__fallthrough;
	default:
		break;
	}
	if (got)
		*got = cap;
	*ptr = out;
	return n;
}

int main(void)
{
	BYTE in[4] = { 1, 2, 3, 4 }, out[4];
	ULONG got = 0, count = 0;
	PVOID p;
	LONG l;
	WCHAR w[4];
	LPCBYTE cb = in;
	SOCKADDR_IN6 sa6;

	memset(&sa6, 0, sizeof(sa6));
	annotated(in, 4, out, 4, &got, cb, &count, &p, TEXT("x"), "%d", NULL, &l, NULL, 0);
	sal1(in, 0, w, 4, &got, &count, &p, NULL, NULL);
#ifdef __cplusplus
	return IsWindows8OrGreater() && GUID_NULL != GUID_NULL && sa6.sin6_port;
#else
	return IsWindows8OrGreater() && !IsEqualGUID(&GUID_NULL, &GUID_NULL) && sa6.sin6_port;
#endif
}
