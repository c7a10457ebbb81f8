// SPDX-License-Identifier: GPL-2.0
/*
 * etw start | stop | query | flush | list: sessions, as StartTrace and
 * ControlTrace see them.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "ctl.h"
#include "etw.h"

static const char start_usage[] =
	"usage: etw start NAME [options]\n\n"
	"Start a session (StartTrace).  The session runs in the kernel until\n"
	"'etw stop NAME', whatever happens to this command.\n\n"
	"  -b, --buffer-size KB   buffer size in KiB (default 64, at most 1024)\n"
	"  -m, --min-buffers N    MinimumBuffers (at least 2 per CPU)\n"
	"  -M, --max-buffers N    MaximumBuffers (default min + 20)\n"
	"  -f, --flush-timer S    hand over partial buffers every S seconds\n"
	"  -r, --real-time        EVENT_TRACE_REAL_TIME_MODE: for etw live and\n"
	"                         OpenTrace real-time consumers\n"
	"      --buffering        a memory ring: oldest buffers are overwritten\n"
	"      --independent      EVENT_TRACE_INDEPENDENT_SESSION_MODE\n"
	"  -h, --help             this text\n";

int cmd_start(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "buffer-size", required_argument, NULL, 'b' },
		{ "min-buffers", required_argument, NULL, 'm' },
		{ "max-buffers", required_argument, NULL, 'M' },
		{ "flush-timer", required_argument, NULL, 'f' },
		{ "real-time", no_argument, NULL, 'r' },
		{ "buffering", no_argument, NULL, 'B' },
		{ "independent", no_argument, NULL, 'I' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	struct etw_session_start st;
	unsigned long long v;
	int c, fd;

	memset(&st, 0, sizeof(st));
	st.size = sizeof(st);
	while ((c = getopt_long(argc, argv, "b:m:M:f:rh", opts, NULL)) != -1) {
		switch (c) {
		case 'h':
			fputs(start_usage, stdout);
			return 0;
		case 'r':
			st.info.log_file_mode |= ETW_MODE_REAL_TIME;
			continue;
		case 'B':
			st.info.log_file_mode |= ETW_MODE_BUFFERING;
			continue;
		case 'I':
			st.info.log_file_mode |= ETW_MODE_INDEPENDENT;
			continue;
		case '?':
			return 2;
		}
		if (ctl_number(optarg, 0xffffffffu, &v))
			return etw_error("start: bad number '%s' for -%c", optarg, c);
		if (c == 'b')
			st.info.buffer_size_kb = v;
		else if (c == 'm')
			st.info.min_buffers = v;
		else if (c == 'M')
			st.info.max_buffers = v;
		else
			st.info.flush_timer = v;
	}
	if (optind + 1 != argc) {
		fputs(start_usage, stderr);
		return 2;
	}
	if (strlen(argv[optind]) >= sizeof(st.info.name))
		return etw_error("start: session name longer than %zu bytes",
				 sizeof(st.info.name) - 1);
	strcpy(st.info.name, argv[optind]);
	fd = ctl_open("start");
	if (fd < 0)
		return 1;
	if (ioctl(fd, ETW_IOC_SESSION_START, &st) < 0)
		return ctl_fail("start", argv[optind], -errno);
	ctl_print_session(&st.info);
	close(fd);
	return 0;
}

/* stop, query and flush: one session by name. */
static int control_one(int argc, char **argv, const char *cmd, unsigned int code,
		       const char *what)
{
	struct etw_session_info info;
	int fd, ret;

	if (etw_wants_help(argc, argv)) {
		printf("usage: etw %s NAME\n\n%s\n", cmd, what);
		return 0;
	}
	if (argc != 2) {
		fprintf(stderr, "usage: etw %s NAME\n", cmd);
		return 2;
	}
	fd = ctl_open(cmd);
	if (fd < 0)
		return 1;
	ret = ctl_query(fd, argv[1], code, &info);
	close(fd);
	if (ret)
		return ctl_fail(cmd, argv[1], ret);
	ctl_print_session(&info);
	return 0;
}

int cmd_stop(int argc, char **argv)
{
	return control_one(argc, argv, "stop", ETW_CONTROL_STOP,
			   "Stop a session (ControlTrace STOP) and print its final statistics.");
}

int cmd_query(int argc, char **argv)
{
	return control_one(argc, argv, "query", ETW_CONTROL_QUERY,
			   "Print a session's settings and statistics (ControlTrace QUERY).");
}

int cmd_flush(int argc, char **argv)
{
	return control_one(argc, argv, "flush", ETW_CONTROL_FLUSH,
			   "Hand over every CPU's partial buffer (ControlTrace FLUSH).");
}

int cmd_list(int argc, char **argv)
{
	struct etw_session_control c;
	unsigned int id, n = 0;
	int fd;

	if (etw_wants_help(argc, argv)) {
		puts("usage: etw list\n\nList the running sessions (QueryAllTraces).");
		return 0;
	}
	if (argc != 1) {
		fputs("usage: etw list\n", stderr);
		return 2;
	}
	fd = ctl_open("list");
	if (fd < 0)
		return 1;
	printf("%-4s %-32s %8s %8s %12s\n", "id", "name", "buf KiB", "buffers", "events lost");
	for (id = 1; id <= ETW_MAX_SESSIONS; id++) {
		memset(&c, 0, sizeof(c));
		c.size = sizeof(c);
		c.code = ETW_CONTROL_QUERY;
		c.logger_id = id;
		if (ioctl(fd, ETW_IOC_SESSION_CONTROL, &c) < 0) {
			if (errno == ENOENT)
				continue;
			close(fd);
			return ctl_fail("list", "query", -errno);
		}
		printf("%-4u %-32s %8u %8u %12u\n", id, c.info.name,
		       c.info.buffer_size_kb, c.info.number_of_buffers,
		       c.info.events_lost);
		n++;
	}
	close(fd);
	printf("%u session%s\n", n, n == 1 ? "" : "s");
	return 0;
}
