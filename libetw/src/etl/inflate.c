// SPDX-License-Identifier: MIT
/*
 * Compressed buffers.  A buffer with BufferFlag COMPRESSED holds its
 * WMI_BUFFER_HEADER as usual, then BufferSize - 0x48 bytes of compressed
 * data which decompress to SavedOffset - 0x48 bytes of records (relogged
 * and EVENT_TRACE_COMPRESSED_MODE files; Documentation/etl-format.rst).
 * Uncompressed buffers are read in place; a compressed one is
 * decompressed once, when iteration reaches it, into a scratch area that
 * keeps it while its records are read.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "xpress.h"

static const char *format_name(uint32_t format)
{
	switch (format) {
	case 2:
		return " (LZNT1)";
	case 4:
		return " (XPRESS Huffman)";
	}
	return "";
}

static const uint8_t *inflate(struct etw_etl *etl, uint32_t index,
			      struct etl_scratch *sc)
{
	const struct etw_etl_buffer *b = &etl->bufs[index];
	uint32_t want = b->saved_offset - ETL_BUFFER_HEADER_SIZE;
	struct etl_xpress_error e;
	ptrdiff_t got;

	sc->buf = 0;
	if (etl->hdr.compression_format != ETL_COMPRESSION_XPRESS) {
		etl_error(&etl->err, -EOPNOTSUPP, b->offset, "compressed buffer",
			  "compression format %u%s is not supported (only XPRESS, 3)",
			  etl->hdr.compression_format,
			  format_name(etl->hdr.compression_format));
		return NULL;
	}
	if (b->saved_offset > sc->cap) {
		uint8_t *p = realloc(sc->p, b->saved_offset);

		if (!p) {
			etl_error(&etl->err, -ENOMEM, b->offset, "out of memory",
				  "0x%x bytes to decompress the buffer into",
				  b->saved_offset);
			return NULL;
		}
		sc->p = p;
		sc->cap = b->saved_offset;
	}
	memcpy(sc->p, etl->data + b->offset, ETL_BUFFER_HEADER_SIZE);
	got = etl_xpress_decompress(etl->data + b->offset + ETL_BUFFER_HEADER_SIZE,
				    b->size - ETL_BUFFER_HEADER_SIZE,
				    sc->p + ETL_BUFFER_HEADER_SIZE, want, &e);
	if (got < 0) {
		etl_error(&etl->err, -EBADMSG, b->offset, "corrupt compressed buffer",
			  "%s (at byte 0x%zx of its 0x%x compressed bytes, 0x%zx of 0x%x decompressed)",
			  e.why, e.in_pos, b->size - ETL_BUFFER_HEADER_SIZE,
			  e.out_pos, want);
		return NULL;
	}
	if ((uint32_t)got != want) {
		etl_error(&etl->err, -EBADMSG, b->offset, "corrupt compressed buffer",
			  "it decompresses to 0x%zx bytes, SavedOffset says 0x%x",
			  (size_t)got, want);
		return NULL;
	}
	sc->buf = index;
	etl->inflations++;
	return sc->p;
}

/* Buffer index, compressed: sc's copy, decompressed now if need be. */
const uint8_t *etl_inflated(struct etw_etl *etl, uint32_t index,
			    struct etl_scratch *sc)
{
	if (!sc)
		sc = &etl->scratch;
	if (sc->p && sc->buf == index && index)
		return sc->p;
	return inflate(etl, index, sc);
}

void etl_scratch_free(struct etl_scratch *sc)
{
	free(sc->p);
	sc->p = NULL;
	sc->cap = 0;
	sc->buf = 0;
}
