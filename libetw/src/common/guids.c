// SPDX-License-Identifier: MIT
/*
 * The well-known GUIDs evntrace.h declares (SystemTraceControlGuid,
 * EventTraceGuid...), defined once here as Windows' libraries do, so a
 * program can use them without including <initguid.h> itself.
 */
/* Exported from libetw.so, unlike the rest of what the library defines. */
#pragma GCC visibility push(default)
#include <initguid.h>
#include <evntrace.h>
#pragma GCC visibility pop
