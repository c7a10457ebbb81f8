/* SPDX-License-Identifier: MIT */
/*
 * The ETL reader's private state, shared by etl_*.c.
 */
#ifndef LIBETW_ETL_INTERNAL_H
#define LIBETW_ETL_INTERNAL_H

#include <stdarg.h>
#include <stdbool.h>

#include "etw_etl.h"
#include "format.h"
#include "../common/internal.h"

/*
 * Records are at most 0xffff bytes and every item takes at least 8, so
 * this many extended items always fit.
 */
#define ETL_MAX_EXT	(0x10000 / 8)

struct etl_merge;

/*
 * A compressed buffer once decompressed: its header (copied from the
 * file), then its data, so that offsets from the buffer's start are the
 * same as in an uncompressed buffer.  Buffer 0 is never compressed, so a
 * zeroed scratch holds nothing.
 */
struct etl_scratch {
	uint8_t *p;
	uint32_t cap;
	uint32_t buf;			/* index of the buffer in p */
};

/* Larger than any buffer ETW writes [our limit: a bound on the allocation]. */
#define ETL_MAX_INFLATED	(64u << 20)

/* COMPRESSION_FORMAT_XPRESS: the only format ETW files are known to use. */
#define ETL_COMPRESSION_XPRESS	3
#define ETL_COMPRESSED_MODE	0x04000000	/* EVENT_TRACE_COMPRESSED_MODE */

struct etw_etl {
	const uint8_t *data;
	uint64_t size;
	void *map;			/* mmap()ed file, or NULL */
	void *copy;			/* file read into memory, or NULL */

	struct etw_etl_header hdr;
	char *logger_name;
	char *log_file_name;

	struct etw_etl_buffer *bufs;
	uint32_t nbufs;
	uint32_t bufs_cap;
	struct etw_etl_error index_err;	/* what ended the buffer walk early */
	struct etl_scratch scratch;	/* file-order iteration's */
	uint64_t inflations;		/* buffers decompressed (the tests') */

	/* Iteration. */
	enum etw_etl_order order;
	uint32_t cur_buf;
	uint32_t cur_pos;		/* next record, from the buffer start */
	struct etl_merge *merge;
	struct etw_etl_error err;	/* sticky until rewind */

	struct etw_etl_ext_item ext[ETL_MAX_EXT];
};

/* Set *err (code, offset, "<what> at offset 0x..: <why>"); returns code. */
int etl_error(struct etw_etl_error *err, int code, uint64_t offset,
	      const char *what, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));
int etl_verror(struct etw_etl_error *err, int code, uint64_t offset,
	       const char *what, const char *fmt, va_list ap)
	__attribute__((format(printf, 5, 0)));

/*
 * The record at pos (from the start of buffer b): 1 and *ev filled (its
 * ext items in etl->ext), *next = where the next record starts; 0 at the
 * end of the buffer's data; -errno with etl->err set.  A compressed
 * buffer is decompressed into sc (NULL: the reader's own), which keeps it
 * for the next records of that buffer; the event points into sc.
 */
int etl_parse_record(struct etw_etl *etl, uint32_t b, uint32_t pos,
		     struct etl_scratch *sc, struct etw_etl_event *ev,
		     uint32_t *next);

/* Compressed buffer b, decompressed into sc if it is not there yet. */
const uint8_t *etl_inflated(struct etw_etl *etl, uint32_t b,
			    struct etl_scratch *sc);
void etl_scratch_free(struct etl_scratch *sc);

/*
 * Buffer b's bytes from its header on: the file's own for an uncompressed
 * buffer, sc's once decompressed for a compressed one (inflate.c).  NULL
 * with etl->err set if it does not decompress.
 */
static inline const uint8_t *etl_buffer_data(struct etw_etl *etl, uint32_t b,
					     struct etl_scratch *sc)
{
	const struct etw_etl_buffer *buf = &etl->bufs[b];

	if (!(buf->flags & ETW_ETL_BUFFER_FLAG_COMPRESSED))
		return etl->data + buf->offset;
	return etl_inflated(etl, b, sc);
}

/*
 * Which of a stream's two scratch areas buffer b goes in, when the record
 * handed out last lies in buffer held (in area held_k): the other one,
 * so that the record stays valid while the stream is parsed ahead.
 */
static inline unsigned int etl_scratch_pick(uint32_t b, uint32_t held,
					    unsigned int held_k)
{
	return b == held ? held_k : held_k ^ 1;
}

/*
 * A reader over one buffer in memory, a real-time session's: @hdr gives
 * the clock and pointer size.  etl_view_set() checks a buffer as a file's
 * are and makes it buffer 0; etw_etl_close() frees the view.
 */
struct etw_etl *etl_view_new(const struct etw_etl_header *hdr);
int etl_view_set(struct etw_etl *etl, const void *buf, uint32_t size,
		 struct etw_etl_error *err);

/* Provider of a kernel hook id; false for an unknown group. */
bool etl_kernel_provider(uint16_t hook_id, struct etw_etl_guid *g);

/* Timestamp to FILETIME; false if the header gives no clock rate. */
bool etl_to_filetime(const struct etw_etl_header *h, uint64_t ts,
		     uint64_t *ft);

/* 0 at the end of the indexed buffers, or the error that ended the index. */
int etl_end_of_index(struct etw_etl *etl);

/*
 * Buffers 1..n grouped by processor, each group in sequence order: their
 * indices into order (nbufs - 1 of them), each group's length into
 * group_len.  Returns the number of groups or -ENOMEM.
 */
int etl_group_buffers(const struct etw_etl *etl, uint32_t *order,
		      uint32_t *group_len);

/* Time-ordered iteration: buffer 0, then buffers 1..n merged (merge.c). */
int etl_merge_next(struct etw_etl *etl, struct etw_etl_event *ev);
void etl_merge_free(struct etl_merge *m);

static inline void etl_get_guid(const uint8_t *p, struct etw_etl_guid *g)
{
	g->data1 = ETL_GET(p, etl_guid, data1);
	g->data2 = ETL_GET(p, etl_guid, data2);
	g->data3 = ETL_GET(p, etl_guid, data3);
	for (int i = 0; i < 8; i++)
		g->data4[i] = p[offsetof(struct etl_guid, data4) + i];
}

#endif /* LIBETW_ETL_INTERNAL_H */
