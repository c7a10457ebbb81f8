// SPDX-License-Identifier: GPL-2.0
/*
 * etw-bench-write: the cost of one event, single thread, pinned to CPU 0.
 *
 *   getpid                 syscall(SYS_getpid): the system call floor
 *   null_ioctl             an ioctl /dev/etw does not know (ENOTTY from
 *                          the module's dispatcher): syscall + fd + dispatch
 *   marker.<P>             write(2) of P bytes to ftrace's trace_marker
 *   eventwrite.<P>         EventWrite of P bytes into one enabled session
 *   disabled.enabled       EventEnabled, provider that no session enables
 *   disabled.write         EventWrite of 64 bytes, same provider
 *   level.enabled/.write   enabled provider, event above the session level
 *   keyword.enabled/.write enabled provider, event keyword not enabled
 *   syscalls.<case>        system calls counted in BENCH_COUNT calls
 *
 * P is 0, 64 and 512.  Results: nanoseconds per call (BENCH lines).
 * With an argument, only the cases whose key starts with it run (for
 * profiling one of them).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <libetw.h>

#include "bench.h"

#define BENCH_COUNT	10000

static const unsigned int payloads[] = { 0, 64, 512 };
static unsigned char payload[512];
/* The filtered cases' one data descriptor, built once (as a caller would). */
static EVENT_DATA_DESCRIPTOR data64;

/* An ioctl number in the module's range that it does not define. */
#define BENCH_NULL_IOCTL	_IO(ETW_IOC_MAGIC, 0xff)

static REGHANDLE h_on, h_off;
static const EVENT_DESCRIPTOR ev_info = { .Id = 1, .Level = 4, .Keyword = 0x1 };
static const EVENT_DESCRIPTOR ev_verbose = { .Id = 2, .Level = 5, .Keyword = 0x1 };
static const EVENT_DESCRIPTOR ev_other_kw = { .Id = 3, .Level = 4, .Keyword = 0x2 };

static inline __attribute__((always_inline)) ULONG
write_payload(REGHANDLE h, const EVENT_DESCRIPTOR *d, unsigned int size)
{
	EVENT_DATA_DESCRIPTOR data;

	EventDataDescCreate(&data, payload, size);
	return EventWrite(h, d, size ? 1 : 0, &data);
}

static void open_marker(int *fd)
{
	static const char *const paths[] = {
		"/sys/kernel/tracing/trace_marker",
		"/sys/kernel/debug/tracing/trace_marker",
	};

	*fd = -1;
	for (unsigned int i = 0; i < 2 && *fd < 0; i++)
		*fd = open(paths[i], O_WRONLY | O_CLOEXEC);
}

/* The calls whose system calls are counted. */
static void call_enabled_off(void *a) { (void)a; EventEnabled(h_off, &ev_info); }
static void call_write_off(void *a) { (void)a; write_payload(h_off, &ev_info, 64); }
static void call_enabled_level(void *a) { (void)a; EventEnabled(h_on, &ev_verbose); }
static void call_write_level(void *a) { (void)a; write_payload(h_on, &ev_verbose, 64); }
static void call_enabled_kw(void *a) { (void)a; EventEnabled(h_on, &ev_other_kw); }
static void call_write_kw(void *a) { (void)a; write_payload(h_on, &ev_other_kw, 64); }
static void call_write_on(void *a) { (void)a; write_payload(h_on, &ev_info, 64); }

static const char *only;

/* A case that stays in user space: many calls per clock reading. */
#define USER_CASE(key, call)					\
	do {							\
		if (want(key)) {				\
			BENCH_LOOP8(&ns, 512, call);		\
			bench_print(key, ns);			\
		}						\
	} while (0)

static int want(const char *key)
{
	return !only || !strncmp(key, only, strlen(only));
}

/* Item 1's cases, timed interleaved (bench_interleave()). */
static int fd, mfd;
static struct bench_cases item1;

static void run_getpid(unsigned int n, unsigned int size)
{
	for (unsigned int i = 0; i < n; i++)
		syscall(SYS_getpid);
}

static void run_null_ioctl(unsigned int n, unsigned int size)
{
	for (unsigned int i = 0; i < n; i++)
		ioctl(fd, BENCH_NULL_IOCTL, 0);
}

static void run_marker(unsigned int n, unsigned int size)
{
	for (unsigned int i = 0; i < n; i++)
		(void)!write(mfd, payload, size);
}

static void run_eventwrite(unsigned int n, unsigned int size)
{
	for (unsigned int i = 0; i < n; i++)
		write_payload(h_on, &ev_info, size);
}

static void item1_add(const char *key, void (*run)(unsigned int, unsigned int),
		      unsigned int size)
{
	if (want(key))
		bench_case_add(&item1, key, run, size);
}

static void count(const char *name, void (*fn)(void *))
{
	char key[64];

	snprintf(key, sizeof(key), "syscalls.%s", name);
	if (!want(key))
		return;
	bench_print(key, (double)bench_count_syscalls(fn, NULL, BENCH_COUNT) / BENCH_COUNT);
}

int main(int argc, char **argv)
{
	struct bench_session s;
	double ns;

	only = argc > 1 ? argv[1] : NULL;
	memset(payload, 0x5a, sizeof(payload));
	EventDataDescCreate(&data64, payload, 64);
	bench_pin(0);
	fd = etw_device_fd();
	if (fd < 0)
		bench_die("/dev/etw: %s", strerror(-fd));
	if (EventRegister(&bench_provider_enabled, NULL, NULL, &h_on) ||
	    EventRegister(&bench_provider_disabled, NULL, NULL, &h_off))
		bench_die("EventRegister failed");
	/* Level 4 (information), keyword 0x1: ev_verbose and ev_other_kw are filtered. */
	bench_session_start(&s, "etw-bench-write", &bench_provider_enabled, 4, 0x1);
	if (!EventEnabled(h_on, &ev_info) || EventEnabled(h_on, &ev_verbose) ||
	    EventEnabled(h_on, &ev_other_kw) || EventEnabled(h_off, &ev_info))
		bench_die("enable state is not what the session asked for");
	if (write_payload(h_on, &ev_info, 512))
		bench_die("EventWrite into the session failed");

	if (ioctl(fd, BENCH_NULL_IOCTL, 0) != -1 || errno != ENOTTY)
		bench_die("the null ioctl did not fail with ENOTTY");
	open_marker(&mfd);
	item1_add("getpid", run_getpid, 0);
	item1_add("null_ioctl", run_null_ioctl, 0);
	for (unsigned int i = 0; i < 3; i++) {
		unsigned int p = payloads[i];
		char key[32];

		snprintf(key, sizeof(key), "marker.%u", p);
		if (mfd < 0 || write(mfd, payload, p) != (ssize_t)p)
			fprintf(stderr, "bench: trace_marker unavailable (%s)\n",
				strerror(errno));
		else
			item1_add(key, run_marker, p);
		snprintf(key, sizeof(key), "eventwrite.%u", p);
		item1_add(key, run_eventwrite, p);
	}
	bench_interleave(&item1);

	USER_CASE("disabled.enabled", EventEnabled(h_off, &ev_info));
	USER_CASE("disabled.write", EventWrite(h_off, &ev_info, 1, &data64));
	USER_CASE("level.enabled", EventEnabled(h_on, &ev_verbose));
	USER_CASE("level.write", EventWrite(h_on, &ev_verbose, 1, &data64));
	USER_CASE("keyword.enabled", EventEnabled(h_on, &ev_other_kw));
	USER_CASE("keyword.write", EventWrite(h_on, &ev_other_kw, 1, &data64));

	count("disabled.enabled", call_enabled_off);
	count("disabled.write", call_write_off);
	count("level.enabled", call_enabled_level);
	count("level.write", call_write_level);
	count("keyword.enabled", call_enabled_kw);
	count("keyword.write", call_write_kw);
	/* The control: an enabled EventWrite is one ioctl (trapped, not run). */
	count("eventwrite", call_write_on);

	bench_session_stop(&s);
	EventUnregister(h_on);
	EventUnregister(h_off);
	return 0;
}
