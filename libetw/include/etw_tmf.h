/* SPDX-License-Identifier: MIT */
/*
 * etw_tmf.h: WPP (TraceMessage) records as Windows' tracefmt shows them.
 *
 * A WPP record carries a message GUID, a message number and the
 * arguments' bytes; what they mean is in a trace message format (TMF)
 * file, <message-guid>.tmf, in Windows' TMF grammar.  A TMF store finds
 * them: TMF files named one by one, directories of <guid>.tmf files
 * (read when a GUID is first asked for), the directories of a
 * TRACE_FORMAT_SEARCH_PATH-style list, and the TMF texts programs carry
 * in their ETL_WPP_TMF_SECTION ELF section (etw wpp puts them there).
 *
 * A formatter turns a record and its TMF into tracefmt's line
 * ("[CPU]PID.TID::time [FriendlyName]message" with the default prefix),
 * the message alone, and each argument as a named value.
 *
 * A store is safe to use from several threads; a formatter belongs to one
 * thread, and what it returns is valid until its next call.
 */
#ifndef LIBETW_ETW_TMF_H
#define LIBETW_ETW_TMF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "etw_etl.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The ELF section holding TMF texts, each ended by one NUL byte. */
#define ETW_WPP_TMF_SECTION	".etw.tmf"

/* tracefmt's default prefix: "[CPU]PID.TID::time [FriendlyName]". */
#define ETW_WPP_DEFAULT_PREFIX	"[%9!d!]%8!04X!.%3!04X!::%4!s! [%1!s!]"

/* Where a TMF text is wrong: file (or the name given), line, why. */
struct etw_tmf_error {
	char file[256];
	unsigned long line;		/* 0: not a line's fault */
	char message[256];
};

struct etw_tmf_store;

/* 0, or -ENOMEM. */
int etw_tmf_store_new(struct etw_tmf_store **store);
void etw_tmf_store_free(struct etw_tmf_store *store);

/*
 * Add what a TMF text describes (len bytes, no NUL needed; name is what
 * errors call it).  0; -EBADMSG with *err (file:line) for a syntax error,
 * nothing of the text added; -ENOMEM.
 */
int etw_tmf_store_add_text(struct etw_tmf_store *store, const char *text,
			   size_t len, const char *name,
			   struct etw_tmf_error *err);
/* One TMF file: as above, or -errno of reading it. */
int etw_tmf_store_add_file(struct etw_tmf_store *store, const char *path,
			   struct etw_tmf_error *err);
/*
 * A directory: <guid>.tmf is read from it the first time a record of that
 * GUID is formatted.  -ENOTDIR / -ENOENT if it is not one.
 */
int etw_tmf_store_add_dir(struct etw_tmf_store *store, const char *path);
/*
 * The directories of a search path as TRACE_FORMAT_SEARCH_PATH holds it
 * (separated by ';', or ':' as Linux paths are); empty entries and
 * entries that are no directory are skipped.  0 or -ENOMEM.
 */
int etw_tmf_store_add_search_path(struct etw_tmf_store *store,
				  const char *list);
/*
 * Every TMF text of a program's ETW_WPP_TMF_SECTION.  -ENOEXEC if it is
 * not ELF, -ENOENT if it has no such section, -EBADMSG with *err.
 */
int etw_tmf_store_add_binary(struct etw_tmf_store *store, const char *path,
			     struct etw_tmf_error *err);
/* Messages the store holds (texts added and files read so far). */
size_t etw_tmf_store_count(struct etw_tmf_store *store);

/*
 * The TMF texts of a program's ETW_WPP_TMF_SECTION, each handed to fn
 * with its message GUID (what `etw wpp extract` writes as <guid>.tmf).
 * Returns 0, what fn returned if not 0, -ENOEXEC, -ENOENT (no section),
 * -EBADMSG with *err for a text without a GUID, -errno.
 */
int etw_tmf_binary_texts(const char *path,
			 int (*fn)(void *ctx, const struct etw_etl_guid *guid,
				   const char *text, size_t len),
			 void *ctx, struct etw_tmf_error *err);

struct etw_wpp_formatter;

/* Options of a formatter; zeroed is tracefmt's default. */
struct etw_wpp_options {
	const char *prefix;		/* NULL: ETW_WPP_DEFAULT_PREFIX */
	bool gmt;			/* times in UTC, else local time */
	bool no_prefix;			/* the message alone in line */
	uint8_t pointer_size;		/* 4 or 8 overrides the record's */
};

/* 0, or -ENOMEM.  options may be NULL; they are copied. */
int etw_wpp_formatter_new(struct etw_wpp_formatter **f,
			  const struct etw_wpp_options *options);
void etw_wpp_formatter_free(struct etw_wpp_formatter *f);

/* An argument: its expression in the source, its TMF item and text. */
struct etw_wpp_arg {
	const char *name;		/* "status", "Device->Name" */
	const char *item;		/* "ItemNTSTATUS" */
	const char *value;		/* as the message shows it */
	bool number;			/* a plain decimal number */
};

/* A WPP record, formatted. */
struct etw_wpp_message {
	const char *line;		/* prefix and message, as tracefmt */
	const char *text;		/* the message alone */
	const char *guid_name;		/* the friendly name (%1) */
	const char *message_name;	/* "Driver_c62" (%2) */
	const char *file;		/* SRC= of the TMF header */
	const char *function;		/* FUNC= */
	const char *level;		/* LEVEL= */
	const char *flags;		/* FLAGS= */
	const char *component;		/* MJ= */
	const char *subcomponent;	/* MN= */
	const struct etw_wpp_arg *args;
	uint32_t arg_count;
};

/*
 * Format a WPP record (kind ETW_ETL_KIND_MESSAGE).  0 and *out; -ENOENT
 * when no TMF knows its GUID and number (out->line is tracefmt's "No
 * Format Information found." line), -EBADMSG when its bytes do not match
 * the TMF (out holds the message with what was decoded and a marker where
 * the bytes ran out or were wrong), -EINVAL for a record that is not
 * WPP, -ENOMEM.
 */
int etw_wpp_format(struct etw_wpp_formatter *f, struct etw_tmf_store *store,
		   const struct etw_etl_event *ev, struct etw_wpp_message *out);

/*
 * A FILETIME as tracefmt shows times, "MM/DD/YYYY-HH:MM:SS.mmm", in UTC
 * or the local time zone, at buf (ETW_WPP_TIME_STRLEN bytes suffice).
 */
#define ETW_WPP_TIME_STRLEN	32
void etw_wpp_format_time(uint64_t filetime, bool gmt, char *buf, size_t size);

#ifdef __cplusplus
}
#endif

#endif /* LIBETW_ETW_TMF_H */
