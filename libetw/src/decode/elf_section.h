/* SPDX-License-Identifier: MIT */
/* A section of an ELF file (elf_section.c). */
#ifndef LIBETW_DECODE_ELF_SECTION_H
#define LIBETW_DECODE_ELF_SECTION_H

#include <stddef.h>

/*
 * The bytes of section @section of the ELF file @path, malloc'd with a
 * NUL after them.  0; -ENOENT (no such section), -ENOEXEC (not ELF, or a
 * section without bytes), -ENOMEM, -errno of open().
 */
int decode_elf_section(const char *path, const char *section, void **data,
		       size_t *size);

#endif /* LIBETW_DECODE_ELF_SECTION_H */
