// SPDX-License-Identifier: GPL-2.0
/*
 * PROFILE: CPU samples as PerfInfo/SampledProfile records, each with its
 * StackWalk when a session asked for stacks on SampledProfile.  One
 * kernel perf counter per online CPU, PERF_COUNT_SW_CPU_CLOCK: perf runs
 * it from an hrtimer, so the overflow handler runs in hardirq context (not
 * NMI) with the interrupted registers, and works the same under emulation
 * (QEMU TCG has no PMU).  Its period is TraceSampledProfileIntervalInfo's
 * interval; each session gets CollectionStart and CollectionEnd with it
 * (version 3, which names the source: readers name the samples' source,
 * and take its rate, from CollectionStart's), and a change while sampling
 * writes SetInterval (version 2, the last that has it).  CPUs brought
 * online after the start are not sampled.  A session that asked for a
 * user stack copy (ETW_TRACE_STACK_COPY_INFO) gets one before each
 * sample's StackWalk (klog/ustack_copy.c).
 */
#include <linux/cpu.h>
#include <linux/hardirq.h>
#include <linux/perf_event.h>
#include <linux/ptrace.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/etw.h>

#include "klog.h"
#include "klog_internal.h"
#include "klog_text.h"

/* PerfInfo/SampledProfile, version 2 (x64). */
struct klog_sampled_profile {
	u64 instruction_pointer;
	u32 thread_id;
	u16 count;
	u8 flags;			/* bit 0: ExecutingDPC */
	u8 rank;
} __packed;

#define KLOG_SAMPLE_DPC		0x01

/*
 * PerfInfo/SetInterval (version 2), CollectionStart and CollectionEnd
 * (version 3: then the source's name, UTF-16, as TraceProfileSourceListInfo
 * names it).
 */
struct klog_profile_interval_rec {
	u32 source;			/* 0: the timer */
	u32 new_interval;		/* 100 ns units */
	u32 old_interval;
} __packed;

#define KLOG_PROFILE_SOURCE_NAME	"Timer"

/* The counters, by CPU, and the interval they run at (etw_lock). */
static struct perf_event **klog_profile_events;
static u32 klog_profile_running;

static void klog_profile_overflow(struct perf_event *event,
				  struct perf_sample_data *data,
				  struct pt_regs *regs)
{
	struct klog_sampled_profile rec = {
		.instruction_pointer = instruction_pointer(regs),
		.thread_id = klog_tid(current),
		.count = 1,
		.flags = in_serving_softirq() ? KLOG_SAMPLE_DPC : 0,
	};
	struct klog_part part = { &rec, sizeof(rec) };
	struct klog_event ev = {
		.hook = KLOG_HOOK_SAMPLED_PROFILE,
		.header_type = KLOG_HDR_PERFINFO,
		.version = 2,
		.flag = ETW_KFLAG_PROFILE,
		.parts = &part,
		.nr_parts = 1,
	};
	struct klog_stack stack;

	if (!klog_enabled(ETW_KFLAG_PROFILE))
		return;
	if (klog_stack_wanted(KLOG_HOOK_SAMPLED_PROFILE)) {
		klog_stack_capture(&stack, klog_stack_frames(), regs);
		ev.stack = &stack;
		if (READ_ONCE(klog_stack_copy_wanted))
			ev.uregs = klog_ucopy_regs(regs);
	}
	klog_write(&ev);
}

static u64 klog_profile_period_ns(u32 interval)
{
	return (u64)interval * 100;
}

static void klog_profile_release(void)
{
	unsigned int cpu;

	if (!klog_profile_events)
		return;
	for_each_possible_cpu(cpu)
		if (klog_profile_events[cpu])
			perf_event_release_kernel(klog_profile_events[cpu]);
	kfree(klog_profile_events);
	klog_profile_events = NULL;
}

static int klog_profile_start(void)
{
	struct perf_event_attr attr = {
		.type = PERF_TYPE_SOFTWARE,
		.config = PERF_COUNT_SW_CPU_CLOCK,
		.size = sizeof(attr),
		.pinned = 1,
	};
	struct perf_event *e;
	unsigned int cpu;
	int ret;

	ret = klog_stack_init();
	if (ret)
		return ret;
	klog_profile_events = kcalloc(nr_cpu_ids, sizeof(*klog_profile_events),
				      GFP_KERNEL);
	if (!klog_profile_events)
		return -ENOMEM;
	klog_profile_running = klog_profile_interval();
	attr.sample_period = klog_profile_period_ns(klog_profile_running);
	cpus_read_lock();
	for_each_online_cpu(cpu) {
		e = perf_event_create_kernel_counter(&attr, cpu, NULL,
						     klog_profile_overflow, NULL);
		if (IS_ERR(e)) {
			ret = PTR_ERR(e);
			pr_warn("etw: profile counter on CPU %u: %d\n", cpu, ret);
			break;
		}
		klog_profile_events[cpu] = e;
	}
	cpus_read_unlock();
	if (ret)
		klog_profile_release();
	return ret;
}

static void klog_profile_stop(void)
{
	klog_profile_release();
}

static void klog_profile_write_interval(struct klog_session *k, u16 hook,
					u32 old_interval)
{
	struct klog_profile_interval_rec rec = {
		.new_interval = klog_profile_running,
		.old_interval = old_interval,
	};
	u8 name[sizeof(KLOG_PROFILE_SOURCE_NAME) * 2];
	struct klog_part parts[2] = { { &rec, sizeof(rec) }, { name, 0 } };
	struct klog_event ev = {
		.hook = hook,
		.header_type = KLOG_HDR_PERFINFO,
		.version = 2,
		.flag = ETW_KFLAG_PROFILE,
		.parts = parts,
		.nr_parts = 1,
		.target = k,
	};

	if (hook != KLOG_HOOK_PROFILE_SET_INTERVAL) {
		ev.version = 3;
		parts[1].size = klog_utf16(name, sizeof(name),
					   KLOG_PROFILE_SOURCE_NAME,
					   strlen(KLOG_PROFILE_SOURCE_NAME));
		ev.nr_parts = 2;
	}
	klog_write(&ev);
}

static void klog_profile_session_start(struct klog_session *k)
{
	klog_profile_write_interval(k, KLOG_HOOK_PROFILE_COLLECTION_START,
				    klog_profile_running);
}

static void klog_profile_session_stop(struct klog_session *k)
{
	klog_profile_write_interval(k, KLOG_HOOK_PROFILE_COLLECTION_END,
				    klog_profile_running);
}

static void klog_profile_interval_changed(void)
{
	u32 old = klog_profile_running;
	unsigned int cpu;

	klog_profile_running = klog_profile_interval();
	if (!klog_profile_events || old == klog_profile_running)
		return;
	for_each_possible_cpu(cpu)
		if (klog_profile_events[cpu])
			perf_event_period(klog_profile_events[cpu],
					  klog_profile_period_ns(klog_profile_running));
	/* Every session that samples: SetInterval, as Windows writes. */
	klog_profile_write_interval(NULL, KLOG_HOOK_PROFILE_SET_INTERVAL, old);
}

const struct klog_source klog_source_profile = {
	.name = "profile",
	.flags = ETW_KFLAG_PROFILE,
	.start = klog_profile_start,
	.stop = klog_profile_stop,
	.session_start = klog_profile_session_start,
	.session_stop = klog_profile_session_stop,
	.interval_changed = klog_profile_interval_changed,
};
