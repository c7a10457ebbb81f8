/* SPDX-License-Identifier: MIT */
/*
 * The enable test of EventEnabled, EventProviderEnabled, EventWrite and
 * EventWriteTransfer, inlined into the caller (included by evntprov.h).
 *
 * A provider no session enables, and an event no session's level or
 * keywords accept, must cost next to nothing.  The functions are exported
 * by libetw as on Windows, but a call through the PLT into them costs tens
 * of instructions; these inline versions answer the disabled case in the
 * caller: the REGHANDLE's low bits name a slot of libetw's table, which
 * points to the registration's enable state in the read-only page the
 * kernel updates.  Any other case, and every argument error, is left to
 * the exported function, which therefore behaves as before; taking the
 * address of EventWrite still gives the exported function.
 *
 * The handle is not compared here.  A slot that holds no registration of
 * EventRegister (never used, unregistered, slot 0, a classic provider's)
 * points to a state that passes every test, as does one a private logger
 * of the process enables: the call goes to the library, which checks the
 * handle and returns ERROR_INVALID_HANDLE (EventWrite) or FALSE
 * (EventEnabled) for a bad one, as it always did.  So handle 0, a handle
 * never issued, and a handle unregistered before its slot is reused all
 * get ERROR_INVALID_HANDLE.  libetw reuses a freed slot as late as it can
 * (FIFO over 2047 slots, at most 1024 in use): only a stale or forged
 * handle whose slot a live registration holds now is tested against that
 * registration's state, and gets ERROR_SUCCESS from EventWrite where the
 * event is disabled for that registration.  Windows leaves the use of an
 * unregistered handle undefined.
 *
 * For a descriptor the compiler knows (a constant: the usual case) whose
 * Keyword is not 0 and Level is below 8, the test is one: Keyword against
 * the state's MatchAnyAt[Level] (see struct etw_reg_state), 0 when the
 * level fails.  Keyword 0 tests the level alone; other events make the
 * whole aggregate test.  "Enabled" is only a reason to call the library,
 * which reads the state consistently and makes seed 000's test in full.
 *
 * The fields are read once each, without the page's sequence count: the
 * answer "disabled" rests on one field, so it always agrees with some
 * state the registration had during the call, as when the count is used.
 * 64-bit only (the keywords must be single loads); define
 * LIBETW_NO_INLINE_ENABLED to call the library always.
 */
#ifndef LIBETW_ETW_EVNTPROV_INLINE_H
#define LIBETW_ETW_EVNTPROV_INLINE_H

#ifdef __cplusplus
extern "C" {
#endif

#define _ETW_LEVELS	8	/* ETW_REG_STATE_LEVELS */

/* struct etw_reg_state of <linux/etw.h>: one registration's enable state. */
struct _etwRegState {
	ULONG Seq;
	UCHAR Enabled;
	UCHAR Level;
	USHORT Reserved0;
	ULONGLONG MatchAny;
	ULONGLONG MatchAll;
	ULONGLONG Reserved1;
	ULONGLONG MatchAnyAt[_ETW_LEVELS];
};

/*
 * libetw's registrations: slot REGHANDLE % _ETW_SLOTS points to the
 * enable state (never NULL).  Slot 0 is never a registration's, and twice
 * as many slots as registrations (ETW_MAX_REGS_PER_FILE, 1024) let a freed
 * slot wait for 1023 others before it is reused.  One array, loaded from
 * with an index and no displacement; the mask keeps any REGHANDLE, forged
 * ones too, inside it.  The size is part of libetw's ABI.
 */
#define _ETW_SLOTS	2048

extern const struct _etwRegState *_etwRegState[_ETW_SLOTS];

#define _ETW_SLOT(RegHandle)	((ULONG)(RegHandle) & (_ETW_SLOTS - 1))

/*
 * EventWrite and EventWriteTransfer after the caller's own enable test
 * found the event maybe enabled: the library checks the handle and what
 * the inline test left open, then writes.
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

/*
 * The slot of a handle, a value the compiler cannot reuse from an earlier
 * call: what is loaded through it (the kernel and EventRegister change
 * it) is loaded afresh at every call, as with volatile, yet the loads can
 * be operands of the compares (a volatile load is a separate instruction).
 */
_ETW_INLINE ULONGLONG _etwSlot(REGHANDLE RegHandle)
{
	ULONGLONG slot = RegHandle & (_ETW_SLOTS - 1);

	__asm__ __volatile__("" : "+r"(slot));
	return slot;
}

/*
 * Seed 000's test on the aggregate state the slot points to: 0 means no
 * session wants the event (if the handle is the slot's registration's),
 * 1 "ask the library".  A disabled state has every field 0 (see the
 * uapi): a constant event of level < 8 with keywords needs only
 * MatchAnyAt[Level]; one without keywords only the level compare, which a
 * disabled provider fails too.
 */
_ETW_INLINE int _etwSlotAllows(ULONGLONG Slot, UCHAR Level, ULONGLONG Keyword)
{
	const struct _etwRegState *st = _etwRegState[Slot];
	ULONGLONG all;

	if (__builtin_constant_p(Level) && __builtin_constant_p(Keyword) &&
	    Keyword && Level < _ETW_LEVELS)
		return (Keyword & st->MatchAnyAt[Level]) != 0;
	if (Level ? Level > st->Level : !st->Enabled)
		return 0;
	if (!Keyword)
		return 1;
	if (!(Keyword & st->MatchAny))
		return 0;
	all = st->MatchAll;
	return (Keyword & all) == all;
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
 * FALSE is the answer for a disabled event and for a bad handle alike, so
 * EventEnabled and EventProviderEnabled answer it here; "maybe enabled"
 * is answered by the library, which checks the handle and reads the state
 * consistently.
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
		if (!_etwSlotAllows(_etwSlot(RegHandle), EventDescriptor->Level,
				    EventDescriptor->Keyword))
			return ERROR_SUCCESS;
		return _etwEventWriteEnabled(RegHandle, EventDescriptor,
					     ActivityId, RelatedActivityId,
					     UserDataCount, UserData);
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
