// SPDX-License-Identifier: MIT
/*
 * DiskIo ({3d6fa8d4-...}): wmicore.mof's DiskIo_V2_TypeGroup1..3
 * (version 2), DiskIo_TypeGroup1..3 (version 3: IssuingThreadId, and the
 * optical drive's event types) and the driver classes of version 2
 * (DriverMajorFunctionCall, DriverMajorFunctionReturn,
 * DriverCompletionRoutine, DriverCompleteRequest,
 * DriverCompleteRequestReturn).  Microsoft Learn's class pages are the
 * same, simplified.
 */
#include "kernel_classes.h"

static const struct kc_event rw_v2[] = { { 10, "Read" }, { 11, "Write" } };
static const struct kc_event rw_v3[] = {
	{ 10, "Read" }, { 11, "Write" }, { 55, "OpticalRead" },
	{ 56, "OpticalWrite" },
};
static const struct kc_field rw_fields[] = {
	KC_U32("DiskNumber"),
	KC_X32("IrpFlags"),
	KC_U32("TransferSize"),
	KC_U32("Reserved"),
	KC_U64("ByteOffset"),
	KC_PTR("FileObject"),
	KC_PTR("Irp"),
	KC_U64("HighResResponseTime"),
	KC_U32("IssuingThreadId"),		/* version 3 */
};

static const struct kc_event init_v2[] = {
	{ 12, "ReadInit" }, { 13, "WriteInit" }, { 15, "FlushInit" },
};
static const struct kc_event init_v3[] = {
	{ 12, "ReadInit" }, { 13, "WriteInit" }, { 15, "FlushInit" },
	{ 58, "OpticalReadInit" }, { 59, "OpticalWriteInit" },
	{ 60, "OpticalFlushInit" },
};
static const struct kc_field init_fields[] = {
	KC_PTR("Irp"),
	KC_U32("IssuingThreadId"),		/* version 3 */
};

static const struct kc_event flush_v2[] = { { 14, "FlushBuffers" } };
static const struct kc_event flush_v3[] = {
	{ 14, "FlushBuffers" }, { 57, "OpticalFlushBuffers" },
};
static const struct kc_field flush_fields[] = {
	KC_U32("DiskNumber"),
	KC_X32("IrpFlags"),
	KC_U64("HighResResponseTime"),
	KC_PTR("Irp"),
	KC_U32("IssuingThreadId"),		/* version 3 */
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

/* Version 2 has the fields of version 3 but IssuingThreadId. */
#define V2(f)	(f), (uint16_t)(KC_ARRAY_SIZE(f) - 1)

static const struct kc_class classes[] = {
	{ "DiskIo_V2_TypeGroup1", "DiskIo", &kc_guid_diskio, KC_VERSIONS(2),
	  KC_EVENTS(rw_v2), V2(rw_fields), KC_NO_MAPS, 0 },
	{ "DiskIo_V2_TypeGroup2", "DiskIo", &kc_guid_diskio, KC_VERSIONS(2),
	  KC_EVENTS(init_v2), V2(init_fields), KC_NO_MAPS, 0 },
	{ "DiskIo_V2_TypeGroup3", "DiskIo", &kc_guid_diskio, KC_VERSIONS(2),
	  KC_EVENTS(flush_v2), V2(flush_fields), KC_NO_MAPS, 0 },
	{ "DiskIo_TypeGroup1", "DiskIo", &kc_guid_diskio, KC_VERSIONS(3),
	  KC_EVENTS(rw_v3), KC_FIELDS(rw_fields), KC_NO_MAPS, 0 },
	{ "DiskIo_TypeGroup2", "DiskIo", &kc_guid_diskio, KC_VERSIONS(3),
	  KC_EVENTS(init_v3), KC_FIELDS(init_fields), KC_NO_MAPS, 0 },
	{ "DiskIo_TypeGroup3", "DiskIo", &kc_guid_diskio, KC_VERSIONS(3),
	  KC_EVENTS(flush_v3), KC_FIELDS(flush_fields), KC_NO_MAPS, 0 },
	{ "DriverMajorFunctionCall", "DiskIo", &kc_guid_diskio,
	  KC_VERSIONS(2), KC_EVENTS(call), KC_FIELDS(call_fields),
	  KC_NO_MAPS, 0 },
	{ "DriverMajorFunctionReturn", "DiskIo", &kc_guid_diskio,
	  KC_VERSIONS(2), KC_EVENTS(ret), KC_FIELDS(ret_fields),
	  KC_NO_MAPS, 0 },
	{ "DriverCompletionRoutine", "DiskIo", &kc_guid_diskio,
	  KC_VERSIONS(2), KC_EVENTS(comp_routine),
	  KC_FIELDS(comp_routine_fields), KC_NO_MAPS, 0 },
	{ "DriverCompleteRequest", "DiskIo", &kc_guid_diskio,
	  KC_VERSIONS(2), KC_EVENTS(comp_req), KC_FIELDS(comp_req_fields),
	  KC_NO_MAPS, 0 },
	{ "DriverCompleteRequestReturn", "DiskIo", &kc_guid_diskio,
	  KC_VERSIONS(2), KC_EVENTS(comp_req_ret), KC_FIELDS(ret_fields),
	  KC_NO_MAPS, 0 },
};

const struct kc_table kc_diskio = { classes, KC_ARRAY_SIZE(classes) };
