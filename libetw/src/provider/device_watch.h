/* SPDX-License-Identifier: MIT */
/*
 * Waiting for /dev/etw (device_watch.c): a registration made without the
 * module reaches it when the module is loaded.
 */
#ifndef ETW_DEVICE_WATCH_H
#define ETW_DEVICE_WATCH_H

#include <stdbool.h>

/*
 * Call @appeared whenever /dev/etw may have become usable (created, its
 * mode changed), on a thread of its own, until it returns true.  Started
 * once per process; later calls do nothing while it waits.
 */
void etw_device_watch(bool (*appeared)(void));

/* A child of fork(): the watching thread is not there. */
void etw_device_watch_forget(void);

#endif /* ETW_DEVICE_WATCH_H */
