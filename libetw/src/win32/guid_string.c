// SPDX-License-Identifier: MIT
/*
 * ole32's StringFromGUID2: "{XXXXXXXX-XXXX-XXXX-XXXX-XXXXXXXXXXXX}",
 * upper-case, 38 characters and the NUL; returns 39, or 0 when @cchMax
 * is smaller (nothing written), as its Learn page says.  StringFromCLSID
 * gives the same string in CoTaskMemAlloc'd memory.
 */
#include <stdio.h>

#include <windows.h>
#include <etw_win32.h>

#include "../common/internal.h"

ETW_EXPORT int WINAPI StringFromGUID2(REFGUID rguid, LPWSTR lpsz, int cchMax)
{
	const GUID *g = rguid;
	char buf[40];
	int i;

	if (!g || !lpsz || cchMax < 39)
		return 0;
	snprintf(buf, sizeof(buf),
		 "{%08X-%04X-%04X-%02X%02X-%02X%02X%02X%02X%02X%02X}",
		 g->Data1, g->Data2, g->Data3, g->Data4[0], g->Data4[1], g->Data4[2],
		 g->Data4[3], g->Data4[4], g->Data4[5], g->Data4[6], g->Data4[7]);
	for (i = 0; i < 39; i++)
		lpsz[i] = (WCHAR)buf[i];
	return 39;
}

ETW_EXPORT HRESULT WINAPI StringFromCLSID(REFCLSID rclsid, LPOLESTR *lplpsz)
{
	LPOLESTR s;

	if (!lplpsz)
		return E_INVALIDARG;
	*lplpsz = NULL;
	if (!rclsid)
		return E_INVALIDARG;
	s = CoTaskMemAlloc(39 * sizeof(WCHAR));
	if (!s)
		return E_OUTOFMEMORY;
	StringFromGUID2(rclsid, s, 39);
	*lplpsz = s;
	return S_OK;
}
