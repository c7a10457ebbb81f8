// SPDX-License-Identifier: MIT
/*
 * FileIo ({90cbdc39-...}), version 2: Microsoft Learn's "FileIo_Name"
 * (0 Name, 32 FileCreate, 35 FileDelete, 36 FileRundown), "FileIo_Create"
 * (64), "FileIo_ReadWrite" (67 Read, 68 Write), "FileIo_SimpleOp" (65
 * Cleanup, 66 Close, 73 Flush), "FileIo_Info" (69 SetInfo, 70 Delete, 71
 * Rename, 74 QueryInfo, 75 FSControl), "FileIo_DirEnum" (72 DirEnum, 77
 * DirNotify) and "FileIo_OpEnd" (76).  Version 3 (Windows 8 and later)
 * moved the thread id; its layout is not on Learn, so version 3 FileIo
 * records stay raw rather than be shown wrong.
 */
#include "kernel_classes.h"

static const struct kc_event name[] = {
	{ 0, "Name" }, { 32, "FileCreate" }, { 35, "FileDelete" },
	{ 36, "FileRundown" },
};
static const struct kc_field name_fields[] = {
	KC_PTR("FileObject"),
	KC_WSTR("FileName"),
};

static const struct kc_event create[] = { { 64, "Create" } };
static const struct kc_field create_fields[] = {
	KC_PTR("IrpPtr"),
	KC_PTR("TTID"),
	KC_PTR("FileObject"),
	KC_X32("CreateOptions"),
	KC_X32("FileAttributes"),
	KC_X32("ShareAccess"),
	KC_WSTR("OpenPath"),
};

static const struct kc_event rw[] = { { 67, "Read" }, { 68, "Write" } };
static const struct kc_field rw_fields[] = {
	KC_U64("Offset"),
	KC_PTR("IrpPtr"),
	KC_PTR("TTID"),
	KC_PTR("FileObject"),
	KC_PTR("FileKey"),
	KC_U32("IoSize"),
	KC_X32("IoFlags"),
};

static const struct kc_event simple[] = {
	{ 65, "Cleanup" }, { 66, "Close" }, { 73, "Flush" },
};
static const struct kc_field simple_fields[] = {
	KC_PTR("IrpPtr"),
	KC_PTR("TTID"),
	KC_PTR("FileObject"),
	KC_PTR("FileKey"),
};

static const struct kc_event info[] = {
	{ 69, "SetInfo" }, { 70, "Delete" }, { 71, "Rename" },
	{ 74, "QueryInfo" }, { 75, "FSControl" },
};
static const struct kc_field info_fields[] = {
	KC_PTR("IrpPtr"),
	KC_PTR("TTID"),
	KC_PTR("FileObject"),
	KC_PTR("FileKey"),
	KC_PTR("ExtraInfo"),
	KC_U32("InfoClass"),
};

static const struct kc_event dirent[] = {
	{ 72, "DirEnum" }, { 77, "DirNotify" },
};
static const struct kc_field dirent_fields[] = {
	KC_PTR("IrpPtr"),
	KC_PTR("TTID"),
	KC_PTR("FileObject"),
	KC_PTR("FileKey"),
	KC_U32("Length"),
	KC_U32("InfoClass"),
	KC_U32("FileIndex"),
	KC_WSTR("FileName"),
};

static const struct kc_event opend[] = { { 76, "OperationEnd" } };
static const struct kc_field opend_fields[] = {
	KC_PTR("IrpPtr"),
	KC_PTR("ExtraInfo"),
	KC_X32("NtStatus"),
};

static const struct kc_class classes[] = {
	{ "FileIo_Name", "FileIo", &kc_guid_fileio, KC_VERSIONS(2),
	  KC_EVENTS(name), KC_FIELDS(name_fields), KC_NO_MAPS, 0 },
	{ "FileIo_Create", "FileIo", &kc_guid_fileio, KC_VERSIONS(2),
	  KC_EVENTS(create), KC_FIELDS(create_fields), KC_NO_MAPS, 0 },
	{ "FileIo_ReadWrite", "FileIo", &kc_guid_fileio, KC_VERSIONS(2),
	  KC_EVENTS(rw), KC_FIELDS(rw_fields), KC_NO_MAPS, 0 },
	{ "FileIo_SimpleOp", "FileIo", &kc_guid_fileio, KC_VERSIONS(2),
	  KC_EVENTS(simple), KC_FIELDS(simple_fields), KC_NO_MAPS, 0 },
	{ "FileIo_Info", "FileIo", &kc_guid_fileio, KC_VERSIONS(2),
	  KC_EVENTS(info), KC_FIELDS(info_fields), KC_NO_MAPS, 0 },
	{ "FileIo_DirEnum", "FileIo", &kc_guid_fileio, KC_VERSIONS(2),
	  KC_EVENTS(dirent), KC_FIELDS(dirent_fields), KC_NO_MAPS, 0 },
	{ "FileIo_OpEnd", "FileIo", &kc_guid_fileio, KC_VERSIONS(2),
	  KC_EVENTS(opend), KC_FIELDS(opend_fields), KC_NO_MAPS, 0 },
};

const struct kc_table kc_fileio = { classes, KC_ARRAY_SIZE(classes) };
