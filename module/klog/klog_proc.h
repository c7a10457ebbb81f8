/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Process, thread and image records (klog/process.c, klog/thread.c,
 * klog/image.c), shared with the rundown (klog/rundown.c).
 */
#ifndef _ETW_KLOG_PROC_H
#define _ETW_KLOG_PROC_H

#include <linux/types.h>

#include "klog_internal.h"

struct task_struct;
struct mm_struct;
struct vm_area_struct;

/* Bytes of an image's file name and of a command line we record. */
#define KLOG_NAME_MAX		256
#define KLOG_PATH_MAX		1024
#define KLOG_CMDLINE_MAX	2048

/* Room a Process record's payload may take. */
#define KLOG_PROCESS_PAYLOAD	(96 + KLOG_NAME_MAX + 2 * KLOG_CMDLINE_MAX + 8)

/* What a Process event says of a process. */
struct klog_proc {
	u64 key;
	u32 pid;
	u32 ppid;
	u32 session;
	s32 exit_status;
	uid_t uid;
	char image[KLOG_NAME_MAX];
	char cmd[KLOG_CMDLINE_MAX];
	u32 cmd_len;
};

/* STATUS_PENDING: the ExitStatus of a live process, as Windows writes. */
#define KLOG_STATUS_PENDING	0x103

/* klog/process.c */
void klog_proc_ids(struct klog_proc *p, struct task_struct *t);
void klog_proc_task(struct klog_proc *p, struct task_struct *t);
void klog_process_write(u16 hook, const struct klog_proc *p,
			struct klog_session *target, u64 ts, u8 *payload);

/* klog/thread.c */
void klog_thread_write(u16 hook, struct task_struct *t, u32 tid,
		       struct klog_session *target, u64 ts);
void klog_thread_name_write(struct task_struct *t, const char *comm,
			    struct klog_session *target, u64 ts);

/* klog/image.c */
struct file;
void klog_image_write(u16 hook, u32 pid, u64 base, u64 size, u64 default_base,
		      const char *path, struct file *file,
		      struct klog_session *target, u64 ts);
void klog_image_vma(u16 hook, u32 pid, struct vm_area_struct *vma, char *buf,
		    struct klog_session *target, u64 ts);
void klog_image_mm(u16 hook, u32 pid, struct mm_struct *mm, char *buf,
		   struct klog_session *target, u64 ts);
void klog_image_exec(struct task_struct *t);
void klog_image_leave(struct task_struct *t);
void klog_image_kernel(u16 hook, struct klog_session *target);
struct kretprobe;
int klog_kretprobe_register(struct kretprobe *rp, unsigned long *seen);
void klog_kretprobe_missed(struct kretprobe *rp, unsigned long *seen, u32 flag);

void klog_process_exit(void);
void klog_image_exit(void);

/* klog/image_id.c: ImageID/Info and DbgID_RSDS beside an image event */
#define KLOG_BUILD_ID_MAX	20
void klog_image_id(struct file *file, u64 base, u64 size, u32 pid,
		   const char *path, u8 *name, u32 name_room,
		   struct klog_session *target, u64 ts);
void klog_image_id_write(const u8 *id, u32 id_len, u64 base, u64 size,
			 u32 pid, const char *path, u8 *name, u32 name_room,
			 struct klog_session *target, u64 ts);
u32 klog_build_id_notes(const u8 *p, u64 len, u8 *id);

/* klog/kernel.c */
int klog_kernel_images_start(void);
void *klog_kernel_symbol(const char *name);
void klog_kernel_images_stop(void);

#endif /* _ETW_KLOG_PROC_H */
