// SPDX-License-Identifier: GPL-2.0
/*
 * etw wpp extract: the <message-guid>.tmf files of a program, from the
 * TMF texts etw wpp's generated code put into its .etw.tmf ELF section,
 * as Windows' tracepdb makes them from a PDB.  Texts of one GUID from
 * several objects (a header traced from two sources) are written once.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <etw_tmf.h>

#include "etw.h"

static void usage(FILE *out)
{
	fputs("usage: etw wpp extract [options] BINARY...\n"
	      "\n"
	      "Write the <message-guid>.tmf files of programs and objects built with\n"
	      "etw wpp's trace headers, from their .etw.tmf section.\n"
	      "\n"
	      "  -o, --output DIR  the folder to write them in (default: .)\n"
	      "  -h, --help        this text\n", out);
}

struct extract {
	const char *dir;
	const char *binary;
	char (*done)[ETW_ETL_GUID_STRLEN];
	size_t ndone;
	unsigned int written;
};

static bool seen(struct extract *x, const char *name)
{
	void *q;

	for (size_t i = 0; i < x->ndone; i++)
		if (!strcmp(x->done[i], name))
			return true;
	q = realloc(x->done, (x->ndone + 1) * sizeof(*x->done));
	if (!q)
		return false;
	x->done = q;
	memcpy(x->done[x->ndone++], name, ETW_ETL_GUID_STRLEN);
	return false;
}

static int write_tmf(void *ctx, const struct etw_etl_guid *guid,
		     const char *text, size_t len)
{
	struct extract *x = ctx;
	char name[ETW_ETL_GUID_STRLEN], path[4096];
	FILE *f;

	etw_etl_guid_to_str(guid, name);
	if (seen(x, name))
		return 0;
	snprintf(path, sizeof(path), "%s/%s.tmf", x->dir, name);
	f = fopen(path, "w");
	if (!f)
		return etw_error("wpp extract: cannot create %s: %s", path,
				 strerror(errno));
	if (fwrite(text, 1, len, f) != len || (len && text[len - 1] != '\n' &&
					       putc('\n', f) == EOF)) {
		fclose(f);
		return etw_error("wpp extract: %s: write error", path);
	}
	if (fclose(f))
		return etw_error("wpp extract: %s: write error: %s", path,
				 strerror(errno));
	x->written++;
	return 0;
}

static int extract(struct extract *x, const char *binary)
{
	struct etw_tmf_error err;
	int ret;

	x->binary = binary;
	ret = etw_tmf_binary_texts(binary, write_tmf, x, &err);
	if (ret > 0)
		return ret;
	if (ret == -EBADMSG && err.line)
		return etw_error("wpp extract: %s:%lu: %s", err.file, err.line,
				 err.message);
	if (ret)
		return etw_error("wpp extract: %s: %s", binary, err.message);
	return 0;
}

int cmd_wpp_extract(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct extract x = { .dir = "." };
	struct stat st;
	int c, status = 0;

	opterr = 0;
	while ((c = getopt_long(argc, argv, ":o:h", longopts, NULL)) != -1) {
		switch (c) {
		case 'o':
			x.dir = optarg;
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			return etw_bad_option("wpp extract", c, argv);
		}
	}
	if (optind >= argc) {
		usage(stderr);
		return 2;
	}
	if (stat(x.dir, &st) || !S_ISDIR(st.st_mode))
		return etw_error("wpp extract: %s is not a folder", x.dir);
	for (int i = optind; i < argc && !status; i++)
		status = extract(&x, argv[i]);
	free(x.done);
	if (!status)
		printf("%u TMF file%s written to %s\n", x.written,
		       x.written == 1 ? "" : "s", x.dir);
	return status;
}
