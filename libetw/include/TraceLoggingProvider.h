/* SPDX-License-Identifier: MIT */
/*
 * TraceLoggingProvider.h: TraceLogging for Linux C and C++, with Windows'
 * macro names and Windows' wire format, over libetw's EventRegister,
 * EventSetInformation and EventWriteTransfer (as on Windows, TraceLogging
 * is a header: all provider state lives in the program).
 *
 *	TRACELOGGING_DEFINE_PROVIDER(g_hProvider, "MyCompany.MyComponent",
 *		(0xce5fa4ea, 0xab00, 0x5402, 0x8b, 0x76, 0x9f, 0x76, 0xac,
 *		 0x85, 0x8f, 0xb5));
 *	TraceLoggingRegister(g_hProvider);
 *	TraceLoggingWrite(g_hProvider, "MyEvent",
 *		TraceLoggingLevel(WINEVENT_LEVEL_WARNING),
 *		TraceLoggingInt32(count),
 *		TraceLoggingString(path, "Path"));
 *	TraceLoggingUnregister(g_hProvider);
 *
 * Each event's metadata (its name, tags, and each field's name, in-type,
 * out-type and count) is a static const blob built by the compiler; the
 * provider traits (name, group) likewise.  TraceLoggingWrite first tests
 * the provider's enable state (a load and a branch, with level and keyword
 * as constants); only when a session wants the event are the field
 * arguments evaluated, each exactly once.  Descriptor 0 carries the traits
 * (Type PROVIDER_METADATA), 1 the event metadata (EVENT_METADATA), then
 * the payload; channel 11; Id, Version and Task 0.
 *
 * Differences from Windows' header, all of form rather than of wire:
 * wide strings are WCHAR (char16_t: write u"text", not L"text");
 * TraceLoggingValue deduces with _Generic in C as well as in C++ (in C it
 * always sends an out-type byte); descriptions are accepted and, as on
 * Windows, not sent.  Tags are encoded as Windows' header encodes them:
 * field tags in the 4-byte form; the event tag in the 2-byte form in C
 * (its low 14 bits must be 0) and in the shortest form in C++.
 * Documentation/tracelogging.rst has the list of field macros.
 */
#ifndef LIBETW_TRACELOGGINGPROVIDER_H
#define LIBETW_TRACELOGGINGPROVIDER_H

#ifdef __KERNEL__
/* A kernel module: Windows' types and the API over etw.ko's EtwRegister... */
#include <etw/provider_api.h>
#else
#include <string.h>

#include <windows.h>
#include <evntprov.h>
#endif

#ifdef __cplusplus
extern "C++" {
#include <type_traits>
}
#endif

#ifndef HRESULT_FROM_WIN32
typedef LONG HRESULT;
#define S_OK			((HRESULT)0)
#define HRESULT_FROM_WIN32(x)	((HRESULT)(x) <= 0 ? (HRESULT)(x) : \
				 (HRESULT)(((x) & 0x0000FFFF) | (7 << 16) | 0x80000000))
#endif

#ifndef WINEVENT_LEVEL_VERBOSE
#define WINEVENT_LEVEL_LOG_ALWAYS	0
#define WINEVENT_LEVEL_CRITICAL		1
#define WINEVENT_LEVEL_ERROR		2
#define WINEVENT_LEVEL_WARNING		3
#define WINEVENT_LEVEL_INFO		4
#define WINEVENT_LEVEL_VERBOSE		5
#define WINEVENT_CHANNEL_TRACELOGGING	11
#endif

/* TraceLogging in-types (TDH_INTYPE numbers) and out-types (their own). */
enum {
	TlgInNULL, TlgInUNICODESTRING, TlgInANSISTRING, TlgInINT8, TlgInUINT8,
	TlgInINT16, TlgInUINT16, TlgInINT32, TlgInUINT32, TlgInINT64,
	TlgInUINT64, TlgInFLOAT, TlgInDOUBLE, TlgInBOOL32, TlgInBINARY,
	TlgInGUID, TlgInPOINTER_unsupported, TlgInFILETIME, TlgInSYSTEMTIME,
	TlgInSID, TlgInHEXINT32, TlgInHEXINT64, TlgInCOUNTEDSTRING,
	TlgInCOUNTEDANSISTRING, TlgInSTRUCT, TlgInCOUNTEDBINARY,
	TlgInINTPTR = sizeof(void *) == 8 ? TlgInINT64 : TlgInINT32,
	TlgInUINTPTR = sizeof(void *) == 8 ? TlgInUINT64 : TlgInUINT32,
	TlgInPOINTER = sizeof(void *) == 8 ? TlgInHEXINT64 : TlgInHEXINT32,
	TlgInLONG = TlgInINT32,
	TlgInULONG = TlgInUINT32,
	TlgInHEXLONG = TlgInHEXINT32,
};

enum {
	TlgOutNULL, TlgOutNOPRINT, TlgOutSTRING, TlgOutBOOLEAN, TlgOutHEX,
	TlgOutPID, TlgOutTID, TlgOutPORT, TlgOutIPV4, TlgOutIPV6,
	TlgOutSOCKETADDRESS, TlgOutXML, TlgOutJSON, TlgOutWIN32ERROR,
	TlgOutNTSTATUS, TlgOutHRESULT, TlgOutFILETIME, TlgOutSIGNED,
	TlgOutUNSIGNED,
	TlgOutDATETIME_CULTURE_INSENSITIVE = 33, TlgOutUTF8 = 35,
	TlgOutPKCS7_WITH_TYPE_INFO = 36, TlgOutCODE_POINTER = 37,
	TlgOutDATETIME_UTC = 38,
};

/*
 * The provider, as Windows lays it out (56 bytes on x64).  The enable
 * callback keeps LevelPlus1 and the keywords; TraceLoggingWrite reads them.
 */
typedef struct _tlgProvider_t {
	UINT32 LevelPlus1;		/* 0: disabled; level + 1, 256 for all */
	const UINT16 *ProviderMetadataPtr;	/* the traits blob */
	ULONGLONG KeywordAny;
	ULONGLONG KeywordAll;
	REGHANDLE RegHandle;
	PENABLECALLBACK EnableCallback;
	PVOID CallbackContext;
} _tlgProvider_t;

typedef const _tlgProvider_t *TraceLoggingHProvider;

#define _tlgCAT(a, b)		_tlgCAT_(a, b)
#define _tlgCAT_(a, b)		a##b
#define _tlgUNPAREN(...)	__VA_ARGS__
#define _tlgEXPAND(x)		x
#define _tlgAPPLY(ctx, i, a)	_tlgAPPLY_(ctx, i, _tlgUNPAREN a)
#define _tlgAPPLY_(ctx, i, ...)	_tlgAPPLY__(ctx, i, __VA_ARGS__)
#define _tlgAPPLY__(ctx, i, k, ...) ctx##k(i, __VA_ARGS__)

#ifdef __cplusplus
#define _tlgSTATIC_ASSERT(e, m)	static_assert(e, m)
#define _tlgTYPEOF(x)		typename std::decay<decltype(x)>::type
#else
#define _tlgSTATIC_ASSERT(e, m)	_Static_assert(e, m)
#define _tlgTYPEOF(x)		__typeof__(x)
#endif

#define _tlgPACKED		__attribute__((packed))

/* A const object C++ would otherwise give internal linkage. */
#ifdef __cplusplus
#define _tlgEXTERN_DEF		extern
#else
#define _tlgEXTERN_DEF
#endif


/* How many arguments (0..99); __VA_OPT__ gives 0 for none. */
#define _tlgNARGS(...) _tlgNARGS_(_ __VA_OPT__(,) __VA_ARGS__, 99, 98, 97, 96, 95, 94, 93, 92, 91, 90, 89, 88, 87, 86, 85, 84, 83, 82, 81, 80, 79, 78, 77, 76, 75, 74, 73, 72, 71, 70, 69, 68, 67, 66, 65, 64, 63, 62, 61, 60, 59, 58, 57, 56, 55, 54, 53, 52, 51, 50, 49, 48, 47, 46, 45, 44, 43, 42, 41, 40, 39, 38, 37, 36, 35, 34, 33, 32, 31, 30, 29, 28, 27, 26, 25, 24, 23, 22, 21, 20, 19, 18, 17, 16, 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0)
#define _tlgNARGS_(_, _1, _2, _3, _4, _5, _6, _7, _8, _9, _10, _11, _12, _13, _14, _15, _16, _17, _18, _19, _20, _21, _22, _23, _24, _25, _26, _27, _28, _29, _30, _31, _32, _33, _34, _35, _36, _37, _38, _39, _40, _41, _42, _43, _44, _45, _46, _47, _48, _49, _50, _51, _52, _53, _54, _55, _56, _57, _58, _59, _60, _61, _62, _63, _64, _65, _66, _67, _68, _69, _70, _71, _72, _73, _74, _75, _76, _77, _78, _79, _80, _81, _82, _83, _84, _85, _86, _87, _88, _89, _90, _91, _92, _93, _94, _95, _96, _97, _98, _99, n, ...) n

/* ctx(i, arg) for each argument, in order (i counts down, unique). */
#define _tlgFOREACH(ctx, ...) \
	_tlgCAT(_tlgFE_, _tlgNARGS(__VA_ARGS__))(ctx __VA_OPT__(,) __VA_ARGS__)
#define _tlgFE_0(ctx)
#define _tlgFE_1(ctx, a) _tlgAPPLY(ctx, 1, a)
#define _tlgFE_2(ctx, a, ...) _tlgAPPLY(ctx, 2, a) _tlgFE_1(ctx, __VA_ARGS__)
#define _tlgFE_3(ctx, a, ...) _tlgAPPLY(ctx, 3, a) _tlgFE_2(ctx, __VA_ARGS__)
#define _tlgFE_4(ctx, a, ...) _tlgAPPLY(ctx, 4, a) _tlgFE_3(ctx, __VA_ARGS__)
#define _tlgFE_5(ctx, a, ...) _tlgAPPLY(ctx, 5, a) _tlgFE_4(ctx, __VA_ARGS__)
#define _tlgFE_6(ctx, a, ...) _tlgAPPLY(ctx, 6, a) _tlgFE_5(ctx, __VA_ARGS__)
#define _tlgFE_7(ctx, a, ...) _tlgAPPLY(ctx, 7, a) _tlgFE_6(ctx, __VA_ARGS__)
#define _tlgFE_8(ctx, a, ...) _tlgAPPLY(ctx, 8, a) _tlgFE_7(ctx, __VA_ARGS__)
#define _tlgFE_9(ctx, a, ...) _tlgAPPLY(ctx, 9, a) _tlgFE_8(ctx, __VA_ARGS__)
#define _tlgFE_10(ctx, a, ...) _tlgAPPLY(ctx, 10, a) _tlgFE_9(ctx, __VA_ARGS__)
#define _tlgFE_11(ctx, a, ...) _tlgAPPLY(ctx, 11, a) _tlgFE_10(ctx, __VA_ARGS__)
#define _tlgFE_12(ctx, a, ...) _tlgAPPLY(ctx, 12, a) _tlgFE_11(ctx, __VA_ARGS__)
#define _tlgFE_13(ctx, a, ...) _tlgAPPLY(ctx, 13, a) _tlgFE_12(ctx, __VA_ARGS__)
#define _tlgFE_14(ctx, a, ...) _tlgAPPLY(ctx, 14, a) _tlgFE_13(ctx, __VA_ARGS__)
#define _tlgFE_15(ctx, a, ...) _tlgAPPLY(ctx, 15, a) _tlgFE_14(ctx, __VA_ARGS__)
#define _tlgFE_16(ctx, a, ...) _tlgAPPLY(ctx, 16, a) _tlgFE_15(ctx, __VA_ARGS__)
#define _tlgFE_17(ctx, a, ...) _tlgAPPLY(ctx, 17, a) _tlgFE_16(ctx, __VA_ARGS__)
#define _tlgFE_18(ctx, a, ...) _tlgAPPLY(ctx, 18, a) _tlgFE_17(ctx, __VA_ARGS__)
#define _tlgFE_19(ctx, a, ...) _tlgAPPLY(ctx, 19, a) _tlgFE_18(ctx, __VA_ARGS__)
#define _tlgFE_20(ctx, a, ...) _tlgAPPLY(ctx, 20, a) _tlgFE_19(ctx, __VA_ARGS__)
#define _tlgFE_21(ctx, a, ...) _tlgAPPLY(ctx, 21, a) _tlgFE_20(ctx, __VA_ARGS__)
#define _tlgFE_22(ctx, a, ...) _tlgAPPLY(ctx, 22, a) _tlgFE_21(ctx, __VA_ARGS__)
#define _tlgFE_23(ctx, a, ...) _tlgAPPLY(ctx, 23, a) _tlgFE_22(ctx, __VA_ARGS__)
#define _tlgFE_24(ctx, a, ...) _tlgAPPLY(ctx, 24, a) _tlgFE_23(ctx, __VA_ARGS__)
#define _tlgFE_25(ctx, a, ...) _tlgAPPLY(ctx, 25, a) _tlgFE_24(ctx, __VA_ARGS__)
#define _tlgFE_26(ctx, a, ...) _tlgAPPLY(ctx, 26, a) _tlgFE_25(ctx, __VA_ARGS__)
#define _tlgFE_27(ctx, a, ...) _tlgAPPLY(ctx, 27, a) _tlgFE_26(ctx, __VA_ARGS__)
#define _tlgFE_28(ctx, a, ...) _tlgAPPLY(ctx, 28, a) _tlgFE_27(ctx, __VA_ARGS__)
#define _tlgFE_29(ctx, a, ...) _tlgAPPLY(ctx, 29, a) _tlgFE_28(ctx, __VA_ARGS__)
#define _tlgFE_30(ctx, a, ...) _tlgAPPLY(ctx, 30, a) _tlgFE_29(ctx, __VA_ARGS__)
#define _tlgFE_31(ctx, a, ...) _tlgAPPLY(ctx, 31, a) _tlgFE_30(ctx, __VA_ARGS__)
#define _tlgFE_32(ctx, a, ...) _tlgAPPLY(ctx, 32, a) _tlgFE_31(ctx, __VA_ARGS__)
#define _tlgFE_33(ctx, a, ...) _tlgAPPLY(ctx, 33, a) _tlgFE_32(ctx, __VA_ARGS__)
#define _tlgFE_34(ctx, a, ...) _tlgAPPLY(ctx, 34, a) _tlgFE_33(ctx, __VA_ARGS__)
#define _tlgFE_35(ctx, a, ...) _tlgAPPLY(ctx, 35, a) _tlgFE_34(ctx, __VA_ARGS__)
#define _tlgFE_36(ctx, a, ...) _tlgAPPLY(ctx, 36, a) _tlgFE_35(ctx, __VA_ARGS__)
#define _tlgFE_37(ctx, a, ...) _tlgAPPLY(ctx, 37, a) _tlgFE_36(ctx, __VA_ARGS__)
#define _tlgFE_38(ctx, a, ...) _tlgAPPLY(ctx, 38, a) _tlgFE_37(ctx, __VA_ARGS__)
#define _tlgFE_39(ctx, a, ...) _tlgAPPLY(ctx, 39, a) _tlgFE_38(ctx, __VA_ARGS__)
#define _tlgFE_40(ctx, a, ...) _tlgAPPLY(ctx, 40, a) _tlgFE_39(ctx, __VA_ARGS__)
#define _tlgFE_41(ctx, a, ...) _tlgAPPLY(ctx, 41, a) _tlgFE_40(ctx, __VA_ARGS__)
#define _tlgFE_42(ctx, a, ...) _tlgAPPLY(ctx, 42, a) _tlgFE_41(ctx, __VA_ARGS__)
#define _tlgFE_43(ctx, a, ...) _tlgAPPLY(ctx, 43, a) _tlgFE_42(ctx, __VA_ARGS__)
#define _tlgFE_44(ctx, a, ...) _tlgAPPLY(ctx, 44, a) _tlgFE_43(ctx, __VA_ARGS__)
#define _tlgFE_45(ctx, a, ...) _tlgAPPLY(ctx, 45, a) _tlgFE_44(ctx, __VA_ARGS__)
#define _tlgFE_46(ctx, a, ...) _tlgAPPLY(ctx, 46, a) _tlgFE_45(ctx, __VA_ARGS__)
#define _tlgFE_47(ctx, a, ...) _tlgAPPLY(ctx, 47, a) _tlgFE_46(ctx, __VA_ARGS__)
#define _tlgFE_48(ctx, a, ...) _tlgAPPLY(ctx, 48, a) _tlgFE_47(ctx, __VA_ARGS__)
#define _tlgFE_49(ctx, a, ...) _tlgAPPLY(ctx, 49, a) _tlgFE_48(ctx, __VA_ARGS__)
#define _tlgFE_50(ctx, a, ...) _tlgAPPLY(ctx, 50, a) _tlgFE_49(ctx, __VA_ARGS__)
#define _tlgFE_51(ctx, a, ...) _tlgAPPLY(ctx, 51, a) _tlgFE_50(ctx, __VA_ARGS__)
#define _tlgFE_52(ctx, a, ...) _tlgAPPLY(ctx, 52, a) _tlgFE_51(ctx, __VA_ARGS__)
#define _tlgFE_53(ctx, a, ...) _tlgAPPLY(ctx, 53, a) _tlgFE_52(ctx, __VA_ARGS__)
#define _tlgFE_54(ctx, a, ...) _tlgAPPLY(ctx, 54, a) _tlgFE_53(ctx, __VA_ARGS__)
#define _tlgFE_55(ctx, a, ...) _tlgAPPLY(ctx, 55, a) _tlgFE_54(ctx, __VA_ARGS__)
#define _tlgFE_56(ctx, a, ...) _tlgAPPLY(ctx, 56, a) _tlgFE_55(ctx, __VA_ARGS__)
#define _tlgFE_57(ctx, a, ...) _tlgAPPLY(ctx, 57, a) _tlgFE_56(ctx, __VA_ARGS__)
#define _tlgFE_58(ctx, a, ...) _tlgAPPLY(ctx, 58, a) _tlgFE_57(ctx, __VA_ARGS__)
#define _tlgFE_59(ctx, a, ...) _tlgAPPLY(ctx, 59, a) _tlgFE_58(ctx, __VA_ARGS__)
#define _tlgFE_60(ctx, a, ...) _tlgAPPLY(ctx, 60, a) _tlgFE_59(ctx, __VA_ARGS__)
#define _tlgFE_61(ctx, a, ...) _tlgAPPLY(ctx, 61, a) _tlgFE_60(ctx, __VA_ARGS__)
#define _tlgFE_62(ctx, a, ...) _tlgAPPLY(ctx, 62, a) _tlgFE_61(ctx, __VA_ARGS__)
#define _tlgFE_63(ctx, a, ...) _tlgAPPLY(ctx, 63, a) _tlgFE_62(ctx, __VA_ARGS__)
#define _tlgFE_64(ctx, a, ...) _tlgAPPLY(ctx, 64, a) _tlgFE_63(ctx, __VA_ARGS__)
#define _tlgFE_65(ctx, a, ...) _tlgAPPLY(ctx, 65, a) _tlgFE_64(ctx, __VA_ARGS__)
#define _tlgFE_66(ctx, a, ...) _tlgAPPLY(ctx, 66, a) _tlgFE_65(ctx, __VA_ARGS__)
#define _tlgFE_67(ctx, a, ...) _tlgAPPLY(ctx, 67, a) _tlgFE_66(ctx, __VA_ARGS__)
#define _tlgFE_68(ctx, a, ...) _tlgAPPLY(ctx, 68, a) _tlgFE_67(ctx, __VA_ARGS__)
#define _tlgFE_69(ctx, a, ...) _tlgAPPLY(ctx, 69, a) _tlgFE_68(ctx, __VA_ARGS__)
#define _tlgFE_70(ctx, a, ...) _tlgAPPLY(ctx, 70, a) _tlgFE_69(ctx, __VA_ARGS__)
#define _tlgFE_71(ctx, a, ...) _tlgAPPLY(ctx, 71, a) _tlgFE_70(ctx, __VA_ARGS__)
#define _tlgFE_72(ctx, a, ...) _tlgAPPLY(ctx, 72, a) _tlgFE_71(ctx, __VA_ARGS__)
#define _tlgFE_73(ctx, a, ...) _tlgAPPLY(ctx, 73, a) _tlgFE_72(ctx, __VA_ARGS__)
#define _tlgFE_74(ctx, a, ...) _tlgAPPLY(ctx, 74, a) _tlgFE_73(ctx, __VA_ARGS__)
#define _tlgFE_75(ctx, a, ...) _tlgAPPLY(ctx, 75, a) _tlgFE_74(ctx, __VA_ARGS__)
#define _tlgFE_76(ctx, a, ...) _tlgAPPLY(ctx, 76, a) _tlgFE_75(ctx, __VA_ARGS__)
#define _tlgFE_77(ctx, a, ...) _tlgAPPLY(ctx, 77, a) _tlgFE_76(ctx, __VA_ARGS__)
#define _tlgFE_78(ctx, a, ...) _tlgAPPLY(ctx, 78, a) _tlgFE_77(ctx, __VA_ARGS__)
#define _tlgFE_79(ctx, a, ...) _tlgAPPLY(ctx, 79, a) _tlgFE_78(ctx, __VA_ARGS__)
#define _tlgFE_80(ctx, a, ...) _tlgAPPLY(ctx, 80, a) _tlgFE_79(ctx, __VA_ARGS__)
#define _tlgFE_81(ctx, a, ...) _tlgAPPLY(ctx, 81, a) _tlgFE_80(ctx, __VA_ARGS__)
#define _tlgFE_82(ctx, a, ...) _tlgAPPLY(ctx, 82, a) _tlgFE_81(ctx, __VA_ARGS__)
#define _tlgFE_83(ctx, a, ...) _tlgAPPLY(ctx, 83, a) _tlgFE_82(ctx, __VA_ARGS__)
#define _tlgFE_84(ctx, a, ...) _tlgAPPLY(ctx, 84, a) _tlgFE_83(ctx, __VA_ARGS__)
#define _tlgFE_85(ctx, a, ...) _tlgAPPLY(ctx, 85, a) _tlgFE_84(ctx, __VA_ARGS__)
#define _tlgFE_86(ctx, a, ...) _tlgAPPLY(ctx, 86, a) _tlgFE_85(ctx, __VA_ARGS__)
#define _tlgFE_87(ctx, a, ...) _tlgAPPLY(ctx, 87, a) _tlgFE_86(ctx, __VA_ARGS__)
#define _tlgFE_88(ctx, a, ...) _tlgAPPLY(ctx, 88, a) _tlgFE_87(ctx, __VA_ARGS__)
#define _tlgFE_89(ctx, a, ...) _tlgAPPLY(ctx, 89, a) _tlgFE_88(ctx, __VA_ARGS__)
#define _tlgFE_90(ctx, a, ...) _tlgAPPLY(ctx, 90, a) _tlgFE_89(ctx, __VA_ARGS__)
#define _tlgFE_91(ctx, a, ...) _tlgAPPLY(ctx, 91, a) _tlgFE_90(ctx, __VA_ARGS__)
#define _tlgFE_92(ctx, a, ...) _tlgAPPLY(ctx, 92, a) _tlgFE_91(ctx, __VA_ARGS__)
#define _tlgFE_93(ctx, a, ...) _tlgAPPLY(ctx, 93, a) _tlgFE_92(ctx, __VA_ARGS__)
#define _tlgFE_94(ctx, a, ...) _tlgAPPLY(ctx, 94, a) _tlgFE_93(ctx, __VA_ARGS__)
#define _tlgFE_95(ctx, a, ...) _tlgAPPLY(ctx, 95, a) _tlgFE_94(ctx, __VA_ARGS__)
#define _tlgFE_96(ctx, a, ...) _tlgAPPLY(ctx, 96, a) _tlgFE_95(ctx, __VA_ARGS__)
#define _tlgFE_97(ctx, a, ...) _tlgAPPLY(ctx, 97, a) _tlgFE_96(ctx, __VA_ARGS__)
#define _tlgFE_98(ctx, a, ...) _tlgAPPLY(ctx, 98, a) _tlgFE_97(ctx, __VA_ARGS__)
#define _tlgFE_99(ctx, a, ...) _tlgAPPLY(ctx, 99, a) _tlgFE_98(ctx, __VA_ARGS__)




/* Optional field arguments: [name [, description [, tags]]]. */
#define _tlgARG5(a, b, c, d, e, ...)	e
#define _tlgNAME(...)	_tlgARG5(__VA_ARGS__, _tlgN2, _tlgN2, _tlgN2, _tlgN1, ~)(__VA_ARGS__)
#define _tlgN1(d)	d
#define _tlgN2(d, n, ...) n
#define _tlgTAGV(...)	_tlgARG5(__VA_ARGS__, _tlgT4, _tlgT0, _tlgT0, _tlgT0, ~)(__VA_ARGS__)
#define _tlgT4(d, n, x, t) (t)
#define _tlgT0(...)	0
#define _tlgSHAPE(base, ...) _tlgCAT(base, _tlgARG5(__VA_ARGS__, _T, , , , ~))

/*
 * A field is (_tlgF, data kind, metadata shape, in-type, out-type, tag,
 * name, C type, value, count); an event option is (_tlgLEVEL, value) and
 * the like.  TraceLoggingWrite runs each context over its arguments.
 */
#define _tlgFIELD(dk, shape, in, out, ctype, value, count, ...)		\
	(_tlgF, dk, _tlgSHAPE(shape, __VA_ARGS__), in, out,		\
	 _tlgTAGV(__VA_ARGS__), _tlgNAME(__VA_ARGS__), ctype, value, count)
#define _tlgFIELD_FIXED(dk, shape, in, out, ctype, value, count, ...)	\
	(_tlgF, dk, _tlgCAT(_tlgSHAPE(shape, __VA_ARGS__), C), in, out,	\
	 _tlgTAGV(__VA_ARGS__), _tlgNAME(__VA_ARGS__), ctype, value, count)

#define TraceLoggingLevel(level)	(_tlgLEVEL, level)
#define TraceLoggingKeyword(keyword)	(_tlgKEYWORD, keyword)
#define TraceLoggingOpcode(opcode)	(_tlgOPCODE, opcode)
#define TraceLoggingChannel(channel)	(_tlgCHANNEL, channel)
#define TraceLoggingEventTag(tag)	(_tlgEVTAG, tag)
#define TraceLoggingDescription(text)	(_tlgDESC, text)

/* The event tag in C: 28 bits, the 2-byte form (bits 14..27), always sent. */
#define _tlgTAG0(t)	((UINT8)(0x80 | (((t) >> 21) & 0x7f)))
#define _tlgTAG1(t)	((UINT8)(((t) >> 14) & 0x7f))
/* Field tags: the 4-byte form, in C and C++ alike, as Windows' header. */
#define _tlgFTAG(t)	{ _tlgTAG0(t), (UINT8)(0x80 | _tlgTAG1(t)),		\
			  (UINT8)(0x80 | (((t) >> 7) & 0x7f)), (UINT8)((t) & 0x7f) }

/*
 * Metadata of one field, by shape: In, Out, Tag, Count; _T is the shape
 * with tags (which always sends an out-type byte), C the fixed-count form;
 * CU a custom field (its schema after the in-type), X none at all.
 */
#define _tlgMD_I(i, name, ...)	char _tlgN##i[sizeof(name)]; UINT8 _tlgI##i;
#define _tlgMD_IO(i, name, ...)	_tlgMD_I(i, name) UINT8 _tlgO##i;
#define _tlgMD_IOT(i, name, ...)	_tlgMD_IO(i, name) UINT8 _tlgT##i[4];
#define _tlgMD_I_T		_tlgMD_IOT
#define _tlgMD_IO_T		_tlgMD_IOT
#define _tlgMD_IC(i, name, ...)	_tlgMD_I(i, name) UINT16 _tlgC##i;
#define _tlgMD_IOC(i, name, ...)	_tlgMD_IO(i, name) UINT16 _tlgC##i;
#define _tlgMD_IOTC(i, name, ...)	_tlgMD_IOT(i, name) UINT16 _tlgC##i;
#define _tlgMD_I_TC		_tlgMD_IOTC
#define _tlgMD_IO_TC		_tlgMD_IOTC
#define _tlgMD_CU(i, name, in, out, cb, n)				\
	_tlgMD_I(i, name) UINT16 _tlgC##i; UINT8 _tlgS##i[cb];
#define _tlgMD_CU_T(i, name, in, out, cb, n)				\
	_tlgMD_IOT(i, name) UINT16 _tlgC##i; UINT8 _tlgS##i[cb];
#define _tlgMD_X(...)
#define _tlgMI_I(name, in, out, tag, ...)	name, (UINT8)(in),
#define _tlgMI_IO(name, in, out, tag, ...) name, (UINT8)((in) | 0x80), (UINT8)(out),
#define _tlgMI_IOT(name, in, out, tag, ...)				\
	name, (UINT8)((in) | 0x80), (UINT8)((out) | 0x80), _tlgFTAG(tag),
#define _tlgMI_I_T		_tlgMI_IOT
#define _tlgMI_IO_T		_tlgMI_IOT
#define _tlgMI_IC(name, in, out, tag, ct, n)	_tlgMI_I(name, in, out, tag) (UINT16)(n),
#define _tlgMI_IOC(name, in, out, tag, ct, n)	_tlgMI_IO(name, in, out, tag) (UINT16)(n),
#define _tlgMI_IOTC(name, in, out, tag, ct, n) _tlgMI_IOT(name, in, out, tag) (UINT16)(n),
#define _tlgMI_I_TC		_tlgMI_IOTC
#define _tlgMI_IO_TC		_tlgMI_IOTC
#define _tlgMI_CU(name, in, out, tag, cb, n)				\
	_tlgMI_I(name, in, 0, tag) (UINT16)(cb), { _tlgUNPAREN out },
#define _tlgMI_CU_T(name, in, out, tag, cb, n)				\
	_tlgMI_IOT(name, in, 0, tag) (UINT16)(cb), { _tlgUNPAREN out },
#define _tlgMI_X(...)

/* In-type byte by data kind: arrays carry their count flag. */
#define _tlgIN_VARR(in)		((in) | 0x40)
#define _tlgIN_FARR(in)		((in) | 0x20)
#define _tlgIN_VAL(in)		(in)
#define _tlgIN_STR(in)		(in)
#define _tlgIN_WSTR(in)		(in)
#define _tlgIN_CSTR(in)		(in)
#define _tlgIN_CWSTR(in)	(in)
#define _tlgIN_BIN(in)		(in)
#define _tlgIN_STRUCT(in)	(in)
#define _tlgIN_AUTO(in)		(in)
#define _tlgIN_SID(in)		(in)
#define _tlgIN_NTSTR(in)	(in)
#define _tlgIN_PF(in)		(in)
#define _tlgIN_PM(in)		(in)
#define _tlgIN_PD(in)		(in)
#define _tlgIN_PDX(in)		(in)
#define _tlgIN_CUSTOM(in)	(((in) & 0x1f) | 0x60)

/* Payload descriptors per data kind. */
#define _tlgND_VAL	+ 1
#define _tlgND_STR	+ 1
#define _tlgND_WSTR	+ 1
#define _tlgND_CSTR	+ 2
#define _tlgND_CWSTR	+ 2
#define _tlgND_BIN	+ 2
#define _tlgND_VARR	+ 2
#define _tlgND_FARR	+ 1
#define _tlgND_STRUCT
#define _tlgND_AUTO	+ 1
#define _tlgND_SID	+ 1
#define _tlgND_NTSTR	+ 2
#define _tlgND_PF	+ 1
#define _tlgND_PM
#define _tlgND_PD	+ 1
#define _tlgND_PDX	+ 1
#define _tlgND_CUSTOM	+ 2

#ifdef __cplusplus
#define _tlgAUTO	auto
#else
#define _tlgAUTO	__auto_type
#endif

/* The arguments, evaluated once each, only for an enabled event. */
#define _tlgDD_VAL(i, ctype, value, n)	ctype _tlgV##i = (value);
#define _tlgDD_STR(i, ctype, value, n)	const char *_tlgV##i = (value);
#define _tlgDD_WSTR(i, ctype, value, n)	const WCHAR *_tlgV##i = (value);
#define _tlgDD_CSTR(i, ctype, value, n)					\
	const char *_tlgV##i = (value); UINT16 _tlgL##i = (UINT16)(n);
#define _tlgDD_CWSTR(i, ctype, value, n)					\
	const WCHAR *_tlgV##i = (value); UINT16 _tlgL##i = (UINT16)((n) * 2);
#define _tlgDD_BIN(i, ctype, value, n)					\
	const void *_tlgV##i = (value); UINT16 _tlgL##i = (UINT16)(n);
#define _tlgDD_VARR(i, ctype, value, n)					\
	const ctype *_tlgV##i = (value); UINT16 _tlgL##i = (UINT16)(n);
#define _tlgDD_FARR(i, ctype, value, n)	const ctype *_tlgV##i = (value);
#define _tlgDD_STRUCT(i, ctype, value, n)
#define _tlgDD_AUTO(i, ctype, value, n)	_tlgAUTO _tlgV##i = (value);
#define _tlgDD_SID(i, ctype, value, n)	const UINT8 *_tlgV##i = (const UINT8 *)(value);
#define _tlgDD_NTSTR(i, ctype, value, n)					\
	const ctype *_tlgV##i = (value); UINT16 _tlgL##i = _tlgV##i->Length;
#define _tlgDD_PF(i, ctype, value, n)					\
	const void *_tlgV##i = (value); ULONG _tlgL##i = (ULONG)(n);
#define _tlgDD_PM(i, ctype, value, n)
#define _tlgDD_PD		_tlgDD_PF
#define _tlgDD_PDX		_tlgDD_PF
#define _tlgDD_CUSTOM		_tlgDD_BIN

#define _tlgDESC(p, size)	EventDataDescCreate(&_tlgD[_tlgN++], (p), (ULONG)(size));
#define _tlgDF_VAL(i, ctype, n)		_tlgDESC(&_tlgV##i, sizeof(_tlgV##i))
#define _tlgDF_STR(i, ctype, n)		_tlgStrDesc(&_tlgD[_tlgN++], _tlgV##i);
#define _tlgDF_WSTR(i, ctype, n)	_tlgWStrDesc(&_tlgD[_tlgN++], _tlgV##i);
#define _tlgDF_CSTR(i, ctype, n)	_tlgDESC(&_tlgL##i, 2) _tlgDESC(_tlgV##i, _tlgL##i)
#define _tlgDF_CWSTR(i, ctype, n)	_tlgDF_CSTR(i, ctype, n)
#define _tlgDF_BIN(i, ctype, n)		_tlgDF_CSTR(i, ctype, n)
#define _tlgDF_VARR(i, ctype, n)						\
	_tlgDESC(&_tlgL##i, 2) _tlgDESC(_tlgV##i, _tlgL##i * sizeof(ctype))
#define _tlgDF_FARR(i, ctype, n)	_tlgDESC(_tlgV##i, (n) * sizeof(ctype))
#define _tlgDF_STRUCT(i, ctype, n)
#define _tlgDF_AUTO(i, ctype, n)	_tlgAutoDesc(&_tlgD[_tlgN++], _tlgV##i);
#define _tlgDF_SID(i, ctype, n)		_tlgDESC(_tlgV##i, 8 + 4 * (ULONG)_tlgV##i[1])
#define _tlgDF_NTSTR(i, ctype, n)	_tlgDESC(&_tlgL##i, 2) _tlgDESC(_tlgV##i->Buffer, _tlgL##i)
#define _tlgDF_PF(i, ctype, n)		_tlgDESC(_tlgV##i, _tlgL##i)
#define _tlgDF_PM(i, ctype, n)
#define _tlgDF_PD		_tlgDF_PF
#define _tlgDF_PDX(i, ctype, n)	_tlgDF_PF(i, ctype, n) _tlgD[_tlgN - 1].Type = (UCHAR)(ctype);
#define _tlgDF_CUSTOM		_tlgDF_BIN

/* What each argument gives in each context (empty unless listed). */
#define _tlgX_NDESC_tlgF(i, dk, shape, in, out, tag, name, ctype, value, n) _tlgND_##dk
#define _tlgX_NDESC_tlgLEVEL(...)
#define _tlgX_NDESC_tlgKEYWORD(...)
#define _tlgX_NDESC_tlgOPCODE(...)
#define _tlgX_NDESC_tlgCHANNEL(...)
#define _tlgX_NDESC_tlgEVTAG(...)
#define _tlgX_NDESC_tlgDESC(...)
#define _tlgX_MDECL_tlgF(i, dk, shape, in, out, tag, name, ctype, value, n) _tlgMD_##shape(i, name, in, out, ctype, n)
#define _tlgX_MDECL_tlgLEVEL(...)
#define _tlgX_MDECL_tlgKEYWORD(...)
#define _tlgX_MDECL_tlgOPCODE(...)
#define _tlgX_MDECL_tlgCHANNEL(...)
#define _tlgX_MDECL_tlgEVTAG(...)
#define _tlgX_MDECL_tlgDESC(...)
#define _tlgX_MINIT_tlgF(i, dk, shape, in, out, tag, name, ctype, value, n) _tlgMI_##shape(name, _tlgIN_##dk(in), out, tag, ctype, n)
#define _tlgX_MINIT_tlgLEVEL(...)
#define _tlgX_MINIT_tlgKEYWORD(...)
#define _tlgX_MINIT_tlgOPCODE(...)
#define _tlgX_MINIT_tlgCHANNEL(...)
#define _tlgX_MINIT_tlgEVTAG(...)
#define _tlgX_MINIT_tlgDESC(...)
#define _tlgX_DDECL_tlgF(i, dk, shape, in, out, tag, name, ctype, value, n) _tlgDD_##dk(i, ctype, value, n)
#define _tlgX_DDECL_tlgLEVEL(...)
#define _tlgX_DDECL_tlgKEYWORD(...)
#define _tlgX_DDECL_tlgOPCODE(...)
#define _tlgX_DDECL_tlgCHANNEL(...)
#define _tlgX_DDECL_tlgEVTAG(...)
#define _tlgX_DDECL_tlgDESC(...)
#define _tlgX_DFILL_tlgF(i, dk, shape, in, out, tag, name, ctype, value, n) _tlgDF_##dk(i, ctype, n)
#define _tlgX_DFILL_tlgLEVEL(...)
#define _tlgX_DFILL_tlgKEYWORD(...)
#define _tlgX_DFILL_tlgOPCODE(...)
#define _tlgX_DFILL_tlgCHANNEL(...)
#define _tlgX_DFILL_tlgEVTAG(...)
#define _tlgX_DFILL_tlgDESC(...)
#define _tlgX_LV_tlgF(...)
#define _tlgX_LV_tlgLEVEL(i, v) * 0 + (v)
#define _tlgX_LV_tlgKEYWORD(...)
#define _tlgX_LV_tlgOPCODE(...)
#define _tlgX_LV_tlgCHANNEL(...)
#define _tlgX_LV_tlgEVTAG(...)
#define _tlgX_LV_tlgDESC(...)
#define _tlgX_OP_tlgF(...)
#define _tlgX_OP_tlgLEVEL(...)
#define _tlgX_OP_tlgKEYWORD(...)
#define _tlgX_OP_tlgOPCODE(i, v) * 0 + (v)
#define _tlgX_OP_tlgCHANNEL(...)
#define _tlgX_OP_tlgEVTAG(...)
#define _tlgX_OP_tlgDESC(...)
#define _tlgX_CH_tlgF(...)
#define _tlgX_CH_tlgLEVEL(...)
#define _tlgX_CH_tlgKEYWORD(...)
#define _tlgX_CH_tlgOPCODE(...)
#define _tlgX_CH_tlgCHANNEL(i, v) * 0 + (v)
#define _tlgX_CH_tlgEVTAG(...)
#define _tlgX_CH_tlgDESC(...)
#define _tlgX_KW_tlgF(...)
#define _tlgX_KW_tlgLEVEL(...)
#define _tlgX_KW_tlgKEYWORD(i, v) | (v)
#define _tlgX_KW_tlgOPCODE(...)
#define _tlgX_KW_tlgCHANNEL(...)
#define _tlgX_KW_tlgEVTAG(...)
#define _tlgX_KW_tlgDESC(...)
#define _tlgX_TG_tlgF(...)
#define _tlgX_TG_tlgLEVEL(...)
#define _tlgX_TG_tlgKEYWORD(...)
#define _tlgX_TG_tlgOPCODE(...)
#define _tlgX_TG_tlgCHANNEL(...)
#define _tlgX_TG_tlgEVTAG(i, v) | (v)
#define _tlgX_TG_tlgDESC(...)
/* Scalars: TraceLoggingInt32(value [, name [, description [, tags]]]). */
#define TraceLoggingInt8(value, ...) \
	_tlgFIELD(VAL, I, TlgInINT8, TlgOutNULL, int8_t, value, 0, #value __VA_OPT__(,) __VA_ARGS__)
#define TraceLoggingUInt8(value, ...) \
	_tlgFIELD(VAL, I, TlgInUINT8, TlgOutNULL, uint8_t, value, 0, #value __VA_OPT__(,) __VA_ARGS__)
#define TraceLoggingInt16(value, ...) \
	_tlgFIELD(VAL, I, TlgInINT16, TlgOutNULL, int16_t, value, 0, #value __VA_OPT__(,) __VA_ARGS__)
#define TraceLoggingUInt16(value, ...) \
	_tlgFIELD(VAL, I, TlgInUINT16, TlgOutNULL, uint16_t, value, 0, #value __VA_OPT__(,) __VA_ARGS__)
#define TraceLoggingInt32(value, ...) \
	_tlgFIELD(VAL, I, TlgInINT32, TlgOutNULL, int32_t, value, 0, #value __VA_OPT__(,) __VA_ARGS__)
#define TraceLoggingUInt32(value, ...) \
	_tlgFIELD(VAL, I, TlgInUINT32, TlgOutNULL, uint32_t, value, 0, #value __VA_OPT__(,) __VA_ARGS__)
#define TraceLoggingInt64(value, ...) \
	_tlgFIELD(VAL, I, TlgInINT64, TlgOutNULL, int64_t, value, 0, #value __VA_OPT__(,) __VA_ARGS__)
#define TraceLoggingUInt64(value, ...) \
	_tlgFIELD(VAL, I, TlgInUINT64, TlgOutNULL, uint64_t, value, 0, #value __VA_OPT__(,) __VA_ARGS__)
#define TraceLoggingIntPtr(value, ...) \
	_tlgFIELD(VAL, I, TlgInINTPTR, TlgOutNULL, intptr_t, value, 0, #value __VA_OPT__(,) __VA_ARGS__)
#define TraceLoggingUIntPtr(value, ...) \
	_tlgFIELD(VAL, I, TlgInUINTPTR, TlgOutNULL, uintptr_t, value, 0, #value __VA_OPT__(,) __VA_ARGS__)
#define TraceLoggingLong(value, ...) \
	_tlgFIELD(VAL, I, TlgInLONG, TlgOutNULL, LONG, value, 0, #value __VA_OPT__(,) __VA_ARGS__)
#define TraceLoggingULong(value, ...) \
	_tlgFIELD(VAL, I, TlgInULONG, TlgOutNULL, ULONG, value, 0, #value __VA_OPT__(,) __VA_ARGS__)
#define TraceLoggingHexInt8(value, ...) \
	_tlgFIELD(VAL, IO, TlgInUINT8, TlgOutHEX, int8_t, value, 0, #value __VA_OPT__(,) __VA_ARGS__)
#define TraceLoggingHexUInt8(value, ...) \
	_tlgFIELD(VAL, IO, TlgInUINT8, TlgOutHEX, uint8_t, value, 0, #value __VA_OPT__(,) __VA_ARGS__)
#define TraceLoggingHexInt16(value, ...) \
	_tlgFIELD(VAL, IO, TlgInUINT16, TlgOutHEX, int16_t, value, 0, #value __VA_OPT__(,) __VA_ARGS__)
#define TraceLoggingHexUInt16(value, ...) \
	_tlgFIELD(VAL, IO, TlgInUINT16, TlgOutHEX, uint16_t, value, 0, #value __VA_OPT__(,) __VA_ARGS__)
#define TraceLoggingHexInt32(value, ...) \
	_tlgFIELD(VAL, I, TlgInHEXINT32, TlgOutNULL, int32_t, value, 0, #value __VA_OPT__(,) __VA_ARGS__)
#define TraceLoggingHexUInt32(value, ...) \
	_tlgFIELD(VAL, I, TlgInHEXINT32, TlgOutNULL, uint32_t, value, 0, #value __VA_OPT__(,) __VA_ARGS__)
#define TraceLoggingHexInt64(value, ...) \
	_tlgFIELD(VAL, I, TlgInHEXINT64, TlgOutNULL, int64_t, value, 0, #value __VA_OPT__(,) __VA_ARGS__)
#define TraceLoggingHexUInt64(value, ...) \
	_tlgFIELD(VAL, I, TlgInHEXINT64, TlgOutNULL, uint64_t, value, 0, #value __VA_OPT__(,) __VA_ARGS__)
#define TraceLoggingHexIntPtr(value, ...) \
	_tlgFIELD(VAL, I, TlgInPOINTER, TlgOutNULL, intptr_t, value, 0, #value __VA_OPT__(,) __VA_ARGS__)
#define TraceLoggingHexUIntPtr(value, ...) \
	_tlgFIELD(VAL, I, TlgInPOINTER, TlgOutNULL, uintptr_t, value, 0, #value __VA_OPT__(,) __VA_ARGS__)
#define TraceLoggingHexLong(value, ...) \
	_tlgFIELD(VAL, I, TlgInHEXLONG, TlgOutNULL, LONG, value, 0, #value __VA_OPT__(,) __VA_ARGS__)
#define TraceLoggingHexULong(value, ...) \
	_tlgFIELD(VAL, I, TlgInHEXLONG, TlgOutNULL, ULONG, value, 0, #value __VA_OPT__(,) __VA_ARGS__)
#define TraceLoggingFloat32(value, ...) \
	_tlgFIELD(VAL, I, TlgInFLOAT, TlgOutNULL, float, value, 0, #value __VA_OPT__(,) __VA_ARGS__)
#define TraceLoggingFloat64(value, ...) \
	_tlgFIELD(VAL, I, TlgInDOUBLE, TlgOutNULL, double, value, 0, #value __VA_OPT__(,) __VA_ARGS__)
#define TraceLoggingBoolean(value, ...) \
	_tlgFIELD(VAL, IO, TlgInUINT8, TlgOutBOOLEAN, UINT8, value, 0, #value __VA_OPT__(,) __VA_ARGS__)
#define TraceLoggingBool(value, ...) \
	_tlgFIELD(VAL, I, TlgInBOOL32, TlgOutNULL, BOOL, value, 0, #value __VA_OPT__(,) __VA_ARGS__)
#define TraceLoggingChar(value, ...) \
	_tlgFIELD(VAL, IO, TlgInUINT8, TlgOutSTRING, char, value, 0, #value __VA_OPT__(,) __VA_ARGS__)
#define TraceLoggingChar16(value, ...) \
	_tlgFIELD(VAL, IO, TlgInUINT16, TlgOutSTRING, WCHAR, value, 0, #value __VA_OPT__(,) __VA_ARGS__)
#define TraceLoggingWChar(value, ...) \
	_tlgFIELD(VAL, IO, TlgInUINT16, TlgOutSTRING, WCHAR, value, 0, #value __VA_OPT__(,) __VA_ARGS__)
#define TraceLoggingPointer(value, ...) \
	_tlgFIELD(VAL, I, TlgInPOINTER, TlgOutNULL, const void *, value, 0, #value __VA_OPT__(,) __VA_ARGS__)
#define TraceLoggingCodePointer(value, ...) \
	_tlgFIELD(VAL, IO, TlgInPOINTER, TlgOutCODE_POINTER, const void *, value, 0, #value __VA_OPT__(,) __VA_ARGS__)
#define TraceLoggingPid(value, ...) \
	_tlgFIELD(VAL, IO, TlgInUINT32, TlgOutPID, UINT32, value, 0, #value __VA_OPT__(,) __VA_ARGS__)
#define TraceLoggingTid(value, ...) \
	_tlgFIELD(VAL, IO, TlgInUINT32, TlgOutTID, UINT32, value, 0, #value __VA_OPT__(,) __VA_ARGS__)
#define TraceLoggingPort(value, ...) \
	_tlgFIELD(VAL, IO, TlgInUINT16, TlgOutPORT, UINT16, value, 0, #value __VA_OPT__(,) __VA_ARGS__)
#define TraceLoggingIPv4Address(value, ...) \
	_tlgFIELD(VAL, IO, TlgInUINT32, TlgOutIPV4, UINT32, value, 0, #value __VA_OPT__(,) __VA_ARGS__)
#define TraceLoggingWinError(value, ...) \
	_tlgFIELD(VAL, IO, TlgInUINT32, TlgOutWIN32ERROR, UINT32, value, 0, #value __VA_OPT__(,) __VA_ARGS__)
#define TraceLoggingNTStatus(value, ...) \
	_tlgFIELD(VAL, IO, TlgInINT32, TlgOutNTSTATUS, INT32, value, 0, #value __VA_OPT__(,) __VA_ARGS__)
#define TraceLoggingHResult(value, ...) \
	_tlgFIELD(VAL, IO, TlgInINT32, TlgOutHRESULT, INT32, value, 0, #value __VA_OPT__(,) __VA_ARGS__)
#define TraceLoggingFileTime(value, ...) \
	_tlgFIELD(VAL, I, TlgInFILETIME, TlgOutNULL, FILETIME, value, 0, #value __VA_OPT__(,) __VA_ARGS__)
#define TraceLoggingFileTimeUtc(value, ...) \
	_tlgFIELD(VAL, IO, TlgInFILETIME, TlgOutDATETIME_UTC, FILETIME, value, 0, #value __VA_OPT__(,) __VA_ARGS__)
#define TraceLoggingSystemTime(value, ...) \
	_tlgFIELD(VAL, I, TlgInSYSTEMTIME, TlgOutNULL, SYSTEMTIME, value, 0, #value __VA_OPT__(,) __VA_ARGS__)
#define TraceLoggingSystemTimeUtc(value, ...) \
	_tlgFIELD(VAL, IO, TlgInSYSTEMTIME, TlgOutDATETIME_UTC, SYSTEMTIME, value, 0, #value __VA_OPT__(,) __VA_ARGS__)
#define TraceLoggingGuid(value, ...) \
	_tlgFIELD(VAL, I, TlgInGUID, TlgOutNULL, GUID, value, 0, #value __VA_OPT__(,) __VA_ARGS__)

/* Arrays: ...Array(pValues, cValues, ...) with the count in the payload,
 * ...FixedArray(pValues, cValues, ...) with a constant count in the metadata. */
#define TraceLoggingInt8Array(pValues, cValues, ...) \
	_tlgFIELD(VARR, I, TlgInINT8, TlgOutNULL, int8_t, pValues, cValues, #pValues __VA_OPT__(,) __VA_ARGS__)
#define TraceLoggingInt8FixedArray(pValues, cValues, ...) \
	_tlgFIELD_FIXED(FARR, I, TlgInINT8, TlgOutNULL, int8_t, pValues, cValues, #pValues __VA_OPT__(,) __VA_ARGS__)
#define TraceLoggingUInt8Array(pValues, cValues, ...) \
	_tlgFIELD(VARR, I, TlgInUINT8, TlgOutNULL, uint8_t, pValues, cValues, #pValues __VA_OPT__(,) __VA_ARGS__)
#define TraceLoggingUInt8FixedArray(pValues, cValues, ...) \
	_tlgFIELD_FIXED(FARR, I, TlgInUINT8, TlgOutNULL, uint8_t, pValues, cValues, #pValues __VA_OPT__(,) __VA_ARGS__)
#define TraceLoggingInt16Array(pValues, cValues, ...) \
	_tlgFIELD(VARR, I, TlgInINT16, TlgOutNULL, int16_t, pValues, cValues, #pValues __VA_OPT__(,) __VA_ARGS__)
#define TraceLoggingInt16FixedArray(pValues, cValues, ...) \
	_tlgFIELD_FIXED(FARR, I, TlgInINT16, TlgOutNULL, int16_t, pValues, cValues, #pValues __VA_OPT__(,) __VA_ARGS__)
#define TraceLoggingUInt16Array(pValues, cValues, ...) \
	_tlgFIELD(VARR, I, TlgInUINT16, TlgOutNULL, uint16_t, pValues, cValues, #pValues __VA_OPT__(,) __VA_ARGS__)
#define TraceLoggingUInt16FixedArray(pValues, cValues, ...) \
	_tlgFIELD_FIXED(FARR, I, TlgInUINT16, TlgOutNULL, uint16_t, pValues, cValues, #pValues __VA_OPT__(,) __VA_ARGS__)
#define TraceLoggingInt32Array(pValues, cValues, ...) \
	_tlgFIELD(VARR, I, TlgInINT32, TlgOutNULL, int32_t, pValues, cValues, #pValues __VA_OPT__(,) __VA_ARGS__)
#define TraceLoggingInt32FixedArray(pValues, cValues, ...) \
	_tlgFIELD_FIXED(FARR, I, TlgInINT32, TlgOutNULL, int32_t, pValues, cValues, #pValues __VA_OPT__(,) __VA_ARGS__)
#define TraceLoggingUInt32Array(pValues, cValues, ...) \
	_tlgFIELD(VARR, I, TlgInUINT32, TlgOutNULL, uint32_t, pValues, cValues, #pValues __VA_OPT__(,) __VA_ARGS__)
#define TraceLoggingUInt32FixedArray(pValues, cValues, ...) \
	_tlgFIELD_FIXED(FARR, I, TlgInUINT32, TlgOutNULL, uint32_t, pValues, cValues, #pValues __VA_OPT__(,) __VA_ARGS__)
#define TraceLoggingInt64Array(pValues, cValues, ...) \
	_tlgFIELD(VARR, I, TlgInINT64, TlgOutNULL, int64_t, pValues, cValues, #pValues __VA_OPT__(,) __VA_ARGS__)
#define TraceLoggingInt64FixedArray(pValues, cValues, ...) \
	_tlgFIELD_FIXED(FARR, I, TlgInINT64, TlgOutNULL, int64_t, pValues, cValues, #pValues __VA_OPT__(,) __VA_ARGS__)
#define TraceLoggingUInt64Array(pValues, cValues, ...) \
	_tlgFIELD(VARR, I, TlgInUINT64, TlgOutNULL, uint64_t, pValues, cValues, #pValues __VA_OPT__(,) __VA_ARGS__)
#define TraceLoggingUInt64FixedArray(pValues, cValues, ...) \
	_tlgFIELD_FIXED(FARR, I, TlgInUINT64, TlgOutNULL, uint64_t, pValues, cValues, #pValues __VA_OPT__(,) __VA_ARGS__)
#define TraceLoggingIntPtrArray(pValues, cValues, ...) \
	_tlgFIELD(VARR, I, TlgInINTPTR, TlgOutNULL, intptr_t, pValues, cValues, #pValues __VA_OPT__(,) __VA_ARGS__)
#define TraceLoggingIntPtrFixedArray(pValues, cValues, ...) \
	_tlgFIELD_FIXED(FARR, I, TlgInINTPTR, TlgOutNULL, intptr_t, pValues, cValues, #pValues __VA_OPT__(,) __VA_ARGS__)
#define TraceLoggingUIntPtrArray(pValues, cValues, ...) \
	_tlgFIELD(VARR, I, TlgInUINTPTR, TlgOutNULL, uintptr_t, pValues, cValues, #pValues __VA_OPT__(,) __VA_ARGS__)
#define TraceLoggingUIntPtrFixedArray(pValues, cValues, ...) \
	_tlgFIELD_FIXED(FARR, I, TlgInUINTPTR, TlgOutNULL, uintptr_t, pValues, cValues, #pValues __VA_OPT__(,) __VA_ARGS__)
#define TraceLoggingLongArray(pValues, cValues, ...) \
	_tlgFIELD(VARR, I, TlgInLONG, TlgOutNULL, LONG, pValues, cValues, #pValues __VA_OPT__(,) __VA_ARGS__)
#define TraceLoggingLongFixedArray(pValues, cValues, ...) \
	_tlgFIELD_FIXED(FARR, I, TlgInLONG, TlgOutNULL, LONG, pValues, cValues, #pValues __VA_OPT__(,) __VA_ARGS__)
#define TraceLoggingULongArray(pValues, cValues, ...) \
	_tlgFIELD(VARR, I, TlgInULONG, TlgOutNULL, ULONG, pValues, cValues, #pValues __VA_OPT__(,) __VA_ARGS__)
#define TraceLoggingULongFixedArray(pValues, cValues, ...) \
	_tlgFIELD_FIXED(FARR, I, TlgInULONG, TlgOutNULL, ULONG, pValues, cValues, #pValues __VA_OPT__(,) __VA_ARGS__)
#define TraceLoggingHexInt8Array(pValues, cValues, ...) \
	_tlgFIELD(VARR, IO, TlgInUINT8, TlgOutHEX, int8_t, pValues, cValues, #pValues __VA_OPT__(,) __VA_ARGS__)
#define TraceLoggingHexInt8FixedArray(pValues, cValues, ...) \
	_tlgFIELD_FIXED(FARR, IO, TlgInUINT8, TlgOutHEX, int8_t, pValues, cValues, #pValues __VA_OPT__(,) __VA_ARGS__)
#define TraceLoggingHexUInt8Array(pValues, cValues, ...) \
	_tlgFIELD(VARR, IO, TlgInUINT8, TlgOutHEX, uint8_t, pValues, cValues, #pValues __VA_OPT__(,) __VA_ARGS__)
#define TraceLoggingHexUInt8FixedArray(pValues, cValues, ...) \
	_tlgFIELD_FIXED(FARR, IO, TlgInUINT8, TlgOutHEX, uint8_t, pValues, cValues, #pValues __VA_OPT__(,) __VA_ARGS__)
#define TraceLoggingHexInt16Array(pValues, cValues, ...) \
	_tlgFIELD(VARR, IO, TlgInUINT16, TlgOutHEX, int16_t, pValues, cValues, #pValues __VA_OPT__(,) __VA_ARGS__)
#define TraceLoggingHexInt16FixedArray(pValues, cValues, ...) \
	_tlgFIELD_FIXED(FARR, IO, TlgInUINT16, TlgOutHEX, int16_t, pValues, cValues, #pValues __VA_OPT__(,) __VA_ARGS__)
#define TraceLoggingHexUInt16Array(pValues, cValues, ...) \
	_tlgFIELD(VARR, IO, TlgInUINT16, TlgOutHEX, uint16_t, pValues, cValues, #pValues __VA_OPT__(,) __VA_ARGS__)
#define TraceLoggingHexUInt16FixedArray(pValues, cValues, ...) \
	_tlgFIELD_FIXED(FARR, IO, TlgInUINT16, TlgOutHEX, uint16_t, pValues, cValues, #pValues __VA_OPT__(,) __VA_ARGS__)
#define TraceLoggingHexInt32Array(pValues, cValues, ...) \
	_tlgFIELD(VARR, I, TlgInHEXINT32, TlgOutNULL, int32_t, pValues, cValues, #pValues __VA_OPT__(,) __VA_ARGS__)
#define TraceLoggingHexInt32FixedArray(pValues, cValues, ...) \
	_tlgFIELD_FIXED(FARR, I, TlgInHEXINT32, TlgOutNULL, int32_t, pValues, cValues, #pValues __VA_OPT__(,) __VA_ARGS__)
#define TraceLoggingHexUInt32Array(pValues, cValues, ...) \
	_tlgFIELD(VARR, I, TlgInHEXINT32, TlgOutNULL, uint32_t, pValues, cValues, #pValues __VA_OPT__(,) __VA_ARGS__)
#define TraceLoggingHexUInt32FixedArray(pValues, cValues, ...) \
	_tlgFIELD_FIXED(FARR, I, TlgInHEXINT32, TlgOutNULL, uint32_t, pValues, cValues, #pValues __VA_OPT__(,) __VA_ARGS__)
#define TraceLoggingHexInt64Array(pValues, cValues, ...) \
	_tlgFIELD(VARR, I, TlgInHEXINT64, TlgOutNULL, int64_t, pValues, cValues, #pValues __VA_OPT__(,) __VA_ARGS__)
#define TraceLoggingHexInt64FixedArray(pValues, cValues, ...) \
	_tlgFIELD_FIXED(FARR, I, TlgInHEXINT64, TlgOutNULL, int64_t, pValues, cValues, #pValues __VA_OPT__(,) __VA_ARGS__)
#define TraceLoggingHexUInt64Array(pValues, cValues, ...) \
	_tlgFIELD(VARR, I, TlgInHEXINT64, TlgOutNULL, uint64_t, pValues, cValues, #pValues __VA_OPT__(,) __VA_ARGS__)
#define TraceLoggingHexUInt64FixedArray(pValues, cValues, ...) \
	_tlgFIELD_FIXED(FARR, I, TlgInHEXINT64, TlgOutNULL, uint64_t, pValues, cValues, #pValues __VA_OPT__(,) __VA_ARGS__)
#define TraceLoggingHexIntPtrArray(pValues, cValues, ...) \
	_tlgFIELD(VARR, I, TlgInPOINTER, TlgOutNULL, intptr_t, pValues, cValues, #pValues __VA_OPT__(,) __VA_ARGS__)
#define TraceLoggingHexIntPtrFixedArray(pValues, cValues, ...) \
	_tlgFIELD_FIXED(FARR, I, TlgInPOINTER, TlgOutNULL, intptr_t, pValues, cValues, #pValues __VA_OPT__(,) __VA_ARGS__)
#define TraceLoggingHexUIntPtrArray(pValues, cValues, ...) \
	_tlgFIELD(VARR, I, TlgInPOINTER, TlgOutNULL, uintptr_t, pValues, cValues, #pValues __VA_OPT__(,) __VA_ARGS__)
#define TraceLoggingHexUIntPtrFixedArray(pValues, cValues, ...) \
	_tlgFIELD_FIXED(FARR, I, TlgInPOINTER, TlgOutNULL, uintptr_t, pValues, cValues, #pValues __VA_OPT__(,) __VA_ARGS__)
#define TraceLoggingHexLongArray(pValues, cValues, ...) \
	_tlgFIELD(VARR, I, TlgInHEXLONG, TlgOutNULL, LONG, pValues, cValues, #pValues __VA_OPT__(,) __VA_ARGS__)
#define TraceLoggingHexLongFixedArray(pValues, cValues, ...) \
	_tlgFIELD_FIXED(FARR, I, TlgInHEXLONG, TlgOutNULL, LONG, pValues, cValues, #pValues __VA_OPT__(,) __VA_ARGS__)
#define TraceLoggingHexULongArray(pValues, cValues, ...) \
	_tlgFIELD(VARR, I, TlgInHEXLONG, TlgOutNULL, ULONG, pValues, cValues, #pValues __VA_OPT__(,) __VA_ARGS__)
#define TraceLoggingHexULongFixedArray(pValues, cValues, ...) \
	_tlgFIELD_FIXED(FARR, I, TlgInHEXLONG, TlgOutNULL, ULONG, pValues, cValues, #pValues __VA_OPT__(,) __VA_ARGS__)
#define TraceLoggingFloat32Array(pValues, cValues, ...) \
	_tlgFIELD(VARR, I, TlgInFLOAT, TlgOutNULL, float, pValues, cValues, #pValues __VA_OPT__(,) __VA_ARGS__)
#define TraceLoggingFloat32FixedArray(pValues, cValues, ...) \
	_tlgFIELD_FIXED(FARR, I, TlgInFLOAT, TlgOutNULL, float, pValues, cValues, #pValues __VA_OPT__(,) __VA_ARGS__)
#define TraceLoggingFloat64Array(pValues, cValues, ...) \
	_tlgFIELD(VARR, I, TlgInDOUBLE, TlgOutNULL, double, pValues, cValues, #pValues __VA_OPT__(,) __VA_ARGS__)
#define TraceLoggingFloat64FixedArray(pValues, cValues, ...) \
	_tlgFIELD_FIXED(FARR, I, TlgInDOUBLE, TlgOutNULL, double, pValues, cValues, #pValues __VA_OPT__(,) __VA_ARGS__)
#define TraceLoggingBooleanArray(pValues, cValues, ...) \
	_tlgFIELD(VARR, IO, TlgInUINT8, TlgOutBOOLEAN, UINT8, pValues, cValues, #pValues __VA_OPT__(,) __VA_ARGS__)
#define TraceLoggingBooleanFixedArray(pValues, cValues, ...) \
	_tlgFIELD_FIXED(FARR, IO, TlgInUINT8, TlgOutBOOLEAN, UINT8, pValues, cValues, #pValues __VA_OPT__(,) __VA_ARGS__)
#define TraceLoggingBoolArray(pValues, cValues, ...) \
	_tlgFIELD(VARR, I, TlgInBOOL32, TlgOutNULL, BOOL, pValues, cValues, #pValues __VA_OPT__(,) __VA_ARGS__)
#define TraceLoggingBoolFixedArray(pValues, cValues, ...) \
	_tlgFIELD_FIXED(FARR, I, TlgInBOOL32, TlgOutNULL, BOOL, pValues, cValues, #pValues __VA_OPT__(,) __VA_ARGS__)
#define TraceLoggingCharArray(pValues, cValues, ...) \
	_tlgFIELD(VARR, IO, TlgInUINT8, TlgOutSTRING, char, pValues, cValues, #pValues __VA_OPT__(,) __VA_ARGS__)
#define TraceLoggingCharFixedArray(pValues, cValues, ...) \
	_tlgFIELD_FIXED(FARR, IO, TlgInUINT8, TlgOutSTRING, char, pValues, cValues, #pValues __VA_OPT__(,) __VA_ARGS__)
#define TraceLoggingChar16Array(pValues, cValues, ...) \
	_tlgFIELD(VARR, IO, TlgInUINT16, TlgOutSTRING, WCHAR, pValues, cValues, #pValues __VA_OPT__(,) __VA_ARGS__)
#define TraceLoggingChar16FixedArray(pValues, cValues, ...) \
	_tlgFIELD_FIXED(FARR, IO, TlgInUINT16, TlgOutSTRING, WCHAR, pValues, cValues, #pValues __VA_OPT__(,) __VA_ARGS__)
#define TraceLoggingWCharArray(pValues, cValues, ...) \
	_tlgFIELD(VARR, IO, TlgInUINT16, TlgOutSTRING, WCHAR, pValues, cValues, #pValues __VA_OPT__(,) __VA_ARGS__)
#define TraceLoggingWCharFixedArray(pValues, cValues, ...) \
	_tlgFIELD_FIXED(FARR, IO, TlgInUINT16, TlgOutSTRING, WCHAR, pValues, cValues, #pValues __VA_OPT__(,) __VA_ARGS__)
#define TraceLoggingPointerArray(pValues, cValues, ...) \
	_tlgFIELD(VARR, I, TlgInPOINTER, TlgOutNULL, void *, pValues, cValues, #pValues __VA_OPT__(,) __VA_ARGS__)
#define TraceLoggingPointerFixedArray(pValues, cValues, ...) \
	_tlgFIELD_FIXED(FARR, I, TlgInPOINTER, TlgOutNULL, void *, pValues, cValues, #pValues __VA_OPT__(,) __VA_ARGS__)
#define TraceLoggingCodePointerArray(pValues, cValues, ...) \
	_tlgFIELD(VARR, IO, TlgInPOINTER, TlgOutCODE_POINTER, void *, pValues, cValues, #pValues __VA_OPT__(,) __VA_ARGS__)
#define TraceLoggingCodePointerFixedArray(pValues, cValues, ...) \
	_tlgFIELD_FIXED(FARR, IO, TlgInPOINTER, TlgOutCODE_POINTER, void *, pValues, cValues, #pValues __VA_OPT__(,) __VA_ARGS__)
#define TraceLoggingPidArray(pValues, cValues, ...) \
	_tlgFIELD(VARR, IO, TlgInUINT32, TlgOutPID, UINT32, pValues, cValues, #pValues __VA_OPT__(,) __VA_ARGS__)
#define TraceLoggingPidFixedArray(pValues, cValues, ...) \
	_tlgFIELD_FIXED(FARR, IO, TlgInUINT32, TlgOutPID, UINT32, pValues, cValues, #pValues __VA_OPT__(,) __VA_ARGS__)
#define TraceLoggingTidArray(pValues, cValues, ...) \
	_tlgFIELD(VARR, IO, TlgInUINT32, TlgOutTID, UINT32, pValues, cValues, #pValues __VA_OPT__(,) __VA_ARGS__)
#define TraceLoggingTidFixedArray(pValues, cValues, ...) \
	_tlgFIELD_FIXED(FARR, IO, TlgInUINT32, TlgOutTID, UINT32, pValues, cValues, #pValues __VA_OPT__(,) __VA_ARGS__)
#define TraceLoggingPortArray(pValues, cValues, ...) \
	_tlgFIELD(VARR, IO, TlgInUINT16, TlgOutPORT, UINT16, pValues, cValues, #pValues __VA_OPT__(,) __VA_ARGS__)
#define TraceLoggingPortFixedArray(pValues, cValues, ...) \
	_tlgFIELD_FIXED(FARR, IO, TlgInUINT16, TlgOutPORT, UINT16, pValues, cValues, #pValues __VA_OPT__(,) __VA_ARGS__)
#define TraceLoggingIPv4AddressArray(pValues, cValues, ...) \
	_tlgFIELD(VARR, IO, TlgInUINT32, TlgOutIPV4, UINT32, pValues, cValues, #pValues __VA_OPT__(,) __VA_ARGS__)
#define TraceLoggingIPv4AddressFixedArray(pValues, cValues, ...) \
	_tlgFIELD_FIXED(FARR, IO, TlgInUINT32, TlgOutIPV4, UINT32, pValues, cValues, #pValues __VA_OPT__(,) __VA_ARGS__)
#define TraceLoggingWinErrorArray(pValues, cValues, ...) \
	_tlgFIELD(VARR, IO, TlgInUINT32, TlgOutWIN32ERROR, UINT32, pValues, cValues, #pValues __VA_OPT__(,) __VA_ARGS__)
#define TraceLoggingWinErrorFixedArray(pValues, cValues, ...) \
	_tlgFIELD_FIXED(FARR, IO, TlgInUINT32, TlgOutWIN32ERROR, UINT32, pValues, cValues, #pValues __VA_OPT__(,) __VA_ARGS__)
#define TraceLoggingNTStatusArray(pValues, cValues, ...) \
	_tlgFIELD(VARR, IO, TlgInINT32, TlgOutNTSTATUS, INT32, pValues, cValues, #pValues __VA_OPT__(,) __VA_ARGS__)
#define TraceLoggingNTStatusFixedArray(pValues, cValues, ...) \
	_tlgFIELD_FIXED(FARR, IO, TlgInINT32, TlgOutNTSTATUS, INT32, pValues, cValues, #pValues __VA_OPT__(,) __VA_ARGS__)
#define TraceLoggingHResultArray(pValues, cValues, ...) \
	_tlgFIELD(VARR, IO, TlgInINT32, TlgOutHRESULT, INT32, pValues, cValues, #pValues __VA_OPT__(,) __VA_ARGS__)
#define TraceLoggingHResultFixedArray(pValues, cValues, ...) \
	_tlgFIELD_FIXED(FARR, IO, TlgInINT32, TlgOutHRESULT, INT32, pValues, cValues, #pValues __VA_OPT__(,) __VA_ARGS__)
#define TraceLoggingFileTimeArray(pValues, cValues, ...) \
	_tlgFIELD(VARR, I, TlgInFILETIME, TlgOutNULL, FILETIME, pValues, cValues, #pValues __VA_OPT__(,) __VA_ARGS__)
#define TraceLoggingFileTimeFixedArray(pValues, cValues, ...) \
	_tlgFIELD_FIXED(FARR, I, TlgInFILETIME, TlgOutNULL, FILETIME, pValues, cValues, #pValues __VA_OPT__(,) __VA_ARGS__)
#define TraceLoggingFileTimeUtcArray(pValues, cValues, ...) \
	_tlgFIELD(VARR, IO, TlgInFILETIME, TlgOutDATETIME_UTC, FILETIME, pValues, cValues, #pValues __VA_OPT__(,) __VA_ARGS__)
#define TraceLoggingFileTimeUtcFixedArray(pValues, cValues, ...) \
	_tlgFIELD_FIXED(FARR, IO, TlgInFILETIME, TlgOutDATETIME_UTC, FILETIME, pValues, cValues, #pValues __VA_OPT__(,) __VA_ARGS__)
#define TraceLoggingSystemTimeArray(pValues, cValues, ...) \
	_tlgFIELD(VARR, I, TlgInSYSTEMTIME, TlgOutNULL, SYSTEMTIME, pValues, cValues, #pValues __VA_OPT__(,) __VA_ARGS__)
#define TraceLoggingSystemTimeFixedArray(pValues, cValues, ...) \
	_tlgFIELD_FIXED(FARR, I, TlgInSYSTEMTIME, TlgOutNULL, SYSTEMTIME, pValues, cValues, #pValues __VA_OPT__(,) __VA_ARGS__)
#define TraceLoggingSystemTimeUtcArray(pValues, cValues, ...) \
	_tlgFIELD(VARR, IO, TlgInSYSTEMTIME, TlgOutDATETIME_UTC, SYSTEMTIME, pValues, cValues, #pValues __VA_OPT__(,) __VA_ARGS__)
#define TraceLoggingSystemTimeUtcFixedArray(pValues, cValues, ...) \
	_tlgFIELD_FIXED(FARR, IO, TlgInSYSTEMTIME, TlgOutDATETIME_UTC, SYSTEMTIME, pValues, cValues, #pValues __VA_OPT__(,) __VA_ARGS__)
#define TraceLoggingGuidArray(pValues, cValues, ...) \
	_tlgFIELD(VARR, I, TlgInGUID, TlgOutNULL, GUID, pValues, cValues, #pValues __VA_OPT__(,) __VA_ARGS__)
#define TraceLoggingGuidFixedArray(pValues, cValues, ...) \
	_tlgFIELD_FIXED(FARR, I, TlgInGUID, TlgOutNULL, GUID, pValues, cValues, #pValues __VA_OPT__(,) __VA_ARGS__)

/* Strings: NUL-terminated (a NULL pointer is sent as ""), or counted. */
#define TraceLoggingString(value, ...) \
	_tlgFIELD(STR, I, TlgInANSISTRING, TlgOutNULL, char, value, 0, #value __VA_OPT__(,) __VA_ARGS__)
#define TraceLoggingUtf8String(value, ...) \
	_tlgFIELD(STR, IO, TlgInANSISTRING, TlgOutUTF8, char, value, 0, #value __VA_OPT__(,) __VA_ARGS__)
#define TraceLoggingWideString(value, ...) \
	_tlgFIELD(WSTR, I, TlgInUNICODESTRING, TlgOutNULL, WCHAR, value, 0, #value __VA_OPT__(,) __VA_ARGS__)
#define TraceLoggingString16(value, ...) \
	_tlgFIELD(WSTR, I, TlgInUNICODESTRING, TlgOutNULL, WCHAR, value, 0, #value __VA_OPT__(,) __VA_ARGS__)
#define TraceLoggingCountedString(pValue, cchValue, ...) \
	_tlgFIELD(CSTR, I, TlgInCOUNTEDANSISTRING, TlgOutNULL, char, pValue, cchValue, \
		  #pValue __VA_OPT__(,) __VA_ARGS__)
#define TraceLoggingCountedUtf8String(pValue, cbValue, ...) \
	_tlgFIELD(CSTR, IO, TlgInCOUNTEDANSISTRING, TlgOutUTF8, char, pValue, cbValue, \
		  #pValue __VA_OPT__(,) __VA_ARGS__)
#define TraceLoggingCountedString16(pValue, cchValue, ...) \
	_tlgFIELD(CWSTR, I, TlgInCOUNTEDSTRING, TlgOutNULL, WCHAR, pValue, cchValue, \
		  #pValue __VA_OPT__(,) __VA_ARGS__)
#define TraceLoggingCountedWideString(pValue, cchValue, ...) \
	_tlgFIELD(CWSTR, I, TlgInCOUNTEDSTRING, TlgOutNULL, WCHAR, pValue, cchValue, \
		  #pValue __VA_OPT__(,) __VA_ARGS__)

/* Bytes: a 16-bit length, then the bytes. */
#define TraceLoggingBinary(pValue, cbValue, ...) \
	_tlgFIELD(BIN, I, TlgInBINARY, TlgOutNULL, void, pValue, cbValue, #pValue __VA_OPT__(,) __VA_ARGS__)
#define TraceLoggingBinaryEx(pValue, cbValue, outType, ...) \
	_tlgFIELD(BIN, IO, TlgInBINARY, outType, void, pValue, cbValue, #pValue __VA_OPT__(,) __VA_ARGS__)
/*
 * TraceLoggingBinaryBuffer(pValue, StructType, ...): pValue->Length bytes
 * at pValue->Buffer, for any struct with those two members.
 */
#define TraceLoggingBinaryBuffer(pValue, StructType, ...) \
	_tlgFIELD(NTSTR, I, TlgInBINARY, TlgOutNULL, StructType, pValue, 0, \
		  #pValue __VA_OPT__(,) __VA_ARGS__)
#define TraceLoggingBinaryBufferEx(pValue, StructType, outType, ...) \
	_tlgFIELD(NTSTR, IO, TlgInBINARY, outType, StructType, pValue, 0, \
		  #pValue __VA_OPT__(,) __VA_ARGS__)

/* An IPv6 address: 16 bytes (a struct in6_addr), sent as 16-byte binary. */
#define TraceLoggingIPv6Address(pValue, ...) \
	_tlgFIELD(BIN, IO, TlgInBINARY, TlgOutIPV6, void, pValue, 16, #pValue __VA_OPT__(,) __VA_ARGS__)

/* A SID (pointer to one): 8 + 4 * SubAuthorityCount bytes, as it says. */
#define TraceLoggingSid(pValue, ...) \
	_tlgFIELD(SID, I, TlgInSID, TlgOutNULL, void, pValue, 0, #pValue __VA_OPT__(,) __VA_ARGS__)

/*
 * TraceLoggingStruct(fieldCount, name [, description [, tags]]): the next
 * fieldCount fields (1..127) are its members.
 */
#define TraceLoggingStruct(fieldCount, name, ...) \
	_tlgFIELD(STRUCT, IO, TlgInSTRUCT, fieldCount, void, 0, 0, #fieldCount, name, \
		  ##__VA_ARGS__)

/*
 * TraceLogging's own wire forms: a socket address (a SOCKADDR of cbValue
 * bytes, sent as binary), a counted ANSI_STRING or UNICODE_STRING (by
 * pointer; Length bytes of Buffer).
 */
#define TraceLoggingSocketAddress(pValue, cbValue, ...) \
	_tlgFIELD(BIN, IO, TlgInBINARY, TlgOutSOCKETADDRESS, void, pValue, cbValue, \
		  #pValue __VA_OPT__(,) __VA_ARGS__)
#define TraceLoggingAnsiString(pValue, ...) \
	_tlgFIELD(NTSTR, I, TlgInCOUNTEDANSISTRING, TlgOutNULL, ANSI_STRING, pValue, 0, \
		  #pValue __VA_OPT__(,) __VA_ARGS__)
#define TraceLoggingUnicodeString(pValue, ...) \
	_tlgFIELD(NTSTR, I, TlgInCOUNTEDSTRING, TlgOutNULL, UNICODE_STRING, pValue, 0, \
		  #pValue __VA_OPT__(,) __VA_ARGS__)

/*
 * Hand-packed fields: metadata and payload given separately, for what the
 * other macros cannot say (arrays of strings: TlgInANSISTRING | TlgInVcount
 * with a UINT16 count and the strings one after another; arrays of
 * structs).  PackedField sends cbData raw bytes (no length prefix).
 */
#define TlgInVcount	0x40
#define TraceLoggingPackedField(pbData, cbData, inType, ...) \
	_tlgFIELD(PF, I, inType, TlgOutNULL, void, pbData, cbData, #pbData __VA_OPT__(,) __VA_ARGS__)
#define TraceLoggingPackedFieldEx(pbData, cbData, inType, outType, ...) \
	_tlgFIELD(PF, IO, inType, (outType) & 0x7f, void, pbData, cbData, \
		  #pbData __VA_OPT__(,) __VA_ARGS__)
#define TraceLoggingPackedMetadata(inType, name, ...) \
	_tlgFIELD(PM, I, inType, TlgOutNULL, void, 0, 0, name, name __VA_OPT__(,) __VA_ARGS__)
#define TraceLoggingPackedMetadataEx(inType, outType, name, ...) \
	_tlgFIELD(PM, IO, inType, (outType) & 0x7f, void, 0, 0, name, name __VA_OPT__(,) __VA_ARGS__)
#define TraceLoggingPackedStruct(fieldCount, name, ...) \
	TraceLoggingStruct(fieldCount, name __VA_OPT__(,) __VA_ARGS__)
#define TraceLoggingPackedStructArray(fieldCount, name, ...) \
	_tlgFIELD(STRUCT, IO, TlgInSTRUCT | TlgInVcount, fieldCount, void, 0, 0, \
		  #fieldCount, name __VA_OPT__(,) __VA_ARGS__)
#define TraceLoggingPackedData(pbData, cbData) \
	_tlgFIELD(PD, X, 0, 0, void, pbData, cbData, "")
/* ... with the data descriptor's Type (EVENT_DATA_DESCRIPTOR_TYPE_*). */
#define TraceLoggingPackedDataEx(pbData, cbData, dataDescType) \
	_tlgFIELD(PDX, X, 0, 0, dataDescType, pbData, cbData, "")

/*
 * TraceLoggingCustom(pbValue, cbValue, protocol, (schema bytes...),
 * cbSchema [, name...]): a field in a serializer's own format; protocol
 * (0..31) and the schema travel in the metadata, the value as binary.
 */
#define TRACELOGGING_PROTOCOL_MICROSOFT_RESERVED0	0
#define TRACELOGGING_PROTOCOL_MICROSOFT_RESERVED1	1
#define TRACELOGGING_PROTOCOL_MICROSOFT_RESERVED2	2
#define TRACELOGGING_PROTOCOL_MICROSOFT_RESERVED3	3
#define TRACELOGGING_PROTOCOL_MICROSOFT_RESERVED4	4
#define TraceLoggingCustom(pbValue, cbValue, protocol, bSchema, cbSchema, ...) \
	_tlgFIELD(CUSTOM, CU, protocol, bSchema, cbSchema, pbValue, cbValue, \
		  #pbValue __VA_OPT__(,) __VA_ARGS__)

/*
 * TraceLoggingValue(value, ...): the type says which field it is.  In C++
 * the out-type byte is sent only when there is an out-type, as Windows'
 * templates do.
 */
#ifdef __cplusplus
#define _tlgAUTOSHAPE	A
#else
#define _tlgAUTOSHAPE	IO
#endif
#define TraceLoggingValue(value, ...) \
	_tlgFIELD(AUTO, _tlgAUTOSHAPE, _tlgAutoIn(value), _tlgAutoOut(value), void, value, 0, \
		  #value __VA_OPT__(,) __VA_ARGS__)
/* TraceLoggingValue: in-type and out-type from the value's type. */
#ifdef __cplusplus
template <class T> struct _tlgAutoType;
#define _tlgAUTOTYPE(T, in, out)					\
	template <> struct _tlgAutoType<T> {				\
		static const UINT8 In = in, Out = out;			\
	};
_tlgAUTOTYPE(bool, TlgInUINT8, TlgOutBOOLEAN)
_tlgAUTOTYPE(char, TlgInUINT8, TlgOutSTRING)
_tlgAUTOTYPE(char16_t, TlgInUINT16, TlgOutSTRING)
_tlgAUTOTYPE(signed char, TlgInINT8, TlgOutNULL)
_tlgAUTOTYPE(unsigned char, TlgInUINT8, TlgOutNULL)
_tlgAUTOTYPE(short, TlgInINT16, TlgOutNULL)
_tlgAUTOTYPE(unsigned short, TlgInUINT16, TlgOutNULL)
_tlgAUTOTYPE(int, TlgInINT32, TlgOutNULL)
_tlgAUTOTYPE(unsigned int, TlgInUINT32, TlgOutNULL)
_tlgAUTOTYPE(long, sizeof(long) == 8 ? TlgInINT64 : TlgInINT32, TlgOutNULL)
_tlgAUTOTYPE(unsigned long, sizeof(long) == 8 ? TlgInUINT64 : TlgInUINT32, TlgOutNULL)
_tlgAUTOTYPE(long long, TlgInINT64, TlgOutNULL)
_tlgAUTOTYPE(unsigned long long, TlgInUINT64, TlgOutNULL)
_tlgAUTOTYPE(float, TlgInFLOAT, TlgOutNULL)
_tlgAUTOTYPE(double, TlgInDOUBLE, TlgOutNULL)
_tlgAUTOTYPE(GUID, TlgInGUID, TlgOutNULL)
_tlgAUTOTYPE(FILETIME, TlgInFILETIME, TlgOutNULL)
_tlgAUTOTYPE(SYSTEMTIME, TlgInSYSTEMTIME, TlgOutNULL)
_tlgAUTOTYPE(char *, TlgInANSISTRING, TlgOutNULL)
_tlgAUTOTYPE(const char *, TlgInANSISTRING, TlgOutNULL)
_tlgAUTOTYPE(char16_t *, TlgInUNICODESTRING, TlgOutNULL)
_tlgAUTOTYPE(const char16_t *, TlgInUNICODESTRING, TlgOutNULL)
_tlgAUTOTYPE(void *, TlgInPOINTER, TlgOutNULL)
_tlgAUTOTYPE(const void *, TlgInPOINTER, TlgOutNULL)
#ifdef LIBETW_WINDOWS_SOURCE
/* Windows-source mode: wchar_t is 16-bit UTF-16, WCHAR itself. */
_tlgAUTOTYPE(wchar_t, TlgInUINT16, TlgOutSTRING)
_tlgAUTOTYPE(wchar_t *, TlgInUNICODESTRING, TlgOutNULL)
_tlgAUTOTYPE(const wchar_t *, TlgInUNICODESTRING, TlgOutNULL)
#endif
#undef _tlgAUTOTYPE
#define _tlgAutoIn(value)	_tlgAutoType<_tlgTYPEOF(value)>::In
#define _tlgAutoOut(value)	_tlgAutoType<_tlgTYPEOF(value)>::Out

/* The in-type byte, and the out-type byte only if there is an out-type. */
template <UINT8 In, UINT8 Out, bool = Out != 0> struct _tlgInOut {
	UINT8 b[2];
	static constexpr _tlgInOut make() { return { { (UINT8)(In | 0x80), Out } }; }
};
template <UINT8 In, UINT8 Out> struct _tlgInOut<In, Out, false> {
	UINT8 b[1];
	static constexpr _tlgInOut make() { return { { In } }; }
};
#define _tlgMD_A(i, name, in, out, ...)					\
	char _tlgN##i[sizeof(name)]; _tlgInOut<in, out> _tlgI##i;
#define _tlgMI_A(name, in, out, ...)	name, _tlgInOut<in, out>::make(),
#define _tlgMD_A_T		_tlgMD_IOT
#define _tlgMI_A_T		_tlgMI_IOT

/* The event tag in the shortest of Windows' forms: 1, 2 or 4 bytes. */
template <UINT32 T, unsigned L = (T & 0x0fe00000) == T ? 1 :
				 (T & 0x0fffc000) == T ? 2 : 4>
struct _tlgEvtTag {
	static_assert((T & 0x0fffffff) == T, "TraceLogging: tags have 28 bits");
	UINT8 b[4];
	static constexpr _tlgEvtTag make()
	{
		return { { (UINT8)(0x80 | (T >> 21 & 0x7f)), (UINT8)(0x80 | (T >> 14 & 0x7f)),
			   (UINT8)(0x80 | (T >> 7 & 0x7f)), (UINT8)(T & 0x7f) } };
	}
};
template <UINT32 T> struct _tlgEvtTag<T, 1> {
	UINT8 b[1];
	static constexpr _tlgEvtTag make() { return { { (UINT8)(T >> 21) } }; }
};
template <UINT32 T> struct _tlgEvtTag<T, 2> {
	UINT8 b[2];
	static constexpr _tlgEvtTag make()
	{
		return { { (UINT8)(0x80 | (T >> 21 & 0x7f)), (UINT8)(T >> 14 & 0x7f) } };
	}
};
#else
#define _tlgAutoIn(value) _Generic((value),				\
	_Bool: TlgInUINT8, char: TlgInUINT8, signed char: TlgInINT8,	\
	unsigned char: TlgInUINT8, short: TlgInINT16,			\
	unsigned short: TlgInUINT16, int: TlgInINT32,			\
	unsigned int: TlgInUINT32,					\
	long: sizeof(long) == 8 ? TlgInINT64 : TlgInINT32,		\
	unsigned long: sizeof(long) == 8 ? TlgInUINT64 : TlgInUINT32,	\
	long long: TlgInINT64, unsigned long long: TlgInUINT64,	\
	float: TlgInFLOAT, double: TlgInDOUBLE, GUID: TlgInGUID,	\
	FILETIME: TlgInFILETIME, SYSTEMTIME: TlgInSYSTEMTIME,		\
	char *: TlgInANSISTRING, const char *: TlgInANSISTRING,	\
	WCHAR *: TlgInUNICODESTRING, const WCHAR *: TlgInUNICODESTRING, \
	void *: TlgInPOINTER, const void *: TlgInPOINTER)
/* In C, WCHAR is unsigned short: a number, as a char16_t is not told apart. */
#define _tlgAutoOut(value) _Generic((value),				\
	_Bool: TlgOutBOOLEAN, char: TlgOutSTRING, default: TlgOutNULL)
#endif

static inline void _tlgStrDesc(EVENT_DATA_DESCRIPTOR *d, const char *s)
{
	if (!s)
		s = "";
	EventDataDescCreate(d, s, (ULONG)strlen(s) + 1);
}

static inline void _tlgWStrDesc(EVENT_DATA_DESCRIPTOR *d, const WCHAR *s)
{
	static const WCHAR empty[1] = { 0 };
	ULONG n = 0;

	if (!s)
		s = empty;
	while (s[n])
		n++;
	EventDataDescCreate(d, s, (n + 1) * (ULONG)sizeof(WCHAR));
}

#ifdef __cplusplus
template <class T>
static inline void _tlgAutoDesc(EVENT_DATA_DESCRIPTOR *d, const T &v)
{
	EventDataDescCreate(d, &v, sizeof(v));
}
static inline void _tlgAutoDesc(EVENT_DATA_DESCRIPTOR *d, const char *s)
{
	_tlgStrDesc(d, s);
}
static inline void _tlgAutoDesc(EVENT_DATA_DESCRIPTOR *d, const char16_t *s)
{
	_tlgWStrDesc(d, (const WCHAR *)s);
}
#ifdef LIBETW_WINDOWS_SOURCE
static inline void _tlgAutoDesc(EVENT_DATA_DESCRIPTOR *d, const wchar_t *s)
{
	_tlgWStrDesc(d, s);
}
#endif
#else
static inline void _tlgAutoStr(EVENT_DATA_DESCRIPTOR *d, const void *p, size_t n)
{
	(void)n;
	_tlgStrDesc(d, *(const char *const *)p);
}
static inline void _tlgAutoWStr(EVENT_DATA_DESCRIPTOR *d, const void *p, size_t n)
{
	(void)n;
	_tlgWStrDesc(d, *(const WCHAR *const *)p);
}
static inline void _tlgAutoFixed(EVENT_DATA_DESCRIPTOR *d, const void *p, size_t n)
{
	EventDataDescCreate(d, p, (ULONG)n);
}
#define _tlgAutoDesc(d, v) _Generic((v),				\
	char *: _tlgAutoStr, const char *: _tlgAutoStr,		\
	WCHAR *: _tlgAutoWStr, const WCHAR *: _tlgAutoWStr,		\
	default: _tlgAutoFixed)((d), &(v), sizeof(v))
#endif

/* Providers. */
#define _tlgGUID(l, w1, w2, b1, b2, b3, b4, b5, b6, b7, b8)		\
	{ l, w1, w2, { b1, b2, b3, b4, b5, b6, b7, b8 } }

/* TraceLoggingOptionGroup(l, w, w, b, b, b, b, b, b, b, b): a provider group. */
#define TraceLoggingOptionGroup(...)	(__VA_ARGS__)

#define TRACELOGGING_DECLARE_PROVIDER(hProvider)			\
	extern const TraceLoggingHProvider hProvider

/*
 * TRACELOGGING_DEFINE_PROVIDER(hProvider, "Name", (guid) [, option]):
 * the traits blob (its size, the name, a group trait) comes after a blob
 * type byte and the provider GUID, as in Windows' binaries.
 */
#define TRACELOGGING_DEFINE_PROVIDER(hProvider, providerName, providerId, ...) \
	_tlgCAT(_tlgDEFPROV_, _tlgNARGS(__VA_ARGS__))(hProvider, providerName, \
						       providerId __VA_OPT__(,) __VA_ARGS__)

#define _tlgDEFPROV_0(h, name, id)					\
	static struct _tlgPACKED {					\
		UINT8 _tlgBlob; GUID _tlgId; UINT16 _tlgSize;		\
		char _tlgName[sizeof(name)];				\
	} _tlgTraits_##h = { 4, _tlgGUID id,				\
			     (UINT16)(sizeof(_tlgTraits_##h) - 17), name };	\
	_tlgDEFPROV_STORAGE(h)

#define _tlgDEFPROV_1(h, name, id, group)				\
	static struct _tlgPACKED {					\
		UINT8 _tlgBlob; GUID _tlgId; UINT16 _tlgSize;		\
		char _tlgName[sizeof(name)];				\
		UINT16 _tlgGroupSize; UINT8 _tlgGroupType; GUID _tlgGroup; \
	} _tlgTraits_##h = { 4, _tlgGUID id,				\
			     (UINT16)(sizeof(_tlgTraits_##h) - 17), name,	\
			     19, 1, _tlgGUID group };			\
	_tlgDEFPROV_STORAGE(h)

#define _tlgDEFPROV_STORAGE(h)						\
	static _tlgProvider_t _tlgProv_##h = {				\
		0, (const UINT16 *)((const char *)&_tlgTraits_##h + 17),	\
		0, 0, 0, NULL, NULL };					\
	_tlgEXTERN_DEF const TraceLoggingHProvider h = &_tlgProv_##h

static inline GUID TraceLoggingProviderId(TraceLoggingHProvider hProvider)
{
	GUID id;

	memcpy(&id, (const char *)hProvider->ProviderMetadataPtr - sizeof(GUID),
	       sizeof(GUID));
	return id;
}

/* Keeps the state TraceLoggingWrite tests, then calls the user's callback. */
static inline void NTAPI _tlgEnableCallback(LPCGUID source, ULONG code,
					    UCHAR level, ULONGLONG any,
					    ULONGLONG all,
					    PEVENT_FILTER_DESCRIPTOR filter,
					    PVOID context)
{
	_tlgProvider_t *p = (_tlgProvider_t *)context;

	if (code == 1) {		/* EVENT_CONTROL_CODE_ENABLE_PROVIDER */
		__atomic_store_n(&p->KeywordAny, any, __ATOMIC_RELAXED);
		__atomic_store_n(&p->KeywordAll, all, __ATOMIC_RELAXED);
		__atomic_store_n(&p->LevelPlus1, level ? (UINT32)level + 1 : 256,
				 __ATOMIC_RELEASE);
	} else if (code == 0) {		/* EVENT_CONTROL_CODE_DISABLE_PROVIDER */
		__atomic_store_n(&p->LevelPlus1, 0, __ATOMIC_RELEASE);
	}
	if (p->EnableCallback)
		p->EnableCallback(source, code, level, any, all, filter,
				  p->CallbackContext);
}

/*
 * EventRegister with the GUID, then the traits (their result ignored, as
 * on Windows).  Registering a registered provider is a bug: E_FAIL-like
 * ERROR_INVALID_PARAMETER here.
 */
static inline HRESULT TraceLoggingRegisterEx(TraceLoggingHProvider hProvider,
					     PENABLECALLBACK callback,
					     PVOID context)
{
	_tlgProvider_t *p = (_tlgProvider_t *)hProvider;
	GUID id = TraceLoggingProviderId(hProvider);
	UINT16 size;
	ULONG err;

	if (p->RegHandle)
		return HRESULT_FROM_WIN32(ERROR_INVALID_PARAMETER);
	p->EnableCallback = callback;
	p->CallbackContext = context;
	err = EventRegister(&id, _tlgEnableCallback, p, &p->RegHandle);
	if (err == ERROR_SUCCESS) {
		memcpy(&size, p->ProviderMetadataPtr, sizeof(size));
		EventSetInformation(p->RegHandle, EventProviderSetTraits,
				    (PVOID)p->ProviderMetadataPtr, size);
	}
	return HRESULT_FROM_WIN32(err);
}

static inline HRESULT TraceLoggingRegister(TraceLoggingHProvider hProvider)
{
	return TraceLoggingRegisterEx(hProvider, NULL, NULL);
}

static inline void TraceLoggingUnregister(TraceLoggingHProvider hProvider)
{
	_tlgProvider_t *p = (_tlgProvider_t *)hProvider;

	EventUnregister(p->RegHandle);
	p->RegHandle = 0;
	__atomic_store_n(&p->LevelPlus1, 0, __ATOMIC_RELEASE);
}

static inline ULONG TraceLoggingSetInformation(TraceLoggingHProvider hProvider,
					       EVENT_INFO_CLASS informationClass,
					       PVOID information,
					       ULONG informationLength)
{
	return EventSetInformation(hProvider->RegHandle, informationClass,
				   information, informationLength);
}

/* The test every TraceLoggingWrite makes first: one load, one branch. */
static inline BOOLEAN TraceLoggingProviderEnabled(TraceLoggingHProvider hProvider,
						  UCHAR level, ULONGLONG keyword)
{
	UINT32 levelPlus1 = __atomic_load_n(&hProvider->LevelPlus1, __ATOMIC_ACQUIRE);

	return level < levelPlus1 &&
	       (keyword == 0 ||
		((keyword & hProvider->KeywordAny) &&
		 (keyword & hProvider->KeywordAll) == hProvider->KeywordAll));
}

/* Descriptors 0 and 1 are the metadata; the payload follows. */
static inline void _tlgPrepare(TraceLoggingHProvider hProvider, const void *meta,
			       UCHAR level, UCHAR opcode, UCHAR channel,
			       ULONGLONG keyword, EVENT_DESCRIPTOR *desc,
			       EVENT_DATA_DESCRIPTOR *data)
{
	UINT16 size;

	memset(desc, 0, sizeof(*desc));
	desc->Channel = channel;
	desc->Level = level;
	desc->Opcode = opcode;
	desc->Keyword = keyword;
	memcpy(&size, hProvider->ProviderMetadataPtr, sizeof(size));
	EventDataDescCreate(&data[0], hProvider->ProviderMetadataPtr, size);
	data[0].Type = EVENT_DATA_DESCRIPTOR_TYPE_PROVIDER_METADATA;
	memcpy(&size, meta, sizeof(size));
	EventDataDescCreate(&data[1], meta, size);
	data[1].Type = EVENT_DATA_DESCRIPTOR_TYPE_EVENT_METADATA;
}

static inline ULONG _tlgWrite(TraceLoggingHProvider hProvider, const void *meta,
			      UCHAR level, UCHAR opcode, UCHAR channel,
			      ULONGLONG keyword, LPCGUID activity,
			      LPCGUID related, ULONG count,
			      EVENT_DATA_DESCRIPTOR *data)
{
	EVENT_DESCRIPTOR desc;

	_tlgPrepare(hProvider, meta, level, opcode, channel, keyword, &desc, data);
	return EventWriteTransfer(hProvider->RegHandle, &desc, activity, related,
				  count, data);
}

/* TraceLoggingWriteEx: EventWriteEx with the caller's filter and flags. */
static inline ULONG _tlgWriteEx(TraceLoggingHProvider hProvider, const void *meta,
				UCHAR level, UCHAR opcode, UCHAR channel,
				ULONGLONG keyword, ULONG64 filter, ULONG flags,
				LPCGUID activity, LPCGUID related, ULONG count,
				EVENT_DATA_DESCRIPTOR *data)
{
	EVENT_DESCRIPTOR desc;

	_tlgPrepare(hProvider, meta, level, opcode, channel, keyword, &desc, data);
	return EventWriteEx(hProvider->RegHandle, &desc, filter, flags, activity,
			    related, count, data);
}

/*
 * The event's tag bytes, as Windows' header sends them: in C always the
 * 2-byte form (80 00 without tags), in C++ the shortest (00 without).
 */
#ifdef __cplusplus
#define _tlgEVT(tag)		_tlgEvtTag<(UINT32)(tag)> _tlgTag;
#define _tlgEVTI(tag)		_tlgEvtTag<(UINT32)(tag)>::make(),
#else
#define _tlgEVT(tag)		UINT8 _tlgTag[2];
#define _tlgEVTI(tag)		{ _tlgTAG0(tag), _tlgTAG1(tag) },
#endif

#define _tlgLEVELOF(...)	((UCHAR)(5 _tlgFOREACH(_tlgX_LV __VA_OPT__(,) __VA_ARGS__)))
#define _tlgOPCODEOF(...)	((UCHAR)(0 _tlgFOREACH(_tlgX_OP __VA_OPT__(,) __VA_ARGS__)))
#define _tlgCHANNELOF(...)	((UCHAR)(11 _tlgFOREACH(_tlgX_CH __VA_OPT__(,) __VA_ARGS__)))
#define _tlgKEYWORDOF(...)	((ULONGLONG)(0 _tlgFOREACH(_tlgX_KW __VA_OPT__(,) __VA_ARGS__)))
#define _tlgTAGOF(...)		(0 _tlgFOREACH(_tlgX_TG __VA_OPT__(,) __VA_ARGS__))

/*
 * TraceLoggingWrite(hProvider, "EventName", options and fields...): up to
 * 99 arguments, each a TraceLogging wrapper macro.
 */
#define TraceLoggingWrite(hProvider, eventName, ...)			\
	TraceLoggingWriteActivity(hProvider, eventName, NULL, NULL __VA_OPT__(,) __VA_ARGS__)

#define TraceLoggingWriteActivity(hProvider, eventName, pActivityId,	\
				  pRelatedActivityId, ...)		\
	_tlgWRITE(hProvider, eventName, _tlgWrite, (pActivityId, pRelatedActivityId) \
		  __VA_OPT__(,) __VA_ARGS__)

/*
 * TraceLoggingWriteEx(hProvider, "EventName", filter, flags, pActivityId,
 * pRelatedActivityId, args...): through EventWriteEx, for its filter
 * (sessions to skip) and flags.
 */
#define TraceLoggingWriteEx(hProvider, eventName, filter, flags, pActivityId, \
			    pRelatedActivityId, ...)			\
	_tlgWRITE(hProvider, eventName, _tlgWriteEx,			\
		  (filter, flags, pActivityId, pRelatedActivityId)	\
		  __VA_OPT__(,) __VA_ARGS__)

#define _tlgWRITE(hProvider, eventName, writer, extra, ...)		\
	do {								\
		static const struct _tlgPACKED {			\
			UINT16 _tlgSize;				\
			_tlgEVT(_tlgTAGOF(__VA_ARGS__))			\
			char _tlgName[sizeof(eventName)];		\
			_tlgFOREACH(_tlgX_MDECL __VA_OPT__(,) __VA_ARGS__)		\
		} _tlgMeta = {						\
			(UINT16)sizeof(_tlgMeta),			\
			_tlgEVTI(_tlgTAGOF(__VA_ARGS__))		\
			eventName,					\
			_tlgFOREACH(_tlgX_MINIT __VA_OPT__(,) __VA_ARGS__)		\
		};							\
		_tlgSTATIC_ASSERT(2 _tlgFOREACH(_tlgX_NDESC __VA_OPT__(,) __VA_ARGS__) <= 128, \
				  "TraceLogging: more than 126 payload descriptors"); \
		if (TraceLoggingProviderEnabled(hProvider,		\
						_tlgLEVELOF(__VA_ARGS__), \
						_tlgKEYWORDOF(__VA_ARGS__))) { \
			_tlgFOREACH(_tlgX_DDECL __VA_OPT__(,) __VA_ARGS__)		\
			EVENT_DATA_DESCRIPTOR _tlgD[2 _tlgFOREACH(_tlgX_NDESC __VA_OPT__(,) __VA_ARGS__)]; \
			ULONG _tlgN = 2;				\
			_tlgFOREACH(_tlgX_DFILL __VA_OPT__(,) __VA_ARGS__)		\
			writer(hProvider, &_tlgMeta,			\
			       _tlgLEVELOF(__VA_ARGS__),		\
			       _tlgOPCODEOF(__VA_ARGS__),		\
			       _tlgCHANNELOF(__VA_ARGS__),		\
			       _tlgKEYWORDOF(__VA_ARGS__),		\
			       _tlgUNPAREN extra, _tlgN, _tlgD);	\
		}							\
	} while (0)

#endif /* LIBETW_TRACELOGGINGPROVIDER_H */
