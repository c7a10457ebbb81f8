// SPDX-License-Identifier: GPL-2.0
/*
 * etw: the command line of etw for Linux, in the manner of perf and lttng:
 * `etw <subcommand> [options]`.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "etw.h"

static const struct etw_cmd commands[] = {
	{ "start", "start a session", cmd_start },
	{ "stop", "stop a session", cmd_stop },
	{ "query", "show a session's settings and statistics", cmd_query },
	{ "list", "list the running sessions", cmd_list },
	{ "flush", "hand over a session's partial buffers", cmd_flush },
	{ "update", "change a running session (flush timer, buffers, file)", cmd_update },
	{ "enable", "enable a provider in a session", cmd_enable },
	{ "disable", "disable a provider in a session", cmd_disable },
	{ "record", "record a command's events to an ETL file", cmd_record },
	{ "version", "show the library and kernel module versions", cmd_version },
	{ "dump", "print the records of ETL trace files", cmd_dump },
	{ "report", "CPU samples and hottest stacks of kernel traces", cmd_report },
	{ "export", "a trace for speedscope or Perfetto UI", cmd_export },
	{ "live", "print a real-time session's events as they come", cmd_live },
	{ "guid", "print the GUID Windows derives from a provider name", cmd_guid },
	{ "manifest", "install, uninstall, list or check event manifests", cmd_manifest },
	{ "eventlog", "the Event Log's channels in the systemd journal (a service)", cmd_eventlog },
	{ "autologger", "sessions started at boot (Windows' AutoLogger)", cmd_autologger },
	{ "mof", "install, uninstall, list or check classic providers' MOF schemas", cmd_mof },
	{ "mc", "generate the C header of a manifest, as mc.exe -um", cmd_mc },
	{ "wpp", "generate the .tmh and TMF files of WPP-traced sources, as tracewpp", cmd_wpp },
	{ "logger", "internal: write a file session's buffers (run by start)", cmd_logger },
};

#define N_COMMANDS (sizeof(commands) / sizeof(commands[0]))

int etw_error(const char *fmt, ...)
{
	va_list ap;

	fputs("etw: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return 1;
}

int etw_wants_help(int argc, char **argv)
{
	for (int i = 1; i < argc; i++)
		if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help"))
			return 1;
	return 0;
}

int etw_bad_option(const char *cmd, int c, char **argv)
{
	if (c == ':')
		return etw_error("%s: option '%s' needs an argument", cmd,
				 argv[optind - 1]) + 1;
	return etw_error("%s: unknown option '%s'; see 'etw %s --help'", cmd,
			 argv[optind - 1], cmd) + 1;
}

static void usage(FILE *out)
{
	fputs("usage: etw <command> [options]\n\ncommands:\n", out);
	for (size_t i = 0; i < N_COMMANDS; i++)
		fprintf(out, "  %-10s %s\n", commands[i].name, commands[i].summary);
	fputs("\n'etw <command> --help' and 'man etw-<command>' describe each.\n", out);
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		usage(stderr);
		return 2;
	}
	if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help") ||
	    !strcmp(argv[1], "help")) {
		usage(stdout);
		return 0;
	}
	for (size_t i = 0; i < N_COMMANDS; i++)
		if (!strcmp(argv[1], commands[i].name))
			return commands[i].run(argc - 1, argv + 1);
	etw_error("'%s' is not an etw command; see 'etw --help'", argv[1]);
	return 2;
}
