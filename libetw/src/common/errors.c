// SPDX-License-Identifier: MIT
/*
 * Win32 error codes: the thread's last error, and the one place where the
 * module's errno values become the codes Windows returns
 * (Documentation/userspace-api/ioctl.rst has the table).
 */
#include <errno.h>

#include <windows.h>
#include <winerror.h>

#include "internal.h"

static _Thread_local DWORD last_error;

ETW_EXPORT DWORD WINAPI GetLastError(void)
{
	return last_error;
}

ETW_EXPORT void WINAPI SetLastError(DWORD code)
{
	last_error = code;
}

ULONG etw_win32_error(int err, enum etw_err_ctx ctx)
{
	switch (err) {
	case 0:
		return ERROR_SUCCESS;
	case -EINVAL:
		return ERROR_INVALID_PARAMETER;
	case -EFAULT:
		return ERROR_NOACCESS;
	case -EBADF:
		return ERROR_INVALID_HANDLE;
	case -EACCES:
	case -EPERM:
		return ERROR_ACCESS_DENIED;
	case -ENOENT:
		return ERROR_WMI_INSTANCE_NOT_FOUND;
	case -EEXIST:
		return ERROR_ALREADY_EXISTS;
	case -ENOSPC:
		return ctx == ETW_ERR_WRITE ? ERROR_NOT_ENOUGH_MEMORY :
					      ERROR_NO_SYSTEM_RESOURCES;
	case -ENOBUFS:
		return ERROR_OUTOFMEMORY;	/* a classic write's pool below max */
	case -EOVERFLOW:
		return ERROR_ARITHMETIC_OVERFLOW;
	case -EMSGSIZE:
		return ERROR_MORE_DATA;
	case -ERANGE:
		return ERROR_INVALID_DATA;	/* a MOF_FIELD array too long */
	case -ENOMEM:
		return ERROR_NOT_ENOUGH_MEMORY;
	case -ETIMEDOUT:
		return ERROR_TIMEOUT;
	case -EBUSY:
		return ERROR_BUSY;	/* the session has a consumer */
	default:
		/* No module, or a module without this feature. */
		return ERROR_NOT_SUPPORTED;
	}
}
