// SPDX-License-Identifier: GPL-2.0
/*
 * The payloads of the kernel records that stacks need, in Windows'
 * layouts (Documentation/kernel-logger.rst): Image (V2, V3), Process (V3,
 * V4), Thread, SampledProfile and StackWalk, for 32- and 64-bit writers.
 * Every read is bounded by the payload's size: the file is untrusted.
 */
#include <endian.h>
#include <errno.h>
#include <string.h>

#include "model/stack.h"

static uint64_t get(const uint8_t *p, unsigned int n)
{
	uint64_t v = 0;

	for (unsigned int i = 0; i < n; i++)
		v |= (uint64_t)p[i] << (8 * i);
	return v;
}

/*
 * A NUL-terminated UTF-16LE string at @p (at most @n bytes) as UTF-8 in
 * @out, cut to fit, an unpaired surrogate as U+FFFD.  By hand: glibc's
 * iconv loads its UTF-16 converter from a gconv module, which a minimal
 * system (the test VM's) does not have.
 */
static void utf16_to_utf8(const uint8_t *p, size_t n, char *out, size_t size)
{
	size_t o = 0;

	for (size_t i = 0; i + 1 < n; i += 2) {
		uint32_t c = p[i] | p[i + 1] << 8, lo;
		char buf[4];
		size_t len;

		if (!c)
			break;
		if (c >= 0xd800 && c < 0xdc00 && i + 3 < n &&
		    (lo = p[i + 2] | p[i + 3] << 8) >= 0xdc00 && lo < 0xe000) {
			c = 0x10000 + ((c - 0xd800) << 10) + (lo - 0xdc00);
			i += 2;
		} else if (c >= 0xd800 && c < 0xe000) {
			c = 0xfffd;
		}
		if (c < 0x80) {
			buf[0] = (char)c;
			len = 1;
		} else if (c < 0x800) {
			buf[0] = (char)(0xc0 | c >> 6);
			buf[1] = (char)(0x80 | (c & 0x3f));
			len = 2;
		} else if (c < 0x10000) {
			buf[0] = (char)(0xe0 | c >> 12);
			buf[1] = (char)(0x80 | ((c >> 6) & 0x3f));
			buf[2] = (char)(0x80 | (c & 0x3f));
			len = 3;
		} else {
			buf[0] = (char)(0xf0 | c >> 18);
			buf[1] = (char)(0x80 | ((c >> 12) & 0x3f));
			buf[2] = (char)(0x80 | ((c >> 6) & 0x3f));
			buf[3] = (char)(0x80 | (c & 0x3f));
			len = 4;
		}
		if (o + len >= size)
			break;
		memcpy(out + o, buf, len);
		o += len;
	}
	out[o] = '\0';
}

static unsigned int ptr_size(const struct etw_etl_event *ev)
{
	return ev->pointer_size == 4 ? 4 : 8;
}

bool rec_parse_image(const struct etw_etl_event *ev, struct rec_image *r)
{
	const uint8_t *p = ev->data;
	unsigned int ps = ptr_size(ev);
	/* ImageBase, ImageSize, ProcessId, CheckSum, TimeDateStamp, ... */
	size_t name = ps == 8 ? 56 : 44;

	if (ev->version < 2 || ev->data_size < name)
		return false;
	r->base = get(p, ps);
	r->size = get(p + ps, ps);
	r->pid = (uint32_t)get(p + 2 * ps, 4);
	utf16_to_utf8(p + name, ev->data_size - name, r->path, sizeof(r->path));
	return true;
}

/* The offset after a TOKEN_USER and its SID at @off, or 0 if cut short. */
static size_t skip_sid(const uint8_t *p, size_t n, size_t off, unsigned int ps)
{
	if (off + 4 > n)
		return 0;
	/* A null SID is a 4-byte 0, as PerfView reads it. */
	if (!get(p + off, 4))
		return off + 4;
	off += 2 * ps;
	if (off + 8 > n)
		return 0;
	off += 8 + 4 * (size_t)p[off + 1];
	return off <= n ? off : 0;
}

bool rec_parse_process(const struct etw_etl_event *ev, struct rec_process *r)
{
	const uint8_t *p = ev->data;
	unsigned int ps = ptr_size(ev);
	size_t n = ev->data_size, sid, end;

	if (ev->version < 3)
		return false;
	/* UniqueProcessKey, ProcessId, ParentId, SessionId, ExitStatus, DTB */
	sid = 2 * ps + 16;
	if (ev->version >= 4)
		sid += 4;		/* Flags */
	sid = skip_sid(p, n, sid, ps);
	if (!sid)
		return false;
	r->pid = (uint32_t)get(p + ps, 4);
	r->parent = (uint32_t)get(p + ps + 4, 4);
	end = sid;
	while (end < n && p[end])
		end++;
	if (end - sid >= sizeof(r->name))
		end = sid + sizeof(r->name) - 1;
	memcpy(r->name, p + sid, end - sid);
	r->name[end - sid] = '\0';
	return true;
}

bool rec_parse_thread(const struct etw_etl_event *ev, struct rec_thread *r)
{
	if (ev->data_size < 8)
		return false;
	r->pid = (uint32_t)get(ev->data, 4);
	r->tid = (uint32_t)get((const uint8_t *)ev->data + 4, 4);
	return true;
}

bool rec_parse_sample(const struct etw_etl_event *ev, struct rec_sample *r)
{
	unsigned int ps = ptr_size(ev);

	if (ev->data_size < ps + 4)
		return false;
	r->ip = get(ev->data, ps);
	r->tid = (uint32_t)get((const uint8_t *)ev->data + ps, 4);
	return true;
}

bool rec_parse_stack(const struct etw_etl_event *ev, struct rec_stack *r)
{
	const uint8_t *p = ev->data;

	if (ev->data_size < 16)
		return false;
	r->timestamp = get(p, 8);
	r->pid = (uint32_t)get(p + 8, 4);
	r->tid = (uint32_t)get(p + 12, 4);
	r->pointer_size = (uint8_t)ptr_size(ev);
	r->nframes = (ev->data_size - 16) / r->pointer_size;
	r->frames = p + 16;
	return true;
}

void rec_stack_frames(const struct rec_stack *s, uint64_t *out)
{
	/* Every frame of every stack comes here: one copy for 8-byte words. */
	if (s->pointer_size == 8) {
		memcpy(out, s->frames, (size_t)s->nframes * 8);
		for (uint32_t i = 0; i < s->nframes; i++)
			out[i] = le64toh(out[i]);
		return;
	}
	for (uint32_t i = 0; i < s->nframes; i++)
		out[i] = rec_stack_frame(s, i);
}

uint64_t rec_stack_frame(const struct rec_stack *s, uint32_t i)
{
	const uint8_t *p = s->frames + (size_t)i * s->pointer_size;
	uint64_t v8;
	uint32_t v4;

	/* Whole words, not bytes. */
	if (s->pointer_size == 8) {
		memcpy(&v8, p, 8);
		return le64toh(v8);
	}
	if (s->pointer_size == 4) {
		memcpy(&v4, p, 4);
		return le32toh(v4);
	}
	return get(p, s->pointer_size);
}

/* StackCopy's class {4119cc35-3220-4da2-9f91-a732770517c4}, opcode 32. */
static const struct etw_etl_guid stack_copy_guid = {
	0x4119cc35, 0x3220, 0x4da2,
	{ 0x9f, 0x91, 0xa7, 0x32, 0x77, 0x05, 0x17, 0xc4 },
};

#define STACK_COPY_OPCODE	32
#define STACK_COPY_FIXED	(24 + 8 * STACK_COPY_REGS)

bool rec_parse_stack_copy(const struct etw_etl_event *ev,
			  struct rec_stack_copy *r)
{
	const uint8_t *p = ev->data;

	if (!(ev->has & ETW_ETL_HAS_PROVIDER) || ev->opcode != STACK_COPY_OPCODE ||
	    memcmp(&ev->provider, &stack_copy_guid, sizeof(stack_copy_guid)) ||
	    ev->data_size < STACK_COPY_FIXED)
		return false;
	r->timestamp = get(p, 8);
	r->pid = (uint32_t)get(p + 8, 4);
	r->tid = (uint32_t)get(p + 12, 4);
	r->abi = (uint16_t)get(p + 16, 2);
	/* Another register set than x86-64's is not read. */
	if (get(p + 18, 2) != STACK_COPY_REGS)
		return false;
	r->size = (uint32_t)get(p + 20, 4);
	for (unsigned int i = 0; i < STACK_COPY_REGS; i++)
		r->regs[i] = get(p + 24 + 8 * i, 8);
	if (r->size > ev->data_size - STACK_COPY_FIXED)
		r->size = ev->data_size - STACK_COPY_FIXED;
	r->stack = p + STACK_COPY_FIXED;
	return true;
}

/* KernelTraceControl's ImageID class {b3e675d7-2554-4f18-830b-2762732560de}. */
static const struct etw_etl_guid image_id_guid = {
	0xb3e675d7, 0x2554, 0x4f18,
	{ 0x83, 0x0b, 0x27, 0x62, 0x73, 0x25, 0x60, 0xde },
};

#define IMAGE_ID_DBGID_RSDS	0x24

bool rec_parse_image_id(const struct etw_etl_event *ev, struct rec_image_id *r)
{
	const uint8_t *p = ev->data;
	unsigned int ps = ptr_size(ev);

	if (!(ev->has & ETW_ETL_HAS_PROVIDER) || ev->opcode != IMAGE_ID_DBGID_RSDS ||
	    memcmp(&ev->provider, &image_id_guid, sizeof(image_id_guid)) ||
	    ev->data_size < ps + 4 + BUILD_ID_MAX)
		return false;
	/* ImageBase, ProcessId, GuidSig (16 bytes), Age (4). */
	r->base = get(p, ps);
	r->pid = (uint32_t)get(p + ps, 4);
	memcpy(r->id, p + ps + 4, BUILD_ID_MAX);
	return true;
}

bool rec_parse_stack_ref(const struct etw_etl_event *ev, struct rec_stack_ref *r)
{
	const uint8_t *p = ev->data;
	unsigned int ps = ptr_size(ev);

	if (ev->data_size < 16 + ps)
		return false;
	r->timestamp = get(p, 8);
	r->pid = (uint32_t)get(p + 8, 4);
	r->tid = (uint32_t)get(p + 12, 4);
	r->key = get(p + 16, ps);
	return true;
}

bool rec_parse_stack_def(const struct etw_etl_event *ev, struct rec_stack *r,
			 uint64_t *key)
{
	const uint8_t *p = ev->data;
	unsigned int ps = ptr_size(ev);

	if (ev->data_size < ps)
		return false;
	*key = get(p, ps);
	memset(r, 0, sizeof(*r));
	r->pointer_size = (uint8_t)ps;
	r->nframes = (ev->data_size - ps) / ps;
	r->frames = p + ps;
	return true;
}

bool rec_parse_interval(const struct etw_etl_event *ev, uint32_t *interval)
{
	if (ev->data_size < 8)
		return false;
	*interval = (uint32_t)get((const uint8_t *)ev->data + 4, 4);
	return true;
}

/* The .NET runtime's providers: Microsoft-Windows-DotNETRuntime and its rundown. */
static const struct etw_etl_guid clr_guid = {
	0xe13c0d23, 0xccbc, 0x4e12,
	{ 0x93, 0x1b, 0xd9, 0xcc, 0x2e, 0xee, 0x27, 0xe4 },
};

static const struct etw_etl_guid clr_rundown_guid = {
	0xa669021c, 0xc450, 0x4609,
	{ 0xa0, 0x35, 0x5a, 0xf5, 0x9a, 0xf4, 0xdf, 0x18 },
};

/* Event ids: MethodLoadVerbose, MethodUnloadVerbose; rundown DCStart, DCEnd. */
#define CLR_METHOD_LOAD_VERBOSE		143
#define CLR_METHOD_UNLOAD_VERBOSE	144
#define CLR_MODULE_LOAD			152
#define CLR_MODULE_UNLOAD		153
#define RUNDOWN_METHOD_DCSTART_VERBOSE	143
#define RUNDOWN_METHOD_DCEND_VERBOSE	144
#define RUNDOWN_MODULE_DCSTART		153
#define RUNDOWN_MODULE_DCEND		154

static int clr_kind(const struct etw_etl_event *ev)
{
	if (!(ev->has & ETW_ETL_HAS_PROVIDER) || ev->kind != ETW_ETL_KIND_EVENT)
		return 0;
	if (!memcmp(&ev->provider, &clr_guid, sizeof(clr_guid)))
		return 1;
	if (!memcmp(&ev->provider, &clr_rundown_guid, sizeof(clr_guid)))
		return 2;
	return 0;
}

/* A UTF-16 string at *off, moved past its NUL; false if it has none. */
static bool take_utf16(const uint8_t *p, size_t n, size_t *off, char *out,
		       size_t size)
{
	size_t end = *off;

	while (end + 1 < n && (p[end] | p[end + 1]))
		end += 2;
	if (end + 1 >= n)
		return false;
	utf16_to_utf8(p + *off, end - *off + 2, out, size);
	*off = end + 2;
	return true;
}

bool rec_parse_clr_method(const struct etw_etl_event *ev, struct rec_clr_method *r)
{
	const uint8_t *p = ev->data;
	size_t n = ev->data_size, off = 36;
	int kind = clr_kind(ev);

	/* Same layout in all four: MethodLoadUnloadRundownVerbose. */
	if (!kind || (ev->id != CLR_METHOD_LOAD_VERBOSE &&
		      ev->id != CLR_METHOD_UNLOAD_VERBOSE) || n < off)
		return false;
	r->pid = ev->process_id;
	r->module_id = get(p + 8, 8);
	r->start = get(p + 16, 8);
	r->size = (uint32_t)get(p + 24, 4);
	return take_utf16(p, n, &off, r->ns, sizeof(r->ns)) &&
	       take_utf16(p, n, &off, r->name, sizeof(r->name)) &&
	       take_utf16(p, n, &off, r->signature, sizeof(r->signature));
}

bool rec_parse_clr_module(const struct etw_etl_event *ev, struct rec_clr_module *r)
{
	const uint8_t *p = ev->data;
	size_t n = ev->data_size, off = 24;
	int kind = clr_kind(ev);

	/* ModuleID, AssemblyID, ModuleFlags, Reserved1, ModuleILPath, ... */
	if (!kind || n < off)
		return false;
	if (kind == 1 && ev->id != CLR_MODULE_LOAD && ev->id != CLR_MODULE_UNLOAD)
		return false;
	if (kind == 2 && ev->id != RUNDOWN_MODULE_DCSTART &&
	    ev->id != RUNDOWN_MODULE_DCEND)
		return false;
	r->pid = ev->process_id;
	r->module_id = get(p, 8);
	return take_utf16(p, n, &off, r->il_path, sizeof(r->il_path));
}

/* Thread/SetName: ProcessId, ThreadId, the name in UTF-16. */
bool rec_parse_thread_name(const struct etw_etl_event *ev,
			   struct rec_thread_name *r)
{
	const uint8_t *p = ev->data;

	if (!(ev->has & ETW_ETL_HAS_HOOK) || ev->hook_id != HOOK_THREAD_SET_NAME ||
	    ev->data_size < 8)
		return false;
	r->pid = (uint32_t)get(p, 4);
	r->tid = (uint32_t)get(p + 4, 4);
	utf16_to_utf8(p + 8, ev->data_size - 8, r->name, sizeof(r->name));
	return true;
}
