// SPDX-License-Identifier: GPL-2.0
/*
 * TraceMessage's fast lane (module/write_message_fast.c) writes the
 * record the full path writes, and fails as it fails.
 *
 * The lane takes a message of up to 16 argument descriptors, each block a
 * page or less; the same arguments with zero-sized descriptors added past
 * 16 take the full path (etw_write_classic()) and make the same payload.
 * Each message goes through both, into two sessions of the same mode, on
 * one CPU: the records are compared byte for byte, but for the time stamp
 * (taken by each, checked to lie between the writes).  Built 64- and
 * 32-bit: the pointer flag and the compat request follow the writer.
 */
#include <sys/mman.h>

#include "kselftest_harness.h"
#include "classic_selftests.h"

/* The lane's limit (ETW_MESSAGE_FAST_ARGS); the full path's is larger. */
#define LANE_ARGS	16
#define FULL_ARGS	(LANE_ARGS + 3)

/* Records of one drain, one after the other. */
struct recs {
	__u8 bytes[1 << 20];
	__u32 off[512];
	__u16 size[512];
	int n;
};

static int keep_rec(const __u8 *rec, __u16 size, const __u8 *buffer,
		    __u32 cpu, void *ctx)
{
	struct recs *r = ctx;
	__u32 at = r->n ? r->off[r->n - 1] + r->size[r->n - 1] : 0;

	if (r->n == 512 || at + size > sizeof(r->bytes))
		return -1;
	memcpy(r->bytes + at, rec, size);
	r->off[r->n] = at;
	r->size[r->n++] = size;
	return 0;
}

static long drain(int fd, __u32 s, struct recs *r)
{
	r->n = 0;
	return ct_drain(fd, s, keep_rec, r);
}

FIXTURE(mf)
{
	int fd;
	__u32 lane, full;
	__u8 guid[16];
	__u8 *arena;		/* argument bytes: two pages and more */
};

#define ARENA	(3 * 4096)

FIXTURE_SETUP(mf)
{
	unsigned int i;

	etw_require_root(_metadata);
	self->fd = etw_open_or_skip(_metadata);
	etw_stop_test_sessions(self->fd);
	etw_test_guid(self->guid, 0x5f);
	ASSERT_EQ(0, etw_pin_cpu(0));
	ASSERT_EQ(0, etw_session_start_simple(self->fd, "etwtest-mf-lane",
					      ETW_MODE_LOCAL_SEQUENCE, 128, 0,
					      &self->lane));
	ASSERT_EQ(0, etw_session_start_simple(self->fd, "etwtest-mf-full",
					      ETW_MODE_LOCAL_SEQUENCE, 128, 0,
					      &self->full));
	self->arena = malloc(ARENA);
	ASSERT_TRUE(self->arena != NULL);
	for (i = 0; i < ARENA; i++)
		self->arena[i] = (__u8)(i * 13 + 5);
}

FIXTURE_TEARDOWN(mf)
{
	if (self->fd >= 0) {
		etw_stop_test_sessions(self->fd);
		close(self->fd);
	}
	free(self->arena);
}

/* ETW_WRITE_MESSAGE of @n descriptors at @d (the array's address: @data). */
static int message(int fd, __u32 s, __u32 flags, const __u8 *guid,
		   __u64 data, __u32 n)
{
	struct etw_trace_write w = { .kind = ETW_WRITE_MESSAGE };

	w.logger_id = s;
	w.message_flags = flags;
	w.message_number = 0x1234;
	memcpy(w.guid, guid, 16);
	w.data = data;
	w.count = n;
	return ct_write(fd, &w);
}

/*
 * The message of @n descriptors @d through the lane (into the lane
 * session) and through the full path (the same with zero-sized
 * descriptors after them): both results, which must be equal.
 */
static int message_both(struct __test_metadata *_metadata, FIXTURE_DATA(mf) *self,
			__u32 flags, const struct etw_data_desc *d, __u32 n)
{
	struct etw_data_desc padded[FULL_ARGS];
	int a, b;

	memset(padded, 0, sizeof(padded));
	memcpy(padded, d, n * sizeof(*d));
	a = message(self->fd, self->lane, flags, self->guid, (uintptr_t)d, n);
	b = message(self->fd, self->full, flags, self->guid, (uintptr_t)padded,
		    FULL_ARGS);
	EXPECT_EQ(a, b);
	return a;
}

/* Where option flags @f put the time stamp, or 0 for none. */
static __u32 timestamp_off(__u32 f)
{
	__u32 off = 8 + (f & 0x01 ? 4 : 0);

	if (!(f & 0x18))
		return 0;
	if (f & 0x04)
		return off + 4;
	return off + (f & 0x02 ? 16 : 0);
}

/*
 * Drain both sessions: @want records each, equal byte for byte but for
 * time stamps, which lie in [@before, @after].
 */
static void compare(struct __test_metadata *_metadata, FIXTURE_DATA(mf) *self,
		    long want, __u64 before, __u64 after)
{
	static struct recs a, b;
	__u64 ta, tb;
	__u16 f;
	__u32 t;
	int i;

	ASSERT_EQ(want, drain(self->fd, self->lane, &a));
	ASSERT_EQ(want, drain(self->fd, self->full, &b));
	for (i = 0; i < a.n; i++) {
		__u8 *ra = a.bytes + a.off[i], *rb = b.bytes + b.off[i];

		ASSERT_EQ(a.size[i], b.size[i]);
		memcpy(&f, ra + 6, 2);
		t = timestamp_off(f);
		if (t) {
			memcpy(&ta, ra + t, 8);
			memcpy(&tb, rb + t, 8);
			EXPECT_LE(before, ta);
			EXPECT_GE(after, ta);
			EXPECT_LE(before, tb);
			EXPECT_GE(after, tb);
			memset(ra + t, 0, 8);
			memset(rb + t, 0, 8);
		}
		EXPECT_EQ(0, memcmp(ra, rb, a.size[i])) {
			TH_LOG("record %d (flags 0x%x, %u bytes) differs", i,
			       f, a.size[i]);
		}
	}
}

/* Argument sizes that cover the lane's copies: 0..36, and to a page. */
static const __u32 sizes[] = {
	0, 1, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 24, 31, 32, 33, 36,
	63, 64, 65, 200, 4095, 4096,
};

TEST_F(mf, every_flag_count_and_size)
{
	struct etw_data_desc d[LANE_ARGS];
	__u64 before, after;
	__u32 f, n, i, k;
	long written;

	for (f = 0; f < 0x100; f++) {
		/* GUID and COMPONENTID together: refused, below. */
		if ((f & 0x06) == 0x06)
			continue;
		/* The caller's pointer flags are replaced: a few suffice. */
		if ((f & 0xc0) && (f & 0x3f) != 0x2b && (f & 0x3f) != 0x01)
			continue;
		before = ct_now();
		written = 0;
		/* 0..16 arguments, each size at each place. */
		for (n = 0; n <= LANE_ARGS; n++) {
			for (i = 0; i < n; i++) {
				k = (n * 7 + i * 3) % ARRAY_SIZE(sizes);
				d[i] = (struct etw_data_desc){
					.ptr = (uintptr_t)self->arena + i * 37,
					.size = sizes[k] > 1024 && n > 2 ? 17 : sizes[k],
				};
			}
			ASSERT_EQ(0, message_both(_metadata, self, f, d, n));
			written++;
		}
		for (k = 0; k < ARRAY_SIZE(sizes); k++) {
			d[0] = (struct etw_data_desc){
				.ptr = (uintptr_t)self->arena + k, .size = sizes[k] };
			ASSERT_EQ(0, message_both(_metadata, self, f, d, 1));
			written++;
		}
		/* WPP's: an integer and a 17-byte string; a NULL size-0 block. */
		d[0] = (struct etw_data_desc){ .ptr = (uintptr_t)self->arena, .size = 4 };
		d[1] = (struct etw_data_desc){ .ptr = (uintptr_t)self->arena + 8, .size = 17 };
		d[2] = (struct etw_data_desc){ .ptr = 0, .size = 0 };
		ASSERT_EQ(0, message_both(_metadata, self, f, d, 3));
		written++;
		/* Over a page: the full path from either. */
		d[0] = (struct etw_data_desc){ .ptr = (uintptr_t)self->arena, .size = 4097 };
		d[1] = (struct etw_data_desc){ .ptr = (uintptr_t)self->arena + 5000, .size = 7000 };
		ASSERT_EQ(0, message_both(_metadata, self, f, d, 2));
		written++;
		after = ct_now();
		compare(_metadata, self, written, before, after);
	}
}

TEST_F(mf, bad_requests_and_pointers)
{
	struct etw_data_desc d[2] = {
		{ .ptr = 0, .size = 4 },
	};
	long page = sysconf(_SC_PAGESIZE);
	__u8 *map;
	__u64 before;

	/* Refused as the full path refuses them, nothing written. */
	EXPECT_EQ(-EINVAL, message_both(_metadata, self, 0x06, d, 0));
	EXPECT_EQ(-EINVAL, message_both(_metadata, self, 0x10001, d, 0));
	EXPECT_EQ(-EBADF, message(self->fd, 0, 0, self->guid, 0, 0));

	/* Blocks that cannot be read: EFAULT (ERROR_NOACCESS), nothing written. */
	d[0].ptr = 8;
	EXPECT_EQ(-EFAULT, message_both(_metadata, self, 0x01, d, 1));
	d[0].ptr = (__u64)-4096;		/* not a user address */
	EXPECT_EQ(-EFAULT, message_both(_metadata, self, 0x01, d, 1));
	if (sizeof(void *) == 8) {
		d[0].ptr = 0xffff888000000000ull;	/* the kernel's */
		EXPECT_EQ(-EFAULT, message_both(_metadata, self, 0x01, d, 1));
	}
	/* The descriptor array itself. */
	EXPECT_EQ(-EFAULT, message(self->fd, self->lane, 0x01, self->guid, 8, 1));
	/* A block whose end is in an unmapped page, after one that is fine. */
	map = mmap(NULL, 2 * page, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_TRUE(map != MAP_FAILED);
	ASSERT_EQ(0, munmap(map + page, page));
	memset(map, 0x3c, page);
	d[0] = (struct etw_data_desc){ .ptr = (uintptr_t)self->arena, .size = 4 };
	d[1] = (struct etw_data_desc){ .ptr = (uintptr_t)map + page - 10, .size = 17 };
	EXPECT_EQ(-EFAULT, message_both(_metadata, self, 0x01, d, 2));
	d[1].size = 40;
	EXPECT_EQ(-EFAULT, message_both(_metadata, self, 0x01, d, 2));
	/* Up to the end of the mapping: written. */
	d[1].size = 10;
	before = ct_now();
	EXPECT_EQ(0, message_both(_metadata, self, 0x2b, d, 2));
	ASSERT_EQ(0, munmap(map, page));
	/* A page never touched (a fault the lane leaves to the full path) is read too. */
	map = mmap(NULL, page, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_TRUE(map != MAP_FAILED);
	d[1] = (struct etw_data_desc){ .ptr = (uintptr_t)map, .size = 20 };
	EXPECT_EQ(0, message_both(_metadata, self, 0x2b, d, 2));
	ASSERT_EQ(0, munmap(map, page));
	/* No failure took a sequence number: the two records are 1 and 2. */
	compare(_metadata, self, 2, before, ct_now());
}

TEST_F(mf, size_limits)
{
	static __u8 big[65536];
	struct etw_data_desc d[LANE_ARGS];
	__u32 small, i, total;
	__u64 before = ct_now();
	long written = 0;

	/* 8 KiB buffers hold 8120 bytes of records. */
	ASSERT_EQ(0, etw_session_start_simple(self->fd, "etwtest-mf-small", 0, 8,
					      0, &small));
	d[0] = (struct etw_data_desc){ .ptr = (uintptr_t)big, .size = 4096 };
	d[1] = (struct etw_data_desc){ .ptr = (uintptr_t)big + 4096,
				       .size = 8120 - 8 - 4096 };
	EXPECT_EQ(0, message(self->fd, small, 0, self->guid, (uintptr_t)d, 2));
	d[1].size++;
	EXPECT_EQ(-EMSGSIZE, message(self->fd, small, 0, self->guid, (uintptr_t)d, 2));
	EXPECT_EQ(1, ct_drain(self->fd, small, NULL, NULL));

	/* 64 KiB: the record's 16-bit size, from 16 blocks of a page or less. */
	for (i = 0, total = 0; i < LANE_ARGS; i++) {
		d[i] = (struct etw_data_desc){ .ptr = (uintptr_t)big + 4096 * i,
					       .size = 4096 };
		total += 4096;
	}
	/* Header, sequence, GUID, time stamp, ids: 44 bytes. */
	d[LANE_ARGS - 1].size -= total + 44 - 65535;
	EXPECT_EQ(0, message_both(_metadata, self, 0x2b, d, LANE_ARGS));
	written++;
	d[LANE_ARGS - 1].size++;
	EXPECT_EQ(-EMSGSIZE, message_both(_metadata, self, 0x2b, d, LANE_ARGS));
	compare(_metadata, self, written, before, ct_now());
}

TEST_HARNESS_MAIN
