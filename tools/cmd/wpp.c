// SPDX-License-Identifier: GPL-2.0
/*
 * etw wpp: Windows' software trace preprocessor (tracewpp) for Linux.
 * Reads the configuration, scans each source for its trace calls and
 * writes the source's .tmh and its <message-guid>.tmf (tools/wpp/).
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "etw.h"
#include "wpp/wpp.h"

static const char usage_text[] =
	"usage: etw wpp [OPTION]... SOURCE...\n"
	"       etw wpp extract [-o DIR] BINARY...\n"
	"\n"
	"Scan C and C++ sources for WPP trace calls (DoTraceMessage and the\n"
	"functions FUNC configures) and write each SOURCE's .tmh, which the source\n"
	"includes, and its <message-guid>.tmf, as Windows' tracewpp does.\n"
	"\n"
	"  -odir:DIR       where the .tmh (and .tmf) files go (default: .)\n"
	"  -tmfdir:DIR     where the .tmf files go (default: as -odir:)\n"
	"  -p:NAME         the friendly name in the TMF (default: the name of the\n"
	"                  source's directory)\n"
	"  -func:SPEC      a trace function, as FUNC: Name(LEVEL,FLAGS,MSG,...)\n"
	"  -scan:FILE      read FILE's begin_wpp config blocks and enums too\n"
	"  -cfgdir:DIR     DIR/defaultwpp.ini instead of the built-in configuration\n"
	"  -ini:FILE       a configuration file read after the default one\n"
	"  -ctl:GUID       a default control GUID (bits Error, Unusual, Noise)\n"
	"  -ext:.c.cpp     only sources with these extensions (default:\n"
	"                  .c.cc.cpp.cxx.h.hpp)\n"
	"  -DNAME[=VALUE]  defined in each .tmh before <etw_wpp.h>\n"
	"  -dll            the sources are a shared object's (defines WPP_DLL)\n"
	"  -km             kernel-mode code: not supported yet\n"
	"  --help          this text\n";

/* A whole file; NULL with errno set on failure. */
static char *read_all(const char *path)
{
	FILE *f = fopen(path, "r");
	char *buf = NULL;
	size_t cap = 0;
	ssize_t n;
	int err;

	if (!f)
		return NULL;
	n = getdelim(&buf, &cap, 0, f);
	err = ferror(f) ? EIO : 0;
	fclose(f);
	if (n < 0 && !err) {
		free(buf);
		return strdup("");	/* an empty file */
	}
	if (err || n < 0 || (size_t)n != strlen(buf)) {
		free(buf);
		errno = err ? err : EINVAL;	/* a NUL byte in a source */
		return NULL;
	}
	return buf;
}

/* Write through a temporary file, so make never sees half a file. */
static int write_all(const char *dir, const char *name, const char *text, size_t len)
{
	char path[PATH_MAX], tmp[PATH_MAX + 16];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	snprintf(tmp, sizeof(tmp), "%s.%d.tmp", path, (int)getpid());
	f = fopen(tmp, "w");
	if (!f)
		return etw_error("wpp: %s: %s", tmp, strerror(errno));
	if (fwrite(text, 1, len, f) != len || fclose(f)) {
		unlink(tmp);
		return etw_error("wpp: %s: %s", path, strerror(errno));
	}
	if (rename(tmp, path)) {
		unlink(tmp);
		return etw_error("wpp: %s: %s", path, strerror(errno));
	}
	return 0;
}

struct options {
	const char *odir, *tmfdir, *friendly, *cfgdir, *ctl, *ext;
	char **scans, **funcs, **defines, **inis;
	int nscans, nfuncs, ndefines, ninis;
	bool km, dll;
	char ctl_text[64];
};

static void push(char ***v, int *n, char *s)
{
	*v = realloc(*v, sizeof(char *) * (*n + 1));
	if (!*v)
		abort();
	(*v)[(*n)++] = s;
}

/* -ctl:81b20fea-73a8-4b62-95bc-354477c97a6f as WPP_GUID_STRUCT's form. */
static int ctl_guid(struct options *o)
{
	unsigned int a, b, c, d;
	unsigned long long e;
	char end;

	if (strlen(o->ctl) != 36 ||
	    sscanf(o->ctl, "%8x-%4x-%4x-%4x-%12llx%c", &a, &b, &c, &d, &e, &end) != 5)
		return etw_error("wpp: -ctl: '%s' is not a GUID", o->ctl);
	snprintf(o->ctl_text, sizeof(o->ctl_text), "%.8s,%.4s,%.4s,%.4s,%.12s", o->ctl,
		 o->ctl + 9, o->ctl + 14, o->ctl + 19, o->ctl + 24);
	return 0;
}

static int parse_args(int argc, char **argv, struct options *o, char ***srcs, int *nsrcs)
{
	for (int i = 1; i < argc; i++) {
		char *a = argv[i];

		if (a[0] != '-') {
			push(srcs, nsrcs, a);
		} else if (!strncmp(a, "-odir:", 6)) {
			o->odir = a + 6;
		} else if (!strncmp(a, "-tmfdir:", 8)) {
			o->tmfdir = a + 8;
		} else if (!strncmp(a, "-p:", 3)) {
			o->friendly = a + 3;
		} else if (!strncmp(a, "-func:", 6)) {
			push(&o->funcs, &o->nfuncs, a + 6);
		} else if (!strncmp(a, "-scan:", 6)) {
			push(&o->scans, &o->nscans, a + 6);
		} else if (!strncmp(a, "-ini:", 5)) {
			push(&o->inis, &o->ninis, a + 5);
		} else if (!strncmp(a, "-cfgdir:", 8)) {
			o->cfgdir = a + 8;
		} else if (!strncmp(a, "-ctl:", 5)) {
			o->ctl = a + 5;
			if (ctl_guid(o))
				return 1;
		} else if (!strncmp(a, "-ext:", 5)) {
			o->ext = a + 5;
		} else if (!strncmp(a, "-D", 2) && a[2]) {
			push(&o->defines, &o->ndefines, a + 2);
		} else if (!strcmp(a, "-km")) {
			o->km = true;
		} else if (!strcmp(a, "-dll")) {
			o->dll = true;
		} else {
			return etw_error("wpp: unknown option '%s' (etw wpp --help)", a);
		}
		if (a[0] == '-' && a[strlen(a) - 1] == ':')
			return etw_error("wpp: option '%s' needs a value", a);
	}
	if (!*nsrcs)
		return etw_error("wpp: no source files (etw wpp --help)");
	return 0;
}

/* Does the file's extension appear in -ext:'s list (".c.cpp")? */
static bool wanted(const char *path, const char *ext)
{
	const char *base = strrchr(path, '/'), *dot;
	size_t n;

	base = base ? base + 1 : path;
	dot = strrchr(base, '.');
	if (!dot)
		return false;
	n = strlen(dot);
	for (const char *p = strstr(ext, dot); p; p = strstr(p + 1, dot))
		if (p[n] == 0 || p[n] == '.')
			return true;
	return false;
}

static char *friendly_of(const char *path)
{
	char real[PATH_MAX], *slash;

	if (!realpath(path, real))
		return strdup("unknown");
	slash = strrchr(real, '/');
	*slash = 0;
	slash = strrchr(real, '/');
	return strdup(slash && slash[1] ? slash + 1 : "root");
}

static void names(struct wpp_source *src, const char *path)
{
	const char *base = strrchr(path, '/');
	char *dot;

	src->path = path;
	src->base = wpp_strdup(base ? base + 1 : path);
	src->canon = wpp_strdup(src->base);
	for (char *p = src->canon; *p; p++)
		if (!(*p >= 'a' && *p <= 'z') && !(*p >= 'A' && *p <= 'Z') &&
		    !(*p >= '0' && *p <= '9'))
			*p = '_';
	src->msgname = wpp_strdup(src->base);
	dot = strrchr(src->msgname, '.');
	if (dot)
		*dot = '_';
}

static int one_source(struct wpp_config *cfg, const struct options *o, const char *path)
{
	struct wpp_source src = { 0 };
	struct wpp_buf tmf = { 0 }, tmh = { 0 };
	struct wpp_tmf_opts to = { .major = getenv("MAJORCOMP"), .minor = getenv("MINORCOMP") };
	struct wpp_tmh_opts ho = { .ctl_guid = o->ctl ? o->ctl_text : NULL, .dll = o->dll,
				   .ndefines = o->ndefines, .defines = o->defines };
	char *text = read_all(path), *friendly = NULL, *stem, guid[37], tmfname[48];
	int ret = 1;

	if (!text)
		return etw_error("wpp: %s: %s", path, strerror(errno));
	names(&src, path);
	/* Its config blocks first: a FUNC may follow a call of it. */
	if (wpp_scan(cfg, path, text, &src, false) || wpp_scan(cfg, path, text, &src, true))
		goto out;
	for (int i = 0; i < src.nmsgs; i++)
		if (wpp_format_msg(cfg, &src, &src.msgs[i]))
			goto out;
	friendly = o->friendly ? strdup(o->friendly) : friendly_of(path);
	to.friendly = friendly;
	wpp_tmf_text(&src, cfg, &to, &tmf);
	wpp_tmh_text(&src, cfg, tmf.s, &ho, &tmh);
	wpp_guid_str(src.guid, guid);
	snprintf(tmfname, sizeof(tmfname), "%s.tmf", guid);
	/* tracedrv.c -> tracedrv.tmh */
	stem = malloc(strlen(src.base) + 5);
	strcpy(stem, src.base);
	if (strrchr(stem, '.') && strrchr(stem, '.') != stem)
		*strrchr(stem, '.') = 0;
	strcat(stem, ".tmh");
	/* A source without messages has a .tmh and no TMF. */
	ret = (src.nmsgs && write_all(o->tmfdir ? o->tmfdir : o->odir, tmfname, tmf.s, tmf.len)) ||
	      write_all(o->odir, stem, tmh.s, tmh.len);
	free(stem);
out:
	free(friendly);
	wpp_buf_free(&tmf);
	wpp_buf_free(&tmh);
	wpp_source_free(&src);
	free(text);
	return ret ? 1 : 0;
}

static int configure(struct wpp_config *cfg, const struct options *o)
{
	if (o->cfgdir) {
		char path[PATH_MAX], *text;
		int ret;

		snprintf(path, sizeof(path), "%s/defaultwpp.ini", o->cfgdir);
		text = read_all(path);
		if (!text)
			return etw_error("wpp: -cfgdir: %s: %s", path, strerror(errno));
		ret = wpp_config_parse(cfg, text, path, 1);
		free(text);
		if (ret)
			return 1;
	} else if (wpp_config_parse(cfg, wpp_default_config, "defaultwpp.ini", 1)) {
		return 1;
	}
	for (int i = 0; i < o->ninis; i++) {
		char *text = read_all(o->inis[i]);
		int ret;

		if (!text)
			return etw_error("wpp: -ini:%s: %s", o->inis[i], strerror(errno));
		ret = wpp_config_parse(cfg, text, o->inis[i], 1);
		free(text);
		if (ret)
			return 1;
	}
	for (int i = 0; i < o->nfuncs; i++) {
		struct wpp_pos pos = { "-func", 0 };

		if (wpp_config_func(cfg, o->funcs[i], &pos))
			return 1;
	}
	for (int i = 0; i < o->nscans; i++) {
		struct wpp_source none = { 0 };
		char *text = read_all(o->scans[i]);
		int ret;

		if (!text)
			return etw_error("wpp: -scan:%s: %s", o->scans[i], strerror(errno));
		ret = wpp_scan(cfg, o->scans[i], text, &none, false);
		free(text);
		if (ret)
			return 1;
	}
	if (cfg->km)
		return etw_error("wpp: -km: kernel-mode tracing is not supported yet "
				 "(user mode only)");
	return 0;
}

int cmd_wpp(int argc, char **argv)
{
	struct options o = { .odir = ".", .ext = ".c.cc.cpp.cxx.h.hpp" };
	struct wpp_config cfg = { 0 };
	char **srcs = NULL;
	int nsrcs = 0, ret;

	/* tracepdb's part: the TMF files a built program carries. */
	if (argc > 1 && !strcmp(argv[1], "extract"))
		return cmd_wpp_extract(argc - 1, argv + 1);
	if (etw_wants_help(argc, argv)) {
		fputs(usage_text, stdout);
		return 0;
	}
	ret = parse_args(argc, argv, &o, &srcs, &nsrcs);
	if (!ret && o.km)
		ret = etw_error("wpp: -km: kernel-mode tracing is not supported yet "
				"(user mode only)");
	if (!ret)
		ret = configure(&cfg, &o);
	cfg.dll |= o.dll;
	o.dll = cfg.dll;
	for (int i = 0; !ret && i < nsrcs; i++)
		if (wanted(srcs[i], o.ext))
			ret = one_source(&cfg, &o, srcs[i]);
	wpp_config_free(&cfg);
	free(srcs);
	free(o.scans);
	free(o.funcs);
	free(o.defines);
	free(o.inis);
	return ret;
}
