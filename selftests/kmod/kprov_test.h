/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kernel-provider test module's device (/dev/etw_kprov_test): what
 * selftests/etw/kprov_test.c asks it to do through EtwRegister ...
 * EtwWrite, and what it read back.  Shared by the module and the test.
 */
#ifndef _ETW_KPROV_TEST_H
#define _ETW_KPROV_TEST_H

#include <linux/ioctl.h>
#include <linux/types.h>

#define KPT_DEVICE	"etw_kprov_test"
#define KPT_SLOTS	4		/* registrations the module holds */
#define KPT_CALLBACKS	32		/* callbacks it remembers per slot */

/* Where a write runs. */
#define KPT_CTX_TASK		0	/* the ioctl's task */
#define KPT_CTX_KTHREAD		1	/* a kthread on @cpu */
#define KPT_CTX_HRTIMER		2	/* an hrtimer callback (hardirq) on @cpu */
#define KPT_CTX_SOFTIRQ		3	/* a tasklet (softirq) on @cpu */
#define KPT_CTX_IRQOFF		4	/* a kthread on @cpu, interrupts disabled */

/* KPT_WRITE's @kind: the call, or a bad descriptor. */
#define KPT_W_WRITE		0	/* EtwWrite, @size bytes of pattern */
#define KPT_W_TRANSFER		1	/* EtwWriteTransfer, @activity, @related */
#define KPT_W_EX		2	/* EtwWriteEx, @filter, @flags */
#define KPT_W_STRING		3	/* EtwWriteString u"kprov" */
#define KPT_W_NULL_PTR		4	/* a descriptor NULL with a size */
#define KPT_W_USER_PTR		5	/* a descriptor with a user address */
#define KPT_W_TOO_MANY		6	/* 129 descriptors */
#define KPT_W_TOO_BIG		7	/* 65536 bytes */
#define KPT_W_NO_HANDLE		8	/* handle 0 */
#define KPT_W_ACTIVITY		9	/* EtwWrite, ActivityId NULL after SET_ID */

struct kpt_write {
	__u32 slot;
	__u32 ctx;		/* KPT_CTX_* */
	__u32 kind;		/* KPT_W_* */
	__u32 cpu;
	__u32 count;		/* events */
	__u32 size;		/* payload bytes */
	__u16 id;
	__u8 level;
	__u8 pad;
	__u32 flags;		/* EtwWriteEx's */
	__u64 keyword;
	__u64 filter;		/* EtwWriteEx's */
	__u8 activity[16];
	__u8 related[16];
	/* out */
	__s32 status;		/* the last status that was not success, or 0 */
	__u32 ok;		/* writes that returned STATUS_SUCCESS */
	__u32 bad_ctx;		/* writes not in the context asked for */
	__u32 pad2;
};

struct kpt_register {
	__u32 slot;
	__u32 with_callback;
	__u8 guid[16];
	__s32 status;		/* out */
	__u32 pad;
};

/* One enable callback, as the module saw it. */
struct kpt_callback {
	__u8 source_id[16];
	__u32 code;
	__u8 level;
	__u8 has_filter;
	__u8 may_sleep;		/* process context, preemptible */
	__u8 no_lock;		/* EtwRegister of another provider worked in it */
	__u64 match_any;
	__u64 match_all;
	__u32 filter_type;
	__u32 filter_size;
	__u8 filter[64];	/* its first bytes */
};

struct kpt_callbacks {
	__u32 slot;
	__u32 count;		/* out: callbacks since registration */
	struct kpt_callback cb[KPT_CALLBACKS];	/* out */
};

struct kpt_enabled {
	__u32 slot;
	__u8 level;
	__u8 pad[3];
	__u64 keyword;
	__u32 event_enabled;	/* out: EtwEventEnabled */
	__u32 provider_enabled;	/* out: EtwProviderEnabled */
};

/* Unregister while writers (a kthread per CPU, an hrtimer) run. */
struct kpt_race {
	__u32 slot;
	__u32 ms;		/* writers run this long before the unregister */
	__s32 status;		/* out: EtwUnregister's */
	__u32 writes;		/* out: writes made */
	__u32 after;		/* out: writes that began after it returned */
	__u32 pad;
};

/* Unregister while the slot's callback runs: did it wait? */
struct kpt_unreg_cb {
	__u32 slot;
	__u32 waited;		/* out: the callback had finished */
	__s32 status;		/* out */
	__u32 pad;
};

#define KPT_IOC_REGISTER	_IOWR('k', 1, struct kpt_register)
#define KPT_IOC_UNREGISTER	_IOWR('k', 2, struct kpt_register)
#define KPT_IOC_WRITE		_IOWR('k', 3, struct kpt_write)
#define KPT_IOC_CALLBACKS	_IOWR('k', 4, struct kpt_callbacks)
#define KPT_IOC_ENABLED		_IOWR('k', 5, struct kpt_enabled)
#define KPT_IOC_RACE		_IOWR('k', 6, struct kpt_race)
#define KPT_IOC_SLOW_CALLBACK	_IOW('k', 7, __u32)	/* next callback sleeps */
#define KPT_IOC_UNREG_CB	_IOWR('k', 8, struct kpt_unreg_cb)

/* KPT_IOC_TL: the TraceLogging provider KPT_TL_NAME. */
#define KPT_TL_NAME		"Etw.KprovTest"
#define KPT_TL_GUID		"3f0e4a52-6d1b-4c7e-9a20-517b2c880d41"
#define KPT_TL_REGISTER		1
#define KPT_TL_WRITE		2
#define KPT_TL_UNREGISTER	3
#define KPT_IOC_TL		_IOW('k', 9, __u32)
/* KPT_IOC_MC: the same operations on the manifest provider (kprov_events.man). */
#define KPT_MC_GUID		"5d3c2b1a-0f9e-4d8c-b7a6-958473625140"
#define KPT_IOC_MC		_IOW('k', 10, __u32)

#endif /* _ETW_KPROV_TEST_H */
