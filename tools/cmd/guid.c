// SPDX-License-Identifier: GPL-2.0
/*
 * etw guid: the provider GUID Windows derives from a provider name.
 */
#include <stdio.h>
#include <string.h>

#include <libetw.h>

#include "ctl.h"
#include "etw.h"

static const char guid_usage[] =
	"usage: etw guid [--braces] NAME...\n\n"
	"Print, one a line, the GUID Windows derives from each provider name\n"
	"(TraceLogging, EventSource): the name upper-cased, hashed with SHA-1.\n"
	"A name is UTF-8; case does not matter.\n\n"
	"  -b, --braces    print {GUID} as Windows' tools do\n"
	"  -h, --help      this text\n";

int cmd_guid(int argc, char **argv)
{
	unsigned char g[16];
	char text[39];
	int braces = 0, first, i = 1;

	if (etw_wants_help(argc, argv)) {
		fputs(guid_usage, stdout);
		return 0;
	}
	if (i < argc && (!strcmp(argv[i], "-b") || !strcmp(argv[i], "--braces"))) {
		braces = 1;
		i++;
	}
	if (i < argc && !strcmp(argv[i], "--"))
		i++;
	if (i >= argc) {
		fputs(guid_usage, stderr);
		return 2;
	}
	/* All or nothing: a bad name prints no GUID at all. */
	for (first = i; i < argc; i++)
		if (etw_guid_from_name(argv[i], strlen(argv[i]), g))
			return etw_error("guid: '%s' is not valid UTF-8: ERROR_INVALID_PARAMETER (87)",
					 argv[i]);
	for (i = first; i < argc; i++) {
		etw_guid_from_name(argv[i], strlen(argv[i]), g);
		ctl_format_guid(g, text);
		if (braces)
			puts(text);
		else
			printf("%.36s\n", text + 1);
	}
	return 0;
}
