/* SPDX-License-Identifier: GPL-2.0 */
/*
 * An AutoLogger's configuration: /etc/etw/autologger.d/NAME.conf, the
 * values of Windows' WMI\Autologger\NAME registry key with the same names
 * (Documentation/autologger.rst), read and checked as Windows checks them.
 */
#ifndef ETW_AUTOLOGGER_CONFIG_H
#define ETW_AUTOLOGGER_CONFIG_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#define AL_CONF_DIR	"/etc/etw/autologger.d"
#define AL_RUN_DIR	"/run/etw/autologger"
#define AL_STATE_DIR	"/var/lib/etw/autologger"
#define AL_LOG_DIR	"/var/log/etw"
#define AL_MAX_PROVIDERS 64
#define AL_FILE_MAX	16	/* FileMax: at most 16 numbered files */
#define AL_NAME_MAX	64

/* One [Provider GUID-or-NAME] section: an enable of the session. */
struct al_provider {
	char spec[128];			/* as written: a GUID or a name */
	unsigned char guid[16];
	unsigned int line;
	bool enabled;			/* Enabled (1) */
	uint8_t level;			/* EnableLevel (0: all) */
	uint64_t match_any;		/* MatchAnyKeyword */
	uint64_t match_all;		/* MatchAllKeyword */
	uint32_t property;		/* EnableProperty */
	uint32_t flags;			/* EnableFlags (classic providers) */
	bool has_any, has_flags;
};

/* A session's values; has_* say which were written. */
struct al_config {
	char name[AL_NAME_MAX];
	bool start;			/* Start */
	unsigned char guid[16];		/* Guid */
	uint32_t buffer_size;		/* BufferSize, KiB */
	uint32_t min_buffers;		/* MinimumBuffers */
	uint32_t max_buffers;		/* MaximumBuffers */
	uint32_t flush_timer;		/* FlushTimer, s */
	uint32_t clock_type;		/* ClockType: 1 QPC, 2 system, 3 cycles */
	uint32_t log_file_mode;		/* LogFileMode */
	uint32_t file_max;		/* FileMax: numbered files, 0 none */
	uint32_t max_file_size;		/* MaxFileSize, MiB */
	uint32_t kernel_flags;		/* EnableKernelFlags: a system logger's */
	char file_name[512];		/* FileName */
	bool has_guid, has_mode, has_file, has_size;
	unsigned int nprov;
	struct al_provider prov[AL_MAX_PROVIDERS];
};

/*
 * Read and check @path (session NAME from its base name); 0, or -1 with
 * "PATH:LINE: what" (or "PATH: what") in @err.
 */
int al_config_read(const char *path, struct al_config *c, char *err, size_t errlen);
/* The same from text in memory, @path naming it in errors. */
int al_config_parse(const char *path, const char *text, struct al_config *c,
		    char *err, size_t errlen);
/* Check the values together (what the parser checks after the last line). */
int al_config_check(const char *path, const struct al_config *c, char *err, size_t errlen);
/* Write @c as a file the parser reads back to the same values. */
void al_config_write(FILE *f, const struct al_config *c);

/* The file the session writes (FileName, default /var/log/etw/NAME.etl). */
void al_config_file(const struct al_config *c, char *out, size_t size);
/* No file: real-time or buffering mode without a FileName. */
bool al_config_no_file(const struct al_config *c);

/* Parse "0x.." or decimal up to @max; 0 or -1. */
int al_number(const char *s, uint64_t max, uint64_t *out);

#endif /* ETW_AUTOLOGGER_CONFIG_H */
