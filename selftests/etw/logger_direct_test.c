// SPDX-License-Identifier: GPL-2.0
/*
 * The ETL file written with O_DIRECT straight from the session buffers
 * mapped read-only from the module (Documentation/logger.rst, "Writing"):
 * on the VM's ext4 disk (/mnt/disk, scripts/vm/disk.sh) the buffers go
 * direct, on tmpfs (/tmp) they go direct where the kernel takes O_DIRECT
 * there (6.12) and through the page cache where it refuses it (6.1).
 * Either way the file holds every buffer byte for byte as the mapping
 * showed it, and exactly the events written.
 */
#include <fcntl.h>
#include <dirent.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/vfs.h>

#include <windows.h>
#include <evntrace.h>
#include <etw_etl.h>
#include <etw_etl_writer.h>
#include <etw_session_reader.h>

#include "kselftest_harness.h"
#include "etw_selftests.h"

#define DISK		"/mnt/disk"
#define EXT4_MAGIC	0xEF53
#define BUF_KB		8
#define EVENTS		2000
#define MAX_BUFS	256

/* O_DIRECT works for a new file in @dir (what the writer will find). */
static int direct_works(const char *dir)
{
	char path[256];
	int fd;

	snprintf(path, sizeof(path), "%s/etwtest-probe", dir);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_DIRECT, 0644);
	if (fd >= 0)
		close(fd);
	unlink(path);
	return fd >= 0;
}

/* Events of @guid in an ETL file, each id 0..n-1 at most @each times. */
static long file_events(const char *path, const __u8 guid[16], int n, int each)
{
	static unsigned char seen[EVENTS];
	struct etw_etl_event ev;
	struct etw_etl *etl;
	long events = 0;
	int ret;

	memset(seen, 0, sizeof(seen));
	if (etw_etl_open(path, &etl, NULL))
		return -1;
	while ((ret = etw_etl_next(etl, &ev)) == 1) {
		if (ev.kind != ETW_ETL_KIND_EVENT || memcmp(&ev.provider, guid, 16))
			continue;
		if (ev.id >= n || ++seen[ev.id] > each)
			events = -1000000;
		events++;
	}
	etw_etl_close(etl);
	return ret ? -1 : events;
}

FIXTURE(direct)
{
	int fd;
	__u32 reg;
	__u32 id;
	__u8 guid[16];
	char path[256];
	unsigned char *copies;	/* every buffer as the mapping showed it */
	unsigned int n;
};

FIXTURE_VARIANT(direct)
{
	const char *dir;
	int on_disk;
};

FIXTURE_VARIANT_ADD(direct, disk)
{
	.dir = DISK,
	.on_disk = 1,
};

FIXTURE_VARIANT_ADD(direct, tmpfs)
{
	.dir = "/tmp",
	.on_disk = 0,
};

FIXTURE_SETUP(direct)
{
	struct statfs fs;

	etw_require_root(_metadata);
	self->fd = etw_open_or_skip(_metadata);
	etw_stop_test_sessions(self->fd);
	self->id = 0;
	self->copies = NULL;
	/* The VM always has the disk: its absence is a failure, not a skip. */
	if (variant->on_disk) {
		ASSERT_EQ(0, statfs(DISK, &fs));
		ASSERT_EQ(EXT4_MAGIC, fs.f_type);
	}
	snprintf(self->path, sizeof(self->path), "%s/etwtest-direct.etl", variant->dir);
	unlink(self->path);
	etw_test_guid(self->guid, 0x58);
	ASSERT_EQ(0, etw_register_simple(self->fd, self->guid, &self->reg));
	ASSERT_EQ(0, etw_session_start_simple(self->fd, "etwtest-direct",
					      ETW_MODE_REAL_TIME, BUF_KB, 64, &self->id));
	ASSERT_EQ(0, etw_enable_simple(self->fd, self->id, self->guid, 1, 0, 0, 0, 0));
	self->copies = malloc((size_t)MAX_BUFS * BUF_KB * 1024);
	ASSERT_NE(NULL, self->copies);
	self->n = 0;
}

FIXTURE_TEARDOWN(direct)
{
	if (self->fd >= 0) {
		etw_stop_test_sessions(self->fd);
		close(self->fd);
	}
	free(self->copies);
	unlink(self->path);
}

/*
 * Write what the reader has ready in one batch (the logger's way: the
 * buffers that follow each other in the file in one pwritev()), keeping
 * a copy of each buffer as the mapping shows it.
 */
static int write_ready(FIXTURE_DATA(direct) *self, struct etw_session_reader *r,
		       struct etw_etl_writer *w, int *was_direct)
{
	const void *b[MAX_BUFS] = { NULL };
	unsigned int n = 0, i, failed = 1;

	while (self->n + n < MAX_BUFS && (b[n] = etw_session_reader_next(r)))
		n++;
	if (etw_etl_writer_buffers(w, b, n, &failed) || failed)
		return -1;
	*was_direct &= etw_etl_writer_direct(w);
	for (i = 0; i < n; i++)
		memcpy(self->copies + (size_t)self->n++ * BUF_KB * 1024, b[i],
		       BUF_KB * 1024);
	etw_session_reader_release(r);
	return 0;
}

/* The largest mapping of a consumer fd in this process: its buffers. */
static unsigned char *consumer_buffers(size_t *len)
{
	unsigned long lo, hi, best = 0;
	unsigned char *at = NULL;
	char line[512];
	FILE *f = fopen("/proc/self/maps", "r");

	while (f && fgets(line, sizeof(line), f)) {
		if (!strstr(line, "etw-consumer") ||
		    sscanf(line, "%lx-%lx", &lo, &hi) != 2 || hi - lo <= best)
			continue;
		best = hi - lo;
		at = (unsigned char *)lo;
	}
	if (f)
		fclose(f);
	*len = best;
	return at;
}

/* Pages of [@p, @p + @len) mapped in this process now. */
static long resident_pages(unsigned char *p, size_t len)
{
	long page = sysconf(_SC_PAGESIZE), n = 0;
	size_t i, pages = len / page;
	unsigned char *vec = calloc(pages, 1);

	if (!vec || mincore(p, len, vec)) {
		free(vec);
		return -1;
	}
	for (i = 0; i < pages; i++)
		n += vec[i] & 1;
	free(vec);
	return n;
}

/*
 * A logger's reader maps its whole pool when it attaches (the module grew
 * it to MaximumBuffers): no page of it faults at the first write.  Any
 * other reader maps pages as it touches them.
 */
TEST_F(direct, logger_mapping_populated)
{
	long page = sysconf(_SC_PAGESIZE), stride_pages;
	struct etw_session_info info;
	struct etw_session_reader *r;
	unsigned char *bufs;
	size_t len;

	ASSERT_EQ(0, etw_session_reader_attach(&r, self->fd, self->id, 0));
	ASSERT_EQ(0, etw_session_reader_query(r, &info, NULL));
	bufs = consumer_buffers(&len);
	ASSERT_NE(NULL, bufs);
	EXPECT_EQ(0, resident_pages(bufs, len));
	etw_session_reader_close(r);

	ASSERT_EQ(0, etw_session_reader_attach(&r, self->fd, self->id,
					       ETW_CONSUMER_F_LOGGER));
	ASSERT_EQ(0, etw_session_reader_query(r, &info, NULL));
	EXPECT_EQ(info.max_buffers, info.number_of_buffers);
	bufs = consumer_buffers(&len);
	ASSERT_NE(NULL, bufs);
	stride_pages = (BUF_KB * 1024 + page - 1) / page;
	EXPECT_EQ(info.number_of_buffers * stride_pages, resident_pages(bufs, len));
	etw_session_reader_close(r);
}

/*
 * The header buffer goes to the file the way the session buffers will:
 * on the disk with O_DIRECT, so it leaves no page in the page cache (a
 * tmpfs file is nothing but page cache).  So the file's first direct
 * write is done before the logger reports ready.
 */
TEST_F(direct, header_written_direct)
{
	const size_t size = BUF_KB * 1024;
	long page = sysconf(_SC_PAGESIZE);
	struct etw_session_info info;
	struct etw_session_reader *r;
	struct etw_etl_writer *w;
	unsigned char *p;
	int fd;

	ASSERT_EQ(0, etw_session_reader_attach(&r, self->fd, self->id, 0));
	ASSERT_EQ(0, etw_session_reader_query(r, &info, NULL));
	ASSERT_EQ(0, etw_etl_writer_open(&w, self->path, &info));
	fd = open(self->path, O_RDONLY);
	ASSERT_LE(0, fd);
	p = mmap(NULL, size, PROT_READ, MAP_SHARED, fd, 0);
	ASSERT_NE(MAP_FAILED, p);
	EXPECT_EQ(variant->on_disk ? 0 : (long)size / page, resident_pages(p, size));
	munmap(p, size);
	close(fd);
	EXPECT_EQ(0, etw_etl_writer_close(w, &info));
	etw_session_reader_close(r);
}

/*
 * The logger's path without the logger: the session reader's read-only
 * mapping of the module's buffers handed to the writer as they are.
 */
TEST_F(direct, buffers_from_the_mapping)
{
	const size_t size = BUF_KB * 1024;
	struct etw_session_info info;
	struct etw_session_reader *r;
	struct etw_etl_writer *w;
	long lost = 0, written = 0;
	unsigned char *got;
	int fd, i, ret, stopped, was_direct = 1, want;
	unsigned int k;

	want = variant->on_disk ? 1 : direct_works(variant->dir);
	ASSERT_EQ(0, etw_session_reader_attach(&r, self->fd, self->id, 0));
	ASSERT_EQ(size, etw_session_reader_buffer_size(r));
	ASSERT_EQ(0, etw_session_reader_query(r, &info, NULL));
	ASSERT_EQ(0, etw_etl_writer_open(&w, self->path, &info));
	EXPECT_EQ(want, etw_etl_writer_direct(w));
	for (i = 0; i < EVENTS; i++) {
		written += etw_write_counted(self->fd, self->reg, i, &lost);
		if (i % 200 == 199)
			ASSERT_EQ(0, write_ready(self, r, w, &was_direct));
	}
	ASSERT_EQ(0, etw_session_ctl(self->fd, self->id, ETW_CONTROL_STOP, NULL));
	while ((ret = etw_session_reader_wait(r, 1000)) == 1)
		ASSERT_EQ(0, write_ready(self, r, w, &was_direct));
	EXPECT_EQ(-ESHUTDOWN, ret);
	EXPECT_EQ(want, was_direct);
	ASSERT_EQ(0, etw_session_reader_query(r, &info, &stopped));
	EXPECT_EQ(1, stopped);
	ASSERT_EQ(0, etw_etl_writer_close(w, &info));
	etw_session_reader_close(r);

	/* Exactly the events written; any lost counted. */
	EXPECT_EQ(EVENTS, written + lost);
	EXPECT_EQ(lost, info.events_lost);
	EXPECT_EQ(written, file_events(self->path, self->guid, EVENTS, 1));
	/* Byte for byte; the last buffer also has FLUSH_MARKER set. */
	ASSERT_LT(1, self->n);
	got = malloc(size);
	ASSERT_NE(NULL, got);
	fd = open(self->path, O_RDONLY);
	ASSERT_LE(0, fd);
	for (k = 0; k < self->n; k++) {
		unsigned char *want_b = self->copies + (size_t)k * size;

		if (k == self->n - 1)
			want_b[0x34] |= 0x01;
		ASSERT_EQ((ssize_t)size, pread(fd, got, size, (off_t)(k + 1) * size));
		EXPECT_EQ(0, memcmp(got, want_b, size)) {
			TH_LOG("buffer %u of the file differs", k + 1);
		}
	}
	EXPECT_EQ(0, pread(fd, got, size, (off_t)(self->n + 1) * size));
	close(fd);
	free(got);
}

/* Some descriptor of process @pid open on @path has O_DIRECT: 1, else 0. */
static int has_direct_fd(pid_t pid, const char *path)
{
	char dir[64], link[PATH_MAX], name[PATH_MAX + 64], line[128];
	struct dirent *d;
	unsigned int flags;
	int found = 0;
	DIR *fds;
	FILE *f;
	ssize_t n;

	snprintf(dir, sizeof(dir), "/proc/%d/fd", (int)pid);
	fds = opendir(dir);
	while (fds && (d = readdir(fds)) && !found) {
		snprintf(name, sizeof(name), "%s/%s", dir, d->d_name);
		n = readlink(name, link, sizeof(link) - 1);
		if (n < 0)
			continue;
		link[n] = 0;
		if (strcmp(link, path))
			continue;
		snprintf(name, sizeof(name), "/proc/%d/fdinfo/%s", (int)pid, d->d_name);
		f = fopen(name, "r");
		while (f && fgets(line, sizeof(line), f))
			if (sscanf(line, "flags: %o", &flags) == 1 && (flags & O_DIRECT))
				found = 1;
		if (f)
			fclose(f);
	}
	if (fds)
		closedir(fds);
	return found;
}

/* NEWFILE's file @n of @path: "-n" before its ".etl". */
static char *numbered(char *out, size_t len, const char *path, int n)
{
	snprintf(out, len, "%.*s-%d.etl", (int)strlen(path) - 4, path, n);
	return out;
}

struct props {
	EVENT_TRACE_PROPERTIES p;
	char names[2048];
};

/*
 * `etw logger` (StartTrace with a log file): it holds the file with
 * O_DIRECT where the file system takes it, and the file read back has
 * every event written, for SEQUENTIAL, for a CIRCULAR file that went
 * round (exactly the newest buffers, the header buffer kept), for
 * NEWFILE (every event in one of the files, each file at most its size)
 * and for APPEND (the events of both runs).  @events: those the file
 * already has; the run's are added.
 */
static void logger_run(struct __test_metadata *_metadata,
		       FIXTURE_DATA(direct) *self, const FIXTURE_VARIANT(direct) *variant,
		       ULONG mode, ULONG max_kb, long *events)
{
	CONTROLTRACE_ID h;
	struct props *b = calloc(1, sizeof(*b));
	int newfile = mode & EVENT_TRACE_FILE_MODE_NEWFILE;
	char first[sizeof(self->path) + 16], pattern[sizeof(self->path) + 16];
	struct etw_etl *etl;
	long lost = 0, written = 0, in_file = 0;
	struct stat st;
	int i;

	ASSERT_NE(NULL, b);
	/* The fixture's session is for the reader test: the logger gets its own. */
	if (self->id)
		ASSERT_EQ(0, etw_session_ctl(self->fd, self->id, ETW_CONTROL_STOP, NULL));
	self->id = 0;
	b->p.Wnode.BufferSize = sizeof(*b);
	b->p.Wnode.Flags = WNODE_FLAG_TRACED_GUID;
	b->p.Wnode.ClientContext = 1;
	b->p.LogFileMode = mode | (max_kb ? EVENT_TRACE_USE_KBYTES_FOR_SIZE : 0);
	b->p.BufferSize = BUF_KB;
	b->p.MinimumBuffers = 32;
	b->p.MaximumFileSize = max_kb;
	b->p.LoggerNameOffset = sizeof(b->p);
	b->p.LogFileNameOffset = sizeof(b->p) + 1024;
	/* NEWFILE: the fixture's name with -%d before .etl. */
	snprintf(pattern, sizeof(pattern), "%.*s-%%d.etl",
		 (int)strlen(self->path) - 4, self->path);
	if (newfile)
		numbered(first, sizeof(first), self->path, 1);
	else
		snprintf(first, sizeof(first), "%s", self->path);
	strcpy(b->names + 1024, newfile ? pattern : self->path);
	ASSERT_EQ(ERROR_SUCCESS, StartTraceA(&h, "etwtest-direct-log", &b->p));
	ASSERT_EQ(0, etw_enable_simple(self->fd, (__u32)(h & 0xffff), self->guid,
				       1, 0, 0, 0, 0));
	EXPECT_EQ(variant->on_disk ? 1 : direct_works(variant->dir),
		  has_direct_fd((pid_t)(uintptr_t)b->p.LoggerThreadId, first));
	for (i = 0; i < EVENTS; i++) {
		written += etw_write_counted(self->fd, self->reg, i, &lost);
		if (i % 200 == 199)
			usleep(20000);	/* the logger keeps up: nothing lost */
	}
	memset(b, 0, sizeof(*b));
	b->p.Wnode.BufferSize = sizeof(*b);
	b->p.LoggerNameOffset = sizeof(b->p);
	b->p.LogFileNameOffset = sizeof(b->p) + 1024;
	ASSERT_EQ(ERROR_SUCCESS, ControlTraceA(h, NULL, &b->p, EVENT_TRACE_CONTROL_STOP));
	EXPECT_EQ(lost, b->p.EventsLost);
	EXPECT_EQ(EVENTS, written + lost);
	if (newfile) {
		/* Each file has ids once; together they have every event. */
		for (i = 1; numbered(first, sizeof(first), self->path, i) &&
			    !stat(first, &st); i++) {
			EXPECT_GE(max_kb * 1024, st.st_size);
			in_file += file_events(first, self->guid, EVENTS, 1);
			unlink(first);
		}
		EXPECT_LT(3, i);
		EXPECT_EQ(written, in_file);
	} else if (!max_kb) {
		/* APPEND: the file's events and the ones this run wrote. */
		*events += written;
		in_file = file_events(self->path, self->guid, EVENTS,
				      mode & EVENT_TRACE_FILE_MODE_APPEND ? 2 : 1);
		EXPECT_EQ(*events, in_file);
	} else {
		/* CIRCULAR went round: fewer, each once, and buffer 0 is the header. */
		in_file = file_events(self->path, self->guid, EVENTS, 1);
		EXPECT_LT(0, in_file);
		EXPECT_GT(written, in_file);
		ASSERT_EQ(0, etw_etl_open(self->path, &etl, NULL));
		EXPECT_EQ(max_kb / BUF_KB, etw_etl_get_header(etl)->buffer_count);
		etw_etl_close(etl);
	}
	free(b);
}

TEST_F(direct, logger_sequential)
{
	long events = 0;

	logger_run(_metadata, self, variant, EVENT_TRACE_FILE_MODE_SEQUENTIAL, 0, &events);
}

TEST_F(direct, logger_circular)
{
	long events = 0;

	logger_run(_metadata, self, variant, EVENT_TRACE_FILE_MODE_CIRCULAR, 64, &events);
}

/* APPEND: a second logger continues the first one's file. */
TEST_F(direct, logger_append)
{
	long events = 0;

	logger_run(_metadata, self, variant, EVENT_TRACE_FILE_MODE_SEQUENTIAL, 0, &events);
	logger_run(_metadata, self, variant,
		   EVENT_TRACE_FILE_MODE_SEQUENTIAL | EVENT_TRACE_FILE_MODE_APPEND, 0, &events);
}

TEST_F(direct, logger_newfile)
{
	long events = 0;

	logger_run(_metadata, self, variant, EVENT_TRACE_FILE_MODE_NEWFILE, 64, &events);
}

TEST_HARNESS_MAIN
