/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The lttng-ust tracepoints etw-bench-lttng compares EventWrite with: the
 * same user bytes as one byte sequence.  "payload" is enabled by the
 * bench's LTTng session, "off" never is.
 */
#undef LTTNG_UST_TRACEPOINT_PROVIDER
#define LTTNG_UST_TRACEPOINT_PROVIDER etw_bench

#undef LTTNG_UST_TRACEPOINT_INCLUDE
#define LTTNG_UST_TRACEPOINT_INCLUDE "lttng_tp.h"

#if !defined(ETW_BENCH_LTTNG_TP_H) || defined(LTTNG_UST_TRACEPOINT_HEADER_MULTI_READ)
#define ETW_BENCH_LTTNG_TP_H

#include <lttng/tracepoint.h>

LTTNG_UST_TRACEPOINT_EVENT_CLASS(etw_bench, bytes,
	LTTNG_UST_TP_ARGS(const unsigned char *, buf, unsigned int, len),
	LTTNG_UST_TP_FIELDS(
		lttng_ust_field_sequence(unsigned char, data, buf, unsigned int, len)
	)
)

LTTNG_UST_TRACEPOINT_EVENT_INSTANCE(etw_bench, bytes, etw_bench, payload,
	LTTNG_UST_TP_ARGS(const unsigned char *, buf, unsigned int, len))

LTTNG_UST_TRACEPOINT_EVENT_INSTANCE(etw_bench, bytes, etw_bench, off,
	LTTNG_UST_TP_ARGS(const unsigned char *, buf, unsigned int, len))

#endif /* ETW_BENCH_LTTNG_TP_H */

#include <lttng/tracepoint-event.h>
