// SPDX-License-Identifier: GPL-2.0
/*
 * etw dump: a record's payload through libetw's decoder (etw_decode.h),
 * the same one ProcessTrace consumers and the TDH functions use: the
 * event's names from its description and its fields formatted as
 * tracerpt shows them.  A MOF event with bytes its class does not list
 * shows them as one more field, so nothing is hidden.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "dump/dump.h"
#include "etw.h"

/*
 * The event name, else "Task/Opcode" (MOF events: "Image/Load"), or the
 * opcode alone when the task is what the provider is already called.
 */
static const char *name_of(struct dump_prep *pp)
{
	const struct etw_decoded_event *d = &pp->dec;
	const char *prov = pp->e.provider_name;

	if (d->event_name[0])
		return d->event_name;
	if (!d->opcode_name[0])
		return d->task_name[0] ? d->task_name : NULL;
	if (!d->task_name[0] || (prov && !strcmp(prov, d->task_name)))
		return d->opcode_name;
	sb_reset(&pp->event_name);
	sb_put(&pp->event_name, d->task_name, strlen(d->task_name));
	sb_putc(&pp->event_name, '/');
	sb_put(&pp->event_name, d->opcode_name, strlen(d->opcode_name));
	return pp->event_name.p;
}

bool dump_decode(struct dump_prep *pp, const struct etw_etl_event *ev,
		 bool full)
{
	struct dump_event *e = &pp->e;

	if (!pp->decoder && etw_decoder_new(&pp->decoder)) {
		etw_error("dump: out of memory");
		exit(1);
	}
	pp->dec_ret = etw_decode_etl_event(pp->decoder, ev, &pp->dec);
	if (pp->dec_ret == -ENOMEM) {
		etw_error("dump: out of memory");
		exit(1);
	}
	if (pp->dec_ret)
		return false;
	e->event_name = name_of(pp);
	if (!e->provider_name && pp->dec.provider_name[0])
		e->provider_name = pp->dec.provider_name;
	if (!full)
		return true;
	e->dec = &pp->dec;
	if (pp->dec.rest_size) {
		sb_reset(&pp->tmp);
		sb_put(&pp->tmp, "0x", 2);
		sb_hex(&pp->tmp, pp->dec.rest, pp->dec.rest_size);
		kv_add(&e->fields, "UndecodedData", NULL, false, "%s", pp->tmp.p);
	}
	return true;
}
