// SPDX-License-Identifier: MIT
/*
 * EnableTrace, EnableTraceEx and EnableTraceEx2 over ETW_IOC_ENABLE: which
 * providers a session receives, at which level and keywords, with which
 * EnableProperty bits and filters.  The module applies an enable before
 * the ioctl returns (the providers' enable-state pages included); their
 * callbacks then run in their own processes.
 *
 * Filters: EVENT_FILTER_TYPE_PID, EVENT_FILTER_TYPE_EVENT_ID and
 * EVENT_FILTER_TYPE_PAYLOAD (TdhAggregatePayloadFilters' blob, at most
 * MAX_EVENT_FILTER_PAYLOAD_SIZE, checked by the module) are applied by
 * the module.  EVENT_FILTER_TYPE_SCHEMATIZED and the
 * provider-defined types (bit 31 clear, EVENT_FILTER_TYPE_NONE among
 * them) are for the providers' callbacks: the module keeps one per session
 * and hands it to the callbacks as FilterData (uapi etw_notification).
 * The other types Windows defines are refused with ERROR_NOT_SUPPORTED
 * rather than accepted and ignored; an unknown Windows type (bit 31 set)
 * is ERROR_INVALID_PARAMETER.  Limits, each ERROR_INVALID_PARAMETER:
 * FilterDescCount above MAX_EVENT_FILTERS_COUNT, a type twice, two
 * callback filters (a session gives a provider one), callback filter data
 * above MAX_EVENT_FILTER_DATA_SIZE, a schematized filter shorter than its
 * EVENT_FILTER_HEADER, a NULL Ptr with a non-zero Size.
 *
 * Timeout (EnableTraceEx2): 0 returns once the enable is in force; any
 * other value also waits, up to that many milliseconds (INFINITE: no
 * limit), until every provider registration it notified has run its
 * callback; ERROR_TIMEOUT if one did not (the enable stays in force).
 */
#include <errno.h>
#include <stdint.h>
#include <string.h>

#include <evntcons.h>

#include "controller.h"
#include "../common/logger_handle.h"
#include "../private_logger/private_logger.h"

/* Every EVENT_ENABLE_PROPERTY_* Windows defines. */
#define ENABLE_PROPERTY_KNOWN	0x00000fffu

/* A filter type in the seen-mask, one bit per type implemented. */
#define SEEN_PID		0x1u
#define SEEN_EVENT_ID		0x2u
#define SEEN_CALLBACK		0x4u	/* a filter for the callbacks */
#define SEEN_PAYLOAD		0x8u

/* GUID_NULL, which names no provider. */
static const GUID null_guid;

/* Windows' own filter types have bit 31 set; the others are providers'. */
#define FILTER_TYPE_SYSTEM	0x80000000u

/* Windows' types the module does not implement. */
static bool filter_type_known(ULONG type)
{
	switch (type) {
	case EVENT_FILTER_TYPE_SYSTEM_FLAGS:
	case EVENT_FILTER_TYPE_TRACEHANDLE:
	case EVENT_FILTER_TYPE_EXECUTABLE_NAME:
	case EVENT_FILTER_TYPE_PACKAGE_ID:
	case EVENT_FILTER_TYPE_PACKAGE_APP_ID:
	case EVENT_FILTER_TYPE_EVENT_NAME:
	case EVENT_FILTER_TYPE_STACKWALK:
	case EVENT_FILTER_TYPE_STACKWALK_NAME:
	case EVENT_FILTER_TYPE_STACKWALK_LEVEL_KW:
	case EVENT_FILTER_TYPE_CONTAINER:
		return true;
	default:
		return false;
	}
}

static ULONG filter_pid(const EVENT_FILTER_DESCRIPTOR *f, struct etw_enable *e)
{
	if (!f->Ptr || !f->Size || f->Size % sizeof(ULONG) ||
	    f->Size / sizeof(ULONG) > MAX_EVENT_FILTER_PID_COUNT)
		return ERROR_INVALID_PARAMETER;
	e->pid_count = f->Size / sizeof(ULONG);
	memcpy(e->pids, (const void *)(uintptr_t)f->Ptr, f->Size);
	return ERROR_SUCCESS;
}

static ULONG filter_event_id(const EVENT_FILTER_DESCRIPTOR *f,
			     struct etw_enable *e)
{
	const size_t head = offsetof(EVENT_FILTER_EVENT_ID, Events);
	EVENT_FILTER_EVENT_ID ids;

	if (!f->Ptr || f->Size < head || f->Size > MAX_EVENT_FILTER_DATA_SIZE)
		return ERROR_INVALID_PARAMETER;
	memcpy(&ids, (const void *)(uintptr_t)f->Ptr, head);
	if (!ids.Count || ids.Count > MAX_EVENT_FILTER_EVENT_ID_COUNT ||
	    f->Size < head + ids.Count * sizeof(USHORT))
		return ERROR_INVALID_PARAMETER;
	e->event_id_count = ids.Count;
	e->event_ids = f->Ptr + head;	/* the module copies them */
	e->event_ids_enable = ids.FilterIn ? 1 : 0;
	return ERROR_SUCCESS;
}

/* TdhAggregatePayloadFilters' blob: the module checks its contents. */
static ULONG filter_payload(const EVENT_FILTER_DESCRIPTOR *f, struct etw_enable *e)
{
	if (!f->Ptr || f->Size < sizeof(struct etw_pf_header) ||
	    f->Size > MAX_EVENT_FILTER_PAYLOAD_SIZE)
		return ERROR_INVALID_PARAMETER;
	e->flags |= ETW_ENABLE_F_PAYLOAD;
	e->payload_data = f->Ptr;
	e->payload_size = f->Size;
	return ERROR_SUCCESS;
}

/* A schematized or provider-defined filter, for the callbacks. */
static ULONG filter_callback(const EVENT_FILTER_DESCRIPTOR *f,
			     struct etw_enable *e)
{
	if (f->Size > MAX_EVENT_FILTER_DATA_SIZE || (f->Size && !f->Ptr))
		return ERROR_INVALID_PARAMETER;
	if (f->Type == EVENT_FILTER_TYPE_SCHEMATIZED &&
	    f->Size < sizeof(EVENT_FILTER_HEADER))
		return ERROR_INVALID_PARAMETER;
	e->flags |= ETW_ENABLE_F_FILTER;
	e->filter_type = f->Type;
	e->filter_size = f->Size;
	e->filter_data = f->Size ? f->Ptr : 0;
	return ERROR_SUCCESS;
}

static ULONG parse_filters(const EVENT_FILTER_DESCRIPTOR *f, ULONG count,
			   struct etw_enable *e)
{
	unsigned int seen = 0, bit;
	ULONG i, err;

	if (count > MAX_EVENT_FILTERS_COUNT || (count && !f))
		return ERROR_INVALID_PARAMETER;
	for (i = 0; i < count; i++) {
		switch (f[i].Type) {
		case EVENT_FILTER_TYPE_PID:
			bit = SEEN_PID;
			err = filter_pid(&f[i], e);
			break;
		case EVENT_FILTER_TYPE_EVENT_ID:
			bit = SEEN_EVENT_ID;
			err = filter_event_id(&f[i], e);
			break;
		case EVENT_FILTER_TYPE_PAYLOAD:
			bit = SEEN_PAYLOAD;
			err = filter_payload(&f[i], e);
			break;
		case EVENT_FILTER_TYPE_SCHEMATIZED:
			bit = SEEN_CALLBACK;
			err = filter_callback(&f[i], e);
			break;
		default:
			if (!(f[i].Type & FILTER_TYPE_SYSTEM)) {
				bit = SEEN_CALLBACK;
				err = filter_callback(&f[i], e);
				break;
			}
			return filter_type_known(f[i].Type) ?
				ERROR_NOT_SUPPORTED : ERROR_INVALID_PARAMETER;
		}
		/* Each type at most once per call. */
		if (seen & bit)
			return ERROR_INVALID_PARAMETER;
		if (err)
			return err;
		seen |= bit;
	}
	return ERROR_SUCCESS;
}

static ULONG enable_trace(CONTROLTRACE_ID TraceId, LPCGUID ProviderId,
			  ULONG ControlCode, UCHAR Level, ULONGLONG any,
			  ULONGLONG all, ULONG property, LPCGUID SourceId,
			  const EVENT_FILTER_DESCRIPTOR *filters, ULONG count,
			  ULONG timeout)
{
	struct etw_session_info info;
	struct etw_session_control c;
	struct etw_enable e;
	__u32 logger_id, tag;
	ULONG err;
	int fd, ret;

	/* GUID_NULL is refused as a NULL ProviderId is. */
	if (!ProviderId || IsEqualGUID(ProviderId, &null_guid) ||
	    ControlCode > EVENT_CONTROL_CODE_CAPTURE_STATE)
		return ERROR_INVALID_PARAMETER;
	if (property & ~ENABLE_PROPERTY_KNOWN)
		return ERROR_INVALID_PARAMETER;
	/* A provider group names many providers; the module knows none. */
	if (property & EVENT_ENABLE_PROPERTY_PROVIDER_GROUP)
		return ERROR_NOT_SUPPORTED;
	/*
	 * A private logger of this process: its providers are called back
	 * before this returns.  It applies level and keywords, not filters.
	 */
	if (etw_logger_is_private(TraceId))
		return count ? ERROR_NOT_SUPPORTED :
		       etw_private_enable(TraceId, ProviderId, ControlCode, Level,
					  any, all, property, SourceId);
	err = etw_trace_id_decode(TraceId, &logger_id, &tag);
	if (err)
		return err;

	memset(&e, 0, sizeof(e));
	e.size = sizeof(e);
	e.logger_id = logger_id;
	e.control_code = ControlCode;
	memcpy(e.guid, ProviderId, sizeof(e.guid));
	if (SourceId)
		memcpy(e.source_id, SourceId, sizeof(e.source_id));
	e.match_any = any;
	e.match_all = all;
	e.level = Level;
	/*
	 * The module applies every bit (extended items, IGNORE_KEYWORD_0,
	 * EXCLUDE_INPRIVATE); those without a Linux counterpart are accepted
	 * and have no effect (Documentation/design.rst).
	 */
	e.enable_property = property;
	e.timeout_ms = timeout;
	err = parse_filters(filters, count, &e);
	if (err)
		return err;

	fd = etw_device_fd();
	if (fd < 0)
		return etw_device_error(fd);
	if (tag) {
		/* Not a session that stopped and left its id to another. */
		memset(&c, 0, sizeof(c));
		c.size = sizeof(c);
		c.code = ETW_CONTROL_QUERY;
		c.logger_id = logger_id;
		ret = etw_ioctl(fd, ETW_IOC_SESSION_CONTROL, &c);
		info = c.info;
		if (!ret && !etw_trace_id_matches(&info, tag))
			ret = -ENOENT;
		if (ret)
			return etw_win32_error(ret, ETW_ERR_CONTROL);
	}
	ret = etw_ioctl(fd, ETW_IOC_ENABLE, &e);
	return etw_win32_error(ret, ETW_ERR_CONTROL);
}

ETW_EXPORT ULONG WMIAPI EnableTraceEx2(CONTROLTRACE_ID TraceId,
				       LPCGUID ProviderId, ULONG ControlCode,
				       UCHAR Level, ULONGLONG MatchAnyKeyword,
				       ULONGLONG MatchAllKeyword, ULONG Timeout,
				       PENABLE_TRACE_PARAMETERS EnableParameters)
{
	const ENABLE_TRACE_PARAMETERS *prm = EnableParameters;
	const EVENT_FILTER_DESCRIPTOR *filters = NULL;
	ULONG count = 0, property = 0;
	LPCGUID source = NULL;

	if (prm) {
		if (prm->Version != ENABLE_TRACE_PARAMETERS_VERSION &&
		    prm->Version != ENABLE_TRACE_PARAMETERS_VERSION_2)
			return etw_ret(ERROR_INVALID_PARAMETER);
		if (prm->ControlFlags)	/* reserved */
			return etw_ret(ERROR_INVALID_PARAMETER);
		property = prm->EnableProperty;
		source = &prm->SourceId;
		filters = prm->EnableFilterDesc;
		/* Version 1 has one optional filter and no FilterDescCount. */
		if (prm->Version == ENABLE_TRACE_PARAMETERS_VERSION)
			count = filters ? 1 : 0;
		else
			count = prm->FilterDescCount;
	}
	return etw_ret(enable_trace(TraceId, ProviderId, ControlCode, Level,
				    MatchAnyKeyword, MatchAllKeyword, property,
				    source, filters, count, Timeout));
}

ETW_EXPORT ULONG WMIAPI EnableTraceEx(LPCGUID ProviderId, LPCGUID SourceId,
				      CONTROLTRACE_ID TraceId, ULONG IsEnabled,
				      UCHAR Level, ULONGLONG MatchAnyKeyword,
				      ULONGLONG MatchAllKeyword,
				      ULONG EnableProperty,
				      PEVENT_FILTER_DESCRIPTOR EnableFilterDesc)
{
	/* IsEnabled is 1 or 0 here; capture state came with EnableTraceEx2. */
	if (IsEnabled > EVENT_CONTROL_CODE_ENABLE_PROVIDER)
		return etw_ret(ERROR_INVALID_PARAMETER);
	return etw_ret(enable_trace(TraceId, ProviderId, IsEnabled, Level,
				    MatchAnyKeyword, MatchAllKeyword,
				    EnableProperty, SourceId, EnableFilterDesc,
				    EnableFilterDesc ? 1 : 0, 0));
}

ETW_EXPORT ULONG WMIAPI EnableTrace(ULONG Enable, ULONG EnableFlag,
				    ULONG EnableLevel, LPCGUID ControlGuid,
				    CONTROLTRACE_ID TraceId)
{
	/* The classic flags are the low keyword bits of a manifest provider. */
	if (EnableLevel > 0xff)
		return etw_ret(ERROR_INVALID_PARAMETER);
	return etw_ret(enable_trace(TraceId, ControlGuid,
				    Enable ? EVENT_CONTROL_CODE_ENABLE_PROVIDER :
					     EVENT_CONTROL_CODE_DISABLE_PROVIDER,
				    (UCHAR)EnableLevel, EnableFlag, 0, 0, NULL,
				    NULL, 0, 0));
}
