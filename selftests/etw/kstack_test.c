// SPDX-License-Identifier: GPL-2.0
/*
 * The kernel logger's samples and scheduling events, in the VM:
 *
 * - PROFILE with stacks on SampledProfile: a busy loop in a known
 *   function collects samples of this thread, each followed in the same
 *   CPU's buffer by its StackWalk with the sample's timestamp, whose
 *   frames contain an address inside the function (its size from the
 *   dynamic symbol table, the test is linked -rdynamic) and, the test
 *   being built with frame pointers, its caller; CollectionStart carries
 *   the interval set and, version 3, the source (0) named "Timer", which
 *   is where readers take the samples' source and rate; `etw report` and `etw dump` of the file name the
 *   function.
 * - CSWITCH and DISPATCHER: a child that sleeps 100 times is switched
 *   out exactly as often as /proc/PID/status counts (voluntary and not),
 *   read while it is a zombie, unless the session lost events (then the
 *   records and the losses add up to at least the count); it is readied
 *   at least 100 times.
 * - DISK_IO and DISK_IO_INIT: 1 MiB written and read back with O_DIRECT
 *   on the VM's disk gives Write and Read completions of at least that
 *   many bytes with the disk's device number, some with a response time
 *   and issuing thread, and each of those has its Init with the same
 *   Irp and thread.
 * - The kernel log stays clean (the VM's scan checks it).
 */
#include <dlfcn.h>
#include <fcntl.h>
#include <link.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <etw_etl_writer.h>

#include "kselftest_harness.h"
#include "etw_selftests.h"

#define HOOK_SAMPLED_PROFILE	0x0f2e
#define HOOK_COLLECTION_START	0x0f49
#define HOOK_STACK_WALK		0x1820
#define HOOK_CSWITCH		0x0524
#define HOOK_READY_THREAD	0x0532
#define HOOK_DISK_READ		0x010a
#define HOOK_DISK_WRITE		0x010b
#define HOOK_DISK_READ_INIT	0x010c
#define HOOK_DISK_WRITE_INIT	0x010d

/* PerfInfo's class GUID {ce1dbfb4-137e-4da6-87b0-3f59aa102cbc}. */
static const __u8 perfinfo_guid[16] = {
	0xb4, 0xbf, 0x1d, 0xce, 0x7e, 0x13, 0xa6, 0x4d,
	0x87, 0xb0, 0x3f, 0x59, 0xaa, 0x10, 0x2c, 0xbc,
};

#define BUF_KB		64
#define MAX_BUFFERS	128
#define INTERVAL	10000		/* 1 ms in 100 ns units */

/* The function the samples must land in; its caller, with a frame. */
__attribute__((noinline)) unsigned long kstack_busy_loop(double seconds);
__attribute__((noinline)) unsigned long kstack_busy_loop(double seconds)
{
	struct timespec ts;
	volatile unsigned long n = 0;
	double end;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	end = ts.tv_sec + ts.tv_nsec / 1e9 + seconds;
	do {
		for (int i = 0; i < 100000; i++)
			n += i;
		clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	} while (ts.tv_sec + ts.tv_nsec / 1e9 < end);
	return n;
}

__attribute__((noinline)) unsigned long kstack_busy_caller(double seconds);
__attribute__((noinline)) unsigned long kstack_busy_caller(double seconds)
{
	return kstack_busy_loop(seconds) + 1;
}

/* A function's [start, end) from the dynamic symbol table. */
static int symbol_range(void *fn, __u64 *start, __u64 *end)
{
	const ElfW(Sym) *sym = NULL;
	Dl_info info;

	if (!dladdr1(fn, &info, (void **)&sym, RTLD_DL_SYMENT) || !sym ||
	    !sym->st_size)
		return -1;
	*start = (__u64)(uintptr_t)info.dli_saddr;
	*end = *start + sym->st_size;
	return 0;
}

static int start_system_logger(int fd, __u32 flags, __u32 *id)
{
	struct etw_session_start st = { .size = sizeof(st) };
	int ret;

	snprintf(st.info.name, sizeof(st.info.name), "kstack-test");
	st.info.log_file_mode = ETW_MODE_SYSTEM_LOGGER;
	st.info.buffer_size_kb = BUF_KB;
	st.info.max_buffers = MAX_BUFFERS;
	st.info.enable_flags = flags;
	ret = etw_ioctl_err(fd, ETW_IOC_SESSION_START, &st);
	if (!ret)
		*id = st.info.logger_id;
	return ret;
}

static int trace_set_info(int fd, __u32 id, __u32 cls, const void *data,
			  __u32 len)
{
	struct etw_trace_info ti = { .size = sizeof(ti) };

	ti.logger_id = id;
	ti.info_class = cls;
	ti.data = (uintptr_t)data;
	ti.length = len;
	return etw_ioctl_err(fd, ETW_IOC_TRACE_SET_INFO, &ti);
}

/* One kernel record, as read from a buffer. */
struct krec {
	__u16 hook;
	__u16 version;
	__u8 header_type;
	__u16 size;
	__u32 cpu;
	__u64 timestamp;
	const __u8 *payload;
	__u32 payload_size;
};

typedef void (*krec_fn)(const struct krec *r, void *ctx);

/*
 * Flush the session, read every ready buffer and call @fn for each kernel
 * record; with @etl, also write the buffers to that ETL file.  Returns
 * the records, or -errno; *@lost: the session's EventsLost after the
 * flush.  (A stopped session without a consumer is gone at once, so the
 * records written at stop, CollectionEnd among them, are not read here.)
 */
static long drain_kernel(int fd, __u32 id, krec_fn fn, void *ctx,
			 const char *etl, __u32 *lost)
{
	static __u8 buf[BUF_KB * 1024];
	struct etw_etl_writer *w = NULL;
	struct etw_session_info info;
	long records = 0;
	int ret;

	ret = etw_session_ctl(fd, id, ETW_CONTROL_FLUSH, NULL);
	if (!ret)
		ret = etw_session_ctl(fd, id, ETW_CONTROL_QUERY, &info);
	if (!ret && etl)
		ret = etw_etl_writer_open(&w, etl, &info);
	if (ret)
		return ret;
	*lost = info.events_lost;
	for (;;) {
		__u32 cpu, saved, off;

		ret = etw_take_buffer(fd, id, buf, sizeof(buf), &cpu);
		if (ret == -EAGAIN)
			break;
		if (ret)
			goto out;
		if (w && etw_etl_writer_buffer(w, buf)) {
			ret = -EIO;
			goto out;
		}
		memcpy(&saved, buf + 4, 4);
		for (off = ETW_BUFFER_HEADER_SIZE; off + 8 <= saved;) {
			struct krec r = { .cpu = cpu };
			__u32 hsize;

			r.header_type = buf[off + 2];
			hsize = r.header_type == 0x11 ? 0x10 :
				r.header_type == 0x02 ? 0x20 :
				r.header_type == 0x04 ? 0x18 : 0;
			/*
			 * Kernel headers have the size at 4 and the hook at 6;
			 * the others (a classic FULL_HEADER's ImageID, an
			 * EVENT_HEADER) their size first.
			 */
			memcpy(&r.size, buf + off + (hsize ? 4 : 0), 2);
			memcpy(&r.hook, buf + off + 6, 2);
			if (r.size < 8 || off + r.size > saved) {
				ret = -EPROTO;
				goto out;
			}
			/* Other header families (EVENT_HEADER...) are skipped. */
			if (hsize && buf[off + 3] == 0xc0 && r.size >= hsize) {
				memcpy(&r.version, buf + off, 2);
				memcpy(&r.timestamp, buf + off + (hsize == 0x10 ? 8 : 16), 8);
				r.payload = buf + off + hsize;
				r.payload_size = r.size - hsize;
				fn(&r, ctx);
				records++;
			}
			off += (r.size + 7) & ~7u;
		}
	}
	ret = 0;
out:
	if (w)
		etw_etl_writer_close(w, &info);
	return ret ? ret : records;
}

/* CollectionStart's SourceName, UTF-16LE with its NUL. */
static const __u8 timer_utf16[] = { 'T', 0, 'i', 0, 'm', 0, 'e', 0, 'r', 0, 0, 0 };

/* What the profile test finds. */
struct profile_seen {
	__u32 tid;
	__u64 fn_start, fn_end, caller_start, caller_end;
	long samples;		/* of this thread */
	long samples_in_fn;	/* ... whose IP is in the function */
	long samples_later;	/* ... after the first stack of their CPU */
	long stacks;		/* StackWalks that follow one of them */
	long stacks_with_fn;	/* ... holding a frame in the function */
	long stacks_with_caller;
	long stacks_misplaced;	/* another CPU's or time than their sample */
	long collection_start;
	__u32 source_start, interval_start;
	__u16 version_start;
	bool named_timer;
	/* The last sample of each CPU: its stack must come next. */
	__u64 last_ts[64];
	__u32 last_tid[64];
	/*
	 * A stack seen on the CPU: stacks are on from there.  Per CPU, since
	 * the CPUs' buffers come one after another, not in time order.
	 */
	bool cpu_stacks[64];
};

static void profile_fn(const struct krec *r, void *ctx)
{
	struct profile_seen *s = ctx;
	__u32 cpu = r->cpu % 64;

	if (r->hook == HOOK_SAMPLED_PROFILE && r->payload_size >= 16) {
		__u64 ip;
		__u32 tid;

		memcpy(&ip, r->payload, 8);
		memcpy(&tid, r->payload + 8, 4);
		s->last_ts[cpu] = r->timestamp;
		s->last_tid[cpu] = tid;
		if (tid != s->tid)
			return;
		s->samples++;
		s->samples_in_fn += ip >= s->fn_start && ip < s->fn_end;
		s->samples_later += s->cpu_stacks[cpu];
	} else if (r->hook == HOOK_STACK_WALK && r->payload_size >= 16) {
		__u64 ts, f;
		__u32 tid;
		bool fn = false, caller = false;

		memcpy(&ts, r->payload, 8);
		memcpy(&tid, r->payload + 12, 4);
		s->cpu_stacks[cpu] = true;
		if (tid != s->tid)
			return;
		if (ts != r->timestamp || ts != s->last_ts[cpu] ||
		    tid != s->last_tid[cpu]) {
			s->stacks_misplaced++;
			return;
		}
		s->stacks++;
		for (__u32 i = 16; i + 8 <= r->payload_size; i += 8) {
			memcpy(&f, r->payload + i, 8);
			fn |= f >= s->fn_start && f < s->fn_end;
			caller |= f >= s->caller_start && f < s->caller_end;
		}
		s->stacks_with_fn += fn;
		s->stacks_with_caller += caller;
	} else if (r->hook == HOOK_COLLECTION_START && r->payload_size >= 12) {
		s->collection_start++;
		memcpy(&s->source_start, r->payload, 4);
		memcpy(&s->interval_start, r->payload + 4, 4);
		s->version_start = r->version;
		/* Version 3 names the source, as readers show it: "Timer". */
		s->named_timer = r->payload_size == 12 + sizeof(timer_utf16) &&
			!memcmp(r->payload + 12, timer_utf16, sizeof(timer_utf16));
	}
}

FIXTURE(kstack) {
	int fd;
	__u32 id;
	bool started;
};

FIXTURE_SETUP(kstack)
{
	etw_require_root(_metadata);
	self->fd = etw_open_or_skip(_metadata);
	self->started = false;
}

FIXTURE_TEARDOWN(kstack)
{
	if (self->started)
		etw_session_ctl(self->fd, self->id, ETW_CONTROL_STOP, NULL);
	close(self->fd);
}

TEST_F(kstack, samples_with_stacks_in_the_busy_function)
{
	__u8 ids[ETW_CLASSIC_EVENT_ID_SIZE] = { 0 };
	__u32 iv[2] = { 0, INTERVAL }, no_flags = 0;
	static struct profile_seen s;
	char out[16384], cmd[256];
	const char *etl = "/tmp/kstack-profile.etl";
	__u32 lost = 0;
	long n;

	memset(&s, 0, sizeof(s));
	s.tid = syscall(SYS_gettid);
	ASSERT_EQ(0, symbol_range(kstack_busy_loop, &s.fn_start, &s.fn_end));
	ASSERT_EQ(0, symbol_range(kstack_busy_caller, &s.caller_start,
				  &s.caller_end));
	ASSERT_EQ(0, trace_set_info(self->fd, 0, ETW_TRACE_PROFILE_INTERVAL_INFO,
				    iv, sizeof(iv)));
	ASSERT_EQ(0, start_system_logger(self->fd, ETW_KFLAG_PROFILE |
					 ETW_KFLAG_PROCESS | ETW_KFLAG_THREAD |
					 ETW_KFLAG_IMAGE_LOAD, &self->id));
	self->started = true;
	memcpy(ids, perfinfo_guid, 16);
	ids[16] = 46;		/* SampledProfile */
	ASSERT_EQ(0, trace_set_info(self->fd, self->id,
				    ETW_TRACE_STACK_TRACING_INFO, ids, sizeof(ids)));
	kstack_busy_caller(1.0);
	/* Sampling off before the drain, which would be sampled too. */
	ASSERT_EQ(0, trace_set_info(self->fd, self->id, ETW_TRACE_ENABLE_FLAGS_INFO,
				    &no_flags, sizeof(no_flags)));
	n = drain_kernel(self->fd, self->id, profile_fn, &s, etl, &lost);
	ASSERT_LT(0, n);
	TH_LOG("samples %ld (in the function %ld), stacks %ld (with it %ld, with its caller %ld), lost %u",
	       s.samples, s.samples_in_fn, s.stacks, s.stacks_with_fn,
	       s.stacks_with_caller, lost);
	/*
	 * 1 s of CPU at 1 kHz, but the emulated timer and CPU clocks drift
	 * apart on a loaded host (a third of the samples was seen): 100.
	 */
	EXPECT_LE(100, s.samples + lost);
	EXPECT_LE(s.samples / 2, s.samples_in_fn);
	EXPECT_EQ(0, s.stacks_misplaced);
	/*
	 * Every sample of the thread has its stack, unless lost, from the
	 * first one on: those taken before TraceSetInformation asked for
	 * stacks (during the session's rundown) have none.
	 */
	EXPECT_LE(s.samples_later + 1, s.stacks + lost);
	EXPECT_LE(s.samples_in_fn, s.stacks_with_fn + lost);
	/* Frame pointers: the caller is found from the function. */
	EXPECT_LE(s.stacks_with_fn / 2, s.stacks_with_caller);
	EXPECT_EQ(1, s.collection_start);
	EXPECT_EQ(INTERVAL, s.interval_start);
	EXPECT_EQ(0, s.source_start);
	EXPECT_EQ(3, s.version_start);
	EXPECT_TRUE(s.named_timer);

	/* The tool names the function from the trace's image events. */
	snprintf(cmd, sizeof(cmd), "etw report --top 3 %s", etl);
	ASSERT_EQ(0, etw_sh(cmd, out, sizeof(out)));
	EXPECT_NE(NULL, strstr(out, "kstack_busy_loop+0x")) TH_LOG("%s", out);
	EXPECT_NE(NULL, strstr(out, "kstack_busy_caller+0x")) TH_LOG("%s", out);
	snprintf(cmd, sizeof(cmd), "etw dump %s | grep -m1 'Frames: kstack_busy_loop+0x'",
		 etl);
	EXPECT_EQ(0, etw_sh(cmd, out, sizeof(out))) TH_LOG("%s", out);
	unlink(etl);
}

/* What the scheduling test finds about one thread. */
struct sched_seen {
	__u32 tid;
	long switched_out, switched_in, readied;
	long bad_size;
};

static void sched_fn(const struct krec *r, void *ctx)
{
	struct sched_seen *s = ctx;
	__u32 new_tid, old_tid;

	if (r->hook == HOOK_CSWITCH) {
		if (r->payload_size != 24) {
			s->bad_size++;
			return;
		}
		memcpy(&new_tid, r->payload, 4);
		memcpy(&old_tid, r->payload + 4, 4);
		s->switched_out += old_tid == s->tid;
		s->switched_in += new_tid == s->tid;
	} else if (r->hook == HOOK_READY_THREAD) {
		if (r->payload_size != 8) {
			s->bad_size++;
			return;
		}
		memcpy(&new_tid, r->payload, 4);
		s->readied += new_tid == s->tid;
	}
}

/* voluntary_ctxt_switches + nonvoluntary_ctxt_switches of @pid. */
static long proc_switches(pid_t pid)
{
	char path[64], line[256];
	long v, total = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/status", pid);
	f = fopen(path, "r");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "voluntary_ctxt_switches: %ld", &v) == 1 ||
		    sscanf(line, "nonvoluntary_ctxt_switches: %ld", &v) == 1)
			total += v;
	fclose(f);
	return total;
}

TEST_F(kstack, cswitch_records_pair_with_proc_counts)
{
	const char *etl = "/tmp/kstack-sched.etl";
	static struct sched_seen s;
	char cmd[256], out[512];
	double run, ready, wait, longest;
	long switches;
	siginfo_t si;
	long proc;
	__u32 lost = 0;
	pid_t pid;

	memset(&s, 0, sizeof(s));
	ASSERT_EQ(0, start_system_logger(self->fd, ETW_KFLAG_CSWITCH |
					 ETW_KFLAG_DISPATCHER, &self->id));
	self->started = true;
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		for (int i = 0; i < 100; i++)
			usleep(1000);
		_exit(0);
	}
	/*
	 * A zombie's parent is woken before its last switch (exit_notify()
	 * comes before do_task_dead()): its counts are final once they stop
	 * changing.
	 */
	ASSERT_EQ(0, waitid(P_PID, pid, &si, WEXITED | WNOWAIT));
	proc = proc_switches(pid);
	for (int same = 0, i = 0; same < 3 && i < 200; i++) {
		long now;

		usleep(20000);
		now = proc_switches(pid);
		same = now == proc ? same + 1 : 0;
		proc = now;
	}
	s.tid = pid;
	ASSERT_LE(0, drain_kernel(self->fd, self->id, sched_fn, &s, etl, &lost));
	waitpid(pid, NULL, 0);
	TH_LOG("/proc: %ld switches; CSwitch out %ld in %ld, ReadyThread %ld, lost %u",
	       proc, s.switched_out, s.switched_in, s.readied, lost);
	EXPECT_EQ(0, s.bad_size);
	EXPECT_LE(100, proc);
	if (!lost) {
		EXPECT_EQ(proc, s.switched_out);
	} else {
		EXPECT_GE(proc, s.switched_out);
		EXPECT_LE(proc, s.switched_out + (long)lost);
	}
	/* Switched in once more than out at most (its first run). */
	EXPECT_LE(s.switched_out, s.switched_in + (long)lost);
	EXPECT_LE(100, s.readied + (long)lost);

	/*
	 * etw report --sched: the child switched in as often as the records
	 * say, and waited at least its 100 sleeps of 1 ms (the last one
	 * readied before its exit may be cut: 99).
	 */
	snprintf(cmd, sizeof(cmd), "etw report --sched --top 100000 %s | grep ' tid %d$'",
		 etl, pid);
	ASSERT_EQ(0, etw_sh(cmd, out, sizeof(out))) TH_LOG("%s", out);
	ASSERT_EQ(5, sscanf(out, "%lf %lf %lf %ld %lf", &run, &ready, &wait,
			    &switches, &longest)) TH_LOG("%s", out);
	TH_LOG("report: %s", out);
	if (!lost)
		EXPECT_EQ(s.switched_in, switches);
	EXPECT_LE(99.0, wait);
	EXPECT_LE(1.0, longest);
	unlink(etl);
}

/* What the disk test finds: Init events and completions on one disk. */
#define DISK_MAX	8192

struct disk_seen {
	__u32 disk;		/* DiskNumber: st_dev of the file system */
	long inits;
	__u64 init_irp[DISK_MAX];
	__u32 init_tid[DISK_MAX];
	long done;
	__u64 done_irp[DISK_MAX];
	__u32 done_tid[DISK_MAX];
	__u64 read_bytes, write_bytes;
	long other_disk, bad_size, timed;
};

static void disk_fn(const struct krec *r, void *ctx)
{
	struct disk_seen *s = ctx;
	__u32 disk, size, tid;
	__u64 irp, response;

	if (r->hook == HOOK_DISK_READ_INIT || r->hook == HOOK_DISK_WRITE_INIT) {
		if (r->payload_size != 12) {
			s->bad_size++;
			return;
		}
		if (s->inits < DISK_MAX) {
			memcpy(&s->init_irp[s->inits], r->payload, 8);
			memcpy(&s->init_tid[s->inits], r->payload + 8, 4);
			s->inits++;
		}
	} else if (r->hook == HOOK_DISK_READ || r->hook == HOOK_DISK_WRITE) {
		if (r->payload_size != 52) {
			s->bad_size++;
			return;
		}
		memcpy(&disk, r->payload, 4);
		memcpy(&size, r->payload + 8, 4);
		memcpy(&irp, r->payload + 32, 8);
		memcpy(&response, r->payload + 40, 8);
		memcpy(&tid, r->payload + 48, 4);
		if (disk != s->disk) {
			s->other_disk++;
			return;
		}
		if (r->hook == HOOK_DISK_READ)
			s->read_bytes += size;
		else
			s->write_bytes += size;
		s->timed += response > 0 && tid;
		if (s->done < DISK_MAX) {
			s->done_irp[s->done] = irp;
			s->done_tid[s->done] = tid;
			s->done++;
		}
	}
}

TEST_F(kstack, disk_requests_issued_and_completed)
{
	const char *path = "/mnt/disk/kstack-disk";
	static struct disk_seen s;
	const size_t chunk = 256 * 1024;
	__u32 lost = 0;
	long unmatched = 0;
	struct stat st;
	void *buf;
	int fd;

	if (access("/mnt/disk/lost+found", F_OK))
		SKIP(return, "needs the VM's disk on /mnt/disk");
	memset(&s, 0, sizeof(s));
	ASSERT_EQ(0, stat("/mnt/disk", &st));
	s.disk = (__u32)st.st_dev;
	ASSERT_EQ(0, posix_memalign(&buf, 4096, chunk));
	memset(buf, 0x5a, chunk);
	ASSERT_EQ(0, start_system_logger(self->fd, ETW_KFLAG_DISK_IO |
					 ETW_KFLAG_DISK_IO_INIT, &self->id));
	self->started = true;
	/* O_DIRECT: each write and read is block requests, not the cache. */
	fd = open(path, O_CREAT | O_TRUNC | O_RDWR | O_DIRECT, 0600);
	ASSERT_LE(0, fd);
	for (int i = 0; i < 4; i++)
		ASSERT_EQ((ssize_t)chunk, pwrite(fd, buf, chunk, i * chunk));
	ASSERT_EQ(0, fsync(fd));
	for (int i = 0; i < 4; i++)
		ASSERT_EQ((ssize_t)chunk, pread(fd, buf, chunk, i * chunk));
	close(fd);
	unlink(path);
	free(buf);
	ASSERT_LE(0, drain_kernel(self->fd, self->id, disk_fn, &s, NULL, &lost));
	TH_LOG("disk %#x: %ld inits, %ld completions (%llu B read, %llu B written, %ld timed), %ld on other disks, lost %u",
	       s.disk, s.inits, s.done, (unsigned long long)s.read_bytes,
	       (unsigned long long)s.write_bytes, s.timed, s.other_disk, lost);
	EXPECT_EQ(0, s.bad_size);
	EXPECT_LE(4 * chunk, s.write_bytes + lost * chunk);
	EXPECT_LE(4 * chunk, s.read_bytes + lost * chunk);
	EXPECT_LT(0, s.timed);
	/* A completion that knows its issuing thread had its Init, same Irp. */
	for (long i = 0; i < s.done; i++) {
		bool found = false;

		if (!s.done_tid[i])
			continue;
		for (long j = 0; j < s.inits && !found; j++)
			found = s.init_irp[j] == s.done_irp[i] &&
				s.init_tid[j] == s.done_tid[i];
		unmatched += !found;
	}
	EXPECT_EQ(0, unmatched);
}

TEST_HARNESS_MAIN
