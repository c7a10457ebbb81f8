// SPDX-License-Identifier: GPL-2.0
/*
 * etw-bench-xpress: the host part of issue 17's item 6.  Builds a large
 * compressed ETL file from a sample (its event buffers repeated, then
 * compressed as the relogger does, by the tests' compressor), times the
 * [MS-XCA] decoder alone on it, and reads it once through the reader.
 *
 *   etw-bench-xpress SAMPLE OUT.etl MB
 *
 * SAMPLE's event buffers are repeated until they hold MB megabytes of
 * records; OUT.etl is the compressed file, for scripts/bench-host.sh to
 * run etw dump on.  Prints (bench.h):
 *
 *   xpress.out_bytes    decompressed bytes of one pass over the file
 *   xpress.in_bytes     compressed bytes of one pass
 *   xpress.ns           best time of one pass (thread CPU time)
 *   xpress.file_bytes, xpress.records   the file, and its records
 *   xpress.read_ns      thread CPU time of one pass of etw_etl_next()
 *
 * The decoder is linked in from its source (the library keeps it hidden).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <etw_etl.h>

#include "bench.h"
#include "../libetw/src/etl/xpress.h"
#include "../libetw/tests/xpress_encoder.h"

#define PASSES	7
#define MAX_OUT	(64u << 20)	/* the reader's limit on a buffer */

static uint8_t *slurp(const char *path, size_t *n)
{
	FILE *f = fopen(path, "rb");
	uint8_t *p;
	long len;

	if (!f || fseek(f, 0, SEEK_END) || (len = ftell(f)) <= 0 ||
	    fseek(f, 0, SEEK_SET))
		bench_die("cannot read %s", path);
	p = malloc(len);
	if (!p || fread(p, 1, len, f) != (size_t)len)
		bench_die("cannot read %s", path);
	fclose(f);
	*n = len;
	return p;
}

/*
 * Buffer 0 of the sample, then its buffers 1..n again and again, with
 * sequence numbers running on, until their records hold mb megabytes.
 */
static uint8_t *grow(const uint8_t *s, size_t n, size_t mb, size_t *len)
{
	uint32_t b0 = xenc_get32(s), size, count = 1;
	size_t want = mb << 20, data = 0, cap = want * 2 + n, off;
	uint8_t *p = malloc(cap);
	int64_t seq = 1;

	if (!p || b0 < 0x48 || b0 >= n)
		bench_die("bad sample");
	memcpy(p, s, b0);
	*len = b0;
	while (data < want) {
		for (off = b0; off + 0x48 <= n && data < want; off += size) {
			size = xenc_get32(s + off);
			if (size < 0x48 || size > n - off)
				bench_die("bad sample buffer at 0x%zx", off);
			if (*len + size > cap)
				bench_die("out of room");
			memcpy(p + *len, s + off, size);
			for (int i = 0; i < 8; i++)
				p[*len + 0x18 + i] = (uint8_t)((uint64_t)seq >> (8 * i));
			seq++;
			count++;
			data += xenc_get32(s + off + 4) - 0x48;
			*len += size;
		}
	}
	/* BuffersWritten of the header event. */
	for (int i = 0; i < 4; i++)
		p[0x48 + 0x20 + 0x24 + i] = (uint8_t)(count >> (8 * i));
	return p;
}

/* One pass of the decoder over every compressed buffer; bytes out. */
static uint64_t decompress_all(const uint8_t *f, size_t n, uint8_t *out,
			       size_t cap, uint64_t *in_bytes)
{
	uint64_t total = 0;
	size_t off = xenc_get32(f);

	*in_bytes = 0;
	while (off + 0x48 <= n) {
		uint32_t size = xenc_get32(f + off);
		struct etl_xpress_error e;
		ptrdiff_t r;

		if (f[off + 0x34] & 0x40) {
			r = etl_xpress_decompress(f + off + 0x48, size - 0x48, out,
						  cap, &e);
			if (r < 0)
				bench_die("decompression failed at 0x%zx: %s", off, e.why);
			total += r;
			*in_bytes += size - 0x48;
		}
		off += size;
	}
	return total;
}

int main(int argc, char **argv)
{
	size_t n, big_len, comp_len;
	uint8_t *sample, *big, *comp, *out;
	uint64_t best = 0, bytes = 0, in_bytes = 0, records = 0, t0;
	struct etw_etl_error err;
	struct etw_etl_event ev;
	struct etw_etl *etl;
	FILE *f;
	int ret;

	if (argc != 4)
		bench_die("usage: etw-bench-xpress SAMPLE OUT.etl MB");
	sample = slurp(argv[1], &n);
	big = grow(sample, n, strtoul(argv[3], NULL, 0), &big_len);
	comp_len = etl_compress_image(big, big_len, &comp, 1);
	if (!comp_len)
		bench_die("compression failed");
	free(big);
	f = fopen(argv[2], "wb");
	if (!f || fwrite(comp, 1, comp_len, f) != comp_len || fclose(f))
		bench_die("cannot write %s", argv[2]);

	out = malloc(MAX_OUT);
	if (!out)
		bench_die("out of memory");
	for (int pass = 0; pass < PASSES; pass++) {
		uint64_t ns;

		t0 = bench_thread_cpu();
		bytes = decompress_all(comp, comp_len, out, MAX_OUT, &in_bytes);
		ns = bench_thread_cpu() - t0;
		if (!pass || ns < best)
			best = ns;
	}
	bench_print("xpress.out_bytes", (double)bytes);
	bench_print("xpress.in_bytes", (double)in_bytes);
	bench_print("xpress.ns", (double)best);
	bench_print("xpress.file_bytes", (double)comp_len);

	/* The reader: decompression and the walk of every record. */
	if (etw_etl_open(argv[2], &etl, &err) < 0)
		bench_die("%s", err.message);
	t0 = bench_thread_cpu();
	while ((ret = etw_etl_next(etl, &ev)) > 0)
		records++;
	if (ret < 0)
		bench_die("%s", etw_etl_last_error(etl)->message);
	bench_print("xpress.read_ns", (double)(bench_thread_cpu() - t0));
	bench_print("xpress.records", (double)records);
	etw_etl_close(etl);
	free(out);
	free(comp);
	free(sample);
	return 0;
}
