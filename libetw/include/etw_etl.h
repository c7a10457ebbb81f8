/* SPDX-License-Identifier: MIT */
/*
 * libetw ETL reader: the trace files of ETW (Windows' .etl format, as
 * written by Windows and by etw for Linux), read without Windows headers.
 *
 * An ETL file is a sequence of buffers.  Buffer 0 holds the header event
 * (TRACE_LOGFILE_HEADER); every other buffer holds the records of one
 * processor.  The reader maps the file, checks every buffer header when it
 * opens it and every record when it reaches it: no length or offset in the
 * file is trusted, and a corrupt file gives an error that names the file
 * offset of the problem.
 *
 * Functions return 0 on success and a negative errno on failure, except
 * etw_etl_next() (1, 0 at the end, or -errno).  Data errors are -EBADMSG
 * (corrupt or truncated file, or compressed data that does not
 * decompress) and -EOPNOTSUPP (a compression format other than XPRESS).
 *
 * Compressed buffers (relogged files, EVENT_TRACE_COMPRESSED_MODE) are
 * decompressed once each, when iteration reaches them, into a scratch
 * area of the reader; the records of uncompressed buffers point into the
 * file's mapping.
 *
 * A reader is not thread safe: use one per thread.  The file is mapped
 * read-only (a pipe is read into memory): a file truncated by another
 * process while it is open can raise SIGBUS, as with any mapping.
 *
 * SavedOffset is the end of a buffer's data, except in buffer 0 when
 * Offset (at 0x30) is larger: the relogger writes one more record there.
 */
#ifndef LIBETW_ETW_ETL_H
#define LIBETW_ETW_ETL_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

struct etw_etl;

/* A GUID in Windows' layout (the same as GUID in guiddef.h). */
struct etw_etl_guid {
	uint32_t data1;
	uint16_t data2;
	uint16_t data3;
	uint8_t data4[8];
};

/* "xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx" and its NUL. */
#define ETW_ETL_GUID_STRLEN	37

#define ETW_ETL_NO_OFFSET	UINT64_MAX

/* What went wrong, and where: message is "<what> at offset 0x..: <why>". */
struct etw_etl_error {
	int code;			/* negative errno; 0: no error */
	uint64_t offset;		/* file offset, or ETW_ETL_NO_OFFSET */
	char message[256];
};

/* SYSTEMTIME: a date, or a yearly rule when year is 0. */
struct etw_etl_systemtime {
	uint16_t year;
	uint16_t month;
	uint16_t day_of_week;
	uint16_t day;
	uint16_t hour;
	uint16_t minute;
	uint16_t second;
	uint16_t milliseconds;
};

/* TIME_ZONE_INFORMATION of the machine that wrote the file, names in UTF-8. */
struct etw_etl_time_zone {
	int32_t bias;			/* minutes; UTC = local time + bias */
	char standard_name[100];
	struct etw_etl_systemtime standard_date;
	int32_t standard_bias;
	char daylight_name[100];
	struct etw_etl_systemtime daylight_date;
	int32_t daylight_bias;
};

/* ReservedFlags of the header: the clock of every record timestamp. */
enum etw_etl_clock {
	ETW_ETL_CLOCK_RAW = 0,
	ETW_ETL_CLOCK_QPC = 1,		/* ticks of perf_freq per second */
	ETW_ETL_CLOCK_SYSTEM_TIME = 2,	/* 100 ns units */
	ETW_ETL_CLOCK_CPU_CYCLES = 3,	/* cycles of cpu_speed_mhz */
};

/*
 * The TRACE_LOGFILE_HEADER of the header event, then what the reader found.
 * Times are FILETIME: 100 ns units since 1601-01-01 UTC.
 */
struct etw_etl_header {
	uint32_t buffer_size;		/* bytes */
	uint32_t version;		/* bytes: OS major, minor; layout major, minor */
	uint32_t provider_version;	/* OS build number */
	uint32_t number_of_processors;
	uint64_t end_time;
	uint32_t timer_resolution;	/* 100 ns units */
	uint32_t maximum_file_size;	/* MB; 0: unlimited */
	uint32_t log_file_mode;		/* EVENT_TRACE_* mode bits */
	uint32_t buffers_written;
	uint32_t start_buffers;
	uint32_t pointer_size;
	uint32_t events_lost;
	uint32_t cpu_speed_mhz;
	uint64_t timer_source;		/* the LoggerName field (Windows 7+) */
	uint64_t perf_timer_source;	/* the LogFileName field (Windows 7+) */
	struct etw_etl_time_zone time_zone;
	uint64_t boot_time;
	uint64_t perf_freq;
	uint64_t start_time;
	uint32_t reserved_flags;	/* enum etw_etl_clock */
	uint32_t buffers_lost;
	const char *logger_name;	/* UTF-8, never NULL */
	const char *log_file_name;	/* UTF-8, never NULL */

	/* The header event: its timestamp is the clock at start_time. */
	uint64_t sync_timestamp;
	uint32_t header_thread_id;
	uint32_t header_process_id;
	uint32_t header_pointer_size;	/* 4 or 8: the form of the struct */

	/* The file. */
	uint64_t file_size;
	uint32_t buffer_count;		/* buffers found before any error */
	uint32_t compressed_buffers;
	/*
	 * COMPRESSION_FORMAT_* of the compressed buffers: the low word of
	 * buffer 0's State when log_file_mode has EVENT_TRACE_COMPRESSED_MODE,
	 * else 3 (XPRESS, what the relogger writes).  The reader decompresses
	 * 3; others give -EOPNOTSUPP when a compressed buffer is reached.
	 */
	uint32_t compression_format;
};

/* BufferFlag and BufferType of a buffer header. */
#define ETW_ETL_BUFFER_FLAG_FLUSH_MARKER	0x0001
#define ETW_ETL_BUFFER_FLAG_EVENTS_LOST		0x0002
#define ETW_ETL_BUFFER_FLAG_BUFFER_LOST		0x0004
#define ETW_ETL_BUFFER_FLAG_PROC_INDEX		0x0020
#define ETW_ETL_BUFFER_FLAG_COMPRESSED		0x0040
#define ETW_ETL_BUFFER_TYPE_HEADER		4

/* One buffer of the file (WMI_BUFFER_HEADER). */
struct etw_etl_buffer {
	uint64_t offset;		/* in the file */
	uint32_t size;			/* BufferSize: bytes in the file */
	uint32_t saved_offset;		/* end of the valid data (see above) */
	uint64_t timestamp;		/* flush time, session clock */
	int64_t sequence;
	uint16_t processor;
	uint16_t logger_id;
	uint16_t flags;			/* ETW_ETL_BUFFER_FLAG_* */
	uint16_t type;
	uint32_t state;
};

/* The record header families, told apart by the record's first 4 bytes. */
enum etw_etl_kind {
	ETW_ETL_KIND_EVENT = 1,		/* EVENT_HEADER: EventWrite, TraceLogging */
	ETW_ETL_KIND_CLASSIC,		/* EVENT_TRACE_HEADER: TraceEvent */
	ETW_ETL_KIND_INSTANCE,		/* EVENT_INSTANCE_GUID_HEADER */
	ETW_ETL_KIND_SYSTEM,		/* SYSTEM_TRACE_HEADER: kernel */
	ETW_ETL_KIND_COMPACT,		/* compact SYSTEM_TRACE_HEADER */
	ETW_ETL_KIND_PERFINFO,		/* PERFINFO_TRACE_HEADER: kernel */
	ETW_ETL_KIND_MESSAGE,		/* MESSAGE_TRACE_HEADER: WPP */
	ETW_ETL_KIND_ERROR,		/* an event that failed while logged */
};

/* Which fields of struct etw_etl_event the record's header carries. */
#define ETW_ETL_HAS_PROVIDER	0x0001	/* provider */
#define ETW_ETL_HAS_DESCRIPTOR	0x0002	/* id version channel level opcode task keyword */
#define ETW_ETL_HAS_CLASS	0x0004	/* opcode level version */
#define ETW_ETL_HAS_HOOK	0x0008	/* hook_id, opcode, version */
#define ETW_ETL_HAS_IDS		0x0010	/* thread_id, process_id */
#define ETW_ETL_HAS_TIMESTAMP	0x0020	/* timestamp */
#define ETW_ETL_HAS_FILETIME	0x0040	/* filetime */
#define ETW_ETL_HAS_CPU_TIME	0x0080	/* kernel_time, user_time */
#define ETW_ETL_HAS_ACTIVITY	0x0100	/* activity_id */
#define ETW_ETL_HAS_MESSAGE	0x0200	/* id = WPP message number */
#define ETW_ETL_HAS_SEQUENCE	0x0400	/* sequence */
#define ETW_ETL_HAS_COMPONENT	0x0800	/* component_id */

/* EVENT_HEADER_FLAG_*: the flags of an event as ProcessTrace presents it. */
#define ETW_ETL_FLAG_EXTENDED_INFO	0x0001
#define ETW_ETL_FLAG_PRIVATE_SESSION	0x0002
#define ETW_ETL_FLAG_STRING_ONLY	0x0004
#define ETW_ETL_FLAG_TRACE_MESSAGE	0x0008
#define ETW_ETL_FLAG_NO_CPUTIME		0x0010
#define ETW_ETL_FLAG_32_BIT_HEADER	0x0020
#define ETW_ETL_FLAG_64_BIT_HEADER	0x0040
#define ETW_ETL_FLAG_DECODE_GUID	0x0080
#define ETW_ETL_FLAG_CLASSIC_HEADER	0x0100
#define ETW_ETL_FLAG_PROCESSOR_INDEX	0x0200

/* EVENT_HEADER_EXT_TYPE_*: types of extended data items. */
#define ETW_ETL_EXT_RELATED_ACTIVITYID	0x0001
#define ETW_ETL_EXT_SID			0x0002
#define ETW_ETL_EXT_TS_ID		0x0003
#define ETW_ETL_EXT_INSTANCE_INFO	0x0004
#define ETW_ETL_EXT_STACK_TRACE32	0x0005
#define ETW_ETL_EXT_STACK_TRACE64	0x0006
#define ETW_ETL_EXT_PEBS_INDEX		0x0007
#define ETW_ETL_EXT_PMC_COUNTERS	0x0008
#define ETW_ETL_EXT_PSM_KEY		0x0009
#define ETW_ETL_EXT_EVENT_KEY		0x000A
#define ETW_ETL_EXT_EVENT_SCHEMA_TL	0x000B
#define ETW_ETL_EXT_PROV_TRAITS		0x000C
#define ETW_ETL_EXT_PROCESS_START_KEY	0x000D
#define ETW_ETL_EXT_CONTROL_GUID	0x000E
#define ETW_ETL_EXT_QPC_DELTA		0x000F
#define ETW_ETL_EXT_CONTAINER_ID	0x0010
#define ETW_ETL_EXT_STACK_KEY32		0x0011
#define ETW_ETL_EXT_STACK_KEY64		0x0012

/*
 * An extended data item.  Besides the items of EVENT_HEADER records, the
 * reader presents the PEBS index and PMC counters of kernel headers and the
 * instance ids of EVENT_INSTANCE_GUID_HEADER records as items, as
 * ProcessTrace does.
 */
struct etw_etl_ext_item {
	uint16_t type;			/* ETW_ETL_EXT_* */
	uint16_t size;			/* bytes at data */
	const void *data;
};

/*
 * One record.  Pointers point into the file's mapping (valid until
 * etw_etl_close()), except ext, valid until the next etw_etl_next(), and
 * those of a record of a compressed buffer, which point into the reader's
 * scratch area: valid until the next etw_etl_next() or etw_etl_rewind().
 * Fields the record's header lacks are 0 (ids: 0xFFFFFFFF); has says which
 * are set.  Kernel records (SYSTEM, COMPACT, PERFINFO) get the provider of
 * their hook's group and opcode = hook type, as a consumer sees them.
 */
struct etw_etl_event {
	enum etw_etl_kind kind;
	uint8_t header_type;		/* byte 2 of the record */
	uint8_t pointer_size;		/* 4 or 8: of the payload's pointers */
	uint16_t size;			/* of the record, header included */
	uint32_t has;			/* ETW_ETL_HAS_* */
	/* Of the record in the file; of its buffer if that is compressed. */
	uint64_t offset;
	uint32_t buffer;		/* index of its buffer */
	uint16_t processor;		/* from the buffer header */
	uint16_t flags;			/* ETW_ETL_FLAG_* */
	/* As stored: EVENT_HEADER Flags, WPP OptionFlags, kernel version >> 8 */
	uint16_t header_flags;
	uint16_t event_property;
	uint16_t hook_id;
	struct etw_etl_guid provider;
	uint16_t id;
	uint16_t version;
	uint8_t channel;
	uint8_t level;
	uint8_t opcode;
	uint16_t task;
	uint64_t keyword;
	uint32_t thread_id;
	uint32_t process_id;
	uint64_t timestamp;		/* raw, session clock */
	uint64_t filetime;		/* UTC FILETIME of timestamp */
	uint32_t kernel_time;
	uint32_t user_time;
	struct etw_etl_guid activity_id;
	uint32_t sequence;		/* WPP */
	uint32_t component_id;		/* WPP */
	const struct etw_etl_ext_item *ext;
	uint32_t ext_count;
	const void *data;		/* the user payload */
	uint32_t data_size;
	const void *record;		/* the whole record */
};

/* Order of etw_etl_next(). */
enum etw_etl_order {
	ETW_ETL_ORDER_FILE = 0,		/* buffer by buffer, as stored */
	/* Header events, then all processors merged by timestamp. */
	ETW_ETL_ORDER_TIME = 1,
};

/*
 * Open an ETL file and read its header.  On success *etlp is the reader
 * (iterating in file order).  On failure, *err (if not NULL) says why.
 */
int etw_etl_open(const char *path, struct etw_etl **etlp,
		 struct etw_etl_error *err);

/* The same over a file image in memory, which must outlive the reader. */
int etw_etl_open_mem(const void *data, size_t size, struct etw_etl **etlp,
		     struct etw_etl_error *err);

void etw_etl_close(struct etw_etl *etl);

const struct etw_etl_header *etw_etl_get_header(const struct etw_etl *etl);

/* Buffer index (0 .. header->buffer_count - 1).  -ENOENT past the end. */
int etw_etl_get_buffer(const struct etw_etl *etl, uint32_t index,
		       struct etw_etl_buffer *buf);

/* Restart iteration, in the given order.  Clears the last error. */
int etw_etl_rewind(struct etw_etl *etl, enum etw_etl_order order);

/*
 * The next record: 1 and *ev filled, 0 after the last, or -errno and
 * etw_etl_last_error() tells where.  After an error it keeps failing
 * until etw_etl_rewind().
 */
int etw_etl_next(struct etw_etl *etl, struct etw_etl_event *ev);

/* The last error of the reader (code 0 if none). */
const struct etw_etl_error *etw_etl_last_error(const struct etw_etl *etl);

/*
 * Convert a raw timestamp to a UTC FILETIME with the file's clock type,
 * perf_freq, start_time and sync_timestamp.  -EDOM if the header gives no
 * usable clock rate.
 */
int etw_etl_filetime(const struct etw_etl *etl, uint64_t timestamp,
		     uint64_t *filetime);

/*
 * The Win32 error code OpenTrace and ProcessTrace give for a reader error
 * (the -errno of etw_etl_open() or etw_etl_next()): ERROR_FILE_NOT_FOUND,
 * ERROR_PATH_NOT_FOUND, ERROR_ACCESS_DENIED, ERROR_NOT_ENOUGH_MEMORY,
 * ERROR_NOT_SUPPORTED (compressed buffers), ERROR_FILE_CORRUPT (corrupt,
 * truncated or unreadable), ERROR_BAD_PATHNAME (name too long).
 */
unsigned int etw_etl_win32_error(int err);

/*
 * A FILETIME as "2020-02-17T12:48:30.4203140Z" (UTC, 100 ns digits) at
 * buf; -ERANGE (and "") past the year 9999.
 */
int etw_etl_format_filetime(uint64_t ft, char *buf, size_t size);

/*
 * A SID as "S-1-5-21-..." at buf.  The SID is 8 + 4 * SubAuthorityCount
 * bytes of the n at sid; returns that length, -EBADMSG if n is short,
 * -ENOBUFS if size is.  ETW_ETL_SID_STRLEN always suffices.
 */
#define ETW_ETL_SID_STRLEN	(28 + 255 * 11)
int etw_etl_sid_to_str(const void *sid, size_t n, char *buf, size_t size);

/* Format g as ETW_ETL_GUID_STRLEN bytes at buf (lowercase, no braces). */
void etw_etl_guid_to_str(const struct etw_etl_guid *g, char *buf);

/* Provider of a kernel hook id's group (0x030A: ImageLoad); -ENOENT if unknown. */
int etw_etl_kernel_provider(uint16_t hook_id, struct etw_etl_guid *provider);

/* Name of a kernel group provider ("Process", "ImageLoad"...), or NULL. */
const char *etw_etl_kernel_provider_name(const struct etw_etl_guid *provider);

/* "EVENT_HEADER", "SYSTEM"...: the header family of a kind, or NULL. */
const char *etw_etl_kind_name(enum etw_etl_kind kind);

/* "PROV_TRAITS"...: an extended item type without its prefix, or NULL. */
const char *etw_etl_ext_type_name(uint16_t type);

#ifdef __cplusplus
}
#endif

#endif /* LIBETW_ETW_ETL_H */
