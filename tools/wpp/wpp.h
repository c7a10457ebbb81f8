/* SPDX-License-Identifier: GPL-2.0 */
/*
 * etw wpp: the software trace preprocessor.  A run reads the configuration
 * (the built-in default or -cfgdir:'s defaultwpp.ini, then -scan: files'
 * and each source's begin_wpp config blocks, then -func:), scans each
 * source for calls of the configured trace functions and writes its .tmh
 * and its <message-guid>.tmf.
 */
#ifndef ETW_WPP_H
#define ETW_WPP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* A growing string. */
struct wpp_buf {
	char *s;
	size_t len, cap;
};

void wpp_buf_add(struct wpp_buf *b, const char *s, size_t n);
void wpp_buf_puts(struct wpp_buf *b, const char *s);
void wpp_buf_printf(struct wpp_buf *b, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void wpp_buf_free(struct wpp_buf *b);

/* Where a statement or call is: for "file:line: message" errors. */
struct wpp_pos {
	const char *file;
	int line;
};

/* Print "etw wpp: FILE:LINE: message" to stderr; returns -1. */
int wpp_error(const struct wpp_pos *pos, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/*
 * A format type (DEFINE_SIMPLE_TYPE, DEFINE_FLAVOR, DEFINE_CPLX_TYPE,
 * CUSTOM_TYPE): how an argument of %NAME or %!NAME! is passed, logged and
 * described in the TMF.
 */
enum wpp_type_kind {
	WPP_TYPE_CONST,		/* no argument: text put into the format */
	WPP_TYPE_VALUE,		/* logged by value: sizeof(ctype) bytes */
	WPP_TYPE_POINTER,	/* logged through a pointer: sizeof(*arg) */
	WPP_TYPE_COMPLEX,	/* logged by a macro giving the pairs */
};

struct wpp_type {
	char *name;		/* "d", "I64x", "STATUS", "bool" */
	enum wpp_type_kind kind;
	char *ctype;		/* of the argument: "int", "LPCGUID" */
	char *item;		/* TMF item: "ItemLong", "ItemListLong(false,true)" */
	char *format;		/* TMF format spec, or the constant's text */
	char *macro;		/* WPP_LOGASTR for a complex type */
	char *sig;		/* its letters in WPP_SF_<signature> */
	char *enum_name;	/* ItemEnum(NAME) */
};

/* A trace function (FUNC Name{K=V,...}(params)). */
struct wpp_func {
	char *name;
	int nfixed;		/* {K=V} conditions, in their order */
	char **fixed_names, **fixed_values;
	int nparams;		/* the parameters before and after MSG */
	char **params;
	int msg;		/* index of MSG in params, -1: none */
	bool varargs;		/* MSG, ... */
	struct wpp_pos pos;
};

/* USEPREFIX(func, "text") and USESUFFIX(func, "text", args...). */
struct wpp_fix {
	char *func;		/* "*": every function without its own */
	char *text;
	int nargs;
	char **args;
	struct wpp_pos pos;
};

/* An enum a CUSTOM_TYPE(x, ItemEnum(NAME)) names, as scanned. */
struct wpp_enum {
	char *name;
	int count;
	char **names;
	int64_t *values;
	struct wpp_pos pos;
	int bad_line;		/* an enumerator not evaluated, 0: none */
};

struct wpp_config {
	struct wpp_type *types;
	int ntypes;
	struct wpp_func *funcs;
	int nfuncs;
	struct wpp_fix *prefixes, *suffixes;
	int nprefixes, nsuffixes;
	struct wpp_enum *enums;
	int nenums;
	/* WPP_FLAGS(...) and the command line. */
	bool km, dll;
};

/* Parse configuration statements (defaultwpp.ini grammar); 0 or -1. */
int wpp_config_parse(struct wpp_config *cfg, const char *text, const char *file,
		     int first_line);
/* One -func: option's text ("Name(LEVEL,MSG,...)"). */
int wpp_config_func(struct wpp_config *cfg, const char *text, const struct wpp_pos *pos);
/* The built-in default configuration. */
extern const char wpp_default_config[];
void wpp_config_free(struct wpp_config *cfg);

struct wpp_type *wpp_type_find(const struct wpp_config *cfg, const char *name);
struct wpp_func *wpp_func_find(const struct wpp_config *cfg, const char *name);
struct wpp_enum *wpp_enum_find(const struct wpp_config *cfg, const char *name);
/* The USEPREFIX or USESUFFIX that applies to func, NULL if none. */
const struct wpp_fix *wpp_fix_find(const struct wpp_fix *fix, int n, const char *func);
/* A quoted string argument's text (adjacent literals joined), NULL if not one. */
char *wpp_unquote(const char *arg);
/* The statements that make types (DEFINE_*, CUSTOM_TYPE). */
int wpp_type_statement(struct wpp_config *cfg, const char *stmt, char **args, int nargs,
		       const struct wpp_pos *pos);

/* One argument of a message: its source text and its type. */
struct wpp_arg {
	char *expr;		/* as written at the call */
	char *param;		/* its parameter in the call-site macro */
	const struct wpp_type *type;
};

/* One call of a trace function. */
struct wpp_msg {
	const struct wpp_func *func;
	struct wpp_pos pos;
	char *function;		/* the C function it is in, "" if unknown */
	int nvals;		/* the call's arguments, as written */
	char **vals;
	char *text;		/* the TMF format text */
	int nargs;		/* the logged arguments (%10, %11, ...) */
	struct wpp_arg *args;
	int number;		/* message number, from 10 */
};

/* A scanned source. */
struct wpp_source {
	const char *path;
	char *base;		/* "tracedrv.c" */
	char *canon;		/* "tracedrv_c": an identifier */
	char *msgname;		/* "tracedrv_c": message names' stem */
	struct wpp_msg *msgs;
	int nmsgs;
	uint8_t guid[16];
};

/*
 * Scan a file: its config blocks and enums into cfg, or, with msgs, the
 * calls of cfg's functions into src.  A source is scanned both ways (its
 * configuration first), a -scan: file the first way only.
 */
int wpp_scan(struct wpp_config *cfg, const char *path, const char *text,
	     struct wpp_source *src, bool msgs);
/* Turn a call's message and arguments into TMF text and logged arguments. */
int wpp_format_msg(const struct wpp_config *cfg, struct wpp_source *src, struct wpp_msg *m);
void wpp_source_free(struct wpp_source *src);

/* The source's TMF text (its GUID set first, from the same text). */
struct wpp_tmf_opts {
	const char *friendly;	/* -p: */
	const char *major, *minor;	/* MJ=, MN= */
};
void wpp_tmf_text(struct wpp_source *src, const struct wpp_config *cfg,
		  const struct wpp_tmf_opts *o, struct wpp_buf *out);
void wpp_guid_str(const uint8_t g[16], char out[37]);

/* The .tmh. */
struct wpp_tmh_opts {
	const char *ctl_guid;	/* -ctl: as "l,w1,w2,w3,ll", or NULL */
	bool dll;
	int ndefines;		/* -D */
	char **defines;
};
void wpp_tmh_text(const struct wpp_source *src, const struct wpp_config *cfg,
		  const char *tmf, const struct wpp_tmh_opts *o, struct wpp_buf *out);

char *wpp_strdup(const char *s);
char *wpp_strndup(const char *s, size_t n);

#endif /* ETW_WPP_H */
