// SPDX-License-Identifier: GPL-2.0
/*
 * etw export's reading: every file in time order through the trace model
 * (processes, threads, images) and its samples (model/samples.c, as etw
 * report reads them: split and cached stacks joined), and the records
 * viewers show: CSwitch with the stack of the thread it switched out
 * (joined by the model as a sample's is), ReadyThread with the thread
 * that was running on that CPU (its waker), disk completions, thread
 * names, and user events decoded as etw dump decodes them.
 *
 * A stack may come long after its event (a cached key's frames come at
 * its eviction or the rundown), so samples, context switches and
 * ReadyThreads go to the format once the file is read and the model's
 * samples are final (stack_samples_finish()), merged in time order; the
 * rest goes as it is read.  Kept per file: the model's samples and one
 * small record per context switch and ReadyThread.
 *
 * Times are nanoseconds since the Unix epoch, from each file's clock
 * (QPC, system time or CPU cycles), as libetw converts them to FILETIME
 * but without rounding to 100 ns.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/trace_opts.h"
#include "etw.h"
#include "export/export.h"
#include "export/idmap.h"

/* FILETIME of 1970-01-01, in 100 ns units. */
#define FILETIME_UNIX_EPOCH	116444736000000000ull

/* KernelTraceControl's ImageID: kernel data, not a user event. */
static const struct etw_etl_guid image_id_guid = {
	0xb3e675d7, 0x2554, 0x4f18,
	{ 0x83, 0x0b, 0x27, 0x62, 0x73, 0x25, 0x60, 0xde },
};

struct cpu_state {
	uint32_t cur_tid;		/* running now; UINT32_MAX: unknown */
};

/* A CSwitch or ReadyThread, until the file's stacks are final. */
struct sched_rec {
	uint64_t ts;
	int64_t ns;
	uint16_t cpu;
	bool ready;
	union {
		struct {
			struct rec_cswitch rec;
			uint32_t old_pid, new_pid;
			uint32_t event;		/* stack_samples_add_event()'s */
		} cs;
		struct {
			struct rec_ready_thread rec;
			uint32_t waker_tid;
		} rd;
	};
};

struct reader {
	struct export x;
	const struct export_format *fmt;
	struct stack_samples *samples;
	struct idmap64 thread_names;	/* tid -> char * */
	struct etw_etl_header hdr;	/* of the file being read */
	int64_t file_ns;		/* its start, Unix ns */
	struct cpu_state *cpus;
	size_t ncpus;
	struct sched_rec *sched;	/* of the file being read */
	size_t nsched, sched_cap;
	struct dump_prep pp;
	struct sbuf hex;
	struct dump_kv *args;
	size_t nargs, cap;
	struct rec_thread_name tn;
};

static uint64_t mul_div(uint64_t a, uint64_t mul, uint64_t div)
{
	unsigned __int128 r = (unsigned __int128)a * mul / div;

	return r > INT64_MAX ? INT64_MAX : (uint64_t)r;
}

/* Ticks of the file's clock as nanoseconds. */
static int64_t ticks_ns(const struct etw_etl_header *h, uint64_t ticks)
{
	if (h->reserved_flags == ETW_ETL_CLOCK_SYSTEM_TIME)
		return (int64_t)mul_div(ticks, 100, 1);
	if (h->reserved_flags == ETW_ETL_CLOCK_CPU_CYCLES)
		return h->cpu_speed_mhz ? (int64_t)mul_div(ticks, 1000, h->cpu_speed_mhz) : 0;
	return h->perf_freq ? (int64_t)mul_div(ticks, 1000000000ull, h->perf_freq) : 0;
}

/* a + b, or a - b, held to [0, INT64_MAX]: a corrupt file's times. */
static int64_t add_ns(int64_t a, int64_t b)
{
	int64_t v;

	if (__builtin_add_overflow(a, b, &v))
		return b > 0 ? INT64_MAX : 0;
	return v < 0 ? 0 : v;
}

static int64_t to_ns(const struct reader *r, uint64_t ts)
{
	if (ts >= r->hdr.sync_timestamp)
		return add_ns(r->file_ns, ticks_ns(&r->hdr, ts - r->hdr.sync_timestamp));
	return add_ns(r->file_ns, -ticks_ns(&r->hdr, r->hdr.sync_timestamp - ts));
}

static bool in_time(const struct reader *r, int64_t ns)
{
	int64_t rel = add_ns(ns, -r->x.epoch_ns);

	return rel >= r->x.opt->start_ns && rel <= r->x.opt->end_ns;
}

bool export_wants_pid(const struct export *x, uint32_t pid)
{
	const struct export_options *o = x->opt;
	const char *name;

	if (!o->npids && !o->nnames)
		return true;
	if (pid == UINT32_MAX)
		return false;
	for (unsigned int i = 0; i < o->npids; i++)
		if (o->pids[i] == pid)
			return true;
	name = stack_model_process_name(x->model, pid);
	for (unsigned int i = 0; i < o->nnames; i++)
		if (!strcmp(o->names[i], name))
			return true;
	return false;
}

void export_process_label(const struct export *x, uint32_t pid, struct sbuf *sb)
{
	const char *name = pid == UINT32_MAX ? "" :
			   stack_model_process_name(x->model, pid);

	if (*name)
		sb_printf(sb, "%s (%u)", name, pid);
	else if (pid == 0)
		sb_printf(sb, "Idle (0)");
	else if (pid == UINT32_MAX)
		sb_printf(sb, "Process(?)");
	else
		sb_printf(sb, "Process(%u) (%u)", pid, pid);
}

const char *export_thread_name(const struct export *x, uint32_t tid)
{
	const struct reader *r = (const struct reader *)x;
	const char *name = idmap64_get(&r->thread_names, tid);

	return name ? name : "";
}

void export_frame_name(struct export *x, uint32_t pid, uint64_t addr,
		       struct sbuf *sb)
{
	sb_reset(sb);
	sb_put(sb, "", 0);
	stack_model_frame(x->model, pid, addr, false, sb);
}

static struct cpu_state *cpu_of(struct reader *r, uint16_t cpu)
{
	if (cpu >= r->ncpus) {
		size_t n = (size_t)cpu + 1;

		r->cpus = export_realloc(r->cpus, n * sizeof(*r->cpus));
		memset(r->cpus + r->ncpus, 0, (n - r->ncpus) * sizeof(*r->cpus));
		for (size_t i = r->ncpus; i < n; i++)
			r->cpus[i].cur_tid = UINT32_MAX;
		r->ncpus = n;
	}
	return &r->cpus[cpu];
}

static void put_sample(struct reader *r, const struct stack_sample *s)
{
	struct export_sample out = {
		.ns = to_ns(r, s->timestamp), .cpu = s->cpu, .pid = s->pid,
		.tid = s->tid,
	};

	if (!in_time(r, out.ns) || !export_wants_pid(&r->x, out.pid))
		return;
	out.stack = s->stack;
	r->fmt->sample(&r->x, &out);
}

static void put_sched(struct reader *r, const struct sched_rec *sr)
{
	if (!in_time(r, sr->ns))
		return;
	if (sr->ready) {
		struct export_ready out = { .ns = sr->ns, .cpu = sr->cpu,
					    .rec = &sr->rd.rec,
					    .waker_tid = sr->rd.waker_tid };

		if (export_wants_pid(&r->x, stack_model_thread_pid(r->x.model,
								   sr->rd.rec.tid)))
			r->fmt->ready(&r->x, &out);
	} else {
		struct export_cswitch out = {
			.ns = sr->ns, .cpu = sr->cpu, .rec = &sr->cs.rec,
			.old_pid = sr->cs.old_pid, .new_pid = sr->cs.new_pid,
		};

		if (!export_wants_pid(&r->x, out.old_pid) &&
		    !export_wants_pid(&r->x, out.new_pid))
			return;
		out.stack = stack_samples_event_stack(r->samples, sr->cs.event);
		r->fmt->cswitch(&r->x, &out);
	}
}

/* The file's samples and scheduling records, merged in time order. */
static void put_file_samples(struct reader *r)
{
	size_t n = stack_samples_count(r->samples), i = 0, j = 0;

	stack_samples_finish(r->samples);
	while (i < n || j < r->nsched) {
		const struct stack_sample *s = i < n ? stack_samples_get(r->samples, i) : NULL;

		if (s && (j == r->nsched || s->timestamp < r->sched[j].ts)) {
			put_sample(r, s);
			i++;
		} else {
			put_sched(r, &r->sched[j++]);
		}
	}
	r->nsched = 0;
}

static struct sched_rec *new_sched(struct reader *r, const struct etw_etl_event *ev,
				   int64_t ns)
{
	struct sched_rec *sr;

	if (r->nsched == r->sched_cap) {
		r->sched_cap = r->sched_cap ? 2 * r->sched_cap : 1024;
		r->sched = export_realloc(r->sched, r->sched_cap * sizeof(*r->sched));
	}
	sr = &r->sched[r->nsched++];
	memset(sr, 0, sizeof(*sr));
	sr->ts = ev->timestamp;
	sr->ns = ns;
	sr->cpu = ev->processor;
	return sr;
}

static void kernel_record(struct reader *r, const struct etw_etl_event *ev)
{
	struct cpu_state *c = cpu_of(r, ev->processor);
	struct rec_ready_thread rt;
	struct rec_cswitch cs;
	struct rec_disk_io dk;
	struct sched_rec *sr;
	int64_t ns = to_ns(r, ev->timestamp);

	if (rec_parse_cswitch(ev, &cs)) {
		sr = new_sched(r, ev, ns);
		sr->cs.rec = cs;
		/* The processes as they are now: a thread id may be reused. */
		sr->cs.old_pid = cs.old_tid ? stack_model_thread_pid(r->x.model, cs.old_tid) : 0;
		sr->cs.new_pid = cs.new_tid ? stack_model_thread_pid(r->x.model, cs.new_tid) : 0;
		/* The kernel logger here walks the thread switched out. */
		sr->cs.event = (uint32_t)stack_samples_add_event(r->samples, ev, cs.old_tid);
		c->cur_tid = cs.new_tid;
	} else if (rec_parse_ready_thread(ev, &rt)) {
		sr = new_sched(r, ev, ns);
		sr->ready = true;
		sr->rd.rec = rt;
		sr->rd.waker_tid = c->cur_tid;
	} else if (rec_parse_disk_io(ev, &dk)) {
		struct export_disk out = {
			.start_ns = add_ns(ns, -ticks_ns(&r->hdr, dk.response_time)),
			.end_ns = ns, .rec = &dk,
			.write = ev->hook_id == HOOK_DISK_WRITE,
		};

		out.pid = dk.issuing_tid ? stack_model_thread_pid(r->x.model, dk.issuing_tid) :
					   UINT32_MAX;
		if (in_time(r, ns) && export_wants_pid(&r->x, out.pid))
			r->fmt->disk(&r->x, &out);
	} else if (rec_parse_thread_name(ev, &r->tn)) {
		char *old = idmap64_get(&r->thread_names, r->tn.tid);

		stack_model_set_thread(r->x.model, r->tn.tid, r->tn.pid);
		if (old && !strcmp(old, r->tn.name))
			return;
		free(old);
		idmap64_put(&r->thread_names, r->tn.tid, export_strdup(r->tn.name));
		if (export_wants_pid(&r->x, r->tn.pid))
			r->fmt->thread_name(&r->x, r->tn.pid, r->tn.tid, r->tn.name);
	}
}

static void add_arg(struct reader *r, const char *key, const char *value,
		    bool number)
{
	if (r->nargs == r->cap) {
		r->cap = r->cap ? 2 * r->cap : 32;
		r->args = export_realloc(r->args, r->cap * sizeof(*r->args));
	}
	r->args[r->nargs++] = (struct dump_kv){ .key = key, .value = value,
						.number = number };
}

static bool is_zero_guid(const struct etw_etl_guid *g)
{
	static const struct etw_etl_guid zero;

	return !memcmp(g, &zero, sizeof(zero));
}

/*
 * A user event: manifest, TraceLogging and classic events, and WPP
 * messages, all through etw dump's decoding (libetw's decoder, which
 * decodes WPP messages once it knows their format); what it cannot
 * decode goes out as its payload in hex.
 */
static void user_event(struct reader *r, const struct etw_etl_event *ev)
{
	struct dump_event *e = &r->pp.e;
	struct export_event out = { .ns = to_ns(r, ev->timestamp),
				    .cpu = ev->processor };
	uint32_t pid = ev->process_id;

	if (!in_time(r, out.ns))
		return;
	if (!(ev->has & ETW_ETL_HAS_IDS) || pid == UINT32_MAX)
		pid = stack_model_thread_pid(r->x.model, ev->thread_id);
	if (!export_wants_pid(&r->x, pid))
		return;
	dump_prepare(&r->pp, ev, r->x.records, true);
	r->nargs = 0;
	if (e->dec)
		for (uint32_t i = 0; i < e->dec->field_count; i++)
			add_arg(r, e->dec->fields[i].name, e->dec->fields[i].value,
				e->dec->fields[i].number);
	for (size_t i = 0; i < e->fields.n; i++)
		add_arg(r, e->fields.v[i].key, e->fields.v[i].value,
			e->fields.v[i].number);
	if (!e->decoded && ev->data_size) {
		sb_reset(&r->hex);
		sb_put(&r->hex, "0x", 2);
		sb_hex(&r->hex, ev->data, ev->data_size);
		add_arg(r, "UserData", r->hex.p, false);
	}
	out.pid = pid;
	out.tid = (ev->has & ETW_ETL_HAS_IDS) ? ev->thread_id : UINT32_MAX;
	out.provider = e->provider_name ? e->provider_name : e->provider;
	out.name = e->event_name;
	out.opcode = ev->opcode;
	if ((ev->has & ETW_ETL_HAS_ACTIVITY) && !is_zero_guid(&ev->activity_id))
		out.activity = &ev->activity_id;
	for (uint32_t i = 0; i < ev->ext_count; i++)
		if (ev->ext[i].type == ETW_ETL_EXT_RELATED_ACTIVITYID &&
		    ev->ext[i].size >= sizeof(struct etw_etl_guid))
			out.related = ev->ext[i].data;
	out.args = r->args;
	out.nargs = r->nargs;
	r->fmt->event(&r->x, &out);
}

static bool is_user_event(const struct etw_etl_event *ev)
{
	if (!ev->buffer)
		return false;		/* the header's group */
	switch (ev->kind) {
	case ETW_ETL_KIND_EVENT:
	case ETW_ETL_KIND_INSTANCE:
	case ETW_ETL_KIND_MESSAGE:
		return true;
	case ETW_ETL_KIND_CLASSIC:
		return !(ev->has & ETW_ETL_HAS_PROVIDER) ||
		       (memcmp(&ev->provider, &image_id_guid, sizeof(image_id_guid)) &&
			!etw_etl_kernel_provider_name(&ev->provider));
	default:
		return false;
	}
}

static void record(void *arg, const struct etw_etl_event *ev)
{
	struct reader *r = arg;

	stack_model_event(r->x.model, ev);
	stack_samples_event(r->samples, ev);
	if (ev->has & ETW_ETL_HAS_HOOK)
		kernel_record(r, ev);
	else if (is_user_event(ev))
		user_event(r, ev);
	r->x.records++;
}

static void file_begin(void *arg, const struct etw_etl_header *h)
{
	struct reader *r = arg;

	r->hdr = *h;
	r->file_ns = r->hdr.start_time > FILETIME_UNIX_EPOCH &&
		     r->hdr.start_time - FILETIME_UNIX_EPOCH < INT64_MAX / 100 ?
		     (int64_t)(r->hdr.start_time - FILETIME_UNIX_EPOCH) * 100 : 0;
	if (!r->x.file)
		r->x.epoch_ns = r->file_ns;
	if (r->fmt->file_begin)
		r->fmt->file_begin(&r->x);
	/* Stacks are joined in the file they are in. */
	r->samples = stack_samples_new(r->x.model);
	r->x.samples = r->samples;
}

static int read_file(struct reader *r, const char *path)
{
	static const struct trace_reader rd = {
		.begin = file_begin, .record = record,
	};
	int ret = trace_opts_read("export", path, &rd, r);

	if (!r->samples)
		return ret;		/* not opened */
	put_file_samples(r);
	stack_samples_free(r->samples);
	r->samples = NULL;
	r->x.samples = NULL;
	r->x.file++;
	return ret;
}

int export_run(const struct export_options *o, const struct export_format *fmt,
	       char **files, int nfiles, FILE *out)
{
	struct reader *r = export_alloc(sizeof(*r));
	int status;

	r->x.opt = o;
	r->x.out = out;
	r->fmt = fmt;
	r->x.model = stack_model_new(&o->stack);
	status = fmt->begin(&r->x);
	for (int i = 0; !status && i < nfiles; i++)
		status |= read_file(r, files[i]);
	if (!status)
		status = fmt->end(&r->x);
	fmt->free(&r->x);
	free(r->cpus);
	free(r->sched);
	free(r->args);
	sb_free(&r->hex);
	dump_prep_free(&r->pp);
	idmap64_free(&r->thread_names, free);
	stack_model_free(r->x.model);
	free(r);
	return status;
}
