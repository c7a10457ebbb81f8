// SPDX-License-Identifier: GPL-2.0
/*
 * etw.ko: Event Tracing for Windows semantics on Linux.
 *
 * Module entry points.  The device and its ioctls live in dev.c.
 */
#include <linux/module.h>
#include <linux/init.h>
#include <linux/etw.h>

#include "internal.h"
#include "kapi.h"

static int __init etw_init(void)
{
	int ret = etw_clock_init();

	if (ret)
		return ret;
	ret = etw_dev_init();
	if (ret)
		return ret;
	/* A bad autologger parameter is logged; the module loads without it. */
	etw_global_logger_start();
	return 0;
}

static void __exit etw_exit(void)
{
	etw_dev_exit();
	etw_kactivity_exit();
}

module_init(etw_init);
module_exit(etw_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Event Tracing for Windows (ETW) semantics for Linux");
MODULE_AUTHOR("The etw for Linux authors");
MODULE_INFO(abi_version, __stringify(ETW_ABI_MAJOR) "." __stringify(ETW_ABI_MINOR));
