// SPDX-License-Identifier: GPL-2.0
/*
 * Process and thread events (EVENT_TRACE_FLAG_PROCESS, _THREAD) from the
 * scheduler's tracepoints.  Windows has no fork, exec or thread-group
 * leader; what each Linux case becomes (Documentation/kernel-logger.rst):
 *
 * - fork (a new thread group): Process/Start with the parent's image and
 *   command line (the child runs the parent's program), then Thread/Start
 *   and Thread/SetName of its first thread, and Image/Load of the images
 *   its copy of the parent's address space holds.
 * - clone of a thread: Thread/Start and SetName.
 * - exec: Process/Start again for the same ProcessId, with the new image
 *   and command line; PerfView begins a new instance of the process at a
 *   second Start.  Then Thread/Start of the thread that exec'd (a non-leader
 *   that exec'd takes the leader's id: Thread/End of its old id first) and
 *   the image loads of its new address space.  Before them, at
 *   exec_mm_release(), the Unloads of the images of the one it left.
 * - exit: Thread/End of each thread; Process/End with the last one (the
 *   group's live count reached 0, once), ExitStatus the exit code, or 128 + the
 *   signal for a process a signal killed, as shells report it.  Its image
 *   name and command line are those of Start: the address space is gone by
 *   the exit tracepoint, so a kretprobe on exit_mm_release(), where the
 *   last thread still has it, keeps them in a slot until then, and only
 *   the thread that kept them writes End (none kept: counted lost).  It
 *   writes the Unloads of the process's images there too, before End.
 * - a CLONE_VM process (vfork, posix_spawn) shares its parent's images:
 *   no Load of them at its fork, no Unload at its exit or exec.
 * - kernel threads are processes of their own (tgid == pid, parent
 *   kthreadd), their name their comm, no command line.
 * - ids are the initial PID namespace's: ETL has one id space.
 *
 * Probes run with preemption disabled: nothing sleeps; the command line
 * is read from the current process's memory with copy_from_user_nofault()
 * (exec has just written it, so it is resident), and the record is built
 * in a per-CPU scratch area.
 */
#include <linux/binfmts.h>
#include <linux/cred.h>
#include <linux/fs.h>
#include <linux/hash.h>
#include <linux/kprobes.h>
#include <linux/log2.h>
#include <linux/mm.h>
#include <linux/percpu.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/sched/mm.h>
#include <linux/sched/signal.h>
#include <linux/audit.h>
#include <linux/uaccess.h>
#include <linux/uidgid.h>
#include <linux/vmalloc.h>

#include "internal.h"
#include "klog_proc.h"
#include "klog_text.h"

/* Process_V4_TypeGroup1 up to the SID (TOKEN_USER: pointer, attributes). */
struct klog_process_head {
	u64 unique_process_key;
	u32 process_id;
	u32 parent_id;
	u32 session_id;
	s32 exit_status;
	u64 directory_table_base;
	u32 flags;
	u64 token_user_sid;
	u32 token_user_attributes;
	u32 token_user_pad;
} __packed;

static_assert(sizeof(struct klog_process_head) == 52);
static_assert(sizeof(struct etw_sid) == 16);

/* A probe's record and what it is built from, per CPU. */
struct klog_proc_scratch {
	struct klog_proc p;
	u8 payload[KLOG_PROCESS_PAYLOAD];
};

/* Too large for a module's static per-CPU area: allocated at first use. */
static struct klog_proc_scratch __percpu *klog_proc_scratch;

/* @t's comm into @p's image name. */
static void klog_comm_into(char *image, struct task_struct *t)
{
	char comm[TASK_COMM_LEN];

	get_task_comm(comm, t);
	strscpy(image, comm, KLOG_NAME_MAX);
}

/* The ids, key, session and user of @t's process; ExitStatus pending. */
void klog_proc_ids(struct klog_proc *p, struct task_struct *t)
{
	unsigned int sid = audit_get_sessionid(t);

	p->key = etw_start_key_of(t);
	p->pid = klog_pid(t);
	rcu_read_lock();
	p->ppid = klog_pid(rcu_dereference(t->real_parent));
	p->uid = from_kuid_munged(&init_user_ns, __task_cred(t)->euid);
	rcu_read_unlock();
	/* Swapper's "parent" is itself. */
	if (!p->pid)
		p->ppid = 0;
	p->session = sid == AUDIT_SID_UNSET ? 0 : sid;
	p->exit_status = KLOG_STATUS_PENDING;
	p->cmd_len = 0;
}

void klog_process_write(u16 hook, const struct klog_proc *p,
			struct klog_session *target, u64 ts, u8 *payload)
{
	struct klog_process_head *h = (struct klog_process_head *)payload;
	struct etw_sid *sid = (struct etw_sid *)(h + 1);
	u8 *q = (u8 *)(sid + 1), *end = payload + KLOG_PROCESS_PAYLOAD;
	struct klog_part part;
	struct klog_event ev = {
		.hook = hook,
		.header_type = KLOG_HDR_SYSTEM,
		.version = 4,
		.flag = ETW_KFLAG_PROCESS,
		.tid = klog_tid(current),
		.pid = klog_pid(current),
		.timestamp = ts,
		.parts = &part,
		.nr_parts = 1,
		.target = target,
	};

	memset(h, 0, sizeof(*h));
	h->unique_process_key = p->key;
	h->process_id = p->pid;
	h->parent_id = p->ppid;
	h->session_id = p->session;
	h->exit_status = p->exit_status;
	/* TOKEN_USER.User.Sid points at the SID that follows: any non-zero. */
	h->token_user_sid = sizeof(*h);
	etw_sid_of_uid(sid, p->uid);
	q += klog_ansi(q, KLOG_NAME_MAX, p->image);
	q += klog_utf16(q, end - q - 4, p->cmd, p->cmd_len);
	memset(q, 0, 4);	/* PackageFullName, ApplicationId: "" */
	q += 4;
	part.data = payload;
	part.size = q - payload;
	if (!target)
		ev.stack = klog_task_stack(hook);
	klog_write(&ev);
}

/* Arguments are NUL-separated: one line, spaces between, no final NUL. */
static void klog_cmdline_join(struct klog_proc *p)
{
	u32 i;

	while (p->cmd_len && !p->cmd[p->cmd_len - 1])
		p->cmd_len--;
	for (i = 0; i < p->cmd_len; i++)
		if (!p->cmd[i])
			p->cmd[i] = ' ';
}

/*
 * Image name and command line of the current process, in a probe: the
 * executable's file name (comm for a kernel thread), the arguments read
 * without faulting.
 */
static void klog_proc_current(struct klog_proc *p)
{
	struct mm_struct *mm = current->mm;
	struct file *exe;
	unsigned long len;

	p->image[0] = 0;
	if (mm && !(current->flags & PF_KTHREAD)) {
		rcu_read_lock();
		exe = rcu_dereference(mm->exe_file);
		if (exe)
			scnprintf(p->image, sizeof(p->image), "%pD", exe);
		rcu_read_unlock();
		len = min_t(unsigned long, mm->arg_end - mm->arg_start,
			    sizeof(p->cmd));
		if (mm->arg_end > mm->arg_start &&
		    !copy_from_user_nofault(p->cmd,
					    (const void __user *)mm->arg_start,
					    len))
			p->cmd_len = len;
		klog_cmdline_join(p);
	}
	if (!p->image[0])
		klog_comm_into(p->image, current);
}

/* The exit code as Windows' ExitStatus: the code, or 128 + the signal. */
static s32 klog_exit_status(struct task_struct *t)
{
	int code = t->exit_code;

	if (t->signal->flags & SIGNAL_GROUP_EXIT)
		code = t->signal->group_exit_code;
	if (code & 0x7f)
		return 128 + (code & 0x7f);
	return (code >> 8) & 0xff;
}

/*
 * Image name and command line of any process, in process context (the
 * rundown): its memory is read with access_process_vm(), which may sleep.
 * A process that has exited but is not reaped yet (its leader a zombie,
 * no thread live) has no memory left: its comm, and its exit status.
 */
void klog_proc_task(struct klog_proc *p, struct task_struct *t)
{
	struct mm_struct *mm = get_task_mm(t);
	unsigned long start, end;
	struct file *exe;
	int n;

	p->image[0] = 0;
	if (mm) {
		rcu_read_lock();
		exe = rcu_dereference(mm->exe_file);
		if (exe)
			scnprintf(p->image, sizeof(p->image), "%pD", exe);
		rcu_read_unlock();
		spin_lock(&mm->arg_lock);
		start = mm->arg_start;
		end = mm->arg_end;
		spin_unlock(&mm->arg_lock);
		n = end > start ?
		    access_process_vm(t, start, p->cmd,
				      min_t(unsigned long, end - start,
					    sizeof(p->cmd)), FOLL_FORCE) : 0;
		p->cmd_len = max(n, 0);
		klog_cmdline_join(p);
		mmput(mm);
	}
	if (!p->image[0])
		klog_comm_into(p->image, t);
	/* The leader's exit_state is set after its exit_code. */
	if (READ_ONCE(t->exit_state) && !atomic_read(&t->signal->live))
		p->exit_status = klog_exit_status(t);
}

/*
 * The processes that share the address space of the one that cloned them
 * (CLONE_VM without CLONE_THREAD: vfork, posix_spawn) by start key: they
 * had no Image/Load of its images, and write no Unload of them at their
 * exit or exec; a key is taken out then.  Full, a process is not marked
 * (nor one cloned before the logger started, unless a vfork child still
 * waited for): it writes the Unloads as its own.
 */
#define KLOG_SHARER_SLOTS	64
static u64 klog_sharers[KLOG_SHARER_SLOTS];

static void klog_sharer_add(u64 key)
{
	int i;

	for (i = 0; i < KLOG_SHARER_SLOTS; i++)
		if (!READ_ONCE(klog_sharers[i]) && !cmpxchg(&klog_sharers[i], 0, key))
			return;
}

/* Was the process of @key a sharer?  No longer one. */
static bool klog_sharer_take(u64 key)
{
	int i;

	for (i = 0; i < KLOG_SHARER_SLOTS; i++)
		if (READ_ONCE(klog_sharers[i]) == key &&
		    cmpxchg(&klog_sharers[i], key, 0) == key)
			return true;
	return false;
}

/*
 * What a probe's entry on exit_mm_release() or exec_mm_release() decided
 * for its return: the process shares another's address space (no Unloads
 * of its images); its start key.
 */
struct klog_leave {
	u64 key;
	bool sharer;
};

/*
 * The current process leaves its address space: is it a sharer?  A vfork
 * child not yet released (mm_release() releases it) always is.
 */
static void klog_leave_decide(struct kretprobe_instance *ri)
{
	struct klog_leave *lv = (void *)ri->data;

	lv->key = etw_start_key_of(current);
	lv->sharer = klog_sharer_take(lv->key) || READ_ONCE(current->vfork_done);
}

static void klog_probe_fork(void *data, struct task_struct *parent,
			    struct task_struct *child)
{
	struct klog_proc_scratch *sc = this_cpu_ptr(klog_proc_scratch);
	u64 ts = klog_clock();

	if (child->tgid != parent->tgid && klog_enabled(ETW_KFLAG_PROCESS)) {
		klog_proc_ids(&sc->p, child);
		klog_proc_current(&sc->p);
		/* A kernel thread is named by its own comm, not kthreadd's. */
		if (child->flags & PF_KTHREAD)
			klog_comm_into(sc->p.image, child);
		klog_process_write(KLOG_HOOK_PROCESS_START, &sc->p, NULL, ts,
				   sc->payload);
	}
	if (klog_enabled(ETW_KFLAG_THREAD)) {
		klog_thread_write(KLOG_HOOK_THREAD_START, child, klog_tid(child),
				  NULL, ts);
		klog_thread_name_write(child, child->comm, NULL, ts);
	}
	if (!child->mm || (child->flags & PF_KTHREAD))
		return;
	/* A new address space: the images it copied, loaded in the child. */
	if (child->mm != parent->mm) {
		if (klog_enabled(ETW_KFLAG_IMAGE_LOAD))
			klog_image_exec(child);
	} else if (child->tgid != parent->tgid) {
		klog_sharer_add(etw_start_key_of(child));
	}
}

static void klog_probe_exec(void *data, struct task_struct *p, pid_t old_pid,
			    struct linux_binprm *bprm)
{
	struct klog_proc_scratch *sc = this_cpu_ptr(klog_proc_scratch);
	u64 ts = klog_clock();

	/* A non-leader that exec'd: its old id ends, it takes the leader's. */
	if (klog_enabled(ETW_KFLAG_THREAD) && old_pid != p->pid)
		klog_thread_write(KLOG_HOOK_THREAD_END, p, old_pid, NULL, ts);
	if (klog_enabled(ETW_KFLAG_PROCESS)) {
		klog_proc_ids(&sc->p, p);
		klog_proc_current(&sc->p);
		klog_process_write(KLOG_HOOK_PROCESS_START, &sc->p, NULL, ts,
				   sc->payload);
	}
	if (klog_enabled(ETW_KFLAG_THREAD)) {
		klog_thread_write(KLOG_HOOK_THREAD_START, p, klog_tid(p), NULL,
				  ts);
		klog_thread_name_write(p, p->comm, NULL, ts);
	}
	if (klog_enabled(ETW_KFLAG_IMAGE_LOAD))
		klog_image_exec(p);
}

/*
 * Process/End once per process.  The group's live count reaches 0 in
 * do_exit() before exit_mm_release(), but another thread still on its
 * way out may read 0 too; the first to swap the process's start key into
 * its slot here is the one whose End it is.  Keys never repeat within a
 * boot, and a slot is taken again only by a later process, long after the
 * first's threads are gone.
 */
#define KLOG_ENDED_SLOTS	1024
static u64 klog_ended[KLOG_ENDED_SLOTS];

static bool klog_first_end(struct task_struct *p)
{
	u64 key = etw_start_key_of(p);

	return xchg(&klog_ended[hash_64(key, ilog2(KLOG_ENDED_SLOTS))], key) != key;
}

/*
 * What a process's End says of it, kept by the thread whose End it is
 * (@owner) from its exit_mm_release(), the address space still there, to
 * its exit tracepoint: @key is the process's start key (0: free).  Only
 * that thread writes a user process's End; with every slot taken, its
 * End is counted lost.
 */
struct klog_exit_slot {
	u64 key;
	struct task_struct *owner;
	struct klog_proc p;
};

#define KLOG_EXIT_SLOTS		64
static struct klog_exit_slot *klog_exit_slots;

/* The current thread's End, kept for its exit tracepoint. */
static void klog_exit_keep(u64 key)
{
	struct klog_exit_slot *slot;
	int i;

	for (i = 0; i < KLOG_EXIT_SLOTS; i++) {
		slot = &klog_exit_slots[i];
		if (!READ_ONCE(slot->key) && !cmpxchg(&slot->key, 0, key))
			break;
	}
	if (i == KLOG_EXIT_SLOTS) {
		klog_write_lost(ETW_KFLAG_PROCESS, 1);
		return;
	}
	slot->p.cmd_len = 0;
	klog_proc_current(&slot->p);
	/* Read back by this thread only: no ordering beyond its own. */
	WRITE_ONCE(slot->owner, current);
}

/*
 * The name and command line @p's own thread kept for the End of @p's
 * process (start key @key) into @out; the slot freed.
 */
static bool klog_exit_kept(struct task_struct *p, u64 key, struct klog_proc *out)
{
	struct klog_exit_slot *slot;
	int i;

	for (i = 0; i < KLOG_EXIT_SLOTS; i++) {
		slot = &klog_exit_slots[i];
		if (READ_ONCE(slot->key) != key || READ_ONCE(slot->owner) != p)
			continue;
		memcpy(out->image, slot->p.image, sizeof(out->image));
		memcpy(out->cmd, slot->p.cmd, slot->p.cmd_len);
		out->cmd_len = slot->p.cmd_len;
		WRITE_ONCE(slot->owner, NULL);
		/* Release: the copy is done before another thread claims it. */
		smp_store_release(&slot->key, 0);
		return true;
	}
	return false;
}

/*
 * exit_mm_release(tsk, mm): a thread leaves its address space; the last
 * one of a process writes the Unloads of its images there, before its
 * End, and keeps what End says.  A kretprobe: the entry, an int3 handler
 * where the function is not ftrace-able, only decides; the return, an
 * ordinary context with preemption disabled, reads the name and command
 * line and names the images.  A hit missed (its instances all in use)
 * counts one record lost, End, Unload or neither.
 */
static unsigned long klog_exit_mm_seen;

static int klog_exit_mm_entry(struct kretprobe_instance *ri,
			      struct pt_regs *regs)
{
	struct task_struct *t = current;

	klog_kretprobe_missed(get_kretprobe(ri), &klog_exit_mm_seen,
			      ETW_KFLAG_PROCESS | ETW_KFLAG_IMAGE_LOAD);
	/* The group's last live thread, of a user process, once. */
	if (!t->mm || (t->flags & PF_KTHREAD) || atomic_read(&t->signal->live) ||
	    !klog_first_end(t))
		return 1;
	klog_leave_decide(ri);
	return !klog_enabled(ETW_KFLAG_PROCESS | ETW_KFLAG_IMAGE_LOAD);
}

static int klog_exit_mm_ret(struct kretprobe_instance *ri,
			    struct pt_regs *regs)
{
	struct klog_leave *lv = (void *)ri->data;

	if (!lv->sharer && klog_enabled(ETW_KFLAG_IMAGE_LOAD))
		klog_image_leave(current);
	if (klog_enabled(ETW_KFLAG_PROCESS))
		klog_exit_keep(lv->key);
	return 0;
}

static struct kretprobe klog_exit_mm_rp = {
	.kp.symbol_name = "exit_mm_release",
	.entry_handler = klog_exit_mm_entry,
	.handler = klog_exit_mm_ret,
	.data_size = sizeof(struct klog_leave),
};

/*
 * exec_mm_release(tsk, old_mm): the process (its only thread now) leaves
 * the address space exec replaces; the Unloads of its images come before
 * the exec's Process/Start.
 */
static unsigned long klog_exec_mm_seen;

static int klog_exec_mm_entry(struct kretprobe_instance *ri,
			      struct pt_regs *regs)
{
	struct task_struct *t = current;

	klog_kretprobe_missed(get_kretprobe(ri), &klog_exec_mm_seen,
			      ETW_KFLAG_IMAGE_LOAD);
	if (!t->mm || (t->flags & PF_KTHREAD))
		return 1;
	klog_leave_decide(ri);
	return !klog_enabled(ETW_KFLAG_IMAGE_LOAD);
}

static int klog_exec_mm_ret(struct kretprobe_instance *ri,
			    struct pt_regs *regs)
{
	struct klog_leave *lv = (void *)ri->data;

	if (!lv->sharer)
		klog_image_leave(current);
	return 0;
}

static struct kretprobe klog_exec_mm_rp = {
	.kp.symbol_name = "exec_mm_release",
	.entry_handler = klog_exec_mm_entry,
	.handler = klog_exec_mm_ret,
	.data_size = sizeof(struct klog_leave),
};

static void klog_probe_exit(void *data, struct task_struct *p)
{
	struct klog_proc_scratch *sc = this_cpu_ptr(klog_proc_scratch);
	u64 ts = klog_clock();

	if (klog_enabled(ETW_KFLAG_THREAD))
		klog_thread_write(KLOG_HOOK_THREAD_END, p, klog_tid(p), NULL, ts);
	if (atomic_read(&p->signal->live))
		return;
	klog_kretprobe_missed(&klog_exit_mm_rp, &klog_exit_mm_seen,
			      ETW_KFLAG_PROCESS | ETW_KFLAG_IMAGE_LOAD);
	klog_proc_ids(&sc->p, p);
	/*
	 * A user process's End is its keeper's; a kernel thread's is its own,
	 * the comm, no command line.
	 */
	if (!klog_exit_kept(p, sc->p.key, &sc->p)) {
		if (!(p->flags & PF_KTHREAD) || !klog_first_end(p))
			return;
		klog_comm_into(sc->p.image, p->group_leader);
	}
	if (!klog_enabled(ETW_KFLAG_PROCESS))
		return;
	sc->p.exit_status = klog_exit_status(p);
	klog_process_write(KLOG_HOOK_PROCESS_END, &sc->p, NULL, ts, sc->payload);
}

static void klog_probe_rename(void *data, struct task_struct *task,
			      const char *comm)
{
	if (klog_enabled(ETW_KFLAG_THREAD))
		klog_thread_name_write(task, comm, NULL, 0);
}

static struct klog_tp klog_process_tps[] = {
	{ .name = "sched_process_fork", .probe = klog_probe_fork },
	{ .name = "sched_process_exec", .probe = klog_probe_exec },
	{ .name = "sched_process_exit", .probe = klog_probe_exit },
	{ .name = "task_rename", .probe = klog_probe_rename },
};

static int klog_process_start(void)
{
	int ret;

	if (!klog_proc_scratch)
		klog_proc_scratch = alloc_percpu(struct klog_proc_scratch);
	if (!klog_proc_scratch)
		return -ENOMEM;
	if (!klog_exit_slots)
		klog_exit_slots = vmalloc_array(KLOG_EXIT_SLOTS,
						sizeof(*klog_exit_slots));
	if (!klog_exit_slots)
		return -ENOMEM;
	/* No probe runs: slots a stop left kept are free again. */
	memset(klog_exit_slots, 0, KLOG_EXIT_SLOTS * sizeof(*klog_exit_slots));
	memset(klog_sharers, 0, sizeof(klog_sharers));
	ret = klog_tp_register(klog_process_tps, ARRAY_SIZE(klog_process_tps));
	if (ret)
		return ret;
	ret = klog_kretprobe_register(&klog_exit_mm_rp, &klog_exit_mm_seen);
	if (ret) {
		pr_warn("etw: kretprobe %s: %d\n", klog_exit_mm_rp.kp.symbol_name,
			ret);
		goto err_tps;
	}
	ret = klog_kretprobe_register(&klog_exec_mm_rp, &klog_exec_mm_seen);
	if (ret) {
		pr_warn("etw: kretprobe %s: %d\n", klog_exec_mm_rp.kp.symbol_name,
			ret);
		goto err_exit_mm;
	}
	return 0;

err_exit_mm:
	unregister_kretprobe(&klog_exit_mm_rp);
err_tps:
	klog_tp_unregister(klog_process_tps, ARRAY_SIZE(klog_process_tps));
	return ret;
}

static void klog_process_stop(void)
{
	unregister_kretprobe(&klog_exec_mm_rp);
	unregister_kretprobe(&klog_exit_mm_rp);
	klog_tp_unregister(klog_process_tps, ARRAY_SIZE(klog_process_tps));
}

/* Module exit: no probe runs. */
void klog_process_exit(void)
{
	free_percpu(klog_proc_scratch);
	klog_proc_scratch = NULL;
	vfree(klog_exit_slots);
	klog_exit_slots = NULL;
}

/*
 * The probes also serve IMAGE_LOAD: exec maps the new image before the
 * process is announced, so its image loads are written at exec; the
 * images a process leaves at exit or exec are unloaded as it leaves them.
 */
const struct klog_source klog_source_process = {
	.name = "process",
	.flags = ETW_KFLAG_PROCESS | ETW_KFLAG_THREAD | ETW_KFLAG_IMAGE_LOAD,
	.start = klog_process_start,
	.stop = klog_process_stop,
};
