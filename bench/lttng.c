// SPDX-License-Identifier: GPL-2.0
/*
 * etw-bench-lttng: item 5, EventWrite into a private logger (an
 * in-process session: the process's own per-CPU buffers, no system call)
 * against its peer, an lttng-ust tracepoint with the same payload, in
 * user space only (ring buffers shared with lttng-consumerd, no system
 * call per event).  Both in buffering mode, a ring in memory: the
 * private logger's buffers switch, the lttng-ust snapshot session's
 * consumer waits.  The LTTng session that enables etw_bench:payload is
 * set up by the caller (scripts/vm/bench.sh) before this runs.  The
 * enabled cases are timed interleaved (bench_interleave()), in one
 * process, so that each ratio compares batches run milliseconds apart.
 *
 *   private.<P>    EventWrite of P bytes (0, 64, 512), one data descriptor
 *   lttng.<P>      an enabled tracepoint of P bytes
 *   lttng.off      a tracepoint no session enables
 */
#define LTTNG_UST_TRACEPOINT_CREATE_PROBES
#define LTTNG_UST_TRACEPOINT_DEFINE
#include "lttng_tp.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "bench.h"

static unsigned char payload[512];
static const EVENT_DESCRIPTOR ev = { .Id = 1, .Level = 4, .Keyword = 0x1 };
static REGHANDLE h;

static inline __attribute__((always_inline)) ULONG
write_payload(unsigned int size)
{
	EVENT_DATA_DESCRIPTOR data;

	EventDataDescCreate(&data, payload, size);
	return EventWrite(h, &ev, size ? 1 : 0, &data);
}

static void run_private(unsigned int n, unsigned int size)
{
	for (unsigned int i = 0; i < n; i++)
		write_payload(size);
}

static void run_lttng(unsigned int n, unsigned int size)
{
	for (unsigned int i = 0; i < n; i++)
		lttng_ust_tracepoint(etw_bench, payload, payload, size);
}

int main(void)
{
	static const unsigned int payloads[] = { 0, 64, 512 };
	struct bench_cases cases = { .count = 0 };
	struct bench_session s;
	double ns;
	int waited, lttng;

	memset(payload, 0x5a, sizeof(payload));
	bench_pin(0);
	if (EventRegister(&bench_provider_enabled, NULL, NULL, &h))
		bench_die("EventRegister failed");
	bench_session_start_mode(&s, "etw-bench-private", &bench_provider_enabled,
				 4, 0x1, EVENT_TRACE_PRIVATE_LOGGER_MODE |
				 EVENT_TRACE_PRIVATE_IN_PROC |
				 EVENT_TRACE_BUFFERING_MODE);
	if (!EventEnabled(h, &ev) || write_payload(512))
		bench_die("EventWrite into the private logger failed");
	/* The session daemon enables the event shortly after registration. */
	for (waited = 0; waited < 100; waited++) {
		if (lttng_ust_tracepoint_enabled(etw_bench, payload))
			break;
		usleep(50000);
	}
	/* Without lttng-ust's session, the private logger's cases still run. */
	lttng = lttng_ust_tracepoint_enabled(etw_bench, payload);
	if (!lttng)
		fprintf(stderr, "bench: lttng: etw_bench:payload is not enabled (no session?)\n");

	for (unsigned int i = 0; i < 3; i++) {
		char key[32];

		snprintf(key, sizeof(key), "private.%u", payloads[i]);
		bench_case_add(&cases, key, run_private, payloads[i]);
		snprintf(key, sizeof(key), "lttng.%u", payloads[i]);
		if (lttng)
			bench_case_add(&cases, key, run_lttng, payloads[i]);
	}
	bench_interleave(&cases);
	bench_session_stop(&s);
	EventUnregister(h);

	BENCH_LOOP8(&ns, 512, lttng_ust_tracepoint(etw_bench, off, payload, 64));
	bench_print("lttng.off", ns);
	return 0;
}
