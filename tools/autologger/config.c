// SPDX-License-Identifier: GPL-2.0
/*
 * The AutoLogger file: INI lines, hand-written (a dozen keys and one kind
 * of section, which no Debian INI library checks the way Windows checks
 * the registry key).  The session's values come first, outside any
 * section, as the values of the WMI\Autologger\NAME key; each
 * [Provider GUID-or-NAME] section is one of its provider subkeys.
 */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include <windows.h>
#include <evntrace.h>

#include "autologger/config.h"
#include "cmd/ctl.h"

/* What an AutoLogger may ask of LogFileMode (Windows' documented set). */
#define AL_MODES	(EVENT_TRACE_FILE_MODE_SEQUENTIAL | EVENT_TRACE_FILE_MODE_CIRCULAR | \
			 EVENT_TRACE_FILE_MODE_APPEND | EVENT_TRACE_REAL_TIME_MODE | \
			 EVENT_TRACE_BUFFERING_MODE | EVENT_TRACE_SYSTEM_LOGGER_MODE | \
			 EVENT_TRACE_INDEPENDENT_SESSION_MODE)
#define AL_FILE_MODES	(EVENT_TRACE_FILE_MODE_SEQUENTIAL | EVENT_TRACE_FILE_MODE_CIRCULAR | \
			 EVENT_TRACE_FILE_MODE_APPEND)

static int fail(char *err, size_t len, const char *path, unsigned int line,
		const char *fmt, ...) __attribute__((format(printf, 5, 6)));
static int fail(char *err, size_t len, const char *path, unsigned int line,
		const char *fmt, ...)
{
	va_list ap;
	int n;

	n = line ? snprintf(err, len, "%s:%u: ", path, line) : snprintf(err, len, "%s: ", path);
	if (n < 0 || (size_t)n >= len)
		return -1;
	va_start(ap, fmt);
	vsnprintf(err + n, len - n, fmt, ap);
	va_end(ap);
	return -1;
}

int al_number(const char *s, uint64_t max, uint64_t *out)
{
	unsigned long long v;
	char *end;

	if (!isdigit((unsigned char)*s))
		return -1;
	errno = 0;
	v = strtoull(s, &end, 0);
	if (errno || *end || v > max)
		return -1;
	*out = v;
	return 0;
}

static char *trim(char *s)
{
	char *e;

	while (isspace((unsigned char)*s))
		s++;
	e = s + strlen(s);
	while (e > s && isspace((unsigned char)e[-1]))
		*--e = '\0';
	return s;
}

/* Keys of the session (bit per key, to refuse one written twice). */
enum {
	K_START, K_GUID, K_BUFFER_SIZE, K_MIN_BUFFERS, K_MAX_BUFFERS, K_FLUSH_TIMER,
	K_CLOCK_TYPE, K_LOG_FILE_MODE, K_FILE_NAME, K_FILE_MAX, K_MAX_FILE_SIZE,
	K_KERNEL_FLAGS, K_COUNT
};
static const char *const session_keys[K_COUNT] = {
	"Start", "Guid", "BufferSize", "MinimumBuffers", "MaximumBuffers",
	"FlushTimer", "ClockType", "LogFileMode", "FileName", "FileMax",
	"MaxFileSize", "EnableKernelFlags",
};

enum { P_ENABLED, P_LEVEL, P_ANY, P_ALL, P_PROPERTY, P_FLAGS, P_COUNT };
static const char *const provider_keys[P_COUNT] = {
	"Enabled", "EnableLevel", "MatchAnyKeyword", "MatchAllKeyword",
	"EnableProperty", "EnableFlags",
};

/* Values Windows' tools write but that are ETW's own, refused with why. */
static const char *const own_keys[] = { "Status", "FileCounter" };

static int key_index(const char *const *keys, int n, const char *k)
{
	int i;

	for (i = 0; i < n; i++)
		if (!strcasecmp(keys[i], k))
			return i;
	return -1;
}

static int session_value(const char *path, unsigned int line, struct al_config *c,
			 int k, const char *v, char *err, size_t len)
{
	static const uint64_t max[K_COUNT] = {
		[K_START] = 1, [K_BUFFER_SIZE] = 1024, [K_MIN_BUFFERS] = 0xffffffff,
		[K_MAX_BUFFERS] = 0xffffffff, [K_FLUSH_TIMER] = 0xffffffff,
		[K_CLOCK_TYPE] = 3, [K_LOG_FILE_MODE] = 0xffffffff,
		[K_FILE_MAX] = AL_FILE_MAX, [K_MAX_FILE_SIZE] = 0xffffffff,
	};
	uint64_t n = 0;

	switch (k) {
	case K_GUID:
		if (ctl_parse_guid(v, c->guid))
			return fail(err, len, path, line, "Guid: '%s' is not a GUID", v);
		c->has_guid = true;
		return 0;
	case K_FILE_NAME:
		if (*v != '/')
			return fail(err, len, path, line, "FileName: '%s' is not an absolute path", v);
		if (strlen(v) >= sizeof(c->file_name) - 8)
			return fail(err, len, path, line, "FileName: longer than %zu bytes",
				    sizeof(c->file_name) - 9);
		if (strchr(v, '%'))
			return fail(err, len, path, line,
				    "FileName: no %% patterns (EVENT_TRACE_FILE_MODE_NEWFILE is not allowed for an AutoLogger)");
		strcpy(c->file_name, v);
		c->has_file = true;
		return 0;
	case K_KERNEL_FLAGS:
		if (ctl_parse_kernel_flags(v, &c->kernel_flags))
			return fail(err, len, path, line,
				    "EnableKernelFlags: '%s' is not a list of kernel flags (process, thread, image, cswitch, disk, ...)",
				    v);
		return 0;
	}
	if (al_number(v, max[k], &n)) {
		if (k == K_CLOCK_TYPE)
			return fail(err, len, path, line,
				    "ClockType: '%s' is not 1 (QPC), 2 (system time) or 3 (CPU cycles)", v);
		if (k == K_START)
			return fail(err, len, path, line, "Start: '%s' is not 0 or 1", v);
		return fail(err, len, path, line, "%s: '%s' is not a number from %u to %" PRIu64,
			    session_keys[k], v, k == K_BUFFER_SIZE || k == K_CLOCK_TYPE, max[k]);
	}
	switch (k) {
	case K_START:
		c->start = n;
		break;
	case K_BUFFER_SIZE:
		if (!n)
			return fail(err, len, path, line, "BufferSize: 0 KiB");
		c->buffer_size = n;
		break;
	case K_MIN_BUFFERS:
		c->min_buffers = n;
		break;
	case K_MAX_BUFFERS:
		c->max_buffers = n;
		break;
	case K_FLUSH_TIMER:
		c->flush_timer = n;
		break;
	case K_CLOCK_TYPE:
		if (!n)
			return fail(err, len, path, line,
				    "ClockType: '%s' is not 1 (QPC), 2 (system time) or 3 (CPU cycles)", v);
		c->clock_type = n;
		break;
	case K_LOG_FILE_MODE:
		if (n & EVENT_TRACE_FILE_MODE_NEWFILE)
			return fail(err, len, path, line,
				    "LogFileMode: EVENT_TRACE_FILE_MODE_NEWFILE (0x8) is not allowed for an AutoLogger");
		if (n & (EVENT_TRACE_PRIVATE_LOGGER_MODE | EVENT_TRACE_PRIVATE_IN_PROC))
			return fail(err, len, path, line,
				    "LogFileMode: a private logger (0x800, 0x20000) is a process's own, not an AutoLogger");
		if (n & ~(uint64_t)AL_MODES)
			return fail(err, len, path, line,
				    "LogFileMode: bits 0x%" PRIx64 " are not allowed for an AutoLogger",
				    n & ~(uint64_t)AL_MODES);
		c->log_file_mode = n;
		c->has_mode = true;
		break;
	case K_FILE_MAX:
		c->file_max = n;
		break;
	case K_MAX_FILE_SIZE:
		c->max_file_size = n;
		c->has_size = true;
		break;
	}
	return 0;
}

static int provider_value(const char *path, unsigned int line, struct al_provider *p,
			  int k, const char *v, char *err, size_t len)
{
	uint64_t n;

	if (k == P_PROPERTY) {
		if (!al_number(v, 0xffffffff, &n)) {
			p->property = n;
			return 0;
		}
		if (ctl_parse_properties(v, &p->property))
			return fail(err, len, path, line,
				    "EnableProperty: '%s' is not a number or a list of sid, ts-id, stack, ignore-keyword-0, ...",
				    v);
		return 0;
	}
	if (al_number(v, k == P_ENABLED ? 1 : k == P_LEVEL ? 255 :
		      k == P_FLAGS ? 0xffffffff : UINT64_MAX, &n))
		return fail(err, len, path, line, "%s: '%s' is not a number from 0 to %s",
			    provider_keys[k], v, k == P_ENABLED ? "1" : k == P_LEVEL ? "255" :
			    k == P_FLAGS ? "0xffffffff" : "0xffffffffffffffff");
	switch (k) {
	case P_ENABLED:
		p->enabled = n;
		break;
	case P_LEVEL:
		p->level = n;
		break;
	case P_ANY:
		p->match_any = n;
		p->has_any = true;
		break;
	case P_ALL:
		p->match_all = n;
		break;
	case P_FLAGS:
		p->flags = n;
		p->has_flags = true;
		break;
	}
	return 0;
}

static int section(const char *path, unsigned int line, struct al_config *c, char *s,
		   char *err, size_t len)
{
	struct al_provider *p;
	char *end = strchr(s, ']');
	unsigned int i;

	if (!end || end[1])
		return fail(err, len, path, line, "a section is [Provider GUID-or-NAME]");
	*end = '\0';
	s = trim(s + 1);
	if (!strcasecmp(s, "Provider"))
		return fail(err, len, path, line, "[Provider]: no GUID or name");
	if (strncasecmp(s, "Provider", 8) || !isspace((unsigned char)s[8]))
		return fail(err, len, path, line, "unknown section [%s] (only [Provider GUID-or-NAME])", s);
	s = trim(s + 8);
	if (!*s || strlen(s) >= sizeof(p->spec))
		return fail(err, len, path, line, "[Provider]: no GUID or name");
	if (c->nprov == AL_MAX_PROVIDERS)
		return fail(err, len, path, line, "more than %d providers", AL_MAX_PROVIDERS);
	p = &c->prov[c->nprov];
	memset(p, 0, sizeof(*p));
	if (ctl_parse_provider(s, p->guid))
		return fail(err, len, path, line, "[Provider %s]: not a GUID or a provider name", s);
	for (i = 0; i < c->nprov; i++)
		if (!memcmp(c->prov[i].guid, p->guid, 16))
			return fail(err, len, path, line,
				    "[Provider %s]: the provider's section is at line %u already",
				    s, c->prov[i].line);
	strcpy(p->spec, s);
	p->line = line;
	p->enabled = true;
	c->nprov++;
	return 0;
}

int al_config_parse(const char *path, const char *text, struct al_config *c,
		    char *err, size_t len)
{
	const char *base = strrchr(path, '/');
	unsigned int line = 0, seen = 0, pseen = 0, start_line = 0;
	const char *dot;
	char buf[1024];
	size_t n;

	memset(c, 0, sizeof(*c));
	base = base ? base + 1 : path;
	dot = strrchr(base, '.');
	n = dot && !strcmp(dot, ".conf") ? (size_t)(dot - base) : strlen(base);
	if (!n || n >= sizeof(c->name))
		return fail(err, len, path, 0, "the session's name (the file's, without .conf) must be 1 to %zu bytes",
			    sizeof(c->name) - 1);
	memcpy(c->name, base, n);
	while (*text) {
		const char *nl = strchr(text, '\n');
		char *s, *eq, *k, *v;
		int i;

		n = nl ? (size_t)(nl - text) : strlen(text);
		line++;
		if (n >= sizeof(buf))
			return fail(err, len, path, line, "line longer than %zu bytes", sizeof(buf) - 1);
		memcpy(buf, text, n);
		buf[n] = '\0';
		text += n + !!nl;
		s = trim(buf);
		if (!*s || *s == '#' || *s == ';')
			continue;
		if (*s == '[') {
			if (section(path, line, c, s, err, len))
				return -1;
			pseen = 0;
			continue;
		}
		eq = strchr(s, '=');
		if (!eq)
			return fail(err, len, path, line, "'%s' is not NAME=VALUE", s);
		*eq = '\0';
		k = trim(s);
		v = trim(eq + 1);
		if (!*v)
			return fail(err, len, path, line, "%s: no value", k);
		if (c->nprov) {
			i = key_index(provider_keys, P_COUNT, k);
			if (i < 0)
				return fail(err, len, path, line,
					    "'%s' is not a provider value (Enabled, EnableLevel, MatchAnyKeyword, MatchAllKeyword, EnableProperty, EnableFlags)",
					    k);
			if (pseen & (1u << i))
				return fail(err, len, path, line, "%s is given twice", provider_keys[i]);
			pseen |= 1u << i;
			if (provider_value(path, line, &c->prov[c->nprov - 1], i, v, err, len))
				return -1;
			continue;
		}
		if (key_index(own_keys, 2, k) >= 0)
			return fail(err, len, path, line,
				    "%s is kept by etw (in " AL_RUN_DIR " and " AL_STATE_DIR "), not configured", k);
		i = key_index(session_keys, K_COUNT, k);
		if (i < 0)
			return fail(err, len, path, line, "'%s' is not an AutoLogger value", k);
		if (seen & (1u << i))
			return fail(err, len, path, line, "%s is given twice", session_keys[i]);
		seen |= 1u << i;
		if (i == K_START)
			start_line = line;
		if (session_value(path, line, c, i, v, err, len))
			return -1;
	}
	if (!start_line)
		return fail(err, len, path, 0, "no Start value (1: start at boot, 0: not)");
	if (!c->has_guid)
		return fail(err, len, path, 0, "no Guid value (the session's GUID)");
	return al_config_check(path, c, err, len);
}

int al_config_check(const char *path, const struct al_config *c, char *err, size_t len)
{
	uint32_t m = c->log_file_mode;
	unsigned int i;

	if ((m & EVENT_TRACE_FILE_MODE_CIRCULAR) &&
	    (m & (EVENT_TRACE_FILE_MODE_SEQUENTIAL | EVENT_TRACE_FILE_MODE_APPEND)))
		return fail(err, len, path, 0,
			    "LogFileMode: CIRCULAR goes with neither SEQUENTIAL nor APPEND");
	if ((m & EVENT_TRACE_BUFFERING_MODE) && ((m & AL_FILE_MODES) || c->has_file))
		return fail(err, len, path, 0,
			    "LogFileMode: BUFFERING_MODE keeps no file (no file mode, no FileName)");
	if ((m & EVENT_TRACE_FILE_MODE_CIRCULAR) && c->has_size && !c->max_file_size)
		return fail(err, len, path, 0, "MaxFileSize: a CIRCULAR file needs a size");
	if (c->file_max && al_config_no_file(c))
		return fail(err, len, path, 0, "FileMax: the session has no file");
	if (c->file_max && (m & EVENT_TRACE_FILE_MODE_APPEND))
		return fail(err, len, path, 0, "FileMax: a numbered file is new at each start, not APPEND");
	if (c->min_buffers && c->max_buffers && c->max_buffers < c->min_buffers)
		return fail(err, len, path, 0, "MaximumBuffers (%u) is below MinimumBuffers (%u)",
			    c->max_buffers, c->min_buffers);
	if (c->kernel_flags && !(m & EVENT_TRACE_SYSTEM_LOGGER_MODE))
		return fail(err, len, path, 0,
			    "EnableKernelFlags: only a system logger (LogFileMode 0x2000000, EVENT_TRACE_SYSTEM_LOGGER_MODE) takes kernel flags");
	for (i = 0; i < c->nprov; i++)
		if (c->prov[i].has_any && c->prov[i].has_flags &&
		    c->prov[i].flags != (uint32_t)c->prov[i].match_any)
			return fail(err, len, path, c->prov[i].line,
				    "[Provider %s]: EnableFlags and MatchAnyKeyword differ (a classic provider's flags are its MatchAnyKeyword's low 32 bits)",
				    c->prov[i].spec);
	return 0;
}

int al_config_read(const char *path, struct al_config *c, char *err, size_t len)
{
	char *text;
	long size;
	FILE *f;
	int ret;

	f = fopen(path, "r");
	if (!f)
		return fail(err, len, path, 0, "%s", strerror(errno));
	if (fseek(f, 0, SEEK_END) || (size = ftell(f)) < 0 || fseek(f, 0, SEEK_SET)) {
		fclose(f);
		return fail(err, len, path, 0, "cannot read it");
	}
	if (size > 1 << 20) {
		fclose(f);
		return fail(err, len, path, 0, "larger than 1 MiB");
	}
	text = malloc(size + 1);
	if (!text) {
		fclose(f);
		return fail(err, len, path, 0, "out of memory");
	}
	if (fread(text, 1, size, f) != (size_t)size) {
		free(text);
		fclose(f);
		return fail(err, len, path, 0, "cannot read it");
	}
	fclose(f);
	text[size] = '\0';
	if (strlen(text) != (size_t)size)
		ret = fail(err, len, path, 0, "a NUL byte: not a text file");
	else
		ret = al_config_parse(path, text, c, err, len);
	free(text);
	return ret;
}

bool al_config_no_file(const struct al_config *c)
{
	return !c->has_file && !(c->log_file_mode & AL_FILE_MODES) &&
	       (c->log_file_mode & (EVENT_TRACE_REAL_TIME_MODE | EVENT_TRACE_BUFFERING_MODE));
}

void al_config_file(const struct al_config *c, char *out, size_t size)
{
	if (c->has_file)
		snprintf(out, size, "%s", c->file_name);
	else
		snprintf(out, size, AL_LOG_DIR "/%s.etl", c->name);
}

void al_config_write(FILE *f, const struct al_config *c)
{
	char g[39];
	unsigned int i;

	ctl_format_guid(c->guid, g);
	fprintf(f, "# etw AutoLogger %s (Documentation/autologger.rst)\n", c->name);
	fprintf(f, "Start=%d\nGuid=%s\n", c->start, g);
	if (c->buffer_size)
		fprintf(f, "BufferSize=%u\n", c->buffer_size);
	if (c->min_buffers)
		fprintf(f, "MinimumBuffers=%u\n", c->min_buffers);
	if (c->max_buffers)
		fprintf(f, "MaximumBuffers=%u\n", c->max_buffers);
	if (c->flush_timer)
		fprintf(f, "FlushTimer=%u\n", c->flush_timer);
	if (c->clock_type)
		fprintf(f, "ClockType=%u\n", c->clock_type);
	if (c->has_mode)
		fprintf(f, "LogFileMode=0x%x\n", c->log_file_mode);
	if (c->has_file)
		fprintf(f, "FileName=%s\n", c->file_name);
	if (c->file_max)
		fprintf(f, "FileMax=%u\n", c->file_max);
	if (c->has_size)
		fprintf(f, "MaxFileSize=%u\n", c->max_file_size);
	if (c->kernel_flags)
		fprintf(f, "EnableKernelFlags=0x%x\n", c->kernel_flags);
	for (i = 0; i < c->nprov; i++) {
		const struct al_provider *p = &c->prov[i];

		fprintf(f, "\n[Provider %s]\n", p->spec);
		if (!p->enabled)
			fputs("Enabled=0\n", f);
		fprintf(f, "EnableLevel=%u\n", p->level);
		if (p->has_any)
			fprintf(f, "MatchAnyKeyword=0x%" PRIx64 "\n", p->match_any);
		if (p->match_all)
			fprintf(f, "MatchAllKeyword=0x%" PRIx64 "\n", p->match_all);
		if (p->property)
			fprintf(f, "EnableProperty=0x%x\n", p->property);
		if (p->has_flags)
			fprintf(f, "EnableFlags=0x%x\n", p->flags);
	}
}
