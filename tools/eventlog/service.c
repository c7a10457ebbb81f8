// SPDX-License-Identifier: GPL-2.0
/*
 * The Event Log service: one real-time session per isolation group, as
 * Windows' EventLog-Application and EventLog-System (a Custom channel gets
 * one of its own), each provider enabled with the keyword bits of its
 * kept channels in that group, every event of a kept channel journaled
 * (journal.c).  A thread per session runs ProcessTrace; the main thread
 * polls: new manifests (inotify on the manifest folders), the state file
 * (`etw eventlog enable|disable`), and each session's lost events, which
 * are journaled as a warning.  SIGTERM or SIGINT stop the sessions and
 * end it; a session left by an earlier run is taken over.
 */
#include <errno.h>
#include <limits.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/inotify.h>
#include <sys/stat.h>
#include <syslog.h>
#include <unistd.h>

#include <windows.h>
#include <evntrace.h>
#include <evntcons.h>

#include "dump/dump.h"
#include "eventlog/eventlog.h"

#define GROUPS_MAX	16

struct service;

struct group {
	struct service *s;
	char session[80];		/* "EventLog-Application" */
	const char *group;
	CONTROLTRACE_ID id;
	PROCESSTRACE_HANDLE h;
	pthread_t thread;
	bool running;
	struct etw_decoder *dec;	/* this group's thread's */
	struct etw_etl_ext_item items[DUMP_ITEMS_MAX];
	uint64_t lost_seen;
};

struct service {
	pthread_mutex_t lock;		/* plan and journal */
	struct el_plan plan;
	struct el_journal j;
	struct group g[GROUPS_MAX];
	size_t ng;
	const char *state;
	struct timespec state_mtime;
};

static volatile sig_atomic_t stopping;

static void on_signal(int sig)
{
	(void)sig;
	stopping = 1;
}

struct props {
	EVENT_TRACE_PROPERTIES p;
	char names[1024];
};

static void props_init(struct props *b)
{
	memset(b, 0, sizeof(*b));
	b->p.Wnode.BufferSize = sizeof(*b);
	b->p.Wnode.Flags = WNODE_FLAG_TRACED_GUID;
	b->p.Wnode.ClientContext = 1;
	b->p.LogFileMode = EVENT_TRACE_REAL_TIME_MODE;
	b->p.FlushTimer = 1;
	b->p.LoggerNameOffset = sizeof(b->p);
}

static VOID WINAPI on_event(PEVENT_RECORD r)
{
	struct group *g = r->UserContext;
	struct service *s = g->s;
	const struct el_channel *c;
	struct etw_decoded_event d;
	struct etw_etl_event ev;
	int ret;

	dump_from_record(r, &ev, g->items, DUMP_ITEMS_MAX);
	pthread_mutex_lock(&s->lock);
	/*
	 * The Event Log routes by channel; other channels' events stay out.
	 * An event of a channel disabled since it was written is kept: the
	 * session took it while the channel was on.
	 */
	c = el_plan_find(&s->plan, &r->EventHeader.ProviderId,
			 r->EventHeader.EventDescriptor.Channel);
	if (c && !strcmp(c->group, g->group)) {
		ret = etw_decode_event_record(g->dec, r, &d);
		el_journal_event(&s->j, c, &ev, &d, ret);
	}
	pthread_mutex_unlock(&s->lock);
}

static void *consume(void *arg)
{
	struct group *g = arg;

	ProcessTrace(&g->h, 1, NULL, NULL);
	return NULL;
}

/* Enable (or disable) each provider of g with its kept channels' bits. */
static void enable_group(struct service *s, struct group *g)
{
	for (size_t i = 0; i < s->plan.n; i++) {
		const struct el_channel *c = &s->plan.c[i];
		ULONGLONG any = 0;
		bool first = true;
		GUID guid = c->provider->guid;
		ULONG err;

		if (strcmp(c->group, g->group))
			continue;
		for (size_t k = 0; k < i && first; k++)
			first = !(s->plan.c[k].provider == c->provider &&
				  !strcmp(s->plan.c[k].group, g->group));
		if (!first)
			continue;
		for (size_t k = i; k < s->plan.n; k++)
			if (s->plan.c[k].provider == c->provider && s->plan.c[k].enabled &&
			    !strcmp(s->plan.c[k].group, g->group))
				any |= s->plan.c[k].channel->keyword;
		err = EnableTraceEx2(g->id, &guid, any ? EVENT_CONTROL_CODE_ENABLE_PROVIDER :
				     EVENT_CONTROL_CODE_DISABLE_PROVIDER,
				     0xFF, any, 0, 0, NULL);
		if (err && any)
			el_journal_notice(&s->j, LOG_ERR,
					  "etw eventlog: %s: enabling %s failed: Win32 error %lu",
					  g->session, c->provider->name, (unsigned long)err);
	}
}

static int start_group(struct service *s, const char *group)
{
	struct group *g;
	EVENT_TRACE_LOGFILEA lf;
	struct props b;
	ULONG err;

	if (s->ng == GROUPS_MAX)
		return -ENOSPC;
	g = &s->g[s->ng];
	memset(g, 0, sizeof(*g));
	g->s = s;
	g->group = group;
	snprintf(g->session, sizeof(g->session), "EventLog-%s", group);
	if (etw_decoder_new(&g->dec))
		return -ENOMEM;
	props_init(&b);
	err = StartTraceA(&g->id, g->session, &b.p);
	if (err == ERROR_ALREADY_EXISTS) {
		/* Left by an earlier run: take it over with our settings. */
		props_init(&b);
		ControlTraceA(0, g->session, &b.p, EVENT_TRACE_CONTROL_STOP);
		props_init(&b);
		err = StartTraceA(&g->id, g->session, &b.p);
	}
	if (err) {
		el_journal_notice(&s->j, LOG_ERR, "etw eventlog: %s: StartTrace failed: Win32 error %lu",
				  g->session, (unsigned long)err);
		etw_decoder_free(g->dec);
		return -EIO;
	}
	memset(&lf, 0, sizeof(lf));
	lf.LoggerName = g->session;
	lf.ProcessTraceMode = PROCESS_TRACE_MODE_REAL_TIME | PROCESS_TRACE_MODE_EVENT_RECORD;
	lf.EventRecordCallback = on_event;
	lf.Context = g;
	g->h = OpenTraceA(&lf);
	if (g->h == INVALID_PROCESSTRACE_HANDLE ||
	    pthread_create(&g->thread, NULL, consume, g)) {
		props_init(&b);
		ControlTraceA(g->id, NULL, &b.p, EVENT_TRACE_CONTROL_STOP);
		etw_decoder_free(g->dec);
		return -EIO;
	}
	g->running = true;
	s->ng++;
	enable_group(s, g);
	return 0;
}

/* Every group the plan has a kept channel of runs; each enabled anew. */
static void apply_plan(struct service *s)
{
	for (size_t i = 0; i < s->plan.n; i++) {
		const char *group = s->plan.c[i].group;
		bool have = false;

		for (size_t k = 0; k < s->ng && !have; k++)
			have = !strcmp(s->g[k].group, group);
		if (!have && s->plan.c[i].enabled)
			start_group(s, group);
	}
	for (size_t k = 0; k < s->ng; k++)
		enable_group(s, &s->g[k]);
}

static void rebuild(struct service *s)
{
	struct el_plan plan;

	if (el_plan_build(&plan, s->state))
		return;
	pthread_mutex_lock(&s->lock);
	el_plan_free(&s->plan);
	s->plan = plan;
	pthread_mutex_unlock(&s->lock);
	/* Group names point into the plan's manifests, which stay. */
	apply_plan(s);
}

static bool state_changed(struct service *s)
{
	struct stat st;
	bool changed;

	if (stat(s->state, &st))
		memset(&st, 0, sizeof(st));
	changed = st.st_mtim.tv_sec != s->state_mtime.tv_sec ||
		  st.st_mtim.tv_nsec != s->state_mtime.tv_nsec;
	s->state_mtime = st.st_mtim;
	return changed;
}

static void check_lost(struct service *s)
{
	for (size_t k = 0; k < s->ng; k++) {
		struct group *g = &s->g[k];
		struct props b;
		uint64_t lost;

		props_init(&b);
		if (ControlTraceA(g->id, NULL, &b.p, EVENT_TRACE_CONTROL_QUERY))
			continue;
		lost = (uint64_t)b.p.EventsLost + b.p.RealTimeBuffersLost;
		if (lost > g->lost_seen) {
			pthread_mutex_lock(&s->lock);
			el_journal_notice(&s->j, LOG_WARNING,
					  "etw eventlog: %s lost %llu events (%llu in all)",
					  g->session, (unsigned long long)(lost - g->lost_seen),
					  (unsigned long long)lost);
			pthread_mutex_unlock(&s->lock);
			g->lost_seen = lost;
		}
	}
}

/* The folders manifests are installed in, watched for new files. */
struct watch {
	int fd;
	int wd[16];
	char *dir[16];
	size_t n;
};

static void watch_dir(struct watch *w, const char *dir)
{
	int wd;

	if (w->n == 16)
		return;
	wd = inotify_add_watch(w->fd, dir, IN_CLOSE_WRITE | IN_MOVED_TO);
	if (wd < 0)
		return;
	w->wd[w->n] = wd;
	w->dir[w->n++] = strdup(dir);
}

static void watch_manifests(struct watch *w)
{
	const char *env = getenv("ETW_MANIFEST_PATH");
	char user[4096];

	w->n = 0;
	w->fd = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
	if (w->fd < 0)
		return;
	if (env) {
		char *copy = strdup(env), *save = NULL;

		for (char *d = copy ? strtok_r(copy, ":", &save) : NULL; d;
		     d = strtok_r(NULL, ":", &save))
			watch_dir(w, d);
		free(copy);
	}
	if (etw_manifest_user_dir(user, sizeof(user)))
		watch_dir(w, user);
	watch_dir(w, etw_manifest_system_dir());
}

/* Manifests that arrived: read them; true if any was new. */
static bool new_manifests(struct watch *w)
{
	char buf[4096] __attribute__((aligned(__alignof__(struct inotify_event))));
	bool any = false;
	ssize_t n;

	while ((n = read(w->fd, buf, sizeof(buf))) > 0) {
		for (char *p = buf; p < buf + n;) {
			struct inotify_event *e = (struct inotify_event *)p;
			size_t len = e->len ? strlen(e->name) : 0;
			char path[PATH_MAX];

			p += sizeof(*e) + e->len;
			if (len < 5 || (strcmp(e->name + len - 4, ".man") &&
					strcmp(e->name + len - 4, ".xml")))
				continue;
			for (size_t i = 0; i < w->n; i++) {
				if (w->wd[i] != e->wd ||
				    snprintf(path, sizeof(path), "%s/%s", w->dir[i],
					     e->name) >= (int)sizeof(path))
					continue;
				if (el_plan_add_file(path) == 1)
					any = true;
			}
		}
	}
	return any;
}

int el_service_run(const char *state, unsigned int poll_ms)
{
	static struct service s = { .lock = PTHREAD_MUTEX_INITIALIZER };
	struct sigaction sa = { .sa_handler = on_signal };
	struct watch w;

	s.state = state;
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	state_changed(&s);
	if (el_plan_build(&s.plan, state)) {
		fprintf(stderr, "etw: eventlog: cannot read the installed manifests\n");
		return 1;
	}
	watch_manifests(&w);
	apply_plan(&s);
	el_journal_notice(&s.j, LOG_INFO, "etw eventlog: started: %zu sessions, %zu channels",
			  s.ng, s.plan.n);
	while (!stopping) {
		struct pollfd p = { .fd = w.fd, .events = POLLIN };

		if (poll(&p, w.fd >= 0 ? 1 : 0, (int)poll_ms) > 0 && new_manifests(&w))
			rebuild(&s);
		if (state_changed(&s))
			rebuild(&s);
		check_lost(&s);
	}
	for (size_t k = 0; k < s.ng; k++) {
		struct props b;

		props_init(&b);
		ControlTraceA(s.g[k].id, NULL, &b.p, EVENT_TRACE_CONTROL_STOP);
		pthread_join(s.g[k].thread, NULL);
		CloseTrace(s.g[k].h);
		etw_decoder_free(s.g[k].dec);
	}
	if (w.fd >= 0)
		close(w.fd);
	for (size_t i = 0; i < w.n; i++)
		free(w.dir[i]);
	el_journal_notice(&s.j, LOG_INFO,
			  "etw eventlog: stopped: %llu events journaled, %llu refused by the journal, %llu shown raw",
			  (unsigned long long)s.j.sent, (unsigned long long)s.j.failed,
			  (unsigned long long)s.j.undecoded);
	return s.j.failed ? 1 : 0;
}
