// SPDX-License-Identifier: MIT
/*
 * Names for what the ETL reader returns, for tools that print records.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>

#include "etl_internal.h"

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

ETW_EXPORT void etw_etl_guid_to_str(const struct etw_etl_guid *g, char *buf)
{
	snprintf(buf, ETW_ETL_GUID_STRLEN,
		 "%08x-%04x-%04x-%02x%02x-%02x%02x%02x%02x%02x%02x",
		 g->data1, g->data2, g->data3, g->data4[0], g->data4[1],
		 g->data4[2], g->data4[3], g->data4[4], g->data4[5],
		 g->data4[6], g->data4[7]);
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
