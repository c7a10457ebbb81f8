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
#include "store_cmd.h"

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

static int install(int argc, char **argv, const struct store_opts *o)
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
			status = store_file_error("mof", "install", argv[i], err.line, err.message, ret);
			continue;
		}
		print_classes(m, o->dir);
		etw_mof_free(m);
	}
	return status;
}

static int uninstall(int argc, char **argv, const struct store_opts *o)
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

static int list(const struct store_opts *o)
{
	int count = 0, ret;

	ret = o->dir_given ? etw_mof_foreach_in(o->dir, list_one, &count) :
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
			status = store_file_error("mof", "check", argv[i], err.line, err.message, ret);
			continue;
		}
		print_classes(m, argv[i]);
		etw_mof_free(m);
	}
	return status;
}

int cmd_mof(int argc, char **argv)
{
	static const struct store_cmd c = {
		.name = "mof",
		.usage = usage_text,
		.system_dir = etw_mof_system_dir,
		.user_dir = etw_mof_user_dir,
		.from_binary = false,
		.install = install,
		.uninstall = uninstall,
		.list = list,
		.check = check,
	};

	return store_cmd_run(&c, argc, argv);
}
