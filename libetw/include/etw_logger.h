/* SPDX-License-Identifier: MIT */
/*
 * Starting a session's logger: the process that writes a file session's
 * buffers to its ETL file (`etw logger`, Documentation/logger.rst).
 * StartTrace and `etw start -o` use it.  Functions return 0 or a negative
 * errno.
 */
#ifndef ETW_LOGGER_H
#define ETW_LOGGER_H

#include <stddef.h>
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

/*
 * The absolute form of the log file name @path into @out (@size bytes),
 * as a session keeps it and ControlTrace returns it: Windows'
 * GetFullPathName rules (relative to the working directory, "." and ".."
 * resolved by name, no link followed, "/" runs folded).  -ENAMETOOLONG if
 * it does not fit or is longer than the module keeps
 * (ETW_MAX_LOG_FILE_NAME - 1 bytes).
 */
int etw_logger_full_path(const char *path, char *out, size_t size);

#ifdef __cplusplus
}
#endif

#endif /* ETW_LOGGER_H */
