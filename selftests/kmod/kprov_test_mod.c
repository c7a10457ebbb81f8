// SPDX-License-Identifier: GPL-2.0
/*
 * etw_kprov_test.ko: a kernel provider for selftests/etw/kprov_test.c.
 * It registers providers with EtwRegister and writes their events from
 * the contexts a driver writes from (its task, a kthread, an hrtimer in
 * hardirq, an hrtimer in softirq, interrupts disabled), records the enable
 * callbacks it gets, and unregisters while writers or a callback run.
 * The test drives it through /dev/etw_kprov_test (kprov_test.h).
 */
#include <linux/completion.h>
#include <linux/cpumask.h>
#include <linux/delay.h>
#include <linux/fs.h>
#include <linux/hrtimer.h>
#include <linux/kthread.h>
#include <linux/miscdevice.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include <etw/kernel.h>
#include <TraceLoggingProvider.h>

#include "kprov_events.h"	/* etw mc -km kprov_events.man */
#include "kprov_test.h"

/* The TraceLogging provider the test also writes from user mode. */
TRACELOGGING_DEFINE_PROVIDER(kpt_tl, KPT_TL_NAME,
	(0x3f0e4a52, 0x6d1b, 0x4c7e, 0x9a, 0x20, 0x51, 0x7b, 0x2c, 0x88, 0x0d, 0x41));

/* KPT_IOC_TL: register, write the test's event, unregister. */
static long kpt_tl_op(u32 op)
{
	static const WCHAR where16[] = { 'k', 'e', 'r', 'n', 'e', 'l', 0 };
	const GUID aid = { 0x11223344, 0x5566, 0x7788,
			   { 1, 2, 3, 4, 5, 6, 7, 8 } };
	u8 bytes[3] = { 0xde, 0xad, 0x01 };

	switch (op) {
	case KPT_TL_REGISTER:
		return TraceLoggingRegister(kpt_tl) ? -EIO : 0;
	case KPT_TL_WRITE:
		TraceLoggingWriteActivity(kpt_tl, "KprovEvent", &aid, NULL,
			TraceLoggingLevel(4),
			TraceLoggingKeyword(0x2),
			TraceLoggingInt32(-42, "Count"),
			TraceLoggingUInt64(0x1122334455667788ULL, "Big"),
			TraceLoggingString("from the kernel", "Where"),
			TraceLoggingWideString(where16, "Where16"),
			TraceLoggingHexUInt32(0xbeef, "Hex"),
			TraceLoggingBinary(bytes, sizeof(bytes), "Bytes"),
			TraceLoggingGuid(aid, "Id"));
		return 0;
	case KPT_TL_UNREGISTER:
		TraceLoggingUnregister(kpt_tl);
		return 0;
	}
	return -EINVAL;
}

/* KPT_IOC_MC: the manifest provider, through etw mc -km's header. */
static long kpt_mc_op(u32 op)
{
	static const WCHAR wide[] = { 'w', 'i', 'd', 'e', 0 };

	switch (op) {
	case KPT_TL_REGISTER:
		return NT_SUCCESS(EventRegisterEtw_Kprov_Test_Manifest()) ? 0 : -EIO;
	case KPT_TL_WRITE:
		/* Written only while enabled: the status says which. */
		if (!EventEnabledKprovIo())
			return -ENODATA;
		return NT_SUCCESS(EventWriteKprovIo(5, 0x123456789aULL, "name",
						    wide)) ? 0 : -EIO;
	case KPT_TL_UNREGISTER:
		EventUnregisterEtw_Kprov_Test_Manifest();
		return 0;
	}
	return -EINVAL;
}

struct kpt_slot {
	REGHANDLE h;
	struct mutex lock;		/* the callbacks below */
	u32 ncb;
	struct kpt_callback cb[KPT_CALLBACKS];
	atomic_t slow_ms;		/* the next callback sleeps this long */
	atomic_t in_cb;
};

static struct kpt_slot kpt_slots[KPT_SLOTS];
static DEFINE_MUTEX(kpt_lock);		/* one request at a time */

/* A provider of its own, registered inside a callback: no etw lock held. */
static const GUID kpt_side = {
	0x6b707274, 0x7369, 0x6465, { 0x8a, 0x1b, 0, 0, 0, 0, 0, 1 } };

static void kpt_callback(LPCGUID SourceId, ULONG ControlCode, UCHAR Level,
			 ULONGLONG MatchAnyKeyword, ULONGLONG MatchAllKeyword,
			 PEVENT_FILTER_DESCRIPTOR FilterData, PVOID CallbackContext)
{
	struct kpt_slot *sl = CallbackContext;
	struct kpt_callback c = {};
	REGHANDLE side;
	int ms;

	memcpy(c.source_id, SourceId, 16);
	c.code = ControlCode;
	c.level = Level;
	c.match_any = MatchAnyKeyword;
	c.match_all = MatchAllKeyword;
	c.may_sleep = in_task() && preemptible();
	if (FilterData) {
		c.has_filter = 1;
		c.filter_type = FilterData->Type;
		c.filter_size = FilterData->Size;
		memcpy(c.filter, (void *)(uintptr_t)FilterData->Ptr,
		       min_t(u32, FilterData->Size, sizeof(c.filter)));
	}
	if (NT_SUCCESS(EtwRegister(&kpt_side, NULL, NULL, &side)))
		c.no_lock = NT_SUCCESS(EtwUnregister(side));
	ms = atomic_xchg(&sl->slow_ms, 0);
	if (ms) {
		atomic_set(&sl->in_cb, 1);
		msleep(ms);
		atomic_set(&sl->in_cb, 0);
	}
	mutex_lock(&sl->lock);
	if (sl->ncb < KPT_CALLBACKS)
		sl->cb[sl->ncb] = c;
	sl->ncb++;
	mutex_unlock(&sl->lock);
}

/* One batch of writes, in one context on one CPU. */
struct kpt_job {
	const struct kpt_write *w;
	REGHANDLE h;
	u32 cpu;
	const u8 *buf;			/* the payload: byte i is i & 0xff */
	EVENT_DATA_DESCRIPTOR *many;	/* KPT_W_TOO_MANY's */
	atomic_t left;
	atomic_t ok;
	atomic_t bad_ctx;
	atomic_t status;
	struct hrtimer timer;
	struct completion done;		/* the writes are made */
	struct completion fin;		/* the thread is done with the job */
};

static bool kpt_in_ctx(const struct kpt_job *j)
{
	if (j->w->ctx != KPT_CTX_TASK && smp_processor_id() != j->cpu)
		return false;
	switch (j->w->ctx) {
	case KPT_CTX_TASK:
	case KPT_CTX_KTHREAD:
		return in_task() && !irqs_disabled();
	case KPT_CTX_HRTIMER:
		return in_hardirq();
	case KPT_CTX_SOFTIRQ:
		return in_serving_softirq() && !in_hardirq();
	case KPT_CTX_IRQOFF:
		return in_task() && irqs_disabled();
	}
	return false;
}

/* u"kprov" (spelt out: sparse parses no u"" literal). */
static const WCHAR kpt_string[] = { 'k', 'p', 'r', 'o', 'v', 0 };

static NTSTATUS kpt_call(struct kpt_job *j)
{
	const struct kpt_write *w = j->w;
	EVENT_DATA_DESCRIPTOR dd;
	EVENT_DESCRIPTOR d;
	NTSTATUS st;

	EventDescCreate(&d, w->id, 0, 0, w->level, 0, 0, w->keyword);
	EventDataDescCreate(&dd, j->buf, w->size);
	switch (w->kind) {
	case KPT_W_WRITE:
		return EtwWrite(j->h, &d, NULL, w->size ? 1 : 0, &dd);
	case KPT_W_TRANSFER:
		return EtwWriteTransfer(j->h, &d, (LPCGUID)w->activity,
					(LPCGUID)w->related, 1, &dd);
	case KPT_W_EX:
		return EtwWriteEx(j->h, &d, w->filter, w->flags, NULL, NULL,
				  1, &dd);
	case KPT_W_STRING:
		return EtwWriteString(j->h, w->level, w->keyword, NULL,
				      kpt_string);
	case KPT_W_NULL_PTR:
		dd.Ptr = 0;
		return EtwWrite(j->h, &d, NULL, 1, &dd);
	case KPT_W_USER_PTR:
		dd.Ptr = 0x10000;
		return EtwWrite(j->h, &d, NULL, 1, &dd);
	case KPT_W_TOO_MANY:
		return EtwWrite(j->h, &d, NULL, MAX_EVENT_DATA_DESCRIPTORS + 1,
				j->many);
	case KPT_W_TOO_BIG:
		dd.Size = 65536;
		return EtwWrite(j->h, &d, NULL, 1, &dd);
	case KPT_W_NO_HANDLE:
		return EtwWrite(0, &d, NULL, 1, &dd);
	case KPT_W_ACTIVITY: {
		GUID id, zero = {};

		memcpy(&id, w->activity, 16);
		st = EtwActivityIdControl(EVENT_ACTIVITY_CTRL_SET_ID, &id);
		if (!NT_SUCCESS(st))
			return st;
		st = EtwWrite(j->h, &d, NULL, 1, &dd);
		EtwActivityIdControl(EVENT_ACTIVITY_CTRL_SET_ID, &zero);
		return st;
	}
	}
	return STATUS_NOT_SUPPORTED;
}

/* One write, counted.  False when the batch is done. */
static bool kpt_write_one(struct kpt_job *j)
{
	NTSTATUS st;

	if (atomic_dec_if_positive(&j->left) < 0)
		return false;
	if (!kpt_in_ctx(j))
		atomic_inc(&j->bad_ctx);
	st = kpt_call(j);
	if (st == STATUS_SUCCESS)
		atomic_inc(&j->ok);
	else
		atomic_set(&j->status, st);
	return atomic_read(&j->left) > 0;
}

static enum hrtimer_restart kpt_timer_fn(struct hrtimer *t)
{
	struct kpt_job *j = container_of(t, struct kpt_job, timer);

	if (kpt_write_one(j)) {
		hrtimer_forward_now(t, ns_to_ktime(100 * NSEC_PER_USEC));
		return HRTIMER_RESTART;
	}
	complete(&j->done);
	return HRTIMER_NORESTART;
}

static int kpt_thread_fn(void *arg)
{
	struct kpt_job *j = arg;
	unsigned long flags;

	switch (j->w->ctx) {
	case KPT_CTX_HRTIMER:
	case KPT_CTX_SOFTIRQ:
		hrtimer_init(&j->timer, CLOCK_MONOTONIC,
			     j->w->ctx == KPT_CTX_HRTIMER ?
			     HRTIMER_MODE_REL_PINNED_HARD :
			     HRTIMER_MODE_REL_PINNED_SOFT);
		j->timer.function = kpt_timer_fn;
		hrtimer_start(&j->timer, ns_to_ktime(100 * NSEC_PER_USEC),
			      j->w->ctx == KPT_CTX_HRTIMER ?
			      HRTIMER_MODE_REL_PINNED_HARD :
			      HRTIMER_MODE_REL_PINNED_SOFT);
		/* A timer that stopped firing is a failure, not a hang. */
		if (!wait_for_completion_timeout(&j->done, 20 * HZ))
			atomic_set(&j->status, -ETIMEDOUT);
		hrtimer_cancel(&j->timer);
		break;
	case KPT_CTX_IRQOFF:
		local_irq_save(flags);
		while (kpt_write_one(j))
			;
		local_irq_restore(flags);
		break;
	default:
		while (kpt_write_one(j))
			;
	}
	complete(&j->fin);
	/* Stay until kthread_stop(), which reaps the thread. */
	while (!kthread_should_stop())
		schedule_timeout_interruptible(1);
	return 0;
}

static void kpt_job_init(struct kpt_job *j, const struct kpt_write *w,
			 REGHANDLE h, const u8 *buf,
			 EVENT_DATA_DESCRIPTOR *many, u32 cpu)
{
	memset(j, 0, sizeof(*j));
	j->w = w;
	j->h = h;
	j->buf = buf;
	j->many = many;
	j->cpu = cpu;
	atomic_set(&j->left, w->count);
	init_completion(&j->done);
	init_completion(&j->fin);
}

/* @w's writes: on its CPU, or on every online CPU at once (cpu ~0). */
static int kpt_write(struct kpt_write *w)
{
	struct task_struct **t;
	EVENT_DATA_DESCRIPTOR *many;
	struct kpt_job *jobs;
	unsigned int i, cpu, n = 0;
	u8 *buf;
	int ret = 0;

	if (w->slot >= KPT_SLOTS || w->size > 65536 ||
	    (w->cpu != ~0U && (w->cpu >= nr_cpu_ids || !cpu_online(w->cpu))))
		return -EINVAL;
	buf = kvmalloc(65536, GFP_KERNEL);
	many = kcalloc(MAX_EVENT_DATA_DESCRIPTORS + 1, sizeof(*many), GFP_KERNEL);
	jobs = kcalloc(nr_cpu_ids, sizeof(*jobs), GFP_KERNEL);
	t = kcalloc(nr_cpu_ids, sizeof(*t), GFP_KERNEL);
	if (!buf || !many || !jobs || !t) {
		ret = -ENOMEM;
		goto out;
	}
	for (i = 0; i < 65536; i++)
		buf[i] = i & 0xff;
	for (i = 0; i <= MAX_EVENT_DATA_DESCRIPTORS; i++)
		EventDataDescCreate(&many[i], buf, 1);

	if (w->ctx == KPT_CTX_TASK) {
		kpt_job_init(&jobs[0], w, kpt_slots[w->slot].h, buf, many, 0);
		while (kpt_write_one(&jobs[0]))
			;
		n = 1;
	} else {
		for_each_online_cpu(cpu) {
			if (w->cpu != ~0U && cpu != w->cpu)
				continue;
			kpt_job_init(&jobs[n], w, kpt_slots[w->slot].h, buf,
				     many, cpu);
			t[n] = kthread_create(kpt_thread_fn, &jobs[n],
					      "kpt/%u", cpu);
			if (IS_ERR(t[n])) {
				ret = PTR_ERR(t[n]);
				t[n] = NULL;
				break;
			}
			kthread_bind(t[n], cpu);
			n++;
		}
		for (i = 0; i < n; i++)
			if (t[i])
				wake_up_process(t[i]);
		for (i = 0; i < n; i++) {
			if (!t[i])
				continue;
			wait_for_completion(&jobs[i].fin);
			kthread_stop(t[i]);
		}
	}
	w->ok = 0;
	w->bad_ctx = 0;
	w->status = 0;
	for (i = 0; i < n; i++) {
		w->ok += atomic_read(&jobs[i].ok);
		w->bad_ctx += atomic_read(&jobs[i].bad_ctx);
		if (atomic_read(&jobs[i].status))
			w->status = atomic_read(&jobs[i].status);
	}
out:
	kfree(t);
	kfree(jobs);
	kfree(many);
	kvfree(buf);
	return ret;
}

/* Writers that run until told to stop, on every CPU and in an hrtimer. */
struct kpt_racer {
	struct kpt_slot *sl;
	atomic_t stop;
	atomic_t unregistered;
	atomic_t writes;
	atomic_t after;
	struct hrtimer timer;
};

static void kpt_race_write(struct kpt_racer *r)
{
	static const u8 payload[64];
	EVENT_DATA_DESCRIPTOR dd;
	EVENT_DESCRIPTOR d;
	REGHANDLE h;

	/* The handle read and used in one RCU read side. */
	preempt_disable();
	h = READ_ONCE(r->sl->h);
	if (h) {
		EventDescCreate(&d, 77, 0, 0, 4, 0, 0, 1);
		EventDataDescCreate(&dd, payload, sizeof(payload));
		EtwWrite(h, &d, NULL, 1, &dd);
		atomic_inc(&r->writes);
		if (atomic_read(&r->unregistered))
			atomic_inc(&r->after);
	}
	preempt_enable();
}

static enum hrtimer_restart kpt_race_timer(struct hrtimer *t)
{
	struct kpt_racer *r = container_of(t, struct kpt_racer, timer);

	kpt_race_write(r);
	if (atomic_read(&r->stop))
		return HRTIMER_NORESTART;
	hrtimer_forward_now(t, ns_to_ktime(50 * NSEC_PER_USEC));
	return HRTIMER_RESTART;
}

static int kpt_race_thread(void *arg)
{
	struct kpt_racer *r = arg;

	while (!kthread_should_stop()) {
		if (!atomic_read(&r->stop))
			kpt_race_write(r);
		cond_resched();
	}
	return 0;
}

static int kpt_race(struct kpt_race *q)
{
	struct task_struct **t;
	struct kpt_racer *r;
	unsigned int cpu, n = 0, i;
	REGHANDLE h;

	if (q->slot >= KPT_SLOTS || !kpt_slots[q->slot].h || q->ms > 10000)
		return -EINVAL;
	r = kzalloc(sizeof(*r), GFP_KERNEL);
	t = kcalloc(nr_cpu_ids, sizeof(*t), GFP_KERNEL);
	if (!r || !t) {
		kfree(r);
		kfree(t);
		return -ENOMEM;
	}
	r->sl = &kpt_slots[q->slot];
	for_each_online_cpu(cpu) {
		t[n] = kthread_create(kpt_race_thread, r, "kpt-race/%u", cpu);
		if (IS_ERR(t[n])) {
			t[n] = NULL;
			continue;
		}
		kthread_bind(t[n], cpu);
		wake_up_process(t[n++]);
	}
	hrtimer_init(&r->timer, CLOCK_MONOTONIC, HRTIMER_MODE_REL_HARD);
	r->timer.function = kpt_race_timer;
	hrtimer_start(&r->timer, ns_to_ktime(50 * NSEC_PER_USEC), HRTIMER_MODE_REL_HARD);
	msleep(q->ms);
	h = r->sl->h;
	WRITE_ONCE(r->sl->h, 0);
	q->status = EtwUnregister(h);
	atomic_set(&r->unregistered, 1);
	msleep(q->ms / 2 + 1);
	atomic_set(&r->stop, 1);
	hrtimer_cancel(&r->timer);
	for (i = 0; i < n; i++)
		kthread_stop(t[i]);
	q->writes = atomic_read(&r->writes);
	q->after = atomic_read(&r->after);
	kfree(t);
	kfree(r);
	return 0;
}

static int kpt_unreg_cb(struct kpt_unreg_cb *q)
{
	struct kpt_slot *sl;
	int i;

	if (q->slot >= KPT_SLOTS || !kpt_slots[q->slot].h)
		return -EINVAL;
	sl = &kpt_slots[q->slot];
	for (i = 0; i < 5000 && !atomic_read(&sl->in_cb); i++)
		msleep(1);
	if (!atomic_read(&sl->in_cb))
		return -ETIMEDOUT;
	q->status = EtwUnregister(sl->h);
	sl->h = 0;
	q->waited = !atomic_read(&sl->in_cb);
	return 0;
}

static long kpt_do(unsigned int cmd, void *arg)
{
	struct kpt_register *rg = arg;
	struct kpt_callbacks *cbs = arg;
	struct kpt_enabled *en = arg;
	struct kpt_slot *sl;
	EVENT_DESCRIPTOR d;
	u32 ms;

	switch (cmd) {
	case KPT_IOC_REGISTER:
		if (rg->slot >= KPT_SLOTS || kpt_slots[rg->slot].h)
			return -EINVAL;
		sl = &kpt_slots[rg->slot];
		mutex_lock(&sl->lock);
		sl->ncb = 0;
		mutex_unlock(&sl->lock);
		rg->status = EtwRegister((LPCGUID)rg->guid,
					 rg->with_callback ? kpt_callback : NULL,
					 sl, &sl->h);
		return 0;
	case KPT_IOC_UNREGISTER:
		if (rg->slot >= KPT_SLOTS)
			return -EINVAL;
		rg->status = EtwUnregister(kpt_slots[rg->slot].h);
		kpt_slots[rg->slot].h = 0;
		return 0;
	case KPT_IOC_WRITE:
		return kpt_write(arg);
	case KPT_IOC_CALLBACKS:
		if (cbs->slot >= KPT_SLOTS)
			return -EINVAL;
		sl = &kpt_slots[cbs->slot];
		mutex_lock(&sl->lock);
		cbs->count = sl->ncb;
		memcpy(cbs->cb, sl->cb, sizeof(cbs->cb));
		mutex_unlock(&sl->lock);
		return 0;
	case KPT_IOC_ENABLED:
		if (en->slot >= KPT_SLOTS)
			return -EINVAL;
		EventDescCreate(&d, 1, 0, 0, en->level, 0, 0, en->keyword);
		en->event_enabled = EtwEventEnabled(kpt_slots[en->slot].h, &d);
		en->provider_enabled = EtwProviderEnabled(kpt_slots[en->slot].h,
							  en->level, en->keyword);
		return 0;
	case KPT_IOC_RACE:
		return kpt_race(arg);
	case KPT_IOC_SLOW_CALLBACK:
		ms = *(u32 *)arg;
		for (ms = min_t(u32, ms, 5000), cmd = 0; cmd < KPT_SLOTS; cmd++)
			atomic_set(&kpt_slots[cmd].slow_ms, ms);
		return 0;
	case KPT_IOC_UNREG_CB:
		return kpt_unreg_cb(arg);
	case KPT_IOC_TL:
		return kpt_tl_op(*(u32 *)arg);
	case KPT_IOC_MC:
		return kpt_mc_op(*(u32 *)arg);
	}
	return -ENOTTY;
}

static long kpt_ioctl(struct file *f, unsigned int cmd, unsigned long uarg)
{
	union {
		struct kpt_register rg;
		struct kpt_write w;
		struct kpt_callbacks cbs;
		struct kpt_enabled en;
		struct kpt_race race;
		struct kpt_unreg_cb ucb;
		u32 ms;
	} *arg;
	size_t size = _IOC_SIZE(cmd);
	long ret;

	if (_IOC_TYPE(cmd) != 'k' || size > sizeof(*arg))
		return -ENOTTY;
	arg = kzalloc(sizeof(*arg), GFP_KERNEL);
	if (!arg)
		return -ENOMEM;
	ret = -EFAULT;
	if (copy_from_user(arg, (void __user *)uarg, size))
		goto out;
	/* The slow-callback unregister waits for a callback: no lock. */
	if (cmd == KPT_IOC_UNREG_CB || cmd == KPT_IOC_SLOW_CALLBACK) {
		ret = kpt_do(cmd, arg);
	} else {
		mutex_lock(&kpt_lock);
		ret = kpt_do(cmd, arg);
		mutex_unlock(&kpt_lock);
	}
	if (!ret && (_IOC_DIR(cmd) & _IOC_READ) &&
	    copy_to_user((void __user *)uarg, arg, size))
		ret = -EFAULT;
out:
	kfree(arg);
	return ret;
}

static const struct file_operations kpt_fops = {
	.owner = THIS_MODULE,
	.unlocked_ioctl = kpt_ioctl,
	.compat_ioctl = compat_ptr_ioctl,
};

static struct miscdevice kpt_dev = {
	.minor = MISC_DYNAMIC_MINOR,
	.name = KPT_DEVICE,
	.fops = &kpt_fops,
};

static int __init kpt_init(void)
{
	int i;

	for (i = 0; i < KPT_SLOTS; i++)
		mutex_init(&kpt_slots[i].lock);
	return misc_register(&kpt_dev);
}

static void __exit kpt_exit(void)
{
	int i;

	misc_deregister(&kpt_dev);
	for (i = 0; i < KPT_SLOTS; i++)
		if (kpt_slots[i].h)
			EtwUnregister(kpt_slots[i].h);
}

module_init(kpt_init);
module_exit(kpt_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("etw.ko's kernel-provider selftest module");
ETW_MODULE_IMPORT_NS();
