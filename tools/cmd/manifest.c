// SPDX-License-Identifier: GPL-2.0
/*
 * etw manifest: install, uninstall and list instrumentation manifests
 * where every decoder finds them (as Windows' wevtutil im/um/ep), and
 * check one.  Installed manifests are named by provider GUID in the
 * system directory (libetw's ETW_MANIFEST_DIR) or, with --user, the
 * user's ($XDG_DATA_HOME/etw/manifests).
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <etw_manifest.h>

#include "ctl.h"
#include "etw.h"
#include "store_cmd.h"

static const char usage_text[] =
	"usage: etw manifest install [--user | --dir DIR] FILE...\n"
	"       etw manifest install [--user | --dir DIR] --from-binary PROGRAM...\n"
	"       etw manifest uninstall [--user | --dir DIR] GUID|NAME|FILE...\n"
	"       etw manifest list [--dir DIR]\n"
	"       etw manifest check FILE...\n"
	"\n"
	"Keep instrumentation manifests where etw dump and the TDH functions find\n"
	"them by provider GUID.  Without --user or --dir the system directory\n"
	"is used; ETW_MANIFEST_PATH adds directories the decoders search first.\n"
	"\n"
	"  -u, --user          the user's directory\n"
	"  -d, --dir DIR       this directory\n"
	"  -b, --from-binary   read the manifest a program carries (etw mc -b)\n"
	"  -h, --help          this text\n";

static void print_providers(const struct etw_manifest *m, const char *dir)
{
	for (size_t i = 0; i < m->nproviders; i++) {
		const struct etw_mf_provider *p = &m->providers[i];
		char name[42];

		etw_manifest_file_name(&p->guid, name);
		printf("%.36s  %s (%zu events) -> %s/%s\n", name, p->name,
		       p->nevents, dir, name);
	}
}

static int install(int argc, char **argv, const struct store_opts *o)
{
	int status = 0;

	for (int i = optind; i < argc; i++) {
		struct etw_manifest_error err = { 0 };
		struct etw_manifest *m;
		void *xml = NULL;
		size_t size;
		int ret;

		if (o->from_binary) {
			ret = etw_manifest_from_binary(argv[i], &xml, &size);
			if (ret == -ENOENT) {
				status = etw_error("manifest install: %s carries no manifest (no %s section)",
						   argv[i], ETW_MANIFEST_SECTION);
				continue;
			}
			if (ret == -ENOEXEC) {
				status = etw_error("manifest install: %s is not an ELF file",
						   argv[i]);
				continue;
			}
			if (!ret)
				ret = etw_manifest_install_xml(xml, size, o->dir, &err);
			if (!ret)
				ret = etw_manifest_parse(xml, size, &m, &err);
		} else {
			ret = etw_manifest_install(argv[i], o->dir, &err);
			if (!ret)
				ret = etw_manifest_read(argv[i], &m, &err);
		}
		free(xml);
		if (ret == -EACCES || ret == -EPERM) {
			status = etw_error("manifest install: %s: %s (try --user)",
					   o->dir, strerror(-ret));
			continue;
		}
		if (ret) {
			status = store_file_error("manifest", "install", argv[i], err.line, err.message, ret);
			continue;
		}
		print_providers(m, o->dir);
		etw_manifest_free(m);
	}
	return status;
}

struct by_name {
	const char *name;
	GUID guid;
	bool found;
};

static int find_name(void *ctx, const char *path, struct etw_manifest *m,
		     const struct etw_manifest_error *err)
{
	struct by_name *b = ctx;

	for (size_t i = 0; m && i < m->nproviders && !b->found; i++)
		if (!strcmp(m->providers[i].name, b->name)) {
			b->guid = m->providers[i].guid;
			b->found = true;
		}
	return 0;
}

static int uninstall_guid(const struct store_opts *o, const GUID *g, const char *what)
{
	char name[42];
	int ret = etw_manifest_uninstall(g, o->dir);

	etw_manifest_file_name(g, name);
	if (ret == -ENOENT)
		return etw_error("manifest uninstall: %s: no manifest of provider %.36s in %s",
				 what, name, o->dir);
	if (ret)
		return etw_error("manifest uninstall: %s/%s: %s", o->dir, name,
				 strerror(-ret));
	printf("%.36s  removed from %s\n", name, o->dir);
	return 0;
}

static int uninstall(int argc, char **argv, const struct store_opts *o)
{
	int status = 0;

	for (int i = optind; i < argc; i++) {
		struct etw_manifest_error err;
		struct by_name b = { .name = argv[i] };
		struct etw_manifest *m;
		unsigned char g[16];

		if (!ctl_parse_guid(argv[i], g)) {
			memcpy(&b.guid, g, sizeof(g));
			status |= uninstall_guid(o, &b.guid, argv[i]);
			continue;
		}
		/* A manifest file: each of its providers. */
		if (!etw_manifest_read(argv[i], &m, &err)) {
			for (size_t j = 0; j < m->nproviders; j++)
				status |= uninstall_guid(o, &m->providers[j].guid, argv[i]);
			etw_manifest_free(m);
			continue;
		}
		etw_manifest_foreach_in(o->dir, find_name, &b);
		if (!b.found) {
			status = etw_error("manifest uninstall: '%s' is neither a GUID, a manifest file nor a provider installed in %s",
					   argv[i], o->dir);
			continue;
		}
		status |= uninstall_guid(o, &b.guid, argv[i]);
	}
	return status;
}

static int list_one(void *ctx, const char *path, struct etw_manifest *m,
		    const struct etw_manifest_error *err)
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
	for (size_t i = 0; i < m->nproviders; i++) {
		const struct etw_mf_provider *p = &m->providers[i];
		char name[42];

		etw_manifest_file_name(&p->guid, name);
		printf("%.36s  %-40s %4zu events  %s\n", name, p->name, p->nevents,
		       path);
		(*count)++;
	}
	return 0;
}

static int list(const struct store_opts *o)
{
	int count = 0, ret;

	ret = o->dir_given ? etw_manifest_foreach_in(o->dir, list_one, &count) :
			  etw_manifest_foreach(list_one, &count);
	if (ret < 0)
		return etw_error("manifest list: %s", strerror(-ret));
	if (!count)
		fprintf(stderr, "etw: manifest list: no manifest installed\n");
	return 0;
}

static int check(int argc, char **argv)
{
	int status = 0;

	for (int i = optind; i < argc; i++) {
		struct etw_manifest_error err;
		struct etw_manifest *m;
		int ret = etw_manifest_read(argv[i], &m, &err);

		if (ret) {
			status = store_file_error("manifest", "check", argv[i], err.line, err.message, ret);
			continue;
		}
		for (size_t j = 0; j < m->nproviders; j++)
			printf("%s: provider %s: %zu events, %zu templates\n", argv[i],
			       m->providers[j].name, m->providers[j].nevents,
			       m->providers[j].ntemplates);
		etw_manifest_free(m);
	}
	return status;
}

int cmd_manifest(int argc, char **argv)
{
	static const struct store_cmd c = {
		.name = "manifest",
		.usage = usage_text,
		.system_dir = etw_manifest_system_dir,
		.user_dir = etw_manifest_user_dir,
		.from_binary = true,
		.install = install,
		.uninstall = uninstall,
		.list = list,
		.check = check,
	};

	return store_cmd_run(&c, argc, argv);
}
