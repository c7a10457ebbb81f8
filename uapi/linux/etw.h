/* SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT */
/*
 * etw: Event Tracing for Windows semantics on Linux.
 *
 * The one header shared by the kernel module (etw.ko) and userspace
 * (libetw, the etw tool, the selftests).  Every struct here has a fixed
 * layout: only __u8/__u16/__u32/__u64 fields, pointers carried as __u64,
 * explicit padding, no implicit holes, identical in 32- and 64-bit builds
 * (checked by libetw/tests/uapi_layout.c under -m32 and -m64).
 */
#ifndef _UAPI_LINUX_ETW_H
#define _UAPI_LINUX_ETW_H

#include <linux/ioctl.h>
#include <linux/types.h>

/**
 * DOC: ABI versioning
 *
 * ETW_ABI_MAJOR changes only when an existing ioctl or struct changes
 * incompatibly; ETW_ABI_MINOR grows when something is added.  Userspace
 * reads both with ETW_IOC_VERSION and refuses to run against a different
 * major.  Structs that may grow start with a __u32 @size that the caller
 * fills with sizeof() as it knows it; the kernel accepts a smaller size
 * (the missing tail reads as zero) and a larger one only when the bytes it
 * does not know are zero (else -E2BIG).
 */
#define ETW_ABI_MAJOR	0
#define ETW_ABI_MINOR	1

/**
 * DOC: Errors
 *
 * Every ioctl follows the same errno contract:
 *
 * - ``ENOTTY``: the command number is unknown.
 * - ``EFAULT``: a user pointer (the argument or one it contains) could not
 *   be read or written in full.
 * - ``EINVAL``: an unknown flag is set, a reserved field is not zero, or a
 *   size is below the first published size of the struct.
 * - ``E2BIG``: @size is larger than the kernel's struct and the extra bytes
 *   are not zero.
 */

/* Device node: /dev/etw, a misc device, root:root mode 0666 (udev/60-etw.rules). */
#define ETW_DEVICE_NAME		"etw"

/*
 * ioctl type byte: 0xE7, unused in Documentation/userspace-api/ioctl/ioctl-number.rst.
 * As in iommufd, the numbers carry no size: every argument struct states
 * its own size in its first field, so a struct can grow without a new
 * number.
 */
#define ETW_IOC_MAGIC		0xE7

/**
 * struct etw_version - ABI and module version, read with ETW_IOC_VERSION
 * @size: in: sizeof(struct etw_version) as the caller knows it
 * @flags: in: must be 0
 * @abi_major: out: ETW_ABI_MAJOR of the running module
 * @abi_minor: out: ETW_ABI_MINOR of the running module
 * @features: out: ETW_FEATURE_* bits the running module supports
 * @max_sessions: out: maximum number of sessions (loggers), 64 as on Windows
 * @max_sessions_per_provider: out: sessions that may enable one provider (8)
 * @reserved: in: must be 0
 */
struct etw_version {
	__u32 size;
	__u32 flags;
	__u32 abi_major;
	__u32 abi_minor;
	__u64 features;
	__u32 max_sessions;
	__u32 max_sessions_per_provider;
	__u64 reserved[4];
};

/* The size of the first published layout of struct etw_version. */
#define ETW_VERSION_SIZE_VER0	64

/* Feature bits reported in etw_version.features; none yet. */
#define ETW_FEATURE_MASK	0ULL

/* Read the ABI version (struct etw_version). */
#define ETW_IOC_VERSION		_IO(ETW_IOC_MAGIC, 0x00)

#endif /* _UAPI_LINUX_ETW_H */
