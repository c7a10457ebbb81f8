// SPDX-License-Identifier: MIT
/*
 * The descriptions built so far, by key (event_info.h): an open-addressing
 * hash table under a reader-writer lock, shared by every thread of the
 * process.  Descriptions are never freed while the library is loaded: a
 * forgotten one (its manifest unloaded) moves to a retired list, so a
 * pointer a caller holds stays valid.  The table holds at most a few
 * thousand events in practice; it doubles when half full.
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "event_info.h"

struct slot {
	struct decode_key key;
	const struct decode_desc *desc;	/* NULL: empty */
};

struct retired {
	struct retired *next;
	const struct decode_desc *desc;
};

static pthread_rwlock_t lock = PTHREAD_RWLOCK_INITIALIZER;
static struct slot *slots;
static size_t nslots;			/* a power of two, or 0 */
static size_t used;
static struct retired *retired;

static bool same(const struct decode_key *a, const struct decode_key *b)
{
	return a->id == b->id && a->version == b->version &&
	       a->source == b->source && a->extra == b->extra &&
	       !memcmp(&a->guid, &b->guid, sizeof(a->guid));
}

static uint32_t hash(const struct decode_key *k)
{
	uint32_t h = decode_hash(&k->guid, sizeof(k->guid), DECODE_HASH_INIT);

	h = (h ^ k->id) * 16777619u;
	h = (h ^ k->version) * 16777619u;
	h = (h ^ k->source) * 16777619u;
	h = (h ^ k->extra) * 16777619u;
	return h ^ (h >> 15);
}

static struct slot *find(const struct decode_key *k)
{
	size_t i;

	if (!nslots)
		return NULL;
	for (i = hash(k) & (nslots - 1);; i = (i + 1) & (nslots - 1)) {
		if (!slots[i].desc || same(&slots[i].key, k))
			return &slots[i];
	}
}

const struct decode_desc *decode_cache_get(const struct decode_key *key)
{
	const struct slot *s;
	const struct decode_desc *d;

	pthread_rwlock_rdlock(&lock);
	s = find(key);
	d = s ? s->desc : NULL;
	pthread_rwlock_unlock(&lock);
	return d;
}

/* Double the table (called with the write lock); -ENOMEM. */
static int grow(void)
{
	size_t n = nslots ? nslots * 2 : 256;
	struct slot *old = slots, *s;
	size_t oldn = nslots;

	s = calloc(n, sizeof(*s));
	if (!s)
		return -ENOMEM;
	slots = s;
	nslots = n;
	for (size_t i = 0; i < oldn; i++)
		if (old[i].desc)
			*find(&old[i].key) = old[i];
	free(old);
	return 0;
}

const struct decode_desc *decode_cache_put(const struct decode_key *key,
					   struct decode_desc *d)
{
	const struct decode_desc *want = d ? d : DECODE_NONE;
	const struct decode_desc *have;
	struct slot *s;

	pthread_rwlock_wrlock(&lock);
	s = find(key);
	if (s && s->desc) {
		have = s->desc;
		pthread_rwlock_unlock(&lock);
		decode_desc_free(d);
		return have;
	}
	if ((used + 1) * 2 > nslots && grow()) {
		/* Not kept: the caller uses it this once. */
		pthread_rwlock_unlock(&lock);
		return want;
	}
	s = find(key);
	s->key = *key;
	s->desc = want;
	used++;
	pthread_rwlock_unlock(&lock);
	return want;
}

void decode_cache_forget(const GUID *provider)
{
	struct slot *old;
	size_t oldn;

	pthread_rwlock_wrlock(&lock);
	old = slots;
	oldn = nslots;
	slots = calloc(nslots ? nslots : 1, sizeof(*slots));
	if (!slots) {
		/* Keep them all rather than lose the table. */
		slots = old;
		pthread_rwlock_unlock(&lock);
		return;
	}
	used = 0;
	for (size_t i = 0; i < oldn; i++) {
		struct retired *r;

		if (!old[i].desc)
			continue;
		if (memcmp(&old[i].key.guid, provider, sizeof(*provider))) {
			*find(&old[i].key) = old[i];
			used++;
			continue;
		}
		if (old[i].desc == DECODE_NONE)
			continue;
		r = malloc(sizeof(*r));
		if (!r) {
			/* Leaked rather than freed under a reader. */
			continue;
		}
		r->desc = old[i].desc;
		r->next = retired;
		retired = r;
	}
	free(old);
	pthread_rwlock_unlock(&lock);
	decode_lookup_forget();
}
