// SPDX-License-Identifier: GPL-2.0
/*
 * etw export --format speedscope: speedscope's file format
 * (https://www.speedscope.app/file-format-schema.json), three kinds of
 * profile:
 *
 * - "sampled", one per thread with CPU samples: each distinct stack once
 *   (root first, kernel frames under the user frames that called into
 *   the kernel), its weight the number of samples; unit "none".
 * - "sampled" thread time, one per process whose threads were switched
 *   (PerfView's Thread Time view, from CSwitch and ReadyThread): under a
 *   frame per thread, CPU_TIME for the time it ran; for the time it was
 *   switched out, the stack it switched out with, then BLOCKED_TIME
 *   (wait reason) until ReadyThread readied it, with READIED_BY (the
 *   thread that was running where the ready happened) under it, then
 *   READIED_TIME until it ran again; a thread preempted waits as
 *   READIED_TIME (WrPreempted) from the switch on; a thread that ended
 *   has no time after its last switch.  Unit nanoseconds.
 * - "evented", one per thread that started activities: each start/stop
 *   pair of the same activity id (win:Start, win:Stop) an open/close of a
 *   frame named by the start event, nested as speedscope needs (one that
 *   outlives its parent ends with it; one never stopped ends at the
 *   trace's last time).
 *
 * Stacks are aggregated as they come, so memory grows with the distinct
 * stacks and threads, not with the samples; activities are kept until
 * the end (two times and a frame each).  Everything is written at the end.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "etw.h"
#include "export/export.h"
#include "export/idmap.h"
#include "export/stacks.h"

#define SPEEDSCOPE_SCHEMA	"https://www.speedscope.app/file-format-schema.json"

/* A weight per (owner, stack) key: samples, or nanoseconds. */
struct weights {
	struct idmap64 index;		/* key -> entry + 1 */
	uint64_t *keys;
	uint64_t *w;
	size_t n, cap;
};

struct interval {
	int64_t start, end;
	uint32_t frame;
};

struct thread {
	uint32_t pid, tid;
	uint32_t index;			/* owner number in the weights */
	uint64_t samples;
	/* Thread time. */
	uint32_t root;			/* its frame's node */
	int64_t in_ns;			/* running since; -1: not running */
	int64_t out_ns;			/* switched out at; -1: not out */
	uint32_t out_node;		/* the stack it switched out with */
	bool out_waiting;
	uint8_t out_reason;
	bool readied;
	int64_t ready_ns;
	uint32_t waker;
	/* Activities. */
	struct interval *iv;
	size_t niv, cap;
};

struct process {
	uint32_t pid;
	uint32_t index;
	int64_t switched;		/* ns of thread time seen */
};

struct activity {
	struct etw_etl_guid id;
	int64_t start;
	uint32_t tid, pid;
	uint32_t frame;
	struct activity *next;		/* same hash */
};

struct speedscope {
	struct export_stacks st;
	struct idmap64 threads;		/* tid -> struct thread */
	struct thread **thread_list;
	size_t nthreads;
	struct idmap64 procs;		/* pid -> struct process */
	struct process **proc_list;
	size_t nprocs;
	struct weights sampled;		/* (thread, node) -> samples */
	struct weights thread_time;	/* (process, node) -> ns */
	struct idmap64 activities;	/* hash of id -> open ones */
	int64_t first_ns, last_ns;
	bool any_time;
	struct sbuf tmp;
	uint32_t *path;			/* scratch: a stack's frames */
	size_t path_cap;
};

static struct speedscope *state(struct export *x)
{
	return x->fmt_state;
}

static void weights_add(struct weights *ws, uint64_t key, uint64_t w)
{
	uintptr_t v = (uintptr_t)idmap64_get(&ws->index, key);

	if (v) {
		ws->w[v - 1] += w;
		return;
	}
	if (ws->n == ws->cap) {
		ws->cap = ws->cap ? 2 * ws->cap : 1024;
		ws->keys = export_realloc(ws->keys, ws->cap * sizeof(*ws->keys));
		ws->w = export_realloc(ws->w, ws->cap * sizeof(*ws->w));
	}
	ws->keys[ws->n] = key;
	ws->w[ws->n] = w;
	idmap64_put(&ws->index, key, (void *)(uintptr_t)++ws->n);
}

static void weights_free(struct weights *ws)
{
	idmap64_free(&ws->index, NULL);
	free(ws->keys);
	free(ws->w);
}

static void seen(struct speedscope *s, int64_t ns)
{
	if (!s->any_time || ns < s->first_ns)
		s->first_ns = ns;
	if (!s->any_time || ns > s->last_ns)
		s->last_ns = ns;
	s->any_time = true;
}

static struct thread *get_thread(struct speedscope *s, uint32_t pid, uint32_t tid)
{
	struct thread *t = idmap64_get(&s->threads, tid);

	if (t) {
		if (t->pid == UINT32_MAX)
			t->pid = pid;
		return t;
	}
	t = export_alloc(sizeof(*t));
	t->pid = pid;
	t->tid = tid;
	t->index = (uint32_t)s->nthreads;
	t->in_ns = -1;
	t->out_ns = -1;
	t->root = UINT32_MAX;
	idmap64_put(&s->threads, tid, t);
	s->thread_list = export_realloc(s->thread_list,
					(s->nthreads + 1) * sizeof(*s->thread_list));
	s->thread_list[s->nthreads++] = t;
	return t;
}

static struct process *get_process(struct speedscope *s, uint32_t pid)
{
	/* Keys are pid + 1: pid 0 is a process too. */
	struct process *p = idmap64_get(&s->procs, (uint64_t)pid + 1);

	if (p)
		return p;
	p = export_alloc(sizeof(*p));
	p->pid = pid;
	p->index = (uint32_t)s->nprocs;
	idmap64_put(&s->procs, (uint64_t)pid + 1, p);
	s->proc_list = export_realloc(s->proc_list, (s->nprocs + 1) * sizeof(*s->proc_list));
	s->proc_list[s->nprocs++] = p;
	return p;
}

static int ss_begin(struct export *x)
{
	struct speedscope *s = export_alloc(sizeof(*s));

	stacks_init(&s->st);
	x->fmt_state = s;
	return 0;
}

static void ss_sample(struct export *x, const struct export_sample *smp)
{
	struct speedscope *s = state(x);
	struct thread *t = get_thread(s, smp->pid, smp->tid);
	uint32_t node = stacks_push(&s->st, x, STACK_ROOT, smp->pid, smp->stack);

	seen(s, smp->ns);
	t->samples++;
	weights_add(&s->sampled, (uint64_t)t->index << 32 | node, 1);
}

/* The thread's frame in its process's thread time: "tid N (name)". */
static uint32_t thread_root(struct speedscope *s, struct export *x, struct thread *t)
{
	const char *name = export_thread_name(x, t->tid);

	if (t->root != UINT32_MAX)
		return t->root;
	sb_reset(&s->tmp);
	sb_printf(&s->tmp, "Thread (%u)%s%s", t->tid, *name ? " " : "", name);
	t->root = stacks_child(&s->st, STACK_ROOT, stacks_pseudo_frame(&s->st, s->tmp.p));
	return t->root;
}

static void add_time(struct speedscope *s, struct thread *t, uint32_t node, int64_t ns)
{
	struct process *p = get_process(s, t->pid);

	if (ns <= 0)
		return;
	p->switched += ns;
	weights_add(&s->thread_time, (uint64_t)p->index << 32 | node, (uint64_t)ns);
}

static uint32_t pseudo(struct speedscope *s, uint32_t parent, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static uint32_t pseudo(struct speedscope *s, uint32_t parent, const char *fmt, ...)
{
	va_list ap;
	char buf[512];

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	return stacks_child(&s->st, parent, stacks_pseudo_frame(&s->st, buf));
}

/* The time a thread was off the CPU, up to @now, as blocked and ready. */
static void switched_out_time(struct speedscope *s, struct export *x,
			      struct thread *t, int64_t now)
{
	int64_t blocked_end = t->readied ? t->ready_ns : now;
	uint32_t node;

	if (!t->out_waiting) {
		add_time(s, t, pseudo(s, t->out_node, "READIED_TIME (%s)",
				      wait_reason_name(t->out_reason)), now - t->out_ns);
		return;
	}
	node = pseudo(s, t->out_node, "BLOCKED_TIME (%s)", wait_reason_name(t->out_reason));
	if (t->readied) {
		sb_reset(&s->tmp);
		sb_put(&s->tmp, "READIED_BY ", 11);
		export_process_label(x, stack_model_thread_pid(x->model, t->waker), &s->tmp);
		sb_printf(&s->tmp, " tid %u", t->waker);
		node = stacks_child(&s->st, node, stacks_pseudo_frame(&s->st, s->tmp.p));
		add_time(s, t, pseudo(s, t->out_node, "READIED_TIME"), now - t->ready_ns);
	}
	add_time(s, t, node, blocked_end - t->out_ns);
}

static void ss_cswitch(struct export *x, const struct export_cswitch *c)
{
	struct speedscope *s = state(x);
	const struct rec_cswitch *r = c->rec;
	struct thread *t;

	seen(s, c->ns);
	/* The idle threads (tid 0) wait for nothing. */
	if (r->old_tid && export_wants_pid(x, c->old_pid)) {
		t = get_thread(s, c->old_pid, r->old_tid);
		if (t->pid != UINT32_MAX) {
			uint32_t root = thread_root(s, x, t);

			if (t->in_ns >= 0)
				add_time(s, t, pseudo(s, root, "CPU_TIME"), c->ns - t->in_ns);
			t->in_ns = -1;
			/* A thread that ended waits for nothing. */
			t->out_ns = r->old_state == THREAD_STATE_TERMINATED ? -1 : c->ns;
			t->out_node = stacks_push(&s->st, x, root, t->pid, c->stack);
			t->out_waiting = r->old_state == THREAD_STATE_WAITING;
			t->out_reason = r->old_wait_reason;
			t->readied = false;
		}
	}
	if (r->new_tid && export_wants_pid(x, c->new_pid)) {
		t = get_thread(s, c->new_pid, r->new_tid);
		if (t->pid != UINT32_MAX) {
			if (t->out_ns >= 0)
				switched_out_time(s, x, t, c->ns);
			t->out_ns = -1;
			t->in_ns = c->ns;
		}
	}
}

static void ss_ready(struct export *x, const struct export_ready *r)
{
	struct speedscope *s = state(x);
	struct thread *t = idmap64_get(&s->threads, r->rec->tid);

	seen(s, r->ns);
	if (t && t->out_ns >= 0 && !t->readied) {
		t->readied = true;
		t->ready_ns = r->ns;
		t->waker = r->waker_tid;
	}
}

static void ss_disk(struct export *x, const struct export_disk *d)
{
	seen(state(x), d->end_ns);
}

static void ss_thread_name(struct export *x, uint32_t pid, uint32_t tid,
			   const char *name)
{
	(void)x;
	(void)pid;
	(void)tid;
	(void)name;
}

static uint64_t guid_hash(const struct etw_etl_guid *g)
{
	uint64_t a, b;

	memcpy(&a, g, 8);
	memcpy(&b, (const uint8_t *)g + 8, 8);
	return a * 0x9e3779b97f4a7c15ull ^ b;
}

static void add_interval(struct thread *t, int64_t start, int64_t end, uint32_t frame)
{
	/* A stop before its start (a file going back in time) is at it. */
	if (end < start)
		end = start;
	if (t->niv == t->cap) {
		t->cap = t->cap ? 2 * t->cap : 16;
		t->iv = export_realloc(t->iv, t->cap * sizeof(*t->iv));
	}
	t->iv[t->niv++] = (struct interval){ start, end, frame };
}

/* The activities open under one hash (the map's values never go away). */
struct bucket {
	struct activity *open;
};

/* Start (opcode 1) opens an activity, Stop (2) of the same id closes it. */
static void ss_event(struct export *x, const struct export_event *e)
{
	struct speedscope *s = state(x);
	struct activity *a, **pp;
	struct bucket *b;
	uint64_t h;

	seen(s, e->ns);
	if (!e->activity || (e->opcode != 1 && e->opcode != 2) || e->tid == UINT32_MAX)
		return;
	h = guid_hash(e->activity);
	b = idmap64_get(&s->activities, h);
	if (e->opcode == 1) {
		if (!b) {
			b = export_alloc(sizeof(*b));
			idmap64_put(&s->activities, h, b);
		}
		a = export_alloc(sizeof(*a));
		a->id = *e->activity;
		a->start = e->ns;
		a->tid = e->tid;
		a->pid = e->pid;
		sb_reset(&s->tmp);
		sb_printf(&s->tmp, "%s/%s", e->provider, e->name ? e->name : "Activity");
		a->frame = stacks_pseudo_frame(&s->st, s->tmp.p);
		a->next = b->open;
		b->open = a;
		return;
	}
	for (pp = b ? &b->open : NULL; pp && *pp; pp = &(*pp)->next) {
		a = *pp;
		if (memcmp(&a->id, e->activity, sizeof(a->id)))
			continue;
		add_interval(get_thread(s, a->pid, a->tid), a->start, e->ns, a->frame);
		*pp = a->next;
		free(a);
		return;
	}
}

/* Activities never stopped end at the trace's last time. */
static void close_activities(struct speedscope *s)
{
	struct idmap64 *m = &s->activities;

	for (size_t i = 0; i < m->cap; i++) {
		struct bucket *b = m->vals[i];
		struct activity *a, *next;

		for (a = b ? b->open : NULL; a; a = next) {
			next = a->next;
			add_interval(get_thread(s, a->pid, a->tid), a->start, s->last_ns,
				     a->frame);
			free(a);
		}
		if (b)
			b->open = NULL;
	}
}

/* At the end: threads still running or still out get their time so far. */
static void close_thread_time(struct speedscope *s, struct export *x)
{
	for (size_t i = 0; i < s->nthreads; i++) {
		struct thread *t = s->thread_list[i];

		if (t->pid == UINT32_MAX || t->root == UINT32_MAX)
			continue;
		if (t->in_ns >= 0)
			add_time(s, t, pseudo(s, t->root, "CPU_TIME"), s->last_ns - t->in_ns);
		else if (t->out_ns >= 0)
			switched_out_time(s, x, t, s->last_ns);
	}
}

static int by_key(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* Entries of @ws sorted by key: pairs (key, weight). */
static uint64_t *sorted(const struct weights *ws)
{
	uint64_t *v = export_alloc(2 * ws->n * sizeof(*v));

	for (size_t i = 0; i < ws->n; i++) {
		v[2 * i] = ws->keys[i];
		v[2 * i + 1] = ws->w[i];
	}
	qsort(v, ws->n, 2 * sizeof(*v), by_key);
	return v;
}

static void put_stack(struct speedscope *s, FILE *out, uint32_t node)
{
	size_t d = stacks_depth(&s->st, node);

	if (d > s->path_cap) {
		s->path_cap = d + 64;
		s->path = export_realloc(s->path, s->path_cap * sizeof(*s->path));
	}
	stacks_frames(&s->st, node, s->path);
	putc('[', out);
	for (size_t i = 0; i < d; i++)
		fprintf(out, "%s%u", i ? "," : "", s->path[i]);
	putc(']', out);
}

static void put_header(FILE *out, bool *first, const char *type, const char *name,
		       const char *unit, int64_t start, int64_t end)
{
	fputs(*first ? "\n" : ",\n", out);
	*first = false;
	fprintf(out, "{\"type\":\"%s\",\"name\":", type);
	put_json_string(out, name);
	fprintf(out, ",\"unit\":\"%s\",\"startValue\":%" PRId64 ",\"endValue\":%" PRId64,
		unit, start, end);
}

/* The entries of @v[lo, hi) (one owner's) as a sampled profile. */
static void put_sampled(struct speedscope *s, FILE *out, bool *first, const char *name,
			const char *unit, const uint64_t *v, size_t lo, size_t hi)
{
	uint64_t total = 0;

	for (size_t i = lo; i < hi; i++)
		total += v[2 * i + 1];
	put_header(out, first, "sampled", name, unit, 0, (int64_t)total);
	fputs(",\"samples\":[", out);
	for (size_t i = lo; i < hi; i++) {
		if (i > lo)
			putc(',', out);
		put_stack(s, out, (uint32_t)v[2 * i]);
	}
	fputs("],\"weights\":[", out);
	for (size_t i = lo; i < hi; i++)
		fprintf(out, "%s%" PRIu64, i > lo ? "," : "", v[2 * i + 1]);
	fputs("]}", out);
}

static void thread_label(struct speedscope *s, struct export *x, struct thread *t,
			 const char *prefix)
{
	const char *name = export_thread_name(x, t->tid);

	sb_reset(&s->tmp);
	sb_put(&s->tmp, prefix, strlen(prefix));
	export_process_label(x, t->pid, &s->tmp);
	sb_printf(&s->tmp, " tid %u%s%s", t->tid, *name ? " " : "", name);
}

static int by_samples(const void *a, const void *b)
{
	const struct thread *x = *(struct thread *const *)a, *y = *(struct thread *const *)b;

	if (x->samples != y->samples)
		return x->samples < y->samples ? 1 : -1;
	return x->tid < y->tid ? -1 : x->tid > y->tid;
}

static void put_sampled_profiles(struct speedscope *s, struct export *x, FILE *out,
				 bool *first)
{
	uint64_t *v = sorted(&s->sampled);
	size_t *start = export_alloc((s->nthreads + 1) * sizeof(*start));
	struct thread **order = export_alloc((s->nthreads + 1) * sizeof(*order));

	/* Where each thread's entries begin in v (sorted by thread, then stack). */
	for (size_t i = 0, j = 0; i <= s->nthreads; i++) {
		while (j < s->sampled.n && (v[2 * j] >> 32) < i)
			j++;
		start[i] = j;
	}
	if (s->nthreads)
		memcpy(order, s->thread_list, s->nthreads * sizeof(*order));
	/* The hottest thread first: the profile speedscope opens. */
	qsort(order, s->nthreads, sizeof(*order), by_samples);
	for (size_t i = 0; i < s->nthreads && order[i]->samples; i++) {
		struct thread *t = order[i];

		thread_label(s, x, t, "");
		put_sampled(s, out, first, s->tmp.p, "none", v, start[t->index],
			    start[t->index + 1]);
	}
	free(order);
	free(start);
	free(v);
}

static void put_thread_time_profiles(struct speedscope *s, struct export *x, FILE *out,
				     bool *first)
{
	uint64_t *v = sorted(&s->thread_time);
	size_t j = 0;

	for (size_t i = 0; i < s->nprocs; i++) {
		size_t lo;

		while (j < s->thread_time.n && (v[2 * j] >> 32) < i)
			j++;
		lo = j;
		while (j < s->thread_time.n && (v[2 * j] >> 32) == i)
			j++;
		if (lo == j)
			continue;
		sb_reset(&s->tmp);
		sb_put(&s->tmp, "Thread time: ", 13);
		export_process_label(x, s->proc_list[i]->pid, &s->tmp);
		put_sampled(s, out, first, s->tmp.p, "nanoseconds", v, lo, j);
	}
	free(v);
}

static int by_start(const void *a, const void *b)
{
	const struct interval *x = a, *y = b;

	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return x->end > y->end ? -1 : x->end < y->end;
}

/*
 * A thread's activities as balanced open/close events: sorted by start
 * (longest first), each one nested in the innermost open one, cut to
 * end with it.
 */
static void put_evented(struct speedscope *s, struct export *x, FILE *out, bool *first,
			struct thread *t)
{
	struct interval *stack = export_alloc(t->niv * sizeof(*stack));
	size_t depth = 0;
	bool any = false;

	qsort(t->iv, t->niv, sizeof(*t->iv), by_start);
	thread_label(s, x, t, "Activities: ");
	put_header(out, first, "evented", s->tmp.p, "nanoseconds",
		   s->first_ns - x->epoch_ns, s->last_ns - x->epoch_ns);
	fputs(",\"events\":[", out);
	for (size_t i = 0; i <= t->niv; i++) {
		struct interval *iv = i < t->niv ? &t->iv[i] : NULL;

		/* Close what ended before this one starts (all, at the end). */
		while (depth && (!iv || stack[depth - 1].end <= iv->start)) {
			depth--;
			fprintf(out, "%s{\"type\":\"C\",\"frame\":%u,\"at\":%" PRId64 "}",
				any ? "," : "", stack[depth].frame,
				stack[depth].end - x->epoch_ns);
			any = true;
		}
		if (!iv)
			break;
		stack[depth] = *iv;
		if (depth && stack[depth].end > stack[depth - 1].end)
			stack[depth].end = stack[depth - 1].end;
		fprintf(out, "%s{\"type\":\"O\",\"frame\":%u,\"at\":%" PRId64 "}",
			any ? "," : "", iv->frame, iv->start - x->epoch_ns);
		any = true;
		depth++;
	}
	fputs("]}", out);
	free(stack);
}

static void put_frames(struct speedscope *s, FILE *out)
{
	fputs("\n],\"shared\":{\"frames\":[", out);
	for (size_t i = 0; i < s->st.nframes; i++) {
		const struct export_frame *f = &s->st.frames[i];
		const char *file = intern_str_of(&s->st.modules, f->module);

		fputs(i ? ",\n{\"name\":" : "\n{\"name\":", out);
		put_json_string(out, intern_str_of(&s->st.names, f->name));
		if (*file == '/') {
			fputs(",\"file\":", out);
			put_json_string(out, file);
		}
		putc('}', out);
	}
	fputs("\n]}}\n", out);
}

static int ss_end(struct export *x)
{
	struct speedscope *s = state(x);
	FILE *out = x->out;
	bool first = true;

	close_thread_time(s, x);
	close_activities(s);
	fprintf(out, "{\"$schema\":\"%s\",\"exporter\":\"etw@%s\",\"activeProfileIndex\":0,"
		"\"name\":\"etw export\",\"profiles\":[", SPEEDSCOPE_SCHEMA, ETW_VERSION);
	put_sampled_profiles(s, x, out, &first);
	put_thread_time_profiles(s, x, out, &first);
	for (size_t i = 0; i < s->nthreads; i++)
		if (s->thread_list[i]->niv)
			put_evented(s, x, out, &first, s->thread_list[i]);
	put_frames(s, out);
	if (first)
		etw_error("export: warning: no CPU samples, context switches or activities to show");
	return 0;
}

static void free_thread(void *v)
{
	struct thread *t = v;

	free(t->iv);
	free(t);
}

static void ss_free(struct export *x)
{
	struct speedscope *s = state(x);

	if (!s)
		return;
	close_activities(s);
	idmap64_free(&s->activities, free);
	idmap64_free(&s->threads, free_thread);
	free(s->thread_list);
	idmap64_free(&s->procs, free);
	free(s->proc_list);
	weights_free(&s->sampled);
	weights_free(&s->thread_time);
	stacks_free(&s->st);
	sb_free(&s->tmp);
	free(s->path);
	free(s);
	x->fmt_state = NULL;
}

const struct export_format export_speedscope = {
	.name = "speedscope",
	.begin = ss_begin,
	.thread_name = ss_thread_name,
	.sample = ss_sample,
	.cswitch = ss_cswitch,
	.ready = ss_ready,
	.disk = ss_disk,
	.event = ss_event,
	.end = ss_end,
	.free = ss_free,
};
