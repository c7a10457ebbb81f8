// SPDX-License-Identifier: GPL-2.0
/*
 * etw-bench-profile: one case of etw-bench-write run a fixed number of
 * times between the instruction profiler's markers (bench/qemu/marker.h),
 * for make bench-profile.
 *
 *   etw-bench-profile write SIZE N   EventWrite of SIZE bytes, one session
 *   etw-bench-profile null 0 N       the null ioctl (ENOTTY from the module)
 *   etw-bench-profile getpid 0 N     syscall(SYS_getpid)
 *   etw-bench-profile message 0 N    TraceMessage into the session, as WPP's
 *                                    DoTraceMessage of an INT32 and a
 *                                    17-byte string (etw-bench-wpp) makes it
 *   etw-bench-profile tl 0 N         TraceLoggingWrite of an INT32 and a
 *                                    string (etw-bench-tracelogging's)
 *   etw-bench-profile tlfields 0 N   EventWrite of the same two fields
 *
 * Every case runs in the state etw-bench-write's run in: the provider
 * registered (libetw then has a thread, which makes the kernel's fdget()
 * take a file reference) and its session started.  That set-up and a
 * warm-up of the case (its code translated, its pages present) run
 * outside the window; inside it the case runs N times with a counter and
 * a branch around it.  Before the window it prints its memory map between
 * ETW-PROFILE-MAPS-BEGIN and -END, which the host needs to name the user
 * addresses.  Outside the profiler the markers are two no-ops.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <TraceLoggingProvider.h>
#include <libetw.h>

#include "bench.h"
#include "qemu/marker.h"

#define PROFILE_WARMUP	1000

/* The same ioctl etw-bench-write's null_ioctl case makes. */
#define BENCH_NULL_IOCTL	_IO(ETW_IOC_MAGIC, 0xff)

/* etw-bench-tracelogging's provider, event and fields. */
TRACELOGGING_DEFINE_PROVIDER(tl_provider, "EtwBench.TraceLogging",
	(0x6b1a9e3c, 0x52d0, 0x4f7e, 0x9c, 0x41, 0x0d, 0x2b, 0x7e, 0x5a, 0x8f, 0x12));

static const GUID tl_guid = {
	0x6b1a9e3c, 0x52d0, 0x4f7e, { 0x9c, 0x41, 0x0d, 0x2b, 0x7e, 0x5a, 0x8f, 0x12 }
};

static const char text[] = "sixteen bytes...";
static INT32 count = 42;
static EVENT_DATA_DESCRIPTOR fields[2];

static inline __attribute__((always_inline)) void write_tl(void)
{
	TraceLoggingWrite(tl_provider, "Bench",
			  TraceLoggingLevel(4),
			  TraceLoggingKeyword(0x1),
			  TraceLoggingInt32(count, "Count"),
			  TraceLoggingString(text, "Text"));
}

/* As etw-bench-tracelogging's EventWrite: the descriptor built each call. */
static inline __attribute__((always_inline)) ULONG write_fields(REGHANDLE h)
{
	EVENT_DESCRIPTOR ev = { .Id = 1, .Level = 4, .Keyword = 0x1 };

	return EventWrite(h, &ev, 2, fields);
}

static unsigned char payload[512];
static const EVENT_DESCRIPTOR ev_info = { .Id = 1, .Level = 4, .Keyword = 0x1 };

/* As etw-bench-write's write_payload: the descriptor built at each call. */
static inline __attribute__((always_inline)) ULONG write_event(REGHANDLE h, unsigned long size)
{
	EVENT_DATA_DESCRIPTOR data;

	EventDataDescCreate(&data, payload, (ULONG)size);
	return EventWrite(h, &ev_info, size ? 1 : 0, &data);
}

static void print_maps(void)
{
	char line[512];
	FILE *f = fopen("/proc/self/maps", "r");

	if (!f)
		bench_die("/proc/self/maps: %s", strerror(errno));
	printf("ETW-PROFILE-MAPS-BEGIN\n");
	while (fgets(line, sizeof(line), f))
		fputs(line, stdout);
	printf("ETW-PROFILE-MAPS-END\n");
	fclose(f);
	fflush(stdout);
}

/* Run @body @n times, the last time inside the profiler's window. */
#define PROFILE(n, body)						\
	do {								\
		for (unsigned long _i = 0; _i < PROFILE_WARMUP; _i++)	\
			body;						\
		print_maps();						\
		BENCH_MARK_START();					\
		for (unsigned long _i = 0; _i < (n); _i++)		\
			body;						\
		BENCH_MARK_STOP();					\
	} while (0)

int main(int argc, char **argv)
{
	struct bench_session s;
	unsigned long size, n;
	REGHANDLE h;
	int fd;

	if (argc != 4)
		bench_die("usage: etw-bench-profile write|null|getpid|message|tl|tlfields SIZE N");
	size = strtoul(argv[2], NULL, 0);
	n = strtoul(argv[3], NULL, 0);
	if (size > sizeof(payload) || !n)
		bench_die("SIZE is at most %zu and N at least 1", sizeof(payload));
	memset(payload, 0x5a, sizeof(payload));
	bench_pin(0);
	fd = etw_device_fd();
	if (fd < 0)
		bench_die("/dev/etw: %s", strerror(-fd));

	/* The state etw-bench-write's cases run in: a provider, its session. */
	if (EventRegister(&bench_provider_enabled, NULL, NULL, &h))
		bench_die("EventRegister failed");
	bench_session_start(&s, "etw-bench-profile", &bench_provider_enabled, 4, 0x1);
	if (write_event(h, size))
		bench_die("EventWrite into the session failed");

	if (!strcmp(argv[1], "write")) {
		PROFILE(n, write_event(h, size));
	} else if (!strcmp(argv[1], "null")) {
		if (ioctl(fd, BENCH_NULL_IOCTL, 0) != -1 || errno != ENOTTY)
			bench_die("the null ioctl did not fail with ENOTTY");
		PROFILE(n, ioctl(fd, BENCH_NULL_IOCTL, 0));
	} else if (!strcmp(argv[1], "getpid")) {
		PROFILE(n, syscall(SYS_getpid));
	} else if (!strcmp(argv[1], "message")) {
		static const char msg_text[] = "sixteen bytes...";
		INT32 msg_count = 42;

		PROFILE(n, TraceMessage(s.id, TRACE_MESSAGE_SEQUENCE | TRACE_MESSAGE_GUID |
					TRACE_MESSAGE_SYSTEMINFO | TRACE_MESSAGE_TIMESTAMP,
					&bench_provider_enabled, 10, &msg_count, sizeof(msg_count),
					msg_text, sizeof(msg_text), NULL));
	} else if (!strcmp(argv[1], "tl") || !strcmp(argv[1], "tlfields")) {
		/* etw-bench-tracelogging's state: its provider in the session. */
		if (TraceLoggingRegister(tl_provider) ||
		    EnableTraceEx2(s.id, &tl_guid, EVENT_CONTROL_CODE_ENABLE_PROVIDER,
				   4, 0x1, 0, 0, NULL))
			bench_die("enabling the TraceLogging provider failed");
		for (int i = 0; !TraceLoggingProviderEnabled(tl_provider, 4, 0x1); i++) {
			if (i == 10000)
				bench_die("the TraceLogging provider's callback never ran");
			usleep(1000);
		}
		EventDataDescCreate(&fields[0], &count, sizeof(count));
		EventDataDescCreate(&fields[1], text, sizeof(text));
		if (!strcmp(argv[1], "tl"))
			PROFILE(n, write_tl());
		else
			PROFILE(n, write_fields(h));
		TraceLoggingUnregister(tl_provider);
	} else {
		bench_die("unknown case %s (write, null, getpid, message, tl, tlfields)", argv[1]);
	}
	bench_session_stop(&s);
	EventUnregister(h);
	printf("ETW-PROFILE-DONE %s %lu %lu\n", argv[1], size, n);
	return 0;
}
