// SPDX-License-Identifier: GPL-2.0
/*
 * Compressed ETL files (the relogger's and EVENT_TRACE_COMPRESSED_MODE's
 * form).  The Windows-written relogged sample gives the counts its
 * README states (and dissect.etl counts).  Each uncompressed sample,
 * compressed by the test compressor (xpress_encoder.h), must give every
 * record of the original, byte for byte and field for field, in file and
 * in time order, through the reader, ProcessTrace and etw dump.  Corrupt
 * compressed data is an error naming the compressed buffer's offset.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <windows.h>
#include <evntrace.h>
#include <evntcons.h>

#include "kselftest_harness.h"
#include "etl_test.h"
#include "xpress_encoder.h"
#include "../src/etl/internal.h"

#ifndef ETW_TOOL_PATH
#define ETW_TOOL_PATH "build/bin/etw"
#endif

#define RELOGGED	"perfview-SelfDescribingSingleEvent.etl"

/* The README's row for the relogged sample. */
#define RELOGGED_AFTER_BUFFER0	21
#define RELOGGED_BUFFER0	2
#define RELOGGED_TL_PROVIDER	"a61ea624-4944-55fc-c2a8-37838829438d"

static void read_all(struct __test_metadata *_metadata, struct etw_etl *etl,
		     enum etw_etl_order order, uint32_t *total,
		     uint32_t *in_buffer0)
{
	struct etw_etl_event ev;
	int ret;

	*total = *in_buffer0 = 0;
	ASSERT_EQ(0, etw_etl_rewind(etl, order));
	while ((ret = etw_etl_next(etl, &ev)) > 0) {
		(*total)++;
		*in_buffer0 += ev.buffer == 0;
	}
	ASSERT_EQ(0, ret) TH_LOG("%s", etw_etl_last_error(etl)->message);
}

TEST(relogged_sample)
{
	const struct etw_etl_header *h;
	struct etw_etl_error err;
	struct etw_etl_event ev;
	struct etw_etl_buffer b;
	struct etw_etl *etl;
	uint32_t n, n0, tl = 0;
	char path[4096];

	SAMPLE_PATH(path, RELOGGED);
	ASSERT_EQ(0, etw_etl_open(path, &etl, &err)) TH_LOG("%s", err.message);
	h = etw_etl_get_header(etl);
	EXPECT_EQ(0x04010001, h->log_file_mode);
	EXPECT_STREQ("Relogger", h->logger_name);
	EXPECT_EQ(3, h->buffer_count);
	EXPECT_EQ(2, h->compressed_buffers);
	EXPECT_EQ(3, h->compression_format);
	/* Variable-size buffers, not 8-aligned in the file (README). */
	ASSERT_EQ(0, etw_etl_get_buffer(etl, 1, &b));
	EXPECT_EQ(0x400, b.offset);
	EXPECT_NE(0, b.size % 8);
	EXPECT_NE(0, b.flags & ETW_ETL_BUFFER_FLAG_COMPRESSED);
	EXPECT_GT(b.saved_offset, b.size);

	for (int order = 0; order < 2; order++) {
		read_all(_metadata, etl, order, &n, &n0);
		EXPECT_EQ(RELOGGED_AFTER_BUFFER0 + RELOGGED_BUFFER0, n);
		EXPECT_EQ(RELOGGED_BUFFER0, n0);
	}
	/* The TraceLogging event carries its schema, from a compressed buffer. */
	etw_etl_rewind(etl, ETW_ETL_ORDER_FILE);
	while (etw_etl_next(etl, &ev) > 0) {
		if (!guid_eq(&ev.provider, RELOGGED_TL_PROVIDER))
			continue;
		tl++;
		EXPECT_EQ(ETW_ETL_KIND_EVENT, ev.kind);
		ASSERT_EQ(0, etw_etl_get_buffer(etl, ev.buffer, &b));
		EXPECT_NE(0, b.flags & ETW_ETL_BUFFER_FLAG_COMPRESSED);
		EXPECT_EQ(b.offset, ev.offset);
		EXPECT_EQ(2, ev.ext_count);
		EXPECT_EQ(ETW_ETL_EXT_PROV_TRAITS, ev.ext[0].type);
		EXPECT_EQ(ETW_ETL_EXT_EVENT_SCHEMA_TL, ev.ext[1].type);
		/* "MySource" in the traits, after their u16 size. */
		EXPECT_EQ(0, memcmp((const uint8_t *)ev.ext[0].data + 2, "MySource", 9));
	}
	EXPECT_EQ(1, tl);
	etw_etl_close(etl);
}

/* Two records equal in every field the reader gives, and in their bytes. */
static void expect_same(struct __test_metadata *_metadata,
			const struct etw_etl_event *a,
			const struct etw_etl_event *b, uint32_t i, bool marked)
{
	ASSERT_EQ(a->kind, b->kind) TH_LOG("record %u", i);
	ASSERT_EQ(a->size, b->size) TH_LOG("record %u", i);
	EXPECT_EQ(a->buffer, b->buffer);
	EXPECT_EQ(a->processor, b->processor);
	EXPECT_EQ(a->has, b->has);
	EXPECT_EQ(a->flags, b->flags);
	EXPECT_EQ(a->timestamp, b->timestamp);
	EXPECT_EQ(a->filetime, b->filetime);
	EXPECT_EQ(a->thread_id, b->thread_id);
	EXPECT_EQ(a->process_id, b->process_id);
	EXPECT_EQ(a->id, b->id);
	EXPECT_EQ(a->opcode, b->opcode);
	EXPECT_EQ(a->hook_id, b->hook_id);
	EXPECT_EQ(0, memcmp(&a->provider, &b->provider, sizeof(a->provider)));
	if (a->buffer == 0 && a->hook_id == 0 && a->kind == ETW_ETL_KIND_SYSTEM) {
		/* The header event: LogFileMode may gain COMPRESSED_MODE. */
		const uint8_t *x = a->record, *y = b->record;

		EXPECT_EQ(0, memcmp(x, y, 0x43));
		EXPECT_EQ(x[0x43] | (marked ? 0x04 : 0), y[0x43]);
		EXPECT_EQ(0, memcmp(x + 0x44, y + 0x44, a->size - 0x44));
	} else {
		EXPECT_EQ(0, memcmp(a->record, b->record, a->size)) TH_LOG("record %u", i);
	}
	ASSERT_EQ(a->data_size, b->data_size);
	EXPECT_EQ((const uint8_t *)a->data - (const uint8_t *)a->record,
		  (const uint8_t *)b->data - (const uint8_t *)b->record);
	ASSERT_EQ(a->ext_count, b->ext_count);
	for (uint32_t x = 0; x < a->ext_count; x++) {
		EXPECT_EQ(a->ext[x].type, b->ext[x].type);
		ASSERT_EQ(a->ext[x].size, b->ext[x].size);
		EXPECT_EQ(0, memcmp(a->ext[x].data, b->ext[x].data, a->ext[x].size));
	}
}

/* The compressed buffers that hold data: each is decompressed. */
static uint64_t compressed_with_data(const struct etw_etl *etl)
{
	uint64_t n = 0;

	for (uint32_t i = 0; i < etl->nbufs; i++)
		n += (etl->bufs[i].flags & ETW_ETL_BUFFER_FLAG_COMPRESSED) &&
		     etl->bufs[i].saved_offset > ETL_BUFFER_HEADER_SIZE;
	return n;
}

/*
 * Read both images side by side in both orders; every record the same.
 * The ext items live in each reader until its next call, so each pair
 * is compared before either reader moves on.
 */
static void compare_images(struct __test_metadata *_metadata,
			   const uint8_t *orig, size_t olen,
			   const uint8_t *comp, size_t clen, bool marked)
{
	struct etw_etl *a, *b;
	struct etw_etl_error err;
	struct etw_etl_event ea, eb;
	int ra, rb;

	ASSERT_EQ(0, etw_etl_open_mem(orig, olen, &a, &err)) TH_LOG("%s", err.message);
	ASSERT_EQ(0, etw_etl_open_mem(comp, clen, &b, &err)) TH_LOG("%s", err.message);
	EXPECT_NE(0, etw_etl_get_header(b)->compressed_buffers);
	EXPECT_EQ(etw_etl_get_header(a)->buffer_count, etw_etl_get_header(b)->buffer_count);
	for (int order = 0; order < 2; order++) {
		uint32_t i = 0;

		etw_etl_rewind(a, order);
		etw_etl_rewind(b, order);
		b->inflations = 0;
		for (;;) {
			ra = etw_etl_next(a, &ea);
			rb = etw_etl_next(b, &eb);
			ASSERT_EQ(ra, rb) TH_LOG("record %u, order %d: %s", i, order,
						 etw_etl_last_error(b)->message);
			if (ra <= 0)
				break;
			expect_same(_metadata, &ea, &eb, i, marked);
			if (_metadata->exit_code)
				break;
			i++;
		}
		EXPECT_EQ(0, ra);
		EXPECT_NE(0, i);
		/* Each compressed buffer decompressed once, in either order. */
		EXPECT_EQ(compressed_with_data(b), b->inflations) TH_LOG("order %d", order);
	}
	etw_etl_close(a);
	etw_etl_close(b);
}

static void write_file(struct __test_metadata *_metadata, const uint8_t *p,
		       size_t n, char *path)
{
	int fd;

	strcpy(path, "/tmp/etw-compressed-XXXXXX");
	fd = mkstemp(path);
	ASSERT_GE(fd, 0);
	ASSERT_EQ((ssize_t)n, write(fd, p, n));
	close(fd);
}

struct counts {
	ULONG events;
	uint64_t bytes;			/* user data seen, summed */
	uint64_t sum;			/* of every user data byte */
};

static VOID WINAPI on_event(PEVENT_RECORD r)
{
	struct counts *c = r->UserContext;

	c->events++;
	c->bytes += r->UserDataLength;
	for (USHORT i = 0; i < r->UserDataLength; i++)
		c->sum += ((const uint8_t *)r->UserData)[i] * (uint64_t)(i + 1);
}

static ULONG process(const char *path, struct counts *c)
{
	EVENT_TRACE_LOGFILEA lf = { 0 };
	PROCESSTRACE_HANDLE h;
	ULONG ret;

	lf.LogFileName = (char *)path;
	lf.ProcessTraceMode = PROCESS_TRACE_MODE_EVENT_RECORD;
	lf.EventRecordCallback = on_event;
	lf.Context = c;
	h = OpenTraceA(&lf);
	if (h == INVALID_PROCESSTRACE_HANDLE)
		return GetLastError();
	ret = ProcessTrace(&h, 1, NULL, NULL);
	CloseTrace(h);
	return ret;
}

/* etw dump's records, without the offsets (a compressed buffer's own). */
static char *dump(const char *path, const char *format, size_t *len)
{
	char cmd[8192], line[1 << 16], *out = NULL, *p;
	size_t cap = 0;
	bool records = false;
	FILE *f;

	*len = 0;
	snprintf(cmd, sizeof(cmd), "%s dump -f %s %s 2>&1", ETW_TOOL_PATH,
		 format, path);
	f = popen(cmd, "r");
	if (!f)
		return NULL;
	while (fgets(line, sizeof(line), f)) {
		size_t n;

		/* The header differs (file size, mode, compressed buffers). */
		records |= line[0] == '#' || strstr(line, "\"events\": [") != NULL;
		if (!records)
			continue;
		while ((p = strstr(line, "offset 0x")) ||
		       (p = strstr(line, "\"offset\": "))) {
			char *end = p + (p[0] == 'o' ? 9 : 10);

			end += strspn(end, "0123456789abcdef");
			memmove(p, end, strlen(end) + 1);
		}
		n = strlen(line);
		if (*len + n + 1 > cap) {
			cap = (cap + n + 1) * 2;
			out = realloc(out, cap);
		}
		memcpy(out + *len, line, n + 1);
		*len += n;
	}
	if (pclose(f) != 0) {
		free(out);
		return NULL;
	}
	return out;
}

FIXTURE(sample) {
	uint8_t *orig, *comp, *marked;	/* marked: COMPRESSED_MODE set */
	size_t olen, clen, mlen;
};

FIXTURE_VARIANT(sample) {
	const char *file;
};

FIXTURE_VARIANT_ADD(sample, amsitrace) { .file = "etlparser-AMSITrace.etl" };
FIXTURE_VARIANT_ADD(sample, lxcore) { .file = "etlparser-lxcore_kernel.etl" };
FIXTURE_VARIANT_ADD(sample, powershell) { .file = "krabsetw-powershell.etl" };
FIXTURE_VARIANT_ADD(sample, perfdiag) { .file = "etlparser-ShutdownPerfDiagLogger.etl" };

FIXTURE_SETUP(sample)
{
	self->orig = read_sample(variant->file, &self->olen);
	ASSERT_NE(NULL, self->orig) TH_LOG("sample %s is missing", variant->file);
	self->clen = etl_compress_image(self->orig, self->olen, &self->comp, 0);
	ASSERT_NE(0, self->clen);
	self->mlen = etl_compress_image(self->orig, self->olen, &self->marked, 1);
	ASSERT_NE(0, self->mlen);
	/* Compressed, it is smaller: the data was really compressed. */
	EXPECT_LT(self->clen, self->olen);
}

FIXTURE_TEARDOWN(sample)
{
	free(self->orig);
	free(self->comp);
	free(self->marked);
}

TEST_F(sample, same_records)
{
	compare_images(_metadata, self->orig, self->olen, self->comp, self->clen, false);
	compare_images(_metadata, self->orig, self->olen, self->marked, self->mlen, true);
}

TEST_F(sample, process_trace)
{
	char po[64], pc[64];
	struct counts co = { 0 }, cc = { 0 };

	write_file(_metadata, self->orig, self->olen, po);
	write_file(_metadata, self->comp, self->clen, pc);
	EXPECT_EQ(ERROR_SUCCESS, process(po, &co));
	EXPECT_EQ(ERROR_SUCCESS, process(pc, &cc));
	EXPECT_NE(0, co.events);
	EXPECT_EQ(co.events, cc.events);
	EXPECT_EQ(co.bytes, cc.bytes);
	EXPECT_EQ(co.sum, cc.sum);
	unlink(po);
	unlink(pc);
}

TEST_F(sample, dump)
{
	static const char *const formats[] = { "text", "json" };
	char po[64], pc[64];

	write_file(_metadata, self->orig, self->olen, po);
	write_file(_metadata, self->comp, self->clen, pc);
	for (int i = 0; i < 2; i++) {
		size_t lo, lc;
		char *o = dump(po, formats[i], &lo), *c = dump(pc, formats[i], &lc);

		ASSERT_NE(NULL, o);
		ASSERT_NE(NULL, c) TH_LOG("etw dump -f %s of the compressed file failed", formats[i]);
		EXPECT_NE(0, lo);
		EXPECT_EQ(lo, lc);
		EXPECT_EQ(0, memcmp(o, c, lo < lc ? lo : lc)) TH_LOG("%s differs", formats[i]);
		free(o);
		free(c);
	}
	unlink(po);
	unlink(pc);
}

static const struct img_header hdr64 = {
	.bits = 64, .cpus = 2, .clock = 1, .perf_freq = 10000000, .mhz = 3000,
	.start = 132000000000000000ull, .sync = 1000,
};

/*
 * Two processors whose buffers interleave in time, CPU 0's second buffer
 * holding only the end marker: the time-ordered merge keeps the record
 * it hands out valid while it parses ahead across buffers.
 */
TEST(merge_across_compressed_buffers)
{
	static struct img m;
	uint8_t *comp;
	size_t clen;
	uint64_t ts = 2000;

	img_start(&m, &hdr64);
	for (int round = 0; round < 3; round++) {
		for (uint16_t cpu = 0; cpu < 2; cpu++) {
			img_buffer(&m, cpu, 1 + round * 2 + cpu, 0x20, 0);
			for (int i = 0; i < 20; i++) {
				uint8_t *r = img_event(&m, ts + i * 2 + cpu, (uint16_t)i,
						       8 + i);

				memset(r + 0x50, 'a' + round * 2 + cpu, 8 + i);
			}
			if (round == 1 && cpu == 0) {
				/* One more: only the end marker. */
				img_buffer(&m, 0, 100, 0x20, 0);
				put_le(m.p + m.cur + 4, 0x50, 4);
			}
		}
		ts += 1000;
	}
	img_finish(&m);
	clen = etl_compress_image(m.p, m.len, &comp, 1);
	ASSERT_NE(0, clen);
	compare_images(_metadata, m.p, m.len, comp, clen, true);
	free(comp);
}

/*
 * The relogger's buffer 0: a record past SavedOffset that Offset (0x30)
 * covers is read; an Offset past BufferSize is not trusted.
 */
TEST(relogger_buffer0_offset)
{
	static struct img m;
	struct etw_etl_error err;
	struct etw_etl *etl;
	uint32_t n, n0, saved;
	uint8_t *r;

	for (int past = 0; past < 2; past++) {
		img_start(&m, &hdr64);
		saved = xenc_get32(m.p + 4);
		/* An EventTrace 0x0050 record as the relogger writes it. */
		r = img_record(&m, 0x50);
		put_le(r, 0xc0020002, 4);
		put_le(r + 4, 0x50, 2);
		put_le(r + 6, 0x0050, 2);
		put_le(m.p + 0x30, past ? 0x1008 : saved + 0x50, 4);
		put_le(m.p + 4, saved, 4);
		put_le(m.p + 8, saved, 4);
		img_buffer(&m, 0, 1, 0x20, 0);
		img_event(&m, 2000, 1, 8);
		img_finish(&m);
		ASSERT_EQ(0, etw_etl_open_mem(m.p, m.len, &etl, &err)) TH_LOG("%s", err.message);
		for (int order = 0; order < 2; order++) {
			read_all(_metadata, etl, order, &n, &n0);
			EXPECT_EQ(past ? 1 : 2, n0);
			EXPECT_EQ(n0 + 1, n);
		}
		etw_etl_close(etl);
	}
}

/* A small compressed file, and where its first compressed buffer is. */
static size_t small_compressed(uint8_t **comp)
{
	static struct img m;

	img_start(&m, &hdr64);
	img_buffer(&m, 0, 1, 0x20, 0);
	for (int i = 0; i < 30; i++)
		img_event(&m, 2000 + i, (uint16_t)i, 24);
	img_buffer(&m, 1, 2, 0x20, 0);
	for (int i = 0; i < 30; i++)
		img_event(&m, 2000 + i, (uint16_t)i, 24);
	img_finish(&m);
	return etl_compress_image(m.p, m.len, comp, 1);
}

/* Read to the end in both orders: the error, at the buffer's offset. */
static void expect_error(struct __test_metadata *_metadata, const uint8_t *p,
			 size_t n, int code, uint64_t offset, const char *what)
{
	struct etw_etl_error err;
	struct etw_etl_event ev;
	struct etw_etl *etl;
	char path[64];
	struct counts c = { 0 };
	int ret;

	ASSERT_EQ(0, etw_etl_open_mem(p, n, &etl, &err)) TH_LOG("%s", err.message);
	for (int order = 0; order < 2; order++) {
		etw_etl_rewind(etl, order);
		while ((ret = etw_etl_next(etl, &ev)) > 0)
			;
		EXPECT_EQ(code, ret);
		EXPECT_EQ(offset, etw_etl_last_error(etl)->offset);
		EXPECT_NE(NULL, strstr(etw_etl_last_error(etl)->message, what))
			TH_LOG("%s", etw_etl_last_error(etl)->message);
		/* Sticky. */
		EXPECT_EQ(code, etw_etl_next(etl, &ev));
	}
	etw_etl_close(etl);
	write_file(_metadata, p, n, path);
	EXPECT_EQ(code == -EOPNOTSUPP ? ERROR_NOT_SUPPORTED : ERROR_FILE_CORRUPT,
		  process(path, &c));
	unlink(path);
}

TEST(corrupt_match_offset)
{
	uint8_t *comp;
	size_t n = small_compressed(&comp);

	ASSERT_NE(0, n);
	/* The first item of buffer 1 (at 0x1000) made a match: nothing before it. */
	comp[0x1000 + 0x48 + 3] |= 0x80;
	expect_error(_metadata, comp, n, -EBADMSG, 0x1000,
		     "corrupt compressed buffer at offset 0x1000: a match refers to before the start");
	free(comp);
}

TEST(corrupt_truncated_data)
{
	uint8_t *comp;
	size_t n = small_compressed(&comp), last;
	uint32_t size;

	ASSERT_NE(0, n);
	/* The last buffer: cut its compressed data short. */
	size = xenc_get32(comp + 0x1000);
	last = 0x1000 + size;
	ASSERT_LT(last, n);
	put_le(comp + last, xenc_get32(comp + last) - 20, 4);
	expect_error(_metadata, comp, n - 20, -EBADMSG, last,
		     "corrupt compressed buffer at offset");
	free(comp);
}

TEST(corrupt_size)
{
	uint8_t *comp;
	size_t n = small_compressed(&comp);

	ASSERT_NE(0, n);
	/* SavedOffset 8 more than the data decompresses to. */
	put_le(comp + 0x1004, xenc_get32(comp + 0x1004) + 8, 4);
	expect_error(_metadata, comp, n, -EBADMSG, 0x1000,
		     "SavedOffset says");
	free(comp);
}

TEST(corrupt_record_inside)
{
	static struct img m;
	uint8_t *comp;
	size_t n;

	img_start(&m, &hdr64);
	img_buffer(&m, 0, 1, 0x20, 0);
	img_event(&m, 2000, 1, 8);
	img_event(&m, 2001, 2, 8);
	/* The second record's size runs past the data. */
	put_le(m.p + m.cur + 0x48 + 0x58, 0x400, 2);
	img_finish(&m);
	n = etl_compress_image(m.p, m.len, &comp, 1);
	ASSERT_NE(0, n);
	expect_error(_metadata, comp, n, -EBADMSG, 0x1000,
		     "corrupt record in compressed buffer at offset 0x1000: at byte 0xa0 of the buffer decompressed");
	free(comp);
}

/* COMPRESSED_MODE with LZNT1 (2) in buffer 0's State: not read. */
TEST(unsupported_format)
{
	uint8_t *comp;
	size_t n = small_compressed(&comp);

	ASSERT_NE(0, n);
	put_le(comp + 0x2c, 2, 4);
	expect_error(_metadata, comp, n, -EOPNOTSUPP, 0x1000,
		     "compression format 2 (LZNT1) is not supported");
	free(comp);
}

TEST(saved_offset_too_large)
{
	uint8_t *comp;
	size_t n = small_compressed(&comp);
	struct etw_etl_error err;
	struct etw_etl *etl;
	struct etw_etl_event ev;
	int ret;

	ASSERT_NE(0, n);
	put_le(comp + 0x1004, 0xfffffff0, 4);
	ASSERT_EQ(0, etw_etl_open_mem(comp, n, &etl, &err));
	while ((ret = etw_etl_next(etl, &ev)) > 0)
		;
	EXPECT_EQ(-EBADMSG, ret);
	EXPECT_EQ(0x1000, etw_etl_last_error(etl)->offset);
	EXPECT_NE(NULL, strstr(etw_etl_last_error(etl)->message, "more than the 0x4000000 bytes"))
		TH_LOG("%s", etw_etl_last_error(etl)->message);
	etw_etl_close(etl);
	free(comp);
}

TEST_HARNESS_MAIN
