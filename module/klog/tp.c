// SPDX-License-Identifier: GPL-2.0
/*
 * Kernel tracepoints by name.  The __tracepoint_sched_* symbols are not
 * exported, so register_trace_sched_switch() cannot be linked; the
 * tracepoints are found with for_each_kernel_tracepoint(), as
 * lttng-modules does, and probes attached with tracepoint_probe_register().
 */
#include <linux/pid_namespace.h>
#include <linux/sched.h>
#include <linux/string.h>
#include <linux/tracepoint.h>

#include "klog.h"

struct klog_tp_find {
	struct klog_tp *tps;
	unsigned int n;
};

static void klog_tp_match(struct tracepoint *tp, void *priv)
{
	struct klog_tp_find *f = priv;
	unsigned int i;

	for (i = 0; i < f->n; i++)
		if (!f->tps[i].tp && !strcmp(tp->name, f->tps[i].name))
			f->tps[i].tp = tp;
}

int klog_tp_register(struct klog_tp *tps, unsigned int n)
{
	struct klog_tp_find f = { tps, n };
	unsigned int i;
	int ret = 0;

	for (i = 0; i < n; i++)
		tps[i].tp = NULL;
	for_each_kernel_tracepoint(klog_tp_match, &f);
	for (i = 0; i < n && !ret; i++) {
		if (!tps[i].tp)
			ret = -ENOENT;
		else
			ret = tracepoint_probe_register(tps[i].tp, tps[i].probe,
							NULL);
	}
	if (!ret)
		return 0;
	pr_warn("etw: tracepoint %s: %d\n", tps[i - 1].name, ret);
	/* Entries before the failing one were registered. */
	while (--i > 0)
		tracepoint_probe_unregister(tps[i - 1].tp, tps[i - 1].probe, NULL);
	return ret;
}

void klog_tp_unregister(struct klog_tp *tps, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		if (tps[i].tp)
			tracepoint_probe_unregister(tps[i].tp, tps[i].probe, NULL);
}

/* Ids as the initial PID namespace sees them (ETL has one id space). */
u32 klog_tid(struct task_struct *t)
{
	return task_pid_nr(t);
}

u32 klog_pid(struct task_struct *t)
{
	return task_tgid_nr(t);
}
