// SPDX-License-Identifier: MIT
/*
 * etw_tld: TraceLogging events built at run time (etw_tld.h).  The
 * metadata is encoded as TraceLoggingProvider.h encodes it at compile time,
 * except that tags take the shortest of their 1-, 2- and 4-byte forms.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include <windows.h>
#include <evntprov.h>
#include <etw_tld.h>

#include "../common/internal.h"

#define IN_INT64	9
#define IN_UINT64	10
#define IN_DOUBLE	12
#define IN_BOOL32	13
#define IN_BINARY	14
#define IN_GUID		15
#define IN_ANSISTRING	2
#define IN_STRUCT	24
#define OUT_UTF8	35
#define TLD_CHANNEL	11

struct etw_tld_provider {
	REGHANDLE handle;
	UINT16 traits_len;
	UINT8 traits[];
};

struct tld_buf {
	UINT8 *p;
	size_t len;
	size_t cap;
};

struct etw_tld_event {
	struct tld_buf meta;
	struct tld_buf data;
	UCHAR level;
	UCHAR opcode;
	UCHAR channel;
	ULONGLONG keyword;
	bool failed;			/* out of memory while building */
};

static void put(struct etw_tld_event *ev, struct tld_buf *b, const void *p,
		size_t n)
{
	if (ev->failed)
		return;
	if (b->cap - b->len < n) {
		size_t cap = b->cap ? b->cap : 256;
		UINT8 *q;

		while (cap - b->len < n)
			cap *= 2;
		q = realloc(b->p, cap);
		if (!q) {
			ev->failed = true;
			return;
		}
		b->p = q;
		b->cap = cap;
	}
	memcpy(b->p + b->len, p, n);
	b->len += n;
}

static void put_byte(struct etw_tld_event *ev, UINT8 v)
{
	put(ev, &ev->meta, &v, 1);
}

static void put_name(struct etw_tld_event *ev, const char *name)
{
	if (!name)
		name = "";
	put(ev, &ev->meta, name, strlen(name) + 1);
}

/* 28 bits, 7 a byte from the top, 0x80 on all but the last: 1, 2 or 4. */
static void put_tags(struct etw_tld_event *ev, UINT32 t)
{
	t &= 0x0fffffff;
	if (!(t & 0x1fffff)) {
		put_byte(ev, (UINT8)(t >> 21));
	} else if (!(t & 0x3fff)) {
		put_byte(ev, (UINT8)(0x80 | t >> 21));
		put_byte(ev, (UINT8)(t >> 14 & 0x7f));
	} else {
		put_byte(ev, (UINT8)(0x80 | t >> 21));
		put_byte(ev, (UINT8)(0x80 | (t >> 14 & 0x7f)));
		put_byte(ev, (UINT8)(0x80 | (t >> 7 & 0x7f)));
		put_byte(ev, (UINT8)(t & 0x7f));
	}
}

ETW_EXPORT ULONG etw_tld_provider_open(const char *name, const GUID *group,
				       struct etw_tld_provider **provider)
{
	size_t len, total;
	struct etw_tld_provider *p;
	unsigned char id[16];
	ULONG err;
	UINT8 *t;

	if (!provider)
		return ERROR_INVALID_PARAMETER;
	*provider = NULL;
	if (!name)
		return ERROR_INVALID_PARAMETER;
	len = strlen(name);
	total = 2 + len + 1 + (group ? 19 : 0);
	if (total > 0xffff || etw_guid_from_name(name, len, id))
		return ERROR_INVALID_PARAMETER;
	p = calloc(1, sizeof(*p) + total);
	if (!p)
		return ERROR_NOT_ENOUGH_MEMORY;
	t = p->traits;
	t[0] = (UINT8)total;
	t[1] = (UINT8)(total >> 8);
	memcpy(t + 2, name, len + 1);
	if (group) {
		t += 2 + len + 1;
		t[0] = 19;
		t[1] = 0;
		t[2] = 1;		/* EtwProviderTraitTypeGroup */
		memcpy(t + 3, group, sizeof(*group));
	}
	p->traits_len = (UINT16)total;
	err = EventRegister((const GUID *)id, NULL, NULL, &p->handle);
	if (err) {
		free(p);
		return err;
	}
	/* As TraceLoggingRegister: the traits' own result does not matter. */
	EventSetInformation(p->handle, EventProviderSetTraits, p->traits,
			    p->traits_len);
	*provider = p;
	return ERROR_SUCCESS;
}

ETW_EXPORT void etw_tld_provider_close(struct etw_tld_provider *provider)
{
	if (!provider)
		return;
	EventUnregister(provider->handle);
	free(provider);
}

ETW_EXPORT BOOLEAN etw_tld_enabled(const struct etw_tld_provider *provider,
				   UCHAR level, ULONGLONG keyword)
{
	return provider && EventProviderEnabled(provider->handle, level, keyword);
}

ETW_EXPORT REGHANDLE etw_tld_provider_handle(const struct etw_tld_provider *provider)
{
	return provider ? provider->handle : 0;
}

ETW_EXPORT struct etw_tld_event *etw_tld_event_new(void)
{
	return calloc(1, sizeof(struct etw_tld_event));
}

ETW_EXPORT void etw_tld_event_free(struct etw_tld_event *event)
{
	if (!event)
		return;
	free(event->meta.p);
	free(event->data.p);
	free(event);
}

ETW_EXPORT void etw_tld_event_begin(struct etw_tld_event *ev, const char *name,
				    UCHAR level, ULONGLONG keyword, UINT32 tags)
{
	static const UINT8 size[2];

	ev->meta.len = 0;
	ev->data.len = 0;
	ev->failed = false;
	ev->level = level;
	ev->keyword = keyword;
	ev->opcode = 0;
	ev->channel = TLD_CHANNEL;
	put(ev, &ev->meta, size, 2);	/* filled in by the write */
	put_tags(ev, tags);
	put_name(ev, name);
}

ETW_EXPORT void etw_tld_event_set(struct etw_tld_event *ev, UCHAR opcode,
				  UCHAR channel)
{
	ev->opcode = opcode;
	ev->channel = channel;
}

ETW_EXPORT void etw_tld_field(struct etw_tld_event *ev, const char *name,
			      UINT8 in_type, UINT8 out_type, UINT32 tags,
			      UINT16 count)
{
	bool out = out_type || (tags & 0x0fffffff);

	put_name(ev, name);
	put_byte(ev, (UINT8)((in_type & 0x7f) | (out ? 0x80 : 0)));
	if (out)
		put_byte(ev, (UINT8)((out_type & 0x7f) |
				     (tags & 0x0fffffff ? 0x80 : 0)));
	if (tags & 0x0fffffff)
		put_tags(ev, tags);
	if ((in_type & 0x60) == ETW_TLD_FIXED_ARRAY) {
		UINT8 c[2] = { (UINT8)count, (UINT8)(count >> 8) };

		put(ev, &ev->meta, c, 2);
	}
}

ETW_EXPORT void etw_tld_struct(struct etw_tld_event *ev, const char *name,
			       UINT8 member_count)
{
	etw_tld_field(ev, name, IN_STRUCT, member_count, 0, 0);
}

ETW_EXPORT void etw_tld_data(struct etw_tld_event *ev, const void *data, size_t size)
{
	put(ev, &ev->data, data, size);
}

ETW_EXPORT void etw_tld_int64(struct etw_tld_event *ev, const char *name, int64_t v)
{
	etw_tld_field(ev, name, IN_INT64, 0, 0, 0);
	etw_tld_data(ev, &v, sizeof(v));
}

ETW_EXPORT void etw_tld_uint64(struct etw_tld_event *ev, const char *name, uint64_t v)
{
	etw_tld_field(ev, name, IN_UINT64, 0, 0, 0);
	etw_tld_data(ev, &v, sizeof(v));
}

ETW_EXPORT void etw_tld_double(struct etw_tld_event *ev, const char *name, double v)
{
	etw_tld_field(ev, name, IN_DOUBLE, 0, 0, 0);
	etw_tld_data(ev, &v, sizeof(v));
}

ETW_EXPORT void etw_tld_bool(struct etw_tld_event *ev, const char *name, int v)
{
	INT32 b = v != 0;

	etw_tld_field(ev, name, IN_BOOL32, 0, 0, 0);
	etw_tld_data(ev, &b, sizeof(b));
}

ETW_EXPORT void etw_tld_string(struct etw_tld_event *ev, const char *name,
			       const char *utf8)
{
	if (!utf8)
		utf8 = "";
	etw_tld_field(ev, name, IN_ANSISTRING, OUT_UTF8, 0, 0);
	etw_tld_data(ev, utf8, strlen(utf8) + 1);
}

ETW_EXPORT void etw_tld_binary(struct etw_tld_event *ev, const char *name,
			       const void *data, UINT16 size)
{
	UINT8 len[2] = { (UINT8)size, (UINT8)(size >> 8) };

	etw_tld_field(ev, name, IN_BINARY, 0, 0, 0);
	etw_tld_data(ev, len, 2);
	etw_tld_data(ev, data, size);
}

ETW_EXPORT void etw_tld_guid(struct etw_tld_event *ev, const char *name,
			     const GUID *v)
{
	etw_tld_field(ev, name, IN_GUID, 0, 0, 0);
	etw_tld_data(ev, v, sizeof(*v));
}

ETW_EXPORT ULONG etw_tld_event_write(const struct etw_tld_provider *p,
				     const struct etw_tld_event *ev,
				     LPCGUID activity, LPCGUID related)
{
	EVENT_DATA_DESCRIPTOR d[3];
	EVENT_DESCRIPTOR desc;

	if (!p || !ev || !ev->meta.len)
		return ERROR_INVALID_PARAMETER;
	if (ev->failed)
		return ERROR_NOT_ENOUGH_MEMORY;
	if (ev->meta.len > 0xffff || ev->data.len > 0xffff)
		return ERROR_ARITHMETIC_OVERFLOW;
	ev->meta.p[0] = (UINT8)ev->meta.len;
	ev->meta.p[1] = (UINT8)(ev->meta.len >> 8);
	memset(&desc, 0, sizeof(desc));
	desc.Channel = ev->channel;
	desc.Level = ev->level;
	desc.Opcode = ev->opcode;
	desc.Keyword = ev->keyword;
	EventDataDescCreate(&d[0], p->traits, p->traits_len);
	d[0].Type = EVENT_DATA_DESCRIPTOR_TYPE_PROVIDER_METADATA;
	EventDataDescCreate(&d[1], ev->meta.p, (ULONG)ev->meta.len);
	d[1].Type = EVENT_DATA_DESCRIPTOR_TYPE_EVENT_METADATA;
	EventDataDescCreate(&d[2], ev->data.p, (ULONG)ev->data.len);
	return EventWriteTransfer(p->handle, &desc, activity, related,
				  ev->data.len ? 3 : 2, d);
}
