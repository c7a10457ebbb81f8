// SPDX-License-Identifier: GPL-2.0
/*
 * etw dump --format csv: one row per record with a fixed set of columns
 * (RFC 4180 quoting), or with --summary rows of file, section, key,
 * name, value.
 */
#include <inttypes.h>
#include <string.h>

#include "dump/dump.h"
#include "line.h"

static void begin(struct dump *d)
{
	if (d->summary)
		fputs("file,section,key,name,value\n", d->out);
	else
		fputs("file,index,time,timestamp,cpu,pid,tid,kind,provider,provider_name,event_name,"
		      "id,version,channel,level,opcode,task,keyword,hook_id,flags,"
		      "level_name,task_name,opcode_name,keyword_name,channel_name,"
		      "message,warning,ext,fields,payload_size,payload\n", d->out);
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
static void joined(FILE *out, const struct etw_decoded_event *dec,
		   const struct kv_list *l, struct sbuf *sb)
{
	sb_reset(sb);
	sb_put(sb, "", 0);
	for (uint32_t i = 0; dec && i < dec->field_count; i++) {
		if (i)
			sb_put(sb, "; ", 2);
		sb_put(sb, dec->fields[i].name, strlen(dec->fields[i].name));
		sb_putc(sb, '=');
		sb_put(sb, dec->fields[i].value, dec->fields[i].value_len);
	}
	for (size_t i = 0; i < l->n; i++) {
		if (i || (dec && dec->field_count))
			sb_put(sb, "; ", 2);
		sb_put(sb, l->v[i].key, strlen(l->v[i].key));
		sb_putc(sb, '=');
		sb_put(sb, l->v[i].value, strlen(l->v[i].value));
	}
	field(out, sb->p);
}

/* A manifest event's name or message (dump/rendering.c), or "". */
static void rendered(FILE *out, const struct dump_event *e, const char *key)
{
	for (size_t i = 0; i < e->rendering.n; i++) {
		if (!strcmp(e->rendering.v[i].key, key)) {
			field(out, e->rendering.v[i].value);
			return;
		}
	}
	putc(',', out);
}

static void number(struct dump_line *l, uint64_t v)
{
	line_u(l, v);
	line_str(l, ",");
}

static void hex(struct dump_line *l, uint64_t v, int width)
{
	line_str(l, "0x");
	line_x(l, v, width);
	line_str(l, ",");
}

/*
 * The row by hand (dump/line.h), not with fprintf(): the fixed columns go
 * out a line at a time, the strings that may need quoting one by one.
 * The kind, provider GUID and time are never quoted.
 */
static void event(struct dump *d, const struct dump_event *e)
{
	const struct etw_etl_event *ev = e->ev;
	FILE *out = d->out;
	struct dump_line l = { 0 };

	field(out, d->path);
	number(&l, e->index);
	line_str(&l, e->time);
	line_str(&l, ",");
	number(&l, ev->timestamp);
	number(&l, ev->processor);
	if (ev->has & ETW_ETL_HAS_IDS) {
		number(&l, ev->process_id);
		number(&l, ev->thread_id);
	} else {
		line_str(&l, ",,");
	}
	line_str(&l, e->kind);
	line_str(&l, ",");
	line_str(&l, e->provider);
	line_str(&l, ",");
	line_put(&l, out);
	field(out, e->provider_name ? e->provider_name : "");
	field(out, e->event_name ? e->event_name : "");
	number(&l, ev->id);
	number(&l, ev->version);
	number(&l, ev->channel);
	number(&l, ev->level);
	number(&l, ev->opcode);
	number(&l, ev->task);
	hex(&l, ev->keyword, 16);
	hex(&l, ev->hook_id, 4);
	hex(&l, ev->flags, 4);
	line_put(&l, out);
	rendered(out, e, "Level");
	rendered(out, e, "Task");
	rendered(out, e, "Opcode");
	rendered(out, e, "Keywords");
	rendered(out, e, "Channel");
	rendered(out, e, "Message");
	field(out, e->warning ? e->warning : "");
	joined(out, NULL, &e->ext, &d->sb);
	joined(out, e->dec, &e->fields, &d->sb);
	number(&l, ev->data_size);
	line_put(&l, out);
	sb_write_hex(&d->sb, out, "", ev->data, e->decoded ? 0 : ev->data_size,
		     "\n");
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
	for (size_t i = 0; i < s->nprocesses; i++) {
		const struct dump_process *p = &s->processes[i];
		char key[48], value[160];

		snprintf(key, sizeof(key), "%u/%u", p->pid, p->parent);
		snprintf(value, sizeof(value), "%" PRIu64 "/%" PRIu64 "/%s/%s",
			 p->events, p->threads, p->start, p->end);
		row(d, "process", key, p->image, value);
		if (p->command_line[0])
			row(d, "command_line", key, p->image, p->command_line);
	}
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
