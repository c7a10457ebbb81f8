/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kernel-write benchmark module's device (/dev/etw_kbench): what
 * etw-bench-kwrite asks it to run in a loop.  Shared by the module and
 * the program.
 */
#ifndef _ETW_KBENCH_H
#define _ETW_KBENCH_H

#include <linux/ioctl.h>
#include <linux/types.h>

#define KBENCH_DEVICE	"etw_kbench"
#define KBENCH_MAX_SIZE	512		/* payload bytes */

/* What one turn of the loop does. */
#define KBENCH_LOOP		0	/* nothing: the loop's own cost */
#define KBENCH_ETWWRITE		1	/* EtwWrite of @size bytes, enabled provider */
#define KBENCH_TRACEPOINT	2	/* trace_etw_kbench_bytes() of @size bytes */
#define KBENCH_OFF_ENABLED	3	/* EtwEventEnabled, provider not enabled */
#define KBENCH_OFF_INLINE	4	/* etw mc -km's EventEnabled<Event>(), not enabled */
#define KBENCH_OFF_WRITE	5	/* EtwWrite of @size bytes, provider not enabled */
#define KBENCH_CASES		6

struct kbench_run {
	__u32 kind;		/* KBENCH_* */
	__u32 size;		/* payload bytes, <= KBENCH_MAX_SIZE */
	__u32 count;		/* turns of the loop */
	__u32 done;		/* out: the calls that wrote or said enabled */
};

#define KBENCH_IOC_RUN	_IOWR('k', 0x01, struct kbench_run)

#endif /* _ETW_KBENCH_H */
