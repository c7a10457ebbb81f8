// SPDX-License-Identifier: GPL-2.0
/*
 * What Windows-source mode cannot make right with libstdc++'s 32-bit
 * wide facets must not compile (libetw/build.mk builds each case and
 * fails if one compiles; NONE must compile, so that a case fails for
 * its own line only).
 */
#define UNICODE
#include <Windows.h>
#include <filesystem>
#include <regex>
#include <codecvt>

#ifndef CASE
#define CASE NONE
#endif
#define NONE 0
#define WCIN 1
#define WIDE_NUMBER_IN 2
#define WOFSTREAM 3
#define WSTRING_CONVERT 4
#define FS_WSTRING 5
#define WREGEX 6
#define WSS_NUMBER_IN 7
#define WIDE_DOUBLE_IN 8

int main()
{
	std::wstring s;
	int n = 0;

#if CASE == WCIN
	std::wcin >> s;
#elif CASE == WIDE_NUMBER_IN
	std::wistringstream is(L"5");
	is >> n;
#elif CASE == WOFSTREAM
	std::wofstream f("x");
#elif CASE == WSTRING_CONVERT
	std::wstring_convert<std::codecvt_utf8<wchar_t>> c;
#elif CASE == FS_WSTRING
	s = std::filesystem::path("x").wstring();
#elif CASE == WREGEX
	std::wregex r(L"x");
#elif CASE == WSS_NUMBER_IN
	std::wstringstream ss(L"5 6");
	ss >> n;
#elif CASE == WIDE_DOUBLE_IN
	std::wistringstream is(L"5.5");
	double d;
	is >> d;
#endif
	return (int)s.size() + n;
}
