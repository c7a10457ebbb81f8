// SPDX-License-Identifier: GPL-2.0
/*
 * etw dump of Windows' own files (testdata/etl) in every format:
 * text, CSV, XML and JSON each hold every record once (the README's
 * count plus the header group of buffer 0), CSV rows have the header
 * row's fields, XML elements and JSON objects are closed, and --summary
 * gives the records, the events lost and counts per provider that add
 * up.  Counts come from the README, never from the tool.  Needs the etw
 * tool of this build.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <etw_decode.h>

#include "etl_test.h"
#include "kselftest_harness.h"

#ifndef ETW_TOOL_PATH
#define ETW_TOOL_PATH "build/bin/etw"
#endif

/* What one run of etw dump printed, counted line by line. */
struct out {
	long lines;
	long records;		/* lines that start a record in this format */
	long closes;		/* lines that end one */
	long csv_rows;		/* CSV records (quoted newlines inside) */
	long csv_bad_rows;	/* ... with another field count than the header */
	char last[64];		/* the last line */
	long summary_records, summary_header, summary_lost, provider_sum;
	int status;
};

static int starts(const char *line, const char *with)
{
	line += strspn(line, " ");
	return !strncmp(line, with, strlen(with));
}

/* Fields of one CSV line, carrying the quote state across lines. */
static long csv_fields(const char *line, int *quoted)
{
	long n = 0;

	for (; *line && *line != '\n'; line++) {
		if (*line == '"')
			*quoted = !*quoted;
		else if (*line == ',' && !*quoted)
			n++;
	}
	return n;
}

static void summary_line(struct out *o, const char *line)
{
	long a, b;
	char guid[64];

	if (sscanf(line, " Records %ld (%ld in buffer 0)", &a, &b) == 2) {
		o->summary_records = a;
		o->summary_header = b;
	} else if (sscanf(line, " Events lost %ld", &a) == 1) {
		o->summary_lost = a;
	} else if (sscanf(line, " %ld %63[0-9a-f-]", &a, guid) == 2 && strlen(guid) == 36 &&
		   !o->records) {
		o->provider_sum += a;	/* the Providers table comes first */
	} else if (starts(line, "Events:")) {
		o->records = 1;		/* past the Providers table */
	}
}

static void run(struct __test_metadata *_metadata, const char *opts,
		const char *file, struct out *o)
{
	char cmd[4096 + 256], *line = NULL;
	long fields = 0, row = 0;
	int quoted = 0;
	size_t cap = 0;
	FILE *p;

	memset(o, 0, sizeof(*o));
	snprintf(cmd, sizeof(cmd), "%s dump %s '%s/%s'", ETW_TOOL_PATH, opts,
		 samples_dir(), file);
	p = popen(cmd, "r");
	ASSERT_NE(NULL, p);
	while (getline(&line, &cap, p) > 0) {
		o->lines++;
		snprintf(o->last, sizeof(o->last), "%s", line);
		if (!strcmp(opts, "-s")) {
			summary_line(o, line);
			continue;
		}
		if (!strcmp(opts, "-f csv")) {
			row += csv_fields(line, &quoted);
			if (quoted)
				continue;	/* the record goes on */
			if (o->lines == 1)
				fields = row;
			else if (row != fields)
				o->csv_bad_rows++;
			o->csv_rows++;
			row = 0;
			continue;
		}
		if (!strcmp(opts, "-f text"))
			o->records += line[0] == '#' && line[1] >= '0' && line[1] <= '9';
		else if (!strcmp(opts, "-f xml")) {
			o->records += starts(line, "<Event>");
			o->closes += starts(line, "</Event>");
		} else {
			o->records += starts(line, "{\"index\": ");
		}
	}
	free(line);
	o->status = pclose(p);
}

FIXTURE(dump) {
	char path[4096];
	long total;		/* records: the README's events + buffer 0's */
	struct out o;
};

FIXTURE_VARIANT(dump) {
	const struct sample_facts *f;
};

FIXTURE_VARIANT_ADD(dump, amsitrace) { .f = &sample_amsitrace };
FIXTURE_VARIANT_ADD(dump, lxcore) { .f = &sample_lxcore };
FIXTURE_VARIANT_ADD(dump, powershell) { .f = &sample_powershell };
FIXTURE_VARIANT_ADD(dump, perfdiag) { .f = &sample_perfdiag };

FIXTURE_SETUP(dump)
{
	SAMPLE_PATH(self->path, variant->f->file);
	self->total = variant->f->events + variant->f->header_group;
}

FIXTURE_TEARDOWN(dump)
{
}

TEST_F(dump, text)
{
	run(_metadata, "-f text", variant->f->file, &self->o);
	EXPECT_EQ(0, self->o.status);
	EXPECT_EQ(self->total, self->o.records);
}

TEST_F(dump, csv)
{
	run(_metadata, "-f csv", variant->f->file, &self->o);
	EXPECT_EQ(0, self->o.status);
	EXPECT_EQ(self->total + 1, self->o.csv_rows);	/* and the header row */
	EXPECT_EQ(0, self->o.csv_bad_rows);
}

TEST_F(dump, xml)
{
	run(_metadata, "-f xml", variant->f->file, &self->o);
	EXPECT_EQ(0, self->o.status);
	EXPECT_EQ(self->total, self->o.records);
	EXPECT_EQ(self->total, self->o.closes);
	EXPECT_STREQ("</EtwDump>\n", self->o.last);
}

TEST_F(dump, json)
{
	run(_metadata, "-f json", variant->f->file, &self->o);
	EXPECT_EQ(0, self->o.status);
	EXPECT_EQ(self->total, self->o.records);
	EXPECT_STREQ("]}\n", self->o.last);
}

TEST_F(dump, summary)
{
	run(_metadata, "-s", variant->f->file, &self->o);
	EXPECT_EQ(0, self->o.status);
	EXPECT_EQ(self->total, self->o.summary_records);
	EXPECT_EQ(variant->f->header_group, self->o.summary_header);
	EXPECT_EQ(variant->f->events_lost, self->o.summary_lost);
	EXPECT_EQ(self->total, self->o.provider_sum);
}

/* One hex dump of the text output, rebuilt into bytes. */
struct dumped {
	uint64_t offset;	/* the record's, from its second line */
	uint32_t size, got;
	unsigned char *bytes;
	int bad;		/* a line out of place or not as its bytes */
};

static int hexval(char c)
{
	return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

/* "      OOOO  hh hh ...  ascii": offset, 16 bytes, printable text. */
static void hex_line(struct dumped *d, const char *line)
{
	unsigned int off;
	size_t n;

	if (sscanf(line, " %x", &off) != 1 || off != d->got) {
		d->bad++;
		return;
	}
	n = d->size - d->got < 16 ? d->size - d->got : 16;
	for (size_t i = 0; i < n; i++) {
		const char *h = line + 6 + 4 + 1 + 3 * i + 1;
		unsigned char c;

		if (hexval(h[0]) < 0 || hexval(h[1]) < 0) {
			d->bad++;
			return;
		}
		c = (unsigned char)(hexval(h[0]) << 4 | hexval(h[1]));
		d->bytes[d->got + i] = c;
		if (line[6 + 4 + 1 + 48 + 2 + i] != (c >= 0x20 && c < 0x7f ? (char)c : '.'))
			d->bad++;
	}
	d->got += n;
}

/*
 * Every payload the text format prints as a hex dump is the record's
 * payload as the reader sees it at that offset, byte for byte, with the
 * line offsets and the printable column right.
 */
TEST_F(dump, text_payload)
{
	char cmd[4096 + 256], *line = NULL, *at;
	struct dumped *d = NULL;
	size_t cap = 0, nd = 0, matched = 0, raw = 0;
	struct etw_decoded_event decoded;
	struct etw_decoder *dec;
	unsigned long long offset = 0;
	struct etw_etl_event ev;
	struct etw_etl *etl;
	FILE *p;
	int ret;

	snprintf(cmd, sizeof(cmd), "%s dump -f text '%s/%s'", ETW_TOOL_PATH,
		 samples_dir(), variant->f->file);
	p = popen(cmd, "r");
	ASSERT_NE(NULL, p);
	while (getline(&line, &cap, p) > 0) {
		unsigned int size;

		if (!strncmp(line, "    ", 4) && (at = strstr(line, " offset 0x")))
			offset = strtoull(at + 10, NULL, 16);
		else if (sscanf(line, "    payload %u bytes", &size) == 1) {
			d = realloc(d, (nd + 1) * sizeof(*d));
			ASSERT_NE(NULL, d);
			d[nd] = (struct dumped){ .offset = offset, .size = size,
						 .bytes = malloc(size) };
			ASSERT_NE(NULL, d[nd].bytes);
			nd++;
		} else if (nd && !strncmp(line, "      ", 6) &&
			   d[nd - 1].got < d[nd - 1].size)
			hex_line(&d[nd - 1], line);
	}
	free(line);
	EXPECT_EQ(0, pclose(p));

	/*
	 * Raw: exactly the records with a payload that neither libetw's
	 * decoder nor a TraceLogging schema describes.
	 */
	ASSERT_EQ(0, etw_decoder_new(&dec));
	ASSERT_EQ(0, etw_etl_open(self->path, &etl, NULL));
	while ((ret = etw_etl_next(etl, &ev)) > 0) {
		bool tl = false;

		for (uint32_t i = 0; i < ev.ext_count; i++)
			tl |= ev.ext[i].type == ETW_ETL_EXT_EVENT_SCHEMA_TL;
		raw += ev.data_size && !tl &&
		       etw_decode_etl_event(dec, &ev, &decoded) == -ENOENT;
		for (size_t i = 0; i < nd; i++) {
			if (d[i].offset != ev.offset)
				continue;
			EXPECT_EQ(0, d[i].bad);
			EXPECT_EQ(ev.data_size, d[i].got);
			if (ev.data_size == d[i].got)
				EXPECT_EQ(0, memcmp(ev.data, d[i].bytes, d[i].got));
			matched++;
			break;
		}
	}
	EXPECT_EQ(0, ret);
	etw_etl_close(etl);
	etw_decoder_free(dec);
	EXPECT_EQ(nd, matched);
	EXPECT_EQ(raw, nd);
	for (size_t i = 0; i < nd; i++)
		free(d[i].bytes);
	free(d);
}

TEST_HARNESS_MAIN
