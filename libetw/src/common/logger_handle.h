/* SPDX-License-Identifier: MIT */
/*
 * Logger handles (TRACELOGGER_HANDLE): what TraceEvent, TraceEventInstance
 * and TraceMessage write to.  A handle is Windows' TRACE_ENABLE_CONTEXT
 * (etw-api.md 0.2): LoggerId in bits 0-15, the enable Level in bits
 * 16-23, InternalFlag in bits 24-31 and the EnableFlags in bits 32-63.
 * InternalFlag 1 (bit 24, 0x01000000) marks a private logger, one that
 * lives in this process (seed 002); the LoggerId is then its index in the
 * process.  A CONTROLTRACE_ID from StartTrace works as a logger handle too:
 * its low 16 bits are the logger id and bit 24 is clear (controller.h).
 */
#ifndef LIBETW_LOGGER_HANDLE_H
#define LIBETW_LOGGER_HANDLE_H

#include <stdbool.h>

#include <windows.h>
#include <evntrace.h>

#define ETW_LOGGER_ID_MASK		0xffffULL
#define ETW_LOGGER_LEVEL_SHIFT		16
#define ETW_LOGGER_PRIVATE		0x01000000ULL
#define ETW_LOGGER_FLAGS_SHIFT		32
/* KERNEL_LOGGER_ID: the NT Kernel Logger, which no provider writes to. */
#define ETW_KERNEL_LOGGER_ID		0xffff

static inline USHORT etw_logger_id(TRACELOGGER_HANDLE h)
{
	return (USHORT)(h & ETW_LOGGER_ID_MASK);
}

static inline bool etw_logger_is_private(TRACELOGGER_HANDLE h)
{
	return h & ETW_LOGGER_PRIVATE;
}

/* Seed 002: logger ids 0 and 0xFFFF are never a session to write to. */
static inline bool etw_logger_id_invalid(TRACELOGGER_HANDLE h)
{
	return !etw_logger_id(h) || etw_logger_id(h) == ETW_KERNEL_LOGGER_ID;
}

/* The handle a provider's callback receives for an enable. */
static inline TRACELOGGER_HANDLE etw_logger_handle(USHORT logger_id, UCHAR level,
						   ULONG flags, bool private_logger)
{
	return (TRACELOGGER_HANDLE)logger_id |
	       (TRACELOGGER_HANDLE)level << ETW_LOGGER_LEVEL_SHIFT |
	       (private_logger ? ETW_LOGGER_PRIVATE : 0) |
	       (TRACELOGGER_HANDLE)flags << ETW_LOGGER_FLAGS_SHIFT;
}

#endif /* LIBETW_LOGGER_HANDLE_H */
