// SPDX-License-Identifier: GPL-2.0
/*
 * etw_kbench.ko: make bench's kernel-write cases.  A loop in the kernel
 * of EtwWrite against a TRACE_EVENT tracepoint of the same bytes, and of
 * the disabled checks, asked for by etw-bench-kwrite through
 * /dev/etw_kbench; the program times the ioctl, so the counting is the
 * same as every other row of the bench (guest instructions under
 * -icount).  Which tracer records the tracepoint (ftrace, LTTng, none)
 * is the program's and scripts/vm/bench.sh's choice.
 *
 * The providers come from etw mc -km's header of kbench_events.man, as a
 * driver's would: its handle is what EtwWrite writes through, and its
 * EventEnabled<Event>() is the inline check a caller makes first.
 */
#include <linux/fs.h>
#include <linux/miscdevice.h>
#include <linux/module.h>
#include <linux/uaccess.h>

#include <etw/kernel.h>
#include "kbench_events.h"
#include "kbench.h"

#define CREATE_TRACE_POINTS
#include "etw_kbench_trace.h"

static u8 kbench_payload[KBENCH_MAX_SIZE];
static DEFINE_MUTEX(kbench_lock);	/* one loop at a time */

/* Eight calls per turn: the loop's counter and branch cost little. */
#define KBENCH_8(done, call)					\
	do {							\
		(done) += (call); barrier();			\
		(done) += (call); barrier();			\
		(done) += (call); barrier();			\
		(done) += (call); barrier();			\
		(done) += (call); barrier();			\
		(done) += (call); barrier();			\
		(done) += (call); barrier();			\
		(done) += (call); barrier();			\
	} while (0)

static u32 kbench_etwwrite(PCEVENT_DESCRIPTOR desc, REGHANDLE h, u32 size)
{
	EVENT_DATA_DESCRIPTOR d;

	EventDataDescCreate(&d, kbench_payload, size);
	return EtwWrite(h, desc, NULL, size ? 1 : 0, &d) == STATUS_SUCCESS;
}

static u32 kbench_tracepoint(u32 size)
{
	trace_etw_kbench_bytes(kbench_payload, size);
	return 1;
}

/* @count turns of @kind (rounded down to eight); the calls that took. */
static u32 kbench_loop(u32 kind, u32 size, u32 count)
{
	u32 done = 0, i;

	for (i = 0; i < count / 8; i++) {
		switch (kind) {
		case KBENCH_LOOP:
			KBENCH_8(done, 1);
			break;
		case KBENCH_ETWWRITE:
			KBENCH_8(done, kbench_etwwrite(&KbenchBytes, Etw_KbenchHandle, size));
			break;
		case KBENCH_TRACEPOINT:
			KBENCH_8(done, kbench_tracepoint(size));
			break;
		case KBENCH_OFF_ENABLED:
			KBENCH_8(done, EtwEventEnabled(Etw_Kbench_OffHandle, &KbenchOffBytes));
			break;
		case KBENCH_OFF_INLINE:
			KBENCH_8(done, EventEnabledKbenchOffBytes());
			break;
		case KBENCH_OFF_WRITE:
			KBENCH_8(done, kbench_etwwrite(&KbenchOffBytes,
						       Etw_Kbench_OffHandle, size));
			break;
		}
		/*
		 * Let the work item that gives each lane its spare buffer run
		 * (kapi_lanes.c), as a writer that returns to its caller does:
		 * a lane has one spare, a loop that never yields loses events
		 * after it.  Its cost is counted, as ftrace's page switches are.
		 */
		cond_resched();
	}
	return done;
}

static long kbench_ioctl(struct file *f, unsigned int cmd, unsigned long uarg)
{
	struct kbench_run r;

	if (cmd != KBENCH_IOC_RUN)
		return -ENOTTY;
	if (copy_from_user(&r, (void __user *)uarg, sizeof(r)))
		return -EFAULT;
	if (r.kind >= KBENCH_CASES || r.size > KBENCH_MAX_SIZE || r.count % 8)
		return -EINVAL;
	mutex_lock(&kbench_lock);
	r.done = kbench_loop(r.kind, r.size, r.count);
	mutex_unlock(&kbench_lock);
	return copy_to_user((void __user *)uarg, &r, sizeof(r)) ? -EFAULT : 0;
}

static const struct file_operations kbench_fops = {
	.owner = THIS_MODULE,
	.unlocked_ioctl = kbench_ioctl,
};

static struct miscdevice kbench_dev = {
	.minor = MISC_DYNAMIC_MINOR,
	.name = KBENCH_DEVICE,
	.fops = &kbench_fops,
	.mode = 0600,
};

static int __init kbench_init(void)
{
	int ret;

	memset(kbench_payload, 0x5a, sizeof(kbench_payload));
	if (!NT_SUCCESS(EventRegisterEtw_Kbench()))
		return -EIO;
	if (!NT_SUCCESS(EventRegisterEtw_Kbench_Off())) {
		ret = -EIO;
		goto out_unregister;
	}
	ret = misc_register(&kbench_dev);
	if (ret)
		goto out_unregister_off;
	return 0;

out_unregister_off:
	EventUnregisterEtw_Kbench_Off();
out_unregister:
	EventUnregisterEtw_Kbench();
	return ret;
}

static void __exit kbench_exit(void)
{
	misc_deregister(&kbench_dev);
	EventUnregisterEtw_Kbench_Off();
	EventUnregisterEtw_Kbench();
}

module_init(kbench_init);
module_exit(kbench_exit);
ETW_MODULE_IMPORT_NS();
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("etw: make bench's kernel EtwWrite and tracepoint cases");
