// SPDX-License-Identifier: GPL-2.0
/*
 * User stacks of code built without frame pointers, in the VM: this test
 * is built with -fomit-frame-pointer, and its hot function is called back
 * by Debian's libc (qsort), which has no frame pointers either.
 *
 * - `etw record --kernel process,thread,image,profile --stack-copy` of
 *   this program sorting (sampled every 4 ms, as the logger keeps up
 *   under emulation; its record summary, with the losses, logged): the samples whose leaf is the comparison
 *   function have, in `etw report --folded`, the whole chain unwound from
 *   the copied stack: ucopy_child (the constructor that runs the sort,
 *   called by libc's start) -> ucopy_run -> ucopy_sort_all -> qsort_r
 *   (libc) -> ... -> ucopy_cmp_hot, and `etw dump` gives the same chain
 *   in a StackWalk's Frames.  The same recording without --stack-copy
 *   (the frame-pointer walk alone) is logged for comparison.
 * - ETW_TRACE_STACK_COPY_INFO: set, queried back rounded up to 8, 0
 *   turns it off, a size above ETW_STACK_COPY_MAX is EINVAL, a short
 *   length EMSGSIZE, a session that is not a system logger EINVAL.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "etw_selftests.h"

#define NELEM		20000

__attribute__((noinline)) int ucopy_cmp_hot(const void *a, const void *b);
__attribute__((noinline)) int ucopy_cmp_hot(const void *a, const void *b)
{
	unsigned int x = *(const unsigned int *)a, y = *(const unsigned int *)b;
	volatile unsigned int spin = 0;

	/* Where the samples land: a little work per comparison. */
	for (int i = 0; i < 40; i++)
		spin += i;
	return (x > y) - (x < y);
}

__attribute__((noinline)) void ucopy_sort_all(unsigned int *v, int rounds);
__attribute__((noinline)) void ucopy_sort_all(unsigned int *v, int rounds)
{
	for (int r = 0; r < rounds; r++) {
		for (int i = 0; i < NELEM; i++)
			v[i] = (unsigned int)(i * 2654435761u + r);
		qsort(v, NELEM, sizeof(*v), ucopy_cmp_hot);
	}
}

__attribute__((noinline)) void ucopy_run(int rounds);
__attribute__((noinline)) void ucopy_run(int rounds)
{
	unsigned int *v = malloc(NELEM * sizeof(*v));

	if (!v)
		_exit(1);
	ucopy_sort_all(v, rounds);
	free(v);
}

/* Run as the recorded program: `ustack_copy_test --sort ROUNDS`. */
__attribute__((constructor)) static void ucopy_child(void)
{
	FILE *f = fopen("/proc/self/cmdline", "r");
	char buf[256] = { 0 };
	size_t n;

	if (!f)
		return;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	if (n > strlen(buf) + 7 && !strcmp(buf + strlen(buf) + 1, "--sort")) {
		ucopy_run(atoi(buf + strlen(buf) + 8));
		exit(0);
	}
}

/*
 * Of the folded stacks whose leaf is the comparison function, how many
 * samples have the chain through libc's qsort up to ucopy_child.
 */
static void count_chains(const char *folded, long *leaf, long *chain)
{
	const char *line = folded, *end;
	char buf[8192];
	long n;

	*leaf = *chain = 0;
	for (; *line; line = *end ? end + 1 : end) {
		const char *sp, *cmp, *sort;

		end = strchr(line, '\n');
		if (!end)
			end = line + strlen(line);
		if ((size_t)(end - line) >= sizeof(buf))
			continue;
		memcpy(buf, line, end - line);
		buf[end - line] = 0;
		sp = strrchr(buf, ' ');
		if (!sp || sscanf(sp, " %ld", &n) != 1)
			continue;
		cmp = strstr(buf, ";ucopy_cmp_hot ");
		if (!cmp)
			continue;
		*leaf += n;
		sort = strstr(buf, ";ucopy_child;ucopy_run;ucopy_sort_all;qsort");
		if (sort && sort < cmp)
			*chain += n;
	}
}

/* Record the sort into @etl, and count its chains in etw report --folded. */
static int record(const char *etl, bool copy, char *out, size_t len,
		  long *leaf, long *chain)
{
	const char *summary;
	char cmd[512];
	int ret;

	snprintf(cmd, sizeof(cmd),
		 "etw record --kernel process,thread,image,profile %s -o %s -- "
		 "/proc/%d/exe --sort 10 2>&1",
		 copy ? "--stack-copy" : "", etl, (int)getpid());
	ret = etw_sh(cmd, out, len);
	summary = strstr(out, "etw: record: ");
	/* Its buffers and losses, in the log: a lost Image/Load loses a chain. */
	if (summary)
		ksft_print_msg("%.*s\n", (int)strcspn(summary, "\n"), summary);
	if (ret)
		return ret;
	snprintf(cmd, sizeof(cmd), "etw report --folded %s", etl);
	ret = etw_sh(cmd, out, len);
	count_chains(out, leaf, chain);
	return ret;
}

/*
 * The profile interval (machine-wide, 100 ns units) the recordings sample
 * at: 4 ms.  At the default 1 ms, each sample's 8 KiB copy (of the sorting
 * program and of the logger writing the file) is more than emulation lets
 * the logger write: records are lost, an Image/Load among them loses every
 * chain of its process.
 */
#define RECORD_INTERVAL	40000

static int profile_interval(int fd, unsigned long cmd, __u32 *interval)
{
	__u32 iv[2] = { 0, *interval };
	struct etw_trace_info ti = {
		.size = sizeof(ti),
		.info_class = ETW_TRACE_PROFILE_INTERVAL_INFO,
		.data = (__u64)(uintptr_t)iv,
		.length = sizeof(iv),
	};
	int ret = etw_ioctl_err(fd, cmd, &ti);

	*interval = iv[1];
	return ret;
}

FIXTURE(ucopy) {
	int fd;
	bool known;		/* @interval read: restored after the test */
	__u32 interval;
};

FIXTURE_SETUP(ucopy)
{
	self->fd = etw_open_or_skip(_metadata);
	self->known = !profile_interval(self->fd, ETW_IOC_TRACE_QUERY_INFO,
					&self->interval);
}

FIXTURE_TEARDOWN(ucopy)
{
	if (self->known)
		profile_interval(self->fd, ETW_IOC_TRACE_SET_INFO, &self->interval);
	close(self->fd);
}

/* Two recordings and three readings of them under emulation: minutes. */
TEST_F_TIMEOUT(ucopy, chain_through_libc_from_the_stack_copy, 600)
{
	static char out[1 << 20];
	const char *etl = "/tmp/ucopy.etl", *fp_etl = "/tmp/ucopy-fp.etl";
	char cmd[256];
	long leaf, chain, fp_leaf, fp_chain;
	__u32 interval = RECORD_INTERVAL;

	etw_require_root(_metadata);
	ASSERT_EQ(0, profile_interval(self->fd, ETW_IOC_TRACE_SET_INFO, &interval));
	ASSERT_EQ(0, record(etl, true, out, sizeof(out), &leaf, &chain))
		TH_LOG("%.4000s", out);
	TH_LOG("--stack-copy: %ld samples in ucopy_cmp_hot, %ld with the chain",
	       leaf, chain);
	ASSERT_LE(20, leaf) TH_LOG("%.4000s", out);
	/* A sample at the comparison's first instructions may miss a frame. */
	EXPECT_LE(leaf * 8 / 10, chain) TH_LOG("%.4000s", out);

	/* etw dump names the unwound frames of a StackWalk. */
	snprintf(cmd, sizeof(cmd),
		 "etw dump %s 2>/dev/null | grep -m1 'Frames: ucopy_cmp_hot+0x.* <- qsort.* <- ucopy_sort_all+0x.* <- ucopy_run+0x.* <- ucopy_child+0x'",
		 etl);
	EXPECT_EQ(0, etw_sh(cmd, out, sizeof(out))) TH_LOG("%s", out);

	/* The frame-pointer walk alone, for comparison. */
	ASSERT_EQ(0, record(fp_etl, false, out, sizeof(out), &fp_leaf, &fp_chain))
		TH_LOG("%.4000s", out);
	TH_LOG("frame pointers only: %ld samples in ucopy_cmp_hot, %ld with the chain",
	       fp_leaf, fp_chain);
	/* The chain is the copy's: a session that asked for none has none. */
	EXPECT_EQ(0, fp_chain);
	unlink(etl);
	unlink(fp_etl);
}

static int stack_copy_info(int fd, unsigned long cmd, __u32 id, __u32 *size,
			   __u32 len)
{
	struct etw_trace_info ti = {
		.size = sizeof(ti),
		.logger_id = id,
		.info_class = ETW_TRACE_STACK_COPY_INFO,
		.data = (__u64)(uintptr_t)size,
		.length = len,
	};

	return etw_ioctl_err(fd, cmd, &ti);
}

static int start(int fd, const char *name, __u32 mode, __u32 flags, __u32 *id)
{
	struct etw_session_start st = { .size = sizeof(st) };
	int ret;

	snprintf(st.info.name, sizeof(st.info.name), "%s", name);
	st.info.log_file_mode = mode;
	st.info.enable_flags = flags;
	ret = etw_ioctl_err(fd, ETW_IOC_SESSION_START, &st);
	if (!ret)
		*id = st.info.logger_id;
	return ret;
}

/* After the recordings (the harness runs a fixture's tests in order). */
TEST_F(ucopy, stack_copy_info_set_and_query)
{
	__u32 id, plain, size;
	int fd;

	etw_require_root(_metadata);
	fd = etw_open_or_skip(_metadata);
	ASSERT_EQ(0, start(fd, "ucopy-info", ETW_MODE_SYSTEM_LOGGER,
			   ETW_KFLAG_PROCESS, &id));
	size = 0;
	EXPECT_EQ(0, stack_copy_info(fd, ETW_IOC_TRACE_QUERY_INFO, id, &size, 4));
	EXPECT_EQ(0, size);
	size = 1001;
	EXPECT_EQ(0, stack_copy_info(fd, ETW_IOC_TRACE_SET_INFO, id, &size, 4));
	size = 0;
	EXPECT_EQ(0, stack_copy_info(fd, ETW_IOC_TRACE_QUERY_INFO, id, &size, 4));
	EXPECT_EQ(1008, size);
	size = ETW_STACK_COPY_MAX + 1;
	EXPECT_EQ(-EINVAL, stack_copy_info(fd, ETW_IOC_TRACE_SET_INFO, id, &size, 4));
	EXPECT_EQ(-EMSGSIZE, stack_copy_info(fd, ETW_IOC_TRACE_SET_INFO, id, &size, 2));
	size = 0;
	EXPECT_EQ(0, stack_copy_info(fd, ETW_IOC_TRACE_SET_INFO, id, &size, 4));
	size = 1;
	EXPECT_EQ(0, stack_copy_info(fd, ETW_IOC_TRACE_QUERY_INFO, id, &size, 4));
	EXPECT_EQ(0, size);
	ASSERT_EQ(0, start(fd, "ucopy-plain", 0, 0, &plain));
	size = 8192;
	EXPECT_EQ(-EINVAL, stack_copy_info(fd, ETW_IOC_TRACE_SET_INFO, plain, &size, 4));
	etw_session_ctl(fd, plain, ETW_CONTROL_STOP, NULL);
	etw_session_ctl(fd, id, ETW_CONTROL_STOP, NULL);
	close(fd);
}

TEST_HARNESS_MAIN
