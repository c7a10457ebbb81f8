// SPDX-License-Identifier: GPL-2.0
/*
 * What etw report prints of the CPU samples: per process, per module and
 * per function (exclusive: the leaf frame's; inclusive: anywhere in the
 * stack, once per sample), each row with PerfView's "When" column, the
 * callers and callees of one function, the hottest stacks and folded
 * stacks.  Everything is counted from the samples' interned stacks after
 * the trace is read.
 */
#include <inttypes.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "etw.h"
#include "model/stack.h"

#define WHEN_BUCKETS	32

static void *zalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size);

	if (!p)
		stack_oom();
	return p;
}

/* @x appended to @v (of *n, room for *cap), grown as needed. */
static uint32_t *push_u32(uint32_t *v, size_t *n, size_t *cap, uint32_t x)
{
	if (*n == *cap) {
		*cap = *cap ? 2 * *cap : 64;
		v = realloc(v, *cap * sizeof(*v));
		if (!v)
			stack_oom();
	}
	v[(*n)++] = x;
	return v;
}

static double share(uint64_t n, uint64_t total)
{
	return total ? 100.0 * (double)n / (double)total : 0.0;
}

/* A row: a key (string id or pid) and its counts. */
struct row {
	uint64_t key;
	const char *label;
	uint64_t exc, inc;		/* processes: samples, with a stack */
};

static int by_exc(const void *a, const void *b)
{
	const struct row *x = a, *y = b;

	if (x->exc != y->exc)
		return x->exc < y->exc ? 1 : -1;
	if (x->inc != y->inc)
		return x->inc < y->inc ? 1 : -1;
	return strcmp(x->label, y->label);
}

static int by_inc(const void *a, const void *b)
{
	const struct row *x = a, *y = b;

	if (x->inc != y->inc)
		return x->inc < y->inc ? 1 : -1;
	return strcmp(x->label, y->label);
}

/* Samples per stack (leaf); the caller frees it. */
static uint64_t *leaf_counts(const struct stack_samples *s)
{
	uint64_t *cnt = zalloc(stack_samples_nstacks(s), sizeof(*cnt));
	uint64_t n = stack_samples_count(s);

	for (size_t i = 0; i < n; i++)
		cnt[stack_samples_get(s, i)->stack]++;
	return cnt;
}

/*
 * PerfView's When: the trace's time in 32 buckets, each a character for
 * how much of one CPU the row's samples (interval each) took in it: '_'
 * none, '.' under 0.1 %, 'o' under 1 %, '0'-'9' in tenths, 'A' from 100 %
 * on, a letter more for each 10 % above, '*' from 350 %.
 */
struct when {
	uint64_t first, width;
	uint32_t interval;
};

static void when_init(const struct stack_samples *s, struct when *w)
{
	uint64_t last;

	stack_samples_range(s, &w->first, &last);
	w->width = (last - w->first + WHEN_BUCKETS - 1) / WHEN_BUCKETS;
	if (!w->width)
		w->width = 1;
	w->interval = stack_samples_interval(s);
}

static unsigned int when_bucket(const struct when *w, uint64_t time)
{
	uint64_t b = time > w->first ? (time - w->first) / w->width : 0;

	return b < WHEN_BUCKETS ? (unsigned int)b : WHEN_BUCKETS - 1;
}

static void when_string(const struct when *w, const uint32_t *buckets, char *out)
{
	for (unsigned int i = 0; i < WHEN_BUCKETS; i++) {
		double f = (double)buckets[i] * w->interval / (double)w->width;
		int tenths = (int)(f * 10);
		char c = '_';

		if (buckets[i]) {
			if (tenths >= 10)
				c = tenths - 10 < 25 ? (char)('A' + tenths - 10) : '*';
			else if (f < 0.001)
				c = '.';
			else if (f < 0.01)
				c = 'o';
			else
				c = (char)('0' + tenths);
		}
		out[i] = c;
	}
	out[WHEN_BUCKETS] = '\0';
}

void stack_samples_print_totals(struct stack_samples *s, FILE *out)
{
	uint64_t n = stack_samples_count(s), w = stack_samples_with_stack(s);

	fprintf(out, "CPU samples: %" PRIu64 " (%" PRIu64 " with a stack, %" PRIu64
		" without); stacks of other events: %" PRIu64 "\n",
		n, w, n - w, stack_samples_other_stacks(s));
}

/* "name (pid)" of a sample's process, as the tables show it. */
static void process_label(struct stack_samples *s, struct stack_model *m,
			  uint32_t pid, bool with_pid, struct sbuf *sb)
{
	const char *name = pid == UINT32_MAX ? "" : stack_model_process_name(m, pid);

	(void)s;
	if (*name)
		sb_printf(sb, "%s", name);
	else if (pid == 0)
		sb_printf(sb, "Idle");
	else if (pid == UINT32_MAX)
		sb_printf(sb, "Process(?)");
	else
		sb_printf(sb, "Process(%u)", pid);
	if (with_pid && pid != UINT32_MAX)
		sb_printf(sb, " (%u)", pid);
}

/* Processes of the samples, as rows keyed by pid, labels in @labels. */
static struct row *process_rows(struct stack_samples *s, struct stack_model *m,
				size_t *nrows, char ***labels)
{
	uint64_t n = stack_samples_count(s);
	struct row *rows = NULL;
	size_t nr = 0, cap = 0;
	struct sbuf sb = { 0 };

	for (size_t i = 0; i < n; i++) {
		const struct stack_sample *sa = stack_samples_get(s, i);
		uint32_t pid = sa->pid;
		size_t j;

		/* Few processes: a linear search, from the last one found. */
		for (j = nr; j-- > 0;)
			if (rows[j].key == pid)
				break;
		if (j == SIZE_MAX) {
			if (nr == cap) {
				cap = cap ? 2 * cap : 64;
				rows = realloc(rows, cap * sizeof(*rows));
				if (!rows)
					stack_oom();
			}
			j = nr++;
			memset(&rows[j], 0, sizeof(rows[j]));
			rows[j].key = pid;
		}
		rows[j].exc++;
		rows[j].inc += sa->has_stack;
	}
	*labels = zalloc(nr, sizeof(char *));
	for (size_t j = 0; j < nr; j++) {
		sb_reset(&sb);
		process_label(s, m, (uint32_t)rows[j].key, true, &sb);
		(*labels)[j] = strdup(sb.p);
		if (!(*labels)[j])
			stack_oom();
		rows[j].label = (*labels)[j];
	}
	sb_free(&sb);
	*nrows = nr;
	return rows;
}

void stack_samples_print_processes(struct stack_samples *s, FILE *out,
				   unsigned int top)
{
	uint64_t n = stack_samples_count(s);
	size_t nr, nall;
	char **labels, when[WHEN_BUCKETS + 1];
	struct row *rows = process_rows(s, stack_samples_model(s), &nall, &labels);
	uint32_t *buckets;
	struct when w;

	if (nall)
		qsort(rows, nall, sizeof(*rows), by_exc);
	nr = nall < top ? nall : top;
	when_init(s, &w);
	buckets = zalloc(nr * WHEN_BUCKETS, sizeof(*buckets));
	for (size_t i = 0; i < n; i++) {
		const struct stack_sample *sa = stack_samples_get(s, i);

		for (size_t j = 0; j < nr; j++)
			if (rows[j].key == sa->pid)
				buckets[j * WHEN_BUCKETS + when_bucket(&w, sa->time)]++;
	}
	fprintf(out, "\nCPU samples per process:\n  %10s  %6s  %10s  %-*s  %s\n",
		"samples", "share", "with stack", WHEN_BUCKETS, "when", "process");
	for (size_t j = 0; j < nr; j++) {
		when_string(&w, buckets + j * WHEN_BUCKETS, when);
		fprintf(out, "  %10" PRIu64 "  %5.1f%%  %10" PRIu64 "  %s  %s\n",
			rows[j].exc, share(rows[j].exc, n), rows[j].inc, when,
			rows[j].label);
	}
	free(buckets);
	for (size_t j = 0; j < nall; j++)
		free(labels[j]);
	free(labels);
	free(rows);
}

/*
 * Exclusive and inclusive counts per function (@modules false) or module
 * of the frames; rows by string id, most exclusive first; *nrows of them.
 */
static struct row *frame_rows(struct stack_samples *s, bool modules,
			      size_t *nrows)
{
	uint32_t nstacks = stack_samples_nstacks(s), nstr = stack_samples_nstrings(s);
	uint64_t *cnt = leaf_counts(s);
	uint32_t *stamp = zalloc(nstr, sizeof(*stamp));
	struct row *rows = zalloc(nstr, sizeof(*rows));
	size_t nr = 0;

	for (uint32_t leaf = 1; leaf < nstacks; leaf++) {
		if (!cnt[leaf])
			continue;
		rows[modules ? stack_samples_module(s, leaf) :
			       stack_samples_function(s, leaf)].exc += cnt[leaf];
		for (uint32_t n = leaf; n; n = stack_samples_caller(s, n)) {
			uint32_t id = modules ? stack_samples_module(s, n) :
						stack_samples_function(s, n);

			/* Once per stack, however often it recurses. */
			if (stamp[id] != leaf) {
				stamp[id] = leaf;
				rows[id].inc += cnt[leaf];
			}
		}
	}
	for (uint32_t id = 1; id < nstr; id++)
		if (rows[id].inc) {
			rows[nr] = rows[id];
			rows[nr].key = id;
			rows[nr].label = stack_samples_string(s, id);
			nr++;
		}
	qsort(rows, nr, sizeof(*rows), by_exc);
	free(stamp);
	free(cnt);
	*nrows = nr;
	return rows;
}

/*
 * The When strings of the first @nr rows (inclusive), by frame.  Which
 * rows a stack holds is found once per distinct stack (a list in @pool
 * from first[stack] - 1, ended by 0), not once per sample.
 */
static uint32_t *frame_buckets(struct stack_samples *s, bool modules,
			       const struct row *rows, size_t nr,
			       const struct when *w)
{
	uint32_t nstr = stack_samples_nstrings(s), nstacks = stack_samples_nstacks(s);
	uint32_t *rowof = zalloc(nstr, sizeof(*rowof));
	uint32_t *stamp = zalloc(nr + 1, sizeof(*stamp));
	uint32_t *buckets = zalloc(nr * WHEN_BUCKETS + 1, sizeof(*buckets));
	uint32_t *first = zalloc(nstacks, sizeof(*first)), *pool = NULL;
	size_t npool = 0, cap = 0;
	uint64_t n = stack_samples_count(s);

	for (size_t j = 0; j < nr; j++)
		rowof[rows[j].key] = (uint32_t)j + 1;
	for (size_t i = 0; i < n; i++) {
		const struct stack_sample *sa = stack_samples_get(s, i);
		unsigned int b = when_bucket(w, sa->time);
		uint32_t leaf = sa->stack;

		if (!first[leaf]) {
			first[leaf] = (uint32_t)npool + 1;
			for (uint32_t k = leaf; ; k = stack_samples_caller(s, k)) {
				uint32_t r = k ? rowof[modules ? stack_samples_module(s, k) :
						       stack_samples_function(s, k)] : 0;

				if (k && (!r || stamp[r] == leaf + 1))
					continue;
				pool = push_u32(pool, &npool, &cap, r);
				if (!k)
					break;
				stamp[r] = leaf + 1;
			}
		}
		for (const uint32_t *r = pool + first[leaf] - 1; *r; r++)
			buckets[(*r - 1) * WHEN_BUCKETS + b]++;
	}
	free(rowof);
	free(stamp);
	free(first);
	free(pool);
	return buckets;
}

static void print_frame_table(struct stack_samples *s, FILE *out, bool modules,
			      unsigned int top)
{
	uint64_t n = stack_samples_count(s);
	size_t nr;
	struct row *rows = frame_rows(s, modules, &nr);
	char when[WHEN_BUCKETS + 1];
	uint32_t *buckets;
	struct when w;

	if (nr > top)
		nr = top;
	when_init(s, &w);
	buckets = frame_buckets(s, modules, rows, nr, &w);
	fprintf(out, "\nCPU samples per %s (exclusive: in the %s itself; inclusive: with callees):\n"
		"  %10s  %6s  %10s  %6s  %-*s  %s\n", modules ? "module" : "function",
		modules ? "module" : "function", "exclusive", "share", "inclusive",
		"share", WHEN_BUCKETS, "when", modules ? "module" : "function");
	for (size_t j = 0; j < nr; j++) {
		when_string(&w, buckets + j * WHEN_BUCKETS, when);
		fprintf(out, "  %10" PRIu64 "  %5.1f%%  %10" PRIu64 "  %5.1f%%  %s  %s\n",
			rows[j].exc, share(rows[j].exc, n), rows[j].inc,
			share(rows[j].inc, n), when, rows[j].label);
	}
	free(buckets);
	free(rows);
}

void stack_samples_print_modules(struct stack_samples *s, FILE *out,
				 unsigned int top)
{
	print_frame_table(s, out, true, top);
}

void stack_samples_print_functions(struct stack_samples *s, FILE *out,
				   unsigned int top)
{
	print_frame_table(s, out, false, top);
}

/* The function id named @name: exactly, else the one name holding it. */
static uint32_t find_function(struct stack_samples *s, const char *name,
			      size_t *matches)
{
	uint32_t nstacks = stack_samples_nstacks(s), found = 0;
	uint32_t nstr = stack_samples_nstrings(s);
	bool *seen = zalloc(nstr, sizeof(*seen));

	*matches = 0;
	for (uint32_t k = 1; k < nstacks; k++) {
		uint32_t id = stack_samples_function(s, k);

		if (seen[id])
			continue;
		seen[id] = true;
		if (!strcmp(stack_samples_string(s, id), name)) {
			free(seen);
			*matches = 1;
			return id;
		}
		if (strstr(stack_samples_string(s, id), name)) {
			found = id;
			++*matches;
		}
	}
	free(seen);
	return *matches == 1 ? found : 0;
}

static void print_side(struct stack_samples *s, FILE *out, const char *title,
		       struct row *rows, size_t nr, unsigned int top, uint64_t n)
{
	qsort(rows, nr, sizeof(*rows), by_inc);
	fprintf(out, "  %10s  %6s  %s\n", "samples", "share", title);
	for (size_t j = 0; j < nr && j < top; j++)
		fprintf(out, "  %10" PRIu64 "  %5.1f%%  %s\n", rows[j].inc,
			share(rows[j].inc, n), rows[j].label);
	(void)s;
}

/*
 * Each sample holding the function counts once, at its outermost call:
 * the caller is the frame above it ("[root]" at the root of the stack),
 * the callee the frame below it ("[self]" when it is the leaf), so both
 * sides sum to the function's inclusive count, as in PerfView's
 * Caller-Callee view.
 */
int stack_samples_print_butterfly(struct stack_samples *s, FILE *out,
				  const char *name, unsigned int top)
{
	uint32_t nstacks = stack_samples_nstacks(s), nstr = stack_samples_nstrings(s);
	uint64_t n = stack_samples_count(s), inc = 0, exc = 0;
	size_t matches, ncallers = 0, ncallees = 0;
	uint32_t fn = find_function(s, name, &matches);
	struct row *callers, *callees;
	uint64_t *cnt;
	/* Row 0 is "[root]" / "[self]"; row id + 1 a function. */
	uint64_t *by_caller, *by_callee;

	if (!fn) {
		etw_error("report: %s function '%s' in the samples' stacks",
			  matches ? "more than one" : "no", name);
		return -1;
	}
	cnt = leaf_counts(s);
	by_caller = zalloc(nstr + 1, sizeof(*by_caller));
	by_callee = zalloc(nstr + 1, sizeof(*by_callee));
	for (uint32_t leaf = 1; leaf < nstacks; leaf++) {
		uint32_t outer = 0, below = 0, prev = 0;

		if (!cnt[leaf])
			continue;
		for (uint32_t k = leaf; k; prev = k, k = stack_samples_caller(s, k))
			if (stack_samples_function(s, k) == fn) {
				outer = k;
				below = prev;
			}
		if (!outer)
			continue;
		inc += cnt[leaf];
		if (stack_samples_function(s, leaf) == fn)
			exc += cnt[leaf];
		if (stack_samples_caller(s, outer))
			by_caller[stack_samples_function(s, stack_samples_caller(s, outer))] += cnt[leaf];
		else
			by_caller[0] += cnt[leaf];
		if (below)
			by_callee[stack_samples_function(s, below)] += cnt[leaf];
		else
			by_callee[0] += cnt[leaf];
	}
	callers = zalloc(nstr + 1, sizeof(*callers));
	callees = zalloc(nstr + 1, sizeof(*callees));
	for (uint32_t id = 0; id < nstr; id++) {
		if (by_caller[id]) {
			callers[ncallers].inc = by_caller[id];
			callers[ncallers++].label = id ? stack_samples_string(s, id) : "[root]";
		}
		if (by_callee[id]) {
			callees[ncallees].inc = by_callee[id];
			callees[ncallees++].label = id ? stack_samples_string(s, id) : "[self]";
		}
	}
	fprintf(out, "Callers of %s:\n", stack_samples_string(s, fn));
	print_side(s, out, "caller", callers, ncallers, top, n);
	fprintf(out, "\n  %10" PRIu64 "  %5.1f%%  %s (inclusive; exclusive %" PRIu64
		", %.1f%%)\n\n", inc, share(inc, n), stack_samples_string(s, fn), exc,
		share(exc, n));
	fprintf(out, "Callees of %s:\n", stack_samples_string(s, fn));
	print_side(s, out, "callee", callees, ncallees, top, n);
	free(callers);
	free(callees);
	free(by_caller);
	free(by_callee);
	free(cnt);
	return 0;
}

/* Hottest stacks: samples per (process, leaf). */
struct hot {
	uint32_t pid, stack;
	uint64_t count;
};

static int by_hot(const void *a, const void *b)
{
	const struct hot *x = a, *y = b;

	if (x->count != y->count)
		return x->count < y->count ? 1 : -1;
	if (x->pid != y->pid)
		return x->pid < y->pid ? -1 : 1;
	return x->stack < y->stack ? -1 : x->stack > y->stack;
}

static int by_pid_stack(const void *a, const void *b)
{
	const struct hot *x = a, *y = b;

	if (x->pid != y->pid)
		return x->pid < y->pid ? -1 : 1;
	return x->stack < y->stack ? -1 : x->stack > y->stack;
}

/*
 * Distinct (pid, stack) with their counts; *n of them.  A stack is
 * counted in place for the first process seen with it; samples of it in
 * another process (a kernel stack all processes share) are sorted apart.
 */
static struct hot *hot_stacks(struct stack_samples *s, size_t *n)
{
	uint64_t total = stack_samples_count(s);
	uint32_t nstacks = stack_samples_nstacks(s);
	uint64_t *cnt = zalloc(nstacks, sizeof(*cnt));
	uint32_t *pid = zalloc(nstacks, sizeof(*pid));
	struct hot *v = zalloc(total, sizeof(*v));
	size_t j = 0, nspill = 0;

	for (size_t i = 0; i < total; i++) {
		const struct stack_sample *sa = stack_samples_get(s, i);

		if (!cnt[sa->stack] || pid[sa->stack] == sa->pid) {
			pid[sa->stack] = sa->pid;
			cnt[sa->stack]++;
			continue;
		}
		/* From the end of v: room for one per sample. */
		nspill++;
		v[total - nspill].pid = sa->pid;
		v[total - nspill].stack = sa->stack;
		v[total - nspill].count = 1;
	}
	qsort(v + total - nspill, nspill, sizeof(*v), by_pid_stack);
	for (size_t i = total - nspill; i < total; i++) {
		if (j && v[j - 1].pid == v[i].pid && v[j - 1].stack == v[i].stack)
			v[j - 1].count++;
		else
			v[j++] = v[i];
	}
	for (uint32_t k = 0; k < nstacks; k++)
		if (cnt[k]) {
			v[j].pid = pid[k];
			v[j].stack = k;
			v[j++].count = cnt[k];
		}
	free(cnt);
	free(pid);
	*n = j;
	return v;
}

void stack_samples_print_hot(struct stack_samples *s, FILE *out, unsigned int top)
{
	size_t n;
	struct hot *v = hot_stacks(s, &n);
	struct sbuf sb = { 0 };

	qsort(v, n, sizeof(*v), by_hot);
	fprintf(out, "Hottest stacks (leaf first):\n");
	for (size_t i = 0; i < n && i < top; i++) {
		sb_reset(&sb);
		process_label(s, stack_samples_model(s), v[i].pid, true, &sb);
		fprintf(out, "\n  #%zu  %" PRIu64 " samples (%.1f%%)  %s\n", i + 1,
			v[i].count, share(v[i].count, stack_samples_count(s)), sb.p);
		for (uint32_t k = v[i].stack; k; k = stack_samples_caller(s, k))
			fprintf(out, "      %s\n", stack_samples_frame(s, k, true));
	}
	sb_free(&sb);
	free(v);
}

/* Counted strings, for the tables keyed by text. */
struct named {
	char *key;
	uint64_t count;
};

static int by_count(const void *a, const void *b)
{
	const struct named *x = a, *y = b;

	if (x->count != y->count)
		return x->count < y->count ? 1 : -1;
	return strcmp(x->key, y->key);
}

static int by_key(const void *a, const void *b)
{
	return strcmp(((const struct named *)a)->key, ((const struct named *)b)->key);
}

/* Merge equal keys (summing), then most frequent first. */
static size_t merge_named(struct named *v, size_t n)
{
	size_t j = 0;

	qsort(v, n, sizeof(*v), by_key);
	for (size_t i = 0; i < n; i++) {
		if (j && !strcmp(v[j - 1].key, v[i].key)) {
			v[j - 1].count += v[i].count;
			free(v[i].key);
		} else {
			v[j++] = v[i];
		}
	}
	qsort(v, j, sizeof(*v), by_count);
	return j;
}

/* Folded stacks split frames at ';' and the count at the last space. */
static void put_folded_name(struct sbuf *sb, const char *name)
{
	for (; *name; name++)
		sb_putc(sb, *name == ';' || *name == '\n' ? '_' : *name);
}

void stack_samples_print_folded(struct stack_samples *s, FILE *out)
{
	size_t n, depth, cap = 0;
	struct hot *v = hot_stacks(s, &n);
	struct named *f = zalloc(n, sizeof(*f));
	struct sbuf sb = { 0 }, label = { 0 };
	uint32_t *path = NULL;

	for (size_t i = 0; i < n; i++) {
		sb_reset(&sb);
		sb_reset(&label);
		process_label(s, stack_samples_model(s), v[i].pid, false, &label);
		put_folded_name(&sb, label.p);
		depth = 0;
		for (uint32_t k = v[i].stack; k; k = stack_samples_caller(s, k)) {
			path = push_u32(path, &depth, &cap, k);
		}
		while (depth-- > 0) {
			sb_putc(&sb, ';');
			put_folded_name(&sb, stack_samples_frame(s, path[depth], false));
		}
		f[i].key = strdup(sb.p);
		if (!f[i].key)
			stack_oom();
		f[i].count = v[i].count;
	}
	n = merge_named(f, n);
	for (size_t i = 0; i < n; i++) {
		fprintf(out, "%s %" PRIu64 "\n", f[i].key, f[i].count);
		free(f[i].key);
	}
	free(path);
	free(f);
	free(v);
	sb_free(&sb);
	sb_free(&label);
}

static void print_named(struct stack_samples *s, FILE *out, const char *title,
			struct named *v, size_t n)
{
	n = merge_named(v, n);
	fprintf(out, "\nCPU samples per %s:\n  %10s  %6s  %s\n", title, "samples",
		"share", title);
	for (size_t i = 0; i < n; i++) {
		fprintf(out, "  %10" PRIu64 "  %5.1f%%  %s\n", v[i].count,
			share(v[i].count, stack_samples_count(s)), v[i].key);
		free(v[i].key);
	}
}

void stack_samples_print_summary(struct stack_samples *s, FILE *out)
{
	size_t nr;
	char **labels;
	struct row *rows = process_rows(s, stack_samples_model(s), &nr, &labels);
	struct named *v = zalloc(nr + stack_samples_nstrings(s), sizeof(*v));
	uint64_t *mods = zalloc(stack_samples_nstrings(s), sizeof(*mods));
	size_t n = 0;

	stack_samples_print_totals(s, out);
	for (size_t j = 0; j < nr; j++) {
		v[n].key = labels[j];
		v[n++].count = rows[j].exc;
	}
	print_named(s, out, "process", v, n);
	free(labels);
	free(rows);
	for (size_t i = 0; i < stack_samples_count(s); i++)
		mods[stack_samples_ip_module(s, i)]++;
	n = 0;
	for (uint32_t id = 1; id < stack_samples_nstrings(s); id++)
		if (mods[id]) {
			v[n].key = strdup(stack_samples_string(s, id));
			if (!v[n].key)
				stack_oom();
			v[n++].count = mods[id];
		}
	print_named(s, out, "module", v, n);
	free(mods);
	free(v);
}
