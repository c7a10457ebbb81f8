// SPDX-License-Identifier: GPL-2.0
/*
 * etw export, tested as people use it: a synthetic kernel-logger trace
 * of a program this test compiles (its hot_function in 30 of the 40
 * samples of thread 1235; a context switch out waiting on WrQueue with
 * its stack, readied by thread 1236; activities of user events; a disk
 * write) is exported to speedscope's format and to Perfetto's.  The
 * speedscope file is checked against speedscope's rules and then loaded
 * by speedscope itself (the npm package scripts/setup.sh installs) in
 * Debian's Chromium, headless: the page it renders names hot_function
 * with its 75 %, and a screenshot is kept in BUILD/check/.  The Perfetto
 * file is decoded with the .proto of the tree by Debian's protoc and
 * python3-protobuf (libetw/tests/export_check.py): every packet decodes,
 * interned ids resolve, timestamps are in order per sequence, threads
 * are known; the context switch, the ready, the samples' stacks, the
 * events with their fields and flows, the disk slice are all there.
 * Expected numbers come from how the trace was written, never from the
 * tool.  Needs cc and nm, and the etw tool of this build.
 */
#include <errno.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ktrace.h"
#include "kselftest_harness.h"
#include "run_cmd.h"

#ifndef ETW_TOOL_PATH
#define ETW_TOOL_PATH "build/bin/etw"
#endif

#define BASE		0x555555554000ull
#define KBASE		0xffffffff81000000ull
#define PID		1234
#define TID		1235		/* worker */
#define TID2		1236		/* helper */
#define TID3		1237		/* short: runs 10 us on cpu 0, and ends */
#define T0		2000000ull	/* ticks of 100 ns */

static const char prog_src[] =
	"__attribute__((noinline)) int hot_function(int n)\n"
	"{\n\tvolatile int x = 0;\n\tfor (int i = 0; i < n; i++)\n\t\tx += i;\n\treturn x;\n}\n"
	"int main(int argc, char **argv)\n{\n\treturn hot_function(argc) + 1;\n}\n";

static const char kallsyms_text[] =
	"ffffffff81000000 T _text\n"
	"ffffffff81100000 T do_syscall_64\n"
	"ffffffff81200000 t schedule\n";

static const uint8_t provider[16] = { 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88,
				      1, 2, 3, 4, 5, 6, 7, 8 };

/*
 * The trace.  cpu 0: worker (1235) switched in at T0+1000, sampled every
 * 10 ticks 40 times (30 in hot_function called from main, 10 in the
 * kernel's schedule under do_syscall_64 under main), switched out at
 * T0+1405 waiting on WrQueue with its stack (schedule, main), switched
 * in again at T0+1800; between, thread 1237 runs from T0+1500 and ends
 * at T0+1600.  cpu 1: helper (1236) running from T0+900, 10
 * samples in main, readies worker at T0+1600; its activities: A from
 * T0+1100 to T0+1300 with B (T0+1150 to T0+1250) inside; a 4 KiB write
 * to disk 8:0 completing at T0+1500 after 100 ticks.
 */
static int write_trace(const char *path, const char *prog, uint64_t hot, uint64_t mn)
{
	static struct ktrace kt;
	uint64_t user[] = { BASE + hot + 4, BASE + mn + 8 };
	uint64_t kern[] = { KBASE + 0x200010, KBASE + 0x100020, BASE + mn + 8 };
	uint64_t out[] = { KBASE + 0x200040, BASE + mn + 8 };
	uint8_t act_a[16] = { 0xaa, 1 }, act_b[16] = { 0xbb, 2 };
	uint32_t v = 7;
	int ret = kt_open(&kt, path, 2);

	if (ret)
		return ret;
	kt_cpu(&kt, 0);
	kt_process(&kt, T0, 0, "Idle");
	kt_process(&kt, T0, PID, "prog");
	kt_thread(&kt, T0, PID, TID, "worker");
	kt_thread(&kt, T0, PID, TID2, "helper");
	kt_thread(&kt, T0, PID, TID3, "short");
	kt_image(&kt, T0, 0, KBASE, 0x2000000, "vmlinux");
	kt_image(&kt, T0, PID, BASE, 0x5000, prog);
	kt_cswitch(&kt, T0 + 1000, TID, 0, 1, 32);
	for (int i = 0; i < 40; i++) {
		uint64_t ts = T0 + 1001 + 10 * i;

		if (i % 4 == 3) {
			kt_sample(&kt, ts, kern[0], TID);
			kt_stack(&kt, ts, PID, TID, kern, 3);
		} else {
			kt_sample(&kt, ts, user[0], TID);
			kt_stack(&kt, ts, PID, TID, user, 2);
		}
	}
	kt_cswitch(&kt, T0 + 1405, 0, TID, 5, 15);
	kt_stack(&kt, T0 + 1405, PID, TID, out, 2);
	kt_cswitch(&kt, T0 + 1500, TID3, 0, 1, 32);
	kt_cswitch(&kt, T0 + 1600, 0, TID3, 4, 22);
	kt_cswitch(&kt, T0 + 1800, TID, 0, 1, 32);
	kt_cpu(&kt, 1);
	kt_cswitch(&kt, T0 + 900, TID2, 0, 1, 32);
	for (int i = 0; i < 10; i++) {
		kt_sample(&kt, T0 + 1003 + 10 * i, user[1], TID2);
		kt_stack(&kt, T0 + 1003 + 10 * i, PID, TID2, user + 1, 1);
	}
	kt_event(&kt, T0 + 1100, PID, TID2, provider, 1, 1, act_a, &v, 4);
	kt_event(&kt, T0 + 1150, PID, TID2, provider, 1, 1, act_b, &v, 4);
	kt_event(&kt, T0 + 1250, PID, TID2, provider, 2, 2, act_b, &v, 4);
	kt_event(&kt, T0 + 1300, PID, TID2, provider, 2, 2, act_a, &v, 4);
	kt_disk(&kt, 0x010b, T0 + 1500, 0x800, 4096, 8192, 0x1234, 100, TID2);
	kt_ready(&kt, T0 + 1600, TID);
	kt_cswitch(&kt, T0 + 2000, 0, TID2, 5, 6);
	return kt_close(&kt);
}

FIXTURE(viewers) {
	char dir[64];
	char etl[128];
	char kallsyms[128];
	char json[128];
	char pftrace[128];
	char build[4096];	/* the build directory of the etw tool */
};

FIXTURE_SETUP(viewers)
{
	char prog[128], tool[1024];
	uint64_t hot, mn;
	FILE *f;

	strcpy(self->dir, "/tmp/etw-export-XXXXXX");
	ASSERT_NE(NULL, mkdtemp(self->dir));
	snprintf(prog, sizeof(prog), "%s/prog", self->dir);
	snprintf(self->etl, sizeof(self->etl), "%s/t.etl", self->dir);
	snprintf(self->kallsyms, sizeof(self->kallsyms), "%s/kallsyms", self->dir);
	snprintf(self->json, sizeof(self->json), "%s/t.speedscope.json", self->dir);
	snprintf(self->pftrace, sizeof(self->pftrace), "%s/t.pftrace", self->dir);
	snprintf(tool, sizeof(tool), "%s", ETW_TOOL_PATH);
	ASSERT_NE(NULL, realpath(dirname(dirname(tool)), self->build));
	f = fopen(self->kallsyms, "w");
	ASSERT_NE(NULL, f);
	fputs(kallsyms_text, f);
	fclose(f);
	ASSERT_EQ(0, sh("printf '%%s' '%s' > %s/prog.c", prog_src, self->dir));
	ASSERT_EQ(0, sh("cd %s && cc -O1 -g -o prog prog.c", self->dir));
	hot = nm_symbol(prog, "hot_function");
	mn = nm_symbol(prog, "main");
	ASSERT_NE(0, hot);
	ASSERT_NE(0, mn);
	ASSERT_EQ(0, write_trace(self->etl, prog, hot, mn));
}

FIXTURE_TEARDOWN(viewers)
{
	sh("rm -rf %s", self->dir);
}

static bool has(const struct run *r, const char *s)
{
	return r->out && strstr(r->out, s);
}

#define EXPECT_OUT(r, s) EXPECT_TRUE(has(&(r), s)) TH_LOG("no '%s' in:\n%s", s, (r).out)

static struct run export(struct __test_metadata *_metadata, FIXTURE_DATA(viewers) *self,
			 const char *fmt, const char *out, const char *extra)
{
	struct run r = run("%s export -f %s --kallsyms %s %s -o %s %s", ETW_TOOL_PATH, fmt,
			   self->kallsyms, extra, out, self->etl);

	EXPECT_EQ(0, r.status) TH_LOG("%s", r.out);
	return r;
}

static struct run check(const char *what, const char *file)
{
	return run("/usr/bin/python3 libetw/tests/export_check.py %s %s %s", what, file,
		   !strcmp(what, "perfetto") ? "tools/export" : "");
}

/* Samples per thread, hot_function's share, kernel frames named. */
TEST_F(viewers, speedscope_sampled_profiles)
{
	struct run r;

	free(export(_metadata, self, "speedscope", self->json, "").out);
	r = check("speedscope", self->json);
	EXPECT_EQ(0, r.status);
	EXPECT_OUT(r, "ok speedscope");
	EXPECT_OUT(r, "profile sampled: prog (1234) tid 1235 worker none total 40\n"
		      "  main = 40\n  hot_function = 30\n  do_syscall_64 = 10\n  schedule = 10\n");
	EXPECT_OUT(r, "profile sampled: prog (1234) tid 1236 helper none total 10\n  main = 10\n");
	free(r.out);
}

/*
 * Thread time of worker: 40.5 us on the CPU to its switch, blocked 19.5
 * us on WrQueue under the stack it switched out with, readied by helper,
 * 20 us ready, then on the CPU to the trace's end (T0+2000): 20 us.
 */
TEST_F(viewers, speedscope_thread_time)
{
	struct run r;

	free(export(_metadata, self, "speedscope", self->json, "").out);
	r = check("speedscope", self->json);
	EXPECT_EQ(0, r.status);
	EXPECT_OUT(r, "profile sampled: Thread time: prog (1234) nanoseconds");
	EXPECT_OUT(r, "  Thread (1235) worker = 100000\n");
	/* The threads' CPU time: worker's 60.5 us, helper's 110, short's 10. */
	EXPECT_OUT(r, "  CPU_TIME = 180500\n");
	/* short ended: no time off the CPU after that. */
	EXPECT_OUT(r, "  Thread (1237) short = 10000\n");
	EXPECT_FALSE(has(&r, "WrTerminated"));
	EXPECT_OUT(r, "  BLOCKED_TIME (WrQueue) = 19500\n");
	EXPECT_OUT(r, "  READIED_BY prog (1234) tid 1236 = 19500\n");
	EXPECT_OUT(r, "  READIED_TIME = 20000\n");
	EXPECT_OUT(r, "  schedule = 39500\n");
	free(r.out);
}

/* Activities A and B (inside A) of helper, as nested frames. */
TEST_F(viewers, speedscope_activities)
{
	struct run r;

	free(export(_metadata, self, "speedscope", self->json, "").out);
	r = check("speedscope", self->json);
	EXPECT_EQ(0, r.status);
	EXPECT_OUT(r, "profile evented: Activities: prog (1234) tid 1236 helper nanoseconds");
	EXPECT_OUT(r, "  44332211-6655-8877-0102-030405060708/Activity = 30000\n");
	free(r.out);
}

/* --pid and --start/--end keep only what they name. */
TEST_F(viewers, speedscope_filters)
{
	struct run r;

	free(export(_metadata, self, "speedscope", self->json, "--pid 999").out);
	r = check("speedscope", self->json);
	EXPECT_EQ(0, r.status);
	EXPECT_OUT(r, "ok speedscope: 0 profiles");
	free(r.out);
	/* T0 is 100 ms after the start: ticks T0+1000 to T0+1200, 20 samples. */
	free(export(_metadata, self, "speedscope", self->json,
		    "--process prog --start 0.1001 --end 0.10012").out);
	r = check("speedscope", self->json);
	EXPECT_OUT(r, "profile sampled: prog (1234) tid 1235 worker none total 20\n");
	free(r.out);
}

/* speedscope itself, in Chromium: the sandwich view names hot_function at 75 %. */
TEST_F(viewers, speedscope_in_chromium)
{
	char index[4200], js[256], shot[4200];
	struct run r;

	snprintf(index, sizeof(index), "%s/npm/node_modules/speedscope/dist/release/index.html",
		 self->build);
	/* scripts/setup.sh installs both: their absence is a failure, not a skip. */
	ASSERT_EQ(0, access("/usr/bin/chromium", X_OK))
		TH_LOG("/usr/bin/chromium missing: run scripts/setup.sh");
	ASSERT_EQ(0, access(index, R_OK))
		TH_LOG("%s missing: run scripts/setup.sh", index);
	free(export(_metadata, self, "speedscope", self->json, "").out);
	snprintf(js, sizeof(js), "%s/t.js", self->dir);
	ASSERT_EQ(0, sh("{ printf 'speedscope.loadFileFromBase64(\"t.speedscope.json\", \"'; "
			"base64 -w0 %s; printf '\")\\n'; } > %s", self->json, js));
	r = run("cd %s && timeout 120 chromium --headless=new --no-sandbox --disable-gpu "
		"--enable-unsafe-swiftshader --no-first-run --disable-background-networking "
		"--disable-component-update --disable-sync --user-data-dir=%s/chromium "
		"--window-size=1280,800 --virtual-time-budget=8000 --dump-dom "
		"'file://%s#localProfilePath=%s&view=sandwich' 2>/dev/null",
		self->dir, self->dir, index, js);
	EXPECT_EQ(0, r.status);
	EXPECT_OUT(r, "hot_function");
	EXPECT_OUT(r, "(75%)");
	EXPECT_OUT(r, "prog (1234) tid 1235 worker");
	free(r.out);
	/* A picture for people: the left-heavy flame graph. */
	snprintf(shot, sizeof(shot), "%s/check/export-speedscope.png", self->build);
	sh("mkdir -p %s/check", self->build);
	r = run("cd %s && timeout 120 chromium --headless=new --no-sandbox --disable-gpu "
		"--enable-unsafe-swiftshader --no-first-run --disable-background-networking "
		"--disable-component-update --disable-sync --user-data-dir=%s/chromium2 "
		"--window-size=1280,800 --virtual-time-budget=8000 --screenshot=%s "
		"'file://%s#localProfilePath=%s&view=left-heavy'",
		self->dir, self->dir, shot, index, js);
	EXPECT_EQ(0, r.status) TH_LOG("%s", r.out);
	EXPECT_EQ(0, access(shot, R_OK));
	free(r.out);
}

/* The Perfetto file decodes with the tree's .proto, and holds it all. */
TEST_F(viewers, perfetto_decodes_and_holds_the_trace)
{
	struct run r;

	free(export(_metadata, self, "perfetto", self->pftrace, "").out);
	r = run("protoc --decode=perfetto.protos.Trace -Itools/export "
		"tools/export/perfetto_trace.proto < %s > /dev/null", self->pftrace);
	EXPECT_EQ(0, r.status) TH_LOG("%s", r.out);
	free(r.out);
	r = check("perfetto", self->pftrace);
	EXPECT_EQ(0, r.status);
	EXPECT_OUT(r, "ok perfetto");
	EXPECT_OUT(r, "thread 1235 pid 1234 worker (prog)\n");
	EXPECT_OUT(r, "thread 1236 pid 1234 helper (prog)\n");
	EXPECT_OUT(r, "cswitch cpu 0 1235 -> 0 state 5 reason 15\n");
	EXPECT_OUT(r, "ready 1235 by 1236\n");
	EXPECT_OUT(r, "count samples tid 1235 = 40\n");
	EXPECT_OUT(r, "count sample tid 1235: hot_function = 30\n");
	EXPECT_OUT(r, "count sample tid 1235: schedule = 10\n");
	EXPECT_OUT(r, "count c_switch = 7\n");
	EXPECT_OUT(r, "cswitch cpu 0 1237 -> 0 state 4 reason 22\n");
	EXPECT_OUT(r, "event 44332211-6655-8877-0102-030405060708/Event flows 1 ends 0 UserData=0x07000000");
	EXPECT_OUT(r, "ends 1 UserData");
	EXPECT_OUT(r, "slice Write Transfer Size=4096 Byte Offset=8192 Issuing Thread ID=1236 "
		      "Response Time (ns)=10000");
	free(r.out);
}

/* Usage errors name the problem. */
TEST_F(viewers, usage_errors)
{
	struct run r = run("%s export -o /dev/null %s", ETW_TOOL_PATH, self->etl);

	EXPECT_EQ(2, r.status);
	EXPECT_OUT(r, "--format speedscope or --format perfetto");
	free(r.out);
	r = run("%s export -f svg -o /dev/null %s", ETW_TOOL_PATH, self->etl);
	EXPECT_EQ(2, r.status);
	EXPECT_OUT(r, "unknown format 'svg'");
	free(r.out);
	r = run("%s export -f perfetto -o /dev/null --start 2 --end 1 %s", ETW_TOOL_PATH,
		self->etl);
	EXPECT_EQ(2, r.status);
	EXPECT_OUT(r, "--end is before --start");
	free(r.out);
	r = run("%s export -f perfetto -o /dev/null /nonexistent.etl", ETW_TOOL_PATH);
	EXPECT_EQ(1, r.status);
	EXPECT_OUT(r, "/nonexistent.etl");
	free(r.out);
}

/*
 * A PerfView recording (testdata/etl: Windows 8, stack caching, .NET):
 * the samples' stacks are the model's, joined from Windows' stack cache
 * as etw report joins them, so nearly every sample of the profiled
 * process is a deep stack and its .NET frames are named.
 */
#define PERFVIEW_ETL "testdata/etl/perfview-net.4.5.2.x64.etl"

static const char count_stacks_py[] =
	"import json,sys\n"
	"d=json.load(open(sys.argv[1]))\n"
	"p=[x for x in d['profiles'] if x['type']=='sampled']\n"
	"w=[(len(s),n) for x in p for s,n in zip(x['samples'],x['weights'])]\n"
	"print('samples %d deep %d' % (sum(n for _,n in w), sum(n for k,n in w if k>1)))\n";

TEST(windows_cached_stacks)
{
	char dir[] = "/tmp/etw-export-XXXXXX", py[64];
	struct run r;
	FILE *f;

	ASSERT_NE(NULL, mkdtemp(dir));
	snprintf(py, sizeof(py), "%s/count.py", dir);
	f = fopen(py, "w");
	ASSERT_NE(NULL, f);
	fputs(count_stacks_py, f);
	fclose(f);
	r = run("%s export -f speedscope --pid 3676 -o %s/pv.json %s", ETW_TOOL_PATH,
		dir, PERFVIEW_ETL);
	EXPECT_EQ(0, r.status) TH_LOG("%s", r.out);
	free(r.out);
	r = run("/usr/bin/python3 %s %s/pv.json", py, dir);
	EXPECT_EQ(0, r.status);
	/* 27 of them had a stack when only StackWalk records were read. */
	EXPECT_OUT(r, "samples 5129 deep 5041\n");
	free(r.out);
	r = run("grep -c -e 'Test.x64!Test.Program.Main(class System.String\\[\\])' "
		"-e 'mscorlib!System.DateTime.get_Now()' %s/pv.json", dir);
	EXPECT_EQ(0, r.status);
	free(r.out);
	r = run("%s export -f perfetto --pid 3676 -o %s/pv.pftrace %s && "
		"grep -c -a 'Test.Program.Main(class System.String' %s/pv.pftrace",
		ETW_TOOL_PATH, dir, PERFVIEW_ETL, dir);
	EXPECT_EQ(0, r.status) TH_LOG("%s", r.out);
	free(r.out);
	sh("rm -rf %s", dir);
}

TEST_HARNESS_MAIN
