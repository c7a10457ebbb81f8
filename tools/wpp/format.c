// SPDX-License-Identifier: GPL-2.0
/*
 * etw wpp: a call's format text, as the TMF writes it.  The function's
 * USEPREFIX text, the message and the USESUFFIX text are joined; each
 * conversion that takes an argument becomes %N!fmt! with N = 10, 11, ...
 * in argument order and fmt = the conversion's flags, width and precision
 * followed by the type's TMF format (%08x -> %10!08x!, %!STATUS! ->
 * %10!s!); a constant (%!FUNC!, %!STDPREFIX!) becomes its text; %% stays.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wpp.h"

struct piece {
	const char *text;
	int nexprs;
	char **exprs;		/* the arguments, as written */
	char **params;		/* the same in the call-site macro */
	bool consts_only;	/* a prefix: no arguments */
	const char *what;
};

/* The longest type name made of letters and digits at s. */
static const struct wpp_type *printf_type(const struct wpp_config *cfg, const char *s,
					  size_t *len)
{
	const struct wpp_type *best = NULL;

	*len = 0;
	for (int i = 0; i < cfg->ntypes; i++) {
		const char *n = cfg->types[i].name;
		size_t l = strlen(n);
		bool word = true;

		for (size_t k = 0; k < l; k++)
			word &= isalnum((unsigned char)n[k]) != 0;
		if (word && l > *len && !strncmp(s, n, l)) {
			best = wpp_type_find(cfg, n);
			*len = l;
		}
	}
	return best;
}

static int add_arg(struct wpp_msg *m, const struct wpp_type *t, const char *expr,
		   const char *param)
{
	m->args = realloc(m->args, sizeof(*m->args) * (m->nargs + 1));
	if (!m->args)
		abort();
	m->args[m->nargs].expr = wpp_strdup(expr);
	m->args[m->nargs].param = wpp_strdup(param);
	m->args[m->nargs].type = t;
	return 10 + m->nargs++;
}

static int check_enum(const struct wpp_config *cfg, const struct wpp_type *t,
		      const struct wpp_msg *m)
{
	const struct wpp_enum *e;

	if (!t->enum_name)
		return 0;
	e = wpp_enum_find(cfg, t->enum_name);
	if (!e)
		return wpp_error(&m->pos, "%%!%s!: no enum %s in the scanned files (-scan: its header)",
				 t->name, t->enum_name);
	if (e->bad_line) {
		struct wpp_pos p = { e->pos.file, e->bad_line };

		return wpp_error(&p, "enum %s: a value that is not an integer constant",
				 e->name);
	}
	return 0;
}

static int piece(const struct wpp_config *cfg, const struct wpp_source *src,
		 struct wpp_msg *m, const struct piece *pc, struct wpp_buf *out)
{
	const char *p = pc->text;
	int used = 0;

	while (*p) {
		const struct wpp_type *t;
		const char *spec;
		size_t speclen, len;
		char *name;

		if (*p != '%') {
			wpp_buf_add(out, p, 1);
			p++;
			continue;
		}
		if (p[1] == '%') {
			wpp_buf_puts(out, "%%");
			p += 2;
			continue;
		}
		/* %N!fmt! and %0 ... %9 alone: the formatter's own, kept. */
		if (isdigit((unsigned char)p[1])) {
			const char *q = p + 1;

			while (isdigit((unsigned char)*q))
				q++;
			if (*q == '!') {
				const char *e = strchr(q + 1, '!');

				if (!e)
					return wpp_error(&m->pos, "%s: '%.*s' has no closing '!'",
							 pc->what, (int)(q - p + 1), p);
				wpp_buf_add(out, p, (size_t)(e + 1 - p));
				p = e + 1;
				continue;
			}
			if (q == p + 2 && !isalpha((unsigned char)*q) && *q != '.') {
				wpp_buf_add(out, p, 2);
				p += 2;
				continue;
			}
		}
		spec = p + 1;
		if (*spec == '!') {
			const char *e = strchr(spec + 1, '!');

			if (!e)
				return wpp_error(&m->pos, "%s: %%!%s has no closing '!'", pc->what,
						 spec + 1);
			name = wpp_strndup(spec + 1, (size_t)(e - spec - 1));
			t = wpp_type_find(cfg, name);
			if (!t) {
				wpp_error(&m->pos, "%s: unknown format %%!%s!", pc->what, name);
				free(name);
				return -1;
			}
			free(name);
			speclen = 0;
			p = e + 1;
		} else {
			const char *q = spec;

			while (*q && strchr("-+ #0", *q))
				q++;
			while (isdigit((unsigned char)*q) || *q == '.')
				q++;
			if (*q == '*')
				return wpp_error(&m->pos, "%s: '*' widths are not supported", pc->what);
			speclen = (size_t)(q - spec);
			t = printf_type(cfg, q, &len);
			if (!t) {
				int n = 1;

				while (isalnum((unsigned char)q[n - 1]) && q[n])
					n++;
				return wpp_error(&m->pos, "%s: unknown format %%%.*s", pc->what,
						 (int)(q - p) + n - 1, p + 1);
			}
			p = q + len;
		}
		if (t->kind == WPP_TYPE_CONST) {
			if (!strcmp(t->format, "__FILE__"))
				wpp_buf_puts(out, src->base);
			else if (!strcmp(t->format, "__LINE__"))
				wpp_buf_printf(out, "%d", m->pos.line);
			else
				wpp_buf_puts(out, t->format);
			continue;
		}
		if (pc->consts_only)
			return wpp_error(&m->pos, "%s: %%%s takes an argument; a prefix takes none",
					 pc->what, t->name);
		if (used == pc->nexprs)
			return wpp_error(&m->pos, "%s: more formats than arguments (%d)", pc->what,
					 pc->nexprs);
		if (check_enum(cfg, t, m))
			return -1;
		wpp_buf_printf(out, "%%%d!%.*s%s!",
			       add_arg(m, t, pc->exprs[used], pc->params[used]),
			       (int)speclen, spec, t->format);
		used++;
	}
	if (used < pc->nexprs)
		return wpp_error(&m->pos, "%s: %d arguments for %d formats", pc->what,
				 pc->nexprs, used);
	return 0;
}

/* Replace the function's parameter names in a USESUFFIX argument. */
static char *substitute(const struct wpp_msg *m, const char *arg, bool params)
{
	struct wpp_buf b = { 0 };
	const char *p = arg;

	wpp_buf_puts(&b, "");
	while (*p) {
		if (isalpha((unsigned char)*p) || *p == '_') {
			const char *s = p;
			int i;

			while (isalnum((unsigned char)*p) || *p == '_')
				p++;
			for (i = 0; i < m->func->nparams; i++)
				if (i != m->func->msg && strlen(m->func->params[i]) == (size_t)(p - s) &&
				    !strncmp(m->func->params[i], s, (size_t)(p - s)))
					break;
			if (i == m->func->nparams)
				wpp_buf_add(&b, s, (size_t)(p - s));
			else if (params)
				wpp_buf_printf(&b, "(wpp_v%d)", i);
			else
				wpp_buf_puts(&b, m->vals[i]);
		} else {
			wpp_buf_add(&b, p, 1);
			p++;
		}
	}
	return b.s;
}

static void free_strs(char **v, int n)
{
	while (n > 0)
		free(v[--n]);
	free(v);
}

int wpp_format_msg(const struct wpp_config *cfg, struct wpp_source *src, struct wpp_msg *m)
{
	const struct wpp_func *f = m->func;
	const struct wpp_fix *pre = wpp_fix_find(cfg->prefixes, cfg->nprefixes, f->name);
	const struct wpp_fix *suf = wpp_fix_find(cfg->suffixes, cfg->nsuffixes, f->name);
	struct wpp_buf out = { 0 };
	struct piece pc = { 0 };
	int ret = 0;

	wpp_buf_puts(&out, "");
	if (pre) {
		pc = (struct piece){ .text = pre->text, .consts_only = true, .what = "USEPREFIX" };
		ret = piece(cfg, src, m, &pc, &out);
	}
	if (!ret && f->msg >= 0) {
		char *text = wpp_unquote(m->vals[f->msg]);

		if (!text) {
			wpp_buf_free(&out);
			return wpp_error(&m->pos, "the message of %s is not a string literal: %s",
					 f->name, m->vals[f->msg]);
		}
		pc = (struct piece){ .text = text, .nexprs = m->nvals - f->msg - 1,
				     .exprs = m->vals + f->msg + 1, .what = "message" };
		pc.params = malloc(sizeof(char *) * (size_t)(pc.nexprs + 1));
		for (int i = 0; i < pc.nexprs; i++) {
			char b[32];

			snprintf(b, sizeof(b), "(wpp_v%d)", f->msg + 1 + i);
			pc.params[i] = wpp_strdup(b);
		}
		ret = piece(cfg, src, m, &pc, &out);
		free_strs(pc.params, pc.nexprs);
		free(text);
	}
	if (!ret && suf) {
		pc = (struct piece){ .text = suf->text, .nexprs = suf->nargs, .what = "USESUFFIX" };
		pc.exprs = malloc(sizeof(char *) * (size_t)(suf->nargs + 1));
		pc.params = malloc(sizeof(char *) * (size_t)(suf->nargs + 1));
		for (int i = 0; i < suf->nargs; i++) {
			pc.exprs[i] = substitute(m, suf->args[i], false);
			pc.params[i] = substitute(m, suf->args[i], true);
		}
		ret = piece(cfg, src, m, &pc, &out);
		free_strs(pc.exprs, suf->nargs);
		free_strs(pc.params, suf->nargs);
	}
	if (ret) {
		wpp_buf_free(&out);
		return ret;
	}
	m->text = out.s;
	return 0;
}

void wpp_source_free(struct wpp_source *src)
{
	for (int i = 0; i < src->nmsgs; i++) {
		struct wpp_msg *m = &src->msgs[i];

		free(m->function);
		free_strs(m->vals, m->nvals);
		free(m->text);
		for (int k = 0; k < m->nargs; k++) {
			free(m->args[k].expr);
			free(m->args[k].param);
		}
		free(m->args);
	}
	free(src->msgs);
	free(src->base);
	free(src->canon);
	free(src->msgname);
	memset(src, 0, sizeof(*src));
}
