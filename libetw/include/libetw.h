/* SPDX-License-Identifier: MIT */
/*
 * libetw native API: thin, Linux-style wrappers over /dev/etw.
 *
 * Functions return 0 (or a file descriptor) on success and a negative errno
 * on failure; they never touch the errno global's meaning for the caller.
 * The Windows ETW API (evntprov.h, evntrace.h, evntcons.h) is built on top.
 */
#ifndef LIBETW_H
#define LIBETW_H

#include <linux/etw.h>

#ifdef __cplusplus
extern "C" {
#endif

#define LIBETW_VERSION_MAJOR	0
#define LIBETW_VERSION_MINOR	1
#define LIBETW_VERSION_PATCH	0

/* Open a new file description of /dev/etw (O_CLOEXEC).  Returns fd or -errno. */
int etw_open(void);

/*
 * The process's shared /dev/etw descriptor, opened on first use.  Thread
 * safe.  Returns the fd or -errno (the open is retried on the next call).
 */
int etw_device_fd(void);

/*
 * Fill *v from the module (ETW_IOC_VERSION); v->size and v->flags are set
 * here.  Returns 0 or -errno; -EPROTO if the module's major ABI differs
 * from the one this library was built for.
 */
int etw_get_version(int fd, struct etw_version *v);

/* "MAJOR.MINOR.PATCH" of the library. */
const char *etw_library_version(void);

#ifdef __cplusplus
}
#endif

#endif /* LIBETW_H */
