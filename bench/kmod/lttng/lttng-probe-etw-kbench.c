// SPDX-License-Identifier: GPL-2.0
/*
 * LTTng's probe for etw_kbench.ko's tracepoint, built inside
 * lttng-modules' tree as its own probes are (scripts/lttng-modules.sh
 * copies it to src/probes/ and the event to include/instrumentation/).
 * lttng-sessiond --kmod-probes=etw-kbench loads it.
 */
#include <linux/module.h>
#include <lttng/tracer.h>

/* The kernel's tracepoint, to check the event below has its prototype. */
#include "etw_kbench_trace.h"
/* Its file name is the module's; LTTng's event is under TRACE_SYSTEM's. */
#undef TRACE_INCLUDE_FILE
#undef TRACE_INCLUDE_PATH

#define LTTNG_PACKAGE_BUILD
#define CREATE_TRACE_POINTS
#define TRACE_INCLUDE_PATH instrumentation/events

#include <instrumentation/events/etw_kbench.h>

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("LTTng probe for etw_kbench.ko's tracepoint (make bench)");
