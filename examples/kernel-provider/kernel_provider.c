// SPDX-License-Identifier: GPL-2.0
/*
 * A kernel module that is an ETW provider, as a Windows driver is one:
 * it registers in its init, writes an event from a timer (softirq
 * context) while a session enables it, and unregisters in its exit.
 *
 *	make					(see Makefile)
 *	insmod etw_example_provider.ko		(after etw.ko)
 *	etw start demo -o demo.etl
 *	etw enable demo '{4d1f2a0c-8c55-4b8e-9c1e-3f1a6b2d7e01}' -l 4
 *	sleep 3; etw stop demo; etw dump demo.etl
 */
#include <linux/jiffies.h>
#include <linux/module.h>
#include <linux/timer.h>
#include <etw/kernel.h>

/* {4d1f2a0c-8c55-4b8e-9c1e-3f1a6b2d7e01} */
static const GUID example_provider = {
	0x4d1f2a0c, 0x8c55, 0x4b8e,
	{ 0x9c, 0x1e, 0x3f, 0x1a, 0x6b, 0x2d, 0x7e, 0x01 } };

static REGHANDLE example_handle;
static struct timer_list example_timer;
static u32 example_ticks;

static unsigned int period_ms = 500;
module_param(period_ms, uint, 0444);
MODULE_PARM_DESC(period_ms, "milliseconds between two Tick events");

/* Event 1, "Tick": level 4 (informational), keyword 0x1, a UINT32. */
static const EVENT_DESCRIPTOR tick_event = {
	.Id = 1, .Level = 4, .Keyword = 0x1,
};

/* The enable callback: process context, it may sleep. */
static void example_enable(LPCGUID source_id, ULONG control_code, UCHAR level,
			   ULONGLONG match_any, ULONGLONG match_all,
			   PEVENT_FILTER_DESCRIPTOR filter, PVOID context)
{
	pr_info("etw_example_provider: control code %u, level %u, keywords %#llx\n",
		control_code, level, match_any);
}

/* Softirq context: EtwWrite may be called from any context. */
static void example_tick(struct timer_list *t)
{
	EVENT_DATA_DESCRIPTOR data;

	example_ticks++;
	if (EtwEventEnabled(example_handle, &tick_event)) {
		EventDataDescCreate(&data, &example_ticks, sizeof(example_ticks));
		EtwWrite(example_handle, &tick_event, NULL, 1, &data);
	}
	mod_timer(&example_timer, jiffies + msecs_to_jiffies(period_ms));
}

static int __init example_init(void)
{
	NTSTATUS st = EtwRegister(&example_provider, example_enable, NULL,
				  &example_handle);

	if (!NT_SUCCESS(st))
		return -ENOMEM;
	timer_setup(&example_timer, example_tick, 0);
	mod_timer(&example_timer, jiffies + msecs_to_jiffies(period_ms));
	return 0;
}

static void __exit example_exit(void)
{
	/* No write may start after EtwUnregister: the timer goes first. */
	del_timer_sync(&example_timer);
	EtwUnregister(example_handle);
}

module_init(example_init);
module_exit(example_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("An ETW provider in a kernel module (etw for Linux example)");
ETW_MODULE_IMPORT_NS();
