// SPDX-License-Identifier: MIT
/*
 * EnumerateTraceGuids and EnumerateTraceGuidsEx: the providers the module
 * knows (registered by a process, enabled by a session, or both) through
 * ETW_IOC_PROVIDER_LIST and ETW_IOC_PROVIDER_INFO.  As on Windows, the
 * caller must be allowed to control sessions (ERROR_ACCESS_DENIED), a
 * provider enabled before any process registered it is one instance with
 * TRACE_PROVIDER_FLAG_PRE_ENABLE and Pid 0, and every instance carries
 * the enables of every session (a session enables a GUID, not a process).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <evntrace.h>

#include "controller.h"

/* The provider list, grown until it holds them all; 0 or -errno. */
static int provider_list(int fd, struct etw_provider_entry **out, __u32 *count)
{
	struct etw_provider_entry *e = NULL;
	__u32 max = 64;
	int tries, ret = -EAGAIN;

	for (tries = 0; tries < 8; tries++) {
		struct etw_provider_list l;
		void *p = realloc(e, max * sizeof(*e));

		if (!p) {
			ret = -ENOMEM;
			break;
		}
		e = p;
		memset(&l, 0, sizeof(l));
		l.size = sizeof(l);
		l.entries = (__u64)(uintptr_t)e;
		l.max = max;
		ret = etw_ioctl(fd, ETW_IOC_PROVIDER_LIST, &l);
		if (ret)
			break;
		if (l.total <= l.filled) {
			*out = e;
			*count = l.filled;
			return 0;
		}
		/* More appeared than fit: again, with room for some more. */
		max = l.total + 16;
		ret = -EAGAIN;
		if (max > ETW_PROVIDER_LIST_MAX) {
			ret = -E2BIG;
			break;
		}
	}
	free(e);
	return ret;
}

/* One provider's registrations and enables; 0 or -errno (-ENOENT). */
static int provider_info(int fd, const GUID *g, struct etw_provider_reg **regs,
			 __u32 *nr_regs, struct etw_provider_enable *en, __u32 *nr_en)
{
	struct etw_provider_reg *r = NULL;
	__u32 max = 16;
	int tries, ret = -EAGAIN;

	for (tries = 0; tries < 8; tries++) {
		struct etw_provider_info i;
		void *p = realloc(r, max * sizeof(*r));

		if (!p) {
			ret = -ENOMEM;
			break;
		}
		r = p;
		memset(&i, 0, sizeof(i));
		i.size = sizeof(i);
		memcpy(i.guid, g, sizeof(i.guid));
		i.regs = (__u64)(uintptr_t)r;
		i.max_regs = max;
		i.enables = (__u64)(uintptr_t)en;
		i.max_enables = ETW_MAX_SESSIONS_PER_PROVIDER;
		ret = etw_ioctl(fd, ETW_IOC_PROVIDER_INFO, &i);
		if (ret)
			break;
		if (i.nr_regs <= max) {
			*regs = r;
			*nr_regs = i.nr_regs;
			*nr_en = i.nr_enables < ETW_MAX_SESSIONS_PER_PROVIDER ?
				 i.nr_enables : ETW_MAX_SESSIONS_PER_PROVIDER;
			return 0;
		}
		max = i.nr_regs + 16;
		ret = -EAGAIN;
	}
	free(r);
	return ret;
}

static ULONG module_error(int ret)
{
	if (ret == -ENOENT)
		return ERROR_WMI_GUID_NOT_FOUND;
	return etw_win32_error(ret, ETW_ERR_CONTROL);
}

static ULONG enumerate(PTRACE_GUID_PROPERTIES *array, ULONG count, PULONG guid_count)
{
	struct etw_provider_entry *list = NULL;
	__u32 n, i;
	int fd, ret;

	/*
	 * The function's page calls a zero count invalid, but its own example
	 * passes 0 (with a valid array) to learn the count from
	 * ERROR_MORE_DATA; the example is what programs do, so 0 is allowed.
	 */
	if (!array || !guid_count)
		return ERROR_INVALID_PARAMETER;
	for (i = 0; i < count; i++)
		if (!array[i])
			return ERROR_INVALID_PARAMETER;
	fd = etw_device_fd();
	if (fd < 0)
		return etw_device_error(fd);
	ret = provider_list(fd, &list, &n);
	if (ret)
		return module_error(ret);
	for (i = 0; i < n && i < count; i++) {
		TRACE_GUID_PROPERTIES *t = array[i];

		memset(t, 0, sizeof(*t));
		memcpy(&t->Guid, list[i].guid, sizeof(t->Guid));
		t->GuidType = WMI_GUIDTYPE_TRACECONTROL;
		if (list[i].nr_enables) {
			struct etw_provider_enable en[ETW_MAX_SESSIONS_PER_PROVIDER];
			struct etw_provider_reg *regs = NULL;
			__u32 nr_regs, nr_en = 0;

			/* Gone since the list: reported as not enabled. */
			if (!provider_info(fd, &t->Guid, &regs, &nr_regs, en, &nr_en) &&
			    nr_en) {
				t->LoggerId = en[0].logger_id;
				t->EnableLevel = en[0].level;
				t->EnableFlags = (ULONG)en[0].match_any;
				t->IsEnable = TRUE;
			}
			free(regs);
		}
	}
	*guid_count = n;
	free(list);
	return n > count ? ERROR_MORE_DATA : ERROR_SUCCESS;
}

ETW_EXPORT ULONG WMIAPI EnumerateTraceGuids(PTRACE_GUID_PROPERTIES *GuidPropertiesArray,
					    ULONG PropertyArrayCount, PULONG GuidCount)
{
	return etw_ret(enumerate(GuidPropertiesArray, PropertyArrayCount, GuidCount));
}

/* TraceGuidQueryList, or with @own only the GUIDs this process registered. */
static ULONG query_list(int fd, int own, void *out, ULONG out_size, ULONG *ret_len)
{
	struct etw_provider_entry *list = NULL;
	__u32 n, i, k = 0;
	GUID *guids;
	int ret;

	ret = provider_list(fd, &list, &n);
	if (ret)
		return module_error(ret);
	guids = calloc(n ? n : 1, sizeof(GUID));
	if (!guids) {
		free(list);
		return ERROR_NOT_ENOUGH_MEMORY;
	}
	for (i = 0; i < n; i++) {
		if (own) {
			struct etw_provider_enable en[ETW_MAX_SESSIONS_PER_PROVIDER];
			struct etw_provider_reg *regs = NULL;
			__u32 nr_regs = 0, nr_en, j, mine = 0;

			if (!list[i].nr_regs ||
			    provider_info(fd, (const GUID *)list[i].guid, &regs, &nr_regs,
					  en, &nr_en))
				continue;
			for (j = 0; j < nr_regs; j++)
				mine |= regs[j].pid == (__u32)getpid();
			free(regs);
			if (!mine)
				continue;
		}
		memcpy(&guids[k++], list[i].guid, sizeof(GUID));
	}
	free(list);
	*ret_len = k * (ULONG)sizeof(GUID);
	if (out_size < *ret_len) {
		free(guids);
		return ERROR_INSUFFICIENT_BUFFER;
	}
	if (k)
		memcpy(out, guids, k * sizeof(GUID));
	free(guids);
	return ERROR_SUCCESS;
}

/* TraceGuidQueryInfo: TRACE_GUID_INFO, then each instance and its enables. */
static ULONG query_info(int fd, const GUID *g, void *out, ULONG out_size, ULONG *ret_len)
{
	struct etw_provider_enable en[ETW_MAX_SESSIONS_PER_PROVIDER];
	struct etw_provider_reg *regs = NULL;
	__u32 nr_regs, nr_en, inst, i, j;
	size_t per, need;
	char *p;
	int ret;

	ret = provider_info(fd, g, &regs, &nr_regs, en, &nr_en);
	if (ret)
		return module_error(ret);
	inst = nr_regs ? nr_regs : (nr_en ? 1 : 0);
	per = sizeof(TRACE_PROVIDER_INSTANCE_INFO) + nr_en * sizeof(TRACE_ENABLE_INFO);
	need = sizeof(TRACE_GUID_INFO) + inst * per;
	if (need > UINT32_MAX) {
		free(regs);
		return ERROR_NOT_ENOUGH_MEMORY;
	}
	*ret_len = (ULONG)need;
	if (out_size < need) {
		free(regs);
		return ERROR_INSUFFICIENT_BUFFER;
	}
	memset(out, 0, need);
	((TRACE_GUID_INFO *)out)->InstanceCount = inst;
	p = (char *)out + sizeof(TRACE_GUID_INFO);
	for (i = 0; i < inst; i++, p += per) {
		TRACE_PROVIDER_INSTANCE_INFO *pi = (TRACE_PROVIDER_INSTANCE_INFO *)p;
		TRACE_ENABLE_INFO *ei = (TRACE_ENABLE_INFO *)(pi + 1);

		pi->NextOffset = i + 1 < inst ? (ULONG)per : 0;
		pi->EnableCount = nr_en;
		if (nr_regs) {
			pi->Pid = regs[i].pid;
			if (regs[i].flags & ETW_PROVIDER_ENTRY_F_CLASSIC)
				pi->Flags |= TRACE_PROVIDER_FLAG_LEGACY;
		} else {
			pi->Flags = TRACE_PROVIDER_FLAG_PRE_ENABLE;
		}
		for (j = 0; j < nr_en; j++) {
			ei[j].IsEnabled = 1;
			ei[j].Level = en[j].level;
			ei[j].LoggerId = (USHORT)en[j].logger_id;
			ei[j].EnableProperty = en[j].enable_property;
			ei[j].MatchAnyKeyword = en[j].match_any;
			ei[j].MatchAllKeyword = en[j].match_all;
		}
	}
	free(regs);
	return ERROR_SUCCESS;
}

static ULONG enumerate_ex(TRACE_QUERY_INFO_CLASS cls, void *in, ULONG in_size,
			  void *out, ULONG out_size, ULONG *ret_len)
{
	int fd;

	if (!ret_len || (!out && out_size))
		return ERROR_INVALID_PARAMETER;
	*ret_len = 0;
	switch (cls) {
	case TraceGuidQueryList:
	case TraceGuidQueryProcess:
		if (in || in_size)
			return ERROR_INVALID_PARAMETER;
		break;
	case TraceGuidQueryInfo:
		if (!in || in_size != sizeof(GUID))
			return ERROR_INVALID_PARAMETER;
		break;
	case TraceGroupQueryList:
	case TraceGroupQueryInfo:
		return ERROR_NOT_SUPPORTED;	/* no provider groups here */
	default:
		return ERROR_INVALID_PARAMETER;
	}
	fd = etw_device_fd();
	if (fd < 0)
		return etw_device_error(fd);
	if (cls == TraceGuidQueryInfo)
		return query_info(fd, in, out, out_size, ret_len);
	return query_list(fd, cls == TraceGuidQueryProcess, out, out_size, ret_len);
}

ETW_EXPORT ULONG WMIAPI EnumerateTraceGuidsEx(TRACE_QUERY_INFO_CLASS TraceQueryInfoClass,
					      PVOID InBuffer, ULONG InBufferSize,
					      PVOID OutBuffer, ULONG OutBufferSize,
					      PULONG ReturnLength)
{
	return etw_ret(enumerate_ex(TraceQueryInfoClass, InBuffer, InBufferSize,
				    OutBuffer, OutBufferSize, ReturnLength));
}
