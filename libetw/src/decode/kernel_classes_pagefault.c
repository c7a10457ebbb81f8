// SPDX-License-Identifier: MIT
/*
 * PageFault ({3d6fa8d3-...}), version 2: wmicore.mof's
 * PageFault_TypeGroup1 (10-15), PageFault_HardFault (32),
 * PageFault_VirtualAlloc (98, 99), PageFault_VirtualAllocRundown (128,
 * 129) and PageFault_ImageLoadBacked (105); Microsoft Learn's pages are
 * the first three, simplified.
 */
#include "kernel_classes.h"

static const struct kc_event group1[] = {
	{ 10, "TransitionFault" }, { 11, "DemandZeroFault" },
	{ 12, "CopyOnWrite" }, { 13, "GuardPageFault" },
	{ 14, "HardPageFault" }, { 15, "AccessViolation" },
};
static const struct kc_field group1_fields[] = {
	KC_PTR("VirtualAddress"),
	KC_PTR("ProgramCounter"),
};

static const struct kc_event hard[] = { { 32, "HardFault" } };
static const struct kc_field hard_fields[] = {
	KC_WMITIME("InitialTime"),
	KC_X64("ReadOffset"),
	KC_PTR("VirtualAddress"),
	KC_PTR("FileObject"),
	KC_X32("TThreadId"),
	KC_U32("ByteCount"),
};

static const struct kc_event virtual_alloc[] = {
	{ 98, "VirtualAlloc" }, { 99, "VirtualFree" },
};
static const struct kc_field virtual_alloc_fields[] = {
	KC_PTR("BaseAddress"),
	KC_SIZET("RegionSize"),
	KC_U32("ProcessId"),
	KC_X32("Flags"),
};

static const struct kc_event virtual_rundown[] = {
	{ 128, "VirtualAllocDCStart" }, { 129, "VirtualAllocDCEnd" },
};
static const struct kc_field virtual_rundown_fields[] = {
	KC_PTR("BaseAddress"),
	KC_SIZET("RegionSize"),
	KC_U32("ProcessId"),
	KC_X32("Flags"),
	KC_SIZET("CommitSizeInBytes"),
};

static const struct kc_event backed[] = { { 105, "ImageLoadBacked" } };
static const struct kc_field backed_fields[] = {
	KC_PTR("FileObject"),
	KC_X32("DeviceChar"),
	KC_X16("FileChar"),
	KC_X16("LoadFlags"),
};

static const struct kc_class classes[] = {
	{ "PageFault_TypeGroup1", "PageFault", &kc_guid_pagefault,
	  KC_VERSIONS(2), KC_EVENTS(group1), KC_FIELDS(group1_fields),
	  KC_NO_MAPS, 0 },
	{ "PageFault_HardFault", "PageFault", &kc_guid_pagefault,
	  KC_VERSIONS(2), KC_EVENTS(hard), KC_FIELDS(hard_fields),
	  KC_NO_MAPS, 0 },
	{ "PageFault_VirtualAlloc", "PageFault", &kc_guid_pagefault,
	  KC_VERSIONS(2), KC_EVENTS(virtual_alloc),
	  KC_FIELDS(virtual_alloc_fields), KC_NO_MAPS, 0 },
	{ "PageFault_VirtualAllocRundown", "PageFault", &kc_guid_pagefault,
	  KC_VERSIONS(2), KC_EVENTS(virtual_rundown),
	  KC_FIELDS(virtual_rundown_fields), KC_NO_MAPS, 0 },
	{ "PageFault_ImageLoadBacked", "PageFault", &kc_guid_pagefault,
	  KC_VERSIONS(2), KC_EVENTS(backed), KC_FIELDS(backed_fields),
	  KC_NO_MAPS, 0 },
};

const struct kc_table kc_pagefault = { classes, KC_ARRAY_SIZE(classes) };
