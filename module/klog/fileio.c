// SPDX-License-Identifier: GPL-2.0
/*
 * FILE_IO_INIT, FILE_IO and DISK_FILE_IO: file operations as FileIo
 * events (version 3 layouts), from the raw_syscalls sys_enter and
 * sys_exit tracepoints.
 *
 * Why system calls: the operations Windows' file system filter sees are
 * requests with a file object, a thread and a status, and on Linux that
 * is the system call; the VFS functions below it are called from the
 * kernel too (exec, core dumps, the page cache), are inlined differently
 * on 6.1 and 6.12, and would need kretprobes for a status.  Two
 * tracepoints serve every operation and its end.  The cost: while the
 * source runs, every system call of every task takes the tracing slow
 * path (as under LTTng's or perf's syscall tracing) and the probe's
 * switch on the number; the calls below pay a descriptor lookup (fget,
 * no lock) and their records.
 *
 * At entry (FILE_IO_INIT), for a regular file or a directory:
 *   read, pread64, readv, preadv, preadv2          Read
 *   write, pwrite64, writev, pwritev, pwritev2     Write
 *   close                                          Cleanup, then Close if
 *                                                  it drops the last
 *                                                  reference to the file
 *   fsync, fdatasync                               Flush
 *   ftruncate, fallocate, fchmod, fchown           SetInfo
 *   fstat; newfstatat, statx of "" (AT_EMPTY_PATH) QueryInfo
 *   ioctl                                          FSControl
 *   getdents64, getdents                           DirEnum ("*")
 *   inotify_add_watch, fanotify_mark               DirNotify (the path)
 *   unlink, unlinkat, rmdir                        Delete, DletePath
 *   rename, renameat, renameat2                    Rename, RenamePath
 * At exit: open, openat, openat2 and creat give Create (FILE_IO_INIT;
 * its FileObject is known only then), a FileCreate naming the file (any
 * of the three flags), and for each operation above OperationEnd
 * (FILE_IO) with the NTSTATUS of its result and ExtraInfo as Windows
 * fills it: the bytes moved, Create's disposition (FILE_CREATED,
 * FILE_OVERWRITTEN or FILE_OPENED).
 *
 * IrpPtr pairs an operation with its end: a keyed hash of the thread,
 * which has one system call in flight at a time (Windows reuses IRPs
 * too).  Whether an operation was followed at entry is kept for its exit
 * in a table of KLOG_FILEIO_SLOTS slots by that hash; an operation whose
 * slot another thread holds has no OperationEnd and counts one record
 * lost.  TTID is the thread's id; records have the PERFINFO header
 * (no thread in the header), as Windows writes FileIo.
 *
 * Descriptors closed without close(2) (exit, exec, close_range, dup2)
 * get their Cleanup and Close from klog/fileio_close.c.
 *
 * 32-bit (ia32) calls are read as their 64-bit twins (klog/fileio_compat.c).
 *
 * Not followed: io_uring and AIO, the kernel's own file I/O,
 * memory-mapped I/O, a stat of a path (Linux opens nothing), and files
 * that are neither regular nor directories (pipes, sockets, devices).
 * The Delete, Rename and DirNotify of a path have no FileObject; their
 * path event carries the path as given.
 *
 * Contexts: both tracepoints run in the calling task with preemption
 * disabled (6.1 and 6.12); nothing here sleeps.  fget() and fput() take
 * no lock (a last fput() is deferred to task work); d_path() reads
 * seqlocks, which this ordinary context may; user memory is read only
 * with copy_from_user_nofault().  Paths and the UTF-16 text are built in
 * a per-CPU scratch area allocated at start and freed at stop, after the
 * probes are gone.
 */
#include <linux/compat.h>
#include <linux/dcache.h>
#include <linux/err.h>
#include <linux/fcntl.h>
#include <linux/file.h>
#include <linux/fs.h>
#include <linux/inotify.h>
#include <linux/percpu.h>
#include <linux/sched.h>
#include <linux/siphash.h>
#include <linux/tracepoint.h>
#include <linux/uaccess.h>
#include <linux/uio.h>
#include <asm/syscall.h>

#include "klog_fileio.h"
#include "klog_proc.h"
#include "klog_text.h"

#define KLOG_HOOK_FILE_CREATE		KLOG_HOOK(KLOG_GROUP_FILEIO, 64)
#define KLOG_HOOK_FILE_READ		KLOG_HOOK(KLOG_GROUP_FILEIO, 67)
#define KLOG_HOOK_FILE_WRITE		KLOG_HOOK(KLOG_GROUP_FILEIO, 68)
#define KLOG_HOOK_FILE_SET_INFO		KLOG_HOOK(KLOG_GROUP_FILEIO, 69)
#define KLOG_HOOK_FILE_DELETE		KLOG_HOOK(KLOG_GROUP_FILEIO, 70)
#define KLOG_HOOK_FILE_RENAME		KLOG_HOOK(KLOG_GROUP_FILEIO, 71)
#define KLOG_HOOK_FILE_DIR_ENUM		KLOG_HOOK(KLOG_GROUP_FILEIO, 72)
#define KLOG_HOOK_FILE_FLUSH		KLOG_HOOK(KLOG_GROUP_FILEIO, 73)
#define KLOG_HOOK_FILE_QUERY_INFO	KLOG_HOOK(KLOG_GROUP_FILEIO, 74)
#define KLOG_HOOK_FILE_FS_CONTROL	KLOG_HOOK(KLOG_GROUP_FILEIO, 75)
#define KLOG_HOOK_FILE_OP_END		KLOG_HOOK(KLOG_GROUP_FILEIO, 76)
#define KLOG_HOOK_FILE_DIR_NOTIFY	KLOG_HOOK(KLOG_GROUP_FILEIO, 77)
#define KLOG_HOOK_FILE_DELETE_PATH	KLOG_HOOK(KLOG_GROUP_FILEIO, 79)
#define KLOG_HOOK_FILE_RENAME_PATH	KLOG_HOOK(KLOG_GROUP_FILEIO, 80)

/*
 * FILE_INFORMATION_CLASS values of SetInfo, QueryInfo, Delete, Rename,
 * DirEnum.  A stat is FileStatLxInformation, the class Windows' own Linux
 * subsystem (WSL) queries for one.
 */
#define KLOG_FILE_DIRECTORY_INFORMATION		1
#define KLOG_FILE_BASIC_INFORMATION		4
#define KLOG_FILE_RENAME_INFORMATION		10
#define KLOG_FILE_DISPOSITION_INFORMATION	13
#define KLOG_FILE_ALLOCATION_INFORMATION	19
#define KLOG_FILE_END_OF_FILE_INFORMATION	20
#define KLOG_FILE_STAT_LX_INFORMATION		70

/* DirNotify's CompletionFilter (FILE_NOTIFY_CHANGE_*). */
#define KLOG_NOTIFY_NAMES		0x003	/* FILE_NAME | DIR_NAME */
#define KLOG_NOTIFY_ATTRIBUTES		0x104	/* ATTRIBUTES | SECURITY */
#define KLOG_NOTIFY_WRITE		0x018	/* SIZE | LAST_WRITE */
#define KLOG_NOTIFY_ACCESS		0x020	/* LAST_ACCESS */

/* Create's CreateOptions: disposition << 24 | options (ntifs.h). */
#define KLOG_FILE_OPEN			1
#define KLOG_FILE_CREATE		2
#define KLOG_FILE_OPEN_IF		3
#define KLOG_FILE_OVERWRITE		4
#define KLOG_FILE_OVERWRITE_IF		5
#define KLOG_FILE_DIRECTORY_FILE	0x00000001
#define KLOG_FILE_WRITE_THROUGH		0x00000002
#define KLOG_FILE_NO_INTERMEDIATE_BUFFERING 0x00000008
/* Linux shares every open: FILE_SHARE_READ | WRITE | DELETE. */
#define KLOG_FILE_SHARE_ALL		7
/* Create's Information (OperationEnd's ExtraInfo). */
#define KLOG_FILE_OPENED		1
#define KLOG_FILE_CREATED		2
#define KLOG_FILE_OVERWRITTEN		3
/* IoFlags: IRP_NOCACHE, an O_DIRECT transfer. */
#define KLOG_IRP_NOCACHE		0x00000001

/* FileIo_Create, version 3; OpenPath follows. */
struct klog_fileio_create {
	u64 irp;
	u64 file_object;
	u32 ttid;
	u32 create_options;
	u32 file_attributes;
	u32 share_access;
} __packed;

/* FileIo_ReadWrite, version 3. */
struct klog_fileio_rw {
	u64 offset;
	u64 irp;
	u64 file_object;
	u64 file_key;
	u32 ttid;
	u32 io_size;
	u32 io_flags;
} __packed;

/* FileIo_Info (SetInfo, Delete, Rename), version 3. */
struct klog_fileio_info {
	u64 irp;
	u64 file_object;
	u64 file_key;
	u64 extra_info;
	u32 ttid;
	u32 info_class;
} __packed;

/* FileIo_DirEnum, version 3; FileName follows. */
struct klog_fileio_dirent {
	u64 irp;
	u64 file_object;
	u64 file_key;
	u32 ttid;
	u32 length;
	u32 info_class;
	u32 file_index;
} __packed;

/* FileIo_PathOperation (DletePath, RenamePath), v3; FileName follows. */
struct klog_fileio_path {
	u64 irp;
	u64 file_object;
	u64 file_key;
	u64 extra_info;
	u32 ttid;
	u32 info_class;
} __packed;

/* FileIo_OpEnd, version 3. */
struct klog_fileio_opend {
	u64 irp;
	u64 extra_info;
	u32 nt_status;
} __packed;

static_assert(sizeof(struct klog_fileio_rw) == 44);
static_assert(sizeof(struct klog_fileio_opend) == 20);

/* What a system call is to FileIo. */
enum klog_fileio_kind {
	KLOG_FIO_NONE,
	KLOG_FIO_OPEN,		/* path in arg @path, flags in arg @flags */
	KLOG_FIO_READ,		/* fd 0; @pos: its argument, or -1: f_pos */
	KLOG_FIO_WRITE,
	KLOG_FIO_CLOSE,
	KLOG_FIO_FLUSH,
	KLOG_FIO_SETINFO,	/* @info: its class */
	KLOG_FIO_DIRENUM,
	KLOG_FIO_DELETE,	/* path in arg @path */
	KLOG_FIO_RENAME,
	KLOG_FIO_QUERY,		/* fd 0; @empty: only with "" and AT_EMPTY_PATH */
	KLOG_FIO_FSCTL,		/* fd 0, the command in arg 2 */
	KLOG_FIO_NOTIFY,	/* path in arg @path, the mask in arg @info */
};

/* Argument numbers are counted from 1: 0 is none. */
struct klog_fileio_op {
	u8 kind;
	u8 path;		/* the argument that is a path */
	s8 flags;		/* open: of its flags; -1: creat; -2: openat2 */
	u8 pos;			/* read/write: of the offset (none: f_pos) */
	bool vec;		/* read/write: an iovec array and its count */
	bool compat;		/* a 32-bit call: compat_iovec arrays */
	u8 info;		/* SetInfo's FILE_INFORMATION_CLASS */
	u8 empty;		/* QueryInfo: the path that must be "" ... */
	u8 at_flags;		/* ... and the flags with AT_EMPTY_PATH */
};

#define FIO(k, ...)	((struct klog_fileio_op){ .kind = (k), __VA_ARGS__ })

/* false: a call FileIo does not follow. */
static bool klog_fileio_op(long nr, struct klog_fileio_op *op)
{
	switch (nr) {
#ifdef __NR_open
	case __NR_open:
		*op = FIO(KLOG_FIO_OPEN, .path = 1, .flags = 2);
		break;
#endif
#ifdef __NR_creat
	case __NR_creat:
		*op = FIO(KLOG_FIO_OPEN, .path = 1, .flags = -1);
		break;
#endif
	case __NR_openat:
		*op = FIO(KLOG_FIO_OPEN, .path = 2, .flags = 3);
		break;
#ifdef __NR_openat2
	case __NR_openat2:
		*op = FIO(KLOG_FIO_OPEN, .path = 2, .flags = -2);
		break;
#endif
	case __NR_read:
		*op = FIO(KLOG_FIO_READ);
		break;
	case __NR_pread64:
		*op = FIO(KLOG_FIO_READ, .pos = 4);
		break;
	case __NR_readv:
		*op = FIO(KLOG_FIO_READ, .vec = true);
		break;
	case __NR_preadv:
	case __NR_preadv2:
		*op = FIO(KLOG_FIO_READ, .pos = 4, .vec = true);
		break;
	case __NR_write:
		*op = FIO(KLOG_FIO_WRITE);
		break;
	case __NR_pwrite64:
		*op = FIO(KLOG_FIO_WRITE, .pos = 4);
		break;
	case __NR_writev:
		*op = FIO(KLOG_FIO_WRITE, .vec = true);
		break;
	case __NR_pwritev:
	case __NR_pwritev2:
		*op = FIO(KLOG_FIO_WRITE, .pos = 4, .vec = true);
		break;
	case __NR_close:
		*op = FIO(KLOG_FIO_CLOSE);
		break;
	case __NR_fsync:
	case __NR_fdatasync:
		*op = FIO(KLOG_FIO_FLUSH);
		break;
	case __NR_ftruncate:
		*op = FIO(KLOG_FIO_SETINFO,
			  .info = KLOG_FILE_END_OF_FILE_INFORMATION);
		break;
	case __NR_fallocate:
		*op = FIO(KLOG_FIO_SETINFO,
			  .info = KLOG_FILE_ALLOCATION_INFORMATION);
		break;
#ifdef __NR_fchmod
	case __NR_fchmod:
	case __NR_fchown:
		*op = FIO(KLOG_FIO_SETINFO, .info = KLOG_FILE_BASIC_INFORMATION);
		break;
#endif
#ifdef __NR_fstat
	case __NR_fstat:
		*op = FIO(KLOG_FIO_QUERY);
		break;
#endif
#ifdef __NR_newfstatat
	case __NR_newfstatat:
		*op = FIO(KLOG_FIO_QUERY, .empty = 2, .at_flags = 4);
		break;
#endif
	case __NR_statx:
		*op = FIO(KLOG_FIO_QUERY, .empty = 2, .at_flags = 3);
		break;
	case __NR_ioctl:
		*op = FIO(KLOG_FIO_FSCTL);
		break;
	case __NR_inotify_add_watch:
		*op = FIO(KLOG_FIO_NOTIFY, .path = 2, .info = 3);
		break;
	case __NR_fanotify_mark:
		*op = FIO(KLOG_FIO_NOTIFY, .path = 5, .info = 3);
		break;
	case __NR_getdents64:
#ifdef __NR_getdents
	case __NR_getdents:
#endif
		*op = FIO(KLOG_FIO_DIRENUM);
		break;
#ifdef __NR_unlink
	case __NR_unlink:
	case __NR_rmdir:
		*op = FIO(KLOG_FIO_DELETE, .path = 1);
		break;
#endif
	case __NR_unlinkat:
		*op = FIO(KLOG_FIO_DELETE, .path = 2);
		break;
#ifdef __NR_rename
	case __NR_rename:
		*op = FIO(KLOG_FIO_RENAME, .path = 1);
		break;
#endif
#ifdef __NR_renameat
	case __NR_renameat:
#endif
	case __NR_renameat2:
		*op = FIO(KLOG_FIO_RENAME, .path = 2);
		break;
	default:
		return false;
	}
	return true;
}

#define KLOG_FILEIO_SLOTS	1024

/* An operation followed at entry, for its exit: its IrpPtr, or 0. */
static u64 klog_fileio_slots[KLOG_FILEIO_SLOTS];
static siphash_key_t klog_fileio_irp_key;

/* A path and its UTF-16 text, per CPU, preemption disabled. */
struct klog_fileio_scratch {
	char path[KLOG_PATH_MAX];
	u8 wide[2 * KLOG_PATH_MAX];
};

static struct klog_fileio_scratch __percpu *klog_fileio_scratch;

u64 klog_fileio_irp(void)
{
	/* Never 0: a free slot. */
	return siphash_1u64((u64)(unsigned long)current,
			    &klog_fileio_irp_key) | 1;
}

static u64 *klog_fileio_slot(u64 irp)
{
	return &klog_fileio_slots[irp % KLOG_FILEIO_SLOTS];
}

/* NTSTATUS of a system call's negative errno. */
static u32 klog_fileio_status(long err)
{
	switch (err) {
	case 0:
		return 0;			/* STATUS_SUCCESS */
	case -ENOENT:
		return 0xc0000034;		/* OBJECT_NAME_NOT_FOUND */
	case -EACCES:
	case -EPERM:
		return 0xc0000022;		/* ACCESS_DENIED */
	case -EEXIST:
		return 0xc0000035;		/* OBJECT_NAME_COLLISION */
	case -EBADF:
		return 0xc0000008;		/* INVALID_HANDLE */
	case -EINVAL:
		return 0xc000000d;		/* INVALID_PARAMETER */
	case -EISDIR:
		return 0xc00000ba;		/* FILE_IS_A_DIRECTORY */
	case -ENOTDIR:
		return 0xc0000103;		/* NOT_A_DIRECTORY */
	case -ENOTEMPTY:
		return 0xc0000101;		/* DIRECTORY_NOT_EMPTY */
	case -ENOSPC:
		return 0xc000007f;		/* DISK_FULL */
	case -EROFS:
		return 0xc00000a2;		/* MEDIA_WRITE_PROTECTED */
	case -ENAMETOOLONG:
		return 0xc0000106;		/* NAME_TOO_LONG */
	case -EMFILE:
	case -ENFILE:
		return 0xc000011f;		/* TOO_MANY_OPENED_FILES */
	case -ENOMEM:
		return 0xc000009a;		/* INSUFFICIENT_RESOURCES */
	case -EFAULT:
		return 0xc0000005;		/* ACCESS_VIOLATION */
	case -EIO:
		return 0xc0000185;		/* IO_DEVICE_ERROR */
	case -EINTR:
		return 0xc0000120;		/* CANCELLED */
	case -EAGAIN:
		return 0xc00000d8;		/* CANT_WAIT */
	case -EXDEV:
		return 0xc00000d4;		/* NOT_SAME_DEVICE */
	case -EFBIG:
		return 0xc0000904;		/* FILE_TOO_LARGE */
	case -ELOOP:
		return 0xc0000280;		/* REPARSE_POINT_NOT_RESOLVED */
	case -EOPNOTSUPP:
		return 0xc00000bb;		/* NOT_SUPPORTED */
	}
	return 0xc0000001;			/* UNSUCCESSFUL */
}

void klog_fileio_write(u16 hook, u32 flag, const void *rec, u32 size,
		       const void *text, u32 text_size)
{
	struct klog_part parts[2] = { { rec, size }, { text, text_size } };
	struct klog_event ev = {
		.hook = hook,
		.header_type = KLOG_HDR_PERFINFO,
		.version = 3,
		.flag = flag,
		.parts = parts,
		.nr_parts = text ? 2 : 1,
		.stack = klog_task_stack(hook),
	};

	klog_write(&ev);
}

/*
 * The NUL-terminated string at user @addr into @buf (@room bytes), with
 * nofault reads a page at a time; "" where it cannot be read.
 */
static void klog_fileio_user_string(char *buf, u32 room, unsigned long addr)
{
	u32 len = 0, n;

	while (len < room - 1) {
		n = min_t(u32, room - 1 - len,
			  PAGE_SIZE - ((addr + len) & ~PAGE_MASK));
		if (copy_from_user_nofault(buf + len,
					   (const void __user *)(addr + len), n))
			break;
		if (memchr(buf + len, 0, n))
			return;
		len += n;
	}
	buf[len] = 0;
}

/* @s as UTF-16 in the scratch area; its size. */
static u32 klog_fileio_wide(struct klog_fileio_scratch *sc, const char *s)
{
	return klog_utf16(sc->wide, sizeof(sc->wide), s, strlen(s));
}

/*
 * The bytes of an iovec array (@compat: of struct compat_iovec), as far
 * as it can be read (nofault).
 */
static u32 klog_fileio_iov_size(unsigned long uvec, unsigned long nr,
				bool compat)
{
	struct compat_iovec ciov;
	struct iovec iov;
	u64 sum = 0;
	unsigned long i;

	for (i = 0; i < min_t(unsigned long, nr, UIO_FASTIOV); i++) {
		if (compat) {
			if (copy_from_user_nofault(&ciov, (const void __user *)
						   (uvec + i * sizeof(ciov)),
						   sizeof(ciov)))
				break;
			sum += ciov.iov_len;
			continue;
		}
		if (copy_from_user_nofault(&iov, (const void __user *)
					   (uvec + i * sizeof(iov)), sizeof(iov)))
			break;
		sum += iov.iov_len;
	}
	return min_t(u64, sum, U32_MAX);
}

/* An operation on descriptor args[0], at entry. */
static void klog_fileio_fd_enter(const struct klog_fileio_op *op,
				 const unsigned long *args, u64 irp)
{
	struct file *file = fget(args[0]);
	u64 obj, key, *slot, old;
	u32 ttid;

	if (!file)
		return;
	if (!klog_fileio_followed(file))
		goto out;
	if (klog_enabled(ETW_KFLAG_FILE_IO)) {
		slot = klog_fileio_slot(irp);
		old = cmpxchg(slot, 0, irp);
		if (old && old != irp)
			klog_write_lost(ETW_KFLAG_FILE_IO, 1);
	}
	if (!klog_enabled(ETW_KFLAG_FILE_IO_INIT))
		goto out;
	obj = klog_fileio_object(file);
	key = klog_fileio_key(file);
	ttid = klog_tid(current);
	switch (op->kind) {
	case KLOG_FIO_READ:
	case KLOG_FIO_WRITE: {
		struct klog_fileio_rw rec = {
			.irp = irp, .file_object = obj, .file_key = key,
			.ttid = ttid,
		};

		if (op->pos && (long)args[op->pos - 1] >= 0)
			rec.offset = args[op->pos - 1];
		else if (op->kind == KLOG_FIO_WRITE &&
			 (file->f_flags & O_APPEND))
			rec.offset = i_size_read(file_inode(file));
		else
			rec.offset = READ_ONCE(file->f_pos);
		rec.io_size = op->vec ? klog_fileio_iov_size(args[1], args[2],
							     op->compat) :
			      min_t(unsigned long, args[2], U32_MAX);
		if (file->f_flags & O_DIRECT)
			rec.io_flags = KLOG_IRP_NOCACHE;
		klog_fileio_write(op->kind == KLOG_FIO_READ ?
				  KLOG_HOOK_FILE_READ : KLOG_HOOK_FILE_WRITE,
				  ETW_KFLAG_FILE_IO_INIT, &rec, sizeof(rec),
				  NULL, 0);
		break;
	}
	case KLOG_FIO_CLOSE:
	case KLOG_FIO_FLUSH: {
		struct klog_fileio_simple rec = {
			.irp = irp, .file_object = obj, .file_key = key,
			.ttid = ttid,
		};

		if (op->kind == KLOG_FIO_FLUSH) {
			klog_fileio_write(KLOG_HOOK_FILE_FLUSH,
					  ETW_KFLAG_FILE_IO_INIT, &rec,
					  sizeof(rec), NULL, 0);
			break;
		}
		klog_fileio_write(KLOG_HOOK_FILE_CLEANUP, ETW_KFLAG_FILE_IO_INIT,
				  &rec, sizeof(rec), NULL, 0);
		/* The table's reference and ours: this close releases it. */
		if (file_count(file) == 2)
			klog_fileio_write(KLOG_HOOK_FILE_CLOSE,
					  ETW_KFLAG_FILE_IO_INIT, &rec,
					  sizeof(rec), NULL, 0);
		break;
	}
	case KLOG_FIO_SETINFO: {
		struct klog_fileio_info rec = {
			.irp = irp, .file_object = obj, .file_key = key,
			.ttid = ttid, .info_class = op->info,
		};

		/* The new size; fallocate's end (offset + len). */
		if (op->info == KLOG_FILE_END_OF_FILE_INFORMATION)
			rec.extra_info = args[1];
		else if (op->info == KLOG_FILE_ALLOCATION_INFORMATION)
			rec.extra_info = args[2] + args[3];
		klog_fileio_write(KLOG_HOOK_FILE_SET_INFO,
				  ETW_KFLAG_FILE_IO_INIT, &rec, sizeof(rec),
				  NULL, 0);
		break;
	}
	case KLOG_FIO_QUERY:
	case KLOG_FIO_FSCTL: {
		/* FSControl's InfoClass is its control code: the command. */
		struct klog_fileio_info rec = {
			.irp = irp, .file_object = obj, .file_key = key,
			.ttid = ttid,
			.info_class = op->kind == KLOG_FIO_QUERY ?
				      KLOG_FILE_STAT_LX_INFORMATION : args[1],
		};

		klog_fileio_write(op->kind == KLOG_FIO_QUERY ?
				  KLOG_HOOK_FILE_QUERY_INFO :
				  KLOG_HOOK_FILE_FS_CONTROL,
				  ETW_KFLAG_FILE_IO_INIT, &rec, sizeof(rec),
				  NULL, 0);
		break;
	}
	case KLOG_FIO_DIRENUM: {
		/* "*": the whole directory, as Windows writes a full listing. */
		static const u8 all[] = { '*', 0, 0, 0 };
		struct klog_fileio_dirent rec = {
			.irp = irp, .file_object = obj, .file_key = key,
			.ttid = ttid,
			.length = min_t(unsigned long, args[2], U32_MAX),
			.info_class = KLOG_FILE_DIRECTORY_INFORMATION,
		};

		klog_fileio_write(KLOG_HOOK_FILE_DIR_ENUM,
				  ETW_KFLAG_FILE_IO_INIT, &rec, sizeof(rec),
				  all, sizeof(all));
		break;
	}
	}
out:
	fput(file);
}

/*
 * unlink or rename of a path, at entry: the SetInfo-class Delete or
 * Rename (no FileObject: no file is open), then DletePath or RenamePath
 * with the path as given, as Windows 10 writes the pair.
 */
static void klog_fileio_path_enter(const struct klog_fileio_op *op,
				   const unsigned long *args, u64 irp)
{
	bool del = op->kind == KLOG_FIO_DELETE;
	struct klog_fileio_scratch *sc = this_cpu_ptr(klog_fileio_scratch);
	struct klog_fileio_info info = {
		.irp = irp, .ttid = klog_tid(current),
		.info_class = del ? KLOG_FILE_DISPOSITION_INFORMATION :
			      KLOG_FILE_RENAME_INFORMATION,
	};
	struct klog_fileio_path rec = {
		.irp = irp, .ttid = info.ttid, .info_class = info.info_class,
	};

	klog_fileio_write(del ? KLOG_HOOK_FILE_DELETE : KLOG_HOOK_FILE_RENAME,
			  ETW_KFLAG_FILE_IO_INIT, &info, sizeof(info), NULL, 0);
	klog_fileio_user_string(sc->path, sizeof(sc->path), args[op->path - 1]);
	klog_fileio_write(del ? KLOG_HOOK_FILE_DELETE_PATH :
			  KLOG_HOOK_FILE_RENAME_PATH, ETW_KFLAG_FILE_IO_INIT,
			  &rec, sizeof(rec), sc->wide,
			  klog_fileio_wide(sc, sc->path));
}

/* inotify's or fanotify's mask (their bits agree) as a CompletionFilter. */
static u32 klog_fileio_notify_filter(u64 mask)
{
	u32 filter = 0;

	if (mask & (IN_CREATE | IN_DELETE | IN_MOVED_FROM | IN_MOVED_TO |
		    IN_DELETE_SELF | IN_MOVE_SELF))
		filter |= KLOG_NOTIFY_NAMES;
	if (mask & IN_ATTRIB)
		filter |= KLOG_NOTIFY_ATTRIBUTES;
	if (mask & IN_MODIFY)
		filter |= KLOG_NOTIFY_WRITE;
	if (mask & IN_ACCESS)
		filter |= KLOG_NOTIFY_ACCESS;
	return filter;
}

/*
 * inotify_add_watch() or fanotify_mark() of a path, at entry: DirNotify
 * with the path as given (no FileObject: the watch is on the inode, no
 * file is opened), Length 0 (events are read later from the
 * notification descriptor), InfoClass the CompletionFilter.
 */
static void klog_fileio_notify_enter(const struct klog_fileio_op *op,
				     const unsigned long *args, u64 irp)
{
	struct klog_fileio_scratch *sc = this_cpu_ptr(klog_fileio_scratch);
	struct klog_fileio_dirent rec = {
		.irp = irp, .ttid = klog_tid(current),
		.info_class = klog_fileio_notify_filter(args[op->info - 1]),
	};

	klog_fileio_user_string(sc->path, sizeof(sc->path), args[op->path - 1]);
	klog_fileio_write(KLOG_HOOK_FILE_DIR_NOTIFY, ETW_KFLAG_FILE_IO_INIT,
			  &rec, sizeof(rec), sc->wide,
			  klog_fileio_wide(sc, sc->path));
}

/*
 * QueryInfo of a descriptor: fstat(), or a stat of "" with AT_EMPTY_PATH.
 * The "" is read at the call's exit, where the kernel has read it (so its
 * page is in memory for a nofault read): the QueryInfo is written then,
 * just before its OperationEnd.
 */
static bool klog_fileio_on_fd(const struct klog_fileio_op *op,
			      const unsigned long *args)
{
	unsigned long path;
	char c;

	if (!op->empty)
		return true;
	if (!(args[op->at_flags - 1] & AT_EMPTY_PATH))
		return false;
	path = args[op->empty - 1];
	return !path || (!copy_from_user_nofault(&c, (const void __user *)path,
						 1) && !c);
}

/*
 * The system call @nr as FileIo sees it, into @op, and its arguments
 * (a 32-bit call's as its 64-bit twin's); false: one it does not follow.
 */
static bool klog_fileio_call(struct pt_regs *regs, long nr,
			     struct klog_fileio_op *op, unsigned long *args)
{
	if (in_compat_syscall()) {
		syscall_get_arguments(current, regs, args);
		if (!klog_fileio_op(klog_fileio_compat_nr(nr, args), op))
			return false;
		op->compat = true;
		return true;
	}
	if (!klog_fileio_op(nr, op))
		return false;
	syscall_get_arguments(current, regs, args);
	return true;
}

static void klog_fileio_sys_enter(void *data, struct pt_regs *regs, long nr)
{
	struct klog_fileio_op op;
	unsigned long args[6];

	if (!klog_enabled(ETW_KFLAG_FILE_IO | ETW_KFLAG_FILE_IO_INIT) ||
	    !klog_fileio_call(regs, nr, &op, args) || op.kind == KLOG_FIO_OPEN)
		return;
	if (op.kind == KLOG_FIO_NOTIFY) {
		if (klog_enabled(ETW_KFLAG_FILE_IO_INIT))
			klog_fileio_notify_enter(&op, args, klog_fileio_irp());
	} else if (op.path) {
		if (klog_enabled(ETW_KFLAG_FILE_IO_INIT))
			klog_fileio_path_enter(&op, args, klog_fileio_irp());
	} else if (!op.empty) {
		klog_fileio_fd_enter(&op, args, klog_fileio_irp());
	}
}

void klog_fileio_op_end(u64 irp, u64 extra, u32 status)
{
	struct klog_fileio_opend rec = {
		.irp = irp, .extra_info = extra, .nt_status = status,
	};

	klog_fileio_write(KLOG_HOOK_FILE_OP_END, ETW_KFLAG_FILE_IO, &rec,
			  sizeof(rec), NULL, 0);
}

/* The open flags of an open-family call. */
static unsigned long klog_fileio_open_flags(const struct klog_fileio_op *op,
					    const unsigned long *args)
{
	u64 flags = 0;

	if (op->flags > 0)
		return args[op->flags - 1];
	if (op->flags == -1)
		return O_CREAT | O_WRONLY | O_TRUNC;
	/* openat2's struct open_how begins with its u64 flags. */
	if (copy_from_user_nofault(&flags, (const void __user *)args[2],
				   sizeof(flags)))
		return 0;
	return flags;
}

static u32 klog_fileio_create_options(unsigned long flags)
{
	u32 disp, opts = 0;

	if ((flags & (O_CREAT | O_EXCL)) == (O_CREAT | O_EXCL))
		disp = KLOG_FILE_CREATE;
	else if ((flags & (O_CREAT | O_TRUNC)) == (O_CREAT | O_TRUNC))
		disp = KLOG_FILE_OVERWRITE_IF;
	else if (flags & O_CREAT)
		disp = KLOG_FILE_OPEN_IF;
	else if (flags & O_TRUNC)
		disp = KLOG_FILE_OVERWRITE;
	else
		disp = KLOG_FILE_OPEN;
	if (flags & O_DIRECTORY)
		opts |= KLOG_FILE_DIRECTORY_FILE;
	if (flags & __O_SYNC)
		opts |= KLOG_FILE_WRITE_THROUGH;
	if (flags & O_DIRECT)
		opts |= KLOG_FILE_NO_INTERMEDIATE_BUFFERING;
	return disp << 24 | opts;
}

/*
 * An open's end: Create (FileObject 0 and the path as given when it
 * failed), FileCreate naming the new file, OperationEnd.
 */
static void klog_fileio_open_exit(const struct klog_fileio_op *op,
				  const unsigned long *args, long ret)
{
	struct klog_fileio_scratch *sc = this_cpu_ptr(klog_fileio_scratch);
	unsigned long flags = klog_fileio_open_flags(op, args);
	struct klog_fileio_create rec = {
		.irp = klog_fileio_irp(),
		.ttid = klog_tid(current),
		.create_options = klog_fileio_create_options(flags),
		.share_access = KLOG_FILE_SHARE_ALL,
	};
	struct file *file = NULL;
	u64 extra = 0;
	char *path;

	if (ret >= 0) {
		/* O_PATH descriptors (fget() refuses them) have no I/O. */
		file = fget(ret);
		if (!file)
			return;
		if (!klog_fileio_followed(file))
			goto out;
		rec.file_object = klog_fileio_object(file);
		if (file->f_mode & FMODE_CREATED)
			extra = KLOG_FILE_CREATED;
		else if (flags & O_TRUNC)
			extra = KLOG_FILE_OVERWRITTEN;
		else
			extra = KLOG_FILE_OPENED;
	}
	if (klog_enabled(ETW_KFLAG_FILE_IO_INIT)) {
		path = file ? d_path(&file->f_path, sc->path, sizeof(sc->path)) :
		       NULL;
		if (!file) {
			klog_fileio_user_string(sc->path, sizeof(sc->path),
						args[op->path - 1]);
			path = sc->path;
		} else if (IS_ERR(path)) {
			path = "";
		}
		klog_fileio_write(KLOG_HOOK_FILE_CREATE, ETW_KFLAG_FILE_IO_INIT,
				  &rec, sizeof(rec), sc->wide,
				  klog_fileio_wide(sc, path));
	}
	if (file)
		klog_fileio_name(KLOG_HOOK_FILE_CREATE_NAME, file, sc->path,
				 sc->wide, NULL);
	if (klog_enabled(ETW_KFLAG_FILE_IO))
		klog_fileio_op_end(rec.irp, extra,
				   klog_fileio_status(ret < 0 ? ret : 0));
out:
	if (file)
		fput(file);
}

static void klog_fileio_sys_exit(void *data, struct pt_regs *regs, long ret)
{
	struct klog_fileio_op op;
	unsigned long args[6];
	u64 irp, *slot, extra;
	u32 status;

	if (!klog_enabled(KLOG_FILEIO_FLAGS) ||
	    !klog_fileio_call(regs, syscall_get_nr(current, regs), &op, args))
		return;
	if (op.kind == KLOG_FIO_OPEN) {
		klog_fileio_open_exit(&op, args, ret);
		return;
	}
	irp = klog_fileio_irp();
	if (op.empty && klog_fileio_on_fd(&op, args))
		klog_fileio_fd_enter(&op, args, irp);
	if (!op.path) {
		/* Followed at entry: the slot is this thread's. */
		slot = klog_fileio_slot(irp);
		if (READ_ONCE(*slot) != irp || cmpxchg(slot, irp, 0) != irp)
			return;
	}
	if (!klog_enabled(ETW_KFLAG_FILE_IO))
		return;
	extra = ret > 0 ? ret : 0;
	status = klog_fileio_status(ret < 0 ? ret : 0);
	/* A read at the end of its file; an enumeration at its end. */
	if (!ret && op.kind == KLOG_FIO_READ && !op.vec && args[2])
		status = 0xc0000011;		/* STATUS_END_OF_FILE */
	else if (!ret && op.kind == KLOG_FIO_DIRENUM)
		status = 0x80000006;		/* STATUS_NO_MORE_FILES */
	klog_fileio_op_end(irp, extra, status);
}

static struct klog_tp klog_fileio_tps[] = {
	{ .name = "sys_enter", .probe = klog_fileio_sys_enter },
	{ .name = "sys_exit", .probe = klog_fileio_sys_exit },
};

static int klog_fileio_start(void)
{
	int ret;

	klog_fileio_scratch = alloc_percpu(struct klog_fileio_scratch);
	if (!klog_fileio_scratch)
		return -ENOMEM;
	get_random_bytes(&klog_fileio_irp_key, sizeof(klog_fileio_irp_key));
	memset(klog_fileio_slots, 0, sizeof(klog_fileio_slots));
	klog_fileio_names_start();
	ret = klog_tp_register(klog_fileio_tps, ARRAY_SIZE(klog_fileio_tps));
	if (ret)
		goto fail;
	ret = klog_fileio_closes_start();
	if (!ret)
		return 0;
	klog_tp_unregister(klog_fileio_tps, ARRAY_SIZE(klog_fileio_tps));
fail:
	/* A probe attached before the failing one may still run. */
	tracepoint_synchronize_unregister();
	free_percpu(klog_fileio_scratch);
	klog_fileio_scratch = NULL;
	return ret;
}

/* The probes gone (none still running), the scratch area is freed. */
static void klog_fileio_stop(void)
{
	klog_fileio_closes_stop();
	klog_tp_unregister(klog_fileio_tps, ARRAY_SIZE(klog_fileio_tps));
	tracepoint_synchronize_unregister();
	free_percpu(klog_fileio_scratch);
	klog_fileio_scratch = NULL;
}

static void klog_fileio_session_start(struct klog_session *k)
{
	klog_fileio_names_session(k, false);
}

static void klog_fileio_session_stop(struct klog_session *k)
{
	klog_fileio_names_session(k, true);
}

const struct klog_source klog_source_fileio = {
	.name = "fileio",
	.flags = KLOG_FILEIO_FLAGS,
	.start = klog_fileio_start,
	.stop = klog_fileio_stop,
	.session_start = klog_fileio_session_start,
	.session_stop = klog_fileio_session_stop,
};
