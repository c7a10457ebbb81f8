// SPDX-License-Identifier: GPL-2.0
/*
 * Enable notifications at the ioctl level: the FilterData each one
 * carries (seed 000: one filter from each session that gave one; the
 * combining rules in the uapi header), its limits and errors, and the
 * acknowledgments EnableTraceEx2's Timeout waits for (ETW_IOC_NOTIFY_ACK,
 * ETIMEDOUT, a registration that goes away).
 */
#include <poll.h>
#include <pthread.h>
#include <sys/mman.h>
#include <sys/wait.h>

#include "kselftest_harness.h"
#include "etw_selftests.h"

/* EVENT_FILTER_HEADER, as the provider sees it. */
struct fhdr {
	__u16 id;
	__u8 version;
	__u8 reserved[5];
	__u64 instance_id;
	__u32 size;
	__u32 next_offset;
};

/* One notification read back, with its FilterData. */
struct note {
	struct etw_notification n;
	__u8 data[ETW_NOTIFICATION_MAX_SIZE];
};

/* Every queued notification of @fd, at most @max; -1 if malformed. */
static int read_notes(int fd, struct note *out, int max)
{
	static __u8 buf[ETW_NOTIFICATION_MAX_SIZE * 2];
	struct pollfd pfd = { .fd = fd, .events = POLLIN };
	int count = 0;

	while (poll(&pfd, 1, 0) == 1) {
		ssize_t got = read(fd, buf, sizeof(buf)), off;

		if (got <= 0)
			return -1;
		for (off = 0; off < got; off += out[count - 1].n.size) {
			struct etw_notification n;

			if (count == max || got - off < (ssize_t)sizeof(n))
				return -1;
			memcpy(&n, buf + off, sizeof(n));
			if (n.size != sizeof(n) + ((n.filter_size + 7) & ~7u) ||
			    n.size > got - off)
				return -1;
			out[count].n = n;
			memcpy(out[count].data, buf + off + sizeof(n), n.filter_size);
			count++;
		}
	}
	return count;
}

/* An ETW_IOC_ENABLE with a callback filter. */
static int enable_f(int fd, __u32 logger, const __u8 guid[16], __u32 code,
		    __u32 type, const void *data, __u32 size, __u32 timeout)
{
	struct etw_enable e = { .size = sizeof(e) };

	e.logger_id = logger;
	e.control_code = code;
	memcpy(e.guid, guid, 16);
	e.timeout_ms = timeout;
	if (data || size) {
		e.flags = ETW_ENABLE_F_FILTER;
		e.filter_type = type;
		e.filter_size = size;
		e.filter_data = (uintptr_t)data;
	}
	return etw_ioctl_err(fd, ETW_IOC_ENABLE, &e);
}

/* A schematized filter: header (Id @id) and @extra bytes of @fill. */
static __u32 schematized(__u8 *buf, __u16 id, __u32 extra, __u8 fill)
{
	struct fhdr h = { .id = id, .version = 1, .size = sizeof(h) + extra };

	memcpy(buf, &h, sizeof(h));
	memset(buf + sizeof(h), fill, extra);
	return sizeof(h) + extra;
}

FIXTURE(nt)
{
	int fd;		/* controller */
	int pfd;	/* provider process's file */
	__u8 guid[16];
	__u32 reg;
	__u32 s[3];
};

FIXTURE_SETUP(nt)
{
	char name[32];

	etw_require_root(_metadata);
	self->fd = etw_open_or_skip(_metadata);
	etw_stop_test_sessions(self->fd);
	self->pfd = open(ETW_DEV, O_RDWR | O_CLOEXEC);
	ASSERT_LE(0, self->pfd);
	etw_test_guid(self->guid, 0x70);
	for (int i = 0; i < 3; i++) {
		snprintf(name, sizeof(name), "etwtest-nt-%d", i);
		ASSERT_EQ(0, etw_session_start_simple(self->fd, name, 0, 8, 0,
						      &self->s[i]));
	}
	ASSERT_LT(self->s[0], self->s[1]);
	ASSERT_LT(self->s[1], self->s[2]);
	ASSERT_EQ(0, etw_register_simple(self->pfd, self->guid, &self->reg));
}

FIXTURE_TEARDOWN(nt)
{
	if (self->fd >= 0) {
		etw_stop_test_sessions(self->fd);
		close(self->fd);
	}
	if (self->pfd >= 0)
		close(self->pfd);
}

static struct note notes[8];

/* A provider-defined filter reaches the callback as given; none is NULL. */
TEST_F(nt, provider_defined_filter)
{
	static const char args[] = "Key\0Value";

	ASSERT_EQ(0, enable_f(self->fd, self->s[0], self->guid, 1, 0x5,
			      args, sizeof(args), 0));
	ASSERT_EQ(1, read_notes(self->pfd, notes, 8));
	EXPECT_EQ(ETW_NOTIFY_F_FILTER, notes[0].n.flags);
	EXPECT_EQ(0x5, notes[0].n.filter_type);
	EXPECT_EQ(sizeof(args), notes[0].n.filter_size);
	EXPECT_EQ(0, memcmp(notes[0].data, args, sizeof(args)));
	EXPECT_EQ(sizeof(struct etw_notification) + 16, notes[0].n.size);
	EXPECT_EQ(self->reg, notes[0].n.reg_id);
	EXPECT_EQ(self->s[0], notes[0].n.logger_id);
	EXPECT_EQ(0, notes[0].n.cookie);

	/* Type 0 (EVENT_FILTER_TYPE_NONE) with no data is still a filter. */
	ASSERT_EQ(0, enable_f(self->fd, self->s[1], self->guid, 1, 0, NULL, 0, 0));
	{
		struct etw_enable e = { .size = sizeof(e), .logger_id = self->s[1],
					.control_code = 1,
					.flags = ETW_ENABLE_F_FILTER };

		memcpy(e.guid, self->guid, 16);
		ASSERT_EQ(0, etw_ioctl_err(self->fd, ETW_IOC_ENABLE, &e));
	}
	ASSERT_EQ(2, read_notes(self->pfd, notes, 8));
	/* The first enable of s[1] had no filter: s[0]'s is the one in force. */
	EXPECT_EQ(0x5, notes[0].n.filter_type);
	EXPECT_EQ(ETW_NOTIFY_F_FILTER, notes[1].n.flags);
	EXPECT_EQ(0, notes[1].n.filter_type);
	EXPECT_EQ(0, notes[1].n.filter_size);
	EXPECT_EQ(sizeof(struct etw_notification), notes[1].n.size);

	/* Re-enabled without a filter: the filter is gone with the old enable. */
	ASSERT_EQ(0, etw_enable_simple(self->fd, self->s[0], self->guid, 1, 0,
				       0, 0, 0));
	ASSERT_EQ(0, etw_enable_simple(self->fd, self->s[1], self->guid, 1, 0,
				       0, 0, 0));
	ASSERT_EQ(2, read_notes(self->pfd, notes, 8));
	EXPECT_EQ(ETW_NOTIFY_F_FILTER, notes[0].n.flags);	/* s[1]'s */
	EXPECT_EQ(0, notes[1].n.flags);
	EXPECT_EQ(0, notes[1].n.filter_size);
}

static void expect_block(struct __test_metadata *_metadata, const __u8 *p,
			 __u16 id, __u32 logger, __u32 size, __u32 next)
{
	struct fhdr h;

	memcpy(&h, p, sizeof(h));
	EXPECT_EQ(id, h.id);
	EXPECT_EQ(1ULL << (logger - 1), h.instance_id);
	EXPECT_EQ(size, h.size);
	EXPECT_EQ(next, h.next_offset);
}

/* Schematized filters of several sessions: one chain, logger-id order. */
TEST_F(nt, schematized_chain)
{
	__u8 fa[64], fb[64];
	__u32 la = schematized(fa, 1, 4, 0xaa);	/* 28 bytes */
	__u32 lb = schematized(fb, 2, 12, 0xbb);	/* 36 bytes */

	/* s[1] first, then s[0]: the chain is still in logger-id order. */
	ASSERT_EQ(0, enable_f(self->fd, self->s[1], self->guid, 1,
			      ETW_FILTER_TYPE_SCHEMATIZED, fb, lb, 0));
	ASSERT_EQ(0, enable_f(self->fd, self->s[0], self->guid, 1,
			      ETW_FILTER_TYPE_SCHEMATIZED, fa, la, 0));
	ASSERT_EQ(2, read_notes(self->pfd, notes, 8));
	EXPECT_EQ(lb, notes[0].n.filter_size);
	expect_block(_metadata, notes[0].data, 2, self->s[1], lb, 0);
	EXPECT_EQ(ETW_FILTER_TYPE_SCHEMATIZED, notes[1].n.filter_type);
	ASSERT_EQ(32 + lb, notes[1].n.filter_size);
	expect_block(_metadata, notes[1].data, 1, self->s[0], la, 32);
	expect_block(_metadata, notes[1].data + 32, 2, self->s[1], lb, 0);
	EXPECT_EQ(0, memcmp(notes[1].data + 24, fa + 24, 4));
	EXPECT_EQ(0, memcmp(notes[1].data + 32 + 24, fb + 24, 12));
	/* The controller's copy is untouched. */
	EXPECT_EQ(0, ((struct fhdr *)fa)->instance_id);

	/* A third session without a filter: the two in force. */
	ASSERT_EQ(0, etw_enable_simple(self->fd, self->s[2], self->guid, 1, 0,
				       0, 0, 0));
	ASSERT_EQ(1, read_notes(self->pfd, notes, 8));
	EXPECT_EQ(32 + lb, notes[0].n.filter_size);

	/* s[0] disables: s[1]'s alone; s[1] disables: none left. */
	ASSERT_EQ(0, etw_enable_simple(self->fd, self->s[0], self->guid, 0, 0,
				       0, 0, 0));
	ASSERT_EQ(1, read_notes(self->pfd, notes, 8));
	EXPECT_EQ(1, notes[0].n.control_code);
	EXPECT_EQ(lb, notes[0].n.filter_size);
	expect_block(_metadata, notes[0].data, 2, self->s[1], lb, 0);
	ASSERT_EQ(0, etw_session_ctl(self->fd, self->s[1], ETW_CONTROL_STOP, NULL));
	ASSERT_EQ(1, read_notes(self->pfd, notes, 8));
	EXPECT_EQ(1, notes[0].n.control_code);
	EXPECT_EQ(0, notes[0].n.flags);
	ASSERT_EQ(0, etw_enable_simple(self->fd, self->s[2], self->guid, 0, 0,
				       0, 0, 0));
	ASSERT_EQ(1, read_notes(self->pfd, notes, 8));
	EXPECT_EQ(0, notes[0].n.control_code);
	EXPECT_EQ(0, notes[0].n.flags);
}

/*
 * A provider-defined filter goes alone with its own enable; afterwards
 * the schematized chain wins, then the lowest logger id's.
 */
TEST_F(nt, provider_defined_and_schematized)
{
	__u8 fa[64];
	__u32 la = schematized(fa, 1, 8, 0xaa);
	static const char b[] = "b-args";

	ASSERT_EQ(0, enable_f(self->fd, self->s[1], self->guid, 1,
			      ETW_FILTER_TYPE_SCHEMATIZED, fa, la, 0));
	ASSERT_EQ(0, enable_f(self->fd, self->s[2], self->guid, 1, 7, b,
			      sizeof(b), 0));
	ASSERT_EQ(2, read_notes(self->pfd, notes, 8));
	EXPECT_EQ(7, notes[1].n.filter_type);
	EXPECT_EQ(sizeof(b), notes[1].n.filter_size);
	EXPECT_EQ(0, memcmp(notes[1].data, b, sizeof(b)));

	/* An enable without a filter: the chain (s[1] only). */
	ASSERT_EQ(0, etw_enable_simple(self->fd, self->s[0], self->guid, 1, 0,
				       0, 0, 0));
	ASSERT_EQ(1, read_notes(self->pfd, notes, 8));
	EXPECT_EQ(ETW_FILTER_TYPE_SCHEMATIZED, notes[0].n.filter_type);
	EXPECT_EQ(la, notes[0].n.filter_size);
	expect_block(_metadata, notes[0].data, 1, self->s[1], la, 0);

	/* No schematized filter left: s[2]'s provider-defined one. */
	ASSERT_EQ(0, etw_enable_simple(self->fd, self->s[1], self->guid, 0, 0,
				       0, 0, 0));
	ASSERT_EQ(1, read_notes(self->pfd, notes, 8));
	EXPECT_EQ(7, notes[0].n.filter_type);
	EXPECT_EQ(0, memcmp(notes[0].data, b, sizeof(b)));
}

/* Capture state: its filter goes with that notification only. */
TEST_F(nt, capture_state_filter)
{
	__u8 fa[64], fc[64];
	__u32 la = schematized(fa, 1, 8, 0xaa);
	__u32 lc = schematized(fc, 3, 16, 0xcc);
	static const char p[] = "rundown";

	ASSERT_EQ(0, enable_f(self->fd, self->s[0], self->guid, 1,
			      ETW_FILTER_TYPE_SCHEMATIZED, fa, la, 0));
	ASSERT_EQ(1, read_notes(self->pfd, notes, 8));
	ASSERT_EQ(0, enable_f(self->fd, self->s[0], self->guid, 2, 9, p,
			      sizeof(p), 0));
	ASSERT_EQ(0, enable_f(self->fd, self->s[0], self->guid, 2,
			      ETW_FILTER_TYPE_SCHEMATIZED, fc, lc, 0));
	ASSERT_EQ(0, enable_f(self->fd, self->s[0], self->guid, 2, 0, NULL, 0, 0));
	ASSERT_EQ(3, read_notes(self->pfd, notes, 8));
	EXPECT_EQ(2, notes[0].n.control_code);
	EXPECT_EQ(9, notes[0].n.filter_type);
	EXPECT_EQ(0, memcmp(notes[0].data, p, sizeof(p)));
	EXPECT_EQ(lc, notes[1].n.filter_size);
	expect_block(_metadata, notes[1].data, 3, self->s[0], lc, 0);
	/* No filter with the request: the stored one. */
	EXPECT_EQ(la, notes[2].n.filter_size);
	expect_block(_metadata, notes[2].data, 1, self->s[0], la, 0);
}

/* A registration after the enable gets the filters, SourceId zero. */
TEST_F(nt, registration_gets_filters)
{
	__u8 fa[64], zero[16] = { 0 };
	__u32 la = schematized(fa, 4, 0, 0);
	__u8 g[16];
	__u32 reg;

	etw_test_guid(g, 0x71);
	ASSERT_EQ(0, enable_f(self->fd, self->s[0], g, 1,
			      ETW_FILTER_TYPE_SCHEMATIZED, fa, la, 0));
	ASSERT_EQ(0, etw_register_simple(self->pfd, g, &reg));
	ASSERT_EQ(1, read_notes(self->pfd, notes, 8));
	EXPECT_EQ(reg, notes[0].n.reg_id);
	EXPECT_EQ(1, notes[0].n.control_code);
	EXPECT_EQ(0, notes[0].n.logger_id);
	EXPECT_EQ(0, memcmp(zero, notes[0].n.source_id, 16));
	EXPECT_EQ(la, notes[0].n.filter_size);
	expect_block(_metadata, notes[0].data, 4, self->s[0], la, 0);
}

TEST_F(nt, filter_errors)
{
	static __u8 big[ETW_MAX_FILTER_DATA + 1];
	struct etw_enable e = { .size = sizeof(e), .control_code = 1 };

	e.logger_id = self->s[0];
	memcpy(e.guid, self->guid, 16);
	EXPECT_EQ(-EINVAL, enable_f(self->fd, self->s[0], self->guid, 1, 5, big,
				    sizeof(big), 0));
	EXPECT_EQ(0, enable_f(self->fd, self->s[0], self->guid, 1, 5, big,
			      ETW_MAX_FILTER_DATA, 0));
	EXPECT_EQ(-EINVAL, enable_f(self->fd, self->s[0], self->guid, 1,
				    ETW_FILTER_TYPE_SCHEMATIZED, big,
				    ETW_FILTER_HEADER_SIZE - 1, 0));
	/* The kernel's own filter types have their own fields. */
	EXPECT_EQ(-EINVAL, enable_f(self->fd, self->s[0], self->guid, 1,
				    ETW_FILTER_TYPE_PID, big, 4, 0));
	EXPECT_EQ(-EFAULT, enable_f(self->fd, self->s[0], self->guid, 1, 5,
				    (void *)8, 16, 0));
	/* Filter fields without the flag; unknown flags and reserved. */
	e.filter_size = 4;
	EXPECT_EQ(-EINVAL, etw_ioctl_err(self->fd, ETW_IOC_ENABLE, &e));
	e.filter_size = 0;
	e.filter_type = 1;
	EXPECT_EQ(-EINVAL, etw_ioctl_err(self->fd, ETW_IOC_ENABLE, &e));
	e.filter_type = 0;
	e.filter_data = 1;
	EXPECT_EQ(-EINVAL, etw_ioctl_err(self->fd, ETW_IOC_ENABLE, &e));
	e.filter_data = 0;
	e.flags = 0x4;
	EXPECT_EQ(-EINVAL, etw_ioctl_err(self->fd, ETW_IOC_ENABLE, &e));
	e.flags = 0;
	e.reserved = 1;
	EXPECT_EQ(-EINVAL, etw_ioctl_err(self->fd, ETW_IOC_ENABLE, &e));
	e.reserved = 0;
	/* Payload filter fields without their flag, or a filter too small. */
	e.payload_size = 4;
	EXPECT_EQ(-EINVAL, etw_ioctl_err(self->fd, ETW_IOC_ENABLE, &e));
	e.flags = ETW_ENABLE_F_PAYLOAD;
	EXPECT_EQ(-EINVAL, etw_ioctl_err(self->fd, ETW_IOC_ENABLE, &e));
	e.flags = 0;
	e.payload_size = 0;
	e.payload_data = 1;
	EXPECT_EQ(-EINVAL, etw_ioctl_err(self->fd, ETW_IOC_ENABLE, &e));
	e.payload_data = 0;
	/* The first published size still works (no filter, no wait). */
	e.size = ETW_ENABLE_SIZE_VER0;
	EXPECT_EQ(0, etw_ioctl_err(self->fd, ETW_IOC_ENABLE, &e));
}

/* Read every queued notification; returns the count, -1 if malformed. */
static int drain_notes(int fd, __u32 want_size)
{
	static __u8 buf[ETW_NOTIFICATION_MAX_SIZE * 4];
	struct pollfd pfd = { .fd = fd, .events = POLLIN };
	int count = 0;

	while (poll(&pfd, 1, 0) == 1) {
		ssize_t got = read(fd, buf, sizeof(buf)), off;
		struct etw_notification n;

		if (got <= 0)
			return -1;
		for (off = 0; off < got; off += n.size) {
			memcpy(&n, buf + off, sizeof(n));
			if (n.size != want_size)
				return -1;
			count++;
		}
	}
	return count;
}

/*
 * A process that does not read: at most 1024 notifications, and at most
 * 1 MiB of them, are kept for it; the rest are dropped (the state page
 * still says the latest).  Once it reads, new ones queue again.
 */
TEST_F(nt, queue_limits)
{
	static __u8 big[ETW_MAX_FILTER_DATA];
	int i, n;

	for (i = 0; i < 1100; i++)
		ASSERT_EQ(0, etw_enable_simple(self->fd, self->s[0], self->guid,
					       1, i & 0xff, 0, 0, 0));
	EXPECT_EQ(1024, drain_notes(self->pfd, sizeof(struct etw_notification)));
	ASSERT_EQ(0, etw_enable_simple(self->fd, self->s[0], self->guid, 1, 5,
				       0, 0, 0));
	EXPECT_EQ(1, drain_notes(self->pfd, sizeof(struct etw_notification)));

	/* 1 KiB of filter data each: the byte limit comes first. */
	for (i = 0; i < 1100; i++)
		ASSERT_EQ(0, enable_f(self->fd, self->s[0], self->guid, 1, 5, big,
				      sizeof(big), 0));
	n = drain_notes(self->pfd, sizeof(struct etw_notification) + sizeof(big));
	EXPECT_LT(n, 1024);
	EXPECT_LE(1024 * 1024 / (sizeof(big) + 2 * sizeof(struct etw_notification)), n);
	EXPECT_GE(1024 * 1024 / sizeof(big), n);
}

static int ack(int fd, __u64 cookie)
{
	struct etw_notify_ack a = { .size = sizeof(a), .cookie = cookie };

	return etw_ioctl_err(fd, ETW_IOC_NOTIFY_ACK, &a);
}

/* Shared with the provider child: what it did, in order. */
struct shared {
	volatile int acked;
	volatile int got;
	int acks_taken;		/* acknowledgments returned 0 (atomic) */
};

/*
 * The provider process: read the notification, wait @delay_ms, note the
 * acknowledgment, acknowledge (if @do_ack), then stay until killed.
 */
static pid_t provider_child(int pfd, struct shared *sh, int delay_ms,
			    bool do_ack, bool exit_after)
{
	pid_t pid = fork();

	if (pid)
		return pid;
	for (;;) {
		struct pollfd p = { .fd = pfd, .events = POLLIN };
		int n;

		if (poll(&p, 1, -1) != 1)
			_exit(1);
		n = read_notes(pfd, notes, 8);
		if (n <= 0)
			_exit(2);
		sh->got += n;
		usleep(delay_ms * 1000);
		for (int i = 0; i < n; i++) {
			if (!notes[i].n.cookie)
				_exit(3);
			if (do_ack) {
				sh->acked++;
				if (ack(pfd, notes[i].n.cookie))
					_exit(4);
				__atomic_add_fetch(&sh->acks_taken, 1, __ATOMIC_RELEASE);
			}
		}
		if (exit_after)
			_exit(0);
	}
}

static void stop_child(pid_t pid)
{
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
}

/* The enable returns only after the callback was acknowledged. */
TEST_F(nt, timeout_waits_for_ack)
{
	struct shared *sh = mmap(NULL, sizeof(*sh), PROT_READ | PROT_WRITE,
				 MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	pid_t pid;

	ASSERT_TRUE(sh != MAP_FAILED);
	pid = provider_child(self->pfd, sh, 200, true, false);
	ASSERT_EQ(0, enable_f(self->fd, self->s[0], self->guid, 1, 0, NULL, 0,
			      10000));
	EXPECT_EQ(1, sh->acked);
	/* Disable and capture state wait too. */
	ASSERT_EQ(0, enable_f(self->fd, self->s[0], self->guid, 2, 0, NULL, 0,
			      ETW_TIMEOUT_INFINITE));
	EXPECT_EQ(2, sh->acked);
	ASSERT_EQ(0, enable_f(self->fd, self->s[0], self->guid, 0, 0, NULL, 0,
			      10000));
	EXPECT_EQ(3, sh->acked);
	stop_child(pid);
	munmap(sh, sizeof(*sh));
}

/* No acknowledgment: ETIMEDOUT, and the enable is in force anyway. */
TEST_F(nt, timeout_expires)
{
	struct shared *sh = mmap(NULL, sizeof(*sh), PROT_READ | PROT_WRITE,
				 MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	const struct etw_reg_state *st;
	struct note *late = malloc(sizeof(*late));
	pid_t pid;

	ASSERT_TRUE(sh != MAP_FAILED);
	ASSERT_TRUE(late != NULL);
	st = mmap(NULL, ETW_MMAP_STATE_SIZE, PROT_READ, MAP_SHARED, self->pfd, 0);
	ASSERT_TRUE(st != MAP_FAILED);

	/* Nobody reads: the notification stays queued. */
	EXPECT_EQ(-ETIMEDOUT, enable_f(self->fd, self->s[0], self->guid, 1, 0,
				       NULL, 0, 50));
	EXPECT_EQ(1, st[self->reg - 1].enabled);

	/* Read but not acknowledged. */
	pid = provider_child(self->pfd, sh, 0, false, false);
	EXPECT_EQ(-ETIMEDOUT, enable_f(self->fd, self->s[1], self->guid, 1, 0,
				       NULL, 0, 300));
	stop_child(pid);
	EXPECT_EQ(2, sh->got);

	/* A late acknowledgment is accepted once. */
	ASSERT_EQ(0, enable_f(self->fd, self->s[2], self->guid, 1, 0, NULL, 0, 0));
	ASSERT_EQ(1, read_notes(self->pfd, late, 1));
	EXPECT_EQ(0, late->n.cookie);
	EXPECT_EQ(-EINVAL, ack(self->pfd, 0));
	EXPECT_EQ(-ENOENT, ack(self->pfd, 12345));
	EXPECT_EQ(-ETIMEDOUT, enable_f(self->fd, self->s[2], self->guid, 2, 0,
				       NULL, 0, 10));
	ASSERT_EQ(1, read_notes(self->pfd, late, 1));
	EXPECT_NE(0, late->n.cookie);
	EXPECT_EQ(0, ack(self->pfd, late->n.cookie));
	EXPECT_EQ(-ENOENT, ack(self->pfd, late->n.cookie));
	/* Another file cannot acknowledge it. */
	EXPECT_EQ(-ETIMEDOUT, enable_f(self->fd, self->s[2], self->guid, 2, 0,
				       NULL, 0, 10));
	ASSERT_EQ(1, read_notes(self->pfd, late, 1));
	EXPECT_EQ(-ENOENT, ack(self->fd, late->n.cookie));
	free(late);
	munmap(sh, sizeof(*sh));
}

/* An enable made in a thread: its result once @done. */
struct bg_enable {
	int fd;
	__u32 logger;
	const __u8 *guid;
	__u32 timeout;
	int ret;
	int done;		/* atomic */
};

static void *bg_enable_fn(void *arg)
{
	struct bg_enable *b = arg;

	b->ret = enable_f(b->fd, b->logger, b->guid, 1, 0, NULL, 0, b->timeout);
	__atomic_store_n(&b->done, 1, __ATOMIC_RELEASE);
	return NULL;
}

/*
 * Enable with @timeout_ms while the provider of @sh answers; *ret: the
 * enable's result.  1 if the provider's acknowledgment was taken while
 * the enable still waited, 0 if the enable returned first (a loaded host
 * did not run the provider in time: the attempt shows nothing).
 */
static int enable_while_answered(int fd, __u32 logger, const __u8 *guid,
				 __u32 timeout_ms, struct shared *sh, int *ret)
{
	struct bg_enable b = { fd, logger, guid, timeout_ms, -EINTR, 0 };
	int before = __atomic_load_n(&sh->acks_taken, __ATOMIC_ACQUIRE);
	int in_time = 0;
	pthread_t t;

	if (pthread_create(&t, NULL, bg_enable_fn, &b)) {
		*ret = -EAGAIN;
		return 0;
	}
	/* Bounded by the enable's timeout. */
	while (!__atomic_load_n(&b.done, __ATOMIC_ACQUIRE)) {
		if (__atomic_load_n(&sh->acks_taken, __ATOMIC_ACQUIRE) > before) {
			in_time = !__atomic_load_n(&b.done, __ATOMIC_ACQUIRE);
			break;
		}
		usleep(1000);
	}
	pthread_join(t, NULL);
	*ret = b.ret;
	return in_time;
}

/*
 * Every notified registration counts; one missing is a timeout.  The
 * timeout shows that only if the other answered within it: an attempt in
 * which the host did not run that provider in time is made again with a
 * longer one (1, 4, 16 s), whatever the host's load.
 */
TEST_F_TIMEOUT(nt, timeout_counts_every_registration, 90)
{
	struct shared *sh = mmap(NULL, 2 * sizeof(*sh), PROT_READ | PROT_WRITE,
				 MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	int other = open(ETW_DEV, O_RDWR | O_CLOEXEC);
	int attempts = 0, in_time = 0, ret;
	__u32 reg2, timeout;
	pid_t p1, p2;
	__u8 g[16];

	ASSERT_TRUE(sh != MAP_FAILED);
	ASSERT_LE(0, other);
	/* Without a registration nothing is waited for. */
	etw_test_guid(g, 0x72);
	EXPECT_EQ(0, enable_f(self->fd, self->s[0], g, 1, 0, NULL, 0,
			      ETW_TIMEOUT_INFINITE));

	/* Two registrations, one answers (in time): a timeout all the same. */
	ASSERT_EQ(0, etw_register_simple(other, self->guid, &reg2));
	p1 = provider_child(self->pfd, &sh[0], 0, true, false);
	for (timeout = 1000; !in_time && timeout <= 16000; timeout *= 4) {
		attempts++;
		in_time = enable_while_answered(self->fd, self->s[0], self->guid,
						timeout, &sh[0], &ret);
		EXPECT_EQ(-ETIMEDOUT, ret);
	}
	EXPECT_TRUE(in_time);

	/* Both answer (the other one's earlier notifications too). */
	p2 = provider_child(other, &sh[1], 0, true, false);
	EXPECT_EQ(0, enable_f(self->fd, self->s[0], self->guid, 2, 0, NULL, 0,
			      10000));
	EXPECT_EQ(attempts + 1, sh[0].acked);
	EXPECT_LE(1, sh[1].acked);
	stop_child(p1);
	stop_child(p2);
	close(other);
	munmap(sh, 2 * sizeof(*sh));
}

/* A provider that goes away does not hold the controller up. */
TEST_F(nt, registration_gone_ends_wait)
{
	struct shared *sh = mmap(NULL, sizeof(*sh), PROT_READ | PROT_WRITE,
				 MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	pid_t pid;

	ASSERT_TRUE(sh != MAP_FAILED);
	/* It reads, then exits without acknowledging: its file is released. */
	pid = provider_child(self->pfd, sh, 100, false, true);
	close(self->pfd);
	self->pfd = -1;
	EXPECT_EQ(0, enable_f(self->fd, self->s[0], self->guid, 1, 0, NULL, 0,
			      ETW_TIMEOUT_INFINITE));
	EXPECT_EQ(1, sh->got);
	waitpid(pid, NULL, 0);
	munmap(sh, sizeof(*sh));
}

TEST_F(nt, unregister_ends_wait)
{
	struct etw_provider_unregister u = { .size = sizeof(u) };
	struct shared *sh = mmap(NULL, sizeof(*sh), PROT_READ | PROT_WRITE,
				 MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	pid_t pid;
	int st;

	ASSERT_TRUE(sh != MAP_FAILED);
	pid = fork();
	if (!pid) {
		/* Unregister once the notification is queued, never read it. */
		struct pollfd p = { .fd = self->pfd, .events = POLLIN };

		u.reg_id = self->reg;
		if (poll(&p, 1, -1) != 1)
			_exit(1);
		usleep(100 * 1000);
		sh->got = 1;
		_exit(etw_ioctl_err(self->pfd, ETW_IOC_PROVIDER_UNREGISTER, &u) ?
		      2 : 0);
	}
	EXPECT_EQ(0, enable_f(self->fd, self->s[0], self->guid, 1, 0, NULL, 0,
			      ETW_TIMEOUT_INFINITE));
	EXPECT_EQ(1, sh->got);
	ASSERT_EQ(pid, waitpid(pid, &st, 0));
	EXPECT_TRUE(WIFEXITED(st) && !WEXITSTATUS(st));
	munmap(sh, sizeof(*sh));
}

TEST_HARNESS_MAIN
