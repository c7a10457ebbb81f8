// SPDX-License-Identifier: MIT
/*
 * The classic write functions of evntrace.h: TraceEvent,
 * TraceEventInstance, TraceMessage and TraceMessageVa.
 *
 * Seed 002 splits TraceEvent in two, and so does this file: here, as in
 * Windows' user-mode half, the checks of the header (present, Size at
 * least the header, WNODE_FLAG_TRACED_GUID set), the loading of the
 * logger handle into the header at offset 0x08 (the one change to the
 * caller's header that persists), the choice between the private logger
 * of this process (handle bit 0x01000000) and the kernel, and the refusal
 * of logger ids 0 and 0xFFFF.  The kernel, through the same ETW_IOC_WRITE
 * as EventWrite, reads the rest of the event with its own checks: no such
 * session, the MOF_FIELD array, the size against the session's buffers,
 * no free buffer, bad pointers.  Every function makes its result the
 * thread's last error.
 *
 * The caller's memory is read under a guard (guard.h): a header, GUID or
 * argument that cannot be read gives ERROR_NOACCESS, as Windows'
 * structured exception handling does.  Pointers the kernel follows (the
 * data after the header, MOF_FIELD data, a GUID pointer) give
 * ERROR_NOACCESS from the kernel.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <windows.h>
#include <evntrace.h>

#include "classic.h"
#include "../common/properties.h"
#include "../common/guard.h"
#include "../common/logger_handle.h"
#include "../private_logger/private_logger.h"

_Static_assert(offsetof(WNODE_HEADER, HistoricalContext) == 0x08,
	       "TraceEvent loads the logger handle at offset 0x08");
_Static_assert(sizeof(EVENT_TRACE_HEADER) == ETW_TRACE_HEADER_SIZE,
	       "EVENT_TRACE_HEADER is the module's trace header");
_Static_assert(sizeof(EVENT_INSTANCE_HEADER) == ETW_INSTANCE_HEADER_SIZE,
	       "EVENT_INSTANCE_HEADER is the module's instance header");
_Static_assert(sizeof(MOF_FIELD) == sizeof(struct etw_data_desc),
	       "the module reads MOF_FIELD as a data descriptor");

/*
 * Send a classic write to the kernel, by the system call instruction as
 * EventWrite does; the errno becomes Windows' code.
 */
static ULONG classic_ioctl(struct etw_trace_write *w)
{
	int fd = etw_writer_fd(etw_device_fd());
	long ret;

	if (fd < 0)
		return etw_device_error(fd);
	ret = etw_ioctl_inline(fd, ETW_IOC_WRITE, w);
	if (__builtin_expect(ret < 0, 0))
		return etw_win32_error((int)ret, ETW_ERR_WRITE);
	return ERROR_SUCCESS;
}

static void classic_init(struct etw_trace_write *w, __u16 kind,
			 TRACELOGGER_HANDLE h)
{
	memset(w, 0, sizeof(*w));
	w->size = sizeof(*w);
	w->kind = kind;
	w->logger_id = etw_logger_id(h);
}

static ULONG trace_event(TRACELOGGER_HANDLE h, PEVENT_TRACE_HEADER ev)
{
	struct etw_trace_write w;

	if (!ev || ev->Size < sizeof(*ev))
		return ERROR_INVALID_PARAMETER;
	if (!(ev->Flags & WNODE_FLAG_TRACED_GUID))
		return ERROR_INVALID_FLAG_NUMBER;
	memcpy((char *)ev + offsetof(WNODE_HEADER, HistoricalContext), &h,
	       sizeof(h));
	if (etw_logger_is_private(h))
		return etw_private_trace_event(h, ev);
	if (etw_logger_id_invalid(h))
		return ERROR_INVALID_HANDLE;
	classic_init(&w, ETW_WRITE_TRACE, h);
	w.header = (uintptr_t)ev;
	return classic_ioctl(&w);
}

/* The arguments of a classic write, for etw_guarded(). */
struct classic_call {
	TRACELOGGER_HANDLE h;
	void *header;
	PEVENT_INSTANCE_INFO inst, parent;
};

static ULONG trace_event_call(void *arg)
{
	struct classic_call *c = arg;

	return trace_event(c->h, c->header);
}

ETW_EXPORT ULONG WMIAPI TraceEvent(TRACELOGGER_HANDLE TraceHandle,
				   PEVENT_TRACE_HEADER EventTrace)
{
	struct classic_call c = { .h = TraceHandle, .header = EventTrace };

	return etw_ret(etw_guarded(trace_event_call, &c));
}

/*
 * TraceEventInstance: the header is an EVENT_INSTANCE_HEADER (0x38 bytes)
 * and the class comes from the registration handles of the instance
 * infos.  Its own difference from TraceEvent: a header without
 * WNODE_FLAG_TRACED_GUID is ERROR_INVALID_FLAGS.  The handles and ids
 * are written into the caller's header (RegHandle, InstanceId,
 * ParentInstanceId, ParentRegHandle), the documented outputs.
 */
static ULONG trace_event_instance(TRACELOGGER_HANDLE h,
				  PEVENT_INSTANCE_HEADER ev,
				  PEVENT_INSTANCE_INFO inst,
				  PEVENT_INSTANCE_INFO parent)
{
	struct etw_trace_write w;
	GUID guid, parent_guid;

	if (!ev || !inst || ev->Size < sizeof(*ev))
		return ERROR_INVALID_PARAMETER;
	if (!(ev->Flags & WNODE_FLAG_TRACED_GUID))
		return ERROR_INVALID_FLAGS;
	if (!etw_class_guid(inst->RegHandle, &guid) ||
	    (parent && !etw_class_guid(parent->RegHandle, &parent_guid)))
		return ERROR_INVALID_PARAMETER;
	ev->RegHandle = (uintptr_t)inst->RegHandle;
	ev->InstanceId = inst->InstanceId;
	ev->ParentRegHandle = parent ? (uintptr_t)parent->RegHandle : 0;
	ev->ParentInstanceId = parent ? parent->InstanceId : 0;
	if (etw_logger_is_private(h))
		return etw_private_trace_instance(h, ev, &guid, inst->InstanceId,
						  parent ? &parent_guid : NULL,
						  parent ? parent->InstanceId : 0);
	if (etw_logger_id_invalid(h))
		return ERROR_INVALID_HANDLE;
	classic_init(&w, ETW_WRITE_INSTANCE, h);
	w.header = (uintptr_t)ev;
	memcpy(w.guid, &guid, sizeof(w.guid));
	w.instance_id = inst->InstanceId;
	if (parent) {
		w.flags = ETW_WRITE_F_PARENT;
		memcpy(w.parent_guid, &parent_guid, sizeof(w.parent_guid));
		w.parent_instance_id = parent->InstanceId;
	}
	return classic_ioctl(&w);
}

static ULONG trace_event_instance_call(void *arg)
{
	struct classic_call *c = arg;

	return trace_event_instance(c->h, c->header, c->inst, c->parent);
}

ETW_EXPORT ULONG WMIAPI TraceEventInstance(TRACELOGGER_HANDLE TraceHandle,
					   PEVENT_INSTANCE_HEADER EventTrace,
					   PEVENT_INSTANCE_INFO InstInfo,
					   PEVENT_INSTANCE_INFO ParentInstInfo)
{
	struct classic_call c = { .h = TraceHandle, .header = EventTrace,
				  .inst = InstInfo, .parent = ParentInstInfo };

	return etw_ret(etw_guarded(trace_event_instance_call, &c));
}

/* Arguments read in one walk into the stack; more take trace_message_many(). */
#define MESSAGE_STACK_ARGS	16

/* The message of @n argument descriptors @d, to its logger. */
static ULONG trace_message_send(TRACELOGGER_HANDLE h, ULONG flags, LPCGUID guid,
				USHORT number, const struct etw_data_desc *d,
				size_t n)
{
	struct etw_trace_write w;
	ULONG err;

	if (etw_logger_is_private(h))
		return etw_private_trace_message(h, flags, guid, number, d, n);
	classic_init(&w, ETW_WRITE_MESSAGE, h);
	w.message_flags = flags;
	w.message_number = number;
	if (guid) {
		err = etw_guarded_copy(w.guid, guid, sizeof(w.guid));
		if (err)
			return err;
	}
	w.data = (uintptr_t)d;
	w.count = (__u32)n;
	return classic_ioctl(&w);
}

/*
 * A message of more than MESSAGE_STACK_ARGS arguments, @args from the
 * first: counted, then made descriptors on the heap, or past
 * ETW_MAX_DATA_DESCRIPTORS copied into one block.
 */
static ULONG trace_message_many(TRACELOGGER_HANDLE h, ULONG flags,
				LPCGUID guid, USHORT number, va_list args)
{
	struct etw_data_desc one, *d = &one;
	unsigned char *block = NULL;
	size_t n = 0, total = 0, i;
	va_list count;
	ULONG err = ERROR_SUCCESS;

	va_copy(count, args);
	while (va_arg(count, void *)) {
		total += va_arg(count, size_t);
		n++;
	}
	va_end(count);
	/* Past what a record holds: the kernel's ERROR_MORE_DATA, early. */
	if (total > TRACE_MESSAGE_MAXIMUM_SIZE)
		return ERROR_MORE_DATA;
	if (n > ETW_MAX_DATA_DESCRIPTORS) {
		block = malloc(total ? total : 1);
		if (!block)
			return ERROR_NOT_ENOUGH_MEMORY;
	} else {
		d = malloc(n * sizeof(*d));
		if (!d)
			return ERROR_NOT_ENOUGH_MEMORY;
	}
	for (i = 0, total = 0; i < n; i++) {
		void *p = va_arg(args, void *);
		size_t len = va_arg(args, size_t);

		if (block) {
			err = etw_guarded_copy(block + total, p, len);
			if (err)
				goto out;
		} else {
			d[i] = (struct etw_data_desc){ .ptr = (uintptr_t)p,
						       .size = (__u32)len };
		}
		total += len;
	}
	if (block) {
		one = (struct etw_data_desc){ .ptr = (uintptr_t)block,
					      .size = (__u32)total };
		n = 1;
	}
	err = trace_message_send(h, flags, guid, number, d, n);
out:
	free(block);
	if (d != &one)
		free(d);
	return err;
}

/*
 * TraceMessage's arguments are (PVOID, size_t) pairs up to a NULL
 * pointer.  They become data descriptors, in one walk of the list for
 * the common message of up to MESSAGE_STACK_ARGS of them.
 */
static ULONG trace_message(TRACELOGGER_HANDLE h, ULONG flags, LPCGUID guid,
			   USHORT number, va_list args)
{
	struct etw_data_desc d[MESSAGE_STACK_ARGS];
	size_t n, total = 0;
	va_list from;
	void *p;
	ULONG err;

	if (etw_logger_id_invalid(h) && !etw_logger_is_private(h))
		return ERROR_INVALID_HANDLE;
	flags &= TRACE_MESSAGE_FLAG_MASK;
	/* MessageGuid is the class GUID or the component id: one of them. */
	if ((flags & TRACE_MESSAGE_GUID) && (flags & TRACE_MESSAGE_COMPONENTID))
		return ERROR_INVALID_PARAMETER;
	if ((flags & (TRACE_MESSAGE_GUID | TRACE_MESSAGE_COMPONENTID)) && !guid)
		return ERROR_INVALID_PARAMETER;

	va_copy(from, args);
	for (n = 0; (p = va_arg(args, void *)); n++) {
		size_t len;

		if (n == MESSAGE_STACK_ARGS) {
			err = trace_message_many(h, flags, guid, number, from);
			va_end(from);
			return err;
		}
		len = va_arg(args, size_t);
		d[n] = (struct etw_data_desc){ .ptr = (uintptr_t)p,
					       .size = (__u32)len };
		total += len;
	}
	va_end(from);
	/* Past what a record holds: the kernel's ERROR_MORE_DATA, early. */
	if (total > TRACE_MESSAGE_MAXIMUM_SIZE)
		return ERROR_MORE_DATA;
	return trace_message_send(h, flags, guid, number, d, n);
}

ETW_EXPORT ULONG TraceMessageVa(TRACELOGGER_HANDLE LoggerHandle,
				ULONG MessageFlags, LPCGUID MessageGuid,
				USHORT MessageNumber, va_list MessageArgList)
{
	return etw_ret(trace_message(LoggerHandle, MessageFlags, MessageGuid,
				     MessageNumber, MessageArgList));
}

ETW_EXPORT ULONG TraceMessage(TRACELOGGER_HANDLE LoggerHandle,
			      ULONG MessageFlags, LPCGUID MessageGuid,
			      USHORT MessageNumber, ...)
{
	va_list args;
	ULONG err;

	va_start(args, MessageNumber);
	err = trace_message(LoggerHandle, MessageFlags, MessageGuid,
			    MessageNumber, args);
	va_end(args);
	return etw_ret(err);
}
