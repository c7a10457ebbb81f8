/* SPDX-License-Identifier: MIT */
#ifndef LIBETW_INTERNAL_H
#define LIBETW_INTERNAL_H

#include <errno.h>
#include <sys/syscall.h>

#include "libetw.h"

/* Marks a function exported from libetw.so (the rest is hidden). */
#define ETW_EXPORT __attribute__((visibility("default")))

/* A child of fork(): close the parent's /dev/etw file (device.c). */
void etw_device_forget(void);

/* ioctl() returning -errno. */
int etw_ioctl(int fd, unsigned long cmd, void *arg);

/*
 * etw_ioctl() inline, for the write path: on x86-64 the system call
 * instruction itself, without a call into libc and its errno.  Returns
 * the result or -errno.
 */
static inline long etw_ioctl_inline(int fd, unsigned long cmd, void *arg)
{
#if defined(__x86_64__) && !defined(__ILP32__)
	long ret;

	/* The kernel reads *arg: the "memory" clobber orders its stores. */
	__asm__ __volatile__("syscall"
			     : "=a"(ret)
			     : "0"((long)SYS_ioctl), "D"((long)fd),
			       "S"(cmd), "d"(arg)
			     : "rcx", "r11", "memory");
	/* Interrupted: etw_ioctl() retries, out of the caller's line. */
	if (__builtin_expect(ret == -EINTR, 0))
		return etw_ioctl(fd, cmd, arg);
	return ret;
#else
	return etw_ioctl(fd, cmd, arg);
#endif
}

/*
 * The fd this thread writes events through (writer_fd.c): its own writer
 * fd once it has one (a TLS load and a compare, inline), else @dev, the
 * process's /dev/etw fd, which the first call tries to open one from.
 */
extern _Thread_local int etw_thread_writer __attribute__((tls_model("initial-exec")));
int etw_writer_open(int dev);
/* A child of fork(): close the thread's writer fd, the parent's file's. */
void etw_writer_forget(void);

static inline int etw_writer_fd(int dev)
{
	int w = etw_thread_writer;

	if (__builtin_expect(w > 0, 1))
		return w - 1;
	return w < 0 || dev < 0 ? dev : etw_writer_open(dev);
}

/* Which API failed: the same errno can mean different Win32 codes. */
enum etw_err_ctx {
	ETW_ERR_CONTROL,	/* StartTrace, ControlTrace, EnableTrace* */
	ETW_ERR_WRITE,		/* EventWrite* */
};

/* A negative errno from the module as the Win32 error Windows returns. */
unsigned int etw_win32_error(int err, enum etw_err_ctx ctx);

/*
 * A registration whose notifications go to @notify(@owner, n) instead of
 * an EventRegister callback: RegisterTraceGuids (classic_register.c).
 * The handle is a REGHANDLE of provider.c; Event* functions refuse it.
 * Register returns a Win32 code; @notify runs with the dispatch lock held,
 * and for a pre-enabled provider before the function returns.
 */
struct etw_notification;
typedef void (*etw_notify_fn)(void *owner, const struct etw_notification *n);
unsigned int etw_provider_register_as(const void *guid, __u32 flags,
				      etw_notify_fn notify, void *owner,
				      __u64 *handle);
/* ERROR_INVALID_HANDLE unless @handle is a registration made for @notify. */
unsigned int etw_provider_unregister_as(__u64 handle, etw_notify_fn notify);

#endif /* LIBETW_INTERNAL_H */
