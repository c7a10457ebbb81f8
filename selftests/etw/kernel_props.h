/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The NT Kernel Logger's EVENT_TRACE_PROPERTIES, as Microsoft's
 * "Configuring and Starting the NT Kernel Logger Session" sets them: the
 * logger's name after the properties, and a log file when one is given
 * (sequential, 64 MB at most; real time without one); and a reader of
 * the file it writes.
 */
#ifndef ETW_KERNEL_PROPS_H
#define ETW_KERNEL_PROPS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include <windows.h>
#include <evntrace.h>
#include <evntcons.h>

struct kprops {
	EVENT_TRACE_PROPERTIES p;
	char logger_name[sizeof(KERNEL_LOGGER_NAMEA)];
	char log_file[256];
};

static inline EVENT_TRACE_PROPERTIES *kernel_props(struct kprops *b,
						   ULONG flags,
						   const char *file)
{
	memset(b, 0, sizeof(*b));
	b->p.Wnode.BufferSize = sizeof(*b);
	b->p.Wnode.Flags = WNODE_FLAG_TRACED_GUID;
	b->p.Wnode.ClientContext = 1;	/* QPC */
	b->p.Wnode.Guid = SystemTraceControlGuid;
	b->p.EnableFlags = flags;
	b->p.LogFileMode = file ? EVENT_TRACE_FILE_MODE_SEQUENTIAL :
				  EVENT_TRACE_REAL_TIME_MODE;
	b->p.MaximumFileSize = 64;	/* MB */
	b->p.LoggerNameOffset = offsetof(struct kprops, logger_name);
	if (file) {
		b->p.LogFileNameOffset = offsetof(struct kprops, log_file);
		snprintf(b->log_file, sizeof(b->log_file), "%s", file);
	}
	return &b->p;
}

/*
 * Every record of the log file @file through @cb with @ctx: ProcessTrace's
 * status, ERROR_INVALID_HANDLE if it does not open; in *@is_kernel (if
 * wanted) whether the reader took it for a kernel trace.
 */
static inline ULONG kernel_trace_read(const char *file, PEVENT_RECORD_CALLBACK cb,
				      void *ctx, bool *is_kernel)
{
	EVENT_TRACE_LOGFILEA lf;
	PROCESSTRACE_HANDLE h;
	ULONG err;

	memset(&lf, 0, sizeof(lf));
	lf.LogFileName = (LPSTR)file;
	lf.ProcessTraceMode = PROCESS_TRACE_MODE_EVENT_RECORD;
	lf.EventRecordCallback = cb;
	lf.Context = ctx;
	h = OpenTraceA(&lf);
	if (h == INVALID_PROCESSTRACE_HANDLE)
		return ERROR_INVALID_HANDLE;
	err = ProcessTrace(&h, 1, NULL, NULL);
	CloseTrace(h);
	if (is_kernel)
		*is_kernel = lf.IsKernelTrace == 1;
	return err;
}

#endif /* ETW_KERNEL_PROPS_H */
