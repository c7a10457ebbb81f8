// SPDX-License-Identifier: GPL-2.0
/*
 * A map of 64-bit keys to pointers, open addressing with linear probing,
 * grown at half full; and the exporter's allocation helpers.
 */
#include <stdlib.h>
#include <string.h>

#include "etw.h"
#include "export/idmap.h"

static void oom(void)
{
	etw_error("export: out of memory");
	exit(1);
}

void *export_alloc(size_t size)
{
	void *p = calloc(1, size ? size : 1);

	if (!p)
		oom();
	return p;
}

void *export_realloc(void *p, size_t size)
{
	p = realloc(p, size ? size : 1);
	if (!p)
		oom();
	return p;
}

char *export_strdup(const char *s)
{
	char *p = strdup(s);

	if (!p)
		oom();
	return p;
}

static size_t slot(uint64_t key, size_t cap)
{
	key ^= key >> 33;
	key *= 0xff51afd7ed558ccdull;
	key ^= key >> 33;
	return (size_t)key & (cap - 1);
}

void *idmap64_get(const struct idmap64 *m, uint64_t key)
{
	if (!m->cap)
		return NULL;
	for (size_t i = slot(key, m->cap);; i = (i + 1) & (m->cap - 1)) {
		if (!m->vals[i])
			return NULL;
		if (m->keys[i] == key)
			return m->vals[i];
	}
}

void idmap64_put(struct idmap64 *m, uint64_t key, void *val)
{
	size_t i;

	if (2 * (m->n + 1) > m->cap) {
		struct idmap64 big = { .cap = m->cap ? 2 * m->cap : 64 };

		big.keys = export_alloc(big.cap * sizeof(*big.keys));
		big.vals = export_alloc(big.cap * sizeof(*big.vals));
		for (i = 0; i < m->cap; i++)
			if (m->vals[i])
				idmap64_put(&big, m->keys[i], m->vals[i]);
		free(m->keys);
		free(m->vals);
		*m = big;
	}
	for (i = slot(key, m->cap); m->vals[i] && m->keys[i] != key;
	     i = (i + 1) & (m->cap - 1))
		;
	if (!m->vals[i])
		m->n++;
	m->keys[i] = key;
	m->vals[i] = val;
}

void idmap64_free(struct idmap64 *m, void (*fn)(void *val))
{
	for (size_t i = 0; fn && i < m->cap; i++)
		if (m->vals[i])
			fn(m->vals[i]);
	free(m->keys);
	free(m->vals);
	memset(m, 0, sizeof(*m));
}
