// SPDX-License-Identifier: GPL-2.0
/*
 * etw dump --format csv: one row per record with a fixed set of columns
 * (RFC 4180 quoting), or with --summary rows of file, section, key,
 * name, value.
 */
#include <inttypes.h>

#include "dump.h"

static void begin(struct dump *d)
{
	if (d->summary)
		fputs("file,section,key,name,value\n", d->out);
	else
		fputs("file,index,time,timestamp,cpu,pid,tid,kind,provider,provider_name,event_name,"
		      "id,version,channel,level,opcode,task,keyword,hook_id,flags,"
		      "ext,fields,payload_size,payload\n", d->out);
}

static void row(struct dump *d, const char *section, const char *key,
		const char *name, const char *value)
{
	put_csv_field(d->out, d->path);
	putc(',', d->out);
	put_csv_field(d->out, section);
	putc(',', d->out);
	put_csv_field(d->out, key);
	putc(',', d->out);
	put_csv_field(d->out, name ? name : "");
	putc(',', d->out);
	put_csv_field(d->out, value);
	putc('\n', d->out);
}

static void file_begin(struct dump *d, const char *path,
		       const struct kv_list *header)
{
	d->files++;
	if (!d->summary || !header)
		return;
	for (size_t i = 0; i < header->n; i++)
		row(d, "header", header->v[i].key, header->v[i].label,
		    header->v[i].value);
}

static void field(FILE *out, const char *s)
{
	put_csv_field(out, s);
	putc(',', out);
}

/* "key=value; ..." in one field. */
static void joined(FILE *out, const struct kv_list *l)
{
	struct sbuf sb = { 0 };

	sb_printf(&sb, "%s", "");
	for (size_t i = 0; i < l->n; i++)
		sb_printf(&sb, "%s%s=%s", i ? "; " : "", l->v[i].key,
			  l->v[i].value);
	field(out, sb.p);
	sb_free(&sb);
}

static void ids(FILE *out, const struct etw_etl_event *ev)
{
	if (ev->has & ETW_ETL_HAS_IDS)
		fprintf(out, "%u,%u,", ev->process_id, ev->thread_id);
	else
		fputs(",,", out);
}

static void event(struct dump *d, const struct dump_event *e)
{
	const struct etw_etl_event *ev = e->ev;
	FILE *out = d->out;
	struct sbuf hex = { 0 };

	field(out, d->path);
	fprintf(out, "%" PRIu64 ",%s,%" PRIu64 ",%u,", e->index, e->time,
		ev->timestamp, ev->processor);
	ids(out, ev);
	fprintf(out, "%s,%s,", e->kind, e->provider);
	field(out, e->provider_name ? e->provider_name : "");
	field(out, e->event_name ? e->event_name : "");
	fprintf(out, "%u,%u,%u,%u,%u,%u,0x%016" PRIx64 ",0x%04x,0x%04x,",
		ev->id, ev->version, ev->channel, ev->level, ev->opcode,
		ev->task, ev->keyword, ev->hook_id, ev->flags);
	joined(out, &e->ext);
	joined(out, &e->fields);
	sb_printf(&hex, "%s", "");
	if (!e->decoded)
		sb_hex(&hex, ev->data, ev->data_size);
	fprintf(out, "%u,%s\n", ev->data_size, hex.p);
	sb_free(&hex);
}

static void counts(struct dump *d, const char *section,
		   const struct dump_count *c, size_t n, bool events)
{
	struct sbuf key = { 0 }, value = { 0 };

	for (size_t i = 0; i < n; i++) {
		sb_reset(&key);
		sb_reset(&value);
		sb_printf(&key, "%s", c[i].provider);
		if (events)
			sb_printf(&key, "/%u/%u", c[i].id, c[i].opcode);
		sb_printf(&value, "%" PRIu64, c[i].count);
		row(d, section, key.p,
		    events && c[i].event_name ? c[i].event_name : c[i].provider_name,
		    value.p);
	}
	sb_free(&key);
	sb_free(&value);
}

static void summary(struct dump *d, const struct dump_summary *s)
{
	char buf[24];

	snprintf(buf, sizeof(buf), "%" PRIu64, s->records);
	row(d, "records", "records", NULL, buf);
	snprintf(buf, sizeof(buf), "%" PRIu64, s->header_records);
	row(d, "records", "header_records", NULL, buf);
	counts(d, "provider", s->providers, s->nproviders, false);
	counts(d, "event", s->events, s->nevents, true);
}

static void file_end(struct dump *d, const struct etw_etl_error *err)
{
	if (err && d->summary)
		row(d, "error", "message", NULL, err->message);
}

static void end(struct dump *d)
{
}

const struct dump_format dump_csv = {
	.name = "csv",
	.begin = begin,
	.file_begin = file_begin,
	.event = event,
	.summary = summary,
	.file_end = file_end,
	.end = end,
};
