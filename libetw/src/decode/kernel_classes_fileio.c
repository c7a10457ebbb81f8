// SPDX-License-Identifier: MIT
/*
 * FileIo ({90cbdc39-...}): wmicore.mof's FileIo_V2_* classes (version 2,
 * Microsoft Learn's "FileIo_*" pages) and FileIo_* (version 3, Windows 8
 * and later: the thread id is a uint32 after the file fields, and path
 * operations 79-81 are new).  The MOF's event type name "DletePath" is
 * kept as it is.
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
static const struct kc_field create_v2[] = {
	KC_PTR("IrpPtr"),
	KC_PTR("TTID"),
	KC_PTR("FileObject"),
	KC_U32("CreateOptions"),
	KC_U32("FileAttributes"),
	KC_U32("ShareAccess"),
	KC_WSTR("OpenPath"),
};
static const struct kc_field create_v3[] = {
	KC_PTR("IrpPtr"),
	KC_PTR("FileObject"),
	KC_U32("TTID"),
	KC_U32("CreateOptions"),
	KC_U32("FileAttributes"),
	KC_U32("ShareAccess"),
	KC_WSTR("OpenPath"),
};

static const struct kc_event simple[] = {
	{ 65, "Cleanup" }, { 66, "Close" }, { 73, "Flush" },
};
static const struct kc_field simple_v2[] = {
	KC_PTR("IrpPtr"),
	KC_PTR("TTID"),
	KC_PTR("FileObject"),
	KC_PTR("FileKey"),
};
static const struct kc_field simple_v3[] = {
	KC_PTR("IrpPtr"),
	KC_PTR("FileObject"),
	KC_PTR("FileKey"),
	KC_U32("TTID"),
};

static const struct kc_event rw[] = { { 67, "Read" }, { 68, "Write" } };
static const struct kc_field rw_v2[] = {
	KC_U64("Offset"),
	KC_PTR("IrpPtr"),
	KC_PTR("TTID"),
	KC_PTR("FileObject"),
	KC_PTR("FileKey"),
	KC_U32("IoSize"),
	KC_U32("IoFlags"),
};
static const struct kc_field rw_v3[] = {
	KC_U64("Offset"),
	KC_PTR("IrpPtr"),
	KC_PTR("FileObject"),
	KC_PTR("FileKey"),
	KC_U32("TTID"),
	KC_U32("IoSize"),
	KC_U32("IoFlags"),
};

static const struct kc_event info[] = {
	{ 69, "SetInfo" }, { 70, "Delete" }, { 71, "Rename" },
	{ 74, "QueryInfo" }, { 75, "FSControl" },
};
static const struct kc_field info_v2[] = {
	KC_PTR("IrpPtr"),
	KC_PTR("TTID"),
	KC_PTR("FileObject"),
	KC_PTR("FileKey"),
	KC_PTR("ExtraInfo"),
	KC_U32("InfoClass"),
};
static const struct kc_field info_v3[] = {
	KC_PTR("IrpPtr"),
	KC_PTR("FileObject"),
	KC_PTR("FileKey"),
	KC_PTR("ExtraInfo"),
	KC_U32("TTID"),
	KC_U32("InfoClass"),
};

static const struct kc_event dirent[] = {
	{ 72, "DirEnum" }, { 77, "DirNotify" },
};
static const struct kc_field dirent_v2[] = {
	KC_PTR("IrpPtr"),
	KC_PTR("TTID"),
	KC_PTR("FileObject"),
	KC_PTR("FileKey"),
	KC_U32("Length"),
	KC_U32("InfoClass"),
	KC_U32("FileIndex"),
	KC_WSTR("FileName"),
};
static const struct kc_field dirent_v3[] = {
	KC_PTR("IrpPtr"),
	KC_PTR("FileObject"),
	KC_PTR("FileKey"),
	KC_U32("TTID"),
	KC_U32("Length"),
	KC_U32("InfoClass"),
	KC_U32("FileIndex"),
	KC_WSTR("FileName"),
};

static const struct kc_event opend[] = { { 76, "OperationEnd" } };
static const struct kc_field opend_fields[] = {
	KC_PTR("IrpPtr"),
	KC_PTR("ExtraInfo"),
	KC_U32("NtStatus"),
};

static const struct kc_event mapfile[] = {
	{ 37, "MapFile" }, { 38, "UnmapFile" }, { 39, "MapFileDCStart" },
	{ 40, "MapFileDCEnd" },
};
static const struct kc_field mapfile_fields[] = {
	KC_PTR("ViewBase"),
	KC_PTR("FileObject"),
	KC_X64("MiscInfo"),
	KC_SIZET("ViewSize"),
	KC_U32("ProcessId"),
};

static const struct kc_event path[] = {
	{ 79, "DletePath" }, { 80, "RenamePath" }, { 81, "SetLinkPath" },
};
static const struct kc_field path_fields[] = {
	KC_PTR("IrpPtr"),
	KC_PTR("FileObject"),
	KC_PTR("FileKey"),
	KC_PTR("ExtraInfo"),
	KC_U32("TTID"),
	KC_U32("InfoClass"),
	KC_WSTR("FileName"),
};

#define FILEIO(cls, v, ev, f) \
	{ cls, "FileIo", &kc_guid_fileio, KC_VERSIONS(v), KC_EVENTS(ev), \
	  KC_FIELDS(f), KC_NO_MAPS, 0 }

static const struct kc_class classes[] = {
	FILEIO("FileIo_V2_Name", 2, name, name_fields),
	FILEIO("FileIo_V2_Create", 2, create, create_v2),
	FILEIO("FileIo_V2_SimpleOp", 2, simple, simple_v2),
	FILEIO("FileIo_V2_ReadWrite", 2, rw, rw_v2),
	FILEIO("FileIo_V2_Info", 2, info, info_v2),
	FILEIO("FileIo_V2_DirEnum", 2, dirent, dirent_v2),
	FILEIO("FileIo_V2_OpEnd", 2, opend, opend_fields),
	FILEIO("FileIo_V2_MapFile", 2, mapfile, mapfile_fields),
	FILEIO("FileIo_Name", 3, name, name_fields),
	FILEIO("FileIo_Create", 3, create, create_v3),
	FILEIO("FileIo_SimpleOp", 3, simple, simple_v3),
	FILEIO("FileIo_ReadWrite", 3, rw, rw_v3),
	FILEIO("FileIo_Info", 3, info, info_v3),
	FILEIO("FileIo_DirEnum", 3, dirent, dirent_v3),
	FILEIO("FileIo_OpEnd", 3, opend, opend_fields),
	FILEIO("FileIo_PathOperation", 3, path, path_fields),
};

const struct kc_table kc_fileio = { classes, KC_ARRAY_SIZE(classes) };
