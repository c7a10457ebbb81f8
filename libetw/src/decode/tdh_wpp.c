// SPDX-License-Identifier: MIT
/*
 * TDH over WPP records (tdh.h): TdhGetWppMessage and TdhGetWppProperty
 * on a decoding handle whose TDH_CONTEXT parameters name the TMF files,
 * and TdhGetEventInformation's DecodingSourceWPP description of a WPP
 * record when its contexts (or TRACE_FORMAT_SEARCH_PATH) lead to its TMF.
 * A WPP record is what ProcessTrace hands over for a MESSAGE_TRACE_HEADER:
 * EVENT_HEADER_FLAG_TRACE_MESSAGE, the message GUID as ProviderId, the
 * message number as EventDescriptor.Id.
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../common/internal.h"
#include "tdh_internal.h"
#include "wpp.h"

bool tdh_is_wpp(const EVENT_RECORD *ev)
{
	return ev->EventHeader.Flags & EVENT_HEADER_FLAG_TRACE_MESSAGE;
}

static void tdh_wpp_record(const EVENT_RECORD *ev, unsigned int pointer_size,
		    struct wpp_record *r)
{
	const EVENT_HEADER *h = &ev->EventHeader;

	memset(r, 0, sizeof(*r));
	memcpy(&r->guid, &h->ProviderId, sizeof(r->guid));
	r->number = h->EventDescriptor.Id;
	r->data = ev->UserData;
	r->size = ev->UserData ? ev->UserDataLength : 0;
	r->pointer_size = (uint8_t)(pointer_size ? pointer_size :
				    decode_pointer_size(h->Flags));
	r->cpu = GetEventProcessorIndex(ev);
	r->thread_id = h->ThreadId;
	r->process_id = h->ProcessId;
	r->filetime = (uint64_t)h->TimeStamp.QuadPart;
	r->kernel_time = h->KernelTime;
	r->user_time = h->UserTime;
}

/* ---- TdhGetEventInformation: stores by the contexts' paths ---- */

struct ctx_store {
	char *file;			/* UTF-8, or NULL */
	char *path;
	struct etw_tmf_store *store;
};

static pthread_mutex_t stores_lock = PTHREAD_MUTEX_INITIALIZER;
static struct ctx_store *stores;
static size_t nstores;

static bool same_str(const char *a, const char *b)
{
	return (!a && !b) || (a && b && !strcmp(a, b));
}

int tdh_wpp_fill_store(struct etw_tmf_store *s, const char *file,
		       const char *path)
{
	const char *env = getenv("TRACE_FORMAT_SEARCH_PATH");

	/* A file that does not parse is no format for its records. */
	if (file && etw_tmf_store_add_file(s, file, NULL) == -ENOMEM)
		return -ENOMEM;
	if (path && etw_tmf_store_add_search_path(s, path))
		return -ENOMEM;
	if (env && etw_tmf_store_add_search_path(s, env))
		return -ENOMEM;
	return 0;
}

/* The process's store of those paths, made once; kept for its life. */
static ULONG store_of(const char *file, const char *path,
		      struct etw_tmf_store **out)
{
	struct ctx_store *q;
	ULONG err = ERROR_SUCCESS;

	pthread_mutex_lock(&stores_lock);
	for (size_t i = 0; i < nstores; i++)
		if (same_str(stores[i].file, file) && same_str(stores[i].path, path)) {
			*out = stores[i].store;
			goto out;
		}
	q = realloc(stores, (nstores + 1) * sizeof(*q));
	if (!q) {
		err = ERROR_NOT_ENOUGH_MEMORY;
		goto out;
	}
	stores = q;
	q = &stores[nstores];
	memset(q, 0, sizeof(*q));
	q->file = file ? strdup(file) : NULL;
	q->path = path ? strdup(path) : NULL;
	if ((file && !q->file) || (path && !q->path) ||
	    etw_tmf_store_new(&q->store) ||
	    tdh_wpp_fill_store(q->store, file, path)) {
		free(q->file);
		free(q->path);
		etw_tmf_store_free(q->store);
		err = ERROR_NOT_ENOUGH_MEMORY;
		goto out;
	}
	nstores++;
	*out = q->store;
out:
	pthread_mutex_unlock(&stores_lock);
	return err;
}

/* TDH's in-type and out-type of an item. */
static void item_types(const struct wpp_item *it, struct tei_prop *p)
{
	static const uint16_t ints[2][4] = {
		{ TDH_INTYPE_UINT8, TDH_INTYPE_UINT16, TDH_INTYPE_UINT32, TDH_INTYPE_UINT64 },
		{ TDH_INTYPE_INT8, TDH_INTYPE_INT16, TDH_INTYPE_INT32, TDH_INTYPE_INT64 },
	};
	int k = it->size == 1 ? 0 : it->size == 2 ? 1 : it->size == 4 ? 2 : 3;

	p->out_type = TDH_OUTTYPE_NULL;
	switch (it->kind) {
	case WPP_K_INT:
	case WPP_K_LIST:
	case WPP_K_SET:
	case WPP_K_ENUM:
	case WPP_K_CHAR4:
		p->in_type = ints[!!(it->flags & WPP_F_SIGNED)][k];
		if (it->flags & (WPP_F_HEX | WPP_F_HEX_UP))
			p->in_type = it->size == 8 ? TDH_INTYPE_HEXINT64 :
				     TDH_INTYPE_HEXINT32;
		break;
	case WPP_K_PTR:
		p->in_type = TDH_INTYPE_POINTER;
		break;
	case WPP_K_DOUBLE:
		p->in_type = TDH_INTYPE_DOUBLE;
		break;
	case WPP_K_STRING:
		p->in_type = TDH_INTYPE_ANSISTRING;
		break;
	case WPP_K_WSTRING:
		p->in_type = TDH_INTYPE_UNICODESTRING;
		break;
	case WPP_K_PSTRING:
		p->in_type = TDH_INTYPE_COUNTEDANSISTRING;
		break;
	case WPP_K_PWSTRING:
		p->in_type = TDH_INTYPE_COUNTEDSTRING;
		break;
	case WPP_K_GUID:
		p->in_type = TDH_INTYPE_GUID;
		break;
	case WPP_K_NTSTATUS:
		p->in_type = TDH_INTYPE_UINT32;
		p->out_type = TDH_OUTTYPE_NTSTATUS;
		break;
	case WPP_K_WINERROR:
		p->in_type = TDH_INTYPE_UINT32;
		p->out_type = TDH_OUTTYPE_WIN32ERROR;
		break;
	case WPP_K_HRESULT:
		p->in_type = TDH_INTYPE_INT32;
		p->out_type = TDH_OUTTYPE_HRESULT;
		break;
	case WPP_K_IPADDR:
		p->in_type = TDH_INTYPE_UINT32;
		p->out_type = TDH_OUTTYPE_IPV4;
		break;
	case WPP_K_IPV6ADDR:
		p->in_type = TDH_INTYPE_BINARY;
		p->out_type = TDH_OUTTYPE_IPV6;
		p->length = 16;
		break;
	case WPP_K_PORT:
		p->in_type = TDH_INTYPE_UINT16;
		p->out_type = TDH_OUTTYPE_PORT;
		break;
	case WPP_K_MACADDR:
		p->in_type = TDH_INTYPE_BINARY;
		p->length = 6;
		break;
	case WPP_K_TIMESTAMP:
		p->in_type = TDH_INTYPE_FILETIME;
		break;
	case WPP_K_TIMEDELTA:
	case WPP_K_WAITTIME:
		p->in_type = TDH_INTYPE_INT64;
		break;
	case WPP_K_SID:
		p->in_type = TDH_INTYPE_SID;
		break;
	case WPP_K_HEXDUMP:
		p->in_type = TDH_INTYPE_HEXDUMP;
		break;
	}
}

/* The TRACE_EVENT_INFO of a TMF message (DecodingSourceWPP). */
static ULONG describe(const struct wpp_msg *m, PTRACE_EVENT_INFO buf,
		      ULONG *size)
{
	struct tei_builder *b = tei_builder_new();
	EVENT_DESCRIPTOR desc = { .Id = m->number };
	struct decode_key key = { .id = m->number, .source = DecodingSourceWPP };
	struct decode_desc *d = NULL;
	ULONG err;
	GUID g;

	if (!b)
		return ERROR_NOT_ENOUGH_MEMORY;
	memcpy(&g, &m->header->guid, sizeof(g));
	key.guid = g;
	tei_set_event(b, &g, NULL, &desc, DecodingSourceWPP, 0);
	tei_set_string(b, TEI_PROVIDER_NAME_S, m->header->friendly);
	tei_set_string(b, TEI_LEVEL_NAME_S, m->level);
	tei_set_string(b, TEI_KEYWORDS_NAME_S, NULL);
	tei_set_string(b, TEI_TASK_NAME_S, m->func);
	tei_set_string(b, TEI_EVENT_MESSAGE_S, m->format);
	for (uint32_t i = 0; i < m->arg_count; i++) {
		struct tei_prop p = { .name = m->args[i].expr, .count = 1 };

		item_types(m->args[i].item, &p);
		if (tei_add_property(b, &p) < 0) {
			tei_builder_free(b);
			return ERROR_NOT_ENOUGH_MEMORY;
		}
	}
	err = tdh_error(tei_builder_finish(b, &key, 0, &d));
	tei_builder_free(b);
	if (err)
		return err;
	err = tdh_copy_out(buf, size, d->tei, d->tei_size);
	decode_desc_free(d);
	return err;
}

/* A context's string value as UTF-8 (malloc'd). */
static ULONG ctx_utf8(const TDH_CONTEXT *c, char **out)
{
	const WCHAR *w = (const WCHAR *)(uintptr_t)c->ParameterValue;
	ULONG err = ERROR_SUCCESS;

	if (!w)
		return ERROR_INVALID_PARAMETER;
	*out = tdh_utf8(w, &err);
	return *out ? ERROR_SUCCESS : err;
}

ULONG tdh_wpp_event_info(const EVENT_RECORD *ev, ULONG nctx,
			 const TDH_CONTEXT *ctx, PTRACE_EVENT_INFO buf,
			 ULONG *size)
{
	char *file = NULL, *path = NULL;
	struct etw_tmf_store *s = NULL;
	const struct wpp_msg *m;
	struct etw_etl_guid g;
	ULONG err = ERROR_SUCCESS;

	for (ULONG i = 0; i < nctx && !err; i++) {
		if (ctx[i].ParameterType == TDH_CONTEXT_WPP_TMFFILE && !file)
			err = ctx_utf8(&ctx[i], &file);
		else if (ctx[i].ParameterType == TDH_CONTEXT_WPP_TMFSEARCHPATH && !path)
			err = ctx_utf8(&ctx[i], &path);
	}
	if (!err && !file && !path && !getenv("TRACE_FORMAT_SEARCH_PATH"))
		err = ERROR_NOT_FOUND;
	if (!err)
		err = store_of(file, path, &s);
	free(file);
	free(path);
	if (err)
		return err;
	memcpy(&g, &ev->EventHeader.ProviderId, sizeof(g));
	m = wpp_store_find(s, &g, ev->EventHeader.EventDescriptor.Id);
	if (!m)
		return ERROR_NOT_FOUND;
	return describe(m, buf, size);
}

/* ---- TdhGetWppMessage, TdhGetWppProperty ---- */

/*
 * @s as UTF-16 into the caller's buffer, by the two-call rule: UTF-8, or
 * (an 8-bit string argument that is not) each byte as the code point of
 * its value, as Latin-1 reads.
 */
static ULONG copy_wide(const char *s, PBYTE buf, PULONG size)
{
	size_t n = tdh_wsize(s), len = strlen(s);
	ULONG have = *size;
	size_t off = 0;

	if (!n)
		n = (len + 1) * sizeof(WCHAR);
	if (n > 0xFFFFFFFFu)
		return ERROR_NOT_ENOUGH_MEMORY;
	*size = (ULONG)n;
	if (!buf || have < n)
		return ERROR_INSUFFICIENT_BUFFER;
	if (tdh_wsize(s)) {
		tdh_wput(buf, &off, s);
		return ERROR_SUCCESS;
	}
	for (size_t i = 0; i <= len; i++) {
		WCHAR c = (unsigned char)s[i];

		memcpy(buf + i * sizeof(WCHAR), &c, sizeof(c));
	}
	return ERROR_SUCCESS;
}

/* The message of ev by the handle's TMFs; a Win32 code (locked). */
static ULONG format(struct tdh_wpp *w, const EVENT_RECORD *ev,
		    struct etw_wpp_message *m)
{
	struct wpp_record r;
	int ret;

	if (!tdh_is_wpp(ev))
		return ERROR_INVALID_PARAMETER;
	tdh_wpp_record(ev, w->pointer_size, &r);
	ret = wpp_format_record(w->fmt, w->store, &r, m);
	if (ret == -ENOENT)
		return ERROR_NOT_FOUND;
	if (ret == -ENOMEM)
		return ERROR_NOT_ENOUGH_MEMORY;
	return ERROR_SUCCESS;
}

/* The leading blank of WPP's "%0 " is the prefix's, not the message's. */
static const char *message_text(const struct etw_wpp_message *m)
{
	const char *t = m->text;

	while (*t == ' ')
		t++;
	return t;
}

ETW_EXPORT TDHSTATUS WINAPI TdhGetWppMessage(TDH_HANDLE Handle,
					     PEVENT_RECORD EventRecord,
					     PULONG BufferSize, PBYTE Buffer)
{
	struct etw_wpp_message m;
	struct tdh_wpp *w;
	ULONG err;

	if (!EventRecord || !BufferSize)
		return ERROR_INVALID_PARAMETER;
	w = tdh_handle_wpp_lock(Handle, &err);
	if (!w)
		return err;
	err = format(w, EventRecord, &m);
	if (!err)
		err = copy_wide(message_text(&m), Buffer, BufferSize);
	tdh_handle_wpp_unlock(Handle);
	return err;
}

enum prop_kind { P_ULONG, P_GUID, P_STRING, P_SYSTEMTIME, P_FILETIME };

static ULONG copy_bytes(const void *p, size_t n, PBYTE buf, PULONG size)
{
	return tdh_copy_out(buf, size, p, n);
}

static ULONG system_time(uint64_t ft, bool gmt, PBYTE buf, PULONG size)
{
	int64_t secs = (int64_t)(ft / 10000000u) - 11644473600ll;
	time_t t = (time_t)secs;
	SYSTEMTIME st = { 0 };
	struct tm tm;

	if (!(gmt ? gmtime_r(&t, &tm) : localtime_r(&t, &tm)))
		return ERROR_INVALID_DATA;
	st.wYear = (WORD)(tm.tm_year + 1900);
	st.wMonth = (WORD)(tm.tm_mon + 1);
	st.wDayOfWeek = (WORD)tm.tm_wday;
	st.wDay = (WORD)tm.tm_mday;
	st.wHour = (WORD)tm.tm_hour;
	st.wMinute = (WORD)tm.tm_min;
	st.wSecond = (WORD)tm.tm_sec;
	st.wMilliseconds = (WORD)(ft / 10000u % 1000u);
	return copy_bytes(&st, sizeof(st), buf, size);
}

static ULONG property(struct tdh_wpp *w, const EVENT_RECORD *ev,
		      const char *name, const struct etw_wpp_message *m,
		      PBYTE buf, PULONG size)
{
	const EVENT_HEADER *h = &ev->EventHeader;
	static const struct {
		const char *name;
		enum prop_kind kind;
	} props[] = {
		{ "TraceGuid", P_GUID }, { "GuidName", P_STRING },
		{ "GuidTypeName", P_STRING }, { "ThreadId", P_ULONG },
		{ "SystemTime", P_SYSTEMTIME }, { "UserTime", P_ULONG },
		{ "KernelTime", P_ULONG }, { "ProcessId", P_ULONG },
		{ "CpuNumber", P_ULONG }, { "FlagsName", P_STRING },
		{ "LevelName", P_STRING }, { "FunctionName", P_STRING },
		{ "ComponentName", P_STRING }, { "SubComponentName", P_STRING },
		{ "FormattedString", P_STRING }, { "RawSystemTime", P_FILETIME },
	};
	ULONG v = 0;

	for (size_t i = 0; i < sizeof(props) / sizeof(props[0]); i++) {
		if (strcmp(props[i].name, name))
			continue;
		switch (i) {
		case 0:
			return copy_bytes(&h->ProviderId, sizeof(GUID), buf, size);
		case 1:
			return copy_wide(m->guid_name, buf, size);
		case 2:
			return copy_wide(m->message_name, buf, size);
		case 3:
			v = h->ThreadId;
			break;
		case 4:
			return system_time((uint64_t)h->TimeStamp.QuadPart,
					   w->gmt, buf, size);
		case 5:
			v = h->UserTime;
			break;
		case 6:
			v = h->KernelTime;
			break;
		case 7:
			v = h->ProcessId;
			break;
		case 8:
			v = GetEventProcessorIndex(ev);
			break;
		case 9:
			return copy_wide(m->flags, buf, size);
		case 10:
			return copy_wide(m->level, buf, size);
		case 11:
			return copy_wide(m->function, buf, size);
		case 12:
			return copy_wide(m->component, buf, size);
		case 13:
			return copy_wide(m->subcomponent, buf, size);
		case 14:
			return copy_wide(message_text(m), buf, size);
		default:
			return copy_bytes(&h->TimeStamp, sizeof(FILETIME), buf, size);
		}
		return copy_bytes(&v, sizeof(v), buf, size);
	}
	return ERROR_NOT_FOUND;
}

ETW_EXPORT TDHSTATUS WINAPI TdhGetWppProperty(TDH_HANDLE Handle,
					      PEVENT_RECORD EventRecord,
					      PWSTR PropertyName,
					      PULONG BufferSize, PBYTE Buffer)
{
	struct etw_wpp_message m;
	struct tdh_wpp *w;
	char *name;
	ULONG err;

	if (!EventRecord || !PropertyName || !BufferSize)
		return ERROR_INVALID_PARAMETER;
	name = tdh_utf8(PropertyName, &err);
	if (!name)
		return err;
	w = tdh_handle_wpp_lock(Handle, &err);
	if (w) {
		err = format(w, EventRecord, &m);
		if (!err)
			err = property(w, EventRecord, name, &m, Buffer, BufferSize);
		tdh_handle_wpp_unlock(Handle);
	}
	free(name);
	return err;
}
