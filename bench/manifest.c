// SPDX-License-Identifier: GPL-2.0
/*
 * etw-bench-manifest: the files make bench-manifest dumps (issue 18 item
 * 6).  The same five fields (UINT32, UINT64, a UTF-16 string, a GUID, an
 * INT32) written N times by a provider built from the header etw mc makes
 * of bench/manifest.man, and N times with TraceLoggingWrite, each into a
 * file of its own through a private logger (no module needed):
 *
 *   etw-bench-manifest DIR N   ->  DIR/manifest.etl, DIR/tracelogging.etl
 *
 *   BENCH manifest.records N   events in each file
 *   BENCH manifest.lost N      events lost, both files (must be 0)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <windows.h>
#include <evntrace.h>
#include <TraceLoggingProvider.h>

#include "bench.h"
#include "manifest.h"

TRACELOGGING_DEFINE_PROVIDER(tl_provider, "EtwBench.TraceLoggingSample",
	(0x7a1d3e5f, 0x2b4c, 0x4d6e, 0x8f, 0x90, 0xa1, 0xb2, 0xc3, 0xd4, 0xe5, 0xf6));

struct props {
	EVENT_TRACE_PROPERTIES p;
	char names[1024];
};

static const GUID tl_guid = { 0x7a1d3e5f, 0x2b4c, 0x4d6e,
			      { 0x8f, 0x90, 0xa1, 0xb2, 0xc3, 0xd4, 0xe5, 0xf6 } };

static void props(struct props *b, const char *file)
{
	memset(b, 0, sizeof(*b));
	b->p.Wnode.BufferSize = sizeof(*b);
	b->p.Wnode.Flags = WNODE_FLAG_TRACED_GUID;
	b->p.LogFileMode = EVENT_TRACE_PRIVATE_LOGGER_MODE |
			   EVENT_TRACE_FILE_MODE_SEQUENTIAL;
	b->p.BufferSize = 1024;
	b->p.MinimumBuffers = 8;
	b->p.MaximumBuffers = 256;
	b->p.LoggerNameOffset = sizeof(EVENT_TRACE_PROPERTIES);
	b->p.LogFileNameOffset = sizeof(EVENT_TRACE_PROPERTIES) + 256;
	if (file)
		snprintf((char *)b + b->p.LogFileNameOffset, 700, "%s", file);
}

/* Write n events with @write into @file; returns the events lost. */
static unsigned long record(const char *file, const char *name,
			    const GUID *provider, unsigned long n,
			    void (*write)(unsigned long i))
{
	CONTROLTRACE_ID h;
	struct props b;
	ULONG r;

	props(&b, file);
	b.p.Wnode.Guid = *provider;
	r = StartTraceA(&h, name, &b.p);
	if (r)
		bench_die("StartTrace %s: %lu", file, (unsigned long)r);
	r = EnableTraceEx2(h, provider, EVENT_CONTROL_CODE_ENABLE_PROVIDER, 5, 0, 0,
			   0, NULL);
	if (r)
		bench_die("EnableTraceEx2: %lu", (unsigned long)r);
	for (unsigned long i = 0; i < n; i++)
		write(i);
	props(&b, NULL);
	b.p.LogFileNameOffset = 0;
	r = ControlTraceA(h, NULL, &b.p, EVENT_TRACE_CONTROL_STOP);
	if (r)
		bench_die("stop: %lu", (unsigned long)r);
	return b.p.EventsLost;
}

static const GUID sample_id = { 0x01020304, 0x0506, 0x0708,
				{ 9, 10, 11, 12, 13, 14, 15, 16 } };

static void write_manifest(unsigned long i)
{
	EventWriteBenchSample((unsigned int)i, i * 3, u"bench sample name", &sample_id,
			      -(int)i);
}

static void write_tl(unsigned long i)
{
	TraceLoggingWrite(tl_provider, "Sample",
			  TraceLoggingUInt32((UINT32)i, "Count"),
			  TraceLoggingUInt64((UINT64)i * 3, "Value"),
			  TraceLoggingWideString(u"bench sample name", "Name"),
			  TraceLoggingGuid(sample_id, "Id"),
			  TraceLoggingInt32(-(INT32)i, "Status"));
}

int main(int argc, char **argv)
{
	char a[4096], b[4096];
	unsigned long n, lost;

	if (argc != 3)
		bench_die("usage: etw-bench-manifest DIR N");
	n = strtoul(argv[2], NULL, 0);
	snprintf(a, sizeof(a), "%s/manifest.etl", argv[1]);
	snprintf(b, sizeof(b), "%s/tracelogging.etl", argv[1]);
	if (EventRegisterEtwBench_Manifest() || TraceLoggingRegister(tl_provider))
		bench_die("cannot register the providers");
	lost = record(a, "etw-bench-manifest", &ETW_BENCH_MANIFEST, n, write_manifest);
	lost += record(b, "etw-bench-tracelogging", &tl_guid, n, write_tl);
	TraceLoggingUnregister(tl_provider);
	EventUnregisterEtwBench_Manifest();
	printf("BENCH manifest.records %lu\nBENCH manifest.lost %lu\n", n, lost);
	return 0;
}
