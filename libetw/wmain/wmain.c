// SPDX-License-Identifier: MIT
/*
 * main() for programs whose entry point is wmain (or _tmain with
 * _UNICODE): the arguments converted from UTF-8 to UTF-16 with libetw's
 * mbstowcs.  Built into its own static library, libetw_wmain.a, which
 * `pkg-config --libs libetw-windows` names after the program's objects:
 * the linker takes it only when the program has no main of its own.
 *
 * The entry point is found by its link names, each a weak reference:
 * "wmain" (C, or C++ through etw_crt.h's extern "C" declaration of
 * int wmain(int, wchar_t **)), and C++'s "void wmain()", which MSVC also
 * accepts (its return type is not in the name: it is taken as void, and
 * the exit status is 0, as MSVC gives for a void entry point).
 */
#include <stdio.h>
#include <stdlib.h>
#include <uchar.h>

extern int wmain(int argc, char16_t **argv) __attribute__((weak));
extern void wmain_cxx_void(void) __asm__("_Z5wmainv") __attribute__((weak));
size_t etw_mbstowcs(char16_t *dst, const char *src, size_t n);

int main(int argc, char **argv)
{
	char16_t **wargv = calloc((size_t)argc + 1, sizeof(*wargv));
	int i;

	if (!wargv)
		goto oom;
	for (i = 0; i < argc; i++) {
		size_t n = etw_mbstowcs(NULL, argv[i], 0);

		if (n == (size_t)-1)
			goto oom;
		wargv[i] = malloc((n + 1) * sizeof(char16_t));
		if (!wargv[i])
			goto oom;
		etw_mbstowcs(wargv[i], argv[i], n + 1);
	}
	if (wmain)
		return wmain(argc, wargv);
	if (wmain_cxx_void) {
		wmain_cxx_void();
		return 0;
	}
	fputs("libetw_wmain: the program has neither main nor wmain\n", stderr);
	return 127;
oom:
	fputs("libetw_wmain: out of memory\n", stderr);
	return 1;
}
