// SPDX-License-Identifier: GPL-2.0
/*
 * Extended data items of an EVENT_HEADER record, in their on-disk form
 * (etl-format.md 3.7): an 8-byte item header (stride, ExtType, Linkage,
 * DataSize), the data, zero padding to 8 bytes.  Linkage is 1 on every
 * item but the last.
 *
 * An event collects the items it may carry in a struct etw_ext_set, in the
 * order they are stored.  Some are for every session (a related activity
 * id, TraceLogging metadata); others only for the sessions whose
 * EnableProperty asked for them (a SID, a stack...): each item names the
 * EVENT_ENABLE_PROPERTY_* bit it needs, and the length and the bytes are
 * computed per session from that session's bits.
 */
#include <linux/bug.h>
#include <linux/string.h>

#include "etl.h"
#include "internal.h"

static bool etw_ext_wanted(const struct etw_ext *x, u32 enable_property)
{
	return !x->property || (x->property & enable_property);
}

static u32 etw_ext_item_len(const struct etw_ext *x)
{
	return ALIGN(sizeof(struct etl_ext_item) + x->size, 8);
}

/**
 * etw_ext_add() - append an item to an event's set
 * @set: the event's items
 * @type: ETL_EXT_* (EVENT_HEADER_EXT_TYPE_*)
 * @data: the item's data; must stay valid until the record is written
 * @size: its length in bytes
 * @property: 0 for every session, else the EVENT_ENABLE_PROPERTY_* bit a
 *	session needs to receive it
 */
void etw_ext_add(struct etw_ext_set *set, u16 type, const void *data,
		 u16 size, u32 property)
{
	struct etw_ext *x;

	if (WARN_ON_ONCE(set->count == ETW_EXT_MAX))
		return;
	x = &set->item[set->count++];
	x->type = type;
	x->size = size;
	x->property = property;
	x->data = data;
	if (property)
		set->properties |= property;
	else
		set->common_len += etw_ext_item_len(x);
}

/* Bytes the items take in a record for a session with @enable_property. */
u32 etw_ext_len(const struct etw_ext_set *set, u32 enable_property)
{
	u32 i, len = 0;

	/* Per event and per session: no walk when only common items apply. */
	if (!(enable_property & set->properties))
		return set->common_len;
	for (i = 0; i < set->count; i++)
		if (etw_ext_wanted(&set->item[i], enable_property))
			len += etw_ext_item_len(&set->item[i]);
	return len;
}

/*
 * Write the items a session with @enable_property receives at @dst (8-byte
 * aligned, etw_ext_len() bytes).
 */
void etw_ext_write(void *dst, const struct etw_ext_set *set,
		   u32 enable_property)
{
	struct etl_ext_item *h, *last = NULL;
	u8 *p = dst;
	u32 i, len;

	if (!set->common_len && !(enable_property & set->properties))
		return;
	for (i = 0; i < set->count; i++) {
		const struct etw_ext *x = &set->item[i];

		if (!etw_ext_wanted(x, enable_property))
			continue;
		len = etw_ext_item_len(x);
		h = (struct etl_ext_item *)p;
		h->item_size = len;
		h->ext_type = x->type;
		h->linkage = ETL_EXT_LINKAGE;
		h->data_size = x->size;
		memcpy(h + 1, x->data, x->size);
		memset((u8 *)(h + 1) + x->size, 0, len - sizeof(*h) - x->size);
		last = h;
		p += len;
	}
	if (last)
		last->linkage = 0;
}
