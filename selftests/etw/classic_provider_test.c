// SPDX-License-Identifier: GPL-2.0
/*
 * Classic providers in libetw: RegisterTraceGuids and its WMIDPREQUEST
 * callback, the logger handle in the WNODE_HEADER and what
 * GetTraceLoggerHandle, GetTraceEnableLevel and GetTraceEnableFlags make
 * of it, one session at a time with the newest enable winning (seed 004),
 * pre-enabled registration, UnregisterTraceGuids; and TraceEventInstance
 * (seed 001) with CreateTraceInstanceId, read back from an ETL file.
 */
#include <pthread.h>
#include <stdio.h>

#include <windows.h>
#include <evntprov.h>

#include "kselftest_harness.h"
#include "classic_api.h"

/* What the control callback saw, and what it does. */
struct cb {
	pthread_mutex_t lock;
	int calls;
	ULONG code;
	WNODE_HEADER wnode;
	ULONG buffer_size;
	TRACELOGGER_HANDLE handle;	/* GetTraceLoggerHandle's */
	UCHAR level;
	ULONG flags;
	DWORD level_error, flags_error;
	ULONG result;			/* to return */
	GUID event_guid;		/* write one event with the handle */
	int write;
	ULONG write_result;
};

static ULONG WINAPI control(WMIDPREQUESTCODE code, PVOID ctx, ULONG *size,
			    PVOID buffer)
{
	struct cb *c = ctx;
	EVENT_TRACE_HEADER e;

	pthread_mutex_lock(&c->lock);
	c->code = code;
	c->wnode = *(WNODE_HEADER *)buffer;
	c->buffer_size = *size;
	c->handle = GetTraceLoggerHandle(buffer);
	SetLastError(ERROR_SUCCESS);
	c->level = GetTraceEnableLevel(c->handle);
	c->level_error = GetLastError();
	c->flags = GetTraceEnableFlags(c->handle);
	c->flags_error = GetLastError();
	if (c->write && code == WMI_ENABLE_EVENTS) {
		memset(&e, 0, sizeof(e));
		e.Size = sizeof(e);
		e.Flags = WNODE_FLAG_TRACED_GUID;
		e.Guid = c->event_guid;
		e.Class.Type = EVENT_TRACE_TYPE_INFO;
		c->write_result = TraceEvent(c->handle, &e);
	}
	c->calls++;
	pthread_mutex_unlock(&c->lock);
	return c->result;
}

static struct cb cb;

/* Wait up to 5 s for the callback count to reach @n. */
static int wait_calls(int n)
{
	int i, calls = 0;

	for (i = 0; i < 500; i++) {
		pthread_mutex_lock(&cb.lock);
		calls = cb.calls;
		pthread_mutex_unlock(&cb.lock);
		if (calls >= n)
			break;
		usleep(10000);
	}
	return calls;
}

FIXTURE(prov)
{
	int fd;
	CONTROLTRACE_ID a, b;
	GUID control, classes[2];
};

FIXTURE_SETUP(prov)
{
	etw_require_root(_metadata);
	self->fd = etw_open_or_skip(_metadata);
	etw_stop_test_sessions(self->fd);
	etw_test_guid((__u8 *)&self->control, 0x70);
	etw_test_guid((__u8 *)&self->classes[0], 0x71);
	etw_test_guid((__u8 *)&self->classes[1], 0x72);
	ASSERT_EQ(ERROR_SUCCESS, start("etwtest-prov-a", 8, 0, &self->a));
	ASSERT_EQ(ERROR_SUCCESS, start("etwtest-prov-b", 8, 0, &self->b));
	memset(&cb, 0, sizeof(cb));
	pthread_mutex_init(&cb.lock, NULL);
	cb.event_guid = self->classes[0];
}

FIXTURE_TEARDOWN(prov)
{
	if (self->fd >= 0) {
		etw_stop_test_sessions(self->fd);
		close(self->fd);
	}
}

TEST_F(prov, register_arguments)
{
	TRACE_GUID_REGISTRATION reg[2] = {
		{ &self->classes[0], NULL }, { &self->classes[1], NULL },
	};
	TRACEGUID_HANDLE h = 77, h2;
	REGHANDLE ev;

	EXPECT_EQ(ERROR_INVALID_PARAMETER,
		  RegisterTraceGuidsA(NULL, &cb, &self->control, 0, NULL, NULL, NULL, &h));
	EXPECT_EQ(ERROR_INVALID_PARAMETER, GetLastError());
	EXPECT_EQ(0, h);
	EXPECT_EQ(ERROR_INVALID_PARAMETER,
		  RegisterTraceGuidsA(control, &cb, NULL, 0, NULL, NULL, NULL, &h));
	EXPECT_EQ(ERROR_INVALID_PARAMETER,
		  RegisterTraceGuidsA(control, &cb, &self->control, 0, NULL, NULL, NULL, NULL));
	EXPECT_EQ(ERROR_INVALID_PARAMETER,
		  RegisterTraceGuidsA(control, &cb, &self->control, 1, NULL, NULL, NULL, &h));
	reg[1].Guid = NULL;
	EXPECT_EQ(ERROR_INVALID_PARAMETER,
		  RegisterTraceGuidsW(control, &cb, &self->control, 2, reg, NULL, NULL, &h));
	reg[1].Guid = &self->classes[1];

	ASSERT_EQ(ERROR_SUCCESS,
		  RegisterTraceGuidsW(control, &cb, &self->control, 2, reg, NULL, NULL, &h));
	EXPECT_NE(0, h);
	EXPECT_NE(NULL, reg[0].RegHandle);
	EXPECT_NE(NULL, reg[1].RegHandle);
	EXPECT_NE(reg[0].RegHandle, reg[1].RegHandle);
	EXPECT_EQ(0, cb.calls);			/* nobody enabled it */
	/* No class GUIDs at all is fine too. */
	ASSERT_EQ(ERROR_SUCCESS,
		  RegisterTraceGuidsA(control, &cb, &self->control, 0, NULL, NULL, NULL, &h2));

	/* The two kinds of registration do not mix. */
	ASSERT_EQ(ERROR_SUCCESS, EventRegister(&self->control, NULL, NULL, &ev));
	EXPECT_EQ(ERROR_INVALID_HANDLE, EventUnregister(h));
	EXPECT_EQ(ERROR_INVALID_HANDLE, UnregisterTraceGuids(ev));
	EXPECT_EQ(ERROR_SUCCESS, EventUnregister(ev));

	EXPECT_EQ(ERROR_INVALID_PARAMETER, UnregisterTraceGuids(0));
	EXPECT_EQ(ERROR_SUCCESS, UnregisterTraceGuids(h));
	EXPECT_EQ(ERROR_SUCCESS, GetLastError());
	EXPECT_EQ(ERROR_INVALID_HANDLE, UnregisterTraceGuids(h));
	EXPECT_EQ(ERROR_INVALID_HANDLE, GetLastError());
	EXPECT_EQ(ERROR_SUCCESS, UnregisterTraceGuids(h2));
}

TEST_F(prov, callback_gets_the_logger_handle)
{
	TRACEGUID_HANDLE h;

	ASSERT_EQ(ERROR_SUCCESS,
		  RegisterTraceGuidsA(control, &cb, &self->control, 0, NULL, NULL, NULL, &h));
	ASSERT_EQ(ERROR_SUCCESS, EnableTrace(TRUE, 0x12, TRACE_LEVEL_INFORMATION,
					     &self->control, self->a));
	ASSERT_EQ(1, wait_calls(1));
	EXPECT_EQ(WMI_ENABLE_EVENTS, cb.code);
	EXPECT_EQ(sizeof(WNODE_HEADER), cb.buffer_size);
	EXPECT_EQ(sizeof(WNODE_HEADER), cb.wnode.BufferSize);
	EXPECT_TRUE(cb.wnode.Flags & WNODE_FLAG_TRACED_GUID);
	EXPECT_EQ(0, memcmp(&cb.wnode.Guid, &self->control, 16));
	/* TRACE_ENABLE_CONTEXT: logger id, level, flags. */
	EXPECT_EQ(LOGGER_ID(self->a), cb.handle & 0xffff);
	EXPECT_EQ(cb.wnode.HistoricalContext, cb.handle);
	EXPECT_EQ(TRACE_LEVEL_INFORMATION, cb.level);
	EXPECT_EQ(ERROR_SUCCESS, cb.level_error);
	EXPECT_EQ(0x12, cb.flags);
	EXPECT_EQ(ERROR_SUCCESS, cb.flags_error);

	/* EnableTraceEx2: MatchAnyKeyword's low 32 bits are the flags. */
	ASSERT_EQ(ERROR_SUCCESS, EnableTraceEx2(self->a, &self->control,
						EVENT_CONTROL_CODE_ENABLE_PROVIDER,
						TRACE_LEVEL_VERBOSE,
						0x100000005ULL, 0, 5000, NULL));
	ASSERT_EQ(2, wait_calls(2));
	EXPECT_EQ(TRACE_LEVEL_VERBOSE, cb.level);
	EXPECT_EQ(5, cb.flags);

	/* Level 0 and flags 0 are values, not failures. */
	ASSERT_EQ(ERROR_SUCCESS, EnableTrace(TRUE, 0, 0, &self->control, self->a));
	ASSERT_EQ(3, wait_calls(3));
	EXPECT_EQ(0, cb.level);
	EXPECT_EQ(ERROR_SUCCESS, cb.level_error);
	EXPECT_EQ(0, cb.flags);
	EXPECT_EQ(ERROR_SUCCESS, cb.flags_error);

	ASSERT_EQ(ERROR_SUCCESS, EnableTrace(FALSE, 0, 0, &self->control, self->a));
	ASSERT_EQ(4, wait_calls(4));
	EXPECT_EQ(WMI_DISABLE_EVENTS, cb.code);
	EXPECT_EQ(LOGGER_ID(self->a), cb.handle & 0xffff);
	EXPECT_EQ(ERROR_SUCCESS, UnregisterTraceGuids(h));
}

TEST_F(prov, handle_decoders_fail_as_windows_does)
{
	WNODE_HEADER w;

	SetLastError(0);
	EXPECT_EQ((TRACELOGGER_HANDLE)(ULONG_PTR)INVALID_HANDLE_VALUE,
		  GetTraceLoggerHandle(NULL));
	EXPECT_EQ(ERROR_INVALID_PARAMETER, GetLastError());
	memset(&w, 0, sizeof(w));
	SetLastError(0);
	EXPECT_EQ((TRACELOGGER_HANDLE)(ULONG_PTR)INVALID_HANDLE_VALUE,
		  GetTraceLoggerHandle(&w));
	EXPECT_EQ(ERROR_INVALID_HANDLE, GetLastError());
	w.HistoricalContext = 0x0000000500040003ULL;	/* id 3, level 4, flags 5 */
	EXPECT_EQ(0x0000000500040003ULL, GetTraceLoggerHandle(&w));

	SetLastError(0);
	EXPECT_EQ(0, GetTraceEnableLevel(0));
	EXPECT_EQ(ERROR_INVALID_HANDLE, GetLastError());
	SetLastError(0);
	EXPECT_EQ(0, GetTraceEnableFlags(0x12345678000affffULL));	/* kernel logger */
	EXPECT_EQ(ERROR_INVALID_HANDLE, GetLastError());
	SetLastError(0);
	EXPECT_EQ(4, GetTraceEnableLevel(0x0000000500040003ULL));
	EXPECT_EQ(5, GetTraceEnableFlags(0x0000000500040003ULL));
	EXPECT_EQ(0, GetLastError());
}

/* Seed 004: a classic provider has one session, the newest enable's. */
TEST_F(prov, the_newest_enable_wins)
{
	TRACEGUID_HANDLE h;
	long na, nb;

	cb.write = 1;
	ASSERT_EQ(ERROR_SUCCESS,
		  RegisterTraceGuidsA(control, &cb, &self->control, 0, NULL, NULL, NULL, &h));
	ASSERT_EQ(ERROR_SUCCESS, EnableTrace(TRUE, 1, 4, &self->control, self->a));
	ASSERT_EQ(1, wait_calls(1));
	EXPECT_EQ(LOGGER_ID(self->a), cb.handle & 0xffff);
	EXPECT_EQ(ERROR_SUCCESS, cb.write_result);

	/* B takes it over: the provider now writes to B, not A. */
	ASSERT_EQ(ERROR_SUCCESS, EnableTrace(TRUE, 2, 5, &self->control, self->b));
	ASSERT_EQ(2, wait_calls(2));
	EXPECT_EQ(WMI_ENABLE_EVENTS, cb.code);
	EXPECT_EQ(LOGGER_ID(self->b), cb.handle & 0xffff);
	EXPECT_EQ(5, cb.level);
	EXPECT_EQ(2, cb.flags);
	EXPECT_EQ(ERROR_SUCCESS, cb.write_result);
	na = ct_drain(self->fd, LOGGER_ID(self->a), NULL, NULL);
	nb = ct_drain(self->fd, LOGGER_ID(self->b), NULL, NULL);
	EXPECT_EQ(1, na);
	EXPECT_EQ(1, nb);

	/* A no longer enables it: disabling it from A changes nothing. */
	ASSERT_EQ(ERROR_SUCCESS, EnableTrace(FALSE, 0, 0, &self->control, self->a));
	usleep(100000);
	EXPECT_EQ(2, cb.calls);
	/* B's disable is the provider's. */
	ASSERT_EQ(ERROR_SUCCESS, EnableTrace(FALSE, 0, 0, &self->control, self->b));
	ASSERT_EQ(3, wait_calls(3));
	EXPECT_EQ(WMI_DISABLE_EVENTS, cb.code);
	EXPECT_EQ(ERROR_SUCCESS, UnregisterTraceGuids(h));
}

TEST_F(prov, pre_enabled_registration)
{
	TRACEGUID_HANDLE h;

	/* Two sessions enable it before it registers: B's is the newer. */
	ASSERT_EQ(ERROR_SUCCESS, EnableTrace(TRUE, 7, 2, &self->control, self->a));
	ASSERT_EQ(ERROR_SUCCESS, EnableTrace(TRUE, 9, 3, &self->control, self->b));
	cb.result = 1234;
	/* The callback runs before RegisterTraceGuids returns, and its result is returned. */
	EXPECT_EQ(1234, RegisterTraceGuidsA(control, &cb, &self->control, 0, NULL,
					    NULL, NULL, &h));
	EXPECT_EQ(1, cb.calls);
	EXPECT_NE(0, h);
	EXPECT_EQ(WMI_ENABLE_EVENTS, cb.code);
	EXPECT_EQ(LOGGER_ID(self->b), cb.handle & 0xffff);
	EXPECT_EQ(3, cb.level);
	EXPECT_EQ(9, cb.flags);
	/* A was dropped when the classic provider registered. */
	ASSERT_EQ(ERROR_SUCCESS, EnableTrace(FALSE, 0, 0, &self->control, self->a));
	usleep(100000);
	EXPECT_EQ(1, cb.calls);
	EXPECT_EQ(ERROR_SUCCESS, UnregisterTraceGuids(h));

	/* Registered again, still enabled by B: the callback's 0 is returned. */
	cb.result = 0;
	EXPECT_EQ(ERROR_SUCCESS, RegisterTraceGuidsA(control, &cb, &self->control, 0,
						     NULL, NULL, NULL, &h));
	EXPECT_EQ(2, cb.calls);
	EXPECT_EQ(LOGGER_ID(self->b), cb.handle & 0xffff);
	EXPECT_EQ(ERROR_SUCCESS, UnregisterTraceGuids(h));
}

TEST_F(prov, instance_ids)
{
	TRACE_GUID_REGISTRATION reg[2] = {
		{ &self->classes[0], NULL }, { &self->classes[1], NULL },
	};
	EVENT_INSTANCE_INFO a, b;
	TRACEGUID_HANDLE h;

	ASSERT_EQ(ERROR_SUCCESS,
		  RegisterTraceGuidsA(control, &cb, &self->control, 2, reg, NULL, NULL, &h));
	ASSERT_EQ(ERROR_SUCCESS, CreateTraceInstanceId(reg[0].RegHandle, &a));
	EXPECT_EQ(reg[0].RegHandle, a.RegHandle);
	EXPECT_EQ(1, a.InstanceId);
	ASSERT_EQ(ERROR_SUCCESS, CreateTraceInstanceId(reg[0].RegHandle, &a));
	EXPECT_EQ(2, a.InstanceId);
	ASSERT_EQ(ERROR_SUCCESS, CreateTraceInstanceId(reg[1].RegHandle, &b));
	EXPECT_EQ(1, b.InstanceId);		/* one counter per class */

	EXPECT_EQ(ERROR_INVALID_PARAMETER, CreateTraceInstanceId(NULL, &a));
	EXPECT_EQ(ERROR_INVALID_PARAMETER, GetLastError());
	EXPECT_EQ(ERROR_INVALID_PARAMETER, CreateTraceInstanceId(reg[0].RegHandle, NULL));
	EXPECT_EQ(ERROR_INVALID_PARAMETER, CreateTraceInstanceId((HANDLE)0x12345, &a));
	ASSERT_EQ(ERROR_SUCCESS, UnregisterTraceGuids(h));
	/* The classes went with the registration. */
	EXPECT_EQ(ERROR_INVALID_PARAMETER, CreateTraceInstanceId(reg[0].RegHandle, &a));
}

/* Instance events as ProcessTrace presents them. */
struct inst_seen {
	GUID cls, parent;
	int n, bad;
};

static struct inst_seen *inst_ctx;	/* EVENT_TRACE has no context */

static VOID WINAPI on_instance_record(PEVENT_RECORD r)
{
	struct inst_seen *s = r->UserContext;
	const EVENT_EXTENDED_ITEM_INSTANCE *x;
	const EVENT_HEADER *h = &r->EventHeader;

	if (!IsEqualGUID(&h->ProviderId, &s->cls))
		return;
	/* The MOF type is the opcode; the instance ids an extended item. */
	s->bad += h->EventDescriptor.Opcode != EVENT_TRACE_TYPE_START;
	s->bad += h->EventDescriptor.Level != TRACE_LEVEL_ERROR;
	s->bad += !(h->Flags & EVENT_HEADER_FLAG_CLASSIC_HEADER);
	s->bad += !(h->Flags & EVENT_HEADER_FLAG_EXTENDED_INFO);
	s->bad += r->ExtendedDataCount != 1 ||
		  r->ExtendedData[0].ExtType != EVENT_HEADER_EXT_TYPE_INSTANCE_INFO ||
		  r->ExtendedData[0].DataSize != sizeof(*x);
	if (!s->bad) {
		x = (const void *)(uintptr_t)r->ExtendedData[0].DataPtr;
		s->bad += x->InstanceId != 2;
		s->bad += s->n == 0 ? x->ParentInstanceId != 1 ||
				       !IsEqualGUID(&x->ParentGuid, &s->parent) :
				      x->ParentInstanceId != 0;
	}
	s->n++;
}

static VOID WINAPI on_instance_trace(PEVENT_TRACE e)
{
	struct inst_seen *s = inst_ctx;

	if (!IsEqualGUID(&e->Header.Guid, &s->cls))
		return;
	s->bad += e->Header.HeaderType != 0x15;
	s->bad += e->InstanceId != 2;
	s->bad += s->n == 0 ? e->ParentInstanceId != 1 ||
			       !IsEqualGUID(&e->ParentGuid, &s->parent) :
			      e->ParentInstanceId != 0;
	s->n++;
}

/* An EVENT_INSTANCE_HEADER and its data. */
struct inst_event {
	EVENT_INSTANCE_HEADER Header;
	MOF_FIELD Mof[2];
	char Data[9000];
};

static ULONG instance(TRACELOGGER_HANDLE h, struct inst_event *e,
		      EVENT_INSTANCE_INFO *i, EVENT_INSTANCE_INFO *p)
{
	ULONG ret;

	SetLastError(0x12345678);
	ret = TraceEventInstance(h, &e->Header, i, p);
	return GetLastError() == ret ? ret : 0xbad;
}

TEST_F(prov, trace_event_instance)
{
	static const char *path = "/tmp/etwtest-instance.etl";
	TRACE_GUID_REGISTRATION reg[2] = {
		{ &self->classes[0], NULL }, { &self->classes[1], NULL },
	};
	EVENT_INSTANCE_INFO child, parent;
	const struct etw_etl_ext_item *x;
	const struct etw_etl_event *ev;
	struct inst_event e;
	struct events rd;
	TRACEGUID_HANDLE h;
	__u32 ids[2];

	ASSERT_EQ(ERROR_SUCCESS,
		  RegisterTraceGuidsA(control, &cb, &self->control, 2, reg, NULL, NULL, &h));
	ASSERT_EQ(ERROR_SUCCESS, CreateTraceInstanceId(reg[1].RegHandle, &parent));
	ASSERT_EQ(ERROR_SUCCESS, CreateTraceInstanceId(reg[0].RegHandle, &child));
	ASSERT_EQ(ERROR_SUCCESS, CreateTraceInstanceId(reg[0].RegHandle, &child));

	memset(&e, 0, sizeof(e));
	e.Header.Size = sizeof(e.Header) + 5;
	e.Header.Flags = WNODE_FLAG_TRACED_GUID;
	e.Header.Class.Type = EVENT_TRACE_TYPE_START;
	e.Header.Class.Level = TRACE_LEVEL_ERROR;
	e.Header.Class.Version = 1;
	memcpy(e.Mof, "inst", 5);

	/* Its own checks and codes. */
	EXPECT_EQ(ERROR_INVALID_PARAMETER, TraceEventInstance(self->a, NULL, &child, NULL));
	EXPECT_EQ(ERROR_INVALID_PARAMETER, instance(self->a, &e, NULL, NULL));
	e.Header.Size = sizeof(e.Header) - 1;
	EXPECT_EQ(ERROR_INVALID_PARAMETER, instance(self->a, &e, &child, NULL));
	e.Header.Size = sizeof(e.Header) + 5;
	e.Header.Flags = 0;
	EXPECT_EQ(ERROR_INVALID_FLAGS, instance(self->a, &e, &child, NULL));
	e.Header.Flags = WNODE_FLAG_TRACED_GUID;
	{
		EVENT_INSTANCE_INFO bad = { (HANDLE)0x777, 1 };

		EXPECT_EQ(ERROR_INVALID_PARAMETER, instance(self->a, &e, &bad, NULL));
		EXPECT_EQ(ERROR_INVALID_PARAMETER, instance(self->a, &e, &child, &bad));
	}
	EXPECT_EQ(ERROR_INVALID_HANDLE, instance(0, &e, &child, NULL));
	EXPECT_EQ(ERROR_INVALID_HANDLE, instance(0xffff, &e, &child, NULL));
	EXPECT_EQ(ERROR_INVALID_HANDLE, instance(LOGGER_ID(self->b) + 1, &e, &child, NULL));

	/* Stored: the class GUIDs and ids; the header gets them as outputs. */
	ASSERT_EQ(ERROR_SUCCESS, instance(self->a, &e, &child, &parent));
	EXPECT_EQ((uintptr_t)reg[0].RegHandle, e.Header.RegHandle);
	EXPECT_EQ(2, e.Header.InstanceId);
	EXPECT_EQ((uintptr_t)reg[1].RegHandle, e.Header.ParentRegHandle);
	EXPECT_EQ(1, e.Header.ParentInstanceId);
	/* No parent, with MOF_FIELDs. */
	e.Header.Flags |= WNODE_FLAG_USE_MOF_PTR;
	e.Header.Size = sizeof(e.Header) + sizeof(MOF_FIELD);
	e.Mof[0].DataPtr = (uintptr_t)"mof!";
	e.Mof[0].Length = 4;
	ASSERT_EQ(ERROR_SUCCESS, instance(self->a, &e, &child, NULL));
	EXPECT_EQ(0, e.Header.ParentInstanceId);
	EXPECT_EQ(0, e.Header.ParentRegHandle);
	/* Too big for the 8 KB buffers. */
	e.Header.Flags = WNODE_FLAG_TRACED_GUID;
	e.Header.Size = 8120 - 0x48 + 0x38 + 1;
	EXPECT_EQ(ERROR_MORE_DATA, instance(self->a, &e, &child, NULL));

	ASSERT_EQ(0, save_etl(self->fd, LOGGER_ID(self->a), path));
	ASSERT_EQ(0, read_etl(path, &rd));
	ASSERT_EQ(2, rd.n);
	ev = &rd.ev[0];
	EXPECT_EQ(ETW_ETL_KIND_INSTANCE, ev->kind);
	EXPECT_EQ(0x15, ev->header_type);
	EXPECT_EQ(0, memcmp(&ev->provider, &self->classes[0], 16));
	EXPECT_EQ(EVENT_TRACE_TYPE_START, ev->opcode);
	EXPECT_EQ(TRACE_LEVEL_ERROR, ev->level);
	EXPECT_EQ(1, ev->version);
	EXPECT_EQ(getpid(), ev->process_id);
	ASSERT_EQ(5, ev->data_size);
	EXPECT_EQ(0, memcmp(ev->data, "inst", 5));
	/* EVENT_INSTANCE_GUID_HEADER: ids and the parent's class GUID. */
	memcpy(ids, (const char *)ev->record + 0x30, 8);
	EXPECT_EQ(2, ids[0]);
	EXPECT_EQ(1, ids[1]);
	EXPECT_EQ(0, memcmp((const char *)ev->record + 0x38, &self->classes[1], 16));
	ev = &rd.ev[1];
	ASSERT_EQ(4, ev->data_size);
	EXPECT_EQ(0, memcmp(ev->data, "mof!", 4));
	/*
	 * As ProcessTrace presents it: an INSTANCE_INFO item (the reader's
	 * items are those of the last record read, this one).
	 */
	ASSERT_EQ(1, ev->ext_count);
	x = &ev->ext[0];
	EXPECT_EQ(ETW_ETL_EXT_INSTANCE_INFO, x->type);
	ASSERT_EQ(24, x->size);
	memcpy(ids, x->data, 8);
	EXPECT_EQ(2, ids[0]);
	EXPECT_EQ(0, ids[1]);
	EXPECT_EQ(0, memcmp((const char *)x->data + 8, (__u8[16]){ 0 }, 16));
	etw_etl_close(rd.etl);

	/* ProcessTrace: as EVENT_RECORD, then as EVENT_TRACE. */
	{
		struct inst_seen s = { .cls = self->classes[0], .parent = self->classes[1] };

		ASSERT_EQ(ERROR_SUCCESS, process_file(path, on_instance_record, NULL, &s));
		EXPECT_EQ(2, s.n);
		EXPECT_EQ(0, s.bad);
		memset(&s.n, 0, 2 * sizeof(int));
		inst_ctx = &s;
		ASSERT_EQ(ERROR_SUCCESS, process_file(path, NULL, on_instance_trace, NULL));
		EXPECT_EQ(2, s.n);
		EXPECT_EQ(0, s.bad);
	}
	unlink(path);
	EXPECT_EQ(ERROR_SUCCESS, UnregisterTraceGuids(h));
}

TEST_HARNESS_MAIN
