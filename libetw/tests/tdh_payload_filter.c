// SPDX-License-Identifier: GPL-2.0
/*
 * The TDH payload-filter functions: TdhCreatePayloadFilter resolves each
 * predicate against a manifest event (field, comparison type, value
 * parsed from its string), TdhAggregatePayloadFilters lays the filters
 * out as the module reads them (uapi struct etw_pf_header), and every
 * bad input is refused with its Win32 code.  The module's evaluation of
 * the blob is payload_filter_test's (selftests).
 */
#include <stdlib.h>
#include <string.h>

#include "kselftest_harness.h"

#include <linux/etw.h>
#include <tdh.h>

static const char manifest[] =
	"<instrumentationManifest><instrumentation><events>"
	"<provider name=\"Pf\" guid=\"{5b2c3d4e-1f20-4a3b-9c8d-7e6f5a4b3c2d}\">"
	"<templates>"
	"<template tid=\"T\">"
	"<data name=\"Count\" inType=\"win:UInt32\"/>"
	"<data name=\"Delta\" inType=\"win:Int16\"/>"
	"<data name=\"Name\" inType=\"win:UnicodeString\"/>"
	"<data name=\"Tag\" inType=\"win:AnsiString\"/>"
	"<data name=\"Id\" inType=\"win:GUID\"/>"
	"<data name=\"Big\" inType=\"win:UInt64\"/>"
	"<data name=\"Ratio\" inType=\"win:Float\"/>"
	"<data name=\"When\" inType=\"win:FILETIME\"/>"
	"<data name=\"Small\" inType=\"win:Int8\"/>"
	"<data name=\"Blob\" inType=\"win:Binary\" length=\"4\"/>"
	"</template>"
	"<template tid=\"S\">"
	"<data name=\"User\" inType=\"win:SID\"/>"
	"<data name=\"After\" inType=\"win:UInt32\"/>"
	"</template>"
	"</templates>"
	"<events>"
	"<event value=\"1\" version=\"0\" template=\"T\"/>"
	"<event value=\"2\" version=\"1\" template=\"S\"/>"
	"<event value=\"3\" version=\"0\"/>"
	"</events></provider>"
	"</events></instrumentation></instrumentationManifest>";

static const GUID pf_guid = { 0x5b2c3d4e, 0x1f20, 0x4a3b,
			      { 0x9c, 0x8d, 0x7e, 0x6f, 0x5a, 0x4b, 0x3c, 0x2d } };
static const EVENT_DESCRIPTOR ev1 = { .Id = 1 };
static const EVENT_DESCRIPTOR ev2 = { .Id = 2, .Version = 1 };

#define PRED(f, o, v)	{ (LPWSTR)u##f, (o), (LPWSTR)u##v }

/* One predicate on event 1: its status, and the predicate the filter holds. */
static ULONG one(const char16_t *field, USHORT op, const char16_t *value,
		 struct etw_pf_pred *out, struct etw_pf_event *hdr)
{
	PAYLOAD_FILTER_PREDICATE p = { (LPWSTR)field, op, (LPWSTR)value };
	EVENT_FILTER_DESCRIPTOR d;
	PVOID f = NULL;
	ULONG err = TdhCreatePayloadFilter(&pf_guid, &ev1, FALSE, 1, &p, &f);

	if (err)
		return err;
	if (TdhAggregatePayloadFilters(1, &f, NULL, &d) == ERROR_SUCCESS) {
		const struct etw_pf_event *ev =
			(const void *)((const BYTE *)(uintptr_t)d.Ptr +
				       sizeof(struct etw_pf_header));
		size_t at = (sizeof(*ev) + ev->field_count * sizeof(struct etw_pf_field) + 7) & ~7ul;

		*hdr = *ev;
		memcpy(out, (const BYTE *)ev + at, sizeof(*out));
		TdhCleanupPayloadEventFilterDescriptor(&d);
	}
	TdhDeletePayloadFilter(&f);
	return ERROR_SUCCESS;
}

FIXTURE(pf) {
	int unused;
};

FIXTURE_SETUP(pf)
{
	ASSERT_EQ(ERROR_SUCCESS, TdhLoadManifestFromMemory(manifest, sizeof(manifest) - 1));
}

FIXTURE_TEARDOWN(pf)
{
	EXPECT_EQ(ERROR_SUCCESS, TdhUnloadManifestFromMemory(manifest, sizeof(manifest) - 1));
}

/* Every integer operator: its code, the field's type and the values. */
TEST_F(pf, integer_operators)
{
	static const struct {
		USHORT op;
		const char16_t *v;
		unsigned long long a, b;
	} cases[] = {
		{ PAYLOADFIELD_EQ, u"7", 7, 0 },
		{ PAYLOADFIELD_NE, u"0x10", 16, 0 },
		{ PAYLOADFIELD_LE, u"4294967295", 4294967295ull, 0 },
		{ PAYLOADFIELD_GT, u" 3 ", 3, 0 },
		{ PAYLOADFIELD_LT, u"0", 0, 0 },
		{ PAYLOADFIELD_GE, u"0XfF", 255, 0 },
		{ PAYLOADFIELD_BETWEEN, u"2,9", 2, 9 },
		{ PAYLOADFIELD_NOTBETWEEN, u"10, 20", 10, 20 },
		{ PAYLOADFIELD_MODULO, u"3", 3, 0 },
	};
	struct etw_pf_event h;
	struct etw_pf_pred p;

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		ASSERT_EQ(ERROR_SUCCESS, one(u"Count", cases[i].op, cases[i].v, &p, &h));
		EXPECT_EQ(cases[i].op, p.op);
		EXPECT_EQ(ETW_PF_T_UINT, p.type);
		EXPECT_EQ(0, p.field);
		EXPECT_EQ(cases[i].a, p.value[0]);
		EXPECT_EQ(cases[i].b, p.value[1]);
		EXPECT_EQ(1, h.field_count);
		EXPECT_EQ(1, h.id);
	}
	/* Signed fields keep the sign, sign-extended. */
	ASSERT_EQ(ERROR_SUCCESS, one(u"Delta", PAYLOADFIELD_BETWEEN, u"-32768,-1", &p, &h));
	EXPECT_EQ(ETW_PF_T_INT, p.type);
	EXPECT_EQ(1, p.field);
	EXPECT_EQ((unsigned long long)-32768, p.value[0]);
	EXPECT_EQ((unsigned long long)-1, p.value[1]);
	ASSERT_EQ(ERROR_SUCCESS, one(u"Big", PAYLOADFIELD_EQ, u"18446744073709551615", &p, &h));
	EXPECT_EQ(~0ull, p.value[0]);
	EXPECT_EQ(6, h.field_count);
	/* FILETIME is an integer; so is an Int8 after every other field. */
	ASSERT_EQ(ERROR_SUCCESS, one(u"When", PAYLOADFIELD_GT, u"1", &p, &h));
	EXPECT_EQ(ETW_PF_T_UINT, p.type);
	ASSERT_EQ(ERROR_SUCCESS, one(u"Small", PAYLOADFIELD_LT, u"-128", &p, &h));
	EXPECT_EQ(ETW_PF_T_INT, p.type);
	EXPECT_EQ(9, h.field_count);
}

/* String and GUID operators: the value in the field's encoding. */
TEST_F(pf, string_operators)
{
	static const USHORT ops[] = { PAYLOADFIELD_CONTAINS, PAYLOADFIELD_DOESNTCONTAIN,
				      PAYLOADFIELD_IS, PAYLOADFIELD_ISNOT };
	struct etw_pf_event h;
	struct etw_pf_pred p;

	for (size_t i = 0; i < 4; i++) {
		ASSERT_EQ(ERROR_SUCCESS, one(u"Name", ops[i], u"abc", &p, &h));
		EXPECT_EQ(ops[i], p.op);
		EXPECT_EQ(ETW_PF_T_STR16, p.type);
		EXPECT_EQ(6, p.str_len);
		ASSERT_EQ(ERROR_SUCCESS, one(u"Tag", ops[i], u"d\u00e9f", &p, &h));
		EXPECT_EQ(ETW_PF_T_STR8, p.type);
		EXPECT_EQ(4, p.str_len);	/* UTF-8 */
		EXPECT_EQ(4, h.field_count);
	}
	ASSERT_EQ(ERROR_SUCCESS, one(u"Id", PAYLOADFIELD_IS,
				     u"{5b2c3d4e-1f20-4a3b-9c8d-7e6f5a4b3c2d}", &p, &h));
	EXPECT_EQ(ETW_PF_T_GUID, p.type);
	EXPECT_EQ(0, memcmp(p.value, &pf_guid, 16));
	ASSERT_EQ(ERROR_SUCCESS, one(u"Id", PAYLOADFIELD_ISNOT,
				     u"{5B2C3D4E-1F20-4A3B-9C8D-7E6F5A4B3C2D}", &p, &h));
	EXPECT_EQ(PAYLOADFIELD_ISNOT, p.op);
}

/* Operators that do not fit, values that do not parse or fit. */
TEST_F(pf, bad_predicates)
{
	struct etw_pf_event h;
	struct etw_pf_pred p;

	EXPECT_EQ(ERROR_INVALID_PARAMETER, one(u"Count", PAYLOADFIELD_CONTAINS, u"1", &p, &h));
	EXPECT_EQ(ERROR_INVALID_PARAMETER, one(u"Name", PAYLOADFIELD_EQ, u"1", &p, &h));
	EXPECT_EQ(ERROR_INVALID_PARAMETER, one(u"Id", PAYLOADFIELD_CONTAINS, u"{", &p, &h));
	EXPECT_EQ(ERROR_INVALID_PARAMETER, one(u"Count", PAYLOADFIELD_INVALID, u"1", &p, &h));
	EXPECT_EQ(ERROR_INVALID_PARAMETER, one(u"Count", 9, u"1", &p, &h));
	EXPECT_EQ(ERROR_INVALID_PARAMETER, one(u"Count", 0xffff, u"1", &p, &h));
	EXPECT_EQ(ERROR_INVALID_PARAMETER, one(u"Count", PAYLOADFIELD_EQ, u"", &p, &h));
	EXPECT_EQ(ERROR_INVALID_PARAMETER, one(u"Count", PAYLOADFIELD_EQ, u"12x", &p, &h));
	EXPECT_EQ(ERROR_INVALID_PARAMETER, one(u"Count", PAYLOADFIELD_EQ, u"-1", &p, &h));
	EXPECT_EQ(ERROR_INVALID_PARAMETER, one(u"Count", PAYLOADFIELD_EQ, u"4294967296", &p, &h));
	EXPECT_EQ(ERROR_INVALID_PARAMETER, one(u"Delta", PAYLOADFIELD_EQ, u"32768", &p, &h));
	EXPECT_EQ(ERROR_INVALID_PARAMETER, one(u"Delta", PAYLOADFIELD_EQ, u"-32769", &p, &h));
	EXPECT_EQ(ERROR_INVALID_PARAMETER, one(u"Big", PAYLOADFIELD_EQ, u"18446744073709551616", &p, &h));
	EXPECT_EQ(ERROR_INVALID_PARAMETER, one(u"Count", PAYLOADFIELD_BETWEEN, u"1", &p, &h));
	EXPECT_EQ(ERROR_INVALID_PARAMETER, one(u"Count", PAYLOADFIELD_BETWEEN, u"1,2,3", &p, &h));
	EXPECT_EQ(ERROR_INVALID_PARAMETER, one(u"Count", PAYLOADFIELD_EQ, u"1,2", &p, &h));
	EXPECT_EQ(ERROR_INVALID_PARAMETER, one(u"Count", PAYLOADFIELD_MODULO, u"0", &p, &h));
	EXPECT_EQ(ERROR_INVALID_PARAMETER, one(u"Delta", PAYLOADFIELD_MODULO, u"-2", &p, &h));
	EXPECT_EQ(ERROR_INVALID_PARAMETER, one(u"Id", PAYLOADFIELD_IS,
					       u"5b2c3d4e-1f20-4a3b-9c8d-7e6f5a4b3c2d", &p, &h));
	/* Types Windows does not filter on; a field no one can find. */
	EXPECT_EQ(ERROR_NOT_SUPPORTED, one(u"Ratio", PAYLOADFIELD_EQ, u"1", &p, &h));
	EXPECT_EQ(ERROR_NOT_SUPPORTED, one(u"Blob", PAYLOADFIELD_IS, u"1", &p, &h));
	/* Names are the manifest's, exactly. */
	EXPECT_EQ(ERROR_NOT_FOUND, one(u"count", PAYLOADFIELD_EQ, u"1", &p, &h));
	EXPECT_EQ(ERROR_NOT_FOUND, one(u"Nope", PAYLOADFIELD_EQ, u"1", &p, &h));
}

/* The arguments themselves, the event, the limits. */
TEST_F(pf, bad_arguments)
{
	PAYLOAD_FILTER_PREDICATE p[MAX_PAYLOAD_PREDICATES + 1];
	PAYLOAD_FILTER_PREDICATE after = PRED("After", PAYLOADFIELD_EQ, "1");
	EVENT_DESCRIPTOR none = { .Id = 9 }, wrong_version = { .Id = 1, .Version = 1 };
	GUID other = pf_guid;
	PVOID f = (PVOID)1;

	for (size_t i = 0; i <= MAX_PAYLOAD_PREDICATES; i++)
		p[i] = (PAYLOAD_FILTER_PREDICATE)PRED("Count", PAYLOADFIELD_GT, "1");
	EXPECT_EQ(8, ETW_MAX_PAYLOAD_PREDICATES);
	EXPECT_EQ(ERROR_INVALID_PARAMETER, TdhCreatePayloadFilter(NULL, &ev1, 0, 1, p, &f));
	EXPECT_EQ(ERROR_INVALID_PARAMETER, TdhCreatePayloadFilter(&pf_guid, NULL, 0, 1, p, &f));
	EXPECT_EQ(ERROR_INVALID_PARAMETER, TdhCreatePayloadFilter(&pf_guid, &ev1, 0, 0, p, &f));
	EXPECT_EQ(ERROR_INVALID_PARAMETER, TdhCreatePayloadFilter(&pf_guid, &ev1, 0, 1, NULL, &f));
	EXPECT_EQ(ERROR_INVALID_PARAMETER, TdhCreatePayloadFilter(&pf_guid, &ev1, 0, 1, p, NULL));
	EXPECT_EQ(ERROR_INVALID_PARAMETER, TdhCreatePayloadFilter(&pf_guid, &ev1, 0, 9, p, &f));
	p[0].FieldName = NULL;
	EXPECT_EQ(ERROR_INVALID_PARAMETER, TdhCreatePayloadFilter(&pf_guid, &ev1, 0, 1, p, &f));
	p[0].FieldName = (LPWSTR)u"Count";
	p[0].Value = NULL;
	EXPECT_EQ(ERROR_INVALID_PARAMETER, TdhCreatePayloadFilter(&pf_guid, &ev1, 0, 1, p, &f));
	p[0].Value = (LPWSTR)u"1";
	EXPECT_EQ(NULL, f);	/* cleared on failure */

	/* No such event, version or provider. */
	EXPECT_EQ(ERROR_NOT_FOUND, TdhCreatePayloadFilter(&pf_guid, &none, 0, 1, p, &f));
	EXPECT_EQ(ERROR_NOT_FOUND, TdhCreatePayloadFilter(&pf_guid, &wrong_version, 0, 1, p, &f));
	other.Data1 ^= 1;
	EXPECT_EQ(ERROR_NOT_FOUND, TdhCreatePayloadFilter(&other, &ev1, 0, 1, p, &f));
	/* A field after a SID cannot be found by the kernel. */
	EXPECT_EQ(ERROR_NOT_SUPPORTED, TdhCreatePayloadFilter(&pf_guid, &ev2, 0, 1, &after, &f));

	/* Eight predicates, EventMatchANY: the flag and every predicate. */
	ASSERT_EQ(ERROR_SUCCESS, TdhCreatePayloadFilter(&pf_guid, &ev1, TRUE, 8, p, &f));
	EXPECT_EQ(ERROR_SUCCESS, TdhDeletePayloadFilter(&f));
	EXPECT_EQ(NULL, f);
	EXPECT_EQ(ERROR_INVALID_PARAMETER, TdhDeletePayloadFilter(&f));
	EXPECT_EQ(ERROR_INVALID_PARAMETER, TdhDeletePayloadFilter(NULL));
}

/* Aggregation: one blob, one provider, EventMatchALLFlags per filter. */
TEST_F(pf, aggregate)
{
	PAYLOAD_FILTER_PREDICATE a[2] = { PRED("Count", PAYLOADFIELD_GT, "1"),
					  PRED("Name", PAYLOADFIELD_IS, "x") };
	PAYLOAD_FILTER_PREDICATE b = PRED("Delta", PAYLOADFIELD_LT, "0");
	BOOLEAN all[2] = { TRUE, FALSE };
	EVENT_FILTER_DESCRIPTOR d;
	PVOID f[3] = { NULL, NULL, NULL };
	const struct etw_pf_header *h;
	const struct etw_pf_event *e0, *e1;
	ULONG junk[8] = { 0 };

	ASSERT_EQ(ERROR_SUCCESS, TdhCreatePayloadFilter(&pf_guid, &ev1, TRUE, 2, a, &f[0]));
	ASSERT_EQ(ERROR_SUCCESS, TdhCreatePayloadFilter(&pf_guid, &ev1, FALSE, 1, &b, &f[1]));
	ASSERT_EQ(ERROR_SUCCESS, TdhAggregatePayloadFilters(2, f, all, &d));
	EXPECT_EQ(EVENT_FILTER_TYPE_PAYLOAD, d.Type);
	h = (const void *)(uintptr_t)d.Ptr;
	EXPECT_EQ(ETW_PF_MAGIC, h->magic);
	EXPECT_EQ(d.Size, h->size);
	EXPECT_EQ(2, h->count);
	EXPECT_EQ(0, memcmp(h->guid, &pf_guid, 16));
	e0 = (const void *)(h + 1);
	e1 = (const void *)((const BYTE *)e0 + e0->size);
	EXPECT_EQ(ETW_PF_F_ANY | ETW_PF_F_ALL, e0->flags);
	EXPECT_EQ(2, e0->pred_count);
	EXPECT_EQ(3, e0->field_count);
	EXPECT_EQ(0, e1->flags);
	EXPECT_EQ(d.Size, sizeof(*h) + e0->size + e1->size);
	EXPECT_EQ(0, e0->size % 8);
	EXPECT_EQ(ERROR_SUCCESS, TdhCleanupPayloadEventFilterDescriptor(&d));
	EXPECT_EQ(0, d.Ptr);
	EXPECT_EQ(ERROR_INVALID_PARAMETER, TdhCleanupPayloadEventFilterDescriptor(&d));
	EXPECT_EQ(ERROR_INVALID_PARAMETER, TdhCleanupPayloadEventFilterDescriptor(NULL));

	/* No flags: none set. */
	ASSERT_EQ(ERROR_SUCCESS, TdhAggregatePayloadFilters(2, f, NULL, &d));
	e0 = (const void *)((const struct etw_pf_header *)(uintptr_t)d.Ptr + 1);
	EXPECT_EQ(ETW_PF_F_ANY, e0->flags);
	TdhCleanupPayloadEventFilterDescriptor(&d);

	/* Bad input: counts, pointers, something that is no filter. */
	EXPECT_EQ(ERROR_INVALID_PARAMETER, TdhAggregatePayloadFilters(0, f, NULL, &d));
	EXPECT_EQ(ERROR_INVALID_PARAMETER, TdhAggregatePayloadFilters(2, NULL, NULL, &d));
	EXPECT_EQ(ERROR_INVALID_PARAMETER, TdhAggregatePayloadFilters(2, f, NULL, NULL));
	EXPECT_EQ(ERROR_INVALID_PARAMETER, TdhAggregatePayloadFilters(3, f, NULL, &d));
	f[2] = junk;
	EXPECT_EQ(ERROR_INVALID_PARAMETER, TdhAggregatePayloadFilters(3, f, NULL, &d));

	/* Too many filters for MAX_EVENT_FILTER_PAYLOAD_SIZE. */
	{
		PVOID many[64];

		for (int i = 0; i < 64; i++)
			many[i] = f[0];
		EXPECT_EQ(ERROR_INSUFFICIENT_BUFFER, TdhAggregatePayloadFilters(64, many, NULL, &d));
	}
	TdhDeletePayloadFilter(&f[0]);
	TdhDeletePayloadFilter(&f[1]);
}

TEST_HARNESS_MAIN
