/* SPDX-License-Identifier: MIT */
/*
 * No include guard: read before a standard header that libetw wraps
 * (<regex>, <filesystem>, <complex>, <codecvt>, <charconv>), so that
 * libstdc++ reads its own text without the old SAL names (__in, __out,
 * __success, __pre, __valid: names of its parameters) and without
 * etw_wstring.h's names (wstring, basic_string, ...).  etw_std_unhide.h
 * puts them back.
 */
#pragma push_macro("__in")
#pragma push_macro("__out")
#pragma push_macro("__success")
#pragma push_macro("__pre")
#pragma push_macro("__valid")
#pragma push_macro("__callback")
#pragma push_macro("__override")
#pragma push_macro("basic_string")
#pragma push_macro("wstring")
#pragma push_macro("basic_string_view")
#pragma push_macro("wstring_view")
#pragma push_macro("basic_ostream")
#pragma push_macro("basic_istream")
#pragma push_macro("basic_iostream")
#pragma push_macro("basic_streambuf")
#pragma push_macro("basic_ostringstream")
#pragma push_macro("basic_istringstream")
#pragma push_macro("basic_stringstream")
#pragma push_macro("basic_stringbuf")
#pragma push_macro("wostream")
#pragma push_macro("wistream")
#pragma push_macro("wiostream")
#pragma push_macro("wstreambuf")
#pragma push_macro("wostringstream")
#pragma push_macro("wistringstream")
#pragma push_macro("wstringstream")
#pragma push_macro("wstringbuf")
#pragma push_macro("to_wstring")
#pragma push_macro("wcout")
#pragma push_macro("wcerr")
#pragma push_macro("wclog")
#pragma push_macro("wcin")
#pragma push_macro("wofstream")
#pragma push_macro("wifstream")
#pragma push_macro("wfstream")
#pragma push_macro("wfilebuf")
#pragma push_macro("wstring_convert")
#pragma push_macro("wregex")
#pragma push_macro("wsmatch")
#pragma push_macro("wcmatch")
#undef __in
#undef __out
#undef __success
#undef __pre
#undef __valid
#undef __callback
#undef __override
#undef basic_string
#undef wstring
#undef basic_string_view
#undef wstring_view
#undef basic_ostream
#undef basic_istream
#undef basic_iostream
#undef basic_streambuf
#undef basic_ostringstream
#undef basic_istringstream
#undef basic_stringstream
#undef basic_stringbuf
#undef wostream
#undef wistream
#undef wiostream
#undef wstreambuf
#undef wostringstream
#undef wistringstream
#undef wstringstream
#undef wstringbuf
#undef to_wstring
#undef wcout
#undef wcerr
#undef wclog
#undef wcin
#undef wofstream
#undef wifstream
#undef wfstream
#undef wfilebuf
#undef wstring_convert
#undef wregex
#undef wsmatch
#undef wcmatch
