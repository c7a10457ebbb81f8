// SPDX-License-Identifier: MIT
/*
 * TDH decoding handles: the parameters (TDH_CONTEXT) a consumer sets
 * once for the WPP decoding of later calls (TdhGetWppMessage,
 * TdhGetWppProperty): the TMF file, the TMF search path, GMT and the
 * pointer size.  The handle keeps them (paths copied) and makes its TMF
 * store and formatter from them when they are next needed.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include <etw_tmf.h>

#include "../common/internal.h"
#include "tdh_internal.h"

#define TDH_HANDLE_MAGIC	0x54444848u	/* "TDHH" */

struct tdh_handle {
	uint32_t magic;
	bool set[TDH_CONTEXT_MAXIMUM];
	TDH_CONTEXT ctx[TDH_CONTEXT_MAXIMUM];
	void *copy[TDH_CONTEXT_MAXIMUM];	/* strings the values point to */
	pthread_mutex_t lock;		/* the WPP state */
	bool stale;			/* parameters changed since it was made */
	struct tdh_wpp wpp;
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
	t->stale = true;
	pthread_mutex_init(&t->lock, NULL);
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
	etw_wpp_formatter_free(t->wpp.fmt);
	etw_tmf_store_free(t->wpp.store);
	pthread_mutex_destroy(&t->lock);
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
	pthread_mutex_lock(&t->lock);
	free(t->copy[type]);
	t->copy[type] = copy;
	t->ctx[type] = *TdhContext;
	if (copy)
		t->ctx[type].ParameterValue = (ULONGLONG)(uintptr_t)copy;
	t->set[type] = true;
	t->stale = true;
	pthread_mutex_unlock(&t->lock);
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

/* A string parameter as UTF-8 (malloc'd), NULL if unset; false: no memory. */
static bool param_utf8(struct tdh_handle *t, TDH_CONTEXT_TYPE type, char **out)
{
	ULONG err;

	*out = NULL;
	if (!t->set[type])
		return true;
	*out = tdh_utf8(t->copy[type], &err);
	return *out || err != ERROR_NOT_ENOUGH_MEMORY;
}

/* Make the store and formatter of the parameters; locked. */
static ULONG remake(struct tdh_handle *t)
{
	struct etw_wpp_options o = { .no_prefix = true };
	struct tdh_wpp w = { 0 };
	char *file, *path = NULL;
	ULONG err = ERROR_NOT_ENOUGH_MEMORY;

	w.gmt = t->set[TDH_CONTEXT_WPP_GMT] &&
		t->ctx[TDH_CONTEXT_WPP_GMT].ParameterValue;
	if (t->set[TDH_CONTEXT_POINTERSIZE])
		w.pointer_size = (unsigned int)t->ctx[TDH_CONTEXT_POINTERSIZE].ParameterValue;
	o.gmt = w.gmt;
	if (!param_utf8(t, TDH_CONTEXT_WPP_TMFFILE, &file) ||
	    !param_utf8(t, TDH_CONTEXT_WPP_TMFSEARCHPATH, &path) ||
	    etw_tmf_store_new(&w.store) || etw_wpp_formatter_new(&w.fmt, &o) ||
	    tdh_wpp_fill_store(w.store, file, path)) {
		etw_wpp_formatter_free(w.fmt);
		etw_tmf_store_free(w.store);
	} else {
		etw_wpp_formatter_free(t->wpp.fmt);
		etw_tmf_store_free(t->wpp.store);
		t->wpp = w;
		t->stale = false;
		err = ERROR_SUCCESS;
	}
	free(file);
	free(path);
	return err;
}

struct tdh_wpp *tdh_handle_wpp_lock(TDH_HANDLE h, ULONG *err)
{
	struct tdh_handle *t = handle_of(h);

	if (!t) {
		*err = ERROR_INVALID_PARAMETER;
		return NULL;
	}
	pthread_mutex_lock(&t->lock);
	if (t->stale) {
		*err = remake(t);
		if (*err) {
			pthread_mutex_unlock(&t->lock);
			return NULL;
		}
	}
	return &t->wpp;
}

void tdh_handle_wpp_unlock(TDH_HANDLE h)
{
	pthread_mutex_unlock(&((struct tdh_handle *)h)->lock);
}
