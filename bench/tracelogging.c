// SPDX-License-Identifier: GPL-2.0
/*
 * etw-bench-tracelogging: what carrying metadata costs.  The same two
 * fields (an INT32 and a string) written by TraceLoggingWrite, whose
 * events carry their provider, event and field names, and by EventWrite
 * with two data descriptors, into one session that enables both
 * providers; pinned to CPU 0.
 *
 *   tl.write        TraceLoggingWrite
 *   tl.eventwrite   EventWrite, the same fields
 *   tl.filtered     TraceLoggingWrite of an event above the session's level
 */
#include <TraceLoggingProvider.h>

#include <string.h>
#include <unistd.h>

#include "bench.h"

/* {6b1a9e3c-52d0-4f7e-9c41-0d2b7e5a8f12} */
TRACELOGGING_DEFINE_PROVIDER(tl_provider, "EtwBench.TraceLogging",
	(0x6b1a9e3c, 0x52d0, 0x4f7e, 0x9c, 0x41, 0x0d, 0x2b, 0x7e, 0x5a, 0x8f, 0x12));

static const GUID tl_guid = {
	0x6b1a9e3c, 0x52d0, 0x4f7e, { 0x9c, 0x41, 0x0d, 0x2b, 0x7e, 0x5a, 0x8f, 0x12 }
};

static const char text[] = "sixteen bytes...";
static EVENT_DATA_DESCRIPTOR d[2];
static INT32 count = 42;
static REGHANDLE h;

/* tl.write and tl.eventwrite, timed interleaved (bench_interleave()). */
static void run_tl_write(unsigned int n, unsigned int size)
{
	for (unsigned int i = 0; i < n; i++)
		TraceLoggingWrite(tl_provider, "Bench",
				  TraceLoggingLevel(4),
				  TraceLoggingKeyword(0x1),
				  TraceLoggingInt32(count, "Count"),
				  TraceLoggingString(text, "Text"));
}

static void run_eventwrite(unsigned int n, unsigned int size)
{
	/* Not static const: as measured since item 7 was written. */
	EVENT_DESCRIPTOR ev = { .Id = 1, .Level = 4, .Keyword = 0x1 };

	for (unsigned int i = 0; i < n; i++)
		EventWrite(h, &ev, 2, d);
}

int main(void)
{
	struct bench_cases cases = { .count = 0 };
	struct bench_session s;
	double ns;

	bench_pin(0);
	if (TraceLoggingRegister(tl_provider) ||
	    EventRegister(&bench_provider_enabled, NULL, NULL, &h))
		bench_die("registering the providers failed");
	bench_session_start(&s, "etw-bench-tl", &bench_provider_enabled, 4, 0x1);
	if (EnableTraceEx2(s.id, &tl_guid, EVENT_CONTROL_CODE_ENABLE_PROVIDER,
			   4, 0x1, 0, 0, NULL))
		bench_die("EnableTraceEx2 of the TraceLogging provider failed");
	/*
	 * TraceLoggingProviderEnabled() reads what the provider's enable
	 * callback stored, and EnableTraceEx2 does not wait for callbacks:
	 * measuring before it ran would time a disabled provider.
	 */
	for (int i = 0; !TraceLoggingProviderEnabled(tl_provider, 4, 0x1); i++) {
		if (i == 10000)
			bench_die("the TraceLogging provider's callback never ran");
		usleep(1000);
	}
	EventDataDescCreate(&d[0], &count, sizeof(count));
	EventDataDescCreate(&d[1], text, sizeof(text));

	bench_case_add(&cases, "tl.write", run_tl_write, 0);
	bench_case_add(&cases, "tl.eventwrite", run_eventwrite, 0);
	bench_interleave(&cases);
	BENCH_LOOP8(&ns, 512, TraceLoggingWrite(tl_provider, "Verbose",
						TraceLoggingLevel(5),
						TraceLoggingKeyword(0x1),
						TraceLoggingInt32(count, "Count"),
						TraceLoggingString(text, "Text")));
	bench_print("tl.filtered", ns);

	bench_session_stop(&s);
	TraceLoggingUnregister(tl_provider);
	EventUnregister(h);
	return 0;
}
