// SPDX-License-Identifier: GPL-2.0
/*
 * Process and thread events (EVENT_TRACE_FLAG_PROCESS, _THREAD).
 */
#include "klog_internal.h"

static int klog_process_start(void)
{
	return 0;
}

static void klog_process_stop(void)
{
}

const struct klog_source klog_source_process = {
	.name = "process",
	.flags = ETW_KFLAG_PROCESS | ETW_KFLAG_THREAD,
	.start = klog_process_start,
	.stop = klog_process_stop,
};
