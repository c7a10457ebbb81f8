/* SPDX-License-Identifier: MIT */
/*
 * WPP decoding (etw_tmf.h): what the TMF parser, the store, the payload
 * decoder, the formatter and the TDH WPP functions share.
 *
 * A TMF text becomes a struct wpp_tmf: its GUID headers (friendly name,
 * SRC=, MJ=, MN=), its messages (#typev: name, number, format text,
 * LEVEL=/FLAGS=/FUNC= of the trailer, the arguments in payload order)
 * and its enumerations (#enumv, for ItemEnum).  Everything of one text
 * lives in one arena, freed with it.
 */
#ifndef LIBETW_DECODE_WPP_H
#define LIBETW_DECODE_WPP_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <etw_tmf.h>

/* How an item's bytes are laid out (wpp.md §1.4). */
enum wpp_kind {
	WPP_K_INT,		/* size bytes, little-endian */
	WPP_K_PTR,		/* the writer's pointer size */
	WPP_K_DOUBLE,
	WPP_K_STRING,		/* NUL-terminated 8-bit */
	WPP_K_WSTRING,		/* NUL-terminated UTF-16 */
	WPP_K_PSTRING,		/* USHORT length, then the bytes */
	WPP_K_PWSTRING,		/* USHORT byte length, then UTF-16 */
	WPP_K_GUID,
	WPP_K_NTSTATUS,
	WPP_K_WINERROR,
	WPP_K_HRESULT,
	WPP_K_IPADDR,		/* 4 bytes, network order */
	WPP_K_IPV6ADDR,		/* 16 bytes */
	WPP_K_PORT,		/* 2 bytes, network order */
	WPP_K_MACADDR,		/* 6 bytes */
	WPP_K_TIMESTAMP,	/* FILETIME */
	WPP_K_TIMEDELTA,	/* 100 ns units */
	WPP_K_WAITTIME,		/* < 0 relative, else absolute */
	WPP_K_LIST,		/* size bytes: index into the names */
	WPP_K_SET,		/* size bytes: bit i names names[i] */
	WPP_K_ENUM,		/* 4 bytes, an #enumv's names */
	WPP_K_SID,
	WPP_K_CHAR4,
	WPP_K_HEXDUMP,		/* USHORT length, then the bytes */
};

/* Integer renderings an item implies when its spec says nothing. */
#define WPP_F_SIGNED	0x01
#define WPP_F_HEX	0x02	/* 0x and lowercase hex */
#define WPP_F_HEX_UP	0x04	/* 0x and uppercase hex */
#define WPP_F_OCTAL	0x08
#define WPP_F_ARGS	0x10	/* takes (a,b,...) */

struct wpp_item {
	const char *name;		/* "ItemLong" */
	uint8_t kind;			/* enum wpp_kind */
	uint8_t size;			/* fixed size, 0 if none */
	uint8_t flags;			/* WPP_F_* */
};

/* The item type of that name (len bytes), or NULL (wpp_items.c). */
const struct wpp_item *wpp_item_find(const char *name, size_t len);

/* One argument of a message. */
struct wpp_arg {
	const char *expr;		/* the source expression */
	const struct wpp_item *item;
	uint32_t number;		/* %N that shows it */
	const char *const *names;	/* list and set items; enum: [0] */
	uint32_t name_count;
};

struct wpp_header {
	struct etw_etl_guid guid;
	const char *friendly;		/* "" if none */
	const char *src;
	const char *mj;
	const char *mn;
};

struct wpp_msg {
	const struct wpp_header *header;
	uint16_t number;
	const char *name;		/* "Driver_c62" */
	const char *format;		/* the text between the quotes */
	const char *level;		/* "" if the trailer has none */
	const char *flags;
	const char *func;
	const struct wpp_arg *args;
	uint32_t arg_count;
	unsigned long line;		/* of its #typev */
};

struct wpp_enum_entry {
	int64_t value;
	const char *name;
};

struct wpp_enum {
	const char *name;
	const struct wpp_enum_entry *entries;
	uint32_t count;
};

struct wpp_arena;

/* What one TMF text holds. */
struct wpp_tmf {
	struct wpp_arena *arena;
	struct wpp_header *headers;
	uint32_t header_count;
	struct wpp_msg *msgs;
	uint32_t msg_count;
	struct wpp_enum *enums;
	uint32_t enum_count;
};

/*
 * Parse a TMF text (wpp_tmf_parse.c).  0 and *out; -EBADMSG and *err
 * (name:line: why); -ENOMEM.
 */
int wpp_tmf_parse(const char *text, size_t len, const char *name,
		  struct wpp_tmf **out, struct etw_tmf_error *err);
void wpp_tmf_free(struct wpp_tmf *t);

/* ---- the store (wpp_store.c) ---- */

/* The message of guid and number, reading <guid>.tmf from its dirs. */
const struct wpp_msg *wpp_store_find(struct etw_tmf_store *s,
				     const struct etw_etl_guid *guid,
				     uint16_t number);
/* An #enumv by name, from any text of the store, or NULL. */
const struct wpp_enum *wpp_store_enum(struct etw_tmf_store *s,
				      const char *name);

/* ---- a record, whatever it came from ---- */

struct wpp_record {
	struct etw_etl_guid guid;	/* message GUID */
	uint16_t number;
	const void *data;		/* the arguments */
	uint32_t size;
	uint8_t pointer_size;		/* 4 or 8 */
	uint32_t cpu;
	uint32_t thread_id;
	uint32_t process_id;
	uint32_t sequence;
	uint64_t filetime;		/* UTC FILETIME, 0 if none */
	uint32_t kernel_time;
	uint32_t user_time;
};

/* ---- a growable string ---- */

struct wpp_buf {
	char *p;
	size_t len;
	size_t cap;
	bool oom;			/* an append failed */
};

void wb_reset(struct wpp_buf *b);
void wb_free(struct wpp_buf *b);
void wb_put(struct wpp_buf *b, const char *s, size_t n);
void wb_puts(struct wpp_buf *b, const char *s);
void wb_printf(struct wpp_buf *b, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void wb_vprintf(struct wpp_buf *b, const char *fmt, va_list ap)
	__attribute__((format(printf, 2, 0)));
/*
 * v in base (2..16), after '-' if neg, at least |width| characters: a
 * positive width pads on the left with pad ('0' after the sign, or ' '),
 * a negative one with blanks on the right.  printf's integer conversions
 * without its cost, on the formatter's hot path.
 */
void wb_num(struct wpp_buf *b, uint64_t v, bool neg, unsigned int base,
	    bool upper, int width, char pad);

/* ---- one argument's value (wpp_value.c) ---- */

/*
 * A printf / FormatMessage spec of %N!spec!: flags, width, precision,
 * MSVC's size prefixes (h l ll I I32 I64 w), conversion.
 */
struct wpp_spec {
	char flags[6];
	int width;			/* -1: none */
	int precision;			/* -1: none */
	char conv;			/* d i u x X o c s S p e f g ..., 0 none */
};

bool wpp_spec_parse(const char *s, size_t n, struct wpp_spec *sp);

/*
 * The bytes of arg at data[*off .. size): its text appended to out (by
 * spec, NULL for the item's default) and *off moved past it.  0; -EBADMSG
 * with a marker appended when the bytes are short or malformed (*off is
 * then size).  tz_gmt: times in UTC.
 */
int wpp_value(struct etw_tmf_store *s, const struct wpp_arg *arg,
	      const struct wpp_spec *spec, const uint8_t *data, uint32_t size,
	      uint32_t *off, unsigned int pointer_size, bool gmt,
	      struct wpp_buf *out);

/* The bytes arg takes at data[off ..], or -EBADMSG (wpp_value.c). */
int wpp_value_size(const struct wpp_arg *arg, const uint8_t *data,
		   uint32_t size, uint32_t off, unsigned int pointer_size);

/* A number or a text by a spec (NULL: decimal / as it is). */
void wpp_put_number(struct wpp_buf *out, const struct wpp_spec *sp,
		    uint64_t v);
void wpp_put_text(struct wpp_buf *out, const struct wpp_spec *sp,
		  const char *s);

/* A FILETIME as tracefmt's "MM/DD/YYYY-HH:MM:SS.mmm", local or UTC. */
void wpp_time_text(uint64_t filetime, bool gmt, struct wpp_buf *out);

/* ---- names of status codes (wpp_status_names.c) ---- */

const char *wpp_ntstatus_name(uint32_t code);
const char *wpp_win32_name(uint32_t code);
const char *wpp_hresult_name(uint32_t code);

/* ---- the formatter (wpp_format.c) ---- */

/* Format r with store s (the library's etw_wpp_format over a wpp_record). */
int wpp_format_record(struct etw_wpp_formatter *f, struct etw_tmf_store *s,
		      const struct wpp_record *r, struct etw_wpp_message *out);

#endif /* LIBETW_DECODE_WPP_H */
