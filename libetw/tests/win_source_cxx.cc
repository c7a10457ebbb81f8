// SPDX-License-Identifier: GPL-2.0
/*
 * Windows-source mode's headers as C++ (-fsyntax-only, -Wall -Wextra
 * -Werror): every header together, the old SAL names after the standard
 * headers, wmain renamed for libetw_wmain.a, the C runtime's names
 * reaching libetw's functions, std::wstring and std::wcout (etw_wstring.h),
 * __FUNCSIG__ in a static_assert.
 * Built again with USE_WMI, where it must fail: <wbemidl.h> and
 * <comdef.h> are there for what they include, not for WMI or MSVC's COM
 * classes.
 */
#define UNICODE
#define _UNICODE

#include <windows.h>
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

/* Standard headers after <windows.h> still compile. */
#include <string>
#include <vector>
#include <map>
#include <iostream>

static_assert(sizeof(wchar_t) == 2, "-fshort-wchar");
static_assert(sizeof(WCHAR) == 2 && sizeof(L"ab") == 6, "UTF-16 literals");
/* MSVC's __FUNCSIG__ is a literal, which static_assert takes. */
static_assert(sizeof(L"" __FUNCSIG__) > 2, __FUNCSIG__);

TRACELOGGING_DEFINE_PROVIDER(g_provider, "Winsrc.Cxx",
	(0x1a2b3c4d, 0x1111, 0x2222, 0x33, 0x33, 0x44, 0x44, 0x55, 0x55, 0x66, 0x66));

static ULONG __cdecl sal1(__in PCWSTR name, __out_ecount(n) PWSTR out, __in ULONG n)
{
	return SUCCEEDED(StringCchCopyW(out, n, name)) ? (ULONG)wcslen(out) : 0;
}

static FORCEINLINE HRESULT sal2(_In_ PCWSTR s, _Out_ size_t *len)
{
	return StringCchLengthW(s, STRSAFE_MAX_CCH, len);
}

int __cdecl wmain(int argc, wchar_t **argv)
{
	WCHAR buf[64];
	size_t len;
	std::string s = "narrow strings work";
	std::vector<int> v = { 1, 2 };

	UNREFERENCED_PARAMETER(argc);
	wprintf(L"%s %S %d\n", argv[0], s.c_str(), std::min(v[0], v[1]));
	_tprintf(_T("%s\n"), _T("tchar"));
	sal1(L"x", buf, ARRAYSIZE(buf));
	TraceLoggingWrite(g_provider, "Event", TraceLoggingWideString(L"wide", "W"),
			  TraceLoggingValue(buf, "B"));
	std::cout << s << std::endl;
	return FAILED(sal2(buf, &len));
}

/* What Microsoft's TDH samples take from <wbemidl.h> and <comdef.h>. */
static int com_basics(REFCLSID clsid)
{
	LPOLESTR s = NULL;
	HRESULT hr = StringFromCLSID(clsid, &s);

	CoTaskMemFree(s);
	return FAILED(hr);
}
int (*com_basics_used)(REFCLSID) = com_basics;

#ifdef USE_WMI
IWbemLocator *wmi_locator;
_bstr_t com_string;
#endif

std::wstring wide = L"x";
void wout(void);
void wout(void)
{
	std::wcout << wide << L"x" << std::endl;
}
