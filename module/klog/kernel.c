// SPDX-License-Identifier: GPL-2.0
/*
 * The kernel's own images, under process 0 as Windows logs ntoskrnl and
 * its drivers: vmlinux ("vmlinux", its text from _text to _etext,
 * DefaultBase the link address, so address - ImageBase + DefaultBase is
 * the address in vmlinux's symbol table) and each module ("<name>.ko",
 * its core text).  Image/DCStart and DCEnd in the rundown; Image/Load and
 * Unload as modules come and go (a module notifier).  Each has its
 * identity (klog/image_id.c) with the build-id of its notes: the
 * kernel's from __start_notes to __stop_notes (what /sys/kernel/notes
 * shows), a module's from its SHT_NOTE sections (what
 * /sys/module/NAME/notes shows).
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
static u8 klog_vmlinux_id[KLOG_BUILD_ID_MAX];
static u32 klog_vmlinux_id_len;

/*
 * The sysfs notes of a module (kernel/module/sysfs.c's struct
 * module_notes_attrs, private there, the same in 6.1 and 6.12): each
 * attribute's private is a loaded SHT_NOTE section, its size the
 * section's.  No interface exported to modules gives a module's build-id
 * on Debian's kernels (CONFIG_STACKTRACE_BUILD_ID is off).
 */
struct klog_module_notes {
	struct kobject *dir;
	unsigned int notes;
	struct bin_attribute attrs[];
};

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
	unsigned long notes, notes_end;

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
	notes = klog_lookup_name("__start_notes");
	notes_end = klog_lookup_name("__stop_notes");
	if (notes && notes_end > notes && IS_ALIGNED(notes, 4))
		klog_vmlinux_id_len = klog_build_id_notes((const u8 *)notes,
							  notes_end - notes,
							  klog_vmlinux_id);
}

/* A kernel symbol no module may link to (process context); NULL if none. */
void *klog_kernel_symbol(const char *name)
{
	klog_kernel_lookup();
	return klog_lookup_name ? (void *)klog_lookup_name(name) : NULL;
}

/*
 * A kernel image's event and its identity, at the same time (now, if
 * @ts is 0), with build-id @id (@id_len bytes, 0: none).
 */
static void klog_kernel_image(u16 hook, u64 base, u64 size, u64 default_base,
			      const char *name, const u8 *id, u32 id_len,
			      struct klog_session *target, u64 ts)
{
	u8 wname[2 * (MODULE_NAME_LEN + 4)];

	if (!ts)
		ts = klog_clock();
	klog_image_write(hook, 0, base, size, default_base, name, NULL,
			 target, ts);
	klog_image_id_write(id, id_len, base, size, 0, name, wname,
			    sizeof(wname), target, ts);
}

/*
 * @mod's build-id from its notes; its length or 0.  Only while the module
 * is live: the notes' attributes go with its sysfs directory, which a
 * going module (or a load that failed) tears down.
 */
static u32 klog_module_build_id(struct module *mod, u8 *id)
{
#ifdef CONFIG_KALLSYMS
	const struct klog_module_notes *n = (const void *)mod->notes_attrs;
	unsigned int i;
	u32 len;

	for (i = 0; n && i < n->notes; i++) {
		if (!n->attrs[i].private ||
		    !IS_ALIGNED((unsigned long)n->attrs[i].private, 4))
			continue;
		len = klog_build_id_notes(n->attrs[i].private,
					  n->attrs[i].size, id);
		if (len)
			return len;
	}
#endif
	return 0;
}

/* @live: the module's notes may be read (see klog_module_build_id()). */
static void klog_module_image(u16 hook, struct module *mod, bool live,
			      struct klog_session *target, u64 ts)
{
	char name[MODULE_NAME_LEN + 4];
	u8 id[KLOG_BUILD_ID_MAX];
	unsigned long base, size;

	etw_module_text(mod, &base, &size);
	snprintf(name, sizeof(name), "%s.ko", mod->name);
	klog_kernel_image(hook, base, size, 0, name, id,
			  live ? klog_module_build_id(mod, id) : 0, target, ts);
}

/* Image DCStart/DCEnd of vmlinux and every module (process context). */
void klog_image_kernel(u16 hook, struct klog_session *target)
{
	struct module *mod;

	klog_kernel_lookup();
	if (!klog_kernel_known)
		return;
	klog_kernel_image(hook, klog_text, klog_etext - klog_text,
			  __START_KERNEL, "vmlinux", klog_vmlinux_id,
			  klog_vmlinux_id_len, target, 0);
	if (!klog_modules || !klog_module_mutex)
		return;
	mutex_lock(klog_module_mutex);
	list_for_each_entry(mod, klog_modules, list)
		if (mod->state != MODULE_STATE_UNFORMED)
			klog_module_image(hook, mod,
					  mod->state == MODULE_STATE_LIVE,
					  target, 0);
	mutex_unlock(klog_module_mutex);
}

static int klog_module_notify(struct notifier_block *nb, unsigned long state,
			      void *data)
{
	if (!klog_enabled(ETW_KFLAG_IMAGE_LOAD))
		return NOTIFY_DONE;
	/*
	 * Its notes while it goes live (loading still holds its first
	 * reference); not as it goes: a load that fails late has freed them.
	 */
	if (state == MODULE_STATE_LIVE)
		klog_module_image(KLOG_HOOK_IMAGE_LOAD, data, true, NULL, 0);
	else if (state == MODULE_STATE_GOING)
		klog_module_image(KLOG_HOOK_IMAGE_UNLOAD, data, false, NULL, 0);
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
