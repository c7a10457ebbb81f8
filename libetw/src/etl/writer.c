// SPDX-License-Identifier: MIT
/*
 * The ETL file writer: buffer 0 and unchanged session buffers.  Layouts
 * and the values written follow Documentation/etl-format.rst.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

#include "etw_etl_writer.h"
#include "../common/internal.h"

struct etw_etl_writer {
	int fd;
	int dfd;			/* O_DIRECT, for session buffers; -1: none */
	char *path;			/* the file being written */
	char *pattern;			/* NEWFILE: the name with %d */
	unsigned int file_no;		/* NEWFILE: number of the current file */
	unsigned int buffer_size;
	unsigned int count;		/* buffers in the file, buffer 0 included */
	unsigned int next;		/* where the next buffer goes (circular) */
	unsigned int last;		/* where the last buffer went (0: none) */
	unsigned int capacity;		/* buffers the file may hold, 0: no bound */
	unsigned int lost;		/* buffers not written: BuffersLost */
	unsigned int events_dropped;	/* the events in them */
	unsigned long long max_seq;	/* highest SequenceNumber in the file */
	struct etw_etl_writer_opts opts;
	struct etw_session_info info;
	unsigned char *header;		/* buffer 0 */
};

#define SYSTEM_TRACE_HEADER_SIZE	0x20
#define LOGFILE_HEADER_SIZE		0x118	/* the 64-bit form */
#define FILETIME_UNIX_OFFSET		116444736000000000ULL

static void put16(unsigned char *p, unsigned int v)
{
	p[0] = v;
	p[1] = v >> 8;
}

static void put32(unsigned char *p, unsigned int v)
{
	put16(p, v & 0xffff);
	put16(p + 2, v >> 16);
}

static void put64(unsigned char *p, unsigned long long v)
{
	put32(p, (unsigned int)v);
	put32(p + 4, (unsigned int)(v >> 32));
}

static unsigned long long filetime_of(clockid_t clock)
{
	struct timespec ts;

	clock_gettime(clock, &ts);
	return FILETIME_UNIX_OFFSET + (unsigned long long)ts.tv_sec * 10000000ULL +
	       ts.tv_nsec / 100;
}

/* FILETIME of boot: now minus the time since boot. */
static unsigned long long boot_filetime(void)
{
	struct timespec up;

	clock_gettime(CLOCK_BOOTTIME, &up);
	return filetime_of(CLOCK_REALTIME) -
	       ((unsigned long long)up.tv_sec * 10000000ULL + up.tv_nsec / 100);
}

/* Nominal CPU MHz; readers divide by it, so never 0. */
static unsigned int cpu_mhz(void)
{
	FILE *f = fopen("/proc/cpuinfo", "r");
	char line[256];
	double mhz = 0;

	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "cpu MHz : %lf", &mhz) == 1)
			break;
	if (f)
		fclose(f);
	return mhz >= 1 ? (unsigned int)mhz : 1000;
}

/* UTF-8 (ASCII in practice) to NUL-terminated UTF-16LE; returns bytes. */
static size_t put_utf16(unsigned char *p, const char *s, size_t room)
{
	size_t n = 0;

	while (*s && n + 4 <= room) {
		put16(p + n, (unsigned char)*s++);
		n += 2;
	}
	put16(p + n, 0);
	return n + 2;
}

/*
 * Lay out buffer 0: the header event and the buffer header.  Until the
 * file is finished (@end_time 0) EventsLost holds only the events of the
 * buffers the file could not take, so that a writer that resumes the
 * file after one that died can go on counting them.
 */
static void build_header(struct etw_etl_writer *w, unsigned long long end_time)
{
	const struct etw_session_info *in = &w->info;
	unsigned char *b = w->header, *rec = b + ETW_BUFFER_HEADER_SIZE;
	unsigned char *lf = rec + SYSTEM_TRACE_HEADER_SIZE;
	unsigned int mode = w->opts.mode ? w->opts.mode : in->log_file_mode;
	size_t room = w->buffer_size - ETW_BUFFER_HEADER_SIZE -
		      SYSTEM_TRACE_HEADER_SIZE - LOGFILE_HEADER_SIZE;
	size_t size, names;

	memset(b, 0, w->buffer_size);
	names = put_utf16(lf + LOGFILE_HEADER_SIZE, in->name, room / 2);
	names += put_utf16(lf + LOGFILE_HEADER_SIZE + names, w->path, room - names);
	size = SYSTEM_TRACE_HEADER_SIZE + LOGFILE_HEADER_SIZE + names;

	/* SYSTEM_TRACE_HEADER: version 2, SYSTEM64, flags 0xC0, HookId 0. */
	put16(rec + 0x00, 2);
	rec[0x02] = 0x02;
	rec[0x03] = 0xc0;
	put16(rec + 0x04, (unsigned int)size);
	put16(rec + 0x06, 0);
	put32(rec + 0x08, (unsigned int)syscall(SYS_gettid));
	put32(rec + 0x0c, (unsigned int)getpid());
	put64(rec + 0x10, in->start_ticks);	/* the clock at StartTime */

	/* TRACE_LOGFILE_HEADER, 64-bit form. */
	put32(lf + 0x00, w->buffer_size);
	put32(lf + 0x04, 0x0501000a);		/* 10.0, layout 1.5 */
	put32(lf + 0x08, 19041);
	put32(lf + 0x0c, (unsigned int)sysconf(_SC_NPROCESSORS_CONF));
	put64(lf + 0x10, end_time);
	put32(lf + 0x18, 10000);		/* processor time is in ms */
	put32(lf + 0x1c, w->opts.max_file_size);
	mode &= ~(unsigned int)ETW_MODE_REAL_TIME;
	put32(lf + 0x20, mode ? mode : ETW_MODE_FILE_SEQUENTIAL);
	put32(lf + 0x24, w->count);
	put32(lf + 0x28, 1);
	put32(lf + 0x2c, 8);
	/* Also the events of buffers the file could not take: see below. */
	put32(lf + 0x30, (end_time ? in->events_lost : 0) + w->events_dropped);
	put32(lf + 0x34, cpu_mhz());
	put64(lf + 0xf8, boot_filetime());
	put64(lf + 0x100, in->frequency);
	put64(lf + 0x108, in->start_time);
	put32(lf + 0x110, in->clock_type);
	put32(lf + 0x114, w->lost);

	/* The buffer header: HEADER type, flags 0x21, processor 0. */
	size = ETW_BUFFER_HEADER_SIZE + ((size + 7) & ~(size_t)7);
	put32(b + 0x00, w->buffer_size);
	put32(b + 0x04, (unsigned int)size);
	put32(b + 0x08, (unsigned int)size);
	put16(b + 0x2a, in->logger_id);
	put32(b + 0x2c, 3);
	put32(b + 0x30, (unsigned int)size);
	put16(b + 0x34, 0x0021);
	put16(b + 0x36, 4);
	memset(b + size, 0xff, w->buffer_size - size);
}

/* Write *len bytes at *off from *p, advancing all three; 0 or -errno. */
static int write_on(int fd, const unsigned char **p, size_t *len, off_t *off)
{
	while (*len) {
		ssize_t n = pwrite(fd, *p, *len, *off);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return n < 0 ? -errno : -EIO;
		*p += n;
		*len -= n;
		*off += n;
	}
	return 0;
}

static int write_at(int fd, const void *buf, size_t len, off_t off)
{
	const unsigned char *p = buf;

	return write_on(fd, &p, &len, &off);
}

static int read_at(int fd, void *buf, size_t len, off_t off)
{
	ssize_t n;

	do {
		n = pread(fd, buf, len, off);
	} while (n < 0 && errno == EINTR);
	if (n < 0)
		return -errno;
	return (size_t)n == len ? 0 : -EINVAL;
}

/*
 * Open the file a second time with O_DIRECT for the session buffers: they
 * are mapped whole and page-aligned, so the block layer takes them from
 * there and the CPU neither copies them into the page cache nor zeroes
 * page-cache pages for them; so is a new file's first header buffer.
 * The small updates (FLUSH_MARKER, resume's reads, truncation, the final
 * header) stay on the buffered descriptor; they touch no range a buffer
 * is written to while both are in use, and the kernel keeps the page
 * cache coherent with direct writes anyway.  A file system that refuses
 * O_DIRECT (tmpfs before 6.6) leaves -1: buffered writes, as before.
 */
static void open_direct(struct etw_etl_writer *w)
{
	w->dfd = open(w->path, O_WRONLY | O_DIRECT | O_CLOEXEC);
}

static void close_direct(struct etw_etl_writer *w)
{
	if (w->dfd >= 0)
		close(w->dfd);
	w->dfd = -1;
}

/*
 * A session buffer at @off: directly when the file allows it.  EINVAL is
 * the kernel refusing this transfer (an alignment this file system or
 * device does not take, a buffer not page-aligned in memory): the rest of
 * the file is written buffered, starting with what is left of this buffer.
 */
static int write_buffer_at(struct etw_etl_writer *w, const void *buf, size_t len,
			   off_t off)
{
	const unsigned char *p = buf;
	int ret;

	if (w->dfd >= 0) {
		ret = write_on(w->dfd, &p, &len, &off);
		if (ret != -EINVAL)
			return ret;
		close_direct(w);
	}
	return write_at(w->fd, p, len, off);
}

static unsigned long long get64(const unsigned char *p)
{
	unsigned long long v = 0;
	int i;

	for (i = 7; i >= 0; i--)
		v = v << 8 | p[i];
	return v;
}

static unsigned int get32(const unsigned char *p)
{
	return p[0] | p[1] << 8 | p[2] << 16 | (unsigned int)p[3] << 24;
}

/* Buffers a file of MaximumFileSize holds (0: no bound). */
static void set_capacity(struct etw_etl_writer *w)
{
	unsigned long long max = (unsigned long long)w->opts.max_file_size <<
				 (w->opts.mode & ETW_ETL_WRITER_KBYTES ? 10 : 20);

	w->capacity = 0;
	if (max) {
		w->capacity = max / w->buffer_size;
		/* Room for the header and one buffer at least. */
		if (w->capacity < 2)
			w->capacity = 2;
	}
}

/*
 * An existing file (APPEND, or a logger that restarts): its buffer size
 * must be ours; keep its start time; find its buffers, the highest
 * SequenceNumber and, for a circular file, where the newest one is.
 */
static int adopt_file(struct etw_etl_writer *w, off_t size)
{
	unsigned char *b = w->header, *lf = b + ETW_BUFFER_HEADER_SIZE + SYSTEM_TRACE_HEADER_SIZE;
	unsigned long long seq;
	unsigned int i, n;
	int ret;

	if (size % w->buffer_size || size < (off_t)w->buffer_size)
		return -EINVAL;
	ret = read_at(w->fd, b, w->buffer_size, 0);
	if (ret)
		return ret;
	if (get32(lf) != w->buffer_size)
		return -EINVAL;
	w->info.start_ticks = get64(b + ETW_BUFFER_HEADER_SIZE + 0x10);
	w->info.start_time = get64(lf + 0x108);
	if (!w->opts.resume)
		return 0;
	/* Not finished: EventsLost counts the buffers dropped so far. */
	if (!get64(lf + 0x10))
		w->events_dropped = get32(lf + 0x30);
	/* A restarted logger may not know the size the file was made for. */
	if (!w->opts.max_file_size) {
		w->opts.max_file_size = get32(lf + 0x1c);
		set_capacity(w);
	}
	n = size / w->buffer_size;
	for (i = 1; i < n; i++) {
		ret = read_at(w->fd, b, 0x20, (off_t)i * w->buffer_size);
		if (ret)
			return ret;
		seq = get64(b + 0x18);
		if (seq > w->max_seq) {
			w->max_seq = seq;
			w->last = i;
		}
	}
	return 0;
}

static int open_file(struct etw_etl_writer *w)
{
	int flags = O_RDWR | O_CREAT | O_CLOEXEC, ret;
	bool keep = w->opts.resume || (w->opts.mode & ETW_MODE_FILE_APPEND);
	struct stat st = { 0 };

	if (!keep)
		flags |= O_TRUNC;
	w->dfd = -1;
	w->fd = open(w->path, flags, 0644);
	if (w->fd < 0)
		return -errno;
	w->count = 1;
	w->next = 1;
	w->last = 0;
	if (keep && fstat(w->fd, &st)) {
		ret = -errno;
		goto out_close;
	}
	/*
	 * A writer killed inside a write leaves part of a buffer at the end:
	 * it was not given back, so it comes again; a torn header buffer is
	 * written anew.
	 */
	if (keep && w->opts.resume && st.st_size % w->buffer_size) {
		st.st_size -= st.st_size % w->buffer_size;
		if (ftruncate(w->fd, st.st_size)) {
			ret = -errno;
			goto out_close;
		}
	}
	if (keep && st.st_size) {
		ret = adopt_file(w, st.st_size);
		if (ret)
			goto out_close;
		w->count = st.st_size / w->buffer_size;
		w->next = w->last ? w->last + 1 : w->count;
		/* Only a circular file goes round; a full one stays full. */
		if ((w->opts.mode & ETW_MODE_FILE_CIRCULAR) &&
		    w->capacity && w->next >= w->capacity)
			w->next = 1;
		if (!w->last && w->count > 1)
			w->last = w->count - 1;
		open_direct(w);
		return 0;
	}
	/*
	 * The header goes the way the session buffers will, so the file's
	 * first direct write (its first block allocation, the device's first
	 * request) is done before the logger reports ready and the writers
	 * start, not with their first buffers waiting.
	 */
	build_header(w, 0);
	open_direct(w);
	ret = write_buffer_at(w, w->header, w->buffer_size, 0);
	if (!ret)
		return 0;
	close_direct(w);
out_close:
	close(w->fd);
	w->fd = -1;
	return ret;
}

/* NEWFILE: the name of file number @n from the pattern. */
static int newfile_name(struct etw_etl_writer *w, unsigned int n)
{
	char *name;

	/* The pattern was checked to hold one %d and nothing else. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
	if (asprintf(&name, w->pattern, n) < 0)
		return -ENOMEM;
#pragma GCC diagnostic pop
	free(w->path);
	w->path = name;
	return 0;
}

/* NEWFILE: the highest-numbered file that exists, to go on with it. */
static unsigned int newfile_last(struct etw_etl_writer *w)
{
	unsigned int n = 1;

	while (n < 100000 && !newfile_name(w, n + 1) && !access(w->path, F_OK))
		n++;
	return n;
}

ETW_EXPORT int etw_etl_writer_check_pattern(const char *path)
{
	const char *p = strchr(path, '%');

	if (!p || p[1] != 'd' || strchr(p + 2, '%'))
		return -EINVAL;
	return 0;
}

ETW_EXPORT int etw_etl_writer_open_ex(struct etw_etl_writer **out, const char *path,
				      const struct etw_session_info *info,
				      const struct etw_etl_writer_opts *opts)
{
	struct etw_etl_writer *w;
	int ret;

	*out = NULL;
	if (!info->buffer_size_kb || info->buffer_size_kb > 1024)
		return -EINVAL;
	if ((opts->mode & ETW_MODE_FILE_NEWFILE) && etw_etl_writer_check_pattern(path))
		return -EINVAL;
	w = calloc(1, sizeof(*w));
	if (!w)
		return -ENOMEM;
	w->fd = -1;
	w->dfd = -1;
	w->opts = *opts;
	w->info = *info;
	w->buffer_size = info->buffer_size_kb * 1024;
	w->lost = opts->buffers_lost;
	set_capacity(w);
	/* Page-aligned: it is written with O_DIRECT where the file takes it. */
	if (posix_memalign((void **)&w->header, 4096, w->buffer_size))
		w->header = NULL;
	ret = -ENOMEM;
	if (!w->header)
		goto out_free;
	if (opts->mode & ETW_MODE_FILE_NEWFILE) {
		w->pattern = strdup(path);
		if (!w->pattern)
			goto out_free;
		w->file_no = opts->resume ? newfile_last(w) : 1;
		ret = newfile_name(w, w->file_no);
	} else {
		w->path = strdup(path);
		ret = w->path ? 0 : -ENOMEM;
	}
	if (!ret)
		ret = open_file(w);
	if (ret)
		goto out_free;
	*out = w;
	return 0;

out_free:
	free(w->header);
	free(w->path);
	free(w->pattern);
	free(w);
	return ret;
}

ETW_EXPORT int etw_etl_writer_open(struct etw_etl_writer **out, const char *path,
				   const struct etw_session_info *info)
{
	struct etw_etl_writer_opts opts = { 0 };

	return etw_etl_writer_open_ex(out, path, info, &opts);
}

/* Only the file's last buffer carries FLUSH_MARKER (etl-format.rst). */
static int mark_last(struct etw_etl_writer *w)
{
	unsigned char flag[2];
	off_t off = (off_t)w->last * w->buffer_size + 0x34;
	int ret;

	if (!w->last)
		return 0;
	ret = read_at(w->fd, flag, 2, off);
	if (ret || (flag[0] & 0x01))
		return ret;
	flag[0] |= 0x01;
	return write_at(w->fd, flag, 2, off);
}

/* Mark the last buffer, rewrite buffer 0 with the final numbers, close. */
static int finish_file(struct etw_etl_writer *w)
{
	int ret;

	close_direct(w);
	ret = mark_last(w);

	build_header(w, filetime_of(CLOCK_REALTIME));
	if (!ret)
		ret = write_at(w->fd, w->header, w->buffer_size, 0);
	if (close(w->fd) && !ret)
		ret = -errno;
	w->fd = -1;
	return ret;
}

/*
 * Records in a session buffer: the module writes EVENT_HEADER and
 * EVENT_TRACE_HEADER records, both with their size in the first 16 bits.
 */
static unsigned int count_records(const unsigned char *b, unsigned int size)
{
	unsigned int end = get32(b + 4), off = ETW_BUFFER_HEADER_SIZE, n = 0;
	unsigned int len;

	if (end > size)
		return 0;
	while (off + 4 <= end) {
		len = b[off] | b[off + 1] << 8;
		if (len < 4)
			break;
		n++;
		off += (len + 7) & ~7u;
	}
	return n;
}

/* A restarted logger sees again what its file already holds. */
static bool in_file(const struct etw_etl_writer *w, const void *buffer)
{
	unsigned long long seq = get64((const unsigned char *)buffer + 0x18);

	return w->opts.resume && seq && seq <= w->max_seq;
}

/* @buffer is in the file at @at. */
static void placed(struct etw_etl_writer *w, unsigned int at, const void *buffer)
{
	unsigned long long seq = get64((const unsigned char *)buffer + 0x18);

	w->last = at;
	w->next = at + 1;
	if (w->next > w->count)
		w->count = w->next;
	if (seq > w->max_seq)
		w->max_seq = seq;
}

ETW_EXPORT int etw_etl_writer_buffer(struct etw_etl_writer *w, const void *buffer)
{
	unsigned int at;
	int ret;

	if (in_file(w, buffer))
		return 0;
	if (w->capacity && w->next >= w->capacity) {
		if (w->opts.mode & ETW_MODE_FILE_CIRCULAR) {
			w->next = 1;	/* over the oldest; buffer 0 stays */
		} else if (w->opts.mode & ETW_MODE_FILE_NEWFILE) {
			ret = finish_file(w);
			if (!ret)
				ret = newfile_name(w, ++w->file_no);
			if (!ret) {
				w->opts.resume = false;
				ret = open_file(w);
			}
			if (ret)
				return ret;
		} else {
			/* SEQUENTIAL: the file is full; the header keeps count. */
			w->lost++;
			w->events_dropped += count_records(buffer, w->buffer_size);
			build_header(w, 0);
			/* Rewritten at close anyway: a failure loses nothing. */
			write_at(w->fd, w->header, w->buffer_size, 0);
			return 0;
		}
	}
	at = w->next;
	ret = write_buffer_at(w, buffer, w->buffer_size, (off_t)at * w->buffer_size);
	if (ret)
		return ret;
	placed(w, at, buffer);
	return 0;
}

/* Buffers in one pwritev(), well within IOV_MAX. */
#define RUN_MAX 64

/*
 * Buffers that go to consecutive places of the file, and the writer as it
 * was before them: if the one write fails or comes up short, they are
 * written again one by one from there, exactly as etw_etl_writer_buffer()
 * would have.
 */
struct run {
	struct iovec iov[RUN_MAX];
	unsigned int n;
	unsigned int at;
	unsigned int next, last, count;
	unsigned long long max_seq;
};

static void run_add(struct etw_etl_writer *w, struct run *run, const void *buffer)
{
	if (!run->n) {
		run->at = w->next;
		run->next = w->next;
		run->last = w->last;
		run->count = w->count;
		run->max_seq = w->max_seq;
	}
	run->iov[run->n].iov_base = (void *)buffer;
	run->iov[run->n].iov_len = w->buffer_size;
	run->n++;
	placed(w, w->next, buffer);
}

/* etw_etl_writer_buffer(): 1 if it failed, the first error in *err. */
static unsigned int write_one(struct etw_etl_writer *w, const void *buffer,
			      int *err)
{
	int ret = etw_etl_writer_buffer(w, buffer);

	if (ret && !*err)
		*err = ret;
	return !!ret;
}

/* Write the run; how many of its buffers failed, the first error in *err. */
static unsigned int run_write(struct etw_etl_writer *w, struct run *run, int *err)
{
	size_t len = (size_t)run->n * w->buffer_size;
	unsigned int i, failed = 0;
	ssize_t done = 0;

	if (run->n > 1) {
		do {
			done = pwritev(w->dfd >= 0 ? w->dfd : w->fd, run->iov, run->n,
				       (off_t)run->at * w->buffer_size);
		} while (done < 0 && errno == EINTR);
	}
	if (run->n && done != (ssize_t)len) {
		w->next = run->next;
		w->last = run->last;
		w->count = run->count;
		w->max_seq = run->max_seq;
		for (i = 0; i < run->n; i++)
			failed += write_one(w, run->iov[i].iov_base, err);
	}
	run->n = 0;
	return failed;
}

ETW_EXPORT int etw_etl_writer_buffers(struct etw_etl_writer *w,
				      const void *const *buffers, unsigned int n,
				      unsigned int *failed)
{
	struct run run;
	unsigned int i, f = 0;
	int err = 0;

	run.n = 0;
	for (i = 0; i < n; i++) {
		if (in_file(w, buffers[i]))
			continue;
		/* Going round, a new file, a full file: one at a time. */
		if (w->capacity && w->next >= w->capacity) {
			f += run_write(w, &run, &err);
			f += write_one(w, buffers[i], &err);
			continue;
		}
		if (run.n == RUN_MAX)
			f += run_write(w, &run, &err);
		run_add(w, &run, buffers[i]);
	}
	f += run_write(w, &run, &err);
	if (failed)
		*failed = f;
	return err;
}

ETW_EXPORT unsigned int etw_etl_writer_count(const struct etw_etl_writer *w)
{
	return w->count;
}

ETW_EXPORT int etw_etl_writer_direct(const struct etw_etl_writer *w)
{
	return w->dfd >= 0;
}

ETW_EXPORT unsigned int etw_etl_writer_lost(const struct etw_etl_writer *w)
{
	return w->lost;
}

ETW_EXPORT int etw_etl_writer_close(struct etw_etl_writer *w,
				    const struct etw_session_info *final)
{
	int ret;

	if (final)
		w->info.events_lost = final->events_lost;
	ret = finish_file(w);
	free(w->header);
	free(w->path);
	free(w->pattern);
	free(w);
	return ret;
}
