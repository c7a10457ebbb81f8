// SPDX-License-Identifier: GPL-2.0
/*
 * TraceLoggingProvider.h compiled as C++: the metadata as Windows' C++
 * header builds it, byte for byte (TraceLoggingValue deduced by templates
 * for bool, char16_t and its strings, 64-bit integers, GUID, with an
 * out-type byte only when there is an out-type; event tags in the
 * shortest form, field tags in the 4-byte form), and a provider declared
 * in one place and defined in another, as Windows code does.
 * Prints KTAP; libetw's four provider calls are recorders here.
 */
/* The recorders replace libetw's functions: no inline enable test. */
#define LIBETW_NO_INLINE_ENABLED
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
	/* As Windows' templates: the out-type byte only when there is one. */
	static const unsigned char meta[] = {
		0x1f, 0x00, 0x00, 'C', 0x00,
		'b', 0x00, 0x84, 0x03,		/* bool: UINT8, BOOLEAN */
		'c', 0x00, 0x86, 0x02,		/* char16_t: UINT16, STRING */
		'w', 0x00, 0x01,		/* const char16_t *: UNICODESTRING */
		'u', 0x00, 0x0a,		/* uint64_t */
		'g', 0x00, 0x0f,		/* GUID */
		's', 0x00, 0x02,		/* const char *: ANSISTRING */
		'a', 0x00, 0x47,		/* Int32Array */
		'x', 0x00, 0x07,		/* Int32 */
	};
	/* Event tags in the shortest form; field tags in the 4-byte form. */
	static const unsigned char tag1[] = {
		0x0d, 0x00, 0x01, 'T', 0x00, 'v', 0x00, 0x87, 0x80, 0x80, 0x80, 0x80, 0x01,
	};
	static const unsigned char tag2[] = { 0x06, 0x00, 0x80, 0x01, 'T', 0x00 };
	static const unsigned char tag4[] = { 0x08, 0x00, 0x80, 0x80, 0x80, 0x01, 'T', 0x00 };
	static const unsigned char ustr[] = { 0x08, 0x00, 0x00, 'U', 0x00, 'u', 0x00, 0x16 };
	static const unsigned char ubytes[] = { 'x', 0, 'y', 0 };
	const UNICODE_STRING us = { 4, 4, (PWSTR)u"xyz" };
	static const unsigned char wide[] = { 'h', 0, 'i', 0, 0, 0 };
	const int32_t arr[2] = { 5, 6 };
	const GUID g = { 1, 2, 3, { 4, 5, 6, 7, 8, 9, 10, 11 } };
	const char16_t *w = u"hi";
	uint64_t u = 1;
	char16_t c = u'Z';

	std::printf("TAP version 13\n1..10\n");
	check(TraceLoggingRegister(g_cxx) == S_OK, "register");
	rec.callback(nullptr, 1, 5, ~0ULL, 0, nullptr, rec.context);
	TraceLoggingWrite(g_cxx, "C",
		TraceLoggingValue(true, "b"), TraceLoggingValue(c), TraceLoggingValue(w),
		TraceLoggingValue(u), TraceLoggingValue(g), TraceLoggingValue("str", "s"),
		TraceLoggingInt32Array(arr, 2, "a"), TraceLoggingInt32(7, "x"));
	check(rec.writes == 1 && rec.count == 2 + 9, "one write, eight fields (the array takes two)");
	check(bytes_are(1, meta, sizeof(meta)), "metadata as Windows' C++ header builds it");
	check(bytes_are(4, wide, sizeof(wide)), "char16_t string payload");
	check(bytes_are(7, (const unsigned char *)"str", 4), "narrow string payload");
	TraceLoggingWrite(g_cxx, "T", TraceLoggingEventTag(0x200000),
			  TraceLoggingValue(1, "v", "desc", 1));
	check(bytes_are(1, tag1, sizeof(tag1)), "1-byte event tag, 4-byte field tag");
	TraceLoggingWrite(g_cxx, "T", TraceLoggingEventTag(0x4000));
	check(bytes_are(1, tag2, sizeof(tag2)), "2-byte event tag");
	TraceLoggingWrite(g_cxx, "T", TraceLoggingEventTag(0x1));
	check(bytes_are(1, tag4, sizeof(tag4)), "4-byte event tag");
	TraceLoggingWrite(g_cxx, "U", TraceLoggingUnicodeString(&us, "u"));
	check(bytes_are(1, ustr, sizeof(ustr)) && bytes_are(3, ubytes, sizeof(ubytes)),
	      "UNICODE_STRING: counted");
	TraceLoggingUnregister(g_cxx);
	check(!TraceLoggingProviderEnabled(g_cxx, 0, 0), "unregistered is disabled");
	return failed != 0;
}
