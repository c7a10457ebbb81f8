// SPDX-License-Identifier: MIT
/*
 * Starting `etw logger` for a file session.  The logger is a process of
 * its own, as on Windows the kernel writes a session's file whoever
 * started it: it outlives the caller and is reparented to init (double
 * fork, new session id).  A pipe tells the caller when the logger has
 * attached and opened its file, or why it could not.  Between fork and
 * exec the children call only async-signal-safe functions: the caller may
 * be multithreaded.  They are made with _Fork(), which runs no fork
 * handler: the provider side's would register the caller's providers
 * anew in a child that only execs.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include "etw_logger.h"
#include "../common/internal.h"

#ifndef ETW_TOOL_PATH
#define ETW_TOOL_PATH "/usr/local/bin/etw"
#endif

static void exec_logger(const char *env_tool, char **argv, int ready)
{
	int nul = open("/dev/null", O_RDWR);

	setsid();
	/*
	 * A daemon holds none of the caller's standard streams either: a
	 * caller reading our stderr (out=$(etw start -o f 2>&1)) would wait
	 * for the session to end.  Its errors before it is ready go back on
	 * the ready pipe; after that they are LogBuffersLost.
	 */
	if (nul >= 0) {
		dup2(nul, 0);
		dup2(nul, 1);
		dup2(nul, 2);
		if (nul > 2)
			close(nul);
	}
	/*
	 * The ready pipe (above 2) is the one descriptor the logger inherits
	 * on purpose; a daemon keeps none of the caller's others open.
	 */
	close_range(3, ready - 1, 0);
	close_range(ready + 1, ~0U, 0);
	fcntl(ready, F_SETFD, 0);
	if (env_tool)
		execv(env_tool, argv);
	execv(ETW_TOOL_PATH, argv);
	execvp("etw", argv);
}

ETW_EXPORT int etw_logger_spawn(const struct etw_logger_args *a, pid_t *pid)
{
	char id[16], mode[16], max[16], fd[16];
	char *argv[16];
	const char *env_tool = getenv("ETW_TOOL");
	int p[2], n = 0, msg[2], status;
	pid_t child;
	ssize_t got;

	if (pipe2(p, O_CLOEXEC))
		return -errno;
	/* Above stdin, stdout and stderr, which the logger points elsewhere. */
	if (p[1] < 3) {
		n = fcntl(p[1], F_DUPFD_CLOEXEC, 3);
		close(p[1]);
		if (n < 0) {
			n = -errno;
			close(p[0]);
			return n;
		}
		p[1] = n;
		n = 0;
	}
	snprintf(id, sizeof(id), "%u", a->logger_id);
	snprintf(mode, sizeof(mode), "%u", a->mode);
	snprintf(max, sizeof(max), "%u", a->max_file_size);
	snprintf(fd, sizeof(fd), "%d", p[1]);
	argv[n++] = "etw";
	argv[n++] = "logger";
	argv[n++] = "--id";
	argv[n++] = id;
	argv[n++] = "--mode";
	argv[n++] = mode;
	argv[n++] = "--max-size";
	argv[n++] = max;
	argv[n++] = "--ready-fd";
	argv[n++] = fd;
	if (a->resume)
		argv[n++] = "--resume";
	argv[n++] = "--output";
	argv[n++] = (char *)a->path;
	argv[n] = NULL;

	child = _Fork();
	if (child < 0) {
		n = -errno;
		close(p[0]);
		close(p[1]);
		return n;
	}
	if (!child) {
		child = _Fork();
		if (!child)
			exec_logger(env_tool, argv, p[1]);
		_exit(child < 0 ? 1 : 0);
	}
	close(p[1]);
	while (waitpid(child, &status, 0) < 0 && errno == EINTR)
		;
	/* The logger writes {0 or -errno, its pid}; EOF: it never ran. */
	do {
		got = read(p[0], msg, sizeof(msg));
	} while (got < 0 && errno == EINTR);
	close(p[0]);
	if (got != sizeof(msg))
		return -ENOEXEC;
	if (pid)
		*pid = msg[1];
	return msg[0];
}
