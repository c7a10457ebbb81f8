// SPDX-License-Identifier: MIT
/*
 * The finishing pass over a parsed manifest: string table references
 * replaced by their text, the templates' fields put in TDH's order with
 * their types, maps and count/length references resolved, and each
 * event's level, task, opcode, channel, keywords and template found by
 * name, as mc.exe resolves them (the provider's own names first, then
 * those winmeta.xml predefines).  Whatever does not resolve is an error
 * naming the line.
 */
#include <errno.h>
#include <string.h>

#include "../common/internal.h"
#include "manifest.h"

struct finish {
	struct mf_build *b;
	struct mf_arena *a;
	const char *culture;		/* of the strings used */
	struct etw_mf_provider *pr;
};

#define ERR(f, line, ...) mf_error((f)->b->err, (line), __VA_ARGS__)

/* "$(string.Id)" -> the text; anything else is taken as it is. */
static int message(struct finish *f, unsigned long line, const char **msg)
{
	const char *s = *msg;
	size_t n;

	if (!s || strncmp(s, "$(string.", 9))
		return 0;
	n = strlen(s);
	if (n < 11 || s[n - 1] != ')')
		return ERR(f, line, "message \"%s\": not $(string.Id)", s);
	for (size_t i = 0; i < f->b->nstrings; i++) {
		const struct mf_string *st = &f->b->strings[i];

		if (strlen(st->id) == n - 10 && !memcmp(st->id, s + 9, n - 10) &&
		    (!f->culture || !st->culture || !strcmp(st->culture, f->culture))) {
			*msg = st->value;
			return 0;
		}
	}
	return ERR(f, line, "message \"%s\": no such string in the string table", s);
}

static int value_messages(struct finish *f, struct etw_mf_value *v, size_t n)
{
	int ret = 0;

	for (size_t i = 0; i < n && !ret; i++)
		ret = message(f, f->pr->line, &v[i].message);
	return ret;
}

static int messages(struct finish *f)
{
	struct etw_mf_provider *pr = f->pr;
	int ret = message(f, pr->line, &pr->message);

	for (size_t i = 0; i < pr->nchannels && !ret; i++)
		ret = message(f, pr->line, &pr->channels[i].v.message);
	if (!ret)
		ret = value_messages(f, pr->levels, pr->nlevels);
	if (!ret)
		ret = value_messages(f, pr->opcodes, pr->nopcodes);
	if (!ret)
		ret = value_messages(f, pr->keywords, pr->nkeywords);
	for (size_t i = 0; i < pr->ntasks && !ret; i++) {
		ret = message(f, pr->line, &pr->tasks[i].v.message);
		if (!ret)
			ret = value_messages(f, pr->tasks[i].opcodes,
					     pr->tasks[i].nopcodes);
	}
	for (size_t i = 0; i < pr->nmaps && !ret; i++)
		for (size_t j = 0; j < pr->maps[i].nentries && !ret; j++) {
			ret = message(f, pr->line, &pr->maps[i].entries[j].message);
			if (!pr->maps[i].entries[j].message)
				pr->maps[i].entries[j].message = "";
		}
	return ret;
}

static bool is_integer(uint16_t in)
{
	return (in >= 3 && in <= 10) || in == 20 || in == 21;
}

/*
 * A count or length: a number, or the name of an earlier field (in the
 * manifest's order) holding an integer.
 */
static int reference(struct finish *f, const struct mf_raw_template *rt,
		     const uint16_t *tdh, size_t self, const char *what,
		     const char *s, uint16_t *fixed, uint16_t *field)
{
	const struct mf_raw_field *rf = &rt->f[self];
	uint64_t v;

	*field = ETW_MF_NONE;
	if (mf_number(s, 65535, &v)) {
		*fixed = (uint16_t)v;
		return 0;
	}
	for (size_t i = 0; i < self; i++) {
		const struct mf_raw_field *o = &rt->f[i];
		uint16_t in;

		if (strcmp(o->name, s))
			continue;
		if (o->is_struct || !mf_in_type(o->in, &in) || !is_integer(in) ||
		    o->count)
			return ERR(f, rf->line, "%s \"%s\" of %s: field %s is not a single integer",
				   what, s, rf->name, s);
		*field = tdh[i];
		return 0;
	}
	return ERR(f, rf->line, "%s \"%s\" of %s: neither a number nor an earlier field",
		   what, s, rf->name);
}

static const struct etw_mf_map *find_map(const struct etw_mf_provider *pr,
					 const char *name)
{
	for (size_t i = 0; i < pr->nmaps; i++)
		if (!strcmp(pr->maps[i].name, name))
			return &pr->maps[i];
	return NULL;
}

static int field(struct finish *f, const struct mf_raw_template *rt,
		 const uint16_t *tdh, size_t i, struct etw_mf_field *out)
{
	const struct mf_raw_field *rf = &rt->f[i];
	int ret;

	out->name = rf->name;
	out->line = rf->line;
	out->is_struct = rf->is_struct;
	out->count = 1;
	out->count_field = ETW_MF_NONE;
	out->length_field = ETW_MF_NONE;
	out->parent = rf->parent == SIZE_MAX ? ETW_MF_NONE : tdh[rf->parent];
	if (!rf->is_struct) {
		if (!mf_in_type(rf->in, &out->in_type))
			return ERR(f, rf->line, "field %s: unknown inType \"%s\"",
				   rf->name, rf->in);
		if (rf->out && !mf_out_type(rf->out, &out->out_type))
			return ERR(f, rf->line, "field %s: unknown outType \"%s\"",
				   rf->name, rf->out);
		if (rf->map) {
			out->map = find_map(f->pr, rf->map);
			if (!out->map)
				return ERR(f, rf->line, "field %s: no map named \"%s\"",
					   rf->name, rf->map);
			if (!is_integer(out->in_type))
				return ERR(f, rf->line, "field %s: a map needs an integer inType",
					   rf->name);
		}
	}
	if (rf->count) {
		out->array = true;
		ret = reference(f, rt, tdh, i, "count", rf->count, &out->count,
				&out->count_field);
		if (ret)
			return ret;
	}
	if (rf->length) {
		ret = reference(f, rt, tdh, i, "length", rf->length, &out->length,
				&out->length_field);
		if (ret)
			return ret;
	} else if (out->in_type == 14) {
		return ERR(f, rf->line, "field %s: win:Binary needs a length",
			   rf->name);
	}
	return 0;
}

/* Top-level fields first, then each struct's members together. */
static int template_fields(struct finish *f, struct etw_mf_template *t,
			   const struct mf_raw_template *rt)
{
	uint16_t *tdh;
	size_t next = 0;
	int ret = 0;

	if (rt->n > 65535)
		return ERR(f, t->line, "template %s: too many fields", t->tid);
	t->nfields = rt->n;
	t->fields = mf_alloc(f->a, rt->n * sizeof(*t->fields));
	tdh = mf_alloc(f->a, (rt->n + 1) * sizeof(*tdh));
	if (!t->fields || !tdh)
		return -ENOMEM;
	for (size_t i = 0; i < rt->n; i++)
		if (rt->f[i].parent == SIZE_MAX)
			tdh[i] = (uint16_t)next++;
	t->ntop = next;
	for (size_t s = 0; s < rt->n; s++) {
		if (!rt->f[s].is_struct)
			continue;
		for (size_t i = s + 1; i < rt->n; i++)
			if (rt->f[i].parent == s)
				tdh[i] = (uint16_t)next++;
	}
	for (size_t i = 0; i < rt->n && !ret; i++)
		ret = field(f, rt, tdh, i, &t->fields[tdh[i]]);
	for (size_t s = 0; s < rt->n && !ret; s++) {
		struct etw_mf_field *sf = &t->fields[tdh[s]];
		uint16_t first = ETW_MF_NONE, members = 0;

		if (!sf->is_struct)
			continue;
		for (size_t i = s + 1; i < rt->n; i++)
			if (rt->f[i].parent == s) {
				if (first == ETW_MF_NONE)
					first = tdh[i];
				members++;
			}
		if (!members)
			return ERR(f, sf->line, "struct %s has no members", sf->name);
		sf->struct_first = first;
		sf->struct_members = members;
	}
	return ret;
}

static const struct etw_mf_value *find_value(const struct etw_mf_value *v,
					     size_t n, const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(v[i].name, name))
			return &v[i];
	return NULL;
}

static const struct etw_mf_channel *find_channel(const struct etw_mf_provider *pr,
						 const char *name)
{
	for (size_t i = 0; i < pr->nchannels; i++)
		if (pr->channels[i].chid && !strcmp(pr->channels[i].chid, name))
			return &pr->channels[i];
	for (size_t i = 0; i < pr->nchannels; i++)
		if (!strcmp(pr->channels[i].v.name, name))
			return &pr->channels[i];
	return mf_win_channel(name);
}

static int keywords(struct finish *f, struct etw_mf_event *e, const char *s)
{
	const struct etw_mf_value **kv;
	size_t n = 0, words = 0;
	const char *p;

	for (p = s; *p; p++)
		if (*p != ' ' && *p != '\t' && *p != '\n' && *p != '\r' &&
		    (p == s || p[-1] == ' ' || p[-1] == '\t' || p[-1] == '\n' ||
		     p[-1] == '\r'))
			words++;
	kv = mf_alloc(f->a, (words + 1) * sizeof(*kv));
	if (!kv)
		return -ENOMEM;
	for (p = s; *p;) {
		size_t len = strcspn(p, " \t\r\n");
		const struct etw_mf_value *k;
		char *name;

		if (!len) {
			p++;
			continue;
		}
		name = mf_strndup(f->a, p, len);
		if (!name)
			return -ENOMEM;
		k = find_value(f->pr->keywords, f->pr->nkeywords, name);
		if (!k)
			k = mf_win_keyword(name);
		if (!k)
			return ERR(f, e->line, "event %u: no keyword named \"%s\"",
				   e->id, name);
		kv[n++] = k;
		e->keywords |= k->value;
		p += len;
	}
	e->keyword_v = kv;
	e->nkeywords = n;
	return 0;
}

static int event(struct finish *f, struct etw_mf_event *e,
		 const struct mf_event_refs *r)
{
	const struct etw_mf_provider *pr = f->pr;
	const struct etw_mf_task *task = NULL;
	int ret;

	if (r->level) {
		e->level_v = find_value(pr->levels, pr->nlevels, r->level);
		if (!e->level_v)
			e->level_v = mf_win_level(r->level);
		if (!e->level_v)
			return ERR(f, e->line, "event %u: no level named \"%s\"",
				   e->id, r->level);
		e->level = (uint8_t)e->level_v->value;
	}
	if (r->task) {
		for (size_t i = 0; i < pr->ntasks && !task; i++)
			if (!strcmp(pr->tasks[i].v.name, r->task))
				task = &pr->tasks[i];
		e->task_v = task ? &task->v : mf_win_task(r->task);
		if (!e->task_v)
			return ERR(f, e->line, "event %u: no task named \"%s\"",
				   e->id, r->task);
		e->task = (uint16_t)e->task_v->value;
	}
	if (r->opcode) {
		if (task)
			e->opcode_v = find_value(task->opcodes, task->nopcodes,
						 r->opcode);
		if (!e->opcode_v)
			e->opcode_v = find_value(pr->opcodes, pr->nopcodes, r->opcode);
		if (!e->opcode_v)
			e->opcode_v = mf_win_opcode(r->opcode);
		if (!e->opcode_v)
			return ERR(f, e->line, "event %u: no opcode named \"%s\"",
				   e->id, r->opcode);
		e->opcode = (uint8_t)e->opcode_v->value;
	}
	if (r->channel) {
		e->channel_v = find_channel(pr, r->channel);
		if (!e->channel_v)
			return ERR(f, e->line, "event %u: no channel named \"%s\"",
				   e->id, r->channel);
		e->channel = (uint8_t)e->channel_v->v.value;
		e->keywords |= e->channel_v->keyword;
	}
	if (r->keywords) {
		ret = keywords(f, e, r->keywords);
		if (ret)
			return ret;
	}
	if (r->tmpl) {
		for (size_t i = 0; i < pr->ntemplates && !e->tmpl; i++)
			if (!strcmp(pr->templates[i].tid, r->tmpl))
				e->tmpl = &pr->templates[i];
		if (!e->tmpl)
			return ERR(f, e->line, "event %u: no template with tid \"%s\"",
				   e->id, r->tmpl);
	}
	e->message = r->message;
	return message(f, e->line, &e->message);
}

static int provider(struct finish *f, struct mf_pending *pd)
{
	struct etw_mf_provider *pr = f->pr;
	int ret = messages(f);

	/* As mc.exe: a keyword bit per channel, from bit 63 down; 8 at most. */
	if (pr->nchannels > 8)
		return ERR(f, pr->line, "provider %s: %zu channels, 8 at most",
			   pr->name, pr->nchannels);
	for (size_t i = 0; i < pr->nchannels; i++)
		pr->channels[i].keyword = 1ull << (63 - i);
	for (size_t i = 0; i < pr->ntemplates && !ret; i++)
		ret = template_fields(f, &pr->templates[i], &pd->templates[i]);
	for (size_t i = 0; i < pr->nevents && !ret; i++) {
		ret = event(f, &pr->events[i], &pd->events[i]);
		for (size_t j = 0; j < i && !ret; j++)
			if (pr->events[j].id == pr->events[i].id &&
			    pr->events[j].version == pr->events[i].version)
				ret = ERR(f, pr->events[i].line,
					  "event %u version %u: already defined on line %lu",
					  pr->events[i].id, pr->events[i].version,
					  pr->events[j].line);
	}
	return ret;
}

int mf_finish(struct mf_build *b)
{
	struct finish f = { .b = b, .a = &b->model->arena };
	int ret = 0;

	/* en-US if the manifest has it, as Windows' default UI language. */
	for (size_t i = 0; i < b->nstrings; i++)
		if (b->strings[i].culture && !strcmp(b->strings[i].culture, "en-US"))
			f.culture = "en-US";
	if (!f.culture && b->nstrings)
		f.culture = b->strings[0].culture;
	b->model->m.culture = f.culture;
	for (size_t i = 0; i < b->model->m.nproviders && !ret; i++) {
		f.pr = &b->model->m.providers[i];
		ret = provider(&f, &b->pending[i]);
	}
	return ret;
}

ETW_EXPORT const struct etw_mf_event *etw_mf_find_event(const struct etw_mf_provider *p,
					     uint16_t id, uint8_t version)
{
	for (size_t i = 0; i < p->nevents; i++)
		if (p->events[i].id == id && p->events[i].version == version)
			return &p->events[i];
	return NULL;
}
