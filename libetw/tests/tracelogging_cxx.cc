// SPDX-License-Identifier: GPL-2.0
/*
 * TraceLoggingProvider.h compiled as C++: the same metadata as in C (one
 * event checked byte for byte), TraceLoggingValue deduced by templates
 * (bool, char16_t and its strings, 64-bit integers, GUID), and a provider
 * declared in one place and defined in another, as Windows code does.
 * Prints KTAP; libetw's four provider calls are recorders here.
 */
#include <cstdint>
#include <cstdio>
#include <cstring>

#include <TraceLoggingProvider.h>

static struct {
	PENABLECALLBACK callback;
	PVOID context;
	int writes;
	ULONG count;
	EVENT_DATA_DESCRIPTOR data[16];
	unsigned char bytes[16][256];
} rec;

ULONG EVNTAPI EventRegister(LPCGUID, PENABLECALLBACK cb, PVOID ctx, PREGHANDLE h)
{
	rec.callback = cb;
	rec.context = ctx;
	*h = 9;
	return ERROR_SUCCESS;
}

ULONG EVNTAPI EventUnregister(REGHANDLE)
{
	return ERROR_SUCCESS;
}

ULONG EVNTAPI EventSetInformation(REGHANDLE, EVENT_INFO_CLASS, PVOID, ULONG)
{
	return ERROR_SUCCESS;
}

ULONG EVNTAPI EventWriteTransfer(REGHANDLE, PCEVENT_DESCRIPTOR, LPCGUID, LPCGUID,
				 ULONG n, PEVENT_DATA_DESCRIPTOR d)
{
	rec.writes++;
	rec.count = n;
	for (ULONG i = 0; i < n && i < 16; i++) {
		rec.data[i] = d[i];
		std::memcpy(rec.bytes[i], (const void *)(uintptr_t)d[i].Ptr,
			    d[i].Size < 256 ? d[i].Size : 256);
	}
	return ERROR_SUCCESS;
}

TRACELOGGING_DECLARE_PROVIDER(g_cxx);
TRACELOGGING_DEFINE_PROVIDER(g_cxx, "Cxx",
	(0x1, 0x2, 0x3, 0x4, 0x5, 0x6, 0x7, 0x8, 0x9, 0xa, 0xb));

static int tests, failed;

static void check(bool ok, const char *what)
{
	tests++;
	failed += !ok;
	std::printf("%s %d %s\n", ok ? "ok" : "not ok", tests, what);
}

static bool bytes_are(int i, const unsigned char *want, size_t n)
{
	return rec.data[i].Size == n && !std::memcmp(rec.bytes[i], want, n);
}

int main()
{
	static const unsigned char meta[] = {
		0x23, 0x00, 0x00, 'C', 0x00,
		'b', 0x00, 0x84, 0x03,		/* bool: UINT8, BOOLEAN */
		'c', 0x00, 0x86, 0x02,		/* char16_t: UINT16, STRING */
		'w', 0x00, 0x81, 0x00,		/* const char16_t *: UNICODESTRING */
		'u', 0x00, 0x8a, 0x00,		/* uint64_t */
		'g', 0x00, 0x8f, 0x00,		/* GUID */
		's', 0x00, 0x82, 0x00,		/* const char *: ANSISTRING */
		'a', 0x00, 0x47,		/* Int32Array */
		'x', 0x00, 0x07,		/* Int32 */
	};
	static const unsigned char wide[] = { 'h', 0, 'i', 0, 0, 0 };
	const int32_t arr[2] = { 5, 6 };
	const GUID g = { 1, 2, 3, { 4, 5, 6, 7, 8, 9, 10, 11 } };
	const char16_t *w = u"hi";
	uint64_t u = 1;
	char16_t c = u'Z';

	std::printf("TAP version 13\n1..6\n");
	check(TraceLoggingRegister(g_cxx) == S_OK, "register");
	rec.callback(nullptr, 1, 5, ~0ULL, 0, nullptr, rec.context);
	TraceLoggingWrite(g_cxx, "C",
		TraceLoggingValue(true, "b"), TraceLoggingValue(c), TraceLoggingValue(w),
		TraceLoggingValue(u), TraceLoggingValue(g), TraceLoggingValue("str", "s"),
		TraceLoggingInt32Array(arr, 2, "a"), TraceLoggingInt32(7, "x"));
	check(rec.writes == 1 && rec.count == 2 + 9, "one write, eight fields (the array takes two)");
	check(bytes_are(1, meta, sizeof(meta)), "metadata as in C");
	check(bytes_are(4, wide, sizeof(wide)), "char16_t string payload");
	check(bytes_are(7, (const unsigned char *)"str", 4), "narrow string payload");
	TraceLoggingUnregister(g_cxx);
	check(!TraceLoggingProviderEnabled(g_cxx, 0, 0), "unregistered is disabled");
	return failed != 0;
}
