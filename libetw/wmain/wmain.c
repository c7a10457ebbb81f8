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
 * int wmain(int, wchar_t **)), and C++'s wmain() without parameters
 * ("int __cdecl wmain()" in the driver samples, "void wmain(void)" in the
 * Learn examples).  Its return type is not in its name: it is called as
 * int, so an int wmain() keeps its exit status and a void one leaves it
 * undefined, as gcc does for a C void main.
 */
#include <stdio.h>
#include <stdlib.h>
#include <uchar.h>

extern int wmain(int argc, char16_t **argv) __attribute__((weak));
extern int wmain_cxx(void) __asm__("_Z5wmainv") __attribute__((weak));
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
	if (wmain_cxx)
		return wmain_cxx();
	fputs("libetw_wmain: the program has neither main nor wmain\n", stderr);
	return 127;
oom:
	fputs("libetw_wmain: out of memory\n", stderr);
	return 1;
}
