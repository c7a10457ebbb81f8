// SPDX-License-Identifier: MIT
/*
 * One record of a buffer.  Bytes 2 and 3 of its first u32 say which of the
 * trace header families it has, and so where its size is and how long its
 * header is.  The size is checked against the header and against the
 * buffer's valid data before any field is read, and every item inside
 * the record against the record.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "internal.h"

struct rec {
	struct etw_etl *etl;
	struct etw_etl_event *ev;
	const uint8_t *p;		/* the record */
	uint64_t off;			/* its file offset */
	uint32_t avail;			/* bytes from p to the end of the data */
	int32_t inflated_pos;		/* in a compressed buffer: p's offset in it; else -1 */
};

static int rec_error(struct rec *r, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static int rec_error(struct rec *r, const char *fmt, ...)
{
	char why[sizeof(r->etl->err.message)];
	va_list ap;

	va_start(ap, fmt);
	if (r->inflated_pos < 0) {
		etl_verror(&r->etl->err, -EBADMSG, r->off, "corrupt record", fmt, ap);
	} else {
		/* The offset is the buffer's: say where in its data. */
		vsnprintf(why, sizeof(why), fmt, ap);
		etl_error(&r->etl->err, -EBADMSG, r->off,
			  "corrupt record in compressed buffer",
			  "at byte 0x%x of the buffer decompressed: %s",
			  (uint32_t)r->inflated_pos, why);
	}
	va_end(ap);
	return -EBADMSG;
}

/* The record's size: at least its header, within the buffer's data. */
static int set_size(struct rec *r, uint32_t size, uint32_t header,
		    const char *name)
{
	if (size < header)
		return rec_error(r, "%s record of 0x%x bytes is shorter than its 0x%x-byte header",
				 name, size, header);
	if (size > r->avail)
		return rec_error(r, "%s record of 0x%x bytes runs past the buffer's data (0x%x bytes left)",
				 name, size, r->avail);
	r->ev->size = size;
	return 0;
}

/* Is there room for n more bytes at pos in the record? */
static bool fits(const struct rec *r, uint32_t pos, uint32_t n)
{
	return pos <= r->ev->size && n <= r->ev->size - pos;
}

static void set_data(struct rec *r, uint32_t pos)
{
	r->ev->data = r->p + pos;
	r->ev->data_size = r->ev->size - pos;
}

static int add_ext(struct rec *r, uint16_t type, uint32_t pos, uint32_t size)
{
	struct etw_etl_ext_item *x;

	if (r->ev->ext_count >= ETL_MAX_EXT)
		return rec_error(r, "more than %u extended items", ETL_MAX_EXT);
	x = &r->etl->ext[r->ev->ext_count++];
	x->type = type;
	x->size = size;
	x->data = r->p + pos;
	return 0;
}

/* PEBS index and PMC counters: inserted after a kernel header. */
static int kernel_items(struct rec *r, uint32_t pos, uint16_t version)
{
	uint32_t pmc = (version & ETL_VERSION_PMC_MASK) >> ETL_VERSION_PMC_SHIFT;

	if (version & ETL_VERSION_PEBS_INDEX) {
		if (!fits(r, pos, 8))
			return rec_error(r, "PEBS index runs past the record");
		add_ext(r, ETW_ETL_EXT_PEBS_INDEX, pos, 8);
		pos += 8;
	}
	if (pmc) {
		if (!fits(r, pos, 8 * pmc))
			return rec_error(r, "%u PMC counters run past the record", pmc);
		add_ext(r, ETW_ETL_EXT_PMC_COUNTERS, pos, 8 * pmc);
		pos += 8 * pmc;
	}
	set_data(r, pos);
	return 0;
}

static void set_hook(struct rec *r, uint16_t version, uint16_t hook_id)
{
	struct etw_etl_event *ev = r->ev;

	ev->hook_id = hook_id;
	ev->opcode = hook_id & 0xff;
	ev->version = version & 0xff;
	ev->header_flags = version >> 8;
	ev->has |= ETW_ETL_HAS_HOOK | ETW_ETL_HAS_TIMESTAMP;
	ev->flags |= ETW_ETL_FLAG_CLASSIC_HEADER;
	if (etl_kernel_provider(hook_id, &ev->provider))
		ev->has |= ETW_ETL_HAS_PROVIDER;
}

static int parse_system(struct rec *r, bool compact)
{
	struct etw_etl_event *ev = r->ev;
	uint32_t hsize = compact ? ETL_COMPACT_HEADER_SIZE :
				   sizeof(struct etl_system_header);
	uint16_t version;
	int ret;

	ret = set_size(r, ETL_GET(r->p, etl_system_header, size), hsize,
		       compact ? "compact system" : "system");
	if (ret < 0)
		return ret;
	ev->kind = compact ? ETW_ETL_KIND_COMPACT : ETW_ETL_KIND_SYSTEM;
	version = ETL_GET(r->p, etl_system_header, version);
	set_hook(r, version, ETL_GET(r->p, etl_system_header, hook_id));
	ev->thread_id = ETL_GET(r->p, etl_system_header, thread_id);
	ev->process_id = ETL_GET(r->p, etl_system_header, process_id);
	ev->timestamp = ETL_GET(r->p, etl_system_header, system_time);
	ev->has |= ETW_ETL_HAS_IDS;
	if (!compact) {
		ev->kernel_time = ETL_GET(r->p, etl_system_header, kernel_time);
		ev->user_time = ETL_GET(r->p, etl_system_header, user_time);
		ev->has |= ETW_ETL_HAS_CPU_TIME;
	}
	return kernel_items(r, hsize, version);
}

static int parse_perfinfo(struct rec *r)
{
	uint16_t version;
	int ret;

	ret = set_size(r, ETL_GET(r->p, etl_perfinfo_header, size),
		       sizeof(struct etl_perfinfo_header), "perfinfo");
	if (ret < 0)
		return ret;
	r->ev->kind = ETW_ETL_KIND_PERFINFO;
	version = ETL_GET(r->p, etl_perfinfo_header, version);
	set_hook(r, version, ETL_GET(r->p, etl_perfinfo_header, hook_id));
	r->ev->timestamp = ETL_GET(r->p, etl_perfinfo_header, system_time);
	return kernel_items(r, sizeof(struct etl_perfinfo_header), version);
}

/* EVENT_TRACE_HEADER, also the start of EVENT_INSTANCE_GUID_HEADER. */
static void trace_fields(struct rec *r)
{
	struct etw_etl_event *ev = r->ev;

	ev->opcode = ETL_GET(r->p, etl_trace_header, type);
	ev->level = ETL_GET(r->p, etl_trace_header, level);
	ev->version = ETL_GET(r->p, etl_trace_header, version);
	ev->thread_id = ETL_GET(r->p, etl_trace_header, thread_id);
	ev->process_id = ETL_GET(r->p, etl_trace_header, process_id);
	ev->timestamp = ETL_GET(r->p, etl_trace_header, timestamp);
	etl_get_guid(r->p + offsetof(struct etl_trace_header, guid),
		     &ev->provider);
	ev->kernel_time = ETL_GET(r->p, etl_trace_header, kernel_time);
	ev->user_time = ETL_GET(r->p, etl_trace_header, user_time);
	ev->has |= ETW_ETL_HAS_CLASS | ETW_ETL_HAS_IDS | ETW_ETL_HAS_TIMESTAMP |
		   ETW_ETL_HAS_PROVIDER | ETW_ETL_HAS_CPU_TIME;
	ev->flags |= ETW_ETL_FLAG_CLASSIC_HEADER;
}

static int parse_classic(struct rec *r)
{
	int ret;

	ret = set_size(r, ETL_GET(r->p, etl_trace_header, size),
		       sizeof(struct etl_trace_header), "classic");
	if (ret < 0)
		return ret;
	r->ev->kind = ETW_ETL_KIND_CLASSIC;
	trace_fields(r);
	set_data(r, sizeof(struct etl_trace_header));
	return 0;
}

/* Instance ids have the layout of an INSTANCE_INFO item: present them so. */
static int parse_instance(struct rec *r)
{
	int ret;

	ret = set_size(r, ETL_GET(r->p, etl_trace_header, size),
		       sizeof(struct etl_instance_header), "instance");
	if (ret < 0)
		return ret;
	r->ev->kind = ETW_ETL_KIND_INSTANCE;
	trace_fields(r);
	add_ext(r, ETW_ETL_EXT_INSTANCE_INFO,
		offsetof(struct etl_instance_header, instance_id),
		sizeof(struct etl_instance_header) -
		offsetof(struct etl_instance_header, instance_id));
	set_data(r, sizeof(struct etl_instance_header));
	return 0;
}

/*
 * Extended items: each says its stride (0 in some writers: then the
 * aligned data size) and whether another follows.  The last item's
 * padding may lie past an unpadded record's end.
 */
static int ext_items(struct rec *r)
{
	uint32_t pos = sizeof(struct etl_event_header), size = r->ev->size;
	uint16_t link;

	do {
		const uint8_t *q = r->p + pos;
		uint32_t stride, data;
		int ret;

		if (!fits(r, pos, sizeof(struct etl_ext_item)))
			return rec_error(r, "extended item at +0x%x runs past the record",
					 pos);
		data = ETL_GET(q, etl_ext_item, data_size);
		stride = ETL_GET(q, etl_ext_item, size);
		link = ETL_GET(q, etl_ext_item, linkage);
		if (!fits(r, pos + 8, data))
			return rec_error(r, "extended item at +0x%x: 0x%x bytes of data run past the record",
					 pos, data);
		if (!stride)
			stride = ETL_ALIGN8(8 + data);
		if (stride < 8 + data)
			return rec_error(r, "extended item at +0x%x: size 0x%x is less than its 0x%x bytes of data",
					 pos, stride, data);
		ret = add_ext(r, ETL_GET(q, etl_ext_item, ext_type), pos + 8, data);
		if (ret < 0)
			return ret;
		pos += stride < size - pos ? stride : size - pos;
	} while (link & 1);
	set_data(r, pos);
	return 0;
}

/* EVENT_HEADER; an error record (0x0d) has the same layout. */
static int parse_event(struct rec *r, bool error)
{
	struct etw_etl_event *ev = r->ev;
	const uint8_t *p = r->p;
	int ret;

	ret = set_size(r, ETL_GET(p, etl_event_header, size),
		       sizeof(struct etl_event_header), error ? "error" : "event");
	if (ret < 0)
		return ret;
	ev->kind = error ? ETW_ETL_KIND_ERROR : ETW_ETL_KIND_EVENT;
	ev->header_flags = ETL_GET(p, etl_event_header, flags);
	ev->flags |= ev->header_flags;
	ev->event_property = ETL_GET(p, etl_event_header, event_property);
	ev->thread_id = ETL_GET(p, etl_event_header, thread_id);
	ev->process_id = ETL_GET(p, etl_event_header, process_id);
	ev->timestamp = ETL_GET(p, etl_event_header, timestamp);
	etl_get_guid(p + offsetof(struct etl_event_header, provider_id),
		     &ev->provider);
	ev->id = ETL_GET(p, etl_event_header, id);
	ev->version = ETL_GET(p, etl_event_header, version);
	ev->channel = ETL_GET(p, etl_event_header, channel);
	ev->level = ETL_GET(p, etl_event_header, level);
	ev->opcode = ETL_GET(p, etl_event_header, opcode);
	ev->task = ETL_GET(p, etl_event_header, task);
	ev->keyword = ETL_GET(p, etl_event_header, keyword);
	ev->kernel_time = ETL_GET(p, etl_event_header, kernel_time);
	ev->user_time = ETL_GET(p, etl_event_header, user_time);
	etl_get_guid(p + offsetof(struct etl_event_header, activity_id),
		     &ev->activity_id);
	ev->has |= ETW_ETL_HAS_PROVIDER | ETW_ETL_HAS_DESCRIPTOR |
		   ETW_ETL_HAS_IDS | ETW_ETL_HAS_TIMESTAMP |
		   ETW_ETL_HAS_CPU_TIME | ETW_ETL_HAS_ACTIVITY;
	if (ev->header_flags & ETL_EVENT_FLAG_EXTENDED_INFO)
		return ext_items(r);
	set_data(r, sizeof(struct etl_event_header));
	return 0;
}

/* A WPP item of n bytes at *pos, or an error naming it. */
static int msg_item(struct rec *r, uint32_t *pos, uint32_t n, const char *name)
{
	if (!fits(r, *pos, n))
		return rec_error(r, "message %s runs past the record", name);
	*pos += n;
	return 0;
}

/* MESSAGE_TRACE_HEADER: the option flags say which items follow. */
static int parse_message(struct rec *r)
{
	struct etw_etl_event *ev = r->ev;
	uint32_t pos = sizeof(struct etl_message_header);
	uint16_t opt;
	int ret;

	ret = set_size(r, ETL_GET(r->p, etl_message_header, size), pos, "message");
	if (ret < 0)
		return ret;
	ev->kind = ETW_ETL_KIND_MESSAGE;
	opt = ETL_GET(r->p, etl_message_header, option_flags);
	ev->header_flags = opt;
	ev->id = ETL_GET(r->p, etl_message_header, message_number);
	ev->has |= ETW_ETL_HAS_MESSAGE;
	ev->flags |= ETW_ETL_FLAG_TRACE_MESSAGE;
	if (opt & ETL_MSG_SEQUENCE) {
		if (msg_item(r, &pos, 4, "sequence number"))
			return -EBADMSG;
		ev->sequence = (uint32_t)etl_get_le(r->p + pos - 4, 4);
		ev->has |= ETW_ETL_HAS_SEQUENCE;
	}
	if (opt & ETL_MSG_COMPONENTID) {
		if (msg_item(r, &pos, 4, "component id"))
			return -EBADMSG;
		ev->component_id = (uint32_t)etl_get_le(r->p + pos - 4, 4);
		ev->has |= ETW_ETL_HAS_COMPONENT;
	} else if (opt & ETL_MSG_GUID) {
		if (msg_item(r, &pos, 16, "GUID"))
			return -EBADMSG;
		etl_get_guid(r->p + pos - 16, &ev->provider);
		ev->has |= ETW_ETL_HAS_PROVIDER;
	}
	if (opt & (ETL_MSG_TIMESTAMP | ETL_MSG_PERFORMANCE_TIMESTAMP)) {
		if (msg_item(r, &pos, 8, "timestamp"))
			return -EBADMSG;
		ev->timestamp = etl_get_le(r->p + pos - 8, 8);
		ev->has |= ETW_ETL_HAS_TIMESTAMP;
	}
	if (opt & ETL_MSG_SYSTEMINFO) {
		if (msg_item(r, &pos, 8, "thread and process ids"))
			return -EBADMSG;
		ev->thread_id = (uint32_t)etl_get_le(r->p + pos - 8, 4);
		ev->process_id = (uint32_t)etl_get_le(r->p + pos - 4, 4);
		ev->has |= ETW_ETL_HAS_IDS;
	}
	/* The writer's pointer size, as a consumer's header flags say it. */
	if (opt & ETL_MSG_POINTER32) {
		ev->pointer_size = 4;
		ev->flags |= ETW_ETL_FLAG_32_BIT_HEADER;
	} else if (opt & ETL_MSG_POINTER64) {
		ev->pointer_size = 8;
		ev->flags |= ETW_ETL_FLAG_64_BIT_HEADER;
	}
	set_data(r, pos);
	return 0;
}

/* Records with flag byte 0xc0: byte 2 is the header type. */
static int parse_typed(struct rec *r, uint8_t type)
{
	switch (type) {
	case ETL_HT_SYSTEM32:
	case ETL_HT_COMPACT32:
	case ETL_HT_FULL32:
	case ETL_HT_INSTANCE32:
	case ETL_HT_PERFINFO32:
	case ETL_HT_EVENT32:
		r->ev->pointer_size = 4;
		r->ev->flags |= ETW_ETL_FLAG_32_BIT_HEADER;
		break;
	case ETL_HT_SYSTEM64:
	case ETL_HT_COMPACT64:
	case ETL_HT_FULL64:
	case ETL_HT_INSTANCE64:
	case ETL_HT_PERFINFO64:
	case ETL_HT_EVENT64:
		r->ev->pointer_size = 8;
		r->ev->flags |= ETW_ETL_FLAG_64_BIT_HEADER;
		break;
	}
	switch (type) {
	case ETL_HT_SYSTEM32:
	case ETL_HT_SYSTEM64:
		return parse_system(r, false);
	case ETL_HT_COMPACT32:
	case ETL_HT_COMPACT64:
		return parse_system(r, true);
	case ETL_HT_PERFINFO32:
	case ETL_HT_PERFINFO64:
		return parse_perfinfo(r);
	case ETL_HT_FULL32:
	case ETL_HT_FULL64:
		return parse_classic(r);
	case ETL_HT_INSTANCE32:
	case ETL_HT_INSTANCE64:
		return parse_instance(r);
	case ETL_HT_EVENT32:
	case ETL_HT_EVENT64:
	case ETL_HT_ERROR:
		return parse_event(r, type == ETL_HT_ERROR);
	}
	return rec_error(r, "unknown header type 0x%02x", type);
}

static void start_event(struct rec *r, const struct etw_etl_buffer *b,
			uint32_t index)
{
	struct etw_etl_event *ev = r->ev;

	memset(ev, 0, sizeof(*ev));
	ev->thread_id = UINT32_MAX;
	ev->process_id = UINT32_MAX;
	ev->offset = r->off;
	ev->buffer = index;
	ev->processor = b->processor;
	ev->record = r->p;
	ev->ext = r->etl->ext;
	ev->pointer_size = r->etl->hdr.header_pointer_size;
	ev->header_type = r->p[2];
}

static void finish_event(struct rec *r, const struct etw_etl_buffer *b)
{
	struct etw_etl_event *ev = r->ev;

	if ((ev->has & ETW_ETL_HAS_TIMESTAMP) &&
	    etl_to_filetime(&r->etl->hdr, ev->timestamp, &ev->filetime))
		ev->has |= ETW_ETL_HAS_FILETIME;
	if (b->flags & ETW_ETL_BUFFER_FLAG_PROC_INDEX)
		ev->flags |= ETW_ETL_FLAG_PROCESSOR_INDEX;
	if (ev->ext_count)
		ev->flags |= ETW_ETL_FLAG_EXTENDED_INFO;
}

int etl_parse_record(struct etw_etl *etl, uint32_t index, uint32_t pos,
		     struct etl_scratch *sc, struct etw_etl_event *ev,
		     uint32_t *next)
{
	const struct etw_etl_buffer *b = &etl->bufs[index];
	struct rec r = { .etl = etl, .ev = ev, .inflated_pos = -1 };
	const uint8_t *base;
	uint64_t end;
	uint32_t marker;
	int ret;

	if (pos >= b->saved_offset)
		return 0;
	base = etl_buffer_data(etl, index, sc);
	if (!base)
		return etl->err.code;
	r.p = base + pos;
	r.off = b->offset + pos;
	if (b->flags & ETW_ETL_BUFFER_FLAG_COMPRESSED) {
		r.off = b->offset;
		r.inflated_pos = (int32_t)pos;
	}
	r.avail = b->saved_offset - pos;
	if (r.avail < 4)
		return rec_error(&r, "0x%x stray bytes at the end of the buffer's data",
				 r.avail);
	marker = (uint32_t)etl_get_le(r.p, 4);
	if (marker == ETL_MARKER_END)
		return 0;
	start_event(&r, b, index);
	if ((marker >> 24 & 0xd0) == 0x90)
		ret = parse_message(&r);
	else if ((marker >> 24 & 0xd0) == 0xc0)
		ret = parse_typed(&r, marker >> 16 & 0xff);
	else
		ret = rec_error(&r, "bad record marker 0x%08x", marker);
	if (ret < 0)
		return ret;
	finish_event(&r, b);
	/* Records start 8-aligned; size >= 8 so this always advances. */
	end = pos + ETL_ALIGN8((uint64_t)ev->size);
	*next = end < b->saved_offset ? (uint32_t)end : b->saved_offset;
	return 1;
}
