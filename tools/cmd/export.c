// SPDX-License-Identifier: GPL-2.0
/*
 * etw export: traces written for viewers, speedscope's JSON and
 * Perfetto's protobuf trace (tools/export/, Documentation/viewers.rst).
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/trace_opts.h"
#include "etw.h"
#include "export/export.h"

static void usage(FILE *out)
{
	fputs("usage: etw export --format FORMAT [options] FILE... -o OUT\n"
	      "\n"
	      "Write traces in a viewer's format.\n"
	      "\n"
	      "  -f, --format FORMAT  speedscope (JSON, for speedscope) or perfetto\n"
	      "                       (protobuf, for Perfetto UI)\n"
	      "  -o, --output FILE    the file to write (required)\n"
	      "  -p, --pid PID        only this process (may be repeated)\n"
	      "      --process NAME   only processes of this image name (may be repeated)\n"
	      "      --start SEC      only from SEC seconds after the trace's start\n"
	      "      --end SEC        only up to SEC seconds after the trace's start\n"
	      TRACE_OPTS_SYMBOLS_HELP
	      "  -h, --help           this text\n", out);
}

/* Seconds (decimal) as ns; false if not a number >= 0. */
static bool parse_seconds(const char *s, int64_t *ns)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	if (errno || *end || end == s || !(v >= 0) || v > 9.2e9)
		return false;
	*ns = (int64_t)(v * 1e9);
	return true;
}

/* Returns -1 to go on, else the exit status. */
static int parse_options(int argc, char **argv, struct export_options *o)
{
	static const struct option longopts[] = {
		{ "format", required_argument, NULL, 'f' },
		{ "output", required_argument, NULL, 'o' },
		{ "pid", required_argument, NULL, 'p' },
		{ "process", required_argument, NULL, 'P' },
		{ "start", required_argument, NULL, 'S' },
		{ "end", required_argument, NULL, 'E' },
		TRACE_OPTS_SYMBOLS,
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	char *end;
	unsigned long n;
	int c, ret;

	opterr = 0;
	while ((c = getopt_long(argc, argv, ":f:o:p:h", longopts, NULL)) != -1) {
		switch (c) {
		case 'f':
			if (strcmp(optarg, "speedscope") && strcmp(optarg, "perfetto"))
				return etw_error("export: unknown format '%s' (speedscope, perfetto)",
						 optarg) + 1;
			o->format = optarg;
			break;
		case 'o':
			o->output = optarg;
			break;
		case 'p':
			errno = 0;
			n = strtoul(optarg, &end, 10);
			if (errno || *end || end == optarg || n > UINT32_MAX - 1)
				return etw_error("export: --pid needs a process id, not '%s'",
						 optarg) + 1;
			if (o->npids == EXPORT_MAX_FILTERS)
				return etw_error("export: at most %d --pid", EXPORT_MAX_FILTERS) + 1;
			o->pids[o->npids++] = (uint32_t)n;
			break;
		case 'P':
			if (o->nnames == EXPORT_MAX_FILTERS)
				return etw_error("export: at most %d --process", EXPORT_MAX_FILTERS) + 1;
			o->names[o->nnames++] = optarg;
			break;
		case 'S':
			if (!parse_seconds(optarg, &o->start_ns))
				return etw_error("export: --start needs seconds (0 or more), not '%s'",
						 optarg) + 1;
			break;
		case 'E':
			if (!parse_seconds(optarg, &o->end_ns))
				return etw_error("export: --end needs seconds (0 or more), not '%s'",
						 optarg) + 1;
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			ret = trace_opts_other("export", c, argv, &o->stack);
			if (ret >= 0)
				return ret;
			break;
		}
	}
	if (optind >= argc) {
		usage(stderr);
		return 2;
	}
	if (!o->format)
		return etw_error("export: which format? --format speedscope or --format perfetto") + 1;
	if (!o->output)
		return etw_error("export: where to? -o FILE") + 1;
	if (o->end_ns < o->start_ns)
		return etw_error("export: --end is before --start") + 1;
	return -1;
}

int cmd_export(int argc, char **argv)
{
	struct export_options o = { .end_ns = INT64_MAX };
	const struct export_format *fmt;
	FILE *out;
	int ret;

	ret = parse_options(argc, argv, &o);
	if (ret >= 0)
		return ret;
	fmt = strcmp(o.format, "perfetto") ? &export_speedscope : &export_perfetto;
	out = fopen(o.output, "w");
	if (!out)
		return etw_error("export: cannot create %s: %s", o.output, strerror(errno));
	setvbuf(out, NULL, _IOFBF, 1 << 16);
	ret = export_run(&o, fmt, argv + optind, argc - optind, out);
	if (fflush(out) || ferror(out))
		ret = etw_error("export: write error on %s: %s", o.output, strerror(errno));
	if (fclose(out))
		ret = etw_error("export: write error on %s: %s", o.output, strerror(errno));
	return ret;
}
