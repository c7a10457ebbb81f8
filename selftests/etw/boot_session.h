/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the boot-session selftests (autologger_test, global_logger_test)
 * share: a session's properties by name, a provider's events written
 * with ids, and the events of one provider in a file counted by id.
 */
#ifndef ETW_BOOT_SESSION_H
#define ETW_BOOT_SESSION_H

#include <stdio.h>
#include <string.h>

#include <windows.h>
#include <evntrace.h>
#include <evntprov.h>
#include <etw_etl.h>

struct props {
	EVENT_TRACE_PROPERTIES p;
	char logger[256];
	char file[1024];
};

/* ControlTrace by name with room for both names. */
static inline ULONG control(const char *name, struct props *b, ULONG code)
{
	memset(b, 0, sizeof(*b));
	b->p.Wnode.BufferSize = sizeof(*b);
	b->p.LoggerNameOffset = offsetof(struct props, logger);
	b->p.LogFileNameOffset = offsetof(struct props, file);
	return ControlTraceA(0, name, &b->p, code);
}

/* Events with ids @from..@to-1, level 4, keyword 0x10, the id as data. */
static inline void write_events(REGHANDLE reg, int from, int to)
{
	EVENT_DESCRIPTOR d = { .Level = 4, .Keyword = 0x10 };
	EVENT_DATA_DESCRIPTOR data;
	ULONG v;
	int i;

	for (i = from; i < to; i++) {
		d.Id = i;
		v = i;
		EventDataDescCreate(&data, &v, sizeof(v));
		EventWrite(reg, &d, 1, &data);
	}
}

/*
 * The events of @guid in the file (-1 if it does not open), each id below
 * @max counted in @ids; the header's EventsLost in @lost.
 */
static inline long count_events(const char *path, const GUID *guid, unsigned char *ids,
				unsigned int max, unsigned int *lost)
{
	struct etw_etl_event ev;
	struct etw_etl *etl;
	long n = 0;

	if (etw_etl_open(path, &etl, NULL))
		return -1;
	*lost = etw_etl_get_header(etl)->events_lost;
	while (etw_etl_next(etl, &ev) == 1) {
		if (ev.kind != ETW_ETL_KIND_EVENT || memcmp(&ev.provider, guid, 16))
			continue;
		n++;
		if (ev.id < max)
			ids[ev.id]++;
	}
	etw_etl_close(etl);
	return n;
}

/* A small file's text ("(none)" if it cannot be read). */
static inline const char *slurp(const char *path)
{
	static char text[4096];
	size_t n;
	FILE *f = fopen(path, "r");

	if (!f)
		return "(none)";
	n = fread(text, 1, sizeof(text) - 1, f);
	text[n] = '\0';
	fclose(f);
	return text;
}

#endif /* ETW_BOOT_SESSION_H */
