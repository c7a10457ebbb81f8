// SPDX-License-Identifier: GPL-2.0
/*
 * Function names for stack frames.  ELF files through elfutils' libdwfl:
 * the file's own .symtab, else the debug file libdwfl finds by build-id
 * (DIR/.build-id/xx/rest.debug) or .gnu_debuglink under the debug
 * directories, else .dynsym.  The kernel through a kallsyms file: text
 * lines "address type name [module]", sorted here.
 */
#include <ctype.h>
#include <dwarf.h>
#include <elfutils/libdwfl.h>
#include <errno.h>
#include <gelf.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/stack.h"

#define PAGE_MASK_4K	(~(uint64_t)0xfff)

struct sym_file {
	Dwfl *dwfl;
	Dwfl_Module *mod;
	char *debuginfo_path;
	Dwfl_Callbacks cb;
	/* Address in the module of the file's first byte. */
	uint64_t file_start;
};

/*
 * Where the file's offset 0 is in libdwfl's addresses: the first
 * PT_LOAD maps its page of the file at its page of vaddr.
 */
static int file_start(struct sym_file *f)
{
	GElf_Addr bias;
	Elf *elf = dwfl_module_getelf(f->mod, &bias);
	size_t phnum;

	if (!elf || elf_getphdrnum(elf, &phnum))
		return -EINVAL;
	for (size_t i = 0; i < phnum; i++) {
		GElf_Phdr mem, *ph = gelf_getphdr(elf, (int)i, &mem);

		if (ph && ph->p_type == PT_LOAD) {
			f->file_start = (ph->p_vaddr & PAGE_MASK_4K) -
					(ph->p_offset & PAGE_MASK_4K) + bias;
			return 0;
		}
	}
	return -EINVAL;
}

struct sym_file *sym_file_open(const char *path, const char *debug_dir)
{
	struct sym_file *f = calloc(1, sizeof(*f));

	if (!f)
		return NULL;
	/*
	 * libdwfl's search list: the file's directory, its .debug, then
	 * the debug directories (absolute ones are also searched by
	 * build-id).  '-' skips the CRC check of debuglink files.
	 */
	if (asprintf(&f->debuginfo_path, "-:.debug:%s%s/usr/lib/debug",
		     debug_dir ? debug_dir : "", debug_dir ? ":" : "") < 0) {
		f->debuginfo_path = NULL;
		goto fail;
	}
	f->cb.find_elf = dwfl_build_id_find_elf;
	f->cb.find_debuginfo = dwfl_standard_find_debuginfo;
	f->cb.section_address = dwfl_offline_section_address;
	f->cb.debuginfo_path = &f->debuginfo_path;
	f->dwfl = dwfl_begin(&f->cb);
	if (!f->dwfl)
		goto fail;
	dwfl_report_begin(f->dwfl);
	f->mod = dwfl_report_elf(f->dwfl, path, path, -1, 0, true);
	dwfl_report_end(f->dwfl, NULL, NULL);
	if (!f->mod || file_start(f))
		goto fail;
	return f;
fail:
	sym_file_close(f);
	return NULL;
}

void sym_file_close(struct sym_file *f)
{
	if (!f)
		return;
	if (f->dwfl)
		dwfl_end(f->dwfl);
	free(f->debuginfo_path);
	free(f);
}

const char *sym_file_lookup(struct sym_file *f, uint64_t rva, uint64_t *off)
{
	GElf_Addr addr = f->file_start + rva, offset;
	GElf_Sym sym;
	const char *name;

	name = dwfl_module_addrinfo(f->mod, addr, &offset, &sym, NULL, NULL, NULL);
	if (!name || !*name || GELF_ST_TYPE(sym.st_info) == STT_SECTION)
		return NULL;
	*off = offset;
	return name;
}

bool sym_file_build_id_is(struct sym_file *f, const uint8_t *id)
{
	uint8_t padded[BUILD_ID_MAX] = { 0 };
	const unsigned char *bits;
	GElf_Addr vaddr;
	int n = dwfl_module_build_id(f->mod, &bits, &vaddr);

	if (n <= 0 || n > BUILD_ID_MAX)
		return false;
	memcpy(padded, bits, n);
	return !memcmp(padded, id, BUILD_ID_MAX);
}

struct ksym {
	uint64_t addr;
	char *name;
};

struct sym_kallsyms {
	struct ksym *v;
	size_t n;
};

static int ksym_cmp(const void *a, const void *b)
{
	const struct ksym *x = a, *y = b;

	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

/*
 * "ADDRESS TYPE NAME [MODULE]": by hand, as sscanf() costs as much as a
 * hundred thousand samples for a kernel's 120,000 lines.
 */
static bool parse_kallsyms_line(const char *line, uint64_t *addr, char *type,
				char *name, size_t size)
{
	const char *p = line;
	char *end;
	size_t n = 0;

	while (*p == ' ' || *p == '\t')
		p++;
	if (!isxdigit((unsigned char)*p))
		return false;
	*addr = strtoull(p, &end, 16);
	p = end;
	while (*p == ' ' || *p == '\t')
		p++;
	if (!*p || isspace((unsigned char)*p))
		return false;
	*type = *p++;
	while (*p == ' ' || *p == '\t')
		p++;
	while (p[n] && !isspace((unsigned char)p[n]) && n + 1 < size)
		n++;
	if (!n)
		return false;
	memcpy(name, p, n);
	name[n] = '\0';
	return true;
}

struct sym_kallsyms *sym_kallsyms_open(const char *path)
{
	struct sym_kallsyms *k = calloc(1, sizeof(*k));
	char line[512], name[256], type;
	size_t cap = 0;
	uint64_t addr;
	FILE *in;

	if (!k)
		return NULL;
	in = fopen(path, "r");
	if (!in)
		goto fail;
	while (fgets(line, sizeof(line), in)) {
		if (!parse_kallsyms_line(line, &addr, &type, name, sizeof(name)))
			continue;
		/* Only code; addresses hidden by kptr_restrict read as 0. */
		if (!addr || (type != 't' && type != 'T' && type != 'W' &&
			      type != 'w'))
			continue;
		if (k->n == cap) {
			struct ksym *v;

			cap = cap ? 2 * cap : 4096;
			v = realloc(k->v, cap * sizeof(*v));
			if (!v)
				goto fail_file;
			k->v = v;
		}
		k->v[k->n].addr = addr;
		k->v[k->n].name = strdup(name);
		if (!k->v[k->n].name)
			goto fail_file;
		k->n++;
	}
	fclose(in);
	if (!k->n)
		goto fail;
	qsort(k->v, k->n, sizeof(*k->v), ksym_cmp);
	return k;
fail_file:
	fclose(in);
fail:
	sym_kallsyms_close(k);
	return NULL;
}

void sym_kallsyms_close(struct sym_kallsyms *k)
{
	if (!k)
		return;
	for (size_t i = 0; i < k->n; i++)
		free(k->v[i].name);
	free(k->v);
	free(k);
}

uint64_t sym_kallsyms_address(const struct sym_kallsyms *k, const char *name)
{
	for (size_t i = 0; i < k->n; i++)
		if (!strcmp(k->v[i].name, name))
			return k->v[i].addr;
	return 0;
}

const char *sym_kallsyms_lookup(const struct sym_kallsyms *k, uint64_t addr,
				uint64_t *off)
{
	size_t lo = 0, hi = k->n;

	/* The last symbol at or below addr. */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (k->v[mid].addr <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo)
		return NULL;
	*off = addr - k->v[lo - 1].addr;
	return k->v[lo - 1].name;
}
