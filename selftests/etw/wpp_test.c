// SPDX-License-Identifier: GPL-2.0
/*
 * The WPP sample (examples/wpp), built unchanged through etw wpp in
 * Windows-source mode, recorded by a session of etw.ko that enables its
 * control GUID with flags and a level (EnableTrace, EnableTraceEx2): each
 * record's message number, message GUID, option flags and argument bytes
 * as Windows' templates log them (libetw/tests/wpp_expected.h, which the
 * host test with a private logger shares).
 */
#include "kselftest_harness.h"

#include <windows.h>

#include "classic_api.h"
#include "trace.h"
#include "../../libetw/tests/wpp_expected.h"

static const GUID ctl = { 0x6f8b0d3a, 0x52c4, 0x4e1f,
			  { 0x9a, 0x37, 0x1c, 0x2d, 0x3e, 0x4f, 0x5a, 0x6b } };

FIXTURE(wpp) {
	int fd;
	CONTROLTRACE_ID h;
	GUID guid;
};

FIXTURE_SETUP(wpp)
{
	unsigned int a, b, c, d[8];

	etw_require_root(_metadata);
	self->fd = etw_open_or_skip(_metadata);
	etw_stop_test_sessions(self->fd);
	/* The sample's message GUID, as etw wpp made it (testdata/wpp). */
	ASSERT_EQ(11, sscanf(WPP_SAMPLE_GUID, "%8x-%4x-%4x-%2x%2x-%2x%2x%2x%2x%2x%2x", &a, &b,
			     &c, &d[0], &d[1], &d[2], &d[3], &d[4], &d[5], &d[6], &d[7]));
	self->guid.Data1 = a;
	self->guid.Data2 = (USHORT)b;
	self->guid.Data3 = (USHORT)c;
	for (int i = 0; i < 8; i++)
		self->guid.Data4[i] = (UCHAR)d[i];
	ASSERT_EQ(ERROR_SUCCESS, start("etwtest-wpp", 64, 0, &self->h));
}

FIXTURE_TEARDOWN(wpp)
{
	struct pbuf b;

	memset(&b, 0, sizeof(b));
	b.p.Wnode.BufferSize = sizeof(b);
	ControlTraceA(self->h, NULL, &b.p, EVENT_TRACE_CONTROL_STOP);
	close(self->fd);
}

/* Run the sample under the session's enable; check its records. */
static void run(struct __test_metadata *_metadata, FIXTURE_DATA(wpp) *self, ULONG flags,
		UCHAR level, int count)
{
	static const char *path = "/tmp/etwtest-wpp.etl";
	struct wpp_want w[13];
	struct events rd;
	int n = 0, want = wpp_expected(w, flags, level);

	ASSERT_EQ(count, want);
	SampleStart();
	SampleRun(2);
	SampleStop();
	ASSERT_EQ(0, save_etl(self->fd, LOGGER_ID(self->h), path));
	ASSERT_EQ(0, read_etl(path, &rd));
	for (int i = 0; i < rd.n; i++) {
		if (rd.ev[i].kind != ETW_ETL_KIND_MESSAGE)
			continue;
		ASSERT_LT(n, want);
		wpp_check(_metadata, &self->guid, &rd.ev[i], &w[n++]);
	}
	EXPECT_EQ(want, n);
	etw_etl_close(rd.etl);
	unlink(path);
}

/* EnableTrace: flags 3, level 4. */
TEST_F(wpp, enable_trace_flags_and_level)
{
	ASSERT_EQ(ERROR_SUCCESS, EnableTrace(TRUE, 3, TRACE_LEVEL_INFORMATION, &ctl, self->h));
	run(_metadata, self, 3, TRACE_LEVEL_INFORMATION, 12);
}

/* EnableTraceEx2: the flags are MatchAnyKeyword's low 32 bits. */
TEST_F(wpp, enable_trace_ex2_flag_one)
{
	ASSERT_EQ(ERROR_SUCCESS, EnableTraceEx2(self->h, &ctl, EVENT_CONTROL_CODE_ENABLE_PROVIDER,
						TRACE_LEVEL_VERBOSE, 1, 0, 0, NULL));
	run(_metadata, self, 1, TRACE_LEVEL_VERBOSE, 4);
}

/* Not enabled: nothing is written. */
TEST_F(wpp, not_enabled)
{
	run(_metadata, self, 0, 0, 0);
}

TEST_HARNESS_MAIN
