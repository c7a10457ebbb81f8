// SPDX-License-Identifier: MIT
/*
 * TdhLoadManifest and its kin: a manifest made known to this process's
 * decoders ahead of the installed ones, from a file, from memory or from
 * the .etw_manifest section of a program (`etw mc -b`), and forgotten
 * again.  What was described of its providers is described anew.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "../common/internal.h"
#include "manifest.h"
#include "tdh_internal.h"

static ULONG load_error(int ret)
{
	switch (ret) {
	case 0:
		return ERROR_SUCCESS;
	case -ENOENT:
		return ERROR_FILE_NOT_FOUND;
	case -EACCES:
	case -EPERM:
		return ERROR_ACCESS_DENIED;
	case -EBADMSG:
		return ERROR_XML_PARSE_ERROR;
	case -ENOMEM:
		return ERROR_NOT_ENOUGH_MEMORY;
	default:
		return ERROR_INVALID_PARAMETER;
	}
}

static void forget(const GUID *guid)
{
	decode_cache_forget(guid);
}

ETW_EXPORT TDHSTATUS WINAPI TdhLoadManifest(PWSTR Manifest)
{
	ULONG err = 0;
	char *path;
	int ret;

	if (!Manifest)
		return ERROR_INVALID_PARAMETER;
	path = tdh_utf8(Manifest, &err);
	if (!path)
		return err;
	ret = etw_manifest_load(path, NULL);
	free(path);
	return load_error(ret);
}

/* The name a manifest loaded from memory is unloaded by. */
static void memory_name(char *buf, size_t size, LPCVOID p, ULONG n)
{
	snprintf(buf, size, "memory:%p:%lu", p, (unsigned long)n);
}

ETW_EXPORT TDHSTATUS WINAPI TdhLoadManifestFromMemory(LPCVOID pData, ULONG cbData)
{
	char name[64];

	if (!pData || !cbData)
		return ERROR_INVALID_PARAMETER;
	memory_name(name, sizeof(name), pData, cbData);
	return load_error(etw_manifest_load_xml(pData, cbData, name, NULL));
}

ETW_EXPORT TDHSTATUS WINAPI TdhLoadManifestFromBinary(PWSTR BinaryPath)
{
	ULONG err = 0;
	size_t size;
	void *xml;
	char *path;
	int ret;

	if (!BinaryPath)
		return ERROR_INVALID_PARAMETER;
	path = tdh_utf8(BinaryPath, &err);
	if (!path)
		return err;
	ret = etw_manifest_from_binary(path, &xml, &size);
	if (!ret)
		ret = etw_manifest_load_xml(xml, size, path, NULL);
	else if (ret == -ENOEXEC)
		err = ERROR_BAD_EXE_FORMAT;
	else if (ret == -ENOENT && !access(path, F_OK))
		/* The program is there; it carries no manifest. */
		err = ERROR_RESOURCE_TYPE_NOT_FOUND;
	free(xml);
	free(path);
	return err ? err : load_error(ret);
}

ETW_EXPORT TDHSTATUS WINAPI TdhUnloadManifest(PWSTR Manifest)
{
	ULONG err = 0;
	char *path;
	int ret;

	if (!Manifest)
		return ERROR_INVALID_PARAMETER;
	path = tdh_utf8(Manifest, &err);
	if (!path)
		return err;
	ret = etw_manifest_unload(path, forget);
	free(path);
	return ret ? ERROR_NOT_FOUND : ERROR_SUCCESS;
}

ETW_EXPORT TDHSTATUS WINAPI TdhUnloadManifestFromMemory(LPCVOID pData, ULONG cbData)
{
	char name[64];

	if (!pData || !cbData)
		return ERROR_INVALID_PARAMETER;
	memory_name(name, sizeof(name), pData, cbData);
	return etw_manifest_unload(name, forget) ? ERROR_NOT_FOUND : ERROR_SUCCESS;
}
