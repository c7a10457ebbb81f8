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

TEST_HARNESS_MAIN
