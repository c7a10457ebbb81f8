// SPDX-License-Identifier: MIT
/*
 * The kernel class tables together (kernel_classes.h): the GUIDs of the
 * kernel groups (the MOF parent classes' Guid qualifiers on Microsoft
 * Learn: "EventTrace", "Process", "Thread", "Image", "PerfInfo",
 * "StackWalk", "DiskIo", "FileIo", "PageFault", "SystemConfig") and of
 * KernelTraceControl's ImageID class, and the search by (GUID, opcode,
 * version).
 */
#include <string.h>

#include "kernel_classes.h"

const GUID kc_guid_eventtrace = { 0x68fdd900, 0x4a3e, 0x11d1,
	{ 0x84, 0xf4, 0x00, 0x00, 0xf8, 0x04, 0x64, 0xe3 } };
const GUID kc_guid_diskio = { 0x3d6fa8d4, 0xfe05, 0x11d0,
	{ 0x9d, 0xda, 0x00, 0xc0, 0x4f, 0xd7, 0xba, 0x7c } };
const GUID kc_guid_pagefault = { 0x3d6fa8d3, 0xfe05, 0x11d0,
	{ 0x9d, 0xda, 0x00, 0xc0, 0x4f, 0xd7, 0xba, 0x7c } };
const GUID kc_guid_process = { 0x3d6fa8d0, 0xfe05, 0x11d0,
	{ 0x9d, 0xda, 0x00, 0xc0, 0x4f, 0xd7, 0xba, 0x7c } };
const GUID kc_guid_fileio = { 0x90cbdc39, 0x4a3e, 0x11d1,
	{ 0x84, 0xf4, 0x00, 0x00, 0xf8, 0x04, 0x64, 0xe3 } };
const GUID kc_guid_thread = { 0x3d6fa8d1, 0xfe05, 0x11d0,
	{ 0x9d, 0xda, 0x00, 0xc0, 0x4f, 0xd7, 0xba, 0x7c } };
const GUID kc_guid_sysconfig = { 0x01853a65, 0x418f, 0x4f36,
	{ 0xae, 0xfc, 0xdc, 0x0f, 0x1d, 0x2f, 0xd2, 0x35 } };
const GUID kc_guid_perfinfo = { 0xce1dbfb4, 0x137e, 0x4da6,
	{ 0x87, 0xb0, 0x3f, 0x59, 0xaa, 0x10, 0x2c, 0xbc } };
const GUID kc_guid_image = { 0x2cb15d1d, 0x5fc1, 0x11d2,
	{ 0xab, 0xe1, 0x00, 0xa0, 0xc9, 0x11, 0xf5, 0x18 } };
const GUID kc_guid_stackwalk = { 0xdef2fe46, 0x7bd6, 0x4b80,
	{ 0xbd, 0x94, 0xf5, 0x7f, 0xe2, 0x0d, 0x0c, 0xe3 } };
/* KernelTraceControl's ImageID class (xperf -merge adds its events). */
const GUID kc_guid_imageid = { 0xb3e675d7, 0x2554, 0x4f18,
	{ 0x83, 0x0b, 0x27, 0x62, 0x73, 0x25, 0x60, 0xde } };

/* SystemTraceControlGuid: MSNT_SystemTrace's Guid qualifier. */
static const GUID kc_guid_systemtrace = { 0x9e814aad, 0x3204, 0x11d2,
	{ 0x9a, 0x82, 0x00, 0x60, 0x08, 0xa8, 0x69, 0x39 } };

const struct kc_table *const kc_tables[] = {
	&kc_eventtrace, &kc_process, &kc_thread, &kc_image, &kc_perfinfo,
	&kc_stackwalk, &kc_diskio, &kc_fileio, &kc_pagefault, &kc_sysconfig,
	&kc_kerneltracecontrol,
};
const unsigned int kc_table_count = KC_ARRAY_SIZE(kc_tables);

static bool has_version(const struct kc_class *c, uint8_t version)
{
	return memchr(c->versions, version, c->nversions) != NULL;
}

const struct kc_class *kc_find(const GUID *guid, uint8_t opcode,
			       uint8_t version, const char **event_name)
{
	for (unsigned int t = 0; t < kc_table_count; t++) {
		const struct kc_table *tab = kc_tables[t];

		for (uint32_t i = 0; i < tab->count; i++) {
			const struct kc_class *c = &tab->classes[i];

			if (memcmp(c->guid, guid, sizeof(*guid)) ||
			    !has_version(c, version))
				continue;
			for (uint8_t e = 0; e < c->nevents; e++)
				if (c->events[e].opcode == opcode) {
					*event_name = c->events[e].name;
					return c;
				}
		}
	}
	return NULL;
}

/* Whether a class before tables[t].classes[i] has the same GUID. */
static bool seen_before(unsigned int t, uint32_t i)
{
	const GUID *g = kc_tables[t]->classes[i].guid;

	for (unsigned int u = 0; u <= t; u++) {
		const struct kc_table *tab = kc_tables[u];
		uint32_t end = u == t ? i : tab->count;

		for (uint32_t j = 0; j < end; j++)
			if (!memcmp(tab->classes[j].guid, g, sizeof(*g)))
				return true;
	}
	return false;
}

int kc_providers_foreach(int (*fn)(void *ctx, const GUID *guid,
				   const char *name),
			 void *ctx)
{
	int ret = fn(ctx, &kc_guid_systemtrace, "MSNT_SystemTrace");

	for (unsigned int t = 0; t < kc_table_count && !ret; t++) {
		const struct kc_table *tab = kc_tables[t];

		for (uint32_t i = 0; i < tab->count && !ret; i++)
			if (!seen_before(t, i))
				ret = fn(ctx, tab->classes[i].guid,
					 tab->classes[i].task);
	}
	return ret;
}
