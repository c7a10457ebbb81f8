/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A writer of synthetic kernel-logger traces of any size, for tests and
 * benchmarks: buffer 0 as etl_test.h makes it, then 64 KiB buffers of one
 * processor each, written to the file as they fill.  Records in Windows'
 * layouts (Documentation/kernel-logger.rst, stacks.rst): Process, Thread
 * and Image rundown, Thread/SetName, SampledProfile, StackWalk, CSwitch,
 * ReadyThread, DiskIo, EVENT_HEADER user events with an activity id, and
 * our own StackCopy.
 */
#ifndef KTRACE_H
#define KTRACE_H

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "etl_test.h"

#define KT_BUFFER_SIZE	0x10000

struct ktrace {
	FILE *out;
	struct img hdr;			/* buffer 0 */
	uint8_t buf[KT_BUFFER_SIZE];
	uint32_t used;			/* bytes of buf; 0: no open buffer */
	uint16_t cpu;
	int64_t seq;
	uint32_t buffers;
	int err;
};

/* A 64-bit QPC trace of 10 MHz: one tick is 100 ns. */
static inline int kt_open(struct ktrace *kt, const char *path, uint32_t cpus)
{
	struct img_header h = {
		.bits = 64, .cpus = cpus, .clock = 1, .perf_freq = 10000000,
		.mhz = 3000, .start = 133000000000000000ull, .sync = 1000000,
	};

	memset(kt, 0, sizeof(*kt));
	kt->out = fopen(path, "wb");
	if (!kt->out)
		return -errno;
	kt->hdr.buffer_size = KT_BUFFER_SIZE;
	img_start(&kt->hdr, &h);
	kt->buffers = 1;
	kt->seq = 1;
	if (fwrite(kt->hdr.p, 1, KT_BUFFER_SIZE, kt->out) != KT_BUFFER_SIZE)
		kt->err = -EIO;
	return kt->err;
}

static inline void kt_flush(struct ktrace *kt)
{
	if (!kt->used)
		return;
	memset(kt->buf + kt->used, 0xff, KT_BUFFER_SIZE - kt->used);
	put_le(kt->buf + 0x04, kt->used, 4);
	put_le(kt->buf + 0x08, kt->used, 4);
	put_le(kt->buf + 0x30, kt->used, 4);
	if (fwrite(kt->buf, 1, KT_BUFFER_SIZE, kt->out) != KT_BUFFER_SIZE)
		kt->err = -EIO;
	kt->buffers++;
	kt->used = 0;
}

/* Records that follow go to @cpu's buffers. */
static inline void kt_cpu(struct ktrace *kt, uint16_t cpu)
{
	if (kt->used && kt->cpu == cpu)
		return;
	kt_flush(kt);
	kt->cpu = cpu;
}

static inline uint8_t *kt_record(struct ktrace *kt, uint32_t size)
{
	uint8_t *r;

	size = (size + 7) & ~7u;
	if (kt->used && kt->used + size > KT_BUFFER_SIZE)
		kt_flush(kt);
	if (!kt->used) {
		memset(kt->buf, 0, 0x48);
		put_le(kt->buf + 0x00, KT_BUFFER_SIZE, 4);
		put_le(kt->buf + 0x18, (uint64_t)kt->seq++, 8);
		put_le(kt->buf + 0x28, kt->cpu, 2);
		put_le(kt->buf + 0x2c, 3, 4);
		put_le(kt->buf + 0x34, 0x20, 2);
		kt->used = 0x48;
	}
	r = kt->buf + kt->used;
	memset(r, 0, size);
	kt->used += size;
	return r;
}

static inline int kt_close(struct ktrace *kt)
{
	uint8_t n[4];

	kt_flush(kt);
	put_le(n, kt->buffers, 4);
	if (fseek(kt->out, 0x48 + 0x20 + 0x24, SEEK_SET) || fwrite(n, 1, 4, kt->out) != 4)
		kt->err = -EIO;
	if (fclose(kt->out))
		kt->err = -errno;
	return kt->err;
}

/* SYSTEM64 record of @hook; returns the payload. */
static inline uint8_t *kt_sys(struct ktrace *kt, uint16_t hook, uint16_t version,
			      uint32_t pid, uint32_t tid, uint64_t ts, uint32_t payload)
{
	uint8_t *r = kt_record(kt, 0x20 + payload);

	put_le(r, 0xc0020000u | version, 4);
	put_le(r + 4, 0x20 + payload, 2);
	put_le(r + 6, hook, 2);
	put_le(r + 8, tid, 4);
	put_le(r + 12, pid, 4);
	put_le(r + 0x10, ts, 8);
	return r + 0x20;
}

/* PERFINFO64 record. */
static inline uint8_t *kt_perf(struct ktrace *kt, uint16_t hook, uint64_t ts,
			       uint32_t payload)
{
	uint8_t *r = kt_record(kt, 0x10 + payload);

	put_le(r, 0xc0110002, 4);
	put_le(r + 4, 0x10 + payload, 2);
	put_le(r + 6, hook, 2);
	put_le(r + 8, ts, 8);
	return r + 0x10;
}

static inline void kt_utf16(uint8_t *p, const char *s)
{
	for (; *s; s++, p += 2)
		put_le(p, (uint8_t)*s, 2);
}

static inline void kt_process(struct ktrace *kt, uint64_t ts, uint32_t pid,
			      const char *name)
{
	/* TOKEN_USER (16) + S-1-5-18 (12), name, 3 UTF-16 strings. */
	size_t n = 36 + 28 + strlen(name) + 1 + 2 + 2 + 2;
	uint8_t *p = kt_sys(kt, 0x0303, 4, 0, 0, ts, n);

	put_le(p + 8, pid, 4);
	put_le(p + 12, 1, 4);
	put_le(p + 36, 0xffff800012345678ull, 8);
	p[52] = 1;
	p[53] = 1;
	p[59] = 5;
	p[60] = 18;
	memcpy(p + 64, name, strlen(name) + 1);
}

static inline void kt_thread(struct ktrace *kt, uint64_t ts, uint32_t pid,
			     uint32_t tid, const char *name)
{
	uint8_t *p = kt_sys(kt, 0x0503, 3, pid, tid, ts, 72);

	put_le(p, pid, 4);
	put_le(p + 4, tid, 4);
	if (name) {
		p = kt_sys(kt, 0x0548, 2, pid, tid, ts, 8 + 2 * strlen(name) + 2);
		put_le(p, pid, 4);
		put_le(p + 4, tid, 4);
		kt_utf16(p + 8, name);
	}
}

static inline void kt_image(struct ktrace *kt, uint64_t ts, uint32_t pid,
			    uint64_t base, uint64_t size, const char *path)
{
	uint8_t *p = kt_sys(kt, 0x1403, 3, pid, 0, ts, 56 + 2 * strlen(path) + 2);

	put_le(p, base, 8);
	put_le(p + 8, size, 8);
	put_le(p + 16, pid, 4);
	kt_utf16(p + 56, path);
}

static inline void kt_sample(struct ktrace *kt, uint64_t ts, uint64_t ip, uint32_t tid)
{
	uint8_t *p = kt_perf(kt, 0x0f2e, ts, 16);

	put_le(p, ip, 8);
	put_le(p + 8, tid, 4);
	put_le(p + 12, 1, 2);
}

/* A StackWalk, frames innermost first. */
static inline void kt_stack(struct ktrace *kt, uint64_t ts, uint32_t pid, uint32_t tid,
			    const uint64_t *frames, unsigned int n)
{
	uint8_t *p = kt_perf(kt, 0x1820, ts, 16 + 8 * n);

	put_le(p, ts, 8);
	put_le(p + 8, pid, 4);
	put_le(p + 12, tid, 4);
	for (unsigned int i = 0; i < n; i++)
		put_le(p + 16 + 8 * i, frames[i], 8);
}

/*
 * StackCopy (etw for Linux's own class, Documentation/stacks.rst): x86-64's
 * 17 DWARF registers and @size bytes of user stack from regs[7] up.
 */
static inline void kt_stack_copy(struct ktrace *kt, uint64_t ts, uint32_t pid,
				 uint32_t tid, const uint64_t *regs,
				 const uint8_t *stack, uint32_t size)
{
	static const uint8_t guid[16] = {
		0x35, 0xcc, 0x19, 0x41, 0x20, 0x32, 0xa2, 0x4d,
		0x9f, 0x91, 0xa7, 0x32, 0x77, 0x05, 0x17, 0xc4,
	};
	uint32_t len = 0x30 + 160 + size;
	uint8_t *r = kt_record(kt, len), *p = r + 0x30;

	/* EVENT_TRACE_HEADER: Size, HeaderType 0x14, MarkerFlags, Type 32. */
	put_le(r, len, 2);
	r[2] = 0x14;
	r[3] = 0xc0;
	r[4] = 32;
	put_le(r + 8, tid, 4);
	put_le(r + 12, pid, 4);
	put_le(r + 16, ts, 8);
	memcpy(r + 24, guid, 16);
	put_le(p, ts, 8);
	put_le(p + 8, pid, 4);
	put_le(p + 12, tid, 4);
	put_le(p + 16, 1, 2);
	put_le(p + 18, 17, 2);
	put_le(p + 20, size, 4);
	for (unsigned int i = 0; i < 17; i++)
		put_le(p + 24 + 8 * i, regs[i], 8);
	memcpy(p + 160, stack, size);
}

/* CSwitch: @old_state 5 (Waiting) or 1 (Ready), with @reason. */
static inline void kt_cswitch(struct ktrace *kt, uint64_t ts, uint32_t new_tid,
			      uint32_t old_tid, uint8_t old_state, uint8_t reason)
{
	uint8_t *p = kt_perf(kt, 0x0524, ts, 24);

	put_le(p, new_tid, 4);
	put_le(p + 4, old_tid, 4);
	p[8] = 8;
	p[9] = 8;
	p[12] = reason;
	p[13] = 1;
	p[14] = old_state;
}

static inline void kt_ready(struct ktrace *kt, uint64_t ts, uint32_t tid)
{
	uint8_t *p = kt_perf(kt, 0x0532, ts, 8);

	put_le(p, tid, 4);
	p[4] = 1;
	p[5] = 1;
}

/* DiskIo Read (0x010A) or Write (0x010B) completion, version 3. */
static inline void kt_disk(struct ktrace *kt, uint16_t hook, uint64_t ts, uint32_t disk,
			   uint32_t bytes, uint64_t offset, uint64_t irp,
			   uint64_t response, uint32_t tid)
{
	uint8_t *r = kt_record(kt, 0x10 + 52);

	put_le(r, 0xc0110003, 4);
	put_le(r + 4, 0x10 + 52, 2);
	put_le(r + 6, hook, 2);
	put_le(r + 8, ts, 8);
	r += 0x10;
	put_le(r, disk, 4);
	put_le(r + 8, bytes, 4);
	put_le(r + 16, offset, 8);
	put_le(r + 32, irp, 8);
	put_le(r + 40, response, 8);
	put_le(r + 48, tid, 4);
}

/* An EVENT_HEADER64 event of @provider with @opcode and activity @act. */
static inline void kt_event(struct ktrace *kt, uint64_t ts, uint32_t pid, uint32_t tid,
			    const uint8_t provider[16], uint16_t id, uint8_t opcode,
			    const uint8_t act[16], const void *data, uint16_t size)
{
	uint8_t *r = kt_record(kt, 0x50 + size);

	put_le(r, 0x50 + size, 2);
	put_le(r + 2, 0xc013, 2);
	put_le(r + 8, tid, 4);
	put_le(r + 12, pid, 4);
	put_le(r + 0x10, ts, 8);
	memcpy(r + 0x18, provider, 16);
	put_le(r + 0x28, id, 2);
	r[0x2d] = opcode;
	if (act)
		memcpy(r + 0x40, act, 16);
	memcpy(r + 0x50, data, size);
}

#endif /* KTRACE_H */
