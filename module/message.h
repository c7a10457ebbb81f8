/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The items of a MESSAGE_TRACE_HEADER record, which both of TraceMessage's
 * paths write (write_classic.c, write_message_fast.c).
 */
#ifndef _ETW_MESSAGE_H
#define _ETW_MESSAGE_H

#include <linux/sched.h>
#include <linux/string.h>

#include "etl.h"

/*
 * The items option flags @f ask for after the header at @hdr, in Windows'
 * order: sequence number, component id or GUID (from @guid), time stamp,
 * thread and process ids.  The sequence number and the time stamp are the
 * caller's to write, at *@seq_off and *@ts_off (-1: none).  Returns where
 * the arguments go.
 */
static __always_inline u8 *etw_message_items(u8 *hdr, u32 f, const u8 *guid,
					     int *seq_off, int *ts_off)
{
	u8 *p = hdr + sizeof(struct etl_message_header);
	u32 ids[2];

	*seq_off = -1;
	*ts_off = -1;
	if (f & ETW_MESSAGE_SEQUENCE) {
		*seq_off = p - hdr;
		p += 4;
	}
	if (f & ETW_MESSAGE_COMPONENTID) {
		memcpy(p, guid, 4);
		p += 4;
	} else if (f & ETW_MESSAGE_GUID) {
		memcpy(p, guid, 16);
		p += 16;
	}
	if (f & (ETW_MESSAGE_TIMESTAMP | ETW_MESSAGE_PERFORMANCE_TIMESTAMP)) {
		*ts_off = p - hdr;
		p += 8;
	}
	if (f & ETW_MESSAGE_SYSTEMINFO) {
		ids[0] = task_pid_nr(current);
		ids[1] = task_tgid_nr(current);
		memcpy(p, ids, sizeof(ids));
		p += sizeof(ids);
	}
	return p;
}

#endif /* _ETW_MESSAGE_H */
