// SPDX-License-Identifier: GPL-2.0
/*
 * Status and FileCounter of an AutoLogger, each in a file of its own, in
 * the key's NAME=VALUE form, written whole (a new file renamed over).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "autologger/config.h"
#include "autologger/status.h"

static const char *dir_of(const char *env, const char *def)
{
	const char *d = getenv(env);

	return d && *d ? d : def;
}

const char *al_run_dir(void)
{
	return dir_of("ETW_AUTOLOGGER_RUN", AL_RUN_DIR);
}

const char *al_state_dir(void)
{
	return dir_of("ETW_AUTOLOGGER_STATE", AL_STATE_DIR);
}

/* mkdir -p of the folders etw keeps (two or three levels). */
static int make_dir(const char *dir)
{
	char buf[PATH_MAX], *s;

	if (strlen(dir) >= sizeof(buf)) {
		errno = ENAMETOOLONG;
		return -1;
	}
	strcpy(buf, dir);
	for (s = strchr(buf + 1, '/'); s; s = strchr(s + 1, '/')) {
		*s = '\0';
		if (mkdir(buf, 0755) && errno != EEXIST)
			return -1;
		*s = '/';
	}
	return mkdir(buf, 0755) && errno != EEXIST ? -1 : 0;
}

static int write_whole(const char *dir, const char *name, const char *ext, const char *text)
{
	char path[PATH_MAX], tmp[PATH_MAX + 8];
	FILE *f;

	if (make_dir(dir))
		return -1;
	snprintf(path, sizeof(path), "%s/%s.%s", dir, name, ext);
	snprintf(tmp, sizeof(tmp), "%s.new", path);
	f = fopen(tmp, "w");
	if (!f)
		return -1;
	if (fputs(text, f) < 0 || fclose(f) || rename(tmp, path)) {
		int e = errno;

		unlink(tmp);
		errno = e;
		return -1;
	}
	return 0;
}

int al_status_write(const char *name, const struct al_status *st)
{
	char text[3 * PATH_MAX + 1100];
	int n;

	n = snprintf(text, sizeof(text), "Status=%u\n", st->status);
	if (*st->file)
		n += snprintf(text + n, sizeof(text) - n, "FileName=%s\n", st->file);
	if (*st->target)
		n += snprintf(text + n, sizeof(text) - n, "Target=%s\n", st->target);
	if (*st->providers)
		snprintf(text + n, sizeof(text) - n, "%s\n", st->providers);
	return write_whole(al_run_dir(), name, "status", text);
}

/* A value into its field, cut at the field's size. */
static void set(char *dst, size_t size, const char *src)
{
	size_t n = strnlen(src, size - 1);

	memcpy(dst, src, n);
	dst[n] = '\0';
}

int al_status_read(const char *name, struct al_status *st)
{
	char path[PATH_MAX], line[PATH_MAX + 32];
	size_t n;
	FILE *f;

	memset(st, 0, sizeof(*st));
	snprintf(path, sizeof(path), "%s/%s.status", al_run_dir(), name);
	f = fopen(path, "r");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = '\0';
		if (!strncmp(line, "Status=", 7)) {
			st->status = strtoul(line + 7, NULL, 10);
		} else if (!strncmp(line, "FileName=", 9)) {
			set(st->file, sizeof(st->file), line + 9);
		} else if (!strncmp(line, "Target=", 7)) {
			set(st->target, sizeof(st->target), line + 7);
		} else if (!strncmp(line, "Provider.", 9)) {
			n = strlen(st->providers);
			snprintf(st->providers + n, sizeof(st->providers) - n, "%s%s",
				 n ? "\n" : "", line);
		}
	}
	fclose(f);
	return 0;
}

void al_status_remove(const char *name)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/%s.status", al_run_dir(), name);
	unlink(path);
}

void al_status_provider(struct al_status *st, const char *spec, unsigned int code)
{
	size_t n = strlen(st->providers);

	snprintf(st->providers + n, sizeof(st->providers) - n, "%sProvider.%s=%u",
		 n ? "\n" : "", spec, code);
}

unsigned int al_file_counter_next(const char *name, unsigned int file_max)
{
	char path[PATH_MAX], text[32];
	unsigned int counter = 0;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s.filecounter", al_state_dir(), name);
	f = fopen(path, "r");
	if (f) {
		if (fscanf(f, "FileCounter=%u", &counter) != 1)
			counter = 0;
		fclose(f);
	}
	counter = counter % file_max + 1;
	snprintf(text, sizeof(text), "FileCounter=%u\n", counter);
	return write_whole(al_state_dir(), name, "filecounter", text) ? 0 : counter;
}
