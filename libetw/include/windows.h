/* SPDX-License-Identifier: MIT */
/*
 * windows.h for libetw: only the Win32 base types, calling-convention
 * macros and error codes that the ETW headers (wmistr.h, evntprov.h,
 * evntrace.h, evntcons.h) and programs written against them use.  It is
 * not a Windows SDK and never includes one: the only functions declared
 * here are GetLastError() and SetLastError().
 *
 * Type model (etw-api.md 0.1): ULONG, LONG and DWORD are 32-bit on every
 * ABI ("long" is 64-bit on LP64 Linux and is never used), BOOLEAN is one
 * byte and BOOL an int, WCHAR is a 16-bit UTF-16 code unit (char16_t).
 * Wide strings are written u"..." or TEXT("...") with UNICODE defined;
 * L"..." is a 32-bit wchar_t string on Linux and is not an LPCWSTR.
 *
 * On 32-bit x86, Windows aligns 64-bit integers to 8 bytes inside
 * structures and gcc to 4: the 64-bit members of the structures here are
 * marked LIBETW_ALIGN8 so that they keep Windows' layout there too.  The
 * typedefs themselves carry no attribute (C++ would ignore it in template
 * arguments, with a warning).
 *
 * With NONAMELESSUNION defined, the anonymous unions and structs of the
 * ETW structures are named u, u2, ... and s, s2, ... as on Windows.
 *
 * Windows-source mode (LIBETW_WINDOWS_SOURCE, which `pkg-config
 * libetw-windows` defines together with -fshort-wchar): WCHAR is wchar_t,
 * 16-bit, so L"..." is UTF-16 and TEXT("x") is L"x", and this header also
 * supplies the Win32 and MSVC C runtime subset of etw_win32.h and
 * etw_crt.h (Documentation/porting.rst).
 */
#ifndef LIBETW_WINDOWS_H
#define LIBETW_WINDOWS_H

#ifdef LIBETW_WINDOWS_SOURCE
#if !defined(__SIZEOF_WCHAR_T__) || __SIZEOF_WCHAR_T__ != 2
#error "LIBETW_WINDOWS_SOURCE needs -fshort-wchar: build with pkg-config libetw-windows"
#endif
/* First, so that etw_crt.h's names are not undone by a later include. */
#include "etw_crt_prelude.h"
#endif

#include <stddef.h>
#include <stdint.h>
#ifndef __cplusplus
#include <uchar.h>
#endif

#ifdef __cplusplus
#define LIBETW_STATIC_ASSERT(expr, msg)	static_assert(expr, msg)
#define LIBETW_ALIGNOF(type)		alignof(type)
#else
#define LIBETW_STATIC_ASSERT(expr, msg)	_Static_assert(expr, msg)
#define LIBETW_ALIGNOF(type)		_Alignof(type)
#endif

#if defined(__i386__)
#define LIBETW_ALIGN8	__attribute__((aligned(8)))
#else
#define LIBETW_ALIGN8
#endif

#ifndef EXTERN_C
#ifdef __cplusplus
#define EXTERN_C	extern "C"
#else
#define EXTERN_C	extern
#endif
#endif

/* Calling conventions: one convention on Linux, so all of them are empty. */
#define WINAPI
#define NTAPI
#define CALLBACK
#define WMIAPI
#define EVNTAPI
#define DECLSPEC_IMPORT
#define UNALIGNED

#define VOID	void
#define CONST	const

#ifndef FALSE
#define FALSE	0
#endif
#ifndef TRUE
#define TRUE	1
#endif

#define ANYSIZE_ARRAY	1
#define MAX_PATH	260
#define INFINITE	0xFFFFFFFF

#ifdef NONAMELESSUNION
#define DUMMYUNIONNAME	u
#define DUMMYUNIONNAME2	u2
#define DUMMYUNIONNAME3	u3
#define DUMMYUNIONNAME4	u4
#define DUMMYUNIONNAME5	u5
#else
#define DUMMYUNIONNAME
#define DUMMYUNIONNAME2
#define DUMMYUNIONNAME3
#define DUMMYUNIONNAME4
#define DUMMYUNIONNAME5
#endif

#ifdef NONAMELESSUNION
#define DUMMYSTRUCTNAME		s
#define DUMMYSTRUCTNAME2	s2
#define DUMMYSTRUCTNAME3	s3
#else
#define DUMMYSTRUCTNAME
#define DUMMYSTRUCTNAME2
#define DUMMYSTRUCTNAME3
#endif

typedef char CHAR;
typedef uint8_t UCHAR, BYTE, BOOLEAN, UINT8;
typedef int8_t INT8;
typedef int16_t INT16;
typedef uint16_t UINT16;
typedef int16_t SHORT;
typedef uint16_t USHORT, WORD;
typedef int32_t LONG, LONG32, INT32;
typedef uint32_t ULONG, DWORD, ULONG32, DWORD32, UINT32;
typedef int INT, BOOL;
typedef unsigned int UINT;
typedef int64_t LONGLONG;
typedef int64_t LONG64;
typedef int64_t INT64;
typedef uint64_t ULONGLONG;
typedef uint64_t ULONG64;
typedef uint64_t DWORD64;
typedef uint64_t UINT64;
typedef intptr_t INT_PTR, LONG_PTR;
typedef uintptr_t UINT_PTR, ULONG_PTR, DWORD_PTR, SIZE_T;

#ifdef LIBETW_WINDOWS_SOURCE
typedef wchar_t WCHAR;
#else
typedef char16_t WCHAR;
#endif

typedef void *PVOID, *LPVOID, *HANDLE;
typedef const void *LPCVOID;
typedef HANDLE *PHANDLE;

typedef CHAR *PCHAR, *PSTR, *LPSTR;
typedef const CHAR *PCSTR, *LPCSTR;
typedef WCHAR *PWCHAR, *PWSTR, *LPWSTR;
typedef const WCHAR *PCWSTR, *LPCWSTR;
typedef UCHAR *PUCHAR;
typedef BYTE *PBYTE, *LPBYTE;
typedef BOOLEAN *PBOOLEAN;
typedef BOOL *PBOOL, *LPBOOL;
typedef USHORT *PUSHORT;

/* Counted strings of the native API: Length and MaximumLength in bytes. */
typedef struct _STRING {
	USHORT Length;
	USHORT MaximumLength;
	PCHAR Buffer;
} STRING, ANSI_STRING, *PSTRING, *PANSI_STRING;
typedef const STRING *PCSTRING;
typedef const ANSI_STRING *PCANSI_STRING;
typedef struct _UNICODE_STRING {
	USHORT Length;
	USHORT MaximumLength;
	PWSTR Buffer;
} UNICODE_STRING, *PUNICODE_STRING;
typedef const UNICODE_STRING *PCUNICODE_STRING;
typedef WORD *PWORD;
typedef LONG *PLONG;
typedef ULONG *PULONG;
typedef DWORD *PDWORD, *LPDWORD;
typedef LONGLONG *PLONGLONG;
typedef ULONGLONG *PULONGLONG;
typedef ULONG64 *PULONG64;

/* The rest of minwindef.h's, basetsd.h's and winnt.h's basic types. */
typedef float FLOAT, *PFLOAT;
typedef double DOUBLE;
typedef char CCHAR;
typedef SHORT *PSHORT;
typedef INT *PINT, *LPINT;
typedef UINT *PUINT;
typedef WORD *LPWORD;
typedef LONG *LPLONG;
typedef const BYTE *LPCBYTE, *PCBYTE;
typedef CHAR *PSZ;
typedef const CHAR *PCSZ;
typedef CHAR *PCH, *LPCH, *PNZCH;
typedef const CHAR *PCCH, *LPCCH, *PCNZCH;
typedef WCHAR *PWCH, *LPWCH, *NWPSTR, *PNZWCH, *PZZWSTR, *PUWSTR, *LPUWSTR;
typedef const WCHAR *PCWCH, *LPCWCH, *PCNZWCH, *PCZZWSTR, *PCUWSTR, *LPCUWSTR;
typedef PWSTR *PZPWSTR;
typedef const PWSTR *PCZPWSTR;
typedef PSTR *PZPSTR;
typedef ULONGLONG DWORDLONG, *PDWORDLONG;
typedef INT8 *PINT8;
typedef INT16 *PINT16;
typedef INT32 *PINT32;
typedef INT64 *PINT64;
typedef UINT8 *PUINT8;
typedef UINT16 *PUINT16;
typedef UINT32 *PUINT32;
typedef UINT64 *PUINT64;
typedef LONG32 *PLONG32;
typedef ULONG32 *PULONG32;
typedef DWORD32 *PDWORD32;
typedef LONG64 *PLONG64;
typedef DWORD64 *PDWORD64;
typedef INT_PTR *PINT_PTR;
typedef UINT_PTR *PUINT_PTR;
typedef LONG_PTR *PLONG_PTR, SSIZE_T, *PSSIZE_T;
typedef ULONG_PTR *PULONG_PTR, *PDWORD_PTR, KAFFINITY, *PKAFFINITY;
typedef SIZE_T *PSIZE_T;
#if UINTPTR_MAX == 0xFFFFFFFFu
typedef int16_t HALF_PTR, *PHALF_PTR;
typedef uint16_t UHALF_PTR, *PUHALF_PTR;
#else
typedef int32_t HALF_PTR, *PHALF_PTR;
typedef uint32_t UHALF_PTR, *PUHALF_PTR;
#endif
typedef UINT_PTR WPARAM;
typedef LONG_PTR LPARAM, LRESULT;
typedef WORD ATOM, LANGID;
typedef DWORD LCID;
typedef LONG NTSTATUS, *PNTSTATUS;
typedef HANDLE HINSTANCE, HMODULE, HKEY, HWND, *PHKEY;
typedef INT_PTR (*FARPROC)(void);
typedef INT_PTR (*NEARPROC)(void);
typedef INT_PTR (*PROC)(void);

#define MAXCHAR		0x7f
#define MINCHAR		0x80
#define MAXBYTE		0xff
#define MAXSHORT	0x7fff
#define MINSHORT	0x8000
#define MAXWORD		0xffff
#define MAXLONG		0x7fffffff
#define MINLONG		0x80000000
#define MAXULONG	0xffffffffu
#define MAXDWORD	0xffffffffu
#define MAXLONGLONG	(0x7fffffffffffffffLL)
#define MAXULONGLONG	(~(ULONGLONG)0)
#define MAXUINT		((UINT)~((UINT)0))
#define MAXINT		((INT)(MAXUINT >> 1))
#define MININT		((INT)~MAXINT)
#define MAXUINT8	((UINT8)~((UINT8)0))
#define MAXUINT16	((UINT16)~((UINT16)0))
#define MAXUINT32	((UINT32)~((UINT32)0))
#define MAXUINT64	((UINT64)~((UINT64)0))
#define MAXINT32	((INT32)(MAXUINT32 >> 1))
#define MAXINT64	((INT64)(MAXUINT64 >> 1))
#define MAXULONG_PTR	(~((ULONG_PTR)0))
#define MAXLONG_PTR	((LONG_PTR)(MAXULONG_PTR >> 1))
#define MAXUINT_PTR	(~((UINT_PTR)0))
#define MAXINT_PTR	((INT_PTR)(MAXUINT_PTR >> 1))
#define MAXSIZE_T	((SIZE_T)~((SIZE_T)0))

#define INVALID_HANDLE_VALUE	((HANDLE)(LONG_PTR)-1)

/*
 * TEXT("x") is u"x" (L"x" in Windows-source mode) when UNICODE is defined,
 * "x" otherwise.
 */
/* A WCHAR string literal in either mode, for the headers' W names. */
#ifdef LIBETW_WINDOWS_SOURCE
#define LIBETW_WIDE(quote)	L##quote
#else
#define LIBETW_WIDE(quote)	u##quote
#endif

#ifdef UNICODE
typedef WCHAR TCHAR;
#ifdef LIBETW_WINDOWS_SOURCE
#define LIBETW_TEXT(quote)	L##quote
#else
#define LIBETW_TEXT(quote)	u##quote
#endif
#else
typedef CHAR TCHAR;
#define LIBETW_TEXT(quote)	quote
#endif
#define TEXT(quote)	LIBETW_TEXT(quote)
typedef TCHAR *PTCHAR, *PTSTR, *LPTSTR;
typedef const TCHAR *PCTSTR, *LPCTSTR;

typedef union _LARGE_INTEGER {
	__extension__ struct {
		DWORD LowPart;
		LONG HighPart;
	} DUMMYSTRUCTNAME;
	struct {
		DWORD LowPart;
		LONG HighPart;
	} u;
	LONGLONG QuadPart LIBETW_ALIGN8;
} LARGE_INTEGER, *PLARGE_INTEGER;

typedef union _ULARGE_INTEGER {
	__extension__ struct {
		DWORD LowPart;
		DWORD HighPart;
	} DUMMYSTRUCTNAME;
	struct {
		DWORD LowPart;
		DWORD HighPart;
	} u;
	ULONGLONG QuadPart LIBETW_ALIGN8;
} ULARGE_INTEGER, *PULARGE_INTEGER;

/* 100-ns intervals since 1601-01-01 UTC, split in two 32-bit halves. */
typedef struct _FILETIME {
	DWORD dwLowDateTime;
	DWORD dwHighDateTime;
} FILETIME, *PFILETIME, *LPFILETIME;

typedef struct _SYSTEMTIME {
	WORD wYear;
	WORD wMonth;
	WORD wDayOfWeek;
	WORD wDay;
	WORD wHour;
	WORD wMinute;
	WORD wSecond;
	WORD wMilliseconds;
} SYSTEMTIME, *PSYSTEMTIME, *LPSYSTEMTIME;

/* Embedded in TRACE_LOGFILE_HEADER: 172 bytes (etw-api.md 0.1). */
typedef struct _TIME_ZONE_INFORMATION {
	LONG Bias;
	WCHAR StandardName[32];
	SYSTEMTIME StandardDate;
	LONG StandardBias;
	WCHAR DaylightName[32];
	SYSTEMTIME DaylightDate;
	LONG DaylightBias;
} TIME_ZONE_INFORMATION, *PTIME_ZONE_INFORMATION, *LPTIME_ZONE_INFORMATION;

#include "guiddef.h"
#include "winerror.h"
#include "sdkddkver.h"
#include "winapifamily.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The calling thread's last Win32 error code (thread-local in libetw). */
DWORD WINAPI GetLastError(void);
void WINAPI SetLastError(DWORD dwErrCode);

#ifdef __cplusplus
}
#endif

LIBETW_STATIC_ASSERT(sizeof(WCHAR) == 2, "WCHAR is one UTF-16 code unit");
LIBETW_STATIC_ASSERT(sizeof(BOOLEAN) == 1, "BOOLEAN is one byte");
LIBETW_STATIC_ASSERT(sizeof(BOOL) == 4, "BOOL is an int");
LIBETW_STATIC_ASSERT(sizeof(ULONG) == 4 && sizeof(LONG) == 4, "ULONG is 32-bit");
LIBETW_STATIC_ASSERT(sizeof(LARGE_INTEGER) == 8, "LARGE_INTEGER");
LIBETW_STATIC_ASSERT(LIBETW_ALIGNOF(LARGE_INTEGER) == 8, "LARGE_INTEGER alignment");
LIBETW_STATIC_ASSERT(sizeof(FILETIME) == 8, "FILETIME");
LIBETW_STATIC_ASSERT(sizeof(SYSTEMTIME) == 16, "SYSTEMTIME");
LIBETW_STATIC_ASSERT(sizeof(TIME_ZONE_INFORMATION) == 172, "TIME_ZONE_INFORMATION");

#ifdef LIBETW_WINDOWS_SOURCE
#include "etw_win32.h"
#include "etw_crt.h"
#endif

#endif /* LIBETW_WINDOWS_H */
