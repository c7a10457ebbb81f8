/* SPDX-License-Identifier: MIT */
/*
 * Guarded access to the caller's memory, for the writes that never enter
 * the kernel.  Windows returns ERROR_NOACCESS when TraceEvent or a
 * private logger meets a pointer it cannot read, catching the fault with
 * structured exception handling; the kernel's copy_from_user does the
 * same for module sessions.  etw_guarded() runs a function so that a
 * SIGSEGV or SIGBUS it raises returns ERROR_NOACCESS from etw_guarded();
 * every other fault goes to the handler that was there before libetw's,
 * or gets the default action.
 *
 * etw_guarded_copy() is the cheap one: on x86-64 a copy routine whose
 * faults the handler resumes at its error return (no sigsetjmp()), so
 * the private loggers' write path calls it per piece.
 *
 * The function must hold nothing a jump out of it would leak: a caller
 * that holds a lock or memory guards only the copy, and releases them
 * itself on ERROR_NOACCESS.  Guards nest.  No system call is made once
 * etw_guard_init() has installed the handler (one sigaction per process);
 * StartTrace of a private logger calls it, so no write path has to.
 */
#ifndef ETW_GUARD_H
#define ETW_GUARD_H

#include <windows.h>

void etw_guard_init(void);
ULONG etw_guarded(ULONG (*fn)(void *arg), void *arg);
ULONG etw_guarded_copy(void *dst, const void *src, size_t len);

#endif /* ETW_GUARD_H */
