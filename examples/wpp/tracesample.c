// SPDX-License-Identifier: MIT
/*
 * The WPP sample: a program traced with DoTraceMessage as Windows drivers
 * and services are, built unchanged by running etw wpp before the
 * compiler (Makefile, CMakeLists.txt).  Every value it logs is a constant,
 * so a test can check each argument's bytes; README.md lists the lines a
 * formatter prints for them.
 */
#include <windows.h>
#include <sddl.h>

#include "trace.h"
#include "tracesample.tmh"

static const GUID SampleGuid = { 0x12345678, 0x9abc, 0xdef0,
				 { 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08 } };
/* S-1-5-18 */
static const BYTE LocalSystem[] = { 1, 1, 0, 0, 0, 0, 0, 5, 18, 0, 0, 0 };

void SampleStart(void)
{
	WPP_INIT_TRACING(L"TraceSample");
}

void SampleStop(void)
{
	WPP_CLEANUP();
}

static LONG SampleIo(int i)
{
	return i % 2 ? STATUS_DEVICE_POWERED_OFF : STATUS_SUCCESS;
}

static void SampleTypes(void)
{
	char ansi_text[] = "ansi";
	WCHAR wide_text[] = L"unicode";
	ANSI_STRING ansi = { 4, 5, ansi_text };
	UNICODE_STRING uni = { 14, 16, wide_text };

	DoTraceMessage(FLAG_TWO, "%!FUNC!: %u %x %08X %o %hd %hu %ld %lu %c %C",
		       3000000000u, 0xbeef, 0xabc, 8, (short)-2, (USHORT)65535,
		       (LONG)-100000, (ULONG)4000000000u, 'A', L'W');
	DoTraceMessage(FLAG_TWO, "Numbers: %I64d %I64u %I64x %lld, pointer %p %Ix, double %f",
		       -5000000000LL, 18000000000000000000ULL, 0x123456789abcdefLL,
		       42LL, (void *)0x1234, (ULONG_PTR)0xfedc, 2.5);
	DoTraceMessage(FLAG_TWO, "strings %s %S %ls, NULL %s %S, empty %S",
		       "narrow", L"wide", L"ls", (const char *)NULL,
		       (LPCWSTR)NULL, L"");
	DoTraceMessage(FLAG_TWO, "counted %Z %wZ", &ansi, &uni);
	DoTraceMessage(FLAG_TWO, "guid %!GUID! status %!STATUS! error %!WINERROR! hr %!HRESULT!",
		       &SampleGuid, (LONG)0xC0000005, 5u, (LONG)0x80070005);
	DoTraceMessage(FLAG_TWO, "address %!IPADDR! port %!PORT! time %!TIMESTAMP! delta %!delta!",
		       0x0100007Fu, (USHORT)0x5000, 133000000000000000LL,
		       -10000000LL);
	DoTraceMessage(FLAG_TWO, "%!bool! %!bool8! %!irql! %!cccc! %!sid!",
		       1, 0, 2, 0x64636261, (PSID)LocalSystem);
}

void SampleRun(int iterations)
{
	for (int i = 1; i <= iterations; i++) {
		LONG status = SampleIo(i);

		DoTraceMessage(FLAG_ONE, "Hello, %d %s", i, "Hi");
		TRACE_RETURN(status);
	}
	DoTraceLevelMessage(TRACE_LEVEL_ERROR, FLAG_TWO, "Machine State :: %!state!", Offline);
	DoTraceLevelMessage(TRACE_LEVEL_VERBOSE, FLAG_TWO, "not at this level: %d", 5);
	DoTraceLevelMessage(TRACE_LEVEL_INFORMATION, FLAG_ONE,
			    "%!FILE!:%!LINE! %!LEVEL! %!FLAGS!");
	SampleTypes();
}
