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
#include "wpp_expected.h"

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

/* Records of the sample with the control GUID enabled with flags and level. */
static void run(struct __test_metadata *_metadata, FIXTURE_DATA(wpp) *self, ULONG flags,
		UCHAR level, int count)
{
	struct etw_etl_event rec[32];
	struct wpp_want w[13];
	int n, want = wpp_expected(w, flags, level);

	ASSERT_EQ(count, want);
	n = record(self->path, (int)flags, level, rec, 32, &self->etl);
	ASSERT_EQ(want, n);
	for (int i = 0; i < n; i++)
		wpp_check(_metadata, &self->guid, &rec[i], &w[i]);
}

/* Flags 3, level 4: every message but the verbose one and TRACE_RETURN(0). */
TEST_F(wpp, arguments_as_windows_logs_them)
{
	run(_metadata, self, 3, TRACE_LEVEL_INFORMATION, 12);
}

/* Flag 1 alone, level 5: FLAG_TWO's messages are not written. */
TEST_F(wpp, flags_and_level_filter)
{
	run(_metadata, self, 1, TRACE_LEVEL_VERBOSE, 4);
}

/*
 * The whole pipeline: the sample's records, decoded by etw dump with the
 * TMF text its .etw.tmf section carries (this program's own), read as
 * Windows' tracefmt prints them, line for line.
 */
TEST_F(wpp, decoded_as_tracefmt_shows_them)
{
	struct etw_etl_event rec[32];
	char cmd[512], *line = NULL;
	size_t n = 0, cap = 0;
	char *want = slurp("testdata/wpp/tracesample.txt", &n);
	const char *w = want;
	FILE *p;
	int got = 0;

	ASSERT_NE(NULL, want);
	ASSERT_EQ(12, record(self->path, 3, TRACE_LEVEL_INFORMATION, rec, 32, &self->etl));
	snprintf(cmd, sizeof(cmd), "%s dump --wpp-binary /proc/%d/exe --no-prefix %s",
		 ETW_TOOL_PATH, getpid(), self->path);
	p = popen(cmd, "r");
	ASSERT_NE(NULL, p);
	while (getline(&line, &cap, p) > 0) {
		const char *end = strchr(w, '\n');
		size_t len = end ? (size_t)(end - w) : strlen(w);

		/* The file's header record and the closing summary are not messages. */
		if (strstr(line, "[EventTrace]") || !strncmp(line, "Processing completed", 20) ||
		    !*w)
			continue;
		line[strcspn(line, "\n")] = '\0';
		EXPECT_EQ(0, strncmp(line, w, len) || strlen(line) != len) {
			TH_LOG("line %d: got '%s', want '%.*s'", got + 1, line, (int)len, w);
		}
		w = end ? end + 1 : w + len;
		got++;
	}
	EXPECT_EQ(0, pclose(p));
	EXPECT_EQ(12, got);
	EXPECT_EQ(0, *w);
	free(line);
	free(want);
}

/* Level 1 (critical) with both flags: only the messages without a level. */
TEST_F(wpp, level_below_every_level_message)
{
	run(_metadata, self, 3, TRACE_LEVEL_CRITICAL, 10);
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
