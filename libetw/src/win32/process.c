// SPDX-License-Identifier: MIT
/*
 * kernel32's process functions (etw_win32.h): ids, the version, the local
 * and global heaps (malloc underneath: LocalFree and GlobalFree free what
 * CommandLineToArgvW and ConvertSidToStringSid return), the command line.
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <windows.h>
#include <etw_win32.h>

#include "../common/internal.h"
#include "crt.h"

ETW_EXPORT DWORD WINAPI GetCurrentProcessId(void)
{
	return (DWORD)getpid();
}

ETW_EXPORT DWORD WINAPI GetCurrentThreadId(void)
{
	return (DWORD)syscall(SYS_gettid);
}

/*
 * What Windows 8.1 and later report to a program without a compatibility
 * manifest (the GetVersionEx page): 6.2, build 9200.  A size that is
 * neither structure's is ERROR_INSUFFICIENT_BUFFER.
 */
static void fill_version(DWORD *major, DWORD *minor, DWORD *build, DWORD *platform)
{
	*major = 6;
	*minor = 2;
	*build = 9200;
	*platform = VER_PLATFORM_WIN32_NT;
}

ETW_EXPORT BOOL WINAPI GetVersionExW(LPOSVERSIONINFOW v)
{
	DWORD size;

	if (!v) {
		SetLastError(ERROR_INVALID_PARAMETER);
		return FALSE;
	}
	size = v->dwOSVersionInfoSize;
	if (size != sizeof(OSVERSIONINFOW) && size != sizeof(OSVERSIONINFOEXW)) {
		SetLastError(ERROR_INSUFFICIENT_BUFFER);
		return FALSE;
	}
	memset((char *)v + sizeof(DWORD), 0, size - sizeof(DWORD));
	fill_version(&v->dwMajorVersion, &v->dwMinorVersion, &v->dwBuildNumber,
		     &v->dwPlatformId);
	if (size == sizeof(OSVERSIONINFOEXW))
		((LPOSVERSIONINFOEXW)v)->wProductType = VER_NT_WORKSTATION;
	return TRUE;
}

ETW_EXPORT BOOL WINAPI GetVersionExA(LPOSVERSIONINFOA v)
{
	DWORD size;

	if (!v) {
		SetLastError(ERROR_INVALID_PARAMETER);
		return FALSE;
	}
	size = v->dwOSVersionInfoSize;
	if (size != sizeof(OSVERSIONINFOA) && size != sizeof(OSVERSIONINFOEXA)) {
		SetLastError(ERROR_INSUFFICIENT_BUFFER);
		return FALSE;
	}
	memset((char *)v + sizeof(DWORD), 0, size - sizeof(DWORD));
	fill_version(&v->dwMajorVersion, &v->dwMinorVersion, &v->dwBuildNumber,
		     &v->dwPlatformId);
	if (size == sizeof(OSVERSIONINFOEXA))
		((LPOSVERSIONINFOEXA)v)->wProductType = VER_NT_WORKSTATION;
	return TRUE;
}

/*
 * The process heap is the C library's: one handle, HeapAlloc and
 * HeapFree are malloc and free.  Heap options (HeapSetInformation) have
 * nothing to set: glibc's allocator already aborts on the corruption it
 * detects, which is what HeapEnableTerminationOnCorruption asks for.
 */
static char process_heap;

ETW_EXPORT HANDLE WINAPI GetProcessHeap(void)
{
	return &process_heap;
}

ETW_EXPORT LPVOID WINAPI HeapAlloc(HANDLE heap, DWORD flags, SIZE_T bytes)
{
	void *p;

	if (heap != &process_heap) {
		SetLastError(ERROR_INVALID_HANDLE);
		return NULL;
	}
	p = flags & HEAP_ZERO_MEMORY ? calloc(1, bytes ? bytes : 1) : malloc(bytes ? bytes : 1);
	if (!p)
		SetLastError(ERROR_NOT_ENOUGH_MEMORY);
	return p;
}

ETW_EXPORT LPVOID WINAPI HeapReAlloc(HANDLE heap, DWORD flags, LPVOID mem, SIZE_T bytes)
{
	void *p;

	if (heap != &process_heap || !mem || (flags & HEAP_ZERO_MEMORY)) {
		/* Zeroing the grown part would need the old size: not kept. */
		SetLastError(heap != &process_heap ? ERROR_INVALID_HANDLE :
						     ERROR_INVALID_PARAMETER);
		return NULL;
	}
	p = realloc(mem, bytes ? bytes : 1);
	if (!p)
		SetLastError(ERROR_NOT_ENOUGH_MEMORY);
	return p;
}

ETW_EXPORT BOOL WINAPI HeapFree(HANDLE heap, DWORD flags, LPVOID mem)
{
	if (heap != &process_heap) {
		SetLastError(ERROR_INVALID_HANDLE);
		return FALSE;
	}
	free(mem);
	return TRUE;
}

ETW_EXPORT BOOL WINAPI HeapSetInformation(HANDLE heap, HEAP_INFORMATION_CLASS cls,
					  PVOID info, SIZE_T len)
{
	if ((heap && heap != &process_heap) ||
	    (cls != HeapEnableTerminationOnCorruption && cls != HeapCompatibilityInformation)) {
		SetLastError(ERROR_INVALID_PARAMETER);
		return FALSE;
	}
	return TRUE;
}

ETW_EXPORT HLOCAL WINAPI LocalAlloc(UINT flags, SIZE_T bytes)
{
	void *p = flags & LMEM_ZEROINIT ? calloc(1, bytes ? bytes : 1) : malloc(bytes ? bytes : 1);

	if (!p)
		SetLastError(ERROR_NOT_ENOUGH_MEMORY);
	return p;
}

/* NULL on success, as Windows. */
ETW_EXPORT HLOCAL WINAPI LocalFree(HLOCAL mem)
{
	free(mem);
	return NULL;
}

ETW_EXPORT HGLOBAL WINAPI GlobalAlloc(UINT flags, SIZE_T bytes)
{
	return LocalAlloc(flags & GMEM_ZEROINIT ? LMEM_ZEROINIT : 0, bytes);
}

ETW_EXPORT HGLOBAL WINAPI GlobalFree(HGLOBAL mem)
{
	free(mem);
	return NULL;
}

/*
 * The command line, rebuilt once from /proc/self/cmdline: each argument
 * quoted when it holds a space, tab or quote, with the backslash rules
 * CommandLineToArgvW undoes, so that parsing it gives argv back.
 */
static pthread_once_t cmdline_once = PTHREAD_ONCE_INIT;
static char *cmdline_a;
static char16_t *cmdline_w;

static void append_arg(char **out, size_t *len, const char *arg)
{
	int quote = !*arg || strpbrk(arg, " \t\"") != NULL;
	size_t need = *len + 2 * strlen(arg) + 4;
	char *p = realloc(*out, need), *o;
	size_t bs = 0;

	if (!p)
		return;
	*out = p;
	o = p + *len;
	if (*len)
		*o++ = ' ';
	if (quote)
		*o++ = '"';
	for (; *arg; arg++) {
		if (*arg == '\\') {
			bs++;
		} else if (*arg == '"') {
			/* Backslashes before a quote double, and the quote is escaped. */
			for (; bs; bs--)
				*o++ = '\\';
			*o++ = '\\';
		} else {
			bs = 0;
		}
		*o++ = *arg;
	}
	if (quote) {
		for (; bs; bs--)
			*o++ = '\\';
		*o++ = '"';
	}
	*o = 0;
	*len = (size_t)(o - p);
}

static void cmdline_init(void)
{
	FILE *f = fopen("/proc/self/cmdline", "re");
	char *raw = NULL, *out = NULL, buf[4096];
	size_t rawlen = 0, len = 0, n, i;

	if (f) {
		/* NUL-separated arguments. */
		while ((n = fread(buf, 1, sizeof(buf), f)) > 0) {
			char *p = realloc(raw, rawlen + n + 1);

			if (!p)
				break;
			raw = p;
			memcpy(raw + rawlen, buf, n);
			rawlen += n;
		}
		fclose(f);
	}
	if (raw) {
		raw[rawlen] = 0;
		for (i = 0; i < rawlen; i += strlen(raw + i) + 1)
			append_arg(&out, &len, raw + i);
		free(raw);
	}
	if (!out)
		out = strdup("");
	cmdline_a = out;
	if (out)
		cmdline_w = etw_u8_to_u16_dup(out, strlen(out), NULL);
}

ETW_EXPORT LPSTR WINAPI GetCommandLineA(void)
{
	pthread_once(&cmdline_once, cmdline_init);
	return cmdline_a;
}

ETW_EXPORT LPWSTR WINAPI GetCommandLineW(void)
{
	pthread_once(&cmdline_once, cmdline_init);
	return cmdline_w;
}
