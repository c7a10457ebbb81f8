// SPDX-License-Identifier: GPL-2.0
/*
 * etw dump --format xml: each record as an <Event> shaped like Windows'
 * event XML (System, EventData or BinaryEventData), inside
 *   <EtwDump><File Name=...><Header>...</Header><Events>...</Events>
 * An error becomes an <Error> element, so the document stays well formed.
 */
#include <inttypes.h>

#include "dump/dump.h"

static void begin(struct dump *d)
{
	fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<EtwDump>\n", d->out);
}

/* <key>value</key>: keys are ASCII identifiers of our own. */
static void element(FILE *out, const char *indent, const struct dump_kv *kv)
{
	fprintf(out, "%s<%s>", indent, kv->key);
	put_xml_text(out, kv->value);
	fprintf(out, "</%s>\n", kv->key);
}

static void file_begin(struct dump *d, const char *path,
		       const struct kv_list *header)
{
	FILE *out = d->out;

	d->files++;
	d->in_events = false;
	fputs(" <File Name=\"", out);
	put_xml_text(out, path);
	fputs("\">\n", out);
	if (!header)
		return;
	fputs("  <Header>\n", out);
	for (size_t i = 0; i < header->n; i++)
		element(out, "   ", &header->v[i]);
	fputs("  </Header>\n", out);
	if (!d->summary) {
		fputs("  <Events>\n", out);
		d->in_events = true;
	}
}

static void attr(FILE *out, const char *name, const char *value)
{
	fprintf(out, " %s=\"", name);
	put_xml_text(out, value);
	putc('"', out);
}

static void provider(FILE *out, const struct dump_event *e)
{
	fputs("     <Provider", out);
	if (e->provider[0])
		fprintf(out, " Guid=\"{%s}\"", e->provider);
	if (e->provider_name)
		attr(out, "Name", e->provider_name);
	if (e->event_name)
		attr(out, "EventName", e->event_name);
	fputs("/>\n", out);
}

static void descriptor(FILE *out, const struct etw_etl_event *ev)
{
	if (ev->has & (ETW_ETL_HAS_DESCRIPTOR | ETW_ETL_HAS_MESSAGE))
		fprintf(out, "     <EventID>%u</EventID>\n", ev->id);
	if (ev->has & (ETW_ETL_HAS_DESCRIPTOR | ETW_ETL_HAS_CLASS |
		       ETW_ETL_HAS_HOOK))
		fprintf(out, "     <Version>%u</Version>\n", ev->version);
	if (ev->has & (ETW_ETL_HAS_DESCRIPTOR | ETW_ETL_HAS_CLASS))
		fprintf(out, "     <Level>%u</Level>\n", ev->level);
	if (ev->has & ETW_ETL_HAS_DESCRIPTOR)
		fprintf(out, "     <Task>%u</Task>\n", ev->task);
	if (ev->has & (ETW_ETL_HAS_DESCRIPTOR | ETW_ETL_HAS_CLASS |
		       ETW_ETL_HAS_HOOK))
		fprintf(out, "     <Opcode>%u</Opcode>\n", ev->opcode);
	if (ev->has & ETW_ETL_HAS_DESCRIPTOR)
		fprintf(out, "     <Keywords>0x%016" PRIx64 "</Keywords>\n"
			"     <Channel>%u</Channel>\n", ev->keyword, ev->channel);
}

static void system(FILE *out, const struct dump_event *e)
{
	const struct etw_etl_event *ev = e->ev;
	char guid[ETW_ETL_GUID_STRLEN];

	fputs("    <System>\n", out);
	provider(out, e);
	descriptor(out, ev);
	fprintf(out, "     <TimeCreated SystemTime=\"%s\" RawTimestamp=\"%" PRIu64 "\"/>\n",
		e->time, ev->timestamp);
	if (ev->has & ETW_ETL_HAS_ACTIVITY) {
		etw_etl_guid_to_str(&ev->activity_id, guid);
		fprintf(out, "     <Correlation ActivityID=\"{%s}\"/>\n", guid);
	}
	fprintf(out, "     <Execution ProcessorID=\"%u\"", ev->processor);
	if (ev->has & ETW_ETL_HAS_IDS)
		fprintf(out, " ProcessID=\"%u\" ThreadID=\"%u\"", ev->process_id,
			ev->thread_id);
	if (ev->has & ETW_ETL_HAS_CPU_TIME)
		fprintf(out, " KernelTime=\"%u\" UserTime=\"%u\"",
			ev->kernel_time, ev->user_time);
	fputs("/>\n", out);
	fprintf(out, "     <Record Index=\"%" PRIu64 "\" Kind=\"%s\" Offset=\"0x%" PRIx64
		"\" Buffer=\"%u\" Size=\"%u\" Flags=\"0x%04x\"", e->index, e->kind,
		ev->offset, ev->buffer, ev->size, ev->flags);
	if (ev->has & ETW_ETL_HAS_HOOK)
		fprintf(out, " HookId=\"0x%04x\"", ev->hook_id);
	fputs("/>\n    </System>\n", out);
}

/* tracerpt's RenderingInfo: the manifest's names and the message. */
static void rendering(FILE *out, const struct dump_event *e)
{
	if (!e->rendering.n && !e->warning)
		return;
	fputs("    <RenderingInfo Culture=\"en-US\">\n", out);
	for (size_t i = 0; i < e->rendering.n; i++) {
		fprintf(out, "     <%s>", e->rendering.v[i].key);
		put_xml_text(out, e->rendering.v[i].value);
		fprintf(out, "</%s>\n", e->rendering.v[i].key);
	}
	if (e->warning) {
		fputs("     <Warning>", out);
		put_xml_text(out, e->warning);
		fputs("</Warning>\n", out);
	}
	fputs("    </RenderingInfo>\n", out);
}

static void event(struct dump *d, const struct dump_event *e)
{
	FILE *out = d->out;

	fputs("   <Event>\n", out);
	system(out, e);
	if (e->ext.n) {
		fputs("    <ExtendedData>\n", out);
		for (size_t i = 0; i < e->ext.n; i++) {
			fprintf(out, "     <Item Type=\"%s\">", e->ext.v[i].key);
			put_xml_text(out, e->ext.v[i].value);
			fputs("</Item>\n", out);
		}
		fputs("    </ExtendedData>\n", out);
	}
	if (e->decoded) {
		fputs("    <EventData>\n", out);
		for (uint32_t i = 0; e->dec && i < e->dec->field_count; i++) {
			fputs("     <Data", out);
			attr(out, "Name", e->dec->fields[i].name);
			putc('>', out);
			put_xml_text(out, e->dec->fields[i].value);
			fputs("</Data>\n", out);
		}
		for (size_t i = 0; i < e->fields.n; i++) {
			fputs("     <Data", out);
			attr(out, "Name", e->fields.v[i].key);
			putc('>', out);
			put_xml_text(out, e->fields.v[i].value);
			fputs("</Data>\n", out);
		}
		fputs("    </EventData>\n", out);
	} else {
		sb_write_hex(&d->sb, out, "    <BinaryEventData>", e->ev->data,
			     e->ev->data_size, "</BinaryEventData>\n");
	}
	rendering(out, e);
	fputs("   </Event>\n", out);
}

static void counts(FILE *out, const char *tag, const struct dump_count *c,
		   size_t n, bool events)
{
	for (size_t i = 0; i < n; i++) {
		fprintf(out, "   <%s Guid=\"{%s}\"", tag, c[i].provider);
		if (c[i].provider_name)
			attr(out, "Name", c[i].provider_name);
		if (events) {
			fprintf(out, " EventID=\"%u\" Opcode=\"%u\"", c[i].id,
				c[i].opcode);
			if (c[i].event_name)
				attr(out, "EventName", c[i].event_name);
		}
		fprintf(out, " Count=\"%" PRIu64 "\"/>\n", c[i].count);
	}
}

static void summary(struct dump *d, const struct dump_summary *s)
{
	fprintf(d->out, "  <Summary Records=\"%" PRIu64 "\" HeaderRecords=\"%" PRIu64 "\">\n",
		s->records, s->header_records);
	counts(d->out, "Provider", s->providers, s->nproviders, false);
	counts(d->out, "Event", s->events, s->nevents, true);
	for (size_t i = 0; i < s->nprocesses; i++) {
		const struct dump_process *p = &s->processes[i];

		fprintf(d->out, "   <Process PID=\"%u\" ParentPID=\"%u\"", p->pid,
			p->parent);
		attr(d->out, "Image", p->image);
		attr(d->out, "CommandLine", p->command_line);
		attr(d->out, "Start", p->start);
		attr(d->out, "End", p->end);
		fprintf(d->out, " Events=\"%" PRIu64 "\" Threads=\"%" PRIu64 "\"/>\n",
			p->events, p->threads);
	}
	fputs("  </Summary>\n", d->out);
}

static void file_end(struct dump *d, const struct etw_etl_error *err)
{
	FILE *out = d->out;

	if (d->in_events)
		fputs("  </Events>\n", out);
	d->in_events = false;
	if (err) {
		fputs("  <Error", out);
		if (err->offset != ETW_ETL_NO_OFFSET)
			fprintf(out, " Offset=\"0x%" PRIx64 "\"", err->offset);
		fputs(">", out);
		put_xml_text(out, err->message);
		fputs("</Error>\n", out);
	}
	fputs(" </File>\n", out);
}

static void end(struct dump *d)
{
	fputs("</EtwDump>\n", d->out);
}

const struct dump_format dump_xml = {
	.name = "xml",
	.begin = begin,
	.file_begin = file_begin,
	.event = event,
	.summary = summary,
	.file_end = file_end,
	.end = end,
};
