// SPDX-License-Identifier: MIT
/*
 * TraceSetInformation and TraceQueryInformation: the settings of a system
 * logger that EVENT_TRACE_PROPERTIES has no room for.  What the kernel
 * keeps (EnableFlags with the other group masks, the stack list, the
 * profile interval, our own user stack copy) goes through ETW_IOC_TRACE_SET_INFO/QUERY_INFO; what
 * is fixed is answered here: the one profile source (the timer) and the
 * number of loggers.  Every other class is ERROR_NOT_SUPPORTED, as
 * Windows answers a class it does not know.
 *
 * Lengths are checked here first, in Windows' terms: below a class's
 * minimum is ERROR_BAD_LENGTH; a session that is not a system logger, or
 * a private one, is ERROR_INVALID_PARAMETER.
 */
#include <errno.h>
#include <string.h>

#include "controller.h"
#include "../common/logger_handle.h"

/* Windows' clamp of the sampling interval, in 100 ns units. */
#define ETW_PROFILE_MIN_INTERVAL	1221
#define ETW_PROFILE_MAX_INTERVAL	10000000

/* PERFINFO_GROUPMASK: 8 masks, the first the EnableFlags. */
#define ETW_GROUP_MASK_BYTES		(ETW_GROUP_MASKS * sizeof(ULONG))

static ULONG info_error(int err)
{
	switch (err) {
	case -EMSGSIZE:
		return ERROR_BAD_LENGTH;
	case -EOPNOTSUPP:
		return ERROR_NOT_SUPPORTED;
	default:
		return etw_win32_error(err, ETW_ERR_CONTROL);
	}
}

/* The logger id of a non-private session handle that still runs. */
static ULONG session_of(int fd, CONTROLTRACE_ID h, __u32 *logger_id)
{
	struct etw_session_control c;
	__u32 tag;
	ULONG err;

	if (etw_logger_is_private(h))
		return ERROR_INVALID_PARAMETER;	/* never a system logger */
	err = etw_trace_id_decode(h, logger_id, &tag);
	if (err)
		return err;
	memset(&c, 0, sizeof(c));
	c.size = sizeof(c);
	c.code = ETW_CONTROL_QUERY;
	c.logger_id = *logger_id;
	if (etw_ioctl(fd, ETW_IOC_SESSION_CONTROL, &c))
		return ERROR_WMI_INSTANCE_NOT_FOUND;
	if (!etw_trace_id_matches(&c.info, tag))
		return ERROR_WMI_INSTANCE_NOT_FOUND;
	return ERROR_SUCCESS;
}

/* One kernel request; @length in/out. */
static ULONG kernel_info(unsigned long cmd, CONTROLTRACE_ID h, __u32 cls,
			 void *data, ULONG *length)
{
	struct etw_trace_info ti;
	__u32 logger_id = 0;
	ULONG err;
	int fd, ret;

	fd = etw_device_fd();
	if (fd < 0)
		return etw_device_error(fd);
	if (cls != ETW_TRACE_PROFILE_INTERVAL_INFO) {
		err = session_of(fd, h, &logger_id);
		if (err)
			return err;
	}
	memset(&ti, 0, sizeof(ti));
	ti.size = sizeof(ti);
	ti.logger_id = logger_id;
	ti.info_class = cls;
	ti.data = (__u64)(uintptr_t)data;
	ti.length = *length;
	ret = etw_ioctl(fd, cmd, &ti);
	if (ret)
		return info_error(ret);
	*length = ti.length;
	return ERROR_SUCCESS;
}

static ULONG set_info(CONTROLTRACE_ID h, TRACE_INFO_CLASS cls, PVOID info,
		      ULONG len)
{
	ULONG n = len;

	if (len && !info)
		return ERROR_INVALID_PARAMETER;
	switch (cls) {
	case TraceSystemTraceEnableFlagsInfo:
		if (len < sizeof(ULONG))
			return ERROR_BAD_LENGTH;
		/* Masks past the eighth are not Windows' either. */
		if (n > ETW_GROUP_MASK_BYTES)
			n = ETW_GROUP_MASK_BYTES;
		n -= n % sizeof(ULONG);
		return kernel_info(ETW_IOC_TRACE_SET_INFO, h,
				   ETW_TRACE_ENABLE_FLAGS_INFO, info, &n);
	case TraceStackTracingInfo:
		if (len % sizeof(CLASSIC_EVENT_ID))
			return ERROR_BAD_LENGTH;
		if (len / sizeof(CLASSIC_EVENT_ID) > ETW_MAX_STACK_EVENT_IDS)
			return ERROR_INVALID_PARAMETER;
		return kernel_info(ETW_IOC_TRACE_SET_INFO, h,
				   ETW_TRACE_STACK_TRACING_INFO, info, &n);
	case TraceSampledProfileIntervalInfo:
		if (len < sizeof(TRACE_PROFILE_INTERVAL))
			return ERROR_BAD_LENGTH;
		n = sizeof(TRACE_PROFILE_INTERVAL);
		return kernel_info(ETW_IOC_TRACE_SET_INFO, h,
				   ETW_TRACE_PROFILE_INTERVAL_INFO, info, &n);
	case TraceStackCopyInfo:
		if (len < sizeof(TRACE_STACK_COPY))
			return ERROR_BAD_LENGTH;
		if (((TRACE_STACK_COPY *)info)->Size > TRACE_STACK_COPY_MAX)
			return ERROR_INVALID_PARAMETER;
		n = sizeof(TRACE_STACK_COPY);
		return kernel_info(ETW_IOC_TRACE_SET_INFO, h,
				   ETW_TRACE_STACK_COPY_INFO, info, &n);
	default:
		return ERROR_NOT_SUPPORTED;
	}
}

/* The one profile source: the timer. */
static ULONG profile_sources(PVOID info, ULONG len, ULONG *ret_len)
{
	static const WCHAR name[] = u"Timer";
	ULONG need = offsetof(PROFILE_SOURCE_INFO, Description) + sizeof(name);
	PROFILE_SOURCE_INFO *p = info;

	*ret_len = need;
	if (len < need)
		return ERROR_BAD_LENGTH;
	memset(p, 0, need);
	p->Source = 0;
	p->MinInterval = ETW_PROFILE_MIN_INTERVAL;
	p->MaxInterval = ETW_PROFILE_MAX_INTERVAL;
	memcpy(p->Description, name, sizeof(name));
	return ERROR_SUCCESS;
}

static ULONG query_info(CONTROLTRACE_ID h, TRACE_INFO_CLASS cls, PVOID info,
			ULONG len, PULONG ret_len)
{
	/* The stack list is at most 256 entries: ask for all of it. */
	CLASSIC_EVENT_ID ids[ETW_MAX_STACK_EVENT_IDS];
	ULONG masks[ETW_GROUP_MASKS];
	TRACE_PROFILE_INTERVAL iv;
	ULONG n, got = 0, err;

	if (len && !info)
		return ERROR_INVALID_PARAMETER;
	switch (cls) {
	case TraceSystemTraceEnableFlagsInfo:
		if (len < sizeof(ULONG))
			return ERROR_BAD_LENGTH;
		n = sizeof(masks);
		err = kernel_info(ETW_IOC_TRACE_QUERY_INFO, h,
				  ETW_TRACE_ENABLE_FLAGS_INFO, masks, &n);
		if (err)
			return err;
		got = len < n ? len - len % sizeof(ULONG) : n;
		memcpy(info, masks, got);
		break;
	case TraceStackTracingInfo:
		n = sizeof(ids);
		err = kernel_info(ETW_IOC_TRACE_QUERY_INFO, h,
				  ETW_TRACE_STACK_TRACING_INFO, ids, &n);
		if (err)
			return err;
		got = n;
		if (len < n) {
			if (ret_len)
				*ret_len = n;
			return ERROR_BAD_LENGTH;
		}
		memcpy(info, ids, n);
		break;
	case TraceSampledProfileIntervalInfo:
		if (len < sizeof(iv))
			return ERROR_BAD_LENGTH;
		n = sizeof(iv);
		err = kernel_info(ETW_IOC_TRACE_QUERY_INFO, h,
				  ETW_TRACE_PROFILE_INTERVAL_INFO, &iv, &n);
		if (err)
			return err;
		/* The caller names the source; only the timer has one. */
		if (((TRACE_PROFILE_INTERVAL *)info)->Source)
			return ERROR_NOT_SUPPORTED;
		((TRACE_PROFILE_INTERVAL *)info)->Interval = iv.Interval;
		got = sizeof(iv);
		break;
	case TraceStackCopyInfo:
		got = sizeof(TRACE_STACK_COPY);
		if (len < got) {
			if (ret_len)
				*ret_len = got;
			return ERROR_BAD_LENGTH;
		}
		n = got;
		err = kernel_info(ETW_IOC_TRACE_QUERY_INFO, h,
				  ETW_TRACE_STACK_COPY_INFO, info, &n);
		if (err)
			return err;
		break;
	case TraceProfileSourceListInfo:
		err = profile_sources(info, len, &got);
		if (ret_len)
			*ret_len = got;
		return err;
	case TraceMaxLoggersQuery:
		got = sizeof(ULONG);
		if (len < got) {
			if (ret_len)
				*ret_len = got;
			return ERROR_BAD_LENGTH;
		}
		*(ULONG *)info = ETW_MAX_SESSIONS;
		break;
	default:
		return ERROR_NOT_SUPPORTED;
	}
	if (ret_len)
		*ret_len = got;
	return ERROR_SUCCESS;
}

ETW_EXPORT ULONG WMIAPI TraceSetInformation(CONTROLTRACE_ID SessionHandle,
					    TRACE_INFO_CLASS InformationClass,
					    PVOID TraceInformation,
					    ULONG InformationLength)
{
	return etw_ret(set_info(SessionHandle, InformationClass,
				TraceInformation, InformationLength));
}

ETW_EXPORT ULONG WMIAPI TraceQueryInformation(CONTROLTRACE_ID SessionHandle,
					      TRACE_INFO_CLASS InformationClass,
					      PVOID TraceInformation,
					      ULONG InformationLength,
					      PULONG ReturnLength)
{
	return etw_ret(query_info(SessionHandle, InformationClass,
				  TraceInformation, InformationLength,
				  ReturnLength));
}
