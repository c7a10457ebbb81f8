// SPDX-License-Identifier: GPL-2.0
/*
 * Stacks of kernel-logger traces, named: etw report and etw dump over a
 * synthetic trace (Process, Thread and Image rundown, SampledProfile and
 * StackWalk records on two processors) of a program this test compiles.
 * Frames are function+offset with the program's symbols, from its debug
 * file found by build-id or by .gnu_debuglink when it is stripped, and
 * module+offset without any; kernel frames come from a kallsyms file.
 * A build-id in the trace (KernelTraceControl's DbgID_RSDS) that is not
 * the file's keeps its frames as offsets.  Expected offsets come from
 * nm, never from the tool.  Needs cc, nm,
 * strip and objcopy, and the etw tool of this build.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "etl_test.h"
#include "kselftest_harness.h"
#include "run_cmd.h"

#ifndef ETW_TOOL_PATH
#define ETW_TOOL_PATH "build/bin/etw"
#endif

#define BASE		0x555555554000ull	/* where prog is mapped */
#define LIBC_BASE	0x7f0000000000ull	/* an image with no file */
#define KBASE		0xffffffff81000000ull
#define PID		1234
#define TID		1235
#define T0		2000000ull

static const struct img_header hdr64 = {
	.bits = 64, .cpus = 2, .clock = 1, .perf_freq = 10000000, .mhz = 3000,
	.start = 132000000000000000ull, .sync = 1000000,
};

static const char prog_src[] =
	"__attribute__((noinline)) int hot_function(int n)\n"
	"{\n\tvolatile int x = 0;\n\tfor (int i = 0; i < n; i++)\n\t\tx += i;\n\treturn x;\n}\n"
	"int main(int argc, char **argv)\n{\n\treturn hot_function(argc) + 1;\n}\n";

static const char kallsyms_text[] =
	"ffffffff81000000 T _text\n"
	"ffffffff81100000 T do_syscall_64\n"
	"ffffffff81200000 t schedule\n"
	"0000000000000000 A fixed_percpu_data\n";

struct fixture_paths {
	char dir[64];
	char prog[128];		/* with symbols */
	char stripped[128];
	char linked[128];	/* stripped, with .gnu_debuglink */
	char etl[128];
	char etl_stripped[128];
	char etl_linked[128];
	char kallsyms[128];
	char debug_dir[128];	/* holds .build-id/xx/rest.debug */
	char etl_id_ok[128];	/* with prog's build-id in a DbgID_RSDS */
	char etl_id_bad[128];	/* with another build-id */
	char etl_cached[128];	/* Windows 8's cached stacks */
	char etl_sched[128];	/* context switches */
	char etl32[128];	/* a 32-bit trace */
	uint64_t hot, main_fn;	/* vaddrs, from nm */
	uint8_t build_id[20];
};

/* etw with @fmt's arguments: what it printed and its exit status. */
static struct run run_etw(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static struct run run_etw(const char *fmt, ...)
{
	char args[1536];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(args, sizeof(args), fmt, ap);
	va_end(ap);
	return run("%s %s", ETW_TOOL_PATH, args);
}

/* SYSTEM64 record of @hook with @payload bytes; returns the payload. */
static uint8_t *sys_record(struct img *m, uint16_t hook, uint16_t version,
			   uint64_t ts, uint32_t payload)
{
	uint8_t *r = img_record(m, 0x20 + payload);

	put_le(r, 0xc0020000u | version, 4);
	put_le(r + 4, 0x20 + payload, 2);
	put_le(r + 6, hook, 2);
	put_le(r + 8, TID, 4);
	put_le(r + 12, PID, 4);
	put_le(r + 0x10, ts, 8);
	return r + 0x20;
}

/* PERFINFO64 record. */
static uint8_t *perf_record(struct img *m, uint16_t hook, uint64_t ts,
			    uint32_t payload)
{
	uint8_t *r = img_record(m, 0x10 + payload);

	put_le(r, 0xc0110002, 4);
	put_le(r + 4, 0x10 + payload, 2);
	put_le(r + 6, hook, 2);
	put_le(r + 8, ts, 8);
	return r + 0x10;
}

static void put_utf16(uint8_t *p, const char *s)
{
	for (; *s; s++, p += 2)
		put_le(p, (uint8_t)*s, 2);
}

static void image_dcstart(struct img *m, uint32_t pid, uint64_t base,
			  uint64_t size, const char *path)
{
	uint8_t *p = sys_record(m, 0x1403, 3, T0, 56 + 2 * strlen(path) + 2);

	put_le(p, base, 8);
	put_le(p + 8, size, 8);
	put_le(p + 16, pid, 4);
	put_utf16(p + 56, path);
}

/* KernelTraceControl's DbgID_RSDS (classic, FULL_HEADER64) of an image. */
static void image_dbgid(struct img *m, uint32_t pid, uint64_t base,
			const uint8_t id[20], const char *path)
{
	static const uint8_t guid[16] = {
		0xd7, 0x75, 0xe6, 0xb3, 0x54, 0x25, 0x18, 0x4f,
		0x83, 0x0b, 0x27, 0x62, 0x73, 0x25, 0x60, 0xde,
	};
	uint32_t size = 0x30 + 32 + strlen(path) + 1;
	uint8_t *r = img_record(m, size);

	put_le(r, size, 2);
	r[2] = 0x14;
	r[3] = 0xc0;
	r[4] = 0x24;
	put_le(r + 6, 2, 2);
	put_le(r + 8, TID, 4);
	put_le(r + 12, PID, 4);
	put_le(r + 0x10, T0, 8);
	memcpy(r + 0x18, guid, 16);
	put_le(r + 0x30, base, 8);
	put_le(r + 0x38, pid, 4);
	memcpy(r + 0x3c, id, 20);
	memcpy(r + 0x50, path, strlen(path) + 1);
}

static void process_dcstart(struct img *m, uint32_t pid, const char *name)
{
	/* TOKEN_USER (16) + S-1-5-18 (12), name, 3 UTF-16 strings. */
	size_t n = 36 + 28 + strlen(name) + 1 + 2 + 2 + 2;
	uint8_t *p = sys_record(m, 0x0303, 4, T0, n);

	put_le(p + 8, pid, 4);
	put_le(p + 12, 1, 4);
	put_le(p + 20, 0x103, 4);
	put_le(p + 36, 0xffff800012345678ull, 8);
	p[52] = 1;
	p[53] = 1;
	p[59] = 5;
	p[60] = 18;
	memcpy(p + 64, name, strlen(name) + 1);
}

static void thread_dcstart(struct img *m, uint32_t pid, uint32_t tid)
{
	uint8_t *p = sys_record(m, 0x0503, 3, T0, 72);

	put_le(p, pid, 4);
	put_le(p + 4, tid, 4);
}

static void sample(struct img *m, uint64_t ts, uint64_t ip, uint32_t tid)
{
	uint8_t *p = perf_record(m, 0x0f2e, ts, 16);

	put_le(p, ip, 8);
	put_le(p + 8, tid, 4);
	put_le(p + 12, 1, 2);
}

static void stack(struct img *m, uint64_t ts, uint32_t pid, uint32_t tid,
		  const uint64_t *frames, unsigned int n)
{
	uint8_t *p = perf_record(m, 0x1820, ts, 16 + 8 * n);

	put_le(p, ts, 8);
	put_le(p + 8, pid, 4);
	put_le(p + 12, tid, 4);
	for (unsigned int i = 0; i < n; i++)
		put_le(p + 16 + 8 * i, frames[i], 8);
}

static int save_img(struct img *m, const char *path)
{
	FILE *out;

	img_finish(m);
	out = fopen(path, "wb");
	if (!out)
		return -errno;
	if (fwrite(m->p, 1, m->len, out) != m->len) {
		fclose(out);
		return -EIO;
	}
	return fclose(out) ? -errno : 0;
}

/*
 * The trace: prog (pid 1234) with its program at BASE and a library
 * without a file; on cpu 0 two user samples in hot_function with stacks,
 * a kernel sample whose stack comes in two parts (kernel, then user), a
 * sample with no stack and a stack of some other event; on cpu 1 one
 * more user sample at the same time as one on cpu 0.
 */
static int write_trace(const char *path, const char *prog_path,
		       const struct fixture_paths *f, const uint8_t *build_id)
{
	static struct img m;
	uint64_t hot = BASE + f->hot + 4, mn = BASE + f->main_fn + 8;
	uint64_t user[] = { hot, mn, LIBC_BASE + 0x29d90 };
	uint64_t kern[] = { KBASE + 0x200010, KBASE + 0x100020 };
	uint64_t ts = T0 + 1000;

	memset(&m, 0, sizeof(m));
	img_start(&m, &hdr64);
	img_buffer(&m, 0, 1, 0x20, 0);
	process_dcstart(&m, 0, "Idle");
	process_dcstart(&m, PID, "prog");
	thread_dcstart(&m, PID, TID);
	image_dcstart(&m, 0, KBASE, 0x2000000, "vmlinux");
	image_dcstart(&m, PID, BASE, 0x5000, prog_path);
	if (build_id)
		image_dbgid(&m, PID, BASE, build_id, prog_path);
	image_dcstart(&m, PID, LIBC_BASE, 0x200000, "/nonexistent/libc.so.6");
	sample(&m, ts, hot, TID);
	stack(&m, ts, PID, TID, user, 3);
	sample(&m, ts + 10, hot, TID);
	stack(&m, ts + 10, PID, TID, user, 3);
	sample(&m, ts + 20, kern[0], TID);
	stack(&m, ts + 20, PID, TID, kern, 2);
	stack(&m, ts + 20, PID, TID, user, 3);
	sample(&m, ts + 30, hot, TID);
	stack(&m, ts + 40, PID, TID, user, 2);
	sample(&m, ts + 50, 0, 0);
	img_buffer(&m, 1, 2, 0x20, 0);
	sample(&m, ts + 10, hot, TID + 1);
	stack(&m, ts + 10, PID, TID + 1, user, 3);
	return save_img(&m, path);
}

/* StackKeyKernel (0x1825) or StackKeyUser (0x1826) of the event at @ts. */
static void stack_key(struct img *m, uint16_t hook, uint64_t now, uint64_t ts,
		      uint32_t pid, uint32_t tid, uint64_t key)
{
	uint8_t *p = perf_record(m, hook, now, 24);

	put_le(p, ts, 8);
	put_le(p + 8, pid, 4);
	put_le(p + 12, tid, 4);
	put_le(p + 16, key, 8);
}

/* KeyDelete (0x1823) or KeyRundown (0x1824): a key and its frames. */
static void stack_def(struct img *m, uint16_t hook, uint64_t now, uint64_t key,
		      const uint64_t *frames, unsigned int n)
{
	uint8_t *p = perf_record(m, hook, now, 8 + 8 * n);

	put_le(p, key, 8);
	for (unsigned int i = 0; i < n; i++)
		put_le(p + 8 + 8 * i, frames[i], 8);
}

#define KEY_K1	0xfffffa8000001000ull
#define KEY_K2	0xfffffa8000002000ull
#define KEY_U1	0xfffffa8000003000ull
#define KEY_U9	0xfffffa8000009000ull

/*
 * Windows 8's stack cache, in Windows' layouts: samples A and B in the
 * kernel name kernel key K1 and no user stack (the thread is in the
 * kernel); C, in user mode, names user key U1, which A and B take too
 * (the thread left the kernel); K1 is evicted (KeyDelete), D names K1
 * again and U1, U1 is evicted, then the rundown gives K1's new frames.  E,
 * in the System process, has kernel key K2 only; F names a user key never
 * given.
 */
static int write_cached_trace(const char *path, const char *prog_path,
			      const struct fixture_paths *f)
{
	static struct img m;
	uint64_t hot = BASE + f->hot + 4, mn = BASE + f->main_fn + 8;
	uint64_t user[] = { hot, mn, LIBC_BASE + 0x29d90 };
	uint64_t kern[] = { KBASE + 0x200010, KBASE + 0x100020 };
	uint64_t kern2[] = { KBASE + 0x100030 };
	uint64_t kern3[] = { KBASE + 0x200040 };
	uint64_t t = T0 + 1000;

	memset(&m, 0, sizeof(m));
	img_start(&m, &hdr64);
	img_buffer(&m, 0, 1, 0x20, 0);
	process_dcstart(&m, 0, "Idle");
	process_dcstart(&m, 4, "System");
	process_dcstart(&m, PID, "prog");
	thread_dcstart(&m, PID, TID);
	thread_dcstart(&m, 4, 8);
	image_dcstart(&m, 0, KBASE, 0x2000000, "vmlinux");
	image_dcstart(&m, PID, BASE, 0x5000, prog_path);
	image_dcstart(&m, PID, LIBC_BASE, 0x200000, "/nonexistent/libc.so.6");
	sample(&m, t, kern[0], TID);					/* A */
	stack_key(&m, 0x1825, t + 1, t, PID, TID, KEY_K1);
	sample(&m, t + 10, kern[0], TID);				/* B */
	stack_key(&m, 0x1825, t + 11, t + 10, PID, TID, KEY_K1);
	sample(&m, t + 20, hot, TID);					/* C */
	stack_key(&m, 0x1826, t + 21, t + 20, PID, TID, KEY_U1);
	stack_def(&m, 0x1823, t + 22, KEY_K1, kern, 2);
	sample(&m, t + 30, kern2[0], TID);				/* D */
	stack_key(&m, 0x1825, t + 31, t + 30, PID, TID, KEY_K1);
	stack_key(&m, 0x1826, t + 32, t + 30, PID, TID, KEY_U1);
	stack_def(&m, 0x1823, t + 33, KEY_U1, user, 3);
	sample(&m, t + 40, kern3[0], 8);				/* E */
	stack_key(&m, 0x1825, t + 41, t + 40, 4, 8, KEY_K2);
	sample(&m, t + 50, hot, TID);					/* F */
	stack_key(&m, 0x1826, t + 51, t + 50, PID, TID, KEY_U9);
	stack_def(&m, 0x1824, t + 60, KEY_K1, kern2, 1);
	stack_def(&m, 0x1824, t + 61, KEY_K2, kern3, 1);
	return save_img(&m, path);
}

static void cswitch(struct img *m, uint64_t ts, uint32_t new_tid,
		    uint32_t old_tid, uint8_t state, uint8_t reason)
{
	uint8_t *p = perf_record(m, 0x0524, ts, 24);

	put_le(p, new_tid, 4);
	put_le(p + 4, old_tid, 4);
	p[12] = reason;
	p[14] = state;
}

static void ready_thread(struct img *m, uint64_t ts, uint32_t tid)
{
	uint8_t *p = perf_record(m, 0x0532, ts, 8);

	put_le(p, tid, 4);
}

#define MS	10000ull	/* in the trace's 10 MHz clock */

/*
 * Two threads of prog on cpu 0: A (TID) runs 2 ms, waits (UserRequest,
 * its stack walked as it leaves) until B readies it 3 ms later, runs 1 ms
 * later for 3 ms, then waits (Executive) 11 ms with nobody readying it
 * (its stack walked as it comes back, cached);
 * B runs 4 ms, is preempted, ready 3 ms, runs 1 ms and waits to the end.
 */
static int write_sched_trace(const char *path, const char *prog_path,
			     const struct fixture_paths *f)
{
	static struct img m;
	uint64_t user[] = { BASE + f->hot + 4, BASE + f->main_fn + 8,
			    LIBC_BASE + 0x29d90 };
	uint64_t kern[] = { KBASE + 0x200010, KBASE + 0x100020 };
	uint64_t t = T0 + 1000;

	memset(&m, 0, sizeof(m));
	img_start(&m, &hdr64);
	img_buffer(&m, 0, 1, 0x20, 0);
	process_dcstart(&m, PID, "prog");
	thread_dcstart(&m, PID, TID);
	thread_dcstart(&m, PID, TID + 1);
	image_dcstart(&m, 0, KBASE, 0x2000000, "vmlinux");
	image_dcstart(&m, PID, BASE, 0x5000, prog_path);
	image_dcstart(&m, PID, LIBC_BASE, 0x200000, "/nonexistent/libc.so.6");
	cswitch(&m, t, TID, 0, 2, 0);
	cswitch(&m, t + 2 * MS, TID + 1, TID, 5, 6);
	stack(&m, t + 2 * MS, PID, TID, user, 3);
	ready_thread(&m, t + 5 * MS, TID);
	cswitch(&m, t + 6 * MS, TID, TID + 1, 1, 32);
	cswitch(&m, t + 9 * MS, TID + 1, TID, 5, 0);
	cswitch(&m, t + 10 * MS, 0, TID + 1, 5, 13);
	cswitch(&m, t + 20 * MS, TID, 0, 2, 0);
	/*
	 * As Windows 8 walks it: the thread switched in, where it waited, its
	 * kernel part by key, its user part when it leaves the kernel.
	 */
	stack_key(&m, 0x1825, t + 20 * MS + 1, t + 20 * MS, PID, TID, KEY_K1);
	stack_key(&m, 0x1826, t + 21 * MS, t + 21 * MS, PID, TID, KEY_U1);
	stack_def(&m, 0x1824, t + 22 * MS, KEY_K1, kern, 2);
	stack_def(&m, 0x1824, t + 22 * MS + 1, KEY_U1, user + 1, 2);
	return save_img(&m, path);
}

/* The same records as a 32-bit Windows writes them (SYSTEM32, PERFINFO32). */
static uint8_t *rec32(struct img *m, uint32_t type, uint16_t hook, uint16_t hdr,
		      uint64_t ts, uint32_t payload)
{
	uint8_t *r = img_record(m, hdr + payload);

	put_le(r, 0xc0000000u | type << 16 | 2, 4);
	put_le(r + 4, hdr + payload, 2);
	put_le(r + 6, hook, 2);
	if (hdr == 0x10) {
		put_le(r + 8, ts, 8);
	} else {
		put_le(r + 8, TID, 4);
		put_le(r + 12, PID, 4);
		put_le(r + 0x10, ts, 8);
	}
	return r + hdr;
}

static const struct img_header hdr32 = {
	.bits = 32, .cpus = 1, .clock = 1, .perf_freq = 10000000, .mhz = 3000,
	.start = 132000000000000000ull, .sync = 1000000,
};

/*
 * A 32-bit trace: kernel addresses from 0x80000000.  A sample in the
 * kernel whose stack comes in a kernel part and a user part, and one in
 * user mode.
 */
static int write_trace32(const char *path)
{
	static struct img m;
	static const char *const names[] = { "ntoskrnl.exe", "prog.exe" };
	static const uint32_t bases[] = { 0x81000000, 0x00400000 }, pids[] = { 0, PID };
	static const uint32_t kern[] = { 0x81000010, 0x81000020 }, user[] = { 0x00401234, 0x00402345 };
	uint64_t t = T0 + 1000;
	uint8_t *p;

	memset(&m, 0, sizeof(m));
	img_start(&m, &hdr32);
	img_buffer(&m, 0, 1, 0x20, 0);
	for (int i = 0; i < 2; i++) {
		p = rec32(&m, 0x01, 0x1403, 0x20, T0, 44 + 2 * strlen(names[i]) + 2);
		put_le(p, bases[i], 4);
		put_le(p + 4, 0x100000, 4);
		put_le(p + 8, pids[i], 4);
		put_utf16(p + 44, names[i]);
	}
	p = rec32(&m, 0x10, 0x0f2e, 0x10, t, 12);
	put_le(p, kern[0], 4);
	put_le(p + 4, TID, 4);
	p = rec32(&m, 0x10, 0x1820, 0x10, t, 16 + 8);
	put_le(p, t, 8);
	put_le(p + 8, PID, 4);
	put_le(p + 12, TID, 4);
	put_le(p + 16, kern[0], 4);
	put_le(p + 20, kern[1], 4);
	p = rec32(&m, 0x10, 0x1820, 0x10, t, 16 + 8);
	put_le(p, t, 8);
	put_le(p + 8, PID, 4);
	put_le(p + 12, TID, 4);
	put_le(p + 16, user[0], 4);
	put_le(p + 20, user[1], 4);
	p = rec32(&m, 0x10, 0x0f2e, 0x10, t + 10, 12);
	put_le(p, user[0], 4);
	put_le(p + 4, TID, 4);
	p = rec32(&m, 0x10, 0x1820, 0x10, t + 10, 16 + 8);
	put_le(p, t + 10, 8);
	put_le(p + 8, PID, 4);
	put_le(p + 12, TID, 4);
	put_le(p + 16, user[0], 4);
	put_le(p + 20, user[1], 4);
	return save_img(&m, path);
}

FIXTURE(stacks) {
	struct fixture_paths f;
};

FIXTURE_SETUP(stacks)
{
	struct fixture_paths *f = &self->f;
	char id[256] = "";
	FILE *p;

	strcpy(f->dir, "/tmp/etw-stacks-XXXXXX");
	ASSERT_NE(NULL, mkdtemp(f->dir));
	snprintf(f->prog, sizeof(f->prog), "%s/prog", f->dir);
	snprintf(f->stripped, sizeof(f->stripped), "%s/bin/prog", f->dir);
	snprintf(f->linked, sizeof(f->linked), "%s/linked/prog", f->dir);
	snprintf(f->etl, sizeof(f->etl), "%s/t.etl", f->dir);
	snprintf(f->etl_stripped, sizeof(f->etl_stripped), "%s/s.etl", f->dir);
	snprintf(f->etl_linked, sizeof(f->etl_linked), "%s/l.etl", f->dir);
	snprintf(f->kallsyms, sizeof(f->kallsyms), "%s/kallsyms", f->dir);
	snprintf(f->debug_dir, sizeof(f->debug_dir), "%s/debug", f->dir);
	snprintf(f->etl_id_ok, sizeof(f->etl_id_ok), "%s/id-ok.etl", f->dir);
	snprintf(f->etl_id_bad, sizeof(f->etl_id_bad), "%s/id-bad.etl", f->dir);
	snprintf(f->etl_cached, sizeof(f->etl_cached), "%s/cached.etl", f->dir);
	snprintf(f->etl_sched, sizeof(f->etl_sched), "%s/sched.etl", f->dir);
	snprintf(f->etl32, sizeof(f->etl32), "%s/32.etl", f->dir);
	p = fopen(f->kallsyms, "w");
	ASSERT_NE(NULL, p);
	fputs(kallsyms_text, p);
	fclose(p);
	ASSERT_EQ(0, sh("printf '%%s' '%s' > %s/prog.c", prog_src, f->dir));
	ASSERT_EQ(0, sh("cd %s && cc -O1 -g -fno-omit-frame-pointer -Wl,--build-id "
			"-o prog prog.c", f->dir));
	ASSERT_EQ(0, sh("mkdir -p %s/bin %s/linked && strip -o %s %s",
			f->dir, f->dir, f->stripped, f->prog));
	/* A debug file under its build-id, and one found by debuglink. */
	ASSERT_EQ(0, sh("cd %s && objcopy --only-keep-debug prog prog.debug && "
			"objcopy --add-gnu-debuglink=prog.debug bin/prog linked/prog && "
			"cp prog.debug linked/", f->dir));
	snprintf(id, sizeof(id), "readelf -n %s | awk '/Build ID/ { print $3 }'",
		 f->prog);
	p = popen(id, "r");
	ASSERT_NE(NULL, p);
	ASSERT_NE(NULL, fgets(id, sizeof(id), p));
	pclose(p);
	id[strcspn(id, "\n")] = '\0';
	ASSERT_EQ(40, strlen(id));
	ASSERT_EQ(0, sh("mkdir -p %s/.build-id/%.2s && cp %s/prog.debug %s/.build-id/%.2s/%s.debug",
			f->debug_dir, id, f->dir, f->debug_dir, id, id + 2));
	f->hot = nm_symbol(f->prog, "hot_function");
	f->main_fn = nm_symbol(f->prog, "main");
	ASSERT_NE(0, f->hot);
	ASSERT_NE(0, f->main_fn);
	for (int i = 0; i < 20; i++) {
		unsigned int b;

		ASSERT_EQ(1, sscanf(id + 2 * i, "%2x", &b));
		f->build_id[i] = (uint8_t)b;
	}
	ASSERT_EQ(0, write_trace(f->etl, f->prog, f, NULL));
	ASSERT_EQ(0, write_trace(f->etl_stripped, f->stripped, f, NULL));
	ASSERT_EQ(0, write_trace(f->etl_linked, f->linked, f, NULL));
	ASSERT_EQ(0, write_trace(f->etl_id_ok, f->prog, f, f->build_id));
	f->build_id[0] ^= 0xff;
	ASSERT_EQ(0, write_trace(f->etl_id_bad, f->prog, f, f->build_id));
	ASSERT_EQ(0, write_cached_trace(f->etl_cached, f->prog, f));
	ASSERT_EQ(0, write_sched_trace(f->etl_sched, f->prog, f));
	ASSERT_EQ(0, write_trace32(f->etl32));
	f->build_id[0] ^= 0xff;
}

FIXTURE_TEARDOWN(stacks)
{
	sh("rm -rf %s", self->f.dir);
}

static bool has(const struct run *r, const char *s)
{
	return r->out && strstr(r->out, s);
}

#define EXPECT_OUT(r, s) EXPECT_TRUE(has(&(r), s)) TH_LOG("no '%s' in:\n%s", s, (r).out)
#define EXPECT_NO_OUT(r, s) EXPECT_FALSE(has(&(r), s)) TH_LOG("'%s' in:\n%s", s, (r).out)

/* Counts: 5 samples, 4 with a stack; 1 stack of no sample. */
TEST_F(stacks, counts_per_process_and_module)
{
	struct run r = run_etw("report --summary %s", self->f.etl);

	EXPECT_EQ(0, r.status);
	EXPECT_OUT(r, "CPU samples: 6 (4 with a stack, 2 without); stacks of other events: 1");
	EXPECT_OUT(r, "         5   83.3%  prog (1234)\n");
	EXPECT_OUT(r, "         1   16.7%  Idle (0)\n");
	EXPECT_OUT(r, "         4   66.7%  prog\n");
	EXPECT_OUT(r, "         1   16.7%  vmlinux\n");
	EXPECT_OUT(r, "         1   16.7%  [unknown]\n");
	free(r.out);
}

TEST_F(stacks, hot_stacks_named_with_symbols)
{
	struct run r = run_etw("report --kallsyms %s %s", self->f.kallsyms,
			       self->f.etl);
	char want[256];

	EXPECT_EQ(0, r.status);
	/* Three user samples share the hottest stack. */
	snprintf(want, sizeof(want),
		 "#1  3 samples (50.0%%)  prog (1234)\n"
		 "      hot_function+0x4\n      main+0x8\n      libc.so.6+0x29d90\n");
	EXPECT_OUT(r, want);
	/* Kernel part first, then the user part of the same sample. */
	EXPECT_OUT(r, "      schedule+0x10\n      do_syscall_64+0x20\n"
		   "      hot_function+0x4\n");
	free(r.out);
}

TEST_F(stacks, folded_for_flame_graphs)
{
	struct run r = run_etw("report --folded --kallsyms %s %s",
			       self->f.kallsyms, self->f.etl);

	EXPECT_EQ(0, r.status);
	EXPECT_OUT(r, "prog;libc.so.6+0x29d90;main;hot_function 3\n");
	EXPECT_OUT(r, "prog;libc.so.6+0x29d90;main;hot_function;do_syscall_64;schedule 1\n");
	EXPECT_OUT(r, "prog;hot_function 1\n");
	EXPECT_OUT(r, "Idle;0x0 1\n");
	free(r.out);
}

TEST_F(stacks, kernel_frames_without_kallsyms_are_module_offsets)
{
	struct run r = run_etw("report --no-kallsyms %s", self->f.etl);

	EXPECT_EQ(0, r.status);
	EXPECT_OUT(r, "      vmlinux+0x200010\n      vmlinux+0x100020\n");
	free(r.out);
}

TEST_F(stacks, stripped_program_gives_module_offsets)
{
	struct run r = run_etw("report --no-kallsyms %s", self->f.etl_stripped);
	char want[128];

	EXPECT_EQ(0, r.status);
	snprintf(want, sizeof(want), "      prog+0x%llx\n      prog+0x%llx\n",
		 (unsigned long long)self->f.hot + 4,
		 (unsigned long long)self->f.main_fn + 8);
	EXPECT_OUT(r, want);
	EXPECT_NO_OUT(r, "hot_function");
	free(r.out);
}

TEST_F(stacks, debug_file_found_by_build_id)
{
	struct run r = run_etw("report --no-kallsyms --debug-dir %s %s",
			       self->f.debug_dir, self->f.etl_stripped);

	EXPECT_EQ(0, r.status);
	EXPECT_OUT(r, "      hot_function+0x4\n      main+0x8\n");
	free(r.out);
}

TEST_F(stacks, debug_file_found_by_debuglink)
{
	struct run r = run_etw("report --no-kallsyms %s", self->f.etl_linked);

	EXPECT_EQ(0, r.status);
	EXPECT_OUT(r, "      hot_function+0x4\n      main+0x8\n");
	free(r.out);
}

/* The trace's DbgID_RSDS build-id: the same file is named, another not. */
TEST_F(stacks, build_id_of_the_trace_checked)
{
	struct run r = run_etw("report --no-kallsyms %s", self->f.etl_id_ok);
	char want[128];

	EXPECT_EQ(0, r.status);
	EXPECT_OUT(r, "      hot_function+0x4\n      main+0x8\n");
	EXPECT_NO_OUT(r, "another build-id");
	free(r.out);
	r = run_etw("report --no-kallsyms %s", self->f.etl_id_bad);
	EXPECT_EQ(0, r.status);
	snprintf(want, sizeof(want), "      prog+0x%llx\n",
		 (unsigned long long)self->f.hot + 4);
	EXPECT_OUT(r, want);
	EXPECT_OUT(r, "not the file the trace saw (another build-id)");
	EXPECT_NO_OUT(r, "hot_function");
	free(r.out);
}

TEST_F(stacks, dump_names_frames_and_counts_samples)
{
	struct run r = run_etw("dump %s", self->f.etl);

	EXPECT_EQ(0, r.status);
	EXPECT_OUT(r, "Frames: hot_function+0x4 <- main+0x8 <- libc.so.6+0x29d90\n");
	free(r.out);
	r = run_etw("dump --summary %s", self->f.etl);
	EXPECT_EQ(0, r.status);
	EXPECT_OUT(r, "CPU samples per process:");
	EXPECT_OUT(r, "         5   83.3%  prog (1234)\n");
	free(r.out);
}

/*
 * Exclusive and inclusive per function.  When: the records span raw
 * 1000000 (the header) to T0 + 1050, 32 buckets of 31283 (100 ns); every
 * sample is in the last one, each 1 ms (the default interval) of it:
 * 5 samples 160 % ('F'), 4 128 % ('C'), 1 32 % ('3').
 */
TEST_F(stacks, functions_exclusive_and_inclusive)
{
	struct run r = run_etw("report --kallsyms %s %s", self->f.kallsyms,
			       self->f.etl);

	EXPECT_EQ(0, r.status);
	EXPECT_OUT(r, "          4   66.7%           5   83.3%  "
		   "_______________________________F  hot_function\n");
	EXPECT_OUT(r, "          0    0.0%           4   66.7%  "
		   "_______________________________C  main\n");
	EXPECT_OUT(r, "          1   16.7%           1   16.7%  "
		   "_______________________________3  schedule\n");
	EXPECT_OUT(r, "          5   83.3%           4  "
		   "_______________________________F  prog (1234)\n");
	EXPECT_OUT(r, "          4   66.7%           5   83.3%  "
		   "_______________________________F  prog\n");
	free(r.out);
}

/* Each sample once at the outermost call: both sides sum to 5. */
TEST_F(stacks, butterfly_callers_and_callees)
{
	struct run r = run_etw("report --kallsyms %s --butterfly hot_func %s",
			       self->f.kallsyms, self->f.etl);

	EXPECT_EQ(0, r.status);
	EXPECT_OUT(r, "Callers of hot_function:\n"
		   "     samples   share  caller\n"
		   "           4   66.7%  main\n"
		   "           1   16.7%  [root]\n"
		   "\n           5   83.3%  hot_function (inclusive; exclusive 4, 66.7%)\n\n"
		   "Callees of hot_function:\n"
		   "     samples   share  callee\n"
		   "           4   66.7%  [self]\n"
		   "           1   16.7%  do_syscall_64\n");
	free(r.out);
	r = run_etw("report --butterfly no_such_function %s", self->f.etl);
	EXPECT_EQ(1, r.status);
	EXPECT_OUT(r, "no function 'no_such_function'");
	free(r.out);
	r = run_etw("report --kallsyms %s --butterfly _ %s", self->f.kallsyms,
		    self->f.etl);
	EXPECT_EQ(1, r.status);
	EXPECT_OUT(r, "more than one function '_'");
	free(r.out);
}

TEST_F(stacks, cached_stacks_joined)
{
	struct run r = run_etw("report --folded --kallsyms %s %s", self->f.kallsyms,
			       self->f.etl_cached);

	EXPECT_EQ(0, r.status);
	/* A and B: K1's first frames under U1's, C: U1's. */
	EXPECT_OUT(r, "prog;libc.so.6+0x29d90;main;hot_function;do_syscall_64;schedule 2\n");
	EXPECT_OUT(r, "prog;libc.so.6+0x29d90;main;hot_function 1\n");
	/* D: K1 again, its frames from the rundown. */
	EXPECT_OUT(r, "prog;libc.so.6+0x29d90;main;hot_function;do_syscall_64 1\n");
	/* E: System has no user stack to wait for. */
	EXPECT_OUT(r, "System;schedule 1\n");
	/* F: its key never given, it is its sampled address alone. */
	EXPECT_OUT(r, "prog;hot_function 1\n");
	free(r.out);
	r = run_etw("report --summary %s", self->f.etl_cached);
	EXPECT_EQ(0, r.status);
	EXPECT_OUT(r, "CPU samples: 6 (5 with a stack, 1 without); stacks of other events: 0\n");
	free(r.out);
}

/* Damaged records of stacks and keys: a clear result, never a crash. */
TEST_F(stacks, damaged_traces_read_safely)
{
	char path[160];
	uint8_t *buf;
	long n;
	FILE *f = fopen(self->f.etl_cached, "rb");

	ASSERT_NE(NULL, f);
	ASSERT_EQ(0, fseek(f, 0, SEEK_END));
	n = ftell(f);
	ASSERT_LE(0x2000, n);
	buf = malloc(n);
	ASSERT_NE(NULL, buf);
	rewind(f);
	ASSERT_EQ((size_t)n, fread(buf, 1, n, f));
	fclose(f);
	snprintf(path, sizeof(path), "%s/damaged.etl", self->f.dir);
	for (int i = 0; i < 60; i++) {
		/* The data buffer's records, from its header on. */
		long at = 0x1000 + (i * 7919L) % 0x800;
		uint8_t was = buf[at];
		struct run r;

		buf[at] = (uint8_t)(i * 37 + 1);
		f = fopen(path, "wb");
		ASSERT_NE(NULL, f);
		ASSERT_EQ((size_t)n, fwrite(buf, 1, n, f));
		fclose(f);
		buf[at] = was;
		r = run_etw("report --no-kallsyms %s", path);
		EXPECT_TRUE(r.status == 0 || r.status == 1) TH_LOG("byte %ld: %s", at, r.out);
		free(r.out);
		r = run_etw("report --no-kallsyms --sched %s", path);
		EXPECT_TRUE(r.status == 0 || r.status == 1) TH_LOG("byte %ld: %s", at, r.out);
		free(r.out);
	}
	free(buf);
}

/* The kernel part (ending at 0x81000020) waits for the user part. */
TEST_F(stacks, thirty_two_bit_trace)
{
	struct run r = run_etw("report --folded %s", self->f.etl32);

	EXPECT_EQ(0, r.status);
	EXPECT_OUT(r, "Process(1234);prog.exe+0x2345;prog.exe+0x1234;"
		   "ntoskrnl.exe+0x20;ntoskrnl.exe+0x10 1\n");
	EXPECT_OUT(r, "Process(1234);prog.exe+0x2345;prog.exe+0x1234 1\n");
	free(r.out);
}

/* Waits start at 2 and 9 ms after raw T0 + 1000, 0.1021 s and 0.1091 s
 * after the header's raw 1000000. */
TEST_F(stacks, sched_threads_and_longest_waits)
{
	struct run r = run_etw("report --sched --kallsyms %s %s", self->f.kallsyms,
			       self->f.etl_sched);

	EXPECT_EQ(0, r.status);
	EXPECT_OUT(r, "Context switches: 6\n\nThreads (ms):\n"
		   "       running         ready       waiting  switches  longest wait  thread\n"
		   "         5.000         1.000        14.000         3        11.000  prog (1234) tid 1235\n"
		   "         5.000         3.000         0.000         2         0.000  prog (1234) tid 1236\n");
	EXPECT_OUT(r, "\n  #1  11.000  prog (1234) tid 1235  at 0.109100  Executive\n"
		   "      readied by no thread of the trace\n"
		   "      schedule+0x10\n      do_syscall_64+0x20\n"
		   "      main+0x8\n      libc.so.6+0x29d90\n"
		   "\n  #2  3.000  prog (1234) tid 1235  at 0.102100  UserRequest\n"
		   "      readied by prog (1234) tid 1236; ran 1.000 later\n"
		   "      hot_function+0x4\n      main+0x8\n      libc.so.6+0x29d90\n");
	free(r.out);
}

/*
 * A PerfView recording (testdata/etl, Windows 8, stack caching): every
 * one of the profiled process's 5,129 samples has a stack (243 of all
 * samples had one before cached stacks were read); .NET code is named
 * from the runtime's method events; PerfView.exe is a 32-bit process.
 */
#define PERFVIEW_ETL "testdata/etl/perfview-net.4.5.2.x64.etl"

static bool process_row(const char *out, const char *process,
			unsigned long *samples, unsigned long *with_stack)
{
	const char *p = strstr(out, process);
	const char *line = p;

	if (!p)
		return false;
	while (line > out && line[-1] != '\n')
		line--;
	return sscanf(line, " %lu %*s %lu", samples, with_stack) == 2;
}

TEST(windows_cached_stacks)
{
	struct run r = run_etw("report --top 30 %s", PERFVIEW_ETL);
	unsigned long n = 0, with = 0;

	EXPECT_EQ(0, r.status);
	EXPECT_OUT(r, "CPU samples: 79528 (");
	EXPECT_TRUE(process_row(r.out, "  Test.x64.exe (3676)\n", &n, &with));
	EXPECT_EQ(5129, n);
	EXPECT_EQ(5129, with);
	/* A 32-bit process of the 64-bit trace: every sample has a stack. */
	EXPECT_TRUE(process_row(r.out, "  PerfView.exe (3988)\n", &n, &with));
	EXPECT_NE(0, n);
	EXPECT_EQ(n, with);
	/* JIT-compiled and NGEN code, named as PerfView names them. */
	EXPECT_OUT(r, "      Test.x64!Test.Program.Main(class System.String[])+0xeb\n");
	EXPECT_OUT(r, "      mscorlib!System.DateTime.get_Now()+0x5e\n");
	EXPECT_OUT(r, "  Test.x64\n");
	free(r.out);
	/* 32-bit frames under WoW64's 64-bit ones, from SysWOW64's images. */
	r = run_etw("report --folded %s", PERFVIEW_ETL);
	EXPECT_EQ(0, r.status);
	EXPECT_OUT(r, ";wow64cpu.dll+0x25a7;wow64.dll+0xc363;");
	free(r.out);
}

TEST_F(stacks, bad_arguments)
{
	struct run r = run_etw("report --top 0 %s", self->f.etl);

	EXPECT_EQ(2, r.status);
	EXPECT_OUT(r, "--top needs a number");
	free(r.out);
	r = run_etw("report %s/missing.etl", self->f.dir);
	EXPECT_EQ(1, r.status);
	EXPECT_OUT(r, "missing.etl");
	free(r.out);
	r = run_etw("report --folded --summary %s", self->f.etl);
	EXPECT_EQ(2, r.status);
	free(r.out);
	r = run_etw("report --folded --butterfly main %s", self->f.etl);
	EXPECT_EQ(2, r.status);
	EXPECT_OUT(r, "do not go together");
	free(r.out);
}

TEST_HARNESS_MAIN
