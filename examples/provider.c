// SPDX-License-Identifier: MIT
/*
 * A provider as Windows code writes one: EventRegister with an enable
 * callback, EventWrite while some session enables it, EventUnregister.
 *
 *   cc provider.c $(pkg-config --cflags --libs libetw) -o provider
 *   ./provider [COUNT]
 *
 * Provider GUID {b3864c38-4273-58c5-545b-8b3608343471} ("MyProvider").
 */
#include <stdio.h>
#include <stdlib.h>

#include <windows.h>
#include <evntprov.h>

static const GUID provider_guid = {
	0xb3864c38, 0x4273, 0x58c5, { 0x54, 0x5b, 0x8b, 0x36, 0x08, 0x34, 0x34, 0x71 }
};

static void NTAPI on_enable(LPCGUID source, ULONG is_enabled, UCHAR level,
			    ULONGLONG any, ULONGLONG all,
			    PEVENT_FILTER_DESCRIPTOR filter, PVOID context)
{
	(void)source;
	(void)filter;
	(void)context;
	printf("provider: callback IsEnabled=%u Level=%u MatchAny=0x%llx MatchAll=0x%llx\n",
	       is_enabled, level, (unsigned long long)any, (unsigned long long)all);
}

int main(int argc, char **argv)
{
	EVENT_DESCRIPTOR hello = { .Id = 1, .Version = 0, .Level = 4, .Keyword = 0x1 };
	int count = argc > 1 ? atoi(argv[1]) : 5;
	EVENT_DATA_DESCRIPTOR data[2];
	REGHANDLE handle;
	ULONG err;

	err = EventRegister(&provider_guid, on_enable, NULL, &handle);
	if (err) {
		fprintf(stderr, "provider: EventRegister failed: %u\n", err);
		return 1;
	}
	printf("provider: enabled=%d\n", EventEnabled(handle, &hello));
	for (int i = 0; i < count; i++) {
		static const char text[] = "hello from Linux";

		EventDataDescCreate(&data[0], &i, sizeof(i));
		EventDataDescCreate(&data[1], text, sizeof(text));
		err = EventWrite(handle, &hello, 2, data);
		if (err)
			fprintf(stderr, "provider: EventWrite failed: %u\n", err);
	}
	printf("provider: wrote %d events\n", count);
	EventUnregister(handle);
	return 0;
}
