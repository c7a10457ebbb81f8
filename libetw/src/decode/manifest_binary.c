// SPDX-License-Identifier: MIT
/*
 * The compiled manifest a program carries: `etw mc -b` puts the manifest
 * into an ELF section of the program (Windows keeps it in a resource of
 * the binary), read back with elf_section.c.
 */
#include <string.h>

#include "../common/internal.h"
#include "elf_section.h"
#include "manifest.h"

ETW_EXPORT int etw_manifest_from_binary(const char *path, void **xml, size_t *size)
{
	int ret = decode_elf_section(path, ETW_MANIFEST_SECTION, xml, size);

	/* The section may be padded with NULs after the text. */
	if (!ret)
		*size = strnlen(*xml, *size);
	return ret;
}
