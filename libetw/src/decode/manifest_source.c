// SPDX-License-Identifier: MIT
/*
 * DecodingSourceXMLFile: a manifest-based event is described by the
 * manifest of its provider (manifest_store.c finds it by GUID), as
 * Windows' TDH describes it: the event's descriptor as the manifest
 * declares it, the provider, level, channel, task and opcode names (their
 * messages where the manifest gives them, else their names), the keyword
 * names, the event's message with its %1..%n inserts as written, and the
 * template's fields in TDH's order with their maps.  An event whose id
 * and version the manifest does not declare is not described: it is
 * shown raw rather than decoded with another version's template.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "event_info.h"
#include "intype_size.h"
#include "manifest.h"

static bool xml_key(const struct decode_record *r, struct decode_key *key)
{
	key->guid = r->provider;
	key->id = r->id;
	key->version = r->version;
	return true;
}

static const char *shown(const struct etw_mf_value *v)
{
	if (!v)
		return NULL;
	return v->message && *v->message ? v->message : v->name;
}

/* The names of the event's keywords, in the manifest's order. */
static const char **keyword_names(const struct etw_mf_event *e)
{
	const char **v = calloc(e->nkeywords + 1, sizeof(*v));

	for (size_t i = 0; v && i < e->nkeywords; i++)
		v[i] = shown(e->keyword_v[i]);
	return v;
}

static int add_map(struct tei_builder *b, const struct etw_mf_map *m)
{
	struct tei_map_entry *e = calloc(m->nentries + 1, sizeof(*e));
	int ret;

	if (!e)
		return -ENOMEM;
	for (size_t i = 0; i < m->nentries; i++) {
		e[i].value = m->entries[i].value;
		e[i].output = m->entries[i].message;
	}
	ret = tei_add_map(b, m->name, m->bitmap ? EVENTMAP_INFO_FLAG_MANIFEST_BITMAP :
						  EVENTMAP_INFO_FLAG_MANIFEST_VALUEMAP,
			  e, (uint32_t)m->nentries);
	free(e);
	return ret;
}

static int add_field(struct tei_builder *b, const struct etw_mf_field *f)
{
	struct tei_prop p = {
		.name = f->name, .in_type = f->in_type, .out_type = f->out_type,
		.count = f->count, .length = f->length,
		.map_name = f->map ? f->map->name : NULL,
	};

	if (f->is_struct) {
		p.flags |= PropertyStruct;
		p.struct_start = f->struct_first;
		p.struct_members = f->struct_members;
	}
	if (f->count_field != ETW_MF_NONE) {
		p.flags |= PropertyParamCount;
		p.count = f->count_field;
	} else if (f->array) {
		p.flags |= PropertyParamFixedCount;
	}
	if (f->length_field != ETW_MF_NONE) {
		p.flags |= PropertyParamLength;
		p.length = f->length_field;
	} else if (f->length) {
		p.flags |= PropertyParamFixedLength;
	} else if (!f->is_struct) {
		p.length = intype_size(f->in_type);
	}
	return tei_add_property(b, &p);
}

static int describe(struct tei_builder *b, const struct etw_mf_template *t)
{
	int ret = 0;

	/* Each map once, in the order the fields first use them. */
	for (size_t i = 0; i < t->nfields && !ret; i++) {
		const struct etw_mf_map *m = t->fields[i].map;
		bool seen = false;

		for (size_t j = 0; m && j < i && !seen; j++)
			seen = t->fields[j].map == m;
		if (m && !seen)
			ret = add_map(b, m);
	}
	for (size_t i = 0; i < t->nfields && ret >= 0; i++)
		ret = add_field(b, &t->fields[i]);
	if (ret >= 0)
		tei_set_top_level_count(b, (uint32_t)t->ntop);
	return ret < 0 ? ret : 0;
}

int mf_describe(const struct etw_mf_provider *p, const struct etw_mf_event *e,
		const struct decode_key *key, struct decode_desc **out)
{
	EVENT_DESCRIPTOR desc = {
		.Id = e->id, .Version = e->version, .Channel = e->channel,
		.Level = e->level, .Opcode = e->opcode, .Task = e->task,
		.Keyword = e->keywords,
	};
	const struct etw_mf_task *task = NULL;
	struct tei_builder *b;
	ULONG flags = 0;
	const char **kw;
	int ret = 0;

	for (size_t i = 0; e->task_v && i < p->ntasks && !task; i++)
		if (&p->tasks[i].v == e->task_v)
			task = &p->tasks[i];
	if (e->tmpl && e->tmpl->nfields)
		flags |= TEMPLATE_EVENT_DATA;
	if (e->tmpl && e->tmpl->user_data)
		flags |= TEMPLATE_USER_DATA;
	b = tei_builder_new();
	kw = keyword_names(e);
	if (!b || !kw) {
		tei_builder_free(b);
		free((void *)kw);
		return -ENOMEM;
	}
	tei_set_event(b, &p->guid, task ? &task->event_guid : NULL, &desc,
		      DecodingSourceXMLFile, flags);
	tei_set_string(b, TEI_PROVIDER_NAME_S, p->name);
	tei_set_string(b, TEI_LEVEL_NAME_S, shown(e->level_v));
	tei_set_string(b, TEI_CHANNEL_NAME_S, e->channel_v ? shown(&e->channel_v->v) : NULL);
	tei_set_keyword_names(b, kw, e->nkeywords);
	tei_set_string(b, TEI_TASK_NAME_S, shown(e->task_v));
	tei_set_string(b, TEI_OPCODE_NAME_S, shown(e->opcode_v));
	tei_set_string(b, TEI_EVENT_MESSAGE_S, e->message);
	tei_set_string(b, TEI_PROVIDER_MESSAGE_S, p->message);
	tei_set_string(b, TEI_EVENT_NAME_S, e->name);
	free((void *)kw);
	if (e->tmpl)
		ret = describe(b, e->tmpl);
	if (!ret)
		ret = tei_builder_finish(b, key, 0, out);
	tei_builder_free(b);
	return ret;
}

static int xml_build(const struct decode_record *r,
		     const struct decode_key *key, struct decode_desc **out)
{
	const struct etw_mf_provider *p = etw_manifest_find_provider(&key->guid);
	const struct etw_mf_event *e;

	(void)r;
	if (!p)
		return -ENOENT;
	e = etw_mf_find_event(p, key->id, key->version);
	if (!e)
		return -ENOENT;
	return mf_describe(p, e, key, out);
}

const struct decode_source decode_source_xml = {
	.kind = DecodingSourceXMLFile,
	.key = xml_key,
	.build = xml_build,
};
