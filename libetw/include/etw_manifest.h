/* SPDX-License-Identifier: MIT */
/*
 * etw_manifest.h: instrumentation manifests (Windows' EventManifest
 * schema, the input of mc.exe and wevtutil) read into a plain C model, and
 * the places they are installed.  The model is what the decoders build
 * their TRACE_EVENT_INFO from and what `etw mc` generates a header from.
 *
 * Every string is UTF-8 and NUL-terminated; a message that named a string
 * table entry, "$(string.Id)", holds that entry's text (the en-US table
 * if the manifest has one, else its first).  Values are the numbers the
 * event descriptors carry; in-types and out-types are TDH_INTYPE_* and
 * TDH_OUTTYPE_* numbers (<tdh.h>), out_type 0 when the manifest gave none.
 * A model is immutable once read and may be shared between threads.
 */
#ifndef LIBETW_ETW_MANIFEST_H
#define LIBETW_ETW_MANIFEST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "guiddef.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A level, opcode, task, channel or keyword: keywords' value is the mask. */
struct etw_mf_value {
	const char *name;		/* "win:Informational", "Connect" */
	const char *symbol;		/* the C name mc gives it, or NULL */
	const char *message;		/* its display text, or NULL */
	uint64_t value;
};

struct etw_mf_task {
	struct etw_mf_value v;
	GUID event_guid;		/* zero if none */
	struct etw_mf_value *opcodes;	/* the task's own opcodes */
	size_t nopcodes;
};

struct etw_mf_channel {
	struct etw_mf_value v;		/* name, symbol, message, value */
	const char *chid;		/* the id events use, or NULL */
	const char *type;		/* Admin, Operational, ... or NULL */
	/* Application (the default), System or Custom; an imported channel's own name. */
	const char *isolation;
	bool imported;			/* <importChannel> */
	bool enabled;
	/*
	 * The channel keyword bit mc.exe gives each channel of a provider,
	 * from bit 63 down in the manifest's order; every event of the
	 * channel has it in its keywords, so that a session enabling the
	 * provider with it (the Event Log's) gets the channel's events.
	 */
	uint64_t keyword;
};

struct etw_mf_map_entry {
	uint32_t value;
	const char *message;		/* "" if it had none */
};

struct etw_mf_map {
	const char *name;
	bool bitmap;			/* <bitMap>, else <valueMap> */
	struct etw_mf_map_entry *entries;
	size_t nentries;
};

#define ETW_MF_NONE	UINT16_MAX	/* no count/length field, no parent */

/*
 * A data item or struct of a template.  The fields are in TDH's order:
 * the template's top-level items first, then each struct's members
 * together (struct_first, struct_members), so an index here is a
 * property index of the event's TRACE_EVENT_INFO.
 */
struct etw_mf_field {
	const char *name;
	bool is_struct;
	uint16_t in_type;		/* TDH_INTYPE_*; 0 for a struct */
	uint16_t out_type;		/* TDH_OUTTYPE_*, 0 = the in-type's default */
	const struct etw_mf_map *map;	/* or NULL */
	uint16_t count;			/* fixed element count, 1 if not an array */
	uint16_t count_field;		/* or the field holding it, ETW_MF_NONE */
	uint16_t length;		/* fixed length (bytes, chars), 0 if none */
	uint16_t length_field;		/* or the field holding it, ETW_MF_NONE */
	bool array;			/* count or count_field was given */
	uint16_t struct_first;		/* members of a struct */
	uint16_t struct_members;
	uint16_t parent;		/* the struct it is in, or ETW_MF_NONE */
	unsigned long line;
};

struct etw_mf_template {
	const char *tid;
	const char *name;		/* or NULL */
	struct etw_mf_field *fields;
	size_t nfields;
	size_t ntop;			/* top-level fields: fields[0..ntop) */
	bool user_data;			/* has <UserData> */
	unsigned long line;
};

struct etw_mf_event {
	uint16_t id;
	uint8_t version;
	uint8_t channel;
	uint8_t level;
	uint8_t opcode;
	uint16_t task;
	uint64_t keywords;
	const char *symbol;		/* or NULL */
	const char *name;		/* the name attribute, or NULL */
	const char *message;		/* or NULL */
	/* What the numbers above came from; NULL where the event named none. */
	const struct etw_mf_value *level_v, *opcode_v, *task_v;
	const struct etw_mf_channel *channel_v;
	const struct etw_mf_value **keyword_v;	/* nkeywords of them */
	size_t nkeywords;
	const struct etw_mf_template *tmpl;	/* or NULL: no payload */
	unsigned long line;
};

struct etw_mf_provider {
	const char *name;
	GUID guid;
	const char *symbol;		/* or NULL */
	const char *message;		/* or NULL */
	const char *resource_file;	/* resourceFileName, or NULL */
	struct etw_mf_channel *channels;
	size_t nchannels;
	struct etw_mf_value *levels;
	size_t nlevels;
	struct etw_mf_task *tasks;
	size_t ntasks;
	struct etw_mf_value *opcodes;
	size_t nopcodes;
	struct etw_mf_value *keywords;
	size_t nkeywords;
	struct etw_mf_map *maps;
	size_t nmaps;
	struct etw_mf_template *templates;
	size_t ntemplates;
	struct etw_mf_event *events;	/* in the manifest's order */
	size_t nevents;
	unsigned long line;
};

struct etw_manifest {
	struct etw_mf_provider *providers;
	size_t nproviders;
	const char *culture;		/* of the string table used, or NULL */
};

/* Why a manifest was refused: the line (0 if none) and what is wrong. */
struct etw_manifest_error {
	unsigned long line;
	char message[256];
};

/*
 * Read a manifest from @size bytes of XML, or from the file @path.
 * Returns 0 and the model in *@out, or a negative errno with *@err filled
 * in: -EBADMSG for a malformed manifest (XML or schema), -ENOMEM, or the
 * file's open/read error.
 */
int etw_manifest_parse(const void *xml, size_t size, struct etw_manifest **out,
		       struct etw_manifest_error *err);
int etw_manifest_read(const char *path, struct etw_manifest **out,
		      struct etw_manifest_error *err);
void etw_manifest_free(struct etw_manifest *m);

/* The event of @p with this id and version, or NULL. */
const struct etw_mf_event *etw_mf_find_event(const struct etw_mf_provider *p,
					     uint16_t id, uint8_t version);

/*
 * Where installed manifests live: the system directory (the build's
 * ETW_MANIFEST_DIR, /var/lib/etw/manifests by default) and the user's
 * ($XDG_DATA_HOME/etw/manifests, or ~/.local/share/etw/manifests).  The
 * decoders also search every directory of $ETW_MANIFEST_PATH (colon
 * separated), first.  Each returns the directory, or NULL if it cannot
 * be named (no home directory).
 */
const char *etw_manifest_system_dir(void);
const char *etw_manifest_user_dir(char *buf, size_t size);

/*
 * Every manifest file (*.man, *.xml) of the directories the decoders
 * search, in their order ($ETW_MANIFEST_PATH's, the user's, the
 * system's), or of @dir alone: @fn gets the model, or NULL and why the
 * file was refused.  @fn returns 0 to go on, 1 to keep the model (it then
 * owns it), a negative value to stop with it.
 */
typedef int (*etw_manifest_fn)(void *ctx, const char *path,
			       struct etw_manifest *m,
			       const struct etw_manifest_error *err);
int etw_manifest_foreach(etw_manifest_fn fn, void *ctx);
int etw_manifest_foreach_in(const char *dir, etw_manifest_fn fn, void *ctx);

/* "<guid>.man", the name an installed manifest of provider @g has. */
void etw_manifest_file_name(const GUID *g, char buf[42]);

/*
 * Install the manifest @path into @dir (created if missing), as
 * <provider guid>.man for each provider it describes, after reading it
 * (a malformed manifest is refused with *@err).  Uninstall removes the
 * file of the provider @guid from @dir.  0 or a negative errno.
 */
int etw_manifest_install(const char *path, const char *dir,
			 struct etw_manifest_error *err);
int etw_manifest_install_xml(const void *xml, size_t size, const char *dir,
			     struct etw_manifest_error *err);
int etw_manifest_uninstall(const GUID *guid, const char *dir);

/*
 * The compiled manifest a program built with `etw mc -b` carries (its ELF
 * section ETW_MANIFEST_SECTION): a malloc'd copy in *@xml, its size in
 * *@size.  -ENOENT if the program has none, -ENOEXEC if it is not ELF.
 */
#define ETW_MANIFEST_SECTION	".etw_manifest"
int etw_manifest_from_binary(const char *path, void **xml, size_t *size);

/*
 * Make the manifests of @path (a file) known to this process's decoders
 * before every installed one, as TdhLoadManifest does; 0 or a negative
 * errno, *@err saying why a manifest was refused.
 */
int etw_manifest_load(const char *path, struct etw_manifest_error *err);

/*
 * The provider @guid as the decoders see it (loaded manifests, then
 * $ETW_MANIFEST_PATH, the user's and the system directory), or NULL.
 * The model stays valid until the process ends or it is unloaded.
 */
const struct etw_mf_provider *etw_manifest_find_provider(const GUID *guid);

#ifdef __cplusplus
}
#endif

#endif /* LIBETW_ETW_MANIFEST_H */
