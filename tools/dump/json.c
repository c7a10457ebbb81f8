// SPDX-License-Identifier: GPL-2.0
/*
 * etw dump --format json: one document,
 *   {"files": [{"file": ..., "header": {...}, "events": [...] or
 *               "summary": {...}, "error": {...}}]}
 * An error still closes every bracket, so the output always parses.
 */
#include <inttypes.h>
#include <string.h>

#include "dump/dump.h"

static void begin(struct dump *d)
{
	fputs("{\"files\": [", d->out);
}

/* "key": value, quoted unless it is a number. */
static void member(FILE *out, const struct dump_kv *kv, bool first)
{
	if (!first)
		fputs(", ", out);
	put_json_string(out, kv->key);
	fputs(": ", out);
	if (kv->number)
		fputs(kv->value, out);
	else
		put_json_string(out, kv->value);
}

static void members(FILE *out, const struct kv_list *l)
{
	for (size_t i = 0; i < l->n; i++)
		member(out, &l->v[i], !i);
}

static void file_begin(struct dump *d, const char *path,
		       const struct kv_list *header)
{
	FILE *out = d->out;

	fputs(d->files++ ? ",\n{\"file\": " : "\n{\"file\": ", out);
	put_json_string(out, path);
	d->events = 0;
	d->in_events = false;
	if (!header)
		return;
	fputs(",\n \"header\": {", out);
	members(out, header);
	putc('}', out);
	if (!d->summary) {
		fputs(",\n \"events\": [", out);
		d->in_events = true;
	}
}

/* [{"type": ..., "value": ...}]: names may repeat, so not an object. */
static void pairs(FILE *out, const char *name, const struct kv_list *l,
		  const char *kname)
{
	fprintf(out, ", \"%s\": [", name);
	for (size_t i = 0; i < l->n; i++) {
		fprintf(out, "%s{\"%s\": ", i ? ", " : "", kname);
		put_json_string(out, l->v[i].key);
		fputs(", \"value\": ", out);
		put_json_string(out, l->v[i].value);
		putc('}', out);
	}
	putc(']', out);
}

/*
 * The decoder's fields as {"name": ..., "value": ...} objects, built in
 * one block: fields the decoder calls plain need no escaping in JSON.
 */
static void decoded_fields(struct dump *d, const struct etw_decoded_event *dec)
{
	static const char pre[] = "{\"name\": \"", mid[] = "\", \"value\": \"";
	struct sbuf *sb = &d->sb;

	sb_reset(sb);
	for (uint32_t i = 0; i < dec->field_count; i++) {
		const struct etw_decoded_field *f = &dec->fields[i];
		size_t nlen, vlen = f->value_len;
		char *o;

		if (!f->plain) {
			fwrite(sb->p, 1, sb->len, d->out);
			sb_reset(sb);
			fputs(i ? ", {\"name\": " : "{\"name\": ", d->out);
			put_json_string(d->out, f->name);
			fputs(", \"value\": ", d->out);
			put_json_string(d->out, f->value);
			putc('}', d->out);
			continue;
		}
		nlen = strlen(f->name);
		sb_reserve(sb, nlen + vlen + 32);
		o = sb->p + sb->len;
		if (i) {
			memcpy(o, ", ", 2);
			o += 2;
		}
		memcpy(o, pre, sizeof(pre) - 1);
		o += sizeof(pre) - 1;
		memcpy(o, f->name, nlen);
		o += nlen;
		memcpy(o, mid, sizeof(mid) - 1);
		o += sizeof(mid) - 1;
		memcpy(o, f->value, vlen);
		o += vlen;
		memcpy(o, "\"}", 2);
		o += 2;
		sb->len = (size_t)(o - sb->p);
	}
	fwrite(sb->p, 1, sb->len, d->out);
}

static void event(struct dump *d, const struct dump_event *e)
{
	FILE *out = d->out;

	fputs(d->events++ ? ",\n  {" : "\n  {", out);
	event_kvs(e, &d->kvs);
	members(out, &d->kvs);
	if (e->ext.n)
		pairs(out, "ext", &e->ext, "type");
	if (e->rendering.n)
		pairs(out, "rendering", &e->rendering, "name");
	if (e->warning) {
		fputs(", \"warning\": ", out);
		put_json_string(out, e->warning);
	}
	if (e->decoded) {
		fputs(", \"fields\": [", out);
		if (e->dec)
			decoded_fields(d, e->dec);
		for (size_t i = 0; i < e->fields.n; i++) {
			fputs(i || (e->dec && e->dec->field_count) ?
			      ", {\"name\": " : "{\"name\": ", out);
			put_json_string(out, e->fields.v[i].key);
			fputs(", \"value\": ", out);
			put_json_string(out, e->fields.v[i].value);
			putc('}', out);
		}
		putc(']', out);
	} else {
		sb_write_hex(&d->sb, out, ", \"payload\": \"", e->ev->data,
			     e->ev->data_size, "\"");
	}
	putc('}', out);
}

static void counts(FILE *out, const char *name, const struct dump_count *c,
		   size_t n, bool events)
{
	fprintf(out, ",\n  \"%s\": [", name);
	for (size_t i = 0; i < n; i++) {
		fprintf(out, "%s\n   {\"provider\": \"%s\"", i ? "," : "",
			c[i].provider);
		if (c[i].provider_name) {
			fputs(", \"provider_name\": ", out);
			put_json_string(out, c[i].provider_name);
		}
		if (events) {
			fprintf(out, ", \"id\": %u, \"opcode\": %u", c[i].id,
				c[i].opcode);
			if (c[i].event_name) {
				fputs(", \"event_name\": ", out);
				put_json_string(out, c[i].event_name);
			}
		}
		fprintf(out, ", \"count\": %" PRIu64 "}", c[i].count);
	}
	fputs("]", out);
}

static void processes(FILE *out, const struct dump_summary *s)
{
	fputs(",\n  \"processes\": [", out);
	for (size_t i = 0; i < s->nprocesses; i++) {
		const struct dump_process *p = &s->processes[i];

		fprintf(out, "%s\n   {\"pid\": %u, \"parent\": %u, \"image\": ",
			i ? "," : "", p->pid, p->parent);
		put_json_string(out, p->image);
		fputs(", \"command_line\": ", out);
		put_json_string(out, p->command_line);
		fputs(", \"start\": ", out);
		put_json_string(out, p->start);
		fputs(", \"end\": ", out);
		put_json_string(out, p->end);
		fprintf(out, ", \"events\": %" PRIu64 ", \"threads\": %" PRIu64 "}",
			p->events, p->threads);
	}
	fputs("]", out);
}

static void summary(struct dump *d, const struct dump_summary *s)
{
	fprintf(d->out, ",\n \"summary\": {\"records\": %" PRIu64
		", \"header_records\": %" PRIu64, s->records, s->header_records);
	counts(d->out, "providers", s->providers, s->nproviders, false);
	counts(d->out, "events", s->events, s->nevents, true);
	processes(d->out, s);
	fputs("}", d->out);
}

static void file_end(struct dump *d, const struct etw_etl_error *err)
{
	FILE *out = d->out;

	if (d->in_events)
		fputs("\n ]", out);
	d->in_events = false;
	if (err) {
		fputs(",\n \"error\": {\"message\": ", out);
		put_json_string(out, err->message);
		if (err->offset != ETW_ETL_NO_OFFSET)
			fprintf(out, ", \"offset\": %" PRIu64, err->offset);
		fprintf(out, ", \"errno\": %d}", -err->code);
	}
	putc('}', out);
}

static void end(struct dump *d)
{
	fputs("\n]}\n", d->out);
}

const struct dump_format dump_json = {
	.name = "json",
	.begin = begin,
	.file_begin = file_begin,
	.event = event,
	.summary = summary,
	.file_end = file_end,
	.end = end,
};
