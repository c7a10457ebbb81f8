/* SPDX-License-Identifier: MIT */
/*
 * The folders of a schema store (manifests, MOF schemas): the folders of
 * an environment variable, the user's and the system's, in that order,
 * and the files of one folder in name order.
 */
#ifndef ETW_DECODE_STORE_DIRS_H
#define ETW_DECODE_STORE_DIRS_H

#include <stdbool.h>
#include <stddef.h>

/* $XDG_DATA_HOME/etw/@leaf, else ~/.local/share/etw/@leaf; NULL if neither. */
const char *store_user_dir(const char *leaf, char *buf, size_t size);

/*
 * @fn(@ctx, path) for each file of @dir whose name @match takes, in name
 * order, until @fn returns nonzero (returned).  A folder that does not
 * exist has no files; another error is its negative errno.
 */
int store_files_in(const char *dir, bool (*match)(const char *name),
		   int (*fn)(void *ctx, const char *path), void *ctx);

/*
 * @each(@ctx, folder) for the folders of $@env (colon-separated), the
 * user's (@leaf) and @system_dir, until @each returns nonzero (returned).
 */
int store_search(const char *env, const char *leaf, const char *system_dir,
		 int (*each)(void *ctx, const char *dir), void *ctx);

#endif /* ETW_DECODE_STORE_DIRS_H */
