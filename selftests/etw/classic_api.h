/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers of the classic API selftests, which use libetw (64-bit only):
 * sessions started with StartTrace, their buffers saved as an ETL file
 * with libetw's writer and read back with its reader.
 */
#ifndef ETW_CLASSIC_API_H
#define ETW_CLASSIC_API_H

#include <stdio.h>

#include <windows.h>
#include <evntrace.h>
#include <evntcons.h>
#include <etw_etl.h>
#include <etw_etl_writer.h>

#include "classic_selftests.h"

/* A properties allocation with room for the name. */
struct pbuf {
	EVENT_TRACE_PROPERTIES p;
	char names[256];
};

/* StartTraceA of a real-time session with @kb KB buffers and @mode too. */
static inline ULONG start_mode(const char *name, ULONG kb, ULONG max_buffers,
			       ULONG mode, CONTROLTRACE_ID *h)
{
	struct pbuf b;

	memset(&b, 0, sizeof(b));
	b.p.Wnode.BufferSize = sizeof(b);
	b.p.Wnode.Flags = WNODE_FLAG_TRACED_GUID;
	b.p.LogFileMode = EVENT_TRACE_REAL_TIME_MODE | mode;
	b.p.LoggerNameOffset = sizeof(b.p);
	b.p.BufferSize = kb;
	b.p.MaximumBuffers = max_buffers;
	return StartTraceA(h, name, &b.p);
}

static inline ULONG start(const char *name, ULONG kb, ULONG max_buffers,
			  CONTROLTRACE_ID *h)
{
	return start_mode(name, kb, max_buffers, 0, h);
}

#define LOGGER_ID(h)	((__u32)((h) & 0xffff))

/* Write the session's buffers so far to an ETL file at @path. */
static inline int save_etl(int fd, __u32 logger_id, const char *path)
{
	static __u8 buf[1024 * 1024];
	struct etw_session_info info;
	struct etw_etl_writer *w;
	int ret;

	ret = etw_session_ctl(fd, logger_id, ETW_CONTROL_FLUSH, &info);
	if (ret)
		return ret;
	ret = etw_etl_writer_open(&w, path, &info);
	if (ret)
		return ret;
	while (!(ret = etw_take_buffer(fd, logger_id, buf, sizeof(buf), NULL)))
		if ((ret = etw_etl_writer_buffer(w, buf)))
			break;
	if (ret == -EAGAIN)
		ret = 0;
	etw_etl_writer_close(w, NULL);
	return ret;
}

/* The events of an ETL file (not the header buffer's), in time order. */
struct events {
	struct etw_etl *etl;
	struct etw_etl_event ev[64];
	int n;
};

static inline int read_etl(const char *path, struct events *e)
{
	struct etw_etl_event ev;
	int ret;

	memset(e, 0, sizeof(*e));
	ret = etw_etl_open(path, &e->etl, NULL);
	if (ret)
		return ret;
	ret = etw_etl_rewind(e->etl, ETW_ETL_ORDER_TIME);
	while (!ret && (ret = etw_etl_next(e->etl, &ev)) == 1) {
		ret = 0;
		if (ev.buffer == 0)
			continue;
		if (e->n == 64)
			return -E2BIG;
		e->ev[e->n++] = ev;
	}
	return ret;
}

/*
 * ProcessTrace over the file at @path, as EVENT_RECORDs to @cb (@ctx its
 * UserContext) or, with @cb NULL, as EVENT_TRACEs to @trace_cb.
 */
static inline ULONG process_file(const char *path, PEVENT_RECORD_CALLBACK cb,
				 PEVENT_CALLBACK trace_cb, void *ctx)
{
	EVENT_TRACE_LOGFILEA lf;
	PROCESSTRACE_HANDLE h;
	ULONG err;

	memset(&lf, 0, sizeof(lf));
	lf.LogFileName = (LPSTR)path;
	if (cb) {
		lf.ProcessTraceMode = PROCESS_TRACE_MODE_EVENT_RECORD;
		lf.EventRecordCallback = cb;
	} else {
		lf.EventCallback = trace_cb;
	}
	lf.Context = ctx;
	h = OpenTraceA(&lf);
	if (h == INVALID_PROCESSTRACE_HANDLE)
		return GetLastError();
	err = ProcessTrace(&h, 1, NULL, NULL);
	CloseTrace(h);
	return err;
}

/* A line of `etw dump` output that has @a (and @b, if not NULL). */
struct dump_line {
	const char *a, *b;
};

/*
 * Run `etw dump @path`: bit i of the result is set if some line matches
 * @want[i]; -1 if the command failed.
 */
static inline int dump_finds(const char *path, const struct dump_line *want,
			     int n)
{
	char line[4096], cmd[256];
	int found = 0, i;
	FILE *p;

	snprintf(cmd, sizeof(cmd), "etw dump %s", path);
	p = popen(cmd, "r");
	if (!p)
		return -1;
	while (fgets(line, sizeof(line), p))
		for (i = 0; i < n; i++)
			if (strstr(line, want[i].a) &&
			    (!want[i].b || strstr(line, want[i].b)))
				found |= 1 << i;
	return pclose(p) ? -1 : found;
}

#endif /* ETW_CLASSIC_API_H */
