// SPDX-License-Identifier: GPL-2.0
/*
 * Image identity beside each image event, as xperf's merge injects
 * it for Windows images (KernelTraceControl, class GUID
 * {b3e675d7-2554-4f18-830b-2762732560de}, version 2, with the image
 * event's timestamp, which is how readers join them):
 *
 * - ImageID/Info (opcode 0): ImageBase, ImageSize, ProcessId,
 *   TimeDateStamp 0, OriginalFileName (the file name).
 * - DbgID_RSDS (opcode 36): ImageBase, ProcessId, then the ELF build-id
 *   where a PE's PDB identity goes: its first 16 bytes as GuidSig, the
 *   next 4 as Age (little-endian), PdbFileName the image's path.  A
 *   20-byte GNU build-id (ld's default) is thus whole; a shorter one is
 *   padded with zeros.
 *
 * The build-id is read from the file's first page in the page cache
 * (whoever mapped the file has just read it): no sleeping, no user
 * memory, so it works in the probes as in the rundown.  A file whose
 * first page is not cached, or with no build-id note there, gets the
 * ImageID/Info record only.  The kernel's images carry the build-ids of
 * their own notes (klog/kernel.c).  ELF parsing is by hand: a page of notes is
 * all there is to read, and no kernel interface exported to modules does
 * it (build_id_parse() is not exported).
 */
#include <linux/elf.h>
#include <linux/fs.h>
#include <linux/highmem.h>
#include <linux/pagemap.h>
#include <linux/string.h>

#include "klog_proc.h"
#include "klog_text.h"

/* KernelTraceControl's ImageID class. */
static const guid_t klog_image_id_guid =
	GUID_INIT(0xb3e675d7, 0x2554, 0x4f18,
		  0x83, 0x0b, 0x27, 0x62, 0x73, 0x25, 0x60, 0xde);

#define KLOG_IMAGE_ID_INFO	0x00
#define KLOG_IMAGE_ID_RSDS	0x24

/* The note type of a GNU build-id (<elf.h>'s NT_GNU_BUILD_ID). */
#define KLOG_NT_GNU_BUILD_ID	3

/*
 * The GNU build-id in the notes at @p (@len bytes, 4-aligned: a PT_NOTE
 * segment, the kernel's notes, a module's SHT_NOTE section); its length
 * or 0.
 */
u32 klog_build_id_notes(const u8 *p, u64 len, u8 *id)
{
	const struct elf64_note *n;
	u64 off = 0;

	while (off + sizeof(*n) <= len) {
		n = (const void *)(p + off);
		off += sizeof(*n) + ALIGN(n->n_namesz, 4);
		if (off > len)
			break;
		if (n->n_type == KLOG_NT_GNU_BUILD_ID && n->n_namesz == 4 &&
		    !memcmp(n + 1, "GNU", 4) && n->n_descsz &&
		    n->n_descsz <= KLOG_BUILD_ID_MAX &&
		    off + n->n_descsz <= len) {
			memcpy(id, p + off, n->n_descsz);
			return n->n_descsz;
		}
		off += ALIGN(n->n_descsz, 4);
	}
	return 0;
}

/* The GNU build-id note in @p (one page of an ELF file); its length or 0. */
static u32 klog_build_id_in(const u8 *p, u8 *id)
{
	const struct elf64_hdr *eh = (const void *)p;
	const struct elf64_phdr *ph;
	u32 len;
	u16 i;

	if (memcmp(eh->e_ident, ELFMAG, SELFMAG) ||
	    eh->e_ident[EI_CLASS] != ELFCLASS64 ||
	    eh->e_phentsize != sizeof(*ph) ||
	    eh->e_phoff > PAGE_SIZE ||
	    eh->e_phnum > (PAGE_SIZE - eh->e_phoff) / sizeof(*ph))
		return 0;
	ph = (const void *)(p + eh->e_phoff);
	for (i = 0; i < eh->e_phnum; i++, ph++) {
		if (ph->p_type != PT_NOTE || ph->p_offset >= PAGE_SIZE ||
		    !IS_ALIGNED(ph->p_offset, 4))
			continue;
		len = klog_build_id_notes(p + ph->p_offset,
					  min_t(u64, ph->p_filesz,
						PAGE_SIZE - ph->p_offset), id);
		if (len)
			return len;
	}
	return 0;
}

/* @file's build-id from its cached first page; its length or 0. */
static u32 klog_build_id(struct file *file, u8 *id)
{
	struct folio *folio;
	u32 len = 0;
	u8 *p;

	folio = filemap_get_folio(file->f_mapping, 0);
	/* 6.1 answers a miss with NULL, 6.12 with ERR_PTR(-ENOENT). */
	if (IS_ERR_OR_NULL(folio))
		return 0;
	if (folio_test_uptodate(folio)) {
		p = kmap_local_folio(folio, 0);
		len = klog_build_id_in(p, id);
		kunmap_local(p);
	}
	folio_put(folio);
	return len;
}

struct klog_rsds {
	u64 image_base;
	u32 process_id;
	u8 guid_sig[16];
	u32 age;
} __packed;

struct klog_image_info {
	u64 image_base;
	u64 image_size;
	u32 process_id;
	u32 time_date_stamp;
} __packed;

static_assert(sizeof(struct klog_rsds) == 32);
static_assert(sizeof(struct klog_image_info) == 24);

/*
 * The identity of the image at @base with build-id @id (@id_len bytes, 0:
 * none known), for @pid, with the image event's time @ts.  @path is its
 * path; @name room for its UTF-16 name.
 */
void klog_image_id_write(const u8 *id, u32 id_len, u64 base, u64 size,
			 u32 pid, const char *path, u8 *name, u32 name_room,
			 struct klog_session *target, u64 ts)
{
	const char *base_name = strrchr(path, '/');
	struct klog_image_info info = {
		.image_base = base,
		.image_size = size,
		.process_id = pid,
	};
	struct klog_rsds rsds = {
		.image_base = base,
		.process_id = pid,
	};
	u8 full[KLOG_BUILD_ID_MAX] = { 0 };
	struct klog_part parts[2];
	struct klog_event ev = {
		.hook = KLOG_IMAGE_ID_INFO,
		.header_type = KLOG_HDR_FULL,
		.version = 2,
		.flag = ETW_KFLAG_IMAGE_LOAD,
		.tid = klog_tid(current),
		.pid = klog_pid(current),
		.timestamp = ts,
		.parts = parts,
		.nr_parts = 2,
		.target = target,
		.guid = &klog_image_id_guid,
	};

	base_name = base_name ? base_name + 1 : path;
	parts[0].data = &info;
	parts[0].size = sizeof(info);
	parts[1].data = name;
	parts[1].size = klog_utf16(name, name_room, base_name,
				   strlen(base_name));
	klog_write(&ev);

	if (!id_len)
		return;
	memcpy(full, id, min_t(u32, id_len, sizeof(full)));
	memcpy(rsds.guid_sig, full, sizeof(rsds.guid_sig));
	memcpy(&rsds.age, full + sizeof(rsds.guid_sig), sizeof(rsds.age));
	ev.hook = KLOG_IMAGE_ID_RSDS;
	parts[0].data = &rsds;
	parts[0].size = sizeof(rsds);
	parts[1].data = path;
	parts[1].size = strlen(path) + 1;
	klog_write(&ev);
}

/* The identity of the image @file at @base: its build-id from the file. */
void klog_image_id(struct file *file, u64 base, u64 size, u32 pid,
		   const char *path, u8 *name, u32 name_room,
		   struct klog_session *target, u64 ts)
{
	u8 id[KLOG_BUILD_ID_MAX];

	klog_image_id_write(id, klog_build_id(file, id), base, size, pid,
			    path, name, name_room, target, ts);
}
