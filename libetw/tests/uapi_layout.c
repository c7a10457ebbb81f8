// SPDX-License-Identifier: GPL-2.0
/*
 * The uapi structs have one layout for 32- and 64-bit processes: the same
 * size, the same offsets, no implicit padding.  Built with -m64 and -m32;
 * the static asserts fail the build, the tests report the same at run time.
 */
#include <stddef.h>
#include <linux/etw.h>

#include "kselftest_harness.h"

#define CHECK_OFF(type, field, off) \
	_Static_assert(offsetof(type, field) == (off), #type "." #field)

_Static_assert(sizeof(struct etw_version) == 64, "etw_version size");
_Static_assert(sizeof(struct etw_version) == ETW_VERSION_SIZE_VER0, "etw_version VER0");
CHECK_OFF(struct etw_version, size, 0);
CHECK_OFF(struct etw_version, flags, 4);
CHECK_OFF(struct etw_version, abi_major, 8);
CHECK_OFF(struct etw_version, abi_minor, 12);
CHECK_OFF(struct etw_version, features, 16);
CHECK_OFF(struct etw_version, max_sessions, 24);
CHECK_OFF(struct etw_version, max_sessions_per_provider, 28);
CHECK_OFF(struct etw_version, reserved, 32);

/* EnableTraceEx2: the first published layout, then the filter and Timeout. */
_Static_assert(sizeof(struct etw_enable) == 160, "etw_enable size");
CHECK_OFF(struct etw_enable, event_ids, 112);
CHECK_OFF(struct etw_enable, event_ids_enable, 120);
CHECK_OFF(struct etw_enable, timeout_ms, 124);
CHECK_OFF(struct etw_enable, filter_type, 128);
CHECK_OFF(struct etw_enable, filter_size, 132);
CHECK_OFF(struct etw_enable, filter_data, 136);
CHECK_OFF(struct etw_enable, payload_data, 144);
CHECK_OFF(struct etw_enable, payload_size, 152);
CHECK_OFF(struct etw_enable, reserved, 156);
_Static_assert(sizeof(struct etw_pf_header) == 24, "etw_pf_header size");
_Static_assert(sizeof(struct etw_pf_event) == 8, "etw_pf_event size");
_Static_assert(sizeof(struct etw_pf_field) == 4, "etw_pf_field size");
_Static_assert(sizeof(struct etw_pf_pred) == 24, "etw_pf_pred size");
CHECK_OFF(struct etw_pf_pred, value, 8);

/* ABI 1.4: the log file name at the end of the session structs. */
_Static_assert(sizeof(struct etw_session_start) == ETW_SESSION_START_SIZE_VER1,
	       "etw_session_start VER1");
CHECK_OFF(struct etw_session_start, reserved, 232);
CHECK_OFF(struct etw_session_start, log_file_name, ETW_SESSION_START_SIZE_VER0);
_Static_assert(sizeof(struct etw_session_control) == ETW_SESSION_CONTROL_SIZE_VER1,
	       "etw_session_control VER1");
CHECK_OFF(struct etw_session_control, log_file_name, ETW_SESSION_CONTROL_SIZE_VER0);
CHECK_OFF(struct etw_session_control, log_file_name_size, 264);
CHECK_OFF(struct etw_session_control, log_file_name_len, 268);

/* A notification's FilterData follows it 8-byte aligned. */
_Static_assert(sizeof(struct etw_notification) == 72, "etw_notification size");
CHECK_OFF(struct etw_notification, logger_id, 48);
CHECK_OFF(struct etw_notification, filter_size, 52);
CHECK_OFF(struct etw_notification, filter_type, 56);
CHECK_OFF(struct etw_notification, flags, 60);
CHECK_OFF(struct etw_notification, cookie, 64);

_Static_assert(sizeof(struct etw_notify_ack) == ETW_NOTIFY_ACK_SIZE_VER0,
	       "etw_notify_ack VER0");
CHECK_OFF(struct etw_notify_ack, cookie, 8);

/*
 * The enable-state slot: the first 32 bytes as first published, then the
 * per-level keyword masks; the stride is ETW_REG_STATE_SIZE.
 */
_Static_assert(sizeof(struct etw_reg_state) == ETW_REG_STATE_SIZE,
	       "etw_reg_state size");
_Static_assert(ETW_REG_STATE_SIZE == 96, "etw_reg_state stride");
CHECK_OFF(struct etw_reg_state, enabled, 4);
CHECK_OFF(struct etw_reg_state, level, 5);
CHECK_OFF(struct etw_reg_state, match_any, 8);
CHECK_OFF(struct etw_reg_state, match_all, 16);
CHECK_OFF(struct etw_reg_state, reserved1, 24);
CHECK_OFF(struct etw_reg_state, match_any_at, 32);
_Static_assert(sizeof(((struct etw_reg_state *)0)->match_any_at) ==
	       ETW_REG_STATE_LEVELS * 8, "match_any_at");

/* EventRegister: state_size took the first half of the reserved words. */
_Static_assert(sizeof(struct etw_provider_register) ==
	       ETW_PROVIDER_REGISTER_SIZE_VER0, "etw_provider_register size");
CHECK_OFF(struct etw_provider_register, state_index, 28);
CHECK_OFF(struct etw_provider_register, state_size, 32);
CHECK_OFF(struct etw_provider_register, reserved0, 36);
CHECK_OFF(struct etw_provider_register, reserved, 40);

TEST(etw_reg_state_layout)
{
	EXPECT_EQ(96, sizeof(struct etw_reg_state));
	EXPECT_EQ(32, offsetof(struct etw_reg_state, match_any_at));
	EXPECT_EQ(0, ETW_MMAP_STATE_SIZE % 4096);
	EXPECT_EQ(24 * 4096, ETW_MMAP_STATE_SIZE);
}

TEST(etw_version_layout)
{
	EXPECT_EQ(64, sizeof(struct etw_version));
	EXPECT_EQ(16, offsetof(struct etw_version, features));
	EXPECT_EQ(32, offsetof(struct etw_version, reserved));
}

/* ETW_IOC_WRITE reads either struct: same head, same size. */
_Static_assert(sizeof(struct etw_trace_write) == ETW_EVENT_WRITE_SIZE_VER0,
	       "etw_trace_write size");
CHECK_OFF(struct etw_trace_write, kind, offsetof(struct etw_event_write, kind));
CHECK_OFF(struct etw_trace_write, flags, offsetof(struct etw_event_write, flags));
CHECK_OFF(struct etw_trace_write, logger_id, 8);
CHECK_OFF(struct etw_trace_write, message_flags, 12);
CHECK_OFF(struct etw_trace_write, header, 16);
CHECK_OFF(struct etw_trace_write, data, 24);
CHECK_OFF(struct etw_trace_write, count, 32);
CHECK_OFF(struct etw_trace_write, message_number, 36);
CHECK_OFF(struct etw_trace_write, guid, 40);
CHECK_OFF(struct etw_trace_write, parent_guid, 56);
CHECK_OFF(struct etw_trace_write, instance_id, 72);
CHECK_OFF(struct etw_trace_write, parent_instance_id, 76);
CHECK_OFF(struct etw_trace_write, reserved, 80);

TEST(etw_trace_write_layout)
{
	EXPECT_EQ(ETW_EVENT_WRITE_SIZE_VER0, sizeof(struct etw_trace_write));
	EXPECT_EQ(16, offsetof(struct etw_trace_write, header));
	EXPECT_EQ(80, offsetof(struct etw_trace_write, reserved));
}

/* ETW_IOC_WRITE_SHORT: 7 words, read one by one. */
_Static_assert(sizeof(struct etw_event_write_short) == ETW_EVENT_WRITE_SHORT_SIZE_VER0,
	       "etw_event_write_short VER0");
_Static_assert(ETW_EVENT_WRITE_SHORT_SIZE_VER0 == 56, "etw_event_write_short size");
CHECK_OFF(struct etw_event_write_short, reg_id, 4);
CHECK_OFF(struct etw_event_write_short, desc, 8);
CHECK_OFF(struct etw_event_write_short, activity_id, 24);
CHECK_OFF(struct etw_event_write_short, data, 40);
CHECK_OFF(struct etw_event_write_short, count, 48);
CHECK_OFF(struct etw_event_write_short, flags, 52);

/* The provider list (EnumerateTraceGuids(Ex)). */
_Static_assert(sizeof(struct etw_provider_list) == ETW_PROVIDER_LIST_SIZE_VER0,
	       "etw_provider_list VER0");
CHECK_OFF(struct etw_provider_list, entries, 8);
CHECK_OFF(struct etw_provider_list, total, 24);
_Static_assert(sizeof(struct etw_provider_entry) == 32, "etw_provider_entry size");
CHECK_OFF(struct etw_provider_entry, nr_regs, 16);
_Static_assert(sizeof(struct etw_provider_info) == ETW_PROVIDER_INFO_SIZE_VER0,
	       "etw_provider_info VER0");
CHECK_OFF(struct etw_provider_info, regs, 24);
CHECK_OFF(struct etw_provider_info, enables, 32);
CHECK_OFF(struct etw_provider_info, nr_enables, 52);
_Static_assert(sizeof(struct etw_provider_reg) == 8, "etw_provider_reg size");
_Static_assert(sizeof(struct etw_provider_enable) == 32, "etw_provider_enable size");
CHECK_OFF(struct etw_provider_enable, enable_property, 8);
CHECK_OFF(struct etw_provider_enable, match_any, 16);

TEST(etw_event_write_short_layout)
{
	EXPECT_EQ(56, sizeof(struct etw_event_write_short));
	EXPECT_EQ(40, offsetof(struct etw_event_write_short, data));
	EXPECT_EQ(0xE715u, (unsigned int)ETW_IOC_WRITE_SHORT);
}

/* ETW_IOC_TRACE_SET_INFO / _QUERY_INFO: the same in both ABIs. */
_Static_assert(sizeof(struct etw_trace_info) == ETW_TRACE_INFO_SIZE_VER0,
	       "etw_trace_info VER0");
CHECK_OFF(struct etw_trace_info, logger_id, 8);
CHECK_OFF(struct etw_trace_info, info_class, 12);
CHECK_OFF(struct etw_trace_info, data, 16);
CHECK_OFF(struct etw_trace_info, length, 24);
/* The EnableFlags took what was reserved0 of etw_session_info. */
CHECK_OFF(struct etw_session_info, enable_flags, 52);

TEST(etw_trace_info_layout)
{
	EXPECT_EQ(48, sizeof(struct etw_trace_info));
	EXPECT_EQ(0xE716u, (unsigned int)ETW_IOC_TRACE_SET_INFO);
	EXPECT_EQ(0xE717u, (unsigned int)ETW_IOC_TRACE_QUERY_INFO);
}

/* The ioctl numbers carry no size, so they are the same in both ABIs. */
TEST(ioctl_numbers)
{
	EXPECT_EQ(0xE700u, (unsigned int)ETW_IOC_VERSION);
}

TEST_HARNESS_MAIN
