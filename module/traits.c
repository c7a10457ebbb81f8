// SPDX-License-Identifier: GPL-2.0
/*
 * ETW_IOC_PROVIDER_SET_INFO: EventSetInformation.  Provider traits (the
 * provider's name and traits such as its provider group) are kept with the
 * registration and travel with every event it writes as a PROV_TRAITS
 * extended item; setting them, or asking for descriptor types, makes the
 * write path honour the Type byte of the data descriptors (TraceLogging
 * metadata).  Traits are set once and never change, so writers read them
 * under RCU with no lock.
 */
#include <linux/err.h>
#include <linux/rcupdate.h>
#include <linux/slab.h>
#include <linux/uaccess.h>

#include "internal.h"

/* The blob's own size, a NUL-terminated name, then traits filling it. */
static bool etw_traits_valid(const u8 *p, u32 len)
{
	u32 total, pos;

	if (len < 3)
		return false;
	total = p[0] | p[1] << 8;
	if (total < 3 || total > len)
		return false;
	for (pos = 2; pos < total && p[pos]; pos++)
		;
	if (pos++ >= total)
		return false;
	while (pos < total) {
		u32 size;

		if (total - pos < 3)
			return false;
		size = p[pos] | p[pos + 1] << 8;
		if (size < 3 || size > total - pos)
			return false;
		pos += size;
	}
	return true;
}

/* A checked copy of a traits blob of @length bytes at @kdata or @udata. */
static struct etw_traits *etw_traits_new(const void *kdata,
					 const void __user *udata, u32 length)
{
	struct etw_traits *t;
	int ret;

	if (length < 3 || length > ETW_MAX_EVENT_SIZE)
		return ERR_PTR(-EINVAL);
	t = kmalloc(struct_size(t, data, length), GFP_KERNEL_ACCOUNT);
	if (!t)
		return ERR_PTR(-ENOMEM);
	ret = 0;
	if (kdata)
		memcpy(t->data, kdata, length);
	else if (copy_from_user(t->data, udata, length))
		ret = -EFAULT;
	if (!ret && !etw_traits_valid(t->data, length))
		ret = -EINVAL;
	if (ret) {
		kfree(t);
		return ERR_PTR(ret);
	}
	t->len = t->data[0] | t->data[1] << 8;
	return t;
}

/* Set once: -EEXIST the second time.  etw_lock held. */
static int etw_traits_install(struct etw_reg *r, struct etw_traits *t)
{
	lockdep_assert_held(&etw_lock);
	if (rcu_access_pointer(r->traits))
		return -EEXIST;
	rcu_assign_pointer(r->traits, t);
	WRITE_ONCE(r->use_desc_type, true);
	return 0;
}

static int etw_set_traits(struct etw_file *ef, u32 reg_id, const void __user *data,
			  u32 length)
{
	struct etw_traits *t = etw_traits_new(NULL, data, length);
	struct etw_reg *r;
	int ret;

	if (IS_ERR(t))
		return PTR_ERR(t);
	mutex_lock(&etw_lock);
	r = xa_load(&ef->regs, reg_id);
	ret = r ? etw_traits_install(r, t) : -EBADF;
	mutex_unlock(&etw_lock);
	if (ret)
		kfree(t);
	return ret;
}

/* EtwSetInformation's traits: the blob in kernel memory. */
int etw_reg_set_traits(struct etw_reg *r, const void *data, u32 length)
{
	struct etw_traits *t = etw_traits_new(data, NULL, length);
	int ret;

	if (IS_ERR(t))
		return PTR_ERR(t);
	mutex_lock(&etw_lock);
	ret = etw_traits_install(r, t);
	mutex_unlock(&etw_lock);
	if (ret)
		kfree(t);
	return ret;
}

static int etw_set_use_desc_type(struct etw_file *ef, u32 reg_id,
				 const void __user *data, u32 length)
{
	struct etw_reg *r;
	u8 on;

	if (length != 1)
		return -EINVAL;
	if (get_user(on, (const u8 __user *)data))
		return -EFAULT;
	mutex_lock(&etw_lock);
	r = xa_load(&ef->regs, reg_id);
	if (r)
		WRITE_ONCE(r->use_desc_type, on != 0);
	mutex_unlock(&etw_lock);
	return r ? 0 : -EBADF;
}

int etw_provider_set_info(struct etw_file *ef, struct etw_provider_set_info *arg)
{
	const void __user *data = u64_to_user_ptr(arg->data);

	if (arg->flags || arg->reserved0 || arg->reserved[0] || arg->reserved[1])
		return -EINVAL;
	switch (arg->info_class) {
	case ETW_INFO_SET_TRAITS:
		return etw_set_traits(ef, arg->reg_id, data, arg->length);
	case ETW_INFO_USE_DESCRIPTOR_TYPE:
		return etw_set_use_desc_type(ef, arg->reg_id, data, arg->length);
	}
	return -EOPNOTSUPP;
}

/* The registration is going away; writers may still read under RCU. */
void etw_traits_release(struct etw_reg *r)
{
	struct etw_traits *t = rcu_dereference_protected(r->traits,
							 lockdep_is_held(&etw_lock));

	if (t)
		kfree_rcu(t, rcu);
}
