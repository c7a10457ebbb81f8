// SPDX-License-Identifier: GPL-2.0
/*
 * etw logger: the process that writes a file session's buffers to its ETL
 * file (internal: StartTrace and `etw start -o` run it).  It attaches as
 * the session's logger through the mmap consumer protocol, writes every
 * buffer as it fills, and when the session stops writes the rest, marks
 * the last buffer, rewrites the header buffer with the final statistics
 * and detaches; STOP returns then.  Restarted with --resume after being
 * killed, it continues the file and skips what the file already holds.
 *
 * The process StartTrace starts is a supervisor: the work is done by a
 * child, and a child that dies of a signal before it drained the session
 * is replaced by one that resumes the file (Documentation/logger.rst).
 */
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <etw_etl_writer.h>
#include <etw_session_reader.h>

#include "ctl.h"
#include "etw.h"
#include "logger_pace.h"

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
	"      --no-restart       do not replace a writer that is killed\n"
	"      --ready-fd FD      report {0 or -errno, pid} on FD once attached\n"
	"  -h, --help             this text\n";

/* What a writer needs; the supervisor keeps it to start the next one. */
struct logger_job {
	int dev;
	unsigned int id;
	const char *out;
	struct etw_etl_writer_opts opts;
	int ready_fd;
	int supervised;			/* a writer that dies is replaced */
	int known;			/* the session below was found */
	unsigned char guid[16];		/* the session, as first found */
	unsigned long long start_ticks;
};

/* Restarts allowed within RESTART_WINDOW seconds before giving up. */
#define RESTART_MAX	5
#define RESTART_WINDOW	10

static void ready(int fd, int err)
{
	int msg[2] = { err, (int)getpid() };

	if (fd < 0)
		return;
	if (write(fd, msg, sizeof(msg)) != sizeof(msg))
		err = -EIO;
	close(fd);
}

/* Buffers handed to the writer at once (etw_etl_writer_buffers()). */
#define BATCH 64

/*
 * The logger is woken for this many ready buffers at once: a quarter of
 * the session's buffers (MaximumBuffers), at least one.  Its cost is per
 * wake-up and per write request, not per byte, so it falls with the
 * batch; the rest of the pool is the margin for a device that stalls
 * (the kernel wakes the logger earlier anyway when the writers run low,
 * and at once for what a flush or STOP delivers).
 */
static unsigned int logger_watermark(unsigned int max_buffers)
{
	return max_buffers >= 8 ? max_buffers / 4 : 1;
}

/*
 * ControlTrace UPDATE may raise MaximumBuffers while the logger runs: the
 * watermark follows, read again at each wake-up (a load, no system call).
 * The old one, smaller, woke the logger no later.  @pool: the bound the
 * watermark was derived from.  The pace aims at the new one too.
 */
static void follow_pool(struct etw_session_reader *r, unsigned int *pool,
			struct logger_pace *pace)
{
	unsigned int max = etw_session_reader_max_buffers(r);

	if (max && max != *pool) {
		*pool = max;
		etw_session_reader_set_watermark(r, logger_watermark(max));
		logger_pace_watermark(pace, logger_watermark(max));
	}
}

/*
 * Write every published buffer; a failed write is a lost buffer.  Those
 * published together go in as few writes as the file allows: one
 * wake-up, one write for the buffers that follow each other in the file.
 * Each batch goes back to the session as soon as it is written.  Returns
 * how many were published.
 */
static unsigned int write_ready(struct etw_session_reader *r,
				struct etw_etl_writer *w, unsigned int *failed)
{
	const void *b[BATCH];
	unsigned int n, f, all = 0;

	do {
		for (n = 0; n < BATCH && (b[n] = etw_session_reader_next(r)); n++)
			;
		f = 0;
		etw_etl_writer_buffers(w, b, n, &f);
		*failed += f;
		all += n;
		etw_session_reader_release(r);
	} while (n == BATCH);
	etw_session_reader_set_log_buffers_lost(r, etw_etl_writer_lost(w) + *failed);
	return all;
}

/* Not the session the first writer attached to: its id was reused. */
static int other_session(const struct logger_job *j,
			 const struct etw_session_info *info)
{
	return j->known && (info->start_ticks != j->start_ticks ||
			    memcmp(info->guid, j->guid, sizeof(j->guid)));
}

/* The writer: attach, write until the session stops, finish the file. */
static int run(struct logger_job *j)
{
	struct etw_etl_writer_opts *opts = &j->opts;
	struct etw_session_reader *r;
	struct etw_session_info info;
	struct etw_etl_writer *w;
	struct logger_pace pace;
	unsigned int failed = 0, pool = 0;
	long long t;
	int ret, stopped;

	/* A successor finds the session, stopped or not, by its GUID. */
	ret = etw_session_reader_attach_guid(&r, j->dev, j->id,
					     j->known ? j->guid : NULL,
					     ETW_CONSUMER_F_LOGGER);
	if (ret) {
		ready(j->ready_fd, ret);
		return ctl_fail("logger", "attach", ret);
	}
	ret = etw_session_reader_query(r, &info, NULL);
	if (!ret && other_session(j, &info))
		ret = -ENOENT;
	if (!ret) {
		if (!opts->mode)
			opts->mode = info.log_file_mode;
		opts->buffers_lost = info.log_buffers_lost;
		ret = etw_etl_writer_open_ex(&w, j->out, &info, opts);
	}
	/*
	 * Supervised, a writer has a successor: from now on, if it dies the
	 * kernel keeps the session when it stops until a writer drained it.
	 */
	if (!ret) {
		etw_session_reader_set_keep(r, j->supervised);
		pool = info.max_buffers;
		etw_session_reader_set_watermark(r, logger_watermark(pool));
		logger_pace_init(&pace, logger_watermark(pool));
	}
	ready(j->ready_fd, ret);
	if (ret) {
		etw_session_reader_close(r);
		return etw_error("logger: %s: %s", j->out, strerror(-ret));
	}
	/* Woken, or on the pace's timer while buffers flow: write what is there. */
	for (;;) {
		ret = etw_session_reader_wait(r, logger_pace_timeout(&pace, etw_now_ns()));
		if (ret < 0)
			break;
		t = etw_now_ns();
		follow_pool(r, &pool, &pace);
		logger_pace_found(&pace, write_ready(r, w, &failed), t);
	}
	if (ret != -ESHUTDOWN) {
		etw_error("logger: waiting for buffers: %s", strerror(-ret));
		etw_session_reader_set_keep(r, 0);	/* no successor comes */
	}
	/* Stopped and drained: the final numbers go into the header. */
	if (etw_session_reader_query(r, &info, &stopped))
		memset(&info, 0, sizeof(info));
	etw_session_reader_set_log_buffers_lost(r, etw_etl_writer_lost(w) + failed);
	ret = etw_etl_writer_close(w, &info);
	if (ret)
		etw_error("logger: %s: %s", j->out, strerror(-ret));
	/* Detaching lets STOP return: the file is complete. */
	etw_session_reader_close(r);
	return ret ? 1 : 0;
}

/* The session the writers are for, to know it again after a restart. */
static void identify(struct logger_job *j)
{
	struct etw_session_control c;

	memset(&c, 0, sizeof(c));
	c.size = sizeof(c);
	c.code = ETW_CONTROL_QUERY;
	c.logger_id = j->id;
	if (ioctl(j->dev, ETW_IOC_SESSION_CONTROL, &c))
		return;
	memcpy(j->guid, c.info.guid, sizeof(j->guid));
	j->start_ticks = c.info.start_ticks;
	j->known = 1;
}

/*
 * Run writers one after the other: a writer that exits ends the logger
 * with its status; one killed by a signal is replaced by a writer that
 * resumes the file, so the buffers the kernel holds meanwhile reach it.
 * A writer killed before it drained a stopped session is replaced too:
 * the kernel keeps the session for the next (ETW_CTRL_KEEP).  One
 * that dies after that finds it gone and ends the logger.
 */
static int supervise(struct logger_job *j)
{
	struct timespec now;
	time_t window = 0;
	unsigned int deaths = 0;
	int status;
	pid_t pid;

	identify(j);
	j->supervised = 1;
	for (;;) {
		pid = fork();
		if (pid < 0) {
			j->supervised = 0;
			return run(j);	/* no supervisor, but a logger */
		}
		if (!pid)
			_exit(run(j));
		/* Only the first writer reports; its end must reach StartTrace. */
		if (j->ready_fd >= 0)
			close(j->ready_fd);
		j->ready_fd = -1;
		while (waitpid(pid, &status, 0) < 0)
			if (errno != EINTR)
				return 1;
		if (!WIFSIGNALED(status))
			return WEXITSTATUS(status);
		clock_gettime(CLOCK_MONOTONIC, &now);
		if (now.tv_sec - window > RESTART_WINDOW) {
			window = now.tv_sec;
			deaths = 0;
		}
		if (++deaths > RESTART_MAX)
			return etw_error("logger: writer killed %u times in %d s, giving up",
					 deaths, RESTART_WINDOW);
		j->opts.resume = 1;
	}
}

int cmd_logger(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "id", required_argument, NULL, 'i' },
		{ "output", required_argument, NULL, 'o' },
		{ "mode", required_argument, NULL, 'm' },
		{ "max-size", required_argument, NULL, 's' },
		{ "resume", no_argument, NULL, 'r' },
		{ "no-restart", no_argument, NULL, 'n' },
		{ "ready-fd", required_argument, NULL, 'R' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	struct logger_job j = { .ready_fd = -1 };
	unsigned long long v;
	int c, ret, restart = 1;

	while ((c = getopt_long(argc, argv, "i:o:m:s:rh", opts, NULL)) != -1) {
		switch (c) {
		case 'h':
			fputs(logger_usage, stdout);
			return 0;
		case 'o':
			j.out = optarg;
			continue;
		case 'r':
			j.opts.resume = 1;
			continue;
		case 'n':
			restart = 0;
			continue;
		case '?':
			return 2;
		}
		if (ctl_number(optarg, 0x7fffffff, &v))
			return etw_error("logger: bad number '%s'", optarg);
		if (c == 'i')
			j.id = v;
		else if (c == 'm')
			j.opts.mode = v;
		else if (c == 's')
			j.opts.max_file_size = v;
		else
			j.ready_fd = v;
	}
	if (!j.id || !j.out || optind != argc) {
		fputs(logger_usage, stderr);
		ready(j.ready_fd, -EINVAL);
		return 2;
	}
	/* A daemon: the terminal that started it may go away. */
	signal(SIGHUP, SIG_IGN);
	signal(SIGINT, SIG_IGN);
	signal(SIGPIPE, SIG_IGN);
	j.dev = ctl_open("logger");
	if (j.dev < 0) {
		ready(j.ready_fd, -ENODEV);
		return 1;
	}
	ret = restart ? supervise(&j) : run(&j);
	close(j.dev);
	return ret;
}
