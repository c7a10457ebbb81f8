/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What etw keeps of an AutoLogger, as Windows keeps Status and
 * FileCounter in its key: NAME.status in /run/etw/autologger (the last
 * start's Win32 code, where its file is and where flush moves it) and
 * NAME.filecounter in /var/lib/etw/autologger.
 */
#ifndef ETW_AUTOLOGGER_STATUS_H
#define ETW_AUTOLOGGER_STATUS_H

#include <limits.h>

struct al_status {
	unsigned int status;		/* Status: the start's Win32 code */
	char file[PATH_MAX];		/* FileName: the file written now */
	char target[PATH_MAX];		/* Target: where flush moves it */
	char providers[1024];		/* Provider.SPEC=CODE of failed enables */
};

/* $ETW_AUTOLOGGER_RUN, else /run/etw/autologger; the same for STATE. */
const char *al_run_dir(void);
const char *al_state_dir(void);

/* 0, or -1 with errno. */
int al_status_write(const char *name, const struct al_status *st);
int al_status_read(const char *name, struct al_status *st);
void al_status_remove(const char *name);
/* Note a provider's failed enable. */
void al_status_provider(struct al_status *st, const char *spec, unsigned int code);

/* FileCounter after the last one, from 1 to @file_max in turn; 0 if it cannot be kept. */
unsigned int al_file_counter_next(const char *name, unsigned int file_max);

#endif /* ETW_AUTOLOGGER_STATUS_H */
