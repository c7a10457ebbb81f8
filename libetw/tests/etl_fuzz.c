// SPDX-License-Identifier: GPL-2.0
/*
 * Bounded, deterministic fuzzing of the ETL reader.  Each sample (and a
 * synthetic image holding every record header family) is truncated and
 * mutated a few thousand times with a fixed seed, half of the mutations
 * aimed at buffer and record headers; each image is read to the end in
 * file and in time order.  The reader may succeed or fail, but must
 * return, and every pointer it hands out must lie inside the image.
 *
 * The image ends at a PROT_NONE page, so a read past its end faults even
 * without AddressSanitizer (the build also runs this under ASan/UBSan).
 *
 * Compressed images (the relogged sample, and samples compressed by the
 * test compressor) get a third of their mutations in the compressed data;
 * their records lie in the reader's scratch area, which must hold all of
 * each record (ASan checks the area's bounds).
 */
#include <errno.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include <etw_etl.h>

#include "kselftest_harness.h"
#include "etl_test.h"
#include "xpress_encoder.h"

#define SEED		0x5eed0e71u

struct rng {
	uint64_t s;
};

static uint64_t next_rand(struct rng *r)
{
	r->s ^= r->s << 13;
	r->s ^= r->s >> 7;
	r->s ^= r->s << 17;
	return r->s;
}

static uint64_t below(struct rng *r, uint64_t n)
{
	return n ? next_rand(r) % n : 0;
}

/* A page-aligned area whose last page is inaccessible. */
struct guarded {
	uint8_t *base;
	size_t size;			/* accessible bytes */
};

static int guard_alloc(struct guarded *g, size_t len)
{
	size_t page = sysconf(_SC_PAGESIZE);

	g->size = (len + page - 1) / page * page;
	g->base = mmap(NULL, g->size + page, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (g->base == MAP_FAILED)
		return -1;
	return mprotect(g->base + g->size, page, PROT_NONE);
}

static void guard_free(struct guarded *g)
{
	munmap(g->base, g->size + sysconf(_SC_PAGESIZE));
}

/* The first len bytes of src, ending right at the guard page. */
static uint8_t *place(struct guarded *g, const uint8_t *src, size_t len)
{
	uint8_t *p = g->base + g->size - len;

	memcpy(p, src, len);
	return p;
}

struct target {
	const uint8_t *p;
	size_t len;
	uint32_t *records;		/* record offsets of the clean image */
	uint32_t nrecords;
	uint32_t buffer_size;
	struct etw_etl_buffer *bufs;	/* buffers of the clean image */
	uint32_t nbufs;
	bool compressed;
};

static bool inside(const struct target *t, const void *p, size_t n)
{
	const uint8_t *q = p;

	return q >= t->p && q <= t->p + t->len && n <= (size_t)(t->p + t->len - q);
}

/*
 * Touch every byte handed out, and check it lies inside the image, or for
 * a compressed buffer's record inside the record (in the scratch area).
 */
static unsigned int check_event(const struct target *t, struct etw_etl *etl,
				const struct etw_etl_event *ev, bool *bad)
{
	const uint8_t *d = ev->data, *rec = ev->record;
	struct etw_etl_buffer b;
	unsigned int sum = 0;
	bool scratch;

	*bad |= etw_etl_get_buffer(etl, ev->buffer, &b) < 0;
	if (*bad)
		return 0;
	scratch = b.flags & ETW_ETL_BUFFER_FLAG_COMPRESSED;
	for (uint32_t i = 0; scratch && i < ev->size; i++)
		sum += rec[i];
	*bad |= (!scratch && !inside(t, ev->record, ev->size)) || ev->size < 8 ||
		(!scratch && !inside(t, ev->data, ev->data_size)) ||
		d < (const uint8_t *)ev->record ||
		d + ev->data_size > (const uint8_t *)ev->record + ev->size;
	if (*bad)
		return 0;
	for (uint32_t i = 0; i < ev->data_size; i++)
		sum += d[i];
	for (uint32_t i = 0; i < ev->ext_count; i++) {
		const uint8_t *x = ev->ext[i].data;

		*bad |= scratch ? x < rec || x + ev->ext[i].size > rec + ev->size :
				  !inside(t, x, ev->ext[i].size);
		for (uint32_t j = 0; !*bad && j < ev->ext[i].size; j++)
			sum += x[j];
	}
	return sum;
}

/* Records take 8 bytes or more of some buffer's data. */
static uint64_t record_limit(struct etw_etl *etl)
{
	struct etw_etl_buffer b;
	uint64_t n = 16;

	for (uint32_t i = 0; etw_etl_get_buffer(etl, i, &b) == 0; i++)
		n += b.saved_offset / 8;
	return n;
}

/* Read the whole image both ways; false if something is out of bounds. */
static bool read_image(const struct target *t, uint64_t *records)
{
	uint64_t limit, n;
	struct etw_etl_error err;
	struct etw_etl_event ev;
	struct etw_etl *etl;
	bool bad = false;
	unsigned int sum = 0;
	int ret;

	ret = etw_etl_open_mem(t->p, t->len, &etl, &err);
	if (ret < 0)
		return err.code == ret && err.message[0];
	limit = record_limit(etl);
	for (int order = 0; order < 2 && !bad; order++) {
		etw_etl_rewind(etl, order);
		for (n = 0; (ret = etw_etl_next(etl, &ev)) > 0 && !bad; n++) {
			sum += check_event(t, etl, &ev, &bad);
			if (n > limit)
				bad = true;	/* records take 8 bytes or more */
		}
		if (ret < 0)
			bad |= !etw_etl_last_error(etl)->message[0] ||
				(etw_etl_last_error(etl)->offset >= t->len &&
				 etw_etl_last_error(etl)->offset != ETW_ETL_NO_OFFSET);
		*records += n;
	}
	etw_etl_close(etl);
	*records += sum & 1;
	return !bad;
}

static const uint32_t interesting[] = {
	0, 1, 7, 8, 0x10, 0x18, 0x20, 0x30, 0x47, 0x48, 0x49, 0x50, 0xff,
	0x7fff, 0x8000, 0xfffe, 0xffff, 0x10000, 0x7fffffff, 0x80000000,
	0xfffffff8, 0xffffffff,
};

/*
 * Somewhere that matters: a buffer header or the start of a record, or in
 * a compressed image the compressed data too.
 */
static size_t aim(const struct target *t, struct rng *r)
{
	if (t->compressed && t->nbufs) {
		const struct etw_etl_buffer *b = &t->bufs[below(r, t->nbufs)];

		switch (below(r, 3)) {
		case 0:
			return b->offset + below(r, 0x48);
		case 1:
			return b->offset + 0x48 + below(r, 0x40);
		default:
			return b->offset + below(r, b->size);
		}
	}
	if (below(r, 2) || !t->nrecords)
		return below(r, t->len / t->buffer_size + 1) * t->buffer_size +
		       below(r, 0x48);
	return t->records[below(r, t->nrecords)] + below(r, 0x60);
}

static void mutate(const struct target *t, uint8_t *p, struct rng *r)
{
	size_t at = below(r, 2) ? aim(t, r) : below(r, t->len);
	uint32_t v = below(r, 2) ? interesting[below(r, sizeof(interesting) / 4)] :
				   (uint32_t)next_rand(r);
	int width = 1 << below(r, 3);

	if (below(r, 4) == 0) {
		v = p[at % t->len] ^ (1u << below(r, 8));
		width = 1;
	}
	for (int i = 0; i < width && at + i < t->len; i++)
		p[at + i] = (uint8_t)(v >> (8 * i));
}

/* The record offsets of the clean image, where mutations are aimed. */
static void index_records(struct target *t)
{
	struct etw_etl_error err;
	struct etw_etl_event ev;
	struct etw_etl *etl;
	uint32_t cap = 0;

	t->nrecords = 0;
	if (etw_etl_open_mem(t->p, t->len, &etl, &err) < 0)
		return;
	t->buffer_size = etw_etl_get_header(etl)->buffer_size;
	if (!t->buffer_size)
		t->buffer_size = 0x1000;
	t->compressed = etw_etl_get_header(etl)->compressed_buffers != 0;
	t->nbufs = etw_etl_get_header(etl)->buffer_count;
	t->bufs = calloc(t->nbufs ? t->nbufs : 1, sizeof(*t->bufs));
	for (uint32_t i = 0; t->bufs && i < t->nbufs; i++)
		etw_etl_get_buffer(etl, i, &t->bufs[i]);
	if (!t->bufs)
		t->nbufs = 0;
	while (etw_etl_next(etl, &ev) > 0) {
		if (t->nrecords == cap) {
			cap = cap ? 2 * cap : 256;
			t->records = realloc(t->records, cap * sizeof(*t->records));
		}
		t->records[t->nrecords++] = (uint32_t)ev.offset;
	}
	etw_etl_close(etl);
}

/*
 * The rounds stop early past this many seconds, checked before every
 * round: a loaded machine (or the ASan build) must not run into the
 * harness's timeout, which the tests raise to FUZZ_TIMEOUT_S for the
 * setup and the round in progress.  What is cut is only the number of
 * mutations tried, never a check.
 */
#define FUZZ_BUDGET_S	10
#define FUZZ_TIMEOUT_S	120

static double seconds_since(const struct timespec *t0)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)(t.tv_sec - t0->tv_sec) + (t.tv_nsec - t0->tv_nsec) / 1e9;
}

static void fuzz(struct __test_metadata *_metadata, const uint8_t *image,
		 size_t len, unsigned int rounds)
{
	struct rng r = { SEED ^ len };
	struct target t = { 0 };
	struct guarded g;
	uint64_t records = 0, failures = 0;
	struct timespec t0;
	unsigned int i;
	uint8_t *p;

	ASSERT_EQ(0, guard_alloc(&g, len));
	clock_gettime(CLOCK_MONOTONIC, &t0);
	t.p = p = place(&g, image, len);
	t.len = len;
	index_records(&t);
	ASSERT_NE(0, t.nrecords);
	for (i = 0; i < rounds; i++) {
		unsigned int changes = 1 + below(&r, 4);

		if (i && seconds_since(&t0) > FUZZ_BUDGET_S)
			break;

		if (i % 8 == 0) {
			/* Truncated: the image moves to end at the guard. */
			t.len = below(&r, 2) ? below(&r, len) :
				below(&r, len / t.buffer_size + 1) * t.buffer_size +
				below(&r, 0x100);
			if (t.len > len)
				t.len = len;
			t.p = place(&g, image, t.len);
		} else {
			t.p = p = place(&g, image, len);
			t.len = len;
			for (unsigned int c = 0; c < changes; c++)
				mutate(&t, p, &r);
		}
		if (!read_image(&t, &records)) {
			failures++;
			TH_LOG("round %u: out of bounds or endless", i);
		}
	}
	EXPECT_EQ(0, failures);
	TH_LOG("%u of %u images, %llu records read, %.2f s", i, rounds,
	       (unsigned long long)records, seconds_since(&t0));
	free(t.records);
	free(t.bufs);
	guard_free(&g);
}

FIXTURE(sample) {
	uint8_t *data;
	size_t size;
};

FIXTURE_VARIANT(sample) {
	const char *file;
	unsigned int rounds;
	bool compress;			/* read its compressed form */
};

FIXTURE_VARIANT_ADD(sample, amsitrace) {
	.file = "etlparser-AMSITrace.etl", .rounds = 2000,
};

FIXTURE_VARIANT_ADD(sample, lxcore) {
	.file = "etlparser-lxcore_kernel.etl", .rounds = 2000,
};

FIXTURE_VARIANT_ADD(sample, powershell) {
	.file = "krabsetw-powershell.etl", .rounds = 2000,
};

FIXTURE_VARIANT_ADD(sample, perfdiag) {
	.file = "etlparser-ShutdownPerfDiagLogger.etl", .rounds = 1000,
};

/* The relogger's file, and two samples compressed by the test compressor. */
FIXTURE_VARIANT_ADD(sample, relogged) {
	.file = "perfview-SelfDescribingSingleEvent.etl", .rounds = 3000,
};

FIXTURE_VARIANT_ADD(sample, amsitrace_compressed) {
	.file = "etlparser-AMSITrace.etl", .rounds = 2000, .compress = true,
};

FIXTURE_VARIANT_ADD(sample, perfdiag_compressed) {
	.file = "etlparser-ShutdownPerfDiagLogger.etl", .rounds = 150,
	.compress = true,
};

FIXTURE_SETUP(sample)
{
	uint8_t *comp;

	self->data = read_sample(variant->file, &self->size);
	ASSERT_NE(NULL, self->data)
		TH_LOG("sample %s is missing", variant->file);
	if (variant->compress) {
		self->size = etl_compress_image(self->data, self->size, &comp, 1);
		free(self->data);
		self->data = comp;
		ASSERT_NE(0, self->size);
	}
}

FIXTURE_TEARDOWN(sample)
{
	free(self->data);
}

TEST_F_TIMEOUT(sample, mutations, FUZZ_TIMEOUT_S)
{
	fuzz(_metadata, self->data, self->size, variant->rounds);
}

/* Every header family in one image: buffer 0, then records of each. */
static void zoo(struct img *m)
{
	static const struct img_header h = {
		.bits = 64, .cpus = 4, .clock = 1, .perf_freq = 10000000,
		.mhz = 3000, .start = 132000000000000000ull, .sync = 10,
	};
	uint8_t *r;

	img_start(m, &h);
	for (int cpu = 0; cpu < 3; cpu++) {
		img_buffer(m, cpu, cpu + 1, 0x20, 0);
		r = img_event(m, 100 + cpu, 1, 8 + 24);
		put_le(r + 4, 1, 2);			/* two items */
		put_le(r + 0x50, 16, 2);
		put_le(r + 0x52, 3, 2);
		put_le(r + 0x54, 1, 2);
		put_le(r + 0x56, 4, 2);
		put_le(r + 0x60, 16, 2);
		put_le(r + 0x62, 0xb, 2);
		put_le(r + 0x64, 0, 2);			/* the last */
		put_le(r + 0x66, 8, 2);
		r = img_record(m, 0x30 + 4);		/* classic */
		put_le(r, 0xc0140034, 4);
		put_le(r + 0x10, 200, 8);
		r = img_record(m, 0x48);		/* instance */
		put_le(r, 0xc0150048, 4);
		r = img_record(m, 0x1c);		/* compact */
		put_le(r, 0xc0040003, 4);
		put_le(r + 4, 0x1c, 2);
		r = img_record(m, 0x10 + 24);		/* perfinfo, PEBS, 2 PMC */
		put_le(r, 0xc0118202, 4);
		put_le(r + 4, 0x28, 2);
		r = img_record(m, 8 + 4 + 16 + 8 + 8);	/* WPP */
		put_le(r, 44, 2);
		r[3] = 0x90;
		put_le(r + 6, 0x2b, 2);
		r = img_record(m, 0x20);		/* system */
		put_le(r, 0xc0020002, 4);
		put_le(r + 4, 0x20, 2);
		put_le(r + 6, 0x030a, 2);
	}
	img_finish(m);
}

/* A fixture for the timeout only: TEST() has none to set. */
FIXTURE(synthetic) {
	int unused;
};

FIXTURE_SETUP(synthetic)
{
}

FIXTURE_TEARDOWN(synthetic)
{
}

TEST_F_TIMEOUT(synthetic, mutations, FUZZ_TIMEOUT_S)
{
	static struct img m;

	zoo(&m);
	fuzz(_metadata, m.p, m.len, 3000);
}

TEST_F_TIMEOUT(synthetic, compressed_mutations, FUZZ_TIMEOUT_S)
{
	static struct img m;
	uint8_t *comp;
	size_t n;

	zoo(&m);
	n = etl_compress_image(m.p, m.len, &comp, 1);
	ASSERT_NE(0, n);
	fuzz(_metadata, comp, n, 3000);
	free(comp);
}

TEST_HARNESS_MAIN
