// SPDX-License-Identifier: MIT
/*
 * Names for what the ETL reader returns, for tools that print records.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>

#include "internal.h"

static const char *const kinds[] = {
	[ETW_ETL_KIND_EVENT] = "EVENT_HEADER",
	[ETW_ETL_KIND_CLASSIC] = "EVENT_TRACE_HEADER",
	[ETW_ETL_KIND_INSTANCE] = "EVENT_INSTANCE_GUID_HEADER",
	[ETW_ETL_KIND_SYSTEM] = "SYSTEM_TRACE_HEADER",
	[ETW_ETL_KIND_COMPACT] = "COMPACT_TRACE_HEADER",
	[ETW_ETL_KIND_PERFINFO] = "PERFINFO_TRACE_HEADER",
	[ETW_ETL_KIND_MESSAGE] = "MESSAGE_TRACE_HEADER",
	[ETW_ETL_KIND_ERROR] = "ERROR",
};

static const char *const ext_types[] = {
	[ETW_ETL_EXT_RELATED_ACTIVITYID] = "RELATED_ACTIVITYID",
	[ETW_ETL_EXT_SID] = "SID",
	[ETW_ETL_EXT_TS_ID] = "TS_ID",
	[ETW_ETL_EXT_INSTANCE_INFO] = "INSTANCE_INFO",
	[ETW_ETL_EXT_STACK_TRACE32] = "STACK_TRACE32",
	[ETW_ETL_EXT_STACK_TRACE64] = "STACK_TRACE64",
	[ETW_ETL_EXT_PEBS_INDEX] = "PEBS_INDEX",
	[ETW_ETL_EXT_PMC_COUNTERS] = "PMC_COUNTERS",
	[ETW_ETL_EXT_PSM_KEY] = "PSM_KEY",
	[ETW_ETL_EXT_EVENT_KEY] = "EVENT_KEY",
	[ETW_ETL_EXT_EVENT_SCHEMA_TL] = "EVENT_SCHEMA_TL",
	[ETW_ETL_EXT_PROV_TRAITS] = "PROV_TRAITS",
	[ETW_ETL_EXT_PROCESS_START_KEY] = "PROCESS_START_KEY",
	[ETW_ETL_EXT_CONTROL_GUID] = "CONTROL_GUID",
	[ETW_ETL_EXT_QPC_DELTA] = "QPC_DELTA",
	[ETW_ETL_EXT_CONTAINER_ID] = "CONTAINER_ID",
	[ETW_ETL_EXT_STACK_KEY32] = "STACK_KEY32",
	[ETW_ETL_EXT_STACK_KEY64] = "STACK_KEY64",
};

#define N_OF(a)	(sizeof(a) / sizeof((a)[0]))

ETW_EXPORT const char *etw_etl_kind_name(enum etw_etl_kind kind)
{
	return (unsigned int)kind < N_OF(kinds) ? kinds[kind] : NULL;
}

ETW_EXPORT const char *etw_etl_ext_type_name(uint16_t type)
{
	return type < N_OF(ext_types) ? ext_types[type] : NULL;
}

static char *put_hex(char *p, uint32_t v, int digits)
{
	static const char hex[] = "0123456789abcdef";

	for (int i = digits - 1; i >= 0; i--) {
		p[i] = hex[v & 15];
		v >>= 4;
	}
	return p + digits;
}

/* Written by hand: `etw dump` formats a GUID or two per record. */
ETW_EXPORT void etw_etl_guid_to_str(const struct etw_etl_guid *g, char *buf)
{
	char *p = buf;

	p = put_hex(p, g->data1, 8);
	*p++ = '-';
	p = put_hex(p, g->data2, 4);
	*p++ = '-';
	p = put_hex(p, g->data3, 4);
	*p++ = '-';
	for (int i = 0; i < 8; i++) {
		if (i == 2)
			*p++ = '-';
		p = put_hex(p, g->data4[i], 2);
	}
	*p = '\0';
}

ETW_EXPORT int etw_etl_sid_to_str(const void *sid, size_t n, char *buf,
				  size_t size)
{
	const uint8_t *p = sid;
	uint64_t auth = 0;
	size_t len, used;

	if (!p || n < 8 || n < 8 + 4 * (size_t)p[1])
		return -EBADMSG;
	for (int i = 2; i < 8; i++)
		auth = auth << 8 | p[i];
	len = (size_t)snprintf(buf, size, "S-%u-%" PRIu64, p[0], auth);
	for (unsigned int i = 0; i < p[1] && len < size; i++) {
		const uint8_t *a = p + 8 + 4 * i;
		uint32_t v = a[0] | a[1] << 8 | a[2] << 16 | (uint32_t)a[3] << 24;

		len += (size_t)snprintf(buf + len, size - len, "-%" PRIu32, v);
	}
	used = 8 + 4 * (size_t)p[1];
	return len < size ? (int)used : -ENOBUFS;
}
