/* SPDX-License-Identifier: MIT */
/*
 * intsafe.h for libetw: the overflow-checked arithmetic and conversions
 * of Windows' header, each returning S_OK or
 * INTSAFE_E_ARITHMETIC_OVERFLOW (and then the type's *_ERROR value in
 * *result), built on the compiler's __builtin_*_overflow.
 */
#ifndef LIBETW_INTSAFE_H
#define LIBETW_INTSAFE_H

#include "windows.h"
#include "etw_win32.h"

#define INTSAFE_E_ARITHMETIC_OVERFLOW	((HRESULT)0x80070216)
#define USHORT_ERROR	((USHORT)0xFFFF)
#define WORD_ERROR	((WORD)0xFFFF)
#define INT_ERROR	(-1)
#define UINT_ERROR	((UINT)0xFFFFFFFF)
#define LONG_ERROR	(-1)
#define ULONG_ERROR	((ULONG)0xFFFFFFFF)
#define DWORD_ERROR	((DWORD)0xFFFFFFFF)
#define SIZET_ERROR	((SIZE_T)-1)
#define ULONGLONG_ERROR	((ULONGLONG)0xFFFFFFFFFFFFFFFFULL)

#define LIBETW_INTSAFE_OP(name, type, op, err)				\
static inline HRESULT name(type a, type b, type *result)		\
{									\
	if (__builtin_##op##_overflow(a, b, result)) {			\
		*result = err;						\
		return INTSAFE_E_ARITHMETIC_OVERFLOW;			\
	}								\
	return S_OK;							\
}

LIBETW_INTSAFE_OP(UShortAdd, USHORT, add, USHORT_ERROR)
LIBETW_INTSAFE_OP(UShortSub, USHORT, sub, USHORT_ERROR)
LIBETW_INTSAFE_OP(UShortMult, USHORT, mul, USHORT_ERROR)
LIBETW_INTSAFE_OP(IntAdd, INT, add, INT_ERROR)
LIBETW_INTSAFE_OP(IntSub, INT, sub, INT_ERROR)
LIBETW_INTSAFE_OP(IntMult, INT, mul, INT_ERROR)
LIBETW_INTSAFE_OP(UIntAdd, UINT, add, UINT_ERROR)
LIBETW_INTSAFE_OP(UIntSub, UINT, sub, UINT_ERROR)
LIBETW_INTSAFE_OP(UIntMult, UINT, mul, UINT_ERROR)
LIBETW_INTSAFE_OP(LongAdd, LONG, add, LONG_ERROR)
LIBETW_INTSAFE_OP(LongSub, LONG, sub, LONG_ERROR)
LIBETW_INTSAFE_OP(LongMult, LONG, mul, LONG_ERROR)
LIBETW_INTSAFE_OP(ULongAdd, ULONG, add, ULONG_ERROR)
LIBETW_INTSAFE_OP(ULongSub, ULONG, sub, ULONG_ERROR)
LIBETW_INTSAFE_OP(ULongMult, ULONG, mul, ULONG_ERROR)
LIBETW_INTSAFE_OP(SizeTAdd, SIZE_T, add, SIZET_ERROR)
LIBETW_INTSAFE_OP(SizeTSub, SIZE_T, sub, SIZET_ERROR)
LIBETW_INTSAFE_OP(SizeTMult, SIZE_T, mul, SIZET_ERROR)
LIBETW_INTSAFE_OP(ULongLongAdd, ULONGLONG, add, ULONGLONG_ERROR)
LIBETW_INTSAFE_OP(ULongLongSub, ULONGLONG, sub, ULONGLONG_ERROR)
LIBETW_INTSAFE_OP(ULongLongMult, ULONGLONG, mul, ULONGLONG_ERROR)
#undef LIBETW_INTSAFE_OP

#define DWordAdd	ULongAdd
#define DWordSub	ULongSub
#define DWordMult	ULongMult
#define WordAdd		UShortAdd
#define DWordPtrAdd	SizeTAdd
#define DWordPtrMult	SizeTMult
#define ULongPtrAdd	SizeTAdd
#define ULongPtrMult	SizeTMult

/* Conversions: the value if it fits the target type, else the error. */
#define LIBETW_INTSAFE_CONV(name, from, to, err)			\
static inline HRESULT name(from v, to *result)				\
{									\
	if (__builtin_add_overflow(v, 0, result)) {			\
		*result = err;						\
		return INTSAFE_E_ARITHMETIC_OVERFLOW;			\
	}								\
	return S_OK;							\
}

LIBETW_INTSAFE_CONV(ULongToUShort, ULONG, USHORT, USHORT_ERROR)
LIBETW_INTSAFE_CONV(ULongToInt, ULONG, INT, INT_ERROR)
LIBETW_INTSAFE_CONV(ULongToLong, ULONG, LONG, LONG_ERROR)
LIBETW_INTSAFE_CONV(IntToULong, INT, ULONG, ULONG_ERROR)
LIBETW_INTSAFE_CONV(IntToUShort, INT, USHORT, USHORT_ERROR)
LIBETW_INTSAFE_CONV(IntToUInt, INT, UINT, UINT_ERROR)
LIBETW_INTSAFE_CONV(LongToULong, LONG, ULONG, ULONG_ERROR)
LIBETW_INTSAFE_CONV(LongToUShort, LONG, USHORT, USHORT_ERROR)
LIBETW_INTSAFE_CONV(SizeTToULong, SIZE_T, ULONG, ULONG_ERROR)
LIBETW_INTSAFE_CONV(SizeTToDWord, SIZE_T, DWORD, DWORD_ERROR)
LIBETW_INTSAFE_CONV(SizeTToUShort, SIZE_T, USHORT, USHORT_ERROR)
LIBETW_INTSAFE_CONV(SizeTToInt, SIZE_T, INT, INT_ERROR)
LIBETW_INTSAFE_CONV(ULongLongToULong, ULONGLONG, ULONG, ULONG_ERROR)
LIBETW_INTSAFE_CONV(ULongLongToSizeT, ULONGLONG, SIZE_T, SIZET_ERROR)
#undef LIBETW_INTSAFE_CONV

#endif /* LIBETW_INTSAFE_H */
