// SPDX-License-Identifier: MIT
/*
 * StackWalk ({def2fe46-...}).  Microsoft Learn's "StackWalk_Event class"
 * (32): EventTimeStamp, StackProcess, StackThread, then Stack1 ..
 * Stack192, of which an event carries as many as its size holds.  The
 * key forms (37 StackKeyKernel, 38 StackKeyUser: the event's stack by
 * key; 35 KeyDelete, 36 KeyRundown: a key's frames) are PerfView's
 * StackWalkRefTraceData and StackWalkDefTraceData; Learn is silent.
 */
#include "kernel_classes.h"

#define STACK_FRAMES	192

static const struct kc_event stack[] = { { 32, "Stack" } };
static const struct kc_field stack_fields[] = {
	KC_U64("EventTimeStamp"),
	KC_X32("StackProcess"),
	KC_U32("StackThread"),
	KC_PTR("Stack"),		/* Stack1 .. Stack192 */
};

static const struct kc_event key_ref[] = {
	{ 37, "StackKeyKernel" }, { 38, "StackKeyUser" },
};
static const struct kc_field key_ref_fields[] = {
	KC_U64("EventTimeStamp"),
	KC_X32("StackProcess"),
	KC_U32("StackThread"),
	KC_PTR("StackKey"),
};

static const struct kc_event key_def[] = {
	{ 35, "KeyDelete" }, { 36, "KeyRundown" },
};
static const struct kc_field key_def_fields[] = {
	KC_PTR("StackKey"),
	KC_PTR("Stack"),		/* Stack1 .. Stack192 */
};

static const struct kc_class classes[] = {
	{ "StackWalk_Event", "StackWalk", &kc_guid_stackwalk, KC_VERSIONS(2),
	  KC_EVENTS(stack), KC_FIELDS(stack_fields), KC_NO_MAPS, STACK_FRAMES },
	{ "StackWalk_Key", "StackWalk", &kc_guid_stackwalk, KC_VERSIONS(2),
	  KC_EVENTS(key_ref), KC_FIELDS(key_ref_fields), KC_NO_MAPS, 0 },
	{ "StackWalk_KeyDefinition", "StackWalk", &kc_guid_stackwalk,
	  KC_VERSIONS(2), KC_EVENTS(key_def), KC_FIELDS(key_def_fields),
	  KC_NO_MAPS, STACK_FRAMES },
};

const struct kc_table kc_stackwalk = { classes, KC_ARRAY_SIZE(classes) };
