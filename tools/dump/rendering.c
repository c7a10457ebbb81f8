// SPDX-License-Identifier: GPL-2.0
/*
 * etw dump: what a manifest adds to a decoded event, as tracerpt shows it
 * in its RenderingInfo: the level, task, opcode, keyword and channel
 * names, and the event's message with its inserts (%1 .. %n, the
 * template's top-level fields in order) filled in by FormatMessage's
 * rules.  And the warning for an event of a provider whose manifest has
 * no such id and version, or whose data does not match the template:
 * such an event is shown raw, never decoded with another layout.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <etw_manifest.h>
#include <tdh.h>

#include "dump/dump.h"

/* The base of a field's name: "Points" of "Points[1].X". */
static size_t base_len(const char *name)
{
	return strcspn(name, "[.");
}

/*
 * The fields of top-level property @n (1-based): the decoder's fields in
 * order, a property's elements and members under its name.
 */
static bool insert(const struct etw_decoded_event *dec, unsigned int n,
		   struct sbuf *sb)
{
	unsigned int k = 0;
	const char *base = NULL;
	size_t blen = 0;
	bool any = false;

	for (uint32_t i = 0; i < dec->field_count; i++) {
		const char *name = dec->fields[i].name;
		size_t len = base_len(name);

		if (!base || len != blen || strncmp(name, base, len)) {
			k++;
			base = name;
			blen = len;
		}
		if (k < n)
			continue;
		if (k > n)
			break;
		if (any)
			sb_put(sb, ", ", 2);
		sb_put(sb, dec->fields[i].value, strlen(dec->fields[i].value));
		any = true;
	}
	return any;
}

void dump_message(struct sbuf *sb, const char *msg,
		  const struct etw_decoded_event *dec)
{
	sb_reset(sb);
	for (const char *p = msg; *p; p++) {
		if (*p != '%') {
			sb_putc(sb, *p);
			continue;
		}
		switch (*++p) {
		case '\0':
			return;
		case '0':
			return;
		case 'n':
			sb_putc(sb, '\n');
			continue;
		case 'r':
			sb_putc(sb, '\r');
			continue;
		case 't':
			sb_putc(sb, '\t');
			continue;
		case 'b':
			sb_putc(sb, ' ');
			continue;
		default:
			break;
		}
		if (*p >= '1' && *p <= '9') {
			const char *start = p - 1;
			unsigned int n = (unsigned int)(*p - '0');

			if (p[1] >= '0' && p[1] <= '9')
				n = n * 10 + (unsigned int)(*++p - '0');
			/* A printf format after it ("%1!s!") changes nothing here. */
			if (p[1] == '!') {
				const char *end = strchr(p + 2, '!');

				if (end)
					p = end;
			}
			if (!insert(dec, n, sb))
				sb_put(sb, start, (size_t)(p - start + 1));
			continue;
		}
		/* %%, %., %!, "% " and the rest: the character itself. */
		sb_putc(sb, *p);
	}
}

void dump_rendering(struct dump_prep *pp, const struct etw_etl_event *ev)
{
	const struct etw_decoded_event *dec = &pp->dec;
	struct kv_list *r = &pp->e.rendering;

	kv_reset(r);
	pp->e.warning = NULL;
	if (!pp->dec_ret && dec->decoding_source == DecodingSourceXMLFile) {
		if (dec->level_name[0])
			kv_add(r, "Level", NULL, false, "%s", dec->level_name);
		if (dec->task_name[0])
			kv_add(r, "Task", NULL, false, "%s", dec->task_name);
		if (dec->opcode_name[0])
			kv_add(r, "Opcode", NULL, false, "%s", dec->opcode_name);
		if (dec->keywords_name[0])
			kv_add(r, "Keywords", NULL, false, "%s", dec->keywords_name);
		if (dec->channel_name[0])
			kv_add(r, "Channel", NULL, false, "%s", dec->channel_name);
		if (dec->message[0]) {
			dump_message(&pp->warning, dec->message, dec);
			kv_add(r, "Message", NULL, false, "%s", pp->warning.p);
		}
	} else if ((ev->has & ETW_ETL_HAS_DESCRIPTOR) &&
		   (pp->dec_ret == -ENOENT || pp->dec_ret == -EBADMSG) &&
		   !(ev->flags & EVENT_HEADER_FLAG_TRACE_MESSAGE)) {
		const struct etw_mf_provider *p;
		GUID g;

		memcpy(&g, &ev->provider, sizeof(g));
		p = etw_manifest_find_provider(&g);
		sb_reset(&pp->warning);
		if (p && pp->dec_ret == -ENOENT)
			sb_printf(&pp->warning, "the manifest of %s has no event %u version %u: shown raw",
				  p->name, ev->id, ev->version);
		else if (p)
			sb_printf(&pp->warning, "the data does not match event %u version %u of the manifest of %s: shown raw",
				  ev->id, ev->version, p->name);
		if (p)
			pp->e.warning = pp->warning.p;
	}
	kv_finish(r);
}
