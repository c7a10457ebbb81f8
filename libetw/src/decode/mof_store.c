// SPDX-License-Identifier: MIT
/*
 * Where the decoders find classic providers' MOF schemas, as WMI's
 * repository holds what mofcomp compiled: every *.mof file of the
 * directories of $ETW_MOF_PATH, the user's directory and the system's,
 * read once per process on the first lookup, the first class found
 * winning.  Models are kept until the process ends, so a class found
 * stays valid.  `etw mof install` puts files here.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../common/internal.h"
#include "mof.h"
#include "store_dirs.h"

#ifndef ETW_MOF_DIR
#define ETW_MOF_DIR "/var/lib/etw/mof"
#endif

struct mof_source {
	struct mof_source *next;
	struct etw_mof *m;
};

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct mof_source *scanned;	/* in search order */
static bool scan_done;

ETW_EXPORT const char *etw_mof_system_dir(void)
{
	return ETW_MOF_DIR;
}

ETW_EXPORT const char *etw_mof_user_dir(char *buf, size_t size)
{
	return store_user_dir("mof", buf, size);
}

static bool mof_name(const char *name)
{
	size_t n = strlen(name);

	return name[0] != '.' && n > 4 && !strcasecmp(name + n - 4, ".mof");
}

struct each_mof {
	etw_mof_fn fn;
	void *ctx;
};

static int read_one(void *ctx, const char *path)
{
	struct each_mof *e = ctx;
	struct etw_mof_error err;
	struct etw_mof *m;
	int r = etw_mof_read(path, &m, &err), ret;

	if (r && r != -EBADMSG) {
		err.line = 0;
		snprintf(err.message, sizeof(err.message), "%s", strerror(-r));
	}
	ret = e->fn(e->ctx, path, r ? NULL : m, r ? &err : NULL);
	if (!r && ret <= 0)
		etw_mof_free(m);
	return ret > 0 ? 0 : ret;
}

ETW_EXPORT int etw_mof_foreach_in(const char *dir, etw_mof_fn fn, void *ctx)
{
	struct each_mof e = { fn, ctx };

	return store_files_in(dir, mof_name, read_one, &e);
}

static int each_dir(void *ctx, const char *dir)
{
	struct each_mof *e = ctx;

	return etw_mof_foreach_in(dir, e->fn, e->ctx);
}

ETW_EXPORT int etw_mof_foreach(etw_mof_fn fn, void *ctx)
{
	struct each_mof e = { fn, ctx };

	return store_search("ETW_MOF_PATH", "mof", etw_mof_system_dir(), each_dir, &e);
}

static int keep(void *ctx, const char *path, struct etw_mof *m,
		const struct etw_mof_error *err)
{
	struct mof_source ***tail = ctx, *src;

	(void)path;
	(void)err;
	/* A malformed file is skipped here; `etw mof list` shows why. */
	if (!m)
		return 0;
	src = calloc(1, sizeof(*src));
	if (!src)
		return 0;
	src->m = m;
	**tail = src;
	*tail = &src->next;
	return 1;
}

/* Read the directories, once; the lock is held. */
static void scan(void)
{
	struct mof_source **tail = &scanned;

	if (scan_done)
		return;
	scan_done = true;
	etw_mof_foreach(keep, &tail);
}

int mof_store_find(const GUID *guid, uint8_t type, uint8_t version,
		   struct mof_event *out)
{
	int ret = -ENOENT;

	pthread_mutex_lock(&lock);
	scan();
	for (struct mof_source *s = scanned; s && ret; s = s->next)
		ret = mof_find_event(s->m, guid, type, version, out);
	pthread_mutex_unlock(&lock);
	return ret;
}

const struct etw_mof_class *mof_store_provider(const GUID *guid)
{
	const struct etw_mof_class *c = NULL;

	pthread_mutex_lock(&lock);
	scan();
	for (struct mof_source *s = scanned; s && !c; s = s->next)
		c = mof_find_provider(s->m, guid);
	pthread_mutex_unlock(&lock);
	return c;
}

int mof_store_providers_foreach(int (*fn)(void *ctx, const GUID *guid,
					  const char *name),
				void *ctx)
{
	GUID *seen = NULL;
	size_t nseen = 0, cap = 0;
	int ret = 0;

	pthread_mutex_lock(&lock);
	scan();
	for (struct mof_source *s = scanned; s && !ret; s = s->next) {
		for (size_t i = 0; i < s->m->nclasses && !ret; i++) {
			const struct etw_mof_class *c = &s->m->classes[i];
			const struct etw_mof_qualifier *q =
				etw_mof_class_qualifier(c, "Guid");
			bool dup = false;
			GUID g;

			if (!c->parent || strcasecmp(c->parent, "EventTrace") ||
			    !q || q->nvalues != 1 || mof_guid(q->values[0], &g))
				continue;
			for (size_t j = 0; j < nseen && !dup; j++)
				dup = !memcmp(&seen[j], &g, sizeof(g));
			if (dup)
				continue;
			if (nseen == cap) {
				GUID *n;

				cap = cap ? cap * 2 : 8;
				n = realloc(seen, cap * sizeof(*n));
				if (!n)
					break;
				seen = n;
			}
			seen[nseen++] = g;
			ret = fn(ctx, &g, c->name);
		}
	}
	pthread_mutex_unlock(&lock);
	free(seen);
	return ret;
}

/* ---- install and uninstall ---- */

static const char *base_name(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash ? slash + 1 : path;
}

ETW_EXPORT int etw_mof_install(const char *path, const char *dir,
			       struct etw_mof_error *err)
{
	const char *name = base_name(path);
	struct etw_mof *m;
	char *dst = NULL, *tmp = NULL;
	FILE *in = NULL, *out = NULL;
	char buf[65536];
	size_t n;
	int ret;

	ret = etw_mof_read(path, &m, err);
	if (ret)
		return ret;
	etw_mof_free(m);
	if (mkdir(dir, 0755) && errno != EEXIST)
		return -errno;
	if (asprintf(&dst, "%s/%s%s", dir, name,
		     strlen(name) > 4 && !strcasecmp(name + strlen(name) - 4, ".mof") ?
		     "" : ".mof") < 0 ||
	    asprintf(&tmp, "%s.tmp%ld", dst, (long)getpid()) < 0) {
		free(dst);
		return -ENOMEM;
	}
	in = fopen(path, "rb");
	out = in ? fopen(tmp, "wb") : NULL;
	ret = in && out ? 0 : -errno;
	while (!ret && (n = fread(buf, 1, sizeof(buf), in)) > 0)
		if (fwrite(buf, 1, n, out) != n)
			ret = -errno;
	if (!ret && ferror(in))
		ret = -EIO;
	if (in)
		fclose(in);
	if (out && fclose(out) && !ret)
		ret = -errno;
	if (!ret && rename(tmp, dst))
		ret = -errno;
	if (ret && out)
		unlink(tmp);
	free(tmp);
	free(dst);
	return ret;
}

struct uninstall {
	const char *name;
	GUID guid;
	bool by_guid;
	int removed;
	int error;
};

static bool defines(const struct etw_mof *m, const struct uninstall *u)
{
	for (size_t i = 0; i < m->nclasses; i++) {
		const struct etw_mof_class *c = &m->classes[i];
		const struct etw_mof_qualifier *q = etw_mof_class_qualifier(c, "Guid");
		GUID g;

		if (!u->by_guid && !strcasecmp(c->name, u->name))
			return true;
		if (u->by_guid && q && q->nvalues == 1 && !mof_guid(q->values[0], &g) &&
		    !memcmp(&g, &u->guid, sizeof(g)))
			return true;
	}
	return false;
}

static int remove_one(void *ctx, const char *path, struct etw_mof *m,
		      const struct etw_mof_error *err)
{
	struct uninstall *u = ctx;
	const char *name = base_name(path);
	size_t len = strlen(u->name);
	bool match;

	(void)err;
	match = !strcmp(name, u->name) ||
		(!strncmp(name, u->name, len) && !strcasecmp(name + len, ".mof")) ||
		(m && defines(m, u));
	if (match) {
		if (unlink(path))
			u->error = -errno;
		else
			u->removed++;
	}
	return 0;
}

ETW_EXPORT int etw_mof_uninstall(const char *name, const char *dir)
{
	struct uninstall u = { .name = name };
	int ret;

	if (!*name || strchr(name, '/'))
		return -EINVAL;
	u.by_guid = !mof_guid(name, &u.guid);
	ret = etw_mof_foreach_in(dir, remove_one, &u);
	if (ret)
		return ret;
	if (u.error)
		return u.error;
	return u.removed ? 0 : -ENOENT;
}
