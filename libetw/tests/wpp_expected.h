/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the WPP sample (examples/wpp) writes for SampleRun(2), record by
 * record, and the argument bytes Windows' templates log for each: shared
 * by the host test (a private logger) and the VM selftest (a session).
 * Include after the harness and <windows.h>.
 */
#ifndef WPP_EXPECTED_H
#define WPP_EXPECTED_H

#include <string.h>
#include <unistd.h>

#include <etw_etl.h>

struct wpp_want {
	USHORT number;
	unsigned char data[256];
	size_t size;
};

static inline void wpp_put(struct wpp_want *w, const void *v, size_t n)
{
	memcpy(w->data + w->size, v, n);
	w->size += n;
}

#define WPP_PUT(w, type, v) do { type _v = (v); wpp_put(w, &_v, sizeof(_v)); } while (0)

/* One message the sample may write: its flag, its level (0: none). */
static inline int wpp_wanted(ULONG flags, UCHAR level, ULONG flag, UCHAR at)
{
	return (flags & flag) && (!at || at <= level);
}

/*
 * The records of SampleRun(2) under a session enabling the control GUID
 * with @flags and @level, in time order; returns how many.
 */
static inline int wpp_expected(struct wpp_want *w, ULONG flags, UCHAR level)
{
	static const BYTE sid[] = { 1, 1, 0, 0, 0, 0, 0, 5, 18, 0, 0, 0 };
	static const GUID sample = { 0x12345678, 0x9abc, 0xdef0, { 1, 2, 3, 4, 5, 6, 7, 8 } };
	struct wpp_want *x;
	int n = 0;

	memset(w, 0, sizeof(*w) * 13);
	for (int i = 1; i <= 2; i++) {
		if (!wpp_wanted(flags, level, 1, 0))
			break;
		x = &w[n++];			/* Hello, i Hi */
		x->number = 17;
		WPP_PUT(x, INT32, i);
		wpp_put(x, "Hi", 3);
		if (i == 1) {			/* TRACE_RETURN: the failed status only */
			x = &w[n++];
			x->number = 18;
			WPP_PUT(x, INT32, (INT32)0x8000000F);
		}
	}
	if (wpp_wanted(flags, level, 2, TRACE_LEVEL_ERROR)) {
		x = &w[n++];			/* ItemEnum: 4 bytes */
		x->number = 19;
		WPP_PUT(x, UINT32, 2);
	}
	if (wpp_wanted(flags, level, 2, TRACE_LEVEL_VERBOSE)) {
		x = &w[n++];
		x->number = 20;
		WPP_PUT(x, INT32, 5);
	}
	if (wpp_wanted(flags, level, 1, TRACE_LEVEL_INFORMATION))
		w[n++].number = 21;		/* %!FILE! ...: nothing logged */
	if (!wpp_wanted(flags, level, 2, 0))
		return n;
	x = &w[n++];
	x->number = 10;
	WPP_PUT(x, UINT32, 3000000000u);
	WPP_PUT(x, UINT32, 0xbeef);
	WPP_PUT(x, UINT32, 0xabc);
	WPP_PUT(x, UINT32, 8);
	WPP_PUT(x, INT16, -2);
	WPP_PUT(x, UINT16, 65535);
	WPP_PUT(x, INT32, -100000);
	WPP_PUT(x, UINT32, 4000000000u);
	WPP_PUT(x, char, 'A');
	WPP_PUT(x, INT16, 'W');
	x = &w[n++];
	x->number = 11;
	WPP_PUT(x, INT64, -5000000000LL);
	WPP_PUT(x, UINT64, 18000000000000000000ULL);
	WPP_PUT(x, INT64, 0x123456789abcdefLL);
	WPP_PUT(x, INT64, 42);
	WPP_PUT(x, UINT64, 0x1234);
	WPP_PUT(x, UINT64, 0xfedc);
	WPP_PUT(x, double, 2.5);
	x = &w[n++];				/* strings with their NULs */
	x->number = 12;
	wpp_put(x, "narrow", 7);
	wpp_put(x, u"wide", 10);
	wpp_put(x, u"ls", 6);
	wpp_put(x, "NULL", 5);
	wpp_put(x, u"NULL", 10);
	wpp_put(x, u"<NULL>", 14);
	x = &w[n++];				/* counted: Length, then the bytes */
	x->number = 13;
	WPP_PUT(x, UINT16, 4);
	wpp_put(x, "ansi", 4);
	WPP_PUT(x, UINT16, 14);
	wpp_put(x, u"unicode", 14);
	x = &w[n++];
	x->number = 14;
	wpp_put(x, &sample, 16);
	WPP_PUT(x, UINT32, 0xC0000005);
	WPP_PUT(x, UINT32, 5);
	WPP_PUT(x, UINT32, 0x80070005);
	x = &w[n++];
	x->number = 15;
	wpp_put(x, "\x7f\0\0\x01", 4);		/* 127.0.0.1 as given */
	wpp_put(x, "\0\x50", 2);		/* port 80 as given */
	WPP_PUT(x, INT64, 133000000000000000LL);
	WPP_PUT(x, INT64, -10000000LL);
	x = &w[n++];
	x->number = 16;
	WPP_PUT(x, INT32, 1);
	WPP_PUT(x, char, 0);
	WPP_PUT(x, char, 2);
	wpp_put(x, "abcd", 4);
	wpp_put(x, sid, sizeof(sid));
	return n;
}

/* A record against what was wanted: number, GUID, flags, bytes. */
static inline void wpp_check(struct __test_metadata *_metadata, const GUID *guid,
			     const struct etw_etl_event *r, const struct wpp_want *w)
{
	EXPECT_EQ(w->number, r->id);
	EXPECT_EQ(0, memcmp(&r->provider, guid, 16));
	/* 0x2B as Windows' templates pass it, and the writer's pointer size. */
	EXPECT_EQ(TRACE_MESSAGE_SEQUENCE | TRACE_MESSAGE_GUID | TRACE_MESSAGE_SYSTEMINFO |
		  TRACE_MESSAGE_TIMESTAMP | TRACE_MESSAGE_POINTER64, r->header_flags);
	EXPECT_EQ(getpid(), r->process_id);
	ASSERT_EQ(w->size, r->data_size);
	EXPECT_EQ(0, memcmp(r->data, w->data, w->size));
	if (w->size != r->data_size || memcmp(r->data, w->data, w->size))
		TH_LOG("message %u: the arguments differ", w->number);
}

#endif /* WPP_EXPECTED_H */
