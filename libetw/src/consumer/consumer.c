// SPDX-License-Identifier: MIT
/*
 * The consumer API of evntrace.h: OpenTraceA/W, ProcessTrace and
 * CloseTrace, and the table of PROCESSTRACE_HANDLEs.
 *
 * A handle is a generation number (bits 32-63, never 0) and a slot of the
 * table (bits 0-31, from 1), so it is never 0, never
 * INVALID_PROCESSTRACE_HANDLE in either process width, and a closed
 * handle does not reach the trace that later gets its slot.
 *
 * Checks are made in Windows' documented order where it has one; every
 * function makes its result the thread's last error, as Windows' do
 * (OpenTrace only on failure).  Windows' ERROR_NOACCESS for an exception
 * in a callback has no equivalent here: a C callback that faults takes
 * the process down, as it would without ETW.
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "consumer.h"
#include "../common/utf.h"

/* The most file handles one ProcessTrace takes (etw-api.md 4.5). */
#define MAX_PROCESS_HANDLES	64
/* Windows' longest path, in UTF-16 units. */
#define MAX_NAME_UNITS		32767
#define MAX_TRACES		(1u << 20)
#define SLOT_MASK		0xffffffffULL

static pthread_mutex_t table_lock = PTHREAD_MUTEX_INITIALIZER;
static struct etw_trace **table;
static uint32_t table_size;
static uint32_t generation;

static ULONG ret_error(ULONG code)
{
	SetLastError(code);
	return code;
}

/* The trace of @h, or NULL.  table_lock held. */
static struct etw_trace *lookup(PROCESSTRACE_HANDLE h)
{
	uint64_t slot = h & SLOT_MASK;

	if (!slot || slot > table_size || !table[slot - 1] ||
	    table[slot - 1]->handle != h)
		return NULL;
	return table[slot - 1];
}

static bool insert(struct etw_trace *t)
{
	uint32_t slot;
	bool ok = true;

	pthread_mutex_lock(&table_lock);
	for (slot = 0; slot < table_size && table[slot]; slot++)
		;
	if (slot == table_size) {
		uint32_t size = table_size ? table_size * 2 : 16;
		void *p = size <= MAX_TRACES ?
			  reallocarray(table, size, sizeof(*table)) : NULL;

		if (p) {
			table = p;
			memset(table + table_size, 0,
			       (size - table_size) * sizeof(*table));
			table_size = size;
		} else {
			ok = false;
		}
	}
	if (ok) {
		if (!++generation)
			generation = 1;
		t->handle = (PROCESSTRACE_HANDLE)generation << 32 | (slot + 1);
		table[slot] = t;
	}
	pthread_mutex_unlock(&table_lock);
	return ok;
}

static void trace_free(struct etw_trace *t)
{
	if (!t)
		return;
	etw_etl_close(t->etl);
	free(t->name);
	free(t->logger_name);
	free(t->log_file_name);
	free(t->items);
	free(t);
}

/* The caller's file or session name, as UTF-8; NULL if unusable. */
static char *name_utf8(const void *s, bool wide)
{
	const char16_t *w = s;
	size_t len = 0;
	ssize_t n;
	char *out;

	if (!wide)
		return *(const char *)s ? strdup(s) : NULL;
	while (len <= MAX_NAME_UNITS && w[len])
		len++;
	if (!len || len > MAX_NAME_UNITS)
		return NULL;
	n = etw_utf16_to_utf8(w, len, NULL, 0);
	if (n < 0)
		return NULL;
	out = malloc(n + 1);
	if (out && etw_utf16_to_utf8(w, len, out, n + 1) < 0) {
		free(out);
		return NULL;
	}
	return out;
}

/*
 * Both variants: EVENT_TRACE_LOGFILEA and W differ only in the type of
 * the two name pointers, so one copy serves both.
 */
static PROCESSTRACE_HANDLE open_trace(void *logfile, bool wide)
{
	EVENT_TRACE_LOGFILEW *lf = logfile;
	struct etw_trace *t;
	const void *name;
	ULONG err;

	if (!lf) {
		SetLastError(ERROR_INVALID_PARAMETER);
		return INVALID_PROCESSTRACE_HANDLE;
	}
	t = calloc(1, sizeof(*t));
	if (!t) {
		SetLastError(ERROR_NOT_ENOUGH_MEMORY);
		return INVALID_PROCESSTRACE_HANDLE;
	}
	t->lf = *lf;
	t->mode = lf->ProcessTraceMode;
	t->realtime = t->mode & PROCESS_TRACE_MODE_REAL_TIME;
	/*
	 * The mode decides which name is used; the other is ignored.  A
	 * missing or unusable one is ERROR_BAD_PATHNAME, as Windows
	 * documents for the file name.
	 */
	name = t->realtime ? (const void *)lf->LoggerName :
			     (const void *)lf->LogFileName;
	err = ERROR_BAD_PATHNAME;
	if (name)
		t->name = name_utf8(name, wide);
	if (!t->name)
		goto fail;
	err = ERROR_NOT_ENOUGH_MEMORY;
	t->items = calloc(ETL_MAX_EXT, sizeof(*t->items));
	if (!t->items)
		goto fail;

	memset(&t->lf.LogfileHeader, 0, sizeof(t->lf.LogfileHeader));
	memset(&t->lf.CurrentEvent, 0, sizeof(t->lf.CurrentEvent));
	t->lf.CurrentTime = 0;
	t->lf.BuffersRead = 0;
	t->lf.BufferSize = 0;
	t->lf.Filled = 0;
	t->lf.EventsLost = 0;
	t->lf.IsKernelTrace = 0;
	err = t->realtime ? etw_realtime_open(t) : etw_file_open(t);
	if (err)
		goto fail;
	err = ERROR_NOT_ENOUGH_MEMORY;
	if (!insert(t))
		goto fail;

	/* What OpenTrace fills in the caller's structure. */
	lf->CurrentTime = 0;
	lf->BuffersRead = 0;
	lf->LogfileHeader = t->lf.LogfileHeader;
	lf->BufferSize = t->lf.BufferSize;
	lf->Filled = 0;
	lf->EventsLost = 0;
	lf->IsKernelTrace = t->lf.IsKernelTrace;
	return t->handle;

fail:
	trace_free(t);
	SetLastError(err);
	return INVALID_PROCESSTRACE_HANDLE;
}

ETW_EXPORT PROCESSTRACE_HANDLE WMIAPI OpenTraceW(PEVENT_TRACE_LOGFILEW Logfile)
{
	return open_trace(Logfile, true);
}

ETW_EXPORT PROCESSTRACE_HANDLE WMIAPI OpenTraceA(PEVENT_TRACE_LOGFILEA Logfile)
{
	return open_trace(Logfile, false);
}

static uint64_t filetime_value(const FILETIME *ft)
{
	return (uint64_t)ft->dwHighDateTime << 32 | ft->dwLowDateTime;
}

/* Claim every handle for this call; a Win32 code if one cannot be. */
static ULONG claim(PROCESSTRACE_HANDLE *handles, ULONG n,
		   struct etw_trace **traces, struct etw_run *run)
{
	ULONG i, j, realtime = 0;

	for (i = 0; i < n; i++) {
		traces[i] = lookup(handles[i]);
		if (!traces[i])
			return ERROR_INVALID_HANDLE;
		for (j = 0; j < i; j++)
			if (traces[j] == traces[i])
				return ERROR_INVALID_PARAMETER;
		if (traces[i]->busy)
			return ERROR_BUSY;
		realtime += traces[i]->realtime;
	}
	/* Files, or exactly one real-time session: never both. */
	if (realtime && n > 1)
		return ERROR_INVALID_PARAMETER;
	for (i = 0; i < n; i++) {
		traces[i]->busy = true;
		traces[i]->stop = &run->stop;
	}
	return ERROR_SUCCESS;
}

ETW_EXPORT ULONG WMIAPI ProcessTrace(PROCESSTRACE_HANDLE *HandleArray,
				     ULONG HandleCount, LPFILETIME StartTime,
				     LPFILETIME EndTime)
{
	struct etw_trace *traces[MAX_PROCESS_HANDLES];
	struct etw_run run = { .window = { 0, UINT64_MAX } };
	ULONG err, i;

	if (!HandleArray)
		return ret_error(ERROR_INVALID_PARAMETER);
	if (!HandleCount || HandleCount > MAX_PROCESS_HANDLES)
		return ret_error(ERROR_BAD_LENGTH);
	if (StartTime)
		run.window.start = filetime_value(StartTime);
	if (EndTime)
		run.window.end = filetime_value(EndTime);
	atomic_init(&run.stop, false);

	pthread_mutex_lock(&table_lock);
	err = claim(HandleArray, HandleCount, traces, &run);
	pthread_mutex_unlock(&table_lock);
	if (err)
		return ret_error(err);
	if (run.window.end < run.window.start)
		err = ERROR_INVALID_TIME;
	else if (traces[0]->realtime)
		err = etw_realtime_process(traces[0], &run);
	else
		err = etw_file_process(traces, HandleCount, &run);

	/* A trace closed while it was processed goes now. */
	pthread_mutex_lock(&table_lock);
	for (i = 0; i < HandleCount; i++) {
		traces[i]->busy = false;
		traces[i]->stop = NULL;
		if (!traces[i]->closed)
			traces[i] = NULL;
	}
	pthread_mutex_unlock(&table_lock);
	for (i = 0; i < HandleCount; i++)
		trace_free(traces[i]);
	return ret_error(err);
}

/*
 * While a ProcessTrace runs on the handle (from another thread or from
 * one of its own callbacks) this only asks it to finish, and the trace is
 * freed when it returns: real time delivers the rest of the buffer it
 * holds, a file no further record.  Windows documents
 * ERROR_CTX_CLOSE_PENDING, which means success, for real-time handles;
 * files get the same here.
 */
ETW_EXPORT ULONG WMIAPI CloseTrace(PROCESSTRACE_HANDLE TraceHandle)
{
	struct etw_trace *t;

	pthread_mutex_lock(&table_lock);
	t = lookup(TraceHandle);
	if (!t) {
		pthread_mutex_unlock(&table_lock);
		return ret_error(ERROR_INVALID_HANDLE);
	}
	table[(TraceHandle & SLOT_MASK) - 1] = NULL;
	if (t->busy) {
		t->closed = true;
		atomic_store(t->stop, true);
		pthread_mutex_unlock(&table_lock);
		return ret_error(ERROR_CTX_CLOSE_PENDING);
	}
	pthread_mutex_unlock(&table_lock);
	trace_free(t);
	return ret_error(ERROR_SUCCESS);
}
