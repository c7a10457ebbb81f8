/* SPDX-License-Identifier: MIT */
/*
 * What the controller and the private loggers share: session handles, the
 * caller's names (A or W), EVENT_TRACE_PROPERTIES marshalling and the
 * Win32 codes of the device and of log files (properties.c).
 */
#ifndef LIBETW_PROPERTIES_H
#define LIBETW_PROPERTIES_H

#include <stdbool.h>

#include <windows.h>
#include <evntrace.h>

#include "internal.h"

/* Which string type a caller uses: CHAR (UTF-8 on Linux) or WCHAR. */
enum etw_cs {
	ETW_CS_A = 1,	/* the size of a code unit */
	ETW_CS_W = 2,
};

/*
 * Windows limits session and file names to 1024 characters; the module
 * stores a session name in ETW_MAX_NAME bytes of UTF-8.
 */
#define ETW_NAME_MAX_UNITS	1024

/* A caller's name converted for the module. */
struct etw_name {
	char utf8[ETW_MAX_NAME];
	size_t units;		/* its length in the caller's code units */
	bool too_long;		/* valid, but longer than the module stores */
};

/*
 * CONTROLTRACE_ID: the logger id (1..64) in bits 0-15, where Windows'
 * TRACE_ENABLE_CONTEXT keeps it, and a tag of the session's start in bits
 * 16-47, so a handle kept after its session stopped does not reach a
 * later session that got the same logger id.  A handle with a zero tag
 * (the bare logger id) names whatever session has that id.
 */
#define ETW_ID_LOGGER_MASK	0xffffULL
#define ETW_ID_TAG_SHIFT	16
#define ETW_ID_TAG_MASK		0xffffffffULL

CONTROLTRACE_ID etw_trace_id(const struct etw_session_info *info);
/* Split a handle; ERROR_INVALID_PARAMETER if it cannot be one of ours. */
ULONG etw_trace_id_decode(CONTROLTRACE_ID id, __u32 *logger_id, __u32 *tag);
/* Does @info describe the session @tag was made for (or is @tag 0)? */
bool etw_trace_id_matches(const struct etw_session_info *info, __u32 tag);

/*
 * Read the caller's NUL-terminated name @s: ERROR_INVALID_PARAMETER if it
 * is empty, longer than ETW_NAME_MAX_UNITS or not valid UTF-16 / UTF-8.
 */
ULONG etw_name_get(const void *s, enum etw_cs cs, struct etw_name *out);

/* ASCII case-insensitive equality: Windows' session names ignore case. */
bool etw_name_equal(const char *a, const char *b);

/* The layout of a caller's EVENT_TRACE_PROPERTIES, once checked. */
struct etw_props {
	ULONG struct_size;	/* v1 or, with VERSIONED_PROPERTIES, v2 */
	ULONG name_off;		/* where the session name goes (0: nowhere) */
	ULONG name_end;		/* end of the room for it */
	ULONG file_off;		/* where the log file name goes (0: nowhere) */
	ULONG file_end;		/* end of the room for it */
	size_t file_units;	/* length of the log file name, 0: none */
};

/*
 * Check Wnode.BufferSize and the two name offsets (ERROR_BAD_LENGTH,
 * ERROR_INVALID_PARAMETER); with @file_name, also the log file name (@cs
 * units, NUL-terminated inside the allocation: ERROR_BAD_LENGTH).
 */
ULONG etw_props_check(const EVENT_TRACE_PROPERTIES *p, enum etw_cs cs,
		      bool file_name, struct etw_props *pl);

/*
 * The log file name at LogFileNameOffset (checked by etw_props_check) as
 * UTF-8 in @out; ERROR_BAD_PATHNAME if it does not fit or convert.  A
 * name has at most ETW_NAME_MAX_UNITS units: 4 * that + 1 bytes is room.
 */
ULONG etw_props_file_name(const EVENT_TRACE_PROPERTIES *p,
			  const struct etw_props *pl, enum etw_cs cs, char *out,
			  size_t size);

/* Windows' error for a log file that cannot be written (a -errno). */
ULONG etw_file_error(int err);

/* StartTrace's LogFileMode rules (ERROR_BAD_PATHNAME, _INVALID_PARAMETER). */
ULONG etw_props_check_mode(const EVENT_TRACE_PROPERTIES *p, bool has_file);

/*
 * Fill @p from the module's view of a session, as ControlTrace QUERY does,
 * and put the session name and the log file name @file (UTF-8; NULL or
 * empty: the session has none, an empty string is written) at their
 * offsets; ERROR_MORE_DATA if either does not fit in its room (nothing
 * of it is written; everything else is filled).
 */
ULONG etw_props_fill(EVENT_TRACE_PROPERTIES *p, const struct etw_props *pl,
		     const struct etw_session_info *info, const char *file,
		     enum etw_cs cs);

/* etw_logger_full_path() as a Win32 code: ERROR_BAD_PATHNAME if too long. */
ULONG etw_props_full_path(const char *path, char *out, size_t size);


/* Win32 code of a failed open of /dev/etw. */
ULONG etw_device_error(int err);

/* Return @code and make it the thread's last error, as Windows does. */
static inline ULONG etw_ret(ULONG code)
{
	SetLastError(code);
	return code;
}

#endif /* LIBETW_PROPERTIES_H */
