// SPDX-License-Identifier: GPL-2.0
/*
 * etw mof: install, uninstall and list classic providers' MOF schemas
 * where every decoder finds them, as mofcomp compiles them into WMI's
 * repository on Windows, and check one.  Installed files keep their own
 * name in the system directory (libetw's ETW_MOF_DIR) or, with --user,
 * the user's ($XDG_DATA_HOME/etw/mof).
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <etw_mof.h>

#include "etw.h"

static const char usage_text[] =
	"usage: etw mof install [--user | --dir DIR] FILE.mof...\n"
	"       etw mof uninstall [--user | --dir DIR] FILE|CLASS|GUID...\n"
	"       etw mof list [--dir DIR]\n"
	"       etw mof check FILE.mof...\n"
	"\n"
	"Keep classic providers' MOF schemas where etw dump and the TDH functions\n"
	"find them to decode classic events (class GUID, event type, version).\n"
	"Without --user or --dir the system directory is used; ETW_MOF_PATH adds\n"
	"directories the decoders search first.\n"
	"\n"
	"  -u, --user          the user's directory\n"
	"  -d, --dir DIR       this directory\n"
	"  -h, --help          this text\n";

struct opts {
	const char *dir;
	char user[4096];
};

static int mof_error(const char *cmd, const char *path,
		     const struct etw_mof_error *err, int ret)
{
	if (ret == -EBADMSG && err->line)
		return etw_error("mof %s: %s:%lu: %s", cmd, path, err->line,
				 err->message);
	if (ret == -EBADMSG)
		return etw_error("mof %s: %s: %s", cmd, path, err->message);
	return etw_error("mof %s: %s: %s", cmd, path, strerror(-ret));
}

static int parse(int argc, char **argv, struct opts *o)
{
	static const struct option longopts[] = {
		{ "user", no_argument, NULL, 'u' },
		{ "dir", required_argument, NULL, 'd' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	optind = 1;
	opterr = 0;
	o->dir = etw_mof_system_dir();
	while ((c = getopt_long(argc, argv, ":ud:h", longopts, NULL)) != -1) {
		switch (c) {
		case 'u':
			o->dir = etw_mof_user_dir(o->user, sizeof(o->user));
			if (!o->dir)
				return etw_error("mof: no user directory: neither XDG_DATA_HOME nor HOME is set") + 1;
			break;
		case 'd':
			o->dir = optarg;
			break;
		case 'h':
			fputs(usage_text, stdout);
			return 0;
		case ':':
			return etw_error("mof: option '%s' needs an argument",
					 argv[optind - 1]) + 1;
		default:
			return etw_error("mof: unknown option '%s'; see 'etw mof --help'",
					 argv[optind - 1]) + 1;
		}
	}
	return -1;
}

/* One line per class that has a Guid: what the decoders key on. */
static void print_classes(const struct etw_mof *m, const char *where)
{
	for (size_t i = 0; i < m->nclasses; i++) {
		const struct etw_mof_class *c = &m->classes[i];
		const struct etw_mof_qualifier *g = etw_mof_class_qualifier(c, "Guid");
		const struct etw_mof_qualifier *v = etw_mof_class_qualifier(c, "EventVersion");
		bool provider = c->parent && !strcasecmp(c->parent, "EventTrace");
		size_t types = 0;

		if (!g || g->nvalues != 1)
			continue;
		for (size_t j = 0; j < m->nclasses; j++) {
			const struct etw_mof_class *t = &m->classes[j];
			const struct etw_mof_qualifier *q =
				etw_mof_class_qualifier(t, "EventType");

			if (q && t->parent && !strcasecmp(t->parent, c->name))
				types += q->nvalues;
		}
		printf("%-38s  %-32s %s", g->values[0], c->name,
		       provider ? "provider" : "event class");
		if (v && v->nvalues == 1)
			printf(", version %s", v->values[0]);
		if (!provider || types)
			printf(", %zu event type%s", types, types == 1 ? "" : "s");
		printf("  %s\n", where);
	}
}

static int install(int argc, char **argv, const struct opts *o)
{
	int status = 0;

	for (int i = optind; i < argc; i++) {
		struct etw_mof_error err = { 0 };
		struct etw_mof *m;
		int ret = etw_mof_install(argv[i], o->dir, &err);

		if (ret == -EACCES || ret == -EPERM) {
			status = etw_error("mof install: %s: %s (try --user)",
					   o->dir, strerror(-ret));
			continue;
		}
		if (!ret)
			ret = etw_mof_read(argv[i], &m, &err);
		if (ret) {
			status = mof_error("install", argv[i], &err, ret);
			continue;
		}
		print_classes(m, o->dir);
		etw_mof_free(m);
	}
	return status;
}

static int uninstall(int argc, char **argv, const struct opts *o)
{
	int status = 0;

	for (int i = optind; i < argc; i++) {
		const char *slash = strrchr(argv[i], '/');
		const char *name = slash ? slash + 1 : argv[i];
		int ret = etw_mof_uninstall(name, o->dir);

		if (ret == -ENOENT)
			status = etw_error("mof uninstall: '%s' is neither a file installed in %s nor a class or Guid one of them defines",
					   argv[i], o->dir);
		else if (ret)
			status = etw_error("mof uninstall: %s: %s", argv[i],
					   strerror(-ret));
		else
			printf("%s  removed from %s\n", name, o->dir);
	}
	return status;
}

static int list_one(void *ctx, const char *path, struct etw_mof *m,
		    const struct etw_mof_error *err)
{
	int *count = ctx;

	if (!m) {
		if (err->line)
			printf("%s: refused: line %lu: %s\n", path, err->line,
			       err->message);
		else
			printf("%s: refused: %s\n", path, err->message);
		return 0;
	}
	print_classes(m, path);
	(*count)++;
	return 0;
}

static int list(const struct opts *o, bool dir_given)
{
	int count = 0, ret;

	ret = dir_given ? etw_mof_foreach_in(o->dir, list_one, &count) :
			  etw_mof_foreach(list_one, &count);
	if (ret < 0)
		return etw_error("mof list: %s", strerror(-ret));
	if (!count)
		fprintf(stderr, "etw: mof list: no MOF schema installed\n");
	return 0;
}

static int check(int argc, char **argv)
{
	int status = 0;

	for (int i = optind; i < argc; i++) {
		struct etw_mof_error err;
		struct etw_mof *m;
		int ret = etw_mof_read(argv[i], &m, &err);

		if (ret) {
			status = mof_error("check", argv[i], &err, ret);
			continue;
		}
		print_classes(m, argv[i]);
		etw_mof_free(m);
	}
	return status;
}

int cmd_mof(int argc, char **argv)
{
	struct opts o = { 0 };
	const char *verb;
	int ret;

	if (argc < 2 || !strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) {
		fputs(usage_text, argc < 2 ? stderr : stdout);
		return argc < 2 ? 2 : 0;
	}
	verb = argv[1];
	argc--;
	argv++;
	ret = parse(argc, argv, &o);
	if (ret >= 0)
		return ret;
	if (!strcmp(verb, "list")) {
		if (optind < argc)
			return etw_error("mof list: takes no arguments") + 1;
		return list(&o, o.dir != etw_mof_system_dir());
	}
	if (optind >= argc) {
		fputs(usage_text, stderr);
		return 2;
	}
	if (!strcmp(verb, "install"))
		return install(argc, argv, &o);
	if (!strcmp(verb, "uninstall"))
		return uninstall(argc, argv, &o);
	if (!strcmp(verb, "check"))
		return check(argc, argv);
	etw_error("mof: '%s' is not install, uninstall, list or check", verb);
	return 2;
}
