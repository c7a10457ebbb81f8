// SPDX-License-Identifier: GPL-2.0
/*
 * SystemConfig/IRQ (opcode 21, version 3): one record per interrupt
 * handler, as Windows writes one per device's interrupt, in the order of
 * the interrupt numbers and of each line's handlers:
 *
 * - IRQAffinity: the first 64 CPUs of the interrupt's affinity, of those
 *   that may exist (what /proc/irq/N/smp_affinity shows), IRQGroup 0
 *   (one processor group);
 * - IRQNum: the Linux interrupt number;
 * - DeviceDescription: the handler's name (what /sys/kernel/irq/N/actions
 *   lists), DeviceDescriptionLen its characters without the NUL.
 *
 * Each descriptor is read under RCU (descriptors are freed after a grace
 * period) and its lock, as /proc/interrupts reads it; the names are
 * copied there, bounded, and written after.
 */
#include <linux/bits.h>
#include <linux/cpumask.h>
#include <linux/interrupt.h>
#include <linux/irq.h>
#include <linux/irqdesc.h>
#include <linux/irqnr.h>
#include <linux/rcupdate.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "klog.h"
#include "klog_internal.h"
#include "klog_sysconfig.h"
#include "klog_text.h"

/* Handlers named per interrupt, and the characters of each name. */
#define KLOG_IRQ_ACTIONS	16
#define KLOG_IRQ_NAME		64

/* SystemConfig_V3_IRQ's fixed part; DeviceDescription follows. */
struct klog_sysconfig_irq {
	u64 affinity;
	u16 group;
	u16 reserved;
	u32 irq;
	u32 description_len;
} __packed;

struct klog_irq_scratch {
	char names[KLOG_IRQ_ACTIONS][KLOG_IRQ_NAME];
	u8 name16[KLOG_IRQ_NAME * 2];
};

/* @irq's handlers' names into @sc and its affinity; how many. */
static int klog_irq_read(unsigned int irq, struct klog_irq_scratch *sc,
			 u64 *affinity)
{
	struct irqaction *action;
	struct irq_data *data;
	struct irq_desc *desc;
	unsigned long flags;
	int n = 0;

	rcu_read_lock();
	data = irq_get_irq_data(irq);
	if (data) {
		desc = irq_data_to_desc(data);
		raw_spin_lock_irqsave(&desc->lock, flags);
		for (action = desc->action; action && n < KLOG_IRQ_ACTIONS;
		     action = action->next)
			strscpy(sc->names[n++], action->name ?: "",
				KLOG_IRQ_NAME);
		*affinity = cpumask_bits(irq_data_get_affinity_mask(data))[0];
		raw_spin_unlock_irqrestore(&desc->lock, flags);
		/* CPUs that may exist only ("all" sets every bit). */
		if (nr_cpu_ids < 64)
			*affinity &= BIT_ULL(nr_cpu_ids) - 1;
	}
	rcu_read_unlock();
	return n;
}

void klog_sysconfig_irqs(struct klog_session *k)
{
	struct klog_irq_scratch *sc;
	struct klog_sysconfig_irq r;
	struct klog_part parts[2] = { { &r, sizeof(r) }, { NULL, 0 } };
	unsigned int irq;
	u64 affinity = 0;
	int i, n;

	sc = kmalloc(sizeof(*sc), GFP_KERNEL);
	if (!sc) {
		klog_lanes_add_lost(k, 1);
		return;
	}
	parts[1].data = sc->name16;
	for (irq = 0; irq < (unsigned int)READ_ONCE(nr_irqs); irq++) {
		n = klog_irq_read(irq, sc, &affinity);
		for (i = 0; i < n; i++) {
			memset(&r, 0, sizeof(r));
			r.affinity = affinity;
			r.irq = irq;
			r.description_len = strlen(sc->names[i]);
			parts[1].size = klog_utf16(sc->name16, sizeof(sc->name16),
						   sc->names[i],
						   r.description_len);
			r.description_len = parts[1].size / 2 - 1;
			klog_sysconfig_write(k, KLOG_SYSCONFIG_IRQ, 3, parts,
					     ARRAY_SIZE(parts));
		}
	}
	kfree(sc);
}
