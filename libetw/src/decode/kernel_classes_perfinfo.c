// SPDX-License-Identifier: MIT
/*
 * PerfInfo ({ce1dbfb4-...}): wmicore.mof's SampledProfile (46,
 * "SampleProf": Count is a uint16 and a Reserved uint16 follows),
 * SampledProfileInterval_V2 (72-74) and _V3 (73, 74, with the source's
 * name), SysCallEnter, SysCallExit, ISR (67, 95; Vector is a uint16 and
 * Reserved a uint8, where Microsoft Learn's simplified page has them the
 * other way round), ISR_MSI (50) and DPC (66, 68, 69, 70).
 */
#include "kernel_classes.h"

static const struct kc_event sample[] = { { 46, "SampleProf" } };
static const struct kc_field sample_fields[] = {
	KC_PTR("InstructionPointer"),
	KC_U32("ThreadId"),
	KC_U16("Count"),
	KC_U16("Reserved"),
};

static const struct kc_event interval_v2[] = {
	{ 72, "SetInterval" }, { 73, "CollectionStart" },
	{ 74, "CollectionEnd" },
};
static const struct kc_field interval_v2_fields[] = {
	KC_U32("Source"),
	KC_U32("NewInterval"),
	KC_U32("OldInterval"),
};
static const struct kc_event interval_v3[] = {
	{ 73, "CollectionStart" }, { 74, "CollectionEnd" },
};
static const struct kc_field interval_v3_fields[] = {
	KC_U32("Source"),
	KC_U32("NewInterval"),
	KC_U32("OldInterval"),
	KC_WSTR("SourceName"),
};

static const struct kc_event sysenter[] = { { 51, "SysClEnter" } };
static const struct kc_field sysenter_fields[] = { KC_PTR("SysCallAddress") };

static const struct kc_event sysexit[] = { { 52, "SysClExit" } };
static const struct kc_field sysexit_fields[] = { KC_X32("SysCallNtStatus") };

static const struct kc_event isr[] = { { 67, "ISR" }, { 95, "ISR-PASS" } };
static const struct kc_field isr_fields[] = {
	KC_WMITIME("InitialTime"),
	KC_PTR("Routine"),
	KC_U8("ReturnValue"),
	KC_U16("Vector"),
	KC_U8("Reserved"),
};

static const struct kc_event isr_msi[] = { { 50, "ISR-MSI" } };
static const struct kc_field isr_msi_fields[] = {
	KC_WMITIME("InitialTime"),
	KC_PTR("Routine"),
	KC_U8("ReturnValue"),
	KC_U16("Vector"),
	KC_U8("Reserved"),
	KC_U32("MessageNumber"),
};

static const struct kc_event dpc[] = {
	{ 66, "ThreadedDPC" }, { 68, "DPC" }, { 69, "TimerDPC" },
	{ 70, "IOTimer" },
};
static const struct kc_field dpc_fields[] = {
	KC_WMITIME("InitialTime"),
	KC_PTR("Routine"),
};

static const struct kc_class classes[] = {
	{ "SampledProfile", "PerfInfo", &kc_guid_perfinfo, KC_VERSIONS(2),
	  KC_EVENTS(sample), KC_FIELDS(sample_fields), KC_NO_MAPS, 0 },
	{ "SampledProfileInterval_V2", "PerfInfo", &kc_guid_perfinfo,
	  KC_VERSIONS(2), KC_EVENTS(interval_v2),
	  KC_FIELDS(interval_v2_fields), KC_NO_MAPS, 0 },
	{ "SampledProfileInterval_V3", "PerfInfo", &kc_guid_perfinfo,
	  KC_VERSIONS(3), KC_EVENTS(interval_v3),
	  KC_FIELDS(interval_v3_fields), KC_NO_MAPS, 0 },
	{ "SysCallEnter", "PerfInfo", &kc_guid_perfinfo, KC_VERSIONS(2),
	  KC_EVENTS(sysenter), KC_FIELDS(sysenter_fields), KC_NO_MAPS, 0 },
	{ "SysCallExit", "PerfInfo", &kc_guid_perfinfo, KC_VERSIONS(2),
	  KC_EVENTS(sysexit), KC_FIELDS(sysexit_fields), KC_NO_MAPS, 0 },
	{ "ISR", "PerfInfo", &kc_guid_perfinfo, KC_VERSIONS(2),
	  KC_EVENTS(isr), KC_FIELDS(isr_fields), KC_NO_MAPS, 0 },
	{ "ISR_MSI", "PerfInfo", &kc_guid_perfinfo, KC_VERSIONS(2),
	  KC_EVENTS(isr_msi), KC_FIELDS(isr_msi_fields), KC_NO_MAPS, 0 },
	{ "DPC", "PerfInfo", &kc_guid_perfinfo, KC_VERSIONS(2),
	  KC_EVENTS(dpc), KC_FIELDS(dpc_fields), KC_NO_MAPS, 0 },
};

const struct kc_table kc_perfinfo = { classes, KC_ARRAY_SIZE(classes) };
