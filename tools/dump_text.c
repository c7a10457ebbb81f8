// SPDX-License-Identifier: GPL-2.0
/*
 * etw dump --format text: for people.  A header block per file, then two
 * lines per record, its extended items, decoded fields or a hex dump.
 */
#include <inttypes.h>

#include "dump.h"

static void begin(struct dump *d)
{
}

static void file_begin(struct dump *d, const char *path,
		       const struct kv_list *header)
{
	FILE *out = d->out;

	if (!header)
		return;
	if (d->files++)
		putc('\n', out);
	fputs("File: ", out);
	put_text(out, path);
	putc('\n', out);
	for (size_t i = 0; i < header->n; i++) {
		fprintf(out, "  %-26s ", header->v[i].label);
		put_text(out, header->v[i].value);
		putc('\n', out);
	}
	putc('\n', out);
}

/* The first line: when, where, who. */
static void when(FILE *out, const struct dump_event *e)
{
	const struct etw_etl_event *ev = e->ev;

	fprintf(out, "#%" PRIu64 " %s cpu %u", e->index,
		e->time[0] ? e->time : "-", ev->processor);
	if (ev->has & ETW_ETL_HAS_IDS)
		fprintf(out, " pid %u tid %u", ev->process_id, ev->thread_id);
	fprintf(out, " %s", e->kind);
	if (e->provider[0])
		fprintf(out, " %s", e->provider);
	if (e->provider_name) {
		putc(' ', out);
		put_text(out, e->provider_name);
	}
	if (e->event_name) {
		fputs(" / ", out);
		put_text(out, e->event_name);
	}
	putc('\n', out);
}

/* The second line: what the header says about the event. */
static void what(FILE *out, const struct dump_event *e)
{
	const struct etw_etl_event *ev = e->ev;

	fputs("   ", out);
	if (ev->has & ETW_ETL_HAS_DESCRIPTOR)
		fprintf(out, " id %u version %u channel %u level %u opcode %u task %u keyword 0x%" PRIx64,
			ev->id, ev->version, ev->channel, ev->level, ev->opcode,
			ev->task, ev->keyword);
	if (ev->has & ETW_ETL_HAS_CLASS)
		fprintf(out, " opcode %u level %u version %u", ev->opcode,
			ev->level, ev->version);
	if (ev->has & ETW_ETL_HAS_HOOK)
		fprintf(out, " hook 0x%04x opcode %u version %u", ev->hook_id,
			ev->opcode, ev->version);
	if (ev->has & ETW_ETL_HAS_MESSAGE)
		fprintf(out, " message %u", ev->id);
	if (ev->has & ETW_ETL_HAS_SEQUENCE)
		fprintf(out, " sequence %u", ev->sequence);
	if (ev->has & ETW_ETL_HAS_COMPONENT)
		fprintf(out, " component %u", ev->component_id);
	fprintf(out, " flags 0x%04x size %u offset 0x%" PRIx64 "\n", ev->flags,
		ev->size, ev->offset);
}

static void event(struct dump *d, const struct dump_event *e)
{
	FILE *out = d->out;

	when(out, e);
	what(out, e);
	for (size_t i = 0; i < e->ext.n; i++) {
		fprintf(out, "    [%s] ", e->ext.v[i].key);
		put_text(out, e->ext.v[i].value);
		putc('\n', out);
	}
	for (size_t i = 0; i < e->fields.n; i++) {
		fputs("    ", out);
		put_text(out, e->fields.v[i].key);
		fputs(": ", out);
		put_text(out, e->fields.v[i].value);
		putc('\n', out);
	}
	if (!e->decoded && e->ev->data_size) {
		fprintf(out, "    payload %u bytes\n", e->ev->data_size);
		hexdump(out, e->ev->data, e->ev->data_size, "      ");
	}
}

static void counts(FILE *out, const struct dump_count *c, size_t n, bool events)
{
	for (size_t i = 0; i < n; i++) {
		fprintf(out, "  %10" PRIu64 "  %-36s", c[i].count,
			c[i].provider[0] ? c[i].provider : "-");
		if (events)
			fprintf(out, " %5u %6u", c[i].id, c[i].opcode);
		if (c[i].provider_name) {
			putc(' ', out);
			put_text(out, c[i].provider_name);
		}
		if (events && c[i].event_name) {
			fputs(" / ", out);
			put_text(out, c[i].event_name);
		}
		putc('\n', out);
	}
}

static void summary(struct dump *d, const struct dump_summary *s)
{
	FILE *out = d->out;

	fprintf(out, "  %-26s %" PRIu64 " (%" PRIu64 " in buffer 0)\n\n",
		"Records", s->records, s->header_records);
	fprintf(out, "Providers:\n  %10s  %-36s name\n", "count", "provider");
	counts(out, s->providers, s->nproviders, false);
	fprintf(out, "\nEvents:\n  %10s  %-36s %5s %6s name\n", "count",
		"provider", "id", "opcode");
	counts(out, s->events, s->nevents, true);
}

static void file_end(struct dump *d, const struct etw_etl_error *err)
{
	if (!err || !d->files)
		return;
	fputs("error: ", d->out);
	put_text(d->out, err->message);
	putc('\n', d->out);
}

static void end(struct dump *d)
{
}

const struct dump_format dump_text = {
	.name = "text",
	.begin = begin,
	.file_begin = file_begin,
	.event = event,
	.summary = summary,
	.file_end = file_end,
	.end = end,
};
