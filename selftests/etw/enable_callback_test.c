// SPDX-License-Identifier: GPL-2.0
/*
 * EnableTraceEx2 as a Windows controller uses it, seen from a Windows
 * provider's EnableCallback: the FilterData argument (seed 000), the
 * Timeout (0 asynchronous; otherwise the call returns after the callbacks
 * did, or ERROR_TIMEOUT), and EnableProperty/EventWriteEx flags reaching
 * the records.
 */
#include <pthread.h>
#include <semaphore.h>

#include <windows.h>
#include <evntprov.h>
#include <evntrace.h>
#include <evntcons.h>

#include "kselftest_harness.h"
#include "etw_selftests.h"

/* What the last callback saw; FilterData is copied (valid in it only). */
struct cb_seen {
	int calls;
	int done;		/* callbacks that returned */
	ULONG is_enabled;
	int has_filter;
	ULONG type, size;
	unsigned char data[ETW_NOTIFICATION_MAX_SIZE];
};

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct cb_seen seen;
static sem_t release;		/* posted to let a held callback return */
static volatile int hold;	/* callbacks wait for @release */
static volatile int slow_ms;	/* callbacks sleep this long */

static void NTAPI callback(LPCGUID source, ULONG is_enabled, UCHAR level,
			   ULONGLONG any, ULONGLONG all,
			   PEVENT_FILTER_DESCRIPTOR filter, PVOID ctx)
{
	pthread_mutex_lock(&lock);
	seen.calls++;
	seen.is_enabled = is_enabled;
	seen.has_filter = filter != NULL;
	seen.type = filter ? filter->Type : 0;
	seen.size = filter ? filter->Size : 0;
	if (filter && filter->Size <= sizeof(seen.data))
		memcpy(seen.data, (const void *)(uintptr_t)filter->Ptr, filter->Size);
	pthread_mutex_unlock(&lock);
	if (hold)
		sem_wait(&release);
	if (slow_ms)
		usleep(slow_ms * 1000);
	pthread_mutex_lock(&lock);
	seen.done++;
	pthread_mutex_unlock(&lock);
}

static int done_count(void)
{
	int n;

	pthread_mutex_lock(&lock);
	n = seen.done;
	pthread_mutex_unlock(&lock);
	return n;
}

/* A properties allocation with room for the name. */
struct pbuf {
	EVENT_TRACE_PROPERTIES p;
	char names[256];
};

static ULONG start(const char *name, CONTROLTRACE_ID *h)
{
	struct pbuf b;

	memset(&b, 0, sizeof(b));
	b.p.Wnode.BufferSize = sizeof(b);
	b.p.Wnode.Flags = WNODE_FLAG_TRACED_GUID;
	b.p.Wnode.ClientContext = 1;
	b.p.LogFileMode = EVENT_TRACE_REAL_TIME_MODE;
	b.p.BufferSize = 64;
	b.p.LoggerNameOffset = sizeof(b.p);
	return StartTraceA(h, name, &b.p);
}

#define LOGGER_ID(h)	((__u32)((h) & 0xffff))

/* EnableTraceEx2 with one filter (or none) and a Timeout. */
static ULONG enable(CONTROLTRACE_ID h, const GUID *g, ULONG code, ULONG timeout,
		    ULONG property, ULONG type, const void *data, ULONG size)
{
	EVENT_FILTER_DESCRIPTOR f = { .Ptr = (uintptr_t)data, .Size = size,
				      .Type = type };
	ENABLE_TRACE_PARAMETERS prm = { .Version = ENABLE_TRACE_PARAMETERS_VERSION_2,
					.EnableProperty = property,
					.EnableFilterDesc = data ? &f : NULL,
					.FilterDescCount = data ? 1 : 0 };

	return EnableTraceEx2(h, g, code, 5, 0, 0, timeout, &prm);
}

FIXTURE(cb)
{
	int fd;
	GUID guid;
	CONTROLTRACE_ID h[3];
	REGHANDLE reg;
};

FIXTURE_SETUP(cb)
{
	char name[32];

	etw_require_root(_metadata);
	self->fd = etw_open_or_skip(_metadata);
	etw_stop_test_sessions(self->fd);
	memset(&seen, 0, sizeof(seen));
	hold = 0;
	slow_ms = 0;
	sem_init(&release, 0, 0);
	etw_test_guid((__u8 *)&self->guid, 0x80);
	for (int i = 0; i < 3; i++) {
		snprintf(name, sizeof(name), "etwtest-cb-%d", i);
		ASSERT_EQ(ERROR_SUCCESS, start(name, &self->h[i]));
	}
	ASSERT_EQ(ERROR_SUCCESS, EventRegister(&self->guid, callback, NULL,
					       &self->reg));
}

FIXTURE_TEARDOWN(cb)
{
	hold = 0;
	for (int i = 0; i < 8; i++)
		sem_post(&release);
	EventUnregister(self->reg);
	if (self->fd >= 0) {
		etw_stop_test_sessions(self->fd);
		close(self->fd);
	}
}

/* A schematized filter: EVENT_FILTER_HEADER then @n bytes of @fill. */
struct sfilter {
	EVENT_FILTER_HEADER h;
	unsigned char body[16];
};

static ULONG sfilter_init(struct sfilter *f, USHORT id, ULONG n, unsigned char fill)
{
	memset(f, 0, sizeof(*f));
	f->h.Id = id;
	f->h.Version = 1;
	f->h.Size = sizeof(f->h) + n;
	memset(f->body, fill, n);
	return f->h.Size;
}

/*
 * The callback's FilterData: NULL without filters, the provider-defined
 * filter of the call that gave it, the sessions' schematized filters as
 * one chain whose InstanceIds work as EventWriteEx Filter bits.
 */
TEST_F(cb, filter_data)
{
	static const char args[] = "Verbosity\0high";
	EVENT_DESCRIPTOR d = { .Id = 1, .Level = 4 };
	const EVENT_FILTER_HEADER *h;
	struct sfilter fa, fb;
	ULONG la = sfilter_init(&fa, 10, 4, 0xa0);
	ULONG lb = sfilter_init(&fb, 11, 16, 0xb0);
	struct etw_counts c;
	ULONG64 bit_a;

	/* No filter: NULL.  Timeout: the callback ran before the return. */
	ASSERT_EQ(ERROR_SUCCESS, enable(self->h[2], &self->guid, 1, 5000, 0, 0,
					NULL, 0));
	EXPECT_EQ(1, done_count());
	EXPECT_EQ(0, seen.has_filter);

	/* A provider-defined filter, as given. */
	ASSERT_EQ(ERROR_SUCCESS, enable(self->h[2], &self->guid, 1, 5000, 0,
					0, args, sizeof(args)));
	EXPECT_EQ(2, done_count());
	ASSERT_EQ(1, seen.has_filter);
	EXPECT_EQ(0, seen.type);
	ASSERT_EQ(sizeof(args), seen.size);
	EXPECT_EQ(0, memcmp(seen.data, args, sizeof(args)));

	/* Two schematized filters: one chain, logger-id order. */
	ASSERT_EQ(ERROR_SUCCESS, enable(self->h[1], &self->guid, 1, 5000, 0,
					EVENT_FILTER_TYPE_SCHEMATIZED, &fb, lb));
	ASSERT_EQ(ERROR_SUCCESS, enable(self->h[0], &self->guid, 1, 5000, 0,
					EVENT_FILTER_TYPE_SCHEMATIZED, &fa, la));
	EXPECT_EQ(4, done_count());
	ASSERT_EQ(1, seen.has_filter);
	EXPECT_EQ(EVENT_FILTER_TYPE_SCHEMATIZED, seen.type);
	ASSERT_EQ(32 + lb, seen.size);
	h = (const EVENT_FILTER_HEADER *)seen.data;
	EXPECT_EQ(10, h->Id);
	EXPECT_EQ(la, h->Size);
	EXPECT_EQ(32, h->NextOffset);
	bit_a = h->InstanceId;
	EXPECT_EQ(1ULL << (LOGGER_ID(self->h[0]) - 1), bit_a);
	h = (const EVENT_FILTER_HEADER *)(seen.data + 32);
	EXPECT_EQ(11, h->Id);
	EXPECT_EQ(0, h->NextOffset);
	EXPECT_EQ(1ULL << (LOGGER_ID(self->h[1]) - 1), h->InstanceId);

	/* The provider filters session A out with the bit it was given. */
	ASSERT_EQ(ERROR_SUCCESS, EventWriteEx(self->reg, &d, bit_a, 0, NULL, NULL,
					      0, NULL));
	ASSERT_LE(0, etw_count(self->fd, LOGGER_ID(self->h[0]),
			       (const __u8 *)&self->guid, &c));
	EXPECT_EQ(0, c.total);
	ASSERT_LE(0, etw_count(self->fd, LOGGER_ID(self->h[1]),
			       (const __u8 *)&self->guid, &c));
	EXPECT_EQ(1, c.total);

	/* EnableTraceEx's one filter takes the same path (no Timeout). */
	ASSERT_EQ(ERROR_SUCCESS, EnableTraceEx2(self->h[2], &self->guid, 0, 0,
						0, 0, 5000, NULL));
	{
		EVENT_FILTER_DESCRIPTOR f = { .Ptr = (uintptr_t)args,
					      .Size = sizeof(args), .Type = 3 };
		int before = done_count();

		ASSERT_EQ(ERROR_SUCCESS, EnableTraceEx(&self->guid, NULL,
						       self->h[2], 1, 5, 0, 0,
						       0, &f));
		for (int i = 0; i < 500 && done_count() == before; i++)
			usleep(10000);
		EXPECT_EQ(before + 1, done_count());
		EXPECT_EQ(3, seen.type);
	}
}

/* Timeout: the call waits for a slow callback, returns before a held one. */
TEST_F(cb, timeout)
{
	slow_ms = 300;
	ASSERT_EQ(ERROR_SUCCESS, enable(self->h[0], &self->guid, 1, 10000, 0, 0,
					NULL, 0));
	EXPECT_EQ(1, done_count());
	ASSERT_EQ(ERROR_SUCCESS, enable(self->h[0], &self->guid, 2, INFINITE, 0,
					0, NULL, 0));
	EXPECT_EQ(2, done_count());
	EXPECT_EQ(2, seen.is_enabled);
	slow_ms = 0;

	/* 0: asynchronous, the callback is still held when the call returns. */
	hold = 1;
	ASSERT_EQ(ERROR_SUCCESS, enable(self->h[1], &self->guid, 1, 0, 0, 0,
					NULL, 0));
	EXPECT_EQ(2, done_count());
	sem_post(&release);
	for (int i = 0; i < 500 && done_count() < 3; i++)
		usleep(10000);
	EXPECT_EQ(3, done_count());

	/* A held callback: ERROR_TIMEOUT, the enable in force anyway. */
	SetLastError(0);
	EXPECT_EQ(ERROR_TIMEOUT, enable(self->h[2], &self->guid, 1, 100, 0, 0,
					NULL, 0));
	EXPECT_EQ(ERROR_TIMEOUT, GetLastError());
	EXPECT_EQ(3, done_count());
	{
		EVENT_DESCRIPTOR d = { .Id = 2, .Level = 4 };
		struct etw_counts c;

		ASSERT_EQ(ERROR_SUCCESS, EventWrite(self->reg, &d, 0, NULL));
		ASSERT_LE(0, etw_count(self->fd, LOGGER_ID(self->h[2]),
				       (const __u8 *)&self->guid, &c));
		EXPECT_EQ(1, c.total);
	}
	hold = 0;
	sem_post(&release);
	for (int i = 0; i < 500 && done_count() < 4; i++)
		usleep(10000);
	EXPECT_EQ(4, done_count());
	/* Disabling waits as well. */
	ASSERT_EQ(ERROR_SUCCESS, enable(self->h[2], &self->guid, 0, 5000, 0, 0,
					NULL, 0));
	EXPECT_EQ(5, done_count());
	EXPECT_EQ(1, seen.is_enabled);	/* two sessions still enable it */
}

struct item_check {
	__u8 guid[16];
	int records, with_sid, bad;
	__u32 sid_uid;
};

static int check_items(const struct etw_test_event_header *h, const __u8 *buf,
		       __u32 cpu, void *ctx)
{
	struct item_check *k = ctx;
	struct etw_test_ext x[8];
	const struct etw_test_ext *sid;
	int n;

	if (memcmp(h->provider_id, k->guid, 16))
		return 0;
	k->records++;
	n = etw_test_ext_items(h, x, 8, NULL);
	if (n < 0) {
		k->bad++;
		return 0;
	}
	sid = etw_test_ext_find(x, n, EVENT_HEADER_EXT_TYPE_SID);
	if (sid && sid->size == 16) {
		k->with_sid++;
		memcpy(&k->sid_uid, sid->data + 12, 4);
	}
	return 0;
}

/* EnableProperty through EnableTraceEx2; INPRIVATE through EventWriteEx. */
TEST_F(cb, enable_property)
{
	EVENT_DESCRIPTOR d = { .Id = 3, .Level = 4 };
	struct item_check k = { 0 };

	ASSERT_EQ(ERROR_SUCCESS, enable(self->h[0], &self->guid, 1, 0,
					EVENT_ENABLE_PROPERTY_SID |
					EVENT_ENABLE_PROPERTY_EXCLUDE_INPRIVATE,
					0, NULL, 0));
	ASSERT_EQ(ERROR_SUCCESS, EventWrite(self->reg, &d, 0, NULL));
	ASSERT_EQ(ERROR_SUCCESS, EventWriteEx(self->reg, &d, 0,
					      EVENT_WRITE_FLAG_INPRIVATE, NULL,
					      NULL, 0, NULL));
	ASSERT_EQ(ERROR_SUCCESS, EventWrite(self->reg, &d, 0, NULL));
	memcpy(k.guid, &self->guid, 16);
	ASSERT_LE(0, etw_drain(self->fd, LOGGER_ID(self->h[0]), check_items, &k));
	EXPECT_EQ(2, k.records);
	EXPECT_EQ(2, k.with_sid);
	EXPECT_EQ(0, k.bad);
	EXPECT_EQ(geteuid(), k.sid_uid);
	/* Every bit Windows defines but PROVIDER_GROUP is accepted. */
	EXPECT_EQ(ERROR_SUCCESS, enable(self->h[0], &self->guid, 1, 0,
					0xfff & ~EVENT_ENABLE_PROPERTY_PROVIDER_GROUP,
					0, NULL, 0));
}

TEST_HARNESS_MAIN
