// SPDX-License-Identifier: GPL-2.0
/*
 * CPU samples and their stacks, counted.  A SampledProfile record waits on
 * its processor until its StackWalk comes: the stack whose EventTimeStamp
 * and thread are the sample's (as Windows' tools match them); a second
 * one for the same sample (Windows writes kernel and user parts apart) is
 * appended.  The next sample on that processor, or the end, closes it; a
 * sample with no stack counts as its instruction pointer alone.  Stacks
 * that belong to no sample (those of other kernel events) are counted
 * apart.
 */
#include <inttypes.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "etw.h"
#include "model/stack.h"

/* A string -> count map, open addressing. */
struct count_entry {
	char *key;
	uint64_t count;
};

struct counts {
	struct count_entry *v;
	size_t cap;			/* a power of 2 */
	size_t n;
};

struct pending {
	bool valid;
	uint64_t timestamp;
	uint32_t tid;
	uint32_t pid;			/* from the stack, else UINT32_MAX */
	uint64_t ip;
	uint64_t *frames;
	size_t nframes;
	size_t cap;
};

struct stack_samples {
	struct stack_model *model;
	struct pending *cpus;
	size_t ncpus;
	uint64_t samples;
	uint64_t with_stack;
	uint64_t other_stacks;		/* of other events */
	struct counts hot;		/* "process (pid)\nframe\nframe..." */
	struct counts folded;		/* "process;root;...;leaf" */
	struct counts processes;	/* "process (pid)" */
	struct counts modules;
	struct sbuf key, fold, frame;
};

static void oom(void)
{
	etw_error("out of memory");
	exit(1);
}

static uint64_t str_hash(const char *s)
{
	uint64_t h = 1469598103934665603ull;	/* FNV-1a */

	for (; *s; s++)
		h = (h ^ (uint8_t)*s) * 1099511628211ull;
	return h;
}

static void counts_add(struct counts *c, const char *key, uint64_t n)
{
	size_t i;

	if (2 * (c->n + 1) > c->cap) {
		struct counts big = { .cap = c->cap ? 2 * c->cap : 256 };

		big.v = calloc(big.cap, sizeof(*big.v));
		if (!big.v)
			oom();
		for (i = 0; i < c->cap; i++) {
			size_t j;

			if (!c->v[i].key)
				continue;
			for (j = str_hash(c->v[i].key) & (big.cap - 1); big.v[j].key;
			     j = (j + 1) & (big.cap - 1))
				;
			big.v[j] = c->v[i];
			big.n++;
		}
		free(c->v);
		*c = big;
	}
	for (i = str_hash(key) & (c->cap - 1); c->v[i].key;
	     i = (i + 1) & (c->cap - 1))
		if (!strcmp(c->v[i].key, key)) {
			c->v[i].count += n;
			return;
		}
	c->v[i].key = strdup(key);
	if (!c->v[i].key)
		oom();
	c->v[i].count = n;
	c->n++;
}

static void counts_free(struct counts *c)
{
	for (size_t i = 0; i < c->cap; i++)
		free(c->v[i].key);
	free(c->v);
}

static int by_count(const void *a, const void *b)
{
	const struct count_entry *x = a, *y = b;

	if (x->count != y->count)
		return x->count < y->count ? 1 : -1;
	return strcmp(x->key, y->key);
}

/* The entries, most frequent first; *n of them.  Free the array only. */
static struct count_entry *counts_sorted(const struct counts *c, size_t *n)
{
	struct count_entry *v = calloc(c->n ? c->n : 1, sizeof(*v));
	size_t j = 0;

	if (!v)
		oom();
	for (size_t i = 0; i < c->cap; i++)
		if (c->v[i].key)
			v[j++] = c->v[i];
	qsort(v, j, sizeof(*v), by_count);
	*n = j;
	return v;
}

struct stack_samples *stack_samples_new(struct stack_model *m)
{
	struct stack_samples *s = calloc(1, sizeof(*s));

	if (!s)
		oom();
	s->model = m;
	return s;
}

void stack_samples_free(struct stack_samples *s)
{
	if (!s)
		return;
	for (size_t i = 0; i < s->ncpus; i++)
		free(s->cpus[i].frames);
	free(s->cpus);
	counts_free(&s->hot);
	counts_free(&s->folded);
	counts_free(&s->processes);
	counts_free(&s->modules);
	sb_free(&s->key);
	sb_free(&s->fold);
	sb_free(&s->frame);
	free(s);
}

static struct pending *cpu_slot(struct stack_samples *s, uint16_t cpu)
{
	if (cpu >= s->ncpus) {
		size_t n = (size_t)cpu + 1;

		s->cpus = realloc(s->cpus, n * sizeof(*s->cpus));
		if (!s->cpus)
			oom();
		memset(s->cpus + s->ncpus, 0, (n - s->ncpus) * sizeof(*s->cpus));
		s->ncpus = n;
	}
	return &s->cpus[cpu];
}

/* Folded stacks split frames at ';' and the count at the last space. */
static void put_folded_name(struct sbuf *sb, const char *name)
{
	for (; *name; name++)
		sb_putc(sb, *name == ';' || *name == '\n' ? '_' : *name);
}

static void process_label(struct stack_samples *s, uint32_t pid, struct sbuf *sb)
{
	const char *name = pid == UINT32_MAX ? "" :
			   stack_model_process_name(s->model, pid);

	if (*name)
		sb_printf(sb, "%s", name);
	else if (pid == 0)
		sb_printf(sb, "Idle");
	else if (pid == UINT32_MAX)
		sb_printf(sb, "Process(?)");
	else
		sb_printf(sb, "Process(%u)", pid);
}

static void close_sample(struct stack_samples *s, struct pending *p)
{
	uint32_t pid = p->pid;
	const uint64_t *frames = p->frames;
	size_t n = p->nframes;

	p->valid = false;
	if (pid == UINT32_MAX)
		pid = p->tid ? stack_model_thread_pid(s->model, p->tid) : 0;
	if (!n) {
		frames = &p->ip;
		n = 1;
	} else {
		s->with_stack++;
	}
	sb_reset(&s->key);
	process_label(s, pid, &s->key);
	if (pid != UINT32_MAX)
		sb_printf(&s->key, " (%u)", pid);
	counts_add(&s->processes, s->key.p, 1);
	counts_add(&s->modules, stack_model_module(s->model, pid, p->ip), 1);

	sb_reset(&s->fold);
	sb_reset(&s->frame);
	process_label(s, pid, &s->frame);
	put_folded_name(&s->fold, s->frame.p);
	for (size_t i = n; i-- > 0;) {
		sb_reset(&s->frame);
		stack_model_frame(s->model, pid, frames[i], false, &s->frame);
		sb_putc(&s->fold, ';');
		put_folded_name(&s->fold, s->frame.p);
	}
	counts_add(&s->folded, s->fold.p, 1);

	for (size_t i = 0; i < n; i++) {
		sb_putc(&s->key, '\n');
		stack_model_frame(s->model, pid, frames[i], true, &s->key);
	}
	counts_add(&s->hot, s->key.p, 1);
}

static void add_frames(struct pending *p, const struct rec_stack *st)
{
	if (p->nframes + st->nframes > p->cap) {
		p->cap = p->nframes + st->nframes + 16;
		p->frames = realloc(p->frames, p->cap * sizeof(*p->frames));
		if (!p->frames)
			oom();
	}
	for (uint32_t i = 0; i < st->nframes; i++)
		p->frames[p->nframes++] = rec_stack_frame(st, i);
}

static struct pending *match(struct stack_samples *s, uint16_t cpu,
			     const struct rec_stack *st)
{
	struct pending *p = cpu < s->ncpus ? &s->cpus[cpu] : NULL;

	if (p && p->valid && p->timestamp == st->timestamp && p->tid == st->tid)
		return p;
	/* Its own processor first; then any (a reordered file). */
	for (size_t i = 0; i < s->ncpus; i++) {
		p = &s->cpus[i];
		if (p->valid && p->timestamp == st->timestamp && p->tid == st->tid)
			return p;
	}
	return NULL;
}

void stack_samples_event(struct stack_samples *s, const struct etw_etl_event *ev)
{
	struct rec_sample rs;
	struct rec_stack st;
	struct pending *p;

	if (!(ev->has & ETW_ETL_HAS_HOOK))
		return;
	if (ev->hook_id == HOOK_SAMPLED_PROFILE && rec_parse_sample(ev, &rs)) {
		p = cpu_slot(s, ev->processor);
		if (p->valid)
			close_sample(s, p);
		p->valid = true;
		p->timestamp = ev->timestamp;
		p->tid = rs.tid;
		p->ip = rs.ip;
		p->pid = UINT32_MAX;
		p->nframes = 0;
		s->samples++;
	} else if (ev->hook_id == HOOK_STACK_WALK && rec_parse_stack(ev, &st)) {
		if (st.tid)
			stack_model_set_thread(s->model, st.tid, st.pid);
		p = match(s, ev->processor, &st);
		if (!p) {
			s->other_stacks++;
			return;
		}
		p->pid = st.pid;
		add_frames(p, &st);
	}
}

void stack_samples_finish(struct stack_samples *s)
{
	for (size_t i = 0; i < s->ncpus; i++)
		if (s->cpus[i].valid)
			close_sample(s, &s->cpus[i]);
}

uint64_t stack_samples_count(const struct stack_samples *s)
{
	return s->samples;
}

static double share(uint64_t n, uint64_t total)
{
	return total ? 100.0 * (double)n / (double)total : 0.0;
}

static void totals(struct stack_samples *s, FILE *out)
{
	fprintf(out, "CPU samples: %" PRIu64 " (%" PRIu64 " with a stack, %" PRIu64
		" without); stacks of other events: %" PRIu64 "\n",
		s->samples, s->with_stack, s->samples - s->with_stack,
		s->other_stacks);
}

void stack_samples_print_hot(struct stack_samples *s, FILE *out, unsigned int top)
{
	size_t n;
	struct count_entry *v = counts_sorted(&s->hot, &n);

	fprintf(out, "Hottest stacks (leaf first):\n");
	for (size_t i = 0; i < n && i < top; i++) {
		const char *k = v[i].key, *nl = strchr(k, '\n');

		fprintf(out, "\n  #%zu  %" PRIu64 " samples (%.1f%%)  %.*s\n", i + 1,
			v[i].count, share(v[i].count, s->samples),
			(int)(nl ? nl - k : (ptrdiff_t)strlen(k)), k);
		while (nl) {
			const char *next = strchr(nl + 1, '\n');

			fprintf(out, "      %.*s\n",
				(int)(next ? next - nl - 1 : (ptrdiff_t)strlen(nl + 1)),
				nl + 1);
			nl = next;
		}
	}
	free(v);
}

void stack_samples_print_folded(struct stack_samples *s, FILE *out)
{
	size_t n;
	struct count_entry *v = counts_sorted(&s->folded, &n);

	for (size_t i = 0; i < n; i++)
		fprintf(out, "%s %" PRIu64 "\n", v[i].key, v[i].count);
	free(v);
}

static void print_counts(struct stack_samples *s, FILE *out, const char *title,
			 const struct counts *c)
{
	size_t n;
	struct count_entry *v = counts_sorted(c, &n);

	fprintf(out, "\nCPU samples per %s:\n  %10s  %6s  %s\n", title, "samples",
		"share", title);
	for (size_t i = 0; i < n; i++)
		fprintf(out, "  %10" PRIu64 "  %5.1f%%  %s\n", v[i].count,
			share(v[i].count, s->samples), v[i].key);
	free(v);
}

void stack_samples_print_summary(struct stack_samples *s, FILE *out)
{
	totals(s, out);
	print_counts(s, out, "process", &s->processes);
	print_counts(s, out, "module", &s->modules);
}
