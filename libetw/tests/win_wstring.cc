// SPDX-License-Identifier: GPL-2.0
/*
 * Windows-source mode's C++ wide strings (etw_wstring.h), run: every
 * std::wstring and std::wstring_view operation Windows ETW code uses,
 * against the values Windows gives, with a 16-bit wchar_t: lengths,
 * comparisons, searches, concatenation, conversions to and from UTF-8,
 * std::to_wstring, hashing, wide string streams, std::wcout's UTF-8 and
 * MSVC's member _Copy_s.
 * Prints KTAP.
 */
#define UNICODE
#define _UNICODE
#include <Windows.h>
#include <StrSafe.h>
#include <cstdio>
#include <iomanip>
#include <map>
#include <signal.h>
#include <string>
#include <string_view>
#include <type_traits>
#include <sys/wait.h>
#include <unistd.h>
#include <unordered_map>
#include <vector>

static int tests, failed;

static void check(bool ok, const char *what)
{
	tests++;
	if (!ok)
		failed++;
	std::printf("%s %d %s\n", ok ? "ok" : "not ok", tests, what);
}

/* The UTF-8 of a wide string, through WideCharToMultiByte. */
static std::string utf8(const std::wstring &w)
{
	int n = WideCharToMultiByte(CP_UTF8, 0, w.data(), (int)w.size(), NULL, 0, NULL, NULL);
	std::string s(n, '\0');

	WideCharToMultiByte(CP_UTF8, 0, w.data(), (int)w.size(), &s[0], n, NULL, NULL);
	return s;
}

static std::wstring from_utf8(const std::string &s)
{
	int n = MultiByteToWideChar(CP_UTF8, 0, s.data(), (int)s.size(), NULL, 0);
	std::wstring w(n, L'\0');

	MultiByteToWideChar(CP_UTF8, 0, s.data(), (int)s.size(), &w[0], n);
	return w;
}

static void types()
{
	check(sizeof(wchar_t) == 2, "wchar_t is 16-bit");
	check(std::is_same<std::wstring, std::basic_string<WCHAR>>::value &&
	      std::is_same<std::wstring, std::basic_string<TCHAR>>::value,
	      "std::basic_string<TCHAR> is std::wstring");
	check(!std::is_same<std::wstring::traits_type, std::char_traits<wchar_t>>::value,
	      "std::wstring's traits are not libstdc++'s 32-bit ones");
	check(std::is_same<std::wstring_view, std::basic_string_view<wchar_t>>::value,
	      "std::basic_string_view<wchar_t> is std::wstring_view");
}

static void lengths_and_access()
{
	std::wstring s = L"hello world";
	const wchar_t *p = L"ETW session";

	check(s.size() == 11 && s.length() == 11, "an 11-character string has size 11");
	check(std::wstring(p).size() == 11 && wcslen(p) == 11, "from a pointer: wcslen's length");
	check(std::wstring(L"\U0001D11E").size() == 2, "a surrogate pair is two units");
	check(s[0] == L'h' && s.at(10) == L'd' && s.front() == L'h' && s.back() == L'd',
	      "operator[], at, front, back");
	check(s.c_str()[11] == 0 && wcslen(s.c_str()) == 11, "c_str is NUL-terminated");
	check(std::wstring().empty() && std::wstring(3, L'x') == L"xxx", "empty, (count, char)");
	check(std::wstring(p, 3) == L"ETW" && std::wstring(s, 6) == L"world",
	      "(pointer, count) and (string, pos)");
	bool threw = false;
	try {
		(void)s.at(11);
	} catch (const std::out_of_range &) {
		threw = true;
	}
	check(threw, "at past the end throws std::out_of_range");
}

static void comparisons()
{
	std::wstring a = L"Microsoft-Windows-Kernel", b = L"Microsoft-Windows-Kernel";

	check(a == b && !(a != b) && a.compare(b) == 0, "equal strings compare equal");
	check(a == L"Microsoft-Windows-Kernel" && L"Microsoft-Windows-Kernel" == a,
	      "string == literal, both ways");
	check(std::wstring(L"abc") < std::wstring(L"abd") && std::wstring(L"ab") < L"abc",
	      "operator< is lexicographic");
	check(std::wstring(L"\xFF00") > std::wstring(L"a"), "units compare unsigned");
	check(a.compare(0, 9, L"Microsoft") == 0 && a.compare(L"Microsoft") > 0,
	      "compare with a position and count");
	check(_wcsicmp(L"KERNEL", std::wstring(L"kernel").c_str()) == 0, "_wcsicmp on c_str");
}

static void searches()
{
	std::wstring s = L"a.b.c.etl";

	check(s.find(L'.') == 1 && s.rfind(L'.') == 5 && s.find(L"etl") == 6,
	      "find and rfind, a unit and a string");
	check(s.find(L"xyz") == std::wstring::npos && s.find(L'.', 6) == std::wstring::npos,
	      "not found is npos");
	check(s.find_first_of(L"bc") == 2 && s.find_last_of(L"bc") == 4 &&
	      s.find_first_not_of(L"a.") == 2 && s.find_last_not_of(L"let") == 5,
	      "find_first_of / last_of / first_not_of / last_not_of");
	check(s.substr(6) == L"etl" && s.substr(2, 3) == L"b.c", "substr");
}

static void concatenation_and_changes()
{
	std::wstring s = L"Trace";

	s += L'-';
	s += L"Session";
	s.append(2, L'!');
	check(s == L"Trace-Session!!" && s.size() == 15, "+=, append");
	check(L"<" + s + L">" == L"<Trace-Session!!>", "operator+ with literals");
	s.insert(0, L"My");
	s.erase(s.size() - 2);
	s.replace(2, 5, L"Event");
	check(s == L"MyEvent-Session", "insert, erase, replace");
	s.push_back(L'1');
	s.pop_back();
	s.resize(7);
	check(s == L"MyEvent", "push_back, pop_back, resize");
	std::wstring big;
	for (int i = 0; i < 1000; i++)
		big += L"ab";
	check(big.size() == 2000 && big.find(L"ba") == 1 && big.capacity() >= 2000,
	      "growth to 2000 units");
	std::wstring t = L"x";
	t.swap(big);
	check(t.size() == 2000 && big == L"x", "swap");
	s.clear();
	check(s.empty(), "clear");
}

static void views()
{
	std::wstring_view v = L"Microsoft-Windows-PowerShell";
	std::wstring owner = L"owned text";
	std::wstring_view ov = owner;

	check(v.size() == 28 && v.substr(18) == L"PowerShell", "size and substr");
	check(v.find(L"Windows") == 10 && v.rfind(L'-') == 17, "find, rfind");
	v.remove_prefix(10);
	v.remove_suffix(11);
	check(v == L"Windows", "remove_prefix / remove_suffix");
	check(std::wstring(v) == L"Windows" && ov.size() == 10 && ov == owner,
	      "to and from std::wstring");
	check(std::wstring_view(L"abc") < std::wstring_view(L"abd"), "ordering");
}

static void conversions()
{
	std::wstring w = L"a\u00e9\u20ac\U0001D11E";
	std::string s = utf8(w);

	check(s == "a\xc3\xa9\xe2\x82\xac\xf0\x9d\x84\x9e", "to UTF-8 with WideCharToMultiByte");
	check(from_utf8(s) == w, "back with MultiByteToWideChar");
	check(std::to_wstring(42) == L"42" && std::to_wstring(-7) == L"-7" &&
	      std::to_wstring(4294967295u) == L"4294967295" &&
	      std::to_wstring(1234567890123LL) == L"1234567890123" &&
	      std::to_wstring(3.5) == L"3.500000", "std::to_wstring");
	WCHAR buf[8];
	check(SUCCEEDED(StringCchCopyW(buf, ARRAYSIZE(buf), std::wstring(L"copy").c_str())) &&
	      std::wstring(buf) == L"copy", "c_str into the Win32 W functions and back");
}

static void containers()
{
	std::unordered_map<std::wstring, int> m;
	std::map<std::wstring, int> o;
	std::vector<std::wstring> v = { L"b", L"c", L"a" };

	m[L"Kernel"] = 1;
	m[L"PowerShell"] = 2;
	o[L"z"] = 1;
	o[L"a"] = 2;
	std::sort(v.begin(), v.end());
	check(m.at(L"PowerShell") == 2 && m.count(L"Kernel") == 1 && m.count(L"kernel") == 0,
	      "std::unordered_map keyed by std::wstring");
	check(std::hash<std::wstring>()(L"x") == std::hash<std::wstring>()(std::wstring(L"x")) &&
	      std::hash<std::wstring_view>()(L"x") == std::hash<std::wstring>()(L"x"),
	      "equal strings hash equal");
	check(o.begin()->first == L"a" && v[0] == L"a" && v[2] == L"c", "ordered containers, sort");
}

static void streams()
{
	std::wostringstream os;

	os << L"x=" << 3.5 << L" " << std::setw(5) << 7 << L" " << std::hex << 255
	   << L" " << std::boolalpha << true << L" " << std::wstring(L"s") << L'c';
	check(os.str() == L"x=3.5     7 ff true sc", "std::wostringstream formats as MSVC's");
	std::wostringstream pad;
	pad << std::setfill(L'0') << std::setw(4) << 42 << L"|" << std::left << std::setw(3)
	    << L"a" << L"|" << "narrow \xc3\xa9";
	check(pad.str() == L"0042|a00|narrow \u00e9", "fill (it stays), width, narrow UTF-8 text");
	std::wstringstream ss;
	ss << L"id " << 7;
	check(ss.str() == L"id 7", "std::wstringstream output");
}

/*
 * MSVC's member _Copy_s(dest, dest_size, count, off): the characters
 * copied without a terminator, clipped to the string's end; an offset
 * past the end throws; a destination too small ends the process.
 */
static void copy_s()
{
	const std::wstring name = L"krabs-\u00e9t\U0001D11E";
	wchar_t buf[16];
	bool threw = false;
	int status = 0;
	pid_t pid;

	wmemset(buf, L'#', ARRAYSIZE(buf));
	check(name._Copy_s(buf, ARRAYSIZE(buf), name.length()) == 10 &&
	      std::wstring(buf, 10) == name && buf[10] == L'#',
	      "_Copy_s copies the string, no terminator");
	check(name._Copy_s(buf, 4, 100, 6) == 4 && std::wstring(buf, 4) == L"\u00e9t\U0001D11E",
	      "_Copy_s clips the count at the end, from an offset");
	check(name._Copy_s(buf, 0, 5, 10) == 0, "_Copy_s from the end copies nothing");
	try {
		name._Copy_s(buf, ARRAYSIZE(buf), 1, 11);
	} catch (const std::out_of_range &) {
		threw = true;
	}
	check(threw, "_Copy_s past the end throws out_of_range");
	std::fflush(stdout);
	pid = fork();
	if (pid == 0) {
		close(2);
		name._Copy_s(buf, 4, name.length());
		_exit(0);
	}
	check(pid > 0 && waitpid(pid, &status, 0) == pid && WIFSIGNALED(status) &&
	      WTERMSIG(status) == SIGABRT, "_Copy_s into a destination too small ends the process");
}

/* std::wcout writes UTF-8 to standard output. */
static void wcout_is_utf8()
{
	char tmpl[] = "/tmp/win_wstring.XXXXXX";
	int fd = mkstemp(tmpl), saved;
	char got[64] = "";
	ssize_t n;

	if (fd < 0) {
		check(false, "std::wcout writes UTF-8 (mkstemp)");
		return;
	}
	std::fflush(stdout);
	saved = dup(1);
	dup2(fd, 1);
	std::wcout << L"\u00e9\u20ac\U0001D11E " << 42 << std::endl;
	std::fflush(stdout);
	dup2(saved, 1);
	close(saved);
	n = pread(fd, got, sizeof(got) - 1, 0);
	close(fd);
	unlink(tmpl);
	check(n == 13 && std::string(got, 13) == "\xc3\xa9\xe2\x82\xac\xf0\x9d\x84\x9e 42\n",
	      "std::wcout writes UTF-8");
}

int main()
{
	std::printf("TAP version 13\n1..50\n");
	types();
	lengths_and_access();
	comparisons();
	searches();
	concatenation_and_changes();
	views();
	conversions();
	containers();
	streams();
	copy_s();
	wcout_is_utf8();
	std::printf("# Totals: pass:%d fail:%d\n", tests - failed, failed);
	return failed != 0;
}
