// SPDX-License-Identifier: GPL-2.0
/*
 * ETW_IOC_WRITE_SHORT, the 56-byte form of EventWrite's common case: the
 * record it stores is the one ETW_IOC_WRITE stores from the same fields,
 * with descriptors or with the payload inline; it writes nothing back
 * into the request; its errors are ETW_IOC_WRITE's; every layout of the request (aligned or not, shorter,
 * longer, unreadable, read-only) gives the same result.
 */
#include <sys/mman.h>
#include <sys/syscall.h>

#include "kselftest_harness.h"
#include "etw_selftests.h"

FIXTURE(ws)
{
	int fd;
	__u8 guid[16];
	__u32 reg;
	__u32 s;
};

FIXTURE_SETUP(ws)
{
	etw_require_root(_metadata);
	self->fd = etw_open_or_skip(_metadata);
	etw_stop_test_sessions(self->fd);
	etw_test_guid(self->guid, 0x2a);
	ASSERT_EQ(0, etw_register_simple(self->fd, self->guid, &self->reg));
	ASSERT_EQ(0, etw_session_start_simple(self->fd, "etwtest-ws", 0, 8, 0, &self->s));
	ASSERT_EQ(0, etw_enable_simple(self->fd, self->s, self->guid, 1, 0, 0, 0, 0));
}

FIXTURE_TEARDOWN(ws)
{
	if (self->fd >= 0) {
		etw_stop_test_sessions(self->fd);
		close(self->fd);
	}
}

/* ETW_IOC_WRITE_SHORT: 0 or -errno, and the request as it was. */
static int write_short(struct __test_metadata *_metadata, int fd, void *req)
{
	struct etw_event_write_short before;
	int ret;

	memcpy(&before, req, sizeof(before));
	ret = etw_ioctl_err(fd, ETW_IOC_WRITE_SHORT, req);
	EXPECT_EQ(0, memcmp(&before, req, sizeof(before)));
	return ret;
}

/* The records of one drain, whole (header and payload). */
struct kept {
	__u8 rec[4][256];
	int n;
};

static int keep(const struct etw_test_event_header *h, const __u8 *buffer,
		__u32 cpu, void *ctx)
{
	struct kept *k = ctx;

	if (k->n < 4)
		memcpy(k->rec[k->n], h, h->size < 256 ? h->size : 256);
	k->n++;
	return 0;
}

/* The fixture's request: event 9, level 4, an activity id, no payload. */
static struct etw_event_write_short request(__u32 reg)
{
	struct etw_event_write_short s = { .size = sizeof(s), .reg_id = reg };

	s.desc = (struct etw_event_desc){ .id = 9, .version = 2, .channel = 11,
		.level = 4, .opcode = 1, .task = 3, .keyword = 0x10 };
	memset(s.activity_id, 0x5a, sizeof(s.activity_id));
	return s;
}

/*
 * The same event three ways (ETW_IOC_WRITE, the short form with a
 * descriptor, the short form with the payload inline): three identical
 * records but for the timestamp.
 */
TEST_F(ws, same_record_as_write)
{
	static const char msg[] = "short and sweet";
	struct etw_data_desc d = { .ptr = (uintptr_t)msg, .size = sizeof(msg) };
	struct etw_event_write_short s = request(self->reg);
	struct etw_event_write w = { .size = sizeof(w), .kind = ETW_WRITE_EVENT };
	struct etw_test_event_header *h;
	struct kept k = { 0 };
	int i;

	/* One CPU's buffer: the drain returns the records as written. */
	ASSERT_EQ(0, etw_pin_cpu(0));
	w.flags = ETW_WRITE_F_ACTIVITY;
	w.reg_id = self->reg;
	w.desc = s.desc;
	memcpy(w.activity_id, s.activity_id, sizeof(w.activity_id));
	w.count = 1;
	w.data = (uintptr_t)&d;
	ASSERT_EQ(0, etw_ioctl_err(self->fd, ETW_IOC_WRITE, &w));
	EXPECT_EQ(1, w.written);
	s.count = 1;
	s.data = (uintptr_t)&d;
	EXPECT_EQ(0, write_short(_metadata, self->fd, &s));
	s.flags = ETW_WRITE_F_INLINE;
	s.count = sizeof(msg);
	s.data = (uintptr_t)msg;
	EXPECT_EQ(0, write_short(_metadata, self->fd, &s));

	ASSERT_EQ(3, etw_drain(self->fd, self->s, keep, &k));
	h = (struct etw_test_event_header *)k.rec[0];
	EXPECT_EQ(0x50 + sizeof(msg), h->size);
	EXPECT_EQ(0, h->flags);
	EXPECT_EQ(9, h->desc.id);
	EXPECT_EQ(0x10, h->desc.keyword);
	EXPECT_EQ(syscall(SYS_gettid), h->thread_id);
	EXPECT_EQ(0, memcmp(s.activity_id, h->activity_id, 16));
	EXPECT_EQ(0, memcmp(msg, k.rec[0] + 0x50, sizeof(msg)));
	for (i = 1; i < 3; i++) {
		struct etw_test_event_header *o = (void *)k.rec[i];

		EXPECT_LE(h->timestamp, o->timestamp);
		o->timestamp = h->timestamp;
		/* Processor times may have moved on by a tick. */
		o->kernel_time = h->kernel_time;
		o->user_time = h->user_time;
		EXPECT_EQ(0, memcmp(k.rec[0], k.rec[i], h->size)) TH_LOG("record %d", i);
	}
}

/* Several descriptors, none, an empty inline payload, the string flag. */
TEST_F(ws, payload_forms)
{
	static const char a[] = "ab", b[] = "cde";
	struct etw_data_desc d[2] = {
		{ .ptr = (uintptr_t)a, .size = 2 },
		{ .ptr = (uintptr_t)b, .size = 3 },
	};
	struct etw_event_write_short s = request(self->reg);
	struct etw_test_event_header *h;
	struct kept k = { 0 };

	/* One CPU's buffer: the records are read back in the order written. */
	ASSERT_EQ(0, etw_pin_cpu(0));
	s.count = 2;
	s.data = (uintptr_t)d;
	EXPECT_EQ(0, write_short(_metadata, self->fd, &s));
	s.count = 0;
	EXPECT_EQ(0, write_short(_metadata, self->fd, &s));
	s.flags = ETW_WRITE_F_INLINE;
	s.data = 0;
	EXPECT_EQ(0, write_short(_metadata, self->fd, &s));
	s.flags = ETW_WRITE_F_INLINE | ETW_WRITE_F_STRING;
	s.data = (uintptr_t)b;
	s.count = 3;
	EXPECT_EQ(0, write_short(_metadata, self->fd, &s));

	ASSERT_EQ(4, etw_drain(self->fd, self->s, keep, &k));
	h = (struct etw_test_event_header *)k.rec[0];
	EXPECT_EQ(0x50 + 5, h->size);
	EXPECT_EQ(0, memcmp("abcde", k.rec[0] + 0x50, 5));
	EXPECT_EQ(0x50, ((struct etw_test_event_header *)k.rec[1])->size);
	EXPECT_EQ(0x50, ((struct etw_test_event_header *)k.rec[2])->size);
	h = (struct etw_test_event_header *)k.rec[3];
	EXPECT_EQ(0x50 + 3, h->size);
	EXPECT_EQ(4, h->flags);		/* STRING_ONLY */
	EXPECT_EQ(0, memcmp("cde", k.rec[3] + 0x50, 3));
}

/* ETW_IOC_WRITE's errors, and the flags the short form does not take. */
TEST_F(ws, errors)
{
	static char big[70000];
	struct etw_data_desc d = { .ptr = 1, .size = 8 };
	struct etw_event_write_short s = request(self->reg);
	struct etw_session_info info;
	static const __u32 bad_flags[] = {
		ETW_WRITE_F_ACTIVITY, ETW_WRITE_F_RELATED, 0x8, 0x20000,
		0x80000000,
	};
	unsigned int i;

	for (i = 0; i < sizeof(bad_flags) / sizeof(bad_flags[0]); i++) {
		s.flags = bad_flags[i];
		EXPECT_EQ(-EINVAL, write_short(_metadata, self->fd, &s))
			TH_LOG("flags %#x", bad_flags[i]);
	}
	s.flags = 0;
	s.count = 1;
	s.data = 0;				/* NULL descriptors */
	EXPECT_EQ(-EINVAL, write_short(_metadata, self->fd, &s));
	s.count = ETW_MAX_DATA_DESCRIPTORS + 1;
	s.data = (uintptr_t)&d;
	EXPECT_EQ(-EINVAL, write_short(_metadata, self->fd, &s));
	s.count = 1;
	s.data = 8;				/* unreadable descriptors */
	EXPECT_EQ(-EFAULT, write_short(_metadata, self->fd, &s));
	s.data = (uintptr_t)&d;			/* unreadable payload */
	EXPECT_EQ(-EFAULT, write_short(_metadata, self->fd, &s));
	s.flags = ETW_WRITE_F_INLINE;
	s.data = 0;				/* inline: NULL payload */
	s.count = 8;
	EXPECT_EQ(-EFAULT, write_short(_metadata, self->fd, &s));
	s.data = 0xffffffff81000000ULL;		/* kernel address */
	EXPECT_EQ(-EFAULT, write_short(_metadata, self->fd, &s));
	s.data = (uintptr_t)big;
	s.count = 65536 - 0x50;			/* over 64 KiB */
	EXPECT_EQ(-EOVERFLOW, write_short(_metadata, self->fd, &s));
	s.count = 8192 - 0x48 - 0x50 + 1;	/* over an 8 KiB buffer */
	EXPECT_EQ(-EMSGSIZE, write_short(_metadata, self->fd, &s));
	s.count = 8192 - 0x48 - 0x50;		/* exactly a buffer */
	EXPECT_EQ(0, write_short(_metadata, self->fd, &s));
	s.count = 0;
	s.reg_id = 999;
	EXPECT_EQ(-EBADF, write_short(_metadata, self->fd, &s));
	ASSERT_EQ(0, etw_session_ctl(self->fd, self->s, ETW_CONTROL_QUERY, &info));
	EXPECT_EQ(1, info.events_lost);		/* the EMSGSIZE one */
}

/* A provider no session enables: success, nothing stored. */
TEST_F(ws, not_enabled)
{
	struct etw_event_write_short s;
	__u8 other[16];
	__u32 reg;

	etw_test_guid(other, 0x2b);
	ASSERT_EQ(0, etw_register_simple(self->fd, other, &reg));
	s = request(reg);
	EXPECT_EQ(0, write_short(_metadata, self->fd, &s));
	EXPECT_EQ(0, etw_drain(self->fd, self->s, keep, &(struct kept){ 0 }));
}

/*
 * Aligned, 4 and 1 bytes past (the generic path), a larger struct with a
 * zero or non-zero tail, a shorter one, a request that cannot be read
 * whole, one in a read-only page (nothing is written back).
 */
TEST_F(ws, request_layouts)
{
	static const char msg[] = "layout";
	long page = sysconf(_SC_PAGESIZE);
	struct etw_event_write_short s = request(self->reg);
	static const unsigned int offs[] = { 0, 4, 1 };
	unsigned char raw[sizeof(s) + 24];
	struct kept k = { 0 };
	unsigned int i;
	__u8 *map;
	void *at;

	s.flags = ETW_WRITE_F_INLINE;
	s.data = (uintptr_t)msg;
	s.count = sizeof(msg);
	for (i = 0; i < 3; i++) {
		at = (void *)(((uintptr_t)raw + 7) / 8 * 8 + offs[i]);
		memcpy(at, &s, sizeof(s));
		EXPECT_EQ(0, write_short(_metadata, self->fd, at)) TH_LOG("offset %u", offs[i]);
	}
	memset(raw, 0, sizeof(raw));
	s.size = sizeof(s) + 8;
	memcpy(raw, &s, sizeof(s));
	EXPECT_EQ(0, write_short(_metadata, self->fd, raw));
	raw[sizeof(s) + 3] = 1;
	EXPECT_EQ(-E2BIG, write_short(_metadata, self->fd, raw));
	s.size = ETW_EVENT_WRITE_SHORT_SIZE_VER0 - 8;
	EXPECT_EQ(-EINVAL, write_short(_metadata, self->fd, &s));
	s.size = sizeof(s);

	map = mmap(NULL, 2 * page, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_TRUE(map != MAP_FAILED);
	ASSERT_EQ(0, munmap(map + page, page));
	memcpy(map + page - 8, &s, 8);
	EXPECT_EQ(-EFAULT, etw_ioctl_err(self->fd, ETW_IOC_WRITE_SHORT, map + page - 8));
	memcpy(map, &s, sizeof(s));
	ASSERT_EQ(0, mprotect(map, page, PROT_READ));
	EXPECT_EQ(0, write_short(_metadata, self->fd, map));
	munmap(map, page);

	ASSERT_EQ(5, etw_drain(self->fd, self->s, keep, &k));
	EXPECT_EQ(0x50 + sizeof(msg), ((struct etw_test_event_header *)k.rec[0])->size);
	EXPECT_EQ(0, memcmp(msg, k.rec[0] + 0x50, sizeof(msg)));
}

/*
 * An inline payload in a page not yet resident: the copy with faults
 * disabled fails, the write copies it with faults allowed and stores it.
 */
TEST_F(ws, payload_not_resident)
{
	long page = sysconf(_SC_PAGESIZE);
	struct etw_event_write_short s = request(self->reg);
	struct kept k = { 0 };
	__u8 *map;

	map = mmap(NULL, page, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_TRUE(map != MAP_FAILED);
	s.flags = ETW_WRITE_F_INLINE;
	s.data = (uintptr_t)map;
	s.count = 64;
	EXPECT_EQ(0, write_short(_metadata, self->fd, &s));
	munmap(map, page);
	ASSERT_EQ(1, etw_drain(self->fd, self->s, keep, &k));
	EXPECT_EQ(0x50 + 64, ((struct etw_test_event_header *)k.rec[0])->size);
}

TEST_HARNESS_MAIN
