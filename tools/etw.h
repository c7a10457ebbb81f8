/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The etw command: shared declarations of the subcommands.
 */
#ifndef ETW_TOOL_H
#define ETW_TOOL_H

struct etw_cmd {
	const char *name;
	const char *summary;
	int (*run)(int argc, char **argv);
};

int cmd_version(int argc, char **argv);
int cmd_start(int argc, char **argv);
int cmd_stop(int argc, char **argv);
int cmd_query(int argc, char **argv);
int cmd_list(int argc, char **argv);
int cmd_flush(int argc, char **argv);
int cmd_enable(int argc, char **argv);
int cmd_disable(int argc, char **argv);
int cmd_record(int argc, char **argv);
int cmd_dump(int argc, char **argv);
int cmd_guid(int argc, char **argv);

/* Print "etw: <message>" to stderr; returns 1 (the exit code for errors). */
int etw_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* True if argv[1..] asks for help (-h or --help). */
int etw_wants_help(int argc, char **argv);

#endif /* ETW_TOOL_H */
