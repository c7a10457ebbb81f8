/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The benchmark's tracepoint: @len bytes as one dynamic array, the
 * payload EtwWrite writes in the same loop.  ftrace records it from
 * events/etw_kbench/etw_kbench_bytes; LTTng through its probe module
 * (bench/kmod/lttng/).
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM etw_kbench

#if !defined(_ETW_KBENCH_TRACE_H) || defined(TRACE_HEADER_MULTI_READ)
#define _ETW_KBENCH_TRACE_H

#include <linux/string.h>
#include <linux/tracepoint.h>

TRACE_EVENT(etw_kbench_bytes,
	TP_PROTO(const u8 *buf, unsigned int len),
	TP_ARGS(buf, len),
	TP_STRUCT__entry(
		__dynamic_array(u8, data, len)
	),
	TP_fast_assign(
		memcpy(__get_dynamic_array(data), buf, len);
	),
	TP_printk("%u bytes", __get_dynamic_array_len(data))
);

#endif /* _ETW_KBENCH_TRACE_H */

/* Outside the guard: define_trace.h reads the file again. */
#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE etw_kbench_trace
#include <trace/define_trace.h>
