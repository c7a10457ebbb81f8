/* SPDX-License-Identifier: MIT */
/*
 * The size of a value of a fixed-size in-type, which Windows' TDH puts in
 * EVENT_PROPERTY_INFO.length of manifest and TraceLogging properties
 * (consumers such as Microsoft's TdhFormatProperty sample pass it back
 * as PropertyLength, and take 0 only for strings, structs and IPv6
 * addresses).  0 for variable sizes and pointers (their size is the
 * event's).
 */
#ifndef LIBETW_DECODE_INTYPE_SIZE_H
#define LIBETW_DECODE_INTYPE_SIZE_H

#include <stdint.h>

#include <tdh.h>

static inline uint16_t intype_size(uint16_t in_type)
{
	switch (in_type) {
	case TDH_INTYPE_INT8:
	case TDH_INTYPE_UINT8:
		return 1;
	case TDH_INTYPE_INT16:
	case TDH_INTYPE_UINT16:
		return 2;
	case TDH_INTYPE_INT32:
	case TDH_INTYPE_UINT32:
	case TDH_INTYPE_HEXINT32:
	case TDH_INTYPE_FLOAT:
	case TDH_INTYPE_BOOLEAN:
		return 4;
	case TDH_INTYPE_INT64:
	case TDH_INTYPE_UINT64:
	case TDH_INTYPE_HEXINT64:
	case TDH_INTYPE_DOUBLE:
	case TDH_INTYPE_FILETIME:
		return 8;
	case TDH_INTYPE_GUID:
	case TDH_INTYPE_SYSTEMTIME:
		return 16;
	default:
		return 0;
	}
}

#endif /* LIBETW_DECODE_INTYPE_SIZE_H */
