// SPDX-License-Identifier: GPL-2.0
/*
 * Writer fds (ETW_IOC_WRITER_OPEN): a file description of its own for each
 * writing thread.
 *
 * Every ioctl begins with fdget().  In a process with more than one thread
 * (libetw's callback thread makes every provider process one) that takes
 * and drops a reference on the struct file: one cache line that every CPU
 * writing through the same /dev/etw file writes twice per event.  A writer
 * fd is another struct file bound to the same struct etw_file, so threads
 * that write through writer fds of their own write no common line on the
 * way in.  Its ioctl (etw_writer_ioctl(), in write_fast.c) is the file's, for
 * ETW_IOC_WRITE and ETW_IOC_WRITE_SHORT only.
 *
 * A writer fd holds a reference on the etw_file's memory, not on its
 * registrations: they go when the /dev/etw file is released, as they
 * always did, and a write through a writer fd afterwards finds no
 * registration (EBADF, as a stale handle).
 */
#include <linux/compat.h>
#include <linux/fcntl.h>
#include <linux/fs.h>

#include "internal.h"

static int etw_writer_release(struct inode *inode, struct file *filp)
{
	etw_file_put(filp->private_data);
	return 0;
}

static const struct file_operations etw_writer_fops = {
	.owner = THIS_MODULE,
	.release = etw_writer_release,
	.unlocked_ioctl = etw_writer_ioctl,
#ifdef CONFIG_COMPAT
	.compat_ioctl = etw_writer_compat_ioctl,
#endif
};

int etw_writer_open(struct etw_file *ef, struct etw_writer_open *arg,
		    struct etw_new_fd *nfd)
{
	int ret;

	if (arg->flags || arg->reserved)
		return -EINVAL;
	/* The caller's /dev/etw file holds a reference: never the first. */
	refcount_inc(&ef->ref);
	/* Once the file exists, its release drops the reference. */
	ret = etw_new_fd(nfd, "[etw-writer]", &etw_writer_fops, ef,
			 O_RDWR | O_CLOEXEC);
	if (ret) {
		etw_file_put(ef);
		return ret;
	}
	arg->fd = nfd->fd;
	return 0;
}
