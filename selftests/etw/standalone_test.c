// SPDX-License-Identifier: GPL-2.0
/*
 * Providers that did not register with the module as the process did:
 * registrations made before etw.ko was loaded reach it when it is (the
 * library watches /dev), and a child of fork() registers its providers on
 * its own /dev/etw file, so it gets its own enable callbacks.  The host
 * tests (libetw/tests/no_module.c) cover the process without a module.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <time.h>

#include <windows.h>
#include <evntprov.h>
#include <evntrace.h>

#include "kselftest_harness.h"
#include "etw_selftests.h"
#include "etw_kmod.h"

static atomic_int calls, enabled;

static void NTAPI callback(LPCGUID source, ULONG is_enabled, UCHAR level,
			   ULONGLONG any, ULONGLONG all,
			   PEVENT_FILTER_DESCRIPTOR filter, PVOID ctx)
{
	atomic_fetch_add(&calls, 1);
	atomic_store(&enabled, is_enabled == EVENT_CONTROL_CODE_ENABLE_PROVIDER);
}

/* Up to @ms for the callback to report an enable. */
static bool wait_enabled(int ms)
{
	while (!atomic_load(&enabled) && ms-- > 0)
		usleep(1000);
	return atomic_load(&enabled);
}

/* The provider traits the late registration set before the module came. */
static const unsigned char traits[] = { 7, 0, 'l', 'a', 't', 'e', 0 };

struct late_seen {
	__u8 guid[16];
	int events, with_traits;
};

static int late_fn(const struct etw_test_event_header *h, const __u8 *buffer,
		   __u32 cpu, void *ctx)
{
	struct late_seen *t = ctx;
	struct etw_test_ext items[8];
	const struct etw_test_ext *x;
	int n;

	if (memcmp(h->provider_id, t->guid, 16) || h->desc.id != 21)
		return 0;
	t->events++;
	n = etw_test_ext_items(h, items, 8, NULL);
	x = n > 0 ? etw_test_ext_find(items, n < 8 ? n : 8, EXT_TRAITS) : NULL;
	if (x && x->size == sizeof(traits) && !memcmp(x->data, traits, sizeof(traits)))
		t->with_traits++;
	return 0;
}

/*
 * etw.ko unloaded, EventRegister and EventSetInformation succeed
 * (disabled); loaded again, the registration reaches it without another
 * call, its traits with it: a session's enable calls the provider back
 * and its events are recorded with the traits.
 */
TEST(registration_reaches_a_module_loaded_later)
{
	const char *path = getenv("ETW_MODULE");
	EVENT_DESCRIPTOR d = { .Id = 21, .Level = 4 };
	struct late_seen t = { 0 };
	GUID guid;
	REGHANDLE reg;
	__u32 id;
	int fd, i;

	if (!path || geteuid() != 0)
		SKIP(return, "needs root and ETW_MODULE=<path of etw.ko>");
	etw_test_guid((__u8 *)&guid, 0xa1);
	if (etw_module_loaded())
		ASSERT_EQ(0, etw_module_unload());
	ASSERT_NE(0, access(ETW_DEV, F_OK));

	ASSERT_EQ(ERROR_SUCCESS, EventRegister(&guid, callback, NULL, &reg));
	ASSERT_EQ(ERROR_SUCCESS, EventSetInformation(reg, EventProviderSetTraits,
						     (void *)traits, sizeof(traits)));
	EXPECT_FALSE(EventEnabled(reg, &d));
	EXPECT_EQ(ERROR_SUCCESS, EventWrite(reg, &d, 0, NULL));

	ASSERT_EQ(0, etw_module_load(path));
	fd = open(ETW_DEV, O_RDWR | O_CLOEXEC);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, etw_session_start_simple(fd, "etwtest-late", 0, 8, 0, &id));
	/* The watch may attach before or after the enable: either calls back. */
	ASSERT_EQ(0, etw_enable_simple(fd, id, (__u8 *)&guid, 1, 5, 0, 0, 0));
	ASSERT_TRUE(wait_enabled(10000));
	EXPECT_TRUE(EventEnabled(reg, &d));
	for (i = 0; i < 5; i++)
		EXPECT_EQ(ERROR_SUCCESS, EventWrite(reg, &d, 0, NULL));
	memcpy(t.guid, &guid, 16);
	ASSERT_LE(0, etw_drain(fd, id, late_fn, &t));
	EXPECT_EQ(5, t.events);
	EXPECT_EQ(5, t.with_traits);
	EXPECT_EQ(ERROR_SUCCESS, EventUnregister(reg));
	etw_session_ctl(fd, id, ETW_CONTROL_STOP, NULL);
	close(fd);
}

FIXTURE(fk)
{
	int fd;
	__u32 id;
	GUID guid;
	REGHANDLE reg;
};

FIXTURE_SETUP(fk)
{
	self->fd = etw_open_or_skip(_metadata);
	etw_stop_test_sessions(self->fd);
	etw_test_guid((__u8 *)&self->guid, 0xa2);
	atomic_store(&calls, 0);
	atomic_store(&enabled, 0);
	ASSERT_EQ(0, etw_session_start_simple(self->fd, "etwtest-fork", 0, 8, 0,
					      &self->id));
	ASSERT_EQ(ERROR_SUCCESS, EventRegister(&self->guid, callback, NULL,
					       &self->reg));
}

FIXTURE_TEARDOWN(fk)
{
	if (self->fd >= 0) {
		EventUnregister(self->reg);
		etw_stop_test_sessions(self->fd);
		close(self->fd);
	}
}

/*
 * A child of fork() gets the enable callback of a session enabled after
 * the fork, as its parent does, and writes on its own registration: its
 * events carry its PID.
 */
TEST_F(fk, child_gets_its_enable_callback)
{
	EVENT_DESCRIPTOR d = { .Id = 22, .Level = 4 };
	struct etw_counts c;
	int ready[2], status;
	pid_t pid;
	char b;

	ASSERT_EQ(0, pipe(ready));
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		int bad = 0;

		close(ready[0]);
		bad |= EventEnabled(self->reg, &d);
		if (write(ready[1], "r", 1) != 1)
			_exit(10);
		bad |= !wait_enabled(10000) << 1;
		bad |= !EventEnabled(self->reg, &d) << 2;
		bad |= (EventWrite(self->reg, &d, 0, NULL) != ERROR_SUCCESS) << 3;
		_exit(bad);
	}
	close(ready[1]);
	ASSERT_EQ(1, read(ready[0], &b, 1));
	close(ready[0]);
	ASSERT_EQ(0, etw_enable_simple(self->fd, self->id, (__u8 *)&self->guid,
				       1, 5, 0, 0, 0));
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_TRUE(WIFEXITED(status));
	EXPECT_EQ(0, WEXITSTATUS(status));
	/* The parent is called back on its own registration. */
	EXPECT_TRUE(wait_enabled(10000));
	EXPECT_EQ(ERROR_SUCCESS, EventWrite(self->reg, &d, 0, NULL));
	ASSERT_LE(0, etw_count(self->fd, self->id, (__u8 *)&self->guid, &c));
	EXPECT_EQ(2, c.by_id[22]);
}

/*
 * The child's registrations are its own: its exit (or its unregistering)
 * leaves the parent's registration enabled and writing.
 */
TEST_F(fk, child_leaves_the_parent_registered)
{
	EVENT_DESCRIPTOR d = { .Id = 23, .Level = 4 };
	struct etw_counts c;
	int status;
	pid_t pid;

	ASSERT_EQ(0, etw_enable_simple(self->fd, self->id, (__u8 *)&self->guid,
				       1, 5, 0, 0, 0));
	ASSERT_TRUE(wait_enabled(10000));
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid)
		_exit(EventUnregister(self->reg) == ERROR_SUCCESS &&
		      EventWrite(self->reg, &d, 0, NULL) == ERROR_INVALID_HANDLE ? 0 : 1);
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_EQ(0, WEXITSTATUS(status));
	EXPECT_TRUE(EventEnabled(self->reg, &d));
	EXPECT_EQ(ERROR_SUCCESS, EventWrite(self->reg, &d, 0, NULL));
	ASSERT_LE(0, etw_count(self->fd, self->id, (__u8 *)&self->guid, &c));
	EXPECT_EQ(1, c.by_id[23]);
}

TEST_HARNESS_MAIN
