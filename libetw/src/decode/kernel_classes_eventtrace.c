// SPDX-License-Identifier: MIT
/*
 * EventTrace ({68fdd900-...}): the events of buffer 0 and the session's
 * own.  EventTrace_Header is Microsoft Learn's "EventTrace_Header class"
 * (the 64-bit form's TIME_ZONE_INFORMATION is 176 bytes with its padding,
 * the pointer fields follow the file's PointerSize); the two strings
 * after it are not in the documented MOF but in every file (etl-format:
 * logger name, log file name), named here as tracerpt's EventTrace
 * header names them.  Learn is silent on the rest; their layouts are the
 * public parsers' (PerfView's KernelTraceEventParser, etl-parser, snail):
 * Extension/EndExtension carry the eight group masks and the kernel's
 * event version, RundownComplete nothing.  Event 80 (0x50) is in every
 * Windows 10/11 kernel file as 48 bytes, zeros in the samples; its name
 * and fields are not published: ETW_TRACE_PARTITION_INFORMATION is
 * inferred from its size.
 */
#include "kernel_classes.h"

static const struct kc_event header_events[] = { { 0, "Header" } };
static const struct kc_field header_fields[] = {
	KC_U32("BufferSize"),
	KC_U32("Version"),
	KC_U32("ProviderVersion"),
	KC_U32("NumberOfProcessors"),
	KC_U64("EndTime"),
	KC_U32("TimerResolution"),
	KC_U32("MaxFileSize"),
	KC_X32("LogFileMode"),
	KC_U32("BuffersWritten"),
	KC_U32("StartBuffers"),
	KC_U32("PointerSize"),
	KC_U32("EventsLost"),
	KC_U32("CPUSpeed"),
	KC_PTR("LoggerName"),
	KC_PTR("LogFileName"),
	KC_BYTES("TimeZoneInformation", 176),
	KC_U64("BootTime"),
	KC_U64("PerfFreq"),
	KC_U64("StartTime"),
	KC_U32("ReservedFlags"),
	KC_U32("BuffersLost"),
	KC_WSTR("SessionNameString"),
	KC_WSTR("LogFileNameString"),
};

static const struct kc_event ext_events[] = {
	{ 5, "Extension" }, { 32, "EndExtension" },
};
static const struct kc_field ext_fields[] = {
	KC_X32("GroupMask1"), KC_X32("GroupMask2"), KC_X32("GroupMask3"),
	KC_X32("GroupMask4"), KC_X32("GroupMask5"), KC_X32("GroupMask6"),
	KC_X32("GroupMask7"), KC_X32("GroupMask8"),
	KC_U32("KernelEventVersion"),
};

static const struct kc_event rundown_events[] = { { 8, "RundownComplete" } };

static const struct kc_event partition_events[] = {
	{ 80, "PartitionInfoExtension" },
};
static const struct kc_field partition_fields[] = {
	KC_GUID("PartitionId"),
	KC_GUID("ParentId"),
	KC_S64("QpcOffsetFromRoot"),
	KC_U32("PartitionType"),
	KC_U32("Reserved"),
};

static const struct kc_class classes[] = {
	{ "EventTrace_Header", "EventTrace", &kc_guid_eventtrace,
	  KC_VERSIONS(2), KC_EVENTS(header_events), KC_FIELDS(header_fields),
	  KC_NO_MAPS, 0 },
	{ "Header_Extension_TypeGroup", "EventTrace", &kc_guid_eventtrace,
	  KC_VERSIONS(2), KC_EVENTS(ext_events), KC_FIELDS(ext_fields),
	  KC_NO_MAPS, 0 },
	{ "EventTrace_RundownComplete", "EventTrace", &kc_guid_eventtrace,
	  KC_VERSIONS(2), KC_EVENTS(rundown_events), NULL, 0, KC_NO_MAPS, 0 },
	{ "EventTrace_PartitionInfoExtension", "EventTrace",
	  &kc_guid_eventtrace, KC_VERSIONS(2), KC_EVENTS(partition_events),
	  KC_FIELDS(partition_fields), KC_NO_MAPS, 0 },
};

const struct kc_table kc_eventtrace = { classes, KC_ARRAY_SIZE(classes) };
