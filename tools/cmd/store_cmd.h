/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The frame etw manifest and etw mof share: VERB [--user | --dir DIR]
 * [-b] ARGS..., the verbs install, uninstall, list and check, and the
 * message of a file the store refuses.
 */
#ifndef ETW_TOOL_STORE_CMD_H
#define ETW_TOOL_STORE_CMD_H

#include <stdbool.h>
#include <stddef.h>

struct store_opts {
	const char *dir;
	bool dir_given;			/* --user or --dir */
	bool from_binary;		/* -b, where the store takes it */
	char user[4096];
};

struct store_cmd {
	const char *name;		/* "manifest" */
	const char *usage;
	const char *(*system_dir)(void);
	const char *(*user_dir)(char *buf, size_t size);
	bool from_binary;		/* takes -b, --from-binary */
	/* Each runs over argv[optind..argc-1]; returns the exit code. */
	int (*install)(int argc, char **argv, const struct store_opts *o);
	int (*uninstall)(int argc, char **argv, const struct store_opts *o);
	int (*list)(const struct store_opts *o);
	int (*check)(int argc, char **argv);
};

/* etw NAME VERB ...: the exit code. */
int store_cmd_run(const struct store_cmd *c, int argc, char **argv);

/*
 * "etw: NAME VERB: PATH:LINE: MESSAGE" for a file the store refuses
 * (-EBADMSG), else PATH and strerror(-@ret); returns 1.
 */
int store_file_error(const char *name, const char *verb, const char *path,
		     unsigned long line, const char *message, int ret);

#endif /* ETW_TOOL_STORE_CMD_H */
