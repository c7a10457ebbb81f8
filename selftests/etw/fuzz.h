/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The engine of the /dev/etw fuzzer (fuzz_test.c): a per-thread random
 * generator, a zoo of memory the kernel is pointed at (good buffers, a
 * buffer ending at a guard page, a read-only page, an unmapped page, kernel
 * and non-canonical addresses), dictionaries of interesting values, and the
 * mutations applied to a struct after a seed function made it valid.
 *
 * The oracles (what counts as a kernel bug besides a kernel report):
 * - an unprivileged caller succeeds at a FUZZ_CONTROL ioctl or mapping;
 * - an unknown ioctl number answers anything but ENOTTY;
 * - the kernel writes past the size the caller gave (a canary after it);
 * - a mapping it granted cannot be read, or can be made writable when
 *   the table says read-only, or an unknown offset can be mapped;
 * - an errno outside the userspace range (a kernel-internal code leaked)
 *   or a positive ioctl return.
 */
#ifndef ETW_FUZZ_H
#define ETW_FUZZ_H

#include <setjmp.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "etw_selftests.h"

#define FUZZ_ANYONE	0
#define FUZZ_CONTROL	1

/* Which file an ioctl or a mapping belongs to. */
#define FUZZ_ON_DEV		0	/* /dev/etw */
#define FUZZ_ON_CONSUMER	1	/* a consumer fd (ETW_IOC_CONSUMER_ATTACH) */

/* In a FUZZ_MMAP's prot: pages not populated yet read as SIGBUS. */
#define FUZZ_SPARSE	0x10000

#define FUZZ_FDS	3	/* files per thread */
#define FUZZ_REGS	16	/* registrations remembered per file */
#define FUZZ_COOKIES	16	/* notification cookies remembered */
#define FUZZ_CFDS	2	/* consumer fds per thread */
#define FUZZ_MAP_MAX	(64 << 20)	/* the most of a mapping mapped at once */
#define FUZZ_AREA	(64 * 1024)	/* scratch memory per thread */
#define FUZZ_BIG	(1024 * 1024 + 4096)	/* buffer reads */
#define FUZZ_MAX_ARG	4096	/* the kernel refuses larger structs */
#define FUZZ_CANARY	32
#define FUZZ_ARGMEM	(2 * FUZZ_MAX_ARG)
#define FUZZ_GUIDS	8	/* providers the fuzzers share */
#define FUZZ_ERRNOS	135	/* userspace errno values: 1..133 */

struct fuzz_thread;

struct fuzz_ioctl {
	const char *name;
	unsigned long cmd;
	unsigned int size;
	unsigned int min_size;
	int who;
	void (*seed)(struct fuzz_thread *t, void *arg);
	int file;
};

struct fuzz_mmap {
	const char *name;
	unsigned long long offset;
	size_t length;
	int who;
	int prot;
	int file;
};

/* A field of an ioctl's struct that points at memory the kernel writes. */
struct fuzz_out_ptr {
	unsigned long cmd;
	size_t offset;
};

#define FUZZ_IOCTL(_cmd, _type, _min, _who, _seed)			\
	{ .name = #_cmd, .cmd = (_cmd), .size = sizeof(_type),		\
	  .min_size = (_min), .who = (_who), .seed = (_seed),		\
	  .file = FUZZ_ON_DEV }

#define FUZZ_CONSUMER_IOCTL(_cmd, _type, _min, _who, _seed)		\
	{ .name = #_cmd, .cmd = (_cmd), .size = sizeof(_type),		\
	  .min_size = (_min), .who = (_who), .seed = (_seed),		\
	  .file = FUZZ_ON_CONSUMER }

#define FUZZ_MMAP(_off, _len, _who, _prot)				\
	{ .name = #_off, .offset = (_off), .length = (_len),		\
	  .who = (_who), .prot = (_prot), .file = FUZZ_ON_DEV }

/* Its length is the one ETW_IOC_CONSUMER_ATTACH reported. */
#define FUZZ_CONSUMER_MMAP(_off, _who, _prot)				\
	{ .name = #_off, .offset = (_off), .length = 0,			\
	  .who = (_who), .prot = (_prot), .file = FUZZ_ON_CONSUMER }

/* Per ioctl of the table, per role (0 root, 1 unprivileged). */
struct fuzz_op_stats {
	atomic_ulong calls[2];
	atomic_ulong ok[2];
	atomic_ulong usec[2];
};

#define FUZZ_MAX_OPS	32

/* Shared by the fuzzing processes (MAP_SHARED). */
struct fuzz_shared {
	atomic_ulong calls[2];		/* every call on the device, per role */
	atomic_ulong mmaps_ok[2];
	atomic_ulong reads[2];
	atomic_ulong children[2];	/* short-lived provider processes */
	atomic_ulong waiting[2];	/* threads still in the kernel at exit */
	atomic_ulong violations;
	atomic_ulong aimed;		/* output pointers turned to the hole */
	atomic_ulong aimed_mapped;	/* of which at memory mapped in the fuzzer */
	atomic_uint loggers[ETW_MAX_SESSIONS + 1];	/* running, as root saw it */
	atomic_int stop[2];		/* per role: quota reached or deadline */
	unsigned long quota[2];
	double deadline;		/* CLOCK_MONOTONIC seconds */
	struct fuzz_op_stats ops[FUZZ_MAX_OPS];
	atomic_ulong errnos[FUZZ_ERRNOS];
	atomic_ulong kind_usec[6];	/* ioctl, mmap, read, reopen, child, kprov */
	int kprov;			/* the kernel-provider test module is loaded */
	atomic_ulong kprov_calls;	/* requests to it that it carried out */
	atomic_ulong kprov_bad;		/* writes it made outside their context */
};

struct fuzz_thread {
	struct fuzz_shared *sh;
	int role;			/* 0 root, 1 unprivileged */
	uint64_t rng;
	int fds[FUZZ_FDS];
	uint32_t regs[FUZZ_FDS][FUZZ_REGS];
	uint64_t cookies[FUZZ_COOKIES];	/* of notifications read */
	int cfds[FUZZ_CFDS];		/* consumer fds, -1 when none */
	struct etw_consumer_attach cinfo[FUZZ_CFDS];
	int wfd;			/* a writer fd, -1 when none */
	uint8_t *area;			/* FUZZ_AREA, then a PROT_NONE page */
	size_t area_used;
	uint8_t *argmem;		/* FUZZ_ARGMEM, then a PROT_NONE page: the
					 * ioctl's struct, nothing else points here */
	uint8_t *ro;			/* one read-only page */
	uint8_t *big;			/* FUZZ_BIG, then a PROT_NONE page */
	uint8_t *racy;			/* scribbled on by another thread */
	uint64_t unmapped;		/* a PROT_NONE page */
	long page;
	uint8_t guids[FUZZ_GUIDS][16];
};

static inline uint64_t fuzz_rand(struct fuzz_thread *t)
{
	/* xorshift64* */
	t->rng ^= t->rng >> 12;
	t->rng ^= t->rng << 25;
	t->rng ^= t->rng >> 27;
	return t->rng * 0x2545F4914F6CDD1DULL;
}

static inline uint32_t fuzz_below(struct fuzz_thread *t, uint32_t n)
{
	return n ? (uint32_t)(fuzz_rand(t) % n) : 0;
}

/* true with probability @pct percent */
static inline bool fuzz_chance(struct fuzz_thread *t, unsigned int pct)
{
	return fuzz_below(t, 100) < pct;
}

static inline double fuzz_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static inline void fuzz_violation(struct fuzz_thread *t, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static inline void fuzz_violation(struct fuzz_thread *t, const char *fmt, ...)
{
	unsigned long n = atomic_fetch_add(&t->sh->violations, 1);
	char line[256];
	va_list ap;

	if (n >= 20)
		return;
	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	fprintf(stderr, "# fuzz: VIOLATION (%s): %s\n",
		t->role ? "unprivileged" : "root", line);
}

/* Scratch memory for one call; wraps around (calls do not keep it). */
static inline void *fuzz_alloc(struct fuzz_thread *t, size_t len)
{
	void *p;

	len = (len + 7) & ~(size_t)7;
	if (len > FUZZ_AREA / 4)
		len = FUZZ_AREA / 4;
	if (t->area_used + len > FUZZ_AREA)
		t->area_used = 0;
	p = t->area + t->area_used;
	t->area_used += len;
	return p;
}

/* @len bytes of scratch that end exactly where the guard page begins. */
static inline void *fuzz_at_guard(struct fuzz_thread *t, size_t len)
{
	if (len > FUZZ_AREA)
		len = FUZZ_AREA;
	return t->area + FUZZ_AREA - len;
}

static inline uint64_t fuzz_page_align(uint64_t len, long page)
{
	return (len + page - 1) & ~(uint64_t)(page - 1);
}

static inline void fuzz_fill(struct fuzz_thread *t, void *p, size_t len)
{
	uint8_t *b = p;
	size_t i;

	for (i = 0; i < len; i++)
		b[i] = (uint8_t)fuzz_rand(t);
}

/*
 * A pointer for a field that must point at @len bytes: mostly good memory,
 * otherwise something the kernel must refuse without touching.
 */
static inline uint64_t fuzz_ptr(struct fuzz_thread *t, size_t len)
{
	static const uint64_t bad[] = {
		0, 1, 4096, 0xffffffffffffffffULL, 0xfffffffffffff000ULL,
		0x0000800000000000ULL,	/* first non-canonical */
		0x00007ffffffff000ULL,	/* top user page, unmapped */
		0xffff888000000000ULL,	/* direct map */
		0xffffffff81000000ULL,	/* kernel text */
		0xffffc90000000000ULL,	/* vmalloc */
		0xffffea0000000000ULL,	/* vmemmap */
		0x00000000ffff0000ULL,	/* high compat address */
		0x0000000100000000ULL,	/* above 4 GiB: bad for 32-bit callers */
	};

	switch (fuzz_below(t, 16)) {
	case 0:
		return bad[fuzz_below(t, sizeof(bad) / sizeof(bad[0]))];
	case 1:
		return (uintptr_t)t->ro;
	case 2:
		return t->unmapped;
	case 3:
		/* Starts in good memory, runs into the guard page. */
		return (uintptr_t)fuzz_at_guard(t, len / 2 + 1);
	case 4:
		return (uintptr_t)fuzz_alloc(t, len) + 1 + fuzz_below(t, 7);
	default: {
		void *p = fuzz_alloc(t, len);

		fuzz_fill(t, p, len < 256 ? len : 256);
		return (uintptr_t)p;
	}
	}
}

static inline uint32_t fuzz_u32(struct fuzz_thread *t)
{
	static const uint32_t dict[] = {
		0, 1, 2, 3, 4, 7, 8, 9, 16, 63, 64, 65, 127, 128, 129, 255,
		256, 1023, 1024, 1025, 4095, 4096, 4097, 65535, 65536,
		0x7fffffff, 0x80000000, 0xfffffffe, 0xffffffff,
	};

	if (fuzz_chance(t, 70))
		return dict[fuzz_below(t, sizeof(dict) / sizeof(dict[0]))];
	return (uint32_t)fuzz_rand(t);
}

/* A logger id: mostly one that runs, sometimes any. */
static inline uint32_t fuzz_logger(struct fuzz_thread *t)
{
	uint32_t i, start = fuzz_below(t, ETW_MAX_SESSIONS) + 1;

	if (fuzz_chance(t, 85))
		for (i = 0; i < ETW_MAX_SESSIONS; i++) {
			uint32_t id = (start + i - 1) % ETW_MAX_SESSIONS + 1;

			if (atomic_load(&t->sh->loggers[id]))
				return id;
		}
	return fuzz_chance(t, 50) ? fuzz_below(t, ETW_MAX_SESSIONS + 3) : fuzz_u32(t);
}

static inline const uint8_t *fuzz_guid(struct fuzz_thread *t)
{
	static __thread uint8_t g[16];

	if (fuzz_chance(t, 90))
		return t->guids[fuzz_below(t, FUZZ_GUIDS)];
	fuzz_fill(t, g, sizeof(g));
	return g;
}

static inline int fuzz_fd(struct fuzz_thread *t, unsigned int *which)
{
	*which = fuzz_below(t, FUZZ_FDS);
	return t->fds[*which];
}

/* A registration id on file @f: mostly one we got, sometimes any. */
static inline uint32_t fuzz_reg(struct fuzz_thread *t, unsigned int f)
{
	uint32_t r = t->regs[f][fuzz_below(t, FUZZ_REGS)];

	return r && fuzz_chance(t, 90) ? r : fuzz_u32(t);
}

static inline void fuzz_reg_remember(struct fuzz_thread *t, unsigned int f,
				     uint32_t id)
{
	t->regs[f][fuzz_below(t, FUZZ_REGS)] = id;
}

/*
 * Whether the kernel may be pointed at @p for output.  The kernel may write
 * anywhere in the caller's own memory, and a write it rightly makes into
 * the fuzzer's stacks, heap or libraries (a mutated or racing pointer:
 * BUFFER_READ copies up to 1 MiB) crashes the fuzzer later, somewhere
 * else, in a way its seed does not repeat.  So output goes only to the
 * zoo: scratch memory that ends at a guard page (a longer write stops
 * there with EFAULT), the read-only page and the hole (the first byte
 * faults), or addresses nothing of the fuzzer can be mapped at (below
 * mmap_min_addr, above the user address space of a 64-bit or a 32-bit
 * process).
 */
static inline bool fuzz_output_ok(const struct fuzz_thread *t, uint64_t p)
{
	const uint64_t low = 65536;
	const uint64_t high = sizeof(void *) == 4 ? 0x100000000ULL : 0x00007ffffffff000ULL;
	const struct { const uint8_t *mem; size_t len; } zoo[] = {
		{ t->area, FUZZ_AREA + t->page },
		{ t->big, FUZZ_BIG + t->page },
		{ t->argmem, FUZZ_ARGMEM + t->page },
		{ t->ro, t->page },
		{ (const uint8_t *)(uintptr_t)t->unmapped, t->page },
	};
	size_t i;

	if (p < low || p >= high)
		return true;
	for (i = 0; i < sizeof(zoo) / sizeof(zoo[0]); i++)
		if (p >= (uintptr_t)zoo[i].mem && p - (uintptr_t)zoo[i].mem < zoo[i].len)
			return true;
	return false;
}

/* @p, or the hole if output there could land on the fuzzer's own memory. */
static inline uint64_t fuzz_output_aim(struct fuzz_thread *t, uint64_t p)
{
	long page = t->page;

	if (fuzz_output_ok(t, p))
		return p;
	atomic_fetch_add(&t->sh->aimed, 1);
	/* Counted apart: the writes that would have hit the fuzzer itself. */
	if (!msync((void *)(uintptr_t)(p & ~(uint64_t)(page - 1)), page, MS_ASYNC))
		atomic_fetch_add(&t->sh->aimed_mapped, 1);
	return t->unmapped;
}

/* One mutation of a struct of @len bytes (the size field excepted). */
static inline void fuzz_mutate(struct fuzz_thread *t, uint8_t *s, size_t len)
{
	size_t off;

	if (len <= 4)
		return;
	off = 4 + fuzz_below(t, len - 4);
	switch (fuzz_below(t, 6)) {
	case 0:
		s[off] ^= 1u << fuzz_below(t, 8);
		break;
	case 1:
		s[off] = (uint8_t)fuzz_rand(t);
		break;
	case 2: {
		uint32_t v = fuzz_u32(t);

		off &= ~(size_t)3;
		if (off >= 4 && off + 4 <= len)
			memcpy(s + off, &v, 4);
		break;
	}
	case 3: {
		uint64_t v = fuzz_ptr(t, fuzz_below(t, 512));

		off &= ~(size_t)7;
		if (off >= 8 && off + 8 <= len)
			memcpy(s + off, &v, 8);
		break;
	}
	case 4: {
		uint32_t v = fuzz_logger(t);

		off &= ~(size_t)3;
		if (off >= 4 && off + 4 <= len)
			memcpy(s + off, &v, 4);
		break;
	}
	default:
		memset(s + off, 0, len - off < 8 ? len - off : 8);
		break;
	}
}

/* The size a caller claims: mostly right, sometimes every kind of wrong. */
static inline uint32_t fuzz_size(struct fuzz_thread *t, const struct fuzz_ioctl *op)
{
	switch (fuzz_below(t, 12)) {
	case 0:
		return op->min_size;
	case 1:
		return op->min_size - 1 - fuzz_below(t, op->min_size);
	case 2:
		return op->size + 8 * (1 + fuzz_below(t, 8));
	case 3:
		return fuzz_u32(t);
	case 4:
		return FUZZ_MAX_ARG + fuzz_below(t, 2);
	default:
		return op->size;
	}
}

#endif /* ETW_FUZZ_H */
