// SPDX-License-Identifier: GPL-2.0
/*
 * Image events (EVENT_TRACE_FLAG_IMAGE_LOAD), Image_Load V3: an image is
 * an executable file mapping.  Linux has no mmap tracepoint, so a kprobe
 * on perf_event_mmap(), which every mapping (and mprotect adding
 * PROT_EXEC) passes through, sees each one; the mappings exec makes are
 * written at exec instead (klog_process.c), after the new process.
 *
 * ImageBase is where the file's offset 0 is mapped (vm_start - pgoff),
 * the load base of an ELF file whose segments keep their file layout (all
 * of ld's output), so address - ImageBase is the file's virtual address
 * for a PIE or shared object; ImageSize reaches to the end of the
 * executable mapping.  Each is followed by its identity, the ELF
 * build-id (klog_image_id.c).  A process's images unload with it: Linux has no
 * munmap hook, so Image/Unload is written for kernel modules only.
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

/* The image of @vma if it is an executable file mapping. */
void klog_image_vma(u16 hook, u32 pid, struct vm_area_struct *vma, char *buf,
		    struct klog_session *target, u64 ts)
{
	u64 base;
	char *path;

	if (!(vma->vm_flags & VM_EXEC) || !vma->vm_file)
		return;
	base = vma->vm_start - ((u64)vma->vm_pgoff << PAGE_SHIFT);
	path = d_path(&vma->vm_file->f_path, buf, KLOG_PATH_MAX);
	if (IS_ERR(path))
		return;
	klog_image_write(hook, pid, base, vma->vm_end - base, 0, path,
			 vma->vm_file, target, ts);
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
 * At exec (a probe, preemption disabled): the images of the new address
 * space, the executable and its interpreter.  The mmap lock only if it is
 * free: a probe cannot wait for it.
 */
void klog_image_exec(struct task_struct *t)
{
	struct mm_struct *mm = t->mm;

	if (!mm || !klog_image_scratch || !mmap_read_trylock(mm))
		return;
	klog_image_mm(KLOG_HOOK_IMAGE_LOAD, klog_pid(t), mm,
		      this_cpu_ptr(klog_image_scratch)->path, NULL, 0);
	mmap_read_unlock(mm);
}

/* perf_event_mmap(vma): a new mapping of the current process. */
static int klog_mmap_pre(struct kprobe *kp, struct pt_regs *regs)
{
	struct vm_area_struct *vma;

	/* exec's own mappings are written when the process is. */
	if (!klog_enabled(ETW_KFLAG_IMAGE_LOAD) || current->in_execve)
		return 0;
	vma = (struct vm_area_struct *)regs_get_kernel_argument(regs, 0);
	if (!vma || vma->vm_mm != current->mm)
		return 0;
	klog_image_vma(KLOG_HOOK_IMAGE_LOAD, klog_pid(current), vma,
		       this_cpu_ptr(klog_image_scratch)->path, NULL, 0);
	return 0;
}

static struct kprobe klog_mmap_kp = {
	.symbol_name = "perf_event_mmap",
	.pre_handler = klog_mmap_pre,
};

static int klog_image_start(void)
{
	int ret;

	if (!klog_image_scratch)
		klog_image_scratch = alloc_percpu(struct klog_image_scratch);
	if (!klog_image_scratch)
		return -ENOMEM;
	/* A kprobe is one-shot: a fresh one each time the source starts. */
	klog_mmap_kp.addr = NULL;
	klog_mmap_kp.flags = 0;
	ret = register_kprobe(&klog_mmap_kp);
	if (ret)
		return ret;
	ret = klog_kernel_images_start();
	if (ret)
		unregister_kprobe(&klog_mmap_kp);
	return ret;
}

static void klog_image_stop(void)
{
	klog_kernel_images_stop();
	unregister_kprobe(&klog_mmap_kp);
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
