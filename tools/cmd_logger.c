// SPDX-License-Identifier: GPL-2.0
/*
 * etw logger: the process that writes a file session's buffers to its ETL
 * file (internal: StartTrace and `etw start -o` run it).  It attaches as
 * the session's logger through the mmap consumer protocol, writes every
 * buffer as it fills, and when the session stops writes the rest, marks
 * the last buffer, rewrites the header buffer with the final statistics
 * and detaches; STOP returns then.  Restarted with --resume after being
 * killed, it continues the file and skips what the file already holds.
 */
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <etw_etl_writer.h>
#include <etw_session_reader.h>

#include "ctl.h"
#include "etw.h"

static const char logger_usage[] =
	"usage: etw logger --id ID --output FILE [options]\n\n"
	"Internal: the logger of a file session, run by StartTrace and\n"
	"'etw start -o'.  Writes the session's buffers to FILE until the\n"
	"session stops.\n\n"
	"  -i, --id ID            the session's logger id\n"
	"  -o, --output FILE      the ETL file (NEWFILE: with one %d)\n"
	"  -m, --mode MODE        LogFileMode file bits (default: the session's)\n"
	"  -s, --max-size N       MaximumFileSize, MiB (KiB with USE_KBYTES_FOR_SIZE)\n"
	"  -r, --resume           continue FILE after a logger that died\n"
	"      --ready-fd FD      report {0 or -errno, pid} on FD once attached\n"
	"  -h, --help             this text\n";

static void ready(int fd, int err)
{
	int msg[2] = { err, (int)getpid() };

	if (fd < 0)
		return;
	if (write(fd, msg, sizeof(msg)) != sizeof(msg))
		err = -EIO;
	close(fd);
}

/* Write every published buffer; a failed write is a lost buffer. */
static void write_ready(struct etw_session_reader *r, struct etw_etl_writer *w,
			unsigned int *failed)
{
	const void *b;

	while ((b = etw_session_reader_next(r)))
		if (etw_etl_writer_buffer(w, b))
			(*failed)++;
	etw_session_reader_set_log_buffers_lost(r, etw_etl_writer_lost(w) + *failed);
}

static int run(int dev, unsigned int id, const char *out,
	       struct etw_etl_writer_opts *opts, int ready_fd)
{
	struct etw_session_reader *r;
	struct etw_session_info info;
	struct etw_etl_writer *w;
	unsigned int failed = 0;
	int ret, stopped;

	ret = etw_session_reader_attach(&r, dev, id, ETW_CONSUMER_F_LOGGER);
	if (ret) {
		ready(ready_fd, ret);
		return ctl_fail("logger", "attach", ret);
	}
	ret = etw_session_reader_query(r, &info, NULL);
	if (!ret) {
		if (!opts->mode)
			opts->mode = info.log_file_mode;
		opts->buffers_lost = info.log_buffers_lost;
		ret = etw_etl_writer_open_ex(&w, out, &info, opts);
	}
	ready(ready_fd, ret);
	if (ret) {
		etw_session_reader_close(r);
		return etw_error("logger: %s: %s", out, strerror(-ret));
	}
	for (;;) {
		ret = etw_session_reader_wait(r, -1);
		if (ret == 1)
			write_ready(r, w, &failed);
		else if (ret == -ESHUTDOWN || ret < 0)
			break;
	}
	if (ret != -ESHUTDOWN)
		etw_error("logger: waiting for buffers: %s", strerror(-ret));
	/* Stopped and drained: the final numbers go into the header. */
	if (etw_session_reader_query(r, &info, &stopped))
		memset(&info, 0, sizeof(info));
	etw_session_reader_set_log_buffers_lost(r, etw_etl_writer_lost(w) + failed);
	ret = etw_etl_writer_close(w, &info);
	if (ret)
		etw_error("logger: %s: %s", out, strerror(-ret));
	/* Detaching lets STOP return: the file is complete. */
	etw_session_reader_close(r);
	return ret ? 1 : 0;
}

int cmd_logger(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "id", required_argument, NULL, 'i' },
		{ "output", required_argument, NULL, 'o' },
		{ "mode", required_argument, NULL, 'm' },
		{ "max-size", required_argument, NULL, 's' },
		{ "resume", no_argument, NULL, 'r' },
		{ "ready-fd", required_argument, NULL, 'R' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	struct etw_etl_writer_opts wo = { 0 };
	unsigned long long v, id = 0;
	const char *out = NULL;
	int c, dev, ready_fd = -1, ret;

	while ((c = getopt_long(argc, argv, "i:o:m:s:rh", opts, NULL)) != -1) {
		switch (c) {
		case 'h':
			fputs(logger_usage, stdout);
			return 0;
		case 'o':
			out = optarg;
			continue;
		case 'r':
			wo.resume = 1;
			continue;
		case '?':
			return 2;
		}
		if (ctl_number(optarg, 0x7fffffff, &v))
			return etw_error("logger: bad number '%s'", optarg);
		if (c == 'i')
			id = v;
		else if (c == 'm')
			wo.mode = v;
		else if (c == 's')
			wo.max_file_size = v;
		else
			ready_fd = v;
	}
	if (!id || !out || optind != argc) {
		fputs(logger_usage, stderr);
		ready(ready_fd, -EINVAL);
		return 2;
	}
	/* A daemon: the terminal that started it may go away. */
	signal(SIGHUP, SIG_IGN);
	signal(SIGINT, SIG_IGN);
	signal(SIGPIPE, SIG_IGN);
	dev = ctl_open("logger");
	if (dev < 0) {
		ready(ready_fd, -ENODEV);
		return 1;
	}
	ret = run(dev, id, out, &wo, ready_fd);
	close(dev);
	return ret;
}
