// SPDX-License-Identifier: MIT
/*
 * EventTrace ({68fdd900-...}): the events of buffer 0 and the session's
 * own, version 2 (wmicore.mof's EventTraceEvent classes; Microsoft
 * Learn's "EventTrace_Header class" is the first, simplified).  The
 * header's pointer fields follow the record's pointer size; its
 * TIME_ZONE_INFORMATION is 176 bytes with its padding, NoPrint in the
 * MOF.  Event type 80 has two classes in the MOF (GUIDs or strings for
 * the partition ids); Windows' files carry the 48-byte first one.
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
	KC_BYTES("TimeZoneInformation", 176, NOPRINT),
	KC_U64("BootTime"),
	KC_U64("PerfFreq"),
	KC_U64("StartTime"),
	KC_X32("ReservedFlags"),
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
	KC_X32("KernelEventVersion"),
};

static const struct kc_event rundown_events[] = { { 8, "RDComplete" } };

static const struct kc_event rsds_events[] = { { 64, "DbgIdRSDS" } };
static const struct kc_field rsds_fields[] = {
	KC_GUID("Guid"),
	KC_U32("Age"),
	KC_ASTR("PdbName"),
};

static const struct kc_event build_events[] = { { 66, "BuildInfo" } };
static const struct kc_field build_fields[] = { KC_ASTR("BuildString") };

static const struct kc_event path_events[] = { { 67, "ProviderBinaryPath" } };
static const struct kc_field path_fields[] = {
	KC_U32("GuidCount"),
	KC_COUNTED("Guid", GUID, NULL, 0),
	KC_WSTR("BinaryPath"),
};

static const struct kc_event partition_events[] = {
	{ 80, "PartitionInfoExtension" },
};
static const struct kc_field partition_fields[] = {
	KC_U16("EventVersion"),
	KC_U16("Reserved"),
	KC_U32("PartitionType"),
	KC_S64("QpcOffsetFromRoot"),
	KC_GUID("PartitionId"),
	KC_GUID("ParentId"),
};

static const struct kc_event dropped_events[] = { { 82, "LastDroppedTimes" } };
static const struct kc_field dropped_fields[] = {
	KC_U32("TimeStampCount"),
	KC_U32("Padding"),
	KC_COUNTED("TimeStamp", UINT64, NULL, 0),
};

static const struct kc_class classes[] = {
	{ "EventTrace_Header", "EventTrace", &kc_guid_eventtrace,
	  KC_VERSIONS(2), KC_EVENTS(header_events), KC_FIELDS(header_fields),
	  KC_NO_MAPS, 0 },
	{ "Header_Extension_TypeGroup", "EventTrace", &kc_guid_eventtrace,
	  KC_VERSIONS(2), KC_EVENTS(ext_events), KC_FIELDS(ext_fields),
	  KC_NO_MAPS, 0 },
	{ "RDComplete", "EventTrace", &kc_guid_eventtrace, KC_VERSIONS(2),
	  KC_EVENTS(rundown_events), NULL, 0, KC_NO_MAPS, 0 },
	{ "Header_DbgIdRSDS_TypeGroup", "EventTrace", &kc_guid_eventtrace,
	  KC_VERSIONS(2), KC_EVENTS(rsds_events), KC_FIELDS(rsds_fields),
	  KC_NO_MAPS, 0 },
	{ "Header_BuildInfo_TypeGroup", "EventTrace", &kc_guid_eventtrace,
	  KC_VERSIONS(2), KC_EVENTS(build_events), KC_FIELDS(build_fields),
	  KC_NO_MAPS, 0 },
	{ "Header_ProviderBinaryPath_TypeGroup", "EventTrace",
	  &kc_guid_eventtrace, KC_VERSIONS(2), KC_EVENTS(path_events),
	  KC_FIELDS(path_fields), KC_NO_MAPS, 0 },
	{ "Header_PartitionInfoExtension_TypeGroup", "EventTrace",
	  &kc_guid_eventtrace, KC_VERSIONS(2), KC_EVENTS(partition_events),
	  KC_FIELDS(partition_fields), KC_NO_MAPS, 0 },
	{ "Header_LastDroppedTimes_TypeGroup", "EventTrace",
	  &kc_guid_eventtrace, KC_VERSIONS(2), KC_EVENTS(dropped_events),
	  KC_FIELDS(dropped_fields), KC_NO_MAPS, 0 },
};

const struct kc_table kc_eventtrace = { classes, KC_ARRAY_SIZE(classes) };
