/* SPDX-License-Identifier: MIT */
/*
 * etw_decode.h: an event's payload as named values, for any consumer (a
 * ProcessTrace callback, a reader of etw_etl.h, etw dump).  It is the
 * decoder the TDH functions of <tdh.h> use: the event's description is
 * Windows' TRACE_EVENT_INFO, from whichever decoding source knows it (the
 * kernel's MOF classes and KernelTraceControl's classic classes built in,
 * manifests, TraceLogging), and values are formatted as
 * TdhFormatProperty formats them: integers in decimal, hex types and
 * pointers as 0x and uppercase hex, SIDs as S-1-..., GUIDs in braces,
 * FILETIME and SYSTEMTIME as ISO 8601 UTC, strings as UTF-8, IP addresses
 * and ports, value maps by name and bit maps as names joined by " | ".
 *
 * A struct's members are named "Struct.Member" and the elements of an
 * array of structs "Struct[i].Member"; an array of simple values is one
 * field whose value is "[a, b, ...]".
 *
 * A decoder holds the buffers the results live in: one per thread; what
 * a call returns is valid until the next call on the same decoder.  The
 * descriptions are shared by every decoder of the process and built once
 * per (provider, event id or MOF opcode, version).
 */
#ifndef LIBETW_ETW_DECODE_H
#define LIBETW_ETW_DECODE_H

#include <stddef.h>
#include <stdint.h>

#include "etw_etl.h"

#ifdef __cplusplus
extern "C" {
#endif

struct etw_decoder;
struct _EVENT_RECORD;

/* 0, or -ENOMEM. */
int etw_decoder_new(struct etw_decoder **decoder);
void etw_decoder_free(struct etw_decoder *decoder);

struct etw_decoded_field {
	const char *name;		/* UTF-8 */
	const char *value;		/* UTF-8, NUL-terminated */
	uint32_t value_len;
	uint16_t in_type;		/* TDH_INTYPE_* */
	uint16_t out_type;		/* TDH_OUTTYPE_* */
	const void *data;		/* the value's bytes in the event */
	uint32_t size;
	uint8_t number;			/* the value is a plain decimal number */
	/* Name and value are printable ASCII without '"' or '\\'. */
	uint8_t plain;
};

struct etw_decoded_event {
	int decoding_source;		/* DecodingSource* of <tdh.h> */
	/* Names from the description; "" when it has none. */
	const char *provider_name;
	const char *task_name;		/* MOF: the class ("Process") */
	const char *opcode_name;	/* MOF: the event type ("DCStart") */
	const char *event_name;
	const char *level_name;
	const char *channel_name;
	const char *keywords_name;
	const char *message;
	const struct etw_decoded_field *fields;
	uint32_t field_count;
	/* MOF events: bytes after the last field the class knows. */
	const void *rest;
	uint32_t rest_size;
	/* The description: a TRACE_EVENT_INFO of event_info_size bytes. */
	const void *event_info;
	uint32_t event_info_size;
};

/*
 * Decode a record of an ETL file, or an event as ProcessTrace delivers
 * it.  Returns 0 and *out; -ENOENT if no decoding source knows the event
 * (print it raw), -EBADMSG if its data does not match its description
 * (*out then holds the fields before the mismatch), -ENOMEM.
 */
int etw_decode_etl_event(struct etw_decoder *decoder,
			 const struct etw_etl_event *ev,
			 struct etw_decoded_event *out);
int etw_decode_event_record(struct etw_decoder *decoder,
			    const struct _EVENT_RECORD *record,
			    struct etw_decoded_event *out);

/* The field of that name, or NULL. */
const struct etw_decoded_field *
etw_decoded_field(const struct etw_decoded_event *event, const char *name);

#ifdef __cplusplus
}
#endif

#endif /* LIBETW_ETW_DECODE_H */
