/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Kernel API differences between the kernels etw.ko supports, in one place.
 *
 * Every ETW_HAVE_* macro comes from a probe in Kbuild that greps the target
 * kernel's headers, so a distribution backport is picked up without a
 * version check.  The .c files call the etw_* wrappers below and carry no
 * #if of their own.
 */
#ifndef _ETW_COMPAT_H
#define _ETW_COMPAT_H

#include <linux/blkdev.h>
#include <linux/mm.h>
#include <linux/module.h>

/* vm_flags became read-only behind vm_flags_set() in 6.3. */
static inline void etw_vm_flags_set(struct vm_area_struct *vma, vm_flags_t flags)
{
#ifdef ETW_HAVE_VM_FLAGS_SET
	vm_flags_set(vma, flags);
#else
	vma->vm_flags |= flags;
#endif
}

static inline void etw_vm_flags_clear(struct vm_area_struct *vma, vm_flags_t flags)
{
#ifdef ETW_HAVE_VM_FLAGS_SET
	vm_flags_clear(vma, flags);
#else
	vma->vm_flags &= ~flags;
#endif
}

/* A module's text: core_layout until 6.4, mem[MOD_TEXT] since. */
static inline void etw_module_text(struct module *mod, unsigned long *base,
				   unsigned long *size)
{
#ifdef ETW_HAVE_MODULE_MEMORY
	*base = (unsigned long)mod->mem[MOD_TEXT].base;
	*size = mod->mem[MOD_TEXT].size;
#else
	*base = (unsigned long)mod->core_layout.base;
	*size = mod->core_layout.text_size;
#endif
}

/* A block device's partition number: bd_partno until 6.10, in bd_flags since. */
static inline u8 etw_bdev_partno(const struct block_device *bdev)
{
#ifdef ETW_HAVE_BDEV_PARTNO
	return bdev_partno(bdev);
#else
	return bdev->bd_partno;
#endif
}

/*
 * The kernel-mode API's symbols' namespace, ETW, as EXPORT_SYMBOL_NS_GPL()
 * takes it: an identifier it stringifies (6.1, 6.12), or a string (later).
 */
#ifdef ETW_HAVE_NS_IDENT
#define ETW_NS	ETW
#else
#define ETW_NS	"ETW"
#endif

#endif /* _ETW_COMPAT_H */
