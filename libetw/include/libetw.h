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

#include <stddef.h>

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

/*
 * The provider GUID Windows derives from a provider name, as TraceLogging
 * and EventSource providers use it: "MyProvider" gives
 * b3864c38-4273-58c5-545b-8b3608343471.  @name is @len bytes of UTF-8
 * (case does not matter); @guid gets the GUID in its in-memory layout
 * (a GUID struct).  Returns 0, -EINVAL for NULL or invalid UTF-8, -ENOMEM.
 */
int etw_guid_from_name(const char *name, size_t len, unsigned char guid[16]);

#ifdef __cplusplus
}
#endif

#endif /* LIBETW_H */
