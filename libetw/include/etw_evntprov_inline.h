/* SPDX-License-Identifier: MIT */
/*
 * The enable test of EventEnabled, EventProviderEnabled, EventWrite and
 * EventWriteTransfer, inlined into the caller (included by evntprov.h).
 *
 * A provider no session enables, and an event no session's level or
 * keywords accept, must cost next to nothing.  The functions are exported
 * by libetw as on Windows, but a call through the PLT into them costs tens
 * of instructions; these inline versions answer the disabled case in the
 * caller: the REGHANDLE names a slot of libetw's tables, whose state is
 * the registration's enable state in the read-only page the kernel
 * updates (while a private logger of the process enables the provider, a
 * state that sends every call to the library).  EventWrite also needs the slot's handle to match (so a stale
 * or bogus handle still gets ERROR_INVALID_HANDLE from the library);
 * EventEnabled answers FALSE for those anyway.
 * Any other case, and every argument error, is left to the exported
 * function, which therefore behaves as before; taking the address of
 * EventWrite still gives the exported function.
 *
 * The fields are read once each, without the page's sequence count: the
 * answer "disabled" rests on one field (the level, MatchAny, or Enabled),
 * so it always agrees with some state the registration had during the
 * call, as when the count is used.  "Enabled" is only a reason to call the library, which reads the
 * state consistently.  64-bit only (the keywords must be single loads);
 * define LIBETW_NO_INLINE_ENABLED to call the library always.
 */
#ifndef LIBETW_ETW_EVNTPROV_INLINE_H
#define LIBETW_ETW_EVNTPROV_INLINE_H

#ifdef __cplusplus
extern "C" {
#endif

/* struct etw_reg_state of <linux/etw.h>: one registration's enable state. */
struct _etwRegState {
	ULONG Seq;
	UCHAR Enabled;
	UCHAR Level;
	USHORT Reserved0;
	ULONGLONG MatchAny;
	ULONGLONG MatchAll;
	ULONGLONG Reserved1;
};

#define _ETW_MAX_REGS	1024	/* ETW_MAX_REGS_PER_FILE */

/*
 * libetw's registrations, slot reg_id % _ETW_MAX_REGS: the enable state
 * (never NULL: a slot never used points to a disabled state) and the
 * handle (while the slot is free, a value no handle that names the slot
 * has).  Two arrays, each loaded from with an index and no displacement,
 * and a mask keeps any REGHANDLE, forged ones too, inside them.  The
 * sizes are part of libetw's ABI.
 */
extern const struct _etwRegState *_etwRegState[_ETW_MAX_REGS];
extern ULONGLONG _etwRegHandle[_ETW_MAX_REGS];

#define _ETW_SLOT(RegHandle)	((ULONG)(RegHandle) & (_ETW_MAX_REGS - 1))

/*
 * EventWrite and EventWriteTransfer after the caller's own enable test
 * found the event enabled: the write only (the kernel filters per session
 * as always).  The handle must be one _etwRegHandle holds.
 */
ULONG EVNTAPI _etwEventWriteEnabled(REGHANDLE RegHandle,
				    PCEVENT_DESCRIPTOR EventDescriptor,
				    LPCGUID ActivityId,
				    LPCGUID RelatedActivityId,
				    ULONG UserDataCount,
				    PEVENT_DATA_DESCRIPTOR UserData);

#if defined(__GNUC__) && __SIZEOF_POINTER__ == 8 && \
	!defined(LIBETW_NO_INLINE_ENABLED)

/* Inline bodies only (GNU extern inline): the library has the symbols. */
#define _ETW_INLINE \
	extern __inline__ __attribute__((__gnu_inline__, __always_inline__))

/* What the inline test knows (seed 000's test on the aggregate state). */
#define _ETW_UNKNOWN	0	/* not a handle _etwRegHandle holds: ask libetw */
#define _ETW_DISABLED	1
#define _ETW_ENABLED	2

/*
 * The slot of a handle, a value the compiler cannot reuse from an earlier
 * call: what is loaded through it (the kernel and EventRegister change
 * it) is loaded afresh at every call, as with volatile, yet the loads can
 * be operands of the compares (a volatile load is a separate instruction).
 */
_ETW_INLINE ULONGLONG _etwSlot(REGHANDLE RegHandle)
{
	ULONGLONG slot = RegHandle & (_ETW_MAX_REGS - 1);

	__asm__ __volatile__("" : "+r"(slot));
	return slot;
}

/*
 * Seed 000's test on the aggregate state of whatever registration holds
 * the slot: FALSE means no session wants the event, if the handle is that
 * registration's.  A disabled state has every field 0 (see the uapi), so
 * an event with a level needs only the level compare, which a disabled
 * provider fails too, and one with keywords fails MatchAny.
 */
_ETW_INLINE int _etwSlotAllows(ULONGLONG Slot, UCHAR Level, ULONGLONG Keyword)
{
	const struct _etwRegState *st = _etwRegState[Slot];
	ULONGLONG all;

	if (Level ? Level > st->Level : !st->Enabled)
		return 0;
	if (!Keyword)
		return 1;
	if (!(Keyword & st->MatchAny))
		return 0;
	all = st->MatchAll;
	return (Keyword & all) == all;
}

/*
 * EventWrite's test: the handle must be the slot's (a stale or forged one
 * is the library's ERROR_INVALID_HANDLE), then the enable state.  Plain
 * loads suffice: a thread that has a handle got it through something that
 * ordered it after EventRegister published it, and a state pointer that
 * changes (to a state that sends every event to the library while a
 * private logger enables the provider) races with that enable as any
 * writer does.
 */
_ETW_INLINE int _etwEventState(REGHANDLE RegHandle, UCHAR Level,
			       ULONGLONG Keyword)
{
	ULONGLONG slot = _etwSlot(RegHandle);

	if (_etwRegHandle[slot] != RegHandle)
		return _ETW_UNKNOWN;
	return _etwSlotAllows(slot, Level, Keyword) ? _ETW_ENABLED :
						       _ETW_DISABLED;
}

/* The exported functions, under names the inline bodies can call. */
BOOLEAN EVNTAPI _etwEventEnabled(REGHANDLE, PCEVENT_DESCRIPTOR)
	__asm__("EventEnabled");
BOOLEAN EVNTAPI _etwEventProviderEnabled(REGHANDLE, UCHAR, ULONGLONG)
	__asm__("EventProviderEnabled");
ULONG EVNTAPI _etwEventWriteTransfer(REGHANDLE, PCEVENT_DESCRIPTOR, LPCGUID,
				     LPCGUID, ULONG, PEVENT_DATA_DESCRIPTOR)
	__asm__("EventWriteTransfer");

/*
 * An unknown handle is FALSE, as a disabled event is, so EventEnabled and
 * EventProviderEnabled need not check the handle to answer FALSE: one
 * masked index, one pointer, one byte (and the level and keywords when
 * they are asked for).  "Enabled" is answered by the library, which checks
 * the handle and reads the state consistently.
 */
_ETW_INLINE BOOLEAN EVNTAPI EventEnabled(REGHANDLE RegHandle,
					 PCEVENT_DESCRIPTOR EventDescriptor)
{
	if (!EventDescriptor ||
	    !_etwSlotAllows(_etwSlot(RegHandle), EventDescriptor->Level,
			    EventDescriptor->Keyword))
		return FALSE;
	return _etwEventEnabled(RegHandle, EventDescriptor);
}

_ETW_INLINE BOOLEAN EVNTAPI EventProviderEnabled(REGHANDLE RegHandle,
						 UCHAR Level,
						 ULONGLONG Keyword)
{
	if (!_etwSlotAllows(_etwSlot(RegHandle), Level, Keyword))
		return FALSE;
	return _etwEventProviderEnabled(RegHandle, Level, Keyword);
}

/* Arguments the library would reject still go to it. */
#define _ETW_WRITE_ARGS_OK(desc, count, data) \
	((desc) && (count) <= MAX_EVENT_DATA_DESCRIPTORS && (!(count) || (data)))

_ETW_INLINE ULONG EVNTAPI EventWriteTransfer(REGHANDLE RegHandle,
					     PCEVENT_DESCRIPTOR EventDescriptor,
					     LPCGUID ActivityId,
					     LPCGUID RelatedActivityId,
					     ULONG UserDataCount,
					     PEVENT_DATA_DESCRIPTOR UserData)
{
	if (_ETW_WRITE_ARGS_OK(EventDescriptor, UserDataCount, UserData)) {
		switch (_etwEventState(RegHandle, EventDescriptor->Level,
				       EventDescriptor->Keyword)) {
		case _ETW_DISABLED:
			return ERROR_SUCCESS;
		case _ETW_ENABLED:
			return _etwEventWriteEnabled(RegHandle, EventDescriptor,
						     ActivityId,
						     RelatedActivityId,
						     UserDataCount, UserData);
		}
	}
	return _etwEventWriteTransfer(RegHandle, EventDescriptor, ActivityId,
				      RelatedActivityId, UserDataCount,
				      UserData);
}

/* The library's EventWrite is EventWriteTransfer without activity ids. */
_ETW_INLINE ULONG EVNTAPI EventWrite(REGHANDLE RegHandle,
				     PCEVENT_DESCRIPTOR EventDescriptor,
				     ULONG UserDataCount,
				     PEVENT_DATA_DESCRIPTOR UserData)
{
	return EventWriteTransfer(RegHandle, EventDescriptor, NULL, NULL,
				  UserDataCount, UserData);
}

#undef _ETW_INLINE

#endif /* __GNUC__, 64-bit */

#ifdef __cplusplus
}
#endif

#endif /* LIBETW_ETW_EVNTPROV_INLINE_H */
