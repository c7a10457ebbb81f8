// SPDX-License-Identifier: GPL-2.0
/*
 * etw record: start a session whose logger (etw logger) writes an ETL
 * file, enable providers, run a command, stop.
 */
#include <errno.h>
#include <getopt.h>
#include <stdint.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <etw_logger.h>

#include "ctl.h"
#include "etw.h"

static const char record_usage[] =
	"usage: etw record -p PROVIDER[:LEVEL[:KEYWORDS]] [options] -- COMMAND [ARGS...]\n"
	"       etw record --kernel FLAGS [-p ...] [options] -- COMMAND [ARGS...]\n\n"
	"Start a session whose logger writes an ETL file, enable the providers,\n"
	"run COMMAND, and stop the session when COMMAND exits: the file is\n"
	"complete when etw record returns.\n\n"
	"  -p, --provider P       a provider GUID or name, with an optional level\n"
	"                         and MatchAnyKeyword (repeat for more providers)\n"
	"  -k, --kernel FLAGS     kernel events too (a system logger): a list of\n"
	"                         process, thread, image, profile, cswitch,\n"
	"                         dispatcher, disk, file, or EnableFlags numbers\n"
	"      --stack-copy[=SIZE] with profile: copy SIZE bytes (default 8192,\n"
	"                         at most 32768) of the user stack with each\n"
	"                         sample, unwound by etw report from .eh_frame\n"
	"  -o, --output FILE      the ETL file (default etw.etl)\n"
	"  -b, --buffer-size KB   buffer size in KiB (default 64)\n"
	"  -P, --property LIST    EnableProperty for every provider: sid, ts-id,\n"
	"                         stack, process-start-key, event-key...\n"
	"  -h, --help             this text\n\n"
	"Exits with COMMAND's status.\n";

#define MAX_PROVIDERS 32

/* ControlTrace on the record session; fills @info on success. */
static int control(int fd, unsigned int logger_id, unsigned int code,
		   struct etw_session_info *info)
{
	struct etw_session_control sc = { .size = sizeof(sc), .code = code,
					  .logger_id = logger_id };

	if (ioctl(fd, ETW_IOC_SESSION_CONTROL, &sc) < 0)
		return -errno;
	if (info)
		*info = sc.info;
	return 0;
}

int cmd_record(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "provider", required_argument, NULL, 'p' },
		{ "output", required_argument, NULL, 'o' },
		{ "buffer-size", required_argument, NULL, 'b' },
		{ "property", required_argument, NULL, 'P' },
		{ "kernel", required_argument, NULL, 'k' },
		{ "stack-copy", optional_argument, NULL, 'S' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	struct etw_enable prov[MAX_PROVIDERS];
	struct etw_session_start st;
	struct etw_session_info final;
	struct progress pg;
	struct etw_logger_args la = { .path = "etw.etl" };
	unsigned int nprov = 0, i;
	unsigned long long v;
	__u32 property = 0, kflags = 0, copy = 0;
	int c, fd, ret, status = 0;
	pid_t pid;

	memset(&st, 0, sizeof(st));
	st.size = sizeof(st);
	while ((c = getopt_long(argc, argv, "+p:o:b:P:k:h", opts, NULL)) != -1) {
		switch (c) {
		case 'h':
			fputs(record_usage, stdout);
			return 0;
		case 'o':
			la.path = optarg;
			break;
		case 'b':
			if (ctl_number(optarg, 1024, &v) || !v)
				return etw_error("record: bad buffer size '%s'", optarg);
			st.info.buffer_size_kb = v;
			break;
		case 'k':
			if (ctl_parse_kernel_flags(optarg, &kflags))
				return etw_error("record: bad kernel flags '%s'", optarg);
			break;
		case 'S':
			if (ctl_parse_stack_copy(optarg, &copy))
				return etw_error("record: bad --stack-copy size '%s' (1 to %d)",
						 optarg, ETW_STACK_COPY_MAX);
			break;
		case 'P':
			if (ctl_parse_properties(optarg, &property))
				return etw_error("record: bad property list '%s'", optarg);
			break;
		case 'p':
			if (nprov == MAX_PROVIDERS)
				return etw_error("record: at most %d providers", MAX_PROVIDERS);
			memset(&prov[nprov], 0, sizeof(prov[0]));
			prov[nprov].size = sizeof(prov[0]);
			prov[nprov].control_code = ETW_CONTROL_CODE_ENABLE;
			if (ctl_parse_provider_spec(optarg, &prov[nprov]))
				return etw_error("record: bad provider '%s' (GUID-or-NAME[:LEVEL[:KEYWORDS]])",
						 optarg);
			nprov++;
			break;
		default:
			return 2;
		}
	}
	if (optind >= argc || (!nprov && !kflags)) {
		fputs(record_usage, stderr);
		return 2;
	}
	if (copy && !(kflags & ETW_KFLAG_PROFILE))
		return etw_error("record: --stack-copy needs --kernel profile");

	fd = ctl_open("record");
	if (fd < 0)
		return 1;
	snprintf(st.info.name, sizeof(st.info.name), "etw-record-%d", (int)getpid());
	st.info.log_file_mode = ETW_MODE_FILE_SEQUENTIAL;
	if (kflags) {
		st.info.log_file_mode |= ETW_MODE_SYSTEM_LOGGER;
		st.info.enable_flags = kflags;
	}
	if (ioctl(fd, ETW_IOC_SESSION_START, &st) < 0)
		return ctl_fail("record", st.info.name, -errno);
	if (ctl_kernel_stacks(fd, st.info.logger_id, kflags)) {
		ret = ctl_fail("record", "kernel stacks", -errno);
		goto out_stop;
	}
	if (copy && ctl_stack_copy(fd, st.info.logger_id, copy)) {
		ret = ctl_fail("record", "stack copy", -errno);
		goto out_stop;
	}
	la.logger_id = st.info.logger_id;
	ret = etw_logger_spawn(&la, &pid);
	if (ret) {
		ret = ret == -ENOEXEC ? etw_error("record: cannot run 'etw logger'") :
		      etw_error("record: %s: %s", la.path, strerror(-ret));
		goto out_stop;
	}
	for (i = 0; i < nprov; i++) {
		prov[i].logger_id = st.info.logger_id;
		prov[i].enable_property = property;
		if (ioctl(fd, ETW_IOC_ENABLE, &prov[i]) < 0) {
			ret = ctl_fail("record", "enable", -errno);
			goto out_stop;
		}
	}
	pid = fork();
	if (pid == 0) {
		close(fd);
		execvp(argv[optind], argv + optind);
		fprintf(stderr, "etw: record: %s: %s\n", argv[optind], strerror(errno));
		_exit(127);
	}
	/* Not over the command's own output on the terminal. */
	progress_init(&pg, "record", !isatty(STDOUT_FILENO));
	while (pid > 0 && waitpid(pid, &status, WNOHANG) == 0) {
		if (!control(fd, st.info.logger_id, ETW_CONTROL_QUERY, &final) &&
		    final.buffers_written)
			progress_show(&pg, "%u buffers (%u KiB) written to %s",
				      final.buffers_written,
				      final.buffers_written * st.info.buffer_size_kb,
				      la.path);
		usleep(100000);
	}
	progress_done(&pg);
	/* STOP returns once the logger has written everything. */
	memset(&final, 0, sizeof(final));
	ret = control(fd, st.info.logger_id, ETW_CONTROL_STOP, &final);
	close(fd);
	if (ret)
		return ctl_fail("record", "stop", ret);
	fprintf(stderr, "etw: record: %u buffers, %u events lost, %u buffers lost, written to %s\n",
		final.buffers_written, final.events_lost, final.log_buffers_lost, la.path);
	if (pid < 0)
		return etw_error("record: fork: %s", strerror(errno));
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);

out_stop:
	control(fd, st.info.logger_id, ETW_CONTROL_STOP, NULL);
	close(fd);
	return ret;
}
