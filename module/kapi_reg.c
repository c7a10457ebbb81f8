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

NTSTATUS EtwRegister(LPCGUID ProviderId, PETWENABLECALLBACK EnableCallback,
		     PVOID CallbackContext, PREGHANDLE RegHandle)
{
	struct etw_kreg *k;
	guid_t g;

	might_sleep();
	if (!ProviderId || !RegHandle)
		return STATUS_INVALID_PARAMETER;
	k = kzalloc(sizeof(*k), GFP_KERNEL);
	if (!k)
		return STATUS_NO_MEMORY;
	k->callback = EnableCallback;
	k->context = CallbackContext;
	etw_kreg_notify_init(k);
	k->magic = ETW_KREG_MAGIC;
	BUILD_BUG_ON(sizeof(g) != sizeof(*ProviderId));
	memcpy(&g, ProviderId, sizeof(g));
	/* Set first: a callback may run before this returns. */
	*RegHandle = (uintptr_t)k;
	if (etw_registry_kernel_add(&k->reg, &g)) {
		*RegHandle = 0;
		kfree(k);
		return STATUS_NO_MEMORY;
	}
	return STATUS_SUCCESS;
}
ETW_EXPORT(EtwRegister);

NTSTATUS EtwUnregister(REGHANDLE RegHandle)
{
	struct etw_kreg *k = etw_kreg_handle(RegHandle);

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
ETW_EXPORT(EtwUnregister);

NTSTATUS EtwSetInformation(REGHANDLE RegHandle, EVENT_INFO_CLASS InformationClass,
			   PVOID EventInformation, ULONG InformationLength)
{
	struct etw_kreg *k = etw_kreg_handle(RegHandle);

	might_sleep();
	if (!k)
		return STATUS_INVALID_HANDLE;
	if (!EventInformation)
		return STATUS_INVALID_PARAMETER;
	switch (InformationClass) {
	case EventProviderSetTraits:
		return etw_ntstatus(etw_reg_set_traits(&k->reg, EventInformation,
						       InformationLength));
	case EventProviderUseDescriptorType:
		if (InformationLength != 1)
			return STATUS_INVALID_PARAMETER;
		WRITE_ONCE(k->reg.use_desc_type,
			   *(const u8 *)EventInformation != 0);
		return STATUS_SUCCESS;
	default:
		return STATUS_NOT_SUPPORTED;
	}
}
ETW_EXPORT(EtwSetInformation);
