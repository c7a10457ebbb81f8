// SPDX-License-Identifier: GPL-2.0
/*
 * The names of files in FileIo: FileObject and FileKey values, and the
 * FileIo_Name records (Name, FileCreate, FileRundown) that name them.
 *
 * FileObject is Windows' FILE_OBJECT address, one per open; ours is a
 * keyed hash (SipHash, a key drawn when the source starts) of the struct
 * file, one per open file description (dup() and fork() share it, as
 * they share a Windows handle's object).  FileKey is Windows' per-file
 * key; ours is the same hash of the inode.  No kernel address leaves the
 * kernel, and the values stay the same for the life of one source.
 *
 * As Windows 8 and later write it, FileIo_Name's FileObject field holds
 * the FileKey: readers (PerfView, WPA) name Read, Write and the rest by
 * their FileKey, and a Create by its FileObject and OpenPath.  A Name is
 * written for each open file of each process at a session's start, a
 * FileRundown for each at its stop (after the operations, before the
 * DCEnd rundown), and a FileCreate at each open (klog/fileio.c).  A file
 * open in several processes is named once for each.
 */
#include <linux/dcache.h>
#include <linux/err.h>
#include <linux/fdtable.h>
#include <linux/fs.h>
#include <linux/random.h>
#include <linux/sched/signal.h>
#include <linux/sched/task.h>
#include <linux/siphash.h>
#include <linux/slab.h>

#include "klog_fileio.h"
#include "klog_proc.h"
#include "klog_text.h"

static siphash_key_t klog_fileio_hash_key;

void klog_fileio_names_start(void)
{
	get_random_bytes(&klog_fileio_hash_key, sizeof(klog_fileio_hash_key));
}

bool klog_fileio_followed(const struct file *file)
{
	umode_t mode = file_inode(file)->i_mode;

	return S_ISREG(mode) || S_ISDIR(mode);
}

u64 klog_fileio_object(const struct file *file)
{
	return siphash_1u64((u64)(unsigned long)file, &klog_fileio_hash_key);
}

u64 klog_fileio_key(const struct file *file)
{
	return siphash_1u64((u64)(unsigned long)file_inode(file),
			    &klog_fileio_hash_key);
}

void klog_fileio_name(u16 hook, struct file *file, char *path, u8 *wide,
		      struct klog_session *target)
{
	u64 key = klog_fileio_key(file);
	struct klog_part parts[2] = { { &key, sizeof(key) } };
	struct klog_event ev = {
		.hook = hook,
		.header_type = KLOG_HDR_PERFINFO,
		.version = 3,
		.flag = KLOG_FILEIO_FLAGS,
		.parts = parts,
		.nr_parts = 2,
		.target = target,
	};
	char *p = d_path(&file->f_path, path, KLOG_PATH_MAX);

	if (IS_ERR(p))
		p = "";
	parts[1].data = wide;
	parts[1].size = klog_utf16(wide, 2 * KLOG_PATH_MAX, p, strlen(p));
	klog_write(&ev);
}

struct klog_fileio_rundown {
	struct klog_session *k;
	u16 hook;
	char path[KLOG_PATH_MAX];
	u8 wide[2 * KLOG_PATH_MAX];
};

/* iterate_fd()'s callback: under the table's spinlock. */
static int klog_fileio_rundown_fd(const void *priv, struct file *file,
				  unsigned int fd)
{
	struct klog_fileio_rundown *r = (struct klog_fileio_rundown *)priv;

	if (klog_fileio_followed(file))
		klog_fileio_name(r->hook, file, r->path, r->wide, r->k);
	return 0;
}

/*
 * Name or FileRundown of every open file of every process (process
 * context).  Each process's table is read under task_lock(), as
 * /proc/PID/fdinfo reads it; references to the processes are taken under
 * RCU first.  Without memory the rundown names nothing and counts one
 * record lost, so a reader knows names may be missing.
 */
void klog_fileio_names_session(struct klog_session *k, bool end)
{
	struct klog_fileio_rundown *r;
	struct task_struct *t, **tasks;
	unsigned int n = 0, cap, i;

	r = kmalloc(sizeof(*r), GFP_KERNEL);
	rcu_read_lock();
	for_each_process(t)
		n++;
	rcu_read_unlock();
	cap = n + 64;
	tasks = r ? kvmalloc_array(cap, sizeof(*tasks), GFP_KERNEL) : NULL;
	if (!tasks) {
		kfree(r);
		klog_lanes_add_lost(k, 1);
		return;
	}
	r->k = k;
	r->hook = end ? KLOG_HOOK_FILE_RUNDOWN : KLOG_HOOK_FILE_NAME;
	n = 0;
	rcu_read_lock();
	for_each_process(t) {
		if (n == cap)
			break;
		get_task_struct(t);
		tasks[n++] = t;
	}
	rcu_read_unlock();
	for (i = 0; i < n; i++) {
		t = tasks[i];
		task_lock(t);
		if (t->files)
			iterate_fd(t->files, 0, klog_fileio_rundown_fd, r);
		task_unlock(t);
		put_task_struct(t);
		klog_lanes_keep_up(k);
		cond_resched();
	}
	kvfree(tasks);
	kfree(r);
}
