// SPDX-License-Identifier: GPL-2.0
/*
 * etw-bench-decode: the decoder's part of issue 17 item 6 (host, one
 * core).  From a kernel trace written by Windows (ShutdownPerfDiagLogger:
 * Process, Thread and Image rundown, the EventTrace header) it makes
 *
 *   DECODED  the file's data buffers repeated until it holds RECORDS
 *            records (default 1,000,000): every record decodes;
 *   RAW      the same bytes with each kernel record's version set to one
 *            no class has (0x7f): every record prints as a hex dump;
 *
 * so that etw dump of the two (scripts/bench-host-decode.sh) compares a
 * decoded kernel record with a raw one, record for record, and measures
 * the library's decoder alone on the sample's records:
 *
 *   BENCH decode.records N       records in each file
 *   BENCH decode.file_bytes N
 *   BENCH decode.lib_ns N        etw_decode_etl_event() per record, CPU ns
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <etw_etl.h>
#include <etw_decode.h>

#include "bench.h"

static uint8_t *slurp(const char *path, size_t *size)
{
	FILE *f = fopen(path, "rb");
	uint8_t *p;
	long n;

	if (!f || fseek(f, 0, SEEK_END) || (n = ftell(f)) <= 0)
		bench_die("cannot read %s", path);
	rewind(f);
	p = malloc((size_t)n);
	if (!p || fread(p, 1, (size_t)n, f) != (size_t)n)
		bench_die("cannot read %s", path);
	fclose(f);
	*size = (size_t)n;
	return p;
}

static void spill(const char *path, const uint8_t *p, size_t n)
{
	FILE *f = fopen(path, "wb");

	if (!f || fwrite(p, 1, n, f) != n || fclose(f))
		bench_die("cannot write %s", path);
}

static void put32(uint8_t *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

int main(int argc, char **argv)
{
	uint64_t want = argc > 4 ? strtoull(argv[4], NULL, 0) : 1000000;
	struct etw_decoded_event dec;
	struct etw_etl_error err;
	struct etw_decoder *d;
	struct etw_etl_event ev;
	struct etw_etl *etl;
	size_t size, bufsize, nbuf, out_bufs, per_pass = 0, decoded = 0;
	uint8_t *in, *out;
	uint64_t *offsets = NULL, t0, t1, rounds = 0;
	size_t noff = 0, head = 0;
	double ns;

	if (argc < 4)
		bench_die("usage: etw-bench-decode SAMPLE DECODED RAW [RECORDS]");
	in = slurp(argv[1], &size);
	if (etw_etl_open_mem(in, size, &etl, &err))
		bench_die("%s: %s", argv[1], err.message);
	bufsize = etw_etl_get_header(etl)->buffer_size;
	nbuf = etw_etl_get_header(etl)->buffer_count;
	if (!bufsize || size != bufsize * nbuf || nbuf < 2)
		bench_die("%s: not a file of whole buffers", argv[1]);
	/* The kernel records' offsets (to make them raw) and a count. */
	while (etw_etl_next(etl, &ev) > 0) {
		if (!ev.buffer) {
			head++;
			continue;
		}
		per_pass++;
		if (ev.kind != ETW_ETL_KIND_SYSTEM && ev.kind != ETW_ETL_KIND_PERFINFO &&
		    ev.kind != ETW_ETL_KIND_COMPACT)
			continue;
		offsets = realloc(offsets, (noff + 1) * sizeof(*offsets));
		if (!offsets)
			bench_die("out of memory");
		offsets[noff++] = ev.offset;
	}
	if (!per_pass)
		bench_die("%s: no records", argv[1]);

	/* The decoder alone, on every record of the sample, for >= 1 s. */
	if (etw_decoder_new(&d))
		bench_die("out of memory");
	t0 = bench_thread_cpu();
	do {
		etw_etl_rewind(etl, ETW_ETL_ORDER_FILE);
		while (etw_etl_next(etl, &ev) > 0)
			decoded += !etw_decode_etl_event(d, &ev, &dec);
		rounds++;
		t1 = bench_thread_cpu();
	} while (t1 - t0 < 1000000000ull);
	ns = (double)(t1 - t0) / (double)(rounds * (per_pass + head));
	etw_decoder_free(d);
	etw_etl_close(etl);
	if (decoded != rounds * (per_pass + 3))
		fprintf(stderr, "etw-bench-decode: %zu of %llu records decoded\n",
			decoded, (unsigned long long)(rounds * (per_pass + head)));

	/* Buffer 0, then the data buffers as many times as it takes. */
	out_bufs = 1 + (nbuf - 1) * ((want + per_pass - 1) / per_pass);
	out = malloc(out_bufs * bufsize);
	if (!out)
		bench_die("out of memory");
	memcpy(out, in, bufsize);
	for (size_t b = 1; b < out_bufs; b++)
		memcpy(out + b * bufsize, in + bufsize * (1 + (b - 1) % (nbuf - 1)),
		       bufsize);
	/* BuffersWritten of the header event's TRACE_LOGFILE_HEADER. */
	put32(out + 0x48 + 0x20 + 0x24, (uint32_t)out_bufs);
	spill(argv[2], out, out_bufs * bufsize);
	for (size_t b = 1; b < out_bufs; b++)
		for (size_t i = 0; i < noff; i++) {
			uint64_t at = offsets[i] - bufsize;

			if (at / bufsize == (b - 1) % (nbuf - 1))
				out[b * bufsize + at % bufsize] = 0x7f;
		}
	spill(argv[3], out, out_bufs * bufsize);
	printf("BENCH decode.records %zu\n",
	       per_pass * ((out_bufs - 1) / (nbuf - 1)) + head);
	printf("BENCH decode.file_bytes %zu\n", out_bufs * bufsize);
	printf("BENCH decode.lib_ns %.0f\n", ns);
	free(out);
	free(in);
	free(offsets);
	return 0;
}
