// SPDX-License-Identifier: MIT
/*
 * PerfInfo ({ce1dbfb4-...}).  Microsoft Learn: "SampledProfile",
 * "SysCallEnter", "SysCallExit", "ISR", "DPC" (66 ThreadedDPC, 68 DPC, 69
 * TimerDPC, per Learn's "PerfInfo class").  Learn gives ISR's Reserved
 * (a uint16) the Pointer qualifier; its 16-bit size is what the data
 * shows, so it is a UINT16 here.  SetInterval, CollectionStart and
 * CollectionEnd (72-74) are PerfView's SampledProfileIntervalTraceData
 * (version 3 adds the source's name); Learn is silent.
 */
#include "kernel_classes.h"

static const struct kc_event sample[] = { { 46, "SampledProfile" } };
static const struct kc_field sample_fields[] = {
	KC_PTR("InstructionPointer"),
	KC_X32("ThreadId"),
	KC_U32("Count"),
};

static const struct kc_event interval[] = {
	{ 72, "SetInterval" }, { 73, "CollectionStart" },
	{ 74, "CollectionEnd" },
};
static const struct kc_field interval_fields[] = {
	KC_U32("Source"),
	KC_U32("NewInterval"),
	KC_U32("OldInterval"),
	KC_WSTR("SourceName"),
};

static const struct kc_event sysenter[] = { { 51, "SysClEnter" } };
static const struct kc_field sysenter_fields[] = { KC_PTR("SysCallAddress") };

static const struct kc_event sysexit[] = { { 52, "SysClExit" } };
static const struct kc_field sysexit_fields[] = { KC_X32("SysCallNtStatus") };

static const struct kc_event isr[] = { { 67, "ISR" } };
static const struct kc_field isr_fields[] = {
	KC_WMITIME("InitialTime"),
	KC_PTR("Routine"),
	KC_U8("ReturnValue"),
	KC_U8("Vector"),
	KC_U16("Reserved"),
};

static const struct kc_event dpc[] = {
	{ 66, "ThreadedDPC" }, { 68, "DPC" }, { 69, "TimerDPC" },
};
static const struct kc_field dpc_fields[] = {
	KC_WMITIME("InitialTime"),
	KC_PTR("Routine"),
};

static const struct kc_class classes[] = {
	{ "SampledProfile", "PerfInfo", &kc_guid_perfinfo, KC_VERSIONS(2),
	  KC_EVENTS(sample), KC_FIELDS(sample_fields), KC_NO_MAPS, 0 },
	{ "SampledProfileInterval", "PerfInfo", &kc_guid_perfinfo,
	  KC_VERSIONS(2, 3), KC_EVENTS(interval), KC_FIELDS(interval_fields),
	  KC_NO_MAPS, 0 },
	{ "SysCallEnter", "PerfInfo", &kc_guid_perfinfo, KC_VERSIONS(2),
	  KC_EVENTS(sysenter), KC_FIELDS(sysenter_fields), KC_NO_MAPS, 0 },
	{ "SysCallExit", "PerfInfo", &kc_guid_perfinfo, KC_VERSIONS(2),
	  KC_EVENTS(sysexit), KC_FIELDS(sysexit_fields), KC_NO_MAPS, 0 },
	{ "ISR", "PerfInfo", &kc_guid_perfinfo, KC_VERSIONS(2),
	  KC_EVENTS(isr), KC_FIELDS(isr_fields), KC_NO_MAPS, 0 },
	{ "DPC", "PerfInfo", &kc_guid_perfinfo, KC_VERSIONS(2),
	  KC_EVENTS(dpc), KC_FIELDS(dpc_fields), KC_NO_MAPS, 0 },
};

const struct kc_table kc_perfinfo = { classes, KC_ARRAY_SIZE(classes) };
