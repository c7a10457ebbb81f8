// SPDX-License-Identifier: GPL-2.0
/*
 * etw record: start a session, enable providers, run a command, write
 * every buffer to an ETL file, stop.
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

#include <etw_etl_writer.h>

#include "ctl.h"
#include "etw.h"

static const char record_usage[] =
	"usage: etw record -p PROVIDER[:LEVEL[:KEYWORDS]] [options] -- COMMAND [ARGS...]\n\n"
	"Start a session, enable the providers, run COMMAND, write the session's\n"
	"buffers to an ETL file, and stop the session when COMMAND exits.\n\n"
	"  -p, --provider P       a provider GUID or name, with an optional level\n"
	"                         and MatchAnyKeyword (repeat for more providers)\n"
	"  -o, --output FILE      the ETL file (default etw.etl)\n"
	"  -b, --buffer-size KB   buffer size in KiB (default 64)\n"
	"  -P, --property LIST    EnableProperty for every provider: sid, ts-id,\n"
	"                         stack, process-start-key, event-key...\n"
	"  -h, --help             this text\n\n"
	"Exits with COMMAND's status.\n";

#define MAX_PROVIDERS 32

/* Move every ready buffer into the file; returns 0 or -errno. */
static int drain(int fd, unsigned int logger_id, struct etw_etl_writer *w,
		 void *buf, unsigned int size)
{
	struct etw_buffer_read r;
	int ret;

	for (;;) {
		memset(&r, 0, sizeof(r));
		r.size = sizeof(r);
		r.logger_id = logger_id;
		r.length = size;
		r.buf = (uintptr_t)buf;
		if (ioctl(fd, ETW_IOC_BUFFER_READ, &r) < 0)
			return errno == EAGAIN ? 0 : -errno;
		ret = etw_etl_writer_buffer(w, buf);
		if (ret)
			return ret;
	}
}

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
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	struct etw_enable prov[MAX_PROVIDERS];
	struct etw_session_start st;
	struct etw_session_info final;
	struct etw_etl_writer *w;
	struct progress pg;
	const char *out = "etw.etl";
	unsigned int nprov = 0, i;
	unsigned long long v;
	__u32 property = 0;
	int c, fd, ret, status = 0;
	void *buf;
	pid_t pid;

	memset(&st, 0, sizeof(st));
	st.size = sizeof(st);
	while ((c = getopt_long(argc, argv, "+p:o:b:P:h", opts, NULL)) != -1) {
		switch (c) {
		case 'h':
			fputs(record_usage, stdout);
			return 0;
		case 'o':
			out = optarg;
			break;
		case 'b':
			if (ctl_number(optarg, 1024, &v) || !v)
				return etw_error("record: bad buffer size '%s'", optarg);
			st.info.buffer_size_kb = v;
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
	if (optind >= argc || !nprov) {
		fputs(record_usage, stderr);
		return 2;
	}

	fd = ctl_open("record");
	if (fd < 0)
		return 1;
	snprintf(st.info.name, sizeof(st.info.name), "etw-record-%d", (int)getpid());
	if (ioctl(fd, ETW_IOC_SESSION_START, &st) < 0)
		return ctl_fail("record", st.info.name, -errno);
	for (i = 0; i < nprov; i++) {
		prov[i].logger_id = st.info.logger_id;
		prov[i].enable_property = property;
		if (ioctl(fd, ETW_IOC_ENABLE, &prov[i]) < 0) {
			ret = ctl_fail("record", "enable", -errno);
			goto out_stop;
		}
	}
	ret = etw_etl_writer_open(&w, out, &st.info);
	if (ret) {
		ret = etw_error("record: %s: %s", out, strerror(-ret));
		goto out_stop;
	}
	buf = malloc(st.info.buffer_size_kb * 1024);
	if (!buf) {
		ret = etw_error("record: out of memory");
		etw_etl_writer_close(w, NULL);
		goto out_stop;
	}

	pid = fork();
	if (pid == 0) {
		close(fd);
		execvp(argv[optind], argv + optind);
		fprintf(stderr, "etw: record: %s: %s\n", argv[optind], strerror(errno));
		_exit(127);
	}
	ret = 0;
	/* Not over the command's own output on the terminal. */
	progress_init(&pg, "record", !isatty(STDOUT_FILENO));
	while (pid > 0 && !ret) {
		ret = drain(fd, st.info.logger_id, w, buf, st.info.buffer_size_kb * 1024);
		if (etw_etl_writer_count(w) > 1)
			progress_show(&pg, "%u buffers (%u KiB) written to %s",
				      etw_etl_writer_count(w) - 1,
				      (etw_etl_writer_count(w) - 1) *
				      st.info.buffer_size_kb, out);
		if (waitpid(pid, &status, WNOHANG) == pid)
			break;
		usleep(20000);
	}
	progress_done(&pg);
	/* The command is done: hand over the partial buffers, take them all. */
	if (!ret && !control(fd, st.info.logger_id, ETW_CONTROL_FLUSH, NULL))
		ret = drain(fd, st.info.logger_id, w, buf, st.info.buffer_size_kb * 1024);
	free(buf);
	memset(&final, 0, sizeof(final));
	if (ret)
		etw_error("record: %s: %s", out, strerror(-ret));
	control(fd, st.info.logger_id, ETW_CONTROL_STOP, &final);
	i = etw_etl_writer_count(w);
	if (etw_etl_writer_close(w, &final) && !ret)
		ret = etw_error("record: %s: cannot finish the file", out);
	close(fd);
	fprintf(stderr, "etw: record: %u buffers, %u events lost, written to %s\n",
		i, final.events_lost, out);
	if (pid < 0)
		return etw_error("record: fork: %s", strerror(errno));
	if (ret)
		return 1;
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);

out_stop:
	control(fd, st.info.logger_id, ETW_CONTROL_STOP, NULL);
	close(fd);
	return ret;
}
