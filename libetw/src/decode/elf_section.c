// SPDX-License-Identifier: MIT
/*
 * A named section of an ELF file, read with elfutils' libelf: where
 * programs carry what Windows keeps in resources or PDBs (a compiled
 * manifest, WPP's TMF texts).
 */
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "elf_section.h"

int decode_elf_section(const char *path, const char *section, void **data,
		       size_t *size)
{
	size_t shstrndx;
	Elf_Scn *scn = NULL;
	Elf *elf = NULL;
	int fd, ret = -ENOENT;

	*data = NULL;
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
		if (!name || strcmp(name, section))
			continue;
		d = elf_getdata(scn, NULL);
		if (!d || !d->d_buf || sh.sh_type == SHT_NOBITS) {
			ret = -ENOEXEC;
			goto out;
		}
		*data = malloc(d->d_size + 1);
		if (!*data) {
			ret = -ENOMEM;
			goto out;
		}
		memcpy(*data, d->d_buf, d->d_size);
		((char *)*data)[d->d_size] = '\0';
		*size = d->d_size;
		ret = 0;
		break;
	}
out:
	if (elf)
		elf_end(elf);
	close(fd);
	return ret;
}
