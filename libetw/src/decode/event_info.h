/* SPDX-License-Identifier: MIT */
/*
 * The one description of an event, and where it comes from.
 *
 * Every decoding source (the kernel's MOF classes = DecodingSourceWbem,
 * manifests = DecodingSourceXMLFile, TraceLogging = DecodingSourceTlg)
 * describes an event the same way: it fills a struct tei_builder with the
 * event's names, properties and maps (UTF-8 in, Windows' layout out) and
 * turns it into a struct decode_desc, which holds
 *   - the TRACE_EVENT_INFO blob exactly as TdhGetEventInformation returns
 *     it (UTF-16 strings at offsets after the property array), and one
 *     EVENT_MAP_INFO blob per map, as TdhGetEventMapInformation does;
 *   - the same facts ready for the formatter (format.h): UTF-8 names,
 *     properties with their maps resolved.
 * A description is built once per (provider or kernel group GUID, id or
 * opcode, version, source) and kept in the cache; it is immutable and
 * never freed while the library is loaded (an unloaded manifest's
 * descriptions are retired, not freed), so a pointer to one stays valid.
 *
 * decode_lookup() finds the description of a record (struct
 * decode_record, filled from an etl record or an EVENT_RECORD): the
 * source is chosen as TdhGetEventInformation does (classic and kernel
 * records: Wbem; WPP: none, see tdh_wpp.c; an EVENT_SCHEMA_TL item: Tlg; else
 * XMLFile), the cache asked, and on a miss the source builds it.
 */
#ifndef LIBETW_DECODE_EVENT_INFO_H
#define LIBETW_DECODE_EVENT_INFO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <windows.h>
#include <evntcons.h>
#include <tdh.h>

#include <etw_etl.h>

/* ---- a record, whatever header it came with ---- */

struct decode_record {
	GUID provider;		/* provider, classic class or kernel group GUID */
	uint16_t id;		/* EVENT_DESCRIPTOR.Id (0 for MOF events) */
	uint8_t version;
	uint8_t opcode;		/* MOF: the event type */
	uint8_t level;
	uint8_t channel;
	uint16_t task;
	uint64_t keyword;
	uint16_t flags;		/* EVENT_HEADER_FLAG_* */
	uint8_t pointer_size;	/* 4 or 8 */
	const void *data;	/* user data */
	uint32_t size;
	const void *tl_schema;	/* EVENT_SCHEMA_TL item, or NULL */
	uint16_t tl_schema_size;
	const void *traits;	/* PROV_TRAITS item, or NULL */
	uint16_t traits_size;
};

void decode_record_from_etl(const struct etw_etl_event *ev,
			    struct decode_record *r);
void decode_record_from_event(const EVENT_RECORD *er, struct decode_record *r);

/* The pointer size of a record as TdhFormatProperty takes it. */
static inline unsigned int decode_pointer_size(uint16_t event_header_flags)
{
	return (event_header_flags & EVENT_HEADER_FLAG_32_BIT_HEADER) ? 4 : 8;
}

/* ---- building a description ---- */

/* The strings of a TRACE_EVENT_INFO, by the offset field that holds them. */
enum tei_string {
	TEI_PROVIDER_NAME_S,
	TEI_LEVEL_NAME_S,
	TEI_CHANNEL_NAME_S,
	TEI_KEYWORDS_NAME_S,
	TEI_TASK_NAME_S,
	TEI_OPCODE_NAME_S,
	TEI_EVENT_MESSAGE_S,
	TEI_PROVIDER_MESSAGE_S,
	TEI_EVENT_NAME_S,		/* ActivityIDName for WPP */
	TEI_EVENT_ATTRIBUTES_S,		/* RelatedActivityIDName for WPP */
	TEI_STRING_COUNT
};

/*
 * One property as a source gives it.  A simple property has in_type (and
 * out_type, map_name); a struct (flags & PropertyStruct) has
 * struct_start and struct_members (indexes into the property array).
 * count and length are numbers, or with PropertyParamCount /
 * PropertyParamLength the index of an earlier property holding them;
 * PropertyParamFixedCount / PropertyParamFixedLength as Windows sets them.
 */
struct tei_prop {
	const char *name;		/* UTF-8 */
	uint16_t flags;			/* PROPERTY_FLAGS */
	uint16_t in_type;		/* TDH_INTYPE_* */
	uint16_t out_type;		/* TDH_OUTTYPE_* */
	uint16_t count;			/* 1 for a single value */
	uint16_t length;		/* 0: from the in_type */
	uint16_t struct_start;
	uint16_t struct_members;
	const char *map_name;		/* UTF-8, or NULL */
	uint32_t tags;			/* 28 bits; PropertyHasTags */
};

/* One entry of a map: value and bit maps use value, pattern maps input. */
struct tei_map_entry {
	uint32_t value;
	const char *input;		/* UTF-8 or NULL */
	const char *output;		/* UTF-8: the name shown */
};

struct tei_builder;

/* NULL if out of memory. */
struct tei_builder *tei_builder_new(void);
void tei_builder_free(struct tei_builder *b);

/* The fixed part.  event_guid may be NULL (GUID_NULL). */
void tei_set_event(struct tei_builder *b, const GUID *provider,
		   const GUID *event_guid, const EVENT_DESCRIPTOR *desc,
		   DECODING_SOURCE source, ULONG template_flags);
/* A string of the fixed part (copied); NULL clears it. */
void tei_set_string(struct tei_builder *b, enum tei_string which,
		    const char *utf8);
/*
 * The keyword names (copied; n == 0 clears them).  TRACE_EVENT_INFO gets
 * Windows' list at KeywordsNameOffset: each name NUL-terminated, then an
 * empty string; the UTF-8 form (decode_desc.strings) joins them by ", ".
 */
void tei_set_keyword_names(struct tei_builder *b, const char *const *names,
			   size_t n);
/* The event's tags (28 bits, TRACE_EVENT_INFO.Tags). */
void tei_set_tags(struct tei_builder *b, uint32_t tags);
/* Properties before it are top level; default: all of them. */
void tei_set_top_level_count(struct tei_builder *b, uint32_t n);
/* Append a property (copied); returns its index or -errno. */
int tei_add_property(struct tei_builder *b, const struct tei_prop *p);
/* A map properties name by map_name (copied); flags are MAP_FLAGS. */
int tei_add_map(struct tei_builder *b, const char *name, MAP_FLAGS flags,
		const struct tei_map_entry *e, uint32_t n);

/*
 * Wbem descriptions are lenient as Windows' MOF decoding is: the data may
 * end at any property boundary (later properties are absent: StackWalk's
 * Stack1..Stack192, fields added by later versions) and may run on past
 * the last property (kept as raw bytes).
 */
#define DECODE_DESC_LENIENT	0x1

/* A map, ready to format with. */
struct decode_map_entry {
	uint32_t value;
	uint16_t name_len;
	const char *name;		/* UTF-8 */
	const char *input;		/* pattern maps: UTF-8, else NULL */
};

struct decode_map {
	const char *name;		/* UTF-8 */
	uint32_t flags;			/* MAP_FLAGS */
	uint32_t count;
	const struct decode_map_entry *entries;	/* value maps: by value */
	bool sorted;			/* entries ascending by value */
	const EVENT_MAP_INFO *info;	/* Windows' form */
	uint32_t info_size;
};

/* A property, ready for the walk and the formatter. */
struct decode_prop {
	const char *name;		/* UTF-8 */
	uint16_t name_len;
	uint16_t flags;			/* PROPERTY_FLAGS */
	uint16_t in_type;
	uint16_t out_type;
	uint16_t count;			/* or the index holding it */
	uint16_t length;		/* or the index holding it */
	uint16_t struct_start;
	uint16_t struct_members;
	const struct decode_map *map;	/* or NULL */
	bool name_plain;		/* printable ASCII, no '"' or '\\' */
	/* Name and every value's text printable ASCII, no '"' or '\\'. */
	bool plain;
	/* A value's size when its type fixes it, DECODE_PTR_SIZE, or 0. */
	uint8_t size;
};

#define DECODE_PTR_SIZE	0xFF

struct decode_key {
	GUID guid;			/* provider or kernel group / class */
	uint32_t extra;			/* source's own (Tlg: schema hash) */
	uint16_t id;			/* event id, or the MOF opcode */
	uint8_t version;
	uint8_t source;			/* DECODING_SOURCE */
};

struct decode_desc {
	struct decode_key key;
	uint32_t flags;			/* DECODE_DESC_* */
	const TRACE_EVENT_INFO *tei;	/* Windows' form */
	uint32_t tei_size;
	/* UTF-8 forms of the fixed part's strings ("" when absent). */
	const char *strings[TEI_STRING_COUNT];
	const struct decode_prop *props;
	uint32_t prop_count;
	uint32_t top_count;		/* props[0 .. top_count) are top level */
	const struct decode_map *maps;
	uint32_t map_count;
	/* What the source keeps with it (malloc'd, freed with it), or NULL. */
	const void *source_data;
	size_t source_size;
};

/*
 * The description the builder holds, as a new allocation (one block);
 * -EINVAL if a property refers to a later property, to a missing map or
 * to a struct outside the array, -ENOMEM.
 */
int tei_builder_finish(struct tei_builder *b, const struct decode_key *key,
		       uint32_t flags, struct decode_desc **out);

/* Only for descriptions no cache holds. */
void decode_desc_free(struct decode_desc *d);

/* A map of a description by its UTF-8 name, or NULL. */
const struct decode_map *decode_desc_map(const struct decode_desc *d,
					 const char *name);

/* ---- the cache ---- */

/*
 * The description of key, or NULL if none was stored, or DECODE_NONE if
 * the sources were asked and know none.  Thread safe.
 */
#define DECODE_NONE	((const struct decode_desc *)1)
const struct decode_desc *decode_cache_get(const struct decode_key *key);
/*
 * Store d (the cache owns it from now on) and return what the cache
 * holds for its key: d, or the description another thread stored first
 * (d is then freed).  d NULL stores DECODE_NONE for key.
 */
const struct decode_desc *decode_cache_put(const struct decode_key *key,
					   struct decode_desc *d);
/*
 * Retire every description of provider, and its "none" entries: call it
 * when a manifest for it is loaded or unloaded.  Every thread's memo of
 * decode_lookup() is emptied too.
 */
void decode_cache_forget(const GUID *provider);
void decode_lookup_forget(void);

/* ---- the sources ---- */

/*
 * A source builds the description of a record; -ENOENT when it knows
 * none, -ENOMEM (any other error is taken as none, and remembered).  key
 * is the one decode_lookup() chose (the source may set key->extra first,
 * in its key function).
 */
struct decode_source {
	DECODING_SOURCE kind;
	/* Fill the key of r (guid, id, version, extra); false: not mine. */
	bool (*key)(const struct decode_record *r, struct decode_key *key);
	int (*build)(const struct decode_record *r,
		     const struct decode_key *key, struct decode_desc **out);
};

/* The source of each DecodingSource* value, or NULL (sources.c). */
const struct decode_source *decode_source_of(DECODING_SOURCE kind);

extern const struct decode_source decode_source_wbem;
extern const struct decode_source decode_source_xml;
extern const struct decode_source decode_source_tlg;


/*
 * The description of a record: 0 and *out, -ENOENT if no source knows
 * the event (WPP records included), -ENOMEM.  The cache makes every call
 * after the first for the same key one hash lookup.
 */
int decode_lookup(const struct decode_record *r,
		  const struct decode_desc **out);

/* FNV-1a, for keys and the Tlg source's schema hash. */
static inline uint32_t decode_hash(const void *p, size_t n, uint32_t h)
{
	const uint8_t *b = p;

	for (size_t i = 0; i < n; i++)
		h = (h ^ b[i]) * 16777619u;
	return h;
}

#define DECODE_HASH_INIT	2166136261u

#endif /* LIBETW_DECODE_EVENT_INFO_H */
