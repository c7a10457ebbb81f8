// SPDX-License-Identifier: GPL-2.0
/*
 * The classic kinds of ETW_IOC_WRITE through the raw ioctl: TraceEvent's
 * EVENT_TRACE_HEADER, TraceEventInstance's EVENT_INSTANCE_GUID_HEADER and
 * TraceMessage's MESSAGE_TRACE_HEADER as stored, byte by byte; the
 * header flags the kernel interprets (USE_TIMESTAMP, USE_GUID_PTR,
 * USE_MOF_PTR); and every errno the kernel gives.  Built 64- and 32-bit:
 * the header type byte and the message pointer flag follow the writer.
 */
#include <pthread.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/syscall.h>

#include "kselftest_harness.h"
#include "classic_selftests.h"

FIXTURE(tw)
{
	int fd;
	__u32 s;
	__u8 guid[16];
};

FIXTURE_SETUP(tw)
{
	etw_require_root(_metadata);
	self->fd = etw_open_or_skip(_metadata);
	etw_stop_test_sessions(self->fd);
	etw_test_guid(self->guid, 0x50);
	ASSERT_EQ(0, etw_session_start_simple(self->fd, "etwtest-tw", 0, 8, 0, &self->s));
}

FIXTURE_TEARDOWN(tw)
{
	if (self->fd >= 0) {
		etw_stop_test_sessions(self->fd);
		close(self->fd);
	}
}

/* A header and up to 64 KiB of data, as TraceEvent's caller lays it out. */
struct event {
	struct ct_caller_header h;
	__u8 data[65536];
};

static void event_init(struct event *e, const __u8 guid[16], __u16 data_len)
{
	unsigned int i;

	memset(e, 0, sizeof(*e));
	e->h.size = sizeof(e->h) + data_len;
	e->h.type = 1;			/* EVENT_TRACE_TYPE_START */
	e->h.level = 4;
	e->h.version = 0x203;
	memcpy(e->h.guid_or_ptr, guid, 16);
	e->h.flags = CT_TRACED_GUID;
	for (i = 0; i < data_len; i++)
		e->data[i] = (__u8)(i * 7 + 1);
}

static long drain_last(int fd, __u32 s, struct ct_last *l)
{
	memset(l, 0, sizeof(*l));
	return ct_drain(fd, s, ct_keep_last, l);
}

static struct ct_last last;

TEST_F(tw, trace_record_as_stored)
{
	const struct ct_trace_header *t = (const void *)last.rec;
	struct etw_trace_write w = { .kind = ETW_WRITE_TRACE };
	struct event e, copy;
	struct rusage ru;
	__u64 before, after;

	event_init(&e, self->guid, 21);
	e.h.client_context = 0x1234;	/* the kernel writes times over it */
	e.h.history = 0x0000000100000001ull;	/* a ThreadId and ProcessId of 1: ignored */
	copy = e;
	w.logger_id = self->s;
	w.header = (uintptr_t)&e;
	before = ct_now();
	ASSERT_EQ(0, ct_write(self->fd, &w));
	after = ct_now();
	/* The kernel only reads the caller's header. */
	EXPECT_EQ(0, memcmp(&copy, &e, sizeof(e)));

	ASSERT_EQ(1, drain_last(self->fd, self->s, &last));
	EXPECT_EQ(0x30 + 21, t->size);
	EXPECT_EQ(0x30 + 21, last.size);
	EXPECT_EQ(CT_FULL, t->header_type);
	EXPECT_EQ(0xc0, t->marker_flags);
	EXPECT_EQ(1, t->type);
	EXPECT_EQ(4, t->level);
	EXPECT_EQ(0x203, t->version);
	EXPECT_EQ(syscall(SYS_gettid), t->thread_id);
	EXPECT_EQ(getpid(), t->process_id);
	EXPECT_LE(before, t->timestamp);
	EXPECT_GE(after, t->timestamp);
	EXPECT_EQ(0, memcmp(t->guid, self->guid, 16));
	/*
	 * Processor times in ms: about what the thread has used (getrusage
	 * scales the tick counts the record has, so allow a few ticks).
	 */
	ASSERT_EQ(0, getrusage(RUSAGE_THREAD, &ru));
	EXPECT_GE(ru.ru_stime.tv_sec * 1000 + ru.ru_stime.tv_usec / 1000 +
		  ru.ru_utime.tv_sec * 1000 + ru.ru_utime.tv_usec / 1000 + 40,
		  t->kernel_time + t->user_time);
	EXPECT_EQ(0, memcmp(last.rec + 0x30, e.data, 21));
}

TEST_F(tw, use_timestamp_keeps_the_callers)
{
	const struct ct_trace_header *t = (const void *)last.rec;
	struct event e;

	event_init(&e, self->guid, 0);
	e.h.timestamp = 0x0123456789abcdefull;
	e.h.flags |= CT_USE_TIMESTAMP;
	ASSERT_EQ(0, ct_trace(self->fd, self->s, &e));
	ASSERT_EQ(1, drain_last(self->fd, self->s, &last));
	EXPECT_EQ(0x0123456789abcdefull, t->timestamp);
	EXPECT_EQ(0x30, t->size);

	/* Without the flag the caller's value is not used. */
	e.h.flags &= ~CT_USE_TIMESTAMP;
	ASSERT_EQ(0, ct_trace(self->fd, self->s, &e));
	ASSERT_EQ(1, drain_last(self->fd, self->s, &last));
	EXPECT_NE(0x0123456789abcdefull, t->timestamp);
}

TEST_F(tw, use_guid_ptr_reads_the_guid_there)
{
	const struct ct_trace_header *t = (const void *)last.rec;
	__u8 other[16];
	struct event e;

	etw_test_guid(other, 0x51);
	event_init(&e, self->guid, 4);
	e.h.flags |= CT_USE_GUID_PTR;
	e.h.guid_or_ptr[0] = (uintptr_t)other;
	e.h.guid_or_ptr[1] = 0xdeadbeef;	/* not read with GuidPtr */
	ASSERT_EQ(0, ct_trace(self->fd, self->s, &e));
	ASSERT_EQ(1, drain_last(self->fd, self->s, &last));
	EXPECT_EQ(0, memcmp(t->guid, other, 16));
	EXPECT_EQ(0x34, t->size);

	e.h.guid_or_ptr[0] = 8;			/* unreadable */
	EXPECT_EQ(-EFAULT, ct_trace(self->fd, self->s, &e));
	EXPECT_EQ(0, drain_last(self->fd, self->s, &last));
}

struct mof {
	__u64 ptr;
	__u32 length;
	__u32 type;
};

TEST_F(tw, use_mof_ptr_gathers_the_fields)
{
	static const char a[] = "abc", c[] = "0123456789";
	struct {
		struct ct_caller_header h;
		struct mof f[17];
	} e;
	__u32 v = 0x11223344;
	unsigned int i;

	memset(&e, 0, sizeof(e));
	e.h.flags = CT_TRACED_GUID | CT_USE_MOF_PTR;
	e.h.type = 2;
	memcpy(e.h.guid_or_ptr, self->guid, 16);
	e.f[0] = (struct mof){ (uintptr_t)a, 3, 2 };
	e.f[1] = (struct mof){ 0, 0, 0 };	/* empty: nothing read */
	e.f[2] = (struct mof){ (uintptr_t)c, 10, 2 };
	e.h.size = 0x30 + 3 * 16;
	ASSERT_EQ(0, ct_trace(self->fd, self->s, &e));
	ASSERT_EQ(1, drain_last(self->fd, self->s, &last));
	EXPECT_EQ(0x30 + 13, last.size);
	EXPECT_EQ(0, memcmp(last.rec + 0x30, "abc0123456789", 13));

	/* A partial MOF_FIELD after the whole ones is not read. */
	e.h.size = 0x30 + 16 + 8;
	ASSERT_EQ(0, ct_trace(self->fd, self->s, &e));
	ASSERT_EQ(1, drain_last(self->fd, self->s, &last));
	EXPECT_EQ(0x30 + 3, last.size);

	/* MAX_MOF_FIELDS (16, 0x100 bytes) is the most. */
	for (i = 0; i < 17; i++)
		e.f[i] = (struct mof){ (uintptr_t)&v, 4, 8 };
	e.h.size = 0x30 + 16 * 16;
	ASSERT_EQ(0, ct_trace(self->fd, self->s, &e));
	ASSERT_EQ(1, drain_last(self->fd, self->s, &last));
	EXPECT_EQ(0x30 + 64, last.size);
	EXPECT_EQ(0, memcmp(last.rec + 0x30 + 60, &v, 4));
	e.h.size = 0x30 + 16 * 16 + 1;
	EXPECT_EQ(-ERANGE, ct_trace(self->fd, self->s, &e));
	e.h.size = 0x30 + 17 * 16;
	EXPECT_EQ(-ERANGE, ct_trace(self->fd, self->s, &e));

	/* A field pointing nowhere. */
	e.f[1].ptr = 16;
	e.h.size = 0x30 + 2 * 16;
	EXPECT_EQ(-EFAULT, ct_trace(self->fd, self->s, &e));
	/* Fields adding up past 64 KiB. */
	e.f[0] = (struct mof){ (uintptr_t)&e, 0xffff, 0 };
	e.f[1] = (struct mof){ (uintptr_t)&e, 0xffff, 0 };
	EXPECT_EQ(-EMSGSIZE, ct_trace(self->fd, self->s, &e));
	EXPECT_EQ(0, drain_last(self->fd, self->s, &last));
}

TEST_F(tw, header_errors)
{
	long page = sysconf(_SC_PAGESIZE);
	struct event e;
	__u8 *map;

	event_init(&e, self->guid, 0);
	e.h.size = 0x2f;
	EXPECT_EQ(-EINVAL, ct_trace(self->fd, self->s, &e));
	e.h.size = 0x30;
	e.h.flags = 0;
	EXPECT_EQ(-EINVAL, ct_trace(self->fd, self->s, &e));
	e.h.flags = CT_TRACED_GUID;
	EXPECT_EQ(-EFAULT, ct_trace(self->fd, self->s, (void *)8));

	/* The data runs into a page that cannot be read. */
	map = mmap(NULL, 2 * page, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_TRUE(map != MAP_FAILED);
	ASSERT_EQ(0, mprotect(map + page, page, PROT_NONE));
	e.h.size = 0x30 + 16;
	memcpy(map + page - 0x30, &e.h, 0x30);
	EXPECT_EQ(-EFAULT, ct_trace(self->fd, self->s, map + page - 0x30));
	e.h.size = 0x30;
	memcpy(map + page - 0x30, &e.h, 0x30);
	EXPECT_EQ(0, ct_trace(self->fd, self->s, map + page - 0x30));
	munmap(map, 2 * page);
	EXPECT_EQ(1, drain_last(self->fd, self->s, &last));
}

TEST_F(tw, arguments)
{
	struct etw_trace_write w = { .kind = ETW_WRITE_TRACE };
	struct event e;

	event_init(&e, self->guid, 0);
	w.logger_id = self->s;
	w.header = (uintptr_t)&e;
	w.flags = 0x2000;
	EXPECT_EQ(-EINVAL, ct_write(self->fd, &w));
	w.flags = ETW_WRITE_F_PARENT;	/* INSTANCE only */
	EXPECT_EQ(-EINVAL, ct_write(self->fd, &w));
	w.flags = 0;
	w.reserved0 = 1;
	EXPECT_EQ(-EINVAL, ct_write(self->fd, &w));
	w.reserved0 = 0;
	w.reserved[5] = 1;
	EXPECT_EQ(-EINVAL, ct_write(self->fd, &w));
	w.reserved[5] = 0;
	w.kind = 5;
	EXPECT_EQ(-EINVAL, ct_write(self->fd, &w));
	w.kind = ETW_WRITE_TRACE;
	ASSERT_EQ(0, ct_write(self->fd, &w));
	EXPECT_EQ(1, drain_last(self->fd, self->s, &last));
}

TEST_F(tw, no_such_session)
{
	struct event e;
	__u32 s2;

	event_init(&e, self->guid, 0);
	EXPECT_EQ(-EBADF, ct_trace(self->fd, 0, &e));
	EXPECT_EQ(-EBADF, ct_trace(self->fd, ETW_MAX_SESSIONS + 1, &e));
	EXPECT_EQ(-EBADF, ct_trace(self->fd, 0xffff, &e));
	ASSERT_EQ(0, etw_session_start_simple(self->fd, "etwtest-tw2", 0, 8, 0, &s2));
	EXPECT_EQ(0, ct_trace(self->fd, s2, &e));
	ASSERT_EQ(0, etw_session_ctl(self->fd, s2, ETW_CONTROL_STOP, NULL));
	EXPECT_EQ(-EBADF, ct_trace(self->fd, s2, &e));
}

TEST_F(tw, too_big_for_a_buffer)
{
	const struct ct_trace_header *t = (const void *)last.rec;
	struct event e;

	/* 8 KiB buffers: 0x48 of buffer header leaves 8120 bytes. */
	event_init(&e, self->guid, 8120 - 0x30);
	ASSERT_EQ(0, ct_trace(self->fd, self->s, &e));
	ASSERT_EQ(1, drain_last(self->fd, self->s, &last));
	EXPECT_EQ(8120, t->size);
	EXPECT_EQ(0, memcmp(last.rec + 0x30, e.data, 8120 - 0x30));
	e.h.size = 8121;
	EXPECT_EQ(-EMSGSIZE, ct_trace(self->fd, self->s, &e));
	e.h.size = 0xffff;
	EXPECT_EQ(-EMSGSIZE, ct_trace(self->fd, self->s, &e));
	EXPECT_EQ(0, drain_last(self->fd, self->s, &last));
}

TEST_F(tw, no_free_buffer_counts_the_event_lost)
{
	struct etw_trace_write w = { .kind = ETW_WRITE_TRACE };
	struct etw_session_info info;
	long lost = 0, stored = 0, i;
	struct event e;
	__u32 s2;

	/* 1 KiB buffers, the fewest the module allows, never drained. */
	ASSERT_EQ(0, etw_session_start_simple(self->fd, "etwtest-tw-full", 0, 1, 1, &s2));
	event_init(&e, self->guid, 200);
	w.logger_id = s2;
	w.header = (uintptr_t)&e;
	for (i = 0; i < 100000 && lost < 10; i++) {
		int ret = ct_write(self->fd, &w);

		if (ret == -ENOSPC) {
			lost++;
		} else {
			ASSERT_EQ(0, ret);
			stored++;
		}
	}
	EXPECT_EQ(10, lost);
	ASSERT_EQ(0, etw_session_ctl(self->fd, s2, ETW_CONTROL_QUERY, &info));
	EXPECT_EQ(lost, info.events_lost);
	EXPECT_EQ(stored, ct_drain(self->fd, s2, NULL, NULL));
}

TEST_F(tw, instance_record_as_stored)
{
	const struct ct_instance_header *ih = (const void *)last.rec;
	struct etw_trace_write w = { .kind = ETW_WRITE_INSTANCE };
	__u8 parent[16];
	__u64 before;
	struct event e;

	etw_test_guid(parent, 0x52);
	event_init(&e, self->guid, 8);	/* 0x30 bytes of header ... */
	e.h.size = 0x38 + 8;		/* ... of the 0x38 the caller gives */
	memset(e.h.guid_or_ptr, 0, 16);	/* RegHandle, ids: libetw's business */
	memcpy(e.data + 8, "instance", 8);
	w.logger_id = self->s;
	w.header = (uintptr_t)&e;
	memcpy(w.guid, self->guid, 16);
	w.instance_id = 7;
	before = ct_now();
	ASSERT_EQ(0, ct_write(self->fd, &w));
	ASSERT_EQ(1, drain_last(self->fd, self->s, &last));
	EXPECT_EQ(0x48 + 8, ih->t.size);
	EXPECT_EQ(CT_INSTANCE, ih->t.header_type);
	EXPECT_EQ(0xc0, ih->t.marker_flags);
	EXPECT_EQ(1, ih->t.type);
	EXPECT_EQ(4, ih->t.level);
	EXPECT_EQ(0x203, ih->t.version);
	EXPECT_EQ(getpid(), ih->t.process_id);
	EXPECT_LE(before, ih->t.timestamp);
	EXPECT_EQ(0, memcmp(ih->t.guid, self->guid, 16));
	EXPECT_EQ(7, ih->instance_id);
	EXPECT_EQ(0, ih->parent_instance_id);
	EXPECT_EQ(0, memcmp(ih->parent_guid, (__u8[16]){ 0 }, 16));
	EXPECT_EQ(0, memcmp(last.rec + 0x48, "instance", 8));

	w.flags = ETW_WRITE_F_PARENT;
	memcpy(w.parent_guid, parent, 16);
	w.parent_instance_id = 3;
	ASSERT_EQ(0, ct_write(self->fd, &w));
	ASSERT_EQ(1, drain_last(self->fd, self->s, &last));
	EXPECT_EQ(3, ih->parent_instance_id);
	EXPECT_EQ(0, memcmp(ih->parent_guid, parent, 16));

	/* The caller's header is 0x38 bytes: less is refused. */
	e.h.size = 0x37;
	EXPECT_EQ(-EINVAL, ct_write(self->fd, &w));
	e.h.size = 0xffff;	/* 0x48 stored: past 64 KiB */
	EXPECT_EQ(-EMSGSIZE, ct_write(self->fd, &w));
	e.h.size = 0x38;
	e.h.flags = 0;
	EXPECT_EQ(-EINVAL, ct_write(self->fd, &w));
}

/* ETW_WRITE_MESSAGE with @n arguments. */
static int message(int fd, __u32 s, __u32 flags, const __u8 *guid,
		   struct etw_data_desc *d, __u32 n)
{
	struct etw_trace_write w = { .kind = ETW_WRITE_MESSAGE };

	w.logger_id = s;
	w.message_flags = flags;
	w.message_number = 42;
	if (guid)
		memcpy(w.guid, guid, 16);
	w.data = (uintptr_t)d;
	w.count = n;
	return ct_write(fd, &w);
}

TEST_F(tw, message_items_in_windows_order)
{
	const struct ct_message_header *m = (const void *)last.rec;
	static const char arg1[] = "hello";
	__u32 arg2 = 0xa5a5a5a5, u32v;
	struct etw_data_desc d[2] = {
		{ .ptr = (uintptr_t)arg1, .size = 6 },
		{ .ptr = (uintptr_t)&arg2, .size = 4 },
	};
	__u16 ptr_flag = sizeof(void *) == 4 ? 0x40 : 0x80;
	__u64 before, ts;
	const __u8 *p;
	__u32 s2;

	/* No items: the header and the arguments. */
	ASSERT_EQ(0, message(self->fd, self->s, 0, NULL, d, 2));
	ASSERT_EQ(1, drain_last(self->fd, self->s, &last));
	EXPECT_EQ(8 + 10, m->size);
	EXPECT_EQ(0, m->reserved);
	EXPECT_EQ(0x90, m->marker_flags);
	EXPECT_EQ(42, m->message_number);
	EXPECT_EQ(ptr_flag, m->option_flags);
	EXPECT_EQ(0, memcmp(last.rec + 8, "hello\0\xa5\xa5\xa5\xa5", 10));

	/* Every item: sequence, GUID, time stamp, thread and process. */
	ASSERT_EQ(0, etw_session_start_simple(self->fd, "etwtest-tw-seq",
					      ETW_MODE_LOCAL_SEQUENCE, 8, 0, &s2));
	before = ct_now();
	ASSERT_EQ(0, message(self->fd, s2, 0x2b | 0xc0, self->guid, d, 1));
	ASSERT_EQ(1, drain_last(self->fd, s2, &last));
	EXPECT_EQ(8 + 4 + 16 + 8 + 8 + 6, m->size);
	/* The caller's pointer flags are replaced by the writer's. */
	EXPECT_EQ(0x2b | ptr_flag, m->option_flags);
	p = last.rec + 8;
	memcpy(&u32v, p, 4);
	EXPECT_EQ(1, u32v);		/* the first sequence number */
	EXPECT_EQ(0, memcmp(p + 4, self->guid, 16));
	memcpy(&ts, p + 20, 8);		/* not 8-aligned after the sequence */
	EXPECT_LE(before, ts);
	EXPECT_GE(ct_now(), ts);
	memcpy(&u32v, p + 28, 4);
	EXPECT_EQ(syscall(SYS_gettid), u32v);
	memcpy(&u32v, p + 32, 4);
	EXPECT_EQ(getpid(), u32v);
	EXPECT_EQ(0, memcmp(p + 36, "hello", 6));

	/* The component id is the first 4 bytes of the GUID argument. */
	ASSERT_EQ(0, message(self->fd, s2, 0x05, self->guid, NULL, 0));
	ASSERT_EQ(1, drain_last(self->fd, s2, &last));
	EXPECT_EQ(8 + 4 + 4, m->size);
	memcpy(&u32v, last.rec + 8, 4);
	EXPECT_EQ(2, u32v);
	EXPECT_EQ(0, memcmp(last.rec + 12, self->guid, 4));

	/* PERFORMANCE_TIMESTAMP is a time stamp too. */
	ASSERT_EQ(0, message(self->fd, s2, 0x10, NULL, NULL, 0));
	ASSERT_EQ(1, drain_last(self->fd, s2, &last));
	EXPECT_EQ(16, m->size);
}

TEST_F(tw, message_sequence_modes)
{
	const struct ct_message_header *m = (const void *)last.rec;
	__u32 a, b, g1, g2, seq;

	/* One CPU's buffer: the drain returns the records as written. */
	ASSERT_EQ(0, etw_pin_cpu(0));
	ASSERT_EQ(0, etw_session_start_simple(self->fd, "etwtest-tw-l", ETW_MODE_LOCAL_SEQUENCE, 8, 0, &a));
	ASSERT_EQ(0, etw_session_start_simple(self->fd, "etwtest-tw-g1", ETW_MODE_GLOBAL_SEQUENCE, 8, 0, &g1));
	ASSERT_EQ(0, etw_session_start_simple(self->fd, "etwtest-tw-g2", ETW_MODE_GLOBAL_SEQUENCE, 8, 0, &g2));
	b = self->s;	/* neither mode */

	ASSERT_EQ(0, message(self->fd, a, 1, NULL, NULL, 0));
	ASSERT_EQ(0, message(self->fd, a, 1, NULL, NULL, 0));
	ASSERT_EQ(2, drain_last(self->fd, a, &last));
	memcpy(&seq, last.rec + 8, 4);
	EXPECT_EQ(2, seq);

	ASSERT_EQ(0, message(self->fd, b, 1, NULL, NULL, 0));
	ASSERT_EQ(1, drain_last(self->fd, b, &last));
	EXPECT_EQ(12, m->size);
	memcpy(&seq, last.rec + 8, 4);
	EXPECT_EQ(0, seq);

	/* Global: one counter for every such session. */
	ASSERT_EQ(0, message(self->fd, g1, 1, NULL, NULL, 0));
	ASSERT_EQ(1, drain_last(self->fd, g1, &last));
	memcpy(&seq, last.rec + 8, 4);
	ASSERT_EQ(0, message(self->fd, g2, 1, NULL, NULL, 0));
	ASSERT_EQ(1, drain_last(self->fd, g2, &last));
	memcpy(&a, last.rec + 8, 4);
	EXPECT_EQ(seq + 1, a);
}

TEST_F(tw, message_errors)
{
	static struct etw_data_desc many[ETW_MAX_DATA_DESCRIPTORS + 1];
	static __u8 big[8192];
	struct etw_data_desc d = { .ptr = 8, .size = 4 };

	EXPECT_EQ(-EINVAL, message(self->fd, self->s, 0x06, self->guid, NULL, 0));
	EXPECT_EQ(-EINVAL, message(self->fd, self->s, 0x10000, NULL, NULL, 0));
	EXPECT_EQ(-EINVAL, message(self->fd, self->s, 0, NULL, many,
				   ETW_MAX_DATA_DESCRIPTORS + 1));
	EXPECT_EQ(0, message(self->fd, self->s, 0, NULL, many, ETW_MAX_DATA_DESCRIPTORS));
	EXPECT_EQ(-EFAULT, message(self->fd, self->s, 0, NULL, &d, 1));
	EXPECT_EQ(-EFAULT, message(self->fd, self->s, 0, NULL, (void *)8, 1));
	d.ptr = (uintptr_t)big;
	d.size = sizeof(big) - 0x48 - 8;	/* fills an 8 KiB buffer exactly */
	EXPECT_EQ(0, message(self->fd, self->s, 0, NULL, &d, 1));
	d.size++;
	EXPECT_EQ(-EMSGSIZE, message(self->fd, self->s, 0, NULL, &d, 1));
	EXPECT_EQ(-EBADF, message(self->fd, 0, 0, NULL, NULL, 0));
	EXPECT_EQ(2, drain_last(self->fd, self->s, &last));
}

struct writer {
	int fd;
	__u32 s;
	const __u8 *guid;
	volatile int stop;
	long ok, gone;
};

static void *write_loop(void *arg)
{
	struct writer *wr = arg;
	struct event e;

	event_init(&e, wr->guid, 64);
	while (!wr->stop) {
		int ret = ct_trace(wr->fd, wr->s, &e);

		if (!ret)
			wr->ok++;
		else if (ret == -EBADF || ret == -ENOSPC || ret == -ENOBUFS)
			wr->gone++;
		else
			break;
	}
	return NULL;
}

/* Sessions stop and start under writers that name them by id. */
TEST_F(tw, session_stops_under_writers)
{
	struct writer wr = { .fd = self->fd, .guid = self->guid };
	pthread_t t[2];
	int i;

	ASSERT_EQ(0, etw_session_start_simple(self->fd, "etwtest-tw-churn", 0, 8, 0, &wr.s));
	ASSERT_EQ(0, pthread_create(&t[0], NULL, write_loop, &wr));
	ASSERT_EQ(0, pthread_create(&t[1], NULL, write_loop, &wr));
	for (i = 0; i < 50; i++) {
		__u32 id;

		usleep(2000);
		ASSERT_EQ(0, etw_session_ctl(self->fd, wr.s, ETW_CONTROL_STOP, NULL));
		ASSERT_EQ(0, etw_session_start_simple(self->fd, "etwtest-tw-churn", 0, 8, 0, &id));
		ASSERT_EQ(wr.s, id);	/* the lowest free id again */
	}
	wr.stop = 1;
	pthread_join(t[0], NULL);
	pthread_join(t[1], NULL);
	EXPECT_LT(0, wr.ok);
}

TEST_HARNESS_MAIN
