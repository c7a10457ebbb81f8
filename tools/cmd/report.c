// SPDX-License-Identifier: GPL-2.0
/*
 * etw report: what the kernel logger's CPU samples say.  CPU samples per
 * process, module and function (exclusive and inclusive, with PerfView's
 * When column), the hottest stacks with their frames named, the callers
 * and callees of one function, or folded stacks ("process;root;...;leaf
 * count") for flame graph tools.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <etw_etl.h>

#include "cmd/trace_opts.h"
#include "etw.h"
#include "model/stack.h"

static void usage(FILE *out)
{
	fputs("usage: etw report [options] FILE...\n"
	      "\n"
	      "The CPU samples of kernel-logger traces (PROFILE) and their stacks.\n"
	      "\n"
	      "  -n, --top N          the N hottest stacks, N rows a table (default 10)\n"
	      "  -F, --folded         folded stacks for flame graphs, nothing else\n"
	      "  -s, --summary        samples per process and per module only\n"
	      "  -b, --butterfly FUNC callers and callees of function FUNC (its\n"
	      "                       name, or a part of one name), nothing else\n"
	      "  -S, --sched          context switches (CSWITCH, DISPATCHER): per\n"
	      "                       thread running, ready and waiting time, and\n"
	      "                       the longest waits, nothing else\n"
	      TRACE_OPTS_SYMBOLS_HELP
	      "  -o, --output FILE    write to FILE instead of standard output\n"
	      "  -h, --help           this text\n", out);
}

struct options {
	unsigned int top;
	bool folded;
	bool summary;
	const char *butterfly;
	bool sched;
	const char *output;
	struct stack_options stack;
};

/* Returns -1 to go on, else the exit status. */
static int parse_options(int argc, char **argv, struct options *o)
{
	static const struct option longopts[] = {
		{ "top", required_argument, NULL, 'n' },
		{ "folded", no_argument, NULL, 'F' },
		{ "summary", no_argument, NULL, 's' },
		{ "butterfly", required_argument, NULL, 'b' },
		{ "sched", no_argument, NULL, 'S' },
		TRACE_OPTS_SYMBOLS,
		{ "output", required_argument, NULL, 'o' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	char *end;
	long n;
	int c, ret;

	opterr = 0;
	while ((c = getopt_long(argc, argv, ":n:Fsb:So:h", longopts, NULL)) != -1) {
		switch (c) {
		case 'n':
			errno = 0;
			n = strtol(optarg, &end, 10);
			if (errno || *end || end == optarg || n < 1 || n > 1000000)
				return etw_error("report: --top needs a number from 1 to 1000000, not '%s'",
						 optarg) + 1;
			o->top = (unsigned int)n;
			break;
		case 'F':
			o->folded = true;
			break;
		case 's':
			o->summary = true;
			break;
		case 'b':
			o->butterfly = optarg;
			break;
		case 'S':
			o->sched = true;
			break;
		case 'o':
			o->output = optarg;
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			ret = trace_opts_other("report", c, argv, &o->stack);
			if (ret >= 0)
				return ret;
			break;
		}
	}
	if (o->folded + o->summary + !!o->butterfly + o->sched > 1)
		return etw_error("report: --folded, --summary, --butterfly and --sched do not go together") + 1;
	if (optind >= argc) {
		usage(stderr);
		return 2;
	}
	return -1;
}

/* What one file's records go to. */
struct report {
	struct stack_model *m;
	struct stack_samples *s;
	struct stack_sched *c;
};

static void report_record(void *arg, const struct etw_etl_event *ev)
{
	struct report *r = arg;

	stack_model_event(r->m, ev);
	stack_samples_event(r->s, ev);
	if (r->c)
		stack_sched_event(r->c, ev);
}

int cmd_report(int argc, char **argv)
{
	static const struct trace_reader rd = { .record = report_record };
	struct options o = { .top = 10 };
	struct report r;
	FILE *out = stdout;
	int ret, status = 0;

	ret = parse_options(argc, argv, &o);
	if (ret >= 0)
		return ret;
	if (o.output) {
		out = fopen(o.output, "w");
		if (!out)
			return etw_error("report: cannot create %s: %s", o.output,
					 strerror(errno));
	}
	/* Each file is a trace of its own: its processes, images and counts. */
	for (int i = optind; i < argc; i++) {
		r.m = stack_model_new(&o.stack);
		r.s = stack_samples_new(r.m);
		r.c = o.sched ? stack_sched_new(r.s, o.top) : NULL;
		status |= trace_opts_read("report", argv[i], &rd, &r);
		stack_samples_finish(r.s);
		if (argc - optind > 1 && !o.folded)
			fprintf(out, "%sFile: %s\n", i > optind ? "\n" : "", argv[i]);
		if (o.folded) {
			stack_samples_print_folded(r.s, out);
		} else if (o.summary) {
			stack_samples_print_summary(r.s, out);
		} else if (r.c) {
			stack_sched_print(r.c, out, o.top);
		} else if (o.butterfly) {
			if (stack_samples_print_butterfly(r.s, out, o.butterfly, o.top))
				status = 1;
		} else {
			stack_samples_print_totals(r.s, out);
			stack_samples_print_processes(r.s, out, o.top);
			stack_samples_print_modules(r.s, out, o.top);
			stack_samples_print_functions(r.s, out, o.top);
			fputc('\n', out);
			stack_samples_print_hot(r.s, out, o.top);
		}
		stack_sched_free(r.c);
		stack_samples_free(r.s);
		stack_model_free(r.m);
	}
	if (fflush(out) || ferror(out))
		status = etw_error("report: write error: %s", strerror(errno));
	if (out != stdout && fclose(out))
		status = etw_error("report: write error: %s", strerror(errno));
	return status;
}
