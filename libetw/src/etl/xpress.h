/* SPDX-License-Identifier: MIT */
/*
 * The "Plain LZ77" form of XPRESS ([MS-XCA] 2.3, 2.4): what the compressed
 * buffers of relogged and EVENT_TRACE_COMPRESSED_MODE files hold
 * (COMPRESSION_FORMAT_XPRESS, 3).
 */
#ifndef LIBETW_ETL_XPRESS_H
#define LIBETW_ETL_XPRESS_H

#include <stddef.h>
#include <stdint.h>

/* Where and why a stream failed to decompress. */
struct etl_xpress_error {
	const char *why;		/* a constant string */
	size_t in_pos;			/* byte of the compressed data */
	size_t out_pos;			/* bytes produced before it */
};

/*
 * Decompress the n bytes at in into out, which holds at most cap bytes.
 * Returns the bytes produced, or -1 with *e filled: the stream ends early,
 * refers back past its start, has a bad length or produces more than cap.
 * Never reads outside [in, in + n) nor writes outside [out, out + cap).
 */
ptrdiff_t etl_xpress_decompress(const uint8_t *in, size_t n, uint8_t *out,
				size_t cap, struct etl_xpress_error *e);

#endif /* LIBETW_ETL_XPRESS_H */
