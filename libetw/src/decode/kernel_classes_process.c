// SPDX-License-Identifier: MIT
/*
 * Process ({3d6fa8d0-...}).  Versions 2 and 3 are Microsoft Learn's
 * "Process_V2_TypeGroup1" and "Process_TypeGroup1" classes.  Version 4
 * (Windows 8 and later) is version 3 with Flags after DirectoryTableBase
 * and PackageFullName and ApplicationId at the end, and version 5
 * (Defunct, Windows 10) adds ExitTime: Learn is silent on both; the
 * layouts are PerfView's (ProcessTraceData) and etl-parser's
 * (Process_V4_TypeGroup1, Process_Defunct_TypeGroup1), and match every
 * record of the Windows-written samples.  ExitTime's unit is not
 * published: shown as the number.  Terminate (11) carries the process id
 * only (etl-parser's Process_Terminate_TypeGroup1; Learn is silent).
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
	KC_X32("Flags"),
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
	KC_X32("Flags"),
	KC_SID("UserSID"),
	KC_ASTR("ImageFileName"),
	KC_WSTR("CommandLine"),
	KC_WSTR("PackageFullName"),
	KC_WSTR("ApplicationId"),
	KC_U64("ExitTime"),
};

static const struct kc_event terminate[] = { { 11, "Terminate" } };
static const struct kc_field terminate_fields[] = { KC_X32("ProcessId") };

static const struct kc_class classes[] = {
	{ "Process_V2_TypeGroup1", "Process", &kc_guid_process,
	  KC_VERSIONS(2), KC_EVENTS(group1), KC_FIELDS(v2_fields),
	  KC_NO_MAPS, 0 },
	{ "Process_TypeGroup1", "Process", &kc_guid_process,
	  KC_VERSIONS(3), KC_EVENTS(group1), KC_FIELDS(v3_fields),
	  KC_NO_MAPS, 0 },
	{ "Process_V4_TypeGroup1", "Process", &kc_guid_process,
	  KC_VERSIONS(4), KC_EVENTS(group1), KC_FIELDS(v4_fields),
	  KC_NO_MAPS, 0 },
	{ "Process_V5_TypeGroup1", "Process", &kc_guid_process,
	  KC_VERSIONS(5), KC_EVENTS(group1), KC_FIELDS(v5_fields),
	  KC_NO_MAPS, 0 },
	{ "Process_Terminate_TypeGroup1", "Process", &kc_guid_process,
	  KC_VERSIONS(2), KC_EVENTS(terminate), KC_FIELDS(terminate_fields),
	  KC_NO_MAPS, 0 },
};

const struct kc_table kc_process = { classes, KC_ARRAY_SIZE(classes) };
