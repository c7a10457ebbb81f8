// SPDX-License-Identifier: GPL-2.0
/*
 * SystemConfig/LogDisk (opcode 12, version 2, 112 bytes): one record per
 * mounted file system on a block device (a live super block with an
 * s_bdev: the kernel's list, so every mount namespace's), as Windows
 * writes one per volume:
 *
 * - StartOffset: the partition's first byte on its disk (0 for a whole
 *   disk), PartitionSize its bytes;
 * - DiskNumber: the disk's PhyDisk number, PartitionNumber the partition
 *   (0: the whole disk, as Windows numbers the raw disk), DriveType
 *   CONFIG_DRIVE_PARTITION (1) for a partition, CONFIG_DRIVE_VOLUME (2)
 *   for a whole disk;
 * - Size: the record's size, as Windows' LOGICAL_DISK_EXTENTS says;
 * - DriveLetterString empty: Linux has no drive letters, the trace's file
 *   names are Linux paths, and a mount point does not fit in 4 characters;
 * - BytesPerSector the logical block size, SectorsPerCluster the file
 *   system's fragment size in sectors, TotalNumberOfClusters and
 *   NumberOfFreeClusters its statfs f_blocks and f_bavail (what an
 *   unprivileged user may still use, as Windows counts for the caller);
 * - FileSystem: the file system type's name (ext4), VolumeExt 0 (no
 *   extents follow).
 *
 * The walk: each file system type that needs a device, then its super
 * blocks (iterate_supers_type(): s_umount held for reading, so statfs may
 * sleep as in statfs(2)).
 */
#include <linux/blkdev.h>
#include <linux/fs.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/statfs.h>
#include <linux/string.h>

#include "../compat.h"
#include "klog.h"
#include "klog_internal.h"
#include "klog_proc.h"
#include "klog_sysconfig.h"

#define KLOG_DRIVE_PARTITION	1	/* CONFIG_DRIVE_PARTITION */
#define KLOG_DRIVE_VOLUME	2	/* CONFIG_DRIVE_VOLUME */

/* SystemConfig_V2_LogDisk. */
struct klog_sysconfig_logdisk {
	u64 start_offset;
	u64 partition_size;
	u32 disk_number;
	u32 size;
	u32 drive_type;
	u8 drive_letter[4 * 2];
	u32 pad1;
	u32 partition_number;
	u32 sectors_per_cluster;
	u32 bytes_per_sector;
	u32 pad2;
	s64 free_clusters;
	s64 total_clusters;
	u8 file_system[16 * 2];
	u32 volume_ext;
	u32 pad3;
} __packed;

static_assert(sizeof(struct klog_sysconfig_logdisk) == 112);

struct klog_logdisk_walk {
	struct klog_session *k;
	struct class *block;
};

/* One super block, s_umount held for reading. */
static void klog_sysconfig_logdisk(struct super_block *sb, void *arg)
{
	struct klog_logdisk_walk *w = arg;
	struct block_device *bdev = sb->s_bdev;
	struct klog_sysconfig_logdisk d;
	struct klog_part part = { &d, sizeof(d) };
	struct kstatfs st;
	u32 cluster;
	int disk;

	if (!bdev || !sb->s_root)
		return;
	disk = klog_sysconfig_disk_number(w->block, disk_to_dev(bdev->bd_disk));
	if (disk < 0)
		return;
	memset(&d, 0, sizeof(d));
	d.start_offset = (u64)bdev->bd_start_sect << SECTOR_SHIFT;
	d.partition_size = bdev_nr_bytes(bdev);
	d.disk_number = disk;
	d.size = sizeof(d);
	d.partition_number = etw_bdev_partno(bdev);
	d.drive_type = d.partition_number ? KLOG_DRIVE_PARTITION :
					    KLOG_DRIVE_VOLUME;
	d.bytes_per_sector = bdev_logical_block_size(bdev);
	/*
	 * What statfs(2) calls, without its mount (the rundown has none):
	 * the file system's own statfs; a failure leaves the counts 0.
	 */
	memset(&st, 0, sizeof(st));
	if (sb->s_op->statfs && !sb->s_op->statfs(sb->s_root, &st)) {
		cluster = st.f_frsize ?: st.f_bsize;
		d.sectors_per_cluster = cluster / d.bytes_per_sector;
		d.total_clusters = st.f_blocks;
		d.free_clusters = st.f_bavail;
	}
	klog_sysconfig_name(d.file_system, sizeof(d.file_system),
			    sb->s_type->name, 16);
	klog_sysconfig_write(w->k, KLOG_SYSCONFIG_LOGDISK, 2, &part, 1);
}

/* Most block-device file system types walked: Linux has some 30. */
#define KLOG_LOGDISK_TYPES	64

/*
 * The file system types that need a block device, each held by its
 * module; their count.  The list and its lock are not exported: looked up
 * as the block class (data only: no unexported function is called, which
 * IBT could refuse).
 */
static int klog_logdisk_types(struct file_system_type **types)
{
	struct file_system_type **list = klog_kernel_symbol("file_systems");
	rwlock_t *lock = klog_kernel_symbol("file_systems_lock");
	struct file_system_type *t;
	int n = 0;

	if (!list || !lock)
		return -ENOENT;
	read_lock(lock);
	for (t = *list; t && n < KLOG_LOGDISK_TYPES; t = t->next)
		if ((t->fs_flags & FS_REQUIRES_DEV) && try_module_get(t->owner))
			types[n++] = t;
	read_unlock(lock);
	return n;
}

void klog_sysconfig_logdisks(struct klog_session *k)
{
	struct klog_logdisk_walk w = { k, klog_sysconfig_block_class() };
	struct file_system_type **types;
	int i, n;

	if (!w.block)
		return;
	types = kmalloc_array(KLOG_LOGDISK_TYPES, sizeof(*types), GFP_KERNEL);
	if (!types) {
		klog_lanes_add_lost(k, 1);
		return;
	}
	n = klog_logdisk_types(types);
	if (n < 0)
		pr_warn_once("etw: no file system list: no LogDisk records\n");
	for (i = 0; i < n; i++) {
		iterate_supers_type(types[i], klog_sysconfig_logdisk, &w);
		module_put(types[i]->owner);
	}
	kfree(types);
}
