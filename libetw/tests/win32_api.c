// SPDX-License-Identifier: GPL-2.0
/*
 * The Win32 functions and headers ETW programs use around the ETW calls
 * (etw_win32.h, strsafe.h, shellapi.h, sddl.h, intsafe.h, conio.h,
 * in6addr.h), each against its Learn page: built twice, in the default
 * mode (WCHAR is char16_t, TEXT("x") is u"x") and in Windows-source mode
 * (WCHAR is a 16-bit wchar_t, TEXT("x") is L"x"), where the same calls
 * must give the same results.  Also the MSVC keywords and SAL, which a
 * Windows program uses in both styles.
 */
#include "kselftest_harness.h"

#define UNICODE
#define _UNICODE
#include <windows.h>
#include <etw_win32.h>
#include <strsafe.h>
#include <shellapi.h>
#include <sddl.h>
#include <intsafe.h>
#include <conio.h>
#include <in6addr.h>
#include <tchar.h>
#include <objbase.h>
#include <winapifamily.h>
#include <versionhelpers.h>
#include <winsock2.h>
#include <ws2tcpip.h>
#include <basetsd.h>
#include <minwindef.h>

#include <pwd.h>
#include <time.h>
#include <unistd.h>

#define T(s)	TEXT(s)

/* MSVC's keywords and both SAL styles, as Windows sources write them. */
__declspec(selectany) const ULONG selectany_value = 7;
static __declspec(align(16)) __declspec(thread) int declspec_aligned;
static __declspec(noinline) int declspec_noinline(void)
{
	return (int)(((ULONG_PTR)&declspec_aligned) % 16);
}
static FORCEINLINE int __cdecl add_sal2(_In_ int a, _In_opt_ const int *b,
					_Out_writes_(1) int *out)
{
	*out = a + (b ? *b : 0);
	return *out;
}

static int add_sal1(__in int a, __in_ecount(n) const int *v, __in ULONG n,
		    __out int *out, __reserved void *unused)
{
	UNREFERENCED_PARAMETER(unused);
	*out = a;
	for (ULONG i = 0; i < n; i++)
		*out += v[i];
	return *out;
}

/* The SAL 1.5 forms, as the Learn TDH examples write them. */
static ULONG add_sal15(_In_count_(n) const ULONG *v, _In_ ULONG n,
		       _Out_bytecap_(sizeof(ULONG)) ULONG *out)
{
	*out = 0;
	for (ULONG i = 0; i < n; i++)
		*out += v[i];
	return *out;
}

_Static_assert(sizeof(__int64) == 8 && sizeof(__int32) == 4 && sizeof(__int16) == 2,
	       "__intN");
_Static_assert(sizeof(IN6_ADDR) == 16, "IN6_ADDR");

static size_t tlen(const TCHAR *s)
{
	size_t n = 0;

	while (s[n])
		n++;
	return n;
}

static int teq(const TCHAR *a, const TCHAR *b)
{
	size_t n = tlen(a);

	return n == tlen(b) && !memcmp(a, b, n * sizeof(TCHAR));
}

TEST(keywords_macros_hresult)
{
	int v[3] = { 1, 2, 3 }, out, b = 5;
	char buf[8] = "abcdefg";

	EXPECT_EQ(7, selectany_value);
	EXPECT_EQ(0, declspec_noinline());
	EXPECT_EQ(8, add_sal2(3, &b, &out));
	EXPECT_EQ(16, add_sal1(10, v, ARRAYSIZE(v), &out, NULL));
	{
		ULONG u[2] = { 4, 5 }, sum;

		EXPECT_EQ(9, add_sal15(u, 2, &sum));
	}
	EXPECT_EQ(3, _countof(v));
	ZeroMemory(buf, 3);
	EXPECT_EQ(0, buf[2]);
	EXPECT_EQ('d', buf[3]);
	RtlZeroMemory(buf, sizeof(buf));
	EXPECT_EQ(0, buf[7]);
	EXPECT_TRUE(SUCCEEDED(S_OK));
	EXPECT_TRUE(SUCCEEDED(S_FALSE));
	EXPECT_TRUE(FAILED(E_FAIL));
	EXPECT_EQ((HRESULT)0x80070005, HRESULT_FROM_WIN32(ERROR_ACCESS_DENIED));
	EXPECT_EQ(S_OK, HRESULT_FROM_WIN32(ERROR_SUCCESS));
	EXPECT_EQ(ERROR_ACCESS_DENIED, HRESULT_CODE(E_ACCESSDENIED));
	EXPECT_EQ(FACILITY_WIN32, HRESULT_FACILITY(E_INVALIDARG));
	EXPECT_EQ(15007, ERROR_EVT_CHANNEL_NOT_FOUND);
	EXPECT_EQ(15038, ERROR_EVT_FILTER_OUT_OF_RANGE);
}

TEST(version)
{
	OSVERSIONINFOEXW ex = { .dwOSVersionInfoSize = sizeof(ex) };
	OSVERSIONINFOA a = { .dwOSVersionInfoSize = sizeof(a) };
	OSVERSIONINFOW bad = { .dwOSVersionInfoSize = 12 };

	EXPECT_EQ(284, sizeof(OSVERSIONINFOEXW));
	EXPECT_EQ(276, sizeof(OSVERSIONINFOW));
	EXPECT_EQ(148, sizeof(OSVERSIONINFOA));
	/* What Windows 8.1 and later tell an unmanifested program. */
	ASSERT_TRUE(GetVersionExW((LPOSVERSIONINFOW)&ex));
	EXPECT_EQ(6, ex.dwMajorVersion);
	EXPECT_EQ(2, ex.dwMinorVersion);
	EXPECT_EQ(9200, ex.dwBuildNumber);
	EXPECT_EQ(VER_PLATFORM_WIN32_NT, ex.dwPlatformId);
	EXPECT_EQ(VER_NT_WORKSTATION, ex.wProductType);
	ASSERT_TRUE(GetVersionExA(&a));
	EXPECT_EQ(6, a.dwMajorVersion);
	EXPECT_FALSE(GetVersionExW(&bad));
	EXPECT_EQ(ERROR_INSUFFICIENT_BUFFER, GetLastError());
	EXPECT_EQ((DWORD)getpid(), GetCurrentProcessId());
}

static FILETIME ft_of(ULONGLONG t)
{
	FILETIME ft = { (DWORD)t, (DWORD)(t >> 32) };

	return ft;
}

TEST(file_time_to_system_time)
{
	SYSTEMTIME st;
	FILETIME ft = ft_of(116444736000000000ULL), back;	/* 1970-01-01 */

	ASSERT_TRUE(FileTimeToSystemTime(&ft, &st));
	EXPECT_EQ(1970, st.wYear);
	EXPECT_EQ(1, st.wMonth);
	EXPECT_EQ(1, st.wDay);
	EXPECT_EQ(4, st.wDayOfWeek);	/* Thursday */
	EXPECT_EQ(0, st.wHour);
	ft = ft_of(0);
	ASSERT_TRUE(FileTimeToSystemTime(&ft, &st));
	EXPECT_EQ(1601, st.wYear);
	EXPECT_EQ(1, st.wDayOfWeek);	/* Monday */
	/* 2024-02-29 23:59:59.999, a leap day, to the millisecond. */
	ft = ft_of(116444736000000000ULL + (1709251199ULL * 1000 + 999) * 10000 + 9999);
	ASSERT_TRUE(FileTimeToSystemTime(&ft, &st));
	EXPECT_EQ(2024, st.wYear);
	EXPECT_EQ(2, st.wMonth);
	EXPECT_EQ(29, st.wDay);
	EXPECT_EQ(23, st.wHour);
	EXPECT_EQ(59, st.wMinute);
	EXPECT_EQ(59, st.wSecond);
	EXPECT_EQ(999, st.wMilliseconds);
	EXPECT_EQ(4, st.wDayOfWeek);
	ASSERT_TRUE(SystemTimeToFileTime(&st, &back));
	EXPECT_EQ(ft.dwHighDateTime, back.dwHighDateTime);
	EXPECT_EQ(ft.dwLowDateTime - 9999, back.dwLowDateTime);
	/* Beyond 0x7FFFFFFFFFFFFFFF, and an impossible date. */
	ft = ft_of(0x8000000000000000ULL);
	SetLastError(0);
	EXPECT_FALSE(FileTimeToSystemTime(&ft, &st));
	EXPECT_EQ(ERROR_INVALID_PARAMETER, GetLastError());
	st.wMonth = 2;
	st.wDay = 30;
	EXPECT_FALSE(SystemTimeToFileTime(&st, &back));
	EXPECT_EQ(ERROR_INVALID_PARAMETER, GetLastError());
}

static SYSTEMTIME utc(WORD y, WORD mo, WORD d, WORD h, WORD mi)
{
	SYSTEMTIME st = { .wYear = y, .wMonth = mo, .wDay = d, .wHour = h, .wMinute = mi };

	return st;
}

TEST(tz_specific_local_time)
{
	/* US Pacific: UTC-8, -7 from March's 2nd Sunday 2:00 to November's 1st. */
	TIME_ZONE_INFORMATION pac = {
		.Bias = 480, .DaylightBias = -60,
		.StandardDate = { .wMonth = 11, .wDayOfWeek = 0, .wDay = 1, .wHour = 2 },
		.DaylightDate = { .wMonth = 3, .wDayOfWeek = 0, .wDay = 2, .wHour = 2 },
	};
	/* Sydney: UTC+10, +11 from October's 1st Sunday to April's 1st. */
	TIME_ZONE_INFORMATION syd = {
		.Bias = -600, .DaylightBias = -60,
		.StandardDate = { .wMonth = 4, .wDayOfWeek = 0, .wDay = 1, .wHour = 3 },
		.DaylightDate = { .wMonth = 10, .wDayOfWeek = 0, .wDay = 1, .wHour = 2 },
	};
	TIME_ZONE_INFORMATION ist = { .Bias = -330 };
	SYSTEMTIME in, out;

	in = utc(2024, 7, 1, 12, 0);
	ASSERT_TRUE(SystemTimeToTzSpecificLocalTime(&pac, &in, &out));
	EXPECT_EQ(5, out.wHour);
	in = utc(2024, 1, 15, 12, 0);
	ASSERT_TRUE(SystemTimeToTzSpecificLocalTime(&pac, &in, &out));
	EXPECT_EQ(4, out.wHour);
	/* 2024-03-10: 09:59 UTC is 01:59 PST, 10:00 UTC is 03:00 PDT. */
	in = utc(2024, 3, 10, 9, 59);
	ASSERT_TRUE(SystemTimeToTzSpecificLocalTime(&pac, &in, &out));
	EXPECT_EQ(1, out.wHour);
	EXPECT_EQ(59, out.wMinute);
	in = utc(2024, 3, 10, 10, 0);
	ASSERT_TRUE(SystemTimeToTzSpecificLocalTime(&pac, &in, &out));
	EXPECT_EQ(3, out.wHour);
	/* The 1st Sunday of November 2024 is the 3rd: 08:59 UTC is 01:59 PDT. */
	in = utc(2024, 11, 3, 8, 59);
	ASSERT_TRUE(SystemTimeToTzSpecificLocalTime(&pac, &in, &out));
	EXPECT_EQ(1, out.wHour);
	in = utc(2024, 11, 3, 9, 0);
	ASSERT_TRUE(SystemTimeToTzSpecificLocalTime(&pac, &in, &out));
	EXPECT_EQ(1, out.wHour);
	EXPECT_EQ(0, out.wMinute);
	/* Southern hemisphere: daylight time spans the new year. */
	in = utc(2024, 1, 1, 0, 0);
	ASSERT_TRUE(SystemTimeToTzSpecificLocalTime(&syd, &in, &out));
	EXPECT_EQ(11, out.wHour);
	in = utc(2024, 7, 1, 0, 0);
	ASSERT_TRUE(SystemTimeToTzSpecificLocalTime(&syd, &in, &out));
	EXPECT_EQ(10, out.wHour);
	/* No rules: the bias alone, across midnight. */
	in = utc(2024, 12, 31, 20, 0);
	ASSERT_TRUE(SystemTimeToTzSpecificLocalTime(&ist, &in, &out));
	EXPECT_EQ(2025, out.wYear);
	EXPECT_EQ(1, out.wDay);
	EXPECT_EQ(1, out.wHour);
	EXPECT_EQ(30, out.wMinute);
	in.wMonth = 13;
	EXPECT_FALSE(SystemTimeToTzSpecificLocalTime(&ist, &in, &out));
	EXPECT_EQ(ERROR_INVALID_PARAMETER, GetLastError());
}

TEST(string_from_guid)
{
	static const GUID g = { 0x68fdd900, 0x4a3e, 0x11d1,
				{ 0x84, 0xf4, 0x00, 0x00, 0xf8, 0x04, 0x64, 0xe3 } };
	WCHAR s[40];

	EXPECT_EQ(39, StringFromGUID2(&g, s, 40));
	EXPECT_TRUE(teq(T("{68FDD900-4A3E-11D1-84F4-0000F80464E3}"), s));
	EXPECT_EQ(0, StringFromGUID2(&g, s, 38));
}

/* Learn, "StringFromCLSID": the same string, in task memory. */
TEST(string_from_clsid)
{
	static const CLSID g = { 0x68fdd900, 0x4a3e, 0x11d1,
				 { 0x84, 0xf4, 0x00, 0x00, 0xf8, 0x04, 0x64, 0xe3 } };
	LPOLESTR s = (LPOLESTR)1;
	void *p;

	EXPECT_EQ(S_OK, StringFromCLSID(&g, &s));
	ASSERT_NE(NULL, s);
	EXPECT_TRUE(teq(T("{68FDD900-4A3E-11D1-84F4-0000F80464E3}"), s));
	CoTaskMemFree(s);
	EXPECT_EQ(E_INVALIDARG, StringFromCLSID(&g, NULL));
	s = (LPOLESTR)1;
	EXPECT_EQ(E_INVALIDARG, StringFromCLSID(NULL, &s));
	EXPECT_EQ(NULL, s);
	p = CoTaskMemAlloc(0);
	EXPECT_NE(NULL, p);
	CoTaskMemFree(p);
	CoTaskMemFree(NULL);
}

TEST(command_line_to_argv)
{
	static const struct {
		const TCHAR *line;
		int argc;
		const TCHAR *argv[5];
	} cases[] = {
		{ T("prog \"a b c\" d e"), 4, { T("prog"), T("a b c"), T("d"), T("e") } },
		{ T("prog \"ab\\\"c\" \"\\\\\" d"), 4, { T("prog"), T("ab\"c"), T("\\"), T("d") } },
		{ T("prog a\\\\\\b d\"e f\"g h"), 4, { T("prog"), T("a\\\\\\b"), T("de fg"), T("h") } },
		{ T("prog a\\\\\\\"b c d"), 4, { T("prog"), T("a\\\"b"), T("c"), T("d") } },
		{ T("prog a\\\\\\\\\"b c\" d e"), 4, { T("prog"), T("a\\\\b c"), T("d"), T("e") } },
		/* The program name takes no escapes. */
		{ T("\"C:\\Program Files\\x.exe\" -f"), 2, { T("C:\\Program Files\\x.exe"), T("-f") } },
		{ T("prog \"\" x  "), 3, { T("prog"), T(""), T("x") } },
	};
	unsigned int c;
	int argc, i;

	for (c = 0; c < ARRAYSIZE(cases); c++) {
		LPWSTR *argv = CommandLineToArgvW((LPCWSTR)cases[c].line, &argc);

		ASSERT_NE(NULL, argv);
		EXPECT_EQ(cases[c].argc, argc) TH_LOG("case %u", c);
		for (i = 0; i < argc && i < cases[c].argc; i++)
			EXPECT_TRUE(teq(cases[c].argv[i], (const TCHAR *)argv[i]))
				TH_LOG("case %u arg %d", c, i);
		EXPECT_EQ(NULL, argv[argc]);
		EXPECT_EQ(NULL, LocalFree(argv));
	}
	/* The empty line is the program itself. */
	{
		LPWSTR *argv = CommandLineToArgvW((LPCWSTR)T(""), &argc);

		ASSERT_NE(NULL, argv);
		EXPECT_EQ(1, argc);
		EXPECT_EQ('/', argv[0][0]);
		EXPECT_EQ(NULL, GlobalFree(argv));
	}
	EXPECT_EQ(NULL, CommandLineToArgvW((LPCWSTR)T("x"), NULL));
	EXPECT_EQ(ERROR_INVALID_PARAMETER, GetLastError());
}

/* GetCommandLineW parses back into this program's own arguments. */
TEST(get_command_line)
{
	FILE *f = fopen("/proc/self/cmdline", "r");
	char raw[4096], *p;
	size_t n;
	LPWSTR *argv;
	int argc, i = 0;

	ASSERT_NE(NULL, f);
	n = fread(raw, 1, sizeof(raw) - 1, f);
	fclose(f);
	raw[n] = 0;
	argv = CommandLineToArgvW(GetCommandLineW(), &argc);
	ASSERT_NE(NULL, argv);
	EXPECT_EQ(GetCommandLineW(), GetCommandLineW());
	for (p = raw; p < raw + n; p += strlen(p) + 1, i++) {
		size_t k, len = strlen(p);

		ASSERT_LT(i, argc);
		for (k = 0; k <= len; k++)	/* ASCII arguments here */
			EXPECT_EQ((WCHAR)p[k], argv[i][k]);
	}
	EXPECT_EQ(i, argc);
	LocalFree(argv);
}

TEST(sid_strings)
{
	static const BYTE system[] = { 1, 1, 0, 0, 0, 0, 0, 5, 18, 0, 0, 0 };
	static const BYTE domain[] = { 1, 5, 0, 0, 0, 0, 0, 5, 21, 0, 0, 0, 1, 0, 0, 0,
				       2, 0, 0, 0, 3, 0, 0, 0, 0xf4, 1, 0, 0 };
	static const BYTE big[] = { 1, 1, 0x12, 0x34, 0x56, 0x78, 0x9a, 0xbc, 7, 0, 0, 0 };
	static const BYTE bad[] = { 2, 1, 0, 0, 0, 0, 0, 5, 18, 0, 0, 0 };
	LPWSTR w;
	LPSTR a;

	ASSERT_TRUE(ConvertSidToStringSidW((PSID)system, &w));
	EXPECT_TRUE(teq(T("S-1-5-18"), (const TCHAR *)w));
	LocalFree(w);
	ASSERT_TRUE(ConvertSidToStringSidA((PSID)domain, &a));
	EXPECT_STREQ("S-1-5-21-1-2-3-500", a);
	LocalFree(a);
	ASSERT_TRUE(ConvertSidToStringSidA((PSID)big, &a));
	EXPECT_STREQ("S-1-0x123456789ABC-7", a);
	LocalFree(a);
	EXPECT_EQ(28, GetLengthSid((PSID)domain));
	EXPECT_FALSE(ConvertSidToStringSidW((PSID)bad, &w));
	EXPECT_EQ(ERROR_INVALID_SID, GetLastError());
	EXPECT_FALSE(ConvertSidToStringSidW(NULL, &w));
}

TEST(strsafe)
{
	WCHAR b[8], *end;
	char n[8];
	size_t len, rem;

	EXPECT_EQ(S_OK, StringCchCopyW(b, 8, (LPCWSTR)T("abc")));
	EXPECT_EQ(S_OK, StringCchCatW(b, 8, (LPCWSTR)T("de")));
	EXPECT_TRUE(teq(T("abcde"), (const TCHAR *)b));
	EXPECT_EQ(STRSAFE_E_INSUFFICIENT_BUFFER, StringCchCatW(b, 8, (LPCWSTR)T("fghij")));
	EXPECT_TRUE(teq(T("abcdefg"), (const TCHAR *)b));
	EXPECT_EQ(STRSAFE_E_INSUFFICIENT_BUFFER, StringCchCopyW(b, 3, (LPCWSTR)T("abcd")));
	EXPECT_TRUE(teq(T("ab"), (const TCHAR *)b));
	EXPECT_EQ(STRSAFE_E_INVALID_PARAMETER, StringCchCopyW(b, 0, (LPCWSTR)T("a")));
	EXPECT_EQ(S_OK, StringCbCopyW(b, sizeof(b), (LPCWSTR)T("1234567")));
	EXPECT_EQ(STRSAFE_E_INSUFFICIENT_BUFFER, StringCbCopyW(b, 7, (LPCWSTR)T("1234")));
	EXPECT_TRUE(teq(T("12"), (const TCHAR *)b));
	EXPECT_EQ(S_OK, StringCchLengthW(b, 8, &len));
	EXPECT_EQ(2, len);
	EXPECT_EQ(STRSAFE_E_INVALID_PARAMETER, StringCchLengthW(b, 2, &len));
	EXPECT_EQ(0, len);
	EXPECT_EQ(S_OK, StringCbLengthW(b, sizeof(b), &len));
	EXPECT_EQ(4, len);
	/* MSVC's rules in both modes: %s is wide in a W format. */
	EXPECT_EQ(S_OK, StringCchPrintfW(b, 8, (LPCWSTR)T("%s=%d"), T("ab"), 42));
	EXPECT_TRUE(teq(T("ab=42"), (const TCHAR *)b));
	EXPECT_EQ(STRSAFE_E_INSUFFICIENT_BUFFER,
		  StringCchPrintfW(b, 4, (LPCWSTR)T("%S%u"), "xy", 123U));
	EXPECT_TRUE(teq(T("xy1"), (const TCHAR *)b));
	EXPECT_EQ(S_OK, StringCbPrintfExW(b, sizeof(b), &end, &rem, 0,
					  (LPCWSTR)T("%c%c"), T('h'), T('i')));
	EXPECT_EQ(b + 2, end);
	EXPECT_EQ(sizeof(b) - 2 * sizeof(WCHAR), rem);
	EXPECT_EQ(STRSAFE_E_INSUFFICIENT_BUFFER,
		  StringCchPrintfExW(b, 4, NULL, NULL, STRSAFE_NULL_ON_FAILURE,
				     (LPCWSTR)T("%s"), T("long")));
	EXPECT_EQ(0, b[0]);
	EXPECT_EQ(S_OK, StringCchPrintfA(n, 8, "%s %S", "a", T("b")));
	EXPECT_STREQ("a b", n);
	EXPECT_EQ(S_OK, StringCchCopyA(n, 8, "xyz"));
	EXPECT_EQ(S_OK, StringCchCatA(n, 8, "w"));
	EXPECT_STREQ("xyzw", n);
	EXPECT_EQ(S_OK, StringCbLengthA(n, 8, &len));
	EXPECT_EQ(4, len);
}

TEST(intsafe)
{
	ULONG u;
	SIZE_T z;
	USHORT s;
	INT i;

	EXPECT_EQ(S_OK, ULongAdd(1, 2, &u));
	EXPECT_EQ(3, u);
	EXPECT_EQ(INTSAFE_E_ARITHMETIC_OVERFLOW, ULongAdd(0xFFFFFFFF, 1, &u));
	EXPECT_EQ(ULONG_ERROR, u);
	EXPECT_EQ(INTSAFE_E_ARITHMETIC_OVERFLOW, ULongMult(0x10000, 0x10000, &u));
	EXPECT_EQ(INTSAFE_E_ARITHMETIC_OVERFLOW, SizeTMult((SIZE_T)-1, 2, &z));
	EXPECT_EQ(S_OK, DWordAdd(5, 6, &u));
	EXPECT_EQ(INTSAFE_E_ARITHMETIC_OVERFLOW, ULongToUShort(0x10000, &s));
	EXPECT_EQ(USHORT_ERROR, s);
	EXPECT_EQ(S_OK, ULongToUShort(0xFFFF, &s));
	EXPECT_EQ(INTSAFE_E_ARITHMETIC_OVERFLOW, ULongToInt(0x80000000, &i));
	EXPECT_EQ(INTSAFE_E_ARITHMETIC_OVERFLOW, IntToULong(-1, &u));
	EXPECT_EQ(INTSAFE_E_ARITHMETIC_OVERFLOW, ULongSub(1, 2, &u));
}

TEST(sleep_and_ticks)
{
	struct timespec a, b;
	ULONGLONG t0 = GetTickCount64();
	long ms;

	clock_gettime(CLOCK_MONOTONIC, &a);
	Sleep(30);
	clock_gettime(CLOCK_MONOTONIC, &b);
	ms = (b.tv_sec - a.tv_sec) * 1000 + (b.tv_nsec - a.tv_nsec) / 1000000;
	EXPECT_LE(30, ms);
	EXPECT_LE(t0 + 30, GetTickCount64());
}

TEST(local_alloc)
{
	BYTE *p = LocalAlloc(LPTR, 64);

	ASSERT_NE(NULL, p);
	for (int i = 0; i < 64; i++)
		EXPECT_EQ(0, p[i]);
	EXPECT_EQ(NULL, LocalFree(p));
	EXPECT_EQ(NULL, LocalFree(NULL));
	p = HeapAlloc(GetProcessHeap(), HEAP_ZERO_MEMORY, 32);
	ASSERT_NE(NULL, p);
	EXPECT_EQ(0, p[31]);
	p = HeapReAlloc(GetProcessHeap(), 0, p, 64);
	ASSERT_NE(NULL, p);
	EXPECT_TRUE(HeapFree(GetProcessHeap(), 0, p));
	EXPECT_FALSE(HeapFree((HANDLE)p, 0, NULL));
	EXPECT_EQ(ERROR_INVALID_HANDLE, GetLastError());
	EXPECT_TRUE(HeapSetInformation(NULL, HeapEnableTerminationOnCorruption, NULL, 0));
	EXPECT_FALSE(HeapSetInformation(NULL, (HEAP_INFORMATION_CLASS)7, NULL, 0));
}

/* _kbhit and _getch on standard input that is a pipe. */
TEST(conio_keys)
{
	int fds[2], saved = dup(0);

	ASSERT_EQ(0, pipe(fds));
	ASSERT_LE(0, dup2(fds[0], 0));
	EXPECT_EQ(0, _kbhit());
	ASSERT_EQ(2, write(fds[1], "xy", 2));
	EXPECT_NE(0, _kbhit());
	EXPECT_EQ('x', _getch());
	EXPECT_EQ('y', _getch());
	close(fds[1]);
	EXPECT_EQ(EOF, _getch());
	dup2(saved, 0);
	close(saved);
	close(fds[0]);
}

/* minwindef.h's and basetsd.h's basic types: Windows' sizes. */
TEST(basic_types)
{
	static const BYTE bytes[3] = { 1, 2, 3 };
	LPCBYTE cb = bytes;
	PCBYTE pcb = bytes;
	struct fo { ULONG a; WCHAR name[8]; };
	int i;

	EXPECT_EQ(3, cb[2] + pcb[0] - 1);
	EXPECT_EQ(8u, sizeof(DWORDLONG));
	EXPECT_EQ(sizeof(void *), sizeof(SSIZE_T));
	EXPECT_EQ(sizeof(void *), sizeof(WPARAM));
	EXPECT_EQ(sizeof(void *), sizeof(LPARAM));
	EXPECT_EQ(sizeof(void *) / 2, sizeof(HALF_PTR));
	EXPECT_EQ(4u, sizeof(FLOAT));
	EXPECT_EQ(4u, sizeof(NTSTATUS));
	EXPECT_EQ(2u, sizeof(LANGID));
	EXPECT_EQ(0xffffffffu, MAXDWORD);
	EXPECT_EQ(0x7fffffff, MAXLONG);
	EXPECT_EQ((ULONG_PTR)-1, MAXULONG_PTR);
	EXPECT_EQ(0xffffu, (unsigned int)MAXWORD);
	/* FIELD_OFFSET with an index known only at run time, as Windows'. */
	for (i = 0; i < 8; i++)
		EXPECT_EQ(4 + 2 * i, FIELD_OFFSET(struct fo, name[i]));
	EXPECT_EQ(4, FIELD_OFFSET(struct fo, name));
}

/* winapifamily.h: a desktop program; sdkddkver.h: Windows 10 targeted. */
TEST(api_family_and_sdk_version)
{
#if !WINAPI_FAMILY_PARTITION(WINAPI_PARTITION_DESKTOP)
	ASSERT_TRUE(0) TH_LOG("the desktop partition is off");
#endif
	EXPECT_EQ(WINAPI_FAMILY_DESKTOP_APP, WINAPI_FAMILY);
	EXPECT_EQ(0x0A00, _WIN32_WINNT);
	EXPECT_EQ(0x0A000000, NTDDI_VERSION);
	EXPECT_EQ(0x0601, _WIN32_WINNT_WIN7);
}

/*
 * VerSetConditionMask and VerifyVersionInfo against 6.2.9200 (what
 * GetVersionEx reports); VersionHelpers.h over them.
 */
TEST(verify_version_info)
{
	OSVERSIONINFOEXW v;
	DWORDLONG m;

	/* 3 bits a type, at its bit number; one type a call. */
	EXPECT_EQ(3ull << 3, VerSetConditionMask(0, VER_MAJORVERSION, VER_GREATER_EQUAL));
	EXPECT_EQ(1ull, VerSetConditionMask(0, VER_MINORVERSION, VER_EQUAL));
	EXPECT_EQ(5ull << 15, VerSetConditionMask(0, VER_SERVICEPACKMAJOR, VER_LESS_EQUAL));
	EXPECT_EQ(3ull << 3, VerSetConditionMask(0, VER_MAJORVERSION | VER_MINORVERSION,
						 VER_GREATER_EQUAL));
	EXPECT_EQ(7ull, VerSetConditionMask(7, VER_MINORVERSION, 0));

	memset(&v, 0, sizeof(v));
	v.dwOSVersionInfoSize = sizeof(v);
	v.dwMajorVersion = 6;
	v.dwMinorVersion = 3;
	m = VerSetConditionMask(VerSetConditionMask(0, VER_MAJORVERSION, VER_GREATER_EQUAL),
				VER_MINORVERSION, VER_GREATER_EQUAL);
	SetLastError(0);
	EXPECT_FALSE(VerifyVersionInfoW(&v, VER_MAJORVERSION | VER_MINORVERSION, m));
	EXPECT_EQ(ERROR_OLD_WIN_VERSION, GetLastError());
	v.dwMinorVersion = 2;
	EXPECT_TRUE(VerifyVersionInfoW(&v, VER_MAJORVERSION | VER_MINORVERSION, m));
	/* Major decides before minor: 5.9 <= 6.2. */
	v.dwMajorVersion = 5;
	v.dwMinorVersion = 9;
	EXPECT_TRUE(VerifyVersionInfoW(&v, VER_MAJORVERSION | VER_MINORVERSION, m));
	v.dwBuildNumber = 9200;
	EXPECT_TRUE(VerifyVersionInfoW(&v, VER_BUILDNUMBER,
				       VerSetConditionMask(0, VER_BUILDNUMBER, VER_EQUAL)));
	v.dwBuildNumber = 9201;
	EXPECT_FALSE(VerifyVersionInfoW(&v, VER_BUILDNUMBER,
					VerSetConditionMask(0, VER_BUILDNUMBER, VER_EQUAL)));
	EXPECT_FALSE(VerifyVersionInfoW(NULL, VER_MAJORVERSION, m));
	EXPECT_EQ(ERROR_INVALID_PARAMETER, GetLastError());

	EXPECT_TRUE(IsWindowsXPOrGreater());
	EXPECT_TRUE(IsWindows7SP1OrGreater());	/* 6.2 SP0 is past 6.1 SP1 */
	EXPECT_TRUE(IsWindows7OrGreater());
	EXPECT_TRUE(IsWindows8OrGreater());
	EXPECT_FALSE(IsWindows8Point1OrGreater());
	EXPECT_FALSE(IsWindows10OrGreater());
	EXPECT_FALSE(IsWindowsServer());
}

/* MultiByteToWideChar/WideCharToMultiByte: UTF-8 for every code page. */
TEST(code_page_conversions)
{
	/* "aé€𝄞": 1 + 2 + 3 + 4 bytes, 1 + 1 + 1 + 2 units. */
	static const char u8[] = "a\xc3\xa9\xe2\x82\xac\xf0\x9d\x84\x9e";
	static const WCHAR u16[] = { 'a', 0xe9, 0x20ac, 0xd834, 0xdd1e, 0 };
	static const WCHAR lone[] = { 'x', 0xd800, 'y', 0 };
	WCHAR w[16];
	char b[32];

	EXPECT_EQ(6, MultiByteToWideChar(CP_UTF8, 0, u8, -1, NULL, 0));
	EXPECT_EQ(6, MultiByteToWideChar(CP_UTF8, 0, u8, -1, w, 16));
	EXPECT_EQ(0, memcmp(w, u16, sizeof(u16)));
	/* A count without the NUL converts no NUL. */
	EXPECT_EQ(5, MultiByteToWideChar(CP_ACP, 0, u8, (int)strlen(u8), w, 16));
	EXPECT_EQ(11, WideCharToMultiByte(CP_UTF8, 0, u16, -1, NULL, 0, NULL, NULL));
	EXPECT_EQ(11, WideCharToMultiByte(CP_ACP, 0, u16, -1, b, sizeof(b), NULL, NULL));
	EXPECT_STREQ(u8, b);
	/* Too small: ERROR_INSUFFICIENT_BUFFER. */
	SetLastError(0);
	EXPECT_EQ(0, WideCharToMultiByte(CP_UTF8, 0, u16, -1, b, 4, NULL, NULL));
	EXPECT_EQ(ERROR_INSUFFICIENT_BUFFER, GetLastError());
	EXPECT_EQ(0, MultiByteToWideChar(CP_UTF8, 0, u8, -1, w, 3));
	EXPECT_EQ(ERROR_INSUFFICIENT_BUFFER, GetLastError());
	/* Invalid text: U+FFFD, or an error with the strict flag. */
	EXPECT_EQ(5, WideCharToMultiByte(CP_UTF8, 0, lone, 3, b, sizeof(b), NULL, NULL));
	EXPECT_EQ(0, memcmp(b, "x\xef\xbf\xbdy", 5));
	EXPECT_EQ(0, WideCharToMultiByte(CP_UTF8, WC_ERR_INVALID_CHARS, lone, 3, b,
					 sizeof(b), NULL, NULL));
	EXPECT_EQ(ERROR_NO_UNICODE_TRANSLATION, GetLastError());
	EXPECT_EQ(3, MultiByteToWideChar(CP_UTF8, 0, "a\xff" "b", 3, w, 16));
	EXPECT_EQ(0xfffd, w[1]);
	EXPECT_EQ(0, MultiByteToWideChar(CP_UTF8, MB_ERR_INVALID_CHARS, "a\xff" "b", 3, w, 16));
	EXPECT_EQ(ERROR_NO_UNICODE_TRANSLATION, GetLastError());
	/* UTF-8 has no default character; bad arguments. */
	EXPECT_EQ(0, WideCharToMultiByte(CP_UTF8, 0, u16, -1, b, sizeof(b), "?", NULL));
	EXPECT_EQ(ERROR_INVALID_PARAMETER, GetLastError());
	EXPECT_EQ(0, WideCharToMultiByte(CP_UTF8, 0x1, u16, -1, b, sizeof(b), NULL, NULL));
	EXPECT_EQ(ERROR_INVALID_FLAGS, GetLastError());
	EXPECT_EQ(0, MultiByteToWideChar(1252, 0, u8, -1, w, 16));
	EXPECT_EQ(ERROR_INVALID_PARAMETER, GetLastError());
	EXPECT_EQ(0, MultiByteToWideChar(CP_UTF8, 0, NULL, -1, w, 16));
	EXPECT_EQ(0, MultiByteToWideChar(CP_UTF8, 0, u8, 0, w, 16));
	EXPECT_EQ(ERROR_INVALID_PARAMETER, GetLastError());
}

/* CoCreateGuid, CLSIDFromString, IIDFromString, GUID_NULL. */
TEST(guid_functions)
{
	static const GUID want = { 0x6e0b2c41, 0x93d2, 0x4a5e,
				   { 0x8c, 0x11, 0x2f, 0x3a, 0x4b, 0x5c, 0x6d, 0x7e } };
	GUID a, b;
	WCHAR s[40];

	ASSERT_EQ(S_OK, CoCreateGuid(&a));
	ASSERT_EQ(S_OK, CoCreateGuid(&b));
	EXPECT_FALSE(IsEqualGUID(&a, &b));
	EXPECT_EQ(0x4000, a.Data3 & 0xF000);	/* version 4 */
	EXPECT_EQ(0x80, a.Data4[0] & 0xC0);	/* RFC 4122 variant */
	EXPECT_EQ(E_INVALIDARG, CoCreateGuid(NULL));

	EXPECT_EQ(S_OK, CLSIDFromString(T("{6e0b2c41-93D2-4a5e-8c11-2f3a4b5c6d7e}"), &a));
	EXPECT_TRUE(IsEqualGUID(&a, &want));
	/* And back: StringFromGUID2's string reads as the same GUID. */
	ASSERT_EQ(39, StringFromGUID2(&want, s, 40));
	EXPECT_EQ(S_OK, IIDFromString(s, &b));
	EXPECT_TRUE(IsEqualGUID(&b, &want));
	EXPECT_EQ(CO_E_CLASSSTRING, CLSIDFromString(T("6e0b2c41-93d2-4a5e-8c11-2f3a4b5c6d7e"), &a));
	EXPECT_TRUE(IsEqualGUID(&a, &GUID_NULL));
	EXPECT_EQ(CO_E_CLASSSTRING, CLSIDFromString(T("{6e0b2c41-93d2-4a5e-8c11-2f3a4b5c6d7g}"), &a));
	EXPECT_EQ(CO_E_CLASSSTRING, CLSIDFromString(T("{6e0b2c41-93d2-4a5e-8c11-2f3a4b5c6d7e}x"), &a));
	EXPECT_EQ(E_INVALIDARG, IIDFromString(T("{6e0b2c41}"), &a));
	EXPECT_EQ(S_OK, CLSIDFromString(NULL, &a));
	EXPECT_TRUE(IsEqualGUID(&a, &GUID_NULL));
	EXPECT_EQ(E_INVALIDARG, CLSIDFromString(s, NULL));
}

/* GetUserNameW/A: the effective user's login name, sizes with the NUL. */
TEST(get_user_name)
{
	struct passwd *pw = getpwuid(geteuid());
	WCHAR w[UNLEN + 1];
	char a[UNLEN + 1];
	DWORD n = 0;
	size_t i;

	ASSERT_TRUE(pw != NULL);
	SetLastError(0);
	EXPECT_FALSE(GetUserNameA(NULL, &n));
	EXPECT_EQ(ERROR_INSUFFICIENT_BUFFER, GetLastError());
	EXPECT_EQ(strlen(pw->pw_name) + 1, n);
	n = 1;
	EXPECT_FALSE(GetUserNameW(w, &n));
	EXPECT_EQ(strlen(pw->pw_name) + 1, n);
	n = ARRAYSIZE(a);
	ASSERT_TRUE(GetUserNameA(a, &n));
	EXPECT_STREQ(pw->pw_name, a);
	EXPECT_EQ(strlen(a) + 1, n);
	n = ARRAYSIZE(w);
	ASSERT_TRUE(GetUserNameW(w, &n));
	EXPECT_EQ(strlen(a) + 1, n);
	for (i = 0; i <= strlen(a); i++)
		EXPECT_EQ((WCHAR)(unsigned char)a[i], w[i]);
	EXPECT_FALSE(GetUserNameA(a, NULL));
	EXPECT_EQ(ERROR_INVALID_PARAMETER, GetLastError());
}

/* The sockaddr types of winsock2.h/ws2tcpip.h: Windows' layouts. */
TEST(socket_addresses)
{
	SOCKADDR_IN in4;
	SOCKADDR_IN6 in6;
	SOCKADDR_STORAGE st;
	char text[64];

	EXPECT_EQ(16u, sizeof(in4));
	EXPECT_EQ(28u, sizeof(in6));
	EXPECT_EQ(128u, sizeof(st));
	EXPECT_EQ(2u, sizeof(ADDRESS_FAMILY));
	EXPECT_EQ(4, offsetof(SOCKADDR_IN, sin_addr));
	EXPECT_EQ(8, offsetof(SOCKADDR_IN6, sin6_addr));
	EXPECT_EQ(24, offsetof(SOCKADDR_IN6, sin6_scope_id));
	memset(&in4, 0, sizeof(in4));
	in4.sin_family = AF_INET;
	in4.sin_addr.s_addr = htonl(0x7f000001);
	EXPECT_STREQ("127.0.0.1", InetNtopA(AF_INET, &in4.sin_addr, text, sizeof(text)));
}

TEST_HARNESS_MAIN
