/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The etw command: shared declarations of the subcommands.
 */
#ifndef ETW_TOOL_H
#define ETW_TOOL_H

#include <stdbool.h>
#include <time.h>

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
int cmd_update(int argc, char **argv);
int cmd_enable(int argc, char **argv);
int cmd_disable(int argc, char **argv);
int cmd_record(int argc, char **argv);
int cmd_dump(int argc, char **argv);
int cmd_live(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_export(int argc, char **argv);
int cmd_guid(int argc, char **argv);
int cmd_manifest(int argc, char **argv);
int cmd_mof(int argc, char **argv);
int cmd_autologger(int argc, char **argv);
int cmd_eventlog(int argc, char **argv);
int cmd_mc(int argc, char **argv);
int cmd_wpp(int argc, char **argv);
int cmd_logger(int argc, char **argv);
int cmd_wpp_extract(int argc, char **argv);

/* Print "etw: <message>" to stderr; returns 1 (the exit code for errors). */
int etw_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* CLOCK_MONOTONIC in ns: the tool's pace and progress timers. */
static inline long long etw_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/* Progress of long work on standard error, if it is a terminal. */
struct progress {
	bool on;
	const char *what;
	long long last;			/* when it was last shown, ns */
	int width;			/* of the text shown */
};

void progress_init(struct progress *p, const char *what, bool wanted);
/* Show "etw: WHAT: TEXT", at most five times a second. */
void progress_show(struct progress *p, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* Clear the line. */
void progress_done(struct progress *p);

/* True if argv[1..] asks for help (-h or --help). */
int etw_wants_help(int argc, char **argv);

/*
 * getopt_long's ':' (a missing argument) or anything else it returns for
 * an option it does not know, under "etw CMD": the message, and 2.
 */
int etw_bad_option(const char *cmd, int c, char **argv);

#endif /* ETW_TOOL_H */
