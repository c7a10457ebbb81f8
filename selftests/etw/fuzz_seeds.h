/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Seeds of the /dev/etw fuzzer: for each ioctl, a call that is valid (or
 * nearly) against the objects that exist right now: registrations this
 * thread made, sessions root started, the shared provider GUIDs.  The
 * fuzzer then mutates a few fields, so most calls get deep into the
 * handler before something is wrong.  @arg is zeroed and holds the size.
 */
#ifndef ETW_FUZZ_SEEDS_H
#define ETW_FUZZ_SEEDS_H

#include "fuzz.h"
#include "text_patch.h"

/* The file the next call goes to; seeds that need a registration set it. */
static __thread unsigned int fuzz_seed_fd;

static inline void seed_register(struct fuzz_thread *t, void *arg)
{
	struct etw_provider_register *r = arg;

	memcpy(r->guid, fuzz_guid(t), 16);
	/* Classic providers: one session at a time, the newest enable wins. */
	r->flags = fuzz_chance(t, 80) ? 0 : fuzz_chance(t, 95) ? ETW_REGISTER_F_CLASSIC :
		   fuzz_u32(t);
}

static inline void seed_unregister(struct fuzz_thread *t, void *arg)
{
	struct etw_provider_unregister *u = arg;

	u->reg_id = fuzz_reg(t, fuzz_seed_fd);
}

/*
 * The classic kinds of ETW_IOC_WRITE (struct etw_trace_write): TraceEvent's
 * EVENT_TRACE_HEADER (or EVENT_INSTANCE_HEADER) followed by its data or by
 * MOF_FIELDs, or TraceMessage's descriptors, into a session by logger id.
 */
static inline void seed_trace_write(struct fuzz_thread *t, void *arg)
{
	static const uint32_t wnode[] = {
		ETW_TRACE_FLAG_TRACED_GUID, ETW_TRACE_FLAG_USE_TIMESTAMP,
		ETW_TRACE_FLAG_USE_GUID_PTR, ETW_TRACE_FLAG_USE_MOF_PTR,
	};
	struct etw_trace_write *w = arg;
	uint32_t i, n, flags = 0, hsize, data = fuzz_below(t, 200);
	uint8_t *h;
	uint16_t size;

	w->kind = ETW_WRITE_TRACE + fuzz_below(t, 3);
	w->flags = fuzz_chance(t, 80) ? fuzz_rand(t) & ETW_WRITE_F_TRACE_MASK : fuzz_rand(t);
	w->logger_id = fuzz_logger(t);
	w->message_flags = fuzz_chance(t, 90) ? fuzz_rand(t) & 0xff : fuzz_u32(t);
	w->message_number = fuzz_rand(t);
	w->instance_id = fuzz_rand(t);
	w->parent_instance_id = fuzz_rand(t);
	fuzz_fill(t, w->guid, 32);

	if (w->kind == ETW_WRITE_MESSAGE) {
		struct etw_data_desc *d;

		n = fuzz_chance(t, 95) ? fuzz_below(t, 4) : fuzz_below(t, ETW_MAX_DATA_DESCRIPTORS + 4);
		d = fuzz_alloc(t, n * sizeof(*d) + 8);
		for (i = 0; i < n; i++) {
			d[i].size = fuzz_below(t, 64);
			d[i].ptr = fuzz_chance(t, 90) ? (uintptr_t)fuzz_alloc(t, d[i].size) :
							fuzz_ptr(t, d[i].size);
			d[i].type = 0;
			memset(d[i].reserved, 0, sizeof(d[i].reserved));
		}
		w->count = n;
		w->data = (uintptr_t)d;
		return;
	}
	hsize = w->kind == ETW_WRITE_INSTANCE ? ETW_INSTANCE_HEADER_SIZE : ETW_TRACE_HEADER_SIZE;
	for (i = 0; i < 4; i++)
		if (fuzz_chance(t, i ? 20 : 95))
			flags |= wnode[i];
	h = fuzz_alloc(t, hsize + 17 * 16 + 8);
	fuzz_fill(t, h, hsize + data);
	if (flags & ETW_TRACE_FLAG_USE_MOF_PTR) {
		/* MOF_FIELD: DataPtr, Length, DataType. */
		n = fuzz_chance(t, 90) ? fuzz_below(t, 4) : 17;
		for (i = 0; i < n; i++) {
			uint64_t ptr = fuzz_chance(t, 90) ? (uintptr_t)fuzz_alloc(t, 64) : fuzz_ptr(t, 64);
			uint32_t len = fuzz_chance(t, 90) ? fuzz_below(t, 64) : fuzz_u32(t);

			memcpy(h + hsize + 16 * i, &ptr, 8);
			memcpy(h + hsize + 16 * i + 8, &len, 4);
		}
		data = 16 * n;
	}
	if (flags & ETW_TRACE_FLAG_USE_GUID_PTR) {
		uint64_t ptr = fuzz_chance(t, 90) ? (uintptr_t)fuzz_guid(t) : fuzz_ptr(t, 16);

		memcpy(h + 0x18, &ptr, 8);
	}
	size = fuzz_chance(t, 90) ? hsize + data : (uint16_t)fuzz_u32(t);
	memcpy(h, &size, 2);
	memcpy(h + 0x2c, &flags, 4);
	w->header = fuzz_chance(t, 95) ? (uintptr_t)h : fuzz_ptr(t, hsize);
}

static inline void seed_write(struct fuzz_thread *t, void *arg)
{
	static const uint32_t sizes[] = { 0, 1, 7, 8, 200, 4000, 32696, 65455, 65536 };
	struct etw_event_write *w = arg;
	struct etw_data_desc *d;
	uint32_t i, n;

	if (fuzz_chance(t, 25)) {
		seed_trace_write(t, arg);
		return;
	}
	w->kind = fuzz_chance(t, 95) ? ETW_WRITE_EVENT : fuzz_below(t, 8);
	w->flags = fuzz_rand(t) & (fuzz_chance(t, 95) ? ETW_WRITE_F_MASK : 0xffff);
	w->reg_id = fuzz_reg(t, fuzz_seed_fd);
	w->desc.id = fuzz_below(t, 4);
	w->desc.level = fuzz_below(t, 7);
	w->desc.keyword = fuzz_chance(t, 50) ? 0 : fuzz_rand(t);
	fuzz_fill(t, w->activity_id, 32);
	w->filter = fuzz_chance(t, 90) ? 0 : fuzz_rand(t);

	n = fuzz_chance(t, 95) ? fuzz_below(t, 4) : fuzz_below(t, ETW_MAX_DATA_DESCRIPTORS + 4);
	w->count = n;
	if (!n)
		return;
	d = fuzz_alloc(t, n * sizeof(*d));
	for (i = 0; i < n; i++) {
		d[i].size = fuzz_chance(t, 90) ? fuzz_below(t, 300) :
			    sizes[fuzz_below(t, sizeof(sizes) / sizeof(sizes[0]))];
		d[i].ptr = fuzz_chance(t, 90) ? (uintptr_t)fuzz_alloc(t, d[i].size) :
						fuzz_ptr(t, d[i].size);
		/* Metadata blobs and time stamp overrides, for providers that
		 * set traits or asked for descriptor types. */
		d[i].type = fuzz_chance(t, 80) ? 0 : fuzz_below(t, 5);
		if (d[i].type == ETW_DATA_DESC_TIMESTAMP_OVERRIDE && fuzz_chance(t, 80))
			d[i].size = 8;
		memset(d[i].reserved, 0, sizeof(d[i].reserved));
	}
	w->data = fuzz_chance(t, 95) ? (uintptr_t)d : fuzz_ptr(t, n * sizeof(*d));
}

/* ETW_IOC_WRITE_SHORT: a full write's fields, or its payload inline. */
static inline void seed_write_short(struct fuzz_thread *t, void *arg)
{
	struct etw_event_write_short *s = arg;
	struct etw_event_write w = { .size = sizeof(w) };
	uint32_t size;

	seed_write(t, &w);
	s->reg_id = w.reg_id;
	s->desc = w.desc;
	memcpy(s->activity_id, w.activity_id, sizeof(s->activity_id));
	s->flags = fuzz_rand(t) & (fuzz_chance(t, 95) ? ETW_WRITE_SHORT_F_MASK : 0xffffffff);
	if (!(s->flags & ETW_WRITE_F_INLINE)) {
		s->count = w.count;
		s->data = w.data;
		return;
	}
	size = fuzz_chance(t, 95) ? fuzz_below(t, 600) : fuzz_rand(t);
	s->count = size;
	s->data = fuzz_chance(t, 90) && size < 65536 ? (uintptr_t)fuzz_alloc(t, size) :
						       fuzz_ptr(t, size);
}

/*
 * Kernel flags whose sources attach tracepoints, kprobes or perf counters
 * (process, thread, image, CSwitch, dispatcher, disk I/O, profile, file
 * I/O) are not
 * set by the fuzzer under QEMU's multi-threaded TCG with two vCPUs: there
 * patching kernel text under load oopses the guest with an int3 whatever
 * attaches the probes, tracefs alone included (Documentation/guarantees.rst
 * has the measurements; text_patch.h).  The flags' parsing, the system
 * loggers and the sources that attach nothing are still fuzzed, and
 * kernel_logger_test and kstack_test attach the rest.  In a VM started
 * with ETW_VM_ACCEL=tcg,thread=single, with one vCPU or on KVM every flag
 * is fuzzed.
 */
#define FUZZ_KLOG_ATTACHING	0x07000f17u

static inline uint32_t fuzz_klog_flags(uint32_t flags)
{
	return etw_text_patch_safe() ? flags : flags & ~FUZZ_KLOG_ATTACHING;
}

/* Mostly low bits (process, thread, image), sometimes FileIo's. */
static inline uint32_t fuzz_klog_pick(struct fuzz_thread *t)
{
	static const uint32_t fileio[] = {
		ETW_KFLAG_FILE_IO, ETW_KFLAG_FILE_IO_INIT, ETW_KFLAG_DISK_FILE_IO,
		ETW_KFLAG_FILE_IO | ETW_KFLAG_FILE_IO_INIT | ETW_KFLAG_DISK_FILE_IO,
	};

	if (fuzz_chance(t, 15))
		return fuzz_klog_flags(fileio[fuzz_below(t, 4)] | fuzz_below(t, 8));
	return fuzz_klog_flags(fuzz_chance(t, 80) ? fuzz_below(t, 8) : fuzz_u32(t));
}

static inline void seed_session_start(struct fuzz_thread *t, void *arg)
{
	static const uint32_t modes[] = {
		0, ETW_MODE_FILE_SEQUENTIAL, ETW_MODE_FILE_CIRCULAR,
		ETW_MODE_REAL_TIME, ETW_MODE_BUFFERING, ETW_MODE_INDEPENDENT,
		ETW_MODE_FILE_SEQUENTIAL | ETW_MODE_FILE_CIRCULAR,
	};
	/* Mostly small: buffers are zeroed under the control lock. */
	static const uint32_t kb[] = { 1, 1, 2, 4, 4, 8, 0, 1024, 1025 };
	struct etw_session_start *s = arg;

	snprintf(s->info.name, sizeof(s->info.name), "etwfuzz-%u", fuzz_below(t, 24));
	if (fuzz_chance(t, 10))
		fuzz_fill(t, s->info.guid, 16);
	s->info.log_file_mode = fuzz_chance(t, 90) ?
		modes[fuzz_below(t, sizeof(modes) / sizeof(modes[0]))] : fuzz_u32(t);
	s->info.buffer_size_kb = fuzz_chance(t, 90) ?
		kb[fuzz_below(t, sizeof(kb) / sizeof(kb[0]))] : fuzz_u32(t);
	s->info.min_buffers = fuzz_chance(t, 80) ? fuzz_below(t, 8) : fuzz_u32(t);
	s->info.max_buffers = fuzz_chance(t, 80) ? fuzz_below(t, 12) : fuzz_u32(t);
	s->info.flush_timer = fuzz_chance(t, 80) ? fuzz_below(t, 2) : fuzz_u32(t);
	/*
	 * System loggers: every kernel source starts and stops under fuzz.
	 * Rarely, and with small buffers: each start and stop of a source
	 * patches kernel text (tracepoints, static keys), which QEMU's
	 * multi-threaded TCG does not make safe against a CPU running the
	 * patched code (Documentation/guarantees.rst); and a system logger
	 * holds four buffers per CPU, so large ones would take the
	 * max_buffer_memory_mb the fuzzer's other sessions need (ENOMEM).
	 */
	if (fuzz_chance(t, 5)) {
		s->info.log_file_mode |= ETW_MODE_SYSTEM_LOGGER;
		s->info.buffer_size_kb = 1 + fuzz_below(t, 8);
		s->info.enable_flags = fuzz_klog_pick(t);
		if (fuzz_chance(t, 20))
			snprintf(s->info.name, sizeof(s->info.name),
				 "NT Kernel Logger");
	}
}

static inline void seed_session_control(struct fuzz_thread *t, void *arg)
{
	struct etw_session_control *c = arg;

	/*
	 * Mostly queries and updates: a stop lives long enough to be used, and
	 * stops and flushes wait for the other CPU (slow under TCG).
	 */
	c->code = fuzz_chance(t, 4) ? ETW_CONTROL_STOP :
		  fuzz_chance(t, 10) ? ETW_CONTROL_FLUSH :
		  fuzz_chance(t, 95) ? fuzz_below(t, 3) : fuzz_u32(t);
	if (c->code == ETW_CONTROL_STOP && fuzz_chance(t, 50))
		c->code = ETW_CONTROL_QUERY;
	c->logger_id = fuzz_logger(t);
	if (fuzz_chance(t, 15)) {
		c->logger_id = 0;
		snprintf(c->info.name, sizeof(c->info.name), "etwfuzz-%u",
			 fuzz_below(t, 24));
	}
	if (c->code == ETW_CONTROL_UPDATE) {
		c->info.flush_timer = fuzz_below(t, 3);
		c->info.max_buffers = fuzz_chance(t, 80) ? 0 : fuzz_u32(t);
		/* A system logger's EnableFlags; EINVAL for any other. */
		if (fuzz_chance(t, 30))
			c->info.enable_flags = fuzz_klog_pick(t);
	}
}

/*
 * TraceSetInformation/TraceQueryInformation: the kernel's four classes,
 * stack lists of kernel group GUIDs (and others), stack copy sizes around
 * the largest, lengths around each class's bounds.
 */
static inline void seed_trace_info(struct fuzz_thread *t, void *arg)
{
	static const uint8_t process_guid[16] = {
		0xd0, 0xa8, 0x6f, 0x3d, 0x05, 0xfe, 0xd0, 0x11,
		0x9d, 0xda, 0x00, 0xc0, 0x4f, 0xd7, 0xba, 0x7c,
	};
	struct etw_trace_info *ti = arg;
	uint8_t *data = fuzz_alloc(t, 1024);
	uint32_t i;

	ti->logger_id = fuzz_logger(t);
	ti->info_class = !fuzz_chance(t, 90) ? fuzz_u32(t) :
			 fuzz_chance(t, 20) ? ETW_TRACE_STACK_COPY_INFO :
			 3 + fuzz_below(t, 3);
	switch (ti->info_class) {
	case ETW_TRACE_STACK_COPY_INFO:
		ti->length = fuzz_chance(t, 80) ? 4 : fuzz_below(t, 9);
		i = fuzz_chance(t, 70) ? fuzz_below(t, ETW_STACK_COPY_MAX + 64) :
		    fuzz_u32(t);
		memcpy(data, &i, 4);
		break;
	case ETW_TRACE_STACK_TRACING_INFO:
		ti->length = ETW_CLASSIC_EVENT_ID_SIZE * fuzz_below(t, 42);
		for (i = 0; i < ti->length; i += ETW_CLASSIC_EVENT_ID_SIZE) {
			if (fuzz_chance(t, 70))
				memcpy(data + i, process_guid, 16);
			else
				fuzz_fill(t, data + i, 16);
			data[i + 16] = fuzz_below(t, 256);
		}
		break;
	case ETW_TRACE_ENABLE_FLAGS_INFO:
		ti->length = 4 * fuzz_below(t, 10);
		fuzz_fill(t, data, ti->length);
		for (i = 0; i + 4 <= ti->length; i += 4) {
			uint32_t w;

			memcpy(&w, data + i, 4);
			w = fuzz_klog_flags(w);
			memcpy(data + i, &w, 4);
		}
		break;
	default:
		ti->length = 8;
		memset(data, 0, 8);
		data[4] = fuzz_below(t, 256);
		break;
	}
	if (fuzz_chance(t, 5))
		ti->length = fuzz_u32(t);
	ti->data = (uintptr_t)data;
}

/*
 * EVENT_FILTER_TYPE_PAYLOAD: mostly a well-formed blob of random filters
 * (so that the write path evaluates random predicates on random
 * payloads), sometimes with one byte changed, sometimes a bad pointer.
 */
static inline void seed_payload_filter(struct fuzz_thread *t, struct etw_enable *e)
{
	static const uint8_t ops[] = { 0, 1, 2, 3, 4, 5, 6, 7, 8, 20, 21, 30, 31 };
	static const uint16_t sizes[] = { 1, 2, 4, 8, 16, 3 };
	uint8_t *blob = fuzz_alloc(t, 512);
	struct etw_pf_header *h = (struct etw_pf_header *)blob;
	uint32_t off = sizeof(*h), n = 1 + fuzz_below(t, 2), i, k;

	memset(blob, 0, 512);
	h->magic = ETW_PF_MAGIC;
	h->count = n;
	memcpy(h->guid, e->guid, 16);
	for (i = 0; i < n; i++) {
		struct etw_pf_event *ev = (struct etw_pf_event *)(blob + off);
		struct etw_pf_field *f = (struct etw_pf_field *)(ev + 1);
		struct etw_pf_pred *pr;
		uint32_t preds_at, strings;

		ev->id = fuzz_below(t, 4);
		ev->flags = fuzz_below(t, 4);
		ev->field_count = 1 + fuzz_below(t, 4);
		ev->pred_count = 1 + fuzz_below(t, 3);
		for (k = 0; k < ev->field_count; k++) {
			f[k].kind = fuzz_below(t, 4);
			f[k].size = f[k].kind ? 0 : sizes[fuzz_below(t, 6)];
		}
		preds_at = (sizeof(*ev) + ev->field_count * sizeof(*f) + 7) & ~7u;
		pr = (struct etw_pf_pred *)((uint8_t *)ev + preds_at);
		strings = preds_at + ev->pred_count * sizeof(*pr);
		for (k = 0; k < ev->pred_count; k++) {
			pr[k].op = ops[fuzz_below(t, sizeof(ops))];
			pr[k].type = fuzz_below(t, 5);
			pr[k].field = fuzz_below(t, ev->field_count);
			pr[k].value[0] = fuzz_chance(t, 50) ? fuzz_below(t, 8) : fuzz_rand(t);
			pr[k].value[1] = fuzz_rand(t);
			pr[k].str_off = strings;
			pr[k].str_len = fuzz_below(t, 5) * 2;
		}
		fuzz_fill(t, (uint8_t *)ev + strings, 8);
		ev->size = strings + 8;
		ev->size = (ev->size + 7) & ~7u;
		off += ev->size;
	}
	h->size = off;
	if (fuzz_chance(t, 20))
		blob[fuzz_below(t, off)] ^= 1 << fuzz_below(t, 8);
	e->flags |= ETW_ENABLE_F_PAYLOAD;
	e->payload_size = fuzz_chance(t, 95) ? off : fuzz_below(t, 8192);
	e->payload_data = fuzz_chance(t, 95) ? (uintptr_t)blob : fuzz_ptr(t, off);
}

static inline void seed_enable(struct fuzz_thread *t, void *arg)
{
	struct etw_enable *e = arg;
	uint16_t *ids;
	uint32_t i;

	e->logger_id = fuzz_logger(t);
	e->control_code = fuzz_chance(t, 95) ? fuzz_below(t, 3) : fuzz_u32(t);
	memcpy(e->guid, fuzz_guid(t), 16);
	fuzz_fill(t, e->source_id, 16);
	e->match_any = fuzz_chance(t, 50) ? 0 : fuzz_rand(t);
	e->match_all = fuzz_chance(t, 70) ? 0 : fuzz_rand(t);
	e->level = fuzz_below(t, 8);
	/* Every property, STACK_TRACE included: it walks the writer's stack. */
	e->enable_property = fuzz_chance(t, 50) ? 0 :
			     fuzz_chance(t, 95) ? fuzz_rand(t) & ETW_ENABLE_PROPERTY_MASK :
			     fuzz_u32(t);
	if (fuzz_chance(t, 20)) {
		e->pid_count = fuzz_below(t, ETW_MAX_FILTER_PIDS + 2);
		for (i = 0; i < ETW_MAX_FILTER_PIDS; i++)
			e->pids[i] = fuzz_chance(t, 50) ? (uint32_t)getpid() : fuzz_u32(t);
	}
	if (fuzz_chance(t, 20)) {
		e->event_id_count = fuzz_below(t, ETW_MAX_FILTER_EVENT_IDS + 2);
		ids = fuzz_alloc(t, e->event_id_count * sizeof(*ids) + 2);
		for (i = 0; i < e->event_id_count; i++)
			ids[i] = fuzz_below(t, 4);
		e->event_ids = fuzz_chance(t, 90) ? (uintptr_t)ids :
			       fuzz_ptr(t, e->event_id_count * sizeof(*ids));
		e->event_ids_enable = fuzz_chance(t, 95) ? fuzz_below(t, 2) : fuzz_u32(t);
	}
	/*
	 * Waiting for callbacks: mostly not, else briefly.  (A mutation may
	 * still wait forever for a registration that never acknowledges: the
	 * wait ends when that registration goes, at the latest at exit.)
	 */
	e->timeout_ms = fuzz_chance(t, 80) ? ETW_TIMEOUT_ASYNC : 1 + fuzz_below(t, 20);
	if (fuzz_chance(t, 20)) {
		uint32_t size = fuzz_chance(t, 90) ? fuzz_below(t, 64) : fuzz_u32(t);
		uint8_t *data = fuzz_alloc(t, 64);

		e->flags = ETW_ENABLE_F_FILTER;
		e->filter_type = fuzz_chance(t, 50) ? ETW_FILTER_TYPE_SCHEMATIZED :
						      fuzz_u32(t) & 0x7fffffff;
		fuzz_fill(t, data, 64);
		if (e->filter_type == ETW_FILTER_TYPE_SCHEMATIZED && fuzz_chance(t, 70)) {
			/* EVENT_FILTER_HEADER: Id, Version, Reserved[5], InstanceId,
			 * Size, NextOffset: a single, self-consistent block. */
			size = ETW_FILTER_HEADER_SIZE + fuzz_below(t, 40);
			memset(data, 0, ETW_FILTER_HEADER_SIZE);
			memcpy(data + 16, &size, 4);
		}
		e->filter_size = size;
		e->filter_data = fuzz_chance(t, 90) ? (uintptr_t)data : fuzz_ptr(t, size);
	}
	if (fuzz_chance(t, 15))
		seed_payload_filter(t, e);
}

static inline void seed_notify_ack(struct fuzz_thread *t, void *arg)
{
	struct etw_notify_ack *a = arg;

	a->cookie = fuzz_chance(t, 90) ? t->cookies[fuzz_below(t, FUZZ_COOKIES)] :
				      fuzz_rand(t);
}

static inline void seed_consumer_attach(struct fuzz_thread *t, void *arg)
{
	struct etw_consumer_attach *a = arg;

	a->logger_id = fuzz_logger(t);
	/* A logger consumer makes STOP wait for it: rare. */
	a->flags = fuzz_chance(t, 95) ? ETW_CONSUMER_F_CLOEXEC :
		   fuzz_chance(t, 50) ? ETW_CONSUMER_F_CLOEXEC | ETW_CONSUMER_F_LOGGER :
		   fuzz_u32(t);
}

static inline void seed_buffer_read(struct fuzz_thread *t, void *arg)
{
	struct etw_buffer_read *r = arg;

	r->logger_id = fuzz_logger(t);
	r->length = fuzz_chance(t, 85) ? FUZZ_BIG - 4096 : fuzz_u32(t);
	r->buf = fuzz_chance(t, 85) ? (uintptr_t)t->big : fuzz_ptr(t, r->length);
}

/* The provider list (EnumerateTraceGuids): written into the big buffer. */
static inline void seed_provider_list(struct fuzz_thread *t, void *arg)
{
	struct etw_provider_list *l = arg;

	l->max = fuzz_chance(t, 85) ? (FUZZ_BIG - 4096) / sizeof(struct etw_provider_entry) :
				      fuzz_u32(t);
	l->entries = fuzz_chance(t, 85) ? (uintptr_t)t->big :
					 fuzz_ptr(t, (size_t)l->max * sizeof(struct etw_provider_entry));
}

static inline void seed_provider_info(struct fuzz_thread *t, void *arg)
{
	struct etw_provider_info *i = arg;
	size_t half = (FUZZ_BIG - 4096) / 2;

	memcpy(i->guid, fuzz_guid(t), 16);
	i->max_regs = fuzz_chance(t, 85) ? half / sizeof(struct etw_provider_reg) : fuzz_u32(t);
	i->regs = fuzz_chance(t, 85) ? (uintptr_t)t->big :
				       fuzz_ptr(t, (size_t)i->max_regs * sizeof(struct etw_provider_reg));
	i->max_enables = fuzz_chance(t, 85) ? ETW_MAX_SESSIONS_PER_PROVIDER : fuzz_u32(t);
	i->enables = fuzz_chance(t, 85) ? (uintptr_t)t->big + half :
		     fuzz_ptr(t, (size_t)i->max_enables * sizeof(struct etw_provider_enable));
}

/*
 * After mutation: a wait for callbacks that no fuzzer acknowledges lasts
 * until the registrations go, so a mutated timeout (up to 49 days, or
 * INFINITE) would take a thread out of the run, and with every thread out
 * the role misses its quota.  Most waits are cut under 50 ms; one in a
 * hundred stays long, up to 2 s.
 */
static inline void fuzz_bound_waits(struct fuzz_thread *t, unsigned long cmd, void *arg)
{
	struct etw_enable *e = arg;
	struct etw_consumer_attach *a = arg;

	/*
	 * A logger consumer makes the STOP of its session wait up to 60 s
	 * for it to detach: keep one in a hundred, and the caller closes
	 * a logger consumer's fd at once (fuzz_cfd_remember).
	 */
	if (cmd == ETW_IOC_CONSUMER_ATTACH && !fuzz_chance(t, 1))
		a->flags &= ~ETW_CONSUMER_F_LOGGER;
	if (cmd != ETW_IOC_ENABLE || e->timeout_ms <= 50)
		return;
	e->timeout_ms = fuzz_chance(t, 1) ? fuzz_below(t, 2000) : fuzz_below(t, 50);
}

/* A provider traits blob: total size, name, then traits (size, type, data). */
static inline uint32_t seed_traits(struct fuzz_thread *t, uint8_t *b, uint32_t room)
{
	uint32_t len = 2, n = fuzz_below(t, 20), i;
	uint16_t v;

	for (i = 0; i < n && len < room - 1; i++)
		b[len++] = 'a' + fuzz_below(t, 26);
	b[len++] = 0;
	for (n = fuzz_below(t, 4); n && len + 3 <= room; n--) {
		uint32_t tlen = 3 + fuzz_below(t, 16);

		if (len + tlen > room)
			break;
		v = fuzz_chance(t, 95) ? tlen : fuzz_below(t, 40);
		memcpy(b + len, &v, 2);
		b[len + 2] = fuzz_below(t, 4);
		fuzz_fill(t, b + len + 3, tlen - 3);
		len += tlen;
	}
	v = fuzz_chance(t, 95) ? len : fuzz_u32(t);
	memcpy(b, &v, 2);
	return len;
}

static inline void seed_set_info(struct fuzz_thread *t, void *arg)
{
	struct etw_provider_set_info *si = arg;
	uint8_t *blob = fuzz_alloc(t, 256);

	si->reg_id = fuzz_reg(t, fuzz_seed_fd);
	si->info_class = fuzz_chance(t, 90) ?
		(fuzz_chance(t, 70) ? ETW_INFO_SET_TRAITS : ETW_INFO_USE_DESCRIPTOR_TYPE) :
		fuzz_u32(t);
	if (si->info_class == ETW_INFO_SET_TRAITS) {
		si->length = seed_traits(t, blob, 256);
	} else {
		blob[0] = fuzz_below(t, 2);
		si->length = 1;
	}
	if (fuzz_chance(t, 10))
		si->length = fuzz_u32(t);
	si->data = fuzz_chance(t, 90) ? (uintptr_t)blob : fuzz_ptr(t, si->length);
}

#endif /* ETW_FUZZ_SEEDS_H */
