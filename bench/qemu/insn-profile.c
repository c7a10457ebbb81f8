// SPDX-License-Identifier: GPL-2.0
/*
 * insn-profile.so: a QEMU TCG plugin that counts the guest instructions
 * executed at each guest virtual address, inside a window the guest opens
 * and closes with the markers of marker.h (make bench-profile).
 *
 *   qemu-system-x86_64 ... -plugin insn-profile.so,outfile=PATH
 *
 * Every translated instruction gets a counter that an inline add (no
 * helper call) bumps each time it runs, so the count is exact: it is
 * what -icount counts, an iteration of a rep-prefixed instruction being
 * one execution.  Opening the window snapshots every counter; closing it
 * adds what each counted since then to its total, and rewrites PATH with
 * one line per address, "ADDRESS COUNT" in hex and decimal, sorted by
 * address, after a "# windows N instructions M" line.  Outside the
 * windows nothing is kept, so the guest's set-up is not in the profile.
 *
 * One record per translation, not per address: an address translated
 * again (the code cache flushed, another process's code at the same
 * user address) gets a new record, and the output adds them up.
 */
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plugin-api.h"
#include "marker.h"

QEMU_PLUGIN_EXPORT int qemu_plugin_version = QEMU_PLUGIN_VERSION;

struct insn_count {
	uint64_t vaddr;
	uint64_t count;		/* every execution, bumped inline */
	uint64_t base;		/* count when the window opened */
	uint64_t total;		/* executions inside closed windows */
};

/* Records in fixed chunks: the inline adds keep pointers into them. */
#define CHUNK_RECORDS	65536

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct insn_count **chunks;
static size_t n_chunks, n_records;
static int in_window;
static unsigned int windows;
static const char *outfile;

static struct insn_count *record_at(size_t i)
{
	return &chunks[i / CHUNK_RECORDS][i % CHUNK_RECORDS];
}

/* A new zeroed record, or NULL when memory ran out (it is then not counted). */
static struct insn_count *new_record(uint64_t vaddr)
{
	struct insn_count *r;

	if (n_records == n_chunks * CHUNK_RECORDS) {
		struct insn_count **more = realloc(chunks, (n_chunks + 1) * sizeof(*chunks));

		if (!more)
			return NULL;
		chunks = more;
		chunks[n_chunks] = calloc(CHUNK_RECORDS, sizeof(**chunks));
		if (!chunks[n_chunks])
			return NULL;
		n_chunks++;
	}
	r = record_at(n_records++);
	r->vaddr = vaddr;
	return r;
}

static int by_vaddr(const void *a, const void *b)
{
	const struct insn_count *x = a, *y = b;

	return x->vaddr < y->vaddr ? -1 : x->vaddr > y->vaddr;
}

/* Rewrite the output file with the totals so far; called with lock held. */
static void write_profile(void)
{
	struct insn_count *hit = NULL;
	size_t n = 0, i;
	uint64_t sum = 0;
	FILE *f;

	for (i = 0; i < n_records; i++)
		n += record_at(i)->total != 0;
	if (n) {
		hit = malloc(n * sizeof(*hit));
		if (!hit) {
			qemu_plugin_outs("insn-profile: out of memory\n");
			return;
		}
	}
	n = 0;
	for (i = 0; i < n_records; i++)
		if (record_at(i)->total)
			hit[n++] = *record_at(i);
	qsort(hit, n, sizeof(*hit), by_vaddr);
	for (i = 0; i < n; i++)
		sum += hit[i].total;
	f = fopen(outfile, "w");
	if (!f) {
		qemu_plugin_outs("insn-profile: cannot write the output file\n");
		free(hit);
		return;
	}
	fprintf(f, "# windows %u instructions %" PRIu64 "\n", windows, sum);
	for (i = 0; i < n; i++) {
		uint64_t total = hit[i].total;

		/* Translations of one address are adjacent after the sort. */
		while (i + 1 < n && hit[i + 1].vaddr == hit[i].vaddr)
			total += hit[++i].total;
		fprintf(f, "%016" PRIx64 " %" PRIu64 "\n", hit[i].vaddr, total);
	}
	fclose(f);
	free(hit);
}

static void window_open(unsigned int vcpu, void *unused)
{
	pthread_mutex_lock(&lock);
	if (!in_window) {
		for (size_t i = 0; i < n_records; i++)
			record_at(i)->base = record_at(i)->count;
		in_window = 1;
	}
	pthread_mutex_unlock(&lock);
}

static void window_close(unsigned int vcpu, void *unused)
{
	pthread_mutex_lock(&lock);
	if (in_window) {
		for (size_t i = 0; i < n_records; i++) {
			struct insn_count *r = record_at(i);

			r->total += r->count - r->base;
			r->base = r->count;
		}
		in_window = 0;
		windows++;
		write_profile();
	}
	pthread_mutex_unlock(&lock);
}

/* BENCH_MARK_START_DISP or BENCH_MARK_STOP_DISP if @insn is a marker, else 0. */
static uint32_t marker_of(const struct qemu_plugin_insn *insn)
{
	static const unsigned char opcode[] = BENCH_MARK_OPCODE;
	const unsigned char *code = qemu_plugin_insn_data(insn);
	uint32_t disp;

	if (qemu_plugin_insn_size(insn) != BENCH_MARK_LEN ||
	    memcmp(code, opcode, sizeof(opcode)))
		return 0;
	disp = (uint32_t)code[3] | (uint32_t)code[4] << 8 |
	       (uint32_t)code[5] << 16 | (uint32_t)code[6] << 24;
	return disp == BENCH_MARK_START_DISP || disp == BENCH_MARK_STOP_DISP ? disp : 0;
}

static void tb_translated(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
	size_t n = qemu_plugin_tb_n_insns(tb);

	pthread_mutex_lock(&lock);
	for (size_t i = 0; i < n; i++) {
		struct qemu_plugin_insn *insn = qemu_plugin_tb_get_insn(tb, i);
		struct insn_count *r = new_record(qemu_plugin_insn_vaddr(insn));
		uint32_t mark = marker_of(insn);

		if (r)
			qemu_plugin_register_vcpu_insn_exec_inline(insn, QEMU_PLUGIN_INLINE_ADD_U64,
								   &r->count, 1);
		if (mark)
			qemu_plugin_register_vcpu_insn_exec_cb(insn,
				mark == BENCH_MARK_START_DISP ? window_open : window_close,
				QEMU_PLUGIN_CB_NO_REGS, NULL);
	}
	pthread_mutex_unlock(&lock);
}

static void at_exit(qemu_plugin_id_t id, void *unused)
{
	char line[128];

	snprintf(line, sizeof(line), "insn-profile: %u windows, %zu instructions translated\n",
		 windows, n_records);
	qemu_plugin_outs(line);
}

QEMU_PLUGIN_EXPORT int qemu_plugin_install(qemu_plugin_id_t id, const qemu_info_t *info,
					   int argc, char **argv)
{
	for (int i = 0; i < argc; i++) {
		if (!strncmp(argv[i], "outfile=", 8)) {
			outfile = argv[i] + 8;
		} else {
			fprintf(stderr, "insn-profile: unknown argument %s\n", argv[i]);
			return -1;
		}
	}
	if (!outfile || !*outfile) {
		fprintf(stderr, "insn-profile: outfile=PATH is required\n");
		return -1;
	}
	qemu_plugin_register_vcpu_tb_trans_cb(id, tb_translated);
	qemu_plugin_register_atexit_cb(id, at_exit, NULL);
	return 0;
}
