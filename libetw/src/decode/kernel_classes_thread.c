// SPDX-License-Identifier: MIT
/*
 * Thread ({3d6fa8d1-...}): wmicore.mof's Thread_V2_TypeGroup1,
 * Thread_V3_TypeGroup1, Thread_TypeGroup1 (version 4: ThreadName),
 * CSwitch_V2 .. CSwitch_V4 (from version 3 the eighth byte is ThreadFlags,
 * not OldThreadWaitMode), ReadyThread, ThreadSetName, ThreadAffinity
 * and ThreadPriority.  Windows 10 writes version 3 Start/End records with
 * the name too (74 bytes, an empty name, in the samples): version 3 here
 * ends with ThreadName as version 4 does, which the lenient MOF decoding
 * also lets end at ThreadFlags as the MOF's version 3 does.  CSwitch's
 * wait reasons and states are numbers in the MOF (no value map).
 */
#include "kernel_classes.h"

static const struct kc_event group1[] = {
	{ 1, "Start" }, { 2, "End" }, { 3, "DCStart" }, { 4, "DCEnd" },
};

static const struct kc_field v2_fields[] = {
	KC_X32("ProcessId"),
	KC_X32("TThreadId"),
	KC_PTR("StackBase"),
	KC_PTR("StackLimit"),
	KC_PTR("UserStackBase"),
	KC_PTR("UserStackLimit"),
	KC_PTR("StartAddr"),
	KC_PTR("Win32StartAddr"),
	KC_PTR("TebBase"),
	KC_X32("SubProcessTag"),
};

static const struct kc_field v3_fields[] = {
	KC_X32("ProcessId"),
	KC_X32("TThreadId"),
	KC_PTR("StackBase"),
	KC_PTR("StackLimit"),
	KC_PTR("UserStackBase"),
	KC_PTR("UserStackLimit"),
	KC_PTR("Affinity"),
	KC_PTR("Win32StartAddr"),
	KC_PTR("TebBase"),
	KC_X32("SubProcessTag"),
	KC_U8("BasePriority"),
	KC_U8("PagePriority"),
	KC_U8("IoPriority"),
	KC_U8("ThreadFlags"),
	KC_WSTR("ThreadName"),
};

static const struct kc_event cswitch[] = { { 36, "CSwitch" } };
static const struct kc_field cswitch_v2_fields[] = {
	KC_X32("NewThreadId"),
	KC_X32("OldThreadId"),
	KC_S8("NewThreadPriority"),
	KC_S8("OldThreadPriority"),
	KC_U8("PreviousCState"),
	KC_S8("SpareByte"),
	KC_S8("OldThreadWaitReason"),
	KC_S8("OldThreadWaitMode"),
	KC_S8("OldThreadState"),
	KC_S8("OldThreadWaitIdealProcessor"),
	KC_X32("NewThreadWaitTime"),
	KC_U32("Reserved"),
};
static const struct kc_field cswitch_v3_fields[] = {
	KC_X32("NewThreadId"),
	KC_X32("OldThreadId"),
	KC_S8("NewThreadPriority"),
	KC_S8("OldThreadPriority"),
	KC_U8("PreviousCState"),
	KC_S8("SpareByte"),
	KC_S8("OldThreadWaitReason"),
	KC_S8("ThreadFlags"),
	KC_S8("OldThreadState"),
	KC_S8("OldThreadWaitIdealProcessor"),
	KC_X32("NewThreadWaitTime"),
	KC_U32("Reserved"),
};

static const struct kc_event ready[] = { { 50, "ReadyThread" } };
static const struct kc_field ready_fields[] = {
	KC_X32("TThreadId"),
	KC_S8("AdjustReason"),
	KC_S8("AdjustIncrement"),
	KC_S8("Flag"),
	KC_S8("Reserved"),
};

static const struct kc_event setname[] = { { 72, "SetName" } };
static const struct kc_field setname_fields[] = {
	KC_X32("ProcessId"),
	KC_X32("ThreadId"),
	KC_WSTR("ThreadName"),
};

static const struct kc_event affinity[] = { { 53, "ThreadAffinity" } };
static const struct kc_field affinity_fields[] = {
	KC_PTR("Affinity"),
	KC_X32("ThreadId"),
	KC_U16("Group"),
	KC_U16("Reserved"),
};

static const struct kc_event priority[] = {
	{ 48, "SetPriority" }, { 49, "SetBasePriority" },
	{ 51, "SetPagePriority" }, { 52, "SetIoPriority" },
};
static const struct kc_field priority_fields[] = {
	KC_X32("ThreadId"),
	KC_U8("OldPriority"),
	KC_U8("NewPriority"),
	KC_U16("Reserved"),
};

static const struct kc_class classes[] = {
	{ "Thread_V2_TypeGroup1", "Thread", &kc_guid_thread, KC_VERSIONS(2),
	  KC_EVENTS(group1), KC_FIELDS(v2_fields), KC_NO_MAPS, 0 },
	{ "Thread_V3_TypeGroup1", "Thread", &kc_guid_thread, KC_VERSIONS(3),
	  KC_EVENTS(group1), KC_FIELDS(v3_fields), KC_NO_MAPS, 0 },
	{ "Thread_TypeGroup1", "Thread", &kc_guid_thread, KC_VERSIONS(4),
	  KC_EVENTS(group1), KC_FIELDS(v3_fields), KC_NO_MAPS, 0 },
	{ "CSwitch_V2", "Thread", &kc_guid_thread, KC_VERSIONS(2),
	  KC_EVENTS(cswitch), KC_FIELDS(cswitch_v2_fields), KC_NO_MAPS, 0 },
	{ "CSwitch_V3", "Thread", &kc_guid_thread, KC_VERSIONS(3, 4),
	  KC_EVENTS(cswitch), KC_FIELDS(cswitch_v3_fields), KC_NO_MAPS, 0 },
	{ "ReadyThread", "Thread", &kc_guid_thread, KC_VERSIONS(2),
	  KC_EVENTS(ready), KC_FIELDS(ready_fields), KC_NO_MAPS, 0 },
	{ "ThreadSetName", "Thread", &kc_guid_thread, KC_VERSIONS(2),
	  KC_EVENTS(setname), KC_FIELDS(setname_fields), KC_NO_MAPS, 0 },
	{ "ThreadAffinity", "Thread", &kc_guid_thread, KC_VERSIONS(2),
	  KC_EVENTS(affinity), KC_FIELDS(affinity_fields), KC_NO_MAPS, 0 },
	{ "ThreadPriority", "Thread", &kc_guid_thread, KC_VERSIONS(3),
	  KC_EVENTS(priority), KC_FIELDS(priority_fields), KC_NO_MAPS, 0 },
};

const struct kc_table kc_thread = { classes, KC_ARRAY_SIZE(classes) };
