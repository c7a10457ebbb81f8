// SPDX-License-Identifier: MIT
/*
 * main() for programs whose entry point is wmain (or _tmain with
 * _UNICODE): the arguments converted from UTF-8 to UTF-16 with libetw's
 * mbstowcs.  Built into its own static library, libetw_wmain.a, which
 * `pkg-config --libs libetw-windows` names after libetw: the linker takes
 * it only when the program has no main of its own.
 */
#include <stdio.h>
#include <stdlib.h>
#include <uchar.h>

int wmain(int argc, char16_t **argv);
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
	return wmain(argc, wargv);
oom:
	fputs("wmain: out of memory\n", stderr);
	return 1;
}
