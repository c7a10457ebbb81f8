// SPDX-License-Identifier: GPL-2.0
/*
 * --kernel LIST of etw record and etw start: a system logger's
 * EnableFlags from names (Windows' EVENT_TRACE_FLAG_* in lower case, as
 * xperf's kernel flags read) or numbers, and the stacks the profile asks
 * for: a sample without its stack says little, so `profile` also asks
 * for stacks on SampledProfile, as xperf -stackwalk Profile does, and
 * `cswitch` for stacks on CSwitch (where each thread waited).
 * --stack-copy[=SIZE] adds a copy of the user stack to each sample's
 * stack (ETW_TRACE_STACK_COPY_INFO), for DWARF unwinding afterwards.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>

#include "ctl.h"
#include "etw.h"

static const struct {
	const char *name;
	__u32 flag;
} kernel_flags[] = {
	{ "process", ETW_KFLAG_PROCESS },
	{ "thread", ETW_KFLAG_THREAD },
	{ "image", ETW_KFLAG_IMAGE_LOAD },
	{ "image_load", ETW_KFLAG_IMAGE_LOAD },
	{ "cswitch", ETW_KFLAG_CSWITCH },
	{ "disk", ETW_KFLAG_DISK_IO },
	{ "disk_io", ETW_KFLAG_DISK_IO },
	{ "disk_io_init", ETW_KFLAG_DISK_IO_INIT },
	{ "disk_file_io", ETW_KFLAG_DISK_FILE_IO },
	{ "dispatcher", ETW_KFLAG_DISPATCHER },
	{ "profile", ETW_KFLAG_PROFILE },
	{ "file", ETW_KFLAG_FILE_IO },
	{ "file_io", ETW_KFLAG_FILE_IO },
	{ "file_io_init", ETW_KFLAG_FILE_IO_INIT },
	{ "fileio", ETW_KFLAG_FILE_IO },
	{ "fileioinit", ETW_KFLAG_FILE_IO_INIT },
	/* xperf's FILENAME: the names of file objects. */
	{ "filename", ETW_KFLAG_DISK_FILE_IO },
};

int ctl_parse_kernel_flags(const char *list, __u32 *out)
{
	char buf[256], *tok, *save = NULL;
	unsigned long long v;
	size_t i;

	if (strlen(list) >= sizeof(buf))
		return -1;
	strcpy(buf, list);
	*out = 0;
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		for (i = 0; i < sizeof(kernel_flags) / sizeof(kernel_flags[0]); i++)
			if (!strcmp(tok, kernel_flags[i].name))
				break;
		if (i < sizeof(kernel_flags) / sizeof(kernel_flags[0]))
			*out |= kernel_flags[i].flag;
		else if (!ctl_number(tok, 0xffffffffu, &v))
			*out |= (__u32)v;
		else
			return -1;
	}
	return *out ? 0 : -1;
}

/* PerfInfo's class GUID {ce1dbfb4-137e-4da6-87b0-3f59aa102cbc}, SampledProfile. */
static const unsigned char perfinfo_sampled_profile[ETW_CLASSIC_EVENT_ID_SIZE] = {
	0xb4, 0xbf, 0x1d, 0xce, 0x7e, 0x13, 0xa6, 0x4d,
	0x87, 0xb0, 0x3f, 0x59, 0xaa, 0x10, 0x2c, 0xbc,
	46,
};

/* Thread's class GUID {3d6fa8d1-fe05-11d0-9dda-00c04fd7ba7c}, CSwitch. */
static const unsigned char thread_cswitch[ETW_CLASSIC_EVENT_ID_SIZE] = {
	0xd1, 0xa8, 0x6f, 0x3d, 0x05, 0xfe, 0xd0, 0x11,
	0x9d, 0xda, 0x00, 0xc0, 0x4f, 0xd7, 0xba, 0x7c,
	36,
};

/*
 * Stacks on SampledProfile with `profile`, and on CSwitch with `cswitch`
 * (the stack a thread waited in, as xperf -stackwalk CSwitch and
 * PerfView's thread time collect it).
 */
int ctl_kernel_stacks(int fd, __u32 logger_id, __u32 flags)
{
	unsigned char ids[2][ETW_CLASSIC_EVENT_ID_SIZE];
	struct etw_trace_info ti = {
		.size = sizeof(ti),
		.logger_id = logger_id,
		.info_class = ETW_TRACE_STACK_TRACING_INFO,
		.data = (__u64)(uintptr_t)ids,
	};
	unsigned int n = 0;

	if (flags & ETW_KFLAG_PROFILE)
		memcpy(ids[n++], perfinfo_sampled_profile, sizeof(ids[0]));
	if (flags & ETW_KFLAG_CSWITCH)
		memcpy(ids[n++], thread_cswitch, sizeof(ids[0]));
	if (!n)
		return 0;
	ti.length = n * sizeof(ids[0]);
	return ioctl(fd, ETW_IOC_TRACE_SET_INFO, &ti) < 0 ? -1 : 0;
}

int ctl_parse_stack_copy(const char *arg, __u32 *size)
{
	unsigned long long v = ETW_STACK_COPY_DEFAULT;

	if (arg && (ctl_number(arg, ETW_STACK_COPY_MAX, &v) || !v))
		return -1;
	*size = (__u32)v;
	return 0;
}

int ctl_stack_copy(int fd, __u32 logger_id, __u32 size)
{
	struct etw_trace_info ti = {
		.size = sizeof(ti),
		.logger_id = logger_id,
		.info_class = ETW_TRACE_STACK_COPY_INFO,
		.data = (__u64)(uintptr_t)&size,
		.length = sizeof(size),
	};

	return ioctl(fd, ETW_IOC_TRACE_SET_INFO, &ti) < 0 ? -1 : 0;
}
