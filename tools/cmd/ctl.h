/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the session subcommands share: the device, GUID parsing, and the
 * one-line errors that name the Win32 code.
 */
#ifndef ETW_TOOL_CTL_H
#define ETW_TOOL_CTL_H

#include <stdbool.h>

#include <linux/etw.h>

/* Open /dev/etw or print why not; returns the fd or -1. */
int ctl_open(const char *cmd);
/* No /dev/etw: the error and how to load the module, one line; 1. */
int ctl_no_module(const char *cmd);
/* /dev/etw does not exist. */
bool ctl_module_missing(void);

/* "{b3864c38-4273-58c5-545b-8b3608343471}" (braces optional) to bytes. */
int ctl_parse_guid(const char *s, unsigned char g[16]);
/* A GUID, or a provider name hashed as Windows does (etw_guid_from_name). */
int ctl_parse_provider(const char *s, unsigned char g[16]);
void ctl_format_guid(const unsigned char g[16], char out[39]);
/* GUID-or-NAME[:LEVEL[:KEYWORDS]] into @e's guid, level and match_any. */
int ctl_parse_provider_spec(const char *arg, struct etw_enable *e);

/* Print "etw: CMD: WHAT: ERROR_NAME (code): text"; returns 1. */
int ctl_fail(const char *cmd, const char *what, int err);
/* The same for a Win32 code from libetw; @text NULL: the code's own. */
int ctl_fail_win32(const char *cmd, const char *what, unsigned int code,
		   const char *text);

/* ERROR_NAME of a Win32 code (NULL if unknown) and a few words on it. */
const char *win32_error_name(unsigned int code);
const char *win32_error_text(unsigned int code);

/* Find a session by name; 0 or -errno. */
int ctl_query(int fd, const char *name, unsigned int code,
	      struct etw_session_info *info);

/* Print a session as `etw query` does. */
void ctl_print_session(const struct etw_session_info *info);

/*
 * EnableProperty from a comma-separated list of names (sid, ts-id, stack,
 * process-start-key, event-key, ignore-keyword-0, exclude-inprivate,
 * psm-key, enable-keyword-0, silos, source-container-tracking) or
 * numbers; 0 or -1.
 */
int ctl_parse_properties(const char *list, __u32 *out);

/* Parse an unsigned number (0x for hex); 0 or -1. */
int ctl_number(const char *s, unsigned long long max, unsigned long long *out);

/*
 * A system logger's EnableFlags from a comma-separated list of names
 * (process, thread, image, cswitch, disk, dispatcher, profile, file, ...)
 * or numbers; 0 or -1 (cmd/kernel_flags.c).
 */
int ctl_parse_kernel_flags(const char *list, __u32 *out);
/* With ETW_KFLAG_PROFILE in @flags, stacks on SampledProfile; 0 or -1. */
int ctl_kernel_stacks(int fd, __u32 logger_id, __u32 flags);
/* --stack-copy[=SIZE]: @arg NULL for the default; -1 if bad. */
int ctl_parse_stack_copy(const char *arg, __u32 *size);
/* The user stack copy of each sample (ETW_TRACE_STACK_COPY_INFO). */
int ctl_stack_copy(int fd, __u32 logger_id, __u32 size);

#endif /* ETW_TOOL_CTL_H */
