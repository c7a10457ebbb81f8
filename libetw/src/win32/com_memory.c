// SPDX-License-Identifier: MIT
/*
 * ole32's task memory allocator, which StringFromCLSID's strings come
 * from: CoTaskMemAlloc and CoTaskMemFree are malloc and free (Learn: a
 * NULL pointer is freed as nothing; 0 bytes gives a valid pointer).
 */
#include <stdlib.h>

#include <windows.h>
#include <etw_win32.h>

#include "../common/internal.h"

ETW_EXPORT LPVOID WINAPI CoTaskMemAlloc(SIZE_T cb)
{
	return malloc(cb ? cb : 1);
}

ETW_EXPORT void WINAPI CoTaskMemFree(LPVOID pv)
{
	free(pv);
}
