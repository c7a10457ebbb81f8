/* SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT */
/*
 * etw: Event Tracing for Windows semantics on Linux.
 *
 * The one header shared by the kernel module (etw.ko) and userspace
 * (libetw, the etw tool, the selftests).  Every struct here has a fixed
 * layout: only __u8/__u16/__u32/__u64 fields, pointers carried as __u64,
 * explicit padding, no implicit holes, identical in 32- and 64-bit builds
 * (checked by libetw/tests/uapi_layout.c under -m32 and -m64).
 */
#ifndef _UAPI_LINUX_ETW_H
#define _UAPI_LINUX_ETW_H

#include <linux/ioctl.h>
#include <linux/types.h>

/**
 * DOC: ABI versioning
 *
 * ETW_ABI_MAJOR changes only when an existing ioctl or struct changes
 * incompatibly; ETW_ABI_MINOR grows when something is added.  Userspace
 * reads both with ETW_IOC_VERSION and refuses to run against a different
 * major.  Structs that may grow start with a __u32 @size that the caller
 * fills with sizeof() as it knows it; the kernel accepts a smaller size
 * (the missing tail reads as zero) and a larger one only when the bytes it
 * does not know are zero (else -E2BIG).
 *
 * 1.0: struct etw_reg_state grew from 32 to 96 bytes (match_any_at[]), so
 * the enable-state mapping's stride changed; ETW_IOC_WRITE_SHORT, kept
 * sessions (ETW_CTRL_KEEP) and up to 8 real-time consumers were added.
 * 1.1: the consumer's wake-up watermark (etw_consumer_ctrl.watermark, in
 * what was reserved; a 1.0 module leaves it unread, so the consumer is
 * woken for each buffer).
 * 1.2: the session's MaximumBuffers in the consumer's ring
 * (etw_consumer_ring.max_buffers, in what was reserved; a 1.1 module
 * leaves it 0, so a consumer keeps the watermark it derived at attach).
 * 1.3: the kernel logger: %ETW_MODE_SYSTEM_LOGGER sessions, their
 * EnableFlags in etw_session_info.enable_flags (what was reserved0; a
 * 1.2 module refuses a non-zero value with ``EINVAL``), and
 * ETW_IOC_TRACE_SET_INFO / ETW_IOC_TRACE_QUERY_INFO (TraceSetInformation).
 * ETW_CONTROL_DISCARD gives up a kept session by hand (a 1.2 module
 * refuses the code with ``EINVAL``).
 * ETW_IOC_PROVIDER_LIST and ETW_IOC_PROVIDER_INFO, the provider list of
 * EnumerateTraceGuids(Ex) (a 1.2 module answers -ENOTTY).
 * 1.4: a session's log file name, given at start
 * (etw_session_start.log_file_name) and returned by every control code
 * (etw_session_control.log_file_name), at the end of both structs (a 1.3
 * module answers ``E2BIG`` when they are set).  ETW_IOC_ENABLE refuses
 * the null GUID (``EINVAL``).
 * 1.5: EVENT_FILTER_TYPE_PAYLOAD: etw_enable.payload_data/payload_size
 * with %ETW_ENABLE_F_PAYLOAD (a 1.4 module refuses them with ``EINVAL``).
 * 1.6: %ETW_TRACE_STACK_COPY_INFO, the user stack copy beside a sample's
 * StackWalk (a 1.5 module answers ``EOPNOTSUPP``).
 * 1.7: ETW_KFLAG_DISK_FILE_IO; FILE_IO, FILE_IO_INIT and DISK_FILE_IO
 * record FileIo events.
 */
#define ETW_ABI_MAJOR	1
#define ETW_ABI_MINOR	7

/**
 * DOC: Errors
 *
 * Every ioctl follows the same errno contract:
 *
 * - ``ENOTTY``: the command number is unknown.
 * - ``EFAULT``: a user pointer (the argument or one it contains) could not
 *   be read or written in full.
 * - ``EINVAL``: an unknown flag is set, a reserved field is not zero, or a
 *   size is below the first published size of the struct.
 * - ``E2BIG``: @size is larger than the kernel's struct and the extra bytes
 *   are not zero.
 */

/* Device node: /dev/etw, a misc device, root:root mode 0666 (udev/60-etw.rules). */
#define ETW_DEVICE_NAME		"etw"

/*
 * ioctl type byte: 0xE7, unused in Documentation/userspace-api/ioctl/ioctl-number.rst.
 * As in iommufd, the numbers carry no size: every argument struct states
 * its own size in its first field, so a struct can grow without a new
 * number.
 */
#define ETW_IOC_MAGIC		0xE7

/**
 * struct etw_version - ABI and module version, read with ETW_IOC_VERSION
 * @size: in: sizeof(struct etw_version) as the caller knows it
 * @flags: in: must be 0
 * @abi_major: out: ETW_ABI_MAJOR of the running module
 * @abi_minor: out: ETW_ABI_MINOR of the running module
 * @features: out: ETW_FEATURE_* bits the running module supports
 * @max_sessions: out: maximum number of sessions (loggers), 64 as on Windows
 * @max_sessions_per_provider: out: sessions that may enable one provider (8)
 * @reserved: in: must be 0
 */
struct etw_version {
	__u32 size;
	__u32 flags;
	__u32 abi_major;
	__u32 abi_minor;
	__u64 features;
	__u32 max_sessions;
	__u32 max_sessions_per_provider;
	__u64 reserved[4];
};

/* The size of the first published layout of struct etw_version. */
#define ETW_VERSION_SIZE_VER0	64

/* Feature bits reported in etw_version.features; none yet. */
#define ETW_FEATURE_MASK	0ULL

/* Read the ABI version (struct etw_version). */
#define ETW_IOC_VERSION		_IO(ETW_IOC_MAGIC, 0x00)

/* Limits (the values Windows uses). */
#define ETW_MAX_SESSIONS		64
#define ETW_MAX_SESSIONS_PER_PROVIDER	8
#define ETW_MAX_REGS_PER_FILE		1024
#define ETW_MAX_DATA_DESCRIPTORS	128
#define ETW_MAX_EVENT_SIZE		65535	/* the 16-bit record Size */
#define ETW_MAX_NAME			128	/* session name, bytes incl. NUL */
#define ETW_BUFFER_HEADER_SIZE		0x48	/* WMI_BUFFER_HEADER */
#define ETW_EVENT_HEADER_SIZE		0x50	/* EVENT_HEADER as stored */

/**
 * struct etw_provider_register - ETW_IOC_PROVIDER_REGISTER (EventRegister)
 * @size: sizeof(struct etw_provider_register)
 * @flags: 0, or %ETW_REGISTER_F_CLASSIC
 * @guid: the provider (control) GUID, in Windows' in-memory byte order
 * @reg_id: out: the registration, valid on this file until unregistered
 * @state_index: out: index of this registration's &struct etw_reg_state in
 *	the enable-state mapping (mmap offset %ETW_MMAP_STATE)
 * @state_size: out: sizeof(struct etw_reg_state) of the module, the
 *	stride of that mapping (%ETW_REG_STATE_SIZE; 0 from a module older
 *	than the per-level keyword masks, whose slots were 32 bytes)
 * @reserved0: must be 0
 * @reserved: must be 0
 *
 * The registration belongs to the file: closing it unregisters.  If a
 * session already enabled @guid, the registration starts enabled and a
 * notification with a zero source id is queued.
 */
struct etw_provider_register {
	__u32 size;
	__u32 flags;
	__u8 guid[16];
	__u32 reg_id;
	__u32 state_index;
	__u32 state_size;
	__u32 reserved0;
	__u64 reserved;
};

#define ETW_PROVIDER_REGISTER_SIZE_VER0	48

/*
 * A classic provider (RegisterTraceGuids): enabled by at most one session
 * at a time, the newest enable winning (seed 004).  Its notifications
 * carry that session's own Level and MatchAnyKeyword (the EnableLevel and
 * EnableFlags its logger handle encodes) and its logger_id.
 */
#define ETW_REGISTER_F_CLASSIC	0x1000

/**
 * struct etw_provider_unregister - ETW_IOC_PROVIDER_UNREGISTER
 * @size: sizeof(struct etw_provider_unregister)
 * @flags: must be 0
 * @reg_id: from ETW_IOC_PROVIDER_REGISTER
 * @reserved: must be 0
 */
struct etw_provider_unregister {
	__u32 size;
	__u32 flags;
	__u32 reg_id;
	__u32 reserved;
};

#define ETW_PROVIDER_UNREGISTER_SIZE_VER0	16

/**
 * struct etw_reg_state - a registration's enable state, read without a
 *	system call from the read-only mapping at %ETW_MMAP_STATE
 * @seq: even when stable; the kernel makes it odd while it updates the
 *	other fields (read @seq with acquire, the fields, then @seq again with
 *	acquire; retry if it changed or was odd)
 * @enabled: 1 if at least one session enables the provider
 * @level: the highest level any session enables (255 for a session that
 *	gave level 0, which means all levels)
 * @reserved0: 0
 * @match_any: OR of the sessions' MatchAnyKeyword (all ones for a session
 *	that gave 0, which means all)
 * @match_all: AND of the sessions' MatchAllKeyword
 * @reserved1: 0
 * @match_any_at: for an event of level L < %ETW_REG_STATE_LEVELS, the
 *	keywords that can let it pass: @match_any if @enabled and (L == 0 or
 *	L <= @level), else 0
 *
 * An event can be written only if @enabled && (level == 0 || level <=
 * @level) && (keyword == 0 || ((keyword & @match_any) && (keyword &
 * @match_all) == @match_all)): that test is EventEnabled.  The kernel still
 * filters per session.
 *
 * @match_any_at folds the level test into the keyword test: for level L <
 * 8 and keyword K != 0, K & @match_any_at[L] == 0 means the event cannot
 * pass; non-zero means it passes if @match_all is 0, and that the whole
 * test above decides otherwise.  A caller whose event is a constant
 * decides "disabled" with one test of memory.  Every element is 0 when the
 * event's level fails, so it also answers for an event of keyword 0:
 * @match_any_at[L] != 0 exactly when its level passes.
 *
 * While @enabled is 0 every other field but @seq is 0 too, so a reader may
 * decide "disabled" from the one field its event tests (@level for an
 * event with a level, @match_any or @match_any_at[L] for one with
 * keywords) without the sequence count: each field is written with one
 * store, so the value read is one the field had during the read.
 *
 * The slots of the mapping are %ETW_REG_STATE_SIZE bytes apart (reported
 * as @state_size by %ETW_IOC_PROVIDER_REGISTER); they were 32 bytes, up to
 * @reserved1, before @match_any_at.  Fields are only ever added at the end.
 */
struct etw_reg_state {
	__u32 seq;
	__u8 enabled;
	__u8 level;
	__u16 reserved0;
	__u64 match_any;
	__u64 match_all;
	__u64 reserved1;
	__u64 match_any_at[8];
};

#define ETW_REG_STATE_LEVELS	8	/* elements of match_any_at */
#define ETW_REG_STATE_SIZE	96	/* sizeof(struct etw_reg_state) */

/* mmap offsets of /dev/etw. */
#define ETW_MMAP_STATE		0x0ULL	/* ETW_MAX_REGS_PER_FILE etw_reg_state, read-only */
#define ETW_MMAP_STATE_SIZE	(ETW_MAX_REGS_PER_FILE * ETW_REG_STATE_SIZE)

/**
 * struct etw_data_desc - EVENT_DATA_DESCRIPTOR: one block of user data
 * @ptr: address of the data
 * @size: its length in bytes
 * @type: ETW_DATA_DESC_*; ignored (and @reserved too) unless the
 *	registration set traits or asked for descriptor types
 *	(%ETW_IOC_PROVIDER_SET_INFO), as Windows ignores the field of
 *	providers that never said they fill it
 * @reserved: ignored
 */
struct etw_data_desc {
	__u64 ptr;
	__u32 size;
	__u8 type;
	__u8 reserved[3];
};

/*
 * etw_data_desc.type (EVENT_DATA_DESCRIPTOR_TYPE_*).  The metadata blobs
 * leave the payload and become extended items of the record:
 * PROVIDER_METADATA first (PROV_TRAITS, 0x000C), then EVENT_METADATA
 * (EVENT_SCHEMA_TL, 0x000B).  At most one of each per write; another type
 * is -EINVAL.  TIMESTAMP_OVERRIDE is 8 bytes that replace the record's
 * TimeStamp (session clock ticks).
 */
#define ETW_DATA_DESC_NONE			0
#define ETW_DATA_DESC_EVENT_METADATA		1
#define ETW_DATA_DESC_PROVIDER_METADATA		2
#define ETW_DATA_DESC_TIMESTAMP_OVERRIDE	3

/**
 * struct etw_event_desc - EVENT_DESCRIPTOR, same layout as Windows'
 * @id: event id
 * @version: event version
 * @channel: channel (11 for TraceLogging)
 * @level: level, 0 always passes level filters
 * @opcode: opcode
 * @task: task
 * @keyword: keywords, 0 always passes keyword filters
 */
struct etw_event_desc {
	__u16 id;
	__u8 version;
	__u8 channel;
	__u8 level;
	__u8 opcode;
	__u16 task;
	__u64 keyword;
};

/* etw_event_write.kind: which NtTraceEvent-style write this is. */
#define ETW_WRITE_EVENT		1	/* EventWrite / EventWriteTransfer / EventWriteEx */

/* etw_event_write.flags */
#define ETW_WRITE_F_ACTIVITY	0x1	/* @activity_id is valid */
#define ETW_WRITE_F_RELATED	0x2	/* @related_id is valid: add RELATED_ACTIVITYID */
#define ETW_WRITE_F_STRING	0x4	/* EventWriteString: EVENT_HEADER_FLAG_STRING_ONLY */
#define ETW_WRITE_F_INPRIVATE	0x100	/* EVENT_WRITE_FLAG_INPRIVATE (EventWriteEx) */
#define ETW_WRITE_F_MASK	0x107

/**
 * struct etw_event_write - ETW_IOC_WRITE, the one entry point for events
 * @size: sizeof(struct etw_event_write)
 * @kind: %ETW_WRITE_EVENT
 * @flags: ETW_WRITE_F_*
 * @reg_id: the registration writing
 * @desc: the event descriptor
 * @activity_id: ActivityId GUID (zero if not %ETW_WRITE_F_ACTIVITY)
 * @related_id: RelatedActivityId GUID, with %ETW_WRITE_F_RELATED
 * @data: address of @count &struct etw_data_desc
 * @count: number of data descriptors, at most %ETW_MAX_DATA_DESCRIPTORS
 * @reserved0: must be 0
 * @filter: EventWriteEx Filter: bit n set = not for the session with
 *	logger id n + 1
 * @written: out, on success: number of sessions that stored the event
 * @lost: out, on success: number of sessions that counted it lost (an
 *	independent session's loss; otherwise the call fails with ``ENOSPC``)
 * @reserved: must be 0
 *
 * Errors besides the common ones: ``EOVERFLOW`` the record would exceed
 * 64 KiB (ERROR_ARITHMETIC_OVERFLOW); ``EMSGSIZE`` it does not fit one
 * buffer of a session that wants it (ERROR_MORE_DATA); ``ENOSPC`` a session
 * had no free buffer and the event was counted lost
 * (ERROR_NOT_ENOUGH_MEMORY); ``EBADF`` unknown @reg_id.
 */
struct etw_event_write {
	__u32 size;
	__u16 kind;
	__u16 flags;
	__u32 reg_id;
	__u32 count;
	struct etw_event_desc desc;
	__u8 activity_id[16];
	__u8 related_id[16];
	__u64 data;
	__u64 filter;
	__u32 written;
	__u32 lost;
	__u32 reserved0;
	__u32 reserved[3];
};

#define ETW_EVENT_WRITE_SIZE_VER0	104

/**
 * struct etw_event_write_short - ETW_IOC_WRITE_SHORT, EventWrite's common case
 * @size: sizeof(struct etw_event_write_short)
 * @reg_id: the registration writing
 * @desc: the event descriptor
 * @activity_id: ActivityId GUID (the thread's, or EventWriteTransfer's)
 * @data: address of @count &struct etw_data_desc; with
 *	%ETW_WRITE_F_INLINE, the address of the payload itself
 * @count: number of data descriptors, at most %ETW_MAX_DATA_DESCRIPTORS;
 *	with %ETW_WRITE_F_INLINE, the payload's size in bytes
 * @flags: %ETW_WRITE_F_STRING, %ETW_WRITE_F_INPRIVATE, %ETW_WRITE_F_INLINE
 *
 * The event %ETW_IOC_WRITE would write from a &struct etw_event_write of
 * kind %ETW_WRITE_EVENT with @flags | %ETW_WRITE_F_ACTIVITY, no related
 * activity id and no EventWriteEx filter, with the same checks and the
 * same errors, in 56 bytes instead of 104: the kernel reads 7 words per
 * event instead of 13 (its fast lane decides with 3 and copies the
 * descriptor and activity id into the record).  With
 * %ETW_WRITE_F_INLINE the one data descriptor
 * of most events travels in the request (a payload of type
 * EVENT_DATA_DESCRIPTOR_TYPE_NONE), so no descriptor array is read.
 *
 * Nothing is written back and success is 0: the sessions that stored the
 * event are not counted (%ETW_IOC_WRITE's @written does that; a session
 * that counted it lost makes either call fail with ``ENOSPC``).
 */
struct etw_event_write_short {
	__u32 size;
	__u32 reg_id;
	struct etw_event_desc desc;
	__u8 activity_id[16];
	__u64 data;
	__u32 count;
	__u32 flags;
};

#define ETW_EVENT_WRITE_SHORT_SIZE_VER0	56

/* etw_event_write_short.flags: @data is the payload, @count its bytes. */
#define ETW_WRITE_F_INLINE		0x10000
#define ETW_WRITE_SHORT_F_MASK		(ETW_WRITE_F_STRING | \
					 ETW_WRITE_F_INPRIVATE | \
					 ETW_WRITE_F_INLINE)

/*
 * The classic kinds of ETW_IOC_WRITE (TraceEvent, TraceEventInstance,
 * TraceMessage) take a struct etw_trace_write instead: the same first 8
 * bytes (@size, @kind, @flags) and the same size, so the ioctl reads
 * either.  They write into one session named by its logger id, whatever
 * provider enabled it, as NtTraceEvent does with a logger handle.
 */
#define ETW_WRITE_TRACE		2	/* TraceEvent: EVENT_TRACE_HEADER */
#define ETW_WRITE_INSTANCE	3	/* TraceEventInstance */
#define ETW_WRITE_MESSAGE	4	/* TraceMessage, TraceMessageVa */

/* etw_trace_write.flags */
/* INSTANCE: @parent_guid and @parent_instance_id are valid */
#define ETW_WRITE_F_PARENT	0x1000
#define ETW_WRITE_F_TRACE_MASK	0x1000

/*
 * The caller's header as TraceEvent reads it: the WNODE_FLAG_* bits of its
 * Flags word (offset 0x2c) that the kernel interprets.
 */
#define ETW_TRACE_FLAG_USE_TIMESTAMP	0x00000200
#define ETW_TRACE_FLAG_TRACED_GUID	0x00020000
#define ETW_TRACE_FLAG_USE_GUID_PTR	0x00080000
#define ETW_TRACE_FLAG_USE_MOF_PTR	0x00100000
#define ETW_TRACE_HEADER_SIZE		0x30	/* EVENT_TRACE_HEADER */
#define ETW_INSTANCE_HEADER_SIZE	0x38	/* EVENT_INSTANCE_HEADER, as given */
#define ETW_MAX_MOF_BYTES		0x100	/* 16 MOF_FIELDs of 16 bytes */

/* TraceMessage MessageFlags (TRACE_MESSAGE_*) the kernel interprets. */
#define ETW_MESSAGE_SEQUENCE		0x0001
#define ETW_MESSAGE_GUID		0x0002
#define ETW_MESSAGE_COMPONENTID		0x0004
#define ETW_MESSAGE_TIMESTAMP		0x0008
#define ETW_MESSAGE_PERFORMANCE_TIMESTAMP 0x0010
#define ETW_MESSAGE_SYSTEMINFO		0x0020
#define ETW_MESSAGE_POINTER32		0x0040
#define ETW_MESSAGE_POINTER64		0x0080
#define ETW_MESSAGE_FLAG_MASK		0xffff

/* Session LogFileMode bits that number TraceMessage records. */
#define ETW_MODE_GLOBAL_SEQUENCE	0x00004000
#define ETW_MODE_LOCAL_SEQUENCE		0x00008000

/**
 * struct etw_trace_write - ETW_IOC_WRITE for the classic kinds
 * @size: sizeof(struct etw_trace_write)
 * @kind: %ETW_WRITE_TRACE, %ETW_WRITE_INSTANCE or %ETW_WRITE_MESSAGE
 * @flags: ETW_WRITE_F_* of the classic range
 * @logger_id: the session (the low 16 bits of a logger handle)
 * @message_flags: MESSAGE: TRACE_MESSAGE_* (only the low 16 bits are
 *	stored; the kernel sets POINTER32 or POINTER64 itself)
 * @header: TRACE, INSTANCE: address of the caller's EVENT_TRACE_HEADER or
 *	EVENT_INSTANCE_HEADER, its data following it (or, with
 *	WNODE_FLAG_USE_MOF_PTR, an array of MOF_FIELD)
 * @data: MESSAGE: address of @count &struct etw_data_desc, the arguments
 * @count: MESSAGE: number of data descriptors, at most
 *	%ETW_MAX_DATA_DESCRIPTORS
 * @message_number: MESSAGE: the message number
 * @reserved0: must be 0
 * @guid: INSTANCE: the class GUID of the instance's registration handle;
 *	MESSAGE: MessageGuid (with TRACE_MESSAGE_COMPONENTID its first 4
 *	bytes are the component id)
 * @parent_guid: INSTANCE with %ETW_WRITE_F_PARENT: the parent's class GUID
 * @instance_id: INSTANCE: InstanceId
 * @parent_instance_id: INSTANCE with %ETW_WRITE_F_PARENT: ParentInstanceId
 * @reserved: must be 0
 *
 * The kernel reads the caller's header, its MOF_FIELD array, the data
 * they point to and a WNODE_FLAG_USE_GUID_PTR GUID itself; it never
 * writes them.  It fills ThreadId, ProcessId, TimeStamp (unless
 * WNODE_FLAG_USE_TIMESTAMP), KernelTime and UserTime of the stored record.
 *
 * Errors besides the common ones: ``EBADF`` no session has @logger_id
 * (ERROR_INVALID_HANDLE); ``EINVAL`` a header Size below the header or
 * WNODE_FLAG_TRACED_GUID missing (libetw reports these itself, as
 * Windows' user-mode half does); ``ERANGE`` a MOF_FIELD array of more
 * than %ETW_MAX_MOF_BYTES (ERROR_INVALID_DATA); ``EMSGSIZE`` the record
 * does not fit one buffer of the session or 64 KiB (ERROR_MORE_DATA);
 * ``ENOSPC`` the session had no free buffer and counted the event lost
 * (ERROR_NOT_ENOUGH_MEMORY); ``ENOBUFS`` the same while its pool was below
 * MaximumBuffers, the buffer it needed not allocated (ERROR_OUTOFMEMORY).
 */
struct etw_trace_write {
	__u32 size;
	__u16 kind;
	__u16 flags;
	__u32 logger_id;
	__u32 message_flags;
	__u64 header;
	__u64 data;
	__u32 count;
	__u16 message_number;
	__u16 reserved0;
	__u8 guid[16];
	__u8 parent_guid[16];
	__u32 instance_id;
	__u32 parent_instance_id;
	__u32 reserved[6];
};

/* Session LogFileMode bits understood by the kernel (EVENT_TRACE_*). */
#define ETW_MODE_FILE_SEQUENTIAL	0x00000001
#define ETW_MODE_FILE_CIRCULAR		0x00000002
#define ETW_MODE_FILE_APPEND		0x00000004
#define ETW_MODE_FILE_NEWFILE		0x00000008
#define ETW_MODE_REAL_TIME		0x00000100
#define ETW_MODE_BUFFERING		0x00000400
#define ETW_MODE_INDEPENDENT		0x08000000
/* EVENT_TRACE_SYSTEM_LOGGER_MODE: the session gets kernel events. */
#define ETW_MODE_SYSTEM_LOGGER		0x02000000

/* At most this many system loggers run at once, as on Windows. */
#define ETW_MAX_SYSTEM_LOGGERS		8

/**
 * struct etw_session_info - a session's settings and statistics
 * @logger_id: 1..%ETW_MAX_SESSIONS
 * @log_file_mode: EVENT_TRACE_* LogFileMode bits
 * @buffer_size_kb: buffer size in KiB
 * @min_buffers: MinimumBuffers
 * @max_buffers: MaximumBuffers
 * @flush_timer: FlushTimer, seconds
 * @number_of_buffers: buffers allocated: min_buffers at start, growing
 *	(outside the write path) up to max_buffers while the session needs
 *	more and the module's max_buffer_memory_mb allows
 * @free_buffers: buffers free
 * @buffers_written: buffers handed to a consumer
 * @events_lost: events dropped (no free buffer)
 * @log_buffers_lost: buffers lost on the way to the file
 * @real_time_buffers_lost: in EVENT_TRACE_REAL_TIME_MODE, the buffers
 *	the session could not fill because every buffer was held for the
 *	consumer (counted once per CPU each time it runs out; the events
 *	themselves are counted in @events_lost)
 * @clock_type: 1 (QPC: the module's clock, chosen at load by its "clock"
 *	parameter: the TSC where it is invariant and stable, else
 *	CLOCK_MONOTONIC in nanoseconds; /sys/module/etw/parameters/clock
 *	reads "tsc" or "mono")
 * @enable_flags: EnableFlags (ETW_KFLAG_*) of a %ETW_MODE_SYSTEM_LOGGER
 *	session; 0 for any other
 * @frequency: ticks per second of the session clock (tsc_khz * 1000 for
 *	the TSC, 1000000000 for CLOCK_MONOTONIC)
 * @start_time: session start, FILETIME (100 ns since 1601, UTC)
 * @start_ticks: session clock at @start_time
 * @guid: the session GUID
 * @name: the session name, NUL-terminated UTF-8
 */
struct etw_session_info {
	__u32 logger_id;
	__u32 log_file_mode;
	__u32 buffer_size_kb;
	__u32 min_buffers;
	__u32 max_buffers;
	__u32 flush_timer;
	__u32 number_of_buffers;
	__u32 free_buffers;
	__u32 buffers_written;
	__u32 events_lost;
	__u32 log_buffers_lost;
	__u32 real_time_buffers_lost;
	__u32 clock_type;
	__u32 enable_flags;
	__u64 frequency;
	__u64 start_time;
	__u64 start_ticks;
	__u8 guid[16];
	char name[ETW_MAX_NAME];
};

/**
 * struct etw_session_start - ETW_IOC_SESSION_START (StartTrace)
 * @size: sizeof(struct etw_session_start)
 * @flags: must be 0
 * @info: in: name, guid (zero: the kernel makes one), log_file_mode,
 *	buffer_size_kb (0: 64), min_buffers, max_buffers (0: defaults),
 *	flush_timer; the other fields must be 0.  Out: the session as started.
 * @reserved: must be 0
 * @log_file_name: 0, or the address of the session's log file name:
 *	NUL-terminated, at most %ETW_MAX_LOG_FILE_NAME bytes with the NUL,
 *	not empty (``EINVAL``).  The module keeps it for the control codes
 *	to return and does nothing else with it: the file is written by the
 *	session's logger (ABI 1.4)
 * @reserved1: must be 0
 *
 * Needs CAP_SYS_ADMIN, CAP_PERFMON or the module's control group
 * (``EACCES``).  ``EEXIST``: the name or GUID is taken; ``ENOSPC``: 64
 * sessions run; ``EINVAL``: a bad mode combination or size; ``ENOMEM``.
 */
struct etw_session_start {
	__u32 size;
	__u32 flags;
	struct etw_session_info info;
	__u64 reserved[2];
	__u64 log_file_name;
	__u64 reserved1;
};

#define ETW_SESSION_START_SIZE_VER0	248
#define ETW_SESSION_START_SIZE_VER1	264	/* ABI 1.4: log_file_name */

/* A log file name's bytes, its NUL included (PATH_MAX). */
#define ETW_MAX_LOG_FILE_NAME		4096

/* etw_session_control.code: ControlTrace's codes. */
#define ETW_CONTROL_QUERY	0
#define ETW_CONTROL_STOP	1
#define ETW_CONTROL_UPDATE	2
#define ETW_CONTROL_FLUSH	3
/*
 * Give up a kept session (see struct etw_consumer_attach): the one whose
 * GUID is @info.guid, or if that is zero whose name is @info.name, and
 * with @logger_id not zero only the one that had that id.  What it holds
 * is lost and counted as when its timeout runs out; @info gets its final
 * statistics.  ``ENOENT``: no kept session matches; ``EBUSY``: a logger
 * is attached to it.
 */
#define ETW_CONTROL_DISCARD	4

/**
 * struct etw_session_control - ETW_IOC_SESSION_CONTROL (ControlTrace)
 * @size: sizeof(struct etw_session_control)
 * @flags: must be 0
 * @code: ETW_CONTROL_*
 * @logger_id: the session, or 0 to find it by @info.name
 * @info: out: the session's settings and statistics (for STOP: final);
 *	in for UPDATE: flush_timer and max_buffers (0: unchanged; max_buffers
 *	may only grow, up to %ETW_MAX_SESSION_BUFFERS, else ``EINVAL``)
 * @reserved: must be 0
 * @log_file_name: 0, or the address of @log_file_name_size bytes that
 *	receive the session's log file name, NUL-terminated, if it fits
 *	(ABI 1.4)
 * @log_file_name_size: in: the room at @log_file_name
 * @log_file_name_len: out: the name's bytes with its NUL (0: the session
 *	has no log file name); larger than @log_file_name_size when nothing
 *	was written for want of room
 *
 * ``ENOENT``: no such session (ERROR_WMI_INSTANCE_NOT_FOUND).  ``EFAULT``
 * when the name cannot be written, after the code took effect.
 */
struct etw_session_control {
	__u32 size;
	__u32 flags;
	__u32 code;
	__u32 logger_id;
	struct etw_session_info info;
	__u64 reserved[2];
	__u64 log_file_name;
	__u32 log_file_name_size;
	__u32 log_file_name_len;
};

#define ETW_SESSION_CONTROL_SIZE_VER0	256
#define ETW_SESSION_CONTROL_SIZE_VER1	272	/* ABI 1.4: log_file_name */

/* etw_enable.control_code: EVENT_CONTROL_CODE_*. */
#define ETW_CONTROL_CODE_DISABLE	0
#define ETW_CONTROL_CODE_ENABLE		1
#define ETW_CONTROL_CODE_CAPTURE_STATE	2

/*
 * etw_enable.enable_property: EVENT_ENABLE_PROPERTY_* bits.  The ones that
 * add an extended item add it only to that session's records.
 */
#define ETW_ENABLE_SID			0x001	/* item SID: S-1-22-1-<euid> */
#define ETW_ENABLE_TS_ID		0x002	/* item TS_ID: audit session id, or 0 */
#define ETW_ENABLE_STACK_TRACE		0x004	/* item STACK_TRACE64 (32 for compat) */
#define ETW_ENABLE_PSM_KEY		0x008	/* accepted, no effect (no PSM) */
#define ETW_ENABLE_IGNORE_KEYWORD_0	0x010	/* drop events whose keyword is 0 */
#define ETW_ENABLE_ENABLE_KEYWORD_0	0x040	/* accepted, no effect */
#define ETW_ENABLE_PROCESS_START_KEY	0x080	/* item PROCESS_START_KEY */
#define ETW_ENABLE_EVENT_KEY		0x100	/* item EVENT_KEY */
#define ETW_ENABLE_EXCLUDE_INPRIVATE	0x200	/* drop %ETW_WRITE_F_INPRIVATE events */
#define ETW_ENABLE_SILOS		0x400	/* accepted, no effect (no silos) */
#define ETW_ENABLE_SOURCE_CONTAINER_TRACKING 0x800 /* accepted, no effect */
/* All of Windows' bits but PROVIDER_GROUP (0x020), which has no meaning here. */
#define ETW_ENABLE_PROPERTY_MASK	0xfdf

/* Filter types (EVENT_FILTER_TYPE_*). */
#define ETW_FILTER_TYPE_SCHEMATIZED	0x80000000
#define ETW_FILTER_TYPE_PID		0x80000004
#define ETW_FILTER_TYPE_EVENT_ID	0x80000200
#define ETW_MAX_FILTER_PIDS		8
#define ETW_MAX_FILTER_EVENT_IDS	64
#define ETW_MAX_FILTER_DATA		1024	/* MAX_EVENT_FILTER_DATA_SIZE */
#define ETW_FILTER_HEADER_SIZE		24	/* EVENT_FILTER_HEADER */

/* etw_enable.flags */
#define ETW_ENABLE_F_FILTER	0x1	/* @filter_type/@filter_size/@filter_data are set */
#define ETW_ENABLE_F_PAYLOAD	0x2	/* @payload_data/@payload_size are set (ABI 1.5) */
#define ETW_ENABLE_F_MASK	0x3

/*
 * EVENT_FILTER_TYPE_PAYLOAD (ABI 1.5): the blob TdhAggregatePayloadFilters
 * builds, which the kernel evaluates against each event's payload for the
 * session that gave it.  Windows keeps the format private; this is ours.
 * TdhCreatePayloadFilter resolves field names against the manifest, so
 * the kernel gets offsets and types, never names:
 *
 *   struct etw_pf_header, then @count filters, each 8-byte aligned:
 *   struct etw_pf_event, its @field_count struct etw_pf_field (padded to
 *   8 bytes), its @pred_count struct etw_pf_pred, then the predicates'
 *   string values.
 *
 * A filter names one event (Id and Version).  Its fields are the event's
 * top-level fields from the first to the last one a predicate compares,
 * each with how to skip it; a predicate compares one of them.  An event
 * no filter names is not filtered.  Predicates of a filter are ANDed, or
 * ORed with %ETW_PF_F_ANY (EventMatchANY).  Of the filters naming the
 * event, those with %ETW_PF_F_ALL (EventMatchALLFlags) must all pass and,
 * if there are others, one of the others must pass.
 */
#define ETW_FILTER_TYPE_PAYLOAD		0x80000100
#define ETW_MAX_FILTER_PAYLOAD		4096	/* MAX_EVENT_FILTER_PAYLOAD_SIZE */
#define ETW_PF_MAGIC			0x46507445	/* "EtPF" */
#define ETW_PF_MAX_PREDICATES		8	/* MAX_PAYLOAD_PREDICATES */
#define ETW_PF_MAX_FIELDS		128	/* MAX_EVENT_DATA_DESCRIPTORS */

/**
 * struct etw_pf_header - an aggregated payload filter
 * @magic: %ETW_PF_MAGIC
 * @size: bytes of the whole blob, at most %ETW_MAX_FILTER_PAYLOAD
 * @count: filters that follow (at least 1)
 * @guid: their provider: the enable's GUID
 */
struct etw_pf_header {
	__u32 magic;
	__u16 size;
	__u16 count;
	__u8 guid[16];
};

#define ETW_PF_F_ANY	0x1	/* predicates ORed (EventMatchANY) */
#define ETW_PF_F_ALL	0x2	/* EventMatchALLFlags[i] */

/**
 * struct etw_pf_event - one filter (TdhCreatePayloadFilter)
 * @size: bytes of the filter, this header included, a multiple of 8
 * @id: the event's EVENT_DESCRIPTOR.Id
 * @version: its Version
 * @flags: %ETW_PF_F_ANY, %ETW_PF_F_ALL
 * @field_count: 1..%ETW_PF_MAX_FIELDS
 * @pred_count: 1..%ETW_PF_MAX_PREDICATES
 */
struct etw_pf_event {
	__u16 size;
	__u16 id;
	__u8 version;
	__u8 flags;
	__u8 field_count;
	__u8 pred_count;
};

/* etw_pf_field.kind: how a field's extent is found. */
#define ETW_PF_FIELD_FIXED	0	/* @size bytes */
#define ETW_PF_FIELD_STR16	1	/* UTF-16 up to and with its NUL */
#define ETW_PF_FIELD_STR8	2	/* bytes up to and with their NUL */
#define ETW_PF_FIELD_COUNTED	3	/* a __u16 byte count, then the bytes */

/**
 * struct etw_pf_field - one top-level field of the event's payload
 * @kind: ETW_PF_FIELD_*
 * @reserved: 0
 * @size: with %ETW_PF_FIELD_FIXED, its bytes (1..65535); else 0
 */
struct etw_pf_field {
	__u8 kind;
	__u8 reserved;
	__u16 size;
};

/* etw_pf_pred.op: PAYLOAD_OPERATOR (tdh.h). */
#define ETW_PF_OP_EQ		0
#define ETW_PF_OP_NE		1
#define ETW_PF_OP_LE		2
#define ETW_PF_OP_GT		3
#define ETW_PF_OP_LT		4
#define ETW_PF_OP_GE		5
#define ETW_PF_OP_BETWEEN	6
#define ETW_PF_OP_NOTBETWEEN	7
#define ETW_PF_OP_MODULO	8
#define ETW_PF_OP_CONTAINS	20
#define ETW_PF_OP_DOESNTCONTAIN	21
#define ETW_PF_OP_IS		30
#define ETW_PF_OP_ISNOT		31

/* etw_pf_pred.type: how the field's value is compared. */
#define ETW_PF_T_UINT		0	/* unsigned, the field's 1, 2, 4 or 8 bytes */
#define ETW_PF_T_INT		1	/* signed, the same widths */
#define ETW_PF_T_STR16		2	/* UTF-16, ASCII letters' case ignored */
#define ETW_PF_T_STR8		3	/* bytes, ASCII letters' case ignored */
#define ETW_PF_T_GUID		4	/* 16 bytes */

/**
 * struct etw_pf_pred - one predicate (PAYLOAD_FILTER_PREDICATE)
 * @op: ETW_PF_OP_*: EQ..MODULO for integers, CONTAINS..ISNOT for
 *	strings, IS and ISNOT for GUIDs
 * @type: ETW_PF_T_*
 * @field: the index of its field in the filter's fields
 * @reserved: 0
 * @str_off: strings: the value's offset from the filter's start
 * @str_len: strings: its bytes, no NUL (UTF-16 for %ETW_PF_T_STR16)
 * @value: integers: the value (BETWEEN, NOTBETWEEN: low, high; MODULO:
 *	the divisor, not 0), as a __u64 (signed ones sign-extended); GUIDs:
 *	its 16 bytes
 */
struct etw_pf_pred {
	__u8 op;
	__u8 type;
	__u8 field;
	__u8 reserved;
	__u16 str_off;
	__u16 str_len;
	__u64 value[2];
};

/* etw_enable.timeout_ms: EnableTraceEx2's Timeout. */
#define ETW_TIMEOUT_ASYNC	0		/* do not wait for the callbacks */
#define ETW_TIMEOUT_INFINITE	0xffffffffU	/* wait until every one returned */

/**
 * struct etw_enable - ETW_IOC_ENABLE (EnableTraceEx2)
 * @size: sizeof(struct etw_enable)
 * @flags: %ETW_ENABLE_F_FILTER or 0
 * @logger_id: the session
 * @control_code: ETW_CONTROL_CODE_*
 * @guid: the provider GUID
 * @source_id: SourceId passed to the providers' callbacks
 * @match_any: MatchAnyKeyword (0: all)
 * @match_all: MatchAllKeyword
 * @level: Level (0: all)
 * @reserved0: must be 0
 * @enable_property: EVENT_ENABLE_PROPERTY_* bits
 * @pids: with @pid_count, EVENT_FILTER_TYPE_PID: only these processes
 * @pid_count: 0..%ETW_MAX_FILTER_PIDS
 * @event_id_count: 0..%ETW_MAX_FILTER_EVENT_IDS
 * @event_ids: address of @event_id_count __u16 event ids
 *	(EVENT_FILTER_TYPE_EVENT_ID)
 * @event_ids_enable: 1: only these ids; 0: all but these
 * @timeout_ms: EnableTraceEx2's Timeout: %ETW_TIMEOUT_ASYNC returns once
 *	the enable is applied; otherwise the call also waits, up to this many
 *	milliseconds (%ETW_TIMEOUT_INFINITE: no limit), until every
 *	registration it notified has acknowledged its notification
 *	(%ETW_IOC_NOTIFY_ACK) or is gone
 * @filter_type: with %ETW_ENABLE_F_FILTER, the Type of the filter for the
 *	providers' callbacks: %ETW_FILTER_TYPE_SCHEMATIZED (the data starts
 *	with an EVENT_FILTER_HEADER) or a provider-defined type (bit 31
 *	clear)
 * @filter_size: its size, at most %ETW_MAX_FILTER_DATA (at least
 *	%ETW_FILTER_HEADER_SIZE when schematized)
 * @filter_data: address of the filter data
 * @payload_data: with %ETW_ENABLE_F_PAYLOAD, the address of an
 *	EVENT_FILTER_TYPE_PAYLOAD blob (struct etw_pf_header) for this
 *	session's view of the provider; ``EINVAL`` if it is malformed or
 *	names another provider (ABI 1.5)
 * @payload_size: its size, at most %ETW_MAX_FILTER_PAYLOAD (ABI 1.5)
 * @reserved: must be 0
 *
 * An enable replaces the session's previous filters for the provider; the
 * callback filter is then kept with the enable and delivered with the
 * provider's notifications (&struct etw_notification).  A capture-state
 * request's callback filter is delivered with that request only.
 *
 * ``EINVAL``: @guid is the null GUID, which names no provider (ABI 1.4);
 * ``ENOSPC``: 8 sessions already enable the provider
 * (ERROR_NO_SYSTEM_RESOURCES); ``ENOENT``: no such session;
 * ``ETIMEDOUT``: the enable is applied but a callback did not return in
 * time (ERROR_TIMEOUT); ``EINTR``: a fatal signal ended the wait.
 */
struct etw_enable {
	__u32 size;
	__u32 flags;
	__u32 logger_id;
	__u32 control_code;
	__u8 guid[16];
	__u8 source_id[16];
	__u64 match_any;
	__u64 match_all;
	__u8 level;
	__u8 reserved0[3];
	__u32 enable_property;
	__u32 pids[ETW_MAX_FILTER_PIDS];
	__u32 pid_count;
	__u32 event_id_count;
	__u64 event_ids;
	__u32 event_ids_enable;
	__u32 timeout_ms;
	__u32 filter_type;
	__u32 filter_size;
	__u64 filter_data;
	__u64 payload_data;
	__u32 payload_size;
	__u32 reserved;
};

#define ETW_ENABLE_SIZE_VER0	136

/* etw_notification.flags */
#define ETW_NOTIFY_F_FILTER	0x1	/* FilterData: @filter_type, @filter_size bytes */

/**
 * struct etw_notification - one enable notification, read() from the fd
 * @size: sizeof(struct etw_notification) + @filter_size rounded up to 8:
 *	the offset of the next notification
 * @reg_id: the registration to call back
 * @control_code: IsEnabled: 0, 1 or 2
 * @level: aggregate Level
 * @reserved0: 0
 * @match_any: aggregate MatchAnyKeyword
 * @match_all: aggregate MatchAllKeyword
 * @source_id: SourceId (zero for a pre-registration enable)
 * @logger_id: the session whose action caused it (0 at registration)
 * @filter_size: bytes of filter data right after this struct
 * @filter_type: with %ETW_NOTIFY_F_FILTER, the FilterData's Type
 * @flags: %ETW_NOTIFY_F_FILTER when the callback gets a FilterData (its
 *	size may be 0); otherwise FilterData is NULL
 * @cookie: non-zero when a controller waits for this callback: pass it to
 *	%ETW_IOC_NOTIFY_ACK once the callback returned
 *
 * FilterData follows seed 000: one filter from each session that gave one.
 * Schematized filters are combined into one chain of EVENT_FILTER_HEADER
 * blocks, one per session in logger-id order, each 8-byte aligned, with
 * NextOffset linking them (0 on the last) and InstanceId set to the bit
 * EventWriteEx's Filter uses for that session (1 << (logger_id - 1)).  A
 * provider-defined filter cannot be combined: the notification of an
 * EnableTraceEx2 that gave one carries it; other notifications carry the
 * schematized chain if any session has one, else the provider-defined
 * filter of the session with the lowest logger id, else none.
 *
 * read() returns whole notifications only (``EINVAL`` if the buffer cannot
 * hold the next one; %ETW_NOTIFICATION_MAX_SIZE always can), ``EAGAIN``
 * when none is queued with O_NONBLOCK; poll() reports EPOLLIN when one is
 * queued.
 */
struct etw_notification {
	__u32 size;
	__u32 reg_id;
	__u32 control_code;
	__u8 level;
	__u8 reserved0[3];
	__u64 match_any;
	__u64 match_all;
	__u8 source_id[16];
	__u32 logger_id;
	__u32 filter_size;
	__u32 filter_type;
	__u32 flags;
	__u64 cookie;
};

/* The largest notification: eight sessions' filters. */
#define ETW_NOTIFICATION_MAX_SIZE \
	(sizeof(struct etw_notification) + \
	 ETW_MAX_SESSIONS_PER_PROVIDER * ETW_MAX_FILTER_DATA)

/**
 * struct etw_notify_ack - ETW_IOC_NOTIFY_ACK: a callback has returned
 * @size: sizeof(struct etw_notify_ack)
 * @flags: must be 0
 * @cookie: &etw_notification.cookie of the notification
 * @reserved: must be 0
 *
 * Ends the wait of the EnableTraceEx2 that caused the notification, once
 * every registration it notified acknowledged.  ``ENOENT``: no
 * notification of this file with that cookie awaits an acknowledgment.
 */
struct etw_notify_ack {
	__u32 size;
	__u32 flags;
	__u64 cookie;
	__u64 reserved[2];
};

#define ETW_NOTIFY_ACK_SIZE_VER0	32

/**
 * struct etw_writer_open - ETW_IOC_WRITER_OPEN: a writer fd for one thread
 * @size: sizeof(struct etw_writer_open)
 * @flags: must be 0
 * @fd: out: the new file descriptor, always close-on-exec
 * @reserved: must be 0
 *
 * A writer fd is a file description of its own bound to the same state as
 * the /dev/etw file it was opened from: ETW_IOC_WRITE and
 * ETW_IOC_WRITE_SHORT through it write for that file's registrations,
 * exactly as on the file itself, and every other ioctl is ``ENOTTY``.  A
 * thread writing through a writer fd of its own shares no reference count
 * with other threads' writes (every ioctl takes one on its file in a
 * multithreaded process).  The registrations
 * stay the /dev/etw file's: they go when it is released, and a write
 * through a writer fd after that fails with ``EBADF``, as a stale handle.
 * Any process may open one; it costs a file descriptor (``EMFILE``).
 */
struct etw_writer_open {
	__u32 size;
	__u32 flags;
	__s32 fd;
	__u32 reserved;
};

#define ETW_WRITER_OPEN_SIZE_VER0	16

/**
 * struct etw_buffer_read - ETW_IOC_BUFFER_READ: take the next full buffer
 * @size: sizeof(struct etw_buffer_read)
 * @flags: must be 0
 * @logger_id: the session
 * @length: length of the memory at @buf (at least the session buffer size)
 * @buf: where the ETL buffer (header and records, 0xFF fill) is copied
 * @cpu: out: the processor the buffer belongs to
 * @reserved0: must be 0
 * @sequence: out: the buffer's SequenceNumber
 * @reserved: must be 0
 *
 * ``EAGAIN``: no full buffer is ready (FLUSH hands over partial ones);
 * ``EBUSY``: an mmap consumer is attached (it gets the buffers).
 */
struct etw_buffer_read {
	__u32 size;
	__u32 flags;
	__u32 logger_id;
	__u32 length;
	__u64 buf;
	__u32 cpu;
	__u32 reserved0;
	__u64 sequence;
	__u64 reserved[2];
};

#define ETW_BUFFER_READ_SIZE_VER0	56

/* EventSetInformation classes (EVENT_INFO_CLASS) the module takes. */
#define ETW_INFO_SET_TRAITS		2	/* EventProviderSetTraits */
#define ETW_INFO_USE_DESCRIPTOR_TYPE	3	/* EventProviderUseDescriptorType */

/**
 * struct etw_provider_set_info - ETW_IOC_PROVIDER_SET_INFO (EventSetInformation)
 * @size: sizeof(struct etw_provider_set_info)
 * @flags: must be 0
 * @reg_id: the registration
 * @info_class: %ETW_INFO_SET_TRAITS or %ETW_INFO_USE_DESCRIPTOR_TYPE
 * @data: address of the information
 * @length: its length in bytes
 * @reserved0: must be 0
 * @reserved: must be 0
 *
 * %ETW_INFO_SET_TRAITS: @data is a provider traits blob: a __u16 total
 * size (3 or more, at most @length), the provider name NUL-terminated,
 * then traits, each a __u16 size (3 or more) counting itself, a __u8 type
 * and its data, filling the total exactly.  The registration keeps it (once:
 * a second call is ``EEXIST``), every event it writes carries it as a
 * PROV_TRAITS extended item unless the write brings its own
 * %ETW_DATA_DESC_PROVIDER_METADATA, and descriptor types are honoured from
 * then on.  %ETW_INFO_USE_DESCRIPTOR_TYPE: @data is one byte, non-zero to
 * honour descriptor types, zero to ignore them again.
 *
 * ``EINVAL``: a malformed blob or a wrong @length; ``EOPNOTSUPP``: another
 * class; ``EBADF``: unknown @reg_id.
 */
struct etw_provider_set_info {
	__u32 size;
	__u32 flags;
	__u32 reg_id;
	__u32 info_class;
	__u64 data;
	__u32 length;
	__u32 reserved0;
	__u64 reserved[2];
};

#define ETW_PROVIDER_SET_INFO_SIZE_VER0	48

/**
 * DOC: The mmap consumer protocol
 *
 * A consumer (the logger process that writes a session's file, or a
 * real-time consumer) attaches to a session with ETW_IOC_CONSUMER_ATTACH on
 * /dev/etw and gets a new file descriptor, the *consumer fd*.  One consumer
 * may be attached to a session at a time (``EBUSY``), except that a
 * session in real-time mode takes *copy consumers* too (see below); closing
 * the consumer fd (or the process dying) detaches it.  Attaching needs the rights that
 * controlling sessions needs (CAP_SYS_ADMIN, CAP_PERFMON or the module's
 * control group, else ``EACCES``): the fd is the capability to read the
 * session's buffers, like a perf event fd.
 *
 * The consumer fd has three mappings, at the offsets ETW_IOC_CONSUMER_ATTACH
 * returns (the ETW_CONSUMER_MMAP_* constants):
 *
 * - the *control page* (one page, ``MAP_SHARED``, read-write): &struct
 *   etw_consumer_ctrl, the only memory the consumer writes;
 * - the *ring* (read-only): &struct etw_consumer_ring, the kernel's count of
 *   published buffers and the slot number of each;
 * - the *buffers* (read-only): slot n is the ETL buffer at byte n *
 *   @buffer_stride of the mapping, @buffer_size bytes long (the stride is
 *   the size rounded up to a page).  A slot that holds no buffer yet (the
 *   pool grows) reads as ``SIGBUS``; published slots always hold one.
 *
 * Any other offset, a size beyond a mapping, a writable mapping of the ring
 * or the buffers, or a private mapping of the control page is ``EINVAL``
 * (``EPERM`` for write access to a read-only mapping).
 *
 * The ring is a sequence of 64-bit counters that never wrap in practice:
 * entry i (i = 0, 1, 2, ...) is ``slot[i & (ring_size - 1)]``.  A buffer is
 * published exactly once, in SequenceNumber order, when it is full (or
 * flushed); the ring is large enough for every buffer the session can own,
 * so it never overflows.
 *
 * Memory ordering:
 *
 * - The kernel fills the buffer and its ring entry, then stores @head with
 *   release semantics.  The consumer loads @head with acquire semantics;
 *   every entry below it, and the buffer it names, is then complete and
 *   does not change until the consumer gives it back.
 * - The consumer gives buffers back in order by storing @tail in the
 *   control page with release semantics, after it has finished reading
 *   them (written them to its file).  The kernel loads @tail with acquire
 *   semantics before it reuses a buffer.  A @tail below the previous one or
 *   above @head is ignored.
 * - poll() on the consumer fd reports ``EPOLLIN`` while @head differs from
 *   @tail, and ``EPOLLHUP`` once the session has stopped and the consumer
 *   has given back everything (after the flags word of the ring has
 *   %ETW_RING_STOPPED, stored with release after the last @head).
 *
 * Nothing the consumer writes is trusted beyond those rules: the kernel
 * keeps its own copy of what it published, so a consumer can only lose its
 * own data.  Buffers published to a consumer that detaches without giving
 * them back return to the session, ahead of newer ones, and are published
 * again to the next consumer: a logger that is killed and restarted sees
 * them once more (it skips those whose SequenceNumber its file already
 * holds), so nothing the kernel still holds is lost.
 *
 * A stopped session stays readable through an attached consumer: STOP
 * hands over every CPU's partial buffer (only the last one carries
 * FLUSH_MARKER), publishes them and sets %ETW_RING_STOPPED; the session's
 * memory lives until the consumer fd is closed.  If the consumer attached
 * with %ETW_CONSUMER_F_LOGGER, ETW_CONTROL_STOP waits (killable, at most
 * 60 seconds: the module parameter stop_wait_s) until it has detached, so
 * that a StopTrace returns after the file is complete.
 *
 * A logger that may be restarted sets %ETW_CTRL_KEEP in the @flags of its
 * control page (once its file is open: a logger that gives up on purpose
 * clears it, or never sets it).  A session that stops while a logger
 * attached with %ETW_CONSUMER_F_LOGGER is attached, or after one detached
 * with %ETW_CTRL_KEEP set, is *kept*: its name and logger id are free at
 * once for a new session, but its buffers (the full ones, the partial ones
 * STOP flushed) and its statistics stay until a first consumer detaches
 * having given back everything after the stop.  The attached logger's
 * word counts when it detaches, not when STOP comes (a logger that has
 * just attached may not have given it yet).  A logger that dies with
 * %ETW_CTRL_KEEP before the session is drained (or that is not attached
 * when STOP comes, having detached with it) leaves the session kept; the
 * next logger attaches to it with the session's GUID in @guid and its old
 * logger id, drains it and finishes the file.  A logger that detaches
 * from a kept session without %ETW_CTRL_KEEP, not having drained it, ends
 * the keeping: what is left is discarded.  An attach and a STOP are
 * ordered: a logger attached before STOP counts as attached, one that
 * attaches after it finds the session only if it was kept.  ETW_CONTROL_STOP returns when the
 * kept session is drained, with the final statistics.  A kept session
 * with no consumer attached for 10 seconds (the module parameter
 * keep_timeout_s), or given up with %ETW_CONTROL_DISCARD, is discarded:
 * its buffers count in LogBuffersLost and their events in EventsLost of
 * what STOP returns.  Kept sessions keep their buffer memory (counted in
 * max_buffer_memory_mb) and hold the module; at most %ETW_MAX_SESSIONS
 * are kept at a time, beyond that a stopped session's buffers go with its
 * consumer.
 *
 * A real-time session takes up to %ETW_MAX_REALTIME_CONSUMERS consumers.
 * Those beside the first are *copy consumers* (a real-time consumer of a
 * file session beside its logger, as on Windows, or another real-time
 * consumer; never one attached with %ETW_CONSUMER_F_LOGGER): each gets
 * copies of the buffers output from then on, in slots of its own: its
 * buffer mapping has @nr_slots copy slots (a power of two, at most
 * MaximumBuffers, 64 and 16 MiB), and the same rules apply.  None holds
 * up the first consumer or another: a buffer output while all of one's
 * slots are taken is not copied for it and counts once in
 * RealTimeBuffersLost.  One more is ``EBUSY``.
 *
 * Without a consumer, ETW_IOC_BUFFER_READ copies ready buffers out one by
 * one (``EBUSY`` while a consumer is attached).
 */

/* etw_consumer_attach.flags */
#define ETW_CONSUMER_F_CLOEXEC	0x1	/* the new fd is O_CLOEXEC */
#define ETW_CONSUMER_F_LOGGER	0x2	/* STOP waits for this consumer to detach */
#define ETW_CONSUMER_F_MASK	0x3

/* Consumers of one real-time session at a time, the first included. */
#define ETW_MAX_REALTIME_CONSUMERS	8

/* mmap offsets of a consumer fd (not of /dev/etw itself). */
#define ETW_CONSUMER_MMAP_CTRL		0x0ULL
#define ETW_CONSUMER_MMAP_RING		0x100000ULL
#define ETW_CONSUMER_MMAP_BUFFERS	0x10000000ULL

/* The most buffers one session may own: the ring's and the slots' bound. */
#define ETW_MAX_SESSION_BUFFERS		65536

/**
 * struct etw_consumer_attach - ETW_IOC_CONSUMER_ATTACH: become a session's
 *	consumer
 * @size: sizeof(struct etw_consumer_attach)
 * @flags: ETW_CONSUMER_F_*
 * @logger_id: the session
 * @fd: out: the consumer fd
 * @buffer_size: out: bytes of one ETL buffer
 * @buffer_stride: out: distance between slots in the buffer mapping
 * @nr_slots: out: slots in the buffer mapping (the session's buffer bound;
 *	a copy consumer's copy slots)
 * @ring_size: out: entries of the ring, a power of two >= @nr_slots
 * @ctrl_offset: out: %ETW_CONSUMER_MMAP_CTRL
 * @ctrl_bytes: out: length of the control page mapping
 * @ring_bytes: out: length of the ring mapping
 * @ring_offset: out: %ETW_CONSUMER_MMAP_RING
 * @buffers_offset: out: %ETW_CONSUMER_MMAP_BUFFERS
 * @buffers_bytes: out: length of the buffer mapping, @nr_slots * @buffer_stride
 * @guid: all zero, or the session's GUID: then the session @logger_id must
 *	have it, and with %ETW_CONSUMER_F_LOGGER a stopped session kept for
 *	its logger (%ETW_CTRL_KEEP) is found too, first
 *
 * ``ENOENT``: no such session; ``EBUSY``: a consumer is attached (in
 *	real-time mode: %ETW_MAX_REALTIME_CONSUMERS, or one if the caller
 *	asks to be a logger);
 * ``EACCES``: not privileged.  Ready buffers the session holds are
 * published to the new consumer at once (a copy consumer gets copies of what
 * is output after it attached).
 */
struct etw_consumer_attach {
	__u32 size;
	__u32 flags;
	__u32 logger_id;
	__s32 fd;
	__u32 buffer_size;
	__u32 buffer_stride;
	__u32 nr_slots;
	__u32 ring_size;
	__u64 ctrl_offset;
	__u64 ctrl_bytes;
	__u64 ring_offset;
	__u64 ring_bytes;
	__u64 buffers_offset;
	__u64 buffers_bytes;
	__u8 guid[16];
};

#define ETW_CONSUMER_ATTACH_SIZE_VER0	96

/**
 * struct etw_consumer_ctrl - the control page, written by the consumer
 * @tail: ring entries the consumer has finished with (store-release)
 * @log_buffers_lost: buffers the consumer could not write to its file
 *	(reported by QUERY and STOP as LogBuffersLost)
 * @flags: ETW_CTRL_* (read by the kernel at STOP and at detach)
 * @watermark: ready buffers the consumer wants before it is woken; 0 (the
 *	page as it comes) wakes it for each (see "The wake-up watermark")
 * @reserved0: 0
 * @reserved: 0
 */
struct etw_consumer_ctrl {
	__u64 tail;
	__u32 log_buffers_lost;
	__u32 flags;
	__u32 watermark;
	__u32 reserved0;
	__u64 reserved[5];
};

/**
 * DOC: The wake-up watermark
 *
 * A consumer that writes buffers to a device pays per request (a wake-up,
 * poll(), the write system call, the device's request), not per byte: it
 * asks to be woken for several buffers at once by storing a count in the
 * @watermark of its control page, as ftrace's ``buffer_percent`` does.
 * poll() then reports ``EPOLLIN`` (and a buffer's publication wakes a
 * sleeping poll()) only when one of these holds:
 *
 * - at least @watermark published entries are beyond @tail;
 * - the session runs low on buffers, while at least one entry is beyond
 *   @tail: those its writers can take now (free, or given back) are a
 *   quarter of MaximumBuffers or fewer, or no more than one per online
 *   CPU (the *reserve*; the pool grows, up to MaximumBuffers, to keep more
 *   than that free); for a copy consumer, a quarter of its copy slots or
 *   fewer are free.  A consumer that waits for its watermark does not
 *   hold buffers the writers need;
 * - an entry published by a flush is beyond @tail: the FlushTimer,
 *   ETW_CONTROL_FLUSH, ETW_CONTROL_STOP, a buffering-mode ring's output,
 *   and the buffers already ready when the consumer attached.  Those, and
 *   every full buffer published before them, are delivered as promptly as
 *   without a watermark.
 *
 * 0 wakes the consumer for every buffer (ABI 1.0's behaviour), and so does
 * a @tail the kernel ignores (see above).  No value is refused: one beyond
 * what can be ready at once (MaximumBuffers, or a copy consumer's copy
 * slots) means "when low or flushed", as the rules above say.
 * ``EPOLLHUP`` is unchanged.
 *
 * Memory ordering: the kernel reads @watermark with READ_ONCE() each time
 * it publishes a buffer and in each poll(); the consumer stores it
 * (relaxed) before the poll() it applies to.  A change made while another
 * thread sleeps in poll() applies from the next buffer published.
 *
 * The watermark is a count the kernel never rescales.  A consumer that
 * derives it from the pool (the logger: a quarter of MaximumBuffers)
 * follows ETW_CONTROL_UPDATE by re-reading the ring's @max_buffers when
 * it is woken and storing the new count: a raised MaximumBuffers wakes it
 * no later than its old watermark did.  A watermark the pool cannot reach
 * (the memory cap stops the pool below MaximumBuffers) costs nothing: the
 * consumer is woken when the writers run low, as above.
 */

/* etw_consumer_ctrl.flags */
#define ETW_CTRL_KEEP	0x1	/* a logger: keep the stopped session for the next */

/* etw_consumer_ring.flags */
#define ETW_RING_STOPPED	0x1	/* the session stopped: no more buffers */

/**
 * struct etw_consumer_ring - the ring, read-only, written by the kernel
 * @head: ring entries published (store-release)
 * @ring_size: entries in @slot, a power of two
 * @flags: ETW_RING_* (store-release)
 * @max_buffers: the session's MaximumBuffers now: set at attach, raised by
 *	ETW_CONTROL_UPDATE (stored with WRITE_ONCE(), read relaxed; 0 from
 *	a module that predates it).  A consumer whose watermark is a share
 *	of the pool re-reads it when woken (see "The wake-up watermark").
 * @reserved0: 0
 * @reserved: 0
 * @slot: the buffer slot of each entry
 */
struct etw_consumer_ring {
	__u64 head;
	__u32 ring_size;
	__u32 flags;
	__u32 max_buffers;
	__u32 reserved0;
	__u64 reserved[5];
	__u32 slot[];
};

/**
 * struct etw_consumer_query - ETW_IOC_CONSUMER_QUERY, on a consumer fd
 * @size: sizeof(struct etw_consumer_query)
 * @flags: must be 0
 * @info: out: the session's settings and statistics, final once stopped
 * @stopped: out: 1 once the session has stopped
 * @reserved0: must be 0
 * @reserved: must be 0
 *
 * Works after the session stopped (ETW_IOC_SESSION_CONTROL no longer finds
 * it then): the logger reads the final statistics for its file header here.
 */
struct etw_consumer_query {
	__u32 size;
	__u32 flags;
	struct etw_session_info info;
	__u32 stopped;
	__u32 reserved0;
	__u64 reserved[2];
};

#define ETW_CONSUMER_QUERY_SIZE_VER0	256

/*
 * EnableFlags of a system logger (EVENT_TRACE_FLAG_*).  Those Linux has a
 * source for record events (Documentation/kernel-logger.rst); every other
 * bit is accepted, kept and reported, and records nothing.
 */
#define ETW_KFLAG_PROCESS		0x00000001
#define ETW_KFLAG_THREAD		0x00000002
#define ETW_KFLAG_IMAGE_LOAD		0x00000004
#define ETW_KFLAG_CSWITCH		0x00000010
#define ETW_KFLAG_DISK_IO		0x00000100
#define ETW_KFLAG_DISK_FILE_IO		0x00000200	/* (ABI 1.7) */
#define ETW_KFLAG_DISK_IO_INIT		0x00000400
#define ETW_KFLAG_DISPATCHER		0x00000800
#define ETW_KFLAG_PROFILE		0x01000000
#define ETW_KFLAG_FILE_IO		0x02000000
#define ETW_KFLAG_FILE_IO_INIT		0x04000000

/* etw_trace_info.info_class: TRACE_INFO_CLASS values the kernel keeps. */
#define ETW_TRACE_STACK_TRACING_INFO	3	/* CLASSIC_EVENT_ID[] */
#define ETW_TRACE_ENABLE_FLAGS_INFO	4	/* PERFINFO_GROUPMASK: u32[8] */
#define ETW_TRACE_PROFILE_INTERVAL_INFO	5	/* TRACE_PROFILE_INTERVAL */
/*
 * etw for Linux's own class, where Windows has none (ABI 1.6): u32 Size,
 * the bytes of user stack copied with each sampled stack, 0 for none.
 */
#define ETW_TRACE_STACK_COPY_INFO	128

/* Its default (etw's --stack-copy) and largest Size. */
#define ETW_STACK_COPY_DEFAULT		8192
#define ETW_STACK_COPY_MAX		32768

/* Most CLASSIC_EVENT_IDs of TraceStackTracingInfo, as Windows. */
#define ETW_MAX_STACK_EVENT_IDS		256
/* CLASSIC_EVENT_ID: GUID EventGuid; UCHAR Type; UCHAR Reserved[7]. */
#define ETW_CLASSIC_EVENT_ID_SIZE	24
/* PERFINFO_GROUPMASK: 8 ULONG masks; Masks[0] holds the EnableFlags. */
#define ETW_GROUP_MASKS			8

/**
 * struct etw_trace_info - ETW_IOC_TRACE_SET_INFO / ETW_IOC_TRACE_QUERY_INFO
 *	(TraceSetInformation, TraceQueryInformation)
 * @size: sizeof(struct etw_trace_info)
 * @flags: must be 0
 * @logger_id: the session (0 for %ETW_TRACE_PROFILE_INTERVAL_INFO, which
 *	is machine-wide)
 * @info_class: ETW_TRACE_*_INFO
 * @data: user address of the class's data (in for SET, out for QUERY)
 * @length: bytes at @data; QUERY: out, the bytes the answer takes
 * @reserved0: must be 0
 * @reserved: must be 0
 *
 * The session must be a system logger (``EINVAL`` otherwise, as Windows'
 * ERROR_INVALID_PARAMETER).  STACK_TRACING: @length a multiple of 24, at
 * most 256 entries, 0 clears the list; an entry whose GUID is not a
 * kernel group's is ignored, as on Windows.  ENABLE_FLAGS: 4 to 32 bytes
 * (``EMSGSIZE`` below, ERROR_BAD_LENGTH).  PROFILE_INTERVAL: 8 bytes,
 * Source 0 (the timer; else ``EOPNOTSUPP``), Interval in 100 ns units,
 * clamped to 1221..10000000 as Windows clamps it.  STACK_COPY: 4 bytes,
 * Size rounded up to 8, at most %ETW_STACK_COPY_MAX (``EINVAL`` above);
 * it applies to the samples whose stacks STACK_TRACING asks for
 * (Documentation/stacks.rst has the record).  Needs the privilege of
 * a session start (``EACCES``); ``ENOENT``: no such session.
 */
struct etw_trace_info {
	__u32 size;
	__u32 flags;
	__u32 logger_id;
	__u32 info_class;
	__u64 data;
	__u32 length;
	__u32 reserved0;
	__u64 reserved[2];
};

#define ETW_TRACE_INFO_SIZE_VER0	48
/**
 * DOC: The provider list (EnumerateTraceGuids, EnumerateTraceGuidsEx)
 *
 * ETW_IOC_PROVIDER_LIST lists every provider GUID the module knows (one
 * that a process registered or a session enabled, or both) and
 * ETW_IOC_PROVIDER_INFO one provider's registrations and enables.  Both
 * fill a caller's array of at most @max entries and say how many there
 * are in all (@total), so a caller whose array was too small can ask again
 * with a larger one; a snapshot, taken under the registry's lock.
 * ETW_PROVIDER_LIST_MAX entries at most are filled by one call.
 */
#define ETW_PROVIDER_LIST_MAX		65536

/**
 * struct etw_provider_entry - one provider in ETW_IOC_PROVIDER_LIST
 * @guid: the provider GUID, in Windows' byte order
 * @nr_regs: its registrations, all processes together
 * @nr_enables: the sessions that enable it
 * @flags: ETW_PROVIDER_ENTRY_F_*
 * @reserved: 0
 */
struct etw_provider_entry {
	__u8 guid[16];
	__u32 nr_regs;
	__u32 nr_enables;
	__u32 flags;
	__u32 reserved;
};

/* At least one registration is classic (RegisterTraceGuids). */
#define ETW_PROVIDER_ENTRY_F_CLASSIC	0x1

/**
 * struct etw_provider_list - ETW_IOC_PROVIDER_LIST
 * @size: sizeof(struct etw_provider_list)
 * @flags: must be 0
 * @entries: user pointer to @max struct etw_provider_entry
 * @max: in: room at @entries
 * @filled: out: entries written, at most @max and ETW_PROVIDER_LIST_MAX
 * @total: out: providers known
 * @reserved: must be 0
 */
struct etw_provider_list {
	__u32 size;
	__u32 flags;
	__u64 entries;
	__u32 max;
	__u32 filled;
	__u32 total;
	__u32 reserved;
};

#define ETW_PROVIDER_LIST_SIZE_VER0	32

/**
 * struct etw_provider_reg - one registration in ETW_IOC_PROVIDER_INFO
 * @pid: the registering process, in the caller's pid namespace (0 when
 *	not visible there)
 * @flags: ETW_PROVIDER_ENTRY_F_CLASSIC for a RegisterTraceGuids
 */
struct etw_provider_reg {
	__u32 pid;
	__u32 flags;
};

/**
 * struct etw_provider_enable - one session's enable in ETW_IOC_PROVIDER_INFO
 * @logger_id: the session
 * @level: the level as the controller gave it
 * @reserved0: 0
 * @enable_property: EVENT_ENABLE_PROPERTY_* of the enable
 * @reserved1: 0
 * @match_any: MatchAnyKeyword as the controller gave it
 * @match_all: MatchAllKeyword
 */
struct etw_provider_enable {
	__u32 logger_id;
	__u8 level;
	__u8 reserved0[3];
	__u32 enable_property;
	__u32 reserved1;
	__u64 match_any;
	__u64 match_all;
};

/**
 * struct etw_provider_info - ETW_IOC_PROVIDER_INFO
 * @size: sizeof(struct etw_provider_info)
 * @flags: must be 0
 * @guid: in: the provider
 * @regs: user pointer to @max_regs struct etw_provider_reg
 * @enables: user pointer to @max_enables struct etw_provider_enable
 * @max_regs: in: room at @regs
 * @nr_regs: out: registrations (those beyond @max_regs not written)
 * @max_enables: in: room at @enables
 * @nr_enables: out: enables (at most ETW_MAX_SESSIONS_PER_PROVIDER)
 *
 * -ENOENT when the module knows no provider @guid.
 */
struct etw_provider_info {
	__u32 size;
	__u32 flags;
	__u8 guid[16];
	__u64 regs;
	__u64 enables;
	__u32 max_regs;
	__u32 nr_regs;
	__u32 max_enables;
	__u32 nr_enables;
};

#define ETW_PROVIDER_INFO_SIZE_VER0	56

#define ETW_IOC_PROVIDER_REGISTER	_IO(ETW_IOC_MAGIC, 0x01)
#define ETW_IOC_PROVIDER_UNREGISTER	_IO(ETW_IOC_MAGIC, 0x02)
#define ETW_IOC_WRITE			_IO(ETW_IOC_MAGIC, 0x03)
#define ETW_IOC_SESSION_START		_IO(ETW_IOC_MAGIC, 0x04)
#define ETW_IOC_SESSION_CONTROL		_IO(ETW_IOC_MAGIC, 0x05)
#define ETW_IOC_ENABLE			_IO(ETW_IOC_MAGIC, 0x06)
#define ETW_IOC_BUFFER_READ		_IO(ETW_IOC_MAGIC, 0x07)
#define ETW_IOC_CONSUMER_ATTACH		_IO(ETW_IOC_MAGIC, 0x08)	/* on /dev/etw */
#define ETW_IOC_CONSUMER_QUERY		_IO(ETW_IOC_MAGIC, 0x09)	/* on a consumer fd */
#define ETW_IOC_PROVIDER_SET_INFO	_IO(ETW_IOC_MAGIC, 0x10)
#define ETW_IOC_WRITER_OPEN		_IO(ETW_IOC_MAGIC, 0x11)	/* on /dev/etw */
#define ETW_IOC_NOTIFY_ACK		_IO(ETW_IOC_MAGIC, 0x14)
#define ETW_IOC_WRITE_SHORT		_IO(ETW_IOC_MAGIC, 0x15)
#define ETW_IOC_TRACE_SET_INFO		_IO(ETW_IOC_MAGIC, 0x16)
#define ETW_IOC_TRACE_QUERY_INFO	_IO(ETW_IOC_MAGIC, 0x17)
#define ETW_IOC_PROVIDER_LIST		_IO(ETW_IOC_MAGIC, 0x22)
#define ETW_IOC_PROVIDER_INFO		_IO(ETW_IOC_MAGIC, 0x23)

#endif /* _UAPI_LINUX_ETW_H */
