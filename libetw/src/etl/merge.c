// SPDX-License-Identifier: MIT
/*
 * Time order across processors.  Each processor's buffers of one
 * BufferType, sorted by sequence number, form one stream whose records
 * are in timestamp order (a system logger writes a CPU's kernel records
 * into buffers of their own, type 2, beside its other records);
 * a k-way merge (a binary heap of streams keyed by their next record's
 * timestamp) interleaves them.  The header events of buffer 0 come first.
 *
 * A stream's next record is parsed ahead to learn its timestamp and
 * handed out as parsed; one with extended items is parsed again when it
 * is returned, as their one array is the reader's and other streams' peeks
 * overwrite it.  Each stream has two scratch areas for compressed
 * buffers: the record handed out keeps its buffer while the stream moves
 * on into the next.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "../common/minheap.h"

struct stream {
	const uint32_t *bufs;		/* buffer indices, in order */
	uint32_t nbufs;
	uint32_t cur;			/* index into bufs */
	uint32_t pos;			/* where to look for the next record */
	uint32_t rec_buf;		/* the record parsed ahead */
	uint32_t rec_pos;
	unsigned int rec_k;		/* sc[] holding rec_buf if compressed */
	uint64_t key;			/* its timestamp */
	struct etw_etl_event ev;	/* it, but for its extended items */
	struct etl_scratch sc[2];	/* compressed buffers, decompressed */
};

struct etl_merge {
	uint32_t header_pos;		/* next record of buffer 0 */
	bool header_done;
	bool started;
	uint32_t *order;		/* buffers 1..n by processor, sequence */
	struct stream *streams;
	uint32_t nstreams;
	struct minheap heap;		/* of stream numbers */
};

struct sort_key {
	uint16_t processor;
	uint16_t type;
	int64_t sequence;
	uint64_t offset;
	uint32_t index;
};

static int cmp_key(const void *a, const void *b)
{
	const struct sort_key *x = a, *y = b;

	if (x->processor != y->processor)
		return x->processor < y->processor ? -1 : 1;
	if (x->type != y->type)
		return x->type < y->type ? -1 : 1;
	if (x->sequence != y->sequence)
		return x->sequence < y->sequence ? -1 : 1;
	return x->offset < y->offset ? -1 : x->offset > y->offset;
}

int etl_group_buffers(const struct etw_etl *etl, uint32_t *order,
		      uint32_t *group_len)
{
	uint32_t n = etl->nbufs - 1, ngroups = 0;
	struct sort_key *keys = calloc(n ? n : 1, sizeof(*keys));

	if (!keys)
		return -ENOMEM;
	for (uint32_t i = 0; i < n; i++) {
		const struct etw_etl_buffer *b = &etl->bufs[i + 1];

		keys[i] = (struct sort_key){ b->processor, b->type,
					     b->sequence, b->offset, i + 1 };
	}
	qsort(keys, n, sizeof(*keys), cmp_key);
	for (uint32_t i = 0; i < n; i++) {
		order[i] = keys[i].index;
		if (!i || keys[i].processor != keys[i - 1].processor ||
		    keys[i].type != keys[i - 1].type)
			group_len[ngroups++] = 0;
		group_len[ngroups - 1]++;
	}
	free(keys);
	return (int)ngroups;
}

/* Lower key first; equal keys by stream number, so the order is stable. */
static bool before(const void *ctx, uint32_t a, uint32_t b)
{
	const struct etl_merge *m = ctx;
	const struct stream *x = &m->streams[a], *y = &m->streams[b];

	return x->key < y->key || (x->key == y->key && a < b);
}

/*
 * Parse a stream's next record ahead: 1, 0 if the stream is done, -errno.
 * A record without a timestamp (WPP) keeps its predecessor's key.
 */
static int peek(struct etw_etl *etl, struct stream *s)
{
	struct etw_etl_event *ev = &s->ev;
	uint32_t next;
	int ret;

	while (s->cur < s->nbufs) {
		uint32_t b = s->bufs[s->cur];
		unsigned int k = etl_scratch_pick(b, s->rec_buf, s->rec_k);

		ret = etl_parse_record(etl, b, s->pos, &s->sc[k], ev, &next);
		if (ret < 0)
			return ret;
		if (ret > 0) {
			s->rec_buf = b;
			s->rec_k = k;
			s->rec_pos = s->pos;
			s->pos = next;
			if (ev->has & ETW_ETL_HAS_TIMESTAMP)
				s->key = ev->timestamp;
			return 1;
		}
		s->cur++;
		s->pos = ETL_BUFFER_HEADER_SIZE;
	}
	return 0;
}

/* Group buffers 1..n by processor and type into streams. */
static int build_streams(struct etw_etl *etl, struct etl_merge *m)
{
	uint32_t n = etl->nbufs - 1, *len, first = 0;
	int ngroups;

	m->order = calloc(n ? n : 1, sizeof(*m->order));
	m->streams = calloc(n ? n : 1, sizeof(*m->streams));
	m->heap.v = calloc(n ? n : 1, sizeof(*m->heap.v));
	m->heap.before = before;
	m->heap.ctx = m;
	len = calloc(n ? n : 1, sizeof(*len));
	if (!m->order || !m->streams || !m->heap.v || !len) {
		free(len);
		return -ENOMEM;
	}
	ngroups = etl_group_buffers(etl, m->order, len);
	m->nstreams = ngroups > 0 ? (uint32_t)ngroups : 0;
	for (int i = 0; i < ngroups; i++) {
		m->streams[i].bufs = &m->order[first];
		m->streams[i].nbufs = len[i];
		m->streams[i].pos = ETL_BUFFER_HEADER_SIZE;
		first += len[i];
	}
	free(len);
	if (ngroups < 0)
		return ngroups;
	for (int i = 0; i < ngroups; i++) {
		int ret = peek(etl, &m->streams[i]);

		if (ret < 0)
			return ret;
		if (ret > 0)
			minheap_push(&m->heap, i);
	}
	return 0;
}

static int next_header_record(struct etw_etl *etl, struct etl_merge *m,
			      struct etw_etl_event *ev)
{
	uint32_t next;
	int ret;

	if (!m->header_pos)
		m->header_pos = ETL_BUFFER_HEADER_SIZE;
	ret = etl_parse_record(etl, 0, m->header_pos, NULL, ev, &next);
	if (ret > 0)
		m->header_pos = next;
	else if (!ret)
		m->header_done = true;
	return ret;
}

static int start(struct etw_etl *etl, struct etl_merge *m)
{
	int ret = build_streams(etl, m);

	m->started = true;
	if (ret == -ENOMEM)
		return etl_error(&etl->err, ret, ETW_ETL_NO_OFFSET,
				 "out of memory", "merging processors");
	return ret;
}

int etl_merge_next(struct etw_etl *etl, struct etw_etl_event *ev)
{
	struct etl_merge *m = etl->merge;
	struct stream *s;
	uint32_t buf, pos, next, again;
	unsigned int k;
	int ret;

	if (!m) {
		m = etl->merge = calloc(1, sizeof(*m));
		if (!m)
			return etl_error(&etl->err, -ENOMEM, ETW_ETL_NO_OFFSET,
					 "out of memory", "merging processors");
	}
	if (!m->header_done) {
		ret = next_header_record(etl, m, ev);
		if (ret)
			return ret;
	}
	if (!m->started) {
		ret = start(etl, m);
		if (ret < 0)
			return ret;
	}
	if (!m->heap.n)
		return etl_end_of_index(etl);

	s = &m->streams[m->heap.v[0]];
	buf = s->rec_buf;
	pos = s->rec_pos;
	k = s->rec_k;
	/* Out before the stream moves on: the peek reuses its event. */
	again = s->ev.ext_count;
	if (!again)
		*ev = s->ev;
	ret = peek(etl, s);
	minheap_update_top(&m->heap, ret > 0);
	/* A failed peek has set the sticky error: the next call reports it. */
	if (!again)
		return 1;
	return etl_parse_record(etl, buf, pos, &s->sc[k], ev, &next);
}

void etl_merge_free(struct etl_merge *m)
{
	if (!m)
		return;
	for (uint32_t i = 0; i < m->nstreams; i++) {
		etl_scratch_free(&m->streams[i].sc[0]);
		etl_scratch_free(&m->streams[i].sc[1]);
	}
	free(m->order);
	free(m->streams);
	free(m->heap.v);
	free(m);
}
