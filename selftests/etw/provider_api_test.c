// SPDX-License-Identifier: GPL-2.0
/*
 * The Windows provider API of libetw over the module: EventRegister and
 * its enable callback (seed 000), EventEnabled and the disabled path
 * without system calls, EventWrite* and their error codes, activity ids.
 * The controller side is driven with the raw ioctls here.
 */
#include <dirent.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <pthread.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>

#include <windows.h>
#include <evntprov.h>
#include <evntrace.h>

#include "kselftest_harness.h"
#include "etw_selftests.h"

struct cb_log {
	pthread_mutex_t lock;
	int calls;
	GUID source;
	ULONG is_enabled;
	UCHAR level;
	ULONGLONG any, all;
	pthread_t thread;
};

static struct cb_log cblog = { .lock = PTHREAD_MUTEX_INITIALIZER };

static void NTAPI callback(LPCGUID source, ULONG is_enabled, UCHAR level,
			   ULONGLONG any, ULONGLONG all,
			   PEVENT_FILTER_DESCRIPTOR filter, PVOID ctx)
{
	struct cb_log *l = ctx;

	pthread_mutex_lock(&l->lock);
	l->calls++;
	l->source = *source;
	l->is_enabled = is_enabled;
	l->level = level;
	l->any = any;
	l->all = all;
	l->thread = pthread_self();
	pthread_mutex_unlock(&l->lock);
}

/* Wait up to 5 s for the callback count to reach @n. */
static int wait_calls(int n)
{
	int i, calls = 0;

	for (i = 0; i < 500; i++) {
		pthread_mutex_lock(&cblog.lock);
		calls = cblog.calls;
		pthread_mutex_unlock(&cblog.lock);
		if (calls >= n)
			break;
		usleep(10000);
	}
	return calls;
}

/* The @n-th callback came, with these arguments. */
static void expect_callback(struct __test_metadata *_metadata, int n,
			    ULONG is_enabled, UCHAR level, ULONGLONG any,
			    ULONGLONG all)
{
	ASSERT_EQ(n, wait_calls(n));
	pthread_mutex_lock(&cblog.lock);
	EXPECT_EQ(is_enabled, cblog.is_enabled);
	EXPECT_EQ(level, cblog.level);
	EXPECT_EQ(any, cblog.any);
	EXPECT_EQ(all, cblog.all);
	pthread_mutex_unlock(&cblog.lock);
}

FIXTURE(api)
{
	int fd;		/* the controller's own descriptor */
	GUID guid;
	__u32 s[2];
};

FIXTURE_SETUP(api)
{
	etw_require_root(_metadata);
	self->fd = etw_open_or_skip(_metadata);
	etw_stop_test_sessions(self->fd);
	etw_test_guid((__u8 *)&self->guid, 0x30);
	ASSERT_EQ(0, etw_session_start_simple(self->fd, "etwtest-api0", 0, 8, 0, &self->s[0]));
	ASSERT_EQ(0, etw_session_start_simple(self->fd, "etwtest-api1", 0, 8, 0, &self->s[1]));
	memset(&cblog, 0, sizeof(cblog));
	pthread_mutex_init(&cblog.lock, NULL);
}

FIXTURE_TEARDOWN(api)
{
	if (self->fd >= 0) {
		etw_stop_test_sessions(self->fd);
		close(self->fd);
	}
}

TEST_F(api, register_arguments)
{
	REGHANDLE h = 1234;

	EXPECT_EQ(ERROR_INVALID_PARAMETER, EventRegister(NULL, NULL, NULL, &h));
	EXPECT_EQ(0, h);
	EXPECT_EQ(ERROR_INVALID_PARAMETER, EventRegister(&self->guid, NULL, NULL, NULL));
	EXPECT_EQ(ERROR_INVALID_HANDLE, EventUnregister(0));
	EXPECT_EQ(ERROR_INVALID_HANDLE, EventUnregister(0xdead00000001ULL));
	ASSERT_EQ(ERROR_SUCCESS, EventRegister(&self->guid, NULL, NULL, &h));
	EXPECT_NE(0, h);
	EXPECT_EQ(ERROR_SUCCESS, EventUnregister(h));
	EXPECT_EQ(ERROR_INVALID_HANDLE, EventUnregister(h));
	EXPECT_FALSE(EventProviderEnabled(h, 0, 0));
}

TEST_F(api, callbacks_follow_seed_000)
{
	const __u8 *g = (const __u8 *)&self->guid;
	struct etw_enable e = { .size = sizeof(e) };
	static const GUID zero;
	REGHANDLE h;

	ASSERT_EQ(ERROR_SUCCESS, EventRegister(&self->guid, callback, &cblog, &h));
	EXPECT_EQ(0, cblog.calls);	/* nobody enabled it */

	e.logger_id = self->s[0];
	e.control_code = 1;
	memcpy(e.guid, g, 16);
	memset(e.source_id, 0x5a, 16);
	e.level = 3;
	e.match_any = 0x5;
	e.match_all = 0x1;
	ASSERT_EQ(0, etw_ioctl_err(self->fd, ETW_IOC_ENABLE, &e));
	expect_callback(_metadata, 1, 1, 3, 0x5, 0x1);
	EXPECT_EQ(0, memcmp(e.source_id, &cblog.source, 16));
	/* On a libetw thread, not ours. */
	EXPECT_FALSE(pthread_equal(pthread_self(), cblog.thread));
	EXPECT_TRUE(EventProviderEnabled(h, 3, 0x1));
	EXPECT_FALSE(EventProviderEnabled(h, 4, 0x1));
	EXPECT_FALSE(EventProviderEnabled(h, 3, 0x4));	/* lacks MatchAll 0x1 */
	EXPECT_TRUE(EventProviderEnabled(h, 0, 0));

	/* A second session, then the first leaves: still enabled (1). */
	ASSERT_EQ(0, etw_enable_simple(self->fd, self->s[1], g, 1, 5, 0x2, 0, 0));
	expect_callback(_metadata, 2, 1, 5, 0x7, 0x0);
	ASSERT_EQ(0, etw_enable_simple(self->fd, self->s[0], g, 0, 0, 0, 0, 0));
	ASSERT_EQ(3, wait_calls(3));
	EXPECT_EQ(1, cblog.is_enabled);
	EXPECT_EQ(0x2, cblog.any);

	/* Capture state: 2. */
	ASSERT_EQ(0, etw_enable_simple(self->fd, self->s[1], g, 2, 0, 0, 0, 0));
	ASSERT_EQ(4, wait_calls(4));
	EXPECT_EQ(2, cblog.is_enabled);

	/* The last one stops: 0, and a zero SourceId. */
	ASSERT_EQ(0, etw_session_ctl(self->fd, self->s[1], ETW_CONTROL_STOP, NULL));
	ASSERT_EQ(5, wait_calls(5));
	EXPECT_EQ(0, cblog.is_enabled);
	EXPECT_EQ(0, memcmp(&zero, &cblog.source, 16));
	EXPECT_FALSE(EventProviderEnabled(h, 0, 0));

	/* After EventUnregister returns, no more callbacks. */
	EXPECT_EQ(ERROR_SUCCESS, EventUnregister(h));
	ASSERT_EQ(0, etw_enable_simple(self->fd, self->s[0], g, 1, 5, 0, 0, 0));
	usleep(200000);
	pthread_mutex_lock(&cblog.lock);
	EXPECT_EQ(5, cblog.calls);
	pthread_mutex_unlock(&cblog.lock);
}

TEST_F(api, pre_enabled_callback_runs_in_register)
{
	static const GUID zero;
	REGHANDLE h;

	ASSERT_EQ(0, etw_enable_simple(self->fd, self->s[0], (__u8 *)&self->guid,
				       1, 4, 0x10, 0, 0));
	ASSERT_EQ(ERROR_SUCCESS, EventRegister(&self->guid, callback, &cblog, &h));
	/* Already called, on this thread, before EventRegister returned. */
	EXPECT_EQ(1, cblog.calls);
	EXPECT_TRUE(pthread_equal(pthread_self(), cblog.thread));
	EXPECT_EQ(1, cblog.is_enabled);
	EXPECT_EQ(4, cblog.level);
	EXPECT_EQ(0x10, cblog.any);
	EXPECT_EQ(0, memcmp(&zero, &cblog.source, 16));
	EventUnregister(h);
}

/*
 * The disabled path makes no system call: with every ioctl failing (a
 * seccomp filter), disabled and filtered-out writes still succeed, and an
 * enabled one reports the failure.
 */
TEST_F(api, disabled_path_makes_no_syscall)
{
	GUID g3 = self->guid;
	REGHANDLE h, was;
	pid_t pid;
	int status;

	/*
	 * A provider enabled, then disabled: its state is all zeros again, so
	 * the inline test (which reads one field: match_any_at[level] for a
	 * constant event with keywords, else the level or MatchAny) still
	 * answers without a system call.
	 */
	((__u8 *)&g3)[14] ^= 0xff;
	ASSERT_EQ(ERROR_SUCCESS, EventRegister(&g3, NULL, NULL, &was));
	ASSERT_EQ(0, etw_enable_simple(self->fd, self->s[0], (__u8 *)&g3,
				       1, 5, 0x3, 0, 0));
	ASSERT_EQ(0, etw_enable_simple(self->fd, self->s[0], (__u8 *)&g3,
				       0, 0, 0, 0, 0));
	ASSERT_EQ(ERROR_SUCCESS, EventRegister(&self->guid, NULL, NULL, &h));
	ASSERT_EQ(0, etw_enable_simple(self->fd, self->s[0], (__u8 *)&self->guid,
				       1, 3, 0x1, 0, 0));
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		struct sock_filter f[] = {
			BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
			BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_ioctl, 0, 1),
			BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | (EHWPOISON & 0xffff)),
			BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
		};
		struct sock_fprog prog = { .len = 4, .filter = f };
		EVENT_DESCRIPTOR quiet = { .Level = 5, .Keyword = 0x1 };
		EVENT_DESCRIPTOR other = { .Level = 2, .Keyword = 0x2 };
		EVENT_DESCRIPTOR loud = { .Level = 2, .Keyword = 0x1 };
		REGHANDLE off;
		GUID g2 = self->guid;
		int bad = 0;

		((__u8 *)&g2)[15] ^= 0xff;
		if (EventRegister(&g2, NULL, NULL, &off))
			_exit(100);
		if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) ||
		    prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog))
			_exit(101);
		bad |= EventWrite(off, &loud, 0, NULL) != ERROR_SUCCESS;
		bad |= EventEnabled(off, &loud) << 1;
		bad |= (EventWrite(h, &quiet, 0, NULL) != ERROR_SUCCESS) << 2;
		bad |= (EventWrite(h, &other, 0, NULL) != ERROR_SUCCESS) << 3;
		bad |= EventEnabled(h, &quiet) << 4;
		bad |= (!EventEnabled(h, &loud)) << 5;
		/* This one must reach the kernel, and fails there. */
		bad |= (EventWrite(h, &loud, 0, NULL) == ERROR_SUCCESS) << 6;
		bad |= (EventWrite(was, &loud, 0, NULL) != ERROR_SUCCESS ||
			EventEnabled(was, &loud) ||
			EventProviderEnabled(was, 2, 0x1)) << 7;
		_exit(bad);
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_EQ(0, WEXITSTATUS(status));
	EventUnregister(h);
	EventUnregister(was);
}

/*
 * <evntprov.h> inlines the enable test of EventEnabled, EventProviderEnabled,
 * EventWrite and EventWriteTransfer.  The exported functions (reached
 * through pointers, as code that takes their address does) must give the
 * same answers in every enable state, and a stale handle whose slot is
 * free, or a bad argument, must still get the library's error.  A forged
 * handle on a live registration's slot gets that registration's inline
 * answer: ERROR_SUCCESS where its event is disabled, the library's
 * ERROR_INVALID_HANDLE where it is enabled (so the inline EventWrite's
 * decision shows).
 */
/*
 * A constant event (the inline test's MatchAnyAt path): a forged handle
 * on h's slot shows the inline answer, which may say "disabled" only
 * where the library does, and must where MatchAll is 0 (@exact).
 */
#define EXPECT_CONST_EVENT(h, level, kw, exact)				\
	do {								\
		static const EVENT_DESCRIPTOR cd = { .Level = level,	\
						     .Keyword = kw };	\
		BOOLEAN lib = enabled(h, &cd);				\
		ULONG got = EventWrite((h) ^ (1ULL << 32), &cd, 1, &data); \
									\
		EXPECT_EQ(lib, EventEnabled(h, &cd));			\
		if (lib) {						\
			EXPECT_EQ(ERROR_INVALID_HANDLE, got);		\
		} else if (exact) {					\
			EXPECT_EQ(ERROR_SUCCESS, got);			\
		} else {						\
			EXPECT_TRUE(got == ERROR_SUCCESS ||		\
				    got == ERROR_INVALID_HANDLE);	\
		}							\
	} while (0)

TEST_F(api, inline_enable_test_agrees_with_library)
{
	BOOLEAN (EVNTAPI *enabled)(REGHANDLE, PCEVENT_DESCRIPTOR) = EventEnabled;
	BOOLEAN (EVNTAPI *prov_enabled)(REGHANDLE, UCHAR, ULONGLONG) =
		EventProviderEnabled;
	static const EVENT_DESCRIPTOR descs[] = {
		{ .Level = 0, .Keyword = 0 },
		{ .Level = 5, .Keyword = 0 },
		{ .Level = 3, .Keyword = 0x1 },
		{ .Level = 4, .Keyword = 0x1 },
		{ .Level = 2, .Keyword = 0x2 },
		{ .Level = 2, .Keyword = 0x3 },
		{ .Level = 1, .Keyword = 0x4 },
		{ .Level = 0, .Keyword = 0x8000000000000000ULL },
	};
	/* Per round: level, MatchAny, MatchAll of session 0 (0: disabled). */
	static const struct { __u8 level; __u64 any, all; } rounds[] = {
		{ 0, 0, 0 }, { 3, 0x1, 0 }, { 4, 0x3, 0x2 }, { 0, 0, 0 }, { 255, 0x4, 0 },
	};
	const EVENT_DESCRIPTOR *d0 = &descs[2];
	volatile EVENT_DESCRIPTOR runtime;
	EVENT_DATA_DESCRIPTOR data;
	REGHANDLE h, stale;
	unsigned int r, i;

	ASSERT_EQ(ERROR_SUCCESS, EventRegister(&self->guid, NULL, NULL, &stale));
	ASSERT_EQ(ERROR_SUCCESS, EventUnregister(stale));
	ASSERT_EQ(ERROR_SUCCESS, EventRegister(&self->guid, NULL, NULL, &h));
	/* The freed slot waits: the next registration takes another. */
	EXPECT_NE((ULONG)stale, (ULONG)h);

	/* Nothing enabled: the inline test answers, errors stay the library's. */
	EventDataDescCreate(&data, "x", 1);
	EXPECT_EQ(ERROR_INVALID_PARAMETER, EventWrite(h, NULL, 0, NULL));
	EXPECT_EQ(ERROR_INVALID_PARAMETER, EventWrite(h, d0, 1, NULL));
	EXPECT_EQ(ERROR_INVALID_PARAMETER, EventWrite(h, d0, 129, &data));
	EXPECT_EQ(ERROR_INVALID_PARAMETER,
		  EventWriteTransfer(h, d0, NULL, NULL, 1, NULL));
	EXPECT_EQ(ERROR_INVALID_HANDLE, EventWrite(0, d0, 1, &data));
	EXPECT_EQ(ERROR_INVALID_HANDLE, EventWrite(~0ULL, d0, 1, &data));
	EXPECT_EQ(ERROR_INVALID_HANDLE,
		  EventWriteTransfer(stale, d0, NULL, NULL, 1, &data));
	EXPECT_FALSE(EventEnabled(h, NULL));
	EXPECT_FALSE(EventProviderEnabled(0, 0, 0));

	for (r = 0; r < sizeof(rounds) / sizeof(rounds[0]); r++) {
		if (r)
			ASSERT_EQ(0, etw_enable_simple(self->fd, self->s[0],
						       (__u8 *)&self->guid,
						       rounds[r].level ? 1 : 0,
						       rounds[r].level, rounds[r].any,
						       rounds[r].all, 0));
		for (i = 0; i < sizeof(descs) / sizeof(descs[0]); i++) {
			EVENT_DESCRIPTOR rd;
			const EVENT_DESCRIPTOR *d = &rd;
			BOOLEAN want;

			/* Not a constant: the inline test is exact. */
			runtime = descs[i];
			rd = runtime;
			want = enabled(h, d);

			EXPECT_EQ(want, EventEnabled(h, d))
				TH_LOG("round %u event %u", r, i);
			EXPECT_EQ(prov_enabled(h, d->Level, d->Keyword),
				  EventProviderEnabled(h, d->Level, d->Keyword))
				TH_LOG("round %u event %u", r, i);
			EXPECT_FALSE(EventEnabled(stale, d));
			EXPECT_FALSE(EventEnabled(h ^ (1ULL << 32), d));
			EXPECT_EQ(ERROR_INVALID_HANDLE, EventWrite(stale, d, 1, &data));
			EXPECT_EQ(want ? ERROR_INVALID_HANDLE : ERROR_SUCCESS,
				  EventWrite(h ^ (1ULL << 32), d, 1, &data));
			if (!want) {
				EXPECT_EQ(ERROR_SUCCESS, EventWrite(h, d, 1, &data));
				EXPECT_EQ(ERROR_SUCCESS,
					  EventWriteTransfer(h, d, NULL, NULL, 1, &data));
			}
		}
	}
	/* Two sessions, then one with MatchAll: constant events. */
	for (r = 0; r < 3; r++) {
		if (r == 1)
			ASSERT_EQ(0, etw_enable_simple(self->fd, self->s[1],
						       (__u8 *)&self->guid,
						       1, 2, 0x10, 0, 0));
		if (r == 2)
			ASSERT_EQ(0, etw_enable_simple(self->fd, self->s[0],
						       (__u8 *)&self->guid,
						       1, 6, 0x3, 0x2, 0));
		EXPECT_CONST_EVENT(h, 0, 0, 1);
		EXPECT_CONST_EVENT(h, 2, 0x10, r != 2);
		EXPECT_CONST_EVENT(h, 3, 0x10, r != 2);
		EXPECT_CONST_EVENT(h, 4, 0x4, r != 2);
		EXPECT_CONST_EVENT(h, 6, 0x4, r != 2);
		EXPECT_CONST_EVENT(h, 7, 0x4, r != 2);
		EXPECT_CONST_EVENT(h, 5, 0x1, r != 2);
		EXPECT_CONST_EVENT(h, 5, 0x2, r != 2);
		EXPECT_CONST_EVENT(h, 0, 0x8, r != 2);
		EXPECT_CONST_EVENT(h, 9, 0x4, 1);
		EXPECT_CONST_EVENT(h, 3, 0, 1);
		EXPECT_CONST_EVENT(h, 7, 0, 1);
	}
	ASSERT_EQ(0, etw_enable_simple(self->fd, self->s[1], (__u8 *)&self->guid,
				       0, 0, 0, 0, 0));
	ASSERT_EQ(0, etw_enable_simple(self->fd, self->s[0], (__u8 *)&self->guid,
				       1, 255, 0x4, 0, 0));

	/* Seed 000's test, spelt out for round 4 (level 255, MatchAny 0x4). */
	EXPECT_TRUE(EventEnabled(h, &descs[6]));
	EXPECT_TRUE(EventEnabled(h, &descs[1]));
	EXPECT_FALSE(EventEnabled(h, &descs[2]));
	EventUnregister(h);
}

/*
 * A handle that outlives its registration: libetw hands its slot out
 * again only after every other free slot (FIFO over 2047), and until
 * then the slot asks the library, which refuses the handle.  Once a new
 * registration holds the slot, the old handle gets that registration's
 * inline answer: ERROR_SUCCESS where the event is disabled for it (the
 * one case the inline test cannot tell; Windows leaves the use of an
 * unregistered handle undefined), the library's ERROR_INVALID_HANDLE
 * where it may be enabled.  Handle 0 and a handle never issued always
 * get ERROR_INVALID_HANDLE.
 */
TEST_F(api, stale_handle_until_its_slot_is_reused)
{
	static const EVENT_DESCRIPTOR info = { .Level = 4, .Keyword = 0x1 };
	static const EVENT_DESCRIPTOR plain = { .Level = 4 };
	EVENT_DATA_DESCRIPTOR data;
	REGHANDLE stale, h, never = (7ULL << 32) | 2000;
	unsigned int n;

	EventDataDescCreate(&data, "x", 1);
	EXPECT_EQ(ERROR_INVALID_HANDLE, EventWrite(0, &info, 1, &data));
	EXPECT_EQ(ERROR_INVALID_HANDLE, EventWrite(0, &plain, 1, &data));
	EXPECT_EQ(ERROR_INVALID_HANDLE, EventWrite(never, &info, 1, &data));
	ASSERT_EQ(ERROR_SUCCESS, EventRegister(&self->guid, NULL, NULL, &stale));
	EXPECT_EQ(ERROR_SUCCESS, EventWrite(stale, &info, 1, &data));
	ASSERT_EQ(ERROR_SUCCESS, EventUnregister(stale));
	for (n = 1; ; n++) {
		EXPECT_EQ(ERROR_INVALID_HANDLE, EventWrite(stale, &info, 1, &data))
			TH_LOG("after %u registrations", n - 1);
		EXPECT_EQ(ERROR_INVALID_HANDLE, EventWrite(stale, &plain, 1, &data));
		EXPECT_FALSE(EventEnabled(stale, &info));
		ASSERT_EQ(ERROR_SUCCESS, EventRegister(&self->guid, NULL, NULL, &h));
		ASSERT_NE(0, (ULONG)h);
		if ((ULONG)h == (ULONG)stale || n > 4096)
			break;
		ASSERT_EQ(ERROR_SUCCESS, EventUnregister(h));
	}
	EXPECT_EQ(2047, n);
	EXPECT_NE(stale, h);

	/* h disabled: the stale handle's write ends inline. */
	EXPECT_EQ(ERROR_SUCCESS, EventWrite(stale, &info, 1, &data));
	EXPECT_EQ(ERROR_SUCCESS, EventWrite(stale, &plain, 1, &data));
	EXPECT_FALSE(EventEnabled(stale, &info));
	ASSERT_EQ(0, etw_enable_simple(self->fd, self->s[0], (__u8 *)&self->guid,
				       1, 4, 0x1, 0, 0));
	EXPECT_TRUE(EventEnabled(h, &info));
	EXPECT_FALSE(EventEnabled(stale, &info));
	EXPECT_EQ(ERROR_INVALID_HANDLE, EventWrite(stale, &info, 1, &data));
	EXPECT_EQ(ERROR_INVALID_HANDLE, EventWrite(stale, &plain, 1, &data));
	EXPECT_EQ(ERROR_SUCCESS, EventUnregister(h));
	EXPECT_EQ(ERROR_INVALID_HANDLE, EventWrite(stale, &info, 1, &data));
	EXPECT_EQ(ERROR_INVALID_HANDLE, EventWrite(h, &info, 1, &data));
	EXPECT_EQ(ERROR_INVALID_HANDLE, EventWrite(0, &info, 1, &data));
}

TEST_F(api, write_and_errors)
{
	static char big[70000];
	EVENT_DESCRIPTOR d = { .Id = 7, .Level = 4, .Keyword = 0x1 };
	EVENT_DATA_DESCRIPTOR data;
	struct etw_counts c;
	REGHANDLE h;

	ASSERT_EQ(ERROR_SUCCESS, EventRegister(&self->guid, NULL, NULL, &h));
	ASSERT_EQ(0, etw_enable_simple(self->fd, self->s[0], (__u8 *)&self->guid,
				       1, 5, 0, 0, 0));
	EventDataDescCreate(&data, "abc", 3);
	EXPECT_EQ(ERROR_SUCCESS, EventWrite(h, &d, 1, &data));
	EXPECT_EQ(ERROR_SUCCESS, EventWriteTransfer(h, &d, NULL, NULL, 1, &data));
	EXPECT_EQ(ERROR_SUCCESS, EventWriteString(h, 4, 0x1, u"hi"));
	EXPECT_EQ(ERROR_INVALID_PARAMETER, EventWriteString(h, 4, 0x1, NULL));
	EXPECT_EQ(ERROR_INVALID_HANDLE, EventWrite(0, &d, 1, &data));
	EXPECT_EQ(ERROR_INVALID_HANDLE, EventWriteString(0, 4, 0, u"x"));
	EXPECT_EQ(ERROR_INVALID_PARAMETER, EventWrite(h, &d, 1, NULL));
	EXPECT_EQ(ERROR_INVALID_PARAMETER, EventWrite(h, &d, 129, &data));
	EventDataDescCreate(&data, big, 65536);
	EXPECT_EQ(ERROR_ARITHMETIC_OVERFLOW, EventWrite(h, &d, 1, &data));
	EventDataDescCreate(&data, big, 9000);
	EXPECT_EQ(ERROR_MORE_DATA, EventWrite(h, &d, 1, &data));
	EventDataDescCreate(&data, (void *)8, 4);
	EXPECT_EQ(ERROR_NOACCESS, EventWrite(h, &d, 1, &data));
	EXPECT_EQ(ERROR_INVALID_PARAMETER,
		  EventWriteEx(h, &d, 0, 0x100, NULL, NULL, 0, NULL));
	EXPECT_EQ(ERROR_SUCCESS, EventWriteEx(h, &d, 0, 0, NULL, NULL, 0, NULL));
	ASSERT_LE(0, etw_count(self->fd, self->s[0], (__u8 *)&self->guid, &c));
	EXPECT_EQ(4, c.total);
	EventUnregister(h);
}

/*
 * A full session: EventWrite returns ERROR_NOT_ENOUGH_MEMORY for every
 * event it loses, and the session counts exactly those.
 */
TEST_F(api, write_no_room_is_not_enough_memory)
{
	EVENT_DESCRIPTOR d = { .Id = 8, .Level = 4 };
	EVENT_DATA_DESCRIPTOR data;
	struct etw_session_info info;
	static char payload[200];
	struct etw_counts c;
	int i, ok = 0, nomem = 0, other = 0;
	REGHANDLE h;
	__u32 small;

	ASSERT_EQ(0, etw_session_start_simple(self->fd, "etwtest-api-small", 0,
					      1, 1, &small));
	ASSERT_EQ(ERROR_SUCCESS, EventRegister(&self->guid, NULL, NULL, &h));
	ASSERT_EQ(0, etw_enable_simple(self->fd, small, (__u8 *)&self->guid,
				       1, 5, 0, 0, 0));
	EventDataDescCreate(&data, payload, sizeof(payload));
	for (i = 0; i < 200; i++) {
		ULONG err = EventWrite(h, &d, 1, &data);

		ok += err == ERROR_SUCCESS;
		nomem += err == ERROR_NOT_ENOUGH_MEMORY;
		other += err != ERROR_SUCCESS && err != ERROR_NOT_ENOUGH_MEMORY;
	}
	EXPECT_EQ(0, other);
	EXPECT_LT(0, nomem);
	ASSERT_LE(0, etw_count(self->fd, small, (__u8 *)&self->guid, &c));
	ASSERT_EQ(0, etw_session_ctl(self->fd, small, ETW_CONTROL_QUERY, &info));
	EXPECT_EQ(ok, c.total);
	EXPECT_EQ(nomem, info.events_lost);
	EventUnregister(h);
}

/* EventSetInformation's classes and errors (traits_test has the rest). */
TEST_F(api, set_information)
{
	static const char traits[] = "\x0d\x00MyProvider";
	BOOLEAN yes = TRUE;
	REGHANDLE h;

	ASSERT_EQ(ERROR_SUCCESS, EventRegister(&self->guid, NULL, NULL, &h));
	EXPECT_EQ(ERROR_INVALID_PARAMETER,
		  EventSetInformation(0, EventProviderSetTraits, (PVOID)traits, 13));
	EXPECT_EQ(ERROR_INVALID_PARAMETER,
		  EventSetInformation(h, EventProviderSetTraits, NULL, 13));
	EXPECT_EQ(ERROR_NOT_SUPPORTED,
		  EventSetInformation(h, EventProviderBinaryTrackInfo, NULL, 0));
	EXPECT_EQ(ERROR_NOT_SUPPORTED,
		  EventSetInformation(h, EventProviderSetReserved1, NULL, 0));
	EXPECT_EQ(ERROR_NOT_SUPPORTED,
		  EventSetInformation(h, MaxEventInfo, (PVOID)traits, 13));
	EXPECT_EQ(ERROR_INVALID_PARAMETER,
		  EventSetInformation(h, EventProviderSetTraits, (PVOID)traits, 12));
	EXPECT_EQ(ERROR_INVALID_PARAMETER,
		  EventSetInformation(h, EventProviderUseDescriptorType, &yes, 4));
	EXPECT_EQ(ERROR_SUCCESS,
		  EventSetInformation(h, EventProviderUseDescriptorType, &yes, 1));
	EXPECT_EQ(ERROR_SUCCESS,
		  EventSetInformation(h, EventProviderSetTraits, (PVOID)traits, 13));
	/* Traits are set once per registration. */
	EXPECT_EQ(ERROR_INVALID_PARAMETER,
		  EventSetInformation(h, EventProviderSetTraits, (PVOID)traits, 13));
	EventUnregister(h);
}

static int keep_activity(const struct etw_test_event_header *h,
			 const __u8 *buffer, __u32 cpu, void *ctx)
{
	memcpy(ctx, h, sizeof(*h) + 24);
	return 0;
}

struct other_thread {
	REGHANDLE reg;
	GUID seen;	/* the id its event carries */
	int bad;
};

static void *other_thread_writes(void *arg)
{
	static const GUID zero;
	struct other_thread *o = arg;
	EVENT_DESCRIPTOR d = { .Id = 2, .Level = 4 };
	GUID id;

	o->bad |= EventActivityIdControl(EVENT_ACTIVITY_CTRL_GET_ID, &id) != 0;
	o->bad |= memcmp(&zero, &id, sizeof(id)) ? 2 : 0;
	o->bad |= EventActivityIdControl(EVENT_ACTIVITY_CTRL_CREATE_SET_ID, &id) ? 4 : 0;
	o->bad |= EventActivityIdControl(EVENT_ACTIVITY_CTRL_GET_ID, &o->seen) ? 8 : 0;
	o->bad |= EventWrite(o->reg, &d, 0, NULL) ? 16 : 0;
	return NULL;
}

TEST_F(api, activity_ids)
{
	GUID a, b, cur, rel;
	EVENT_DESCRIPTOR d = { .Id = 1, .Level = 4 };
	__u8 rec[sizeof(struct etw_test_event_header) + 24];
	struct etw_test_event_header *h = (void *)rec;
	REGHANDLE reg;

	EXPECT_EQ(ERROR_SUCCESS, EventActivityIdControl(EVENT_ACTIVITY_CTRL_CREATE_ID, &a));
	EXPECT_EQ(ERROR_SUCCESS, EventActivityIdControl(EVENT_ACTIVITY_CTRL_CREATE_ID, &b));
	EXPECT_NE(0, memcmp(&a, &b, sizeof(a)));
	EXPECT_EQ(ERROR_SUCCESS, EventActivityIdControl(EVENT_ACTIVITY_CTRL_SET_ID, &a));
	EXPECT_EQ(ERROR_SUCCESS, EventActivityIdControl(EVENT_ACTIVITY_CTRL_GET_ID, &cur));
	EXPECT_EQ(0, memcmp(&a, &cur, sizeof(a)));
	cur = b;
	EXPECT_EQ(ERROR_SUCCESS, EventActivityIdControl(EVENT_ACTIVITY_CTRL_GET_SET_ID, &cur));
	EXPECT_EQ(0, memcmp(&a, &cur, sizeof(a)));	/* old one back */
	EXPECT_EQ(ERROR_SUCCESS, EventActivityIdControl(EVENT_ACTIVITY_CTRL_CREATE_SET_ID, &cur));
	EXPECT_EQ(0, memcmp(&b, &cur, sizeof(b)));
	EXPECT_EQ(ERROR_SUCCESS, EventActivityIdControl(EVENT_ACTIVITY_CTRL_GET_ID, &cur));
	EXPECT_NE(0, memcmp(&b, &cur, sizeof(b)));
	EXPECT_EQ(ERROR_INVALID_PARAMETER, EventActivityIdControl(6, &cur));
	EXPECT_EQ(ERROR_INVALID_PARAMETER, EventActivityIdControl(1, NULL));

	/* EventWrite uses the thread's id; EventWriteTransfer its arguments. */
	ASSERT_EQ(ERROR_SUCCESS, EventRegister(&self->guid, NULL, NULL, &reg));
	ASSERT_EQ(0, etw_enable_simple(self->fd, self->s[0], (__u8 *)&self->guid,
				       1, 5, 0, 0, 0));
	ASSERT_EQ(ERROR_SUCCESS, EventWrite(reg, &d, 0, NULL));
	ASSERT_EQ(1, etw_drain(self->fd, self->s[0], keep_activity, rec));
	EXPECT_EQ(0, memcmp(&cur, h->activity_id, 16));
	memset(&rel, 0x77, sizeof(rel));
	ASSERT_EQ(ERROR_SUCCESS, EventWriteTransfer(reg, &d, &a, &rel, 0, NULL));
	ASSERT_EQ(1, etw_drain(self->fd, self->s[0], keep_activity, rec));
	EXPECT_EQ(0, memcmp(&a, h->activity_id, 16));
	EXPECT_EQ(1, h->flags);
	EXPECT_EQ(0, memcmp(&rel, rec + sizeof(*h) + 8, 16));

	/* The id is per thread: another thread starts from GUID_NULL. */
	{
		struct other_thread o = { .reg = reg };
		pthread_t t;

		ASSERT_EQ(0, pthread_create(&t, NULL, other_thread_writes, &o));
		ASSERT_EQ(0, pthread_join(t, NULL));
		EXPECT_EQ(0, o.bad);
		ASSERT_EQ(1, etw_drain(self->fd, self->s[0], keep_activity, rec));
		EXPECT_EQ(0, memcmp(&o.seen, h->activity_id, 16));
		EXPECT_EQ(ERROR_SUCCESS,
			  EventActivityIdControl(EVENT_ACTIVITY_CTRL_GET_ID, &b));
		EXPECT_EQ(0, memcmp(&cur, &b, sizeof(b)));	/* ours unchanged */
	}
	EventUnregister(reg);
}

/*
 * Seed 000 through the library's callback, three sessions: Level the
 * maximum, MatchAnyKeyword the OR, MatchAllKeyword the AND, IsEnabled 1
 * while any session is left, 0 (and GUID_NULL) when the last one goes.
 */
TEST_F(api, callbacks_three_sessions)
{
	const __u8 *g = (const __u8 *)&self->guid;
	static const GUID zero;
	REGHANDLE h;
	__u32 s2;

	ASSERT_EQ(0, etw_session_start_simple(self->fd, "etwtest-api2", 0, 8, 0, &s2));
	ASSERT_EQ(ERROR_SUCCESS, EventRegister(&self->guid, callback, &cblog, &h));
	ASSERT_EQ(0, etw_enable_simple(self->fd, self->s[0], g, 1, 2, 0x17, 0x7, 0));
	ASSERT_EQ(0, etw_enable_simple(self->fd, self->s[1], g, 1, 4, 0x26, 0x6, 0));
	ASSERT_EQ(0, etw_enable_simple(self->fd, s2, g, 1, 3, 0x4e, 0xe, 0));
	expect_callback(_metadata, 3, 1, 4, 0x7f, 0x6);
	EXPECT_TRUE(EventProviderEnabled(h, 4, 0x6));
	EXPECT_FALSE(EventProviderEnabled(h, 5, 0x6));
	EXPECT_FALSE(EventProviderEnabled(h, 4, 0x2));	/* lacks MatchAll 0x4 */
	EXPECT_FALSE(EventProviderEnabled(h, 4, 0x80));

	/* One of three disables: still 1, the other two combined. */
	ASSERT_EQ(0, etw_enable_simple(self->fd, self->s[1], g, 0, 0, 0, 0, 0));
	expect_callback(_metadata, 4, 1, 3, 0x5f, 0x6);
	EXPECT_FALSE(EventProviderEnabled(h, 4, 0x6));
	EXPECT_TRUE(EventProviderEnabled(h, 3, 0x6));

	/* A second one stops: still 1, the last one's own filters. */
	ASSERT_EQ(0, etw_session_ctl(self->fd, self->s[0], ETW_CONTROL_STOP, NULL));
	expect_callback(_metadata, 5, 1, 3, 0x4e, 0xe);
	EXPECT_EQ(0, memcmp(&zero, &cblog.source, 16));

	ASSERT_EQ(0, etw_session_ctl(self->fd, s2, ETW_CONTROL_STOP, NULL));
	ASSERT_EQ(6, wait_calls(6));
	EXPECT_EQ(0, cblog.is_enabled);
	EXPECT_FALSE(EventProviderEnabled(h, 0, 0));
	EventUnregister(h);
}

/* The last record drained, whole (up to 256 bytes). */
struct last_record {
	struct etw_test_event_header h;
	__u8 rest[256];
	long n;
};

static int keep_record(const struct etw_test_event_header *h,
		       const __u8 *buffer, __u32 cpu, void *ctx)
{
	struct last_record *l = ctx;

	memcpy(&l->h, h, h->size < sizeof(*l) - sizeof(l->n) ?
	       h->size : sizeof(*l) - sizeof(l->n));
	l->n++;
	return 0;
}

/*
 * EventWriteString: a string-only record (EVENT_HEADER_FLAG_STRING_ONLY),
 * the NUL-terminated UTF-16 string as payload, descriptor zero but for
 * Level and Keyword, which filter it like any event.
 */
TEST_F(api, write_string_record)
{
	static const char16_t text[] = u"h\u00e9llo";
	struct last_record l = { 0 };
	REGHANDLE h;

	ASSERT_EQ(ERROR_SUCCESS, EventRegister(&self->guid, NULL, NULL, &h));
	ASSERT_EQ(0, etw_enable_simple(self->fd, self->s[0], (__u8 *)&self->guid,
				       1, 4, 0x1, 0, 0));
	ASSERT_EQ(ERROR_SUCCESS, EventWriteString(h, 4, 0x1, text));
	ASSERT_EQ(1, etw_drain(self->fd, self->s[0], keep_record, &l));
	EXPECT_EQ(ETW_EVENT_HEADER_SIZE + sizeof(text), l.h.size);
	EXPECT_EQ(0x4, l.h.flags);		/* STRING_ONLY, no extended data */
	EXPECT_EQ(0, l.h.desc.id);
	EXPECT_EQ(0, l.h.desc.version);
	EXPECT_EQ(0, l.h.desc.channel);
	EXPECT_EQ(4, l.h.desc.level);
	EXPECT_EQ(0, l.h.desc.opcode);
	EXPECT_EQ(0, l.h.desc.task);
	EXPECT_EQ(0x1, l.h.desc.keyword);
	EXPECT_EQ(0, memcmp(text, l.rest, sizeof(text)));
	/* An empty string is the terminator alone. */
	ASSERT_EQ(ERROR_SUCCESS, EventWriteString(h, 0, 0, u""));
	ASSERT_EQ(1, etw_drain(self->fd, self->s[0], keep_record, &l));
	EXPECT_EQ(ETW_EVENT_HEADER_SIZE + 2, l.h.size);
	/* Filtered by level and by keyword: nothing stored, success. */
	EXPECT_EQ(ERROR_SUCCESS, EventWriteString(h, 5, 0x1, text));
	EXPECT_EQ(ERROR_SUCCESS, EventWriteString(h, 4, 0x2, text));
	EXPECT_EQ(0, etw_drain(self->fd, self->s[0], NULL, NULL));
	EventUnregister(h);
}

/*
 * EventWriteEx: Filter bit (LoggerId - 1) keeps the event from that
 * session; ActivityId or else the thread's; RelatedActivityId as the
 * RELATED_ACTIVITYID item.  EventWriteTransfer with a NULL ActivityId
 * uses the thread's too (etw-api.md, EventWrite*).
 */
TEST_F(api, write_ex_filter_and_activity_ids)
{
	const __u8 *g = (const __u8 *)&self->guid;
	EVENT_DESCRIPTOR d = { .Id = 9, .Level = 4 };
	ULONG64 bit0 = 1ULL << (self->s[0] - 1), bit1 = 1ULL << (self->s[1] - 1);
	struct last_record l = { 0 };
	struct etw_counts c0, c1;
	GUID thread_id, act, rel, saved;
	REGHANDLE h;

	ASSERT_EQ(ERROR_SUCCESS, EventRegister(&self->guid, NULL, NULL, &h));
	ASSERT_EQ(0, etw_enable_simple(self->fd, self->s[0], g, 1, 5, 0, 0, 0));
	ASSERT_EQ(0, etw_enable_simple(self->fd, self->s[1], g, 1, 5, 0, 0, 0));
	ASSERT_EQ(ERROR_SUCCESS, EventWriteEx(h, &d, 0, 0, NULL, NULL, 0, NULL));
	ASSERT_EQ(ERROR_SUCCESS, EventWriteEx(h, &d, bit0, 0, NULL, NULL, 0, NULL));
	ASSERT_EQ(ERROR_SUCCESS, EventWriteEx(h, &d, bit1, 0, NULL, NULL, 0, NULL));
	ASSERT_EQ(ERROR_SUCCESS, EventWriteEx(h, &d, bit1, 0, NULL, NULL, 0, NULL));
	ASSERT_EQ(ERROR_SUCCESS, EventWriteEx(h, &d, bit0 | bit1, 0, NULL, NULL, 0, NULL));
	ASSERT_LE(0, etw_count(self->fd, self->s[0], g, &c0));
	ASSERT_LE(0, etw_count(self->fd, self->s[1], g, &c1));
	EXPECT_EQ(3, c0.total);
	EXPECT_EQ(2, c1.total);

	ASSERT_EQ(0, etw_enable_simple(self->fd, self->s[1], g, 0, 0, 0, 0, 0));
	ASSERT_EQ(ERROR_SUCCESS, EventActivityIdControl(EVENT_ACTIVITY_CTRL_GET_ID, &saved));
	ASSERT_EQ(ERROR_SUCCESS,
		  EventActivityIdControl(EVENT_ACTIVITY_CTRL_CREATE_SET_ID, &thread_id));
	ASSERT_EQ(ERROR_SUCCESS, EventActivityIdControl(EVENT_ACTIVITY_CTRL_GET_ID, &thread_id));
	ASSERT_EQ(ERROR_SUCCESS, EventActivityIdControl(EVENT_ACTIVITY_CTRL_CREATE_ID, &act));
	memset(&rel, 0x3c, sizeof(rel));

	/* Both ids given. */
	ASSERT_EQ(ERROR_SUCCESS, EventWriteEx(h, &d, 0, 0, &act, &rel, 0, NULL));
	ASSERT_EQ(1, etw_drain(self->fd, self->s[0], keep_record, &l));
	EXPECT_EQ(0, memcmp(&act, l.h.activity_id, 16));
	EXPECT_EQ(1, l.h.flags);		/* EXTENDED_INFO */
	EXPECT_EQ(ETW_EVENT_HEADER_SIZE + 24, l.h.size);
	EXPECT_EQ(1, l.rest[2]);		/* ExtType RELATED_ACTIVITYID */
	EXPECT_EQ(0, memcmp(&rel, l.rest + 8, 16));
	/* No ActivityId: the thread's; no related id: no item. */
	ASSERT_EQ(ERROR_SUCCESS, EventWriteEx(h, &d, 0, 0, NULL, NULL, 0, NULL));
	ASSERT_EQ(1, etw_drain(self->fd, self->s[0], keep_record, &l));
	EXPECT_EQ(0, memcmp(&thread_id, l.h.activity_id, 16));
	EXPECT_EQ(0, l.h.flags);
	EXPECT_EQ(ETW_EVENT_HEADER_SIZE, l.h.size);
	/* The related id alone. */
	ASSERT_EQ(ERROR_SUCCESS, EventWriteEx(h, &d, 0, 0, NULL, &rel, 0, NULL));
	ASSERT_EQ(1, etw_drain(self->fd, self->s[0], keep_record, &l));
	EXPECT_EQ(0, memcmp(&thread_id, l.h.activity_id, 16));
	EXPECT_EQ(0, memcmp(&rel, l.rest + 8, 16));
	/* EventWriteTransfer(NULL, NULL) is EventWrite. */
	ASSERT_EQ(ERROR_SUCCESS, EventWriteTransfer(h, &d, NULL, NULL, 0, NULL));
	ASSERT_EQ(1, etw_drain(self->fd, self->s[0], keep_record, &l));
	EXPECT_EQ(0, memcmp(&thread_id, l.h.activity_id, 16));
	EXPECT_EQ(0, l.h.flags);

	ASSERT_EQ(ERROR_SUCCESS, EventActivityIdControl(EVENT_ACTIVITY_CTRL_SET_ID, &saved));
	EventUnregister(h);
}

static ULONG WINAPI classic_request(WMIDPREQUESTCODE code, PVOID ctx,
				    ULONG *size, PVOID buffer)
{
	return ERROR_SUCCESS;
}

/*
 * "A process can register up to 1,024 provider GUIDs ... This limit
 * includes those registered using this function and the
 * RegisterTraceGuids function" (EventRegister, learn.microsoft.com).
 * Windows documents no error for the next one; here it is
 * ERROR_NO_SYSTEM_RESOURCES, with *RegHandle 0, until one goes.
 */
TEST_F(api, at_most_1024_registrations)
{
	static REGHANDLE h[ETW_MAX_REGS_PER_FILE];
	TRACEHANDLE classic = 0;
	REGHANDLE more = 77;
	int i;

	for (i = 0; i < ETW_MAX_REGS_PER_FILE - 1; i++)
		ASSERT_EQ(ERROR_SUCCESS, EventRegister(&self->guid, NULL, NULL, &h[i]))
			TH_LOG("registration %d", i + 1);
	ASSERT_EQ(ERROR_SUCCESS, RegisterTraceGuidsA(classic_request, NULL, &self->guid,
						     0, NULL, NULL, NULL, &classic));
	EXPECT_EQ(ERROR_NO_SYSTEM_RESOURCES, EventRegister(&self->guid, NULL, NULL, &more));
	EXPECT_EQ(0, more);
	EXPECT_EQ(ERROR_SUCCESS, UnregisterTraceGuids(classic));
	EXPECT_EQ(ERROR_SUCCESS, EventRegister(&self->guid, NULL, NULL, &more));
	EXPECT_EQ(ERROR_NO_SYSTEM_RESOURCES, EventRegister(&self->guid, NULL, NULL, &h[i]));
	EXPECT_EQ(ERROR_SUCCESS, EventUnregister(more));
	for (i = 0; i < ETW_MAX_REGS_PER_FILE - 1; i++)
		EXPECT_EQ(ERROR_SUCCESS, EventUnregister(h[i]));
}

/* This process's descriptors of /dev/etw. */
static int device_fds(void)
{
	DIR *dir = opendir("/proc/self/fd");
	int n;

	if (!dir)
		return -1;
	n = etw_fds_to(dir, ETW_DEV);
	closedir(dir);
	return n;
}

/*
 * libetw opens /dev/etw once per process, when first needed: the
 * registrations and the controller calls share it, and the notification
 * thread reads a duplicate of it.  Calls that need no module open nothing.
 */
TEST_F(api, one_device_file_opened_lazily)
{
	PEVENT_TRACE_PROPERTIES arr[1];
	struct {
		EVENT_TRACE_PROPERTIES p;
		char name[256];
	} q;
	REGHANDLE a, b;
	ULONG n;
	GUID id;

	ASSERT_EQ(1, device_fds());	/* the fixture's own */
	EXPECT_EQ(ERROR_SUCCESS, EventActivityIdControl(EVENT_ACTIVITY_CTRL_CREATE_ID, &id));
	EXPECT_EQ(1, device_fds());
	ASSERT_EQ(ERROR_SUCCESS, EventRegister(&self->guid, NULL, NULL, &a));
	EXPECT_EQ(3, device_fds());	/* the file and the thread's duplicate */
	ASSERT_EQ(ERROR_SUCCESS, EventRegister(&self->guid, callback, &cblog, &b));
	memset(&q, 0, sizeof(q));
	q.p.Wnode.BufferSize = sizeof(q);
	q.p.LoggerNameOffset = sizeof(q.p);
	arr[0] = &q.p;
	EXPECT_EQ(ERROR_MORE_DATA, QueryAllTracesA(arr, 1, &n));	/* two sessions */
	EXPECT_EQ(3, device_fds());
	EXPECT_EQ(ERROR_SUCCESS, EventUnregister(a));
	EXPECT_EQ(ERROR_SUCCESS, EventUnregister(b));
	EXPECT_EQ(3, device_fds());
}

TEST_HARNESS_MAIN
