// SPDX-License-Identifier: GPL-2.0
/*
 * etw mc: Windows' message compiler for instrumentation manifests
 * (mc.exe -um, and -km for kernel modules): the manifest in, the C header
 * a program or a module instrumented with it builds against (mc/header.c)
 * out, and with -b a C file that makes the program carry its manifest.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <etw_manifest.h>

#include "etw.h"
#include "mc/mc.h"

static const char usage_text[] =
	"usage: etw mc [-um|-km] [-h DIR] [-r DIR] [-z NAME] [-b] MANIFEST\n"
	"\n"
	"Generate the C header Windows' mc.exe -um makes from an instrumentation\n"
	"manifest: EventRegister<Provider>, EventWrite<Event>, EventEnabled<Event>\n"
	"and the manifest's symbols, for libetw.\n"
	"\n"
	"  -um        user-mode code, for libetw (the default)\n"
	"  -km        kernel-mode code, for a kernel module (etw.ko's EtwRegister...)\n"
	"  -h DIR     where NAME.h goes (default: the current directory)\n"
	"  -r DIR     where NAME_manifest.c goes with -b (default: as -h)\n"
	"  -z NAME    the generated files' base name (default: the manifest's)\n"
	"  -b         also NAME_manifest.c, which puts the manifest into the\n"
	"             program's .etw_manifest section (TdhLoadManifestFromBinary,\n"
	"             etw manifest install --from-binary)\n"
	"  --help     this text (so is -h alone)\n";

static char *slurp(const char *path, size_t *size)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	size_t cap = 0, n = 0;

	if (!f)
		return NULL;
	for (;;) {
		if (n == cap) {
			char *nb = realloc(buf, cap ? cap * 2 : 65536);

			if (!nb) {
				free(buf);
				fclose(f);
				errno = ENOMEM;
				return NULL;
			}
			buf = nb;
			cap = cap ? cap * 2 : 65536;
		}
		size_t r = fread(buf + n, 1, cap - n, f);

		n += r;
		if (r == 0)
			break;
	}
	if (ferror(f)) {
		free(buf);
		fclose(f);
		errno = EIO;
		return NULL;
	}
	fclose(f);
	*size = n;
	return buf;
}

/* The manifest's file name without directory and extension. */
static void base_of(const char *path, char *buf, size_t size)
{
	const char *s = strrchr(path, '/');
	char *dot;

	snprintf(buf, size, "%s", s ? s + 1 : path);
	dot = strrchr(buf, '.');
	if (dot && dot != buf)
		*dot = '\0';
}

static int write_out(const char *path, int (*gen)(FILE *, void *), void *ctx)
{
	FILE *f = fopen(path, "w");
	int ret;

	if (!f)
		return etw_error("mc: cannot create %s: %s", path, strerror(errno));
	ret = gen(f, ctx);
	if (fclose(f) || ret) {
		if (!ret)
			etw_error("mc: write error on %s: %s", path, strerror(errno));
		remove(path);
		return 1;
	}
	return 0;
}

struct gen {
	const struct etw_manifest *m;
	bool km;			/* -km: for a kernel module (etw.ko's API) */
	const char *source, *base;
	const char *xml;
	size_t size;
};

static int gen_header(FILE *f, void *ctx)
{
	struct gen *g = ctx;

	return mc_header(f, g->m, g->source, g->km) ? 1 : 0;
}

static int gen_embed(FILE *f, void *ctx)
{
	struct gen *g = ctx;

	mc_embed(f, g->xml, g->size, g->source, g->base);
	return 0;
}

int cmd_mc(int argc, char **argv)
{
	const char *hdir = ".", *rdir = NULL, *name = NULL, *input = NULL;
	struct etw_manifest_error err;
	struct etw_manifest *m;
	char base[256], *path = NULL;
	struct gen g = { 0 };
	bool embed = false;
	int ret;

	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];

		if (!strcmp(a, "--help")) {
			fputs(usage_text, stdout);
			return 0;
		} else if (!strcmp(a, "-um")) {
			g.km = false;
		} else if (!strcmp(a, "-km")) {
			g.km = true;
		} else if (!strcmp(a, "-b")) {
			embed = true;
		} else if (!strcmp(a, "-h") && i + 1 >= argc) {
			/* mc.exe's -h takes a directory; alone, it is help. */
			fputs(usage_text, stdout);
			return 0;
		} else if (!strcmp(a, "-h") || !strcmp(a, "-r") || !strcmp(a, "-z")) {
			if (i + 1 >= argc)
				return etw_error("mc: option '%s' needs an argument", a) + 1;
			if (a[1] == 'h')
				hdir = argv[++i];
			else if (a[1] == 'r')
				rdir = argv[++i];
			else
				name = argv[++i];
		} else if (a[0] == '-' && a[1]) {
			return etw_error("mc: unknown option '%s'; see 'etw mc --help'", a) + 1;
		} else if (input) {
			return etw_error("mc: one manifest at a time ('%s' and '%s')", input, a) + 1;
		} else {
			input = a;
		}
	}
	if (!input) {
		fputs(usage_text, stderr);
		return 2;
	}
	g.xml = slurp(input, &g.size);
	if (!g.xml)
		return etw_error("mc: %s: %s", input, strerror(errno));
	ret = etw_manifest_parse(g.xml, g.size, &m, &err);
	if (ret) {
		free((void *)g.xml);
		if (err.line)
			return etw_error("mc: %s:%lu: %s", input, err.line, err.message);
		return etw_error("mc: %s: %s", input, err.message);
	}
	if (name)
		snprintf(base, sizeof(base), "%s", name);
	else
		base_of(input, base, sizeof(base));
	g.m = m;
	g.source = input;
	g.base = base;
	ret = asprintf(&path, "%s/%s.h", hdir, base) < 0 ? etw_error("mc: out of memory") :
	      write_out(path, gen_header, &g);
	free(path);
	path = NULL;
	if (!ret && embed)
		ret = asprintf(&path, "%s/%s_manifest.c", rdir ? rdir : hdir, base) < 0 ?
		      etw_error("mc: out of memory") : write_out(path, gen_embed, &g);
	free(path);
	etw_manifest_free(m);
	free((void *)g.xml);
	return ret;
}
