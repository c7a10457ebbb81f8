// SPDX-License-Identifier: GPL-2.0
/*
 * The command frame of the schema stores (store_cmd.h).
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "etw.h"
#include "store_cmd.h"

int store_file_error(const char *name, const char *verb, const char *path,
		     unsigned long line, const char *message, int ret)
{
	if (ret == -EBADMSG && line)
		return etw_error("%s %s: %s:%lu: %s", name, verb, path, line, message);
	if (ret == -EBADMSG)
		return etw_error("%s %s: %s: %s", name, verb, path, message);
	return etw_error("%s %s: %s: %s", name, verb, path, strerror(-ret));
}

/* -1 to go on, else the exit code. */
static int parse(const struct store_cmd *c, int argc, char **argv,
		 struct store_opts *o)
{
	static const struct option longopts[] = {
		{ "user", no_argument, NULL, 'u' },
		{ "dir", required_argument, NULL, 'd' },
		{ "from-binary", no_argument, NULL, 'b' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int ch;

	optind = 1;
	opterr = 0;
	o->dir = c->system_dir();
	while ((ch = getopt_long(argc, argv, ":ud:bh", longopts, NULL)) != -1) {
		switch (ch) {
		case 'u':
			o->dir = c->user_dir(o->user, sizeof(o->user));
			if (!o->dir)
				return etw_error("%s: no user directory: neither XDG_DATA_HOME nor HOME is set",
						 c->name) + 1;
			o->dir_given = true;
			break;
		case 'd':
			o->dir = optarg;
			o->dir_given = true;
			break;
		case 'b':
			if (!c->from_binary)
				return etw_bad_option(c->name, '?', argv);
			o->from_binary = true;
			break;
		case 'h':
			fputs(c->usage, stdout);
			return 0;
		default:
			return etw_bad_option(c->name, ch, argv);
		}
	}
	return -1;
}

int store_cmd_run(const struct store_cmd *c, int argc, char **argv)
{
	struct store_opts o = { 0 };
	const char *verb;
	int ret;

	if (argc < 2 || !strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) {
		fputs(c->usage, argc < 2 ? stderr : stdout);
		return argc < 2 ? 2 : 0;
	}
	verb = argv[1];
	argc--;
	argv++;
	ret = parse(c, argc, argv, &o);
	if (ret >= 0)
		return ret;
	if (!strcmp(verb, "list")) {
		if (optind < argc)
			return etw_error("%s list: takes no arguments", c->name) + 1;
		return c->list(&o);
	}
	if (optind >= argc) {
		fputs(c->usage, stderr);
		return 2;
	}
	if (!strcmp(verb, "install"))
		return c->install(argc, argv, &o);
	if (!strcmp(verb, "uninstall"))
		return c->uninstall(argc, argv, &o);
	if (!strcmp(verb, "check"))
		return c->check(argc, argv);
	etw_error("%s: '%s' is not install, uninstall, list or check", c->name, verb);
	return 2;
}
