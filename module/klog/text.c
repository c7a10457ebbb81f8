// SPDX-License-Identifier: GPL-2.0
/*
 * Text for kernel records: Windows' strings are UTF-16LE, Linux's names
 * and command lines are bytes, normally UTF-8.
 */
#include <linux/kernel.h>
#include <linux/nls.h>
#include <linux/string.h>

#include "klog_text.h"

/*
 * @src (@len bytes, no NUL needed) as UTF-16LE with its NUL at @dst, at
 * most @room bytes in all (even, >= 2); the bytes written.  A byte that
 * is not UTF-8 becomes U+FFFD, as the kernel's converter would refuse the
 * whole string.
 */
u32 klog_utf16(u8 *dst, u32 room, const char *src, u32 len)
{
	u32 max = room / 2 - 1, n = 0;
	unicode_t u;
	u16 c;
	int step;

	while (len && n < max) {
		step = utf8_to_utf32((const u8 *)src, len, &u);
		if (step <= 0) {
			u = 0xfffd;
			step = 1;
		}
		if (u >= 0x10000) {
			if (n + 2 > max)
				break;
			u -= 0x10000;
			c = 0xd800 | (u >> 10);
			memcpy(dst + 2 * n++, &c, 2);
			u = 0xdc00 | (u & 0x3ff);
		}
		c = u;
		memcpy(dst + 2 * n++, &c, 2);
		src += step;
		len -= step;
	}
	memset(dst + 2 * n, 0, 2);
	return 2 * n + 2;
}

/* @src as a NUL-terminated byte string at @dst (ImageFileName is ANSI). */
u32 klog_ansi(u8 *dst, u32 room, const char *src)
{
	u32 n = strnlen(src, room - 1);

	memcpy(dst, src, n);
	dst[n] = 0;
	return n + 1;
}
