/* SPDX-License-Identifier: MIT */
/*
 * etw_wpp.h for libetw: what every .tmh that `etw wpp` writes for a user-mode
 * source relies on.  Included by the .tmh, after the source's own headers,
 * so WPP_CONTROL_GUIDS (or WPP_DEFAULT_CONTROL_GUID) and any
 * WPP_<conditions>_ENABLED/_LOGGER/_PRE/_POST hooks are already defined.
 *
 * The control model is Windows': WPP_DEFINE_CONTROL_GUID(Name, (guid),
 * WPP_DEFINE_BIT(A) WPP_DEFINE_BIT(B) ...) numbers the bits of control block
 * n as n * 0x10000 + 1, + 2, ..., and bit k of a block is enable flag
 * 1 << ((k - 1) & 31) of Flags[(k - 1) / 32].  The control blocks are one
 * hidden array per executable or shared object (WPP_MAIN_CB), zero until
 * WPP_INIT_TRACING and again after WPP_CLEANUP: the test of a disabled
 * message is one load of its flags word, at an address known at link time,
 * and a branch.
 */
#ifndef LIBETW_WPP_H
#define LIBETW_WPP_H

#include <string.h>

#include "windows.h"
#include "evntrace.h"
#include "sddl.h"

#ifdef __cplusplus
extern "C" {
#endif

#define WPP_EVAL(x) x
#define WPP_STR(x) #x
#define WPP_STRINGIZE(x) WPP_STR(x)
#define WPP_GLUE(a, b) a ## b
#define WPP_GLUE3(a, b, c) a ## b ## c
#define WPP_GLUE4(a, b, c, d) a ## b ## c ## d
#define WPP_XGLUE(a, b) WPP_GLUE(a, b)
#define WPP_XGLUE3(a, b, c) WPP_GLUE3(a, b, c)
#define WPP_XGLUE4(a, b, c, d) WPP_GLUE4(a, b, c, d)

/*
 * A trace function's call site is its own macro: the .tmh maps the name to
 * WPP_(CALL), which becomes WPP_CALL_<file>_<ext><line>.
 */
#define WPP_(Id) WPP_XGLUE4(WPP_, Id, _, WPP_XGLUE(WPP_THIS_FILE, __LINE__))

#if defined(WPP_DEFAULT_CONTROL_GUID)
#if defined(WPP_CONTROL_GUIDS)
#error "WPP_DEFAULT_CONTROL_GUID (or etw wpp -ctl:) and WPP_CONTROL_GUIDS exclude each other"
#endif
#define WPP_CONTROL_GUIDS						\
	WPP_DEFINE_CONTROL_GUID(Default, (WPP_DEFAULT_CONTROL_GUID),	\
		WPP_DEFINE_BIT(Error)					\
		WPP_DEFINE_BIT(Unusual)					\
		WPP_DEFINE_BIT(Noise))
#endif

#if !defined(WPP_CONTROL_GUIDS)
#error "define the control GUIDs with WPP_CONTROL_GUIDS (or WPP_DEFAULT_CONTROL_GUID) before including the .tmh"
#endif

/* (d58c126f,b309,11d1,969e,0000f875a5bc) as a GUID initializer. */
#define WPP_GUID_BYTE(v, n) ((UCHAR)(((ULONGLONG)(v) >> (8 * (n))) & 0xFF))
#define WPP_GUID_STRUCT(l, w1, w2, w3, ll)				\
	{ 0x ## l, 0x ## w1, 0x ## w2,					\
	  { WPP_GUID_BYTE(0x ## w3, 1), WPP_GUID_BYTE(0x ## w3, 0),	\
	    WPP_GUID_BYTE(0x ## ll ## ULL, 5), WPP_GUID_BYTE(0x ## ll ## ULL, 4), \
	    WPP_GUID_BYTE(0x ## ll ## ULL, 3), WPP_GUID_BYTE(0x ## ll ## ULL, 2), \
	    WPP_GUID_BYTE(0x ## ll ## ULL, 1), WPP_GUID_BYTE(0x ## ll ## ULL, 0) } }

/* The control blocks by name: WPP_CTL_<Name> = 0, 1, ... */
#define WPP_DEFINE_CONTROL_GUID(Name, Guid, Bits) WPP_XGLUE(WPP_CTL_, WPP_EVAL(Name)),
enum WPP_CTL_NAMES { WPP_CONTROL_GUIDS WPP_LAST_CTL };
#undef WPP_DEFINE_CONTROL_GUID

/* The bits: WPP_BIT_<Name> = block * 0x10000 + 1, + 2, ... */
#define WPP_DEFINE_CONTROL_GUID(Name, Guid, Bits)			\
	WPP_XGLUE(WPP_BLOCK_START_, WPP_EVAL(Name)) =			\
		WPP_XGLUE(WPP_CTL_, WPP_EVAL(Name)) * 0x10000,		\
	Bits WPP_XGLUE(WPP_BLOCK_END_, WPP_EVAL(Name)),
#define WPP_DEFINE_BIT(Name) WPP_BIT_ ## Name,
enum WPP_DEFINE_BIT_NAMES { WPP_CONTROL_GUIDS };
#undef WPP_DEFINE_BIT
#undef WPP_DEFINE_CONTROL_GUID

#define WPP_MASK(CTL)		(1U << (((CTL) - 1) & 31))
#define WPP_FLAG_NO(CTL)	((0xFFFF & ((CTL) - 1)) / 32)
#define WPP_CTRL_NO(CTL)	((CTL) >> 16)

/* ULONGs of flags the largest block needs (an upper estimate, as Windows'). */
#define WPP_DEFINE_CONTROL_GUID(Name, Guid, Bits) | WPP_XGLUE(WPP_BLOCK_END_, WPP_EVAL(Name))
enum WPP_FLAG_LEN_ENUM { WPP_FLAG_LEN = 1 | ((0 WPP_CONTROL_GUIDS) & 0xFFFF) / 32 };
#undef WPP_DEFINE_CONTROL_GUID

typedef struct _WPP_TRACE_CONTROL_BLOCK {
	TRACEHANDLE Logger;		/* the session's handle, 0: none */
	TRACEHANDLE UmRegistrationHandle;
	UCHAR Level;
	UCHAR FlagsLen;
	USHORT Options;
	ULONG Flags[WPP_FLAG_LEN];
} WPP_TRACE_CONTROL_BLOCK, *PWPP_TRACE_CONTROL_BLOCK;

typedef struct {
	WPP_TRACE_CONTROL_BLOCK Control;
} WPP_PROJECT_CONTROL_BLOCK;

#define WPP_CB_TYPE WPP_PROJECT_CONTROL_BLOCK

/* One per executable or shared object, whichever sources define it. */
__attribute__((weak, visibility("hidden")))
WPP_CB_TYPE WPP_MAIN_CB[WPP_LAST_CTL];

#ifndef WPP_CB
#define WPP_CB WPP_MAIN_CB
#endif
#define WPP_CONTROL(CTL) (WPP_CB[WPP_CTRL_NO(CTL)].Control)

/*
 * A .tmh's TMF text goes to the object's .etw.tmf section, kept by the
 * linker even with --gc-sections where the compiler can say so.
 */
#if defined(__has_attribute)
#if __has_attribute(retain)
#define WPP_TMF_RETAIN __attribute__((retain))
#endif
#endif
#ifndef WPP_TMF_RETAIN
#define WPP_TMF_RETAIN
#endif
#define WPP_TMF_SECTION __attribute__((section(".etw.tmf"), used, aligned(1))) WPP_TMF_RETAIN

/* DoTraceMessage(LEVEL, ...): the historical LEVEL is a flag. */
#if !defined(WPP_LEVEL_LOGGER)
#define WPP_LEVEL_LOGGER(CTL) (WPP_CONTROL(WPP_BIT_ ## CTL).Logger),
#endif
#if !defined(WPP_LEVEL_ENABLED)
#define WPP_LEVEL_ENABLED(CTL)						\
	(WPP_CONTROL(WPP_BIT_ ## CTL).Flags[WPP_FLAG_NO(WPP_BIT_ ## CTL)] & \
	 WPP_MASK(WPP_BIT_ ## CTL))
#endif
#if !defined(WPP_FLAG_LOGGER)
#define WPP_FLAG_LOGGER(CTL) (WPP_CONTROL(WPP_BIT_ ## CTL).Logger),
#endif
#if !defined(WPP_FLAG_ENABLED)
#define WPP_FLAG_ENABLED(CTL)						\
	(WPP_CONTROL(WPP_BIT_ ## CTL).Flags[WPP_FLAG_NO(WPP_BIT_ ## CTL)] & \
	 WPP_MASK(WPP_BIT_ ## CTL))
#endif
/* A function without conditions: the first control block. */
#ifndef WPP_ENABLED
#define WPP_ENABLED() (WPP_CB[0].Control.Flags[0] != 0)
#endif
#ifndef WPP_LOGGER
#define WPP_LOGGER() (WPP_CB[0].Control.Logger),
#endif

#ifndef WPP_PRE
#define WPP_PRE()
#endif
#ifndef WPP_POST
#define WPP_POST()
#endif

/* What every message is written with (Windows' templates' options). */
#ifndef WPP_TRACE_OPTIONS
enum { WPP_TRACE_OPTIONS = TRACE_MESSAGE_SEQUENCE | TRACE_MESSAGE_GUID |
			   TRACE_MESSAGE_SYSTEMINFO | TRACE_MESSAGE_TIMESTAMP };
#endif
#ifndef WPP_TRACE
#define WPP_TRACE TraceMessage
#endif

/* The marshalling: TraceMessage's (address, size) pairs. */
#ifndef NO_CHECK_FOR_NULL_STRING
#ifndef WPP_CHECK_FOR_NULL_STRING
#define WPP_CHECK_FOR_NULL_STRING 1
#endif
#endif

#ifndef WPP_LOGPAIR
#define WPP_LOGPAIR(_Size, _Addr) (const void *)(_Addr), (SIZE_T)(_Size),
#endif
#define WPP_LOGTYPEVAL(_Type, _Value) WPP_LOGPAIR(sizeof(_Type), &(_Value))
#define WPP_LOGTYPEPTR(_Value) WPP_LOGPAIR(sizeof(*(_Value)), (_Value))
#define WPP_LOGPGUID(_Value) WPP_LOGPAIR(sizeof(GUID), (_Value))

/* 16-bit text in both of libetw's modes (WCHAR is char16_t or wchar_t). */
static const WCHAR WppWideNull[] __attribute__((unused)) = { 'N', 'U', 'L', 'L', 0 };
static const WCHAR WppWideEmpty[] __attribute__((unused)) = { '<', 'N', 'U', 'L', 'L', '>', 0 };

static inline SIZE_T WppWideLength(const WCHAR *s)
{
	SIZE_T n = 0;

	while (s[n])
		n++;
	return n;
}

#ifdef WPP_CHECK_FOR_NULL_STRING
#define WPP_LOGASTR(_v) WPP_LOGPAIR((_v) ? strlen(_v) + 1 : 5, (_v) ? (_v) : "NULL")
#define WPP_LOGWSTR(_v)							\
	WPP_LOGPAIR((_v) ? ((_v)[0] ? (WppWideLength(_v) + 1) * sizeof(WCHAR) : \
			    sizeof(WppWideEmpty)) : sizeof(WppWideNull), \
		    (_v) ? ((_v)[0] ? (const void *)(_v) : (const void *)WppWideEmpty) : \
			   (const void *)WppWideNull)
#define WPP_LOGPSID(_v)							\
	WPP_LOGPAIR((_v) && IsValidSid((PSID)(_v)) ? GetLengthSid((PSID)(_v)) : 5, \
		    (_v) && IsValidSid((PSID)(_v)) ? (const void *)(_v) : (const void *)"NULL")
#else
#define WPP_LOGASTR(_v) WPP_LOGPAIR(strlen(_v) + 1, (_v))
#define WPP_LOGWSTR(_v) WPP_LOGPAIR((WppWideLength(_v) + 1) * sizeof(WCHAR), (_v))
#define WPP_LOGPSID(_v) WPP_LOGPAIR(GetLengthSid((PSID)(_v)), (_v))
#endif

/* Counted strings: the USHORT Length, then Length bytes (two pairs). */
static const USHORT WppNullLength[] __attribute__((unused)) = { 5 };
static const USHORT WppWideNullLength[] __attribute__((unused)) = { 5 * sizeof(WCHAR) };
#define WPP_LOGCSTR(_x)							\
	WPP_LOGPAIR(sizeof((_x).Length), &(_x).Length) WPP_LOGPAIR((_x).Length, (_x).Buffer)
#define WPP_LOGUSTR(_x) WPP_LOGCSTR(_x)
#ifdef WPP_CHECK_FOR_NULL_STRING
#define WPP_LOGPCSTR(_x)						\
	WPP_LOGPAIR(sizeof(USHORT), (_x) && (_x)->Buffer ? &(_x)->Length : WppNullLength) \
	WPP_LOGPAIR((_x) && (_x)->Buffer ? (_x)->Length : 5,		\
		    (_x) && (_x)->Buffer ? (const void *)(_x)->Buffer : (const void *)"NULL")
#define WPP_LOGPUSTR(_x)						\
	WPP_LOGPAIR(sizeof(USHORT), (_x) && (_x)->Buffer ? &(_x)->Length : WppWideNullLength) \
	WPP_LOGPAIR((_x) && (_x)->Buffer ? (_x)->Length : 5 * sizeof(WCHAR), \
		    (_x) && (_x)->Buffer ? (const void *)(_x)->Buffer : (const void *)WppWideNull)
#else
#define WPP_LOGPCSTR(_x) WPP_LOGCSTR(*(_x))
#define WPP_LOGPUSTR(_x) WPP_LOGUSTR(*(_x))
#endif
#ifdef __cplusplus
#define WPP_LOGSTDSTR(_v) WPP_LOGPAIR((_v).size() + 1, (_v).c_str())
#endif

/* The control GUIDs, in block order. */
#define WPP_DEFINE_CONTROL_GUID(Name, Guid, Bits) WPP_GUID_STRUCT Guid,
static const GUID WppControlGuids[WPP_LAST_CTL] __attribute__((unused)) = { WPP_CONTROL_GUIDS };
#undef WPP_DEFINE_CONTROL_GUID

/*
 * RegisterTraceGuids' control callback, as Windows' user-mode template has
 * it: the logger handle, level and flags of the enabling session.  The
 * flags are stored last (and cleared first): a writer that sees them set
 * finds the handle they belong to.
 */
static inline ULONG WINAPI WppControlCallback(WMIDPREQUESTCODE RequestCode, PVOID Context,
					      ULONG *InOutBufferSize, PVOID Buffer)
{
	PWPP_TRACE_CONTROL_BLOCK Ctx = (PWPP_TRACE_CONTROL_BLOCK)Context;
	TRACEHANDLE Logger = 0;
	UCHAR Level = 0;
	ULONG Flags = 0;

	*InOutBufferSize = 0;
	switch (RequestCode) {
	case WMI_ENABLE_EVENTS:
		Logger = GetTraceLoggerHandle(Buffer);
		Level = GetTraceEnableLevel(Logger);
		Flags = GetTraceEnableFlags(Logger);
		__atomic_store_n(&Ctx->Logger, Logger, __ATOMIC_RELAXED);
		__atomic_store_n(&Ctx->Level, Level, __ATOMIC_RELAXED);
		__atomic_store_n(&Ctx->Flags[0], Flags, __ATOMIC_RELEASE);
		return ERROR_SUCCESS;
	case WMI_DISABLE_EVENTS:
		__atomic_store_n(&Ctx->Flags[0], 0, __ATOMIC_RELEASE);
		__atomic_store_n(&Ctx->Level, 0, __ATOMIC_RELAXED);
		__atomic_store_n(&Ctx->Logger, 0, __ATOMIC_RELAXED);
		return ERROR_SUCCESS;
	default:
		return ERROR_INVALID_PARAMETER;
	}
}

/* Register every control block; its callback may run before this returns. */
static inline void WppInitUm(void)
{
	TRACE_GUID_REGISTRATION reg;
	int i;

	for (i = 0; i < WPP_LAST_CTL; i++) {
		WPP_TRACE_CONTROL_BLOCK *c = &WPP_MAIN_CB[i].Control;

		if (c->UmRegistrationHandle)
			continue;
		c->FlagsLen = WPP_FLAG_LEN;
		reg.Guid = &WppControlGuids[i];
		reg.RegHandle = NULL;
		if (RegisterTraceGuidsW(WppControlCallback, c, &WppControlGuids[i], 1,
					&reg, NULL, NULL, &c->UmRegistrationHandle))
			c->UmRegistrationHandle = 0;
	}
}

static inline void WppCleanupUm(void)
{
	int i;

	for (i = 0; i < WPP_LAST_CTL; i++) {
		WPP_TRACE_CONTROL_BLOCK *c = &WPP_MAIN_CB[i].Control;

		if (c->UmRegistrationHandle)
			UnregisterTraceGuids(c->UmRegistrationHandle);
		c->UmRegistrationHandle = 0;
		__atomic_store_n(&c->Flags[0], 0, __ATOMIC_RELEASE);
		c->Level = 0;
		c->Logger = 0;
	}
}

/* User mode: the argument (the application's name) is not used. */
#define WPP_INIT_TRACING(AppName) ((void)(AppName), WppInitUm())
#define WPP_CLEANUP() WppCleanupUm()

#ifdef __cplusplus
}
#endif

#endif /* LIBETW_WPP_H */
