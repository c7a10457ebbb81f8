// SPDX-License-Identifier: GPL-2.0
/*
 * Kernel-mode providers (EtwRegister ... EtwWrite, include/etw/kernel.h)
 * through the test module etw_kprov_test.ko (selftests/kmod/): events
 * from a kthread, an hrtimer in hardirq, an hrtimer in softirq and with
 * interrupts disabled on every CPU, counted exactly; the filters user
 * mode gets; the enable callback's arguments and its context; the
 * statuses of bad descriptors; unregistering while writers or a callback
 * run; etw.ko held while a provider module is loaded; a TraceLogging
 * event written by the module dumped as the same event written here.
 */
#include <stdio.h>
#include <sys/syscall.h>

#include <TraceLoggingProvider.h>
#include <tdh.h>

#include "kselftest_harness.h"
#include "etw_selftests.h"
#include "etw_kmod.h"
#include "../kmod/kprov_test.h"

#define KPT_MODULE	"/lib/modules/etw_kprov_test.ko"
#define KPT_DEV		"/dev/" KPT_DEVICE

#define STATUS_SUCCESS			0
#define STATUS_BUFFER_OVERFLOW		((__s32)0x80000005)
#define STATUS_INVALID_HANDLE		((__s32)0xC0000008)
#define STATUS_INVALID_PARAMETER	((__s32)0xC000000D)
#define STATUS_INVALID_DEVICE_REQUEST	((__s32)0xC0000010)
#define STATUS_INTEGER_OVERFLOW		((__s32)0xC0000095)

/* The test module loaded (it stays: other cases use it), its device open. */
static int kpt_open(void)
{
	int ret = etw_module_load_args(KPT_MODULE, "");

	if (ret && ret != -EEXIST)
		return ret;
	ret = open(KPT_DEV, O_RDWR | O_CLOEXEC);
	return ret < 0 ? -errno : ret;
}

static int kpt_register(int kfd, __u32 slot, const __u8 guid[16], int cb)
{
	struct kpt_register r = { .slot = slot, .with_callback = cb };

	memcpy(r.guid, guid, 16);
	if (ioctl(kfd, KPT_IOC_REGISTER, &r))
		return -errno;
	return r.status;
}

static int kpt_unregister(int kfd, __u32 slot)
{
	struct kpt_register r = { .slot = slot };

	if (ioctl(kfd, KPT_IOC_UNREGISTER, &r))
		return -errno;
	return r.status;
}

static int kpt_write(int kfd, struct kpt_write *w)
{
	return ioctl(kfd, KPT_IOC_WRITE, w) ? -errno : 0;
}

/* The last callback of @slot after at least @min of them, waited for. */
static int kpt_wait_callbacks(int kfd, __u32 slot, __u32 min,
			      struct kpt_callbacks *out)
{
	int i;

	for (i = 0; i < 5000; i++) {
		memset(out, 0, sizeof(*out));
		out->slot = slot;
		if (ioctl(kfd, KPT_IOC_CALLBACKS, out))
			return -errno;
		if (out->count >= min)
			return 0;
		usleep(1000);
	}
	return -ETIMEDOUT;
}

FIXTURE(kprov) {
	int fd;		/* /dev/etw */
	int kfd;	/* the test module */
	__u32 logger;
	__u8 guid[16];
};

FIXTURE_SETUP(kprov)
{
	self->fd = etw_open_or_skip(_metadata);
	etw_stop_test_sessions(self->fd);
	self->kfd = kpt_open();
	ASSERT_LE(0, self->kfd) TH_LOG("%s: %s", KPT_MODULE, strerror(-self->kfd));
	etw_test_guid(self->guid, 0x70);
	ASSERT_EQ(0, etw_session_start_simple(self->fd, "etwtest-kprov", 0, 64,
					      64, &self->logger));
}

FIXTURE_TEARDOWN(kprov)
{
	int i;

	if (self->kfd < 0)
		return;		/* rmmod_ordering closed everything */
	for (i = 0; i < KPT_SLOTS; i++)
		kpt_unregister(self->kfd, i);
	etw_session_ctl(self->fd, self->logger, ETW_CONTROL_STOP, NULL);
	close(self->kfd);
	close(self->fd);
}

/* What one drain saw of the provider: per id, and the interrupt ones' ids. */
struct seen {
	__u8 guid[16];
	long by_id[256];
	long bad_payload;
	long pid_zero[256];
	long stack_kernel;
	long ext_items;
	struct etw_test_event_header last;
	__u8 last_payload[64];
	__u32 last_payload_len;
	__u8 related[16];
	long related_seen;
};

static int seen_fn(const struct etw_test_event_header *h, const __u8 *buffer,
		   __u32 cpu, void *ctx)
{
	const __u8 *payload = (const __u8 *)(h + 1);
	struct seen *s = ctx;
	__u32 len, i;

	if (memcmp(h->provider_id, s->guid, 16))
		return 0;
	if (h->flags & 0x0001) {	/* EXTENDED_INFO: walk the items */
		const __u8 *p = payload;

		for (;;) {
			__u16 stride, type, link, dsize;

			memcpy(&stride, p, 2);
			memcpy(&type, p + 2, 2);
			memcpy(&link, p + 4, 2);
			memcpy(&dsize, p + 6, 2);
			s->ext_items++;
			if (type == EXT_STACK64 && dsize >= 16) {
				__u64 a;

				memcpy(&a, p + 16, 8);
				if (a >= 0xffff800000000000ULL)
					s->stack_kernel++;
			}
			if (type == EXT_RELATED && dsize == 16) {
				memcpy(s->related, p + 8, 16);
				s->related_seen++;
			}
			p += stride;
			if (!(link & 1))
				break;
		}
		payload = p;
	}
	len = h->size - (payload - (const __u8 *)h);
	s->by_id[h->desc.id & 0xff]++;
	if (!h->process_id && !h->thread_id)
		s->pid_zero[h->desc.id & 0xff]++;
	if (h->desc.id < 100)
		for (i = 0; i < len; i++)
			if (payload[i] != (i & 0xff)) {
				s->bad_payload++;
				break;
			}
	s->last = *h;
	s->last_payload_len = len;
	memcpy(s->last_payload, payload, len < 64 ? len : 64);
	return 0;
}

static long drain_seen(int fd, __u32 logger, const __u8 guid[16], struct seen *s)
{
	memset(s, 0, sizeof(*s));
	memcpy(s->guid, guid, 16);
	return etw_drain(fd, logger, seen_fn, s);
}

/*
 * @ctx's writes on every CPU (the task's: once): each returns success, is
 * made in that context, and is stored once with its payload; an interrupt
 * context's records have no process or thread.
 */
static void contexts_case(struct __test_metadata *_metadata,
			  FIXTURE_DATA(kprov) *self, __u32 ctx, int no_pid)
{
	const long n = 300, cpus = sysconf(_SC_NPROCESSORS_ONLN);
	struct kpt_write w = {
		.ctx = ctx, .cpu = ctx ? ~0U : 0, .count = n, .size = 48,
		.id = 1 + ctx, .level = 4, .keyword = 1,
	};
	long want = ctx ? n * cpus : n;
	struct etw_session_info info;
	struct seen s;

	ASSERT_EQ(0, etw_enable_simple(self->fd, self->logger, self->guid,
				       ETW_CONTROL_CODE_ENABLE, 5, 0, 0, 0));
	ASSERT_EQ(0, kpt_register(self->kfd, 0, self->guid, 0));
	ASSERT_EQ(0, kpt_write(self->kfd, &w));
	EXPECT_EQ(want, w.ok) TH_LOG("status %#x", w.status);
	EXPECT_EQ(0, w.bad_ctx);
	ASSERT_LE(0, drain_seen(self->fd, self->logger, self->guid, &s));
	EXPECT_EQ(want, s.by_id[1 + ctx]);
	EXPECT_EQ(0, s.bad_payload);
	EXPECT_EQ(no_pid ? want : 0, s.pid_zero[1 + ctx]);
	ASSERT_EQ(0, etw_session_ctl(self->fd, self->logger, ETW_CONTROL_QUERY, &info));
	EXPECT_EQ(0, info.events_lost);
}

TEST_F(kprov, ctx_task)
{
	contexts_case(_metadata, self, KPT_CTX_TASK, 0);
}

TEST_F(kprov, ctx_kthread)
{
	contexts_case(_metadata, self, KPT_CTX_KTHREAD, 0);
}

TEST_F(kprov, ctx_irqs_disabled)
{
	contexts_case(_metadata, self, KPT_CTX_IRQOFF, 0);
}

TEST_F(kprov, ctx_softirq)
{
	contexts_case(_metadata, self, KPT_CTX_SOFTIRQ, 1);
}

TEST_F(kprov, ctx_hardirq)
{
	contexts_case(_metadata, self, KPT_CTX_HRTIMER, 1);
}

/* Level and keywords as for user mode; EtwEventEnabled agrees. */
TEST_F(kprov, level_keyword_filters)
{
	static const struct { __u8 level; __u64 kw; int stored; } cases[] = {
		{ 3, 0x10, 1 }, { 4, 0x10, 0 }, { 3, 0x20, 0 }, { 0, 0x30, 1 },
		{ 2, 0, 1 }, { 3, 0x01, 0 },
	};
	struct seen s;
	unsigned int i;

	ASSERT_EQ(0, kpt_register(self->kfd, 0, self->guid, 0));
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct kpt_enabled en = { .level = cases[i].level,
					  .keyword = cases[i].kw };

		ASSERT_EQ(0, ioctl(self->kfd, KPT_IOC_ENABLED, &en));
		EXPECT_EQ(0, en.event_enabled) TH_LOG("before the enable: %u", i);
	}
	ASSERT_EQ(0, etw_enable_simple(self->fd, self->logger, self->guid,
				       ETW_CONTROL_CODE_ENABLE, 3, 0x10, 0, 0));
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct kpt_write w = {
			.count = 1, .size = 8, .id = 10 + i,
			.level = cases[i].level, .keyword = cases[i].kw,
		};
		struct kpt_enabled en = { .level = cases[i].level,
					  .keyword = cases[i].kw };

		ASSERT_EQ(0, kpt_write(self->kfd, &w));
		EXPECT_EQ(1, w.ok);
		ASSERT_EQ(0, ioctl(self->kfd, KPT_IOC_ENABLED, &en));
		EXPECT_EQ(cases[i].stored, en.event_enabled) TH_LOG("case %u", i);
		EXPECT_EQ(cases[i].stored, en.provider_enabled) TH_LOG("case %u", i);
	}
	ASSERT_LE(0, drain_seen(self->fd, self->logger, self->guid, &s));
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		EXPECT_EQ(cases[i].stored, s.by_id[10 + i]) TH_LOG("case %u", i);
}

/*
 * A payload filter holds for a kernel provider's events too, written in
 * hard interrupts: its fields are read from the provider's descriptors.
 * The module's pattern makes "Rest" (bytes 4..7) 0x07060504.
 */
static void kp_payload_enable(struct __test_metadata *_metadata,
			      FIXTURE_DATA(kprov) *self, USHORT op)
{
	static const EVENT_DESCRIPTOR d40 = { .Id = 40 };
	PAYLOAD_FILTER_PREDICATE p = { (LPWSTR)u"Rest", op, (LPWSTR)u"0x07060504" };
	struct etw_enable e = { .size = sizeof(e) };
	EVENT_FILTER_DESCRIPTOR fd;
	PVOID f = NULL;

	ASSERT_EQ(ERROR_SUCCESS, TdhCreatePayloadFilter((LPCGUID)self->guid, &d40,
							FALSE, 1, &p, &f));
	ASSERT_EQ(ERROR_SUCCESS, TdhAggregatePayloadFilters(1, &f, NULL, &fd));
	e.logger_id = self->logger;
	e.control_code = ETW_CONTROL_CODE_ENABLE;
	memcpy(e.guid, self->guid, 16);
	e.level = 5;
	e.flags = ETW_ENABLE_F_PAYLOAD;
	e.payload_data = fd.Ptr;
	e.payload_size = fd.Size;
	EXPECT_EQ(0, etw_ioctl_err(self->fd, ETW_IOC_ENABLE, &e));
	TdhCleanupPayloadEventFilterDescriptor(&fd);
	TdhDeletePayloadFilter(&f);
}

TEST_F(kprov, payload_filter)
{
	static const char man[] =
		"<instrumentationManifest><instrumentation><events>"
		"<provider name=\"Kp\" guid=\"{b3864c38-4273-58c5-545b-8b3608343470}\">"
		"<templates><template tid=\"T\">"
		"<data name=\"Word\" inType=\"win:UInt32\"/>"
		"<data name=\"Rest\" inType=\"win:UInt32\"/>"
		"</template></templates>"
		"<events><event value=\"40\" version=\"0\" template=\"T\"/></events>"
		"</provider></events></instrumentation></instrumentationManifest>";
	const long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	struct kpt_write w = {
		.ctx = KPT_CTX_HRTIMER, .cpu = ~0U, .count = 10, .size = 8,
		.id = 40, .level = 4,
	};
	struct seen s;

	ASSERT_EQ(ERROR_SUCCESS, TdhLoadManifestFromMemory(man, sizeof(man) - 1));
	kp_payload_enable(_metadata, self, PAYLOADFIELD_EQ);
	ASSERT_EQ(0, kpt_register(self->kfd, 0, self->guid, 0));
	ASSERT_EQ(0, kpt_write(self->kfd, &w));		/* passes */
	w.size = 4;					/* no Rest: dropped */
	ASSERT_EQ(0, kpt_write(self->kfd, &w));
	w.size = 8;
	w.id = 41;					/* named by no filter */
	ASSERT_EQ(0, kpt_write(self->kfd, &w));
	ASSERT_LE(0, drain_seen(self->fd, self->logger, self->guid, &s));
	EXPECT_EQ(10 * cpus, s.by_id[40]);
	EXPECT_EQ(10 * cpus, s.by_id[41]);
	EXPECT_EQ(0, s.bad_payload);

	kp_payload_enable(_metadata, self, PAYLOADFIELD_NE);
	w.id = 40;
	ASSERT_EQ(0, kpt_write(self->kfd, &w));
	EXPECT_EQ(10 * cpus, w.ok);
	ASSERT_LE(0, drain_seen(self->fd, self->logger, self->guid, &s));
	EXPECT_EQ(0, s.by_id[40]);
	TdhUnloadManifestFromMemory(man, sizeof(man) - 1);
}

/* The callback: Windows' arguments, process context, no etw lock held. */
TEST_F(kprov, callback_arguments)
{
	struct {
		__u16 id;
		__u8 version;
		__u8 reserved[5];
		__u64 instance_id;
		__u32 size;
		__u32 next_offset;
		__u8 data[8];
	} filter = { .id = 7, .size = 32, .data = "kprov" };
	struct etw_enable e = { .size = sizeof(e) };
	struct kpt_callbacks cbs;
	__u8 zero[16] = { 0 };

	ASSERT_EQ(0, kpt_register(self->kfd, 0, self->guid, 1));
	e.logger_id = self->logger;
	e.control_code = ETW_CONTROL_CODE_ENABLE;
	memcpy(e.guid, self->guid, 16);
	memset(e.source_id, 0x5a, 16);
	e.level = 4;
	e.match_any = 0xf0;
	e.match_all = 0x10;
	e.timeout_ms = ETW_TIMEOUT_INFINITE;
	ASSERT_EQ(0, etw_ioctl_err(self->fd, ETW_IOC_ENABLE, &e));
	/* EnableTraceEx2 with a Timeout returned: the callback ran. */
	memset(&cbs, 0, sizeof(cbs));
	ASSERT_EQ(0, ioctl(self->kfd, KPT_IOC_CALLBACKS, &cbs));
	ASSERT_EQ(1, cbs.count);
	EXPECT_EQ(1, cbs.cb[0].code);
	EXPECT_EQ(4, cbs.cb[0].level);
	EXPECT_EQ(0xf0, cbs.cb[0].match_any);
	EXPECT_EQ(0x10, cbs.cb[0].match_all);
	EXPECT_EQ(0, memcmp(cbs.cb[0].source_id, e.source_id, 16));
	EXPECT_EQ(0, cbs.cb[0].has_filter);
	EXPECT_EQ(1, cbs.cb[0].may_sleep);
	EXPECT_EQ(1, cbs.cb[0].no_lock);

	/* Capture state, with a schematized filter: code 2, the filter. */
	e.control_code = ETW_CONTROL_CODE_CAPTURE_STATE;
	e.flags = ETW_ENABLE_F_FILTER;
	e.filter_type = ETW_FILTER_TYPE_SCHEMATIZED;
	e.filter_size = sizeof(filter);
	e.filter_data = (uintptr_t)&filter;
	ASSERT_EQ(0, etw_ioctl_err(self->fd, ETW_IOC_ENABLE, &e));
	ASSERT_EQ(0, kpt_wait_callbacks(self->kfd, 0, 2, &cbs));
	EXPECT_EQ(2, cbs.cb[1].code);
	EXPECT_EQ(1, cbs.cb[1].has_filter);
	EXPECT_EQ(ETW_FILTER_TYPE_SCHEMATIZED, cbs.cb[1].filter_type);
	EXPECT_EQ(sizeof(filter), cbs.cb[1].filter_size);
	EXPECT_EQ(0, memcmp(cbs.cb[1].filter + 24, "kprov", 6));

	/* Disable: code 0. */
	e.control_code = ETW_CONTROL_CODE_DISABLE;
	e.flags = 0;
	e.filter_type = 0;
	e.filter_size = 0;
	e.filter_data = 0;
	ASSERT_EQ(0, etw_ioctl_err(self->fd, ETW_IOC_ENABLE, &e));
	ASSERT_EQ(0, kpt_wait_callbacks(self->kfd, 0, 3, &cbs));
	EXPECT_EQ(0, cbs.cb[2].code);

	/* A registration made after an enable: zero SourceId, enabled. */
	e.control_code = ETW_CONTROL_CODE_ENABLE;
	ASSERT_EQ(0, etw_ioctl_err(self->fd, ETW_IOC_ENABLE, &e));
	ASSERT_EQ(0, kpt_register(self->kfd, 1, self->guid, 1));
	ASSERT_EQ(0, kpt_wait_callbacks(self->kfd, 1, 1, &cbs));
	EXPECT_EQ(1, cbs.cb[0].code);
	EXPECT_EQ(4, cbs.cb[0].level);
	EXPECT_EQ(0, memcmp(cbs.cb[0].source_id, zero, 16));
}

/* Bad descriptors: the documented status, nothing written. */
TEST_F(kprov, bad_descriptors)
{
	static const struct { __u32 kind; __s32 status; } cases[] = {
		{ KPT_W_NULL_PTR, STATUS_INVALID_PARAMETER },
		{ KPT_W_USER_PTR, STATUS_INVALID_PARAMETER },
		{ KPT_W_TOO_MANY, STATUS_INVALID_PARAMETER },
		{ KPT_W_TOO_BIG, STATUS_INTEGER_OVERFLOW },
		{ KPT_W_NO_HANDLE, STATUS_INVALID_HANDLE },
	};
	struct seen s;
	unsigned int i;

	ASSERT_EQ(0, etw_enable_simple(self->fd, self->logger, self->guid,
				       ETW_CONTROL_CODE_ENABLE, 0, 0, 0, 0));
	ASSERT_EQ(0, kpt_register(self->kfd, 0, self->guid, 0));
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct kpt_write w = { .kind = cases[i].kind, .count = 1,
				       .size = 4, .id = 20 + i };
		struct kpt_write wi = w;

		ASSERT_EQ(0, kpt_write(self->kfd, &w));
		EXPECT_EQ(0, w.ok) TH_LOG("kind %u", cases[i].kind);
		EXPECT_EQ(cases[i].status, w.status) TH_LOG("kind %u", cases[i].kind);
		/* The same from a hardirq. */
		wi.ctx = KPT_CTX_HRTIMER;
		wi.cpu = 0;
		ASSERT_EQ(0, kpt_write(self->kfd, &wi));
		EXPECT_EQ(cases[i].status, wi.status) TH_LOG("kind %u", cases[i].kind);
	}
	/* An event larger than the session's buffer: ERROR_MORE_DATA's. */
	{
		/* 80 + 65400 bytes: over a 64 KiB buffer's room, not 64 KiB. */
		struct kpt_write w = { .count = 1, .size = 65400, .id = 30 };

		ASSERT_EQ(0, kpt_write(self->kfd, &w));
		EXPECT_EQ(STATUS_BUFFER_OVERFLOW, w.status);
	}
	ASSERT_LE(0, drain_seen(self->fd, self->logger, self->guid, &s));
	for (i = 20; i <= 30; i++)
		EXPECT_EQ(0, s.by_id[i]);
}

/* EtwWriteString, EtwWriteTransfer, EtwWriteEx, the thread's activity id. */
TEST_F(kprov, write_kinds)
{
	static const __u8 act[16] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16 };
	static const __u8 rel[16] = { 0xa1, 0xa2, 0xa3, 0xa4, 0xa5, 0xa6, 0xa7, 0xa8,
				      0xa9, 0xaa, 0xab, 0xac, 0xad, 0xae, 0xaf, 0xb0 };
	struct kpt_write w;
	struct seen s;

	ASSERT_EQ(0, etw_enable_simple(self->fd, self->logger, self->guid,
				       ETW_CONTROL_CODE_ENABLE, 0, 0, 0, 0));
	ASSERT_EQ(0, kpt_register(self->kfd, 0, self->guid, 0));

	w = (struct kpt_write){ .kind = KPT_W_STRING, .count = 1, .level = 2, .keyword = 4 };
	ASSERT_EQ(0, kpt_write(self->kfd, &w));
	EXPECT_EQ(1, w.ok);
	ASSERT_LE(0, drain_seen(self->fd, self->logger, self->guid, &s));
	EXPECT_EQ(1, s.by_id[0]);
	EXPECT_EQ(0x0004, s.last.flags & 0x0004);	/* STRING_ONLY */
	EXPECT_EQ(2, s.last.desc.level);
	EXPECT_EQ(12, s.last_payload_len);
	EXPECT_EQ(0, memcmp(s.last_payload, "k\0p\0r\0o\0v\0\0\0", 12));

	w = (struct kpt_write){ .kind = KPT_W_TRANSFER, .count = 1, .size = 16, .id = 40 };
	memcpy(w.activity, act, 16);
	memcpy(w.related, rel, 16);
	ASSERT_EQ(0, kpt_write(self->kfd, &w));
	EXPECT_EQ(1, w.ok);
	ASSERT_LE(0, drain_seen(self->fd, self->logger, self->guid, &s));
	EXPECT_EQ(1, s.by_id[40]);
	EXPECT_EQ(0, memcmp(s.last.activity_id, act, 16));
	EXPECT_EQ(1, s.related_seen);
	EXPECT_EQ(0, memcmp(s.related, rel, 16));

	/* The thread's activity id, when the write gives none. */
	w = (struct kpt_write){ .kind = KPT_W_ACTIVITY, .count = 1, .size = 16, .id = 41 };
	memcpy(w.activity, rel, 16);
	ASSERT_EQ(0, kpt_write(self->kfd, &w));
	EXPECT_EQ(1, w.ok);
	ASSERT_LE(0, drain_seen(self->fd, self->logger, self->guid, &s));
	EXPECT_EQ(1, s.by_id[41]);
	EXPECT_EQ(0, memcmp(s.last.activity_id, rel, 16));

	/* No thread id is set where the caller may not sleep: refused. */
	w = (struct kpt_write){ .kind = KPT_W_ACTIVITY, .count = 1, .size = 16, .id = 45,
				.ctx = KPT_CTX_IRQOFF };
	memcpy(w.activity, rel, 16);
	ASSERT_EQ(0, kpt_write(self->kfd, &w));
	EXPECT_EQ(0, w.ok);
	EXPECT_EQ(STATUS_INVALID_DEVICE_REQUEST, w.status);
	ASSERT_LE(0, drain_seen(self->fd, self->logger, self->guid, &s));
	EXPECT_EQ(0, s.by_id[45]);

	/* EtwWriteEx: the session's Filter bit keeps it out; INPRIVATE. */
	w = (struct kpt_write){ .kind = KPT_W_EX, .count = 1, .size = 8, .id = 42,
				.filter = 1ULL << (self->logger - 1) };
	ASSERT_EQ(0, kpt_write(self->kfd, &w));
	EXPECT_EQ(1, w.ok);
	w = (struct kpt_write){ .kind = KPT_W_EX, .count = 1, .size = 8, .id = 43,
				.flags = 4 };
	ASSERT_EQ(0, kpt_write(self->kfd, &w));
	EXPECT_EQ(STATUS_INVALID_PARAMETER, w.status);
	w = (struct kpt_write){ .kind = KPT_W_EX, .count = 1, .size = 8, .id = 44,
				.flags = 2 };
	ASSERT_EQ(0, kpt_write(self->kfd, &w));
	EXPECT_EQ(1, w.ok);
	ASSERT_LE(0, drain_seen(self->fd, self->logger, self->guid, &s));
	EXPECT_EQ(0, s.by_id[42]);
	EXPECT_EQ(0, s.by_id[43]);
	EXPECT_EQ(1, s.by_id[44]);
}

/* EnableProperty: the kernel stack; no process in interrupt context. */
TEST_F(kprov, enable_property_items)
{
	struct kpt_write w = { .count = 3, .size = 8, .id = 50 };
	struct seen s;

	ASSERT_EQ(0, etw_enable_simple(self->fd, self->logger, self->guid,
				       ETW_CONTROL_CODE_ENABLE, 0, 0, 0,
				       ETW_ENABLE_STACK_TRACE | ETW_ENABLE_EVENT_KEY |
				       ETW_ENABLE_PROCESS_START_KEY));
	ASSERT_EQ(0, kpt_register(self->kfd, 0, self->guid, 0));
	ASSERT_EQ(0, kpt_write(self->kfd, &w));
	EXPECT_EQ(3, w.ok);
	w.ctx = KPT_CTX_HRTIMER;
	w.cpu = 0;
	w.id = 51;
	ASSERT_EQ(0, kpt_write(self->kfd, &w));
	EXPECT_EQ(3, w.ok);
	ASSERT_LE(0, drain_seen(self->fd, self->logger, self->guid, &s));
	EXPECT_EQ(3, s.by_id[50]);
	EXPECT_EQ(3, s.by_id[51]);
	EXPECT_EQ(6, s.stack_kernel);
	EXPECT_EQ(18, s.ext_items);
	EXPECT_EQ(0, s.bad_payload);
}

/* Unregister while writers run: it waits for those in flight. */
TEST_F(kprov, unregister_while_writing)
{
	struct kpt_race r = { .slot = 0, .ms = 300 };
	struct etw_session_info info;
	struct seen s;

	ASSERT_EQ(0, etw_enable_simple(self->fd, self->logger, self->guid,
				       ETW_CONTROL_CODE_ENABLE, 0, 0, 0, 0));
	ASSERT_EQ(0, kpt_register(self->kfd, 0, self->guid, 0));
	ASSERT_EQ(0, ioctl(self->kfd, KPT_IOC_RACE, &r));
	EXPECT_EQ(STATUS_SUCCESS, r.status);
	EXPECT_LT(0, r.writes);
	EXPECT_EQ(0, r.after);
	ASSERT_LE(0, drain_seen(self->fd, self->logger, self->guid, &s));
	ASSERT_EQ(0, etw_session_ctl(self->fd, self->logger, ETW_CONTROL_QUERY, &info));
	/* Every write was stored or counted lost. */
	EXPECT_EQ(r.writes, s.by_id[77] + info.events_lost);
}

/* Unregister while the callback runs: it returns after the callback. */
TEST_F(kprov, unregister_waits_for_callback)
{
	struct kpt_unreg_cb u = { .slot = 0 };
	__u32 ms = 300;

	ASSERT_EQ(0, kpt_register(self->kfd, 0, self->guid, 1));
	ASSERT_EQ(0, ioctl(self->kfd, KPT_IOC_SLOW_CALLBACK, &ms));
	ASSERT_EQ(0, etw_enable_simple(self->fd, self->logger, self->guid,
				       ETW_CONTROL_CODE_ENABLE, 0, 0, 0, 0));
	ASSERT_EQ(0, ioctl(self->kfd, KPT_IOC_UNREG_CB, &u));
	EXPECT_EQ(STATUS_SUCCESS, u.status);
	EXPECT_EQ(1, u.waited);
}

/* EnumerateTraceGuidsEx's list shows the kernel provider. */
TEST_F(kprov, listed)
{
	struct etw_provider_entry entries[256];
	struct etw_provider_list l = { .size = sizeof(l) };
	__u32 i;
	int found = 0;

	ASSERT_EQ(0, kpt_register(self->kfd, 0, self->guid, 0));
	l.max = 256;
	l.entries = (uintptr_t)entries;
	ASSERT_EQ(0, etw_ioctl_err(self->fd, ETW_IOC_PROVIDER_LIST, &l));
	for (i = 0; i < l.filled; i++)
		if (!memcmp(entries[i].guid, self->guid, 16)) {
			found = 1;
			EXPECT_EQ(1, entries[i].nr_regs);
		}
	EXPECT_EQ(1, found);
	ASSERT_EQ(0, kpt_unregister(self->kfd, 0));
	EXPECT_EQ(STATUS_INVALID_HANDLE, kpt_unregister(self->kfd, 0));
}

/* The test module's TraceLogging provider, in user mode. */
TRACELOGGING_DEFINE_PROVIDER(user_tl, KPT_TL_NAME,
	(0x3f0e4a52, 0x6d1b, 0x4c7e, 0x9a, 0x20, 0x51, 0x7b, 0x2c, 0x88, 0x0d, 0x41));

/* The module's event, with the same fields, from user mode. */
static void user_tl_write(void)
{
	const GUID aid = { 0x11223344, 0x5566, 0x7788,
			   { 1, 2, 3, 4, 5, 6, 7, 8 } };
	unsigned char bytes[3] = { 0xde, 0xad, 0x01 };

	TraceLoggingWriteActivity(user_tl, "KprovEvent", &aid, NULL,
		TraceLoggingLevel(4),
		TraceLoggingKeyword(0x2),
		TraceLoggingInt32(-42, "Count"),
		TraceLoggingUInt64(0x1122334455667788ULL, "Big"),
		TraceLoggingString("from the kernel", "Where"),
		TraceLoggingWideString(u"kernel", "Where16"),
		TraceLoggingHexUInt32(0xbeef, "Hex"),
		TraceLoggingBinary(bytes, sizeof(bytes), "Bytes"),
		TraceLoggingGuid(aid, "Id"));
}

static int kpt_tl(int kfd, __u32 op)
{
	return ioctl(kfd, KPT_IOC_TL, &op) ? -errno : 0;
}

/*
 * TraceLogging in a module: `etw dump` prints the kernel's event as the
 * same event written in user mode, but for the time, CPU, process and
 * thread (the first seven CSV columns).
 */
TEST_F(kprov, tracelogging_dump_same_as_user)
{
	char out[16384], *line, *rows[2] = { NULL, NULL };
	int n = 0, i;

	if (access("/usr/bin/etw", X_OK))
		SKIP(return, "needs the etw tool (the VM has it)");
	ASSERT_EQ(0, etw_sh("etw start etwtest-kptl -o /tmp/etwtest-kptl.etl 2>&1",
			    out, sizeof(out))) TH_LOG("%s", out);
	ASSERT_EQ(0, etw_sh("etw enable etwtest-kptl " KPT_TL_GUID " 2>&1",
			    out, sizeof(out))) TH_LOG("%s", out);
	ASSERT_EQ(0, kpt_tl(self->kfd, KPT_TL_REGISTER));
	ASSERT_EQ(0, TraceLoggingRegister(user_tl));
	ASSERT_EQ(0, kpt_tl(self->kfd, KPT_TL_WRITE));
	user_tl_write();
	TraceLoggingUnregister(user_tl);
	ASSERT_EQ(0, kpt_tl(self->kfd, KPT_TL_UNREGISTER));
	ASSERT_EQ(0, etw_sh("etw stop etwtest-kptl 2>&1", out, sizeof(out)))
		TH_LOG("%s", out);
	ASSERT_EQ(0, etw_sh("etw dump -f csv /tmp/etwtest-kptl.etl 2>&1", out,
			    sizeof(out))) TH_LOG("%s", out);
	for (line = strtok(out, "\n"); line; line = strtok(NULL, "\n")) {
		char *p = line;

		if (!strstr(line, "KprovEvent"))
			continue;
		for (i = 0; i < 7 && p; i++) {
			p = strchr(p, ',');
			p = p ? p + 1 : NULL;
		}
		ASSERT_NE(NULL, p);
		if (n < 2)
			rows[n] = p;
		n++;
	}
	ASSERT_EQ(2, n);
	EXPECT_STREQ(rows[0], rows[1]);
	/* The fields decoded, not a payload in hex. */
	EXPECT_NE(NULL, strstr(rows[0], "Count=-42"));
	EXPECT_NE(NULL, strstr(rows[0], "from the kernel"));
	unlink("/tmp/etwtest-kptl.etl");
}

/* A manifest provider in the module, through etw mc -km's header. */
TEST_F(kprov, mc_km_manifest_event)
{
	static const __u8 guid[16] = {
		0x1a, 0x2b, 0x3c, 0x5d, 0x9e, 0x0f, 0x8c, 0x4d,
		0xb7, 0xa6, 0x95, 0x84, 0x73, 0x62, 0x51, 0x40 };
	static const __u8 payload[] = {
		5, 0, 0, 0, 0x9a, 0x78, 0x56, 0x34, 0x12, 0, 0, 0,
		'n', 'a', 'm', 'e', 0, 'w', 0, 'i', 0, 'd', 0, 'e', 0, 0, 0 };
	struct etw_enable e = { .size = sizeof(e) };
	__u32 op;
	struct seen s;

	op = KPT_TL_REGISTER;
	ASSERT_EQ(0, ioctl(self->kfd, KPT_IOC_MC, &op));
	/* EventEnabledKprovIo() is false until a session enables it. */
	op = KPT_TL_WRITE;
	EXPECT_EQ(-1, ioctl(self->kfd, KPT_IOC_MC, &op));
	EXPECT_EQ(ENODATA, errno);
	e.logger_id = self->logger;
	e.control_code = ETW_CONTROL_CODE_ENABLE;
	memcpy(e.guid, guid, 16);
	e.level = 4;
	e.match_any = 0x4;
	e.timeout_ms = ETW_TIMEOUT_INFINITE;
	ASSERT_EQ(0, etw_ioctl_err(self->fd, ETW_IOC_ENABLE, &e));
	EXPECT_EQ(0, ioctl(self->kfd, KPT_IOC_MC, &op));
	op = KPT_TL_UNREGISTER;
	ASSERT_EQ(0, ioctl(self->kfd, KPT_IOC_MC, &op));
	ASSERT_LE(0, drain_seen(self->fd, self->logger, guid, &s));
	EXPECT_EQ(1, s.by_id[7]);
	EXPECT_EQ(1, s.last.desc.version);
	EXPECT_EQ(4, s.last.desc.level);
	EXPECT_EQ(4, s.last.desc.keyword);
	ASSERT_EQ(sizeof(payload), s.last_payload_len);
	EXPECT_EQ(0, memcmp(s.last_payload, payload, sizeof(payload)));
}

/*
 * etw.ko cannot go while a provider module uses it: with no session and
 * no file of its own open, only the module's symbol references hold it.
 * The last test: the provider module is unloaded, so that the VM can
 * unload etw.ko after the tests.
 */
TEST_F(kprov, rmmod_ordering)
{
	int ret;

	if (!getenv("ETW_MODULE"))
		SKIP(return, "outside the VM");
	ASSERT_EQ(0, etw_session_ctl(self->fd, self->logger, ETW_CONTROL_STOP, NULL));
	close(self->kfd);
	close(self->fd);
	self->kfd = -1;
	self->fd = -1;
	ret = etw_module_unload();
	EXPECT_TRUE(ret == -EWOULDBLOCK || ret == -EBUSY) TH_LOG("unload: %d", ret);
	ASSERT_TRUE(etw_module_loaded());
	ASSERT_EQ(0, syscall(SYS_delete_module, "etw_kprov_test", O_NONBLOCK));
}

TEST_HARNESS_MAIN
