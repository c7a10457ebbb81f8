/* SPDX-License-Identifier: MIT */
/*
 * What the controller files share beyond common/properties.h: the session
 * lookup by name (controller.c).
 */
#ifndef LIBETW_CONTROLLER_H
#define LIBETW_CONTROLLER_H

#include "../common/properties.h"

/* The session called @name, ignoring ASCII case; 0 or -errno (-ENOENT). */
int etw_session_find(int fd, const char *name, struct etw_session_info *info);

#endif /* LIBETW_CONTROLLER_H */
