// SPDX-License-Identifier: MIT
/*
 * Versions: the library's own and the running module's ABI.
 */
#include <errno.h>
#include <string.h>

#include "internal.h"

#define STR_(x) #x
#define STR(x) STR_(x)

ETW_EXPORT const char *etw_library_version(void)
{
	return STR(LIBETW_VERSION_MAJOR) "." STR(LIBETW_VERSION_MINOR) "."
	       STR(LIBETW_VERSION_PATCH);
}

ETW_EXPORT int etw_get_version(int fd, struct etw_version *v)
{
	int ret;

	memset(v, 0, sizeof(*v));
	v->size = sizeof(*v);
	ret = etw_ioctl(fd, ETW_IOC_VERSION, v);
	if (ret < 0)
		return ret;
	return v->abi_major == ETW_ABI_MAJOR ? 0 : -EPROTO;
}
