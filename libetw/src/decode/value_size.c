// SPDX-License-Identifier: MIT
/*
 * How many bytes one value of a TDH in-type takes in an event's data
 * (format.h).  The sizes are Windows' (tdh.h, Microsoft Learn
 * "EVENT_PROPERTY_INFO" and "TdhFormatProperty"); WBEMSID is the kernel
 * MOF classes' TOKEN_USER followed by a SID, whose first pointer-sized
 * word is 0 (4 bytes then, as PerfView's SkipSID reads it) when the event
 * carries no SID.
 */
#include <errno.h>
#include <string.h>

#include "format.h"

static int fixed(uint32_t size, uint32_t avail, uint32_t *n)
{
	if (size > avail)
		return -EBADMSG;
	*n = size;
	return 0;
}

/* A NUL-terminated string of unit-byte characters, or to the end. */
static uint32_t zstring(const uint8_t *p, uint32_t avail, unsigned int unit)
{
	uint32_t i;

	if (unit == 1) {
		const uint8_t *z = memchr(p, 0, avail);

		return z ? (uint32_t)(z - p) + 1 : avail;
	}
	for (i = 0; i + 1 < avail; i += 2)
		if (!p[i] && !p[i + 1])
			return i + 2;
	return avail;
}

static int counted(const uint8_t *p, uint32_t avail, bool big_endian,
		   uint32_t *n)
{
	uint32_t len;

	if (avail < 2)
		return -EBADMSG;
	len = big_endian ? (uint32_t)p[0] << 8 | p[1] :
			   (uint32_t)p[1] << 8 | p[0];
	return fixed(2 + len, avail, n);
}

static int sid_size(const uint8_t *p, uint32_t avail, uint32_t *n)
{
	if (avail < 8 || p[0] != 1)
		return -EBADMSG;
	return fixed(8 + 4u * p[1], avail, n);
}

int decode_value_size(uint16_t in_type, uint16_t out_type, uint32_t length,
		      unsigned int pointer_size, const uint8_t *p,
		      uint32_t avail, uint32_t *n)
{
	uint32_t tok;
	int ret;

	switch (in_type) {
	case TDH_INTYPE_UNICODESTRING:
		if (length)
			return fixed(length * 2, avail, n);
		*n = zstring(p, avail, 2);
		return 0;
	case TDH_INTYPE_ANSISTRING:
		if (length)
			return fixed(length, avail, n);
		*n = zstring(p, avail, 1);
		return 0;
	case TDH_INTYPE_INT8:
	case TDH_INTYPE_UINT8:
	case TDH_INTYPE_ANSICHAR:
		return fixed(1, avail, n);
	case TDH_INTYPE_INT16:
	case TDH_INTYPE_UINT16:
	case TDH_INTYPE_UNICODECHAR:
		return fixed(2, avail, n);
	case TDH_INTYPE_INT32:
	case TDH_INTYPE_UINT32:
	case TDH_INTYPE_HEXINT32:
	case TDH_INTYPE_FLOAT:
	case TDH_INTYPE_BOOLEAN:
		return fixed(4, avail, n);
	case TDH_INTYPE_INT64:
	case TDH_INTYPE_UINT64:
	case TDH_INTYPE_HEXINT64:
	case TDH_INTYPE_DOUBLE:
	case TDH_INTYPE_FILETIME:
		return fixed(8, avail, n);
	case TDH_INTYPE_GUID:
	case TDH_INTYPE_SYSTEMTIME:
		return fixed(16, avail, n);
	case TDH_INTYPE_POINTER:
	case TDH_INTYPE_SIZET:
		return fixed(pointer_size, avail, n);
	case TDH_INTYPE_BINARY:
		/* An IPv6 address is 16 bytes when no length is given. */
		if (!length && out_type == TDH_OUTTYPE_IPV6)
			length = 16;
		return fixed(length, avail, n);
	case TDH_INTYPE_HEXDUMP:
	case TDH_INTYPE_NONNULLTERMINATEDANSISTRING:
		return fixed(length ? length : avail, avail, n);
	case TDH_INTYPE_NONNULLTERMINATEDSTRING:
		return fixed(length ? length * 2 : avail & ~1u, avail, n);
	case TDH_INTYPE_SID:
		return sid_size(p, avail, n);
	case TDH_INTYPE_WBEMSID:
		if (avail >= 4 && !(p[0] | p[1] | p[2] | p[3]))
			return fixed(4, avail, n);
		tok = 2 * pointer_size;
		if (avail < tok)
			return -EBADMSG;
		ret = sid_size(p + tok, avail - tok, n);
		if (!ret)
			*n += tok;
		return ret;
	case TDH_INTYPE_MANIFEST_COUNTEDSTRING:
	case TDH_INTYPE_MANIFEST_COUNTEDANSISTRING:
	case TDH_INTYPE_MANIFEST_COUNTEDBINARY:
	case TDH_INTYPE_COUNTEDSTRING:
	case TDH_INTYPE_COUNTEDANSISTRING:
		return counted(p, avail, false, n);
	case TDH_INTYPE_REVERSEDCOUNTEDSTRING:
	case TDH_INTYPE_REVERSEDCOUNTEDANSISTRING:
		return counted(p, avail, true, n);
	default:
		return -EBADMSG;
	}
}
