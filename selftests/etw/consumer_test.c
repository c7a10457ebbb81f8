// SPDX-License-Identifier: GPL-2.0
/*
 * The mmap consumer protocol: attaching, the three mappings and what is
 * refused, publishing and giving back buffers without a system call,
 * poll, detach and re-attach, a stopped session drained by its consumer,
 * the pool growing between MinimumBuffers and MaximumBuffers, real-time
 * and buffering modes, the wake-up watermark.  Every count is exact:
 * events written = events read + events counted lost.
 */
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/wait.h>

#include "kselftest_harness.h"
#include "etw_selftests.h"
#include "etw_kmod.h"

#define FLUSH_MARKER	0x0001
#define EVENTS_LOST	0x0002

struct consumer {
	int fd;
	struct etw_consumer_attach a;
	struct etw_consumer_ctrl *ctrl;
	const struct etw_consumer_ring *ring;
	const __u8 *bufs;
};

/* Attach to session @logger_id, whose GUID is @guid if not NULL. */
static int consumer_attach_guid(int dev, __u32 logger_id, __u32 flags,
				const __u8 *guid, struct consumer *c)
{
	int ret;

	memset(c, 0, sizeof(*c));
	c->a.size = sizeof(c->a);
	c->a.flags = flags;
	c->a.logger_id = logger_id;
	if (guid)
		memcpy(c->a.guid, guid, sizeof(c->a.guid));
	ret = etw_ioctl_err(dev, ETW_IOC_CONSUMER_ATTACH, &c->a);
	if (ret)
		return ret;
	c->fd = c->a.fd;
	c->ctrl = mmap(NULL, c->a.ctrl_bytes, PROT_READ | PROT_WRITE, MAP_SHARED,
		       c->fd, c->a.ctrl_offset);
	c->ring = mmap(NULL, c->a.ring_bytes, PROT_READ, MAP_SHARED, c->fd,
		       c->a.ring_offset);
	c->bufs = mmap(NULL, c->a.buffers_bytes, PROT_READ, MAP_SHARED, c->fd,
		       c->a.buffers_offset);
	if (c->ctrl == MAP_FAILED || c->ring == MAP_FAILED || c->bufs == MAP_FAILED)
		return -errno;
	return 0;
}

static int consumer_attach(int dev, __u32 logger_id, __u32 flags,
			   struct consumer *c)
{
	return consumer_attach_guid(dev, logger_id, flags, NULL, c);
}

static void consumer_close(struct consumer *c)
{
	munmap(c->ctrl, c->a.ctrl_bytes);
	munmap((void *)c->ring, c->a.ring_bytes);
	munmap((void *)c->bufs, c->a.buffers_bytes);
	close(c->fd);
}

static __u64 ring_head(const struct consumer *c)
{
	return __atomic_load_n(&c->ring->head, __ATOMIC_ACQUIRE);
}

static const __u8 *ring_buffer(const struct consumer *c, __u64 i)
{
	__u32 slot = c->ring->slot[i & (c->ring->ring_size - 1)];

	return c->bufs + (size_t)slot * c->a.buffer_stride;
}

static void give_back(struct consumer *c, __u64 tail)
{
	__atomic_store_n(&c->ctrl->tail, tail, __ATOMIC_RELEASE);
}

struct seen {
	long events;		/* records of the test provider */
	long buffers;
	long markers;		/* buffers with FLUSH_MARKER */
	__u64 last_seq;		/* SequenceNumber of the last buffer */
	__u64 marker_seq;
	int bad;		/* framing errors, sequence going backwards */
	__u8 guid[16];
};

static __u16 get16(const __u8 *p) { __u16 v; memcpy(&v, p, 2); return v; }
static __u32 get32(const __u8 *p) { __u32 v; memcpy(&v, p, 4); return v; }
static __u64 get64(const __u8 *p) { __u64 v; memcpy(&v, p, 8); return v; }

/* Check one ETL buffer and count its records. */
static void seen_buffer(struct seen *s, const __u8 *b, __u32 size)
{
	__u32 saved = get32(b + 4), off;
	__u64 seq = get64(b + 0x18);

	s->buffers++;
	if (get32(b) != size || saved < ETW_BUFFER_HEADER_SIZE || saved > size ||
	    saved % 8 || get32(b + 0x30) != saved || seq <= s->last_seq)
		s->bad++;
	s->last_seq = seq;
	if (get16(b + 0x34) & FLUSH_MARKER) {
		s->markers++;
		s->marker_seq = seq;
	}
	for (off = saved; off < size; off++)
		if (b[off] != 0xff) {
			s->bad++;
			break;
		}
	for (off = ETW_BUFFER_HEADER_SIZE; off < saved;) {
		const struct etw_test_event_header *h = (const void *)(b + off);

		if (h->size < ETW_EVENT_HEADER_SIZE || off + h->size > saved) {
			s->bad++;
			return;
		}
		if (!memcmp(h->provider_id, s->guid, 16))
			s->events++;
		off += (h->size + 7) & ~7u;
	}
}

/* Read everything published, give it back; returns the entries read. */
static long consume(struct consumer *c, struct seen *s)
{
	__u64 tail = c->ctrl->tail, head = ring_head(c), i;

	for (i = tail; i < head; i++)
		seen_buffer(s, ring_buffer(c, i), c->a.buffer_size);
	give_back(c, head);
	return (long)(head - tail);
}

static int consumer_query(struct consumer *c, struct etw_consumer_query *q)
{
	memset(q, 0, sizeof(*q));
	q->size = sizeof(*q);
	return etw_ioctl_err(c->fd, ETW_IOC_CONSUMER_QUERY, q);
}

FIXTURE(consumer)
{
	int fd;
	__u32 id;
	__u32 reg;
	__u8 guid[16];
};

FIXTURE_SETUP(consumer)
{
	etw_require_root(_metadata);
	self->fd = etw_open_or_skip(_metadata);
	etw_stop_test_sessions(self->fd);
	etw_test_guid(self->guid, 0x40);
	ASSERT_EQ(0, etw_register_simple(self->fd, self->guid, &self->reg));
}

FIXTURE_TEARDOWN(consumer)
{
	if (self->fd >= 0) {
		etw_stop_test_sessions(self->fd);
		close(self->fd);
	}
}

static void start(struct __test_metadata *_metadata, FIXTURE_DATA(consumer) *self,
		  const char *name, __u32 mode, __u32 kb, __u32 min, __u32 max)
{
	struct etw_session_start st = { .size = sizeof(st) };

	snprintf(st.info.name, sizeof(st.info.name), "%s", name);
	st.info.log_file_mode = mode;
	st.info.buffer_size_kb = kb;
	st.info.min_buffers = min;
	st.info.max_buffers = max;
	ASSERT_EQ(0, etw_ioctl_err(self->fd, ETW_IOC_SESSION_START, &st));
	self->id = st.info.logger_id;
	ASSERT_EQ(0, etw_enable_simple(self->fd, self->id, self->guid, 1, 0, 0, 0, 0));
}

TEST_F(consumer, attach_read_give_back)
{
	struct etw_session_info info;
	struct seen s = { 0 };
	struct consumer c;
	struct pollfd p;
	long lost = 0, written = 0;
	int i;

	memcpy(s.guid, self->guid, 16);
	/* Room for every event while the consumer waits: no loss. */
	start(_metadata, self, "etwtest-cons-basic", 0, 4, 16, 0);
	ASSERT_EQ(0, consumer_attach(self->fd, self->id, ETW_CONSUMER_F_CLOEXEC, &c));
	EXPECT_EQ(4096, c.a.buffer_size);
	EXPECT_EQ(0, c.a.buffer_stride % sysconf(_SC_PAGESIZE));
	EXPECT_LE(c.a.nr_slots, c.a.ring_size);
	EXPECT_EQ(0, c.a.ring_size & (c.a.ring_size - 1));
	EXPECT_EQ(c.a.ring_size, c.ring->ring_size);
	EXPECT_EQ(FD_CLOEXEC, fcntl(c.fd, F_GETFD) & FD_CLOEXEC);

	/* Nothing yet: poll times out. */
	p.fd = c.fd;
	p.events = POLLIN;
	EXPECT_EQ(0, poll(&p, 1, 0));
	for (i = 0; i < 200; i++)
		written += etw_write_counted(self->fd, self->reg, i, &lost);
	EXPECT_EQ(200, written);
	EXPECT_EQ(0, lost);
	/* Full buffers are published with no FLUSH: 200 events fill several. */
	ASSERT_EQ(1, poll(&p, 1, 1000));
	EXPECT_TRUE(p.revents & POLLIN);
	ASSERT_EQ(0, etw_session_ctl(self->fd, self->id, ETW_CONTROL_FLUSH, NULL));
	EXPECT_LT(1, consume(&c, &s));
	EXPECT_EQ(200, s.events);
	EXPECT_EQ(0, s.bad);
	EXPECT_EQ(0, s.markers);	/* no stop yet */
	/* Given back: nothing pending, and the buffers are free again. */
	EXPECT_EQ(0, poll(&p, 1, 0));
	ASSERT_EQ(0, etw_session_ctl(self->fd, self->id, ETW_CONTROL_QUERY, &info));
	EXPECT_EQ(s.buffers, info.buffers_written);
	EXPECT_EQ(info.number_of_buffers, info.free_buffers);
	EXPECT_EQ(0, info.events_lost);
	consumer_close(&c);
}

/* A new session with 50 events in ready buffers, no consumer yet. */
static void fifty_ready(struct __test_metadata *_metadata,
			FIXTURE_DATA(consumer) *self, const char *name)
{
	long lost = 0;
	int i;

	start(_metadata, self, name, 0, 4, 0, 0);
	for (i = 0; i < 50; i++)
		etw_write_counted(self->fd, self->reg, i, &lost);
	ASSERT_EQ(0, etw_session_ctl(self->fd, self->id, ETW_CONTROL_FLUSH, NULL));
}

/* A consumer attaches and finds all 50 published at once, in order. */
static void attach_reads_fifty(struct __test_metadata *_metadata,
			       FIXTURE_DATA(consumer) *self)
{
	struct seen s = { 0 };
	struct consumer c;

	memcpy(s.guid, self->guid, 16);
	ASSERT_EQ(0, consumer_attach(self->fd, self->id, 0, &c));
	EXPECT_LT(0, ring_head(&c));
	consume(&c, &s);
	EXPECT_EQ(50, s.events);
	EXPECT_EQ(0, s.bad);
	consumer_close(&c);
}

TEST_F(consumer, ready_buffers_published_on_attach)
{
	fifty_ready(_metadata, self, "etwtest-cons-early");
	attach_reads_fifty(_metadata, self);
}

TEST_F(consumer, one_consumer_and_buffer_read_refused)
{
	struct etw_buffer_read r = { .size = sizeof(r) };
	static __u8 buf[4096];
	struct consumer c, d;

	start(_metadata, self, "etwtest-cons-busy", 0, 4, 0, 0);
	ASSERT_EQ(0, consumer_attach(self->fd, self->id, 0, &c));
	EXPECT_EQ(-EBUSY, consumer_attach(self->fd, self->id, 0, &d));
	r.logger_id = self->id;
	r.length = sizeof(buf);
	r.buf = (uintptr_t)buf;
	EXPECT_EQ(-EBUSY, etw_ioctl_err(self->fd, ETW_IOC_BUFFER_READ, &r));
	consumer_close(&c);
	/* Detached: the copy-out fallback works again. */
	EXPECT_EQ(-EAGAIN, etw_ioctl_err(self->fd, ETW_IOC_BUFFER_READ, &r));
	ASSERT_EQ(0, consumer_attach(self->fd, self->id, 0, &d));
	consumer_close(&d);
}

TEST_F(consumer, bad_attach)
{
	struct etw_consumer_attach a = { .size = sizeof(a) };
	struct etw_consumer_query q = { .size = sizeof(q) };

	a.logger_id = 65;
	EXPECT_EQ(-ENOENT, etw_ioctl_err(self->fd, ETW_IOC_CONSUMER_ATTACH, &a));
	start(_metadata, self, "etwtest-cons-bad", 0, 4, 0, 0);
	a.logger_id = self->id;
	a.flags = 0x4;
	EXPECT_EQ(-EINVAL, etw_ioctl_err(self->fd, ETW_IOC_CONSUMER_ATTACH, &a));
	a.flags = 0x8;
	EXPECT_EQ(-EINVAL, etw_ioctl_err(self->fd, ETW_IOC_CONSUMER_ATTACH, &a));
	/* Not the session's GUID: none, stopped or running. */
	a.flags = ETW_CONSUMER_F_LOGGER;
	a.guid[3] = 1;
	EXPECT_EQ(-ENOENT, etw_ioctl_err(self->fd, ETW_IOC_CONSUMER_ATTACH, &a));
	a.flags = 0;
	EXPECT_EQ(-ENOENT, etw_ioctl_err(self->fd, ETW_IOC_CONSUMER_ATTACH, &a));
	a.guid[3] = 0;
	a.size = ETW_CONSUMER_ATTACH_SIZE_VER0 - 8;
	EXPECT_EQ(-EINVAL, etw_ioctl_err(self->fd, ETW_IOC_CONSUMER_ATTACH, &a));
	/* The consumer fd's ioctl is not /dev/etw's. */
	EXPECT_EQ(-ENOTTY, etw_ioctl_err(self->fd, ETW_IOC_CONSUMER_QUERY, &q));
}

TEST_F(consumer, bad_mmaps)
{
	long page = sysconf(_SC_PAGESIZE);
	struct consumer c;
	struct etw_consumer_query q;
	void *m;

	start(_metadata, self, "etwtest-cons-mmap", 0, 4, 0, 0);
	ASSERT_EQ(0, consumer_attach(self->fd, self->id, 0, &c));

	/* Offsets that are no mapping, or inside one. */
	m = mmap(NULL, page, PROT_READ, MAP_SHARED, c.fd, page);
	EXPECT_TRUE(m == MAP_FAILED);
	EXPECT_EQ(EINVAL, errno);
	m = mmap(NULL, page, PROT_READ, MAP_SHARED, c.fd, c.a.ring_offset + page);
	EXPECT_TRUE(m == MAP_FAILED);
	EXPECT_EQ(EINVAL, errno);
	m = mmap(NULL, page, PROT_READ, MAP_SHARED, c.fd, c.a.buffers_offset + page);
	EXPECT_TRUE(m == MAP_FAILED);
	EXPECT_EQ(EINVAL, errno);
	/* Sizes beyond a mapping. */
	m = mmap(NULL, 2 * page, PROT_READ | PROT_WRITE, MAP_SHARED, c.fd, 0);
	EXPECT_TRUE(m == MAP_FAILED);
	EXPECT_EQ(EINVAL, errno);
	m = mmap(NULL, c.a.ring_bytes + page, PROT_READ, MAP_SHARED, c.fd,
		 c.a.ring_offset);
	EXPECT_TRUE(m == MAP_FAILED);
	EXPECT_EQ(EINVAL, errno);
	m = mmap(NULL, c.a.buffers_bytes + page, PROT_READ, MAP_SHARED, c.fd,
		 c.a.buffers_offset);
	EXPECT_TRUE(m == MAP_FAILED);
	EXPECT_EQ(EINVAL, errno);
	/* The control page only shared: a private copy hides the tail. */
	m = mmap(NULL, page, PROT_READ | PROT_WRITE, MAP_PRIVATE, c.fd, 0);
	EXPECT_TRUE(m == MAP_FAILED);
	EXPECT_EQ(EINVAL, errno);
	/* Ring and buffers are read-only, and stay so. */
	m = mmap(NULL, page, PROT_READ | PROT_WRITE, MAP_SHARED, c.fd, c.a.ring_offset);
	EXPECT_TRUE(m == MAP_FAILED);
	EXPECT_EQ(EPERM, errno);
	m = mmap(NULL, page, PROT_READ | PROT_WRITE, MAP_SHARED, c.fd,
		 c.a.buffers_offset);
	EXPECT_TRUE(m == MAP_FAILED);
	EXPECT_EQ(EPERM, errno);
	EXPECT_EQ(-1, mprotect((void *)c.ring, page, PROT_READ | PROT_WRITE));
	EXPECT_EQ(EACCES, errno);
	EXPECT_EQ(-1, mprotect((void *)c.bufs, page, PROT_READ | PROT_WRITE));
	EXPECT_EQ(EACCES, errno);

	/* A nonsense tail is ignored: the kernel's own count stands. */
	give_back(&c, 12345);
	ASSERT_EQ(0, consumer_query(&c, &q));
	EXPECT_EQ(0, q.stopped);
	EXPECT_EQ(q.info.number_of_buffers, q.info.free_buffers);
	EXPECT_EQ(0, q.info.buffers_written);
	give_back(&c, 0);
	q.flags = 1;
	EXPECT_EQ(-EINVAL, etw_ioctl_err(c.fd, ETW_IOC_CONSUMER_QUERY, &q));
	consumer_close(&c);
}

/* A slot with no buffer yet cannot be read: SIGBUS, not stale memory. */
TEST_F(consumer, unallocated_slot_is_sigbus)
{
	struct consumer c;
	pid_t pid;
	int status;

	start(_metadata, self, "etwtest-cons-sigbus", 0, 4, 0, 0);
	ASSERT_EQ(0, consumer_attach(self->fd, self->id, 0, &c));
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		volatile __u8 x = c.bufs[(size_t)(c.a.nr_slots - 1) * c.a.buffer_stride];

		(void)x;
		_exit(0);
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_TRUE(WIFSIGNALED(status));
	EXPECT_EQ(SIGBUS, WTERMSIG(status));
	/* An allocated one reads: zero until it is first handed over. */
	EXPECT_EQ(0, get32(c.bufs));
	consumer_close(&c);
}

TEST_F(consumer, unprivileged_attach_refused)
{
	pid_t pid;
	int status;

	start(_metadata, self, "etwtest-cons-priv", 0, 4, 0, 0);
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		struct etw_consumer_attach a = { .size = sizeof(a) };
		int fd;

		if (setgid(65534) || setuid(65534))
			_exit(100);
		fd = open(ETW_DEV, O_RDWR);
		if (fd < 0)
			_exit(101);
		a.logger_id = self->id;
		_exit(etw_ioctl_err(fd, ETW_IOC_CONSUMER_ATTACH, &a) == -EACCES ? 0 : 1);
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_EQ(0, WEXITSTATUS(status));
}

/* What a consumer did not give back is published again to the next one. */
TEST_F(consumer, detach_republishes)
{
	struct seen s = { 0 };
	struct consumer c;
	__u64 head, first_seq;
	long lost = 0;
	int i;

	memcpy(s.guid, self->guid, 16);
	start(_metadata, self, "etwtest-cons-again", 0, 4, 16, 0);
	for (i = 0; i < 120; i++)
		etw_write_counted(self->fd, self->reg, i, &lost);
	ASSERT_EQ(0, etw_session_ctl(self->fd, self->id, ETW_CONTROL_FLUSH, NULL));
	ASSERT_EQ(0, consumer_attach(self->fd, self->id, 0, &c));
	head = ring_head(&c);
	ASSERT_LT(2, head);
	first_seq = get64(ring_buffer(&c, 0) + 0x18);
	/* Give back only the first buffer, then die. */
	seen_buffer(&s, ring_buffer(&c, 0), c.a.buffer_size);
	give_back(&c, 1);
	consumer_close(&c);

	ASSERT_EQ(0, consumer_attach(self->fd, self->id, 0, &c));
	EXPECT_EQ(head - 1, ring_head(&c));
	EXPECT_EQ(first_seq + 1, get64(ring_buffer(&c, 0) + 0x18));
	consume(&c, &s);
	EXPECT_EQ(120, s.events);	/* each exactly once */
	EXPECT_EQ(0, s.bad);
	consumer_close(&c);
}

/*
 * STOP while writers run, the consumer draining all along: afterwards the
 * consumer reads everything that was stored, the session's last buffer
 * alone carries FLUSH_MARKER, and poll says HUP.
 */
TEST_F(consumer, stop_while_writers_run)
{
	struct etw_writer w[2];
	pthread_t t[2];
	struct etw_consumer_query q;
	struct etw_session_info info;
	struct seen s = { 0 };
	volatile int stop = 0;
	struct consumer c;
	struct pollfd p;
	long written = 0, lost = 0;
	int i;

	memcpy(s.guid, self->guid, 16);
	start(_metadata, self, "etwtest-cons-stop", 0, 4, 0, 0);
	ASSERT_EQ(0, consumer_attach(self->fd, self->id, 0, &c));
	for (i = 0; i < 2; i++) {
		w[i] = (struct etw_writer){ .fd = self->fd, .reg = self->reg, .cpu = i,
					    .stop = &stop };
		ASSERT_EQ(0, pthread_create(&t[i], NULL, etw_writer_fn, &w[i]));
	}
	for (i = 0; i < 20; i++) {
		usleep(10000);
		consume(&c, &s);
	}
	ASSERT_EQ(0, etw_session_ctl(self->fd, self->id, ETW_CONTROL_STOP, &info));
	stop = 1;
	for (i = 0; i < 2; i++) {
		pthread_join(t[i], NULL);
		written += w[i].written;
		lost += w[i].lost;
	}
	p.fd = c.fd;
	p.events = POLLIN;
	ASSERT_EQ(1, poll(&p, 1, 1000));
	consume(&c, &s);
	ASSERT_EQ(1, poll(&p, 1, 1000));
	EXPECT_TRUE(p.revents & POLLHUP);
	EXPECT_EQ(ETW_RING_STOPPED, c.ring->flags);

	ASSERT_EQ(0, consumer_query(&c, &q));
	EXPECT_EQ(1, q.stopped);
	EXPECT_LT(0, written);
	EXPECT_EQ(written, s.events);
	EXPECT_EQ(lost, q.info.events_lost);
	EXPECT_EQ(0, s.bad);
	/*
	 * FLUSH_MARKER on the last buffer only, if a CPU had a partial one
	 * at STOP (the logger marks its file's last buffer in any case).
	 */
	EXPECT_GE(1, s.markers);
	if (s.markers)
		EXPECT_EQ(s.last_seq, s.marker_seq);
	EXPECT_EQ(s.buffers, q.info.buffers_written);
	consumer_close(&c);
}

/* Without a FLUSH: STOP hands over every CPU's partial buffer. */
TEST_F(consumer, stop_flushes_every_cpu)
{
	struct seen s = { 0 };
	struct consumer c;
	long lost = 0;
	int i;

	memcpy(s.guid, self->guid, 16);
	start(_metadata, self, "etwtest-cons-stop2", 0, 64, 0, 0);
	ASSERT_EQ(0, consumer_attach(self->fd, self->id, 0, &c));
	for (i = 0; i < 10; i++) {
		etw_pin_cpu(i);
		etw_write_counted(self->fd, self->reg, i, &lost);
	}
	ASSERT_EQ(0, etw_session_ctl(self->fd, self->id, ETW_CONTROL_STOP, NULL));
	consume(&c, &s);
	EXPECT_EQ(10, s.events);
	/* One partial buffer per CPU written on. */
	EXPECT_EQ(sysconf(_SC_NPROCESSORS_ONLN) < 10 ?
		  sysconf(_SC_NPROCESSORS_ONLN) : 10, s.buffers);
	EXPECT_EQ(1, s.markers);
	EXPECT_EQ(s.last_seq, s.marker_seq);
	EXPECT_EQ(0, lost);
	consumer_close(&c);
}

/*
 * The pool starts at MinimumBuffers and grows, outside the write path,
 * up to MaximumBuffers while the consumer holds everything; then events
 * are lost and counted.  UPDATE raises MaximumBuffers, never lowers it.
 */
TEST_F(consumer, pool_grows_to_maximum)
{
	struct etw_session_control u = { .size = sizeof(u) };
	struct etw_session_info info;
	struct seen s = { 0 };
	struct consumer c;
	long written = 0, lost = 0;
	int i, round;

	memcpy(s.guid, self->guid, 16);
	start(_metadata, self, "etwtest-cons-grow", 0, 4, 4, 12);
	ASSERT_EQ(0, etw_session_ctl(self->fd, self->id, ETW_CONTROL_QUERY, &info));
	EXPECT_EQ(info.min_buffers, info.number_of_buffers);
	EXPECT_EQ(12, info.max_buffers);
	ASSERT_EQ(0, consumer_attach(self->fd, self->id, 0, &c));
	/* Hold every buffer: write in rounds so the work item can grow. */
	for (round = 0; round < 40; round++) {
		for (i = 0; i < 20; i++)
			written += etw_write_counted(self->fd, self->reg, i, &lost);
		usleep(5000);
	}
	ASSERT_EQ(0, etw_session_ctl(self->fd, self->id, ETW_CONTROL_QUERY, &info));
	EXPECT_EQ(12, info.number_of_buffers);
	EXPECT_LT(0, info.events_lost);
	EXPECT_EQ(lost, info.events_lost);

	u.code = ETW_CONTROL_UPDATE;
	u.logger_id = self->id;
	u.info.max_buffers = 11;
	EXPECT_EQ(-EINVAL, etw_ioctl_err(self->fd, ETW_IOC_SESSION_CONTROL, &u));
	u.info.max_buffers = c.a.nr_slots + 1;
	EXPECT_EQ(-EINVAL, etw_ioctl_err(self->fd, ETW_IOC_SESSION_CONTROL, &u));
	u.info.max_buffers = 16;
	ASSERT_EQ(0, etw_ioctl_err(self->fd, ETW_IOC_SESSION_CONTROL, &u));
	EXPECT_EQ(16, u.info.max_buffers);
	for (round = 0; round < 40; round++) {
		for (i = 0; i < 20; i++)
			written += etw_write_counted(self->fd, self->reg, i, &lost);
		usleep(5000);
	}
	ASSERT_EQ(0, etw_session_ctl(self->fd, self->id, ETW_CONTROL_STOP, &info));
	EXPECT_EQ(16, info.number_of_buffers);
	consume(&c, &s);
	EXPECT_EQ(written, s.events);
	EXPECT_EQ(lost, info.events_lost);
	EXPECT_EQ(0, s.bad);
	consumer_close(&c);
}

#define MEMORY_CAP "/sys/module/etw/parameters/max_buffer_memory_mb"

/* Swap the module's max_buffer_memory_mb with @mb (a string, 15 bytes). */
static int swap_memory_cap(char *mb)
{
	char old[16] = "";
	int fd = open(MEMORY_CAP, O_RDWR);
	int ret = 0;

	if (fd < 0)
		return -errno;
	if (read(fd, old, sizeof(old) - 1) <= 0 ||
	    pwrite(fd, mb, strlen(mb), 0) < 0)
		ret = -errno;
	close(fd);
	strcpy(mb, old);
	return ret;
}

/* max_buffer_memory_mb bounds what sessions allocate. */
TEST_F(consumer, memory_cap)
{
	struct etw_session_start st = { .size = sizeof(st) };
	char cap[16] = "1";

	ASSERT_EQ(0, swap_memory_cap(cap));
	snprintf(st.info.name, sizeof(st.info.name), "etwtest-cons-cap");
	st.info.buffer_size_kb = 256;
	st.info.min_buffers = 8;	/* 2 MiB */
	EXPECT_EQ(-ENOMEM, etw_ioctl_err(self->fd, ETW_IOC_SESSION_START, &st));
	ASSERT_EQ(0, swap_memory_cap(cap));
	EXPECT_EQ(0, etw_ioctl_err(self->fd, ETW_IOC_SESSION_START, &st));
}

/*
 * A logger attaching grows the pool to MaximumBuffers before it returns;
 * a consumer that is not a logger leaves it to grow on demand.
 */
TEST_F(consumer, logger_attach_fills_pool)
{
	struct etw_session_info info;
	struct consumer c;

	start(_metadata, self, "etwtest-cons-fill", 0, 4, 4, 12);
	ASSERT_EQ(0, consumer_attach(self->fd, self->id, 0, &c));
	ASSERT_EQ(0, etw_session_ctl(self->fd, self->id, ETW_CONTROL_QUERY, &info));
	EXPECT_LT(info.number_of_buffers, 12);
	consumer_close(&c);
	ASSERT_EQ(0, consumer_attach(self->fd, self->id, ETW_CONSUMER_F_LOGGER, &c));
	ASSERT_EQ(0, etw_session_ctl(self->fd, self->id, ETW_CONTROL_QUERY, &info));
	EXPECT_EQ(12, info.number_of_buffers);
	EXPECT_EQ(12, info.free_buffers);
	consumer_close(&c);
}

/* ETW_CONTROL_UPDATE raising MaximumBuffers of @id to @max. */
static int update_max(int dev, __u32 id, __u32 max)
{
	struct etw_session_control u = { .size = sizeof(u) };

	u.code = ETW_CONTROL_UPDATE;
	u.logger_id = id;
	u.info.max_buffers = max;
	return etw_ioctl_err(dev, ETW_IOC_SESSION_CONTROL, &u);
}

/*
 * The ring shows MaximumBuffers from the attach on and follows UPDATE,
 * for every consumer of the session (a watermark derived from it follows
 * too); a logger's pool is filled to the new bound at once, as at its
 * attach, a plain consumer's grows on demand.
 */
TEST_F(consumer, update_shown_in_ring_fills_logger_pool)
{
	struct etw_session_info info;
	struct consumer c, c2;

	start(_metadata, self, "etwtest-cons-upd", ETW_MODE_REAL_TIME, 4, 4, 12);
	ASSERT_EQ(0, consumer_attach(self->fd, self->id, ETW_CONSUMER_F_LOGGER, &c));
	ASSERT_EQ(0, consumer_attach(self->fd, self->id, 0, &c2));
	EXPECT_EQ(12, c.ring->max_buffers);
	EXPECT_EQ(12, c2.ring->max_buffers);
	ASSERT_EQ(0, update_max(self->fd, self->id, 20));
	EXPECT_EQ(20, c.ring->max_buffers);
	EXPECT_EQ(20, c2.ring->max_buffers);
	ASSERT_EQ(0, etw_session_ctl(self->fd, self->id, ETW_CONTROL_QUERY, &info));
	EXPECT_EQ(20, info.max_buffers);
	EXPECT_EQ(20, info.number_of_buffers);
	consumer_close(&c2);
	consumer_close(&c);

	/* Not a logger: the pool stays as it was until writers need more. */
	ASSERT_EQ(0, consumer_attach(self->fd, self->id, 0, &c));
	EXPECT_EQ(20, c.ring->max_buffers);
	ASSERT_EQ(0, update_max(self->fd, self->id, 24));
	EXPECT_EQ(24, c.ring->max_buffers);
	ASSERT_EQ(0, etw_session_ctl(self->fd, self->id, ETW_CONTROL_QUERY, &info));
	EXPECT_EQ(20, info.number_of_buffers);
	consumer_close(&c);
}

/* The memory cap stops the filling; the logger attaches all the same. */
TEST_F(consumer, logger_attach_fill_capped)
{
	struct etw_session_info info;
	struct consumer c;
	char cap[16] = "1";
	int ret;

	ASSERT_EQ(0, swap_memory_cap(cap));
	/* 4 x 64 KiB at the start; 32 would be 2 MiB. */
	start(_metadata, self, "etwtest-cons-fillcap", 0, 64, 4, 32);
	ret = consumer_attach(self->fd, self->id, ETW_CONSUMER_F_LOGGER, &c);
	ASSERT_EQ(0, swap_memory_cap(cap));
	ASSERT_EQ(0, ret);
	ASSERT_EQ(0, etw_session_ctl(self->fd, self->id, ETW_CONTROL_QUERY, &info));
	EXPECT_LT(4, info.number_of_buffers);
	EXPECT_GE(16, info.number_of_buffers);
	consumer_close(&c);
}

/*
 * Real-time mode, no consumer: buffers are held up to the pool limit, then
 * events are lost (EventsLost) and RealTimeBuffersLost counts the
 * shortages; a consumer attaching later gets everything held.
 */
TEST_F(consumer, real_time_holds_then_counts)
{
	struct etw_session_info info;
	struct seen s = { 0 };
	struct consumer c;
	long written = 0, lost = 0;
	int i;

	memcpy(s.guid, self->guid, 16);
	start(_metadata, self, "etwtest-cons-rt", ETW_MODE_REAL_TIME, 4, 4, 4);
	etw_pin_cpu(0);
	for (i = 0; i < 1000; i++)
		written += etw_write_counted(self->fd, self->reg, i, &lost);
	ASSERT_EQ(0, etw_session_ctl(self->fd, self->id, ETW_CONTROL_QUERY, &info));
	EXPECT_LT(0, lost);
	EXPECT_EQ(lost, info.events_lost);
	EXPECT_EQ(1, info.real_time_buffers_lost);
	EXPECT_EQ(0, info.free_buffers);
	ASSERT_EQ(0, consumer_attach(self->fd, self->id, 0, &c));
	consume(&c, &s);
	/* Buffers are back: writing works again, then a new shortage. */
	for (i = 0; i < 1000; i++)
		written += etw_write_counted(self->fd, self->reg, i, &lost);
	ASSERT_EQ(0, etw_session_ctl(self->fd, self->id, ETW_CONTROL_STOP, &info));
	consume(&c, &s);
	EXPECT_EQ(2, info.real_time_buffers_lost);
	EXPECT_EQ(written, s.events);
	EXPECT_EQ(lost, info.events_lost);
	EXPECT_EQ(0, s.bad);
	consumer_close(&c);
}

/*
 * Buffering mode: a memory ring.  Nothing reaches the consumer until FLUSH
 * (or STOP); the oldest buffers were overwritten, the newest are there.
 */
TEST_F(consumer, buffering_ring_on_flush)
{
	struct etw_session_info info;
	struct seen s = { 0 };
	struct consumer c;
	struct pollfd p;
	long lost = 0;
	int i;

	memcpy(s.guid, self->guid, 16);
	start(_metadata, self, "etwtest-cons-ring", ETW_MODE_BUFFERING, 4, 4, 4);
	ASSERT_EQ(0, consumer_attach(self->fd, self->id, 0, &c));
	etw_pin_cpu(0);
	for (i = 0; i < 1000; i++)
		etw_write_counted(self->fd, self->reg, i, &lost);
	EXPECT_EQ(0, lost);
	ASSERT_EQ(0, etw_session_ctl(self->fd, self->id, ETW_CONTROL_QUERY, &info));
	EXPECT_EQ(info.max_buffers, info.number_of_buffers);
	p.fd = c.fd;
	p.events = POLLIN;
	EXPECT_EQ(0, poll(&p, 1, 0));
	EXPECT_EQ(0, ring_head(&c));
	ASSERT_EQ(0, etw_session_ctl(self->fd, self->id, ETW_CONTROL_FLUSH, NULL));
	EXPECT_EQ(1, poll(&p, 1, 0));
	consume(&c, &s);
	EXPECT_EQ(4, s.buffers);
	EXPECT_LT(0, s.events);
	EXPECT_GT(1000, s.events);	/* the oldest were overwritten */
	EXPECT_EQ(0, s.bad);
	consumer_close(&c);
}

/*
 * Real-time mode: the FlushTimer hands partial buffers to the consumer,
 * with no FLUSH and no STOP, whatever its @watermark; every event arrives
 * once.
 */
static void flush_timer_run(struct __test_metadata *_metadata,
			    FIXTURE_DATA(consumer) *self, const char *name,
			    __u32 watermark)
{
	struct etw_session_control u = { .size = sizeof(u) };
	struct seen s = { 0 };
	struct consumer c;
	struct pollfd p;
	long written = 0, lost = 0;
	int i;

	memcpy(s.guid, self->guid, 16);
	start(_metadata, self, name, ETW_MODE_REAL_TIME, 4, 4, 8);
	u.code = ETW_CONTROL_UPDATE;
	u.logger_id = self->id;
	u.info.flush_timer = 1;
	ASSERT_EQ(0, etw_ioctl_err(self->fd, ETW_IOC_SESSION_CONTROL, &u));
	ASSERT_EQ(0, consumer_attach(self->fd, self->id, 0, &c));
	c.ctrl->watermark = watermark;
	etw_pin_cpu(0);	/* one partial buffer, handed over at once */
	for (i = 0; i < 10; i++)
		written += etw_write_counted(self->fd, self->reg, i, &lost);
	EXPECT_EQ(10, written);
	p.fd = c.fd;
	p.events = POLLIN;
	/* One timer tick is 1 s; a loaded machine may take longer. */
	ASSERT_EQ(1, poll(&p, 1, 60000));
	consume(&c, &s);
	EXPECT_EQ(written, s.events);
	EXPECT_EQ(0, lost);
	EXPECT_EQ(0, s.bad);
	EXPECT_EQ(0, s.markers);	/* not the session's last buffer */
	consumer_close(&c);
}

TEST_F(consumer, flush_timer_hands_over)
{
	flush_timer_run(_metadata, self, "etwtest-cons-timer", 0);
}

/*
 * Real-time mode: a second consumer beside the first gets copies of the
 * buffers output after it attached, in slots of its own.  Holding them
 * never holds up the first; a buffer it has no free slot for is counted in
 * RealTimeBuffersLost.  A logger is never the second.
 */
TEST_F(consumer, second_consumer_gets_copies)
{
	struct seen s1 = { 0 }, s2 = { 0 };
	struct etw_session_info info;
	struct consumer c1, c2, c3;
	long written = 0, lost = 0;
	int i;

	memcpy(s1.guid, self->guid, 16);
	memcpy(s2.guid, self->guid, 16);
	start(_metadata, self, "etwtest-cons-second", ETW_MODE_REAL_TIME, 4, 4, 8);
	ASSERT_EQ(0, consumer_attach(self->fd, self->id, 0, &c1));
	EXPECT_EQ(-EBUSY, consumer_attach(self->fd, self->id, ETW_CONSUMER_F_LOGGER, &c3));
	ASSERT_EQ(0, consumer_attach(self->fd, self->id, 0, &c2));
	EXPECT_EQ(8, c2.a.nr_slots);
	EXPECT_EQ(8 * c2.a.buffer_stride, c2.a.buffers_bytes);
	etw_pin_cpu(0);
	/* The first keeps up; the second gives nothing back: 8 copies. */
	for (i = 0; i < 2000; i++) {
		written += etw_write_counted(self->fd, self->reg, i, &lost);
		if (i % 20 == 0)
			consume(&c1, &s1);
	}
	EXPECT_EQ(8, consume(&c2, &s2));
	EXPECT_EQ(8, s2.last_seq);	/* the first eight buffers */
	/* Given back: copies again, both keeping up. */
	for (i = 0; i < 500; i++) {
		written += etw_write_counted(self->fd, self->reg, i, &lost);
		if (i % 20 == 0) {
			consume(&c1, &s1);
			consume(&c2, &s2);
		}
	}
	ASSERT_EQ(0, etw_session_ctl(self->fd, self->id, ETW_CONTROL_STOP, &info));
	consume(&c1, &s1);
	consume(&c2, &s2);
	EXPECT_EQ(0, lost);		/* the first never ran out */
	EXPECT_EQ(written, s1.events);
	/* Every buffer of the first copied to the second or counted. */
	EXPECT_EQ(s1.buffers, s2.buffers + info.real_time_buffers_lost);
	EXPECT_LT(0, info.real_time_buffers_lost);
	EXPECT_EQ(s1.last_seq, s2.last_seq);	/* the last was copied */
	EXPECT_EQ(1, s2.markers);
	EXPECT_EQ(0, s1.bad);
	EXPECT_EQ(0, s2.bad);
	/* Both see the end. */
	EXPECT_EQ(ETW_RING_STOPPED, c1.ring->flags);
	EXPECT_EQ(ETW_RING_STOPPED, c2.ring->flags);
	consumer_close(&c2);
	consumer_close(&c1);
}

/*
 * Up to ETW_MAX_REALTIME_CONSUMERS consumers of one real-time session,
 * each with every event when it keeps up; one more is refused, and a place
 * a consumer leaves is taken again.
 */
TEST_F(consumer, eight_real_time_consumers)
{
	struct seen s[ETW_MAX_REALTIME_CONSUMERS + 1];
	struct consumer c[ETW_MAX_REALTIME_CONSUMERS + 1];
	struct etw_session_info info;
	long written = 0, lost = 0;
	int i, k, n = ETW_MAX_REALTIME_CONSUMERS;

	memset(s, 0, sizeof(s));
	for (k = 0; k <= n; k++)
		memcpy(s[k].guid, self->guid, 16);
	start(_metadata, self, "etwtest-cons-eight", ETW_MODE_REAL_TIME, 4, 4, 8);
	for (k = 0; k < n; k++)
		ASSERT_EQ(0, consumer_attach(self->fd, self->id, 0, &c[k]));
	EXPECT_EQ(-EBUSY, consumer_attach(self->fd, self->id, 0, &c[n]));
	/* The last goes; its place is free again. */
	consumer_close(&c[n - 1]);
	ASSERT_EQ(0, consumer_attach(self->fd, self->id, 0, &c[n - 1]));
	EXPECT_EQ(-EBUSY, consumer_attach(self->fd, self->id, 0, &c[n]));
	etw_pin_cpu(0);
	for (i = 0; i < 1000; i++) {
		written += etw_write_counted(self->fd, self->reg, i, &lost);
		if (i % 20 == 0)
			for (k = 0; k < n; k++)
				consume(&c[k], &s[k]);
	}
	ASSERT_EQ(0, etw_session_ctl(self->fd, self->id, ETW_CONTROL_STOP, &info));
	EXPECT_EQ(0, lost);
	EXPECT_EQ(0, info.real_time_buffers_lost);
	for (k = 0; k < n; k++) {
		consume(&c[k], &s[k]);
		EXPECT_EQ(written, s[k].events);
		EXPECT_EQ(s[0].buffers, s[k].buffers);
		EXPECT_EQ(1, s[k].markers);
		EXPECT_EQ(0, s[k].bad);
		EXPECT_EQ(ETW_RING_STOPPED, c[k].ring->flags);
	}
	for (k = n - 1; k >= 0; k--)
		consumer_close(&c[k]);
}

/* A second consumer's copies are buffer memory: max_buffer_memory_mb. */
TEST_F(consumer, second_consumer_memory_cap)
{
	struct consumer c1, c2;
	char cap[16] = "1";

	ASSERT_EQ(0, swap_memory_cap(cap));
	/* 256 KiB of buffers; the copies would be 16 x 64 KiB more. */
	start(_metadata, self, "etwtest-cons-2cap", ETW_MODE_REAL_TIME, 64, 4, 16);
	ASSERT_EQ(0, consumer_attach(self->fd, self->id, 0, &c1));
	EXPECT_EQ(-ENOMEM, consumer_attach(self->fd, self->id, 0, &c2));
	ASSERT_EQ(0, swap_memory_cap(cap));
	ASSERT_EQ(0, consumer_attach(self->fd, self->id, 0, &c2));
	EXPECT_EQ(16, c2.a.nr_slots);
	consumer_close(&c2);
	consumer_close(&c1);
}

/* ETW_CONTROL_STOP in a thread: it waits while the session is kept. */
struct stopper {
	int fd;
	__u32 id;
	struct etw_session_info info;
	int ret;
	volatile int done;
};

static void *stopper_fn(void *arg)
{
	struct stopper *st = arg;

	st->ret = etw_session_ctl(st->fd, st->id, ETW_CONTROL_STOP, &st->info);
	__atomic_store_n(&st->done, 1, __ATOMIC_RELEASE);
	return NULL;
}

static void stop_in_thread(struct __test_metadata *_metadata,
			   FIXTURE_DATA(consumer) *self, struct stopper *st,
			   pthread_t *th)
{
	struct etw_session_info info;
	int i;

	st->fd = self->fd;
	st->id = self->id;
	ASSERT_EQ(0, pthread_create(th, NULL, stopper_fn, st));
	/*
	 * STOP takes the session out of the table at once: wait for that,
	 * not for a time, then it must still be waiting for the logger.
	 */
	for (i = 0; i < 2000; i++) {
		if (etw_session_ctl(self->fd, self->id, ETW_CONTROL_QUERY, &info))
			break;
		usleep(10000);
	}
	ASSERT_LT(i, 2000);
	/* The session is kept for a logger: STOP waits. */
	EXPECT_EQ(0, __atomic_load_n(&st->done, __ATOMIC_ACQUIRE));
}

/*
 * A logger that asked for ETW_CTRL_KEEP attaches to a new session, 300
 * events are written, and it dies holding what was published to it.
 */
static void logger_dies(struct __test_metadata *_metadata,
			FIXTURE_DATA(consumer) *self, const char *name,
			struct etw_session_info *info, long *written, long *lost)
{
	struct consumer c;
	int i;

	/* Room for every event: the last buffer is a partial one, marked. */
	start(_metadata, self, name, 0, 4, 32, 32);
	etw_pin_cpu(0);
	ASSERT_EQ(0, etw_session_ctl(self->fd, self->id, ETW_CONTROL_QUERY, info));
	ASSERT_EQ(0, consumer_attach(self->fd, self->id, ETW_CONSUMER_F_LOGGER, &c));
	c.ctrl->flags = ETW_CTRL_KEEP;
	for (i = 0; i < 300; i++)
		*written += etw_write_counted(self->fd, self->reg, i, lost);
	EXPECT_LT(0, ring_head(&c));
	consumer_close(&c);
}

/*
 * The next logger finds the session kept by GUID and drains it, and STOP
 * (in @th) returns the final counts: every event once, every buffer once.
 */
static void next_logger_drains(struct __test_metadata *_metadata,
			       FIXTURE_DATA(consumer) *self, const __u8 *guid,
			       struct stopper *st, pthread_t th, long written)
{
	struct seen s = { 0 };
	struct consumer d;

	memcpy(s.guid, self->guid, 16);
	ASSERT_EQ(0, consumer_attach_guid(self->fd, self->id, ETW_CONSUMER_F_LOGGER,
					  guid, &d));
	EXPECT_EQ(ETW_RING_STOPPED, d.ring->flags);
	consume(&d, &s);
	consumer_close(&d);
	pthread_join(th, NULL);
	EXPECT_EQ(0, st->ret);
	EXPECT_EQ(written, s.events);
	EXPECT_EQ(0, st->info.events_lost);
	EXPECT_EQ(s.buffers, st->info.buffers_written);
	EXPECT_EQ(0, st->info.log_buffers_lost);
	EXPECT_EQ(1, s.markers);
	EXPECT_EQ(0, s.bad);
}

/*
 * ETW_CTRL_KEEP: a logger that asked for it detaches (dies) from a running
 * session; the session stops meanwhile and is kept; the next logger finds
 * it by GUID, drains it, and STOP returns the final counts: every event
 * once, every buffer once.
 */
TEST_F(consumer, kept_for_the_next_logger)
{
	static const __u8 other[16] = { 1 };
	struct etw_session_info info;
	struct stopper st = { 0 };
	struct consumer d;
	long lost = 0, written = 0;
	pthread_t th;
	int i;

	logger_dies(_metadata, self, "etwtest-cons-keep", &info, &written, &lost);
	for (i = 0; i < 100; i++)
		written += etw_write_counted(self->fd, self->reg, i, &lost);
	stop_in_thread(_metadata, self, &st, &th);

	/* Only a logger with the session's GUID finds it. */
	EXPECT_EQ(-ENOENT, consumer_attach_guid(self->fd, self->id, 0, info.guid, &d));
	EXPECT_EQ(-ENOENT, consumer_attach_guid(self->fd, self->id,
						ETW_CONSUMER_F_LOGGER, other, &d));
	EXPECT_EQ(-ENOENT, consumer_attach(self->fd, self->id, ETW_CONSUMER_F_LOGGER, &d));
	EXPECT_EQ(0, lost);
	EXPECT_EQ(400, written);
	next_logger_drains(_metadata, self, info.guid, &st, th, written);
	/* Drained: no longer kept. */
	EXPECT_EQ(-ENOENT, consumer_attach_guid(self->fd, self->id,
						ETW_CONSUMER_F_LOGGER, info.guid, &d));
}

/*
 * A logger attached with @flags in its control page when STOP comes
 * detaches without ETW_CTRL_KEEP: it gives up, what the session held is
 * discarded at once and counted in the statistics STOP returns, every
 * event in EventsLost.
 */
static void logger_gives_up(struct __test_metadata *_metadata,
			    FIXTURE_DATA(consumer) *self, const char *name,
			    __u32 flags)
{
	struct stopper st = { 0 };
	struct consumer c;
	long lost = 0, written = 0;
	pthread_t th;
	int i;

	start(_metadata, self, name, 0, 4, 4, 16);
	ASSERT_EQ(0, consumer_attach(self->fd, self->id, ETW_CONSUMER_F_LOGGER, &c));
	c.ctrl->flags = flags;
	for (i = 0; i < 300; i++)
		written += etw_write_counted(self->fd, self->reg, i, &lost);
	stop_in_thread(_metadata, self, &st, &th);
	c.ctrl->flags = 0;
	consumer_close(&c);
	pthread_join(th, NULL);
	EXPECT_EQ(0, st.ret);
	EXPECT_LT(0, written);
	EXPECT_EQ(written + lost, st.info.events_lost);
	EXPECT_LT(0, st.info.log_buffers_lost);
	EXPECT_EQ(0, st.info.buffers_written);
}

/* One that had asked for ETW_CTRL_KEEP and takes it back. */
TEST_F(consumer, kept_session_given_up)
{
	logger_gives_up(_metadata, self, "etwtest-cons-giveup", ETW_CTRL_KEEP);
}

/*
 * A logger attached when STOP comes may not have given its word yet (a
 * writer that has just attached, opening its file): the session is kept
 * until it detaches.  This one asks for ETW_CTRL_KEEP after the STOP and
 * dies: the session stays kept, the next logger drains it.
 */
TEST_F(consumer, kept_on_the_word_given_after_stop)
{
	struct etw_session_info info;
	struct stopper st = { 0 };
	struct consumer c;
	long lost = 0, written = 0;
	pthread_t th;
	int i;

	start(_metadata, self, "etwtest-cons-word", 0, 4, 32, 32);
	etw_pin_cpu(0);
	ASSERT_EQ(0, etw_session_ctl(self->fd, self->id, ETW_CONTROL_QUERY, &info));
	ASSERT_EQ(0, consumer_attach(self->fd, self->id, ETW_CONSUMER_F_LOGGER, &c));
	for (i = 0; i < 300; i++)
		written += etw_write_counted(self->fd, self->reg, i, &lost);
	stop_in_thread(_metadata, self, &st, &th);
	c.ctrl->flags = ETW_CTRL_KEEP;
	consumer_close(&c);
	EXPECT_EQ(0, lost);
	next_logger_drains(_metadata, self, info.guid, &st, th, written);
}

/*
 * One that never asked for it (not discarded with the session,
 * uncounted).
 */
TEST_F(consumer, logger_attached_at_stop_gives_up)
{
	logger_gives_up(_metadata, self, "etwtest-cons-noword", 0);
}

/* A logger attaching by GUID when @go opens, as a restarted writer does. */
struct attacher {
	int fd;
	__u32 id;
	const __u8 *guid;
	pthread_barrier_t *go;
	int delay_us;		/* before the attach */
	int open_us;		/* "opening its file": before ETW_CTRL_KEEP */
	struct consumer c;
	int ret;
};

static void *attacher_fn(void *arg)
{
	struct attacher *a = arg;

	pthread_barrier_wait(a->go);
	usleep(a->delay_us);
	a->ret = consumer_attach_guid(a->fd, a->id, ETW_CONSUMER_F_LOGGER,
				      a->guid, &a->c);
	if (a->ret)
		return NULL;
	/* Its file opened, it asks to be kept. */
	usleep(a->open_us);
	a->c.ctrl->flags = ETW_CTRL_KEEP;
	return NULL;
}

/* STOP when @go opens, after @delay_us. */
struct racing_stop {
	struct stopper st;
	pthread_barrier_t *go;
	int delay_us;
};

static void *racing_stop_fn(void *arg)
{
	struct racing_stop *r = arg;

	pthread_barrier_wait(r->go);
	usleep(r->delay_us);
	return stopper_fn(&r->st);
}

/*
 * STOP racing a logger's attach, in either order (each round starts them
 * together, one of the two a little later; the logger opens its file for
 * a while before it asks for ETW_CTRL_KEEP): a logger whose attach
 * succeeded asks for ETW_CTRL_KEEP and dies (before the STOP or after),
 * and the next one finds the
 * session kept and drains every event; one whose attach came after the
 * STOP finds nothing (no logger had asked).  What order each round took
 * is not asserted, only that each outcome is whole.
 */
TEST_F(consumer, stop_racing_logger_attach)
{
	int round, attached = 0;

	for (round = 0; round < 40; round++) {
		struct racing_stop rs = { .st = { .fd = self->fd } };
		struct attacher a = { .fd = self->fd };
		struct etw_session_info info;
		pthread_barrier_t go;
		struct seen s = { 0 };
		struct consumer d;
		long lost = 0, written = 0;
		pthread_t ta, ts;
		int i;

		start(_metadata, self, "etwtest-cons-race", 0, 4, 32, 32);
		ASSERT_EQ(0, etw_session_ctl(self->fd, self->id, ETW_CONTROL_QUERY, &info));
		for (i = 0; i < 100; i++)
			written += etw_write_counted(self->fd, self->reg, i, &lost);
		rs.st.id = a.id = self->id;
		a.guid = info.guid;
		rs.go = a.go = &go;
		if (round & 1)
			rs.delay_us = (round % 8) * 250;
		else
			a.delay_us = (round % 8) * 250;
		a.open_us = (round % 5) * 4000;
		ASSERT_EQ(0, pthread_barrier_init(&go, NULL, 2));
		ASSERT_EQ(0, pthread_create(&ta, NULL, attacher_fn, &a));
		ASSERT_EQ(0, pthread_create(&ts, NULL, racing_stop_fn, &rs));
		pthread_join(ta, NULL);
		if (!a.ret) {
			attached++;
			/* It dies holding what was published to it. */
			consumer_close(&a.c);
			/* Maybe before the STOP: the next one comes after it. */
			for (i = 0; i < 2000 && !etw_session_ctl(self->fd, self->id,
								 ETW_CONTROL_QUERY,
								 NULL); i++)
				usleep(10000);
			ASSERT_LT(i, 2000);
			memcpy(s.guid, self->guid, 16);
			ASSERT_EQ(0, consumer_attach_guid(self->fd, self->id,
							  ETW_CONSUMER_F_LOGGER,
							  info.guid, &d));
			EXPECT_EQ(ETW_RING_STOPPED, d.ring->flags);
			consume(&d, &s);
			consumer_close(&d);
		}
		pthread_join(ts, NULL);
		pthread_barrier_destroy(&go);
		EXPECT_EQ(0, rs.st.ret);
		if (a.ret) {
			EXPECT_EQ(-ENOENT, a.ret);
			continue;
		}
		EXPECT_EQ(written, s.events);
		EXPECT_EQ(lost, rs.st.info.events_lost);
		EXPECT_EQ(s.buffers, rs.st.info.buffers_written);
		EXPECT_EQ(1, s.markers);
		EXPECT_EQ(0, s.bad);
	}
	TH_LOG("%d of 40 attaches before the STOP", attached);
}

/*
 * ETW_IOC_CONSUMER_ATTACH with its struct in a read-only page: EFAULT,
 * like every ioctl whose result cannot go back, and the attach undone.
 * No fd is left in the caller's table and the session is as it was.
 */
static int attach_read_only(int dev, __u32 logger_id, __u32 flags,
			    const __u8 *guid, DIR *dir)
{
	struct etw_consumer_attach a = { .size = sizeof(a) }, *ro;
	int n = etw_fd_count(dir), ret;
	int m = etw_fds_to(dir, "anon_inode:[etw-consumer]");

	a.flags = flags;
	a.logger_id = logger_id;
	if (guid)
		memcpy(a.guid, guid, sizeof(a.guid));
	ro = etw_read_only_copy(&a, sizeof(a));
	if (!ro)
		return -ENOMEM;
	ret = etw_ioctl_err(dev, ETW_IOC_CONSUMER_ATTACH, ro);
	etw_read_only_free(ro);
	if (etw_fd_count(dir) != n ||
	    etw_fds_to(dir, "anon_inode:[etw-consumer]") != m)
		return -EMFILE;		/* an fd was left behind */
	return ret;
}

/* The buffers published to the undone attach go to the next consumer. */
TEST_F(consumer, read_only_attach_leaves_no_fd)
{
	DIR *dir = opendir("/proc/self/fd");
	int i;

	ASSERT_TRUE(dir != NULL);
	fifty_ready(_metadata, self, "etwtest-cons-ro");
	for (i = 0; i < 3; i++)
		EXPECT_EQ(-EFAULT, attach_read_only(self->fd, self->id,
						    ETW_CONSUMER_F_CLOEXEC, NULL, dir));
	/* Not EBUSY: the place is free, and every buffer is there, in order. */
	attach_reads_fifty(_metadata, self);
	closedir(dir);
}

/* An undone copy consumer gives its place back: seven more still attach. */
TEST_F(consumer, read_only_copy_consumer_gives_its_place_back)
{
	struct consumer c[ETW_MAX_REALTIME_CONSUMERS + 1];
	DIR *dir = opendir("/proc/self/fd");
	int k, n = ETW_MAX_REALTIME_CONSUMERS;

	ASSERT_TRUE(dir != NULL);
	start(_metadata, self, "etwtest-cons-ro-rt", ETW_MODE_REAL_TIME, 4, 4, 8);
	ASSERT_EQ(0, consumer_attach(self->fd, self->id, 0, &c[0]));
	for (k = 0; k < n; k++)
		EXPECT_EQ(-EFAULT, attach_read_only(self->fd, self->id, 0, NULL, dir));
	for (k = 1; k < n; k++)
		ASSERT_EQ(0, consumer_attach(self->fd, self->id, 0, &c[k]));
	EXPECT_EQ(-EBUSY, consumer_attach(self->fd, self->id, 0, &c[n]));
	for (k = n - 1; k >= 0; k--)
		consumer_close(&c[k]);
	closedir(dir);
}

/*
 * A kept session (ETW_CTRL_KEEP) stays kept when a logger's attach is
 * undone: not discarded as a logger leaving without ETW_CTRL_KEEP would
 * have it, STOP still waits, and the next logger drains every event.
 */
TEST_F(consumer, read_only_logger_attach_keeps_the_session)
{
	DIR *dir = opendir("/proc/self/fd");
	struct etw_session_info info;
	struct stopper st = { 0 };
	long lost = 0, written = 0;
	pthread_t th;
	int i;

	ASSERT_TRUE(dir != NULL);
	logger_dies(_metadata, self, "etwtest-cons-ro-keep", &info, &written, &lost);
	stop_in_thread(_metadata, self, &st, &th);

	for (i = 0; i < 3; i++)
		EXPECT_EQ(-EFAULT, attach_read_only(self->fd, self->id,
						    ETW_CONSUMER_F_LOGGER,
						    info.guid, dir));
	EXPECT_EQ(0, __atomic_load_n(&st.done, __ATOMIC_ACQUIRE));
	EXPECT_EQ(0, lost);
	EXPECT_EQ(300, written);
	next_logger_drains(_metadata, self, info.guid, &st, th, written);
	closedir(dir);
}

/* ETW_CONTROL_DISCARD of the kept session named @name (@guid if not NULL). */
static int discard(int fd, const char *name, const __u8 *guid,
		   struct etw_session_info *info)
{
	struct etw_session_control c = { .size = sizeof(c) };
	int ret;

	c.code = ETW_CONTROL_DISCARD;
	snprintf(c.info.name, sizeof(c.info.name), "%s", name);
	if (guid)
		memcpy(c.info.guid, guid, sizeof(c.info.guid));
	ret = etw_ioctl_err(fd, ETW_IOC_SESSION_CONTROL, &c);
	if (!ret && info)
		*info = c.info;
	return ret;
}

/* Up to @ms for the STOP of @st to return. */
static bool stop_returns(struct stopper *st, int ms)
{
	while (!__atomic_load_n(&st->done, __ATOMIC_ACQUIRE) && ms-- > 0)
		usleep(1000);
	return __atomic_load_n(&st->done, __ATOMIC_ACQUIRE);
}

/*
 * `etw stop --discard`: a kept session is given up by name at once, not
 * after keep_timeout_s; what it held is lost and counted, in the answer
 * and in what the waiting STOP returns; no logger finds it any more.
 * Refused while a logger is attached to it; by GUID it is found too.
 */
TEST_F(consumer, discard_gives_up_a_kept_session)
{
	struct etw_session_info info, out;
	struct stopper st = { 0 };
	struct consumer d;
	long lost = 0, written = 0;
	pthread_t th;

	logger_dies(_metadata, self, "etwtest-cons-discard", &info, &written, &lost);
	stop_in_thread(_metadata, self, &st, &th);
	EXPECT_EQ(-ENOENT, discard(self->fd, "etwtest-cons-other", NULL, NULL));

	/* A logger draining it: not under its feet. */
	ASSERT_EQ(0, consumer_attach_guid(self->fd, self->id, ETW_CONSUMER_F_LOGGER,
					  info.guid, &d));
	EXPECT_EQ(-EBUSY, discard(self->fd, "etwtest-cons-discard", NULL, NULL));
	d.ctrl->flags = ETW_CTRL_KEEP;
	consumer_close(&d);

	ASSERT_EQ(0, discard(self->fd, "", info.guid, &out));
	EXPECT_EQ(written, out.events_lost);
	EXPECT_LT(0, out.log_buffers_lost);
	ASSERT_TRUE(stop_returns(&st, 5000));
	pthread_join(th, NULL);
	EXPECT_EQ(0, st.ret);
	EXPECT_EQ(written, st.info.events_lost);
	EXPECT_EQ(out.log_buffers_lost, st.info.log_buffers_lost);
	EXPECT_EQ(-ENOENT, discard(self->fd, "etwtest-cons-discard", NULL, NULL));
	EXPECT_EQ(-ENOENT, consumer_attach_guid(self->fd, self->id,
						ETW_CONSUMER_F_LOGGER, info.guid, &d));
	EXPECT_EQ(300, written);
}

/* The kept-session limits are parameters of etw.ko, from 1 to 3600 s. */
TEST_F(consumer, keep_limits_are_parameters)
{
	char buf[32];

	ASSERT_EQ(0, etw_read_file(ETW_PARAM("keep_timeout_s"), buf, sizeof(buf)));
	EXPECT_STREQ("10\n", buf);
	ASSERT_EQ(0, etw_read_file(ETW_PARAM("stop_wait_s"), buf, sizeof(buf)));
	EXPECT_STREQ("60\n", buf);
	EXPECT_EQ(-EINVAL, etw_write_file(ETW_PARAM("keep_timeout_s"), "0"));
	EXPECT_EQ(-EINVAL, etw_write_file(ETW_PARAM("keep_timeout_s"), "3601"));
	EXPECT_EQ(-EINVAL, etw_write_file(ETW_PARAM("stop_wait_s"), "0"));
	EXPECT_EQ(-EINVAL, etw_write_file(ETW_PARAM("stop_wait_s"), "-1"));
	ASSERT_EQ(0, etw_read_file(ETW_PARAM("keep_timeout_s"), buf, sizeof(buf)));
	EXPECT_STREQ("10\n", buf);
}

/*
 * keep_timeout_s=2: a kept session no logger comes for is discarded
 * after two seconds, and the STOP waiting for it returns what it lost.
 */
TEST_F(consumer, keep_timeout_s_discards_sooner)
{
	struct etw_session_info info;
	struct stopper st = { 0 };
	long lost = 0, written = 0;
	pthread_t th;

	ASSERT_EQ(0, etw_write_file(ETW_PARAM("keep_timeout_s"), "2"));
	logger_dies(_metadata, self, "etwtest-cons-keep1", &info, &written, &lost);
	stop_in_thread(_metadata, self, &st, &th);
	EXPECT_TRUE(stop_returns(&st, 8000));
	etw_write_file(ETW_PARAM("keep_timeout_s"), "10");
	pthread_join(th, NULL);
	EXPECT_EQ(0, st.ret);
	EXPECT_EQ(written, st.info.events_lost);
	EXPECT_EQ(-ENOENT, discard(self->fd, "etwtest-cons-keep1", NULL, NULL));
}

/*
 * stop_wait_s=2: STOP waits two seconds, not a minute, for a logger that
 * stays attached without draining.
 */
TEST_F(consumer, stop_wait_s_bounds_the_stop)
{
	struct stopper st = { 0 };
	struct consumer c;
	pthread_t th;

	ASSERT_EQ(0, etw_write_file(ETW_PARAM("stop_wait_s"), "2"));
	start(_metadata, self, "etwtest-cons-wait1", 0, 4, 32, 32);
	ASSERT_EQ(0, consumer_attach(self->fd, self->id, ETW_CONSUMER_F_LOGGER, &c));
	stop_in_thread(_metadata, self, &st, &th);
	EXPECT_TRUE(stop_returns(&st, 8000));
	etw_write_file(ETW_PARAM("stop_wait_s"), "60");
	pthread_join(th, NULL);
	EXPECT_EQ(0, st.ret);
	consumer_close(&c);
}

/* Write from this CPU until @n entries are published; the events written. */
static long write_until_head(FIXTURE_DATA(consumer) *self, struct consumer *c,
			     __u64 n, long *lost)
{
	long written = 0;
	int i;

	for (i = 0; ring_head(c) < n && i < 1000000; i++)
		written += etw_write_counted(self->fd, self->reg, i & 0xffff, lost);
	return written;
}

static int poll_now(struct consumer *c, short *revents)
{
	struct pollfd p = { .fd = c->fd, .events = POLLIN };
	int n = poll(&p, 1, 0);

	*revents = p.revents;
	return n;
}

/*
 * A session of 4 KB buffers (16 at the start, at most @max) written from
 * CPU 0, and its consumer @c woken at @watermark entries; @s counts the
 * test provider's events.
 */
static void wm_start(struct __test_metadata *_metadata,
		     FIXTURE_DATA(consumer) *self, const char *name, __u32 max,
		     __u32 watermark, struct consumer *c, struct seen *s)
{
	memcpy(s->guid, self->guid, 16);
	start(_metadata, self, name, 0, 4, 16, max);
	etw_pin_cpu(0);
	ASSERT_EQ(0, consumer_attach(self->fd, self->id, 0, c));
	c->ctrl->watermark = watermark;
}

/* STOP delivers the rest: every event written, none lost, none malformed. */
static void wm_stop_delivers_all(struct __test_metadata *_metadata,
				 FIXTURE_DATA(consumer) *self, struct consumer *c,
				 struct seen *s, long written, long lost)
{
	ASSERT_EQ(0, etw_session_ctl(self->fd, self->id, ETW_CONTROL_STOP, NULL));
	consume(c, s);
	EXPECT_EQ(0, lost);
	EXPECT_EQ(written, s->events);
	EXPECT_EQ(0, s->bad);
}

/*
 * The wake-up watermark: poll() says nothing below it and EPOLLIN at it,
 * though the buffers are published (the ring's head moves); 0 is ABI 1.0's
 * wake-up per buffer, and so is a tail the kernel ignores.
 */
TEST_F(consumer, watermark_wakes_at_count)
{
	struct seen s = { 0 };
	struct consumer c;
	long written = 0, lost = 0;
	short rev;

	/* 36 buffers: the pool is far from low at 3. */
	wm_start(_metadata, self, "etwtest-cons-wm", 0, 3, &c, &s);
	written += write_until_head(self, &c, 1, &lost);
	EXPECT_EQ(0, poll_now(&c, &rev));
	written += write_until_head(self, &c, 2, &lost);
	EXPECT_EQ(0, poll_now(&c, &rev));
	EXPECT_EQ(2, ring_head(&c));
	written += write_until_head(self, &c, 3, &lost);
	EXPECT_EQ(1, poll_now(&c, &rev));
	EXPECT_EQ(POLLIN, rev);
	consume(&c, &s);
	EXPECT_EQ(0, poll_now(&c, &rev));

	/* 0: each buffer, as before. */
	written += write_until_head(self, &c, 4, &lost);
	EXPECT_EQ(0, poll_now(&c, &rev));
	c.ctrl->watermark = 0;
	EXPECT_EQ(1, poll_now(&c, &rev));
	c.ctrl->watermark = 3;
	EXPECT_EQ(0, poll_now(&c, &rev));
	/* A tail past the head is ignored: ready, as without a watermark. */
	give_back(&c, ring_head(&c) + 5);
	EXPECT_EQ(1, poll_now(&c, &rev));
	give_back(&c, 3);
	EXPECT_EQ(0, poll_now(&c, &rev));

	wm_stop_delivers_all(_metadata, self, &c, &s, written, lost);
	consumer_close(&c);
}

/* Writes until the ring holds @n entries beyond @from, in a thread. */
struct wm_writer {
	FIXTURE_DATA(consumer) *self;
	struct consumer *c;
	__u64 from;
	long written, lost;
	volatile int below;	/* one short of the watermark, then a pause */
};

static void *wm_writer_fn(void *arg)
{
	struct wm_writer *w = arg;

	etw_pin_cpu(1);
	w->written += write_until_head(w->self, w->c, w->from + 2, &w->lost);
	__atomic_store_n(&w->below, 1, __ATOMIC_RELEASE);
	usleep(300000);
	w->written += write_until_head(w->self, w->c, w->from + 3, &w->lost);
	return NULL;
}

/*
 * A poll() that sleeps is not woken by buffers below the watermark: it
 * returns with the watermark's count published, not before.
 */
TEST_F(consumer, watermark_sleeping_poll)
{
	struct wm_writer w = { .self = self };
	struct consumer c;
	struct pollfd p;
	pthread_t t;
	__u64 head;

	start(_metadata, self, "etwtest-cons-wmsleep", 0, 4, 16, 0);
	ASSERT_EQ(0, consumer_attach(self->fd, self->id, 0, &c));
	c.ctrl->watermark = 3;
	w.c = &c;
	ASSERT_EQ(0, pthread_create(&t, NULL, wm_writer_fn, &w));
	p.fd = c.fd;
	p.events = POLLIN;
	EXPECT_EQ(1, poll(&p, 1, 60000));
	head = ring_head(&c);
	EXPECT_EQ(1, __atomic_load_n(&w.below, __ATOMIC_ACQUIRE));
	EXPECT_LE(3, head);
	pthread_join(t, NULL);
	EXPECT_EQ(0, w.lost);
	consumer_close(&c);
}

/*
 * Below its watermark, the consumer is woken when the writers run low: a
 * quarter of MaximumBuffers left, or one per online CPU.  Not one event is
 * lost while it waits.
 */
TEST_F(consumer, watermark_wakes_when_pool_low)
{
	long cpus = sysconf(_SC_NPROCESSORS_ONLN), low, written = 0, lost = 0;
	struct seen s = { 0 };
	struct consumer c;
	__u64 at;
	short rev;

	/* All 16 from the start: no growth to wait for. */
	wm_start(_metadata, self, "etwtest-cons-wmlow", 16, 14, &c, &s);
	/* The writers' buffers: 16, less those published, less this CPU's. */
	low = 16 / 4 > cpus ? 16 / 4 : cpus;
	at = 16 - 1 - low;
	ASSERT_LT(0, at);
	written += write_until_head(self, &c, at - 1, &lost);
	EXPECT_EQ(0, poll_now(&c, &rev));
	written += write_until_head(self, &c, at, &lost);
	EXPECT_EQ(1, poll_now(&c, &rev));
	EXPECT_EQ(0, lost);
	/* Far beyond the pool: "when low", the same. */
	c.ctrl->watermark = 0xffffffff;
	EXPECT_EQ(1, poll_now(&c, &rev));
	consume(&c, &s);
	EXPECT_EQ(0, poll_now(&c, &rev));
	wm_stop_delivers_all(_metadata, self, &c, &s, written, lost);
	consumer_close(&c);
}

/*
 * FLUSH delivers what is below the watermark at once: the partial buffer
 * and the full ones before it; STOP too, then EPOLLHUP.
 */
TEST_F(consumer, watermark_flush_and_stop_deliver)
{
	struct seen s = { 0 };
	struct consumer c;
	long written = 0, lost = 0;
	short rev;
	int i;

	wm_start(_metadata, self, "etwtest-cons-wmflush", 0, 8, &c, &s);
	written += write_until_head(self, &c, 2, &lost);
	for (i = 0; i < 5; i++)
		written += etw_write_counted(self->fd, self->reg, i, &lost);
	EXPECT_EQ(0, poll_now(&c, &rev));
	ASSERT_EQ(0, etw_session_ctl(self->fd, self->id, ETW_CONTROL_FLUSH, NULL));
	EXPECT_EQ(1, poll_now(&c, &rev));
	EXPECT_EQ(3, consume(&c, &s));
	EXPECT_EQ(written, s.events);
	/* Delivered: the watermark holds again for what comes next. */
	written += write_until_head(self, &c, 4, &lost);
	EXPECT_EQ(0, poll_now(&c, &rev));
	ASSERT_EQ(0, etw_session_ctl(self->fd, self->id, ETW_CONTROL_STOP, NULL));
	EXPECT_EQ(1, poll_now(&c, &rev));
	EXPECT_EQ(POLLIN, rev);
	consume(&c, &s);
	EXPECT_EQ(1, poll_now(&c, &rev));
	EXPECT_EQ(POLLHUP, rev);
	EXPECT_EQ(0, lost);
	EXPECT_EQ(written, s.events);
	EXPECT_EQ(1, s.markers);
	EXPECT_EQ(0, s.bad);
	consumer_close(&c);
}

/* The FlushTimer delivers a partial buffer below the watermark. */
TEST_F(consumer, watermark_flush_timer_delivers)
{
	flush_timer_run(_metadata, self, "etwtest-cons-wmtimer", 4);
}

/*
 * Write until the copy consumer @c2 has @n entries, the first consumer
 * @c1 giving everything back as it goes; the events written.
 */
static long copies_until(FIXTURE_DATA(consumer) *self, struct consumer *c1,
			 struct consumer *c2, __u64 n, long *lost)
{
	struct seen s = { 0 };
	long written = 0;
	int i;

	for (i = 0; ring_head(c2) < n && i < 1000000; i++) {
		written += etw_write_counted(self->fd, self->reg, i & 0xffff, lost);
		consume(c1, &s);
	}
	return written;
}

/*
 * A copy consumer's watermark counts its copies; below it, it is woken
 * when a quarter of its copy slots or fewer are free (a copy that finds
 * none is lost), whatever the watermark.
 */
TEST_F(consumer, watermark_copy_consumer)
{
	struct etw_session_info info;
	struct consumer c1, c2;
	struct seen s = { 0 };
	__u64 n, at;
	long lost = 0;
	short rev;

	start(_metadata, self, "etwtest-cons-wmcopy", ETW_MODE_REAL_TIME, 4, 4, 8);
	etw_pin_cpu(0);
	ASSERT_EQ(0, consumer_attach(self->fd, self->id, 0, &c1));
	ASSERT_EQ(0, consumer_attach(self->fd, self->id, 0, &c2));
	n = c2.a.nr_slots;
	ASSERT_LE(4, n);
	c2.ctrl->watermark = 3;
	copies_until(self, &c1, &c2, 2, &lost);
	EXPECT_EQ(0, poll_now(&c2, &rev));
	copies_until(self, &c1, &c2, 3, &lost);
	EXPECT_EQ(1, poll_now(&c2, &rev));
	consume(&c2, &s);
	EXPECT_EQ(0, poll_now(&c2, &rev));

	c2.ctrl->watermark = 1000;
	at = 3 + n - (n / 4 > 1 ? n / 4 : 1);
	copies_until(self, &c1, &c2, at - 1, &lost);
	EXPECT_EQ(0, poll_now(&c2, &rev));
	copies_until(self, &c1, &c2, at, &lost);
	EXPECT_EQ(1, poll_now(&c2, &rev));
	EXPECT_EQ(POLLIN, rev);
	ASSERT_EQ(0, etw_session_ctl(self->fd, self->id, ETW_CONTROL_QUERY, &info));
	EXPECT_EQ(0, info.real_time_buffers_lost);
	EXPECT_EQ(0, lost);
	consumer_close(&c2);
	consumer_close(&c1);
}

TEST_HARNESS_MAIN
