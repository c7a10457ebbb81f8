// SPDX-License-Identifier: MIT
/*
 * ETL files: the mapping, the buffer headers and the header event.
 *
 * Opening walks every buffer header once (they are BufferSize apart) and
 * keeps an index, which the time-ordered iteration needs.  A bad buffer 0
 * or header event fails the open; a bad later buffer ends the index and
 * is reported when iteration gets there, so the records before it can
 * still be read.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "internal.h"

int etl_verror(struct etw_etl_error *err, int code, uint64_t offset,
	       const char *what, const char *fmt, va_list ap)
{
	size_t n;

	if (!err)
		return code;
	err->code = code;
	err->offset = offset;
	if (offset == ETW_ETL_NO_OFFSET)
		snprintf(err->message, sizeof(err->message), "%s: ", what);
	else
		snprintf(err->message, sizeof(err->message),
			 "%s at offset 0x%llx: ", what,
			 (unsigned long long)offset);
	n = strlen(err->message);
	vsnprintf(err->message + n, sizeof(err->message) - n, fmt, ap);
	return code;
}

int etl_error(struct etw_etl_error *err, int code, uint64_t offset,
	      const char *what, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	etl_verror(err, code, offset, what, fmt, ap);
	va_end(ap);
	return code;
}

/* One code point as UTF-8; returns its length. */
static size_t put_utf8(uint32_t c, char *out)
{
	if (c < 0x80) {
		out[0] = (char)c;
		return 1;
	}
	if (c < 0x800) {
		out[0] = (char)(0xc0 | c >> 6);
		out[1] = (char)(0x80 | (c & 0x3f));
		return 2;
	}
	if (c < 0x10000) {
		out[0] = (char)(0xe0 | c >> 12);
		out[1] = (char)(0x80 | (c >> 6 & 0x3f));
		out[2] = (char)(0x80 | (c & 0x3f));
		return 3;
	}
	out[0] = (char)(0xf0 | c >> 18);
	out[1] = (char)(0x80 | (c >> 12 & 0x3f));
	out[2] = (char)(0x80 | (c >> 6 & 0x3f));
	out[3] = (char)(0x80 | (c & 0x3f));
	return 4;
}

/*
 * UTF-16LE at p, at most units long or up to a NUL, into out (always
 * terminated; a lone surrogate becomes U+FFFD).  Returns the units read,
 * the NUL included.
 */
static size_t utf16_to_utf8(const uint8_t *p, size_t units, char *out,
			    size_t out_size)
{
	size_t i = 0, n = 0;
	char tmp[4];

	while (i < units) {
		uint32_t c = (uint32_t)etl_get_le(p + 2 * i++, 2);
		size_t len;

		if (!c)
			break;
		if (c >= 0xd800 && c < 0xdc00 && i < units) {
			uint32_t lo = (uint32_t)etl_get_le(p + 2 * i, 2);

			if (lo >= 0xdc00 && lo < 0xe000) {
				c = 0x10000 + ((c - 0xd800) << 10) + (lo - 0xdc00);
				i++;
			}
		}
		if (c >= 0xd800 && c < 0xe000)
			c = 0xfffd;
		len = put_utf8(c, tmp);
		if (n + len >= out_size)
			break;
		memcpy(out + n, tmp, len);
		n += len;
	}
	out[n] = '\0';
	return i;
}

/* A string of at most units UTF-16 units, in a new allocation. */
static char *dup_utf16(const uint8_t *p, size_t units, size_t *used)
{
	size_t size = units * 3 + 1;
	char *s = malloc(size);

	if (s)
		*used = utf16_to_utf8(p, units, s, size);
	return s;
}

static int load_buffer(const struct etw_etl *etl, uint64_t off,
		       struct etw_etl_buffer *b, struct etw_etl_error *err)
{
	uint64_t left = etl->size - off;
	const uint8_t *p;
	uint16_t index;

	if (left < ETL_BUFFER_HEADER_SIZE)
		return etl_error(err, -EBADMSG, off, "corrupt buffer",
				 "truncated: 0x%llx bytes left in the file, a buffer header takes 0x%x",
				 (unsigned long long)left, ETL_BUFFER_HEADER_SIZE);
	p = etl->data + off;
	memset(b, 0, sizeof(*b));
	b->offset = off;
	b->size = ETL_GET(p, etl_buffer_header, buffer_size);
	b->saved_offset = ETL_GET(p, etl_buffer_header, saved_offset);
	b->timestamp = ETL_GET(p, etl_buffer_header, timestamp);
	b->sequence = ETL_GET(p, etl_buffer_header, sequence_number);
	b->logger_id = ETL_GET(p, etl_buffer_header, logger_id);
	b->state = ETL_GET(p, etl_buffer_header, state);
	b->flags = ETL_GET(p, etl_buffer_header, buffer_flag);
	b->type = ETL_GET(p, etl_buffer_header, buffer_type);
	/* Before Windows 8 the index was a u8 followed by padding. */
	index = ETL_GET(p, etl_buffer_header, processor_index);
	if (b->flags & ETW_ETL_BUFFER_FLAG_PROC_INDEX)
		b->processor = index & ETL_PROCESSOR_INDEX_MASK;
	else
		b->processor = index & 0xff;

	if (b->size < ETL_BUFFER_HEADER_SIZE)
		return etl_error(err, -EBADMSG, off, "corrupt buffer",
				 "BufferSize 0x%x is smaller than the 0x%x-byte buffer header",
				 b->size, ETL_BUFFER_HEADER_SIZE);
	if (b->size > left)
		return etl_error(err, -EBADMSG, off, "corrupt buffer",
				 "truncated: BufferSize 0x%x but 0x%llx bytes left in the file",
				 b->size, (unsigned long long)left);
	/* A compressed buffer's SavedOffset is its size once inflated. */
	if (b->saved_offset < ETL_BUFFER_HEADER_SIZE ||
	    (!(b->flags & ETW_ETL_BUFFER_FLAG_COMPRESSED) &&
	     b->saved_offset > b->size))
		return etl_error(err, -EBADMSG, off, "corrupt buffer",
				 "SavedOffset 0x%x is outside the buffer (0x%x..0x%x)",
				 b->saved_offset, ETL_BUFFER_HEADER_SIZE, b->size);
	if ((b->flags & ETW_ETL_BUFFER_FLAG_COMPRESSED) &&
	    b->saved_offset > ETL_MAX_INFLATED)
		return etl_error(err, -EBADMSG, off, "corrupt buffer",
				 "SavedOffset 0x%x of a compressed buffer is more than the 0x%x bytes a buffer may hold",
				 b->saved_offset, ETL_MAX_INFLATED);
	return 0;
}

static int add_buffer(struct etw_etl *etl, const struct etw_etl_buffer *b)
{
	if (etl->nbufs == etl->bufs_cap) {
		uint32_t cap = etl->bufs_cap ? etl->bufs_cap * 2 : 64;
		void *p = reallocarray(etl->bufs, cap, sizeof(*etl->bufs));

		if (!p)
			return -ENOMEM;
		etl->bufs = p;
		etl->bufs_cap = cap;
	}
	etl->bufs[etl->nbufs++] = *b;
	if (b->flags & ETW_ETL_BUFFER_FLAG_COMPRESSED)
		etl->hdr.compressed_buffers++;
	return 0;
}

/* A preallocated file ends in zeros once BuffersWritten buffers are read. */
static bool preallocated_tail(const struct etw_etl *etl, uint64_t off)
{
	uint64_t left = etl->size - off;

	if (!etl->hdr.buffers_written || etl->nbufs < etl->hdr.buffers_written)
		return false;
	if (left < ETL_BUFFER_HEADER_SIZE)
		return false;
	for (int i = 0; i < ETL_BUFFER_HEADER_SIZE; i++)
		if (etl->data[off + i])
			return false;
	return true;
}

/* Index buffers 1..n; a problem ends the walk and is kept for later. */
static int index_buffers(struct etw_etl *etl)
{
	uint64_t off = etl->bufs[0].offset + etl->bufs[0].size;
	struct etw_etl_buffer b;
	int ret;

	while (off < etl->size && !preallocated_tail(etl, off)) {
		if (load_buffer(etl, off, &b, &etl->index_err) < 0)
			break;
		ret = add_buffer(etl, &b);
		if (ret < 0)
			return ret;
		off += b.size;
	}
	etl->hdr.buffer_count = etl->nbufs;
	return 0;
}

#define LOAD_LOGFILE(h, q, type) do {					\
	(h)->buffer_size = ETL_GET(q, type, buffer_size);		\
	(h)->version = ETL_GET(q, type, version);			\
	(h)->provider_version = ETL_GET(q, type, provider_version);	\
	(h)->number_of_processors = ETL_GET(q, type, number_of_processors); \
	(h)->end_time = ETL_GET(q, type, end_time);			\
	(h)->timer_resolution = ETL_GET(q, type, timer_resolution);	\
	(h)->maximum_file_size = ETL_GET(q, type, maximum_file_size);	\
	(h)->log_file_mode = ETL_GET(q, type, log_file_mode);		\
	(h)->buffers_written = ETL_GET(q, type, buffers_written);	\
	(h)->start_buffers = ETL_GET(q, type, start_buffers);		\
	(h)->pointer_size = ETL_GET(q, type, pointer_size);		\
	(h)->events_lost = ETL_GET(q, type, events_lost);		\
	(h)->cpu_speed_mhz = ETL_GET(q, type, cpu_speed_mhz);		\
	(h)->timer_source = ETL_GET(q, type, logger_name);		\
	(h)->perf_timer_source = ETL_GET(q, type, log_file_name);	\
	(h)->boot_time = ETL_GET(q, type, boot_time);			\
	(h)->perf_freq = ETL_GET(q, type, perf_freq);			\
	(h)->start_time = ETL_GET(q, type, start_time);			\
	(h)->reserved_flags = ETL_GET(q, type, reserved_flags);		\
	(h)->buffers_lost = ETL_GET(q, type, buffers_lost);		\
} while (0)

static void load_systemtime(const uint8_t *p, struct etw_etl_systemtime *t)
{
	t->year = ETL_GET(p, etl_systemtime, field[0]);
	t->month = ETL_GET(p, etl_systemtime, field[1]);
	t->day_of_week = ETL_GET(p, etl_systemtime, field[2]);
	t->day = ETL_GET(p, etl_systemtime, field[3]);
	t->hour = ETL_GET(p, etl_systemtime, field[4]);
	t->minute = ETL_GET(p, etl_systemtime, field[5]);
	t->second = ETL_GET(p, etl_systemtime, field[6]);
	t->milliseconds = ETL_GET(p, etl_systemtime, field[7]);
}

static void load_time_zone(const uint8_t *p, struct etw_etl_time_zone *tz)
{
	tz->bias = ETL_GET(p, etl_time_zone, bias);
	utf16_to_utf8(p + offsetof(struct etl_time_zone, standard_name), 32,
		      tz->standard_name, sizeof(tz->standard_name));
	load_systemtime(p + offsetof(struct etl_time_zone, standard_date),
			&tz->standard_date);
	tz->standard_bias = ETL_GET(p, etl_time_zone, standard_bias);
	utf16_to_utf8(p + offsetof(struct etl_time_zone, daylight_name), 32,
		      tz->daylight_name, sizeof(tz->daylight_name));
	load_systemtime(p + offsetof(struct etl_time_zone, daylight_date),
			&tz->daylight_date);
	tz->daylight_bias = ETL_GET(p, etl_time_zone, daylight_bias);
}

/* LoggerName and LogFileName: UTF-16 strings after the struct. */
static int load_names(struct etw_etl *etl, const uint8_t *p, size_t bytes)
{
	size_t units = bytes / 2, used = 0;

	etl->logger_name = dup_utf16(p, units, &used);
	if (!etl->logger_name)
		return -ENOMEM;
	etl->log_file_name = dup_utf16(p + 2 * used, units - used, &used);
	if (!etl->log_file_name)
		return -ENOMEM;
	etl->hdr.logger_name = etl->logger_name;
	etl->hdr.log_file_name = etl->log_file_name;
	return 0;
}

/* The first record of buffer 0: SYSTEM_TRACE_HEADER, hook 0, the header. */
static int load_header(struct etw_etl *etl, struct etw_etl_error *err)
{
	const struct etw_etl_buffer *b0 = &etl->bufs[0];
	uint64_t off = b0->offset + ETL_BUFFER_HEADER_SIZE;
	uint32_t avail = b0->saved_offset - ETL_BUFFER_HEADER_SIZE;
	const uint8_t *p = etl->data + off, *q;
	struct etw_etl_header *h = &etl->hdr;
	uint32_t marker, size, need;
	uint8_t type;

	if (b0->flags & ETW_ETL_BUFFER_FLAG_COMPRESSED)
		return etl_error(err, -EOPNOTSUPP, b0->offset, "compressed buffer",
				 "buffer 0 (the header) is compressed");
	if (avail < sizeof(struct etl_system_header))
		return etl_error(err, -EBADMSG, off, "corrupt header",
				 "buffer 0 holds 0x%x bytes, too few for the header event",
				 avail);
	marker = (uint32_t)etl_get_le(p, 4);
	type = marker >> 16 & 0xff;
	if ((marker >> 24 & 0xd0) != 0xc0 ||
	    (type != ETL_HT_SYSTEM32 && type != ETL_HT_SYSTEM64))
		return etl_error(err, -EBADMSG, off, "corrupt header",
				 "buffer 0 does not start with the header event (marker 0x%08x)",
				 marker);
	if (ETL_GET(p, etl_system_header, hook_id) != ETL_HOOK_HEADER)
		return etl_error(err, -EBADMSG, off, "corrupt header",
				 "first record has hook id 0x%04x, not 0x0000",
				 ETL_GET(p, etl_system_header, hook_id));
	size = ETL_GET(p, etl_system_header, size);
	need = sizeof(struct etl_system_header) +
	       (type == ETL_HT_SYSTEM64 ? sizeof(struct etl_logfile_header64) :
					  sizeof(struct etl_logfile_header32));
	if (size < need || size > avail)
		return etl_error(err, -EBADMSG, off, "corrupt header",
				 "header event of 0x%x bytes: it needs 0x%x and buffer 0 holds 0x%x",
				 size, need, avail);

	q = p + sizeof(struct etl_system_header);
	if (type == ETL_HT_SYSTEM64) {
		LOAD_LOGFILE(h, q, etl_logfile_header64);
		load_time_zone(q + offsetof(struct etl_logfile_header64, time_zone),
			       &h->time_zone);
	} else {
		LOAD_LOGFILE(h, q, etl_logfile_header32);
		load_time_zone(q + offsetof(struct etl_logfile_header32, time_zone),
			       &h->time_zone);
	}
	/* snail-server and the relogged samples: the format is in State. */
	h->compression_format = h->log_file_mode & ETL_COMPRESSED_MODE ?
				b0->state & 0xffff : ETL_COMPRESSION_XPRESS;
	h->header_pointer_size = type == ETL_HT_SYSTEM64 ? 8 : 4;
	h->sync_timestamp = ETL_GET(p, etl_system_header, system_time);
	h->header_thread_id = ETL_GET(p, etl_system_header, thread_id);
	h->header_process_id = ETL_GET(p, etl_system_header, process_id);
	return load_names(etl, p + need, size - need);
}

/* Buffer 0, the header event, then the index of the other buffers. */
static int etl_load(struct etw_etl *etl, struct etw_etl_error *err)
{
	struct etw_etl_buffer b0;
	uint32_t offset;
	int ret;

	etl->hdr.file_size = etl->size;
	etl->hdr.logger_name = "";
	etl->hdr.log_file_name = "";
	ret = load_buffer(etl, 0, &b0, err);
	if (ret < 0)
		return ret;
	/*
	 * The relogger's buffer 0 has one more record (EventTrace 0x50) past
	 * SavedOffset, up to Offset; dissect.etl reads it, and so do we.
	 * Windows' loggers write the two equal.
	 */
	offset = ETL_GET(etl->data, etl_buffer_header, offset);
	if (!(b0.flags & ETW_ETL_BUFFER_FLAG_COMPRESSED) &&
	    offset > b0.saved_offset && offset <= b0.size)
		b0.saved_offset = offset;
	ret = add_buffer(etl, &b0);
	if (ret < 0)
		return etl_error(err, ret, ETW_ETL_NO_OFFSET, "out of memory", "buffer index");
	ret = load_header(etl, err);
	if (ret == -ENOMEM)
		return etl_error(err, ret, ETW_ETL_NO_OFFSET, "out of memory", "header strings");
	if (ret < 0)
		return ret;
	ret = index_buffers(etl);
	if (ret < 0)
		return etl_error(err, ret, ETW_ETL_NO_OFFSET, "out of memory", "buffer index");
	return 0;
}

static int read_all(struct etw_etl *etl, int fd, struct etw_etl_error *err)
{
	size_t cap = 1 << 16, len = 0;
	uint8_t *buf = malloc(cap);
	ssize_t n;

	while (buf) {
		if (len == cap) {
			uint8_t *bigger = realloc(buf, cap * 2);

			if (!bigger)
				break;
			buf = bigger;
			cap *= 2;
		}
		n = read(fd, buf + len, cap - len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			int e = errno;

			free(buf);
			return etl_error(err, -e, ETW_ETL_NO_OFFSET, "cannot read",
					 "%s", strerror(e));
		}
		if (n == 0) {
			etl->copy = buf;
			etl->data = buf;
			etl->size = len;
			return 0;
		}
		len += n;
	}
	free(buf);
	return etl_error(err, -ENOMEM, ETW_ETL_NO_OFFSET, "cannot read",
			 "out of memory");
}

/*
 * The load reads every buffer's header and a reader then every record:
 * a file that fits easily in memory is mapped whole at once, which takes
 * an eighth off etw report's time on the bench's trace (against a page
 * fault per 64 KiB).  A larger one is faulted in as it is read.
 */
static int populate(uint64_t size)
{
	long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);

	if (pages <= 0 || page <= 0)
		return 0;
	return size <= (uint64_t)pages * (uint64_t)page / 4 ? MAP_POPULATE : 0;
}

/* Map a regular file; read anything else (a pipe) into memory. */
static int map_file(struct etw_etl *etl, int fd, struct etw_etl_error *err)
{
	static const uint8_t empty[1];
	struct stat st;

	if (fstat(fd, &st) < 0)
		return etl_error(err, -errno, ETW_ETL_NO_OFFSET, "cannot stat",
				 "%s", strerror(errno));
	if (!S_ISREG(st.st_mode))
		return read_all(etl, fd, err);
	if ((uint64_t)st.st_size > SIZE_MAX)
		return etl_error(err, -EFBIG, ETW_ETL_NO_OFFSET, "cannot map",
				 "file too large for this address space");
	etl->data = empty;
	etl->size = st.st_size;
	if (!etl->size)
		return 0;
	etl->map = mmap(NULL, etl->size, PROT_READ, MAP_PRIVATE | populate(etl->size),
			fd, 0);
	if (etl->map == MAP_FAILED) {
		etl->map = NULL;
		return etl_error(err, -errno, ETW_ETL_NO_OFFSET, "cannot map",
				 "%s", strerror(errno));
	}
	etl->data = etl->map;
	return 0;
}

static struct etw_etl *etl_alloc(struct etw_etl_error *err)
{
	struct etw_etl *etl = calloc(1, sizeof(*etl));

	if (!etl)
		etl_error(err, -ENOMEM, ETW_ETL_NO_OFFSET, "out of memory",
			  "reader");
	return etl;
}

static int finish_open(struct etw_etl *etl, struct etw_etl **etlp,
		       struct etw_etl_error *err)
{
	int ret = etl_load(etl, err);

	if (ret < 0) {
		etw_etl_close(etl);
		return ret;
	}
	etw_etl_rewind(etl, ETW_ETL_ORDER_FILE);
	*etlp = etl;
	return 0;
}

ETW_EXPORT int etw_etl_open(const char *path, struct etw_etl **etlp,
			    struct etw_etl_error *err)
{
	struct etw_etl *etl;
	int fd, ret;

	*etlp = NULL;
	if (err)
		memset(err, 0, sizeof(*err));
	etl = etl_alloc(err);
	if (!etl)
		return -ENOMEM;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		ret = etl_error(err, -errno, ETW_ETL_NO_OFFSET, "cannot open",
				"%s", strerror(errno));
		free(etl);
		return ret;
	}
	ret = map_file(etl, fd, err);
	close(fd);
	if (ret < 0) {
		free(etl);
		return ret;
	}
	return finish_open(etl, etlp, err);
}

ETW_EXPORT int etw_etl_open_mem(const void *data, size_t size,
				struct etw_etl **etlp,
				struct etw_etl_error *err)
{
	static const uint8_t empty[1];
	struct etw_etl *etl;

	*etlp = NULL;
	if (err)
		memset(err, 0, sizeof(*err));
	etl = etl_alloc(err);
	if (!etl)
		return -ENOMEM;
	etl->data = data && size ? data : empty;
	etl->size = data ? size : 0;
	return finish_open(etl, etlp, err);
}

ETW_EXPORT void etw_etl_close(struct etw_etl *etl)
{
	if (!etl)
		return;
	etl_merge_free(etl->merge);
	etl_scratch_free(&etl->scratch);
	if (etl->map)
		munmap(etl->map, etl->size);
	free(etl->copy);
	free(etl->logger_name);
	free(etl->log_file_name);
	free(etl->bufs);
	free(etl);
}

struct etw_etl *etl_view_new(const struct etw_etl_header *hdr)
{
	struct etw_etl *etl = calloc(1, sizeof(*etl));

	if (!etl)
		return NULL;
	etl->bufs = calloc(1, sizeof(*etl->bufs));
	if (!etl->bufs) {
		free(etl);
		return NULL;
	}
	etl->bufs_cap = 1;
	etl->hdr = *hdr;
	etl->hdr.logger_name = "";
	etl->hdr.log_file_name = "";
	return etl;
}

int etl_view_set(struct etw_etl *etl, const void *buf, uint32_t size,
		 struct etw_etl_error *err)
{
	int ret;

	etl->data = buf;
	etl->size = size;
	etl->nbufs = 0;
	memset(&etl->err, 0, sizeof(etl->err));
	ret = load_buffer(etl, 0, &etl->bufs[0], err);
	/* Windows compresses buffers for files only. */
	if (!ret && (etl->bufs[0].flags & ETW_ETL_BUFFER_FLAG_COMPRESSED))
		ret = etl_error(err, -EBADMSG, 0, "corrupt buffer",
				"a real-time buffer has the compressed flag");
	if (!ret)
		etl->nbufs = 1;
	return ret;
}

ETW_EXPORT const struct etw_etl_header *
etw_etl_get_header(const struct etw_etl *etl)
{
	return &etl->hdr;
}

ETW_EXPORT int etw_etl_get_buffer(const struct etw_etl *etl, uint32_t index,
				  struct etw_etl_buffer *buf)
{
	if (index >= etl->nbufs)
		return -ENOENT;
	*buf = etl->bufs[index];
	return 0;
}
