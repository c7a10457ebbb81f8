// SPDX-License-Identifier: GPL-2.0
/*
 * etw wpp: the format types and the statements that make them.
 *
 *   DEFINE_SIMPLE_TYPE(Name, CType, Item, "fmt", sig, priority)
 *	an argument of CType logged by value (sizeof(CType) bytes); with no
 *	CType, a constant: "fmt" is put into the message text, nothing logged
 *   DEFINE_SIMPLE_TYPE_PTR(Name, CType, Item, "fmt", sig, priority)
 *	a pointer argument, the object it points to logged
 *   DEFINE_CPLX_TYPE(Name, Macro, CType, Item, "fmt", sig, priority[, slots])
 *	logged by Macro(arg), which gives TraceMessage's (address, size) pairs
 *   DEFINE_FLAVOR(Name, Base, Item, "fmt")
 *	Base with another TMF item or format (either may be left empty)
 *   CUSTOM_TYPE(name, ItemX(a, b, ...)), also TYPEMACRO(...)
 *	the flavor named ItemX (ItemListLong, ItemSetLong, ItemEnum ...) with
 *	the item written out in full; ItemEnum(T) takes T's names from an enum
 *	T the scanned files define
 *
 * priority and slots are accepted and not needed: the byte counts come
 * from the C types and the macros.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "wpp.h"

struct wpp_type *wpp_type_find(const struct wpp_config *cfg, const char *name)
{
	for (int i = cfg->ntypes - 1; i >= 0; i--)
		if (!strcmp(cfg->types[i].name, name))
			return &cfg->types[i];
	return NULL;
}

static char *dup_or_null(const char *s)
{
	return s && *s ? wpp_strdup(s) : NULL;
}

static void add(struct wpp_config *cfg, const struct wpp_type *t)
{
	cfg->types = realloc(cfg->types, sizeof(*t) * (cfg->ntypes + 1));
	if (!cfg->types)
		abort();
	cfg->types[cfg->ntypes++] = *t;
}

/* A format argument: a string, or empty (nothing). */
static int format_arg(const char *arg, char **out, const struct wpp_pos *pos)
{
	*out = NULL;
	if (!*arg)
		return 0;
	*out = wpp_unquote(arg);
	if (!*out)
		return wpp_error(pos, "the format %s is not a string", arg);
	return 0;
}

static int simple(struct wpp_config *cfg, char **a, int n, enum wpp_type_kind kind,
		  const struct wpp_pos *pos)
{
	struct wpp_type t = { 0 };

	if (n != 6)
		return wpp_error(pos, "DEFINE_SIMPLE_TYPE needs 6 arguments, not %d", n);
	if (format_arg(a[3], &t.format, pos))
		return -1;
	t.name = wpp_strdup(a[0]);
	t.kind = *a[1] ? kind : WPP_TYPE_CONST;
	t.ctype = dup_or_null(a[1]);
	t.item = dup_or_null(a[2]);
	t.sig = dup_or_null(a[4]);
	if (t.kind != WPP_TYPE_CONST && (!t.item || !t.sig || !t.format))
		return wpp_error(pos, "type %s: an item, a format and a signature are needed",
				 t.name);
	if (t.kind == WPP_TYPE_CONST && !t.format)
		return wpp_error(pos, "constant %s: no text", t.name);
	add(cfg, &t);
	return 0;
}

static int complex_type(struct wpp_config *cfg, char **a, int n, const struct wpp_pos *pos)
{
	struct wpp_type t = { .kind = WPP_TYPE_COMPLEX };

	if (n != 7 && n != 8)
		return wpp_error(pos, "DEFINE_CPLX_TYPE needs 7 or 8 arguments, not %d", n);
	if (format_arg(a[4], &t.format, pos))
		return -1;
	if (!*a[1] || !*a[2] || !*a[3] || !*a[5] || !t.format)
		return wpp_error(pos, "DEFINE_CPLX_TYPE %s: an empty argument", a[0]);
	t.name = wpp_strdup(a[0]);
	t.macro = wpp_strdup(a[1]);
	t.ctype = wpp_strdup(a[2]);
	t.item = wpp_strdup(a[3]);
	t.sig = wpp_strdup(a[5]);
	add(cfg, &t);
	return 0;
}

static struct wpp_type copy(const struct wpp_type *b, const char *name)
{
	struct wpp_type t = {
		.name = wpp_strdup(name),
		.kind = b->kind,
		.ctype = dup_or_null(b->ctype),
		.item = dup_or_null(b->item),
		.format = dup_or_null(b->format),
		.macro = dup_or_null(b->macro),
		.sig = dup_or_null(b->sig),
		.enum_name = dup_or_null(b->enum_name),
	};
	return t;
}

static int flavor(struct wpp_config *cfg, char **a, int n, const struct wpp_pos *pos)
{
	const struct wpp_type *base;
	struct wpp_type t;
	char *fmt;

	if (n != 4)
		return wpp_error(pos, "DEFINE_FLAVOR needs 4 arguments, not %d", n);
	base = wpp_type_find(cfg, a[1]);
	if (!base)
		return wpp_error(pos, "DEFINE_FLAVOR %s: no type %s", a[0], a[1]);
	if (format_arg(a[3], &fmt, pos))
		return -1;
	t = copy(base, a[0]);
	if (*a[2]) {
		free(t.item);
		t.item = wpp_strdup(a[2]);
	}
	if (fmt) {
		free(t.format);
		t.format = fmt;
	}
	add(cfg, &t);
	return 0;
}

static int custom(struct wpp_config *cfg, char **a, int n, const struct wpp_pos *pos)
{
	const struct wpp_type *base;
	struct wpp_type t;
	char *open, *kind;

	if (n != 2)
		return wpp_error(pos, "CUSTOM_TYPE needs (name, ItemType(values))");
	open = strchr(a[1], '(');
	if (!open || a[1][strlen(a[1]) - 1] != ')')
		return wpp_error(pos, "CUSTOM_TYPE %s: '%s' is not ItemType(values)", a[0], a[1]);
	kind = wpp_strndup(a[1], (size_t)(open - a[1]));
	base = wpp_type_find(cfg, kind);
	if (!base) {
		wpp_error(pos, "CUSTOM_TYPE %s: unknown item type %s", a[0], kind);
		free(kind);
		return -1;
	}
	t = copy(base, a[0]);
	free(t.item);
	/* The item as TMFs write it: no spaces inside. */
	t.item = malloc(strlen(a[1]) + 1);
	if (!t.item)
		abort();
	{
		char *d = t.item;

		for (const char *s = a[1]; *s; s++)
			if (!isspace((unsigned char)*s))
				*d++ = *s;
		*d = 0;
	}
	if (!strcmp(kind, "ItemEnum"))
		t.enum_name = wpp_strndup(open + 1, strlen(open + 1) - 1);
	free(kind);
	add(cfg, &t);
	return 0;
}

int wpp_type_statement(struct wpp_config *cfg, const char *stmt, char **args, int nargs,
		       const struct wpp_pos *pos)
{
	if (nargs < 1 || !*args[0])
		return wpp_error(pos, "%s: no name", stmt);
	if (!strcmp(stmt, "DEFINE_SIMPLE_TYPE"))
		return simple(cfg, args, nargs, WPP_TYPE_VALUE, pos);
	if (!strcmp(stmt, "DEFINE_SIMPLE_TYPE_PTR"))
		return simple(cfg, args, nargs, WPP_TYPE_POINTER, pos);
	if (!strcmp(stmt, "DEFINE_CPLX_TYPE"))
		return complex_type(cfg, args, nargs, pos);
	if (!strcmp(stmt, "DEFINE_FLAVOR"))
		return flavor(cfg, args, nargs, pos);
	/* TYPEMACRO: CUSTOM_TYPE's older name, which Windows' pages use. */
	if (!strcmp(stmt, "CUSTOM_TYPE") || !strcmp(stmt, "TYPEMACRO"))
		return custom(cfg, args, nargs, pos);
	return wpp_error(pos, "unknown configuration statement %s", stmt);
}
