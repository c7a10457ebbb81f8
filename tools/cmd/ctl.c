// SPDX-License-Identifier: GPL-2.0
/*
 * Helpers of the session subcommands (start, stop, query, list, flush,
 * enable, disable, record).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <libetw.h>

#include "ctl.h"
#include "etw.h"

/* The module's errno, the Win32 error libetw maps it to, and what it means. */
static const struct {
	int err;
	unsigned int code;
	const char *text;
} errors[] = {
	{ EINVAL, 87, "invalid argument" },
	{ EFAULT, 998, "bad address" },
	{ EBADF, 6, "no such registration" },
	{ EACCES, 5, "needs root, CAP_PERFMON or the etw control group" },
	{ EPERM, 5, "not permitted" },
	{ ENOENT, 4201, "no such session" },
	{ EEXIST, 183, "a session with that name or GUID already runs" },
	{ ENOSPC, 1450, "limit reached (64 sessions, 8 sessions per provider)" },
	{ ENOMEM, 8, "out of memory or over the module's buffer memory cap" },
	{ EOVERFLOW, 534, "event over 64 KiB" },
	{ EMSGSIZE, 234, "event larger than a session buffer" },
	{ ETIMEDOUT, 1460, "enabled, but a provider's callback did not return in time" },
	{ EBUSY, 170, "the session already has a consumer (logger)" },
};

int ctl_fail(const char *cmd, const char *what, int err)
{
	unsigned int i;

	if (err < 0)
		err = -err;
	for (i = 0; i < sizeof(errors) / sizeof(errors[0]); i++)
		if (errors[i].err == err)
			return etw_error("%s: %s: %s (%u): %s", cmd, what,
					 win32_error_name(errors[i].code),
					 errors[i].code, errors[i].text);
	return etw_error("%s: %s: %s", cmd, what, strerror(err));
}

int ctl_fail_win32(const char *cmd, const char *what, unsigned int code,
		   const char *text)
{
	const char *name = win32_error_name(code);

	if (!text)
		text = win32_error_text(code);
	if (name)
		return etw_error("%s: %s: %s (%u): %s", cmd, what, name, code, text);
	return etw_error("%s: %s: Win32 error %u", cmd, what, code);
}

/*
 * No /dev/etw: what libetw's controllers return then (ERROR_NOT_SUPPORTED),
 * and how to load the module, in one line.
 */
int ctl_no_module(const char *cmd)
{
	return ctl_fail_win32(cmd, "/dev/" ETW_DEVICE_NAME, 50,
			      "etw.ko is not loaded; load it with 'modprobe etw'");
}

bool ctl_module_missing(void)
{
	return access("/dev/" ETW_DEVICE_NAME, F_OK) && errno == ENOENT;
}

int ctl_open(const char *cmd)
{
	int fd = open("/dev/" ETW_DEVICE_NAME, O_RDWR | O_CLOEXEC);

	if (fd >= 0)
		return fd;
	/* What libetw's StartTrace and co. return in the same case. */
	if (errno == EACCES || errno == EPERM)
		ctl_fail_win32(cmd, "/dev/" ETW_DEVICE_NAME, 5, strerror(errno));
	else if (errno == ENOENT || errno == ENODEV || errno == ENXIO)
		ctl_no_module(cmd);
	else
		etw_error("%s: cannot open /dev/%s: %s", cmd, ETW_DEVICE_NAME,
			  strerror(errno));
	return -1;
}

static int hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* Text order: Data1 (4 bytes), Data2, Data3 (2), Data4 (8); first three little-endian in memory. */
int ctl_parse_guid(const char *s, unsigned char g[16])
{
	static const int order[16] = { 3, 2, 1, 0, 5, 4, 7, 6, 8, 9, 10, 11, 12, 13, 14, 15 };
	size_t len = strlen(s);
	int i, pos = 0;

	if (len == 38 && s[0] == '{' && s[37] == '}') {
		s++;
		len = 36;
	}
	if (len != 36 || s[8] != '-' || s[13] != '-' || s[18] != '-' || s[23] != '-')
		return -1;
	for (i = 0; i < 16; i++) {
		int hi, lo;

		if (s[pos] == '-')
			pos++;
		hi = hexval(s[pos]);
		lo = hexval(s[pos + 1]);
		if (hi < 0 || lo < 0)
			return -1;
		g[order[i]] = (unsigned char)(hi << 4 | lo);
		pos += 2;
	}
	return 0;
}

/*
 * A GUID in text form, or else a provider name, turned into the GUID
 * Windows derives from it (TraceLogging and EventSource providers are
 * known by name).  Text that has a GUID's shape but is not one is an error,
 * not a name.
 */
int ctl_parse_provider(const char *s, unsigned char g[16])
{
	size_t len = strlen(s);

	if (!ctl_parse_guid(s, g))
		return 0;
	if (!len || (len == 36 && s[8] == '-' && s[23] == '-') ||
	    (len == 38 && s[0] == '{'))
		return -1;
	return etw_guid_from_name(s, len, g) ? -1 : 0;
}

/* PROVIDER[:LEVEL[:KEYWORDS]], as etw record and etw live take it. */
int ctl_parse_provider_spec(const char *arg, struct etw_enable *e)
{
	char guid[256], *level, *kw;
	unsigned long long v;

	if (strlen(arg) >= sizeof(guid))
		return -1;
	strcpy(guid, arg);
	level = strchr(guid, ':');
	kw = NULL;
	if (level) {
		*level++ = 0;
		kw = strchr(level, ':');
		if (kw)
			*kw++ = 0;
	}
	if (ctl_parse_provider(guid, e->guid))
		return -1;
	if (level && *level) {
		if (ctl_number(level, 255, &v))
			return -1;
		e->level = v;
	}
	if (kw && *kw) {
		if (ctl_number(kw, ~0ULL, &v))
			return -1;
		e->match_any = v;
	}
	return 0;
}

void ctl_format_guid(const unsigned char g[16], char out[39])
{
	snprintf(out, 39, "{%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x}",
		 g[3], g[2], g[1], g[0], g[5], g[4], g[7], g[6], g[8], g[9],
		 g[10], g[11], g[12], g[13], g[14], g[15]);
}

int ctl_query(int fd, const char *name, unsigned int code,
	      struct etw_session_info *info)
{
	struct etw_session_control c;

	memset(&c, 0, sizeof(c));
	c.size = sizeof(c);
	c.code = code;
	if (strlen(name) >= sizeof(c.info.name))
		return -EINVAL;
	strcpy(c.info.name, name);
	if (ioctl(fd, ETW_IOC_SESSION_CONTROL, &c) < 0)
		return -errno;
	if (info)
		*info = c.info;
	return 0;
}

void ctl_print_session(const struct etw_session_info *s)
{
	char guid[39];

	ctl_format_guid(s->guid, guid);
	printf("%s\n", s->name);
	printf("  logger id      %u\n", s->logger_id);
	printf("  guid           %s\n", guid);
	printf("  mode           0x%08x\n", s->log_file_mode);
	printf("  buffer size    %u KiB\n", s->buffer_size_kb);
	printf("  buffers        %u (min %u, max %u, free %u)\n", s->number_of_buffers,
	       s->min_buffers, s->max_buffers, s->free_buffers);
	printf("  flush timer    %u s\n", s->flush_timer);
	printf("  events lost    %u\n", s->events_lost);
	printf("  buffers taken  %u\n", s->buffers_written);
}

static const struct {
	const char *name;
	__u32 bit;
} ctl_properties[] = {
	{ "sid", ETW_ENABLE_SID },
	{ "ts-id", ETW_ENABLE_TS_ID },
	{ "stack", ETW_ENABLE_STACK_TRACE },
	{ "psm-key", ETW_ENABLE_PSM_KEY },
	{ "ignore-keyword-0", ETW_ENABLE_IGNORE_KEYWORD_0 },
	{ "enable-keyword-0", ETW_ENABLE_ENABLE_KEYWORD_0 },
	{ "process-start-key", ETW_ENABLE_PROCESS_START_KEY },
	{ "event-key", ETW_ENABLE_EVENT_KEY },
	{ "exclude-inprivate", ETW_ENABLE_EXCLUDE_INPRIVATE },
	{ "silos", ETW_ENABLE_SILOS },
	{ "source-container-tracking", ETW_ENABLE_SOURCE_CONTAINER_TRACKING },
};

int ctl_parse_properties(const char *list, __u32 *out)
{
	char buf[256], *name, *save = NULL;
	unsigned long long v;
	size_t i;

	if (strlen(list) >= sizeof(buf))
		return -1;
	strcpy(buf, list);
	for (name = strtok_r(buf, ",", &save); name;
	     name = strtok_r(NULL, ",", &save)) {
		for (i = 0; i < sizeof(ctl_properties) / sizeof(ctl_properties[0]); i++)
			if (!strcmp(name, ctl_properties[i].name))
				break;
		if (i < sizeof(ctl_properties) / sizeof(ctl_properties[0]))
			*out |= ctl_properties[i].bit;
		else if (!ctl_number(name, 0xffffffffu, &v))
			*out |= v;
		else
			return -1;
	}
	return 0;
}

int ctl_number(const char *s, unsigned long long max, unsigned long long *out)
{
	char *end;

	if (!*s || *s == '-')
		return -1;
	errno = 0;
	*out = strtoull(s, &end, 0);
	return errno || *end || *out > max ? -1 : 0;
}
