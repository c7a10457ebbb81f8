// SPDX-License-Identifier: MIT
/*
 * Building a description (event_info.h): a source gives names, properties
 * and maps in UTF-8; tei_builder_finish() lays out Windows' blobs
 * (TRACE_EVENT_INFO with its UTF-16 strings after the property array,
 * one EVENT_MAP_INFO per map with its strings after the entries) and the
 * formatter's form beside them.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "event_info.h"
#include "intype_size.h"
#include "../common/utf.h"

struct b_map {
	char *name;
	MAP_FLAGS flags;
	struct tei_map_entry *e;
	uint32_t n;
};

struct tei_builder {
	int err;			/* sticky: the first failure */
	GUID provider;
	GUID event_guid;
	EVENT_DESCRIPTOR desc;
	DECODING_SOURCE source;
	ULONG template_flags;
	uint32_t tags;
	char *strings[TEI_STRING_COUNT];
	char *keywords;			/* each name NUL-terminated ... */
	size_t keywords_len;		/* ... in this many bytes */
	struct tei_prop *props;
	uint32_t nprops;
	uint32_t cap;
	int64_t top;			/* -1: all */
	struct b_map *maps;
	uint32_t nmaps;
};

struct tei_builder *tei_builder_new(void)
{
	struct tei_builder *b = calloc(1, sizeof(*b));

	if (b)
		b->top = -1;
	return b;
}

void tei_builder_free(struct tei_builder *b)
{
	if (!b)
		return;
	for (int i = 0; i < TEI_STRING_COUNT; i++)
		free(b->strings[i]);
	free(b->keywords);
	for (uint32_t i = 0; i < b->nprops; i++) {
		free((char *)b->props[i].name);
		free((char *)b->props[i].map_name);
	}
	free(b->props);
	for (uint32_t i = 0; i < b->nmaps; i++) {
		for (uint32_t j = 0; j < b->maps[i].n; j++) {
			free((char *)b->maps[i].e[j].input);
			free((char *)b->maps[i].e[j].output);
		}
		free(b->maps[i].e);
		free(b->maps[i].name);
	}
	free(b->maps);
	free(b);
}

static char *dup_or_fail(struct tei_builder *b, const char *s)
{
	char *d;

	if (!s)
		return NULL;
	d = strdup(s);
	if (!d && !b->err)
		b->err = -ENOMEM;
	return d;
}

void tei_set_event(struct tei_builder *b, const GUID *provider,
		   const GUID *event_guid, const EVENT_DESCRIPTOR *desc,
		   DECODING_SOURCE source, ULONG template_flags)
{
	b->provider = *provider;
	memset(&b->event_guid, 0, sizeof(b->event_guid));
	if (event_guid)
		b->event_guid = *event_guid;
	b->desc = *desc;
	b->source = source;
	b->template_flags = template_flags;
}

void tei_set_string(struct tei_builder *b, enum tei_string which,
		    const char *utf8)
{
	if ((unsigned int)which >= TEI_STRING_COUNT)
		return;
	free(b->strings[which]);
	b->strings[which] = dup_or_fail(b, utf8);
}

void tei_set_keyword_names(struct tei_builder *b, const char *const *names,
			   size_t n)
{
	size_t len = 0, joined = 0;
	char *list, *s;

	free(b->keywords);
	b->keywords = NULL;
	b->keywords_len = 0;
	tei_set_string(b, TEI_KEYWORDS_NAME_S, NULL);
	if (!n)
		return;
	for (size_t i = 0; i < n; i++) {
		len += strlen(names[i]) + 1;
		joined += strlen(names[i]) + 2;
	}
	list = malloc(len);
	s = malloc(joined);
	if (!list || !s) {
		free(list);
		free(s);
		if (!b->err)
			b->err = -ENOMEM;
		return;
	}
	len = 0;
	s[0] = '\0';
	for (size_t i = 0; i < n; i++) {
		size_t l = strlen(names[i]) + 1;

		memcpy(list + len, names[i], l);
		len += l;
		if (i)
			strcat(s, ", ");
		strcat(s, names[i]);
	}
	b->keywords = list;
	b->keywords_len = len;
	b->strings[TEI_KEYWORDS_NAME_S] = s;
}

void tei_set_tags(struct tei_builder *b, uint32_t tags)
{
	b->tags = tags & 0x0FFFFFFF;
}

void tei_set_top_level_count(struct tei_builder *b, uint32_t n)
{
	b->top = n;
}

int tei_add_property(struct tei_builder *b, const struct tei_prop *p)
{
	struct tei_prop *q;

	if (b->err)
		return b->err;
	if (!p->name || b->nprops >= 0xFFFF)
		return b->err = -EINVAL;
	if (b->nprops == b->cap) {
		uint32_t cap = b->cap ? b->cap * 2 : 16;

		q = realloc(b->props, cap * sizeof(*q));
		if (!q)
			return b->err = -ENOMEM;
		b->props = q;
		b->cap = cap;
	}
	q = &b->props[b->nprops];
	*q = *p;
	q->name = dup_or_fail(b, p->name);
	q->map_name = dup_or_fail(b, p->map_name);
	if (b->err)
		return b->err;
	return (int)b->nprops++;
}

int tei_add_map(struct tei_builder *b, const char *name, MAP_FLAGS flags,
		const struct tei_map_entry *e, uint32_t n)
{
	struct b_map *m;

	if (b->err)
		return b->err;
	if (!name)
		return b->err = -EINVAL;
	m = realloc(b->maps, (b->nmaps + 1) * sizeof(*m));
	if (!m)
		return b->err = -ENOMEM;
	b->maps = m;
	m = &b->maps[b->nmaps++];
	memset(m, 0, sizeof(*m));
	m->name = dup_or_fail(b, name);
	m->flags = flags;
	m->e = calloc(n ? n : 1, sizeof(*m->e));
	if (!m->e)
		return b->err = -ENOMEM;
	m->n = n;
	for (uint32_t i = 0; i < n; i++) {
		m->e[i].value = e[i].value;
		m->e[i].input = dup_or_fail(b, e[i].input);
		m->e[i].output = dup_or_fail(b, e[i].output ? e[i].output : "");
	}
	return b->err;
}

/* ---- the layout ---- */

/* The UTF-16 size in bytes of s with its NUL; -EINVAL if not UTF-8. */
static ssize_t w_size(const char *s)
{
	ssize_t n = etw_utf8_to_utf16(s, strlen(s), NULL, 0);

	return n < 0 ? -EINVAL : (n + 1) * 2;
}

/* Write s as UTF-16 at base + *off, advance *off; returns its offset. */
static ULONG w_put(uint8_t *base, size_t *off, size_t cap, const char *s)
{
	size_t at = *off;
	ssize_t n = etw_utf8_to_utf16(s, strlen(s), (char16_t *)(void *)(base + at),
				      (cap - at) / 2);

	*off = at + (size_t)(n + 1) * 2;
	return (ULONG)at;
}

static const struct b_map *find_map(const struct tei_builder *b,
				    const char *name)
{
	for (uint32_t i = 0; i < b->nmaps; i++)
		if (!strcmp(b->maps[i].name, name))
			return &b->maps[i];
	return NULL;
}

static int check(const struct tei_builder *b)
{
	for (uint32_t i = 0; i < b->nprops; i++) {
		const struct tei_prop *p = &b->props[i];

		if (p->flags & PropertyStruct) {
			if ((uint32_t)p->struct_start + p->struct_members > b->nprops ||
			    (p->struct_start <= i &&
			     i < (uint32_t)p->struct_start + p->struct_members))
				return -EINVAL;
		} else if (p->map_name && !find_map(b, p->map_name)) {
			return -EINVAL;
		}
		if ((p->flags & PropertyParamCount) && p->count >= i)
			return -EINVAL;
		if ((p->flags & PropertyParamLength) && p->length >= i)
			return -EINVAL;
	}
	if (b->top > (int64_t)b->nprops)
		return -EINVAL;
	return 0;
}

/* TRACE_EVENT_INFO: fixed part, properties, then every string. */
static int layout_tei(const struct tei_builder *b, struct decode_desc *d)
{
	size_t size = offsetof(TRACE_EVENT_INFO, EventPropertyInfoArray) +
		      (size_t)b->nprops * sizeof(EVENT_PROPERTY_INFO);
	size_t off;
	ULONG str_off[TEI_STRING_COUNT] = { 0 };
	TRACE_EVENT_INFO *t;
	uint8_t *base;
	ssize_t n;

	if (size < sizeof(TRACE_EVENT_INFO))
		size = sizeof(TRACE_EVENT_INFO);
	for (int i = 0; i < TEI_STRING_COUNT; i++)
		if (b->strings[i] && !(i == TEI_KEYWORDS_NAME_S && b->keywords)) {
			if ((n = w_size(b->strings[i])) < 0)
				return (int)n;
			size += (size_t)n;
		}
	for (size_t k = 0; b->keywords && k < b->keywords_len;
	     k += strlen(b->keywords + k) + 1) {
		if ((n = w_size(b->keywords + k)) < 0)
			return (int)n;
		size += (size_t)n;
	}
	if (b->keywords)
		size += 2;		/* the empty string that ends the list */
	for (uint32_t i = 0; i < b->nprops; i++) {
		if ((n = w_size(b->props[i].name)) < 0)
			return (int)n;
		size += (size_t)n;
		if (b->props[i].map_name) {
			if ((n = w_size(b->props[i].map_name)) < 0)
				return (int)n;
			size += (size_t)n;
		}
	}
	size = (size + 7) & ~(size_t)7;
	base = calloc(1, size);
	if (!base)
		return -ENOMEM;
	t = (TRACE_EVENT_INFO *)(void *)base;
	off = offsetof(TRACE_EVENT_INFO, EventPropertyInfoArray) +
	      (size_t)b->nprops * sizeof(EVENT_PROPERTY_INFO);
	if (off < sizeof(TRACE_EVENT_INFO))
		off = sizeof(TRACE_EVENT_INFO);
	for (int i = 0; i < TEI_STRING_COUNT; i++)
		if (b->strings[i] && !(i == TEI_KEYWORDS_NAME_S && b->keywords))
			str_off[i] = w_put(base, &off, size, b->strings[i]);
	if (b->keywords) {
		str_off[TEI_KEYWORDS_NAME_S] = (ULONG)off;
		for (size_t k = 0; k < b->keywords_len;
		     k += strlen(b->keywords + k) + 1)
			w_put(base, &off, size, b->keywords + k);
		off += 2;		/* calloc'd: the list's empty string */
	}
	t->ProviderGuid = b->provider;
	t->EventGuid = b->event_guid;
	t->EventDescriptor = b->desc;
	t->DecodingSource = b->source;
	t->ProviderNameOffset = str_off[TEI_PROVIDER_NAME_S];
	t->LevelNameOffset = str_off[TEI_LEVEL_NAME_S];
	t->ChannelNameOffset = str_off[TEI_CHANNEL_NAME_S];
	t->KeywordsNameOffset = str_off[TEI_KEYWORDS_NAME_S];
	t->TaskNameOffset = str_off[TEI_TASK_NAME_S];
	t->OpcodeNameOffset = str_off[TEI_OPCODE_NAME_S];
	t->EventMessageOffset = str_off[TEI_EVENT_MESSAGE_S];
	t->ProviderMessageOffset = str_off[TEI_PROVIDER_MESSAGE_S];
	t->EventNameOffset = str_off[TEI_EVENT_NAME_S];
	t->EventAttributesOffset = str_off[TEI_EVENT_ATTRIBUTES_S];
	t->PropertyCount = b->nprops;
	t->TopLevelPropertyCount = b->top < 0 ? b->nprops : (ULONG)b->top;
	t->Flags = (TEMPLATE_FLAGS)b->template_flags;
	t->Tags = b->tags;
	for (uint32_t i = 0; i < b->nprops; i++) {
		const struct tei_prop *p = &b->props[i];
		EVENT_PROPERTY_INFO *e = &t->EventPropertyInfoArray[i];

		e->Flags = (PROPERTY_FLAGS)p->flags;
		e->NameOffset = w_put(base, &off, size, p->name);
		if (p->flags & PropertyStruct) {
			e->structType.StructStartIndex = p->struct_start;
			e->structType.NumOfStructMembers = p->struct_members;
		} else {
			e->nonStructType.InType = p->in_type;
			e->nonStructType.OutType = p->out_type;
			if (p->map_name)
				e->nonStructType.MapNameOffset =
					w_put(base, &off, size, p->map_name);
		}
		e->count = p->count;
		e->length = p->length;
		if (p->flags & PropertyHasTags)
			e->Tags = p->tags;
	}
	d->tei = t;
	d->tei_size = (uint32_t)size;
	return 0;
}

/* One EVENT_MAP_INFO: entries, then the map's name and entry strings. */
static int layout_map_info(const struct b_map *m, struct decode_map *dm)
{
	/*
	 * Windows ends the entry names of a manifest's maps with a space in
	 * EVENT_MAP_INFO (Microsoft's TdhFormatProperty sample cuts it off);
	 * the formatter's names (dm's entries) have none.
	 */
	bool spaced = m->flags & (EVENTMAP_INFO_FLAG_MANIFEST_VALUEMAP |
				  EVENTMAP_INFO_FLAG_MANIFEST_BITMAP);
	size_t size = offsetof(EVENT_MAP_INFO, MapEntryArray) +
		      (size_t)m->n * sizeof(EVENT_MAP_ENTRY);
	size_t off;
	EVENT_MAP_INFO *info;
	uint8_t *base;
	ssize_t n;

	if (size < sizeof(EVENT_MAP_INFO))
		size = sizeof(EVENT_MAP_INFO);
	off = size;
	if ((n = w_size(m->name)) < 0)
		return (int)n;
	size += (size_t)n;
	for (uint32_t i = 0; i < m->n; i++) {
		if ((n = w_size(m->e[i].output)) < 0)
			return (int)n;
		size += (size_t)n + (spaced ? 2 : 0);
		if (m->e[i].input) {
			if ((n = w_size(m->e[i].input)) < 0)
				return (int)n;
			size += (size_t)n;
		}
	}
	size = (size + 7) & ~(size_t)7;
	base = calloc(1, size);
	if (!base)
		return -ENOMEM;
	info = (EVENT_MAP_INFO *)(void *)base;
	info->NameOffset = w_put(base, &off, size, m->name);
	info->Flag = m->flags;
	info->EntryCount = m->n;
	info->MapEntryValueType = EVENTMAP_ENTRY_VALUETYPE_ULONG;
	for (uint32_t i = 0; i < m->n; i++) {
		EVENT_MAP_ENTRY *e = &info->MapEntryArray[i];

		e->OutputOffset = w_put(base, &off, size, m->e[i].output);
		if (spaced) {
			/* The NUL becomes the space, a new NUL follows. */
			char16_t *w = (char16_t *)(void *)(base + off) - 1;

			w[0] = u' ';
			w[1] = 0;
			off += 2;
		}
		if (m->e[i].input) {
			e->InputOffset = w_put(base, &off, size, m->e[i].input);
			info->MapEntryValueType = EVENTMAP_ENTRY_VALUETYPE_STRING;
		} else {
			e->Value = m->e[i].value;
		}
	}
	dm->info = info;
	dm->info_size = (uint32_t)size;
	return 0;
}

static int by_value(const void *a, const void *b)
{
	const struct decode_map_entry *x = a, *y = b;

	return x->value < y->value ? -1 : x->value > y->value;
}

/* Every UTF-8 string of the formatter's form lives in one pool. */
struct pool {
	char *p;
	size_t len;
	size_t cap;
};

static size_t pool_need(const struct tei_builder *b)
{
	size_t n = 0;

	for (int i = 0; i < TEI_STRING_COUNT; i++)
		n += (b->strings[i] ? strlen(b->strings[i]) : 0) + 1;
	for (uint32_t i = 0; i < b->nprops; i++)
		n += strlen(b->props[i].name) + 1;
	for (uint32_t i = 0; i < b->nmaps; i++) {
		n += strlen(b->maps[i].name) + 1;
		for (uint32_t j = 0; j < b->maps[i].n; j++)
			n += strlen(b->maps[i].e[j].output) + 1 +
			     (b->maps[i].e[j].input ?
			      strlen(b->maps[i].e[j].input) + 1 : 0);
	}
	return n;
}

static const char *pool_add(struct pool *p, const char *s)
{
	size_t n = strlen(s) + 1;
	char *at = p->p + p->len;

	memcpy(at, s, n);
	p->len += n;
	return at;
}

static int build_maps(const struct tei_builder *b, struct decode_desc *d,
		      struct pool *pool)
{
	struct decode_map *maps;
	struct decode_map_entry *ents;
	size_t total = 0;
	int ret;

	for (uint32_t i = 0; i < b->nmaps; i++)
		total += b->maps[i].n;
	maps = calloc(b->nmaps ? b->nmaps : 1, sizeof(*maps));
	ents = calloc(total ? total : 1, sizeof(*ents));
	d->maps = maps;
	d->map_count = b->nmaps;
	if (!maps || !ents || !b->nmaps) {
		free(ents);
		return maps ? 0 : -ENOMEM;
	}
	for (uint32_t i = 0; i < b->nmaps; i++) {
		const struct b_map *m = &b->maps[i];
		struct decode_map *dm = &maps[i];

		dm->name = pool_add(pool, m->name);
		dm->flags = m->flags;
		dm->count = m->n;
		dm->entries = ents;
		for (uint32_t j = 0; j < m->n; j++) {
			ents[j].value = m->e[j].value;
			ents[j].name = pool_add(pool, m->e[j].output);
			ents[j].name_len = (uint16_t)strnlen(ents[j].name, 0xFFFF);
			ents[j].input = m->e[j].input ?
					pool_add(pool, m->e[j].input) : NULL;
		}
		/* Value maps are searched by value; bit maps keep their order. */
		if (!(m->flags & (EVENTMAP_INFO_FLAG_MANIFEST_BITMAP |
				  EVENTMAP_INFO_FLAG_WBEM_BITMAP |
				  EVENTMAP_INFO_FLAG_MANIFEST_PATTERNMAP))) {
			qsort(ents, m->n, sizeof(*ents), by_value);
			dm->sorted = true;
		}
		ents += m->n;
		ret = layout_map_info(m, dm);
		if (ret)
			return ret;
	}
	return 0;
}

/* Types whose text is always printable ASCII without '"' or '\\'. */
static bool plain_type(const struct decode_prop *p)
{
	if (p->map || (p->flags & PropertyStruct))
		return false;	/* map entries are a source's strings */
	switch (p->in_type) {
	case TDH_INTYPE_UNICODESTRING:
	case TDH_INTYPE_ANSISTRING:
	case TDH_INTYPE_MANIFEST_COUNTEDSTRING:
	case TDH_INTYPE_MANIFEST_COUNTEDANSISTRING:
	case TDH_INTYPE_COUNTEDSTRING:
	case TDH_INTYPE_COUNTEDANSISTRING:
	case TDH_INTYPE_REVERSEDCOUNTEDSTRING:
	case TDH_INTYPE_REVERSEDCOUNTEDANSISTRING:
	case TDH_INTYPE_NONNULLTERMINATEDSTRING:
	case TDH_INTYPE_NONNULLTERMINATEDANSISTRING:
	case TDH_INTYPE_UNICODECHAR:
	case TDH_INTYPE_ANSICHAR:
		return false;
	default:
		/* A one-byte integer shown as a character is text too. */
		return p->out_type != TDH_OUTTYPE_STRING;
	}
}

/* The size every value of a property has, if its type fixes it. */
/* The size of a value of this in-type, whatever the property says. */
static uint8_t fixed_size(const struct decode_prop *p)
{
	switch (p->in_type) {
	case TDH_INTYPE_ANSICHAR:
		return 1;
	case TDH_INTYPE_UNICODECHAR:
		return 2;
	case TDH_INTYPE_POINTER:
	case TDH_INTYPE_SIZET:
		return DECODE_PTR_SIZE;
	default:
		return (uint8_t)intype_size(p->in_type);
	}
}

static int build_props(const struct tei_builder *b, struct decode_desc *d,
		       struct pool *pool)
{
	struct decode_prop *props = calloc(b->nprops ? b->nprops : 1,
					   sizeof(*props));

	d->props = props;
	d->prop_count = b->nprops;
	d->top_count = b->top < 0 ? b->nprops : (uint32_t)b->top;
	if (!props)
		return -ENOMEM;
	for (uint32_t i = 0; i < b->nprops; i++) {
		const struct tei_prop *p = &b->props[i];
		struct decode_prop *q = &props[i];

		q->name = pool_add(pool, p->name);
		q->name_len = (uint16_t)strnlen(q->name, 0xFFFF);
		q->name_plain = true;
		for (const char *c = q->name; *c; c++)
			if (*c < 0x20 || *c > 0x7e || *c == '"' || *c == '\\')
				q->name_plain = false;
		q->flags = p->flags;
		q->in_type = p->in_type;
		q->out_type = p->out_type;
		q->count = p->count;
		q->length = p->length;
		q->struct_start = p->struct_start;
		q->struct_members = p->struct_members;
		if (p->map_name && !(p->flags & PropertyStruct))
			q->map = decode_desc_map(d, p->map_name);
		q->plain = q->name_plain && plain_type(q);
		q->size = (p->flags & PropertyStruct) ? 0 : fixed_size(q);
	}
	return 0;
}

int tei_builder_finish(struct tei_builder *b, const struct decode_key *key,
		       uint32_t flags, struct decode_desc **out)
{
	struct decode_desc *d;
	struct pool pool = { 0 };
	int ret;

	*out = NULL;
	if (b->err)
		return b->err;
	ret = check(b);
	if (ret)
		return ret;
	d = calloc(1, sizeof(*d));
	if (!d)
		return -ENOMEM;
	d->key = *key;
	d->flags = flags;
	pool.cap = pool_need(b);
	pool.p = malloc(pool.cap ? pool.cap : 1);
	d->source_data = NULL;
	if (!pool.p) {
		ret = -ENOMEM;
		goto fail;
	}
	/* strings[0] is the pool: decode_desc_free() frees it from there. */
	for (int i = 0; i < TEI_STRING_COUNT; i++)
		d->strings[i] = pool_add(&pool, b->strings[i] ? b->strings[i] : "");
	ret = layout_tei(b, d);
	if (!ret)
		ret = build_maps(b, d, &pool);
	if (!ret)
		ret = build_props(b, d, &pool);
	if (ret)
		goto fail;
	*out = d;
	return 0;
fail:
	if (!d->strings[0])
		free(pool.p);
	decode_desc_free(d);
	return ret;
}

void decode_desc_free(struct decode_desc *d)
{
	if (!d || d == DECODE_NONE)
		return;
	for (uint32_t i = 0; i < d->map_count; i++)
		free((void *)d->maps[i].info);
	if (d->maps)
		free((void *)d->maps[0].entries);
	free((void *)d->maps);
	free((void *)d->props);
	free((void *)d->tei);
	free((void *)d->strings[0]);
	free((void *)d->source_data);
	free(d);
}

const struct decode_map *decode_desc_map(const struct decode_desc *d,
					 const char *name)
{
	for (uint32_t i = 0; i < d->map_count; i++)
		if (d->maps[i].name && !strcmp(d->maps[i].name, name))
			return &d->maps[i];
	return NULL;
}
