// SPDX-License-Identifier: MIT
/*
 * Private loggers: sessions inside the process (StartTrace with
 * EVENT_TRACE_PRIVATE_LOGGER_MODE), whose buffers are the process's
 * memory.  At most ETW_MAX_PRIVATE_LOGGERS per process (seed 004); they do
 * not count against the module's 64 sessions and QueryAllTraces does not
 * list them.  Their handles carry the private-logger bit (0x01000000) and
 * their index 1..4 as logger id (logger_handle.h), the start tag in bits
 * 32-63.
 *
 * The write path makes no system call and shares no cache line with other
 * processors: a writer picks its CPU's slot (sched_getcpu() reads it from
 * rseq or the vDSO), takes that slot's mutex (uncontended, an atomic
 * operation on the slot's own cache line), checks under it that the
 * logger runs, and copies the record into the slot's current buffer, an
 * ETL buffer laid out as the module's.  Which loggers want an EventWrite
 * the provider knows from its own copy of their filters (provider.c).  The
 * thread and process ids are cached, the time stamp is CLOCK_MONOTONIC in
 * ns (the vDSO), as the module's "QPC".  Processor time would take a
 * system call to read: records carry 0 there.  The one exception is a
 * full buffer: handing it to the logger thread signals a condition
 * variable, once per buffer.
 *
 * Buffers: MinimumBuffers (at least two per CPU) at start, more as needed
 * up to MaximumBuffers; a pool at its maximum with no free buffer drops
 * the event (ERROR_NOT_ENOUGH_MEMORY), a new buffer that cannot be
 * allocated too (ERROR_OUTOFMEMORY); both count the event lost and flag
 * the buffer.  EVENT_TRACE_BUFFERING_MODE reuses the oldest full buffer
 * instead: a ring in memory.
 *
 * The logger thread writes full buffers to the log file with libetw's ETL
 * writer, as the file of a kernel session is written, and hands over the
 * CPUs' partial buffers every FlushTimer seconds.  FlushTrace hands them
 * over and writes everything before it returns; StopTrace also closes the
 * file, whose header then has the final statistics.
 *
 * A writer checks the state under its CPU's mutex: StopTrace marks the
 * logger stopping, then takes every CPU's mutex in turn (to hand over the
 * last buffers), so no writer is inside afterwards and none that comes
 * later writes.  A logger's memory is a static slot whose CPU slots are
 * allocated once and kept: a stale handle finds a stopped or reused slot,
 * never freed memory.
 */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <evntcons.h>

#include "etw_etl_writer.h"
#include "../common/logger_handle.h"
#include "private_logger.h"
#include "../common/guard.h"

#define PRIV_DEFAULT_BUFFER_KB	64
#define PRIV_MAX_BUFFER_KB	1024	/* as the module, and the ETL writer */
#define PRIV_MAX_ENABLES	1024
#define PRIV_MAX_FLUSH_TIMER	86400
#define FILETIME_UNIX_OFFSET	116444736000000000ULL

/* WMI_BUFFER_HEADER fields the logger fills (etl-format.md 1.1). */
#define BUF_STATE_FLUSH		3
#define BUF_FLAG_FLUSH_MARKER	0x0001
#define BUF_FLAG_EVENTS_LOST	0x0002
#define BUF_FLAG_PROC_INDEX	0x0020

/* Record header types and markers, as the module stores them. */
#define HT_EVENT		(sizeof(void *) == 4 ? 0xc012 : 0xc013)
#define HT_FULL			(sizeof(void *) == 4 ? 0x0a : 0x14)
#define HT_INSTANCE		(sizeof(void *) == 4 ? 0x0b : 0x15)
#define MARKER_TRACE		0xc0
#define MARKER_MESSAGE		0x90
#define EXT_RELATED_ACTIVITYID	0x0001

enum priv_state { PRIV_FREE, PRIV_RUNNING, PRIV_STOPPING };

struct priv_buf {
	struct priv_buf *next;		/* on the free or ready list */
	unsigned char *data;
	uint32_t offset;		/* next record */
	uint16_t cpu;
	bool events_lost;
};

/* One CPU's writer state; writers of that CPU take its lock. */
struct priv_cpu {
	_Alignas(64) pthread_mutex_t lock;	/* a cache line of its own */
	struct priv_buf *cur;
	uint64_t events_lost;
};

struct priv_enable {
	GUID guid;
	uint64_t seq;			/* the newest wins for classic */
	UCHAR raw_level, level;		/* level 255 for a 0 */
	ULONGLONG raw_any, any, all;	/* any ~0 and all 0 for a 0 */
	ULONG property;
};

struct priv_logger {
	_Atomic int state;
	/* Allocated at the slot's first start and kept: writers lock them. */
	unsigned int ncpu;
	struct priv_cpu *cpus;

	uint32_t tag;			/* priv_init clears from here on */
	struct etw_session_info info;	/* settings; statistics on query */
	uint32_t buffer_size;

	pthread_mutex_t pool;		/* the lists and counts below */
	pthread_cond_t wake;		/* the logger thread's */
	struct priv_buf *free_list, *ready, **ready_tail;
	unsigned int nr_buffers, nr_free;
	uint64_t sequence;
	uint32_t buffers_written;
	bool thread_stop;

	pthread_mutex_t file_lock;	/* the writer */
	struct etw_etl_writer *writer;	/* NULL: buffering mode */
	bool to_file;			/* writer is set (UPDATE replaces it) */
	char *file_name;		/* its absolute name, for QUERY; priv_lock */
	pthread_t thread;
	bool has_thread;

	_Atomic unsigned int message_sequence;
	pthread_rwlock_t enables_lock;	/* writers read the enables */
	struct priv_enable *enables;
	unsigned int nr_enables;
};

static struct priv_logger loggers[ETW_MAX_PRIVATE_LOGGERS];
/* The control plane: starting, stopping, enabling. */
static pthread_mutex_t priv_lock = PTHREAD_MUTEX_INITIALIZER;
static _Atomic unsigned int global_message_sequence;
static uint64_t enable_seq;		/* priv_lock */

/* The writer's ids, cached: gettid and getpid are system calls. */
static _Thread_local pid_t cached_tid;
static pid_t cached_pid;
static pthread_once_t ids_once = PTHREAD_ONCE_INIT;

/*
 * A child of fork() has none of its parent's private loggers: their
 * logger threads are not in the child and their files are the parent's.
 * Its writes to them go nowhere, its controls find nothing, its own
 * StartTrace gets the slots afresh.  Nothing is freed (a parent's thread
 * may have been inside at the fork): the locks are made anew and the old
 * buffers left behind.
 */
static void ids_after_fork(void)
{
	unsigned int i, c;

	cached_pid = 0;
	cached_tid = 0;
	pthread_mutex_init(&priv_lock, NULL);
	for (i = 0; i < ETW_MAX_PRIVATE_LOGGERS; i++) {
		struct priv_logger *l = &loggers[i];

		atomic_store(&l->state, PRIV_FREE);
		for (c = 0; l->cpus && c < l->ncpu; c++) {
			pthread_mutex_init(&l->cpus[c].lock, NULL);
			l->cpus[c].cur = NULL;
		}
	}
	etw_provider_private_forget();
}

static void ids_init(void)
{
	pthread_atfork(NULL, NULL, ids_after_fork);
}

static uint32_t my_tid(void)
{
	if (!cached_tid)
		cached_tid = (pid_t)syscall(SYS_gettid);
	return (uint32_t)cached_tid;
}

static uint32_t my_pid(void)
{
	pid_t pid = __atomic_load_n(&cached_pid, __ATOMIC_RELAXED);

	if (!pid) {
		pid = getpid();
		__atomic_store_n(&cached_pid, pid, __ATOMIC_RELAXED);
	}
	return (uint32_t)pid;
}

/* The session clock, as the module's: CLOCK_MONOTONIC in ns. */
static uint64_t priv_clock(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

static uint64_t filetime_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return FILETIME_UNIX_OFFSET + (uint64_t)ts.tv_sec * 10000000ULL +
	       (uint64_t)ts.tv_nsec / 100;
}

static CONTROLTRACE_ID priv_handle(const struct priv_logger *l)
{
	return ETW_LOGGER_PRIVATE | (l - loggers + 1) |
	       (CONTROLTRACE_ID)l->tag << ETW_LOGGER_FLAGS_SHIFT;
}

/*
 * The running logger @h names, for a writer; NULL if none.  priv_store
 * checks again under its CPU's mutex.
 */
static struct priv_logger *priv_get(TRACELOGGER_HANDLE h)
{
	unsigned int id = etw_logger_id(h);
	struct priv_logger *l;

	if (!id || id > ETW_MAX_PRIVATE_LOGGERS)
		return NULL;
	l = &loggers[id - 1];
	return atomic_load_explicit(&l->state, memory_order_acquire) ==
	       PRIV_RUNNING ? l : NULL;
}

/* Could @h be a private logger's handle at all? */
static bool priv_handle_valid(CONTROLTRACE_ID h)
{
	return etw_logger_id(h) && etw_logger_id(h) <= ETW_MAX_PRIVATE_LOGGERS;
}

/* The running logger for a control operation on @h; priv_lock held. */
static struct priv_logger *priv_find(CONTROLTRACE_ID h)
{
	unsigned int id = etw_logger_id(h);
	uint32_t tag = (uint32_t)(h >> ETW_LOGGER_FLAGS_SHIFT);
	struct priv_logger *l;

	if (!id || id > ETW_MAX_PRIVATE_LOGGERS)
		return NULL;
	l = &loggers[id - 1];
	if (atomic_load(&l->state) != PRIV_RUNNING || (tag && tag != l->tag))
		return NULL;
	return l;
}

static struct priv_logger *priv_find_name(const char *name)
{
	unsigned int i;

	for (i = 0; i < ETW_MAX_PRIVATE_LOGGERS; i++)
		if (atomic_load(&loggers[i].state) == PRIV_RUNNING &&
		    etw_name_equal(loggers[i].info.name, name))
			return &loggers[i];
	return NULL;
}

/* Finish @b's header and fill (etl-format.md 1.1); pool lock held. */
static void priv_finish(struct priv_logger *l, struct priv_buf *b, bool final)
{
	struct {
		uint32_t buffer_size, saved_offset, current_offset;
		int32_t reference_count;
		uint64_t timestamp, sequence_number, clock;
		uint16_t processor_index, logger_id;
		uint32_t state, offset;
		uint16_t buffer_flag, buffer_type;
		uint64_t reserved[2];
	} h;

	_Static_assert(sizeof(h) == ETW_BUFFER_HEADER_SIZE, "WMI_BUFFER_HEADER");
	memset(&h, 0, sizeof(h));
	h.buffer_size = l->buffer_size;
	h.saved_offset = h.current_offset = h.offset = b->offset;
	h.timestamp = priv_clock();
	h.sequence_number = ++l->sequence;
	h.processor_index = b->cpu;
	h.logger_id = l->info.logger_id;
	h.state = BUF_STATE_FLUSH;
	h.buffer_flag = BUF_FLAG_PROC_INDEX;
	if (final)
		h.buffer_flag |= BUF_FLAG_FLUSH_MARKER;
	if (b->events_lost)
		h.buffer_flag |= BUF_FLAG_EVENTS_LOST;
	memcpy(b->data, &h, sizeof(h));
	memset(b->data + b->offset, 0xff, l->buffer_size - b->offset);
}

/* Queue a finished buffer for the logger thread; pool lock held. */
static void priv_ready(struct priv_logger *l, struct priv_buf *b, bool final)
{
	priv_finish(l, b, final);
	b->next = NULL;
	*l->ready_tail = b;
	l->ready_tail = &b->next;
	if (l->to_file)
		pthread_cond_signal(&l->wake);
}

static struct priv_buf *priv_buf_alloc(struct priv_logger *l)
{
	struct priv_buf *b = calloc(1, sizeof(*b));

	if (b && !(b->data = malloc(l->buffer_size))) {
		free(b);
		b = NULL;
	}
	return b;
}

static void priv_buf_free(struct priv_buf *b)
{
	if (b) {
		free(b->data);
		free(b);
	}
}

/*
 * A buffer to write into: a free one, a new one below MaximumBuffers, or
 * in buffering mode the oldest full one.  NULL with *err set if none.
 * Pool lock held.
 */
static struct priv_buf *priv_buf_get(struct priv_logger *l, ULONG *err)
{
	struct priv_buf *b = l->free_list;

	if (b) {
		l->free_list = b->next;
		l->nr_free--;
		return b;
	}
	if (l->nr_buffers < l->info.max_buffers) {
		b = priv_buf_alloc(l);
		if (b) {
			l->nr_buffers++;
			return b;
		}
		*err = ERROR_OUTOFMEMORY;
		return NULL;
	}
	if ((l->info.log_file_mode & EVENT_TRACE_BUFFERING_MODE) && l->ready) {
		b = l->ready;
		l->ready = b->next;
		if (!l->ready)
			l->ready_tail = &l->ready;
		return b;
	}
	*err = ERROR_NOT_ENOUGH_MEMORY;
	return NULL;
}

/* One piece of a record: the header, an item, a block of data. */
struct piece {
	const void *p;
	uint32_t len;
};

/*
 * Copy a record of @n pieces into @c's buffer, the time stamp at @ts_off
 * (-1: none to take); or count it lost.  Returns a Win32 code,
 * ERROR_INVALID_HANDLE if the logger no longer runs.
 */
static ULONG priv_store(struct priv_logger *l, unsigned int cpu,
			const struct piece *pc, unsigned int n, int ts_off)
{
	struct priv_cpu *c = &l->cpus[cpu % l->ncpu];
	unsigned char *dst;
	uint32_t len = 0, room;
	struct priv_buf *b;
	ULONG err = ERROR_SUCCESS;
	unsigned int i;
	uint64_t now;

	for (i = 0; i < n; i++)
		len += pc[i].len;
	room = (len + 7) & ~7u;

	/* Also keeps a forked child off locks its parent's threads held. */
	if (atomic_load_explicit(&l->state, memory_order_relaxed) != PRIV_RUNNING)
		return ERROR_INVALID_HANDLE;
	pthread_mutex_lock(&c->lock);
	/* Stopping takes this lock after it marks the logger: see the top. */
	if (atomic_load_explicit(&l->state, memory_order_relaxed) != PRIV_RUNNING) {
		pthread_mutex_unlock(&c->lock);
		return ERROR_INVALID_HANDLE;
	}
	if (room > l->buffer_size - ETW_BUFFER_HEADER_SIZE) {
		pthread_mutex_unlock(&c->lock);
		return ERROR_MORE_DATA;
	}
	b = c->cur;
	if (!b || b->offset + room > l->buffer_size) {
		pthread_mutex_lock(&l->pool);
		if (b)
			priv_ready(l, b, false);
		c->cur = b = priv_buf_get(l, &err);
		pthread_mutex_unlock(&l->pool);
		if (b) {
			b->cpu = (uint16_t)(c - l->cpus);
			b->offset = ETW_BUFFER_HEADER_SIZE;
			b->events_lost = false;
		}
	}
	if (!b) {
		c->events_lost++;
		pthread_mutex_unlock(&c->lock);
		return err;
	}
	/* A piece it cannot read: nothing stored, the lock given back. */
	for (i = 0, dst = b->data + b->offset; i < n; dst += pc[i++].len) {
		if (etw_guarded_copy(dst, pc[i].p, pc[i].len)) {
			pthread_mutex_unlock(&c->lock);
			return ERROR_NOACCESS;
		}
	}
	if (ts_off >= 0) {
		now = priv_clock();
		memcpy(b->data + b->offset + ts_off, &now, sizeof(now));
	}
	b->offset += room;
	pthread_mutex_unlock(&c->lock);
	return ERROR_SUCCESS;
}

/* The writer's CPU: rseq or the vDSO, no system call. */
static unsigned int my_cpu(void)
{
	int cpu = sched_getcpu();

	return cpu < 0 ? 0 : (unsigned int)cpu;
}

/* Hand over every CPU's partial buffer. */
static void priv_flush_cpus(struct priv_logger *l, bool final)
{
	unsigned int i;

	for (i = 0; i < l->ncpu; i++) {
		struct priv_cpu *c = &l->cpus[i];

		pthread_mutex_lock(&c->lock);
		if (c->cur && c->cur->offset > ETW_BUFFER_HEADER_SIZE) {
			pthread_mutex_lock(&l->pool);
			priv_ready(l, c->cur, final);
			c->cur = NULL;
			pthread_mutex_unlock(&l->pool);
		}
		pthread_mutex_unlock(&c->lock);
	}
}

/* Write the full buffers to the file and free them for reuse. */
static void priv_write_ready(struct priv_logger *l)
{
	struct priv_buf *list, *b;

	if (!l->to_file)
		return;		/* buffering mode: they stay, a ring */
	pthread_mutex_lock(&l->file_lock);
	pthread_mutex_lock(&l->pool);
	list = l->ready;
	l->ready = NULL;
	l->ready_tail = &l->ready;
	pthread_mutex_unlock(&l->pool);
	while ((b = list)) {
		list = b->next;
		if (etw_etl_writer_buffer(l->writer, b->data))
			l->info.log_buffers_lost++;
		pthread_mutex_lock(&l->pool);
		l->buffers_written++;
		b->next = l->free_list;
		l->free_list = b;
		l->nr_free++;
		pthread_mutex_unlock(&l->pool);
	}
	pthread_mutex_unlock(&l->file_lock);
}

/* The logger thread: full buffers to the file, partial ones on FlushTimer. */
static void *priv_thread(void *arg)
{
	struct priv_logger *l = arg;
	struct timespec due;
	char name[16];
	bool timed_out;
	int ret;

	snprintf(name, sizeof(name), "etw-private-%u", l->info.logger_id);
	pthread_setname_np(pthread_self(), name);

	for (;;) {
		pthread_mutex_lock(&l->pool);
		timed_out = false;
		while (!l->ready && !l->thread_stop && !timed_out) {
			if (!l->info.flush_timer) {
				pthread_cond_wait(&l->wake, &l->pool);
				continue;
			}
			clock_gettime(CLOCK_MONOTONIC, &due);
			due.tv_sec += l->info.flush_timer;
			ret = pthread_cond_timedwait(&l->wake, &l->pool, &due);
			timed_out = ret == ETIMEDOUT;
		}
		if (l->thread_stop) {
			pthread_mutex_unlock(&l->pool);
			return NULL;
		}
		pthread_mutex_unlock(&l->pool);
		if (timed_out)
			priv_flush_cpus(l, false);
		priv_write_ready(l);
	}
}

/* The statistics Windows reports, into l->info. */
static void priv_stats(struct priv_logger *l)
{
	uint64_t lost = 0;
	unsigned int i;

	for (i = 0; i < l->ncpu; i++) {
		pthread_mutex_lock(&l->cpus[i].lock);
		lost += l->cpus[i].events_lost;
		pthread_mutex_unlock(&l->cpus[i].lock);
	}
	pthread_mutex_lock(&l->pool);
	l->info.number_of_buffers = l->nr_buffers;
	l->info.free_buffers = l->nr_free;
	l->info.buffers_written = l->buffers_written;
	pthread_mutex_unlock(&l->pool);
	l->info.events_lost = lost > UINT32_MAX ? UINT32_MAX : (uint32_t)lost;
}

/* Free every buffer and the CPUs; the logger is stopped. */
static void priv_release(struct priv_logger *l)
{
	struct priv_buf *b;
	unsigned int i;

	/* The CPU slots stay for the slot's next logger (and stale writers). */
	for (i = 0; l->cpus && i < l->ncpu; i++) {
		pthread_mutex_lock(&l->cpus[i].lock);
		priv_buf_free(l->cpus[i].cur);
		l->cpus[i].cur = NULL;
		l->cpus[i].events_lost = 0;
		pthread_mutex_unlock(&l->cpus[i].lock);
	}
	while ((b = l->free_list)) {
		l->free_list = b->next;
		priv_buf_free(b);
	}
	while ((b = l->ready)) {
		l->ready = b->next;
		priv_buf_free(b);
	}
	free(l->enables);
	free(l->file_name);
	l->file_name = NULL;
	pthread_mutex_destroy(&l->pool);
	pthread_cond_destroy(&l->wake);
	pthread_mutex_destroy(&l->file_lock);
	pthread_rwlock_destroy(&l->enables_lock);
	l->enables = NULL;
	l->nr_enables = 0;
}

/* The slot's CPU slots, once: writers may lock them at any time after. */
static ULONG priv_cpus_init(struct priv_logger *l)
{
	long ncpu = sysconf(_SC_NPROCESSORS_CONF);
	struct priv_cpu *c;
	unsigned int i, n;

	if (l->cpus)
		return ERROR_SUCCESS;
	n = ncpu > 0 && ncpu < 65536 ? (unsigned int)ncpu : 1;
	c = aligned_alloc(_Alignof(struct priv_cpu), n * sizeof(*c));
	if (!c)
		return ERROR_NOT_ENOUGH_MEMORY;
	memset(c, 0, n * sizeof(*c));
	for (i = 0; i < n; i++)
		pthread_mutex_init(&c[i].lock, NULL);
	l->ncpu = n;
	l->cpus = c;
	return ERROR_SUCCESS;
}

/* @path's absolute form, allocated, as QUERY returns it; NULL: *@err. */
static char *priv_full_path(const char *path, ULONG *err)
{
	char full[ETW_MAX_LOG_FILE_NAME], *dup;

	*err = etw_props_full_path(path, full, sizeof(full));
	if (*err)
		return NULL;
	dup = strdup(full);
	if (!dup)
		*err = ERROR_NOT_ENOUGH_MEMORY;
	return dup;
}

/* Set up slot @l from the properties; priv_lock held. */
static ULONG priv_init(struct priv_logger *l, const struct etw_name *name,
		       const EVENT_TRACE_PROPERTIES *p, const char *path)
{
	struct etw_session_info *in = &l->info;
	unsigned int i;
	ULONG err;
	int ret;

	/* Not the state and the CPU slots: writers may be looking at them. */
	memset((char *)l + offsetof(struct priv_logger, tag), 0,
	       sizeof(*l) - offsetof(struct priv_logger, tag));
	if (priv_cpus_init(l))
		return ERROR_NOT_ENOUGH_MEMORY;
	strcpy(in->name, name->utf8);
	memcpy(in->guid, &p->Wnode.Guid, sizeof(in->guid));
	if (!memcmp(in->guid, &(GUID){ 0 }, sizeof(in->guid)) &&
	    getrandom(in->guid, sizeof(in->guid), 0) != sizeof(in->guid))
		return ERROR_NOT_ENOUGH_MEMORY;
	in->logger_id = (uint32_t)(l - loggers + 1);
	in->log_file_mode = p->LogFileMode;
	in->buffer_size_kb = !p->BufferSize ? PRIV_DEFAULT_BUFFER_KB :
			     p->BufferSize > PRIV_MAX_BUFFER_KB ? PRIV_MAX_BUFFER_KB :
			     p->BufferSize;
	/* As the module: two buffers per CPU at least, room to grow. */
	in->min_buffers = p->MinimumBuffers > 2 * l->ncpu ? p->MinimumBuffers :
			  2 * l->ncpu;
	in->max_buffers = p->MaximumBuffers ? p->MaximumBuffers : in->min_buffers + 20;
	if (in->max_buffers < in->min_buffers)
		in->max_buffers = in->min_buffers;
	in->flush_timer = p->FlushTimer > PRIV_MAX_FLUSH_TIMER ?
			  PRIV_MAX_FLUSH_TIMER : p->FlushTimer;
	in->clock_type = 1;
	in->frequency = 1000000000ULL;
	in->start_time = filetime_now();
	in->start_ticks = priv_clock();
	l->buffer_size = in->buffer_size_kb * 1024;
	l->ready_tail = &l->ready;
	pthread_mutex_init(&l->pool, NULL);
	pthread_mutex_init(&l->file_lock, NULL);
	{
		pthread_condattr_t ca;

		pthread_condattr_init(&ca);
		pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
		pthread_cond_init(&l->wake, &ca);
		pthread_condattr_destroy(&ca);
	}
	{
		pthread_rwlockattr_t ra;

		pthread_rwlockattr_init(&ra);
		pthread_rwlockattr_setkind_np(&ra,
			PTHREAD_RWLOCK_PREFER_WRITER_NONRECURSIVE_NP);
		pthread_rwlock_init(&l->enables_lock, &ra);
		pthread_rwlockattr_destroy(&ra);
	}
	for (i = 0; i < in->min_buffers; i++) {
		struct priv_buf *b = priv_buf_alloc(l);

		if (!b)
			return ERROR_NOT_ENOUGH_MEMORY;
		b->next = l->free_list;
		l->free_list = b;
		l->nr_buffers++;
		l->nr_free++;
	}
	if (path) {
		l->file_name = priv_full_path(path, &err);
		if (!l->file_name)
			return err;
		ret = etw_etl_writer_open(&l->writer, path, in);
		if (ret)
			return etw_file_error(ret);
		if (pthread_create(&l->thread, NULL, priv_thread, l)) {
			etw_etl_writer_close(l->writer, NULL);
			l->writer = NULL;
			unlink(path);
			return ERROR_NOT_ENOUGH_MEMORY;
		}
		l->has_thread = true;
		l->to_file = true;
	}
	do {
		if (getrandom(&l->tag, sizeof(l->tag), 0) != sizeof(l->tag))
			l->tag = (uint32_t)in->start_ticks;
	} while (!l->tag);
	return ERROR_SUCCESS;
}

ULONG etw_private_start(CONTROLTRACE_ID *TraceId, const struct etw_name *name,
			EVENT_TRACE_PROPERTIES *p, const struct etw_props *pl,
			enum etw_cs cs)
{
	struct priv_logger *l = NULL;
	char buf[4 * ETW_NAME_MAX_UNITS + 1], *path = NULL;
	ULONG err;
	unsigned int i;

	/* IN_PROC qualifies a private logger; it is not one by itself. */
	if (!(p->LogFileMode & EVENT_TRACE_PRIVATE_LOGGER_MODE))
		return ERROR_INVALID_PARAMETER;
	if (pl->file_units) {
		err = etw_props_file_name(p, pl, cs, buf, sizeof(buf));
		if (err)
			return err;
		path = buf;
	}
	pthread_once(&ids_once, ids_init);
	etw_guard_init();	/* its sigaction now, not on a write */
	pthread_mutex_lock(&priv_lock);
	err = ERROR_ALREADY_EXISTS;
	if (priv_find_name(name->utf8))
		goto out;
	for (i = 0; i < ETW_MAX_PRIVATE_LOGGERS && !l; i++)
		if (atomic_load(&loggers[i].state) == PRIV_FREE)
			l = &loggers[i];
	err = ERROR_NO_SYSTEM_RESOURCES;
	if (!l)
		goto out;
	err = priv_init(l, name, p, path);
	if (err) {
		priv_release(l);
		goto out;
	}
	priv_stats(l);
	atomic_store(&l->state, PRIV_RUNNING);
	*TraceId = priv_handle(l);
	err = etw_props_fill(p, pl, &l->info, l->file_name, cs);
	p->Wnode.HistoricalContext = *TraceId;
out:
	pthread_mutex_unlock(&priv_lock);
	return err;
}

/* The providers of this process that @l enabled: all disabled.  */
static void priv_disable_all(struct priv_logger *l)
{
	GUID *guids;
	unsigned int i, n;

	pthread_rwlock_wrlock(&l->enables_lock);
	n = l->nr_enables;
	guids = malloc((n ? n : 1) * sizeof(*guids));
	for (i = 0; guids && i < n; i++)
		guids[i] = l->enables[i].guid;
	l->nr_enables = 0;
	pthread_rwlock_unlock(&l->enables_lock);
	for (i = 0; guids && i < n; i++)
		etw_provider_private_changed(&guids[i], l->info.logger_id,
					     EVENT_CONTROL_CODE_DISABLE_PROVIDER,
					     NULL);
	free(guids);
}

/* StopTrace: no writer inside, the last buffers written, the file closed. */
static void priv_stop(struct priv_logger *l)
{
	/* Writers see it under their CPU's mutex, which the flush takes. */
	atomic_store(&l->state, PRIV_STOPPING);
	if (l->has_thread) {
		pthread_mutex_lock(&l->pool);
		l->thread_stop = true;
		pthread_cond_signal(&l->wake);
		pthread_mutex_unlock(&l->pool);
		pthread_join(l->thread, NULL);
		l->has_thread = false;
	}
	priv_flush_cpus(l, true);
	priv_write_ready(l);
	priv_stats(l);
	if (l->writer) {
		if (etw_etl_writer_close(l->writer, &l->info))
			l->info.log_buffers_lost++;
		l->writer = NULL;
	}
}

/*
 * UPDATE with a log file: what was written so far goes to the old file,
 * which is closed complete; later events go to the new one.  A logger
 * without a file (buffering mode) has no file to switch.
 */
static ULONG priv_switch_file(struct priv_logger *l,
			      const EVENT_TRACE_PROPERTIES *p,
			      const struct etw_props *pl, enum etw_cs cs)
{
	char path[4 * ETW_NAME_MAX_UNITS + 1], *full;
	struct etw_etl_writer *old, *nw;
	ULONG err;
	int ret;

	if (!l->to_file)
		return ERROR_INVALID_PARAMETER;
	err = etw_props_file_name(p, pl, cs, path, sizeof(path));
	if (err)
		return err;
	full = priv_full_path(path, &err);
	if (!full)
		return err;
	priv_stats(l);
	ret = etw_etl_writer_open(&nw, path, &l->info);
	if (ret) {
		free(full);
		return etw_file_error(ret);
	}
	free(l->file_name);
	l->file_name = full;
	priv_flush_cpus(l, false);
	priv_write_ready(l);
	pthread_mutex_lock(&l->file_lock);
	priv_stats(l);
	old = l->writer;
	l->writer = nw;
	if (etw_etl_writer_close(old, &l->info))
		l->info.log_buffers_lost++;
	pthread_mutex_unlock(&l->file_lock);
	return ERROR_SUCCESS;
}

ULONG etw_private_control(CONTROLTRACE_ID h, const char *name,
			  EVENT_TRACE_PROPERTIES *p, const struct etw_props *pl,
			  enum etw_cs cs, ULONG code, bool *found)
{
	struct etw_session_info info;
	struct priv_logger *l;
	ULONG err = ERROR_SUCCESS;

	/* As the module's handles: one that cannot be ours is a bad argument. */
	if (!name && !priv_handle_valid(h))
		return ERROR_INVALID_PARAMETER;
	pthread_mutex_lock(&priv_lock);
	l = name ? priv_find_name(name) : priv_find(h);
	if (found)
		*found = l != NULL;
	if (!l) {
		pthread_mutex_unlock(&priv_lock);
		return ERROR_WMI_INSTANCE_NOT_FOUND;
	}
	switch (code) {
	case EVENT_TRACE_CONTROL_QUERY:
		break;
	case EVENT_TRACE_CONTROL_FLUSH:
		priv_flush_cpus(l, false);
		priv_write_ready(l);
		break;
	case EVENT_TRACE_CONTROL_UPDATE:
		/* Windows lets a private logger change FlushTimer and its file. */
		if (pl->file_units) {
			err = priv_switch_file(l, p, pl, cs);
			if (err)
				break;
		}
		if (p->FlushTimer) {
			pthread_mutex_lock(&l->pool);
			l->info.flush_timer = p->FlushTimer > PRIV_MAX_FLUSH_TIMER ?
					      PRIV_MAX_FLUSH_TIMER : p->FlushTimer;
			pthread_cond_signal(&l->wake);
			pthread_mutex_unlock(&l->pool);
		}
		break;
	case EVENT_TRACE_CONTROL_STOP:
		/* Stopping: no other control operation finds it any more. */
		atomic_store(&l->state, PRIV_STOPPING);
		pthread_mutex_unlock(&priv_lock);
		priv_disable_all(l);
		pthread_mutex_lock(&priv_lock);
		priv_stop(l);
		break;
	default:
		err = ERROR_NOT_SUPPORTED;
		break;
	}
	if (!err) {
		priv_stats(l);
		info = l->info;
		err = etw_props_fill(p, pl, &info, l->file_name, cs);
		p->Wnode.HistoricalContext = priv_handle(l);
	}
	if (code == EVENT_TRACE_CONTROL_STOP) {
		priv_release(l);
		atomic_store(&l->state, PRIV_FREE);
	}
	pthread_mutex_unlock(&priv_lock);
	return err;
}

/* The enable of @guid in @l, or NULL; enables_lock held. */
static struct priv_enable *priv_enable_of(struct priv_logger *l, const GUID *guid)
{
	unsigned int i;

	for (i = 0; i < l->nr_enables; i++)
		if (!memcmp(&l->enables[i].guid, guid, sizeof(*guid)))
			return &l->enables[i];
	return NULL;
}

ULONG etw_private_enable(CONTROLTRACE_ID h, LPCGUID provider, ULONG code,
			 UCHAR level, ULONGLONG any, ULONGLONG all,
			 ULONG property, LPCGUID source)
{
	struct priv_logger *l;
	struct priv_enable *e, *grown;
	ULONG err = ERROR_SUCCESS;
	USHORT id;

	if (!priv_handle_valid(h))
		return ERROR_INVALID_PARAMETER;
	pthread_mutex_lock(&priv_lock);
	l = priv_find(h);
	if (!l) {
		pthread_mutex_unlock(&priv_lock);
		return ERROR_WMI_INSTANCE_NOT_FOUND;
	}
	id = (USHORT)l->info.logger_id;
	pthread_rwlock_wrlock(&l->enables_lock);
	e = priv_enable_of(l, provider);
	switch (code) {
	case EVENT_CONTROL_CODE_ENABLE_PROVIDER:
		if (!e) {
			if (l->nr_enables == PRIV_MAX_ENABLES) {
				err = ERROR_NO_SYSTEM_RESOURCES;
				break;
			}
			grown = realloc(l->enables,
					(l->nr_enables + 1) * sizeof(*grown));
			if (!grown) {
				err = ERROR_NOT_ENOUGH_MEMORY;
				break;
			}
			l->enables = grown;
			e = &l->enables[l->nr_enables++];
			e->guid = *provider;
		}
		e->seq = ++enable_seq;
		e->raw_level = level;
		e->level = level ? level : 255;
		e->raw_any = any;
		e->any = any ? any : ~0ULL;
		e->all = any ? all : 0;
		e->property = property;
		break;
	case EVENT_CONTROL_CODE_DISABLE_PROVIDER:
		if (e)
			*e = l->enables[--l->nr_enables];
		else
			code = ~0u;	/* nothing to tell anyone */
		break;
	default:	/* capture state: for providers it enables */
		if (!e)
			code = ~0u;
		break;
	}
	pthread_rwlock_unlock(&l->enables_lock);
	pthread_mutex_unlock(&priv_lock);
	if (!err && code != ~0u)
		etw_provider_private_changed(provider, id, code, source);
	return err;
}

void etw_private_view(const GUID *guid, struct etw_private_view *v)
{
	uint64_t newest = 0;
	unsigned int i;

	memset(v, 0, sizeof(*v));
	v->all = ~0ULL;
	v->cb_level = 255;
	for (i = 0; i < ETW_MAX_PRIVATE_LOGGERS; i++) {
		struct priv_logger *l = &loggers[i];
		struct priv_enable *e;

		if (atomic_load(&l->state) != PRIV_RUNNING)
			continue;
		pthread_rwlock_rdlock(&l->enables_lock);
		e = priv_enable_of(l, guid);
		if (e) {
			v->mask |= 1u << i;
			v->f[i].level = e->level;
			v->f[i].any = e->any;
			v->f[i].all = e->all;
			if (e->level > v->level)
				v->level = e->level;
			if (!e->raw_level)
				v->cb_level = 0;
			v->any |= e->any;
			v->all &= e->all;
			if (e->seq > newest) {
				newest = e->seq;
				v->newest = (USHORT)(i + 1);
				v->newest_level = e->raw_level;
				v->newest_any = e->raw_any;
			}
		}
		pthread_rwlock_unlock(&l->enables_lock);
	}
	if (!v->mask)
		v->all = 0;
	else if (v->cb_level)
		v->cb_level = v->level;
}

/* EVENT_HEADER as the module stores it (etl-format.md 3.6). */
struct stored_event_header {
	uint16_t size, header_type, flags, event_property;
	uint32_t thread_id, process_id;
	uint64_t timestamp;
	GUID provider;
	EVENT_DESCRIPTOR desc;
	uint64_t processor_time;
	GUID activity;
};


/* An extended item's header as stored (etl-format.md: EVENT_HEADER_EXTENDED_DATA_ITEM). */
struct stored_ext {
	uint16_t item_size, ext_type, linkage, data_size;
};

/* TraceLogging's metadata of one write (the module's etw_check_types). */
struct tl_items {
	const EVENT_DATA_DESCRIPTOR *traits, *schema, *timestamp;
};

/* At most one descriptor of each known type, an 8-byte time stamp. */
static bool tl_split(const EVENT_DATA_DESCRIPTOR *d, ULONG count,
		     struct tl_items *t)
{
	const EVENT_DATA_DESCRIPTOR **slot;
	ULONG i;

	memset(t, 0, sizeof(*t));
	for (i = 0; i < count; i++) {
		switch (d[i].Type) {
		case EVENT_DATA_DESCRIPTOR_TYPE_NONE:
			continue;
		case EVENT_DATA_DESCRIPTOR_TYPE_EVENT_METADATA:
			slot = &t->schema;
			break;
		case EVENT_DATA_DESCRIPTOR_TYPE_PROVIDER_METADATA:
			slot = &t->traits;
			break;
		case EVENT_DATA_DESCRIPTOR_TYPE_TIMESTAMP_OVERRIDE:
			if (d[i].Size != 8)
				return false;
			slot = &t->timestamp;
			break;
		default:
			return false;
		}
		if (*slot)
			return false;
		*slot = &d[i];
	}
	return true;
}

/*
 * Add an extended item of @len bytes at @data to @pc: its header (in
 * @x), the data, zeros to 8 bytes.  Returns the bytes it takes.
 */
static uint32_t ext_add(struct piece *pc, unsigned int *n, struct stored_ext *x,
			uint16_t type, const void *data, uint16_t len)
{
	static const unsigned char zeros[8];
	uint32_t size = (sizeof(*x) + len + 7) & ~7u;

	x->item_size = (uint16_t)size;
	x->ext_type = type;
	x->linkage = 1;		/* cleared on the last one */
	x->data_size = len;
	pc[(*n)++] = (struct piece){ x, sizeof(*x) };
	pc[(*n)++] = (struct piece){ data, len };
	pc[(*n)++] = (struct piece){ zeros, size - sizeof(*x) - len };
	return size;
}

/*
 * The record as the module stores it: EVENT_HEADER, the related activity
 * id, TraceLogging's PROV_TRAITS (the write's, else the registration's)
 * and EVENT_SCHEMA_TL items, the payload.  Enable properties' items are
 * the module's only.
 */
ULONG etw_private_event_write(unsigned int mask, const GUID *provider,
			      PCEVENT_DESCRIPTOR desc, LPCGUID activity,
			      LPCGUID related, ULONG count,
			      const EVENT_DATA_DESCRIPTOR *data, bool string,
			      const struct etw_private_meta *meta)
{
	struct piece stack_pc[1 + 3 * 3 + 16], *pc = stack_pc;
	struct stored_ext x[3], *last = NULL;
	struct stored_event_header h;
	struct tl_items tl = { 0 };
	EVENT_DATA_DESCRIPTOR given[ETW_MAX_DATA_DESCRIPTORS];
	GUID ids[2];
	const unsigned char *traits;
	ULONG err = ERROR_SUCCESS, e2;
	uint64_t total = sizeof(h);
	unsigned int i, n = 0, nx = 0;
	int ts_off = offsetof(struct stored_event_header, timestamp);
	bool typed = meta && __atomic_load_n(&meta->typed, __ATOMIC_RELAXED);

	_Static_assert(sizeof(h) == ETW_EVENT_HEADER_SIZE, "EVENT_HEADER");
	/* The caller's descriptors and ids, copied: unreadable, ERROR_NOACCESS. */
	if (count > ETW_MAX_DATA_DESCRIPTORS)
		return ERROR_INVALID_PARAMETER;
	err = etw_guarded_copy(given, data, count * sizeof(*data));
	if (!err && activity)
		err = etw_guarded_copy(&ids[0], activity, sizeof(ids[0]));
	if (!err && related)
		err = etw_guarded_copy(&ids[1], related, sizeof(ids[1]));
	if (err)
		return err;
	data = given;
	activity = activity ? &ids[0] : NULL;
	related = related ? &ids[1] : NULL;
	if (typed && !tl_split(data, count, &tl))
		return ERROR_INVALID_PARAMETER;
	if (count + 10 > sizeof(stack_pc) / sizeof(stack_pc[0])) {
		pc = malloc((count + 10) * sizeof(*pc));
		if (!pc)
			return ERROR_NOT_ENOUGH_MEMORY;
	}
	memset(&h, 0, sizeof(h));
	h.header_type = HT_EVENT;
	h.flags = EVENT_HEADER_FLAG_PRIVATE_SESSION;
	if (string)
		h.flags |= EVENT_HEADER_FLAG_STRING_ONLY;
	h.thread_id = my_tid();
	h.process_id = my_pid();
	h.provider = *provider;
	h.desc = *desc;
	if (activity)
		h.activity = *activity;
	pc[n++] = (struct piece){ &h, sizeof(h) };
	if (related)
		total += ext_add(pc, &n, last = &x[nx++], EXT_RELATED_ACTIVITYID,
				 related, sizeof(*related));
	traits = typed ? __atomic_load_n(&meta->traits, __ATOMIC_ACQUIRE) : NULL;
	if (tl.traits)
		total += ext_add(pc, &n, last = &x[nx++],
				 EVENT_HEADER_EXT_TYPE_PROV_TRAITS,
				 (const void *)(uintptr_t)tl.traits->Ptr,
				 (uint16_t)tl.traits->Size);
	else if (traits)
		total += ext_add(pc, &n, last = &x[nx++],
				 EVENT_HEADER_EXT_TYPE_PROV_TRAITS, traits,
				 meta->traits_len);
	if (tl.schema)
		total += ext_add(pc, &n, last = &x[nx++],
				 EVENT_HEADER_EXT_TYPE_EVENT_SCHEMA_TL,
				 (const void *)(uintptr_t)tl.schema->Ptr,
				 (uint16_t)tl.schema->Size);
	if (last) {
		last->linkage = 0;
		h.flags |= EVENT_HEADER_FLAG_EXTENDED_INFO;
	}
	if (tl.timestamp) {
		err = etw_guarded_copy(&h.timestamp,
				       (const void *)(uintptr_t)tl.timestamp->Ptr, 8);
		if (err)
			goto out;
		ts_off = -1;
	}
	for (i = 0; i < count; i++) {
		if (typed && data[i].Type)
			continue;
		pc[n++] = (struct piece){ (const void *)(uintptr_t)data[i].Ptr,
					  data[i].Size };
		total += data[i].Size;
	}
	/* The module's limits: 64 KiB a record, a buffer a session. */
	if (total > ETW_MAX_EVENT_SIZE ||
	    (tl.traits && tl.traits->Size > UINT16_MAX) ||
	    (tl.schema && tl.schema->Size > UINT16_MAX)) {
		err = ERROR_ARITHMETIC_OVERFLOW;
		goto out;
	}
	h.size = (uint16_t)total;
	for (i = 0; i < ETW_MAX_PRIVATE_LOGGERS; i++) {
		if (!(mask & (1u << i)))
			continue;
		e2 = priv_store(&loggers[i], my_cpu(), pc, n, ts_off);
		/* A logger that stopped meanwhile is not there to fail. */
		if (e2 && e2 != ERROR_INVALID_HANDLE && !err)
			err = e2;
	}
out:
	if (pc != stack_pc)
		free(pc);
	return err;
}

/* EVENT_TRACE_HEADER or EVENT_INSTANCE_GUID_HEADER as stored. */
struct stored_trace_header {
	uint16_t size;
	uint8_t header_type, marker_flags;
	uint8_t type, level;
	uint16_t version;
	uint32_t thread_id, process_id;
	uint64_t timestamp;
	GUID guid;
	uint64_t processor_time;	/* 0: reading it takes a system call */
	uint32_t instance_id, parent_instance_id;
	GUID parent_guid;
};

#define TRACE_HEADER_LEN	0x30
#define INSTANCE_HEADER_LEN	0x48

_Static_assert(offsetof(struct stored_trace_header, instance_id) == TRACE_HEADER_LEN,
	       "EVENT_TRACE_HEADER");
_Static_assert(sizeof(struct stored_trace_header) == INSTANCE_HEADER_LEN,
	       "EVENT_INSTANCE_GUID_HEADER");

/* The caller's header fields both classic headers share. */
static void trace_header(struct stored_trace_header *t, const void *given,
			 uint32_t stored_len, uint8_t type)
{
	const EVENT_TRACE_HEADER *g = given;

	memset(t, 0, sizeof(*t));
	t->header_type = type;
	t->marker_flags = MARKER_TRACE;
	t->type = g->Class.Type;
	t->level = g->Class.Level;
	t->version = g->Class.Version;
	t->thread_id = my_tid();
	t->process_id = my_pid();
	t->timestamp = g->TimeStamp.QuadPart;
	t->size = (uint16_t)stored_len;
}

/*
 * The data of a classic header of @given bytes: what follows it, or the
 * MOF_FIELD array there (at most 0x100 bytes of it).  Fills @pc after the
 * header piece; returns the data length or a negative Win32 code.
 */
static long classic_data(const void *hdr, uint16_t size, uint32_t flags,
			 uint32_t given, struct piece *pc, unsigned int *n)
{
	uint32_t rest = size - given;
	const MOF_FIELD *m = (const MOF_FIELD *)((const char *)hdr + given);
	long total = 0;
	unsigned int i;

	if (!(flags & WNODE_FLAG_USE_MOF_PTR)) {
		pc[(*n)++] = (struct piece){ (const char *)hdr + given, rest };
		return rest;
	}
	if (rest > ETW_MAX_MOF_BYTES)
		return -(long)ERROR_INVALID_DATA;
	for (i = 0; i < rest / sizeof(MOF_FIELD); i++) {
		pc[(*n)++] = (struct piece){ (const void *)(uintptr_t)m[i].DataPtr,
					     m[i].Length };
		total += m[i].Length;
	}
	return total;
}

/* Store a classic record of @n pieces, or count it lost when refused. */
static ULONG classic_store(struct priv_logger *l, unsigned int cpu,
			   struct stored_trace_header *t, struct piece *pc,
			   unsigned int n, long total, uint32_t flags)
{
	if (total < 0)
		return (ULONG)-total;
	if (total + pc[0].len > ETW_MAX_EVENT_SIZE)
		return ERROR_MORE_DATA;
	t->size = (uint16_t)(total + pc[0].len);
	return priv_store(l, cpu, pc, n,
			  flags & WNODE_FLAG_USE_TIMESTAMP ? -1 :
			  (int)offsetof(struct stored_trace_header, timestamp));
}

ULONG etw_private_trace_event(TRACELOGGER_HANDLE h, PEVENT_TRACE_HEADER ev)
{
	struct piece pc[1 + ETW_MAX_MOF_BYTES / sizeof(MOF_FIELD)];
	struct stored_trace_header t;
	struct priv_logger *l = priv_get(h);
	const EVENT_TRACE *et = (const EVENT_TRACE *)ev;
	unsigned int n = 1, cpu;
	ULONG err;
	long total;

	if (!l)
		return ERROR_INVALID_HANDLE;
	if (ev->Flags & WNODE_FLAG_NO_HEADER) {
		/* Seed 002: the whole record, header and all, from MofData. */
		if (ev->Size < sizeof(EVENT_TRACE)) {
			err = ERROR_INVALID_PARAMETER;
		} else {
			cpu = et->BufferContext.ProcessorNumber < l->ncpu ?
			      et->BufferContext.ProcessorNumber : my_cpu();
			pc[0] = (struct piece){ et->MofData, et->MofLength };
			err = priv_store(l, cpu, pc, 1, -1);
		}
		return err;
	}
	trace_header(&t, ev, 0, HT_FULL);
	if (ev->Flags & WNODE_FLAG_USE_GUID_PTR)
		memcpy(&t.guid, (const void *)(uintptr_t)ev->GuidPtr, sizeof(t.guid));
	else
		t.guid = ev->Guid;
	pc[0] = (struct piece){ &t, TRACE_HEADER_LEN };
	total = classic_data(ev, ev->Size, ev->Flags, TRACE_HEADER_LEN, pc, &n);
	err = classic_store(l, my_cpu(), &t, pc, n, total, ev->Flags);
	return err;
}

ULONG etw_private_trace_instance(TRACELOGGER_HANDLE h,
				 const EVENT_INSTANCE_HEADER *ev,
				 const GUID *guid, ULONG instance_id,
				 const GUID *parent_guid, ULONG parent_id)
{
	struct piece pc[1 + ETW_MAX_MOF_BYTES / sizeof(MOF_FIELD)];
	struct stored_trace_header t;
	struct priv_logger *l = priv_get(h);
	unsigned int n = 1;
	ULONG err;
	long total;

	if (!l)
		return ERROR_INVALID_HANDLE;
	trace_header(&t, ev, 0, HT_INSTANCE);
	t.guid = *guid;
	t.instance_id = instance_id;
	if (parent_guid) {
		t.parent_instance_id = parent_id;
		t.parent_guid = *parent_guid;
	}
	pc[0] = (struct piece){ &t, INSTANCE_HEADER_LEN };
	total = classic_data(ev, ev->Size, ev->Flags, sizeof(*ev), pc, &n);
	err = classic_store(l, my_cpu(), &t, pc, n, total, ev->Flags);
	return err;
}

ULONG etw_private_trace_message(TRACELOGGER_HANDLE h, ULONG flags,
				LPCGUID guid, USHORT number,
				const struct etw_data_desc *d, size_t count)
{
	struct piece stack_pc[17], *pc = stack_pc;
	unsigned char hdr[8 + 4 + 16 + 8 + 8], *p = hdr + 8;
	struct priv_logger *l = priv_get(h);
	uint32_t seq, ids[2];
	uint64_t total;
	int ts_off = -1;
	size_t len;
	ULONG err;
	size_t i;

	if (!l)
		return ERROR_INVALID_HANDLE;
	if (count + 1 > sizeof(stack_pc) / sizeof(stack_pc[0])) {
		pc = malloc((count + 1) * sizeof(*pc));
		if (!pc)
			return ERROR_NOT_ENOUGH_MEMORY;
	}
	flags &= ~(ULONG)(TRACE_MESSAGE_POINTER32 | TRACE_MESSAGE_POINTER64);
	flags |= sizeof(void *) == 4 ? TRACE_MESSAGE_POINTER32 : TRACE_MESSAGE_POINTER64;
	if (flags & TRACE_MESSAGE_SEQUENCE) {
		if (l->info.log_file_mode & EVENT_TRACE_USE_GLOBAL_SEQUENCE)
			seq = atomic_fetch_add(&global_message_sequence, 1) + 1;
		else if (l->info.log_file_mode & EVENT_TRACE_USE_LOCAL_SEQUENCE)
			seq = atomic_fetch_add(&l->message_sequence, 1) + 1;
		else
			seq = 0;
		memcpy(p, &seq, 4);
		p += 4;
	}
	if (flags & (TRACE_MESSAGE_COMPONENTID | TRACE_MESSAGE_GUID)) {
		len = flags & TRACE_MESSAGE_COMPONENTID ? 4 : 16;
		err = etw_guarded_copy(p, guid, len);
		if (err)
			goto out;
		p += len;
	}
	if (flags & (TRACE_MESSAGE_TIMESTAMP | TRACE_MESSAGE_PERFORMANCE_TIMESTAMP)) {
		ts_off = (int)(p - hdr);
		p += 8;
	}
	if (flags & TRACE_MESSAGE_SYSTEMINFO) {
		ids[0] = my_tid();
		ids[1] = my_pid();
		memcpy(p, ids, sizeof(ids));
		p += sizeof(ids);
	}
	total = (uint64_t)(p - hdr);
	pc[0] = (struct piece){ hdr, (uint32_t)(p - hdr) };
	for (i = 0; i < count; i++) {
		pc[i + 1] = (struct piece){ (const void *)(uintptr_t)d[i].ptr, d[i].size };
		total += d[i].size;
	}
	if (total > ETW_MAX_EVENT_SIZE) {
		err = ERROR_MORE_DATA;
	} else {
		uint16_t size = (uint16_t)total, opt = (uint16_t)flags;

		memcpy(hdr, &size, 2);
		hdr[2] = 0;
		hdr[3] = MARKER_MESSAGE;
		memcpy(hdr + 4, &number, 2);
		memcpy(hdr + 6, &opt, 2);
		err = priv_store(l, my_cpu(), pc, (unsigned int)count + 1, ts_off);
	}
out:
	if (pc != stack_pc)
		free(pc);
	return err;
}
