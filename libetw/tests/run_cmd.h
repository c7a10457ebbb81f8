/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the host tests that run commands share: a shell command's exit
 * status, everything a command printed, and a symbol's address from nm.
 */
#ifndef RUN_CMD_H
#define RUN_CMD_H

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

/* The exit status of a shell command (128 + signal if one ended it). */
static inline int sh(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static inline int sh(const char *fmt, ...)
{
	char cmd[8192];
	va_list ap;
	int rc;

	va_start(ap, fmt);
	vsnprintf(cmd, sizeof(cmd), fmt, ap);
	va_end(ap);
	rc = system(cmd);
	return WIFEXITED(rc) ? WEXITSTATUS(rc) : 128 + WTERMSIG(rc);
}

/* Everything a command printed (stdout and stderr), and its status. */
struct run {
	char *out;
	int status;
};

static inline struct run run(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static inline struct run run(const char *fmt, ...)
{
	struct run r = { NULL, -1 };
	char cmd[8192], buf[4096];
	size_t len = 0, n;
	va_list ap;
	FILE *p;
	int rc;

	va_start(ap, fmt);
	vsnprintf(cmd, sizeof(cmd) - 8, fmt, ap);
	va_end(ap);
	strcat(cmd, " 2>&1");
	p = popen(cmd, "r");
	if (!p)
		return r;
	r.out = calloc(1, 1);
	while ((n = fread(buf, 1, sizeof(buf), p)) > 0) {
		r.out = realloc(r.out, len + n + 1);
		memcpy(r.out + len, buf, n);
		len += n;
		r.out[len] = '\0';
	}
	rc = pclose(p);
	r.status = WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
	return r;
}

/*
 * A shell command's exit status (-1 if it did not exit) and, in @buf, what
 * it printed (stdout and stderr), cut to @size - 1 bytes: for tests that
 * keep one output buffer and look at it after each command.
 */
static inline int run_into(char *buf, size_t size, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static inline int run_into(char *buf, size_t size, const char *fmt, ...)
{
	char cmd[8192];
	va_list ap;
	size_t n;
	int status;
	FILE *p;

	va_start(ap, fmt);
	vsnprintf(cmd, sizeof(cmd) - 8, fmt, ap);
	va_end(ap);
	strcat(cmd, " 2>&1");
	p = popen(cmd, "r");
	if (!p)
		return -1;
	n = fread(buf, 1, size - 1, p);
	buf[n] = '\0';
	status = pclose(p);
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/* The address nm gives symbol @name of @file, or 0. */
static inline uint64_t nm_symbol(const char *file, const char *name)
{
	char cmd[512], line[256], sym[128], type;
	unsigned long long v;
	uint64_t addr = 0;
	FILE *p;

	snprintf(cmd, sizeof(cmd), "nm %s", file);
	p = popen(cmd, "r");
	if (!p)
		return 0;
	while (fgets(line, sizeof(line), p))
		if (sscanf(line, "%llx %c %127s", &v, &type, sym) == 3 && !strcmp(sym, name))
			addr = v;
	pclose(p);
	return addr;
}

#endif /* RUN_CMD_H */
