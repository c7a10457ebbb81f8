// SPDX-License-Identifier: GPL-2.0
/*
 * etw start | stop | query | flush | list: sessions, as StartTrace and
 * ControlTrace see them.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdint.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <etw_logger.h>

#include "ctl.h"
#include "etw.h"

static const char start_usage[] =
	"usage: etw start NAME [options]\n"
	"       etw start --attach NAME -o FILE [--max-size N]\n\n"
	"Start a session (StartTrace).  The session runs in the kernel until\n"
	"'etw stop NAME', whatever happens to this command.  With -o, a logger\n"
	"process writes it to FILE; 'etw stop' returns when FILE is complete.\n"
	"A killed logger restarts itself; --attach starts a new one for a\n"
	"running session whose logger and its supervisor died:\n"
	"it continues FILE, skipping what FILE already holds.\n\n"
	"  -o, --output FILE      the ETL file (EVENT_TRACE_FILE_MODE_SEQUENTIAL)\n"
	"      --circular         a file of --max-size MiB, oldest buffers reused\n"
	"      --newfile          a new file each --max-size MiB (FILE has a %d)\n"
	"      --append           continue an existing FILE\n"
	"  -s, --max-size N       MaximumFileSize in MiB (SEQUENTIAL: stop there)\n"
	"      --attach           restart the logger of a running session\n"
	"  -b, --buffer-size KB   buffer size in KiB (default 64, at most 1024)\n"
	"  -m, --min-buffers N    MinimumBuffers (at least 2 per CPU)\n"
	"  -M, --max-buffers N    MaximumBuffers (default min + 20)\n"
	"  -f, --flush-timer S    hand over partial buffers every S seconds\n"
	"  -r, --real-time        EVENT_TRACE_REAL_TIME_MODE: for etw live and\n"
	"                         OpenTrace real-time consumers\n"
	"      --buffering        a memory ring: oldest buffers are overwritten\n"
	"      --independent      EVENT_TRACE_INDEPENDENT_SESSION_MODE\n"
	"  -k, --kernel FLAGS     a system logger with these EnableFlags: process,\n"
	"                         thread, image, profile, cswitch, dispatcher,\n"
	"                         disk, file, or numbers (NAME \"NT Kernel Logger\"\n"
	"                         is one whatever the flags)\n"
	"      --stack-copy[=SIZE] with profile: copy SIZE bytes (default 8192,\n"
	"                         at most 32768) of the user stack with each\n"
	"                         sample, unwound by etw report from .eh_frame\n"
	"  -h, --help             this text\n";

/* A logger for the session; if it cannot run, a session we started stops. */
static int start_logger(struct etw_logger_args *la, const struct etw_session_info *info,
			int stop_on_error)
{
	pid_t pid;
	int ret, fd;

	la->logger_id = info->logger_id;
	ret = etw_logger_spawn(la, &pid);
	if (!ret) {
		ctl_print_session(info);
		printf("  logger         pid %d, %s\n", (int)pid, la->path);
		return 0;
	}
	if (stop_on_error) {
		fd = ctl_open("start");
		if (fd >= 0) {
			ctl_query(fd, info->name, ETW_CONTROL_STOP, NULL);
			close(fd);
		}
	}
	if (ret == -ENOEXEC)
		return etw_error("start: cannot run 'etw logger'");
	if (ret == -EBUSY || ret == -EINVAL || ret == -EACCES)
		return ctl_fail("start", la->path, ret);
	return etw_error("start: %s: %s", la->path, strerror(-ret));
}

int cmd_start(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "max-size", required_argument, NULL, 's' },
		{ "circular", no_argument, NULL, 'C' },
		{ "newfile", no_argument, NULL, 'N' },
		{ "append", no_argument, NULL, 'A' },
		{ "attach", no_argument, NULL, 'a' },
		{ "buffer-size", required_argument, NULL, 'b' },
		{ "min-buffers", required_argument, NULL, 'm' },
		{ "max-buffers", required_argument, NULL, 'M' },
		{ "flush-timer", required_argument, NULL, 'f' },
		{ "real-time", no_argument, NULL, 'r' },
		{ "buffering", no_argument, NULL, 'B' },
		{ "independent", no_argument, NULL, 'I' },
		{ "kernel", required_argument, NULL, 'k' },
		{ "stack-copy", optional_argument, NULL, 'S' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	struct etw_logger_args la = { 0 };
	struct etw_session_start st;
	char full[ETW_MAX_LOG_FILE_NAME];
	unsigned long long v;
	unsigned int file_mode = 0;
	__u32 copy = 0;
	int c, fd, attach = 0;

	memset(&st, 0, sizeof(st));
	st.size = sizeof(st);
	while ((c = getopt_long(argc, argv, "o:s:b:m:M:f:rk:h", opts, NULL)) != -1) {
		switch (c) {
		case 'h':
			fputs(start_usage, stdout);
			return 0;
		case 'r':
			st.info.log_file_mode |= ETW_MODE_REAL_TIME;
			continue;
		case 'o':
			la.path = optarg;
			continue;
		case 'C':
			file_mode |= ETW_MODE_FILE_CIRCULAR;
			continue;
		case 'N':
			file_mode |= ETW_MODE_FILE_NEWFILE;
			continue;
		case 'A':
			file_mode |= ETW_MODE_FILE_APPEND;
			continue;
		case 'a':
			attach = 1;
			continue;
		case 'B':
			st.info.log_file_mode |= ETW_MODE_BUFFERING;
			continue;
		case 'I':
			st.info.log_file_mode |= ETW_MODE_INDEPENDENT;
			continue;
		case 'k':
			if (ctl_parse_kernel_flags(optarg, &st.info.enable_flags))
				return etw_error("start: bad kernel flags '%s'", optarg);
			st.info.log_file_mode |= ETW_MODE_SYSTEM_LOGGER;
			continue;
		case 'S':
			if (ctl_parse_stack_copy(optarg, &copy))
				return etw_error("start: bad --stack-copy size '%s' (1 to %d)",
						 optarg, ETW_STACK_COPY_MAX);
			continue;
		case '?':
			return 2;
		}
		if (ctl_number(optarg, 0xffffffffu, &v))
			return etw_error("start: bad number '%s' for -%c", optarg, c);
		if (c == 's')
			la.max_file_size = v;
		else if (c == 'b')
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
	if (la.path && !file_mode)
		file_mode = ETW_MODE_FILE_SEQUENTIAL;
	if (copy && !(st.info.enable_flags & ETW_KFLAG_PROFILE))
		return etw_error("start: --stack-copy needs --kernel profile");
	if ((attach && !la.path) || (file_mode && !la.path))
		return etw_error("start: --attach and file modes need -o FILE");
	st.info.log_file_mode |= file_mode;
	/* The module keeps the file's absolute name for every controller. */
	if (la.path) {
		if (etw_logger_full_path(la.path, full, sizeof(full)))
			return etw_error("start: %s: the name is too long", la.path);
		st.log_file_name = (uintptr_t)full;
	}
	fd = ctl_open("start");
	if (fd < 0)
		return 1;
	if (attach) {
		int ret = ctl_query(fd, argv[optind], ETW_CONTROL_QUERY, &st.info);

		close(fd);
		if (ret)
			return ctl_fail("start", argv[optind], ret);
		la.resume = 1;
		return start_logger(&la, &st.info, 0);
	}
	if (ioctl(fd, ETW_IOC_SESSION_START, &st) < 0)
		return ctl_fail("start", argv[optind], -errno);
	if (ctl_kernel_stacks(fd, st.info.logger_id, st.info.enable_flags))
		etw_error("start: %s: no stacks on samples", argv[optind]);
	else if (copy && ctl_stack_copy(fd, st.info.logger_id, copy))
		etw_error("start: %s: no user stack copies: %s", argv[optind],
			  strerror(errno));
	close(fd);
	if (la.path)
		return start_logger(&la, &st.info, 1);
	ctl_print_session(&st.info);
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

static const char discard_usage[] =
	"usage: etw stop --discard NAME\n\n"
	"Give up the kept session NAME: a stopped file session the module keeps\n"
	"for its logger, which died (etw.ko's keep_timeout_s would discard it).\n"
	"What it holds is lost and counted; its final statistics are printed.\n";

/* etw stop --discard NAME: ETW_CONTROL_DISCARD. */
static int discard(int argc, char **argv)
{
	struct etw_session_info info;
	int fd, ret;

	if (argc != 3) {
		fputs(discard_usage, stderr);
		return 2;
	}
	fd = ctl_open("stop");
	if (fd < 0)
		return 1;
	ret = ctl_query(fd, argv[2], ETW_CONTROL_DISCARD, &info);
	close(fd);
	if (ret == -ENOENT)
		return etw_error("stop: %s: no kept session of that name", argv[2]);
	if (ret == -EBUSY)
		return etw_error("stop: %s: a logger is attached and draining it", argv[2]);
	if (ret == -EINVAL)
		return etw_error("stop: %s: this etw.ko cannot discard (ABI 1.3 can)", argv[2]);
	if (ret)
		return ctl_fail("stop", argv[2], ret);
	ctl_print_session(&info);
	return 0;
}

int cmd_stop(int argc, char **argv)
{
	if (argc > 1 && !strcmp(argv[1], "--discard"))
		return discard(argc, argv);
	return control_one(argc, argv, "stop", ETW_CONTROL_STOP,
			   "Stop a session (ControlTrace STOP) and print its final statistics.\n"
			   "'etw stop --discard NAME' gives up a kept session (see etw-stop(1)).");
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
