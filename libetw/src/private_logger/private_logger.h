/* SPDX-License-Identifier: MIT */
/*
 * Private loggers (private_logger.c): sessions that live in this process,
 * started with EVENT_TRACE_PRIVATE_LOGGER_MODE.  What the controller, the
 * classic write functions and provider.c call.
 */
#ifndef LIBETW_PRIVATE_LOGGER_H
#define LIBETW_PRIVATE_LOGGER_H

#include <stdbool.h>
#include <stdint.h>

#include <windows.h>
#include <evntprov.h>
#include <evntrace.h>

#include "../common/properties.h"

/* At most 4 private loggers per process (seed 004). */
#define ETW_MAX_PRIVATE_LOGGERS	4

/* StartTrace of a private logger; @p, @pl and @name already checked. */
ULONG etw_private_start(CONTROLTRACE_ID *TraceId, const struct etw_name *name,
			EVENT_TRACE_PROPERTIES *p, const struct etw_props *pl,
			enum etw_cs cs);

/*
 * ControlTrace of the private logger @h (when @name is NULL) or called
 * @name; ERROR_WMI_INSTANCE_NOT_FOUND if there is none.  @found, if not
 * NULL, says whether a private logger of that name exists (a name may
 * also be a kernel session's).
 */
ULONG etw_private_control(CONTROLTRACE_ID h, const char *name,
			  EVENT_TRACE_PROPERTIES *p, const struct etw_props *pl,
			  enum etw_cs cs, ULONG code, bool *found);

/* EnableTrace* on a private logger's handle. */
ULONG etw_private_enable(CONTROLTRACE_ID h, LPCGUID provider, ULONG code,
			 UCHAR level, ULONGLONG any, ULONGLONG all,
			 ULONG property, LPCGUID source);

/* TraceEvent, TraceEventInstance, TraceMessage to a private logger. */
ULONG etw_private_trace_event(TRACELOGGER_HANDLE h, PEVENT_TRACE_HEADER ev);
ULONG etw_private_trace_instance(TRACELOGGER_HANDLE h,
				 const EVENT_INSTANCE_HEADER *ev,
				 const GUID *guid, ULONG instance_id,
				 const GUID *parent_guid, ULONG parent_id);
ULONG etw_private_trace_message(TRACELOGGER_HANDLE h, ULONG flags,
				LPCGUID guid, USHORT number,
				const struct etw_data_desc *d, size_t n);

/* What one private logger asks of a provider it enables. */
struct etw_private_filter {
	UCHAR level;		/* 255 for a 0 */
	ULONGLONG any, all;	/* a MatchAny of 0 is all, its MatchAll 0 */
};

/* What the private loggers that enable @guid ask for. */
struct etw_private_view {
	unsigned int mask;	/* bit i: logger i + 1 enables it */
	struct etw_private_filter f[ETW_MAX_PRIVATE_LOGGERS];	/* by bit */
	UCHAR level;		/* the highest (255 for a 0) */
	UCHAR cb_level;		/* 0 if one gave 0, else level */
	ULONGLONG any, all;	/* OR, AND; a MatchAny of 0 is all */
	/* The newest enable: a classic provider's one session. */
	USHORT newest;		/* its logger id, 0 if none */
	UCHAR newest_level;
	ULONGLONG newest_any;
};

void etw_private_view(const GUID *guid, struct etw_private_view *v);

/*
 * The loggers of @mask whose filter in @f wants an event of @level and
 * @keyword.  The provider keeps its own copy of the filters (provider.c),
 * so the write path shares no lock with other processors; a filter read
 * while an enable changes it is the old or the new one field by field.
 */
static inline unsigned int etw_private_want(unsigned int mask,
					    const struct etw_private_filter *f,
					    UCHAR level, ULONGLONG keyword)
{
	unsigned int want = 0, i;
	ULONGLONG any, all;

	for (i = 0; mask; i++, mask >>= 1) {
		if (!(mask & 1))
			continue;
		if (level && level > __atomic_load_n(&f[i].level, __ATOMIC_RELAXED))
			continue;
		any = __atomic_load_n(&f[i].any, __ATOMIC_RELAXED);
		all = __atomic_load_n(&f[i].all, __ATOMIC_RELAXED);
		if (!keyword || ((keyword & any) && (keyword & all) == all))
			want |= 1u << i;
	}
	return want;
}

/*
 * A registration's EventSetInformation, which the module keeps for its
 * sessions and provider.c for the private loggers.  Set once or seldom,
 * read by writers with atomic loads: @traits is published (release) after
 * @traits_len.
 */
struct etw_private_meta {
	bool typed;			/* descriptor types are honoured */
	uint16_t traits_len;
	const unsigned char *traits;	/* the provider traits blob, or NULL */
};

/*
 * EventWrite* into the private loggers of @mask (that want it: the
 * caller filtered); the result of the first that failed, as Windows
 * reports one result for all sessions.
 */
ULONG etw_private_event_write(unsigned int mask, const GUID *provider,
			      PCEVENT_DESCRIPTOR desc, LPCGUID activity,
			      LPCGUID related, ULONG count,
			      const EVENT_DATA_DESCRIPTOR *data, bool string,
			      const struct etw_private_meta *meta);

/*
 * provider.c: a private logger with id @logger_id changed its enable of
 * @guid (@code: EVENT_CONTROL_CODE_*); update this process's
 * registrations of it and call them back.
 */
void etw_provider_private_changed(const GUID *guid, USHORT logger_id,
				  ULONG code, LPCGUID source);

/* provider.c: in a child after fork, no private logger enables anything. */
void etw_provider_private_forget(void);

#endif /* LIBETW_PRIVATE_LOGGER_H */
