// SPDX-License-Identifier: GPL-2.0
/*
 * etw dump: print the records of ETL files, in the manner of Windows'
 * tracerpt: text, CSV, JSON or XML, or a summary of the header and of the
 * records per provider and per event.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <etw_etl.h>

#include "dump.h"
#include "etw.h"

static const struct dump_format *const formats[] = {
	&dump_text, &dump_csv, &dump_json, &dump_xml,
};

#define N_FORMATS	(sizeof(formats) / sizeof(formats[0]))

/* What one record needs to be rendered, reused from record to record. */
struct prep {
	struct dump_event e;
	struct sbuf provider_name;
	struct sbuf event_name;
	struct sbuf tmp;
};

static void usage(FILE *out)
{
	fputs("usage: etw dump [options] FILE...\n"
	      "\n"
	      "Print the records of ETL trace files.\n"
	      "\n"
	      "  -f, --format FORMAT  text (default), csv, json or xml\n"
	      "  -s, --summary        the header and counts per provider and event\n"
	      "      --order ORDER    time (default: all processors merged) or file\n"
	      "  -o, --output FILE    write to FILE instead of standard output\n"
	      "  -h, --help           this text\n", out);
}

static const char *bits_suffix(const struct etw_etl_event *ev)
{
	if (ev->kind == ETW_ETL_KIND_MESSAGE || ev->kind == ETW_ETL_KIND_ERROR)
		return "";
	return ev->pointer_size == 4 ? "32" : "64";
}

static void names(struct prep *pp, const struct etw_etl_event *ev)
{
	struct dump_event *e = &pp->e;

	e->provider_name = NULL;
	e->event_name = NULL;
	if (ev->has & ETW_ETL_HAS_PROVIDER) {
		etw_etl_guid_to_str(&ev->provider, e->provider);
		e->provider_name = etw_etl_kernel_provider_name(&ev->provider);
	} else {
		e->provider[0] = '\0';
	}
	for (uint32_t i = 0; i < ev->ext_count; i++) {
		const struct etw_etl_ext_item *x = &ev->ext[i];

		if (x->type == ETW_ETL_EXT_PROV_TRAITS)
			e->provider_name = tl_provider_name(x, &pp->provider_name);
		else if (x->type == ETW_ETL_EXT_EVENT_SCHEMA_TL)
			e->event_name = tl_event_name(x, &pp->event_name);
	}
}

static void ext_items(struct prep *pp, const struct etw_etl_event *ev)
{
	kv_reset(&pp->e.ext);
	for (uint32_t i = 0; i < ev->ext_count; i++) {
		const struct etw_etl_ext_item *x = &ev->ext[i];
		const char *name = etw_etl_ext_type_name(x->type);
		char num[8];

		if (!name) {
			snprintf(num, sizeof(num), "0x%04x", x->type);
			name = num;
		}
		ext_value(x, &pp->tmp);
		kv_add(&pp->e.ext, name, NULL, false, "%s", pp->tmp.p);
	}
	kv_finish(&pp->e.ext);
}

static void payload(struct prep *pp, const struct etw_etl_event *ev)
{
	kv_reset(&pp->e.fields);
	pp->e.decoded = false;
	for (uint32_t i = 0; i < ev->ext_count; i++)
		if (ev->ext[i].type == ETW_ETL_EXT_EVENT_SCHEMA_TL) {
			pp->e.decoded = tl_decode(ev, &ev->ext[i], &pp->e.fields);
			break;
		}
	if (!pp->e.decoded)
		kv_reset(&pp->e.fields);
	kv_finish(&pp->e.fields);
}

/* Everything the formats print; only names for a summary. */
static void prepare(struct prep *pp, const struct etw_etl_event *ev,
		    uint64_t index, bool full)
{
	struct dump_event *e = &pp->e;

	e->ev = ev;
	e->index = index;
	names(pp, ev);
	if (!full)
		return;
	snprintf(e->kind, sizeof(e->kind), "%s%s", etw_etl_kind_name(ev->kind),
		 bits_suffix(ev));
	e->time[0] = '\0';
	if (ev->has & ETW_ETL_HAS_FILETIME)
		format_filetime(ev->filetime, e->time, sizeof(e->time));
	ext_items(pp, ev);
	payload(pp, ev);
}

static void prep_free(struct prep *pp)
{
	kv_free(&pp->e.ext);
	kv_free(&pp->e.fields);
	sb_free(&pp->provider_name);
	sb_free(&pp->event_name);
	sb_free(&pp->tmp);
}

static int records(struct dump *d, struct etw_etl *etl, enum etw_etl_order order)
{
	struct dump_counter *counter = d->summary ? counter_new() : NULL;
	struct dump_summary s = { 0 };
	struct prep pp = { 0 };
	struct etw_etl_event ev;
	int ret;

	etw_etl_rewind(etl, order);
	while ((ret = etw_etl_next(etl, &ev)) > 0) {
		prepare(&pp, &ev, s.records, !d->summary);
		if (counter)
			counter_add(counter, &pp.e);
		else
			d->fmt->event(d, &pp.e);
		if (!ev.buffer)
			s.header_records++;
		s.records++;
	}
	if (counter) {
		counter_result(counter, &s);
		d->fmt->summary(d, &s);
		counter_free(counter);
	}
	prep_free(&pp);
	return ret;
}

static int dump_file(struct dump *d, const char *path, enum etw_etl_order order)
{
	struct kv_list header = { 0 };
	struct etw_etl_error err;
	struct etw_etl *etl;
	int ret;

	d->path = path;
	ret = etw_etl_open(path, &etl, &err);
	if (ret < 0) {
		d->fmt->file_begin(d, path, NULL);
		d->fmt->file_end(d, &err);
		return etw_error("dump: %s: %s", path, err.message);
	}
	dump_header_kvs(etw_etl_get_header(etl), &header);
	d->fmt->file_begin(d, path, &header);
	kv_free(&header);
	ret = records(d, etl, order);
	d->fmt->file_end(d, ret < 0 ? etw_etl_last_error(etl) : NULL);
	if (ret < 0)
		etw_error("dump: %s: %s", path, etw_etl_last_error(etl)->message);
	etw_etl_close(etl);
	return ret < 0;
}

static const struct dump_format *find_format(const char *name)
{
	for (size_t i = 0; i < N_FORMATS; i++)
		if (!strcmp(name, formats[i]->name))
			return formats[i];
	return NULL;
}

struct options {
	const struct dump_format *fmt;
	bool summary;
	enum etw_etl_order order;
	const char *output;
};

/* Returns -1 to go on, else the exit status. */
static int parse_options(int argc, char **argv, struct options *o)
{
	static const struct option longopts[] = {
		{ "format", required_argument, NULL, 'f' },
		{ "summary", no_argument, NULL, 's' },
		{ "order", required_argument, NULL, 'O' },
		{ "output", required_argument, NULL, 'o' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	opterr = 0;
	while ((c = getopt_long(argc, argv, ":f:so:h", longopts, NULL)) != -1) {
		switch (c) {
		case 'f':
			o->fmt = find_format(optarg);
			if (!o->fmt)
				return etw_error("dump: unknown format '%s' (text, csv, json, xml)",
						 optarg) + 1;
			break;
		case 's':
			o->summary = true;
			break;
		case 'O':
			if (strcmp(optarg, "time") && strcmp(optarg, "file"))
				return etw_error("dump: unknown order '%s' (time, file)",
						 optarg) + 1;
			o->order = strcmp(optarg, "time") ? ETW_ETL_ORDER_FILE :
							    ETW_ETL_ORDER_TIME;
			break;
		case 'o':
			o->output = optarg;
			break;
		case 'h':
			usage(stdout);
			return 0;
		case ':':
			return etw_error("dump: option '%s' needs an argument",
					 argv[optind - 1]) + 1;
		default:
			return etw_error("dump: unknown option '%s'; see 'etw dump --help'",
					 argv[optind - 1]) + 1;
		}
	}
	if (optind >= argc) {
		usage(stderr);
		return 2;
	}
	return -1;
}

static int run(struct dump *d, int nfiles, char **files,
	       enum etw_etl_order order)
{
	int status = 0;

	d->fmt->begin(d);
	for (int i = 0; i < nfiles; i++)
		status |= dump_file(d, files[i], order);
	d->fmt->end(d);
	return status;
}

int cmd_dump(int argc, char **argv)
{
	struct options o = { .fmt = &dump_text, .order = ETW_ETL_ORDER_TIME };
	struct dump d = { 0 };
	int ret;

	ret = parse_options(argc, argv, &o);
	if (ret >= 0)
		return ret;
	d.out = stdout;
	if (o.output) {
		d.out = fopen(o.output, "w");
		if (!d.out)
			return etw_error("dump: cannot create %s: %s", o.output,
					 strerror(errno));
	}
	setvbuf(d.out, NULL, _IOFBF, 1 << 16);
	d.fmt = o.fmt;
	d.summary = o.summary;
	ret = run(&d, argc - optind, argv + optind, o.order);
	kv_free(&d.kvs);
	if (fflush(d.out) || ferror(d.out))
		ret = etw_error("dump: write error: %s", strerror(errno));
	if (d.out != stdout && fclose(d.out))
		ret = etw_error("dump: write error: %s", strerror(errno));
	return ret;
}
