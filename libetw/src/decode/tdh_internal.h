/* SPDX-License-Identifier: MIT */
/*
 * What the TDH functions (tdh_*.c) share: UTF-16 names, a record's description, and the
 * two-call buffer rule (ERROR_INSUFFICIENT_BUFFER with the size needed).
 */
#ifndef LIBETW_DECODE_TDH_INTERNAL_H
#define LIBETW_DECODE_TDH_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>

#include <tdh.h>

#include "event_info.h"

/* A negative errno of the decoder as the TDH functions' Win32 code. */
ULONG tdh_error(int err);

/*
 * A NUL-terminated UTF-16 string as UTF-8, malloc'd; NULL if it is not
 * valid UTF-16 (*err = ERROR_INVALID_PARAMETER) or memory ran out
 * (ERROR_NOT_ENOUGH_MEMORY).
 */
char *tdh_utf8(const WCHAR *s, ULONG *err);

/* The bytes of UTF-8 @s as UTF-16 with its NUL; 0 if it is not UTF-8. */
size_t tdh_wsize(const char *s);
/* Write it at @base + *@off (room checked by the caller); its offset. */
ULONG tdh_wput(void *base, size_t *off, const char *s);

/*
 * The description of @ev and the pointer size to read it with (the
 * header's, or a TDH_CONTEXT_POINTERSIZE context's); a Win32 code.
 */
ULONG tdh_describe(const EVENT_RECORD *ev, ULONG nctx, const TDH_CONTEXT *ctx,
		   const struct decode_desc **d, unsigned int *pointer_size);

/* Copy @size bytes to @buf if *@buf_size allows; sets *@buf_size. */
ULONG tdh_copy_out(void *buf, ULONG *buf_size, const void *src, size_t size);

/* ---- WPP (tdh_wpp.c, tdh_handle.c) ---- */

struct etw_tmf_store;
struct etw_wpp_formatter;

/* What a decoding handle's parameters make for WPP decoding. */
struct tdh_wpp {
	struct etw_tmf_store *store;
	struct etw_wpp_formatter *fmt;
	bool gmt;			/* TDH_CONTEXT_WPP_GMT */
	unsigned int pointer_size;	/* TDH_CONTEXT_POINTERSIZE, or 0 */
};

/*
 * The handle's WPP state, made from its parameters when they changed,
 * with the handle locked; NULL and *err (ERROR_INVALID_PARAMETER for a
 * handle that is none, ERROR_NOT_ENOUGH_MEMORY).
 */
struct tdh_wpp *tdh_handle_wpp_lock(TDH_HANDLE h, ULONG *err);
void tdh_handle_wpp_unlock(TDH_HANDLE h);

/* A record ProcessTrace made of a MESSAGE_TRACE_HEADER. */
bool tdh_is_wpp(const EVENT_RECORD *ev);

/*
 * Add to @s the TMF file @file and the search path @path (either may be
 * NULL), then TRACE_FORMAT_SEARCH_PATH.  0 or -ENOMEM.
 */
int tdh_wpp_fill_store(struct etw_tmf_store *s, const char *file,
		       const char *path);

/* TdhGetEventInformation of a WPP record (DecodingSourceWPP). */
ULONG tdh_wpp_event_info(const EVENT_RECORD *ev, ULONG nctx,
			 const TDH_CONTEXT *ctx, PTRACE_EVENT_INFO buf,
			 ULONG *size);

#endif /* LIBETW_DECODE_TDH_INTERNAL_H */
