// SPDX-License-Identifier: MIT
/*
 * main() for programs whose entry point is wmain (or _tmain with
 * _UNICODE): the arguments and environment converted from UTF-8 to
 * UTF-16 with libetw's mbstowcs.  Built into its own static library,
 * libetw_wmain.a, which `pkg-config --libs libetw-windows` names after
 * the program's objects: the linker takes it only when the program has
 * no main of its own.
 *
 * The entry point is found by its link names, each a weak reference:
 * "libetw_wmain" (C++17 and later: etw_crt.h's, which returns 0 for a
 * void wmain), "wmain" (C, or C++ before 17 through etw_crt.h's
 * extern "C" declaration of int wmain(int, wchar_t **)), and C++'s
 * wmain() without parameters.  Called as int: a void one of the last two
 * leaves the exit status undefined, as gcc does for a C void main.
 */
#include <stdio.h>
#include <stdlib.h>
#include <uchar.h>

extern int wmain(int argc, char16_t **argv) __attribute__((weak));
extern int wmain_cxx(void) __asm__("_Z5wmainv") __attribute__((weak));
/* A C++ program's wmain, renamed by etw_crt.h (a void one too). */
extern int libetw_wmain(int argc, char16_t **argv, char16_t **envp) __attribute__((weak));
size_t etw_mbstowcs(char16_t *dst, const char *src, size_t n);

/* A NULL-terminated array of UTF-8 strings in UTF-16; NULL if no memory. */
static char16_t **to_wide(char **v)
{
	char16_t **w;
	size_t i, n = 0;

	while (v[n])
		n++;
	w = calloc(n + 1, sizeof(*w));
	if (!w)
		return NULL;
	for (i = 0; i < n; i++) {
		size_t len = etw_mbstowcs(NULL, v[i], 0);

		if (len == (size_t)-1)
			return NULL;
		w[i] = malloc((len + 1) * sizeof(char16_t));
		if (!w[i])
			return NULL;
		etw_mbstowcs(w[i], v[i], len + 1);
	}
	return w;
}

int main(int argc, char **argv, char **envp)
{
	char16_t **wargv, **wenvp;

	wargv = to_wide(argv);
	wenvp = to_wide(envp);
	if (!wargv || !wenvp) {
		fputs("libetw_wmain: out of memory\n", stderr);
		return 1;
	}
	if (libetw_wmain)
		return libetw_wmain(argc, wargv, wenvp);
	if (wmain)
		return wmain(argc, wargv);
	if (wmain_cxx)
		return wmain_cxx();
	fputs("libetw_wmain: the program has neither main nor wmain\n", stderr);
	return 127;
}
