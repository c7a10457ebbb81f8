// SPDX-License-Identifier: MIT
/*
 * The TMF store: the parsed TMF texts a formatter looks messages up in,
 * by (message GUID, message number).  Texts come from files, from the
 * ETW_WPP_TMF_SECTION of programs, and from directories, where
 * <guid>.tmf is read the first time a record of that GUID is formatted
 * (tracefmt's -p and TRACE_FORMAT_SEARCH_PATH).  A first definition wins:
 * a later text's message of the same GUID and number is ignored, as the
 * order of -tmf, -p and the search path decides in tracefmt.
 */
#include <ctype.h>
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "../common/internal.h"
#include "elf_section.h"
#include "wpp.h"

struct slot {
	const struct wpp_msg *msg;
};

struct etw_tmf_store {
	pthread_mutex_t lock;
	struct wpp_tmf **tmfs;
	size_t ntmfs, tmf_cap;
	struct slot *slots;		/* open addressing, power of two */
	size_t nslots, count;
	char **dirs;
	size_t ndirs;
	struct etw_etl_guid *tried;	/* GUIDs looked for in the dirs */
	size_t ntried, tried_cap;
};

ETW_EXPORT int etw_tmf_store_new(struct etw_tmf_store **store)
{
	struct etw_tmf_store *s = calloc(1, sizeof(*s));

	*store = s;
	if (!s)
		return -ENOMEM;
	pthread_mutex_init(&s->lock, NULL);
	return 0;
}

ETW_EXPORT void etw_tmf_store_free(struct etw_tmf_store *s)
{
	if (!s)
		return;
	for (size_t i = 0; i < s->ntmfs; i++)
		wpp_tmf_free(s->tmfs[i]);
	for (size_t i = 0; i < s->ndirs; i++)
		free(s->dirs[i]);
	free(s->dirs);
	free(s->tmfs);
	free(s->slots);
	free(s->tried);
	pthread_mutex_destroy(&s->lock);
	free(s);
}

ETW_EXPORT size_t etw_tmf_store_count(struct etw_tmf_store *s)
{
	size_t n;

	pthread_mutex_lock(&s->lock);
	n = s->count;
	pthread_mutex_unlock(&s->lock);
	return n;
}

static size_t hash(const struct etw_etl_guid *g, uint16_t number)
{
	uint32_t h = 2166136261u;
	const uint8_t *b = (const uint8_t *)g;

	for (size_t i = 0; i < sizeof(*g); i++)
		h = (h ^ b[i]) * 16777619u;
	h = (h ^ (number & 0xFF)) * 16777619u;
	h = (h ^ (number >> 8)) * 16777619u;
	return h;
}

static bool same(const struct wpp_msg *m, const struct etw_etl_guid *g,
		 uint16_t number)
{
	return m->number == number && !memcmp(&m->header->guid, g, sizeof(*g));
}

static const struct wpp_msg *find(const struct etw_tmf_store *s,
				  const struct etw_etl_guid *g, uint16_t number)
{
	if (!s->nslots)
		return NULL;
	for (size_t i = hash(g, number) & (s->nslots - 1);; i = (i + 1) & (s->nslots - 1)) {
		if (!s->slots[i].msg)
			return NULL;
		if (same(s->slots[i].msg, g, number))
			return s->slots[i].msg;
	}
}

static void put(struct slot *slots, size_t nslots, const struct wpp_msg *m)
{
	size_t i = hash(&m->header->guid, m->number) & (nslots - 1);

	while (slots[i].msg)
		i = (i + 1) & (nslots - 1);
	slots[i].msg = m;
}

static int reserve(struct etw_tmf_store *s, size_t more)
{
	size_t n = s->nslots ? s->nslots : 64;
	struct slot *slots;

	if ((s->count + more) * 2 <= s->nslots)
		return 0;
	while ((s->count + more) * 2 > n)
		n *= 2;
	slots = calloc(n, sizeof(*slots));
	if (!slots)
		return -ENOMEM;
	for (size_t i = 0; i < s->nslots; i++)
		if (s->slots[i].msg)
			put(slots, n, s->slots[i].msg);
	free(s->slots);
	s->slots = slots;
	s->nslots = n;
	return 0;
}

/* Take t's messages (first definition wins) and keep t; locked. */
static int adopt(struct etw_tmf_store *s, struct wpp_tmf *t)
{
	if (s->ntmfs == s->tmf_cap) {
		size_t cap = s->tmf_cap ? s->tmf_cap * 2 : 16;
		struct wpp_tmf **q = realloc(s->tmfs, cap * sizeof(*q));

		if (!q)
			return -ENOMEM;
		s->tmfs = q;
		s->tmf_cap = cap;
	}
	if (reserve(s, t->msg_count))
		return -ENOMEM;
	s->tmfs[s->ntmfs++] = t;
	for (uint32_t i = 0; i < t->msg_count; i++) {
		const struct wpp_msg *m = &t->msgs[i];

		if (find(s, &m->header->guid, m->number))
			continue;
		put(s->slots, s->nslots, m);
		s->count++;
	}
	return 0;
}

static int add_text_locked(struct etw_tmf_store *s, const char *text,
			   size_t len, const char *name,
			   struct etw_tmf_error *err)
{
	struct wpp_tmf *t;
	int ret = wpp_tmf_parse(text, len, name, &t, err);

	if (ret)
		return ret;
	ret = adopt(s, t);
	if (ret)
		wpp_tmf_free(t);
	return ret;
}

ETW_EXPORT int etw_tmf_store_add_text(struct etw_tmf_store *s, const char *text,
				      size_t len, const char *name,
				      struct etw_tmf_error *err)
{
	int ret;

	pthread_mutex_lock(&s->lock);
	ret = add_text_locked(s, text, len, name, err);
	pthread_mutex_unlock(&s->lock);
	return ret;
}

/* A whole file, malloc'd. */
static int read_file(const char *path, char **text, size_t *len)
{
	FILE *f = fopen(path, "rb");
	size_t cap = 65536, n = 0;
	char *p = NULL, *q;
	int ret = 0;

	if (!f)
		return -errno;
	for (;;) {
		size_t got;

		q = realloc(p, cap);
		if (!q) {
			ret = -ENOMEM;
			break;
		}
		p = q;
		got = fread(p + n, 1, cap - n, f);
		n += got;
		if (n < cap) {
			if (ferror(f))
				ret = -EIO;
			break;
		}
		cap *= 2;
	}
	fclose(f);
	if (ret) {
		free(p);
		return ret;
	}
	*text = p;
	*len = n;
	return 0;
}

static void file_error(struct etw_tmf_error *err, const char *path, int ret)
{
	if (!err)
		return;
	snprintf(err->file, sizeof(err->file), "%s", path);
	err->line = 0;
	snprintf(err->message, sizeof(err->message), "%s", strerror(-ret));
}

static int add_file_locked(struct etw_tmf_store *s, const char *path,
			   struct etw_tmf_error *err)
{
	char *text = NULL;
	size_t len = 0;
	int ret = read_file(path, &text, &len);

	if (ret) {
		file_error(err, path, ret);
		return ret;
	}
	ret = add_text_locked(s, text, len, path, err);
	free(text);
	return ret;
}

ETW_EXPORT int etw_tmf_store_add_file(struct etw_tmf_store *s, const char *path,
				      struct etw_tmf_error *err)
{
	int ret;

	pthread_mutex_lock(&s->lock);
	ret = add_file_locked(s, path, err);
	pthread_mutex_unlock(&s->lock);
	return ret;
}

ETW_EXPORT int etw_tmf_store_add_dir(struct etw_tmf_store *s, const char *path)
{
	struct stat st;
	char **q, *copy;

	if (stat(path, &st))
		return -errno;
	if (!S_ISDIR(st.st_mode))
		return -ENOTDIR;
	copy = strdup(path);
	if (!copy)
		return -ENOMEM;
	pthread_mutex_lock(&s->lock);
	q = realloc(s->dirs, (s->ndirs + 1) * sizeof(*q));
	if (!q) {
		pthread_mutex_unlock(&s->lock);
		free(copy);
		return -ENOMEM;
	}
	s->dirs = q;
	s->dirs[s->ndirs++] = copy;
	pthread_mutex_unlock(&s->lock);
	return 0;
}

ETW_EXPORT int etw_tmf_store_add_search_path(struct etw_tmf_store *s,
					     const char *list)
{
	const char *p = list;

	while (p && *p) {
		size_t n = strcspn(p, ";:");
		char *dir = strndup(p, n);
		int ret;

		if (!dir)
			return -ENOMEM;
		ret = n ? etw_tmf_store_add_dir(s, dir) : 0;
		free(dir);
		if (ret == -ENOMEM)
			return ret;
		p += n;
		if (*p)
			p++;
	}
	return 0;
}

/* Each NUL-ended text of a section; a text that is only NULs is padding. */
struct section_text {
	const char *text;
	size_t len;
};

static bool next_text(const char *data, size_t size, size_t *pos,
		      struct section_text *t)
{
	while (*pos < size && data[*pos] == '\0')
		(*pos)++;
	if (*pos >= size)
		return false;
	t->text = data + *pos;
	t->len = strnlen(t->text, size - *pos);
	*pos += t->len + 1;
	return true;
}

static void section_error(struct etw_tmf_error *err, const char *path,
			  int ret)
{
	if (!err)
		return;
	snprintf(err->file, sizeof(err->file), "%s", path);
	err->line = 0;
	if (ret == -ENOENT)
		snprintf(err->message, sizeof(err->message),
			 "no %s section", ETW_WPP_TMF_SECTION);
	else if (ret == -ENOEXEC)
		snprintf(err->message, sizeof(err->message), "not an ELF file");
	else
		snprintf(err->message, sizeof(err->message), "%s",
			 strerror(-ret));
}

/*
 * Each text of a binary's section, parsed, to fn with the name errors
 * give it ("prog(.etw.tmf #2)"); stops at the first error.
 */
static int each_text(const char *path,
		     int (*fn)(void *ctx, const char *text, size_t len,
			       struct wpp_tmf *t),
		     void *ctx, struct etw_tmf_error *err)
{
	struct section_text t;
	size_t size, pos = 0;
	void *data;
	int ret = decode_elf_section(path, ETW_WPP_TMF_SECTION, &data, &size);
	unsigned int k = 0;

	if (ret) {
		section_error(err, path, ret);
		return ret;
	}
	while (!ret && next_text(data, size, &pos, &t)) {
		struct wpp_tmf *tmf;
		char name[300];

		snprintf(name, sizeof(name), "%s(%s #%u)", path,
			 ETW_WPP_TMF_SECTION, ++k);
		ret = wpp_tmf_parse(t.text, t.len, name, &tmf, err);
		if (!ret)
			ret = fn(ctx, t.text, t.len, tmf);
	}
	free(data);
	return ret;
}

/* Into the store, which keeps the parsed text (locked). */
static int adopt_text(void *ctx, const char *text, size_t len,
		      struct wpp_tmf *t)
{
	int ret = adopt(ctx, t);

	if (ret)
		wpp_tmf_free(t);
	return ret;
}

ETW_EXPORT int etw_tmf_store_add_binary(struct etw_tmf_store *s,
					const char *path,
					struct etw_tmf_error *err)
{
	int ret;

	pthread_mutex_lock(&s->lock);
	ret = each_text(path, adopt_text, s, err);
	pthread_mutex_unlock(&s->lock);
	return ret;
}

struct texts_ctx {
	int (*fn)(void *ctx, const struct etw_etl_guid *guid, const char *text,
		  size_t len);
	void *ctx;
};

/* To the caller's function with the GUID of its first line. */
static int hand_text(void *ctx, const char *text, size_t len,
		     struct wpp_tmf *t)
{
	struct texts_ctx *c = ctx;
	struct etw_etl_guid g = t->headers[0].guid;

	wpp_tmf_free(t);
	return c->fn(c->ctx, &g, text, len);
}

ETW_EXPORT int etw_tmf_binary_texts(const char *path,
				    int (*fn)(void *ctx, const struct etw_etl_guid *guid,
					      const char *text, size_t len),
				    void *ctx, struct etw_tmf_error *err)
{
	struct texts_ctx c = { fn, ctx };

	return each_text(path, hand_text, &c, err);
}

static bool tried(struct etw_tmf_store *s, const struct etw_etl_guid *g)
{
	for (size_t i = 0; i < s->ntried; i++)
		if (!memcmp(&s->tried[i], g, sizeof(*g)))
			return true;
	if (s->ntried == s->tried_cap) {
		size_t cap = s->tried_cap ? s->tried_cap * 2 : 32;
		struct etw_etl_guid *q = realloc(s->tried, cap * sizeof(*q));

		if (!q)
			return true;	/* not looked for again; no format */
		s->tried = q;
		s->tried_cap = cap;
	}
	s->tried[s->ntried++] = *g;
	return false;
}

/* <dir>/<guid>.tmf, lowercase or uppercase, from the first dir having it. */
static void from_dirs(struct etw_tmf_store *s, const struct etw_etl_guid *g)
{
	char name[ETW_ETL_GUID_STRLEN], upper[ETW_ETL_GUID_STRLEN];

	if (!s->ndirs || tried(s, g))
		return;
	etw_etl_guid_to_str(g, name);
	for (size_t i = 0; i < sizeof(name); i++)
		upper[i] = (char)toupper((unsigned char)name[i]);
	for (size_t i = 0; i < s->ndirs; i++) {
		const char *forms[] = { name, upper };

		for (int k = 0; k < 2; k++) {
			char path[4096];
			struct stat st;

			snprintf(path, sizeof(path), "%s/%s.tmf", s->dirs[i],
				 forms[k]);
			if (stat(path, &st) || !S_ISREG(st.st_mode))
				continue;
			/* A bad file is no format, as a missing one. */
			add_file_locked(s, path, NULL);
			return;
		}
	}
}

const struct wpp_msg *wpp_store_find(struct etw_tmf_store *s,
				     const struct etw_etl_guid *guid,
				     uint16_t number)
{
	const struct wpp_msg *m;

	pthread_mutex_lock(&s->lock);
	m = find(s, guid, number);
	if (!m) {
		from_dirs(s, guid);
		m = find(s, guid, number);
	}
	pthread_mutex_unlock(&s->lock);
	return m;
}

const struct wpp_enum *wpp_store_enum(struct etw_tmf_store *s,
				      const char *name)
{
	const struct wpp_enum *e = NULL;

	pthread_mutex_lock(&s->lock);
	for (size_t i = 0; i < s->ntmfs && !e; i++)
		for (uint32_t k = 0; k < s->tmfs[i]->enum_count; k++)
			if (!strcmp(s->tmfs[i]->enums[k].name, name)) {
				e = &s->tmfs[i]->enums[k];
				break;
			}
	pthread_mutex_unlock(&s->lock);
	return e;
}
