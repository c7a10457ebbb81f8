// SPDX-License-Identifier: GPL-2.0
/*
 * The system configuration rundown: at a system logger's stop, the
 * SystemConfig records ({01853a65-418f-4f36-aefc-dc0f1d2fd235}, kernel
 * group 0x0B) Windows writes there unless EnableFlags has
 * EVENT_TRACE_FLAG_NO_SYSCONFIG, so that a reader names the machine:
 *
 * - CPU (opcode 10, version 3, 828 bytes): MHz (the TSC's calibrated
 *   rate, what /proc/cpuinfo shows without frequency scaling), the online
 *   processors, memory in MiB (MemTotal), the page size, the allocation
 *   granularity (the page size: Linux maps at that grain, where Windows
 *   has 64 KiB), the host and domain names of the initial UTS namespace
 *   (Linux's "(none)" domain as none), hyper-threading (sibling threads
 *   on CPU 0), the highest user address, the processor's architecture
 *   (PROCESSOR_ARCHITECTURE_AMD64), level (family) and revision (model
 *   << 8 | stepping, as Windows encodes x86's), PAE (always on in long
 *   mode), NX, and MemorySpeed 0 (not known to the kernel).
 * - PhyDisk (opcode 11, version 2, 568 bytes), one per disk of the
 *   block class (what /sys/block lists), numbered in its order: the
 *   logical block size as BytesPerSector, the geometry Windows reports
 *   for disks without one (63 sectors a track, 255 tracks a cylinder,
 *   the cylinders the capacity holds), no SCSI address, the disk's name
 *   (vda, sda) as Manufacturer, its partitions, no write-cache state and
 *   no boot drive letter.
 * - NIC (opcode 13, version 2), one per network interface of the initial
 *   namespace: the hardware address (its bytes in PhysicalAddr's, length
 *   PhysicalAddrLen), the interface index as Ipv4Index and Ipv6Index,
 *   the interface name as NICDescription, its IPv4 addresses (dotted,
 *   separated by ", ") as IpAddresses, and no DnsServerAddresses (the
 *   resolver is user space's).
 *
 * Then LogDisk, Power, IRQ and PnP (klog_sysconfig.h names their files).
 * Written to the stopping session only, in process context.
 */
#include <linux/blkdev.h>
#include <linux/device.h>
#include <linux/etherdevice.h>
#include <linux/inetdevice.h>
#include <linux/mm.h>
#include <linux/netdevice.h>
#include <linux/rcupdate.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/topology.h>
#include <linux/utsname.h>
#include <net/net_namespace.h>
#ifdef CONFIG_X86
#include <asm/processor.h>
#include <asm/tsc.h>
#endif

#include "klog.h"
#include "klog_internal.h"
#include "klog_proc.h"
#include "klog_sysconfig.h"
#include "klog_text.h"

#define KLOG_GROUP_SYSCONFIG		0x0b

/* EVENT_TRACE_FLAG_NO_SYSCONFIG: no configuration rundown. */
#define KLOG_FLAG_NO_SYSCONFIG		0x10000000

#define KLOG_ARCH_AMD64			9	/* PROCESSOR_ARCHITECTURE_AMD64 */
#define KLOG_ARCH_ARM64			12

/* SystemConfig_V3_CPU (x64). */
struct klog_sysconfig_cpu {
	u32 mhz;
	u32 number_of_processors;
	u32 mem_size;			/* MiB */
	u32 page_size;
	u32 allocation_granularity;
	u8 computer_name[256 * 2];	/* UTF-16, fixed */
	u8 domain_name[134 * 2];
	u64 hyper_threading_flag;
	u64 highest_user_address;
	u16 processor_architecture;
	u16 processor_level;
	u16 processor_revision;
	u8 pae_enabled;
	u8 nx_enabled;
	u32 memory_speed;
} __packed;

static_assert(sizeof(struct klog_sysconfig_cpu) == 828);

/* SystemConfig_V2_PhyDisk. */
struct klog_sysconfig_disk {
	u32 disk_number;
	u32 bytes_per_sector;
	u32 sectors_per_track;
	u32 tracks_per_cylinder;
	u64 cylinders;
	u32 scsi_port;
	u32 scsi_path;
	u32 scsi_target;
	u32 scsi_lun;
	u8 manufacturer[256 * 2];
	u32 partition_count;
	u8 write_cache_enabled;
	u8 pad;
	u8 boot_drive_letter[3 * 2];
	u8 spare[2 * 2];
} __packed;

static_assert(sizeof(struct klog_sysconfig_disk) == 568);

/* The geometry Windows reports for a disk that has none. */
#define KLOG_DISK_SECTORS_PER_TRACK	63
#define KLOG_DISK_TRACKS_PER_CYLINDER	255

/* SystemConfig_V2_NIC's fixed part; three UTF-16 strings follow. */
struct klog_sysconfig_nic {
	u64 physical_addr;
	u32 physical_addr_len;
	u32 ipv4_index;
	u32 ipv6_index;
} __packed;

/* Room for a NIC's strings: its name, its IPv4 addresses, none. */
#define KLOG_NIC_ADDRS		256
struct klog_sysconfig_scratch {
	struct klog_sysconfig_cpu cpu;
	struct klog_sysconfig_disk disk;
	char addrs[KLOG_NIC_ADDRS];
	u8 name16[IFNAMSIZ * 2];
	u8 addrs16[KLOG_NIC_ADDRS * 2];
};

void klog_sysconfig_write(struct klog_session *k, u8 type, u8 version,
			  const struct klog_part *parts, unsigned int nr_parts)
{
	struct klog_event ev = {
		.hook = KLOG_HOOK(KLOG_GROUP_SYSCONFIG, type),
		.header_type = KLOG_HDR_SYSTEM,
		.version = version,
		.tid = klog_tid(current),
		.pid = klog_pid(current),
		.parts = parts,
		.nr_parts = nr_parts,
		.target = k,
	};

	klog_write(&ev);
}

/* A fixed-size UTF-16 field holding @src, an array of @src_size (the rest zeros). */
void klog_sysconfig_name(u8 *dst, u32 room, const char *src, size_t src_size)
{
	memset(dst, 0, room);
	klog_utf16(dst, room, src, strnlen(src, min_t(size_t, room / 2 - 1, src_size)));
}

static void klog_sysconfig_cpu(struct klog_session *k,
			       struct klog_sysconfig_cpu *c)
{
	struct new_utsname *u = &init_uts_ns.name;
	char name[__NEW_UTS_LEN + 1];
	struct klog_part part = { c, sizeof(*c) };

	memset(c, 0, sizeof(*c));
#ifdef CONFIG_X86
	c->mhz = cpu_khz / 1000;
	c->processor_architecture = KLOG_ARCH_AMD64;
	c->processor_level = boot_cpu_data.x86;
	c->processor_revision = boot_cpu_data.x86_model << 8 |
				boot_cpu_data.x86_stepping;
	c->pae_enabled = 1;
	c->nx_enabled = boot_cpu_has(X86_FEATURE_NX);
#elif defined(CONFIG_ARM64)
	c->processor_architecture = KLOG_ARCH_ARM64;
#endif
	c->number_of_processors = num_online_cpus();
	c->mem_size = totalram_pages() >> (20 - PAGE_SHIFT);
	c->page_size = PAGE_SIZE;
	c->allocation_granularity = PAGE_SIZE;
	/* Read as sethostname() may write it: a copy, NUL-ended. */
	memcpy(name, u->nodename, sizeof(name));
	name[__NEW_UTS_LEN] = 0;
	klog_sysconfig_name(c->computer_name, sizeof(c->computer_name), name,
			    sizeof(name));
	memcpy(name, u->domainname, sizeof(name));
	name[__NEW_UTS_LEN] = 0;
	if (strcmp(name, "(none)"))
		klog_sysconfig_name(c->domain_name, sizeof(c->domain_name),
				    name, sizeof(name));
	c->hyper_threading_flag =
		cpumask_weight(topology_sibling_cpumask(0)) > 1;
	c->highest_user_address = TASK_SIZE_MAX - 1;
	klog_sysconfig_write(k, KLOG_SYSCONFIG_CPU, 3, &part, 1);
}

/* Is @dev of device type @type ("disk", "partition")? */
static bool klog_dev_is(struct device *dev, const char *type)
{
	return dev->type && dev->type->name && !strcmp(dev->type->name, type);
}

/* The partitions of @disk: the block class's devices it is parent of. */
static u32 klog_disk_partitions(struct class *block, struct device *disk)
{
	struct class_dev_iter iter;
	struct device *dev;
	u32 n = 0;

	class_dev_iter_init(&iter, block, NULL, NULL);
	while ((dev = class_dev_iter_next(&iter)))
		n += dev->parent == disk && klog_dev_is(dev, "partition");
	class_dev_iter_exit(&iter);
	return n;
}

struct class *klog_sysconfig_block_class(void)
{
	struct class *block = klog_kernel_symbol("block_class");

	/* The class of that name, or nothing (another symbol of the name). */
	if (!block || !block->name || strcmp(block->name, "block")) {
		pr_warn_once("etw: no block class: no PhyDisk or LogDisk records\n");
		return NULL;
	}
	return block;
}

int klog_sysconfig_disk_number(struct class *block, struct device *disk)
{
	struct class_dev_iter iter;
	struct device *dev;
	int n = 0, found = -1;

	class_dev_iter_init(&iter, block, NULL, NULL);
	while ((dev = class_dev_iter_next(&iter))) {
		if (dev == disk) {
			found = n;
			break;
		}
		n += klog_dev_is(dev, "disk");
	}
	class_dev_iter_exit(&iter);
	return found;
}

static void klog_sysconfig_disks(struct klog_session *k,
				 struct klog_sysconfig_disk *d)
{
	struct class *block = klog_sysconfig_block_class();
	struct klog_part part = { d, sizeof(*d) };
	struct class_dev_iter iter;
	struct gendisk *disk;
	struct device *dev;
	u32 number = 0;
	u64 bytes;

	if (!block)
		return;
	class_dev_iter_init(&iter, block, NULL, NULL);
	while ((dev = class_dev_iter_next(&iter))) {
		if (!klog_dev_is(dev, "disk"))
			continue;
		disk = dev_to_disk(dev);
		memset(d, 0, sizeof(*d));
		d->disk_number = number++;
		d->bytes_per_sector = queue_logical_block_size(disk->queue);
		d->sectors_per_track = KLOG_DISK_SECTORS_PER_TRACK;
		d->tracks_per_cylinder = KLOG_DISK_TRACKS_PER_CYLINDER;
		bytes = (u64)get_capacity(disk) << SECTOR_SHIFT;
		d->cylinders = div64_u64(bytes, (u64)d->bytes_per_sector *
					 KLOG_DISK_SECTORS_PER_TRACK *
					 KLOG_DISK_TRACKS_PER_CYLINDER);
		klog_sysconfig_name(d->manufacturer, sizeof(d->manufacturer),
				    disk->disk_name, sizeof(disk->disk_name));
		d->partition_count = klog_disk_partitions(block, dev);
		klog_sysconfig_write(k, KLOG_SYSCONFIG_PHYDISK, 2, &part, 1);
	}
	class_dev_iter_exit(&iter);
}

/* @dev's IPv4 addresses, "a.b.c.d, ..." in @buf (RCU held). */
static void klog_sysconfig_ipv4(struct net_device *dev, char *buf, u32 room)
{
	struct in_device *in = __in_dev_get_rcu(dev);
	const struct in_ifaddr *ifa;
	u32 n = 0;

	buf[0] = 0;
	if (!in)
		return;
	in_dev_for_each_ifa_rcu(ifa, in) {
		if (n + sizeof("255.255.255.255, ") > room)
			break;
		n += scnprintf(buf + n, room - n, "%s%pI4", n ? ", " : "",
			       &ifa->ifa_local);
	}
}

static void klog_sysconfig_nics(struct klog_session *k,
				struct klog_sysconfig_scratch *sc)
{
	static const u8 empty[2];
	struct klog_sysconfig_nic nic;
	struct klog_part parts[4] = {
		{ &nic, sizeof(nic) }, { sc->name16, 0 },
		{ sc->addrs16, 0 }, { empty, sizeof(empty) },
	};
	struct net_device *dev;

	rcu_read_lock();
	for_each_netdev_rcu(&init_net, dev) {
		memset(&nic, 0, sizeof(nic));
		nic.physical_addr_len = min_t(u32, dev->addr_len,
					      sizeof(nic.physical_addr));
		memcpy(&nic.physical_addr, dev->dev_addr, nic.physical_addr_len);
		nic.ipv4_index = dev->ifindex;
		nic.ipv6_index = dev->ifindex;
		parts[1].size = klog_utf16(sc->name16, sizeof(sc->name16),
					   dev->name, strnlen(dev->name, IFNAMSIZ));
		klog_sysconfig_ipv4(dev, sc->addrs, sizeof(sc->addrs));
		parts[2].size = klog_utf16(sc->addrs16, sizeof(sc->addrs16),
					   sc->addrs, strlen(sc->addrs));
		klog_sysconfig_write(k, KLOG_SYSCONFIG_NIC, 2, parts,
				     ARRAY_SIZE(parts));
	}
	rcu_read_unlock();
}

/*
 * The configuration rundown of @k, at its stop (process context).
 * Without memory for its scratch, nothing: one record counted lost.
 */
void klog_sysconfig(struct klog_session *k)
{
	struct klog_sysconfig_scratch *sc;

	if (k->flags & KLOG_FLAG_NO_SYSCONFIG)
		return;
	sc = kmalloc(sizeof(*sc), GFP_KERNEL);
	if (!sc) {
		klog_lanes_add_lost(k, 1);
		return;
	}
	/*
	 * Each class may fill a lane's buffer: as the rundown does, a spare
	 * for each lane before it (the walks hold locks a hand-over may not
	 * take inside them), or the last classes are lost at stop.
	 */
	klog_lanes_keep_up(k);
	klog_sysconfig_cpu(k, &sc->cpu);
	klog_sysconfig_disks(k, &sc->disk);
	klog_lanes_keep_up(k);
	klog_sysconfig_nics(k, sc);
	kfree(sc);
	klog_lanes_keep_up(k);
	klog_sysconfig_logdisks(k);
	klog_lanes_keep_up(k);
	klog_sysconfig_power(k);
	klog_lanes_keep_up(k);
	klog_sysconfig_irqs(k);
	klog_lanes_keep_up(k);
	klog_sysconfig_pnp(k);
}
