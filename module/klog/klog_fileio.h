/* SPDX-License-Identifier: GPL-2.0 */
/*
 * FileIo records (klog/fileio.c, the operations; klog/fileio_name.c, the
 * names of files).  Documentation/kernel-logger.rst has the design.
 */
#ifndef _ETW_KLOG_FILEIO_H
#define _ETW_KLOG_FILEIO_H

#include <linux/types.h>
#include <linux/etw.h>

#include "klog_internal.h"

struct file;

/* Every flag the FileIo source serves; names come with any of them. */
#define KLOG_FILEIO_FLAGS	(ETW_KFLAG_FILE_IO | ETW_KFLAG_FILE_IO_INIT | \
				 ETW_KFLAG_DISK_FILE_IO)

#define KLOG_HOOK_FILE_NAME		KLOG_HOOK(KLOG_GROUP_FILEIO, 0)
#define KLOG_HOOK_FILE_CREATE_NAME	KLOG_HOOK(KLOG_GROUP_FILEIO, 32)
#define KLOG_HOOK_FILE_RUNDOWN		KLOG_HOOK(KLOG_GROUP_FILEIO, 36)
#define KLOG_HOOK_FILE_CLEANUP		KLOG_HOOK(KLOG_GROUP_FILEIO, 65)
#define KLOG_HOOK_FILE_CLOSE		KLOG_HOOK(KLOG_GROUP_FILEIO, 66)

/* FileIo_SimpleOp (Cleanup, Close, Flush), version 3. */
struct klog_fileio_simple {
	u64 irp;
	u64 file_object;
	u64 file_key;
	u32 ttid;
} __packed;

/* Does FileIo follow @file (a regular file or a directory)? */
bool klog_fileio_followed(const struct file *file);

/* FileObject (the open file) and FileKey (its inode): keyed hashes. */
u64 klog_fileio_object(const struct file *file);
u64 klog_fileio_key(const struct file *file);

/*
 * A FileIo_Name record (@hook: Name, FileCreate or FileRundown) naming
 * @file's FileKey, written to @target (NULL: every session with a FileIo
 * flag).  @path is room for KLOG_PATH_MAX bytes, @wide for twice that.
 * Preemption disabled.
 */
void klog_fileio_name(u16 hook, struct file *file, char *path, u8 *wide,
		      struct klog_session *target);

/* IrpPtr: the calling thread's, never 0. */
u64 klog_fileio_irp(void);

/* A FileIo record of @flag, with @text (UTF-16, or NULL) after @rec. */
void klog_fileio_write(u16 hook, u32 flag, const void *rec, u32 size,
		       const void *text, u32 text_size);

/* OperationEnd (FILE_IO) of the operation @irp. */
void klog_fileio_op_end(u64 irp, u64 extra, u32 status);

/*
 * klog/fileio_compat.c: a 32-bit call's number as its 64-bit twin's (-1:
 * none FileIo follows), its split arguments joined in @args.
 */
long klog_fileio_compat_nr(long nr, unsigned long *args);

/* Is the task in a close(2), one the system call tracepoints follow? */
bool klog_fileio_in_close(void);

/* klog/fileio_close.c: closes no close(2) makes (exit, exec, dup2...). */
int klog_fileio_closes_start(void);
void klog_fileio_closes_stop(void);

/* klog/fileio_name.c: the key of this start, the rundowns. */
void klog_fileio_names_start(void);
void klog_fileio_names_session(struct klog_session *k, bool end);

#endif /* _ETW_KLOG_FILEIO_H */
