// SPDX-License-Identifier: GPL-2.0
/*
 * The enable-state page a process maps read-only: EventEnabled without a
 * system call.  (The notifications it read()s are in notify.c.)
 */
#include <linux/vmalloc.h>

#include "internal.h"

/* Allocate the file's state area once; ef->lock held. */
int etw_state_alloc(struct etw_file *ef)
{
	lockdep_assert_held(&ef->lock);
	if (ef->state)
		return 0;
	ef->state = vmalloc_user(ETW_MMAP_STATE_SIZE);
	return ef->state ? 0 : -ENOMEM;
}

static_assert(sizeof(struct etw_reg_state) == ETW_REG_STATE_SIZE);
static_assert(ETW_MMAP_STATE_SIZE % PAGE_SIZE == 0);

/*
 * Publish a registration's aggregate state, and for each level below
 * ETW_REG_STATE_LEVELS the keywords that can let an event of that level
 * pass (0 where the level fails), so that a caller tests a constant event
 * with one load.  Updates are serialised by etw_lock; readers in userspace
 * use @seq as a seqcount (see the uapi).
 */
void etw_state_set(struct etw_file *ef, u32 slot, bool enabled, u8 level,
		   u64 any, u64 all)
{
	struct etw_reg_state *st = &ef->state[slot];
	u32 seq = READ_ONCE(st->seq);
	unsigned int l;

	lockdep_assert_held(&etw_lock);
	WRITE_ONCE(st->seq, seq + 1);
	smp_wmb();	/* seq odd before the fields change */
	WRITE_ONCE(st->level, level);
	WRITE_ONCE(st->match_any, any);
	WRITE_ONCE(st->match_all, all);
	for (l = 0; l < ETW_REG_STATE_LEVELS; l++)
		WRITE_ONCE(st->match_any_at[l],
			   enabled && (!l || l <= level) ? any : 0);
	WRITE_ONCE(st->enabled, enabled);
	smp_wmb();	/* fields before seq even */
	WRITE_ONCE(st->seq, seq + 2);
}
