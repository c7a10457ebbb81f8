/* SPDX-License-Identifier: MIT */
/*
 * The part of Win32 that ETW programs use around the ETW calls: HRESULT,
 * the memory and array macros, MSVC's keywords (__cdecl, __int64,
 * __declspec(...), FORCEINLINE), SAL, and the few kernel32/advapi32/ole32
 * functions they call (Sleep, GetVersionEx, StringFromGUID2,
 * StringFromCLSID and CoTaskMemFree, the time conversions, the command
 * line, LocalFree/GlobalFree).
 *
 * <windows.h> includes it in Windows-source mode; <strsafe.h>,
 * <shellapi.h>, <sddl.h>, <conio.h> and <intsafe.h> include it in both
 * modes.  The functions take WCHAR text: char16_t in the default mode,
 * wchar_t (16-bit) in Windows-source mode, one ABI.
 */
#ifndef LIBETW_ETW_WIN32_H
#define LIBETW_ETW_WIN32_H

/*
 * <limits.h>: Windows' <windows.h> brings it (ole2.h, objbase.h,
 * stdlib.h), and Microsoft's TDH samples use ULONG_MAX without including
 * it.  glibc's ULONG_MAX is 64 bits: stored in a ULONG (ArrayIndex) it
 * is 0xFFFFFFFF as on Windows, but a ULONG never compares equal to it.
 */
#include <limits.h>
#include <string.h>

#include "windows.h"
#include "sal.h"

/* MSVC's keywords. */
#ifndef __cdecl
#define __cdecl
#endif
#ifndef __stdcall
#define __stdcall
#endif
#ifndef __fastcall
#define __fastcall
#endif
#define __int8		char
#define __int16		short
#define __int32		int
#define __int64		long long
#define __forceinline	__inline__ __attribute__((__always_inline__))
#define FORCEINLINE	__forceinline
#define DECLSPEC_NOINLINE	__attribute__((__noinline__))
#define DECLSPEC_SELECTANY	__attribute__((__weak__))
#define DECLSPEC_NORETURN	__attribute__((__noreturn__))
#define DECLSPEC_ALIGN(n)	__attribute__((__aligned__(n)))
#define APIENTRY
#define WINBASEAPI
#define WINADVAPI
#define NTSYSAPI
#define STDAPI		EXTERN_C HRESULT
#define STDMETHODCALLTYPE
#define IN
#define OUT
#define OPTIONAL

/*
 * MSVC's __FUNCSIG__ is a string literal, so programs put it where only a
 * literal goes (static_assert's message, "text" __FUNCSIG__).  gcc has no
 * literal for the function's signature (__PRETTY_FUNCTION__ is a
 * variable), so in Windows-source mode it is a literal naming the place
 * instead: "file:line".
 */
#if defined(LIBETW_WINDOWS_SOURCE) && !defined(__FUNCSIG__)
#define LIBETW_STR_(x)	#x
#define LIBETW_STR(x)	LIBETW_STR_(x)
#define __FUNCSIG__	__FILE__ ":" LIBETW_STR(__LINE__)
#endif

/*
 * __declspec(x) becomes the gcc attribute of the same meaning: selectany
 * (several definitions of one constant, as in mc.exe's headers) is a weak
 * definition, the linker keeping one.
 */
#define __declspec(x)			LIBETW_DECLSPEC_##x
#define LIBETW_DECLSPEC_selectany	__attribute__((__weak__))
#define LIBETW_DECLSPEC_noinline	__attribute__((__noinline__))
#define LIBETW_DECLSPEC_noreturn	__attribute__((__noreturn__))
#define LIBETW_DECLSPEC_nothrow
#define LIBETW_DECLSPEC_novtable
#define LIBETW_DECLSPEC_dllimport
#define LIBETW_DECLSPEC_dllexport	__attribute__((__visibility__("default")))
#define LIBETW_DECLSPEC_thread		__thread
#define LIBETW_DECLSPEC_align(n)	__attribute__((__aligned__(n)))
#define LIBETW_DECLSPEC_deprecated	__attribute__((__deprecated__))
#define LIBETW_DECLSPEC_restrict
#define LIBETW_DECLSPEC_noalias
#define LIBETW_DECLSPEC_uuid(x)
#define LIBETW_DECLSPEC_allocator
#define LIBETW_DECLSPEC_safebuffers

#define UNREFERENCED_PARAMETER(p)	((void)(p))
#define DBG_UNREFERENCED_PARAMETER(p)	((void)(p))
#define DBG_UNREFERENCED_LOCAL_VARIABLE(v)	((void)(v))
#define UNREFERENCED_LOCAL_VARIABLE(v)	((void)(v))

#define ZeroMemory(dst, len)		((void)memset((dst), 0, (len)))
#define RtlZeroMemory(dst, len)		((void)memset((dst), 0, (len)))
#define SecureZeroMemory(dst, len)	((void)memset((dst), 0, (len)))
#define FillMemory(dst, len, fill)	((void)memset((dst), (fill), (len)))
#define RtlFillMemory(dst, len, fill)	((void)memset((dst), (fill), (len)))
#define CopyMemory(dst, src, len)	((void)memcpy((dst), (src), (len)))
#define RtlCopyMemory(dst, src, len)	((void)memcpy((dst), (src), (len)))
#define MoveMemory(dst, src, len)	((void)memmove((dst), (src), (len)))
#define RtlMoveMemory(dst, src, len)	((void)memmove((dst), (src), (len)))
#define RtlEqualMemory(a, b, len)	(!memcmp((a), (b), (len)))

/* ARRAYSIZE/_countof: the element count of an array (not of a pointer). */
#define RTL_NUMBER_OF(a)	(sizeof(a) / sizeof((a)[0]))
#define ARRAYSIZE(a)		RTL_NUMBER_OF(a)
#define _countof(a)		RTL_NUMBER_OF(a)
#define _ARRAYSIZE(a)		RTL_NUMBER_OF(a)
#define RTL_FIELD_SIZE(type, field)	(sizeof(((type *)0)->field))
/*
 * FIELD_OFFSET(T, a[i]) with a runtime i works, as with Windows'
 * definition: gcc's offsetof takes one in C, and C++ gets Windows' own
 * form (g++ folds it wherever the index is a constant).
 */
#ifdef __cplusplus
#define FIELD_OFFSET(type, field)	((LONG)(LONG_PTR)&(((type *)0)->field))
#else
#define FIELD_OFFSET(type, field)	((LONG)__builtin_offsetof(type, field))
#endif
#define CONTAINING_RECORD(addr, type, field) \
	((type *)((char *)(addr) - offsetof(type, field)))

/* Not in C++, where they would break std::min and numeric_limits::max. */
#if !defined(__cplusplus) && !defined(NOMINMAX)
#ifndef min
#define min(a, b)	(((a) < (b)) ? (a) : (b))
#endif
#ifndef max
#define max(a, b)	(((a) > (b)) ? (a) : (b))
#endif
#endif

#define LOWORD(l)	((WORD)(((DWORD_PTR)(l)) & 0xffff))
#define HIWORD(l)	((WORD)((((DWORD_PTR)(l)) >> 16) & 0xffff))
#define LOBYTE(w)	((BYTE)(((DWORD_PTR)(w)) & 0xff))
#define HIBYTE(w)	((BYTE)((((DWORD_PTR)(w)) >> 8) & 0xff))
#define MAKEWORD(a, b)	((WORD)(((BYTE)(a)) | ((WORD)((BYTE)(b))) << 8))
#define MAKELONG(a, b)	((LONG)(((WORD)(a)) | ((DWORD)((WORD)(b))) << 16))

/* HRESULT: severity bit 31, facility 16..26, code 0..15 (winerror.h). */
typedef LONG HRESULT;
#define SUCCEEDED(hr)		(((HRESULT)(hr)) >= 0)
#define FAILED(hr)		(((HRESULT)(hr)) < 0)
#define IS_ERROR(hr)		((unsigned long)(hr) >> 31 == 1)
#define HRESULT_CODE(hr)	((hr) & 0xFFFF)
#define HRESULT_FACILITY(hr)	(((hr) >> 16) & 0x1fff)
#define HRESULT_SEVERITY(hr)	(((hr) >> 31) & 0x1)
#define FACILITY_WIN32		7
#define FACILITY_ITF		4
#define MAKE_HRESULT(sev, fac, code) \
	((HRESULT)(((ULONG)(sev) << 31) | ((ULONG)(fac) << 16) | ((ULONG)(code))))
#define __HRESULT_FROM_WIN32(x) \
	((HRESULT)(x) <= 0 ? ((HRESULT)(x)) : \
	 ((HRESULT)(((x) & 0x0000FFFF) | (FACILITY_WIN32 << 16) | 0x80000000)))
static inline HRESULT HRESULT_FROM_WIN32(ULONG x)
{
	return (HRESULT)x <= 0 ? (HRESULT)x :
		(HRESULT)((x & 0x0000FFFF) | (FACILITY_WIN32 << 16) | 0x80000000);
}
#define S_OK		((HRESULT)0)
#define S_FALSE		((HRESULT)1)
#define E_NOTIMPL	((HRESULT)0x80004001)
#define E_NOINTERFACE	((HRESULT)0x80004002)
#define E_POINTER	((HRESULT)0x80004003)
#define E_ABORT		((HRESULT)0x80004004)
#define E_FAIL		((HRESULT)0x80004005)
#define E_UNEXPECTED	((HRESULT)0x8000FFFF)
#define E_ACCESSDENIED	((HRESULT)0x80070005)
#define E_HANDLE	((HRESULT)0x80070006)
#define E_OUTOFMEMORY	((HRESULT)0x8007000E)
#define E_INVALIDARG	((HRESULT)0x80070057)
#define CO_E_CLASSSTRING	((HRESULT)0x800401F3)

/* COM's names for GUIDs and its wide strings (guiddef.h, wtypesbase.h). */
typedef GUID IID, CLSID;
typedef IID *LPIID;
typedef CLSID *LPCLSID;
#ifdef __cplusplus
#define REFIID		const IID &
#define REFCLSID	const IID &
#else
#define REFIID		const IID *
#define REFCLSID	const IID *
#endif
typedef WCHAR OLECHAR;
typedef OLECHAR *LPOLESTR;
typedef const OLECHAR *LPCOLESTR;

/* Windows' version structures (GetVersionEx): OSVERSIONINFOEX is 284/156. */
typedef struct _OSVERSIONINFOW {
	DWORD dwOSVersionInfoSize;
	DWORD dwMajorVersion;
	DWORD dwMinorVersion;
	DWORD dwBuildNumber;
	DWORD dwPlatformId;
	WCHAR szCSDVersion[128];
} OSVERSIONINFOW, *POSVERSIONINFOW, *LPOSVERSIONINFOW;
typedef struct _OSVERSIONINFOA {
	DWORD dwOSVersionInfoSize;
	DWORD dwMajorVersion;
	DWORD dwMinorVersion;
	DWORD dwBuildNumber;
	DWORD dwPlatformId;
	CHAR szCSDVersion[128];
} OSVERSIONINFOA, *POSVERSIONINFOA, *LPOSVERSIONINFOA;
typedef struct _OSVERSIONINFOEXW {
	DWORD dwOSVersionInfoSize;
	DWORD dwMajorVersion;
	DWORD dwMinorVersion;
	DWORD dwBuildNumber;
	DWORD dwPlatformId;
	WCHAR szCSDVersion[128];
	WORD wServicePackMajor;
	WORD wServicePackMinor;
	WORD wSuiteMask;
	BYTE wProductType;
	BYTE wReserved;
} OSVERSIONINFOEXW, *POSVERSIONINFOEXW, *LPOSVERSIONINFOEXW;
typedef struct _OSVERSIONINFOEXA {
	DWORD dwOSVersionInfoSize;
	DWORD dwMajorVersion;
	DWORD dwMinorVersion;
	DWORD dwBuildNumber;
	DWORD dwPlatformId;
	CHAR szCSDVersion[128];
	WORD wServicePackMajor;
	WORD wServicePackMinor;
	WORD wSuiteMask;
	BYTE wProductType;
	BYTE wReserved;
} OSVERSIONINFOEXA, *POSVERSIONINFOEXA, *LPOSVERSIONINFOEXA;
#define VER_PLATFORM_WIN32_NT	2
#define VER_NT_WORKSTATION	1

/* A security identifier: 8 + 4 * SubAuthorityCount bytes (winnt.h). */
typedef struct _SID_IDENTIFIER_AUTHORITY {
	BYTE Value[6];
} SID_IDENTIFIER_AUTHORITY, *PSID_IDENTIFIER_AUTHORITY;
typedef struct _SID {
	BYTE Revision;
	BYTE SubAuthorityCount;
	SID_IDENTIFIER_AUTHORITY IdentifierAuthority;
	DWORD SubAuthority[ANYSIZE_ARRAY];
} SID, *PISID;
typedef PVOID PSID;
#define SID_REVISION		1
#define SID_MAX_SUB_AUTHORITIES	15

typedef HANDLE HLOCAL, HGLOBAL;
#define HEAP_ZERO_MEMORY	0x00000008
typedef enum _HEAP_INFORMATION_CLASS {
	HeapCompatibilityInformation = 0,
	HeapEnableTerminationOnCorruption = 1,
} HEAP_INFORMATION_CLASS;
#define LMEM_FIXED	0x0000
#define LMEM_ZEROINIT	0x0040
#define LPTR		(LMEM_FIXED | LMEM_ZEROINIT)
#define GMEM_FIXED	0x0000
#define GMEM_ZEROINIT	0x0040
#define GPTR		(GMEM_FIXED | GMEM_ZEROINIT)

#ifdef __cplusplus
extern "C" {
#endif

/* kernel32 */
void WINAPI Sleep(DWORD dwMilliseconds);
DWORD WINAPI GetTickCount(void);
ULONGLONG WINAPI GetTickCount64(void);
DWORD WINAPI GetCurrentProcessId(void);
DWORD WINAPI GetCurrentThreadId(void);
BOOL WINAPI GetVersionExW(LPOSVERSIONINFOW lpVersionInformation);
BOOL WINAPI GetVersionExA(LPOSVERSIONINFOA lpVersionInformation);
void WINAPI GetSystemTimeAsFileTime(LPFILETIME lpSystemTimeAsFileTime);
void WINAPI GetSystemTime(LPSYSTEMTIME lpSystemTime);
void WINAPI GetLocalTime(LPSYSTEMTIME lpSystemTime);
BOOL WINAPI FileTimeToSystemTime(const FILETIME *lpFileTime, LPSYSTEMTIME lpSystemTime);
BOOL WINAPI SystemTimeToFileTime(const SYSTEMTIME *lpSystemTime, LPFILETIME lpFileTime);
BOOL WINAPI FileTimeToLocalFileTime(const FILETIME *lpFileTime, LPFILETIME lpLocalFileTime);
BOOL WINAPI SystemTimeToTzSpecificLocalTime(const TIME_ZONE_INFORMATION *lpTimeZoneInformation,
					     const SYSTEMTIME *lpUniversalTime,
					     LPSYSTEMTIME lpLocalTime);
DWORD WINAPI GetTimeZoneInformation(LPTIME_ZONE_INFORMATION lpTimeZoneInformation);
#define TIME_ZONE_ID_UNKNOWN	0
#define TIME_ZONE_ID_STANDARD	1
#define TIME_ZONE_ID_DAYLIGHT	2
#define TIME_ZONE_ID_INVALID	((DWORD)0xFFFFFFFF)
LPWSTR WINAPI GetCommandLineW(void);
LPSTR WINAPI GetCommandLineA(void);
HANDLE WINAPI GetProcessHeap(void);
LPVOID WINAPI HeapAlloc(HANDLE hHeap, DWORD dwFlags, SIZE_T dwBytes);
LPVOID WINAPI HeapReAlloc(HANDLE hHeap, DWORD dwFlags, LPVOID lpMem, SIZE_T dwBytes);
BOOL WINAPI HeapFree(HANDLE hHeap, DWORD dwFlags, LPVOID lpMem);
BOOL WINAPI HeapSetInformation(HANDLE HeapHandle, HEAP_INFORMATION_CLASS HeapInformationClass,
			       PVOID HeapInformation, SIZE_T HeapInformationLength);
HLOCAL WINAPI LocalAlloc(UINT uFlags, SIZE_T uBytes);
HLOCAL WINAPI LocalFree(HLOCAL hMem);
HGLOBAL WINAPI GlobalAlloc(UINT uFlags, SIZE_T dwBytes);
HGLOBAL WINAPI GlobalFree(HGLOBAL hMem);

/* ole32: "{XXXXXXXX-XXXX-XXXX-XXXX-XXXXXXXXXXXX}", 39 characters with NUL. */
int WINAPI StringFromGUID2(REFGUID rguid, LPWSTR lpsz, int cchMax);
/*
 * ole32's task memory, and the GUID string in it: *lplpsz is the same
 * string as StringFromGUID2's, freed with CoTaskMemFree; E_OUTOFMEMORY
 * when there is no memory (Learn: "StringFromCLSID").  COM itself
 * (CoInitialize, interfaces) is not part of libetw.
 */
LPVOID WINAPI CoTaskMemAlloc(SIZE_T cb);
void WINAPI CoTaskMemFree(LPVOID pv);
HRESULT WINAPI StringFromCLSID(REFCLSID rclsid, LPOLESTR *lplpsz);

/* ole32: a new random GUID; a "{...}" string to a CLSID or IID. */
HRESULT WINAPI CoCreateGuid(GUID *pguid);
HRESULT WINAPI CLSIDFromString(LPCOLESTR lpsz, LPCLSID pclsid);
HRESULT WINAPI IIDFromString(LPCOLESTR lpsz, LPIID lpiid);

/* advapi32: the name of the user the process runs as. */
BOOL WINAPI GetUserNameW(LPWSTR lpBuffer, LPDWORD pcbBuffer);
BOOL WINAPI GetUserNameA(LPSTR lpBuffer, LPDWORD pcbBuffer);

/* kernel32: version checks (against GetVersionEx's 6.2.9200). */
ULONGLONG WINAPI VerSetConditionMask(ULONGLONG ConditionMask, DWORD TypeMask,
				     BYTE Condition);
BOOL WINAPI VerifyVersionInfoW(LPOSVERSIONINFOEXW lpVersionInformation,
			       DWORD dwTypeMask, DWORDLONG dwlConditionMask);
BOOL WINAPI VerifyVersionInfoA(LPOSVERSIONINFOEXA lpVersionInformation,
			       DWORD dwTypeMask, DWORDLONG dwlConditionMask);

/* kernel32: UTF-8 (every supported code page) to UTF-16 and back. */
int WINAPI MultiByteToWideChar(UINT CodePage, DWORD dwFlags, LPCCH lpMultiByteStr,
			       int cbMultiByte, LPWSTR lpWideCharStr, int cchWideChar);
int WINAPI WideCharToMultiByte(UINT CodePage, DWORD dwFlags, LPCWCH lpWideCharStr,
			       int cchWideChar, LPSTR lpMultiByteStr, int cbMultiByte,
			       LPCCH lpDefaultChar, LPBOOL lpUsedDefaultChar);

#ifdef __cplusplus
}
#endif

/* cguid.h's GUID_NULL: all zeros. */
static const GUID GUID_NULL __attribute__((__unused__)) = { 0, 0, 0, { 0 } };

#define CP_ACP			0
#define CP_OEMCP		1
#define CP_MACCP		2
#define CP_THREAD_ACP		3
#define CP_UTF7			65000
#define CP_UTF8			65001
#define MB_PRECOMPOSED		0x00000001
#define MB_ERR_INVALID_CHARS	0x00000008
#define WC_ERR_INVALID_CHARS	0x00000080

#define UNLEN			256

#define VER_MINORVERSION	0x0000001
#define VER_MAJORVERSION	0x0000002
#define VER_BUILDNUMBER		0x0000004
#define VER_PLATFORMID		0x0000008
#define VER_SERVICEPACKMINOR	0x0000010
#define VER_SERVICEPACKMAJOR	0x0000020
#define VER_SUITENAME		0x0000040
#define VER_PRODUCT_TYPE	0x0000080
#define VER_EQUAL		1
#define VER_GREATER		2
#define VER_GREATER_EQUAL	3
#define VER_LESS		4
#define VER_LESS_EQUAL		5
#define VER_AND			6
#define VER_OR			7
#define VER_SET_CONDITION(mask, type, cond) \
	((mask) = VerSetConditionMask((mask), (type), (cond)))

#ifdef UNICODE
#define GetUserName		GetUserNameW
#define VerifyVersionInfo	VerifyVersionInfoW
#else
#define GetUserName		GetUserNameA
#define VerifyVersionInfo	VerifyVersionInfoA
#endif

#ifdef UNICODE
#define GetVersionEx		GetVersionExW
#define OSVERSIONINFO		OSVERSIONINFOW
#define POSVERSIONINFO		POSVERSIONINFOW
#define LPOSVERSIONINFO		LPOSVERSIONINFOW
#define OSVERSIONINFOEX		OSVERSIONINFOEXW
#define POSVERSIONINFOEX	POSVERSIONINFOEXW
#define GetCommandLine		GetCommandLineW
#else
#define GetVersionEx		GetVersionExA
#define OSVERSIONINFO		OSVERSIONINFOA
#define POSVERSIONINFO		POSVERSIONINFOA
#define LPOSVERSIONINFO		LPOSVERSIONINFOA
#define OSVERSIONINFOEX		OSVERSIONINFOEXA
#define POSVERSIONINFOEX	POSVERSIONINFOEXA
#define GetCommandLine		GetCommandLineA
#endif

#endif /* LIBETW_ETW_WIN32_H */
