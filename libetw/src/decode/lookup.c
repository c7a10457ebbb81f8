// SPDX-License-Identifier: MIT
/*
 * From a record to its description (event_info.h): the record's facts in
 * one form whatever header it had, the source TdhGetEventInformation
 * would use for it, the cache, and on a miss the source.
 *
 * Each thread remembers its last descriptions by key hash (a 64-slot
 * direct-mapped memo), so a file's stream of the same few events costs no
 * lock per record.  decode_cache_forget() bumps a generation that empties
 * every thread's memo.
 */
#include <errno.h>
#include <stdatomic.h>
#include <string.h>

#include "event_info.h"

static void guid_from_etl(GUID *g, const struct etw_etl_guid *e)
{
	g->Data1 = e->data1;
	g->Data2 = e->data2;
	g->Data3 = e->data3;
	memcpy(g->Data4, e->data4, sizeof(g->Data4));
}

void decode_record_from_etl(const struct etw_etl_event *ev,
			    struct decode_record *r)
{
	memset(r, 0, sizeof(*r));
	guid_from_etl(&r->provider, &ev->provider);
	r->id = ev->id;
	r->version = (uint8_t)ev->version;
	r->opcode = ev->opcode;
	r->level = ev->level;
	r->channel = ev->channel;
	r->task = ev->task;
	r->keyword = ev->keyword;
	r->flags = ev->flags;
	r->pointer_size = ev->pointer_size == 4 ? 4 : 8;
	r->data = ev->data;
	r->size = ev->data_size;
	for (uint32_t i = 0; i < ev->ext_count; i++) {
		const struct etw_etl_ext_item *x = &ev->ext[i];

		if (x->type == ETW_ETL_EXT_EVENT_SCHEMA_TL) {
			r->tl_schema = x->data;
			r->tl_schema_size = x->size;
		} else if (x->type == ETW_ETL_EXT_PROV_TRAITS) {
			r->traits = x->data;
			r->traits_size = x->size;
		}
	}
}

void decode_record_from_event(const EVENT_RECORD *er, struct decode_record *r)
{
	const EVENT_HEADER *h = &er->EventHeader;

	memset(r, 0, sizeof(*r));
	r->provider = h->ProviderId;
	r->id = h->EventDescriptor.Id;
	r->version = h->EventDescriptor.Version;
	r->opcode = h->EventDescriptor.Opcode;
	r->level = h->EventDescriptor.Level;
	r->channel = h->EventDescriptor.Channel;
	r->task = h->EventDescriptor.Task;
	r->keyword = h->EventDescriptor.Keyword;
	r->flags = h->Flags;
	r->pointer_size = (uint8_t)decode_pointer_size(h->Flags);
	r->data = er->UserData;
	r->size = er->UserDataLength;
	for (USHORT i = 0; er->ExtendedData && i < er->ExtendedDataCount; i++) {
		const EVENT_HEADER_EXTENDED_DATA_ITEM *x = &er->ExtendedData[i];
		const void *p = (const void *)(uintptr_t)x->DataPtr;

		if (x->ExtType == EVENT_HEADER_EXT_TYPE_EVENT_SCHEMA_TL) {
			r->tl_schema = p;
			r->tl_schema_size = x->DataSize;
		} else if (x->ExtType == EVENT_HEADER_EXT_TYPE_PROV_TRAITS) {
			r->traits = p;
			r->traits_size = x->DataSize;
		}
	}
}

/* The source TdhGetEventInformation decodes a record with. */
static DECODING_SOURCE source_kind(const struct decode_record *r)
{
	if (r->flags & EVENT_HEADER_FLAG_TRACE_MESSAGE)
		return DecodingSourceWPP;
	if (r->flags & EVENT_HEADER_FLAG_CLASSIC_HEADER)
		return DecodingSourceWbem;
	if (r->tl_schema)
		return DecodingSourceTlg;
	return DecodingSourceXMLFile;
}

#define MEMO_SLOTS	64

struct memo {
	struct decode_key key;
	const struct decode_desc *desc;
	unsigned int gen;
};

static _Thread_local struct memo memo[MEMO_SLOTS];
/* Starts at 1: a zeroed memo slot is never current. */
static atomic_uint generation = 1;

static bool same(const struct decode_key *a, const struct decode_key *b)
{
	return a->id == b->id && a->version == b->version &&
	       a->source == b->source && a->extra == b->extra &&
	       !memcmp(&a->guid, &b->guid, sizeof(a->guid));
}

void decode_lookup_forget(void)
{
	atomic_fetch_add(&generation, 1);
}

int decode_lookup(const struct decode_record *r,
		  const struct decode_desc **out)
{
	DECODING_SOURCE kind = source_kind(r);
	const struct decode_source *src = decode_source_of(kind);
	const struct decode_desc *d;
	struct decode_desc *built = NULL;
	struct decode_key key;
	struct memo *m;
	unsigned int gen;
	int ret;

	*out = NULL;
	if (!src)
		return -ENOENT;
	memset(&key, 0, sizeof(key));
	key.source = (uint8_t)kind;
	if (!src->key(r, &key))
		return -ENOENT;
	gen = atomic_load_explicit(&generation, memory_order_acquire);
	m = &memo[(key.guid.Data1 ^ key.id ^ (key.version << 4) ^
		   key.extra) % MEMO_SLOTS];
	if (m->gen == gen && same(&m->key, &key)) {
		d = m->desc;
	} else {
		d = decode_cache_get(&key);
		if (!d) {
			ret = src->build(r, &key, &built);
			if (ret == -ENOMEM)
				return ret;
			/* Unknown, or a description its source got wrong: none. */
			if (ret) {
				decode_desc_free(built);
				built = NULL;
			}
			d = decode_cache_put(&key, built);
		}
		m->key = key;
		m->desc = d;
		m->gen = gen;
	}
	if (d == DECODE_NONE)
		return -ENOENT;
	*out = d;
	return 0;
}
