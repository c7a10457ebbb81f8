// SPDX-License-Identifier: GPL-2.0
/*
 * etw-bench-private: item 5, EventWrite into a private logger (an
 * in-process session: the process's own per-CPU buffers, no system call),
 * the peer of an lttng-ust tracepoint with the same payload.  Buffering
 * mode, a ring in memory, as the lttng-ust snapshot session it is
 * compared with: buffers switch, nothing waits for a consumer.
 *
 *   private.<P>    EventWrite of P bytes (0, 64, 512), one data descriptor
 */
#include <string.h>

#include "bench.h"

static unsigned char payload[512];
static const EVENT_DESCRIPTOR ev = { .Id = 1, .Level = 4, .Keyword = 0x1 };

static inline __attribute__((always_inline)) ULONG
write_payload(REGHANDLE h, unsigned int size)
{
	EVENT_DATA_DESCRIPTOR data;

	EventDataDescCreate(&data, payload, size);
	return EventWrite(h, &ev, size ? 1 : 0, &data);
}

int main(void)
{
	static const unsigned int payloads[] = { 0, 64, 512 };
	struct bench_session s;
	REGHANDLE h;
	double ns;

	memset(payload, 0x5a, sizeof(payload));
	bench_pin(0);
	if (EventRegister(&bench_provider_enabled, NULL, NULL, &h))
		bench_die("EventRegister failed");
	bench_session_start_mode(&s, "etw-bench-private", &bench_provider_enabled,
				 4, 0x1, EVENT_TRACE_PRIVATE_LOGGER_MODE |
				 EVENT_TRACE_PRIVATE_IN_PROC |
				 EVENT_TRACE_BUFFERING_MODE);
	if (!EventEnabled(h, &ev) || write_payload(h, 512))
		bench_die("EventWrite into the private logger failed");
	for (unsigned int i = 0; i < 3; i++) {
		unsigned int p = payloads[i];

		BENCH_LOOP(&ns, 256, write_payload(h, p));
		bench_printf(ns, "private.%u", p);
	}
	bench_session_stop(&s);
	EventUnregister(h);
	return 0;
}
