// SPDX-License-Identifier: GPL-2.0
/*
 * etw dump: extended data items as text.  Items whose layout is known and
 * whose size matches it are decoded; anything else is shown in hex.
 */
#include <inttypes.h>
#include <string.h>

#include "dump/dump.h"

static uint64_t le(const uint8_t *p, unsigned int n)
{
	uint64_t v = 0;

	while (n--)
		v = v << 8 | p[n];
	return v;
}

static void guid(struct sbuf *sb, const uint8_t *p)
{
	struct etw_etl_guid g;
	char buf[ETW_ETL_GUID_STRLEN];

	g.data1 = (uint32_t)le(p, 4);
	g.data2 = (uint16_t)le(p + 4, 2);
	g.data3 = (uint16_t)le(p + 6, 2);
	memcpy(g.data4, p + 8, 8);
	etw_etl_guid_to_str(&g, buf);
	sb_put(sb, buf, strlen(buf));
}

/* u64 MatchId, then addresses of size bytes each. */
static void stack(struct sbuf *sb, const uint8_t *p, size_t n,
		  unsigned int size)
{
	sb_printf(sb, "match 0x%" PRIx64, le(p, 8));
	for (size_t off = 8; off + size <= n; off += size)
		sb_printf(sb, " 0x%" PRIx64, le(p + off, size));
}

/* Exactly one SID. */
static bool sid(struct sbuf *sb, const uint8_t *p, size_t n)
{
	char buf[ETW_ETL_SID_STRLEN];
	int used = etw_etl_sid_to_str(p, n, buf, sizeof(buf));

	if (used < 0 || (size_t)used != n)
		return false;
	sb_put(sb, buf, strlen(buf));
	return true;
}

/* Provider traits: the name, then traits; type 1 is the provider group. */
static void traits(const struct etw_etl_ext_item *x, struct sbuf *sb)
{
	const uint8_t *p = x->data;
	struct sbuf name = { 0 };
	size_t n, pos;

	if (!tl_provider_name(x, &name)) {
		sb_hex(sb, x->data, x->size);
		return;
	}
	sb_put(sb, name.p, name.len);
	n = p[0] | p[1] << 8;
	if (n > x->size)
		n = x->size;
	pos = 2 + name.len + 1;
	while (pos + 3 <= n) {
		size_t size = p[pos] | p[pos + 1] << 8;

		if (size < 3 || size > n - pos)
			break;
		if (p[pos + 2] == 1 && size == 3 + 16) {
			sb_put(sb, " group ", 7);
			guid(sb, p + pos + 3);
		} else {
			sb_printf(sb, " trait %u ", p[pos + 2]);
			sb_hex(sb, p + pos + 3, size - 3);
		}
		pos += size;
	}
	sb_free(&name);
}

static bool known(const struct etw_etl_ext_item *x, struct sbuf *sb)
{
	const uint8_t *p = x->data;
	size_t n = x->size;

	switch (x->type) {
	case ETW_ETL_EXT_RELATED_ACTIVITYID:
	case ETW_ETL_EXT_CONTROL_GUID:
	case ETW_ETL_EXT_CONTAINER_ID:
		if (n != 16)
			return false;
		guid(sb, p);
		return true;
	case ETW_ETL_EXT_SID:
		return sid(sb, p, n);
	case ETW_ETL_EXT_TS_ID:
		if (n != 4)
			return false;
		sb_printf(sb, "%" PRIu64, le(p, 4));
		return true;
	case ETW_ETL_EXT_INSTANCE_INFO:
		if (n != 24)
			return false;
		sb_printf(sb, "instance %" PRIu64 " parent %" PRIu64 " ",
			  le(p, 4), le(p + 4, 4));
		guid(sb, p + 8);
		return true;
	case ETW_ETL_EXT_STACK_TRACE32:
	case ETW_ETL_EXT_STACK_TRACE64:
	case ETW_ETL_EXT_STACK_KEY32:
	case ETW_ETL_EXT_STACK_KEY64:
		if (n < 8)
			return false;
		stack(sb, p, n, x->type == ETW_ETL_EXT_STACK_TRACE32 ||
				x->type == ETW_ETL_EXT_STACK_KEY32 ? 4 : 8);
		return true;
	case ETW_ETL_EXT_PEBS_INDEX:
	case ETW_ETL_EXT_PSM_KEY:
	case ETW_ETL_EXT_EVENT_KEY:
	case ETW_ETL_EXT_PROCESS_START_KEY:
	case ETW_ETL_EXT_QPC_DELTA:
	case ETW_ETL_EXT_PMC_COUNTERS:
		if (!n || n % 8)
			return false;
		for (size_t off = 0; off < n; off += 8)
			sb_printf(sb, "%s%" PRIu64, off ? " " : "", le(p + off, 8));
		return true;
	case ETW_ETL_EXT_PROV_TRAITS:
		traits(x, sb);
		return true;
	case ETW_ETL_EXT_EVENT_SCHEMA_TL: {
		struct sbuf name = { 0 };
		bool ok = tl_event_name(x, &name);

		if (ok)
			sb_printf(sb, "event %s", name.p);
		sb_free(&name);
		return ok;
	}
	}
	return false;
}

void ext_value(const struct etw_etl_ext_item *x, struct sbuf *sb)
{
	sb_reset(sb);
	if (known(x, sb))
		return;
	sb_reset(sb);
	sb_hex(sb, x->data, x->size);
}
