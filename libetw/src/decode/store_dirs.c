// SPDX-License-Identifier: MIT
/*
 * The folder walk the manifest and MOF stores share (store_dirs.h).
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store_dirs.h"

const char *store_user_dir(const char *leaf, char *buf, size_t size)
{
	const char *xdg = getenv("XDG_DATA_HOME"), *home = getenv("HOME");
	int n;

	if (xdg && *xdg == '/')
		n = snprintf(buf, size, "%s/etw/%s", xdg, leaf);
	else if (home && *home)
		n = snprintf(buf, size, "%s/.local/share/etw/%s", home, leaf);
	else
		return NULL;
	return n > 0 && (size_t)n < size ? buf : NULL;
}

static int by_name(const struct dirent **a, const struct dirent **b)
{
	return strcmp((*a)->d_name, (*b)->d_name);
}

int store_files_in(const char *dir, bool (*match)(const char *name),
		   int (*fn)(void *ctx, const char *path), void *ctx)
{
	struct dirent **list;
	int n = scandir(dir, &list, NULL, by_name), ret = 0;

	if (n < 0)
		return errno == ENOENT ? 0 : -errno;
	for (int i = 0; i < n; i++) {
		char *path;

		if (!ret && match(list[i]->d_name) &&
		    asprintf(&path, "%s/%s", dir, list[i]->d_name) >= 0) {
			ret = fn(ctx, path);
			free(path);
		}
		free(list[i]);
	}
	free(list);
	return ret;
}

int store_search(const char *env, const char *leaf, const char *system_dir,
		 int (*each)(void *ctx, const char *dir), void *ctx)
{
	const char *folders = getenv(env);
	char user[4096];
	int ret = 0;

	if (folders) {
		char *copy = strdup(folders), *save = NULL;

		if (!copy)
			return -ENOMEM;
		for (char *d = strtok_r(copy, ":", &save); d && !ret;
		     d = strtok_r(NULL, ":", &save))
			ret = each(ctx, d);
		free(copy);
	}
	if (!ret && store_user_dir(leaf, user, sizeof(user)))
		ret = each(ctx, user);
	if (!ret)
		ret = each(ctx, system_dir);
	return ret;
}
