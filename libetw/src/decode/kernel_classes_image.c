// SPDX-License-Identifier: MIT
/*
 * Image ({2cb15d1d-...}): wmicore.mof's Image_Load_V2 (version 2),
 * Image_Load (version 3: SignatureLevel, SignatureType; Microsoft Learn's
 * "Image_Load class" shows them as one Reserved0), KernelImageBase (33)
 * and HypercallPage (34).  Windows logs Load with hook 0x030A (group
 * Process, type 10): the reader gives it the Image GUID, as Windows'
 * consumer does, so it is found here.
 */
#include "kernel_classes.h"

static const struct kc_event load[] = {
	{ 10, "Load" }, { 2, "UnLoad" }, { 3, "DCStart" }, { 4, "DCEnd" },
};
static const struct kc_field v2_fields[] = {
	KC_PTR("ImageBase"),
	KC_PTR("ImageSize"),
	KC_U32("ProcessId"),
	KC_U32("ImageChecksum"),
	KC_U32("TimeDateStamp"),
	KC_U32("Reserved0"),
	KC_PTR("DefaultBase"),
	KC_U32("Reserved1"),
	KC_U32("Reserved2"),
	KC_U32("Reserved3"),
	KC_U32("Reserved4"),
	KC_WSTR("FileName"),
};
static const struct kc_field v3_fields[] = {
	KC_PTR("ImageBase"),
	KC_PTR("ImageSize"),
	KC_U32("ProcessId"),
	KC_U32("ImageChecksum"),
	KC_U32("TimeDateStamp"),
	KC_U8("SignatureLevel"),
	KC_U8("SignatureType"),
	KC_U16("Reserved0"),
	KC_PTR("DefaultBase"),
	KC_U32("Reserved1"),
	KC_U32("Reserved2"),
	KC_U32("Reserved3"),
	KC_U32("Reserved4"),
	KC_WSTR("FileName"),
};

static const struct kc_event kernel_base[] = { { 33, "KernelBase" } };
static const struct kc_field kernel_base_fields[] = { KC_PTR("ImageBase") };

static const struct kc_event hypercall[] = { { 34, "HypercallPage" } };
static const struct kc_field hypercall_fields[] = {
	KC_PTR("HypercallPageVa"),
};

static const struct kc_class classes[] = {
	{ "Image_Load_V2", "Image", &kc_guid_image, KC_VERSIONS(2),
	  KC_EVENTS(load), KC_FIELDS(v2_fields), KC_NO_MAPS, 0 },
	{ "Image_Load", "Image", &kc_guid_image, KC_VERSIONS(3),
	  KC_EVENTS(load), KC_FIELDS(v3_fields), KC_NO_MAPS, 0 },
	{ "KernelImageBase", "Image", &kc_guid_image, KC_VERSIONS(2),
	  KC_EVENTS(kernel_base), KC_FIELDS(kernel_base_fields),
	  KC_NO_MAPS, 0 },
	{ "HypercallPage", "Image", &kc_guid_image, KC_VERSIONS(2),
	  KC_EVENTS(hypercall), KC_FIELDS(hypercall_fields), KC_NO_MAPS, 0 },
};

const struct kc_table kc_image = { classes, KC_ARRAY_SIZE(classes) };
