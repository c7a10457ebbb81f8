// SPDX-License-Identifier: GPL-2.0
/*
 * etw dump: print the records of ETL files, in the manner of Windows'
 * tracerpt: text, CSV, JSON or XML, or a summary of the header and of the
 * records per provider and per event; or as Windows' tracefmt, WPP
 * records formatted from their TMF files.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdio_ext.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <etw_etl.h>
#include <etw_manifest.h>

#include "ctl.h"
#include "dump/dump.h"
#include "etw.h"
#include "model/stack.h"

static void usage(FILE *out)
{
	fputs("usage: etw dump [options] FILE...\n"
	      "\n"
	      "Print the records of ETL trace files.\n"
	      "\n"
	      "  -f, --format FORMAT  text (default), csv, json, xml or tracefmt\n"
	      "  -s, --summary        the header, counts per provider and event, and\n"
	      "                       the processes\n"
	      "      --order ORDER    time (default: all processors merged) or file\n"
	      "  -o, --output FILE    write to FILE instead of standard output\n"
	      "  -m, --manifest FILE  decode with this instrumentation manifest too\n"
	      "                       (before the installed ones; may be repeated)\n"
	      "      --tmf PATH       WPP: a TMF file, or a folder of <guid>.tmf files\n"
	      "                       (may be repeated; then TRACE_FORMAT_SEARCH_PATH);\n"
	      "                       text output becomes tracefmt's\n"
	      "      --wpp-binary FILE  WPP: the TMFs a program carries (.etw.tmf)\n"
	      "      --gmt            tracefmt times in UTC (default: local time)\n"
	      "      --no-prefix      tracefmt lines without TRACE_FORMAT_PREFIX's prefix\n"
	      "  -h, --help           this text\n", out);
}

/* Files that take long enough to show progress for. */
#define PROGRESS_MIN_SIZE	(1 << 20)

static int records(struct dump *d, struct etw_etl *etl, enum etw_etl_order order)
{
	struct dump_counter *counter = d->summary ? counter_new() : NULL;
	struct dump_procs *procs = procs_new();
	struct stack_dump *stacks = stack_dump_new(d->summary);
	struct dump_summary s = { 0 };
	uint64_t size = etw_etl_get_header(etl)->file_size, done = 0;
	struct dump_prep pp = { .procs = procs, .wpp = d->wpp };
	struct etw_etl_event ev;
	struct progress pg;
	int ret;

	/* Large files only, and not over records going to the same terminal. */
	progress_init(&pg, "dump", size >= PROGRESS_MIN_SIZE &&
		      (d->summary || !isatty(fileno(d->out))));
	etw_etl_rewind(etl, order);
	while ((ret = etw_etl_next(etl, &ev)) > 0) {
		/* Time order jumps between buffers: the furthest one read. */
		if (ev.offset > done)
			done = ev.offset;
		progress_show(&pg, "%s: %llu%% (%llu of %llu MiB)", d->path,
			      (unsigned long long)(done * 100 / (size ? size : 1)),
			      (unsigned long long)(done >> 20),
			      (unsigned long long)(size >> 20));
		stack_dump_event(stacks, &ev);
		dump_prepare(&pp, &ev, s.records, !d->summary);
		procs_add(procs, &pp.e, &pp.dec, pp.dec_ret);
		if (counter) {
			counter_add(counter, &pp.e);
		} else {
			stack_dump_annotate(stacks, &ev, &pp.e.fields);
			d->fmt->event(d, &pp.e);
		}
		if (!ev.buffer)
			s.header_records++;
		s.records++;
	}
	progress_done(&pg);
	if (counter) {
		counter_result(counter, &s);
		s.processes = procs_table(procs, &s.nprocesses);
		d->fmt->summary(d, &s);
		stack_dump_summary(stacks, d);
		counter_free(counter);
	}
	stack_dump_free(stacks);
	dump_prep_free(&pp);
	procs_free(procs);
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
		return ctl_fail_win32("dump", path, etw_etl_win32_error(ret),
				      err.message);
	}
	d->header = etw_etl_get_header(etl);
	dump_header_kvs(d->header, &header);
	d->fmt->file_begin(d, path, &header);
	kv_free(&header);
	ret = records(d, etl, order);
	d->fmt->file_end(d, ret < 0 ? etw_etl_last_error(etl) : NULL);
	d->header = NULL;
	if (ret < 0)
		ctl_fail_win32("dump", path, etw_etl_win32_error(ret),
			       etw_etl_last_error(etl)->message);
	etw_etl_close(etl);
	return ret < 0;
}

/* --manifest: known to this run's decoder before any installed one. */
static int load_manifest(const char *path)
{
	struct etw_manifest_error err;
	int ret = etw_manifest_load(path, &err);

	if (!ret)
		return 0;
	if (ret == -EBADMSG && err.line)
		return etw_error("dump: %s:%lu: %s", path, err.line, err.message);
	if (ret == -EBADMSG)
		return etw_error("dump: %s: %s", path, err.message);
	return etw_error("dump: %s: %s", path, strerror(-ret));
}

struct options {
	const struct dump_format *fmt;
	bool format_given;
	bool summary;
	enum etw_etl_order order;
	const char *output;
	/* WPP: --tmf and --wpp-binary in order, as sources of TMFs. */
	char **tmf;
	bool *tmf_binary;
	int ntmf;
	struct etw_wpp_options wpp;
};

static int add_tmf_source(struct options *o, char *arg, bool binary)
{
	char **t = realloc(o->tmf, (size_t)(o->ntmf + 1) * sizeof(*t));
	bool *b;

	if (t)
		o->tmf = t;
	b = realloc(o->tmf_binary, (size_t)(o->ntmf + 1) * sizeof(*b));
	if (b)
		o->tmf_binary = b;
	if (!t || !b)
		return etw_error("dump: out of memory");
	o->tmf[o->ntmf] = arg;
	o->tmf_binary[o->ntmf++] = binary;
	return 0;
}

static int tmf_error(const char *what, const struct etw_tmf_error *err)
{
	if (err->line)
		return etw_error("dump: %s:%lu: %s", err->file, err->line,
				 err->message);
	return etw_error("dump: %s: %s", what, err->message);
}

/*
 * The TMF store of --tmf, --wpp-binary and TRACE_FORMAT_SEARCH_PATH,
 * in that order (tracefmt's -tmf, -p, then the variable).
 */
static int open_wpp(struct dump *d, struct options *o)
{
	const char *path = getenv("TRACE_FORMAT_SEARCH_PATH");
	const char *prefix = getenv("TRACE_FORMAT_PREFIX");
	struct etw_tmf_error err;
	struct stat st;

	if (!o->ntmf && d->fmt != &dump_tracefmt && !(path && *path))
		return 0;
	if (prefix && *prefix)
		o->wpp.prefix = prefix;
	if (dump_wpp_new(&d->wpp, &o->wpp))
		return etw_error("dump: out of memory");
	d->wpp->gmt = o->wpp.gmt;
	for (int i = 0; i < o->ntmf; i++) {
		const char *src = o->tmf[i];
		int ret;

		if (o->tmf_binary[i]) {
			ret = etw_tmf_store_add_binary(d->wpp->store, src, &err);
		} else if (!stat(src, &st) && S_ISDIR(st.st_mode)) {
			ret = etw_tmf_store_add_dir(d->wpp->store, src);
			if (ret)
				return etw_error("dump: %s: %s", src, strerror(-ret));
		} else {
			ret = etw_tmf_store_add_file(d->wpp->store, src, &err);
		}
		if (ret)
			return tmf_error(src, &err);
	}
	if (path && etw_tmf_store_add_search_path(d->wpp->store, path))
		return etw_error("dump: out of memory");
	return 0;
}

/* Returns -1 to go on, else the exit status. */
static int parse_options(int argc, char **argv, struct options *o)
{
	static const struct option longopts[] = {
		{ "format", required_argument, NULL, 'f' },
		{ "summary", no_argument, NULL, 's' },
		{ "order", required_argument, NULL, 'O' },
		{ "output", required_argument, NULL, 'o' },
		{ "manifest", required_argument, NULL, 'm' },
		{ "tmf", required_argument, NULL, 'T' },
		{ "wpp-binary", required_argument, NULL, 'B' },
		{ "gmt", no_argument, NULL, 'G' },
		{ "no-prefix", no_argument, NULL, 'P' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	opterr = 0;
	while ((c = getopt_long(argc, argv, ":f:so:m:h", longopts, NULL)) != -1) {
		switch (c) {
		case 'f':
			o->fmt = dump_find_format(optarg);
			if (!o->fmt)
				return etw_error("dump: unknown format '%s' (text, csv, json, xml, tracefmt)",
						 optarg) + 1;
			o->format_given = true;
			break;
		case 'T':
		case 'B':
			if (add_tmf_source(o, optarg, c == 'B'))
				return 1;
			break;
		case 'G':
			o->wpp.gmt = true;
			break;
		case 'P':
			o->wpp.no_prefix = true;
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
		case 'm':
			if (load_manifest(optarg))
				return 1;
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			return etw_bad_option("dump", c, argv);
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
		goto out;
	/* TMFs given: text is tracefmt's text. */
	if (o.ntmf && !o.format_given)
		o.fmt = &dump_tracefmt;
	d.fmt = o.fmt;
	ret = open_wpp(&d, &o);
	if (ret)
		goto out;
	d.out = stdout;
	if (o.output) {
		d.out = fopen(o.output, "w");
		if (!d.out) {
			ret = etw_error("dump: cannot create %s: %s", o.output,
					strerror(errno));
			goto out;
		}
	}
	setvbuf(d.out, NULL, _IOFBF, 1 << 16);
	/* One thread writes it: no lock taken and dropped per putc(). */
	__fsetlocking(d.out, FSETLOCKING_BYCALLER);
	d.summary = o.summary;
	ret = run(&d, argc - optind, argv + optind, o.order);
	kv_free(&d.kvs);
	sb_free(&d.sb);
	if (fflush(d.out) || ferror(d.out))
		ret = etw_error("dump: write error: %s", strerror(errno));
	if (d.out != stdout && fclose(d.out))
		ret = etw_error("dump: write error: %s", strerror(errno));
out:
	dump_wpp_free(d.wpp);
	free(o.tmf);
	free(o.tmf_binary);
	return ret;
}
