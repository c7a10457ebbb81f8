/* SPDX-License-Identifier: GPL-2.0 */
/*
 * etw mc: what the subcommand (cmd/mc.c) and the generators share.
 */
#ifndef ETW_TOOL_MC_H
#define ETW_TOOL_MC_H

#include <stdbool.h>
#include <stdio.h>

#include <etw_manifest.h>

/*
 * The C header mc.exe -um makes of @m: provider GUIDs, the channel,
 * level, task, opcode and keyword symbols, event descriptors,
 * EventRegister<Provider>, EventUnregister<Provider>, EventEnabled<Event>
 * and EventWrite<Event>, over libetw's <evntprov.h>.  @source names the
 * manifest in the header's first comment.  0, or -1 with a message
 * printed (a template mc cannot make arguments of).
 */
int mc_header(FILE *out, const struct etw_manifest *m, const char *source,
	      bool km);

/*
 * A C file that puts the manifest's text @xml into the program's
 * ETW_MANIFEST_SECTION, where TdhLoadManifestFromBinary and `etw manifest
 * install --from-binary` find it.
 */
void mc_embed(FILE *out, const char *xml, size_t size, const char *source,
	      const char *base);

/* @s as a C identifier: other characters become '_'. */
void mc_ident(char *buf, size_t size, const char *s);

#endif /* ETW_TOOL_MC_H */
