/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the fuzzer (fuzz_test.c) knows about /dev/etw: one line per ioctl
 * and one line per mmap offset of uapi/linux/etw.h.  Adding an ioctl or an
 * offset to the uapi means adding its line here; the fuzzer fails on an
 * ioctl number that answers without being listed.
 *
 * FUZZ_IOCTL(cmd, struct, first published size, who, seed): on /dev/etw;
 * FUZZ_CONSUMER_IOCTL(same): on a consumer fd
 *	who: FUZZ_ANYONE (no privilege needed) or FUZZ_CONTROL (an
 *	unprivileged caller must never succeed);
 *	seed: a function that fills a valid call (fuzz_seeds.h), or NULL to
 *	start from a zeroed struct with only its size set.
 * FUZZ_MMAP(offset, length, who, prot): of /dev/etw;
 * FUZZ_CONSUMER_MMAP(offset, who, prot): of a consumer fd, as long as
 *	ETW_IOC_CONSUMER_ATTACH said
 *	prot: the most the mapping may be given (PROT_READ: read-only), and
 *	FUZZ_SPARSE if pages not populated yet read as SIGBUS.
 * fuzz_out_ptrs: every pointer field the kernel writes through (besides
 *	the struct itself); the fuzzer aims those only at its own scratch
 *	memory (fuzz_output_ok) and never races on them.
 */
#ifndef ETW_FUZZ_IOCTLS_H
#define ETW_FUZZ_IOCTLS_H

#include <sys/mman.h>

#include "fuzz_seeds.h"

static const struct fuzz_ioctl fuzz_ioctls[] = {
	FUZZ_IOCTL(ETW_IOC_VERSION, struct etw_version, ETW_VERSION_SIZE_VER0, FUZZ_ANYONE, NULL),
	FUZZ_IOCTL(ETW_IOC_PROVIDER_REGISTER, struct etw_provider_register, ETW_PROVIDER_REGISTER_SIZE_VER0, FUZZ_ANYONE, seed_register),
	FUZZ_IOCTL(ETW_IOC_PROVIDER_UNREGISTER, struct etw_provider_unregister, ETW_PROVIDER_UNREGISTER_SIZE_VER0, FUZZ_ANYONE, seed_unregister),
	FUZZ_IOCTL(ETW_IOC_WRITE, struct etw_event_write, ETW_EVENT_WRITE_SIZE_VER0, FUZZ_ANYONE, seed_write),
	FUZZ_IOCTL(ETW_IOC_SESSION_START, struct etw_session_start, ETW_SESSION_START_SIZE_VER0, FUZZ_CONTROL, seed_session_start),
	FUZZ_IOCTL(ETW_IOC_SESSION_CONTROL, struct etw_session_control, ETW_SESSION_CONTROL_SIZE_VER0, FUZZ_CONTROL, seed_session_control),
	FUZZ_IOCTL(ETW_IOC_ENABLE, struct etw_enable, ETW_ENABLE_SIZE_VER0, FUZZ_CONTROL, seed_enable),
	FUZZ_IOCTL(ETW_IOC_BUFFER_READ, struct etw_buffer_read, ETW_BUFFER_READ_SIZE_VER0, FUZZ_CONTROL, seed_buffer_read),
	FUZZ_IOCTL(ETW_IOC_PROVIDER_SET_INFO, struct etw_provider_set_info, ETW_PROVIDER_SET_INFO_SIZE_VER0, FUZZ_ANYONE, seed_set_info),
	FUZZ_IOCTL(ETW_IOC_NOTIFY_ACK, struct etw_notify_ack, ETW_NOTIFY_ACK_SIZE_VER0, FUZZ_ANYONE, seed_notify_ack),
	FUZZ_IOCTL(ETW_IOC_WRITE_SHORT, struct etw_event_write_short, ETW_EVENT_WRITE_SHORT_SIZE_VER0, FUZZ_ANYONE, seed_write_short),
	FUZZ_IOCTL(ETW_IOC_CONSUMER_ATTACH, struct etw_consumer_attach, ETW_CONSUMER_ATTACH_SIZE_VER0, FUZZ_CONTROL, seed_consumer_attach),
	FUZZ_IOCTL(ETW_IOC_WRITER_OPEN, struct etw_writer_open, ETW_WRITER_OPEN_SIZE_VER0, FUZZ_ANYONE, NULL),
	FUZZ_IOCTL(ETW_IOC_TRACE_SET_INFO, struct etw_trace_info, ETW_TRACE_INFO_SIZE_VER0, FUZZ_CONTROL, seed_trace_info),
	FUZZ_IOCTL(ETW_IOC_TRACE_QUERY_INFO, struct etw_trace_info, ETW_TRACE_INFO_SIZE_VER0, FUZZ_CONTROL, seed_trace_info),
	FUZZ_IOCTL(ETW_IOC_PROVIDER_LIST, struct etw_provider_list, ETW_PROVIDER_LIST_SIZE_VER0, FUZZ_CONTROL, seed_provider_list),
	FUZZ_IOCTL(ETW_IOC_PROVIDER_INFO, struct etw_provider_info, ETW_PROVIDER_INFO_SIZE_VER0, FUZZ_CONTROL, seed_provider_info),
	FUZZ_CONSUMER_IOCTL(ETW_IOC_CONSUMER_QUERY, struct etw_consumer_query, ETW_CONSUMER_QUERY_SIZE_VER0, FUZZ_CONTROL, NULL),
};

static const struct fuzz_mmap fuzz_mmaps[] = {
	FUZZ_MMAP(ETW_MMAP_STATE, ETW_MMAP_STATE_SIZE, FUZZ_ANYONE, PROT_READ),
	FUZZ_CONSUMER_MMAP(ETW_CONSUMER_MMAP_CTRL, FUZZ_CONTROL, PROT_READ | PROT_WRITE),
	FUZZ_CONSUMER_MMAP(ETW_CONSUMER_MMAP_RING, FUZZ_CONTROL, PROT_READ),
	FUZZ_CONSUMER_MMAP(ETW_CONSUMER_MMAP_BUFFERS, FUZZ_CONTROL, PROT_READ | FUZZ_SPARSE),
};

static const struct fuzz_out_ptr fuzz_out_ptrs[] = {
	{ ETW_IOC_BUFFER_READ, offsetof(struct etw_buffer_read, buf) },
	{ ETW_IOC_TRACE_QUERY_INFO, offsetof(struct etw_trace_info, data) },
	{ ETW_IOC_PROVIDER_LIST, offsetof(struct etw_provider_list, entries) },
	{ ETW_IOC_PROVIDER_INFO, offsetof(struct etw_provider_info, regs) },
	{ ETW_IOC_PROVIDER_INFO, offsetof(struct etw_provider_info, enables) },
};

#endif /* ETW_FUZZ_IOCTLS_H */
