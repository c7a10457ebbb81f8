/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The NT Kernel Logger's EVENT_TRACE_PROPERTIES, as Microsoft's
 * "Configuring and Starting the NT Kernel Logger Session" sets them: the
 * logger's name after the properties, and a log file when one is given
 * (sequential, 64 MB at most; real time without one).
 */
#ifndef ETW_KERNEL_PROPS_H
#define ETW_KERNEL_PROPS_H

#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include <windows.h>
#include <evntrace.h>

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

#endif /* ETW_KERNEL_PROPS_H */
