// SPDX-License-Identifier: GPL-2.0
/*
 * etw export's writers fuzzed with the decoder's corpus: the samples of
 * testdata/etl (as decode_kernel and etl_fuzz read them) and a synthetic
 * kernel trace with every record the exporters use (ktrace.h), each cut
 * short and with bytes changed at random, a fixed seed, many times.
 * Every mutated file goes through both formats of an etw built with
 * AddressSanitizer and UBSan (etw_asan): it must end with 0 or with the
 * reader's error (1), never a crash or a sanitizer report; and what it
 * wrote must still be what the viewers accept (export_check.py's checks
 * of speedscope's rules and of the Perfetto file against the .proto).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ktrace.h"
#include "kselftest_harness.h"
#include "run_cmd.h"

#ifndef ETW_ASAN_PATH
#define ETW_ASAN_PATH "build/tests/etw_asan"
#endif

#define SEED		0x5eedf00du
#define MUTATIONS	15
/* About 0.2 s a run under ASan, 180 runs, on a shared machine. */
#define FUZZ_TIMEOUT_S	600

static const char *const corpus[] = {
	"etlparser-ShutdownPerfDiagLogger.etl", "etlparser-AMSITrace.etl",
	"krabsetw-powershell.etl", "perfview-SelfDescribingSingleEvent.etl",
	"etlparser-lxcore_kernel.etl",
};

/* Every record the exporters read, in a small kernel trace. */
static int synthetic(const char *path)
{
	static struct ktrace kt;
	const uint8_t prov[16] = { 1, 2, 3 }, act[16] = { 9, 9 };
	uint64_t frames[] = { 0xffffffff81200010ull, 0x401000, 0x402000 };
	uint32_t v = 1;
	int ret = kt_open(&kt, path, 2);

	if (ret)
		return ret;
	for (uint16_t cpu = 0; cpu < 2; cpu++) {
		kt_cpu(&kt, cpu);
		kt_process(&kt, 100, 10 + cpu, "p");
		kt_thread(&kt, 100, 10 + cpu, 20 + cpu, "t");
		kt_image(&kt, 100, 10 + cpu, 0x400000, 0x10000, "/bin/p");
		kt_image(&kt, 100, 0, 0xffffffff81000000ull, 0x1000000, "vmlinux");
		for (int i = 0; i < 20; i++) {
			uint64_t ts = 1000 + 10 * i;

			kt_cswitch(&kt, ts, 20 + cpu, 0, 5, (uint8_t)i);
			kt_stack(&kt, ts, 10 + cpu, 0, frames, 3);
			kt_sample(&kt, ts + 1, frames[i % 3], 20 + cpu);
			kt_stack(&kt, ts + 1, 10 + cpu, 20 + cpu, frames + i % 3, 3 - i % 3);
			kt_ready(&kt, ts + 2, 21 - cpu);
			kt_event(&kt, ts + 3, 10 + cpu, 20 + cpu, prov, 1, 1 + i % 2, act, &v, 4);
			kt_disk(&kt, 0x010a, ts + 4, 0x800, 512, 0, i, 3, 20 + cpu);
			kt_cswitch(&kt, ts + 5, 0, 20 + cpu, 1, 32);
		}
	}
	return kt_close(&kt);
}

static uint8_t *slurp(const char *path, size_t *n)
{
	uint8_t *p = NULL;
	FILE *f = fopen(path, "rb");
	long len;

	if (!f)
		return NULL;
	if (!fseek(f, 0, SEEK_END) && (len = ftell(f)) > 0 && !fseek(f, 0, SEEK_SET)) {
		p = malloc(len);
		if (p && fread(p, 1, len, f) != (size_t)len) {
			free(p);
			p = NULL;
		}
		*n = len;
	}
	fclose(f);
	return p;
}

/* A fixture for the timeout only: TEST() has none to set. */
FIXTURE(writers) {
	int unused;
};

FIXTURE_SETUP(writers)
{
}

FIXTURE_TEARDOWN(writers)
{
}

TEST_F_TIMEOUT(writers, mutated_traces, FUZZ_TIMEOUT_S)
{
	char dir[] = "/tmp/etw-export-fuzz-XXXXXX", path[4096], in[4200], out[4300];
	unsigned int seed = SEED, runs = 0, read_ok = 0;
	int status;

	ASSERT_NE(NULL, mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/synthetic.etl", dir);
	ASSERT_EQ(0, synthetic(path));
	for (size_t c = 0; c <= sizeof(corpus) / sizeof(corpus[0]); c++) {
		size_t n = 0;
		uint8_t *orig;

		if (c < sizeof(corpus) / sizeof(corpus[0]))
			snprintf(path, sizeof(path), "%s/%s",
				 getenv("ETW_SAMPLES") ? getenv("ETW_SAMPLES") : "testdata/etl",
				 corpus[c]);
		else
			snprintf(path, sizeof(path), "%s/synthetic.etl", dir);
		orig = slurp(path, &n);
		ASSERT_NE(NULL, orig) TH_LOG("cannot read %s", path);
		for (int m = 0; m < MUTATIONS; m++) {
			uint8_t *p = malloc(n);
			size_t len = n;
			FILE *f;

			memcpy(p, orig, n);
			/* A third cut short; every one with 1 to 16 bytes changed. */
			if (m % 3 == 0)
				len = 0x1000 + rand_r(&seed) % (n - 0x1000 + 1);
			for (int k = 1 + rand_r(&seed) % 16; k > 0; k--)
				p[rand_r(&seed) % len] = (uint8_t)rand_r(&seed);
			snprintf(in, sizeof(in), "%s/in-%zu-%d.etl", dir, c, m);
			f = fopen(in, "wb");
			ASSERT_NE(NULL, f);
			ASSERT_EQ(len, fwrite(p, 1, len, f));
			fclose(f);
			free(p);
			for (int fmt = 0; fmt < 2; fmt++) {
				const char *name = fmt ? "perfetto" : "speedscope";

				snprintf(out, sizeof(out), "%s/out-%zu-%d.%s", dir, c, m, name);
				status = sh("ASAN_OPTIONS=exitcode=99 UBSAN_OPTIONS=exitcode=99 "
					    "timeout 60 %s export -f %s -o %s %s > %s.log 2>&1", ETW_ASAN_PATH,
					    name, out, in, out);
				EXPECT_TRUE(status == 0 || status == 1)
					TH_LOG("%s of %s: status %d", name, in, status);
				if (status) {
					if (status != 1)
						sh("cat %s.log", out);
					unlink(out);
				}
				read_ok += !status;
				runs++;
			}
		}
		free(orig);
	}
	EXPECT_EQ(2 * MUTATIONS * (sizeof(corpus) / sizeof(corpus[0]) + 1), runs);
	/* Most mutations leave a readable file: the writers are exercised. */
	EXPECT_LT(runs / 4, read_ok);
	status = sh("/usr/bin/python3 libetw/tests/export_check.py speedscope-many "
		    "%s/*.speedscope", dir);
	status |= sh("/usr/bin/python3 libetw/tests/export_check.py perfetto-many "
		     "tools/export %s/*.perfetto", dir);
	EXPECT_EQ(0, status) TH_LOG("the files are kept in %s", dir);
	if (!status)
		sh("rm -rf %s", dir);
}

TEST_HARNESS_MAIN
