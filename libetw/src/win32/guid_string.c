// SPDX-License-Identifier: MIT
/*
 * ole32's StringFromGUID2: "{XXXXXXXX-XXXX-XXXX-XXXX-XXXXXXXXXXXX}",
 * upper-case, 38 characters and the NUL; returns 39, or 0 when @cchMax
 * is smaller (nothing written), as its Learn page says.  StringFromCLSID
 * gives the same string in CoTaskMemAlloc'd memory.
 */
#include <stdio.h>
#include <string.h>
#include <sys/random.h>

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

static int hexval(WCHAR c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* "{XXXXXXXX-XXXX-XXXX-XXXX-XXXXXXXXXXXX}", either case, exactly. */
static int parse_guid(LPCOLESTR s, GUID *g)
{
	static const char shape[] = "{________-____-____-____-____________}";
	unsigned char b[16];
	unsigned int i, n = 0;

	for (i = 0; i < sizeof(shape) - 1; i++)
		if (!s[i] || (shape[i] != '_' && s[i] != (WCHAR)shape[i]) ||
		    (shape[i] == '_' && hexval(s[i]) < 0))
			return -1;
	if (s[i])
		return -1;
	for (i = 1; n < 16; i++) {
		if (s[i] == '-')
			continue;
		b[n++] = (unsigned char)(hexval(s[i]) << 4 | hexval(s[i + 1]));
		i++;
	}
	g->Data1 = (ULONG)b[0] << 24 | (ULONG)b[1] << 16 | (ULONG)b[2] << 8 | b[3];
	g->Data2 = (USHORT)(b[4] << 8 | b[5]);
	g->Data3 = (USHORT)(b[6] << 8 | b[7]);
	memcpy(g->Data4, b + 8, 8);
	return 0;
}

/*
 * CLSIDFromString: NULL is CLSID_NULL; a string that is not a GUID is
 * CO_E_CLASSSTRING (ProgIDs come from the registry, which is not here).
 */
ETW_EXPORT HRESULT WINAPI CLSIDFromString(LPCOLESTR lpsz, LPCLSID pclsid)
{
	if (!pclsid)
		return E_INVALIDARG;
	if (!lpsz) {
		memset(pclsid, 0, sizeof(*pclsid));
		return S_OK;
	}
	if (parse_guid(lpsz, pclsid)) {
		memset(pclsid, 0, sizeof(*pclsid));
		return CO_E_CLASSSTRING;
	}
	return S_OK;
}

ETW_EXPORT HRESULT WINAPI IIDFromString(LPCOLESTR lpsz, LPIID lpiid)
{
	if (!lpiid)
		return E_INVALIDARG;
	if (!lpsz) {
		memset(lpiid, 0, sizeof(*lpiid));
		return S_OK;
	}
	return parse_guid(lpsz, lpiid) ? E_INVALIDARG : S_OK;
}

/* A version 4 (random) GUID, as CoCreateGuid makes. */
ETW_EXPORT HRESULT WINAPI CoCreateGuid(GUID *pguid)
{
	unsigned char b[16];

	if (!pguid)
		return E_INVALIDARG;
	if (getrandom(b, sizeof(b), 0) != (ssize_t)sizeof(b))
		return E_FAIL;
	pguid->Data1 = (ULONG)b[0] << 24 | (ULONG)b[1] << 16 | (ULONG)b[2] << 8 | b[3];
	pguid->Data2 = (USHORT)(b[4] << 8 | b[5]);
	pguid->Data3 = (USHORT)(((b[6] << 8 | b[7]) & 0x0FFF) | 0x4000);
	memcpy(pguid->Data4, b + 8, 8);
	pguid->Data4[0] = (BYTE)((pguid->Data4[0] & 0x3F) | 0x80);
	return S_OK;
}
