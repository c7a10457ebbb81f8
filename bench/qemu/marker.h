/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The instructions that open and close the window the instruction
 * profiler (bench/qemu/insn-profile.c) counts in: a guest program runs
 * BENCH_MARK_START before the code it wants profiled and BENCH_MARK_STOP
 * after it.  Each is a seven-byte no-op, "nopl disp32(%rax)", whose
 * displacement spells "ETW+" or "ETW-": compilers pad with displacement 0,
 * so no other code has these bytes, and the plugin recognises them when it
 * translates them.  Outside the profiler they cost one instruction.
 */
#ifndef ETW_BENCH_QEMU_MARKER_H
#define ETW_BENCH_QEMU_MARKER_H

/* The opcode and ModRM byte of "nopl disp32(%rax)", then the displacement. */
#define BENCH_MARK_OPCODE	{ 0x0f, 0x1f, 0x80 }
#define BENCH_MARK_LEN		7
#define BENCH_MARK_START_DISP	0x2b575445	/* "ETW+" */
#define BENCH_MARK_STOP_DISP	0x2d575445	/* "ETW-" */

#define BENCH_MARK_STR_(x)	#x
#define BENCH_MARK_STR(x)	BENCH_MARK_STR_(x)
#define BENCH_MARK(disp)						\
	__asm__ __volatile__("nopl " BENCH_MARK_STR(disp) "(%%rax)" ::: "memory")
#define BENCH_MARK_START()	BENCH_MARK(BENCH_MARK_START_DISP)
#define BENCH_MARK_STOP()	BENCH_MARK(BENCH_MARK_STOP_DISP)

#endif /* ETW_BENCH_QEMU_MARKER_H */
