/* SPDX-License-Identifier: MIT */
/*
 * etw_tl.h: decoding TraceLogging events, for any consumer (ProcessTrace
 * callbacks, etw dump).  A TraceLogging event carries its schema in its
 * EVENT_SCHEMA_TL extended item and its provider's name in PROV_TRAITS;
 * these functions take those items' data and the user data, all of them
 * untrusted: every read is bounded, nesting is limited and the work per
 * event has a budget.
 *
 * Values are text, as Windows' decoders show them: integers in decimal
 * (hex for hex in-types and out-types, error codes and pointers),
 * booleans as true/false, GUIDs without braces, FILETIME and SYSTEMTIME
 * as ISO 8601, strings and character arrays as UTF-8, binary as hex,
 * socket addresses as "a.b.c.d:port" or "[addr]:port", a custom
 * serializer's value as hex, arrays as "[a, b]".  A struct's members are named "struct.member", the
 * elements of an array of structs "struct[i].member".
 */
#ifndef LIBETW_ETW_TL_H
#define LIBETW_ETW_TL_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Called for each field in order; return non-zero to stop. */
typedef int (*etw_tl_field_fn)(void *context, const char *name, const char *value);

/*
 * The event name of an EVENT_SCHEMA_TL item's data, or the provider name
 * of a PROV_TRAITS item's data, copied NUL-terminated into @buf.  Returns
 * its length, -EBADMSG for a malformed blob, -ENOBUFS if @size is too
 * small.
 */
int etw_tl_event_name(const void *schema, size_t schema_size, char *buf,
		      size_t size);
int etw_tl_provider_name(const void *traits, size_t traits_size, char *buf,
			 size_t size);

/*
 * Decode @data (the event's user data) with @schema (its EVENT_SCHEMA_TL
 * item's data), calling @fn for each field.  @pointer_size (4 or 8) is the
 * writer's, for the legacy POINTER in-type.  Returns 0 when the data
 * matched the schema exactly, -EBADMSG when it did not (the fields before
 * the mismatch were reported), -ECANCELED if @fn stopped it, -ENOMEM.
 */
int etw_tl_decode(const void *schema, size_t schema_size, const void *data,
		  size_t data_size, unsigned int pointer_size,
		  etw_tl_field_fn fn, void *context);

#ifdef __cplusplus
}
#endif

#endif /* LIBETW_ETW_TL_H */
