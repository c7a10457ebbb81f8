// SPDX-License-Identifier: MIT
/*
 * The controller side of evntrace.h: StartTrace, ControlTrace and its
 * Stop/Query/Update/Flush forms, QueryAllTraces, over the module's session
 * ioctls.  Arguments are checked here first, in Windows' order, so a bad
 * call fails with Windows' error before any system call; what only the
 * module knows (a name taken, 64 sessions running, the caller's rights)
 * comes back as an errno and goes through etw_win32_error().  Every
 * function also makes its result the thread's last error, as Windows'
 * do.
 *
 * Log files: a session's buffers are ETL buffers that a consumer takes
 * from the module.  On Windows the kernel writes a session's file for as
 * long as the session runs, whoever started it; here a logger process
 * does (`etw logger`, etw_logger.h), started by StartTrace once the
 * session runs.  If it cannot open the file the session is stopped again
 * and StartTrace fails with the error Windows gives for that path.  STOP
 * returns once the logger has written the file (the module waits for it).
 * The module keeps the file's name, made absolute as Windows keeps it, and
 * every control code returns it at LogFileNameOffset; StartTrace leaves
 * the caller's name as it was.
 *
 * Session names ignore case on Windows; the module compares bytes, so the
 * name lookups here also try ASCII case-insensitive matches.
 */
#include <errno.h>
#include <stdint.h>
#include <string.h>

#include "controller.h"
#include "../common/logger_handle.h"
#include "../private_logger/private_logger.h"
#include "etw_etl_writer.h"
#include "etw_logger.h"
#include "../common/utf.h"

/* The largest BufferSize (KB) the module accepts; Windows' own is larger. */
#define ETW_MODULE_MAX_BUFFER_KB	1024

/*
 * QUERY one session; with @file (ETW_MAX_LOG_FILE_NAME bytes), also its
 * log file name ("" for none, and from a module older than ABI 1.4,
 * which refuses the field with E2BIG).
 */
static int query(int fd, __u32 logger_id, const char *name,
		 struct etw_session_info *info, char *file)
{
	struct etw_session_control c;
	int ret;

	memset(&c, 0, sizeof(c));
	c.size = sizeof(c);
	c.code = ETW_CONTROL_QUERY;
	c.logger_id = logger_id;
	if (name)
		strcpy(c.info.name, name);
	if (file) {
		file[0] = 0;
		c.log_file_name = (uintptr_t)file;
		c.log_file_name_size = ETW_MAX_LOG_FILE_NAME;
	}
	ret = etw_ioctl(fd, ETW_IOC_SESSION_CONTROL, &c);
	if (ret == -E2BIG && file) {
		c.log_file_name = 0;
		c.log_file_name_size = 0;
		ret = etw_ioctl(fd, ETW_IOC_SESSION_CONTROL, &c);
	}
	if (file && c.log_file_name_len > ETW_MAX_LOG_FILE_NAME)
		file[0] = 0;
	if (!ret)
		*info = c.info;
	return ret;
}

static int session_find(int fd, const char *name, struct etw_session_info *info,
			char *file)
{
	__u32 id;
	int ret;

	ret = query(fd, 0, name, info, file);
	if (ret != -ENOENT)
		return ret;
	for (id = 1; id <= ETW_MAX_SESSIONS; id++) {
		ret = query(fd, id, NULL, info, file);
		if (ret == -ENOENT)
			continue;
		if (ret)
			return ret;
		if (etw_name_equal(info->name, name))
			return 0;
	}
	return -ENOENT;
}

int etw_session_find(int fd, const char *name, struct etw_session_info *info)
{
	return session_find(fd, name, info, NULL);
}

/* Wnode.ClientContext: 0 and 1 are QPC, the module's only clock. */
static ULONG clock_supported(ULONG client_context)
{
	switch (client_context) {
	case 0:
	case 1:
		return ERROR_SUCCESS;
	case 2:	/* system time */
	case 3:	/* CPU cycle counter */
		return ERROR_NOT_SUPPORTED;
	default:
		return ERROR_INVALID_PARAMETER;
	}
}

static ULONG start_supported(const EVENT_TRACE_PROPERTIES *p,
			     const struct etw_props *pl)
{
	/* V2's filters are for system-wide private loggers. */
	if (pl->struct_size > sizeof(*p) &&
	    ((const EVENT_TRACE_PROPERTIES_V2 *)p)->FilterDescCount)
		return ERROR_NOT_SUPPORTED;
	return clock_supported(p->Wnode.ClientContext);
}

/* The session runs: start its logger, or stop it again. */
static ULONG start_logger(int fd, const EVENT_TRACE_PROPERTIES *p,
			  const char *path, const struct etw_session_info *info,
			  pid_t *pid)
{
	struct etw_logger_args a = {
		.logger_id = info->logger_id,
		.path = path,
		.mode = p->LogFileMode,
		.max_file_size = p->MaximumFileSize,
	};
	struct etw_session_control c;
	int ret = etw_logger_spawn(&a, pid);

	if (!ret)
		return ERROR_SUCCESS;
	memset(&c, 0, sizeof(c));
	c.size = sizeof(c);
	c.code = ETW_CONTROL_STOP;
	c.logger_id = info->logger_id;
	etw_ioctl(fd, ETW_IOC_SESSION_CONTROL, &c);
	return etw_file_error(ret);
}

static ULONG start_trace(CONTROLTRACE_ID *TraceId, const void *InstanceName,
			 enum etw_cs cs, EVENT_TRACE_PROPERTIES *p)
{
	struct etw_session_info other;
	struct etw_session_start st;
	struct etw_name name;
	struct etw_props pl;
	bool kernel_logger;
	char path[4 * ETW_NAME_MAX_UNITS + 1], full[ETW_MAX_LOG_FILE_NAME];
	ULONG max_file_size;
	pid_t pid = 0;
	size_t need;
	ULONG err;
	int fd, ret;

	if (!TraceId)
		return ERROR_INVALID_PARAMETER;
	*TraceId = 0;
	if (!p || !InstanceName)
		return ERROR_INVALID_PARAMETER;
	err = etw_props_check(p, cs, true, &pl);
	if (err)
		return err;
	/* StartTrace leaves the caller's log file name as it gave it. */
	pl.file_off = 0;
	err = etw_name_get(InstanceName, cs, &name);
	if (err)
		return err;
	/* Only the kernel logger may use SystemTraceControlGuid. */
	kernel_logger = etw_name_equal(name.utf8, KERNEL_LOGGER_NAMEA);
	if (!kernel_logger &&
	    IsEqualGUID(&p->Wnode.Guid, &SystemTraceControlGuid))
		return ERROR_INVALID_PARAMETER;

	/* Without an offset the name goes right after the structure. */
	if (!pl.name_off) {
		pl.name_off = pl.struct_size;
		pl.name_end = p->LogFileNameOffset ? p->LogFileNameOffset :
						     p->Wnode.BufferSize;
	}
	/* Room for both names, and for the copy of InstanceName. */
	need = pl.struct_size + (name.units + 1) * cs;
	if (pl.file_units)
		need += (pl.file_units + 1) * cs;
	if (need > p->Wnode.BufferSize ||
	    (name.units + 1) * cs > pl.name_end - pl.name_off)
		return ERROR_BAD_LENGTH;

	err = etw_props_check_mode(p, pl.file_units != 0);
	if (err)
		return err;
	/* A private logger lives in this process (private_logger.c). */
	if (p->LogFileMode & (EVENT_TRACE_PRIVATE_LOGGER_MODE |
			      EVENT_TRACE_PRIVATE_IN_PROC)) {
		if (kernel_logger || name.too_long)
			return ERROR_INVALID_PARAMETER;
		err = clock_supported(p->Wnode.ClientContext);
		return err ? err : etw_private_start(TraceId, &name, p, &pl, cs);
	}
	err = start_supported(p, &pl);
	if (err)
		return err;
	if (name.too_long)
		return ERROR_INVALID_PARAMETER;
	if (pl.file_units) {
		err = etw_props_file_name(p, &pl, cs, path, sizeof(path));
		if (err)
			return err;
		/* NEWFILE names each file from a pattern with one %d. */
		if ((p->LogFileMode & EVENT_TRACE_FILE_MODE_NEWFILE) &&
		    etw_etl_writer_check_pattern(path))
			return ERROR_INVALID_PARAMETER;
		err = etw_props_full_path(path, full, sizeof(full));
		if (err)
			return err;
	}

	fd = etw_device_fd();
	if (fd < 0)
		return etw_device_error(fd);
	ret = etw_session_find(fd, name.utf8, &other);
	if (!ret)
		return ERROR_ALREADY_EXISTS;
	if (ret != -ENOENT)
		return etw_win32_error(ret, ETW_ERR_CONTROL);

	memset(&st, 0, sizeof(st));
	st.size = sizeof(st);
	strcpy(st.info.name, name.utf8);
	memcpy(st.info.guid, &p->Wnode.Guid, sizeof(st.info.guid));
	st.info.log_file_mode = p->LogFileMode;
	/* A system logger gets kernel events; the NT Kernel Logger is one. */
	if (kernel_logger || IsEqualGUID(&p->Wnode.Guid, &SystemTraceControlGuid))
		st.info.log_file_mode |= EVENT_TRACE_SYSTEM_LOGGER_MODE;
	if (st.info.log_file_mode & EVENT_TRACE_SYSTEM_LOGGER_MODE)
		st.info.enable_flags = p->EnableFlags;
	/* Windows raises what is too small and caps what is too large. */
	st.info.buffer_size_kb = p->BufferSize < ETW_MODULE_MAX_BUFFER_KB ?
				 p->BufferSize : ETW_MODULE_MAX_BUFFER_KB;
	st.info.min_buffers = p->MinimumBuffers;
	st.info.max_buffers = p->MaximumBuffers;
	if (st.info.max_buffers && st.info.max_buffers < st.info.min_buffers)
		st.info.max_buffers = st.info.min_buffers;
	st.info.flush_timer = p->FlushTimer;
	/* The module keeps the name for QUERY; the logger writes the file. */
	if (pl.file_units)
		st.log_file_name = (uintptr_t)full;
	ret = etw_ioctl(fd, ETW_IOC_SESSION_START, &st);
	if (ret == -E2BIG && st.log_file_name) {
		/* A module older than ABI 1.4 keeps no file name. */
		st.log_file_name = 0;
		ret = etw_ioctl(fd, ETW_IOC_SESSION_START, &st);
	}
	if (ret < 0)
		return etw_win32_error(ret, ETW_ERR_CONTROL);
	if (pl.file_units) {
		err = start_logger(fd, p, path, &st.info, &pid);
		if (err)
			return err;
	}

	/* The room for the name was checked above: this cannot fail. */
	max_file_size = p->MaximumFileSize;
	etw_props_fill(p, &pl, &st.info, NULL, cs);
	if (pl.file_units) {
		p->MaximumFileSize = max_file_size;
		/* Windows gives the thread that writes the file; ours is a process. */
		p->LoggerThreadId = (HANDLE)(uintptr_t)pid;
	}
	*TraceId = etw_trace_id(&st.info);
	return ERROR_SUCCESS;
}

static bool name_given(const void *s, enum etw_cs cs)
{
	return s && (cs == ETW_CS_A ? *(const char *)s :
				      (((const char *)s)[0] || ((const char *)s)[1]));
}

static ULONG control_trace(CONTROLTRACE_ID TraceId, const void *InstanceName,
			   enum etw_cs cs, EVENT_TRACE_PROPERTIES *p,
			   ULONG code)
{
	struct etw_session_control c;
	struct etw_session_info info;
	bool by_name = name_given(InstanceName, cs);
	struct etw_name name;
	struct etw_props pl;
	__u32 logger_id = 0, tag = 0;
	char file[ETW_MAX_LOG_FILE_NAME];
	ULONG err;
	int fd, ret;

	if (!p || code > EVENT_TRACE_CONTROL_CONVERT_TO_REALTIME)
		return ERROR_INVALID_PARAMETER;
	/* Only UPDATE reads the log file name: it would switch files. */
	err = etw_props_check(p, cs, code == EVENT_TRACE_CONTROL_UPDATE, &pl);
	if (err)
		return err;
	/* With a name the handle is ignored, as on Windows. */
	if (by_name) {
		bool found;

		err = etw_name_get(InstanceName, cs, &name);
		if (err)
			return err;
		/* This process's private loggers first. */
		err = etw_private_control(0, name.utf8, p, &pl, cs, code, &found);
		if (found)
			return err;
	} else if (etw_logger_is_private(TraceId)) {
		return etw_private_control(TraceId, NULL, p, &pl, cs, code, NULL);
	} else {
		err = etw_trace_id_decode(TraceId, &logger_id, &tag);
		if (err)
			return err;
	}
	/* A session's logger cannot switch or roll its file on demand. */
	if (code == EVENT_TRACE_CONTROL_INCREMENT_FILE ||
	    code == EVENT_TRACE_CONTROL_CONVERT_TO_REALTIME ||
	    (code == EVENT_TRACE_CONTROL_UPDATE && pl.file_units))
		return ERROR_NOT_SUPPORTED;
	if (by_name && name.too_long)
		return ERROR_WMI_INSTANCE_NOT_FOUND;

	fd = etw_device_fd();
	if (fd < 0) {
		err = etw_device_error(fd);
		/*
		 * Without the module no session of it exists: an unknown
		 * session, as Windows answers, so that a library stopping its
		 * session in a destructor does not take it for a failure.
		 */
		return err == ERROR_NOT_SUPPORTED ? ERROR_WMI_INSTANCE_NOT_FOUND : err;
	}
	/* The file name is fixed at start: the lookup's serves every code. */
	ret = by_name ? session_find(fd, name.utf8, &info, file) :
			query(fd, logger_id, NULL, &info, file);
	if (!ret && !etw_trace_id_matches(&info, tag))
		ret = -ENOENT;	/* that session stopped; another got its id */
	if (ret)
		return etw_win32_error(ret, ETW_ERR_CONTROL);

	/* The mode is fixed at start (the NT Kernel Logger's system bit too). */
	if (code == EVENT_TRACE_CONTROL_UPDATE && p->LogFileMode &&
	    (p->LogFileMode | EVENT_TRACE_SYSTEM_LOGGER_MODE) !=
	    (info.log_file_mode | EVENT_TRACE_SYSTEM_LOGGER_MODE))
		return ERROR_NOT_SUPPORTED;

	if (code != EVENT_TRACE_CONTROL_QUERY) {
		/*
		 * By id: the session found above, unless it stopped since and
		 * another took its id in between (a window of microseconds).
		 */
		memset(&c, 0, sizeof(c));
		c.size = sizeof(c);
		c.code = code;
		c.logger_id = info.logger_id;
		if (code == EVENT_TRACE_CONTROL_UPDATE) {
			c.info.flush_timer = p->FlushTimer;	/* 0: unchanged */
			/* The pool may grow; lowering the bound is EINVAL. */
			if (p->MaximumBuffers != info.max_buffers)
				c.info.max_buffers = p->MaximumBuffers;
			/* A system logger's EnableFlags: 0 turns all off. */
			if (info.log_file_mode & EVENT_TRACE_SYSTEM_LOGGER_MODE)
				c.info.enable_flags = p->EnableFlags;
		}
		ret = etw_ioctl(fd, ETW_IOC_SESSION_CONTROL, &c);
		if (ret < 0)
			return etw_win32_error(ret, ETW_ERR_CONTROL);
		info = c.info;
	}
	/* ERROR_MORE_DATA if a name does not fit; STOP has still stopped. */
	return etw_props_fill(p, &pl, &info, file, cs);
}

static ULONG query_all(PEVENT_TRACE_PROPERTIES *PropertyArray, ULONG count,
		       PULONG LoggerCount, enum etw_cs cs)
{
	struct etw_props pl[ETW_MAX_SESSIONS];
	struct etw_session_info info;
	char file[ETW_MAX_LOG_FILE_NAME];
	ULONG i, n = 0, err = ERROR_SUCCESS, fill;
	__u32 id;
	int fd, ret;

	if (!PropertyArray || !LoggerCount || !count || count > ETW_MAX_SESSIONS)
		return ERROR_INVALID_PARAMETER;
	*LoggerCount = 0;
	for (i = 0; i < count; i++) {
		if (!PropertyArray[i])
			return ERROR_INVALID_PARAMETER;
		fill = etw_props_check(PropertyArray[i], cs, false, &pl[i]);
		if (fill)
			return fill;
	}
	fd = etw_device_fd();
	if (fd < 0)
		return etw_device_error(fd);
	for (id = 1; id <= ETW_MAX_SESSIONS; id++) {
		ret = query(fd, id, NULL, &info, n < count ? file : NULL);
		if (ret == -ENOENT)
			continue;
		if (ret)
			return etw_win32_error(ret, ETW_ERR_CONTROL);
		if (n < count) {
			fill = etw_props_fill(PropertyArray[n], &pl[n], &info,
					      file, cs);
			if (fill)
				err = fill;
		}
		n++;
	}
	*LoggerCount = n;
	/* Every slot is filled; LoggerCount says how many there were. */
	return n > count ? ERROR_MORE_DATA : err;
}

ETW_EXPORT ULONG WMIAPI StartTraceA(CONTROLTRACE_ID *TraceId,
				    LPCSTR InstanceName,
				    PEVENT_TRACE_PROPERTIES Properties)
{
	return etw_ret(start_trace(TraceId, InstanceName, ETW_CS_A, Properties));
}

ETW_EXPORT ULONG WMIAPI StartTraceW(CONTROLTRACE_ID *TraceId,
				    LPCWSTR InstanceName,
				    PEVENT_TRACE_PROPERTIES Properties)
{
	return etw_ret(start_trace(TraceId, InstanceName, ETW_CS_W, Properties));
}

ETW_EXPORT ULONG WMIAPI ControlTraceA(CONTROLTRACE_ID TraceId,
				      LPCSTR InstanceName,
				      PEVENT_TRACE_PROPERTIES Properties,
				      ULONG ControlCode)
{
	return etw_ret(control_trace(TraceId, InstanceName, ETW_CS_A,
				     Properties, ControlCode));
}

ETW_EXPORT ULONG WMIAPI ControlTraceW(CONTROLTRACE_ID TraceId,
				      LPCWSTR InstanceName,
				      PEVENT_TRACE_PROPERTIES Properties,
				      ULONG ControlCode)
{
	return etw_ret(control_trace(TraceId, InstanceName, ETW_CS_W,
				     Properties, ControlCode));
}

ETW_EXPORT ULONG WMIAPI StopTraceA(CONTROLTRACE_ID TraceId, LPCSTR InstanceName,
				   PEVENT_TRACE_PROPERTIES Properties)
{
	return etw_ret(control_trace(TraceId, InstanceName, ETW_CS_A, Properties,
				     EVENT_TRACE_CONTROL_STOP));
}

ETW_EXPORT ULONG WMIAPI StopTraceW(CONTROLTRACE_ID TraceId,
				   LPCWSTR InstanceName,
				   PEVENT_TRACE_PROPERTIES Properties)
{
	return etw_ret(control_trace(TraceId, InstanceName, ETW_CS_W, Properties,
				     EVENT_TRACE_CONTROL_STOP));
}

ETW_EXPORT ULONG WMIAPI QueryTraceA(CONTROLTRACE_ID TraceId,
				    LPCSTR InstanceName,
				    PEVENT_TRACE_PROPERTIES Properties)
{
	return etw_ret(control_trace(TraceId, InstanceName, ETW_CS_A, Properties,
				     EVENT_TRACE_CONTROL_QUERY));
}

ETW_EXPORT ULONG WMIAPI QueryTraceW(CONTROLTRACE_ID TraceId,
				    LPCWSTR InstanceName,
				    PEVENT_TRACE_PROPERTIES Properties)
{
	return etw_ret(control_trace(TraceId, InstanceName, ETW_CS_W, Properties,
				     EVENT_TRACE_CONTROL_QUERY));
}

ETW_EXPORT ULONG WMIAPI UpdateTraceA(CONTROLTRACE_ID TraceId,
				     LPCSTR InstanceName,
				     PEVENT_TRACE_PROPERTIES Properties)
{
	return etw_ret(control_trace(TraceId, InstanceName, ETW_CS_A, Properties,
				     EVENT_TRACE_CONTROL_UPDATE));
}

ETW_EXPORT ULONG WMIAPI UpdateTraceW(CONTROLTRACE_ID TraceId,
				     LPCWSTR InstanceName,
				     PEVENT_TRACE_PROPERTIES Properties)
{
	return etw_ret(control_trace(TraceId, InstanceName, ETW_CS_W, Properties,
				     EVENT_TRACE_CONTROL_UPDATE));
}

ETW_EXPORT ULONG WMIAPI FlushTraceA(CONTROLTRACE_ID TraceId,
				    LPCSTR InstanceName,
				    PEVENT_TRACE_PROPERTIES Properties)
{
	return etw_ret(control_trace(TraceId, InstanceName, ETW_CS_A, Properties,
				     EVENT_TRACE_CONTROL_FLUSH));
}

ETW_EXPORT ULONG WMIAPI FlushTraceW(CONTROLTRACE_ID TraceId,
				    LPCWSTR InstanceName,
				    PEVENT_TRACE_PROPERTIES Properties)
{
	return etw_ret(control_trace(TraceId, InstanceName, ETW_CS_W, Properties,
				     EVENT_TRACE_CONTROL_FLUSH));
}

ETW_EXPORT ULONG WMIAPI QueryAllTracesA(PEVENT_TRACE_PROPERTIES *PropertyArray,
					ULONG PropertyArrayCount,
					PULONG LoggerCount)
{
	return etw_ret(query_all(PropertyArray, PropertyArrayCount, LoggerCount,
				 ETW_CS_A));
}

ETW_EXPORT ULONG WMIAPI QueryAllTracesW(PEVENT_TRACE_PROPERTIES *PropertyArray,
					ULONG PropertyArrayCount,
					PULONG LoggerCount)
{
	return etw_ret(query_all(PropertyArray, PropertyArrayCount, LoggerCount,
				 ETW_CS_W));
}
