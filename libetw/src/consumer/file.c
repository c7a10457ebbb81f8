// SPDX-License-Identifier: MIT
/*
 * ProcessTrace over log files: up to 64 files merged in time order.
 *
 * Every file is split into streams: its buffer 0 (the header event and
 * its companions), then one stream per processor, that processor's
 * buffers in sequence order.  A k-way merge hands out the record with the
 * earliest time, compared as FILETIME across files and as the raw
 * timestamp within one (the session clock is finer than 100 ns); equal
 * times go in handle order, then processor order.  The buffer-0 streams
 * of all files come first, in handle order, so a consumer sees each
 * file's logfile header event before any other of its events, as on
 * Windows.
 *
 * StartTime and EndTime apply to the events, not to the header events
 * [our choice: Windows does not say; consumers need the header for the
 * pointer size and clock].  Once the earliest remaining event is past
 * EndTime, processing ends.
 *
 * A buffer is done when the merge takes a record from a later buffer of
 * its stream, or the stream ends: then its BufferCallback runs, right
 * after its last event, as on Windows.  A corrupt record or buffer ends
 * its stream; the other streams go on, and ProcessTrace then returns
 * ERROR_FILE_CORRUPT.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "consumer.h"
#include "../common/minheap.h"

struct stream {
	struct etw_trace *t;
	const uint32_t *bufs;		/* buffer indices of the file, in order */
	uint32_t nbufs;
	uint32_t cur;			/* where the next record is looked for */
	uint32_t pos;
	uint32_t rec_cur;		/* the record parsed ahead */
	uint32_t rec_pos;
	unsigned int rec_k;		/* sc[] holding its buffer if compressed */
	struct etl_scratch sc[2];	/* compressed buffers, decompressed */
	uint32_t reported;		/* bufs[0..reported) are done */
	uint64_t key;			/* its FILETIME */
	uint64_t raw;			/* and raw timestamp */
	bool header;			/* buffer 0 */
	struct etw_etl_event ev;	/* the record, but for its extended items */
};

struct merge {
	struct stream *s;
	uint32_t n;
	uint32_t **orders;		/* per file: buffer 0, then the groups */
	struct minheap heap;
	struct etw_etl_event ev;	/* the record delivered */
	int err;			/* the first reader error */
};

static const uint8_t *buffer_at(const struct stream *s, uint32_t i)
{
	const struct etw_etl *etl = s->t->etl;

	return etl->data + etl->bufs[s->bufs[i]].offset;
}

static bool before(const void *ctx, uint32_t a, uint32_t b)
{
	const struct merge *m = ctx;
	const struct stream *x = &m->s[a], *y = &m->s[b];

	if (x->header != y->header)
		return x->header;
	if (!x->header && x->key != y->key)
		return x->key < y->key;
	if (!x->header && x->t == y->t && x->raw != y->raw)
		return x->raw < y->raw;
	return a < b;
}

/* Parse a stream's next record ahead: 1, 0 at its end, or -errno. */
static int peek(struct merge *m, struct stream *s)
{
	struct etw_etl *etl = s->t->etl;
	uint32_t next;
	int ret;

	while (s->cur < s->nbufs) {
		uint32_t b = s->bufs[s->cur];
		unsigned int k = etl_scratch_pick(b, s->bufs[s->rec_cur], s->rec_k);

		ret = etl_parse_record(etl, b, s->pos, &s->sc[k], &s->ev, &next);
		if (ret < 0) {
			if (!m->err)
				m->err = ret;
			return ret;
		}
		if (ret > 0) {
			s->rec_cur = s->cur;
			s->rec_k = k;
			s->rec_pos = s->pos;
			s->pos = next;
			/* A record without a time keeps its predecessor's. */
			if (s->ev.has & ETW_ETL_HAS_FILETIME) {
				s->key = s->ev.filetime;
				s->raw = s->ev.timestamp;
			}
			return 1;
		}
		s->cur++;
		s->pos = ETL_BUFFER_HEADER_SIZE;
	}
	return 0;
}

/* The BufferCallback of every buffer of @s before @upto; false: cancel. */
static bool report(struct stream *s, uint32_t upto)
{
	for (; s->reported < upto; s->reported++)
		if (!etw_consumer_buffer_done(s->t, buffer_at(s, s->reported)))
			return false;
	return true;
}

/* Where a stream's finished buffers end after a peek that returned @ret. */
static uint32_t done_upto(const struct stream *s, int ret)
{
	if (ret > 0)
		return s->rec_cur;
	return ret ? s->cur : s->nbufs;
}

static int add_file(struct merge *m, struct etw_trace *t, uint32_t *order)
{
	struct etw_etl *etl = t->etl;
	uint32_t *len = calloc(etl->nbufs, sizeof(*len)), first = 1;
	int groups;

	if (!len)
		return -ENOMEM;
	order[0] = 0;
	groups = etl_group_buffers(etl, order + 1, len);
	m->s[m->n++] = (struct stream){ .t = t, .bufs = order, .nbufs = 1,
					.pos = ETL_BUFFER_HEADER_SIZE,
					.header = true };
	for (int g = 0; g < groups; g++) {
		m->s[m->n++] = (struct stream){ .t = t, .bufs = order + first,
						.nbufs = len[g],
						.pos = ETL_BUFFER_HEADER_SIZE };
		first += len[g];
	}
	free(len);
	return groups < 0 ? groups : 0;
}

static void merge_free(struct merge *m, ULONG n)
{
	for (ULONG i = 0; m->orders && i < n; i++)
		free(m->orders[i]);
	for (uint32_t i = 0; m->s && i < m->n; i++) {
		etl_scratch_free(&m->s[i].sc[0]);
		etl_scratch_free(&m->s[i].sc[1]);
	}
	free(m->orders);
	free(m->s);
	free(m->heap.v);
}

static ULONG merge_init(struct merge *m, struct etw_trace **traces, ULONG n)
{
	size_t total = 0;

	for (ULONG i = 0; i < n; i++)
		total += traces[i]->etl->nbufs + 1;
	m->orders = calloc(n, sizeof(*m->orders));
	m->s = calloc(total, sizeof(*m->s));
	m->heap.v = calloc(total, sizeof(*m->heap.v));
	m->heap.before = before;
	m->heap.ctx = m;
	if (!m->orders || !m->s || !m->heap.v)
		return ERROR_NOT_ENOUGH_MEMORY;
	for (ULONG i = 0; i < n; i++) {
		m->orders[i] = calloc(traces[i]->etl->nbufs, sizeof(uint32_t));
		if (!m->orders[i] || add_file(m, traces[i], m->orders[i]))
			return ERROR_NOT_ENOUGH_MEMORY;
	}
	return ERROR_SUCCESS;
}

/* Parse every stream's first record; empty streams' buffers are done. */
static ULONG merge_start(struct merge *m)
{
	for (uint32_t i = 0; i < m->n; i++) {
		int ret = peek(m, &m->s[i]);

		if (ret > 0)
			minheap_push(&m->heap, i);
		if (!report(&m->s[i], done_upto(&m->s[i], ret)))
			return ERROR_CANCELLED;
	}
	return ERROR_SUCCESS;
}

/* Deliver the top stream's record, then move that stream on. */
static ULONG merge_step(struct merge *m, const struct etw_window *w)
{
	struct stream *s = &m->s[m->heap.v[0]];
	uint32_t buf = s->bufs[s->rec_cur], pos = s->rec_pos, next;
	struct etl_scratch *sc = &s->sc[s->rec_k];
	uint64_t time = s->key;
	bool header = s->header, again = s->ev.ext_count;
	int ret, parsed = 1;

	/*
	 * Out before the stream moves on, as parsed ahead; a record with
	 * extended items is parsed again, as the peeks reuse the reader's.
	 */
	if (!again)
		m->ev = s->ev;
	ret = peek(m, s);
	minheap_update_top(&m->heap, ret > 0);
	if (again)
		parsed = etl_parse_record(s->t->etl, buf, pos, sc, &m->ev, &next);
	if (parsed > 0 && (header || (time >= w->start && time <= w->end)))
		etw_consumer_deliver(s->t, &m->ev,
				     s->t->etl->data + s->t->etl->bufs[buf].offset,
				     time);
	return report(s, done_upto(s, ret)) ? ERROR_SUCCESS : ERROR_CANCELLED;
}

/* The file's own error, if reading it stopped early. */
static int index_error(struct etw_trace **traces, ULONG n)
{
	for (ULONG i = 0; i < n; i++)
		if (traces[i]->etl->index_err.code)
			return traces[i]->etl->index_err.code;
	return 0;
}

ULONG etw_file_process(struct etw_trace **traces, ULONG n, struct etw_run *run)
{
	struct merge m = { 0 };
	ULONG err;

	for (ULONG i = 0; i < n; i++) {
		traces[i]->lf.BuffersRead = 0;
		traces[i]->lf.CurrentTime = 0;
		traces[i]->lf.Filled = 0;
	}
	err = merge_init(&m, traces, n);
	if (!err)
		err = merge_start(&m);
	while (!err && m.heap.n && !atomic_load(&run->stop)) {
		const struct stream *s = &m.s[m.heap.v[0]];

		if (!s->header && s->key > run->window.end)
			goto out;	/* the rest is after EndTime */
		err = merge_step(&m, &run->window);
	}
	if (!err && !atomic_load(&run->stop)) {
		if (!m.err)
			m.err = index_error(traces, n);
		if (m.err)
			err = etw_etl_win32_error(m.err);
	}
out:
	merge_free(&m, n);
	return err;
}

ULONG etw_file_open(struct etw_trace *t)
{
	const struct etw_etl_header *h;
	const uint8_t *lf;
	int ret;

	ret = etw_etl_open(t->name, &t->etl, NULL);
	if (ret < 0)
		return etw_etl_win32_error(ret);
	h = etw_etl_get_header(t->etl);
	lf = t->etl->data + t->etl->bufs[0].offset + ETL_BUFFER_HEADER_SIZE +
	     sizeof(struct etl_system_header);
	return etw_consumer_set_header(t, h, lf + (h->header_pointer_size == 8 ?
		offsetof(struct etl_logfile_header64, time_zone) :
		offsetof(struct etl_logfile_header32, time_zone)));
}
