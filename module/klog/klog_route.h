/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The system loggers writers reach (klog/session.c publishes, klog/write.c
 * reads with interrupts disabled).
 */
#ifndef _ETW_KLOG_ROUTE_H
#define _ETW_KLOG_ROUTE_H

#include <linux/rcupdate.h>

#include "klog_internal.h"

struct klog_route {
	struct rcu_head rcu;
	unsigned int count;
	struct klog_session *k[ETW_MAX_SYSTEM_LOGGERS];
};

extern struct klog_route __rcu *klog_route;

/* The OR of the sessions' stack hooks, for klog_stack_wanted(). */
extern unsigned long klog_stack_union[BITS_TO_LONGS(KLOG_STACK_HOOKS)];

#endif /* _ETW_KLOG_ROUTE_H */
