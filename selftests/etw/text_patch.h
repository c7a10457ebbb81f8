/* SPDX-License-Identifier: GPL-2.0 */
/*
 * May the tests patch kernel text under load here?  Not in QEMU's
 * multi-threaded TCG with two vCPUs or more: there a vCPU can execute
 * the int3 of a text_poke_bp() that has completed, and the guest oopses
 * (Documentation/guarantees.rst has the measurements).  Single-threaded
 * TCG, one vCPU, KVM and real hardware are safe.  The VM's /init exports
 * QEMU's -accel option as ETW_VM_ACCEL (scripts/vm/run.sh).
 */
#ifndef ETW_TEXT_PATCH_H
#define ETW_TEXT_PATCH_H

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static inline bool etw_text_patch_safe(void)
{
	const char *accel = getenv("ETW_VM_ACCEL");

	if (!accel || strncmp(accel, "tcg", 3))
		return true;
	if (strstr(accel, "thread=single"))
		return true;
	return sysconf(_SC_NPROCESSORS_ONLN) < 2;
}

#endif /* ETW_TEXT_PATCH_H */
