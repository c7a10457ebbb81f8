// SPDX-License-Identifier: GPL-2.0
/*
 * etw wpp: a source's trace message format (TMF) text, in the grammar of
 * Windows' TMF files:
 *
 *   // comment lines
 *   <message-guid> <friendly name> // SRC=<file> MJ=<major> MN=<minor>
 *   #typev <file>_<ext><line> <number> "<format>" //   <COND>=<value> ... FUNC=<function>
 *   {
 *   <argument as written>, <TMF item> -- <10, 11, ...>
 *   }
 *
 * and, before the messages, each enum an ItemEnum argument names:
 *
 *   #enumv <name> <count>
 *   {
 *   <value> <enumerator>
 *   }
 *
 * The message GUID is name-based: SHA-1 over "etw-wpp", the friendly
 * name, the source's file name and the text after the GUID line (each
 * followed by a NUL byte), its first 16 bytes with the version nibble set
 * to 3, as the GUIDs of Windows' TMFs have it.  The same source and
 * messages give the same GUID in every build; a changed message gives
 * another, so old traces keep their own TMF.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wpp.h"
#include "../../libetw/src/common/sha1.h"

void wpp_guid_str(const uint8_t g[16], char out[37])
{
	snprintf(out, 37, "%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x",
		 g[0], g[1], g[2], g[3], g[4], g[5], g[6], g[7], g[8], g[9], g[10], g[11],
		 g[12], g[13], g[14], g[15]);
}

static void enums(const struct wpp_source *src, const struct wpp_config *cfg,
		  struct wpp_buf *out)
{
	const char **done = NULL;
	int ndone = 0;

	for (int i = 0; i < src->nmsgs; i++) {
		for (int k = 0; k < src->msgs[i].nargs; k++) {
			const struct wpp_type *t = src->msgs[i].args[k].type;
			const struct wpp_enum *e;
			int d;

			if (!t->enum_name)
				continue;
			for (d = 0; d < ndone && strcmp(done[d], t->enum_name); d++)
				;
			if (d < ndone)
				continue;
			e = wpp_enum_find(cfg, t->enum_name);
			if (!e)
				continue;	/* the formatter said so already */
			done = realloc(done, sizeof(*done) * (ndone + 1));
			done[ndone++] = t->enum_name;
			wpp_buf_printf(out, "#enumv %s %d\n{\n", t->enum_name, e->count);
			for (int v = 0; v < e->count; v++)
				wpp_buf_printf(out, "%u %s\n", (unsigned int)e->values[v], e->names[v]);
			wpp_buf_puts(out, "}\n");
		}
	}
	free(done);
}

static void message(const struct wpp_source *src, const struct wpp_msg *m, struct wpp_buf *out)
{
	const struct wpp_func *f = m->func;

	wpp_buf_printf(out, "#typev %s%d %d \"%s\" //  ", src->msgname, m->pos.line, m->number,
		       m->text);
	for (int i = 0; i < f->nfixed; i++)
		wpp_buf_printf(out, " %s=%s", f->fixed_names[i], f->fixed_values[i]);
	for (int i = 0; i < f->nparams; i++)
		if (i != f->msg)
			wpp_buf_printf(out, " %s=%s", f->params[i], m->vals[i]);
	if (*m->function)
		wpp_buf_printf(out, " FUNC=%s", m->function);
	wpp_buf_puts(out, "\n{\n");
	for (int i = 0; i < m->nargs; i++)
		wpp_buf_printf(out, "%s, %s -- %d\n", m->args[i].expr, m->args[i].type->item, 10 + i);
	wpp_buf_puts(out, "}\n");
}

void wpp_tmf_text(struct wpp_source *src, const struct wpp_config *cfg,
		  const struct wpp_tmf_opts *o, struct wpp_buf *out)
{
	struct wpp_buf body = { 0 };
	struct etw_sha1 h;
	uint8_t digest[ETW_SHA1_SIZE];
	char guid[37];

	wpp_buf_puts(&body, "");
	enums(src, cfg, &body);
	for (int i = 0; i < src->nmsgs; i++)
		message(src, &src->msgs[i], &body);

	etw_sha1_init(&h);
	etw_sha1_update(&h, "etw-wpp", 8);
	etw_sha1_update(&h, o->friendly, strlen(o->friendly) + 1);
	etw_sha1_update(&h, src->base, strlen(src->base) + 1);
	etw_sha1_update(&h, body.s, body.len + 1);
	etw_sha1_final(&h, digest);
	memcpy(src->guid, digest, 16);
	src->guid[6] = (uint8_t)((src->guid[6] & 0x0F) | 0x30);
	wpp_guid_str(src->guid, guid);

	wpp_buf_printf(out, "// etw wpp: %s\n", src->base);
	wpp_buf_printf(out, "%s %s // SRC=%s MJ=%s MN=%s\n", guid, o->friendly, src->base,
		       o->major ? o->major : "", o->minor ? o->minor : "");
	wpp_buf_add(out, body.s, body.len);
	wpp_buf_free(&body);
}
