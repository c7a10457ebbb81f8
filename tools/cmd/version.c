// SPDX-License-Identifier: GPL-2.0
/*
 * etw version: the library's version and, if etw.ko is loaded, its ABI.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <libetw.h>

#include "ctl.h"
#include "etw.h"

int cmd_version(int argc, char **argv)
{
	struct etw_version v;
	int fd, ret;

	if (etw_wants_help(argc, argv)) {
		puts("usage: etw version\n\nPrint the libetw version and the ABI of the loaded etw.ko.");
		return 0;
	}
	if (argc > 1)
		return etw_error("version: unexpected argument '%s'", argv[1]);

	printf("libetw %s (ABI %d.%d)\n", etw_library_version(),
	       ETW_ABI_MAJOR, ETW_ABI_MINOR);
	fd = etw_open();
	if (fd == -ENOENT || fd == -ENODEV || fd == -ENXIO)
		return ctl_no_module("version");
	if (fd < 0)
		return etw_error("cannot open /dev/%s: %s", ETW_DEVICE_NAME,
				 strerror(-fd));
	ret = etw_get_version(fd, &v);
	close(fd);
	if (ret < 0)
		return etw_error("ETW_IOC_VERSION: %s", strerror(-ret));
	printf("etw.ko ABI %u.%u, features 0x%llx, %u sessions, %u sessions per provider\n",
	       v.abi_major, v.abi_minor, (unsigned long long)v.features,
	       v.max_sessions, v.max_sessions_per_provider);
	return 0;
}
