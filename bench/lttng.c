// SPDX-License-Identifier: GPL-2.0
/*
 * etw-bench-lttng: the peer of the private logger, an lttng-ust
 * tracepoint with the same payload, in user space only (ring buffers
 * shared with lttng-consumerd, no system call per event).  The LTTng
 * session that enables etw_bench:payload is set up by the caller
 * (scripts/vm/bench.sh) before this runs.
 *
 *   lttng.<P>      an enabled tracepoint of P bytes (0, 64, 512)
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

int main(void)
{
	static const unsigned int payloads[] = { 0, 64, 512 };
	double ns;
	int waited;

	memset(payload, 0x5a, sizeof(payload));
	bench_pin(0);
	/* The session daemon enables the event shortly after registration. */
	for (waited = 0; waited < 100; waited++) {
		if (lttng_ust_tracepoint_enabled(etw_bench, payload))
			break;
		usleep(50000);
	}
	if (!lttng_ust_tracepoint_enabled(etw_bench, payload))
		bench_die("lttng: etw_bench:payload is not enabled (no session?)");

	for (unsigned int i = 0; i < 3; i++) {
		unsigned int p = payloads[i];

		BENCH_LOOP(&ns, 256, lttng_ust_tracepoint(etw_bench, payload, payload, p));
		bench_printf(ns, "lttng.%u", p);
	}
	BENCH_LOOP8(&ns, 512, lttng_ust_tracepoint(etw_bench, off, payload, 64));
	bench_print("lttng.off", ns);
	return 0;
}
