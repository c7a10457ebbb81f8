/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ETL on-disk structures written by the kernel: a session buffer is an ETL
 * buffer, so these are what lands in the file unchanged.  ETL is
 * little-endian, as are the machines etw.ko builds for.
 * Layouts: Documentation/etl-format.rst.
 */
#ifndef _ETW_ETL_H
#define _ETW_ETL_H

#include <linux/build_bug.h>
#include <linux/types.h>

#ifdef __BIG_ENDIAN
#error "etw.ko writes little-endian ETL buffers in place"
#endif

/* WMI_BUFFER_HEADER, 0x48 bytes. */
struct etl_buffer_header {
	u32 buffer_size;
	u32 saved_offset;
	u32 current_offset;
	s32 reference_count;
	u64 timestamp;
	u64 sequence_number;
	u64 clock;		/* ClockType:3, Frequency:61; we write 0 */
	u16 processor_index;
	u16 logger_id;
	u32 state;
	u32 offset;
	u16 buffer_flag;
	u16 buffer_type;
	u8 reserved[16];
};

#define ETL_BUFFER_STATE_FLUSH		3
#define ETL_BUFFER_FLAG_FLUSH_MARKER	0x0001
#define ETL_BUFFER_FLAG_EVENTS_LOST	0x0002
#define ETL_BUFFER_FLAG_PROC_INDEX	0x0020
#define ETL_BUFFER_TYPE_GENERIC		0
/*
 * ETW_BUFFER_TYPE_CTX_SWAP (NTWMI): the buffers of a CPU's kernel lane,
 * a second time-ordered stream of that CPU (klog/lane.c).
 */
#define ETL_BUFFER_TYPE_KERNEL		2

/* EVENT_HEADER as stored in a buffer, 0x50 bytes. */
/* EVENT_DESCRIPTOR: the layout of the uapi's struct etw_event_desc. */
struct etl_event_desc {
	u16 id;
	u8 version;
	u8 channel;
	u8 level;
	u8 opcode;
	u16 task;
	u64 keyword;
};

struct etl_event_header {
	u16 size;
	u16 header_type;
	u16 flags;
	u16 event_property;
	u32 thread_id;
	u32 process_id;
	u64 timestamp;
	u8 provider_id[16];
	struct etl_event_desc desc;
	u32 kernel_time;
	u32 user_time;
	u8 activity_id[16];
};

#define ETL_HEADER_TYPE_EVENT32		0xC012
#define ETL_HEADER_TYPE_EVENT64		0xC013
#define ETL_EVENT_FLAG_EXTENDED_INFO	0x0001
#define ETL_EVENT_FLAG_STRING_ONLY	0x0004

/* An extended data item as stored: 8 bytes, then the data, 8-aligned. */
struct etl_ext_item {
	u16 item_size;		/* ALIGN(8 + data_size, 8) */
	u16 ext_type;
	u16 linkage;		/* 1 if another item follows */
	u16 data_size;
};

/* ExtType values (EVENT_HEADER_EXT_TYPE_*). */
#define ETL_EXT_RELATED_ACTIVITYID	0x0001
#define ETL_EXT_SID			0x0002
#define ETL_EXT_TS_ID			0x0003
#define ETL_EXT_STACK_TRACE32		0x0005
#define ETL_EXT_STACK_TRACE64		0x0006
#define ETL_EXT_EVENT_KEY		0x000A
#define ETL_EXT_EVENT_SCHEMA_TL		0x000B
#define ETL_EXT_PROV_TRAITS		0x000C
#define ETL_EXT_PROCESS_START_KEY	0x000D
#define ETL_EXT_LINKAGE			0x0001	/* another item follows */

/*
 * EVENT_TRACE_HEADER as stored (TraceEvent): the caller's header with the
 * marker, ids, time stamp and processor times filled in.
 */
struct etl_trace_header {
	u16 size;
	u8 header_type;
	u8 marker_flags;
	u8 type;		/* Class.Type: the opcode */
	u8 level;
	u16 version;
	u32 thread_id;
	u32 process_id;
	u64 timestamp;
	u8 guid[16];		/* the event class GUID */
	u32 kernel_time;
	u32 user_time;
};

/* EVENT_INSTANCE_GUID_HEADER (TraceEventInstance). */
struct etl_instance_header {
	struct etl_trace_header trace;
	u32 instance_id;
	u32 parent_instance_id;
	u8 parent_guid[16];
};

#define ETL_HEADER_TYPE_FULL32		0x0a
#define ETL_HEADER_TYPE_FULL64		0x14
#define ETL_HEADER_TYPE_INSTANCE32	0x0b
#define ETL_HEADER_TYPE_INSTANCE64	0x15
#define ETL_MARKER_FLAGS_TRACE		0xc0	/* TRACE_HEADER_FLAG | EVENT_TRACE */

/* MESSAGE_TRACE_HEADER (TraceMessage), then the items its flags announce. */
struct etl_message_header {
	u16 size;
	u8 reserved;
	u8 marker_flags;	/* ETL_MARKER_FLAGS_MESSAGE */
	u16 message_number;
	u16 option_flags;
};

#define ETL_MARKER_FLAGS_MESSAGE	0x90	/* TRACE_HEADER_FLAG | TRACE_MESSAGE */

static inline void etl_static_checks(void)
{
	BUILD_BUG_ON(sizeof(struct etl_buffer_header) != 0x48);
	BUILD_BUG_ON(sizeof(struct etl_event_header) != 0x50);
	BUILD_BUG_ON(sizeof(struct etl_ext_item) != 8);
	BUILD_BUG_ON(sizeof(struct etl_trace_header) != 0x30);
	BUILD_BUG_ON(sizeof(struct etl_instance_header) != 0x48);
	BUILD_BUG_ON(sizeof(struct etl_message_header) != 8);
}

#endif /* _ETW_ETL_H */
