// SPDX-License-Identifier: MIT
/*
 * shell32's CommandLineToArgvW (shellapi.h), with the parsing rules its
 * Learn page and the C runtime's "Parsing C command-line arguments" page
 * give: the program name runs to the first white space or is quoted, and
 * takes no escapes; in the other arguments 2n backslashes before a quote
 * give n backslashes and the quote toggles quoting, 2n+1 give n and a
 * literal quote, other backslashes are literal, and "" inside quotes is a
 * literal quote.  The result is one LocalAlloc block: the pointer array,
 * then the strings; LocalFree frees it.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <windows.h>
#include <etw_win32.h>
#include <shellapi.h>

#include "../common/internal.h"
#include "crt.h"

static int is_space(char16_t c)
{
	return c == ' ' || c == '\t';
}

/* Parse into @out (NULL: count only); returns the argument count. */
static int parse(const char16_t *s, char16_t *out, char16_t **argv, size_t *units)
{
	size_t o = 0;
	int argc = 0;

	/* The program name. */
	if (argv)
		argv[argc] = out + o;
	if (*s == '"') {
		for (s++; *s && *s != '"'; s++)
			if (out)
				out[o++] = *s;
			else
				o++;
		if (*s == '"')
			s++;
	} else {
		for (; *s && !is_space(*s); s++)
			if (out)
				out[o++] = *s;
			else
				o++;
	}
	if (out)
		out[o] = 0;
	o++;
	argc++;
	for (;;) {
		int quoted = 0;

		while (is_space(*s))
			s++;
		if (!*s)
			break;
		if (argv)
			argv[argc] = out + o;
		while (*s && (quoted || !is_space(*s))) {
			if (*s == '\\') {
				size_t bs = 0;

				while (*s == '\\') {
					bs++;
					s++;
				}
				if (*s == '"') {
					for (size_t k = 0; k < bs / 2; k++, o++)
						if (out)
							out[o] = '\\';
					if (bs % 2) {
						if (out)
							out[o] = '"';
						o++;
						s++;
					}
				} else {
					for (size_t k = 0; k < bs; k++, o++)
						if (out)
							out[o] = '\\';
				}
			} else if (*s == '"') {
				s++;
				if (quoted && *s == '"') {
					if (out)
						out[o] = '"';
					o++;
					s++;
				} else {
					quoted = !quoted;
				}
			} else {
				if (out)
					out[o] = *s;
				o++;
				s++;
			}
		}
		if (out)
			out[o] = 0;
		o++;
		argc++;
	}
	*units = o;
	return argc;
}

ETW_EXPORT LPWSTR *WINAPI CommandLineToArgvW(LPCWSTR cmdline, int *pNumArgs)
{
	const char16_t *s = (const char16_t *)cmdline;
	char16_t *self = NULL, **argv;
	size_t units;
	int argc;

	if (!pNumArgs) {
		SetLastError(ERROR_INVALID_PARAMETER);
		return NULL;
	}
	if (!s || !*s) {
		/* The empty line: the program's own path, alone. */
		char path[4096];
		ssize_t n = readlink("/proc/self/exe", path, sizeof(path) - 1);

		path[n > 0 ? n : 0] = 0;
		self = etw_u8_to_u16_dup(path, strlen(path), NULL);
		if (!self) {
			SetLastError(ERROR_NOT_ENOUGH_MEMORY);
			return NULL;
		}
		/* A path with spaces must stay one argument. */
		{
			size_t len = etw_u16len(self);
			char16_t *q = malloc((len + 3) * 2);

			if (!q) {
				free(self);
				SetLastError(ERROR_NOT_ENOUGH_MEMORY);
				return NULL;
			}
			q[0] = '"';
			memcpy(q + 1, self, len * 2);
			q[len + 1] = '"';
			q[len + 2] = 0;
			free(self);
			self = q;
		}
		s = self;
	}
	argc = parse(s, NULL, NULL, &units);
	argv = LocalAlloc(LMEM_FIXED, (size_t)(argc + 1) * sizeof(char16_t *) + units * 2);
	if (!argv) {
		free(self);
		return NULL;
	}
	parse(s, (char16_t *)(argv + argc + 1), argv, &units);
	argv[argc] = NULL;
	*pNumArgs = argc;
	free(self);
	return (LPWSTR *)argv;
}
