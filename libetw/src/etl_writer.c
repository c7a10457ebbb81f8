// SPDX-License-Identifier: MIT
/*
 * The ETL file writer: buffer 0 and unchanged session buffers.  Layouts
 * and the values written follow Documentation/etl-format.rst.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "etw_etl_writer.h"
#include "internal.h"

struct etw_etl_writer {
	int fd;
	char *path;
	unsigned int buffer_size;
	unsigned int count;		/* buffers in the file, buffer 0 included */
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

/* Lay out buffer 0: the header event and the buffer header. */
static void build_header(struct etw_etl_writer *w, unsigned long long end_time)
{
	const struct etw_session_info *in = &w->info;
	unsigned char *b = w->header, *rec = b + ETW_BUFFER_HEADER_SIZE;
	unsigned char *lf = rec + SYSTEM_TRACE_HEADER_SIZE;
	unsigned int mode = in->log_file_mode & ~(unsigned int)ETW_MODE_REAL_TIME;
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
	put32(lf + 0x1c, 0);
	put32(lf + 0x20, mode ? mode : ETW_MODE_FILE_SEQUENTIAL);
	put32(lf + 0x24, w->count);
	put32(lf + 0x28, 1);
	put32(lf + 0x2c, 8);
	put32(lf + 0x30, in->events_lost);
	put32(lf + 0x34, cpu_mhz());
	put64(lf + 0xf8, boot_filetime());
	put64(lf + 0x100, in->frequency);
	put64(lf + 0x108, in->start_time);
	put32(lf + 0x110, in->clock_type);
	put32(lf + 0x114, in->log_buffers_lost);

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

static int write_at(int fd, const void *buf, size_t len, off_t off)
{
	const unsigned char *p = buf;

	while (len) {
		ssize_t n = pwrite(fd, p, len, off);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return n < 0 ? -errno : -EIO;
		p += n;
		len -= n;
		off += n;
	}
	return 0;
}

ETW_EXPORT int etw_etl_writer_open(struct etw_etl_writer **out, const char *path,
				   const struct etw_session_info *info)
{
	struct etw_etl_writer *w;
	int ret;

	*out = NULL;
	if (!info->buffer_size_kb || info->buffer_size_kb > 1024)
		return -EINVAL;
	w = calloc(1, sizeof(*w));
	if (!w)
		return -ENOMEM;
	w->info = *info;
	w->buffer_size = info->buffer_size_kb * 1024;
	w->count = 1;
	w->header = malloc(w->buffer_size);
	w->path = strdup(path);
	ret = -ENOMEM;
	if (!w->header || !w->path)
		goto out_free;
	w->fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	ret = -errno;
	if (w->fd < 0)
		goto out_free;
	build_header(w, 0);
	ret = write_at(w->fd, w->header, w->buffer_size, 0);
	if (ret) {
		close(w->fd);
		goto out_free;
	}
	*out = w;
	return 0;

out_free:
	free(w->header);
	free(w->path);
	free(w);
	return ret;
}

ETW_EXPORT int etw_etl_writer_buffer(struct etw_etl_writer *w, const void *buffer)
{
	int ret = write_at(w->fd, buffer, w->buffer_size,
			   (off_t)w->count * w->buffer_size);

	if (!ret)
		w->count++;
	return ret;
}

ETW_EXPORT unsigned int etw_etl_writer_count(const struct etw_etl_writer *w)
{
	return w->count;
}

ETW_EXPORT int etw_etl_writer_close(struct etw_etl_writer *w,
				    const struct etw_session_info *final)
{
	int ret;

	if (final) {
		w->info.events_lost = final->events_lost;
		w->info.log_buffers_lost = final->log_buffers_lost;
	}
	build_header(w, filetime_of(CLOCK_REALTIME));
	ret = write_at(w->fd, w->header, w->buffer_size, 0);
	if (close(w->fd) && !ret)
		ret = -errno;
	free(w->header);
	free(w->path);
	free(w);
	return ret;
}
