// SPDX-License-Identifier: GPL-2.0
/*
 * The channels the journal gets: every Admin and Operational channel of
 * the installed manifests, kept when the manifest says enabled="true"
 * (imported System and Application channels always are) unless the state
 * file says otherwise, as `wevtutil sl /e` changes a channel's enabled
 * value.  Channels share a session by isolation, as the Event Log's do:
 * Application and System each one, a Custom channel one of its own.
 * Security stays out: its events are the audit system's on Linux.
 *
 * The state file has a line per changed channel: "enabled NAME" or
 * "disabled NAME"; '#' starts a comment.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "eventlog/eventlog.h"

struct models {
	struct etw_manifest **m;
	size_t n;
};

/* The models the plan points into, kept for the life of the process. */
static struct models kept;

static int keep(void *ctx, const char *path, struct etw_manifest *m,
		const struct etw_manifest_error *err)
{
	struct etw_manifest **n;

	(void)ctx;
	(void)err;
	if (!m) {
		fprintf(stderr, "etw: eventlog: %s: refused, not journaled\n", path);
		return 0;
	}
	n = realloc(kept.m, (kept.n + 1) * sizeof(*n));
	if (!n)
		return 0;
	kept.m = n;
	kept.m[kept.n++] = m;
	return 1;
}

static bool journal_type(const struct etw_mf_channel *c)
{
	return c->type && (!strcmp(c->type, "Admin") || !strcmp(c->type, "Operational"));
}

/* "enabled NAME" / "disabled NAME" for name, or -1 if the file has none. */
static int state_of(const char *state, const char *name)
{
	char line[1024];
	int found = -1;
	FILE *f;

	if (!state)
		return -1;
	f = fopen(state, "r");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		char *p = strchr(line, '#');
		char word[16], chan[900];

		if (p)
			*p = '\0';
		if (sscanf(line, "%15s %899[^\n]", word, chan) != 2)
			continue;
		for (p = chan + strlen(chan); p > chan && (p[-1] == ' ' || p[-1] == '\t'); p--)
			p[-1] = '\0';
		if (strcmp(chan, name))
			continue;
		if (!strcmp(word, "enabled"))
			found = 1;
		else if (!strcmp(word, "disabled"))
			found = 0;
	}
	fclose(f);
	return found;
}

static bool known(const struct el_plan *plan, const struct etw_mf_provider *p)
{
	for (size_t i = 0; i < plan->n; i++)
		if (!memcmp(&plan->c[i].provider->guid, &p->guid, sizeof(GUID)))
			return true;
	return false;
}

int el_plan_build(struct el_plan *plan, const char *state)
{
	memset(plan, 0, sizeof(*plan));
	plan->state = state;
	if (!kept.n)
		etw_manifest_foreach(keep, NULL);
	for (size_t m = 0; m < kept.n; m++) {
		for (size_t i = 0; i < kept.m[m]->nproviders; i++) {
			const struct etw_mf_provider *p = &kept.m[m]->providers[i];

			/* The first manifest of a provider wins, as for the decoders. */
			if (known(plan, p))
				continue;
			for (size_t k = 0; k < p->nchannels; k++) {
				const struct etw_mf_channel *ch = &p->channels[k];
				struct el_channel *c, *n;
				int s;

				if (!journal_type(ch) || !strcmp(ch->isolation, "Security"))
					continue;
				n = realloc(plan->c, (plan->n + 1) * sizeof(*n));
				if (!n)
					return -ENOMEM;
				plan->c = n;
				c = &plan->c[plan->n++];
				c->provider = p;
				c->channel = ch;
				c->enabled = ch->enabled || ch->imported;
				s = state_of(state, ch->v.name);
				if (s >= 0)
					c->enabled = s;
				c->group = !strcmp(ch->isolation, "Custom") ? ch->v.name :
					   ch->isolation;
			}
		}
	}
	return 0;
}

void el_plan_free(struct el_plan *plan)
{
	free(plan->c);
	memset(plan, 0, sizeof(*plan));
}

int el_plan_add_file(const char *path)
{
	struct etw_manifest_error err;
	struct etw_manifest *m;
	int ret = etw_manifest_read(path, &m, &err);

	if (ret)
		return ret;
	/* The decoders find it too. */
	etw_manifest_load(path, &err);
	return keep(NULL, path, m, NULL) == 1 ? 1 : -ENOMEM;
}

const struct el_channel *el_plan_find(const struct el_plan *plan,
				      const GUID *provider, uint8_t channel)
{
	for (size_t i = 0; i < plan->n; i++)
		if (plan->c[i].channel->v.value == channel &&
		    !memcmp(&plan->c[i].provider->guid, provider, sizeof(GUID)))
			return &plan->c[i];
	return NULL;
}

int el_state_set(const struct el_plan *plan, const char *name, bool enabled)
{
	char tmp[4096], line[1024];
	bool found = false;
	FILE *in, *out;
	size_t len = strlen(name);

	for (size_t i = 0; i < plan->n && !found; i++)
		found = !strcmp(plan->c[i].channel->v.name, name);
	if (!found)
		return -ENOENT;
	if (snprintf(tmp, sizeof(tmp), "%s.tmp", plan->state) >= (int)sizeof(tmp))
		return -ENAMETOOLONG;
	out = fopen(tmp, "w");
	if (!out)
		return -errno;
	/* Every other line as it was; this channel's last word replaced. */
	in = fopen(plan->state, "r");
	while (in && fgets(line, sizeof(line), in)) {
		const char *p = strchr(line, ' ');

		if (p && !strncmp(p + 1, name, len) &&
		    (p[1 + len] == '\n' || p[1 + len] == '\0'))
			continue;
		fputs(line, out);
	}
	if (in)
		fclose(in);
	fprintf(out, "%s %s\n", enabled ? "enabled" : "disabled", name);
	if (fclose(out) || rename(tmp, plan->state)) {
		int e = -errno;

		unlink(tmp);
		return e;
	}
	return 0;
}
