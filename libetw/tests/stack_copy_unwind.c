// SPDX-License-Identifier: GPL-2.0
/*
 * User stacks unwound from a StackCopy record (Documentation/stacks.rst),
 * on the host: a program this test compiles with -fomit-frame-pointer
 * sorts with libc's qsort, and its comparison function snapshots its own
 * registers and 8 KiB of its stack, as the kernel logger copies them, and
 * its mappings.  A synthetic trace of that (Process, Thread and Image
 * rundown from the mappings, a SampledProfile, the StackCopy and a
 * StackWalk of the sampled address alone, as a frame-pointer walk of such
 * code may give) must give, in etw report --folded, etw dump and etw
 * export, the chain main -> run -> sort_all -> qsort_r (libc) -> ... ->
 * cmp_hot; the same trace without the StackCopy the leaf alone.  A copy
 * cut short keeps what it reaches, damaged copies are read to a clear
 * end.  Needs cc and this build's etw.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ktrace.h"
#include "kselftest_harness.h"
#include "run_cmd.h"

#ifndef ETW_TOOL_PATH
#define ETW_TOOL_PATH "build/bin/etw"
#endif

#define PID		4321
#define TID		4322
#define COPY_SIZE	8192

/* Registers in DWARF order (rip last) and the stack, from inside qsort. */
static const char prog_src[] =
	"#include <stdio.h>\n#include <stdlib.h>\n#include <string.h>\n"
	"static unsigned long long regs[17];\n"
	"static unsigned char stack[" "8192" "];\n"
	"static int calls;\n"
	"__attribute__((noinline)) int cmp_hot(const void *a, const void *b)\n{\n"
	"\tint x = *(const int *)a, y = *(const int *)b;\n"
	"\tif (++calls == 5000) {\n"
	"\t\t__asm__ volatile(\n"
	"\t\t\"mov %%rax, 0(%0)\\n mov %%rdx, 8(%0)\\n mov %%rcx, 16(%0)\\n\"\n"
	"\t\t\"mov %%rbx, 24(%0)\\n mov %%rsi, 32(%0)\\n mov %%rdi, 40(%0)\\n\"\n"
	"\t\t\"mov %%rbp, 48(%0)\\n mov %%rsp, 56(%0)\\n mov %%r8, 64(%0)\\n\"\n"
	"\t\t\"mov %%r9, 72(%0)\\n mov %%r10, 80(%0)\\n mov %%r11, 88(%0)\\n\"\n"
	"\t\t\"mov %%r12, 96(%0)\\n mov %%r13, 104(%0)\\n mov %%r14, 112(%0)\\n\"\n"
	"\t\t\"mov %%r15, 120(%0)\\n lea 0(%%rip), %%rax\\n mov %%rax, 128(%0)\\n\"\n"
	"\t\t: : \"r\"(regs) : \"rax\", \"memory\");\n"
	"\t\tmemcpy(stack, (void *)regs[7], sizeof(stack));\n"
	"\t}\n"
	"\treturn (x > y) - (x < y);\n}\n"
	"__attribute__((noinline)) int sort_all(int *v, int n)\n{\n"
	"\tfor (int i = 0; i < n; i++)\n\t\tv[i] = (i * 7919) % n;\n"
	"\tqsort(v, n, sizeof(*v), cmp_hot);\n\treturn v[0] + v[n - 1];\n}\n"
	"__attribute__((noinline)) void run(void)\n{\n"
	"\tint *v = malloc(4000 * sizeof(*v));\n"
	"\tif (sort_all(v, 4000) != 3999)\n\t\tabort();\n\tfree(v);\n}\n"
	"int main(int argc, char **argv)\n{\n"
	"\tFILE *f = fopen(argv[1], \"wb\");\n\tchar line[4096];\n"
	"\tFILE *m = fopen(\"/proc/self/maps\", \"r\");\n"
	"\trun();\n"
	"\tfwrite(regs, sizeof(regs), 1, f);\n\tfwrite(stack, sizeof(stack), 1, f);\n"
	"\twhile (fgets(line, sizeof(line), m))\n\t\tfputs(line, f);\n"
	"\treturn fclose(f) || fclose(m);\n}\n";

struct snap {
	uint64_t regs[17];
	uint8_t stack[COPY_SIZE];
	char maps[65536];
};

static char dir[64];

static int take_snapshot(struct snap *s)
{
	char path[128];
	FILE *f;
	size_t n;

	snprintf(path, sizeof(path), "%s/prog.c", dir);
	f = fopen(path, "w");
	if (!f)
		return -1;
	fputs(prog_src, f);
	fclose(f);
	if (sh("cc -O2 -fomit-frame-pointer -o %s/prog %s/prog.c", dir, dir) ||
	    sh("%s/prog %s/snap", dir, dir))
		return -1;
	snprintf(path, sizeof(path), "%s/snap", dir);
	f = fopen(path, "rb");
	if (!f)
		return -1;
	memset(s, 0, sizeof(*s));
	n = fread(s, 1, sizeof(*s) - 1, f);
	fclose(f);
	return n > sizeof(s->regs) + sizeof(s->stack) ? 0 : -1;
}

/* Image DCStart of each file mapped from offset 0, to its last mapping. */
static void images(struct ktrace *kt, const struct snap *s)
{
	const char *line = s->maps;
	char path[4096], last[4096] = "";
	unsigned long long lo, hi, off, base = 0, end = 0;

	for (; *line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : "") {
		path[0] = 0;
		if (sscanf(line, "%llx-%llx %*s %llx %*s %*s %4095s", &lo, &hi, &off,
			   path) < 3 || path[0] != '/')
			continue;
		if (strcmp(path, last)) {
			if (last[0])
				kt_image(kt, 1000, PID, base, end - base, last);
			if (off)
				continue;
			strcpy(last, path);
			base = lo;
		}
		end = hi;
	}
	if (last[0])
		kt_image(kt, 1000, PID, base, end - base, last);
}

/* The trace: rundown, then the sample, [its copy,] its StackWalk. */
static int write_trace(const char *etl, const struct snap *s, uint32_t copy)
{
	struct ktrace kt;
	uint64_t ts = 5000, ip = s->regs[16];

	if (kt_open(&kt, etl, 1))
		return -1;
	kt_cpu(&kt, 0);
	kt_process(&kt, 1000, PID, "prog");
	kt_thread(&kt, 1000, PID, TID, "prog");
	images(&kt, s);
	kt_sample(&kt, ts, ip, TID);
	if (copy)
		kt_stack_copy(&kt, ts, PID, TID, s->regs, s->stack, copy);
	kt_stack(&kt, ts, PID, TID, &ip, 1);
	return kt_close(&kt);
}

FIXTURE(unwind) {
	struct snap s;
	char etl[128];
};

FIXTURE_SETUP(unwind)
{
	strcpy(dir, "/tmp/stack-copy-XXXXXX");
	ASSERT_NE(NULL, mkdtemp(dir));
	ASSERT_EQ(0, take_snapshot(&self->s));
	snprintf(self->etl, sizeof(self->etl), "%s/t.etl", dir);
}

FIXTURE_TEARDOWN(unwind)
{
	sh("rm -rf %s", dir);
}

/* The whole chain, in order, in one folded line. */
static bool chain_in(const char *out)
{
	const char *p = strstr(out, ";main;run;sort_all;qsort_r;");

	return p && strstr(p, ";cmp_hot 1");
}

TEST_F(unwind, report_folded_has_the_chain_through_libc)
{
	struct run r;

	ASSERT_EQ(0, write_trace(self->etl, &self->s, COPY_SIZE));
	r = run("%s report --folded %s", ETW_TOOL_PATH, self->etl);
	EXPECT_EQ(0, r.status);
	EXPECT_TRUE(chain_in(r.out)) TH_LOG("%s", r.out);
	/* Below main: libc's start, as perf shows it. */
	EXPECT_NE(NULL, strstr(r.out, "prog;")) TH_LOG("%s", r.out);
	free(r.out);

	r = run("%s report %s", ETW_TOOL_PATH, self->etl);
	EXPECT_EQ(0, r.status);
	EXPECT_NE(NULL, strstr(r.out, "sort_all+0x")) TH_LOG("%s", r.out);
	EXPECT_NE(NULL, strstr(r.out, "libc.so.6")) TH_LOG("%s", r.out);
	free(r.out);
}

TEST_F(unwind, dump_names_the_unwound_frames)
{
	struct run r;

	ASSERT_EQ(0, write_trace(self->etl, &self->s, COPY_SIZE));
	r = run("%s dump %s | grep -c 'Frames: cmp_hot+0x.* <- qsort_r+0x.* <- sort_all+0x.* <- run+0x.* <- main+0x'",
		ETW_TOOL_PATH, self->etl);
	EXPECT_EQ(0, r.status) TH_LOG("%s", r.out);
	EXPECT_EQ(0, strcmp(r.out, "1\n")) TH_LOG("%s", r.out);
	free(r.out);
}

TEST_F(unwind, export_speedscope_has_the_chain)
{
	struct run r;

	ASSERT_EQ(0, write_trace(self->etl, &self->s, COPY_SIZE));
	r = run("%s export -f speedscope -o %s/t.json %s && grep -c '\"name\":\"sort_all\"' %s/t.json",
		ETW_TOOL_PATH, dir, self->etl, dir);
	EXPECT_EQ(0, r.status) TH_LOG("%s", r.out);
	free(r.out);
}

TEST_F(unwind, without_the_copy_the_leaf_alone)
{
	struct run r;

	ASSERT_EQ(0, write_trace(self->etl, &self->s, 0));
	r = run("%s report --folded %s", ETW_TOOL_PATH, self->etl);
	EXPECT_EQ(0, r.status);
	EXPECT_FALSE(chain_in(r.out)) TH_LOG("%s", r.out);
	EXPECT_EQ(NULL, strstr(r.out, "sort_all")) TH_LOG("%s", r.out);
	EXPECT_NE(NULL, strstr(r.out, ";cmp_hot 1")) TH_LOG("%s", r.out);
	free(r.out);
}

/* A copy that ends inside qsort's frames: the frames it reaches, no more. */
TEST_F(unwind, a_short_copy_keeps_what_it_reaches)
{
	struct run r;

	ASSERT_EQ(0, write_trace(self->etl, &self->s, 64));
	r = run("%s report --folded %s", ETW_TOOL_PATH, self->etl);
	EXPECT_EQ(0, r.status);
	EXPECT_FALSE(chain_in(r.out)) TH_LOG("%s", r.out);
	EXPECT_NE(NULL, strstr(r.out, ";cmp_hot 1")) TH_LOG("%s", r.out);
	free(r.out);
}

/* Damaged copies: every byte of the stack flipped in turn, read to the end. */
TEST_F(unwind, damaged_copies_end_clearly)
{
	struct run r;
	struct snap *bad = malloc(sizeof(*bad));

	ASSERT_NE(NULL, bad);
	for (unsigned int i = 0; i < 256; i += 8) {
		memcpy(bad, &self->s, sizeof(*bad));
		for (unsigned int j = i; j < COPY_SIZE; j += 256)
			bad->stack[j] ^= 0xa5;
		bad->regs[7] ^= i;
		ASSERT_EQ(0, write_trace(self->etl, bad, COPY_SIZE));
		r = run("%s report --folded %s", ETW_TOOL_PATH, self->etl);
		EXPECT_EQ(0, r.status) TH_LOG("%u: %s", i, r.out);
		EXPECT_NE(NULL, strstr(r.out, ";cmp_hot 1")) TH_LOG("%u: %s", i, r.out);
		free(r.out);
	}
	/*
	 * Every word of the copy a kernel address: the callers unwound
	 * from it end the stack, and the sample stays the user's leaf.
	 */
	memcpy(bad, &self->s, sizeof(*bad));
	for (unsigned int j = 0; j + 8 <= COPY_SIZE; j += 8)
		memcpy(bad->stack + j, &(uint64_t){ 0xffffffffffffff80ull }, 8);
	ASSERT_EQ(0, write_trace(self->etl, bad, COPY_SIZE));
	r = run("%s report --folded %s", ETW_TOOL_PATH, self->etl);
	EXPECT_EQ(0, r.status) TH_LOG("%s", r.out);
	EXPECT_NE(NULL, strstr(r.out, ";cmp_hot 1")) TH_LOG("%s", r.out);
	EXPECT_EQ(NULL, strstr(r.out, "ffffffffffffff80")) TH_LOG("%s", r.out);
	free(r.out);
	free(bad);
}

TEST_HARNESS_MAIN
