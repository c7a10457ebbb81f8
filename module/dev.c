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
#include <linux/anon_inodes.h>
#include <linux/capability.h>
#include <linux/cred.h>
#include <linux/err.h>
#include <linux/file.h>
#include <linux/fs.h>
#include <linux/miscdevice.h>
#include <linux/mm.h>
#include <linux/nospec.h>
#include <linux/module.h>
#include <linux/poll.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include <linux/uidgid.h>
#include <linux/uuid.h>
#include <linux/vmalloc.h>
#include <linux/etw.h>

#include "compat.h"
#include "internal.h"
#include "klog/klog_internal.h"

/* The control plane: sessions, providers, enables, registrations. */
DEFINE_MUTEX(etw_lock);

static struct kmem_cache *etw_file_cache;

/*
 * Windows lets Administrators and "Performance Log Users" control sessions;
 * here CAP_SYS_ADMIN, CAP_PERFMON, or membership in this group.
 */
static int control_gid = -1;
module_param(control_gid, int, 0644);
MODULE_PARM_DESC(control_gid, "Group whose members may control sessions (-1: none)");

bool etw_capable(void)
{
	int gid = READ_ONCE(control_gid);

	if (capable(CAP_SYS_ADMIN) || perfmon_capable())
		return true;
	return gid >= 0 && in_group_p(make_kgid(current_user_ns(), gid));
}

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

/* As on Windows, only those who may control sessions enumerate providers. */
static int etw_ioctl_provider_list(struct etw_file *ef, void *arg)
{
	if (!etw_capable())
		return -EACCES;
	return etw_registry_list(arg);
}

static int etw_ioctl_provider_info(struct etw_file *ef, void *arg)
{
	if (!etw_capable())
		return -EACCES;
	return etw_registry_info(arg);
}

static int etw_ioctl_register(struct etw_file *ef, void *arg)
{
	return etw_registry_register(ef, arg);
}

static int etw_ioctl_unregister(struct etw_file *ef, void *arg)
{
	struct etw_provider_unregister *u = arg;

	if (u->flags || u->reserved)
		return -EINVAL;
	return etw_registry_unregister(ef, u->reg_id);
}

static int etw_ioctl_write(struct etw_file *ef, void *arg)
{
	/* The classic kinds take struct etw_trace_write: same head and size. */
	switch (((struct etw_event_write *)arg)->kind) {
	case ETW_WRITE_MESSAGE:
		/* Its common case has a lane of its own; the rest, the full path. */
		if (!etw_write_message_fast(arg))
			return 0;
		fallthrough;
	case ETW_WRITE_TRACE:
	case ETW_WRITE_INSTANCE:
		return etw_write_classic(arg);
	default:
		return etw_write(ef, arg);
	}
}

static int etw_ioctl_write_short(struct etw_file *ef, void *arg)
{
	return etw_write_short(ef, arg);
}

static int etw_ioctl_set_info(struct etw_file *ef, void *arg)
{
	return etw_provider_set_info(ef, arg);
}

static int etw_ioctl_session_start(struct etw_file *ef, void *arg)
{
	if (!etw_capable())
		return -EACCES;
	return etw_session_start(arg);
}

static int etw_ioctl_session_control(struct etw_file *ef, void *arg)
{
	if (!etw_capable())
		return -EACCES;
	return etw_session_control(arg);
}

/* TraceSetInformation / TraceQueryInformation: a controller's rights. */
static int etw_ioctl_trace_set_info(struct etw_file *ef, void *arg)
{
	if (!etw_capable())
		return -EACCES;
	return klog_trace_set_info(arg);
}

static int etw_ioctl_trace_query_info(struct etw_file *ef, void *arg)
{
	if (!etw_capable())
		return -EACCES;
	return klog_trace_query_info(arg);
}

static int etw_ioctl_enable(struct etw_file *ef, void *arg)
{
	struct etw_enable *e = arg;
	u16 ids[ETW_MAX_FILTER_EVENT_IDS];
	struct etw_payload_filter *pf;
	struct etw_cb_filter *filter;

	if (!etw_capable())
		return -EACCES;
	if ((e->flags & ~ETW_ENABLE_F_MASK) ||
	    e->reserved0[0] || e->reserved0[1] || e->reserved0[2] ||
	    e->reserved ||
	    e->control_code > ETW_CONTROL_CODE_CAPTURE_STATE ||
	    (e->enable_property & ~ETW_ENABLE_PROPERTY_MASK) ||
	    e->pid_count > ETW_MAX_FILTER_PIDS ||
	    e->event_id_count > ETW_MAX_FILTER_EVENT_IDS ||
	    e->event_ids_enable > 1)
		return -EINVAL;
	if (!(e->flags & ETW_ENABLE_F_FILTER) &&
	    (e->filter_type || e->filter_size || e->filter_data))
		return -EINVAL;
	if (!(e->flags & ETW_ENABLE_F_PAYLOAD) &&
	    (e->payload_size || e->payload_data))
		return -EINVAL;
	/* The null GUID names no provider (EnableTraceEx2 refuses it too). */
	if (guid_is_null((const guid_t *)e->guid))
		return -EINVAL;
	if (e->event_id_count &&
	    copy_from_user(ids, u64_to_user_ptr(e->event_ids),
			   e->event_id_count * sizeof(ids[0])))
		return -EFAULT;
	pf = etw_payload_filter_copy(e);
	if (IS_ERR(pf))
		return PTR_ERR(pf);
	filter = etw_cb_filter_copy(e);
	if (IS_ERR(filter)) {
		kfree(pf);
		return PTR_ERR(filter);
	}
	return etw_registry_enable(e, ids, filter, pf);
}

static int etw_ioctl_buffer_read(struct etw_file *ef, void *arg)
{
	if (!etw_capable())
		return -EACCES;
	return etw_session_buffer_read(arg);
}

/* Any process acknowledges its own notifications: no privilege. */
static int etw_ioctl_notify_ack(struct etw_file *ef, void *arg)
{
	return etw_notify_ack(ef, arg);
}

static int etw_ioctl_consumer_attach(struct etw_file *ef, void *arg,
				     struct etw_new_fd *nfd)
{
	if (!etw_capable())
		return -EACCES;
	return etw_consumer_attach(arg, nfd);
}

/* Any process writes events: no privilege. */
static int etw_ioctl_writer_open(struct etw_file *ef, void *arg,
				 struct etw_new_fd *nfd)
{
	return etw_writer_open(ef, arg, nfd);
}

/**
 * etw_new_fd() - make the fd an ioctl returns, without installing it
 * @nfd: filled: the fd, its file, no abort hook
 * @name: the anon inode's name
 * @fops: the file's operations; their release undoes the handler's work
 * @priv: the file's private_data
 * @flags: O_RDWR, O_CLOEXEC
 *
 * The dispatcher installs the fd once the ioctl's struct was copied back
 * (struct etw_new_fd).
 *
 * Return: 0, or a negative errno and nothing made.
 */
int etw_new_fd(struct etw_new_fd *nfd, const char *name,
	       const struct file_operations *fops, void *priv, int flags)
{
	nfd->fd = get_unused_fd_flags(flags);
	if (nfd->fd < 0)
		return nfd->fd;
	nfd->file = anon_inode_getfile(name, fops, priv, flags);
	if (IS_ERR(nfd->file)) {
		put_unused_fd(nfd->fd);
		return PTR_ERR(nfd->file);
	}
	nfd->abort = NULL;
	return 0;
}

/*
 * The struct of an ioctl that made @nfd could not be copied back: the
 * caller never learns the fd, so nothing of it remains.  The file's
 * release runs before the ioctl returns (fput() from a task defers it to
 * the return to user space).
 */
static void etw_new_fd_abort(struct etw_new_fd *nfd)
{
	if (nfd->abort)
		nfd->abort(nfd->file);
	put_unused_fd(nfd->fd);
	fput(nfd->file);
}

/* One on-stack buffer large enough for any ioctl's struct. */
union etw_ioctl_buffer {
	struct etw_version version;
	struct etw_provider_register reg;
	struct etw_provider_unregister unreg;
	struct etw_event_write write;
	struct etw_trace_write trace_write;
	struct etw_event_write_short write_short;
	struct etw_session_start start;
	struct etw_session_control control;
	struct etw_enable enable;
	struct etw_buffer_read bread;
	struct etw_provider_set_info set_info;
	struct etw_notify_ack ack;
	struct etw_consumer_attach cattach;
	struct etw_writer_open wopen;
	struct etw_trace_info trace_info;
	struct etw_provider_list plist;
	struct etw_provider_info pinfo;
};

/**
 * struct etw_ioctl_op - how to run one ioctl
 * @size: sizeof() the kernel's struct
 * @min_size: the first published size; anything shorter is -EINVAL
 * @out_start: the first byte the handler may change; only the struct from
 *	there on is copied back (an event write copies back its two counts,
 *	not the 104 bytes it came with)
 * @execute: the handler, on a kernel copy of the struct
 * @open: instead of @execute, the handler of an ioctl that returns an fd:
 *	it makes the fd with etw_new_fd(), and the fd is installed only
 *	once the struct was copied back
 */
struct etw_ioctl_op {
	unsigned int size;
	unsigned int min_size;
	unsigned int out_start;
	int (*execute)(struct etw_file *ef, void *arg);
	int (*open)(struct etw_file *ef, void *arg, struct etw_new_fd *nfd);
};

#define ETW_IOCTL_SIZE(_struct)						\
	(sizeof(_struct) +						\
	 BUILD_BUG_ON_ZERO(sizeof(union etw_ioctl_buffer) < sizeof(_struct)))

#define ETW_IOCTL_OP_OUT(_nr, _struct, _min, _fn, _out)				\
	[_nr] = {							\
		.size = ETW_IOCTL_SIZE(_struct),			\
		.min_size = (_min),					\
		.out_start = (_out),					\
		.execute = (_fn),					\
	}

/* An ioctl that returns an fd: the whole struct goes back. */
#define ETW_IOCTL_OP_FD(_nr, _struct, _min, _fn)			\
	[_nr] = {							\
		.size = ETW_IOCTL_SIZE(_struct),			\
		.min_size = (_min),					\
		.open = (_fn),						\
	}

#define ETW_IOCTL_OP(_nr, _struct, _min, _fn)				\
	ETW_IOCTL_OP_OUT(_nr, _struct, _min, _fn, 0)

static_assert(sizeof(struct etw_version) >= ETW_VERSION_SIZE_VER0);
static_assert(sizeof(struct etw_provider_register) >= ETW_PROVIDER_REGISTER_SIZE_VER0);
static_assert(sizeof(struct etw_provider_unregister) >= ETW_PROVIDER_UNREGISTER_SIZE_VER0);
static_assert(sizeof(struct etw_event_write) >= ETW_EVENT_WRITE_SIZE_VER0);
/* ETW_IOC_WRITE copies sizeof(struct etw_event_write) bytes of either. */
static_assert(sizeof(struct etw_trace_write) <= sizeof(struct etw_event_write));
static_assert(sizeof(struct etw_event_write_short) >= ETW_EVENT_WRITE_SHORT_SIZE_VER0);
static_assert(sizeof(struct etw_session_start) >= ETW_SESSION_START_SIZE_VER0);
static_assert(sizeof(struct etw_session_control) >= ETW_SESSION_CONTROL_SIZE_VER0);
static_assert(sizeof(struct etw_enable) >= ETW_ENABLE_SIZE_VER0);
static_assert(sizeof(struct etw_buffer_read) >= ETW_BUFFER_READ_SIZE_VER0);
static_assert(sizeof(struct etw_provider_set_info) >= ETW_PROVIDER_SET_INFO_SIZE_VER0);
static_assert(sizeof(struct etw_notify_ack) >= ETW_NOTIFY_ACK_SIZE_VER0);
static_assert(sizeof(struct etw_consumer_attach) >= ETW_CONSUMER_ATTACH_SIZE_VER0);
static_assert(sizeof(struct etw_writer_open) >= ETW_WRITER_OPEN_SIZE_VER0);
static_assert(sizeof(struct etw_trace_info) == ETW_TRACE_INFO_SIZE_VER0);
static_assert(sizeof(struct etw_provider_list) >= ETW_PROVIDER_LIST_SIZE_VER0);
static_assert(sizeof(struct etw_provider_info) >= ETW_PROVIDER_INFO_SIZE_VER0);

static const struct etw_ioctl_op etw_ioctl_ops[] = {
	ETW_IOCTL_OP(_IOC_NR(ETW_IOC_VERSION), struct etw_version,
		     ETW_VERSION_SIZE_VER0, etw_ioctl_version),
	ETW_IOCTL_OP(_IOC_NR(ETW_IOC_PROVIDER_REGISTER), struct etw_provider_register,
		     ETW_PROVIDER_REGISTER_SIZE_VER0, etw_ioctl_register),
	ETW_IOCTL_OP(_IOC_NR(ETW_IOC_PROVIDER_UNREGISTER), struct etw_provider_unregister,
		     ETW_PROVIDER_UNREGISTER_SIZE_VER0, etw_ioctl_unregister),
	ETW_IOCTL_OP_OUT(_IOC_NR(ETW_IOC_WRITE), struct etw_event_write,
			 ETW_EVENT_WRITE_SIZE_VER0, etw_ioctl_write,
			 offsetof(struct etw_event_write, written)),
	ETW_IOCTL_OP(_IOC_NR(ETW_IOC_SESSION_START), struct etw_session_start,
		     ETW_SESSION_START_SIZE_VER0, etw_ioctl_session_start),
	ETW_IOCTL_OP(_IOC_NR(ETW_IOC_SESSION_CONTROL), struct etw_session_control,
		     ETW_SESSION_CONTROL_SIZE_VER0, etw_ioctl_session_control),
	ETW_IOCTL_OP(_IOC_NR(ETW_IOC_ENABLE), struct etw_enable,
		     ETW_ENABLE_SIZE_VER0, etw_ioctl_enable),
	ETW_IOCTL_OP(_IOC_NR(ETW_IOC_BUFFER_READ), struct etw_buffer_read,
		     ETW_BUFFER_READ_SIZE_VER0, etw_ioctl_buffer_read),
	ETW_IOCTL_OP(_IOC_NR(ETW_IOC_PROVIDER_SET_INFO), struct etw_provider_set_info,
		     ETW_PROVIDER_SET_INFO_SIZE_VER0, etw_ioctl_set_info),
	ETW_IOCTL_OP_FD(_IOC_NR(ETW_IOC_WRITER_OPEN), struct etw_writer_open,
			ETW_WRITER_OPEN_SIZE_VER0, etw_ioctl_writer_open),
	ETW_IOCTL_OP(_IOC_NR(ETW_IOC_NOTIFY_ACK), struct etw_notify_ack,
		     ETW_NOTIFY_ACK_SIZE_VER0, etw_ioctl_notify_ack),
	ETW_IOCTL_OP_FD(_IOC_NR(ETW_IOC_CONSUMER_ATTACH), struct etw_consumer_attach,
			ETW_CONSUMER_ATTACH_SIZE_VER0, etw_ioctl_consumer_attach),
	/* Nothing goes back. */
	ETW_IOCTL_OP_OUT(_IOC_NR(ETW_IOC_WRITE_SHORT), struct etw_event_write_short,
			 ETW_EVENT_WRITE_SHORT_SIZE_VER0, etw_ioctl_write_short,
			 sizeof(struct etw_event_write_short)),
	ETW_IOCTL_OP(_IOC_NR(ETW_IOC_TRACE_SET_INFO), struct etw_trace_info,
		     ETW_TRACE_INFO_SIZE_VER0, etw_ioctl_trace_set_info),
	ETW_IOCTL_OP(_IOC_NR(ETW_IOC_TRACE_QUERY_INFO), struct etw_trace_info,
		     ETW_TRACE_INFO_SIZE_VER0, etw_ioctl_trace_query_info),
	ETW_IOCTL_OP(_IOC_NR(ETW_IOC_PROVIDER_LIST), struct etw_provider_list,
		     ETW_PROVIDER_LIST_SIZE_VER0, etw_ioctl_provider_list),
	ETW_IOCTL_OP(_IOC_NR(ETW_IOC_PROVIDER_INFO), struct etw_provider_info,
		     ETW_PROVIDER_INFO_SIZE_VER0, etw_ioctl_provider_info),
};

/*
 * ETW_IOC_WRITE, the hot path, for a request of today's size at an 8-byte
 * aligned address: its 13 words are read in one user access window (no
 * hardened-usercopy check of the stack copy, no byte-counted copy), the
 * handler is called directly rather than through the table, and only the
 * two counts go back.  What the generic path would reject or treat
 * differently (another size, an unaligned or unreadable request) goes to
 * it unchanged: -ENOIOCTLCMD.
 */
static long etw_ioctl_write_fast(struct etw_file *ef, void __user *uarg)
{
	union {
		struct etw_event_write w;
		u64 word[sizeof(struct etw_event_write) / 8];
	} buf __uninitialized;
	struct etw_event_write __user *u = uarg;
	const u64 __user *src = uarg;
	/* Through a pointer: UBSAN's bounds check is a call (objtool). */
	u64 *dst = buf.word;
	unsigned int i;
	int ret;

	BUILD_BUG_ON(sizeof(buf) != sizeof(struct etw_event_write));
	if (!IS_ALIGNED((unsigned long)uarg, 8) ||
	    !user_access_begin(uarg, sizeof(buf)))
		return -ENOIOCTLCMD;
	for (i = 0; i < ARRAY_SIZE(buf.word); i++)
		unsafe_get_user(dst[i], &src[i], fault);
	user_access_end();
	if (buf.w.size != sizeof(buf))
		return -ENOIOCTLCMD;

	ret = etw_ioctl_write(ef, &buf.w);
	if (ret)
		return ret;
	if (!user_write_access_begin(&u->written, 2 * sizeof(u32)))
		return -EFAULT;
	unsafe_put_user(buf.w.written, &u->written, fault_out);
	unsafe_put_user(buf.w.lost, &u->lost, fault_out);
	user_write_access_end();
	return 0;

fault:
	user_access_end();
	return -ENOIOCTLCMD;
fault_out:
	user_write_access_end();
	return -EFAULT;
}

/*
 * An ioctl on @ef, from its /dev/etw file or a writer fd, but for
 * ETW_IOC_WRITE_SHORT, which reads its own request (write_fast.c) and
 * comes here only for a layout it does not read: inlined into the file's
 * ioctl, so that the null ioctl and every other one pay no call more.
 */
static __always_inline long etw_file_ioctl(struct etw_file *ef,
					   unsigned int cmd,
					   void __user *uarg)
{
	const struct etw_ioctl_op *op;
	/* Filled by copy_struct_from_user() before use: not zeroed per call. */
	union etw_ioctl_buffer buf __uninitialized;
	struct etw_new_fd nfd;
	unsigned int nr = _IOC_NR(cmd);
	size_t len;
	u32 usize;
	int ret;

	if (cmd == ETW_IOC_WRITE) {
		ret = etw_ioctl_write_fast(ef, uarg);
		if (ret != -ENOIOCTLCMD)
			return ret;
	}
	if (cmd != _IO(ETW_IOC_MAGIC, nr) || nr >= ARRAY_SIZE(etw_ioctl_ops))
		return -ENOTTY;
	/* The index comes from userspace: no speculative call through it. */
	op = &etw_ioctl_ops[array_index_nospec(nr, ARRAY_SIZE(etw_ioctl_ops))];
	if (!op->execute && !op->open)
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

	/*
	 * The result goes back where the struct came from: check that it can
	 * before anything happens, so that a caller who could not learn the
	 * result (a new session's id) gets EFAULT and no side effect.  Writing
	 * an event is exempt: it is the hot path, and its only results are
	 * the counts of sessions that stored or lost it.  So is an ioctl that
	 * returns an fd: it is undone if the struct cannot go back.
	 */
	if (nr != _IOC_NR(ETW_IOC_WRITE) && nr != _IOC_NR(ETW_IOC_WRITE_SHORT) &&
	    !op->open &&
	    copy_to_user(uarg, &buf, min_t(size_t, usize, op->size)))
		return -EFAULT;

	ret = op->open ? op->open(ef, &buf, &nfd) : op->execute(ef, &buf);
	if (ret)
		return ret;

	len = min_t(size_t, usize, op->size);
	if (len > op->out_start &&
	    copy_to_user(uarg + op->out_start, (u8 *)&buf + op->out_start,
			 len - op->out_start)) {
		if (op->open)
			etw_new_fd_abort(&nfd);
		return -EFAULT;
	}
	/* Only now can the caller's other threads see and use the fd. */
	if (op->open)
		fd_install(nfd.fd, nfd.file);
	return 0;
}

/*
 * The generic path as a function: for a request write_fast.c does not read
 * itself, and a writer fd's other write.
 */
noinline long etw_file_ioctl_generic(struct etw_file *ef, unsigned int cmd,
				     void __user *uarg)
{
	return etw_file_ioctl(ef, cmd, uarg);
}

/*
 * ETW_IOC_WRITE_SHORT first, as on a writer fd (below).  Here GCC sets up
 * the generic path's frame (its request buffer, the stack protector's
 * canary) on entry all the same; libetw writes through writer fds.
 */
static long etw_ioctl(struct file *filp, unsigned int cmd, unsigned long arg)
{
	if (cmd == ETW_IOC_WRITE_SHORT)
		return etw_write_short_user(filp->private_data,
					    (void __user *)arg);
	return etw_file_ioctl(filp->private_data, cmd, (void __user *)arg);
}

static int etw_open(struct inode *inode, struct file *filp)
{
	struct etw_file *ef;

	ef = kmem_cache_zalloc(etw_file_cache, GFP_KERNEL);
	if (!ef)
		return -ENOMEM;
	refcount_set(&ef->ref, 1);
	mutex_init(&ef->lock);
	xa_init_flags(&ef->regs, XA_FLAGS_ALLOC1);
	ef->reg_by_id = etw_no_regs;
	spin_lock_init(&ef->notify_lock);
	INIT_LIST_HEAD(&ef->notify);
	INIT_LIST_HEAD(&ef->inflight);
	init_waitqueue_head(&ef->notify_wait);
	filp->private_data = ef;
	return nonseekable_open(inode, filp);
}

/* The last of the /dev/etw file and its writer fds is gone. */
void etw_file_put(struct etw_file *ef)
{
	if (!refcount_dec_and_test(&ef->ref))
		return;
	/* Writers may still hold a registration under RCU. */
	synchronize_rcu();
	xa_destroy(&ef->regs);
	if (ef->reg_by_id != etw_no_regs)
		kvfree(ef->reg_by_id);
	vfree(ef->state);
	mutex_destroy(&ef->lock);
	kmem_cache_free(etw_file_cache, ef);
}

/*
 * The registrations go with the /dev/etw file, whatever writer fds remain:
 * those find none afterwards (EBADF, as a stale handle).
 */
static int etw_release(struct inode *inode, struct file *filp)
{
	struct etw_file *ef = filp->private_data;

	etw_registry_release_file(ef);
	etw_notify_flush(ef);
	etw_file_put(ef);
	return 0;
}

/* Enable notifications: whole struct etw_notification records. */
static ssize_t etw_read(struct file *filp, char __user *buf, size_t len,
			loff_t *ppos)
{
	return etw_notify_read(filp->private_data, buf, len,
			       filp->f_flags & O_NONBLOCK);
}

static __poll_t etw_poll(struct file *filp, struct poll_table_struct *wait)
{
	struct etw_file *ef = filp->private_data;

	poll_wait(filp, &ef->notify_wait, wait);
	return READ_ONCE(ef->notify_count) ? EPOLLIN | EPOLLRDNORM : 0;
}

/* The enable-state slots, read-only: userspace must not forge its state. */
static int etw_mmap(struct file *filp, struct vm_area_struct *vma)
{
	struct etw_file *ef = filp->private_data;
	unsigned long size = vma->vm_end - vma->vm_start;
	int ret;

	if (vma->vm_pgoff != ETW_MMAP_STATE >> PAGE_SHIFT ||
	    size > PAGE_ALIGN(ETW_MMAP_STATE_SIZE))
		return -EINVAL;
	if (vma->vm_flags & VM_WRITE)
		return -EPERM;
	etw_vm_flags_clear(vma, VM_MAYWRITE);

	mutex_lock(&ef->lock);
	ret = etw_state_alloc(ef);
	if (!ret)
		ret = remap_vmalloc_range(vma, ef->state, 0);
	mutex_unlock(&ef->lock);
	return ret;
}

static const struct file_operations etw_fops = {
	.owner = THIS_MODULE,
	.open = etw_open,
	.release = etw_release,
	.read = etw_read,
	.poll = etw_poll,
	.mmap = etw_mmap,
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
	etw_session_exit();
	klog_exit();
	etw_registry_exit();
	/* kfree_rcu() of routes, providers and registrations. */
	rcu_barrier();
	kmem_cache_destroy(etw_file_cache);
}
