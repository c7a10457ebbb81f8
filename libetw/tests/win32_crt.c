// SPDX-License-Identifier: GPL-2.0
/*
 * Windows-source mode's C runtime (etw_crt.h, libetw/src/win32/), built
 * the way a Windows program is (-fshort-wchar, LIBETW_WINDOWS_SOURCE, L""
 * strings), each function against MSVC's documented behaviour: the printf
 * family's format rules (%s/%S/%ls/%hs/%ws, %c/%C, widths, precision,
 * I64/l sizes, %p, %n refused), its truncation rules, UTF-8 output, the
 * wide string, number and path functions, <tchar.h>'s mapping, and
 * __FUNCSIG__ as a literal.
 */
#include "kselftest_harness.h"

#define UNICODE
#define _UNICODE
#include <windows.h>
#include <tchar.h>

#include <errno.h>
#include <limits.h>
#include <unistd.h>

_Static_assert(sizeof(wchar_t) == 2, "-fshort-wchar");
_Static_assert(sizeof(L"ab") == 6, "L\"\" is UTF-16");
_Static_assert(_Generic((WCHAR)0, wchar_t: 1, default: 0), "WCHAR is wchar_t");
_Static_assert(_Generic(_T('x'), wchar_t: 1, int: 1, default: 0), "_T");
_Static_assert(sizeof(TEXT("ab")) == 6, "TEXT() is L\"\"");

/* Each argument evaluated once (wcscat(b, ...) appends). */
#define WEQ(want, got) do {						\
	const wchar_t *w_ = (want), *g_ = (got);			\
	if (!g_ || wcscmp(w_, g_))					\
		TH_LOG("want \"%ls\", got \"%ls\"", w_, g_);		\
	EXPECT_EQ(0, g_ ? wcscmp(w_, g_) : 1);				\
} while (0)

TEST(wide_text_conversions)
{
	wchar_t b[128];

	/* In a wide format %s is wide and %S narrow; l/w wide, h narrow. */
	EXPECT_EQ(20, swprintf(b, 128, L"%s|%S|%ls|%hs|%ws|%hS", L"wide", "nar", L"w2",
			       "n2", L"w3", "n3"));
	WEQ(L"wide|nar|w2|n2|w3|n3", b);
	EXPECT_EQ(6, swprintf(b, 128, L"%c%C%lc%hc%wc%hC", L'A', 'b', L'\x263A', 'd',
			      L'e', 'f'));
	WEQ(L"Ab\x263A" L"def", b);
	/* A narrow argument is UTF-8: é and U+1F600 come out as UTF-16. */
	swprintf(b, 128, L"%S", "\xc3\xa9\xf0\x9f\x98\x80");
	WEQ(L"\x00e9\xD83D\xDE00", b);
	/* An invalid byte is U+FFFD. */
	swprintf(b, 128, L"%S", "a\xffz");
	WEQ(L"a\xFFFDz", b);
	swprintf(b, 128, L"%s %S", (wchar_t *)NULL, (char *)NULL);
	WEQ(L"(null) (null)", b);
	swprintf(b, 128, L"100%%");
	WEQ(L"100%", b);
}

TEST(wide_widths_and_precision)
{
	wchar_t b[128];

	swprintf(b, 128, L"[%5s][%-5s][%.2s][%5.1S][%*s][%-*.*s]", L"ab", L"ab", L"abc",
		 "xyz", 4, L"q", 4, 1, L"rs");
	WEQ(L"[   ab][ab   ][ab][    x][   q][r   ]", b);
	/* MSVC pads strings and characters with zeros too. */
	swprintf(b, 128, L"[%05s][%03c][%-05s]", L"ab", L'z', L"ab");
	WEQ(L"[000ab][00z][ab   ]", b);
	/* A negative * width is left-justification. */
	swprintf(b, 128, L"[%*s]", -3, L"a");
	WEQ(L"[a  ]", b);
	/* Precision counts UTF-16 units of a wide argument, bytes of a narrow one. */
	swprintf(b, 128, L"[%.1s][%.2S]", L"\x263A\x263B", "\xc3\xa9x");
	WEQ(L"[\x263A][\x00e9]", b);
}

TEST(numbers_and_sizes)
{
	wchar_t b[256];
	ULONGLONG big = 0x123456789ABCDEF0ULL;

	swprintf(b, 256, L"%d %i %u %x %X %o %+d % d %#x", -5, 7, 3000000000U, 255, 255, 8,
		 4, 4, 16);
	WEQ(L"-5 7 3000000000 ff FF 10 +4  4 0x10", b);
	/* l is 32-bit (LONG), I64 and ll 64-bit, I32 32-bit, I/z pointer-sized. */
	swprintf(b, 256, L"%lu %ld %I64u %I64X %llx %I32d %Iu %zu", (ULONG)4000000000U,
		 (LONG)-2, big, big, big, -9, (size_t)12, (size_t)13);
	WEQ(L"4000000000 -2 1311768467463790320 123456789ABCDEF0 123456789abcdef0 -9 12 13", b);
	swprintf(b, 256, L"%hd %hu %hhd %hhu", 70000, 70000, 300, 300);
	WEQ(L"4464 4464 44 44", b);
	swprintf(b, 256, L"%5.2f|%-8.3e|%g|%G|%.0f", 3.14159, 1234.5, 0.0001, 1e20, 2.5);
	WEQ(L" 3.14|1.234e+03|0.0001|1E+20|2", b);
	swprintf(b, 256, L"%Lf", (long double)1.5);
	WEQ(L"1.500000", b);
	swprintf(b, 256, L"%08.3f|%-6d|%06d", -1.5, 42, -42);
	WEQ(L"-001.500|42    |-00042", b);
	/* %p: the pointer's hex digits, zero-padded, upper case. */
	swprintf(b, 256, L"%p", (void *)0x12ab);
	WEQ(sizeof(void *) == 8 ? L"00000000000012AB" : L"000012AB", b);
	swprintf(b, 256, L"[%20p]", (void *)0x1);
	WEQ(L"[    0000000000000001]", b);
}

TEST(refused_formats)
{
	wchar_t b[16];
	char n[16];
	int count = 0;

	errno = 0;
	EXPECT_EQ(-1, swprintf(b, 16, L"a%nb", &count));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(0, count);
	EXPECT_EQ(-1, swprintf(b, 16, L"%k"));
	EXPECT_EQ(-1, swprintf(b, 16, L"abc%"));
	EXPECT_EQ(-1, sprintf(n, "%y"));
	EXPECT_EQ(-1, swprintf(b, 16, NULL));
}

TEST(truncation_rules)
{
	wchar_t b[8];
	char n[8];

	/* swprintf: NUL at the end, -1 when the text did not fit. */
	wmemset(b, L'#', 8);
	EXPECT_EQ(-1, swprintf(b, 3, L"abcd"));
	WEQ(L"ab", b);
	EXPECT_EQ(4, swprintf(b, 5, L"abcd"));
	WEQ(L"abcd", b);
	/* _snwprintf: exactly full is no NUL; longer is -1. */
	wmemset(b, L'#', 8);
	EXPECT_EQ(4, _snwprintf(b, 4, L"abcd"));
	EXPECT_EQ(L'#', b[4]);
	EXPECT_EQ(0, wmemcmp(b, L"abcd", 4));
	wmemset(b, L'#', 8);
	EXPECT_EQ(-1, _snwprintf(b, 3, L"abcd"));
	EXPECT_EQ(0, wmemcmp(b, L"abc#", 4));
	/* swprintf_s: too long empties the buffer, -1 and ERANGE. */
	errno = 0;
	EXPECT_EQ(-1, swprintf_s(b, 4, L"abcd"));
	EXPECT_EQ(0, b[0]);
	EXPECT_EQ(ERANGE, errno);
	EXPECT_EQ(3, swprintf_s(b, 4, L"abc"));
	WEQ(L"abc", b);
	EXPECT_EQ(2, _snwprintf_s(b, 8, _TRUNCATE, L"%s", L"xy"));
	EXPECT_EQ(-1, _snwprintf_s(b, 4, _TRUNCATE, L"%s", L"wxyz"));
	WEQ(L"wxy", b);
	EXPECT_EQ(7, _scwprintf(L"%s=%d", L"abc", 100));
	/* The narrow family: snprintf is C99's, _snprintf MSVC's, sprintf_s secure. */
	EXPECT_EQ(6, snprintf(n, 4, "%S", L"abcdef"));
	EXPECT_STREQ("abc", n);
	EXPECT_EQ(-1, _snprintf(n, 3, "abcd"));
	EXPECT_EQ(-1, sprintf_s(n, 3, "abcd"));
	EXPECT_EQ(0, n[0]);
	EXPECT_EQ(4, _swprintf(b, L"%S", "four"));
	WEQ(L"four", b);
}

TEST(narrow_printf_rules)
{
	char n[128];

	/* In a narrow format %s is narrow and %S wide; %ws and %ls wide. */
	EXPECT_EQ(11, sprintf(n, "%s %S %ws %ls %C", "n", L"w", L"w2", L"w3", L'W'));
	EXPECT_STREQ("n w w2 w3 W", n);
	sprintf(n, "%S|%C", L"\x00e9\xD83D\xDE00", (wint_t)L'\x263A');
	EXPECT_STREQ("\xc3\xa9\xf0\x9f\x98\x80|\xe2\x98\xba", n);
	/* A lone surrogate is U+FFFD in UTF-8. */
	sprintf(n, "%S", L"a\xD800z");
	EXPECT_STREQ("a\xef\xbf\xbdz", n);
	sprintf(n, "%lu %I64d %5.1f %-3c|", (ULONG)7, (LONGLONG)-1, 2.25, 'q');
	EXPECT_STREQ("7 -1   2.2 q  |", n);
}

TEST(stream_output_is_utf8)
{
	FILE *f = tmpfile();
	char got[64] = "";
	size_t n;

	ASSERT_NE(NULL, f);
	/* The count is in the function's units: UTF-16 for fwprintf. */
	EXPECT_EQ(5, fwprintf(f, L"%s!%c", L"\x00e9\xD83D\xDE00", L'x'));
	/* ... and bytes for fprintf: U+263A is three. */
	EXPECT_EQ(5, fprintf(f, "|%S|", L"\x263A"));
	EXPECT_EQ(0, fputws(L"\x263A\n", f));
	EXPECT_EQ(L'z', putwc(L'z', f));
	rewind(f);
	n = fread(got, 1, sizeof(got) - 1, f);
	got[n] = 0;
	EXPECT_STREQ("\xc3\xa9\xf0\x9f\x98\x80!x|\xe2\x98\xba|\xe2\x98\xba\nz", got);
	fclose(f);
}

TEST(wide_strings)
{
	wchar_t b[16], *dup, *ctx = NULL, *tok;
	wchar_t toks[] = L" a,b;;c ";

	EXPECT_EQ(3, wcslen(L"abc"));
	EXPECT_EQ(2, wcsnlen(L"abc", 2));
	WEQ(L"abc", wcscpy(b, L"abc"));
	WEQ(L"abcde", wcscat(b, L"de"));
	WEQ(L"abcdexy", wcsncat(b, L"xyz", 2));
	wmemset(b, L'#', 16);
	wcsncpy(b, L"ab", 4);
	EXPECT_EQ(0, wmemcmp(b, L"ab\0\0#", 5));
	EXPECT_GT(0, wcscmp(L"abc", L"abd"));
	EXPECT_LT(0, wcscmp(L"\x263A", L"a"));	/* unsigned units */
	EXPECT_EQ(0, wcsncmp(L"abcx", L"abcy", 3));
	EXPECT_EQ(0, _wcsicmp(L"-Start", L"-START"));
	EXPECT_GT(0, _wcsicmp(L"abc", L"ABD"));
	EXPECT_EQ(0, _wcsnicmp(L"StartX", L"sTARTy", 5));
	EXPECT_EQ(L'c', *wcschr(L"abcabc", L'c'));
	{
		const wchar_t *s = L"abcabc";

		EXPECT_EQ(s + 2, wcschr(s, L'c'));
		EXPECT_EQ(s + 5, wcsrchr(s, L'c'));
		EXPECT_EQ(s + 6, wcschr(s, 0));
		EXPECT_EQ(NULL, wcschr(s, L'z'));
		EXPECT_EQ(s + 1, wcsstr(s, L"bca"));
		EXPECT_EQ(NULL, wcsstr(s, L"cabcx"));
		EXPECT_EQ(s, wcsstr(s, L""));
		EXPECT_EQ(2, wcsspn(s, L"ba"));
		EXPECT_EQ(2, wcscspn(s, L"c"));
		EXPECT_EQ(s + 1, wcspbrk(s, L"cb"));
	}
	dup = _wcsdup(L"Dup");
	ASSERT_NE(NULL, dup);
	WEQ(L"DUP", _wcsupr(dup));
	WEQ(L"dup", _wcslwr(dup));
	free(dup);
	tok = wcstok_s(toks, L" ,;", &ctx);
	WEQ(L"a", tok);
	WEQ(L"b", wcstok_s(NULL, L" ,;", &ctx));
	WEQ(L"c", wcstok_s(NULL, L" ,;", &ctx));
	EXPECT_EQ(NULL, wcstok_s(NULL, L" ,;", &ctx));
}

TEST(secure_copies)
{
	wchar_t b[4];
	char n[4];

	EXPECT_EQ(0, wcscpy_s(b, 4, L"abc"));
	WEQ(L"abc", b);
	EXPECT_EQ(ERANGE, wcscpy_s(b, 4, L"abcd"));
	EXPECT_EQ(0, b[0]);
	EXPECT_EQ(EINVAL, wcscpy_s(b, 4, NULL));
	EXPECT_EQ(EINVAL, wcscpy_s(NULL, 4, L"a"));
	EXPECT_EQ(STRUNCATE, wcsncpy_s(b, 4, L"abcdef", _TRUNCATE));
	WEQ(L"abc", b);
	EXPECT_EQ(0, wcsncpy_s(b, 4, L"abcdef", 2));
	WEQ(L"ab", b);
	EXPECT_EQ(0, wcscat_s(b, 4, L"c"));
	WEQ(L"abc", b);
	EXPECT_EQ(ERANGE, wcscat_s(b, 4, L"d"));
	EXPECT_EQ(0, b[0]);
	EXPECT_EQ(0, strcpy_s(n, 4, "abc"));
	EXPECT_EQ(ERANGE, strcat_s(n, 4, "d"));
	EXPECT_EQ(0, _stricmp("ABC", "abc"));
	EXPECT_EQ(0, _strnicmp("ABCx", "abcy", 3));
}

/* memcpy_s & co.: MSVC's checks, the destination zeroed on failure. */
TEST(secure_memory_copies)
{
	char d[8] = "xxxxxxx";
	wchar_t w[4] = { 'x', 'x', 'x', 'x' };
	wchar_t b[6];
	char n[6];

	EXPECT_EQ(0, memcpy_s(d, sizeof(d), "abc", 3));
	EXPECT_EQ(0, memcmp(d, "abcxxxx", 8));
	EXPECT_EQ(0, memcpy_s(NULL, 0, "abc", 0));	/* nothing to copy */
	EXPECT_EQ(ERANGE, memcpy_s(d, 2, "abc", 3));
	EXPECT_EQ(0, d[0]);
	EXPECT_EQ(0, d[1]);
	EXPECT_EQ('c', d[2]);	/* only destsz bytes are zeroed */
	EXPECT_EQ(EINVAL, memcpy_s(d, sizeof(d), NULL, 3));
	EXPECT_EQ(0, d[2]);
	EXPECT_EQ(EINVAL, memcpy_s(NULL, 8, "abc", 3));
	memcpy(d, "abcdefg", 8);
	EXPECT_EQ(0, memmove_s(d + 1, 7, d, 6));
	EXPECT_EQ(0, memcmp(d, "aabcdef", 8));
	EXPECT_EQ(ERANGE, memmove_s(d, 2, d + 1, 3));
	EXPECT_EQ(0, wmemcpy_s(w, 4, L"ab", 2));
	EXPECT_EQ('a', w[0]);
	EXPECT_EQ('b', w[1]);
	EXPECT_EQ('x', w[2]);
	EXPECT_EQ(0, wmemmove_s(w + 1, 3, w, 2));
	EXPECT_EQ('a', w[1]);
	EXPECT_EQ('b', w[2]);
	EXPECT_EQ(ERANGE, wmemcpy_s(w, 1, L"ab", 2));
	EXPECT_EQ(0, w[0]);
	EXPECT_EQ(0, wcscpy_s(b, 6, L"ab"));
	EXPECT_EQ(0, wcsncat_s(b, 6, L"cdef", 2));
	WEQ(L"abcd", b);
	EXPECT_EQ(STRUNCATE, wcsncat_s(b, 6, L"xyz", _TRUNCATE));
	WEQ(L"abcdx", b);
	EXPECT_EQ(0, strcpy_s(n, 6, "ab"));
	EXPECT_EQ(0, strncat_s(n, 6, "cdef", 3));
	EXPECT_STREQ("abcde", n);
	EXPECT_EQ(ERANGE, strncat_s(n, 6, "z", 1));
	EXPECT_EQ(0, n[0]);
}

TEST(numbers_from_text)
{
	wchar_t *end;

	EXPECT_EQ(-42, _wtoi(L"  -42xyz"));
	EXPECT_EQ(0, _wtoi(L"x1"));
	errno = 0;
	EXPECT_EQ(INT_MAX, _wtoi(L"99999999999"));
	EXPECT_EQ(ERANGE, errno);
	EXPECT_EQ(INT_MIN, _wtol(L"-99999999999"));
	EXPECT_EQ(99999999999LL, _wtoi64(L"99999999999"));
	EXPECT_EQ(31, wcstoul(L"0x1F!", &end, 16));
	EXPECT_EQ(L'!', *end);
	EXPECT_EQ(8, wcstol(L"010", &end, 0));
	EXPECT_EQ(0, *end);
	EXPECT_EQ(0xFFFFFFFFFFFFFFFFULL, _wcstoui64(L"18446744073709551615", NULL, 10));
	EXPECT_EQ(2.5, _wtof(L"2.5e0"));
	/* A non-ASCII digit ends the number. */
	EXPECT_EQ(1, wcstol(L"1\x0663", &end, 10));
	EXPECT_EQ(L'\x0663', *end);
}

TEST(multibyte_is_utf8)
{
	wchar_t w[8];
	char n[8];

	EXPECT_EQ(3, mbstowcs(NULL, "\xc3\xa9\xf0\x9f\x98\x80", 0));
	EXPECT_EQ(3, mbstowcs(w, "\xc3\xa9\xf0\x9f\x98\x80", 8));
	WEQ(L"\x00e9\xD83D\xDE00", w);
	EXPECT_EQ(6, wcstombs(NULL, L"\x00e9\xD83D\xDE00", 0));
	EXPECT_EQ(6, wcstombs(n, L"\x00e9\xD83D\xDE00", 8));
	EXPECT_STREQ("\xc3\xa9\xf0\x9f\x98\x80", n);
	/* Only whole characters when the buffer is short. */
	memset(n, 0, sizeof(n));
	EXPECT_EQ(2, wcstombs(n, L"\x00e9\xD83D\xDE00", 4));
	EXPECT_STREQ("\xc3\xa9", n);
}

TEST(full_paths)
{
	char cwd[512], want[600], narrow[600];
	wchar_t w[600], *alloc;

	ASSERT_NE(NULL, getcwd(cwd, sizeof(cwd)));
	snprintf(want, sizeof(want), "%s/b.etl", strcmp(cwd, "/") ? cwd : "");
	ASSERT_NE(NULL, _wfullpath(w, L"a/../b.etl", 600));
	wcstombs(narrow, w, sizeof(narrow));
	EXPECT_STREQ(want, narrow);
	ASSERT_NE(NULL, _fullpath(narrow, "./x/./../b.etl", sizeof(narrow)));
	EXPECT_STREQ(want, narrow);
	WEQ(L"/c/d", _wfullpath(w, L"/c//e/../d/.", 600));
	EXPECT_EQ(NULL, _wfullpath(w, L"/c/d", 3));
	EXPECT_EQ(ERANGE, errno);
	alloc = _wfullpath(NULL, L"/", 0);
	ASSERT_NE(NULL, alloc);
	WEQ(L"/", alloc);
	free(alloc);
}

/* MSVC's byte-swap intrinsics (the Learn TDH example's IPv4 ports). */
TEST(byteswap)
{
	EXPECT_EQ(0x3412, _byteswap_ushort(0x1234));
	EXPECT_EQ(0x78563412U, _byteswap_ulong(0x12345678U));
	EXPECT_EQ(0x0807060504030201ULL, _byteswap_uint64(0x0102030405060708ULL));
}

TEST(tchar_routines)
{
	TCHAR b[32];

	_tcscpy_s(b, 32, _T("Logger"));
	EXPECT_EQ(6, _tcslen(b));
	EXPECT_EQ(0, _tcsicmp(b, _T("LOGGER")));
	EXPECT_EQ(12, _ttoi(_T("12")));
	EXPECT_EQ(8, _stprintf_s(b, 32, _T("%s-%d"), _T("abc"), 1234));
	EXPECT_EQ(0, _tcscmp(b, _T("abc-1234")));
	EXPECT_NE(NULL, _tgetenv(_T("PATH")));
	EXPECT_EQ(_tgetenv(_T("PATH")), _tgetenv(_T("PATH")));
	EXPECT_EQ(NULL, _tgetenv(_T("LIBETW_NO_SUCH_VARIABLE")));
}

/*
 * MSVC's __FUNCSIG__ is a string literal: a static assertion's message,
 * joined to other text, narrow or wide.  Here it names the place.
 */
_Static_assert(sizeof(__FUNCSIG__) > 1, __FUNCSIG__);
TEST(funcsig_is_a_literal)
{
	static const char sig[] = "at " __FUNCSIG__; const int line = __LINE__;
	static const wchar_t wsig[] = L"at " __FUNCSIG__;
	char want[256];

	snprintf(want, sizeof(want), "at %s:%d", __FILE__, line);
	EXPECT_STREQ(want, sig);
	EXPECT_EQ(sizeof(sig), sizeof(wsig) / sizeof(wchar_t));
}

TEST_HARNESS_MAIN
