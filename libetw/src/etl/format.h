/* SPDX-License-Identifier: MIT */
/*
 * The on-disk structures of an ETL file.  All little-endian, read field by
 * field with ETL_GET() so that neither alignment nor host byte order
 * matters; the structs only pin the offsets.
 */
#ifndef LIBETW_ETL_FORMAT_H
#define LIBETW_ETL_FORMAT_H

#include <stddef.h>
#include <stdint.h>

struct etl_guid {
	uint32_t data1;
	uint16_t data2;
	uint16_t data3;
	uint8_t data4[8];
};

/* WMI_BUFFER_HEADER: the same in 32- and 64-bit Windows. */
struct etl_buffer_header {
	uint32_t buffer_size;		/* stride to the next buffer */
	uint32_t saved_offset;		/* end of valid data, header included */
	uint32_t current_offset;
	int32_t reference_count;
	uint64_t timestamp;
	int64_t sequence_number;
	uint64_t clock;
	uint16_t processor_index;	/* u8 before PROC_INDEX buffers */
	uint16_t logger_id;
	uint32_t state;
	uint32_t offset;
	uint16_t buffer_flag;
	uint16_t buffer_type;
	uint64_t reserved[2];
};

#define ETL_BUFFER_HEADER_SIZE	0x48
#define ETL_PROCESSOR_INDEX_MASK	0x07ff

/* The first 4 bytes of every record, read as a u32. */
#define ETL_MARKER_END			0xffffffffu
#define ETL_MARKER_TRACE_HEADER		0x80	/* flag byte bits */
#define ETL_MARKER_EVENT_TRACE		0x40
#define ETL_MARKER_MESSAGE		0x10

/* Byte 2 of a record: its header type. */
enum {
	ETL_HT_SYSTEM32 = 0x01,
	ETL_HT_SYSTEM64 = 0x02,
	ETL_HT_COMPACT32 = 0x03,
	ETL_HT_COMPACT64 = 0x04,
	ETL_HT_FULL32 = 0x0a,
	ETL_HT_INSTANCE32 = 0x0b,
	ETL_HT_ERROR = 0x0d,
	ETL_HT_PERFINFO32 = 0x10,
	ETL_HT_PERFINFO64 = 0x11,
	ETL_HT_EVENT32 = 0x12,
	ETL_HT_EVENT64 = 0x13,
	ETL_HT_FULL64 = 0x14,
	ETL_HT_INSTANCE64 = 0x15,
};

/* SYSTEM_TRACE_HEADER; the compact form stops before kernel_time. */
struct etl_system_header {
	uint16_t version;		/* high byte: PMC/PEBS flags */
	uint8_t header_type;
	uint8_t flags;
	uint16_t size;
	uint16_t hook_id;		/* group << 8 | type */
	uint32_t thread_id;
	uint32_t process_id;
	uint64_t system_time;
	uint32_t kernel_time;
	uint32_t user_time;
};

#define ETL_COMPACT_HEADER_SIZE	0x18

/* PERFINFO_TRACE_HEADER. */
struct etl_perfinfo_header {
	uint16_t version;
	uint8_t header_type;
	uint8_t flags;
	uint16_t size;
	uint16_t hook_id;
	uint64_t system_time;
};

/* Items inserted after a kernel header, announced by its version word. */
#define ETL_VERSION_PEBS_INDEX	0x8000
#define ETL_VERSION_PMC_MASK	0x0700
#define ETL_VERSION_PMC_SHIFT	8

/* EVENT_TRACE_HEADER (classic "full" header). */
struct etl_trace_header {
	uint16_t size;
	uint8_t header_type;
	uint8_t marker_flags;
	uint8_t type;			/* opcode */
	uint8_t level;
	uint16_t version;
	uint32_t thread_id;
	uint32_t process_id;
	uint64_t timestamp;
	struct etl_guid guid;
	uint32_t kernel_time;
	uint32_t user_time;
};

/* EVENT_INSTANCE_GUID_HEADER: the classic header and instance ids. */
struct etl_instance_header {
	struct etl_trace_header trace;
	uint32_t instance_id;
	uint32_t parent_instance_id;
	struct etl_guid parent_guid;
};

/* EVENT_HEADER as stored in a buffer. */
struct etl_event_header {
	uint16_t size;
	uint16_t header_type;		/* 0xc012, 0xc013; 0xc00d: error */
	uint16_t flags;
	uint16_t event_property;
	uint32_t thread_id;
	uint32_t process_id;
	uint64_t timestamp;
	struct etl_guid provider_id;
	uint16_t id;
	uint8_t version;
	uint8_t channel;
	uint8_t level;
	uint8_t opcode;
	uint16_t task;
	uint64_t keyword;
	uint32_t kernel_time;
	uint32_t user_time;
	struct etl_guid activity_id;
};

#define ETL_EVENT_FLAG_EXTENDED_INFO	0x0001

/* An extended data item in a buffer: this, the data, padding to size. */
struct etl_ext_item {
	uint16_t size;			/* stride to the next item */
	uint16_t ext_type;
	uint16_t linkage;		/* bit 0: another item follows */
	uint16_t data_size;
};

/* MESSAGE_TRACE_HEADER (WPP), then the items option_flags announce. */
struct etl_message_header {
	uint16_t size;
	uint8_t reserved;
	uint8_t flags;			/* 0x90 */
	uint16_t message_number;
	uint16_t option_flags;
};

enum {
	ETL_MSG_SEQUENCE = 0x0001,
	ETL_MSG_GUID = 0x0002,
	ETL_MSG_COMPONENTID = 0x0004,
	ETL_MSG_TIMESTAMP = 0x0008,
	ETL_MSG_PERFORMANCE_TIMESTAMP = 0x0010,
	ETL_MSG_SYSTEMINFO = 0x0020,
	ETL_MSG_POINTER32 = 0x0040,
	ETL_MSG_POINTER64 = 0x0080,
};

struct etl_systemtime {
	uint16_t field[8];
};

struct etl_time_zone {
	int32_t bias;
	uint16_t standard_name[32];
	struct etl_systemtime standard_date;
	int32_t standard_bias;
	uint16_t daylight_name[32];
	struct etl_systemtime daylight_date;
	int32_t daylight_bias;
};

/*
 * TRACE_LOGFILE_HEADER in its two forms: the LoggerName and LogFileName
 * fields are pointer sized, which shifts everything after them.
 */
#define ETL_LOGFILE_HEADER(name, ptr_t)				\
struct name {								\
	uint32_t buffer_size;						\
	uint32_t version;						\
	uint32_t provider_version;					\
	uint32_t number_of_processors;					\
	uint64_t end_time;						\
	uint32_t timer_resolution;					\
	uint32_t maximum_file_size;					\
	uint32_t log_file_mode;						\
	uint32_t buffers_written;					\
	uint32_t start_buffers;						\
	uint32_t pointer_size;						\
	uint32_t events_lost;						\
	uint32_t cpu_speed_mhz;						\
	ptr_t logger_name;						\
	ptr_t log_file_name;						\
	struct etl_time_zone time_zone;					\
	uint32_t pad;							\
	uint64_t boot_time;						\
	uint64_t perf_freq;						\
	uint64_t start_time;						\
	uint32_t reserved_flags;					\
	uint32_t buffers_lost;						\
}

ETL_LOGFILE_HEADER(etl_logfile_header64, uint64_t);
ETL_LOGFILE_HEADER(etl_logfile_header32, uint32_t);

#define ETL_HOOK_HEADER		0x0000	/* WMI_LOG_TYPE_HEADER */
#define ETL_HOOK_LOAD_IMAGE	0x030a	/* logged as Process, is ImageLoad */

/* Offsets of the notes; a build on a host that pads differently fails. */
#define ETL_CHECK(type, field, off) \
	_Static_assert(offsetof(struct type, field) == (off), #type "." #field)

_Static_assert(sizeof(struct etl_guid) == 16, "GUID");
_Static_assert(sizeof(struct etl_buffer_header) == ETL_BUFFER_HEADER_SIZE,
	       "WMI_BUFFER_HEADER");
ETL_CHECK(etl_buffer_header, processor_index, 0x28);
ETL_CHECK(etl_buffer_header, offset, 0x30);
ETL_CHECK(etl_buffer_header, buffer_type, 0x36);
_Static_assert(sizeof(struct etl_system_header) == 0x20, "SYSTEM_TRACE_HEADER");
ETL_CHECK(etl_system_header, kernel_time, ETL_COMPACT_HEADER_SIZE);
_Static_assert(sizeof(struct etl_perfinfo_header) == 0x10, "PERFINFO_TRACE_HEADER");
_Static_assert(sizeof(struct etl_trace_header) == 0x30, "EVENT_TRACE_HEADER");
ETL_CHECK(etl_trace_header, guid, 0x18);
_Static_assert(sizeof(struct etl_instance_header) == 0x48, "EVENT_INSTANCE_GUID_HEADER");
_Static_assert(sizeof(struct etl_event_header) == 0x50, "EVENT_HEADER");
ETL_CHECK(etl_event_header, provider_id, 0x18);
ETL_CHECK(etl_event_header, id, 0x28);
ETL_CHECK(etl_event_header, keyword, 0x30);
ETL_CHECK(etl_event_header, activity_id, 0x40);
_Static_assert(sizeof(struct etl_ext_item) == 8, "extended item");
_Static_assert(sizeof(struct etl_message_header) == 8, "MESSAGE_TRACE_HEADER");
_Static_assert(sizeof(struct etl_time_zone) == 0xac, "TIME_ZONE_INFORMATION");
_Static_assert(sizeof(struct etl_logfile_header64) == 0x118, "TRACE_LOGFILE_HEADER64");
_Static_assert(sizeof(struct etl_logfile_header32) == 0x110, "TRACE_LOGFILE_HEADER32");
ETL_CHECK(etl_logfile_header64, time_zone, 0x48);
ETL_CHECK(etl_logfile_header64, boot_time, 0xf8);
ETL_CHECK(etl_logfile_header64, reserved_flags, 0x110);
ETL_CHECK(etl_logfile_header32, time_zone, 0x40);
ETL_CHECK(etl_logfile_header32, boot_time, 0xf0);
ETL_CHECK(etl_logfile_header32, reserved_flags, 0x108);

/* A little-endian integer of n bytes at p. */
static inline uint64_t etl_get_le(const uint8_t *p, size_t n)
{
	uint64_t v = 0;

	for (size_t i = n; i > 0; i--)
		v = v << 8 | p[i - 1];
	return v;
}

/* Field of an on-disk struct at p, in host order and the field's type. */
#define ETL_GET(p, type, field)						\
	((__typeof__(((struct type *)0)->field))etl_get_le(		\
		(const uint8_t *)(p) + offsetof(struct type, field),	\
		sizeof(((struct type *)0)->field)))

#define ETL_ALIGN8(x)	(((x) + 7) & ~(uint64_t)7)

#endif /* LIBETW_ETL_FORMAT_H */
