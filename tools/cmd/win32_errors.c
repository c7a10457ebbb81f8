// SPDX-License-Identifier: GPL-2.0
/*
 * The Win32 error codes the ETW API returns, by name and in a few words,
 * for the one-line errors of the etw command.
 */
#include <stddef.h>

#include <winerror.h>

#include "ctl.h"

static const struct {
	unsigned int code;
	const char *name;
	const char *text;
} win32[] = {
	{ ERROR_SUCCESS, "ERROR_SUCCESS", "success" },
	{ ERROR_FILE_NOT_FOUND, "ERROR_FILE_NOT_FOUND", "no such file" },
	{ ERROR_PATH_NOT_FOUND, "ERROR_PATH_NOT_FOUND", "no such directory" },
	{ ERROR_ACCESS_DENIED, "ERROR_ACCESS_DENIED", "permission denied" },
	{ ERROR_INVALID_HANDLE, "ERROR_INVALID_HANDLE", "invalid handle" },
	{ ERROR_NOT_ENOUGH_MEMORY, "ERROR_NOT_ENOUGH_MEMORY", "out of memory" },
	{ ERROR_BAD_LENGTH, "ERROR_BAD_LENGTH", "bad length" },
	{ ERROR_NOT_SUPPORTED, "ERROR_NOT_SUPPORTED", "not supported" },
	{ ERROR_INVALID_PARAMETER, "ERROR_INVALID_PARAMETER", "invalid argument" },
	{ ERROR_BAD_PATHNAME, "ERROR_BAD_PATHNAME", "bad file or session name" },
	{ ERROR_BUSY, "ERROR_BUSY", "in use" },
	{ ERROR_ALREADY_EXISTS, "ERROR_ALREADY_EXISTS", "already exists" },
	{ ERROR_MORE_DATA, "ERROR_MORE_DATA", "more data" },
	{ ERROR_ARITHMETIC_OVERFLOW, "ERROR_ARITHMETIC_OVERFLOW", "too large" },
	{ ERROR_NOACCESS, "ERROR_NOACCESS", "bad address" },
	{ ERROR_FILE_CORRUPT, "ERROR_FILE_CORRUPT", "corrupt or truncated file" },
	{ ERROR_CANCELLED, "ERROR_CANCELLED", "cancelled" },
	{ ERROR_NO_SYSTEM_RESOURCES, "ERROR_NO_SYSTEM_RESOURCES", "limit reached" },
	{ ERROR_TIMEOUT, "ERROR_TIMEOUT", "timed out" },
	{ ERROR_INVALID_TIME, "ERROR_INVALID_TIME", "end time before start time" },
	{ ERROR_WMI_INSTANCE_NOT_FOUND, "ERROR_WMI_INSTANCE_NOT_FOUND", "no such session" },
	{ ERROR_CTX_CLOSE_PENDING, "ERROR_CTX_CLOSE_PENDING", "closing" },
};

const char *win32_error_name(unsigned int code)
{
	for (size_t i = 0; i < sizeof(win32) / sizeof(win32[0]); i++)
		if (win32[i].code == code)
			return win32[i].name;
	return NULL;
}

const char *win32_error_text(unsigned int code)
{
	for (size_t i = 0; i < sizeof(win32) / sizeof(win32[0]); i++)
		if (win32[i].code == code)
			return win32[i].text;
	return "error";
}
