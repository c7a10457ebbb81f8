/* SPDX-License-Identifier: GPL-2.0 */
/* Text for kernel records (klog/text.c). */
#ifndef _ETW_KLOG_TEXT_H
#define _ETW_KLOG_TEXT_H

#include <linux/types.h>

u32 klog_utf16(u8 *dst, u32 room, const char *src, u32 len);
u32 klog_ansi(u8 *dst, u32 room, const char *src);

#endif /* _ETW_KLOG_TEXT_H */
