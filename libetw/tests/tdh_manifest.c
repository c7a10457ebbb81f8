// SPDX-License-Identifier: GPL-2.0
/*
 * The TDH functions over manifest events.  A provider built from the
 * header `etw mc` makes of testdata/manifests/etw-test-types.man writes
 * every event; its data descriptors (recorded in place of libetw's
 * EventWriteTransfer, tl_recorder.h) become the EVENT_RECORD a consumer
 * gets, and the TDH functions give the values back: a consumer written
 * in the manner of Microsoft's "Using TdhFormatProperty to Consume Event
 * Data" (our own code) prints every property, TdhGetProperty reads
 * members and array elements, and each function's errors are Windows'.
 */
#define LIBETW_NO_INLINE_ENABLED
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kselftest_harness.h"
#include "tl_recorder.h"

#include <tdh.h>

#include "etw-test-types.h"
#include "tdh_consumer.h"

#define TYPES_MAN u"testdata/manifests/etw-test-types.man"


/* The event the recorded descriptors make, as ProcessTrace gives it. */
struct rec_event {
	EVENT_RECORD er;
	UCHAR data[4096];
};

static void make_record(struct rec_event *r)
{
	ULONG n = 0;

	memset(r, 0, sizeof(*r));
	r->er.EventHeader.ProviderId = ETW_TEST_MANIFEST;
	r->er.EventHeader.EventDescriptor = rec.desc;
	r->er.EventHeader.Flags = EVENT_HEADER_FLAG_64_BIT_HEADER;
	/*
	 * Descriptor 0 is the provider traits: not user data.  The bytes are
	 * the recorder's copies: what a descriptor pointed to may be gone.
	 */
	for (ULONG i = 1; i < rec.count; i++) {
		memcpy(r->data + n, rec.bytes[i], rec.data[i].Size);
		n += rec.data[i].Size;
	}
	r->er.UserData = r->data;
	r->er.UserDataLength = (USHORT)n;
}

FIXTURE(tdh) {
	struct rec_event r;
	struct consumer c;
};

FIXTURE_SETUP(tdh)
{
	memset(&self->c, 0, sizeof(self->c));
	memset(&rec, 0, sizeof(rec));
	ASSERT_EQ(ERROR_SUCCESS, TdhLoadManifest((PWSTR)TYPES_MAN));
	ASSERT_EQ(ERROR_SUCCESS, EventRegisterEtw_Test_Manifest());
	rec.callback(NULL, EVENT_CONTROL_CODE_ENABLE_PROVIDER, 0, ~0ULL, 0, NULL,
		     rec.context);
}

FIXTURE_TEARDOWN(tdh)
{
	free(self->c.out);
	EventUnregisterEtw_Test_Manifest();
	EXPECT_EQ(ERROR_SUCCESS, TdhUnloadManifest((PWSTR)TYPES_MAN));
}

static void strings_event(void)
{
	static const unsigned char sid[] = { 1, 2, 0, 0, 0, 0, 0, 5, 32, 0, 0, 0,
					     32, 2, 0, 0 };
	static unsigned char blob[] = { 1, 2, 3 }, ip6[16] = { 0x20, 0x01, 0x0d, 0xb8 };
	GUID g = { 1, 2, 3, { 4, 5, 6, 7, 8, 9, 10, 11 } };
	FILETIME ft = { 0xd53e8000, 0x01d9625a };
	SYSTEMTIME st = { 2023, 3, 3, 29, 15, 12, 38, 17 };

	EventWriteStringsEvent(u"wide", "ansi", "utf8 \xc3\xa9", u"abcd", 2, u"cw", 2,
			       "ca", 3, blob, &g, &ft, &st, sid, 3, blob, ip6,
			       u"<x/>");
}

TEST_F(tdh, event_information)
{
	PTRACE_EVENT_INFO info;
	char s[256];
	ULONG status;

	EventWriteIntsEvent(-1, 2, 0xab, -3, 4, 0x5000, -6, 7, 8, 9, 0x0100007f, 5,
			    0xC0000005, (int)0x80004005, -10, 11, 0x12, 0x13,
			    (void *)0x1234, 1, 1.5f, 2.25);
	make_record(&self->r);
	info = event_info(&self->r.er, &status);
	ASSERT_NE(NULL, info) TH_LOG("status %lu", (unsigned long)status);
	EXPECT_EQ(DecodingSourceXMLFile, info->DecodingSource);
	EXPECT_EQ(22, info->PropertyCount);
	EXPECT_EQ(22, info->TopLevelPropertyCount);
	EXPECT_EQ(TEMPLATE_EVENT_DATA, info->Flags & 3);
	EXPECT_EQ(0x0a1b2c3d, info->EventGuid.Data1);	/* the task's eventGUID */
	narrow(TEI_PROVIDER_NAME(info), s, sizeof(s));
	EXPECT_STREQ("Etw-Test-Manifest", s);
	narrow(TEI_TASK_NAME(info), s, sizeof(s));
	EXPECT_STREQ("Connect", s);
	narrow(TEI_OPCODE_NAME(info), s, sizeof(s));
	EXPECT_STREQ("Handshake", s);
	narrow(TEI_LEVEL_NAME(info), s, sizeof(s));
	EXPECT_STREQ("Information", s);
	narrow(TEI_CHANNEL_NAME(info), s, sizeof(s));
	EXPECT_STREQ("Operational", s);
	narrow(TEI_KEYWORDS_NAME(info), s, sizeof(s));
	EXPECT_STREQ("Network", s);
	/* One keyword: its name, then the empty string ending the list. */
	EXPECT_EQ(0, TEI_KEYWORDS_NAME(info)[7]);
	EXPECT_EQ(0, TEI_KEYWORDS_NAME(info)[8]);
	narrow(TEI_EVENT_MESSAGE(info), s, sizeof(s));
	EXPECT_STREQ("Ints: %1 %2 port %6 pid %9, error %12%n(100%% done)", s);
	narrow(TEI_PROVIDER_MESSAGE(info), s, sizeof(s));
	EXPECT_STREQ("Etw test provider", s);
	EXPECT_EQ(TDH_INTYPE_UINT8, info->EventPropertyInfoArray[2].nonStructType.InType);
	EXPECT_EQ(TDH_OUTTYPE_HEXINT8, info->EventPropertyInfoArray[2].nonStructType.OutType);
	/* Fixed-size types carry their size in length, as Windows' TDH does. */
	EXPECT_EQ(1, info->EventPropertyInfoArray[2].length);
	EXPECT_EQ(4, info->EventPropertyInfoArray[7].length);
	EXPECT_EQ(8, info->EventPropertyInfoArray[21].length);
	EXPECT_EQ(0, info->EventPropertyInfoArray[18].length);	/* pointer */
	EXPECT_EQ(0, info->EventPropertyInfoArray[7].Flags);
	free(info);
}

/*
 * KeywordsNameOffset is Windows' list of strings, each NUL-terminated,
 * ended by an empty one; no keywords, no list.
 */
TEST_F(tdh, keyword_names_list)
{
	PTRACE_EVENT_INFO info;
	const WCHAR *k;
	char s[256];
	ULONG status;

	strings_event();
	make_record(&self->r);
	info = event_info(&self->r.er, &status);
	ASSERT_NE(NULL, info) TH_LOG("status %lu", (unsigned long)status);
	ASSERT_NE(0, info->KeywordsNameOffset);
	k = TEI_KEYWORDS_NAME(info);
	narrow(k, s, sizeof(s));
	EXPECT_STREQ("Network", s);
	k += 8;
	narrow(k, s, sizeof(s));
	EXPECT_STREQ("Disk", s);
	EXPECT_EQ(0, k[5]);
	free(info);

	EventWriteEmptyEvent();
	make_record(&self->r);
	info = event_info(&self->r.er, &status);
	ASSERT_NE(NULL, info) TH_LOG("status %lu", (unsigned long)status);
	EXPECT_EQ(0, info->KeywordsNameOffset);
	free(info);
}

TEST_F(tdh, consumer_ints)
{
	EventWriteIntsEvent(-1, 2, 0xab, -3, 4, 0x5000, -6, 7, 8, 9, 0x0100007f, 5,
			    0xC0000005, (int)0x80004005, -10, 11, 0x12, 0x13,
			    (void *)0x1234, 1, 1.5f, 2.25);
	make_record(&self->r);
	EXPECT_STREQ("I8=-1;U8=2;U8Hex=0xAB;I16=-3;U16=4;Port=80;I32=-6;U32=7;Pid=8;"
		     "Tid=9;Ip4=127.0.0.1;Err=0x5;Nt=0xC0000005;Hr=0x80004005;I64=-10;"
		     "U64=11;H32=0x12;H64=0x13;Ptr=0x1234;Bool=true;F32=1.5;F64=2.25;",
		     consume(&self->r.er, &self->c));
	EXPECT_EQ(ERROR_SUCCESS, self->c.status);
}

TEST_F(tdh, consumer_strings)
{
	strings_event();
	make_record(&self->r);
	EXPECT_STREQ("Wide=wide;Ansi=ansi;Utf8=utf8 \xc3\xa9;Fixed=abcd;CWide=cw;CAnsi=ca;"
		     "CBin=0x010203;Guid={00000001-0002-0003-0405-060708090A0B};"
		     "FileTime=2023-03-29T16:23:44.8361984Z;SysTime=2023-03-29T15:12:38.017;"
		     "Sid=S-1-5-32-544;Len=3;Blob=0x010203;Ip6=2001:db8::;Xml=<x/>;",
		     consume(&self->r.er, &self->c));
	EXPECT_EQ(ERROR_SUCCESS, self->c.status);
}

TEST_F(tdh, consumer_arrays_structs_maps)
{
	unsigned int vals[2] = { 100, 200 };
	unsigned char f3[3] = { 7, 8, 9 };
	int pts[4] = { 1, -1, 2, -2 };

	EventWriteArraysEvent(2, vals, f3, sizeof(pts), pts, 1, 5);
	make_record(&self->r);
	EXPECT_STREQ("Count=2;Values=[100, 200];Fixed3=[7, 8, 9];Points[0].X=1;Points[0].Y=-1;Points[1].X=2;"
		     "Points[1].Y=-2;State=Busy;Flags=Read | Exec;",
		     consume(&self->r.er, &self->c));
	EXPECT_EQ(ERROR_SUCCESS, self->c.status);
}

TEST_F(tdh, get_property)
{
	PROPERTY_DATA_DESCRIPTOR pd[2] = { 0 };
	unsigned int vals[2] = { 100, 200 };
	unsigned char f3[3] = { 7, 8, 9 };
	int pts[4] = { 1, -1, 2, -2 };
	ULONG size = 0;
	BYTE buf[32];
	int v;

	EventWriteArraysEvent(2, vals, f3, sizeof(pts), pts, 1, 5);
	make_record(&self->r);
	/* A whole array, an element, a member of a struct element. */
	pd[0].PropertyName = (ULONGLONG)(uintptr_t)u"Values";
	pd[0].ArrayIndex = ALL_ELEMENTS;
	ASSERT_EQ(ERROR_SUCCESS, TdhGetPropertySize(&self->r.er, 0, NULL, 1, pd, &size));
	EXPECT_EQ(8, size);
	pd[0].ArrayIndex = 1;
	ASSERT_EQ(ERROR_SUCCESS, TdhGetPropertySize(&self->r.er, 0, NULL, 1, pd, &size));
	EXPECT_EQ(4, size);
	ASSERT_EQ(ERROR_SUCCESS, TdhGetProperty(&self->r.er, 0, NULL, 1, pd, sizeof(buf), buf));
	EXPECT_EQ(200, buf[0]);
	pd[0].PropertyName = (ULONGLONG)(uintptr_t)u"Points";
	pd[0].ArrayIndex = 1;
	pd[1].PropertyName = (ULONGLONG)(uintptr_t)u"Y";
	pd[1].ArrayIndex = ALL_ELEMENTS;
	ASSERT_EQ(ERROR_SUCCESS, TdhGetPropertySize(&self->r.er, 0, NULL, 2, pd, &size));
	EXPECT_EQ(4, size);
	ASSERT_EQ(ERROR_SUCCESS, TdhGetProperty(&self->r.er, 0, NULL, 2, pd, sizeof(v), (PBYTE)&v));
	EXPECT_EQ(-2, v);
	/* The whole struct array: 2 elements of 8 bytes. */
	pd[0].ArrayIndex = ALL_ELEMENTS;
	ASSERT_EQ(ERROR_SUCCESS, TdhGetPropertySize(&self->r.er, 0, NULL, 1, pd, &size));
	EXPECT_EQ(16, size);

	/* Errors: no such name, element past the end, a buffer too small. */
	pd[0].PropertyName = (ULONGLONG)(uintptr_t)u"Nope";
	EXPECT_EQ(ERROR_NOT_FOUND, TdhGetPropertySize(&self->r.er, 0, NULL, 1, pd, &size));
	pd[0].PropertyName = (ULONGLONG)(uintptr_t)u"Values";
	pd[0].ArrayIndex = 2;
	EXPECT_EQ(ERROR_INVALID_PARAMETER, TdhGetPropertySize(&self->r.er, 0, NULL, 1, pd, &size));
	pd[0].ArrayIndex = ALL_ELEMENTS;
	EXPECT_EQ(ERROR_INSUFFICIENT_BUFFER, TdhGetProperty(&self->r.er, 0, NULL, 1, pd, 4, buf));
	/* A member of something that is not a struct. */
	pd[1].PropertyName = (ULONGLONG)(uintptr_t)u"X";
	EXPECT_EQ(ERROR_INVALID_PARAMETER, TdhGetPropertySize(&self->r.er, 0, NULL, 2, pd, &size));
	EXPECT_EQ(ERROR_INVALID_PARAMETER, TdhGetPropertySize(&self->r.er, 0, NULL, 0, pd, &size));
	EXPECT_EQ(ERROR_INVALID_PARAMETER, TdhGetPropertySize(NULL, 0, NULL, 1, pd, &size));
	EXPECT_EQ(ERROR_INVALID_PARAMETER, TdhGetProperty(&self->r.er, 0, NULL, 1, pd, 4, NULL));
	/* Data that does not match: Count says 2, the data has less. */
	self->r.er.UserDataLength = 6;
	EXPECT_EQ(ERROR_EVT_INVALID_EVENT_DATA,
		  TdhGetPropertySize(&self->r.er, 0, NULL, 1, pd, &size));
}

TEST_F(tdh, event_information_errors)
{
	TDH_CONTEXT ctx[2] = { { 8, TDH_CONTEXT_POINTERSIZE, 0 },
			       { 4, TDH_CONTEXT_POINTERSIZE, 0 } };
	ULONG size = 10, need;
	BYTE small[10];

	EventWriteEmptyEvent();
	make_record(&self->r);
	EXPECT_EQ(ERROR_INSUFFICIENT_BUFFER,
		  TdhGetEventInformation(&self->r.er, 0, NULL, (PTRACE_EVENT_INFO)small, &size));
	EXPECT_LT(sizeof(TRACE_EVENT_INFO) - 1, size);	/* the size needed */
	need = size;
	size = 0;
	EXPECT_EQ(ERROR_INSUFFICIENT_BUFFER,
		  TdhGetEventInformation(&self->r.er, 1, ctx, NULL, &size));
	EXPECT_EQ(need, size);
	EXPECT_EQ(ERROR_INVALID_PARAMETER, TdhGetEventInformation(&self->r.er, 2, ctx, NULL, &size));
	EXPECT_EQ(ERROR_INVALID_PARAMETER, TdhGetEventInformation(&self->r.er, 1, NULL, NULL, &size));
	EXPECT_EQ(ERROR_INVALID_PARAMETER, TdhGetEventInformation(NULL, 0, NULL, NULL, &size));
	EXPECT_EQ(ERROR_INVALID_PARAMETER, TdhGetEventInformation(&self->r.er, 0, NULL, NULL, NULL));
	/* A version the manifest does not declare: no schema, not another's. */
	self->r.er.EventHeader.EventDescriptor.Version = 1;
	EXPECT_EQ(ERROR_NOT_FOUND, TdhGetEventInformation(&self->r.er, 0, NULL, NULL, &size));
	/* A provider no manifest describes. */
	self->r.er.EventHeader.EventDescriptor.Version = 0;
	self->r.er.EventHeader.ProviderId.Data1 ^= 1;
	EXPECT_EQ(ERROR_NOT_FOUND, TdhGetEventInformation(&self->r.er, 0, NULL, NULL, &size));
}

TEST_F(tdh, map_information)
{
	unsigned int vals[1] = { 1 };
	unsigned char f3[3] = { 0 };
	int pts[2] = { 0 };
	PEVENT_MAP_INFO map;
	ULONG size = 0;
	char s[64];

	EventWriteArraysEvent(1, vals, f3, sizeof(pts), pts, 2, 3);
	make_record(&self->r);
	ASSERT_EQ(ERROR_INSUFFICIENT_BUFFER,
		  TdhGetEventMapInformation(&self->r.er, (PWSTR)u"FlagsMap", NULL, &size));
	map = malloc(size);
	ASSERT_EQ(ERROR_SUCCESS, TdhGetEventMapInformation(&self->r.er, (PWSTR)u"FlagsMap", map, &size));
	EXPECT_EQ(EVENTMAP_INFO_FLAG_MANIFEST_BITMAP, map->Flag);
	EXPECT_EQ(3, map->EntryCount);
	EXPECT_EQ(4, map->MapEntryArray[2].Value);
	narrow(EMI_MAP_OUTPUT(map, &map->MapEntryArray[2]), s, sizeof(s));
	EXPECT_STREQ("Exec ", s);		/* as Windows: a space after it */
	narrow(EMI_MAP_NAME(map), s, sizeof(s));
	EXPECT_STREQ("FlagsMap", s);
	free(map);
	EXPECT_EQ(ERROR_NOT_FOUND,
		  TdhGetEventMapInformation(&self->r.er, (PWSTR)u"NoMap", NULL, &size));
	EXPECT_EQ(ERROR_INVALID_PARAMETER,
		  TdhGetEventMapInformation(&self->r.er, NULL, NULL, &size));
}

TEST_F(tdh, format_property_errors)
{
	TRACE_EVENT_INFO info = { 0 };
	BYTE data[4] = { 1, 2, 3, 4 };
	WCHAR buf[4];
	ULONG size = sizeof(buf);
	USHORT used;

	EXPECT_EQ(ERROR_SUCCESS, TdhFormatProperty(&info, NULL, 8, TDH_INTYPE_UINT8,
						   TDH_OUTTYPE_NULL, 0, 4, data, &size,
						   buf, &used));
	EXPECT_EQ(1, used);
	EXPECT_EQ(2 * sizeof(WCHAR), size);
	EXPECT_EQ('1', buf[0]);
	/* "67305985" does not fit in 4 WCHARs: the size needed comes back. */
	size = sizeof(buf);
	EXPECT_EQ(ERROR_INSUFFICIENT_BUFFER,
		  TdhFormatProperty(&info, NULL, 8, TDH_INTYPE_UINT32, TDH_OUTTYPE_NULL,
				    0, 4, data, &size, buf, &used));
	EXPECT_EQ(9 * sizeof(WCHAR), size);
	EXPECT_EQ(ERROR_EVT_INVALID_EVENT_DATA,
		  TdhFormatProperty(&info, NULL, 8, TDH_INTYPE_UINT64, TDH_OUTTYPE_NULL,
				    0, 4, data, &size, buf, &used));
	EXPECT_EQ(ERROR_INVALID_PARAMETER,
		  TdhFormatProperty(&info, NULL, 5, TDH_INTYPE_UINT32, TDH_OUTTYPE_NULL,
				    0, 4, data, &size, buf, &used));
	EXPECT_EQ(ERROR_INVALID_PARAMETER,
		  TdhFormatProperty(NULL, NULL, 8, TDH_INTYPE_UINT32, TDH_OUTTYPE_NULL,
				    0, 4, data, &size, buf, &used));
}

/* The providers of one source: how many, and whether g is one, named name. */
static ULONG providers_of(struct __test_metadata *_metadata, DECODING_SOURCE src,
			  const GUID *g, const char *name)
{
	PPROVIDER_ENUMERATION_INFO pe;
	ULONG size = 0, n, found = 0;
	char s[128];

	EXPECT_EQ(ERROR_INSUFFICIENT_BUFFER,
		  TdhEnumerateProvidersForDecodingSource(src, NULL, 0, &size));
	pe = malloc(size);
	EXPECT_EQ(ERROR_INSUFFICIENT_BUFFER,
		  TdhEnumerateProvidersForDecodingSource(src, pe, size - 1, &size));
	EXPECT_EQ(ERROR_SUCCESS, TdhEnumerateProvidersForDecodingSource(src, pe, size, &size));
	n = pe->NumberOfProviders;
	for (ULONG i = 0; i < n; i++) {
		TRACE_PROVIDER_INFO *t = &pe->TraceProviderInfoArray[i];

		EXPECT_EQ(src, t->SchemaSource);
		EXPECT_LT(t->ProviderNameOffset, size);
		if (!memcmp(&t->ProviderGuid, g, sizeof(*g))) {
			narrow(PEI_PROVIDER_NAME(pe, t), s, sizeof(s));
			EXPECT_STREQ(name, s);
			found++;
		}
	}
	free(pe);
	EXPECT_EQ(1, found);
	return n;
}

/*
 * TdhEnumerateProviders lists every provider the decoders can decode:
 * the manifests' (XMLFile) and the kernel MOF classes' (Wbem: the
 * provider class MSNT_SystemTrace and each class GUID, named as TDH
 * names its events' task); per source, TdhEnumerateProvidersForDecodingSource.
 */
TEST_F(tdh, providers_per_source)
{
	static const GUID systemtrace = { 0x9e814aad, 0x3204, 0x11d2,
		{ 0x9a, 0x82, 0x00, 0x60, 0x08, 0xa8, 0x69, 0x39 } };
	static const GUID process = { 0x3d6fa8d0, 0xfe05, 0x11d0,
		{ 0x9d, 0xda, 0x00, 0xc0, 0x4f, 0xd7, 0xba, 0x7c } };
	static const GUID eventtrace = { 0x68fdd900, 0x4a3e, 0x11d1,
		{ 0x84, 0xf4, 0x00, 0x00, 0xf8, 0x04, 0x64, 0xe3 } };
	GUID g = ETW_TEST_MANIFEST;
	PPROVIDER_ENUMERATION_INFO pe;
	ULONG xml, wbem, size = 0, mof = 0;

	xml = providers_of(_metadata, DecodingSourceXMLFile, &g, "Etw-Test-Manifest");
	wbem = providers_of(_metadata, DecodingSourceWbem, &systemtrace, "MSNT_SystemTrace");
	EXPECT_EQ(wbem, providers_of(_metadata, DecodingSourceWbem, &process, "Process"));
	EXPECT_EQ(wbem, providers_of(_metadata, DecodingSourceWbem, &eventtrace, "EventTrace"));
	EXPECT_LE(11, wbem);

	ASSERT_EQ(ERROR_INSUFFICIENT_BUFFER, TdhEnumerateProviders(NULL, &size));
	pe = malloc(size);
	ASSERT_EQ(ERROR_SUCCESS, TdhEnumerateProviders(pe, &size));
	EXPECT_EQ(xml + wbem, pe->NumberOfProviders);
	for (ULONG i = 0; i < pe->NumberOfProviders; i++)
		mof += pe->TraceProviderInfoArray[i].SchemaSource == DecodingSourceWbem;
	EXPECT_EQ(wbem, mof);
	free(pe);
}

TEST_F(tdh, providers_and_fields)
{
	PPROVIDER_ENUMERATION_INFO pe;
	PPROVIDER_FIELD_INFOARRAY fa;
	PPROVIDER_EVENT_INFO evs;
	GUID g = ETW_TEST_MANIFEST, other = ETW_TEST_MANIFEST;
	EVENT_DESCRIPTOR d = ArraysEvent;
	bool found = false;
	ULONG size = 0;
	char s[128];

	ASSERT_EQ(ERROR_INSUFFICIENT_BUFFER, TdhEnumerateProviders(NULL, &size));
	pe = malloc(size);
	ASSERT_EQ(ERROR_SUCCESS, TdhEnumerateProviders(pe, &size));
	for (ULONG i = 0; i < pe->NumberOfProviders; i++) {
		TRACE_PROVIDER_INFO *t = &pe->TraceProviderInfoArray[i];

		narrow(PEI_PROVIDER_NAME(pe, t), s, sizeof(s));
		if (!memcmp(&t->ProviderGuid, &g, sizeof(g))) {
			found = true;
			EXPECT_STREQ("Etw-Test-Manifest", s);
			EXPECT_EQ(DecodingSourceXMLFile, t->SchemaSource);
		}
	}
	EXPECT_TRUE(found);
	free(pe);
	/* Windows registers XMLFile and Wbem providers only. */
	EXPECT_EQ(ERROR_INVALID_PARAMETER,
		  TdhEnumerateProvidersForDecodingSource(DecodingSourceTlg, NULL, 0, &size));
	EXPECT_EQ(ERROR_INVALID_PARAMETER,
		  TdhEnumerateProvidersForDecodingSource(DecodingSourceWPP, NULL, 0, &size));
	EXPECT_EQ(ERROR_INVALID_PARAMETER,
		  TdhEnumerateProvidersForDecodingSource(DecodingSourceMax, NULL, 0, &size));
	EXPECT_EQ(ERROR_INVALID_PARAMETER,
		  TdhEnumerateProvidersForDecodingSource(DecodingSourceWbem, NULL, 0, NULL));

	size = 0;
	ASSERT_EQ(ERROR_INSUFFICIENT_BUFFER,
		  TdhEnumerateProviderFieldInformation(&g, EventKeywordInformation, NULL, &size));
	fa = malloc(size);
	ASSERT_EQ(ERROR_SUCCESS,
		  TdhEnumerateProviderFieldInformation(&g, EventKeywordInformation, fa, &size));
	EXPECT_EQ(2, fa->NumberOfElements);
	EXPECT_EQ(2, fa->FieldInfoArray[1].Value);
	narrow(PFI_FIELD_NAME(fa, &fa->FieldInfoArray[1]), s, sizeof(s));
	EXPECT_STREQ("Disk", s);
	free(fa);
	size = 0;
	ASSERT_EQ(ERROR_INSUFFICIENT_BUFFER,
		  TdhEnumerateProviderFieldInformation(&g, EventOpcodeInformation, NULL, &size));
	fa = malloc(size);
	ASSERT_EQ(ERROR_SUCCESS,
		  TdhEnumerateProviderFieldInformation(&g, EventOpcodeInformation, fa, &size));
	EXPECT_EQ(3, fa->NumberOfElements);	/* Retry, Handshake, win:Start */
	free(fa);
	size = 0;
	ASSERT_EQ(ERROR_INSUFFICIENT_BUFFER,
		  TdhQueryProviderFieldInformation(&g, 3, EventKeywordInformation, NULL, &size));
	fa = malloc(size);
	ASSERT_EQ(ERROR_SUCCESS,
		  TdhQueryProviderFieldInformation(&g, 3, EventKeywordInformation, fa, &size));
	EXPECT_EQ(2, fa->NumberOfElements);
	free(fa);
	size = 0;
	ASSERT_EQ(ERROR_INSUFFICIENT_BUFFER,
		  TdhQueryProviderFieldInformation(&g, 16, EventLevelInformation, NULL, &size));
	fa = malloc(size);
	ASSERT_EQ(ERROR_SUCCESS,
		  TdhQueryProviderFieldInformation(&g, 16, EventLevelInformation, fa, &size));
	ASSERT_EQ(1, fa->NumberOfElements);
	narrow(PFI_FIELD_NAME(fa, &fa->FieldInfoArray[0]), s, sizeof(s));
	EXPECT_STREQ("Chatty", s);
	free(fa);
	EXPECT_EQ(ERROR_NOT_FOUND,
		  TdhQueryProviderFieldInformation(&g, 0x100, EventKeywordInformation, NULL, &size));
	EXPECT_EQ(ERROR_NOT_SUPPORTED,
		  TdhQueryProviderFieldInformation(&g, 1, EventTaskInformation, NULL, &size));
	EXPECT_EQ(ERROR_INVALID_PARAMETER,
		  TdhEnumerateProviderFieldInformation(&g, EventInformationMax, NULL, &size));
	other.Data1 ^= 1;
	EXPECT_EQ(ERROR_NOT_FOUND,
		  TdhEnumerateProviderFieldInformation(&other, EventKeywordInformation, NULL, &size));

	size = 0;
	ASSERT_EQ(ERROR_INSUFFICIENT_BUFFER, TdhEnumerateManifestProviderEvents(&g, NULL, &size));
	evs = malloc(size);
	ASSERT_EQ(ERROR_SUCCESS, TdhEnumerateManifestProviderEvents(&g, evs, &size));
	ASSERT_EQ(4, evs->NumberOfEvents);
	EXPECT_EQ(0, memcmp(&evs->EventDescriptorsArray[2], &ArraysEvent, sizeof(d)));
	free(evs);
	EXPECT_EQ(ERROR_NOT_FOUND, TdhEnumerateManifestProviderEvents(&other, NULL, &size));

	size = 0;
	ASSERT_EQ(ERROR_INSUFFICIENT_BUFFER, TdhGetManifestEventInformation(&g, &d, NULL, &size));
	PTRACE_EVENT_INFO info = malloc(size);

	ASSERT_EQ(ERROR_SUCCESS, TdhGetManifestEventInformation(&g, &d, info, &size));
	EXPECT_EQ(8, info->PropertyCount);
	EXPECT_EQ(6, info->TopLevelPropertyCount);
	EXPECT_EQ(PropertyStruct | PropertyParamCount, info->EventPropertyInfoArray[3].Flags);
	EXPECT_EQ(0, info->EventPropertyInfoArray[3].countPropertyIndex);
	EXPECT_EQ(6, info->EventPropertyInfoArray[3].structType.StructStartIndex);
	EXPECT_EQ(PropertyParamFixedCount, info->EventPropertyInfoArray[2].Flags);
	EXPECT_EQ(3, info->EventPropertyInfoArray[2].count);
	free(info);
	d.Version = 9;
	EXPECT_EQ(ERROR_NOT_FOUND, TdhGetManifestEventInformation(&g, &d, NULL, &size));
}

TEST(load_errors)
{
	static const char bad[] = "<instrumentationManifest><oops></instrumentationManifest>";
	static const char good[] =
		"<instrumentationManifest><instrumentation><events>"
		"<provider name=\"M\" guid=\"{22222222-2222-3333-4444-555555555555}\">"
		"<events><event value=\"7\"/></events></provider>"
		"</events></instrumentation></instrumentationManifest>";
	GUID g = { 0x22222222, 0x2222, 0x3333, { 0x44, 0x44, 0x55, 0x55, 0x55, 0x55, 0x55, 0x55 } };
	ULONG size = 0;

	EXPECT_EQ(ERROR_FILE_NOT_FOUND, TdhLoadManifest((PWSTR)u"testdata/manifests/none.man"));
	EXPECT_EQ(ERROR_INVALID_PARAMETER, TdhLoadManifest(NULL));
	EXPECT_EQ(ERROR_XML_PARSE_ERROR, TdhLoadManifestFromMemory(bad, sizeof(bad) - 1));
	EXPECT_EQ(ERROR_INVALID_PARAMETER, TdhLoadManifestFromMemory(NULL, 4));
	EXPECT_EQ(ERROR_NOT_FOUND, TdhEnumerateManifestProviderEvents(&g, NULL, &size));
	ASSERT_EQ(ERROR_SUCCESS, TdhLoadManifestFromMemory(good, sizeof(good) - 1));
	EXPECT_EQ(ERROR_INSUFFICIENT_BUFFER, TdhEnumerateManifestProviderEvents(&g, NULL, &size));
	EXPECT_EQ(ERROR_SUCCESS, TdhUnloadManifestFromMemory(good, sizeof(good) - 1));
	EXPECT_EQ(ERROR_NOT_FOUND, TdhEnumerateManifestProviderEvents(&g, NULL, &size));
	EXPECT_EQ(ERROR_NOT_FOUND, TdhUnloadManifestFromMemory(good, sizeof(good) - 1));
	EXPECT_EQ(ERROR_NOT_FOUND, TdhUnloadManifest((PWSTR)u"never/loaded.man"));
	EXPECT_EQ(ERROR_BAD_EXE_FORMAT,
		  TdhLoadManifestFromBinary((PWSTR)u"testdata/manifests/etw-test-types.man"));
	EXPECT_EQ(ERROR_FILE_NOT_FOUND, TdhLoadManifestFromBinary((PWSTR)u"no/such/program"));
}

/* The manifest this program carries (etw mc -b), read back. */
TEST(load_from_binary)
{
	GUID g = ETW_TEST_MANIFEST;
	ULONG size = 0;

	EXPECT_EQ(ERROR_NOT_FOUND, TdhEnumerateManifestProviderEvents(&g, NULL, &size));
	ASSERT_EQ(ERROR_SUCCESS, TdhLoadManifestFromBinary((PWSTR)u"/proc/self/exe"));
	EXPECT_EQ(ERROR_INSUFFICIENT_BUFFER, TdhEnumerateManifestProviderEvents(&g, NULL, &size));
	EXPECT_EQ(offsetof(PROVIDER_EVENT_INFO, EventDescriptorsArray) + 4 * sizeof(EVENT_DESCRIPTOR),
		  size);
	EXPECT_EQ(ERROR_SUCCESS, TdhUnloadManifest((PWSTR)u"/proc/self/exe"));
	EXPECT_EQ(ERROR_NOT_FOUND, TdhEnumerateManifestProviderEvents(&g, NULL, &size));
}

TEST(decoding_handles)
{
	TDH_CONTEXT c = { 4, TDH_CONTEXT_POINTERSIZE, 0 }, got = { 0 };
	static WCHAR path[] = u"/tmp/tmf";
	TDH_HANDLE h = NULL;

	ASSERT_EQ(ERROR_SUCCESS, TdhOpenDecodingHandle(&h));
	got.ParameterType = TDH_CONTEXT_POINTERSIZE;
	EXPECT_EQ(ERROR_NOT_FOUND, TdhGetDecodingParameter(h, &got));
	EXPECT_EQ(ERROR_SUCCESS, TdhSetDecodingParameter(h, &c));
	EXPECT_EQ(ERROR_SUCCESS, TdhGetDecodingParameter(h, &got));
	EXPECT_EQ(4, got.ParameterValue);
	c.ParameterValue = 3;
	EXPECT_EQ(ERROR_INVALID_PARAMETER, TdhSetDecodingParameter(h, &c));
	c.ParameterType = TDH_CONTEXT_WPP_TMFSEARCHPATH;
	c.ParameterValue = (ULONGLONG)(uintptr_t)path;
	EXPECT_EQ(ERROR_SUCCESS, TdhSetDecodingParameter(h, &c));
	path[1] = 'x';				/* the handle kept its own copy */
	got.ParameterType = TDH_CONTEXT_WPP_TMFSEARCHPATH;
	EXPECT_EQ(ERROR_SUCCESS, TdhGetDecodingParameter(h, &got));
	EXPECT_EQ('t', ((const WCHAR *)(uintptr_t)got.ParameterValue)[1]);
	c.ParameterType = TDH_CONTEXT_MAXIMUM;
	EXPECT_EQ(ERROR_INVALID_PARAMETER, TdhSetDecodingParameter(h, &c));
	EXPECT_EQ(ERROR_INVALID_PARAMETER, TdhSetDecodingParameter(NULL, &c));
	EXPECT_EQ(ERROR_INVALID_PARAMETER, TdhOpenDecodingHandle(NULL));
	EXPECT_EQ(ERROR_SUCCESS, TdhCloseDecodingHandle(h));
	EXPECT_EQ(ERROR_INVALID_PARAMETER, TdhCloseDecodingHandle(NULL));
}

TEST_HARNESS_MAIN
