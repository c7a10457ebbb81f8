/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A map of 64-bit keys to pointers (export/idmap.c): threads by id,
 * processes by id.  Open addressing; a NULL
 * value is "absent".
 */
#ifndef ETW_EXPORT_IDMAP_H
#define ETW_EXPORT_IDMAP_H

#include <stddef.h>
#include <stdint.h>

struct idmap64 {
	uint64_t *keys;
	void **vals;
	size_t cap;			/* a power of 2 */
	size_t n;
};

void *idmap64_get(const struct idmap64 *m, uint64_t key);
void idmap64_put(struct idmap64 *m, uint64_t key, void *val);
/* Calls @fn on each value (for freeing), then frees the map. */
void idmap64_free(struct idmap64 *m, void (*fn)(void *val));

/* Allocation that exits with "out of memory" when it fails. */
void *export_alloc(size_t size);
void *export_realloc(void *p, size_t size);
char *export_strdup(const char *s);

#endif /* ETW_EXPORT_IDMAP_H */
