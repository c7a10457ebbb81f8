// SPDX-License-Identifier: MIT
/*
 * StackWalk ({def2fe46-...}): wmicore.mof's StackWalk_Event (32:
 * EventTimeStamp, StackProcess, StackThread, then Stack1, Stack2, ...:
 * an event carries as many as its size holds, up to 192 per Microsoft
 * Learn's "StackWalk_Event class"), StackWalk_Key (37 StackKeyKernel,
 * 38 StackKeyUser) and StackWalk_TypeGroup1 (34 KeyCreate, 35
 * KeyDelete, 36 KeyRundown: a key and its frames, StackFrame[192] cut
 * to the event's size).
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
	{ 34, "KeyCreate" }, { 35, "KeyDelete" }, { 36, "KeyRundown" },
};
static const struct kc_field key_def_fields[] = {
	KC_PTR("Key"),
	KC_ARRAY("StackFrame", POINTER, NULL, STACK_FRAMES),
};

static const struct kc_class classes[] = {
	{ "StackWalk_Event", "StackWalk", &kc_guid_stackwalk, KC_VERSIONS(2),
	  KC_EVENTS(stack), KC_FIELDS(stack_fields), KC_NO_MAPS, STACK_FRAMES },
	{ "StackWalk_Key", "StackWalk", &kc_guid_stackwalk, KC_VERSIONS(2),
	  KC_EVENTS(key_ref), KC_FIELDS(key_ref_fields), KC_NO_MAPS, 0 },
	{ "StackWalk_TypeGroup1", "StackWalk", &kc_guid_stackwalk,
	  KC_VERSIONS(2), KC_EVENTS(key_def), KC_FIELDS(key_def_fields),
	  KC_NO_MAPS, 0 },
};

const struct kc_table kc_stackwalk = { classes, KC_ARRAY_SIZE(classes) };
