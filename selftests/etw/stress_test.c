// SPDX-License-Identifier: GPL-2.0
/*
 * Overload, with every event accounted for: ETW_STRESS_SESSIONS sessions
 * (default 16; make stress: 64), ETW_STRESS_PROVIDERS providers (default
 * 100; make stress: 1,000) registered by ETW_STRESS_PROCS processes
 * (default 8; make stress: 50), one writer thread per CPU in each process,
 * pinned, for ETW_STRESS_SECONDS (default 5; make stress: 180).
 * Meanwhile sessions are stopped and started again with new settings,
 * updated and flushed, and providers are enabled, re-enabled with other
 * filters and disabled, all the time.  Buffers are small and the reader
 * slow, so sessions run out of buffers and lose events.
 *
 * Afterwards, for every session that ran: events delivered + EventsLost =
 * events accepted, exactly.  "Accepted" is counted by the writers, not by
 * the kernel: each writer thread is the only one to enable its providers,
 * so it knows every filter in force when it writes, and applies the
 * routing rules (level, keywords, IGNORE_KEYWORD_0, EventWriteEx's Filter
 * bits, the PID and event-id filters) to count, per session, the events
 * the session must take.  A session is stopped only after every writer
 * has disabled its providers in it, so no write races with the count.
 * Each accepting write is also checked against the ioctl's own report
 * (sessions written + lost), and every delivered record against its
 * payload (the writer's PID, a provider of this run).
 */
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>

#include "kselftest_harness.h"
#include "etw_selftests.h"

#define MAX_SESSIONS	ETW_MAX_SESSIONS
#define MAX_THREADS	1024		/* writer threads, all processes */
#define PER_PROVIDER	ETW_MAX_SESSIONS_PER_PROVIDER

/* A session slot's life: started (ACTIVE), being stopped (DRAINING). */
enum { SLOT_IDLE, SLOT_ACTIVE, SLOT_DRAINING };

struct slot {
	atomic_uint state;
	atomic_uint epoch;		/* changes at every start */
	atomic_uint logger_id;
	atomic_uint acks;		/* writers done with this epoch */
	atomic_ulong accepted;		/* counted by the writers */
	unsigned long delivered;	/* counted by the reader (parent only) */
};

struct shared {
	struct slot slot[MAX_SESSIONS];
	atomic_int stop;
	atomic_ulong writes;
	atomic_ulong enables;
	atomic_ulong mismatches;	/* ioctl's report != writer's count */
	atomic_ulong errors;
	unsigned int writers;
	char first_error[256];
	atomic_int error_taken;
};

/* One enable this writer made: the filters in force in that session. */
struct enable {
	bool on;
	unsigned int epoch;
	__u32 logger_id;
	__u8 level;
	__u64 any, all;
	__u32 property;
	__u32 pid_count;
	__u32 pids[ETW_MAX_FILTER_PIDS];
	__u32 id_count;
	bool ids_enable;
	__u16 ids[4];
};

struct provider {
	__u8 guid[16];
	__u32 reg;
	struct enable en[MAX_SESSIONS];
	unsigned int nr_on;
};

struct writer {
	struct shared *sh;
	int fd;
	unsigned int index;		/* among all writer threads */
	unsigned int cpu;
	unsigned int nr_prov;
	struct provider *prov;
	unsigned int seen_epoch[MAX_SESSIONS];
	unsigned int acked_epoch[MAX_SESSIONS];
	uint64_t rng;
	__u64 seq;
};

/* The payload of every event: who wrote it. */
struct payload {
	__u32 magic;
	__u32 pid;
	__u32 writer;
	__u32 reserved;
	__u64 seq;
};

#define PAYLOAD_MAGIC	0x53545245	/* "ERTS" */

static uint64_t rnd(uint64_t *s)
{
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return *s * 0x2545F4914F6CDD1DULL;
}

static unsigned long env_ul(const char *name, unsigned long dflt)
{
	const char *v = getenv(name);

	return v && *v ? strtoul(v, NULL, 0) : dflt;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void fail(struct shared *sh, const char *what, long v)
{
	atomic_fetch_add(&sh->errors, 1);
	if (!atomic_exchange(&sh->error_taken, 1))
		snprintf(sh->first_error, sizeof(sh->first_error), "%s: %ld", what, v);
}

/* Provider GUIDs of this run: a fixed prefix, then writer and index. */
static void stress_guid(__u8 g[16], unsigned int writer, unsigned int i)
{
	etw_test_guid(g, 0xa5);
	g[10] = 0x5e;
	g[11] = 0x55;
	memcpy(g + 12, &writer, 2);
	g[14] = (__u8)i;
	g[15] = 0xa5;
}

static bool stress_guid_ours(const __u8 g[16])
{
	__u8 ref[16];

	stress_guid(ref, 0, 0);
	return !memcmp(g, ref, 10) && g[10] == 0x5e && g[11] == 0x55 && g[15] == 0xa5;
}

/* Seed 003's rules, applied by the writer to its own enables. */
static bool accepts(const struct enable *e, const struct etw_event_desc *d,
		    __u64 filter, __u32 pid)
{
	__u64 any = e->any ? e->any : ~0ULL, all = e->any ? e->all : 0;
	bool listed = false;
	__u32 i;

	if (d->level && e->level && d->level > e->level)
		return false;
	if (!d->keyword) {
		if (e->property & ETW_ENABLE_IGNORE_KEYWORD_0)
			return false;
	} else if (!(d->keyword & any) || (d->keyword & all) != all) {
		return false;
	}
	if (filter & (1ULL << (e->logger_id - 1)))
		return false;
	if (e->pid_count) {
		for (i = 0; i < e->pid_count && e->pids[i] != pid; i++)
			;
		if (i == e->pid_count)
			return false;
	}
	if (e->id_count) {
		for (i = 0; i < e->id_count; i++)
			listed |= e->ids[i] == d->id;
		if (listed != e->ids_enable)
			return false;
	}
	return true;
}

static int do_enable(struct writer *w, struct provider *p, unsigned int k, bool on)
{
	struct enable *e = &p->en[k];
	struct etw_enable a = { .size = sizeof(a) };
	struct enable n = { 0 };
	__u32 i;
	int ret;

	n.logger_id = atomic_load(&w->sh->slot[k].logger_id);
	n.epoch = w->seen_epoch[k];
	if (on) {
		n.on = true;
		n.level = rnd(&w->rng) % 6;
		n.any = rnd(&w->rng) % 3 ? 0 : rnd(&w->rng) & 0xff;
		n.all = rnd(&w->rng) % 3 ? 0 : rnd(&w->rng) & 0x3;
		n.property = rnd(&w->rng) % 4 ? 0 : ETW_ENABLE_IGNORE_KEYWORD_0;
		if (!(rnd(&w->rng) % 5)) {
			n.pid_count = 1 + rnd(&w->rng) % 2;
			n.pids[0] = rnd(&w->rng) % 2 ? getpid() : 1;
			n.pids[1] = getpid() + 1;
		}
		if (!(rnd(&w->rng) % 5)) {
			n.id_count = 1 + rnd(&w->rng) % 4;
			for (i = 0; i < n.id_count; i++)
				n.ids[i] = rnd(&w->rng) % 8;
			n.ids_enable = rnd(&w->rng) % 2;
		}
	}
	a.logger_id = n.logger_id;
	a.control_code = on ? ETW_CONTROL_CODE_ENABLE : ETW_CONTROL_CODE_DISABLE;
	memcpy(a.guid, p->guid, 16);
	a.level = n.level;
	a.match_any = n.any;
	a.match_all = n.all;
	a.enable_property = n.property;
	a.pid_count = n.pid_count;
	memcpy(a.pids, n.pids, sizeof(a.pids));
	a.event_id_count = n.id_count;
	a.event_ids = (uintptr_t)n.ids;
	a.event_ids_enable = n.ids_enable;
	ret = etw_ioctl_err(w->fd, ETW_IOC_ENABLE, &a);
	if (ret) {
		fail(w->sh, on ? "enable" : "disable", ret);
		return ret;
	}
	atomic_fetch_add(&w->sh->enables, 1);
	if (on && !e->on)
		p->nr_on++;
	if (!on && e->on)
		p->nr_on--;
	*e = n;
	return 0;
}

/* Follow the slots: leave the draining ones, note the new ones. */
static void follow_slots(struct writer *w, unsigned int nslots)
{
	unsigned int k, i;

	for (k = 0; k < nslots; k++) {
		struct slot *s = &w->sh->slot[k];
		unsigned int state = atomic_load(&s->state);
		unsigned int epoch = atomic_load(&s->epoch);

		if (state == SLOT_DRAINING && w->acked_epoch[k] != epoch) {
			for (i = 0; i < w->nr_prov; i++)
				if (w->prov[i].en[k].on)
					do_enable(w, &w->prov[i], k, false);
			w->acked_epoch[k] = epoch;
			w->seen_epoch[k] = 0;
			atomic_fetch_add(&s->acks, 1);
		} else if (state == SLOT_ACTIVE && w->seen_epoch[k] != epoch) {
			/* Enables of an older epoch died with their session. */
			for (i = 0; i < w->nr_prov; i++)
				if (w->prov[i].en[k].on) {
					w->prov[i].en[k].on = false;
					w->prov[i].nr_on--;
				}
			w->seen_epoch[k] = epoch;
		}
	}
}

static void write_one(struct writer *w, unsigned int nslots)
{
	static __thread __u8 big[70000];
	struct provider *p = &w->prov[rnd(&w->rng) % w->nr_prov];
	struct payload pl = { PAYLOAD_MAGIC, getpid(), w->index, 0, ++w->seq };
	struct etw_data_desc d[2];
	struct etw_event_write a = { .size = sizeof(a), .kind = ETW_WRITE_EVENT };
	unsigned int k, want = 0, r = rnd(&w->rng) % 100;
	bool accepted[MAX_SESSIONS];
	int ret;

	a.reg_id = p->reg;
	a.desc.id = rnd(&w->rng) % 8;
	a.desc.level = rnd(&w->rng) % 7;
	a.desc.keyword = rnd(&w->rng) % 4 ? rnd(&w->rng) & 0xff : 0;
	if (!(rnd(&w->rng) % 10))
		a.filter = rnd(&w->rng);
	d[0].ptr = (uintptr_t)&pl;
	d[0].size = sizeof(pl);
	d[0].type = 0;
	memset(d[0].reserved, 0, sizeof(d[0].reserved));
	d[1] = d[0];
	d[1].ptr = (uintptr_t)big;
	/* Mostly small; some large; a few larger than any session's buffer. */
	d[1].size = r < 80 ? rnd(&w->rng) % 200 : r < 99 ? rnd(&w->rng) % 3000 :
		    ETW_MAX_EVENT_SIZE - ETW_EVENT_HEADER_SIZE - sizeof(pl) - 8;
	a.data = (uintptr_t)d;
	a.count = 2;

	for (k = 0; k < nslots; k++) {
		const struct enable *e = &p->en[k];

		accepted[k] = e->on && e->epoch == w->seen_epoch[k] &&
			      accepts(e, &a.desc, a.filter, getpid());
		want += accepted[k];
	}
	ret = etw_ioctl_err(w->fd, ETW_IOC_WRITE, &a);
	if (ret && ret != -ENOSPC && ret != -EMSGSIZE) {
		fail(w->sh, "write", ret);
		return;
	}
	/* The kernel's own report, when it gives one, agrees. */
	if (!ret && a.written + a.lost != want)
		atomic_fetch_add(&w->sh->mismatches, 1);
	if (ret && !want)
		fail(w->sh, "write failed though no session accepts it", ret);
	for (k = 0; k < nslots; k++)
		if (accepted[k])
			atomic_fetch_add(&w->sh->slot[k].accepted, 1);
	atomic_fetch_add(&w->sh->writes, 1);
}

static void *writer_main(void *arg)
{
	struct writer *w = arg;
	unsigned int nslots = MAX_SESSIONS, i;
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(w->cpu, &set);
	sched_setaffinity(0, sizeof(set), &set);
	while (!atomic_load(&w->sh->stop)) {
		follow_slots(w, nslots);
		/* Often, change an enable of one of our providers. */
		if (!(rnd(&w->rng) % 4)) {
			struct provider *p = &w->prov[rnd(&w->rng) % w->nr_prov];
			unsigned int k = rnd(&w->rng) % nslots;

			if (w->seen_epoch[k] &&
			    atomic_load(&w->sh->slot[k].state) == SLOT_ACTIVE &&
			    (p->en[k].on || p->nr_on < PER_PROVIDER))
				do_enable(w, p, k, rnd(&w->rng) % 4 != 0);
		}
		for (i = 0; i < 8; i++)
			write_one(w, nslots);
	}
	return NULL;
}

/* One provider process: a writer thread per CPU, each with its providers. */
static int provider_process(struct shared *sh, unsigned int proc, unsigned int threads,
			    unsigned int per_thread, unsigned int ncpu)
{
	struct writer *w = calloc(threads, sizeof(*w));
	pthread_t *tid = calloc(threads, sizeof(*tid));
	int fd = open(ETW_DEV, O_RDWR | O_CLOEXEC);
	unsigned int t, i;

	if (!w || !tid || fd < 0)
		return 1;
	for (t = 0; t < threads; t++) {
		w[t].sh = sh;
		w[t].fd = fd;
		w[t].index = proc * threads + t;
		w[t].cpu = t % ncpu;
		w[t].nr_prov = per_thread;
		w[t].rng = 0x9e3779b97f4a7c15ULL * (w[t].index + 1);
		w[t].prov = calloc(per_thread, sizeof(struct provider));
		if (!w[t].prov)
			return 2;
		for (i = 0; i < per_thread; i++) {
			stress_guid(w[t].prov[i].guid, w[t].index, i);
			if (etw_register_simple(fd, w[t].prov[i].guid, &w[t].prov[i].reg))
				return 3;
		}
	}
	for (t = 0; t < threads; t++)
		if (pthread_create(&tid[t], NULL, writer_main, &w[t]))
			return 4;
	for (t = 0; t < threads; t++)
		pthread_join(tid[t], NULL);
	close(fd);
	return 0;
}

struct reader_ctx {
	struct shared *sh;
	unsigned long bad;
};

static int count_record(const struct etw_test_event_header *h, const __u8 *buffer,
			__u32 cpu, void *ctx)
{
	struct reader_ctx *r = ctx;
	struct payload pl;
	const __u8 *data = (const __u8 *)h + sizeof(*h);

	if (!stress_guid_ours(h->provider_id) || h->flags & 1 /* extended */ ||
	    h->size < sizeof(*h) + sizeof(pl)) {
		r->bad++;
		return 0;
	}
	memcpy(&pl, data, sizeof(pl));
	if (pl.magic != PAYLOAD_MAGIC || pl.pid != h->process_id)
		r->bad++;
	return 0;
}

/* Read what a session has ready; returns records, or -errno. */
static long read_ready(int fd, __u32 id, struct reader_ctx *ctx)
{
	static __thread __u8 rbuf[1024 * 1024];
	struct etw_buffer_read r = { .size = sizeof(r), .logger_id = id,
				     .length = sizeof(rbuf), .buf = (uintptr_t)rbuf };
	long n = 0;
	__u32 off, saved;
	int ret;

	for (;;) {
		r.size = sizeof(r);
		ret = etw_ioctl_err(fd, ETW_IOC_BUFFER_READ, &r);
		if (ret == -EAGAIN)
			return n;
		if (ret)
			return ret;
		memcpy(&saved, rbuf + 4, 4);
		for (off = ETW_BUFFER_HEADER_SIZE; off + sizeof(struct etw_test_event_header) <= saved;) {
			const struct etw_test_event_header *h = (const void *)(rbuf + off);

			if (h->size < ETW_EVENT_HEADER_SIZE)
				return -EPROTO;
			count_record(h, rbuf, r.cpu, ctx);
			n++;
			off += (h->size + 7) & ~7u;
		}
	}
}

static int start_slot(int fd, struct shared *sh, unsigned int k, uint64_t *rng)
{
	static const __u32 kb[] = { 4, 8, 16, 64 };
	struct etw_session_start st = { .size = sizeof(st) };
	struct slot *s = &sh->slot[k];
	int ret;

	snprintf(st.info.name, sizeof(st.info.name), "etwtest-stress-%u", k);
	st.info.buffer_size_kb = kb[rnd(rng) % 4];
	st.info.min_buffers = 0;
	st.info.max_buffers = 4 + rnd(rng) % 8;
	st.info.log_file_mode = rnd(rng) % 3 ? 0 : ETW_MODE_INDEPENDENT;
	st.info.flush_timer = rnd(rng) % 3;
	ret = etw_ioctl_err(fd, ETW_IOC_SESSION_START, &st);
	if (ret)
		return ret;
	atomic_store(&s->accepted, 0);
	s->delivered = 0;
	atomic_store(&s->acks, 0);
	atomic_store(&s->logger_id, st.info.logger_id);
	atomic_fetch_add(&s->epoch, 1);
	atomic_store(&s->state, SLOT_ACTIVE);
	return 0;
}

/* The parent's reader and controller share the slots: one lock each. */
static pthread_mutex_t slot_lock[MAX_SESSIONS];

struct reader_arg {
	int fd;
	struct shared *sh;
	unsigned int nsessions;
	atomic_int stop;
	unsigned long bad;
	long error;
};

/* Read every session in turn, deliberately slower than the writers. */
static void *reader_main(void *p)
{
	struct reader_arg *a = p;
	unsigned int k;

	while (!atomic_load(&a->stop)) {
		for (k = 0; k < a->nsessions; k++) {
			struct slot *s = &a->sh->slot[k];
			struct reader_ctx ctx = { a->sh, 0 };
			long n;

			if (pthread_mutex_trylock(&slot_lock[k]))
				continue;
			if (atomic_load(&s->state) == SLOT_ACTIVE) {
				n = read_ready(a->fd, atomic_load(&s->logger_id), &ctx);
				if (n < 0 && !a->error)
					a->error = n;
				if (n > 0)
					s->delivered += n;
				a->bad += ctx.bad;
			}
			pthread_mutex_unlock(&slot_lock[k]);
		}
		usleep(5000);
	}
	return NULL;
}

struct verdict {
	unsigned long sessions;
	unsigned long delivered;
	unsigned long lost;
	unsigned long bad_sessions;
	unsigned long bad_records;
	char first[256];
};

/*
 * Quiesce a slot (unless no writer is left), read it out, stop it and
 * check its books.
 */
static int finish_slot(int fd, struct shared *sh, unsigned int k, struct verdict *v,
		       bool writers_left)
{
	struct slot *s = &sh->slot[k];
	struct reader_ctx ctx = { sh, 0 };
	struct etw_session_info info;
	unsigned long accepted;
	double until = now() + 120;
	__u32 id = atomic_load(&s->logger_id);
	long n;
	int ret;

	atomic_store(&s->state, SLOT_DRAINING);
	while (writers_left && atomic_load(&s->acks) < sh->writers && now() < until)
		usleep(1000);
	if (writers_left && atomic_load(&s->acks) < sh->writers)
		return -ETIMEDOUT;
	ret = etw_session_ctl(fd, id, ETW_CONTROL_FLUSH, NULL);
	if (ret)
		return ret;
	n = read_ready(fd, id, &ctx);
	if (n < 0)
		return n;
	s->delivered += n;
	ret = etw_session_ctl(fd, id, ETW_CONTROL_STOP, &info);
	if (ret)
		return ret;
	accepted = atomic_load(&s->accepted);
	v->sessions++;
	v->delivered += s->delivered;
	v->lost += info.events_lost;
	v->bad_records += ctx.bad;
	if (s->delivered + info.events_lost != accepted) {
		if (!v->bad_sessions++)
			snprintf(v->first, sizeof(v->first),
				 "session %u (logger %u): delivered %lu + lost %u != accepted %lu",
				 k, id, s->delivered, info.events_lost, accepted);
	}
	atomic_store(&s->state, SLOT_IDLE);
	return 0;
}

FIXTURE(stress)
{
	int unused;
};

FIXTURE_SETUP(stress)
{
}

FIXTURE_TEARDOWN(stress)
{
}

TEST_F_TIMEOUT(stress, books_balance, 7200)
{
	unsigned int nsessions = env_ul("ETW_STRESS_SESSIONS", 16);
	unsigned int nprov = env_ul("ETW_STRESS_PROVIDERS", 100);
	unsigned int nprocs = env_ul("ETW_STRESS_PROCS", 8);
	double secs = env_ul("ETW_STRESS_SECONDS", 5);
	unsigned int ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	unsigned int per_thread, k, p;
	uint64_t rng = (uint64_t)time(NULL) | 1;
	struct verdict v = { 0 };
	struct reader_arg rd = { 0 };
	unsigned long restarts = 0, updates = 0, flushes = 0;
	pthread_t reader;
	int ret;
	struct shared *sh;
	pid_t *pids;
	double t0, end;
	int fd, status;

	etw_require_root(_metadata);
	fd = etw_open_or_skip(_metadata);
	ASSERT_GE(MAX_SESSIONS, nsessions);
	ASSERT_LT(0, nprocs);
	ASSERT_GE(MAX_THREADS, nprocs * ncpu);
	per_thread = (nprov + nprocs * ncpu - 1) / (nprocs * ncpu);
	ASSERT_GE(256, per_thread);
	ASSERT_GE(ETW_MAX_REGS_PER_FILE, per_thread * ncpu);
	etw_stop_test_sessions(fd);

	sh = mmap(NULL, sizeof(*sh), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	ASSERT_TRUE(sh != MAP_FAILED);
	sh->writers = nprocs * ncpu;
	for (k = 0; k < nsessions; k++)
		ASSERT_EQ(0, start_slot(fd, sh, k, &rng)) TH_LOG("session %u", k);

	pids = calloc(nprocs, sizeof(*pids));
	ASSERT_TRUE(pids != NULL);
	for (p = 0; p < nprocs; p++) {
		pids[p] = fork();
		ASSERT_LE(0, pids[p]);
		if (!pids[p])
			_exit(provider_process(sh, p, ncpu, per_thread, ncpu));
	}
	TH_LOG("%u sessions, %u providers (%u per writer), %u processes x %u writers, %.0f s",
	       nsessions, per_thread * nprocs * ncpu, per_thread, nprocs, ncpu, secs);

	for (k = 0; k < MAX_SESSIONS; k++)
		pthread_mutex_init(&slot_lock[k], NULL);
	rd.fd = fd;
	rd.sh = sh;
	rd.nsessions = nsessions;
	ASSERT_EQ(0, pthread_create(&reader, NULL, reader_main, &rd));

	/* The controller: a stop and start, an update or a flush, in a loop. */
	t0 = now();
	end = t0 + secs;
	while (now() < end && !atomic_load(&sh->errors) && !rd.error) {
		unsigned int r = rnd(&rng) % 100;

		usleep(10000);
		k = rnd(&rng) % nsessions;
		if (r < 30) {
			/* Stop the session and start it again, other settings. */
			pthread_mutex_lock(&slot_lock[k]);
			ret = finish_slot(fd, sh, k, &v, true);
			if (!ret)
				ret = start_slot(fd, sh, k, &rng);
			pthread_mutex_unlock(&slot_lock[k]);
			ASSERT_EQ(0, ret) TH_LOG("restart of session %u", k);
			restarts++;
		} else if (r < 60) {
			struct etw_session_control c = { .size = sizeof(c) };

			c.code = ETW_CONTROL_UPDATE;
			c.logger_id = atomic_load(&sh->slot[k].logger_id);
			c.info.flush_timer = 1 + rnd(&rng) % 2;
			ASSERT_EQ(0, etw_ioctl_err(fd, ETW_IOC_SESSION_CONTROL, &c));
			updates++;
		} else {
			ASSERT_EQ(0, etw_session_ctl(fd, atomic_load(&sh->slot[k].logger_id),
						     ETW_CONTROL_FLUSH, NULL));
			flushes++;
		}
	}
	atomic_store(&sh->stop, 1);
	atomic_store(&rd.stop, 1);
	pthread_join(reader, NULL);
	EXPECT_EQ(0, rd.error);
	v.bad_records += rd.bad;
	for (p = 0; p < nprocs; p++) {
		ASSERT_EQ(pids[p], waitpid(pids[p], &status, 0));
		EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0)
			TH_LOG("provider process %u: status 0x%x", p, status);
	}
	for (k = 0; k < nsessions; k++)
		ASSERT_EQ(0, finish_slot(fd, sh, k, &v, false)) TH_LOG("session %u", k);

	TH_LOG("%.1f s: %lu writes, %lu enables, %lu restarts, %lu updates, %lu flushes",
	       now() - t0, atomic_load(&sh->writes), atomic_load(&sh->enables), restarts,
	       updates, flushes);
	TH_LOG("%lu sessions checked: %lu events delivered, %lu lost",
	       v.sessions, v.delivered, v.lost);
	EXPECT_EQ(0, atomic_load(&sh->errors)) TH_LOG("%s", sh->first_error);
	EXPECT_EQ(0, v.bad_sessions) TH_LOG("%s", v.first);
	EXPECT_EQ(0, atomic_load(&sh->mismatches));
	EXPECT_EQ(0, v.bad_records);
	/* It was overload: events were both delivered and lost. */
	EXPECT_LT(0, v.delivered);
	EXPECT_LT(0, v.lost);
	close(fd);
}

TEST_HARNESS_MAIN
