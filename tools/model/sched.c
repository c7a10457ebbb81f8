// SPDX-License-Identifier: GPL-2.0
/*
 * Context switches per thread, from CSwitch and ReadyThread: a thread runs
 * from the CSwitch that switches it in to the one that switches it out;
 * switched out Ready (preempted) it is ready until it runs again;
 * switched out Waiting it waits until a ReadyThread names it (the thread
 * then running on that CPU readied it), then is ready until it runs.  A
 * wait's stack is the StackWalk of a CSwitch whose stack thread is the
 * waiting one: of the switch out (the kernel logger here walks the thread
 * leaving the CPU) or of the switch in (Windows walks the thread coming
 * in, whose stack is where it waited; joined by model/samples.c as a
 * sample's is, cached or split).  Intervals the trace does not close
 * (before the first or after the last switch) are not counted.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "etw.h"
#include "model/stack.h"

/* A wait: from switching out waiting to being readied (or run). */
struct wait {
	uint32_t tid;
	uint64_t start, end;		/* FILETIMEs */
	uint64_t ran;			/* switched in */
	uint64_t in_ts;			/* raw timestamp of the switch in */
	uint32_t readied_by;		/* tid + 1, 0 if not readied */
	uint32_t stack;
	uint32_t in_event;		/* the switch in's stack_samples event + 1 */
	uint8_t reason;
};

struct thread {
	uint32_t tid;
	bool running, waiting, ready;
	uint64_t since;			/* of the state above (FILETIME) */
	uint64_t wait_start;		/* when it switched out waiting */
	uint64_t out_ts;		/* raw timestamp of that CSwitch */
	uint32_t wait_stack;
	uint8_t wait_reason;
	uint32_t readied_by;		/* tid + 1, 0 if not readied */
	uint64_t readied_at;
	uint64_t run, ready_time, wait_time, max_wait;
	uint64_t switches;		/* times switched in */
	struct wait last;		/* its last wait, until its stack may come */
	bool has_last;
};


struct stack_sched {
	struct stack_samples *samples;
	struct thread *threads;		/* sorted by tid when printed */
	size_t nthreads, cap;
	uint32_t *index;		/* tid -> thread + 1, open addressing */
	uint32_t *index_keys;
	size_t index_cap;
	uint32_t *cpu_thread;		/* tid running on each CPU */
	size_t ncpus;
	struct wait *waits;		/* the longest ones, longest first */
	size_t nwaits, max_waits;
	uint64_t switches;
	uint64_t first;
};

struct stack_sched *stack_sched_new(struct stack_samples *s, unsigned int waits)
{
	struct stack_sched *c = calloc(1, sizeof(*c));

	if (!c)
		stack_oom();
	c->samples = s;
	c->max_waits = waits ? waits : 1;
	c->waits = calloc(c->max_waits, sizeof(*c->waits));
	if (!c->waits)
		stack_oom();
	return c;
}

void stack_sched_free(struct stack_sched *c)
{
	if (!c)
		return;
	free(c->threads);
	free(c->index);
	free(c->index_keys);
	free(c->cpu_thread);
	free(c->waits);
	free(c);
}

static size_t tid_hash(uint32_t tid, size_t cap)
{
	return (size_t)(tid * 2654435761u) & (cap - 1);
}

static struct thread *thread_of(struct stack_sched *c, uint32_t tid)
{
	size_t i;

	if (2 * (c->nthreads + 1) > c->index_cap) {
		size_t cap = c->index_cap ? 2 * c->index_cap : 256;
		uint32_t *v = calloc(cap, sizeof(*v)), *k = calloc(cap, sizeof(*k));

		if (!v || !k)
			stack_oom();
		for (size_t j = 0; j < c->index_cap; j++) {
			if (!c->index[j])
				continue;
			for (i = tid_hash(c->index_keys[j], cap); v[i]; i = (i + 1) & (cap - 1))
				;
			v[i] = c->index[j];
			k[i] = c->index_keys[j];
		}
		free(c->index);
		free(c->index_keys);
		c->index = v;
		c->index_keys = k;
		c->index_cap = cap;
	}
	for (i = tid_hash(tid, c->index_cap); c->index[i]; i = (i + 1) & (c->index_cap - 1))
		if (c->index_keys[i] == tid)
			return &c->threads[c->index[i] - 1];
	if (c->nthreads == c->cap) {
		c->cap = c->cap ? 2 * c->cap : 256;
		c->threads = realloc(c->threads, c->cap * sizeof(*c->threads));
		if (!c->threads)
			stack_oom();
	}
	memset(&c->threads[c->nthreads], 0, sizeof(*c->threads));
	c->threads[c->nthreads].tid = tid;
	c->index[i] = (uint32_t)++c->nthreads;
	c->index_keys[i] = tid;
	return &c->threads[c->nthreads - 1];
}

/* Keep the longest waits, longest first (ties: the earlier first). */
static void keep_wait(struct stack_sched *c, const struct wait *w)
{
	uint64_t len = w->end - w->start;
	size_t i = c->nwaits;

	if (i == c->max_waits) {
		const struct wait *last = &c->waits[i - 1];

		if (last->end - last->start >= len)
			return;
		i--;
	} else {
		c->nwaits++;
	}
	for (; i > 0 && c->waits[i - 1].end - c->waits[i - 1].start < len; i--)
		c->waits[i] = c->waits[i - 1];
	c->waits[i] = *w;
}

static uint32_t *cpu_slot(struct stack_sched *c, uint16_t cpu)
{
	if (cpu >= c->ncpus) {
		c->cpu_thread = realloc(c->cpu_thread, ((size_t)cpu + 1) * sizeof(uint32_t));
		if (!c->cpu_thread)
			stack_oom();
		memset(c->cpu_thread + c->ncpus, 0,
		       ((size_t)cpu + 1 - c->ncpus) * sizeof(uint32_t));
		c->ncpus = (size_t)cpu + 1;
	}
	return &c->cpu_thread[cpu];
}

static void switch_in(struct stack_sched *c, uint32_t tid, uint64_t now,
		      uint64_t ts, uint32_t in_event)
{
	struct thread *t = thread_of(c, tid);

	if (t->waiting || t->ready) {
		if (t->waiting) {
			/* Never readied in the trace: it waited until now. */
			t->wait_time += now - t->since;
		} else {
			t->ready_time += now - t->since;
		}
		if (t->wait_start) {
			struct wait w = {
				.tid = tid, .start = t->wait_start,
				.end = t->readied_by ? t->readied_at : now,
				.ran = now, .in_ts = ts, .readied_by = t->readied_by,
				.stack = t->wait_stack, .in_event = in_event,
				.reason = t->wait_reason,
			};

			if (w.end - w.start > t->max_wait)
				t->max_wait = w.end - w.start;
			/* Kept once the stack of this switch had its chance. */
			if (t->has_last)
				keep_wait(c, &t->last);
			t->last = w;
			t->has_last = true;
		}
	}
	t->running = true;
	t->waiting = t->ready = false;
	t->wait_start = 0;
	t->readied_by = 0;
	t->wait_stack = 0;
	t->since = now;
	t->switches++;
}

static void switch_out(struct stack_sched *c, uint32_t tid, uint64_t now,
		       uint64_t ts, const struct rec_cswitch *r)
{
	struct thread *t = thread_of(c, tid);

	if (t->running)
		t->run += now - t->since;
	t->running = false;
	t->since = now;
	t->out_ts = ts;
	t->wait_stack = 0;
	t->readied_by = 0;
	if (r->old_state == THREAD_STATE_WAITING) {
		t->waiting = true;
		t->wait_start = now;
		t->wait_reason = r->old_wait_reason;
	} else if (r->old_state != THREAD_STATE_TERMINATED) {
		t->ready = true;
		t->readied_at = now;
		t->wait_start = 0;
	}
}

static void on_ready(struct stack_sched *c, const struct etw_etl_event *ev)
{
	struct rec_ready_thread rt;
	uint32_t tid, by;
	struct thread *t;

	if (!rec_parse_ready_thread(ev, &rt))
		return;
	tid = rt.tid;
	/* PERFINFO records name no thread: the one running on the CPU did it. */
	by = ev->thread_id && ev->thread_id != UINT32_MAX &&
	     ev->kind == ETW_ETL_KIND_SYSTEM ? ev->thread_id :
	     *cpu_slot(c, ev->processor);
	t = thread_of(c, tid);
	if (!t->waiting)
		return;
	t->wait_time += ev->filetime - t->since;
	t->waiting = false;
	t->ready = true;
	t->since = ev->filetime;
	t->readied_at = ev->filetime;
	t->readied_by = by + 1;
}

/* A CSwitch's stack: the waiting thread's, at either end of its wait. */
static void on_stack(struct stack_sched *c, const struct etw_etl_event *ev)
{
	struct rec_stack st;
	struct thread *t;

	if (!rec_parse_stack(ev, &st) || !st.nframes || !st.tid)
		return;
	t = thread_of(c, st.tid);
	if (t->waiting && t->out_ts == st.timestamp && !t->wait_stack) {
		t->wait_stack = stack_samples_intern(c->samples, st.pid, &st);
		return;
	}
	if (t->has_last && t->last.in_ts == st.timestamp && !t->last.stack)
		t->last.stack = stack_samples_intern(c->samples, st.pid, &st);
}

void stack_sched_event(struct stack_sched *c, const struct etw_etl_event *ev)
{
	struct rec_cswitch r;

	if (!(ev->has & ETW_ETL_HAS_HOOK))
		return;
	if (!c->first && ev->filetime)
		c->first = ev->filetime;
	switch (ev->hook_id) {
	case HOOK_CSWITCH:
		if (!rec_parse_cswitch(ev, &r))
			return;
		c->switches++;
		*cpu_slot(c, ev->processor) = r.new_tid;
		if (r.old_tid)
			switch_out(c, r.old_tid, ev->filetime, ev->timestamp, &r);
		/* Windows walks the thread switched in, cached or split. */
		if (r.new_tid)
			switch_in(c, r.new_tid, ev->filetime, ev->timestamp,
				  (uint32_t)stack_samples_add_event(c->samples, ev,
								    r.new_tid) + 1);
		break;
	case HOOK_READY_THREAD:
		on_ready(c, ev);
		break;
	case HOOK_STACK_WALK:
		on_stack(c, ev);
		break;
	default:
		break;
	}
}

/* "name (pid) tid N". */
static void thread_label(struct stack_sched *c, uint32_t tid, struct sbuf *sb)
{
	struct stack_model *m = stack_samples_model(c->samples);
	uint32_t pid = stack_model_thread_pid(m, tid);
	const char *name = pid == UINT32_MAX ? "" : stack_model_process_name(m, pid);

	if (pid == UINT32_MAX)
		sb_printf(sb, "Process(?) tid %u", tid);
	else if (*name)
		sb_printf(sb, "%s (%u) tid %u", name, pid, tid);
	else
		sb_printf(sb, "Process(%u) (%u) tid %u", pid, pid, tid);
}

static double ms(uint64_t t100ns)
{
	return (double)t100ns / 10000.0;
}

static int by_run(const void *a, const void *b)
{
	const struct thread *x = a, *y = b;

	if (x->run != y->run)
		return x->run < y->run ? 1 : -1;
	return x->tid < y->tid ? -1 : x->tid > y->tid;
}

void stack_sched_print(struct stack_sched *c, FILE *out, unsigned int top)
{
	struct sbuf sb = { 0 };
	size_t n = 0;

	for (size_t i = 0; i < c->nthreads; i++)
		if (c->threads[i].has_last) {
			keep_wait(c, &c->threads[i].last);
			c->threads[i].has_last = false;
		}
	if (c->nthreads)
		qsort(c->threads, c->nthreads, sizeof(*c->threads), by_run);
	/* The index is stale now: nothing is looked up after this. */
	fprintf(out, "Context switches: %" PRIu64 "\n\nThreads (ms):\n"
		"  %12s  %12s  %12s  %8s  %12s  %s\n", c->switches, "running",
		"ready", "waiting", "switches", "longest wait", "thread");
	for (size_t i = 0; i < c->nthreads && n < top; i++) {
		const struct thread *t = &c->threads[i];

		if (!t->tid)
			continue;
		sb_reset(&sb);
		thread_label(c, t->tid, &sb);
		fprintf(out, "  %12.3f  %12.3f  %12.3f  %8" PRIu64 "  %12.3f  %s\n",
			ms(t->run), ms(t->ready_time), ms(t->wait_time), t->switches,
			ms(t->max_wait), sb.p);
		n++;
	}
	fprintf(out, "\nLongest waits (ms; at: seconds from the first record):\n");
	for (size_t i = 0; i < c->nwaits && i < top; i++) {
		const struct wait *w = &c->waits[i];

		sb_reset(&sb);
		thread_label(c, w->tid, &sb);
		fprintf(out, "\n  #%zu  %.3f  %s  at %.6f  %s\n", i + 1,
			ms(w->end - w->start), sb.p,
			(double)(w->start - c->first) / 1e7,
			wait_reason_name(w->reason));
		if (w->readied_by) {
			sb_reset(&sb);
			thread_label(c, w->readied_by - 1, &sb);
			fprintf(out, "      readied by %s; ran %.3f later\n", sb.p,
				ms(w->ran - w->end));
		} else {
			fprintf(out, "      readied by no thread of the trace\n");
		}
		for (uint32_t k = w->stack ? w->stack : w->in_event ?
			stack_samples_event_stack(c->samples, w->in_event - 1) : 0;
		     k; k = stack_samples_caller(c->samples, k))
			fprintf(out, "      %s\n", stack_samples_frame(c->samples, k, true));
	}
	sb_free(&sb);
}
