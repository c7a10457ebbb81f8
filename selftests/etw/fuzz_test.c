// SPDX-License-Identifier: GPL-2.0
/*
 * The /dev/etw fuzzer: random and structure-aware calls on every ioctl and
 * every mmap offset (the tables in fuzz_ioctls.h), from root and from an
 * unprivileged user at once, several threads each, while sessions are
 * started and stopped, providers registered and dropped, files closed
 * under other threads, and short-lived provider processes killed in the
 * middle of their writes.
 *
 * The kernel's own checks (slub_debug, KFENCE, the log scan of the VM
 * runner) catch memory errors; fuzz.h lists what the fuzzer itself treats
 * as a bug.  ETW_FUZZ_CALLS (default 100000; ETW_FUZZ_CALLS_32, default
 * 20000, for the 32-bit build) calls on the device are made, half as root
 * and half unprivileged, within ETW_FUZZ_SECONDS (default 300);
 * ETW_FUZZ_SEED fixes the random seed (printed otherwise).  Where the
 * kernel-provider test module is (the VM), root also has kernel providers
 * of the fuzzer's GUIDs registered, written from every context with good
 * and bad descriptors, and unregistered while they write
 * (selftests/kmod/).  make check runs
 * the defaults, make fuzz 1,000,000 and 200,000 on each kernel.
 */
#include <linux/capability.h>
#include <assert.h>
#include <grp.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>

#include "kselftest_harness.h"
#include "etw_kmod.h"
#include "fuzz.h"
#include "fuzz_ioctls.h"
#include "../kmod/kprov_test.h"

#define FUZZ_KPROV_MODULE	"/lib/modules/etw_kprov_test.ko"

#define FUZZ_THREADS	4
/* The 32-bit build (compat ioctls) runs a fifth as many by default. */
#if __SIZEOF_POINTER__ == 4
#define FUZZ_CALLS_VAR	"ETW_FUZZ_CALLS_32"
#define FUZZ_CALLS	20000
#else
#define FUZZ_CALLS_VAR	"ETW_FUZZ_CALLS"
#define FUZZ_CALLS	100000
#endif
#define FUZZ_NOBODY	65534
#define FUZZ_MAPS	4	/* mappings kept alive across calls */

#define NELEM(a) (sizeof(a) / sizeof((a)[0]))

static_assert(NELEM(fuzz_ioctls) <= FUZZ_MAX_OPS, "raise FUZZ_MAX_OPS");

static __thread sigjmp_buf *fuzz_touch_jmp;

/* What the thread was doing, for the report of a fault outside fuzz_touch. */
static __thread const char *fuzz_doing = "starting";

static void fuzz_on_fault(int sig, siginfo_t *si, void *uc)
{
	char line[160];
	int n;

	if (fuzz_touch_jmp)
		siglongjmp(*fuzz_touch_jmp, sig);
	n = snprintf(line, sizeof(line), "# fuzz: signal %d (code %d) at %p in %s, ip %#llx\n",
		     sig, si->si_code, si->si_addr, fuzz_doing,
#ifdef __x86_64__
		     (unsigned long long)((ucontext_t *)uc)->uc_mcontext.gregs[REG_RIP]
#else
		     0ULL
#endif
		     );
	if (n > 0 && write(2, line, n) < 0)
		n = 0;
	signal(sig, SIG_DFL);
	raise(sig);
}

static unsigned long env_ul(const char *name, unsigned long dflt)
{
	const char *v = getenv(name);

	return v && *v ? strtoul(v, NULL, 0) : dflt;
}

static int fuzz_open(void)
{
	return open(ETW_DEV, O_RDWR | O_CLOEXEC | O_NONBLOCK);
}

/* Count a call; false once this role's quota or the deadline is reached. */
static bool fuzz_account(struct fuzz_thread *t)
{
	struct fuzz_shared *sh = t->sh;
	unsigned long n = atomic_fetch_add(&sh->calls[t->role], 1);

	if (n >= sh->quota[t->role] || atomic_load(&sh->stop[t->role]))
		return false;
	if (!(n & 1023) && fuzz_now() > sh->deadline)
		atomic_store(&sh->stop[t->role], 1);
	return true;
}

static void fuzz_errno(struct fuzz_thread *t, const char *what, long ret, int err)
{
	if (ret > 0) {
		fuzz_violation(t, "%s returned %ld", what, ret);
		return;
	}
	if (ret == 0)
		return;
	if (err <= 0 || err >= FUZZ_ERRNOS)
		fuzz_violation(t, "%s failed with errno %d (not a userspace errno)", what, err);
	else
		atomic_fetch_add(&t->sh->errnos[err], 1);
}

static const struct fuzz_ioctl *fuzz_find(unsigned long cmd, int file)
{
	size_t i;

	for (i = 0; i < NELEM(fuzz_ioctls); i++)
		if (fuzz_ioctls[i].cmd == cmd && fuzz_ioctls[i].file == file)
			return &fuzz_ioctls[i];
	return NULL;
}

/*
 * Whether a struct holds a pointer into [@mem, @mem + @len): a mutation can
 * aim an output buffer at the struct's own memory, and then the kernel may
 * rightly write over the canary.
 */
static bool fuzz_points_at(const uint8_t *s, size_t size, const uint8_t *mem, size_t len)
{
	uint64_t v;
	size_t off;

	for (off = 0; off + 8 <= size; off += 4) {
		memcpy(&v, s + off, 8);
		if (v >= (uintptr_t)mem && v < (uintptr_t)mem + len)
			return true;
	}
	return false;
}

/* A command the table does not list: it must be ENOTTY. */
static void fuzz_unknown_ioctl(struct fuzz_thread *t, int fd, int file)
{
	static const unsigned int magics[] = { ETW_IOC_MAGIC, ETW_IOC_MAGIC - 1,
					       ETW_IOC_MAGIC + 1, 0xAA };
	unsigned int nr = fuzz_below(t, 256), dir = fuzz_below(t, 4);
	unsigned int size = fuzz_chance(t, 50) ? fuzz_below(t, 1 << 14) : 0;
	unsigned long cmd;
	void *arg;
	long ret;

	if (fuzz_chance(t, 50))
		dir = _IOC_NONE, size = 0;
	cmd = _IOC(dir, magics[fuzz_below(t, NELEM(magics))], nr, size);
	if (fuzz_find(cmd, file))
		return;
	if (fuzz_chance(t, 80)) {
		arg = fuzz_alloc(t, 4096);
		fuzz_fill(t, arg, 64);
	} else {
		arg = (void *)(uintptr_t)fuzz_output_aim(t, (uintptr_t)fuzz_ptr(t, 64));
	}
	ret = ioctl(fd, cmd, arg);
	if (ret != -1 || errno != ENOTTY)
		fuzz_violation(t, "unlisted ioctl 0x%lx answered %ld (errno %d): if it is new, add its line to selftests/etw/fuzz_ioctls.h",
			       cmd, ret, ret == -1 ? errno : 0);
}

/* One of this thread's consumer fds, or -1 if it has none. */
static int fuzz_cfd(struct fuzz_thread *t, unsigned int *which)
{
	*which = fuzz_below(t, FUZZ_CFDS);
	if (t->cfds[*which] < 0)
		*which = (*which + 1) % FUZZ_CFDS;
	return t->cfds[*which];
}

static void fuzz_cfd_drop(struct fuzz_thread *t, unsigned int which)
{
	if (t->cfds[which] >= 0)
		close(t->cfds[which]);
	t->cfds[which] = -1;
}

/*
 * A consumer fd ETW_IOC_CONSUMER_ATTACH gave stays attached until it is
 * closed.  Keep a few, to fuzz them, each until the next one replaces it
 * or its thread reopens a file: meanwhile BUFFER_READ of its session is
 * EBUSY.  A logger consumer would make every STOP of its session wait for
 * it (up to 60 s): close that one at once.  Only a fd that is none of the
 * thread's own files is closed or kept.
 */
static void fuzz_cfd_remember(struct fuzz_thread *t, const struct etw_consumer_attach *a)
{
	unsigned int which = fuzz_below(t, FUZZ_CFDS), i;

	if (a->fd < 0)
		return;
	for (i = 0; i < FUZZ_FDS; i++)
		if (t->fds[i] == a->fd)
			return;
	if (a->flags & ETW_CONSUMER_F_LOGGER) {
		close(a->fd);
		return;
	}
	fuzz_cfd_drop(t, which);
	t->cfds[which] = a->fd;
	t->cinfo[which] = *a;
}

/*
 * A writer fd ETW_IOC_WRITER_OPEN gave: the thread keeps the newest, writes
 * through it now and then (its file may be closed meanwhile: EBADF) and
 * checks that nothing else answers on it.
 */
static void fuzz_wfd_remember(struct fuzz_thread *t, int fd)
{
	unsigned int i;

	if (fd < 0)
		return;
	for (i = 0; i < FUZZ_FDS; i++)
		if (t->fds[i] == fd)
			return;
	for (i = 0; i < FUZZ_CFDS; i++)
		if (t->cfds[i] == fd)
			return;
	if (t->wfd >= 0 && t->wfd != fd)
		close(t->wfd);
	t->wfd = fd;
}

/* Call the table's ioctl @opi, counted in its statistics; errno in *@err. */
static long fuzz_call(struct fuzz_thread *t, unsigned int opi, int fd, void *arg, int *err)
{
	struct fuzz_op_stats *st = &t->sh->ops[opi];
	double t0 = fuzz_now();
	long ret;

	ret = ioctl(fd, fuzz_ioctls[opi].cmd, arg);
	*err = ret ? errno : 0;
	atomic_fetch_add(&st->usec[t->role], (unsigned long)((fuzz_now() - t0) * 1e6));
	atomic_fetch_add(&st->calls[t->role], 1);
	fuzz_errno(t, fuzz_ioctls[opi].name, ret, *err);
	if (!ret)
		atomic_fetch_add(&st->ok[t->role], 1);
	return ret;
}

/* Whether the kernel writes through a pointer in @cmd's struct. */
static bool fuzz_writes_through(unsigned long cmd)
{
	size_t i;

	for (i = 0; i < NELEM(fuzz_out_ptrs); i++)
		if (fuzz_out_ptrs[i].cmd == cmd)
			return true;
	return false;
}

/*
 * @cmd's output pointers in the @room bytes at @s aimed at the fuzzer's
 * zoo only: in the struct as the kernel will read it, also when it was
 * left as an earlier call or a random fill made it.
 */
static void fuzz_aim_outputs(struct fuzz_thread *t, unsigned long cmd, uint8_t *s, size_t room)
{
	uint64_t p;
	size_t i;

	for (i = 0; i < NELEM(fuzz_out_ptrs); i++) {
		if (fuzz_out_ptrs[i].cmd != cmd || fuzz_out_ptrs[i].offset + 8 > room)
			continue;
		memcpy(&p, s + fuzz_out_ptrs[i].offset, 8);
		p = fuzz_output_aim(t, p);
		memcpy(s + fuzz_out_ptrs[i].offset, &p, 8);
	}
}

/*
 * A canary right after the @length bytes at @buf when they lie in the
 * thread's big buffer with room after them: the kernel must write no
 * further than the length the caller gave.  NULL when there is no room.
 */
static uint8_t *fuzz_length_canary(struct fuzz_thread *t, uint64_t buf, uint64_t length)
{
	uint8_t *end;

	if (buf < (uintptr_t)t->big || buf - (uintptr_t)t->big + length + FUZZ_CANARY > FUZZ_BIG)
		return NULL;
	end = (uint8_t *)(uintptr_t)buf + length;
	memset(end, 0x5A, FUZZ_CANARY);
	return end;
}

static void fuzz_length_check(struct fuzz_thread *t, const char *what, const uint8_t *end,
			      uint64_t length)
{
	unsigned int k;

	for (k = 0; end && k < FUZZ_CANARY; k++)
		if (end[k] != 0x5A) {
			fuzz_violation(t, "%s wrote past the %llu bytes of its buffer (byte %u)",
				       what, (unsigned long long)length, k);
			return;
		}
}

static void fuzz_one_ioctl(struct fuzz_thread *t)
{
	static __thread uint8_t scratch[FUZZ_MAX_ARG + 64];
	const struct fuzz_ioctl *op;
	unsigned int f, k, n, opi, where;
	uint8_t *arg;
	uint32_t usize, mem;
	bool canary = false, racy = false, wrong;
	const struct etw_buffer_read *br;
	uint8_t *out_end = NULL;
	uint64_t buf, length = 0;
	size_t zoo = 0;
	int fd = fuzz_fd(t, &f), cfd;
	unsigned int cf;
	long ret;
	int err;

	if (fuzz_chance(t, 4)) {
		cfd = fuzz_cfd(t, &cf);
		if (cfd >= 0 && fuzz_chance(t, 30))
			fuzz_unknown_ioctl(t, cfd, FUZZ_ON_CONSUMER);
		else if (t->wfd >= 0 && fuzz_chance(t, 20))
			fuzz_unknown_ioctl(t, t->wfd, FUZZ_ON_DEV);
		else
			fuzz_unknown_ioctl(t, fd, FUZZ_ON_DEV);
		return;
	}
	opi = fuzz_below(t, NELEM(fuzz_ioctls));
	op = &fuzz_ioctls[opi];
	/* Its own kind of file, or now and then the other kind: ENOTTY. */
	cfd = fuzz_cfd(t, &cf);
	wrong = fuzz_chance(t, 3) || (op->file == FUZZ_ON_CONSUMER && cfd < 0);
	if (op->file == FUZZ_ON_CONSUMER && !wrong)
		fd = cfd;
	else if (op->file == FUZZ_ON_DEV && wrong && t->wfd >= 0 &&
		 op->cmd != ETW_IOC_WRITE && op->cmd != ETW_IOC_WRITE_SHORT &&
		 fuzz_chance(t, 50))
		fd = t->wfd;	/* a writer fd answers the writes only */
	else if (op->file == FUZZ_ON_DEV && wrong && cfd >= 0)
		fd = cfd;
	else if ((op->cmd == ETW_IOC_WRITE || op->cmd == ETW_IOC_WRITE_SHORT) &&
		 t->wfd >= 0 && fuzz_chance(t, 30))
		fd = t->wfd, wrong = false;
	else if (op->file == FUZZ_ON_DEV)
		wrong = false;

	memset(scratch, 0, sizeof(scratch));
	fuzz_seed_fd = f;
	if (op->seed && fuzz_chance(t, 90))
		op->seed(t, scratch);
	n = op->seed ? (fuzz_chance(t, 40) ? 0 : 1 + fuzz_below(t, 4)) : fuzz_below(t, 6);
	for (k = 0; k < n; k++)
		fuzz_mutate(t, scratch, op->size);
	fuzz_bound_waits(t, op->cmd, scratch);
	usize = fuzz_chance(t, 85) ? op->size : fuzz_size(t, op);
	if (usize > op->size && fuzz_chance(t, 50))
		fuzz_fill(t, scratch + op->size, sizeof(scratch) - op->size);
	memcpy(scratch, &usize, 4);

	/* Memory behind the pointer: all of usize, or less, up to a page. */
	mem = usize < 4 ? 4 : usize;
	if (mem > FUZZ_MAX_ARG + 8)
		mem = FUZZ_MAX_ARG + 8;
	where = fuzz_below(t, 20);
	/*
	 * A consumer fd or a writer fd must be read back to be closed: not
	 * into racy memory.  Nor an output pointer: the racer would aim it
	 * anywhere.
	 */
	if (where == 1 && (op->cmd == ETW_IOC_CONSUMER_ATTACH ||
			   op->cmd == ETW_IOC_WRITER_OPEN ||
			   fuzz_writes_through(op->cmd)))
		where = 4;
	switch (where) {
	case 0:		/* ends at the guard page: all of it, or less than usize */
		arg = t->argmem + FUZZ_ARGMEM -
		      (fuzz_chance(t, 50) ? mem : fuzz_below(t, mem) + 1);
		break;
	case 1:		/* another thread scribbles on it meanwhile */
		arg = t->racy + fuzz_below(t, 64);
		racy = true;
		break;
	case 2:		/* readable, not writable */
		arg = t->ro;
		break;
	case 3:	/* the struct is written back: the zoo only, also when truncated */
		arg = (uint8_t *)(uintptr_t)fuzz_output_aim(t, (uintptr_t)fuzz_ptr(t, mem));
		break;
	default:
		arg = t->argmem + fuzz_below(t, 8) * 8;
		canary = true;
		break;
	}
	if (arg == t->ro || !fuzz_chance(t, 99)) {
		canary = false;	/* leave the memory as it is */
	} else if (arg >= t->argmem && arg < t->argmem + FUZZ_ARGMEM) {
		size_t room = t->argmem + FUZZ_ARGMEM - arg;

		memcpy(arg, scratch, room < mem ? room : mem);
		if (canary)
			memset(arg + mem, 0xA5, FUZZ_CANARY);
	} else if (arg >= t->area && arg < t->area + FUZZ_AREA) {
		size_t room = t->area + FUZZ_AREA - arg;

		memcpy(arg, scratch, room < mem ? room : mem);
	} else if (racy) {
		memcpy(arg, scratch, mem);
	}

	/* The racer never has an output pointer; the read-only page has none. */
	if (arg >= t->argmem && arg < t->argmem + FUZZ_ARGMEM)
		zoo = t->argmem + FUZZ_ARGMEM - arg;
	else if (arg >= t->area && arg < t->area + FUZZ_AREA)
		zoo = t->area + FUZZ_AREA - arg;
	/*
	 * Only the pointers inside the @mem bytes given: the kernel reads no
	 * further, and beyond them lies the canary.
	 */
	fuzz_aim_outputs(t, op->cmd, arg, zoo < mem ? zoo : mem);
	/* ETW_IOC_BUFFER_READ's output ends where its length says. */
	if (op->cmd == ETW_IOC_BUFFER_READ && usize >= ETW_BUFFER_READ_SIZE_VER0 &&
	    zoo >= ETW_BUFFER_READ_SIZE_VER0) {
		br = (const struct etw_buffer_read *)arg;
		buf = br->buf;
		length = br->length;
		out_end = fuzz_length_canary(t, buf, length);
	}

	ret = fuzz_call(t, opi, fd, arg, &err);
	fuzz_length_check(t, op->name, out_end, length);

	if (canary && !fuzz_points_at(scratch, op->size, t->argmem, FUZZ_ARGMEM + t->page)) {
		for (k = 0; k < FUZZ_CANARY; k++)
			if (arg[mem + k] != 0xA5) {
				fuzz_violation(t, "%s wrote past the %u bytes it was given (byte %u)",
					       op->name, mem, mem + k);
				break;
			}
	}
	if (!ret && op->who == FUZZ_CONTROL && t->role)
		fuzz_violation(t, "%s succeeded without privilege", op->name);
	if (wrong && (ret != -1 || err != ENOTTY)) {
		fuzz_violation(t, "%s on the other kind of file answered %ld (errno %d)",
			       op->name, ret, err);
		return;
	}
	if (wrong)
		return;

	/* Learn what now exists, for the seeds of later calls. */
	if (ret || racy || arg == t->ro)
		return;
	if (op->cmd == ETW_IOC_CONSUMER_ATTACH && usize >= ETW_CONSUMER_ATTACH_SIZE_VER0)
		fuzz_cfd_remember(t, (struct etw_consumer_attach *)arg);
	if (op->cmd == ETW_IOC_WRITER_OPEN && usize >= ETW_WRITER_OPEN_SIZE_VER0)
		fuzz_wfd_remember(t, ((struct etw_writer_open *)arg)->fd);
	if (op->cmd == ETW_IOC_PROVIDER_REGISTER && usize >= ETW_PROVIDER_REGISTER_SIZE_VER0)
		fuzz_reg_remember(t, f, ((struct etw_provider_register *)arg)->reg_id);
	if (op->cmd == ETW_IOC_SESSION_START && usize >= ETW_SESSION_START_SIZE_VER0) {
		uint32_t id = ((struct etw_session_start *)arg)->info.logger_id;

		if (id && id <= ETW_MAX_SESSIONS)
			atomic_store(&t->sh->loggers[id], 1);
	}
	if (op->cmd == ETW_IOC_SESSION_CONTROL && usize >= ETW_SESSION_CONTROL_SIZE_VER0) {
		struct etw_session_control *c = (void *)arg;

		if (c->code == ETW_CONTROL_STOP && c->info.logger_id &&
		    c->info.logger_id <= ETW_MAX_SESSIONS)
			atomic_store(&t->sh->loggers[c->info.logger_id], 0);
	}
}

struct fuzz_map {
	void *addr;
	size_t len;
};

/*
 * The length of a mapping: the table's, or what ATTACH said for a consumer
 * (up to 4 GiB of buffer slots: 64 bits, also in the 32-bit build).
 */
static uint64_t fuzz_map_length(const struct fuzz_mmap *m, const struct etw_consumer_attach *a)
{
	if (m->file == FUZZ_ON_DEV)
		return m->length;
	if (m->offset == ETW_CONSUMER_MMAP_CTRL)
		return a->ctrl_bytes;
	if (m->offset == ETW_CONSUMER_MMAP_RING)
		return a->ring_bytes;
	return a->buffers_bytes;
}

/* The consumer writes its control page: anything, the kernel trusts none of it. */
static void fuzz_scribble_ctrl(struct fuzz_thread *t, void *p)
{
	struct etw_consumer_ctrl *ctrl = p;

	switch (fuzz_below(t, 4)) {
	case 0:
		__atomic_store_n(&ctrl->tail, fuzz_rand(t), __ATOMIC_RELEASE);
		break;
	case 1:
		__atomic_store_n(&ctrl->tail, ctrl->tail + fuzz_below(t, 4), __ATOMIC_RELEASE);
		break;
	case 2:
		__atomic_store_n(&ctrl->tail, ctrl->tail - fuzz_below(t, 4), __ATOMIC_RELEASE);
		break;
	default:
		fuzz_fill(t, p, sizeof(*ctrl));
		break;
	}
}

/*
 * Read every page of a granted mapping, then, if @scribble, write its
 * control page as a consumer may; a fault there is a kernel bug, and the
 * only fault the fuzzer's own code may take.
 */
static bool fuzz_touch(struct fuzz_thread *t, uint8_t *p, size_t len, bool scribble)
{
	sigjmp_buf jb;
	volatile uint8_t sum = 0;
	size_t off;

	if (sigsetjmp(jb, 1)) {
		fuzz_touch_jmp = NULL;
		return false;
	}
	fuzz_touch_jmp = &jb;
	for (off = 0; off < len; off += t->page)
		sum += p[off];
	if (scribble)
		fuzz_scribble_ctrl(t, p);
	fuzz_touch_jmp = NULL;
	(void)sum;
	return true;
}

static void fuzz_one_mmap(struct fuzz_thread *t, struct fuzz_map *maps)
{
	static const int prots[] = { PROT_READ, PROT_READ | PROT_WRITE, PROT_NONE,
				     PROT_READ | PROT_EXEC, PROT_WRITE };
	const struct fuzz_mmap *m = &fuzz_mmaps[fuzz_below(t, NELEM(fuzz_mmaps))];
	const struct fuzz_mmap *listed = NULL;
	const struct etw_consumer_attach *a = NULL;
	struct fuzz_map *slot = &maps[fuzz_below(t, FUZZ_MAPS)];
	unsigned long long off = m->offset;
	int prot = m->prot & ~FUZZ_SPARSE, flags = MAP_SHARED, file = m->file;
	bool scribble;
	unsigned int f;
	uint64_t want, max = 0;
	size_t len, i;
	int fd = fuzz_fd(t, &f);
	void *p;

	if (file == FUZZ_ON_CONSUMER) {
		fd = fuzz_cfd(t, &f);
		if (fd < 0) {
			m = &fuzz_mmaps[0];	/* no consumer fd yet */
			off = m->offset;
			prot = m->prot & ~FUZZ_SPARSE;
			file = FUZZ_ON_DEV;
			fd = fuzz_fd(t, &f);
		} else {
			a = &t->cinfo[f];
		}
	}
	want = fuzz_page_align(fuzz_map_length(m, a), t->page);
	/* The fuzzer maps at most FUZZ_MAP_MAX of a mapping. */
	len = want < FUZZ_MAP_MAX ? want : FUZZ_MAP_MAX;
	switch (fuzz_below(t, 8)) {
	case 0:
		off += (unsigned long long)t->page * (1 + fuzz_below(t, 64));
		break;
	case 1:
		off = (fuzz_rand(t) & ~(uint64_t)(t->page - 1)) >> fuzz_below(t, 40);
		break;
	case 2:
		len = t->page * fuzz_below(t, 2 * len / t->page + 2);
		break;
	case 3:
		prot = prots[fuzz_below(t, NELEM(prots))];
		break;
	case 4:
		flags = MAP_PRIVATE;
		break;
	default:
		break;
	}
	if (len == 0)
		len = t->page;
	if (len > FUZZ_MAP_MAX)
		len = FUZZ_MAP_MAX;
	for (i = 0; i < NELEM(fuzz_mmaps); i++)
		if (fuzz_mmaps[i].offset == off && fuzz_mmaps[i].file == file) {
			listed = &fuzz_mmaps[i];
			max = fuzz_page_align(fuzz_map_length(listed, a), t->page);
		}

	p = mmap(NULL, len, prot, flags, fd, (off_t)off);
	fuzz_errno(t, "mmap", p == MAP_FAILED ? -1 : 0, errno);
	if (p == MAP_FAILED)
		return;
	atomic_fetch_add(&t->sh->mmaps_ok[t->role], 1);

	if (!listed)
		fuzz_violation(t, "mmap at unlisted offset 0x%llx succeeded", off);
	else if (listed->who == FUZZ_CONTROL && t->role)
		fuzz_violation(t, "mmap of %s succeeded without privilege", listed->name);
	else if ((prot & PROT_WRITE) && !(listed->prot & PROT_WRITE))
		fuzz_violation(t, "mmap of %s granted PROT_WRITE", listed->name);
	else if (len > max)
		fuzz_violation(t, "mmap of %s granted %zu bytes of %llu", listed->name, len,
			       (unsigned long long)max);
	if (listed && !(listed->prot & PROT_WRITE) &&
	    mprotect(p, len, PROT_READ | PROT_WRITE) == 0)
		fuzz_violation(t, "mprotect made %s writable", listed->name);
	scribble = listed && listed->file == FUZZ_ON_CONSUMER &&
		   listed->offset == ETW_CONSUMER_MMAP_CTRL && (prot & PROT_WRITE) &&
		   flags == MAP_SHARED;
	if (((prot & PROT_READ) || scribble) &&
	    !fuzz_touch(t, p, (prot & PROT_READ) ? len : 0, scribble) && listed &&
	    !(listed->prot & FUZZ_SPARSE))
		fuzz_violation(t, "a granted mapping of %s faulted", m->name);
	if (fuzz_chance(t, 30)) {
		void *q = mremap(p, len, len + t->page, MREMAP_MAYMOVE);

		if (q != MAP_FAILED && listed && len + t->page > max)
			fuzz_violation(t, "mremap grew %s past its size", listed->name);
		if (q != MAP_FAILED) {
			munmap(q, len + t->page);
			return;
		}
	}
	/* Keep some mappings across later calls (and closes of the file). */
	if (slot->addr)
		munmap(slot->addr, slot->len);
	slot->addr = p;
	slot->len = len;
}

/* The table's index of the /dev/etw ioctl @cmd. */
static unsigned int fuzz_op(unsigned long cmd)
{
	unsigned int i;

	for (i = 0; i < NELEM(fuzz_ioctls); i++)
		if (fuzz_ioctls[i].cmd == cmd)
			break;
	assert(i < NELEM(fuzz_ioctls));
	return i;
}

/*
 * Whole notifications only; remember the cookies for ETW_IOC_NOTIFY_ACK,
 * or acknowledge them at once on @ack_fd (>= 0) as a provider's callback.
 */
static void fuzz_notifications(struct fuzz_thread *t, int ack_fd,
			       const uint8_t *buf, size_t len)
{
	struct etw_notification n;
	size_t off = 0;
	int err;

	while (off < len) {
		if (len - off < sizeof(n)) {
			fuzz_violation(t, "read returned %zu bytes: a partial notification at %zu",
				       len, off);
			return;
		}
		memcpy(&n, buf + off, sizeof(n));
		if (n.size < sizeof(n) || n.size > len - off ||
		    n.size != sizeof(n) + ((n.filter_size + 7) & ~7u)) {
			fuzz_violation(t, "notification of size %u (filter %u) at %zu of %zu",
				       n.size, n.filter_size, off, len);
			return;
		}
		if (n.cookie && ack_fd >= 0) {
			struct etw_notify_ack a = { .size = sizeof(a), .cookie = n.cookie };

			fuzz_call(t, fuzz_op(ETW_IOC_NOTIFY_ACK), ack_fd, &a, &err);
		} else if (n.cookie) {
			t->cookies[fuzz_below(t, FUZZ_COOKIES)] = n.cookie;
		}
		off += n.size;
	}
}

/* The callback thread's own session and provider, for fuzz_flush_and_read. */
struct fuzz_reader {
	uint32_t logger_id;
	uint32_t reg;
};

/*
 * A consumer without mmap: one event into a session of the thread's own,
 * FLUSH and ETW_IOC_BUFFER_READ, which random calls rarely get to (a
 * session needs a ready buffer and no attached consumer).  The session and
 * the registration are made again when a fuzzer stopped or dropped them.
 */
static void fuzz_flush_and_read(struct fuzz_thread *t, int fd, struct fuzz_reader *rd)
{
	struct etw_provider_register reg = { .size = sizeof(reg) };
	struct etw_session_start st = { .size = sizeof(st) };
	struct etw_enable en = { .size = sizeof(en), .control_code = 1, .level = 5 };
	struct etw_event_write w = { .size = sizeof(w), .kind = ETW_WRITE_EVENT };
	struct etw_session_control c = { .size = sizeof(c), .code = ETW_CONTROL_FLUSH };
	struct etw_buffer_read r = { .size = sizeof(r), .length = FUZZ_BIG - 4096,
				     .buf = (uintptr_t)t->big };
	int err;

	memcpy(reg.guid, t->guids[0], 16);
	if (!rd->reg && !fuzz_call(t, fuzz_op(ETW_IOC_PROVIDER_REGISTER), fd, &reg, &err))
		rd->reg = reg.reg_id;
	snprintf(st.info.name, sizeof(st.info.name), "etwfuzz-reader");
	st.info.buffer_size_kb = 4;
	if (!fuzz_call(t, fuzz_op(ETW_IOC_SESSION_START), fd, &st, &err))
		rd->logger_id = st.info.logger_id;
	w.reg_id = rd->reg;
	w.desc.level = 4;
	if (fuzz_call(t, fuzz_op(ETW_IOC_WRITE), fd, &w, &err) && err == EBADF)
		rd->reg = 0;
	/*
	 * Enable when nothing was written, and now and then anyway with a
	 * short wait: every registration of the GUID (both roles' callback
	 * threads register it) then gets a notification with a cookie, so
	 * ETW_IOC_NOTIFY_ACK has one actually pending to acknowledge, however
	 * few of the random enables succeed.
	 */
	if (!w.written || fuzz_chance(t, 30)) {
		en.logger_id = rd->logger_id;
		en.timeout_ms = w.written || fuzz_chance(t, 50) ? 1 : ETW_TIMEOUT_ASYNC;
		memcpy(en.guid, t->guids[0], 16);
		fuzz_call(t, fuzz_op(ETW_IOC_ENABLE), fd, &en, &err);
	}
	c.logger_id = r.logger_id = rd->logger_id;
	fuzz_call(t, fuzz_op(ETW_IOC_SESSION_CONTROL), fd, &c, &err);
	fuzz_call(t, fuzz_op(ETW_IOC_BUFFER_READ), fd, &r, &err);
}

/*
 * A provider's callbacks: notifications on the process's shared file are
 * read as soon as they come and acknowledged at once, so that waits of
 * EnableTraceEx2 end early and acknowledgments succeed for both roles.
 * When none comes for 10 ms, now and then, an event, a flush and a read.
 */
static void *fuzz_callbacks(void *arg)
{
	struct fuzz_thread *t = arg;
	struct pollfd p = { .fd = t->fds[0], .events = POLLIN };
	struct fuzz_reader rd = { 0 };
	ssize_t ret;

	fuzz_doing = "callbacks";
	/* Until both roles are done (the other's enables still come), or the deadline. */
	while ((!atomic_load(&t->sh->stop[0]) || !atomic_load(&t->sh->stop[1])) &&
	       fuzz_now() < t->sh->deadline) {
		if (poll(&p, 1, 10) <= 0) {
			if (fuzz_chance(t, 20))
				fuzz_flush_and_read(t, p.fd, &rd);
			continue;
		}
		ret = read(p.fd, t->big, FUZZ_BIG);
		if (ret > 0)
			fuzz_notifications(t, p.fd, t->big, ret);
	}
	return NULL;
}

static void fuzz_one_read(struct fuzz_thread *t)
{
	static const size_t lens[] = { 0, 1, sizeof(struct etw_notification) - 1,
				       sizeof(struct etw_notification), 4096,
				       ETW_NOTIFICATION_MAX_SIZE, 1 << 20 };
	size_t len = lens[fuzz_below(t, NELEM(lens))];
	unsigned int f, cf;
	int fd = fuzz_fd(t, &f), cfd = fuzz_cfd(t, &cf);
	bool consumer = cfd >= 0 && fuzz_chance(t, 30);
	struct pollfd pfd = { .fd = consumer ? cfd : fd, .events = POLLIN };
	void *buf = fuzz_chance(t, 80) ? (void *)t->big :
		    (void *)(uintptr_t)fuzz_output_aim(t, (uintptr_t)fuzz_ptr(t, len));
	uint8_t *end;
	ssize_t ret;

	atomic_fetch_add(&t->sh->reads[t->role], 1);
	switch (fuzz_below(t, 4)) {
	case 0:
		ret = poll(&pfd, 1, 0);
		if (ret < 0)
			fuzz_errno(t, "poll", -1, errno);
		break;
	case 1:
		ret = write(pfd.fd, buf, len);
		fuzz_errno(t, "write", ret < 0 ? -1 : 0, errno);
		break;
	default:
		end = fuzz_length_canary(t, (uintptr_t)buf, len);
		ret = read(pfd.fd, buf, len);
		fuzz_errno(t, "read", ret < 0 ? -1 : 0, errno);
		fuzz_length_check(t, "read", end, len);
		if (ret > 0 && consumer)
			fuzz_violation(t, "read() of a consumer fd returned %zd", ret);
		else if (ret > 0 && buf == t->big)
			fuzz_notifications(t, -1, t->big, ret);
		break;
	}
}

/* A short-lived provider process, killed or not in the middle of writing. */
static void fuzz_one_child(struct fuzz_thread *t)
{
	uint32_t seed = (uint32_t)fuzz_rand(t);
	pid_t pid = fork();

	if (pid < 0)
		return;
	if (pid == 0) {
		struct fuzz_thread c = *t;
		struct etw_provider_register r = { .size = sizeof(r) };
		int fd = fuzz_open(), i;

		c.rng = seed | 1;
		for (i = 0; i < 3; i++) {
			memcpy(r.guid, t->guids[fuzz_below(&c, FUZZ_GUIDS)], 16);
			if (!ioctl(fd, ETW_IOC_PROVIDER_REGISTER, &r))
				c.regs[0][i] = r.reg_id;
		}
		mmap(NULL, t->page, PROT_READ, MAP_SHARED, fd, ETW_MMAP_STATE);
		c.fds[0] = c.fds[1] = c.fds[2] = fd;
		/* Both write paths: either may be the one in flight at the kill. */
		for (i = 0; i < 200; i++) {
			struct etw_event_write w = { .size = sizeof(w) };
			struct etw_event_write_short ws = { .size = sizeof(ws) };

			fuzz_seed_fd = 0;
			if (i & 1) {
				seed_write_short(&c, &ws);
				ioctl(fd, ETW_IOC_WRITE_SHORT, &ws);
			} else {
				seed_write(&c, &w);
				ioctl(fd, ETW_IOC_WRITE, &w);
			}
		}
		_exit(0);
	}
	atomic_fetch_add(&t->sh->children[t->role], 1);
	if (fuzz_chance(t, 60)) {
		usleep(fuzz_below(t, 3000));
		kill(pid, SIGKILL);
	}
	waitpid(pid, NULL, 0);
}

/*
 * A kernel provider's request, through the test module: register or drop
 * one of the fuzzer's GUIDs, write from any context with any descriptor,
 * or unregister while writers run.  Root only (the device is root's).
 */
static void fuzz_one_kprov(struct fuzz_thread *t)
{
	int kfd = open("/dev/" KPT_DEVICE, O_RDWR | O_CLOEXEC);
	__u32 slot = fuzz_below(t, KPT_SLOTS);
	int ret = -1;

	if (kfd < 0)
		return;
	switch (fuzz_below(t, 8)) {
	case 0:
	case 1: {
		struct kpt_register r = { .slot = slot,
					  .with_callback = fuzz_below(t, 2) };

		memcpy(r.guid, t->guids[fuzz_below(t, FUZZ_GUIDS)], 16);
		ret = ioctl(kfd, KPT_IOC_REGISTER, &r);
		break;
	}
	case 2: {
		struct kpt_register r = { .slot = slot };

		ret = ioctl(kfd, KPT_IOC_UNREGISTER, &r);
		break;
	}
	case 3: {
		struct kpt_race r = { .slot = slot, .ms = 1 + fuzz_below(t, 20) };

		ret = ioctl(kfd, KPT_IOC_RACE, &r);
		break;
	}
	default: {
		struct kpt_write w = {
			.slot = slot,
			.ctx = fuzz_below(t, KPT_CTX_IRQOFF + 1),
			.kind = fuzz_below(t, KPT_W_ACTIVITY + 1),
			.cpu = fuzz_chance(t, 50) ? ~0U : 0,
			.count = 1 + fuzz_below(t, 8),
			.size = fuzz_chance(t, 90) ? fuzz_below(t, 600) :
				fuzz_below(t, 65537),
			.id = (__u16)fuzz_rand(t),
			.level = (__u8)fuzz_below(t, 8),
			.flags = (__u32)fuzz_below(t, 4),
			.keyword = fuzz_rand(t),
			.filter = fuzz_chance(t, 20) ? fuzz_rand(t) : 0,
		};

		ret = ioctl(kfd, KPT_IOC_WRITE, &w);
		if (!ret && w.bad_ctx)
			atomic_fetch_add(&t->sh->kprov_bad, w.bad_ctx);
		break;
	}
	}
	if (!ret)
		atomic_fetch_add(&t->sh->kprov_calls, 1);
	close(kfd);
}

/* Files 1.. are this thread's; file 0 is shared by the process's threads. */
static void fuzz_reopen(struct fuzz_thread *t)
{
	unsigned int f = 1 + fuzz_below(t, FUZZ_FDS - 1);

	close(t->fds[f]);
	t->fds[f] = fuzz_open();
	memset(t->regs[f], 0, sizeof(t->regs[f]));
	fuzz_cfd_drop(t, fuzz_below(t, FUZZ_CFDS));
}

static void *fuzz_thread_main(void *arg)
{
	struct fuzz_thread *t = arg;
	struct fuzz_map maps[FUZZ_MAPS] = { 0 };
	unsigned int i, r;

	while (fuzz_account(t)) {
		double t0 = fuzz_now();
		int kind;

		/*
		 * Unmapping, closing and forking wait for the other CPU (TLB
		 * shootdowns, grace periods) and are slow under TCG: rarer.
		 */
		r = fuzz_below(t, 10000);
		if (r < 9400)
			fuzz_doing = "ioctl", fuzz_one_ioctl(t), kind = 0;
		else if (r < 9600)
			fuzz_doing = "mmap", fuzz_one_mmap(t, maps), kind = 1;
		else if (r < 9965)
			fuzz_doing = "read", fuzz_one_read(t), kind = 2;
		else if (r < 9990)
			fuzz_doing = "reopen", fuzz_reopen(t), kind = 3;
		else if (r < 9995 && !t->role && t->sh->kprov)
			fuzz_doing = "kprov", fuzz_one_kprov(t), kind = 5;
		else if (r < 9995)
			fuzz_doing = "reopen", fuzz_reopen(t), kind = 3;
		else
			fuzz_doing = "child", fuzz_one_child(t), kind = 4;
		atomic_fetch_add(&t->sh->kind_usec[kind], (unsigned long)((fuzz_now() - t0) * 1e6));
	}
	for (i = 0; i < FUZZ_MAPS; i++)
		if (maps[i].addr)
			munmap(maps[i].addr, maps[i].len);
	return NULL;
}

/* Flip bytes of the racy buffer while other threads pass it to the kernel. */
static void *fuzz_racer(void *arg)
{
	struct fuzz_thread *t = arg;

	while (!atomic_load(&t->sh->stop[t->role])) {
		t->racy[fuzz_below(t, 4096 + 64)] ^= (uint8_t)fuzz_rand(t);
		if (!fuzz_below(t, 64))
			sched_yield();
	}
	return NULL;
}

static void *fuzz_map_anon(size_t len, int prot)
{
	void *p = mmap(NULL, len, prot, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	return p == MAP_FAILED ? NULL : p;
}

static int fuzz_thread_init(struct fuzz_thread *t, struct fuzz_shared *sh,
			    int role, uint64_t seed, int shared_fd)
{
	long page = sysconf(_SC_PAGESIZE);
	unsigned int i;
	uint8_t *hole;

	memset(t, 0, sizeof(*t));
	t->sh = sh;
	t->role = role;
	t->rng = seed | 1;
	t->page = page;
	for (i = 0; i < FUZZ_GUIDS; i++)
		etw_test_guid(t->guids[i], 0xf0 + i);
	t->fds[0] = shared_fd;
	for (i = 0; i < FUZZ_CFDS; i++)
		t->cfds[i] = -1;
	t->wfd = -1;
	for (i = 1; i < FUZZ_FDS; i++)
		t->fds[i] = fuzz_open();
	t->area = fuzz_map_anon(FUZZ_AREA + page, PROT_READ | PROT_WRITE);
	t->big = fuzz_map_anon(FUZZ_BIG + page, PROT_READ | PROT_WRITE);
	t->argmem = fuzz_map_anon(FUZZ_ARGMEM + page, PROT_READ | PROT_WRITE);
	t->ro = fuzz_map_anon(page, PROT_READ | PROT_WRITE);
	/* Reserved, never reused by a later mapping: faults like a hole. */
	hole = fuzz_map_anon(page, PROT_NONE);
	if (!t->area || !t->big || !t->argmem || !t->ro || !hole || t->fds[0] < 0)
		return -1;
	mprotect(t->area + FUZZ_AREA, page, PROT_NONE);
	mprotect(t->argmem + FUZZ_ARGMEM, page, PROT_NONE);
	mprotect(t->big + FUZZ_BIG, page, PROT_NONE);
	/* Plausible content: a version struct with its size. */
	((struct etw_version *)t->ro)->size = sizeof(struct etw_version);
	mprotect(t->ro, page, PROT_READ);
	t->unmapped = (uintptr_t)hole;
	return 0;
}

/* Become nobody:nogroup with no capabilities at all. */
static int fuzz_drop_privileges(void)
{
	struct __user_cap_header_struct h = { .version = _LINUX_CAPABILITY_VERSION_3 };
	struct __user_cap_data_struct d[2] = { 0 };

	if (setgroups(0, NULL) || setgid(FUZZ_NOBODY) || setuid(FUZZ_NOBODY))
		return -1;
	if (syscall(SYS_capset, &h, d))
		return -1;
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0))
		return -1;
	memset(d, 0xff, sizeof(d));
	if (syscall(SYS_capget, &h, d) || d[0].effective || d[1].effective ||
	    d[0].permitted || d[1].permitted)
		return -1;
	return geteuid() == FUZZ_NOBODY && getegid() == FUZZ_NOBODY ? 0 : -1;
}

/* One fuzzing process: FUZZ_THREADS threads, a racer and the callbacks. */
static int fuzz_process(struct fuzz_shared *sh, int role, uint64_t seed)
{
	struct fuzz_thread t[FUZZ_THREADS + 2];
	pthread_t tid[FUZZ_THREADS + 2];
	void *(*fn)(void *);
	struct timespec until;
	unsigned int i;
	uint8_t *racy;
	int fd;

	if (role && fuzz_drop_privileges())
		return 10;
	fd = fuzz_open();
	racy = fuzz_map_anon(2 * 4096, PROT_READ | PROT_WRITE);
	if (!racy)
		return 11;
	{
		struct sigaction sa = { .sa_sigaction = fuzz_on_fault, .sa_flags = SA_SIGINFO };

		sigaction(SIGSEGV, &sa, NULL);
		sigaction(SIGBUS, &sa, NULL);
	}
	for (i = 0; i <= FUZZ_THREADS + 1; i++) {
		if (fuzz_thread_init(&t[i], sh, role, seed * 1000003 + i * 7919 + role, fd))
			return 12;
		t[i].racy = racy;
	}
	for (i = 0; i <= FUZZ_THREADS + 1; i++) {
		fn = !i ? fuzz_racer : i <= FUZZ_THREADS ? fuzz_thread_main : fuzz_callbacks;
		if (pthread_create(&tid[i], NULL, fn, &t[i]))
			return 13;
	}
	/*
	 * The threads end at the quota or the deadline.  One may then still
	 * wait in the kernel (an EnableTraceEx2 timeout, a STOP waiting for
	 * a logger consumer): exiting ends those waits, so give the threads
	 * 30 s from then, not for ever.
	 */
	while (!atomic_load(&sh->stop[role]) && fuzz_now() < sh->deadline &&
	       atomic_load(&sh->calls[role]) < sh->quota[role])
		usleep(100000);
	atomic_store(&sh->stop[role], 1);
	clock_gettime(CLOCK_REALTIME, &until);
	until.tv_sec += 30;
	for (i = 1; i <= FUZZ_THREADS; i++)
		if (pthread_timedjoin_np(tid[i], NULL, &until))
			atomic_fetch_add(&sh->waiting[role], 1);
	pthread_join(tid[0], NULL);
	pthread_join(tid[FUZZ_THREADS + 1], NULL);
	return 0;
}

static void stop_all_sessions(int fd)
{
	__u32 id;

	for (id = 1; id <= ETW_MAX_SESSIONS; id++)
		etw_session_ctl(fd, id, ETW_CONTROL_STOP, NULL);
}

static void fuzz_report(struct __test_metadata *_metadata, struct fuzz_shared *sh,
			double secs)
{
	unsigned long total = 0;
	size_t i;
	int e;

	for (i = 0; i < 2; i++)
		total += atomic_load(&sh->calls[i]) < sh->quota[i] ?
			 atomic_load(&sh->calls[i]) : sh->quota[i];
	ksft_print_msg("fuzz: %lu calls in %.1f s (%.0f/s): root %lu, unprivileged %lu\n",
		       total, secs, total / secs,
		       atomic_load(&sh->calls[0]), atomic_load(&sh->calls[1]));
	for (i = 0; i < NELEM(fuzz_ioctls); i++)
		ksft_print_msg("fuzz: %-28s root %7lu calls %6lu ok %6lu ms, unprivileged %7lu calls %6lu ok %6lu ms\n",
			       fuzz_ioctls[i].name,
			       atomic_load(&sh->ops[i].calls[0]), atomic_load(&sh->ops[i].ok[0]),
			       atomic_load(&sh->ops[i].usec[0]) / 1000,
			       atomic_load(&sh->ops[i].calls[1]), atomic_load(&sh->ops[i].ok[1]),
			       atomic_load(&sh->ops[i].usec[1]) / 1000);
	ksft_print_msg("fuzz: mmaps granted root %lu unprivileged %lu; reads/polls %lu/%lu; provider processes %lu/%lu\n",
		       atomic_load(&sh->mmaps_ok[0]), atomic_load(&sh->mmaps_ok[1]),
		       atomic_load(&sh->reads[0]), atomic_load(&sh->reads[1]),
		       atomic_load(&sh->children[0]), atomic_load(&sh->children[1]));
	ksft_print_msg("fuzz: output pointers aimed back at the zoo %lu, of which at the fuzzer's own mapped memory %lu\n",
		       atomic_load(&sh->aimed), atomic_load(&sh->aimed_mapped));
	if (atomic_load(&sh->waiting[0]) + atomic_load(&sh->waiting[1]))
		ksft_print_msg("fuzz: threads left waiting in the kernel at exit: root %lu, unprivileged %lu\n",
			       atomic_load(&sh->waiting[0]), atomic_load(&sh->waiting[1]));
	ksft_print_msg("fuzz: thread time in ms: ioctl %lu, mmap %lu, read %lu, reopen %lu, child %lu\n",
		       atomic_load(&sh->kind_usec[0]) / 1000, atomic_load(&sh->kind_usec[1]) / 1000,
		       atomic_load(&sh->kind_usec[2]) / 1000, atomic_load(&sh->kind_usec[3]) / 1000,
		       atomic_load(&sh->kind_usec[4]) / 1000);
	for (e = 1; e < FUZZ_ERRNOS; e++)
		if (atomic_load(&sh->errnos[e]))
			ksft_print_msg("fuzz: errno %-3d %-10s %lu\n", e, strerrorname_np(e),
				       atomic_load(&sh->errnos[e]));
}

FIXTURE(fuzz)
{
	int fd;
	char memcap[32];
	struct fuzz_shared *sh;
};

FIXTURE_SETUP(fuzz)
{
	etw_require_root(_metadata);
	self->fd = etw_open_or_skip(_metadata);
	self->sh = mmap(NULL, sizeof(*self->sh), PROT_READ | PROT_WRITE,
			MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	ASSERT_TRUE(self->sh != MAP_FAILED);
	/* Keep the sessions the fuzzer starts small (and hit the cap). */
	ASSERT_EQ(0, etw_read_file(ETW_PARAM("max_buffer_memory_mb"), self->memcap,
				   sizeof(self->memcap)));
	ASSERT_EQ(0, etw_write_file(ETW_PARAM("max_buffer_memory_mb"), "16"));
	stop_all_sessions(self->fd);
	/* Kernel providers too, where the test module is (the VM). */
	if (!access(FUZZ_KPROV_MODULE, R_OK)) {
		int ret = etw_module_load_args(FUZZ_KPROV_MODULE, "");

		ASSERT_TRUE(!ret || ret == -EEXIST) TH_LOG("%s: %d", FUZZ_KPROV_MODULE, ret);
		self->sh->kprov = 1;
	}
}

FIXTURE_TEARDOWN(fuzz)
{
	if (self->fd < 0)
		return;
	/* Its registrations go with it; then etw.ko may be unloaded. */
	if (self->sh->kprov)
		syscall(SYS_delete_module, "etw_kprov_test", O_NONBLOCK);
	stop_all_sessions(self->fd);
	etw_write_file(ETW_PARAM("max_buffer_memory_mb"), self->memcap);
	close(self->fd);
}

TEST_F_TIMEOUT(fuzz, root_and_unprivileged, 7200)
{
	unsigned long calls = env_ul(FUZZ_CALLS_VAR, FUZZ_CALLS);
	unsigned long secs = env_ul("ETW_FUZZ_SECONDS", 300);
	uint64_t seed = env_ul("ETW_FUZZ_SEED", (unsigned long)time(NULL) ^ getpid());
	struct fuzz_shared *sh = self->sh;
	pid_t pid[2];
	double t0 = fuzz_now();
	int role, status;
	size_t i;

	ksft_print_msg("fuzz: %lu calls, at most %lu s, ETW_FUZZ_SEED=%llu\n", calls, secs,
		       (unsigned long long)seed);
	sh->quota[0] = calls / 2;
	sh->quota[1] = calls - calls / 2;
	sh->deadline = t0 + secs;
	for (role = 0; role < 2; role++) {
		pid[role] = fork();
		ASSERT_LE(0, pid[role]);
		if (!pid[role])
			_exit(fuzz_process(sh, role, seed));
	}
	for (role = 0; role < 2; role++) {
		ASSERT_EQ(pid[role], waitpid(pid[role], &status, 0));
		EXPECT_TRUE(WIFEXITED(status)) TH_LOG("%s fuzzer killed by signal %d",
			role ? "unprivileged" : "root", WTERMSIG(status));
		if (WIFEXITED(status))
			EXPECT_EQ(0, WEXITSTATUS(status));
	}
	fuzz_report(_metadata, sh, fuzz_now() - t0);

	EXPECT_EQ(0, atomic_load(&sh->violations));
	for (role = 0; role < 2; role++) {
		unsigned long done = atomic_load(&sh->calls[role]);

		EXPECT_LE(sh->quota[role], done) TH_LOG("%s: only %lu calls in %lu s",
			role ? "unprivileged" : "root", done, secs);
	}
	/* The fuzzer got deep: each ioctl succeeded for whoever may call it. */
	for (i = 0; i < NELEM(fuzz_ioctls); i++) {
		EXPECT_LT(0, atomic_load(&sh->ops[i].ok[0])) TH_LOG("%s never succeeded as root",
								  fuzz_ioctls[i].name);
		if (fuzz_ioctls[i].who == FUZZ_ANYONE)
			EXPECT_LT(0, atomic_load(&sh->ops[i].ok[1]))
				TH_LOG("%s never succeeded unprivileged", fuzz_ioctls[i].name);
	}
	EXPECT_LT(0, atomic_load(&sh->mmaps_ok[0]));
	EXPECT_LT(0, atomic_load(&sh->mmaps_ok[1]));
	/* Kernel providers were fuzzed, each write in its context. */
	if (sh->kprov) {
		EXPECT_LT(0, atomic_load(&sh->kprov_calls));
		EXPECT_EQ(0, atomic_load(&sh->kprov_bad));
	}
}

TEST_HARNESS_MAIN
