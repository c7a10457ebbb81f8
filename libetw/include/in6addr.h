/* SPDX-License-Identifier: MIT */
/*
 * in6addr.h for libetw: IN6_ADDR as Windows lays it out (16 bytes; the
 * TDH_INTYPE/OUTTYPE IPv6 fields of kernel and manifest events).
 */
#ifndef LIBETW_IN6ADDR_H
#define LIBETW_IN6ADDR_H

#include "windows.h"

typedef struct in6_addr_win {
	union {
		UCHAR Byte[16];
		USHORT Word[8];
	} u;
} IN6_ADDR, *PIN6_ADDR, *LPIN6_ADDR;

#define in_addr6	in6_addr_win

LIBETW_STATIC_ASSERT(sizeof(IN6_ADDR) == 16, "IN6_ADDR");

#endif /* LIBETW_IN6ADDR_H */
