/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers of the ETL reader tests: where the sample files are, and a
 * builder of small synthetic ETL images, little-endian byte by byte.
 */
#ifndef ETL_TEST_H
#define ETL_TEST_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <etw_etl.h>

/*
 * Windows-written samples: the repository's testdata/etl (tests run from
 * the top of the tree), or $ETW_SAMPLES to try others.
 */
static inline const char *samples_dir(void)
{
	const char *dir = getenv("ETW_SAMPLES");

	return dir && *dir ? dir : "testdata/etl";
}

/* The path of sample @file in the char array @buf; fails if it is missing. */
#define SAMPLE_PATH(buf, file) do {						\
	snprintf(buf, sizeof(buf), "%s/%s", samples_dir(), file);		\
	ASSERT_EQ(0, access(buf, R_OK))						\
		TH_LOG("sample %s is missing", buf);				\
} while (0)

/* What the samples' README.md and the notes say about each file. */
struct sample_facts {
	const char *file;
	const char *logger;
	uint32_t buffer_size;		/* 0: not stated */
	uint32_t mode;
	uint32_t cpus;			/* 0: not stated */
	uint32_t build;			/* 0: not stated */
	uint32_t events;		/* after the header group */
	uint32_t header_group;		/* records in buffer 0 (notes 2.5) */
	uint32_t events_lost;
	uint32_t plain;			/* EVENT_HEADER64 events, no extended items */
	bool kernel;			/* SYSTEM64/PERFINFO64 records */
};

static const struct sample_facts sample_amsitrace __attribute__((unused)) = {
	.file = "etlparser-AMSITrace.etl",
	.logger = "AMSITraceSession",
	.buffer_size = 64 * 1024,
	.mode = 0x08000001,
	.cpus = 8,			/* notes 2.6 */
	.build = 18362,
	.events = 19,
	.header_group = 2,
	.events_lost = 3,
};

static const struct sample_facts sample_lxcore __attribute__((unused)) = {
	.file = "etlparser-lxcore_kernel.etl",
	.logger = "lxcore_kernel",
	.buffer_size = 8 * 1024,
	.mode = 0,
	.build = 19041,
	.events = 2,
	.header_group = 2,
};

static const struct sample_facts sample_powershell __attribute__((unused)) = {
	.file = "krabsetw-powershell.etl",
	.logger = "usermode_trace",	/* notes 7 */
	.buffer_size = 8 * 1024,
	.mode = 0x9,
	.cpus = 32,
	.build = 22623,
	.events = 112,
	.header_group = 2,
	.plain = 112,
};

static const struct sample_facts sample_perfdiag __attribute__((unused)) = {
	.file = "etlparser-ShutdownPerfDiagLogger.etl",
	.logger = "PerfDiag Logger",
	.mode = 0x02000080,
	.cpus = 2,
	.events = 17075,
	.header_group = 3,
	.kernel = true,
};

/* The whole file in a malloc()ed buffer, or NULL. */
static inline uint8_t *read_sample(const char *name, size_t *size)
{
	char path[4096];
	uint8_t *p = NULL;
	long n;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", samples_dir(), name);
	f = fopen(path, "rb");
	if (!f)
		return NULL;
	n = fseek(f, 0, SEEK_END) ? -1 : ftell(f);
	if (n > 0 && !fseek(f, 0, SEEK_SET)) {
		p = malloc(n);
		if (p && fread(p, 1, n, f) != (size_t)n) {
			free(p);
			p = NULL;
		}
		*size = n;
	}
	fclose(f);
	return p;
}

static inline int guid_eq(const struct etw_etl_guid *g, const char *s)
{
	char buf[ETW_ETL_GUID_STRLEN];

	etw_etl_guid_to_str(g, buf);
	return !strcmp(buf, s);
}

/* An image under construction; cur is the buffer being filled. */
struct img {
	uint8_t p[1 << 17];
	size_t len;
	size_t cur;			/* offset of the open buffer */
	uint32_t buffer_size;
};

static inline void put_le(uint8_t *p, uint64_t v, int n)
{
	for (int i = 0; i < n; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

/* A buffer of the image's size: header, 0xff filler; records follow. */
static inline void img_buffer(struct img *m, uint16_t cpu, int64_t seq,
			      uint16_t flags, uint16_t type)
{
	uint8_t *b;

	m->cur = m->len;
	m->len += m->buffer_size;
	b = m->p + m->cur;
	memset(b, 0xff, m->buffer_size);
	memset(b, 0, 0x48);
	put_le(b + 0x00, m->buffer_size, 4);
	put_le(b + 0x04, 0x48, 4);
	put_le(b + 0x08, 0x48, 4);
	put_le(b + 0x18, (uint64_t)seq, 8);
	put_le(b + 0x28, cpu, 2);
	put_le(b + 0x2c, 3, 4);
	put_le(b + 0x30, 0x48, 4);
	put_le(b + 0x34, flags, 2);
	put_le(b + 0x36, type, 2);
}

/* Room for a record of size bytes in the open buffer; 8-aligned. */
static inline uint8_t *img_record(struct img *m, uint32_t size)
{
	uint8_t *b = m->p + m->cur;
	uint32_t saved = (uint32_t)b[4] | b[5] << 8 | b[6] << 16 | b[7] << 24;
	uint8_t *r = b + saved;

	memset(r, 0, size);
	saved += (size + 7) & ~7u;
	put_le(b + 0x04, saved, 4);
	put_le(b + 0x08, saved, 4);
	put_le(b + 0x30, saved, 4);
	return r;
}

struct img_header {
	int bits;			/* 32 or 64 */
	uint32_t cpus;
	uint32_t buffers;
	uint32_t clock;
	uint64_t perf_freq;
	uint32_t mhz;
	uint64_t start;			/* FILETIME */
	uint64_t sync;			/* clock at start */
	const uint16_t *names;		/* two UTF-16 strings, NUL-separated */
	size_t name_units;
};

/* Buffer 0 with the header event, as Windows writes it. */
static inline void img_start(struct img *m, const struct img_header *h)
{
	static const uint16_t names[] = { 'l', 'o', 'g', 0, 'f', '.', 'e', 't', 'l', 0 };
	const uint16_t *s = h->names ? h->names : names;
	size_t units = h->names ? h->name_units : 10;
	uint32_t lf = h->bits == 32 ? 0x110 : 0x118, shift = h->bits == 32 ? 8 : 0;
	uint32_t size = 0x20 + lf + 2 * units;
	uint8_t *r, *l;

	m->len = 0;
	if (!m->buffer_size)
		m->buffer_size = 0x1000;
	img_buffer(m, 0, 0, 0x21, 4);
	r = img_record(m, size);
	put_le(r, h->bits == 32 ? 0xc0010002 : 0xc0020002, 4);
	put_le(r + 4, size, 2);
	put_le(r + 8, 11, 4);
	put_le(r + 12, 22, 4);
	put_le(r + 0x10, h->sync, 8);
	l = r + 0x20;
	put_le(l + 0x00, m->buffer_size, 4);
	put_le(l + 0x04, 0x0501000a, 4);
	put_le(l + 0x08, 19041, 4);
	put_le(l + 0x0c, h->cpus, 4);
	put_le(l + 0x10, h->start + 1000000000, 8);
	put_le(l + 0x18, 156250, 4);
	put_le(l + 0x20, 1, 4);
	put_le(l + 0x24, h->buffers, 4);
	put_le(l + 0x28, 1, 4);
	put_le(l + 0x2c, h->bits / 8, 4);
	put_le(l + 0x30, 7, 4);
	put_le(l + 0x34, h->mhz, 4);
	put_le(l + 0x48 - shift, (uint32_t)-60, 4);
	put_le(l + 0xf8 - shift, h->start - 1000000, 8);
	put_le(l + 0x100 - shift, h->perf_freq, 8);
	put_le(l + 0x108 - shift, h->start, 8);
	put_le(l + 0x110 - shift, h->clock, 4);
	put_le(l + 0x114 - shift, 5, 4);
	for (size_t i = 0; i < units; i++)
		put_le(l + lf + 2 * i, s[i], 2);
}

/* Patch BuffersWritten once the image is complete. */
static inline void img_finish(struct img *m)
{
	put_le(m->p + 0x48 + 0x20 + 0x24, m->len / m->buffer_size, 4);
}

/* An EVENT_HEADER64 record with payload bytes of value 0xab. */
static inline uint8_t *img_event(struct img *m, uint64_t ts, uint16_t id,
				 uint32_t payload)
{
	uint8_t *r = img_record(m, 0x50 + payload);

	put_le(r, 0x50 + payload, 2);
	put_le(r + 2, 0xc013, 2);
	put_le(r + 8, 100, 4);
	put_le(r + 12, 200, 4);
	put_le(r + 0x10, ts, 8);
	put_le(r + 0x18, 0x11223344, 4);
	put_le(r + 0x28, id, 2);
	memset(r + 0x50, 0xab, payload);
	return r;
}

#endif /* ETL_TEST_H */
