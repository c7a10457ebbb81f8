// SPDX-License-Identifier: MIT
/*
 * A classic event's description from an installed MOF schema, as
 * Microsoft's "Retrieving Event Data Using MOF" finds it: the event class
 * whose Guid is the record's GUID and whose EventVersion is the record's
 * version (a class without EventVersion when none matches), then the
 * class below it whose EventType lists the record's type; its properties,
 * with those its parents declare, in WmiDataId order.  The Wbem source
 * (wbem.c) asks here after the kernel's own classes.
 *
 * TRACE_EVENT_INFO as for the kernel's classes: EventGuid is the class
 * GUID, the provider name the provider class (the one deriving from
 * EventTrace), the task name the event class's DisplayName (or its
 * name), the opcode name the EventTypeName.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "intype_size.h"
#include "mof.h"

const struct etw_mof_class *mof_parent(const struct etw_mof *m,
				       const struct etw_mof_class *c)
{
	if (!c->parent || !strcasecmp(c->parent, "EventTrace"))
		return NULL;
	for (size_t i = 0; i < m->nclasses; i++)
		if (!strcasecmp(m->classes[i].name, c->parent))
			return &m->classes[i];
	return NULL;
}

static bool class_guid(const struct etw_mof_class *c, GUID *g)
{
	const struct etw_mof_qualifier *q = etw_mof_class_qualifier(c, "Guid");

	return q && q->nvalues == 1 && !mof_guid(q->values[0], g);
}

static bool class_number(const struct etw_mof_class *c, const char *name,
			 size_t i, unsigned long *v)
{
	const struct etw_mof_qualifier *q = etw_mof_class_qualifier(c, name);
	char *end;

	if (!q || i >= q->nvalues)
		return false;
	*v = strtoul(q->values[i], &end, 0);
	return *q->values[i] && !*end;
}

/* The index of type in c's EventType list, or -1. */
static int type_index(const struct etw_mof_class *c, uint8_t type)
{
	const struct etw_mof_qualifier *q = etw_mof_class_qualifier(c, "EventType");
	unsigned long v;

	for (size_t i = 0; q && i < q->nvalues; i++)
		if (class_number(c, "EventType", i, &v) && v == type)
			return (int)i;
	return -1;
}

static const struct etw_mof_class *provider_of(const struct etw_mof *m,
					       const struct etw_mof_class *c)
{
	const struct etw_mof_class *p;

	while ((p = mof_parent(m, c)))
		c = p;
	return c->parent && !strcasecmp(c->parent, "EventTrace") ? c : NULL;
}

int mof_find_event(const struct etw_mof *m, const GUID *guid, uint8_t type,
		   uint8_t version, struct mof_event *out)
{
	bool found = false;

	for (size_t i = 0; i < m->nclasses; i++) {
		const struct etw_mof_class *t = &m->classes[i], *e = t;
		const struct etw_mof_qualifier *names;
		unsigned long v;
		int at = type_index(t, type);
		GUID g;

		if (at < 0)
			continue;
		while (e && !class_guid(e, &g))
			e = mof_parent(m, e);
		if (!e || memcmp(&g, guid, sizeof(g)))
			continue;
		if (class_number(e, "EventVersion", 0, &v) && v != version)
			continue;
		if (found && etw_mof_class_qualifier(e, "EventVersion") == NULL)
			continue;	/* an exact version already won */
		out->mof = m;
		out->provider = provider_of(m, e);
		out->event = e;
		out->type = t;
		names = etw_mof_class_qualifier(t, "EventTypeName");
		out->type_name = !names ? NULL :
				 names->list ? ((size_t)at < names->nvalues ?
						names->values[at] : NULL) :
				 names->nvalues ? names->values[0] : NULL;
		found = true;
		if (etw_mof_class_qualifier(e, "EventVersion"))
			break;
	}
	return found ? 0 : -ENOENT;
}

const struct etw_mof_class *mof_find_provider(const struct etw_mof *m,
					      const GUID *guid)
{
	for (size_t i = 0; i < m->nclasses; i++) {
		const struct etw_mof_class *c = &m->classes[i];
		GUID g;

		if (c->parent && !strcasecmp(c->parent, "EventTrace") &&
		    class_guid(c, &g) && !memcmp(&g, guid, sizeof(g)))
			return c;
	}
	return NULL;
}

struct field_ref {
	const struct etw_mof_class *c;
	const struct etw_mof_property *p;
	struct mof_field f;
};

static int by_data_id(const void *a, const void *b)
{
	const struct field_ref *x = a, *y = b;

	return (x->f.data_id > y->f.data_id) - (x->f.data_id < y->f.data_id);
}

/* The event's fields: the type class's and its parents' down to the event class. */
static int collect(const struct mof_event *ev, struct field_ref **out, size_t *n)
{
	const struct etw_mof_class *c;
	struct field_ref *r = NULL;
	size_t count = 0, k = 0;
	char why[160];

	for (c = ev->type; c; c = c == ev->event ? NULL : mof_parent(ev->mof, c))
		count += c->nproperties;
	if (count) {
		r = calloc(count, sizeof(*r));
		if (!r)
			return -ENOMEM;
	}
	for (c = ev->type; c; c = c == ev->event ? NULL : mof_parent(ev->mof, c)) {
		for (size_t i = 0; i < c->nproperties; i++) {
			if (!etw_mof_property_qualifier(&c->properties[i], "WmiDataId"))
				continue;	/* not payload: Flags, Level */
			r[k].c = c;
			r[k].p = &c->properties[i];
			if (mof_field_of(c, r[k].p, &r[k].f, why, sizeof(why))) {
				free(r);
				return -EINVAL;
			}
			k++;
		}
	}
	if (k)
		qsort(r, k, sizeof(*r), by_data_id);
	for (size_t i = 1; i < k; i++) {
		if (r[i].f.data_id == r[i - 1].f.data_id) {
			free(r);
			return -EINVAL;
		}
	}
	*out = r;
	*n = k;
	return 0;
}

static int add_map(struct tei_builder *b, const struct field_ref *r,
		   char *name, size_t size)
{
	struct tei_map_entry *e;
	uint32_t n;
	int ret;

	snprintf(name, size, "%s_%s", r->c->name, r->p->name);
	ret = mof_map_entries(&r->f, &e, &n);
	if (!ret)
		ret = tei_add_map(b, name, r->f.map_flags, e, n);
	free(e);
	return ret < 0 ? ret : 0;
}

static int add_field(struct tei_builder *b, const struct field_ref *refs,
		     size_t i)
{
	const struct field_ref *r = &refs[i];
	char map[160];
	struct tei_prop p = {
		.name = r->p->name, .in_type = r->f.in_type,
		.out_type = r->f.out_type, .count = r->f.count,
	};
	int ret;

	if (r->f.map_values) {
		ret = add_map(b, r, map, sizeof(map));
		if (ret)
			return ret;
		p.map_name = map;
	}
	if (r->f.length) {
		p.length = r->f.length;
		p.flags |= PropertyParamFixedLength;
	} else {
		p.length = intype_size(r->f.in_type);
	}
	if (r->f.count_of) {
		size_t j;

		for (j = 0; j < i; j++)
			if (!strcasecmp(refs[j].p->name, r->f.count_of))
				break;
		if (j == i)
			return -EINVAL;	/* the count comes after the array */
		p.count = (uint16_t)j;
		p.flags |= PropertyParamCount;
	} else if (r->p->array) {
		p.flags |= PropertyParamFixedCount;
	}
	return tei_add_property(b, &p);
}

int mof_build(const struct mof_event *ev, const struct decode_key *key,
	      struct decode_desc **out)
{
	const struct etw_mof_qualifier *dn =
		etw_mof_class_qualifier(ev->event, "DisplayName");
	EVENT_DESCRIPTOR desc = { 0 };
	struct field_ref *refs;
	struct tei_builder *b;
	size_t n;
	int ret;

	ret = collect(ev, &refs, &n);
	if (ret)
		return ret;
	b = tei_builder_new();
	if (!b) {
		free(refs);
		return -ENOMEM;
	}
	desc.Version = key->version;
	desc.Opcode = (UCHAR)key->id;
	tei_set_event(b, &key->guid, &key->guid, &desc, DecodingSourceWbem, 0);
	tei_set_string(b, TEI_PROVIDER_NAME_S,
		       ev->provider ? ev->provider->name : ev->event->name);
	tei_set_string(b, TEI_TASK_NAME_S, dn && dn->nvalues == 1 ?
		       dn->values[0] : ev->event->name);
	tei_set_string(b, TEI_OPCODE_NAME_S, ev->type_name);
	for (size_t i = 0; i < n && ret >= 0; i++)
		ret = add_field(b, refs, i);
	if (ret > 0)
		ret = 0;
	if (!ret)
		ret = tei_builder_finish(b, key, DECODE_DESC_LENIENT, out);
	tei_builder_free(b);
	free(refs);
	return ret;
}
