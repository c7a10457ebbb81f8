// SPDX-License-Identifier: GPL-2.0
/*
 * etw dump: WPP (TraceMessage) records through their TMF files
 * (etw_tmf.h).  Each argument becomes a field named by its expression in
 * the source, the message goes where a manifest event's message goes,
 * and the tracefmt format prints tracefmt's line.  The counts are those
 * of tracefmt's closing summary.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "dump/dump.h"
#include "etw.h"

int dump_wpp_new(struct dump_wpp **wp, const struct etw_wpp_options *o)
{
	struct dump_wpp *w = calloc(1, sizeof(*w));

	*wp = w;
	if (!w || etw_tmf_store_new(&w->store) ||
	    etw_wpp_formatter_new(&w->fmt, o)) {
		dump_wpp_free(w);
		*wp = NULL;
		return -ENOMEM;
	}
	return 0;
}

void dump_wpp_free(struct dump_wpp *w)
{
	if (!w)
		return;
	etw_wpp_formatter_free(w->fmt);
	etw_tmf_store_free(w->store);
	free(w);
}

void dump_wpp_prepare(struct dump_prep *pp, const struct etw_etl_event *ev)
{
	struct dump_wpp *w = pp->wpp;
	struct dump_event *e = &pp->e;
	const struct etw_wpp_message *m = &w->m;
	const char *text;
	int ret;

	ret = etw_wpp_format(w->fmt, w->store, ev, &w->m);
	if (ret == -ENOMEM) {
		etw_error("dump: out of memory");
		exit(1);
	}
	e->wpp_line = m->line;
	e->wpp_ret = ret;
	if (ret == -ENOENT) {
		w->unknowns++;
		sb_reset(&pp->warning);
		sb_printf(&pp->warning, "No Format Information found: no TMF has message %u of %s",
			  ev->id, e->provider);
		e->warning = pp->warning.p;
		return;
	}
	if (ret)
		w->format_errors++;
	kv_reset(&e->fields);
	for (uint32_t i = 0; i < m->arg_count; i++)
		kv_add(&e->fields, m->args[i].name, NULL, m->args[i].number,
		       "%s", m->args[i].value);
	kv_finish(&e->fields);
	e->decoded = true;
	e->event_name = m->message_name;
	e->provider_name = m->guid_name;
	kv_reset(&e->rendering);
	kv_add(&e->rendering, "Level", NULL, false, "%s", m->level);
	kv_add(&e->rendering, "Flags", NULL, false, "%s", m->flags);
	kv_add(&e->rendering, "Function", NULL, false, "%s", m->function);
	/* Without the blank WPP's "%0 " leaves before the text. */
	for (text = m->text; *text == ' '; text++)
		;
	kv_add(&e->rendering, "Message", NULL, false, "%s", text);
	kv_finish(&e->rendering);
	if (ret) {
		sb_reset(&pp->warning);
		sb_printf(&pp->warning, "the data does not match message %u of its TMF",
			  ev->id);
		e->warning = pp->warning.p;
	}
}
