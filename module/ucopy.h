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

/**
 * etw_ucopy() - copy @len bytes from user memory, in a user access window
 * @dst: kernel destination
 * @src: user source, inside the range user_access_begin() accepted
 * @len: bytes
 *
 * Blocks of 32 bytes, then words; the last word of a copy of 8 bytes or
 * more ends at the last byte and may overlap the one before it (the bytes
 * are the same), so no byte loop.  Below 8 bytes: 4, 2, 1.
 *
 * Return: 0, or -EFAULT if a load faulted (@dst partly written).
 */
static __always_inline int etw_ucopy(void *dst, const void __user *src,
				     u32 len)
{
	const u8 __user *s = src;
	u8 *d = dst;

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

#endif /* _ETW_UCOPY_H */
