/* SPDX-License-Identifier: GPL-2.0 */
/* Strings made valid UTF-8 for protobuf's string fields (export/utf8.c). */
#ifndef ETW_EXPORT_UTF8_H
#define ETW_EXPORT_UTF8_H

#include <stdbool.h>
#include <stdlib.h>

#include "dump/dump.h"
#include "export/idmap.h"

struct utf8_pool {
	struct sbuf *v;
	size_t n, used;
};

/* @s if it is valid UTF-8 (or NULL), else a repaired copy in the pool. */
char *utf8_pool_str(struct utf8_pool *pool, const char *s);
/* The copies made so far may be reused. */
void utf8_pool_reset(struct utf8_pool *pool);
void utf8_pool_free(struct utf8_pool *pool);

#endif /* ETW_EXPORT_UTF8_H */
