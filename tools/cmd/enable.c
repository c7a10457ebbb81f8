// SPDX-License-Identifier: GPL-2.0
/*
 * etw enable | disable: a provider in a session (EnableTraceEx2).
 */
#include <errno.h>
#include <getopt.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "ctl.h"
#include "etw.h"

static const char enable_usage[] =
	"usage: etw enable SESSION PROVIDER [options]\n"
	"       etw disable SESSION PROVIDER\n\n"
	"Enable a provider in a session (EnableTraceEx2); the provider need not\n"
	"be registered yet.  PROVIDER is a GUID or a provider name, which stands\n"
	"for the GUID Windows derives from it (see etw guid).\n\n"
	"  -l, --level N          Level (0..255; 0, the default, means all)\n"
	"  -k, --any-keyword K    MatchAnyKeyword (0, the default, means all)\n"
	"  -K, --all-keyword K    MatchAllKeyword\n"
	"      --ignore-keyword-0 drop events whose keyword is 0\n"
	"  -P, --property LIST    EnableProperty: sid, ts-id, stack,\n"
	"                         process-start-key, event-key, exclude-inprivate...\n"
	"  -t, --timeout MS       wait up to MS ms for the providers' callbacks\n"
	"      --pid PID          only events of this process (up to 8 times)\n"
	"      --event-id ID      only these event ids (up to 64 times)\n"
	"      --capture-state    ask the provider to log its state\n"
	"  -h, --help             this text\n";

int etw_enable_parse(int argc, char **argv, const char *cmd, struct etw_enable *e,
		     __u16 *ids);

/* Fill @e from the command line; returns 0, 1 (error printed) or 2 (usage). */
int etw_enable_parse(int argc, char **argv, const char *cmd, struct etw_enable *e,
		     __u16 *ids)
{
	static const struct option opts[] = {
		{ "level", required_argument, NULL, 'l' },
		{ "any-keyword", required_argument, NULL, 'k' },
		{ "all-keyword", required_argument, NULL, 'K' },
		{ "ignore-keyword-0", no_argument, NULL, 'z' },
		{ "property", required_argument, NULL, 'P' },
		{ "timeout", required_argument, NULL, 't' },
		{ "pid", required_argument, NULL, 'p' },
		{ "event-id", required_argument, NULL, 'i' },
		{ "capture-state", no_argument, NULL, 'c' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	unsigned long long v;
	int c;

	while ((c = getopt_long(argc, argv, "l:k:K:P:t:h", opts, NULL)) != -1) {
		switch (c) {
		case 'h':
			fputs(enable_usage, stdout);
			return -1;
		case 'z':
			e->enable_property |= ETW_ENABLE_IGNORE_KEYWORD_0;
			continue;
		case 'P':
			if (ctl_parse_properties(optarg, &e->enable_property))
				return etw_error("%s: bad property list '%s'", cmd, optarg);
			continue;
		case 'c':
			e->control_code = ETW_CONTROL_CODE_CAPTURE_STATE;
			continue;
		case '?':
			return 2;
		}
		if (ctl_number(optarg, c == 'l' ? 255 : c == 'p' || c == 'i' ?
			       (c == 'i' ? 0xffff : 0xffffffffu) :
			       c == 't' ? 0xffffffffu : ~0ULL, &v))
			return etw_error("%s: bad value '%s'", cmd, optarg);
		if (c == 't') {
			e->timeout_ms = v;
		} else if (c == 'l') {
			e->level = v;
		} else if (c == 'k') {
			e->match_any = v;
		} else if (c == 'K') {
			e->match_all = v;
		} else if (c == 'p') {
			if (e->pid_count == ETW_MAX_FILTER_PIDS)
				return etw_error("%s: at most %d --pid", cmd, ETW_MAX_FILTER_PIDS);
			e->pids[e->pid_count++] = v;
		} else {
			if (e->event_id_count == ETW_MAX_FILTER_EVENT_IDS)
				return etw_error("%s: at most %d --event-id", cmd,
						 ETW_MAX_FILTER_EVENT_IDS);
			ids[e->event_id_count++] = v;
			e->event_ids_enable = 1;
		}
	}
	return 0;
}

static int enable_common(int argc, char **argv, const char *cmd, __u32 code)
{
	__u16 ids[ETW_MAX_FILTER_EVENT_IDS];
	struct etw_session_info info;
	struct etw_enable e;
	int fd, ret;

	memset(&e, 0, sizeof(e));
	e.size = sizeof(e);
	e.control_code = code;
	ret = etw_enable_parse(argc, argv, cmd, &e, ids);
	if (ret)
		return ret < 0 ? 0 : ret;
	if (optind + 2 != argc) {
		fputs(enable_usage, stderr);
		return 2;
	}
	if (ctl_parse_provider(argv[optind + 1], e.guid))
		return etw_error("%s: '%s' is neither a GUID nor a provider name",
				 cmd, argv[optind + 1]);
	e.event_ids = (uintptr_t)ids;
	fd = ctl_open(cmd);
	if (fd < 0)
		return 1;
	ret = ctl_query(fd, argv[optind], ETW_CONTROL_QUERY, &info);
	if (!ret) {
		e.logger_id = info.logger_id;
		ret = ioctl(fd, ETW_IOC_ENABLE, &e) < 0 ? -errno : 0;
	}
	close(fd);
	return ret ? ctl_fail(cmd, argv[optind], ret) : 0;
}

int cmd_enable(int argc, char **argv)
{
	return enable_common(argc, argv, "enable", ETW_CONTROL_CODE_ENABLE);
}

int cmd_disable(int argc, char **argv)
{
	return enable_common(argc, argv, "disable", ETW_CONTROL_CODE_DISABLE);
}
