/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Recorders in place of libetw's provider calls, for the host tests of
 * TraceLoggingProvider.h and etw_tld: they keep what the code under test
 * handed to EventRegister, EventSetInformation, EventWriteTransfer and
 * EventWriteEx.
 * Include after kselftest_harness.h.
 */
#ifndef TL_RECORDER_H
#define TL_RECORDER_H

/* The inline enable test would bypass the recorders and need libetw. */
#ifndef LIBETW_NO_INLINE_ENABLED
#error "define LIBETW_NO_INLINE_ENABLED before including any libetw header"
#endif

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <windows.h>
#include <evntprov.h>

#define REC_HANDLE	42
#define REC_DESCS	130
#define REC_BYTES	512

static struct {
	GUID id;
	PENABLECALLBACK callback;
	PVOID context;
	int registers, unregisters, writes;
	UCHAR traits[64];
	ULONG traits_len;
	EVENT_DESCRIPTOR desc;
	LPCGUID activity, related;
	ULONG64 filter;
	ULONG flags;
	int write_exs;
	ULONG count;
	EVENT_DATA_DESCRIPTOR data[REC_DESCS];
	UCHAR bytes[REC_DESCS][REC_BYTES];
} rec;

ULONG EVNTAPI EventRegister(LPCGUID id, PENABLECALLBACK cb, PVOID ctx, PREGHANDLE h)
{
	rec.id = *id;
	rec.callback = cb;
	rec.context = ctx;
	rec.registers++;
	*h = REC_HANDLE;
	return ERROR_SUCCESS;
}

ULONG EVNTAPI EventUnregister(REGHANDLE h)
{
	rec.unregisters++;
	return h == REC_HANDLE ? ERROR_SUCCESS : ERROR_INVALID_HANDLE;
}

/* Enabled up to level 4, as a session at level 4 would have it. */
BOOLEAN EVNTAPI EventProviderEnabled(REGHANDLE h, UCHAR level, ULONGLONG keyword)
{
	return h == REC_HANDLE && level <= 4;
}

ULONG EVNTAPI EventSetInformation(REGHANDLE h, EVENT_INFO_CLASS c, PVOID p, ULONG n)
{
	if (h != REC_HANDLE || c != EventProviderSetTraits || n > sizeof(rec.traits))
		return ERROR_INVALID_PARAMETER;
	memcpy(rec.traits, p, n);
	rec.traits_len = n;
	return ERROR_SUCCESS;
}

ULONG EVNTAPI EventWriteTransfer(REGHANDLE h, PCEVENT_DESCRIPTOR d, LPCGUID a,
				 LPCGUID r, ULONG n, PEVENT_DATA_DESCRIPTOR data)
{
	rec.writes++;
	rec.desc = *d;
	rec.activity = a;
	rec.related = r;
	rec.count = n;
	for (ULONG i = 0; i < n && i < REC_DESCS; i++) {
		rec.data[i] = data[i];
		memcpy(rec.bytes[i], (const void *)(uintptr_t)data[i].Ptr,
		       data[i].Size < REC_BYTES ? data[i].Size : REC_BYTES);
	}
	return h == REC_HANDLE ? ERROR_SUCCESS : ERROR_INVALID_HANDLE;
}

ULONG EVNTAPI EventWriteEx(REGHANDLE h, PCEVENT_DESCRIPTOR d, ULONG64 filter,
			   ULONG flags, LPCGUID a, LPCGUID r, ULONG n,
			   PEVENT_DATA_DESCRIPTOR data)
{
	rec.write_exs++;
	rec.filter = filter;
	rec.flags = flags;
	return EventWriteTransfer(h, d, a, r, n, data);
}

/* Descriptor i as hex, for the failure messages. */
static inline const char *rec_hex(int i)
{
	static char buf[3 * REC_BYTES + 1];

	buf[0] = 0;
	for (ULONG k = 0; k < rec.data[i].Size && k < REC_BYTES; k++)
		sprintf(buf + 3 * k, "%02x ", rec.bytes[i][k]);
	return buf;
}

/* Descriptor i as bytes, compared with the expected ones. */
#define EXPECT_BYTES(i, ...)						\
	do {								\
		static const UCHAR want[] = { __VA_ARGS__ };		\
		EXPECT_EQ(sizeof(want), rec.data[i].Size);		\
		EXPECT_EQ(0, memcmp(rec.bytes[i], want, sizeof(want)))	\
			TH_LOG("descriptor %d: %s", i, rec_hex(i));	\
	} while (0)

#endif /* TL_RECORDER_H */
