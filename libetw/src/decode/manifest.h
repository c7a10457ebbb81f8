/* SPDX-License-Identifier: MIT */
/*
 * Reading manifests (manifest_*.c): the arena the model lives in, the
 * names Windows predefines (winmeta.xml's levels, opcodes, tasks,
 * channels, keywords, in-types and out-types), and the finishing pass
 * that turns the names a manifest uses into values.
 */
#ifndef LIBETW_DECODE_MANIFEST_H
#define LIBETW_DECODE_MANIFEST_H

#include <stdarg.h>
#include <stddef.h>

#include <etw_manifest.h>

/* All of one model's memory: freed at once. */
struct mf_arena {
	struct mf_block *head;
};

void *mf_alloc(struct mf_arena *a, size_t size);
char *mf_strdup(struct mf_arena *a, const char *s);
char *mf_strndup(struct mf_arena *a, const char *s, size_t n);
void mf_arena_free(struct mf_arena *a);

/* A growing array in the arena: *@v holds *@n items, room for *@cap. */
void *mf_push(struct mf_arena *a, void *vp, size_t *n, size_t *cap,
	      size_t item_size);

/*
 * A model and its arena: struct etw_manifest is the first member, so the
 * pointer given out is this one's.
 */
struct mf_model {
	struct etw_manifest m;
	struct mf_arena arena;
};

/* winmeta.xml's names: NULL/false if @name is not one of them. */
const struct etw_mf_value *mf_win_level(const char *name);
const struct etw_mf_value *mf_win_opcode(const char *name);
const struct etw_mf_value *mf_win_task(const char *name);
const struct etw_mf_value *mf_win_keyword(const char *name);
/* The predefined channels, by name ("Application") or value. */
const struct etw_mf_channel *mf_win_channel(const char *name);
bool mf_in_type(const char *name, uint16_t *type);
bool mf_out_type(const char *name, uint16_t *type);

/* Parsing a number (decimal or 0x hex) or a GUID ("{...}" or bare). */
bool mf_number(const char *s, uint64_t max, uint64_t *v);
bool mf_guid(const char *s, GUID *g);

/*
 * What the parser leaves for the finishing pass: the names an event or a
 * field used, resolved once the whole provider is read (templates and
 * maps may come after the events that use them), and the fields in the
 * manifest's order (the model has them in TDH's).
 */
struct mf_event_refs {
	const char *level, *task, *opcode, *channel, *keywords, *tmpl;
	const char *message;
};

struct mf_raw_field {
	const char *name, *in, *out, *map, *count, *length;
	bool is_struct;
	size_t parent;			/* raw index of its struct, or SIZE_MAX */
	unsigned long line;
};

struct mf_raw_template {
	struct mf_raw_field *f;
	size_t n, cap;
};

struct mf_pending {
	struct mf_event_refs *events;	/* parallel to the provider's events */
	size_t nevents, cap_events;
	struct mf_raw_template *templates;	/* and to its templates */
	size_t ntemplates, cap_templates;
};

struct mf_string {
	const char *id, *value;
	const char *culture;
};

/* Everything the parser collected, then finished into the model. */
struct mf_build {
	struct mf_model *model;
	struct etw_manifest_error *err;
	struct mf_pending *pending;	/* parallel to the providers */
	size_t cap_providers, cap_pending, npending;
	struct mf_string *strings;
	size_t nstrings, cap_strings;
};

/* A whole regular file, malloc'd; 0 or a negative errno. */
int mf_read_file(const char *path, char **buf, size_t *size);

/* Record an error (the first one wins); returns -EBADMSG. */
int mf_error(struct etw_manifest_error *err, unsigned long line,
	     const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* Resolve names to values and check the references; 0 or -EBADMSG. */
int mf_finish(struct mf_build *b);

/*
 * TdhLoadManifestFromMemory's and TdhUnloadManifest's side of the
 * loaded list: @name is what unloading names it by; @each is called with
 * the GUID of every provider of the manifest unloaded.  And every
 * provider the decoders know, the first of each GUID, under the list's
 * lock (@fn must not call back into the store).
 */
int etw_manifest_load_xml(const void *xml, size_t size, const char *name,
			  struct etw_manifest_error *err);
int etw_manifest_unload(const char *path, void (*each)(const GUID *guid));
int etw_manifest_providers_foreach(int (*fn)(void *ctx,
					     const struct etw_mf_provider *p),
				   void *ctx);

/*
 * The description (event_info.h) of event @e of provider @p: what the
 * XMLFile source builds and TdhGetManifestEventInformation returns.
 */
struct decode_key;
struct decode_desc;
int mf_describe(const struct etw_mf_provider *p, const struct etw_mf_event *e,
		const struct decode_key *key, struct decode_desc **out);

#endif /* LIBETW_DECODE_MANIFEST_H */
