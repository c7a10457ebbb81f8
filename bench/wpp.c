// SPDX-License-Identifier: GPL-2.0
/*
 * etw-bench-wpp: what WPP costs.  DoTraceMessage with an INT32 and a
 * 17-byte string (this file goes through etw wpp: TraceMessage with
 * Windows' option flags) against EventWrite of the same bytes, into one
 * session that enables both providers; and DoTraceMessage of a flag the
 * session does not enable, against EventEnabled of a provider no session
 * enables.  Pinned to CPU 0.
 *
 *   wpp.write          DoTraceMessage, enabled
 *   wpp.eventwrite     EventWrite, the same bytes
 *   wpp.disabled       DoTraceMessage of a disabled flag
 *   wpp.eventenabled   EventEnabled of a provider not enabled
 */
#include <windows.h>
#include <evntprov.h>
#include <evntrace.h>
#include <unistd.h>

#include "bench.h"

/* {6b1a9e3c-52d0-4f7e-9c41-0d2b7e5a8f13} */
#define WPP_CONTROL_GUIDS						\
	WPP_DEFINE_CONTROL_GUID(EtwBenchWpp,				\
		(6b1a9e3c, 52d0, 4f7e, 9c41, 0d2b7e5a8f13),		\
		WPP_DEFINE_BIT(BENCH_ON)				\
		WPP_DEFINE_BIT(BENCH_OFF))

#include "wpp.tmh"

static const GUID wpp_guid = {
	0x6b1a9e3c, 0x52d0, 0x4f7e, { 0x9c, 0x41, 0x0d, 0x2b, 0x7e, 0x5a, 0x8f, 0x13 }
};

static const char text[] = "sixteen bytes...";
static EVENT_DATA_DESCRIPTOR d[2];
static INT32 count = 42;
static REGHANDLE h, h_off;

/* wpp.write and wpp.eventwrite, timed interleaved (bench_interleave()). */
static void run_wpp_write(unsigned int n, unsigned int size)
{
	for (unsigned int i = 0; i < n; i++)
		DoTraceMessage(BENCH_ON, "count %d text %s", count, text);
}

static void run_eventwrite(unsigned int n, unsigned int size)
{
	EVENT_DESCRIPTOR ev = { .Id = 1, .Level = 4, .Keyword = 0x1 };

	for (unsigned int i = 0; i < n; i++)
		EventWrite(h, &ev, 2, d);
}

int main(void)
{
	static const EVENT_DESCRIPTOR ev_off = { .Id = 1, .Level = 4, .Keyword = 0x1 };
	struct bench_cases cases = { .count = 0 };
	struct bench_session s;
	double ns;

	bench_pin(0);
	if (EventRegister(&bench_provider_enabled, NULL, NULL, &h) ||
	    EventRegister(&bench_provider_disabled, NULL, NULL, &h_off))
		bench_die("registering the providers failed");
	WPP_INIT_TRACING(NULL);
	bench_session_start(&s, "etw-bench-wpp", &bench_provider_enabled, 4, 0x1);
	/* A classic provider's flags are MatchAnyKeyword's low 32 bits. */
	if (EnableTraceEx2(s.id, &wpp_guid, EVENT_CONTROL_CODE_ENABLE_PROVIDER, 4, 0x1, 0, 0,
			   NULL))
		bench_die("EnableTraceEx2 of the WPP control GUID failed");
	/* The control callback runs on libetw's thread: wait for it. */
	for (int i = 0; !WPP_FLAG_ENABLED(BENCH_ON); i++) {
		if (i == 10000)
			bench_die("the WPP control callback never ran");
		usleep(1000);
	}
	EventDataDescCreate(&d[0], &count, sizeof(count));
	EventDataDescCreate(&d[1], text, sizeof(text));

	bench_case_add(&cases, "wpp.write", run_wpp_write, 0);
	bench_case_add(&cases, "wpp.eventwrite", run_eventwrite, 0);
	bench_interleave(&cases);
	BENCH_LOOP8(&ns, 512, DoTraceMessage(BENCH_OFF, "count %d text %s", count, text));
	bench_print("wpp.disabled", ns);
	BENCH_LOOP8(&ns, 512, EventEnabled(h_off, &ev_off));
	bench_print("wpp.eventenabled", ns);

	bench_session_stop(&s);
	WPP_CLEANUP();
	EventUnregister(h);
	EventUnregister(h_off);
	return 0;
}
