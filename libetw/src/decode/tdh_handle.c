// SPDX-License-Identifier: MIT
/*
 * TDH decoding handles: the parameters (TDH_CONTEXT) a consumer sets
 * once for the WPP decoding of later calls.  WPP messages are not
 * decoded yet (their events are ERROR_NOT_FOUND), so the handle only
 * keeps what is set, as Windows does, and gives it back.
 */
#include <stdlib.h>
#include <string.h>

#include "../common/internal.h"
#include "tdh_internal.h"

#define TDH_HANDLE_MAGIC	0x54444848u	/* "TDHH" */

struct tdh_handle {
	uint32_t magic;
	bool set[TDH_CONTEXT_MAXIMUM];
	TDH_CONTEXT ctx[TDH_CONTEXT_MAXIMUM];
	void *copy[TDH_CONTEXT_MAXIMUM];	/* strings the values point to */
};

static struct tdh_handle *handle_of(TDH_HANDLE h)
{
	struct tdh_handle *t = h;

	return t && t->magic == TDH_HANDLE_MAGIC ? t : NULL;
}

ETW_EXPORT TDHSTATUS WINAPI TdhOpenDecodingHandle(PTDH_HANDLE Handle)
{
	struct tdh_handle *t;

	if (!Handle)
		return ERROR_INVALID_PARAMETER;
	t = calloc(1, sizeof(*t));
	if (!t)
		return ERROR_NOT_ENOUGH_MEMORY;
	t->magic = TDH_HANDLE_MAGIC;
	*Handle = t;
	return ERROR_SUCCESS;
}

ETW_EXPORT TDHSTATUS WINAPI TdhCloseDecodingHandle(TDH_HANDLE Handle)
{
	struct tdh_handle *t = handle_of(Handle);

	if (!t)
		return ERROR_INVALID_PARAMETER;
	for (int i = 0; i < TDH_CONTEXT_MAXIMUM; i++)
		free(t->copy[i]);
	t->magic = 0;
	free(t);
	return ERROR_SUCCESS;
}

/* The types whose value points to a UTF-16 string (paths). */
static bool is_string(TDH_CONTEXT_TYPE type)
{
	return type == TDH_CONTEXT_WPP_TMFFILE ||
	       type == TDH_CONTEXT_WPP_TMFSEARCHPATH ||
	       type == TDH_CONTEXT_PDB_PATH;
}

ETW_EXPORT TDHSTATUS WINAPI TdhSetDecodingParameter(TDH_HANDLE Handle,
						    PTDH_CONTEXT TdhContext)
{
	struct tdh_handle *t = handle_of(Handle);
	TDH_CONTEXT_TYPE type;
	void *copy = NULL;

	if (!t || !TdhContext ||
	    (unsigned int)TdhContext->ParameterType >= TDH_CONTEXT_MAXIMUM)
		return ERROR_INVALID_PARAMETER;
	type = TdhContext->ParameterType;
	if (type == TDH_CONTEXT_POINTERSIZE && TdhContext->ParameterValue != 4 &&
	    TdhContext->ParameterValue != 8)
		return ERROR_INVALID_PARAMETER;
	if (is_string(type)) {
		const WCHAR *s = (const WCHAR *)(uintptr_t)TdhContext->ParameterValue;
		size_t n = 0;

		if (!s)
			return ERROR_INVALID_PARAMETER;
		while (s[n])
			n++;
		copy = malloc((n + 1) * sizeof(WCHAR));
		if (!copy)
			return ERROR_NOT_ENOUGH_MEMORY;
		memcpy(copy, s, (n + 1) * sizeof(WCHAR));
	}
	free(t->copy[type]);
	t->copy[type] = copy;
	t->ctx[type] = *TdhContext;
	if (copy)
		t->ctx[type].ParameterValue = (ULONGLONG)(uintptr_t)copy;
	t->set[type] = true;
	return ERROR_SUCCESS;
}

ETW_EXPORT TDHSTATUS WINAPI TdhGetDecodingParameter(TDH_HANDLE Handle,
						    PTDH_CONTEXT TdhContext)
{
	struct tdh_handle *t = handle_of(Handle);
	TDH_CONTEXT_TYPE type;

	if (!t || !TdhContext ||
	    (unsigned int)TdhContext->ParameterType >= TDH_CONTEXT_MAXIMUM)
		return ERROR_INVALID_PARAMETER;
	type = TdhContext->ParameterType;
	if (!t->set[type])
		return ERROR_NOT_FOUND;
	*TdhContext = t->ctx[type];
	return ERROR_SUCCESS;
}
