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

/* klog/fileio_name.c: the key of this start, the rundowns. */
void klog_fileio_names_start(void);
void klog_fileio_names_session(struct klog_session *k, bool end);

#endif /* _ETW_KLOG_FILEIO_H */
