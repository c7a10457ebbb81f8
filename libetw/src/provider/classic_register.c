// SPDX-License-Identifier: MIT
/*
 * Classic providers (evntrace.h): RegisterTraceGuids, UnregisterTraceGuids,
 * the WMIDPREQUEST control callback, GetTraceLoggerHandle,
 * GetTraceEnableLevel, GetTraceEnableFlags and CreateTraceInstanceId.
 *
 * A classic provider is a registration of provider.c made with
 * ETW_REGISTER_F_CLASSIC: the module lets one session at a time enable it,
 * the newest enable winning (seed 004), and tells it that session's own
 * EnableLevel, EnableFlags and logger id.  Its notifications come here
 * instead of to a PENABLECALLBACK and become a call of the control
 * callback with WMI_ENABLE_EVENTS or WMI_DISABLE_EVENTS (WMI_CAPTURE_STATE
 * for a capture-state request) and a WNODE_HEADER whose HistoricalContext
 * is the logger handle (logger_handle.h), which is where
 * GetTraceLoggerHandle finds it.  Level and flags are not arguments of the
 * callback: GetTraceEnableLevel and GetTraceEnableFlags decode them from
 * the handle.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include <windows.h>
#include <evntrace.h>

#include "classic.h"
#include "../common/properties.h"
#include "../common/logger_handle.h"

/* One RegisterTraceGuids. */
struct classic_provider {
	struct classic_provider *next;
	TRACEGUID_HANDLE handle;
	WMIDPREQUEST callback;
	void *context;
	GUID control;
	/* The thread inside RegisterTraceGuids, while it delivers a pre-enable. */
	pthread_t registering;
	_Atomic bool pre_enabled;
	ULONG pre_enable_result;
	ULONG nclasses;
	HANDLE classes[];
};

/* The process's classic providers, for UnregisterTraceGuids. */
static pthread_mutex_t classic_lock = PTHREAD_MUTEX_INITIALIZER;
static struct classic_provider *classic_list;

/* A notification of the module for a classic provider: its callback. */
static void classic_notify(void *owner, const struct etw_notification *n)
{
	struct classic_provider *cp = owner;
	ULONG size = sizeof(WNODE_HEADER), code, ret;
	WNODE_HEADER w;

	memset(&w, 0, sizeof(w));
	w.BufferSize = sizeof(w);
	/* A private logger's id comes with its bit (provider.c). */
	w.HistoricalContext = etw_logger_handle((USHORT)n->logger_id, n->level,
						(ULONG)n->match_any,
						n->logger_id & ETW_LOGGER_PRIVATE);
	w.Guid = cp->control;
	w.Flags = WNODE_FLAG_TRACED_GUID;
	switch (n->control_code) {
	case EVENT_CONTROL_CODE_DISABLE_PROVIDER:
		code = WMI_DISABLE_EVENTS;
		break;
	case EVENT_CONTROL_CODE_ENABLE_PROVIDER:
		code = WMI_ENABLE_EVENTS;
		break;
	default:
		code = WMI_CAPTURE_STATE;
		break;
	}
	ret = cp->callback(code, cp->context, &size, &w);
	/* RegisterTraceGuids returns what the callback of a pre-enable did. */
	if (cp->pre_enabled && pthread_equal(cp->registering, pthread_self()))
		cp->pre_enable_result = ret;
}

static void classic_free(struct classic_provider *cp)
{
	ULONG i;

	for (i = 0; i < cp->nclasses; i++)
		etw_class_free(cp->classes[i]);
	free(cp);
}

static ULONG register_trace_guids(WMIDPREQUEST RequestAddress,
				  PVOID RequestContext, LPCGUID ControlGuid,
				  ULONG GuidCount,
				  PTRACE_GUID_REGISTRATION TraceGuidReg,
				  TRACEGUID_HANDLE *RegistrationHandle)
{
	struct classic_provider *cp;
	__u64 handle;
	ULONG i, err;

	if (!RegistrationHandle)
		return ERROR_INVALID_PARAMETER;
	*RegistrationHandle = 0;
	if (!RequestAddress || !ControlGuid || (GuidCount && !TraceGuidReg))
		return ERROR_INVALID_PARAMETER;
	for (i = 0; i < GuidCount; i++)
		if (!TraceGuidReg[i].Guid)
			return ERROR_INVALID_PARAMETER;
	cp = calloc(1, sizeof(*cp) + (size_t)GuidCount * sizeof(HANDLE));
	if (!cp)
		return ERROR_NOT_ENOUGH_MEMORY;
	cp->callback = RequestAddress;
	cp->context = RequestContext;
	cp->control = *ControlGuid;
	for (; cp->nclasses < GuidCount; cp->nclasses++) {
		HANDLE h = etw_class_new(TraceGuidReg[cp->nclasses].Guid);

		if (!h) {
			classic_free(cp);
			return ERROR_NOT_ENOUGH_MEMORY;
		}
		cp->classes[cp->nclasses] = h;
	}
	/* The callback of a pre-enable may already write instance events. */
	for (i = 0; i < GuidCount; i++)
		TraceGuidReg[i].RegHandle = cp->classes[i];

	cp->registering = pthread_self();
	cp->pre_enabled = true;
	err = etw_provider_register_as(ControlGuid, ETW_REGISTER_F_CLASSIC,
				       classic_notify, cp, &handle);
	cp->pre_enabled = false;
	if (err) {
		for (i = 0; i < GuidCount; i++)
			TraceGuidReg[i].RegHandle = NULL;
		classic_free(cp);
		return err;
	}
	cp->handle = handle;
	pthread_mutex_lock(&classic_lock);
	cp->next = classic_list;
	classic_list = cp;
	pthread_mutex_unlock(&classic_lock);
	*RegistrationHandle = handle;
	return cp->pre_enable_result;
}

ETW_EXPORT ULONG WMIAPI RegisterTraceGuidsW(WMIDPREQUEST RequestAddress,
					    PVOID RequestContext,
					    LPCGUID ControlGuid, ULONG GuidCount,
					    PTRACE_GUID_REGISTRATION TraceGuidReg,
					    LPCWSTR MofImagePath,
					    LPCWSTR MofResourceName,
					    TRACEGUID_HANDLE *RegistrationHandle)
{
	/* The MOF arguments have been ignored since Windows XP SP1. */
	return etw_ret(register_trace_guids(RequestAddress, RequestContext,
					    ControlGuid, GuidCount,
					    TraceGuidReg, RegistrationHandle));
}

ETW_EXPORT ULONG WMIAPI RegisterTraceGuidsA(WMIDPREQUEST RequestAddress,
					    PVOID RequestContext,
					    LPCGUID ControlGuid, ULONG GuidCount,
					    PTRACE_GUID_REGISTRATION TraceGuidReg,
					    LPCSTR MofImagePath,
					    LPCSTR MofResourceName,
					    TRACEGUID_HANDLE *RegistrationHandle)
{
	return etw_ret(register_trace_guids(RequestAddress, RequestContext,
					    ControlGuid, GuidCount,
					    TraceGuidReg, RegistrationHandle));
}

static ULONG unregister_trace_guids(TRACEGUID_HANDLE h)
{
	struct classic_provider **pp, *cp = NULL;
	ULONG err;

	if (!h)
		return ERROR_INVALID_PARAMETER;
	pthread_mutex_lock(&classic_lock);
	for (pp = &classic_list; *pp; pp = &(*pp)->next) {
		if ((*pp)->handle == h) {
			cp = *pp;
			*pp = cp->next;
			break;
		}
	}
	pthread_mutex_unlock(&classic_lock);
	if (!cp)
		return ERROR_INVALID_HANDLE;
	/* Returns once no callback of the provider runs, nor will. */
	err = etw_provider_unregister_as(h, classic_notify);
	classic_free(cp);
	return err;
}

ETW_EXPORT ULONG WMIAPI UnregisterTraceGuids(TRACEGUID_HANDLE RegistrationHandle)
{
	return etw_ret(unregister_trace_guids(RegistrationHandle));
}

/* INVALID_HANDLE_VALUE as a 64-bit handle, not sign extended (evntrace.h). */
#define INVALID_LOGGER_HANDLE	((TRACELOGGER_HANDLE)(ULONG_PTR)INVALID_HANDLE_VALUE)

ETW_EXPORT TRACELOGGER_HANDLE WMIAPI GetTraceLoggerHandle(PVOID Buffer)
{
	TRACELOGGER_HANDLE h;

	if (!Buffer) {
		SetLastError(ERROR_INVALID_PARAMETER);
		return INVALID_LOGGER_HANDLE;
	}
	h = ((const WNODE_HEADER *)Buffer)->HistoricalContext;
	if (etw_logger_id_invalid(h)) {
		SetLastError(ERROR_INVALID_HANDLE);
		return INVALID_LOGGER_HANDLE;
	}
	return h;
}

/* Level and flags: 0 on failure too, which only the last error tells. */
ETW_EXPORT UCHAR WMIAPI GetTraceEnableLevel(TRACELOGGER_HANDLE TraceHandle)
{
	if (etw_logger_id_invalid(TraceHandle)) {
		SetLastError(ERROR_INVALID_HANDLE);
		return 0;
	}
	return (UCHAR)(TraceHandle >> ETW_LOGGER_LEVEL_SHIFT);
}

ETW_EXPORT ULONG WMIAPI GetTraceEnableFlags(TRACELOGGER_HANDLE TraceHandle)
{
	if (etw_logger_id_invalid(TraceHandle)) {
		SetLastError(ERROR_INVALID_HANDLE);
		return 0;
	}
	return (ULONG)(TraceHandle >> ETW_LOGGER_FLAGS_SHIFT);
}

static ULONG create_trace_instance_id(HANDLE RegHandle,
				      PEVENT_INSTANCE_INFO InstInfo)
{
	ULONG id;

	if (!RegHandle || !InstInfo ||
	    !etw_class_next_instance(RegHandle, &id))
		return ERROR_INVALID_PARAMETER;
	InstInfo->RegHandle = RegHandle;
	InstInfo->InstanceId = id;
	return ERROR_SUCCESS;
}

ETW_EXPORT ULONG WMIAPI CreateTraceInstanceId(HANDLE RegHandle,
					      PEVENT_INSTANCE_INFO InstInfo)
{
	return etw_ret(create_trace_instance_id(RegHandle, InstInfo));
}
