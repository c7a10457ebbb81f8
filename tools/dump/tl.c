// SPDX-License-Identifier: GPL-2.0
/*
 * etw dump: TraceLogging events through libetw's decoder (etw_tl.h): the
 * provider name from PROV_TRAITS, the event name and the fields from
 * EVENT_SCHEMA_TL.  A payload that does not match its schema is reported
 * as not decoded and dumped raw.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <etw_tl.h>

#include "dump/dump.h"

typedef int (*name_fn)(const void *blob, size_t blob_size, char *buf, size_t size);

static const char *name_of(const struct etw_etl_ext_item *x, struct sbuf *sb,
			   name_fn fn)
{
	char *buf = malloc((size_t)x->size + 1);
	int n = buf ? fn(x->data, x->size, buf, (size_t)x->size + 1) : -ENOMEM;

	if (n >= 0) {
		sb_reset(sb);
		sb_put(sb, buf, (size_t)n);
	}
	free(buf);
	return n >= 0 ? sb->p : NULL;
}

const char *tl_provider_name(const struct etw_etl_ext_item *x, struct sbuf *sb)
{
	return name_of(x, sb, etw_tl_provider_name);
}

const char *tl_event_name(const struct etw_etl_ext_item *x, struct sbuf *sb)
{
	return name_of(x, sb, etw_tl_event_name);
}

static int add_field(void *ctx, const char *name, const char *value)
{
	kv_add(ctx, name, NULL, false, "%s", value);
	return 0;
}

bool tl_decode(const struct etw_etl_event *ev,
	       const struct etw_etl_ext_item *schema, struct kv_list *out)
{
	return !etw_tl_decode(schema->data, schema->size, ev->data, ev->data_size,
			      ev->pointer_size, add_field, out);
}
