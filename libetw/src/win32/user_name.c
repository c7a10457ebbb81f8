// SPDX-License-Identifier: MIT
/*
 * advapi32's GetUserNameW/A: the login name of the process's effective
 * user (its passwd entry, else its uid in decimal).  *pcbBuffer counts
 * characters with the NUL in and out; a buffer too small is
 * ERROR_INSUFFICIENT_BUFFER with *pcbBuffer the size needed.
 */
#include <pwd.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <windows.h>
#include <etw_win32.h>

#include "../common/internal.h"
#include "../common/utf.h"

static int user_name(char *out, size_t size)
{
	struct passwd pw, *res = NULL;
	char buf[1024];

	if (!getpwuid_r(geteuid(), &pw, buf, sizeof(buf), &res) && res &&
	    res->pw_name && res->pw_name[0] && strlen(res->pw_name) < size) {
		strcpy(out, res->pw_name);
		return 0;
	}
	return snprintf(out, size, "%u", (unsigned int)geteuid()) < 0;
}

static BOOL give(size_t need, LPDWORD pcbBuffer, int room)
{
	if (!room) {
		*pcbBuffer = (DWORD)need;
		SetLastError(ERROR_INSUFFICIENT_BUFFER);
		return FALSE;
	}
	*pcbBuffer = (DWORD)need;
	return TRUE;
}

ETW_EXPORT BOOL WINAPI GetUserNameA(LPSTR lpBuffer, LPDWORD pcbBuffer)
{
	char name[UNLEN + 1];
	size_t need;

	if (!pcbBuffer || user_name(name, sizeof(name))) {
		SetLastError(ERROR_INVALID_PARAMETER);
		return FALSE;
	}
	need = strlen(name) + 1;
	if (!lpBuffer || *pcbBuffer < need)
		return give(need, pcbBuffer, 0);
	memcpy(lpBuffer, name, need);
	return give(need, pcbBuffer, 1);
}

ETW_EXPORT BOOL WINAPI GetUserNameW(LPWSTR lpBuffer, LPDWORD pcbBuffer)
{
	char name[UNLEN + 1];
	ssize_t len;

	if (!pcbBuffer || user_name(name, sizeof(name))) {
		SetLastError(ERROR_INVALID_PARAMETER);
		return FALSE;
	}
	len = etw_utf8_to_utf16(name, strlen(name), NULL, 0);
	if (len < 0) {
		SetLastError(ERROR_NO_UNICODE_TRANSLATION);
		return FALSE;
	}
	if (!lpBuffer || *pcbBuffer < (size_t)len + 1)
		return give((size_t)len + 1, pcbBuffer, 0);
	etw_utf8_to_utf16(name, strlen(name), (char16_t *)lpBuffer, *pcbBuffer);
	return give((size_t)len + 1, pcbBuffer, 1);
}
