// SPDX-License-Identifier: GPL-2.0
/*
 * What etw dump and etw live share: a record made ready for the formats
 * (names, time, extended items, decoded fields), the formats by name, and
 * an event ProcessTrace delivers as a record.
 */
#include <stdio.h>
#include <string.h>

#include <windows.h>
#include <evntcons.h>

#include "dump/dump.h"

static const struct dump_format *const formats[] = {
	&dump_text, &dump_csv, &dump_json, &dump_xml, &dump_tracefmt,
};

const struct dump_format *dump_find_format(const char *name)
{
	for (size_t i = 0; i < sizeof(formats) / sizeof(formats[0]); i++)
		if (!strcmp(name, formats[i]->name))
			return formats[i];
	return NULL;
}

static const char *bits_suffix(const struct etw_etl_event *ev)
{
	if (ev->kind == ETW_ETL_KIND_MESSAGE || ev->kind == ETW_ETL_KIND_ERROR)
		return "";
	return ev->pointer_size == 4 ? "32" : "64";
}

/* "EVENT_HEADER" "64" in @buf, cut to fit: snprintf() costs ~800 instructions. */
static void kind(char *buf, size_t size, const char *name, const char *suffix)
{
	size_t n = strnlen(name, size - 1);
	size_t m = strnlen(suffix, size - 1 - n);

	memcpy(buf, name, n);
	memcpy(buf + n, suffix, m);
	buf[n + m] = '\0';
}

static void names(struct dump_prep *pp, const struct etw_etl_event *ev)
{
	struct dump_event *e = &pp->e;

	e->provider_name = NULL;
	e->event_name = NULL;
	if (ev->has & ETW_ETL_HAS_PROVIDER) {
		/* Runs of the same provider: its text from the last record. */
		if (!pp->last_valid || memcmp(&pp->last_provider, &ev->provider,
					      sizeof(ev->provider))) {
			etw_etl_guid_to_str(&ev->provider, pp->last_text);
			pp->last_name = etw_etl_kernel_provider_name(&ev->provider);
			pp->last_provider = ev->provider;
			pp->last_valid = true;
		}
		memcpy(e->provider, pp->last_text, sizeof(e->provider));
		e->provider_name = pp->last_name;
	} else {
		e->provider[0] = '\0';
	}
	for (uint32_t i = 0; i < ev->ext_count; i++) {
		const struct etw_etl_ext_item *x = &ev->ext[i];

		if (x->type == ETW_ETL_EXT_PROV_TRAITS)
			e->provider_name = tl_provider_name(x, &pp->provider_name);
		else if (x->type == ETW_ETL_EXT_EVENT_SCHEMA_TL)
			e->event_name = tl_event_name(x, &pp->event_name);
	}
}

static void ext_items(struct dump_prep *pp, const struct etw_etl_event *ev)
{
	kv_reset(&pp->e.ext);
	for (uint32_t i = 0; i < ev->ext_count; i++) {
		const struct etw_etl_ext_item *x = &ev->ext[i];
		const char *name = etw_etl_ext_type_name(x->type);
		char num[8];

		if (!name) {
			snprintf(num, sizeof(num), "0x%04x", x->type);
			name = num;
		}
		ext_value(x, &pp->tmp);
		kv_add(&pp->e.ext, name, NULL, false, "%s", pp->tmp.p);
	}
	kv_finish(&pp->e.ext);
}

static void payload(struct dump_prep *pp, const struct etw_etl_event *ev,
		    bool full)
{
	kv_reset(&pp->e.fields);
	pp->e.dec = NULL;
	pp->e.decoded = dump_decode(pp, ev, full);
	if (pp->e.decoded || !full) {
		kv_finish(&pp->e.fields);
		return;
	}
	for (uint32_t i = 0; i < ev->ext_count; i++)
		if (ev->ext[i].type == ETW_ETL_EXT_EVENT_SCHEMA_TL) {
			pp->e.decoded = tl_decode(ev, &ev->ext[i], &pp->e.fields);
			break;
		}
	if (!pp->e.decoded)
		kv_reset(&pp->e.fields);
	kv_finish(&pp->e.fields);
}

void dump_prepare(struct dump_prep *pp, const struct etw_etl_event *ev,
		    uint64_t index, bool full)
{
	struct dump_event *e = &pp->e;

	e->ev = ev;
	e->index = index;
	names(pp, ev);
	if (!full) {
		payload(pp, ev, false);
		return;
	}
	kind(e->kind, sizeof(e->kind), etw_etl_kind_name(ev->kind),
	     bits_suffix(ev));
	e->time[0] = '\0';
	if (ev->has & ETW_ETL_HAS_FILETIME)
		format_filetime(ev->filetime, e->time, sizeof(e->time));
	ext_items(pp, ev);
	payload(pp, ev, true);
	dump_rendering(pp, ev);
	e->wpp_line = NULL;
	if (pp->wpp && ev->kind == ETW_ETL_KIND_MESSAGE)
		dump_wpp_prepare(pp, ev);
	e->payload_pid = UINT32_MAX;
	e->process_name = pp->procs ? procs_name(pp->procs, ev, &pp->dec,
						 pp->dec_ret, &e->payload_pid) :
				      NULL;
}

void dump_prep_free(struct dump_prep *pp)
{
	kv_free(&pp->e.ext);
	kv_free(&pp->e.fields);
	kv_free(&pp->e.rendering);
	sb_free(&pp->warning);
	sb_free(&pp->provider_name);
	sb_free(&pp->event_name);
	sb_free(&pp->tmp);
	etw_decoder_free(pp->decoder);
	pp->decoder = NULL;
}

void dump_from_record(const EVENT_RECORD *r, struct etw_etl_event *ev,
		      struct etw_etl_ext_item *items, size_t nitems)
{
	const EVENT_HEADER *h = &r->EventHeader;
	const EVENT_DESCRIPTOR *d = &h->EventDescriptor;

	memset(ev, 0, sizeof(*ev));
	ev->has = ETW_ETL_HAS_PROVIDER | ETW_ETL_HAS_IDS | ETW_ETL_HAS_TIMESTAMP |
		  ETW_ETL_HAS_FILETIME | ETW_ETL_HAS_CPU_TIME;
	if (h->Flags & EVENT_HEADER_FLAG_TRACE_MESSAGE) {
		ev->kind = ETW_ETL_KIND_MESSAGE;
		ev->has |= ETW_ETL_HAS_MESSAGE;
	} else if (h->Flags & EVENT_HEADER_FLAG_CLASSIC_HEADER) {
		ev->kind = ETW_ETL_KIND_CLASSIC;
		ev->has |= ETW_ETL_HAS_CLASS;
	} else {
		ev->kind = ETW_ETL_KIND_EVENT;
		ev->has |= ETW_ETL_HAS_DESCRIPTOR | ETW_ETL_HAS_ACTIVITY;
	}
	ev->header_type = h->HeaderType & 0xff;
	ev->pointer_size = h->Flags & EVENT_HEADER_FLAG_32_BIT_HEADER ? 4 : 8;
	ev->size = h->Size;
	ev->processor = (uint16_t)GetEventProcessorIndex(r);
	ev->flags = h->Flags;
	ev->header_flags = h->Flags;
	ev->event_property = h->EventProperty;
	memcpy(&ev->provider, &h->ProviderId, sizeof(ev->provider));
	ev->id = d->Id;
	ev->version = d->Version;
	ev->channel = d->Channel;
	ev->level = d->Level;
	ev->opcode = d->Opcode;
	ev->task = d->Task;
	ev->keyword = d->Keyword;
	ev->thread_id = h->ThreadId;
	ev->process_id = h->ProcessId;
	ev->timestamp = h->TimeStamp.QuadPart;	/* FILETIME: no raw clock */
	ev->filetime = h->TimeStamp.QuadPart;
	ev->kernel_time = h->KernelTime;
	ev->user_time = h->UserTime;
	memcpy(&ev->activity_id, &h->ActivityId, sizeof(ev->activity_id));
	for (USHORT i = 0; i < r->ExtendedDataCount && i < nitems; i++) {
		items[i].type = r->ExtendedData[i].ExtType;
		items[i].size = r->ExtendedData[i].DataSize;
		items[i].data = (const void *)(uintptr_t)r->ExtendedData[i].DataPtr;
		ev->ext_count++;
	}
	ev->ext = items;
	ev->data = r->UserData;
	ev->data_size = r->UserDataLength;
}
