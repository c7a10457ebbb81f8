// SPDX-License-Identifier: MIT
/*
 * Where the decoders find manifests, as Windows' wevtutil im and
 * TdhLoadManifest make them known: manifests loaded by this process
 * first, then every *.man and *.xml file of the directories of
 * $ETW_MANIFEST_PATH, the user's directory and the system's, the first
 * provider of a GUID winning.  The directories are read once per process,
 * on the first lookup; models are kept until the process ends, so a
 * provider found stays valid (an unloaded manifest is only no longer
 * found).
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../common/internal.h"
#include "event_info.h"
#include "manifest.h"
#include "store_dirs.h"

#ifndef ETW_MANIFEST_DIR
#define ETW_MANIFEST_DIR "/var/lib/etw/manifests"
#endif

struct mf_source {
	struct mf_source *next;
	struct etw_manifest *m;
	char *path;
	bool loaded;			/* by etw_manifest_load() */
	bool unloaded;
};

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct mf_source *loaded;	/* newest first */
static struct mf_source *scanned;	/* in search order */
static bool scan_done;

ETW_EXPORT const char *etw_manifest_system_dir(void)
{
	return ETW_MANIFEST_DIR;
}

ETW_EXPORT const char *etw_manifest_user_dir(char *buf, size_t size)
{
	return store_user_dir("manifests", buf, size);
}

static bool manifest_name(const char *name)
{
	size_t n = strlen(name);

	return name[0] != '.' && n > 4 &&
	       (!strcmp(name + n - 4, ".man") || !strcmp(name + n - 4, ".xml"));
}

struct each_manifest {
	etw_manifest_fn fn;
	void *ctx;
};

static int read_one(void *ctx, const char *path)
{
	struct each_manifest *e = ctx;
	struct etw_manifest_error err;
	struct etw_manifest *m;
	int r = etw_manifest_read(path, &m, &err);
	int ret = e->fn(e->ctx, path, r ? NULL : m, r ? &err : NULL);

	if (!r && ret <= 0)
		etw_manifest_free(m);
	/* 1: the callback keeps the model. */
	return ret > 0 ? 0 : ret;
}

ETW_EXPORT int etw_manifest_foreach_in(const char *dir, etw_manifest_fn fn, void *ctx)
{
	struct each_manifest e = { fn, ctx };

	return store_files_in(dir, manifest_name, read_one, &e);
}

static int each_dir(void *ctx, const char *dir)
{
	struct each_manifest *e = ctx;

	return etw_manifest_foreach_in(dir, e->fn, e->ctx);
}

/* The directories searched, in order, each once; @fn for each. */
ETW_EXPORT int etw_manifest_foreach(etw_manifest_fn fn, void *ctx)
{
	struct each_manifest e = { fn, ctx };

	return store_search("ETW_MANIFEST_PATH", "manifests", etw_manifest_system_dir(),
			    each_dir, &e);
}

struct scan {
	struct mf_source **tail;
};

static int keep(void *ctx, const char *path, struct etw_manifest *m,
		const struct etw_manifest_error *err)
{
	struct scan *s = ctx;
	struct mf_source *src;

	(void)err;
	/* A malformed file is skipped here; `etw manifest list` shows why. */
	if (!m)
		return 0;
	src = calloc(1, sizeof(*src));
	if (!src)
		return 0;
	src->m = m;
	src->path = strdup(path);
	*s->tail = src;
	s->tail = &src->next;
	return 1;
}

/* Read the directories, once; the lock is held. */
static void scan(void)
{
	struct scan s = { &scanned };

	if (scan_done)
		return;
	scan_done = true;
	etw_manifest_foreach(keep, &s);
}

static const struct etw_mf_provider *in(struct mf_source *src, const GUID *guid)
{
	for (; src; src = src->next) {
		if (src->unloaded)
			continue;
		for (size_t i = 0; i < src->m->nproviders; i++)
			if (!memcmp(&src->m->providers[i].guid, guid, sizeof(*guid)))
				return &src->m->providers[i];
	}
	return NULL;
}

ETW_EXPORT const struct etw_mf_provider *etw_manifest_find_provider(const GUID *guid)
{
	const struct etw_mf_provider *p;

	pthread_mutex_lock(&lock);
	p = in(loaded, guid);
	if (!p) {
		scan();
		p = in(scanned, guid);
	}
	pthread_mutex_unlock(&lock);
	return p;
}

int etw_manifest_providers_foreach(int (*fn)(void *ctx,
					     const struct etw_mf_provider *p),
				   void *ctx)
{
	struct mf_source *lists[2];
	int ret = 0;

	pthread_mutex_lock(&lock);
	scan();
	lists[0] = loaded;
	lists[1] = scanned;
	for (int l = 0; l < 2 && !ret; l++)
		for (struct mf_source *src = lists[l]; src && !ret; src = src->next)
			for (size_t i = 0; !src->unloaded && i < src->m->nproviders && !ret; i++) {
				const struct etw_mf_provider *p = &src->m->providers[i];

				/* The first of a GUID is the one decoders use. */
				if (in(loaded, &p->guid) == p ||
				    (!in(loaded, &p->guid) && in(scanned, &p->guid) == p))
					ret = fn(ctx, p);
			}
	pthread_mutex_unlock(&lock);
	return ret;
}

/* First in the search; what was described of its providers is forgotten. */
static void add_loaded(struct mf_source *src)
{
	src->loaded = true;
	pthread_mutex_lock(&lock);
	src->next = loaded;
	loaded = src;
	pthread_mutex_unlock(&lock);
	for (size_t i = 0; i < src->m->nproviders; i++)
		decode_cache_forget(&src->m->providers[i].guid);
}

ETW_EXPORT int etw_manifest_load(const char *path, struct etw_manifest_error *err)
{
	struct mf_source *src = calloc(1, sizeof(*src));
	int ret;

	if (!src)
		return -ENOMEM;
	ret = etw_manifest_read(path, &src->m, err);
	src->path = strdup(path);
	if (ret || !src->path) {
		etw_manifest_free(src->m);
		free(src->path);
		free(src);
		return ret ? ret : -ENOMEM;
	}
	add_loaded(src);
	return 0;
}

int etw_manifest_load_xml(const void *xml, size_t size, const char *name,
			  struct etw_manifest_error *err)
{
	struct mf_source *src = calloc(1, sizeof(*src));
	int ret;

	if (!src)
		return -ENOMEM;
	ret = etw_manifest_parse(xml, size, &src->m, err);
	src->path = strdup(name ? name : "");
	if (ret || !src->path) {
		etw_manifest_free(src->m);
		free(src->path);
		free(src);
		return ret ? ret : -ENOMEM;
	}
	add_loaded(src);
	return 0;
}

int etw_manifest_unload(const char *path, void (*each)(const GUID *guid))
{
	int ret = -ENOENT;

	pthread_mutex_lock(&lock);
	for (struct mf_source *src = loaded; src; src = src->next)
		if (!src->unloaded && !strcmp(src->path, path)) {
			src->unloaded = true;
			for (size_t i = 0; each && i < src->m->nproviders; i++)
				each(&src->m->providers[i].guid);
			ret = 0;
			break;
		}
	pthread_mutex_unlock(&lock);
	return ret;
}

static int mkdirs(const char *dir)
{
	char *p = strdup(dir);
	int ret = 0;

	if (!p)
		return -ENOMEM;
	for (char *s = p + 1; ; s++) {
		if (*s == '/' || !*s) {
			char c = *s;

			*s = '\0';
			if (mkdir(p, 0755) < 0 && errno != EEXIST) {
				ret = -errno;
				break;
			}
			*s = c;
			if (!c)
				break;
		}
	}
	free(p);
	return ret;
}

ETW_EXPORT void etw_manifest_file_name(const GUID *g, char buf[42])
{
	snprintf(buf, 42, "%08x-%04x-%04x-%02x%02x-%02x%02x%02x%02x%02x%02x.man",
		 g->Data1, g->Data2, g->Data3, g->Data4[0], g->Data4[1],
		 g->Data4[2], g->Data4[3], g->Data4[4], g->Data4[5],
		 g->Data4[6], g->Data4[7]);
}

/* @xml as @dir/@name, whole or not at all (a new file renamed over). */
static int write_file(const char *dir, const char *name, const void *xml,
		      size_t size)
{
	char *path = NULL, *tmp = NULL;
	size_t done = 0;
	int fd = -1, ret = 0;

	if (asprintf(&path, "%s/%s", dir, name) < 0 ||
	    asprintf(&tmp, "%s/.%s.XXXXXX", dir, name) < 0) {
		ret = -ENOMEM;
		goto out;
	}
	fd = mkstemp(tmp);
	if (fd < 0) {
		ret = -errno;
		goto out;
	}
	while (done < size) {
		ssize_t n = write(fd, (const char *)xml + done, size - done);

		if (n < 0) {
			ret = -errno;
			goto out;
		}
		done += (size_t)n;
	}
	if (fchmod(fd, 0644) < 0 || fsync(fd) < 0 || close(fd) < 0) {
		fd = -1;
		ret = -errno;
		goto out;
	}
	fd = -1;
	if (rename(tmp, path) < 0)
		ret = -errno;
out:
	if (fd >= 0)
		close(fd);
	if (ret && tmp)
		unlink(tmp);
	free(tmp);
	free(path);
	return ret;
}

ETW_EXPORT int etw_manifest_install_xml(const void *xml, size_t size, const char *dir,
			     struct etw_manifest_error *err)
{
	struct etw_manifest *m;
	int ret = etw_manifest_parse(xml, size, &m, err);

	if (ret)
		return ret;
	ret = mkdirs(dir);
	for (size_t i = 0; i < m->nproviders && !ret; i++) {
		char name[42];

		etw_manifest_file_name(&m->providers[i].guid, name);
		ret = write_file(dir, name, xml, size);
	}
	etw_manifest_free(m);
	return ret;
}

ETW_EXPORT int etw_manifest_install(const char *path, const char *dir,
				    struct etw_manifest_error *err)
{
	size_t size = 0;
	char *buf;
	int ret;

	if (err)
		memset(err, 0, sizeof(*err));
	ret = mf_read_file(path, &buf, &size);
	if (!ret)
		ret = etw_manifest_install_xml(buf, size, dir, err);
	if (ret && err && !err->message[0])
		snprintf(err->message, sizeof(err->message), "%s", strerror(-ret));
	free(buf);
	return ret;
}

ETW_EXPORT int etw_manifest_uninstall(const GUID *guid, const char *dir)
{
	char name[42], *path;
	int ret = 0;

	etw_manifest_file_name(guid, name);
	if (asprintf(&path, "%s/%s", dir, name) < 0)
		return -ENOMEM;
	if (unlink(path) < 0)
		ret = -errno;
	free(path);
	return ret;
}
