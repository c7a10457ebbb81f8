// SPDX-License-Identifier: GPL-2.0
/*
 * EtwRegister, EtwUnregister, EtwSetInformation: a kernel module's
 * provider registrations.  All three in process context (they may sleep),
 * as Windows' run at PASSIVE_LEVEL.
 *
 * EtwUnregister returns only when no enable callback of the registration
 * runs and no write through it is in flight: a write runs with interrupts
 * disabled from its look-up of the handle to its commit (kapi_write.c), an
 * RCU read side, so one grace period after the registration left its
 * provider no writer is inside, and the module may free what its callback
 * and its writes use, and unload.
 */
#include <linux/rcupdate.h>
#include <linux/slab.h>

#include "compat.h"
#include "kapi.h"

/* NTSTATUS of the module's errno (libetw maps the same ones to Win32). */
NTSTATUS etw_ntstatus(int err)
{
	switch (err) {
	case 0:
		return STATUS_SUCCESS;
	case -EINVAL:
		return STATUS_INVALID_PARAMETER;
	case -EBADF:
		return STATUS_INVALID_HANDLE;
	case -ENOMEM:
	case -ENOSPC:
		return STATUS_NO_MEMORY;
	case -EOVERFLOW:
		return STATUS_INTEGER_OVERFLOW;
	case -EMSGSIZE:
		return STATUS_BUFFER_OVERFLOW;
	case -EEXIST:
		return STATUS_OBJECT_NAME_COLLISION;
	case -EOPNOTSUPP:
		return STATUS_NOT_SUPPORTED;
	}
	return STATUS_UNSUCCESSFUL;
}

/* A registered handle, or NULL; for the calls that may sleep. */
static struct etw_kreg *etw_kreg_handle(REGHANDLE h)
{
	struct etw_kreg *k = (struct etw_kreg *)(uintptr_t)h;

	if (!k || READ_ONCE(k->magic) != ETW_KREG_MAGIC)
		return NULL;
	return k;
}

NTSTATUS etw_kp_register(LPCGUID provider_id, PETWENABLECALLBACK enable_callback,
			 PVOID callback_context, PREGHANDLE reg_handle)
{
	struct etw_kreg *k;
	guid_t g;

	might_sleep();
	if (!provider_id || !reg_handle)
		return STATUS_INVALID_PARAMETER;
	k = kzalloc(sizeof(*k), GFP_KERNEL);
	if (!k)
		return STATUS_NO_MEMORY;
	k->callback = enable_callback;
	k->context = callback_context;
	etw_kreg_notify_init(k);
	k->magic = ETW_KREG_MAGIC;
	BUILD_BUG_ON(sizeof(g) != sizeof(*provider_id));
	memcpy(&g, provider_id, sizeof(g));
	/* Set first: a callback may run before this returns. */
	*reg_handle = (uintptr_t)k;
	if (etw_registry_kernel_add(&k->reg, &g)) {
		*reg_handle = 0;
		kfree(k);
		return STATUS_NO_MEMORY;
	}
	return STATUS_SUCCESS;
}
EXPORT_SYMBOL_NS_GPL(etw_kp_register, ETW_NS);

NTSTATUS etw_kp_unregister(REGHANDLE reg_handle)
{
	struct etw_kreg *k = etw_kreg_handle(reg_handle);

	might_sleep();
	if (!k)
		return STATUS_INVALID_HANDLE;
	WRITE_ONCE(k->magic, 0);
	etw_registry_kernel_remove(&k->reg);
	etw_kreg_notify_stop(k);
	/* Every write that found the handle is out of its section. */
	synchronize_rcu();
	kfree(k);
	return STATUS_SUCCESS;
}
EXPORT_SYMBOL_NS_GPL(etw_kp_unregister, ETW_NS);

/* EventProviderSetTraits and EventProviderUseDescriptorType: the uapi's. */
NTSTATUS etw_kp_set_information(REGHANDLE reg_handle, EVENT_INFO_CLASS info_class,
				PVOID info, ULONG info_length)
{
	struct etw_kreg *k = etw_kreg_handle(reg_handle);

	might_sleep();
	if (!k)
		return STATUS_INVALID_HANDLE;
	if (!info)
		return STATUS_INVALID_PARAMETER;
	switch ((u32)info_class) {
	case ETW_INFO_SET_TRAITS:
		return etw_ntstatus(etw_reg_set_traits(&k->reg, info,
						       info_length));
	case ETW_INFO_USE_DESCRIPTOR_TYPE:
		if (info_length != 1)
			return STATUS_INVALID_PARAMETER;
		WRITE_ONCE(k->reg.use_desc_type, *(const u8 *)info != 0);
		return STATUS_SUCCESS;
	default:
		return STATUS_NOT_SUPPORTED;
	}
}
EXPORT_SYMBOL_NS_GPL(etw_kp_set_information, ETW_NS);
