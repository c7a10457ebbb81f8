/* SPDX-License-Identifier: GPL-2.0 */
/*
 * etw export: kernel-logger and user traces written in the formats of
 * viewers (Documentation/viewers.rst).  export/read.c reads the files in
 * time order through the trace model (model/), whose samples (and
 * CSwitches) get their stacks as etw report's do, filters by process and
 * time, and hands what it found to a format's callbacks:
 * export/speedscope.c (JSON) or export/perfetto.c (protobuf).
 */
#ifndef ETW_EXPORT_H
#define ETW_EXPORT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include <etw_etl.h>

#include "dump/dump.h"
#include "model/sched.h"
#include "model/stack.h"

#define EXPORT_MAX_FILTERS	64

struct export_options {
	const char *format;
	const char *output;
	uint32_t pids[EXPORT_MAX_FILTERS];	/* --pid */
	unsigned int npids;
	const char *names[EXPORT_MAX_FILTERS];	/* --process */
	unsigned int nnames;
	int64_t start_ns;		/* --start, from the first file's start */
	int64_t end_ns;			/* --end; INT64_MAX: none */
	struct stack_options stack;
};

/* A user event (manifest, TraceLogging, classic, WPP), decoded. */
struct export_event {
	int64_t ns;
	uint16_t cpu;
	uint32_t pid;
	uint32_t tid;
	const char *provider;		/* name, else the GUID */
	const char *name;		/* event name, or NULL */
	uint8_t opcode;			/* 1: win:Start, 2: win:Stop */
	const struct etw_etl_guid *activity;	/* NULL: none */
	const struct etw_etl_guid *related;	/* related activity, or NULL */
	/* The decoded fields: name, value, and whether value is a number. */
	const struct dump_kv *args;
	size_t nargs;
};

/* A CPU sample, its stack one of the model's (export/stacks.h). */
struct export_sample {
	int64_t ns;
	uint16_t cpu;
	uint32_t pid;			/* UINT32_MAX: unknown */
	uint32_t tid;
	uint32_t stack;			/* in export.samples */
};

/* A context switch, with the stack of the thread switched out, if any. */
struct export_cswitch {
	int64_t ns;
	uint16_t cpu;
	const struct rec_cswitch *rec;
	uint32_t old_pid, new_pid;	/* UINT32_MAX: unknown */
	uint32_t stack;			/* in export.samples; 0: none */
};

struct export_ready {
	int64_t ns;
	uint16_t cpu;
	const struct rec_ready_thread *rec;
	uint32_t waker_tid;		/* running on cpu then; UINT32_MAX: unknown */
};

struct export_disk {
	int64_t start_ns;		/* completion less the response time */
	int64_t end_ns;
	const struct rec_disk_io *rec;
	uint32_t pid;			/* of the issuing thread, or UINT32_MAX */
	bool write;
};

struct export_format;

/* What a format sees of the reading. */
struct export {
	const struct export_options *opt;
	struct stack_model *model;
	/* The samples and stacks of the file being read, once it is read. */
	const struct stack_samples *samples;
	FILE *out;
	unsigned int file;		/* index of the file being read */
	int64_t epoch_ns;		/* the first file's start, Unix time */
	uint64_t records;		/* read so far, all files */
	void *fmt_state;
};

struct export_format {
	const char *name;
	int (*begin)(struct export *x);
	void (*file_begin)(struct export *x);
	void (*thread_name)(struct export *x, uint32_t pid, uint32_t tid,
			    const char *name);
	void (*sample)(struct export *x, const struct export_sample *s);
	void (*cswitch)(struct export *x, const struct export_cswitch *c);
	void (*ready)(struct export *x, const struct export_ready *r);
	void (*disk)(struct export *x, const struct export_disk *d);
	void (*event)(struct export *x, const struct export_event *e);
	/* After the last file: write what was kept; 0 or exit status. */
	int (*end)(struct export *x);
	void (*free)(struct export *x);
};

extern const struct export_format export_speedscope, export_perfetto;

/* Read every file into @fmt; returns the exit status. */
int export_run(const struct export_options *o, const struct export_format *fmt,
	       char **files, int nfiles, FILE *out);

/* Does the process pass --pid/--process?  (pid UINT32_MAX: unknown.) */
bool export_wants_pid(const struct export *x, uint32_t pid);

/* A process's label: "name (pid)", "Idle (0)", "Process(pid)". */
void export_process_label(const struct export *x, uint32_t pid, struct sbuf *sb);

/* A thread's name from Thread/SetName, or "". */
const char *export_thread_name(const struct export *x, uint32_t tid);

/*
 * A frame's name as etw report names it (model/: "function",
 * "module+0xoff" or "0xaddr"), in @sb (reset first).
 */
void export_frame_name(struct export *x, uint32_t pid, uint64_t addr,
		       struct sbuf *sb);

#endif /* ETW_EXPORT_H */
