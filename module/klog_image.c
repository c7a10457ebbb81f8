// SPDX-License-Identifier: GPL-2.0
/*
 * Image events (EVENT_TRACE_FLAG_IMAGE_LOAD).
 */
#include "klog_internal.h"

static int klog_image_start(void)
{
	return 0;
}

static void klog_image_stop(void)
{
}

const struct klog_source klog_source_image = {
	.name = "image",
	.flags = ETW_KFLAG_IMAGE_LOAD,
	.start = klog_image_start,
	.stop = klog_image_stop,
};
