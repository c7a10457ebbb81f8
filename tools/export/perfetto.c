// SPDX-License-Identifier: GPL-2.0
/*
 * etw export --format perfetto: Perfetto's protobuf trace (a Trace is a
 * stream of TracePackets), written packet by packet as the records come:
 *
 * - a track per process and per thread (TrackDescriptor with
 *   ProcessDescriptor / ThreadDescriptor), named from the Process and
 *   Thread/SetName events, emitted when first needed and again on a new
 *   name;
 * - CSwitch and ReadyThread as Perfetto's ETW messages (EtwTraceEventBundle:
 *   CSwitchEtwEvent with the wait reason, mode and state, ReadyThreadEtwEvent
 *   with the thread that was running on that CPU as its waker), which its
 *   importer turns into CPU tracks and thread states;
 * - CPU samples as PerfSample with interned callstacks (function names,
 *   frames, mappings, callstacks in the sequence's InternedData, each
 *   once per sequence; frames root first);
 * - disk completions as slices on a track per disk, in lanes so that
 *   overlapping requests never overlap on one track;
 * - every user event as an instant TrackEvent on its thread's track, its
 *   decoded fields as debug annotations; events of an activity carry it
 *   as a flow id (the related activity too), the Stop event ends it.
 *
 * Each packet is made with protobuf-c from tools/export/perfetto_trace.proto
 * (protoc-c generates the C at build time): the field numbers live in one
 * file that the tests also decode with, and protobuf-c is the encoder
 * Debian keeps for C.  Only the framing of the outer Trace message (field
 * 1, length-delimited, once per packet) is written here, so that packets
 * stream out and nothing of the trace is held.
 *
 * Packets are written in the order the records come, which is time order
 * per sequence (a record that goes back in time is written at its
 * sequence's last time): the user events and descriptors on one sequence, each
 * CPU's scheduling events on one and its samples on another (a sample is
 * complete only when its stack came), each disk lane on one.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "etw.h"
#include "export/export.h"
#include "export/idmap.h"
#include "export/stacks.h"
#include "export/utf8.h"
#include "perfetto_trace.pb-c.h"

#define SEQ_FILE_STRIDE		16384
#define SEQ_DISK		1		/* + lane */
#define DISK_LANES		8		/* per disk */
#define MAX_DISKS		127		/* SEQ_DISK .. SEQ_SCHED */
#define SEQ_SCHED		1024		/* + cpu */
#define SEQ_SAMPLES		8192		/* + cpu */
#define MAX_CPUS		4096

#define SEQ_INCREMENTAL_STATE_CLEARED	1
#define SEQ_NEEDS_INCREMENTAL_STATE	2

#define UUID_PROCESS		(1ull << 48)
#define UUID_THREAD		(2ull << 48)
#define UUID_DISK		(3ull << 48)

/* What a sequence has been told: its first packet, interned ids sent. */
struct sequence {
	bool started;
	uint64_t last;			/* timestamp of its last packet */
	uint8_t *sent_frames, *sent_names, *sent_modules, *sent_nodes;
	size_t cap_frames, cap_names, cap_modules, cap_nodes;
};

struct named {
	char *name;			/* as last emitted */
	uint32_t pid;
};

struct lane_set {
	uint32_t disk;
	int64_t *end;			/* of the last request of each lane */
	size_t n;
};

struct perfetto {
	struct export_stacks st;
	struct idmap64 seqs;		/* sequence id -> struct sequence */
	struct idmap64 procs;		/* pid + 1 -> struct named */
	struct idmap64 threads;		/* tid + 1 -> struct named */
	struct lane_set *disks;
	size_t ndisks;
	uint8_t *buf;			/* a packed packet */
	size_t cap;
	struct sbuf tmp;
	/* Scratch for one packet's interned data. */
	Perfetto__Protos__InternedString *strs;
	Perfetto__Protos__InternedString **str_ptrs;
	Perfetto__Protos__Frame *frames;
	Perfetto__Protos__Frame **frame_ptrs;
	Perfetto__Protos__Mapping *maps;
	Perfetto__Protos__Mapping **map_ptrs;
	Perfetto__Protos__InternedString *paths;
	Perfetto__Protos__InternedString **path_ptrs;
	Perfetto__Protos__Callstack *stacks;
	Perfetto__Protos__Callstack **stack_ptrs;
	uint64_t *ids;			/* frame ids of the callstacks, and map paths */
	size_t scratch_cap, ids_cap;
	Perfetto__Protos__DebugAnnotation *anns;
	Perfetto__Protos__DebugAnnotation **ann_ptrs;
	size_t anns_cap;
	uint32_t *path;
	size_t path_cap;
	struct utf8_pool utf8;		/* repaired strings of one packet */
};

static struct perfetto *state(struct export *x)
{
	return x->fmt_state;
}

static uint32_t seq_id(const struct export *x, uint32_t off)
{
	return 1 + x->file * SEQ_FILE_STRIDE + off;
}

static struct sequence *sequence(struct perfetto *p, uint32_t id)
{
	struct sequence *s = idmap64_get(&p->seqs, id);

	if (!s) {
		s = export_alloc(sizeof(*s));
		idmap64_put(&p->seqs, id, s);
	}
	return s;
}

/*
 * A packet's time on sequence @seq: never before the sequence's last, so
 * that a file whose records go back in time (corrupt, or with a clock
 * that stepped) still gives Perfetto ordered sequences.
 */
static uint64_t seq_time(struct perfetto *p, uint32_t seq, int64_t ns)
{
	struct sequence *s = sequence(p, seq);

	if ((uint64_t)ns > s->last)
		s->last = (uint64_t)ns;
	return s->last;
}

/* Has @s been sent id @i of a kind?  Marks it sent. */
static bool sent(uint8_t **bits, size_t *cap, size_t i)
{
	if (i / 8 >= *cap) {
		size_t n = (i / 8 + 1) * 2;

		*bits = export_realloc(*bits, n);
		memset(*bits + *cap, 0, n - *cap);
		*cap = n;
	}
	if ((*bits)[i / 8] & (1u << (i % 8)))
		return true;
	(*bits)[i / 8] |= (uint8_t)(1u << (i % 8));
	return false;
}

/* Varint of the outer framing: Trace.packet = 1, length-delimited. */
static void put_varint(FILE *out, uint64_t v)
{
	do {
		uint8_t b = v & 0x7f;

		v >>= 7;
		putc(v ? b | 0x80 : b, out);
	} while (v);
}

static void emit(struct export *x, Perfetto__Protos__TracePacket *pkt, uint32_t seq)
{
	struct perfetto *p = state(x);
	struct sequence *s = sequence(p, seq);
	size_t n;

	pkt->has_trusted_packet_sequence_id = true;
	pkt->trusted_packet_sequence_id = seq;
	if (pkt->has_timestamp)
		pkt->timestamp = seq_time(p, seq, (int64_t)pkt->timestamp);
	if (!s->started) {
		s->started = true;
		pkt->has_first_packet_on_sequence = true;
		pkt->first_packet_on_sequence = true;
		pkt->has_sequence_flags = true;
		pkt->sequence_flags = SEQ_INCREMENTAL_STATE_CLEARED;
	} else if (pkt->interned_data || pkt->data_case == PERFETTO__PROTOS__TRACE_PACKET__DATA_PERF_SAMPLE) {
		pkt->has_sequence_flags = true;
		pkt->sequence_flags = SEQ_NEEDS_INCREMENTAL_STATE;
	}
	n = perfetto__protos__trace_packet__get_packed_size(pkt);
	utf8_pool_reset(&p->utf8);
	if (n > p->cap) {
		p->cap = n + 4096;
		p->buf = export_realloc(p->buf, p->cap);
	}
	perfetto__protos__trace_packet__pack(pkt, p->buf);
	putc(0x0a, x->out);
	put_varint(x->out, n);
	fwrite(p->buf, 1, n, x->out);
}

/* The track of a process, emitted once and when its name changes. */
static uint64_t process_track(struct export *x, uint32_t pid)
{
	struct perfetto *p = state(x);
	struct named *n = idmap64_get(&p->procs, (uint64_t)pid + 1);
	const char *name = stack_model_process_name(x->model, pid);
	Perfetto__Protos__TracePacket pkt = PERFETTO__PROTOS__TRACE_PACKET__INIT;
	Perfetto__Protos__TrackDescriptor td = PERFETTO__PROTOS__TRACK_DESCRIPTOR__INIT;
	Perfetto__Protos__ProcessDescriptor pd = PERFETTO__PROTOS__PROCESS_DESCRIPTOR__INIT;

	if (!*name && pid == 0)
		name = "Idle";
	if (n && !strcmp(n->name, name))
		return UUID_PROCESS | pid;
	if (!n) {
		n = export_alloc(sizeof(*n));
		idmap64_put(&p->procs, (uint64_t)pid + 1, n);
	}
	free(n->name);
	n->name = export_strdup(name);
	td.has_uuid = true;
	td.uuid = UUID_PROCESS | pid;
	pd.has_pid = true;
	pd.pid = (int32_t)pid;
	pd.process_name = *name ? utf8_pool_str(&p->utf8, name) : NULL;
	td.process = &pd;
	pkt.data_case = PERFETTO__PROTOS__TRACE_PACKET__DATA_TRACK_DESCRIPTOR;
	pkt.track_descriptor = &td;
	emit(x, &pkt, seq_id(x, 0));
	return td.uuid;
}

/* The track of a thread (and of its process), as for processes. */
static uint64_t thread_track(struct export *x, uint32_t pid, uint32_t tid)
{
	struct perfetto *p = state(x);
	struct named *n = idmap64_get(&p->threads, (uint64_t)tid + 1);
	const char *name = export_thread_name(x, tid);
	Perfetto__Protos__TracePacket pkt = PERFETTO__PROTOS__TRACE_PACKET__INIT;
	Perfetto__Protos__TrackDescriptor td = PERFETTO__PROTOS__TRACK_DESCRIPTOR__INIT;
	Perfetto__Protos__ThreadDescriptor thd = PERFETTO__PROTOS__THREAD_DESCRIPTOR__INIT;

	if (pid == UINT32_MAX)
		pid = stack_model_thread_pid(x->model, tid);
	if (pid == UINT32_MAX)
		pid = tid ? tid : 0;	/* unknown: a process of its own */
	process_track(x, pid);
	if (n && n->pid == pid && !strcmp(n->name, name))
		return UUID_THREAD | tid;
	if (!n) {
		n = export_alloc(sizeof(*n));
		idmap64_put(&p->threads, (uint64_t)tid + 1, n);
	}
	free(n->name);
	n->name = export_strdup(name);
	n->pid = pid;
	td.has_uuid = true;
	td.uuid = UUID_THREAD | tid;
	td.has_parent_uuid = true;
	td.parent_uuid = UUID_PROCESS | pid;
	thd.has_pid = true;
	thd.pid = (int32_t)pid;
	thd.has_tid = true;
	thd.tid = (int32_t)tid;
	thd.thread_name = *name ? utf8_pool_str(&p->utf8, name) : NULL;
	td.thread = &thd;
	pkt.data_case = PERFETTO__PROTOS__TRACE_PACKET__DATA_TRACK_DESCRIPTOR;
	pkt.track_descriptor = &td;
	emit(x, &pkt, seq_id(x, 0));
	return td.uuid;
}

static int pf_begin(struct export *x)
{
	struct perfetto *p = export_alloc(sizeof(*p));

	stacks_init(&p->st);
	x->fmt_state = p;
	return 0;
}

static void pf_thread_name(struct export *x, uint32_t pid, uint32_t tid,
			   const char *name)
{
	(void)name;
	thread_track(x, pid, tid);
}

static void scratch(struct perfetto *p, size_t n, size_t ids)
{
	if (n > p->scratch_cap) {
		p->scratch_cap = n + 64;
#define GROW(f) p->f = export_realloc(p->f, p->scratch_cap * sizeof(*p->f))
		GROW(strs); GROW(str_ptrs); GROW(frames); GROW(frame_ptrs);
		GROW(maps); GROW(map_ptrs); GROW(paths); GROW(path_ptrs);
		GROW(stacks); GROW(stack_ptrs);
#undef GROW
	}
	if (ids > p->ids_cap) {
		p->ids_cap = ids + 256;
		p->ids = export_realloc(p->ids, p->ids_cap * sizeof(*p->ids));
	}
}

/*
 * A sample: its callstack interned (what the sequence has not been sent
 * yet goes in this packet's InternedData), then the PerfSample.
 */
static void pf_sample(struct export *x, const struct export_sample *smp)
{
	struct perfetto *p = state(x);
	Perfetto__Protos__TracePacket pkt = PERFETTO__PROTOS__TRACE_PACKET__INIT;
	Perfetto__Protos__InternedData in = PERFETTO__PROTOS__INTERNED_DATA__INIT;
	Perfetto__Protos__PerfSample ps = PERFETTO__PROTOS__PERF_SAMPLE__INIT;
	uint32_t seq, node;
	struct sequence *s;
	size_t depth, nids = 0;

	if (smp->cpu >= MAX_CPUS)
		return;
	thread_track(x, smp->pid, smp->tid);
	seq = seq_id(x, SEQ_SAMPLES + smp->cpu);
	s = sequence(p, seq);
	node = stacks_push(&p->st, x, STACK_ROOT, smp->pid, smp->stack);
	depth = stacks_depth(&p->st, node);
	if (depth > p->path_cap) {
		p->path_cap = depth + 64;
		p->path = export_realloc(p->path, p->path_cap * sizeof(*p->path));
	}
	stacks_frames(&p->st, node, p->path);
	scratch(p, depth, 2 * depth);
	if (!s->started || !sent(&s->sent_nodes, &s->cap_nodes, node)) {
		if (!s->started)
			sent(&s->sent_nodes, &s->cap_nodes, node);
		for (size_t i = 0; i < depth; i++) {
			const struct export_frame *f = &p->st.frames[p->path[i]];
			Perfetto__Protos__Frame *fr;

			if (sent(&s->sent_frames, &s->cap_frames, p->path[i]))
				continue;
			if (!sent(&s->sent_names, &s->cap_names, f->name)) {
				Perfetto__Protos__InternedString *is = &p->strs[in.n_function_names];

				perfetto__protos__interned_string__init(is);
				is->has_iid = true;
				is->iid = f->name;
				is->has_str = true;
				is->str.data = (uint8_t *)intern_str_of(&p->st.names, f->name);
				is->str.len = strlen((const char *)is->str.data);
				p->str_ptrs[in.n_function_names++] = is;
			}
			if (!sent(&s->sent_modules, &s->cap_modules, f->module)) {
				Perfetto__Protos__Mapping *m = &p->maps[in.n_mappings];
				Perfetto__Protos__InternedString *is = &p->paths[in.n_mapping_paths];

				perfetto__protos__interned_string__init(is);
				is->has_iid = true;
				is->iid = f->module;
				is->has_str = true;
				is->str.data = (uint8_t *)intern_str_of(&p->st.modules, f->module);
				is->str.len = strlen((const char *)is->str.data);
				p->path_ptrs[in.n_mapping_paths++] = is;
				perfetto__protos__mapping__init(m);
				m->has_iid = true;
				m->iid = f->module;
				m->has_start = m->has_end = true;
				m->start = f->module_base;
				m->end = f->module_base + f->module_size;
				m->n_path_string_ids = 1;
				p->ids[nids] = f->module;
				m->path_string_ids = &p->ids[nids++];
				p->map_ptrs[in.n_mappings++] = m;
			}
			fr = &p->frames[in.n_frames];
			perfetto__protos__frame__init(fr);
			fr->has_iid = fr->has_function_name_id = true;
			fr->has_mapping_id = fr->has_rel_pc = true;
			fr->iid = p->path[i] + 1;
			fr->function_name_id = f->name;
			fr->mapping_id = f->module;
			fr->rel_pc = f->rel_pc;
			p->frame_ptrs[in.n_frames++] = fr;
		}
		perfetto__protos__callstack__init(&p->stacks[0]);
		p->stacks[0].has_iid = true;
		p->stacks[0].iid = node;
		p->stacks[0].n_frame_ids = depth;
		p->stacks[0].frame_ids = &p->ids[nids];
		for (size_t i = 0; i < depth; i++)
			p->ids[nids++] = p->path[i] + 1;
		p->stack_ptrs[0] = &p->stacks[0];
		in.n_callstacks = 1;
		in.callstacks = p->stack_ptrs;
		in.function_names = p->str_ptrs;
		in.frames = p->frame_ptrs;
		in.mappings = p->map_ptrs;
		in.mapping_paths = p->path_ptrs;
		pkt.interned_data = &in;
	}
	ps.has_cpu = ps.has_pid = ps.has_tid = ps.has_callstack_iid = true;
	ps.cpu = smp->cpu;
	ps.pid = smp->pid == UINT32_MAX ? 0 : smp->pid;
	ps.tid = smp->tid;
	ps.callstack_iid = node;
	ps.has_cpu_mode = true;
	ps.cpu_mode = smp->stack &&
		      stack_model_is_kernel(x->model, stack_samples_address(x->samples, smp->stack)) ?
		      PERFETTO__PROTOS__PROFILING__CPU_MODE__MODE_KERNEL :
		      PERFETTO__PROTOS__PROFILING__CPU_MODE__MODE_USER;
	ps.has_timebase_count = true;
	ps.timebase_count = 1;
	pkt.has_timestamp = true;
	pkt.timestamp = (uint64_t)smp->ns;
	pkt.data_case = PERFETTO__PROTOS__TRACE_PACKET__DATA_PERF_SAMPLE;
	pkt.perf_sample = &ps;
	emit(x, &pkt, seq);
}

static void etw_event(struct export *x, uint16_t cpu, int64_t ns,
		      Perfetto__Protos__EtwTraceEvent *ev)
{
	Perfetto__Protos__TracePacket pkt = PERFETTO__PROTOS__TRACE_PACKET__INIT;
	Perfetto__Protos__EtwTraceEventBundle b = PERFETTO__PROTOS__ETW_TRACE_EVENT_BUNDLE__INIT;

	if (cpu >= MAX_CPUS)
		return;
	ev->has_timestamp = ev->has_cpu = true;
	ev->timestamp = seq_time(state(x), seq_id(x, SEQ_SCHED + cpu), ns);
	ev->cpu = cpu;
	b.has_cpu = true;
	b.cpu = cpu;
	b.n_event = 1;
	b.event = &ev;
	pkt.has_timestamp = true;
	pkt.timestamp = ev->timestamp;
	pkt.data_case = PERFETTO__PROTOS__TRACE_PACKET__DATA_ETW_EVENTS;
	pkt.etw_events = &b;
	emit(x, &pkt, seq_id(x, SEQ_SCHED + cpu));
}

static void pf_cswitch(struct export *x, const struct export_cswitch *c)
{
	Perfetto__Protos__EtwTraceEvent ev = PERFETTO__PROTOS__ETW_TRACE_EVENT__INIT;
	Perfetto__Protos__CSwitchEtwEvent cs = PERFETTO__PROTOS__CSWITCH_ETW_EVENT__INIT;
	const struct rec_cswitch *r = c->rec;

	thread_track(x, c->old_pid, r->old_tid);
	thread_track(x, c->new_pid, r->new_tid);
	cs.has_new_thread_id = cs.has_old_thread_id = true;
	cs.new_thread_id = r->new_tid;
	cs.old_thread_id = r->old_tid;
	cs.has_new_thread_priority = cs.has_old_thread_priority = true;
	cs.new_thread_priority = r->new_priority;
	cs.old_thread_priority = r->old_priority;
	cs.has_previous_c_state = true;
	cs.previous_c_state = r->previous_cstate;
	cs.has_old_thread_wait_reason_int = cs.has_old_thread_wait_mode_int = true;
	cs.old_thread_wait_reason_int = r->old_wait_reason;
	cs.old_thread_wait_mode_int = r->wait_mode;
	cs.has_old_thread_state_int = true;
	cs.old_thread_state_int = r->old_state;
	cs.has_old_thread_wait_ideal_processor = true;
	cs.old_thread_wait_ideal_processor = r->wait_ideal_processor;
	cs.has_new_thread_wait_time = true;
	cs.new_thread_wait_time = r->new_wait_time;
	ev.has_thread_id = true;
	ev.thread_id = r->old_tid;
	ev.event_case = PERFETTO__PROTOS__ETW_TRACE_EVENT__EVENT_C_SWITCH;
	ev.c_switch = &cs;
	etw_event(x, c->cpu, c->ns, &ev);
}

static void pf_ready(struct export *x, const struct export_ready *r)
{
	Perfetto__Protos__EtwTraceEvent ev = PERFETTO__PROTOS__ETW_TRACE_EVENT__INIT;
	Perfetto__Protos__ReadyThreadEtwEvent rt = PERFETTO__PROTOS__READY_THREAD_ETW_EVENT__INIT;

	thread_track(x, UINT32_MAX, r->rec->tid);
	rt.has_t_thread_id = true;
	rt.t_thread_id = r->rec->tid;
	rt.has_adjust_reason_int = rt.has_adjust_increment = rt.has_flag_int = true;
	rt.adjust_reason_int = r->rec->adjust_reason;
	rt.adjust_increment = r->rec->adjust_increment;
	rt.flag_int = r->rec->flag;
	if (r->waker_tid != UINT32_MAX) {
		thread_track(x, UINT32_MAX, r->waker_tid);
		ev.has_thread_id = true;
		ev.thread_id = r->waker_tid;
	}
	ev.event_case = PERFETTO__PROTOS__ETW_TRACE_EVENT__EVENT_READY_THREAD;
	ev.ready_thread = &rt;
	etw_event(x, r->cpu, r->ns, &ev);
}

static Perfetto__Protos__DebugAnnotation *annotation(struct perfetto *p, size_t i)
{
	if (i >= p->anns_cap) {
		p->anns_cap = i + 32;
		p->anns = export_realloc(p->anns, p->anns_cap * sizeof(*p->anns));
		p->ann_ptrs = export_realloc(p->ann_ptrs, p->anns_cap * sizeof(*p->ann_ptrs));
	}
	perfetto__protos__debug_annotation__init(&p->anns[i]);
	p->ann_ptrs[i] = &p->anns[i];
	return &p->anns[i];
}

static void ann_uint(struct perfetto *p, size_t i, const char *name, uint64_t v)
{
	Perfetto__Protos__DebugAnnotation *a = annotation(p, i);

	a->name = (char *)name;
	a->value_case = PERFETTO__PROTOS__DEBUG_ANNOTATION__VALUE_UINT_VALUE;
	a->uint_value = v;
}

/* A slice on a track of the lane, begin and end on the lane's sequence. */
static void slice(struct export *x, uint32_t seq, uint64_t track, const char *name,
		  int64_t start, int64_t end, size_t nanns)
{
	struct perfetto *p = state(x);
	Perfetto__Protos__TracePacket pkt = PERFETTO__PROTOS__TRACE_PACKET__INIT;
	Perfetto__Protos__TrackEvent te = PERFETTO__PROTOS__TRACK_EVENT__INIT;

	te.has_type = te.has_track_uuid = true;
	te.type = PERFETTO__PROTOS__TRACK_EVENT__TYPE__TYPE_SLICE_BEGIN;
	te.track_uuid = track;
	te.name = (char *)name;
	te.n_debug_annotations = nanns;
	te.debug_annotations = p->ann_ptrs;
	pkt.has_timestamp = true;
	pkt.timestamp = (uint64_t)start;
	pkt.data_case = PERFETTO__PROTOS__TRACE_PACKET__DATA_TRACK_EVENT;
	pkt.track_event = &te;
	emit(x, &pkt, seq);
	te.type = PERFETTO__PROTOS__TRACK_EVENT__TYPE__TYPE_SLICE_END;
	te.name = NULL;
	te.n_debug_annotations = 0;
	pkt.timestamp = (uint64_t)end;
	emit(x, &pkt, seq);
}

/* Disk numbers are Linux's dev_t (new_encode_dev): "major:minor". */
static void disk_name(struct sbuf *sb, uint32_t dev, size_t lane)
{
	sb_reset(sb);
	sb_printf(sb, "Disk %u:%u", (dev & 0xfff00) >> 8, (dev & 0xff) | ((dev >> 12) & 0xfff00));
	if (lane)
		sb_printf(sb, " (%zu)", lane + 1);
}

static void pf_disk(struct export *x, const struct export_disk *d)
{
	struct perfetto *p = state(x);
	Perfetto__Protos__TracePacket pkt = PERFETTO__PROTOS__TRACE_PACKET__INIT;
	Perfetto__Protos__TrackDescriptor td = PERFETTO__PROTOS__TRACK_DESCRIPTOR__INIT;
	const struct rec_disk_io *r = d->rec;
	struct lane_set *ls = NULL;
	size_t lane, n = 0;
	int64_t start = d->start_ns < 0 ? 0 : d->start_ns;

	for (size_t i = 0; i < p->ndisks && !ls; i++)
		if (p->disks[i].disk == r->disk)
			ls = &p->disks[i];
	if (!ls && p->ndisks == MAX_DISKS)
		return;
	if (!ls) {
		p->disks = export_realloc(p->disks, (p->ndisks + 1) * sizeof(*p->disks));
		ls = &p->disks[p->ndisks++];
		memset(ls, 0, sizeof(*ls));
		ls->disk = r->disk;
	}
	/* The first lane free when this request began; the last one if none. */
	for (lane = 0; lane < ls->n && ls->end[lane] > start; lane++)
		;
	if (lane == ls->n && ls->n < DISK_LANES) {
		ls->end = export_realloc(ls->end, (ls->n + 1) * sizeof(*ls->end));
		ls->end[ls->n++] = 0;
		disk_name(&p->tmp, r->disk, lane);
		td.has_uuid = true;
		td.uuid = UUID_DISK | (uint64_t)r->disk << 16 | lane;
		td.name = p->tmp.p;
		pkt.data_case = PERFETTO__PROTOS__TRACE_PACKET__DATA_TRACK_DESCRIPTOR;
		pkt.track_descriptor = &td;
		emit(x, &pkt, seq_id(x, 0));
	} else if (lane == ls->n) {
		lane = ls->n - 1;
		if (start < ls->end[lane])
			start = ls->end[lane];
	}
	if (d->end_ns < start)
		return;
	ls->end[lane] = d->end_ns;
	ann_uint(p, n++, "Transfer Size", r->size);
	ann_uint(p, n++, "Byte Offset", r->offset);
	ann_uint(p, n++, "Issuing Thread ID", r->issuing_tid);
	ann_uint(p, n++, "Response Time (ns)", (uint64_t)(d->end_ns - d->start_ns));
	ann_uint(p, n++, "Irp", r->irp);
	slice(x, seq_id(x, SEQ_DISK + (uint32_t)(ls - p->disks) * DISK_LANES + (uint32_t)lane),
	      UUID_DISK | (uint64_t)r->disk << 16 | lane,
	      r->flush ? "Flush" : d->write ? "Write" : "Read", start, d->end_ns, n);
}

static uint64_t flow_id(const struct etw_etl_guid *g)
{
	uint64_t a, b;

	memcpy(&a, g, 8);
	memcpy(&b, (const uint8_t *)g + 8, 8);
	return (a * 0x9e3779b97f4a7c15ull ^ b) | 1;
}

/* A decimal value as a number annotation; false if it is not one. */
static bool number_value(Perfetto__Protos__DebugAnnotation *a, const char *v)
{
	char *end;

	errno = 0;
	if (*v == '-') {
		long long n = strtoll(v, &end, 10);

		if (errno || *end || end == v)
			return false;
		a->value_case = PERFETTO__PROTOS__DEBUG_ANNOTATION__VALUE_INT_VALUE;
		a->int_value = n;
		return true;
	}
	{
		unsigned long long n = strtoull(v, &end, 10);

		if (errno || *end || end == v)
			return false;
		a->value_case = PERFETTO__PROTOS__DEBUG_ANNOTATION__VALUE_UINT_VALUE;
		a->uint_value = n;
	}
	return true;
}

static void pf_event(struct export *x, const struct export_event *e)
{
	struct perfetto *p = state(x);
	Perfetto__Protos__TracePacket pkt = PERFETTO__PROTOS__TRACE_PACKET__INIT;
	Perfetto__Protos__TrackEvent te = PERFETTO__PROTOS__TRACK_EVENT__INIT;
	uint64_t flows[2], ends[1];
	char *cat = utf8_pool_str(&p->utf8, e->provider);

	te.has_type = te.has_track_uuid = true;
	te.type = PERFETTO__PROTOS__TRACK_EVENT__TYPE__TYPE_INSTANT;
	te.track_uuid = e->tid == UINT32_MAX ? process_track(x, e->pid == UINT32_MAX ? 0 : e->pid) :
					       thread_track(x, e->pid, e->tid);
	sb_reset(&p->tmp);
	sb_printf(&p->tmp, "%s/%s", e->provider, e->name ? e->name : "Event");
	te.name = utf8_pool_str(&p->utf8, p->tmp.p);
	te.n_categories = 1;
	te.categories = &cat;
	for (size_t i = 0; i < e->nargs; i++) {
		Perfetto__Protos__DebugAnnotation *a = annotation(p, i);

		a->name = utf8_pool_str(&p->utf8, e->args[i].key);
		if (!e->args[i].number || !number_value(a, e->args[i].value)) {
			a->value_case = PERFETTO__PROTOS__DEBUG_ANNOTATION__VALUE_STRING_VALUE;
			a->string_value = utf8_pool_str(&p->utf8, e->args[i].value);
		}
	}
	te.n_debug_annotations = e->nargs;
	te.debug_annotations = p->ann_ptrs;
	/* Activities as flows: a Stop ends its own; the related one links in. */
	if (e->activity && e->opcode == 2) {
		ends[0] = flow_id(e->activity);
		te.n_terminating_flow_ids = 1;
		te.terminating_flow_ids = ends;
	} else if (e->activity) {
		flows[te.n_flow_ids++] = flow_id(e->activity);
	}
	if (e->related)
		flows[te.n_flow_ids++] = flow_id(e->related);
	te.flow_ids = flows;
	pkt.has_timestamp = true;
	pkt.timestamp = (uint64_t)e->ns;
	pkt.data_case = PERFETTO__PROTOS__TRACE_PACKET__DATA_TRACK_EVENT;
	pkt.track_event = &te;
	emit(x, &pkt, seq_id(x, 0));
}

static int pf_end(struct export *x)
{
	(void)x;
	return 0;
}

static void free_sequence(void *v)
{
	struct sequence *s = v;

	free(s->sent_frames);
	free(s->sent_names);
	free(s->sent_modules);
	free(s->sent_nodes);
	free(s);
}

static void free_named(void *v)
{
	struct named *n = v;

	free(n->name);
	free(n);
}

static void pf_free(struct export *x)
{
	struct perfetto *p = state(x);

	if (!p)
		return;
	idmap64_free(&p->seqs, free_sequence);
	idmap64_free(&p->procs, free_named);
	idmap64_free(&p->threads, free_named);
	for (size_t i = 0; i < p->ndisks; i++)
		free(p->disks[i].end);
	free(p->disks);
	stacks_free(&p->st);
	free(p->buf);
	sb_free(&p->tmp);
	free(p->strs); free(p->str_ptrs); free(p->frames); free(p->frame_ptrs);
	free(p->maps); free(p->map_ptrs); free(p->paths); free(p->path_ptrs);
	free(p->stacks); free(p->stack_ptrs); free(p->ids);
	free(p->anns); free(p->ann_ptrs); free(p->path);
	utf8_pool_free(&p->utf8);
	free(p);
	x->fmt_state = NULL;
}

const struct export_format export_perfetto = {
	.name = "perfetto",
	.begin = pf_begin,
	.thread_name = pf_thread_name,
	.sample = pf_sample,
	.cswitch = pf_cswitch,
	.ready = pf_ready,
	.disk = pf_disk,
	.event = pf_event,
	.end = pf_end,
	.free = pf_free,
};
