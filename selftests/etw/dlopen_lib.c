// SPDX-License-Identifier: GPL-2.0
/*
 * A shared object no test links: kernel_logger_test's child dlopen()s and
 * dlclose()s it, so that its mapping is loaded and unloaded during a trace.
 */
int etw_selftest_dlopen_lib(int x);

int etw_selftest_dlopen_lib(int x)
{
	return x + 1;
}
