// SPDX-License-Identifier: GPL-2.0
/*
 * /dev/etw: the misc device and its ioctl dispatcher.
 *
 * Every ioctl takes a struct whose first __u32 is its size.  The dispatcher
 * reads that size, copies the struct with copy_struct_from_user() (so old
 * callers with a shorter struct and new callers with zeroed extra fields
 * both work), runs the handler on a kernel copy and writes the result back.
 * Handlers never see a user pointer other than the ones inside the struct.
 */
#include <linux/fs.h>
#include <linux/miscdevice.h>
#include <linux/module.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include <linux/etw.h>

#include "internal.h"

static struct kmem_cache *etw_file_cache;

static int etw_ioctl_version(struct etw_file *ef, void *arg)
{
	struct etw_version *v = arg;
	unsigned int i;

	if (v->flags)
		return -EINVAL;
	for (i = 0; i < ARRAY_SIZE(v->reserved); i++)
		if (v->reserved[i])
			return -EINVAL;

	v->abi_major = ETW_ABI_MAJOR;
	v->abi_minor = ETW_ABI_MINOR;
	v->features = ETW_FEATURE_MASK;
	v->max_sessions = 64;
	v->max_sessions_per_provider = 8;
	return 0;
}

/* One on-stack buffer large enough for any ioctl's struct. */
union etw_ioctl_buffer {
	struct etw_version version;
};

/**
 * struct etw_ioctl_op - how to run one ioctl
 * @size: sizeof() the kernel's struct
 * @min_size: the first published size; anything shorter is -EINVAL
 * @execute: the handler, on a kernel copy of the struct
 */
struct etw_ioctl_op {
	unsigned int size;
	unsigned int min_size;
	int (*execute)(struct etw_file *ef, void *arg);
};

#define ETW_IOCTL_OP(_nr, _struct, _min, _fn)				\
	[_nr] = {							\
		.size = sizeof(_struct) +				\
			BUILD_BUG_ON_ZERO(sizeof(union etw_ioctl_buffer) < \
					  sizeof(_struct)),		\
		.min_size = (_min),					\
		.execute = (_fn),					\
	}

static_assert(sizeof(struct etw_version) >= ETW_VERSION_SIZE_VER0);

static const struct etw_ioctl_op etw_ioctl_ops[] = {
	ETW_IOCTL_OP(_IOC_NR(ETW_IOC_VERSION), struct etw_version,
		     ETW_VERSION_SIZE_VER0, etw_ioctl_version),
};

static long etw_ioctl(struct file *filp, unsigned int cmd, unsigned long arg)
{
	struct etw_file *ef = filp->private_data;
	void __user *uarg = (void __user *)arg;
	const struct etw_ioctl_op *op;
	union etw_ioctl_buffer buf;
	unsigned int nr = _IOC_NR(cmd);
	u32 usize;
	int ret;

	if (cmd != _IO(ETW_IOC_MAGIC, nr) || nr >= ARRAY_SIZE(etw_ioctl_ops))
		return -ENOTTY;
	op = &etw_ioctl_ops[nr];
	if (!op->execute)
		return -ENOTTY;

	if (get_user(usize, (u32 __user *)uarg))
		return -EFAULT;
	if (usize < op->min_size)
		return -EINVAL;
	if (usize > PAGE_SIZE)
		return -E2BIG;

	ret = copy_struct_from_user(&buf, op->size, uarg, usize);
	if (ret)
		return ret;

	ret = op->execute(ef, &buf);
	if (ret)
		return ret;

	if (copy_to_user(uarg, &buf, min_t(size_t, usize, op->size)))
		return -EFAULT;
	return 0;
}

static int etw_open(struct inode *inode, struct file *filp)
{
	struct etw_file *ef;

	ef = kmem_cache_zalloc(etw_file_cache, GFP_KERNEL);
	if (!ef)
		return -ENOMEM;
	mutex_init(&ef->lock);
	ef->tgid = task_tgid_nr(current);
	filp->private_data = ef;
	return nonseekable_open(inode, filp);
}

static int etw_release(struct inode *inode, struct file *filp)
{
	struct etw_file *ef = filp->private_data;

	mutex_destroy(&ef->lock);
	kmem_cache_free(etw_file_cache, ef);
	return 0;
}

static const struct file_operations etw_fops = {
	.owner = THIS_MODULE,
	.open = etw_open,
	.release = etw_release,
	.unlocked_ioctl = etw_ioctl,
	.compat_ioctl = compat_ptr_ioctl,
};

/*
 * Mode 0666: any process may register providers and write events, as on
 * Windows.  Controlling sessions is checked per ioctl.
 */
static struct miscdevice etw_miscdev = {
	.minor = MISC_DYNAMIC_MINOR,
	.name = ETW_DEVICE_NAME,
	.fops = &etw_fops,
	.mode = 0666,
};

int etw_dev_init(void)
{
	int ret;

	/*
	 * A cache of our own: with slub_debug, destroying it while objects
	 * remain is reported, which is how the selftests catch leaks.
	 */
	etw_file_cache = KMEM_CACHE(etw_file, 0);
	if (!etw_file_cache)
		return -ENOMEM;

	ret = misc_register(&etw_miscdev);
	if (ret)
		goto out_destroy_cache;
	return 0;

out_destroy_cache:
	kmem_cache_destroy(etw_file_cache);
	return ret;
}

void etw_dev_exit(void)
{
	misc_deregister(&etw_miscdev);
	kmem_cache_destroy(etw_file_cache);
}
