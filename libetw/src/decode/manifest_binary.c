// SPDX-License-Identifier: MIT
/*
 * The compiled manifest a program carries: `etw mc -b` puts the manifest
 * into an ELF section of the program (Windows keeps it in a resource of
 * the binary), read back here with elfutils' libelf.
 */
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../common/internal.h"
#include "manifest.h"

ETW_EXPORT int etw_manifest_from_binary(const char *path, void **xml, size_t *size)
{
	size_t shstrndx;
	Elf_Scn *scn = NULL;
	Elf *elf = NULL;
	int fd, ret = -ENOENT;

	*xml = NULL;
	*size = 0;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (elf_version(EV_CURRENT) == EV_NONE) {
		ret = -ENOEXEC;
		goto out;
	}
	elf = elf_begin(fd, ELF_C_READ, NULL);
	if (!elf || elf_kind(elf) != ELF_K_ELF ||
	    elf_getshdrstrndx(elf, &shstrndx) < 0) {
		ret = -ENOEXEC;
		goto out;
	}
	while ((scn = elf_nextscn(elf, scn))) {
		GElf_Shdr sh;
		const char *name;
		Elf_Data *d;

		if (!gelf_getshdr(scn, &sh))
			continue;
		name = elf_strptr(elf, shstrndx, sh.sh_name);
		if (!name || strcmp(name, ETW_MANIFEST_SECTION))
			continue;
		d = elf_getdata(scn, NULL);
		if (!d || !d->d_buf || sh.sh_type == SHT_NOBITS) {
			ret = -ENOEXEC;
			goto out;
		}
		/* The section may be padded with NULs after the text. */
		size_t n = strnlen(d->d_buf, d->d_size);

		*xml = malloc(n + 1);
		if (!*xml) {
			ret = -ENOMEM;
			goto out;
		}
		memcpy(*xml, d->d_buf, n);
		((char *)*xml)[n] = '\0';
		*size = n;
		ret = 0;
		break;
	}
out:
	if (elf)
		elf_end(elf);
	close(fd);
	return ret;
}
