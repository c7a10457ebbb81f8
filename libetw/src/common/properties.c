// SPDX-License-Identifier: MIT
/*
 * EVENT_TRACE_PROPERTIES: checking a caller's allocation (the structure,
 * then the session name and the log file name at byte offsets inside the
 * same allocation), the LogFileMode rules of StartTrace, and filling it
 * from the module's struct etw_session_info.  Names are CHAR strings in
 * the A variants and WCHAR strings, at offsets that need not be aligned,
 * in the W variants.
 */
#include <errno.h>
#include <string.h>
#include <unistd.h>

#include <etw_logger.h>

#include "properties.h"
#include "logger_handle.h"
#include "utf.h"

bool etw_name_equal(const char *a, const char *b)
{
	unsigned char x, y;

	do {
		x = (unsigned char)*a++;
		y = (unsigned char)*b++;
		if (x >= 'A' && x <= 'Z')
			x += 'a' - 'A';
		if (y >= 'A' && y <= 'Z')
			y += 'a' - 'A';
	} while (x && x == y);
	return x == y;
}

/* One WCHAR at any alignment. */
static char16_t wchar_at(const void *base, size_t byte_off)
{
	char16_t c;

	memcpy(&c, (const char *)base + byte_off, sizeof(c));
	return c;
}

ULONG etw_name_get(const void *s, enum etw_cs cs, struct etw_name *out)
{
	char16_t w[ETW_NAME_MAX_UNITS], c;
	size_t n;
	ssize_t r;

	memset(out, 0, sizeof(*out));
	if (cs == ETW_CS_A) {
		n = strnlen(s, ETW_NAME_MAX_UNITS + 1);
		if (!n || n > ETW_NAME_MAX_UNITS)
			return ERROR_INVALID_PARAMETER;
		/* CHAR strings are UTF-8 here; W callers must be able to read them. */
		if (etw_utf8_to_utf16(s, n, NULL, 0) < 0)
			return ERROR_INVALID_PARAMETER;
		out->units = n;
		if (n >= sizeof(out->utf8)) {
			out->too_long = true;
			return ERROR_SUCCESS;
		}
		memcpy(out->utf8, s, n);
		return ERROR_SUCCESS;
	}

	for (n = 0; (c = wchar_at(s, n * 2)); n++) {
		if (n == ETW_NAME_MAX_UNITS)
			return ERROR_INVALID_PARAMETER;
		w[n] = c;
	}
	if (!n)
		return ERROR_INVALID_PARAMETER;
	out->units = n;
	r = etw_utf16_to_utf8(w, n, out->utf8, sizeof(out->utf8));
	if (r == -ENOBUFS) {
		out->utf8[0] = 0;
		out->too_long = true;
		r = etw_utf16_to_utf8(w, n, NULL, 0);
	}
	return r < 0 ? ERROR_INVALID_PARAMETER : ERROR_SUCCESS;
}

/*
 * Length in code units of the string at @off, which must end (NUL
 * included) before @end; -1 if it does not.
 */
static long props_strlen(const EVENT_TRACE_PROPERTIES *p, ULONG off,
			 ULONG end, enum etw_cs cs)
{
	const char *b = (const char *)p;
	size_t n;

	for (n = 0; off + (n + 1) * cs <= end; n++)
		if (cs == ETW_CS_A ? !b[off + n] : !wchar_at(b, off + n * 2))
			return (long)n;
	return -1;
}

ULONG etw_props_check(const EVENT_TRACE_PROPERTIES *p, enum etw_cs cs,
		      bool file_name, struct etw_props *pl)
{
	ULONG size = p->Wnode.BufferSize, min = sizeof(*p);
	ULONG name = p->LoggerNameOffset, file = p->LogFileNameOffset;
	long len;

	memset(pl, 0, sizeof(*pl));
	/* BufferSize first: Windows since Vista says BAD_LENGTH for 0. */
	if (size < min)
		return ERROR_BAD_LENGTH;
	if (p->Wnode.Flags & WNODE_FLAG_VERSIONED_PROPERTIES) {
		const EVENT_TRACE_PROPERTIES_V2 *v2 = (const void *)p;

		if (size < sizeof(*v2))
			return ERROR_BAD_LENGTH;
		if ((v2->V2Control & 0xff) != 2)
			return ERROR_INVALID_PARAMETER;
		min = sizeof(*v2);
	}
	/* An offset into the structure itself, or past the allocation. */
	if (name && (name < min || name > size))
		return ERROR_INVALID_PARAMETER;
	if (file && (file < min || file > size || file == name))
		return ERROR_INVALID_PARAMETER;
	pl->struct_size = min;
	pl->name_off = name;
	/* Each name's room ends where the other's starts, or at the end. */
	pl->name_end = file > name ? file : size;
	pl->file_off = file;
	pl->file_end = name > file ? name : size;
	if (file && file_name) {
		len = props_strlen(p, file, size, cs);
		if (len < 0)
			return ERROR_BAD_LENGTH;
		if (len > ETW_NAME_MAX_UNITS)
			return ERROR_INVALID_PARAMETER;
		pl->file_units = (size_t)len;
	}
	return ERROR_SUCCESS;
}

ULONG etw_props_check_mode(const EVENT_TRACE_PROPERTIES *p, bool has_file)
{
	ULONG m = p->LogFileMode;
	bool private = m & (EVENT_TRACE_PRIVATE_LOGGER_MODE |
			    EVENT_TRACE_PRIVATE_IN_PROC);
	bool max_size = p->MaximumFileSize != 0;

	/* Events must go somewhere: a file, a real-time consumer, memory. */
	if (!has_file && !(m & (EVENT_TRACE_REAL_TIME_MODE |
				EVENT_TRACE_BUFFERING_MODE)))
		return ERROR_BAD_PATHNAME;
	if ((m & EVENT_TRACE_FILE_MODE_SEQUENTIAL) &&
	    (m & (EVENT_TRACE_FILE_MODE_CIRCULAR | EVENT_TRACE_FILE_MODE_NEWFILE)))
		return ERROR_INVALID_PARAMETER;
	if ((m & EVENT_TRACE_FILE_MODE_CIRCULAR) &&
	    ((m & (EVENT_TRACE_FILE_MODE_APPEND | EVENT_TRACE_FILE_MODE_NEWFILE)) ||
	     !max_size))
		return ERROR_INVALID_PARAMETER;
	if ((m & EVENT_TRACE_REAL_TIME_MODE) && private)
		return ERROR_INVALID_PARAMETER;
	if ((m & EVENT_TRACE_FILE_MODE_APPEND) &&
	    ((m & (EVENT_TRACE_REAL_TIME_MODE | EVENT_TRACE_FILE_MODE_NEWFILE)) ||
	     private))
		return ERROR_INVALID_PARAMETER;
	if ((m & EVENT_TRACE_FILE_MODE_PREALLOCATE) &&
	    (!max_size || (m & EVENT_TRACE_FILE_MODE_NEWFILE) || private ||
	     !has_file))
		return ERROR_INVALID_PARAMETER;
	if ((m & EVENT_TRACE_USE_KBYTES_FOR_SIZE) && (!max_size || !has_file))
		return ERROR_INVALID_PARAMETER;
	if ((m & EVENT_TRACE_FILE_MODE_NEWFILE) &&
	    (!max_size || private || !has_file))
		return ERROR_INVALID_PARAMETER;
	if ((m & EVENT_TRACE_RELOG_MODE) &&
	    (!(m & EVENT_TRACE_PRIVATE_LOGGER_MODE) ||
	     (m & (EVENT_TRACE_FILE_MODE_CIRCULAR | EVENT_TRACE_FILE_MODE_NEWFILE |
		   EVENT_TRACE_FILE_MODE_APPEND))))
		return ERROR_INVALID_PARAMETER;
	/* A memory ring only: no file, no real-time delivery. */
	if ((m & EVENT_TRACE_BUFFERING_MODE) &&
	    (has_file || (m & (EVENT_TRACE_REAL_TIME_MODE |
			       EVENT_TRACE_FILE_MODE_SEQUENTIAL |
			       EVENT_TRACE_FILE_MODE_CIRCULAR |
			       EVENT_TRACE_FILE_MODE_APPEND |
			       EVENT_TRACE_FILE_MODE_NEWFILE |
			       EVENT_TRACE_FILE_MODE_PREALLOCATE))))
		return ERROR_INVALID_PARAMETER;
	if ((m & EVENT_TRACE_USE_GLOBAL_SEQUENCE) &&
	    (m & EVENT_TRACE_USE_LOCAL_SEQUENCE))
		return ERROR_INVALID_PARAMETER;
	return ERROR_SUCCESS;
}

/* A name of at most @max - 1 bytes at @off, in the caller's string type. */
static ULONG put_name(EVENT_TRACE_PROPERTIES *p, ULONG off, ULONG end,
		      const char *utf8, size_t max, enum etw_cs cs)
{
	char16_t w[ETW_MAX_LOG_FILE_NAME];
	size_t len = strnlen(utf8, max - 1);
	ssize_t n;

	if (cs == ETW_CS_A) {
		if (len + 1 > end - off)
			return ERROR_MORE_DATA;
		memcpy((char *)p + off, utf8, len);
		((char *)p)[off + len] = 0;
		return ERROR_SUCCESS;
	}
	n = etw_utf8_to_utf16(utf8, len, w, ETW_MAX_LOG_FILE_NAME);
	if (n < 0)
		return ERROR_INVALID_DATA;	/* not UTF-8: set with a raw ioctl */
	if ((size_t)(n + 1) * sizeof(w[0]) > end - off)
		return ERROR_MORE_DATA;
	memcpy((char *)p + off, w, (size_t)(n + 1) * sizeof(w[0]));
	return ERROR_SUCCESS;
}

ULONG etw_props_fill(EVENT_TRACE_PROPERTIES *p, const struct etw_props *pl,
		     const struct etw_session_info *info, const char *file,
		     enum etw_cs cs)
{
	ULONG err = ERROR_SUCCESS, ferr = ERROR_SUCCESS;

	p->Wnode.HistoricalContext = etw_trace_id(info);
	memcpy(&p->Wnode.Guid, info->guid, sizeof(p->Wnode.Guid));
	p->Wnode.ClientContext = info->clock_type;
	p->Wnode.Flags |= WNODE_FLAG_TRACED_GUID;
	p->BufferSize = info->buffer_size_kb;
	p->MinimumBuffers = info->min_buffers;
	p->MaximumBuffers = info->max_buffers;
	/* The session's own values: no file; a system logger's EnableFlags. */
	p->MaximumFileSize = 0;
	p->EnableFlags = info->enable_flags;
	p->AgeLimit = 0;
	p->LogFileMode = info->log_file_mode;
	p->FlushTimer = info->flush_timer;
	p->NumberOfBuffers = info->number_of_buffers;
	p->FreeBuffers = info->free_buffers;
	p->EventsLost = info->events_lost;
	p->BuffersWritten = info->buffers_written;
	p->LogBuffersLost = info->log_buffers_lost;
	p->RealTimeBuffersLost = info->real_time_buffers_lost;
	/*
	 * There is no logger thread: the module hands buffers over itself
	 * (on each CPU, or from the FlushTimer's work item).
	 */
	p->LoggerThreadId = NULL;
	if (pl->name_off) {
		p->LoggerNameOffset = pl->name_off;
		err = put_name(p, pl->name_off, pl->name_end, info->name,
			       ETW_MAX_NAME, cs);
	}
	/* The file name as the session keeps it: absolute, as on Windows. */
	if (pl->file_off)
		ferr = put_name(p, pl->file_off, pl->file_end, file ? file : "",
				ETW_MAX_LOG_FILE_NAME, cs);
	return err ? err : ferr;
}

ETW_EXPORT int etw_logger_full_path(const char *path, char *out, size_t size)
{
	size_t n = 0, len;
	const char *seg;

	if (size > ETW_MAX_LOG_FILE_NAME)
		size = ETW_MAX_LOG_FILE_NAME;
	if (path[0] != '/') {
		if (!getcwd(out, size))
			return errno == ERANGE ? -ENAMETOOLONG : -errno;
		n = strlen(out);
		if (n == 1)
			n = 0;	/* "/": the root is the empty prefix here */
	}
	/* GetFullPathName's rules, by name: no link is followed. */
	for (seg = path; *seg; seg += len) {
		while (*seg == '/')
			seg++;
		len = strcspn(seg, "/");
		if (!len || (len == 1 && seg[0] == '.'))
			continue;
		if (len == 2 && seg[0] == '.' && seg[1] == '.') {
			while (n && out[n - 1] != '/')
				n--;
			if (n)
				n--;	/* the "/" before it */
			continue;
		}
		if (n + 1 + len + 1 > size)
			return -ENAMETOOLONG;
		out[n++] = '/';
		memcpy(out + n, seg, len);
		n += len;
	}
	if (!n)
		out[n++] = '/';
	out[n] = 0;
	return 0;
}

ULONG etw_props_full_path(const char *path, char *out, size_t size)
{
	int ret = etw_logger_full_path(path, out, size);

	if (ret == -ENAMETOOLONG)
		return ERROR_BAD_PATHNAME;
	return ret ? etw_file_error(ret) : ERROR_SUCCESS;
}

static __u32 session_tag(const struct etw_session_info *info)
{
	/* The module's clock never repeats a start; fold it to 32 bits. */
	__u64 x = (info->start_ticks * 0x9e3779b97f4a7c15ULL) ^ info->start_time;
	__u32 tag = (__u32)(x ^ (x >> 32));

	/* Handle bit 24 marks a private logger (logger_handle.h): never set it. */
	tag &= ~(__u32)(ETW_LOGGER_PRIVATE >> ETW_ID_TAG_SHIFT);
	return tag ? tag : 1;
}

CONTROLTRACE_ID etw_trace_id(const struct etw_session_info *info)
{
	return ((CONTROLTRACE_ID)session_tag(info) << ETW_ID_TAG_SHIFT) |
	       info->logger_id;
}

ULONG etw_trace_id_decode(CONTROLTRACE_ID id, __u32 *logger_id, __u32 *tag)
{
	*logger_id = (__u32)(id & ETW_ID_LOGGER_MASK);
	*tag = (__u32)((id >> ETW_ID_TAG_SHIFT) & ETW_ID_TAG_MASK);
	if (!*logger_id || *logger_id > ETW_MAX_SESSIONS ||
	    (id >> ETW_ID_TAG_SHIFT) > ETW_ID_TAG_MASK)
		return ERROR_INVALID_PARAMETER;
	return ERROR_SUCCESS;
}

bool etw_trace_id_matches(const struct etw_session_info *info, __u32 tag)
{
	return !tag || session_tag(info) == tag;
}

ULONG etw_device_error(int err)
{
	switch (err) {
	case -EACCES:
	case -EPERM:
		return ERROR_ACCESS_DENIED;
	case -ENOMEM:
		return ERROR_NOT_ENOUGH_MEMORY;
	case -EMFILE:
	case -ENFILE:
		return ERROR_NO_SYSTEM_RESOURCES;
	default:
		return ERROR_NOT_SUPPORTED;	/* no /dev/etw: no module */
	}
}

/* The log file name at LogFileNameOffset, as UTF-8 (checked by props_check). */
ULONG etw_props_file_name(const EVENT_TRACE_PROPERTIES *p,
			  const struct etw_props *pl, enum etw_cs cs, char *out,
			  size_t size)
{
	char16_t w[ETW_NAME_MAX_UNITS];
	const char *b = (const char *)p + p->LogFileNameOffset;

	if (cs == ETW_CS_A) {
		if (pl->file_units >= size)
			return ERROR_BAD_PATHNAME;
		memcpy(out, b, pl->file_units);
		out[pl->file_units] = 0;
		return ERROR_SUCCESS;
	}
	memcpy(w, b, pl->file_units * sizeof(w[0]));
	return etw_utf16_to_utf8(w, pl->file_units, out, size) < 0 ?
	       ERROR_BAD_PATHNAME : ERROR_SUCCESS;
}

ULONG etw_file_error(int err)
{
	switch (err) {
	case -ENOENT:
	case -ENOTDIR:
		return ERROR_PATH_NOT_FOUND;
	case -EACCES:
	case -EPERM:
	case -EISDIR:
	case -EROFS:
	case -ETXTBSY:
		return ERROR_ACCESS_DENIED;
	case -ENAMETOOLONG:
		return ERROR_BAD_PATHNAME;
	case -ENOSPC:
	case -EDQUOT:
		return ERROR_DISK_FULL;
	case -EINVAL:	/* APPEND to a file of another buffer size */
		return ERROR_INVALID_PARAMETER;
	case -EBUSY:
		return ERROR_BUSY;
	default:
		return ERROR_NOT_SUPPORTED;	/* no etw program to run */
	}
}
