/* SPDX-License-Identifier: GPL-2.0 */
/*
 * etw dump: what the subcommand's files share.  cmd/dump.c reads the files
 * and turns each record into a struct dump_event of ready-made strings;
 * dump_<format>.c only lays them out.
 */
#ifndef ETW_DUMP_H
#define ETW_DUMP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <etw_etl.h>
#include <etw_decode.h>
#include <etw_tmf.h>

/* A growable string; all strings it holds are NUL-terminated. */
struct sbuf {
	char *p;
	size_t len;
	size_t cap;
};

void sb_reset(struct sbuf *sb);
/* Room for more bytes (and a NUL) at sb->p + sb->len. */
void sb_reserve(struct sbuf *sb, size_t more);
void sb_free(struct sbuf *sb);
void sb_putc(struct sbuf *sb, char c);
void sb_put(struct sbuf *sb, const char *s, size_t n);
void sb_printf(struct sbuf *sb, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void sb_hex(struct sbuf *sb, const void *data, size_t n);
void sb_write_hex(struct sbuf *sb, FILE *out, const char *prefix,
		  const void *data, size_t n, const char *suffix);

/*
 * A named value.  Values are UTF-8 (formats repair what is not); number
 * says JSON may write it unquoted.
 */
struct dump_kv {
	const char *key;		/* machine name: logger_name */
	const char *label;		/* human name: "Logger name", or NULL */
	const char *value;
	bool number;
};

/*
 * A list of them.  kv_add() copies key and value into text; the pointers
 * of v are set by kv_finish(), when text no longer moves.
 */
struct kv_list {
	struct dump_kv *v;
	size_t n;
	size_t cap;
	struct sbuf text;
	size_t *offs;			/* key and value of each, in text */
};

void kv_reset(struct kv_list *l);
void kv_free(struct kv_list *l);
void kv_add(struct kv_list *l, const char *key, const char *label,
	    bool number, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));
void kv_finish(struct kv_list *l);

/* One record, rendered. */
struct dump_event {
	const struct etw_etl_event *ev;
	uint64_t index;
	char kind[40];			/* "EVENT_HEADER64" */
	char provider[ETW_ETL_GUID_STRLEN];	/* "" if none */
	const char *provider_name;	/* or NULL */
	const char *event_name;		/* or NULL */
	const char *process_name;	/* of its process, or NULL */
	uint32_t payload_pid;		/* its pid, when only the payload has it */
	char time[40];			/* ISO 8601 UTC, "" if unknown */
	struct kv_list ext;		/* key: type name */
	/* Decoded by libetw: its fields come first, then those of fields. */
	const struct etw_decoded_event *dec;
	struct kv_list fields;		/* decoded payload */
	bool decoded;			/* fields hold the whole payload */
	/* Manifest events: level, task, ... names and message; or why raw. */
	struct kv_list rendering;
	const char *warning;		/* or NULL */
	/* WPP records with TMFs at hand: tracefmt's line and the result. */
	const char *wpp_line;		/* or NULL */
	int wpp_ret;			/* of etw_wpp_format() */
};

/*
 * The TMF files of a run (dump/wpp.c) and tracefmt's counts: format
 * errors (data that does not match its TMF) and unknowns (no TMF).
 */
struct dump_wpp {
	struct etw_tmf_store *store;
	struct etw_wpp_formatter *fmt;
	struct etw_wpp_message m;
	bool gmt;			/* times in UTC */
	uint64_t format_errors;
	uint64_t unknowns;
};

int dump_wpp_new(struct dump_wpp **w, const struct etw_wpp_options *o);
void dump_wpp_free(struct dump_wpp *w);

/* A record being rendered, reused from record to record. */
struct dump_prep {
	struct dump_event e;
	struct sbuf provider_name;
	struct sbuf event_name;
	struct sbuf tmp;
	/* libetw's decoder (etw_decode.h) and its result for the record. */
	struct etw_decoder *decoder;
	struct etw_decoded_event dec;
	int dec_ret;			/* of etw_decode_etl_event() */
	struct dump_procs *procs;	/* names processes, or NULL */
	struct dump_wpp *wpp;		/* formats WPP records, or NULL */
	struct sbuf warning;		/* and the message (dump/rendering.c) */
	/* The last provider's GUID as text and its kernel group name. */
	bool last_valid;
	struct etw_etl_guid last_provider;
	char last_text[ETW_ETL_GUID_STRLEN];
	const char *last_name;
};

/*
 * Decode ev with libetw's decoder into pp->dec (dump/decode.c): the
 * event's names, and with full pp->e.dec (and bytes no field covers in
 * pp->e.fields).  Returns true if they hold the whole payload.
 */
bool dump_decode(struct dump_prep *pp, const struct etw_etl_event *ev,
		 bool full);

/*
 * The rendering of a decoded manifest event (names, message with its
 * inserts) into pp->e.rendering, or the warning for a manifest event shown
 * raw into pp->e.warning (dump/rendering.c); dump_message() fills a
 * message's %1..%n with the decoded fields.
 */
void dump_rendering(struct dump_prep *pp, const struct etw_etl_event *ev);
void dump_message(struct sbuf *sb, const char *msg,
		  const struct etw_decoded_event *dec);

/* A WPP record's fields, names and message from its TMF (dump/wpp.c). */
void dump_wpp_prepare(struct dump_prep *pp, const struct etw_etl_event *ev);

/* Everything the formats print into pp->e; with !full only the names. */
void dump_prepare(struct dump_prep *pp, const struct etw_etl_event *ev,
		  uint64_t index, bool full);
void dump_prep_free(struct dump_prep *pp);

/*
 * An event as ProcessTrace delivers it, as the reader would have parsed
 * it from a file (for etw live and etw eventlog); items gets at most
 * nitems of its extended data items (DUMP_ITEMS_MAX: all a record holds).
 */
struct _EVENT_RECORD;
#define DUMP_ITEMS_MAX	(0x10000 / 8)
void dump_from_record(const struct _EVENT_RECORD *r, struct etw_etl_event *ev,
		      struct etw_etl_ext_item *items, size_t nitems);

/* "text", "csv", "json", "xml"; NULL if unknown. */
const struct dump_format *dump_find_format(const char *name);

/* Counts of one file, for --summary. */
struct dump_count {
	char provider[ETW_ETL_GUID_STRLEN];
	const char *provider_name;
	uint32_t id;
	uint32_t opcode;
	const char *event_name;
	uint64_t count;
};

/* A process of --summary's table, from the Process and Thread events. */
struct dump_process {
	uint32_t pid;
	uint32_t parent;
	const char *image;		/* ImageFileName, or "" */
	const char *command_line;	/* or "" */
	char start[40];			/* ISO 8601, "" if before the trace */
	char end[40];			/* "" if still running at its end */
	uint64_t events;		/* records of the process */
	uint64_t threads;		/* threads seen */
};

/*
 * The processes of a file (dump/procs.c), fed every record in time
 * order: Process events start and end them, every record with a process
 * id (the header's, else the payload's ProcessId) counts to one.
 */
struct dump_procs;
struct dump_procs *procs_new(void);
void procs_add(struct dump_procs *p, const struct dump_event *e,
	       const struct etw_decoded_event *dec, int dec_ret);
/*
 * The image name of the process a record belongs to, or NULL: the
 * header's process id, else (PERFINFO records) the decoded payload's
 * ProcessId or StackProcess, which *pid is then set to.
 */
const char *procs_name(struct dump_procs *p, const struct etw_etl_event *ev,
		       const struct etw_decoded_event *dec, int dec_ret,
		       uint32_t *pid);
/* The table, in order of first appearance; valid until procs_free(). */
const struct dump_process *procs_table(struct dump_procs *p, size_t *n);
void procs_free(struct dump_procs *p);

struct dump_summary {
	uint64_t records;
	uint64_t header_records;
	const struct dump_process *processes;
	size_t nprocesses;
	struct dump_count *providers;	/* sorted, most frequent first */
	size_t nproviders;
	struct dump_count *events;
	size_t nevents;
};

struct dump;

struct dump_format {
	const char *name;
	void (*begin)(struct dump *d);
	void (*file_begin)(struct dump *d, const char *path,
			   const struct kv_list *header);
	void (*event)(struct dump *d, const struct dump_event *e);
	void (*summary)(struct dump *d, const struct dump_summary *s);
	void (*file_end)(struct dump *d, const struct etw_etl_error *err);
	void (*end)(struct dump *d);
};

struct dump {
	FILE *out;
	const struct dump_format *fmt;
	bool summary;
	unsigned int files;		/* begun so far */
	uint64_t events;		/* written in this file */
	bool in_events;			/* the file's event list is open */
	const char *path;
	const struct etw_etl_header *header;	/* of the file being read */
	struct dump_wpp *wpp;		/* TMF files, or NULL */
	struct kv_list kvs;		/* scratch for the formats */
	struct sbuf sb;			/* and another */
};

/* The event's fixed fields, for the formats that print them by name. */
void event_kvs(const struct dump_event *e, struct kv_list *l);

/* Hex and ASCII, 16 bytes a line, each line starting with indent. */
void hexdump(FILE *out, const void *data, size_t n, const char *indent);

extern const struct dump_format dump_text, dump_csv, dump_json, dump_xml,
	dump_tracefmt;

/* Escapers: each writes s (UTF-8, repaired) for its format. */
void put_json_string(FILE *out, const char *s);
void put_xml_text(FILE *out, const char *s);
void put_text(FILE *out, const char *s);
void put_csv_field(FILE *out, const char *s);

/* FILETIME as "2020-02-17T12:48:30.4203140Z"; false if out of range. */
bool format_filetime(uint64_t ft, char *buf, size_t size);

/* The header of a file as key/value pairs. */
void dump_header_kvs(const struct etw_etl_header *h, struct kv_list *l);

/*
 * TraceLogging: provider name from a PROV_TRAITS item, event name and
 * fields from EVENT_SCHEMA_TL.  tl_decode() returns false (fields left
 * partial) if the payload does not match the schema.
 */
const char *tl_provider_name(const struct etw_etl_ext_item *x, struct sbuf *sb);
const char *tl_event_name(const struct etw_etl_ext_item *x, struct sbuf *sb);
bool tl_decode(const struct etw_etl_event *ev,
	       const struct etw_etl_ext_item *schema, struct kv_list *fields);

/* An extended item's data as text. */
void ext_value(const struct etw_etl_ext_item *x, struct sbuf *sb);

/* Summary counts. */
struct dump_counter;
struct dump_counter *counter_new(void);
void counter_add(struct dump_counter *c, const struct dump_event *e);
void counter_result(struct dump_counter *c, struct dump_summary *s);
void counter_free(struct dump_counter *c);

#endif /* ETW_DUMP_H */
