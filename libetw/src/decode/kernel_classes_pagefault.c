// SPDX-License-Identifier: MIT
/*
 * PageFault ({3d6fa8d3-...}).  Microsoft Learn: "PageFault_TypeGroup1"
 * (10 TransitionFault, 11 DemandZeroFault, 12 CopyOnWrite, 13
 * GuardPageFault, 14 HardPageFault, 15 AccessViolation),
 * "PageFault_HardFault" (32) and "PageFault_VirtualAlloc" (98
 * VirtualAlloc, 99 VirtualFree).
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
	KC_U64("ReadOffset"),
	KC_PTR("VirtualAddress"),
	KC_PTR("FileObject"),
	KC_X32("TThreadId"),
	KC_U32("ByteCount"),
};

static const struct kc_event virtual_alloc[] = {
	{ 98, "VirtualAlloc" }, { 99, "VirtualFree" },
};
static const struct kc_field valloc_fields[] = {
	KC_PTR("BaseAddress"),
	KC_SIZET("RegionSize"),
	KC_X32("ProcessId"),
	KC_X32("Flags"),
};

static const struct kc_class classes[] = {
	{ "PageFault_TypeGroup1", "PageFault", &kc_guid_pagefault,
	  KC_VERSIONS(2), KC_EVENTS(group1), KC_FIELDS(group1_fields),
	  KC_NO_MAPS, 0 },
	{ "PageFault_HardFault", "PageFault", &kc_guid_pagefault,
	  KC_VERSIONS(2), KC_EVENTS(hard), KC_FIELDS(hard_fields),
	  KC_NO_MAPS, 0 },
	{ "PageFault_VirtualAlloc", "PageFault", &kc_guid_pagefault,
	  KC_VERSIONS(2), KC_EVENTS(virtual_alloc), KC_FIELDS(valloc_fields),
	  KC_NO_MAPS, 0 },
};

const struct kc_table kc_pagefault = { classes, KC_ARRAY_SIZE(classes) };
