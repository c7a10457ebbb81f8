// SPDX-License-Identifier: GPL-2.0
/*
 * The options and file reading etw report and etw export share.
 */
#include "cmd/ctl.h"
#include "cmd/trace_opts.h"
#include "etw.h"

int trace_opts_other(const char *cmd, int c, char **argv,
		     struct stack_options *o)
{
	switch (c) {
	case 'D':
		o->debug_dir = optarg;
		return -1;
	case 'K':
		o->kallsyms = optarg;
		return -1;
	case 'N':
		o->no_kallsyms = true;
		return -1;
	case ':':
		return etw_error("%s: option '%s' needs an argument", cmd,
				 argv[optind - 1]) + 1;
	default:
		return etw_error("%s: unknown option '%s'; see 'etw %s --help'",
				 cmd, argv[optind - 1], cmd) + 1;
	}
}

int trace_opts_read(const char *cmd, const char *path,
		    const struct trace_reader *rd, void *arg)
{
	struct etw_etl_error err;
	struct etw_etl_event ev;
	struct etw_etl *etl;
	int ret;

	ret = etw_etl_open(path, &etl, &err);
	if (ret < 0)
		return ctl_fail_win32(cmd, path, etw_etl_win32_error(ret),
				      err.message);
	if (rd->begin)
		rd->begin(arg, etw_etl_get_header(etl));
	etw_etl_rewind(etl, ETW_ETL_ORDER_TIME);
	while ((ret = etw_etl_next(etl, &ev)) > 0)
		rd->record(arg, &ev);
	if (ret < 0)
		ctl_fail_win32(cmd, path, etw_etl_win32_error(ret),
			       etw_etl_last_error(etl)->message);
	etw_etl_close(etl);
	return ret < 0;
}
