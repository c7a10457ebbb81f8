// SPDX-License-Identifier: MIT
/*
 * advapi32's SID functions (sddl.h): the "S-R-I-S-S..." form of
 * [MS-DTYP] 2.4.2.1, the identifier authority in decimal when it fits
 * 32 bits and as 0x and 12 hex digits otherwise.  A SID with another
 * revision or more than 15 sub-authorities is ERROR_INVALID_SID.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <windows.h>
#include <etw_win32.h>
#include <sddl.h>

#include "../common/internal.h"
#include "crt.h"

ETW_EXPORT BOOL WINAPI IsValidSid(PSID psid)
{
	const SID *sid = psid;

	return sid && sid->Revision == SID_REVISION &&
	       sid->SubAuthorityCount <= SID_MAX_SUB_AUTHORITIES;
}

ETW_EXPORT DWORD WINAPI GetLengthSid(PSID psid)
{
	const SID *sid = psid;

	if (!IsValidSid(psid)) {
		SetLastError(ERROR_INVALID_SID);
		return 0;
	}
	return 8 + 4 * (DWORD)sid->SubAuthorityCount;
}

/* The string form, malloc'd (LocalFree frees it), or NULL with the error set. */
static char *sid_string(PSID psid)
{
	const SID *sid = psid;
	unsigned long long auth = 0;
	char *s, *p;
	int i;

	if (!IsValidSid(psid)) {
		SetLastError(ERROR_INVALID_SID);
		return NULL;
	}
	for (i = 0; i < 6; i++)
		auth = auth << 8 | sid->IdentifierAuthority.Value[i];
	s = malloc(16 + 24 + 11 * SID_MAX_SUB_AUTHORITIES);
	if (!s) {
		SetLastError(ERROR_NOT_ENOUGH_MEMORY);
		return NULL;
	}
	p = s + sprintf(s, auth >> 32 ? "S-%u-0x%012llX" : "S-%u-%llu",
			sid->Revision, auth);
	for (i = 0; i < sid->SubAuthorityCount; i++) {
		DWORD sub;

		/* Unaligned in event payloads: copied out, not dereferenced. */
		memcpy(&sub, (const char *)sid + 8 + 4 * i, sizeof(sub));
		p += sprintf(p, "-%u", sub);
	}
	return s;
}

ETW_EXPORT BOOL WINAPI ConvertSidToStringSidA(PSID psid, LPSTR *out)
{
	char *s;

	if (!out) {
		SetLastError(ERROR_INVALID_PARAMETER);
		return FALSE;
	}
	s = sid_string(psid);
	if (!s)
		return FALSE;
	*out = s;
	return TRUE;
}

ETW_EXPORT BOOL WINAPI ConvertSidToStringSidW(PSID psid, LPWSTR *out)
{
	char16_t *w;
	char *s;

	if (!out) {
		SetLastError(ERROR_INVALID_PARAMETER);
		return FALSE;
	}
	s = sid_string(psid);
	if (!s)
		return FALSE;
	w = etw_u8_to_u16_dup(s, strlen(s), NULL);
	free(s);
	if (!w) {
		SetLastError(ERROR_NOT_ENOUGH_MEMORY);
		return FALSE;
	}
	*out = (LPWSTR)w;
	return TRUE;
}
