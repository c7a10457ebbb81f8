// SPDX-License-Identifier: GPL-2.0
/*
 * The ETL writer continuing a file after a logger that died
 * (Documentation/logger.rst): a torn last buffer is dropped and written
 * again, buffers the file holds are skipped, a full SEQUENTIAL file stays
 * full and a CIRCULAR one goes on after its newest buffer.  The buffers
 * are made here; the file is checked byte by byte, not with the reader.
 */
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <etw_etl_writer.h>

#include "kselftest_harness.h"

#define BUF 4096

static char path[64];

/* A session buffer of @records records of 0x50 bytes, SequenceNumber @seq. */
static const void *buffer_of(unsigned long long seq, unsigned int records)
{
	static unsigned char b[BUF];
	unsigned int end = 0x48 + records * 0x50, i;

	memset(b, 0xff, sizeof(b));
	memset(b, 0, end);
	b[1] = BUF >> 8;		/* BufferSize */
	b[4] = end & 0xff;		/* SavedOffset: after the records */
	b[5] = end >> 8;
	memcpy(b + 0x18, &seq, 8);	/* SequenceNumber (little-endian host) */
	for (i = 0; i < records; i++)
		b[0x48 + i * 0x50] = 0x50;	/* the record's Size */
	return b;
}

static const void *buffer(unsigned long long seq)
{
	return buffer_of(seq, 0);
}

static int open_writer(struct etw_etl_writer **w, unsigned int mode,
		       unsigned int max_kb, int resume)
{
	struct etw_session_info info = { .logger_id = 1, .buffer_size_kb = 4,
					 .frequency = 1000000000 };
	struct etw_etl_writer_opts o = {
		.mode = mode | ETW_ETL_WRITER_KBYTES,
		.max_file_size = max_kb,
		.resume = resume,
	};

	strcpy(info.name, "etl-writer-test");
	return etw_etl_writer_open_ex(w, path, &info, &o);
}

/* Write the buffers of SequenceNumbers @seq[0..n-1]. */
static void put(struct __test_metadata *_metadata, struct etw_etl_writer *w,
		const unsigned long long *seq, int n)
{
	int i;

	for (i = 0; i < n; i++)
		ASSERT_EQ(0, etw_etl_writer_buffer(w, buffer(seq[i])));
}

/* The SequenceNumber of each buffer of the file after buffer 0; count. */
static int seqs(unsigned long long *out, int max)
{
	int fd = open(path, O_RDONLY), n = 0;

	while (fd >= 0 && n < max &&
	       pread(fd, &out[n], 8, (off_t)(n + 1) * BUF + 0x18) == 8)
		n++;
	if (fd >= 0)
		close(fd);
	return n;
}

static long long file_size(void)
{
	struct stat st;

	return stat(path, &st) ? -1 : st.st_size;
}

/* A 32-bit field of TRACE_LOGFILE_HEADER in the header buffer. */
static unsigned int header_field(unsigned int off)
{
	unsigned int v = 0;
	int fd = open(path, O_RDONLY);

	if (fd >= 0) {
		if (pread(fd, &v, 4, 0x48 + 0x20 + off) != 4)
			v = 0;
		close(fd);
	}
	return v;
}

static unsigned int buffers_written(void)
{
	return header_field(0x24);
}

FIXTURE(writer) {
	struct etw_etl_writer *w;
};

FIXTURE_SETUP(writer)
{
	snprintf(path, sizeof(path), "/tmp/etl-writer-%d.etl", (int)getpid());
	unlink(path);
	self->w = NULL;
}

FIXTURE_TEARDOWN(writer)
{
	unlink(path);
}

/* Killed inside a write: the part of a buffer goes, the buffer comes again. */
TEST_F(writer, resume_after_torn_write)
{
	static const unsigned long long first[] = { 1, 2, 3 }, again[] = { 2, 3, 4, 5 };
	unsigned long long s[8];
	int fd;

	ASSERT_EQ(0, open_writer(&self->w, ETW_MODE_FILE_SEQUENTIAL, 0, 0));
	put(_metadata, self->w, first, 3);
	ASSERT_EQ(0, etw_etl_writer_close(self->w, NULL));
	fd = open(path, O_WRONLY | O_APPEND);
	ASSERT_LE(0, fd);
	ASSERT_EQ(1000, write(fd, buffer(4), 1000));
	close(fd);

	ASSERT_EQ(0, open_writer(&self->w, ETW_MODE_FILE_SEQUENTIAL, 0, 1));
	put(_metadata, self->w, again, 4);
	ASSERT_EQ(0, etw_etl_writer_close(self->w, NULL));
	EXPECT_EQ(6 * BUF, file_size());
	ASSERT_EQ(5, seqs(s, 8));
	EXPECT_EQ(1, s[0]);
	EXPECT_EQ(2, s[1]);
	EXPECT_EQ(3, s[2]);
	EXPECT_EQ(4, s[3]);
	EXPECT_EQ(5, s[4]);
	EXPECT_EQ(6, buffers_written());
}

/* Killed inside the first write of the header buffer: a new file. */
TEST_F(writer, resume_after_torn_header)
{
	static const unsigned long long one[] = { 1 };
	unsigned long long s[4];
	int fd = open(path, O_WRONLY | O_CREAT, 0644);

	ASSERT_LE(0, fd);
	ASSERT_EQ(100, write(fd, buffer(0), 100));
	close(fd);
	ASSERT_EQ(0, open_writer(&self->w, ETW_MODE_FILE_SEQUENTIAL, 0, 1));
	put(_metadata, self->w, one, 1);
	ASSERT_EQ(0, etw_etl_writer_close(self->w, NULL));
	EXPECT_EQ(2 * BUF, file_size());
	ASSERT_EQ(1, seqs(s, 4));
	EXPECT_EQ(1, s[0]);
	EXPECT_EQ(2, buffers_written());
}

/* A SEQUENTIAL file that was full stays full: nothing is overwritten. */
TEST_F(writer, resume_full_sequential)
{
	static const unsigned long long first[] = { 1, 2, 3 }, more[] = { 4, 5 };
	unsigned long long s[8];

	/* 16 KiB: the header buffer and three more. */
	ASSERT_EQ(0, open_writer(&self->w, ETW_MODE_FILE_SEQUENTIAL, 16, 0));
	put(_metadata, self->w, first, 3);
	ASSERT_EQ(0, etw_etl_writer_close(self->w, NULL));

	ASSERT_EQ(0, open_writer(&self->w, ETW_MODE_FILE_SEQUENTIAL, 16, 1));
	put(_metadata, self->w, more, 2);
	EXPECT_EQ(2, etw_etl_writer_lost(self->w));
	ASSERT_EQ(0, etw_etl_writer_close(self->w, NULL));
	EXPECT_EQ(4 * BUF, file_size());
	ASSERT_EQ(3, seqs(s, 8));
	EXPECT_EQ(1, s[0]);
	EXPECT_EQ(2, s[1]);
	EXPECT_EQ(3, s[2]);
}

/*
 * A writer of a full SEQUENTIAL file killed: its successor goes on
 * counting the events of the buffers dropped, its predecessor's included.
 */
TEST_F(writer, resume_full_sequential_counts_dropped_events)
{
	static const unsigned long long first[] = { 1, 2, 3 };
	struct etw_session_info final = { .events_lost = 7 };
	int status;
	pid_t pid;

	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		/* Full after three buffers; two more with 2 and 3 events. */
		if (open_writer(&self->w, ETW_MODE_FILE_SEQUENTIAL, 16, 0))
			_exit(1);
		put(_metadata, self->w, first, 3);
		if (etw_etl_writer_buffer(self->w, buffer_of(4, 2)) ||
		    etw_etl_writer_buffer(self->w, buffer_of(5, 3)))
			_exit(1);
		_exit(0);	/* killed: no close, no final header */
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_EQ(0, status);
	EXPECT_EQ(5, header_field(0x30));	/* EventsLost so far */

	ASSERT_EQ(0, open_writer(&self->w, ETW_MODE_FILE_SEQUENTIAL, 16, 1));
	ASSERT_EQ(0, etw_etl_writer_buffer(self->w, buffer_of(6, 4)));
	ASSERT_EQ(0, etw_etl_writer_close(self->w, &final));
	/* The session's 7, then 2 + 3 + 4 in buffers the file could not take. */
	EXPECT_EQ(16, header_field(0x30));
	EXPECT_EQ(4 * BUF, file_size());
}

/* A CIRCULAR file goes on after its newest buffer, buffer 0 kept. */
TEST_F(writer, resume_circular)
{
	static const unsigned long long first[] = { 1, 2, 3, 4, 5 }, more[] = { 5, 6, 7 };
	unsigned long long s[8];

	ASSERT_EQ(0, open_writer(&self->w, ETW_MODE_FILE_CIRCULAR, 16, 0));
	put(_metadata, self->w, first, 5);	/* 4 and 5 over 1 and 2 */
	ASSERT_EQ(0, etw_etl_writer_close(self->w, NULL));
	ASSERT_EQ(3, seqs(s, 8));
	EXPECT_EQ(4, s[0]);
	EXPECT_EQ(5, s[1]);
	EXPECT_EQ(3, s[2]);

	/* MaximumFileSize comes from the file's header. */
	ASSERT_EQ(0, open_writer(&self->w, ETW_MODE_FILE_CIRCULAR, 0, 1));
	put(_metadata, self->w, more, 3);
	ASSERT_EQ(0, etw_etl_writer_close(self->w, NULL));
	EXPECT_EQ(4 * BUF, file_size());
	ASSERT_EQ(3, seqs(s, 8));
	EXPECT_EQ(7, s[0]);
	EXPECT_EQ(5, s[1]);
	EXPECT_EQ(6, s[2]);
	EXPECT_EQ(4, buffers_written());
}

/* @n bytes of the file at @off equal @want. */
static int file_holds(const void *want, size_t n, off_t off)
{
	unsigned char got[BUF];
	int fd = open(path, O_RDONLY), same;

	same = fd >= 0 && n <= sizeof(got) && pread(fd, got, n, off) == (ssize_t)n &&
	       !memcmp(got, want, n);
	if (fd >= 0)
		close(fd);
	return same;
}

/* A page-aligned copy of buffer_of(), at @shift bytes into the page. */
static const void *aligned_buffer(unsigned long long seq, size_t shift)
{
	static unsigned char *page;

	if (!page && posix_memalign((void **)&page, BUF, 2 * BUF))
		return NULL;
	memcpy(page + shift, buffer_of(seq, 3), BUF);
	return page + shift;
}

/*
 * Page-aligned buffers go with O_DIRECT where the file system takes it
 * (this machine's /tmp may not: then there is nothing to test here), and
 * land in the file byte for byte.
 */
TEST_F(writer, direct_writes_aligned_buffers)
{
	const void *b;
	int i;

	ASSERT_EQ(0, open_writer(&self->w, ETW_MODE_FILE_SEQUENTIAL, 0, 0));
	if (!etw_etl_writer_direct(self->w)) {
		etw_etl_writer_close(self->w, NULL);
		SKIP(return, "no O_DIRECT on /tmp");
	}
	for (i = 1; i <= 3; i++) {
		b = aligned_buffer(i, 0);
		ASSERT_NE(NULL, b);
		ASSERT_EQ(0, etw_etl_writer_buffer(self->w, b));
		EXPECT_EQ(1, etw_etl_writer_direct(self->w));
		EXPECT_TRUE(file_holds(b, BUF, (off_t)i * BUF));
	}
	ASSERT_EQ(0, etw_etl_writer_close(self->w, NULL));
	EXPECT_EQ(4 * BUF, file_size());
	EXPECT_EQ(4, buffers_written());
	/* FLUSH_MARKER, set through the page cache, on the last one only. */
	EXPECT_TRUE(file_holds(aligned_buffer(2, 0), BUF, 2 * BUF));
	b = aligned_buffer(3, 0);
	EXPECT_TRUE(file_holds(b, 0x34, 3 * BUF));
	EXPECT_FALSE(file_holds(b, BUF, 3 * BUF));
}

/*
 * A transfer O_DIRECT refuses (EINVAL: memory not aligned for the
 * device) is written through the page cache, and so is the rest of the
 * file: every buffer still lands byte for byte.
 */
TEST_F(writer, direct_refused_falls_back)
{
	const void *b;

	ASSERT_EQ(0, open_writer(&self->w, ETW_MODE_FILE_SEQUENTIAL, 0, 0));
	if (!etw_etl_writer_direct(self->w)) {
		etw_etl_writer_close(self->w, NULL);
		SKIP(return, "no O_DIRECT on /tmp");
	}
	b = aligned_buffer(1, 8);
	ASSERT_NE(NULL, b);
	ASSERT_EQ(0, etw_etl_writer_buffer(self->w, b));
	EXPECT_EQ(0, etw_etl_writer_direct(self->w));
	EXPECT_TRUE(file_holds(b, BUF, BUF));
	b = aligned_buffer(2, 0);
	ASSERT_EQ(0, etw_etl_writer_buffer(self->w, b));
	EXPECT_EQ(0, etw_etl_writer_direct(self->w));
	EXPECT_TRUE(file_holds(b, BUF, 2 * BUF));
	ASSERT_EQ(0, etw_etl_writer_close(self->w, NULL));
	EXPECT_EQ(3 * BUF, file_size());
}

/* The file at @p from buffer 1 on, into @out (up to @max bytes); bytes. */
static long data_of(const char *p, unsigned char *out, size_t max)
{
	int fd = open(p, O_RDONLY);
	long n;

	if (fd < 0)
		return -1;
	n = pread(fd, out, max, BUF);
	close(fd);
	return n;
}

/*
 * etw_etl_writer_buffers() makes the file etw_etl_writer_buffer() makes:
 * a CIRCULAR file going round, a SEQUENTIAL file filling up (the rest
 * counted), a restarted writer skipping what the file holds, and a batch
 * with a buffer O_DIRECT refuses in its middle.
 */
TEST_F(writer, batch_same_file_as_one_by_one)
{
	static const struct { unsigned int mode, max_kb; } cases[] = {
		{ ETW_MODE_FILE_CIRCULAR, 24 },
		{ ETW_MODE_FILE_SEQUENTIAL, 32 },
		{ ETW_MODE_FILE_SEQUENTIAL, 0 },
	};
	/* BuffersWritten, EventsLost, BuffersLost */
	static const unsigned int fields[3] = { 0x24, 0x30, 0x114 };
	static unsigned char one[32 * BUF], batch[32 * BUF];
	unsigned char *mem;
	const void *b[12];
	unsigned int c, i, failed, h_one[3], h_batch[3];
	long n_one, n_batch;
	char other[80];

	ASSERT_EQ(0, posix_memalign((void **)&mem, BUF, 13 * BUF));
	for (i = 0; i < 12; i++) {
		/* Buffer 5 is not aligned for O_DIRECT: the batch falls back. */
		b[i] = mem + i * BUF + (i == 5 ? 8 : 0);
		memcpy((void *)b[i], buffer_of(i + 1, i % 3), BUF);
	}
	snprintf(other, sizeof(other), "%s.batch", path);
	for (c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
		unlink(path);
		ASSERT_EQ(0, open_writer(&self->w, cases[c].mode, cases[c].max_kb, 0));
		for (i = 0; i < 12; i++)
			ASSERT_EQ(0, etw_etl_writer_buffer(self->w, b[i]));
		ASSERT_EQ(0, etw_etl_writer_close(self->w, NULL));
		n_one = data_of(path, one, sizeof(one));
		for (i = 0; i < 3; i++)
			h_one[i] = header_field(fields[i]);
		ASSERT_EQ(0, rename(path, other));

		/* In two calls: the second starts where a restart would. */
		ASSERT_EQ(0, open_writer(&self->w, cases[c].mode, cases[c].max_kb, 0));
		failed = 1;
		ASSERT_EQ(0, etw_etl_writer_buffers(self->w, b, 7, &failed));
		EXPECT_EQ(0, failed);
		ASSERT_EQ(0, etw_etl_writer_buffers(self->w, b + 7, 5, &failed));
		EXPECT_EQ(0, failed);
		ASSERT_EQ(0, etw_etl_writer_close(self->w, NULL));
		n_batch = data_of(path, batch, sizeof(batch));
		for (i = 0; i < 3; i++)
			h_batch[i] = header_field(fields[i]);
		EXPECT_LT(0, n_one);
		EXPECT_EQ(n_one, n_batch);
		EXPECT_EQ(0, memcmp(one, batch, n_one));
		for (i = 0; i < 3; i++)
			EXPECT_EQ(h_one[i], h_batch[i]);
		unlink(other);
	}

	/* A restarted writer given buffers the file has: skipped in a batch. */
	ASSERT_EQ(0, open_writer(&self->w, ETW_MODE_FILE_SEQUENTIAL, 0, 1));
	ASSERT_EQ(0, etw_etl_writer_buffers(self->w, b, 12, &failed));
	EXPECT_EQ(0, failed);
	ASSERT_EQ(0, etw_etl_writer_close(self->w, NULL));
	EXPECT_EQ(13 * BUF, file_size());
	free(mem);
}

TEST_HARNESS_MAIN
