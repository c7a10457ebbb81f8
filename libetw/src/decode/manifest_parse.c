// SPDX-License-Identifier: MIT
/*
 * Reading an instrumentation manifest with expat: the parser collects the
 * providers, their channels, levels, tasks and opcodes, keywords, maps,
 * templates and events, and the string tables, as written; mf_finish()
 * (manifest_finish.c) then resolves the names they use.  Elements the
 * decoders have no use for (filters, descriptions, <UserData>'s XML) are
 * skipped.  Element names are matched without their namespace prefix, as
 * manifests are written both with a default namespace and with prefixes.
 */
#include <errno.h>
#include <expat.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../common/internal.h"
#include "manifest.h"

#define MAX_DEPTH	32

enum where {
	W_OTHER,		/* skipped, with everything inside */
	W_ROOT, W_INSTRUMENTATION, W_PROVIDERS, W_PROVIDER,
	W_CHANNELS, W_LEVELS, W_TASKS, W_TASK, W_TASK_OPCODES, W_OPCODES,
	W_KEYWORDS, W_MAPS, W_MAP, W_TEMPLATES, W_TEMPLATE, W_STRUCT,
	W_EVENTS, W_LOCALIZATION, W_RESOURCES, W_STRING_TABLE,
	W_LEAF,			/* an item already taken from its attributes */
};

struct parser {
	XML_Parser xp;
	struct mf_build *b;
	struct mf_arena *a;
	enum where stack[MAX_DEPTH];
	unsigned int depth;
	unsigned int skip;		/* depth inside a skipped element */
	int ret;
	const char *culture;
	/* The item being filled: indexes, since the arrays still grow. */
	size_t provider, task, map, tmpl, strct;
};

int mf_error(struct etw_manifest_error *err, unsigned long line,
	     const char *fmt, ...)
{
	va_list ap;

	if (err && !err->message[0]) {
		err->line = line;
		va_start(ap, fmt);
		vsnprintf(err->message, sizeof(err->message), fmt, ap);
		va_end(ap);
	}
	return -EBADMSG;
}

bool mf_number(const char *s, uint64_t max, uint64_t *v)
{
	uint64_t n = 0;
	int base = 10;

	while (*s == ' ' || *s == '\t')
		s++;
	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		base = 16;
		s += 2;
	}
	if (!*s)
		return false;
	for (; *s && *s != ' ' && *s != '\t'; s++) {
		unsigned int d;

		if (*s >= '0' && *s <= '9')
			d = (unsigned int)(*s - '0');
		else if (base == 16 && *s >= 'a' && *s <= 'f')
			d = (unsigned int)(*s - 'a' + 10);
		else if (base == 16 && *s >= 'A' && *s <= 'F')
			d = (unsigned int)(*s - 'A' + 10);
		else
			return false;
		if (n > (UINT64_MAX - d) / (unsigned int)base)
			return false;
		n = n * (unsigned int)base + d;
	}
	while (*s == ' ' || *s == '\t')
		s++;
	if (*s || n > max)
		return false;
	*v = n;
	return true;
}

static int hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

bool mf_guid(const char *s, GUID *g)
{
	static const int groups[] = { 8, 4, 4, 4, 12 };
	uint8_t b[16];
	size_t len = strlen(s), nb = 0;

	if (len == 38 && s[0] == '{' && s[37] == '}')
		s++;
	else if (len != 36)
		return false;
	for (int i = 0; i < 5; i++) {
		for (int j = 0; j < groups[i]; j += 2) {
			int hi = hexval(s[0]), lo = hexval(s[1]);

			if (hi < 0 || lo < 0)
				return false;
			b[nb++] = (uint8_t)(hi << 4 | lo);
			s += 2;
		}
		if (i < 4 && *s++ != '-')
			return false;
	}
	g->Data1 = (uint32_t)b[0] << 24 | (uint32_t)b[1] << 16 |
		   (uint32_t)b[2] << 8 | b[3];
	g->Data2 = (uint16_t)(b[4] << 8 | b[5]);
	g->Data3 = (uint16_t)(b[6] << 8 | b[7]);
	memcpy(g->Data4, b + 8, 8);
	return true;
}

static const char *local(const char *name)
{
	const char *c = strrchr(name, ':');

	return c ? c + 1 : name;
}

static const char *attr(const char **atts, const char *name)
{
	for (; *atts; atts += 2)
		if (!strcmp(local(atts[0]), name))
			return atts[1];
	return NULL;
}

static unsigned long line_of(struct parser *p)
{
	return (unsigned long)XML_GetCurrentLineNumber(p->xp);
}

static void fail(struct parser *p, int ret)
{
	if (!p->ret)
		p->ret = ret;
	XML_StopParser(p->xp, XML_FALSE);
}

static void nomem(struct parser *p)
{
	mf_error(p->b->err, line_of(p), "out of memory");
	fail(p, -ENOMEM);
}

#define ERR(p, ...) fail((p), mf_error((p)->b->err, line_of(p), __VA_ARGS__))

/* A required attribute, copied; NULL after reporting its absence. */
static const char *need(struct parser *p, const char **atts, const char *el,
			const char *name)
{
	const char *v = attr(atts, name);

	if (!v) {
		ERR(p, "<%s> has no %s attribute", el, name);
		return NULL;
	}
	return v;
}

static const char *copy(struct parser *p, const char *s)
{
	const char *d = s ? mf_strdup(p->a, s) : NULL;

	if (s && !d)
		nomem(p);
	return d;
}

static bool number(struct parser *p, const char *el, const char *name,
		   const char *s, uint64_t max, uint64_t *v)
{
	if (mf_number(s, max, v))
		return true;
	ERR(p, "<%s %s=\"%s\">: not a number from 0 to %llu", el, name, s,
	    (unsigned long long)max);
	return false;
}

static struct etw_mf_provider *provider(struct parser *p)
{
	return &p->b->model->m.providers[p->provider];
}

/* A name/symbol/message/value item of a level, opcode, task or keyword. */
static bool value_item(struct parser *p, const char **atts, const char *el,
		       const char *value_attr, uint64_t max,
		       struct etw_mf_value *v)
{
	const char *name = need(p, atts, el, "name");
	const char *val = name ? need(p, atts, el, value_attr) : NULL;

	if (!val || !number(p, el, value_attr, val, max, &v->value))
		return false;
	v->name = copy(p, name);
	v->symbol = copy(p, attr(atts, "symbol"));
	v->message = copy(p, attr(atts, "message"));
	return !p->ret;
}

#define PUSH(p, arr, n, cap) \
	mf_push((p)->a, &(arr), &(n), &(cap), sizeof(*(arr)))

static enum where start_provider(struct parser *p, const char **atts)
{
	struct mf_build *b = p->b;
	struct etw_manifest *m = &b->model->m;
	struct etw_mf_provider *pr;
	struct mf_pending *pd;
	const char *name = need(p, atts, "provider", "name");
	const char *guid = name ? need(p, atts, "provider", "guid") : NULL;

	if (!guid)
		return W_OTHER;
	pr = PUSH(p, m->providers, m->nproviders, b->cap_providers);
	pd = pr ? PUSH(p, b->pending, b->npending, b->cap_pending) : NULL;
	if (!pd) {
		nomem(p);
		return W_OTHER;
	}
	p->provider = m->nproviders - 1;
	pr->line = line_of(p);
	if (!mf_guid(guid, &pr->guid)) {
		ERR(p, "<provider guid=\"%s\">: not a GUID", guid);
		return W_OTHER;
	}
	for (size_t i = 0; i + 1 < m->nproviders; i++)
		if (!memcmp(&m->providers[i].guid, &pr->guid, sizeof(GUID))) {
			ERR(p, "provider %s: guid %s is already provider %s's",
			    name, guid, m->providers[i].name);
			return W_OTHER;
		}
	pr->name = copy(p, name);
	pr->symbol = copy(p, attr(atts, "symbol"));
	pr->message = copy(p, attr(atts, "message"));
	pr->resource_file = copy(p, attr(atts, "resourceFileName"));
	return W_PROVIDER;
}

/*
 * The arrays of the model grow with mf_push(), which wants their capacity:
 * it is always the count rounded up to the next power of two (at least 8),
 * so it is computed rather than stored.
 */
static size_t cap_of(size_t n)
{
	size_t c = 8;

	if (!n)
		return 0;
	while (c < n)
		c *= 2;
	return c;
}

static enum where start_channel(struct parser *p, const char *el,
				const char **atts)
{
	struct etw_mf_provider *pr = provider(p);
	size_t cap = cap_of(pr->nchannels);
	struct etw_mf_channel *c;
	const char *name = need(p, atts, el, "name"), *v;
	uint64_t value;

	if (!name)
		return W_OTHER;
	c = PUSH(p, pr->channels, pr->nchannels, cap);
	if (!c) {
		nomem(p);
		return W_OTHER;
	}
	c->v.name = copy(p, name);
	c->v.symbol = copy(p, attr(atts, "symbol"));
	c->v.message = copy(p, attr(atts, "message"));
	c->chid = copy(p, attr(atts, "chid"));
	c->type = copy(p, attr(atts, "type"));
	c->isolation = copy(p, attr(atts, "isolation"));
	c->imported = !strcmp(el, "importChannel");
	if (c->isolation && strcmp(c->isolation, "Application") &&
	    strcmp(c->isolation, "System") && strcmp(c->isolation, "Custom")) {
		ERR(p, "<%s name=\"%s\">: isolation \"%s\" is not Application, System or Custom",
		    el, name, c->isolation);
		return W_OTHER;
	}
	v = attr(atts, "enabled");
	c->enabled = v && (!strcmp(v, "true") || !strcmp(v, "1"));
	v = attr(atts, "value");
	if (v) {
		if (!number(p, el, "value", v, 255, &value))
			return W_OTHER;
		c->v.value = value;
	} else if (c->imported) {
		const struct etw_mf_channel *w = mf_win_channel(name);

		if (!w) {
			ERR(p, "<importChannel name=\"%s\">: not a channel Windows defines",
			    name);
			return W_OTHER;
		}
		c->v.value = w->v.value;
		if (!c->v.message)
			c->v.message = w->v.message;
		if (!c->type)
			c->type = w->type;
		if (!c->isolation)
			c->isolation = w->isolation;
	} else {
		/* As mc.exe: the manifest's own channels count up from 16. */
		value = 16;
		for (size_t i = 0; i + 1 < pr->nchannels; i++)
			if (!pr->channels[i].imported &&
			    pr->channels[i].v.value >= value)
				value = pr->channels[i].v.value + 1;
		c->v.value = value;
	}
	if (!c->isolation)
		c->isolation = "Application";
	return W_LEAF;
}

static enum where start_value(struct parser *p, const char *el,
			      const char **atts, struct etw_mf_value **arr,
			      size_t *n, const char *value_attr, uint64_t max)
{
	size_t cap = cap_of(*n);
	struct etw_mf_value *v = mf_push(p->a, arr, n, &cap, sizeof(**arr));

	if (!v) {
		nomem(p);
		return W_OTHER;
	}
	return value_item(p, atts, el, value_attr, max, v) ? W_LEAF : W_OTHER;
}

static enum where start_task(struct parser *p, const char **atts)
{
	struct etw_mf_provider *pr = provider(p);
	size_t cap = cap_of(pr->ntasks);
	struct etw_mf_task *t = mf_push(p->a, &pr->tasks, &pr->ntasks, &cap,
					sizeof(*t));
	const char *g;

	if (!t) {
		nomem(p);
		return W_OTHER;
	}
	p->task = pr->ntasks - 1;
	if (!value_item(p, atts, "task", "value", 65535, &t->v))
		return W_OTHER;
	g = attr(atts, "eventGUID");
	if (g && !mf_guid(g, &t->event_guid)) {
		ERR(p, "<task eventGUID=\"%s\">: not a GUID", g);
		return W_OTHER;
	}
	return W_TASK;
}

static enum where start_map(struct parser *p, const char *el, const char **atts)
{
	struct etw_mf_provider *pr = provider(p);
	size_t cap = cap_of(pr->nmaps);
	struct etw_mf_map *m;
	const char *name = need(p, atts, el, "name");

	if (!name)
		return W_OTHER;
	for (size_t i = 0; i < pr->nmaps; i++)
		if (!strcmp(pr->maps[i].name, name)) {
			ERR(p, "<%s name=\"%s\">: a map of that name exists", el, name);
			return W_OTHER;
		}
	m = mf_push(p->a, &pr->maps, &pr->nmaps, &cap, sizeof(*m));
	if (!m) {
		nomem(p);
		return W_OTHER;
	}
	p->map = pr->nmaps - 1;
	m->name = copy(p, name);
	m->bitmap = !strcmp(el, "bitMap");
	return W_MAP;
}

static enum where start_map_entry(struct parser *p, const char **atts)
{
	struct etw_mf_map *m = &provider(p)->maps[p->map];
	size_t cap = cap_of(m->nentries);
	struct etw_mf_map_entry *e;
	const char *v = need(p, atts, "map", "value");
	uint64_t value;

	if (!v || !number(p, "map", "value", v, UINT32_MAX, &value))
		return W_OTHER;
	e = mf_push(p->a, &m->entries, &m->nentries, &cap, sizeof(*e));
	if (!e) {
		nomem(p);
		return W_OTHER;
	}
	e->value = (uint32_t)value;
	e->message = copy(p, attr(atts, "message"));
	return W_LEAF;
}

static enum where start_template(struct parser *p, const char **atts)
{
	struct etw_mf_provider *pr = provider(p);
	struct mf_pending *pd = &p->b->pending[p->provider];
	size_t cap = cap_of(pr->ntemplates);
	struct etw_mf_template *t;
	const char *tid = need(p, atts, "template", "tid");

	if (!tid)
		return W_OTHER;
	for (size_t i = 0; i < pr->ntemplates; i++)
		if (!strcmp(pr->templates[i].tid, tid)) {
			ERR(p, "<template tid=\"%s\">: a template of that tid exists", tid);
			return W_OTHER;
		}
	t = mf_push(p->a, &pr->templates, &pr->ntemplates, &cap, sizeof(*t));
	if (!t || !PUSH(p, pd->templates, pd->ntemplates, pd->cap_templates)) {
		nomem(p);
		return W_OTHER;
	}
	p->tmpl = pr->ntemplates - 1;
	t->tid = copy(p, tid);
	t->name = copy(p, attr(atts, "name"));
	t->line = line_of(p);
	return W_TEMPLATE;
}

static enum where start_field(struct parser *p, const char *el,
			      const char **atts, bool in_struct)
{
	struct mf_raw_template *rt = &p->b->pending[p->provider].templates[p->tmpl];
	bool is_struct = !strcmp(el, "struct");
	struct mf_raw_field *f;
	const char *name = need(p, atts, el, "name");

	if (!name)
		return W_OTHER;
	if (is_struct && in_struct) {
		ERR(p, "<struct name=\"%s\"> inside a struct: structs do not nest", name);
		return W_OTHER;
	}
	f = PUSH(p, rt->f, rt->n, rt->cap);
	if (!f) {
		nomem(p);
		return W_OTHER;
	}
	f->name = copy(p, name);
	f->is_struct = is_struct;
	f->parent = in_struct ? p->strct : SIZE_MAX;
	f->line = line_of(p);
	f->count = copy(p, attr(atts, "count"));
	f->length = copy(p, attr(atts, "length"));
	if (is_struct) {
		p->strct = rt->n - 1;
		return W_STRUCT;
	}
	f->in = copy(p, need(p, atts, el, "inType"));
	f->out = copy(p, attr(atts, "outType"));
	f->map = copy(p, attr(atts, "map"));
	return f->in ? W_LEAF : W_OTHER;
}

static enum where start_event(struct parser *p, const char **atts)
{
	struct etw_mf_provider *pr = provider(p);
	struct mf_pending *pd = &p->b->pending[p->provider];
	size_t cap = cap_of(pr->nevents);
	struct etw_mf_event *e;
	struct mf_event_refs *r;
	const char *v = need(p, atts, "event", "value");
	uint64_t n;

	if (!v || !number(p, "event", "value", v, 65535, &n))
		return W_OTHER;
	e = mf_push(p->a, &pr->events, &pr->nevents, &cap, sizeof(*e));
	r = e ? PUSH(p, pd->events, pd->nevents, pd->cap_events) : NULL;
	if (!r) {
		nomem(p);
		return W_OTHER;
	}
	e->id = (uint16_t)n;
	e->line = line_of(p);
	v = attr(atts, "version");
	if (v) {
		if (!number(p, "event", "version", v, 255, &n))
			return W_OTHER;
		e->version = (uint8_t)n;
	}
	e->symbol = copy(p, attr(atts, "symbol"));
	e->name = copy(p, attr(atts, "name"));
	r->message = copy(p, attr(atts, "message"));
	r->level = copy(p, attr(atts, "level"));
	r->task = copy(p, attr(atts, "task"));
	r->opcode = copy(p, attr(atts, "opcode"));
	r->channel = copy(p, attr(atts, "channel"));
	r->keywords = copy(p, attr(atts, "keywords"));
	r->tmpl = copy(p, attr(atts, "template"));
	return W_LEAF;
}

static enum where start_string(struct parser *p, const char **atts)
{
	struct mf_build *b = p->b;
	const char *id = need(p, atts, "string", "id");
	const char *value = id ? need(p, atts, "string", "value") : NULL;
	struct mf_string *s;

	if (!value)
		return W_OTHER;
	s = PUSH(p, b->strings, b->nstrings, b->cap_strings);
	if (!s) {
		nomem(p);
		return W_OTHER;
	}
	s->id = copy(p, id);
	s->value = copy(p, value);
	s->culture = p->culture;
	return W_LEAF;
}

/* Where an element of name @el goes, inside @parent. */
static enum where child(struct parser *p, enum where parent, const char *el,
			const char **atts)
{
	switch (parent) {
	case W_ROOT:
		if (!strcmp(el, "instrumentation"))
			return W_INSTRUMENTATION;
		if (!strcmp(el, "localization"))
			return W_LOCALIZATION;
		break;
	case W_INSTRUMENTATION:
		if (!strcmp(el, "events"))
			return W_PROVIDERS;
		break;
	case W_PROVIDERS:
		if (!strcmp(el, "provider"))
			return start_provider(p, atts);
		break;
	case W_PROVIDER:
		if (!strcmp(el, "channels"))
			return W_CHANNELS;
		if (!strcmp(el, "levels"))
			return W_LEVELS;
		if (!strcmp(el, "tasks"))
			return W_TASKS;
		if (!strcmp(el, "opcodes"))
			return W_OPCODES;
		if (!strcmp(el, "keywords"))
			return W_KEYWORDS;
		if (!strcmp(el, "maps"))
			return W_MAPS;
		if (!strcmp(el, "templates"))
			return W_TEMPLATES;
		if (!strcmp(el, "events"))
			return W_EVENTS;
		break;
	case W_CHANNELS:
		if (!strcmp(el, "channel") || !strcmp(el, "importChannel"))
			return start_channel(p, el, atts);
		break;
	case W_LEVELS:
		if (!strcmp(el, "level"))
			return start_value(p, el, atts, &provider(p)->levels,
					   &provider(p)->nlevels, "value", 255);
		break;
	case W_TASKS:
		if (!strcmp(el, "task"))
			return start_task(p, atts);
		break;
	case W_TASK:
		if (!strcmp(el, "opcodes"))
			return W_TASK_OPCODES;
		break;
	case W_TASK_OPCODES: {
		struct etw_mf_task *t = &provider(p)->tasks[p->task];

		if (!strcmp(el, "opcode"))
			return start_value(p, el, atts, &t->opcodes, &t->nopcodes,
					   "value", 255);
		break;
	}
	case W_OPCODES:
		if (!strcmp(el, "opcode"))
			return start_value(p, el, atts, &provider(p)->opcodes,
					   &provider(p)->nopcodes, "value", 255);
		break;
	case W_KEYWORDS:
		if (!strcmp(el, "keyword"))
			return start_value(p, el, atts, &provider(p)->keywords,
					   &provider(p)->nkeywords, "mask", UINT64_MAX);
		break;
	case W_MAPS:
		if (!strcmp(el, "valueMap") || !strcmp(el, "bitMap"))
			return start_map(p, el, atts);
		break;
	case W_MAP:
		if (!strcmp(el, "map"))
			return start_map_entry(p, atts);
		break;
	case W_TEMPLATES:
		if (!strcmp(el, "template"))
			return start_template(p, atts);
		break;
	case W_TEMPLATE:
		if (!strcmp(el, "data") || !strcmp(el, "struct"))
			return start_field(p, el, atts, false);
		if (!strcmp(el, "UserData"))
			provider(p)->templates[p->tmpl].user_data = true;
		break;
	case W_STRUCT:
		if (!strcmp(el, "data") || !strcmp(el, "struct"))
			return start_field(p, el, atts, true);
		break;
	case W_EVENTS:
		if (!strcmp(el, "event"))
			return start_event(p, atts);
		break;
	case W_LOCALIZATION:
		if (!strcmp(el, "resources")) {
			p->culture = copy(p, attr(atts, "culture"));
			return W_RESOURCES;
		}
		break;
	case W_RESOURCES:
		if (!strcmp(el, "stringTable"))
			return W_STRING_TABLE;
		break;
	case W_STRING_TABLE:
		if (!strcmp(el, "string"))
			return start_string(p, atts);
		break;
	default:
		break;
	}
	return W_OTHER;
}

static void XMLCALL on_start(void *ud, const char *name, const char **atts)
{
	struct parser *p = ud;
	const char *el = local(name);
	enum where w;

	if (p->skip) {
		p->skip++;
		return;
	}
	if (!p->depth) {
		if (strcmp(el, "instrumentationManifest")) {
			ERR(p, "<%s>: not an instrumentation manifest (its root is <instrumentationManifest>)",
			    el);
			return;
		}
		w = W_ROOT;
	} else {
		w = child(p, p->stack[p->depth - 1], el, atts);
		if (p->ret)
			return;
	}
	if (w == W_OTHER || w == W_LEAF) {
		/* Nothing inside is read; a leaf's children are not ours. */
		p->skip = 1;
		return;
	}
	if (p->depth == MAX_DEPTH) {
		ERR(p, "<%s>: elements nested too deep", el);
		return;
	}
	p->stack[p->depth++] = w;
}

static void XMLCALL on_end(void *ud, const char *name)
{
	struct parser *p = ud;

	(void)name;
	if (p->skip) {
		p->skip--;
		return;
	}
	if (p->depth)
		p->depth--;
}

static struct mf_model *model_new(void)
{
	struct mf_arena a = { 0 };
	struct mf_model *m = mf_alloc(&a, sizeof(*m));

	if (!m)
		return NULL;
	m->arena = a;
	return m;
}

ETW_EXPORT void etw_manifest_free(struct etw_manifest *m)
{
	struct mf_arena a;

	if (!m)
		return;
	/* The arena holds the model itself: copy it out first. */
	a = ((struct mf_model *)m)->arena;
	mf_arena_free(&a);
}

ETW_EXPORT int etw_manifest_parse(const void *xml, size_t size, struct etw_manifest **out,
		       struct etw_manifest_error *err)
{
	struct etw_manifest_error dummy;
	struct mf_build b = { 0 };
	struct parser p = { 0 };
	int ret;

	if (!err)
		err = &dummy;
	memset(err, 0, sizeof(*err));
	*out = NULL;
	if (size > INT32_MAX)
		return mf_error(err, 0, "manifest larger than 2 GiB");
	b.err = err;
	b.model = model_new();
	p.xp = b.model ? XML_ParserCreate(NULL) : NULL;
	if (!p.xp) {
		if (b.model)
			etw_manifest_free(&b.model->m);
		mf_error(err, 0, "out of memory");
		return -ENOMEM;
	}
	p.b = &b;
	p.a = &b.model->arena;
	XML_SetUserData(p.xp, &p);
	XML_SetElementHandler(p.xp, on_start, on_end);
	if (XML_Parse(p.xp, xml, (int)size, XML_TRUE) == XML_STATUS_ERROR &&
	    !p.ret)
		p.ret = mf_error(err, (unsigned long)XML_GetCurrentLineNumber(p.xp),
				 "XML: %s", XML_ErrorString(XML_GetErrorCode(p.xp)));
	ret = p.ret;
	if (!ret && !b.model->m.nproviders)
		ret = mf_error(err, 0, "no <provider> in <instrumentation><events>");
	if (!ret)
		ret = mf_finish(&b);
	XML_ParserFree(p.xp);
	if (ret) {
		etw_manifest_free(&b.model->m);
		return ret;
	}
	*out = &b.model->m;
	return 0;
}

int mf_read_file(const char *path, char **buf, size_t *size)
{
	struct stat st;
	size_t done = 0;
	int fd, ret = 0;

	*buf = NULL;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) < 0) {
		ret = -errno;
		goto out;
	}
	if (!S_ISREG(st.st_mode) || st.st_size > INT32_MAX) {
		ret = S_ISDIR(st.st_mode) ? -EISDIR : S_ISREG(st.st_mode) ? -EFBIG : -EINVAL;
		goto out;
	}
	*buf = malloc((size_t)st.st_size + 1);
	if (!*buf) {
		ret = -ENOMEM;
		goto out;
	}
	while (done < (size_t)st.st_size) {
		ssize_t n = read(fd, *buf + done, (size_t)st.st_size - done);

		if (n <= 0) {
			ret = n ? -errno : -EIO;
			goto out;
		}
		done += (size_t)n;
	}
	*size = done;
out:
	if (ret) {
		free(*buf);
		*buf = NULL;
	}
	close(fd);
	return ret;
}

ETW_EXPORT int etw_manifest_read(const char *path, struct etw_manifest **out,
				 struct etw_manifest_error *err)
{
	struct etw_manifest_error dummy;
	size_t size = 0;
	char *buf;
	int ret;

	if (!err)
		err = &dummy;
	memset(err, 0, sizeof(*err));
	*out = NULL;
	ret = mf_read_file(path, &buf, &size);
	if (ret) {
		snprintf(err->message, sizeof(err->message), "%s", strerror(-ret));
		return ret;
	}
	ret = etw_manifest_parse(buf, size, out, err);
	free(buf);
	return ret;
}
