// SPDX-License-Identifier: GPL-2.0
/*
 * SystemConfig/Power (opcode 16, version 2, 8 bytes): the sleep states
 * the platform supports, S1 to S5, as Windows' power capabilities give
 * them: a state is supported when the firmware's ACPI tables define its
 * \_Sx object (what the boot log's "ACPI: PM: (supports S0 ...)" lists).
 * Without ACPI every state is 0.  The three pads are 0 (Windows' first one
 * has become AoAc, modern standby, which Linux does not describe).
 */
#include <linux/acpi.h>
#include <linux/string.h>

#include "klog.h"
#include "klog_sysconfig.h"

/* SystemConfig_V2_Power. */
struct klog_sysconfig_power {
	u8 s[5];	/* S1..S5 */
	u8 pad[3];
} __packed;

static_assert(sizeof(struct klog_sysconfig_power) == 8);

void klog_sysconfig_power(struct klog_session *k)
{
	struct klog_sysconfig_power p;
	struct klog_part part = { &p, sizeof(p) };
#ifdef CONFIG_ACPI
	u8 a, b;
	int i;
#endif

	memset(&p, 0, sizeof(p));
#ifdef CONFIG_ACPI
	if (!acpi_disabled)
		for (i = 0; i < ARRAY_SIZE(p.s); i++)
			p.s[i] = ACPI_SUCCESS(acpi_get_sleep_type_data(i + 1,
								       &a, &b));
#endif
	klog_sysconfig_write(k, KLOG_SYSCONFIG_POWER, 2, &part, 1);
}
