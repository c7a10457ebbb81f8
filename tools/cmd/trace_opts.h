/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What etw report and etw export share: the options that say where
 * symbols come from, getopt's errors, and reading a trace file in time
 * order record by record.
 */
#ifndef ETW_TOOL_TRACE_OPTS_H
#define ETW_TOOL_TRACE_OPTS_H

#include <getopt.h>

#include <etw_etl.h>

#include "model/stack.h"

/* Their long options (with "D", "K", "N" as the values getopt returns). */
#define TRACE_OPTS_SYMBOLS \
	{ "debug-dir", required_argument, NULL, 'D' }, \
	{ "kallsyms", required_argument, NULL, 'K' }, \
	{ "no-kallsyms", no_argument, NULL, 'N' }

/* Their lines of --help. */
#define TRACE_OPTS_SYMBOLS_HELP \
	"      --debug-dir DIR  look for debug files in DIR (by build-id,\n" \
	"                       .gnu_debuglink) before /usr/lib/debug\n" \
	"      --kallsyms FILE  kernel symbols from FILE (default: /proc/kallsyms\n" \
	"                       when the trace's kernel image is the running one)\n" \
	"      --no-kallsyms    leave kernel frames as module+offset\n"

/*
 * getopt_long()'s @c that the command's own options did not take: a
 * symbol option into @o (-1: go on), else the error getopt found
 * (':' no argument, anything else an unknown option) said for @cmd, and
 * the exit status.
 */
int trace_opts_other(const char *cmd, int c, char **argv,
		     struct stack_options *o);

/* What reading a file calls. */
struct trace_reader {
	/* Once the file is open, before its first record (may be NULL). */
	void (*begin)(void *arg, const struct etw_etl_header *h);
	/* Each record, in time order. */
	void (*record)(void *arg, const struct etw_etl_event *ev);
};

/*
 * Every record of the file at @path, in time order, to @rd; 0, or 1 when
 * the file could not be opened or read to its end (said for @cmd, with
 * its Win32 code: what was read before an error has been passed on).
 */
int trace_opts_read(const char *cmd, const char *path,
		    const struct trace_reader *rd, void *arg);

#endif /* ETW_TOOL_TRACE_OPTS_H */
