// SPDX-License-Identifier: MIT
/*
 * Process ({3d6fa8d0-...}): wmicore.mof's Process_V2_TypeGroup1,
 * Process_V3_TypeGroup1 (Learn's "Process_TypeGroup1"),
 * Process_V4_TypeGroup1 (Flags, PackageFullName, ApplicationId),
 * Process_Defunct_TypeGroup1 (version 5: ExitTime, a uint64 the MOF
 * gives no unit), Process_Terminate_TypeGroup1 and
 * Process_V2_TypeGroup2 (the PerfCtr counters).  PerfView's
 * ProcessTraceData and etl-parser agree, and every record of the
 * Windows-written samples matches.
 */
#include "kernel_classes.h"

static const struct kc_event group1[] = {
	{ 1, "Start" }, { 2, "End" }, { 3, "DCStart" }, { 4, "DCEnd" },
	{ 39, "Defunct" },
};

static const struct kc_field v2_fields[] = {
	KC_PTR("UniqueProcessKey"),
	KC_X32("ProcessId"),
	KC_X32("ParentId"),
	KC_U32("SessionId"),
	KC_S32("ExitStatus"),
	KC_SID("UserSID"),
	KC_ASTR("ImageFileName"),
	KC_WSTR("CommandLine"),
};

static const struct kc_field v3_fields[] = {
	KC_PTR("UniqueProcessKey"),
	KC_X32("ProcessId"),
	KC_X32("ParentId"),
	KC_U32("SessionId"),
	KC_S32("ExitStatus"),
	KC_PTR("DirectoryTableBase"),
	KC_SID("UserSID"),
	KC_ASTR("ImageFileName"),
	KC_WSTR("CommandLine"),
};

static const struct kc_field v4_fields[] = {
	KC_PTR("UniqueProcessKey"),
	KC_X32("ProcessId"),
	KC_X32("ParentId"),
	KC_U32("SessionId"),
	KC_S32("ExitStatus"),
	KC_PTR("DirectoryTableBase"),
	KC_U32("Flags"),
	KC_SID("UserSID"),
	KC_ASTR("ImageFileName"),
	KC_WSTR("CommandLine"),
	KC_WSTR("PackageFullName"),
	KC_WSTR("ApplicationId"),
};

static const struct kc_field v5_fields[] = {
	KC_PTR("UniqueProcessKey"),
	KC_X32("ProcessId"),
	KC_X32("ParentId"),
	KC_U32("SessionId"),
	KC_S32("ExitStatus"),
	KC_PTR("DirectoryTableBase"),
	KC_U32("Flags"),
	KC_SID("UserSID"),
	KC_ASTR("ImageFileName"),
	KC_WSTR("CommandLine"),
	KC_WSTR("PackageFullName"),
	KC_WSTR("ApplicationId"),
	KC_U64("ExitTime"),
};

static const struct kc_event defunct[] = { { 39, "Defunct" } };

static const struct kc_event perfctr[] = {
	{ 32, "PerfCtr" }, { 33, "PerfCtrRundown" },
};
static const struct kc_field perfctr_fields[] = {
	KC_X32("ProcessId"),
	KC_U32("PageFaultCount"),
	KC_U32("HandleCount"),
	KC_U32("Reserved"),
	KC_SIZET("PeakVirtualSize"),
	KC_SIZET("PeakWorkingSetSize"),
	KC_SIZET("PeakPagefileUsage"),
	KC_SIZET("QuotaPeakPagedPoolUsage"),
	KC_SIZET("QuotaPeakNonPagedPoolUsage"),
	KC_SIZET("VirtualSize"),
	KC_SIZET("WorkingSetSize"),
	KC_SIZET("PagefileUsage"),
	KC_SIZET("QuotaPagedPoolUsage"),
	KC_SIZET("QuotaNonPagedPoolUsage"),
	KC_SIZET("PrivatePageCount"),
};

static const struct kc_event terminate[] = { { 11, "Terminate" } };
static const struct kc_field terminate_fields[] = { KC_X32("ProcessId") };

static const struct kc_class classes[] = {
	{ "Process_V2_TypeGroup1", "Process", &kc_guid_process,
	  KC_VERSIONS(2), KC_EVENTS(group1), KC_FIELDS(v2_fields),
	  KC_NO_MAPS, 0 },
	{ "Process_V3_TypeGroup1", "Process", &kc_guid_process,
	  KC_VERSIONS(3), KC_EVENTS(group1), KC_FIELDS(v3_fields),
	  KC_NO_MAPS, 0 },
	{ "Process_V4_TypeGroup1", "Process", &kc_guid_process,
	  KC_VERSIONS(4), KC_EVENTS(group1), KC_FIELDS(v4_fields),
	  KC_NO_MAPS, 0 },
	{ "Process_Defunct_TypeGroup1", "Process", &kc_guid_process,
	  KC_VERSIONS(5), KC_EVENTS(defunct), KC_FIELDS(v5_fields),
	  KC_NO_MAPS, 0 },
	{ "Process_V2_TypeGroup2", "Process", &kc_guid_process,
	  KC_VERSIONS(2), KC_EVENTS(perfctr), KC_FIELDS(perfctr_fields),
	  KC_NO_MAPS, 0 },
	{ "Process_Terminate_TypeGroup1", "Process", &kc_guid_process,
	  KC_VERSIONS(2), KC_EVENTS(terminate), KC_FIELDS(terminate_fields),
	  KC_NO_MAPS, 0 },
};

const struct kc_table kc_process = { classes, KC_ARRAY_SIZE(classes) };
