// SPDX-License-Identifier: GPL-2.0
/*
 * etw update: change a running session through libetw's ControlTrace
 * (EVENT_TRACE_CONTROL_UPDATE), so that it is checked, done and refused
 * exactly as a Windows controller's UpdateTrace would be.
 */
#include <getopt.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <windows.h>
#include <evntrace.h>

#include "ctl.h"
#include "etw.h"

static const char update_usage[] =
	"usage: etw update NAME [options]\n\n"
	"Change a running session (ControlTrace EVENT_TRACE_CONTROL_UPDATE) and\n"
	"print it as etw query does.  What is not given stays as it is.\n\n"
	"  -f, --flush-timer S    hand over partial buffers every S seconds\n"
	"  -M, --max-buffers N    MaximumBuffers\n"
	"  -o, --output FILE      go on in a new log file\n"
	"  -F, --enable-flags F   EnableFlags (a system logger's kernel events)\n"
	"  -h, --help             this text\n";

#define NAME_ROOM	1024

struct props {
	EVENT_TRACE_PROPERTIES p;
	char logger[NAME_ROOM];
	char file[NAME_ROOM];
};

int cmd_update(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "flush-timer", required_argument, NULL, 'f' },
		{ "max-buffers", required_argument, NULL, 'M' },
		{ "output", required_argument, NULL, 'o' },
		{ "enable-flags", required_argument, NULL, 'F' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	struct etw_session_info info;
	unsigned long long v;
	struct props b;
	ULONG err;
	int c, fd;

	memset(&b, 0, sizeof(b));
	b.p.Wnode.BufferSize = sizeof(b);
	b.p.Wnode.Flags = WNODE_FLAG_TRACED_GUID;
	b.p.LoggerNameOffset = offsetof(struct props, logger);
	while ((c = getopt_long(argc, argv, "f:M:o:F:h", opts, NULL)) != -1) {
		switch (c) {
		case 'h':
			fputs(update_usage, stdout);
			return 0;
		case 'o':
			if (strlen(optarg) >= NAME_ROOM)
				return etw_error("update: file name longer than %d bytes",
						 NAME_ROOM - 1);
			strcpy(b.file, optarg);
			b.p.LogFileNameOffset = offsetof(struct props, file);
			continue;
		case '?':
			return 2;
		}
		if (ctl_number(optarg, 0xffffffffu, &v))
			return etw_error("update: bad number '%s' for -%c", optarg, c);
		if (c == 'f')
			b.p.FlushTimer = v;
		else if (c == 'M')
			b.p.MaximumBuffers = v;
		else
			b.p.EnableFlags = v;
	}
	if (optind + 1 != argc) {
		fputs(update_usage, stderr);
		return 2;
	}
	err = ControlTraceA(0, argv[optind], &b.p, EVENT_TRACE_CONTROL_UPDATE);
	if (err)
		return ctl_fail_win32("update", argv[optind], err, NULL);
	fd = ctl_open("update");
	if (fd < 0)
		return 1;
	c = ctl_query(fd, argv[optind], ETW_CONTROL_QUERY, &info);
	close(fd);
	if (c)
		return ctl_fail("update", argv[optind], c);
	ctl_print_session(&info);
	return 0;
}
