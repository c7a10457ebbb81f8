// SPDX-License-Identifier: MIT
/*
 * A classic (MOF) provider writing into a private logger, as Windows code
 * does it: StartTrace with EVENT_TRACE_PRIVATE_LOGGER_MODE, a provider
 * registered with RegisterTraceGuids whose control callback keeps the
 * logger handle, EnableTrace, TraceEvent and TraceMessage, ControlTrace
 * STOP.  The session lives in this process: no other process is needed,
 * and the ETL file opens like any other.
 *
 *   cc private_logger.c $(pkg-config --cflags --libs libetw) -o private_logger
 *   ./private_logger [FILE.etl]
 */
#include <stdio.h>
#include <string.h>

#include <windows.h>
#include <evntrace.h>

static const GUID control_guid = {
	0x6e1c5a2f, 0x3d4b, 0x4a58, { 0x9c, 0x71, 0x2f, 0x0e, 0x5d, 0x8a, 0x14, 0x63 }
};

static TRACEHANDLE logger;	/* from the control callback */

static ULONG WINAPI control(WMIDPREQUESTCODE code, PVOID context,
			    ULONG *reserved, PVOID buffer)
{
	(void)context;
	(void)reserved;
	if (code == WMI_ENABLE_EVENTS) {
		logger = GetTraceLoggerHandle(buffer);
		printf("provider: enabled, level %u flags 0x%lx\n",
		       GetTraceEnableLevel(logger),
		       (unsigned long)GetTraceEnableFlags(logger));
	} else if (code == WMI_DISABLE_EVENTS) {
		logger = 0;
		printf("provider: disabled\n");
	}
	return ERROR_SUCCESS;
}

/* EVENT_TRACE_PROPERTIES with room for the session and file names. */
struct props {
	EVENT_TRACE_PROPERTIES p;
	char names[2 * 512];
};

static void props_init(struct props *b, const char *file)
{
	memset(b, 0, sizeof(*b));
	b->p.Wnode.BufferSize = sizeof(*b);
	b->p.Wnode.Flags = WNODE_FLAG_TRACED_GUID;
	b->p.Wnode.Guid = control_guid;
	b->p.LogFileMode = EVENT_TRACE_PRIVATE_LOGGER_MODE | EVENT_TRACE_PRIVATE_IN_PROC;
	b->p.LoggerNameOffset = sizeof(b->p);
	if (file) {
		b->p.LogFileNameOffset = sizeof(b->p) + 512;
		snprintf((char *)b + b->p.LogFileNameOffset, 512, "%s", file);
	}
}

int main(int argc, char **argv)
{
	const char *file = argc > 1 ? argv[1] : "/tmp/private.etl";
	TRACEHANDLE session, reg = 0;
	struct props b;
	struct {
		EVENT_TRACE_HEADER Header;
		ULONG Value;
	} ev;
	ULONG err, i;

	props_init(&b, file);
	err = StartTraceA(&session, "ExamplePrivateLogger", &b.p);
	if (err) {
		fprintf(stderr, "StartTrace: error %lu\n", (unsigned long)err);
		return 1;
	}
	printf("session: private logger, handle 0x%llx\n", (unsigned long long)session);
	err = RegisterTraceGuidsA(control, NULL, &control_guid, 0, NULL, NULL,
				  NULL, &reg);
	if (!err)
		err = EnableTrace(TRUE, 0x1, TRACE_LEVEL_INFORMATION, &control_guid,
				  session);
	for (i = 0; !err && logger && i < 3; i++) {
		memset(&ev, 0, sizeof(ev));
		ev.Header.Size = sizeof(ev.Header) + sizeof(ev.Value);
		ev.Header.Flags = WNODE_FLAG_TRACED_GUID;
		ev.Header.Guid = control_guid;
		ev.Header.Class.Type = i ? EVENT_TRACE_TYPE_INFO : EVENT_TRACE_TYPE_START;
		ev.Header.Class.Level = TRACE_LEVEL_INFORMATION;
		ev.Value = i;
		err = TraceEvent(logger, &ev.Header);
	}
	if (!err && logger)
		err = TraceMessage(logger, TRACE_MESSAGE_GUID | TRACE_MESSAGE_SYSTEMINFO,
				   &control_guid, 1, "done", (size_t)5, NULL, (size_t)0);
	if (err)
		fprintf(stderr, "provider: error %lu\n", (unsigned long)err);

	props_init(&b, NULL);
	if (ControlTraceA(session, NULL, &b.p, EVENT_TRACE_CONTROL_STOP) == ERROR_SUCCESS)
		printf("session: stopped, %lu buffers written, %lu events lost, file %s\n",
		       (unsigned long)b.p.BuffersWritten, (unsigned long)b.p.EventsLost,
		       file);
	UnregisterTraceGuids(reg);
	return err ? 1 : 0;
}
