// SPDX-License-Identifier: MIT
/*
 * The table of event classes behind TRACE_GUID_REGISTRATION.RegHandle
 * (classic.h).  A handle is (generation << 16 | slot): slot 1..65535 in
 * chunks of 256 allocated on first use and never freed, the generation
 * telling a slot's successive classes apart.  Lookups are lock-free
 * (acquire loads); allocation and freeing take a mutex.  A class freed
 * while another thread still uses its handle reads a slot that stays
 * valid memory, as EventUnregister keeps its registrations.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>

#include "classic.h"

#define CLASS_CHUNK		256
#define CLASS_CHUNKS		256
#define CLASS_SLOTS		(CLASS_CHUNK * CLASS_CHUNKS)
#define CLASS_LIVE		1u	/* state: bit 0 live, generation above */

struct class_slot {
	_Atomic unsigned int state;
	GUID guid;
	_Atomic ULONG instance;
};

static _Atomic(struct class_slot *) chunks[CLASS_CHUNKS];
static pthread_mutex_t class_lock = PTHREAD_MUTEX_INITIALIZER;
/* Freed slots to reuse, then never used ones from next_unused. */
static unsigned int *free_slots;
static unsigned int nr_free, next_unused = 1;

static struct class_slot *slot_at(unsigned int index)
{
	struct class_slot *chunk;

	if (!index || index >= CLASS_SLOTS)
		return NULL;
	chunk = atomic_load_explicit(&chunks[index / CLASS_CHUNK],
				     memory_order_acquire);
	return chunk ? &chunk[index % CLASS_CHUNK] : NULL;
}

/* The live slot @h names, or NULL. */
static struct class_slot *slot_of(HANDLE h)
{
	uintptr_t v = (uintptr_t)h;
	struct class_slot *s;

	if ((uint64_t)v >> 32)
		return NULL;
	s = slot_at(v & 0xffff);
	if (!s || atomic_load_explicit(&s->state, memory_order_acquire) !=
		  ((unsigned int)(v >> 16 & 0xffff) << 1 | CLASS_LIVE))
		return NULL;
	return s;
}

/* A slot index to use; class_lock held.  0 if none is left. */
static unsigned int slot_take(void)
{
	struct class_slot *chunk;
	unsigned int index;

	if (nr_free)
		return free_slots[--nr_free];
	if (next_unused >= CLASS_SLOTS)
		return 0;
	index = next_unused;
	if (!slot_at(index)) {
		chunk = calloc(CLASS_CHUNK, sizeof(*chunk));
		if (!chunk)
			return 0;
		atomic_store_explicit(&chunks[index / CLASS_CHUNK], chunk,
				      memory_order_release);
	}
	next_unused++;
	return index;
}

HANDLE etw_class_new(const GUID *guid)
{
	struct class_slot *s;
	unsigned int index, gen;
	HANDLE h = NULL;

	pthread_mutex_lock(&class_lock);
	/* Room to put the slot back on the free list later. */
	if (!free_slots) {
		free_slots = calloc(CLASS_SLOTS, sizeof(*free_slots));
		if (!free_slots)
			goto out;
	}
	index = slot_take();
	if (!index)
		goto out;
	s = slot_at(index);
	/* A generation of 0 would make a handle of slot 1 look like 1. */
	gen = (atomic_load_explicit(&s->state, memory_order_relaxed) >> 1) + 1;
	gen &= 0xffff;
	if (!gen)
		gen = 1;
	s->guid = *guid;
	atomic_store_explicit(&s->instance, 0, memory_order_relaxed);
	atomic_store_explicit(&s->state, gen << 1 | CLASS_LIVE,
			      memory_order_release);
	h = (HANDLE)(uintptr_t)(gen << 16 | index);
out:
	pthread_mutex_unlock(&class_lock);
	return h;
}

void etw_class_free(HANDLE h)
{
	struct class_slot *s;

	pthread_mutex_lock(&class_lock);
	s = slot_of(h);
	if (s) {
		atomic_fetch_and_explicit(&s->state, ~CLASS_LIVE,
					  memory_order_release);
		free_slots[nr_free++] = (uintptr_t)h & 0xffff;
	}
	pthread_mutex_unlock(&class_lock);
}

bool etw_class_guid(HANDLE h, GUID *guid)
{
	struct class_slot *s = slot_of(h);

	if (s)
		*guid = s->guid;
	return s != NULL;
}

bool etw_class_next_instance(HANDLE h, ULONG *id)
{
	struct class_slot *s = slot_of(h);
	ULONG v;

	if (!s)
		return false;
	do
		v = atomic_fetch_add_explicit(&s->instance, 1,
					      memory_order_relaxed) + 1;
	while (!v);
	*id = v;
	return true;
}
