// SPDX-License-Identifier: GPL-2.0
/*
 * EnumerateTraceGuids and EnumerateTraceGuidsEx over the module's
 * provider list (ETW_IOC_PROVIDER_LIST/INFO): providers appear when a
 * process registers them or a session enables them and go when neither
 * is left; each instance's pid, the legacy and pre-enable flags, every
 * session's level and keywords; the sizes and Win32 errors Windows gives
 * (ERROR_MORE_DATA, ERROR_INSUFFICIENT_BUFFER, ERROR_WMI_GUID_NOT_FOUND,
 * ERROR_ACCESS_DENIED for a caller that may not control sessions).
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>

#include <windows.h>
#include <evntprov.h>
#include <evntrace.h>

#include "kselftest_harness.h"
#include "etw_selftests.h"

struct pbuf {
	EVENT_TRACE_PROPERTIES p;
	char names[1024];
};

static ULONG start(const char *name, CONTROLTRACE_ID *h)
{
	struct pbuf b;

	memset(&b, 0, sizeof(b));
	b.p.Wnode.BufferSize = sizeof(b);
	b.p.Wnode.Flags = WNODE_FLAG_TRACED_GUID;
	b.p.Wnode.ClientContext = 1;
	b.p.LogFileMode = EVENT_TRACE_REAL_TIME_MODE;
	b.p.LoggerNameOffset = sizeof(b.p);
	return StartTraceA(h, name, &b.p);
}

static ULONG stop(CONTROLTRACE_ID h)
{
	struct pbuf b;

	memset(&b, 0, sizeof(b));
	b.p.Wnode.BufferSize = sizeof(b);
	b.p.LoggerNameOffset = sizeof(b.p);
	return ControlTraceA(h, NULL, &b.p, EVENT_TRACE_CONTROL_STOP);
}

static void test_guid(GUID *g, unsigned char n)
{
	etw_test_guid((__u8 *)g, n);
	g->Data2 = 0xe9e9;	/* apart from the other tests' GUIDs */
}

/* Is @g in the TraceGuidQueryList (or Process) answer? -1 on error. */
static int listed(TRACE_QUERY_INFO_CLASS cls, const GUID *g)
{
	ULONG len = 0, i, rc;
	GUID *all;
	int found = 0;

	rc = EnumerateTraceGuidsEx(cls, NULL, 0, NULL, 0, &len);
	if (rc != ERROR_INSUFFICIENT_BUFFER && rc != ERROR_SUCCESS)
		return -1;
	all = malloc(len + sizeof(GUID));
	if (!all)
		return -1;
	rc = EnumerateTraceGuidsEx(cls, NULL, 0, all, len + sizeof(GUID), &len);
	if (rc != ERROR_SUCCESS || len % sizeof(GUID)) {
		free(all);
		return -1;
	}
	for (i = 0; i < len / sizeof(GUID); i++)
		found |= IsEqualGUID(&all[i], g);
	free(all);
	return found;
}

FIXTURE(eg)
{
	int fd;
	GUID guid;
};

FIXTURE_SETUP(eg)
{
	self->fd = etw_open_or_skip(_metadata);
	etw_stop_test_sessions(self->fd);
	test_guid(&self->guid, 1);
}

FIXTURE_TEARDOWN(eg)
{
	etw_stop_test_sessions(self->fd);
	close(self->fd);
}

TEST_F(eg, registered_listed_then_gone)
{
	REGHANDLE reg;

	EXPECT_EQ(0, listed(TraceGuidQueryList, &self->guid));
	ASSERT_EQ(ERROR_SUCCESS, EventRegister(&self->guid, NULL, NULL, &reg));
	EXPECT_EQ(1, listed(TraceGuidQueryList, &self->guid));
	EXPECT_EQ(1, listed(TraceGuidQueryProcess, &self->guid));
	EXPECT_EQ(ERROR_SUCCESS, EventUnregister(reg));
	EXPECT_EQ(0, listed(TraceGuidQueryList, &self->guid));
	EXPECT_EQ(0, listed(TraceGuidQueryProcess, &self->guid));
}

TEST_F(eg, info_instance_and_enables)
{
	union {
		TRACE_GUID_INFO gi;
		char b[1024];
	} out;
	TRACE_PROVIDER_INSTANCE_INFO *pi = (void *)(out.b + sizeof(TRACE_GUID_INFO));
	TRACE_ENABLE_INFO *ei = (void *)(pi + 1);
	CONTROLTRACE_ID h1, h2;
	REGHANDLE reg;
	ULONG len = 0;

	ASSERT_EQ(ERROR_SUCCESS, EventRegister(&self->guid, NULL, NULL, &reg));
	ASSERT_EQ(ERROR_SUCCESS, start("etwtest-eg-1", &h1));
	ASSERT_EQ(ERROR_SUCCESS, start("etwtest-eg-2", &h2));
	ASSERT_EQ(ERROR_SUCCESS, EnableTraceEx2(h1, &self->guid, EVENT_CONTROL_CODE_ENABLE_PROVIDER,
						4, 0x30, 0x10, 0, NULL));
	ASSERT_EQ(ERROR_SUCCESS, EnableTraceEx2(h2, &self->guid, EVENT_CONTROL_CODE_ENABLE_PROVIDER,
						2, 0x1, 0, 0, NULL));

	/* The size first: a GUID_INFO, one instance, two enables. */
	EXPECT_EQ(ERROR_INSUFFICIENT_BUFFER,
		  EnumerateTraceGuidsEx(TraceGuidQueryInfo, &self->guid, sizeof(GUID),
					out.b, 8, &len));
	EXPECT_EQ(ERROR_INSUFFICIENT_BUFFER, GetLastError());
	EXPECT_EQ(sizeof(TRACE_GUID_INFO) + sizeof(*pi) + 2 * sizeof(*ei), len);

	memset(&out, 0xcc, sizeof(out));
	ASSERT_EQ(ERROR_SUCCESS,
		  EnumerateTraceGuidsEx(TraceGuidQueryInfo, &self->guid, sizeof(GUID),
					out.b, sizeof(out), &len));
	EXPECT_EQ(1, out.gi.InstanceCount);
	EXPECT_EQ(0, pi->NextOffset);
	EXPECT_EQ(2, pi->EnableCount);
	EXPECT_EQ((ULONG)getpid(), pi->Pid);
	EXPECT_EQ(0, pi->Flags);
	/* Either order: find the first session's. */
	if (ei[0].LoggerId != (USHORT)h1)
		ei++;
	EXPECT_EQ((USHORT)h1, ei->LoggerId);
	EXPECT_EQ(1, ei->IsEnabled);
	EXPECT_EQ(4, ei->Level);
	EXPECT_EQ(0x30, ei->MatchAnyKeyword);
	EXPECT_EQ(0x10, ei->MatchAllKeyword);

	/* A second registration is a second instance, NextOffset chaining them. */
	{
		REGHANDLE reg2;
		TRACE_PROVIDER_INSTANCE_INFO *p2;

		ASSERT_EQ(ERROR_SUCCESS, EventRegister(&self->guid, NULL, NULL, &reg2));
		ASSERT_EQ(ERROR_SUCCESS,
			  EnumerateTraceGuidsEx(TraceGuidQueryInfo, &self->guid, sizeof(GUID),
						out.b, sizeof(out), &len));
		EXPECT_EQ(2, out.gi.InstanceCount);
		EXPECT_EQ(sizeof(*pi) + 2 * sizeof(*ei), pi->NextOffset);
		p2 = (void *)((char *)pi + pi->NextOffset);
		EXPECT_EQ(0, p2->NextOffset);
		EXPECT_EQ((ULONG)getpid(), p2->Pid);
		EXPECT_EQ(2, p2->EnableCount);
		EXPECT_EQ(ERROR_SUCCESS, EventUnregister(reg2));
	}
	EXPECT_EQ(ERROR_SUCCESS, stop(h1));
	EXPECT_EQ(ERROR_SUCCESS, stop(h2));
	EXPECT_EQ(ERROR_SUCCESS, EventUnregister(reg));
}

static ULONG WINAPI classic_cb(WMIDPREQUESTCODE code, PVOID ctx, ULONG *size, PVOID buf)
{
	return ERROR_SUCCESS;
}

TEST_F(eg, pre_enabled_and_legacy)
{
	union {
		TRACE_GUID_INFO gi;
		char b[256];
	} out;
	TRACE_PROVIDER_INSTANCE_INFO *pi = (void *)(out.b + sizeof(TRACE_GUID_INFO));
	TRACE_GUID_REGISTRATION tr = { &self->guid, NULL };
	TRACEGUID_HANDLE th;
	CONTROLTRACE_ID h;
	ULONG len;

	ASSERT_EQ(ERROR_SUCCESS, start("etwtest-eg-pre", &h));
	ASSERT_EQ(ERROR_SUCCESS, EnableTraceEx2(h, &self->guid, EVENT_CONTROL_CODE_ENABLE_PROVIDER,
						5, 0, 0, 0, NULL));
	/* Enabled, not registered: one instance, no process. */
	EXPECT_EQ(1, listed(TraceGuidQueryList, &self->guid));
	EXPECT_EQ(0, listed(TraceGuidQueryProcess, &self->guid));
	ASSERT_EQ(ERROR_SUCCESS,
		  EnumerateTraceGuidsEx(TraceGuidQueryInfo, &self->guid, sizeof(GUID),
					out.b, sizeof(out), &len));
	EXPECT_EQ(1, out.gi.InstanceCount);
	EXPECT_EQ(TRACE_PROVIDER_FLAG_PRE_ENABLE, pi->Flags);
	EXPECT_EQ(0, pi->Pid);
	EXPECT_EQ(1, pi->EnableCount);

	/* A classic registration is legacy. */
	ASSERT_EQ(ERROR_SUCCESS, RegisterTraceGuidsA(classic_cb, NULL, &self->guid, 1,
						     &tr, NULL, NULL, &th));
	ASSERT_EQ(ERROR_SUCCESS,
		  EnumerateTraceGuidsEx(TraceGuidQueryInfo, &self->guid, sizeof(GUID),
					out.b, sizeof(out), &len));
	EXPECT_EQ(1, out.gi.InstanceCount);
	EXPECT_EQ(TRACE_PROVIDER_FLAG_LEGACY, pi->Flags);
	EXPECT_EQ((ULONG)getpid(), pi->Pid);
	EXPECT_EQ(ERROR_SUCCESS, UnregisterTraceGuids(th));
	EXPECT_EQ(ERROR_SUCCESS, stop(h));
	/* Neither registered nor enabled: unknown. */
	EXPECT_EQ(ERROR_WMI_GUID_NOT_FOUND,
		  EnumerateTraceGuidsEx(TraceGuidQueryInfo, &self->guid, sizeof(GUID),
					out.b, sizeof(out), &len));
}

TEST_F(eg, legacy_enumerate)
{
	TRACE_GUID_PROPERTIES props[256], *ptrs[256];
	CONTROLTRACE_ID h;
	REGHANDLE reg, reg2;
	GUID g2;
	ULONG n = 0, i;
	int seen = 0;

	test_guid(&g2, 2);
	for (i = 0; i < 256; i++)
		ptrs[i] = &props[i];
	ASSERT_EQ(ERROR_SUCCESS, EventRegister(&self->guid, NULL, NULL, &reg));
	ASSERT_EQ(ERROR_SUCCESS, EventRegister(&g2, NULL, NULL, &reg2));
	ASSERT_EQ(ERROR_SUCCESS, start("etwtest-eg-legacy", &h));
	ASSERT_EQ(ERROR_SUCCESS, EnableTraceEx2(h, &self->guid, EVENT_CONTROL_CODE_ENABLE_PROVIDER,
						3, 0x8000000000000005ULL, 0, 0, NULL));

	/* No slot, as the function's Learn example asks for the count. */
	EXPECT_EQ(ERROR_MORE_DATA, EnumerateTraceGuids(ptrs, 0, &n));
	EXPECT_LE(2, n);
	/* One slot for two providers or more: ERROR_MORE_DATA and the count. */
	EXPECT_EQ(ERROR_MORE_DATA, EnumerateTraceGuids(ptrs, 1, &n));
	EXPECT_LE(2, n);
	ASSERT_EQ(ERROR_SUCCESS, EnumerateTraceGuids(ptrs, 256, &n));
	for (i = 0; i < n; i++) {
		if (IsEqualGUID(&props[i].Guid, &self->guid)) {
			seen |= 1;
			EXPECT_EQ(TRUE, props[i].IsEnable);
			EXPECT_EQ((ULONG)(USHORT)h, props[i].LoggerId);
			EXPECT_EQ(3, props[i].EnableLevel);
			EXPECT_EQ(5, props[i].EnableFlags);	/* the low 32 bits */
			EXPECT_EQ(WMI_GUIDTYPE_TRACECONTROL, props[i].GuidType);
		} else if (IsEqualGUID(&props[i].Guid, &g2)) {
			seen |= 2;
			EXPECT_EQ(FALSE, props[i].IsEnable);
			EXPECT_EQ(0, props[i].LoggerId);
		}
	}
	EXPECT_EQ(3, seen);
	EXPECT_EQ(ERROR_SUCCESS, stop(h));
	EXPECT_EQ(ERROR_SUCCESS, EventUnregister(reg));
	EXPECT_EQ(ERROR_SUCCESS, EventUnregister(reg2));
}

TEST_F(eg, bad_arguments)
{
	TRACE_GUID_PROPERTIES p, *pp[2] = { &p, NULL };
	char out[64];
	ULONG len, n;

	EXPECT_EQ(ERROR_INVALID_PARAMETER,
		  EnumerateTraceGuidsEx(TraceGuidQueryList, NULL, 0, out, sizeof(out), NULL));
	EXPECT_EQ(ERROR_INVALID_PARAMETER,
		  EnumerateTraceGuidsEx(TraceGuidQueryList, NULL, 0, NULL, 16, &len));
	EXPECT_EQ(ERROR_INVALID_PARAMETER,
		  EnumerateTraceGuidsEx(TraceGuidQueryList, &self->guid, sizeof(GUID),
					out, sizeof(out), &len));
	EXPECT_EQ(ERROR_INVALID_PARAMETER,
		  EnumerateTraceGuidsEx(TraceGuidQueryInfo, &self->guid, 8, out,
					sizeof(out), &len));
	EXPECT_EQ(ERROR_INVALID_PARAMETER,
		  EnumerateTraceGuidsEx(TraceGuidQueryInfo, NULL, sizeof(GUID), out,
					sizeof(out), &len));
	EXPECT_EQ(ERROR_NOT_SUPPORTED,
		  EnumerateTraceGuidsEx(TraceGroupQueryList, NULL, 0, out, sizeof(out), &len));
	EXPECT_EQ(ERROR_INVALID_PARAMETER,
		  EnumerateTraceGuidsEx(TraceStackTracingInfo, NULL, 0, out, sizeof(out), &len));
	EXPECT_EQ(ERROR_INVALID_PARAMETER, GetLastError());
	EXPECT_EQ(ERROR_INVALID_PARAMETER, EnumerateTraceGuids(NULL, 1, &n));
	EXPECT_EQ(ERROR_INVALID_PARAMETER, EnumerateTraceGuids(pp, 1, NULL));
	EXPECT_EQ(ERROR_INVALID_PARAMETER, EnumerateTraceGuids(pp, 2, &n));
}

TEST_F(eg, needs_control_rights)
{
	int status;
	pid_t pid;

	etw_require_root(_metadata);
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		TRACE_GUID_PROPERTIES p, *pp[1] = { &p };
		char out[64];
		ULONG len, n;

		if (setgid(65534) || setuid(65534))
			_exit(200);
		if (EnumerateTraceGuidsEx(TraceGuidQueryList, NULL, 0, out, sizeof(out),
					  &len) != ERROR_ACCESS_DENIED)
			_exit(1);
		if (EnumerateTraceGuidsEx(TraceGuidQueryInfo, &self->guid, sizeof(GUID),
					  out, sizeof(out), &len) != ERROR_ACCESS_DENIED)
			_exit(2);
		if (EnumerateTraceGuids(pp, 1, &n) != ERROR_ACCESS_DENIED)
			_exit(3);
		_exit(0);
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_TRUE(WIFEXITED(status));
	EXPECT_EQ(0, WEXITSTATUS(status));
}

/* The raw ioctls: flags, sizes and the caller's array. */
TEST_F(eg, ioctl_contract)
{
	struct etw_provider_entry e[2];
	struct etw_provider_list l;
	struct etw_provider_info i;
	__u8 g2[16];
	__u32 reg;

	/* One provider at least, so that an array is written. */
	etw_test_guid(g2, 3);
	g2[4] = 0xe9;
	ASSERT_EQ(0, etw_register_simple(self->fd, g2, &reg));
	memset(&l, 0, sizeof(l));
	l.size = sizeof(l);
	l.flags = 1;
	EXPECT_EQ(-EINVAL, etw_ioctl_err(self->fd, ETW_IOC_PROVIDER_LIST, &l));
	l.flags = 0;
	l.max = 2;
	EXPECT_EQ(-EFAULT, etw_ioctl_err(self->fd, ETW_IOC_PROVIDER_LIST, &l));
	l.entries = 8;	/* unmapped */
	EXPECT_EQ(-EFAULT, etw_ioctl_err(self->fd, ETW_IOC_PROVIDER_LIST, &l));
	l.entries = (__u64)(uintptr_t)e;
	l.max = 0;
	EXPECT_EQ(0, etw_ioctl_err(self->fd, ETW_IOC_PROVIDER_LIST, &l));
	EXPECT_EQ(0, l.filled);
	EXPECT_LE(1, l.total);
	l.max = 1;
	EXPECT_EQ(0, etw_ioctl_err(self->fd, ETW_IOC_PROVIDER_LIST, &l));
	EXPECT_EQ(1, l.filled);
	l.size = ETW_PROVIDER_LIST_SIZE_VER0 - 4;
	EXPECT_EQ(-EINVAL, etw_ioctl_err(self->fd, ETW_IOC_PROVIDER_LIST, &l));

	memset(&i, 0, sizeof(i));
	i.size = sizeof(i);
	memcpy(i.guid, &self->guid, 16);
	EXPECT_EQ(-ENOENT, etw_ioctl_err(self->fd, ETW_IOC_PROVIDER_INFO, &i));
	i.flags = 2;
	EXPECT_EQ(-EINVAL, etw_ioctl_err(self->fd, ETW_IOC_PROVIDER_INFO, &i));
	i.flags = 0;
	memcpy(i.guid, g2, 16);
	i.max_regs = 1;
	i.regs = 8;	/* unmapped */
	EXPECT_EQ(-EFAULT, etw_ioctl_err(self->fd, ETW_IOC_PROVIDER_INFO, &i));
	i.max_regs = 0;
	EXPECT_EQ(0, etw_ioctl_err(self->fd, ETW_IOC_PROVIDER_INFO, &i));
	EXPECT_EQ(1, i.nr_regs);
	EXPECT_EQ(0, i.nr_enables);
}

TEST_HARNESS_MAIN
