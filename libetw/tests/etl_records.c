// SPDX-License-Identifier: GPL-2.0
/*
 * The ETL reader on synthetic images: every record header family of the
 * notes (3.1-3.9), the clocks of 4, the per-CPU merge, and the errors of
 * corrupt files, each naming the offset of the problem.
 */
#include <errno.h>
#include <string.h>
#include <stdio.h>
#include <time.h>

#include <etw_etl.h>

#include "kselftest_harness.h"
#include "etl_test.h"

static const struct img_header hdr64 = {
	.bits = 64, .cpus = 4, .clock = 1, .perf_freq = 10000000, .mhz = 3000,
	.start = 132000000000000000ull, .sync = 1000000,
};

static struct etw_etl *open_img(struct __test_metadata *_metadata,
				struct img *m, struct etw_etl_error *err)
{
	struct etw_etl *etl = NULL;

	EXPECT_EQ(0, etw_etl_open_mem(m->p, m->len, &etl, err))
		TH_LOG("%s", err->message);
	return etl;
}

/* The next record after the header event. */
static int first_event(struct etw_etl *etl, struct etw_etl_event *ev)
{
	int ret;

	do
		ret = etw_etl_next(etl, ev);
	while (ret > 0 && !ev->buffer);
	return ret;
}

TEST(classic_header)
{
	static struct img m;
	struct etw_etl_error err;
	struct etw_etl_event ev;
	struct etw_etl *etl;
	uint8_t *r;

	img_start(&m, &hdr64);
	img_buffer(&m, 1, 1, 0x20, 0);
	r = img_record(&m, 0x30 + 5);
	put_le(r, 0x35, 2);
	put_le(r + 2, 0xc014, 2);
	r[4] = 3;
	r[5] = 4;
	put_le(r + 6, 7, 2);
	put_le(r + 8, 33, 4);
	put_le(r + 12, 44, 4);
	put_le(r + 0x10, 1000000 + 10000000, 8);
	put_le(r + 0x18, 0x3d6fa8d0, 4);
	put_le(r + 0x28, 9, 4);
	put_le(r + 0x2c, 10, 4);
	memcpy(r + 0x30, "hello", 5);
	img_finish(&m);
	etl = open_img(_metadata, &m, &err);
	ASSERT_EQ(1, first_event(etl, &ev));
	EXPECT_EQ(ETW_ETL_KIND_CLASSIC, ev.kind);
	EXPECT_EQ(8, ev.pointer_size);
	EXPECT_EQ(3, ev.opcode);
	EXPECT_EQ(4, ev.level);
	EXPECT_EQ(7, ev.version);
	EXPECT_EQ(33, ev.thread_id);
	EXPECT_EQ(44, ev.process_id);
	EXPECT_EQ(9, ev.kernel_time);
	EXPECT_EQ(10, ev.user_time);
	EXPECT_EQ(0x3d6fa8d0, ev.provider.data1);
	EXPECT_EQ(hdr64.start + 10000000, ev.filetime);
	EXPECT_EQ(5, ev.data_size);
	EXPECT_EQ(0, memcmp(ev.data, "hello", 5));
	EXPECT_TRUE(ev.flags & ETW_ETL_FLAG_CLASSIC_HEADER);
	EXPECT_TRUE(ev.flags & ETW_ETL_FLAG_64_BIT_HEADER);
	EXPECT_TRUE(ev.flags & ETW_ETL_FLAG_PROCESSOR_INDEX);
	EXPECT_EQ(1, ev.processor);
	EXPECT_EQ(0, etw_etl_next(etl, &ev));
	etw_etl_close(etl);
}

/* Instance ids come out as an INSTANCE_INFO item (the same layout). */
TEST(instance_header)
{
	static struct img m;
	struct etw_etl_error err;
	struct etw_etl_event ev;
	struct etw_etl *etl;
	uint8_t *r;

	img_start(&m, &hdr64);
	img_buffer(&m, 0, 1, 0x20, 0);
	r = img_record(&m, 0x48);
	put_le(r, 0x48, 2);
	put_le(r + 2, 0xc00b, 2);
	put_le(r + 0x30, 5, 4);
	put_le(r + 0x34, 6, 4);
	r[0x38] = 0x77;
	img_finish(&m);
	etl = open_img(_metadata, &m, &err);
	ASSERT_EQ(1, first_event(etl, &ev));
	EXPECT_EQ(ETW_ETL_KIND_INSTANCE, ev.kind);
	EXPECT_EQ(4, ev.pointer_size);
	ASSERT_EQ(1, ev.ext_count);
	EXPECT_EQ(ETW_ETL_EXT_INSTANCE_INFO, ev.ext[0].type);
	EXPECT_EQ(24, ev.ext[0].size);
	EXPECT_EQ(5, ((const uint8_t *)ev.ext[0].data)[0]);
	EXPECT_EQ(0x77, ((const uint8_t *)ev.ext[0].data)[8]);
	EXPECT_EQ(0, ev.data_size);
	etw_etl_close(etl);
}

TEST(compact_and_perfinfo)
{
	static struct img m;
	struct etw_etl_error err;
	struct etw_etl_event ev;
	struct etw_etl *etl;
	uint8_t *r;

	img_start(&m, &hdr64);
	img_buffer(&m, 2, 1, 0x20, 0);
	/* COMPACT32, hook 0x0501 (Thread Start), 4 bytes of payload. */
	r = img_record(&m, 0x1c);
	put_le(r, 0xc0030003, 4);
	put_le(r + 4, 0x1c, 2);
	put_le(r + 6, 0x0501, 2);
	put_le(r + 8, 1, 4);
	put_le(r + 12, 2, 4);
	put_le(r + 0x10, 2000000, 8);
	put_le(r + 0x18, 0xdeadbeef, 4);
	/* PERFINFO64 with a PEBS index and 2 PMC counters (3.3). */
	r = img_record(&m, 0x10 + 8 + 16 + 2);
	put_le(r, 0xc0118202, 4);
	put_le(r + 4, 0x10 + 8 + 16 + 2, 2);
	put_le(r + 6, 0x0f2e, 2);
	put_le(r + 8, 3000000, 8);
	put_le(r + 0x10, 0x1111, 8);
	put_le(r + 0x18, 0x2222, 8);
	put_le(r + 0x20, 0x3333, 8);
	img_finish(&m);
	etl = open_img(_metadata, &m, &err);
	ASSERT_EQ(1, first_event(etl, &ev));
	EXPECT_EQ(ETW_ETL_KIND_COMPACT, ev.kind);
	EXPECT_EQ(4, ev.pointer_size);
	EXPECT_EQ(3, ev.version);
	EXPECT_EQ(1, ev.opcode);
	EXPECT_TRUE(guid_eq(&ev.provider, "3d6fa8d1-fe05-11d0-9dda-00c04fd7ba7c"));
	EXPECT_EQ(1, ev.thread_id);
	EXPECT_FALSE(ev.has & ETW_ETL_HAS_CPU_TIME);
	EXPECT_EQ(4, ev.data_size);
	ASSERT_EQ(1, etw_etl_next(etl, &ev));
	EXPECT_EQ(ETW_ETL_KIND_PERFINFO, ev.kind);
	EXPECT_EQ(2, ev.version);
	EXPECT_EQ(0x82, ev.header_flags);
	EXPECT_EQ(UINT32_MAX, ev.thread_id);
	EXPECT_TRUE(guid_eq(&ev.provider, "ce1dbfb4-137e-4da6-87b0-3f59aa102cbc"));
	ASSERT_EQ(2, ev.ext_count);
	EXPECT_EQ(ETW_ETL_EXT_PEBS_INDEX, ev.ext[0].type);
	EXPECT_EQ(8, ev.ext[0].size);
	EXPECT_EQ(ETW_ETL_EXT_PMC_COUNTERS, ev.ext[1].type);
	EXPECT_EQ(16, ev.ext[1].size);
	EXPECT_EQ(0x22, ((const uint8_t *)ev.ext[1].data)[0]);
	EXPECT_EQ(2, ev.data_size);
	etw_etl_close(etl);
}

/* Items: stride from their size word (0: computed), Linkage, unpadded end. */
TEST(event_ext_items)
{
	static struct img m;
	struct etw_etl_error err;
	struct etw_etl_event ev;
	struct etw_etl *etl;
	uint8_t *r;

	img_start(&m, &hdr64);
	img_buffer(&m, 3, 1, 0x20, 0);
	r = img_record(&m, 0x50 + 24 + 16 + 8 + 3);
	put_le(r, 0x50 + 24 + 16 + 8 + 3, 2);
	put_le(r + 2, 0xc012, 2);
	put_le(r + 4, 1, 2);
	put_le(r + 0x10, 1500000, 8);
	put_le(r + 0x28, 42, 2);
	r[0x2a] = 1;
	r[0x2b] = 16;
	r[0x2c] = 4;
	r[0x2d] = 9;
	put_le(r + 0x2e, 0x77, 2);
	put_le(r + 0x30, 0x8000000000000001ull, 8);
	/* RELATED_ACTIVITYID, 16 bytes, size word 24. */
	put_le(r + 0x50, 24, 2);
	put_le(r + 0x52, 1, 2);
	put_le(r + 0x54, 1, 2);
	put_le(r + 0x56, 16, 2);
	/* TS_ID, size word 0: the stride is computed. */
	put_le(r + 0x68, 0, 2);
	put_le(r + 0x6a, 3, 2);
	put_le(r + 0x6c, 1, 2);
	put_le(r + 0x6e, 4, 2);
	put_le(r + 0x70, 12345, 4);
	/* An unknown type, empty, last. */
	put_le(r + 0x78, 8, 2);
	put_le(r + 0x7a, 0x99, 2);
	put_le(r + 0x7e, 0, 2);
	memcpy(r + 0x80, "abc", 3);
	img_finish(&m);
	etl = open_img(_metadata, &m, &err);
	ASSERT_EQ(1, first_event(etl, &ev));
	EXPECT_EQ(ETW_ETL_KIND_EVENT, ev.kind);
	EXPECT_EQ(4, ev.pointer_size);
	EXPECT_TRUE(ev.flags & ETW_ETL_FLAG_32_BIT_HEADER);
	EXPECT_EQ(42, ev.id);
	EXPECT_EQ(1, ev.version);
	EXPECT_EQ(16, ev.channel);
	EXPECT_EQ(4, ev.level);
	EXPECT_EQ(9, ev.opcode);
	EXPECT_EQ(0x77, ev.task);
	EXPECT_EQ(0x8000000000000001ull, ev.keyword);
	ASSERT_EQ(3, ev.ext_count);
	EXPECT_EQ(ETW_ETL_EXT_RELATED_ACTIVITYID, ev.ext[0].type);
	EXPECT_EQ(16, ev.ext[0].size);
	EXPECT_EQ(ETW_ETL_EXT_TS_ID, ev.ext[1].type);
	EXPECT_EQ(0x39, ((const uint8_t *)ev.ext[1].data)[0]);
	EXPECT_EQ(0x99, ev.ext[2].type);
	EXPECT_EQ(0, ev.ext[2].size);
	ASSERT_EQ(3, ev.data_size);
	EXPECT_EQ(0, memcmp(ev.data, "abc", 3));
	EXPECT_STREQ("TS_ID", etw_etl_ext_type_name(ev.ext[1].type));
	etw_etl_close(etl);
}

/* WPP: sequence, GUID, timestamp (unaligned), system info (3.8). */
TEST(message_header)
{
	static struct img m;
	struct etw_etl_error err;
	struct etw_etl_event ev;
	struct etw_etl *etl;
	uint8_t *r;

	img_start(&m, &hdr64);
	img_buffer(&m, 0, 1, 0x20, 0);
	r = img_record(&m, 8 + 4 + 16 + 8 + 8 + 2);
	put_le(r, 8 + 4 + 16 + 8 + 8 + 2, 2);
	r[3] = 0x90;
	put_le(r + 4, 17, 2);
	put_le(r + 6, 0x002b, 2);
	put_le(r + 8, 1234, 4);
	put_le(r + 12, 0xabcdef01, 4);
	put_le(r + 28, 5000000, 8);
	put_le(r + 36, 77, 4);
	put_le(r + 40, 88, 4);
	r[44] = 'x';
	img_finish(&m);
	etl = open_img(_metadata, &m, &err);
	ASSERT_EQ(1, first_event(etl, &ev));
	EXPECT_EQ(ETW_ETL_KIND_MESSAGE, ev.kind);
	EXPECT_EQ(17, ev.id);
	EXPECT_EQ(1234, ev.sequence);
	EXPECT_EQ(0xabcdef01, ev.provider.data1);
	EXPECT_EQ(5000000, ev.timestamp);
	EXPECT_EQ(77, ev.thread_id);
	EXPECT_EQ(88, ev.process_id);
	EXPECT_EQ(2, ev.data_size);
	EXPECT_EQ('x', *(const char *)ev.data);
	EXPECT_TRUE(ev.flags & ETW_ETL_FLAG_TRACE_MESSAGE);
	etw_etl_close(etl);
}

TEST(error_record)
{
	static struct img m;
	struct etw_etl_error err;
	struct etw_etl_event ev;
	struct etw_etl *etl;
	uint8_t *r;

	img_start(&m, &hdr64);
	img_buffer(&m, 0, 1, 0x20, 0);
	r = img_event(&m, 2000000, 5, 0);
	put_le(r + 2, 0xc00d, 2);
	img_finish(&m);
	etl = open_img(_metadata, &m, &err);
	ASSERT_EQ(1, first_event(etl, &ev));
	EXPECT_EQ(ETW_ETL_KIND_ERROR, ev.kind);
	EXPECT_EQ(5, ev.id);
	etw_etl_close(etl);
}

/* A 32-bit session: the 0x110-byte header, its fields 8 bytes earlier. */
TEST(header32)
{
	static const uint16_t names[] = { 0xd83d, 0xde00, 'x', 0, 0xdc00, 'y', 0 };
	struct img_header h = hdr64;
	static struct img m;
	struct etw_etl_error err;
	struct etw_etl *etl;

	h.bits = 32;
	h.names = names;
	h.name_units = 7;
	img_start(&m, &h);
	img_finish(&m);
	etl = open_img(_metadata, &m, &err);
	ASSERT_NE(NULL, etl);
	EXPECT_EQ(4, etw_etl_get_header(etl)->header_pointer_size);
	EXPECT_EQ(4, etw_etl_get_header(etl)->pointer_size);
	EXPECT_EQ(10000000, etw_etl_get_header(etl)->perf_freq);
	EXPECT_EQ(hdr64.start, etw_etl_get_header(etl)->start_time);
	EXPECT_EQ(1, etw_etl_get_header(etl)->reserved_flags);
	EXPECT_EQ(5, etw_etl_get_header(etl)->buffers_lost);
	EXPECT_EQ(-60, etw_etl_get_header(etl)->time_zone.bias);
	/* U+1F600, then a lone low surrogate. */
	EXPECT_STREQ("\xf0\x9f\x98\x80x", etw_etl_get_header(etl)->logger_name);
	EXPECT_STREQ("\xef\xbf\xbdy", etw_etl_get_header(etl)->log_file_name);
	etw_etl_close(etl);
}

static uint64_t filetime_of(struct __test_metadata *_metadata, uint32_t clock,
			    uint64_t freq, uint32_t mhz, uint64_t ts, int *ret)
{
	struct img_header h = hdr64;
	static struct img m;
	struct etw_etl_error err;
	struct etw_etl *etl;
	uint64_t ft = 0;

	h.clock = clock;
	h.perf_freq = freq;
	h.mhz = mhz;
	img_start(&m, &h);
	img_finish(&m);
	etl = open_img(_metadata, &m, &err);
	*ret = etl ? etw_etl_filetime(etl, ts, &ft) : -1;
	etw_etl_close(etl);
	return ft;
}

/* Notes 4: FILETIME = StartTime + (ts - sync) * scale, per clock type. */
TEST(clocks)
{
	uint64_t s = hdr64.start, sync = hdr64.sync;
	int ret;

	EXPECT_EQ(s + 10000000, filetime_of(_metadata, 1, 10000000, 1, sync + 10000000, &ret));
	EXPECT_EQ(0, ret);
	EXPECT_EQ(s + 10000000, filetime_of(_metadata, 1, 1000000000, 1, sync + 1000000000, &ret));
	EXPECT_EQ(s - 10, filetime_of(_metadata, 1, 10000000, 1, sync - 10, &ret));
	EXPECT_EQ(s + 77, filetime_of(_metadata, 2, 0, 1, sync + 77, &ret));
	EXPECT_EQ(0, ret);
	EXPECT_EQ(s + 10, filetime_of(_metadata, 3, 0, 3000, sync + 3000, &ret));
	EXPECT_EQ(0, ret);
	filetime_of(_metadata, 1, 0, 1, sync, &ret);
	EXPECT_EQ(-EDOM, ret);
	filetime_of(_metadata, 3, 1, 0, sync, &ret);
	EXPECT_EQ(-EDOM, ret);
	/* Far from the sync point: no overflow in between. */
	EXPECT_EQ(s + 18446744073708550ull,
		  filetime_of(_metadata, 1, 10000000000ull, 1, sync + 18446744073709550000ull - sync, &ret));
}

/*
 * Two CPUs whose buffers are stored out of sequence order; a WPP record
 * without timestamp stays after its predecessor.
 */
TEST(time_order)
{
	static const uint64_t want[] = { 10, 15, 20, 20, 30, 40, 50, 60 };
	static struct img m;
	struct etw_etl_error err;
	struct etw_etl_event ev;
	struct etw_etl *etl;
	uint64_t got[9];
	int n = 0;
	uint8_t *r;

	img_start(&m, &hdr64);
	img_buffer(&m, 1, 3, 0x20, 0);		/* cpu 1, second buffer */
	img_event(&m, 50, 1, 0);
	img_event(&m, 60, 1, 0);
	img_buffer(&m, 1, 1, 0x20, 0);		/* cpu 1, first buffer */
	img_event(&m, 15, 1, 0);
	img_event(&m, 20, 1, 0);
	r = img_record(&m, 8);			/* WPP, no timestamp */
	put_le(r, 8, 2);
	r[3] = 0x90;
	img_buffer(&m, 0, 2, 0x20, 0);		/* cpu 0 */
	img_event(&m, 10, 0, 0);
	img_event(&m, 20, 0, 0);
	img_event(&m, 30, 0, 0);
	img_event(&m, 40, 0, 0);
	img_finish(&m);
	etl = open_img(_metadata, &m, &err);
	ASSERT_EQ(0, etw_etl_rewind(etl, ETW_ETL_ORDER_TIME));
	ASSERT_EQ(1, etw_etl_next(etl, &ev));
	EXPECT_EQ(0, ev.buffer);
	while (etw_etl_next(etl, &ev) > 0 && n < 9) {
		if (ev.kind == ETW_ETL_KIND_MESSAGE) {
			EXPECT_EQ(20, got[n - 1]);
			EXPECT_EQ(1, ev.processor);
			continue;
		}
		got[n++] = ev.timestamp;
	}
	ASSERT_EQ(8, n);
	EXPECT_EQ(0, memcmp(want, got, sizeof(want)));
	EXPECT_EQ(-EINVAL, etw_etl_rewind(etl, 7));
	etw_etl_close(etl);
}

/* The legacy u8 processor number, when PROC_INDEX is not set. */
TEST(processor_number)
{
	static struct img m;
	struct etw_etl_error err;
	struct etw_etl_event ev;
	struct etw_etl *etl;

	img_start(&m, &hdr64);
	img_buffer(&m, 0x0502, 1, 0, 0);
	img_event(&m, 2000000, 1, 0);
	img_buffer(&m, 0xf802, 2, 0x20, 0);
	img_event(&m, 2000001, 1, 0);
	img_finish(&m);
	etl = open_img(_metadata, &m, &err);
	ASSERT_EQ(1, first_event(etl, &ev));
	EXPECT_EQ(2, ev.processor);
	EXPECT_FALSE(ev.flags & ETW_ETL_FLAG_PROCESSOR_INDEX);
	ASSERT_EQ(1, etw_etl_next(etl, &ev));
	EXPECT_EQ(0x0002, ev.processor);
	etw_etl_close(etl);
}

/* Read to the end, expecting code and an error at offset. */
static void expect_error(struct __test_metadata *_metadata, struct img *m,
			 int code, uint64_t offset, const char *what)
{
	struct etw_etl_error err;
	struct etw_etl_event ev;
	struct etw_etl *etl;
	int ret;

	etl = open_img(_metadata, m, &err);
	ASSERT_NE(NULL, etl);
	while ((ret = etw_etl_next(etl, &ev)) > 0)
		;
	EXPECT_EQ(code, ret);
	EXPECT_EQ(code, etw_etl_last_error(etl)->code);
	EXPECT_EQ(offset, etw_etl_last_error(etl)->offset);
	EXPECT_NE(NULL, strstr(etw_etl_last_error(etl)->message, what))
		TH_LOG("%s", etw_etl_last_error(etl)->message);
	/* Sticky until rewind, in both orders. */
	EXPECT_EQ(code, etw_etl_next(etl, &ev));
	ASSERT_EQ(0, etw_etl_rewind(etl, ETW_ETL_ORDER_TIME));
	while ((ret = etw_etl_next(etl, &ev)) > 0)
		;
	EXPECT_EQ(code, ret);
	EXPECT_EQ(offset, etw_etl_last_error(etl)->offset);
	etw_etl_close(etl);
}

/*
 * COMPRESSED_MODE files name their format in buffer 0's State; the
 * reader decompresses XPRESS (3) only.
 */
TEST(error_compression_format)
{
	static struct img m;

	img_start(&m, &hdr64);
	put_le(m.p + 0x48 + 0x20 + 0x20, 0x04000000, 4);	/* COMPRESSED_MODE */
	put_le(m.p + 0x2c, 4, 4);			/* XPRESS Huffman */
	img_buffer(&m, 0, 1, 0x60, 0);
	put_le(m.p + 0x1004, 0x50, 4);			/* 8 bytes inflated */
	img_finish(&m);
	expect_error(_metadata, &m, -EOPNOTSUPP, 0x1000,
		     "compressed buffer at offset 0x1000: compression format 4 (XPRESS Huffman)");
}

TEST(error_short_record)
{
	static struct img m;
	uint8_t *r;

	img_start(&m, &hdr64);
	img_buffer(&m, 0, 1, 0x20, 0);
	img_event(&m, 2000000, 1, 8);
	r = img_event(&m, 2000001, 1, 0);
	put_le(r, 0x40, 2);			/* < the 0x50-byte header */
	img_finish(&m);
	expect_error(_metadata, &m, -EBADMSG, 0x1000 + 0x48 + 0x58,
		     "shorter than its 0x50-byte header");
}

TEST(error_record_past_data)
{
	static struct img m;
	uint8_t *r;

	img_start(&m, &hdr64);
	img_buffer(&m, 0, 1, 0x20, 0);
	r = img_event(&m, 2000000, 1, 0);
	put_le(r, 0x58, 2);			/* SavedOffset ends at 0x50 */
	img_finish(&m);
	expect_error(_metadata, &m, -EBADMSG, 0x1048, "runs past the buffer's data");
}

TEST(error_marker)
{
	static struct img m;
	uint8_t *r;

	img_start(&m, &hdr64);
	img_buffer(&m, 0, 1, 0x20, 0);
	r = img_event(&m, 2000000, 1, 0);
	r[3] = 0x00;
	img_finish(&m);
	expect_error(_metadata, &m, -EBADMSG, 0x1048, "bad record marker");
	r[3] = 0xc0;
	r[2] = 0x0c;				/* TIMED: never written */
	expect_error(_metadata, &m, -EBADMSG, 0x1048, "unknown header type 0x0c");
}

TEST(error_ext_item)
{
	static struct img m;
	uint8_t *r;

	img_start(&m, &hdr64);
	img_buffer(&m, 0, 1, 0x20, 0);
	r = img_event(&m, 2000000, 1, 16);
	put_le(r + 4, 1, 2);
	put_le(r + 0x50, 16, 2);
	put_le(r + 0x56, 9, 2);			/* 8 + 9 > 16 bytes left */
	img_finish(&m);
	expect_error(_metadata, &m, -EBADMSG, 0x1048, "run past the record");
	put_le(r + 0x56, 8, 2);
	put_le(r + 0x50, 12, 2);		/* stride < 8 + data */
	expect_error(_metadata, &m, -EBADMSG, 0x1048, "less than its 0x8 bytes");
	put_le(r + 0x50, 16, 2);
	put_le(r + 0x54, 1, 2);			/* says another follows */
	expect_error(_metadata, &m, -EBADMSG, 0x1048, "item at +0x60 runs past");
}

/* The records of whole buffers, then the truncated one. */
TEST(error_truncated)
{
	struct etw_etl_error err;
	struct etw_etl_event ev;
	static struct img m;
	struct etw_etl *etl;
	int n = 0, ret;

	img_start(&m, &hdr64);
	img_buffer(&m, 0, 1, 0x20, 0);
	img_event(&m, 2000000, 1, 0);
	img_buffer(&m, 0, 2, 0x20, 0);
	img_event(&m, 2000001, 1, 0);
	img_finish(&m);
	m.len -= 0x100;
	etl = open_img(_metadata, &m, &err);
	ASSERT_NE(NULL, etl);
	EXPECT_EQ(2, etw_etl_get_header(etl)->buffer_count);
	while ((ret = etw_etl_next(etl, &ev)) > 0)
		n++;
	EXPECT_EQ(2, n);
	EXPECT_EQ(-EBADMSG, ret);
	EXPECT_EQ(0x2000, etw_etl_last_error(etl)->offset);
	EXPECT_NE(NULL, strstr(etw_etl_last_error(etl)->message, "truncated"));
	etw_etl_close(etl);
	m.len = 0x1000 + 0x20;			/* not even a buffer header */
	expect_error(_metadata, &m, -EBADMSG, 0x1000, "truncated");
}

TEST(error_buffer_sizes)
{
	static struct img m;

	img_start(&m, &hdr64);
	img_buffer(&m, 0, 1, 0x20, 0);
	img_finish(&m);
	put_le(m.p + 0x1004, 0x1008, 4);	/* SavedOffset > BufferSize */
	expect_error(_metadata, &m, -EBADMSG, 0x1000, "SavedOffset 0x1008");
	put_le(m.p + 0x1004, 0x48, 4);
	put_le(m.p + 0x1000, 0x10, 4);		/* BufferSize < header */
	expect_error(_metadata, &m, -EBADMSG, 0x1000, "smaller than the 0x48-byte");
}

/* Buffer 0 must hold the header event; the open fails otherwise. */
TEST(error_header)
{
	struct etw_etl_error err;
	static struct img m;
	struct etw_etl *etl;

	img_start(&m, &hdr64);
	img_finish(&m);
	m.p[0x48 + 6] = 5;			/* hook id */
	EXPECT_EQ(-EBADMSG, etw_etl_open_mem(m.p, m.len, &etl, &err));
	EXPECT_EQ(NULL, etl);
	EXPECT_EQ(0x48, err.offset);
	EXPECT_NE(NULL, strstr(err.message, "corrupt header at offset 0x48"));
	m.p[0x48 + 6] = 0;
	put_le(m.p + 0x48 + 4, 0x100, 2);	/* too short for the struct */
	EXPECT_EQ(-EBADMSG, etw_etl_open_mem(m.p, m.len, &etl, &err));
	EXPECT_EQ(-EBADMSG, etw_etl_open_mem(m.p, 0, &etl, &err));
	EXPECT_NE(NULL, strstr(err.message, "at offset 0x0"));
	EXPECT_EQ(-ENOENT, etw_etl_open("/nonexistent/x.etl", &etl, &err));
	EXPECT_NE(NULL, strstr(err.message, "cannot open"));
}

/* A preallocated file ends in zeros after BuffersWritten buffers. */
TEST(preallocated_tail)
{
	struct etw_etl_error err;
	struct etw_etl_event ev;
	static struct img m;
	struct etw_etl *etl;
	int n = 0, ret;

	img_start(&m, &hdr64);
	img_buffer(&m, 0, 1, 0x20, 0);
	img_event(&m, 2000000, 1, 0);
	img_finish(&m);
	memset(m.p + m.len, 0, 0x3000);
	m.len += 0x3000;
	etl = open_img(_metadata, &m, &err);
	while ((ret = etw_etl_next(etl, &ev)) > 0)
		n++;
	EXPECT_EQ(0, ret);
	EXPECT_EQ(2, n);
	etw_etl_close(etl);
}

TEST(names)
{
	struct etw_etl_guid g;
	char buf[ETW_ETL_GUID_STRLEN];

	ASSERT_EQ(0, etw_etl_kernel_provider(0x030a, &g));
	EXPECT_STREQ("ImageLoad", etw_etl_kernel_provider_name(&g));
	etw_etl_guid_to_str(&g, buf);
	EXPECT_STREQ("2cb15d1d-5fc1-11d2-abe1-00a0c911f518", buf);
	ASSERT_EQ(0, etw_etl_kernel_provider(0x0524, &g));
	EXPECT_STREQ("Thread", etw_etl_kernel_provider_name(&g));
	EXPECT_EQ(-ENOENT, etw_etl_kernel_provider(0x4000, &g));
	EXPECT_STREQ("EVENT_HEADER", etw_etl_kind_name(ETW_ETL_KIND_EVENT));
	EXPECT_EQ(NULL, etw_etl_kind_name(99));
	EXPECT_STREQ("PROV_TRAITS", etw_etl_ext_type_name(0x0c));
	EXPECT_EQ(NULL, etw_etl_ext_type_name(0x1234));
}

/* GUIDs with every nibble value, and leading zeros kept. */
TEST(guid_text)
{
	struct etw_etl_guid g = { 0x0000000f, 0xa0b1, 0x00c2,
				  { 0xff, 0x00, 0x01, 0x23, 0x45, 0x67, 0x89, 0xde } };
	char buf[ETW_ETL_GUID_STRLEN];

	memset(buf, 'x', sizeof(buf));
	etw_etl_guid_to_str(&g, buf);
	EXPECT_STREQ("0000000f-a0b1-00c2-ff00-0123456789de", buf);
	g.data1 = 0xfedcba98;
	etw_etl_guid_to_str(&g, buf);
	EXPECT_STREQ("fedcba98-a0b1-00c2-ff00-0123456789de", buf);
}

/* The hand-made calendar agrees with gmtime_r() from 1601 to 9999. */
TEST(filetime_text)
{
	static const uint64_t hz = 10000000ull, epoch = 11644473600ull;
	uint64_t x = 88172645463325252ull;	/* xorshift64 */
	char buf[64], want[64];
	struct tm tm;

	for (int i = 0; i < 200000; i++) {
		uint64_t secs, ft;
		time_t t;

		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		/* Edges first: 1601-01-01, leap days, 9999-12-31T23:59:59. */
		if (i == 0)
			secs = 0;
		else if (i == 1)
			secs = epoch + 951782400;	/* 2000-02-29 */
		else if (i == 2)
			secs = 253402300799ull + epoch;
		else
			secs = x % (253402300800ull + epoch);
		ft = secs * hz + x % hz;
		t = (time_t)secs - (time_t)epoch;
		ASSERT_TRUE(gmtime_r(&t, &tm) != NULL);
		snprintf(want, sizeof(want), "%04d-%02d-%02dT%02d:%02d:%02d.%07uZ",
			 tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday,
			 tm.tm_hour, tm.tm_min, tm.tm_sec,
			 (unsigned int)(ft % hz));
		ASSERT_EQ(0, etw_etl_format_filetime(ft, buf, sizeof(buf)));
		ASSERT_STREQ(want, buf);
	}
	/* Year 10000 does not fit the format. */
	EXPECT_EQ(-ERANGE, etw_etl_format_filetime((253402300800ull + epoch) * hz,
						   buf, sizeof(buf)));
	EXPECT_STREQ("", buf);
	/* A short buffer gets what fits, terminated. */
	ASSERT_EQ(0, etw_etl_format_filetime(epoch * hz, buf, 5));
	EXPECT_STREQ("1970", buf);
}

TEST_HARNESS_MAIN
