// SPDX-License-Identifier: GPL-2.0
/*
 * The journal catalog of the installed manifests (systemd's "Journal
 * Message Catalogs"): for every event of a journal channel an entry under
 * its MESSAGE_ID, whose Subject is the manifest's message with each %N
 * insert written @ETW_DATA_<NAME>@, so that `journalctl -x` explains the
 * entry with its own values.  One file per provider,
 * etw-<provider-guid>.catalog; `journalctl --update-catalog` indexes them.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dump/dump.h"
#include "eventlog/eventlog.h"

/* The message with %N as @ETW_DATA_<NAME>@ and %n, %t as spaces. */
static void subject(struct sbuf *sb, const char *msg,
		    const struct etw_mf_template *t)
{
	char name[80];

	sb_reset(sb);
	for (const char *p = msg; p && *p; p++) {
		unsigned int n;

		if (*p == '\n' || *p == '\r') {
			sb_putc(sb, ' ');
			continue;
		}
		if (*p != '%' || !p[1]) {
			sb_putc(sb, *p);
			continue;
		}
		p++;
		if (*p < '1' || *p > '9') {
			sb_putc(sb, *p == 'n' || *p == 't' || *p == 'b' ? ' ' : *p);
			continue;
		}
		n = (unsigned int)(*p - '0');
		if (p[1] >= '0' && p[1] <= '9')
			n = n * 10 + (unsigned int)(*++p - '0');
		if (p[1] == '!') {
			const char *end = strchr(p + 2, '!');

			if (end)
				p = end;
		}
		if (t && n >= 1 && n <= t->ntop) {
			el_field_name("ETW_DATA_", t->fields[n - 1].name, name, sizeof(name));
			sb_printf(sb, "@%s@", name);
		} else {
			sb_printf(sb, "%%%u", n);
		}
	}
	/* Trailing spaces from the message's last %n. */
	while (sb->len && sb->p[sb->len - 1] == ' ')
		sb->p[--sb->len] = '\0';
}

static int provider_file(const struct el_plan *plan, size_t first, const char *dir,
			 unsigned int *entries)
{
	const struct etw_mf_provider *p = plan->c[first].provider;
	struct sbuf sb = { 0 };
	char path[4096], tmp[4200], guid[40], id[33];
	FILE *f;
	int ret = 0;

	snprintf(guid, sizeof(guid), "%08x-%04x-%04x-%02x%02x-%02x%02x%02x%02x%02x%02x",
		 (unsigned int)p->guid.Data1, p->guid.Data2, p->guid.Data3,
		 p->guid.Data4[0], p->guid.Data4[1], p->guid.Data4[2],
		 p->guid.Data4[3], p->guid.Data4[4], p->guid.Data4[5],
		 p->guid.Data4[6], p->guid.Data4[7]);
	if (snprintf(path, sizeof(path), "%s/etw-%s.catalog", dir, guid) >= (int)sizeof(path))
		return -ENAMETOOLONG;
	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	f = fopen(tmp, "w");
	if (!f)
		return -errno;
	fprintf(f, "# The journal catalog of %s {%s},\n# written by etw eventlog catalog from its manifest.\n",
		p->name, guid);
	for (size_t i = 0; i < p->nevents; i++) {
		const struct etw_mf_event *ev = &p->events[i];
		const struct el_channel *c = el_plan_find(plan, &p->guid, ev->channel);

		if (!ev->channel_v || !c || c->provider != p)
			continue;
		el_message_id(&p->guid, ev->id, ev->version, id);
		subject(&sb, ev->message ? ev->message : "", ev->tmpl);
		fprintf(f, "\n-- %s\nSubject: %s\nDefined-By: %s\n\n", id,
			sb.len ? sb.p : p->name, p->name);
		fprintf(f, "Event %u, version %u, of %s in the %s channel",
			ev->id, ev->version, p->name, c->channel->v.name);
		if (ev->level_v)
			fprintf(f, ", level %s", ev->level_v->message ?
				ev->level_v->message : ev->level_v->name);
		if (ev->task_v)
			fprintf(f, ", task %s", ev->task_v->message ?
				ev->task_v->message : ev->task_v->name);
		fprintf(f, ".\n");
		if (ev->tmpl && ev->tmpl->ntop) {
			fprintf(f, "Its values are the entry's fields:");
			for (size_t k = 0; k < ev->tmpl->ntop; k++) {
				char name[80];

				el_field_name("ETW_DATA_", ev->tmpl->fields[k].name, name, sizeof(name));
				fprintf(f, "%s%s", k ? ", " : " ", name);
			}
			fprintf(f, ".\n");
		}
		(*entries)++;
	}
	sb_free(&sb);
	if (ferror(f))
		ret = -EIO;
	if (fclose(f) && !ret)
		ret = -errno;
	if (!ret && rename(tmp, path))
		ret = -errno;
	if (ret)
		unlink(tmp);
	return ret;
}

int el_catalog_write(const struct el_plan *plan, const char *dir,
		     unsigned int *files, unsigned int *entries)
{
	*files = 0;
	*entries = 0;
	for (size_t i = 0; i < plan->n; i++) {
		bool done = false;
		int ret;

		/* One file per provider: at its first channel. */
		for (size_t k = 0; k < i && !done; k++)
			done = plan->c[k].provider == plan->c[i].provider;
		if (done)
			continue;
		ret = provider_file(plan, i, dir, entries);
		if (ret)
			return ret;
		(*files)++;
	}
	return 0;
}
