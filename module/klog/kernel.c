// SPDX-License-Identifier: GPL-2.0
/*
 * The kernel's own images, under process 0 as Windows logs ntoskrnl and
 * its drivers: vmlinux ("vmlinux", its text from _text to _etext,
 * DefaultBase the link address, so address - ImageBase + DefaultBase is
 * the address in vmlinux's symbol table) and each module ("<name>.ko",
 * its core text).  Image/DCStart and DCEnd in the rundown; Image/Load and
 * Unload as modules come and go (a module notifier).
 *
 * Neither the text's bounds nor the module list are exported to modules:
 * they are looked up once with kallsyms_lookup_name(), whose address a
 * kprobe gives (lttng-modules does the same).  Without it the kernel's
 * images are missing from the trace, and the log says so.
 */
#include <linux/kallsyms.h>
#include <linux/kernel.h>
#include <linux/kprobes.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/notifier.h>
#include <linux/slab.h>
#include <linux/utsname.h>
#include <asm/page.h>

#include "compat.h"
#include "klog_proc.h"

static unsigned long (*klog_lookup_name)(const char *name);
static unsigned long klog_text, klog_etext;
static struct list_head *klog_modules;
static struct mutex *klog_module_mutex;
static bool klog_kernel_known;

/* kallsyms_lookup_name(), from where a kprobe on it lands (past ENDBR). */
static int klog_kallsyms_init(void)
{
	struct kprobe kp = { .symbol_name = "kallsyms_lookup_name" };
	char sym[KSYM_SYMBOL_LEN], *plus;
	unsigned long off = 0;
	int ret;

	ret = register_kprobe(&kp);
	if (ret)
		return ret;
	unregister_kprobe(&kp);
	/* "kallsyms_lookup_name+0x4/0x90": back to the function's start. */
	sprint_symbol(sym, (unsigned long)kp.addr);
	plus = strchr(sym, '+');
	if (plus) {
		*strchrnul(plus, '/') = 0;
		if (kstrtoul(plus + 1, 0, &off))
			return -ENOENT;
	}
	klog_lookup_name = (void *)((unsigned long)kp.addr - off);
	return 0;
}

static void klog_kernel_lookup(void)
{
	if (klog_kernel_known)
		return;
	if (klog_kallsyms_init()) {
		pr_warn_once("etw: no kallsyms_lookup_name: no kernel images in traces\n");
		return;
	}
	klog_text = klog_lookup_name("_text");
	klog_etext = klog_lookup_name("_etext");
	klog_modules = (void *)klog_lookup_name("modules");
	klog_module_mutex = (void *)klog_lookup_name("module_mutex");
	klog_kernel_known = klog_text && klog_etext > klog_text;
}

static void klog_module_image(u16 hook, struct module *mod,
			      struct klog_session *target, u64 ts)
{
	char name[MODULE_NAME_LEN + 4];
	unsigned long base, size;

	etw_module_text(mod, &base, &size);
	snprintf(name, sizeof(name), "%s.ko", mod->name);
	klog_image_write(hook, 0, base, size, 0, name, NULL, target, ts);
}

/* Image DCStart/DCEnd of vmlinux and every module (process context). */
void klog_image_kernel(u16 hook, struct klog_session *target)
{
	struct module *mod;

	klog_kernel_lookup();
	if (!klog_kernel_known)
		return;
	klog_image_write(hook, 0, klog_text, klog_etext - klog_text,
			 __START_KERNEL, "vmlinux", NULL, target, 0);
	if (!klog_modules || !klog_module_mutex)
		return;
	mutex_lock(klog_module_mutex);
	list_for_each_entry(mod, klog_modules, list)
		if (mod->state != MODULE_STATE_UNFORMED)
			klog_module_image(hook, mod, target, 0);
	mutex_unlock(klog_module_mutex);
}

static int klog_module_notify(struct notifier_block *nb, unsigned long state,
			      void *data)
{
	if (!klog_enabled(ETW_KFLAG_IMAGE_LOAD))
		return NOTIFY_DONE;
	if (state == MODULE_STATE_LIVE)
		klog_module_image(KLOG_HOOK_IMAGE_LOAD, data, NULL, 0);
	else if (state == MODULE_STATE_GOING)
		klog_module_image(KLOG_HOOK_IMAGE_UNLOAD, data, NULL, 0);
	return NOTIFY_DONE;
}

static struct notifier_block klog_module_nb = {
	.notifier_call = klog_module_notify,
};

int klog_kernel_images_start(void)
{
	return register_module_notifier(&klog_module_nb);
}

void klog_kernel_images_stop(void)
{
	unregister_module_notifier(&klog_module_nb);
}
