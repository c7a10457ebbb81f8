/* SPDX-License-Identifier: GPL-2.0 */
/*
 * etw_kbench_bytes for LTTng's kernel tracer: the same bytes as one
 * sequence, as ftrace's dynamic array records them.
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM etw_kbench

#if !defined(LTTNG_TRACE_ETW_KBENCH_H) || defined(TRACE_HEADER_MULTI_READ)
#define LTTNG_TRACE_ETW_KBENCH_H

#include <lttng/tracepoint-event.h>

LTTNG_TRACEPOINT_EVENT(etw_kbench_bytes,
	TP_PROTO(const u8 *buf, unsigned int len),
	TP_ARGS(buf, len),
	TP_FIELDS(
		ctf_sequence(u8, data, buf, unsigned int, len)
	)
)

#endif /* LTTNG_TRACE_ETW_KBENCH_H */

#include <lttng/define_trace.h>
