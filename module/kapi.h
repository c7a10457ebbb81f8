/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kernel-mode API's objects (include/etw/kernel.h is its public side):
 * a kernel module's registration, its enable callbacks' queue, the lanes
 * its events take into a session.  Documentation/kernel-providers.rst.
 */
#ifndef _ETW_KAPI_H
#define _ETW_KAPI_H

#include <linux/list.h>
#include <linux/spinlock.h>
#include <linux/workqueue.h>
#include <etw/kernel.h>

#include "internal.h"

/*
 * struct etw_kreg - one EtwRegister.  The REGHANDLE is its address.
 * @reg: the registry's registration (file NULL: a kernel one)
 * @callback: the module's PETWENABLECALLBACK, or NULL
 * @context: its CallbackContext
 * @lock: protects @pending
 * @pending: struct etw_kitem notifications not yet called back, in order
 * @work: calls them back in process context, no etw lock held
 * @dropped: notifications lost for want of memory
 * @magic: ETW_KREG_MAGIC while registered, so a stale handle is refused
 *	by the calls that may sleep (the writers trust the handle, as
 *	Windows' do)
 */
struct etw_kreg {
	struct etw_reg reg;
	PETWENABLECALLBACK callback;
	void *context;
	spinlock_t lock;		/* @pending, @dropped */
	struct list_head pending;
	struct work_struct work;
	unsigned long dropped;
	u32 magic;
};

#define ETW_KREG_MAGIC	0x4b657457	/* "WteK" */

static inline struct etw_kreg *etw_kreg_of(struct etw_reg *r)
{
	return container_of(r, struct etw_kreg, reg);
}

/* kapi_notify.c: enable callbacks of kernel registrations */
void etw_kreg_notify(struct etw_reg *r, const struct etw_notification *n,
		     const struct etw_cb_filter *filter, struct etw_waiter *w);
void etw_kreg_dropped(struct etw_reg *r);
void etw_kreg_notify_init(struct etw_kreg *k);
void etw_kreg_notify_stop(struct etw_kreg *k);

/* kapi_lanes.c: the lanes kernel providers write a session through */
int etw_kp_lanes_get(struct etw_session *s);
void etw_kp_lanes_flush(struct etw_session *s, bool final);
void etw_kp_lanes_stopped(struct etw_session *s);
void etw_kp_lanes_destroy(struct etw_session *s);
u64 etw_kp_lanes_lost(struct etw_session *s);
struct klog_session;
struct klog_session *etw_kp_lanes_of(struct etw_session *s);
void etw_kp_lanes_nmi_lost(struct klog_session *k);

/* kapi_activity.c: the activity ids of threads */
bool etw_kactivity_get(u8 id[16]);
void etw_kactivity_exit(void);

/* NTSTATUS of a negative errno of the write and control paths. */
NTSTATUS etw_ntstatus(int err);

#endif /* _ETW_KAPI_H */
