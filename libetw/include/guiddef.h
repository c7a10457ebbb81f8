/* SPDX-License-Identifier: MIT */
/*
 * GUID and DEFINE_GUID, as in Windows' guiddef.h.
 *
 * A GUID is 16 bytes with 4-byte alignment; Data1..Data3 are stored
 * little-endian, the string form prints them most significant byte first
 * (etw-api.md 0.1).
 *
 * DEFINE_GUID(name, ...) declares "extern const GUID name".  In a file
 * that includes <initguid.h> first it defines the GUID instead, as a weak
 * symbol (the ELF counterpart of Windows' selectany), so several files may
 * do so.  The DEFINE_GUID part of this header is outside the include guard
 * on purpose: initguid.h includes it again to switch modes.
 */
#ifndef LIBETW_GUIDDEF_H
#define LIBETW_GUIDDEF_H

#include <stdint.h>
#include <string.h>

#ifndef GUID_DEFINED
#define GUID_DEFINED
typedef struct _GUID {
	uint32_t Data1;
	uint16_t Data2;
	uint16_t Data3;
	uint8_t Data4[8];
} GUID;
#endif

typedef GUID *LPGUID;
typedef const GUID *LPCGUID;

#ifdef __cplusplus
#define REFGUID const GUID &
#else
#define REFGUID const GUID *
#endif

/*
 * C compares through pointers, C++ through references, as on Windows:
 * IsEqualGUID(&a, &b) in C, IsEqualGUID(a, b) or a == b in C++.
 */
#ifdef __cplusplus
extern "C++" {
static inline int IsEqualGUID(REFGUID a, REFGUID b)
{
	return !memcmp(&a, &b, sizeof(GUID));
}

static inline int InlineIsEqualGUID(REFGUID a, REFGUID b)
{
	return IsEqualGUID(a, b);
}

static inline bool operator==(REFGUID a, REFGUID b)
{
	return IsEqualGUID(a, b) != 0;
}

static inline bool operator!=(REFGUID a, REFGUID b)
{
	return !(a == b);
}
}
#else
#define IsEqualGUID(rguid1, rguid2) \
	(!memcmp((rguid1), (rguid2), sizeof(GUID)))
#define InlineIsEqualGUID(rguid1, rguid2)	IsEqualGUID(rguid1, rguid2)
#endif

#endif /* LIBETW_GUIDDEF_H */

#ifdef DEFINE_GUID
#undef DEFINE_GUID
#endif

#ifdef INITGUID
#ifdef __cplusplus
#define DEFINE_GUID(name, l, w1, w2, b1, b2, b3, b4, b5, b6, b7, b8) \
	extern "C" const GUID __attribute__((weak)) name = \
		{ l, w1, w2, { b1, b2, b3, b4, b5, b6, b7, b8 } }
#else
#define DEFINE_GUID(name, l, w1, w2, b1, b2, b3, b4, b5, b6, b7, b8) \
	const GUID __attribute__((weak)) name = \
		{ l, w1, w2, { b1, b2, b3, b4, b5, b6, b7, b8 } }
#endif
#else
#ifdef __cplusplus
#define DEFINE_GUID(name, l, w1, w2, b1, b2, b3, b4, b5, b6, b7, b8) \
	extern "C" const GUID name
#else
#define DEFINE_GUID(name, l, w1, w2, b1, b2, b3, b4, b5, b6, b7, b8) \
	extern const GUID name
#endif
#endif
