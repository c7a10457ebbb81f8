// SPDX-License-Identifier: GPL-2.0
/*
 * Classic providers' MOF schemas: a schema read into the model, its
 * errors with their lines; classic events written by TraceEvent (the
 * private logger: no module needed) decoded by name with the schema in
 * the store, in two versions of one class, and raw without it; TDH's view
 * (DecodingSourceWbem, the names, the maps, TdhFormatProperty's text);
 * install, list and uninstall; the etw mof and etw dump commands.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <etw_decode.h>
#include <etw_etl.h>
#include <etw_mof.h>
#include <evntrace.h>
#include <tdh.h>

#include "kselftest_harness.h"
#include "tdh_consumer.h"
#include "../src/decode/mof.h"

#ifndef ETW_TOOL_PATH
#define ETW_TOOL_PATH "build/bin/etw"
#endif

static const char schema[] =
	"// A classic provider: an event class in two versions.\n"
	"#pragma namespace(\"\\\\\\\\.\\\\root\\\\wmi\")\n"
	"#pragma classflags(\"forceupdate\")\n"
	"\n"
	"[Dynamic, Description(\"Sample provider\"): amended,\n"
	" Guid(\"{3c9d6a2e-1f4b-4c8e-9a51-2b7d0e6f4a10}\")]\n"
	"class SampleProvider : EventTrace\n"
	"{\n"
	"    [Description(\"Enable flags\"): amended ToSubclass,\n"
	"     ValueMap{\"0x1\", \"0x2\"}, Values{\"Setup\", \"IO\"}: amended]\n"
	"    uint32 Flags;\n"
	"    [ValueMap{\"1\", \"4\"}, Values{\"Error\", \"Information\"}]\n"
	"    uint32 Level;\n"
	"};\n"
	"\n"
	"[Dynamic, Guid(\"{8e2f1b7a-5c3d-4e9f-b061-7a4c2d9e1f33}\"), EventVersion(1),\n"
	" DisplayName(\"Transfer\")]\n"
	"class SampleTransfer : SampleProvider\n"
	"{\n"
	"};\n"
	"\n"
	"[Dynamic, Guid(\"{8e2f1b7a-5c3d-4e9f-b061-7a4c2d9e1f33}\"), EventVersion(0)]\n"
	"class SampleTransfer_V0 : SampleProvider\n"
	"{\n"
	"};\n"
	"\n"
	"[Dynamic, EventType{1, 2}, EventTypeName{\"Start\", \"End\"}]\n"
	"class SampleTransfer_Event : SampleTransfer\n"
	"{\n"
	"    [WmiDataId(1), read] sint32 Cost;\n"
	"    [WmiDataId(2), read] uint32 Indices[3];\n"
	"    [WmiDataId(3), read, Format(\"w\"), StringTermination(\"NullTerminated\")] string Signature;\n"
	"    [WmiDataId(4), read] boolean Complete;\n"
	"    [WmiDataId(5), read, Extension(\"Guid\")] object Id;\n"
	"    [WmiDataId(6), read, Format(\"x\")] uint32 Mask;\n"
	"    [WmiDataId(7), read, ValueMap{\"0\", \"1\", \"2\"}, Values{\"Idle\", \"Busy\", \"Gone\"}] uint32 State;\n"
	"    [WmiDataId(8), read] uint16 Count;\n"
	"    [WmiDataId(9), read, WmiSizeIs(\"Count\")] uint8 Bytes[];\n"
	"    [WmiDataId(10), read, BitMap{\"0\", \"3\"}, BitValues{\"Read\", \"Write\"}] uint32 Access;\n"
	"    [WmiDataId(11), read, Pointer] uint64 Context;\n"
	"};\n"
	"\n"
	"[Dynamic, EventType(1), EventTypeName(\"Start\")]\n"
	"class SampleTransfer_V0_Event : SampleTransfer_V0\n"
	"{\n"
	"    [WmiDataId(2), read, StringTermination(\"Counted\")] string Name;\n"
	"    [WmiDataId(1), read] sint32 Cost;\n"
	"};\n";

static const GUID event_class = { 0x8e2f1b7a, 0x5c3d, 0x4e9f,
				  { 0xb0, 0x61, 0x7a, 0x4c, 0x2d, 0x9e, 0x1f, 0x33 } };
static const GUID logger_guid = { 0x6d1c0f4e, 0x2a3b, 0x4c5d,
				  { 1, 2, 3, 4, 5, 6, 7, 8 } };
static const GUID id_value = { 0x11223344, 0x5566, 0x7788,
			       { 0x99, 0xaa, 0xbb, 0xcc, 0xdd, 0xee, 0xff, 0x00 } };

/* A folder of its own for each test (the harness forks per test). */
struct dirs {
	char root[64];
	char mof[96];
	char etl[96];
};

static void make_dirs(struct dirs *d, bool install)
{
	FILE *f;

	snprintf(d->root, sizeof(d->root), "/tmp/etw-mof-%d", getpid());
	mkdir(d->root, 0700);
	snprintf(d->mof, sizeof(d->mof), "%s/sample.mof", d->root);
	snprintf(d->etl, sizeof(d->etl), "%s/classic.etl", d->root);
	f = fopen(d->mof, "w");
	if (f) {
		fputs(schema, f);
		fclose(f);
	}
	if (install)
		setenv("ETW_MOF_PATH", d->root, 1);
	else
		setenv("ETW_MOF_PATH", "/nonexistent", 1);
	/* Only this test's folder: no user or system schema. */
	setenv("HOME", d->root, 1);
	unsetenv("XDG_DATA_HOME");
}

static void remove_dirs(const struct dirs *d)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf %s", d->root);
	if (system(cmd))
		fprintf(stderr, "# could not remove %s\n", d->root);
}

struct props {
	EVENT_TRACE_PROPERTIES p;
	char names[1024];
};

/* Version 1 type 1 (Start) and version 0 type 1, as TraceEvent writes them. */
static void write_trace(struct __test_metadata *_metadata, const char *path)
{
	static const uint32_t indices[3] = { 1, 2, 3 };
	static const char16_t sig[] = u"sig";
	static const uint8_t bytes[3] = { 0x0a, 0x0b, 0x0c };
	int32_t cost = -5, cost0 = 7;
	uint32_t complete = 1, mask = 0xbeef, state = 1, access = 9;
	uint16_t count = 3, name_len = 4;
	uint64_t context = 0x1234;
	struct {
		EVENT_TRACE_HEADER h;
		MOF_FIELD f[11];
	} e1;
	struct {
		EVENT_TRACE_HEADER h;
		MOF_FIELD f[3];
	} e0;
	struct props b;
	CONTROLTRACE_ID h;
	const void *ptrs[11] = { &cost, indices, sig, &complete, &id_value,
				 &mask, &state, &count, bytes, &access, &context };
	const ULONG sizes[11] = { 4, 12, 8, 4, 16, 4, 4, 2, 3, 4, 8 };

	memset(&b, 0, sizeof(b));
	b.p.Wnode.BufferSize = sizeof(b);
	b.p.Wnode.Flags = WNODE_FLAG_TRACED_GUID;
	b.p.Wnode.Guid = logger_guid;
	b.p.LogFileMode = EVENT_TRACE_PRIVATE_LOGGER_MODE;
	b.p.LoggerNameOffset = sizeof(EVENT_TRACE_PROPERTIES);
	b.p.LogFileNameOffset = sizeof(EVENT_TRACE_PROPERTIES) + 256;
	strcpy((char *)&b + b.p.LogFileNameOffset, path);
	ASSERT_EQ(ERROR_SUCCESS, StartTraceA(&h, "etwtest-mof", &b.p));

	memset(&e1, 0, sizeof(e1));
	e1.h.Size = sizeof(e1);
	e1.h.Flags = WNODE_FLAG_TRACED_GUID | WNODE_FLAG_USE_MOF_PTR;
	e1.h.Guid = event_class;
	e1.h.Class.Type = 1;
	e1.h.Class.Version = 1;
	for (int i = 0; i < 11; i++) {
		e1.f[i].DataPtr = (ULONG64)(uintptr_t)ptrs[i];
		e1.f[i].Length = sizeof(ULONG) == 4 ? sizes[i] : sizes[i];
	}
	ASSERT_EQ(ERROR_SUCCESS, TraceEvent(h, &e1.h));

	memset(&e0, 0, sizeof(e0));
	e0.h.Size = sizeof(e0);
	e0.h.Flags = WNODE_FLAG_TRACED_GUID | WNODE_FLAG_USE_MOF_PTR;
	e0.h.Guid = event_class;
	e0.h.Class.Type = 1;
	e0.h.Class.Version = 0;
	e0.f[0] = (MOF_FIELD){ (ULONG64)(uintptr_t)&cost0, 4, 0 };
	e0.f[1] = (MOF_FIELD){ (ULONG64)(uintptr_t)&name_len, 2, 0 };
	e0.f[2] = (MOF_FIELD){ (ULONG64)(uintptr_t)"ab\0\0", 4, 0 };
	ASSERT_EQ(ERROR_SUCCESS, TraceEvent(h, &e0.h));
	ASSERT_EQ(ERROR_SUCCESS, ControlTraceA(h, NULL, &b.p, EVENT_TRACE_CONTROL_STOP));
}

/* The decoded events of the file, "Task/Opcode: Name=value;..." a line each. */
static int decode_file(const char *path, char *out, size_t size, int *sources)
{
	struct etw_decoded_event d;
	struct etw_decoder *dec;
	struct etw_etl_event ev;
	struct etw_etl *etl;
	size_t n = 0;
	int events = 0;

	out[0] = '\0';
	if (etw_etl_open(path, &etl, NULL) || etw_decoder_new(&dec))
		return -1;
	etw_etl_rewind(etl, ETW_ETL_ORDER_TIME);
	while (etw_etl_next(etl, &ev) > 0) {
		if (memcmp(&ev.provider, &event_class, sizeof(GUID)))
			continue;
		events++;
		if (etw_decode_etl_event(dec, &ev, &d)) {
			n += snprintf(out + n, size - n, "raw %u bytes\n", ev.data_size);
			continue;
		}
		sources[events - 1] = d.decoding_source;
		n += snprintf(out + n, size - n, "%s %s/%s:", d.provider_name,
			      d.task_name, d.opcode_name);
		for (uint32_t i = 0; i < d.field_count; i++)
			n += snprintf(out + n, size - n, " %s=%s;", d.fields[i].name,
				      d.fields[i].value);
		n += snprintf(out + n, size - n, "%s\n", d.rest_size ? " (rest)" : "");
	}
	etw_decoder_free(dec);
	etw_etl_close(etl);
	return events;
}

static const char decoded[] =
	"SampleProvider Transfer/Start: Cost=-5; Indices=[1, 2, 3]; Signature=sig; "
	"Complete=true; Id={11223344-5566-7788-99AA-BBCCDDEEFF00}; Mask=0xBEEF; "
	"State=Busy; Count=3; Bytes=[10, 11, 12]; Access=Read | Write; Context=0x1234;\n"
	"SampleProvider SampleTransfer_V0/Start: Cost=7; Name=ab;\n";

TEST(events_decode_by_name_in_both_versions)
{
	int sources[2] = { -1, -1 };
	struct dirs d;
	char out[4096];

	make_dirs(&d, true);
	write_trace(_metadata, d.etl);
	EXPECT_EQ(2, decode_file(d.etl, out, sizeof(out), sources));
	EXPECT_STREQ(decoded, out);
	EXPECT_EQ(DecodingSourceWbem, sources[0]);
	EXPECT_EQ(DecodingSourceWbem, sources[1]);
	remove_dirs(&d);
}

TEST(events_are_raw_without_the_schema)
{
	int sources[2] = { -1, -1 };
	struct dirs d;
	char out[4096];

	make_dirs(&d, false);
	write_trace(_metadata, d.etl);
	EXPECT_EQ(2, decode_file(d.etl, out, sizeof(out), sources));
	EXPECT_STREQ("raw 69 bytes\nraw 10 bytes\n", out);
	remove_dirs(&d);
}

/* TDH's view of the version 1 event, as a TDH consumer prints it. */
TEST(tdh_describes_a_mof_event)
{
	static const uint8_t payload[] = {
		0xfb, 0xff, 0xff, 0xff, 1, 0, 0, 0, 2, 0, 0, 0, 3, 0, 0, 0,
		's', 0, 'i', 0, 'g', 0, 0, 0, 1, 0, 0, 0,
		0x44, 0x33, 0x22, 0x11, 0x66, 0x55, 0x88, 0x77,
		0x99, 0xaa, 0xbb, 0xcc, 0xdd, 0xee, 0xff, 0x00,
		0xef, 0xbe, 0, 0, 2, 0, 0, 0, 2, 0, 7, 8, 1, 0, 0, 0,
		0x34, 0x12, 0, 0, 0, 0, 0, 0,
	};
	EVENT_RECORD er = { 0 };
	PTRACE_EVENT_INFO info;
	struct consumer c = { 0 };
	EVENT_MAP_INFO *map;
	ULONG size = 0, status;
	struct dirs d;
	char s[128];

	make_dirs(&d, true);
	er.EventHeader.ProviderId = event_class;
	er.EventHeader.EventDescriptor.Opcode = 1;
	er.EventHeader.EventDescriptor.Version = 1;
	er.EventHeader.Flags = EVENT_HEADER_FLAG_CLASSIC_HEADER |
			       EVENT_HEADER_FLAG_64_BIT_HEADER;
	er.UserData = (PVOID)payload;
	er.UserDataLength = sizeof(payload);
	info = event_info(&er, &status);
	ASSERT_EQ(ERROR_SUCCESS, status);
	EXPECT_EQ(DecodingSourceWbem, info->DecodingSource);
	EXPECT_EQ(0, memcmp(&info->EventGuid, &event_class, sizeof(GUID)));
	EXPECT_EQ(11, info->TopLevelPropertyCount);
	narrow((const WCHAR *)((char *)info + info->ProviderNameOffset), s, sizeof(s));
	EXPECT_STREQ("SampleProvider", s);
	narrow((const WCHAR *)((char *)info + info->TaskNameOffset), s, sizeof(s));
	EXPECT_STREQ("Transfer", s);
	narrow((const WCHAR *)((char *)info + info->OpcodeNameOffset), s, sizeof(s));
	EXPECT_STREQ("Start", s);
	/* Bytes: its count is the property Count (index 7). */
	EXPECT_TRUE(info->EventPropertyInfoArray[8].Flags & PropertyParamCount);
	EXPECT_EQ(7, info->EventPropertyInfoArray[8].countPropertyIndex);
	EXPECT_TRUE(info->EventPropertyInfoArray[1].Flags & PropertyParamFixedCount);
	EXPECT_EQ(3, info->EventPropertyInfoArray[1].count);
	EXPECT_EQ(TDH_INTYPE_POINTER, info->EventPropertyInfoArray[10].nonStructType.InType);

	size = 0;
	EXPECT_EQ(ERROR_INSUFFICIENT_BUFFER,
		  TdhGetEventMapInformation(&er, (PWSTR)u"SampleTransfer_Event_State",
					    NULL, &size));
	map = malloc(size);
	ASSERT_EQ(ERROR_SUCCESS,
		  TdhGetEventMapInformation(&er, (PWSTR)u"SampleTransfer_Event_State",
					    map, &size));
	EXPECT_EQ(EVENTMAP_INFO_FLAG_WBEM_VALUEMAP, map->Flag);
	EXPECT_EQ(3, map->EntryCount);
	free(map);

	EXPECT_STREQ("Cost=-5;Indices=[1, 2, 3];Signature=sig;"
		      "Complete=true;Id={11223344-5566-7788-99AA-BBCCDDEEFF00};"
		      "Mask=0xBEEF;State=Gone;Count=2;Bytes=[7, 8];"
		      "Access=Read;Context=0x1234;", consume(&er, &c));
	free(c.out);
	free(info);
	remove_dirs(&d);
}

TEST(provider_flags_and_levels)
{
	PROVIDER_FIELD_INFOARRAY *a;
	GUID provider = { 0x3c9d6a2e, 0x1f4b, 0x4c8e,
			  { 0x9a, 0x51, 0x2b, 0x7d, 0x0e, 0x6f, 0x4a, 0x10 } };
	ULONG size = 0;
	struct dirs d;
	char s[64];

	make_dirs(&d, true);
	ASSERT_EQ(ERROR_INSUFFICIENT_BUFFER,
		  TdhEnumerateProviderFieldInformation(&provider, EventKeywordInformation,
						       NULL, &size));
	a = malloc(size);
	ASSERT_EQ(ERROR_SUCCESS,
		  TdhEnumerateProviderFieldInformation(&provider, EventKeywordInformation,
						       a, &size));
	ASSERT_EQ(2, a->NumberOfElements);
	EXPECT_EQ(1, a->FieldInfoArray[0].Value);
	narrow((const WCHAR *)((char *)a + a->FieldInfoArray[0].NameOffset), s, sizeof(s));
	EXPECT_STREQ("Setup", s);
	EXPECT_EQ(2, a->FieldInfoArray[1].Value);
	narrow((const WCHAR *)((char *)a + a->FieldInfoArray[1].NameOffset), s, sizeof(s));
	EXPECT_STREQ("IO", s);
	free(a);

	size = 0;
	ASSERT_EQ(ERROR_INSUFFICIENT_BUFFER,
		  TdhEnumerateProviderFieldInformation(&provider, EventLevelInformation,
						       NULL, &size));
	a = malloc(size);
	ASSERT_EQ(ERROR_SUCCESS,
		  TdhEnumerateProviderFieldInformation(&provider, EventLevelInformation,
						       a, &size));
	ASSERT_EQ(2, a->NumberOfElements);
	EXPECT_EQ(4, a->FieldInfoArray[1].Value);
	narrow((const WCHAR *)((char *)a + a->FieldInfoArray[1].NameOffset), s, sizeof(s));
	EXPECT_STREQ("Information", s);
	free(a);
	size = 0;
	EXPECT_EQ(ERROR_NOT_FOUND,
		  TdhEnumerateProviderFieldInformation(&provider, EventChannelInformation,
						       NULL, &size));
	remove_dirs(&d);
}

/* TdhEnumerateProviders lists the installed provider class, once. */
TEST(providers_are_listed)
{
	GUID provider = { 0x3c9d6a2e, 0x1f4b, 0x4c8e,
			  { 0x9a, 0x51, 0x2b, 0x7d, 0x0e, 0x6f, 0x4a, 0x10 } };
	PROVIDER_ENUMERATION_INFO *e;
	ULONG size = 0, found = 0;
	struct dirs d;
	char s[64];

	make_dirs(&d, true);
	ASSERT_EQ(ERROR_INSUFFICIENT_BUFFER,
		  TdhEnumerateProvidersForDecodingSource(DecodingSourceWbem, NULL, 0, &size));
	e = malloc(size);
	ASSERT_EQ(ERROR_SUCCESS,
		  TdhEnumerateProvidersForDecodingSource(DecodingSourceWbem, e, size, &size));
	for (ULONG i = 0; i < e->NumberOfProviders; i++) {
		TRACE_PROVIDER_INFO *t = &e->TraceProviderInfoArray[i];

		if (memcmp(&t->ProviderGuid, &provider, sizeof(GUID)))
			continue;
		found++;
		EXPECT_EQ(DecodingSourceWbem, t->SchemaSource);
		narrow((const WCHAR *)((char *)e + t->ProviderNameOffset), s, sizeof(s));
		EXPECT_STREQ("SampleProvider", s);
	}
	EXPECT_EQ(1, found);
	free(e);
	remove_dirs(&d);
}

struct bad {
	const char *text;
	unsigned long line;
	const char *message;
};

static const struct bad bad_schemas[] = {
	{ "class A : EventTrace {\n  uint32 x\n};\n", 3,
	  "expected ';' after property 'x', found '}'" },
	{ "#pragma include(\"x.mof\")\n", 1, "unsupported #pragma include" },
	{ "#define X 1\n", 1, "unknown directive '#define'" },
	{ "\n[Guid(\"{1}\")] class A : EventTrace {};\n", 2,
	  "class A: Guid is not a GUID" },
	{ "class A : B {};\n", 1, "class A: parent class B is not defined before it" },
	{ "class A : EventTrace {};\nclass A : EventTrace {};\n", 2,
	  "class A is defined twice (first at line 1)" },
	{ "class A : EventTrace {};\n[EventType(1)] class B : A {\n  [read] uint32 x;\n};\n", 3,
	  "B.x: needs WmiDataId(N), N from 1" },
	{ "class A : EventTrace {};\n[EventType(1)] class B : A {\n  [WmiDataId(1)] datetime x;\n};\n",
	  3, "B.x: type datetime is not supported" },
	{ "class A : EventTrace {};\n[EventType(1)] class B : A {\n  [WmiDataId(1)] uint32 x[];\n};\n",
	  3, "B.x: an array needs a size: [N], Max(N) or WmiSizeIs(\"Property\")" },
	{ "class A : EventTrace {};\n[EventType(1)] class B : A {\n"
	  "  [WmiDataId(1), StringTermination(\"Sideways\")] string x;\n};\n",
	  3, "B.x: unknown StringTermination(\"Sideways\")" },
	{ "class A : EventTrace {};\n[EventType(1)] class B : A {\n"
	  "  [WmiDataId(1), ValueMap{\"a\"}, Values{\"x\"}] uint32 x;\n};\n",
	  3, "B.x: a map key is not a number (or a bit from 0 to 31)" },
	{ "class A : EventTrace {\n  /* not closed\n", 2, "comment not closed" },
	{ "[Description(\"a\n\")] class A : EventTrace {};\n", 1, "string not closed" },
	{ "instance of A { x = 1; };\n", 1, "instances are not supported" },
	{ "class A : EventTrace { uint32 f(); };\n", 1, "methods are not supported" },
	{ "[Description(\"a\"): sideways] class A : EventTrace {};\n", 1,
	  "expected a qualifier flavor (such as amended), found 'sideways'" },
	{ "class A : EventTrace {\n  uint32 x;\n", 1, "class A is not closed" },
	{ "class A : EventTrace {} \x01", 1, "unexpected byte 0x01" },
};

TEST(errors_name_their_line)
{
	for (size_t i = 0; i < sizeof(bad_schemas) / sizeof(bad_schemas[0]); i++) {
		const struct bad *b = &bad_schemas[i];
		struct etw_mof_error err;
		struct etw_mof *m = (struct etw_mof *)1;

		EXPECT_EQ(-EBADMSG, etw_mof_parse(b->text, strlen(b->text), "t.mof",
						  &m, &err)) {
			TH_LOG("schema %zu", i);
		}
		EXPECT_EQ(NULL, m);
		EXPECT_EQ(b->line, err.line) {
			TH_LOG("schema %zu: %s", i, err.message);
		}
		EXPECT_STREQ(b->message, err.message);
	}
}

TEST(model_of_a_schema)
{
	const struct etw_mof_qualifier *q;
	struct etw_mof_error err;
	struct etw_mof *m;

	ASSERT_EQ(0, etw_mof_parse(schema, strlen(schema), "sample.mof", &m, &err));
	ASSERT_EQ(5, m->nclasses);
	EXPECT_STREQ("SampleProvider", m->classes[0].name);
	EXPECT_STREQ("EventTrace", m->classes[0].parent);
	EXPECT_EQ(7, m->classes[0].line);
	q = etw_mof_class_qualifier(&m->classes[0], "guid");
	ASSERT_NE(NULL, q);
	EXPECT_STREQ("{3c9d6a2e-1f4b-4c8e-9a51-2b7d0e6f4a10}", q->values[0]);
	q = etw_mof_property_qualifier(&m->classes[0].properties[0], "Values");
	ASSERT_NE(NULL, q);
	EXPECT_TRUE(q->list);
	EXPECT_EQ(2, q->nvalues);
	EXPECT_STREQ("IO", q->values[1]);
	EXPECT_STREQ("uint8", m->classes[3].properties[8].type);
	EXPECT_TRUE(m->classes[3].properties[8].array);
	EXPECT_EQ(0, m->classes[3].properties[8].array_size);
	EXPECT_EQ(3, m->classes[3].properties[1].array_size);
	q = etw_mof_class_qualifier(&m->classes[3], "EventTypeName");
	ASSERT_NE(NULL, q);
	EXPECT_STREQ("End", q->values[1]);
	etw_mof_free(m);
}

/* Install, list, uninstall by file, class and Guid. */
TEST(store_install_and_uninstall)
{
	struct etw_mof_error err;
	struct dirs d;
	char store[128], path[160];
	struct stat st;

	make_dirs(&d, false);
	snprintf(store, sizeof(store), "%s/store", d.root);
	ASSERT_EQ(0, etw_mof_install(d.mof, store, &err));
	snprintf(path, sizeof(path), "%s/sample.mof", store);
	EXPECT_EQ(0, stat(path, &st));
	EXPECT_EQ(-ENOENT, etw_mof_uninstall("Nothing", store));
	EXPECT_EQ(0, etw_mof_uninstall("sample", store));
	EXPECT_NE(0, stat(path, &st));
	ASSERT_EQ(0, etw_mof_install(d.mof, store, &err));
	EXPECT_EQ(0, etw_mof_uninstall("SampleTransfer_V0", store));
	ASSERT_EQ(0, etw_mof_install(d.mof, store, &err));
	EXPECT_EQ(0, etw_mof_uninstall("3c9d6a2e-1f4b-4c8e-9a51-2b7d0e6f4a10", store));
	EXPECT_NE(0, stat(path, &st));
	EXPECT_EQ(-EINVAL, etw_mof_uninstall("../x", store));
	/* A bad file is not installed. */
	snprintf(path, sizeof(path), "%s/bad.mof", d.root);
	FILE *f = fopen(path, "w");

	ASSERT_NE(NULL, f);
	fputs("class A : EventTrace {\n", f);
	fclose(f);
	EXPECT_EQ(-EBADMSG, etw_mof_install(path, store, &err));
	EXPECT_EQ(1, err.line);
	snprintf(path, sizeof(path), "%s/bad.mof", store);
	EXPECT_NE(0, stat(path, &st));
	remove_dirs(&d);
}

/*
 * The parser on damaged schemas: bytes changed and the text cut short,
 * with a fixed seed.  Every result is a model or -EBADMSG with a line
 * inside the text, and a model that survives describes its events or
 * refuses to (this test runs under ASan too).
 */
TEST(parser_survives_damage)
{
	unsigned long lines = 1;
	uint64_t seed = 0x5eed0f1eu;
	size_t len = strlen(schema);
	char *text = malloc(len + 1);
	int models = 0, errors = 0;

	ASSERT_NE(NULL, text);
	for (size_t i = 0; i < len; i++)
		lines += schema[i] == '\n';
	for (int round = 0; round < 4000; round++) {
		struct etw_mof_error err;
		struct etw_mof *m;
		size_t n = len;
		int ret;

		memcpy(text, schema, len + 1);
		for (int k = 0; k < 1 + round % 4; k++) {
			seed ^= seed << 13;
			seed ^= seed >> 7;
			seed ^= seed << 17;
			text[seed % len] = (char)(seed >> 24);
		}
		if (round % 5 == 0)
			n = (seed >> 32) % len;
		ret = etw_mof_parse(text, n, "fuzz.mof", &m, &err);
		if (ret) {
			ASSERT_EQ(-EBADMSG, ret);
			EXPECT_LE(err.line, lines);
			EXPECT_NE(0, err.message[0]);
			errors++;
			continue;
		}
		models++;
		/* What survived describes its events or refuses to. */
		for (int type = 1; type <= 2; type++) {
			struct decode_key key = { .guid = event_class, .id = (uint16_t)type,
						  .version = 1 };
			struct decode_desc *desc;
			struct mof_event ev;

			if (!mof_find_event(m, &event_class, (uint8_t)type, 1, &ev) &&
			    !mof_build(&ev, &key, &desc))
				decode_desc_free(desc);
		}
		etw_mof_free(m);
	}
	EXPECT_LT(0, models);
	EXPECT_LT(0, errors);
	free(text);
}

static char out[1 << 16];

static int etw(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static int etw(const char *fmt, ...)
{
	char cmd[1024];
	size_t n;
	va_list ap;
	int len, status;
	FILE *p;

	len = snprintf(cmd, sizeof(cmd), "%s ", ETW_TOOL_PATH);
	va_start(ap, fmt);
	vsnprintf(cmd + len, sizeof(cmd) - len, fmt, ap);
	va_end(ap);
	strncat(cmd, " 2>&1", sizeof(cmd) - strlen(cmd) - 1);
	p = popen(cmd, "r");
	if (!p)
		return -1;
	n = fread(out, 1, sizeof(out) - 1, p);
	out[n] = '\0';
	status = pclose(p);
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

TEST(the_commands)
{
	struct dirs d;
	char store[128];

	make_dirs(&d, false);
	snprintf(store, sizeof(store), "%s/store", d.root);
	write_trace(_metadata, d.etl);
	/* Without the schema: raw. */
	ASSERT_EQ(0, etw("dump --format csv %s", d.etl));
	EXPECT_EQ(NULL, strstr(out, "Transfer"));

	ASSERT_EQ(0, etw("mof install --dir %s %s", store, d.mof));
	EXPECT_NE(NULL, strstr(out, "{8e2f1b7a-5c3d-4e9f-b061-7a4c2d9e1f33}  SampleTransfer                   event class, version 1, 2 event types"));
	ASSERT_EQ(0, etw("mof list --dir %s", store));
	EXPECT_NE(NULL, strstr(out, "SampleProvider                   provider"));
	setenv("ETW_MOF_PATH", store, 1);
	ASSERT_EQ(0, etw("dump --format json %s", d.etl));
	EXPECT_NE(NULL, strstr(out, "\"event_name\": \"Transfer/Start\""));
	EXPECT_NE(NULL, strstr(out, "{\"name\": \"Mask\", \"value\": \"0xBEEF\"}"));
	EXPECT_NE(NULL, strstr(out, "\"event_name\": \"SampleTransfer_V0/Start\""));
	EXPECT_NE(NULL, strstr(out, "{\"name\": \"Name\", \"value\": \"ab\"}"));
	ASSERT_EQ(0, etw("mof uninstall --dir %s SampleProvider", store));
	EXPECT_EQ(0, strncmp(out, "SampleProvider  removed from ", 29));
	EXPECT_EQ(1, etw("mof uninstall --dir %s SampleProvider", store));
	EXPECT_NE(NULL, strstr(out, "is neither a file installed in"));
	EXPECT_EQ(1, etw("mof check /nonexistent.mof"));
	EXPECT_NE(NULL, strstr(out, "No such file or directory"));
	EXPECT_EQ(2, etw("mof frobnicate x"));
	remove_dirs(&d);
}

TEST_HARNESS_MAIN
