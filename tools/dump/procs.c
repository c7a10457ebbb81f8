// SPDX-License-Identifier: GPL-2.0
/*
 * etw dump: the processes of a trace, from the kernel's Process and
 * Thread events as libetw decodes them (Process/Start, DCStart, End,
 * DCEnd, Defunct; Thread/Start, DCStart), for --summary's table and the
 * process name on each record of the text format.  A process id that a
 * Start reuses is a new process, as in PerfView and WPA.  Records count
 * to the process of their header's process id, or of the payload's
 * ProcessId (StackProcess) field when the header has none (PERFINFO
 * records).
 */
#include <stdlib.h>
#include <string.h>

#include <tdh.h>

#include "dump/dump.h"
#include "etw.h"

/* The Process and Thread opcodes (Microsoft Learn, Process_TypeGroup1). */
enum { OP_START = 1, OP_END = 2, OP_DCSTART = 3, OP_DCEND = 4 };

struct dump_procs {
	struct dump_process *v;
	size_t n;
	size_t cap;
	/* pid -> index + 1 of its current process; open addressing. */
	uint32_t *keys;
	uint32_t *vals;
	size_t nslots;
	size_t used;
	/* The payload's process id field of the last description seen. */
	const void *pid_info;
	int32_t pid_field;		/* its index, or -1 */
};

static void *xrealloc(void *p, size_t n)
{
	p = realloc(p, n ? n : 1);
	if (!p) {
		etw_error("dump: out of memory");
		exit(1);
	}
	return p;
}

static char *xstrdup(const char *s)
{
	char *d = strdup(s ? s : "");

	if (!d) {
		etw_error("dump: out of memory");
		exit(1);
	}
	return d;
}

struct dump_procs *procs_new(void)
{
	struct dump_procs *p = xrealloc(NULL, sizeof(*p));

	memset(p, 0, sizeof(*p));
	return p;
}

void procs_free(struct dump_procs *p)
{
	if (!p)
		return;
	for (size_t i = 0; i < p->n; i++) {
		free((char *)p->v[i].image);
		free((char *)p->v[i].command_line);
	}
	free(p->v);
	free(p->keys);
	free(p->vals);
	free(p);
}

static size_t slot(const struct dump_procs *p, uint32_t pid)
{
	size_t i = (pid * 2654435761u) & (p->nslots - 1);

	while (p->vals[i] && p->keys[i] != pid)
		i = (i + 1) & (p->nslots - 1);
	return i;
}

static void map_set(struct dump_procs *p, uint32_t pid, uint32_t idx)
{
	size_t i;

	if ((p->used + 1) * 2 > p->nslots) {
		uint32_t *keys = p->keys, *vals = p->vals;
		size_t old = p->nslots;

		p->nslots = old ? old * 2 : 256;
		p->keys = xrealloc(NULL, p->nslots * sizeof(*p->keys));
		p->vals = xrealloc(NULL, p->nslots * sizeof(*p->vals));
		memset(p->vals, 0, p->nslots * sizeof(*p->vals));
		for (size_t j = 0; j < old; j++)
			if (vals[j]) {
				i = slot(p, keys[j]);
				p->keys[i] = keys[j];
				p->vals[i] = vals[j];
			}
		free(keys);
		free(vals);
	}
	i = slot(p, pid);
	if (!p->vals[i])
		p->used++;
	p->keys[i] = pid;
	p->vals[i] = idx + 1;
}

static struct dump_process *find(struct dump_procs *p, uint32_t pid)
{
	size_t i;

	if (!p->nslots)
		return NULL;
	i = slot(p, pid);
	return p->vals[i] ? &p->v[p->vals[i] - 1] : NULL;
}

static struct dump_process *create(struct dump_procs *p, uint32_t pid)
{
	struct dump_process *q;

	if (p->n == p->cap) {
		p->cap = p->cap ? p->cap * 2 : 64;
		p->v = xrealloc(p->v, p->cap * sizeof(*p->v));
	}
	q = &p->v[p->n];
	memset(q, 0, sizeof(*q));
	q->pid = pid;
	q->image = xstrdup("");
	q->command_line = xstrdup("");
	map_set(p, pid, (uint32_t)p->n++);
	return q;
}

static struct dump_process *get(struct dump_procs *p, uint32_t pid)
{
	struct dump_process *q = find(p, pid);

	return q ? q : create(p, pid);
}

static bool field_u32(const struct etw_decoded_event *d, const char *name,
		      uint32_t *v)
{
	const struct etw_decoded_field *f = etw_decoded_field(d, name);
	const uint8_t *b;

	if (!f || f->size != 4)
		return false;
	b = f->data;
	*v = b[0] | b[1] << 8 | b[2] << 16 | (uint32_t)b[3] << 24;
	return true;
}

static const char *field_str(const struct etw_decoded_event *d,
			     const char *name)
{
	const struct etw_decoded_field *f = etw_decoded_field(d, name);

	return f ? f->value : "";
}

static void set_str(const char **dst, const char *s)
{
	if (!s[0] || !strcmp(*dst, s))
		return;
	free((char *)*dst);
	*dst = xstrdup(s);
}

static void process_event(struct dump_procs *p, const struct dump_event *e,
			  const struct etw_decoded_event *d)
{
	uint8_t op = e->ev->opcode;
	struct dump_process *q;
	uint32_t pid, parent;

	if (!field_u32(d, "ProcessId", &pid))
		return;
	q = find(p, pid);
	if (op == OP_START || !q) {
		q = create(p, pid);
		if (op == OP_START)
			memcpy(q->start, e->time, sizeof(q->start));
	}
	if (field_u32(d, "ParentId", &parent))
		q->parent = parent;
	set_str(&q->image, field_str(d, "ImageFileName"));
	set_str(&q->command_line, field_str(d, "CommandLine"));
	if (op == OP_END)
		memcpy(q->end, e->time, sizeof(q->end));
}

/*
 * The ProcessId (or StackProcess) field of a record without ids in its
 * header, found by name once per description: records of one kind come
 * in runs.
 */
static bool payload_pid(struct dump_procs *p, const struct etw_decoded_event *d,
			uint32_t *pid)
{
	const struct etw_decoded_field *f;
	const uint8_t *b;

	if (d->event_info != p->pid_info) {
		p->pid_info = d->event_info;
		f = etw_decoded_field(d, "ProcessId");
		if (!f)
			f = etw_decoded_field(d, "StackProcess");
		p->pid_field = f && f->size == 4 ? (int32_t)(f - d->fields) : -1;
	}
	if (p->pid_field < 0 || (uint32_t)p->pid_field >= d->field_count)
		return false;
	f = &d->fields[p->pid_field];
	if (f->size != 4)
		return false;
	b = f->data;
	*pid = b[0] | b[1] << 8 | b[2] << 16 | (uint32_t)b[3] << 24;
	return true;
}

void procs_add(struct dump_procs *p, const struct dump_event *e,
	       const struct etw_decoded_event *d, int dec_ret)
{
	const struct etw_etl_event *ev = e->ev;
	bool decoded = !dec_ret && d->decoding_source == DecodingSourceWbem;
	uint32_t pid;

	if (decoded && !strcmp(d->task_name, "Process") &&
	    (ev->opcode <= OP_DCEND || ev->opcode == 39))
		process_event(p, e, d);
	if (decoded && !strcmp(d->task_name, "Thread") &&
	    (ev->opcode == OP_START || ev->opcode == OP_DCSTART) &&
	    field_u32(d, "ProcessId", &pid))
		get(p, pid)->threads++;
	if ((ev->has & ETW_ETL_HAS_IDS) && ev->process_id != 0xFFFFFFFF)
		get(p, ev->process_id)->events++;
	else if (!dec_ret && payload_pid(p, d, &pid))
		get(p, pid)->events++;
}

const char *procs_name(struct dump_procs *p, const struct etw_etl_event *ev,
		       const struct etw_decoded_event *dec, int dec_ret,
		       uint32_t *pid)
{
	const struct dump_process *q;
	uint32_t id;

	if (ev->has & ETW_ETL_HAS_IDS) {
		id = ev->process_id;
	} else if (!dec_ret && payload_pid(p, dec, &id)) {
		*pid = id;
	} else {
		return NULL;
	}
	q = find(p, id);
	return q && q->image[0] ? q->image : NULL;
}

const struct dump_process *procs_table(struct dump_procs *p, size_t *n)
{
	*n = p->n;
	return p->v;
}
