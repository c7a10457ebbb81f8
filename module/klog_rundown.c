// SPDX-License-Identifier: GPL-2.0
/*
 * The rundown: at a system logger's start, DCStart of every process,
 * thread and image; at its stop, DCEnd of each, so that a circular or
 * buffering session, which keeps only its newest buffers, still names
 * everything its samples point at.
 */
#include "klog_internal.h"

void klog_rundown(struct klog_session *k, bool end)
{
}
