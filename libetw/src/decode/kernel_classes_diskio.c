// SPDX-License-Identifier: MIT
/*
 * DiskIo ({3d6fa8d4-...}).  Microsoft Learn: "DiskIo_TypeGroup1" (10
 * Read, 11 Write), "DiskIo_TypeGroup2" (12 ReadInit, 13 WriteInit, 15
 * FlushInit), "DiskIo_TypeGroup3" (14 FlushBuffers),
 * "DriverMajorFunctionCall" (34), "DriverMajorFunctionReturn" (35),
 * "DriverCompletionRoutine" (37), "DriverCompleteRequest" (52) and
 * "DriverCompleteRequestReturn" (53).  Version 3 (Windows 8 and later)
 * adds IssuingThreadId at the end (PerfView's DiskIOTraceData); version
 * 2 records end before it.
 */
#include "kernel_classes.h"

static const struct kc_event rw[] = { { 10, "Read" }, { 11, "Write" } };
static const struct kc_field rw_fields[] = {
	KC_U32("DiskNumber"),
	KC_X32("IrpFlags"),
	KC_U32("TransferSize"),
	KC_U32("Reserved"),
	KC_S64("ByteOffset"),
	KC_PTR("FileObject"),
	KC_PTR("Irp"),
	KC_U64("HighResResponseTime"),
	KC_X32("IssuingThreadId"),
};

static const struct kc_event init[] = {
	{ 12, "ReadInit" }, { 13, "WriteInit" }, { 15, "FlushInit" },
};
static const struct kc_field init_fields[] = {
	KC_PTR("Irp"),
	KC_X32("IssuingThreadId"),
};

static const struct kc_event flush[] = { { 14, "FlushBuffers" } };
static const struct kc_field flush_fields[] = {
	KC_U32("DiskNumber"),
	KC_X32("IrpFlags"),
	KC_U64("HighResResponseTime"),
	KC_PTR("Irp"),
	KC_X32("IssuingThreadId"),
};

static const struct kc_event call[] = { { 34, "DrvMjFnCall" } };
static const struct kc_field call_fields[] = {
	KC_U32("MajorFunction"),
	KC_U32("MinorFunction"),
	KC_PTR("RoutineAddr"),
	KC_PTR("FileObject"),
	KC_PTR("Irp"),
	KC_U32("UniqMatchId"),
};

static const struct kc_event ret[] = { { 35, "DrvMjFnRet" } };
static const struct kc_field ret_fields[] = {
	KC_PTR("Irp"),
	KC_U32("UniqMatchId"),
};

static const struct kc_event comp_routine[] = { { 37, "DrvComplRout" } };
static const struct kc_field comp_routine_fields[] = {
	KC_PTR("Routine"),
	KC_PTR("IrpPtr"),
	KC_U32("UniqMatchId"),
};

static const struct kc_event comp_req[] = { { 52, "DrvComplReq" } };
static const struct kc_field comp_req_fields[] = {
	KC_PTR("RoutineAddr"),
	KC_PTR("Irp"),
	KC_U32("UniqMatchId"),
};

static const struct kc_event comp_req_ret[] = { { 53, "DrvComplReqRet" } };

static const struct kc_class classes[] = {
	{ "DiskIo_TypeGroup1", "DiskIo", &kc_guid_diskio, KC_VERSIONS(2, 3),
	  KC_EVENTS(rw), KC_FIELDS(rw_fields), KC_NO_MAPS, 0 },
	{ "DiskIo_TypeGroup2", "DiskIo", &kc_guid_diskio, KC_VERSIONS(2, 3),
	  KC_EVENTS(init), KC_FIELDS(init_fields), KC_NO_MAPS, 0 },
	{ "DiskIo_TypeGroup3", "DiskIo", &kc_guid_diskio, KC_VERSIONS(2, 3),
	  KC_EVENTS(flush), KC_FIELDS(flush_fields), KC_NO_MAPS, 0 },
	{ "DriverMajorFunctionCall", "DiskIo", &kc_guid_diskio,
	  KC_VERSIONS(2, 3), KC_EVENTS(call), KC_FIELDS(call_fields),
	  KC_NO_MAPS, 0 },
	{ "DriverMajorFunctionReturn", "DiskIo", &kc_guid_diskio,
	  KC_VERSIONS(2, 3), KC_EVENTS(ret), KC_FIELDS(ret_fields),
	  KC_NO_MAPS, 0 },
	{ "DriverCompletionRoutine", "DiskIo", &kc_guid_diskio,
	  KC_VERSIONS(2, 3), KC_EVENTS(comp_routine),
	  KC_FIELDS(comp_routine_fields), KC_NO_MAPS, 0 },
	{ "DriverCompleteRequest", "DiskIo", &kc_guid_diskio,
	  KC_VERSIONS(2, 3), KC_EVENTS(comp_req), KC_FIELDS(comp_req_fields),
	  KC_NO_MAPS, 0 },
	{ "DriverCompleteRequestReturn", "DiskIo", &kc_guid_diskio,
	  KC_VERSIONS(2, 3), KC_EVENTS(comp_req_ret), KC_FIELDS(ret_fields),
	  KC_NO_MAPS, 0 },
};

const struct kc_table kc_diskio = { classes, KC_ARRAY_SIZE(classes) };
