// SPDX-License-Identifier: MIT
/*
 * A TraceLogging provider written as on Windows: the provider is defined
 * once with its name and GUID, events are written with their fields, and
 * nothing is registered anywhere for a consumer to decode them.
 *
 *   etw record -p MyCompany.MyComponent -o app.etl -- ./tracelogging 3
 *   etw dump app.etl
 *
 * Provider "MyCompany.MyComponent", GUID ce5fa4ea-ab00-5402-8b76-9f76ac858fb5
 * (`etw guid MyCompany.MyComponent`).
 */
#include <stdio.h>
#include <stdlib.h>

#include <windows.h>
#include <TraceLoggingProvider.h>

TRACELOGGING_DEFINE_PROVIDER(g_hProvider, "MyCompany.MyComponent",
	(0xce5fa4ea, 0xab00, 0x5402, 0x8b, 0x76, 0x9f, 0x76, 0xac, 0x85, 0x8f, 0xb5));

int main(int argc, char **argv)
{
	int count = argc > 1 ? atoi(argv[1]) : 1;
	static const UINT16 ports[3] = { 80, 443, 8080 };
	HRESULT hr = TraceLoggingRegister(g_hProvider);

	if (hr != S_OK) {
		fprintf(stderr, "TraceLoggingRegister: 0x%08x\n", (unsigned int)hr);
		return 1;
	}
	for (int i = 0; i < count; i++)
		TraceLoggingWrite(g_hProvider, "Request",
			TraceLoggingLevel(WINEVENT_LEVEL_INFO),
			TraceLoggingKeyword(0x1),
			TraceLoggingInt32(i, "Index"),
			TraceLoggingString(argv[0], "Program"),
			TraceLoggingWideString(u"caf\u00e9", "Where"),
			TraceLoggingStruct(2, "Peer"),
				TraceLoggingIPv4Address(0x0100007f, "Address"),
				TraceLoggingUInt16Array(ports, 3, "Ports"),
			TraceLoggingHResult(hr, "Result"));
	TraceLoggingUnregister(g_hProvider);
	printf("wrote %d TraceLogging event%s\n", count, count == 1 ? "" : "s");
	return 0;
}
