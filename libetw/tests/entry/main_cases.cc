// SPDX-License-Identifier: GPL-2.0
/*
 * The entry points Windows C++ programs write, in Windows-source mode
 * (etw_crt.h makes main an int main and renames wmain, which
 * libetw_wmain.a calls):
 * libetw/build.mk builds each CASE, runs it with the arguments "a b" and
 * checks its exit status (EXPECT): a void one exits 0, as with MSVC.
 */
#define UNICODE
#include <Windows.h>
#include <cstring>

#if CASE == 1
void main()
{
	std::printf("void main()\n");
}
#elif CASE == 2
void __cdecl main(int argc, char *argv[])
{
	if (argc != 3 || std::strcmp(argv[2], "b"))
		std::exit(9);
}
#elif CASE == 3
int main(void)
{
	std::printf("int main without a return statement\n");
}
#elif CASE == 4
int main(int argc, char **argv)
{
	return argc + (argv[1][0] == 'a');
}
#elif CASE == 5
int main(int argc, char **argv, char **envp)
{
	return argc == 3 && argv[0] && envp[0] ? 5 : 9;
}
#elif CASE == 6
void wmain(int argc, wchar_t **argv)
{
	if (argc != 3 || wcscmp(argv[1], L"a"))
		std::exit(9);
}
#elif CASE == 7
int __cdecl wmain()
{
	return 7;
}
#elif CASE == 8
/* Return values of several types, as ETW samples' wmain has (ULONG). */
int __cdecl wmain(int argc, wchar_t **argv)
{
	ULONG status = 8;

	if (argc != 3 || !argv[0])
		return 1;
	return status;
}
#elif CASE == 9
int main(int argc, char **argv)
{
	unsigned int status = 9;

	if (argc != 3 || !argv[0])
		return 1;
	return status;
}
#endif
