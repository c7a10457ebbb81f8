// SPDX-License-Identifier: GPL-2.0
/*
 * etw-bench-fileio [SUFFIX]: the cost of FileIo on what it observes, a
 * read(2) of 64 bytes at offset 0 of a small file in the page cache
 * (pread64, so the offset stays put), ns per call:
 *
 *	fileio.read.none	no tracing
 *	fileio.read.etw		a system logger with FILE_IO | FILE_IO_INIT
 *				(Read at entry, OperationEnd at exit)
 *	fileio.read.zero.none	a read of /dev/zero, which FileIo does not
 *	fileio.read.zero.etw	follow: untraced, and in the same session
 *				(the slow path and the probe's lookup alone)
 *	fileio.read.etw.lost	records the session dropped (0: each stored)
 *
 * With SUFFIX only the untraced case runs and prints under that name:
 * scripts/vm/bench.sh runs it again under LTTng's kernel syscall tracing
 * of pread64 (entry and exit) for the ratio of one run.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <linux/etw.h>

#include "bench.h"

#define FILEIO_BUFFER_KB	64
/* 32 MiB: every record of the repetitions (two records, ~150 B a read). */
#define FILEIO_BUFFERS		512
#define READS			20000
#define FILEIO_FILE		"/tmp/etw-bench-fileio"

static int dev = -1;

static __u32 session_start(__u32 flags)
{
	struct etw_session_start st = { .size = sizeof(st) };

	snprintf(st.info.name, sizeof(st.info.name), "etw-bench-fileio");
	st.info.log_file_mode = ETW_MODE_SYSTEM_LOGGER;
	st.info.buffer_size_kb = FILEIO_BUFFER_KB;
	st.info.min_buffers = FILEIO_BUFFERS;
	st.info.max_buffers = FILEIO_BUFFERS;
	st.info.enable_flags = flags;
	if (ioctl(dev, ETW_IOC_SESSION_START, &st))
		bench_die("system logger start: %s", strerror(errno));
	return st.info.logger_id;
}

static double session_stop(__u32 id)
{
	struct etw_session_control c = { .size = sizeof(c) };

	c.code = ETW_CONTROL_STOP;
	c.logger_id = id;
	if (ioctl(dev, ETW_IOC_SESSION_CONTROL, &c))
		bench_die("stop: %s", strerror(errno));
	return c.info.events_lost;
}

/* ns per pread64 of 64 bytes from @fd, best of BENCH_REPS. */
static double read_ns(int fd)
{
	char buf[64];
	double best = 0;

	for (int rep = 0; rep < BENCH_REPS; rep++) {
		uint64_t t0 = bench_now();
		double v;

		for (int i = 0; i < READS; i++)
			if (pread(fd, buf, sizeof(buf), 0) != sizeof(buf))
				bench_die("pread: %s", strerror(errno));
		v = (double)(bench_now() - t0) / READS;
		if (!rep || v < best)
			best = v;
	}
	return best;
}

int main(int argc, char **argv)
{
	char data[4096];
	int fd, zero;
	__u32 id;

	memset(data, 'x', sizeof(data));
	fd = open(FILEIO_FILE, O_CREAT | O_TRUNC | O_RDWR, 0600);
	if (fd < 0 || write(fd, data, sizeof(data)) != sizeof(data))
		bench_die("%s: %s", FILEIO_FILE, strerror(errno));
	if (argc > 1) {
		bench_printf(read_ns(fd), "fileio.read.%s", argv[1]);
		goto out;
	}
	zero = open("/dev/zero", O_RDONLY);
	dev = open("/dev/etw", O_RDWR | O_CLOEXEC);
	if (dev < 0 || zero < 0)
		bench_die("/dev/etw, /dev/zero: %s", strerror(errno));
	bench_print("fileio.read.none", read_ns(fd));
	bench_print("fileio.read.zero.none", read_ns(zero));
	id = session_start(ETW_KFLAG_FILE_IO | ETW_KFLAG_FILE_IO_INIT);
	bench_print("fileio.read.etw", read_ns(fd));
	bench_print("fileio.read.zero.etw", read_ns(zero));
	bench_print("fileio.read.etw.lost", session_stop(id));
	close(zero);
	close(dev);
out:
	close(fd);
	unlink(FILEIO_FILE);
	return 0;
}
