// SPDX-License-Identifier: GPL-2.0
/*
 * CPU samples and their stacks.  The stacks whose EventTimeStamp and
 * thread are a SampledProfile's own belong to it, as Windows' tools match
 * them:
 *
 * - StackWalk records give frames.  One whose outermost frame is in the
 *   kernel is a kernel part: the user part comes with the next user-mode
 *   stack of that thread (Windows walks the user stack once, when the
 *   thread leaves the kernel), at once for processes 0 and 4, which have
 *   none.  A stack that starts in user mode completes every kernel part
 *   waiting on its thread.
 * - StackKeyKernel and StackKeyUser (Windows 8 and later) name a key of
 *   the kernel's stack cache; the key's frames come later, in its
 *   KeyDelete (evicted) or KeyRundown (at the end) record, a kernel key's
 *   and a user key's apart (by the outermost frame).  A user key, like a
 *   user stack, completes the kernel parts waiting on its thread.
 *
 * A sample is counted when it has a stack and waits for nothing more; at
 * the end every sample is, with what it has (a sample with no stack
 * counts as its sampled address alone).  Frames are
 * interned per (process, address) and named once: when first seen if an
 * image, the kernel or a .NET method holds them, else at the end (.NET
 * rundown names the methods of code that ran before the trace started).
 * Stacks are interned as a tree (caller, frame), so a sample is a leaf.
 * A stack record is interned whole first, (process, addresses) -> a run
 * of frames, and a sample's (user run, kernel run) -> its leaf, so a
 * stack seen before costs two hashes of its addresses and one lookup,
 * not two lookups per frame; the tree is walked once per distinct stack.
 */
#include <inttypes.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "etw.h"
#include "model/intern.h"
#include "model/stack.h"

#define DEFAULT_INTERVAL	10000	/* 1 ms in 100 ns, as PerfView assumes */
/* How far back a stack looks for its sample: a second of 64 CPUs at 1 kHz. */
#define MATCH_WINDOW		65536

/*
 * Lists of pends hang off map values; an emptied list keeps its slot
 * (LIST_NONE), as open addressing has no deletion.
 */
#define LIST_NONE	UINT32_MAX

static uint32_t list_take(uint32_t *head)
{
	uint32_t id = head && *head != LIST_NONE ? *head : 0;

	if (head)
		*head = LIST_NONE;
	return id;
}

static void list_push(uint32_t *head, uint32_t *next, uint32_t id)
{
	*next = *head == LIST_NONE ? 0 : *head;
	*head = id;
}

/*
 * A stack record's frames, interned: (pid, addresses) -> run id, its
 * frame ids in frame_ids[off, off + n).
 */
struct run {
	uint64_t hash;
	uint32_t pid;
	uint32_t off, n;
	uint32_t next;			/* the next run id of equal hash, or 0 */
};

struct frame {
	uint64_t addr;
	uint32_t pid;			/* 0 for kernel addresses */
	uint32_t full;			/* "function+0xoff", ... */
	uint32_t name;			/* "function", or as full */
	uint32_t module;
};

/* What a sample still waits for. */
enum {
	P_KERNEL	= 1,		/* has its kernel part */
	P_USER		= 2,		/* has its user part (or knows it has none) */
	P_WAIT_KKEY	= 4,		/* a kernel key's frames */
	P_WAIT_UKEY	= 8,		/* a user key's frames */
	P_ON_THREAD	= 16,		/* its thread's next user stack */
};

struct pend {
	uint32_t sample;		/* its index in samples or events */
	bool event;
	uint32_t pid;
	uint8_t flags;
	uint32_t next_k, next_u, next_t;	/* pend ids of the same key/thread */
	uint32_t krun, urun;			/* run ids of its parts, 0: none */
};

struct sample {
	struct stack_sample pub;
	uint64_t ip;
	uint32_t pend;			/* pend id, 0 if none */
	uint32_t ip_frame;
	bool event;			/* another event's (stack only) */
	bool done;			/* its stack is complete */
};

struct stack_samples {
	struct stack_model *model;
	struct sample *v;
	size_t n, cap;
	struct sample *ev;		/* other events whose stacks are wanted */
	size_t nev, ev_cap;
	struct pend *pends;		/* by id - 1 */
	size_t npends, pends_cap;
	uint32_t free_pend;		/* a list through next_k */
	struct intern_map kkeys, ukeys;	/* key -> first pend id */
	struct intern_map threads;	/* tid -> first pend id waiting */
	struct intern_strs strs;
	struct frame *frames;		/* by id - 1 */
	size_t nframes, frames_cap;
	struct intern_map frame_index;	/* (addr, pid) -> frame id */
	struct stack_tree tree;		/* frames are frame ids */
	struct run *runs;		/* by id - 1 */
	size_t nruns, runs_cap;
	uint64_t *run_addrs;		/* the runs' addresses, leaf first */
	uint32_t *run_frames;		/* and their frame ids */
	size_t run_len, run_addrs_cap, run_frames_cap;
	struct intern_map run_index;	/* (hash, 0) -> first run id */
	struct intern_map stack_index;	/* (user run, kernel run) -> node */
	uint64_t *tmp;			/* a record's addresses */
	size_t tmp_cap;
	uint64_t with_stack;
	uint64_t other_stacks;		/* of other events */
	uint32_t interval;		/* 100 ns */
	uint64_t first, last;		/* FILETIMEs of the records read */
	bool finished;
	struct sbuf sb;
};

struct stack_samples *stack_samples_new(struct stack_model *m)
{
	struct stack_samples *s = calloc(1, sizeof(*s));

	if (!s)
		stack_oom();
	s->model = m;
	s->interval = DEFAULT_INTERVAL;
	stack_tree_init(&s->tree);
	return s;
}

void stack_samples_free(struct stack_samples *s)
{
	if (!s)
		return;
	free(s->v);
	free(s->ev);
	free(s->pends);
	intern_map_free(&s->kkeys);
	intern_map_free(&s->ukeys);
	intern_map_free(&s->threads);
	intern_strs_free(&s->strs);
	free(s->frames);
	intern_map_free(&s->frame_index);
	stack_tree_free(&s->tree);
	free(s->runs);
	free(s->run_addrs);
	free(s->run_frames);
	intern_map_free(&s->run_index);
	intern_map_free(&s->stack_index);
	free(s->tmp);
	sb_free(&s->sb);
	free(s);
}

static void name_frame(struct stack_samples *s, struct frame *f)
{
	sb_reset(&s->sb);
	stack_model_frame(s->model, f->pid, f->addr, true, &s->sb);
	f->full = intern_str(&s->strs, s->sb.p);
	sb_reset(&s->sb);
	stack_model_frame(s->model, f->pid, f->addr, false, &s->sb);
	f->name = intern_str(&s->strs, s->sb.p);
	f->module = intern_str(&s->strs, stack_model_module(s->model, f->pid, f->addr));
}

static uint32_t frame_id(struct stack_samples *s, uint32_t pid, uint64_t addr)
{
	uint32_t *slot, id;
	struct frame *f;

	if (stack_model_is_kernel(s->model, addr))
		pid = 0;
	slot = intern_map_slot(&s->frame_index, addr, pid, true);
	if (*slot)
		return *slot;
	s->frames = intern_grow(s->frames, &s->frames_cap, s->nframes + 1, sizeof(*s->frames));
	f = &s->frames[s->nframes];
	memset(f, 0, sizeof(*f));
	f->addr = addr;
	f->pid = pid;
	/* Code nothing holds yet may be .NET code the rundown names. */
	if (s->finished || stack_model_knows(s->model, pid, addr))
		name_frame(s, f);
	id = (uint32_t)++s->nframes;
	*slot = id;
	return id;
}

/* The run of @st's frames in process @pid (frame ids by frame_id()). */
static uint32_t run_of(struct stack_samples *s, uint32_t pid,
		       const struct rec_stack *st)
{
	uint32_t n = st->nframes, *slot, id;
	uint64_t h = pid;
	struct run *r;

	s->tmp = intern_grow(s->tmp, &s->tmp_cap, n, sizeof(*s->tmp));
	rec_stack_frames(st, s->tmp);
	/* One multiply a frame; the last mix spreads it. */
	for (uint32_t i = 0; i < n; i++)
		h = (h ^ s->tmp[i]) * 0x100000001b3ull;
	h = intern_mix(h, n);
	slot = intern_map_slot(&s->run_index, h, 0, true);
	for (id = *slot; id; id = s->runs[id - 1].next) {
		r = &s->runs[id - 1];
		if (r->hash == h && r->pid == pid && r->n == n &&
		    !memcmp(s->run_addrs + r->off, s->tmp, n * sizeof(*s->tmp)))
			return id;
	}
	s->runs = intern_grow(s->runs, &s->runs_cap, s->nruns + 1, sizeof(*s->runs));
	s->run_addrs = intern_grow(s->run_addrs, &s->run_addrs_cap, s->run_len + n,
				   sizeof(*s->run_addrs));
	s->run_frames = intern_grow(s->run_frames, &s->run_frames_cap, s->run_len + n,
				    sizeof(*s->run_frames));
	r = &s->runs[s->nruns];
	r->hash = h;
	r->pid = pid;
	r->off = (uint32_t)s->run_len;
	r->n = n;
	r->next = *slot;
	*slot = (uint32_t)(r - s->runs) + 1;
	s->nruns++;
	memcpy(s->run_addrs + r->off, s->tmp, n * sizeof(*s->tmp));
	s->run_len += n;
	/* frame_id() does not touch the runs: r stays valid. */
	for (uint32_t i = 0; i < n; i++)
		s->run_frames[r->off + i] = frame_id(s, pid, s->tmp[i]);
	return *slot;
}

/* The leaf of a run's frames, outermost first, called from @node. */
static uint32_t push_run(struct stack_samples *s, uint32_t node, uint32_t run)
{
	const struct run *r;

	if (!run)
		return node;
	r = &s->runs[run - 1];
	for (uint32_t i = r->n; i-- > 0;)
		node = stack_tree_child(&s->tree, node, s->run_frames[r->off + i]);
	return node;
}

/* The leaf of a user part under a kernel part (either may be 0: none). */
static uint32_t stack_of(struct stack_samples *s, uint32_t urun, uint32_t krun)
{
	uint32_t *slot = intern_map_slot(&s->stack_index, urun, krun, true);

	/* The tree is not stack_index: slot stays valid. */
	if (!*slot)
		*slot = push_run(s, push_run(s, 0, urun), krun);
	return *slot;
}

static struct pend *pend_of(struct stack_samples *s, uint32_t id)
{
	return &s->pends[id - 1];
}

static struct pend *new_pend(struct stack_samples *s, struct sample *sa)
{
	uint32_t id = s->free_pend;
	struct pend *p;

	if (id) {
		p = pend_of(s, id);
		s->free_pend = p->next_k;
	} else {
		s->pends = intern_grow(s->pends, &s->pends_cap, s->npends + 1, sizeof(*s->pends));
		p = &s->pends[s->npends];
		memset(p, 0, sizeof(*p));
		id = (uint32_t)++s->npends;
	}
	p->event = sa->event;
	p->sample = (uint32_t)(sa - (sa->event ? s->ev : s->v));
	p->pid = UINT32_MAX;
	p->flags = 0;
	p->next_k = p->next_u = p->next_t = 0;
	p->krun = p->urun = 0;
	sa->pend = id;
	return p;
}

static struct sample *owner(struct stack_samples *s, const struct pend *p)
{
	return p->event ? &s->ev[p->sample] : &s->v[p->sample];
}

static uint32_t sample_pid(struct stack_samples *s, const struct sample *sa,
			   const struct pend *p)
{
	if (p && p->pid != UINT32_MAX)
		return p->pid;
	return sa->pub.tid ? stack_model_thread_pid(s->model, sa->pub.tid) : 0;
}

/* The frame of a sampled address: its stack's leaf, as a rule. */
static uint32_t ip_frame(struct stack_samples *s, uint32_t pid, uint64_t ip,
			 uint32_t leaf)
{
	uint32_t id = leaf ? s->tree.frame[leaf] : 0;
	const struct frame *f = id ? &s->frames[id - 1] : NULL;

	if (f && f->addr == ip &&
	    f->pid == (stack_model_is_kernel(s->model, ip) ? 0 : pid))
		return id;
	return frame_id(s, pid, ip);
}

/* Count a sample: intern its stack, root first; free its pend. */
static void complete(struct stack_samples *s, struct sample *sa)
{
	struct pend *p = sa->pend ? pend_of(s, sa->pend) : NULL;
	uint32_t pid = sample_pid(s, sa, p), node = 0;

	sa->pub.pid = pid;
	sa->done = true;
	if (p && (p->krun || p->urun)) {
		node = stack_of(s, p->urun, p->krun);
		sa->pub.has_stack = true;
		s->with_stack += !sa->event;
	} else if (!sa->event) {
		node = stack_tree_child(&s->tree, 0, frame_id(s, pid, sa->ip));
	}
	if (!sa->event)
		sa->ip_frame = ip_frame(s, pid, sa->ip, node);
	sa->pub.stack = node;
	if (p) {
		p->next_k = s->free_pend;
		s->free_pend = sa->pend;
		sa->pend = 0;
	}
}

/* A sample with a stack waiting for nothing more is counted. */
static void try_complete(struct stack_samples *s, struct sample *sa)
{
	struct pend *p = sa->pend ? pend_of(s, sa->pend) : NULL;

	if (!p || sa->done || !(p->flags & (P_KERNEL | P_USER)) ||
	    p->flags & (P_WAIT_KKEY | P_WAIT_UKEY | P_ON_THREAD))
		return;
	complete(s, sa);
}

/*
 * The sample a stack of (@ts, @tid) belongs to, or NULL: samples are in
 * time order, so the search goes back only over those not older than it
 * (a user stack given when the thread left the kernel names a sample some
 * milliseconds back), and at most MATCH_WINDOW samples (a damaged
 * timestamp costs no more).  One already counted takes no more frames.
 */
static struct sample *match_in(struct sample *v, size_t n, uint64_t ts,
				uint32_t tid)
{
	size_t stop = n > MATCH_WINDOW ? n - MATCH_WINDOW : 0;

	for (size_t i = n; i-- > stop;) {
		struct sample *sa = &v[i];

		if (sa->pub.timestamp < ts)
			break;
		if (sa->pub.timestamp == ts && sa->pub.tid == tid)
			return sa->done ? NULL : sa;
	}
	return NULL;
}

/* A sample's first, then another event's. */
static struct sample *match(struct stack_samples *s, uint64_t ts, uint32_t tid)
{
	struct sample *sa = match_in(s->v, s->n, ts, tid);

	return sa ? sa : match_in(s->ev, s->nev, ts, tid);
}

static struct pend *pend_for(struct stack_samples *s, struct sample *sa,
			     uint32_t pid)
{
	struct pend *p = sa->pend ? pend_of(s, sa->pend) : new_pend(s, sa);

	if (p->pid == UINT32_MAX)
		p->pid = pid;
	return p;
}

/* A kernel part of @p's sample: it waits for its thread's user part. */
static void wait_on_thread(struct stack_samples *s, struct pend *p, uint32_t tid)
{
	uint32_t *head, id = (uint32_t)(p - s->pends) + 1;

	if (p->pid == 0 || p->pid == 4) {
		/* The idle and System processes have no user stacks. */
		p->flags |= P_USER;
		return;
	}
	head = intern_map_slot(&s->threads, tid, 0, true);
	list_push(head, &p->next_t, id);
	p->flags |= P_ON_THREAD;
}

/*
 * The thread left the kernel: its waiting kernel parts get this user
 * part, frames (@st) or a key.  Returns whether @target was among them.
 */
static bool user_part_for_thread(struct stack_samples *s, uint32_t tid,
				 const struct rec_stack *st, uint64_t key,
				 struct pend *target)
{
	uint32_t id = list_take(intern_map_slot(&s->threads, tid, 0, false));
	bool found = false;

	while (id) {
		struct pend *p = pend_of(s, id);
		uint32_t next = p->next_t;
		struct sample *sa = owner(s, p);

		p->flags &= ~P_ON_THREAD;
		p->next_t = 0;
		found |= p == target;
		if (!(p->flags & (P_USER | P_WAIT_UKEY))) {
			if (st) {
				p->urun = run_of(s, p->pid, st);
				p->flags |= P_USER;
			} else {
				list_push(intern_map_slot(&s->ukeys, key, 0, true),
					  &p->next_u, id);
				p->flags |= P_WAIT_UKEY;
			}
		}
		try_complete(s, sa);
		id = next;
	}
	return found;
}

size_t stack_samples_add_event(struct stack_samples *s,
			       const struct etw_etl_event *ev, uint32_t tid)
{
	struct sample *sa;

	s->ev = intern_grow(s->ev, &s->ev_cap, s->nev + 1, sizeof(*s->ev));
	sa = &s->ev[s->nev];
	memset(sa, 0, sizeof(*sa));
	sa->pub.time = ev->filetime;
	sa->pub.tid = tid;
	sa->pub.cpu = ev->processor;
	sa->pub.timestamp = ev->timestamp;
	sa->event = true;
	return s->nev++;
}

uint32_t stack_samples_event_stack(const struct stack_samples *s, size_t i)
{
	return s->ev[i].pub.stack;
}

uint32_t stack_samples_intern(struct stack_samples *s, uint32_t pid,
			      const struct rec_stack *st)
{
	return st->nframes ? stack_of(s, run_of(s, pid, st), 0) : 0;
}

static void on_stack_walk(struct stack_samples *s, const struct etw_etl_event *ev)
{
	struct rec_stack st;
	struct sample *sa;
	struct pend *p = NULL;
	bool kernel;

	if (!stack_model_stack(s->model, ev, &st) || !st.nframes)
		return;
	if (st.tid)
		stack_model_set_thread(s->model, st.tid, st.pid);
	kernel = stack_model_is_kernel(s->model, rec_stack_frame(&st, st.nframes - 1));
	sa = match(s, st.timestamp, st.tid);
	if (sa)
		p = pend_for(s, sa, st.pid);
	else
		s->other_stacks++;
	if (kernel) {
		if (!p || p->flags & (P_KERNEL | P_WAIT_KKEY))
			return;
		p->krun = run_of(s, 0, &st);
		p->flags |= P_KERNEL;
		wait_on_thread(s, p, st.tid);
		return;
	}
	/* A stack that starts in user mode: where the thread left the kernel. */
	if (!stack_model_is_kernel(s->model, rec_stack_frame(&st, 0)) &&
	    user_part_for_thread(s, st.tid, &st, 0, p))
		return;
	if (p && !(p->flags & (P_USER | P_WAIT_UKEY))) {
		p->urun = run_of(s, st.pid, &st);
		p->flags |= P_USER;
		try_complete(s, sa);
	}
}

static void on_stack_key(struct stack_samples *s, const struct etw_etl_event *ev,
			 bool kernel)
{
	struct rec_stack_ref r;
	struct sample *sa;
	struct pend *p = NULL;
	uint32_t id;

	if (!rec_parse_stack_ref(ev, &r))
		return;
	if (r.tid)
		stack_model_set_thread(s->model, r.tid, r.pid);
	sa = match(s, r.timestamp, r.tid);
	if (sa)
		p = pend_for(s, sa, r.pid);
	else
		s->other_stacks++;
	if (kernel) {
		if (!p || p->flags & (P_KERNEL | P_WAIT_KKEY))
			return;
		id = (uint32_t)(p - s->pends) + 1;
		list_push(intern_map_slot(&s->kkeys, r.key, 0, true), &p->next_k, id);
		p->flags |= P_WAIT_KKEY;
		wait_on_thread(s, p, r.tid);
		return;
	}
	if (user_part_for_thread(s, r.tid, NULL, r.key, p) || !p ||
	    p->flags & (P_USER | P_WAIT_UKEY))
		return;
	id = (uint32_t)(p - s->pends) + 1;
	list_push(intern_map_slot(&s->ukeys, r.key, 0, true), &p->next_u, id);
	p->flags |= P_WAIT_UKEY;
}

/* A key's frames: every sample waiting for that key gets them. */
static void on_stack_def(struct stack_samples *s, const struct etw_etl_event *ev)
{
	struct rec_stack st;
	uint64_t key;
	uint32_t id;
	bool kernel;

	if (!rec_parse_stack_def(ev, &st, &key) || !st.nframes)
		return;
	kernel = stack_model_is_kernel(s->model, rec_stack_frame(&st, st.nframes - 1));
	id = list_take(intern_map_slot(kernel ? &s->kkeys : &s->ukeys, key, 0, false));
	while (id) {
		struct pend *p = pend_of(s, id);
		uint32_t next = kernel ? p->next_k : p->next_u;

		if (kernel) {
			p->krun = run_of(s, 0, &st);
			p->flags = (uint8_t)((p->flags & ~P_WAIT_KKEY) | P_KERNEL);
			p->next_k = 0;
		} else {
			p->urun = run_of(s, p->pid, &st);
			p->flags = (uint8_t)((p->flags & ~P_WAIT_UKEY) | P_USER);
			p->next_u = 0;
		}
		try_complete(s, owner(s, p));
		id = next;
	}
}

static void on_sample(struct stack_samples *s, const struct etw_etl_event *ev)
{
	struct rec_sample rs;
	struct sample *sa;

	if (!rec_parse_sample(ev, &rs))
		return;
	s->v = intern_grow(s->v, &s->cap, s->n + 1, sizeof(*s->v));
	sa = &s->v[s->n];
	memset(sa, 0, sizeof(*sa));
	sa->pub.time = ev->filetime;
	sa->pub.tid = rs.tid;
	sa->pub.cpu = ev->processor;
	sa->pub.timestamp = ev->timestamp;
	sa->ip = rs.ip;
	s->n++;
}

void stack_samples_event(struct stack_samples *s, const struct etw_etl_event *ev)
{
	uint32_t interval;

	if (ev->filetime) {
		if (!s->first || ev->filetime < s->first)
			s->first = ev->filetime;
		if (ev->filetime > s->last)
			s->last = ev->filetime;
	}
	if (!(ev->has & ETW_ETL_HAS_HOOK))
		return;
	switch (ev->hook_id) {
	case HOOK_SAMPLED_PROFILE:
		on_sample(s, ev);
		break;
	case HOOK_STACK_WALK:
		on_stack_walk(s, ev);
		break;
	case HOOK_STACK_KEY_KERNEL:
	case HOOK_STACK_KEY_USER:
		on_stack_key(s, ev, ev->hook_id == HOOK_STACK_KEY_KERNEL);
		break;
	case HOOK_STACK_KEY_CREATE:
	case HOOK_STACK_KEY_DELETE:
	case HOOK_STACK_KEY_RUNDOWN:
		on_stack_def(s, ev);
		break;
	case HOOK_SET_INTERVAL:
	case HOOK_COLLECTION_START:
		if (rec_parse_interval(ev, &interval) && interval)
			s->interval = interval;
		break;
	default:
		break;
	}
}

void stack_samples_finish(struct stack_samples *s)
{
	if (s->finished)
		return;
	/* Nothing more comes: each sample is counted with what it has. */
	for (size_t i = 0; i < s->n + s->nev; i++) {
		struct sample *sa = i < s->n ? &s->v[i] : &s->ev[i - s->n];

		if (sa->pend)
			pend_of(s, sa->pend)->flags = 0;
		if (!sa->done)
			complete(s, sa);
	}
	s->finished = true;
	for (size_t i = 0; i < s->nframes; i++)
		if (!s->frames[i].full)
			name_frame(s, &s->frames[i]);
}

struct stack_model *stack_samples_model(const struct stack_samples *s)
{
	return s->model;
}

uint64_t stack_samples_count(const struct stack_samples *s)
{
	return s->n;
}

uint64_t stack_samples_with_stack(const struct stack_samples *s)
{
	return s->with_stack;
}

uint64_t stack_samples_other_stacks(const struct stack_samples *s)
{
	return s->other_stacks;
}

const struct stack_sample *stack_samples_get(const struct stack_samples *s, size_t i)
{
	return &s->v[i].pub;
}

uint32_t stack_samples_caller(const struct stack_samples *s, uint32_t stack)
{
	return s->tree.parent[stack];
}

uint32_t stack_samples_nstacks(const struct stack_samples *s)
{
	return (uint32_t)s->tree.n;
}

static const struct frame *frame_of(const struct stack_samples *s, uint32_t stack)
{
	return &s->frames[s->tree.frame[stack] - 1];
}

const char *stack_samples_frame(const struct stack_samples *s, uint32_t stack,
				bool offset)
{
	const struct frame *f = frame_of(s, stack);

	return intern_str_of(&s->strs, offset ? f->full : f->name);
}

uint64_t stack_samples_address(const struct stack_samples *s, uint32_t stack)
{
	return frame_of(s, stack)->addr;
}

uint32_t stack_samples_frame_id(const struct stack_samples *s, uint32_t stack)
{
	return s->tree.frame[stack];
}

uint32_t stack_samples_function(const struct stack_samples *s, uint32_t stack)
{
	return frame_of(s, stack)->name;
}

uint32_t stack_samples_module(const struct stack_samples *s, uint32_t stack)
{
	return frame_of(s, stack)->module;
}

uint32_t stack_samples_ip_module(const struct stack_samples *s, size_t i)
{
	return s->frames[s->v[i].ip_frame - 1].module;
}

const char *stack_samples_string(const struct stack_samples *s, uint32_t id)
{
	return intern_str_of(&s->strs, id);
}

uint32_t stack_samples_nstrings(const struct stack_samples *s)
{
	return (uint32_t)s->strs.n + 1;
}

uint32_t stack_samples_interval(const struct stack_samples *s)
{
	return s->interval;
}

void stack_samples_range(const struct stack_samples *s, uint64_t *first,
			 uint64_t *last)
{
	*first = s->first;
	*last = s->last;
}
