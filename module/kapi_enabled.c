// SPDX-License-Identifier: GPL-2.0
/*
 * EtwEventEnabled, EtwProviderEnabled: would any session take an event of
 * this level and keyword?  Read from the provider's route, the copy of
 * the enables writers follow, with preemption disabled (an RCU read side):
 * no lock, no atomic, callable in any context, NMI included.
 */
#include <linux/rcupdate.h>

#include "compat.h"
#include "kapi.h"

static bool etw_kreg_enabled(REGHANDLE h, u8 level, u64 keyword)
{
	const struct etw_kreg *k = (const struct etw_kreg *)(uintptr_t)h;
	const struct etw_route *route;
	bool on = false;
	u32 i;

	if (!k)
		return false;
	rcu_read_lock_sched_notrace();
	route = rcu_dereference_sched(k->reg.prov->route);
	for (i = 0; route && i < route->count && !on; i++) {
		const struct etw_route_entry *e = &route->entry[i];

		if (level && level > e->level)
			continue;
		if (!keyword)
			on = !(e->enable_property & ETW_ENABLE_IGNORE_KEYWORD_0);
		else
			on = (keyword & e->match_any) &&
			     (keyword & e->match_all) == e->match_all;
	}
	rcu_read_unlock_sched_notrace();
	return on;
}

BOOLEAN etw_kp_event_enabled(REGHANDLE reg_handle, PCEVENT_DESCRIPTOR desc)
{
	const struct etw_event_desc *d = (const struct etw_event_desc *)desc;

	if (!d)
		return false;
	return etw_kreg_enabled(reg_handle, d->level, d->keyword);
}
EXPORT_SYMBOL_NS_GPL(etw_kp_event_enabled, ETW_NS);

BOOLEAN etw_kp_provider_enabled(REGHANDLE reg_handle, UCHAR level,
				ULONGLONG keyword)
{
	return etw_kreg_enabled(reg_handle, level, keyword);
}
EXPORT_SYMBOL_NS_GPL(etw_kp_provider_enabled, ETW_NS);
