/* SPDX-License-Identifier: MIT */
/*
 * Classic providers' MOF schemas inside the decoder: what a property's
 * MOF type and qualifiers make of it in TDH's terms (mof_field.c), the
 * store of installed schemas (mof_store.c) and the description of a
 * classic event built from its event type class (mof_source.c).
 */
#ifndef LIBETW_DECODE_MOF_H
#define LIBETW_DECODE_MOF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <etw_mof.h>

#include "event_info.h"

/* A property of an event type class in TDH's terms. */
struct mof_field {
	uint32_t data_id;		/* WmiDataId: the payload order */
	uint16_t in_type;		/* TDH_INTYPE_* */
	uint16_t out_type;		/* TDH_OUTTYPE_* */
	uint16_t count;			/* fixed count (1: not an array) */
	const char *count_of;		/* WmiSizeIs: the property holding it */
	uint16_t length;		/* fixed string length (characters) */
	/* Its map: ValueMap/Values, BitMap/BitValues, or NULL. */
	const struct etw_mof_qualifier *map_values, *map_keys;
	MAP_FLAGS map_flags;
};

/* "{guid}" or "guid" into g: 0 or -1. */
int mof_guid(const char *s, GUID *g);

/*
 * Property p of class c in TDH's terms: 0, or -1 with why filled (an
 * unknown type or qualifier value, no WmiDataId, an array of no size).
 */
int mof_field_of(const struct etw_mof_class *c,
		 const struct etw_mof_property *p, struct mof_field *f,
		 char *why, size_t why_size);

/*
 * A map's entries from its qualifiers: Values (with ValueMap, or indexes
 * from 0 without), BitValues with BitMap's bit positions as masks.
 * *n entries malloc'd into *out (strings point into the model); 0,
 * -EINVAL (a key that is no number), -ENOMEM.
 */
int mof_map_entries(const struct mof_field *f, struct tei_map_entry **out,
		    uint32_t *n);

/* The schemas the store has. */
struct mof_event {
	const struct etw_mof *mof;
	const struct etw_mof_class *provider;	/* derives from EventTrace */
	const struct etw_mof_class *event;	/* has the Guid */
	const struct etw_mof_class *type;	/* lists the event type */
	const char *type_name;			/* its EventTypeName, or NULL */
};

/*
 * The event type class of (class GUID, type, version) among every
 * installed schema: 0, or -ENOENT.  The classes stay valid while the
 * library is loaded.
 */
int mof_store_find(const GUID *guid, uint8_t type, uint8_t version,
		   struct mof_event *out);

/* The provider class whose Guid is guid (its Flags, Level), or NULL. */
const struct etw_mof_class *mof_store_provider(const GUID *guid);

/*
 * Each installed provider class (one deriving from EventTrace, with a
 * Guid) in search order, a GUID once; stops at fn's nonzero and returns it.
 */
int mof_store_providers_foreach(int (*fn)(void *ctx, const GUID *guid,
					  const char *name),
				void *ctx);

/* Within one model: the same lookups (NULL / -ENOENT if absent). */
int mof_find_event(const struct etw_mof *m, const GUID *guid, uint8_t type,
		   uint8_t version, struct mof_event *out);
const struct etw_mof_class *mof_find_provider(const struct etw_mof *m,
					      const GUID *guid);

/* The description of ev's records (key: class GUID, type, version). */
int mof_build(const struct mof_event *ev, const struct decode_key *key,
	      struct decode_desc **out);

/* The class c derives from, in m, or NULL (EventTrace, or none). */
const struct etw_mof_class *mof_parent(const struct etw_mof *m,
				       const struct etw_mof_class *c);

#endif /* LIBETW_DECODE_MOF_H */
