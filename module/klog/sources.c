// SPDX-License-Identifier: GPL-2.0
/*
 * The sources of kernel records, each serving some EnableFlags bits
 * (klog.h, struct klog_source).  Started in this order.
 */
#include "klog_internal.h"

const struct klog_source *const klog_sources[] = {
	&klog_source_process,
	&klog_source_image,
	&klog_source_profile,
	&klog_source_cswitch,
	&klog_source_dispatcher,
	&klog_source_disk,
	&klog_source_fileio,
};

const unsigned int klog_nr_sources = ARRAY_SIZE(klog_sources);
