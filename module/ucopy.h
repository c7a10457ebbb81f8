/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Short copies from user memory, word by word, for the write path.
 *
 * unsafe_get_user() is five instructions a word on Debian's kernels: they
 * are built with gcc 12, for which the kernel disables "asm goto" with
 * outputs, so each load goes through a register, an error variable and a
 * test.  Here each word is a load and a store in one "asm goto" without
 * outputs, its fault an exception-table entry that jumps to the caller's
 * error label: the loads the kernel's own copy makes below 64 bytes
 * (rep_movs_alternative's word loop), without its call, and without the
 * start-up of a "rep movsb", which costs more than the copy itself for a
 * few words on most CPUs.
 *
 * The caller opens the user access window (user_access_begin(), which
 * checks the range and fences speculation) and closes it, on the error
 * path too; for a copy made with preemption disabled it also disables
 * page faults, so a page that is not resident is a fault, not a sleep.
 */
#ifndef _ETW_UCOPY_H
#define _ETW_UCOPY_H

#include <linux/types.h>
#include <linux/uaccess.h>
#include <asm/asm.h>
#include <asm/extable_fixup_types.h>

/*
 * _ASM_EXTABLE_UA(from, %l[fault]) spelled out: a fault at the local
 * label @from is a user access fault that resumes at the asm's "fault"
 * label (the kernel's own macro takes that label outside a string, which
 * checkpatch reads as a modulo).
 */
#define ETW_UCOPY_EXTABLE(from)						\
	" .pushsection \"__ex_table\",\"a\"\n"				\
	" .balign 4\n"							\
	" .long (" #from ") - .\n"					\
	" .long (%l[fault]) - .\n"					\
	" .long " __stringify(EX_TYPE_UACCESS) "\n"			\
	" .popsection\n"

/*
 * The word at @off (a constant) of user memory, all ones if the load
 * faulted: one instruction, where unsafe_get_user() is five.  The fault
 * resumes after the load with the register set (EX_TYPE_IMM_REG, as
 * get_user() without "asm goto" outputs sets its error register), so a
 * caller that reads a field of all ones as invalid needs no test of its
 * own.
 */
#define ETW_EX_TYPE_ONES	(EX_TYPE_IMM_REG | EX_DATA_IMM(-1))

static __always_inline u64 etw_uload_8(const void __user *s,
				       unsigned long off)
{
	u64 v;

	/* _ASM_EXTABLE_TYPE_REG(1b, 2b, ETW_EX_TYPE_ONES, [v]) spelled out. */
	asm volatile("1:	movq %c[off](%[src]), %[v]\n"
		     "2:\n"
		     " .pushsection \"__ex_table\",\"a\"\n"
		     " .balign 4\n"
		     " .long (1b) - .\n"
		     " .long (2b) - .\n"
		     DEFINE_EXTABLE_TYPE_REG
		     "extable_type_reg reg=%[v], type="
		     __stringify(ETW_EX_TYPE_ONES) "\n"
		     UNDEFINE_EXTABLE_TYPE_REG
		     " .popsection\n"
		     : [v] "=r" (v)
		     : [src] "r" (s), [off] "i" (off));
	return v;
}

/*
 * One load from user memory and one store each; false if the load
 * faulted.  Inlined, the caller's test of the result becomes the asm's
 * own jump to the caller's error path.
 */

/* 8 bytes at offset @off (a constant). */
static __always_inline bool etw_ucopy_8(void *d, const void __user *s,
					unsigned long off)
{
	asm goto("1:	movq %c[off](%[src]), %%rax\n"
		 "	movq %%rax, %c[off](%[dst])\n"
		 ETW_UCOPY_EXTABLE(1b)
		 : : [src] "r" (s), [dst] "r" (d), [off] "i" (off)
		 : "rax", "memory" : fault);
	return true;
fault:
	return false;
}

/*
 * 16 bytes from @soff of @s to @doff of @d (constants): two words through
 * two registers.
 */
static __always_inline bool etw_ucopy_16(void *d, unsigned long doff,
					 const void __user *s,
					 unsigned long soff)
{
	asm goto("1:	movq %c[soff](%[src]), %%rax\n"
		 "2:	movq %c[soff]+8(%[src]), %%rdx\n"
		 "	movq %%rax, %c[doff](%[dst])\n"
		 "	movq %%rdx, %c[doff]+8(%[dst])\n"
		 ETW_UCOPY_EXTABLE(1b)
		 ETW_UCOPY_EXTABLE(2b)
		 : : [src] "r" (s), [dst] "r" (d), [soff] "i" (soff),
		   [doff] "i" (doff)
		 : "rax", "rdx", "memory" : fault);
	return true;
fault:
	return false;
}

/* 32 bytes: four words through two registers. */
static __always_inline bool etw_ucopy_32(void *d, const void __user *s)
{
	asm goto("1:	movq 0(%[src]), %%rax\n"
		 "2:	movq 8(%[src]), %%rdx\n"
		 "	movq %%rax, 0(%[dst])\n"
		 "	movq %%rdx, 8(%[dst])\n"
		 "3:	movq 16(%[src]), %%rax\n"
		 "4:	movq 24(%[src]), %%rdx\n"
		 "	movq %%rax, 16(%[dst])\n"
		 "	movq %%rdx, 24(%[dst])\n"
		 ETW_UCOPY_EXTABLE(1b)
		 ETW_UCOPY_EXTABLE(2b)
		 ETW_UCOPY_EXTABLE(3b)
		 ETW_UCOPY_EXTABLE(4b)
		 : : [src] "r" (s), [dst] "r" (d)
		 : "rax", "rdx", "memory" : fault);
	return true;
fault:
	return false;
}

/*
 * 4, 2 and 1 byte(s), for the tail of a copy under 8 bytes: etw_ucopy_4(),
 * etw_ucopy_2() and etw_ucopy_1(), one load and one store of that width.
 */
#define ETW_UCOPY_TAIL(n, load, store)					\
static __always_inline bool etw_ucopy_##n(void *d, const void __user *s) \
{									\
	asm goto("1:	" load "\n"					\
		 "	" store "\n"					\
		 ETW_UCOPY_EXTABLE(1b)					\
		 : : [src] "r" (s), [dst] "r" (d)			\
		 : "rax", "memory" : fault);				\
	return true;							\
fault:									\
	return false;							\
}

ETW_UCOPY_TAIL(4, "movl (%[src]), %%eax", "movl %%eax, (%[dst])")
ETW_UCOPY_TAIL(2, "movw (%[src]), %%ax", "movw %%ax, (%[dst])")
ETW_UCOPY_TAIL(1, "movb (%[src]), %%al", "movb %%al, (%[dst])")

/*
 * @len >= 8 bytes: "rep movsq" of the whole words, then the last word,
 * ending at the last byte (it may copy again bytes the string did: the
 * same ones), so no branch on the tail.  A fault in either is the
 * caller's error path.
 */
static __always_inline bool etw_ucopy_rep(void *d, const void __user *s,
					  u32 len)
{
	asm goto("	movq %[dst], %%rdi\n"
		 "	movq %[src], %%rsi\n"
		 "	movl %[words], %%ecx\n"
		 "1:	rep movsq\n"
		 "2:	movq (%%rsi,%[tail]), %%rax\n"
		 "	movq %%rax, (%%rdi,%[tail])\n"
		 ETW_UCOPY_EXTABLE(1b)
		 ETW_UCOPY_EXTABLE(2b)
		 : : [src] "r" (s), [dst] "r" (d), [words] "r" (len / 8),
		   [tail] "r" ((long)(len % 8) - 8)
		 : "rax", "rcx", "rsi", "rdi", "memory" : fault);
	return true;
fault:
	return false;
}

/**
 * etw_ucopy_upto32() - copy a short block from user memory, in a user
 * access window
 * @d: kernel destination
 * @s: user source, inside the range the window's check accepted
 * @len: bytes, at most 32
 *
 * Two copies of the widest size that fits, one from each end (they may
 * overlap: the bytes are the same), as memcpy() makes short copies: a
 * few compares and up to four loads, where etw_ucopy()'s loops are for
 * longer blocks.
 *
 * Return: true, or false if a load faulted (@d partly written).
 */
static __always_inline bool etw_ucopy_upto32(u8 *d, const u8 __user *s,
					     u32 len)
{
	if (len >= 16)
		return etw_ucopy_16(d, 0, s, 0) &&
		       etw_ucopy_16(d + len - 16, 0, s + len - 16, 0);
	if (len >= 8)
		return etw_ucopy_8(d, s, 0) &&
		       etw_ucopy_8(d + len - 8, s + len - 8, 0);
	if (len >= 4)
		return etw_ucopy_4(d, s) && etw_ucopy_4(d + len - 4, s + len - 4);
	if (len >= 2)
		return etw_ucopy_2(d, s) && etw_ucopy_2(d + len - 2, s + len - 2);
	return !len || etw_ucopy_1(d, s);
}

/*
 * Copies from this size up are one "rep movsq" (etw_ucopy_rep()), as the
 * kernel's own copy makes them where strings are not fast
 * (rep_movs_alternative); below, straight-line words.
 */
#define ETW_UCOPY_REP_MIN	64

/**
 * etw_ucopy() - copy @len bytes from user memory, in a user access window
 * @dst: kernel destination
 * @src: user source, inside the range user_access_begin() accepted
 * @len: bytes
 *
 * From %ETW_UCOPY_REP_MIN bytes one "rep movsq"; below, blocks of 32
 * bytes, then words; the last word of a copy of 8 bytes or more ends at
 * the last byte and may overlap the one before it (the bytes are the
 * same), so no byte loop.  Below 8 bytes: 4, 2, 1.
 *
 * Return: 0, or -EFAULT if a load faulted (@dst partly written).
 */
static __always_inline int etw_ucopy(void *dst, const void __user *src,
				     u32 len)
{
	const u8 __user *s = src;
	u8 *d = dst;

	if (len >= ETW_UCOPY_REP_MIN)
		return etw_ucopy_rep(d, s, len) ? 0 : -EFAULT;
	if (len >= 8) {
		for (; len >= 32; len -= 32, s += 32, d += 32)
			if (!etw_ucopy_32(d, s))
				return -EFAULT;
		for (; len > 8; len -= 8, s += 8, d += 8)
			if (!etw_ucopy_8(d, s, 0))
				return -EFAULT;
		/* 0 to 8 bytes left: the last word, ending at the end. */
		if (len && !etw_ucopy_8(d + len - 8, s + len - 8, 0))
			return -EFAULT;
		return 0;
	}
	if (len & 4) {
		if (!etw_ucopy_4(d, s))
			return -EFAULT;
		s += 4;
		d += 4;
	}
	if (len & 2) {
		if (!etw_ucopy_2(d, s))
			return -EFAULT;
		s += 2;
		d += 2;
	}
	if ((len & 1) && !etw_ucopy_1(d, s))
		return -EFAULT;
	return 0;
}

/*
 * etw_ucopy() in a user access window of its own, for a caller with page
 * faults disabled: 0, or -EFAULT if @src is not user memory or a load
 * faulted.
 */
static __always_inline int etw_ucopy_window(void *dst, const void __user *src,
					    u32 len)
{
	int ret;

	if (!user_access_begin(src, len))
		return -EFAULT;
	ret = etw_ucopy(dst, src, len);
	user_access_end();
	return ret;
}

#endif /* _ETW_UCOPY_H */
