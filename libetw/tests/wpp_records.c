// SPDX-License-Identifier: GPL-2.0
/*
 * WPP records end to end on the host: TraceMessage with WPP's option
 * flags into a private logger's ETL file, then
 *   - etw dump --tmf (tracefmt's lines and closing summary, --gmt,
 *     TRACE_FORMAT_PREFIX, TRACE_FORMAT_SEARCH_PATH, JSON and CSV with
 *     each argument as a named field, a TMF syntax error's file:line);
 *   - ProcessTrace: each record as Windows shows a WPP event
 *     (EVENT_HEADER_FLAG_TRACE_MESSAGE, ProviderId the message GUID, Id
 *     the message number), and the TDH functions over it
 *     (TdhGetEventInformation's DecodingSourceWPP, TdhGetWppMessage,
 *     TdhGetWppProperty and their errors).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <windows.h>
#include <evntrace.h>
#include <evntcons.h>
#include <tdh.h>
#include <etw_etl.h>
#include <etw_tmf.h>

#include "kselftest_harness.h"

#ifndef ETW_TOOL_PATH
#define ETW_TOOL_PATH "build/bin/etw"
#endif

/* WPP_TRACE_OPTIONS: sequence, GUID, system info, time stamp. */
#define WPP_FLAGS	(TRACE_MESSAGE_SEQUENCE | TRACE_MESSAGE_GUID | \
			 TRACE_MESSAGE_SYSTEMINFO | TRACE_MESSAGE_TIMESTAMP)

static const GUID msg_guid = { 0x5a1c1d4e, 0x7b2f, 0x3c44,
	{ 0x9d, 0x01, 0x23, 0x45, 0x67, 0x89, 0xab, 0xcd } };
static const GUID other_guid = { 0x0badf00d, 0x0001, 0x3002,
	{ 0x80, 0, 0, 0, 0, 0, 0, 1 } };
#define MSG_GUID_STR	"5a1c1d4e-7b2f-3c44-9d01-23456789abcd"

/*
 * What etw wpp's generated code puts into a program: the TMF texts in
 * the .etw.tmf section, each ended by its NUL; a header traced from two
 * sources gives its text twice.
 */
#define TMF_BODY \
	"// PDB:  wpptest.pdb\n" \
	MSG_GUID_STR " wpptest // SRC=main.c MJ=Comp MN=Sub\n" \
	"#typev main_c20 10 \"%0Hello, %10!d! %11!s!\" //   LEVEL=TRACE_LEVEL_INFORMATION FLAGS=FLAG_ONE FUNC=main\n" \
	"{\n" \
	"x, ItemLong -- 10\n" \
	"name, ItemString -- 11\n" \
	"}\n" \
	"#typev main_c30 11 \"%0Function Return=%10!s!\" //   LEVEL=TRACE_LEVEL_ERROR FLAGS=FLAG_TWO FUNC=work\n" \
	"{\n" \
	"status, ItemNTSTATUS -- 10\n" \
	"}\n" \
	"#typev main_c40 12 \"%0p=%10!p!\" //   LEVEL=TRACE_LEVEL_VERBOSE FLAGS=FLAG_ONE FUNC=main\n" \
	"{\n" \
	"ptr, ItemPtr -- 10\n" \
	"}\n"
#define OTHER_TMF \
	"0badf00d-0001-3002-8000-000000000002 other // SRC=o.c MJ= MN=\n" \
	"#typev o_c1 10 \"%0o\" // LEVEL= FLAGS= FUNC=f\n{\n}\n"

__attribute__((section(ETW_WPP_TMF_SECTION), used))
static const char section_1[] = TMF_BODY;
__attribute__((section(ETW_WPP_TMF_SECTION), used))
static const char section_2[] = OTHER_TMF;
__attribute__((section(ETW_WPP_TMF_SECTION), used))
static const char section_3[] = TMF_BODY;

static const char tmf[] = TMF_BODY;

struct props {
	EVENT_TRACE_PROPERTIES p;
	char names[1024];
};

FIXTURE(wpp) {
	char dir[64];
	char etl[128];
	char tmfdir[128];
	/* What the records were, from the file's reader. */
	uint32_t pid, tid[4], cpu[4];
	uint64_t filetime[4];
	uint32_t buffers;
	uint32_t records;
};

static void write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

FIXTURE_SETUP(wpp)
{
	struct props b = { 0 };
	CONTROLTRACE_ID h;
	uint32_t one = 1, st = 0x8000000f;
	uint64_t ptr = 0x1122334455667788ull;
	char path[256];
	struct etw_etl *etl;
	struct etw_etl_event ev;
	int n = 0;

	strcpy(self->dir, "/tmp/wpp_records_XXXXXX");
	ASSERT_NE(NULL, mkdtemp(self->dir));
	snprintf(self->etl, sizeof(self->etl), "%s/t.etl", self->dir);
	snprintf(self->tmfdir, sizeof(self->tmfdir), "%s/tmf", self->dir);
	ASSERT_EQ(0, mkdir(self->tmfdir, 0755));
	snprintf(path, sizeof(path), "%s/%s.tmf", self->tmfdir, MSG_GUID_STR);
	write_file(path, tmf);

	b.p.Wnode.BufferSize = sizeof(b);
	b.p.Wnode.Flags = WNODE_FLAG_TRACED_GUID;
	b.p.LogFileMode = EVENT_TRACE_PRIVATE_LOGGER_MODE | EVENT_TRACE_USE_LOCAL_SEQUENCE;
	b.p.LoggerNameOffset = sizeof(EVENT_TRACE_PROPERTIES);
	b.p.LogFileNameOffset = sizeof(EVENT_TRACE_PROPERTIES) + 256;
	strcpy((char *)&b + b.p.LogFileNameOffset, self->etl);
	ASSERT_EQ(ERROR_SUCCESS, StartTraceA(&h, "wpp-test", &b.p));
	/* As WPP's generated code calls it: (pointer, size) pairs, then 0. */
	EXPECT_EQ(ERROR_SUCCESS, TraceMessage(h, WPP_FLAGS, (LPGUID)&msg_guid, 10,
					      &one, sizeof(one), "Hi", (size_t)3,
					      NULL, (size_t)0));
	EXPECT_EQ(ERROR_SUCCESS, TraceMessage(h, WPP_FLAGS, (LPGUID)&msg_guid, 11,
					      &st, sizeof(st), NULL, (size_t)0));
	EXPECT_EQ(ERROR_SUCCESS, TraceMessage(h, WPP_FLAGS, (LPGUID)&other_guid, 5,
					      NULL, (size_t)0));
	/* The string without its NUL: the data does not match the TMF. */
	EXPECT_EQ(ERROR_SUCCESS, TraceMessage(h, WPP_FLAGS, (LPGUID)&msg_guid, 10,
					      &one, sizeof(one), "Hi", (size_t)2,
					      NULL, (size_t)0));
	EXPECT_EQ(ERROR_SUCCESS, TraceMessage(h, WPP_FLAGS, (LPGUID)&msg_guid, 12,
					      &ptr, sizeof(ptr), NULL, (size_t)0));
	/* An 8-bit string that is not UTF-8 (Windows' code page). */
	EXPECT_EQ(ERROR_SUCCESS, TraceMessage(h, WPP_FLAGS, (LPGUID)&msg_guid, 10,
					      &one, sizeof(one), "caf\xe9", (size_t)5,
					      NULL, (size_t)0));
	memset(&b, 0, sizeof(b));
	b.p.Wnode.BufferSize = sizeof(b);
	ASSERT_EQ(ERROR_SUCCESS, ControlTraceA(h, NULL, &b.p, EVENT_TRACE_CONTROL_STOP));

	ASSERT_EQ(0, etw_etl_open(self->etl, &etl, NULL));
	self->buffers = etw_etl_get_header(etl)->buffer_count;
	etw_etl_rewind(etl, ETW_ETL_ORDER_TIME);
	while (etw_etl_next(etl, &ev) == 1) {
		self->records++;
		if (ev.kind != ETW_ETL_KIND_MESSAGE || n >= 4)
			continue;
		self->pid = ev.process_id;
		self->tid[n] = ev.thread_id;
		self->cpu[n] = ev.processor;
		self->filetime[n] = ev.filetime;
		n++;
	}
	etw_etl_close(etl);
	ASSERT_EQ(4, n);
}

FIXTURE_TEARDOWN(wpp)
{
	char cmd[256];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", self->dir);
	if (system(cmd))
		TH_LOG("could not remove %s", self->dir);
}

/* The output of a command (stdout and stderr), and its exit status. */
static char *run(const char *env, const char *opts, const char *file, int *status)
{
	char cmd[1024];
	static char out[65536];
	size_t n;
	FILE *p;

	snprintf(cmd, sizeof(cmd), "%s %s dump %s '%s' 2>&1", env, ETW_TOOL_PATH,
		 opts, file);
	p = popen(cmd, "r");
	if (!p)
		return NULL;
	n = fread(out, 1, sizeof(out) - 1, p);
	out[n] = '\0';
	*status = pclose(p);
	return out;
}

/* tracefmt's prefix of record i: "[CPU]PID.TID::time [wpptest]". */
static void prefix(FIXTURE_DATA(wpp) *self, int i, char *buf, size_t size)
{
	char t[ETW_WPP_TIME_STRLEN];

	etw_wpp_format_time(self->filetime[i], true, t, sizeof(t));
	snprintf(buf, size, "[%u]%04X.%04X::%s [wpptest]", self->cpu[i], self->pid,
		 self->tid[i], t);
}

TEST_F(wpp, dump_as_tracefmt)
{
	char opts[256], want[512], p[128];
	int status;
	char *out;

	snprintf(opts, sizeof(opts), "--tmf '%s' --gmt", self->tmfdir);
	out = run("TRACE_FORMAT_PREFIX=", opts, self->etl, &status);
	ASSERT_NE(NULL, out);
	EXPECT_EQ(0, status) {
		TH_LOG("%s", out);
	}
	prefix(self, 0, p, sizeof(p));
	snprintf(want, sizeof(want), "\n%sHello, 1 Hi\n", p);
	EXPECT_NE(NULL, strstr(out, want)) {
		TH_LOG("want %s in:\n%s", want, out);
	}
	prefix(self, 1, p, sizeof(p));
	snprintf(want, sizeof(want), "\n%sFunction Return=0x8000000f(STATUS_DEVICE_POWERED_OFF)\n", p);
	EXPECT_NE(NULL, strstr(out, want)) {
		TH_LOG("want %s in:\n%s", want, out);
	}
	EXPECT_NE(NULL, strstr(out, "\nUnknown(  5): GUID=0badf00d-0001-3002-8000-000000000001 (No Format Information found).\n"));
	prefix(self, 3, p, sizeof(p));
	snprintf(want, sizeof(want), "\n%sHello, 1 <bad data: %%11 ItemString has no NUL in the 2 bytes left>\n", p);
	EXPECT_NE(NULL, strstr(out, want)) {
		TH_LOG("want %s in:\n%s", want, out);
	}
	snprintf(want, sizeof(want), "\nProcessing completed   Buffers: %u, Events: %u, EventsLost: 0 :: Format Errors: 1, Unknowns: 1\n",
		 self->buffers, self->records);
	EXPECT_NE(NULL, strstr(out, want)) {
		TH_LOG("want %s in:\n%s", want, out);
	}
}

TEST_F(wpp, prefix_and_search_path_from_the_environment)
{
	char env[512];
	int status;
	char *out;

	snprintf(env, sizeof(env),
		 "TRACE_FORMAT_SEARCH_PATH='/nonexistent;%s' TRACE_FORMAT_PREFIX='%%2!s!: %%!FUNC!: %%7!d! '",
		 self->tmfdir);
	out = run(env, "-f tracefmt --no-prefix", self->etl, &status);
	ASSERT_NE(NULL, out);
	EXPECT_NE(NULL, strstr(out, "\nHello, 1 Hi\n")) {
		TH_LOG("%s", out);
	}
	out = run(env, "-f tracefmt", self->etl, &status);
	EXPECT_EQ(0, status);
	/* Sequence numbers of a local-sequence session start at 1. */
	EXPECT_NE(NULL, strstr(out, "\nmain_c20: main: 1 Hello, 1 Hi\n")) {
		TH_LOG("%s", out);
	}
	EXPECT_NE(NULL, strstr(out, "\nmain_c30: work: 2 Function Return=0x8000000f(STATUS_DEVICE_POWERED_OFF)\n"));
}

TEST_F(wpp, json_and_csv_name_each_argument)
{
	char opts[256];
	int status;
	char *out;

	snprintf(opts, sizeof(opts), "-f json --tmf '%s'", self->tmfdir);
	out = run("", opts, self->etl, &status);
	ASSERT_NE(NULL, out);
	EXPECT_EQ(0, status);
	EXPECT_NE(NULL, strstr(out, "\"fields\": [{\"name\": \"x\", \"value\": \"1\"}, {\"name\": \"name\", \"value\": \"Hi\"}]")) {
		TH_LOG("%s", out);
	}
	EXPECT_NE(NULL, strstr(out, "{\"name\": \"Message\", \"value\": \"Hello, 1 Hi\"}"));
	EXPECT_NE(NULL, strstr(out, "{\"name\": \"Function\", \"value\": \"work\"}"));
	EXPECT_NE(NULL, strstr(out, "\"event_name\": \"main_c20\""));
	EXPECT_NE(NULL, strstr(out, "\"provider_name\": \"wpptest\""));
	EXPECT_NE(NULL, strstr(out, "\"warning\": \"the data does not match message 10 of its TMF\""));

	snprintf(opts, sizeof(opts), "-f csv --tmf '%s'", self->tmfdir);
	out = run("", opts, self->etl, &status);
	EXPECT_EQ(0, status);
	EXPECT_NE(NULL, strstr(out, ",\"Hello, 1 Hi\",")) {
		TH_LOG("%s", out);
	}
	EXPECT_NE(NULL, strstr(out, ",status=0x8000000f(STATUS_DEVICE_POWERED_OFF),"));
	EXPECT_NE(NULL, strstr(out, ",No Format Information found: no TMF has message 5 of 0badf00d-0001-3002-8000-000000000001,"));
}

TEST_F(wpp, tmf_errors_name_the_file)
{
	char opts[512], bad[256];
	int status;
	char *out;

	snprintf(bad, sizeof(bad), "%s/bad.tmf", self->dir);
	write_file(bad, MSG_GUID_STR " x\n#typev a 1 \"t\"\n{\nx, ItemNope -- 10\n}\n");
	snprintf(opts, sizeof(opts), "--tmf '%s'", bad);
	out = run("", opts, self->etl, &status);
	EXPECT_NE(0, status);
	EXPECT_NE(NULL, strstr(out, "bad.tmf:4: unknown item type 'ItemNope'")) {
		TH_LOG("%s", out);
	}
	out = run("", "--wpp-binary /bin/sh", self->etl, &status);
	EXPECT_NE(0, status);
	EXPECT_NE(NULL, strstr(out, "no .etw.tmf section")) {
		TH_LOG("%s", out);
	}
}

static char *slurp(const char *path)
{
	static char buf[4096];
	FILE *f = fopen(path, "r");
	size_t n;

	if (!f)
		return NULL;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	buf[n] = '\0';
	fclose(f);
	return buf;
}

TEST_F(wpp, extract_and_dump_from_a_binary)
{
	char self_path[512], opts[1024], out_dir[256], path[512], want[512], p[128];
	ssize_t n = readlink("/proc/self/exe", self_path, sizeof(self_path) - 1);
	int status;
	char *out, *text;
	FILE *pipe;

	ASSERT_GT(n, 0);
	self_path[n] = '\0';
	snprintf(out_dir, sizeof(out_dir), "%s/extracted", self->dir);
	ASSERT_EQ(0, mkdir(out_dir, 0755));
	snprintf(opts, sizeof(opts), "%s wpp extract -o '%s' '%s' 2>&1", ETW_TOOL_PATH,
		 out_dir, self_path);
	pipe = popen(opts, "r");
	ASSERT_NE(NULL, pipe);
	n = (ssize_t)fread(want, 1, sizeof(want) - 1, pipe);
	want[n > 0 ? n : 0] = '\0';
	EXPECT_EQ(0, pclose(pipe));
	EXPECT_NE(NULL, strstr(want, "2 TMF files written")) {
		TH_LOG("%s", want);
	}
	snprintf(path, sizeof(path), "%s/%s.tmf", out_dir, MSG_GUID_STR);
	text = slurp(path);
	ASSERT_NE(NULL, text);
	EXPECT_STREQ(tmf, text);
	snprintf(path, sizeof(path), "%s/0badf00d-0001-3002-8000-000000000002.tmf", out_dir);
	text = slurp(path);
	ASSERT_NE(NULL, text);
	EXPECT_STREQ(OTHER_TMF, text);

	/* The extracted files, and the binary itself, format the records. */
	snprintf(opts, sizeof(opts), "--gmt --tmf '%s'", out_dir);
	out = run("TRACE_FORMAT_PREFIX=", opts, self->etl, &status);
	prefix(self, 0, p, sizeof(p));
	snprintf(want, sizeof(want), "\n%sHello, 1 Hi\n", p);
	EXPECT_NE(NULL, strstr(out, want)) {
		TH_LOG("%s", out);
	}
	snprintf(opts, sizeof(opts), "--gmt --wpp-binary '%s'", self_path);
	out = run("TRACE_FORMAT_PREFIX=", opts, self->etl, &status);
	EXPECT_EQ(0, status);
	EXPECT_NE(NULL, strstr(out, want)) {
		TH_LOG("%s", out);
	}
	/* Not a folder; no section. */
	snprintf(opts, sizeof(opts), "%s wpp extract -o /nonexistent '%s' 2>&1", ETW_TOOL_PATH,
		 self_path);
	EXPECT_NE(0, system(opts));
}

/* ---- ProcessTrace and TDH ---- */

struct seen {
	struct __test_metadata *md;
	const char *tmfdir;
	int wpp, other;
};

static const WCHAR *wstr(const char *s)
{
	static WCHAR buf[4][256];
	static int k;
	WCHAR *w = buf[k++ & 3];
	int i;

	for (i = 0; s[i] && i < 255; i++)
		w[i] = (WCHAR)s[i];
	w[i] = 0;
	return w;
}

static const char *narrow(const void *p)
{
	static char buf[512];
	const uint8_t *b = p;
	int i;

	for (i = 0; i < 511 && (b[2 * i] | b[2 * i + 1]); i++)
		buf[i] = (char)b[2 * i];
	buf[i] = '\0';
	return buf;
}

/* TdhGetWppProperty as text (strings) or its first ULONG. */
static ULONG prop(TDH_HANDLE h, PEVENT_RECORD r, const char *name, BYTE *buf,
		  ULONG *size)
{
	*size = 512;
	return TdhGetWppProperty(h, r, (PWSTR)wstr(name), size, buf);
}

static void check_tdh(struct __test_metadata *_metadata, struct seen *s,
		      PEVENT_RECORD r)
{
	TDH_CONTEXT ctx = { .ParameterType = TDH_CONTEXT_WPP_TMFSEARCHPATH,
			    .ParameterValue = (ULONGLONG)(uintptr_t)wstr(s->tmfdir) };
	TDH_CONTEXT gmt = { .ParameterType = TDH_CONTEXT_WPP_GMT, .ParameterValue = 1 };
	union {
		TRACE_EVENT_INFO tei;
		BYTE b[4096];
	} info;
	BYTE buf[512];
	ULONG size = sizeof(info), v;
	TDH_HANDLE h;

	/* No TMF named: no source knows it, as before. */
	EXPECT_EQ(ERROR_NOT_FOUND, TdhGetEventInformation(r, 0, NULL, &info.tei, &size));
	size = sizeof(info);
	ASSERT_EQ(ERROR_SUCCESS, TdhGetEventInformation(r, 1, &ctx, &info.tei, &size));
	EXPECT_EQ(DecodingSourceWPP, info.tei.DecodingSource);
	EXPECT_EQ(10, info.tei.EventDescriptor.Id);
	EXPECT_EQ(0, memcmp(&info.tei.ProviderGuid, &msg_guid, sizeof(GUID)));
	ASSERT_EQ(2, info.tei.PropertyCount);
	EXPECT_STREQ("x", narrow(info.b + info.tei.EventPropertyInfoArray[0].NameOffset));
	EXPECT_EQ(TDH_INTYPE_INT32, info.tei.EventPropertyInfoArray[0].nonStructType.InType);
	EXPECT_STREQ("name", narrow(info.b + info.tei.EventPropertyInfoArray[1].NameOffset));
	EXPECT_EQ(TDH_INTYPE_ANSISTRING, info.tei.EventPropertyInfoArray[1].nonStructType.InType);
	EXPECT_STREQ("wpptest", narrow(info.b + info.tei.ProviderNameOffset));
	size = 8;
	EXPECT_EQ(ERROR_INSUFFICIENT_BUFFER, TdhGetEventInformation(r, 1, &ctx, &info.tei, &size));
	EXPECT_GT(size, 8);

	ASSERT_EQ(ERROR_SUCCESS, TdhOpenDecodingHandle(&h));
	/* No TMF yet (and no TRACE_FORMAT_SEARCH_PATH): not found. */
	size = sizeof(buf);
	EXPECT_EQ(ERROR_NOT_FOUND, TdhGetWppMessage(h, r, &size, buf));
	ASSERT_EQ(ERROR_SUCCESS, TdhSetDecodingParameter(h, &ctx));
	ASSERT_EQ(ERROR_SUCCESS, TdhSetDecodingParameter(h, &gmt));
	size = sizeof(buf);
	ASSERT_EQ(ERROR_SUCCESS, TdhGetWppMessage(h, r, &size, buf));
	EXPECT_STREQ("Hello, 1 Hi", narrow(buf));
	EXPECT_EQ(sizeof("Hello, 1 Hi") * 2, size);
	size = 4;
	EXPECT_EQ(ERROR_INSUFFICIENT_BUFFER, TdhGetWppMessage(h, r, &size, buf));
	EXPECT_EQ(sizeof("Hello, 1 Hi") * 2, size);

	EXPECT_EQ(ERROR_SUCCESS, prop(h, r, "FormattedString", buf, &size));
	EXPECT_STREQ("Hello, 1 Hi", narrow(buf));
	EXPECT_EQ(ERROR_SUCCESS, prop(h, r, "FunctionName", buf, &size));
	EXPECT_STREQ("main", narrow(buf));
	EXPECT_EQ(ERROR_SUCCESS, prop(h, r, "GuidName", buf, &size));
	EXPECT_STREQ("wpptest", narrow(buf));
	EXPECT_EQ(ERROR_SUCCESS, prop(h, r, "GuidTypeName", buf, &size));
	EXPECT_STREQ("main_c20", narrow(buf));
	EXPECT_EQ(ERROR_SUCCESS, prop(h, r, "LevelName", buf, &size));
	EXPECT_STREQ("TRACE_LEVEL_INFORMATION", narrow(buf));
	EXPECT_EQ(ERROR_SUCCESS, prop(h, r, "FlagsName", buf, &size));
	EXPECT_STREQ("FLAG_ONE", narrow(buf));
	EXPECT_EQ(ERROR_SUCCESS, prop(h, r, "ComponentName", buf, &size));
	EXPECT_STREQ("Comp", narrow(buf));
	EXPECT_EQ(ERROR_SUCCESS, prop(h, r, "SubComponentName", buf, &size));
	EXPECT_STREQ("Sub", narrow(buf));
	EXPECT_EQ(ERROR_SUCCESS, prop(h, r, "ThreadId", buf, &size));
	memcpy(&v, buf, 4);
	EXPECT_EQ(4, size);
	EXPECT_EQ(r->EventHeader.ThreadId, v);
	EXPECT_EQ(ERROR_SUCCESS, prop(h, r, "ProcessId", buf, &size));
	memcpy(&v, buf, 4);
	EXPECT_EQ(getpid(), (pid_t)v);
	EXPECT_EQ(ERROR_SUCCESS, prop(h, r, "TraceGuid", buf, &size));
	EXPECT_EQ(sizeof(GUID), size);
	EXPECT_EQ(0, memcmp(buf, &msg_guid, sizeof(GUID)));
	EXPECT_EQ(ERROR_SUCCESS, prop(h, r, "RawSystemTime", buf, &size));
	EXPECT_EQ(0, memcmp(buf, &r->EventHeader.TimeStamp, 8));
	EXPECT_EQ(ERROR_SUCCESS, prop(h, r, "SystemTime", buf, &size));
	EXPECT_EQ(sizeof(SYSTEMTIME), size);
	{
		SYSTEMTIME st;
		char t[64], want[ETW_WPP_TIME_STRLEN];

		memcpy(&st, buf, sizeof(st));
		snprintf(t, sizeof(t), "%02u/%02u/%04u-%02u:%02u:%02u.%03u",
			 st.wMonth, st.wDay, st.wYear, st.wHour, st.wMinute,
			 st.wSecond, st.wMilliseconds);
		etw_wpp_format_time((uint64_t)r->EventHeader.TimeStamp.QuadPart,
				    true, want, sizeof(want));
		EXPECT_STREQ(want, t);
	}
	EXPECT_EQ(ERROR_NOT_FOUND, prop(h, r, "NoSuchProperty", buf, &size));
	EXPECT_EQ(ERROR_INVALID_PARAMETER, TdhGetWppProperty(h, r, NULL, &size, buf));
	EXPECT_EQ(ERROR_INVALID_PARAMETER, TdhGetWppMessage(h, NULL, &size, buf));
	EXPECT_EQ(ERROR_INVALID_PARAMETER, TdhGetWppMessage(h, r, NULL, buf));
	EXPECT_EQ(ERROR_SUCCESS, TdhCloseDecodingHandle(h));
	size = sizeof(buf);
	EXPECT_EQ(ERROR_INVALID_PARAMETER, TdhGetWppMessage(NULL, r, &size, buf));
}

/* TDH_CONTEXT_WPP_TMFFILE, and TDH_CONTEXT_POINTERSIZE over the record's. */
static void check_tmf_file_and_pointer_size(struct __test_metadata *_metadata,
					    struct seen *s, PEVENT_RECORD r)
{
	char file[256];
	TDH_CONTEXT ctx = { .ParameterType = TDH_CONTEXT_WPP_TMFFILE };
	TDH_CONTEXT ps = { .ParameterType = TDH_CONTEXT_POINTERSIZE, .ParameterValue = 4 };
	BYTE buf[256];
	ULONG size = sizeof(buf);
	TDH_HANDLE h;

	snprintf(file, sizeof(file), "%s/%s.tmf", s->tmfdir, MSG_GUID_STR);
	ctx.ParameterValue = (ULONGLONG)(uintptr_t)wstr(file);
	ASSERT_EQ(ERROR_SUCCESS, TdhOpenDecodingHandle(&h));
	ASSERT_EQ(ERROR_SUCCESS, TdhSetDecodingParameter(h, &ctx));
	ASSERT_EQ(ERROR_SUCCESS, TdhGetWppMessage(h, r, &size, buf));
	EXPECT_STREQ("p=1122334455667788", narrow(buf));
	ASSERT_EQ(ERROR_SUCCESS, TdhSetDecodingParameter(h, &ps));
	size = sizeof(buf);
	ASSERT_EQ(ERROR_SUCCESS, TdhGetWppMessage(h, r, &size, buf));
	EXPECT_STREQ("p=55667788", narrow(buf));
	ps.ParameterValue = 5;
	EXPECT_EQ(ERROR_INVALID_PARAMETER, TdhSetDecodingParameter(h, &ps));
	EXPECT_EQ(ERROR_SUCCESS, TdhCloseDecodingHandle(h));
}

/* Not UTF-8: each byte as its code point. */
static void check_latin1(struct __test_metadata *_metadata, struct seen *s,
			 PEVENT_RECORD r)
{
	TDH_CONTEXT ctx = { .ParameterType = TDH_CONTEXT_WPP_TMFSEARCHPATH,
			    .ParameterValue = (ULONGLONG)(uintptr_t)wstr(s->tmfdir) };
	static const char want[] = "Hello, 1 caf\xe9";
	WCHAR buf[64];
	ULONG size = sizeof(buf);
	TDH_HANDLE h;

	ASSERT_EQ(ERROR_SUCCESS, TdhOpenDecodingHandle(&h));
	ASSERT_EQ(ERROR_SUCCESS, TdhSetDecodingParameter(h, &ctx));
	ASSERT_EQ(ERROR_SUCCESS, TdhGetWppMessage(h, r, &size, (PBYTE)buf));
	ASSERT_EQ(sizeof(want) * sizeof(WCHAR), size);
	for (size_t i = 0; i < sizeof(want); i++)
		EXPECT_EQ((unsigned char)want[i], buf[i]);
	TdhCloseDecodingHandle(h);
}

static void WINAPI on_record(PEVENT_RECORD r)
{
	struct seen *s = r->UserContext;
	struct __test_metadata *_metadata = s->md;
	const EVENT_HEADER *h = &r->EventHeader;

	if (!(h->Flags & EVENT_HEADER_FLAG_TRACE_MESSAGE)) {
		TDH_HANDLE th;
		BYTE buf[64];
		ULONG size = sizeof(buf);

		/* Not WPP: the WPP functions refuse it. */
		if (!s->other++ && TdhOpenDecodingHandle(&th) == ERROR_SUCCESS) {
			EXPECT_EQ(ERROR_INVALID_PARAMETER, TdhGetWppMessage(th, r, &size, buf));
			TdhCloseDecodingHandle(th);
		}
		return;
	}
	s->wpp++;
	EXPECT_TRUE(h->Flags & EVENT_HEADER_FLAG_64_BIT_HEADER);
	if (s->wpp == 3) {
		EXPECT_EQ(0, memcmp(&h->ProviderId, &other_guid, sizeof(GUID)));
		EXPECT_EQ(5, h->EventDescriptor.Id);
		return;
	}
	EXPECT_EQ(0, memcmp(&h->ProviderId, &msg_guid, sizeof(GUID)));
	EXPECT_EQ(s->wpp == 2 ? 11 : s->wpp == 5 ? 12 : 10, h->EventDescriptor.Id);
	if (s->wpp == 5)
		check_tmf_file_and_pointer_size(_metadata, s, r);
	if (s->wpp == 6)
		check_latin1(_metadata, s, r);
	EXPECT_EQ(getpid(), (pid_t)h->ProcessId);
	if (s->wpp == 1) {
		ASSERT_EQ(7, r->UserDataLength);
		check_tdh(_metadata, s, r);
	}
}

TEST_F(wpp, process_trace_and_tdh)
{
	EVENT_TRACE_LOGFILEA lf = { 0 };
	struct seen s = { .md = _metadata, .tmfdir = self->tmfdir };
	PROCESSTRACE_HANDLE h;

	unsetenv("TRACE_FORMAT_SEARCH_PATH");
	lf.LogFileName = self->etl;
	lf.ProcessTraceMode = PROCESS_TRACE_MODE_EVENT_RECORD;
	lf.EventRecordCallback = on_record;
	lf.Context = &s;
	h = OpenTraceA(&lf);
	ASSERT_NE(INVALID_PROCESSTRACE_HANDLE, h);
	EXPECT_EQ(ERROR_SUCCESS, ProcessTrace(&h, 1, NULL, NULL));
	CloseTrace(h);
	EXPECT_EQ(6, s.wpp);
	EXPECT_GT(s.other, 0);
}

TEST_HARNESS_MAIN
