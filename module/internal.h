/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Objects shared between the files of etw.ko.
 */
#ifndef _ETW_INTERNAL_H
#define _ETW_INTERNAL_H

#include <linux/types.h>

/*
 * struct etw_file - the state behind one open file description of /dev/etw.
 *
 * libetw opens one per process; every registration a process makes will
 * be owned by it, so closing the file (or the process dying) cleans up.
 */
struct etw_file {
	struct mutex lock;	/* serialises ioctls that change this file */
	pid_t tgid;		/* process that opened the file */
};

int etw_dev_init(void);
void etw_dev_exit(void);

#endif /* _ETW_INTERNAL_H */
