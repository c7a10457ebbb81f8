/* SPDX-License-Identifier: MIT */
/*
 * The one formatter: a description (event_info.h) and an event's user
 * data in, named values out, for etw dump, ProcessTrace consumers
 * (etw_decode.h) and the TDH functions alike.
 *
 * Three layers, each usable alone:
 *   decode_value_size()   how many bytes one value of an in-type takes
 *   decode_walk()         where every property (array element, struct
 *                         member) is in the data: lengths and counts from
 *                         earlier properties, structs, fixed arrays
 *   decode_format_value() one value as text, by TdhFormatProperty's rules
 *                         for its in-type, out-type and map
 * and decode_format_event(), which walks and formats a whole event into a
 * struct decode_out reused from event to event: no allocation per field,
 * only when an event is larger than any before it.
 *
 * Every length and offset comes from the data and is checked against it:
 * data that does not match its description is -EBADMSG (the TDH
 * functions' ERROR_EVT_INVALID_EVENT_DATA), never a read past its end.
 */
#ifndef LIBETW_DECODE_FORMAT_H
#define LIBETW_DECODE_FORMAT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "event_info.h"

/*
 * Bytes of one value of in_type at p (avail bytes there): 0 and *n, or
 * -EBADMSG if it does not fit or the in-type is unknown.  length is the
 * property's length (characters for strings, bytes for binary), 0 if it
 * has none.  Strings without a length end after their NUL, or at the end
 * of the data if they have none.
 */
int decode_value_size(uint16_t in_type, uint16_t out_type, uint32_t length,
		      unsigned int pointer_size, const uint8_t *p,
		      uint32_t avail, uint32_t *n);

/* One step of the walk. */
enum decode_item_kind {
	DECODE_ITEM_VALUE,		/* a value: p, n */
	DECODE_ITEM_STRUCT_BEGIN,	/* a struct (element), members follow */
	DECODE_ITEM_STRUCT_END,
};

struct decode_item {
	enum decode_item_kind kind;
	const struct decode_prop *prop;
	uint32_t index;			/* of prop in the description */
	uint32_t elem;			/* array element, 0 if not an array */
	uint32_t count;			/* elements of the property */
	bool array;			/* counted: shown with [elem] */
	uint32_t depth;			/* 0: top level */
	uint32_t offset;		/* of p in the user data */
	const uint8_t *p;
	uint32_t n;
};

/* Return non-zero to stop the walk (decode_walk returns it). */
typedef int (*decode_visit_fn)(void *ctx, const struct decode_item *it);

/*
 * Walk the properties of d over data.  vals has room for d->prop_count
 * values (the integers later properties take their count or length
 * from).  *end (may be NULL) is set to the bytes walked.  Returns 0, the
 * visitor's non-zero value, or -EBADMSG.
 */
int decode_walk(const struct decode_desc *d, const void *data, uint32_t size,
		unsigned int pointer_size, uint64_t *vals, decode_visit_fn fn,
		void *ctx, uint32_t *end);

/* A growable text buffer, NUL-terminated. */
struct decode_text {
	char *p;
	size_t len;
	size_t cap;
};

/* Room for n more bytes and a NUL: 0 or -ENOMEM. */
int decode_text_reserve(struct decode_text *t, size_t n);

/*
 * Append the text of one value (the n bytes at p, as decode_value_size()
 * measured them) as TdhFormatProperty formats it:
 *   integers in decimal; HEXINT*, POINTER, SIZET and hex out-types as
 *   0x and uppercase hex; BOOLEAN true/false; GUIDs {XXXXXXXX-...};
 *   FILETIME and SYSTEMTIME as ISO 8601 times; SIDs as S-1-...;
 *   UTF-16 and ANSI strings as UTF-8; IPV4/IPV6 addresses, PORT in host
 *   order; binary as 0x and hex; value maps by name (the number if no
 *   entry matches), bit maps as the names of the bits joined by " | "
 *   (with the number of any bits no entry names).
 * Returns 0, -EBADMSG (n wrong for the in-type) or -ENOMEM.  *number
 * (may be NULL) says the text is a plain decimal number.
 */
int decode_format_value(struct decode_text *t, uint16_t in_type,
			uint16_t out_type, const struct decode_map *map,
			unsigned int pointer_size, const uint8_t *p,
			uint32_t n, bool *number);

/* A decoded field of decode_format_event(). */
struct decode_field {
	const struct decode_prop *prop;
	uint32_t index;			/* of prop */
	uint32_t elem;
	bool array;
	bool number;			/* value is a plain decimal number */
	/* Name and value printable ASCII without '"' or '\\'. */
	bool plain;
	bool is_struct;			/* a struct: members follow, no value */
	int32_t parent;			/* the struct field it belongs to, -1 */
	uint32_t value_off;		/* in text */
	uint32_t value_len;
	const uint8_t *data;		/* the value's bytes in the event */
	uint32_t size;
};

struct decode_out {
	struct decode_text text;
	struct decode_field *fields;
	uint32_t count;
	uint32_t cap;
	uint64_t *vals;
	uint32_t vals_cap;
	/* Lenient (Wbem) events: bytes after the last property. */
	const uint8_t *rest;
	uint32_t rest_size;
	/* Internal: the struct being filled while walking. */
	int32_t open_struct;
	unsigned int pointer_size;
};

/* The value of field i (NUL-terminated, in o->text). */
static inline const char *decode_field_value(const struct decode_out *o,
					     uint32_t i)
{
	return o->text.p + o->fields[i].value_off;
}

/*
 * Decode a whole event into o (its previous content is dropped): 0,
 * -EBADMSG (o then holds the fields decoded before the mismatch) or
 * -ENOMEM.
 */
int decode_format_event(struct decode_out *o, const struct decode_desc *d,
			const void *data, uint32_t size,
			unsigned int pointer_size);

void decode_out_free(struct decode_out *o);

/* An unsigned little-endian value of @n bytes (the first 8 of a longer one). */
static inline uint64_t decode_le(const uint8_t *p, uint32_t n)
{
	uint64_t v = 0;

	switch (n) {
	case 1:
		return p[0];
	case 2:
		return (uint64_t)p[0] | (uint64_t)p[1] << 8;
	case 4:
		return (uint64_t)p[0] | (uint64_t)p[1] << 8 |
		       (uint64_t)p[2] << 16 | (uint64_t)p[3] << 24;
	case 8:
		return (uint64_t)p[0] | (uint64_t)p[1] << 8 |
		       (uint64_t)p[2] << 16 | (uint64_t)p[3] << 24 |
		       (uint64_t)p[4] << 32 | (uint64_t)p[5] << 40 |
		       (uint64_t)p[6] << 48 | (uint64_t)p[7] << 56;
	}
	if (n > 8)
		n = 8;
	while (n--)
		v = v << 8 | p[n];
	return v;
}

#endif /* LIBETW_DECODE_FORMAT_H */
