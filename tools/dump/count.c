// SPDX-License-Identifier: GPL-2.0
/*
 * etw dump --summary: records counted per provider and per event (the
 * provider, event id, opcode and, for TraceLogging, event name).  Two
 * open-addressing hash tables; a corrupt file can hold many distinct keys.
 */
#include <stdlib.h>
#include <string.h>

#include "dump/dump.h"
#include "etw.h"

struct table {
	struct dump_count *slots;
	size_t cap;			/* power of two */
	size_t n;
};

struct dump_counter {
	struct table providers;
	struct table events;
	struct dump_count *sorted[2];
};

static void *xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size);

	if (!p) {
		etw_error("dump: out of memory");
		exit(1);
	}
	return p;
}

static char *xstrdup(const char *s)
{
	char *p;

	if (!s)
		return NULL;
	p = strdup(s);
	if (!p) {
		etw_error("dump: out of memory");
		exit(1);
	}
	return p;
}

static uint64_t fnv(uint64_t h, const void *p, size_t n)
{
	const unsigned char *s = p;

	while (n--)
		h = (h ^ *s++) * 0x100000001b3ull;
	return h;
}

static uint64_t hash(const struct dump_count *k)
{
	uint64_t h = 0xcbf29ce484222325ull;

	h = fnv(h, k->provider, strlen(k->provider));
	h = fnv(h, &k->id, sizeof(k->id));
	h = fnv(h, &k->opcode, sizeof(k->opcode));
	if (k->event_name)
		h = fnv(h, k->event_name, strlen(k->event_name));
	return h;
}

static bool same(const struct dump_count *a, const struct dump_count *b)
{
	if (strcmp(a->provider, b->provider) || a->id != b->id ||
	    a->opcode != b->opcode)
		return false;
	if (!a->event_name || !b->event_name)
		return a->event_name == b->event_name;
	return !strcmp(a->event_name, b->event_name);
}

static struct dump_count *slot(struct table *t, const struct dump_count *k)
{
	size_t i = hash(k) & (t->cap - 1);

	while (t->slots[i].count && !same(&t->slots[i], k))
		i = (i + 1) & (t->cap - 1);
	return &t->slots[i];
}

static void grow(struct table *t)
{
	struct table bigger = { .cap = t->cap ? 2 * t->cap : 64 };

	bigger.slots = xcalloc(bigger.cap, sizeof(*bigger.slots));
	for (size_t i = 0; i < t->cap; i++)
		if (t->slots[i].count)
			*slot(&bigger, &t->slots[i]) = t->slots[i];
	bigger.n = t->n;
	free(t->slots);
	*t = bigger;
}

static void count(struct table *t, const struct dump_count *k)
{
	struct dump_count *s;

	if (2 * (t->n + 1) > t->cap)
		grow(t);
	s = slot(t, k);
	if (!s->count) {
		*s = *k;
		s->provider_name = xstrdup(k->provider_name);
		s->event_name = xstrdup(k->event_name);
		t->n++;
	}
	s->count++;
}

struct dump_counter *counter_new(void)
{
	return xcalloc(1, sizeof(struct dump_counter));
}

void counter_add(struct dump_counter *c, const struct dump_event *e)
{
	struct dump_count k = { .provider_name = e->provider_name };

	memcpy(k.provider, e->provider, sizeof(k.provider));
	count(&c->providers, &k);
	k.id = e->ev->id;
	k.opcode = e->ev->opcode;
	k.event_name = e->event_name;
	count(&c->events, &k);
}

static int by_count(const void *a, const void *b)
{
	const struct dump_count *x = a, *y = b;
	int r;

	if (x->count != y->count)
		return x->count > y->count ? -1 : 1;
	r = strcmp(x->provider, y->provider);
	if (r)
		return r;
	if (x->id != y->id)
		return x->id < y->id ? -1 : 1;
	if (x->opcode != y->opcode)
		return x->opcode < y->opcode ? -1 : 1;
	return strcmp(x->event_name ? x->event_name : "",
		      y->event_name ? y->event_name : "");
}

static struct dump_count *sorted(const struct table *t)
{
	struct dump_count *v = xcalloc(t->n, sizeof(*v));
	size_t n = 0;

	for (size_t i = 0; i < t->cap; i++)
		if (t->slots[i].count)
			v[n++] = t->slots[i];
	qsort(v, n, sizeof(*v), by_count);
	return v;
}

void counter_result(struct dump_counter *c, struct dump_summary *s)
{
	free(c->sorted[0]);
	free(c->sorted[1]);
	c->sorted[0] = sorted(&c->providers);
	c->sorted[1] = sorted(&c->events);
	s->providers = c->sorted[0];
	s->nproviders = c->providers.n;
	s->events = c->sorted[1];
	s->nevents = c->events.n;
}

static void table_free(struct table *t)
{
	for (size_t i = 0; i < t->cap; i++) {
		free((char *)t->slots[i].provider_name);
		free((char *)t->slots[i].event_name);
	}
	free(t->slots);
}

void counter_free(struct dump_counter *c)
{
	if (!c)
		return;
	table_free(&c->providers);
	table_free(&c->events);
	free(c->sorted[0]);
	free(c->sorted[1]);
	free(c);
}
