// SPDX-License-Identifier: GPL-2.0
/*
 * etw dump --format tracefmt: what Windows' tracefmt prints.  A WPP
 * record is its TMF's message after the prefix (TRACE_FORMAT_PREFIX, or
 * "[CPU]PID.TID::time [FriendlyName]"), or tracefmt's "No Format
 * Information found." line; any other record gets the same default
 * prefix with its provider and event names and fields.  Each file ends
 * with tracefmt's summary line.
 */
#include <inttypes.h>
#include <string.h>

#include "dump/dump.h"

static void begin(struct dump *d)
{
}

static void file_begin(struct dump *d, const char *path,
		       const struct kv_list *header)
{
	d->files++;
	d->events = 0;
	if (d->wpp) {
		d->wpp->format_errors = 0;
		d->wpp->unknowns = 0;
	}
}

/* "[CPU]PID.TID::time [Provider]Event name=value, ..." */
static void other(struct dump *d, const struct dump_event *e)
{
	const struct etw_etl_event *ev = e->ev;
	char time[ETW_WPP_TIME_STRLEN] = "";
	FILE *out = d->out;
	bool first = true;

	if (ev->has & ETW_ETL_HAS_FILETIME)
		etw_wpp_format_time(ev->filetime, d->wpp && d->wpp->gmt, time,
				    sizeof(time));
	fprintf(out, "[%u]%04X.%04X::%s [", ev->processor,
		(ev->has & ETW_ETL_HAS_IDS) ? ev->process_id : 0,
		(ev->has & ETW_ETL_HAS_IDS) ? ev->thread_id : 0, time);
	put_text(out, e->provider_name ? e->provider_name :
		 e->provider[0] ? e->provider : e->kind);
	putc(']', out);
	if (e->event_name)
		put_text(out, e->event_name);
	else
		fprintf(out, "%u", ev->id);
	for (uint32_t i = 0; e->dec && i < e->dec->field_count; i++) {
		fputs(first ? " " : ", ", out);
		put_text(out, e->dec->fields[i].name);
		putc('=', out);
		put_text(out, e->dec->fields[i].value);
		first = false;
	}
	for (size_t i = 0; i < e->fields.n; i++) {
		fputs(first ? " " : ", ", out);
		put_text(out, e->fields.v[i].key);
		putc('=', out);
		put_text(out, e->fields.v[i].value);
		first = false;
	}
	putc('\n', out);
}

static void event(struct dump *d, const struct dump_event *e)
{
	d->events++;
	if (!e->wpp_line) {
		other(d, e);
		return;
	}
	put_text(d->out, e->wpp_line);
	putc('\n', d->out);
}

static void summary(struct dump *d, const struct dump_summary *s)
{
	dump_text.summary(d, s);
}

static void file_end(struct dump *d, const struct etw_etl_error *err)
{
	const struct etw_etl_header *h = d->header;

	if (err && h) {
		fputs("error: ", d->out);
		put_text(d->out, err->message);
		putc('\n', d->out);
	}
	if (!h || d->summary)
		return;
	fprintf(d->out, "\nProcessing completed   Buffers: %u, Events: %" PRIu64
		", EventsLost: %u :: Format Errors: %" PRIu64 ", Unknowns: %" PRIu64 "\n",
		h->buffer_count, d->events, h->events_lost,
		d->wpp ? d->wpp->format_errors : 0, d->wpp ? d->wpp->unknowns : 0);
}

static void end(struct dump *d)
{
}

const struct dump_format dump_tracefmt = {
	.name = "tracefmt",
	.begin = begin,
	.file_begin = file_begin,
	.event = event,
	.summary = summary,
	.file_end = file_end,
	.end = end,
};
