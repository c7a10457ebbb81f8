/* SPDX-License-Identifier: MIT */
/*
 * Windows-source mode, C++ only (etw_crt_prelude.h includes it): the
 * standard library's wide strings and streams for a 16-bit wchar_t.
 *
 * libstdc++ is built for a 32-bit wchar_t: its std::basic_string<wchar_t>
 * is instantiated in libstdc++.so, and std::char_traits<wchar_t> calls
 * glibc's 32-bit wcslen and wmemcmp.  With -fshort-wchar those read
 * 16-bit text as 32-bit.  So the wide types a program names are others,
 * of the same templates over libetw::wchar_traits: a distinct traits
 * type makes them distinct types, instantiated in the program from the
 * headers alone, with symbols of their own that never meet libstdc++'s.
 *
 * std::wstring, std::wstring_view, std::wostream, std::wostringstream,
 * std::wstringstream and the basic_* templates named with wchar_t (and
 * the default traits, as std::basic_string<TCHAR> is) are these types,
 * through macros; std::to_wstring makes one; std::wcout, std::wcerr and
 * std::wclog write UTF-8 to stdout and stderr; std::hash takes them;
 * MSVC's member _Copy_s works on std::wstring (C++17).
 * Numbers a wide stream formats are formatted narrow and widened, so the
 * locale's 32-bit wide facets are never used.  What cannot work this way
 * is a compile error: reading numbers from a wide stream, std::wcin, the
 * wide file streams, std::wstring_convert and std::filesystem::path's
 * wstring().
 */
#ifndef LIBETW_ETW_WSTRING_H
#define LIBETW_ETW_WSTRING_H

#ifndef __cplusplus
#error "etw_wstring.h is C++"
#endif

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <iostream>
#include <sstream>
#include <stdexcept>
#include <streambuf>
#include <string>
#if __cplusplus >= 201703L
#include <string_view>
#endif

#define LIBETW_NO_WIDE_STD(what)	__attribute__((__unavailable__(what \
	" is built for a 32-bit wchar_t; libetw-windows compiles with -fshort-wchar "\
	"(Documentation/porting.rst)")))

namespace libetw {

/*
 * The portable character traits of libstdc++ (loops and memcpy, no
 * library symbol), as a type of their own.
 */
struct wchar_traits : __gnu_cxx::char_traits<wchar_t> {
#if __cplusplus > 201703L
	using comparison_category = std::strong_ordering;
#endif
};

template <class C> struct std_traits { typedef std::char_traits<C> type; };
template <> struct std_traits<wchar_t> { typedef wchar_traits type; };
template <class C> using traits_t = typename std_traits<C>::type;

/* UTF-16 to UTF-8 on a stdio stream, a surrogate pair split or not. */
class utf8_wstreambuf : public std::basic_streambuf<wchar_t, wchar_traits> {
public:
	explicit utf8_wstreambuf(FILE *f) : file_(f), high_(0) {}

protected:
	int_type overflow(int_type c) override
	{
		if (traits_type::eq_int_type(c, traits_type::eof()))
			return traits_type::not_eof(c);
		wchar_t u = traits_type::to_char_type(c);
		return put(&u, 1) ? c : traits_type::eof();
	}

	std::streamsize xsputn(const wchar_t *s, std::streamsize n) override
	{
		return put(s, (size_t)n) ? n : 0;
	}

	int sync() override
	{
		return std::fflush(file_) ? -1 : 0;
	}

private:
	bool put(const wchar_t *s, size_t n)
	{
		char out[256];
		size_t o = 0, i;

		for (i = 0; i < n; i++) {
			unsigned int c = (unsigned short)s[i];

			if (high_) {
				if (c >= 0xDC00 && c < 0xE000) {
					c = 0x10000 + ((high_ - 0xD800) << 10) + (c - 0xDC00);
					high_ = 0;
				} else {
					high_ = 0;
					o = enc(0xFFFD, out, o);
				}
			}
			if (c >= 0xD800 && c < 0xDC00) {
				high_ = c;
				continue;
			}
			if (c >= 0xDC00 && c < 0xE000)
				c = 0xFFFD;
			o = enc(c, out, o);
			if (o > sizeof(out) - 8) {
				if (std::fwrite(out, 1, o, file_) != o)
					return false;
				o = 0;
			}
		}
		return std::fwrite(out, 1, o, file_) == o;
	}

	static size_t enc(unsigned int c, char *out, size_t o)
	{
		if (c < 0x80) {
			out[o++] = (char)c;
		} else if (c < 0x800) {
			out[o++] = (char)(0xC0 | (c >> 6));
			out[o++] = (char)(0x80 | (c & 0x3F));
		} else if (c < 0x10000) {
			out[o++] = (char)(0xE0 | (c >> 12));
			out[o++] = (char)(0x80 | ((c >> 6) & 0x3F));
			out[o++] = (char)(0x80 | (c & 0x3F));
		} else {
			out[o++] = (char)(0xF0 | (c >> 18));
			out[o++] = (char)(0x80 | ((c >> 12) & 0x3F));
			out[o++] = (char)(0x80 | ((c >> 6) & 0x3F));
			out[o++] = (char)(0x80 | (c & 0x3F));
		}
		return o;
	}

	FILE *file_;
	unsigned int high_;
};

/* A std::ostringstream's text widened (what it formats is ASCII). */
template <class S> inline void widen_ascii(S &out, const std::string &s)
{
	for (char c : s)
		out.push_back((wchar_t)(unsigned char)c);
}

} /* namespace libetw */

namespace std {

template <class C, class T = libetw::traits_t<C>, class A = allocator<C>>
using libetw_basic_string = basic_string<C, T, A>;
typedef basic_string<wchar_t, libetw::wchar_traits> libetw_wstring;
#if __cplusplus >= 201703L
template <class C, class T = libetw::traits_t<C>>
using libetw_basic_string_view = basic_string_view<C, T>;
typedef basic_string_view<wchar_t, libetw::wchar_traits> libetw_wstring_view;
#endif
template <class C, class T = libetw::traits_t<C>>
using libetw_basic_ostream = basic_ostream<C, T>;
template <class C, class T = libetw::traits_t<C>>
using libetw_basic_istream = basic_istream<C, T>;
template <class C, class T = libetw::traits_t<C>>
using libetw_basic_iostream = basic_iostream<C, T>;
template <class C, class T = libetw::traits_t<C>>
using libetw_basic_streambuf = basic_streambuf<C, T>;
template <class C, class T = libetw::traits_t<C>, class A = allocator<C>>
using libetw_basic_ostringstream = basic_ostringstream<C, T, A>;
template <class C, class T = libetw::traits_t<C>, class A = allocator<C>>
using libetw_basic_istringstream = basic_istringstream<C, T, A>;
template <class C, class T = libetw::traits_t<C>, class A = allocator<C>>
using libetw_basic_stringstream = basic_stringstream<C, T, A>;
template <class C, class T = libetw::traits_t<C>, class A = allocator<C>>
using libetw_basic_stringbuf = basic_stringbuf<C, T, A>;
typedef basic_ostream<wchar_t, libetw::wchar_traits> libetw_wostream;
typedef basic_istream<wchar_t, libetw::wchar_traits> libetw_wistream;
typedef basic_iostream<wchar_t, libetw::wchar_traits> libetw_wiostream;
typedef basic_streambuf<wchar_t, libetw::wchar_traits> libetw_wstreambuf;
typedef basic_ostringstream<wchar_t, libetw::wchar_traits> libetw_wostringstream;
typedef basic_istringstream<wchar_t, libetw::wchar_traits> libetw_wistringstream;
typedef basic_stringstream<wchar_t, libetw::wchar_traits> libetw_wstringstream;
typedef basic_stringbuf<wchar_t, libetw::wchar_traits> libetw_wstringbuf;

/*
 * A wide stream's numbers: formatted by a narrow stream with the same
 * flags, width, precision and (ASCII) fill, the text widened.  Never
 * through the locale's wchar_t facets, which are 32-bit.
 */
template <> template <class V>
inline libetw_wostream &libetw_wostream::_M_insert(V v)
{
	sentry ok(*this);

	if (ok) {
		ostringstream n;
		wchar_t f = this->fill();

		n.flags(this->flags());
		n.precision(this->precision());
		n.width(this->width());
		n.fill(f < 0x80 ? (char)f : ' ');
		n << v;
		this->width(0);
		libetw_wstring w;
		libetw::widen_ascii(w, n.str());
		if (f >= 0x80)
			for (auto &c : w)
				if (c == L' ')
					c = f;
		if (this->rdbuf()->sputn(w.data(), (streamsize)w.size()) != (streamsize)w.size())
			this->setstate(ios_base::badbit);
	}
	return *this;
}

/* Reading numbers from a wide stream would need the 32-bit facets. */
template <> template <class V>
inline libetw_wistream &libetw_wistream::_M_extract(V &)
{
	static_assert(sizeof(V) == 0, "reading a number from a wide stream needs libstdc++'s "
		      "num_get<wchar_t>, built for a 32-bit wchar_t (Documentation/porting.rst)");
	return *this;
}

/* (int and short are read by num_get<wchar_t> directly.) */
template <>
libetw_wistream &libetw_wistream::operator>>(int &)
	LIBETW_NO_WIDE_STD("reading a number from a wide stream (num_get<wchar_t>)");
template <>
libetw_wistream &libetw_wistream::operator>>(short &)
	LIBETW_NO_WIDE_STD("reading a number from a wide stream (num_get<wchar_t>)");

/* Narrow text into a wide stream: UTF-8, as the program's strings are. */
inline libetw_wostream &operator<<(libetw_wostream &os, const char *s)
{
	if (!s) {
		os.setstate(ios_base::badbit);
		return os;
	}
	size_t n = strlen(s);
	libetw_wstring w;
	w.reserve(n);
	for (size_t i = 0; i < n; ) {
		unsigned int c = (unsigned char)s[i], len = 1, k;

		if (c >= 0xC2 && c < 0xE0)
			len = 2, c &= 0x1F;
		else if (c >= 0xE0 && c < 0xF0)
			len = 3, c &= 0x0F;
		else if (c >= 0xF0 && c < 0xF5)
			len = 4, c &= 0x07;
		else if (c >= 0x80)
			len = 0;
		for (k = 1; len && k < len; k++) {
			if (i + k >= n || ((unsigned char)s[i + k] & 0xC0) != 0x80)
				len = 0;
			else
				c = (c << 6) | ((unsigned char)s[i + k] & 0x3F);
		}
		if (!len || (len == 3 && (c < 0x800 || (c >= 0xD800 && c < 0xE000))) ||
		    (len == 4 && (c < 0x10000 || c > 0x10FFFF))) {
			c = 0xFFFD;
			len = 1;
		}
		if (c >= 0x10000) {
			w.push_back((wchar_t)(0xD800 + ((c - 0x10000) >> 10)));
			w.push_back((wchar_t)(0xDC00 + ((c - 0x10000) & 0x3FF)));
		} else {
			w.push_back((wchar_t)c);
		}
		i += len;
	}
	return __ostream_insert(os, w.data(), (streamsize)w.size());
}

inline libetw_wostream &operator<<(libetw_wostream &os, const string &s)
{
	return os << s.c_str();
}

/* std::to_wstring: what std::to_string gives, widened (it is ASCII). */
#define LIBETW_TO_WSTRING(type) \
	inline libetw_wstring libetw_to_wstring(type v) \
	{ \
		libetw_wstring w; \
		libetw::widen_ascii(w, to_string(v)); \
		return w; \
	}
LIBETW_TO_WSTRING(int)
LIBETW_TO_WSTRING(unsigned)
LIBETW_TO_WSTRING(long)
LIBETW_TO_WSTRING(unsigned long)
LIBETW_TO_WSTRING(long long)
LIBETW_TO_WSTRING(unsigned long long)
LIBETW_TO_WSTRING(float)
LIBETW_TO_WSTRING(double)
LIBETW_TO_WSTRING(long double)
#undef LIBETW_TO_WSTRING

template <> struct hash<libetw_wstring> {
	size_t operator()(const libetw_wstring &s) const noexcept
	{
		return _Hash_impl::hash(s.data(), s.size() * sizeof(wchar_t));
	}
};
#if __cplusplus >= 201703L
template <> struct hash<libetw_wstring_view> {
	size_t operator()(const libetw_wstring_view &s) const noexcept
	{
		return _Hash_impl::hash(s.data(), s.size() * sizeof(wchar_t));
	}
};
#endif

} /* namespace std */

#if __cplusplus >= 201703L
namespace libetw {

/*
 * MSVC's basic_string member _Copy_s(dest, dest_size, count, off = 0):
 * copies [off, off + count) clipped to the string's end, without a
 * terminator, and returns how many it copied; off past the end throws
 * out_of_range.  A destination too small for what it would copy is
 * MSVC's invalid parameter: dest is zeroed (as memcpy_s does) and the
 * process ends, as the default handler ends it.  libstdc++'s string has
 * no such member, so _Copy_s is a macro that reaches the string through
 * its string_view conversion (C++17) and hands it to operator->*: as on
 * Windows for a wide string, `s._Copy_s(...)`; a cast or unary operator
 * put directly in front of the call needs parentheses around it.
 */
struct copy_s_args {
	wchar_t *dest;
	size_t dest_size, count, off;

	copy_s_args(wchar_t *d, size_t n, size_t c, size_t o = 0)
		: dest(d), dest_size(n), count(c), off(o) {}
};

inline size_t operator->*(std::libetw_wstring_view s, const copy_s_args &a)
{
	if (a.off > s.size())
		throw std::out_of_range("invalid string position");

	size_t n = std::min(a.count, s.size() - a.off);

	if (!a.dest || a.dest_size < n) {
		if (a.dest)
			memset(a.dest, 0, a.dest_size * sizeof(wchar_t));
		fprintf(stderr, "_Copy_s: invalid parameter (%s)\n",
			a.dest ? "destination too small" : "null destination");
		abort();
	}
	wchar_traits::copy(a.dest, s.data() + a.off, n);
	return n;
}

} /* namespace libetw */

#define _Copy_s(dest, dest_size, ...) \
	operator std::libetw_wstring_view() ->* ::libetw::copy_s_args((dest), (dest_size), __VA_ARGS__)
#endif

namespace std {

#if __cplusplus >= 201703L
inline libetw::utf8_wstreambuf libetw_wcout_buf(stdout), libetw_wcerr_buf(stderr);
inline libetw_wostream libetw_wcout(&libetw_wcout_buf);
inline libetw_wostream libetw_wcerr(&libetw_wcerr_buf);
inline libetw_wostream libetw_wclog(&libetw_wcerr_buf);
#endif

struct libetw_no_wide_std;
extern libetw_no_wide_std &libetw_wcin LIBETW_NO_WIDE_STD("std::wcin");
typedef libetw_no_wide_std libetw_wofstream LIBETW_NO_WIDE_STD("std::wofstream");
typedef libetw_no_wide_std libetw_wifstream LIBETW_NO_WIDE_STD("std::wifstream");
typedef libetw_no_wide_std libetw_wfstream LIBETW_NO_WIDE_STD("std::wfstream");
typedef libetw_no_wide_std libetw_wfilebuf LIBETW_NO_WIDE_STD("std::wfilebuf");
typedef libetw_no_wide_std libetw_wregex LIBETW_NO_WIDE_STD("std::wregex");
typedef libetw_no_wide_std libetw_wsmatch LIBETW_NO_WIDE_STD("std::wsmatch");
typedef libetw_no_wide_std libetw_wcmatch LIBETW_NO_WIDE_STD("std::wcmatch");
template <class...> using libetw_wstring_convert LIBETW_NO_WIDE_STD("std::wstring_convert") =
	libetw_no_wide_std;

} /* namespace std */

#undef LIBETW_NO_WIDE_STD

#define basic_string		libetw_basic_string
#define wstring			libetw_wstring
#define basic_string_view	libetw_basic_string_view
#define wstring_view		libetw_wstring_view
#define basic_ostream		libetw_basic_ostream
#define basic_istream		libetw_basic_istream
#define basic_iostream		libetw_basic_iostream
#define basic_streambuf		libetw_basic_streambuf
#define basic_ostringstream	libetw_basic_ostringstream
#define basic_istringstream	libetw_basic_istringstream
#define basic_stringstream	libetw_basic_stringstream
#define basic_stringbuf		libetw_basic_stringbuf
#define wostream		libetw_wostream
#define wistream		libetw_wistream
#define wiostream		libetw_wiostream
#define wstreambuf		libetw_wstreambuf
#define wostringstream		libetw_wostringstream
#define wistringstream		libetw_wistringstream
#define wstringstream		libetw_wstringstream
#define wstringbuf		libetw_wstringbuf
#define to_wstring		libetw_to_wstring
#define wcout			libetw_wcout
#define wcerr			libetw_wcerr
#define wclog			libetw_wclog
#define wcin			libetw_wcin
#define wofstream		libetw_wofstream
#define wifstream		libetw_wifstream
#define wfstream		libetw_wfstream
#define wfilebuf		libetw_wfilebuf
#define wstring_convert		libetw_wstring_convert
#define wregex			libetw_wregex
#define wsmatch			libetw_wsmatch
#define wcmatch			libetw_wcmatch

#endif /* LIBETW_ETW_WSTRING_H */
