// SPDX-License-Identifier: GPL-2.0
/*
 * EventSetInformation in the module (ETW_IOC_PROVIDER_SET_INFO) and the
 * typed data descriptors of TraceLogging: provider traits validated and
 * kept once per registration, carried by every event as PROV_TRAITS;
 * EVENT_METADATA and PROVIDER_METADATA descriptors leaving the payload for
 * EVENT_SCHEMA_TL and PROV_TRAITS items, in Windows' order, honoured only
 * after the registration opted in; the size errors they can cause.
 */
#include "kselftest_harness.h"
#include "etw_selftests.h"

FIXTURE(tr)
{
	int fd;
	__u8 guid[16];
	__u32 reg;
	__u32 s;
};

FIXTURE_SETUP(tr)
{
	etw_require_root(_metadata);
	self->fd = etw_open_or_skip(_metadata);
	etw_stop_test_sessions(self->fd);
	etw_test_guid(self->guid, 0x60);
	ASSERT_EQ(0, etw_register_simple(self->fd, self->guid, &self->reg));
	ASSERT_EQ(0, etw_session_start_simple(self->fd, "etwtest-tr", 0, 8, 0, &self->s));
	ASSERT_EQ(0, etw_enable_simple(self->fd, self->s, self->guid, 1, 0, 0, 0, 0));
}

FIXTURE_TEARDOWN(tr)
{
	if (self->fd >= 0) {
		etw_stop_test_sessions(self->fd);
		close(self->fd);
	}
}

/* The last record of the provider, whole. */
struct rec {
	__u8 guid[16];
	__u8 b[8192];
	long n;
};

static int keep(const struct etw_test_event_header *h, const __u8 *buffer,
		__u32 cpu, void *ctx)
{
	struct rec *r = ctx;

	if (memcmp(h->provider_id, r->guid, 16))
		return 0;
	memcpy(r->b, h, h->size);
	r->n++;
	return 0;
}

static long last_record(int fd, __u32 s, const __u8 *guid, struct rec *r)
{
	memset(r, 0, sizeof(*r));
	memcpy(r->guid, guid, 16);
	return etw_drain(fd, s, keep, r);
}

static __u16 u16at(const __u8 *p)
{
	return p[0] | p[1] << 8;
}

/* Extended item @i of a record: its offset, or 0 if there is none. */
static unsigned int item_at(const __u8 *rec, int i)
{
	unsigned int off = ETW_EVENT_HEADER_SIZE;

	if (!(u16at(rec + 4) & 1))
		return 0;
	while (i--) {
		if (!u16at(rec + off + 4))
			return 0;
		off += u16at(rec + off);
	}
	return off;
}

/* Offset of the user data: after the item whose linkage is 0. */
static unsigned int data_at(const __u8 *rec)
{
	unsigned int off = ETW_EVENT_HEADER_SIZE;

	if (!(u16at(rec + 4) & 1))
		return off;
	while (u16at(rec + off + 4))
		off += u16at(rec + off);
	return off + u16at(rec + off);
}

static const __u8 traits[] = { 14, 0, 'M', 'y', 'P', 'r', 'o', 'v', 0,
			       5, 0, 0x80, 0xab, 0xcd };

TEST_F(tr, traits_are_validated_and_set_once)
{
	static const __u8 bad[][12] = {
		{ 2, 0 },			/* shorter than its header */
		{ 9, 0, 'a', 'b', 'c', 0 },	/* size beyond the length */
		{ 5, 0, 'a', 'b', 'c' },	/* name without its NUL */
		{ 7, 0, 'a', 0, 2, 0, 1 },	/* trait size below 3 */
		{ 8, 0, 'a', 0, 5, 0, 1, 9 },	/* trait beyond the blob */
		{ 6, 0, 'a', 0, 1, 0 },		/* 2 bytes: not a trait */
	};
	static const __u8 lens[] = { 2, 6, 5, 7, 8, 6 };
	__u8 on = 1, longer[20] = { 0 };
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(bad); i++)
		EXPECT_EQ(-EINVAL, etw_set_info(self->fd, self->reg, ETW_INFO_SET_TRAITS,
						bad[i], lens[i])) TH_LOG("blob %u", i);
	EXPECT_EQ(-EFAULT, etw_set_info(self->fd, self->reg, ETW_INFO_SET_TRAITS,
					(void *)8, 14));
	EXPECT_EQ(-EBADF, etw_set_info(self->fd, 999, ETW_INFO_SET_TRAITS, traits, 14));
	EXPECT_EQ(-EOPNOTSUPP, etw_set_info(self->fd, self->reg, 0, NULL, 0));
	EXPECT_EQ(-EOPNOTSUPP, etw_set_info(self->fd, self->reg, 4, traits, 14));
	EXPECT_EQ(-EINVAL, etw_set_info(self->fd, self->reg, ETW_INFO_USE_DESCRIPTOR_TYPE,
					&on, 4));
	/* A longer buffer is fine: the blob says its own size. */
	memcpy(longer, traits, 14);
	EXPECT_EQ(0, etw_set_info(self->fd, self->reg, ETW_INFO_SET_TRAITS, longer, 20));
	EXPECT_EQ(-EEXIST, etw_set_info(self->fd, self->reg, ETW_INFO_SET_TRAITS, traits, 14));
	/* The minimal blob: its size and an empty name. */
	{
		__u32 reg2;
		static const __u8 min[] = { 3, 0, 0, 0x77 };

		ASSERT_EQ(0, etw_register_simple(self->fd, self->guid, &reg2));
		EXPECT_EQ(0, etw_set_info(self->fd, reg2, ETW_INFO_SET_TRAITS, min, 4));
	}
}

TEST_F(tr, every_event_carries_the_traits)
{
	struct rec r;
	unsigned int x;

	ASSERT_EQ(0, etw_set_info(self->fd, self->reg, ETW_INFO_SET_TRAITS, traits, 14));
	ASSERT_EQ(0, etw_write_simple(self->fd, self->reg, 3, 4, 0, "abc", 3));
	ASSERT_LE(1, last_record(self->fd, self->s, self->guid, &r));
	EXPECT_EQ(1, r.n);
	EXPECT_EQ(1, u16at(r.b + 4));			/* EXTENDED_INFO */
	x = item_at(r.b, 0);
	ASSERT_NE(0, x);
	EXPECT_EQ(24, u16at(r.b + x));			/* ALIGN(8 + 14, 8) */
	EXPECT_EQ(0x000c, u16at(r.b + x + 2));		/* PROV_TRAITS */
	EXPECT_EQ(0, u16at(r.b + x + 4));		/* the last item */
	EXPECT_EQ(14, u16at(r.b + x + 6));
	EXPECT_EQ(0, memcmp(r.b + x + 8, traits, 14));
	EXPECT_EQ(0, r.b[x + 22] | r.b[x + 23]);	/* zero padding */
	EXPECT_EQ(0, memcmp(r.b + data_at(r.b), "abc", 3));
	EXPECT_EQ(ETW_EVENT_HEADER_SIZE + 24 + 3, u16at(r.b));
}

/* A TraceLogging-style write: traits, metadata, then two payload blocks. */
static int tl_write(int fd, __u32 reg, const void *meta, __u32 meta_len,
		    __u8 meta_type, const __u8 *related)
{
	static const __u32 v = 0x01020304;
	struct etw_data_desc d[4] = {
		{ .ptr = (uintptr_t)traits, .size = 14, .type = 2 },
		{ .ptr = (uintptr_t)meta, .size = meta_len, .type = meta_type },
		{ .ptr = (uintptr_t)&v, .size = 4 },
		{ .ptr = (uintptr_t)"xy", .size = 2 },
	};
	struct etw_event_write w = { .size = sizeof(w), .kind = ETW_WRITE_EVENT };

	w.reg_id = reg;
	w.desc.channel = 11;
	w.desc.level = 5;
	w.count = 4;
	w.data = (uintptr_t)d;
	if (related) {
		w.flags = ETW_WRITE_F_RELATED;
		memcpy(w.related_id, related, 16);
	}
	return etw_ioctl_err(fd, ETW_IOC_WRITE, &w);
}

static const __u8 meta[] = { 13, 0, 0, 'E', 'v', 0, 'n', 0, 0x08, 's', 0, 0x02 | 0x80, 0x23 };

TEST_F(tr, types_are_ignored_until_opted_in)
{
	struct rec r;
	unsigned int x;

	ASSERT_EQ(0, tl_write(self->fd, self->reg, meta, 13, 1, NULL));
	ASSERT_EQ(1, last_record(self->fd, self->s, self->guid, &r));
	EXPECT_EQ(0, u16at(r.b + 4));			/* no items */
	x = data_at(r.b);
	EXPECT_EQ(0, memcmp(r.b + x, traits, 14));	/* all of it payload */
	EXPECT_EQ(0, memcmp(r.b + x + 14, meta, 13));
	EXPECT_EQ(ETW_EVENT_HEADER_SIZE + 14 + 13 + 6, u16at(r.b));
}

TEST_F(tr, metadata_descriptors_become_items)
{
	static const __u8 rel[16] = { 0x99, 1, 2, 3 };
	__u8 on = 1, off = 0;
	struct rec r;
	unsigned int x;

	ASSERT_EQ(0, etw_set_info(self->fd, self->reg, ETW_INFO_USE_DESCRIPTOR_TYPE, &on, 1));
	ASSERT_EQ(0, tl_write(self->fd, self->reg, meta, 13, 1, NULL));
	ASSERT_EQ(1, last_record(self->fd, self->s, self->guid, &r));
	EXPECT_EQ(11, r.b[0x2b]);			/* channel */
	x = item_at(r.b, 0);
	EXPECT_EQ(0x000c, u16at(r.b + x + 2));		/* PROV_TRAITS first */
	EXPECT_EQ(1, u16at(r.b + x + 4));
	EXPECT_EQ(0, memcmp(r.b + x + 8, traits, 14));
	x = item_at(r.b, 1);
	EXPECT_EQ(24, u16at(r.b + x));
	EXPECT_EQ(0x000b, u16at(r.b + x + 2));		/* EVENT_SCHEMA_TL last */
	EXPECT_EQ(0, u16at(r.b + x + 4));
	EXPECT_EQ(13, u16at(r.b + x + 6));
	EXPECT_EQ(0, memcmp(r.b + x + 8, meta, 13));
	x = data_at(r.b);
	EXPECT_EQ(ETW_EVENT_HEADER_SIZE + 24 + 24, x);
	EXPECT_EQ(0x01020304, u16at(r.b + x) | u16at(r.b + x + 2) << 16);
	EXPECT_EQ(0, memcmp(r.b + x + 4, "xy", 2));
	EXPECT_EQ(x + 6, u16at(r.b));

	/* With a related activity id: that item first, then the two. */
	ASSERT_EQ(0, tl_write(self->fd, self->reg, meta, 13, 1, rel));
	ASSERT_EQ(1, last_record(self->fd, self->s, self->guid, &r));
	EXPECT_EQ(0x0001, u16at(r.b + item_at(r.b, 0) + 2));
	EXPECT_EQ(1, u16at(r.b + item_at(r.b, 0) + 4));
	EXPECT_EQ(0, memcmp(r.b + item_at(r.b, 0) + 8, rel, 16));
	EXPECT_EQ(0x000c, u16at(r.b + item_at(r.b, 1) + 2));
	EXPECT_EQ(0x000b, u16at(r.b + item_at(r.b, 2) + 2));

	/* Switched off again: payload once more. */
	ASSERT_EQ(0, etw_set_info(self->fd, self->reg, ETW_INFO_USE_DESCRIPTOR_TYPE, &off, 1));
	ASSERT_EQ(0, tl_write(self->fd, self->reg, meta, 13, 1, NULL));
	ASSERT_EQ(1, last_record(self->fd, self->s, self->guid, &r));
	EXPECT_EQ(0, u16at(r.b + 4));
}

TEST_F(tr, one_traits_item_when_both_sources_exist)
{
	static const __u8 other[] = { 4, 0, 'Q', 0 };
	struct rec r;
	unsigned int x;

	ASSERT_EQ(0, etw_set_info(self->fd, self->reg, ETW_INFO_SET_TRAITS, other, 4));
	ASSERT_EQ(0, tl_write(self->fd, self->reg, meta, 13, 1, NULL));
	ASSERT_EQ(1, last_record(self->fd, self->s, self->guid, &r));
	x = item_at(r.b, 0);
	EXPECT_EQ(0x000c, u16at(r.b + x + 2));
	EXPECT_EQ(14, u16at(r.b + x + 6));		/* the write's own */
	EXPECT_EQ(0x000b, u16at(r.b + item_at(r.b, 1) + 2));
	EXPECT_EQ(0, item_at(r.b, 2));
}

TEST_F(tr, bad_types_and_timestamp_override)
{
	struct etw_event_write w = { .size = sizeof(w), .kind = ETW_WRITE_EVENT };
	struct etw_data_desc d[2];
	__u64 ts = 0x123456789abcdefULL;
	__u8 on = 1;
	struct rec r;

	ASSERT_EQ(0, etw_set_info(self->fd, self->reg, ETW_INFO_USE_DESCRIPTOR_TYPE, &on, 1));
	/* Two schemas, an unknown type, a 4-byte timestamp: EINVAL. */
	EXPECT_EQ(-EINVAL, tl_write(self->fd, self->reg, traits, 14, 2, NULL));
	EXPECT_EQ(-EINVAL, tl_write(self->fd, self->reg, meta, 13, 9, NULL));
	EXPECT_EQ(-EINVAL, tl_write(self->fd, self->reg, &ts, 4, 3, NULL));

	d[0] = (struct etw_data_desc){ .ptr = (uintptr_t)&ts, .size = 8, .type = 3 };
	d[1] = (struct etw_data_desc){ .ptr = (uintptr_t)"p", .size = 1 };
	w.reg_id = self->reg;
	w.count = 2;
	w.data = (uintptr_t)d;
	ASSERT_EQ(0, etw_ioctl_err(self->fd, ETW_IOC_WRITE, &w));
	ASSERT_EQ(1, last_record(self->fd, self->s, self->guid, &r));
	EXPECT_EQ(0, memcmp(r.b + 0x10, &ts, 8));
	EXPECT_EQ(0, u16at(r.b + 4));
	EXPECT_EQ(ETW_EVENT_HEADER_SIZE + 1, u16at(r.b));
	EXPECT_EQ('p', r.b[ETW_EVENT_HEADER_SIZE]);
}

TEST_F(tr, metadata_counts_towards_the_size_limits)
{
	static __u8 big[65536];
	__u8 on = 1;
	struct rec r;

	ASSERT_EQ(0, etw_set_info(self->fd, self->reg, ETW_INFO_USE_DESCRIPTOR_TYPE, &on, 1));
	/*
	 * 14 + 6 bytes of data fit beside 65,400 bytes of metadata as raw
	 * payload, but the two items' headers and padding push it over.
	 */
	big[0] = 0x78, big[1] = 0xff;
	EXPECT_EQ(-EOVERFLOW, tl_write(self->fd, self->reg, big,
				       65535 - ETW_EVENT_HEADER_SIZE - 14 - 6 - 4, 1, NULL));
	/* 8 KiB buffers: a 9,000-byte schema does not fit one. */
	EXPECT_EQ(-EMSGSIZE, tl_write(self->fd, self->reg, big, 9000, 1, NULL));
	EXPECT_EQ(0, tl_write(self->fd, self->reg, big, 7000, 1, NULL));
	ASSERT_EQ(1, last_record(self->fd, self->s, self->guid, &r));
	EXPECT_EQ(7000, u16at(r.b + item_at(r.b, 1) + 6));
}

TEST_HARNESS_MAIN
