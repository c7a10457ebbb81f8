// SPDX-License-Identifier: GPL-2.0
/*
 * EVENT_FILTER_TYPE_PAYLOAD as a session sees it: TdhCreatePayloadFilter
 * against a manifest loaded in this process, TdhAggregatePayloadFilters,
 * EnableTraceEx2, then events written by EventWrite and counted in each
 * session's buffers (etw_count), so every count is exact.  Each operator
 * on each type, EventMatchANY and EventMatchALLFlags, a field after
 * variable-length strings and a payload too short for it, and a second
 * session without the filter that gets every event.
 */
#include <windows.h>
#include <evntprov.h>
#include <tdh.h>

#include "kselftest_harness.h"
#include "etw_selftests.h"
#include "classic_api.h"

/* The provider: etw_test_guid(0x4e). */
#define PF_GUID		"{b3864c38-4273-58c5-545b-8b360834344e}"

static const char manifest[] =
	"<instrumentationManifest><instrumentation><events>"
	"<provider name=\"PfTest\" guid=\"" PF_GUID "\">"
	"<templates><template tid=\"T\">"
	"<data name=\"Count\" inType=\"win:UInt32\"/>"
	"<data name=\"Name\" inType=\"win:UnicodeString\"/>"
	"<data name=\"Tag\" inType=\"win:AnsiString\"/>"
	"<data name=\"Delta\" inType=\"win:Int32\"/>"
	"<data name=\"Id\" inType=\"win:GUID\"/>"
	"</template></templates>"
	"<events>"
	"<event value=\"1\" version=\"0\" template=\"T\"/>"
	"<event value=\"2\" version=\"0\" template=\"T\"/>"
	"</events></provider>"
	"</events></instrumentation></instrumentationManifest>";

/* The Id of event n == 3. */
static const GUID three = { 0x11112222, 0x3333, 0x4444,
			    { 0x55, 0x55, 0x66, 0x66, 0x77, 0x77, 0x88, 0x88 } };
#define THREE	u"{11112222-3333-4444-5555-666677778888}"

static const EVENT_DESCRIPTOR ev1 = { .Id = 1 };

/*
 * Event @id number @n: Count n, Name "alpha-n" (even) or "BETA-n" (odd),
 * Tag "tag<n>", Delta n - 5, Id THREE for n == 3.  @fields: how many of
 * the five fields the payload has.
 */
static int write_one(REGHANDLE reg, USHORT id, unsigned int n, int fields)
{
	EVENT_DESCRIPTOR d = { .Id = id };
	EVENT_DATA_DESCRIPTOR dd[5];
	char16_t name[16];
	char tag[16];
	UINT32 count = n;
	INT32 delta = (INT32)n - 5;
	GUID g = n == 3 ? three : (GUID){ .Data1 = n };
	char a[16];
	int i, len = snprintf(a, sizeof(a), "%s-%u", n % 2 ? "BETA" : "alpha", n);

	for (i = 0; i <= len; i++)
		name[i] = (char16_t)a[i];
	snprintf(tag, sizeof(tag), "tag%u", n);
	EventDataDescCreate(&dd[0], &count, sizeof(count));
	EventDataDescCreate(&dd[1], name, (ULONG)(len + 1) * 2);
	EventDataDescCreate(&dd[2], tag, (ULONG)strlen(tag) + 1);
	EventDataDescCreate(&dd[3], &delta, sizeof(delta));
	EventDataDescCreate(&dd[4], &g, sizeof(g));
	return EventWrite(reg, &d, (ULONG)fields, dd) != ERROR_SUCCESS;
}

/* Events 0..9 of id 1 and of id 2, all fields. */
static int write_all(REGHANDLE reg)
{
	int bad = 0;

	for (unsigned int n = 0; n < 10; n++)
		bad |= write_one(reg, 1, n, 5) | write_one(reg, 2, n, 5);
	return bad;
}

/* Enable the provider for @h with these filters of event 1 (or none). */
static ULONG enable(CONTROLTRACE_ID h, const GUID *g, PVOID *f, ULONG count,
		    BOOLEAN *all)
{
	EVENT_FILTER_DESCRIPTOR d;
	ENABLE_TRACE_PARAMETERS prm = { .Version = ENABLE_TRACE_PARAMETERS_VERSION_2 };
	ULONG err;

	if (count) {
		err = TdhAggregatePayloadFilters(count, f, all, &d);
		if (err)
			return err;
		prm.EnableFilterDesc = &d;
		prm.FilterDescCount = 1;
	}
	err = EnableTraceEx2(h, g, EVENT_CONTROL_CODE_ENABLE_PROVIDER, 0, 0, 0, 0, &prm);
	if (count)
		TdhCleanupPayloadEventFilterDescriptor(&d);
	return err;
}

FIXTURE(pf)
{
	int fd;
	GUID guid;
	CONTROLTRACE_ID a, b;	/* a: no filter; b: the filter under test */
	REGHANDLE reg;
};

FIXTURE_SETUP(pf)
{
	etw_require_root(_metadata);
	self->fd = etw_open_or_skip(_metadata);
	etw_stop_test_sessions(self->fd);
	etw_test_guid((__u8 *)&self->guid, 0x4e);
	ASSERT_EQ(ERROR_SUCCESS, TdhLoadManifestFromMemory(manifest, sizeof(manifest) - 1));
	ASSERT_EQ(ERROR_SUCCESS, start("etwtest-pf-a", 64, 0, &self->a));
	ASSERT_EQ(ERROR_SUCCESS, start("etwtest-pf-b", 64, 0, &self->b));
	ASSERT_EQ(ERROR_SUCCESS, EventRegister(&self->guid, NULL, NULL, &self->reg));
	ASSERT_EQ(ERROR_SUCCESS, enable(self->a, &self->guid, NULL, 0, NULL));
}

FIXTURE_TEARDOWN(pf)
{
	EventUnregister(self->reg);
	TdhUnloadManifestFromMemory(manifest, sizeof(manifest) - 1);
	if (self->fd >= 0) {
		etw_stop_test_sessions(self->fd);
		close(self->fd);
	}
}

/* Session b with one filter of one predicate; event 1's count in b. */
static long one_predicate(struct __test_metadata *_metadata, FIXTURE_DATA(pf) *self,
			  const char16_t *field, USHORT op, const char16_t *value)
{
	PAYLOAD_FILTER_PREDICATE p = { (LPWSTR)field, op, (LPWSTR)value };
	struct etw_counts c;
	PVOID f = NULL;

	EXPECT_EQ(ERROR_SUCCESS, TdhCreatePayloadFilter(&self->guid, &ev1, FALSE, 1, &p, &f));
	EXPECT_EQ(ERROR_SUCCESS, enable(self->b, &self->guid, &f, 1, NULL));
	TdhDeletePayloadFilter(&f);
	EXPECT_EQ(0, write_all(self->reg));
	EXPECT_LE(0, etw_count(self->fd, LOGGER_ID(self->b), (const __u8 *)&self->guid, &c));
	/* Event 2 is named by no filter: all of it, always. */
	EXPECT_EQ(10, c.by_id[2]);
	return c.by_id[1];
}

/* Both sessions: b keeps what its filter passes, a keeps everything. */
TEST_F(pf, two_sessions)
{
	PAYLOAD_FILTER_PREDICATE p = { (LPWSTR)u"Count", PAYLOADFIELD_GT, (LPWSTR)u"5" };
	const __u8 *g = (const __u8 *)&self->guid;
	struct etw_counts c;
	PVOID f = NULL;

	ASSERT_EQ(ERROR_SUCCESS, TdhCreatePayloadFilter(&self->guid, &ev1, FALSE, 1, &p, &f));
	ASSERT_EQ(ERROR_SUCCESS, enable(self->b, &self->guid, &f, 1, NULL));
	ASSERT_EQ(0, write_all(self->reg));
	ASSERT_LE(0, etw_count(self->fd, LOGGER_ID(self->a), g, &c));
	EXPECT_EQ(10, c.by_id[1]);
	EXPECT_EQ(10, c.by_id[2]);
	ASSERT_LE(0, etw_count(self->fd, LOGGER_ID(self->b), g, &c));
	EXPECT_EQ(4, c.by_id[1]);	/* 6, 7, 8, 9 */
	EXPECT_EQ(10, c.by_id[2]);

	/* Enabled again without it: b gets everything. */
	ASSERT_EQ(ERROR_SUCCESS, enable(self->b, &self->guid, NULL, 0, NULL));
	ASSERT_EQ(0, write_all(self->reg));
	ASSERT_LE(0, etw_count(self->fd, LOGGER_ID(self->b), g, &c));
	EXPECT_EQ(20, c.total);
	TdhDeletePayloadFilter(&f);
}

TEST_F(pf, integer_operators)
{
	EXPECT_EQ(1, one_predicate(_metadata, self, u"Count", PAYLOADFIELD_EQ, u"3"));
	EXPECT_EQ(9, one_predicate(_metadata, self, u"Count", PAYLOADFIELD_NE, u"3"));
	EXPECT_EQ(4, one_predicate(_metadata, self, u"Count", PAYLOADFIELD_LE, u"3"));
	EXPECT_EQ(6, one_predicate(_metadata, self, u"Count", PAYLOADFIELD_GT, u"3"));
	EXPECT_EQ(3, one_predicate(_metadata, self, u"Count", PAYLOADFIELD_LT, u"3"));
	EXPECT_EQ(7, one_predicate(_metadata, self, u"Count", PAYLOADFIELD_GE, u"3"));
	EXPECT_EQ(3, one_predicate(_metadata, self, u"Count", PAYLOADFIELD_BETWEEN, u"2,4"));
	EXPECT_EQ(7, one_predicate(_metadata, self, u"Count", PAYLOADFIELD_NOTBETWEEN, u"2,4"));
	EXPECT_EQ(4, one_predicate(_metadata, self, u"Count", PAYLOADFIELD_MODULO, u"3"));
	/* Delta (n - 5) is signed, and after two variable-length strings. */
	EXPECT_EQ(5, one_predicate(_metadata, self, u"Delta", PAYLOADFIELD_LT, u"0"));
	EXPECT_EQ(4, one_predicate(_metadata, self, u"Delta", PAYLOADFIELD_BETWEEN, u"-2,1"));
	EXPECT_EQ(3, one_predicate(_metadata, self, u"Delta", PAYLOADFIELD_MODULO, u"4"));	/* -4, 0, 4 */
}

TEST_F(pf, string_operators)
{
	/* UTF-16, ASCII letters' case ignored. */
	EXPECT_EQ(5, one_predicate(_metadata, self, u"Name", PAYLOADFIELD_CONTAINS, u"beta"));
	EXPECT_EQ(5, one_predicate(_metadata, self, u"Name", PAYLOADFIELD_DOESNTCONTAIN, u"BETA"));
	EXPECT_EQ(1, one_predicate(_metadata, self, u"Name", PAYLOADFIELD_IS, u"ALPHA-4"));
	EXPECT_EQ(0, one_predicate(_metadata, self, u"Name", PAYLOADFIELD_IS, u"alpha-"));
	EXPECT_EQ(9, one_predicate(_metadata, self, u"Name", PAYLOADFIELD_ISNOT, u"alpha-4"));
	/* ANSI. */
	EXPECT_EQ(1, one_predicate(_metadata, self, u"Tag", PAYLOADFIELD_CONTAINS, u"G7"));
	EXPECT_EQ(10, one_predicate(_metadata, self, u"Tag", PAYLOADFIELD_CONTAINS, u""));
	EXPECT_EQ(1, one_predicate(_metadata, self, u"Tag", PAYLOADFIELD_IS, u"TAG1"));
	EXPECT_EQ(9, one_predicate(_metadata, self, u"Tag", PAYLOADFIELD_DOESNTCONTAIN, u"tag1"));
	EXPECT_EQ(9, one_predicate(_metadata, self, u"Tag", PAYLOADFIELD_ISNOT, u"tag1"));
	/* GUIDs. */
	EXPECT_EQ(1, one_predicate(_metadata, self, u"Id", PAYLOADFIELD_IS, THREE));
	EXPECT_EQ(9, one_predicate(_metadata, self, u"Id", PAYLOADFIELD_ISNOT, THREE));
}

/* EventMatchANY inside a filter, EventMatchALLFlags across filters. */
TEST_F(pf, match_any_all)
{
	PAYLOAD_FILTER_PREDICATE lo = { (LPWSTR)u"Count", PAYLOADFIELD_LT, (LPWSTR)u"2" };
	PAYLOAD_FILTER_PREDICATE hi = { (LPWSTR)u"Count", PAYLOADFIELD_GT, (LPWSTR)u"7" };
	PAYLOAD_FILTER_PREDICATE gt2 = { (LPWSTR)u"Count", PAYLOADFIELD_GT, (LPWSTR)u"2" };
	PAYLOAD_FILTER_PREDICATE lt5 = { (LPWSTR)u"Count", PAYLOADFIELD_LT, (LPWSTR)u"5" };
	PAYLOAD_FILTER_PREDICATE odd = { (LPWSTR)u"Name", PAYLOADFIELD_CONTAINS, (LPWSTR)u"beta" };
	PAYLOAD_FILTER_PREDICATE two[2];
	const __u8 *g = (const __u8 *)&self->guid;
	BOOLEAN flags[3] = { TRUE, TRUE, FALSE };
	struct etw_counts c;
	PVOID f[3] = { NULL, NULL, NULL };

	/* One filter, ANY: n < 2 or n > 7. */
	two[0] = lo;
	two[1] = hi;
	ASSERT_EQ(ERROR_SUCCESS, TdhCreatePayloadFilter(&self->guid, &ev1, TRUE, 2, two, &f[0]));
	ASSERT_EQ(ERROR_SUCCESS, enable(self->b, &self->guid, f, 1, NULL));
	ASSERT_EQ(0, write_all(self->reg));
	ASSERT_LE(0, etw_count(self->fd, LOGGER_ID(self->b), g, &c));
	EXPECT_EQ(4, c.by_id[1]);
	TdhDeletePayloadFilter(&f[0]);

	/* One filter, ALL: 2 < n < 5. */
	two[0] = gt2;
	two[1] = lt5;
	ASSERT_EQ(ERROR_SUCCESS, TdhCreatePayloadFilter(&self->guid, &ev1, FALSE, 2, two, &f[0]));
	ASSERT_EQ(ERROR_SUCCESS, enable(self->b, &self->guid, f, 1, NULL));
	ASSERT_EQ(0, write_all(self->reg));
	ASSERT_LE(0, etw_count(self->fd, LOGGER_ID(self->b), g, &c));
	EXPECT_EQ(2, c.by_id[1]);
	TdhDeletePayloadFilter(&f[0]);

	/* Three filters: the flagged two must pass, and the other one. */
	ASSERT_EQ(ERROR_SUCCESS, TdhCreatePayloadFilter(&self->guid, &ev1, FALSE, 1, &gt2, &f[0]));
	ASSERT_EQ(ERROR_SUCCESS, TdhCreatePayloadFilter(&self->guid, &ev1, FALSE, 1, &hi, &f[1]));
	ASSERT_EQ(ERROR_SUCCESS, TdhCreatePayloadFilter(&self->guid, &ev1, FALSE, 1, &odd, &f[2]));
	ASSERT_EQ(ERROR_SUCCESS, enable(self->b, &self->guid, f, 3, flags));
	ASSERT_EQ(0, write_all(self->reg));
	ASSERT_LE(0, etw_count(self->fd, LOGGER_ID(self->b), g, &c));
	EXPECT_EQ(1, c.by_id[1]);	/* 9 */
	/* Unflagged, all three: any one passing is enough. */
	ASSERT_EQ(ERROR_SUCCESS, enable(self->b, &self->guid, f, 3, NULL));
	ASSERT_EQ(0, write_all(self->reg));
	ASSERT_LE(0, etw_count(self->fd, LOGGER_ID(self->b), g, &c));
	EXPECT_EQ(8, c.by_id[1]);	/* 1, 3..9 */
	for (int i = 0; i < 3; i++)
		TdhDeletePayloadFilter(&f[i]);
}

/* A payload that ends before the field: its predicate is false. */
TEST_F(pf, short_payload)
{
	PAYLOAD_FILTER_PREDICATE p = { (LPWSTR)u"Delta", PAYLOADFIELD_GE, (LPWSTR)u"-100" };
	const __u8 *g = (const __u8 *)&self->guid;
	struct etw_counts c;
	PVOID f = NULL;

	ASSERT_EQ(ERROR_SUCCESS, TdhCreatePayloadFilter(&self->guid, &ev1, FALSE, 1, &p, &f));
	ASSERT_EQ(ERROR_SUCCESS, enable(self->b, &self->guid, &f, 1, NULL));
	for (int fields = 0; fields <= 5; fields++)
		ASSERT_EQ(0, write_one(self->reg, 1, 1, fields));
	ASSERT_LE(0, etw_count(self->fd, LOGGER_ID(self->b), g, &c));
	EXPECT_EQ(2, c.by_id[1]);	/* 4 and 5 fields */
	ASSERT_LE(0, etw_count(self->fd, LOGGER_ID(self->a), g, &c));
	EXPECT_EQ(6, c.by_id[1]);
	TdhDeletePayloadFilter(&f);
}

/* The module checks the blob: another provider's, or altered. */
TEST_F(pf, bad_filters)
{
	PAYLOAD_FILTER_PREDICATE p = { (LPWSTR)u"Count", PAYLOADFIELD_GT, (LPWSTR)u"5" };
	ENABLE_TRACE_PARAMETERS prm = { .Version = ENABLE_TRACE_PARAMETERS_VERSION_2,
					.FilterDescCount = 1 };
	EVENT_FILTER_DESCRIPTOR d;
	GUID other = self->guid;
	struct etw_pf_header *h;
	struct etw_pf_event *ev;
	PVOID f = NULL;

	ASSERT_EQ(ERROR_SUCCESS, TdhCreatePayloadFilter(&self->guid, &ev1, FALSE, 1, &p, &f));
	ASSERT_EQ(ERROR_SUCCESS, TdhAggregatePayloadFilters(1, &f, NULL, &d));
	prm.EnableFilterDesc = &d;
	other.Data1 ^= 1;
	EXPECT_EQ(ERROR_INVALID_PARAMETER, EnableTraceEx2(self->b, &other, 1, 0, 0, 0, 0, &prm));
	h = (struct etw_pf_header *)(uintptr_t)d.Ptr;
	ev = (struct etw_pf_event *)(h + 1);
	h->magic ^= 1;
	EXPECT_EQ(ERROR_INVALID_PARAMETER, EnableTraceEx2(self->b, &self->guid, 1, 0, 0, 0, 0, &prm));
	h->magic ^= 1;
	ev->pred_count = ETW_PF_MAX_PREDICATES + 1;
	EXPECT_EQ(ERROR_INVALID_PARAMETER, EnableTraceEx2(self->b, &self->guid, 1, 0, 0, 0, 0, &prm));
	ev->pred_count = 1;
	ev->size += 8;
	EXPECT_EQ(ERROR_INVALID_PARAMETER, EnableTraceEx2(self->b, &self->guid, 1, 0, 0, 0, 0, &prm));
	ev->size -= 8;
	EXPECT_EQ(ERROR_SUCCESS, EnableTraceEx2(self->b, &self->guid, 1, 0, 0, 0, 0, &prm));
	TdhCleanupPayloadEventFilterDescriptor(&d);
	TdhDeletePayloadFilter(&f);
}

TEST_HARNESS_MAIN
