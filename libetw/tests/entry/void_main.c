// SPDX-License-Identifier: GPL-2.0
/*
 * A C program's void main in Windows-source mode: it builds with -Wall
 * -Wextra -Werror and exits 0, as with MSVC (libetw/build.mk runs it).
 */
#include <windows.h>

void main(void)
{
	printf("void main in C\n");
}
