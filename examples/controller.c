// SPDX-License-Identifier: MIT
/*
 * A controller as Windows code writes one: StartTrace, EnableTraceEx2 for
 * the provider of provider.c, wait, ControlTrace(STOP) with the session's
 * final statistics.  It includes the five Windows headers in Windows'
 * order and builds as C and as C++.
 *
 *   cc controller.c $(pkg-config --cflags --libs libetw) -o controller
 *   sudo ./controller [SECONDS]
 *
 * The events stay in the session's buffers (a real-time session with no
 * consumer): see `etw record` for a controller that writes a file.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <windows.h>
#include <wmistr.h>
#include <evntprov.h>
#include <evntrace.h>
#include <evntcons.h>

static const GUID provider_guid = {
	0xb3864c38, 0x4273, 0x58c5, { 0x54, 0x5b, 0x8b, 0x36, 0x08, 0x34, 0x34, 0x71 }
};

#define SESSION_NAME	"example-controller"

/* EVENT_TRACE_PROPERTIES with room for the session name after it. */
static PEVENT_TRACE_PROPERTIES properties(void)
{
	ULONG size = sizeof(EVENT_TRACE_PROPERTIES) + sizeof(SESSION_NAME);
	PEVENT_TRACE_PROPERTIES p = (PEVENT_TRACE_PROPERTIES)calloc(1, size);

	if (!p)
		return NULL;
	p->Wnode.BufferSize = size;
	p->Wnode.Flags = WNODE_FLAG_TRACED_GUID;
	p->Wnode.ClientContext = 1;	/* QPC-like clock */
	p->LogFileMode = EVENT_TRACE_REAL_TIME_MODE;
	p->BufferSize = 64;
	p->LoggerNameOffset = sizeof(EVENT_TRACE_PROPERTIES);
	return p;
}

int main(int argc, char **argv)
{
	PEVENT_TRACE_PROPERTIES p = properties();
	unsigned int seconds = argc > 1 ? (unsigned int)atoi(argv[1]) : 5;
	ENABLE_TRACE_PARAMETERS params;
	CONTROLTRACE_ID session;
	ULONG err;

	if (!p)
		return 1;
	err = StartTraceA(&session, SESSION_NAME, p);
	if (err) {
		fprintf(stderr, "controller: StartTrace failed: %u\n", err);
		return 1;
	}
	memset(&params, 0, sizeof(params));
	params.Version = ENABLE_TRACE_PARAMETERS_VERSION_2;
	err = EnableTraceEx2(session, &provider_guid, EVENT_CONTROL_CODE_ENABLE_PROVIDER,
			     TRACE_LEVEL_VERBOSE, 0, 0, 0, &params);
	if (err)
		fprintf(stderr, "controller: EnableTraceEx2 failed: %u\n", err);
	else
		sleep(seconds);

	/* STOP fills the properties with the final statistics. */
	err = ControlTraceA(session, NULL, p, EVENT_TRACE_CONTROL_STOP);
	if (err) {
		fprintf(stderr, "controller: ControlTrace(STOP) failed: %u\n", err);
		return 1;
	}
	printf("controller: %s: %u buffers, %u events lost\n",
	       (const char *)p + p->LoggerNameOffset, p->BuffersWritten, p->EventsLost);
	free(p);
	return 0;
}
