// SPDX-License-Identifier: GPL-2.0
/*
 * etw dump --format text: for people.  A header block per file, then two
 * lines per record, its extended items, decoded fields or a hex dump.
 */
#include <inttypes.h>
#include <string.h>

#include "dump/dump.h"
#include "line.h"

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
	struct dump_line l = { 0 };

	line_str(&l, "#");
	line_u(&l, e->index);
	line_str(&l, " ");
	line_str(&l, e->time[0] ? e->time : "-");
	line_str(&l, " cpu ");
	line_u(&l, ev->processor);
	if (ev->has & ETW_ETL_HAS_IDS) {
		line_str(&l, " pid ");
		line_u(&l, ev->process_id);
		if (e->process_name) {
			line_put(&l, out);
			fputs(" (", out);
			put_text(out, e->process_name);
			putc(')', out);
		}
		line_str(&l, " tid ");
		line_u(&l, ev->thread_id);
	} else if (e->process_name) {
		/* No ids in the header: the process the payload names. */
		line_str(&l, " process ");
		line_u(&l, e->payload_pid);
		line_put(&l, out);
		fputs(" (", out);
		put_text(out, e->process_name);
		putc(')', out);
	}
	line_str(&l, " ");
	line_str(&l, e->kind);
	if (e->provider[0]) {
		line_str(&l, " ");
		line_str(&l, e->provider);
	}
	line_put(&l, out);
	/* Names come from the file or a schema: escaped. */
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

static void field(struct dump_line *l, const char *name, uint64_t v)
{
	line_str(l, name);
	line_u(l, v);
}

/* The second line: what the header says about the event. */
static void what(FILE *out, const struct dump_event *e)
{
	const struct etw_etl_event *ev = e->ev;
	struct dump_line l = { 0 };

	line_str(&l, "   ");
	if (ev->has & ETW_ETL_HAS_DESCRIPTOR) {
		field(&l, " id ", ev->id);
		field(&l, " version ", ev->version);
		field(&l, " channel ", ev->channel);
		field(&l, " level ", ev->level);
		field(&l, " opcode ", ev->opcode);
		field(&l, " task ", ev->task);
		line_str(&l, " keyword 0x");
		line_x(&l, ev->keyword, 1);
	}
	if (ev->has & ETW_ETL_HAS_CLASS) {
		field(&l, " opcode ", ev->opcode);
		field(&l, " level ", ev->level);
		field(&l, " version ", ev->version);
	}
	if (ev->has & ETW_ETL_HAS_HOOK) {
		line_str(&l, " hook 0x");
		line_x(&l, ev->hook_id, 4);
		field(&l, " opcode ", ev->opcode);
		field(&l, " version ", ev->version);
	}
	if (ev->has & ETW_ETL_HAS_MESSAGE)
		field(&l, " message ", ev->id);
	if (ev->has & ETW_ETL_HAS_SEQUENCE)
		field(&l, " sequence ", ev->sequence);
	if (ev->has & ETW_ETL_HAS_COMPONENT)
		field(&l, " component ", ev->component_id);
	line_str(&l, " flags 0x");
	line_x(&l, ev->flags, 4);
	field(&l, " size ", ev->size);
	line_str(&l, " offset 0x");
	line_x(&l, ev->offset, 1);
	line_str(&l, "\n");
	line_put(&l, out);
}

/*
 * Plain printable ASCII (0x20-0x7e), which text writes as it is; eight
 * bytes at a time: a byte below 0x20 or at or above 0x7f sets its top bit
 * in one of the two masks.
 */
static bool plain_text(const char *s, size_t n)
{
	const uint64_t ones = 0x0101010101010101ull, high = ones << 7;
	size_t i = 0;

	for (; i + 8 <= n; i += 8) {
		uint64_t x;

		memcpy(&x, s + i, 8);
		if (((x - 0x20 * ones) | (x + ones) | x) & high)
			return false;
	}
	for (; i < n; i++)
		if ((unsigned char)s[i] - 0x20u >= 0x5fu)
			return false;
	return true;
}

/*
 * "    name: value" lines, built in one block and written at once: the
 * fields are most of what a decoded record prints.  A name or value with
 * anything to escape goes through put_text() between two blocks.
 */
static void decoded_fields(struct dump *d, const struct etw_decoded_event *dec)
{
	struct sbuf *sb = &d->sb;

	sb_reset(sb);
	for (uint32_t i = 0; i < dec->field_count; i++) {
		const struct etw_decoded_field *f = &dec->fields[i];
		size_t nlen = strlen(f->name), vlen = f->value_len;
		char *o;

		/* The decoder knows most fields need no look. */
		if (!f->plain && (!plain_text(f->name, nlen) ||
				  !plain_text(f->value, vlen))) {
			fwrite(sb->p, 1, sb->len, d->out);
			sb_reset(sb);
			fputs("    ", d->out);
			put_text(d->out, f->name);
			fputs(": ", d->out);
			put_text(d->out, f->value);
			putc('\n', d->out);
			continue;
		}
		sb_reserve(sb, nlen + vlen + 7);
		o = sb->p + sb->len;
		memcpy(o, "    ", 4);
		memcpy(o + 4, f->name, nlen);
		memcpy(o + 4 + nlen, ": ", 2);
		memcpy(o + 6 + nlen, f->value, vlen);
		o[6 + nlen + vlen] = '\n';
		sb->len += nlen + vlen + 7;
	}
	fwrite(sb->p, 1, sb->len, d->out);
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
	for (size_t i = 0; i < e->rendering.n; i++) {
		fprintf(out, "    (%s) ", e->rendering.v[i].key);
		put_text(out, e->rendering.v[i].value);
		putc('\n', out);
	}
	if (e->warning) {
		fputs("    warning: ", out);
		put_text(out, e->warning);
		putc('\n', out);
	}
	if (e->dec)
		decoded_fields(d, e->dec);
	for (size_t i = 0; i < e->fields.n; i++) {
		fputs("    ", out);
		put_text(out, e->fields.v[i].key);
		fputs(": ", out);
		put_text(out, e->fields.v[i].value);
		putc('\n', out);
	}
	if (!e->decoded && e->ev->data_size) {
		struct dump_line l = { 0 };

		field(&l, "    payload ", e->ev->data_size);
		line_str(&l, " bytes\n");
		line_put(&l, out);
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
	if (!s->nprocesses)
		return;
	fprintf(out, "\nProcesses:\n  %8s %8s %10s %7s  %-28s %-28s %s\n",
		"pid", "parent", "events", "threads", "start", "end",
		"image / command line");
	for (size_t i = 0; i < s->nprocesses; i++) {
		const struct dump_process *p = &s->processes[i];

		fprintf(out, "  %8u %8u %10" PRIu64 " %7" PRIu64 "  %-28s %-28s ",
			p->pid, p->parent, p->events, p->threads,
			p->start[0] ? p->start : "-", p->end[0] ? p->end : "-");
		put_text(out, p->image[0] ? p->image : "-");
		if (p->command_line[0]) {
			fputs(" / ", out);
			put_text(out, p->command_line);
		}
		putc('\n', out);
	}
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
