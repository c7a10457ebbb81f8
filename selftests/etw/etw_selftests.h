/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers shared by the etw selftests.
 */
#ifndef ETW_SELFTESTS_H
#define ETW_SELFTESTS_H

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <linux/etw.h>

#define ETW_DEV "/dev/" ETW_DEVICE_NAME

/*
 * Open /dev/etw.  Inside the VM (ETW_MODULE set by its init) the module
 * must be loaded, so a missing device is a failure; elsewhere it is a skip.
 * Returns the fd, or -1 after having marked the test skipped.
 */
#define etw_open_or_skip(_metadata)					\
	({								\
		int __fd = open(ETW_DEV, O_RDWR | O_CLOEXEC);		\
		if (__fd < 0 && !getenv("ETW_MODULE"))			\
			SKIP(return, "%s: %s (etw.ko not loaded)",	\
			     ETW_DEV, strerror(errno));			\
		ASSERT_LE(0, __fd) TH_LOG("open %s: %s", ETW_DEV,	\
					  strerror(errno));		\
		__fd;							\
	})

/* ioctl() returning -errno, so tests can compare with one EXPECT. */
static inline int etw_ioctl_err(int fd, unsigned long cmd, void *arg)
{
	return ioctl(fd, cmd, arg) < 0 ? -errno : 0;
}

#include <dirent.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>

/* A fixed test GUID; the last byte distinguishes providers. */
static inline void etw_test_guid(__u8 g[16], __u8 n)
{
	static const __u8 base[16] = {
		0x38, 0x4c, 0x86, 0xb3, 0x73, 0x42, 0xc5, 0x58,
		0x54, 0x5b, 0x8b, 0x36, 0x08, 0x34, 0x34, 0x00,
	};

	memcpy(g, base, 16);
	g[15] = n;
}

static inline int etw_session_start_simple(int fd, const char *name, __u32 mode,
					   __u32 buffer_kb, __u32 max_buffers,
					   __u32 *logger_id)
{
	struct etw_session_start st = { .size = sizeof(st) };
	int ret;

	snprintf(st.info.name, sizeof(st.info.name), "%s", name);
	st.info.log_file_mode = mode;
	st.info.buffer_size_kb = buffer_kb;
	st.info.max_buffers = max_buffers;
	ret = etw_ioctl_err(fd, ETW_IOC_SESSION_START, &st);
	if (!ret && logger_id)
		*logger_id = st.info.logger_id;
	return ret;
}

static inline int etw_session_ctl(int fd, __u32 logger_id, __u32 code,
				  struct etw_session_info *info)
{
	struct etw_session_control c = { .size = sizeof(c) };
	int ret;

	c.code = code;
	c.logger_id = logger_id;
	ret = etw_ioctl_err(fd, ETW_IOC_SESSION_CONTROL, &c);
	if (!ret && info)
		*info = c.info;
	return ret;
}

static inline int etw_enable_simple(int fd, __u32 logger_id, const __u8 guid[16],
				    __u32 code, __u8 level, __u64 any, __u64 all,
				    __u32 property)
{
	struct etw_enable e = { .size = sizeof(e) };

	e.logger_id = logger_id;
	e.control_code = code;
	memcpy(e.guid, guid, 16);
	e.level = level;
	e.match_any = any;
	e.match_all = all;
	e.enable_property = property;
	return etw_ioctl_err(fd, ETW_IOC_ENABLE, &e);
}

static inline int etw_register_simple(int fd, const __u8 guid[16], __u32 *reg_id)
{
	struct etw_provider_register r = { .size = sizeof(r) };
	int ret;

	memcpy(r.guid, guid, 16);
	ret = etw_ioctl_err(fd, ETW_IOC_PROVIDER_REGISTER, &r);
	if (!ret)
		*reg_id = r.reg_id;
	return ret;
}

/* EventSetInformation's ioctl for registration @reg: 0 or -errno. */
static inline int etw_set_info(int fd, __u32 reg, __u32 cls, const void *data,
			       __u32 len)
{
	struct etw_provider_set_info si = { .size = sizeof(si) };

	si.reg_id = reg;
	si.info_class = cls;
	si.data = (uintptr_t)data;
	si.length = len;
	return etw_ioctl_err(fd, ETW_IOC_PROVIDER_SET_INFO, &si);
}

static inline int etw_write_simple(int fd, __u32 reg_id, __u16 id, __u8 level,
				   __u64 keyword, const void *data, __u32 len)
{
	struct etw_data_desc d = { .ptr = (uintptr_t)data, .size = len };
	struct etw_event_write w = { .size = sizeof(w), .kind = ETW_WRITE_EVENT };

	w.reg_id = reg_id;
	w.desc.id = id;
	w.desc.level = level;
	w.desc.keyword = keyword;
	w.count = len ? 1 : 0;
	w.data = len ? (uintptr_t)&d : 0;
	return etw_ioctl_err(fd, ETW_IOC_WRITE, &w);
}

/*
 * One 64-byte event @id to a test session: 1 if a session stored it, 0
 * if not (ERROR_NOT_ENOUGH_MEMORY: counted in *lost; or no session).
 */
static inline int etw_write_counted(int fd, __u32 reg, __u16 id, long *lost)
{
	struct etw_event_write w = { .size = sizeof(w), .kind = ETW_WRITE_EVENT };
	__u64 payload[8] = { id };
	struct etw_data_desc d = { .ptr = (uintptr_t)payload, .size = sizeof(payload) };

	w.reg_id = reg;
	w.desc.id = id;
	w.desc.level = 4;
	w.count = 1;
	w.data = (uintptr_t)&d;
	if (!ioctl(fd, ETW_IOC_WRITE, &w))
		return w.written;
	if (errno == ENOSPC)
		(*lost)++;
	return 0;
}

/* A thread writing events until *stop, on @cpu (-1: any), counting. */
struct etw_writer {
	int fd;
	__u32 reg;
	int cpu;
	volatile int *stop;
	long written;
	long lost;
};

static inline void *etw_writer_fn(void *arg)
{
	struct etw_writer *w = arg;
	__u16 n = 0;

	if (w->cpu >= 0) {
		cpu_set_t set;

		CPU_ZERO(&set);
		CPU_SET(w->cpu % sysconf(_SC_NPROCESSORS_ONLN), &set);
		sched_setaffinity(0, sizeof(set), &set);
	}
	while (!*w->stop)
		w->written += etw_write_counted(w->fd, w->reg, n++, &w->lost);
	return NULL;
}

/* The on-disk EVENT_HEADER, as the selftests check it. */
struct etw_test_event_header {
	__u16 size;
	__u16 header_type;
	__u16 flags;
	__u16 event_property;
	__u32 thread_id;
	__u32 process_id;
	__u64 timestamp;
	__u8 provider_id[16];
	struct etw_event_desc desc;
	__u32 kernel_time;
	__u32 user_time;
	__u8 activity_id[16];
};

/* Called for each record of each buffer; return 0 to go on. */
typedef int (*etw_record_fn)(const struct etw_test_event_header *h,
			     const __u8 *buffer, __u32 cpu, void *ctx);

/* Take the next ready buffer of the session: 0, -EAGAIN if none, -errno. */
static inline int etw_take_buffer(int fd, __u32 logger_id, void *buf,
				  __u32 len, __u32 *cpu)
{
	struct etw_buffer_read r = { .size = sizeof(r) };
	int ret;

	r.logger_id = logger_id;
	r.length = len;
	r.buf = (uintptr_t)buf;
	ret = etw_ioctl_err(fd, ETW_IOC_BUFFER_READ, &r);
	if (!ret && cpu)
		*cpu = r.cpu;
	return ret;
}

/* Called for each record of any header family; return 0 to go on. */
typedef int (*etw_raw_record_fn)(const __u8 *rec, __u16 size,
				 const __u8 *buffer, __u32 cpu, void *ctx);

/*
 * Flush the session and read every ready buffer, checking the ETL buffer
 * framing (records of at least @min_size bytes, 0xFF fill) and calling @fn
 * for each record.  Returns the number of records, or a negative errno
 * (-EPROTO for a malformed buffer).
 */
static inline long etw_drain_raw(int fd, __u32 logger_id, __u16 min_size,
				 etw_raw_record_fn fn, void *ctx)
{
	static __u8 buf[1024 * 1024];
	long records = 0;
	__u32 cpu;
	int ret;

	ret = etw_session_ctl(fd, logger_id, ETW_CONTROL_FLUSH, NULL);
	if (ret)
		return ret;
	for (;;) {
		__u32 bufsize, saved, off;

		ret = etw_take_buffer(fd, logger_id, buf, sizeof(buf), &cpu);
		if (ret == -EAGAIN)
			return records;
		if (ret)
			return ret;
		memcpy(&bufsize, buf, 4);
		memcpy(&saved, buf + 4, 4);
		if (saved < ETW_BUFFER_HEADER_SIZE || saved > bufsize || saved % 8)
			return -EPROTO;
		for (off = saved; off < bufsize; off++)
			if (buf[off] != 0xff)
				return -EPROTO;
		for (off = ETW_BUFFER_HEADER_SIZE; off < saved;) {
			__u16 size;

			memcpy(&size, buf + off, sizeof(size));
			if (size < min_size || off + size > saved)
				return -EPROTO;
			records++;
			if (fn && fn(buf + off, size, buf, cpu, ctx))
				return -ECANCELED;
			off += (size + 7) & ~7u;
		}
	}
}

struct etw_drain_ctx {
	etw_record_fn fn;
	void *ctx;
};

static inline int etw_drain_event(const __u8 *rec, __u16 size,
				  const __u8 *buffer, __u32 cpu, void *ctx)
{
	struct etw_drain_ctx *d = ctx;

	return d->fn ? d->fn((const void *)rec, buffer, cpu, d->ctx) : 0;
}

/* etw_drain_raw() of EVENT_HEADER records. */
static inline long etw_drain(int fd, __u32 logger_id, etw_record_fn fn, void *ctx)
{
	struct etw_drain_ctx d = { fn, ctx };

	return etw_drain_raw(fd, logger_id, ETW_EVENT_HEADER_SIZE,
			     etw_drain_event, &d);
}

/* Count of records per event id, for the provider @guid. */
struct etw_counts {
	__u8 guid[16];
	long by_id[256];
	long total;
};

static inline int etw_count_fn(const struct etw_test_event_header *h,
			       const __u8 *buffer, __u32 cpu, void *ctx)
{
	struct etw_counts *c = ctx;

	if (memcmp(h->provider_id, c->guid, 16))
		return 0;
	c->total++;
	c->by_id[h->desc.id & 0xff]++;
	return 0;
}

static inline long etw_count(int fd, __u32 logger_id, const __u8 guid[16],
			     struct etw_counts *c)
{
	memset(c, 0, sizeof(*c));
	memcpy(c->guid, guid, 16);
	return etw_drain(fd, logger_id, etw_count_fn, c);
}

/* Test sessions are named "etwtest-*"; stop any left behind. */
static inline void etw_stop_test_sessions(int fd)
{
	struct etw_session_info info;
	__u32 id;

	for (id = 1; id <= ETW_MAX_SESSIONS; id++)
		if (!etw_session_ctl(fd, id, ETW_CONTROL_QUERY, &info) &&
		    !strncmp(info.name, "etwtest-", 8))
			etw_session_ctl(fd, id, ETW_CONTROL_STOP, NULL);
}

/* Run a shell command; its output in @out (up to @len), exit status back. */
static inline int etw_sh(const char *cmd, char *out, size_t len)
{
	FILE *p = popen(cmd, "r");
	size_t n = 0;
	int status;

	if (!p)
		return -1;
	if (out) {
		n = fread(out, 1, len - 1, p);
		out[n] = 0;
	} else {
		char sink[256];

		while (fread(sink, 1, sizeof(sink), p) > 0)
			;
	}
	status = pclose(p);
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/*
 * How many of this process's descriptors link to @target ("/dev/etw",
 * "anon_inode:[etw-writer]").  @dir is the caller's open /proc/self/fd,
 * read again from its start: counting needs no new descriptor.
 */
static inline int etw_fds_to(DIR *dir, const char *target)
{
	char path[300], link[64];
	struct dirent *d;
	int n = 0;
	ssize_t len;

	rewinddir(dir);
	while ((d = readdir(dir)) != NULL) {
		snprintf(path, sizeof(path), "/proc/self/fd/%s", d->d_name);
		len = readlink(path, link, sizeof(link) - 1);
		if (len <= 0)
			continue;
		link[len] = 0;
		n += !strcmp(link, target);
	}
	return n;
}

/* How many descriptors this process has (@dir: as for etw_fds_to()). */
static inline int etw_fd_count(DIR *dir)
{
	struct dirent *d;
	int n = 0;

	rewinddir(dir);
	while ((d = readdir(dir)) != NULL)
		n += d->d_name[0] != '.';
	return n;
}

/*
 * @len bytes of @src alone in a page made read-only: an ioctl reads its
 * struct from there and cannot write it back.  NULL if mmap fails;
 * munmap() it with etw_read_only_free().
 */
static inline void *etw_read_only_copy(const void *src, size_t len)
{
	long page = sysconf(_SC_PAGESIZE);
	void *p = mmap(NULL, page, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		return NULL;
	memcpy(p, src, len);
	if (mprotect(p, page, PROT_READ)) {
		munmap(p, page);
		return NULL;
	}
	return p;
}

static inline void etw_read_only_free(void *p)
{
	munmap(p, sysconf(_SC_PAGESIZE));
}

/*
 * The UTF-16LE string at @p (at most @max bytes) as ASCII in @out (@room
 * bytes, always terminated; other characters as '?'): the bytes it takes
 * with its terminator, or -1 if none is within @max.
 */
static inline int etw_utf16_ascii(const void *p, size_t max, char *out,
				  size_t room)
{
	const unsigned char *b = p;
	size_t i;

	for (i = 0; 2 * i + 1 < max; i++) {
		unsigned int c = b[2 * i] | b[2 * i + 1] << 8;

		if (!c)
			break;
		if (i + 1 < room)
			out[i] = c < 0x80 ? (char)c : '?';
	}
	out[i < room ? i : room - 1] = 0;
	return 2 * i + 1 < max ? (int)(2 * i + 2) : -1;
}

/*
 * Run this thread on CPU @cpu, taken modulo the online CPUs (1 is "the
 * other CPU if there are two"): 0, or -1 with errno.
 */
static inline int etw_pin_cpu(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu % sysconf(_SC_NPROCESSORS_ONLN), &set);
	return sched_setaffinity(0, sizeof(set), &set);
}

/* Needs root in the VM; skips elsewhere. */
#define etw_require_root(_metadata)					\
	do {								\
		if (geteuid() != 0)					\
			SKIP(return, "needs root");			\
	} while (0)

/*
 * The extended items of a record (EVENT_HEADER Flags & 1), checked as
 * etl-format.md 3.7 stores them: each item's first word is its stride,
 * ALIGN(8 + DataSize, 8); Linkage is 1 on all but the last; the padding is
 * zero.  Returns the number of items (at most @max kept in @items) and the
 * payload offset in @payload_off, or -1 if the framing is wrong.
 */
struct etw_test_ext {
	__u16 type;
	__u16 size;
	const __u8 *data;
};

static inline int etw_test_ext_items(const struct etw_test_event_header *h,
				     struct etw_test_ext *items, int max,
				     __u32 *payload_off)
{
	const __u8 *rec = (const __u8 *)h;
	__u32 off = sizeof(*h);
	int n = 0;

	if (h->flags & 1) {
		for (;;) {
			__u16 stride, type, link, size;
			__u32 i;

			if (off + 8 > h->size)
				return -1;
			memcpy(&stride, rec + off, 2);
			memcpy(&type, rec + off + 2, 2);
			memcpy(&link, rec + off + 4, 2);
			memcpy(&size, rec + off + 6, 2);
			if (stride != ((8 + size + 7) & ~7u) ||
			    off + stride > h->size || link > 1)
				return -1;
			for (i = 8 + size; i < stride; i++)
				if (rec[off + i])
					return -1;
			if (n < max)
				items[n] = (struct etw_test_ext){ type, size,
								  rec + off + 8 };
			n++;
			off += stride;
			if (!link)
				break;
		}
	}
	if (payload_off)
		*payload_off = off;
	return n;
}

/* The item types (ExtType, etl-format.md 3.7) the selftests look for. */
#define EXT_RELATED	0x0001
#define EXT_SID		0x0002
#define EXT_TS_ID	0x0003
#define EXT_STACK32	0x0005
#define EXT_STACK64	0x0006
#define EXT_EVENT_KEY	0x000A
#define EXT_TRAITS	0x000C
#define EXT_START_KEY	0x000D

/* The data of the item of @type in @items, or NULL. */
static inline const struct etw_test_ext *
etw_test_ext_find(const struct etw_test_ext *items, int n, __u16 type)
{
	for (int i = 0; i < n; i++)
		if (items[i].type == type)
			return &items[i];
	return NULL;
}

#endif /* ETW_SELFTESTS_H */
