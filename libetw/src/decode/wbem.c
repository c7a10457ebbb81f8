// SPDX-License-Identifier: MIT
/*
 * DecodingSourceWbem: kernel records (SYSTEM, COMPACT and PERFINFO
 * headers: the group's GUID and the hook's type as opcode) and classic
 * records (EVENT_TRACE_HEADER: the class GUID and Class.Type) whose
 * (GUID, opcode, version) is in the kernel class table.  The description
 * is built from the table the first time; the cache keeps it.
 *
 * TRACE_EVENT_INFO as Windows fills it for MOF events: EventGuid is the
 * class GUID, the task name the MOF parent class ("Process"), the opcode
 * name the event type name ("DCStart"), no event name; fixed lengths and
 * counts carry PropertyParamFixedLength/Count.  A class the table does
 * not have is looked for in the installed MOF schemas (mof_source.c).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "intype_size.h"
#include "kernel_classes.h"
#include "mof.h"

static bool wbem_key(const struct decode_record *r, struct decode_key *key)
{
	key->guid = r->provider;
	key->id = r->opcode;
	key->version = r->version;
	return true;
}

static bool is_kernel_group(const GUID *g)
{
	return memcmp(g, &kc_guid_imageid, sizeof(*g)) != 0;
}

static int add_field(struct tei_builder *b, const struct kc_field *f,
		     const char *name)
{
	struct tei_prop p = {
		.name = name, .in_type = f->in_type, .out_type = f->out_type,
		.count = f->count ? f->count : 1, .length = f->length,
		.map_name = f->map, .flags = f->flags,
	};

	if (f->length)
		p.flags |= PropertyParamFixedLength;
	else
		p.length = intype_size(f->in_type);	/* as Windows' TDH gives */
	if (f->flags & PropertyParamCount)
		p.count = f->count;	/* the index of the count field */
	else if (f->count)
		p.flags |= PropertyParamFixedCount;
	return tei_add_property(b, &p);
}

static int describe(struct tei_builder *b, const struct kc_class *c)
{
	uint16_t n = c->nfields;
	int ret = 0;

	for (uint8_t i = 0; i < c->nmaps && !ret; i++)
		ret = tei_add_map(b, c->maps[i].name, c->maps[i].flags,
				  c->maps[i].entries, c->maps[i].count);
	if (c->repeat_last && n)
		n--;
	for (uint16_t i = 0; i < n && ret >= 0; i++)
		ret = add_field(b, &c->fields[i], c->fields[i].name);
	for (uint16_t i = 1; c->repeat_last && i <= c->repeat_last && ret >= 0;
	     i++) {
		char name[64];

		snprintf(name, sizeof(name), "%s%u", c->fields[n].name, i);
		ret = add_field(b, &c->fields[n], name);
	}
	return ret < 0 ? ret : 0;
}

static int wbem_build(const struct decode_record *r,
		      const struct decode_key *key, struct decode_desc **out)
{
	const char *event_name;
	const struct kc_class *c = kc_find(&key->guid, (uint8_t)key->id,
					   key->version, &event_name);
	EVENT_DESCRIPTOR desc = { 0 };
	struct tei_builder *b;
	int ret;

	(void)r;
	if (!c) {
		struct mof_event ev;

		/* After the kernel's classes, the installed schemas. */
		if (mof_store_find(&key->guid, (uint8_t)key->id, key->version, &ev))
			return -ENOENT;
		return mof_build(&ev, key, out);
	}
	b = tei_builder_new();
	if (!b)
		return -ENOMEM;
	desc.Version = key->version;
	desc.Opcode = (UCHAR)key->id;
	tei_set_event(b, &key->guid, &key->guid, &desc, DecodingSourceWbem, 0);
	tei_set_string(b, TEI_PROVIDER_NAME_S,
		       is_kernel_group(&key->guid) ? "MSNT_SystemTrace" :
						     "KernelTraceControl");
	tei_set_string(b, TEI_TASK_NAME_S, c->task);
	tei_set_string(b, TEI_OPCODE_NAME_S, event_name);
	ret = describe(b, c);
	if (!ret)
		ret = tei_builder_finish(b, key, DECODE_DESC_LENIENT, out);
	tei_builder_free(b);
	return ret;
}

const struct decode_source decode_source_wbem = {
	.kind = DecodingSourceWbem,
	.key = wbem_key,
	.build = wbem_build,
};
