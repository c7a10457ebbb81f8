/* SPDX-License-Identifier: MIT */
/*
 * etw_mof.h: the MOF schemas of classic providers (the subset of WMI's
 * Managed Object Format that ETW's classic providers publish with
 * mofcomp), read into a plain C model, and the store the decoders find
 * them in.  A classic event (EVENT_TRACE_HEADER: class GUID, Class.Type,
 * Class.Version) is decoded by the event type class whose event class has
 * that Guid and EventVersion and whose EventType lists that type, after
 * the kernel's own classes.
 *
 * Every string is UTF-8 and NUL-terminated.  A model is immutable once
 * read and may be shared between threads.
 */
#ifndef LIBETW_ETW_MOF_H
#define LIBETW_ETW_MOF_H

#include <stdbool.h>
#include <stddef.h>

#include "guiddef.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A qualifier: Name, Name(value) or Name{value, ...}; values as written. */
struct etw_mof_qualifier {
	const char *name;
	const char **values;		/* strings unquoted, numbers as text */
	size_t nvalues;
	bool list;			/* written with braces */
};

struct etw_mof_property {
	const char *name;
	const char *type;		/* "uint32", "string", "object", ... */
	bool array;			/* name[] or name[N] */
	unsigned int array_size;	/* N, or 0 for name[] */
	struct etw_mof_qualifier *qualifiers;
	size_t nqualifiers;
	unsigned long line;
};

struct etw_mof_class {
	const char *name;
	const char *parent;		/* or NULL */
	struct etw_mof_qualifier *qualifiers;
	size_t nqualifiers;
	struct etw_mof_property *properties;
	size_t nproperties;
	unsigned long line;
};

struct etw_mof {
	const char *path;
	struct etw_mof_class *classes;	/* in file order */
	size_t nclasses;
};

struct etw_mof_error {
	unsigned long line;		/* 0 if the error has no line */
	char message[256];
};

/*
 * Read a MOF text (path names it in errors) or file.  0, or -EBADMSG
 * with err filled (line and message), -ENOMEM, or -errno of the file.
 * Besides the syntax, the ETW rules are checked: every class's parent is
 * EventTrace or a class of the file, Guid qualifiers are GUIDs, every
 * property of an event type class has a WmiDataId, and its type and
 * qualifiers are ones the decoders know.
 */
int etw_mof_parse(const char *text, size_t size, const char *path,
		  struct etw_mof **out, struct etw_mof_error *err);
int etw_mof_read(const char *path, struct etw_mof **out,
		 struct etw_mof_error *err);
void etw_mof_free(struct etw_mof *m);

/* The class's qualifier of that name (case-insensitive), or NULL. */
const struct etw_mof_qualifier *
etw_mof_class_qualifier(const struct etw_mof_class *c, const char *name);
const struct etw_mof_qualifier *
etw_mof_property_qualifier(const struct etw_mof_property *p, const char *name);

/*
 * The store: *.mof files of the directories of $ETW_MOF_PATH (':'
 * separated, searched first), the user's ($XDG_DATA_HOME/etw/mof or
 * ~/.local/share/etw/mof) and the system's (/var/lib/etw/mof), read once
 * per process on the first lookup; a class found first wins.
 */
const char *etw_mof_system_dir(void);
const char *etw_mof_user_dir(char *buf, size_t size);

/*
 * Install a MOF file into dir (checked first; -EBADMSG with err as
 * etw_mof_read gives) under its own base name, replacing a file of that
 * name; uninstall the installed file that has that base name (".mof"
 * may be left out) or that defines a class of that name or Guid.
 * 0, -ENOENT (nothing matched), -errno.
 */
int etw_mof_install(const char *path, const char *dir,
		    struct etw_mof_error *err);
int etw_mof_uninstall(const char *name, const char *dir);

/*
 * Each *.mof file of dir, in name order: fn gets its model, or NULL and
 * why it could not be read.  fn returns 1 to keep the model (it frees
 * it), 0 to go on, <0 to stop with that value.
 */
typedef int (*etw_mof_fn)(void *ctx, const char *path, struct etw_mof *m,
			  const struct etw_mof_error *err);
int etw_mof_foreach_in(const char *dir, etw_mof_fn fn, void *ctx);
/* The same over every directory of the store, in search order. */
int etw_mof_foreach(etw_mof_fn fn, void *ctx);

#ifdef __cplusplus
}
#endif

#endif /* LIBETW_ETW_MOF_H */
