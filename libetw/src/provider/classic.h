/* SPDX-License-Identifier: MIT */
/*
 * What the classic provider files share (classic_register.c,
 * classic_class.c, classic_write.c).
 */
#ifndef LIBETW_CLASSIC_H
#define LIBETW_CLASSIC_H

#include <stdbool.h>

#include <windows.h>
#include <evntrace.h>

/*
 * Event classes: the TRACE_GUID_REGISTRATION entries of RegisterTraceGuids.
 * Their RegHandle is a HANDLE that names a slot of a table (never a
 * pointer libetw follows), so a stale or made-up handle is recognised
 * instead of read.  The table is process-wide and thread safe; a slot
 * keeps the class GUID and the counter CreateTraceInstanceId draws from.
 */

/* A new class for @guid; NULL when the table is full or memory is out. */
HANDLE etw_class_new(const GUID *guid);

/* Forget a class; its handle is invalid from then on. */
void etw_class_free(HANDLE h);

/* The class GUID of a live handle; false for anything else. */
bool etw_class_guid(HANDLE h, GUID *guid);

/* The next instance id of a live class (1, 2, ...; 0 is skipped). */
bool etw_class_next_instance(HANDLE h, ULONG *id);

#endif /* LIBETW_CLASSIC_H */
