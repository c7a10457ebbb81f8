// SPDX-License-Identifier: GPL-2.0
/*
 * etw dump: the fields of a record by name, as far as its header has
 * them, and payload bytes as a hex dump.
 */
#include <inttypes.h>
#include <string.h>

#include "dump/dump.h"

static void add_where(const struct dump_event *e, struct kv_list *l)
{
	const struct etw_etl_event *ev = e->ev;

	kv_add(l, "index", NULL, true, "%" PRIu64, e->index);
	kv_add(l, "kind", NULL, false, "%s", e->kind);
	kv_add(l, "header_type", NULL, true, "%u", ev->header_type);
	kv_add(l, "offset", NULL, true, "%" PRIu64, ev->offset);
	kv_add(l, "buffer", NULL, true, "%u", ev->buffer);
	kv_add(l, "cpu", NULL, true, "%u", ev->processor);
	if (ev->has & ETW_ETL_HAS_TIMESTAMP)
		kv_add(l, "timestamp", NULL, true, "%" PRIu64, ev->timestamp);
	if (e->time[0])
		kv_add(l, "time", NULL, false, "%s", e->time);
}

static void add_what(const struct dump_event *e, struct kv_list *l)
{
	const struct etw_etl_event *ev = e->ev;

	if (e->provider[0])
		kv_add(l, "provider", NULL, false, "%s", e->provider);
	if (e->provider_name)
		kv_add(l, "provider_name", NULL, false, "%s", e->provider_name);
	if (e->event_name)
		kv_add(l, "event_name", NULL, false, "%s", e->event_name);
	if (ev->has & (ETW_ETL_HAS_DESCRIPTOR | ETW_ETL_HAS_MESSAGE))
		kv_add(l, "id", NULL, true, "%u", ev->id);
	if (ev->has & (ETW_ETL_HAS_DESCRIPTOR | ETW_ETL_HAS_CLASS |
		       ETW_ETL_HAS_HOOK))
		kv_add(l, "version", NULL, true, "%u", ev->version);
	if (ev->has & ETW_ETL_HAS_DESCRIPTOR)
		kv_add(l, "channel", NULL, true, "%u", ev->channel);
	if (ev->has & (ETW_ETL_HAS_DESCRIPTOR | ETW_ETL_HAS_CLASS))
		kv_add(l, "level", NULL, true, "%u", ev->level);
	if (ev->has & (ETW_ETL_HAS_DESCRIPTOR | ETW_ETL_HAS_CLASS |
		       ETW_ETL_HAS_HOOK))
		kv_add(l, "opcode", NULL, true, "%u", ev->opcode);
	if (ev->has & ETW_ETL_HAS_DESCRIPTOR) {
		kv_add(l, "task", NULL, true, "%u", ev->task);
		kv_add(l, "keyword", NULL, false, "0x%016" PRIx64, ev->keyword);
	}
	if (ev->has & ETW_ETL_HAS_HOOK)
		kv_add(l, "hook_id", NULL, false, "0x%04x", ev->hook_id);
	if (ev->has & ETW_ETL_HAS_SEQUENCE)
		kv_add(l, "sequence", NULL, true, "%u", ev->sequence);
	if (ev->has & ETW_ETL_HAS_COMPONENT)
		kv_add(l, "component_id", NULL, true, "%u", ev->component_id);
}

static void add_who(const struct dump_event *e, struct kv_list *l)
{
	const struct etw_etl_event *ev = e->ev;
	char guid[ETW_ETL_GUID_STRLEN];

	if (ev->has & ETW_ETL_HAS_IDS) {
		kv_add(l, "pid", NULL, true, "%u", ev->process_id);
		kv_add(l, "tid", NULL, true, "%u", ev->thread_id);
	}
	if (ev->has & ETW_ETL_HAS_CPU_TIME) {
		kv_add(l, "kernel_time", NULL, true, "%u", ev->kernel_time);
		kv_add(l, "user_time", NULL, true, "%u", ev->user_time);
	}
	if (ev->has & ETW_ETL_HAS_ACTIVITY) {
		etw_etl_guid_to_str(&ev->activity_id, guid);
		kv_add(l, "activity_id", NULL, false, "%s", guid);
	}
	kv_add(l, "flags", NULL, false, "0x%04x", ev->flags);
	kv_add(l, "header_flags", NULL, false, "0x%04x", ev->header_flags);
	if (ev->kind == ETW_ETL_KIND_EVENT || ev->kind == ETW_ETL_KIND_ERROR)
		kv_add(l, "event_property", NULL, false, "0x%04x",
		       ev->event_property);
	kv_add(l, "size", NULL, true, "%u", ev->size);
	kv_add(l, "payload_size", NULL, true, "%u", ev->data_size);
}

void event_kvs(const struct dump_event *e, struct kv_list *l)
{
	kv_reset(l);
	add_where(e, l);
	add_what(e, l);
	add_who(e, l);
	kv_finish(l);
}

/*
 * 16 bytes a line: offset, hex, printable ASCII.  Built by hand and
 * written a block at a time: `etw dump` of a file of events without a
 * schema spends most of its time here.
 */
void hexdump(FILE *out, const void *data, size_t n, const char *indent)
{
	static const char digits[] = "0123456789abcdef";
	const unsigned char *p = data;
	size_t ilen = strnlen(indent, 32), len = 0;
	char block[4096];

	for (size_t off = 0; off < n; off += 16) {
		size_t cnt = n - off < 16 ? n - off : 16;
		char *line;

		if (len > sizeof(block) - 128) {
			fwrite(block, 1, len, out);
			len = 0;
		}
		line = block + len;
		memcpy(line, indent, ilen);
		line += ilen;
		for (int shift = off > 0xffff ? 28 : 12; shift >= 0; shift -= 4)
			*line++ = digits[(off >> shift) & 15];
		*line++ = ' ';
		memset(line, ' ', 16 * 3 + 2);
		for (size_t i = 0; i < cnt; i++) {
			line[3 * i + 1] = digits[p[off + i] >> 4];
			line[3 * i + 2] = digits[p[off + i] & 15];
		}
		line += 16 * 3 + 2;
		for (size_t i = 0; i < cnt; i++) {
			unsigned char c = p[off + i];

			*line++ = c >= 0x20 && c < 0x7f ? (char)c : '.';
		}
		*line++ = '\n';
		len = (size_t)(line - block);
	}
	fwrite(block, 1, len, out);
}
