/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The system configuration's records (SystemConfig, kernel group 0x0B),
 * written at a system logger's stop in process context: klog/sysconfig.c
 * (CPU, PhyDisk, NIC, and the rundown's order), sysconfig_logdisk.c,
 * sysconfig_irq.c, sysconfig_pnp.c, sysconfig_power.c.
 */
#ifndef _ETW_KLOG_SYSCONFIG_H
#define _ETW_KLOG_SYSCONFIG_H

#include <linux/types.h>

struct class;
struct device;
struct klog_part;
struct klog_session;

/* The SystemConfig opcodes (EVENT_TRACE_TYPE_CONFIG_*). */
#define KLOG_SYSCONFIG_CPU		10
#define KLOG_SYSCONFIG_PHYDISK		11
#define KLOG_SYSCONFIG_LOGDISK		12
#define KLOG_SYSCONFIG_NIC		13
#define KLOG_SYSCONFIG_POWER		16
#define KLOG_SYSCONFIG_IRQ		21
#define KLOG_SYSCONFIG_PNP		22

/* One SystemConfig record of @type and @version to @k only. */
void klog_sysconfig_write(struct klog_session *k, u8 type, u8 version,
			  const struct klog_part *parts, unsigned int nr_parts);

/* A fixed-size UTF-16 field holding @src, an array of @src_size. */
void klog_sysconfig_name(u8 *dst, u32 room, const char *src, size_t src_size);

/* The block class (not exported), or NULL. */
struct class *klog_sysconfig_block_class(void);

/* @disk's DiskNumber: its place among the block class's disks; -1 if none. */
int klog_sysconfig_disk_number(struct class *block, struct device *disk);

void klog_sysconfig_logdisks(struct klog_session *k);
void klog_sysconfig_irqs(struct klog_session *k);
void klog_sysconfig_pnp(struct klog_session *k);
void klog_sysconfig_power(struct klog_session *k);

#endif /* _ETW_KLOG_SYSCONFIG_H */
