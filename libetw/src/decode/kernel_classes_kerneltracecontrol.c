// SPDX-License-Identifier: MIT
/*
 * KernelTraceControl's ImageID class ({b3e675d7-...}): the classic
 * (EVENT_TRACE_HEADER) events xperf -merge adds so that symbols can be
 * found: ImageId (0), DbgID_RSDS (36: the PDB's GUID, age and name) and
 * FileVersion (64).  Learn is silent on all three; the layouts are
 * PerfView's SymbolTraceEventParser (ImageIDTraceData,
 * DbgIDRSDSTraceData, FileVersionTraceData) and snail's image_id.hpp.
 */
#include "kernel_classes.h"

static const struct kc_event info[] = { { 0, "ImageId" } };
static const struct kc_field info_fields[] = {
	KC_PTR("ImageBase"),
	KC_PTR("ImageSize"),
	KC_X32("ProcessId"),
	KC_X32("TimeDateStamp"),
	KC_WSTR("OriginalFileName"),
};

static const struct kc_event rsds[] = { { 36, "DbgID_RSDS" } };
static const struct kc_field rsds_fields[] = {
	KC_PTR("ImageBase"),
	KC_X32("ProcessId"),
	KC_GUID("GuidSig"),
	KC_U32("Age"),
	KC_ASTR("PdbFileName"),
};

static const struct kc_event version[] = { { 64, "FileVersion" } };
static const struct kc_field version_fields[] = {
	KC_U32("ImageSize"),
	KC_X32("TimeDateStamp"),
	KC_WSTR("OrigFileName"),
	KC_WSTR("FileDescription"),
	KC_WSTR("FileVersion"),
	KC_WSTR("BinFileVersion"),
	KC_WSTR("VerLanguage"),
	KC_WSTR("ProductName"),
	KC_WSTR("CompanyName"),
	KC_WSTR("ProductVersion"),
	KC_WSTR("FileId"),
	KC_WSTR("ProgramId"),
};

static const struct kc_class classes[] = {
	{ "ImageId", "ImageId", &kc_guid_imageid, KC_VERSIONS(2),
	  KC_EVENTS(info), KC_FIELDS(info_fields), KC_NO_MAPS, 0 },
	{ "DbgID_RSDS", "ImageId", &kc_guid_imageid, KC_VERSIONS(2),
	  KC_EVENTS(rsds), KC_FIELDS(rsds_fields), KC_NO_MAPS, 0 },
	{ "FileVersion", "ImageId", &kc_guid_imageid, KC_VERSIONS(2),
	  KC_EVENTS(version), KC_FIELDS(version_fields), KC_NO_MAPS, 0 },
};

const struct kc_table kc_kerneltracecontrol = {
	classes, KC_ARRAY_SIZE(classes)
};
