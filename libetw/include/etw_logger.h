/* SPDX-License-Identifier: MIT */
/*
 * Starting a session's logger: the process that writes a file session's
 * buffers to its ETL file (`etw logger`, Documentation/logger.rst).
 * StartTrace and `etw start -o` use it.  Functions return 0 or a negative
 * errno.
 */
#ifndef ETW_LOGGER_H
#define ETW_LOGGER_H

#include <sys/types.h>

#ifdef __cplusplus
extern "C" {
#endif

/**
 * struct etw_logger_args - what the logger writes
 * @logger_id: the session
 * @path: the log file (for EVENT_TRACE_FILE_MODE_NEWFILE, with one %d)
 * @mode: the file bits of LogFileMode (0: the session's own)
 * @max_file_size: MaximumFileSize (MiB, KiB with EVENT_TRACE_USE_KBYTES_FOR_SIZE)
 * @resume: a restarted logger: continue the file, skip what it holds
 */
struct etw_logger_args {
	unsigned int logger_id;
	const char *path;
	unsigned int mode;
	unsigned int max_file_size;
	int resume;
};

/*
 * Start `etw logger` for the session, detached from the caller (its own
 * session id, reparented to init).  Returns once the logger has attached
 * and opened its file: 0 and its pid in @pid, or what failed (-EBUSY: the
 * session has a consumer; the errno of opening the file; -ENOEXEC: no
 * `etw` program).  The program is $ETW_TOOL, else the installed etw, else
 * `etw` from PATH.
 */
int etw_logger_spawn(const struct etw_logger_args *a, pid_t *pid);

#ifdef __cplusplus
}
#endif

#endif /* ETW_LOGGER_H */
