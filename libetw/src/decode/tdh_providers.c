// SPDX-License-Identifier: MIT
/*
 * What the TDH functions say about providers rather than events:
 * TdhEnumerateProviders(ForDecodingSource) lists the providers whose
 * manifests the decoders know (loaded, then installed), then the MOF
 * providers of the kernel classes the Wbem source decodes
 * (kernel_classes.h) and of the installed MOF schemas (mof_store.c);
 * WPP and TraceLogging providers have no registry
 * (Windows supports only XMLFile and Wbem as the filter).
 * TdhEnumerateProviderFieldInformation and
 * TdhQueryProviderFieldInformation give a manifest's keywords, levels,
 * channels, tasks and opcodes, and a MOF provider class's Flags and
 * Level maps (as keywords and levels); TdhEnumerateManifestProviderEvents and
 * TdhGetManifestEventInformation its events, without an event record.
 * Each lays its answer out as Windows does: the fixed part, the array,
 * then the UTF-16 strings the offsets point to.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "../common/internal.h"
#include "kernel_classes.h"
#include "manifest.h"
#include "mof.h"
#include "tdh_internal.h"

/* ---- providers ---- */

struct enum_ctx {
	PPROVIDER_ENUMERATION_INFO out;	/* NULL: measuring */
	size_t count, strings;		/* providers, bytes of their names */
	size_t off;			/* next string, when writing */
	size_t max, cap;		/* what was measured, when writing */
	bool overflow;			/* more came since: stopped */
};

static int enum_add(struct enum_ctx *e, const GUID *guid, const char *name,
		    DECODING_SOURCE source)
{
	if (e->out) {
		TRACE_PROVIDER_INFO *t;

		if (e->count == e->max || e->off + tdh_wsize(name) > e->cap) {
			e->overflow = true;
			return 1;
		}
		t = &e->out->TraceProviderInfoArray[e->count];

		t->ProviderGuid = *guid;
		t->SchemaSource = source;
		t->ProviderNameOffset = tdh_wput(e->out, &e->off, name);
	} else {
		e->strings += tdh_wsize(name);
	}
	e->count++;
	return 0;
}

static int enum_manifest(void *ctx, const struct etw_mf_provider *p)
{
	return enum_add(ctx, &p->guid, p->name, DecodingSourceXMLFile);
}

static int enum_wbem(void *ctx, const GUID *guid, const char *name)
{
	return enum_add(ctx, guid, name, DecodingSourceWbem);
}

/* Every provider of the sources asked for (DecodingSourceMax: all). */
static void enum_all(DECODING_SOURCE filter, struct enum_ctx *e)
{
	int ret = 0;

	if (filter == DecodingSourceXMLFile || filter == DecodingSourceMax)
		ret = etw_manifest_providers_foreach(enum_manifest, e);
	if (!ret && (filter == DecodingSourceWbem || filter == DecodingSourceMax))
		ret = kc_providers_foreach(enum_wbem, e);
	if (!ret && (filter == DecodingSourceWbem || filter == DecodingSourceMax))
		mof_store_providers_foreach(enum_wbem, e);
}

static size_t enum_size(const struct enum_ctx *e)
{
	size_t size = offsetof(PROVIDER_ENUMERATION_INFO, TraceProviderInfoArray) +
		      e->count * sizeof(TRACE_PROVIDER_INFO) + e->strings;

	return size < sizeof(PROVIDER_ENUMERATION_INFO) ?
	       sizeof(PROVIDER_ENUMERATION_INFO) : size;
}

static ULONG enumerate(DECODING_SOURCE filter, PPROVIDER_ENUMERATION_INFO buf,
		       ULONG have, ULONG *need)
{
	struct enum_ctx m = { 0 }, e;
	size_t size;

	enum_all(filter, &m);
	size = enum_size(&m);
	if (size > 0xFFFFFFFFu)
		return ERROR_NOT_ENOUGH_MEMORY;
	*need = (ULONG)size;
	if (!buf || have < size)
		return ERROR_INSUFFICIENT_BUFFER;
	/*
	 * Another thread may load a manifest between the walks: the writing
	 * walk stops at what was measured, and the caller's loop is told the
	 * size it needs now with ERROR_INSUFFICIENT_BUFFER, as on Windows.
	 */
	memset(buf, 0, size);
	e = (struct enum_ctx){ .out = buf, .max = m.count, .cap = size };
	e.off = offsetof(PROVIDER_ENUMERATION_INFO, TraceProviderInfoArray) +
		m.count * sizeof(TRACE_PROVIDER_INFO);
	enum_all(filter, &e);
	if (e.overflow) {
		m = (struct enum_ctx){ 0 };
		enum_all(filter, &m);
		size = enum_size(&m);
		*need = size > 0xFFFFFFFFu ? 0xFFFFFFFFu : (ULONG)size;
		return ERROR_INSUFFICIENT_BUFFER;
	}
	buf->NumberOfProviders = (ULONG)e.count;
	return ERROR_SUCCESS;
}

ETW_EXPORT TDHSTATUS WINAPI TdhEnumerateProviders(PPROVIDER_ENUMERATION_INFO pBuffer,
						  ULONG *pBufferSize)
{
	if (!pBufferSize)
		return ERROR_INVALID_PARAMETER;
	return enumerate(DecodingSourceMax, pBuffer, *pBufferSize, pBufferSize);
}

ETW_EXPORT TDHSTATUS WINAPI
TdhEnumerateProvidersForDecodingSource(DECODING_SOURCE filter,
				       PPROVIDER_ENUMERATION_INFO buffer,
				       ULONG bufferSize, PULONG bufferRequired)
{
	/* As on Windows: only XMLFile and Wbem providers are registered. */
	if (!bufferRequired || (filter != DecodingSourceXMLFile &&
				filter != DecodingSourceWbem))
		return ERROR_INVALID_PARAMETER;
	return enumerate(filter, buffer, bufferSize, bufferRequired);
}

/* ---- a provider's fields ---- */

struct field {
	const char *name;
	const char *message;
	uint64_t value;
};

struct fields {
	struct field *f;
	size_t n, cap;
};

static int add(struct fields *fs, const struct etw_mf_value *v)
{
	if (!v)
		return 0;
	for (size_t i = 0; i < fs->n; i++)
		if (fs->f[i].value == v->value && !strcmp(fs->f[i].name, v->name))
			return 0;
	if (fs->n == fs->cap) {
		size_t cap = fs->cap ? fs->cap * 2 : 16;
		struct field *f = realloc(fs->f, cap * sizeof(*f));

		if (!f)
			return -ENOMEM;
		fs->f = f;
		fs->cap = cap;
	}
	fs->f[fs->n++] = (struct field){ v->name, v->message, v->value };
	return 0;
}

/*
 * The fields of one type a manifest defines, and the ones Windows
 * predefines that its events use (win:Informational, win:Start, ...).
 */
static int collect(const struct etw_mf_provider *p, EVENT_FIELD_TYPE type,
		   struct fields *fs)
{
	int ret = 0;

	switch (type) {
	case EventKeywordInformation:
		for (size_t i = 0; i < p->nkeywords && !ret; i++)
			ret = add(fs, &p->keywords[i]);
		for (size_t i = 0; i < p->nevents && !ret; i++)
			for (size_t j = 0; j < p->events[i].nkeywords && !ret; j++)
				ret = add(fs, p->events[i].keyword_v[j]);
		break;
	case EventLevelInformation:
		for (size_t i = 0; i < p->nlevels && !ret; i++)
			ret = add(fs, &p->levels[i]);
		for (size_t i = 0; i < p->nevents && !ret; i++)
			ret = add(fs, p->events[i].level_v);
		break;
	case EventChannelInformation:
		for (size_t i = 0; i < p->nchannels && !ret; i++)
			ret = add(fs, &p->channels[i].v);
		break;
	case EventTaskInformation:
		for (size_t i = 0; i < p->ntasks && !ret; i++)
			ret = add(fs, &p->tasks[i].v);
		break;
	case EventOpcodeInformation:
		for (size_t i = 0; i < p->nopcodes && !ret; i++)
			ret = add(fs, &p->opcodes[i]);
		for (size_t i = 0; i < p->ntasks && !ret; i++)
			for (size_t j = 0; j < p->tasks[i].nopcodes && !ret; j++)
				ret = add(fs, &p->tasks[i].opcodes[j]);
		for (size_t i = 0; i < p->nevents && !ret; i++)
			ret = add(fs, p->events[i].opcode_v);
		break;
	default:
		return -EINVAL;
	}
	return ret;
}

/*
 * A MOF provider class's enable flags (keywords) and levels: its Flags
 * and Level properties' ValueMap, Values and ValueDescriptions.
 */
static int collect_mof(const struct etw_mof_class *c, EVENT_FIELD_TYPE type,
		       struct fields *fs)
{
	const char *want = type == EventKeywordInformation ? "Flags" :
			   type == EventLevelInformation ? "Level" : NULL;
	int ret = 0;

	for (size_t i = 0; want && i < c->nproperties && !ret; i++) {
		const struct etw_mof_property *p = &c->properties[i];
		const struct etw_mof_qualifier *names, *keys, *texts;

		if (strcmp(p->name, want))
			continue;
		names = etw_mof_property_qualifier(p, "Values");
		keys = etw_mof_property_qualifier(p, "ValueMap");
		texts = etw_mof_property_qualifier(p, "ValueDescriptions");
		for (size_t j = 0; names && j < names->nvalues && !ret; j++) {
			struct etw_mf_value v = { .name = names->values[j], .value = j };
			char *end;

			if (keys && j < keys->nvalues) {
				v.value = strtoull(keys->values[j], &end, 0);
				if (*end || !*keys->values[j])
					continue;	/* not a number: no field */
			}
			if (texts && j < texts->nvalues)
				v.message = texts->values[j];
			ret = add(fs, &v);
		}
	}
	return ret;
}

static ULONG lay_out(const struct fields *fs, EVENT_FIELD_TYPE type,
		     PPROVIDER_FIELD_INFOARRAY buf, ULONG *size)
{
	size_t need = offsetof(PROVIDER_FIELD_INFOARRAY, FieldInfoArray) +
		      fs->n * sizeof(PROVIDER_FIELD_INFO), off;
	ULONG have = *size;

	for (size_t i = 0; i < fs->n; i++)
		need += tdh_wsize(fs->f[i].name) +
			(fs->f[i].message ? tdh_wsize(fs->f[i].message) : 0);
	if (need > 0xFFFFFFFFu)
		return ERROR_NOT_ENOUGH_MEMORY;
	*size = (ULONG)need;
	if (!buf || have < need)
		return ERROR_INSUFFICIENT_BUFFER;
	memset(buf, 0, need);
	buf->NumberOfElements = (ULONG)fs->n;
	buf->FieldType = type;
	off = offsetof(PROVIDER_FIELD_INFOARRAY, FieldInfoArray) +
	      fs->n * sizeof(PROVIDER_FIELD_INFO);
	for (size_t i = 0; i < fs->n; i++) {
		PROVIDER_FIELD_INFO *f = &buf->FieldInfoArray[i];

		f->NameOffset = tdh_wput(buf, &off, fs->f[i].name);
		if (fs->f[i].message)
			f->DescriptionOffset = tdh_wput(buf, &off, fs->f[i].message);
		f->Value = fs->f[i].value;
	}
	return ERROR_SUCCESS;
}

ETW_EXPORT TDHSTATUS WINAPI
TdhEnumerateProviderFieldInformation(LPGUID pGuid, EVENT_FIELD_TYPE EventFieldType,
				     PPROVIDER_FIELD_INFOARRAY pBuffer,
				     ULONG *pBufferSize)
{
	const struct etw_mf_provider *p;
	const struct etw_mof_class *mof;
	struct fields fs = { 0 };
	ULONG err;

	if (!pGuid || !pBufferSize ||
	    (unsigned int)EventFieldType >= EventInformationMax)
		return ERROR_INVALID_PARAMETER;
	p = etw_manifest_find_provider(pGuid);
	mof = p ? NULL : mof_store_provider(pGuid);
	if (!p && !mof)
		return ERROR_NOT_FOUND;
	if (p ? collect(p, EventFieldType, &fs) :
		collect_mof(mof, EventFieldType, &fs)) {
		free(fs.f);
		return ERROR_NOT_ENOUGH_MEMORY;
	}
	err = fs.n ? lay_out(&fs, EventFieldType, pBuffer, pBufferSize) :
		     ERROR_NOT_FOUND;
	free(fs.f);
	return err;
}

ETW_EXPORT TDHSTATUS WINAPI
TdhQueryProviderFieldInformation(LPGUID pGuid, ULONGLONG EventFieldValue,
				 EVENT_FIELD_TYPE EventFieldType,
				 PPROVIDER_FIELD_INFOARRAY pBuffer,
				 ULONG *pBufferSize)
{
	const struct etw_mf_provider *p;
	const struct etw_mof_class *mof;
	struct fields fs = { 0 };
	size_t kept = 0;
	ULONG err;

	if (!pGuid || !pBufferSize)
		return ERROR_INVALID_PARAMETER;
	/* As on Windows: keywords, levels and channels only. */
	if (EventFieldType != EventKeywordInformation &&
	    EventFieldType != EventLevelInformation &&
	    EventFieldType != EventChannelInformation)
		return ERROR_NOT_SUPPORTED;
	p = etw_manifest_find_provider(pGuid);
	mof = p ? NULL : mof_store_provider(pGuid);
	if (!p && !mof)
		return ERROR_NOT_FOUND;
	if (p ? collect(p, EventFieldType, &fs) :
		collect_mof(mof, EventFieldType, &fs)) {
		free(fs.f);
		return ERROR_NOT_ENOUGH_MEMORY;
	}
	/* A keyword value names every keyword whose bits it has. */
	for (size_t i = 0; i < fs.n; i++) {
		bool match = EventFieldType == EventKeywordInformation ?
			     fs.f[i].value && (EventFieldValue & fs.f[i].value) == fs.f[i].value :
			     fs.f[i].value == EventFieldValue;

		if (match)
			fs.f[kept++] = fs.f[i];
	}
	fs.n = kept;
	err = fs.n ? lay_out(&fs, EventFieldType, pBuffer, pBufferSize) :
		     ERROR_NOT_FOUND;
	free(fs.f);
	return err;
}

/* ---- a manifest's events ---- */

ETW_EXPORT TDHSTATUS WINAPI TdhEnumerateManifestProviderEvents(LPGUID ProviderGuid,
							       PPROVIDER_EVENT_INFO Buffer,
							       ULONG *BufferSize)
{
	const struct etw_mf_provider *p;
	size_t need;
	ULONG have;

	if (!ProviderGuid || !BufferSize)
		return ERROR_INVALID_PARAMETER;
	p = etw_manifest_find_provider(ProviderGuid);
	if (!p)
		return ERROR_NOT_FOUND;
	need = offsetof(PROVIDER_EVENT_INFO, EventDescriptorsArray) +
	       p->nevents * sizeof(EVENT_DESCRIPTOR);
	if (need < sizeof(PROVIDER_EVENT_INFO))
		need = sizeof(PROVIDER_EVENT_INFO);
	have = *BufferSize;
	*BufferSize = (ULONG)need;
	if (!Buffer || have < need)
		return ERROR_INSUFFICIENT_BUFFER;
	memset(Buffer, 0, need);
	Buffer->NumberOfEvents = (ULONG)p->nevents;
	for (size_t i = 0; i < p->nevents; i++) {
		const struct etw_mf_event *e = &p->events[i];
		EVENT_DESCRIPTOR *d = &Buffer->EventDescriptorsArray[i];

		d->Id = e->id;
		d->Version = e->version;
		d->Channel = e->channel;
		d->Level = e->level;
		d->Opcode = e->opcode;
		d->Task = e->task;
		d->Keyword = e->keywords;
	}
	return ERROR_SUCCESS;
}

ETW_EXPORT TDHSTATUS WINAPI TdhGetManifestEventInformation(LPGUID ProviderGuid,
							   PEVENT_DESCRIPTOR EventDescriptor,
							   PTRACE_EVENT_INFO Buffer,
							   ULONG *BufferSize)
{
	const struct etw_mf_provider *p;
	const struct etw_mf_event *e;
	const struct decode_desc *d;
	struct decode_desc *built = NULL;
	struct decode_key key = { .source = DecodingSourceXMLFile };
	int ret;

	if (!ProviderGuid || !EventDescriptor || !BufferSize)
		return ERROR_INVALID_PARAMETER;
	p = etw_manifest_find_provider(ProviderGuid);
	e = p ? etw_mf_find_event(p, EventDescriptor->Id, EventDescriptor->Version) :
		NULL;
	if (!e)
		return ERROR_NOT_FOUND;
	key.guid = *ProviderGuid;
	key.id = e->id;
	key.version = e->version;
	/* The same description an event record of it gets. */
	d = decode_cache_get(&key);
	if (!d || d == DECODE_NONE) {
		ret = mf_describe(p, e, &key, &built);
		if (ret)
			return tdh_error(ret);
		d = decode_cache_put(&key, built);
		if (d == DECODE_NONE)
			return ERROR_NOT_FOUND;
	}
	return tdh_copy_out(Buffer, BufferSize, d->tei, d->tei_size);
}
