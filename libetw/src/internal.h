/* SPDX-License-Identifier: MIT */
#ifndef LIBETW_INTERNAL_H
#define LIBETW_INTERNAL_H

#include "libetw.h"

/* Marks a function exported from libetw.so (the rest is hidden). */
#define ETW_EXPORT __attribute__((visibility("default")))

/* ioctl() returning -errno. */
int etw_ioctl(int fd, unsigned long cmd, void *arg);

/* Which API failed: the same errno can mean different Win32 codes. */
enum etw_err_ctx {
	ETW_ERR_CONTROL,	/* StartTrace, ControlTrace, EnableTrace* */
	ETW_ERR_WRITE,		/* EventWrite* */
};

/* A negative errno from the module as the Win32 error Windows returns. */
unsigned int etw_win32_error(int err, enum etw_err_ctx ctx);

#endif /* LIBETW_INTERNAL_H */
