// SPDX-License-Identifier: GPL-2.0
/*
 * The WPP sample (examples/wpp), built unchanged through etw wpp in
 * Windows-source mode, recorded by a private logger: each record's
 * message number, message GUID, option flags and argument bytes as
 * Windows' templates log them; the flag and level filters; nothing before
 * WPP_INIT_TRACING or after WPP_CLEANUP.  And the format information: the
 * TMF file etw wpp wrote is the expected text (testdata/wpp), and the
 * program's .etw.tmf section holds that text and a NUL.
 */
/* The harness first: <windows.h> renames the C runtime in this mode. */
#include "kselftest_harness.h"

#include <glob.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

#include <windows.h>
#include <evntrace.h>
#include <etw_etl.h>

#include "trace.h"

static const GUID ctl = { 0x6f8b0d3a, 0x52c4, 0x4e1f,
			  { 0x9a, 0x37, 0x1c, 0x2d, 0x3e, 0x4f, 0x5a, 0x6b } };

struct props {
	EVENT_TRACE_PROPERTIES p;
	char names[1024];
};

/* A private logger writing to file, or ControlTrace's code on h. */
static ULONG control(CONTROLTRACE_ID *h, ULONG code, const char *file)
{
	struct props b;

	memset(&b, 0, sizeof(b));
	b.p.Wnode.BufferSize = sizeof(b);
	b.p.Wnode.Flags = WNODE_FLAG_TRACED_GUID;
	b.p.LoggerNameOffset = sizeof(EVENT_TRACE_PROPERTIES);
	if (!file)
		return ControlTraceA(*h, NULL, &b.p, code);
	b.p.LogFileMode = EVENT_TRACE_PRIVATE_LOGGER_MODE;
	b.p.LogFileNameOffset = sizeof(EVENT_TRACE_PROPERTIES) + 256;
	strcpy((char *)&b + b.p.LogFileNameOffset, file);
	return StartTraceA(h, "wpp-sample", &b.p);
}

static char *slurp(const char *path, size_t *n)
{
	FILE *f = fopen(path, "rb");
	char *s;
	long len;

	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	len = ftell(f);
	rewind(f);
	s = malloc((size_t)len + 1);
	*n = fread(s, 1, (size_t)len, f);
	s[*n] = 0;
	fclose(f);
	return s;
}

/* The one TMF etw wpp wrote for tracesample.c, and its GUID. */
static char *tmf(GUID *g, size_t *n)
{
	glob_t gl;
	char *text = NULL;
	unsigned int a, b, c, d[8];

	if (glob(WPP_GEN_DIR "/*.tmf", 0, NULL, &gl) || gl.gl_pathc != 1)
		return NULL;
	text = slurp(gl.gl_pathv[0], n);
	if (sscanf(strrchr(gl.gl_pathv[0], '/') + 1,
		   "%8x-%4x-%4x-%2x%2x-%2x%2x%2x%2x%2x%2x.tmf", &a, &b, &c, &d[0], &d[1],
		   &d[2], &d[3], &d[4], &d[5], &d[6], &d[7]) == 11) {
		g->Data1 = a;
		g->Data2 = (USHORT)b;
		g->Data3 = (USHORT)c;
		for (int i = 0; i < 8; i++)
			g->Data4[i] = (UCHAR)d[i];
	}
	globfree(&gl);
	return text;
}

/* The expected bytes of a message's arguments. */
struct bytes {
	unsigned char b[256];
	size_t n;
};

static void put(struct bytes *x, const void *v, size_t n)
{
	memcpy(x->b + x->n, v, n);
	x->n += n;
}

#define PUT(x, type, v) do { type _v = (v); put(x, &_v, sizeof(_v)); } while (0)

struct want {
	USHORT number;
	struct bytes data;
};

static int record(const char *path, int flags, int level, struct etw_etl_event *rec, int max,
		  struct etw_etl **etl)
{
	CONTROLTRACE_ID h = 0;
	struct etw_etl_event ev;
	int n = 0;

	unlink(path);
	if (control(&h, 0, path))
		return -1;
	/* Not registered yet: nothing is written. */
	SampleRun(1);
	if (EnableTrace(TRUE, (ULONG)flags, (ULONG)level, &ctl, h))
		return -1;
	SampleStart();
	SampleRun(2);
	SampleStop();
	/* Unregistered: nothing is written. */
	SampleRun(1);
	if (control(&h, EVENT_TRACE_CONTROL_STOP, NULL))
		return -1;
	if (etw_etl_open(path, etl, NULL))
		return -1;
	etw_etl_rewind(*etl, ETW_ETL_ORDER_TIME);
	while (etw_etl_next(*etl, &ev) == 1)
		if (ev.kind == ETW_ETL_KIND_MESSAGE && n < max)
			rec[n++] = ev;
	return n;
}

static void expect_hello(struct want *w, int i)
{
	w->number = 17;
	PUT(&w->data, INT32, i);
	put(&w->data, "Hi", 3);
}

FIXTURE(wpp) {
	struct etw_etl *etl;
	GUID guid;
	char path[64];
};

FIXTURE_SETUP(wpp)
{
	size_t n;

	self->etl = NULL;
	snprintf(self->path, sizeof(self->path), "/tmp/etw-wpp-%d.etl", getpid());
	free(tmf(&self->guid, &n));
}

FIXTURE_TEARDOWN(wpp)
{
	if (self->etl)
		etw_etl_close(self->etl);
	unlink(self->path);
}

static void check(struct __test_metadata *_metadata, const GUID *guid,
		  const struct etw_etl_event *r, const struct want *w)
{
	EXPECT_EQ(w->number, r->id);
	EXPECT_EQ(0, memcmp(&r->provider, guid, 16));
	/* 0x2B as Windows' templates pass it, and the writer's pointer size. */
	EXPECT_EQ(TRACE_MESSAGE_SEQUENCE | TRACE_MESSAGE_GUID | TRACE_MESSAGE_SYSTEMINFO |
		  TRACE_MESSAGE_TIMESTAMP | TRACE_MESSAGE_POINTER64, r->header_flags);
	EXPECT_EQ(getpid(), r->process_id);
	ASSERT_EQ(w->data.n, r->data_size);
	EXPECT_EQ(0, memcmp(r->data, w->data.b, w->data.n));
	if (w->data.n != r->data_size || memcmp(r->data, w->data.b, w->data.n))
		TH_LOG("message %u: the arguments differ", w->number);
}

/* Flags 3, level 4: every message but the verbose one and TRACE_RETURN(0). */
TEST_F(wpp, arguments_as_windows_logs_them)
{
	static const BYTE sid[] = { 1, 1, 0, 0, 0, 0, 0, 5, 18, 0, 0, 0 };
	static const GUID sample = { 0x12345678, 0x9abc, 0xdef0, { 1, 2, 3, 4, 5, 6, 7, 8 } };
	struct etw_etl_event rec[32];
	struct want w[12];
	int n;

	memset(w, 0, sizeof(w));
	expect_hello(&w[0], 1);
	w[1].number = 18;			/* TRACE_RETURN: the failed status */
	PUT(&w[1].data, INT32, (INT32)0x8000000F);
	expect_hello(&w[2], 2);			/* i = 2 succeeded: no return */
	w[3].number = 19;			/* ItemEnum: 4 bytes */
	PUT(&w[3].data, UINT32, 2);
	w[4].number = 21;			/* %!FILE! ...: nothing logged */
	w[5].number = 10;
	PUT(&w[5].data, UINT32, 3000000000u);
	PUT(&w[5].data, UINT32, 0xbeef);
	PUT(&w[5].data, UINT32, 0xabc);
	PUT(&w[5].data, UINT32, 8);
	PUT(&w[5].data, INT16, -2);
	PUT(&w[5].data, UINT16, 65535);
	PUT(&w[5].data, INT32, -100000);
	PUT(&w[5].data, UINT32, 4000000000u);
	PUT(&w[5].data, char, 'A');
	PUT(&w[5].data, INT16, 'W');
	w[6].number = 11;
	PUT(&w[6].data, INT64, -5000000000LL);
	PUT(&w[6].data, UINT64, 18000000000000000000ULL);
	PUT(&w[6].data, INT64, 0x123456789abcdefLL);
	PUT(&w[6].data, INT64, 42);
	PUT(&w[6].data, UINT64, 0x1234);
	PUT(&w[6].data, UINT64, 0xfedc);
	PUT(&w[6].data, double, 2.5);
	w[7].number = 12;			/* strings with their NULs */
	put(&w[7].data, "narrow", 7);
	put(&w[7].data, L"wide", 10);
	put(&w[7].data, L"ls", 6);
	put(&w[7].data, "NULL", 5);
	put(&w[7].data, L"NULL", 10);
	put(&w[7].data, L"<NULL>", 14);
	w[8].number = 13;			/* counted: Length, then the bytes */
	PUT(&w[8].data, UINT16, 4);
	put(&w[8].data, "ansi", 4);
	PUT(&w[8].data, UINT16, 14);
	put(&w[8].data, L"unicode", 14);
	w[9].number = 14;
	put(&w[9].data, &sample, 16);
	PUT(&w[9].data, UINT32, 0xC0000005);
	PUT(&w[9].data, UINT32, 5);
	PUT(&w[9].data, UINT32, 0x80070005);
	w[10].number = 15;
	put(&w[10].data, "\x7f\0\0\x01", 4);	/* 127.0.0.1 as given */
	put(&w[10].data, "\0\x50", 2);		/* port 80 as given */
	PUT(&w[10].data, INT64, 133000000000000000LL);
	PUT(&w[10].data, INT64, -10000000LL);
	w[11].number = 16;
	PUT(&w[11].data, INT32, 1);
	PUT(&w[11].data, char, 0);
	PUT(&w[11].data, char, 2);
	put(&w[11].data, "abcd", 4);
	put(&w[11].data, sid, sizeof(sid));

	n = record(self->path, 3, TRACE_LEVEL_INFORMATION, rec, 32, &self->etl);
	ASSERT_EQ(12, n);
	for (int i = 0; i < n; i++)
		check(_metadata, &self->guid, &rec[i], &w[i]);
}

/* Flag 1 alone, level 5: FLAG_TWO's messages are not written. */
TEST_F(wpp, flags_and_level_filter)
{
	struct etw_etl_event rec[32];
	struct want w[4];
	int n;

	memset(w, 0, sizeof(w));
	expect_hello(&w[0], 1);
	w[1].number = 18;
	PUT(&w[1].data, INT32, (INT32)0x8000000F);
	expect_hello(&w[2], 2);
	w[3].number = 21;
	n = record(self->path, 1, TRACE_LEVEL_VERBOSE, rec, 32, &self->etl);
	ASSERT_EQ(4, n);
	for (int i = 0; i < n; i++)
		check(_metadata, &self->guid, &rec[i], &w[i]);
}

/* Level 1 (critical) with both flags: only the level-less messages. */
TEST_F(wpp, level_below_every_level_message)
{
	struct etw_etl_event rec[32];
	int n;

	n = record(self->path, 3, TRACE_LEVEL_CRITICAL, rec, 32, &self->etl);
	/* Hello x2, TRACE_RETURN, and the seven DoTraceMessage type messages. */
	ASSERT_EQ(10, n);
	for (int i = 0; i < n; i++)
		EXPECT_NE(19, rec[i].id);
}

/* The TMF etw wpp wrote is the expected text, GUID included. */
TEST(tmf_text)
{
	size_t n, m;
	GUID g;
	char *got = tmf(&g, &n), *want = slurp("testdata/wpp/tracesample.tmf", &m);

	ASSERT_NE(NULL, got);
	ASSERT_NE(NULL, want);
	EXPECT_EQ(m, n);
	EXPECT_EQ(0, strcmp(want, got));
	free(got);
	free(want);
}

/* The program carries the same text, NUL-terminated, in .etw.tmf. */
TEST(elf_section)
{
	char out[64], cmd[256];
	size_t n, m;
	GUID g;
	char *text = tmf(&g, &n), *sec;

	snprintf(out, sizeof(out), "/tmp/etw-wpp-sec-%d", getpid());
	snprintf(cmd, sizeof(cmd), "objcopy -O binary --only-section=.etw.tmf /proc/%d/exe %s",
		 getpid(), out);
	ASSERT_EQ(0, system(cmd));
	sec = slurp(out, &m);
	unlink(out);
	ASSERT_NE(NULL, text);
	ASSERT_NE(NULL, sec);
	ASSERT_EQ(n + 1, m);
	EXPECT_EQ(0, memcmp(sec, text, n + 1));
	free(text);
	free(sec);
}

TEST_HARNESS_MAIN
