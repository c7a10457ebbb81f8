/* SPDX-License-Identifier: MIT */
/*
 * etw_tld.h: TraceLogging events defined at run time, for language
 * bindings and logging frameworks that cannot use the macros of
 * TraceLoggingProvider.h (the role TraceLoggingDynamic.h plays on
 * Windows).  The events are the same on the wire: provider traits and
 * event metadata in data descriptors 0 and 1, channel 11, the payload
 * after; etw dump and Windows' decoders read them alike.
 *
 *	struct etw_tld_provider *p;
 *	struct etw_tld_event *ev = etw_tld_event_new();
 *
 *	etw_tld_provider_open("MyCompany.MyComponent", NULL, &p);
 *	if (etw_tld_enabled(p, 4, 0)) {
 *		etw_tld_event_begin(ev, "Request", 4, 0, 0);
 *		etw_tld_int64(ev, "Status", 200);
 *		etw_tld_string(ev, "Path", "/index.html");
 *		etw_tld_event_write(p, ev, NULL, NULL);
 *	}
 *
 * Fields: etw_tld_field() adds any field's metadata (an in-type, an
 * out-type, tags; a fixed or variable count with ETW_TLD_FIXED_ARRAY /
 * ETW_TLD_VAR_ARRAY) and etw_tld_data() its payload bytes, for the types
 * the helpers do not cover.  Functions returning ULONG return Win32 error
 * codes.  A provider is thread safe; an event builder belongs to one
 * thread at a time.
 */
#ifndef LIBETW_ETW_TLD_H
#define LIBETW_ETW_TLD_H

#include <stddef.h>
#include <stdint.h>

#include <windows.h>
#include <evntprov.h>

#ifdef __cplusplus
extern "C" {
#endif

struct etw_tld_provider;
struct etw_tld_event;

/* In-type flags of etw_tld_field(): arrays. */
#define ETW_TLD_FIXED_ARRAY	0x20	/* count in the metadata */
#define ETW_TLD_VAR_ARRAY	0x40	/* UINT16 count before the values */

/*
 * EventRegister the provider named @name (UTF-8) with the GUID derived from
 * the name (etw_guid_from_name), set its traits (the name, and @group as
 * its provider group if not NULL).  ERROR_INVALID_PARAMETER for a NULL or
 * too long name; EventRegister's errors.
 */
ULONG etw_tld_provider_open(const char *name, const GUID *group,
			    struct etw_tld_provider **provider);
void etw_tld_provider_close(struct etw_tld_provider *provider);
BOOLEAN etw_tld_enabled(const struct etw_tld_provider *provider, UCHAR level,
			ULONGLONG keyword);
REGHANDLE etw_tld_provider_handle(const struct etw_tld_provider *provider);

struct etw_tld_event *etw_tld_event_new(void);
void etw_tld_event_free(struct etw_tld_event *event);

/*
 * Start an event (forgetting the previous one): its name, level, keyword
 * and tags (28 bits).  Opcode 0, channel 11; etw_tld_event_set() changes
 * them.
 */
void etw_tld_event_begin(struct etw_tld_event *event, const char *name,
			 UCHAR level, ULONGLONG keyword, UINT32 tags);
void etw_tld_event_set(struct etw_tld_event *event, UCHAR opcode, UCHAR channel);

/*
 * A field's metadata: @in_type is a TlgIn value, with ETW_TLD_FIXED_ARRAY
 * (then @count is the element count) or ETW_TLD_VAR_ARRAY; @out_type a
 * TlgOut value or 0; @tags 28 bits or 0.  A struct is in-type 24 with the
 * member count as out-type: etw_tld_struct().
 */
void etw_tld_field(struct etw_tld_event *event, const char *name,
		   UINT8 in_type, UINT8 out_type, UINT32 tags, UINT16 count);
void etw_tld_struct(struct etw_tld_event *event, const char *name,
		    UINT8 member_count);
/* Payload bytes, appended as they are. */
void etw_tld_data(struct etw_tld_event *event, const void *data, size_t size);

/* A field and its value in one call. */
void etw_tld_int64(struct etw_tld_event *event, const char *name, int64_t value);
void etw_tld_uint64(struct etw_tld_event *event, const char *name, uint64_t value);
void etw_tld_double(struct etw_tld_event *event, const char *name, double value);
void etw_tld_bool(struct etw_tld_event *event, const char *name, int value);
void etw_tld_string(struct etw_tld_event *event, const char *name, const char *utf8);
void etw_tld_binary(struct etw_tld_event *event, const char *name,
		    const void *data, UINT16 size);
void etw_tld_guid(struct etw_tld_event *event, const char *name, const GUID *value);

/*
 * EventWriteTransfer the event.  ERROR_NOT_ENOUGH_MEMORY if building it
 * failed, ERROR_ARITHMETIC_OVERFLOW if its metadata passed 64 KiB, else
 * EventWriteTransfer's result (ERROR_ARITHMETIC_OVERFLOW, ERROR_MORE_DATA
 * for an event too large).
 */
ULONG etw_tld_event_write(const struct etw_tld_provider *provider,
			  const struct etw_tld_event *event, LPCGUID activity,
			  LPCGUID related);

#ifdef __cplusplus
}
#endif

#endif /* LIBETW_ETW_TLD_H */
