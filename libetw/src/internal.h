/* SPDX-License-Identifier: MIT */
#ifndef LIBETW_INTERNAL_H
#define LIBETW_INTERNAL_H

#include "libetw.h"

/* Marks a function exported from libetw.so (the rest is hidden). */
#define ETW_EXPORT __attribute__((visibility("default")))

/* ioctl() returning -errno. */
int etw_ioctl(int fd, unsigned long cmd, void *arg);

#endif /* LIBETW_INTERNAL_H */
