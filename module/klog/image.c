// SPDX-License-Identifier: GPL-2.0
/*
 * Image events (EVENT_TRACE_FLAG_IMAGE_LOAD), Image_Load V3: an image is
 * an executable file mapping.  Linux has no mmap tracepoint, so a probe
 * on perf_event_mmap(), which every mapping (and mprotect adding
 * PROT_EXEC) passes through, sees each one; the mappings exec makes are
 * written at exec instead (klog/process.c), after the new process.
 *
 * ImageBase is where the file's offset 0 is mapped (vm_start - pgoff),
 * the load base of an ELF file whose segments keep their file layout (all
 * of ld's output), so address - ImageBase is the file's virtual address
 * for a PIE or shared object; ImageSize reaches to the end of the
 * executable mapping.  Each is followed by its identity, the ELF
 * build-id (klog/image_id.c).
 *
 * Image/Unload: Linux has no munmap tracepoint either; a probe on
 * remove_vma(), which munmap calls for each mapping it drops while its
 * file is still held, writes the same record as the mapping's Load.
 * Debian's 6.1 inlines remove_vma(); there unlink_file_vma(), which munmap
 * calls for each mapping (free_pgtables()) before it, stands in.  At exit
 * and exec the process writes the Unloads of all its images as it leaves
 * its address space (klog_image_leave(), from klog/process.c's probes on
 * exit_mm_release() and exec_mm_release()): the teardown that follows may
 * run in another task (a CLONE_VM process or vfork child still holding the
 * space), or not at all while one does, and is not followed.
 *
 * Both are kretprobes: the entry, an int3 handler where the function is
 * not ftrace-able (which lockdep counts as NMI), only keeps the mapping;
 * the return, an ordinary context with preemption disabled, names the
 * file with d_path() (whose seqlocks an NMI may not read) and writes the
 * record.  A hit the kretprobe missed (its instances all in use) counts
 * one record lost, image or not.
 */
#include <linux/dcache.h>
#include <linux/err.h>
#include <linux/kprobes.h>
#include <linux/mm.h>
#include <linux/mmap_lock.h>
#include <linux/percpu.h>
#include <linux/ptrace.h>
#include <linux/sched.h>

#include "klog_proc.h"
#include "klog_text.h"

struct klog_image_v3 {
	u64 image_base;
	u64 image_size;
	u32 process_id;
	u32 image_checksum;
	u32 time_date_stamp;
	u8 signature_level;
	u8 signature_type;
	u16 reserved0;
	u64 default_base;
	u32 reserved[4];
};

static_assert(sizeof(struct klog_image_v3) == 56);

/* A record's payload and a path, per CPU, preemption disabled. */
struct klog_image_scratch {
	struct klog_image_v3 im;
	u8 name[2 * KLOG_PATH_MAX];
	char path[KLOG_PATH_MAX];
};

/* Too large for a module's static per-CPU area: allocated at first use. */
static struct klog_image_scratch __percpu *klog_image_scratch;

void klog_image_write(u16 hook, u32 pid, u64 base, u64 size, u64 default_base,
		      const char *path, struct file *file,
		      struct klog_session *target, u64 ts)
{
	struct klog_image_scratch *sc;
	struct klog_part parts[2];
	struct klog_event ev = {
		.hook = hook,
		.header_type = KLOG_HDR_SYSTEM,
		.version = 3,
		.flag = ETW_KFLAG_IMAGE_LOAD,
		.tid = klog_tid(current),
		.pid = klog_pid(current),
		.timestamp = ts,
		.parts = parts,
		.nr_parts = 2,
		.target = target,
	};

	if (!klog_image_scratch)
		return;
	/* The identity records carry the image event's own time. */
	if (file && !ts)
		ev.timestamp = klog_clock();
	preempt_disable();
	sc = this_cpu_ptr(klog_image_scratch);
	memset(&sc->im, 0, sizeof(sc->im));
	sc->im.image_base = base;
	sc->im.image_size = size;
	sc->im.process_id = pid;
	sc->im.default_base = default_base;
	parts[0].data = &sc->im;
	parts[0].size = sizeof(sc->im);
	parts[1].data = sc->name;
	parts[1].size = klog_utf16(sc->name, sizeof(sc->name), path,
				   strlen(path));
	if (!target)
		ev.stack = klog_task_stack(hook);
	klog_write(&ev);
	if (file)
		klog_image_id(file, base, size, pid, path, sc->name,
			      sizeof(sc->name), target, ev.timestamp);
	preempt_enable();
}

/* Is @vma an executable file mapping?  Its image's base and size. */
static bool klog_image_of(const struct vm_area_struct *vma, u64 *base,
			  u64 *size)
{
	if (!(vma->vm_flags & VM_EXEC) || !vma->vm_file)
		return false;
	*base = vma->vm_start - ((u64)vma->vm_pgoff << PAGE_SHIFT);
	*size = vma->vm_end - *base;
	return true;
}

/* The image of @vma if it is an executable file mapping. */
void klog_image_vma(u16 hook, u32 pid, struct vm_area_struct *vma, char *buf,
		    struct klog_session *target, u64 ts)
{
	u64 base, size;
	char *path;

	if (!klog_image_of(vma, &base, &size))
		return;
	path = d_path(&vma->vm_file->f_path, buf, KLOG_PATH_MAX);
	if (IS_ERR(path))
		return;
	klog_image_write(hook, pid, base, size, 0, path, vma->vm_file, target,
			 ts);
}

/*
 * Is @vma, being removed, one of the current process's images, unmapped
 * while it lives (munmap; exec's own scratch mappings excepted: they had
 * no Load)?  The teardown of an address space at exit or exec is not: the
 * process wrote those Unloads as it left it (klog_image_leave()).
 */
static bool klog_unmap_ours(struct vm_area_struct *vma)
{
	struct task_struct *t = current;

	return !(t->flags & PF_KTHREAD) && vma->vm_mm == t->mm &&
	       !t->in_execve;
}

/*
 * What a probe's entry keeps of an executable file mapping for its
 * return.  The file outlives the return without a reference of ours: at
 * mmap the caller holds the mmap lock, so the mapping stays; at unmap
 * the mapping's own fput() leaves the release to this task's next
 * task_work run (return to user space, or exit_task_work() after
 * exit_mm()), and only the address space's owner, never a kernel thread,
 * is kept (klog_unmap_ours()).
 */
struct klog_image_kept {
	struct file *file;
	u64 base;
	u64 size;
	u32 pid;
};

static bool klog_image_keep(struct kretprobe_instance *ri,
			    struct vm_area_struct *vma)
{
	struct klog_image_kept *kept = (void *)ri->data;

	if (!vma || !klog_image_of(vma, &kept->base, &kept->size))
		return false;
	kept->file = vma->vm_file;
	kept->pid = klog_pid(current);
	return true;
}

/* The kept mapping's record, from a kretprobe's return. */
static void klog_image_kept_write(u16 hook, struct kretprobe_instance *ri)
{
	struct klog_image_kept *kept = (void *)ri->data;
	char *path;

	if (!klog_image_scratch)
		return;
	path = d_path(&kept->file->f_path,
		      this_cpu_ptr(klog_image_scratch)->path, KLOG_PATH_MAX);
	if (IS_ERR(path))
		return;
	klog_image_write(hook, kept->pid, kept->base, kept->size, 0, path,
			 kept->file, NULL, 0);
}

/* Hits @rp missed since the last look, counted lost of @flag's records. */
void klog_kretprobe_missed(struct kretprobe *rp, unsigned long *seen, u32 flag)
{
	unsigned long missed = READ_ONCE(rp->kp.nmissed) +
			       (unsigned int)READ_ONCE(rp->nmissed);
	unsigned long last = READ_ONCE(*seen);

	if (missed != last && cmpxchg(seen, last, missed) == last)
		klog_write_lost(flag, missed - last);
}

static unsigned long klog_unmap_seen, klog_mmap_seen;

/* remove_vma(vma, ...) or unlink_file_vma(vma): a mapping leaves. */
static int klog_unmap_entry(struct kretprobe_instance *ri,
			    struct pt_regs *regs)
{
	struct vm_area_struct *vma;

	if (!klog_enabled(ETW_KFLAG_IMAGE_LOAD))
		return 1;
	klog_kretprobe_missed(get_kretprobe(ri), &klog_unmap_seen,
			      ETW_KFLAG_IMAGE_LOAD);
	vma = (struct vm_area_struct *)regs_get_kernel_argument(regs, 0);
	if (!vma || !klog_unmap_ours(vma) || !klog_image_keep(ri, vma))
		return 1;
	return 0;
}

static int klog_unmap_ret(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	klog_image_kept_write(KLOG_HOOK_IMAGE_UNLOAD, ri);
	return 0;
}

/* Every image of @mm; its mmap lock held. */
void klog_image_mm(u16 hook, u32 pid, struct mm_struct *mm, char *buf,
		   struct klog_session *target, u64 ts)
{
	struct vm_area_struct *vma;

	for (vma = find_vma(mm, 0); vma; vma = find_vma(mm, vma->vm_end))
		klog_image_vma(hook, pid, vma, buf, target, ts);
}

/*
 * A record of @hook for each image of @t's address space, in a probe
 * (preemption disabled).  The mmap lock only if it is free: a probe
 * cannot wait for it; false without it.
 */
static bool klog_image_all(u16 hook, struct task_struct *t)
{
	struct mm_struct *mm = t->mm;

	if (!mm || !klog_image_scratch)
		return true;
	if (!mmap_read_trylock(mm))
		return false;
	klog_image_mm(hook, klog_pid(t), mm,
		      this_cpu_ptr(klog_image_scratch)->path, NULL, 0);
	mmap_read_unlock(mm);
	return true;
}

/*
 * At exec: the images of the new address space, the executable and its
 * interpreter; at fork, those the child's copy of its parent's holds.
 */
void klog_image_exec(struct task_struct *t)
{
	klog_image_all(KLOG_HOOK_IMAGE_LOAD, t);
}

/*
 * As @t's process leaves its address space for good (its last thread's
 * exit, its exec): an Unload of each of its images.  Without the mmap
 * lock they are counted lost, one at least.
 */
void klog_image_leave(struct task_struct *t)
{
	if (!klog_image_all(KLOG_HOOK_IMAGE_UNLOAD, t))
		klog_write_lost(ETW_KFLAG_IMAGE_LOAD, 1);
}

/* perf_event_mmap(vma): a new mapping of the current process. */
static int klog_mmap_entry(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	struct vm_area_struct *vma;

	/* exec's own mappings are written when the process is. */
	if (!klog_enabled(ETW_KFLAG_IMAGE_LOAD))
		return 1;
	klog_kretprobe_missed(get_kretprobe(ri), &klog_mmap_seen,
			      ETW_KFLAG_IMAGE_LOAD);
	if (current->in_execve)
		return 1;
	vma = (struct vm_area_struct *)regs_get_kernel_argument(regs, 0);
	if (!vma || vma->vm_mm != current->mm || !klog_image_keep(ri, vma))
		return 1;
	return 0;
}

static int klog_mmap_ret(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	klog_image_kept_write(KLOG_HOOK_IMAGE_LOAD, ri);
	return 0;
}

static struct kretprobe klog_mmap_rp = {
	.kp.symbol_name = "perf_event_mmap",
	.entry_handler = klog_mmap_entry,
	.handler = klog_mmap_ret,
	.data_size = sizeof(struct klog_image_kept),
};

static struct kretprobe klog_unmap_rp = {
	.entry_handler = klog_unmap_entry,
	.handler = klog_unmap_ret,
	.data_size = sizeof(struct klog_image_kept),
};

/* Where a mapping leaves, the vma the first argument: the first found. */
static const char *const klog_unmap_syms[] = {
	"remove_vma",
	"unlink_file_vma",
};

/*
 * A kretprobe is one-shot: a fresh one each time the source starts.  Its
 * instances are the tasks inside the function at once; the unmap one may
 * sleep there.
 */
int klog_kretprobe_register(struct kretprobe *rp, unsigned long *seen)
{
	rp->kp.addr = NULL;
	rp->kp.flags = 0;
	rp->kp.nmissed = 0;
	rp->nmissed = 0;
	rp->maxactive = max(32U, 8 * num_possible_cpus());
	*seen = 0;
	return register_kretprobe(rp);
}

static int klog_unmap_register(void)
{
	unsigned int i;
	int ret = -ENOENT;

	for (i = 0; i < ARRAY_SIZE(klog_unmap_syms) && ret == -ENOENT; i++) {
		klog_unmap_rp.kp.symbol_name = klog_unmap_syms[i];
		ret = klog_kretprobe_register(&klog_unmap_rp, &klog_unmap_seen);
	}
	if (ret)
		pr_warn("etw: kretprobe %s: %d\n", klog_unmap_rp.kp.symbol_name,
			ret);
	return ret;
}

static int klog_image_start(void)
{
	int ret;

	if (!klog_image_scratch)
		klog_image_scratch = alloc_percpu(struct klog_image_scratch);
	if (!klog_image_scratch)
		return -ENOMEM;
	ret = klog_kretprobe_register(&klog_mmap_rp, &klog_mmap_seen);
	if (ret) {
		pr_warn("etw: kretprobe %s: %d\n", klog_mmap_rp.kp.symbol_name,
			ret);
		return ret;
	}
	ret = klog_unmap_register();
	if (ret)
		goto err_mmap;
	ret = klog_kernel_images_start();
	if (ret)
		goto err_unmap;
	return 0;

err_unmap:
	unregister_kretprobe(&klog_unmap_rp);
err_mmap:
	unregister_kretprobe(&klog_mmap_rp);
	return ret;
}

static void klog_image_stop(void)
{
	klog_kernel_images_stop();
	unregister_kretprobe(&klog_unmap_rp);
	unregister_kretprobe(&klog_mmap_rp);
}

/* Module exit: no probe runs. */
void klog_image_exit(void)
{
	free_percpu(klog_image_scratch);
	klog_image_scratch = NULL;
}

const struct klog_source klog_source_image = {
	.name = "image",
	.flags = ETW_KFLAG_IMAGE_LOAD,
	.start = klog_image_start,
	.stop = klog_image_stop,
};
