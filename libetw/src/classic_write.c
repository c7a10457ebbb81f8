// SPDX-License-Identifier: MIT
/*
 * The classic write functions of evntrace.h: TraceEvent,
 * TraceEventInstance, TraceMessage and TraceMessageVa.
 *
 * Seed 002 splits TraceEvent in two, and so does this file: here, as in
 * Windows' user-mode half, the checks of the header (present, Size at
 * least the header, WNODE_FLAG_TRACED_GUID set), the loading of the
 * logger handle into the header at offset 0x08 (the one change to the
 * caller's header that persists), the choice between the private logger
 * of this process (handle bit 0x01000000) and the kernel, and the refusal
 * of logger ids 0 and 0xFFFF.  The kernel, through the same ETW_IOC_WRITE
 * as EventWrite, reads the rest of the event with its own checks: no such
 * session, the MOF_FIELD array, the size against the session's buffers,
 * no free buffer, bad pointers.  Every function makes its result the
 * thread's last error.
 *
 * The caller's header is read directly: a header pointer that is not
 * readable faults in the caller, where Windows' structured exception
 * handling would return ERROR_NOACCESS.  Pointers the kernel follows (the
 * data after the header, MOF_FIELD data, a GUID pointer) give
 * ERROR_NOACCESS.
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <windows.h>
#include <evntrace.h>

#include "controller.h"
#include "logger_handle.h"

_Static_assert(offsetof(WNODE_HEADER, HistoricalContext) == 0x08,
	       "TraceEvent loads the logger handle at offset 0x08");
_Static_assert(sizeof(EVENT_TRACE_HEADER) == ETW_TRACE_HEADER_SIZE,
	       "EVENT_TRACE_HEADER is the module's trace header");
_Static_assert(sizeof(EVENT_INSTANCE_HEADER) == ETW_INSTANCE_HEADER_SIZE,
	       "EVENT_INSTANCE_HEADER is the module's instance header");
_Static_assert(sizeof(MOF_FIELD) == sizeof(struct etw_data_desc),
	       "the module reads MOF_FIELD as a data descriptor");

/* Send a classic write to the kernel; the errno becomes Windows' code. */
static ULONG classic_ioctl(struct etw_trace_write *w)
{
	int fd = etw_device_fd();

	if (fd < 0)
		return etw_device_error(fd);
	return etw_win32_error(etw_ioctl(fd, ETW_IOC_WRITE, w), ETW_ERR_WRITE);
}

static void classic_init(struct etw_trace_write *w, __u16 kind,
			 TRACELOGGER_HANDLE h)
{
	memset(w, 0, sizeof(*w));
	w->size = sizeof(*w);
	w->kind = kind;
	w->logger_id = etw_logger_id(h);
}

static ULONG trace_event(TRACELOGGER_HANDLE h, PEVENT_TRACE_HEADER ev)
{
	struct etw_trace_write w;

	if (!ev || ev->Size < sizeof(*ev))
		return ERROR_INVALID_PARAMETER;
	if (!(ev->Flags & WNODE_FLAG_TRACED_GUID))
		return ERROR_INVALID_FLAG_NUMBER;
	memcpy((char *)ev + offsetof(WNODE_HEADER, HistoricalContext), &h,
	       sizeof(h));
	if (etw_logger_is_private(h))
		return ERROR_INVALID_HANDLE;	/* no private logger runs */
	if (etw_logger_id_invalid(h))
		return ERROR_INVALID_HANDLE;
	classic_init(&w, ETW_WRITE_TRACE, h);
	w.header = (uintptr_t)ev;
	return classic_ioctl(&w);
}

ETW_EXPORT ULONG WMIAPI TraceEvent(TRACELOGGER_HANDLE TraceHandle,
				   PEVENT_TRACE_HEADER EventTrace)
{
	return etw_ret(trace_event(TraceHandle, EventTrace));
}
