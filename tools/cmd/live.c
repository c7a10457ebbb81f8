// SPDX-License-Identifier: GPL-2.0
/*
 * etw live: a real-time view of a session through libetw's consumer API,
 * as a Windows consumer does it: OpenTrace with PROCESS_TRACE_MODE_REAL_TIME,
 * ProcessTrace on this thread, and CloseTrace from another one when
 * Ctrl-C (SIGINT), SIGTERM or SIGHUP comes, so that the events already
 * taken are printed before it exits.  Each event is printed as etw dump
 * prints it.
 *
 * With -p and no session name it runs a real-time session of its own
 * (flushed every second), enables the providers in it and stops it at
 * the end.
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <windows.h>
#include <evntrace.h>
#include <evntcons.h>

#include "ctl.h"
#include "dump/dump.h"
#include "etw.h"

static const char live_usage[] =
	"usage: etw live [options] NAME\n"
	"       etw live [options] -p PROVIDER[:LEVEL[:KEYWORDS]]...\n\n"
	"Print the events of a real-time session as they come, in the manner of\n"
	"etw dump, until Ctrl-C or the session stops.  NAME is a running\n"
	"session in real-time mode (etw start --real-time).  With -p instead,\n"
	"a real-time session of its own is started, the providers are enabled\n"
	"in it, and it is stopped at the end.\n\n"
	"  -p, --provider P       a provider GUID or name, with an optional level\n"
	"                         and MatchAnyKeyword (repeat for more)\n"
	"  -f, --format FORMAT    text (default), csv, json or xml\n"
	"  -o, --output FILE      write to FILE instead of standard output\n"
	"  -h, --help             this text\n";

#define MAX_PROVIDERS	32
#define ITEMS_MAX	DUMP_ITEMS_MAX

struct live {
	struct dump d;
	struct dump_prep pp;
	struct etw_etl_ext_item items[ITEMS_MAX];
	uint64_t events;
	PROCESSTRACE_HANDLE h;
	pthread_t waiter;
	sigset_t signals;
	atomic_bool closed;		/* by a signal */
	int write_error;		/* errno of a failed write, which ends it */
	bool begun;			/* the output's start is written */
	const char *name;
	struct kv_list header;
};

/*
 * The start of the output (and the session's header), once the session
 * is known to run: a session that does not gets one error line only.
 */
static void begin_output(struct live *l)
{
	if (l->begun)
		return;
	l->begun = true;
	l->d.fmt->begin(&l->d);
	l->d.fmt->file_begin(&l->d, l->name, &l->header);
}

static VOID WINAPI on_event(PEVENT_RECORD r)
{
	struct live *l = r->UserContext;
	struct etw_etl_event ev;

	begin_output(l);
	dump_from_record(r, &ev, l->items, ITEMS_MAX);
	dump_prepare(&l->pp, &ev, l->events++, true);
	l->d.fmt->event(&l->d, &l->pp.e);
	/* The reader went away (| head): end, and stop our own session. */
	if ((fflush(l->d.out) || ferror(l->d.out)) && !l->write_error) {
		l->write_error = errno ? errno : EIO;
		CloseTrace(l->h);
	}
}

/* Ctrl-C and friends close the trace; SIGUSR1 only ends the wait. */
static void *wait_signal(void *arg)
{
	struct live *l = arg;
	int sig = 0;

	if (!sigwait(&l->signals, &sig) && sig != SIGUSR1) {
		atomic_store(&l->closed, true);
		CloseTrace(l->h);
	}
	return NULL;
}

/* The session's header, for the formats that print one. */
static void header_kvs(const TRACE_LOGFILE_HEADER *h, const char *name,
		       struct kv_list *kv)
{
	char time[40];

	kv_reset(kv);
	kv_add(kv, "logger_name", "Logger name", false, "%s", name);
	kv_add(kv, "log_file_mode", "Log file mode", false, "0x%08x",
	       h->LogFileMode);
	kv_add(kv, "buffer_size", "Buffer size", true, "%u", h->BufferSize);
	kv_add(kv, "number_of_processors", "Processors", true, "%u",
	       h->NumberOfProcessors);
	if (format_filetime(h->StartTime.QuadPart, time, sizeof(time)))
		kv_add(kv, "start_time", "Start time", false, "%s", time);
	kv_add(kv, "perf_freq", "Clock frequency (Hz)", true, "%" PRId64,
	       (int64_t)h->PerfFreq.QuadPart);
	kv_finish(kv);
}

/* Consume @name until it stops or a signal comes; a Win32 code. */
static ULONG consume(struct live *l, const char *name)
{
	EVENT_TRACE_LOGFILEA lf;
	ULONG err;

	memset(&lf, 0, sizeof(lf));
	lf.LoggerName = (LPSTR)name;
	lf.ProcessTraceMode = PROCESS_TRACE_MODE_REAL_TIME |
			      PROCESS_TRACE_MODE_EVENT_RECORD;
	lf.EventRecordCallback = on_event;
	lf.Context = l;
	l->h = OpenTraceA(&lf);
	if (l->h == INVALID_PROCESSTRACE_HANDLE)
		return GetLastError();
	if (pthread_create(&l->waiter, NULL, wait_signal, l)) {
		CloseTrace(l->h);
		return ERROR_NOT_ENOUGH_MEMORY;
	}
	l->name = name;
	l->d.path = name;
	header_kvs(&lf.LogfileHeader, name, &l->header);
	if (lf.LogfileHeader.BufferSize) {
		begin_output(l);
		fflush(l->d.out);
	}
	err = ProcessTrace(&l->h, 1, NULL, NULL);
	if (!err)
		begin_output(l);
	if (l->begun) {
		l->d.fmt->file_end(&l->d, NULL);
		l->d.fmt->end(&l->d);
	}
	kv_free(&l->header);
	pthread_kill(l->waiter, SIGUSR1);
	pthread_join(l->waiter, NULL);
	/* Closed by a signal: already; else now. */
	CloseTrace(l->h);
	/* A signal before ProcessTrace began closed the handle under it. */
	if (err == ERROR_INVALID_HANDLE && atomic_load(&l->closed))
		err = ERROR_SUCCESS;
	return err;
}

/* A real-time session of our own with @n providers; 0 or a Win32 code. */
static ULONG start_own(const char *name, const struct etw_enable *prov,
		       unsigned int n, CONTROLTRACE_ID *id)
{
	struct {
		EVENT_TRACE_PROPERTIES p;
		char names[ETW_MAX_NAME];
	} b;
	ULONG err;

	memset(&b, 0, sizeof(b));
	b.p.Wnode.BufferSize = sizeof(b);
	b.p.Wnode.Flags = WNODE_FLAG_TRACED_GUID;
	b.p.Wnode.ClientContext = 1;
	b.p.LogFileMode = EVENT_TRACE_REAL_TIME_MODE;
	b.p.FlushTimer = 1;
	b.p.LoggerNameOffset = sizeof(b.p);
	err = StartTraceA(id, name, &b.p);
	for (unsigned int i = 0; !err && i < n; i++) {
		GUID g;

		memcpy(&g, prov[i].guid, sizeof(g));
		err = EnableTraceEx2(*id, &g, EVENT_CONTROL_CODE_ENABLE_PROVIDER,
				     prov[i].level, prov[i].match_any, 0, 0, NULL);
	}
	return err;
}

static void stop_own(CONTROLTRACE_ID id)
{
	struct {
		EVENT_TRACE_PROPERTIES p;
		char names[ETW_MAX_NAME];
	} b;

	memset(&b, 0, sizeof(b));
	b.p.Wnode.BufferSize = sizeof(b);
	b.p.LoggerNameOffset = sizeof(b.p);
	ControlTraceA(id, NULL, &b.p, EVENT_TRACE_CONTROL_STOP);
}

struct options {
	const char *name;
	const char *output;
	const struct dump_format *fmt;
	struct etw_enable prov[MAX_PROVIDERS];
	unsigned int nprov;
};

/* -1 to go on, else the exit status. */
static int parse(int argc, char **argv, struct options *o)
{
	static const struct option opts[] = {
		{ "provider", required_argument, NULL, 'p' },
		{ "format", required_argument, NULL, 'f' },
		{ "output", required_argument, NULL, 'o' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	int c;

	while ((c = getopt_long(argc, argv, "p:f:o:h", opts, NULL)) != -1) {
		switch (c) {
		case 'h':
			fputs(live_usage, stdout);
			return 0;
		case 'p':
			if (o->nprov == MAX_PROVIDERS)
				return etw_error("live: at most %d providers", MAX_PROVIDERS);
			memset(&o->prov[o->nprov], 0, sizeof(o->prov[0]));
			if (ctl_parse_provider_spec(optarg, &o->prov[o->nprov]))
				return etw_error("live: bad provider '%s' (GUID-or-NAME[:LEVEL[:KEYWORDS]])",
						 optarg);
			o->nprov++;
			break;
		case 'f':
			o->fmt = dump_find_format(optarg);
			if (!o->fmt)
				return etw_error("live: unknown format '%s' (text, csv, json, xml)",
						 optarg);
			break;
		case 'o':
			o->output = optarg;
			break;
		default:
			return 2;
		}
	}
	if (optind < argc)
		o->name = argv[optind++];
	if (optind != argc || !o->name == !o->nprov) {
		fputs(live_usage, stderr);
		return 2;
	}
	return -1;
}

int cmd_live(int argc, char **argv)
{
	static struct live l;
	struct options o = { .fmt = &dump_text };
	CONTROLTRACE_ID own = 0;
	char own_name[64];
	ULONG err;
	int ret;

	ret = parse(argc, argv, &o);
	if (ret >= 0)
		return ret;
	l.d.out = stdout;
	if (o.output && !(l.d.out = fopen(o.output, "w")))
		return etw_error("live: cannot create %s: %s", o.output,
				 strerror(errno));
	l.d.fmt = o.fmt;
	/* Block the signals before any thread exists; the waiter takes them. */
	sigemptyset(&l.signals);
	sigaddset(&l.signals, SIGINT);
	sigaddset(&l.signals, SIGTERM);
	sigaddset(&l.signals, SIGHUP);
	sigaddset(&l.signals, SIGUSR1);
	pthread_sigmask(SIG_BLOCK, &l.signals, NULL);
	/* A closed pipe is a write error, handled like Ctrl-C. */
	signal(SIGPIPE, SIG_IGN);

	if (!o.name) {
		snprintf(own_name, sizeof(own_name), "etw-live-%d", (int)getpid());
		o.name = own_name;
		err = start_own(own_name, o.prov, o.nprov, &own);
		if (err) {
			if (own)
				stop_own(own);
			if (err == ERROR_NOT_SUPPORTED && ctl_module_missing())
				return ctl_no_module("live");
			return ctl_fail_win32("live", own_name, err, NULL);
		}
	}
	err = consume(&l, o.name);
	if (own)
		stop_own(own);
	dump_prep_free(&l.pp);
	kv_free(&l.d.kvs);
	sb_free(&l.d.sb);
	if (l.write_error == EPIPE)
		return 0;
	if (!l.write_error && (fflush(l.d.out) || (l.d.out != stdout && fclose(l.d.out))))
		l.write_error = errno;
	if (l.write_error)
		return etw_error("live: write error: %s", strerror(l.write_error));
	if (err == ERROR_WMI_INSTANCE_NOT_FOUND)
		return ctl_fail_win32("live", o.name, err,
				      "no such session in real-time mode (etw start --real-time)");
	if (err)
		return ctl_fail_win32("live", o.name, err, NULL);
	fprintf(stderr, "etw: live: %" PRIu64 " event%s\n", l.events,
		l.events == 1 ? "" : "s");
	return 0;
}
